"""A period of a month or a year said as a date: "fim de março", "early April", "Mitte Mai", "Q3", "next spring" (facts26).

Appointments and deadlines are often put in a part of a month ("A reunião é no fim de março", "finales de marzo",
"fin mars", "Ende März", "mid-May", "na segunda quinzena de maio", "begin mei") or of a year ("in Q3", "next spring").
The analyser (memengine/fact_tokens.py) reads a month with its day, or capitalised, or after a year's preposition;
a lowercase month after a period word ("fim de março") and a Dutch month are no value to it, so a moved appointment
reached no verdict, and its words ("fim", "finales") were read as the thing's ("El viaje de fin de curso" shares
"finales" with "La revisión del coche es a finales de marzo"). :func:`periods` reads each period phrase: a period
word (the only hand list here: the words for the start, the middle, the end, a half of a month, and the seasons) and
the month after it, whose names come from dateparser's locale data for the languages the engine reads (no month
list of ours), or a quarter ("Q3"), or a season. memengine/fact_kind.py reads them as days; memengine/fact_shared.py
does not count their words as naming a thing; :func:`moved` reads a period moved to another one of the same
thing as an update. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_align import PREFIX_SHARE, same_word
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_due import due_word
from memengine.fact_lexicon import MONTHS, STOPWORDS, _set, fold
from memengine.fact_types import Verdict

__all__ = ["Period", "moved", "other_subject", "period_words", "periods"]

Period = tuple[str, "int | str"]  # (the part: "start" / "mid" / "end" / "half1" / "half2" / "", month 1-12 or "q3", "spring")

# The languages dateparser's month names are read for: those the engine reads.
_LANGS = ("en", "de", "fr", "es", "pt", "it", "nl")
# The part of a month a word names (folded; one set for every language: a short sentence's language is often
# guessed wrong).
_PARTS = {
    **{w: "start" for w in _set("early beginning start", "anfang beginn", "debut", "principios comienzos inicio",
                                "comeco inicio principio", "inizio primi", "begin")},
    **{w: "mid" for w in _set("mid middle", "mitte", "mi milieu", "mediados mitad", "meio meados", "meta",
                              "half midden")},
    **{w: "end" for w in _set("end late", "ende", "fin", "finales fines final", "fim final finais", "fine", "eind")},
}
# A half of a month: "first half of May", "segunda quinzena de maio", "zweite Hälfte des Mai", "prima quindicina".
_HALF_WORDS = _set("half", "halfte", "quinzaine", "quincena", "quinzena", "quindicina", "helft")
_FIRST = _set("first", "erste ersten", "premiere", "primera", "primeira", "prima", "eerste")
_SECOND = _set("second", "zweite zweiten", "deuxieme seconde", "segunda", "segunda", "seconda", "tweede")
# Seasons: a part of a year.
_SEASONS = {
    **{w: "spring" for w in _set("spring", "fruhling fruhjahr", "printemps", "primavera", "lente")},
    **{w: "summer" for w in _set("summer", "sommer", "ete", "verano", "verao", "estate", "zomer")},
    **{w: "autumn" for w in _set("autumn fall", "herbst", "automne", "otono", "outono", "autunno", "herfst")},
    **{w: "winter" for w in _set("winter", "hiver", "invierno", "inverno")},
}
# The words a season is said after as a date ("next spring", "im Frühjahr", "au printemps", "na primavera"): a season
# word alone is often something else ("a Volvo estate", "a hot spring", "fall behind").
# Not after "this" / "last" ("cet été", "this summer", "diesen Sommer"): said of the event, when it happened or
# happens, as "last week" is ("julien a déménagé à Nantes cet été" changes where he lives, not a date; lead)
_SEASON_BEFORE = _set("in next coming", "im nachsten nachstes kommenden kommendes den aufs ins", "au en",
                      "en la proxima", "na no proxima proximo", "in nella prossima prossimo",
                      "in de het volgende komende")
# Words between a period word and its month: "end of March", "fim de março", "Ende des Monats", "metà di maggio".
_LINKS = _set("of the", "des", "de du", "de del", "de do da", "di del della", "van")
_QUARTER = re.compile(r"^[qQ]([1-4])$")
_TOKEN = re.compile(r"[^\W_]+")
_WINDOW = 3  # words from a period word to its month ("the end of June", "na segunda quinzena de maio")


@lru_cache(maxsize=1)
def _months() -> dict[str, int]:
    """Month names (folded) -> 1-12: the engine's table and dateparser's locale names of every language it reads
    (Dutch "maart", "mei" are in dateparser's only)."""
    out = dict(MONTHS)
    try:
        from dateparser.languages.loader import default_loader
    except ImportError:  # (a dependency; the engine's table still serves)
        return out
    keys = ("january february march april may june july august september october november december").split()
    for lang in _LANGS:
        info = default_loader.get_locale(lang).info
        for n, key in enumerate(keys, 1):
            names = [fold(str(name)) for name in info.get(key, [])]
            for f in names:
                # (not a short form of a longer name: "mar" is the sea, "gen" a gene; "mei", "mai" are full names)
                if len(f) > 2 and not any(other != f and other.startswith(f) for other in names):
                    out.setdefault(f, n)
    return out


def _month(word: str) -> int | None:
    """The month ``word`` (folded) names, else None."""
    return _months().get(word)


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[tuple[Period, ...], frozenset[str]]:
    """The periods ``text`` states and the words (folded) they are said with."""
    toks = [fold(t) for t in _TOKEN.findall(text.replace("-", " "))]
    out: list[Period] = []
    used: set[str] = set()
    for n, t in enumerate(toks):
        q = _QUARTER.match(t)
        if q:
            out.append(("", "q" + q.group(1)))
            used.add(t)
            continue
        if t in _SEASONS and n > 0 and toks[n - 1] in _SEASON_BEFORE:
            out.append(("", _SEASONS[t]))
            used.add(t)
            continue
        part = _PARTS.get(t, "")
        if t in _HALF_WORDS and n > 0 and (toks[n - 1] in _FIRST or toks[n - 1] in _SECOND):
            part = "half1" if toks[n - 1] in _FIRST else "half2"
        if not part:
            continue
        for k in range(n + 1, min(n + 1 + _WINDOW, len(toks))):
            month = _month(toks[k])
            if month is not None:
                out.append((part, month))
                used |= {t, toks[k], *toks[n + 1:k]} | ({toks[n - 1]} if part.startswith("half") else set())
                break
            if toks[k] not in _LINKS:
                break
    return tuple(out), frozenset(used)


def periods(text: str) -> tuple[Period, ...]:
    """The periods of a month or a year ``text`` states, in order: ``(("end", 3),)`` for "A reunião é no fim de
    março", ``(("", "q3"),)`` for "The launch is in Q3", ``(("", "spring"),)`` for "next spring"; () when none."""
    return _read(text)[0]


def period_words(text: str) -> frozenset[str]:
    """The words (folded) ``text``'s periods are said with ("fim", "de", "marco"): a value's, no thing's."""
    return _read(text)[1]


_MARKERS = _set("still", "noch immer", "toujours encore", "todavia sigue", "ainda continua", "ancora sempre",
                "nog steeds",  # the same period said again ("still planned for early April")
                # another day of the same thing ("Agora também há consulta às segundas")
                "also too", "auch", "aussi", "tambien", "tambem", "anche pure", "ook")
_NOW_NL = _set("nu inmiddels tegenwoordig")  # (Dutch "now": not among memengine/fact_change_words.py's)
# Copulas and auxiliaries a change is said with and the particles of a later date ("has been moved", "wurde verschoben", "è stata
# spostata", "se ha movido"; "only", "erst", "pas"): no word of the thing's.
_AUXILIARIES = _set("is are has have had was were been being only", "ist sind hat haben war wurde wurden worden erst",
                    "est ont sont etait ete seulement", "es son ha han hemos fue sido solo", "e sao tem foi sido so apenas",
                    "e sono hanno era stata stato stati state solo soltanto", "is zijn heeft hebben was werd pas")
# Modal and future auxiliaries ("will be ready", "soll fertig sein" / "wird erst fertig", "doit être", "va a ser"): how a
# period is said, no word of the thing's (lead: "Die Renovierung soll Anfang Mai fertig sein" / "… wird erst Ende Juni
# fertig" differed only in them)
_MODALS = _set("will would shall should must can could may might", "wird werden soll sollen muss mussen kann konnen",
               "va vont doit doivent devrait sera", "va van debe deberia sera", "vai vao deve deveria sera",
               "deve dovrebbe sara", "zal zullen moet moeten")


def _content(text: str, drop: frozenset[str], keep: frozenset[str] = frozenset()) -> list[str]:
    """The folded content words of ``text`` (no stop word, no period word, no auxiliary, no change or "now" word
    unless ``keep`` holds it: "la mudanza", "le déménagement", "der Umzug" are things whose names are change words),
    no word a date is said with (memengine/fact_due.py: "deadline", "Frist", "prévu", "pushed back", "bis")."""
    return [w for w in (fold(t) for t in _TOKEN.findall(text.replace("-", " ")))
            if w not in STOPWORDS and w not in drop and not w.isdigit() and len(w) > 1
            and (w in keep or (w not in CHANGE_WORDS and w not in NOW_WORDS and w not in _NOW_NL))
            and w not in _AUXILIARIES and w not in _MODALS and not due_word(w)]


def _days(text: str) -> tuple[tuple[str, object], ...]:
    """The weekdays and dated days ``text`` states, as the analyser reads them (memengine/fact_tokens.py)."""
    from memengine import facts

    return tuple((v.kind, v.norm) for v in facts.analyse(text).values if v.kind in ("weekday", "date"))


def _day_words(text: str) -> frozenset[str]:
    """The words (folded) ``text``'s periods, weekdays and dated days are said with."""
    from memengine import facts

    return period_words(text) | {fold(w) for v in facts.analyse(text).values if v.kind in ("weekday", "date")
                                 for w in _TOKEN.findall(v.text)}


def _upto_period(text: str) -> str:
    """``text`` up to its last period's (or day's) last word: what follows a moved period is said of the move
    ("launch moved to Q4 after the funding delay"), not of the thing."""
    words = _day_words(text)
    ends = [m.end() for m in _TOKEN.finditer(text.replace("-", " ")) if fold(m.group()) in words]
    return text[:ends[-1]] if ends else text


# A verb in another tense keeps its stem, often of three letters only ("fica" / "ficou", "va" / "iba" not): the
# stem's share of the shorter word, as memengine/fact_align.py's prefix rule asks, with a shorter prefix.
_TENSE_STEM = 3


def _one_verb(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` (folded) are one word in two tenses ("fica" / "ficou", "est" / "etait" not)."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= _TENSE_STEM and n >= PREFIX_SHARE * min(len(a), len(b))


def _subject_words(text: str) -> frozenset[str]:
    """The words (folded) of ``text``'s subject phrase, as the analyser reads it."""
    from memengine import facts

    f = facts.analyse(text)
    return frozenset(fold(x.text) for x in f.words[:f.subject_end])


def _other_values(old: str, new: str) -> bool:
    """Whether ``new`` states a number or a code ``old`` does not ("Version 3 was released in 2022" / "Version 2 …
    in 2021", "I swim 1 km on Thursdays" / "2 km on Mondays"): another thing of the frame, not its date moved."""
    from memengine import facts

    def own(text: str) -> set[tuple[str, object]]:
        said = period_words(text)  # (a quarter is a period, though the analyser reads "Q3" as a code)
        return {(v.kind, v.norm) for v in facts.analyse(text).values if v.kind in ("number", "code")
                and fold(v.text) not in said}
    return bool(own(new) - own(old)) or _renumbered(old, new)


_NUMBERED = re.compile(r"([^\W\d_]+)\s+(\d+)\b")


def _renumbered(old: str, new: str) -> bool:
    """Whether a content word both say is numbered differently ("Version 2" / "Version 3", "Sprint 14" / "Sprint
    15"): another thing of one name, whatever its date."""
    def numbered(text: str) -> dict[str, str]:
        return {fold(w): n for w, n in _NUMBERED.findall(text) if fold(w) not in STOPWORDS and _month(fold(w)) is None}
    a, b = numbered(old), numbered(new)
    return any(a[w] != b[w] for w in a.keys() & b.keys())


def moved(old: str, new: str) -> Verdict | None:
    """A ``date`` verdict when ``new`` says that ``old``'s period or day moved to another one of the same thing
    ("A consulta é no fim de março" / "A consulta passou para o começo de abril", "The launch is in Q2" / "The
    launch slipped to Q3", "A entrega fica na quinta" / "A entrega ficou para sexta"): both state a period or a
    day, the newer another one, none that agrees with one of the older's ("in January" / "on January 15") and not
    all of the older's (a day added: "Mondays and Thursdays now"), no number or code of its own, asserted
    (memengine/fact_mood.py) and not for one occasion (memengine/fact_occasion.py); every content word of the
    newer outside its dates, its change words and the words a date is said with (memengine/fact_due.py; with a
    change word: up to its date) is said by the older (a verb outside both subjects in another tense too), and a
    word of the older's subject phrase by the newer ("The product launch …" / "launch moved to …"). Else None."""
    po, pn = periods(old) + _days(old), periods(new) + _days(new)
    if not po or not pn or set(pn) <= set(po) or set(po) <= set(pn):
        return None
    from memengine.fact_align import dates_agree

    if any(a[0] == b[0] == "date" and dates_agree(a[1], b[1]) for a in po for b in pn):  # type: ignore[arg-type]
        return None
    nw = [fold(t) for t in _TOKEN.findall(new)]
    if any(w in _MARKERS for w in nw) or _other_values(old, new):
        return None
    from memengine import fact_mood, fact_occasion

    if fact_mood.unasserted(new) or fact_occasion.one_off(old, new):
        return None
    said = frozenset(fold(t) for t in _TOKEN.findall(old.replace("-", " ")))
    changed = any((w in CHANGE_WORDS or w in NOW_WORDS or w in _NOW_NL) and w not in said for w in nw)
    # The same frame with another period is a new value, as another day is to memengine/facts.py (no change word
    # needed: "… soll Anfang Mai fertig sein" / "… wird erst Ende Juni fertig"); a change word lets the newer add
    # why after the period ("… moved to Q4 after the funding delay").
    co = _content(old, _day_words(old), said)
    cn = _content(_upto_period(new) if changed else new, _day_words(new), said)
    so, sn = _subject_words(old), _subject_words(new)  # (a noun's two genders are two people: "hijo" / "hija")
    def said_again(a: str, b: str) -> bool:
        return same_word(a, b) or a not in sn and b not in so and _one_verb(a, b)

    if not cn or not all(any(said_again(a, b) for b in co) for a in cn):
        return None
    # a day moved is said with a change word or in the older's whole frame ("fica na quinta" / "ficou para sexta"):
    # a day said of fewer of its words may be another meeting's ("Das wöchentliche Team-Meeting ist montags um 10
    # Uhr" / "Team-Meeting ist mittwochs um 15 Uhr", the update of "Die Teamsitzung ist dienstags um 14 Uhr")
    if not periods(new) and not changed and not all(any(said_again(a, b) for a in cn) for b in co):
        return None
    subject = _content(" ".join(sorted(so)), _day_words(old), said)
    # a subject that names the date alone ("La scadenza del bilancio", "De oplevering van het portaal") puts its
    # thing after it: the older's other content words are its thing's
    subject = subject or co
    if not subject or not any(any(same_word(a, b) for b in cn) for a in subject):
        return None
    return Verdict("date", f"a period moved: {po[0]} -> {pn[0]}", 0.8)


def other_subject(old: str, new: str) -> bool:
    """Whether ``old`` and ``new`` both put something in a period and ``new`` says none of the words of ``old``'s
    subject phrase ("Der Umzug ins neue Büro ist für Anfang Oktober geplant" / "Das Firmenjubiläum ist jetzt für Ende
    Mai geplant"): two events, the same frame ("geplant", "prévu") is no evidence that one moved."""
    if not periods(old) or not periods(new):
        return False
    from memengine import facts

    fo = facts.analyse(old)
    subject = _content(" ".join(x.text for x in fo.words[:fo.subject_end]), period_words(old))
    words = [fold(t) for t in _TOKEN.findall(new)]
    return bool(subject) and not any(same_word(a, b) for a in subject for b in words)
