"""Two things of one kind told apart by their identifiers (memengine/supersession.py's ``vetoed``, facts39).

"Rent for Flat A goes up to £995" is no new rent of "Flat B at 14 Elm Road is let to Greta …, rent £875": the
two name two things of one kind, a flat, by two labels. Nor does "Van 2 had its MOT" touch "Van 1 is a Vivaro",
"plot 14" "plot 9", "Kennel block C" "Kennel block A", "the white van" "the blue van", "el tractor verde" "el
tractor rojo". Every rule that reads a slot and a new value (the swap of an amount, the frame, the learned
decision) sees one slot there; this veto says which thing each sentence names.

An identifier is a kind noun with a label: a number ("room 2", "Huisje 1", "Field 12"), a short code ("3B",
"B214") or one capital letter ("Flat A", "Barn B") after it, or a colour beside it at the start of the sentence
("The blue van", "El tractor rojo", "De rode trekker"). Only identifiers that NAME the thing the sentence is about
count: one in the first words with no verb before it, or one qualifying a noun ("Rent for Flat A", "the roof of
Barn A"). A label told after a copula, a preposition of place or a change verb is the fact's value
("User's classroom is Lab 3", "moved to room C101", "in room B214"): a new one is an update, left to the rules.

The veto: both sentences name a thing of the same kind noun, and no label of the older's is one of the newer's
(if the newer names the older's thing too, "Barn B stores the hay since the roof of Barn A blew off", it may be
its update). Pure; no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import MONTHS, fold

__all__ = ["another_thing", "named_things"]

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[^\w\s]", re.UNICODE)

# words that never head an identifier: function words, time words ("May 5", "Tuesday 3"), units and nouns of
# quantity ("page 3" is fine, "chapter 3" too; "at 5", "up to 14", "number 23 bus" are values)
_NOT_HEAD = frozenset("""a an the this that these those my our your his her its their to at from in on into onto for
    of by with and or but is are was were be been am has have had do does did not no now up down about over under
    than then since until till after before per each every only just also still around approx about nearly almost
    number no nr num top size age aged year years day days week weeks month months hour hours minute minutes times
    am pm h km kg mg ml g cm mm m mph kmh percent eur euro euros gbp usd dollars pounds pence cents
    monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
    de het een en op in te voor naar met bij om tot uit aan is zijn was nu ook nog
    der die das ein eine und im am um zu von vom mit bei ist sind für nach ab seit
    le la les un une des du et au aux à en dans pour par avec est sont sur
    el los las uno una y del al con por para es son en desde hasta
    o os as um uma e do da dos das no na em com por para é são
    il lo gli i un una e del della di da con per è sono nel sulla
    bis alle alla ore hasta às as las om tussen vers hacia dalle dal dai dagli""".split()) | frozenset(MONTHS) | frozenset(
    "maart mei juni juli augustus oktober januari februari".split())

# a label's next word that makes the number a quantity, a time or a date, not a name ("5 am", "3 weeks", "14 Elm")
_UNITS = frozenset("""am pm h hr hrs km kg mg ml g cm mm m mi miles minutes minute mins min hours hour days day weeks
    week months month years year times people persons % percent euro euros eur gbp usd pounds pence cents dollars
    uur dagen weken maanden jaar keer stunden tage wochen monate jahre mal heures jours semaines mois ans fois
    horas dias días semanas meses años anos veces vezes ore giorni settimane mesi anni volte""".split())

# words standing right before a label that make it the sentence's VALUE ("is Lab 3", "in room B214", "to plot 9")
_VALUE_BEFORE = frozenset("""is are was were be becomes become became to into in at from onto via now
    moved move moves switched switch changed change went go goes got get gets took take takes using uses use
    ist sind war wird in im nach zu zum zur auf von aus jetzt
    est sont était à au aux en dans vers de maintenant
    es son está están era a al en desde hacia ahora
    é são está estão era ao em no na para agora
    è sono era al alla nel nella ora adesso
    is zijn was wordt naar in op van uit nu
    on onto with under over by sous sur avec mit auf unter über con bajo sobre com sob sobre su sotto met onder
    bis alle alla ore hasta às as las om tussen""".split())

# prepositions that qualify a noun: a label after them names a thing ("Rent FOR Flat A", "the roof OF Barn A")
_QUALIFY = frozenset("for of für von vom pour du des de del della di da do van voor".split())

# copulas and common verbs: a label after one of them, in the first words, is no longer the subject
_VERBISH = frozenset("""is are was were has have had goes went gets got moved switched changed costs runs holds uses
    ist sind war hat haben kostet läuft est sont a coûte es son está tiene cuesta é são tem custa è sono ha costa
    is zijn heeft kost gaat""".split())

_FIRST_WORDS = 6  # a label this early, with no verb before it, names what the sentence is about

_COLOURS = frozenset("""red blue green white black yellow grey gray silver orange purple brown pink
    rot rote roter rotes blau blaue blauer grün grüne gruen weiß weiße weisse schwarz schwarze gelb gelbe grau graue silberne
    rouge rouges bleu bleue vert verte blanc blanche noir noire jaune gris grise argent
    rojo roja azul verde blanco blanca negro negra amarillo amarilla gris plateado
    vermelho vermelha azul verde branco branca preto preta amarelo amarela cinza prata
    rosso rossa blu azzurro verde bianco bianca nero nera giallo gialla grigio grigia argento
    rood rode blauw blauwe groen groene wit witte zwart zwarte geel gele grijs grijze zilveren""".split())
_COLOUR_AFTER = frozenset(("es", "fr", "it", "pt"))  # languages whose colour follows its noun

_RANGE = frozenset("to until till tot bis a à al hasta ate até - –".split())
# pronouns: a word ending in -s after one (or after a name) is a verb, "Peter turns 75", "she runs 10K"
_PRONOUNS = frozenset("he she it we they i you".split())

_LETTER = re.compile(r"^[A-Z]$")
_CODE = re.compile(r"^(?:\d{1,4}[A-Za-z]?|[A-Z]\d{1,4}|\d{1,3}[A-Z]\d{0,2})$")


def _stem(word: str) -> str:
    """A kind noun's key: folded, a plural's -s dropped ("plots 9 and 14")."""
    w = fold(word)
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _label(toks: list[str], i: int) -> str:
    """The label at ``toks[i]`` (a number, a short code, one capital letter), or ""."""
    t = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    if _LETTER.match(t):
        # ("Flat A at …", "Barn A blew off", "block A holds"; not "… A standard …" after a sentence's end)
        return t if not (nxt[:1].isalpha() and nxt[:1].islower() and nxt.lower() in {"new", "few", "lot", "bit"}) else ""
    if _CODE.match(t):
        if nxt in {":", ".", ",", "/", "-", "–"} and i + 2 < len(toks) and toks[i + 2][:1].isdigit():
            return ""  # a time, a date or a decimal ("5:30", "3.50", "12/4")
        if fold(nxt) in _UNITS or nxt in {"%", "£", "€", "$"} or fold(nxt) in _RANGE:
            return ""  # (a quantity, or a range: "van 9 tot 5", "9 to 5")
        return t.upper()
    return ""


def _version(toks: list[str], i: int, w_index: int) -> bool:
    """Whether the number at ``toks[i]`` is a product's version: after a capitalised name that does not open its
    clause ("usa Node 22", "tourne sous Debian 12", "roda Java 21"); a clause's first word is capitalised by its
    place ("Flat 3 is …", "Van 1 is …")."""
    return toks[i][:1].isdigit() and toks[i - 1][:1].isupper() and w_index > 1 and toks[i - 1] != "Flat" \
        and fold(toks[i - 2]) not in _QUALIFY


def _verb(toks: list[str], i: int) -> bool:
    """Whether ``toks[i]``, before a number, reads as a verb: a verb-like word, or a lower-case word ending in -s
    after a name or a pronoun ("Peter turns 75", "she swims 40 lengths")."""
    t = toks[i]
    if fold(t) in _VERBISH:
        return True
    if not (t[:1].islower() and t.endswith("s")) or i == 0:
        return False
    prev = toks[i - 1]
    return fold(prev) in _PRONOUNS or prev[:1].isupper() and i - 1 > 0 or prev[:1].isupper() and len(toks) > i + 1 \
        and fold(prev) not in _NOT_HEAD and prev.lower() != "the"


@lru_cache(maxsize=8192)
def named_things(text: str) -> frozenset[tuple[str, str]]:
    """The (kind noun, label) pairs ``text`` names its things by (not those it states as values)."""
    toks = _TOKEN.findall(text)
    words = [t for t in toks if t[:1].isalnum()]
    out: set[tuple[str, str]] = set()
    seen_verb = False
    w_index = -1
    for i, t in enumerate(toks):
        if not t[:1].isalnum():
            if t in {";", ":", ".", ","}:  # (a new clause: its first words name its subject again)
                seen_verb, w_index = False, -1
            continue
        w_index += 1
        low = fold(t)
        if i > 0 and toks[i - 1][:1].isalpha() and fold(toks[i - 1]) not in _NOT_HEAD and len(toks[i - 1]) > 2 \
                and not _verb(toks, i - 1) and not _version(toks, i, w_index):
            label = _label(toks, i)
            if label and not (i > 1 and fold(toks[i - 2]) in _VALUE_BEFORE and fold(toks[i - 2]) not in _QUALIFY):
                before = fold(toks[i - 2]) if i > 1 else ""
                early = w_index <= _FIRST_WORDS and not seen_verb
                if early or before in _QUALIFY:
                    out.add((_stem(toks[i - 1]), label))
        if low in _COLOURS and w_index <= _FIRST_WORDS and not seen_verb:
            # ("The blue van", "De rode trekker"; "El tractor rojo", "la camionnette blanche")
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            prev = toks[i - 1] if i > 0 else ""
            if nxt[:1].isalpha() and fold(nxt) not in _NOT_HEAD and fold(nxt) not in _VERBISH:
                out.add((_stem(nxt), "colour:" + low))
            if prev[:1].isalpha() and fold(prev) not in _NOT_HEAD and fold(prev) not in _VERBISH and len(prev) > 2:
                out.add((_stem(prev), "colour:" + low))
        if low in _VERBISH or low in _VALUE_BEFORE and low not in _QUALIFY and w_index > 0:
            seen_verb = True
    del words
    return frozenset(out)


def another_thing(old_text: str, new_text: str) -> str:
    """Why the two name two things of one kind ("Flat A" / "Flat B"), or "" when they do not."""
    old, new = named_things(old_text), named_things(new_text)
    if not old or not new:
        return ""
    for kind in {k for k, _ in old} & {k for k, _ in new}:
        mine = {lab for k, lab in old if k == kind}
        theirs = {lab for k, lab in new if k == kind}
        if mine.isdisjoint(theirs) and all(lab.startswith("colour:") for lab in mine) == all(
                lab.startswith("colour:") for lab in theirs):
            return (f"another thing of the kind {kind!r}: {sorted(theirs)} not {sorted(mine)} "
                    "(memengine/fact_identifier.py)")
    return ""
