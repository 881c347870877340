"""Round 23 of issue 19: the round's held-out chats (bench/data/realchat_heldout20: a São Paulo family, a Lyon
street-party committee, the parents of a Cologne under-11 team, a ChatGPT export of a move to Melbourne), checked
well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout20"
FILES = {"familia_sp.txt", "fete_quartier.txt", "e_jugend.txt", "relocation_export.json"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 60, 0, 40, 0, FILES)
    updates = [r for r in rows if r.get("kind") == "update"]
    assert sum(bool(r.get("name_changed")) for r in updates) == 27
    assert not any(r.get("name_changed") for r in rows if r.get("kind") != "update")
    assert sum(bool(r.get("later_other_name")) for r in rows) == 9
    assert {r["lang"] for r in rows} == {"pt", "fr", "de", "en"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # familia_sp, fete_quartier, e_jugend, the ChatGPT export
    heldout_sets.check_snippets(store, (SET,), 52 + 46 + 44 + 26)
