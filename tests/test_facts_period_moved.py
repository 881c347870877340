"""A period moved however it is said (lead, after facts26).

facts26 read "fim de março", "Mitte Mai", "Q3" as dates and a period moved as an update, but only when the newer held a
change word and said nothing the older did not. The lead's blind probe (6 moved periods in 5 languages, written before
facts26's code) found 0 of 6 superseded: the thing itself was named by a change word ("la mudanza", "le
déménagement": dropped as change words, the subject vanished), modal auxiliaries differed ("soll … fertig sein" /
"wird erst … fertig"), and the newer said why after its period ("launch moved to Q4 after the funding delay")."""

from __future__ import annotations

import pytest

from memengine import fact_period


@pytest.mark.parametrize(("old", "new"), [
    ("La mudanza será a principios de agosto", "la mudanza se retrasa a mediados de septiembre"),
    ("Le déménagement est prévu fin juin", "le déménagement est repoussé à début juillet"),
    ("Der Umzug ist für Anfang Oktober geplant", "der Umzug wurde auf Mitte November verschoben"),
    # the same frame with another period needs no change word, as another day does
    ("Die Renovierung soll Anfang Mai fertig sein", "die Renovierung wird erst Ende Juni fertig"),
    ("The roof repair will be done in early April", "The roof repair will be done in late May"),
    # a change word lets the newer say why after its period
    ("The product launch is planned for Q2", "launch moved to Q4 after the funding delay"),
    ("La entrega del informe es a finales de marzo", "la entrega del informe se retrasa a mediados de abril por la auditoría"),
])
def test_a_moved_period_is_an_update(old: str, new: str) -> None:
    assert fact_period.moved(old, new) is not None


@pytest.mark.parametrize(("old", "new"), [
    # without a change word the newer says nothing the older does not
    ("Die Renovierung soll Anfang Mai fertig sein", "Die Renovierung des Bads soll Ende Juni fertig sein"),
    ("The roof repair will be done in early April", "The garden fence will be done in late May"),
    ("The product launch is planned for Q2", "The app launch is planned for Q3"),
    # the same period, or said to stand
    ("The roof repair is planned for early April", "The roof repair is still planned for early April"),
    ("La mudanza será a principios de agosto", "la mudanza sigue a principios de agosto"),
    # before the period, a change word does not open the newer to other things
    ("The audit is due at the end of June", "the tax filing moved to mid-July"),
])
def test_another_thing_or_the_same_period_is_no_update(old: str, new: str) -> None:
    assert fact_period.moved(old, new) is None
