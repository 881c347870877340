"""What consolidate's topic names cost: every level-1 cluster of a consolidated store named twice,
with this tree's ``memengine/topic_names.py`` and another tree's, alternating, on the same inputs.

Each cluster's members are read once (ordered by id, as summarize does), then named as
``summarize.summarize_cluster`` names them: its members' text without ``Author:`` labels, the
stopwords of their language, the store's people excluded, every run equally rare (the rarity
function is the same cheap lookup for both trees; what is timed is reading the members' runs).
Prints CPU seconds per tree and whether every name is identical.

    .venv/bin/python bench/topic_names_speed.py /tmp/brief3/c100k.db --base /tmp/brief3/base [--rounds 3]

The store must be consolidated (`mem.py consolidate` on a copy); it is opened read-only.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sqlite3
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memengine import summarize  # noqa: E402


def _module(tree: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, tree / "memengine" / "topic_names.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("store", type=Path)
    ap.add_argument("--base", type=Path, required=True, help="the other code tree")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    conn = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    clusters: dict[int, list[tuple[str, str | None]]] = {}
    for cid, content, author in conn.execute(
            """SELECT cm.cluster_id, m.content, m.author FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               JOIN memories m ON m.id = cm.memory_id WHERE c.status = 'active' AND c.level = 1
               ORDER BY cm.cluster_id, m.id"""):
        clusters.setdefault(int(cid), []).append((content, author))
    if not clusters:
        raise SystemExit(f"{args.store}: no clusters (consolidate a copy first)")
    people = {str(r[0]).lower() for r in conn.execute("SELECT author FROM memory_authors")}
    inputs = []
    for members in clusters.values():
        texts = [summarize._without_label(c, a) for c, a in members]
        inputs.append((texts, summarize.stopwords_for([c for c, _ in members])))
    trees = {"base": _module(args.base.resolve(), "topic_names_base"), "this tree": _module(ROOT, "topic_names_new")}
    print(f"{len(clusters)} clusters, {sum(len(m) for m in clusters.values())} members; load {os.getloadavg()}",
          file=sys.stderr)
    cpu: dict[str, list[float]] = {k: [] for k in trees}
    names: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for tag, mod in trees.items():
            t0 = time.process_time()
            got = [mod.name(texts, stop, people, lambda _k: 1.0) for texts, stop in inputs]
            cpu[tag].append(time.process_time() - t0)
            names[tag] = got
    same = names["base"] == names["this tree"]
    for tag, xs in cpu.items():
        print(f"{tag}: naming every cluster {min(xs):.2f} / {sorted(xs)[len(xs) // 2]:.2f} CPU-s (min / median of "
              f"{len(xs)})")
    print(f"names identical: {same}; load {os.getloadavg()[0]:.1f}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
