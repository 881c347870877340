"""Warm recall answers of two trees on the same store: identical, result by result?

    .venv/bin/python bench/recall_refs.py --db STORE.db --base /tmp/mem-base [--queries 400] [--synthetic]

For a speed-only change: each tree (this one and ``--base``, an older checkout, e.g. ``git worktree add
/tmp/mem-base HEAD`` then ``git revert --no-commit`` the commits to judge) opens its own copy of the
store in a child process, warms it as a server does, and recalls scale.py's LoCoMo questions (hybrid,
k=10 and k=25, no reinforcement; ``--synthetic``: agent_latency.py's questions for its random-text
stores); the parent compares every result's id, score, weak flag and content.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import json, os, sys
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
tree, db, out, n, synthetic = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
sys.path.insert(0, tree)
os.chdir(tree)
from bench.latency import synthetic_queries
from bench.scale import queries
if synthetic:  # agent_latency.py's questions for its random-text stores
    queries = lambda n: synthetic_queries(n, seed=23)
from embedder import OnnxEmbedder
from memory_core import MemoryStore
store = MemoryStore(db, embedder=OnnxEmbedder(), keyword_index=True)
store.warm_up()
res = {}
for k in (10, 25):
    for q in queries(n):
        res[f"{k}|{q}"] = [(m.id, m.score, m.weak, m.content) for m in store.recall(q, k=k, touch=False).results]
store.close()
json.dump(res, open(out, "w"))
"""


def answers(tree: Path, store: Path, folder: Path, n: int, synthetic: bool = False) -> dict[str, list[list[object]]]:
    """The tree's answers on its own copy of the store (a newer tree may migrate its copy)."""
    db = folder / f"{tree.name}.db"
    shutil.copyfile(store, db)
    out = folder / f"{tree.name}.json"
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB")}
    subprocess.run([sys.executable, "-c", CHILD, str(tree), str(db), str(out), str(n), "1" if synthetic else "0"], check=True,
                   env=env)
    got: dict[str, list[list[object]]] = json.loads(out.read_text())
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--queries", type=int, default=400)
    ap.add_argument("--synthetic", action="store_true",
                    help="bench/latency.py's synthetic questions (as agent_latency.py asks its random-text stores)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mem-refs-", dir="/tmp") as tmp:
        folder = Path(tmp)
        (folder / "base").mkdir()
        (folder / "this").mkdir()
        a = answers(args.base.resolve(), args.db, folder / "base", args.queries, args.synthetic)
        b = answers(REPO, args.db, folder / "this", args.queries, args.synthetic)
    same = sum(a[key] == b.get(key) for key in a)
    results = sum(len(v) for v in a.values())
    print(f"{len(a)} recalls ({args.queries} questions x k=10, 25), {results} results: "
          f"{same}/{len(a)} recalls identical (id, score, weak, content)")
    for key in [k for k in a if a[k] != b.get(k)][:5]:
        print(f"  differs: {key[:80]!r}")
    return 0 if same == len(a) else 1


if __name__ == "__main__":
    raise SystemExit(main())
