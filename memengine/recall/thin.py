"""A chat turn that says next to nothing is found only through its neighbours: it holds no answer (issue 19, round 37).

A chat turn's vector score is its context vector's cosine (own vector + 0.6 x the next turns' each side), and its
keyword score reads its neighbours' text too (the context columns): that is how "21 km" is found after "how long is
the course?". A reaction has nothing of its own — "noooo poor bub", "omg finally", "legend", "she must be gutted",
"nãoooo" — so its context vector *is* its neighbours', and it ranks with them, often above them: for "What did Meg
suggest for Alfie's chickenpox?" the top hit was "noooo poor bub" (the turn after "chickenpox. nursery sent him
home"), the suggestion sixth.

Held-outs 35, 30 and 31 (bench/recall37_misses.py, bench/README.md "Round 37"): 10-12 % of the first five places are
held by turns of fewer than two content words (brief_reactions.content_words, a digit counting as enough), and 2 of
145 such places hold evidence; the real-chat dev set, whose questions ask about small talk too ("Who was starving?",
"Who said they might not attend?"), 14 of 92 — and those share a word with their question ("I'm starving", "I'm
not sure I can attend").

So a chat turn among the first ``depth`` with fewer than ``THIN_WORDS`` content words, no digit and no content-word
stem of the question (updates.stems) loses ``w_thin`` x (the first score - the score at the depth): it moves below
turns that say something, not out of the list. Pure over the candidates (no read); off unless ``RecallConfig.w_thin``.
"""

from __future__ import annotations

import re

from memengine.recall.answerable import answer_share
from memengine.recall.episodes import is_episode
from memengine.recall.priors import replies
from memengine.recall.updates import stems
from memengine.records import Candidate
from memengine.text import bare_text

ANSWERS_KEPT = True  # a thin turn answering a question just before it is no reaction (bench/recall37 measures both)
THIN_WORDS = 2  # fewer content words than this: a reaction, a greeting, "that's the one"
_WORD = re.compile(r"[^\W\d_][^\W\d_'’]*", re.UNICODE)


def names_inside(text: str) -> bool:
    """Whether ``text`` has a capitalised word after its first that is not shouted (all capitals): a name, as a
    chat writes one ("My Switch! That's it"; not "THEY SAID YES", nor a sentence's first word)."""
    words = _WORD.findall(text)
    return any(w[0].isupper() and not w.isupper() for w in words[1:])


def is_thin(c: Candidate, asked: frozenset[str], words: int = THIN_WORDS) -> bool:
    """Whether chat turn ``c`` says next to nothing of its own: fewer than ``words`` content words, no digit, and
    no content-word stem of the question (``asked``: updates.stems of it)."""
    if c.thread is None or is_episode(c) or answer_share(c, words) >= 1.0:
        return False
    text = bare_text(c.content, c.author)
    if names_inside(text):
        return False  # (a name inside the turn says something: "My Switch! That's it")
    return not (asked & stems(text))


def thin_below(ranked: list[Candidate], depth: int, query: str, weight: float,
               words: int = THIN_WORDS) -> list[Candidate]:
    """``ranked`` with each thin turn (:func:`is_thin`, fewer than ``words`` content words) of its first ``depth``
    lowered by ``weight`` x the spread of those scores, re-sorted (ties by id, as fusion's order)."""
    if weight <= 0 or len(ranked) < 2:
        return ranked
    head, tail = ranked[:depth], ranked[depth:]
    spread = (head[0].score or 0.0) - (head[-1].score or 0.0)
    if spread <= 0:
        return ranked
    asked = stems(query)
    thin = [c for c in head if is_thin(c, asked, words)]
    if not thin:
        return ranked
    if ANSWERS_KEPT:
        # a short turn answering the question just before it, by another author ("Moth Season?" / "yes. that's
        # it"; "who's in?" / "I am in!") says what it answers: the candidates' own reply reading (priors.replies)
        by_id = {c.id: c for c in ranked}
        answered = replies(by_id)
        thin = [c for c in thin if c.id not in answered or by_id[answered[c.id]].author == c.author]
    for c in thin:
        c.score = (c.score or 0.0) - weight * spread
    head.sort(key=lambda m: (-(m.score or 0.0), m.id))
    return head + tail
