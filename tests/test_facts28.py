"""facts28: a person who moved, said with the person as the subject.

memengine/fact_relocated.py: "Tomás moved to Lisbon" after "my brother Tomás lives in Porto" (the older's subject
names the person as the one living there, the newer's subject is the person's name alone, or two names joined by
"and"); someone else's move ("Tomás's wife moved to Lisbon") or how the person lives ("lebt jetzt vegan") retires
nothing. Sentences of my own (not held-out 7's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_relocated


@pytest.mark.parametrize(("old", "new", "who"), [
    ("My brother Tomás lives in Porto", "Tomás moved to Lisbon in the spring", "tomas"),
    ("Kofi's cousin Ama lives in Leeds", "Ama has relocated to Manchester", "ama"),
    ("Die Tochter von Petra, Lea, wohnt in Kiel", "Lea ist letzten Monat nach Rostock gezogen", "lea"),
    ("Le fils de Claire, Hugo, habite à Lille", "Hugo a déménagé à Rouen", "hugo"),
    ("La prima de Marta, Elena, vive en Burgos", "Elena se ha mudado a León", "elena"),
    ("O tio do Paulo, Jorge, mora em Faro", "O Jorge foi morar para Évora", "jorge"),
    ("La zia di Sara, Paola, abita a Lecce", "Paola si è trasferita a Bari", "paola"),
    ("Mijn zus Lotte woont in Zwolle", "Lotte is verhuisd naar Deventer", "lotte"),
    ("Ines lives in Antwerp", "Ines and Raj moved to Ghent", "ines"),  # two people, one of them the older's
    ("Bram woont in Gent", "Bram woont nu in Brugge", "bram"),  # the verb of living and a word of now
])
def test_a_person_moved(old: str, new: str, who: str) -> None:
    got = fact_relocated.moved(old, new)
    assert got is not None and got.reason.startswith(fact_relocated.REASON) and f": {who} ->" in got.reason


@pytest.mark.parametrize(("old", "new"), [
    ("My brother Tomás lives in Porto", "Tomás's wife moved to Lisbon"),  # someone else
    ("My brother Tomás lives in Porto", "My brother's friend Tomás moved to Lisbon last year"),
    ("Tomás's sister lives in Porto", "Tomás moved to Lisbon"),  # the older is his sister's home
    ("Die Tochter von Petra, Lea, wohnt in Kiel", "Petra ist nach Rostock gezogen"),
    ("Lea wohnt in Kiel", "Lea lebt jetzt vegan"),  # how she lives, no place
    ("Hugo habite à Lille", "Si Hugo déménage à Rouen, il vendra sa voiture"),  # a hypothesis
    ("Hugo habite à Lille", "Hugo n'a pas déménagé à Rouen"),  # a negation
    ("Paola abita a Lecce", "Paola si è trasferita a Lecce"),  # the same place
    ("Paola lavora a Lecce", "Paola si è trasferita a Bari"),  # not where she lives
])
def test_no_person_moved(old: str, new: str) -> None:
    assert fact_relocated.moved(old, new) is None


@pytest.mark.parametrize(("old", "new", "why"), [
    ("A Rita mudou-se para Braga", "O sogro da Rita mudou-se para Braga", "someone else moved"),
    ("Lea wohnt in Kiel", "Lea lebt jetzt vegan", "how the person lives, not where"),
    ("Lea ist nach Rostock gezogen", "Lea lebt jetzt ziemlich zurückgezogen", "how the person lives, not where"),
    ("Lea wohnt in Kiel", "Lea ist nach Rostock gezogen", ""),
    ("I live in Leeds", "We moved to York", ""),  # (the first person: left to the other rules)
])
def test_another_mover(old: str, new: str, why: str) -> None:
    assert fact_relocated.another_mover(old, new) == why


@pytest.mark.parametrize(("old", "rest"), [
    ("Kofi's cousin Ama lives in Leeds", ""),
    ("La prima de Marta, Elena, vive en Burgos, en el barrio de Gamonal", ""),
    ("Ama lives in Leeds and works at the BBC", "and works at the BBC"),
])
def test_what_a_move_says_nothing_of(old: str, rest: str) -> None:
    assert fact_relocated.remainder(old) == rest


def test_real_model_one_store_of_moves(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On 9797b74 "Ama has relocated to Manchester" and "Lotte is verhuisd naar Deventer" retired nothing, and
    "Lea lebt jetzt ziemlich zurückgezogen" retired where Lea moved."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        texts = ["Kofi's cousin Ama lives in Leeds", "Ama works as a pharmacist at Boots", "Mijn zus Lotte woont in Zwolle",
                 "Lotte werkt bij de gemeente", "Die Tochter von Petra, Lea, wohnt in Kiel", "Kofi lives in Sheffield"]
        ids = {t: s.store(t, "semantic").id for t in texts}
        res = s.store("Ama has relocated to Manchester", "semantic")
        assert res.supersedes == [ids[texts[0]]]
        res = s.store("Lotte is verhuisd naar Deventer", "semantic")
        assert res.supersedes == [ids[texts[2]]]
        moved = s.store("Lea ist nach Rostock gezogen", "semantic")
        assert moved.supersedes == [ids[texts[4]]]
        res = s.store("Lea lebt jetzt ziemlich zurückgezogen", "semantic")
        assert not res.supersedes
        res = s.store("Kofi's neighbour moved to Leeds", "semantic")
        assert not res.supersedes
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {ids[texts[1]], ids[texts[3]], ids[texts[5]], moved.id}
    finally:
        s.close()


@pytest.mark.parametrize(("old", "new"), [
    ("Kofi's broadband is with Sky", "Kofi cancelled his Sky package and went with Plusnet"),
    ("Petras Strom kommt von Vattenfall", "Petra hat bei Vattenfall gekündigt und ist zu Tibber gegangen"),
    ("El gimnasio de Marta es el McFit", "Marta se dio de baja en el McFit y se ha apuntado a un club de remo"),
    ("O seguro do carro do Jorge é da Fidelidade", "O Jorge cancelou a apólice da Fidelidade e contratou a Tranquilidade"),
    ("La palestra di Sara è la Virgin", "Sara ha disdetto l'abbonamento alla Virgin e si è iscritta in piscina"),
])
def test_a_value_cancelled_and_another_taken(old: str, new: str) -> None:
    from memengine import fact_migrated

    got = fact_migrated.left_for(old, new)
    assert got is not None and got.reason.startswith(fact_migrated.REASON)


@pytest.mark.parametrize(("old", "new"), [
    ("Kofi's broadband is with Sky", "His sister cancelled her Sky package and went with Plusnet"),  # someone else
    ("Kofi's broadband is with Sky", "If Kofi cancels Sky and goes with Plusnet he saves £10"),  # a hypothesis
    ("Kofi's broadband is with Sky", "Kofi cancelled the Netflix add-on and kept Sky"),  # another thing cancelled
    ("Kofi's broadband is with Sky", "Kofi cancelled his Sky package"),  # nothing taken: left to other rules
])
def test_no_value_cancelled(old: str, new: str) -> None:
    from memengine import fact_migrated

    assert fact_migrated.left_for(old, new) is None


def test_real_model_a_migration_whose_names_do_two_jobs(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """"cancelou a inscrição no Fitness Hut e entrou para a piscina": memengine/fact_role.py reads two jobs (a
    membership, a pool); the older's value said cancelled in the newer's own words is its update all the same."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        texts = ["O ginásio da Bia é o Holmes Place", "A Bia joga ténis às quartas", "O banco da Bia é o Millennium",
                 "Kofi's broadband is with Sky", "Kofi's mobile is with Vodafone"]
        ids = {t: s.store(t, "semantic").id for t in texts}
        res = s.store("A Bia cancelou a inscrição no Holmes Place e entrou para a piscina municipal", "semantic")
        assert res.supersedes == [ids[texts[0]]]
        res = s.store("Kofi cancelled his Sky package and went with Plusnet", "semantic")
        assert res.supersedes == [ids[texts[3]]]
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {ids[texts[1]], ids[texts[2]], ids[texts[4]]}
    finally:
        s.close()


@pytest.mark.parametrize(("old", "new", "out"), [
    ("Die Freundin von Jonas, Mia, arbeitet bei Zalando", "Mia ist jetzt bei Otto",
     "Mia arbeitet bei Zalando"),  # whose friend she is: her name's description
    ("Il cugino di Sara, Piero, fa il barista a Lecce", "Piero adesso lavora a Bari", "Piero fa il barista a Lecce"),
    # another person's fact, or a description that says more: unchanged
    ("Die Freundin von Jonas, Mia, arbeitet bei Zalando", "Jonas ist jetzt bei Otto",
     "Die Freundin von Jonas, Mia, arbeitet bei Zalando"),
    ("The API server, Atlas, runs on Go", "Atlas runs on Rust now", "The API server, Atlas, runs on Go"),
    ("Marta's old flatmate from Porto, Rui, works at Sonae", "Rui works at NOS now",
     "Marta's old flatmate from Porto, Rui, works at Sonae"),
])
def test_a_persons_description_is_no_statement_of_its_own(old: str, new: str, out: str) -> None:
    assert fact_relocated.appositive(old, new) == out


@pytest.mark.parametrize(("text", "name", "kind"), [
    ("Die Kanzlei ist zu Nextcloud gewechselt", "nextcloud", ""),  # the subject's noun is no evidence of the name
    ("La redazione è passata a Slack", "slack", ""),
    ("La banque de Hugo est le Crédit Agricole", "agricole", "org"),  # (the copula: the subject's noun names it)
])
def test_a_switch_verb_stops_the_look_for_a_names_kind(text: str, name: str, kind: str) -> None:
    from memengine import fact_name_kind, facts

    assert fact_name_kind.kinds_of(text, facts.analyse(text).lang).get(name, ("", ""))[0] == kind


@pytest.mark.parametrize(("old", "new", "update"), [
    ("Die Chorprobe ist dienstags", "Die Chorprobe findet jetzt donnerstags statt", True),
    ("El club de ajedrez se reúne el último jueves de cada mes", "El club de ajedrez pasa a reunirse el primer martes "
     "del mes", True),
    ("The choir meets on Tuesdays", "The choir now takes place on Thursdays", True),
    ("The choir meets on Tuesdays", "The orchestra now meets on Thursdays", False),  # another group
])
def test_a_meeting_day_said_with_how_it_is_held(old: str, new: str, update: bool) -> None:
    from memengine import fact_period

    assert (fact_period.moved(old, new) is not None) is update
