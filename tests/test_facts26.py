"""facts26: what a name does in its fact, names nothing identifies, month and period phrases.

facts25 read the kind of a name (a system, a place, a company, a person); two names of one kind may still do different
jobs for one thing ("The API server runs Alma Linux 9" / "it now keeps its data in MariaDB 11": an OS, a database).
memengine/fact_role.py reads the job a name does from the words around it ("as its database", "for backups", the noun
a possessive or a determiner puts before it), memengine/fact_frame.py reads another name in the same frame with a
change said as an update whatever the names' kinds, memengine/fact_period.py reads month and period phrases ("fim de
março", "early April", "Mitte Mai", "Q3", "next spring") as days. Sentences of their own (not held-out 5's).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_frame, fact_kind, fact_period, fact_role


@pytest.mark.parametrize(("old", "new"), [
    ("The API server runs Alma Linux 9", "The API server now keeps its data in MariaDB 11"),
    ("The API server keeps its data in MariaDB 11", "The API server now uses Memcached as its cache"),
    ("The API server sends its mail through Postmark", "The API server now ships its logs to Logtail"),
    ("Der Mailserver läuft auf Ubuntu 22.04", "Als Datenbank nutzt der Mailserver jetzt MariaDB"),
    ("El servidor de correo funciona con Debian 12", "El servidor de correo ahora usa Redis como caché"),
    ("O servidor de arquivos roda Fedora 40", "O servidor de arquivos agora usa SQLite como banco de dados"),
    ("Il team di vendita usa Slack per la chat", "Il team di vendita ora usa Jira per i ticket"),
])
def test_two_names_doing_two_jobs_are_two_attributes(old: str, new: str) -> None:
    assert fact_role.another_role(old, new)


@pytest.mark.parametrize(("old", "new"), [
    ("The API server keeps its data in MariaDB 11", "The API server now stores its data in PostgreSQL 16"),
    ("Nightly snapshots of the API server are copied to Wasabi", "Snapshots of the API server now go to Backblaze"),
    ("The support team chats on Slack", "The support team moved its chat to Discord"),
    ("Mia banks with Monzo", "Mia switched her bank to Starling"),
    ("We use Postgres 14", "We now use MySQL as our database"),
    ("We use Postgres 14", "We moved to MySQL"),
    ("The build server runs Ubuntu 20.04", "we moved the build server to Debian last week"),
    ("The primary DNS provider is Cloudflare", "DNS is handled by Route 53 now"),
])
def test_one_job_or_none_said_is_one_attribute(old: str, new: str) -> None:
    assert not fact_role.another_role(old, new)


@pytest.mark.parametrize(("old", "new", "update"), [
    ("Snapshots of the API server go to Wasabi", "Snapshots of the API server now go to Backblaze", True),
    ("Die Snapshots des Mailservers gehen an Borgbase", "Die Snapshots des Mailservers gehen jetzt an Tarsnap", True),
    ("Les exports du site partent chez Scaleway", "Les exports du site partent désormais chez Infomaniak", True),
    ("De exports van de site gaan naar Leaseweb", "De exports van de site gaan nu naar Hostnet", True),
    ("Unser Vorstand chattet in Rocket", "Unser Vorstand chattet jetzt in Zulip", True),
    ("Snapshots of the API server go to Wasabi", "Snapshots of the API server go to Backblaze", False),  # no change said
    ("Snapshots of the API server go to Wasabi", "Logs of the API server now go to Backblaze", False),  # another frame
    ("Snapshots of the API server go to Wasabi", "Snapshots of the API server now also go to Backblaze", False),  # also
])
def test_another_name_in_the_same_frame(old: str, new: str, update: bool) -> None:
    assert (fact_frame.another_name(old, new) is not None) is update


@pytest.mark.parametrize(("text", "month"), [
    ("A consulta é no fim de março", 3),
    ("A mudança ficou para o começo de abril", 4),
    ("La entrega es a finales de marzo", 3),
    ("Le salon a lieu fin mars", 3),
    ("Das Audit ist Ende März", 3),
    ("The review is in early April", 4),
    ("The review is in mid-May", 5),
    ("As provas são na segunda quinzena de maio", 5),
    ("La riunione è a metà giugno", 6),
    ("De oplevering is eind juni", 6),
    ("De keuring is begin mei", 5),
])
def test_month_periods_are_read(text: str, month: int) -> None:
    got = fact_period.periods(text)
    assert got and got[0][1] == month
    assert "day" in fact_kind.kinds(text)


@pytest.mark.parametrize("text", ["The launch is in Q3", "The launch is next spring", "Der Launch ist im Frühjahr"])
def test_periods_of_a_year_are_read(text: str) -> None:
    assert fact_period.periods(text)
    assert "day" in fact_kind.kinds(text)


@pytest.mark.parametrize("text", ["Marco works at Fiat", "The end of the road is near", "O fim do contrato foi bom",
                                  "We met in the middle of the night"])
def test_no_period_without_a_month_or_season(text: str) -> None:
    assert fact_period.periods(text) == ()


@pytest.mark.parametrize(("old", "new", "update"), [
    ("A consulta com a nutricionista é no fim de março", "A consulta com a nutricionista passou para o começo de abril",
     True),
    ("La entrega del informe es a finales de marzo", "La entrega del informe se ha movido a mediados de abril", True),
    ("The roof repair is planned for early April", "The roof repair is now planned for late May", True),
    ("The launch of the app is in Q2", "The launch of the app slipped to Q3", True),
    ("De oplevering van het huis is eind juni", "De oplevering van het huis is nu begin augustus", True),
    ("Das Audit der Buchhaltung ist Ende März", "Das Audit der Buchhaltung ist jetzt Mitte April", True),
    # another event's period, or the same period: no update
    ("A consulta com a nutricionista é no fim de março", "A festa da empresa agora é no começo de abril", False),
    ("The roof repair is planned for early April", "The roof repair is still planned for early April", False),
])
def test_a_moved_period(old: str, new: str, update: bool) -> None:
    assert (fact_period.moved(old, new) is not None) is update


def test_real_model_one_store_of_roles_names_and_periods(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On /work/base-start the database write retired the OS (or another server's database), the cache write and
    the logs write retired other roles, and the moved periods reached no verdict."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "m.db", embedder=real)
    try:
        texts = ["The API server runs Alma Linux 9", "The API server keeps its data in MariaDB 11",
                 "Nightly snapshots of the API server are copied to Wasabi", "The API server sends its mail through Postmark",
                 "A consulta com a nutricionista é no fim de março", "La entrega del informe es a finales de marzo",
                 "Mia banks with Monzo", "Mia lives in Leeds"]
        ids = {t: s.store(t, "semantic").id for t in texts}
        res = s.store("The API server now stores its data in PostgreSQL 16", "semantic")
        assert res.supersedes == [ids[texts[1]]]
        res = s.store("The API server now uses Memcached as its cache", "semantic")
        assert not res.supersedes and not res.may_update
        res = s.store("The API server now ships its logs to Logtail", "semantic")
        assert not res.supersedes
        res = s.store("A consulta com a nutricionista passou para o começo de abril", "semantic")
        assert res.supersedes == [ids[texts[4]]]
        res = s.store("La entrega del informe se ha movido a mediados de abril", "semantic")
        assert res.supersedes == [ids[texts[5]]]
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {ids[t] for t in (texts[0], texts[2], texts[3], texts[6], texts[7])}
    finally:
        s.close()
