"""An agent's own notes that update each other: the newer version first (round 30, held-out 29).

An agent stores short notes one at a time (``mem.py store "..."``, no thread) over weeks; a later note often
restates an earlier one with a new value: "Maya's dental cleaning with Dr. Haddad for October 14" and, weeks on,
"Maya has a cold, so the November 3 cleaning is off; Dr. Haddad can see her on December 9 at 8:30am instead";
"Flour ... from Marriage's: delivered every Monday, order by Friday noon" and "Marriage's moved the cut-off: orders
for Monday delivery must be in by Thursday 5pm". The store retires the older one only when the facts engine reads
the pair as one slot with another value (memengine/supersession.py), and never an episodic note (FACT_SQL reads
semantic and procedural ones): most such pairs stay current, and the older one, worded closer to the question,
ranks first. The chat steps (updates.py, renamed.py, succeeded.py) pair turns of one thread; a note has none.

Here the question is the slot: among the scored candidates of a recall (the top ``k`` of the steps' depth), a later
note of the same source that

* says the subject of a top-``SEEDS`` note again: at least ``SUBJECT_STEMS`` content-word stems of both (no value
  word: "march", "monday") that at most ``RARE_IN`` of the candidates say — the words of that slot's versions,
  not the user's name, which every note of a store about one person holds, nor a place half of them name —
  and no stem of the newer's own change words: "Sofia moved to the data platform team" says "move" and "Sofia"
  of "Decided with Sofia to move the invoice PDFs to R2", but the move is its change, not the PDFs' subject;
* is worded as a change: a word of fact_cue's change lexicon (updates.change_word: "moved", "now", "instead",
  "raised", "switched") and no question or plan (fact_mood.unasserted);
* or (round 34) shares ONE such stem and its vector is close to the older's: a change word and a cosine of at
  least ``SAME_COS``, or no change word and ``RESTATE_COS`` (the value restated: "From 1 November the sourdough
  is £4.50" after "Prices: sourdough loaf £4.20"), asserted;

goes just above it (the newest of several first; one already above stays), and the older one is returned marked
``possibly_outdated`` by it. Nothing leaves the results. Chat turns (a thread), episodes, consolidation summaries and
shared memories are never paired, nor notes of two sources (they stay both current, as contradictions do in the
store) or of two authors ("Ana: I started painting landscapes" / "Oscar: I started painting portraits": each tells
their own).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from memengine.recall.counter import asks_first
from memengine.recall.episodes import is_episode
from memengine.records import Candidate

# The top hits read as the older version (an agent takes the first 1-3 hits).
SEEDS = 3
# Two stems name a subject again (updates.ACROSS_STEMS: a later conversation naming the earlier one's subject).
SUBJECT_STEMS = 2
# A stem of the slot is said by its versions and little else: the older, the newer and one more (a chain of
# three: booked, moved, moved again) among the candidates.
RARE_IN = 3
# The candidates a subject's rarity is counted over (a recall's step depth, notes_now.py).
SUBJECT_DEPTH = 15
# A short note: an agent's note states a fact or two (updates.UPDATE_WORDS' bound on a chat update, in characters).
NOTE_CHARS = 40 * 12


# consolidate's summaries (memengine/consolidate.py SUMMARY_SOURCE; not imported: consolidate is heavy for a recall)
SUMMARY_SOURCE = "consolidate"


_WORD = re.compile(r"[^\W\d_]+")


def is_note(c: Candidate) -> bool:
    """A memory stored as a note: no thread (no chat turn), no import episode, no consolidation summary, not
    received from another store."""
    source = c.source or ""
    return (c.thread is None and not is_episode(c) and source != SUMMARY_SOURCE
            and not source.startswith("shared:"))


def _later(a: Candidate, b: Candidate) -> bool:
    """``b`` was true after ``a``: by their event times when both have one (``--at``), else by store order."""
    if a.event_at and b.event_at:
        return b.event_at > a.event_at
    return b.id > a.id


# Round 34: the same subject read by the two notes' vectors as well as their words. An update often shares one
# word with the note it replaces ("Maya climbs at Vertical World …" / "Maya switched to Edgeworks in Fremont …";
# "Prices: sourdough loaf £4.20 …" / "From 1 November the sourdough is £4.50 …"): one rare stem of both and
# * a change word and a cosine of at least SAME_COS — brief_keyfacts.SUBJECT_COS's reading, "two key facts this
#   close that name a rare word of both may be one subject" (not chosen on any recall set);
# * or, with no change word, a cosine of at least RESTATE_COS — brief_upcoming.RESTATED_COS's reading, "the same
#   plan said again" (the value restated: a price, a time).
SAME_COS = 0.6
RESTATE_COS = 0.85


def _cos(vecs: dict[int, Any], a: int, b: int) -> float:
    """The cosine of two candidates' stored vectors; -1 when one has none."""
    va, vb = vecs.get(a), vecs.get(b)
    if va is None or vb is None:
        return -1.0
    norm = float((va @ va) * (vb @ vb)) ** 0.5
    return float(va @ vb) / norm if norm > 0 else -1.0


# The kinds of value a restatement names (memengine/fact_tokens.py via updates.values_of); not a code ("v2",
# "cx-5", "1-year"): a note's model or version name is part of its subject, not its value.
_NOT_VALUE = ("code",)


def other_value(old: str, new: str) -> bool:
    """Whether ``new`` states another value of a kind ``old`` states too: a date, a time, a weekday, a number (of
    one unit): "rego due 14 September" / "next due September 2027", "£62,400 a year" / "£56,160 a year"."""
    from memengine.recall.updates import values_of

    vo, vn = values_of(old), values_of(new)
    for kind in {k for k, _ in vn if k not in _NOT_VALUE} & {k for k, _ in vo}:
        if {v for k, v in vn if k == kind} - {v for k, v in vo if k == kind}:  # (one it says anew: "… 18h15 pile"
            # repeats "ouverte de 8h à 18h15", it adds a detail to that note)
            return True
    return False


# The role an agent's notes call their user by ("User prefers …", "User's laptop …"): the store's owner, whose
# own name other notes say ("Sanjay agreed to mypy --strict"): no second person
_ROLES = frozenset({"user"})


def _other_people(a: str, b: str) -> bool:
    """Whether the two notes are about two people: each names someone in its subject whom the other never says
    ("Oscar prefers morning meetings" / "Ana prefers written summaries …": the demo's store, where one shared word
    and close vectors had marked Oscar's note outdated by Ana's; lead, session 15)."""
    from memengine.fact_person import other_person, subject_names

    na, nb = subject_names(a) - _ROLES, subject_names(b) - _ROLES
    if not na or not nb:
        return False
    # (round 45: as the facts engine reads two subjects — a name said by the other as a plural or genitive too, one
    # noun in two forms: "Glaze buckets are kept on the metal shelf" / "Glazes now live in the new cupboard" are one
    # thing, not two people; the exact words alone read them as two)
    if not other_person(a, b):
        return False
    # a name both say past their first word is the thing they share ("Élodie prend du Levothyrox 75 µg" / "Dr
    # Benali a augmenté le Levothyrox à 88 µg": her dose, changed by her doctor): one subject
    return not (_named(a) & _named(b))


def _named(text: str) -> set[str]:
    """The folded words ``text`` capitalises past its first word (the names it says)."""
    from memengine.fact_lexicon import fold

    return {fold(w) for w in _WORD.findall(text)[1:] if w[:1].isupper()}


def _name_stems(text: str) -> frozenset[str]:
    """The stems of the capitalised words of ``text`` past its first (the names it says)."""
    from memengine.recall.updates import stems

    return stems(" ".join(w for w in _WORD.findall(text)[1:] if w[:1].isupper()))


def newer_notes_first(ranked: list[Candidate], k: int, query: str = "",
                      vectors: Callable[[list[int]], dict[int, Any]] | None = None,
                      same_cos: float = 0.0, heads: bool = False,
                      when: bool = False) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` (best first) with each later note that restates a top note's subject as a change moved just
    above it (see the module's text), and ``{older id: [newer ids]}`` (the older ones to mark). Costs nothing
    on a store of chat turns (no note among the top hits); on notes, the change lexicon of each candidate first
    (~2 us a text), the stems of the candidates only when a later one says a change (both kept per text per
    process). ``same_cos`` (round 45; 0 = off): a later note sharing ``SUBJECT_STEMS`` rare stems with a top note
    and no change word is its newer version too when their vectors are at least this close. ``heads`` (round 47):
    a note's subject is read from its head only, not its reason / purpose clauses (notes_head.head_and_tail):
    "Lowther Dairy switched delivery to Wednesdays to match the evening session" is no newer version of the
    evening session's note. ``when`` (round 49, notes_kind.py): asked when, a later note holding no time is no newer
    version of one holding a time (it changed the note's other part: "… quem dirige a obra agora é o filho")."""
    if k < 2 or (query and asks_first(query)):  # ("what was the first dentist date?": the older is asked)
        return ranked, {}
    top = ranked[:k]
    seeds = [c for c in top[:SEEDS] if is_note(c) and len(c.content) <= NOTE_CHARS]
    if not seeds:
        return ranked, {}
    from memengine import fact_mood
    from memengine.recall.notes_lexicon import without_function_words, words_of_change
    from memengine.recall.updates import change_stems, change_word, may_hold_value, stems, subject_stems

    # (the cheapest test first: a later note, its change word ~2 us a text; only then stems, ~20-50 us a text,
    # and the vectors of the candidates, one read of ~15 stored vectors, only when a pair shares too few words)
    said_change = {c.id: change_word(c.content) or bool(words_of_change(c.content))
                   for c in top if is_note(c) and len(c.content) <= NOTE_CHARS}
    later = [c for c in top if c.id in said_change
             and (vectors is not None or said_change[c.id] or may_hold_value(c.content))]
    if not later or not any(_later(a, b) for a in seeds for b in later):
        return ranked, {}
    if heads:
        from memengine.recall.notes_head import head_and_tail

        said = {c.id: subject_stems(without_function_words(head_and_tail(c.content)[0])) for c in top}
    else:
        said = {c.id: subject_stems(without_function_words(c.content)) for c in top}
    df = Counter(s for stems in said.values() for s in stems)
    timed = None
    if when and query:
        from memengine.recall.notes_kind import asks_time, holds_time

        timed = holds_time if asks_time(query) else None
    vecs: dict[int, Any] | None = None
    marks: dict[int, list[int]] = {}
    for a in seeds:
        for b in later:
            if b.id == a.id or b.source != a.source or b.author != a.author or not _later(a, b):
                continue
            if timed is not None and timed(a.content) and not timed(b.content):
                continue  # (round 49: asked when, the later holds no time: notes_kind.py)
            shared = (said[a.id] & said[b.id]) - change_stems(b.content)
            if said_change[b.id] and (extra := words_of_change(b.content)):
                shared -= stems(" ".join(extra))
            rare = sum(1 for s in shared if df[s] <= RARE_IN)
            # (round 36: or its subject said again with another value of a kind both state, no change word:
            # "docker compose Postgres: port 5432" after "… Postgres runs in docker compose on port 5433")
            said_it = rare >= SUBJECT_STEMS and (said_change[b.id] or (
                # (lead, session 16: not when the rare words shared are only a name — "manuscript delivered to
                # Siri Dahl on 18 November" is no new date of "a meeting with Siri Dahl on 2 September")
                any(df[s] <= RARE_IN for s in shared - _name_stems(b.content))
                and other_value(a.content, b.content)))
            if not said_it and rare >= 1 and vectors is not None:
                if vecs is None:
                    vecs = vectors([c.id for c in top])
                cos = _cos(vecs, a.id, b.id)
                # (round 45: the subject said again in two rare words, the vectors close, no change word: "Physio
                # moved the knee sessions to once a month" / "Knee physio discharged Noor: no more appointments")
                said_it = cos >= RESTATE_COS or (said_change[b.id] and cos >= SAME_COS) or (
                    0 < same_cos <= cos and rare >= SUBJECT_STEMS)
            if not said_it or fact_mood.unasserted(b.content) or _other_people(a.content, b.content):
                continue
            marks.setdefault(a.id, []).append(b.id)
    if not marks:
        return ranked, {}
    out = list(top)
    for old_id, newer in marks.items():
        old = next(c for c in out if c.id == old_id)
        for new in sorted((c for c in out if c.id in set(newer)), key=lambda c: (c.event_at or "", c.id), reverse=True):
            if out.index(new) < out.index(old):
                continue  # (already above it)
            out.remove(new)
            out.insert(out.index(old), new)  # (the newest first: each next one goes between it and the older)
            new.score = old.score
    return out + ranked[k:], {o: sorted(ns) for o, ns in marks.items()}
