"""Round 20 of issue 19: the round's held-out chats (bench/data/realchat_heldout18: Singapore co-parents, a Mexico
City band, an Indonesian catering business, a Claude export of a year after a diagnosis), checked well formed
against the importers."""

from __future__ import annotations

import json
from pathlib import Path

from memengine import ingest
from memory_core import MemoryStore

ROOT = Path(__file__).resolve().parent.parent
SET = "realchat_heldout18"
FILES = {"coparents.txt", "banda.txt", "katering.txt", "claude_export.json"}


def _rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in (ROOT / f"bench/data/{SET}.jsonl").read_text().splitlines() if line.strip()]


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    assert len(rows) == 64 and len({r["id"] for r in rows}) == 64
    assert sum(r["category"] == "multi-hop" for r in rows) == 22
    assert sum(r.get("kind") == "update" for r in rows) == 18
    assert sum(bool(r.get("gap")) for r in rows) == 19
    assert {r["file"] for r in rows} == FILES
    assert sum(r["lang"] == "es" for r in rows) == 11 and sum(r["lang"] == "id" for r in rows) == 10
    for r in rows:
        assert isinstance(r["evidence"], list) and isinstance(r["evidence_text"], list)
        assert len(r["evidence"]) == len(r["evidence_text"])
        assert bool(r.get("outdated")) == (r.get("kind") == "update")
        assert len(r.get("outdated", [])) == len(r.get("outdated_text", []))  # type: ignore[arg-type]


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    for path in sorted((ROOT / f"bench/data/{SET}").iterdir()):
        ingest.import_path(store, path)
    messages = store.conn.execute(
        "SELECT ref, content FROM memories WHERE ref IS NOT NULL AND ref NOT LIKE 'episode:%'").fetchall()
    assert len(messages) == 43 + 40 + 36 + 23  # coparents, banda, katering, the Claude export
    for r in _rows():
        pairs = [*zip(r["evidence"], r["evidence_text"]),  # type: ignore[call-overload]
                 *zip(r.get("outdated", []), r.get("outdated_text", []))]  # type: ignore[call-overload]
        for ref, snippet in pairs:
            holding = [m[0] for m in messages if snippet in m[1]]
            assert holding == [ref], (r["id"], snippet, holding)
