"""The older's slot named again in another word form: "recorded" / "Recording now happens at …" (facts37).

An agent notes how a thing is done with a passive verb ("The Low Tide podcast is recorded in the spare room",
"Pipettes are calibrated by Gilson service") and its change by naming the activity as a noun ("Recording now happens
at the studio on Leith Walk", "Pipette calibration is done by Anachem now", "Delivery now goes through Evri"). The
frame rules find no shared subject (the subject is the older's verb, said as a noun) and the cosine of two sentences
with two places and two verbs is no proof. :func:`moved` accepts the pair when

- the older says "<thing> is / are <verb>ed <preposition> <value>";
- the newer's subject, before its verb ("happens", "is", "moved", "goes", "now" …), holds one word that is the older's
  verb or the older's thing in another form ("recorded" / "recording", "delivered" / "delivery", "calibrated" /
  "calibration", "transcripts" / "transcription": one stem of five letters or more, not the same word), and every
  other content word of that subject is a word of the older ("Pipette calibration", "Maintenance of the garden",
  "Booking the trailer"; not "Rhona's printing", "Delivery of the new sofa", "Counting the stock takes …");
- the rest of the newer names a value the older does not (a name, a code, "in-house");
- the newer is asserted (memengine/fact_mood.py), adds nothing ("also", "a second"), says no while ("this week",
  "until", "for a month").

Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import ADDITIVE
from memengine.fact_lexicon import STOPWORDS, fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "moved"]

REASON = "the older's slot said in another word form"

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
# the older: "<thing> is / are <participle> <preposition> <value>"
_OLDER = re.compile(r"^\W*(?P<subj>.+?)\s+(?:is|are|gets|get)\s+(?:now\s+|usually\s+|always\s+)?(?P<verb>[a-z]+(?:ed|en|t|de))"
                    r"\s+(?:in|at|on|with|by|through|via|from|using|to)\s+(?P<value>.+)$")
# where the newer's subject ends: its verb, or a "now" before it
_VERB = frozenset("happens happen happened is are was were moved moves goes go went runs run switched switches now "
                  "has have lives live sits comes come got gets done".split())
_NOUN_ENDS = ("ing", "ion", "ions", "ment", "ance", "ence", "ery", "ry", "y", "is", "al", "age", "ure")
_DETS = frozenset("the a an our my all of its their".split())
# a while said: a pause or a stand-in, not a change of the slot
_WHILE = re.compile(r"\b(?:until|till|meanwhile|for\s+now|this\s+(?:week|weekend|month|time)|next\s+week|"
                    r"for\s+(?:a|one|two|three|\d+)\s+(?:day|days|week|weeks|month|months)|temporarily|trial|"
                    r"trialling|trialing|one-off)\b")
_ADD = ADDITIVE | {"second", "extra", "spare", "too"}


@lru_cache(maxsize=4096)
def _older(old: str) -> tuple[str, str, frozenset[str]] | None:
    """(the participle, the thing's head word, the older's content words), folded; None for another shape."""
    m = _OLDER.match(fold_text(old.strip()))
    if m is None:
        return None
    subj = [w for w in _WORD.findall(m.group("subj")) if w not in STOPWORDS and w not in _DETS]
    if not subj:
        return None
    words = frozenset(w.removesuffix("'s").removesuffix("’s") for w in _WORD.findall(fold_text(old))
                      if w not in STOPWORDS)
    return m.group("verb"), subj[-1].removesuffix("'s").removesuffix("’s"), words


def _form(noun: str, word: str) -> bool:
    """Whether ``noun`` (said as a noun, "recording") is ``word`` ("recorded") in another form: one stem of five
    letters or more, a noun ending after it, not the same word."""
    if noun == word or not noun.endswith(_NOUN_ENDS) or len(noun) < 6:
        return False
    if {noun[:-len(e)] for e in _NOUN_ENDS if noun.endswith(e)} & {word[:-2], word[:-1]} - {""}:
        return len(noun) - 3 >= 3  # one short stem, its endings only ("hosted" / "hosting", "filmed" / "filming")
    n = 0
    while n < min(len(noun), len(word)) and noun[n] == word[n]:
        n += 1
    return n >= 5 and n >= min(len(noun), len(word)) - 5


def moved(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` names ``old``'s slot in another word form with another value (see the module
    docstring), else None."""
    got = _older(old)
    if got is None:
        return None
    verb, head, old_words = got
    low = fold_text(new.strip())
    if fact_mood.unasserted(new) or _WHILE.search(low):
        return None
    words = _WORD.findall(low)
    if set(words) & _ADD:
        return None
    # (not a word after an article: "Hosting the live show …" takes an object, "live" is no verb there)
    end = next((i for i, w in enumerate(words) if w in _VERB and i > 0 and words[i - 1] not in _DETS), None)
    if end is None:
        return None
    subject = words[:end]
    nouns = [w for w in subject if _form(w, verb) or _form(w, head)]
    if len(nouns) != 1:
        return None
    rest = [w for w in subject if w != nouns[0] and w not in _DETS]  # ("the big orders": "big" narrows it too)
    if any(w.endswith(("'s", "’s")) or not any(same_word(w, o) for o in old_words) for w in rest):
        return None  # another thing's or another thing: "Rhona's printing", "Delivery of the new sofa"
    came = _new_value(new, old_words, len(subject), lower=not any(
        c.isupper() or c.isdigit() for c in old.strip()[_value_at(old):]))
    if not came:
        return None
    return Verdict("slot", f"{REASON}: {nouns[0]} ({verb}) -> {came}", 0.8)


def _value_at(old: str) -> int:
    """Where the older's value starts (after its participle and preposition), 0 when not found."""
    m = _OLDER.match(fold_text(old.strip()))
    return m.start("value") if m is not None else 0


def _new_value(new: str, old_words: frozenset[str], skip: int, lower: bool) -> str:
    """The first name, code or "in-house" the newer says past its subject that the older does not, or, when the
    older's own value is in lower case ("in the garage"), a word after a preposition ("in the attic"); "" when none."""
    prev = ""
    for i, w in enumerate(_WORD.findall(new.strip())):
        k = fold_text(w)
        if i < skip or k in old_words or k in STOPWORDS:
            prev = k if k in _PREPS or prev in _PREPS and k in _DETS else ""
            continue
        if k in ("in-house", "inhouse") or w[:1].isupper() or any(c.isdigit() for c in w) \
                or w[:1].islower() and any(c.isupper() for c in w[1:]) or lower and prev:
            return k
        prev = ""
    return ""


_PREPS = frozenset("in at on with by through via from to into".split())
