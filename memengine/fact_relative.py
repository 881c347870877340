"""A value moved by a relative word: the newer names the older's slot and says how it moved, not where to.

Agents and people note a change as a factor or a shift: "the Q3 marketing budget doubled", "halved the API
rate limit", "il limite di upload è stato triplicato", "pushed the launch a week", "Release um zwei Wochen
verschoben", "la demo con el cliente se adelantó un día". No new value is given, so neither the frame rules
nor the shorthand reader (memengine/fact_swap.py) see one; yet the older's value is no longer true.

:func:`moved_by` accepts a pair when

1. the newer says a factor ("doubled", "verdoppelt", "doublé", "duplicó", "dobrou", "raddoppiato",
   "verdubbeld", "halved", "cut in half" ...) or a percentage with a change word, and the older gives a
   number; or a verb of putting off / bringing forward with a duration ("a week", "zwei Wochen", "un día"),
   and the older gives a date, a day or a time;
2. every content word of the newer beyond those words repeats a word of the older ("the Q3 *travel* budget
   doubled", "pushed the *offsite* a week" name another thing), and every content word of the older before its
   value (its subject) is one of them ("sales doubled" does not move "the sales target"; "the gym's fee doubled"
   is not "the fee"); a shift does not move a recurring older ("releases go out on Thursday mornings");
3. both are asserted (memengine/fact_mood.py: "our API rate limit should be halved", "¿adelantamos la demo un
   día?" are not).

What vetoes any verdict (another owner, a one-off, another instance) vetoes it too
(memengine/supersession.py). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_cue, fact_mood
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, WEEKDAYS, fold, fold_text, same_stem
from memengine.fact_template import same_inflection

__all__ = ["FACTORS", "SHIFTS", "moved_by"]


def _words(*groups: str) -> frozenset[str]:
    return frozenset(fold(w) for g in groups for w in g.split())


# A factor the value was multiplied or divided by (folded).
FACTORS = _words(
    "doubled doubles tripled triples quadrupled halved halves",
    "double doublé doublée doublés doublées doublent triplé triplée triplés triplées",
    "duplicó duplicado duplicada duplicaron duplicamos triplicó triplicado triplicada triplicaron",
    "verdoppelt verdoppelte verdoppelten verdreifacht verdreifachte halbiert halbierte",
    "dobrou dobraram dobrado dobrada duplicou duplicaram triplicou triplicaram",
    "raddoppiato raddoppiata raddoppiati raddoppiate triplicato triplicata triplicati dimezzato dimezzata dimezzati",
    "verdubbeld verdubbelde verdrievoudigd gehalveerd halveerde",
)
# Two-word factors ("cut in half", "divisé par deux", "a la mitad", "pela metade", "della metà").
_FACTOR_PHRASES = re.compile(
    r"(?<!\w)(?:in half|by half|par deux|de moitie|a la mitad|por la mitad|pela metade|para metade|para a metade"
    r"|alla meta|della meta|di meta)(?!\w)")
# A percentage said to move it ("went up 10%", "a augmenté de 10 %", "um 5 Prozent erhöht").
_PERCENT = re.compile(r"\d\s*(?:%|percent\b|per cent\b|pour cent\b|por ciento\b|prozent\b|por cento\b"
                      r"|per cento\b|procent\b)")
_RISE_FALL = _words(
    "up down rose raised increased cut reduced dropped fell grew went",
    "augmenté augmentée augmente baissé baissée baisse réduit réduite",
    "subió subido subieron bajó bajado aumentó aumentado reducido",
    "gestiegen erhöht erhoht gesenkt gesunken reduziert",
    "subiu aumentou aumentado baixou reduzido",
    "aumentato aumentata salito salita sceso scesa ridotto ridotta calato",
    "gestegen verhoogd verlaagd gedaald",
)
# Putting off or bringing forward (a duration says by how much).
SHIFTS = _words(
    "pushed postponed delayed slipped moved shifted bumped",
    "décalé décalée repoussé repoussée reporté reportée avancé avancée retardé retardée",
    "adelantó adelantado adelantada adelantaron atrasó atrasado atrasada retrasó retrasado retrasada aplazado "
    "aplazada aplazaron pospuesto pospuesta pospusieron",
    "verschoben verlegt vorgezogen verschob",
    "adiado adiada adiou adiaram antecipado antecipada antecipou antecipamos atrasou atrasado atrasada",
    "rinviato rinviata posticipato posticipata anticipato anticipata spostato spostata slittato slittata",
    "uitgesteld verschoven vervroegd verzet",
)
# A duration: a count (a digit, "a", "one", "two", "zwei", "un", "deux" ...) and a unit of time.
_COUNT = _words(
    "a an one two three four few couple",
    "un une deux trois quatre quelques",
    "un una uno dos tres cuatro unos unas",
    "ein eine einen einem zwei drei vier paar",
    "um uma dois duas tres quatro",
    "un uno una due tre quattro",
    "een twee drie vier paar",
)
_UNITS = _words(
    "day days week weeks month months hour hours",
    "jour jours semaine semaines mois heure heures",
    "día días semana semanas mes meses hora horas",
    "tag tage tagen woche wochen monat monate monaten stunde stunden",
    "dia dias semana semanas mês meses hora horas",
    "giorno giorni settimana settimane mese mesi ora ore",
    "dag dagen week weken maand maanden uur",
)
# A standing schedule, not one date (folded).
_RECURRING = _words(
    "every each daily weekly monthly mondays tuesdays wednesdays thursdays fridays saturdays sundays mornings "
    "evenings afternoons nights weekends",
    "chaque tous toutes hebdomadaire quotidien",
    "cada todos todas semanal diario",
    "jeden jede jedes jeweils täglich wöchentlich montags dienstags mittwochs donnerstags freitags samstags sonntags "
    "morgens abends",
    "toda todos semanal diário",
    "ogni tutti tutte settimanale quotidiano",
    "elke iedere wekelijks dagelijks",
)
# Words that say nothing of the slot beyond the marker ("has", "been", "got", "è stato", "se ha", "by", "um").
_EMPTY = _words("got been stato stata stati state wurde wurden foi sido ist est heeft is werd zijn is het een")


def _duration(keys: list[str], digits: list[bool]) -> set[int]:
    """Positions of a count and a time unit right after it ("a week", "zwei Wochen", "3 days")."""
    out: set[int] = set()
    for i in range(len(keys) - 1):
        if (keys[i] in _COUNT or digits[i]) and keys[i + 1] in _UNITS:
            out.update((i, i + 1))
    return out


def _content(toks: list[fact_cue.Tok], skip: set[int]) -> list[str]:
    """Content words of ``toks`` outside ``skip`` (fact_cue's reading: no function, copula or "now" word)."""
    return [t.key for i, t in enumerate(toks) if i not in skip and t.word and len(t.key) >= 3
            and t.key not in fact_cue.NOT_CONTENT and t.key not in _EMPTY]


def _subject(toks: list[fact_cue.Tok]) -> list[str]:
    """The older's content words before its first value (a digit, a day, a month): its subject."""
    end = next((i for i, t in enumerate(toks) if t.text[:1].isdigit() and not (i and toks[i - 1].cap and len(
        toks[i - 1].key) <= 2) or t.key in WEEKDAYS or t.key in MONTHS or t.key in SHORT_WEEKDAYS), len(toks))
    # (a digit after a capital is part of a name: "Q3", "S3", "T14")
    return _content(toks[:end], set())


@lru_cache(maxsize=1024)
def _marked(new: str) -> tuple[str, list[fact_cue.Tok], frozenset[int]] | None:
    """The kind of move ``new`` says ("factor" or "shift"), its tokens and the positions of the words that
    say it (the marker and the duration), or None: read once a write, whatever the candidate."""
    if len(new) > 120:
        return None
    toks = fact_cue.tokens(new)
    keys = [t.key for t in toks]
    low = fold_text(new)
    digits = [t.text[:1].isdigit() for t in toks]
    marker: set[int] = {i for i, k in enumerate(keys) if k in FACTORS}
    kind = "factor" if marker or _FACTOR_PHRASES.search(low) else ""
    if not kind and _PERCENT.search(low) and any(k in _RISE_FALL for k in keys):
        kind, marker = "factor", {i for i, k in enumerate(keys) if k in _RISE_FALL or digits[i]}
    span = _duration(keys, digits)
    if not kind and span and any(k in SHIFTS for k in keys):
        kind, marker = "shift", span | {i for i, k in enumerate(keys) if k in SHIFTS}
    if not kind:
        return None
    if kind == "factor":
        marker |= {i for i, k in enumerate(keys) if k in _RISE_FALL or k in ("in", "half", "moitie", "mitad",
                                                                                  "metade", "meta", "deux")}
    return kind, toks, frozenset(marker | span)


@lru_cache(maxsize=4096)
def moved_by(old: str, new: str) -> str:
    """How ``new`` says ``old``'s value moved ("doubled", "pushed ... a week"), when it names ``old``'s slot
    and nothing else (see the module docstring), else ""."""
    read = _marked(new)
    if read is None:
        return ""
    kind, toks, marker = read
    otoks = fact_cue.tokens(old)
    if kind == "factor" and not any(t.text[:1].isdigit() for t in otoks):
        return ""  # (a number to multiply)
    if kind == "shift" and not any(t.text[:1].isdigit() or t.key in WEEKDAYS or t.key in MONTHS
                                   or t.key in SHORT_WEEKDAYS for t in otoks):
        return ""  # (a date, a day or a time to move)
    mine = _content(toks, set(marker))
    theirs = _content(otoks, set())
    if not mine or any(not any(w == o or same_inflection(w, o) or same_stem(w, o) for o in theirs) for w in mine):
        return ""  # (another thing, or no subject at all)
    subject = _subject(otoks)
    if not subject or not all(any(w == o or same_inflection(w, o) or same_stem(w, o) for w in mine) for o in subject):
        return ""  # (a part of the older's subject: "sales doubled" / "the sales target is 1M")
    if kind == "shift" and any(t.key in _RECURRING for t in otoks):
        return ""  # (a standing schedule is not put off by a week: "releases go out on Thursday mornings")
    if fact_mood.unasserted(new) or fact_mood.unasserted(old):
        return ""
    return f"{' '.join(dict.fromkeys(mine))}: {' '.join(toks[i].text for i in sorted(marker))}"
