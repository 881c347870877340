"""The shape of a brief line (``2023-05-08 #123 text``) and what a line says (its information).

Split out of memengine/brief.py (round 4): the text helpers every brief section and the
baselines of bench/brief_coverage.py use.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memengine import summarize
from memengine.records import SHARED_SOURCE_PREFIX as SHARED_PREFIX

ITEM_MAX_CHARS = 280  # a shown memory is cut at a sentence boundary below this
MIN_CUT_CHARS = 40  # ...unless that leaves less than this: then at a word boundary, with an ellipsis
WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?…:]\s+|\n\s*)$")


def one_line(text: str) -> str:
    """Whitespace collapsed; "<!--" escaped so no line can pass for a MEMORY.md marker."""
    # str.split() and the regex \s agree on what white space is (str.isspace): the same text, 3x faster
    return " ".join(text.split()).replace("<!--", "&lt;!--")


def trim(text: str, limit: int = ITEM_MAX_CHARS) -> str:
    """``text`` on one line, whole if it fits, else its most informative sentences that fit in ``limit``,
    in their order, an ellipsis where sentences were left out.

    A long answer often opens with "Good question." or "Well done, that is most of the hard part.":
    its first sentences say less than the one that holds the day, the number or the decision. When
    no sentence fits (or the sentences kept would be shorter than MIN_CUT_CHARS), the text is cut
    at a word boundary with an ellipsis.
    """
    flat = one_line(text)
    if len(flat) <= limit:
        return flat
    sentences = [part for s in summarize.split_sentences(text) for part in _clauses(one_line(s), limit - 2)]
    keep = _informative_sentences(sentences, limit - 2)
    out = ""
    for n, i in enumerate(keep):
        gap = i > (keep[n - 1] + 1 if n else 0)
        out += (" … " if n else "… ") * gap + (" " if n and not gap else "") + sentences[i]
    if len(out) >= MIN_CUT_CHARS:
        if keep[-1] < len(sentences) - 1 and not out.endswith(("…", "...")):
            out += " …"
        return out
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    if space >= len(cut) * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + "…"


def _clauses(sentence: str, limit: int) -> list[str]:
    """A sentence longer than ``limit`` cut after its semicolons (a list of steps, of items), else whole."""
    if len(sentence) <= limit or "; " not in sentence:
        return [sentence]
    return [p + (";" if n < sentence.count("; ") else "") for n, p in enumerate(sentence.split("; "))]


LEAD_BONUS = 1.0  # the first sentence sets the scene: it wins a tie of information
# what a sentence says, cheaply (one C-level scan; every pool line of a brief is cut): numbers, words
# capitalised after a space (names, places), long words
_INFO = re.compile(r"\b\w*\d[\w.,:/-]*|(?<=\s)[A-Z][^\W_]+|\b[^\W\d_]{9,}")


def _informative_sentences(sentences: list[str], limit: int) -> list[int]:
    """Indexes (in order) of the sentences kept within ``limit`` characters: the most informative per
    character first (distinct numbers, names inside a sentence, long words)."""
    score = []
    for i, s in enumerate(sentences):
        units = len(set(_INFO.findall(s))) + (LEAD_BONUS if i == 0 else 0.0)
        score.append(units / max(1.0, len(s)) ** 0.5)
    kept: list[int] = []
    used = 0
    for i in sorted(range(len(sentences)), key=lambda i: (-score[i], i)):
        if score[i] <= 0 and kept:
            break
        cost = len(sentences[i]) + 3  # with its separator (" … " at most)
        if used + cost <= limit:
            kept.append(i)
            used += cost
    return sorted(kept)


def day(iso: str | None) -> str:
    """The date part of an ISO time, or "undated"."""
    return (iso or "")[:10] or "undated"


# "[1:56 pm on 8 May, 2023] ", "[12/03/2023, 14:02] ": a chat line's own timestamp, which the
# line's date already says (a bracket of at most 40 characters holding a year or a clock time)
_STAMP = re.compile(r"^\s*\[(?=[^\]]{0,40}\])(?=[^\]]*(?:\b\d{4}\b|\b\d{1,2}[:.]\d{2}\b))[^\]]*\]\s*")


def shared(source: str | None) -> dict[str, str]:
    """``{"shared_from": NAME}`` for a partner's memory, else nothing."""
    return {"shared_from": source[len(SHARED_PREFIX):]} if source and source.startswith(SHARED_PREFIX) else {}


def memory_line(mid: int, content: str, when: str | None, limit: int = ITEM_MAX_CHARS,
                source: str | None = None) -> str:
    """``2023-05-08 #123 text``: the shape of every memory line, in brief and baselines alike.

    A leading chat timestamp in brackets is dropped: the line starts with the date already.
    A partner's memory (``source`` ``shared:NAME``) says so: ``#123 (shared from NAME)``.
    """
    mark = f" (shared from {source[len(SHARED_PREFIX):]})" if source and source.startswith(SHARED_PREFIX) else ""
    return f"{day(when)} #{mid}{mark} {trim(_STAMP.sub('', content, count=1), limit)}"


def informative_words(text: str, rare: Callable[[str], bool]) -> tuple[int, int]:
    """(informative, total) words: numbers, capitalised words inside a sentence, rare words.

    Numbers and dates carry the answers to "when / how many"; a capitalised word after the
    start of a sentence is a name, a place or a title; a word rare in the pool is specific.
    """
    seen: set[str] = set()
    words = 0
    for m in WORD.finditer(text):
        w = m.group()
        words += 1
        low = w.lower()
        if low in seen:
            continue
        if not w.isalpha() and any(ch.isdigit() for ch in w):  # (a letter is never a digit)
            seen.add(low)
        elif w[0].isupper() and len(w) > 1 and low not in summarize.STOPWORDS \
                and not _SENTENCE_START.search(text[max(0, m.start() - 3): m.start()]) and m.start() > 0:
            seen.add(low)
        elif len(low) >= 4 and low not in summarize.STOPWORDS and rare(low):
            seen.add(low)
    return len(seen), words


def information(texts: list[str], rare: Callable[[str], bool]) -> list[int]:
    """``informative_words(text, rare)[0]`` of each text, the same counts, ~2x faster over a pool.

    What a word is (number / capitalisable name / rare word) does not depend on where it stands,
    so it is judged once per spelling for the whole pool; only a capitalised word's position (not
    at a sentence start) is read per occurrence.
    """
    stop = summarize.STOPWORDS
    kinds: dict[str, tuple[str, int]] = {}  # spelling -> (lower case, 1 number / 2 name-like / 3 rare / 4 both / 0)
    out: list[int] = []
    for text in texts:
        seen: set[str] = set()
        for m in WORD.finditer(text):
            w = m.group()
            got = kinds.get(w)
            if got is None:
                low = w.lower()
                if not w.isalpha() and any(ch.isdigit() for ch in w):
                    kind = 1
                else:
                    cap = w[0].isupper() and len(w) > 1 and low not in stop
                    rare_ok = len(low) >= 4 and low not in stop and rare(low)
                    kind = 4 if cap and rare_ok else 2 if cap else 3 if rare_ok else 0
                got = kinds[w] = (low, kind)
            low, kind = got
            if not kind or low in seen:
                continue
            if kind in (1, 3):
                seen.add(low)
            elif m.start() > 0 and not _SENTENCE_START.search(text[max(0, m.start() - 3): m.start()]):
                seen.add(low)  # a name-like word inside a sentence
            elif kind == 4:
                seen.add(low)  # at a sentence start, but rare
        out.append(len(seen))
    return out
