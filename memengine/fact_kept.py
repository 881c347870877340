"""What an update says did NOT change, taken off before the rules read it: "moved practice to wednesdays,
same time", "got moved up to the 7th, still elm street", "passe au mardi, toujours 18h30", "verschoben auf
den 11., gleiche Uhrzeit", "mismo sitio", "mesmo horário", "stessa ora".

The kept part restates the older slot; it is no new value and no new subject. Left in, it hides the
change: "still" and "same" read as "nothing changed" or as a second subject, and a word of it can read as
a change marker (Italian "stessa **ora**" is "same hour", not "now"), so a look-alike ("la lezione di
piano è il mercoledì, stessa ora") would be taken for an update of "la lezione di chitarra". :func:`without`
gives the newer sentence without its kept clauses, for one older fact:

1. **same + a slot noun** ("same time", "same place as usual", "gleiche Uhrzeit", "même heure", "misma
   hora", "mesmo horário", "stesso posto"): kept whatever the older says, a clause of its own (between
   commas, a dash or a semicolon, or the sentence's end);
2. **still + what the older says** ("still elm street", "toujours 20h", "immer noch im Gemeindehaus",
   "sigue en el centro", "ainda no clube", "sempre alle 17"): kept only when every word and number after
   the marker is the older's (the same stem); "still at the old office" against an older that names no
   office is a new fact, not a kept part.

3. **another part still** (facts35): a later clause whose "still" has a subject of its own that neither the older
   nor the newer's first clause names ("…; staging still deploys from develop", "…; waste is still collected on
   Fridays") says what stays of another thing, not that the older's value stays: taken off, so the "still" veto
   (memengine/fact_clause_veto.py) reads the change the first clause says. No head ("…, still at Ashley Down"), or a
   head the older names, and the veto stays.

The sentence keeps at least two words (else it is returned whole). Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import STOPWORDS, fold_text, same_stem

__all__ = ["without"]

# "same" in six languages (folded), and the nouns of a slot it keeps.
_SAME = (r"(?:the\s+)?same|(?:die|der|das|den|dem|zur|zum|am|im)?\s*(?:gleiche[nrms]?|selbe[nrms]?|dieselbe|derselbe|"
         r"dasselbe)|(?:a\s+la\s+|au\s+|le\s+|la\s+|a\s+)?meme|(?:a\s+la\s+|en\s+el\s+|el\s+|la\s+|a\s+)?mism[oa]|"
         r"(?:no\s+|na\s+|o\s+|a\s+)?mesm[oa]|(?:alla\s+|allo\s+|nello\s+|nella\s+|nel\s+|lo\s+|la\s+|il\s+|allo\s+)?"
         r"stess[oa]")
_SLOT_NOUNS = (r"time|times|hour|place|spot|venue|location|room|address|day|price|court|field|pitch|"
               r"uhrzeit|zeit|ort|raum|stelle|tag|adresse|preis|platz|halle|"
               r"heure|horaire|endroit|lieu|salle|jour|adresse|prix|terrain|"
               r"hora|horario|sitio|lugar|sala|dia|direccion|precio|cancha|"
               r"horario|local|endereco|preco|quadra|"
               r"ora|orario|posto|luogo|giorno|indirizzo|prezzo|campo|palestra")
_AS_BEFORE = (r"(?:\s+(?:as\s+(?:before|usual|always|ever|last\s+time)|wie\s+(?:immer|vorher|bisher|sonst)|"
              r"que\s+(?:d'habitude|d'hab|avant|toujours|antes|siempre|sempre)|qu'avant|de\s+(?:siempre|sempre)|"
              r"di\s+(?:sempre|prima)|como\s+(?:siempre|sempre|antes)|come\s+(?:sempre|prima)))?")
_SAME_RE = re.compile(rf"^(?:{_SAME})\s+(?:{_SLOT_NOUNS}){_AS_BEFORE}(?:\s+(?:and|und|et|y|e)\s+(?:(?:{_SAME})\s+)?(?:{_SLOT_NOUNS}))?$")
# "still" in six languages (folded), followed by what stays.
_STILL_RE = re.compile(r"^(?:but\s+|aber\s+|mais\s+|pero\s+|mas\s+|ma\s+)?(?:still|toujours|immer\s+noch|noch\s+immer|"
                       r"weiterhin|sigue\s+siendo|sigue|todavia|ainda|continua|ancora|sempre)\s+(?P<rest>.+)$")
# the same with a short subject of its own before the marker (facts33): "pyenv still manages it", "delivery still on
# Saturday morning", "la entrega sigue los sábados" (an agent's note restating the part that stays)
_HEAD_STILL_RE = re.compile(r"^(?:and\s+|but\s+|und\s+|aber\s+|et\s+|mais\s+|y\s+|pero\s+|e\s+|mas\s+|ma\s+)?"
                            r"(?P<head>[^\W\d_]+(?:\s+[^\W\d_]+)?)\s+(?:still|toujours|immer\s+noch|noch\s+immer|"
                            r"weiterhin|sigue|siguen|todavia|ainda|continua|ancora)\s+(?P<rest>.+)$")
# "still" said of another part, with a subject of its own the older never names (facts35): "Deploys are frozen from
# Thursday 17:00 now; staging still deploys from develop", "The safety officer is Hannah Cole now; waste is still
# collected on Fridays", "Free UK shipping starts at £50 now; the Etsy listings still mirror Shopify"
_OTHER_STILL_RE = re.compile(r"^(?:and\s+|but\s+|while\s+|und\s+|aber\s+|et\s+|mais\s+|y\s+|pero\s+|e\s+|mas\s+|"
                             r"ma\s+)?(?P<head>[^\W\d_]+(?:\s+[^\W\d_]+){0,3}?)\s+(?:(?:is|are|was|were|ist|sind|est|sont|"
                             r"es|son|e|sao)\s+)?(?:still|toujours|immer\s+noch|noch\s+immer|weiterhin|sigue|siguen|"
                             r"todavia|ainda|ancora)\s+(?P<rest>.+)$")
# a clause's edges: comma, semicolon, dash between spaces, parentheses, the sentence's end
_CLAUSE_RE = re.compile(r"\s*(?:[,;()]|\s[-–—]\s)\s*")
_WORD_RE = re.compile(r"[^\W_]+")


def _restates(rest: str, old_words: list[str]) -> bool:
    """Whether every word and number of ``rest`` (folded) is one of the older's (``old_words``)."""
    words = [w for w in _WORD_RE.findall(rest) if w not in STOPWORDS]
    if not words or len(words) > 5:
        return False
    for w in words:
        if w.isdigit() or any(c.isdigit() for c in w):
            if w not in old_words and not any(re.sub(r"\D", "", w) == re.sub(r"\D", "", o) != "" and
                                               any(c.isdigit() for c in o) for o in old_words):
                return False
        elif not any(same_stem(w, o) for o in old_words):
            return False
    return True


def _another_part(head: str, old_words: list[str], first: str) -> bool:
    """Whether ``head`` (the words before a later clause's "still") names a thing of its own: a content word, none
    of them a word of the older or of the newer's first clause ("Arjun is in Year 5 now, still at Ashley Down" has
    no head: the veto stays; "her brother still lives in York" after "Lucy's brother …" names the older's)."""
    heads = [w for w in _WORD_RE.findall(head) if w not in STOPWORDS and w not in _PRONOUNS]
    said = old_words + _WORD_RE.findall(first)
    return bool(heads) and not any(same_stem(w, o) for w in heads for o in said)


def _restates_pronoun(rest: str, head: str, old_words: list[str]) -> bool:
    """Whether ``head`` is a word of the older and ``rest`` is the older's verb with a pronoun for the older's
    thing ("pyenv still manages it" after "… managed with pyenv")."""
    words = [w for w in _WORD_RE.findall(rest) if w not in STOPWORDS and w not in _PRONOUNS]
    heads = [w for w in _WORD_RE.findall(head) if w not in STOPWORDS]
    return bool(words) and bool(heads) and all(any(same_stem(w, o) for o in old_words) for w in words + heads)


_STILL_WORD_RE = re.compile(r"\b(?:still|toujours|immer|weiterhin|sigue|siguen|todavia|ainda|ancora)\b")
_PRONOUNS = frozenset("it them this that es sie ihn lo la los las le les il elle ils elles".split())


@lru_cache(maxsize=4096)
def without(old: str, new: str) -> str:
    """``new`` without the clauses that say what stays as ``old`` has it (see the module docstring);
    ``new`` itself when it has none."""
    low = fold_text(new)
    if len(low) != len(new):  # (offsets on the folded text must cut the original)
        return new
    cuts = [0]
    for m in _CLAUSE_RE.finditer(low):
        cuts += [m.start(), m.end()]
    cuts.append(len(low))
    spans = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]
    if len(spans) < 2:
        return new
    old_words: list[str] | None = None
    keep: list[tuple[int, int]] = []
    dropped = False
    for a, b in spans:
        clause = low[a:b].strip().rstrip(".!")
        if _SAME_RE.match(clause):
            dropped = True
            continue
        s = _STILL_RE.match(clause)
        if s is not None:
            if old_words is None:
                old_words = _WORD_RE.findall(fold_text(old))
            if _restates(s.group("rest"), old_words):
                dropped = True
                continue
        h = _HEAD_STILL_RE.match(clause) if s is None and keep else None
        if h is not None:  # (never the first clause: the sentence's own subject is no head of a kept part)
            if old_words is None:
                old_words = _WORD_RE.findall(fold_text(old))
            if _restates(h.group("rest"), old_words) or _restates_pronoun(h.group("rest"), h.group("head"), old_words):
                dropped = True
                continue
        o = _OTHER_STILL_RE.match(clause) if s is None and keep else None
        if o is not None:  # (a later clause only, the first holding no "still" of its own: another part stays)
            if old_words is None:
                old_words = _WORD_RE.findall(fold_text(old))
            first = low[keep[0][0]:keep[0][1]]
            if not _STILL_WORD_RE.search(first) and _another_part(o.group("head"), old_words, first):
                dropped = True
                continue
        keep.append((a, b))
    if not dropped or not keep:
        return new
    out = ", ".join(new[a:b].strip() for a, b in keep if new[a:b].strip())
    return out if len(out.split()) >= 2 else new
