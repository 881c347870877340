"""Does ``list --since D --until D`` give exactly the chat messages written on day D, wherever the user is?

The oracle is the export's own wall clock: a WhatsApp message written ``1/1/21, 12:05 AM`` is on 1 January for
the person reading the chat, east or west of UTC (memengine/timekind.py). For each code tree (this one, and
``--base DIR``, e.g. ``git archive f44ba96 | tar -x -C DIR``) and each zone, a store is built from the real
WhatsApp exports in ../shared/data/realworld/whatsapp (data nobody tuned this on) by that tree's ``mem.py import``
in that zone, then every day a message was written on is listed alone; a day is exact when the listed messages
are that day's, no more, no fewer.

    .venv/bin/python bench/times1_days.py --base /tmp/times1/base --zones America/Los_Angeles,Asia/Tokyo,UTC
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHATS = ROOT.parent / "shared" / "data" / "realworld" / "whatsapp"


def worker(db: str) -> None:
    """In a tree's folder: the per-day check of ``db`` (built by that tree), printed as one line."""
    sys.path.insert(0, os.getcwd())
    import memory_core  # the tree's own
    from memengine.cli import dates
    from memengine.listing import list_memories

    store = memory_core.MemoryStore(db)
    rows = store.conn.execute(
        """SELECT id, substr(event_at, 1, 10) FROM memories WHERE source = 'whatsapp' AND status = 'active'
           AND valid_to IS NULL AND level = 0 AND event_at IS NOT NULL
           AND json_extract(metadata, '$.kind') IS NOT 'episode'""").fetchall()
    turns = {int(r[0]) for r in rows}
    want: dict[str, set[int]] = collections.defaultdict(set)
    for mid, day in rows:
        want[str(day)].add(int(mid))
    exact = missing = extra = 0
    for day in sorted(want):
        got = list_memories(store, sources=["whatsapp"], since=dates.parse(day, "--since"),
                            until=dates.parse(day, "--until"), limit=1_000_000)
        ids = {m["id"] for m in got["memories"]} & turns
        exact += ids == want[day]
        missing += len(want[day] - ids)
        extra += len(ids - want[day])
    print(f"days {len(want)}: exact {exact}; messages {len(turns)}: missing from their day {missing}, "
          f"listed on another day {extra}")


def run(tree: Path, zone: str, work: Path) -> str:
    db = work / f"{tree.name}.{zone.replace('/', '_')}.db"
    env = {**os.environ, "TZ": zone, "MEM_EMBEDDER": "hash", "MEM_NO_SERVER": "1"}
    for chat in sorted(CHATS.glob("*.txt")):
        subprocess.run([sys.executable, str(tree / "mem.py"), "--db", str(db), "import", str(chat)], env=env,
                       capture_output=True, check=False, cwd=str(tree))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(db)], env=env,
                         capture_output=True, text=True, check=True, cwd=str(tree))
    return out.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, help="another code tree to compare with")
    ap.add_argument("--zones", default="America/Los_Angeles,Asia/Tokyo,UTC")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not CHATS.is_dir():
        sys.exit(f"no {CHATS}: the real exports live in ../shared (not in the repo)")
    trees = ([("base", args.base.resolve())] if args.base else []) + [("this tree", ROOT)]
    with tempfile.TemporaryDirectory(prefix="times1_days.") as tmp:
        for zone in args.zones.split(","):
            for label, tree in trees:
                print(f"{zone:22} {label:9} {run(tree, zone, Path(tmp))}", flush=True)


if __name__ == "__main__":
    main()
