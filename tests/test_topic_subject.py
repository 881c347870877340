"""A one-word topic name must be a word the chat uses as a subject (lead, round 13: topics of unseen chats were
named "fully" from "fully booked", "calendar" from "put it in the calendar for March", "left" from "the group head
on the left"). The test is general, not a list: the word must head a noun phrase somewhere in the members (after a
determiner, possessive or number not in a place adjunct, before a copula, or capitalised inside a sentence)."""

from __future__ import annotations

import pytest

from memengine import topic_names

STOP = frozenset("""the a an my our your his her their is was are were to of in on at for with and or it we i you
he she they me us put be for booked get got so that this there them""".split())
RARE = topic_names.idf(lambda w: 1, 10)


def named(texts: list[str]) -> str:
    return topic_names.name(texts, STOP, set(), RARE)


@pytest.mark.parametrize("word, texts", [
    ("fully", ["the hotel is fully booked for the weekend", "ugh fully booked again, the whole town"]),
    ("left", ["the group head on the left is Marco", "on the left you can see the old mill"]),
    ("calendar", ["put it in the calendar for March", "I added it to the calendar already"]),
    ("mostly", ["the boxes are mostly packed", "we are mostly set for the move"]),
])
def test_a_word_never_heading_a_noun_phrase_is_no_subject(word: str, texts: list[str]) -> None:
    assert not topic_names.used_as_subject(word, texts)


@pytest.mark.parametrize("word, texts", [
    ("boat", ["the boat needs a new engine", "sold it, no more boat"]),
    ("flat", ["our flat is ready in May", "viewing flat tomorrow"]),
    ("tickets", ["got 2 tickets for Saturday", "tickets are in my inbox"]),
    ("engine", ["the boat's engine is dead", "new engine ordered"]),
    ("Gdańsk", ["we go to Gdańsk on Friday", "Gdańsk was lovely"]),
    ("Wohnung", ["die Wohnung ist verkauft", "Wohnung besichtigt"]),
    ("fiesta", ["la fiesta es el sábado", "fiesta confirmada"]),
    ("huis", ["het huis is verkocht", "huis opgeruimd"]),
    ("calendar", ["the calendar is full this week", "calendar sync broke"]),
])
def test_a_word_heading_a_noun_phrase_is_a_subject(word: str, texts: list[str]) -> None:
    assert topic_names.used_as_subject(word, texts)


def test_a_chat_that_writes_no_articles_is_not_judged() -> None:
    # Polish has no articles: a noun there never follows one, so the test would refuse every word
    texts = ["mieszkanie sprzedane wczoraj", "mieszkanie jeszcze nie", "kupiec chce mieszkanie szybko"]
    assert topic_names.used_as_subject("mieszkanie", texts)


def test_fully_booked_gives_way_to_the_subject() -> None:
    texts = ["the hotel is fully booked for the weekend", "fully booked everywhere, call the hotel",
             "Porto fully booked too"]
    assert named(texts) == "hotel"


def test_on_the_left_gives_way_to_the_subject() -> None:
    texts = ["the group photo: Marco on the left", "the group photo is up, Ana on the left",
             "on the left Rui, then Ines"]
    assert named(texts).lower() == "group photo"


def test_in_the_calendar_gives_way_to_the_subject() -> None:
    texts = ["the gala is on 12 March, put it in the calendar", "in the calendar now: gala dinner",
             "calendar done"]
    assert named(texts).lower() in ("gala", "gala dinner")


def test_when_no_word_is_a_subject_the_best_run_stays() -> None:
    texts = ["fully booked", "fully booked again"]
    assert named(texts) == "fully"


def test_an_acronym_inside_a_sentence_is_a_name_but_shouting_is_not() -> None:
    assert topic_names.used_as_subject("FCM", ["i går vandt FCM igen", "FCM vandt 2-0 over Brøndby, det er vildt"])
    assert not topic_names.used_as_subject("FULLY", ["the hotel is SO FULLY BOOKED", "the town is FULLY BOOKED"])
