"""consolidate's phases on a copy of a store: wall and CPU seconds of each, first run and rerun,
for this tree and (``--base DIR``) another one, in one command (issue 22).

CPU seconds (this process, its threads and its reaped worker processes) hold on a busy machine,
where wall times do not; both are printed, with the load average. The store is copied first
(never touched), and each tree runs in its own process on its own copy::

    .venv/bin/python bench/consolidate_phases.py /tmp/scl/scale-100000.v1.db --work /tmp/cphases
    .venv/bin/python bench/consolidate_phases.py STORE --work DIR --base /work/consol-base --rounds 2  # before/after

With ``--base`` the trees alternate (base, this, base, this, ...), and the tables each produced are
compared by digest after the first run and after the rerun (``FINGERPRINTS``: every column but the
ones holding the run's wall clock), so a speed-up that changes what consolidate writes shows.

``now`` is the store's last event plus a day, as bench/scale.py's consolidate measurement does; the
third run (``night``) is a day later: every learned edge's stored weight decays by a day then.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as mem.py: many small products, no BLAS spin-waiting

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
# the first run, a rerun at once (nothing new), and the next night's (every learned edge decays a day)
RUNS = (("first", timedelta(0)), ("rerun", timedelta(0)), ("night", timedelta(days=1)))

# What consolidate produced, without the columns that hold the wall clock of the run (an episode's
# created_at, a row's updated_at): two trees that produce the same store print the same digests.
FINGERPRINTS = {
    "memories": "SELECT id, content, content_hash, memory_type, source, ref, importance, strength, base_strength, "
                "access_count, pinned, event_at, valid_from, valid_to, status, level, author, thread, position, "
                "json_remove(metadata, '$.forgotten_at', '$.restored_at'), tags, date_terms, context, context_far "
                "FROM memories ORDER BY id",  # (users36: a forget's and a restore's wall clock, in metadata)
    "edges": "SELECT id, source_id, target_id, edge_type, weight, last_used_at, metadata FROM associations ORDER BY id",
    "vectors": "SELECT memory_id, embedding FROM vec_memories ORDER BY memory_id",
    "clusters": "SELECT id, level, parent_id, summary_memory_id, centroid, member_count, label, status FROM clusters "
                "ORDER BY id",
    "members": "SELECT cluster_id, memory_id, similarity FROM cluster_members ORDER BY 1, 2",
    "contradictions": "SELECT memory_a, memory_b, kind, reason, confidence, status, kept_id FROM contradictions "
                      "ORDER BY 1, 2",
    "marks": "SELECT key, value FROM _mem_meta WHERE key LIKE 'consolidate.%' OR key = 'graph.ranks' ORDER BY key",
}


def fingerprints(conn: Any) -> dict[str, str]:
    """Row count and SHA-1 of each table above (the digest of what consolidate wrote)."""
    import hashlib

    out = {}
    for name, sql in FINGERPRINTS.items():
        h, n = hashlib.sha1(), 0
        for row in conn.execute(sql):
            h.update(repr(tuple(row)).encode())
            n += 1
        out[name] = f"{n}:{h.hexdigest()[:12]}"
    return out


def _cpu() -> float:
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def child(tree: Path, store_path: Path) -> dict[str, Any]:
    """Two consolidate runs on ``store_path`` with the engine of ``tree``: wall and CPU per phase."""
    sys.path.insert(0, str(tree))
    from embedder import OnnxEmbedder
    from memengine import consolidate
    from memory_core import MemoryStore

    store = MemoryStore(store_path, embedder=OnnxEmbedder())
    last = store.conn.execute("SELECT max(event_at) FROM memories").fetchone()[0]
    now = datetime.fromisoformat(last) + timedelta(days=1)
    out: dict[str, Any] = {"load": [round(x, 1) for x in os.getloadavg()]}
    for run, at in RUNS:
        marks: list[tuple[str, float]] = []

        def mark(name: str, m: list[tuple[str, float]] = marks) -> None:
            m.append((name, _cpu()))

        t0, c0 = time.perf_counter(), _cpu()
        rep = consolidate.run(store, now=now + at, keep_backups=1, progress=mark)
        marks.append(("end", _cpu()))
        out[run] = {"wall": round(time.perf_counter() - t0, 1), "cpu": round(_cpu() - c0, 1),
                    "phases_wall": {p.name: round(p.seconds, 1) for p in rep.phases},
                    "phases_cpu": {marks[i][0]: round(marks[i + 1][1] - marks[i][1], 1) for i in range(len(marks) - 1)},
                    "tables": fingerprints(store.conn),
                    "edges_decayed": rep.counts().get("links", {}).get("edges_decayed")}
    out["load_end"] = [round(x, 1) for x in os.getloadavg()]
    store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        print(json.dumps(child(Path(argv[1]), Path(argv[2]))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("store", type=Path, help="the store to copy (never modified)")
    ap.add_argument("--work", type=Path, required=True, help="folder for the copies")
    ap.add_argument("--base", type=Path, help="another tree (e.g. `git worktree add /tmp/old <commit>`) run first")
    ap.add_argument("--rounds", type=int, default=1, help="with --base: base, this, base, this, ... (default 1)")
    ap.add_argument("--keep", action="store_true", help="keep the consolidated copies (default: deleted)")
    args = ap.parse_args(argv)
    if not args.store.exists():
        raise SystemExit(f"{args.store}: no such store")
    args.work.mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, dict[str, Any]]] = []
    trees = ([("base", args.base)] if args.base else []) + [("this", REPO)]
    for _round in range(max(1, args.rounds) if args.base else 1):
        for name, tree in trees:
            copy = args.work / f"{name}-{args.store.name}"
            for suffix in ("", "-wal", "-shm"):
                Path(str(copy) + suffix).unlink(missing_ok=True)
            shutil.copy(args.store, copy)
            print(f"{name}: {tree} on {copy} (load {os.getloadavg()[0]:.1f}) ...", file=sys.stderr, flush=True)
            res = subprocess.run([sys.executable, __file__, "--child", str(tree), str(copy)], capture_output=True,
                                 text=True, check=True)
            results.append((name, json.loads(res.stdout.strip().splitlines()[-1])))
            if not args.keep:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(copy) + suffix).unlink(missing_ok=True)
                shutil.rmtree(args.work / "backups", ignore_errors=True)
    for name, r in results:
        for run, _at in RUNS:
            x = r[run]
            phases = ", ".join(f"{p} {x['phases_wall'][p]}/{x['phases_cpu'].get(p, 0)}" for p in x["phases_wall"]
                               if x["phases_wall"][p] >= 0.1)
            print(f"{name:5} {run:6} wall {x['wall']:6.1f} s  cpu {x['cpu']:6.1f} s  (wall/cpu: {phases})"
                  f"  edges decayed {x['edges_decayed']}  load {r['load'][0]} -> {r['load_end'][0]}")
    for run, _at in RUNS:
        tables = {name: r[run]["tables"] for name, r in results}
        print(f"tables after the {run} run: " + "  ".join(f"{t} {tables['this'][t]}" for t in FINGERPRINTS))
        if "base" in tables:
            differ = [t for t in FINGERPRINTS if tables["base"][t] != tables["this"][t]]
            print(f"  base vs this: {'identical' if not differ else 'DIFFERENT: ' + ', '.join(differ)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
