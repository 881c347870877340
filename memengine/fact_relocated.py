"""A person who moved, said with the person as the subject: "Harriet has moved to Cardiff" after "Owen's sister
Harriet lives in Bristol" (facts28).

Where someone lives is stated with a verb of living ("lives in", "wohnt in", "vit à", "vive en", "mora em", "abita
a", "woont in") and the place named after it; that they moved is told with a verb of moving and the new place
("moved to", "ist nach … gezogen", "s'est installé à", "se ha ido a vivir a", "mudou-se para", "si è trasferito a",
"is verhuisd naar"), or with the verb of living again and a word of now ("woont nu in Delft"). The two share
nothing but the person's name: the frame rules (memengine/facts.py) see two frames, the learned band a far pair.
What ties them is the person: the newer's subject is the person's name alone (or two names joined by "and": "Lucía
y Nerea se han ido a vivir juntas a …" moves both), and the older's subject names that person as the one who lives
there ("Owen's sister Harriet", "El hermano de Lucía, Andrés": the last name of the subject that is no owner — not
"Keira's", not "de Lucía" — and no kinship word).

Guards: the newer is asserted (memengine/fact_mood.py: "If Harriet moves …" is a plan); its subject holds no other
word ("Keira's brother moved to Cardiff", "La madre de Nerea se ha ido a vivir a …", "Brams zus is verhuisd naar …"
are someone else); the new place is a name (capitalised: "Lukas lebt jetzt vegan" says no place) and not the older's
place; the older is a fact of where the person lives, not of their job or school ("Harriet teaches chemistry …" is
left to the other rules). Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine import fact_kin, fact_named_switch
from memengine.fact_cue_lexicon import KIN, TITLES
from memengine.fact_langs import FUNCTION_WORDS
from memengine.fact_lexicon import STOPWORDS, _set, fold
from memengine.fact_tokens import guess_lang
from memengine.fact_types import Verdict

__all__ = ["REASON", "another_mover", "appositive", "moved", "remainder"]

REASON = "the person moved"

# The verbs a place one lives in is said with (folded).
LIVE = _set("live lives lived living resides",
            "wohnt wohnen lebt leben",
            "habite habitent vit vivent reside",
            "vive viven vivimos",
            "mora moram vivem",
            "abita abitano vivono risiede",
            "woont wonen leeft")
# Verbs of moving house, as said in the past (a plan, "is moving next month", is no update yet).
MOVE = _set("moved relocated",
            "gezogen umgezogen weggezogen ubergesiedelt",
            "demenage demenagee demenages demenagees installe installee installes installees",
            "mudado mudada mudados mudadas mudo mudaron trasladado trasladada",
            "mudou mudaram mudei mudamos",
            "trasferito trasferita trasferiti trasferite traslocato traslocata traslocati",
            "verhuisd")
# "se ha ido a vivir a", "est partie vivre à", "foi morar para", "è andato a vivere a", "is gaan wonen in": a verb
# of going before a verb of living.
GO = _set("gone went ido fue fueron idos parti partie partis partit foi foram andato andata andati andate "
          "gaan gegaan")
# The words a new place is said after.
TO = _set("to in into", "nach in", "a au en dans", "a en para", "para em no na pra", "a in ad", "naar in")
# A word of now: "Jeroen woont nu in Arnhem", "Matteo adesso vive a Trento".
NOW = _set("now", "jetzt mittlerweile inzwischen", "maintenant desormais", "ahora ya", "agora", "adesso ora ormai",
           "nu inmiddels tegenwoordig")
# The words that join two people into one subject.
AND = _set("and", "und", "et", "y e", "e", "e ed", "en", "&")
# Words a subject may hold besides names and function words: the reflexive of a move, adverbs of time.
_ASIDE = _set("finally just recently already also both together",
              "endlich gerade schon auch beide zusammen sich",
              "enfin finalement deja aussi s se",
              "finalmente ya tambien se",
              "finalmente ja tambem se",
              "finalmente gia anche si",
              "eindelijk net al ook samen") | NOW
# Genitive words: a name after them owns the subject ("El hermano de Lucía").
_OF = _set("of", "von", "de du des", "de del", "do da dos das de", "di del della dello dei degli delle", "van")
# Words for the people one lives with or near, beyond memengine/fact_cue_lexicon.py's kinship words: a name after
# one is the person ("Sannes broer Jeroen", "Janas Mann Tobias", "Le compagnon de Mathilde, Yanis").
_RELATION = _set("flatmate housemate brother-in-law sister-in-law",
                 "mann schwager schwagerin lebenspartner lebenspartnerin",
                 "compagnon compagne beau-frere belle-soeur",
                 "cunado cunada", "cunhado cunhada companheiro companheira",
                 "compagno compagna marito ragazzo ragazza cognato cognata",
                 "broer zus zuster moeder vader vriend vriendin dochter zoon man vrouw oom neef nicht buurman "
                 "buurvrouw collega")
_TOKEN = re.compile(r"\w+(?:[-.]\w+)*|['’]")


def _kin(word: str) -> bool:
    f = fold(word)
    return f in KIN or f in _RELATION


def _verb(word: str) -> str:
    """The folded verb of a token ("mudou-se": "mudou")."""
    return fold(word).split("-")[0]


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _name(tok: str, i: int) -> bool:
    """A capitalised word that names someone or somewhere (no title, kinship word or sentence-first function word)."""
    if not tok[:1].isupper() or fold(tok) in TITLES or _kin(tok):
        return False
    return not (i == 0 and fold(tok) in STOPWORDS)


def _owner(toks: list[str], i: int) -> bool:
    """Whether the name at ``i`` owns what follows ("Keira's", "Tobias'", German / Dutch "Janas Bruder", "Sannes
    broer") or hangs on a genitive word ("de Lucía", "do Rui", "of Owen")."""
    if i + 1 < len(toks) and toks[i + 1] in ("'", "’"):
        return True
    if i > 0 and fold(toks[i - 1]) in _OF:
        return True
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    return toks[i].endswith("s") and _kin(nxt)


def _people(toks: list[str]) -> set[str] | None:
    """The people a subject (its tokens) is: its names that own nothing, when every other word is a function word,
    a kinship word that one of its names stands for, or an aside; None when it holds another word."""
    names: set[str] = set()
    kin = False
    for i, t in enumerate(toks):
        f = fold(t)
        if t in ("'", "’") or f == "s" and i > 0 and toks[i - 1] in ("'", "’"):
            continue
        if _name(t, i):
            if not _owner(toks, i):
                names.add(f)
            continue
        if _kin(t) or f in TITLES:
            kin = True
            continue
        if f in STOPWORDS or f in _ASIDE or f in AND:
            continue
        return None
    if kin and not names:
        return None  # "my brother lives in Porto": nobody named
    return names or None


def _place(toks: list[str], start: int) -> str | None:
    """The place named after a word of arriving at or after ``start`` ("to Cardiff", "para o Porto", "nach
    Hannover"): its first name, folded; articles may come between."""
    for i in range(start, len(toks)):
        if fold(toks[i]) not in TO:
            continue
        j = i + 1
        while j < len(toks) and fold(toks[j]) in STOPWORDS and not toks[j][:1].isupper():
            j += 1
        if j < len(toks) and toks[j][:1].isupper():
            return fold(toks[j])
    return None


def _lives(text: str) -> tuple[set[str], set[str]] | None:
    """(who, places) when ``text`` states where someone named lives: the people of the subject before its verb of
    living, the names after it."""
    toks = _tokens(text)
    at = next((i for i, t in enumerate(toks) if fold(t) in LIVE), None)
    if at is None or at == 0:
        return None
    who = _people(toks[:at])
    places = {fold(t) for t in toks[at + 1:_span_end(toks, at, guess_lang(text))] if t[:1].isupper()}
    if not who or not places:
        return None
    return who, places


def _moved(text: str) -> tuple[set[str], str] | None:
    """(who, place) when ``text`` says people named moved to a place: a verb of moving (or of going to live, or of
    living and a word of now) whose subject is their names alone, and the place's name."""
    toks = _tokens(text)
    low = [_verb(t) for t in toks]
    verb = next((i for i, f in enumerate(low) if f in MOVE), None)
    if verb is None:
        verb = next((i for i, f in enumerate(low) if f in GO and any(x in LIVE or x in ("vivir", "vivre", "morar",
                                                                                         "viver", "vivere", "wonen")
                                                                      for x in low[i + 1:i + 4])), None)
    if verb is None and any(f in NOW for f in low):
        verb = next((i for i, f in enumerate(low) if f in LIVE), None)
    if verb is None or verb == 0:
        return None
    # German and Dutch say the place before the participle ("ist nach Hannover gezogen"): the subject ends at the
    # first word that is no name, function word or aside (the auxiliary is a function word)
    end = verb
    for i in range(verb):
        f = low[i]
        if f in TO and f not in AND and i + 1 < len(toks) and toks[i + 1][:1].isupper() and any(
                x in _AUX for x in low[:i]):
            end = i
            break
    # the subject ends at the auxiliary ("Harriet has moved", "Lea ist letzten Monat nach Rostock gezogen"), else at
    # the verb ("A Inês mudou-se para o Porto")
    aux = next((i for i in range(1, verb) if low[i] in _AUX), verb)
    who = _people(toks[:min(aux, end)])
    place = _place(toks, end if end < verb else verb + 1)
    if not who or place is None:
        return None
    return who, place


_AUX = _set("has have had is are was were", "ist sind hat haben war", "est sont a ont", "ha han se", "foi foram",
            "e sono ha hanno", "is zijn heeft hebben")


def moved(old: str, new: str) -> Verdict | None:
    """A ``place`` verdict (reason :data:`REASON`) when ``new`` says a person ``old`` says lives somewhere moved to
    another place (see the module docstring), else None."""
    was = _lives(old)
    if was is None:
        return None
    now = _moved(new)
    if now is None:
        return None
    who, place = now
    if not who & was[0] or place in was[1] or not _described_alike(old, new):
        return None
    from memengine import fact_mood

    if fact_mood.unasserted(new) or _negated(new):
        return None
    person = sorted(who & was[0])[0]
    return Verdict("place", f"{REASON}: {person} -> {place}", 0.8)


def _described_alike(old: str, new: str) -> bool:
    """Whether every kinship word the newer's subject holds is the older's too ("My brother Tomás moved …" after
    "My brother Tomás lives …"; not "My brother's friend Tomás moved …")."""
    said = {fold(t) for t in _tokens(old)}
    toks = _tokens(new)
    # (the subject ends at the verb: whom they moved with is no description of the mover, "Diego se ha mudado a
    # Málaga con su novia")
    verb = next((i for i, t in enumerate(toks) if _verb(t) in MOVE or _verb(t) in GO or _verb(t) in LIVE), len(toks))
    return all(fold(t) in said for t in toks[:verb] if _kin(t))


_NEGATION = _set("not never no", "nicht nie kein", "ne pas jamais", "no nunca", "nao nunca", "non mai", "niet nooit geen")


def _negated(text: str) -> bool:
    """Whether ``text`` says a negation ("Harriet hasn't moved to Cardiff", "Felix ist nicht nach … gezogen")."""
    return any(fold(t) in _NEGATION or fold(t).endswith("n't") for t in _tokens(text.replace("n't", " not")))


def _mover(text: str) -> tuple[str, frozenset[str], bool] | None:
    """("names", the people, whether a place is named) or ("said", the subject's words, ...) of a sentence that says
    where someone lives or that they moved, when its subject names someone (a name or a kinship word; "I" / "we"
    name nobody: None); None for any other sentence."""
    toks = _tokens(text)
    low = [_verb(t) for t in toks]
    at = next((i for i, f in enumerate(low) if f in MOVE or f in LIVE), None)
    if at is None or at == 0:
        return None
    # ("ist nach Hannover gezogen": the place before the participle, after the auxiliary)
    end = next((i for i in range(1, at) if low[i] in TO and low[i] not in AND and any(x in _AUX for x in low[:i])),
               at)
    subject = toks[:next((i for i in range(1, end) if low[i] in _AUX), end)]
    place = end < at or any(t[:1].isupper() for t in toks[at + 1:])
    people = _people(subject)
    if people:
        return "names", frozenset(people), place
    if not any(_kin(t) or _name(t, i) and _owner(subject, i) for i, t in enumerate(subject)):
        return None  # ("This spring Noah moved …", "A Sevilla se ha mudado mi hermana": no subject read)
    words = frozenset(fold(t) for t in subject if fold(t) not in STOPWORDS and fold(t) not in _ASIDE and t not in "'’")
    return "said", words, place


# The words a place is said after, for whether an older names one (where someone works or studies: "at the BBC").
_AT = TO | _set("at", "bei im am", "chez", "presso al alla", "bij op")


def _about_without_place(old: str, movers: frozenset[str]) -> bool:
    """Whether ``old`` is about one of ``movers`` (named, owning nothing: "Priya's partner Sam is a nurse" is Sam's)
    and names no place ("… works in Porto", "… at the BBC" do): a move leaves what it says as it was."""
    toks = _tokens(old)
    if not any(_name(t, i) and not _owner(toks, i) and fold(t) in movers for i, t in enumerate(toks)):
        return False
    return not any(fold(t) in _AT and i + 1 < len(toks) and (toks[i + 1][:1].isupper() or i + 2 < len(toks) and
                                                               toks[i + 2][:1].isupper())
                   for i, t in enumerate(toks))


def _kin_said(words: frozenset[str]) -> frozenset[str]:
    """A subject's words with each kinship word as its concept and no function word: "De ouders van Bram" and
    "Bram's parents" are one subject told in two languages (facts32)."""
    return frozenset(fact_kin.concept(w) for w in words if w not in FUNCTION_WORDS)


def another_mover(old: str, new: str) -> str:
    """Why ``new`` is no update of ``old`` when both say where someone lives or that they moved: someone else moved
    ("O cunhado do Rui mudou-se para o Porto" / "A Inês mudou-se para o Porto"), or the newer says how the person
    lives, not where ("Felix lebt jetzt sehr zurückgezogen": no place named), else ""."""
    a, b = _mover(old), _mover(new)
    if a is None and b is not None:
        went = _moved(new)  # (a move to a place: "Anna moved on and now Ben is …" is none)
        if went is not None and _about_without_place(old, frozenset(went[0])) \
                and not fact_named_switch.left_value(old, new):
            # (a move off the older's value says something of it: "CI runs on Jenkins" / "CI moved off Jenkins")
            return "a move says nothing of it"
    if a is None or b is None:
        return ""
    if b[0] == "said" and a[:2] != b[:2] and (a[0], _kin_said(a[1])) != (b[0], _kin_said(b[1])):
        return "someone else moved"  # (a person described by whose they are: "O cunhado do Rui")
    if a[2] and not b[2] and any(fold(t) in LIVE for t in _tokens(new)):
        return "how the person lives, not where"
    return ""


def _span_end(toks: list[str], at: int, lang: str) -> int:
    """Where the statement of where someone lives, its verb at ``at``, ends: at a word of "and" ("lives in Bristol
    and works at the BBC"; Dutch "en" only in Dutch), else at the end."""
    for i in range(at + 1, len(toks)):
        f = fold(toks[i])
        if f in AND and (f != "en" or lang == "nl"):
            return i
    return len(toks)


def remainder(old: str) -> str:
    """What ``old`` says besides who the person is and where they live ("Owen's sister Harriet lives in Bristol"
    -> "", "Harriet lives in Bristol and teaches chemistry" -> "and teaches chemistry"): a move says nothing of
    it (memengine/supersession.py asks memengine/fact_untouched.py whether the newer touches it)."""
    toks = _tokens(old)
    at = next((i for i, t in enumerate(toks) if fold(t) in LIVE), None)
    if at is None:
        return old
    end = _span_end(toks, at, guess_lang(old))
    if end >= len(toks):
        return ""
    pos = 0
    for t in toks[:end]:
        pos = old.find(t, pos) + len(t)
    return old[pos:].strip(" ,.;")


_APPOSITION = re.compile(r"^(?P<desc>[^,;:]+),\s*(?P<name>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?)\s*,\s*(?P<rest>\S.*)$")


def appositive(old: str, new: str) -> str:
    """``old`` with a person's description before their name left out ("Le compagnon de Mathilde, Yanis, travaille
    chez Airbus" -> "Yanis travaille chez Airbus"): whose partner or brother the person is names the person, as
    their name does; it is no statement a change of their job or home leaves untouched (memengine/fact_untouched.py
    would read "Le compagnon de Mathilde" as one), when ``new`` names the person too. Unchanged when the stretch
    before the name says anything else."""
    m = _APPOSITION.match(old)
    if m is None or not all(w[:1].isupper() for w in m.group("name").split()):
        return old
    if not {fold(w) for w in m.group("name").split()} & {fold(t) for t in _tokens(new)}:
        return old  # (another person's fact: the description stays a statement)
    toks = _tokens(m.group("desc"))
    if not any(_kin(t) for t in toks):
        return old
    for i, t in enumerate(toks):
        f = fold(t)
        if t in ("'", "’") or _kin(t) or f in STOPWORDS or f == "s" or _name(t, i) and _owner(toks, i):
            continue
        return old
    return f"{m.group('name')} {m.group('rest')}"
