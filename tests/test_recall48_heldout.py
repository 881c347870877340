"""Round 48 of issue 19: the round's held-out chats (bench/data/realchat_heldout41: a pub-quiz team of six, two Danish
brothers' summer house, a year of maths tutoring, neighbours keeping hens) checked well formed against the
importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout41"
FILES = {"quiz_team.txt", "sommerhus_loekken.txt", "maths_tutor.txt", "hens_neighbours.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 120, 63, 0, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 10
    assert {r["lang"] for r in rows} == {"en", "da"}
    assert sum(r["lang"] == "da" for r in rows) == 24
    assert all(len(r["evidence"]) >= 2 for r in rows if r["category"] == "multi-hop")
    assert sum(len(r["evidence"]) >= 2 for r in rows) / len(rows) >= 0.40  # the round asks >= 40 % two-turn
    lists = [r for r in rows if r.get("list")]
    assert len(lists) == 27 and all(len(r["evidence"]) >= 2 for r in lists)  # >= 15 asked, answers in several turns


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 83 + 61 + 65 + 53)
