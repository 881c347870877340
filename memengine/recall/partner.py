"""The reply a short top hit invited, given the tenth place (issue 19, round 52).

A chat settles things in pairs of turns by two people, often hours apart: "can you drive thu" / "sure, i'll drive
both days"; "anyone know a sub?" / "my flatmate Tash plays, ill ask"; "photo book? all the old pics" / "photo book
then, i can scan the albums". A question about such a pair is worded like the first turn, which ranks near the top;
the reply says the answer in its own words ("sure", "halves", "tmm 700 diyorum") and ranks far below, or is no
candidate at all. Round 52's census over fifteen pooled sets (bench/recall52_census.py): of the chat multi-hop
questions whose evidence is not all in the top 10, the missing turn is the reply the found turn invited in 35, the
turn it answers in 13, in its burst in 12; and the first reply by another person to a first-three hit (outside the
top 10) is evidence 2.2 times as often as the 10th place on the chat sets — but less often on LoCoMo and the
assistant exports, whose turns are long and say their own words.

So: for each of the first ``seeds`` hits that is a short chat turn (at most ``words`` words: a turn whose meaning
lives in its exchange), the first of the next ``others`` turns by another person within ``hours`` that the top 10
does not show yet; the first hit's that has one takes the tenth place (the weakest of the ten; the first nine and
so recall@5 never move). No word of any language is read.

Spec (``RecallConfig.partner``): ``seeds:words:others:hours``; '' = off.
"""

from __future__ import annotations

from collections.abc import Callable

from memengine.recall.episodes import is_episode
from memengine.records import Candidate
from memengine.text import bare_text, count_words
from memengine.timeparse import hours_between

LaterTurns = Callable[[list[Candidate], int], dict[int, list[Candidate]]]
PLACE = 10  # the place the partner takes: the tenth, whatever k (the list for k is the head of any longer one)
SPAN = 12  # turns read after a seed (the next few by another person lie within these)


def parse(spec: str) -> tuple[int, int, int, float]:
    """``seeds:words:others:hours`` -> (seeds, words, others, hours)."""
    parts = spec.split(":")
    return int(parts[0]), int(parts[1]), int(parts[2]), float(parts[3])


def replies_to(seed: Candidate, turns: list[Candidate], others: int, hours: float) -> list[Candidate]:
    """The first ``others`` of ``turns`` (the seed's next turns, in order) written by someone else, within
    ``hours`` of the seed."""
    out: list[Candidate] = []
    for turn in turns:
        if hours_between(seed.event_at, turn.event_at) > hours or len(out) >= others:
            break
        if turn.author != seed.author and not is_episode(turn):
            out.append(turn)
    return out


def partner_slot(ranked: list[Candidate], query: str, later_turns: LaterTurns, spec: str) -> list[Candidate]:
    """``ranked`` with the first reply (:func:`replies_to`) to one of its first short chat hits that the first
    ``PLACE`` do not hold put at place ``PLACE``. ``later_turns(seeds, span)``: the turns after each seed, in
    order, that pass the recall's filter."""
    if not spec or not query or len(ranked) < PLACE:
        return ranked
    n, words, others, hours = parse(spec)
    seeds = [c for c in ranked[:n] if c.thread is not None and c.position is not None and not is_episode(c)
             and count_words(bare_text(c.content, c.author), words + 1) <= words]
    if not seeds:
        return ranked
    after = later_turns(seeds, SPAN)
    shown = {c.id for c in ranked[:PLACE]}
    for seed in seeds:
        turn = next((t for t in replies_to(seed, after.get(seed.id, []), others, hours) if t.id not in shown), None)
        if turn is None:
            continue
        turn = next((c for c in ranked if c.id == turn.id), turn)  # (a candidate already: its own fields)
        out = [c for c in ranked if c.id != turn.id]
        turn.score = out[PLACE - 1].score  # (the score of the place it takes: the list stays in score order)
        out.insert(PLACE - 1, turn)
        return out
    return ranked
