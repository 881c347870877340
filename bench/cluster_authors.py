"""Do chat turns group by subject or by who spoke? Author purity vs subject purity of the groups.

Each chat is imported once with the real embedder (``mem.py import``), then, on copies of that
store, with the speaker correction off and on (memengine/cluster_authors.py), in one run:

* parts     the brief's parts before consolidate (``brief_pool.parts`` of the topic pool)
* topics    consolidate's level-1 clusters

Per grouping: groups of >= 2 turns, author purity (share of each group's turns by its main
author, weighted by size: 1.0 = every group is one speaker; a chat of two evenly split speakers
scores about 0.5 when speaker does not matter), subject purity (the same for the ground-truth
subject, where the chat has labels: bench/data/cluster_authors_chat.txt with one subject a line in
cluster_authors_labels.txt), and ARI (adjusted Rand index) of the groups against the authors and
against the subjects (0 = no better than chance, 1 = the same partition; turns in no group count
as one group each).

    python bench/cluster_authors.py            # the labelled chat + ../shared/data/realworld chats
    python bench/cluster_authors.py --no-shared
    python bench/cluster_authors.py --chat bench/data/brief_heldout2/heldout2_chat_fr.txt   # any chat export
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT / "bench" / "data"
SHARED = ROOT.parent / "shared" / "data" / "realworld" / "whatsapp"
MIN_TURNS = 30  # a realworld chat with fewer turns has no groups worth scoring


def purity(groups: list[list[int]], label: dict[int, str]) -> float:
    """Size-weighted share of each group's members that carry its most common label."""
    n = sum(len(g) for g in groups)
    if not n:
        return float("nan")
    return sum(Counter(label[m] for m in g).most_common(1)[0][1] for g in groups) / n


def ari(groups: list[list[int]], label: dict[int, str]) -> float:
    """Adjusted Rand index of the grouping (ungrouped turns: singletons) against ``label``."""
    of: dict[int, int] = {}
    for i, g in enumerate(groups):
        for m in g:
            of[m] = i
    ids = sorted(label)
    a = [of.get(m, -1 - m) for m in ids]
    b = [label[m] for m in ids]

    def pairs(c: Counter[Any]) -> float:
        return sum(v * (v - 1) / 2 for v in c.values())

    n = len(ids)
    both = pairs(Counter(zip(a, b)))
    pa, pb, tot = pairs(Counter(a)), pairs(Counter(b)), n * (n - 1) / 2
    expect = pa * pb / tot if tot else 0.0
    top = (pa + pb) / 2 - expect
    return (both - expect) / top if top else float("nan")


def build(chat: Path, db: Path) -> None:
    """Import ``chat`` into a fresh store ``db`` with the real embedder."""
    env = {k: v for k, v in os.environ.items() if k != "MEM_EMBEDDER"}
    r = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), "import", "whatsapp", str(chat)],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"import {chat.name}: exit {r.returncode}: {r.stderr.strip()[-300:]}")


def groupings(db: Path, on: bool) -> tuple[dict[int, str], dict[int, str], dict[str, list[list[int]]]]:
    """(author of each turn, content of each turn, {"parts": ..., "topics": ...}) with the correction on/off."""
    from memengine import brief, brief_pool, cluster_authors, consolidate
    from memory_core import MemoryStore

    cluster_authors.ENABLED = on
    store = MemoryStore(db)
    conn = store.conn
    rows = conn.execute("SELECT id, author, content FROM memories WHERE level = 0 AND author IS NOT NULL "
                        "AND status = 'active' AND json_extract(metadata, '$.kind') IS NOT 'episode'").fetchall()
    author = {int(r[0]): str(r[1]) for r in rows}
    content = {int(r[0]): str(r[2]) for r in rows}
    out: dict[str, list[list[int]]] = {}
    pool = brief_pool.topic_pool(store)
    ids = [p[0] for p in pool]
    key = brief_pool.parts(pool, brief_pool.similarities(store, ids, by_subject=True), brief.PART_SIZE)
    by: dict[Any, list[int]] = {}
    for p, k in zip(pool, key):
        if p[0] in author:
            by.setdefault(k, []).append(p[0])
    out["parts"] = [g for g in by.values() if len(g) >= 2]
    last = conn.execute("SELECT max(coalesce(event_at, created_at)) FROM memories").fetchone()[0]
    consolidate.run(store, now=datetime.fromisoformat(str(last)[:19]) + timedelta(days=1), keep_backups=0)
    topics: dict[int, list[int]] = {}
    for cid, mid in conn.execute("""SELECT cm.cluster_id, cm.memory_id FROM cluster_members cm
                                    JOIN clusters c ON c.id = cm.cluster_id
                                    WHERE c.status = 'active' AND c.level = 1 ORDER BY cm.memory_id"""):
        if int(mid) in author:
            topics.setdefault(int(cid), []).append(int(mid))
    out["topics"] = [g for g in topics.values() if len(g) >= 2]
    store.close()
    return author, content, out


_MESSAGE = re.compile(r"^\[?[^\]]*?(?:\] | - )[^:]+: ")  # "[date, time] Name: " or "date, time - Name: "


def subjects(chat: Path, content: dict[int, str]) -> dict[int, str] | None:
    """Ground-truth subject per turn id from the chat's labels file (one a message line), if any."""
    labels = chat.with_name(chat.name.replace("_chat.txt", "_labels.txt"))
    if labels == chat or not labels.exists():
        return None
    subj = labels.read_text().split()
    lines = chat.read_text().splitlines()[-len(subj):]  # one label a message: the last lines of the chat
    by_text = {_MESSAGE.sub("", ln): s for ln, s in zip(lines, subj)}
    got = {}
    for mid, text in content.items():
        body = text.split(": ", 1)[1] if ": " in text else text
        if body in by_text:
            got[mid] = by_text[body]
    return got


def main() -> None:
    """Print author / subject purity of parts and topics, correction off vs on, for each chat."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-shared", action="store_true", help="only the labelled chat in bench/data")
    ap.add_argument("--chat", action="append", type=Path, help="only these chat exports (repeatable)")
    args = ap.parse_args()
    chats = [DATA / "cluster_authors_chat.txt", DATA / "cluster_authors2_chat.txt"]
    if args.chat:
        chats, args.no_shared = args.chat, True
    if not args.no_shared and SHARED.is_dir():
        chats += sorted(p for p in SHARED.glob("*.txt") if sum(1 for _ in p.open(errors="replace")) >= MIN_TURNS)
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'chat':46} {'grouping':8} {'corr':4} {'groups':>6} {'turns':>5} {'auth.pur':>8} {'subj.pur':>8} "
          f"{'ARI auth':>8} {'ARI subj':>8}")
    with tempfile.TemporaryDirectory(prefix="cluster_authors_") as tmp:
        for chat in chats:
            base = Path(tmp) / "base.db"
            for f in Path(tmp).glob("*.db*"):
                f.unlink()
            build(chat, base)
            for on in (False, True):
                db = Path(tmp) / f"run{int(on)}.db"
                shutil.copy(base, db)
                author, content, got = groupings(db, on)
                subj = subjects(chat, content)
                for name, groups in got.items():
                    turns = sum(len(g) for g in groups)
                    sp = f"{purity(groups, subj):8.2f}" if subj else f"{'-':>8}"
                    sa = f"{ari(groups, subj):8.2f}" if subj else f"{'-':>8}"
                    print(f"{chat.name[:46]:46} {name:8} {'on' if on else 'off':4} {len(groups):6d} {turns:5d} "
                          f"{purity(groups, author):8.2f} {sp} {ari(groups, author):8.2f} {sa}")
            print(f"{'':46} authors: {dict(Counter(author.values()).most_common(4))}")


if __name__ == "__main__":
    main()
