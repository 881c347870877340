"""Brief, round 11 (brief12): the may_update links the brief trusts, a key fact folded under the one older fact it
updates, a choice among alternatives and a value said dismissed (memengine/recall/replaced.py), a later plan that
updates an earlier one, Polish dates and change words, greetings that lead no topic, memories in no cluster that
join the one naming what they name, consolidate's backup module."""
from __future__ import annotations

import json
from datetime import date, datetime

import numpy as np
import pytest

import memory_core as core
from memengine import (
    brief_dates,
    brief_keyfacts,
    brief_outdated,
    brief_reactions,
    brief_upcoming,
    cluster_names,
    consolidate,
    consolidate_backup,
)
from memengine.recall import replaced

# --------------------------------------------------------------------------- the links the brief trusts


def _facts(store: core.MemoryStore, texts: list[str]) -> list[int]:
    """Store ``texts`` as one agent's facts, a day apart, and drop every link the store made: the test's own follow."""
    ids = [store.store(t, "semantic", source="agent", importance=0.8,
                       event_at=datetime(2026, 11, 2 + i, 9, 0), dedup=False).id for i, t in enumerate(texts)]
    store.conn.execute("DELETE FROM associations WHERE edge_type IN ('contradicts', 'supersedes')")
    store.conn.execute("UPDATE memories SET valid_to = NULL")
    store.conn.commit()
    return ids


def _link(store: core.MemoryStore, new: int, old: int, score: float | None) -> None:
    """A may_update link (``score``) or, with None, a supersedes edge (the older retired)."""
    if score is None:
        store.conn.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, metadata, created_at) "
                           "VALUES (?, ?, 'supersedes', 1.0, '{}', '2026-11-20T00:00:00')", (new, old))
        store.conn.execute("UPDATE memories SET valid_to = '2026-11-20T00:00:00' WHERE id = ?", (old,))
    else:
        store.conn.execute("INSERT INTO associations(source_id, target_id, edge_type, weight, metadata, created_at) "
                           "VALUES (?, ?, 'contradicts', ?, ?, '2026-11-20T00:00:00')",
                           (new, old, score, json.dumps({"may_update": score})))
    store.conn.commit()


def test_a_new_fact_hides_only_the_fact_it_links_to_most(store: core.MemoryStore) -> None:
    rel, ci, flag, ios = _facts(store, [
        "Release 3.2 is to be submitted to the App Store on Thursday 19 November.",
        "Decision: CI moves from GitHub Actions to a Buildkite trial.",
        "The feature flag offline_maps is on for 100% of users.",
        "The minimum supported version is raised to 16.",
    ])
    for old, score in ((rel, 0.914), (ci, 0.942), (flag, 0.936)):
        _link(store, ios, old, score)
    assert brief_keyfacts.outdated_links(store.conn) == {ci: [ios]}  # the best scored, none naming what it names
    # a fact naming a rare word of the newer one is the one it updates, whatever the scores
    (sold,) = _facts(store, ["Lucía vendió el Seat León; ahora usa el abono transporte."])
    car, job = (store.store(t, "semantic", source="agent", importance=0.8, dedup=False).id for t in (
        "El coche de Lucía es un Seat León de 2017.", "Lucía trabaja en Larraz Seguros."))
    store.conn.execute("DELETE FROM associations WHERE edge_type IN ('contradicts', 'supersedes')")
    store.conn.execute("UPDATE memories SET valid_to = NULL")
    store.conn.execute("UPDATE memories SET created_at = '2026-11-20T00:00:00' WHERE id = ?", (sold,))
    store.conn.commit()
    _link(store, sold, job, 0.95)
    _link(store, sold, car, 0.90)
    assert brief_keyfacts.outdated_links(store.conn) == {car: [sold]}


def test_a_fact_that_superseded_one_outright_hides_no_other(store: core.MemoryStore) -> None:
    old_ios, rel, ios = _facts(store, [
        "The minimum supported iOS version is 15.",
        "Release 3.2 is to be submitted to the App Store on Thursday 19 November.",
        "The minimum supported iOS version is raised to 16.",
    ])
    _link(store, ios, old_ios, None)
    _link(store, ios, rel, 0.93)
    assert brief_keyfacts.outdated_links(store.conn) == {}


def test_an_update_is_hidden_only_by_a_fact_that_names_its_subject(store: core.MemoryStore) -> None:
    up, back, owner, again = _facts(store, [
        "Upgraded the app to Expo SDK 51 and React Native 0.74.",
        "Rolled back from Expo SDK 51 to SDK 50: the maps module crashes on 51.",
        "Hana Sato owns the maps module now; Dmitri moved to the bookings backend.",
        "Expo SDK 51 is back: react-native-maps 1.14 fixed the crash.",
    ])
    _link(store, back, up, 0.97)
    _link(store, owner, back, 0.968)  # the owner's note names the maps module, not Expo: the rollback stays
    assert brief_keyfacts.outdated_links(store.conn) == {up: [back]}
    _link(store, again, back, 0.95)  # a fact that names Expo and the SDK updates the rollback
    assert brief_keyfacts.outdated_links(store.conn) == {up: [back], back: [again]}


# --------------------------------------------------------------------------- replaced values (recall/replaced.py)


@pytest.mark.parametrize("text, fragments", [
    ("Hertz came back on the car: $295 for a midsize or $340 for the SUV, I took the midsize", ("$340 for the suv",)),
    ("Pine Hollow host came back: $235 a night if we take 6 nights, Dec 27 to Jan 2, or $260 a night for 5 nights. "
     "we took the 6 nights, it's booked", ("$260 a night for 5 nights",)),
    ("2050 on a 2 year, 2100 on 1 year — we took the 2 year", ("2100 on 1 year",)),
    ("the host said 1,050 for 4 nights or 1,150 for 3, we took the 4 nights", ("1,150 for 3",)),
    ("the surgeon moved it to Thursday Dec 10, the Dec 3 slot fell through", ("the dec 3 slot",)),
    ("I booked Wednesday Nov 25 at 7:40 am. the Tuesday flight went up", ("tuesday flight",)),
    # no alternatives, or the one taken not told apart: nothing replaced
    ("I took the kids to the park at 5", ()),
    ("we booked the cabin for the 12th-15th", ()),
    ("$295 for a midsize or $340 for the midsize van, I took the midsize", ()),
    # a value going up to another is a change, not a dismissal
    ("the price went up to 50 on the 5th", ()),
])
def test_alternatives_not_taken_and_values_dismissed_are_replaced(text: str, fragments: tuple[str, ...]) -> None:
    assert replaced.replaced_fragments(text) == fragments
    if fragments:
        assert replaced.may_name(text)


# --------------------------------------------------------------------------- plans and their days


def _chat(store: core.MemoryStore, turns: list[tuple[str, str, str]]) -> list[int]:
    return [store.store(f"{who}: {text}", "episodic", thread="whatsapp/family", author=who, importance=0.5,
                        event_at=datetime.fromisoformat(f"{day}T19:00:00"), dedup=False).id
            for day, who, text in turns]


def test_a_later_plan_updates_an_earlier_one_though_both_are_asked(store: core.MemoryStore) -> None:
    ids = _chat(store, [
        ("2026-10-12", "Greg", "the Pine Hollow cabin is $260 a night for 5 nights, Dec 27 to Jan 1. sleeps 6"),
        ("2026-10-14", "Jake", "my driving test is Thursday Nov 19 at 3:30"),
        ("2026-10-23", "Greg", "Pine Hollow host came back: $235 a night if we take 6 nights, Dec 27 to Jan 2, or "
                               "$260 a night for 5 nights. we took the 6 nights, it's booked"),
    ])
    # the later plan is asked about too (both are "Coming up"): it still updates the earlier one
    assert brief_outdated.outdated(store, ids) == {ids[0]: [ids[2]]}


@pytest.mark.parametrize("text, days", [
    ("the surgeon moved the knee replacement to Thursday Dec 10, the Dec 3 slot fell through", [date(2026, 12, 10)]),
    ("tickets for the 5th sold out so we go on the 7th", [date(2026, 11, 7)]),
    ("the price went up to 50 on the 5th", [date(2026, 11, 5)]),
    # Polish: the genitive a day is said with
    ("zmieniłam bilety: jedziemy jednak w piątek 13 listopada o 17:40", [date(2026, 11, 13)]),
    ("akt notarialny w środę 18 listopada o 10:00, ślub 28 listopada, a przelew do 31 października",
     [date(2026, 10, 31), date(2026, 11, 18), date(2026, 11, 28)]),
])
def test_days_said_dismissed_are_no_plan_and_polish_days_are_read(text: str, days: list[date]) -> None:
    assert brief_dates.plan_days(text, date(2026, 10, 28)) == days


@pytest.mark.parametrize("text, changed", [
    ("zmiana: notariusz przełożył akt na środę 25 listopada o 12:00", True),
    ("zmieniłam bilety: jedziemy jednak w piątek 13 listopada o 17:40, zamiast 15:10", True),
    ("akt notarialny w środę 18 listopada o 10:00", False),
])
def test_moved_plans_read_in_polish(text: str, changed: bool) -> None:
    assert brief_upcoming._says_changed(text) is changed


@pytest.mark.parametrize("text, greeting", [
    ("Emma: tell Grandpa I said hi and to do his exercises", True),
    ("Linda: Grandma Rose says hi to everyone and asks if Jake still likes pumpkin pie", True),
    ("Jake: tell him hi from me too", True),
    ("Linda: Happy birthday to Aunt Carol today!", True),
    ("Emma: night! love you", True),
    ("Kasia: dobranoc ekipa", True),
    ("Linda: Uncle Dave called, he says hi and he's bringing his famous chili", False),
    ("Tom: night shift again", False),
    ("Linda: Grandpa's knee update: the surgeon moved the knee replacement to Thursday Dec 10", False),
])
def test_greetings_lead_no_topic(text: str, greeting: bool) -> None:
    assert brief_reactions.is_greeting(text) is greeting


# --------------------------------------------------------------------------- a memory in no cluster joins by its names


def test_a_memory_in_no_cluster_joins_the_cluster_that_names_what_it_names() -> None:
    rng = np.random.default_rng(11)
    centre = rng.normal(size=(2, 32))
    rows = [centre[c] + 0.4 * rng.normal(size=32) for c in (0, 0, 0, 0, 1, 1, 1, 1)]
    rows += [centre[0] + 0.6 * rng.normal(size=32), rng.normal(size=32)]  # 8: of cluster 1's subject; 9: banter
    gv = np.array([v / np.linalg.norm(v) for v in rows], dtype=np.float32)
    words = [frozenset({f"w{i}"}) for i in range(10)]
    for r in (1, 2, 8):  # the car hire named by two members of cluster 1 and by the free memory
        words[r] = words[r] | {"hertz"}
    words[9] = words[9] | {"hertz"}  # ...and by the banter, far from it
    clusters = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}
    assign = np.array([1, 1, 1, 1, 2, 2, 2, 2, -1, -1])
    floor = float(np.mean(gv @ gv.T))
    free = np.array([8, 9])
    assert cluster_names.join_step(clusters, assign, free, gv, words, {"hertz"}, floor, 10)
    assert clusters == {1: [0, 1, 2, 3, 8], 2: [4, 5, 6, 7]} and assign[8] == 1 and assign[9] == -1
    # a rerun joins nothing more; a word that is no name (1 point) joins nothing
    assert not cluster_names.join_step(clusters, assign, np.array([9]), gv, words, {"hertz"}, floor, 10)
    clusters = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}
    assign[8] = -1
    assert not cluster_names.join_step(clusters, assign, free, gv, words, set(), floor, 10)


def test_consolidate_backup_is_the_same_module_as_before() -> None:
    assert consolidate.backup is consolidate_backup.backup
    assert consolidate.prune_backups is consolidate_backup.prune_backups
    assert consolidate.lock_path is consolidate_backup.lock_path
