"""Month short forms and interjections name no topic (lead, round 12: a chat's topics were named "nov" and "phew")."""

from __future__ import annotations

import pytest

from memengine import topic_names


@pytest.mark.parametrize("word", ["nov", "Dec", "sept", "aug"])
def test_month_short_forms_are_weak(word: str) -> None:
    assert topic_names.weak(word)


@pytest.mark.parametrize("word", ["Jan", "mar", "Mayfair"])
def test_short_forms_that_are_also_names_or_words_are_not(word: str) -> None:
    # "Jan" is a first name, "mar" the sea in Spanish: they may still name a topic
    assert not topic_names.weak(word)


@pytest.mark.parametrize("word", ["phew", "Oof", "yikes", "welp"])
def test_interjections_are_filler(word: str) -> None:
    assert topic_names.is_filler(word)


def test_a_month_short_form_gives_way_to_the_place() -> None:
    rare = topic_names.idf(lambda w: 1, 10)
    texts = ["wedding is confirmed, nov 14 in austin", "start date nov 2", "Osteria Nonna saturday?",
             "booked Osteria Nonna, table for 2", "back nov 15"]
    assert topic_names.name(texts, frozenset({"is", "in", "for", "date", "back", "start"}), set(), rare) == "Osteria Nonna"
