"""Text rules shared by writes and recall: stopwords, query terms, FTS5 quoting and tokens,
content hashes, tags, and a turn's bare words (without its ``[date]`` stamp and ``Author:``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from memengine import recache
from memengine.digests import sha256_hex  # (not hashlib, which loads OpenSSL: ~3 ms of a cold store)

STOPWORDS = frozenset(
    """a about above after again against all am an and any are aren't as at be because been before being
    below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
    during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
    here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself
    let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out
    over own same shan't she she'd she'll she's should shouldn't so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this those through
    to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when when's
    where where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're
    you've your yours yourself yourselves did does do done also just like get got s t""".split()
)

# The words of chat and everyday talk that name no topic ("yeah", "thanks", "went", "today"): with
# STOPWORDS, what the brief (summarize.STOPWORDS) and recall's subject stems leave out. Here, not in
# summarize, so that recall reads them without importing the brief's modules (a cold CLI's time).
TALK_STOPWORDS: frozenset[str] = frozenset(
    """    ago almost along already although always among another anybody anyone anything anyway anywhere
    around ask asked away back became become began behind best better came either else enough etc even
    ever every everyone everything find first four gets getting give given go goes going gone gotten
    however instead it'd it'll keep kept know last later least less let likely made make makes making
    many may maybe might mine mostly much must need needs never new next nobody none nothing now often
    oh ok okay one onto others otherwise per perhaps please put quite rather really right said say says
    see seem seemed seems seen several shall since somebody someone something sometimes soon still sure
    take taken thank thanks therefore thing things think though three thus today told tomorrow took
    toward towards two upon us use used using via want wanted way well went whatever whether whose will
    within without yeah yes yesterday yet

    """.split()
)



def content_hash(text: str) -> str:
    """sha256 of whitespace-normalised text (what exact dedup compares)."""
    return sha256_hex(" ".join(text.split()).encode("utf-8"))


def normalise_tags(tags: Iterable[str] | str | None) -> str:
    """Tags as stored: lower case, unique, space separated, in first-seen order."""
    if tags is None:
        return ""
    if isinstance(tags, str):
        tags = re.split(r"[,\s]+", tags)
    seen: list[str] = []
    for t in tags:
        t = t.strip().lstrip("#").lower()
        if t and t not in seen:
            seen.append(t)
    return " ".join(seen)


TOKEN_RE = re.compile(r"[\w][\w'’]*", re.UNICODE)


def query_terms(text: str) -> list[str]:
    """Content words of a query: lower-cased word tokens minus English stopwords."""
    words = [w.replace("’", "'").lower() for w in TOKEN_RE.findall(text)]
    words = [w.split("'")[0] if w.endswith(("'s", "'ll", "'re", "'ve", "'d")) else w for w in words]
    kept = [w for w in words if w not in STOPWORDS and w]
    return list(dict.fromkeys(kept))  # first occurrence of each, in order


def quote_fts(term: str) -> str:
    """One FTS5 string token: wrapped in double quotes, inner quotes doubled."""
    return '"' + term.replace('"', '""') + '"'


def fts_query(text: str) -> str | None:
    """Escape free user text into an FTS5 OR-query of its content words (None if none)."""
    terms = query_terms(text)
    if not terms:
        terms = [w.lower() for w in TOKEN_RE.findall(text)]
    if not terms:
        return None
    return " OR ".join(quote_fts(t) for t in terms)


FTS_COLUMNS = ("content", "tags", "date_terms", "context", "context_far")  # memories_fts, in order (schema.sql)
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"  # memories_fts's tokenizer (schema.sql)


# fts_tokens' answers, per process: FTS_TOKENIZER is fixed, so a word's tokens are too (users33: a warm recall at
# 100k stemmed ~10 words ~3 times through the scratch table, ~100 statements of FTS5's own each time)
_TOKENS: dict[str, tuple[str, ...]] = {}
TOKENS_KEPT = 50_000  # words kept at most (then the cache starts again)


def fts_tokens(conn: Any, words: list[str]) -> list[tuple[str, ...]]:
    """Each word as ``memories_fts`` indexes it (split and stemmed by FTS5 itself, through a
    scratch table with the same tokenizer): "running" -> ("run",), "e-mail" -> ("e", "mail").
    Words seen before in this process are answered from memory."""
    todo = [w for w in dict.fromkeys(words) if w not in _TOKENS]
    if todo:
        if len(_TOKENS) + len(todo) > TOKENS_KEPT:
            _TOKENS.clear()
        _TOKENS.update(zip(todo, _fts_tokens(conn, todo)))
    got = [_TOKENS.get(w) for w in words]
    if any(g is None for g in got):  # (a cache cleared meanwhile by another thread: ask FTS5 for them all)
        return _fts_tokens(conn, words)
    return got  # type: ignore[return-value]


def _fts_tokens(conn: Any, words: list[str]) -> list[tuple[str, ...]]:
    """:func:`fts_tokens` through FTS5's scratch table."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_stemmer USING fts5(t, tokenize='{FTS_TOKENIZER}')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_stems USING fts5vocab(temp, mem_stemmer, instance)")
    conn.executemany("INSERT INTO temp.mem_stemmer(rowid, t) VALUES (?, ?)", list(enumerate(words)))
    found: dict[int, list[tuple[int, str]]] = {}
    for term, doc, offset in conn.execute("SELECT term, doc, offset FROM temp.mem_stems"):
        found.setdefault(int(doc), []).append((int(offset), term))
    conn.execute("DELETE FROM temp.mem_stemmer")
    return [tuple(t for _, t in sorted(found.get(i, []))) for i in range(len(words))]


LEADING_META_RE = re.compile(r"^\s*\[[^\]]{0,60}\]\s*")


_FIRST_WORDS: dict[int, re.Pattern[str]] = {}


def count_words(text: str, cap: int) -> int:
    """min(cap, words in ``text``), words as ``TOKEN_RE`` finds them.

    A text of ``cap`` words or more is told by one anchored match of its first ``cap`` words
    (each word whole, as ``TOKEN_RE`` takes it: a lookahead captures it and a back-reference
    consumes it, so no word is ever split to make up the count), with no list built; a shorter
    one is counted by ``findall`` (a C loop: ~5x faster than iterating matches in Python).
    Recall counts every scored candidate's words: 3.6 instead of 5.5 us on LoCoMo turns.
    """
    if cap <= 0:
        return min(len(TOKEN_RE.findall(text[: cap * 32])), cap)  # (as before: no caller asks this)
    first = _FIRST_WORDS.get(cap)
    if first is None:
        first = _FIRST_WORDS[cap] = recache.fixed(r"(?:\W*(?=(\w[\w'’]*))\1){" + str(cap) + "}", re.UNICODE)
    return cap if first.match(text) else len(TOKEN_RE.findall(text))


def without_author(text: str, author: str | None) -> str:
    """``text`` without a leading ``Author:`` label (and the spaces after it), if it has one."""
    if author and text.startswith(author + ":"):
        return text[len(author) + 1:].lstrip()
    return text


def bare_text(content: str, author: str | None) -> str:
    """A memory's words without a leading ``[timestamp]`` and ``Author:`` prefix (for context)."""
    return without_author(LEADING_META_RE.sub("", content), author).strip()

