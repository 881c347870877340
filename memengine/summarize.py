"""Extractive cluster summaries for ``consolidate`` (RAPTOR-style, no LLM).

A cluster of related memories becomes one summary memory: a header line with
the size, date span, people and key terms of the cluster, then a few of the
members' own sentences chosen to cover the cluster without repeating itself::

    Summary of 4 memories (2023-05-01 – 2023-06-12; people: Ana, Oscar; key terms: gateway, restart)
    - Ana restarted the gateway after the outage.
    - Oscar moved the billing job to Tuesdays.

Sentence choice is Maximal Marginal Relevance (Carbonell & Goldstein 1998):
repeatedly take the sentence most similar to the cluster centroid minus its
similarity to what is already chosen. Similarity mixes a semantic part
(sentence embeddings from ``embed``, else each member's stored embedding) with
a lexical TF-IDF part; without any embeddings it is TF-IDF alone. Everything
is deterministic: members are processed in id order and every tie is broken by
(member id, sentence position).

Users who prefer an LLM can plug one in with :func:`run_external_summarizer`:
any command that reads the cluster JSON on stdin and prints a summary.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import signal
import subprocess
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from memengine import topic_names, topic_people
from memengine.stopword_lists import _language_lists, _lists_key, _word_languages  # noqa: F401  (re-exported)
from memengine.text import STOPWORDS as TEXT_STOPWORDS
from memengine.text import TALK_STOPWORDS

if TYPE_CHECKING:  # scipy is imported where a summary is made: brief imports this module on a cold start
    from scipy import sparse

# --------------------------------------------------------------------------- tuning

# MMR trade-off: 1.0 = pure relevance (picks near-duplicates of the centroid),
# 0.0 = pure novelty (picks outliers). A summary is about *coverage*, so we sit
# a little above the middle: a second sentence on an already covered subtopic
# loses to a first sentence on an uncovered one unless it is far more central.
MMR_LAMBDA = 0.6

# A candidate at least this similar to an already chosen sentence is a
# near-duplicate and is never chosen, whatever its relevance.
REDUNDANT_SIMILARITY = 0.9

# Share of the similarity that comes from embeddings when they exist; the rest
# is TF-IDF, which still separates sentences of the same member when only
# member-level embeddings are available (they would otherwise all be equal).
SEMANTIC_WEIGHT = 0.75

# Fragments shorter than this ("ok.", "Thanks!") say nothing on their own.
MIN_SENTENCE_WORDS = 3

# A truncated sentence shorter than this is noise; better no sentence at all.
MIN_TRUNCATED_CHARS = 24

DEFAULT_MAX_SENTENCES = 3
DEFAULT_MAX_CHARS = 600
DEFAULT_MAX_TERMS = 5
MAX_HEADER_PEOPLE = 5  # the Summary keeps them all; the header line stays short

# Key terms shorter than this are mostly noise ("ok", "pm", unit letters).
MIN_TERM_LENGTH = 3

# A cluster written in another language gets that language's stopwords too (the
# ``stop-words`` package, 33 languages), or "pour, est, pas" become its key terms and a
# capitalised "Donc" its person. The language is the one whose stopword list covers the
# largest share of the cluster's words, if that share is at least this (running text is
# 35-50 % stopwords in its own language; English text is ~10 % French or German ones).
LANGUAGE_MIN_SHARE = 0.2

ELLIPSIS = "…"
DATE_FORMAT = "%Y-%m-%d"


# Recall's English stopwords (memengine.text) plus the words of chat and everyday talk that
# name no topic (text.TALK_STOPWORDS: "yeah", "thanks", "went", "today"); the stop-words package adds
# the language a cluster is written in (stopwords_for).
STOPWORDS: frozenset[str] = TEXT_STOPWORDS | TALK_STOPWORDS

# Authors that are roles, not people (chat exports label turns this way).
ROLE_AUTHORS: frozenset[str] = frozenset({"user", "assistant", "system", "bot", "ai", "me", "you", "unknown"})

# Words ending in "." that do not end a sentence.
ABBREVIATIONS: frozenset[str] = frozenset(
    {"e.g", "i.e", "a.m", "p.m", "etc", "vs", "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "inc", "ltd",
     "approx", "fig", "cf", "al"}
)

_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d+[.)]|#+)\s+")
_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*\s+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_LETTERS = re.compile(r"[^\W\d_]+")
_WHITESPACE = re.compile(r"\s+")

Embedder = Callable[[list[str]], "npt.NDArray[Any]"]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Member:
    """One memory of the cluster, as the consolidate job reads it."""

    id: int
    content: str
    event_at: datetime | None = None
    author: str | None = None
    embedding: npt.NDArray[np.float32] | None = field(default=None, compare=False)  # L2-normalised, 384 dims


@dataclass
class Summary:
    """An extractive summary; ``text`` is what gets stored as the summary memory."""

    text: str
    sentences: list[tuple[int, str]]  # (member id, sentence) in output order
    key_terms: list[str]
    date_span: tuple[datetime, datetime] | None
    people: list[str]
    member_ids: list[int]
    name: str = ""  # a readable topic name (memengine.topic_names): consolidate's cluster label


class SummarizerError(RuntimeError):
    """The external summarizer failed; ``str(err)`` is one line fit for a user."""


@dataclass(frozen=True)
class _Sentence:
    member_id: int
    position: int  # index of the sentence inside its member
    text: str


# --------------------------------------------------------------------------- text


def split_sentences(text: str) -> list[str]:
    """Split text into sentences: line breaks and list bullets end sentences too.

    A period after a known abbreviation ("e.g.", "Dr.") or a single initial
    ("J.") does not end a sentence. Lowercase starts are allowed: chat messages
    often do not capitalise.
    """
    out: list[str] = []
    for raw_line in text.splitlines():
        line = _WHITESPACE.sub(" ", _BULLET.sub("", raw_line)).strip()
        if not line:
            continue
        start = 0
        for match in _SENTENCE_END.finditer(line):
            before = line[start : match.start() + 1].rsplit(" ", 1)[-1].lower()
            word = before.rstrip(".").lstrip("(\"'“‘")
            if line[match.start()] == "." and (word in ABBREVIATIONS or (len(word) == 1 and word.isalpha())):
                continue
            out.append(line[start : match.end()])
            start = match.end()
        out.append(line[start:])
    cleaned = (_BULLET.sub("", s).strip() for s in out)
    return [s for s in cleaned if s]


@functools.lru_cache(maxsize=8192)
def _word_tuple(text: str) -> tuple[str, ...]:
    """The words of ``text`` (``_WORD``), cached: a sentence is tokenised, deduplicated and counted,
    and one regex pass serves all three."""
    return tuple(_WORD.findall(text))


def _lower_words(text: str) -> list[str]:
    words = _word_tuple(text)
    if not words:
        return []
    # one lower() over the words joined by spaces, not one per word: the same words (a word holds no
    # space, and lower() maps a word the same way whatever stands around it across a space)
    return " ".join(words).lower().replace("’", "'").split(" ")


# stopword list -> (words seen, the content words among them): a word is judged once, then
# tokenize's filter is one set probe per word instead of a length, a stopword and a digit test
_CONTENT_WORDS: dict[frozenset[str], tuple[set[str], set[str]]] = {}
_CONTENT_WORDS_MAX = 400_000  # words remembered per list before it starts afresh (a few tens of MB)


def tokenize(text: str, stopwords: frozenset[str] = STOPWORDS) -> list[str]:
    """Lowercased content words: stopwords, pure numbers and short tokens removed."""
    words = _lower_words(text)
    known, content = _CONTENT_WORDS.get(stopwords) or _content_sets(stopwords)
    if not known.issuperset(words):
        if len(known) > _CONTENT_WORDS_MAX:
            known.clear()
            content.clear()
        new = set(words).difference(known)
        known.update(new)
        content.update(w for w in new if len(w) >= MIN_TERM_LENGTH and w not in stopwords and not w.isdigit())
    return [w for w in words if w in content]


def _content_sets(stopwords: frozenset[str]) -> tuple[set[str], set[str]]:
    if len(_CONTENT_WORDS) > 64:  # other lists than the few of stopwords_for (callers' own): start afresh
        _CONTENT_WORDS.clear()
    sets: tuple[set[str], set[str]] = (set(), set())
    _CONTENT_WORDS[stopwords] = sets
    return sets


def detect_language(texts: Sequence[str]) -> str | None:
    """The language whose stopwords cover the largest share of the words of ``texts``,
    if at least LANGUAGE_MIN_SHARE of them; else None (too short, or no list fits)."""
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(_lower_words(t))
    total = sum(counts.values())
    if not total:
        return None
    hits: dict[str, int] = {}  # language -> words of the texts in its stopword list
    languages_of = _word_languages()
    for w, n in counts.items():
        for lang in languages_of.get(w, ()):
            hits[lang] = hits.get(lang, 0) + n
    best, share = None, 0.0
    for lang in sorted(hits):  # a language without a hit has share 0 and never wins
        s = hits[lang] / total
        if s > share:
            best, share = lang, s
    return best if share >= LANGUAGE_MIN_SHARE else None


def stopwords_for(texts: Sequence[str], around: str | None = None) -> frozenset[str]:
    """English stopwords, plus those of the language ``texts`` are written in (see detect_language). (brief26)
    ``around``: the language of the store or chat the texts come from; a group too small to tell its own (fewer than
    SMALL_GROUP_WORDS words, or no list fits) takes its stop words too: "De Zwaan bevestigd voor opa's 80ste" and
    "ik ben erbij" read as English named a topic "Zwaan bevestigd voor"."""
    lang = detect_language(texts)
    if around is not None and around != lang and around != "english" and around in _language_lists() and (
            lang is None or sum(len(_word_tuple(t)) for t in texts) < SMALL_GROUP_WORDS):
        return _with_languages(tuple(sorted({around} | ({lang} if lang and lang != "english" else set()))))
    if lang is None or lang == "english":
        return STOPWORDS
    return _with_language(lang)


SMALL_GROUP_WORDS = 40  # (brief26) a group of fewer words tells its language no better than its store does


@functools.cache
def _with_languages(langs: tuple[str, ...]) -> frozenset[str]:
    """English stopwords and those of ``langs`` (one object per tuple, as :func:`_with_language`)."""
    if len(langs) == 1:
        return _with_language(langs[0])
    return STOPWORDS.union(*(_language_lists()[lang] for lang in langs))


@functools.cache
def _with_language(lang: str) -> frozenset[str]:
    # one object per language: tokenize keeps its judged words per stopword list
    return STOPWORDS | _language_lists()[lang]


_SUMMARY_HEADER = re.compile(r"^Summary of \d+ memor(?:y|ies)\b.*$", re.MULTILINE)  # what _header writes
_LINE_LABEL = re.compile(r"^(\s*(?:[-*•]\s+)?)([^\n:]{1,40}):(?=\s)", re.MULTILINE)


def _without_label(content: str, author: str | None) -> str:
    """Text without ``Author:`` labels at line starts (chat imports store "User: ...", and a
    summary's sentences keep theirs after "- "): the label is who spoke, not what the
    cluster is about. Only the memory's author and role words count as labels. A summary
    member also loses its "Summary of N memories (...)" line."""
    labels = ROLE_AUTHORS | ({author.strip().lower()} if author else set())
    content = _SUMMARY_HEADER.sub("", content)  # a member that is a summary: its boilerplate line
    return _LINE_LABEL.sub(lambda m: m.group(1) if m.group(2).strip().lower() in labels else m.group(0), content)


def _word_count(text: str) -> int:
    return len(_word_tuple(text))


def _dedupe_key(text: str) -> str:
    return " ".join(_word_tuple(text)).lower()  # = each word lowered (see _lower_words)


# --------------------------------------------------------------------------- vectors


def _tfidf_matrix(docs: list[list[str]], scale: float = 1.0) -> sparse.csr_matrix:
    """Sublinear TF × smoothed IDF over ``docs``, rows L2-normalised (zero rows stay zero), times
    ``scale``, as a sparse matrix: a sentence holds ~10 of a cluster's ~2,000 terms, and a dense
    matrix made zeroing, normalising and multiplying those zeros most of the summaries' time."""
    from scipy import sparse

    doc_counts = [Counter(doc) for doc in docs]
    doc_freq: Counter[str] = Counter()
    for counts in doc_counts:
        doc_freq.update(counts.keys())
    vocab = sorted(doc_freq)
    index = {t: i for i, t in enumerate(vocab)}
    n = len(docs)
    idf = {t: math.log((1 + n) / (1 + f)) + 1.0 for t, f in doc_freq.items()}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for row, counts in enumerate(doc_counts):
        for term, count in counts.items():
            rows.append(row)
            cols.append(index[term])
            vals.append((1.0 + math.log(count)) * idf[term])
    r = np.asarray(rows, dtype=np.int64)
    v = np.asarray(vals, dtype=np.float64)
    norms = np.sqrt(np.bincount(r, weights=v * v, minlength=n))
    v = v / norms[r]  # a stored value belongs to a row with a term: its norm is > 0
    if scale != 1.0:
        v = v * scale
    return sparse.csr_matrix((v, (r, np.asarray(cols, dtype=np.int64))), shape=(n, max(1, len(vocab))))


def _normalise_rows(matrix: FloatArray) -> FloatArray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    out: FloatArray = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return out


@dataclass
class _Features:
    """Sentence rows [√w·semantic | √(1-w)·tf-idf], kept as a dense part (None without embeddings)
    and a sparse part, so that a dot product of two rows is SEMANTIC_WEIGHT·cos(emb) +
    (1-SEMANTIC_WEIGHT)·cos(tfidf), without materialising the wide dense matrix."""

    semantic: FloatArray | None
    lexical: sparse.csr_matrix

    def __len__(self) -> int:
        return int(self.lexical.shape[0])

    def dense(self) -> FloatArray:
        """The full matrix (tests compare it with an hstack of both parts)."""
        lex = self.lexical.toarray()
        return lex if self.semantic is None else np.hstack([self.semantic, lex])

    def dot(self, vec: tuple[FloatArray | None, FloatArray]) -> FloatArray:
        """Every row · ``vec`` (a (semantic, lexical) pair)."""
        out: FloatArray = np.asarray(self.lexical @ vec[1], dtype=np.float64)
        if self.semantic is not None and vec[0] is not None:
            out = self.semantic @ vec[0] + out
        return out

    def row(self, i: int) -> tuple[FloatArray | None, FloatArray]:
        lex = self.lexical.getrow(i).toarray().ravel()
        return (None if self.semantic is None else self.semantic[i], lex)


def _features(
    sentences: list[_Sentence], members: Sequence[Member], embed: Embedder | None, ignore: set[str],
    stopwords: frozenset[str] = STOPWORDS,
) -> _Features:
    """Rows whose dot products are SEMANTIC_WEIGHT·cos(emb) + (1-SEMANTIC_WEIGHT)·cos(tfidf).

    ``ignore`` (the cluster's people, lowercased) is left out of TF-IDF: names
    are already in the header, and "Ana asked Oscar" should not look central
    just because both names recur.
    """
    docs = [[t for t in tokenize(s.text, stopwords) if t not in ignore] for s in sentences]
    semantic: FloatArray | None = None
    if embed is not None:
        vectors = np.asarray(embed([s.text for s in sentences]), dtype=np.float64)
        if vectors.ndim != 2 or vectors.shape[0] != len(sentences):
            raise ValueError(f"embed() returned shape {vectors.shape} for {len(sentences)} sentences")
        semantic = _normalise_rows(vectors)
    elif members and all(m.embedding is not None for m in members):
        # Each sentence inherits its member's embedding. Only when every member
        # has one: a missing vector would read as "unrelated to everything".
        by_id = {m.id: np.asarray(m.embedding, dtype=np.float64).ravel() for m in members}
        semantic = _normalise_rows(np.stack([by_id[s.member_id] for s in sentences]))
    if semantic is None:
        return _Features(None, _tfidf_matrix(docs))
    return _Features(semantic * math.sqrt(SEMANTIC_WEIGHT), _tfidf_matrix(docs, scale=math.sqrt(1 - SEMANTIC_WEIGHT)))


def _centroid(features: _Features, sentences: list[_Sentence]) -> tuple[FloatArray | None, FloatArray]:
    """Mean over members of the mean of each member's sentences: every member weighs the same."""
    per_member = Counter(s.member_id for s in sentences)
    weights = np.array([1.0 / per_member[s.member_id] for s in sentences])
    m = len(per_member)
    lex: FloatArray = np.asarray(features.lexical.T @ weights, dtype=np.float64) / m
    if features.semantic is None:
        return None, lex
    sem: FloatArray = (weights[:, None] * features.semantic).sum(axis=0) / m
    return sem, lex


_BULLET_COST = len("\n- ")  # each chosen sentence costs its text plus this


def _select(features: _Features, sentences: list[_Sentence], max_sentences: int, room: int) -> list[_Sentence]:
    """MMR choice of up to ``max_sentences`` sentences whose lines fit in ``room`` chars.

    Only sentences that still fit compete at each step (room only shrinks, so
    one that does not fit is dropped for good) and only sentences actually
    chosen count as redundancy. If nothing fits at all, the most central
    sentence is cut to fit, when that leaves a meaningful fragment.
    """
    centroid = _centroid(features, sentences)
    norm = math.sqrt(sum(float(part @ part) for part in centroid if part is not None))
    relevance = features.dot(centroid) / norm if norm > 0 else np.zeros(len(sentences))
    max_sim = np.zeros(len(sentences))
    remaining = list(range(len(sentences)))
    chosen: list[_Sentence] = []

    def best_of(candidates: list[int], scores: FloatArray) -> int:
        # Rounding makes float noise irrelevant, so ties fall to (member id, position). Only candidates
        # within 1e-11 of the top score can round to the top (round() moves a score by < 5e-13): the
        # exact key runs on those few.
        cand = np.asarray(candidates)
        sc = scores[cand]
        near = cand[sc >= sc.max() - 1e-11].tolist()
        return min(near, key=lambda i: (-round(float(scores[i]), 12), sentences[i].member_id, sentences[i].position))

    while remaining and len(chosen) < max_sentences:
        fitting = [i for i in remaining if _BULLET_COST + len(sentences[i].text) <= room]
        if not fitting:
            if not chosen and room - _BULLET_COST >= MIN_TRUNCATED_CHARS:
                top = sentences[best_of(remaining, relevance)]
                chosen.append(_Sentence(top.member_id, top.position, _truncate(top.text, room - _BULLET_COST)))
            break
        scores = relevance if not chosen else MMR_LAMBDA * relevance - (1 - MMR_LAMBDA) * max_sim
        best = best_of(fitting, scores)
        chosen.append(sentences[best])
        room -= _BULLET_COST + len(sentences[best].text)
        # One row of similarities per pick, not an n×n matrix: clusters can be large.
        max_sim = np.maximum(max_sim, features.dot(features.row(best)))
        remaining = [i for i in fitting if i != best and max_sim[i] < REDUNDANT_SIMILARITY]
    return chosen


# --------------------------------------------------------------------------- facets


def _timestamp(dt: datetime) -> float:
    # .timestamp() orders naive (local) and aware datetimes together without
    # raising, which a plain comparison of mixed datetimes would.
    return dt.timestamp()


def _date_span(members: Sequence[Member]) -> tuple[datetime, datetime] | None:
    dated = [m.event_at for m in members if m.event_at is not None]
    if not dated:
        return None
    return min(dated, key=_timestamp), max(dated, key=_timestamp)


def _people(members: Sequence[Member], sentences: list[str], known: Mapping[str, str] | None = None) -> list[str]:
    """Authors (most frequent first), then the store's known people named in the sentences.

    ``known`` maps lower-cased names and aliases to canonical names (authors, vCard contacts,
    aliases: ``MemoryStore.known_people``). A capitalised word alone is never taken for a
    person: "Windows", "Suisse" or "Gardens" recur mid-sentence as often as names do.
    """
    names_of_authors = (m.author.strip() for m in members if m.author)
    authors = Counter(a for a in names_of_authors if a and a.lower() not in ROLE_AUTHORS)
    people = sorted(authors, key=lambda a: (-authors[a], a))
    if not known:
        return people
    seen = {p.lower() for p in people}
    mentions: Counter[str] = Counter()
    multi = [(k, v) for k, v in known.items() if " " in k]
    for sentence in sentences:
        low = sentence.lower()
        words = {w.lower() for w in _LETTERS.findall(sentence) if w[0].isupper()}  # names are written capitalised
        found = {known[w] for w in words if w in known}
        found.update(v for k, v in multi if k in low)
        for name in found:
            if name.lower() not in seen and name.lower() not in ROLE_AUTHORS:
                mentions[name] += 1
    return people + sorted(mentions, key=lambda n: (-mentions[n], n))


# Suffixes folded together for key terms, longest first ("restarts",
# "restarted", "restarting" all count as "restart"). A stem must keep this many
# letters, so "news" or "bus" are left alone.
_SUFFIXES = ("ing", "ed", "es", "s")
_MIN_STEM = 4


@functools.lru_cache(maxsize=65536)
def _stem(token: str) -> str:
    """A deliberately tiny suffix stripper: enough to merge inflections of a term."""
    for suffix in _SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= _MIN_STEM and not token.endswith("ss"):
            return token[: -len(suffix)]
    return token


def _name_tokens(people: list[str]) -> set[str]:
    """Lowercased words of people's names, as :func:`tokenize` would produce them."""
    return {t for p in people for t in tokenize(p)} | {p.lower() for p in people}


def _key_terms(
    members: Sequence[Member], people: list[str], df: dict[str, int] | None, n_docs: int, limit: int,
    stopwords: frozenset[str] = STOPWORDS,
) -> list[str]:
    """Terms spread over many members, weighted by background rarity when ``df`` is given."""
    member_freq: Counter[str] = Counter()
    token_count: Counter[str] = Counter()
    excluded = _name_tokens(people)
    for m in members:
        # Times and quantities ("2am", "10gb") are not what a cluster is about.
        # chat filler ("lol", "haha", "good") and words that name no subject ("bring", "thursday") are no key term
        tokens = [t for t in tokenize(_without_label(m.content, m.author), stopwords)
                  if t not in excluded and t.removesuffix("'s") not in excluded and not t[0].isdigit()
                  and not topic_names.is_filler(t) and t not in topic_names.WEAK
                  and topic_names.fold(t) not in topic_names.WEAK]
        token_count.update(tokens)
        member_freq.update({_stem(t) for t in tokens})
    # a token has one stem: its spellings and their uses, counted once per distinct token
    surface: dict[str, dict[str, int]] = {}
    total: dict[str, int] = {}
    for token, count in token_count.items():
        stem = _stem(token)
        surface.setdefault(stem, {})[token] = count
        total[stem] = total.get(stem, 0) + count
    # The most used spelling of the stem; ties to the shorter, then alphabetical.
    shown = {stem: next(iter(forms)) if len(forms) == 1 else _commonest(forms) for stem, forms in surface.items()}
    n = len(members)

    def score(stem: str) -> float:
        s = member_freq[stem] / n * (1.0 + math.log(total[stem]))
        if df is not None:
            # Background frequencies are keyed by surface word; take the most
            # common spelling's (the commonest form is also the best-attested).
            s *= math.log((n_docs + 1) / (df.get(shown[stem], 0) + 1)) + 1.0
        return s

    # shown[] differs between stems (a token has one stem), so the order is total whatever member_freq's
    ranked = sorted(member_freq, key=lambda stem: (-round(score(stem), 12), shown[stem]))
    return [shown[stem] for stem in ranked[:limit]]


def _commonest(forms: dict[str, int]) -> str:
    return min(forms, key=lambda f: (-forms[f], len(f), f))


# --------------------------------------------------------------------------- summary


def _header(n: int, span: tuple[datetime, datetime] | None, people: list[str], terms: list[str]) -> str:
    parts: list[str] = []
    if span is not None:
        first, last = (d.strftime(DATE_FORMAT) for d in span)
        parts.append(first if first == last else f"{first} – {last}")
    if people:
        parts.append("people: " + ", ".join(people[:MAX_HEADER_PEOPLE]))
    if terms:
        parts.append("key terms: " + ", ".join(terms))
    head = f"Summary of {n} {'memory' if n == 1 else 'memories'}"
    return f"{head} ({'; '.join(parts)})" if parts else head


def _fit_header(
    n: int, span: tuple[datetime, datetime] | None, people: list[str], terms: list[str], max_chars: int
) -> str:
    """The header, shedding key terms, then people, then dates until it fits."""
    terms, shown = list(terms), list(people[:MAX_HEADER_PEOPLE])
    while True:
        header = _header(n, span, shown, terms)
        if len(header) <= max_chars:
            return header
        if terms:
            terms.pop()
        elif shown:
            shown.pop()
        elif span is not None:
            span = None
        else:
            return _truncate(header, max_chars)


def _truncate(text: str, limit: int) -> str:
    """Cut at a word boundary (when one is near) and add an ellipsis; len <= limit."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return text[:limit]
    cut = text[: limit - len(ELLIPSIS)]
    space = cut.rfind(" ")
    if space >= len(cut) * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + ELLIPSIS


def summarize_cluster(
    members: Sequence[Member],
    max_sentences: int = DEFAULT_MAX_SENTENCES,
    max_chars: int = DEFAULT_MAX_CHARS,
    *,
    embed: Embedder | None = None,
    df: dict[str, int] | None = None,
    n_docs: int = 0,
    max_terms: int = DEFAULT_MAX_TERMS,
    known_people: Mapping[str, str] | None = None,
    language: str | None = None,
) -> Summary:
    """Summarise a cluster of memories within ``max_sentences`` and ``max_chars``.

    ``embed`` (texts -> (n, dim) array) embeds sentences for the MMR choice;
    without it the members' stored embeddings are used when every member has
    one, else TF-IDF alone. ``df``/``n_docs`` are background document
    frequencies of the whole store, so key terms are what is *specific* to the
    cluster rather than merely frequent. ``known_people`` (lower-cased name or alias ->
    name) are the people the store knows; besides the authors, only they are named. ``language``: the store's
    (brief26: a small cluster reads its stop words too, :func:`stopwords_for`). ``len(text) <= max_chars`` always
    holds; if no whole sentence fits after the header, the best one is cut
    with an ellipsis. Output sentences are in chronological order.
    """
    if not members:
        raise ValueError("cannot summarise an empty cluster")
    ordered = sorted(members, key=lambda m: m.id)
    split = {m.id: split_sentences(m.content) for m in ordered}
    all_sentences = [s for m in ordered for s in split[m.id]]

    span = _date_span(ordered)
    stop = stopwords_for([m.content for m in ordered], language)
    people = _people(ordered, all_sentences, known_people)
    terms = _key_terms(ordered, people, df, n_docs, max_terms, stop)
    header = _fit_header(len(ordered), span, people, terms, max_chars)

    candidates = _candidates(ordered, split)
    picked: list[_Sentence] = []
    if candidates and max_sentences > 0:
        features = _features(candidates, ordered, embed, _name_tokens(people), stop)
        picked = _select(features, candidates, max_sentences, max_chars - len(header))

    exclude = {w.lower() for p in people for w in _LETTERS.findall(p)} | {k for k in (known_people or {}) if " " not in k}
    rarity = topic_names.idf(topic_names.folded_df(df), n_docs) if df is not None else lambda _k: 1.0
    # (brief30) and the people the members name (a title, "X and I", a turn calling them; in a declining language the
    # forms of the store's people's names), the forms of a word held together: memengine/topic_people.py
    texts = [_without_label(m.content, m.author) for m in ordered]
    lang = language or detect_language([m.content for m in ordered[:50]])
    exclude |= {w.lower() for p in people for w in p.split()}
    name = topic_people.without_people(lambda: topic_names.name(texts, stop, exclude, rarity, inflected=lang in
                                                                topic_people.INFLECTED), texts, exclude, lang)
    when = {m.id: (_timestamp(m.event_at) if m.event_at else math.inf) for m in ordered}
    picked.sort(key=lambda s: (when[s.member_id], s.member_id, s.position))
    text = "\n".join([header] + [f"- {s.text}" for s in picked])
    return Summary(
        text=text,
        sentences=[(s.member_id, s.text) for s in picked],
        key_terms=terms,
        date_span=span,
        people=people,
        member_ids=[m.id for m in ordered],
        name=name,
    )


def _candidates(ordered: list[Member], split: dict[int, list[str]]) -> list[_Sentence]:
    """Sentences worth choosing: long enough, first occurrence of each wording."""
    seen: set[str] = set()
    out: list[_Sentence] = []
    for min_words in (MIN_SENTENCE_WORDS, 1):  # fall back to fragments if nothing else
        for m in ordered:
            for position, text in enumerate(split[m.id]):
                key = _dedupe_key(text)
                if key and key not in seen and _word_count(text) >= min_words:
                    seen.add(key)
                    out.append(_Sentence(m.id, position, text))
        if out:
            break
    return out


# --------------------------------------------------------------------------- external


def cluster_payload(
    members: Sequence[Member], max_sentences: int = DEFAULT_MAX_SENTENCES, max_chars: int = DEFAULT_MAX_CHARS
) -> dict[str, Any]:
    """The JSON document an external summarizer receives on stdin."""
    return {
        "max_sentences": max_sentences,
        "max_chars": max_chars,
        "members": [
            {
                "id": m.id,
                "content": m.content,
                "event_at": m.event_at.isoformat() if m.event_at else None,
                "author": m.author,
            }
            for m in sorted(members, key=lambda m: m.id)
        ],
    }


def _one_line(text: str, limit: int = 200) -> str:
    return _truncate(_WHITESPACE.sub(" ", text).strip(), limit)


def run_external_summarizer(cmd: list[str], cluster_json: dict[str, Any], timeout: float) -> str:
    """Run a user's summarizer: cluster JSON on stdin, summary on stdout (stripped).

    Raises :class:`SummarizerError` (one line) when the command cannot be
    started, exits non-zero (the last stderr line is quoted), runs longer than
    ``timeout`` seconds (the whole process group is killed, so a shell wrapper
    cannot leave an orphan holding the pipe) or prints nothing.
    """
    if not cmd:
        raise SummarizerError("no summarizer command configured")
    payload = json.dumps(cluster_json, ensure_ascii=False, default=str)
    name = cmd[0]
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # own process group: killable as a whole
        )
    except OSError as exc:
        raise SummarizerError(f"summarizer {name!r} could not be started: {exc.strerror or exc}") from None
    try:
        out, err = proc.communicate(payload.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.communicate()
        raise SummarizerError(f"summarizer {name!r} timed out after {timeout:g}s") from None
    stdout = out.decode("utf-8", errors="replace").strip()
    if proc.returncode != 0:
        lines = [ln for ln in err.decode("utf-8", errors="replace").splitlines() if ln.strip()]
        detail = f": {_one_line(lines[-1])}" if lines else ""
        raise SummarizerError(f"summarizer {name!r} exited with status {proc.returncode}{detail}")
    if not stdout:
        raise SummarizerError(f"summarizer {name!r} produced no output")
    return stdout


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    if hasattr(os, "killpg"):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
            return
        except OSError:
            pass
    proc.kill()
