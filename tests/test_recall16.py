"""Round 16 of issue 19: the round's held-out chats (bench/data/realchat_heldout15: a Claude export, a Taglish
group, bursts months apart, a French / English flat-share), checked well formed against the importers."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import heldout_sets
from conftest import cand, turns_after

from memengine.recall.mention import MENTION_DAYS, MODES, next_mention, words_of
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
SET = "realchat_heldout15"


def counts_in(thread: list[Candidate]):  # type: ignore[no-untyped-def]
    """A ``counts`` over one hand-written thread: how many of its turns hold each word."""
    def counts(words: list[str], cap: int) -> dict[str, int]:
        return {w: sum(w in words_of(c.content) for c in thread) for w in words}
    return counts


def movers() -> list[Candidate]:
    return [cand(1, "Dan", "The movers: Gosselin quoted 4,200 door to door, Movinga 3,100", 0, "2027-03-15T12:10", 0.9),
            cand(2, "Ana", "which one has the better insurance", 1, "2027-03-15T12:12", 0.8),
            cand(3, "Dan", "no idea, asking", 2, "2027-03-15T12:13", 0.3),
            cand(4, "Ana", "the piano needs a proper crate anyway", 3, "2027-03-16T09:00", 0.2),
            cand(5, "Dan", "we went with Gosselin because of the piano", 4, "2027-03-17T18:22", 0.1),
            cand(6, "Ana", "Gosselin moved the delivery to the 12th", 5, "2027-04-20T07:55", 0.1)]


def test_words_of_keeps_names_values_and_long_words_not_years_or_fillers() -> None:
    assert words_of("ok Gosselin quoted 4,200 € in 2027, lol na") == {"gosselin", "quoted", "4200"}
    assert words_of("he'll accept 2,060 instead of 2,150") == {"accept", "2060", "instead", "2150"}


def test_the_end_gate_reads_a_question_asking_how_a_thing_turned_out() -> None:
    from memengine.recall.mention import _OUTCOME

    for q in ("what did we end up paying?", "where does Laura live now?", "Combien finalement ?",
              "¿dónde es la cena al final?", "vilket elbolag har vi nu?", "wer macht es jetzt?"):
        assert _OUTCOME.search(q), q
    for q in ("quanto prende all'ora?", "do you know the snow report?", "what did Ana recommend?", "nuovo?"):
        assert not _OUTCOME.search(q), q


def test_an_outcome_question_gets_the_next_mention_of_a_top_hits_subject_right_after_it() -> None:
    t = movers()
    out = next_mention([t[0], t[1], t[2]], 3, "which removal company did we pick in the end?", turns_after(t),
                       counts_in(t), "end")
    # the next turn saying "gosselin" (a word of the hit the question does not say, in few turns)
    assert [c.id for c in out] == [1, 5, 2, 3]
    assert out[1].score == t[0].score
    # a question asking no outcome, or the switch off: nothing moves
    for q, mode in (("which removal company quoted what?", "end"), ("which removal company did we pick in the end?", "")):
        t = movers()
        assert [c.id for c in next_mention([t[0], t[1], t[2]], 3, q, turns_after(t), counts_in(t), mode)] == [1, 2, 3]
    # "next" reads every question
    t = movers()
    assert [c.id for c in next_mention([t[0], t[1], t[2]], 3, "which removal company quoted what?", turns_after(t),
                                       counts_in(t), "next")] == [1, 5, 2, 3]
    assert MODES == ("", "next", "tail", "end")


def test_a_word_in_many_turns_a_turn_already_above_or_a_mention_too_late_brings_nothing() -> None:
    t = movers()
    # every subject word of the hit said in more than the cap's turns: no subject, nothing read
    out = next_mention([t[0], t[1]], 3, "what did we end up paying?", turns_after(t), lambda ws, cap: {w: cap + 1 for w in ws},
                       "end")
    assert [c.id for c in out] == [1, 2]
    # the next mention ranks right after the hit already: it stays
    t = movers()
    out = next_mention([t[0], t[4], t[1]], 3, "what did we end up paying?", turns_after(t), counts_in(t), "end")
    assert [c.id for c in out] == [1, 5, 6, 2]  # (5 stays; as a seed itself, its own next mention follows it)
    # later than MENTION_DAYS after the hit: not the same story any more
    t = movers()
    t[4].event_at = (datetime(2027, 3, 15, 12, 10) + timedelta(days=MENTION_DAYS + 1)).isoformat()
    t[5].event_at = t[4].event_at
    out = next_mention([t[0], t[1]], 3, "what did we end up paying?", turns_after(t), counts_in(t), "end")
    assert [c.id for c in out] == [1, 2]


def test_mention_in_a_real_store_reads_the_later_turns_of_the_thread(store: MemoryStore) -> None:
    start = datetime(2027, 3, 15, 12, 0)
    lines = [("Dan", "The movers: Gosselin quoted 4,200 door to door from Berlin, Movinga quoted 3,100"),
             ("Ana", "which one insures the piano properly")]
    lines += [("Ana", f"filler line number {i} about the weather and the garden") for i in range(20)]
    lines += [("Dan", "we went with Gosselin, they pack on 2 May")]
    ids = store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat",
                                      ref=f"mv/{i}", author=who, thread="mv", position=i,
                                      event_at=start + timedelta(hours=5 * i))
                            for i, (who, text) in enumerate(lines)]).ids
    q = "which movers quoted what, in the end?"
    cfg = replace(RecallConfig(), fts_weights=(1.0, 0.5, 0.4, 0.0, 0.0), context_vectors=False, mention="")
    off = [m.id for m in store.recall(q, k=3, touch=False, config=cfg).results]
    on = [m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, mention="end")).results]
    assert ids[0] in off and ids[-1] not in off
    assert on.index(ids[-1]) == on.index(ids[0]) + 1
    # the recall's filter holds for the turns read (a forgotten turn is not brought back)
    store.forget(ids[-1])
    on = [m.id for m in store.recall(q, k=3, touch=False, config=replace(cfg, mention="end")).results]
    assert ids[-1] not in on


def _rows(name: str = SET) -> list[dict[str, object]]:
    return heldout_sets.rows(name)


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    heldout_sets.check_kinds(rows, 64, 20, 18, 31, {"claude_export.json", "pinsan.txt", "helsinki.txt", "coloc.txt"})


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # the Claude export, pinsan, helsinki, coloc; the post-hoc shamba
    heldout_sets.check_snippets(store, (SET, "realchat_posthoc16"), 28 + 59 + 40 + 39 + 39)
