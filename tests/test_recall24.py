"""Round 24 of issue 19: the round's held-out chats (bench/data/realchat_heldout21: two LONG chats of the LoCoMo kind, an
allotment society's group, a ChatGPT trip export) checked well formed against the importers, and the answer step
(memengine/recall/answers.py): the answer to a top hit's question placed right after it, below the first five."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import heldout_sets

from memengine import ingest
from memengine.recall.answers import answer_tail, asks, says_something
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

SET = "realchat_heldout21"
FILES = {"bandmates.txt", "gamedev.txt", "allotment.txt", "danube_export.json"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 65, 31, 0, 30, FILES)
    long_chats = [r for r in rows if r["file"] in ("bandmates.txt", "gamedev.txt")]
    assert len(long_chats) == 49 and sum(r["category"] == "multi-hop" for r in long_chats) == 25


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 390 + 326 + 57 + 16)


# ---- answers.py on candidates

def _turn(i: int, author: str, text: str, hour: int = 20) -> Candidate:
    c = Candidate((i, f"{author}: {text}", author, "chat", i, f"2026-03-01T{hour:02d}:{i:02d}:00", "{}", 1.0, 0.5))
    c.score = 0.0
    return c


CHAT = [
    _turn(1, "Hannah", "I survived my first orgo midterm"),
    _turn(2, "Noor", "and??"),
    _turn(3, "Hannah", "88!!! I studied every night for two weeks"),
    _turn(4, "Noor", "amazing"),
    _turn(5, "Noor", "what's the new flat like"),
    _turn(6, "Hannah", "haha"),
    _turn(7, "Hannah", "two bedrooms and a tiny yard"),
    _turn(8, "Noor", "where exactly"),
    _turn(9, "Hannah", "and you? where?"),
    _turn(20, "Hannah", "the bus was late again"),
    _turn(21, "Noor", "again?"),
    _turn(22, "Noor", "ok"),
]
BY_ID = {c.id: c for c in CHAT}


def _next_turns(seeds: list[Candidate], span: int) -> dict[int, list[Candidate]]:
    return {s.id: [c for c in CHAT if c.position is not None and s.position is not None
                   and s.position < c.position <= s.position + span] for s in seeds}


def _ranked(ids: list[int]) -> list[Candidate]:
    out = []
    for rank, i in enumerate(ids):
        c = BY_ID[i]
        c.score = round(1.0 - 0.05 * rank, 2)
        out.append(c)
    return out


def test_a_question_is_a_question_mark_or_a_few_words_opening_with_a_question_word() -> None:
    assert asks(CHAT[1]) and asks(CHAT[4]) and asks(CHAT[7]) and asks(CHAT[10])
    assert not asks(CHAT[0]) and not asks(CHAT[2])
    assert not asks(_turn(30, "Noor", "where I grew up the winters were long"))  # (more than a few words)
    assert says_something(CHAT[2]) and says_something(_turn(31, "Efua", "SECOND PLACE"))
    assert not says_something(CHAT[5]) and not says_something(_turn(32, "Efua", "omg ok"))


def test_the_answer_after_a_contentless_prompt_goes_right_below_the_kept_ranks() -> None:
    # the news (1) is a top hit; "and??" (2) prompts; "88!!!" (3), outside the list, is brought in at rank 6
    ranked = _ranked([1, 20, 21, 22, 4, 5, 7, 9])
    got = [c.id for c in answer_tail(ranked, 15, 1, 5, _next_turns)]
    assert got == [1, 20, 21, 22, 4, 3, 5, 7, 9]


def test_the_answer_goes_right_after_a_seed_below_the_kept_ranks_and_never_above_them() -> None:
    # the seed asks itself (5, rank 7): its answer skips "haha" (6: says nothing) and is the next turn, 7,
    # which is moved up from rank 9 to right after it; the first five never move
    ranked = _ranked([20, 21, 22, 4, 9, 1, 5, 8, 7])
    got = [c.id for c in answer_tail(ranked, 15, 10, 5, _next_turns)]
    assert got[:5] == [20, 21, 22, 4, 9]
    assert got.index(7) == got.index(5) + 1


def test_no_answer_when_the_reply_asks_back_or_the_asker_only_goes_on() -> None:
    # "where exactly" (8) is answered by a question ("and you? where?"): no answer; "again?" (21) by its own
    # asker's "ok" and nothing else within the span: no answer; "amazing" (4) is followed by its own author's
    # question: no prompt
    ranked = _ranked([20, 8, 21, 22, 4, 9])
    assert [c.id for c in answer_tail(ranked, 15, 10, 5, _next_turns)] == [20, 8, 21, 22, 4, 9]


def test_off_at_zero_seeds_and_nothing_moves_at_or_below_the_depth() -> None:
    ranked = _ranked([1, 20, 21, 22, 4, 5, 7, 9])
    assert [c.id for c in answer_tail(ranked, 15, 0, 5, _next_turns)] == [1, 20, 21, 22, 4, 5, 7, 9]
    # with a depth of 5 the answer's place (rank 6) is past it: nothing changes
    assert [c.id for c in answer_tail(_ranked([1, 20, 21, 22, 4, 5]), 5, 1, 5, _next_turns)] == [1, 20, 21, 22, 4, 5]


def test_the_subject_gate_reads_only_seeds_sharing_a_word_with_the_question() -> None:
    ranked = _ranked([1, 20, 21, 22, 4, 5, 7, 9])
    gated = answer_tail(ranked, 15, 1, 5, _next_turns, "how did the orgo midterm go?", "subject")
    assert 3 in [c.id for c in gated]
    ranked = _ranked([1, 20, 21, 22, 4, 5, 7, 9])
    assert 3 not in [c.id for c in answer_tail(ranked, 15, 1, 5, _next_turns, "what grade did she get?", "subject")]


# ---- through recall, on a real store

WHATSAPP = """\
10/2/25, 20:20 - Hannah: I survived my first orgo midterm
10/2/25, 20:22 - Noor: and??
10/2/25, 20:23 - Hannah: 88!!! I studied every night for two weeks
10/2/25, 20:25 - Noor: amazing, you see
"""


def test_recall_places_the_answer_below_the_first_five_only_with_the_switch_on(store: MemoryStore,
                                                                               tmp_path: Path) -> None:
    filler = "".join(f"1{d % 10}/3/25, 19:{d:02d} - Noor: the midterm schedule for week {d} is up\n"
                     for d in range(10, 20))
    chat = tmp_path / "WhatsApp Chat with Noor.txt"
    chat.write_text(WHATSAPP + filler, encoding="utf-8")
    ingest.import_path(store, chat)
    off = replace(RecallConfig(), answer_seeds=0)
    on = replace(RecallConfig(), answer_seeds=10)
    q = "how did Hannah's orgo midterm go?"
    base = [m.content for m in store.recall(q, k=10, touch=False, config=off).results]
    got = [m.content for m in store.recall(q, k=10, touch=False, config=on).results]
    assert got[:5] == base[:5]
    news = "Hannah: I survived my first orgo midterm"
    answer = "Hannah: 88!!! I studied every night for two weeks"
    if base.index(news) < 5 and answer not in base[:6]:
        assert got.index(answer) == 5
    assert answer in got
