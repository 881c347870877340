"""The instance a question's category word stands for, learned from the turns around that word (issue 19, round 13).

People ask by category or role ("who is our internet provider now?", "what did the landlord say?", "när
är förskolan stängd?"); the turn holding the answer names only the instance ("Beanfield guy came…",
"Haddad says the furnace guy…", "Solrosen har planeringsdag 30 april, stängt"). MiniLM scores such pairs
near 0 and no keyword is shared. But the same chat usually says the category once near the instance:
"internet's been dropping…" / "Rogers wants 95…" / "Beanfield is 65 for the same speed"; "the lease says
the landlord handles snow" / "Haddad says he hired…"; "ring förskolan" / "sagt till Solrosen".

So, per recall: the question's ``WORDS`` rarest content words that the store's own texts hold in a few
turns each are *anchors*' words; up to ``ANCHORS`` turns holding each are read with their ``SPAN``
neighbours each side in the same thread (within ``HOURS``), and the names said there are collected:
capitalised words inside a chat-sized turn, or leading one where people type turns in lower case and the
word is nowhere written in lower case there; never the chat's own authors, a word of the question, or a
word frequent in the store. A name scores the summed idf of the question words it is said near (each
word once). The best ``TERMS`` names are searched (bm25 over the memories' own text), and a turn naming
them keeps the larger of its own keyword score and ``weight`` × (its bm25 for the names / the best) × the
best keyword score of the question's words: it scores as if it held the question's words, no more.
Nothing is stored: the map is read from the chat at recall time, so it follows the user's own words, in
any language. Measured by bench/loo.py and bench/recall_round12.py on round 13's held-out chats
(bench/README.md, "Round 13").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from memengine.recall.episodes import is_episode
from memengine.records import Candidate
from memengine.text import STOPWORDS, bare_text, count_words, query_terms, quote_fts
from memengine.timeparse import hours_between

ANCHORS = 5  # turns holding the question's word that are read with their neighbours (per word)
SPAN = 3  # neighbours each side ("internet's been dropping" … three turns on … "Beanfield is 65")
HOURS = 12.0  # the same stretch of the chat
TERMS = 3  # names searched
TURN_WORDS = 40  # a chat turn; longer texts (an assistant's answer, a note) are not read for names
LEADING_SHARE = 0.5  # leading capitals count as names only where fewer of the turns read start with one
NAME_DOCS = 15  # a name is in at most max(NAME_DOCS, NAME_SHARE × memories) memories: a name, not a greeting
NAME_SHARE = 0.02
# a question word in more memories than max(WORD_MIN_DOCS, min(WORD_SHARE x memories, WORD_DOCS)) names no category
# (too common to anchor); the absolute cap bounds the anchor search at any store size
WORD_SHARE = 0.05
WORD_MIN_DOCS = 4
WORD_DOCS = 50
WORDS = 3  # the rarest question words that anchor
WORD_MIN = 4  # letters of a question word that anchors (shorter: the function words of every language, "wie", "chi", "vad")

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
# a word starting with an upper-case letter (Latin, Greek, Cyrillic, Armenian: the scripts with a case), found
# by the regex engine itself: most words of a chat are lower case and never reach Python
_UPPER = "".join(ch for ch in map(chr, range(0x590)) if ch.isupper() and ch.isalpha())
_CAPWORD = re.compile(rf"(?<![\w'’-])[{re.escape(_UPPER)}][\w'’-]*")
_POSSESSIVE = re.compile(r"['’]s$")


def names_in(text: str) -> tuple[list[str], bool | None]:
    """(capitalised words of ``text``, "~Word" for one leading a sentence; whether its first word is
    capitalised, None without a word). A word leading a sentence is capitalised by the keyboard, not for
    being a name: see :func:`candidate_names`."""
    head = _WORD.search(text)
    if head is None:
        return [], None
    out: list[str] = []
    for m in _CAPWORD.finditer(text):
        w = m.group(0).rstrip("'’-")
        if len(w) < 3 or w.isupper() or any(ch.isdigit() for ch in w):
            continue  # an acronym or a shout ("LOL", "NOOO", "F28"), not a name
        before = text[: m.start()].rstrip()
        leading = not before or not (before[-1].isalnum() or before[-1] == ",")
        out.append(("~" if leading else "") + w)
    return out, head.group(0)[:1].isupper()


def _lower_somewhere(word: str, texts: Sequence[str]) -> bool:
    """Whether ``word`` (lower case) is written in lower case in one of ``texts``."""
    pat = re.compile(r"(?<![\w'’-])" + re.escape(word) + r"(?![\w])")
    return any(pat.search(t) for t in texts)


def candidate_names(anchors: Sequence[Candidate], neighbourhoods: Sequence[Sequence[Candidate]],
                    anchor_weights: Sequence[float], query_words: Iterable[str]) -> dict[str, float]:
    """name (lower case) -> the summed weight of the question's words it is said near (each word once: the
    weight of the word whose anchor it is near, its idf in the store). A name said near the rarest words
    of the question, and near more of them, stands for what the question asks by category.

    Only chat-sized turns are read (``TURN_WORDS``: a long text's capitalised words are its topics). A word
    leading a sentence counts only where the turns read mostly start in lower case (people who type
    "ok Beanfield install is booked" capitalise names, not turns; where every turn starts with a capital,
    "Wow", "Maybe", "Friday" lead them) and the same word is not written in lower case there."""
    asked = {w.lower() for w in query_words}
    authors: set[str] = set()
    read: dict[int, tuple[list[str], str]] = {}  # memory id -> its names and bare text (each turn read once)
    firsts: list[bool] = []
    per_anchor: list[set[str]] = []
    for anchor, near in zip(anchors, neighbourhoods):
        said: set[str] = set()
        for c in [anchor, *near]:
            if c.id not in read:
                text = bare_text(c.content, c.author)
                if c.author and c.author.lower() not in authors:
                    authors.add(c.author.lower())
                    authors.update(p.lower() for p in _WORD.findall(c.author))
                if count_words(text, TURN_WORDS + 1) > TURN_WORDS:
                    read[c.id] = ([], "")
                    continue
                words, first = names_in(text)
                read[c.id] = (words, text)
                if first is not None:
                    firsts.append(first)
            if anchor.event_at and c.event_at and abs(hours_between(anchor.event_at, c.event_at)) > HOURS:
                continue
            said.update(read[c.id][0])
        per_anchor.append(said)
    texts = [t for _, t in read.values() if t]
    leading_ok = bool(firsts) and sum(firsts) < LEADING_SHARE * len(firsts)
    best: dict[tuple[str, float], float] = {}  # (name, anchor weight) once per word weight
    lower: dict[str, bool] = {}
    for said, weight in zip(per_anchor, anchor_weights):
        for w in said:
            key = _POSSESSIVE.sub("", w.lstrip("~").lower())
            if w.startswith("~"):
                if not leading_ok:
                    continue
                if key not in lower:
                    lower[key] = _lower_somewhere(key, texts)
                if lower[key]:
                    continue
            if len(key) < 3 or key in asked or key in authors or key in STOPWORDS:
                continue
            best[(key, weight)] = weight
    scores: dict[str, float] = {}
    for (key, _), weight in best.items():
        scores[key] = scores.get(key, 0.0) + weight
    return scores


def name_cap(n_memories: int) -> float:
    """The most memories a name is in (more: a greeting, a word of the chat's, not a name)."""
    return max(NAME_DOCS, NAME_SHARE * n_memories)


def best_names(counts: dict[str, float], docs: dict[str, float], n_memories: int) -> list[str]:
    """The ``TERMS`` names said near the most anchors (ties: the rarer in the store), frequent ones left out."""
    cap = name_cap(n_memories)
    kept = [w for w in counts if 0 < docs.get(w, 0.0) * n_memories <= cap]
    kept.sort(key=lambda w: (-counts[w], docs.get(w, 0.0), w))
    return kept[:TERMS]


CONTENT_ONLY = (1.0, 0.0, 0.0, 0.0, 0.0)  # bm25 over the memories' own text (fts columns: see memengine.text)


class Room(Protocol):
    """What :func:`instance_bonus` reads of the recall room (memengine/recall/pipeline.py's ``Recall``)."""

    conn: Any

    def _df_state(self) -> tuple[int, dict[tuple[Any, ...], int]]: ...

    def doc_shares(self, terms: list[str], column: str | None = None,
                   upto: int | None = None) -> dict[str, float]: ...

    def _keyword(self, match: str, where: str, args: list[Any], limit: int,
                 weights: tuple[float, ...] = ..., conn: Any = None,
                 words: list[str] | None = None) -> list[tuple[int, float]]: ...

    def _candidates(self, ids: list[int], conn: Any = None) -> dict[int, Candidate]: ...


def instance_bonus(st: Room, query: str, terms: Sequence[str], kw: dict[int, float], where: str,
                   args: list[Any], pool: int, weight: float) -> dict[int, float]:
    """memory id -> the keyword score a turn naming an instance of the question's category words earns:
    ``weight`` x (its bm25 for the names / the best) x the best keyword score in ``kw``.

    ``terms`` are the question's keyword terms (the names it asks about left out; never searched as an
    instance either: every word of ``query`` is excluded); ``where`` / ``args`` the recall's filter, which
    every turn read passes."""
    best = max(kw.values(), default=0.0)
    if best <= 0 or not terms:
        return {}
    long = [t for t in terms if len(t) >= WORD_MIN]
    if not long:
        return {}
    n = st._df_state()[0]
    cap = max(WORD_MIN_DOCS, min(WORD_SHARE * n, WORD_DOCS))
    # (counted up to the cap only: a word in more memories is left out whatever its count, and counting a
    # common word to the end cost a warm recall 1.5-5 ms at 100k)
    shares = st.doc_shares(long, "content", int(cap) + 1)
    anchor_of: list[tuple[int, float]] = []  # (anchor id, its word's weight)
    words = [t for t in long if 0 < shares.get(t, 0.0) * n <= cap]
    for t in sorted(words, key=lambda t: (shares[t], t))[:WORDS]:
        idf = math.log((n + 1) / (shares[t] * n))
        anchor_of += [(mid, idf) for mid, _ in st._keyword(quote_fts(t), where, args, ANCHORS, CONTENT_ONLY)]
    if not anchor_of:
        return {}
    rows = st._candidates(list({mid for mid, _ in anchor_of}))
    pairs = [(rows[i], w) for i, w in anchor_of if i in rows and rows[i].thread is not None
             and rows[i].position is not None and not is_episode(rows[i])]
    if not pairs:
        return {}
    anchors = [a for a, _ in pairs]
    # each anchor's stretch of its thread: one indexed range read apiece (memories_thread; OR-ed into one
    # statement, SQLite scanned the table: 32 ms at 100k)
    turns: dict[int, Candidate] = {}
    for thread, pos in sorted({(a.thread, a.position or 0) for a in anchors}):
        for r in st.conn.execute(
                f"SELECT {Candidate.COLUMNS} FROM memories m WHERE m.thread = ? AND m.position >= ? "
                f"AND m.position <= ? AND {where}", [thread, pos - SPAN, pos + SPAN, *args]):
            c = Candidate(r)
            if not is_episode(c):
                turns[c.id] = c
    near = [[c for c in turns.values() if c.thread == a.thread and c.id != a.id and c.position is not None
             and abs(c.position - (a.position or 0)) <= SPAN] for a in anchors]
    counts = candidate_names(anchors, near, [w for _, w in pairs], query_terms(query))  # (names it asks about too)
    if not counts:
        return {}
    # (the best few only: each name's share is an index lookup)
    counts = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3 * TERMS])
    names = best_names(counts, st.doc_shares(list(counts), "content", int(name_cap(n)) + 1), n)
    if not names:
        return {}
    hits = st._keyword(" OR ".join(quote_fts(w) for w in names), where, args, pool, CONTENT_ONLY)
    top = max((s for _, s in hits), default=0.0)
    if top <= 0:
        return {}
    return {mid: weight * best * s / top for mid, s in hits}
