"""facts25: the kind of a name (a system, a place, an organisation, a person) and a new role at the same place.

A thing has several name-valued attributes (a server: its OS, its host, its data centre; a person: employer and role,
city, bank). facts23 read every name as one kind, so a migration to another OS retired who hosts the server, and a
new host retired its OS. memengine/fact_name_kind.py reads the kind of each name from the word governing it, a title,
a version beside it, or its use elsewhere in the store; memengine/fact_promoted.py reads a new role at the same
organisation and another name in the same frame ("wordt nu gehost door", "is verhuisd naar") as updates.
The real-model tests use sentences of their own (not held-out 4's)."""
from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_kind, fact_name_kind, fact_promoted


def test_the_kind_of_a_name_is_read_from_what_governs_it() -> None:
    k = fact_name_kind.kinds_of
    assert k("The web server is hosted by Linode", "en")["linode"] == ("org", "hosted")
    assert k("We migrated the web server to Alma Linux 9", "en")["alma"][0] == "system"  # its version
    assert k("Ana lives in Braga", "en")["braga"] == ("place", "lives")
    assert k("Our office is rented from Mrs. Okafor", "en")["okafor"][0] == "person"  # a title
    assert k("Der Webserver wird von Hetzner betrieben", "de")["hetzner"] == ("org", "betrieben")  # the verb after
    assert k("Le NAS tourne sous TrueNAS", "fr")["truenas"] == ("system", "tourne")
    assert k("La gata se llama Nube", "es")["nube"][0] == "person"
    # moving "to" says nothing of what the name is: a city, a host and a system are all moved to
    assert k("we moved the web server to Debian last week", "en")["debian"] == ("", "")
    assert k("Ana moved from Braga to Porto", "en")["porto"] == ("", "")
    # where a name was left for takes the reading of the name left ("mudou de Braga": a place)
    assert k("Pedro se mudou de Braga para Coimbra", "pt")["coimbra"] == ("place", "mudou")
    # another name in between ends the look back: "in Croydon" is not governed by "serviced at"
    assert k("My car is serviced at Halfords in Croydon", "en")["croydon"] == ("", "")


def test_the_store_says_what_a_name_is() -> None:
    known = fact_name_kind.known(["Die Datenbank läuft auf Rocky Linux 8", "Ana lives in Braga",
                                  "Our site is hosted by Braga Digital"])
    assert known["rocky"] == "system"
    assert "braga" not in known  # read two ways: no kind


@pytest.mark.parametrize(("old", "new"), [
    ("The web server is hosted by Linode", "We migrated the web server to Alma Linux 9"),
    ("The web server sits in a data centre in Frankfurt", "We migrated the web server to Alma Linux 9"),
    ("The web server runs Ubuntu 22.04", "The web server is now hosted by Scaleway"),
    ("Our office is rented from Mrs. Okafor", "Our office is now managed by Hamptons"),
    ("Pedro's partner is called Inês", "Pedro now works at Farfetch"),
])
def test_names_of_other_kinds_are_other_attributes(old: str, new: str) -> None:
    assert fact_kind.another_attribute(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # what tests/test_facts_migrations.py and facts24's revert hold: a name after "to" may be any kind
    ("The build server runs Ubuntu 20.04", "we moved the build server to Debian last week"),
    ("Our CI runner runs Fedora 39", "CI runner migrated to Rocky Linux"),
    ("Ana lives in Lisbon", "Ana moved from Lisbon to Porto"),
    ("Our company is insured with Hiscox", "We switched our insurer to Allianz"),
    ("Dana works at Stripe", "Dana now works at Shopify"),
    ("We use Postgres 14", "We moved to MySQL"),
    # a provider, a service: a system as often as a company (the labelled pair files hold this one)
    ("The primary DNS provider is Cloudflare", "DNS is handled by Route 53 now"),
    ("Minha academia fica na Rua Augusta.", "Troquei de academia, agora vou numa perto do trabalho na Paulista."),
    # one cue word governs both: one slot, whatever the kinds ("managed by" a person, then an agency)
    ("Our office is managed by Mr. Hughes", "Our office is now managed by Foxtons"),
])
def test_one_kind_or_no_kind_stays_one_attribute(old: str, new: str) -> None:
    assert not fact_kind.another_attribute(old, new)


def test_a_name_the_store_reads_as_a_system_is_one() -> None:
    old, new = "Le serveur mail est hébergé chez OVH", "On a migré le serveur mail vers Rocky Linux"
    assert not fact_kind.another_attribute(old, new)  # "vers Rocky Linux": no kind of its own
    assert fact_kind.another_attribute(old, new, {"rocky": "system", "linux": "system"})


@pytest.mark.parametrize(("old", "new"), [
    ("Priya works at Monzo as a backend engineer", "Priya is now a staff engineer at Monzo"),
    ("Jonas arbeitet bei Bosch als Werkstudent", "Jonas ist jetzt Teamleiter bei Bosch"),
    ("Léa travaille chez Ubisoft comme graphiste", "Léa est désormais directrice artistique chez Ubisoft"),
    ("Marta trabaja en Glovo como diseñadora", "Marta ahora es jefa de diseño en Glovo"),
    ("O Caio trabalha na Stone como analista", "O Caio agora é coordenador de risco na Stone"),
    ("Chiara lavora in Luxottica come stagista", "Chiara ora è product manager in Luxottica"),
    ("Bram werkt bij Philips als stagiair", "Bram is nu projectleider bij Philips"),
])
def test_a_new_role_at_the_same_organisation(old: str, new: str) -> None:
    v = fact_promoted.new_role(old, new)
    assert v is not None and v.reason.startswith(fact_promoted.ROLE)


@pytest.mark.parametrize(("old", "new"), [
    ("Priya works at Monzo as a backend engineer", "Priya is now a backend engineer at Monzo"),  # the same role
    ("Priya works at Monzo as a backend engineer", "Priya now works at Monzo"),  # no role said
    ("Priya works at Monzo as a backend engineer", "Priya is now a staff engineer at Wise"),  # another employer
    ("Priya works at Monzo as a backend engineer", "Tom is now a staff engineer at Monzo"),  # another person
    ("Priya works at Monzo as a backend engineer", "Priya is a staff engineer at Monzo"),  # no change said
    ("Priya works at Monzo as a backend engineer", "Priya is now also a mentor at Monzo"),  # a second role
])
def test_no_new_role(old: str, new: str) -> None:
    assert fact_promoted.new_role(old, new) is None


@pytest.mark.parametrize(("old", "new", "update"), [
    ("De webserver wordt gehost door Leaseweb", "De webserver wordt nu gehost door Vultr", True),
    ("Noor woont in Haarlem", "Noor is verhuisd naar Leiden", True),
    ("Chiara abita a Verona", "Chiara si è trasferita a Padova", True),
    ("Pedro mora em Braga", "Pedro se mudou de Braga para Coimbra", True),
    # a preposition governs many slots: an account and an insurance "bei" one bank and one insurer
    ("Jonas hat sein Konto bei der Commerzbank", "Jonas ist jetzt bei der Barmer versichert", False),
    ("Noor woont in Haarlem", "Noor werkt nu bij Booking", False),  # another cue, another slot
    ("Noor woont in Haarlem", "Tim is verhuisd naar Leiden", False),  # another person
    ("Noor woont in Haarlem", "De zus van Noor woont nu in Leiden", False),  # someone of hers
    ("Nina uses Notion for notes", "Nina now also uses Obsidian for notes", False),  # one more, said "also"
    ("The user's sister is called Mhairi", "The user's new landlord is called Gordon", False),  # another slot
])
def test_another_name_in_the_same_frame(old: str, new: str, update: bool) -> None:
    assert (fact_promoted.new_name(old, new) is not None) is update


def test_real_model_one_store_of_name_valued_attributes(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On /work/base-start the migration retired the host and the data centre, the new host retired nothing, the
    promotion was only flagged or missed."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        texts = ["The web server runs Ubuntu 20.04", "The web server is hosted by Linode",
                 "The web server sits in a data centre in Frankfurt", "Priya works at Monzo as a backend engineer",
                 "Priya lives in Bristol", "Priya banks with Barclays", "Priya is dating Sam"]
        ids = {t: s.store(t, "semantic").id for t in texts}
        res = s.store("We migrated the web server to Debian 12", "semantic")
        assert res.supersedes == [ids[texts[0]]] and not res.may_update
        res = s.store("The web server is now hosted by Hetzner", "semantic")
        assert res.supersedes == [ids[texts[1]]] and not res.may_update
        res = s.store("Priya is now a staff engineer at Monzo", "semantic")
        assert res.supersedes == [ids[texts[3]]]
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {ids[t] for t in texts[2:3] + texts[4:]}
    finally:
        s.close()


def test_companies_serving_in_two_ways_are_two_attributes() -> None:
    assert fact_name_kind.kinds_of("La voiture est assurée chez la MAIF", "fr")["maif"] == ("org", "assuree")
    assert fact_name_kind.kinds_of("Unser Auto ist bei der HUK-Coburg versichert", "de")["huk-coburg"] == (
        "org", "versichert")  # the verb after "bei der …"
    assert fact_kind.another_attribute("My car is serviced at Halfords", "My car is now insured with Admiral")
    assert not fact_kind.another_attribute("Ana works at Google", "Ana is now employed by Spotify")  # one service
    assert not fact_kind.another_attribute("My car is insured with Aviva", "I switched my car insurance to Admiral")


@pytest.mark.parametrize(("text", "kind"), [
    ("The car has done 45,000 miles", "length"),  # a length the analyser has no unit of
    ("El coche ya tiene 152.000 millas", "length"),
    ("O carro tem 80 mil quilómetros", "length"),  # a thousand said as a word: the kind of what follows
    ("Das Auto hat jetzt 120 tausend Kilometer", "length"),
    ("The gym costs 40 now", "money"),  # a bare number after a price word
    ("A casa custa 300 mil", "money"),
    ("The rent is 65k a year", "money"),
    ("The salary is 65k now", "number"),  # "65k": no version, a number of any kind
])
def test_kinds_read_since_facts25(text: str, kind: str) -> None:
    assert fact_kind.kinds(text) == frozenset({kind})
