"""Brief, round 31 (brief32): the people a chat's authors talk ABOUT get People lines (bench/data/brief_heldout24).

Two friends plan a third friend's wedding for months and one organises a colleague's leaving do: the People section
listed the two authors only. A capitalised word is no person ("York", a sentence's first word, a month after a day's
number): memengine/brief_talkedabout.py asks for evidence in the turns (brief_namedpeople's cues, "X's …", a case
ending after an apostrophe) and several turns, by two authors or with more evidence."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import memory_core as core
from memengine import brief_people, brief_talkedabout, graph_rank


def _chat(store: core.MemoryStore, turns: list[tuple[int, str, str]], start: datetime, thread: str) -> None:
    for k, (hours, author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread=thread, position=k, author=author,
                    event_at=start + timedelta(hours=hours))


_FRIENDS = [
    (0, "Hannah Price", "Jess wants the bridesmaids in sage green"),
    (1, "Leo Marsh", "work news: Derek is leaving, he's off to a startup in Manchester"),
    (2, "Hannah Price", "your Derek? the one who covered for you in March?"),
    (30, "Hannah Price", "Jess's hen do is Saturday 25 July, cocktail class in Leeds"),
    (31, "Leo Marsh", "Derek's last day is Friday 31 July, the Crown from 6"),
    (60, "Hannah Price", "Shall I book the hotel in York?"),
    (61, "Leo Marsh", "shall we get the train to York on Friday 7 August"),
    (62, "Hannah Price", "yes, York it is, I'll book the Premier Inn"),
    (90, "Hannah Price", "I have to do a speech at Jess's wedding. Help"),
    (91, "Leo Marsh", "Derek's leaving do: 24 people said yes"),
]


def test_people_talked_about_across_turns_get_a_line_and_a_place_does_not(db_path: Path) -> None:
    """Jess (three turns, "Jess wants", "Jess's"), Derek (both authors, "Derek's"); York (three turns by both, no
    evidence of a person) and "Shall" (a sentence's first word, written in lower case elsewhere) none."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _FRIENDS, datetime(2026, 4, 3, 19), "Hannah")
        got = brief_talkedabout.talked_about(store, {"hannah price", "leo marsh"})
        assert [(p["name"], len(p["turns"]), p["authors"]) for p in got] == [
            ("Derek", 4, ["hannah price", "leo marsh"]), ("Jess", 3, ["hannah price"])]
        out = graph_rank.brief(store, 1500, now=datetime(2026, 7, 21, 9))
        heads = [i["text"].split(":")[0] for i in out["sections"]["people"]]
        assert heads == ["Hannah Price", "Leo Marsh", "Derek", "Jess"]
        lines = brief_people.with_named(store)
        assert lines[2][0].startswith("Derek: named in 4 turns (2026-04-03 – 2026-04-07; first #2) — said #10 "
                                      "\"Derek's leaving do: 24 people said yes\"")
    finally:
        store.close()


def test_a_case_ending_after_an_apostrophe_is_the_name_and_a_month_after_a_number_no_one(db_path: Path) -> None:
    """Turkish writes a name's case ending after an apostrophe ("Zeynep'e", "Zeynep'in"): one person, whose
    ending is evidence of a name; "Ekim" (October) after "8" and "17" is a date, whatever its endings."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, [(0, "Elif Yılmaz", "Can, haberin var mı? Zeynep evleniyor!"),
                      (1, "Can Yılmaz", "Hadi ya! Zeynep'e çok sevindim"),
                      (2, "Can Yılmaz", "Zeynep'in düğünü için hediye ne alalım?"),
                      (3, "Elif Yılmaz", "Babamın ameliyatı 8 Ekim Perşembe'ye ertelendi"),
                      (4, "Can Yılmaz", "Tamam, 8 Ekim'de gelirim"),
                      (5, "Elif Yılmaz", "Taşınma 17 Ekim'de, nakliyeci 9.500 TL istedi")],
              datetime(2026, 8, 2, 20), "Elif")
        got = brief_talkedabout.talked_about(store, {"elif yılmaz", "can yılmaz"})
        assert [(p["name"], p["turns"]) for p in got] == [("Zeynep", [1, 2, 3])]
    finally:
        store.close()


def test_off_switch_leaves_the_authors_only(db_path: Path, monkeypatch: object) -> None:
    """``brief_people.TALKED_ABOUT = False``: the section as before (the authors)."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _FRIENDS, datetime(2026, 4, 3, 19), "Hannah")
        monkeypatch.setattr(brief_people, "TALKED_ABOUT", False)
        assert [line.split(":")[0] for line, _ in brief_people.with_named(store)] == ["Hannah Price", "Leo Marsh"]
    finally:
        store.close()
