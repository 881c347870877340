"""(brief40) A name a chat says as a place or a firm, not as a person: no People line.

A group organising something names the pubs, halls and firms it deals with bare and capitalised, as often as its
people and in the same places of a sentence: "Anchor rang, they've double booked", "Anchor have us down for sat 28th",
"Greystones want £120", "start at Greystones", "the buffet was miles better than Anchor's". brief37 caught a firm by a
trade word in its name ("Fenwick Joinery"), brief38 (off) one said after an article every time ("the Velvet Foxes");
a bare "Anchor" has neither and was a People line "named in 9 turns". A person reads it as a place by the frames it
takes, and the reading here is that, across every turn naming it:

* **place / firm frames**: after a preposition of place ("at Greystones", "in Kestrel", "en Ordax"); a verb agreeing
  in the plural right after it, with no other name joined to it ("Anchor have us down", "Harvex always do that",
  "Greystones want"; a British firm takes the plural, a person never); "they / them / their" as the first pronoun of
  the third person after it in the turn ("Anchor rang. they've double booked");
* **person frames**, any one of which keeps it a person: "he / she / him / his / her" as that first pronoun ("Marcus
  did his knee"), addressed ("Marcus!! welcome back", "thanks Bea", "..., Marcus?"), a person's verb or belonging
  right after it ("Bea said", "Marcus's knee": brief_namedpeople's cues), a role beside it ("my cousin Jo").

A name is a place when its turns give at least PLACE_MIN place frames and not one person frame. A real person dropped
from People is the worse error, so any sign of a person wins and the frames are only those a person cannot take
(English, with the prepositions of place of the other languages the brief reads).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memengine import brief_namedpeople

PLACES_NO_PERSON = True  # the switch (off: a bare place's name is a People line as before)
PLACE_MIN = 1  # place / firm frames needed, across the turns naming it (2: Plough and Brightside Autos stay people)

# prepositions of place before a name ("at Greystones", "in Kestrel", "dans Lindeboom", "im Adler"): a
# person is met "with" or "from" someone, not "at" or "in" them
_AT = frozenset("at in into inside outside near opposite dans im nel nella em".split())  # (not "en", "op": Dutch "and", "on")
# a verb in the plural right after a singular name: a collective (a firm, a venue), never one person
_PLURAL = frozenset("""have are were want do don't dont haven't havent aren't arent weren't werent say need charge
offer open close deliver reckon seem""".split()) | frozenset(("'ve", "’ve", "'re", "’re"))
_THEY = frozenset("they them their theirs they've they're they'll they'd theyve theyre theyll".split())
_HE_SHE = frozenset("he she him his her hers himself herself he's she's he'll she'll he'd she'd hes shes".split())
# a verb after the name that a firm or a venue does not do (a firm rings, quotes, sends, books and wants too)
_PERSON_VERBS = frozenset("""said says told tells thinks thought reckons feels felt hopes hoped loves loved hates hated
knows knew laughed cried agreed prefers preferred likes liked misses missed wonders married died retired""".split())
# addressed: a greeting or thanks right before the name
_GREET = frozenset("""hi hey hello thanks thank thx ta cheers congrats congratulations welcome bye night morning
dear love ciao hola gracias merci danke bedankt obrigado obrigada grazie hallo hoi salut""".split())
# what is done "at" a person ("laughing at Marcus", "mad at Tom"): no place
_AT_SOMEONE = frozenset("""look looked looking looks laugh laughed laughing shout shouted shouting yell yelled yelling
mad angry cross annoyed furious smile smiled smiling stare stared staring wave waved waving glare glared aim aimed
point pointed pointing throw threw swear swore snap snapped go went have had""".split())
_ADVERBS = frozenset("always never just still now already also then usually often".split())  # "Harvex always do"
_ARTICLE = frozenset("the".split())
_PLURALISH = re.compile(r"^[a-z]{2,}[^su'’]s$")  # "herons", "sets": a plural noun a "they" may stand for
_JOIN = frozenset("and & y e et und en og och or".split())  # another name joined to it: "Marcus and Dee have"
_WORD = re.compile(r"[\w'’]+")
_AUTHOR = re.compile(r"^[^\n:]{1,40}:\s*$")  # a chat turn's "Author: " before its text
PRONOUN_WORDS = 12  # the first pronoun of the third person within this many words after the name


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def frame(name: str, text: str, m: re.Match[str]) -> str:
    """The frame ``text`` says ``name`` in at ``m``: "person", "place" or "" (neither; the module docstring)."""
    before = _words(text[:m.start()])
    after = _words(text[m.end():])
    prev = before[-1][0] if before else ""
    lead = _AUTHOR.sub("", text[:m.start()]).strip(" \t\"'“(@")
    tail = text[m.end():].strip()
    # addressed: a turn opened by the name and a mark, a greeting before it, or ", Name?" closing a sentence
    if (not lead and tail[:1] in ("!", "?", ",")) or prev in _GREET or \
            (lead.endswith(",") and (not tail or tail[:1] in ("?", "!"))):
        return "person"
    said = text[m.start():m.end()]
    owner = said.endswith(("'s", "’s"))
    if any(p >= 2 and name in raw.split() for raw, p in brief_namedpeople._mentions(text).items()):
        return "person"  # a title or a role beside it ("my cousin Jo", "Dr Morel", "Bea is my neighbour")
    if after and (after[0][0] in brief_namedpeople._BELONGINGS if owner else after[0][0] in _PERSON_VERBS):
        return "person"  # "Marcus's wife", "Bea said"
    # the first pronoun of the third person after it, before another name ("Mitre rang. Jonah says he'll …": his)
    start = m.end()
    at = next((i for i, (w, a, _b) in enumerate(after[:PRONOUN_WORDS])
               if w in _HE_SHE or w in _THEY or text[start + a:start + a + 1].isupper() and w != "i"
               and not (i and after[i - 1][0] in _AT)), -1)  # (a place's name: "… Autos in Bow, try them")
    pron = after[at][0] if at >= 0 and (after[at][0] in _HE_SHE or after[at][0] in _THEY) else ""
    if pron in _THEY and any(_PLURALISH.match(w) for w, _a, _b in after[:at]):
        pron = ""  # "Tariq painted the herons, they look incredible": the plural is "they"
    if pron in _HE_SHE:
        return "person"
    joined = prev in _JOIN or bool(after) and after[0][0] in _JOIN
    if prev in _AT and not owner and not (len(before) >= 2 and before[-2][0] in _AT_SOMEONE):  # (not "at Josh's")
        return "place"
    if prev in _ARTICLE and not owner:  # "the Plough", "the Tellwright driver": a person's name takes no article
        return "place"
    verb = after[1][0] if len(after) >= 2 and after[0][0] in _ADVERBS else after[0][0] if after else ""
    if not owner and verb in _PLURAL and not joined:
        return "place"
    if pron in _THEY and not joined:
        return "place"
    return ""


def frames(name: str, texts: Iterable[str]) -> tuple[int, int]:
    """(place / firm frames, person frames) of ``name`` over ``texts`` (the module docstring)."""
    pattern = re.compile(r"(?<![\w'’])" + re.escape(name) + r"(?:['’]s)?(?![\w'’])")
    place = person = 0
    for text in texts:
        for m in pattern.finditer(text):
            got = frame(name, text, m)
            place += got == "place"
            person += got == "person"
    return place, person


def said_as_place(name: str, texts: Iterable[str]) -> bool:
    """Whether ``texts`` (the turns naming ``name``) say it as a place or a firm and never as a person."""
    place, person = frames(name, list(texts))
    return place >= PLACE_MIN and person == 0
