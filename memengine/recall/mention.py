"""The next mention of a top hit's own subject, later in its thread: how the thing turned out (issue 19, round 16).

A chat comes back to a subject days later, and the later turn says how it turned out: "Gosselin quoted
4,200 €" / a fortnight later "we went with Gosselin because of the piano"; "they want a fiador" / "the
landlord accepted 6 months upfront instead of a fiador"; "may Airbnb near Session Road" / "booked the Airbnb
for 3 nights, 16,500"; "rent goes from 1,980 to 2,150" / "he'll accept 2,060 instead of 2,150". The question
("which removal company did we choose?", "how much is the place in Baguio?") is worded like the first turn,
or like neither; the later turn shares with it no word, and with the first turn only the subject's own
name, rarely said elsewhere. Rounds 5-11's second hops searched the first hits' rare words over the whole
store (bm25, any session, re-fused or as a bonus) and brought look-alikes as often as evidence; this reads
only forward in the hit's own thread and takes the *next* turn saying one of them, the chat's own
continuation of that subject, placed right after the hit.

For each of the first ``MENTION_SEEDS`` hits that is a chat turn, its subject words are its words of
``MENTION_MIN`` letters or more (or numbers of three digits or more) that the question does not hold, that
at most ``MENTION_DOCS`` of its next turns read say and at most ``MENTION_DOCS`` memories' own text holds (a
name or a value said a few times, not a topic word); the first of its next ``MENTION_SPAN`` turns within
``MENTION_DAYS`` (a message, not a long answer) that says one of them is placed right after the hit when it
is below it (given the hit's score).

Shipped as ``end`` (``RecallConfig.mention``): only for a question asking how a thing turned out ("in the
end", "ended up", "now", "finalement", "al final"...). For every question (``next``) it lost recall@5 on both
dev sets (LoCoMo -0.024 to -0.039, the real chats -0.016 to -0.026 in-sample; no fold chose it): a chat's next
mention of a rare word is as often small talk as an outcome (bench/README.md, "Round 16").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memengine.recall.calendar_words import is_calendar_word
from memengine.recall.episodes import is_episode
from memengine.records import Candidate
from memengine.text import STOPWORDS, bare_text
from memengine.timeparse import hours_between

MODES = ("", "next", "tail", "end")
# ``end``: ``next`` for a question asking how a thing turned out only ("what did we end up paying…?", "how
# much was the roast pig in the end?", "where does Laura live now?"): the words of the importers' languages
# that ask for the outcome, not a plan or a first value (counter.asks_first asks the opposite)
_OUTCOME = re.compile(r"\b(?:in the end|end(?:ed|s)? up|finally|eventually|at last|now|al final|finalmente|"
                      r"finalement|au final|à la fin|am ende|schlie(?:ss|ß)lich|letztendlich|jetzt|alla fine|"
                      r"adesso|uiteindelijk|nu|ostatecznie|w końcu|teraz|till slut|lopulta|agora|ahora)\b",
                      re.IGNORECASE)
TAIL = 4  # ``tail``: placed no higher than this index (rank 5): a hit's continuation never pushes the first four down
MENTION_SEEDS = 3  # the top hits whose later turns are read
MENTION_SPAN = 60  # how many later turns of the thread (a subject comes back within a few dozen messages)
MENTION_DAYS = 45.0  # and within how long (a chat of short bursts comes back weeks later)
MENTION_DOCS = 6  # a subject word is in at most this many memories' own text (episodes hold their turns too)
MENTION_MIN = 4  # letters of a subject word (shorter ones are mostly fillers: "ok", "lol", "na")
MENTION_CHARS = 400  # a later turn read is a message (~60 words at most), not an assistant's page

_YEAR = re.compile(r"(?:19|20)\d\d")
_WORD = re.compile(r"\d[\d,.']*\d|[^\W\d_][\w'’-]*", re.UNICODE)

LaterTurns = Callable[[list[Candidate], int], dict[int, list[Candidate]]]
Counts = Callable[[list[str], int], dict[str, int]]


def words_of(text: str) -> set[str]:
    """The lower-cased words of ``text`` a subject may be: letters (``MENTION_MIN`` or more, no stop word, no
    calendar word) or a number of three digits or more, its separators dropped ("2,150" -> "2150")."""
    out = set()
    for w in _WORD.findall(text):
        if w[0].isdigit():
            digits = re.sub(r"\D", "", w)
            if len(digits) >= 3 and not _YEAR.fullmatch(w):  # (a year dates, it names nothing; "2,060" is no year)
                out.add(digits)
        else:
            w = w.replace("’", "'").lower().split("'")[0]
            # (a month, a weekday, "tomorrow", in any language recall reads, dates like a year: "rains start
            # March" is about the rains, and a later "starts Monday 1 March" is not its next mention; round 18)
            if len(w) >= MENTION_MIN and w not in STOPWORDS and not is_calendar_word(w):
                out.add(w)
    return out


def next_mention(ranked: list[Candidate], k: int, query: str, later_turns: LaterTurns, counts: Counts,
                 mode: str = "next") -> list[Candidate]:
    """``ranked`` with, after each of its first MENTION_SEEDS chat turns, the first of its later turns (in its
    thread, MENTION_SPAN turns and MENTION_DAYS at most) saying one of its subject words, when that turn ranks
    below the hit or is not in ``ranked`` at all (then given the hit's score). ``later_turns(seeds, span)``:
    the turns after each seed, in order, that pass the recall's filter; ``counts(words, cap)``: how many
    memories' own text holds each word (a count above ``cap`` may read as ``cap + 1``)."""
    mode, _, cap = mode.partition(":")  # "next:8": MENTION_DOCS 8 (bench/loo.py tries a few)
    docs = int(cap) if cap.isdigit() else MENTION_DOCS
    if k < 2 or not query or mode not in MODES or not mode:
        return ranked
    if mode == "end" and not _OUTCOME.search(query):
        return ranked
    seeds = [c for c in ranked[:min(k, MENTION_SEEDS)] if c.thread is not None and c.position is not None
             and not is_episode(c)]
    if not seeds:
        return ranked
    asked = words_of(query)
    own = {s.id: words_of(bare_text(s.content, s.author)) - asked for s in seeds}
    after = later_turns([s for s in seeds if own[s.id]], MENTION_SPAN)
    got: dict[str, int] = {}  # the words counted so far (each once, and only when a later turn holds it)
    out = list(ranked)
    for seed in seeds:
        # the later turns that may be its next mention: messages within MENTION_DAYS (a page, an assistant's
        # answer, is not read: an outcome is said in a line)
        turns: list[tuple[Candidate, str]] = []
        for turn in after.get(seed.id, []):
            if hours_between(seed.event_at, turn.event_at) / 24 > MENTION_DAYS:
                break
            text = bare_text(turn.content, turn.author)
            if len(text) <= MENTION_CHARS and not is_episode(turn):
                turns.append((turn, text.lower()))
        # the seed's words some of them hold (a substring test: cheap, and only ever too generous), then only
        # those said in at most ``docs`` of them counted in the index (counting every word of the top hits cost
        # a recall ~1.5 ms at 100k; a word in more of the turns read is no subject whatever its count)
        blob = "\n".join(low for _, low in turns)
        held = {w: blob.count(w) for w in own[seed.id] if w in blob}  # (times said: at least the turns saying it)
        todo = sorted(w for w, n in held.items() if n <= docs and w not in got and not w.isdigit())
        got.update(counts(todo, docs) if todo else {})
        subject = {w for w, n in held.items() if n <= docs and (w.isdigit() or 0 < got.get(w, 0) <= docs)}
        for turn, low in turns:
            if not any(w in low for w in subject) or not subject & words_of(low):
                continue
            at = next(i for i, c in enumerate(out) if c.id == seed.id)
            have = next((i for i, c in enumerate(out) if c.id == turn.id), None)
            place = max(at + 1, TAIL) if mode == "tail" else at + 1
            if have is not None and have <= place:
                break  # (above the hit already, or right after it)
            if have is not None:
                turn = out.pop(have)
            turn.score = out[place - 1].score if place - 1 < len(out) else seed.score
            out.insert(place, turn)
            break
    return out
