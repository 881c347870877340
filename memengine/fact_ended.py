"""The older's value ended by a verb, or its thing redone in another, a new value named (facts36).

An agent notes a change by what happened to the old value, not by "now" or "moved to": "The HP printer died; a
Brother HL-L5100 replaced it", "Trello boards archived; projects are tracked in Linear", "Petra retired at Easter;
the books are done by Jon Mbeki", "Bought a Framework 13 to replace the ThinkPad", "Opened a Monzo account and
closed the Nationwide one", "Stopped seeing Dr Ferris, now works with Dr Oyelaran". And by redoing the older's thing
in another: "Rebuilt the agency site in Astro" after "The agency's own site runs on Hugo", "Transferred all the
domains to Cloudflare Registrar" after "Domain names are registered with Namecheap", "Upgraded to an iPhone 15"
after "User's phone is an iPhone 12 mini".

:func:`ended` reads two shapes, each with its evidence that the two are one slot:

- **ended**: a verb of ending (died, retired, stopped, closed, cancelled, archived, sold, stolen, gave up, replaced,
  to replace …) takes, within a few words, a word of the older's value (never of its subject: "Replaced the oil
  boiler" says nothing of "The boiler is serviced by Hartwell"), the head of what it takes being that word or a
  name ("the spare pine chairs" are not "an old pine table"); and the rest of the newer names a name or a code the
  older does not ("a Brother HL-L5100"), or, for "replaced / swapped X with / for Y", what Y names.
- **redone**: a verb of redoing (rebuilt, rewrote, migrated, transferred, ported, upgraded …) whose object names
  nothing but words of the older's subject ("the agency site", "all the domains"), or no object at all with a
  destination of the older's product line ("to an iPhone 15"), then "to / in / on / onto / into" a name the older
  does not hold, the older's own value a name.

Guards: the newer is asserted (memengine/fact_mood.py), adds nothing ("also", "a second", "another"), opens with no
scope or occasion, says no while ("this week", "until", "meanwhile", "for three days", "on leave"), and what
ended is no one's own ("Ines's phone", "the TV's soundbar": another thing's). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_left_clause, fact_mood, fact_person, facts
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import ADDITIVE, TITLES
from memengine.fact_lexicon import LANG_AUX, LANG_COPULA, MONTHS, STOPWORDS, WEEKDAYS, fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "REDONE", "ended"]

REASON = "the older's value ended, another named"
REDONE = "the older's thing redone in another"

_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*\+?")
# a verb that ends what it takes (object next): "closed the Nationwide one", "to replace the ThinkPad"
_END_OBJ = re.compile(
    r"\b(?:replaced|replace|replacing|swapped|swap|sold|selling|closed|cancell?ed|stopped|quit|dropped|ditched|"
    r"retired|archived|scrapped|dumped|binned|ended|terminated|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|"
    r"got\s+rid\s+of|left|fired|sacked|"
    # a provider or a place left, said by where one is no longer (facts37): "done with Mailchimp", "we're off
    # Vodafone", "moved off GoCardless", "moved out of Brook Street", "lost the Pixel on the train"
    r"(?:done|finished|through)\s+with|(?:(?:we're|we\s+are|i'm|i\s+am|moved|came|got|switched)\s+)?off|"
    r"moved\s+out\s+of|moved\s+away\s+from|lost|wrote\s+off|crashed|totalled)\s+"
    r"(?:seeing\s+|using\s+|going\s+to\s+|with\s+)?(?P<x>[^,;.:()]+)")
# a verb that says what comes before it ended (subject before): "The HP printer died", "Petra retired"
_END_SUBJ = re.compile(
    r"(?P<x>[^,;.:()]+?)\s+(?:(?:was|were|got|has\s+been|have\s+been|is|are)\s+)?"
    # (a mishap before the end, facts37: "got dropped and broke", "failed its MOT and was scrapped")
    r"(?:(?:dropped|knocked\s+over|run\s+over|damaged|flooded|failed\s+(?:its|the|an?)\s+[^\W\d_]+)\s+and\s+"
    r"(?:was\s+|were\s+|got\s+)?)?"
    r"(?:died|retired|stopped|closed|"
    r"closed\s+down|shut\s+down|broke|broke\s+down|stolen|sold|archived|scrapped|folded|went\s+bust|went\s+under|"
    r"packed\s+up|cancell?ed|discontinued|left|nicked|pinched|lost|written\s+off|totalled|wrecked|smashed|"
    r"stepped\s+down|resigned|went\s+freelance|moved\s+on)\b")
# "… with / for / by Y" after "replaced / swapped X": what came in X's place
_WITH = re.compile(r"\b(?:replaced|replace|swapped|swap)\s+[^,;.:()]+?\s+(?:with|for|by)\s+(?P<y>(?:[^,;.:()]|\.(?=\w))+)")
# a verb of redoing a thing in another ("rebuilt the site in Astro", "transferred the domains to Cloudflare"); not a
# move of a whole thing ("migrated the analytics server to Rocky Linux 9" is true of every fact of the server)
_REDONE = re.compile(
    r"\b(?:rebuilt|rebuild|rewrote|rewritten|rewrite|redid|redone|transferred|transfer|ported|upgraded|upgrade|"
    r"downgraded|relaunched)\b(?P<x>(?:\s+[^,;.:()\s]+){0,4}?)\s+"
    r"(?:to|into|onto|in|on|over\s+to)\s+(?P<y>(?:[^,;.:()]|\.(?=\w))+)")
# an older that tells a change itself, its verb first ("Rebuilt the menu page in plain HTML"): an event, not a value
_TOLD = re.compile(r"^(?:rebuilt|rewrote|redid|transferred|ported|upgraded|downgraded|relaunched|migrated|moved|"
                   r"switched|swapped|replaced|bought|sold|got|opened|closed|cancell?ed|stopped|started)\b")
# what tells a past that no longer holds, as fact_mood's anecdote does ("used to", "years ago")
_TOLD_BACK = re.compile(r"\b(?:used\s+to|years\s+ago|back\s+in|when\s+i\s+was|as\s+a\s+(?:kid|child)|growing\s+up|"
                        r"at\s+the\s+time|once)\b")
# words a thing's subject may hold beside its name that name no other thing of it ("the Holloway Bakes client site" is
# "Holloway Bakes"; "the Holloway Bakes theme" and "… contact" are things of their own)
_THING = frozenset("site sites website websites app apps project projects service services system systems repo repos "
                   "codebase client clients own names name".split())
# the verbs that tell what a thing is built, run, kept or registered with (where the older's thing ends)
_FRAME = frozenset("runs run uses use used built written made hosted registered managed based powered sent served lives "
                   "live sits kept held done still also now".split())
_LINKS = frozenset().union(*LANG_COPULA.values(), *LANG_AUX.values())
_UPGRADE = frozenset("upgraded upgrade downgraded".split())
# a while said: a pause or a stand-in, not an end ("for three days", "this week", "meanwhile", "on leave")
_WHILE = re.compile(r"\b(?:until|till|meanwhile|for\s+now|for\s+the\s+(?:week|month|day|summer|winter)|"
                    r"for\s+(?:a|one|two|three|four|five|six|\d+)\s+(?:day|days|week|weeks|month|months|night|nights)|"
                    r"this\s+(?:week|weekend|month)|next\s+(?:week|weekend|month|monday|tuesday|wednesday|thursday|"
                    r"friday|saturday|sunday)|on\s+leave|covering|covers|temporarily|trial|trialling|trialing|"
                    r"for\s+a\s+while|while)\b")
_DETS = frozenset("the a an my our his her their its old all every".split())
# an older that says its value stays as it is: an exception noted beside a change (facts37)
# where one is no longer, said of oneself: "done with Mailchimp", "we're off Vodafone", "moved out of Brook Street"
_LEFT_OFF = re.compile(r"\b(?:(?:done|finished|through)\s+with|off|moved\s+(?:out\s+of|away\s+from))\b")
_STAYS = re.compile(r"\b(?:still|stays|stay|remains|remain|kept)\b")
_NO_HEAD = frozenset("one ones".split())
_COUNT = frozenset("one two three four five some several few couple single".split())
_THEIRS = frozenset("his her hers their theirs".split())
_OWNERS = frozenset("user users we i".split())  # whom an agent's notes are about: no third person
_ADD = ADDITIVE | {"second", "extra", "spare"}


def _keys(text: str) -> list[str]:
    return [fold_text(w) for w in _WORD.findall(text)]


def _content(keys: list[str]) -> list[str]:
    return [k for k in keys if k not in STOPWORDS and k not in _DETS and len(k) > 1]


@lru_cache(maxsize=4096)
def _older(old: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The older's subject words, its value words (after the subject, not its verb) and its value names."""
    f = facts.analyse(old)
    subject = frozenset(p for w in f.words[:f.subject_end] for p in w.key.split())
    value = frozenset(p for i, w in enumerate(f.words) if i >= f.subject_end and i != f.predicate
                      for p in w.key.split() if p not in subject) | frozenset(
        k for k in _content(_keys(old))[1:] if k not in subject and not any(same_word(k, s) for s in subject))
    names = frozenset(fold_text(w) for i, w in enumerate(_WORD.findall(old))
                      if i > 0 and (w[:1].isupper() or any(c.isdigit() for c in w) or w[:1].islower()
                                    and any(c.isupper() for c in w[1:]))) - subject
    return subject, value, names | {n for n in fact_left_clause._values(old)}


def _named_new(text: str, old_keys: set[str]) -> list[str]:
    """The names or codes of ``text`` that the older does not say (past the newer's first word)."""
    out = []
    for i, w in enumerate(_WORD.findall(text)):
        k = fold_text(w)
        if k in old_keys or k in STOPWORDS or k in MONTHS or k in WEEKDAYS or k.rstrip("s") in WEEKDAYS \
                or k in TITLES:
            continue
        if i > 0 and w[:1].isupper() or any(c.isdigit() for c in w) or w[:1].islower() and any(
                c.isupper() for c in w[1:]):
            out.append(k)
    return out


def _span(x: str) -> list[str]:
    """The content words of what a verb takes, up to the first word that starts another phrase."""
    words = _keys(x)
    out: list[str] = []
    for k in words:
        if k in ("and", "with", "for", "to", "by", "at", "in", "on", "from", "because", "since", "so", "then", "now",
                 "last", "this", "after", "before", "over", "into", "onto", "und", "y", "et"):
            break
        out.append(k)
    return [k for k in out if k not in _DETS and k not in STOPWORDS or k in _NO_HEAD]


def ended(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` says the older's value ended and names another, or redid the older's thing
    in another (see the module docstring), else None."""
    ln = fold_text(new)
    mood = fact_mood.unasserted(new)
    if mood and not (mood == "anecdote" and not _TOLD_BACK.search(ln)):
        return None  # (a change told with its day is no anecdote: "Upgraded to an iPhone 15 last weekend")
    keys = _keys(new)
    if set(keys) & _ADD or _WHILE.search(ln) or _possessed(old, new):
        return None
    old_keys = set(_keys(old))
    if _THEIRS & set(keys) - old_keys:
        return None  # another person's ("Edith upgraded her phone", "Dev sold his bike")
    lo = fold_text(old)
    if any(re.search(rf"\b{re.escape(n)}(?:'s|’s|s')", lo) for n in fact_person.subject_person(new)):
        return None  # the newer's person is whose the older's is ("Obi Okafor, Emeka's brother, …" / "Emeka left …")
    if _LEFT_OFF.search(ln) and any(fold_text(m.group(1)) not in keys and fold_text(m.group(1)) not in _OWNERS
                                    for m in re.finditer(r"\b([A-Z][^\W_]*)(?:'s|’s)\s", old)):
        return None  # ("done with BT" is the user's own: not "Maya's mum is done with BT", facts37)
    if _THEIRS & old_keys and fact_person.subject_person(old) - set(keys) - _OWNERS:
        return None  # a person's own thing the newer does not name ("Greta keeps her bakery rota in Trello")
    subject, value, names = _older(old)
    if _STAYS.search(lo) and not subject <= set(keys):
        return None  # (the older an exception that stays, its thing not named: "The bar account stays with the Co-op")
    if set(_keys(old)) & _ADD or _END_OBJ.match(lo) or _TOLD.match(lo):
        return None  # a second one ("Dev bought a Brompton too"), or the older itself a change told ("Rebuilt …")
    return _ended(old, new, ln, subject, value, names, old_keys) or _redone(new, ln, subject, names, old_keys, _keys(old))


def _possessed(old: str, new: str) -> bool:
    """Whether the newer names a possessor ("Ines's phone", "the TV's soundbar") the older does not name."""
    lo = fold_text(old)
    return any(fold_text(m.group(1)) not in lo for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", new))


def _caps(new: str, span_text: str, names: frozenset[str]) -> list[str]:
    """The words of ``span_text`` written as names in ``new`` (capitalised, a code, "iPhone"; first in the sentence,
    one of the older's ``names``)."""
    out = []
    for w in _WORD.findall(span_text):
        for m in re.finditer(rf"(?<![\w]){re.escape(w)}(?![\w])", new, re.IGNORECASE):
            t = m.group(0)
            if (m.start() > 0 or fold_text(t) in names) and (t[:1].isupper() or any(c.isdigit() for c in t) or t[:1].islower()
                                  and any(c.isupper() for c in t[1:])):
                out.append(fold_text(t))
                break
    return out


def _hit(new: str, x: str, span: list[str], value: frozenset[str], names: frozenset[str], subject: frozenset[str],
         old_keys: set[str], named_only: bool, old: str = "") -> str:
    """The older's value word that ``span`` (the words of ``x``) names as what ended: a name run of the older's
    value, every name in it the older's ("Harbour Surgery" is not "Harbour Lettings"; a title is no name), or,
    with no name in it, its head a value word and every word the older's ("the wooden stick"; not "the spare
    pine chairs" of "an old pine table")."""
    caps = [k for k in _caps(new, x, names) if k in span and k not in TITLES]
    if caps:
        if not all(k in old_keys for k in caps):
            return ""
        hit = next((k for k in caps if k in names and not k.isdigit()), "")
        return hit or _numbered(span, caps, names, old)
    if named_only or not span:
        return ""
    head = span[-1] if span[-1] not in _NO_HEAD else (span[-2] if len(span) > 1 else "")
    words = [k for k in span if k not in _NO_HEAD]
    if head and not any(same_word(head, s) for s in subject) and any(same_word(head, v) for v in value) \
            and all(any(same_word(k, o) for o in old_keys) for k in words):
        return head
    return ""


def _numbered(span: list[str], caps: list[str], names: frozenset[str], old: str) -> str:
    """A number the older's value holds, said after the word the older says it after ("plot 14" of "The allotment
    is plot 14 at Meadow Lane"; not the "14" of "Brooks Ghost 14"), or ""."""
    old_list = _keys(old)
    for k in caps:
        if k.isdigit() and k in names and k in span and span.index(k) > 0 and k in old_list \
                and old_list.index(k) > 0 and old_list[old_list.index(k) - 1] == span[span.index(k) - 1]:
            return k
    return ""


def _ended(old: str, new: str, ln: str, subject: frozenset[str], value: frozenset[str], names: frozenset[str],
           old_keys: set[str]) -> Verdict | None:
    for rx in (_END_OBJ, _END_SUBJ):
        for m in rx.finditer(ln):
            x = m.group("x")
            if rx is _END_SUBJ:
                x = re.split(r"\b(?:and|then|so|und|y|et)\b|[,;:]", x)[-1]
                span = _content(_keys(x))[-3:]
                after = ln[m.end():m.end() + 12]
                if after.strip() and not re.match(r"\s*(?:[,;.:()]|at|in|on|from|down|last|this|after|so|and|"
                                                  r"over|during|because|since|$)", after):
                    continue  # (a verb that takes an object here: "closed the Nationwide one" is read above)
            else:
                span = _span(x)
                if span and (span[0] in _COUNT or span[0].isdigit()):
                    continue  # one of it, not the value: "I swapped one night with Jo" is a one-off exchange
            hit = _hit(new, x, span, value, names, subject, old_keys, named_only=rx is _END_SUBJ, old=old)
            if not hit or re.search(rf"\b{re.escape(hit)}(?:'s|’s|s')", x):
                continue  # (or the value named as whose: "Lost my Pixel's charger" is the charger, facts37)
            came = _named_new(new, old_keys | set(span))
            w = _WITH.search(ln)
            if not came and w is not None:
                came = [k for k in _span(w.group("y")) if k not in old_keys][:2]
            if came:
                return Verdict("slot", f"{REASON}: {hit} -> {came[0]}", 0.8)
    return None


def _line(y: list[str], names: frozenset[str]) -> bool:
    """Whether the destination ``y`` names the older's product line: a name of it with a letter ("iPhone", "Node";
    not a number alone, "8" of "via Roma 8")."""
    return any(k in names and any(c.isalpha() for c in k) for k in y)


def _thing_words(keys: list[str]) -> list[str]:
    """The older's content words before its verb, in order: the thing it is about ("holloway bakes theme" of "The
    Holloway Bakes theme still uses Bootstrap 4"; its head last)."""
    out: list[str] = []
    for k in keys:
        if k in _LINKS or k in _FRAME:
            break
        if k not in STOPWORDS and k not in _DETS and len(k) > 1:
            out.append(k)
    return out


def _redone(new: str, ln: str, subject: frozenset[str], names: frozenset[str],
            old_keys: set[str], old_keys_list: list[str]) -> Verdict | None:
    if not names:
        return None
    for m in _REDONE.finditer(ln):
        verb = m.group(0).split()[0]
        obj = _content(_keys(m.group("x")))
        y = _keys(m.group("y"))[:4]
        came = [k for k in _named_new(new, old_keys) if k in y][:3]
        if not came or set(y) & names and verb not in _UPGRADE:
            continue  # (the older's own value is where it went: "… to Greta's own Namecheap account")
        thing = [k for k in _thing_words(old_keys_list) if k not in _THING]
        if obj:
            if not all(any(same_word(k, s) for s in subject | (old_keys - names)) for k in obj) \
                    or not thing or not any(same_word(thing[-1], k) for k in obj) \
                    or verb in _UPGRADE and not _line(y, names):
                continue  # (the older's thing, all of it, nothing of its own; an upgrade keeps its product line)
        elif not (verb in _UPGRADE and _line(y, names)):
            continue  # ("upgraded to an iPhone 15": the older's product line, another model)
        return Verdict("slot", f"{REDONE}: {came[0]} ({verb})", 0.8)
    return None

