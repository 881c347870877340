"""Brief, round 40 (brief40): a pub, a hall or a firm named bare and capitalised ("Anchor have us down", "at
Greystones", "the Plough") takes a place's frames and no person's: no People line; a person talked about, however
few the signs, keeps hers."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_places, brief_talkedabout


def _chat(store: core.MemoryStore, turns: list[tuple[str, str]], start: datetime) -> None:
    for k, (author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="quiz", position=k, author=author,
                    event_at=start + timedelta(days=k))


def test_frames_of_a_place_and_of_a_person() -> None:
    """Each frame alone, on sentences written for this test."""
    assert brief_places.frames("Mitre", ["Mitre have the back room free on fridays"]) == (1, 0)
    assert brief_places.frames("Mitre", ["quiz night at Mitre again?"]) == (1, 0)
    assert brief_places.frames("Mitre", ["the Mitre does a curry night"]) == (1, 0)
    assert brief_places.frames("Mitre", ["Mitre rang, they lost our booking"]) == (1, 0)
    assert brief_places.frames("Mitre", ["Mitre rang back"]) == (0, 0)  # a person rings too: neither
    # a person: a pronoun, a person's verb or belonging, addressed, a role
    assert brief_places.frames("Jonah", ["Jonah rang, he lost his keys"]) == (0, 1)
    assert brief_places.frames("Jonah", ["Jonah said no"]) == (0, 1)
    assert brief_places.frames("Jonah", ["Jonah's wife is back"]) == (0, 1)
    assert brief_places.frames("Jonah", ["Lou: Jonah!! you made it"]) == (0, 1)
    assert brief_places.frames("Jonah", ["thanks Jonah"]) == (0, 1)
    assert brief_places.frames("Jonah", ["my cousin Jonah can drive"]) == (0, 1)
    # what a person takes too is no place: "at Jonah's" (his home), "laughing at Jonah", "Jonah and Bea have",
    # "they" that is another plural ("the boxes")
    assert brief_places.frames("Jonah", ["party at Jonah's on friday"]) == (0, 0)
    assert brief_places.frames("Jonah", ["we were laughing at Jonah all night"]) == (0, 0)
    assert brief_places.frames("Jonah", ["Jonah and Bea have a van"]) == (0, 0)
    assert brief_places.frames("Bea", ["Jonah and Bea have a van"]) == (0, 0)
    assert brief_places.frames("Jonah", ["Jonah packed the boxes, they weigh a ton"]) == (0, 0)


def test_said_as_place_needs_no_person_frame() -> None:
    mitre = ["Mitre have the back room free", "quiz at Mitre on the 3rd"]
    assert brief_places.said_as_place("Mitre", mitre)
    assert not brief_places.said_as_place("Mitre", mitre + ["Mitre said no dogs"])  # one person's frame: a person
    assert not brief_places.said_as_place("Jonah", ["Jonah rang back", "ask Jonah"])  # no frame at all: a person


_QUIZ = [
    ("Lou", "quiz team: Mitre have moved the quiz to thursdays"),
    ("Sid", "Mitre always do that. Jonah can't do thursdays, he has five-a-side"),
    ("Ama", "we could try the quiz at Mitre's rival, Fox & Hound? Jonah would come"),
    ("Lou", "booked the table at Mitre for thursday anyway, Jonah said he'll swap his game"),
    ("Sid", "Jonah is a legend. Mitre it is"),
]


def test_a_pub_named_bare_gets_no_people_line_a_friend_does(db_path: Path) -> None:
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _QUIZ, datetime(2026, 3, 2, 19))
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"lou", "sid", "ama"})]
        assert names == ["Jonah"]
    finally:
        store.close()


def test_switched_off_the_pub_is_a_person_talked_about(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(brief_places, "PLACES_NO_PERSON", False)
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _QUIZ, datetime(2026, 3, 2, 19))
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"lou", "sid", "ama"})]
        assert names == ["Mitre", "Jonah"]
    finally:
        store.close()
