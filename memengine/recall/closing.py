"""The turn that closes an exchange about a value: what was decided, after the first proposal (issue 19, round 51).

A chat settles a value in a burst of short turns: "butcher says 10% off if we order 80 burgers" / "80?? we're 30
houses" / "go for 60" / "ok 60 it is"; "they offered the 13th or the 20th" / "13th. my sister's wedding is the
20th" / "13 works" / "ok I'll tell them 13 june". A question asking what was ordered or decided is worded like the
first proposal, which ranks first; the turn that settles it says little but the value ("ok 60 it is") and ranks
far below. Round 10's settlements (memengine/recall/updates.py) need a change of a value the question asks and a
"then / it is" word; this reads the exchange itself: after a top hit that is a chat turn, the *last* short turn of
its burst that says again a word or a number another person said in the burst (the newest of the values traded)
closes it, and is placed right after the hit (or right above it, ``above``).

No word list is read by the default: the closing turn is found by what it repeats and by where it stands. Two
gates are measured beside it: ``agree`` (the closing turn opens on an agreement or settles,
memengine/recall/replaced.py ``agrees``: the languages the engine reads), and ``end`` (only for a question asking
what was decided or how a thing ended: mention.py's outcome words and the verbs of deciding).

Spec (``RecallConfig.closing``): ``seeds:span[:gate[:place]]`` — the first ``seeds`` hits read, ``span`` turns
after each, gate ``all`` / ``agree`` / ``num`` / ``agreenum`` and each of them after ``end`` (``endagree``...), place ``after`` / ``above``; '' = off.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memengine.recall.episodes import is_episode
from memengine.recall.mention import _OUTCOME
from memengine.recall.replaced import agrees
from memengine.records import Candidate
from memengine.text import STOPWORDS, bare_text
from memengine.timeparse import hours_between

LaterTurns = Callable[[list[Candidate], int], dict[int, list[Candidate]]]

GATES = ("all", "agree", "end", "endagree", "num", "agreenum", "endnum")
CLOSE_WORDS = 8  # a closing turn is a line ("ok 60 it is", "fine akbars"), not a message with news of its own
BURST_HOURS = 3.0  # consecutive turns this far apart at most are one exchange
CLOSE_CHARS = 200
# the verbs of deciding and choosing, for the ``end`` gate (with mention.py's outcome words: "in the end", "now")
_DECIDED = re.compile(r"\b(?:decid\w*|settled?|agreed?|cho(?:se|sen|ose)|pick(?:ed)?|go(?:ing)? (?:for|with)|"
                      r"went (?:for|with)|book(?:ed)?|final\w*|décid\w*|decidi\w*|decis\w*|entschied\w*|"
                      r"beschlossen|gekozen|besloten|besluit\w*|valde|besluttede|zdecydowali\w*)\b",
                      re.IGNORECASE)
_WORD = re.compile(r"\d+(?:[.:,]\d+)?|[^\W\d_]{3,}", re.UNICODE)


def parse(spec: str) -> tuple[int, int, str, str]:
    """``seeds:span[:gate[:place]]`` -> (seeds, span, gate, place)."""
    parts = spec.split(":")
    return (int(parts[0]), int(parts[1]), parts[2] if len(parts) > 2 else "all",
            parts[3] if len(parts) > 3 else "after")


def asks_decided(query: str) -> bool:
    """Whether a question asks what was decided or how a thing ended ("in the end", "what did we go for")."""
    return bool(_OUTCOME.search(query) or _DECIDED.search(query))


def tokens(text: str) -> frozenset[str]:
    """A turn's words a value may be traded by: numbers, and words of three letters or more that are no stop
    word, lower-cased, a plural's or a possessive's "s" dropped ("school's" / "school", "13th" keeps its digits)."""
    out = set()
    for w in _WORD.findall(text.lower().replace("’", "'")):
        if w[0].isdigit():
            out.add(re.sub(r"\D", "", w.split(".")[0].split(":")[0]) or w)
            continue
        if w in STOPWORDS:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return frozenset(out)


def closing_of(seed: Candidate, turns: list[Candidate], agree: bool = False, num: bool = False) -> Candidate | None:
    """The last of ``turns`` (the seed's next turns, in order) within its burst that is short, asks nothing (a
    question proposes, it settles nothing: "ok let's do X now. where?") and says again a word or number another
    person said in the burst since the seed; with ``agree`` it must open on an agreement, with ``num`` the thing
    said again must be a number, with both either. None when there is none."""
    said: list[tuple[str | None, frozenset[str]]] = [(seed.author, tokens(bare_text(seed.content, seed.author)))]
    prev, found = seed.event_at, None
    for turn in turns:
        if is_episode(turn) or hours_between(prev, turn.event_at) > BURST_HOURS:
            break
        prev = turn.event_at
        text = bare_text(turn.content, turn.author)
        mine = tokens(text)
        again = set().union(*(mine & toks for who, toks in said if who != turn.author))
        if again and len(text) <= CLOSE_CHARS and len(text.split()) <= CLOSE_WORDS and "?" not in text:
            number = any(w[0].isdigit() for w in again)
            if (agree and num and (number or agrees(text))) or (agree and not num and agrees(text)) \
                    or (num and not agree and number) or not (agree or num):
                found = turn
        said.append((turn.author, mine))
    return found


def closing_turns(ranked: list[Candidate], k: int, query: str, later_turns: LaterTurns, spec: str) -> list[Candidate]:
    """``ranked`` with the closing turn of each of its first ``seeds`` chat turns' exchanges (:func:`closing_of`)
    placed right after (``above``: right above) that hit when it ranks below it or not at all (given the hit's
    score). ``later_turns(seeds, span)``: the turns after each seed, in order, that pass the recall's filter."""
    if not spec or k < 2 or not query:
        return ranked
    n, span, gate, place = parse(spec)
    if gate.startswith("end") and not asks_decided(query):
        return ranked
    seeds = [c for c in ranked[:min(k, n)] if c.thread is not None and c.position is not None
             and not is_episode(c)]
    if not seeds:
        return ranked
    after = later_turns(seeds, span)
    out = list(ranked)
    for seed in seeds:
        turn = closing_of(seed, after.get(seed.id, []), agree="agree" in gate, num="num" in gate)
        if turn is None:
            continue
        at = next(i for i, c in enumerate(out) if c.id == seed.id)
        have = next((i for i, c in enumerate(out) if c.id == turn.id), None)
        to = at if place == "above" else at + 1
        if have is not None and have <= to:
            continue  # (above the hit already, or where it would go)
        if have is not None:
            turn = out.pop(have)
        turn.score = seed.score
        out.insert(to, turn)
    return out
