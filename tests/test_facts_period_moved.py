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


# --------------------------------------------------------------------------- what facts26 cost the lead's blind probe
# "julien a déménagé à Nantes cet été" (after "Julien habite à Lyon") and "cambiamos a Luna al veterinario de la calle
# Mayor" (after "el veterinario de Luna es la clínica San Antón") superseded before facts26 and were new facts after:
# "cet été" was read as a date the older states none of (another attribute), "la clínica" / "la calle" as two jobs.


@pytest.mark.parametrize("text", ["julien a déménagé à Nantes cet été", "my sister moved to York this summer",
                                  "Wir sind diesen Sommer nach Kiel gezogen", "nos mudamos a Bilbao este verano"])
def test_this_season_is_when_it_happened_no_date(text: str) -> None:
    assert fact_period.periods(text) == ()


@pytest.mark.parametrize("text", ["The launch is next spring", "Der Umzug ist im Frühjahr", "On déménage au printemps"])
def test_a_coming_season_is_a_date(text: str) -> None:
    assert fact_period.periods(text)


def test_the_kind_word_before_a_name_is_no_job() -> None:
    from memengine import fact_role

    assert not fact_role.another_role("el veterinario de Luna es la clínica San Antón",
                                      "cambiamos a Luna al veterinario de la calle Mayor, más cerca")
    # a job said as an apposition, or after a possessive, still is one
    assert ("database",) in fact_role.roles("The API server uses the database, PostgreSQL 12")
    assert ("mail", "through") in fact_role.roles("The API server sends its mail through Postmark")


@pytest.mark.parametrize(("old", "new"), [
    ("Julien habite à Lyon", "julien a déménagé à Nantes cet été"),
    ("el veterinario de Luna es la clínica San Antón", "cambiamos a Luna al veterinario de la calle Mayor, más cerca"),
])
def test_real_model_the_moves_supersede_again(real, tmp_path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    from conftest import pair_outcome

    assert pair_outcome(tmp_path / "s.db", old, new, real) == (True, False)
