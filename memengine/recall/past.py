"""A question about the PAST of a fact that changed: the older version first (round 38, recall39).

An agent asks "what did we use before pnpm?", "where did Ana live before Lisbon?", "which Node version were we on in
March?", "has she always been vegetarian?", "Welches Hotel war ursprünglich gebucht?", "¿dónde vivía antes?",
"où travaillait-elle avant ?". Default recall answers with the current note: the store retired the older one
(``supersedes``, out of default recall) or links it ``may_update`` and ranks the newer above it. Held-out 36: the
older note first 1 question in 47, in the first five 22 (--history: 43, but still under the newer one).

:func:`asks_past` reads the question's intent toward the past (English, German, Spanish, French; a word that also
says something else -- "before", "antes", "avant", a month -- counts only with a verb in a past tense beside it,
so "what do I run before deploying?" stays a current question). For such a question recall admits the retired
versions into its candidates (as ``--history`` does) and :func:`older_first` then puts, for each result a newer
version of which it holds, the version it replaced right ABOVE it (one step back along ``supersedes`` and the
``may_update`` links; for "in <month>", back to the version said by then). Loud, not silent: every older version
returned says what replaced it (``superseded_by`` for a retired one, ``possibly_outdated_by`` for a probable one).
"""

from __future__ import annotations

import re
from typing import Any

from memengine.db import select_in
from memengine.recall.chain import walk_back
from memengine.records import MEMORY_COLUMNS, Memory
from memengine.versions import MAY_UPDATE_EDGE, links
from memengine.versions_living import living  # (users33: a forgotten version between is looked through)

MONTHS = {name: i + 1 for i, names in enumerate((
    "january januar enero janvier", "february februar febrero février", "march märz marzo mars",
    "april abril avril", "may mai mayo", "june juni junio juin", "july juli julio juillet",
    "august agosto août", "september septiembre septembre", "october oktober octubre octobre",
    "november noviembre novembre", "december dezember diciembre décembre")) for name in names.split()}

# words that ask for the past on their own, in any tense of the question
_ALONE = re.compile(
    r"\b(used to|originally|original|at first|in the first place|previous(?:ly)?|former(?:ly)?|back then|"
    r"earlier|always been|"  # en
    r"früher|ursprünglich|damals|vorher|zuerst|bisher|vormals|"  # de
    r"antiguo|antigua|antiguos|antiguas|originalmente|al principio|anterior|anteriores|solía|solíamos|"  # es
    r"autrefois|au départ|au début|à l'origine|d'origine|initialement|précédent|précédente|auparavant)\b",
    re.IGNORECASE)
# "old" as the former one, not an age ("how old", "years old")
_OLD = re.compile(r"\b(?<!how )old(?! is| are)\b(?<!years old)|\balt(?:e|en|er|es|em)\b|\bancien(?:ne)?s?\b",
                  re.IGNORECASE)
# words that ask for the past only beside a verb in a past tense
_WITH_TENSE = re.compile(r"\b(before|until|first|use to|bevor|antes|hasta|avant|jusqu'à)\b", re.IGNORECASE)
_PAST_VERB = re.compile(
    r"\b(did|was|were|had|used|(?<!is )(?<!are )(?<!be )(?<!'s )\w{3,}ed|"  # en ("is planned": no past)
    r"war|waren|hatte|hatten|wurde|wurden|\w*ge\w{2,}(?:t|en)|"  # de (a participle: "umgestiegen", "gebucht")
    r"\w+aba|\w+ábamos|\w+abas|\w+ía|\w+íamos|fue|fueron|tenía|\w+ó|"  # es
    r"était|étaient|avait|avaient|\w+ait|\w+aient|\w+ions|a été|"  # fr
    r"(?:ai|as|a|avons|avez|ont)(?:-nous|-vous|-ils|-elles|-t-il|-t-elle)?\s+\w+é(?:e|s|es)?)(?!\w)",
    re.IGNORECASE)
_MONTH = re.compile(r"\b(?:in|im|en|el|au mois de)\s+(" + "|".join(MONTHS) + r")\b", re.IGNORECASE)


def asks_past(query: str) -> tuple[bool, int | None]:
    """Whether ``query`` asks for an older value of something, and the month it names ("in March"), if any."""
    month = _MONTH.search(query)
    past_tense = _PAST_VERB.search(query) is not None
    asked = bool(_ALONE.search(query) or _OLD.search(query) or (past_tense and (_WITH_TENSE.search(query) or month)))
    return asked, (MONTHS[month.group(1).lower()] if asked and month else None)


# "when did X change": the note saying a change is often itself retired since (the €59 price, replaced by €65)
_WHEN = re.compile(r"\b(when|since when|wann|seit wann|cuándo|desde cuándo|quand|depuis quand)\b", re.IGNORECASE)


def asks_when(query: str) -> bool:
    """Whether ``query`` asks when something happened in the past ("when did we switch to Fly.io?", "Seit wann …",
    "¿cuándo se mudó …?"): the retired versions are admitted too, the note saying the change may be one."""
    return _WHEN.search(query) is not None and (_PAST_VERB.search(query) is not None or "seit" in query.lower())


def _older_links(conn: Any, ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    """newer id -> [(older id, 'supersedes' | 'may_update')], the links from the results to the facts they replaced."""
    out: dict[int, list[tuple[int, str]]] = {}
    for src, dst, kind in select_in(
            conn, "SELECT source_id, target_id, CASE WHEN edge_type = 'supersedes' THEN 'supersedes' "
            f"ELSE 'may_update' END FROM associations WHERE source_id IN ({{ids}}) AND (edge_type = 'supersedes' "
            f"OR ({MAY_UPDATE_EDGE})) ORDER BY source_id, target_id", ids):
        out.setdefault(int(src), []).append((int(dst), str(kind)))
    return out


def _said(m: Memory) -> str:
    """The day a version was said (its event date, else when it became valid, else when stored)."""
    return m.event_at or m.valid_from or m.created_at


def older_first(conn: Any, results: list[Memory], month: int | None = None, query: str | None = None) -> list[Memory]:
    """``results`` with, above each result holding a newer version, the version it replaced (fetched when not among
    them), each older version marked with what replaced it. ``month``: the question names one ("in March"): step
    back further while the version is dated after that month (the version then current). The list grows by at most
    the versions brought in; one indexed read when no result is linked."""
    if not results:
        return results
    by_id = {m.id: m for m in results}
    older = _older_links(conn, [m.id for m in results])
    for m in results:  # a chat turn recall itself marked as changed by a later turn among the results (updates.py)
        for n in m.possibly_outdated_by or []:
            if n in by_id and (m.id, "may_update") not in older.get(n, []):
                older.setdefault(n, []).append((m.id, "may_update"))
    if not older:
        return told(conn, walk_back(conn, results, query) if query is not None and month is None else results)
    # one more step back for a month named (a chain 18 -> 20 -> 22 asked "in March")
    if month is not None:
        more = _older_links(conn, sorted({o for olds in older.values() for o, _ in olds} - set(older)))
        older.update(more)
    wanted = sorted({o for olds in older.values() for o, _ in olds} - set(by_id))
    fetched = {int(r[0]): Memory.from_row(r) for r in select_in(
        conn, f"SELECT {MEMORY_COLUMNS} FROM memories WHERE id IN ({{ids}}) AND status = 'active'", wanted)}
    pool = {**fetched, **by_id}
    out = list(results)
    moved: set[int] = set()
    for newer in results:
        olds = [(o, kind) for o, kind in older.get(newer.id, []) if o in pool and o != newer.id]
        if not olds or newer.id in moved:
            continue
        old_id, kind = max(olds, key=lambda p: (_said(pool[p[0]]), p[0]))  # the version right before it
        if month is not None:
            for _ in range(3):  # back while that version was said after the month asked
                m = pool[old_id]
                said = _said(m)[5:7]
                if not said.isdigit() or int(said) <= month:
                    break
                back = [(o, k) for o, k in older.get(old_id, []) if o in pool and o != old_id]
                if not back:
                    break
                old_id, kind = max(back, key=lambda p: (_said(pool[p[0]]), p[0]))
        old = pool[old_id]
        if kind == "supersedes":
            old.superseded_by = sorted({*(old.superseded_by or []), newer.id})
        else:
            old.possibly_outdated, old.possibly_outdated_by = True, sorted({*(old.possibly_outdated_by or []),
                                                                           newer.id})
        if old in out and out.index(old) < out.index(newer):
            continue
        if old in out:
            out.remove(old)
        if old.score is None or (newer.score is not None and old.score < newer.score):
            old.score = newer.score  # (ranked above it: its score says so)
        out.insert(out.index(newer), old)
        moved.add(old.id)
    if query is not None and month is None:  # further back along the chain: "before OpenTable", "originally"
        out = walk_back(conn, out, query)
    return told(conn, out)


def told(conn: Any, results: list[Memory]) -> list[Memory]:
    """Every retired version among ``results`` says what replaced it (``superseded_by``), brought in by the question
    with no newer version beside it too: an agent reading an old value must be told it is old."""
    for m in results:
        if m.valid_to is not None and not m.superseded_by:
            m.superseded_by = living(conn, links(conn, m.id)["superseded_by"], "superseded_by") or None
    return results
