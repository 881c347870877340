"""Round 22 of issue 19: the round's held-out chats (bench/data/realchat_heldout19: two LONG chats of the LoCoMo
kind — friends in Accra and Glasgow, in Amman and Denver — a Norwegian housing co-op board, a Portuguese PhD
supervision), checked well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout19"
FILES = {"penpals.txt", "exroomies.txt", "borettslag.txt", "orientacao.txt"}


def _rows() -> list[dict[str, object]]:
    return heldout_sets.rows(SET)


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    heldout_sets.check_kinds(rows, 70, 38, 2, 22, FILES)
    assert sum(r["lang"] == "nb" for r in rows) == 5 and sum(r["lang"] == "pt" for r in rows) == 4
    # the two LoCoMo-kind chats hold most questions, and most of the multi-hop ones
    long_chats = [r for r in rows if r["file"] in ("penpals.txt", "exroomies.txt")]
    assert len(long_chats) == 51 and sum(r["category"] == "multi-hop" for r in long_chats) == 28


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # penpals, exroomies, borettslag, orientacao
    heldout_sets.check_snippets(store, (SET,), 383 + 350 + 76 + 52)
