"""History more than one step back: a question about the past answered along the whole chain of versions (round 41).

Round 38 (past.py) puts, above a result holding a newer version, the version it replaced: ONE step back. A fact
that changed twice ("ResDiary → OpenTable → SevenRooms", "R 4.2 → 4.3 on kolmar → 4.3 on a cluster", a meeting
Mondays → Wednesdays → Thursdays) is asked about further back: "which booking system did we use before OpenTable?",
"what was the first journal we sent paper 1 to?", "An welchem Tag war die Probe ursprünglich?". One step back from
the current version answers neither (held-out 37: the wanted version first 2 of 18 such questions, under its two
newer ones).

:func:`which_back` reads which version the question points at: the FIRST ("originally", "at first", "the first …",
ursprünglich, anfangs, zuerst; al principio, originalmente, primer; au début, à l'origine, initialement, premier), or
the one BEFORE a value it names ("before OpenTable", "bevor sie in Google Drive waren", "antes de Digi", "avant
Zotero": the words after "before"). :func:`walk_back` then reads the chain the first linked result belongs to — every
version joined to it by ``supersedes`` and ``may_update`` links, and by the marks recall gave the results — in the
order they were said, and puts the version asked for first among them: the oldest, or the one right before the
earliest version saying a word of the value named (a word the oldest version also says marks no change). Nothing moves
when the question points at neither, names no word a later version says, or no result is linked: round 38's order
stands. Only the chain of the first linked result moves (another subject's versions stay where they are).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from memengine.db import select_in
from memengine.recall.state_words import ALONE_WORDS
from memengine.records import MEMORY_COLUMNS, Memory
from memengine.text import STOPWORDS
from memengine.versions import MAY_UPDATE_EDGE

# the first version: words that say it (the question already reads as one about the past: past.asks_past)
_FIRST = re.compile(
    r"\b(originally|original|at first|in the first place|to begin with|to start with|first|"  # en
    r"ursprünglich|ursprüngliche[nmrs]?|anfangs|am anfang|zuerst|zu beginn|erste[nmrs]?|"  # de
    r"originalmente|al principio|al comienzo|en un principio|primer|primera|primero|"  # es
    r"au début|au départ|à l'origine|d'origine|initialement|premier|première)\b",
    re.IGNORECASE)
# the version before a value named: the words after these
_BEFORE = re.compile(r"\b(?:before|prior to|bevor|antes de(?:l)?|antes que|avant(?: de| le| la| les| l')?)\s+(.+)",
                     re.IGNORECASE)
# function words of the languages the question may be in, beside STOPWORDS (English): never a value's word
_FUNCTION = frozenset("""
    sie er es wir ihr die der das den dem des ein eine einen einem einer im in am an auf zu zum zur und oder war waren
    ist sind wurde wurden hat hatte hatten haben mit von bei nach
    el la los las un una unos unas lo le les del al que y o en con por para se era eran fue fueron estaba
    tenía teníamos
    le la les un une des du de au aux et ou en à avec pour par était étaient a ont avait
    wer wie was wo wann welche welcher welches welchen viel viele quién quien qué cuál cual cuánto cuánta cuántos
    cuántas dónde donde cuándo qui quoi quel quelle quels quelles où quand combien
""".split())
_TOKEN = re.compile(r"\w+(?:[.,]\w+)*", re.UNICODE)
MAX_STEPS = 4  # link reads back and forth from the first linked result (a chain of up to ~5 versions)


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def _words(text: str) -> set[str]:
    return set(_TOKEN.findall(_fold(text)))


def which_back(query: str) -> tuple[str, set[str]] | None:
    """("first", ∅) for a question asking the first version, ("before", the value's words) for one asking the version
    before a value it names; None for neither. The question is one about the past (past.asks_past)."""
    before = _BEFORE.search(query)
    if before:
        words = {w for w in _words(re.split(r"[?!;]", before.group(1))[0])
                 if w not in STOPWORDS and w not in _FUNCTION and (len(w) >= 3 or any(c.isdigit() for c in w))}
        if words:
            return "before", words
    if _FIRST.search(query):
        return "first", set()
    return None


def asks_about(question: str) -> Callable[[str], bool]:
    """Whether a text says a word the question asks about: one of its words (folded, an ending apart) that is no
    function word, question word or time/state word ("now", "jetzt": state_words.py) of the languages read."""
    asks = {w for w in _words(question) if w not in STOPWORDS and w not in _FUNCTION and w not in ALONE_WORDS
            and len(w) >= 3}

    def says(text: str) -> bool:
        held = _words(text)
        return any(_same(w, held) for w in asks)
    return says


def _said(m: Memory) -> str:
    return m.event_at or m.valid_from or m.created_at


def _same(word: str, held: set[str]) -> bool:
    """The value's word said by a version: the same word, or one of 5+ letters sharing all but its ending."""
    if word in held:
        return True
    if len(word) < 5 or word.isdigit():
        return False
    stem = word[:max(5, len(word) - 2)]
    return any(h.startswith(stem) and abs(len(h) - len(word)) <= 3 for h in held)


def _links(conn: Any, results: list[Memory], start: Memory) -> tuple[dict[int, dict[int, bool]], dict[int, set[int]]]:
    """(newer -> {older: by supersedes}, older -> {newer}) around ``start``: the store's links read out to
    MAX_STEPS steps either way, and the marks recall gave the results (a may_update)."""
    older: dict[int, dict[int, bool]] = {}
    newer: dict[int, set[int]] = {}

    def add(new: int, old: int, retired: bool) -> None:
        if new != old:
            older.setdefault(new, {})[old] = older.get(new, {}).get(old, False) or retired
            newer.setdefault(old, set()).add(new)
    for m in results:
        for n in m.possibly_outdated_by or []:
            add(n, m.id, False)
        for n in m.superseded_by or []:
            add(n, m.id, True)
    seen = {start.id}
    frontier = [start.id]
    for _ in range(MAX_STEPS):
        found: set[int] = set()
        for side in ("source_id", "target_id"):  # (newer -> older: both ways along the chain)
            for a, b, kind in select_in(conn, f"SELECT source_id, target_id, edge_type FROM associations WHERE {side} "
                                        f"IN ({{ids}}) AND (edge_type = 'supersedes' OR ({MAY_UPDATE_EDGE}))", frontier):
                add(int(a), int(b), kind == "supersedes")
                found |= {int(a), int(b)}
        for mid in frontier:
            found |= set(older.get(mid, {})) | newer.get(mid, set())
        frontier = sorted(found - seen)
        if not frontier:
            break
        seen |= found
    return older, newer


def walk_back(conn: Any, results: list[Memory], query: str) -> list[Memory]:
    """``results`` with the version the question asks for (:func:`which_back`) first among its chain's versions,
    fetched when not among them and marked with what replaced it; ``results`` unchanged otherwise."""
    asked = which_back(query)
    if asked is None or not results:
        return results
    says = asks_about(query)

    def about(m: Memory) -> bool:  # a version of what the question asks about says one of its words
        return says(m.content)
    head = next((m for m in results[:5] if (m.superseded_by or m.possibly_outdated_by or m.possibly_outdated)
                 and about(m)), None)
    if head is None:
        return results
    older, newer = _links(conn, results, head)
    ids = sorted({head.id, *older, *newer})
    by_id = {m.id: m for m in results}
    fetched = {int(r[0]): Memory.from_row(r) for r in select_in(
        conn, f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({{ids}}) AND status = 'active'",
        [i for i in ids if i not in by_id])}
    pool = {**fetched, **by_id}
    # one path of versions, not every note a link touches (a wrong link joins two subjects): forward to the latest
    # version said, then back, each step to the version the store retired for it, else the latest said before it
    last, path = head.id, [head.id]
    for _ in range(MAX_STEPS):
        ahead = [n for n in newer.get(last, ()) if n in pool and n not in path]
        if not ahead:
            break
        last = max(ahead, key=lambda i: (_said(pool[i]), i))
        path.append(last)
    chain_ids = [last]
    for _ in range(2 * MAX_STEPS):
        back = [(retired, about(pool[o]), _said(pool[o]), o) for o, retired in older.get(chain_ids[-1], {}).items()
                if o in pool and o not in chain_ids]
        if not back:
            break
        chain_ids.append(max(back)[3])
    if len(chain_ids) < 2:
        return results
    chain = [pool[i] for i in reversed(chain_ids)]
    ids = [*chain_ids, *path]  # (the walk's start and the versions it went through stand for the chain too)
    kind, named = asked
    target: Memory | None = None
    if kind == "first":
        target = chain[0]
    else:
        first = _words(chain[0].content)
        value = {w for w in named if not _same(w, first)}
        at = next((i for i, m in enumerate(chain[1:], 1) if any(_same(w, _words(m.content)) for w in value)), None)
        target = chain[at - 1] if at else None
    if target is None:
        return results
    shown = [i for i, m in enumerate(results) if m.id in ids]
    top = min(shown) if shown else 0
    if results[top].id == target.id:
        return results
    later = chain[chain.index(target) + 1]
    if target.valid_to is not None:
        target.superseded_by = target.superseded_by or [later.id]
    elif not target.superseded_by:
        target.possibly_outdated, target.possibly_outdated_by = True, sorted(
            {*(target.possibly_outdated_by or []), later.id})
    out = [m for m in results if m.id != target.id]
    above = results[top].score
    if target.score is None or (above is not None and target.score < above):
        target.score = above  # (ranked above it: its score says so)
    out.insert(top, target)
    return out
