"""A question's words about TIME and STATE read as its intent, not as words to match (round 41, recall41).

An agent asks "who sponsors the show NOW?", "what's the set menu price these days?", "is Tomasz still head chef?",
"Wer leitet den Chor im Moment?", "¿Qué compañía de internet tenemos ahora?", "Qui est le contact maintenant ?".
The words "now", "these days", "still", "im Moment", "ahora", "maintenant" say that the CURRENT value is wanted;
they name nothing. The keyword side read them as content words, and in a small store of notes they match the notes
that happen to say them ("episodes are NOW published on Tuesdays", "Marta now works from home …", "Rook Lane Farm
STILL does our veg …"): held-out 37 (an agent's notes, 4 stores) put such a note first for a question about
something else ("what car does Jordi drive now?" → "Marta now works from home …").

:func:`state_terms` returns the query terms (as :func:`memengine.text.query_terms` gives them) that are such words
in the question: single words that say it on their own ("now", "currently", "nowadays", "anymore", "latest"; jetzt,
derzeit, inzwischen; ahora, actualmente, todavía; maintenant, actuellement, désormais; agora, atualmente; adesso,
attualmente; nu, momenteel, tegenwoordig; teraz, obecnie, nadal …) and the words of a phrase that says it only as a
phrase ("these days", "at the moment", "this week", "right now"; "im Moment", "nach wie vor"; "estos días", "hoy en
día", "en este momento"; "en ce moment", "ces jours-ci", "de nos jours"; "hoje em dia"; "op dit moment"; "for
tiden") — "moment", "days", "week" alone are content ("the week of the offsite"). The recall pipeline leaves them out
of the keyword side's words (never all of them: a question made only of such words keeps its words).
The languages are those recall reads elsewhere (English, German, Spanish, French, Portuguese, Italian, Dutch, the
Scandinavian languages, Polish), written from the languages, not from a sample.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from memengine.text import query_terms, quote_fts

# words that say "the current state" on their own, whatever surrounds them
ALONE_WORDS = frozenset("""
    now currently presently nowadays anymore latest newest current still
    jetzt nun aktuell aktuelle aktuellen aktuellste aktuellsten derzeit zurzeit momentan inzwischen mittlerweile
    neuerdings heutzutage noch neueste neuesten
    ahora actualmente ahorita todavía todavia aún actual actuales
    maintenant actuellement désormais dorénavant encore toujours actuel actuelle
    agora atualmente actualmente ainda atual
    adesso attualmente ancora ormai oggigiorno
    nu momenteel tegenwoordig inmiddels nog huidige
    fortsatt fortfarande stadig nuvarande nåværende nuværende
    teraz obecnie aktualnie nadal wciąż obecny obecna
""".split())

# phrases that say it only as phrases: their words are read as intent only where the phrase is said
_PHRASES = re.compile(
    r"\b(these days|this week|this month|at the moment|at present|right now|as of now|for now|as of today|"
    r"most recent|to this day|"  # en
    r"im moment|zur zeit|nach wie vor|dieser tage|diese woche|bis heute|"  # de
    r"estos días|estos dias|hoy en día|hoy en dia|hoy día|a día de hoy|en este momento|de momento|por ahora|"
    r"esta semana|más reciente|mas reciente|"  # es
    r"en ce moment|ces jours-ci|ces temps-ci|de nos jours|à présent|pour l'instant|cette semaine|"
    r"plus récent|plus récente|"  # fr
    r"hoje em dia|neste momento|no momento|esta semana|por enquanto|"  # pt
    r"al momento|in questo momento|questa settimana|"  # it
    r"op dit moment|deze week|"  # nl
    r"for tiden|for øjeblikket|för närvarande|i dag|"  # da/no/sv
    r"w tej chwili|w tym tygodniu)\b",  # pl
    re.IGNORECASE)
_WORD = re.compile(r"[\w][\w'’]*", re.UNICODE)


def state_terms(query: str, terms: list[str]) -> set[str]:
    """The words of ``terms`` (the question's content words, lower case) that say only "now / still / latest" in
    ``query``: intent, not a subject to match."""
    said = {t for t in terms if t in ALONE_WORDS}
    for m in _PHRASES.finditer(query):
        said.update(w.lower() for w in _WORD.findall(m.group(0)))
    return said & set(terms)


def state_gated(conn: Any, query: str, said: set[str], kw: dict[int, float],
                holding: Callable[[list[str], list[int]], set[int] | None] | None = None) -> dict[int, float]:
    """``kw`` (id -> bm25 of the question's words) less the notes that hold none of the question's OTHER words:
    a note matching only "now" / "still" / "jetzt" is no keyword match (one FTS5 read over ``kw``'s ids). The
    question's other words are all its content words, names too ("Femke … for now" still matches "how does Femke get
    to the studio now?"); none left: ``kw`` as it is. (An FTS5 read of the question's other words over the span
    of ``kw``'s ids, only for a question holding a time/state word.) ``holding(words, ids)``: the ids holding any
    of the words, or None (the warm in-process keyword index, keyword_index.KeywordIndex.holding: the same rows
    as the FTS5 read, ~25 ms less at 100k)."""
    other = [t for t in query_terms(query) if t not in said]
    if not other or not kw:
        return kw
    held = holding(other, list(kw)) if holding is not None else None
    if held is not None:
        return {i: s for i, s in kw.items() if i in held}
    match = " OR ".join(quote_fts(t) for t in other)
    # (one MATCH over the ids' rowid span, then kept in Python: "rowid IN (…) AND MATCH" runs FTS5 once per id,
    # 2.4 ms against 0.11 for 30 candidates of a 28-note store)
    held = {int(r[0]) for r in conn.execute(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ?", (match, min(kw), max(kw)))}
    return {i: s for i, s in kw.items() if i in held}
