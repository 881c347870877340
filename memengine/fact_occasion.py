"""Whether a newer sentence tells an exception to a standing fact, not a new value of it.

"The post office opens at 9am" holds every day; "the post office opens at 11 on saturday", "Heute
schließt das Café schon um 15 Uhr", "esta semana la reunión es el miércoles por el puente", "while
Hannah is on leave I report to Omar" each name a new value of the same slot, but only for one day, one
occasion or one absence: the standing value still holds. :func:`one_off` reads that scope from the
structure of the newer sentence, in the six languages of memengine/fact_lexicon.py:

- **one occasion** the older does not name: a day said from today ("today", "tomorrow", "this week",
  "next monday", "heute", "demain", "mañana", "amanhã", "domani", "questa settimana"), an exception word
  ("exceptionally", "this time", "ausnahmsweise", "exceptionnellement", "eccezionalmente") or a holiday
  ("bank holiday", "christmas eve", "Feiertag", "férié", "feriado", "puente", "ferragosto");
- **one day's hours**: the older states a time or an amount and no weekday; the newer gives another
  value of that kind and adds a weekday ("on saturday", "le dimanche", "am Samstag", "el domingo", "no
  domingo", "sabato"): that day's value, not the standing one;
- **a stand-in**: someone covering for an absence ("while X is on leave", "covering for", "in X's
  absence", "temporarily", "pendant les vacances de", "mientras ... de baja", "vertritt", "solange",
  "nas férias de", "in assenza di") or a value "until friday".

None of them holds when the marker is when the change starts ("from tomorrow", "starting next week",
"ab Montag", "à partir de demain", "desde hoy", "a partir de amanhã", "da domani") or the value itself
("moved to next monday", "verschoben auf Donnerstag"), and a day said from today is no exception to an
older fact that is itself dated (an appointment, a flight on March 12). A miss here only leaves two
current facts; a false reading hides nothing (both stay; the older is not retired).

The other way round, :func:`older_one_off`: the OLDER is the exception ("tomorrow the swimming club meets at
5 instead", "Am Samstag macht die Bücherei erst um 11 auf", "the pool opens at noon on Christmas Eve") and
the newer a standing value ("the pool opens at 7am"): a one-off and a standing rule are two facts, and the
standing one retires nothing. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import MONTHS, SHORT_FORMS, SHORT_WEEKDAYS, WEEKDAYS, fold, fold_text

__all__ = ["older_one_off", "one_off"]


def _alternation(words: tuple[str, ...] | frozenset[str]) -> str:
    # (a set's words in one order, whatever the hash seed: a cold call then finds the pattern compiled by the
    # last one, memengine/recache.py; equal-length words are never a prefix of one another, so no order of
    # them matches differently)
    ordered = sorted(words) if isinstance(words, frozenset) else words
    return "|".join(re.escape(fold(w)) for w in sorted(ordered, key=len, reverse=True))


_DAYS = _alternation(frozenset(WEEKDAYS) | frozenset(SHORT_WEEKDAYS))
# A day said from today, in six languages ("mañana" is "tomorrow" only without an article: "por la mañana"
# is "in the morning"; German "morgen" only without "am" / "guten" and not as "morgens").
_DEICTIC = (
    "today", "tonight", "tomorrow", "this morning", "this afternoon", "this evening", "this week", "this weekend",
    "this time",
    "aujourd'hui", "ce soir", "demain", "ce matin", "cet apres-midi", "cette semaine", "ce week-end", "ce weekend",
    "cette fois",
    "hoy", "esta noche", "esta tarde", "esta semana", "este fin de semana", "este finde", "esta vez",
    "heute", "heute abend", "morgen", "diese woche", "dieses wochenende", "diesmal", "dieses mal",
    "hoje", "hoje a noite", "esta noite", "amanha", "esta semana", "essa semana", "nesta semana", "nessa semana",
    "este fim de semana", "esse fim de semana", "neste fim de semana", "desta vez",
    "dessa vez", "essa vez",
    "oggi", "stasera", "stamattina", "domani", "questa settimana", "questo weekend", "questo fine settimana",
    "questa volta", "stavolta",
)
_EXCEPTION = (
    "exceptionally", "for once", "just this once", "one-off", "one off", "only this",
    "exceptionnellement", "pour une fois", "exceptionnel",
    "excepcionalmente", "por una vez", "solo por hoy", "solo esta",
    "ausnahmsweise", "einmalig", "nur heute", "nur diese",
    "so dessa vez", "so desta vez", "so hoje", "so essa",
    "eccezionalmente", "per una volta", "solo oggi", "solo questa",
)
_HOLIDAY = (
    "bank holiday", "public holiday", "christmas", "xmas", "new year's eve", "new year's day", "new years eve",
    "easter", "thanksgiving", "halloween", "school holidays", "the holidays", "inset day", "training day",
    "jour ferie", "ferie", "noel", "nouvel an", "reveillon", "paques", "la veille de", "vacances scolaires",
    "festivo", "feriado", "puente", "navidad", "nochebuena", "nochevieja", "ano nuevo", "semana santa",
    "feiertag", "feiertage", "feiertagen", "bruckentag", "weihnachten", "heiligabend", "silvester", "neujahr",
    "ostern", "schulferien", "betriebsausflug",
    "natal", "vespera", "ano novo", "pascoa", "carnaval", "ferias escolares",
    "natale", "vigilia", "capodanno", "pasqua", "ferragosto", "carnevale", "ponte",
)
# "next monday", "this saturday", "ce samedi", "samedi prochain", "el próximo sábado", "diesen Samstag",
# "nächsten Samstag", "neste sábado", "na próxima segunda", "questo sabato", "sabato prossimo": one day.
_ONE_DAY = (rf"(?:next|this|coming|ce|cette|este|el proximo|la proxima|diesen|dieser|nachsten|kommenden|"
            rf"neste|nesse|este|esse|no proximo|na proxima|questo|questa)\s+(?:{_DAYS})(?![\w-])"
            rf"|(?<![\w-])(?:{_DAYS})\s+(?:prochain|prochaine|que viene|prossimo|prossima)(?![\w-])")
_STAND_IN = (
    "covering for", "covers for", "covering as", "is covering", "subbing for", "subs for", "standing in",
    "stands in", "filling in for", "fills in for", "stand-in", "in the absence of", "absence", "temporarily",
    "while she is away", "while he is away", "while they are away",
    "remplacant", "remplacante", "en remplacement", "en l'absence de", "temporairement", "provisoirement",
    "par interim", "suplente", "suple a", "en ausencia de", "temporalmente", "provisionalmente",
    "vertritt", "vertretung", "vertreten", "in abwesenheit", "vorubergehend", "ubergangsweise", "kommissarisch",
    "na ausencia", "temporariamente", "provisoriamente", "responde por",
    "supplente", "in assenza di", "temporaneamente", "provvisoriamente",
)
# "while / during / as long as" + an absence ("while hannah is on leave", "pendant les vacances de Thomas",
# "mientras Carlos está de baja", "solange Herr Vogel krank ist", "nas férias do rodrigo", "mentre Luca è in ferie").
_WHILE = ("while", "whilst", "during", "as long as", "pendant", "tant que", "mientras", "durante", "wahrend",
          "solange", "enquanto", "nas", "mentre", "finche")
_ABSENT = ("on leave", "away", "off sick", "sick", "ill", "on holiday", "on vacation", "out of office",
           "vacances", "conge", "absent", "absente", "malade", "arret",
           "vacaciones", "de baja", "ausente", "enfermo", "enferma", "de viaje",
           "urlaub", "krank", "abwesend", "elternzeit", "weg",
           "ferias", "licenca", "doente", "viajando",
           "ferie", "in malattia", "assente", "malato", "malata", "in viaggio")
_UNTIL = (rf"(?<![\w'-])(?:until|till|til|jusqu'a|jusqu'au|hasta el|hasta|bis|bis zum|ate|ate a|ate o|fino a|"
          rf"fino al)\s+(?:(?:the\s+)?(?:end of|next week|next month|fin de|finales de|ende|fim d|fine)|(?:{_DAYS}))")
# When the change starts ("from tomorrow", "ab Montag") or what it is changed to ("moved to next
# monday", "verschoben auf Donnerstag"): right before the marker, the marker is no exception.
_START = ("from", "starting", "starts", "as of", "beginning", "effective", "since", "going forward",
          "a partir de", "a partir d'", "des", "depuis", "desde", "ab", "seit", "ab dem", "a contar de",
          "dal", "dalla", "da", "a partire da", "a partire dal", "a partir do", "a partir da")
_TO = ("to", "au", "a", "al", "a la", "auf", "para", "pra", "para o", "para a", "pro", "alla", "allo")


def _compile(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w'-])(?:{_alternation(words)})(?![\w-])")


_DEICTIC_RE = _compile(_DEICTIC)
_EXCEPTION_RE = _compile(_EXCEPTION)
_HOLIDAY_RE = _compile(_HOLIDAY)
_ONE_DAY_RE = re.compile(rf"(?<![\w'-])(?:{_ONE_DAY})")
_STAND_IN_RE = _compile(_STAND_IN)
_WHILE_RE = _compile(_WHILE)
_ABSENT_RE = _compile(_ABSENT)
_UNTIL_RE = re.compile(_UNTIL)
_WEEKDAY_RE = re.compile(rf"(?<![\w'-])(?:{_DAYS})(?![\w-])")
_ARTICLE = r"(?:(?:the|le|la|les|el|los|las|o|os|a|as|il|lo|i|gli|dem|den|next|this|coming)\s+)?$"
_START_RE = re.compile(rf"(?:^|[\s,;:(])(?:{_alternation(_START)})\s+{_ARTICLE}")
_START_TO_RE = re.compile(rf"(?:^|[\s,;:(])(?:{_alternation(_START + _TO)})\s+{_ARTICLE}")
# a month name next to a day number ("March 12", "12 mars", "am 3. Mai"): the older is itself one day
_DATED_RE = re.compile(rf"\d\W{{0,2}}\s*(?:of\s+|de\s+)?(?:{_alternation(frozenset(MONTHS))})(?![\w-])"
                       rf"|(?<![\w-])(?:{_alternation(frozenset(MONTHS))})\s+\d")
_NO_DAY_MARKER = re.compile(r"(?:la|de la|por la|cada|toda la|en la|a la)\s+$|(?:am|guten|jeden|heute)\s+$")
_TIME_OR_AMOUNT = re.compile(r"\d")


def _markers(low: str, pattern: re.Pattern[str], before: re.Pattern[str] | None = _START_TO_RE) -> set[str]:
    """The scoping markers ``pattern`` finds in ``low``, but those ``before`` reads as when the change
    starts or as its new value ("from tomorrow", "moved to next monday")."""
    out = set()
    for m in pattern.finditer(low):
        word = m.group(0)
        if word in ("manana", "morgen") and _NO_DAY_MARKER.search(low[:m.start()]):
            continue  # "por la mañana", "am Morgen": the morning, not tomorrow
        if before is None or not before.search(low[:m.start()]):
            out.add(SHORT_FORMS.get(word, word))  # ("xmas" is christmas: not a holiday the older lacks)
    return out


def _occasion(old: str, new: str, dated: bool) -> str:
    if _markers(new, _EXCEPTION_RE, None) - _markers(old, _EXCEPTION_RE, None):
        return "exception"
    if _markers(new, _HOLIDAY_RE, _START_RE) - _markers(old, _HOLIDAY_RE, _START_RE):
        return "holiday"
    if not dated and (_markers(new, _DEICTIC_RE) - _markers(old, _DEICTIC_RE)
                      or _markers(new, _ONE_DAY_RE) - _markers(old, _ONE_DAY_RE)):
        return "one day"
    return ""


def _stand_in(old: str, new: str) -> str:
    if _markers(new, _STAND_IN_RE, None) - _markers(old, _STAND_IN_RE, None):
        return "stand-in"
    if _WHILE_RE.search(new) and _ABSENT_RE.search(new) and not _ABSENT_RE.search(old):
        return "stand-in"
    if _UNTIL_RE.search(new) and not _UNTIL_RE.search(old):
        return "until"
    return ""


def _day_scope(old: str, new: str, old_values: set[str], new_values: set[str]) -> str:
    """The older states a time or an amount and no weekday; the newer another such value and a weekday."""
    if _WEEKDAY_RE.search(old) or not old_values or not (new_values - old_values):
        return ""
    return "one day's value" if _markers(new, _WEEKDAY_RE) else ""


_NUMBER_RE = re.compile(r"\d+(?:[.,:h]\d+)?")


@lru_cache(maxsize=4096)
def one_off(old: str, new: str) -> str:
    """Why ``new`` states an exception to the standing fact ``old`` ("one day", "holiday", "exception",
    "stand-in", "until", "one day's value"), or "" when it does not."""
    lo, ln = fold_text(old), fold_text(new)
    dated = bool(_DATED_RE.search(lo))  # an appointment on March 12: itself one day
    why = _occasion(lo, ln, dated) or _stand_in(lo, ln)
    if why:
        return why
    return _day_scope(lo, ln, set(_NUMBER_RE.findall(lo)), set(_NUMBER_RE.findall(ln)))


# A weekday said as every such day: "every tuesday", "jeden Montag", "todos los martes", "tous les lundis",
# "ogni lunedì", plural or adverbial forms ("tuesdays", "dienstags", "às terças", "los martes").
_PLURAL_DAYS = _alternation(frozenset(w for w in WEEKDAYS | SHORT_WEEKDAYS if w.endswith("s") and w[:-1] in (
    WEEKDAYS | SHORT_WEEKDAYS)))
_RECURRING_RE = re.compile(
    rf"(?<![\w'-])(?:every|each|jeden|jede|jedes|immer|cada|todos\s+los|todas\s+las|tous\s+les|toutes\s+les|"
    rf"ogni|todas\s+as|todos\s+os|le|il|los|las|as|os)\s+(?:{_DAYS})(?![\w-])|(?<![\w'-])(?:{_PLURAL_DAYS})(?![\w-])")
# Opening hours: one day's hours ("am Samstag macht die Bücherei erst um 11 auf") are not the standing ones.
_OPENING_RE = _compile((
    "open", "opens", "opening", "close", "closes", "closing", "shuts", "ouvre", "ouvrent", "ouvert", "ouverte",
    "ferme", "ferment", "fermee", "abre", "abren", "abierto", "abierta", "cierra", "cierran", "cerrado", "cerrada",
    "offnet", "offnen", "offen", "schliesst", "schließt", "geoffnet", "geschlossen", "auf", "zu",
    "abrem", "aberto", "aberta", "fecha", "fecham", "fechado", "fechada",
    "apre", "aprono", "aperto", "aperta", "chiude", "chiudono", "chiuso", "chiusa"))


# A day said from today that spans more than a day: an older fact scoped so may be handed on ("this week").
_WEEK_SCALE = frozenset(fold(w) for w in (
    "this week", "this weekend", "this time", "cette semaine", "ce week-end", "ce weekend", "cette fois", "esta semana",
    "este fin de semana", "este finde", "esta vez", "diese woche", "dieses wochenende", "diesmal", "dieses mal",
    "essa semana", "nesta semana", "nessa semana", "este fim de semana", "esse fim de semana", "neste fim de semana",
    "desta vez", "dessa vez", "essa vez", "questa settimana", "questo weekend", "questo fine settimana",
    "questa volta", "stavolta"))


def _standing(low: str) -> bool:
    """Whether ``low`` states a standing value: no date, no day said from today, no one day ("next monday"),
    no holiday or exception, and a weekday (if any) said as every such day."""
    if _DATED_RE.search(low) or _markers(low, _DEICTIC_RE, None) or _markers(low, _ONE_DAY_RE, None) \
            or _markers(low, _HOLIDAY_RE, None) or _markers(low, _EXCEPTION_RE, None):
        return False
    days = _WEEKDAY_RE.findall(low)
    return not days or len(_RECURRING_RE.findall(low)) >= len(days)


@lru_cache(maxsize=4096)
def older_one_off(old: str, new: str) -> str:
    """Why the OLDER ``old`` is an exception (one day, one occasion, one day's opening hours) that the
    standing ``new`` does not update, or "" (see the module docstring)."""
    lo, ln = fold_text(old), fold_text(new)
    if not _standing(ln):
        return ""  # (the newer is itself one day's value: "moved to friday", "tomorrow at 3")
    why = _occasion(ln, lo, False)  # what the older names and the newer does not
    if why == "one day" and not (_markers(lo, _ONE_DAY_RE) or _markers(lo, _DEICTIC_RE) - _WEEK_SCALE):
        why = ""  # "Priya is the on-call engineer this week" / "Marcus is now ...": a rota, the newer takes over
    if why:
        return "older " + why
    if _OPENING_RE.search(lo) and _WEEKDAY_RE.search(lo) and not _RECURRING_RE.search(lo) \
            and not _WEEKDAY_RE.search(ln) and _TIME_OR_AMOUNT.search(ln):
        return "older one day's hours"
    return ""
