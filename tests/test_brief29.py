"""Brief, round 29 (brief29): stores nobody tuned the brief on (bench/data/brief_heldout22). What reached users: the
members of an imported chat whose turns the nightly decay archived left People altogether (a family group imported in
February had none of its members in People by April): the section counted live turns only (``memory_authors``,
m007). Migration m015 keeps the archived rows' (author, thread) pairs by triggers; the brief ranks those members with
the people the notes name and quotes their news from the chat's turns, archived ones too. And plans called off or put
off in words the brief did not read ("n'aura pas lieu", "reportée", "odwołany", "przełożona")."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import memory_core as core
from memengine import brief_fadedpeople, brief_moves, brief_upcoming, consolidate, graph_rank, migrations, writes

FAMILY = [  # (minutes after the start, author, text): a family group, imported, then faded
    (0, "Bernadette Donnelly", "I've been thinking about my 70th. I'd like a proper do with everyone"),
    (5, "Liam Donnelly", "Leave it with me and Claire Mum, we'll sort the party"),
    (9, "Shona Donnelly", "20 week scan today. It's a girl!! The baby is due in June"),
    (12, "Bernadette Donnelly", "A little girl! Our first granddaughter, I'm crying"),
    (15, "Liam Donnelly", "Booked! Mum's 70th is Saturday 9 May at the Fox and Hounds, function room from 6pm"),
    (20, "Shona Donnelly", "Thank you all, the midwife at Stepping Hill says all looks good"),
]


def _counts(conn: Any) -> list[tuple[Any, ...]]:
    return sorted(tuple(r) for r in conn.execute(
        "SELECT author, thread, archived, first_at, last_at FROM memory_author_threads_faded"))


def _scan(conn: Any) -> list[tuple[Any, ...]]:
    return sorted(tuple(r) for r in conn.execute(
        """SELECT author, coalesce(thread, ''), count(*), min(coalesce(event_at, created_at)),
                  max(coalesce(event_at, created_at))
           FROM memories WHERE status = 'archived' AND author IS NOT NULL AND level = 0 GROUP BY 1, 2"""))


def _family(store: core.MemoryStore, start: datetime) -> list[int]:
    ids = []
    for k, (minutes, author, text) in enumerate(FAMILY):
        ids.append(store.store(text, "episodic", source="whatsapp", thread="Donnelly family", position=k,
                               author=author, event_at=start + timedelta(days=minutes)).id)
    return ids


def test_m015_keeps_the_archived_pairs_as_a_scan_would(db_path: Path) -> None:
    """Archive, restore, forget, re-author, delete: the table agrees with a scan of the archived rows after each."""
    store = core.MemoryStore(db_path)
    try:
        conn = store.conn
        ids = _family(store, datetime(2026, 1, 2, 10))
        assert _counts(conn) == []  # nothing archived yet
        conn.execute(f"UPDATE memories SET status = 'archived' WHERE id IN ({','.join(map(str, ids[:4]))})")
        assert [(a, n) for a, _t, n, _f, _l in _counts(conn)] == [
            ("Bernadette Donnelly", 2), ("Liam Donnelly", 1), ("Shona Donnelly", 1)]
        assert _counts(conn) == _scan(conn)
        conn.execute("UPDATE memories SET status = 'active' WHERE id = ?", (ids[1],))  # restored
        conn.execute("UPDATE memories SET author = 'Mum' WHERE id = ?", (ids[0],))  # an author renamed
        conn.execute("UPDATE memories SET status = 'deleted' WHERE id = ?", (ids[2],))  # forgotten
        conn.execute(f"UPDATE memories SET status = 'archived' WHERE id IN ({ids[4]}, {ids[5]})")
        conn.execute("DELETE FROM memories WHERE id = ?", (ids[3],))
        assert _counts(conn) == _scan(conn)
        assert [(a, n) for a, _t, n, _f, _l in _counts(conn)] == [("Liam Donnelly", 1), ("Mum", 1),
                                                                  ("Shona Donnelly", 1)]
        conn.commit()
    finally:
        store.close()


def test_m015_fills_the_table_from_a_store_made_before_it(db_path: Path) -> None:
    """A store at m014 (as 9466f68 made it) with archived turns opens: m015 runs once, its table is a scan's."""
    store = core.MemoryStore(db_path)
    try:
        ids = _family(store, datetime(2026, 1, 2, 10))
        store.conn.execute(f"UPDATE memories SET status = 'archived' WHERE id IN ({','.join(map(str, ids[:5]))})")
        store.conn.commit()
        # back to m014: no table, no triggers, no record of m015
        for trigger in ("ai", "ad", "au"):
            store.conn.execute(f"DROP TRIGGER memory_author_threads_faded_{trigger}")
        store.conn.execute("DROP TABLE memory_author_threads_faded")
        store.conn.execute("DELETE FROM _mem_migrations WHERE name = 'm015_people_faded'")
        store.conn.commit()
    finally:
        store.close()
    store = core.MemoryStore(db_path)  # opening migrates
    try:
        assert store.conn.execute("SELECT 1 FROM _mem_migrations WHERE name = 'm015_people_faded'").fetchone()
        assert len(_counts(store.conn)) == 3 and _counts(store.conn) == _scan(store.conn)
        assert migrations.migrate(store.conn) == []
    finally:
        store.close()


def _people(out: dict[str, Any]) -> list[str]:
    return [i["text"] for i in out["chosen"] if i["section"] == "people"]


def _faded_family_store(db: Path, monkeypatch: pytest.MonkeyPatch) -> datetime:
    """The family group written in January, archived by the decay (as weeks of nights would), and the agent's notes."""
    store = core.MemoryStore(db)
    try:
        ids = _family(store, datetime(2026, 1, 2, 10))
        for d, text in enumerate(("Claire's dentist check-up at Didsbury Dental is on Tuesday 5 May at 8:40.",
                                  "Tom started a new job as a site manager in Salford.",
                                  "Claire signed up for the Great Manchester Run 10K.")):
            at = datetime(2026, 4, 1, 9) + timedelta(days=d)
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            store.store(text, "episodic", source="agent", importance=0.6, event_at=at)
        store.conn.execute(f"UPDATE memories SET status = 'archived' WHERE id IN ({','.join(map(str, ids))})")
        store.conn.commit()
    finally:
        store.close()
    return datetime(2026, 4, 23, 9)


def _brief(db: Path, now: datetime) -> dict[str, Any]:
    store = core.MemoryStore(db)
    try:
        consolidate.run(store, now=now, keep_backups=0)
        return graph_rank.brief(store, 2000, now=now)
    finally:
        store.close()


def test_the_members_of_a_faded_chat_stay_in_people_with_their_news(db_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    now = _faded_family_store(db_path, monkeypatch)
    people = _people(_brief(db_path, now))
    lines = {ln.split(":")[0]: ln for ln in people}
    assert {"Bernadette Donnelly", "Liam Donnelly", "Shona Donnelly"} <= set(lines)
    assert lines["Shona Donnelly"] == ('Shona Donnelly: wrote 2 memories in 1 chat (2026-01-11 – 2026-01-22; archived)'
                                       ' — said #3 "20 week scan today. It\'s a girl!! The baby is due in June"')
    # news from the archived turns, not the party plan (moved or called off since, maybe: a faded chat cannot say)
    assert lines["Liam Donnelly"].endswith('— said #2 "Leave it with me and Claire Mum, we\'ll sort the party"')
    assert all("Fox and Hounds" not in ln for ln in people)
    # the brief only reads: nothing was unarchived
    store = core.MemoryStore(db_path)
    try:
        assert store.conn.execute("SELECT count(*) FROM memories WHERE status = 'archived'").fetchone()[0] == 6
    finally:
        store.close()


def test_without_the_faded_members_people_is_empty_of_them(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The switch off: the People section of 9466f68 (no member of the faded chat)."""
    now = _faded_family_store(db_path, monkeypatch)
    monkeypatch.setattr(brief_fadedpeople, "FADED_PEOPLE", False)
    assert not any(ln.startswith(("Bernadette", "Liam", "Shona")) for ln in _people(_brief(db_path, now)))


def test_a_faded_member_the_notes_name_is_one_line() -> None:
    assert brief_fadedpeople._same_person("Frank Donnelly", "Frank")
    assert brief_fadedpeople._same_person("frank", "Frank Donnelly")
    assert not brief_fadedpeople._same_person("Frank Donnelly", "Frances")


@pytest.mark.parametrize("text", [
    "L'atelier photo de la médiathèque n'aura pas lieu : la médiathèque ferme pour travaux.",
    "Festyn rodzinny w szkole odwołany, bo boisko jest w remoncie.",
    "The street party won't take place this year, the council refused the permit.",
    "Das Sommerfest findet nicht statt.",
])
def test_words_that_call_a_plan_off(text: str) -> None:
    assert brief_moves._OFF.search(text)


@pytest.mark.parametrize("text", [
    "La formation drone est reportée en janvier, du 11 au 15 janvier.",
    "Mme Girard a avancé le rendez-vous du bilan au lundi 23 novembre.",
    "Wycieczka klasy 2b do Ojcowa przełożona na piątek 12 czerwca.",
])
def test_words_that_move_a_plan(text: str) -> None:
    assert brief_upcoming._says_changed(text)


def test_a_plan_put_off_in_french_leaves_coming_up(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = core.MemoryStore(db_path)
    try:
        for at, text in ((datetime(2026, 10, 20, 17), "Rendez-vous avec la comptable, Mme Girard, le mercredi 25 "
                                                      "novembre à 10 h pour le bilan."),
                         (datetime(2026, 10, 30, 19), "Atelier photo pour enfants à la médiathèque de la Croix-Rousse "
                                                      "le samedi 5 décembre à 14 h."),
                         (datetime(2026, 11, 12, 18), "Mme Girard a avancé le rendez-vous du bilan au lundi 23 "
                                                      "novembre, même heure."),
                         (datetime(2026, 11, 14, 17), "L'atelier photo de la médiathèque n'aura pas lieu : la "
                                                      "médiathèque ferme pour travaux jusqu'en février.")):
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            store.store(text, "episodic", source="agent", importance=0.6, event_at=at)
    finally:
        store.close()
    out = _brief(db_path, datetime(2026, 11, 21, 9))
    up = "\n".join(i["text"] for i in out["chosen"] if i["section"] == "upcoming")
    assert "lundi 23 novembre" in up and "→ 2026-11-23" in up
    assert "mercredi 25" not in up and "samedi 5 décembre" not in up


@pytest.mark.parametrize("text, first, last", [
    ("Joan is coming to stay from 26 to 29 May, David will drive her.", "2026-05-26", "2026-05-29"),
    ("Lake District weekend in Grasmere 29–31 May.", "2026-05-29", "2026-05-31"),
    ("Wakacje w Chorwacji od 18 do 31 lipca, apartament w Makarskiej.", "2026-07-18", "2026-07-31"),
    ("Viaje a Asturias del 9 al 12 de octubre.", "2026-10-09", "2026-10-12"),
])
def test_a_range_said_with_one_month_plans_its_first_day(text: str, first: str, last: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """(measured, off: brief_dates.RANGE_STARTS)"""
    from memengine import brief_dates

    monkeypatch.setattr(brief_dates, "RANGE_STARTS", True)
    days = sorted(brief_dates.plan_days(text, datetime(2026, 5, 5).date(), lambda: [], None))
    assert [d.isoformat() for d in days] == [first, last]


def test_hours_and_versions_are_no_range() -> None:
    from memengine import brief_dates

    assert brief_dates.plan_days("I slept 6 to 8 hours in May.", datetime(2026, 5, 5).date(), lambda: [], None) == []


def test_a_reason_clause_calls_only_its_own_day_unavailable() -> None:
    """"moved to Saturday 27 June because the coach firm double-booked the 20th" plans the 27th, not the 20th."""
    written = datetime(2026, 4, 24).date()
    text = "Dot says the Malham coach trip is moved to Saturday 27 June because the coach firm double-booked the 20th."
    gone, again = brief_upcoming._unavailable(text, written)
    assert [d.isoformat() for d in gone] == ["2026-06-20"] and [d.isoformat() for d in again] == ["2026-06-27"]
    text = "Claire's promotion panel moved to Thursday 7 May at 2pm (Priyanka is away on 30 April)."
    gone, again = brief_upcoming._unavailable(text, written)
    assert [d.isoformat() for d in gone] == ["2026-04-30"] and [d.isoformat() for d in again] == ["2026-05-07"]
    # "three weeks away" says no one is away
    assert brief_upcoming._unavailable("The wedding is three weeks away, on 12 June.", written) == (
        frozenset(), frozenset())


def test_a_chat_plan_a_note_moved_is_no_one_s_news(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Priyanka's "Your panel is on 30 April" after the agent's note moving the panel to 7 May: not her news in People,
    and the note's plan is on 7 May."""
    store = core.MemoryStore(db_path)
    try:
        for k, (at, text) in enumerate(((datetime(2026, 3, 10, 10), "Also - I've put you forward for promotion to Lead "
                                                                     "Designer. Your panel is on 30 April, 2pm"),
                                        (datetime(2026, 3, 16, 17), "🙏"))):
            store.store(text, "episodic", source="telegram", thread="Priyanka Rao", position=k, author="Priyanka Rao",
                        event_at=at)
        at = datetime(2026, 4, 15, 12)
        monkeypatch.setattr(writes, "utcnow", lambda: at)
        store.store("Claire's promotion panel moved to Thursday 7 May at 2pm (Priyanka is away on 30 April).",
                    "episodic", source="agent", importance=0.6, event_at=at)
    finally:
        store.close()
    out = _brief(db_path, datetime(2026, 4, 23, 9))
    up = "\n".join(i["text"] for i in out["chosen"] if i["section"] == "upcoming")
    assert "→ 2026-05-07" in up and "→ 2026-04-30" not in up
    people = _people(out)
    assert people == ["Priyanka Rao: wrote 2 memories in 1 chat (2026-03-10 – 2026-03-16)"]  # (no news left to quote)
