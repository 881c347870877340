"""Reply pairs: a short chat turn answering the turn before it is scored with that question.

Real chats answer in short turns whose meaning lives in the question just asked ("where's the
marathon?" / "it's in Évora on october 18"): the question words are in the neighbour, not in
the answer. Recall already sees the neighbour three ways (the context columns of the keyword
side at 0.4 and 0.2, the context vector, the reply prior), and bench/README.md, "Round 6",
traces why such answers still lose: every turn within two positions shares the question's
words through its context column, so the answer gains no more than the "cool" after it; the
reply prior hands it 0.05 of the question's score, the same share a 40-word reply gets; and
the length prior gives a 7-word turn 0.068 of 0.1. Two priors read the pair instead:

* ``short_reply_weight`` — the reply prior's share for a *short* reply (at most
  ``SHORT_REPLY_WORDS`` words) written by someone other than the asker: it has nothing but
  its question to be found by, so it inherits more of the question's score;
* ``pair_words`` — the length prior of a reply counts its question's words too (the pair is
  the unit that says something; "21 km" after "how long is the course?" is not a one-word turn).

Both are pure functions of the candidates' columns (no SQL) and are off unless
``RecallConfig`` turns them on.
"""

from __future__ import annotations

from memengine.records import Candidate
from memengine.text import bare_text, count_words

SHORT_REPLY_WORDS = 12  # a reply of at most this many words is "short" (a chat turn, not a paragraph)


def is_short_answer(reply: Candidate, question: Candidate, max_words: int = SHORT_REPLY_WORDS) -> bool:
    """Whether ``reply`` is a short turn by another author than ``question``'s."""
    if reply.author and question.author and reply.author == question.author:
        return False  # the asker going on is not an answer
    return count_words(bare_text(reply.content, reply.author), max_words + 1) <= max_words


def short_reply_weight(w_reply: float, w_short: float, reply: Candidate, question: Candidate) -> float:
    """The reply prior's share of the question's score for this reply (``w_reply`` plus
    ``w_short`` for a short answer by another author)."""
    if w_short and is_short_answer(reply, question):
        return w_reply + w_short
    return w_reply


def pair_words(reply: Candidate, question: Candidate | None, cap: int) -> int:
    """Words of a reply for the length prior: its own, plus its question's (capped)."""
    own = count_words(bare_text(reply.content, reply.author), cap)
    if question is None or own >= cap:
        return own
    return min(cap, own + count_words(bare_text(question.content, question.author), cap))
