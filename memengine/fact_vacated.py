"""The older's value vacated by an event, and the slot filled anew (facts38): "The WD drive failed, so backups go to
an 8TB Samsung T9", "Let the Aviva policy lapse; kit is covered by Photoguard", "Gave up plot 14 and took over plot
22", "Mrs Okafor handed the treasurer's role to Dev Patel".

The rules before this one read a change by the shape of its sentence ("switched from X to Y", "X retired, so now Y
…"), each a shape someone wrote: a change told as *what happened to the old value* comes in any order and any verb.
This reading needs three things and no sentence shape:

- **the older's value named**: a word of the older's value (a name, a code, a number said after one of the older's
  own words: "plot 14" of "Allotment plot number is 14"), not as whose ("Jen's van"), in a clause of the newer;
- **an event that ends it in that clause**: a verb of the class that ends a thing's holding of a role (it failed,
  lapsed, expired, closed, was sold, handed over, retired, gave up, died, broke, wore out, was removed, was dropped
  …), in any inflection; the class is the English verbs of ending, leaving and disposing, written from the language,
  not from a sample (:data:`_END`);
- **a new value**: the newer names a name, a code or a number the older does not, outside the value it ended.

Guards: the newer is asserted (memengine/fact_mood.py), adds nothing ("also", "a second", "spare"), says no while
("this week", "until", "on holiday", "for now"), and names no possessor the older does not ("Jen's RAC cover
lapsed"). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_left_clause, fact_mood, facts
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import TITLES
from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, fold_text
from memengine.fact_types import Verdict

__all__ = ["ADDING", "NOT_STATE", "REASON", "another_role", "ending", "new_value", "older_values", "vacated", "value_hits", "written_as_name"]

REASON = "the older's value vacated by an event, the slot filled anew"

_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*\+?")


def _forms(base: str) -> set[str]:
    """The past and the -ing form of a regular English verb (a final e, y or consonant handled): the base and -s
    forms are left out, most of them nouns too ("the end", "a bus stop", "a fire drill")."""
    if base.endswith("e"):
        return {base + "d", base[:-1] + "ing"}
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return {base[:-1] + "ied", base + "ing"}
    return {base + "ed", base + "ing", base + base[-1] + "ed", base + base[-1] + "ing"}


# The verbs that end a thing's holding of a role, English: failing, lapsing, closing, leaving, disposing, handing on.
# Written from the language's verbs of ending (regular ones inflected by _forms; irregular pasts listed), and
# phrasal ones whose particle makes the ending ("gave up", "wore out", "packed in").
_REGULAR = ("fail lapse expire end stop close cancel terminate retire resign die crack remove drop ditch dump scrap "
            "bin discontinue decommission axe sunset delete uninstall unsubscribe quit finish fire sack "
            "cease abandon shutter dissolve liquidate collapse vacate surrender retract withdraw revoke")
_IRREGULAR = "sold selling left leaving broke broken lost losing stole stolen quit quitting"
_PHRASAL = (r"gave\s+up|give\s+up|given\s+up|giving\s+up|handed(?:\s+(?:over|on|back))?|hand(?:s|ing)?\s+over|"
            r"passed\s+(?:on|over)|stepped\s+down|stood\s+down|step(?:s|ping)?\s+down|wore\s+out|worn\s+out|"
            r"packed\s+(?:in|up)|went\s+(?:bust|under|out\s+of\s+business)|shut\s+(?:down|up)?|closed\s+down|"
            r"ran\s+out|run\s+out|written\s+off|wrote\s+off|traded\s+(?:in|away)|trade\s+in|let\s+(?:\S+\s+){0,4}"
            r"(?:lapse|go|expire)|got\s+rid\s+of|paid\s+off|switched\s+off|turned\s+off|moved\s+(?:away|out|on)|"
            r"lost\s+the\s+contract|pulled\s+out|(?:moved|went|gone)\s+to\s+(?:a|an|another)\s+(?:new\s+)?(?:firm|job|practice|"
            r"company|school|club|team|agency|clinic|post|role)\b")
# the same class in the other languages the engine reads (folded: accents off), written from each language's verbs of
# retiring, leaving, closing, failing, selling, dying, cancelling and expiring (facts39: "Ramón se jubiló, ahora …"); in a
# past tense or with its auxiliary, never the bare adjective of a state ("ferme à 19h", "è chiuso il lunedì", "está
# cerrado", "ist montags geschlossen", "is gesloten": opening hours, not an ending)
_OTHER = (r"(?:se\s+)?jubil(?:o|ado|ada|aron)|(?:se\s+)?retir(?:o|aron)|dej(?:o|amos|aron)|"
          r"cerr(?:o|aron)|quebr(?:o|aron)|vendi(?:o|mos|eron)|muri(?:o)|fallecio|renuncio|dimitio|"
          r"se\s+(?:fue|marcho)|cancel(?:o|amos|aron)|caduc(?:o)|se\s+(?:rompio|estropeo)|"
          r"(?:se\s+)?aposentou|saiu|fech(?:ou|aram)|faliu|vendeu|morreu|faleceu|cancelou|"
          r"pediu\s+demissao|se\s+demitiu|expirou|"
          r"(?:a\s+)?pris\s+sa\s+retraite|est\s+a\s+la\s+retraite|est\s+partie?|a\s+ferme|a\s+fait\s+faillite|"
          r"a\s+vendu|est\s+decedee?|a\s+demissionne|a\s+resilie|a\s+quitte|a\s+arrete|"
          r"in\s+(?:rente|pension|den\s+ruhestand)|aufgehort|hort\s+auf|gekundigt|zugemacht|pleite|insolvent|"
          r"verkauft|gestorben|abgelaufen|aufgegeben|abgeschafft|ausgeschieden|"
          r"andat[oa]\s+in\s+pensione|in\s+pensione|ha\s+chiuso|fallit[oa]|ha\s+venduto|e\s+mort[oa]|"
          r"(?:si\s+e\s+)?dimess[oa]|ha\s+smesso|ha\s+lasciato|e\s+scadut[oa]|ha\s+disdetto|"
          r"met\s+pensioen|gestopt|opgezegd|failliet|verkocht|overleden|vertrokken|weggegaan|"
          r"is\s+verlopen|opgeheven")
_OTHER_RE = re.compile(_OTHER)
_END = re.compile(r"\b(?:" + _OTHER + "|" + _PHRASAL + "|" + "|".join(sorted({f for b in _REGULAR.split() for f in _forms(b)}
                                                               | set(_IRREGULAR.split()), key=lambda w: (-len(w), w)))
                  + r")\b")
# a while: the value is away for a time, not ended ("Kofi is on holiday, so Hamza does the deliveries next week")
_WHILE = re.compile(r"\b(?:today|tonight|tomorrow|this\s+(?:week|weekend|morning|afternoon|evening)|next\s+week|"
                    r"for\s+(?:now|the\s+(?:week|day|weekend|time\s+being)|a\s+(?:week|while|bit|few)|\w+\s+(?:days|weeks))|"
                    r"until|till|meanwhile|temporarily|on\s+(?:holiday|leave|paternity|maternity)|off\s+sick|"
                    r"while|in\s+the\s+meantime)\b")
ADDING = frozenset("also too another second extra spare additional".split())  # one more, not instead (fact_shift too)
# an older that is no state of a slot: one more of a kind ("Bought a second Podmic", "two spare Michelins"), an
# exception that stays ("The primary down the road still uses SIMS"), or an event told ("Transferred the domain …",
# "Asked Triodos about …"): its value ended elsewhere says nothing of it
_NOT_STATE = ADDING | frozenset("still two three several spare".split())
_TOLD = re.compile(r"^(?:[a-z]+ed|(?:re)?(?:bought|sold|got|made|took|gave|went|left|met|sent|built|lent|lost|found|"
                   r"put|brought|paid|spent|won|ran|began|wrote|did|kept|held|told|said|set|cut|shut|hung|drew|"
                   r"chose|threw|fed|led|dug|sat|stood|spoke|broke|stole))\b")
_THEIRS = frozenset("his her their hers theirs".split())


def _keys(text: str) -> list[str]:
    return [fold_text(w) for w in _WORD.findall(text)]


def written_as_name(word: str, first: bool) -> bool:
    """Whether ``word`` is written as a name or a code (capitalised past the first word, a digit, "iPhone")."""
    return not first and word[:1].isupper() or any(c.isdigit() for c in word) or word[:1].islower() and any(
        c.isupper() for c in word[1:])


_USER_IS = re.compile(r"^(?i:the\s+)?(?i:user)(?:'s\s+name)?\s+is\s+([A-Z][^\W\d_]*(?:\s+[A-Z][^\W\d_]*)*)")


@lru_cache(maxsize=4096)
def _older(old: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The older's value names (past its subject), its numbers with the word said before each, and its keys."""
    f = facts.analyse(old)
    subject = {p for w in f.words[:f.subject_end] for p in w.key.split()}
    subject |= {fold_text(m.group(1)) for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s", old)}  # whose: no value
    words = _WORD.findall(old)
    keys = [fold_text(w) for w in words]
    # whom the store is about, introduced ("The user is Rohan Mehta, a PhD student …"): no value a move of theirs
    # ends ("Rohan has moved out of Leith", facts39)
    subject |= {fold_text(w) for m in _USER_IS.finditer(old) for w in m.group(1).split()}
    subject |= _subject_names(old, subject)
    names: set[str] = set(fact_left_clause._values(old)) - subject
    numbers: set[str] = set()
    for i, (w, k) in enumerate(zip(words, keys)):
        if k in STOPWORDS or k in TITLES or k in WEEKDAYS or k.removesuffix("s") in WEEKDAYS or k in MONTHS \
                or any(same_word(k, s) for s in subject):
            continue
        if k.isdigit():
            before = [b for b in keys[:i] if b not in STOPWORDS and not b.isdigit()]
            numbers.update(f"{b} {k}" for b in before)  # ("plot 14" of "Allotment plot number is 14")
        elif written_as_name(w, i == 0) and len(k) > 1:
            names.add(k)
    return frozenset(names), frozenset(numbers), frozenset(keys)


_WHOSE = frozenset("van von vom de di da du des del do of".split())
_ARTICLES = frozenset("the a an his her their my our its la el los las le les il lo un una une der die das den dem "
                      "ein eine einen de het een o os as um uma".split())


def _subject_names(old: str, subject: set[str]) -> set[str]:
    """The names that carry on the older's subject phrase: a title's name ("Herr Vogel"), whose it is ("De huisarts
    van Sanne", "Le médecin de Paul"): the person the older is about, no value an event of theirs ends (facts39)."""
    words = _WORD.findall(old)
    out: set[str] = set()
    last = max((i for i, w in enumerate(words) if fold_text(w) in subject), default=-1)
    if last < 0:
        return out
    i = last + 1
    if i < len(words) and fold_text(words[i]) in _WHOSE and i + 1 < len(words) and words[i + 1][:1].isupper():
        i += 1
    while i < len(words) and words[i][:1].isupper():
        out.add(fold_text(words[i]))
        i += 1
    return out


_WHERE = frozenset("in at near from during after before since until".split())  # (no object follows these)


def _other_object(part: str, m: re.Match[str], hit: list[str]) -> bool:
    """Whether the ending verb matched at ``m`` (in the folded ``part``) has a named object of its own that is no
    word of ``hit``, right after it or right before it (verb-final), an article between at most: the verb ends that
    thing, not the older's value ("Andrés ha vendido la Vespa" names Andrés, who sold nothing of the older's)."""
    low = fold_text(part)
    if len(low) != len(part):
        return False
    after = _WORD.findall(part[m.end():])[:3]
    before = _WORD.findall(part[:m.start()])[-3:]
    runs: list[list[str]] = []
    if after:
        k = 1 if fold_text(after[0]) in _ARTICLES else 0
        # (a month or a weekday after the verb is when it ended, a preposition's noun where: no object, "Mrs Patel
        # retired in July", "Megan moved to a firm in Bristol")
        runs.append([w for w in after[k:k + 2] if w[:1].isupper() and fold_text(w) not in MONTHS
                     and fold_text(w).removesuffix("s") not in WEEKDAYS][:1]
                    if k < len(after) and fold_text(after[0]) not in _WHERE else [])
    if after and _OTHER_RE.fullmatch(m.group(0)) and fold_text(after[0]) in _ARTICLES and any(
            fold_text(w) in hit for w in _WORD.findall(part[:m.start()])):
        return True  # (a verb of another language with its object after it: "Élodie a arrêté la course", "Pau dejó la
        # natación": the activity ended, not its subject; English keeps "Trude has left the clinic" as her role's end)
    if before and not hit[0] == fold_text(before[-1]):
        # (verb-final: "den Golf verkauft"; not the subject right before an intransitive: "Ramón se jubiló")
        if len(before) >= 2 and fold_text(before[-2]) in _ARTICLES and before[-1][:1].isupper():
            runs.append([before[-1]])
    return any(r and not any(fold_text(w) in hit for w in r) for r in runs)


def _hits(clause: str, names: frozenset[str], numbers: frozenset[str], old_keys: frozenset[str]) -> list[str]:
    """The older's value words ``clause`` names, not as whose ("Jen's", "Kofi's brother"), each in a run of names
    the older says all of ("Harbour Surgery" is not "Harbour Lettings", "Scottish Canals" not "Canal Wharf")."""
    words = _WORD.findall(clause)
    run: list[str] = []
    for i, w in enumerate(words + [""]):
        if w and written_as_name(w, i == 0) and not w.isdigit():
            run.append(fold_text(w))
            continue
        if any(k in names for k in run) and not all(k in names or k in TITLES for k in run):
            return []
        run = []
    keys = [fold_text(w) for w in words]
    out = []
    for i, k in enumerate(keys):
        nxt = clause[clause.find(words[i]) + len(words[i]):][:2]
        if nxt[:2] in ("'s", "’s") or nxt[:1] in ("'", "’") and k.endswith("s"):
            continue
        if k in names and written_as_name(words[i], False):  # (written as a name here too: not "the wharf" of "Canal Wharf")
            out.append(k)
        elif k.isdigit() and i > 0 and any(f"{b} {k}" in numbers or any(same_word(b, n.split()[0]) and n.split()[1] == k
                                                                       for n in numbers) for b in keys[max(0, i - 2):i]):
            out.append(k)
    return out


# the new value said to hold a role by a copula: "Chloe is our dog walker now", "o Rui é o nosso fisioterapeuta"
_ROLE = re.compile(r"\b(?:is|are|e|es|est|ist|son|sont|sind|zijn)\s+(?:(?:now|agora|ahora|jetzt|maintenant|ora|nu)\s+)?"
                   r"(?:our|my|the|his|her|their|o\s+nosso|a\s+nossa|o\s+meu|a\s+minha|nuestro|nuestra|notre|mon|ma|"
                   r"unser|unsere|mein|meine|il\s+nostro|la\s+nostra|il\s+mio|la\s+mia|onze|mijn)\s+((?:[a-z][\w-]*\s*){1,3})")


def _another_role(new: str, came: str, old_keys: frozenset[str]) -> bool:
    """Whether the newer says its new value holds a role the older does not name ("Emma left for college, so Chloe is
    our dog walker now" after "Our babysitter is Emma": another role filled, the babysitter's not said)."""
    for clause in fact_left_clause.clauses(new):
        if came not in _keys(clause):
            continue
        for m in _ROLE.finditer(fold_text(clause)):
            role = [k for k in _keys(m.group(1)) if k not in STOPWORDS and k not in ("now", "these", "days")]
            if role and not any(same_word(k, o) for k in role for o in old_keys):
                return True
    return False


def _new_value(text: str, old_keys: frozenset[str], ended: set[str]) -> str:
    """A name, a code or a number ``text`` says that the older does not, outside what it ended (nor in the ended
    one's run of names: "Trude Haugland has left" names no Haugland who came, facts39), or ""."""
    words = _WORD.findall(text)
    runs: list[int] = []  # each word's run of names (consecutive words written as names), by its first word
    for i, w in enumerate(words):
        runs.append(runs[-1] if i and words[i - 1][:1].isupper() and w[:1].isupper() else i)
    gone = {runs[i] for i, w in enumerate(words) if fold_text(w) in ended}
    for i, w in enumerate(words):
        k = fold_text(w)
        if k in old_keys or k in ended or k in STOPWORDS or k in MONTHS or k in WEEKDAYS or k in TITLES \
                or k.rstrip("s") in WEEKDAYS or runs[i] in gone:
            continue
        if written_as_name(w, i == 0):
            return k
    # a brand written in lower case, where a move puts it ("Ported my number to giffgaff", facts39)
    for m in _MOVED_TO.finditer(fold_text(text)):
        k = m.group(1)
        if k not in old_keys and k not in ended and k not in STOPWORDS and len(k) > 2:
            return k
    return ""


_MOVED_TO = re.compile(r"\b(?:ported|moved|switched|transferred|changed|went\s+over|migrated)\b(?:\s+[^\W\d_]+){0,3}?"
                       r"\s+(?:to|into|onto|over\s+to)\s+([^\W\d_][\w-]*)")


def vacated(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when a clause of ``new`` names the older's value with an event that ends it and the newer
    names a new value (see the module docstring), else None."""
    ln = fold_text(new)
    if fact_mood.unasserted(new) in ("plan", "question", "hypothesis", "request", "wish"):
        return None
    keys = set(_keys(new))
    if keys & ADDING or "as well" in ln or _WHILE.search(ln):
        return None
    names, numbers, old_keys = _older(old)
    if not names and not numbers:
        return None
    lo = fold_text(old)
    if old_keys & _NOT_STATE or _TOLD.match(lo) or fact_mood.unasserted(old) in ("plan", "question", "hypothesis"):
        return None
    if any(fold_text(m.group(1)) not in keys | {"user", "users"} for m in re.finditer(r"\b([A-Z][^\W_]*)(?:'s|’s)\s", old)):
        return None  # the older is someone else's the newer does not name ("Jen's breakdown cover is with the AA")
    if _THEIRS & keys - old_keys and not any(fold_text(m.group(1)) in keys
                                             for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s", old)):
        return None  # another person's ("Jen let her RAC cover lapse"; not the older's own "Aoife sold her R6")
    if any(fold_text(m.group(1)) not in lo for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", new)
           if fold_text(m.group(1)) not in names):
        return None  # a possessor the older does not name ("Jen's breakdown cover lapsed")
    for clause in fact_left_clause.clauses(new, reasons=True):
        parts = re.split(r"\s+and\s+", clause)
        for i, part in enumerate(parts):
            m = _END.search(fold_text(part))
            if m is None:
                continue
            hit = _hits(part, names, numbers, old_keys)
            if hit and _other_object(part, m, hit):
                continue  # the verb ends another thing ("Andrés ha vendido la Vespa", "Jonas hat den Golf verkauft")
            if not hit and i > 0 and not _new_value(part, frozenset(), set()):
                # (an ending verb with no value of its own ends the one before "and": "The Canon kept jamming and
                # finally failed"; not "Let the RAC cover lapse and joined the AA", whose AA is what came)
                hit = _hits(parts[i - 1], names, numbers, old_keys)
            if hit:
                break
        else:
            continue
        came = _new_value(new, old_keys, set(hit))
        if came and not _another_role(new, came, old_keys):
            return Verdict("slot", f"{REASON}: {hit[0]} ({m.group(0)}) -> {came}", 0.8)
    return None


def ending(low: str) -> bool:
    """Whether the folded ``low`` holds a verb that ends a thing's holding of a role (memengine/fact_one_off.py)."""
    return _END.search(low) is not None


# (read by memengine/fact_reason_value.py too: the older's value named beside a new one, with no verb of ending)
older_values = _older
value_hits = _hits
new_value = _new_value
another_role = _another_role
NOT_STATE = _NOT_STATE
