"""Brief, round 9 (brief10): a chat turn a later turn of its chat updates is not "Coming up" (recall's rule,
asked only of turns of one subject); a weekday said with its date is one day; a cosine alone moves no plan."""
from __future__ import annotations

from datetime import date, datetime

import pytest

import memory_core as core
from memengine import brief_dates, brief_outdated, graph_rank

NOW = datetime(2026, 11, 14, 21, 0)


@pytest.mark.parametrize("text, days", [
    ("Priya is doing Friendsgiving at her place on Saturday December 5, we're in?", [date(2026, 12, 5)]),
    ("by Friday, 4 December", [date(2026, 12, 4)]),
    ("on Saturday the 5th", [date(2026, 12, 5)]),
    ("see you on Saturday", [date(2026, 11, 14)]),
    ("on Friday, and the tickets for 4 December", [date(2026, 11, 13), date(2026, 12, 4)]),
])
def test_a_weekday_said_with_its_date_is_one_day(text: str, days: list[date]) -> None:
    assert brief_dates.plan_days(text, date(2026, 11, 8)) == days


def _chat(store: core.MemoryStore, turns: list[tuple[str, str, str]]) -> list[int]:
    """Store ``(day, author, text)`` turns as one chat, in order; their ids."""
    return [store.store(f"{who}: {text}", "episodic", thread="whatsapp/maya-jordan", author=who, importance=0.5,
                        event_at=datetime.fromisoformat(f"{day}T19:00:00"), dedup=False).id
            for day, who, text in turns]


TURNS = [
    ("2026-10-08", "Maya", "he offered 2100 a month, 1 year lease, move in from November 15"),
    ("2026-10-12", "Jordan", "asked Kowalczyk if he would do 2000 on a longer contract"),
    ("2026-10-13", "Maya", "the board presentation is Thursday November 19 at 9am"),
    ("2026-10-14", "Jordan", "Kowalczyk agreed: 2050 a month if we sign a 2 year lease. final"),
    ("2026-10-29", "Maya", "Ana's birthday dinner is Friday November 20 at 7:30 at Lucia's"),
    ("2026-11-02", "Maya", "ok. move day is Saturday November 28 now"),
    ("2026-11-03", "Jordan", "tacos tonight?"),
]


def test_an_offer_a_later_turn_settles_is_not_coming_up(store: core.MemoryStore) -> None:
    ids = _chat(store, TURNS)
    offer, board, agreed, birthday, move = ids[0], ids[2], ids[3], ids[4], ids[5]
    assert brief_outdated.outdated(store, [offer, board, birthday, move]) == {offer: [agreed]}
    data = graph_rank.brief(store, 2000, now=NOW)
    up = [i["id"] for i in data["sections"]["upcoming"]]
    # the offer is updated (shown nowhere); the board presentation and the birthday, which a later "now"
    # turn of the same chat is as close to as 0.6, are other subjects and stay, in the order of their days
    assert up == [board, birthday, move]
    assert offer not in {i["id"] for i in data["chosen"]}


@pytest.mark.parametrize("old, new", [
    # a place both name is not the subject of the change: the walk moved, not the AGM at the Rambler Inn
    ("AGM is Thursday 26 November, 7pm, upstairs at the Rambler Inn",
     "change of plan: the Christmas walk moves to Sunday 13 December, the Rambler Inn can only do the dinner"),
    # one word of two names: "Harbour Bar" is not "Harbour Lights"
    ("change of plan: Harbour Bar had a double booking, we now play Friday 18 December",
     "Harbour Lights has a bridge now, we can play it in December"),
])
def test_turns_of_two_subjects_update_nothing(store: core.MemoryStore, old: str, new: str) -> None:
    ids = _chat(store, [("2026-10-04", "Jess", old), ("2026-11-10", "Owen", new), ("2026-11-10", "Jess", "ok")])
    assert brief_outdated.outdated(store, [ids[0]]) == {}


def test_a_named_subject_links_a_later_change(store: core.MemoryStore) -> None:
    ids = _chat(store, [("2026-10-23", "Jordan", "Bluebird said 720 if we pack ourselves, booked them for Saturday "
                                                 "November 21 at 8am"),
                        ("2026-10-24", "Maya", "boxes!"),
                        ("2026-11-02", "Jordan", "called Bluebird: moved to Saturday November 28 at 8am, same 720")])
    assert brief_outdated.outdated(store, [ids[0]]) == {ids[0]: [ids[2]]}
    assert brief_outdated.outdated(store, []) == {}


def test_an_assistants_answer_moves_no_plan_of_the_user(store: core.MemoryStore) -> None:
    thread = "claude/talk"
    user = store.store("User: The organisers moved my talk to Saturday 6 March 2027 at 11:30, same room. Slides are "
                       "due by 15 February.", "episodic", thread=thread, author="User", importance=0.5,
                       event_at=datetime(2026, 11, 10, 9, 0), dedup=False).id
    answer = store.store("Assistant: Good news. The talk moved to Saturday 6 March 2027 at 11:30, so with the slides "
                         "due on 15 February a dry run in early February works.", "episodic", thread=thread,
                         author="Assistant", importance=0.5, event_at=datetime(2026, 11, 10, 9, 1), dedup=False).id
    from memengine import brief_upcoming

    found, gone = brief_upcoming.plans(store, NOW)
    assert user not in gone and {user, answer} <= {int(f[0][0]) for f in found}
