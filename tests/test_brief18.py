"""Round 18: a plan replaced by a later turn of its chat with no word of change: the older plan's day called
unavailable ("they double booked June 11, they're offering June 18", "el 14 está completo, nos dan el 16") or its
event called off ("Notar hat abgesagt, neuer Termin 10.12."), in the languages the brief reads. End to end: a
WhatsApp export imported into a real SQLite store, consolidated, briefed."""
from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_upcoming, consolidate, graph_rank, ingest


def _brief(tmp_path: Path, turns: list[tuple[str, str, str]], now: datetime
           ) -> tuple[list[tuple[str, date]], list[str], list[str]]:
    """``(dd/mm/yyyy HH:MM, author, text)`` turns imported as a WhatsApp export, consolidated and briefed at
    ``now``: (text, first day) of each plan kept, the texts of the plans moved, the texts Coming up shows."""
    path = tmp_path / "chat.txt"
    path.write_text("".join(f"{when[:10]}, {when[11:]} - {who}: {text}\n" for when, who, text in turns),
                    encoding="utf-8")
    store = core.MemoryStore(tmp_path / "mem.db")
    try:
        ingest.import_path(store, path, "whatsapp")
        # (no decay: it ages memories by their storage time, today's clock, which the chat's days are far from)
        consolidate.run(store, phases=[p for p in consolidate.ALL_PHASES if p != "decay"], now=now, keep_backups=0)
        text = {int(i): str(c) for i, c in store.conn.execute("SELECT id, content FROM memories")}
        kept, moved = brief_upcoming.plans(store, now)
        up = graph_rank.brief(store, 2000, now=now)["sections"]["upcoming"]
        return ([(text[int(f[0][0])].split(": ", 1)[1], f[1]) for f in kept],
                [text[i].split(": ", 1)[1] for i in moved], [text[int(u["id"])].split(": ", 1)[1] for u in up])
    finally:
        store.close()


VENUE = [("03/05/2027 18:00", "Maya", "I'll ask the venue for Friday June 11 and hold it"),
         ("04/05/2027 09:00", "Sam", "great, thanks"),
         ("24/05/2027 19:30", "Maya", "bad news: they double booked June 11, they're offering June 18 or a refund"),
         ("24/05/2027 19:40", "Sam", "ok June 18 then"),
         ("26/05/2027 12:00", "Maya", "done, they confirmed Friday June 18 in writing")]


def test_a_day_double_booked_moves_the_plan_to_the_day_offered(tmp_path: Path) -> None:
    kept, moved, shown = _brief(tmp_path, VENUE, datetime(2027, 6, 1, 9, 0))
    # moved: the June 11 plan; and "ok June 18 then", which only says the new day again (test_brief_restated.py)
    assert moved == ["I'll ask the venue for Friday June 11 and hold it", "ok June 18 then"]
    assert {d for _, d in kept} == {date(2027, 6, 18)}  # the refusing turn plans the 18th, not the 11th
    assert "done, they confirmed Friday June 18 in writing" in shown
    assert not any("June 11" in s and "June 18" not in s for s in shown)


@pytest.mark.parametrize(("first", "reply", "old", "new"), [
    ("dinner at Luca's on the 14th?", "the 14th is taken, Luca has people over — Saturday 16th instead?", 14, 16),
    ("la cena es el 14", "el 14 está completo, nos dan el 16", 14, 16),
    ("dîner chez Luc le 14 ?", "le 14 c'est complet, ils ont le 16", 14, 16),
    ("Tisch im Adler am 14.?", "am 14. ist alles ausgebucht, am 16. geht", 14, 16),
    ("cena da Gino il 14?", "il 14 è tutto pieno, ci danno il 16", 14, 16),
])
def test_a_day_called_unavailable_moves_the_plan(tmp_path: Path, first: str, reply: str, old: int, new: int) -> None:
    kept, moved, shown = _brief(tmp_path, [("13/01/2027 10:00", "Ana", first), ("13/01/2027 10:05", "Ben", "👍"),
                                           ("13/01/2027 18:00", "Cleo", reply)], datetime(2027, 1, 13, 20, 0))
    assert moved == [first]
    assert kept == [(reply, date(2027, 1, new))]
    assert shown == [reply]


def test_an_event_called_off_with_a_new_day_moves_the_plan(tmp_path: Path) -> None:
    kept, moved, shown = _brief(tmp_path, [("18/11/2026 10:00", "Eva", "Termin beim Notar am 3.12."),
                                           ("18/11/2026 10:02", "Jan", "ok"),
                                           ("25/11/2026 16:00", "Eva", "Notar hat abgesagt, neuer Termin 10.12.")],
                                datetime(2026, 11, 27, 9, 0))
    assert moved == ["Termin beim Notar am 3.12."]
    assert kept == [("Notar hat abgesagt, neuer Termin 10.12.", date(2026, 12, 10))]


def test_two_events_of_one_day_only_the_one_named_moves(tmp_path: Path) -> None:
    kept, moved, _ = _brief(tmp_path, [("13/01/2027 09:00", "Ana", "plumber comes on the 14th, 8 to 10"),
                                       ("13/01/2027 10:00", "Ana", "dinner at Luca's on the 14th?"),
                                       ("13/01/2027 18:00", "Cleo", "the 14th is taken, Luca has people over — "
                                                                    "Saturday 16th instead?")],
                            datetime(2027, 1, 13, 20, 0))
    assert moved == ["dinner at Luca's on the 14th?"]
    assert ("plumber comes on the 14th, 8 to 10", date(2027, 1, 14)) in kept


def test_a_recurring_plan_is_not_moved(tmp_path: Path) -> None:
    kept, moved, _ = _brief(tmp_path, [("13/01/2027 09:00", "Ana", "choir every Thursday, next one Thursday 14 January"),
                                       ("13/01/2027 18:00", "Cleo", "the hall is fully booked on 14 January, "
                                                                    "the bake sale is on 16 January")],
                            datetime(2027, 1, 13, 20, 0))
    assert moved == []
    assert ("choir every Thursday, next one Thursday 14 January", date(2027, 1, 14)) in kept


@pytest.mark.parametrize("reply", [
    "the 14th is a Thursday, and the 16th a Saturday",  # both named, neither unavailable
    "I booked the 14th for us, and the 16th for my parents",  # booked: a plan, not a refusal
    "14 people are taken care of, the 16th is the bake sale",  # a count, not the day
])
def test_no_unavailable_day_no_move(tmp_path: Path, reply: str) -> None:
    kept, moved, _ = _brief(tmp_path, [("13/01/2027 10:00", "Ana", "dinner at Luca's on the 14th?"),
                                       ("13/01/2027 18:00", "Cleo", reply)], datetime(2027, 1, 13, 20, 0))
    # the dinner stays (a reply that names the day but no event of its own is left out: test_brief_restated.py)
    assert ("dinner at Luca's on the 14th?", date(2027, 1, 14)) in kept
    assert "dinner at Luca's on the 14th?" not in moved


def test_unavailable_days_read() -> None:
    w = date(2027, 1, 13)
    assert brief_upcoming.unavailable_days("el 14 está completo, nos dan el 16", w) == {date(2027, 1, 14)}
    assert brief_upcoming.unavailable_days("bad news: they double booked June 11, they're offering June 18", w) \
        == {date(2027, 6, 11)}
    assert brief_upcoming.unavailable_days("am 14. ist alles ausgebucht, am 16. geht", w) == {date(2027, 1, 14)}
    assert brief_upcoming.unavailable_days("I booked June 11 for us", w) == set()
    assert brief_upcoming.unavailable_days("I've taken June 11 off", w) == set()
    assert brief_upcoming.unavailable_days("envoie le dossier complet le 14", w) == set()  # a file complete
    assert brief_upcoming.unavailable_days("Notar hat abgesagt, neuer Termin 10.12.", w) == set()


def test_a_full_stop_after_the_refused_day_ends_its_sentence(tmp_path: Path) -> None:
    """(lead) "double booked June 11. They're offering June 18": the full stop after the 11 ends the refusal's
    sentence, so the 18th offered in the next one is no refused day and the plan of the 11th moves; a month after
    the number ("am 14. Dezember") keeps one sentence."""
    w = date(2026, 10, 14)
    two = "bad news: Willow Creek double booked June 11. They're offering June 18 at the same rate or a refund"
    assert brief_upcoming.unavailable_days(two, w) == {date(2027, 6, 11)}
    assert brief_upcoming.unavailable_days("am 14. Dezember ist alles ausgebucht", w) == {date(2026, 12, 14)}
    turns = [("08/08/2026 16:50", "Renee", "I'll ask for Friday June 11 2027 and hold it"),
             ("14/10/2026 09:00", "Renee", two),
             ("14/10/2026 09:20", "Alex", "she says yes. ok June 18 then")]
    kept, moved, shown = _brief(tmp_path, turns, datetime(2026, 11, 25, 9, 0))
    assert moved == ["I'll ask for Friday June 11 2027 and hold it", "she says yes. ok June 18 then"]
    assert {d for _, d in kept} == {date(2027, 6, 18)}
    assert not any("June 11 2027" in s for s in shown)
