"""(brief39) A topic heading candidate that says what was decided: the exchange's deciding line, cut to its head.

A topic's headings so far are runs its members share (keywords, bigrams, noun phrases): "calvin harris", "school",
"sister's wedding" — a detail of what happened. In a chat, what happened is said by the turn that closes an exchange:
an agreement after a proposal, the last value said ("Cambiado al domingo 15, misma hora", "ok I'll tell them 13
june", "booked Salcombe, 8th to 15th aug"). An imported chat's episodes are its exchanges, their turns in order, one
per line; so the deciding line of an episode is read without any word list: its last line that says two content words
or more and repeats a content word of an earlier line (the value taken up), else its last line of two content words.

That line is cut to its head phrase (:func:`head_phrase`): the author's label dropped, the clause (split at
punctuation) saying most of the words the rest of the topic says, stop words trimmed from its edges, at most
MAX_WORDS words (the window of them saying most). Each of a topic's episodes gives one candidate (the largest first,
at most MAX_EPISODES): memengine/topic_rank.py scores them beside the runs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from memengine.topic_words import _WORD, fold

MAX_WORDS = 6  # a heading a person writes: 2-6 words
MIN_WORDS = 2  # a cut of fewer words is a keyword the runs give already
MAX_EPISODES = 3  # episodes of a topic read for a deciding line (the largest)
_LABEL = re.compile(r"^\s*(?:[^\s:]+\s+){0,3}[^\s:]+:\s+")  # "Kate: ", "Mary Ann Lee: " (brief_heading's)
_CLAUSE = re.compile(r"[,.;!?()\[\]\"“”]+|\s[-–—]\s|:\s")


def _content(words: Sequence[str], stop: frozenset[str], exclude: set[str]) -> list[str]:
    return [fold(w) for w in words if w.lower() not in stop and fold(w) not in stop and w.lower() not in exclude
            and (len(w) >= 3 or w.isdigit())]


def deciding_line(episode: str, stop: frozenset[str], exclude: set[str]) -> str | None:
    """The line of an exchange that closes it (the module docstring), its author's label dropped; None when no
    line says two content words."""
    bodies = [_LABEL.sub("", ln, count=1).strip() for ln in episode.split("\n") if ln.strip()]
    seen: set[str] = set()
    last_full = None
    taken_up = None
    for body in bodies:
        words = _content(_WORD.findall(body), stop, exclude)
        if len(words) >= MIN_WORDS:
            last_full = body
            if seen & set(words):
                taken_up = body
        seen.update(words)
    return taken_up or last_full


def head_phrase(line: str, stop: frozenset[str], exclude: set[str], topic_words: Counter[str]) -> str | None:
    """``line`` cut to at most MAX_WORDS words: the clause and window saying most of ``topic_words`` (folded content
    words the topic's other members say, with how many), edges trimmed of stop words; None if under MIN_WORDS."""
    best: tuple[int, int, str] | None = None
    for at, clause in enumerate(_CLAUSE.split(line)):
        words = _WORD.findall(clause)
        if not words:
            continue
        # the window of MAX_WORDS words saying most of the topic's words (ties: the earliest)
        sc, first = -1, 0
        for i in range(max(1, len(words) - MAX_WORDS + 1)):
            got = sum(min(topic_words.get(f, 0), 3) for f in _content(words[i: i + MAX_WORDS], stop, exclude))
            if got > sc:
                sc, first = got, i
        win = words[first: first + MAX_WORDS]
        while win and (win[0].lower() in stop or fold(win[0]) in stop):
            win = win[1:]
        while win and (win[-1].lower() in stop or fold(win[-1]) in stop):
            win = win[:-1]
        if len(_content(win, stop, exclude)) < MIN_WORDS:
            continue
        text = _span(clause, win)
        if best is None or (sc, -at) > (best[0], -best[1]):
            best = (sc, at, text)
    return best[2] if best else None


def _span(clause: str, words: Sequence[str]) -> str:
    """The words as written in ``clause`` from the first to the last (their punctuation inside kept)."""
    at = 0
    start = end = -1
    for k, w in enumerate(words):
        j = clause.find(w, at)
        if j < 0:
            return " ".join(words)
        if k == 0:
            start = j
        at = j + len(w)
        end = at
    return clause[start:end]


def candidates(texts: Sequence[str], stop: frozenset[str], exclude: set[str]) -> list[str]:
    """The head phrases of the deciding lines of a topic's episodes (members of several lines), largest first."""
    episodes = sorted((t for t in texts if "\n" in t.strip()), key=lambda t: -t.count("\n"))[:MAX_EPISODES]
    if not episodes:
        return []
    said: Counter[str] = Counter()
    for t in texts:
        said.update(set(_content(_WORD.findall(t), stop, exclude)))
    out: list[str] = []
    for ep in episodes:
        line = deciding_line(ep, stop, exclude)
        if line is None:
            continue
        got = head_phrase(line, stop, exclude, said)
        if got and got.lower() not in {o.lower() for o in out}:
            out.append(got)
    return out
