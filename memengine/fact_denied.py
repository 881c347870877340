"""The older's state denied as lasting (facts42): "Dele no longer does the breakfast show" after "The breakfast show
is presented by Dele"; "The building doesn't open till 7 any more" after "The studio building opens at 6am";
"Montags haben wir nicht mehr geöffnet", "La asistenta ya no viene los martes", "A avó não liga mais aos domingos",
"Er rijdt geen nachtbus meer".

A negation alone says nothing lasting ("No committee meeting this Tuesday", "Morgen fährt kein Shuttle"); a negation
with the particle that makes it last ("no longer", "not … any more", "ne … plus", "ya no", "nicht / kein … mehr",
"não … mais", "non … più", "niet / geen … meer") says the state held and holds no more. The particles are derived
from the cue rule's change phrases (memengine/fact_cue_lexicon.NOW_PHRASES: the words beside a negation of
memengine/fact_lexicon.NEGATIONS in each phrase that holds one), plus Dutch, which that lexicon does not carry.

Read as an update of the older when the clause holding the lasting negation is about the older's slot:

- it says words of the older's frame (what is left once the older's values are masked, in any word form), a share
  of them at least the caller's floor (chosen leaving one set out by ``bench/fact_families.py``), a value of the
  older's named in the clause counting as half the frame;
- it names nobody and nothing the older does not (a name or a code the older does not say: someone else's state,
  "The Mirow branch no longer opens on Mondays" is not ours);
- the older says one thing (one clause: "Funmi lives in Leeds and works at the library" is not all denied by "Funmi
  no longer works at the library"), and the newer is asserted, not for one time or a while, adds nothing.

Pure: no SQL, no model.
"""

from __future__ import annotations

import os
import re

from memengine import fact_cause, fact_left_clause, fact_mood, fact_reason_value, fact_vacated
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import KIN, NOW_PHRASES
from memengine.fact_lexicon import MONTHS, NEGATIONS, STOPWORDS, WEEKDAYS, fold_text
from memengine.fact_tokens import guess_lang
from memengine.fact_types import Verdict

__all__ = ["GRID", "MIN_SHARE", "REASON", "denied", "lasting_negation"]

REASON = "the older's state denied as lasting"

# the share of the older's frame the denying clause must say (leave-one-set-out over the pooled sets,
# bench/fact_families.py); above 1.5: off
MIN_SHARE = 0.6
# how many words of its own the denying clause may say beside the older's ("We don't use Myriad any more")
MAX_NEW = 1
GRID = [0.0, 0.2, 0.34, 0.5, 0.6, 0.67, 0.75, 0.9, 1.0, 9.0]

_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*\+?")
_DUTCH_NEG = frozenset({"niet", "geen"})  # (Dutch: no word of fact_lexicon.NEGATIONS)
_DUTCH_LAST = frozenset({"meer"})
# words of change phrases beside a word written as a negation that make nothing last: Portuguese "no lugar" (in the
# place), German "doch nicht" (not after all: a revision, memengine/fact_undone.py's)
_NOT_LASTING = frozenset({"lugar", "doch"})
# "doesn't open till 7 any more": "till" says the new hour here, not a while (memengine/fact_shift.WHILE)
_TILL = re.compile(r"\b(?:until|till)\b")


def _particles() -> tuple[frozenset[str], frozenset[str]]:
    """The words that make a negation last, from the change phrases holding a negation: those said after it
    ("longer", "plus", "mehr", "mais", "piu") and those said right before it ("ya no", "ja nao")."""
    after: set[str] = set()
    before: set[str] = set()
    for p in NOW_PHRASES:
        words = p.split()
        neg = [i for i, w in enumerate(words) if w in NEGATIONS]
        if not neg or len(words) < 2:
            continue
        for i, w in enumerate(words):
            if w in NEGATIONS or w in _NOT_LASTING:
                continue
            (before if i < neg[0] else after).add(w)
    # "any more" / "anymore" hold no negation word of their own: said after one ("doesn't open till 7 any more")
    after |= {"anymore", "more"}
    return frozenset(after | _DUTCH_LAST), frozenset(before)


_AFTER, _BEFORE = _particles()


def _keys(text: str) -> list[str]:
    """The folded words of ``text``, "n't" written "not" ("doesn't" -> "does", "not")."""
    return _WORD.findall(re.sub(r"n[’']t\b", " not", fold_text(text)))


def lasting_negation(clause: str) -> bool:
    """Whether ``clause`` holds a negation made lasting by its particle ("no longer", "doesn't … any more", "ya no",
    "nicht … mehr", "ne … plus", "geen … meer"); "more" only as "any more" (not "no more than 3")."""
    keys = _keys(clause)
    negs = [i for i, k in enumerate(keys) if k in NEGATIONS or k in _DUTCH_NEG or k == "not"]
    for i in negs:
        if i and keys[i - 1] in _BEFORE:
            return True
        for j in range(i + 1, min(len(keys), i + 9)):
            k = keys[j]
            if k == "more" and keys[j - 1] != "any":
                continue
            if k in _AFTER and k not in _BEFORE:
                return True
    return False


def _foreign_name(clause: str, old: str) -> bool:
    """Whether ``clause`` names a name or a code (written as one past its first word) the older does not say in
    any word form ("Mirow", "Otley"); German nouns the older says too are no name ("Shuttle", "Verleih")."""
    said = [fold_text(w) for w in _WORD.findall(old)]
    for i, w in enumerate(_WORD.findall(clause)):
        k = fold_text(w)
        if i == 0 or not fact_vacated.written_as_name(w, False) or k in STOPWORDS or k in MONTHS or k in WEEKDAYS:
            continue
        if k.isdigit() or any(c.isdigit() for c in k):
            continue  # (a number or a time: a value, new or old, judged by the frame)
        if not any(same_word(k, s) for s in said):
            return True
    return False


def _other_kin(clause: str, old: str) -> bool:
    """Whether ``clause`` names a relation the older does not ("my roommate is no longer vegetarian" after "I'm
    vegetarian": the roommate's state, memengine/fact_cue_lexicon.KIN)."""
    said = [fold_text(w) for w in _WORD.findall(old)]
    return any(k in KIN and not any(same_word(k, s) for s in said) for k in _keys(clause))


def _frame(old: str, names: frozenset[str], numbers: frozenset[str]) -> list[str]:
    """The older's frame (memengine/fact_reason_value.py's: values masked), less a name it opens with, whose the fact
    is ("Hugo a sa mutuelle chez …", "Glass jars come from Wilco Glass": the slot is not named by its owner); a
    German sentence's capitalised nouns are words of it ("Die Paddel kommen von …"); its words written as names that
    are no value of it are its frame when nothing else is ("My GP is Dr Shah")."""
    words = _WORD.findall(old)
    first = fold_text(words[0]) if words and words[0][:1].isupper() else ""
    frame = [k for k in fact_reason_value._frame(old, names) if k != first]
    if guess_lang(old) == "de":
        frame += [fold_text(w) for w in words[1:] if w[:1].isupper() and fold_text(w) not in names
                  and fold_text(w) not in frame and w.isalpha()]
    return frame or [k for k in (fold_text(w) for w in words) if k not in names and k not in STOPWORDS
                     and k != first and len(k) > 1 and not k.isdigit() and not any(k in n.split() for n in numbers)]


_LABEL = re.compile(r"^\s*([^\W\d_][^:;,.]{0,40}?)\s*:\s+\S")
_AND = frozenset("and et und y e en i".split())


def _two_states(old: str) -> bool:
    """Whether the older joins two states ("lives in Leeds and works at the central library"): a word of its own
    after "and" in any language, not a value ("works Tuesdays and Thursdays")."""
    keys = _keys(old)
    raw = _WORD.findall(old)
    return any(k in _AND and i + 1 < len(keys) and keys[i + 1].isalpha() and keys[i + 1] not in STOPWORDS
               and keys[i + 1] not in WEEKDAYS and keys[i + 1].removesuffix("s") not in WEEKDAYS
               and keys[i + 1] not in MONTHS and not raw[i + 1][:1].isupper() for i, k in enumerate(keys[:-1]))


def _new_words(said: list[str], old_keys: frozenset[str]) -> int:
    """How many content words of the denying clause the older says in no word form ("The incident channel is no
    longer muted at weekends": "muted", "weekends": another state of the thing denied, not the older's)."""
    return sum(1 for k in said if k.isalpha() and len(k) > 2 and k not in STOPWORDS and k not in NEGATIONS
               and k not in _AFTER and k not in _BEFORE and k not in _DUTCH_NEG and k != "any"
               and not any(same_word(k, o) for o in old_keys))


def denied(old: str, new: str, cos: float | None, min_share: float = MIN_SHARE) -> Verdict | None:
    """A ``slot`` verdict when a clause of ``new`` denies the older's state as lasting (see the module docstring),
    else None. Off with ``MEM_DENIED=0``."""
    if min_share > 1.5 or os.environ.get("MEM_DENIED", "1") == "0":
        return None
    if fact_mood.unasserted(new) or fact_cause.one_time(old, _TILL.sub(" ", new)):
        return None
    keys = set(_WORD.findall(fold_text(new)))
    if keys & fact_vacated.ADDING:
        return None
    if len(fact_left_clause.clauses(old)) > 1 or _two_states(old):
        return None
    if lasting_negation(old):
        return None  # (an older that says a state ended holds nothing to deny: its "any more" is no frame word)
    names, numbers, old_keys = fact_vacated.older_values(old)
    if old_keys & fact_vacated.NOT_STATE:
        return None
    frame = _frame(old, names, numbers)
    if not frame:
        return None
    # the older's weekdays and months are its values too here ("Der Verleih hat montags geöffnet")
    days = {k for k in old_keys if k in WEEKDAYS or k.removesuffix("s") in WEEKDAYS or k in MONTHS}
    # a label the newer opens with names the subject of every clause after it ("Pulizie: la signora Carla non può
    # più, …"): its words are the denying clause's too
    label = _LABEL.match(new) if os.environ.get("MEM_NOTE_PARTS", "1") != "0" else None  # (fact_note_parts' switch)
    head = _keys(label.group(1)) if label else []
    for c in fact_left_clause.clauses(new):
        if not lasting_negation(c) or _foreign_name(c, old) or _other_kin(c, old):
            continue
        said = _keys(_TILL.sub(" ", c))
        if _new_words(said, old_keys) > MAX_NEW:
            continue
        said += head
        share = sum(any(same_word(k, f) for k in said) for f in frame) / len(frame)
        valued = bool(fact_vacated.value_hits(c, names, numbers, old_keys)) or any(
            k in days or k.removesuffix("s") in days for k in said)
        if share + (0.5 if valued else 0.0) >= min_share and share > 0:
            return Verdict("slot", f"{REASON}: {c.strip()[:60]}", 0.8)
    return None
