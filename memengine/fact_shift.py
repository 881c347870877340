"""A shift in time said anywhere, the older's slot said again with another value (facts38): "Society meetings are on
the last Thursday of the month from now on" after "Allotment society meets on the first Tuesday of the month",
"Ordering seeds from Real Seeds this year instead" after "Seed orders go to Kings Seeds".

The rules before this one read "now" where a sentence shape puts it ("X is now Y", "now at …"); a change said by
when it starts to hold comes at the end, the start, or between ("from now on", "instead", "this year", "as of
March", "these days", "going forward"). This reading needs no sentence shape:

- **a shift marker** (:data:`_SHIFT`) anywhere in the newer;
- **the older's slot said again**: once values are masked (names, codes, numbers, clock times, days, months,
  ordinals), the words the older has left (its frame: "society meets month", "seed orders go") are said by the newer,
  at least two of them and at least half, in any word form ("meetings" / "meets", "ordering" / "orders"); and the
  newer adds no content word of its own (a qualifier says another thing: "Junior choir practice");
- **another value of the older's kind**: the older's value of one kind (a name, a number, a time, a day, an
  ordinal) is not said by the newer (or only as what was left: "instead of X", "not X"), and the newer says another
  value of that kind.

Guards: the newer is asserted (memengine/fact_mood.py), says no while ("this week", "until", "on holiday"), adds
nothing ("also", "a second"), names no possessor the older does not. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_mood
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import TITLES
from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, fold_text
from memengine.fact_types import Verdict
from memengine.fact_vacated import ADDING, written_as_name

__all__ = ["REASON", "WHILE", "shifted"]

REASON = "a shift in time, the older's slot said again with another value"

_SHIFT = re.compile(
    r"\b(?:from\s+now\s+on|going\s+forward|from\s+here\s+on|henceforth|instead|these\s+days|nowadays|"
    r"as\s+(?:of|from)\s+\w+|from\s+(?:this|next)\s+(?:month|year|term|season|week|spring|summer|autumn|winter)|"
    r"starting\s+(?:from\s+)?(?:this|next|today|tomorrow|\w+day|\w+ber|january|february|march|april|may|june|july|"
    r"august)|this\s+(?:year|season|term)(?!'s|’s)|from\s+(?:january|february|march|april|may|june|july|august|"
    r"september|october|november|december)|no\s+longer|any\s*more|"
    # a bare "now" in the languages the engine reads (facts39): the frame said again and no word of its own still needed
    r"now|ahora|jetzt|nun|maintenant|desormais|agora|adesso|ora|nu|voortaan|tegenwoordig)\b")
_BARE_NOW = re.compile(r"\b(?:now|ahora|jetzt|nun|maintenant|agora|adesso|ora|nu)\b")  # (not "voortaan": from now on)
_WHILE = re.compile(r"\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|morning|afternoon|evening|month)|"
                    r"next\s+week|for\s+(?:now|the\s+(?:week|day|weekend|time\s+being)|a\s+(?:week|while|bit|few)|"
                    r"\w+\s+(?:days|weeks))|until|till|meanwhile|temporarily|on\s+(?:holiday|leave)|off\s+sick|while|"
                    r"in\s+the\s+meantime|one-off|just\s+once)\b")
WHILE = _WHILE  # (a while: memengine/fact_cause.py reads it too)
_MARKER_WORDS = frozenset("from now on going forward here henceforth instead these days nowadays as of starting this "
                          "next year season term month week no longer any anymore more ahora jetzt nun maintenant "
                          "desormais agora adesso ora voortaan tegenwoordig".split())
# a word naming an occurrence of the older's activity, not a thing of its own ("Running club sessions are Tuesdays
# now" / "Running club trains on Wednesday evenings", facts39)
_OCCURRENCE = frozenset("""session sessions meeting meetings class classes lesson lessons practice practices training
    trainings rehearsal rehearsals sesion sesiones clase clases reunion reuniones entrenamiento entrenamientos ensayo
    ensayos sitzung sitzungen termin termine probe proben kurs kurse treffen seance seances cours entrainement
    entrainements repetition repetitions sessione sessioni lezione lezioni riunione riunioni allenamento allenamenti
    sessao sessoes aula aulas reuniao reunioes treino treinos ensaio ensaios sessie sessies les lessen repetitie
    repetities bijeenkomst bijeenkomsten vergadering vergaderingen""".split())
_ORDINALS = frozenset("""first second third fourth fifth sixth seventh eighth ninth tenth last
    erste ersten zweite zweiten dritte dritten vierte vierten letzte letzten premier premiere deuxieme troisieme
    quatrieme dernier derniere primero primera segundo segunda tercero tercera cuarto cuarta ultimo ultima primeiro
    primeira terceiro terceira quarto quarta primo prima secondo seconda terzo terza ultimo ultima eerste tweede derde
    vierde laatste""".split())
_AUX = frozenset("are is was were has have had been being get gets got does did done".split())
_LEFT = re.compile(r"\b(?:instead\s+of|rather\s+than|not|from|off|left|dropped|ditched)\s+(?:the\s+)?$")
_WORD = re.compile(r"[^\W_]+(?:[:.'’][^\W_]+)*")
_TIME = re.compile(r"^\d{1,2}(?:[:.]\d\d)?(?:am|pm)?$|^\d{1,2}(?:am|pm)$")


def _kind(word: str, first: bool) -> str:
    """The kind of value ``word`` is ("" for none): a clock time, a day, a month, an ordinal, a number, a name."""
    k = fold_text(word)
    if k in WEEKDAYS or k.removesuffix("s") in WEEKDAYS:
        return "day"
    if k in MONTHS:
        return "month"
    if k in _ORDINALS:
        return "ordinal"
    if re.search(r"\d(?::\d\d)?(?:am|pm)$", k) or re.match(r"^\d{1,2}[:.]\d\d$", k):
        return "time"
    if k.replace(".", "").replace(",", "").isdigit():
        return "number"
    if k in TITLES or k in STOPWORDS:
        return ""
    return "name" if written_as_name(word, first) else ""


# a place said after a preposition of place, up to the clause's end ("in het dorpshuis", "in de kantine van de
# tennisclub", "at the scout hut"): a value of its own kind, in lower case too (Dutch and German nouns, facts39)
_PLACE = re.compile(r"(?:^|\s)(?:in|at|im|op|bij|nel|nella|nello|dans)\s+(?:(?:the|de|het|der|dem|den|la|le|il|lo|l')\s*)?"
                    r"([^,;.:()]+)")


def _places(text: str) -> set[str]:
    """The folded words of ``text``'s places (see :data:`_PLACE`)."""
    out: set[str] = set()
    for m in _PLACE.finditer(fold_text(text)):
        words = _WORD.findall(m.group(1))
        if words and not any(w in WEEKDAYS or w in MONTHS or w.isdigit() for w in words):
            out.update(w for w in words if w not in STOPWORDS and len(w) > 2)
    return out


def _read(text: str) -> tuple[list[str], dict[str, set[str]]]:
    """The frame (content words left once values are masked) and the values by kind of ``text``."""
    frame: list[str] = []
    values: dict[str, set[str]] = {}
    places = _places(text)
    for i, w in enumerate(_WORD.findall(text)):
        kind = _kind(w, i == 0)
        k = fold_text(w)
        if not kind and k in places:
            kind = "place"
        if kind:
            values.setdefault(kind, set()).add(k)
        elif k not in STOPWORDS and k not in _AUX and len(k) > 2 and k not in ("user", "users"):
            frame.append(k.removesuffix("'s").removesuffix("’s"))
    return frame, values


def _one(a: str, b: str) -> bool:
    """One word: inflected alike, or a compound and its head ("imkervereniging" / "vereniging", facts39)."""
    return same_word(a, b) or len(a) >= 5 and len(b) >= 5 and (a.endswith(b) or b.endswith(a))


def _said_left(new: str, value: str) -> bool:
    """Whether the newer says ``value`` only as what was left ("instead of the Google Form", "not 0192")."""
    ln = fold_text(new)
    for m in re.finditer(rf"(?<![\w]){re.escape(value)}(?![\w])", ln):
        if not _LEFT.search(ln[max(0, m.start() - 20):m.start()]):
            return False
    return True


def shifted(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` says a shift in time, the older's slot and another value of the older's kind
    (see the module docstring), else None."""
    ln = fold_text(new)
    marker = _SHIFT.search(ln)
    if marker is None or _WHILE.search(ln) or fact_mood.unasserted(new):
        return None
    if _BARE_NOW.fullmatch(marker.group(0)) and _BARE_NOW.search(fold_text(old)):
        return None  # (the older says "now" too: "Als Datenbank nutzt der Webserver jetzt …", no shift between them)
    old_frame, old_values = _read(old)
    new_frame, new_values = _read(new)
    if set(new_frame) & ADDING or set(old_frame) & ADDING or set(_WORD.findall(ln)) & ADDING - _ORDINALS:
        return None  # (one more: "Nina now also uses Obsidian", whose "also" is no frame word)
    owners = {fold_text(m.group(1)) for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", old)}
    if any(fold_text(m.group(1)) not in owners for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", new)):
        return None  # a possessor of its own ("Ciaran's galleries …", "Emma's son is in fifth grade this year")
    new_frame = [k for k in new_frame if k not in _MARKER_WORDS]
    shared = [k for k in dict.fromkeys(old_frame) if any(_one(k, n) for n in new_frame)]
    if len(shared) < 2 or 2 * len(shared) < len(set(old_frame)):
        return None
    own = [n for n in dict.fromkeys(new_frame) if not any(_one(n, k) for k in old_frame) and n not in _OCCURRENCE]
    if own:
        return None
    if _BARE_NOW.fullmatch(marker.group(0)) and sum(
            bool(new_values.get(kind, set()) - olds) for kind, olds in old_values.items()) > 1:
        return None  # (a bare "now" and two kinds of value changed: another thing's, "the Kafka cluster has 9 nodes now")
    for kind, olds in old_values.items():
        news = new_values.get(kind, set()) - olds
        # (a word of the older's value said again is its kind's word: "Kings Seeds" / "Real Seeds")
        if news and any(o not in new_values.get(kind, set()) or _said_left(new, o) for o in olds):
            return Verdict("slot", f"{REASON}: {marker.group(0)!r}, {sorted(olds)[0]} -> {sorted(news)[0]}", 0.8)
    return None
