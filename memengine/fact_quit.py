"""A person gave up what the older fact says they do (facts29).

"Priya swims at the Leeds International Pool on Tuesdays" / "Priya gave up swimming and joined a climbing wall",
"Javier fuma medio paquete al día" / "Javier ha dejado de fumar", "Katrins Tochter Lina lernt Geige an der
Musikschule" / "Lina hat mit der Geige aufgehört und spielt jetzt Schlagzeug", "La figlia di Giulia, Sofia, fa
danza classica" / "Sofia ha lasciato la danza e adesso gioca a pallavolo". The frame rules read a new value in
the older's frame; memengine/fact_disposed.py reads a value of the older's complement given up, said with the
older's whole subject. Here the newer names the older's *person* as its subject (memengine/fact_person.py:
"Lina" for "Katrins Tochter Lina") and a verb of stopping or giving up (quit, gave up, stopped; arrêté,
abandonné; dejado de, dejó; aufgehört, gekündigt; desistiu, deixou de; smesso, lasciato; gestopt, opgezegd)
whose object is a word of the older outside its subject — its verb ("swims" / "swimming", "fuma" / "fumar")
or its complement ("danza", "Geige") — in the same clause (what comes after "and" / "e" / "und" is what they
took up instead). Then the older no longer holds, whatever comes instead.

Guards: the newer is asserted (memengine/fact_mood.py: "thinking of quitting" is a plan); it names nobody
else before the verb; the older reports no change itself; nothing but function words (and a preposition) stands
between the verb and its object. Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_mood, fact_person
from memengine.fact_align import same_word
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_cue_lexicon import KIN, TITLES
from memengine.fact_disposed import DISPOSAL_VERBS
from memengine.fact_lexicon import CESSATION, LANG_AUX, LANG_COPULA, STOPWORDS, _set, fold
from memengine.fact_types import Verdict

__all__ = ["QUIT_VERBS", "REASON", "gave_up"]

REASON = "activity given up"

# Verbs of stopping or giving up, with the disposal verbs (memengine/fact_disposed.py) and the verbs of stopping
# the lexicon reads as a negation (CESSATION).
QUIT_VERBS = DISPOSAL_VERBS | CESSATION | _set(
    "gave give gives giving given stopped abandoned",
    "arrete arretee arretes abandonne abandonnee renonce",
    "dejado dejo dejaron abandonado abandono",
    "aufgehort gekundigt abgebrochen aufgegeben",
    "desistiu desisti desistiram abandonou parei parou",
    "smesso smessa lasciato lasciata mollato abbandonato",
    "gestopt opgezegd opgegeven verlaten verkocht",
)
# "gave up" / "given up": the verb and its particle; English "give" stops something only with it ("gave it up",
# "has given up rugby"), within _UP_REACH words
_PARTICLES = _set("up")
_GIVE = _set("gave give gives giving given")
_UP_REACH = 3
# verbs said last in their clause (German, Dutch): the object comes before ("hat mit der Geige aufgehört")
_VERB_LAST = _set("aufgehort gekundigt abgebrochen aufgegeben verlassen verkauft", "gestopt opgezegd opgegeven verlaten")
_WITH = _set("mit", "met")
_FUNCTION = STOPWORDS.union(*LANG_AUX.values(), *LANG_COPULA.values()) | _PARTICLES | _set("with") | _WITH
# the words that start what was taken up instead: the clause of giving up ends there
_AND = _set("and but so", "et mais", "y pero", "und aber", "e mas", "e ma", "en maar")
REACH = 4  # tokens from the verb to its object (function words only in between)
_WORD = re.compile(r"[^\W\d_]+")
_CLAUSE = re.compile(r"[,;.!?:()]")


def _content(text: str, start: int = 0) -> list[str]:
    """The folded content words of ``text`` from word ``start``."""
    return [k for k in (fold(w) for w in _WORD.findall(text)[start:]) if k not in STOPWORDS and len(k) > 2]


def _object(words: list[str], verb: int) -> list[str]:
    """The words a verb of giving up at ``verb`` governs: after it (function words between) or, for a verb
    said last, before it back to the clause's subject."""
    out: list[str] = []
    if words[verb] in _VERB_LAST and not (verb + 1 < len(words) and words[verb + 1] in _WITH):
        for k in reversed(words[max(0, verb - REACH - 1):verb]):
            if k in _FUNCTION:
                continue
            out.append(k)
        return out
    # (a Dutch or German participle with its object after it, "is gestopt met hockey": read forward)
    for k in words[verb + 1:verb + 2 + REACH]:
        if k in _AND or k in QUIT_VERBS and k not in _PARTICLES:
            break
        if k in _FUNCTION:
            continue
        out.append(k)
        if len(out) == 2:
            break
    return out


def gave_up(old: str, new: str) -> Verdict | None:
    """A verdict when ``new`` says the older's person gave up what ``old`` says they do, else None (see the
    module docstring)."""
    if not fact_person.same_person(old, new) or fact_mood.unasserted(new):
        return None
    old_words = [fold(w) for w in _WORD.findall(old)]
    if set(old_words) & (QUIT_VERBS | CHANGE_WORDS | NOW_WORDS):
        return None  # the older reports a change itself
    people = fact_person.subject_names(new)
    said = {fold(w) for w in _WORD.findall(old)}
    # the older's words outside whom it is about: its verb and complement
    value = [k for k in _content(old) if k not in fact_person.subject_names(old) and k not in KIN
             and k not in TITLES and not any(k.startswith(p) for p in fact_person.subject_names(old))]
    if not value:
        return None
    for clause in _CLAUSE.split(new):
        words = [fold(w) for w in _WORD.findall(clause)]
        for j, k in enumerate(words):
            if k not in QUIT_VERBS or k in _PARTICLES:
                continue
            if k in _GIVE and "up" not in words[j + 1:j + 1 + _UP_REACH]:
                continue  # "is giving a talk at the Manchester meetup": giving, not giving up
            before = [w for w in words[:j] if w not in _FUNCTION and w not in QUIT_VERBS]
            if k in _VERB_LAST:
                before = before[:1]  # ("Femke heeft haar tuintje opgezegd": the rest is the object)
            if any(w not in people and w not in said and w not in NOW_WORDS for w in before):
                break  # someone or something else gave it up ("Tom quit the club")
            for obj in _object(words, j):
                hit = next((v for v in value if same_word(obj, v)), None)
                if hit is not None:
                    return Verdict("slot", f"{REASON}: {obj}", 0.8)
    return None
