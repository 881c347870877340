"""Topic names read as phrases: no possessive left hanging at a name's end (memengine/topic_names.py)."""

from __future__ import annotations

from memengine import topic_names

STOP = frozenset({"the", "is", "on", "their", "are", "for"})


def _name(*texts: str) -> str:
    return topic_names.name(list(texts), STOP, set(), lambda k: 1.0)


def test_a_possessive_at_the_end_of_a_name_is_dropped_inside_it_kept() -> None:
    assert _name("Casa Verde's launch moved", "Casa Verde's photos arrived") == "Casa Verde"
    assert _name("Casa Verde’s photos", "Casa Verde’s store") == "Casa Verde"
    assert _name("Luca's school trip is on", "Luca's school trip money") == "Luca's school trip"
    assert _name("the boss's office", "boss's office keys") == "boss's office"
