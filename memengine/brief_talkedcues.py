"""(brief33) People a chat talks about whose names are NOT capitalised, or not always.

brief_talkedabout (brief32) read a person from a capitalised word with evidence around it, and a word the turns also
wrote in lower case was never a name (a sentence's first word: "Tamam", "Shall"). Chats written by other people broke
that on every person the lead's blind chats talked about: terse writers write names in lower case ("gareth put me on
the rota", "bev says the cake will be lemon", "uncle ray's party moved"), half the time ("his name is Marcus
apparently" … "marcus is actually really nice?? he bought a round"), or name people by what they are to them ("nan's
90th", "your nan", "jo from work", "my uncle ray"). Read here, by the words around the word and no list of names:

* a word written in lower case is a name when a cue says so in some turn (:func:`lower_names`): a relation or role
  right before it ("uncle ray", "auntie bev", "my boss gareth": 2 points), "from work / school / uni" right after
  it ("jo from work": 2), a person's belonging or age after its "'s" ("ray's 60th", "nan's fave": 1), a verb only
  people do after it ("bev says", "priya asked": 1), or it is a kinship word said as a name ("nan", "gran": 2, in
  every turn); and it is never written after an article or a determiner ("the van", "a bed", "this gig"), never a
  stop word, a role, a day or a month, never an author's word;
* a capitalised word written in lower case too is a name when it is capitalised INSIDE a sentence at least once
  ("his name is Marcus apparently"): :func:`mid_capitalised`; a sentence's first word ("Tamam", "Hahaha") is not.

brief_talkedabout then reads those turns with the name capitalised (:func:`recased`), so its evidence cues, counts and
thresholds apply unchanged. The cues are English (and the kinship words of the brief's other languages).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from memengine import brief_namedpeople, summarize, topic_words

# kinship words said as a name ("poor nan", "nan's 90th", "tell grandad"): a person in every turn
KIN_NAMES = frozenset("""nan nana nanna nanny gran granny grandma grandmother grandpa grandad granddad grandpa gramps
grandmom grandmum oma opa omi opi mamie papi papy mémé pépé abuela abuelo abuelita abuelito yaya nonna nonno
babcia dziadek babcią babci dziadka dziadkiem babaanne anneanne dede""".split())
# relations and roles said right before a person's name ("uncle ray", "auntie bev", "my boss gareth", "cousin jo")
_BEFORE = brief_namedpeople._ROLES | frozenset("""auntie aunty uncle bro sis bestie mate pal bf gf hubby wifey fiance
step-mum stepmum stepdad step-dad cuz""".split())
# what a person's "'s" is followed by: brief_namedpeople's belongings, and a party, a birthday's age ("ray's 60th")
_BELONGS = brief_namedpeople._BELONGINGS | frozenset("""party fave favourite favorite place bday do leaving hen stag
funeral surgery operation op new""".split())
_AGE = re.compile(r"^\d{1,3}(?:st|nd|rd|th)$")
# a verb only people do right after the name ("bev says", "priya asked", "gareth put me on the rota")
_VERBS = brief_namedpeople._HUMAN_VERBS | frozenset("""posted messaged rang phoned texted replied reckons thinks
says asked told wants put gave invited""".split())
# (roles said of several people are no cue: "my friends look", "my teammates come" — LoCoMo's speakers)
_SINGLE = frozenset(r for r in _BEFORE if not (r.endswith("s") and (r[:-1] in _BEFORE or r[:-2] in _BEFORE))
                    and r not in ("parents", "kids", "children", "friends", "grandparents", "in-laws"))
LOWER_WRITER_SHARE = 0.3  # an author whose turns start in lower case this often writes names in lower case too
# a relation said right before a name with no possessive ("uncle ray", "auntie bev", "cousin jo"); any other role
# needs one before it ("my boss gareth", "her sister Jo": not "grandpa sleeps", "landlord asap")
_PREFIXES = frozenset("uncle auntie aunty aunt cousin cuz bro sis".split())
_POSSESSIVES = frozenset("my your his her our their".split())
_FROM = frozenset("work school uni college office gym church football class choir".split())
# an article or determiner before a word: no name ("the van", "a bed", "this gig", "every sunday")
_DETERMINERS = frozenset("a an the this that these those some any every each no another".split())
_CALLED = frozenset("called named".split())  # "his name is Marcus", "a guy called Marcus"
# a common noun for "some person" is no name even with a person's verb after it ("guy said the damp…", "damp guy
# coming thu", "hyperoptic guy here": the lead's blind chats gave "Guy" a People line)
_PERSON_NOUNS = frozenset("""guy guys bloke blokes chap chaps dude dudes fella fellas fellow lad lads lass lady ladies
man men woman women kid kids girl girls boy boys baby person people someone somebody everyone everybody anyone
nobody folks""".split())
_WORD = re.compile(r"[^\W_][\w'’-]*")
_SENT_OPEN = re.compile(r"(?:^|[.!?:;\n])[\s\"'“‘(¡¿-]*$")


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(word as written, lower-cased word without "'s", start) of each word of ``text``."""
    return [(m.group(), m.group().lower().removesuffix("'s").removesuffix("’s"), m.start())
            for m in _WORD.finditer(text)]


def lower_writers(turns: Iterable[tuple[str, str]]) -> set[str]:
    """The authors (lower-cased) of (author, text) turns who start LOWER_WRITER_SHARE of their turns or more in lower
    case ("u seen what priya posted"): they write names in lower case too. Writers who capitalise (LoCoMo's speakers)
    write a word in lower case because it is one ("my friends look", "customers love it")."""
    starts: dict[str, list[int]] = {}
    for author, text in turns:
        at = text.lower().find(author.lower() + ": ", 0, 80)  # ("dan: …", "[6:46 pm on 23 July, 2023] Gina: …")
        body = text[at + len(author) + 2:] if at >= 0 else text
        first = next((ch for ch in body if ch.isalpha()), "")
        if first:
            starts.setdefault(author.lower(), []).append(first.islower())
    return {a for a, s in starts.items() if sum(s) >= LOWER_WRITER_SHARE * len(s)}


def lower_names(texts: Iterable[str], exclude: Collection[str], english: bool = True) -> dict[str, int]:
    """Each word the texts write in lower case that a cue names as a person (see the module docstring), with the
    points the cues gave it; none of ``exclude`` (authors' words, names the People section has). Not ``english``:
    the kinship words only ("Mamie", "Papi": the other cues are English words; "den", "prima", "son" are not names)."""
    points: dict[str, int] = {}
    barred: set[str] = set()
    for text in texts:
        toks = _tokens(text)
        for k, (word, low, _at) in enumerate(toks):
            if not word[:1].islower():
                continue
            if k and toks[k - 1][1] in _DETERMINERS and _adjacent(text, toks, k - 1):
                barred.add(low)
                continue
            if can_name(low, exclude) and (english or low in KIN_NAMES):
                got = _cue(text, toks, k)
                if got:
                    points[low] = points.get(low, 0) + got
    return {w: p for w, p in points.items() if w not in barred}


def name_cues(texts: Iterable[str], names: Collection[str]) -> dict[str, int]:
    """The points :func:`_cue` gives each of ``names`` (lower-cased) in the texts, written in any case, with a
    naming ("his name is Marcus", "a guy called Marcus": 2); none for a word the texts also say after an article
    ("the hospital rang": a thing). (A pronoun after the name was measured as a cue and dropped: "… the Harlow
    extension, worried about light to her kitchen" gave a house a People line.)"""
    points: dict[str, int] = {}
    barred: set[str] = set()
    for text in texts:
        toks = _tokens(text)
        for k, (_word, low, _at) in enumerate(toks):
            if low not in names:
                continue
            if k and toks[k - 1][1] in _DETERMINERS and _adjacent(text, toks, k - 1):
                barred.add(low)
                continue
            got = _cue(text, toks, k)
            before = [t[1] for t in toks[max(0, k - 2):k]]
            if before[-1:] and before[-1] in _CALLED or before == ["name", "is"]:
                got = max(got, 2)
            if got:
                points[low] = points.get(low, 0) + got
    return {w: p for w, p in points.items() if w not in barred}


def determined(texts: Iterable[str]) -> set[str]:
    """The lower-cased words the texts say right after an article or a determiner ("the hospital", "a flat")."""
    out: set[str] = set()
    for text in texts:
        toks = _tokens(text)
        out.update(toks[k][1] for k in range(1, len(toks))
                   if toks[k - 1][1] in _DETERMINERS and _adjacent(text, toks, k - 1))
    return out


def _adjacent(text: str, toks: list[tuple[str, str, int]], k: int) -> bool:
    """Whether word ``k`` and the next one stand side by side (spaces only between: not "Mum: nan's", where the
    author's name ends a turn's prefix)."""
    end = toks[k][2] + len(toks[k][0])
    return k + 1 < len(toks) and not text[end:toks[k + 1][2]].strip()


def _cue(text: str, toks: list[tuple[str, str, int]], k: int) -> int:
    """The points the words around word ``k`` give it as a person's name (the module docstring's cues)."""
    word, low, _at = toks[k]
    prev = toks[k - 1][1] if k and _adjacent(text, toks, k - 1) else ""
    nxt = toks[k + 1][1] if _adjacent(text, toks, k) else ""
    nxt_raw = toks[k + 1][0].lower() if nxt else ""
    possessive = word.lower().endswith(("'s", "’s"))
    if low in KIN_NAMES:
        return 2
    owner = toks[k - 2][1] if k >= 2 and _adjacent(text, toks, k - 2) else ""
    of_role = prev and toks[k - 1][0].lower().endswith(("'s", "’s"))  # "my mum's knee": the role's belonging
    if (prev in _PREFIXES or prev in _SINGLE and owner in _POSSESSIVES) and low not in _VERBS and not of_role:
        return 2
    if nxt == "from" and k + 2 < len(toks) and toks[k + 2][1] in _FROM:
        return 2
    if possessive and (nxt in _BELONGS or _AGE.match(nxt_raw)):
        return 1
    if not possessive and nxt in _VERBS and (not prev or prev in summarize.STOPWORDS):
        return 1  # ("bev says", "what priya posted"; not "the planning officer says": a compound's head)
    return 0


def can_name(low: str, exclude: Collection[str]) -> bool:
    """Whether the lower-cased word ``low`` may be a person's name at all (no stop word, role, verb of people, day,
    month, title or common noun for a person; none of ``exclude``); (brief36) no chat filler either ("sorry sent
    now", "sorry only just seeing this": the lead's blind hen-do chat listed "Sorry" as a person talked about)."""
    return len(low) >= 2 and low not in exclude and low not in summarize.STOPWORDS and not topic_words.is_filler(low) \
        and (low in KIN_NAMES or low not in _BEFORE) and low not in brief_namedpeople._CALENDAR \
        and low not in brief_namedpeople._TITLES and low not in _VERBS and low not in _PERSON_NOUNS \
        and "'" not in low and "’" not in low


def mid_capitalised(texts: Iterable[str]) -> set[str]:
    """The lower-cased words the texts capitalise inside a sentence at least once ("his name is Marcus")."""
    out: set[str] = set()
    for text in texts:
        for word, low, at in _tokens(text):
            if word[:1].isupper() and not _SENT_OPEN.search(text[max(0, at - 4):at]):
                out.add(low)
    return out


def recased(text: str, names: Collection[str]) -> str:
    """``text`` with each lower-case word of ``names`` capitalised ("bev says" -> "Bev says"), so the capitalised
    readers (brief_namedpeople._mentions) see it as a name."""
    if not names:
        return text
    return _WORD.sub(lambda m: m.group()[:1].upper() + m.group()[1:] if m.group()[:1].islower() and m.group().lower()
                     .removesuffix("'s").removesuffix("’s") in names else m.group(), text)


def label(texts: Iterable[str], name: str) -> str:
    """What the turns call ``name`` right before it, when they always do the same ("uncle" of "uncle ray", "auntie"
    of "auntie bev"), or "" — shown after the name: ``ray (uncle)``."""
    said: set[str] = set()
    low_name = name.lower()
    for text in texts:
        toks = _tokens(text)
        for k, (_w, low, _at) in enumerate(toks):
            if low == low_name and k and toks[k - 1][1] in _BEFORE and _adjacent(text, toks, k - 1) and \
                    _cue(text, toks, k) == 2:
                said.add(toks[k - 1][1])
            elif low == low_name and k + 2 < len(toks) and toks[k + 1][1] == "from" and toks[k + 2][1] in _FROM \
                    and _adjacent(text, toks, k):
                said.add(f"from {toks[k + 2][1]}")
    return next(iter(said)) if len(said) == 1 else ""


# (brief33) a person named only by what they are to someone: "my boss wants me in on sat", "your boss is a nightmare",
# "the landlord says …" — a role after a possessive or "the", not followed by a name; one role, one person
RELATIONS = frozenset("""boss manager colleague coworker co-worker supervisor uncle aunt auntie aunty cousin sister
brother mum mom mam dad girlfriend boyfriend partner husband wife fiance fiancé fiancee fiancée landlord landlady
neighbour neighbor flatmate housemate roommate gp doctor dentist therapist physio teacher tutor coach stepmum stepdad
bf gf""".split())
_OWNERS = _POSSESSIVES | {"the"}
RELATION_TURNS = 3  # turns naming the relation (fewer: a passing mention)


def relations(turns: Iterable[tuple[int, str, str]], taken: Collection[str]
              ) -> dict[str, tuple[list[int], set[str], str]]:
    """Each role of :data:`RELATIONS` the turns (id, author, text) say after a possessive or "the" and before no name,
    in RELATION_TURNS turns or more: ``{role: (turn ids, lower-cased authors, owner)}`` (``owner``: the author whose
    "my X" it is, when every "my" is theirs, else ""); none of ``taken`` (authors' words, the roles that name a
    person already: "uncle" of "uncle ray")."""
    ids: dict[str, list[int]] = {}
    who: dict[str, set[str]] = {}
    mine: dict[str, set[str]] = {}
    for mid, author, text in turns:
        toks = _tokens(text)
        for k in range(1, len(toks)):
            low = toks[k][1]
            if low not in RELATIONS or low in taken or toks[k - 1][1] not in _OWNERS or \
                    not _adjacent(text, toks, k - 1):
                continue
            nxt = toks[k + 1][0] if _adjacent(text, toks, k) else ""
            if nxt[:1].isupper() and nxt.lower() not in summarize.STOPWORDS:
                continue  # "my boss Karen": the name's line
            if mid not in ids.setdefault(low, []):
                ids[low].append(mid)
                who.setdefault(low, set()).add(author.lower())
            if toks[k - 1][1] == "my":
                mine.setdefault(low, set()).add(author)
    out = {}
    for role, said in ids.items():
        if len(said) >= RELATION_TURNS:
            owners = mine.get(role, set())
            out[role] = (said, who[role], next(iter(owners)) if len(owners) == 1 else "")
    return out
