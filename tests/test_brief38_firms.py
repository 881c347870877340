"""Brief, round 38 (brief38): a firm named with no trade word ("The Velvet Foxes", "Rosalie's", "chez Dufour") is no
person talked about, told by how every turn says it: after an article, as a bare possessive, after "chez"."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_firms, brief_places, brief_talkedabout


def _chat(store: core.MemoryStore, turns: list[tuple[str, str]], start: datetime) -> None:
    for k, (author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="fete", position=k, author=author,
                    event_at=start + timedelta(days=k))


def test_said_as_place() -> None:
    """Every place after an article / "chez" or a bare possessive: a place; one turn saying it as a person: not."""
    foxes = ["band news: The Velvet Foxes will play!", "the Velvet Foxes?? they're loud",
             "ugh. The Velvet Foxes have pulled out"]
    assert brief_firms.said_as_place("Velvet Foxes", foxes)
    assert not brief_firms.said_as_place("Velvet Foxes", foxes + ["Velvet Foxes said no"])
    assert brief_firms.said_as_place("Rosalie", ["Rosalie's on the 16th?", "I'll book Rosalie's for 8 people",
                                                 "Rosalie's booked for May 16th"])
    assert brief_firms.said_as_place("Dufour", ["un gâteau de chez Dufour", "commandé chez Dufour, un fraisier"])
    assert not brief_firms.said_as_place("Jess", ["staying at Jess's tonight", "at Jess's wedding"])
    assert not brief_firms.said_as_place("Dee", ["my friend Dee does a set", "Dee needs a socket"])
    assert not brief_firms.said_as_place("Priya", ["welcome to the family Priya"])
    assert not brief_firms.said_as_place("Nobody", ["no name here"])


_FETE = [
    ("Lucy", "band news: The Velvet Foxes will play! Dee might come too"),
    ("Tom", "the Velvet Foxes?? they played my cousin's wedding. Dee says they're loud"),
    ("Lucy", "ugh. The Velvet Foxes have pulled out. Dee will play instead, Dee has an amp"),
    ("Helen", "Dee is a star. let's ask Dee about a power socket"),
]


def test_a_band_gets_no_people_line_a_friend_does(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Switched on: the band said only after an article has no line; the friend has."""
    monkeypatch.setattr(brief_firms, "PLACE_SAID", True)
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _FETE, datetime(2026, 4, 18, 11))
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"lucy", "tom", "helen"})]
        assert names == ["Dee"]
    finally:
        store.close()


def test_as_landed_the_band_keeps_its_line(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As landed (PLACE_SAID off: it gained on no set its author had not read): the band is a person talked about,
    unless brief40's place frames ("The Velvet Foxes have pulled out": a plural verb after it) read it as no person."""
    assert not brief_firms.PLACE_SAID
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _FETE, datetime(2026, 4, 18, 11))
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"lucy", "tom", "helen"})]
        assert names == ["Dee"]
        monkeypatch.setattr(brief_places, "PLACES_NO_PERSON", False)
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"lucy", "tom", "helen"})]
        assert names == ["Dee", "Velvet Foxes"]
    finally:
        store.close()
