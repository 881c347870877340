"""Round 26 of issue 19: the round's held-out chats (bench/data/realchat_heldout23: two LONG chats of the LoCoMo kind
and a book club's group chat) checked well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore, RecallConfig

SET = "realchat_heldout23"
FILES = {"radar_canoe.txt", "galway_lusaka.txt", "bookclub.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 72, 44, 0, 32, FILES)
    long_chats = [r for r in rows if r["file"] in ("radar_canoe.txt", "galway_lusaka.txt")]
    assert len(long_chats) == 58 and sum(r["category"] == "multi-hop" for r in long_chats) == 35


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 371 + 308 + 100)


# ---- vocab_cover.py: the keyword weight a question's words can earn in the store

def test_held_share_weighs_each_word_by_its_idf_and_an_absent_word_as_rarer_than_any_held() -> None:
    from math import log

    from memengine.recall.vocab_cover import held_share

    assert held_share({}, 100) == 1.0
    assert held_share({"boat": 3, "canoe": 1}, 100) == 1.0
    assert held_share({"boat": 0}, 100) == 0.0
    got = held_share({"way": 50, "race": 0}, 100)
    assert abs(got - log(101 / 50) / (log(101 / 50) + log(101 / 0.5))) < 1e-12


def test_cover_weights_move_what_the_keyword_side_cannot_earn_to_the_vector_side() -> None:
    from memengine.recall.vocab_cover import cover_weights

    assert cover_weights(0.5, 0.5, 0.3, 0.0) == (0.5, 0.5)
    assert cover_weights(0.5, 0.5, 1.0, 1.0) == (0.5, 0.5)
    assert cover_weights(0.5, 0.5, 0.5, 1.0) == (0.25, 0.75)
    k, v = cover_weights(0.5, 0.5, 0.25, 0.5)
    assert (k, v) == (0.25, 0.75)


def test_kw_cover_in_recall_leaves_a_question_whose_words_are_held_and_shifts_one_whose_are_not(
        store: MemoryStore) -> None:
    from dataclasses import replace
    from math import log

    from conftest import chat_turns

    chat_turns(store, "chat", [
        ("2025-01-09T19:42:00", "Dan", "I bought an old canoe from a dentist in Selkirk"),
        ("2025-01-09T19:44:00", "Priya", "the whole way home I laughed"),
        ("2025-01-09T19:46:00", "Dan", "the varnish is peeling near the bow"),
        ("2025-01-09T19:48:00", "Priya", "I ran ten kilometres on the beach today"),
    ])
    on = replace(RecallConfig(), kw_cover=1.0)
    held = store.recall("the old canoe from Selkirk", k=4, touch=False, explain=True, config=on).results
    assert held[0].explain is not None and held[0].explain["weights"] == {"keyword": 0.5, "vector": 0.5}
    # "race", "preparing" and "along" are in no memory, "way" is in all four (a turn's indexed text holds its
    # neighbours' too): the keyword side keeps the share of the question's idf that "way" carries
    gap = store.recall("what race is she preparing for along the way", k=4, touch=False, explain=True,
                       config=on).results
    share = log(5 / 4) / (log(5 / 4) + 3 * log(5 / 0.5))
    assert gap[0].explain is not None
    assert abs(gap[0].explain["weights"]["keyword"] - round(0.5 * share, 12)) < 1e-9
    assert abs(gap[0].explain["weights"]["vector"] - (1.0 - 0.5 * share)) < 1e-9
    off = store.recall("what race is she preparing for along the way", k=4, touch=False, explain=True).results
    assert off[0].explain is not None and off[0].explain["weights"] == {"keyword": 0.5, "vector": 0.5}
