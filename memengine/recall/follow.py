"""The value a question asks for, said in the turns right after the one naming its subject (issue 19, round 12).

In a chat the subject and its value are often two messages: "Sandra hat mir Dr. Kessler empfohlen" /
"mach einen Termin" / "morgen 17:15"; "la masía de los tíos en Llíria" / "eso le va a gustar" / "a las 13:30
allí"; "que horas?" / "tem um às 7:30". The question ("wann war der Tierarzttermin?", "¿a qué hora es la
comida?") shares its words with the first; the second, which holds the answer, shares none and ranks
far below. Its neighbours' text (the context columns and vectors) lifts it a little, not enough: a turn's
context is several turns each side, the value turn is one short line among them.

For a question asking for a value kind (memengine/recall/counter.py: a time, a date, an amount), each of
the first ``FOLLOW_SEEDS`` hits that is a chat turn and states no value of that kind itself reads the next
``FOLLOW_SPAN`` turns of its thread (within ``FOLLOW_HOURS``); the first of them that is short and states a
value of the kind asked is placed right after it. A hit that states such a value answers by itself and
brings nothing; a question asking for the value as first said moves nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memengine.recall.counter import asked_kinds, asks_first, kind_fits
from memengine.recall.episodes import is_episode
from memengine.recall.updates import may_hold_value, stems, values_of
from memengine.records import Candidate
from memengine.text import bare_text, count_words
from memengine.timeparse import hours_between

FOLLOW_SEEDS = 5  # the top hits whose next turns are read
FOLLOW_SPAN = 3  # how many turns after one ("decidme fecha pronto" / "sábado 3 de julio?": the third)
FOLLOW_WORDS = 12  # a value given in reply is a line, not a paragraph
FOLLOW_HOURS = 12.0  # in the same stretch of the chat (a turn days later starts another exchange)

MODES = ("", "after", "newer")
# a question asking for a clock time is answered by a time, not by a date or a day ("¿a qué hora es la
# comida?" / "sábado 3 de julio?")
_CLOCK = re.compile(r"\b(?:what time|at what time|a que hora|a quelle heure|um wie ?viel uhr|um welche uhrzeit|"
                    r"a que horas|que horas|which time)\b")

NextTurns = Callable[[list[Candidate], int], dict[int, list[Candidate]]]


def _asked(query: str) -> frozenset[str] | None:
    """The value kinds ``query`` asks for (counter.asked_kinds), a clock time alone when it asks for one."""
    asked = asked_kinds(query)
    if asked is not None and "time" in asked:
        from memengine.fact_lexicon import fold

        if _CLOCK.search(fold(query.lower())):
            return frozenset({"time"})
    return asked


def _stated(c: Candidate, asked: frozenset[str]) -> frozenset[tuple[str, tuple[object, ...]]]:
    """The values of a kind ``asked`` that a turn states. A bare number answers a question asking for a
    day only as a day of the month (1-31: "erst am 26."; "Eiche 1.200, Granit 1.900" gives no day)."""
    if not may_hold_value(c.content):
        return frozenset()  # (most turns: no digit, no date word; the value reader costs ~0.3 ms a text)
    amount = "number:*" in asked
    return frozenset(v for v in values_of(bare_text(c.content, c.author)) if kind_fits({v[0]}, asked)
                     and (amount or v[0] != "number" or _day(v[1])))


def _any_value(c: Candidate) -> bool:
    """Whether a turn states a value of any kind (a seed names its subject and states none: "que horas?",
    "Brandt hat abgesagt, krank"; "dinner sat 8pm?" is no seed of "how many people?")."""
    return may_hold_value(c.content) and bool(values_of(bare_text(c.content, c.author)))


def _day(norm: tuple[object, ...]) -> bool:
    n = norm[0] if norm else None
    return isinstance(n, (int, float)) and float(n).is_integer() and 1 <= n <= 31


def _when(c: Candidate) -> tuple[str, int]:
    return c.event_at or "", c.position if c.position is not None else -1


def follow(ranked: list[Candidate], k: int, query: str, next_turns: NextTurns,
           mode: str = "after") -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` with, after each of its first FOLLOW_SEEDS chat turns that does not state the value kind
    ``query`` asks for, and none at all, the first short turn among the next FOLLOW_SPAN of its thread that does, when it is
    not in the top ``k`` already (moved up from below, or brought in from outside the ranking, and given
    the hit's score). ``next_turns(seeds, span)``: the turns
    after each seed, in order, that pass the recall's filter. Runs before updates.newer_first: a value
    brought in that a later turn changed is ranked below that turn there.

    ``newer``: a turn so found after a hit sharing a content word with the question (placed, or in the top
    ``k`` already: "Fulton guy rescheduled" / "saturday 11 now", not "should be fine" / "my shift ends at
    6:40") that is later than a hit above it of the same thread stating another value of the kind asked
    goes just above that hit, which is returned as outdated (``{earlier id: [later ids]}``):
    both came for the question, the later says the value now ("Brandt hat abgesagt, krank" / "hat gerade
    angerufen, Dienstag 22. um 7:30" after "Herr Brandt kommt Donnerstag um 8")."""
    if k < 2 or not query or mode not in MODES or not mode:
        return ranked, {}
    asked = _asked(query)
    if asked is None or asks_first(query):
        return ranked, {}
    # A seed states no value itself; whether it does is read only once one of its next turns states a value of
    # the kind asked (serve17): a seed is often a long turn (~1-4 ms to read, a new text on each new question),
    # its next turns short ones that mostly state none. ``next_turns`` reads each seed's thread alone, so
    # asking it for more seeds changes no seed's turns, and nothing in the loop acts before that read: the
    # same result as filtering the seeds first.
    seeds = [c for c in ranked[:min(k, FOLLOW_SEEDS)] if c.thread is not None and c.position is not None
             and not is_episode(c)]
    if not seeds:
        return ranked, {}
    after = next_turns(seeds, FOLLOW_SPAN)
    named = stems(query)
    out = list(ranked)
    placed: list[Candidate] = []
    for seed in seeds:
        for turn in after.get(seed.id, []):
            if hours_between(seed.event_at, turn.event_at) > FOLLOW_HOURS:
                break
            if is_episode(turn) or count_words(bare_text(turn.content, turn.author), FOLLOW_WORDS + 1) > FOLLOW_WORDS:
                continue
            said = _stated(turn, asked)
            if not said:
                continue
            if _any_value(seed):
                break  # (a seed stating a value answers by itself: no seed)
            at = next(i for i, c in enumerate(out) if c.id == seed.id)
            have = next((i for i, c in enumerate(out) if c.id == turn.id), None)
            subject = bool(named & stems(bare_text(seed.content, seed.author)))
            if have is not None and have < k:
                if subject:
                    placed.append(out[have])  # (its subject named: "Fulton guy rescheduled" / "saturday 11 now")
                break  # (shown already: it keeps its place, fusion's order among the shown stands: "booked, table
                # for 5 at 7:30" must not pass "they double booked, best is 6"; "last month was 142" not pass "186
                # this month")
            if have is not None:
                turn = out.pop(have)
            turn.score = seed.score
            out.insert(at + 1, turn)
            if subject:  # (a reply naming nothing of the question, "I can take it in", may be followed by
                placed.append(turn)  # another plan: "mum's birthday lunch is at Ortega, 12:30 saturday")
            break
    marks: dict[int, list[int]] = {}
    if mode == "newer":
        for turn in placed:
            mine = _stated(turn, asked)
            kinds = {kind for kind, _ in mine}
            at = next(i for i, c in enumerate(out) if c.id == turn.id)
            older = [i for i, c in enumerate(out[:min(at, k)]) if c.thread == turn.thread and not is_episode(c)
                     and _when(c) < _when(turn) and _changed(_stated(c, asked), mine, kinds)]
            if older:
                first = older[0]
                out.pop(at)
                turn.score = out[first].score
                out.insert(first, turn)
                for i in older:
                    marks.setdefault(out[i + 1].id, []).append(turn.id)
    return out, marks


def _changed(old: frozenset[tuple[str, tuple[object, ...]]], new: frozenset[tuple[str, tuple[object, ...]]],
             kinds: set[str]) -> bool:
    """Whether ``old`` and ``new`` both state a value of one of ``kinds``, and not the same ones."""
    for kind in kinds:
        a, b = {v for v in old if v[0] == kind}, {v for v in new if v[0] == kind}
        if a and b and a != b:
            return True
    return False
