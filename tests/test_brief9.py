"""Brief, round 8 (brief9): an event's name says no day ("Christmas concert", "concerto di Natale"), the calendar
words of every language the brief reads dates in name no topic."""
from __future__ import annotations

from datetime import date

import pytest

from memengine import brief_dates, topic_names

WRITTEN = date(2026, 11, 10)


@pytest.mark.parametrize("text, days", [
    ("The Christmas concert moved to 3 January", [date(2027, 1, 3)]),  # not the 25th before it
    ("Christmas concert at St Anne's, come!", []),
    ("the Christmas market in Sneek", []),
    ("Il concerto di Natale del coro è giovedì 17 dicembre", [date(2026, 12, 17)]),
    ("le marché de Noël ouvre samedi", []),
    ("festa de Natal da agência é sexta 11 de dezembro", [date(2026, 12, 11)]),
])
def test_an_event_named_after_a_holiday_is_not_on_the_holiday(text: str, days: list[date]) -> None:
    assert brief_dates.plan_days(text, WRITTEN) == days


@pytest.mark.parametrize("text, day", [
    ("home for Christmas", date(2026, 12, 25)),
    ("Christmas at ours?", date(2026, 12, 25)),
    ("at Christmas we fly", date(2026, 12, 25)),
    ("Christmas Day lunch", date(2026, 12, 25)),
    ("Christmas Eve dinner at mum's", date(2026, 12, 24)),
    ("il giorno di Natale pranzo da nonna", date(2026, 12, 25)),
    ("a Natale siamo a casa", date(2026, 12, 25)),
    ("Weihnachten bei Oma", date(2026, 12, 25)),
])
def test_a_holiday_said_as_a_time_keeps_its_day(text: str, day: date) -> None:
    assert brief_dates.plan_days(text, WRITTEN) == [day]


def test_a_holiday_in_an_event_name_still_places_its_month() -> None:
    # "the Christmas concert ... on the 18th": December's 18th, as before
    assert brief_dates.plan_days("the Christmas concert is on the 18th", WRITTEN) == [date(2026, 12, 18)]


@pytest.mark.parametrize("word", ["dicembre", "Stasera", "oggi", "giorno", "sexta", "amanhã", "vandaag",
                                  "dezembro", "Donnerstag", "mañana", "januari"])
def test_calendar_words_of_other_languages_are_weak(word: str) -> None:
    assert topic_names.weak(word)


def test_a_month_names_no_topic() -> None:
    rare = topic_names.idf(lambda w: 1, 10)
    texts = ["esame fissato il 9 dicembre", "pranzo spostato al 6 dicembre", "concerto del coro il 17 dicembre",
             "il coro canta", "coro universitario"]
    assert topic_names.name(texts, frozenset({"il", "al", "del"}), set(), rare) == "coro"


@pytest.mark.parametrize("phrase, texts, piece", [
    ("man", ["he asked me to be his best man!", "the best man speech is long", "Priya: best man sorted"], True),
    ("Mud", ["the lease at Mud & Co is signed", "Mud & Co opens on Saturday"], True),
    ("Vienna", ["idea: Vienna tutti", "ritorno da Vienna il 3"], False),  # "da" stands next to any noun
    ("visa appointment", ["my visa appointment at the Dutch", "Priya: my visa appointment at the Dutch embassy"],
     False),  # one sentence quoted twice (a turn and its episode) is one place
    ("Vienna", ["Vienna, then", "we said Vienna, then"], False),  # a comma stands between
])
def test_a_piece_of_a_longer_name(phrase: str, texts: list[str], piece: bool) -> None:
    assert topic_names.is_piece(phrase, texts, set()) is piece


def test_a_piece_names_no_topic_when_another_name_is_there() -> None:
    rare = topic_names.idf(lambda w: 1, 10)
    stop = frozenset({"the", "at", "is", "on", "his", "be", "to", "me", "best", "and"})
    texts = ["the lease at Mud & Co is signed", "Mud & Co opens on Saturday with the kiln",
             "the kiln is fired", "new kiln arrives"]
    assert topic_names.name(texts, stop, set(), rare) == "kiln"
    # nothing else recurs: the piece is still the best name there is
    assert topic_names.name(texts[:2], stop, set(), rare) == "Mud"


def test_an_italian_chats_reactions_take_no_topic_line() -> None:
    from memengine import brief_reactions

    texts = ["Sofia: Sto studiando diritto privato da 9 ore", "Marco: brava, pausa però", "Giulia: anche a te",
             "Luca: oggi al lavoro 140 coperti", "Sofia: la capisco"] * 3
    pool = [(i, t, f"2026-11-17T20:{10 + i:02d}:00", "chat/famiglia", None, 0.0) for i, t in enumerate(texts)]
    info = [1.0] * len(pool)
    reacting = brief_reactions.credit(pool, texts, info)
    assert {texts[i] for i in reacting} == {"Marco: brava, pausa però", "Giulia: anche a te", "Sofia: la capisco"}
    assert not brief_reactions.is_reaction("Marco: brava, pausa però")  # English stop words alone: "però" says


def test_a_unit_after_a_number_makes_no_piece() -> None:
    assert not topic_names.is_piece("bloem", ["500 g bloem (400 wit)", "Deeg: 500 g bloem, 250 ml melk"], set())
