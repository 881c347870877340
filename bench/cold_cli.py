"""What a cold ``mem.py`` call costs an agent that runs it through a shell: two trees, alternating call by call.

    .venv/bin/python bench/cold_cli.py --base /work/base-start --store /tmp/scl/scale-100000.v1.db --runs 20
    .venv/bin/python bench/cold_cli.py --base DIR --store DB --runs 200 --commands stats,get,recall --quiet

Every call is a new ``python mem.py --db COPY --json COMMAND ...`` process (``MEM_NO_SERVER=1``: no warm server
answers), as an agent without an MCP client pays it. Each tree runs on its own copy of ``--store`` (stores write;
copied into ``--work`` first, deleted after), the two trees take turns call by call (who goes first alternates), so
both see the same load. Each tree has a cache dir of its own (``XDG_CACHE_HOME``: a copy of the user's, model forms
included), so that two releases never take turns rewriting one file of compiled patterns. Commands (``--commands``, in this order within a round):

* ``store-chat``: a LoCoMo turn logged as a live chat (episodic, one thread, the speaker as author; no supersession);
* ``store-fact``: a fact of tests/data's labelled pairs (older then newer: supersession decides on every newer one);
* ``recall``: a LoCoMo question (categories 1-4; bench/latency.py's synthetic queries without ../shared), ``-k 10``;
* ``brief``: the session-start brief;
* ``stats``, ``get ID`` (an id of the store, cycling).

Printed per command and tree: wall and process CPU (user + sys of the process, from the children's rusage) p50 / p95, and how
many replies were **the same bytes** in both trees once ``took_ms``, the copy's path and the times written during
the run (a new memory's ``created_at``, a recall's ``last_accessed_at``: the clock's, a second apart) are taken out. Both trees
are byte-compiled first (a checkout run with ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every module on
every call). The exit code is 1 when any reply differs.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import DEFAULT_LOCOMO, REPO, load_locomo, percentile  # noqa: E402
from bench.store_latency import cli_argv, copies, store_calls  # noqa: E402

COMMANDS = ("store-chat", "store-fact", "recall", "brief", "stats", "get")
_TOOK = re.compile(rb'"took_ms": [0-9.eE+-]+')
_STAMP = re.compile(rb'"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d)[^"]*"')
_START = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()).encode()


def _clocked(m: re.Match[bytes]) -> bytes:
    """A time written during this run (a store's created_at, a recall's last_accessed_at): the clock, not the code."""
    return b'"NOW"' if m.group(1).replace(b" ", b"T") >= _START else m.group(0)


def normal(reply: bytes, db: Path) -> bytes:
    """``reply`` without what differs between two runs of the same code: took_ms, the copy's path, this run's times."""
    return _STAMP.sub(_clocked, _TOOK.sub(b'"took_ms": 0', reply).replace(str(db).encode(), b"DB"))


def questions(n: int) -> list[str]:
    """LoCoMo questions (categories 1-4), or synthetic ones when ../shared is absent; ``n`` of them, cycling."""
    if DEFAULT_LOCOMO.exists():
        convs, _ = load_locomo(DEFAULT_LOCOMO)
        qs = [q.question for c in convs for q in c.questions if q.category in (1, 2, 3, 4)]
    else:
        from bench.latency import synthetic_queries

        qs = synthetic_queries(max(n, 1))
    return [qs[i % len(qs)] for i in range(n)]


def argvs(command: str, runs: int, ids: list[int]) -> list[list[str]]:
    """The ``runs`` argument lists of ``command`` (the same for both trees)."""
    if command == "store-chat":
        calls = store_calls("chat", runs)
    elif command == "store-fact":
        calls = store_calls("fact", runs)
    else:
        calls = []
    if calls:
        return [cli_argv(c) for c in (calls * (runs // len(calls) + 1))[:runs]]
    if command == "recall":
        return [["recall", q, "-k", "10"] for q in questions(runs)]
    if command == "get":
        return [["get", str(ids[i % len(ids)])] for i in range(runs)]
    return [[command]] * runs


def _children_cpu_ms() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def one(tree: Path, db: Path, argv: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """(wall ms, process CPU ms, the reply's bytes with took_ms and the copy's path taken out) of one call."""
    c0, t0 = _children_cpu_ms(), time.perf_counter()
    proc = subprocess.run([str(tree / ".venv" / "bin" / "python"), str(tree / "mem.py"), "--db", str(db), "--json",
                           *argv], capture_output=True, env=env)
    wall = (time.perf_counter() - t0) * 1000
    cpu = _children_cpu_ms() - c0  # (one child at a time: the children's total grew by this one's CPU)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(argv)[:80]} failed ({proc.returncode}): {proc.stderr.decode()[-400:]}")
    return wall, cpu, normal(proc.stdout, db)


def run(trees: dict[str, Path], db: Path, work: Path, commands: list[str], runs: int,
        quiet: bool, dump: Path | None) -> tuple[dict[tuple[str, str], tuple[list[float], list[float]]], dict[str, int]]:
    """Each command ``runs`` times per tree, alternating; (per (command, tree): wall ms, CPU ms), same replies."""
    dbs = copies(db, trees, work, "cold")
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB")}
    env["MEM_NO_SERVER"] = "1"
    envs = {k: dict(env, XDG_CACHE_HOME=str(cache_folder(work, k))) for k in trees}
    try:
        for k, tree in trees.items():  # byte-compiled, and each copy migrated by its own tree (unmeasured)
            subprocess.run([str(tree / ".venv" / "bin" / "python"), "-m", "compileall", "-q", "mem.py", "memcli.py",
                            "memory_core.py", "embedder.py", "memengine", "importers"], cwd=tree, capture_output=True)
            one(tree, dbs[k], ["stats"], envs[k])
        import sqlite3

        with closing(sqlite3.connect(f"file:{next(iter(dbs.values()))}?mode=ro", uri=True)) as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM memories WHERE status = 'active' ORDER BY id LIMIT 50")]
        plan = {c: argvs(c, runs, ids) for c in commands}
        times: dict[tuple[str, str], tuple[list[float], list[float]]] = {(c, k): ([], []) for c in commands
                                                                          for k in trees}
        same = {c: 0 for c in commands}
        for i in range(runs):
            for c in commands:
                order = list(trees) if (i + commands.index(c)) % 2 == 0 else list(trees)[::-1]
                replies = {}
                for k in order:
                    wall, cpu, replies[k] = one(trees[k], dbs[k], plan[c][i], envs[k])
                    times[c, k][0].append(wall)
                    times[c, k][1].append(cpu)
                a, b = replies.values()
                same[c] += a == b
                if a != b and dump is not None:
                    for k, reply in replies.items():
                        (dump / f"{c}-{i}-{k}.json").write_bytes(reply)
                if a != b and not quiet:
                    print(f"differs: {c} {' '.join(plan[c][i])[:80]}", file=sys.stderr)
        return times, same
    finally:
        for p in dbs.values():
            for suffix in ("", "-wal", "-shm"):
                Path(f"{p}{suffix}").unlink(missing_ok=True)
        for k in trees:
            shutil.rmtree(work / f"cache-{k}", ignore_errors=True)


def cache_folder(work: Path, tree: str) -> Path:
    """A cache dir of ``tree``'s own (its ``XDG_CACHE_HOME``), a copy of the user's ``mem`` cache folder: the model's
    derived forms as the user has them, and no pattern file (memengine/recache.py) another tree could rewrite in its
    own format between two calls of this one."""
    from memengine.recache import user_cache_folder

    folder = work / f"cache-{tree}"
    shutil.rmtree(folder, ignore_errors=True)
    src = Path(user_cache_folder())
    if src.is_dir():
        shutil.copytree(src, folder / "mem", ignore=shutil.ignore_patterns("sockets", "*.tmp"), symlinks=True)
    else:
        (folder / "mem").mkdir(parents=True)
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the other checkout (its .venv/bin/python runs it)")
    ap.add_argument("--store", type=Path, required=True, help="a store both trees get a copy of (never written)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/cold_cli"), help="folder for the copies")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--commands", default=",".join(COMMANDS), help=f"comma-separated, of {', '.join(COMMANDS)}")
    ap.add_argument("--quiet", action="store_true", help="do not print the replies that differ")
    ap.add_argument("--dump", type=Path, help="write both replies of each call that differs into this folder")
    args = ap.parse_args(argv)
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    commands = [c for c in args.commands.split(",") if c]
    if bad := [c for c in commands if c not in COMMANDS]:
        ap.error(f"unknown command {bad[0]!r}")
    args.work.mkdir(parents=True, exist_ok=True)
    trees = {"base": args.base.resolve(), "this": REPO}
    load0 = os.getloadavg()[0]
    times, same = run(trees, args.store, args.work, commands, args.runs, args.quiet, args.dump)
    print(f"\ncold `mem.py --json COMMAND` (MEM_NO_SERVER=1), {args.store.name}, {args.runs} calls each, "
          f"load average {load0:.2f} -> {os.getloadavg()[0]:.2f}")
    print(f"base = {trees['base']}, this = {trees['this']}")
    print("| command | base wall p50 / p95 ms | this wall p50 / p95 ms | base CPU p50 / p95 ms | this CPU p50 / p95 ms "
          "| CPU min base / this ms | CPU this - base, paired p50 ms | same replies |")
    print("|---|---|---|---|---|---|---|---|")

    def two(xs: list[float]) -> str:
        return f"{percentile(xs, 50):.0f} / {percentile(xs, 95):.0f}"

    for c in commands:
        b, t = times[c, "base"], times[c, "this"]
        # (on a loaded host the least CPU of a call and the median of the two trees' differences call by call,
        # each pair run back to back, move less than either tree's p50)
        paired = percentile([y - x for x, y in zip(b[1], t[1])], 50)
        print(f"| {c} | {two(b[0])} | {two(t[0])} | {two(b[1])} | {two(t[1])} | {min(b[1]):.0f} / {min(t[1]):.0f} "
              f"| {paired:+.1f} | {same[c]} / {args.runs} |")
    return 0 if all(v == args.runs for v in same.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
