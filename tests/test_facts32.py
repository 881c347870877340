"""facts32: one person's fact told again in another language with a new value (memengine/fact_crossed.py).

Sentences of my own (not held-out 10's or 11's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_as_role, fact_crossed, fact_left_named, fact_provider, supersession
from memengine.fact_slot_weights import WEIGHTS


@pytest.mark.parametrize(("old", "new", "attr"), [
    # where a relative lives, the kinship word in two languages
    ("Die Eltern von Timo wohnen in Kassel", "Timo's parents have moved to Göttingen", "home"),
    ("A mãe do Tiago vive em Faro", "Tiago's mum has moved into a flat in Lagos", "home"),
    # how one gets to work: another vehicle
    ("Inge fietst naar haar werk", "Inge takes the bus to work since her knee operation", "commute"),
    ("Matteo va al lavoro in treno", "Matteo now drives to work, the line is closed", "commute"),
    # a child's school
    ("Noé, le fils de Claire, est à l'école Jules-Ferry", "Noé started at the Collège Pasteur in September", "school"),
    # a gym, a course, a doctor
    ("Lars trainiert im Fitnessstudio am Hauptbahnhof", "Lars now trains at PureGym in Altona", "gym"),
    ("Ana va a clases de alemán los martes", "Ana's German classes have moved to Thursdays", "course"),
    ("De huisarts van Pieter is dokter Visser", "Pieter's GP is Dr. Smit now", "doctor"),
    # a job: a role where it is held, then "joined … as"
    ("Giulia è infermiera al Policlinico", "Giulia has joined a private clinic in Parma as a nurse", "work"),
    # in one language too, for an attribute named by a noun of its own (a gym, a school, a way to work)
    ("Lars trainiert im Fitnessstudio am Hauptbahnhof", "Lars trainiert jetzt bei PureGym in Altona", "gym"),
    ("Sofie zit op de Montessorischool in Zeist", "Sofie is overgestapt naar de Vrije School in Zeist", "school"),
])
def test_crossed(old: str, new: str, attr: str) -> None:
    assert fact_crossed.crossed(old, new) == f"{fact_crossed.REASON}: {attr}"


@pytest.mark.parametrize(("old", "new"), [
    ("Die Eltern von Timo wohnen in Kassel", "Mia's parents have moved to Göttingen"),  # another person's parents
    ("Die Eltern von Timo wohnen in Kassel", "Timo's sister has moved to Göttingen"),  # another relative
    ("Die Eltern von Timo wohnen in Kassel", "Timo has moved to Göttingen"),  # Timo, not his parents
    ("Inge fietst naar haar werk", "Inge's husband takes the bus to work now"),  # someone else's commute
    ("Inge fietst naar haar werk", "Inge might take the bus to work in winter"),  # not asserted
    ("Inge fietst naar haar werk", "Inge cycles to work too, along the canal"),  # the same said again
    ("Lars trainiert im Fitnessstudio am Hauptbahnhof", "Lars went to the cinema at Hauptbahnhof now and then"),
    ("Ana va a clases de alemán los martes", "Ana's sister has German classes on Thursdays now"),
    ("De huisarts van Pieter is dokter Visser", "Pieter saw Dr. Visser about his knee"),  # no new value, no change
    ("Lars trainiert im Fitnessstudio am Hauptbahnhof", "Lars now works at PureGym in Altona"),  # another attribute
    # in one language, where one lives or works is the rules' (their verbs), not this reading's
    ("Ana vive en Triana", "Ana se ha mudado a Nervión"),
])
def test_not_crossed(old: str, new: str) -> None:
    assert fact_crossed.crossed(old, new) is None


def test_whose() -> None:
    assert fact_crossed.whose("De ouders van Bas wonen in Zwolle") == (frozenset({"bas"}), "parents")
    assert fact_crossed.whose("Bas's parents live in Zwolle") == (frozenset({"bas"}), "parents")
    assert fact_crossed.whose("Noé, le fils de Claire, est à l'école") == (frozenset({"noe"}), "")
    assert fact_crossed.whose("Claire's son Noé is at school") == (frozenset({"noe"}), "")
    assert fact_crossed.whose("Tiagos Handyvertrag läuft bei O2") == (frozenset({"tiagos"}), "")


def test_real_model_an_english_note_retires_the_dutch_one(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert real.model_id == WEIGHTS["model_id"]
    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        train = s.store("Inge gaat met de trein naar haar werk", "semantic").id
        parents = s.store("De ouders van Inge wonen in Deventer", "semantic").id
        dog = s.store("Inge heeft een hond, Bolt", "semantic").id
        res = s.store("Inge cycles to work now that her office moved to the city centre", "semantic")
        assert res.supersedes == [train]
        res = s.store("Inge's parents have moved to Apeldoorn", "semantic")
        assert res.supersedes == [parents]
        res = s.store("Inge's sister has moved to Zwolle", "semantic")
        assert res.supersedes == [] and res.may_update == []
        assert dog not in res.supersedes
    finally:
        s.close()


@pytest.mark.parametrize(("old", "new", "role"), [
    ("Kofi is a staff nurse at the Royal Free", "Kofi started as a ward manager at the Whittington in May", "ward"),
    ("Lena arbeitet als Verkäuferin bei Rewe", "Lena hat als Filialleiterin bei Edeka angefangen", "filialleiterin"),
    ("Marta es cajera en un Mercadona", "Marta ha empezado como reponedora en Lidl", "reponedora"),
    ("O Rui é motorista da Carris", "O Rui agora trabalha como taxista no aeroporto", "taxista"),
    ("Paolo fa il barista in un bar di Brera", "Paolo ora fa il pizzaiolo a Lambrate", "pizzaiolo"),
    ("Joris werkt als kok in een hotel", "Joris werkt tegenwoordig als bezorger voor Thuisbezorgd", "bezorger"),
    # the same role, held where the older does not say
    ("Ana é professora numa escola de Braga", "A Ana começou como professora no Colégio D. Diogo", "professora"),
])
def test_role_now(old: str, new: str, role: str) -> None:
    got = fact_as_role.role_now(old, new)
    assert got is not None and got.reason == f"{fact_as_role.REASON}: {role}"


@pytest.mark.parametrize(("old", "new"), [
    ("Kofi is a staff nurse at the Royal Free", "Kofi's sister started as a ward manager at the Whittington"),
    ("Kofi is a staff nurse at the Royal Free", "Kofi also works as a bar tender on Saturdays"),  # a second job
    ("Kofi is a staff nurse at the Royal Free", "Kofi volunteers as a first-aider at parkrun now"),
    ("Kofi is a staff nurse at the Royal Free", "Kofi might start as a ward manager next year"),  # not asserted
    ("Kofi cycles to work along the canal", "Kofi started as a ward manager at the Whittington"),  # no job stated
    ("Kofi's GP is Dr. Mensah", "Kofi started as a ward manager at the Whittington"),  # whose GP, not Kofi's job
    ("Kofi is a staff nurse at the Royal Free", "Kofi now works as a staff nurse at the Royal Free, nights"),  # same
])
def test_no_role_now(old: str, new: str) -> None:
    assert fact_as_role.role_now(old, new) is None


def test_a_switch_naming_what_it_left() -> None:
    old, bank = "Kofi's electricity supplier is EDF", "Kofi's current account is with Barclays"
    new = "Kofi is with Octopus now, EDF kept raising the direct debit"
    got = fact_left_named.left_named(old, new)
    assert got is not None and got.reason == f"{fact_left_named.REASON}: edf -> octopus"
    # the bank's kind word ("debit") is no switch from the bank: the write names what it left
    assert fact_provider.switched(bank, new) is not None and fact_left_named.names_another(bank, new)
    assert fact_left_named.left_named(bank, new) is None
    assert supersession._provider(bank, new) is None
    # a bare switch naming nothing else stands as fact_provider reads it
    assert not fact_left_named.names_another("Kofi banks with Barclays", "Kofi has switched to Monzo for the savings pots")
    # someone else's switch, a hypothesis
    assert fact_left_named.left_named(old, "Kofi's sister is with Octopus now, EDF kept raising the bill") is None
    assert fact_left_named.left_named(old, "Kofi might move to Octopus, EDF keeps raising the bill") is None
