"""A standing rule newly restricted: "The team now deploys only on Tuesdays and Thursdays" after "The team
deploys to production every weekday" (facts30).

A restriction names the older's rule again (the same doer, the same activity) with "only" and a day or a
frequency of its own: "Lucía ya solo hace turnos de noche una semana al mes" / "... dos semanas al mes",
"Marco adesso va in ufficio solo il martedì" / "... tre giorni a settimana", "L'équipe ne fait plus la démo
qu'un vendredi sur deux" / "... tous les vendredis". The frame rules read a negation ("ne ... plus") or no new
value, and the learned decision at best flagged them (held-out 9: 4 of 5 missed or flagged). :func:`restricted`
reads: the newer says "only" (seven languages; French "ne ... que"), both state a day or a frequency, and the
newer names at least half of the older's content words (the day and frequency words and whom it is about
aside); not one occasion (memengine/fact_occasion.py: "this week only ...") nor a kinship word the older lacks
("my nephew's tutor can only do fridays"). Whose rule it is stays the vetoes' question too
(memengine/supersession.py). Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_mood, fact_occasion, fact_person, fact_same
from memengine.fact_align import same_word
from memengine.fact_langs import FUNCTION_WORDS
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, STOPWORDS, WEEKDAYS, WORD_NUMBERS, fold

__all__ = ["REASON", "restricted"]

REASON = "the rule now restricted"

_ONLY = frozenset("only nur seulement solo solamente soltanto apenas alleen enkel uitsluitend".split())
# words of a day or a frequency beyond the weekdays and months of memengine/fact_lexicon.py (folded)
_WHEN = frozenset(fold(w) for w in """weekday weekdays weekend weekends day days week weeks month months year times
    daily weekly monthly every each other alternate tag tage woche wochen monat monate mal jeden jede jedes taglich
    wochentags jour jours semaine semaines mois fois tous toutes chaque quotidien dia dias día días semana semanas
    mes meses vez veces cada todos todas giorno giorni settimana settimane mese mesi volta volte ogni tutti tutte
    mes meses vezes todo dag dagen week weken maand maanden keer elke iedere werkdag werkdagen maandag maandags
    dinsdag dinsdags woensdag woensdags donderdag donderdags vrijdag vrijdags zaterdag zaterdags zondag zondags
    sur""".split())
_WORD = re.compile(r"[^\W\d_][\w-]*")


def _words(text: str) -> list[str]:
    return [fold(w.lower()).strip("'’") for w in _WORD.findall(text)]


def _is_when(w: str) -> bool:
    return w in _WHEN or w in WEEKDAYS or w in SHORT_WEEKDAYS or w in MONTHS


# "this week only", "diese Woche nur", "cette semaine", "esta semana", "questa settimana", "deze week": one occasion
_THIS = frozenset("this diese diesen dieses cette ce esta este essa esse questa questo deze dit".split())


def _this_time(words: list[str]) -> bool:
    return any(w in _THIS and i + 1 < len(words) and words[i + 1] in _WHEN for i, w in enumerate(words))


def _only(text: str, words: list[str]) -> bool:
    if any(w in _ONLY for w in words) or "só" in text.lower().split():
        return True
    # French "ne ... que" ("ne fait plus la démo qu'un vendredi sur deux"); "qu'" is read as "qu"
    return "ne" in words and any(w in ("que", "qu") or w.startswith("qu'") for w in words[words.index("ne") + 1:])


def _content(words: list[str], names: frozenset[str]) -> list[str]:
    return [w for w in words if len(w) > 2 and w not in STOPWORDS and w not in FUNCTION_WORDS
            and w not in WORD_NUMBERS and (w in names or not _is_when(w))
            and w not in _ONLY and w not in ("now", "jetzt", "maintenant", "ahora", "adesso", "agora", "nu", "ya")]


def restricted(old: str, new: str) -> str | None:
    """``REASON: 'only' …`` when ``new`` restricts the rule ``old`` states (see the module docstring), else None."""
    wa, wb = _words(old), _words(new)
    if not _only(new, wb) or _only(old, wa):
        return None
    names = fact_person.subject_names(old) | fact_person.subject_names(new)  # ("Marco" is no month here)
    if not any(_is_when(w) and w not in names for w in wa) or not any(_is_when(w) and w not in names for w in wb) \
            or fact_mood.unasserted(new):
        return None
    if fact_occasion.one_off(old, new) or _this_time(wb) or fact_same.kin_added(old, new, None):
        return None  # "this week only ...": one occasion; "my nephew's tutor can only do fridays": someone else's
    # (whom it is about aside: "Inès fait du yoga le lundi soir" shares only the person and a light verb)
    ca = [w for w in dict.fromkeys(_content(wa, names)) if w not in names]
    cb = _content(wb, names)
    shared = [w for w in ca if any(same_word(w, x) for x in cb)]
    # half of them at least; just half only when the newer names no thing of its own ("o treino de basquete é só
    # na quinta" after "O treino de vôlei é terça e quinta": another training)
    own = [w for w in cb if w not in names and not any(same_word(w, x) for x in ca)]
    if not shared or 2 * len(shared) < len(ca) or 2 * len(shared) == len(ca) and own:
        return None
    return f"{REASON}: {' '.join(shared)}"
