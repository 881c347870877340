"""Round 23: a change of one attribute of a thing is no update of its other attributes. In one agent's store a
server has its RAM, OS, runtime, IP and place, a person a phone, a city, an employer, one fact each; before this
round "O servidor de aplicação agora tem 12 núcleos" retired "O servidor de aplicação roda Java 11" and "… tem 16 GB
de RAM", and "The build server now has 64 GB of RAM" was retired by the next write about the build server
(tests/data/fact_crowded_heldout3.jsonl, bench/fact_crowded.py): the thing's words are shared, so a change cue and
a new value read as an update. The kind of each value (memengine/fact_kind.py) says which attribute it is: a
newer whose values are all of kinds the older states none of changes another attribute, and neither retires
nor flags the older."""

from __future__ import annotations

from pathlib import Path

from memengine import fact_kind


def test_kinds_of_values() -> None:
    assert fact_kind.kinds("The build server now has 64 GB of RAM") == frozenset({"memory"})
    assert fact_kind.kinds("O servidor de aplicação roda Java 11") == frozenset({"version"})
    assert fact_kind.kinds("Priya works for Deloitte") == frozenset({"named"})
    assert fact_kind.kinds("L'adresse IP du serveur web est 51.38.12.9") == frozenset({"ip"})
    assert fact_kind.kinds("Priya's phone number is +44 7700 900123") == frozenset({"phone"})
    assert fact_kind.kinds("Camille a maintenant l'adresse camille.r@free.fr") == frozenset({"email"})
    assert fact_kind.kinds("Die Kaltmiete der Wohnung beträgt 850 Euro") == frozenset({"money"})
    assert fact_kind.kinds("The team retro is at 4 pm") == frozenset({"clock"})
    assert fact_kind.kinds("The team retro is now on Thursdays") == frozenset({"day"})
    assert fact_kind.kinds("El seguro de hogar ahora incluye asistencia 24 horas") == frozenset({"duration"})
    assert fact_kind.kinds("Das NAS hat vier Festplatten") == frozenset({"count:festplatten"})
    assert fact_kind.kinds("Jonas ist nach Stuttgart gezogen") == frozenset({"named"})
    # a number with nothing that says what it counts is of any kind
    assert fact_kind.kinds("Spotify now costs 11.99") == frozenset({fact_kind.ANY})
    # the subject's names are the thing's, not values
    assert fact_kind.kinds("Le numéro de Camille est le 06 12 34 56 78") == frozenset({"phone"})


def test_another_attribute_of_the_same_thing() -> None:
    assert fact_kind.another_attribute("O servidor de aplicação roda Java 11", "O servidor de aplicação agora tem 12 núcleos")
    assert fact_kind.another_attribute("O servidor de aplicação tem 16 GB de RAM",
                                       "O servidor de aplicação agora tem 12 núcleos")
    assert fact_kind.another_attribute("The build server is hosted in Frankfurt", "The build server now has 64 GB of RAM")
    assert fact_kind.another_attribute("Priya's phone number is +44 7700 900123", "Priya's email address is now priya.k@proton.me")
    assert fact_kind.another_attribute("Priya lives in Leeds", "Priya's email address is now priya.k@proton.me")
    assert fact_kind.another_attribute("Das NAS hat vier Festplatten", "Das NAS hat jetzt 32 GB RAM")
    assert fact_kind.another_attribute("El servidor de base de datos usa PostgreSQL 14",
                                       "El servidor de base de datos ahora hace copias de seguridad cada 6 horas")
    # a day is not a clock time: the retro keeps its hour, now on Thursdays
    assert fact_kind.another_attribute("The team retro is at 4 pm", "The team retro is now on Thursdays")


def test_the_same_attribute_stays_comparable() -> None:
    # a place for a place, a price for a price, a version for a version, a day for a day
    assert not fact_kind.another_attribute("Marta lives in Lisbon", "Marta moved from Lisbon to Porto")
    assert not fact_kind.another_attribute("The gym costs 35 € a month", "The gym is now 40 € instead of 35 €")
    assert not fact_kind.another_attribute("O servidor de aplicação roda Java 11", "O servidor de aplicação agora roda Java 21")
    assert not fact_kind.another_attribute("The dentist appointment is on Friday", "The dentist appointment is now on Wednesday")
    assert not fact_kind.another_attribute("Das NAS hat 16 GB RAM", "Das NAS hat jetzt 32 GB RAM")
    # a product changed with or without its version; a date for a weekday; a bare number for anything
    assert not fact_kind.another_attribute("We use Postgres 14", "We moved to MySQL")
    assert not fact_kind.another_attribute("The deadline is March 3", "The deadline moved to Friday")
    assert not fact_kind.another_attribute("The rent is 900 euros", "The rent is now 950")
    # an older that states no value is never told apart
    assert not fact_kind.another_attribute("The meeting is in the afternoon", "The meeting is now at 10:00")


# --------------------------------------------------------------------------- with the real model, real stores

THINGS = ["O servidor de aplicação roda Java 11", "O servidor de aplicação fica em São Paulo",
          "O servidor de aplicação tem 16 GB de RAM", "O IP do servidor de aplicação é 172.16.0.8",
          "O servidor de aplicação usa CentOS 7",
          "El servidor de base de datos usa PostgreSQL 14", "El servidor de base de datos tiene 64 GB de RAM",
          "El servidor de base de datos está en Madrid", "La IP del servidor de base de datos es 10.1.2.3",
          "El servidor de base de datos corre sobre Rocky Linux 9",
          "Priya's phone number is +44 7700 900123", "Priya lives in Leeds", "Priya works for Deloitte",
          "Priya's partner is called Tom", "Priya's birthday is on 14 March"]


def test_real_model_store_of_things_with_attributes(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A store of three things with five attributes each: a change of an attribute no fact states retires
    and flags nothing (on the session-start tree the database server's backups retired its RAM and its OS and
    flagged its other three facts); a change of a stated attribute retires that fact alone."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "things.db", embedder=real)
    try:
        ids = {t: s.store(t, "semantic").id for t in THINGS}
        for write in ("O servidor de aplicação agora tem 12 núcleos",
                      "El servidor de base de datos ahora hace copias de seguridad cada 6 horas",
                      "Priya's email address is now priya.k@proton.me"):
            res = s.store(write, "semantic")
            assert (write, res.supersedes, res.superseded_by, res.may_update or []) == (write, [], None, [])
        res = s.store("O servidor de aplicação agora tem 32 GB de RAM", "semantic")
        assert (res.supersedes, res.may_update or []) == ([ids["O servidor de aplicação tem 16 GB de RAM"]], [])
        res = s.store("Priya now works for KPMG", "semantic")
        assert (res.supersedes, res.may_update or []) == ([ids["Priya works for Deloitte"]], [])
        gone = {"O servidor de aplicação tem 16 GB de RAM", "Priya works for Deloitte"}
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {i for t, i in ids.items() if t not in gone}
        assert not live & {ids[t] for t in gone}
    finally:
        s.close()
