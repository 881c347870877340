"""The checks every held-out recall set of issue 19 passes (bench/data/realchat_heldout*): its question rows have
the kinds the round asked for, and each evidence snippet is in exactly one imported message whose ref the row
names. One home for tests/test_recall16.py … test_recall20.py (each round writes its set, the checks are shared)."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT

from memengine import ingest
from memory_core import MemoryStore


def rows(name: str) -> list[dict[str, object]]:
    """The question rows of ``bench/data/NAME.jsonl``."""
    path = ROOT / f"bench/data/{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def check_kinds(found: list[dict[str, object]], questions: int, multi_hop: int, updates: int, gap: int,
                files: set[str]) -> None:
    """Exact counts of a set's questions by kind, and every row's evidence / outdated lists well formed."""
    assert len(found) == questions and len({r["id"] for r in found}) == questions
    assert sum(r["category"] == "multi-hop" for r in found) == multi_hop
    assert sum(r.get("kind") == "update" for r in found) == updates
    assert sum(bool(r.get("gap")) for r in found) == gap
    assert {r["file"] for r in found} == files
    for r in found:
        assert isinstance(r["evidence"], list) and isinstance(r["evidence_text"], list)
        assert len(r["evidence"]) == len(r["evidence_text"])
        assert bool(r.get("outdated")) == (r.get("kind") == "update")
        assert len(r.get("outdated", [])) == len(r.get("outdated_text", []))  # type: ignore[arg-type]


def check_snippets(store: MemoryStore, names: tuple[str, ...], messages: int) -> None:
    """Import the sets' chats into ``store``: ``messages`` messages, and each evidence or outdated snippet of their
    rows in exactly one message, the one whose ref the row names."""
    for name in names:
        for path in sorted(Path(ROOT / f"bench/data/{name}").iterdir()):
            ingest.import_path(store, path)
    held = store.conn.execute(
        "SELECT ref, content FROM memories WHERE ref IS NOT NULL AND ref NOT LIKE 'episode:%'").fetchall()
    assert len(held) == messages
    for name in names:
        for r in rows(name):
            pairs = [*zip(r["evidence"], r["evidence_text"]),  # type: ignore[call-overload]
                     *zip(r.get("outdated", []), r.get("outdated_text", []))]  # type: ignore[call-overload]
            for ref, snippet in pairs:
                holding = [m[0] for m in held if snippet in m[1]]
                assert holding == [ref], (r["id"], snippet, holding)
