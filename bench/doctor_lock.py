"""How long `doctor` (and `doctor --full`) keeps a writer waiting, and what its parts cost, on a big store.

    .venv/bin/python bench/doctor_lock.py --db /tmp/scale/scale-100000.v1.db --tree /work/base-start --tree .

For each tree, alternating (``--rounds``), on a copy of ``--db`` (the store is never written): a writer
process commits a one-row transaction (``BEGIN IMMEDIATE``, one ``_mem_meta`` row, ``COMMIT``) every 50 ms
while ``mem.py --json doctor [--full]`` of that tree runs; the report gives doctor's wall time, its
keyword-index check as it reports it, and the writer's longest wait for the write lock (and how many commits
waited over 1 s). Then, in process, the sign-plane check of both vector tables (the tree's
``signplane.problems``). The 1-minute load average is printed with every row: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WRITER = r"""
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=600)
waits = []
print("ready", flush=True)
while sys.stdin.readline().strip() != "stop":
    t0 = time.perf_counter()
    c.execute("BEGIN IMMEDIATE")
    c.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES ('bench_writer', ?)", (str(t0),))
    c.execute("COMMIT")
    waits.append(time.perf_counter() - t0)
    print(round(waits[-1], 4), flush=True)
"""

SIGNS = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from memengine.db import connect
from memengine import signplane
c = connect(sys.argv[2])
t0 = time.perf_counter()
found = signplane.problems(c)
print(round(time.perf_counter() - t0, 2), "ok" if not found else found)
"""


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def doctor_run(tree: Path, db: Path, full: bool) -> dict[str, object]:
    """doctor of ``tree`` on ``db`` with a writer committing every 50 ms meanwhile."""
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdin is not None and writer.stdout is not None
    assert writer.stdout.readline().strip() == "ready"
    env = dict(os.environ, MEM_NO_SERVER="1")
    t0 = time.perf_counter()
    doc = subprocess.Popen([str(tree / ".venv/bin/python"), str(tree / "mem.py"), "--db", str(db), "--json", "doctor",
                            *(["--full"] if full else [])], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env)
    waits: list[float] = []
    while doc.poll() is None:
        writer.stdin.write("go\n")
        writer.stdin.flush()
        waits.append(float(writer.stdout.readline()))
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    writer.stdin.write("stop\n")
    writer.stdin.close()
    writer.wait()
    out, err = doc.communicate()
    try:
        data = json.loads(out)["data"]
        fts = str(data.get("fts_check"))
    except (ValueError, KeyError):
        fts = f"? {out[:100]} {err[-200:]}"
    return {"wall_s": round(wall, 1), "fts_check": fts, "writes": len(waits),
            "longest_wait_s": round(max(waits, default=0.0), 2), "waits_over_1s": sum(w > 1 for w in waits)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="the store to measure (copied first)")
    ap.add_argument("--tree", action="append", required=True, help="a checkout with its .venv (give two)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--no-full", action="store_true", help="plain doctor only")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mem-doctor-bench-"))
    try:
        db = work / "store.db"
        shutil.copy2(args.db, db)
        for r in range(args.rounds):
            for tree in (Path(t).resolve() for t in args.tree):
                for full in ((False,) if args.no_full else (False, True)):
                    res = doctor_run(tree, db, full)
                    print(f"round {r + 1} {tree} doctor{' --full' if full else ''}: {res} (load {load()})",
                          flush=True)
                signs = subprocess.run([str(tree / ".venv/bin/python"), "-c", SIGNS, str(tree), str(db)],
                                       capture_output=True, text=True).stdout.strip()
                print(f"round {r + 1} {tree} sign-plane check of both tables: {signs} s (load {load()})", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
