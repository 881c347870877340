"""Round 13 of issue 19: the instance a category word of the question stands for, learned from the names
said around that word in the chat (``RecallConfig.w_instances``, memengine/recall/instances.py), and the
round's held-out chats."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from conftest import assert_held_out_refs, held_out_chat_rows

from memengine.recall.config import RETRIEVAL_FIELDS
from memengine.recall.instances import best_names, candidate_names, names_in
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
SET = "realchat_heldout13"


def cand(mid: int, author: str, text: str, position: int, when: str) -> Candidate:
    return Candidate((mid, f"{author}: {text}", author, "t", position, when, "{}", 1.0, 0.5))


def test_names_are_capitalised_words_a_leading_one_marked() -> None:
    words, first = names_in("ok Beanfield install is booked, Rogers can go")
    assert words == ["Beanfield", "Rogers"] and first is False
    words, first = names_in("Haddad says the furnace guy can come. Tom too")
    assert words == ["~Haddad", "~Tom"] and first is True
    assert names_in("Émile et Ørsted à Zürich, Łódź")[0] == ["~Émile", "Ørsted", "Zürich", "Łódź"]
    assert names_in("…") == ([], None)
    # acronyms, shouts, numbers and two-letter words are no names
    assert names_in("NOOO but F28 and OK, Al")[0] == []


def test_a_name_said_near_the_question_word_counts_leading_capitals_only_where_turns_start_in_lower_case() -> None:
    internet = [cand(1, "Dev", "internet's been dropping every night, anyone else?", 10, "2027-01-12T09:30"),
                cand(2, "Priya", "yes my calls cut out constantly", 11, "2027-01-12T09:31"),
                cand(3, "Dev", "Rogers wants 95 a month for the gigabit plan now", 12, "2027-01-12T09:33"),
                cand(4, "Tom", "Beanfield is 65 for the same speed", 13, "2027-01-12T09:40"),
                cand(5, "Maya", "do it, Dev", 14, "2027-01-12T09:41")]
    got = candidate_names([internet[0]], [internet[1:]], [2.0], ["internet", "provider"])
    assert got == {"rogers": 2.0, "beanfield": 2.0}  # "Dev" is an author of the chat, never an instance
    # where every turn starts with a capital, a leading word is the keyboard's: only names inside a turn
    formal = [cand(1, "Ann", "How is the internet at the new place?", 0, "2027-01-12T09:30"),
              cand(2, "Bob", "Wow it is fast, we switched to Beanfield", 1, "2027-01-12T09:31"),
              cand(3, "Ann", "Maybe we should too", 2, "2027-01-12T09:32")]
    assert candidate_names([formal[0]], [formal[1:]], [1.0], ["internet"]) == {"beanfield": 1.0}
    # a leading word also written in lower case nearby is a word; the question's own words are never instances
    mixed = [cand(1, "Ann", "internet is down", 0, "2027-01-12T09:30"),
             cand(2, "Bob", "Dan bellen we Ziggo", 1, "2027-01-12T09:31"),
             cand(3, "Ann", "dan maar", 2, "2027-01-12T09:32")]
    assert candidate_names([mixed[0]], [mixed[1:]], [1.0], ["internet", "ziggo"]) == {}
    # a turn days away is another exchange; a long text's capitalised words are its topics, not a burst's names
    far = [cand(1, "Ann", "internet is down", 0, "2027-01-12T09:30"),
           cand(2, "Bob", "ask Ziggo", 1, "2027-01-14T09:30"),
           cand(3, "Bob", "so " + "we could also look at the options again because " * 6 + "Ziggo", 2,
                "2027-01-12T09:35")]
    assert candidate_names([far[0]], [far[1:]], [1.0], ["internet"]) == {}
    # said near two of the question's words: the weights add up
    two = [cand(1, "Ann", "the landlord handles snow", 0, "2027-01-17T11:22"),
           cand(2, "Ann", "he hired a plow company, Northline", 1, "2027-01-17T11:45")]
    assert candidate_names([two[0], two[1]], [[two[1]], [two[0]]], [1.5, 2.5],
                           ["landlord", "plow"]) == {"northline": 4.0}


def test_best_names_leave_frequent_words_out() -> None:
    counts = {"haddad": 3.0, "northline": 3.0, "hey": 5.0, "ghost": 1.0}
    docs = {"haddad": 0.1, "northline": 0.02, "hey": 0.5, "ghost": 0.0}
    assert best_names(counts, docs, 100) == ["northline", "haddad"]  # rarer first on a tie; "ghost" in no memory


def chat(store: MemoryStore, lines: list[tuple[str, str, int]]) -> list[int]:
    start = datetime(2027, 1, 9, 19, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat",
                                       ref=f"house/{i}", author=who, thread="house", position=i,
                                       event_at=start + timedelta(minutes=minutes))
                             for i, (who, text, minutes) in enumerate(lines)]).ids


def test_in_a_real_store_a_turn_naming_the_instance_rises_for_the_category_question(store: MemoryStore) -> None:
    lines = [("Dev", "internet's been dropping every night, anyone else?", 0),
             ("Priya", "yes my calls cut out constantly", 1),
             ("Tom", "Beanfield is 65 for the same speed", 5),
             ("Maya", "do it", 6)]
    lines += [("Kenji", f"filler line {i} about the dishes and the bins and whose turn it is", 60 * (i + 1))
              for i in range(30)]
    lines += [("Dev", "ok Beanfield install is booked for the 22nd, morning", 5000)]
    ids = chat(store, lines)
    q = "who is our internet provider now?"
    cfg = replace(RecallConfig(), fts_weights=(1.0, 0.5, 0.4, 0.0, 0.0), context_vectors=False)
    off = [m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, w_instances=0.0)).results]
    on = [m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, w_instances=0.5)).results]
    assert ids[-1] not in off and ids[-1] in on
    assert "w_instances" in RETRIEVAL_FIELDS  # (bench/loo.py re-runs retrieval when it changes)
    # the recall's filter holds for the turns the bonus reaches
    store.forget(ids[-1])
    on = [m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, w_instances=0.5)).results]
    assert ids[-1] not in on
    # a question whose words the chat never says has no anchor: the same results on and off
    q = "what did the electrician charge?"
    assert ([m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, w_instances=0.5)).results]
            == [m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, w_instances=0.0)).results])


def test_the_held_out_questions_name_a_message_each_and_are_well_formed() -> None:
    assert held_out_chat_rows(SET, "gap")


def test_the_held_out_refs_are_the_importers_refs_of_their_snippets(store: MemoryStore) -> None:
    assert_held_out_refs(store, SET)


def test_a_question_word_no_memory_holds_is_searched_by_its_head_and_tail(store: MemoryStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from memengine.recall import parts as parts_module
    from memengine.recall.parts import parts_of, word_parts

    lines = [("Sanne", "meterstanden doorgegeven aan de nieuwe leverancier", 0),
             ("Lotte", "Hakan heeft een examen voor me aangevraagd, 2 juni 9:40", 60),
             ("Elin", "Solrosen har planeringsdag 30 april, stängt", 120),
             ("Elin", "veterinären vill att han går ner 2 kilo", 180)]
    lines += [("Kenji", f"filler line {i} about the dishes and the bins", 240 + i) for i in range(20)]
    chat(store, lines)
    conn = store.conn

    def parts(word: str) -> list[str]:
        return word_parts(conn, [word], {word: 0.0})

    assert parts("energieleverancier") == ['"leveranci"']  # the tail, as the index spells it (porter)
    assert parts("rijexamen") == ['"examen"']
    assert parts("planeringsdagen") == ['"planeringsdag" *']  # the head: an inflection
    assert parts("veterinärbesöket") == []  # "veterinar" is 7 letters shorter: a compound's head, too far
    assert parts_of(conn, "examen") == []  # short words are no compounds
    terms = ["rijexamen", "leverancier", "wanneer"]
    # only words no memory holds: "leverancier" is held, "wanneer" has no part
    assert word_parts(conn, terms, store.doc_shares(terms)) == ['"examen"']
    cfg = replace(RecallConfig(), fts_weights=(1.0, 0.5, 0.4, 0.0, 0.0), context_vectors=False, w_instances=0.0)
    q = "wanneer doet Lotte rijexamen?"
    on = [m.content for m in store.recall(q, k=1, touch=False, config=replace(cfg, word_parts=True)).results]
    assert on == ["Lotte: Hakan heeft een examen voor me aangevraagd, 2 juni 9:40"]
    assert "word_parts" in RETRIEVAL_FIELDS
    # a part in more memories than PART_DOCS is left out (it discriminates little; its postings cost)
    monkeypatch.setattr(parts_module, "PART_DOCS", 0)
    assert parts("rijexamen") == [] and parts("planeringsdagen") == []
