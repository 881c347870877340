"""The older fact's value given up: "Nadia works at the public library" / "Nadia quit the library, she's
doing freelance translation now", "we track bugs in jira" / "killed jira, everything's in linear now",
"trabalho na ambev" / "saí da ambev, agora tô na natura", "lavoro da fiat" / "ho lasciato fiat, ...".

The frame rules (memengine/facts.py) and the cue (memengine/fact_cue.py) want the new value in a form
they can read (a capitalised name, a number, the old sentence's frame); chat types names in lower case
and names the new holder in words of its own. What they share is structural: the newer sentence gets rid
of the older's value — a verb of leaving or disposing (quit, left, ditched, cancelled, sold, killed, gave
away; quitté, résilié, vendu; dejé, cancelé, salí de; gekündigt, verkauft, verlassen; saí, cancelei,
larguei; lasciato, disdetto, venduto, mollato) whose object is a word of the older fact's complement (its
value: outside its subject, not its verb). Then the older fact no longer holds, whatever comes instead.

Guards: the older fact states no number, time or date (a disposal does not say what a number became);
the newer is asserted (compare checks its mood), names no other owner, and keeps the older's subject
(its words, or a first person on both sides); nothing but function words stands between the verb and
the value ("left my keys at the library" leaves the keys).
Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_scope
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import KIN, TITLES
from memengine.fact_lexicon import CESSATION, LANG_AUX, LANG_COPULA, STOPWORDS, _set, fold
from memengine.fact_view import Fact

__all__ = ["DISPOSAL_VERBS", "SWAP_VERBS", "disposed", "slot_swapped"]


# Verbs of leaving or getting rid of (past forms and the present of chat), six languages.
DISPOSAL_VERBS = _set(
    "quit quits left ditched dumped cancelled canceled killed sold retired dropped scrapped",
    "quitte quittee quittes resilie resiliee annule annulee vendu vendue lache lachee abandonne abandonnee",
    "deje dejo dejamos cancele cancelo cancelamos vendi vendio vendimos sali salio salimos abandone",
    "gekundigt verkauft verlassen aufgegeben abgemeldet abbestellt",
    "sai saiu saimos cancelei cancelou cancelamos vendi vendeu vendemos larguei largou deixei deixou",
    "lasciato lasciata lasciati disdetto disdetta venduto venduta mollato mollata cancellato cancellata",
)
# "gave it away", "got rid of": two words
_TWO_WORD = (("gave", "away"), ("got", "rid"), ("given", "up"))
_FUNCTION = STOPWORDS.union(*LANG_AUX.values(), *LANG_COPULA.values())
REACH = 3  # tokens from the verb to the value (function words only in between)


def _departed(toks: list, j: int) -> bool:  # type: ignore[type-arg]
    """Whether token ``j`` is the object of a disposal verb: one of them before it with only function
    words between ("quit the library", "saí da ambev"), or right after it, verb last ("Passat verkauft",
    "bei Siemens gekündigt")."""
    for d in range(1, REACH + 2):
        i = j - d
        if i < 0 or toks[i].kind != "word":
            break
        k = fold(toks[i].low)
        if k in DISPOSAL_VERBS or any(k == b and i > 0 and fold(toks[i - 1].low) == a for a, b in _TWO_WORD):
            return True
        if k not in STOPWORDS:
            break
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    return nxt is not None and nxt.kind == "word" and fold(nxt.low) in _set(
        "verkauft gekundigt verlassen aufgegeben abgemeldet")


def disposed(fa: Fact, fb: Fact) -> str | None:
    """The older fact's value word that ``fb`` gives up, or None (see the module docstring)."""
    if fa.values or fa.polarity or not fb.keys & DISPOSAL_VERBS | {"rid", "away"}:
        return None
    if any(fold(n) not in CESSATION for n in fb.negations):
        return None  # "I didn't quit the library" (a verb of stopping is the disposal itself: "quit", "dejó")
    if fa.keys & DISPOSAL_VERBS or fa.change:
        return None  # the older reports a change itself ("We ditched Slack, ...")
    kind, who = fact_scope.owner(fb.text)
    if kind == "other" and not who <= fact_scope.owner(fa.text)[1]:
        return None  # "my sister quit the library": someone else's
    subject = [w.key for w in fa.words[:fa.subject_end]]
    if not all(any(same_word(k, x) for x in fb.keys) for k in subject):
        return None  # the older's subject is not spoken of ("Jonas hat bei Siemens gekündigt" / "Ich arbeite ...")
    value = [w.key for i, w in enumerate(fa.words) if i >= fa.subject_end and i != fa.predicate
             and not w.key.startswith("AX:")]
    if not value:
        return None
    parts = {v for part in value for v in part.split(" ") if v not in TITLES}
    for clause in re.split(r"[,;.!?:()]", fb.text):  # (the tokens keep no comma: "Tom left, so now Priya ...")
        toks = list(fact_scope.tokens(clause))
        verb = next((j for j, t in enumerate(toks) if t.kind == "word" and fold(t.low) in DISPOSAL_VERBS), None)
        if verb is None:
            continue
        if any(t.kind == "word" and fold(t.low) not in _FUNCTION and fold(t.low) not in fa.keys for t in toks[:verb]):
            return None  # "Stefan hat Siemens verlassen" after "Ich arbeite bei Siemens", "Tom quit the town
            # hall, so now Priya ...": someone else gave it up
        for j, t in enumerate(toks):
            if t.kind == "word" and any(same_word(fold(t.low), v) for v in parts) and _departed(toks, j):
                return t.text
    return None


# Verbs of changing a thing for another of its kind, said with the slot as object ("changed dentist",
# "j'ai changé de coiffeur", "me cambiaron de médico", "den Zahnarzt gewechselt", "troquei de dentista",
# "ho cambiato numero").
SWAP_VERBS = _set(
    "changed switched swapped change switch swap",
    "change changes changeons changer",
    "cambie cambio cambiamos cambiaron cambiado",
    "gewechselt wechseln gewechselt",
    "troquei trocou trocamos trocaram mudei mudou mudamos mudaram",
    "cambiato cambiata cambiati",
)
_SWAP_VERB_LAST = _set("gewechselt")
_AMOUNTS = frozenset(("number", "money", "time", "date", "weekday"))


def _swapped_at(toks: list, j: int) -> bool:  # type: ignore[type-arg]
    """Whether token ``j`` is the object of a swap verb (function words only between) and ends its noun
    phrase ("changed dentist," not "changed the dentist appointment")."""
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    if nxt is not None and nxt.kind == "word" and fold(nxt.low) not in _FUNCTION and fold(nxt.low) not in SWAP_VERBS:
        return False
    if nxt is not None and nxt.kind == "word" and fold(nxt.low) in _SWAP_VERB_LAST:
        return True  # "den Zahnarzt gewechselt"
    for d in range(1, REACH + 2):
        i = j - d
        if i < 0 or toks[i].kind != "word":
            return False
        k = fold(toks[i].low)
        if k in SWAP_VERBS:
            return True
        if k not in STOPWORDS:
            return False
    return False


def slot_swapped(fa: Fact, fb: Fact) -> str | None:
    """The older's subject word that ``fb`` says was changed for another ("mon coiffeur c'est Karim" /
    "j'ai changé de coiffeur, je vais chez sophie maintenant"): the older no longer holds, or None. Guards
    as :func:`disposed`: the older reports no change itself, nobody else's, no negation, nobody else
    named before the verb."""
    if fa.change or fa.polarity or fb.negations or not fb.keys & SWAP_VERBS or fa.subject_end == 0:
        return None
    if any(v.kind in _AMOUNTS for v in fa.values) or fact_scope.owner(fa.text)[0] == "other" or (
            fa.keys & KIN.keys()) - fb.keys:
        return None  # a new gym says no new fee; "a dentista do meu filho": a swap told unowned is the speaker's
    kind, who = fact_scope.owner(fb.text)
    if kind == "other" and not who <= fact_scope.owner(fa.text)[1]:
        return None
    subject = {w.key for w in fa.words[:fa.subject_end]}
    if not subject or len(fa.words) <= fa.subject_end and not fa.values:
        return None  # (the older must state a value after its subject)
    for clause in re.split(r"[,;.!?:()]", fb.text):
        toks = list(fact_scope.tokens(clause))
        verb = next((j for j, t in enumerate(toks) if t.kind == "word" and fold(t.low) in SWAP_VERBS), None)
        if verb is None:
            continue
        if any(t.kind == "word" and fold(t.low) not in _FUNCTION and fold(t.low) not in fa.keys
               for t in toks[:min(verb, len(toks))] if fold(t.low) not in SWAP_VERBS and not _object_of(toks, verb, t)):
            return None  # "Tom changed his dentist": someone else
        for j, t in enumerate(toks):
            if t.kind == "word" and any(same_word(fold(t.low), v) for v in subject) and _swapped_at(toks, j):
                return t.text
    return None


def _object_of(toks: list, verb: int, t: object) -> bool:  # type: ignore[type-arg]
    """Whether ``t`` (before a verb-last ``verb``) is its object ("den Zahnarzt gewechselt")."""
    return fold(toks[verb].low) in _SWAP_VERB_LAST
