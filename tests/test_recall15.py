"""Round 15 of issue 19: a question word counts as absent (memengine/recall/absent.py) only when the store holds
it in no form: not its stem, no word it begins (an inflection: "delivers" / "delivery"), no part of it (a
compound's tail: "rijinstructeur" / "instructeur")."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from memengine.recall.absent import absent_probe, absent_words
from memengine.text import query_terms
from memory_core import MemoryStore, NewMemory, RecallConfig


def chat(store: MemoryStore, lines: list[tuple[str, str]]) -> list[int]:
    start = datetime(2027, 5, 3, 8, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat",
                                       ref=f"cafe/{i}", author=who, thread="cafe", position=i,
                                       event_at=start + timedelta(hours=7 * i))
                             for i, (who, text) in enumerate(lines)]).ids


LINES = [("Amy", "the milk delivery from Hollow Farm is late again"),
         ("Ben", "new supplies of oat milk come on Friday"),
         ("Amy", "Sofie the new barista starts Monday"),
         ("Ben", "de instructeur zegt dat Lotte klaar is"),
         ("Amy", "the espresso machine is leaking"),
         ("Ben", "Marta will cover the Saturday shift")]


def test_a_word_the_store_holds_in_another_inflection_is_not_absent(store: MemoryStore) -> None:
    chat(store, LINES)
    # "delivers" stems to "deliv", the store's "delivery" to "deliveri": one begins the other
    assert absent_words(store, query_terms("which dairy delivers our milk?")) == ["dairy"]
    # "supplier" / "supplies" ("suppli"): a head of four letters less than the word is held
    assert absent_words(store, query_terms("who is our supplier?")) == []


def test_a_compound_whose_part_the_store_holds_is_not_absent(store: MemoryStore) -> None:
    chat(store, LINES)
    # ("wie" is no English stop word, and no memory holds it)
    assert absent_words(store, query_terms("wie is Lotte's rijinstructeur?")) == ["wie"]


def test_a_word_in_no_form_stays_absent(store: MemoryStore) -> None:
    chat(store, LINES)
    # no stored word begins "sitter"/"sitte", "dog" is too short for a head; "barista" is held as it is
    assert absent_words(store, query_terms("who is the dog sitter or the barista?")) == ["dog", "sitter"]
    # a head is never shorter than five letters: "milky" ("milki") is not held by "milk"
    assert absent_words(store, query_terms("which plumber brought the milky one?")) == ["plumber", "brought", "milky"]


def test_a_question_whose_only_unmatched_word_is_an_inflection_ranks_as_with_the_step_off(
        store: MemoryStore) -> None:
    ids = chat(store, LINES)
    cfg = replace(RecallConfig(), absent="words:who:named", w_absent=5.0)
    for q in ("which farm delivers the milk?", "who is the new supplier of oat milk?"):
        assert absent_probe(store, q, query_terms(q), set(ids), cfg.absent) == {}
        assert ([m.id for m in store.recall(q, k=len(ids), touch=False, config=cfg).results]
                == [m.id for m in store.recall(q, k=len(ids), touch=False, config=replace(cfg, absent="")).results])
