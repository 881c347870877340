"""A standing event held somewhere else from now on: "Le marché bio est le samedi place Carnot" / "le
marché bio se tient désormais place de la mairie", "El mercadillo es los miércoles en la plaza" / "el
mercadillo se muda al recinto ferial a partir de ahora", "Il mercatino si fa in piazza Garibaldi" / "il
mercatino si sposta al parco d'ora in poi", "Pub quiz is at the Crown" / "pub quiz moves to the Anchor".

The older says where the thing takes place (a place preposition and its words, perhaps with its day:
the day is not what changes); the newer moves it there (a verb of moving: moves, is moving, relocated,
se muda, se traslada, déménage, se déplace, zieht um, muda, si sposta, si trasferisce) or says where it
is held with a marker of a standing change (se tient désormais, findet ab jetzt ... statt, vai ser ...
daqui pra frente, from now on). The memengine/fact_cue.py reading cannot take these: the older's day
is a value the newer does not restate, and "se tient" / "si fa" is no copula. :func:`moved` accepts a
pair when

1. every content word the newer names before its verb repeats a word of the older (stem), one at least:
   the same thing ("la feria del libro es en el recinto ferial" names another);
2. the newer's place words are not the older's (a new place), and the older names a place too;
3. the newer is no question, plan or one-off (memengine/fact_mood.py, memengine/fact_occasion.py), adds
   nothing ("also") and keeps nothing ("still").

Someone else's thing is vetoed by memengine/supersession.py (memengine/fact_owner.py). Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood, fact_occasion
from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, fold, fold_text
from memengine.fact_lexicon import same_stem as _same
from memengine.fact_tokens import guess_lang
from memengine.fact_types import Verdict
from memengine.fact_when import OPENERS, TIME_NOUNS

__all__ = ["moved"]

# Moving it: a change by itself (folded).
_MOVES = (r"(?:is|are)\s+moving|moving|moves|moved|relocat\w+|"
          r"demenage|demenagent|se\s+deplace|se\s+deplacent|"
          r"se\s+muda|se\s+mudan|se\s+traslada|se\s+trasladan|se\s+cambia|se\s+cambian|"
          r"zieht|ziehen|umgezogen|"
          r"muda|mudou|mudam|mudaram|"
          r"si\s+sposta|si\s+spostano|si\s+trasferisce|si\s+trasferiscono|trasloca")
# Being held somewhere: a change only with a standing marker.
# (not a bare copula: "my sister is at the hospital now" is no venue; memengine/fact_cue.py reads "is ... now")
_HELD = (r"(?:is|are|will\s+be)\s+held|takes\s+place|take\s+place|se\s+tient|se\s+tiennent|se\s+tiendra|"
         r"aura\s+lieu|a\s+lieu|se\s+fait|se\s+fera|se\s+hace|se\s+hara|se\s+celebra|se\s+celebran|"
         r"findet|finden|vai\s+ser|passa\s+a\s+ser|acontece|si\s+fa|si\s+fara|si\s+tiene|si\s+terra|si\s+svolge")
_STANDING = re.compile(
    r"\b(?:from now on|going forward|from here on|now|desormais|dorenavant|a partir de maintenant|maintenant|"
    r"a partir de ahora|de ahora en adelante|desde ahora|ahora|ab jetzt|von nun an|kunftig|jetzt|"
    r"daqui (?:pra|para) frente|de agora em diante|a partir de agora|agora|d'ora in (?:poi|avanti)|"
    r"da ora in poi|adesso|ora)\b")
# Where: a place preposition (folded), then the place's words.
_WHERE = (r"to|at|in|into|a|au|aux|a\s+la|dans|place|en|al|a\s+los|nach|in|im|ins|am|auf|zum|zur|"
          r"para|pro|pra|no|na|em|ao|alla|allo|al|nel|nella|presso|sotto|da")
_MOVE_RE = re.compile(rf"^(?P<subject>.*?)\b(?P<verb>{_MOVES})\b(?:\s+\w+){{0,2}}?\s+(?:{_WHERE})\s+(?P<place>.+)$")
_HELD_RE = re.compile(rf"^(?P<subject>.*?)\b(?P<verb>{_HELD})\b(?:\s+\w+){{0,2}}?\s+(?:{_WHERE})\s+(?P<place>.+)$")
_OLD_PLACE_RE = re.compile(rf"\b(?:{_WHERE})\s+(?=[^\W\d_])")
# Where someone lives or works is memengine/fact_cue.py's (a move of house, a new job), not a venue.
_LIFE_RE = re.compile(r"\b(?:lives?|living|works?|working|habite|vit|vivent|travaille|vive|viven|trabaja|trabajan|"
                      r"wohnt|wohnen|lebt|arbeitet|mora|moram|trabalha|abita|abitano|lavora|lavorano)\b")
_KEEPS = frozenset("still toujours encore todavia aun sigue noch weiterhin ainda continua ancora sempre".split())
_ADDS = frozenset("also too another aussi tambien ademas auch zusatzlich tambem anche".split())
# Words that are neither the thing nor the place: day and time words, markers, fillers.
_NOT_CONTENT = frozenset(fold(w) for w in (
    "now from on going forward here desormais dorenavant partir maintenant ahora adelante desde jetzt nun kunftig "
    "ab von daqui pra para frente agora diante ora poi avanti adesso d'ora every each chaque cada jeden ogni "
    "week weeks semaine semana woche settimana same meme mismo gleich mesmo stesso lo la le les el los il l "
    "nuovo nuevo nouveau neu new novo nueva nouvelle neue nova nuova").split())


_WHEN = frozenset(WEEKDAYS) | frozenset(MONTHS) | OPENERS | TIME_NOUNS | frozenset(
    "tonight tomorrow weekend later soon afternoon morning evening night ce soir demain manana noche abend morgen "
    "amanha noite stasera domani sera".split())


def _low(text: str) -> str:
    return fold_text(text).strip(" .!")


def _words(text: str) -> list[str]:
    # (a day, a month or "next week" is when, not where: "book club moved to next week" is no new venue)
    return [w for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text)
            if len(w) >= 3 and w not in STOPWORDS and w not in _NOT_CONTENT and w not in _WHEN
            and not re.match(r"^(?:d|l|s)'", w)]


def _place_words(text: str) -> list[str]:
    """The place's words, up to a comma or a standing phrase."""
    text = re.split(r"[,;(]|\s-\s", text)[0]
    return _words(_STANDING.sub(" ", text))


@lru_cache(maxsize=4096)
def moved(old: str, new: str) -> Verdict | None:
    """A verdict of kind "place" when ``new`` says ``old``'s event is held elsewhere from now on (see the
    module docstring), else None."""
    lo, ln = _low(old), _low(new)
    if len(ln) > 160 or fact_mood.unasserted(new) or fact_mood.unasserted(old) or fact_occasion.one_off(old, new):
        return None
    keys = set(re.findall(r"[^\W\d_]+", ln))
    if keys & _KEEPS or keys & _ADDS:
        return None
    m = _MOVE_RE.match(ln)
    if m is None:
        m = _HELD_RE.match(ln)
        if m is None or not _STANDING.search(ln):
            return None
    subject = _words(m.group("subject"))
    old_words = _words(lo)
    if not subject or not all(any(_same(w, o) for o in old_words) for w in subject):
        return None  # another thing, or nothing named
    # (German writes every noun capitalised: its names are not told apart so)
    names = {fold(n) for n in re.findall(r"\b[A-Z][\w']+", old)} if guess_lang(old) != "de" else set()
    if _LIFE_RE.search(lo) or all(w in names for w in subject):
        return None  # where someone lives or works, or someone named who moved ("Ben moved to Bristol")
    place = _place_words(m.group("place"))
    # the older's place: after its last place preposition followed by words other than the thing's
    old_place: list[str] = []
    for po in _OLD_PLACE_RE.finditer(lo):
        words = [w for w in _place_words(lo[po.end():]) if not any(_same(w, x) for x in subject)]
        if words:
            old_place = words
    if not place or not old_place or any(_same(w, o) for w in place for o in old_place + subject):
        return None  # the same place (or its words are the thing's)
    return Verdict("place", f"'{' '.join(subject)}' now held at {' '.join(place)} (was {' '.join(old_place)})", 0.75)
