"""Chat turns that update each other: the newer one first (issue 19, round 8).

"we booked the cabin for the 12th-15th" and, a week later, "Kahu moved us to 19-22" both
answer "when is the cabin trip?", and the first is worded closer to the question. Facts
stored as facts are retired by the facts engine at write time (memengine/supersession.py);
chat turns are events and never supersede each other there. At recall time, among the top
``k`` only, a later turn of the same chat that changes the value of an earlier one is moved
to just above it, and the earlier one is marked ``possibly_outdated`` (by the later ids):
nothing leaves the results, the order of the others is kept.

Either way both turns must hold a value (a date, time, weekday, number: memengine/fact_tokens.py)
and not the same ones. Who decides that the later turn changes the earlier one's value (``RecallConfig.newer_first``):

* ``rules`` — the facts engine's own frame rules on the pair (facts.compare: the same frame
  with another value; facts.restated: a number restated without its subject);
* ``slot`` — the recall's question is the slot both answer (they are its top hits): the later
  one states a change (fact_cue.find_cue: "moved", "pushed", "now", "instead"...)
  and is asserted (fact_mood.unasserted: not a question or a plan);
* ``either`` — the two together.

Costs nothing with the switch off; on, the facts modules load on the first recall that has two
turns of one chat holding values in its top k (~0.25 s once per process).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from memengine.recall.episodes import is_episode
from memengine.records import Candidate
from memengine.text import bare_text, count_words, query_terms

MODES = ("", "rules", "slot", "either")
# An update is said in a message ("Kahu moved us to 19-22"), not in a long answer: a later turn of more
# words is never read as one (an assistant's recipe or plan holds numbers and "change" words throughout).
UPDATE_WORDS = 40


def _values(text: str) -> frozenset[tuple[str, tuple[object, ...]]]:
    from memengine import fact_tokens as T

    vals, _ = T.read_values(T.read_tokens(T.prepare(text), text), T.guess_lang(text))
    # a number's kind is its unit ("3 months" is a duration, "the 18th" a day): another unit, another slot
    return frozenset((f"{v.kind}:{v.norm[0]}" if v.kind == "number" and v.norm and v.norm[0] not in ("", "ordinal")
                      else v.kind, v.norm[1:] if v.kind == "number" and v.norm else v.norm) for v in vals)


def _slot_update(new: str) -> bool:
    from memengine import fact_cue, fact_mood

    return not fact_mood.unasserted(new) and fact_cue.find_cue(new) is not None


def _rules_update(old: str, new: str) -> bool:
    from memengine import facts

    fb = facts.analyse(new)
    return (facts.compare(old, fb) or facts.restated(old, fb)) is not None


def updates(old: str, new: str, mode: str, memo: dict[tuple[str, str], Any] | None = None) -> bool:
    """Whether the chat turn ``new`` (said later) changes the value the turn ``old`` gave, by ``mode``.

    Either way both must hold a value of one kind and not the same ones (a change of value is what
    is ranked: the rules' polarity flips and anything said without a value are left alone). The
    cheapest test first: with ``slot`` alone, the change cue (~0.1 ms) before the values (~1 ms);
    ``memo`` keeps both per text across the pairs of one recall."""
    if mode not in MODES or not mode:
        return False
    memo = {} if memo is None else memo

    def got(kind: str, text: str, fn: Any) -> Any:
        if (kind, text) not in memo:
            memo[kind, text] = fn(text)
        return memo[kind, text]

    cue = mode != "rules" and got("cue", new, _slot_update)
    if mode == "slot" and not cue:
        return False
    a, b = got("values", old, _values), got("values", new, _values)
    kinds = {k for k, _ in a} & {k for k, _ in b}
    if not kinds or {v for v in a if v[0] in kinds} == {v for v in b if v[0] in kinds}:
        return False  # no value of one kind on both sides ("pitch 3" / "kickoff at 11:15"), or the same ones
    return bool(cue) or (mode in ("rules", "either") and _rules_update(old, new))


def _stems(text: str) -> set[str]:
    """Word stems, crudely (the first four letters of words of four or more): "booked" / "booking"."""
    return {w[:4] for w in query_terms(text) if len(w) >= 4 and not any(ch.isdigit() for ch in w)}


def _when(c: Candidate) -> tuple[str, int]:
    return c.event_at or "", c.position if c.position is not None else -1


_MAYBE_VALUE = re.compile(r"\d|\b(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
                          r"noon|midnight|tomorrow|tonight|week|month|year)", re.I)


def newer_first(ranked: list[Candidate], k: int, mode: str, pool: Iterable[Candidate] = (),
                ) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` (best first) with every later turn that updates an earlier one of the same chat in the
    top ``k`` moved to just above it; and ``{earlier id: [later ids]}`` (the earlier ones to mark).

    The later turn is looked for in the top ``k`` and, when ``pool`` is given (recall's whole candidate
    pool), among the other candidates too: an update worded away from the question ("the owner moved us
    to 19-22") is a candidate through its neighbours but rarely a top hit. One brought in takes the
    earlier turn's score (so the scores returned stay in order) and pushes the last of the top ``k``
    down. Only chat turns of a thread holding a top-``k`` turn, said after it, with a digit or a
    date word, are analysed: most recalls read no pair."""
    if not mode or k < 2:
        return ranked, {}
    top = ranked[:k]
    in_top = {c.id for c in top}
    threads = {c.thread for c in top if c.thread is not None}
    text: dict[int, str] = {}
    stems: dict[int, set[str]] = {}

    def valued(c: Candidate) -> bool:  # (the bare text: a chat turn's "[date]" stamp is no value)
        text[c.id] = bare_text(c.content, c.author)
        return _MAYBE_VALUE.search(text[c.id]) is not None

    def stem(c: Candidate) -> set[str]:
        if c.id not in stems:
            stems[c.id] = _stems(text[c.id])
        return stems[c.id]

    olds = [c for c in top if c.thread is not None and not is_episode(c) and valued(c)]
    if not olds:
        return ranked, {}
    later = [c for c in top if c.thread in threads] + [c for c in pool if c.thread in threads and c.id not in in_top]
    later = [c for c in later if not is_episode(c) and valued(c) and count_words(text[c.id], UPDATE_WORDS + 1)
             <= UPDATE_WORDS]
    pairs = [(a, b) for a in olds for b in later if a.thread == b.thread and _when(a) < _when(b)
             and stem(a) & stem(b)]
    if not pairs:
        return ranked, {}
    memo: dict[tuple[str, str], Any] = {}
    marks: dict[int, list[int]] = {}
    for a, b in pairs:
        if updates(text[a.id], text[b.id], mode, memo):
            marks.setdefault(a.id, []).append(b.id)
    if not marks:
        return ranked, {}
    out = list(top)
    by_id = {c.id: c for c in later}
    for old_id, newer in marks.items():
        for new_id in sorted(newer, key=lambda i: _when(by_id[i])):
            old, new = next(c for c in out if c.id == old_id), by_id[new_id]
            if new in out and out.index(new) < out.index(old):
                continue
            if new in out:
                out.remove(new)
            out.insert(out.index(old), new)
            new.score = old.score
    rest = [c for c in ranked[k:] if c not in out]
    return out[:k] + out[k:] + rest, {o: sorted(ls) for o, ls in marks.items()}
