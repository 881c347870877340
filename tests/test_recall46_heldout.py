"""Round 46 of issue 19: the round's held-out chats (bench/data/realchat_heldout40: a school fair committee of five,
two Dutch friends' sailing boat, sisters and a rescue greyhound over eight months, a wedding photographer and a bride
over a year) checked well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout40"
FILES = {"pta_summer_fair.txt", "zeilboot_sander_bram.txt", "greyhound_sisters.txt", "wedding_photographer.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 120, 59, 0, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 4
    assert {r["lang"] for r in rows} == {"en", "nl"}
    assert sum(r["lang"] == "nl" for r in rows) == 26
    assert all(len(r["evidence"]) == 2 for r in rows if r["category"] == "multi-hop")  # two turns each
    assert sum(len(r["evidence"]) >= 2 for r in rows) / len(rows) >= 0.40  # the round asks >= 40 % two-turn


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 76 + 74 + 77 + 56)
