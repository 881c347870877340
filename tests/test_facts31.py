"""facts31: a person taken on elsewhere (memengine/fact_hired.py), a provider switched with the new one named
alone (fact_provider.py), "giving" is no "giving up" (fact_quit.py), one person's fact told in two languages is
left to the learned score (fact_slot.py's language veto), where people moved to is a place (fact_moved_to.py), a
relative's fact is not the person's own (fact_person.relative_of).

Sentences of my own (not held-out 10's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import (
    fact_hired,
    fact_moved_to,
    fact_person,
    fact_provider,
    fact_quit,
    fact_slot,
    supersession,
)
from memengine.fact_slot_weights import WEIGHTS


@pytest.mark.parametrize(("old", "new", "phrase"), [
    ("Owen works as a data engineer at Ocado", "Owen was hired by Deliveroo as a platform engineer", "was hired"),
    ("Owen works as a data engineer at Ocado", "Owen has just been headhunted by Monzo", "been headhunted"),
    ("Owen works as a data engineer at Ocado", "Owen took a new job in Leeds", "took a new job"),
    ("Élodie travaille comme juriste dans un cabinet à Lille", "Élodie a été embauchée par la mairie de Roubaix",
     "a ete embauchee"),
    ("Javier trabaja de camarero en un bar de Triana", "A Javier lo han contratado en un hotel de la playa",
     "lo han contratado"),
    ("Javier trabaja de camarero en un bar de Triana", "Javier ha fichado por una cadena de hoteles", "ha fichado por"),
    ("O Tiago trabalha numa agência de viagens", "O Tiago foi admitido nos CTT", "foi admitido"),
    ("Lorenzo lavora in banca a Bari", "Lorenzo è stato assunto da un'azienda di Lecce", "e stato assunto"),
    ("Wiebke arbeitet als Buchhalterin in Kiel", "Wiebke wurde von der Stadt Flensburg als Kämmerin eingestellt",
     "von der stadt flensburg als kammerin eingestellt"),
    ("Femke werkt als verpleegkundige in het UMC", "Femke is aangenomen bij een huisartsenpraktijk", "is aangenomen"),
    # a role held where it is, whatever it drives, is a job
    ("Le frère d'Élodie, Malik, est conducteur de bus aux TAN", "Malik a été embauché comme chauffeur de car",
     "a ete embauche"),
    # a teacher now teaching at another school, said with a word of time
    ("Ines ist Lehrerin an einer Grundschule in Kiel", "Ines unterrichtet seit Februar an einem Gymnasium in Eckernförde",
     "einem"),
])
def test_taken_on_elsewhere(old: str, new: str, phrase: str) -> None:
    got = fact_hired.hired(old, new)
    assert got is not None and got.kind == "slot"
    assert got.reason == f"{fact_hired.REASON}: {phrase}"


@pytest.mark.parametrize(("old", "new"), [
    ("Owen works as a data engineer at Ocado", "Owen hired a cleaner for the flat"),  # he hires: no new job
    ("Owen works as a data engineer at Ocado", "Owen's sister was hired by Deliveroo"),  # someone else
    ("Owen works as a data engineer at Ocado", "Owen might get hired by Deliveroo"),  # not asserted
    ("Owen cycles to work along the canal", "Owen was hired by Deliveroo"),  # the commute, not the job
    ("Élodie va au boulot en tram", "Élodie a été recrutée par la mairie"),  # idem
    ("Owen works night shifts on Fridays", "Owen was hired by Deliveroo"),  # a shift: a fact of the job
    ("Owen plays squash at the Leeds club", "Owen was hired by Deliveroo"),  # no job
    ("O Tiago trabalha numa agência de viagens", "O Tiago entrou para o coro da igreja"),  # a choir joined
    ("Ines ist Lehrerin an einer Grundschule in Kiel", "Ines unterrichtet Mathe und Sport"),  # a detail
    ("Ines ist Lehrerin an einer Grundschule in Kiel", "Ines unterrichtet an einer Grundschule in Kiel"),  # the same
])
def test_not_taken_on_elsewhere(old: str, new: str) -> None:
    assert fact_hired.hired(old, new) is None


def test_giving_is_no_giving_up() -> None:
    old = "Owen works as a data engineer at Ocado in Leeds"
    assert fact_quit.gave_up(old, "Owen is giving a talk at the Leeds data meetup") is None
    assert fact_quit.gave_up("Owen plays squash on Mondays", "Owen has given squash up") is not None
    assert fact_quit.gave_up("Owen plays squash on Mondays", "Owen gave up squash after his knee op") is not None


def test_real_model_a_hire_retires_the_job_not_the_commute(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert real.model_id == WEIGHTS["model_id"]
    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        job = s.store("Femke werkt als verpleegkundige in het Antonius ziekenhuis", "semantic").id
        bike = s.store("Femke fietst elke dag naar haar werk", "semantic").id
        res = s.store("Femke is aangenomen bij een huisartsenpraktijk in Zeist", "semantic")
        assert res.supersedes == [job]
        assert bike not in res.may_update
    finally:
        s.close()


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("Owen banks with Barclays", "Owen has switched to Starling for the savings spaces", "barclays -> starling"),
    ("Owen's mobile is on a Vodafone contract", "Owen is on Lebara now, 20 GB for £8", "vodafone -> lebara"),
    ("Élodie a son forfait mobile chez Orange", "Élodie est passée chez Sosh pour son portable", "orange -> sosh"),
    ("Wiebke hat ihren Strom von den Stadtwerken Kiel", "Wiebke ist zu Naturstrom gewechselt, Strom aus Wind",
     "stadtwerken kiel -> naturstrom"),
    ("Nuria tiene el seguro del coche con Mapfre", "Nuria se ha pasado a Línea Directa para el coche",
     "mapfre -> linea directa"),
])
def test_provider_switched(old: str, new: str, reason: str) -> None:
    assert fact_provider.switched(old, new) == f"{fact_provider.REASON}: {reason}"


@pytest.mark.parametrize(("old", "new"), [
    ("Owen banks with Barclays", "Owen is on Lebara now, 20 GB for £8"),  # a phone plan's kind after a bank
    ("Owen banks with Barclays", "Owen's sister has switched to Starling"),  # someone else
    ("Owen banks with Barclays", "Owen is thinking of switching to Starling"),  # not asserted
    ("Paul vit à Bordeaux", "Paul est passé à Toulouse"),  # where one lives is no provider
    ("Paul est directeur commercial chez Danone", "Paul est passé chez Lactalis"),  # a job (fact_hired's reading)
    ("Owen plays squash at the Leeds club", "Owen has switched to Padel Club"),  # no kind on either side
    ("Owen banks with Barclays", "Owen's pension is now with Nest"),  # another kind: a pension
    ("Femke zit voor internet bij KPN", "Femke is overgestapt naar Odido"),  # a bare brand: which provider?
    ("O Tiago tem o telemóvel na NOS", "O Tiago passou para a Vodafone"),
])
def test_no_provider_switch(old: str, new: str) -> None:
    assert fact_provider.switched(old, new) is None


def test_real_model_a_bare_brand_of_several_providers_retires_none(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        bank = s.store("Owen banks with Barclays", "semantic").id
        phone = s.store("Owen's phone is on a Vodafone contract", "semantic").id
        res = s.store("Owen has switched to Lebara, it's half the price", "semantic")
        assert bank not in res.supersedes and phone not in res.supersedes
        res = s.store("Owen has switched to Starling for the savings spaces", "semantic")
        assert res.supersedes == [bank]
    finally:
        s.close()


def test_one_person_in_two_languages_is_no_language_veto() -> None:
    old = "Wiebke singt dienstags im Chor der Nikolaikirche"
    assert fact_slot.features(old, "Wiebke's choir now rehearses on Thursday evenings", 0.5, 0.5).veto is None
    # two people's facts in two languages: still vetoed
    assert fact_slot.features(old, "Joost's choir now rehearses on Thursday evenings", 0.5, 0.5).veto == "language"


@pytest.mark.parametrize(("text", "place"), [
    ("Tiago e a Mariana mudaram-se para Setúbal", "setubal"),
    ("Wiebke und Joost sind nach Lübeck gezogen", "lubeck"),
    ("Femke is verhuisd naar Zwolle", "zwolle"),
    ("Femke is naar Zwolle verhuisd", "zwolle"),
    ("Élodie a déménagé à Rennes", "rennes"),
    ("Owen moved to Leeds", "leeds"),
    ("Owen moved the database to Postgres", None),  # an object moved: no place said
    ("The Postgres cluster moved to AWS", None),  # a thing, not people
    ("We moved to Leeds", None),  # nobody named
])
def test_destination(text: str, place: str | None) -> None:
    assert fact_moved_to.destination(text) == place


@pytest.mark.parametrize(("old", "new", "why"), [
    ("Wiebkes Eltern wohnen in Husum", "Wiebke und Joost sind nach Lübeck gezogen", "eltern of wiebke"),
    ("Los padres de Nuria viven en Jerez", "Nuria y Pablo se van una semana a Cádiz", "padres of nuria"),
    ("Owen's sister Harriet lives in Bristol", "Owen moved to Leeds", "sister of owen"),
    ("Owen's sister Harriet lives in Bristol", "Owen's sister moved to Cardiff", ""),  # the sister's own news
    ("Owen's sister Harriet lives in Bristol", "Harriet moved to Cardiff", ""),  # Harriet herself
    ("Owen lives in Leeds", "Owen moved to York", ""),  # no relative
])
def test_relative_of(old: str, new: str, why: str) -> None:
    assert fact_person.relative_of(old, new) == why


def test_a_move_retires_no_pet_name() -> None:
    old = (1, "O Tiago e a Mariana têm uma gata chamada Nata", "2026-01-01T00:00:00Z", None)
    home = (2, "O Tiago e a Mariana moram em Almada", "2026-01-01T00:00:00Z", None)
    got = supersession.plan(3, "O Tiago e a Mariana mudaram-se para Setúbal", "2026-02-01T00:00:00Z",
                            [(old, 0.7), (home, 0.8)])
    assert [d.loser for d in got if not d.maybe] == [2]

