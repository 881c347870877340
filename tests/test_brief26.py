"""Brief, round 26 (brief26): news whose subject its author said in their own turn before it, with no question
between. What reached users on unseen chats (bench/data/brief_heldout19, before this round): Sam's line quoted "PASSED
🚗🚗🚗 zero minors" (passed what?), Lucía's "YA LOS TENGO 😁🦷 me duele todo" (what?), Chiara's "DOTTORESSA 🎓🎓 110 e
lode!!!" — each said right after their own "test at 2, …", "mañana me ponen los brackets 😬", "domani alle 10 discuto la
tesi"; brief25 read a news turn only with a question asked by someone else."""

from __future__ import annotations

from datetime import datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import brief_news, consolidate, graph_rank

ROWS = [  # (id, author, content, event_at): in the order written
    (1, "Sam", "driving test on Thursday at Cheetham Hill, third attempt 😬", "2026-03-20T09:12:44"),
    (2, "Jade", "no chance you fail this time", "2026-03-20T09:15:02"),
    (3, "Sam", "test at 2, the instructor says stay calm on the roundabouts", "2026-03-26T10:05:00"),
    (4, "Sam", "PASSED 🚗🚗🚗 zero minors", "2026-03-26T15:20:31"),
    (5, "Chiara", "domani alle 10 discuto la tesi, non dormirò stanotte", "2026-02-24T18:00:20"),
    (6, "Giulia", "dai che vai alla grande", "2026-02-24T18:02:05"),
    (7, "Chiara", "DOTTORESSA 🎓🎓 110 e lode!!!", "2026-02-25T13:15:44"),
    (8, "Kwame", "anyone up for a run?", "2026-02-25T14:00:00"),
    (9, "Chiara", "YESSS count me in!!", "2026-02-25T14:05:00"),
    (10, "Chiara", "what time?", "2026-02-25T14:06:00"),
    (11, "Chiara", "FINALLY 🎉", "2026-02-25T14:07:00"),
    (12, "Tom", "so tired today", "2026-02-27T09:00:00"),
]
TEXTS = [str(r[2]) for r in ROWS]


def test_an_outcome_follows_its_authors_own_newest_turn_of_the_last_day() -> None:
    assert brief_news.own_before(3, ROWS, TEXTS) == 2  # (5 hours before: the turn of six days before is not read)
    # another's reply between does not part them ("dai che vai alla grande"): 19 hours before
    assert brief_news.own_before(6, ROWS, TEXTS) == 4
    assert brief_news.own_before(1, ROWS, TEXTS) is None  # (its author's turn before: six days before)
    assert brief_news.own_before(0, ROWS, TEXTS) is None  # (nothing before it)


def test_no_own_turn_when_a_question_stands_between_or_the_own_turn_asks() -> None:
    # "anyone up for a run?" is asked between: what answers it is read with the question (brief_news.asked)
    assert brief_news.own_before(8, ROWS, TEXTS) is None
    # "what time?" asks: others would answer it, it says nothing of what comes after it
    assert brief_news.own_before(10, ROWS, TEXTS) is None
    assert brief_news.own_before(11, ROWS, TEXTS) is None  # (its author's newest turn is more than a day old)


CHAT = [  # (day, month, hour, minute, author, text): friends in Manchester, 2026
    (3, 3, 8, 2, "Ellie", "morning lovelies"),
    (12, 3, 18, 30, "Ellie", "Bath Half is this Sunday, aiming for under two hours"),
    (12, 3, 18, 31, "Jade", "you've got this"),
    (15, 3, 13, 40, "Ellie", "can't feel my legs after Bath lol"),
    (15, 3, 13, 41, "Ellie", "1:54:20!!! PB by four minutes 🏃‍♀️"),
    (15, 3, 13, 45, "Marcus", "class"),
    (15, 3, 13, 46, "Sam", "proper jealous"),
    (20, 3, 9, 12, "Sam", "driving test on Thursday at Cheetham Hill, third attempt 😬"),
    (20, 3, 9, 15, "Jade", "no chance you fail this time"),
    (26, 3, 10, 5, "Sam", "test at 2, the instructor says stay calm on the roundabouts"),
    (26, 3, 15, 20, "Sam", "PASSED 🚗🚗🚗 zero minors"),
    (26, 3, 15, 21, "Ellie", "get in!!"),
    (26, 3, 15, 22, "Marcus", "sound"),
    (8, 4, 20, 0, "Jade", "Lisbon airbnb booked in Alfama, £96 each for three nights"),
    (8, 4, 20, 2, "Ellie", "mint"),
    (8, 4, 20, 3, "Jade", "💀💀"),  # (no word: no news, whatever came before it)
    (8, 4, 20, 4, "Jade", "night ❤️"),  # (a mood, not an outcome)
    (22, 4, 19, 30, "Marcus", "new job news: I start at the Co-op head office on 1 June, data team"),
    (22, 4, 19, 31, "Sam", "buzzing for you"),
    (30, 4, 9, 0, "Marcus", "car's in for its MOT at Kwik Fit this morning"),
    (30, 4, 11, 0, "Marcus", "Co-op sent the contract and the start date is confirmed, first week is induction!!"),
]


@pytest.fixture
def mates(store: core.MemoryStore) -> dict:
    chat_turns(store, "mates", [(f"2026-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:00", who, text)
                                for d, mo, h, mi, who, text in CHAT])
    consolidate.run(store, now=datetime(2026, 6, 15), keep_backups=0)
    return graph_rank.brief(store, 2000, now=datetime(2026, 6, 15))


def test_a_persons_outcome_reads_with_their_own_turn_before_it(mates: dict) -> None:
    people = {line.split(":")[0]: line for line in (i["text"] for i in mates["sections"]["people"])}
    # what Sam passed, and what Ellie's time is the time of: their own words before it
    assert '#11 "PASSED 🚗🚗🚗 zero minors" after #10 "test at 2, the instructor says stay calm on the…"' \
        in people["Sam"]
    assert '#5 "1:54:20!!! PB by four minutes 🏃‍♀️" after #4 "can\'t feel my legs after Bath lol"' in people["Ellie"]
    # a turn that is no excited outcome is quoted alone, as before, and "💀💀" after it is no news
    assert people["Jade"].endswith('said #14 "Lisbon airbnb booked in Alfama, £96 each for three nights"')
    # news that says what it is about is quoted alone: not read with its author's car of the same morning
    assert people["Marcus"].endswith('said #21 "Co-op sent the contract and the start date is confirmed…"')



def test_an_outcome_is_said_out_loud_not_with_an_emoji_alone() -> None:
    for said in ("PASSED 🚗🚗🚗 zero minors", "1:54:20!!! PB by four minutes", "YA LOS TENGO 😁🦷 me duele todo"):
        assert brief_news.shouted(said)
    for said in ("night ❤️", "🥳", "Pickle slept in a box all night", "ok TV"):
        assert not brief_news.shouted(said)
