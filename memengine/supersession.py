"""Supersession: a newer fact retires the one it updates, and nothing is deleted.

Convention shared with consolidate, liveset.LIVE_SQL and graph's brief: a memory is
*superseded* when ``valid_to IS NOT NULL``; its successor has an ``associations`` edge
``supersedes`` (source_id = new, target_id = old). Status stays as it was, so a superseded
fact is restorable (``mem.py restore`` does not touch it; ``supersede`` can be undone by
clearing ``valid_to``), and ``recall --history`` / ``--as-of`` still reach it.

Bi-temporal: ``valid_to`` of the old fact is the time the new one became true (its
``event_at``, else when it was stored). A new fact whose time is *older* than the active
fact it conflicts with is history: it is stored already superseded by the active one.

Probably (not surely) an update — the learned decision's middle band, memengine/fact_slot.py — retires
nothing: a ``contradicts`` edge new -> old whose metadata holds ``may_update`` (the score) links them,
recall ranks the newer above the older and marks the older ``possibly_outdated``
(memengine/versions.py ``outdated_marked``), brief shows the newer (``versions.probably_outdated``).

An older note that states something the newer neither repeats nor changes (an agent's description of a
project, a person, a server, then one attribute of it: memengine/fact_untouched.py) is never retired by
whichever path decided: the pair is linked ``may_update`` instead, so no statement is lost.

Only facts (semantic / procedural memories outside any conversation) take part; chat turns
and episodes are events, never updates of each other. SQL runs inside the caller's write
transaction; this module never opens one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memengine.db import select_in
from memengine.edges import add_edges
from memengine.text import query_terms, quote_fts
from memengine.versions import MAY_UPDATE_META

if TYPE_CHECKING:  # the fact rules compile ~100 patterns: only a write that can supersede loads them
    from memengine import facts

# Nearest facts compared with a new one, and the least cosine worth comparing: every update
# of both labelled sets scores >= 0.60 with the shipped model (bench/facts.py prints it).
CANDIDATES = 10
MIN_COSINE = 0.55
# Below MIN_COSINE a candidate is still read by memengine/fact_swap.py alone, whose shorthand (every word
# of the newer repeats the older's, a change said, a value of the older's kind) keeps other things out:
# "sperrmüll kommt jetzt erst am 17." is 0.43 from "Die Sperrmüllabholung ist am 3. März".
SWAP_COSINE = 0.35

# The rows a new fact may supersede (over ``memories m``).
FACT_SQL = ("m.status = 'active' AND m.level = 0 AND m.valid_to IS NULL AND m.thread IS NULL "
            "AND m.memory_type IN ('semantic', 'procedural') AND m.source NOT LIKE 'shared:%'")


@dataclass(frozen=True)
class Decision:
    """``winner`` supersedes ``loser`` from ``at`` (ISO), because of ``verdict``; when the two
    come from different sources (owners) nobody can tell which is right: ``open`` records the
    contradiction for review and both stay current (consolidate's rule too). ``maybe``: the learned
    decision's middle band (memengine/fact_slot.py) says ``winner`` probably updates ``loser``; both
    stay current, linked (:data:`MAY_UPDATE_META`), and recall ranks ``winner`` first."""

    winner: int
    loser: int
    at: str
    verdict: facts.Verdict
    open: bool = False
    maybe: bool = False  # probably (not surely) an update: a may_update link, both stay current


def is_fact(memory_type: str, thread: str | None) -> bool:
    """Whether a memory may supersede or be superseded (never a conversation turn or an event)."""
    return memory_type in ("semantic", "procedural") and thread is None


def plan(new_id: int, new_text: str, new_time: str, candidates: list[tuple[Any, float | None]],
         new_source: str | None = None, cosines: dict[int, float] | None = None,
         embed: Callable[[list[str]], Any] | None = None, model_id: str | None = None) -> list[Decision]:
    """Decide which candidate rows (``id, content, valid_from, source`` + cosine) ``new_id`` supersedes.

    A cosine of ``None`` is a candidate found by its words (no vectors, or beyond the kNN):
    the frame comparison alone decides. Reported speech is compared as the clause said
    (memengine/fact_said.py: "Ana said the meeting moved" states that it moved), without what it says stays
    as the candidate has it (memengine/fact_kept.py: "same time"). When it finds nothing, memengine/fact_cue.py gets a
    second chance ("New X: ...", "raised the rent to ...", "left A and joined B"), with the
    pair's cosine from ``cosines`` (id -> cosine) when the candidate's own is None. When the rules
    say nothing, memengine/fact_slot.py's learned same-slot decision is asked last (it needs ``embed``
    and the ``model_id`` its weights were fitted with; off otherwise, and said once in the log).

    ``new_time`` / ``valid_from`` are ISO strings (comparable as text). A candidate whose
    time is later than ``new_time`` wins instead (the new fact is history): at most one
    such decision, the earliest later fact.
    """
    from memengine import (
        fact_after_event,
        fact_as_role,
        fact_breakup,
        fact_cause,
        fact_crossed,
        fact_denied,
        fact_effective,
        fact_elliptic,
        fact_ended,
        fact_hired,
        fact_kept,
        fact_kind,
        fact_left_clause,
        fact_meant,
        fact_migrated,
        fact_moved_to,
        fact_name_kind,
        fact_named_switch,
        fact_note_label,
        fact_note_parts,
        fact_one_off,
        fact_only,
        fact_period,
        fact_person,
        fact_plain_value,
        fact_promoted,
        fact_provider,
        fact_reason_value,
        fact_relocated,
        fact_reorg,
        fact_shared,
        fact_shift,
        fact_slot,
        fact_stated,
        fact_swap,
        fact_terse,
        fact_undone,
        fact_vacated,
        fact_wordform,
        facts,
    )

    # "Ana said the meeting moved to Tuesday": what was said; "correction: ..., not X": the corrected value
    # (a note's opening label, "Update: …", "Decided: …", is no word of what was said: memengine/fact_note_label.py)
    said_text = fact_note_label.unlabelled(new_text)
    new_text = fact_stated.stated(new_text)
    fact = facts.analyse(new_text)
    out: list[Decision] = []
    maybe: list[Decision] = []
    later: list[tuple[str, int, facts.Verdict]] = []
    # (a number without its subject, "Down to 5mg as of last week", is far from every fact in meaning:
    # the rule's own shape and _one_owner decide; so is whom I report to now against "my manager is ...",
    # and "sorry i meant the medium one")
    floor = -1.0 if len(new_text) < 80 and fact_elliptic.fragment(new_text) or fact_swap.fragment(said_text) \
        or fact_reorg.reports(said_text) or fact_meant.meant(said_text) else MIN_COSINE
    back = bool(fact_undone.bare(said_text))  # "Back to Gradle.": far from what it undoes, shares no word
    # what most candidates say too ("The user …") names whom the store is about: no evidence of the slot
    owner = fact_shared.owners(new_text, [fact_stated.stated(str(row[1])) for row, _ in candidates
                                          if int(row[0]) != new_id])
    # the kind of each name the write and its candidates say (a system, a place, a company, a person), where one
    # of them says it: another fact's "Rocky Linux 8" makes "vers Rocky Linux" a system (memengine/fact_kind.py)
    known = fact_name_kind.known([new_text, said_text] + [fact_stated.stated(str(row[1])) for row, _ in candidates
                                                          if int(row[0]) != new_id])
    # where people moved to is a place (memengine/fact_moved_to.py): no new value of their pet's name
    moved_to = fact_moved_to.destination(said_text)
    if moved_to is not None:
        known = {**known, moved_to: fact_name_kind.PLACE}
    evidence: dict[int, frozenset[str]] = {}  # the words each older was named by (for _one_subject)
    aside: dict[int, frozenset[str]] = {}  # the same, of olders another attribute's kind set aside (counted only)
    for row, sim in candidates:
        if int(row[0]) == new_id:
            continue
        returned = _returned(str(row[1]), said_text, str(row[2]), new_time) if back else None
        if returned is not None:
            if not vetoed(fact_stated.stated(str(row[1])), new_text):
                got = _covered(fact_stated.stated(str(row[1])), said_text, returned)
                # (a linked one too goes through _one_owner: two changes it may undo, neither is marked)
                out.append(Decision(new_id, int(row[0]), new_time, got, maybe=got.kind == fact_slot.MAY_UPDATE))
            continue
        if sim is not None and sim < min(floor, SWAP_COSINE):
            continue
        cos = sim if sim is not None else (cosines or {}).get(int(row[0]))
        old_text = fact_stated.stated(str(row[1]))
        # what the newer says stays as the older has it ("same time", "still elm street") is no new value
        kept_new, kept_said, kept_fact = new_text, said_text, fact
        if fact_kept.without(old_text, said_text) != said_text:
            kept_said = fact_kept.without(old_text, said_text)
            kept_new = fact_kept.without(old_text, new_text)
            kept_fact = facts.analyse(kept_new)
        # when the newer starts to hold ("as of October", "from January") is no value of a slot the older states no
        # time of (memengine/fact_effective.py): another attribute's test reads the newer without it, and the rules
        # read it so when they find nothing in the whole
        attr_new, attr_said = fact_effective.without(old_text, new_text), fact_effective.without(old_text, said_text)
        if sim is not None and sim < floor:  # (far in meaning: only a new value in shorthand, word for word)
            verdict = fact_swap.detect(old_text, kept_new) or _relative(old_text, said_text) \
                or fact_relocated.moved(old_text, said_text) or _crossed(old_text, said_text) \
                or fact_as_role.role_now(old_text, said_text) \
                or fact_breakup.ended(old_text, said_text) or fact_wordform.moved(old_text, said_text) \
                or fact_denied.denied(old_text, kept_said, cos) or fact_one_off.stood_in(old_text, said_text)
            # (a relationship's end, the older's slot in another word form: word for word, both, and far in meaning:
            # "Split up with Tom in the summer; …" / "User's partner is Tom" are 0.42 apart)
        else:
            verdict = rules(old_text, kept_fact, kept_said, sim, cos) or fact_slot.decide(old_text, kept_new, cos,
                                                                                          embed, model_id)
            # the state said after the event that brought it ("The flat was sold in May; the landlord is now …",
            # memengine/fact_after_event.py), read alone when the whole decided nothing
            state = fact_after_event.state_after(kept_said, old_text) if verdict is None or verdict.kind == fact_slot.MAY_UPDATE \
                else ""
            if state:
                verdict = rules(old_text, facts.analyse(state), state, sim, cos) \
                    or fact_slot.decide(old_text, state, cos, embed, model_id) or verdict
            eff_said = fact_effective.without(old_text, kept_said)
            if (verdict is None or verdict.kind == fact_slot.MAY_UPDATE) and eff_said != kept_said:
                eff_new = fact_effective.without(old_text, kept_new)
                verdict = rules(old_text, facts.analyse(eff_new), eff_said, sim, cos) \
                    or fact_slot.decide(old_text, eff_new, cos, embed, model_id) or verdict
            # the state said before the clause that tells why ("House lager is 5.10 a pint after the duty rise", "…
            # Tuesdays now, the track wasn't free on Wednesdays": memengine/fact_cause.py), read alone by the rules and
            # fact_shift when the whole decided nothing or only "probably"; a sure verdict only (no learned one)
            before = fact_cause.state_before(kept_said) if (verdict is None or verdict.kind == fact_slot.MAY_UPDATE) \
                and not fact_cause.one_time(old_text, kept_said) else ""
            if before:
                cut = rules(old_text, facts.analyse(before), before, sim, cos) or fact_shift.shifted(old_text, before)
                if cut is not None and cut.kind != fact_slot.MAY_UPDATE:
                    verdict = cut
        if verdict is None or verdict.kind == fact_slot.MAY_UPDATE:
            # the older's value said ended by an event in any clause, another value named (memengine/fact_vacated.py:
            # "The WD drive failed, so backups go to …"): read after the learned decision, whose band it makes sure
            # (or a shift in time said anywhere, the older's slot said again with another value, memengine/fact_shift.py:
            # "Society meetings are on the last Thursday of the month from now on")
            # (or the older's value named beside a new value of its slot, memengine/fact_reason_value.py: "We've gone
            # over to Hempel for antifouling, Jotun's lead times were silly"; or the older's frame said again with one
            # value apart and no change word, memengine/fact_plain_value.py: "Gate code's 7302", or as a terse label,
            # memengine/fact_terse.py: "Back door alarm: 9052"; a stand-in, at most probable: fact_one_off.stood_in;
            # or the older's state
            # denied as lasting, memengine/fact_denied.py: "The pool doesn't open till 7 any more")
            verdict = fact_vacated.vacated(old_text, kept_said) or fact_shift.shifted(old_text, kept_said) \
                or fact_reason_value.replaced(old_text, kept_said, cos) or fact_plain_value.restated(old_text, kept_said, cos) \
                or fact_denied.denied(old_text, kept_said, cos) or fact_note_parts.one_part(old_text, kept_said, cos) \
                or fact_terse.terse(old_text, kept_said) or fact_one_off.stood_in(old_text, said_text) or verdict
        if verdict is None and cos is not None and (sim is None or sim >= floor):
            # the same slot named in other words ("pg pool max" / "Postgres connection pool size", "he" /
            # "Tom", "la BDD" / "la base de données"): asked again with the newer in the older's words
            # (memengine/fact_alias.py), when the two are known near in meaning (a cosine: a word read by its
            # letters alone is no proof). Not over the middle band's verdict: a letter-made alias is weaker
            # than what the band read ("timetable" / "time": "since the timetable change i catch the 7:55"
            # is no new school start time)
            verdict = _aliased(old_text, kept_new, sim, cos, embed, model_id)
        if verdict is None or verdict.kind == fact_slot.MAY_UPDATE:
            verdict = _undone(old_text, said_text, verdict, cos is not None and cos >= floor)
        if verdict is None:
            continue
        if fact_one_off.one_off(old_text, said_text):
            continue  # one occurrence told ("cancelled this Tuesday", memengine/fact_one_off.py): the older stands
        # (a relationship's end names whose relationship it is itself, memengine/fact_breakup.py: the owner and the
        # partner are two people by the vetoes' reading, "Ana's boyfriend is Pete" / "Ana and Pete split up")
        # (nor is an activity said as a noun first in the sentence a person, memengine/fact_wordform.py: "Delivery now
        # goes through Evri" / "Orders are delivered by DPD" are no two people)
        veto = "" if verdict.reason.startswith(fact_breakup.REASON) else vetoed(old_text, new_text)
        if veto and not (verdict.reason.startswith(fact_wordform.REASON) and veto.startswith("another person")):
            # (a relative's fact set aside by whose it is, memengine/fact_person.relative_of, still counts for
            # ``_one_subject`` as the other-attribute olders do: the person's name alone named it)
            if floor > 0 and fact_person.relative_of(old_text, new_text) \
                    and _unnamed(old_text, new_text, said_text, verdict, owner) is not None:
                aside[int(row[0])] = fact_shared.shared_words(old_text, new_text)
            continue
        # (a person's slot read by a rule of its own, memengine/fact_person.py: named by the person and the slot)
        # (or the older's value named as ended, its whole thing named as redone in another, memengine/fact_ended.py:
        # "Rebuilt the agency site in Astro" names the site, which most of the agent's notes name too)
        framed = verdict.reason.startswith((fact_promoted.FRAME, fact_promoted.ROLE, *fact_person.PERSON_REASONS,
                                            fact_ended.REDONE, fact_ended.REASON, fact_breakup.REASON, fact_wordform.REASON,
                                            fact_vacated.REASON, fact_reason_value.REASON, fact_plain_value.REASON,
                                            fact_denied.REASON, fact_terse.REASON))
        # a role of its own: a new role, a person who moved, was taken on elsewhere (memengine/fact_hired.py) or went
        # over to another provider (memengine/fact_provider.py), the older's value said left for another in the newer's
        # own words ("cancelled the gym membership at A and joined the climbing wall at B": two jobs' words, one
        # value left; not a value the alias path wrote into the newer)
        own_role = verdict.reason.startswith((fact_promoted.ROLE, fact_relocated.REASON, fact_hired.REASON,
                                              fact_provider.REASON, fact_crossed.REASON, fact_as_role.REASON,
                                              fact_ended.REASON, fact_breakup.REASON, fact_wordform.REASON,
                                              fact_vacated.REASON, fact_reason_value.REASON, fact_denied.REASON)) \
            or verdict.reason.startswith(fact_migrated.REASON) and fact_migrated.left_for(old_text, said_text) is not None
        # a rule restricted to fewer days (memengine/fact_only.py) names its days in place of the older's "every
        # night at 02:00": a day for a time of day is the restriction, not another attribute
        # (nor is it when the newer names the older's value as what it switched away from or apart from the change:
        # memengine/fact_named_switch.py, fact_left_clause.py)
        restricts = verdict.reason.startswith((fact_only.REASON, fact_named_switch.REASON, fact_left_clause.REASON,
                                               fact_ended.REASON, fact_ended.REDONE, fact_breakup.REASON, fact_wordform.REASON,
                                               fact_vacated.REASON, fact_reason_value.REASON, fact_denied.REASON))
        if verdict.kind != "relative" and (not restricts and fact_kind.another_attribute(old_text, attr_new, known) and (
                attr_said == attr_new or fact_kind.another_attribute(old_text, attr_said, known))
                or not own_role and _another_role(old_text, new_text, said_text)
                or fact_period.other_subject(old_text, said_text)):
            # another attribute of the older's thing ("… tem 32 GB de RAM" / "… roda Java 11"): kept, unmarked
            # (a value moved by a relative word is a difference, of its own kind: "um zwei Wochen verschoben");
            # still counted by ``_one_subject``: a word it was named by alone is whom the facts are about as before
            # (but the older's holder said ended, the slot filled anew, whatever the newer's frame word, facts43:
            # "Mrs Patel retired in July; Sam goes to the nursery on Mill Lane now", memengine/fact_vacated.py)
            ended = None if restricts else fact_vacated.vacated(old_text, kept_said)
            if ended is None:
                if floor > 0 and _unnamed(old_text, new_text, said_text, verdict, owner) is not None:
                    aside[int(row[0])] = fact_shared.shared_words(old_text, new_text)
                continue
            verdict, framed = ended, True
        if floor > 0 and not framed:  # (a fragment names no subject by its shape: its own guards decide)
            verdict = _unnamed(old_text, new_text, said_text, verdict, owner)
            if verdict is None:
                continue
            evidence[int(row[0])] = fact_shared.shared_words(old_text, new_text)
        elif framed:
            # the slot named by its frame (memengine/fact_promoted.py: the same subject, the same cue word or the same
            # organisation): evidence of its own, more than whom the write is about (the owner word, ``_one_subject``)
            evidence[int(row[0])] = frozenset({verdict.reason})
        verdict = _covered(old_text, said_text, verdict)
        old_time = str(row[2])
        if verdict.kind == "correction" and fact_meant.meant(said_text) and not _recent(old_time, new_time):
            continue  # "i meant the medium one" corrects what was just said, not a fact of last month
        if verdict.kind == fact_slot.MAY_UPDATE:  # the later in time is the probable update
            maybe.append(Decision(new_id, int(row[0]), new_time, verdict, maybe=True) if old_time <= new_time
                         else Decision(int(row[0]), new_id, old_time, verdict, maybe=True))
        elif new_source is not None and len(row) > 3 and row[3] != new_source:
            out.append(Decision(new_id, int(row[0]), new_time, verdict, open=True))
        elif old_time > new_time:
            later.append((old_time, int(row[0]), verdict))
        else:
            out.append(Decision(new_id, int(row[0]), new_time, verdict))
    if later:
        old_time, old_id, verdict = min(later)
        out.append(Decision(old_id, new_id, old_time, verdict))
    out, maybe = _one_switch(new_id, said_text, out, maybe, candidates)
    out, maybe = _one_subject(out, maybe, evidence, aside)
    sure = _one_relationship(_one_owner(out))
    # a fact the new one surely updates, or that surely updates it, is not also "maybe"
    decided = {d.loser for d in sure} | {d.winner for d in sure}
    # (one slot last: what _one_unit set aside as nobody's to tell is not handed to the nearest)
    return _one_slot(new_id, _one_unit(sure + [d for d in maybe if (d.loser if d.winner == new_id else d.winner)
                                                not in decided]), candidates, cosines, embed)


def _one_slot(new_id: int, sure: list[Decision], candidates: list[tuple[Any, float | None]],
              cosines: dict[int, float] | None, embed: Callable[[list[str]], Any] | None) -> list[Decision]:
    """The decisions, less the retirements of olders saying another thing than the nearest one the write retires
    (memengine/fact_one_slot.py: "The build server moved to Amsterdam" retires where it is hosted, not what it
    runs); those olders stay as they were."""
    from memengine import fact_one_slot

    mine = [d for d in sure if d.winner == new_id and not d.open and not d.maybe]
    if len(mine) < 2:
        return sure
    texts = {int(row[0]): str(row[1]) for row, _ in candidates}
    cos = {int(row[0]): sim if sim is not None else (cosines or {}).get(int(row[0])) for row, sim in candidates}
    apart = fact_one_slot.apart([d.loser for d in mine], cos, texts, embed)
    return [d for d in sure if not (d in mine and d.loser in apart)]


def _one_switch(new_id: int, said_text: str, sure: list[Decision], maybe: list[Decision],
                candidates: list[tuple[Any, float | None]]) -> tuple[list[Decision], list[Decision]]:
    """A write naming the value it left retires only olders holding it, and, said for one purpose, only those
    about it (memengine/fact_purpose.py: "switched from Notion to Linear for sprint planning"); when none
    of several olders holding it names the purpose, all are flagged ``may_update``."""
    from memengine import fact_purpose, fact_slot, fact_stated, facts

    texts = {int(row[0]): fact_stated.stated(str(row[1])) for row, _ in candidates}
    mine = {d.loser: texts[d.loser] for d in sure if d.winner == new_id and d.loser in texts}
    got = fact_purpose.narrowed(said_text, mine)
    if not got.dropped and not got.flagged:
        return sure, maybe
    kept = [d for d in sure if d.winner != new_id or d.loser not in got.dropped | got.flagged]
    flags = [Decision(d.winner, d.loser, d.at, facts.Verdict(fact_slot.MAY_UPDATE, f"{d.verdict.reason} (which of "
                      f"the olders holding the value left, the write does not say)", 0.6), maybe=True)
             for d in sure if d.winner == new_id and d.loser in got.flagged]
    return kept, maybe + flags


def _another_role(old_text: str, new_text: str, said_text: str) -> bool:
    """Whether the two facts give their values two different jobs (memengine/fact_role.py: "runs Alma Linux 9" /
    "uses Memcached as its cache"): asked of two facts that both state a name, the values whose job is said around
    them (not of days: "Die Besprechung" and "Das Meeting" are one thing in other words, whose day is the value).
    (Not asked of a new role at the same company: memengine/fact_promoted.py reads a role said "as" a role.)"""
    from memengine import fact_kind, fact_role

    def named(text: str) -> bool:
        return any(k in (fact_kind.NAMED, fact_kind.VERSION) or k.startswith("named:") for k in fact_kind.kinds(text))

    if not named(old_text) or not named(new_text):
        return False
    return fact_role.another_role(old_text, new_text) and (said_text == new_text
                                                           or fact_role.another_role(old_text, said_text))


# Olders named by one word alone that make the word whom they are about: two may be one thing's two attributes
# a change cannot tell apart ("moved retro → 10:00": "retro every other Friday at 4pm", "retro on Fridays at
# 3pm", one of them its older: crowded dev lost two updates at 2); three or more saying different things are a
# person's or a team's facts ("usuário": where they live, their dog, their wife).
ONE_SUBJECT_MIN = 3


def _one_subject(sure: list[Decision], maybe: list[Decision], evidence: dict[int, frozenset[str]],
                 aside: dict[int, frozenset[str]] | None = None) -> tuple[list[Decision], list[Decision]]:
    """The decisions (sure, maybe), less those whose older was named by one and the same word alone when
    ONE_SUBJECT_MIN or more were: a change retires one slot, and a word it shares with several facts that say
    different things is whom they are about ("o usuário agora é coordenador de dados na Nubank" named "O
    usuário mora em Campinas", "O usuário tem um cachorro" and "O usuário é casado com a Juliana" by "usuário"
    alone, and retired all three with the job it changed, which it named by "Nubank" and "dados"). In a store
    of a few facts memengine/fact_shared.py's ``owners`` cannot see it (fewer than OWNER_MIN_CANDIDATES
    candidates hold it); this needs none. Lead, session 7. ``aside``: the words olders were named by whose verdict
    memengine/fact_kind.py set aside as another attribute (facts25): counted too, so that reading one of three
    correctly as another attribute does not let the other two through."""
    def alone(d: Decision) -> frozenset[str]:
        words = evidence.get(d.loser, frozenset())
        return words if len(words) == 1 else frozenset()

    counts = Counter(w for d in sure + maybe for w in alone(d))
    counts.update(w for words in (aside or {}).values() if len(words) == 1 for w in words)
    if not any(n >= ONE_SUBJECT_MIN for n in counts.values()):
        return sure, maybe

    def kept(ds: list[Decision]) -> list[Decision]:
        return [d for d in ds if not any(counts[w] >= ONE_SUBJECT_MIN for w in alone(d))]
    return kept(sure), kept(maybe)


def _one_relationship(decisions: list[Decision]) -> list[Decision]:
    """A write that ends a relationship (memengine/fact_breakup.py) retires no other older by a change cue alone: the
    "now" of "Morag and Kenny broke up; she's with Alasdair now" names the new partner, not a new value of "Morag is
    secretary of the regional association"."""
    from memengine import fact_breakup

    if not any(d.verdict.reason.startswith(fact_breakup.REASON) for d in decisions):
        return decisions
    return [d for d in decisions if d.verdict.kind != "cue"]


def _one_unit(decisions: list[Decision]) -> list[Decision]:
    """The decisions, less those named by a unit alone (:func:`_unnamed`) when more than one reads so: "je
    paie maintenant 950 euros" after "Le loyer est de 900 euros" and "Il condominio costa 90 euro al mese"
    updates one of them, and nobody can tell which."""
    from memengine import fact_shared

    unit = [d for d in decisions if fact_shared.UNIT_ONLY in d.verdict.reason]
    return [d for d in decisions if d not in unit] if len(unit) > 1 else decisions


# A bare return ("Back to Gradle.", memengine/fact_undone.py) undoes a change made this recently: it names
# neither the slot nor the older's thing, so an older change (and one from the future) is never read so.
RETURN_WITHIN_DAYS = 30


def _returned(old: str, said_text: str, old_time: str, new_time: str) -> facts.Verdict | None:
    """A ``revert`` verdict marked :data:`memengine.fact_undone.RETURNED` when the bare return ``said_text``
    undoes the change the candidate ``old`` states, stored at ``old_time`` at most :data:`RETURN_WITHIN_DAYS`
    before ``new_time`` (:func:`_one_owner` keeps it only when no other candidate reads so), else None."""
    from memengine import fact_stated, fact_undone, facts

    if old_time > new_time or not _recent(old_time, new_time, RETURN_WITHIN_DAYS * 24):
        return None
    back = fact_undone.returned(fact_stated.stated(old), said_text)
    if not back:
        return None
    return facts.Verdict("revert", f"{fact_undone.RETURNED} to {back!r} undoes the older's change", 0.75)


def _aliased(old_text: str, new_text: str, sim: float | None, cos: float | None,
             embed: Callable[[list[str]], Any] | None, model_id: str | None) -> facts.Verdict | None:
    """The rules' and the learned decision's verdict on the newer rewritten in the older's words
    (memengine/fact_alias.py), when a word of one names a word of the other by its letters or the newer's
    subject is a pronoun for the older's named one; None when nothing is rewritten. What vetoes the
    rewritten pair vetoes it here (:func:`vetoed` reads the newer as written in :func:`plan`)."""
    from memengine import fact_alias, fact_slot, facts

    other = fact_alias.aliased(old_text, new_text)
    if other == new_text or vetoed(old_text, other):
        return None
    verdict = rules(old_text, facts.analyse(other), other, sim, cos) or fact_slot.decide(old_text, other, cos,
                                                                                        embed, model_id)
    if verdict is None:
        return None
    return facts.Verdict(verdict.kind, f"{verdict.reason} (the slot named in other words: {other!r})",
                         verdict.confidence)


def _undone(old_text: str, said_text: str, verdict: facts.Verdict | None, near: bool) -> facts.Verdict | None:
    """``verdict`` (None or the middle band's), made sure when the newer says the older's change was
    undone, naming it (memengine/fact_undone.py: "Reverted the Zustand migration: the app is back on
    Redux Toolkit" after "The app's state moves to Zustand"); a pair nothing linked is flagged
    ``may_update`` for it when the two are ``near`` in meaning (the older may not state a change: "Priya
    likes Zustand" is not retired by a revert of the Zustand migration)."""
    from memengine import fact_slot, fact_undone, facts

    if verdict is None and not near:
        return None
    why = fact_undone.undone(old_text, said_text)
    if not why:
        return verdict
    if verdict is None:
        return facts.Verdict(fact_slot.MAY_UPDATE, f"the older's change said undone: {why!r}", 0.8)
    return facts.Verdict("revert", f"the older's change said undone: {why!r} ({verdict.reason})",
                         max(verdict.confidence, 0.8))


def _unnamed(old_text: str, new_text: str, said_text: str, verdict: facts.Verdict,
             owner: frozenset[str] = frozenset()) -> facts.Verdict | None:
    """``verdict``, or None when the newer names nothing of the older but values, frame words and change
    words (memengine/fact_shared.py: "o correio eletrônico agora é o Outlook" / "A minha operadora é a MEO,
    35 euros"). In a store of many facts the nearest ones share the newer's frame and change cue, not its
    thing; a reading with no named evidence neither retires the older nor marks it (a ``may_update`` mark
    hides the older from the brief too: :func:`probably_outdated`). A fragment said without its subject
    ("Now at 78 kg", "Back to Gradle.") is read before this and kept apart by :func:`_one_owner`. A unit
    both values are counted in ("900 euros" / "950 euros pour l'appartement") is evidence when no other
    candidate has it: the verdict is marked :data:`memengine.fact_shared.UNIT_ONLY` for :func:`_one_owner`.
    A word of ``owner`` (:func:`memengine.fact_shared.owners`: what most candidates of the write say too, "The
    user …") is no evidence of its own."""
    from memengine import fact_shared, facts

    if fact_shared.shares_subject(old_text, new_text, owner) or said_text != new_text and fact_shared.shares_subject(
            old_text, said_text, owner):
        return verdict
    if fact_shared.shares_unit(old_text, new_text):  # (:func:`_one_owner` keeps it only when alone)
        return facts.Verdict(verdict.kind, f"{verdict.reason} ({fact_shared.UNIT_ONLY})", verdict.confidence)
    return None


def _covered(old_text: str, said_text: str, verdict: facts.Verdict) -> facts.Verdict:
    """``verdict``, or a ``may_update`` one when the older says something the newer neither repeats nor
    changes (memengine/fact_untouched.py: "Marta is our backend lead; she lives in Lisbon and owns the
    deploy pipeline" / "Marta lives in Porto now"): retiring it would retire that statement too, which
    nothing replaced, so the two are linked (the newer ranked first, the older marked) and both stay."""
    from memengine import fact_crossed, fact_person, fact_relocated, fact_slot, fact_untouched, facts

    if verdict.kind == fact_slot.MAY_UPDATE or verdict.reason.startswith(fact_crossed.REASON):
        return verdict  # (told in another language, the older's every word is "not repeated": no reading)
    if verdict.reason.startswith(fact_relocated.REASON):  # (whose sister the mover is: no statement of its own)
        old_text = fact_relocated.remainder(old_text)
    elif verdict.reason.startswith(fact_person.PERSON_REASONS):  # (nor is it when their job or diet changed)
        old_text = fact_person.described(old_text)
    rest = fact_untouched.untouched(fact_relocated.appositive(old_text, said_text), said_text) if old_text else ""
    if not rest:
        return verdict
    return facts.Verdict(fact_slot.MAY_UPDATE, f"{verdict.reason} (the older says more: {rest!r})",
                         min(verdict.confidence, 0.8))


# A fragment correction ("i meant the medium one", memengine/fact_meant.py) corrects a fact said this recently.
MEANT_WITHIN_HOURS = 24


def _recent(old_time: str, new_time: str, hours: float = MEANT_WITHIN_HOURS) -> bool:
    """Whether ``old_time`` is at most ``hours`` from ``new_time`` (ISO; unreadable: no)."""
    from datetime import datetime

    try:
        a, b = datetime.fromisoformat(old_time.replace("Z", "+00:00")), datetime.fromisoformat(
            new_time.replace("Z", "+00:00"))
        return abs((b - a).total_seconds()) <= hours * 3600
    except (ValueError, TypeError):  # (also naive against aware)
        return False


def rules(old_text: str, fact: facts.Fact, said_text: str, sim: float | None, cos: float | None) -> facts.Verdict | None:
    """The rules' verdict on one candidate (``old_text`` as memengine/fact_stated.py reads it) and the new
    fact (``fact``: its stated sentence read; ``said_text``: the sentence as written), before the learned
    decision: the frame rules, the second-chance cue (memengine/fact_cue.py), a new value in shorthand
    (memengine/fact_swap.py: read as written too, a correction's "not X" names what it corrects), a
    task passed from one person to another (memengine/fact_passed.py), whom I report to now
    (memengine/fact_reorg.py), an event held elsewhere from now on (memengine/fact_venue.py) and a place
    I go to left for another of its kind (memengine/fact_joined.py: "gym" / "gimnasio"), or any kind said
    "instead" ("quit karate, joined a climbing club instead"); a size or colour
    corrected as a fragment (memengine/fact_meant.py: "i meant the medium one"); a value moved by a relative
    word (memengine/fact_relative.py: "the Q3 marketing budget doubled", "pushed the launch a week"); a new
    role at the same organisation (memengine/fact_promoted.py: "Marcus is now a senior data engineer at Spotify")."""
    from memengine import (
        fact_as_role,
        fact_breakup,
        fact_cue,
        fact_diet,
        fact_ended,
        fact_frame,
        fact_hired,
        fact_instead,
        fact_joined,
        fact_label_value,
        fact_meant,
        fact_migrated,
        fact_named_switch,
        fact_own,
        fact_passed,
        fact_period,
        fact_promoted,
        fact_quit,
        fact_relocated,
        fact_reorg,
        fact_swap,
        fact_venue,
        fact_wordform,
        facts,
    )

    new_text = fact.text
    # (a provider switch first: read by whose provider it is, not by the one word the frame rules find shared;
    # a relationship's end, memengine/fact_breakup.py, by whose it is too; the older's slot in another word form,
    # memengine/fact_wordform.py: "recorded in …" / "Recording now happens at …")
    return _provider(old_text, said_text) or fact_breakup.ended(old_text, said_text) \
        or fact_wordform.moved(old_text, said_text) or facts.compare(old_text, fact, similarity=sim) \
        or facts.restated(old_text, fact) \
        or fact_cue.detect(old_text, fact, cos) or fact_swap.detect(old_text, new_text) \
        or (fact_swap.detect(old_text, said_text) if said_text != new_text else None) \
        or fact_passed.passed_on(old_text, new_text) or fact_passed.provider_left(old_text, said_text) \
        or fact_reorg.new_boss(old_text, said_text) or fact_venue.moved(old_text, said_text) \
        or fact_joined.joined(old_text, said_text) or fact_joined.instead(old_text, said_text) \
        or fact_meant.corrects(old_text, said_text) or _relative(old_text, said_text) \
        or fact_promoted.new_role(old_text, said_text) or fact_promoted.new_name(old_text, said_text) \
        or fact_frame.another_name(old_text, said_text) or fact_period.moved(old_text, said_text) \
        or fact_migrated.left_for(old_text, said_text) or fact_relocated.moved(old_text, said_text) \
        or fact_quit.gave_up(old_text, said_text) or fact_own.on_own_account(old_text, said_text) \
        or fact_instead.replaced(old_text, said_text) or fact_named_switch.switched(old_text, said_text) \
        or fact_ended.ended(old_text, said_text) or fact_label_value.labelled(old_text, said_text) \
        or fact_diet.turned(old_text, said_text) \
        or _dose(old_text, said_text) or fact_hired.hired(old_text, said_text) or _crossed(old_text, said_text) \
        or fact_as_role.role_now(old_text, said_text)


def _dose(old_text: str, said_text: str) -> facts.Verdict | None:
    """A ``slot`` verdict when the newer changes the dose of a substance the older states a dose of
    (memengine/fact_dose.py: "The GP doubled his ramipril to 10 mg"), or restricts the older's standing rule
    to fewer days (memengine/fact_only.py: "the team now deploys only on Tuesdays")."""
    from memengine import fact_dose, fact_only, facts

    why = fact_dose.changed(old_text, said_text) or fact_only.restricted(old_text, said_text)
    return facts.Verdict("slot", why, 0.8) if why else None


def _provider(old_text: str, said_text: str) -> facts.Verdict | None:
    """A ``slot`` verdict when the newer says the person whose provider the older states went over to another
    (memengine/fact_provider.py: "Nadia has gone over to Monzo, she likes the savings pots"), naming the kind of
    provider the older's is."""
    from memengine import fact_left_named, fact_provider, facts

    why = fact_provider.switched(old_text, said_text)
    if why and fact_left_named.names_another(old_text, said_text):
        why = None  # (the write names another value it left: "…, Ovo kept raising the direct debit")
    return facts.Verdict("slot", why, 0.8) if why else fact_left_named.left_named(old_text, said_text)


def _crossed(old_text: str, said_text: str) -> facts.Verdict | None:
    """A ``slot`` verdict when the newer, in another language, says a new value of the one attribute of the
    person (or relative) the older states (memengine/fact_crossed.py: "Sanne gaat met de trein naar haar werk" /
    "Sanne bikes to work now that her office moved to Leidsche Rijn"), which no cosine nor pattern reads."""
    from memengine import fact_crossed, facts

    why = fact_crossed.crossed(old_text, said_text)
    return facts.Verdict("slot", why, 0.75) if why else None


def _relative(old_text: str, said_text: str) -> facts.Verdict | None:
    """A ``relative`` verdict when the newer says by how much the older's value moved
    (memengine/fact_relative.py: "halved the API rate limit", "Release um zwei Wochen verschoben")."""
    from memengine import fact_relative, facts

    how = fact_relative.moved_by(old_text, said_text)
    return facts.Verdict("relative", f"the value moved by a relative word: {how!r}", 0.75) if how else None


def vetoed(old_text: str, new_text: str) -> str:
    """Why no verdict on the pair stands, whoever gave it: the new names an owner the old does not ("my
    sister's shift", "Der Elternabend der 3b": memengine/fact_owner.py), the old was one day's exception
    and the new is a standing rule (memengine/fact_occasion.py: a one-off and a rule are two facts), or the
    new is another instance of the old's frame (memengine/fact_instance.py: another day's session, the
    value for a narrower scope, "... for admins", "... in the test environment"), the two name two people
    as whom they are about (memengine/fact_person.py: "Pablo ha empezado a fumar" / "Javier ha dejado de fumar"; a
    relative's fact and the person's own: "Lukas' Eltern wohnen in Bonn" / "Katrin und Lukas sind nach Sülz gezogen"),
    or the newer is the other leg of a journey (memengine/fact_legs.py: "Flight back from Lagos on 3 January"
    after "Flight to Lagos on 18 December"), or the two say the same of two things a qualifier names
    (memengine/fact_qualifier.py: "... for project Apollo uses port 8001" / "... for project Zeus ..."), or the
    newer's note label names another thing of the older's kind (memengine/fact_label_thing.py: "New guest wifi: …" /
    "The home wifi is called …"), or the newer helped a person the older does not name (memengine/fact_helped.py:
    "Helped Dev set up plot 9" is Dev's plot), or the two name two things of one kind by two labels
    (memengine/fact_identifier.py: "Rent for Flat A goes up …" / "Flat B … rent £875")."""
    from memengine import (
        fact_full_name,
        fact_helped,
        fact_identifier,
        fact_instance,
        fact_label_thing,
        fact_legs,
        fact_occasion,
        fact_owner,
        fact_person,
        fact_qualifier,
        fact_relocated,
    )

    # (a shared surname is no same person: "Peter Whitfield …" / "Jenny Whitfield …", memengine/fact_full_name.py)
    return fact_person.other_person(old_text, new_text) or fact_full_name.another_bearer(old_text, new_text) \
        or fact_person.relative_of(old_text, new_text) \
        or fact_owner.owner_added(old_text, new_text) \
        or fact_occasion.older_one_off(old_text, new_text) or fact_instance.another_instance(old_text, new_text) \
        or fact_relocated.another_mover(old_text, new_text) or fact_legs.another_leg(old_text, new_text) \
        or ("another named thing in the subject's qualifier (memengine/fact_qualifier.py)"
            if fact_qualifier.another_qualified(old_text, new_text) else "") \
        or fact_label_thing.another_labelled(old_text, new_text) or fact_helped.helped_other(old_text, new_text) \
        or fact_identifier.another_thing(old_text, new_text)


def _one_owner(decisions: list[Decision]) -> list[Decision]:
    """A number restated without its subject ("Now at 78 kg", memengine/fact_elliptic.py) updates the
    one fact it can belong to: when several candidates read so ("I weigh 82 kg", "My suitcase weighs
    23 kg"), nobody can tell whose it is, and none is superseded."""
    from memengine import fact_elliptic, fact_migrated, fact_swap, fact_undone

    elliptic = [d for d in decisions if fact_elliptic.REASON in d.verdict.reason or fact_swap.REASON in d.verdict.reason
                or fact_undone.RETURNED in d.verdict.reason or fact_migrated.REASON in d.verdict.reason]
    return [d for d in decisions if d not in elliptic] if len(elliptic) > 1 else decisions


def apply(conn: Any, decisions: list[Decision], now: str) -> None:
    """Write the decisions: ``valid_to``, the ``supersedes`` edge and a resolved contradictions row
    (or, for ``open`` ones, a ``contradicts`` edge and an open contradictions row)."""
    for d in decisions:
        a, b = sorted((d.winner, d.loser))
        if d.maybe:
            add_edges(conn, [(d.winner, d.loser, "contradicts", d.verdict.confidence)], now,
                      metadata={MAY_UPDATE_META: d.verdict.confidence})
            continue
        if d.open:
            add_edges(conn, [(a, b, "contradicts", 1.0)], now)
            conn.execute(
                """INSERT INTO contradictions(memory_a, memory_b, kind, reason, confidence, status, detected_at)
                   VALUES (?, ?, ?, ?, ?, 'open', ?) ON CONFLICT(memory_a, memory_b) DO NOTHING""",
                (a, b, d.verdict.kind, d.verdict.reason, d.verdict.confidence, now))
            continue
        conn.execute("UPDATE memories SET valid_to = ?, updated_at = ? WHERE id = ? AND valid_to IS NULL",
                     (d.at, now, d.loser))
        settle_open(conn, d.loser, now)
        add_edges(conn, [(d.winner, d.loser, "supersedes", 1.0)], now)
        conn.execute(
            """INSERT INTO contradictions(memory_a, memory_b, kind, reason, confidence, status, kept_id,
                   detected_at, resolved_at) VALUES (?, ?, ?, ?, ?, 'superseded', ?, ?, ?)
               ON CONFLICT(memory_a, memory_b) DO UPDATE SET status = 'superseded', kept_id = excluded.kept_id,
                   resolved_at = excluded.resolved_at""",
            (a, b, d.verdict.kind, d.verdict.reason, d.verdict.confidence, d.winner, now, now))


def settle_open(conn: Any, mid: int, now: str) -> None:
    """The open contradictions of ``mid``, now history, are settled (``superseded``, no side kept): what it said
    is no longer current, and the newer version is compared with the other side on its own (users29: a pair stayed
    open in ``contradictions`` and ``stats`` after a third memory replaced one side)."""
    conn.execute("UPDATE contradictions SET status = 'superseded', resolved_at = ? WHERE status = 'open' AND "
                 "(memory_a = ? OR memory_b = ?)", (now, mid, mid))


def explicit(conn: Any, new_id: int, old_id: int, at: str, now: str) -> None:
    """``new_id`` corrects ``old_id`` because someone said so (``update`` / ``store --supersede``)."""
    from memengine import facts

    apply(conn, [Decision(new_id, old_id, at, facts.Verdict("correction", "explicit correction", 1.0))], now)


def lexical_candidates(conn: Any, content: str, limit: int = CANDIDATES) -> list[int]:
    """Facts sharing words with ``content`` (FTS5 over the content column): the same frame
    shares its words, so an update is found even when vectors are unavailable or far."""
    terms = query_terms(content)
    if not terms:
        return []
    match = "{content} : (" + " OR ".join(quote_fts(t) for t in terms) + ")"
    try:
        ids = [int(r[0]) for r in conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank, rowid LIMIT ?",
            (match, limit * 4))]
    except Exception:  # (a term FTS5 cannot parse: the vector candidates still serve)
        return []
    if not ids:
        return []
    ok = {int(r[0]) for r in select_in(conn, f"SELECT m.id FROM memories m WHERE m.id IN ({{ids}}) AND {FACT_SQL}",
                                       ids)}
    return [i for i in ids if i in ok][:limit]
