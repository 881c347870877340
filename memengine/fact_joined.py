"""A place I go to left for another, said as joining one and quitting the other: "Voy al gimnasio de la
calle Mayor" / "me apunté al gym nuevo de la plaza, el de la calle mayor lo dejé", "Vado in palestra
alla Virgin di via Roma" / "mi sono iscritto al gym sotto casa, la virgin l'ho disdetta", "I go to
Planet Fitness" / "signed up at the climbing gym, cancelled planet fitness".

The newer names the kind of place by the older's noun or by its loanword (gym / gimnasio / palestra /
academia / Fitnessstudio / salle de sport: :data:`SAME_KIND`), so the stems alone do not tell they are
one slot. :func:`joined` accepts a pair when

1. the older says I go to, train at or belong to a place (first person, six languages) and names it by
   words after its noun ("de la calle Mayor", "alla Virgin", "Planet Fitness");
2. the newer says I joined one (signed up, me apunté, mi sono iscritto, je me suis inscrit, ich bin
   ... angemeldet, me inscrevi, matriculei) and quit the other (cancelled, lo dejé, l'ho disdetta,
   résilié, gekündigt, cancelei), the words it quits all being the older's place words;
3. the kind of place is the same: a word of the newer is the older's noun, its stem or its loanword.

:func:`instead` takes the same shape with any kind on both sides when the newer says the one is *instead*
of the other ("cancelled pottery, joined a life drawing class instead", "yoga gekündigt, bin stattdessen
beim pilates", "dejé la salsa, me apunté a bachata en su lugar", "ho disdetto la piscina, mi sono iscritto
a boxe al suo posto"): what I quit is all the older's words, and nobody but me quits it ("my friend
cancelled pottery", "mi hermana dejó la salsa" are someone else's).

Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood, fact_owner
from memengine.fact_lexicon import STOPWORDS, fold, fold_text
from memengine.fact_lexicon import same_stem as _same
from memengine.fact_types import Verdict

__all__ = ["SAME_KIND", "instead", "joined"]

# One kind of place, named in several languages or by a loanword (folded).
SAME_KIND = tuple(frozenset(g.split()) for g in (
    "gym gyms gimnasio gimnasios gimnas palestra palestre academia academias fitnessstudio fitnessstudios fitness "
    "muckibude salle",
    "pool piscina piscine schwimmbad hallenbad",
    "club clube circolo verein",
))
# Going to / belonging to a place, first person (folded).
_GOES_RE = re.compile(
    r"^\W*(?:i\s+(?:go|train|work\s+out|am\s+a\s+member|'m\s+a\s+member)|i'm\s+a\s+member|my\s+\w+\s+is|"
    r"je\s+(?:vais|m'entraine|suis\s+inscrite?)|ma\s+\w+\s+(?:c'est|est)|mon\s+\w+\s+(?:c'est|est)|"
    r"(?:yo\s+)?(?:voy|entreno|estoy\s+apuntad[oa])|mi\s+\w+\s+es|"
    r"ich\s+(?:gehe|trainiere|bin\s+(?:mitglied|angemeldet))|mein\s+\w+\s+ist|meine\s+\w+\s+ist|"
    r"(?:eu\s+)?(?:vou|treino|malho|frequento)|minha\s+\w+\s+e|meu\s+\w+\s+e|"
    r"(?:io\s+)?(?:vado|mi\s+alleno|sono\s+iscritt[oa])|la\s+mia\s+\w+\s+e|il\s+mio\s+\w+\s+e)\b")
_JOIN_RE = re.compile(
    r"\b(?:joined|signed\s+up|switched\s+to|"
    r"je\s+me\s+suis\s+inscrite?|inscrite?\s+a|"
    r"me\s+apunte|me\s+he\s+apuntado|me\s+inscribi|me\s+hice\s+socio|"
    r"angemeldet|eingeschrieben|"
    r"me\s+inscrevi|me\s+matriculei|entrei\s+n[ao]|"
    r"mi\s+sono\s+iscritt[oa]|mi\s+sono\s+abbonat[oa]|iscritt[oa]\s+a)\b")
_QUIT_RE = re.compile(
    r"\b(?:cancell?ed|quit|left|dropped|"
    r"resilie|resiliee|quitte|arrete|"
    r"deje|lo\s+deje|la\s+deje|cancele|di\s+de\s+baja|me\s+di\s+de\s+baja|"
    r"gekundigt|abgemeldet|aufgehort|"
    r"cancelei|larguei|sai\s+d[ao]|"
    r"disdett[oa]|l'ho\s+disdett[oa]|lasciat[oa]|l'ho\s+lasciat[oa]|cancellat[oa])\b")
# Someone else as the subject of joining (folded): he, she, they, il, elle, el, ella, er, sie, ele, ela, lui, lei.
_OTHERS_RE = re.compile(r"\b(?:he|she|they|il|elle|ils|elles|el|ella|ellos|ellas|er|sie|ele|ela|eles|elas|lui|lei|"
                        r"loro)\b")
_FILLER = frozenset(fold(w) for w in (
    "new nuevo nueva nouveau nouvelle neu neue neues novo nova nuovo nuova the el la le les il lo der die das o a "
    "one uno una un el de del di da do du".split()))


# "instead" in six languages (folded): the newer's thing takes the older's place.
_INSTEAD_RE = re.compile(r"\b(?:instead|stattdessen|dafur|a\s+la\s+place|en\s+su\s+lugar|en\s+vez|en\s+cambio|"
                         r"em\s+vez\s+disso|no\s+lugar|al\s+suo\s+posto|invece)\b")
# doing an activity, first person (folded), besides going to a place (_GOES_RE)
_DOES_RE = re.compile(r"^\W*(?:i\s+(?:do|take|play|have)|je\s+(?:fais|prends|joue)|(?:yo\s+)?(?:hago|tomo|juego)|"
                      r"ich\s+(?:mache|spiele|habe)|(?:eu\s+)?(?:faco|jogo)|(?:io\s+)?(?:faccio|gioco))\b")
# the words that may stand before my quitting: I, the auxiliaries of the perfect (folded)
_MINE = frozenset("i we je j'ai ai yo eu io ich hab habe ho me mi".split())


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[^\W\d_]+", text) if w not in STOPWORDS and w not in _FILLER and len(w) >= 3]


def _kind(words: list[str]) -> set[int]:
    return {k for k, group in enumerate(SAME_KIND) for w in words if w in group}


@lru_cache(maxsize=4096)
def joined(old: str, new: str) -> Verdict | None:
    """A verdict of kind "slot" when ``new`` says I joined another place of ``old``'s kind and quit
    ``old``'s (see the module docstring), else None."""
    lo, ln = fold_text(old), fold_text(new)
    m = _GOES_RE.match(lo)
    if m is None or fact_mood.unasserted(new) or fact_mood.unasserted(old):
        return None
    j, q = _JOIN_RE.search(ln), _QUIT_RE.search(ln)
    if j is None or q is None:
        return None
    if fact_owner.kin_named(new) or _OTHERS_RE.search(ln[:j.start()]):
        return None  # "my wife joined ...", "she signed up ...": someone else's place
    old_words = _words(lo[m.end():])
    new_words = _words(ln)
    if not old_words:
        return None
    # the kind of place: the older's noun, its stem or its loanword, named by the newer
    if not (_kind(old_words) & _kind(new_words) or any(_same(w, old_words[0]) for w in new_words)):
        return None
    # what is quit: the clause around the quit verb, its words all the older's place words
    clause = re.split(r"[,;.]|\b(?:and|y|et|und|e)\b", ln[:q.start()])[-1] + " " + \
        re.split(r"[,;.]|\b(?:and|but|y|pero|et|mais|und|aber|e|mas|ma)\b", ln[q.end():])[0]
    quit_words = [w for w in _words(clause) if not _QUIT_RE.fullmatch(w)]
    if not all(any(_same(w, o) for o in old_words) for w in quit_words) or all(_kind([w]) for w in quit_words):
        return None  # something else quit, or only the kind named ("quit the gym": which?)
    return Verdict("slot", f"joined another ({ln[j.start():j.end()]}), quit '{' '.join(quit_words)}'", 0.75)


@lru_cache(maxsize=4096)
def instead(old: str, new: str) -> Verdict | None:
    """A verdict of kind "slot" when ``new`` says I quit what ``old`` says I go to or do and took up
    another thing instead (see the module docstring), else None."""
    lo, ln = fold_text(old), fold_text(new)
    m = _GOES_RE.match(lo) or _DOES_RE.match(lo)
    if m is None or fact_mood.unasserted(new) or fact_mood.unasserted(old):
        return None
    q, i = _QUIT_RE.search(ln), _INSTEAD_RE.search(ln)
    if q is None or i is None or fact_owner.kin_named(new):
        return None
    old_words = _words(lo[m.end():])
    if not old_words:
        return None
    # the clause I quit in: its words before the verb are mine or what I quit, the older's
    before = re.split(r"[,;.]|\b(?:and|y|et|und|e)\b", ln[:q.start()])[-1]
    after = re.split(r"[,;.]|\b(?:and|but|y|pero|et|mais|und|aber|e|mas|ma)\b", ln[q.end():])[0]
    if any(w not in _MINE and not any(_same(w, o) for o in old_words) for w in re.findall(r"[^\W\d_]+(?:'\w+)?", before)
           if w not in STOPWORDS and w not in _FILLER):
        return None  # someone else quits ("my friend cancelled pottery")
    quit_words = [w for w in _words(before + " " + after) if not _QUIT_RE.fullmatch(w)]
    if not quit_words or not all(any(_same(w, o) for o in old_words) for w in quit_words):
        return None
    # what I took up instead: a word the older does not have, in the rest of the sentence
    rest = ln[:q.start()][:-len(before) or None] + " " + ln[q.end() + len(after):]
    if not any(not any(_same(w, o) for o in old_words) and not _INSTEAD_RE.fullmatch(w) for w in _words(rest)):
        return None
    return Verdict("slot", f"quit '{' '.join(quit_words)}', another instead ({ln[i.start():i.end()]})", 0.75)
