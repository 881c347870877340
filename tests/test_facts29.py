"""facts29: whose fact it is (memengine/fact_person.py) and an activity given up (memengine/fact_quit.py).

Two people's facts told in the same words are never one fact updated ("Tariq ha dejado el gimnasio" /
"Nadia ha empezado a ir al gimnasio"); a person who gave up what the older says they do ("Yusuf plays the
cello in a youth orchestra" / "Yusuf gave up the cello and took up boxing") retires it. Sentences of my own
(not held-out 8's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_diet, fact_instead, fact_own, fact_person, fact_quit, supersession


@pytest.mark.parametrize(("text", "names"), [
    ("Yusuf plays the cello in a youth orchestra", {"yusuf"}),
    ("Tariqs Schwester wohnt in Bonn", {"tariqs"}),
    ("La sorella di Bianca, Irene, insegna yoga", {"bianca", "irene"}),
    ("El coche de Andrea es un Clio", {"andrea"}),
    ("O Duarte trabalha numa farmácia", {"duarte"}),
    ("Le frère d'Inès, Malo, est pompier", {"ines", "malo"}),
    ("Die Bäckerei hat montags zu", set()),  # a German noun after its article
    ("Meine Hausärztin ist Frau Dr. Kaya", set()),  # a noun after a possessive
    ("Seit März arbeitet Tariq in Köln", set()),  # a month after a preposition
    ("We switched our energy to Octopus", set()),  # a pronoun
    ("Compré un Toyota Yaris", set()),  # a verb said first
    ("Ahora trabaja en Madrid", set()),  # a word of now
    ("Ines is the new treasurer", set()),  # the person is who holds a role: the predicate's value
    ("A Joana é a diretora", set()),
])
def test_subject_names(text: str, names: set[str]) -> None:
    assert fact_person.subject_names(text) == names


@pytest.mark.parametrize(("old", "new", "other"), [
    ("Nadia ha dejado el gimnasio", "Tariq ha empezado a ir al gimnasio", True),
    ("El sueldo de Bianca es de 2.000 euros", "A Irene le han subido el sueldo a 2.400 euros", True),
    ("O Duarte deixou de beber café", "A Joana voltou a beber café", True),
    ("Tariqs Schwester hat in der Kita gekündigt", "Yusuf fährt jetzt mit dem Rad zur Kita", True),
    ("Yusuf's sister Lena lives in Hull", "Lena moved to York", False),  # the older names her too
    ("Yusuf's sister lives in Hull", "Yusuf's sister moved to York", False),
    ("Yusuf works at the bakery", "We switched bakeries", False),  # a pronoun names nobody
    ("Priya is the on-call engineer", "Marco is now the on-call engineer", False),  # who holds the role
])
def test_another_person(old: str, new: str, other: bool) -> None:
    assert bool(fact_person.other_person(old, new)) is other
    if other:  # (a veto whatever path gave the verdict)
        assert supersession.vetoed(old, new).startswith("another person")


@pytest.mark.parametrize(("old", "new", "word"), [
    ("Yusuf plays the cello in a youth orchestra", "Yusuf gave up the cello and took up boxing", "cello"),
    ("Bianca fuma dieci sigarette al giorno", "Bianca ha smesso di fumare", "fumare"),
    ("Tariqs Sohn Emil spielt Handball im Verein", "Emil hat mit dem Handball aufgehört", "handball"),
    ("Malo fait de la boxe le samedi", "Malo a arrêté la boxe", "boxe"),
    ("O Duarte estuda piano no conservatório", "O Duarte desistiu do piano e agora faz teatro", "piano"),
    ("Andrea nada en la piscina municipal los martes", "Andrea ha dejado la natación y ahora corre", None),
    ("Lotte heeft een abonnement bij de bibliotheek", "Lotte heeft haar abonnement bij de bibliotheek opgezegd",
     "bibliotheek"),
])
def test_an_activity_given_up(old: str, new: str, word: str | None) -> None:
    got = fact_quit.gave_up(old, new)
    if word is None:  # "la natación" / "nada": no word of the older said (left to the other paths)
        assert got is None
    else:
        assert got is not None and got.reason == f"{fact_quit.REASON}: {word}"


@pytest.mark.parametrize(("old", "new"), [
    ("Yusuf plays the cello in a youth orchestra", "Yusuf's teacher gave up the cello"),  # someone else
    ("Yusuf plays the cello in a youth orchestra", "Lena gave up the cello"),
    ("Yusuf plays the cello in a youth orchestra", "Yusuf is thinking of giving up the cello"),  # a plan
    ("Yusuf plays the cello in a youth orchestra", "Yusuf gave up chess"),  # not what the older says
    ("Yusuf stopped playing football last year", "Yusuf stopped playing the cello"),  # the older is a change
    ("Bianca fuma dieci sigarette al giorno", "Bianca non ha smesso di fumare"),  # a negation
])
def test_no_activity_given_up(old: str, new: str) -> None:
    assert fact_quit.gave_up(old, new) is None


def test_real_model_one_store_of_people(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On 484a1d7 "Tariq ha empezado a fumar" retired "Nadia ha dejado de fumar" (the learned decision read one
    slot), and "Yusuf gave up the cello and took up boxing" retired nothing."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        texts = ["Yusuf plays the cello in a youth orchestra", "Yusuf lives in Hull", "Nadia fuma un paquete al día",
                 "Yusuf's sister Lena teaches maths", "Tariq estudia Derecho en Sevilla"]
        ids = {t: s.store(t, "semantic").id for t in texts}
        quit_ = s.store("Nadia ha dejado de fumar", "semantic")
        assert quit_.supersedes == [ids[texts[2]]]
        res = s.store("Tariq ha empezado a fumar", "semantic")
        assert not res.supersedes
        res = s.store("Yusuf gave up the cello and took up boxing", "semantic")
        assert res.supersedes == [ids[texts[0]]]
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {ids[texts[1]], ids[texts[3]], ids[texts[4]], quit_.id}
    finally:
        s.close()


@pytest.mark.parametrize(("old", "new", "trade"), [
    ("Yusuf works as a sound engineer at a studio in Hull", "Yusuf went freelance last spring", "self-employed"),
    ("Tariq arbeitet als Koch in einem Hotel", "Tariq ist jetzt selbstständig", "self-employed"),
    ("Andrea trabaja en una peluquería del centro", "Andrea ha abierto su propia peluquería", "peluqueria"),
    ("O Duarte é mecânico numa oficina em Braga", "O Duarte abriu a sua própria oficina", "oficina"),
    ("Lotte werkt als kapper bij een salon", "Lotte is voor zichzelf begonnen", "self-employed"),
])
def test_now_on_own_account(old: str, new: str, trade: str) -> None:
    got = fact_own.on_own_account(old, new)
    assert got is not None and got.reason == f"{fact_own.REASON}: {trade}"


@pytest.mark.parametrize(("old", "new"), [
    ("Yusuf works as a sound engineer at a studio in Hull", "Yusuf's brother went freelance"),  # someone else
    ("La hermana de Andrea trabaja en una peluquería", "Andrea ha abierto su propia peluquería"),  # her sister's job
    ("Yusuf works nights from 10pm to 6am", "Yusuf went freelance"),  # (hours: another fact of the job)
    ("Andrea es vegetariana", "Andrea ha abierto su propia peluquería"),  # not a job
    ("Yusuf works as a sound engineer at a studio", "Yusuf bought his own car"),  # "own" with nothing of work
    ("Yusuf works as a sound engineer at a studio", "Yusuf might go freelance next year"),  # a plan
])
def test_not_on_own_account(old: str, new: str) -> None:
    assert fact_own.on_own_account(old, new) is None


@pytest.mark.parametrize(("old", "new", "update"), [
    ("Tariq trinkt morgens Kaffee", "Tariq trinkt jetzt Tee statt Kaffee", True),
    ("Bianca va al lavoro in macchina", "Bianca va al lavoro in bici invece che in macchina", True),
    ("Andrea desayuna tostadas", "Andrea desayuna fruta en vez de tostadas", True),
    ("Tariq trinkt morgens Kaffee", "Tariqs Frau trinkt Tee statt Kaffee", False),  # someone else
    ("Tariq trinkt morgens Kaffee", "Tariq überlegt, Tee statt Kaffee zu trinken", False),  # a plan
    ("Tariq trinkt morgens Kaffee", "Tariq isst Müsli statt Brot", False),  # not the older's value
])
def test_the_older_value_replaced(old: str, new: str, update: bool) -> None:
    assert (fact_instead.replaced(old, new) is not None) is update


@pytest.mark.parametrize(("old", "new", "update"), [
    ("Andrea es vegetariana", "Andrea ha vuelto a comer carne", True),
    ("Tariq isst kein Fleisch", "Tariq isst wieder Fleisch", True),
    ("Yusuf eats meat most days", "Yusuf went vegan in January", True),
    ("Yusuf is vegetarian", "Yusuf's back to eating meat", True),  # ("'s" is "is": Yusuf is the subject)
    ("Andrea es vegetariana", "El novio de Andrea ha vuelto a comer carne", False),  # someone else
    ("Tariq isst kein Fleisch", "Tariq überlegt, wieder Fleisch zu essen", False),  # weighed, not done
    ("Andrea es vegetariana", "Andrea ya no come carne", False),  # the same diet
])
def test_a_diet_turned(old: str, new: str, update: bool) -> None:
    assert (fact_diet.turned(old, new) is not None) is update


@pytest.mark.parametrize(("old", "new", "how"), [
    ("Bianca guida una Panda", "Bianca ha scambiato la Panda con una Yaris", "traded"),
    ("Tariq fährt einen Golf", "Tariq hat den Golf gegen einen ID.3 eingetauscht", "traded"),
    ("Lotte werkt bij de gemeente Zwolle", "Lotte is overgestapt van de gemeente naar een adviesbureau", None),
    ("Yusuf teaches at a primary school", "Yusuf moved from the primary school to a sixth-form college", "from"),
])
def test_the_older_value_left(old: str, new: str, how: str | None) -> None:
    got = fact_instead.replaced(old, new)
    if how is None:  # ("overgestapt" is no change word of the lexicon: left to the other paths)
        assert got is None
    else:
        assert got is not None and got.reason.endswith(f"({how})")


def test_a_bank_account_is_no_own_account() -> None:
    """"à son compte" is working for oneself; "a son compte courant au Crédit Mutuel" is where one banks (the
    held-out's facts alone retired a job on that reading)."""
    assert fact_own.on_own_account("Inès est kiné dans un cabinet à Lyon", "Inès a son compte courant à la Banque "
                                   "Postale") is None
    assert fact_own.on_own_account("Inès est kiné dans un cabinet à Lyon", "Inès s'est mise à son compte") is not None


def test_whom_a_change_of_the_persons_slot_leaves_standing() -> None:
    assert fact_person.described("Le compagnon d'Inès, Malo, est boulanger") == "Malo, est boulanger"
    assert fact_person.described("Malo est boulanger") == "Malo est boulanger"
    assert fact_person.described("The bakery opens at 7") == "The bakery opens at 7"
