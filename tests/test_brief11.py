"""Brief, round 10 (brief11): a day said under a negation is no plan and takes back the plan of that day; a bare
day said again is the day it was; moved plans read in Danish, Swedish, Italian and Dutch; topics of one subject
merged by the rare names they share (memengine/cluster_names.py)."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

import memory_core as core
from memengine import brief_dates, brief_upcoming, cluster_names, consolidate, graph_rank, topic_names
from memengine.clustering import ClusterSteps

W = date(2026, 10, 26)


@pytest.mark.parametrize("text, days", [
    ("we're NOT going on the 5th any more. Alexandra Palace has tickets for Saturday 7 November", [date(2026, 11, 7)]),
    ("Vello emailed: the engineer can't do the 4th, install moved to Wednesday 11 November", [date(2026, 11, 11)]),
    ("Havnehuset ringede. Vi holder den IKKE lørdag den 21. november alligevel", []),
    ("Wir feiern nicht am 21. November", []),
    # the idioms that plan
    ("can't wait for 3 December!", [date(2026, 12, 3)]),
    ("don't forget the dentist on 3 December", [date(2026, 12, 3)]),
    ("not until 5 November", [date(2026, 11, 5)]),
    ("no later than 4 November", [date(2026, 11, 4)]),
    # a negation of another clause, or far before the day, leaves it alone
    ("I can't make it, see you on 5 November", [date(2026, 11, 5)]),
    ("he did not like the first quote at all, so we booked the other garage for 5 November",
     [date(2026, 11, 5)]),
])
def test_a_day_said_under_a_negation_is_no_plan(text: str, days: list[date]) -> None:
    assert brief_dates.plan_days(text, W) == days


def test_a_bare_day_said_again_is_the_day_it_was() -> None:
    said = [("are you free the weekend of the 26th? party at ours", date(2026, 9, 20))]
    text = "train booked for 3 october, and the 26th is still on"
    assert brief_dates.plan_days(text, date(2026, 9, 22), said) == [date(2026, 9, 26), date(2026, 10, 3)]
    # nothing said before: the month of the turn places it
    assert brief_dates.plan_days(text, date(2026, 9, 22)) == [date(2026, 10, 3), date(2026, 10, 26)]
    # ...nor a "26th" that is no day, nor one said too long ago
    assert brief_dates.plan_days(text, date(2026, 9, 22), [("the 26th floor is closed", date(2026, 9, 20))]) == \
        [date(2026, 10, 3), date(2026, 10, 26)]
    assert brief_dates.plan_days(text, date(2026, 9, 22), [(said[0][0], date(2026, 9, 1))]) == \
        [date(2026, 10, 3), date(2026, 10, 26)]


@pytest.mark.parametrize("text, changed", [
    ("Vi har flyttet festen til lørdag den 21. november", True),
    ("Festen er ændret til søndag den 22. november, på Bryghuset i stedet", True),
    ("matchen har flyttats till söndag 22 november", True),
    ("la cena è spostata a domenica 6 dicembre", True),
    ("de lancering is verzet naar 4 december", True),
    ("Kransekage bestilt hos Konditori Nielsen, afhentes lørdag den 21. november", False),
])
def test_moved_plans_read_in_more_languages(text: str, changed: bool) -> None:
    assert brief_upcoming._says_changed(text) is changed


def test_round_ten_weak_words_name_nothing() -> None:
    assert all(topic_names.weak(w) for w in ("split", "top", "close", "ready", "klar", "bestilt", "god"))
    assert not topic_names.weak("Brightside") and not topic_names.weak("clutch")


def _chat(store: core.MemoryStore, turns: list[tuple[str, str, str]]) -> list[int]:
    return [store.store(f"{who}: {text}", "episodic", thread="whatsapp/mates", author=who, importance=0.5,
                        event_at=datetime.fromisoformat(f"{day}T19:00:00"), dedup=False).id
            for day, who, text in turns]


def test_a_plan_taken_back_by_a_negated_day_is_not_coming_up(store: core.MemoryStore) -> None:
    ids = _chat(store, [
        ("2026-10-15", "Kwame", "fireworks! Victoria Park display is Thursday 5 November, tickets £12"),
        ("2026-10-20", "Tom", "leaving drinks are Saturday 21 November at the Crown and Anchor"),
        ("2026-10-26", "Niamh", "bad news: Victoria Park sold out before I got the tickets"),
        ("2026-10-26", "Niamh", "we're NOT going on the 5th any more. Alexandra Palace has tickets for Saturday "
                                "7 November, bought 3"),
    ])
    data = graph_rank.brief(store, 2000, now=datetime(2026, 11, 1, 9, 0))
    up = [i["id"] for i in data["sections"]["upcoming"]]
    assert up == [ids[3], ids[1]]
    assert "(→ 2026-11-07" in next(i["text"] for i in data["sections"]["upcoming"] if i["id"] == ids[3])


# --------------------------------------------------------------------------- one subject, one topic


def _steps() -> ClusterSteps:
    return ClusterSteps()


def test_clusters_that_name_the_same_rare_things_merge() -> None:
    rng = np.random.default_rng(7)
    base = rng.normal(size=(4, 32))
    rows = []
    for c in range(4):  # four exchanges, each close to its own centre
        for _ in range(4):
            v = base[c] + 0.3 * rng.normal(size=32)
            rows.append(v / np.linalg.norm(v))
    gv = np.array(rows, dtype=np.float32)
    gv[8:12] = gv[0:4] * 0.55 + gv[8:12] * 0.45  # exchange 2 sits closer to exchange 0 than the background...
    gv[8:12] /= np.linalg.norm(gv[8:12], axis=1, keepdims=True)
    words = [frozenset({"banter", f"w{i}"}) for i in range(16)]
    for r in (0, 1, 9, 10):  # ...and exchanges 0 and 2 both name the garage (a name: 2 points)
        words[r] = words[r] | {"brightside"}
    for r in (4, 12):  # exchanges 1 and 3 share a name too, but are far apart (below the background)
        words[r] = words[r] | {"keswick"}
    clusters = {c + 1: list(range(4 * c, 4 * c + 4)) for c in range(4)}
    assign = np.repeat(np.arange(1, 5), 4)
    merged: list[tuple[int, int]] = []
    floor = float(np.mean(gv @ gv.T))
    names = {"brightside", "keswick"}
    assert cluster_names.merge_step(clusters, assign, gv, words, names, floor, 16, _steps()._merge_order, merged)
    assert merged == [(1, 3)]
    assert sorted(clusters) == [1, 2, 4] and clusters[1] == [0, 1, 2, 3, 8, 9, 10, 11]
    # a rerun on the merged clusters merges nothing more: consolidate's fixed point
    assert not cluster_names.merge_step(clusters, assign, gv, words, names, floor, 16, _steps()._merge_order, merged)
    # below the store's background, no merge whatever the words
    clusters = {c + 1: list(range(4 * c, 4 * c + 4)) for c in range(4)}
    assert not cluster_names.merge_step(clusters, assign, gv, words, names, 0.99, 16, _steps()._merge_order, [])
    # a word that is no name is worth one point: not enough alone
    clusters = {c + 1: list(range(4 * c, 4 * c + 4)) for c in range(4)}
    assert not cluster_names.merge_step(clusters, assign, gv, words, set(), floor, 16, _steps()._merge_order, [])


def test_words_of_leave_out_people_and_read_names(tmp_path: Path) -> None:
    store = core.MemoryStore(tmp_path / "m.db")
    ids = _chat(store, [("2026-10-01", "Tom", "the clutch is going, Brightside Autos quoted 480"),
                        ("2026-10-02", "Niamh", "Ada's wedding: a gift from Ada and Josh's list"),
                        ("2026-10-03", "Tom", "Clutch fixed")])
    words, names = cluster_names.words_of(store.conn, ids)
    assert {"clutch", "brightside", "auto", "quoted"} <= words[0] or {"clutch", "brightside"} <= words[0]
    assert "brightside" in names and "clutch" not in names  # capitalised only where a sentence starts
    assert not ({"ada", "josh", "tom", "niamh"} & set().union(*words))  # people: authors, "Ada's", "Ada and Josh"


def _subject_store(path: Path) -> core.MemoryStore:
    """Two exchanges of one subject on different days that share only its names (the Brightside garage, the clutch),
    among exchanges of banter."""
    store = core.MemoryStore(path)
    t0 = datetime(2026, 10, 1, 9, 0)
    texts = []
    for day in range(18):
        texts += [f"rain again today grey sky cold bus late {day}a", f"rain bus sky grey cold today {day}b",
                  f"grey cold rain bus today sky {day}c"]
    texts += ["quote from the Brightside garage for the clutch 480 parts included",
              "the Brightside clutch quote is 480 parts included from the garage",
              "480 parts included the garage quote Brightside clutch"]
    texts += ["car ready Thursday at Brightside the clutch came early",
              "early at Brightside car ready Thursday clutch came",
              "clutch came early car ready Thursday said Brightside"]
    for i, t in enumerate(texts):
        store.store(t, "semantic", importance=0.5, event_at=t0 + timedelta(hours=5 * i), dedup=False)
    return store


def _garage_clusters(store: core.MemoryStore) -> list[int]:
    return sorted({int(r[0]) for r in store.conn.execute(
        """SELECT cm.cluster_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
           JOIN memories m ON m.id = cm.memory_id WHERE c.status = 'active' AND c.level = 1
           AND m.content LIKE '%Brightside%'""")})


def test_one_subject_on_two_days_is_one_topic(tmp_path: Path) -> None:
    # (the hash embedder's small store groups the two exchanges by cosine already: the merge itself is shown on
    # vectors above, test_clusters_that_name_the_same_rare_things_merge; here consolidate keeps them one topic)
    store = _subject_store(tmp_path / "a.db")
    consolidate.run(store, now=datetime(2026, 11, 1), keep_backups=0)
    assert len(_garage_clusters(store)) == 1


def test_consolidate_reruns_change_nothing_with_name_merges(tmp_path: Path) -> None:
    store = _subject_store(tmp_path / "m.db")
    consolidate.run(store, now=datetime(2026, 11, 1), keep_backups=0)
    before = sorted(tuple(r) for r in store.conn.execute(
        "SELECT cm.cluster_id, cm.memory_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id "
        "WHERE c.status = 'active'").fetchall())
    res = consolidate.run(store, now=datetime(2026, 11, 1), keep_backups=0)
    after = sorted(tuple(r) for r in store.conn.execute(
        "SELECT cm.cluster_id, cm.memory_id FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id "
        "WHERE c.status = 'active'").fetchall())
    assert after == before
    assert res.counts()["cluster"]["clusters_merged"] == 0


def test_one_change_moves_the_plan_of_the_nearest_day(store: core.MemoryStore) -> None:
    ids = _chat(store, [
        ("2026-11-03", "Erik", "league game against Rovers on Saturday 21 November at Kelvin Park, team kit and boots"),
        ("2026-11-12", "Erik", "the cup is on Saturday 12 December, first match at 9:40, team kit and boots"),
        ("2026-11-16", "Erik", "Rovers moved the match: now Sunday 22 November at Kelvin Park, team kit and boots"),
    ])
    kept, gone = brief_upcoming.plans(store, datetime(2026, 11, 18, 12, 0))
    assert gone == [ids[0]]  # the league match of the 21st moved; the cup of 12 December, a "match" too, stays
    assert [int(k[0][0]) for k in kept] == [ids[2], ids[1]]
