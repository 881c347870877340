"""Time qualifiers that say *when* a fact holds: "from next week", "since Monday", "as of
today", "starting in May", "last spring", "à partir de mardi", "desde el martes", "ab
nächster Woche", "no ano passado".

"The office opens at 7:30am from next week" updates "The office opens at 8am": the trailing
qualifier dates the new value, it is not a content word of the frame nor a second value.
:func:`mark` finds such a phrase at the end of a sentence (a run of time words holding an
opener such as "since" / "from" / "last" and a time noun, weekday, month or year), marks
its tokens ``role = "when"`` and drops the values read inside it.

It only strips when the rest of the sentence still states something a qualifier can date: a
value (a time, a number, a date), a change verb or a name. "The sale runs from Monday" keeps
its "from Monday" (it is the value), so does "The trip is in May" (no opener at all).
Pure functions over tokens: no SQL, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from memengine.fact_change import _CHANGE_VERBS
from memengine.fact_lexicon import MONTHS, WEEKDAYS, _set, fold
from memengine.fact_tokens import Tok, Value

# Words that open a qualifier, or make a time noun relative ("last spring", "nächster Woche").
OPENERS = _set(
    "since starting from beginning effective last next this coming past as",
    "depuis des partir prochain prochaine dernier derniere cette",
    "desde partir proximo proxima pasado pasada este esta viene hace",
    "ab seit letzten letzte letztes letzter letztem nachste nachsten nachster nachstes nachstem diese diesem "
    "dieser dieses kommende kommenden vergangenen",
    "passado passada proximo proxima este esta",
    "dal dalla prossimo prossima prossimi scorso scorsa scorsi questo questa quest",
)
TIME_NOUNS = _set(
    "today tomorrow now week weekend month year spring summer autumn fall winter quarter term semester season "
    "sprint",
    "aujourd'hui aujourdhui demain semaine mois an annee printemps ete automne hiver trimestre rentree saison",
    "hoy manana semana mes ano primavera verano otono invierno trimestre curso temporada",
    "heute morgen woche monat jahr fruhling fruhjahr sommer herbst winter quartal schuljahr saison halbjahr",
    "hoje amanha semana mes ano primavera verao outono inverno semestre temporada",
    "oggi domani settimana mese anno primavera estate autunno inverno trimestre semestre",
)
# Words that may sit inside the phrase: "as OF today", "à partir DE mardi", "desde EL martes".
FILLERS = _set("of in on the a de du d el la le les los las que der die das dem den no na o em at un une una um il lo "
               "di del della les des i gli")


def _key(t: Tok) -> str:
    return fold(t.low) if t.kind == "word" else ""


def _time_word(t: Tok) -> bool:
    k = _key(t)
    if k in TIME_NOUNS or k in MONTHS or k in WEEKDAYS:
        return True
    return t.kind == "num" and len(t.low) == 4 and t.low[:2] in ("19", "20")  # "since 2021"


def _span(toks: Sequence[Tok]) -> list[int]:
    """Indices of the trailing qualifier, or [] when the sentence does not end in one."""
    i = len(toks)
    while i > 0 and (_time_word(toks[i - 1]) or _key(toks[i - 1]) in OPENERS | FILLERS):
        i -= 1
    while i < len(toks) and _key(toks[i]) in FILLERS:  # "... at | from next week"
        i += 1
    span = list(range(i, len(toks)))
    if not any(_time_word(toks[j]) for j in span) or not any(_key(toks[j]) in OPENERS for j in span):
        return []
    if _key(toks[span[0]]) == "as" and (len(span) < 2 or _key(toks[span[1]]) != "of"):
        return []  # "as" opens only "as of"
    return span


def trailing(toks: Sequence[Tok]) -> int:
    """Where a trailing qualifier starts ("... this week"), else ``len(toks)``."""
    span = _span(toks)
    return span[0] if span and span[0] > 0 else len(toks)


def _opens(toks: Sequence[Tok]) -> bool:
    """Whether the sentence opens on a qualifier's opener ("since", "ab", "à partir de", "a partir de")."""
    return bool(toks) and (_key(toks[0]) in OPENERS or len(toks) > 1 and _key(toks[0]) == "a"
                           and _key(toks[1]) == "partir")


def _lead_span(toks: Sequence[Tok]) -> list[int]:
    """Indices of a leading qualifier ("Since last month, ...", "Depuis le mois dernier, ...",
    "Seit letztem Monat ...", "This spring ...", "À partir de demain ..."), or [] when the sentence does
    not open with one."""
    if not _opens(toks):
        return []
    i = 0
    while i < len(toks) and (_time_word(toks[i]) or _key(toks[i]) in OPENERS | FILLERS) and toks[i].kind in (
            "word", "num"):
        i += 1
    while i > 0 and _key(toks[i - 1]) in FILLERS and not _time_word(toks[i - 1]):
        i -= 1  # "Desde o mês passado | a Beatriz": the article is the subject's
    span = list(range(i))
    if not any(_time_word(toks[j]) for j in span) or i >= len(toks) - 1:
        return []
    if _key(toks[0]) == "as" and (len(span) < 2 or _key(toks[1]) != "of"):
        return []
    return span


def _datable(toks: Sequence[Tok]) -> bool:
    """Whether the sentence before the qualifier states a value, a change or a name."""
    for j, t in enumerate(toks):
        if t.role in ("value", "unit") or _key(t) in _CHANGE_VERBS:
            return True
        if j > 0 and t.kind == "word" and t.text[:1].isupper():
            return True
    return False


# Openers that make the next time noun relative wherever it sits (German puts it before the
# verb's complements: "Oma ist letzten Sommer nach Bonn gezogen").
RELATIVE = _set("last next", "prochain prochaine", "proximo proxima",
                "letzten letzte letztes letzter letztem nachste nachsten nachster nachstes vergangenen dieses diesem "
                "diesen", "proximo proxima", "prossimo prossima scorso scorsa")


# "Since" openers: a phrase they open says since when, whatever sits between it and its time noun
# ("seit drei Monaten", "seit diesem Monat", "depuis deux semaines", "da tre mesi", "há dois meses").
SINCE = _set("since", "depuis", "desde hace", "seit", "ha desde", "da dal dalla")
# Plural time nouns ("three months"): the since-phrase's end.
TIME_PLURALS = _set("days weeks months years", "jours semaines ans annees", "dias semanas meses anos",
                    "tagen wochen monaten jahren tage monate jahre", "dias semanas meses anos",
                    "giorni settimane mesi anni")


def _inner_span(toks: Sequence[Tok]) -> list[int]:
    """A relative opener and its time noun inside the sentence ("letzten Sommer"), or a since-phrase
    ending on a time noun within three tokens ("seit drei Monaten", "since two weeks", "da tre mesi")."""
    for j in range(1, len(toks) - 1):
        if _key(toks[j]) in RELATIVE and not toks[j].role and _key(toks[j + 1]) in TIME_NOUNS:
            return [j, j + 1]
    for j in range(0, len(toks) - 1):
        if _key(toks[j]) in SINCE and not toks[j].role:
            for k in range(j + 1, min(len(toks), j + 4)):
                if _key(toks[k]) in TIME_NOUNS | TIME_PLURALS:
                    return list(range(j, k + 1))
                if toks[k].kind != "word" and toks[k].kind != "num":
                    break
    return []


# "with the new timetable", "avec les nouveaux horaires", "con el nuevo horario", "mit dem neuen Fahrplan",
# "com o novo horário", "con il nuovo orario": what brought the change, at the end of the sentence.
_WITH = _set("with", "avec", "con", "mit", "com")
_NEW = _set("new", "nouveau nouvelle nouveaux nouvelles", "nuevo nueva nuevos nuevas", "neuen neue neuer neues",
            "novo nova novos novas", "nuovo nuova nuovi nuove")


def _cause_span(toks: Sequence[Tok]) -> list[int]:
    """A trailing "with the new X" (at most three words after "new")."""
    for j in range(1, len(toks) - 2):
        if _key(toks[j]) in _WITH and not toks[j].role:
            k = j + 1
            while k < len(toks) and _key(toks[k]) in FILLERS:
                k += 1
            if k < len(toks) - 1 and _key(toks[k]) in _NEW and len(toks) - k <= 4 and all(
                    t.kind == "word" or t.text in ".!" for t in toks[k:]):
                return list(range(j, len(toks)))
    return []


def mark(toks: list[Tok], values: list[Value]) -> list[Value]:
    """Mark a time qualifier ``role = "when"`` (trailing, or a relative one inside the
    sentence); return the values outside it."""
    for span in (_lead_span(toks), _span(toks), _inner_span(toks), _cause_span(toks)):  # the first that leaves
        # something to date
        if not span or span[0] == 0 and span[-1] == len(toks) - 1:
            continue
        rest = [t for j, t in enumerate(toks) if j < span[0] or j > span[-1]]
        if any(toks[j].role == "value" for j in span) and not any(t.role == "value" for t in rest):
            continue  # "probt seit diesem Monat donnerstags": the weekday is the value, not when
        if _datable(rest):
            break
    else:
        return values
    for j in span:
        toks[j].role = "when"
    inside = set(span)
    return [v for v in values if v.pos not in inside]
