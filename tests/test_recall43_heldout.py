"""Round 43 of issue 19: the round's held-out chats (bench/data/realchat_heldout38: a group of five planning a
cottage weekend, two Italian siblings, a father and his daughter at college, two friends running a food stall)
checked well formed against the importers, and the thin-turn threshold the round measured (thin.py's ``words``)."""

from __future__ import annotations

import heldout_sets

from memengine.recall.thin import THIN_WORDS, is_thin
from memengine.recall.updates import stems
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

SET = "realchat_heldout38"
FILES = {"cottage_crew.txt", "fratelli_rossi.txt", "dad_maddie.txt", "bao_stall.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 131, 47, 0, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 7
    assert sum(bool(r.get("other_words")) for r in rows) == 55  # measured: no content word of it in its evidence
    assert sum(bool(r.get("other_words_chat")) for r in rows) == 18  # ... nor in any turn of its chat
    assert {r["lang"] for r in rows} == {"en", "it"}
    assert sum(r["lang"] == "it" for r in rows) == 4
    assert all(len(r["evidence"]) == 2 for r in rows if r["category"] == "multi-hop")  # two turns each


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 102 + 86 + 84 + 78)


def _turn(text: str) -> Candidate:
    return Candidate((1, f"Meg: {text}", "Meg", "t", 4, None, "{}", 1.0, 0.5))


def test_the_thin_threshold_is_a_config_field_three_by_default_since_round_44() -> None:
    # thin.py's own default stays 2; the engine's (RecallConfig) is 3 since the pooled tuning of round 44
    assert THIN_WORDS == 2 and RecallConfig().thin_words == 3
    asked = stems("What did Meg suggest for Alfie's chickenpox?")
    # two content words: thin at three, not at two; a digit or a word of the question says something at any
    assert not is_thin(_turn("noooo poor bub"), asked)
    assert is_thin(_turn("noooo poor bub"), asked, 3)
    assert not is_thin(_turn("poor bub 3 days"), asked, 3)
    assert not is_thin(_turn("poor chickenpox"), asked, 3)
