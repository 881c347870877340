"""Round 44 of issue 19: the round's held-out chats (bench/data/realchat_heldout39: five friends planning a
campervan week, a German couple doing up a flat, a runner and his coach over five months, two ward nurses) checked
well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout39"
FILES = {"nc500_van.txt", "wohnung_leipzig.txt", "dev_kate_marathon.txt", "ward_shifts.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 128, 47, 0, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 5
    assert sum(bool(r.get("other_words")) for r in rows) == 32  # measured: no content word of it in its evidence
    assert sum(bool(r.get("other_words_chat")) for r in rows) == 10  # ... nor in any turn of its chat
    assert {r["lang"] for r in rows} == {"en", "de"}
    assert sum(r["lang"] == "de" for r in rows) == 23
    assert all(len(r["evidence"]) == 2 for r in rows if r["category"] == "multi-hop")  # two turns each
    assert sum(len(r["evidence"]) >= 2 for r in rows) / len(rows) >= 0.35  # the round asks >= 35 % two-turn


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 90 + 71 + 98 + 62)
