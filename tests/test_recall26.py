"""Round 26 of issue 19: the round's held-out chats (bench/data/realchat_heldout23: two LONG chats of the LoCoMo kind
and a book club's group chat) checked well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout23"
FILES = {"radar_canoe.txt", "galway_lusaka.txt", "bookclub.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 72, 44, 0, 32, FILES)
    long_chats = [r for r in rows if r["file"] in ("radar_canoe.txt", "galway_lusaka.txt")]
    assert len(long_chats) == 58 and sum(r["category"] == "multi-hop" for r in long_chats) == 35


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 371 + 308 + 100)
