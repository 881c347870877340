"""An object put somewhere else: "The spare key is kept under the doormat" / "I put the spare key
in the mailbox now", "Der Werkzeugkasten steht im Keller" / "Den Werkzeugkasten bewahre ich jetzt
in der Garage auf", "Os documentos do carro ficam no porta-luvas" / "Agora guardo os documentos do
carro na gaveta da sala".

The old fact says where a thing is (is, kept, lives, stays, steht, liegt, se trouve, está, fica
...), the new one that I / we put it elsewhere: a verb of placing (put, keep, store, hang, range,
garde, guardo, dejo, stelle, lege, bewahre, ponho ...) with "now" in its five-language forms, or a
verb of moving it (moved, déplacé, moví, gebracht, mudei) with or without "now". The frames differ
(the object is the subject of one and the object of the other), so memengine/facts.py cannot align
them; :func:`moved` reads each sentence as (thing, place) around its place preposition:

- the thing is every content word before the place preposition (verbs, pronouns, "now" and
  function words aside), and both sentences name the same thing with the same words (stems):
  "the car key" is not "the spare key", "le vélo de ma fille" not "le vélo";
- the place is what follows the preposition, and the two places share no word;
- the new sentence speaks in the first person (I / we, or a first-person verb form) and of no
  one else's thing (his, her, son, su, sein, dele ...); "also", "another" add, never move.

Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re

from memengine.fact_lexicon import _set, fold

__all__ = ["moved"]

# Placing something (first person, or a participle after an auxiliary): with "now" only.
PLACING = _set(
    "put keep store hang stash place leave",
    "mets mettons range rangeons garde gardons laisse laissons pose posons stocke stockons accroche",
    "pongo ponemos guardo guardamos dejo dejamos coloco colocamos cuelgo colgamos",
    "stelle stellen lege legen bewahre bewahren tue tun packe packen hange hangen verstaue verstauen",
    "ponho pomos guardo guardamos deixo deixamos coloco colocamos penduro",
)
# Moving it: a change by itself ("I moved the ladder to the basement").
MOVING = _set(
    "moved relocated",
    "deplace deplacee deplaces deplacees demenage demenagee",
    "movi movimos movido movida traslade trasladamos trasladado trasladada",
    "gestellt gelegt gebracht verlegt umgestellt geraumt",
    "mudei mudamos mudado mudada transferi transferimos levei levamos",
    # a thing put somewhere, said in the past ("j'ai mis", "puse", "coloquei", "ho messo"): it is there now
    "mis mise mises puse pusimos pase pasamos subi subimos baje bajamos lleve meti coloquei colocamos pus botei "
    "guardei passei messo messa messi spostato spostata spostati portato portata",
)
# Where a thing is.
LOCATIVE = _set(
    "is are kept lives live stays stay sits sit stored hangs hang goes",
    "est sont trouve trouvent reste restent range rangee ranges rangees vit",
    "esta estan guarda guardan vive queda quedan guardado guardada guardados guardadas",
    "ist sind steht stehen liegt liegen hangt hangen lebt wohnt befindet befinden",
    "esta estao fica ficam vive mora guardado guardada guardados guardadas",
    "sono sta stanno trova trovano tengo teniamo",  # (Italian "è" is read as written: folded it is "and")
)
NOW = _set("now", "maintenant desormais", "ahora", "jetzt nun", "agora", "adesso ora")
FIRST_PERSON = _set("i we", "je j nous on", "yo nosotros nosotras", "ich wir", "eu nos", "io noi ho abbiamo")
# First-person verb forms of Spanish / Portuguese / French placing verbs said without a pronoun.
_FIRST_FORMS = _set("pongo ponemos guardo guardamos dejo dejamos coloco colocamos cuelgo colgamos movi movimos "
                    "traslade trasladamos ponho pomos deixo deixamos mudei mudamos transferi transferimos levei "
                    "levamos penduro puse pusimos pase pasamos subi subimos baje bajamos lleve meti coloquei colocamos "
                    "pus botei guardei passei")
OTHERS = _set("his her their its", "son sa ses leur leurs", "su sus", "sein seine seinen seinem seiner ihr ihre "
              "ihren ihrem ihrer", "seu sua seus suas dele dela deles delas")
ADDING = _set("also too another", "aussi autre", "tambien otro otra", "auch noch weitere", "tambem outro outra")
PREPOSITIONS = _set(
    "in at on under inside into onto behind beside near",
    "dans sur sous chez derriere pres",
    "en sobre debajo bajo detras dentro encima",
    "im ins auf unter hinter neben am zur zum",
    "na no nas nos num numa sob debaixo atras dentro em",
    "nel nella nello nei sul sulla sotto dietro dentro accanto",
)
# Prepositions that only a move reads as a place: "moved the ladder to the basement", "al garaje".
TO_PLACE = _set("to", "au aux", "al", "in", "para pra ao aos", "alla allo ai")
FUNCTION = _set(
    "the a an my our your this that these those of by for with and",
    "le la les l un une mon ma mes notre nos votre de du des d et",
    "el la los las un una mi mis nuestro nuestra nuestros nuestras de del y se",
    "der die das den dem des ein eine einen einem mein meine meinen meinem unser unsere unseren unserem "
    "und habe haben hab",
    "o a os as um uma meu minha meus minhas nosso nossa de do da dos das e",
) | _set("been has have had was were will", "ai avons a", "he hemos ha", "wird werden", "tenho temos foi")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|\d+|[,.;:!?()]")


def _stem(w: str) -> str:
    """A word without its plural or feminine ending ("keys" / "key", "clés" / "clé", "chaves" / "chave")."""
    for suf in ("es", "s", "en", "n", "e"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            return w[: -len(suf)]
    return w


def _read(text: str, new: bool) -> tuple[frozenset[str], frozenset[str], str] | None:
    """(the thing's stems, the place's stems, the place as written) of one sentence, or None."""
    raw = _WORD.findall(text)
    keys = [fold(w) for w in raw]
    verbs = PLACING | MOVING if new else PLACING | MOVING | LOCATIVE
    v = next((i for i, k in enumerate(keys) if k in verbs or not new and raw[i] in ("è", "È")), None)
    if v is None:
        return None
    moving = keys[v] in MOVING
    preps = PREPOSITIONS | TO_PLACE if moving or not new else PREPOSITIONS
    p = next((i for i in range(v + 1, len(keys)) if keys[i] in preps and not _particle(keys, i)
              or keys[i] == "a" and raw[i] == "à" or keys[i] == "a" and i + 1 < len(keys) and keys[i + 1] in _ES_ART),
             None)
    if p is None or p == len(keys) - 1 or _WHILE & set(keys[p:]):
        return None  # (no place, or a place for a while: "in the garage for the winter")
    skip = FUNCTION | FIRST_PERSON | NOW | verbs | LOCATIVE | PREPOSITIONS
    thing = [k for i, k in enumerate(keys[:p]) if raw[i][:1].isalpha() and k not in skip and len(k) > 1]
    place_raw = []
    for w, k in zip(raw[p + 1:], keys[p + 1:]):
        if not w[:1].isalpha():
            break
        if k not in skip:
            place_raw.append(w)
    place = [fold(w) for w in place_raw]
    if not thing or not place:
        return None
    return frozenset(_stem(k) for k in thing), frozenset(_stem(k) for k in place), " ".join(place_raw)


_ES_ART = _set("la el los las")
# A place for a while, or until something: not where the thing is kept now.
_WHILE = _set("for during until while when", "pour pendant jusqu quand", "para durante hasta mientras cuando",
              "fur wahrend bis solange wenn", "durante ate enquanto quando")


def _particle(keys: list[str], i: int) -> bool:
    """German "auf" closing "bewahre ... auf": a verb's particle, not "on"."""
    return keys[i] == "auf" and (i == len(keys) - 1 or not keys[i + 1][:1].isalpha())


def moved(old: str, new: str, new_keys: frozenset[str]) -> tuple[str, str, str] | None:
    """(thing, old place, new place) when ``new`` puts ``old``'s thing somewhere else (see the
    module docstring); ``new_keys`` are ``new``'s folded words."""
    if new_keys & ADDING or new_keys & OTHERS:
        return None
    if not new_keys & _ANY_VERB:
        # "bikes live in the garage now", "werkzeugkiste ist jetzt in der garage": where it is now
        if not (new_keys & LOCATIVE and new_keys & NOW):
            return None
        a, b = _read(old, False), _read(new, False)
        if a is None or b is None or a[0] != b[0] or a[1] & b[1]:
            return None
        return " ".join(sorted(a[0])), a[2], b[2]
    placing = new_keys & PLACING
    if not new_keys & MOVING and not (placing and new_keys & NOW):
        return None
    first = _WORD.search(new)
    if not new_keys & FIRST_PERSON and not new_keys & _FIRST_FORMS and not (
            first is not None and fold(first.group(0)) in MOVING):  # ("moved the charger to ...": said of oneself)
        return None  # "My neighbour moved his bike": someone else's doing
    a, b = _read(old, False), _read(new, True)
    if a is None or b is None or a[0] != b[0] or a[1] & b[1]:
        return None
    return " ".join(sorted(a[0])), a[2], b[2]


_ANY_VERB = PLACING | MOVING
