"""Brief, round 25 (brief25): plans placed by a month gone by, and news that means nothing without the question it
answers. What reached users on unseen chats (bench/data/brief_heldout18, before this round): "we got the flat! we move
in April" quoted in June as Hannah's news; a Key fact "Jana will im Mai mit dem Fahrrad … fahren" in June with no
mark; Priya's line quoting "1:58:41!!! under two hours" (of what?) and Hannah's "GOT IT 😭😭" never quoted at all
(too little alone), though "Hannah any news from Leeds General?" asked it."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import brief_months, brief_news, consolidate, graph_rank

# --------------------------------------------------------------------------- a plan placed by its month alone


@pytest.mark.parametrize(("text", "written", "last"), [
    ("we got the flat! we move in April", date(2026, 2, 5), date(2026, 4, 30)),
    ("pay Gemma's brother by the end of May please", date(2026, 3, 20), date(2026, 5, 31)),
    ("Jana will im Mai mit dem Fahrrad den Elberadweg fahren", date(2026, 2, 19), date(2026, 5, 31)),
    ("de verbouwing van de keuken begint in maart", date(2026, 1, 12), date(2026, 3, 31)),
    ("me voy a Monterrey en marzo", date(2026, 1, 9), date(2026, 3, 31)),
    ("o cruzeiro é em maio 🚢", date(2026, 2, 4), date(2026, 5, 31)),
    ("przelejcie mi po 200 zł do końca października", date(2026, 4, 22), date(2026, 10, 31)),
    # the months listed with a placed one are placed too; the last of them decides
    ("garlic can go in the first bed in October or November", date(2026, 9, 6), date(2026, 11, 30)),
])
def test_a_plan_placed_by_its_month_has_gone_by_after_that_months_last_day(text: str, written: date,
                                                                           last: date) -> None:
    assert brief_months.gone(text, written, last) is None  # (its last day: not yet gone)
    later = date.fromordinal(last.toordinal() + 1)
    assert brief_months.gone(text, written, later) == last
    assert brief_months.note(text, written, later) == f" ({last.year}-{last.month:02d}: past)"


def test_a_month_is_placed_from_the_month_it_was_written_in_or_in_the_year_said_with_it() -> None:
    # written in May, "in April" is next April; "April 2027" is 2027's
    assert brief_months.placed("we move in April", date(2026, 5, 2)) == [date(2027, 4, 30)]
    assert brief_months.placed("we move in April 2027", date(2026, 2, 5)) == [date(2027, 4, 30)]
    # the month it was written in is this month
    assert brief_months.placed("we move in April", date(2026, 4, 2)) == [date(2026, 4, 30)]


@pytest.mark.parametrize("text", [
    "typisk oktober",  # a month talked of, no plan placed in it
    "Desde octubre, Lucía cambia pilates a los lunes",  # a state from that month on
    "a partir de octubre trabajo desde casa",
    "non l'ho mai visto così",  # Italian "never"
    "sept ans plus tard",  # French "seven"
    "you may go in the morning",  # the verb
    "Mei said she would come",  # a name
    "signed up for the Leeds Half on 10 May",  # a day: brief_dates reads it
])
def test_no_plan_is_placed_by_a_month_talked_of_a_state_from_a_month_on_or_another_word(text: str) -> None:
    assert brief_months.placed(text, date(2026, 2, 1)) == []


def test_a_news_turn_placed_by_a_month_gone_by_is_no_longer_ahead() -> None:
    said = "news from us: we got the flat on Chapel Allerton Road! we move in April 🏡"
    assert brief_news.ahead(said, "2026-02-05T21:14:30", date(2026, 4, 30))
    assert not brief_news.ahead(said, "2026-02-05T21:14:30", date(2026, 6, 15))
    assert brief_news.ahead(said, "2026-02-05T21:14:30")  # (no brief's day: nothing gone by)


# --------------------------------------------------------------------------- the question a news turn answers


def _weight(text: str) -> int:
    """(as informative words count: names, numbers, long words)"""
    return sum(w[:1].isupper() or w.isdigit() or len(w) >= 8 for w in text.split()[1:])


ROWS = [  # (id, author, content, event_at): in the order written
    (1, "Kwame", "good luck at the Leeds Half today Priya", "2026-05-10T07:30:15"),
    (2, "Rafael", "hoje sai o resultado da OAB né?", "2026-05-10T09:00:00"),
    (3, "Cida", "e aí Lelê??", "2026-05-10T13:40:00"),
    (4, "Letícia", "PASSEEEEI 😭😭😭", "2026-05-10T13:52:00"),
    (5, "Sarah", "au fait je me suis fait opérer du genou lundi", "2026-05-11T10:00:00"),
    (6, "Léa", "oh mince ! tu veux que je passe avec des courses ?", "2026-05-11T10:05:00"),
    (7, "Sarah", "oui volontiers, merci ❤️", "2026-05-11T10:07:00"),
    (8, "Tom", "how did the half go??", "2026-05-12T13:10:50"),
    (9, "Priya", "1:58:41!!! under two hours", "2026-05-13T14:20:41"),  # (a day later: too late an answer)
]
TEXTS = [str(r[2]) for r in ROWS]


def test_a_turn_answers_the_question_of_most_weight_just_before_it_asked_by_others() -> None:
    # "e aí Lelê??" and, before it, the question that says what: the one of the most weight
    assert brief_news.asked(3, ROWS, TEXTS, _weight) == 1
    assert brief_news.asked(2, ROWS, TEXTS, _weight) == 1  # (a question may answer a question)
    assert brief_news.asked(0, ROWS, TEXTS, _weight) is None  # (nothing before it)
    assert brief_news.asked(8, ROWS, TEXTS, _weight) is None  # (asked more than ASKED_HOURS before)


def test_a_question_that_answers_the_same_persons_turn_is_their_talk_going_on() -> None:
    # "tu veux que je passe avec des courses ?" answers Sarah's own news: "oui volontiers" is no news about anything
    assert brief_news.asked(6, ROWS, TEXTS, _weight) is None


CHAT = [  # (day, month, hour, minute, author, text): running friends, 2026
    (2, 2, 19, 2, "Priya", "right, I've done it, signed up for the Leeds Half on 10 May 😬"),
    (2, 2, 19, 3, "Tom", "legend"),
    (5, 2, 21, 14, "Hannah", "news from us: we got the flat on Chapel Allerton Road! we move in April 🏡"),
    (5, 2, 21, 15, "Josh", "get in!!"),
    (5, 2, 21, 16, "Priya", "so happy for you two"),
    (3, 3, 18, 0, "Hannah", "applied for the physio job at Leeds General, interview on the 17th"),
    (2, 4, 19, 40, "Kwame", "Hannah any news from Leeds General?"),
    (2, 4, 19, 52, "Hannah", "GOT IT 😭😭 they rang this afternoon"),
    (2, 4, 19, 53, "Priya", "YESSS"),
    (2, 4, 19, 54, "Josh", "so proud"),
    (10, 5, 13, 10, "Tom", "how did the half go??"),
    (10, 5, 14, 20, "Priya", "1:58:41!!! under two hours 🏃‍♀️🎉"),
    (10, 5, 14, 21, "Hannah", "AMAZING"),
    (10, 5, 14, 22, "Josh", "legend x2"),
    (14, 6, 18, 30, "Kwame", "stag do is sorted: Bristol 14 to 16 August, boat on the Saturday"),
]


@pytest.fixture
def club(store: core.MemoryStore) -> dict:
    chat_turns(store, "club", [(f"2026-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:00", who, text)
                               for d, mo, h, mi, who, text in CHAT])
    consolidate.run(store, now=datetime(2026, 6, 15), keep_backups=0)
    return graph_rank.brief(store, 2000, now=datetime(2026, 6, 15))


def test_a_persons_news_reads_with_the_question_it_answers_and_a_month_gone_by_is_no_news(club: dict) -> None:
    people = {line.split(":")[0]: line for line in (i["text"] for i in club["sections"]["people"])}
    # Priya's time, with what it is the time of
    assert '"1:58:41!!! under two hours 🏃‍♀️🎉" answering Tom #11 "how did the half go??"' in people["Priya"]
    # Hannah's job, quoted with the question it answers (too little alone), not the flat "we move in April"
    assert '#8 "GOT IT 😭😭 they rang this afternoon" answering Kwame #7 "Hannah any news from Leeds General?"' \
        in people["Hannah"]
    assert "April" not in people["Hannah"]


def test_a_question_asks_after_news_when_it_shares_a_word_with_what_its_answerer_told_or_was_told_of() -> None:
    rows = [(1, "Hannah", "applied for the physio job at Leeds General, interview on the 17th", "2026-03-03T18:00:00"),
            (2, "Maya", "great, I can work from the new place that week, move day Saturday", "2026-03-04T10:00:00"),
            (3, "Jordan", "Priya is doing Friendsgiving at her place on Saturday December 5, we're in?",
             "2026-03-05T10:00:00"),
            (4, "Maya", "yes! I'll bring the pie", "2026-03-05T10:02:00"),
            (5, "Kwame", "Hannah any news from Leeds General?", "2026-04-02T19:40:00"),
            (6, "Hannah", "GOT IT 😭😭 they rang this afternoon", "2026-04-02T19:52:00"),
            (7, "Letícia", "a prova da OAB é dia 12 de abril", "2026-04-03T09:00:00"),
            (8, "Rafael", "hoje sai o resultado da OAB né?", "2026-05-20T09:00:00"),
            (9, "Letícia", "PASSEEEEI 😭😭😭", "2026-05-20T13:52:00")]
    texts = [str(r[2]) for r in rows]
    stop = frozenset(("from", "that", "week", "with", "news", "they"))
    assert brief_news.follows_up(4, 5, rows, texts, stop)  # "Leeds General", told by Hannah before
    assert brief_news.follows_up(7, 8, rows, texts, stop)  # "OAB": an acronym of three letters
    # an invitation to all shares only "place", a word that names nothing, and a weekday with what Maya told
    assert not brief_news.follows_up(2, 3, rows, texts, stop)
