"""A single occurrence told of a standing fact never retires it (facts43).

"Puppy classes are on Thursday evenings now" holds every week; "Puppy class was cancelled this Tuesday because of
the snow" tells what happened once. Each rule reads its own shape of a change, and a one-off of the same class, the
same subject and another weekday fits many of them (the lead's facts35: a cross-language reading of a course retired
the class's current day). What is general is the token: a sentence anchored to one time — a day said from today
("today", "this Tuesday", "this week", "tonight"), a day said back from today ("yesterday", "last Saturday", "last
week"), an exception word ("just this week", "ausnahmsweise", "for once", "bij uitzondering") or a holiday — tells an
event, not a rule. memengine/fact_occasion.py reads the first, third and fourth in six languages (and when such a
marker is when a change starts, "from this week", "ab Montag", it is no one-off); this module adds the days said back
from today and the Dutch forms, and asks one thing more of a one-time anchor that is not an exception word: that the
newer says no lasting state ("now", "from now on", "any more", "these days", "jetzt", "ya no", "nu", "voortaan" —
the cue lexicon's NOW phrases and Dutch ones): "We've been with Sosh since last week, they're our provider now" is a
change told with its day. An exception word ("just this week", "only today") is a one-off whatever else is said.

A one-off found so retires nothing (:func:`one_off`); a stand-in ("Jodie is lead nurse until Carys is back", "while
Hannah is on leave") is the current holder for a while: at most a probable update (:func:`stand_in`). The older's own
anchors do not count (an older that is itself one day is corrected by another word of that day), nor does a dated
older (an appointment on 12 March). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_occasion
from memengine.fact_cue_lexicon import NOW_PHRASES
from memengine.fact_lexicon import SHORT_WEEKDAYS, WEEKDAYS, fold, fold_text
from memengine.fact_types import Verdict

__all__ = ["LASTING", "STAND_IN", "one_off", "stand_in", "stood_in"]

_DAYS = "|".join(sorted({re.escape(fold(w)) for w in (*WEEKDAYS, *SHORT_WEEKDAYS)} | {
    "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"}, key=lambda w: (-len(w), w)))
# A day said back from today, in seven languages (folded): the day something happened, once.
_PAST = re.compile(
    rf"(?<![\w'-])(?:yesterday|last\s+(?:night|week|weekend|time|(?:{_DAYS}))|the\s+other\s+day|earlier\s+today|"
    rf"gestern|vorgestern|letzte\s+woche|letzten\s+(?:{_DAYS})|letztes\s+wochenende|vergangene\s+woche|"
    rf"ayer|anoche|anteayer|la\s+semana\s+pasada|el\s+fin\s+de\s+semana\s+pasado|el\s+(?:{_DAYS})\s+pasado|"
    rf"hier\s+soir|avant-hier|la\s+semaine\s+derniere|le\s+week-end\s+dernier|(?:{_DAYS})\s+dernier|"
    rf"ieri|ieri\s+sera|l'altro\s+ieri|la\s+settimana\s+scorsa|(?:{_DAYS})\s+scorso|"
    rf"ontem|anteontem|a\s+semana\s+passada|no\s+fim\s+de\s+semana\s+passado|"
    rf"gisteren|gisteravond|eergisteren|vorige\s+week|afgelopen\s+(?:week|weekend|(?:{_DAYS}))|"
    rf"vorige\s+(?:{_DAYS}))(?![\w-])")
# Dutch days said from today and exception words (memengine/fact_occasion.py reads six other languages)
_NL_DAY = re.compile(rf"(?<![\w'-])(?:vandaag|vanavond|vanochtend|vanmiddag|vannacht|deze\s+week|dit\s+weekend|"
                     rf"deze\s+keer|deze\s+(?:{_DAYS})|volgende\s+(?:{_DAYS}))(?![\w-])")
_NL_EXCEPTION = re.compile(r"(?<![\w'-])(?:bij\s+uitzondering|eenmalig|voor\s+een\s+keer|een\s+keer|alleen\s+deze|"
                           r"alleen\s+vandaag)(?![\w-])")
# Exception words of a scope ("just this week", "this week only", "only today"), beside fact_occasion's
_SCOPED = re.compile(r"(?<![\w'-])(?:(?:just|only)\s+(?:this|today|tonight|for\s+(?:today|tonight|this))|"
                     r"(?:this\s+(?:week|weekend|time)|today|tonight)\s+only|nur\s+(?:heute|diese|morgen)|"
                     r"solo\s+(?:hoy|esta|este|oggi|questa|questo)|seulement\s+(?:aujourd'hui|cette|ce)|"
                     r"so\s+(?:hoje|esta|este)|alleen\s+(?:vandaag|deze|dit))(?![\w-])")
# Back from an absence ("until she's back", "bis sie zurück ist", "hasta que vuelva", "tot hij terug is")
_BACK = re.compile(r"(?<![\w'-])(?:until|till|til)\s+(?:\w+\s+){0,2}(?:is|are|gets|comes|'s|s)?\s*(?:back|returns?)"
                   r"|bis\s+(?:\w+\s+){0,3}zuruck|hasta\s+que\s+(?:\w+\s+){0,2}(?:vuelva|regrese)|"
                   r"jusqu'a\s+son\s+retour|finche\s+non\s+(?:\w+\s+){0,2}torna|"
                   r"tot\s+(?:\w+\s+){0,2}terug|ate\s+(?:\w+\s+){0,2}voltar")
# When a change starts ("from last week", "seit gestern", "sinds vorige week"): the anchor is no one-off
_START = re.compile(r"(?:^|[\s,;:(])(?:from|starting|since|as\s+of|effective|seit|ab|depuis|a\s+partir\s+d[e']|desde|"
                    r"dal|dalla|da|a\s+partire\s+da|sinds|vanaf|met\s+ingang\s+van)\s+(?:the\s+|de\s+|la\s+|el\s+)?$")
# A lasting state said (the cue lexicon's phrases of a new state, but the afterthoughts and reverts, and Dutch)
LASTING = frozenset(p for p in NOW_PHRASES if p not in {
    "after all", "turns out", "turned out", "finalement", "en fin de compte", "au final", "il s avere", "al final",
    "resulta que", "finalmente", "despues de todo", "letztendlich", "doch nicht", "afinal", "de novo", "de nuevo",
    "a nouveau", "de nouveau", "again", "wieder", "alla fine", "di nuovo", "nuovamente", "instead", "a la place",
    "en su lugar", "en vez de eso", "en cambio", "stattdessen", "em vez disso", "no lugar", "invece", "al suo posto",
    "ab heute"}) | frozenset(("nu", "voortaan", "tegenwoordig", "niet meer", "geen meer", "vanaf nu", "since",
                                "seit", "depuis", "desde", "sinds", "from now", "permanently", "for good"))
_LASTING = re.compile(r"(?<![\w'-])(?:" + "|".join(sorted((re.escape(p).replace(r"\ ", r"\s+(?:\w+\s+)?")
                                                            for p in LASTING), key=lambda w: (-len(w), w))) + r")(?![\w-])")


def _anchors(low: str, pattern: re.Pattern[str]) -> set[str]:
    """The one-time anchors ``pattern`` finds in ``low`` but those said as when a change starts."""
    return {m.group(0) for m in pattern.finditer(low) if not _START.search(low[:m.start()])}


def _lasting(low: str) -> bool:
    """Whether the folded ``low`` says a lasting state ("now", "any more", "jetzt", "nu")."""
    return bool(_LASTING.search(low.replace("'", " ")))


@lru_cache(maxsize=4096)
def one_off(old: str, new: str) -> str:
    """Why ``new`` tells a single occurrence that leaves the standing ``old`` as it was ("exception", "holiday",
    "one day", "a day past"), or "" (see the module docstring). A stand-in is :func:`stand_in`'s."""
    lo, ln = fold_text(old), fold_text(new)
    why = fact_occasion.one_off(old, new)
    if why == "exception" or _anchors(ln, _NL_EXCEPTION) - _anchors(lo, _NL_EXCEPTION) \
            or _anchors(ln, _SCOPED) - _anchors(lo, _SCOPED):
        return "exception"
    if why in ("stand-in", "until", "one day's value"):
        return ""  # (a stand-in holds the slot for a while; one day's hours are fact_occasion's readers')
    if not why and fact_occasion._DATED_RE.search(lo):
        return ""  # (an appointment on 12 March is itself one day)
    if not why:
        if _anchors(ln, _PAST) - _anchors(lo, _PAST):
            why = "a day past"
        elif _anchors(ln, _NL_DAY) - _anchors(lo, _NL_DAY):
            why = "one day"
    if not why or _lasting(ln) or _change_told(old, new):
        return ""  # (a change told with its day: "switched to Sosh last week, they're our provider now")
    return why


# A move of the slot to a new value ("moved the team chat to Mattermost", "upgraded to an iPhone 15")
_MOVED_TO = re.compile(r"(?<![\w'-])(?:moved|switched|transferred|changed|migrated|ported|upgraded|downgraded|"
                       r"went\s+over|took\s+over|handed\s+over|replaced|traded|swapped|exchanged)(?![\w-])")


def _change_told(old: str, new: str) -> bool:
    """Whether ``new`` tells a change of the older's value on its day: a move of the slot to another value, or a verb
    that ends a holding (memengine/fact_vacated.py's class: retired, left, closed, sold) said of a value word of the
    older ("Petra retired at Easter"). Said of the older's subject instead ("Puppy class was cancelled this
    Tuesday"), the ending verb ends one occurrence."""
    from memengine import fact_vacated

    ln = fold_text(new)
    if _MOVED_TO.search(ln):
        return True
    names, numbers, keys = fact_vacated.older_values(old)
    for clause in re.split(r"[;,.]|\s+(?:and|so|but)\s+", new):
        if fact_vacated.ending(fold_text(clause)) and fact_vacated.value_hits(clause, names, numbers, keys):
            return True
    return False


@lru_cache(maxsize=4096)
def stand_in(old: str, new: str) -> bool:
    """Whether ``new`` names someone holding the older's slot for a while ("until she's back", "while Hannah is on
    leave", "covering for"): the current holder for now, a probable update at most."""
    ln = fold_text(new.replace("’", "'"))
    return fact_occasion.one_off(old, new) in ("stand-in", "until") or bool(_BACK.search(ln.replace("'", " ")))


STAND_IN = "a stand-in holds the older's slot for a while"
# an absence said of the older's holder ("on maternity leave", "off sick", "away", "in Elternzeit", "de baja")
_AWAY = re.compile(r"(?<![\w'-])(?:on\s+(?:\w+\s+)?leave|off\s+sick|away|on\s+holiday|in\s+hospital|"
                   r"in\s+(?:elternzeit|mutterschutz|urlaub)|krank|de\s+baja|de\s+vacaciones|en\s+conge|"
                   r"in\s+(?:maternita|ferie|malattia)|met\s+(?:verlof|zwangerschapsverlof|vakantie)|ziek|"
                   r"de\s+licenca|de\s+ferias)(?![\w-])")


def stood_in(old: str, new: str) -> Verdict | None:
    """A probable update when ``new`` says the older's holder (a value word of the older) is away for a while and
    names another holding the slot till they are back ("Carys is on leave, Jodie is lead nurse until she's back"):
    the stand-in is the current holder, the older comes back (never a sure retirement)."""
    from memengine import fact_vacated

    if not stand_in(old, new):
        return None
    names, numbers, keys = fact_vacated.older_values(old)
    if not names:
        return None
    for clause in re.split(r"[;,.]|\s+(?:and|so|but)\s+", new):
        hit = fact_vacated.value_hits(clause, names, numbers, keys)
        if hit and _AWAY.search(fold_text(clause)):
            came = fact_vacated.new_value(new, keys, set(hit))
            if came and not fact_vacated.another_role(new, came, keys):
                return Verdict("may_update", f"{STAND_IN}: {hit[0]} -> {came}", 0.6)
    return None
