"""A thing's number told after the verb is the value a fact states (lead, session 8): "The office is on floor 3"
then "The office is on floor 4" was a new fact beside the old one ("floor 3" / "floor 4" read as two things, like
"room 4 has a projector" / "room 5 has a projector"), so a plain update was swallowed. Real model, real stores."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_outcome

from memengine import facts


@pytest.mark.parametrize(("old", "new"), [
    ("The office is on floor 3", "The office is on floor 4"),
    ("The printer is in room 204", "The printer is in room 310"),
    ("Ana's locker is number 17", "Ana's locker is number 23"),
    ("Das Büro ist im Raum 12", "Das Büro ist im Raum 14"),
    ("I am in room 12", "I am in room 14"),
])
def test_a_number_told_after_the_verb_is_the_value(real, tmp_path: Path, old: str, new: str
                                                   ) -> None:  # type: ignore[no-untyped-def]
    assert facts.compare(old, new) is not None
    superseded, _ = pair_outcome(tmp_path / "m.db", old, new, real)
    assert superseded


@pytest.mark.parametrize(("old", "new"), [
    ("Room 4 has a projector", "Room 5 has a projector"),  # the number names which room: two things
    ("Server 42 runs Ubuntu", "Server 43 runs Ubuntu"),
    ("Version 2 was released in May", "Version 3 was released in May"),
    ("Faro es una API en Node con MongoDB desplegada en AWS", "Faro es una API en Node 20 ahora"),  # a version
    ("The office is on floor 3", "The office is on floor 3 next to the kitchen"),
    ("coffee note number 1", "coffee note number 2"),  # no verb: numbered notes, two things
])
def test_a_number_naming_the_thing_or_a_product_version_changes_nothing(old: str, new: str) -> None:
    assert facts.compare(old, new) is None
