"""Whose fact: two sentences about two different people are never one fact updated (facts29).

An agent's store holds facts about the user and about the people around them, told in the same words:
"Javier ha dejado de fumar" / "Pablo ha empezado a fumar", "O Rui deixou de comer carne" / "A Mariana voltou a
comer carne", "El sueldo de Carmen es de 1.800 euros" / "A Javier le han subido el sueldo a 2.300 euros". The
learned decision (memengine/fact_slot.py) reads one slot and a new value in each pair, and retired the other
person's fact (held-out 8: 4 of its 5 wrong writes). :func:`other_person` reads whom each sentence is about from
its subject, the words before its verb:

- the names there (a word written with a capital that is not the sentence's function word, a kinship word or a
  title: "Pablo", "A Mariana", "Marcos Schwester", "La hermana de Carmen", "El sueldo de Carmen", "Priya's GP");
  a German or Dutch noun after an article ("Die Musikschule", "het bureau") is a noun, not a name;
- and whether each side names one the other sentence says nowhere (inflected with a genitive "s": "Katrins" is
  Katrin).

When both subjects name people and neither sentence says a name of the other's subject, the two are about two
people and no verdict stands (memengine/supersession.py's ``vetoed``). A sentence whose subject is a pronoun or a
thing ("We switched to …", "The rent …", "Bedtime's 8:30 now") names nobody and is never vetoed so; nor is a
sentence that names the older's person anywhere ("Owen's sister moved" / "Owen's sister Harriet lives in
Bristol"; "Keira left the Walsgrave" / "Owen's girlfriend Keira is a physiotherapist"). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_cue_lexicon import KIN, TITLES
from memengine.fact_dropped import ARTICLES, GENITIVE, POSSESSIVES
from memengine.fact_lexicon import STOPWORDS, _set, fold
from memengine.fact_tokens import guess_lang

__all__ = ["other_person", "relative_of", "same_person", "subject_names", "subject_person"]

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_ELIDED = re.compile(r"\b([dlnsjcmtDLNSJCMT]|qu|Qu)['’]")  # "d'Élodie", "l'école": the article apart
# articles no person's name follows (Portuguese and Italian write one before a name: "A Mariana", "O Rui", "la
# Giulia"): a capitalised word after one is a noun ("Die Musikschule", "The Kita", "het Stedelijk")
_NOUN_ARTICLES = _set("the an", "der die das den dem des ein eine einen einem einer", "het een")
_MORE_ARTICLES = _set("the a an", "un une", "un una", "ein eine einen einem einer", "um uma", "uno una",
                      "de het een")
# a subject ends at its verb: the first word in lower case that is no connector of a possessor or a kinship
_CONNECTORS = GENITIVE | POSSESSIVES | ARTICLES | _MORE_ARTICLES | _set("van", "von")
# articles no name is followed by: the word before one is a verb ("Compré un Toyota", "Tengo un Seat")
# (not "a", "o", "la", "le": "Élodie a un forfait", "A Carmen la han contratado")
_OBJECT = _set("the an", "un une des", "un una unos unas el los las", "ein eine einen einem einer der die das den dem",
               "um uma uns umas os as", "uno il lo gli", "het een")
# English articles and possessives after a past verb opening a note ("Opened a Monzo account", "Booked my …"): "a" is
# left out of _OBJECT above for the Romance article before a name, but after an English "-ed" word it is the object's
_EN_OBJECT = frozenset("a an the my our his her their".split())
# a copula, then (after "now") a definite article: "X is the on-call engineer" names who holds a role
_COPULAS = _set("is was", "est", "es era", "ist war", "e era", "is was")
_NOW = _set("now currently", "maintenant desormais", "ahora ya", "jetzt nun", "agora ja", "ora adesso", "nu")
_DEFINITE = _set("the", "le la l les", "el la los las", "der die das den", "o a os as", "il lo la i gli le",
                 "de het")
# prepositions a sentence may start with: the capitalised word after one is no subject ("Seit Januar", "Depuis
# Noël", "Since March")
_PREPOSITIONS = _set("since from in on at after before", "depuis dans en apres avant", "desde en tras antes",
                     "seit ab im am nach vor bei", "desde em apos antes", "dal dopo prima in",
                     "sinds vanaf na voor bij")
# kinship words: the lexicon's, and Dutch ("Femkes zoon Siem", "Daans broer")
_AND = _set("and", "et", "y", "und", "e", "en")
_KIN = frozenset(KIN) | _set("zoon dochter broer zus zuster vader moeder man vrouw vriend vriendin partner opa oma "
                             "oom tante neef nicht schoonmoeder schoonvader schoonzus zwager kind kinderen ouders")
# the words after which English "'s" is "is" or "has", not a possessive ("Owen's back", "Dev's been")
_IS_NEXT = _set("back been got gone now not no also still finally just a an the off on out in at with over done")
# the longest subject read (a name and its kin, "La sorella del marito di Giulia")
_MAX_SUBJECT = 8


def _key(word: str) -> str:
    """A name folded, its possessive or genitive ending off ("Priya's" / "Katrins" / "Daans" -> the name)."""
    w = fold(word.replace("’", "'"))
    if w.endswith("'s"):
        w = w[:-2]
    return w.rstrip("'")


def _keys(text: str) -> set[str]:
    """Every word of ``text`` folded, with and without a genitive ending (an elided article off, as
    :func:`_subject` reads it: "L'équipe d'Inès" says "Inès")."""
    out: set[str] = set()
    for w in _WORD.findall(_ELIDED.sub(r"\1 ", text)):
        k = _key(w)
        out.add(k)
        if len(k) > 3 and k.endswith("s"):
            out.add(k[:-1])
        if "-" in k:  # ("Windows-Updates" says "Windows": one thing's updates, written joined; facts33)
            out.update(part for part in k.split("-") if len(part) > 2)
    return out


# a sentence's first word that says how a thing ended, never whom it is about (facts37): "Done with Mailchimp, …",
# "We're off Vodafone, …", "Split up with Tom …", "Finished with PayPal; …"
_NOT_WHOM = frozenset("done finished through off we're we’re i'm i’m we've i've split broke lost".split())


@lru_cache(maxsize=4096)
def _subject(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names (folded) said in the subject of ``text``, and those of them said as a possessor ("Priya's",
    "de Carmen", "Katrins Tochter"): whose relative or thing the subject is, not the subject itself."""
    words = _WORD.findall(_ELIDED.sub(r"\1 ", text.strip()))
    names: set[str] = set()
    owners: set[str] = set()
    prev = ""
    none = (frozenset[str](), frozenset[str]())
    for i, w in enumerate(words[:_MAX_SUBJECT]):
        k = _key(w)
        cap = w[:1].isupper()
        nxt_word = words[i + 1] if i + 1 < len(words) else ""
        if k in _KIN or k in TITLES or k.rstrip(".") in TITLES or w.isupper() and len(w) <= 4 \
                or i == 0 and k in _PREPOSITIONS:  # ("Desde enero factura con Quipu": when, not whom)
            prev = k  # (an acronym is a role or a thing: "Priya's GP", "the NHS")
            continue
        # (English "son" after a possessor is kin, not French "son": "Nadia's son Tobi plays rugby" is about Tobi)
        kin_of = prev in _KIN and i >= 2 and words[i - 2].endswith(("'s", "’s"))
        if cap and i > 0 and (prev in _NOUN_ARTICLES or prev in POSSESSIVES and not kin_of or prev in _PREPOSITIONS):
            # "Die Musikschule", "Meine Zahnärztin", "Seit Januar": a noun, not whom the sentence is about
            return (frozenset(names), frozenset(owners)) if _subject_person(words, i) else none
        if i == 0 and cap and (k in NOW_WORDS or k in CHANGE_WORDS or k in _NOT_WHOM or len(words) > 1 and (
                _key(words[1]) in _OBJECT or len(k) > 4 and k.endswith("ed") and _key(words[1]) in _EN_OBJECT
                and guess_lang(text) == "en")):
            return none  # "Compré un Toyota", "Ahora trabaja en …", "Opened a Monzo account": a verb or an adverb
        if cap and not (i == 0 and k in STOPWORDS) and k not in STOPWORDS:
            names.add(k)
            if w.endswith(("'s", "’s")) and _key(nxt_word) and (_key(nxt_word) in _IS_NEXT or _key(nxt_word).endswith(
                    ("ed", "ing"))):
                return frozenset(names), frozenset(owners)  # "Owen's back to eating meat": "'s" is "is" / "has"
            if w.endswith(("'s", "’s", "'", "’")) or prev in GENITIVE or k.endswith("s") and nxt_word and (
                    _key(nxt_word) in _KIN or nxt_word[:1].isupper()):
                owners.add(k)  # "Priya's daughter", "la hermana de Carmen", "Marcos Schwester"
            prev = k
            continue
        if k in _CONNECTORS or k in STOPWORDS and i == 0:
            prev = k
            continue
        # a lower-case word: the verb, unless a possessor follows it ("El sueldo de Carmen es ...")
        nxt = _key(nxt_word)
        if not cap and nxt in GENITIVE and i + 2 < len(words) and not names and i <= 2:
            prev = k
            continue
        return (frozenset(names), frozenset(owners)) if _subject_person(words, i) else none
    return frozenset(names), frozenset(owners)


def subject_names(text: str) -> frozenset[str]:
    """The names (folded) said in the subject of ``text``, the words before its verb; empty when the subject is
    a pronoun, a thing or a kinship word alone ("My sister moved")."""
    return _subject(text)[0]


def subject_person(text: str) -> frozenset[str]:
    """The names of whom ``text`` is about: its subject's names less those said as a possessor ("Anika" for
    "Priya's daughter Anika goes to ..."; none for "La hermana de Carmen trabaja ...": Carmen's sister)."""
    names, owners = _subject(text)
    return names - owners


def _subject_person(words: list[str], verb: int) -> bool:
    """Whether the subject that ends at ``verb`` is whom the sentence is about, not a value of its predicate:
    "Priya is the on-call engineer" / "Marcus is now the on-call engineer" name who holds one role (the person
    is the value), as "Carmen es la jefa" does."""
    rest = [fold(w) for w in words[verb:verb + 3]]
    if not rest or rest[0] not in _COPULAS:
        return True
    copula, rest = rest[0], [w for w in rest[1:] if w not in _NOW]
    # ("a" / "o" are articles after Portuguese "é", not after "is" / "ist": "Priya is a pharmacist")
    # ("de" is one only after Dutch "is": "es de 1.800 euros" is a value)
    return not rest or rest[0] not in _DEFINITE or rest[0] in ("a", "o") and copula not in ("e", "era") \
        or rest[0] == "de" and copula not in ("is", "was")


def other_person(old: str, new: str) -> str:
    """Why ``new`` cannot update ``old``: both subjects name people and neither sentence says the other's
    ("Pablo ha empezado a fumar" / "Javier ha dejado de fumar"), else ""."""
    a, b = subject_names(old), subject_names(new)
    if not a or not b:
        return ""
    if a & _keys(new) or b & _keys(old):
        return ""
    if any(_inflected(x, y) for x in a for y in b):
        return ""  # one noun in two forms, capitalised as a sentence's first word ("Invoices …" / "Invoicing …")
    if any(_compound(x, y) or _compound(y, x) for x in a for y in b):
        return ""  # a compound and its head or its first part ("Imkervereniging" / "Vereniging", "Honingprijs" / "Honing")
    return f"another person: {sorted(b)} / {sorted(a)}"


def _compound(x: str, y: str) -> bool:
    """Whether the folded ``y`` is a compound of ``x`` (at least five letters) and at least four more letters: a Dutch
    or German noun capitalised as a sentence's first word, never two people's names (facts39)."""
    return len(x) >= 5 and len(y) >= len(x) + 4 and (y.startswith(x) or y.endswith(x))


_ENDINGS = ("es", "ing", "ed", "ion", "ions")  # (not "s" alone: "Andre" / "Andres" are two people)


def _inflected(x: str, y: str) -> bool:
    """Whether two folded words are one stem of at least five letters with two English endings ("invoices" /
    "invoicing", "updates" / "updated"); never two names ("Daniel" / "Daniela", "Marta" / "Martin")."""
    for e in _ENDINGS:
        for f in _ENDINGS:
            if e != f and x.endswith(e) and y.endswith(f):
                sx, sy = x[:len(x) - len(e)], y[:len(y) - len(f)]
                if sx == sy and len(sx) >= 5:
                    return True
    return False


def relative_of(old: str, new: str) -> str:
    """``"<kin> of <name>"`` when ``old`` is about a relative of a person ``new`` is about itself ("Lukas' Eltern
    wohnen in Bonn-Beuel" / "Katrin und Lukas sind nach Sülz gezogen": the parents did not move; facts31), else "":
    the older's subject holds a kinship word and a possessor the newer's subject names as its own person, and the
    newer's subject holds no kinship word ("Owen's sister moved" stays the sister's)."""
    _names, owners = _subject(old)
    if not owners:
        return ""
    head = [_key(w) for w in _WORD.findall(_ELIDED.sub(r"\1 ", old))[:_MAX_SUBJECT]]
    kin = next((k for k in head if k in _KIN), None)
    if kin is None or any(_key(w) in _KIN for w in _WORD.findall(_ELIDED.sub(r"\1 ", new))[:_MAX_SUBJECT]):
        return ""
    words = _WORD.findall(_ELIDED.sub(r"\1 ", new))
    # whom the newer is about: its subject's person, and ("Katrin und Lukas sind …", which the subject reading
    # stops at "und") the capitalised words of its first clause joined by "and"
    people = set(subject_person(new))
    if len(words) > 2 and _key(words[1]) in _AND:
        people |= {_key(w) for w in words[:4] if w[:1].isupper() and _key(w) not in _AND}
    # (a German genitive "Katrins" is Katrin)
    own = {o if o in people else o[:-1] for o in owners
           if o in people or len(o) > 3 and o.endswith("s") and o[:-1] in people}
    return f"{kin} of {sorted(own)[0]}" if own else ""


def same_person(old: str, new: str) -> bool:
    """Whether both sentences are about one person named in both subjects ("Siem gaat sinds september naar het
    Stedelijk Gymnasium" / "Femkes zoon Siem zit op de Montessorischool"; not "Carmen ha montado su propia
    gestoría" / "La hermana de Carmen trabaja en una gestoría", about Carmen's sister): evidence of whose fact it
    is that no cosine gives (a change in other words is far in meaning: 0.38 here)."""
    a, b = subject_person(old), subject_person(new)
    return bool(a and b and a & b)


# The reasons of the rules that read a change of one person's slot (memengine/fact_quit.py, fact_own.py,
# fact_instead.py, fact_diet.py, fact_hired.py, fact_provider.py): the person named by both and the slot read is their evidence, so
# memengine/supersession.py neither asks for a word of the older beside the person's name (every fact of that
# person says it) nor reads the older's description of who the person is as a statement of its own.
PERSON_REASONS = ("activity given up", "now works on their own account", "the older's value replaced",
                  "the person's diet turned", "taken on elsewhere", "provider switched",
                  "one person's fact in another language", "a new role said as a role")


def described(text: str) -> str:
    """``text`` from its subject person's name on: who the person is ("Le compagnon d'Élodie, Hugo, est boulanger"
    -> "Hugo, est boulanger") is no statement a change of their slot leaves standing; ``text`` itself when its
    subject names nobody."""
    names = subject_person(text)
    folded = [(m.start(), _key(m.group())) for m in _WORD.finditer(text)]
    at = next((i for i, k in folded if k in names), None)
    return text if at is None else text[at:]

