"""How long `consolidate` holds the write lock at a time, and whether a store gets in while it runs.

Every write of consolidate goes through :func:`memengine.db.write_tx` (``BEGIN IMMEDIATE`` … ``COMMIT``); this
script wraps that function in every module that imported it and times each transaction from the moment it
holds the lock to the end of its commit (the longest one is what a store waiting behind it sees at once).
It also prints the time between one transaction's end and the next one's start ("gaps"): a run that takes the
lock again at once gives a waiting writer no window.

Stores: the fake-embedded store of ``bench/consolidate_speed.py`` (``--sizes``, default 10000): the first run,
then a night's new memories and the rerun. CPU seconds are this process's.

``--cli N``: then N cold `mem.py store` calls of a fact (each a fresh interpreter, the real model, a store of
facts that share words) report how long each held the lock and what it imported meanwhile; ``--repo DIR`` runs
another checkout's code for them (the base: ``--repo /work/main``).

``--beside N``: `mem.py consolidate` of a fresh 10k store (``MEM_EMBEDDER=hash``: built in seconds), and N
`mem.py store` calls started one after another while it runs: each one's exit code and the time it waited
for the write lock (its write transactions' waits added). Run::

    nice -n 10 .venv/bin/python bench/users30_locks.py --sizes 1500,10000 --cli 8 --keep /tmp/u30locks
    nice -n 10 .venv/bin/python bench/users30_locks.py --sizes 0 --cli 8 --repo /work/main
    nice -n 10 .venv/bin/python bench/users30_locks.py --sizes 0 --beside 8 [--repo /work/main]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from consolidate_speed import TopicEmbedder, build, night  # noqa: E402

from memengine import consolidate, db  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

HOLDS: list[tuple[float, float, str]] = []  # (start, seconds held, where: the caller outside memengine.db)


def _where() -> str:
    for frame in reversed(traceback.extract_stack()[:-3]):
        if not frame.filename.endswith(("/db.py", "contextlib.py")):
            return f"{Path(frame.filename).name}:{frame.lineno} {frame.name}"
    return "?"


def _install() -> None:
    original = db.write_tx

    @contextlib.contextmanager
    def timed(conn: Any) -> Iterator[Any]:
        where = _where()
        with original(conn) as c:
            t0 = time.perf_counter()
            yield c
        HOLDS.append((t0, time.perf_counter() - t0, where))  # (from holding the lock to the end of the commit)

    for mod in list(sys.modules.values()):
        if getattr(mod, "write_tx", None) is original:
            mod.write_tx = timed  # type: ignore[attr-defined]


def report(label: str, cpu: float, wall: float) -> None:
    holds = sorted(HOLDS)
    times = sorted(h[1] for h in holds)
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(holds, holds[1:])]
    total = sum(times)
    print(f"{label}: {len(times)} write transactions, held {total:.2f} s of {wall:.2f} s wall "
          f"({cpu:.2f} CPU-s); longest {times[-1] * 1000:.0f} ms, p95 {times[int(0.95 * (len(times) - 1))] * 1000:.0f} ms;"
          f" gaps under 1 ms: {sum(g < 0.001 for g in gaps)} of {len(gaps)}")
    # A writer that has waited a while polls the lock every 100 ms (SQLite's busy handler): a gap much shorter
    # than that is a window it almost never sees. The longest run of transactions with gaps under 10 ms:
    best, run_start = 0.0, 0
    for i in range(1, len(holds) + 1):
        if i == len(holds) or gaps[i - 1] >= 0.010:
            best = max(best, holds[i - 1][0] + holds[i - 1][1] - holds[run_start][0])
            run_start = i
    print(f"    longest stretch of transactions with gaps under 10 ms: {best * 1000:.0f} ms")
    for _start, sec, where in sorted(holds, key=lambda h: -h[1])[:5]:
        print(f"    {sec * 1000:8.1f} ms  {where}")
    HOLDS.clear()


# A cold `mem.py store` as mem.py runs it, every imported write_tx timing its hold (JSON on stderr's last line).
_WRAPPED_CLI = r"""
import contextlib, json, sys, time
sys.path.insert(0, sys.argv[1])
from memengine.recache import install
install()
import memcli
from memengine import db
original = db.write_tx
held = []

@contextlib.contextmanager
def timed(conn):
    asked = time.perf_counter()
    with original(conn) as c:
        before, t0, c0 = set(sys.modules), time.perf_counter(), time.process_time()
        yield c
        held.append([time.perf_counter() - t0, time.process_time() - c0, len(set(sys.modules) - before),
                     t0 - asked])

for mod in list(sys.modules.values()):
    if getattr(mod, "write_tx", None) is original:
        mod.write_tx = timed
try:
    memcli.main(sys.argv[2:])
finally:
    sys.stderr.write("\nHELD " + json.dumps(held) + "\n")
"""

FACTS = ["The wifi password at the office is tiger-{i}", "Dana's flight lands at {i}pm on Friday",
         "Priya owns the billing migration, staging is db-stage-{i}", "The standup moved to {i}:30"]


def cold_cli(n: int, repo: Path, directory: Path) -> None:
    """``n`` cold CLI stores of facts into a fresh store: the lock each held, its CPU, the modules it imported."""
    db_path = directory / "cli.db"
    for p in directory.glob("cli.db*"):
        p.unlink()
    rows = []
    for i in range(n):
        proc = subprocess.run([sys.executable, "-c", _WRAPPED_CLI, str(repo), "--db", str(db_path), "store",
                               FACTS[i % len(FACTS)].format(i=i + 2)], capture_output=True, text=True, cwd=str(repo))
        line = [x for x in proc.stderr.splitlines() if x.startswith("HELD ")]
        if proc.returncode != 0 or not line:
            print(f"  store {i}: exit {proc.returncode} {proc.stderr[-300:]}")
            continue
        holds = json.loads(line[-1][5:])
        if i > 0:  # (the first one creates the file: its migrations' transactions are not a store's)
            rows.append(max(holds, key=lambda h: h[0]) + [sum(h[2] for h in holds)])
    wall = sorted(r[0] * 1000 for r in rows)
    cpu = sorted(r[1] * 1000 for r in rows)
    print(f"{len(rows)} cold CLI stores ({repo}), each one's longest hold: lock held ms p50 {wall[len(wall) // 2]:.1f}, "
          f"max {wall[-1]:.1f}; CPU ms under it p50 {cpu[len(cpu) // 2]:.1f}, max {cpu[-1]:.1f}; "
          f"modules imported under the lock: {sum(r[3] for r in rows)}")


def beside(n: int, repo: Path, directory: Path, size: int = 10_000) -> None:
    """``n`` CLI stores started one after another while `mem.py consolidate` runs on a ``size`` store."""
    env = dict(os.environ, MEM_EMBEDDER="hash")
    pristine = directory / f"beside-{size}.pristine.db"
    if not pristine.exists():
        code = ("import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/bench')\n"
                "from consolidate_speed import items\nfrom memory_core import MemoryStore\n"
                "s = MemoryStore(sys.argv[2]); s.store_many(items(int(sys.argv[3])), batch_size=2000); s.close()")
        subprocess.run([sys.executable, "-c", code, str(Path(__file__).resolve().parent.parent), str(pristine),
                        str(size)], env=env, check=True)
    run_db = directory / "beside.run.db"
    for p in directory.glob("beside.run.db*"):
        p.unlink()
    shutil.copy(pristine, run_db)
    mem = [sys.executable, str(repo / "mem.py"), "--db", str(run_db)]
    t0 = time.perf_counter()
    job = subprocess.Popen([*mem, "consolidate", "--keep-backups", "0"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, cwd=str(repo))
    time.sleep(1.0)
    rows = []
    for i in range(n):
        if job.poll() is not None:
            break
        p = subprocess.run([sys.executable, "-c", _WRAPPED_CLI, str(repo), "--db", str(run_db), "store",
                            FACTS[i % len(FACTS)].format(i=i + 2), "--source", f"agent{i}"],
                           capture_output=True, text=True, env=env, cwd=str(repo))
        line = [x for x in p.stderr.splitlines() if x.startswith("HELD ")]
        waited = sum(h[3] for h in json.loads(line[-1][5:])) * 1000 if line else float("nan")
        rows.append((p.returncode, waited))
    job.communicate()
    wall = time.perf_counter() - t0
    took = sorted(r[1] for r in rows)
    print(f"{len(rows)} stores beside consolidate of {size} ({repo}; exit {job.returncode}, {wall:.1f} s wall): "
          f"exit codes {sorted({r[0] for r in rows})}; ms waiting for the lock p50 {took[len(took) // 2]:.0f}, "
          f"max {took[-1]:.0f}; "
          f"each: {' '.join(f'{t:.0f}' for _c, t in rows)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000")
    ap.add_argument("--keep", metavar="DIR", default="/tmp/u30locks")
    ap.add_argument("--cli", type=int, default=0, metavar="N", help="then N cold CLI stores of facts")
    ap.add_argument("--beside", type=int, default=0, metavar="N", help="N stores while consolidate runs")
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    args = ap.parse_args()
    directory = Path(args.keep)
    directory.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    _install()
    for n in (int(x) for x in args.sizes.split(",") if int(x) > 0):
        run_db = directory / f"locks-{n}.run.db"
        for p in directory.glob(run_db.name + "*"):
            p.unlink()
        shutil.copy(build(n, directory), run_db)
        s = MemoryStore(run_db, embedder=TopicEmbedder())
        now = datetime(2024, 6, 1)
        HOLDS.clear()
        c0, t0 = time.process_time(), time.perf_counter()
        consolidate.run(s, now=now, keep_backups=0)
        report(f"{n} first run", time.process_time() - c0, time.perf_counter() - t0)
        s.store_many(night(n), batch_size=2000)
        HOLDS.clear()
        c0, t0 = time.process_time(), time.perf_counter()
        consolidate.run(s, now=now + timedelta(days=1), keep_backups=0)
        report(f"{n} a night's rerun", time.process_time() - c0, time.perf_counter() - t0)
        s.close()
    if args.cli:
        cold_cli(args.cli, args.repo.resolve(), directory)
    if args.beside:
        beside(args.beside, args.repo.resolve(), directory)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
