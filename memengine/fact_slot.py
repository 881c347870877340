"""A learned same-slot decision: does ``new`` update ``old``, when the hand-written rules say nothing?

Five rounds of rules (memengine/facts.py, fact_cue.py and the fact_* modules) fit the kinds of
update described to their authors, and miss the ways people actually write a change ("Leo's
been on guitar since Sam left", "Phone bill went up, it's 68 a month now", "Reporting to Dev
now after the reorg"). This module scores a pair with a small logistic model over general
features of the pair, fitted on every labelled pair of tests/data and bench/data by
bench/fact_slot.py (leave-one-set-out figures in bench/README.md), and shipped as a table
(memengine/fact_slot_weights.py):

- the real model's cosine of the two sentences, and of the two with their values removed
  (numbers, times, dates, codes, names: the *slot* that is left), and their difference;
- how the content words align (shared, only in one side), and which value types each side
  holds and whether a value of the same type changed, or appeared, or went away;
- what the rules read on the way: a change cue and its kind, change language, a negation
  flipped, two subjects, the same fact restated, and the reason the cue rule gives when it
  finds the two are not one slot (another person's, another thing of the kind, another end).

It only *adds* to the rules: :func:`decide` is asked for a pair the rules did not flag, and what
never supersedes stays a veto whatever the score (a question, a plan, an anecdote, "also" /
"another", "still", a request, a number without its subject, a handover, and the readings in
:data:`GUARDS`). The threshold is above the score of every labelled look-alike, plus a margin
chosen leave-one-set-out (bench/fact_slot.py, bench/README.md); under it, a middle band (:func:`band`, the score above which 3 %
of the labelled look-alikes fall) says "probably an update": nothing is superseded, the newer fact is
ranked first and the older marked (memengine/supersession.py). The features need the model the
weights were fitted with: with any other embedder (the tests' hash embedder) the decision is
off, and :func:`status` says why (a write logs it once). Pure apart from the ``embed``
callable it is handed; numpy only.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from memengine import (
    fact_attr,
    fact_clause_veto,
    fact_cue,
    fact_disposed,
    fact_elliptic,
    fact_handover,
    fact_instance,
    fact_langs,
    fact_left_clause,
    fact_mood,
    fact_occasion,
    fact_person,
    fact_same,
    fact_scope,
    fact_template,
    facts,
)
from memengine import fact_cue_lexicon as C
from memengine.fact_change_words import change_words
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, WEEKDAYS, fold
from memengine.fact_tokens import guess_lang

__all__ = ["FEATURES", "GUARDS", "MAY_UPDATE", "Pair", "band", "decide", "features", "guarded", "masked", "named_within",
           "rephrased", "same_template", "value_as_subject",
           "score", "status", "threshold_for"]


# Value groups: a changed value counts once per group (a weekday and a date are one "date").
_GROUPS = {"date": "date", "weekday": "date", "time": "time", "number": "number", "money": "number",
           "code": "ident", "phone": "ident", "email": "ident", "url": "ident", "version": "ident"}
_GROUP_NAMES = ("date", "time", "number", "ident")
_CUE_KINDS = ("now", "new", "noun", "verb")
_SLOT_REASONS = ("kin", "possessor", "subject", "agent", "thing", "owner", "boundary")

FEATURES: tuple[str, ...] = (
    "cos", "cos_slot", "cos_gap",
    "shared", "only_old", "only_new", "len_ratio",
    *(f"changed_{g}" for g in _GROUP_NAMES), *(f"appeared_{g}" for g in _GROUP_NAMES),
    *(f"gone_{g}" for g in _GROUP_NAMES),
    "name_new", "name_gone", "name_shared",
    "cue", *(f"cue_{k}" for k in _CUE_KINDS), "cue_in_old", "change_lang", "old_change_lang",
    "negation_flip", "other_subjects", "same_fact", "pronoun_new", "same_lang",
    *(f"slot_{r}" for r in _SLOT_REASONS),
    "old_value_as_subject", "old_value_kept", "old_subject_kept", "nothing_new", "value_change",
    "slot_x_change", "cue_x_shared", "subject_disjoint", "no_new_value",
    "said_change", "said_now", "said_x_cos",
    "kin_added", "owner_swapped", "trip", "values_kept",
    *fact_template.NAMES,
)
# The look-alike readings of the rules that hold on natural phrasing too: a pair showing any of them
# is never superseded by the learned decision, whatever it scores (another thing of the kind, another
# owner's qualifier, another end, nothing new, the same fact). The other readings (kin, possessor,
# subject, the old value as subject ...) misread chat phrasing ("The kids go to bed at 8" / "Bedtime's
# 8:30 now") and are features: the threshold keeps every labelled look-alike out.
GUARDS = ("slot_thing", "slot_owner", "slot_boundary", "nothing_new", "same_fact", "kin_added", "owner_swapped", "trip",
          "values_kept")

_GUARD_AT = {g: FEATURES.index(g) for g in GUARDS}
_WORD_RE = re.compile(r"[^\W\d_]+")
_DATE_WORDS = WEEKDAYS | MONTHS | SHORT_WEEKDAYS


@dataclass(frozen=True)
class Pair:
    """One pair as scored: the features in :data:`FEATURES` order and the veto, if any."""

    x: tuple[float, ...]
    veto: str | None


def veto(new_text: str) -> str | None:
    """Why ``new`` can never update anything, whatever it scores: the look-alike guards."""
    if fact_mood.unasserted(new_text):
        return "mood"  # a question, a plan, an anecdote
    if fact_elliptic.fragment(new_text):
        return "fragment"  # "Now at 78 kg": whose number is fact_elliptic's question (one owner only)
    if fact_handover.handover(new_text):
        return "handover"  # "X left, so now Y is our ...": the frame rules read the second clause
    toks = fact_cue.tokens(new_text)
    keys = [t.key for t in toks if t.word]
    if "also" in keys and guess_lang(new_text) == "de":  # German "also" is "so" ("..., also gehen wir dann")
        keys = [k for k in keys if k != "also"]
    if "also" not in keys:  # (the German "also" taken off above)
        toks = [t for t in toks if t.key != "also"]
    # (read clause by clause, memengine/fact_clause_veto.py: "got too slow" adds nothing; "…; pyenv still manages
    # it" keeps another part)
    if fact_clause_veto.additive(toks):
        return "adds"  # "also", "another": a second value, not a new one
    if fact_clause_veto.continuity(toks):
        return "still"
    if any(k in C.REQUEST for k in keys) or fact_cue._phrase_at(keys, C.REQUEST_PHRASES):
        return "request"
    return None


@lru_cache(maxsize=4096)
def masked(text: str) -> str:
    """``text`` without its values and names: numbers, times, dates, codes, weekdays, months and
    names (memengine/fact_cue.py's reading: German nouns stay) removed; what is left names the slot
    ("The standup is at" / "We moved the standup to"). A sentence with nothing left is itself."""
    f = facts.analyse(text)
    in_values = {fold(w) for v in f.values + f.old_values for w in _WORD_RE.findall(v.text)}
    toks = fact_cue.tokens(text)
    kept = [t.text for i, t in enumerate(toks)
            if t.word and not any(ch.isdigit() for ch in t.text) and t.key not in in_values
            and t.key not in _DATE_WORDS and not fact_cue.is_name(toks, i, f.lang)]
    return " ".join(kept) or text


def _groups(values: Sequence[facts.Value]) -> dict[str, set[tuple[object, ...]]]:
    out: dict[str, set[tuple[object, ...]]] = {}
    for v in values:
        g = _GROUPS.get(v.kind)
        if g is not None:
            out.setdefault(g, set()).add(v.norm)
    return out


def _sides(a_text: str, b_text: str, fa: facts.Fact, fb: facts.Fact) -> tuple[Any, Any, str | None]:
    """The cue rule's reading of both sides, and its reason the two are not one slot of one owner
    (asked with a neutral cue), or None."""
    a = fact_cue._side(a_text, fa)
    b = fact_cue._side(b_text, fb)
    return a, b, fact_cue._not_same_slot(a, b, fact_cue.Cue("verb", "-"), 1.0)


def features(old: str, new: str, cos: float, cos_slot: float) -> Pair:
    """The features of the pair (see :data:`FEATURES`) and the veto, if any."""
    return Pair(_vector(old, new, cos, cos_slot), veto(new) or _one_off(old, new))


def _one_off(old: str, new: str) -> str | None:
    """An exception to the older, standing value: one day, one occasion, a stand-in (fact_occasion.py), or
    the value for a narrower group ("... 100 MB for admins": fact_scope.py)."""
    if fact_occasion.one_off(old, new):
        return "occasion"
    if fact_scope.scope_added(old, new):
        return "scope"
    if fact_langs.other_language(old, new) and not fact_person.subject_names(old) & fact_person.subject_names(new):
        # two people's facts in two languages, each clearly its own (memengine/fact_langs.py); one person named in
        # both subjects (or as their owner) is one person's fact told in two languages (a bilingual user: "Katrin
        # singt mittwochs im Chor" / "Katrin's choir has moved rehearsals to Thursdays"), left to the score (facts31)
        return "language"
    if fact_attr.other_attribute(old, new):
        return "attribute"  # a move and a job, a commute and a home (memengine/fact_attr.py)
    # another instance of the frame (memengine/fact_instance.py: another day's session, "... in staging"):
    # supersession.vetoed reads it too; here so that the decision alone never says otherwise
    return fact_instance.another_instance(old, new) or None


# where the value-group features sit in :data:`FEATURES`: changed, appeared, gone (one per group)
_CHANGED = slice(FEATURES.index("changed_date"), FEATURES.index("appeared_date"))
_CHANGED_OR_APPEARED = slice(_CHANGED.start, FEATURES.index("gone_date"))
_APPEARED = slice(_CHANGED.stop, _CHANGED_OR_APPEARED.stop)
_SHARED_AT = FEATURES.index("shared")


def _vector(old: str, new: str, cos: float, cos_slot: float) -> tuple[float, ...]:
    """The features of the pair in :data:`FEATURES` order (no veto)."""
    fa, fb = facts.analyse(old), facts.analyse(new)
    al = facts._align(fa, fb)
    na, nb = max(1, len(fa.words)), max(1, len(fb.words))
    ga, gb = _groups(fa.values + fa.old_values), _groups(fb.values)
    names_a = {w.key for w in fa.words if w.name}
    names_b = {w.key for w in fb.words if w.name}
    cue = fact_cue.find_cue(new)
    cue_old = fact_cue.find_cue(old)
    sa, sb, reason = _sides(old, new, fa, fb)
    x: list[float] = [cos, cos_slot, cos_slot - cos,
                      len(al.shared) / min(na, nb), len(al.only_a) / na, len(al.only_b) / nb,
                      min(na, nb) / max(na, nb)]
    x += [float(g in ga and g in gb and not _agree(g, ga[g], gb[g])) for g in _GROUP_NAMES]
    x += [float(g in gb and g not in ga) for g in _GROUP_NAMES]
    x += [float(g in ga and g not in gb) for g in _GROUP_NAMES]
    x += [float(bool(names_b - names_a)), float(bool(names_a - names_b)), float(bool(names_a & names_b))]
    x += [float(cue is not None), *(float(cue is not None and cue.kind == k) for k in _CUE_KINDS),
          float(cue_old is not None), float(bool(fb.change)), float(bool(fa.change))]
    x += [float(fa.polarity != fb.polarity), float(facts.other_subjects(fa, fb)), float(facts.same_fact(fa, fb)),
          float(bool(fb.pronoun) or fb.subject_end == 0), float(fa.lang == fb.lang)]
    x += [float(reason == r) for r in _SLOT_REASONS]
    value_names = sa.names - sa.subject_names  # what the old fact holds as its value
    subject_a = {w.key for w in fa.words[:fa.subject_end]}
    changed = any(x[_CHANGED]) or bool(names_b - names_a) and bool(names_a - names_b)
    nothing_new = not any(x[_CHANGED_OR_APPEARED]) and not (names_b - names_a) and not al.only_b
    x += [float(bool(value_names & sb.subject_names)), float(not fact_cue._old_value_left(sa, sb)),
          len(subject_a & fb.keys) / max(1, len(subject_a)) if subject_a else 0.5, float(nothing_new),
          float(changed), cos_slot * float(changed), float(cue is not None) * x[_SHARED_AT]]
    subject_b = {w.key for w in fb.words[:fb.subject_end]} - set(fb.changer)
    x.append(float(bool(subject_a) and bool(subject_b) and not any(
        facts._same_word(p, q) for p in subject_a for q in subject_b)))  # "family dinner" / "Lunch"
    # nothing the new sentence holds could be the new value: no value changed or appeared, no new
    # name, no denial ("The standup changed its format")
    x.append(float(not (changed or any(x[_APPEARED]) or names_b - names_a or fa.polarity != fb.polarity)))
    # a change told in chat words the rules' grammar does not read (memengine/fact_change_words.py)
    verb, now = change_words(old, new)
    x += [float(verb), float(now), cos * float(verb or now)]
    x += _slot_structure(old, new, sa, sb)
    x.append(float(_values_kept(ga, gb)))
    x += fact_template.features(old, new)  # the two as templates, values as their kinds (no change word read)
    return tuple(x)


def _values_kept(ga: dict[str, set[tuple[object, ...]]], gb: dict[str, set[tuple[object, ...]]]) -> bool:
    """Every value the older states is in the newer as it was, and the newer states no other: the
    newer tells more about the same value, never a new one ("La clase de yoga es los martes" / "La clase
    de yoga de los martes ahora tiene más alumnos", "Bring the sales figures to the June 3 quarterly
    review": a guard, 43 labelled look-alikes against 3 updates the rules and the band missed anyway)."""
    if not ga or any(g not in gb or not _agree(g, ga[g], gb[g]) for g in ga):
        return False
    return all(g in ga and all(_agree(g, ga[g], {v}) for v in vs) for g, vs in gb.items())


def _slot_structure(old: str, new: str, sa: Any, sb: Any) -> list[float]:
    """Whose slot it is, read from its structure (three guards): the newer names a kinship word the
    older lacks, not after "with" (someone else's: 126 labelled look-alikes against 2 updates, both in a
    second clause: "... boss wants them earlier"); two owners named and none shared ("Jake's guitar
    lesson" / "Emma's ...": 6 look-alikes, no update); a trip, a holiday, a stay away the older does not
    mention (19 look-alikes, no update)."""
    swapped = bool(sa.possessors) and bool(sb.possessors) and not sa.possessors & sb.possessors
    return [float(fact_same.kin_added(old, new, None)), float(swapped), float(fact_same.trip_added(old, new))]


_SLOT_AT = (FEATURES.index("cos_slot"), FEATURES.index("cos_gap"), FEATURES.index("slot_x_change"))
_CHANGE_AT = FEATURES.index("value_change")


def with_slot(pair: Pair, cos_slot: float) -> Pair:
    """``pair`` with the masked pair's cosine ``cos_slot`` in the three features that read it."""
    x = list(pair.x)
    x[_SLOT_AT[0]], x[_SLOT_AT[1]], x[_SLOT_AT[2]] = cos_slot, cos_slot - x[0], cos_slot * x[_CHANGE_AT]
    return Pair(tuple(x), pair.veto)


_T = {name: FEATURES.index(name) for name in fact_template.NAMES}


def same_template(pair: Pair) -> bool:
    """Whether the pair says one slot with a new value and no change word is needed to see it
    (memengine/fact_template.py): every content word of the older is in the newer, a value of the same
    kind (and unit) stands where the older's stood with another value, no older value is kept, and
    nothing marks another thing (a word swapped or added inside the frame or right before the older's
    first word, a name changed with another value, two values changed apart). Such a pair supersedes at
    a lower learned score (``gate_threshold``), chosen leave-one-set-out (bench/fact_slot.py)."""
    x = pair.x
    return (x[_T["old_covered"]] >= 0.99 and bool(x[_T["aligned_changed"]] or x[_T["unit_changed"]])
            and not any(x[_T[f]] for f in ("unit_same_value", "enclosed_swap", "changed_apart", "head_modified",
                                           "value_reused")))


def named_within(pair: Pair, old: str | None = None, new: str | None = None) -> bool:
    """Whether the newer names the older's slot with fewer of its words and a new value, and nothing
    else (memengine/fact_template.py): every content word of the newer is in the older ("the standup is
    at 9:30" after "the team standup is at 9:15 every day", "Staging ist auf Ubuntu 22.04" after "Der
    Staging-Server läuft auf Ubuntu 20.04"), a value of the same kind changed at the aligned place, none of
    the marks of another thing (:func:`same_template`'s), and not one template already. Such a pair
    supersedes at ``subset_threshold``, chosen leave-one-set-out (bench/fact_slot.py). Given the texts,
    the two must name one owner too (memengine/fact_scope.py), and the older no kinship word the newer
    drops (memengine/fact_same.py: "my rent is 950" names fewer of "My sister pays 900 a month in rent"'s
    words, and another owner)."""
    x = pair.x
    if old is not None and new is not None and (fact_scope.owner(old) != fact_scope.owner(new)
                                                or fact_same.kin_added(new, old, None)):
        return False
    return (x[_T["new_covered"]] >= 0.99 and bool(x[_T["aligned_changed"]] or x[_T["unit_changed"]])
            and not any(x[_T[f]] for f in ("unit_same_value", "enclosed_swap", "changed_apart", "head_modified",
                                           "value_reused")) and not same_template(pair))


_VALUE_CHANGED = tuple(FEATURES.index(f"changed_{g}") for g in _GROUP_NAMES)


def rephrased(pair: Pair, old: str, new: str) -> bool:
    """Whether the newer says, in words of its own, that the older's slot now holds another value of the
    same kind: a value of one kind was replaced (a number, a time, a date, a code, or a name by another
    name: memengine/fact_cue.py's reading, where a German noun is no name), a change is said ("now", "these
    days", "raised", "switched", "rewrote"), and nothing marks another thing: the newer adds no word to a
    subject the two share ("the market" / "the organic market", "the retro" / "the design review" aside:
    their subjects share nothing and the score decides), names no possessor, owner or kinship word of its
    own, repeats the verb of a named person's relation ("Ben works at Acme in Leeds" / "Ben moved to Bristol":
    which of his relations changed is not said), gives up nothing but the older's value (memengine/fact_disposed.py's verbs: "sold my bike, I take the
    bus now" after "I drive a Golf"), and is not one of the two shapes above (their own bands). "The service is
    deployed on Heroku" / "we host the service on Fly.io now", "The cache TTL is 5 minutes" / "cached
    entries now expire after 15 minutes": the slot named by a synonym, a related phrase or the verb that
    takes the value. Such a pair supersedes at ``rephrase_threshold``, above the score of every labelled
    look-alike of that shape, chosen leave-one-set-out (bench/fact_slot.py)."""
    if same_template(pair) or named_within(pair, old, new):
        return False
    fa, fb = facts.analyse(old), facts.analyse(new)
    verb, now = change_words(old, new)
    if not (fb.change or verb or now):
        return False
    sa, sb = fact_cue._side(old, fa), fact_cue._side(new, fb)
    names_a, names_b = sa.names - C.KIN.keys(), sb.names - C.KIN.keys()
    if not (any(pair.x[i] for i in _VALUE_CHANGED) or (names_a - names_b and names_b - names_a)):
        return False
    if sb.possessors - sa.possessors:
        return False  # "My 1:1 with Tom", "Maya's coach": whose it is, named anew
    subject_a, subject_b = fa.words[:fa.subject_end], fb.words[:fb.subject_end]
    if any(facts._same_word(w.key, u.key) for w in subject_a for u in subject_b) and not all(
            any(facts._same_word(u.key, w.key) for w in fa.words) for u in subject_b):
        return False  # a word of its own on the thing both name: another one of its kind
    if fa.predicate is not None and subject_a and all(w.name and not w.text.isupper() for w in subject_a) and not any(
            facts._same_word(fa.words[fa.predicate].key, w.key) for w in fb.words):
        return False  # a person's relation, the verb not repeated ("works in Leeds" / "moved to Bristol"): which one?
        # (a name in capitals is a thing: "the API", "CI")
    if fb.keys & fact_disposed.DISPOSAL_VERBS and not any(
            part in fb.keys for i, w in enumerate(fa.words) if i >= fa.subject_end and i != fa.predicate
            for part in w.key.split()):  # (a name's key is its words: "vw golf")
        return False  # something given up, and nothing of the older's value named: another thing's change
    owner_a, owner_b = fact_scope.owner(old), fact_scope.owner(new)
    if owner_b[0] == "other" and owner_b != owner_a or owner_b[0] == "self" and owner_a[0] == "other":
        return False  # someone else's ("the kids' ...", "his ..."), or mine after someone else's
    return not fact_same.kin_added(old, new, None, spouse=True)  # ("we moved the docs": who did it, not whose)


def value_as_subject(old: str, new: str) -> bool:
    """Whether the newer's subject is the older's value, and the older's subject a thing: "Oat milk is Minor
    Figures now" after "User's usual coffee order is an oat milk flat white" says what the value is, not what the
    slot holds (facts33). ("Commit messages: …" after "User wants commit messages …": the older's subject is its
    owner alone, and the newer names the slot.)"""
    fa, fb = facts.analyse(old), facts.analyse(new)
    subject_a, subject_b = fa.words[:fa.subject_end], fb.words[:fb.subject_end]
    if not subject_b or not any(not w.name for w in subject_a):
        return False
    if fact_person.subject_names(old) & {part for u in subject_b for part in u.key.split()}:
        return False  # whose the older's subject is ("O namorado da Beatriz …" / "A Beatriz se mudou …"): the person
    if any(change_words("", c)[1] for c in fact_left_clause.clauses(new)[1:]):
        return False  # "luca se n'è andato, ora il mio capo è Giulia": a later clause says the slot's new state
    return all(any(facts._same_word(u.key, w.key) for w in fa.words[fa.subject_end:])
               and not any(facts._same_word(u.key, w.key) for w in subject_a) for u in subject_b)


def threshold_for(pair: Pair, weights: dict[str, Any] | None = None, old: str | None = None,
                  new: str | None = None) -> float:
    """The score at which the pair is superseded: ``threshold``, ``gate_threshold`` when the two read as
    one template with a new value (:func:`same_template`), ``subset_threshold`` when the newer names the
    slot with fewer of the older's words (:func:`named_within`, the owner read when ``old`` / ``new`` are given),
    ``rephrase_threshold`` when it names the older's thing again and its value in words of its own
    (:func:`rephrased`, read only when ``old`` / ``new`` are given)."""
    w = weights if weights is not None else _weights()
    t = float(w["threshold"])
    if "gate_threshold" in w and same_template(pair):
        return min(t, float(w["gate_threshold"]))
    if "subset_threshold" in w and named_within(pair, old, new):
        return min(t, float(w["subset_threshold"]))
    if "rephrase_threshold" in w and old is not None and new is not None and rephrased(pair, old, new):
        return min(t, float(w["rephrase_threshold"]))
    return t


def guarded(pair: Pair) -> str | None:
    """The first guard (a veto or a look-alike reading in :data:`GUARDS`) the pair shows, or None."""
    if pair.veto is not None:
        return pair.veto
    return next((g for g in GUARDS if pair.x[_GUARD_AT[g]]), None)


def _agree(group: str, a: set[tuple[object, ...]], b: set[tuple[object, ...]]) -> bool:
    """Whether the values of one group on both sides say the same (compatible dates are one)."""
    if a & b:
        return True
    if group == "date":
        return any(fact_cue._dates_agree(x, y) for x in a for y in b)
    return False


def score(x: Sequence[float], weights: dict[str, Any] | None = None) -> float:
    """The model's probability that the pair is an update (standardised features, logistic)."""
    w = weights if weights is not None else _weights()
    z = float(w["bias"])
    for v, mu, sd, coef in zip(x, w["mean"], w["std"], w["coef"]):
        z += coef * (v - mu) / sd
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _weights() -> dict[str, Any]:
    from memengine.fact_slot_weights import WEIGHTS

    return WEIGHTS


def status(model_id: str | None) -> str | None:
    """Why the learned decision is off for an embedder ``model_id`` (None: it is on)."""
    w = _weights()
    if os.environ.get("MEM_FACT_SLOT", "1") == "0":
        return "switched off (MEM_FACT_SLOT=0)"
    if not w.get("coef"):
        return "no weights shipped"
    if model_id is None:
        return "no embedder (keyword-only store)"
    if model_id != w["model_id"]:
        return f"fitted on {w['model_id']!r}, the embedder is {model_id!r}"
    return None


_told: set[str] = set()


def decide(old: str, new: str, cos: float | None, embed: Callable[[list[str]], Any] | None,
           model_id: str | None) -> facts.Verdict | None:
    """A verdict of kind "learned" when the model scores the pair at or above the shipped threshold, of
    kind :data:`MAY_UPDATE` when it scores in the middle band (:func:`band`: probably, not surely, an
    update; memengine/supersession.py links the two and keeps both current), else None.

    ``cos`` is the real model's cosine of the pair (None: unknown, nothing decided); ``embed``
    embeds texts with the same model (for the cosine of the masked pair). Off, and said once
    in the log, when ``model_id`` is not the model the weights were fitted with.
    """
    if model_id is None:
        return None  # a keyword-only store: it says so on every write already ("no-vectors")
    why = status(model_id)
    if why is not None:
        if why not in _told:
            _told.add(why)
            import logging  # (here: logging, ~2 ms of a cold fact store's CPU, for a warning said once)

            logging.getLogger(__name__).warning("learned same-slot decision off: %s (the rules alone decide "
                                                "updates)", why)
        return None
    w = _weights()
    if cos is None or embed is None or cos < w["min_cosine"] or veto(new) is not None \
            or fact_mood.unasserted(old) in ("hypothesis", "question"):
        return None  # (an older "if … we would …" or question states no value to replace; facts33)
    off = _one_off(old, new)
    if off is not None and not (off == "language" and fact_left_clause.left_in_clause(old, new)):
        return None  # (told in two languages, one names the other's value gone: one thing's, facts33)
    pair = Pair(_vector(old, new, cos, 0.0), None)  # (the veto, just read, is None)
    if guarded(pair) is not None or value_as_subject(old, new):
        return None  # (read before the masked pair is embedded: most candidates stop here)
    sure = threshold_for(pair, w, old, new)  # (the template features do not read the masked pair's cosine)
    floor = min(band(w), sure)
    # the score is monotone in the masked pair's cosine (it enters the logit linearly): when even its
    # best end in [-1, 1] stays under the lowest threshold, the masked pair is never embedded
    if max(score(with_slot(pair, c).x, w) for c in (-1.0, 1.0)) < floor:
        return None
    vecs = embed([masked(old), masked(new)])
    if vecs is None:
        return None
    p = score(with_slot(pair, float(vecs[0] @ vecs[1])).x, w)
    if p >= sure:
        how = "" if sure >= w["threshold"] else "the slot in other words; " if "rephrase_threshold" in w and sure == float(
            w["rephrase_threshold"]) else "one template, a new value; "
        return facts.Verdict("learned", f"same slot, another value ({how}learned, p={p:.2f})", round(0.5 + p / 4, 3))
    if p >= floor:
        gone = fact_left_clause.left_in_clause(old, new)
        if gone:  # probably the slot, and the older's value named apart from the change: no longer its value (facts33)
            return facts.Verdict("learned", f"{fact_left_clause.REASON}: {gone!r} (same slot, another value; learned, "
                                            f"p={p:.2f})", round(0.5 + p / 4, 3))
        return facts.Verdict(MAY_UPDATE, f"probably the same slot, another value (learned, p={p:.2f})",
                             round(p, 3))
    return None


MAY_UPDATE = "may_update"  # the verdict kind of the middle band: probably (not surely) an update


def band(weights: dict[str, Any] | None = None) -> float:
    """The lowest score that flags a pair ``may_update`` (the middle band, under the supersession
    threshold; ``MEM_FACT_MAY_UPDATE=0`` switches the band off): the two stay current, the older
    one is marked and ranked under the newer (memengine/supersession.py)."""
    w = weights if weights is not None else _weights()
    if os.environ.get("MEM_FACT_MAY_UPDATE", "1") == "0":
        return float(w["threshold"])
    return float(min(w.get("may_update", w["threshold"]), w["threshold"]))
