"""Round 18 of issue 19: the round's held-out chats (bench/data/realchat_heldout16: a work chat of two projects, a
ChatGPT export whose user comes back to a subject in later conversations, a Turkish reunion planned over six
months, a Greeklish couple's short turns), checked well formed against the importers."""

from __future__ import annotations

import json
from pathlib import Path

from memengine import ingest
from memory_core import MemoryStore

ROOT = Path(__file__).resolve().parent.parent
SET = "realchat_heldout16"
FILES = {"agentur.txt", "chatgpt_export.json", "mezuniyet.txt", "spiti.txt"}


def _rows(name: str = SET) -> list[dict[str, object]]:
    return [json.loads(line) for line in (ROOT / f"bench/data/{name}.jsonl").read_text().splitlines() if line.strip()]


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    assert len(rows) == 68 and len({r["id"] for r in rows}) == 68
    assert sum(r["category"] == "multi-hop" for r in rows) == 20
    assert sum(r.get("kind") == "update" for r in rows) == 14
    assert sum(bool(r.get("gap")) for r in rows) == 47
    assert {r["file"] for r in rows} == FILES
    for r in rows:
        assert isinstance(r["evidence"], list) and isinstance(r["evidence_text"], list)
        assert len(r["evidence"]) == len(r["evidence_text"])
        assert bool(r.get("outdated")) == (r.get("kind") == "update")
        assert len(r.get("outdated", [])) == len(r.get("outdated_text", []))  # type: ignore[arg-type]
    # updates said in a later conversation of the export than the value they replace
    across = [r for r in rows if r["file"] == "chatgpt_export.json" and r.get("kind") == "update"
              and {str(e).split(":")[1] for e in r["evidence"]}  # type: ignore[attr-defined]
              .isdisjoint(str(o).split(":")[1] for o in r["outdated"])]  # type: ignore[attr-defined]
    assert len(across) == 3


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    for path in sorted((ROOT / f"bench/data/{SET}").iterdir()):
        ingest.import_path(store, path)
    messages = store.conn.execute(
        "SELECT ref, content FROM memories WHERE ref IS NOT NULL AND ref NOT LIKE 'episode:%'").fetchall()
    assert len(messages) == 49 + 24 + 45 + 57  # agentur, the ChatGPT export, mezuniyet, spiti
    for r in _rows():
        pairs = [*zip(r["evidence"], r["evidence_text"]),  # type: ignore[call-overload]
                 *zip(r.get("outdated", []), r.get("outdated_text", []))]  # type: ignore[call-overload]
        for ref, snippet in pairs:
            holding = [m[0] for m in messages if snippet in m[1]]
            assert holding == [ref], (r["id"], snippet, holding)
