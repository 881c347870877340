"""Chat turns group with the exchange they belong to (memengine/cluster_context.py).

Each piece of news is one long turn followed by two replies that carry none of its words and
the same words as every other reply ("wow amazing", "so happy"). With the hash embedder (a
bag of words) the replies are closer to each other than to their news, as a real model's short
turns are: without the context they group into one topic of reactions and each piece of news
stays outside every topic; with it, each topic is one piece of news and its replies.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

import memory_core
from memengine import cluster_context, consolidate, ingest

NEWS = {  # no word in common: nothing but the replies' words joins two exchanges
    "boiler": "boiler broke again, plumber quoted four hundred pounds replacing its pump Friday",
    "job": "got Fieldnote's job offer: salary fifty thousand, starting January, studio near Leeds",
    "flat": "we signed our lease on that flat in old town with two bedrooms plus small garden",
}
REPLIES = ("wow amazing", "so happy")


def _chat(path: Path) -> Path:
    """A WhatsApp export: three exchanges (news + two replies, minutes apart) on three days."""
    lines = []
    for day, (_subject, news) in enumerate(NEWS.items(), start=1):
        lines.append(f"0{day}/03/2024, 10:00 - Ana: {news}")
        lines.append(f"0{day}/03/2024, 10:02 - Ben: {REPLIES[0]}")
        lines.append(f"0{day}/03/2024, 10:03 - Cleo: {REPLIES[1]}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _topics(tmp_path: Path) -> list[list[str]]:
    """Level-1 clusters after consolidate, each as the sorted subjects (or "reply") of its chat turns."""
    store = memory_core.MemoryStore(tmp_path / "chat.db")
    ingest.import_path(store, _chat(tmp_path / "chat.txt"), "whatsapp")
    consolidate.run(store, now=datetime(2024, 3, 10), keep_backups=0)
    day_of = {}
    for mid, content, at in store.conn.execute(
            "SELECT id, content, event_at FROM memories WHERE level = 0 AND thread IS NOT NULL "
            "AND json_extract(metadata, '$.kind') IS NOT 'episode'"):
        day_of[int(mid)] = f"{list(NEWS)[int(str(at)[8:10]) - 1]}{'' if 'Ana:' in content else '/reply'}"
    got: dict[int, list[str]] = {}
    for cid, mid in store.conn.execute(
            """SELECT cm.cluster_id, cm.memory_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               WHERE c.level = 1 AND c.status = 'active'"""):
        if int(mid) in day_of:
            got.setdefault(int(cid), []).append(day_of[int(mid)])
    store.close()
    return sorted(sorted(v) for v in got.values())


def test_news_and_its_replies_make_a_topic(tmp_path: Path) -> None:
    assert _topics(tmp_path) == [[s, f"{s}/reply", f"{s}/reply"] for s in sorted(NEWS)]


def test_without_the_context_the_replies_make_the_topic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault this fixes, on the same chat: proves the data groups the replies by their words."""
    monkeypatch.setattr(cluster_context, "ENABLED", False)
    got = _topics(tmp_path)
    assert not any(s in t for t in got for s in NEWS)  # no piece of news in any topic
    assert sorted(x for t in got for x in t) == sorted(f"{s}/reply" for s in NEWS for _ in REPLIES)


def test_weight_and_the_gap(tmp_path: Path) -> None:
    """A turn's weight grows with its words; a neighbour further than GAP is no context; no chat: unchanged."""
    assert cluster_context.weight("Ben: wow") == pytest.approx(0.15)
    assert cluster_context.weight("Ana: " + NEWS["job"]) == 1.0
    assert cluster_context.weight("Ben: so happy for you all") == pytest.approx(5 / cluster_context.FULL_WORDS)
    store = memory_core.MemoryStore(tmp_path / "gap.db")
    lines = ["01/03/2024, 10:00 - Ana: first thing said here", "01/03/2024, 11:00 - Ben: second thing much later"]
    ingest.import_path(store, _write(tmp_path / "gap.txt", lines), "whatsapp")
    ids = np.array(sorted(int(r[0]) for r in store.conn.execute(
        "SELECT id FROM memories WHERE level = 0 AND json_extract(metadata, '$.kind') IS NOT 'episode'")))
    vecs = np.stack([store.vectors([int(i)])[int(i)] for i in ids]).astype(np.float32)
    assert cluster_context.in_context(store.conn, ids, vecs) is vecs  # an hour apart: two exchanges
    store.close()


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
