"""Round 21: in one store holding many facts, a write that states a change retires (or marks) only a fact it
names something of. The newer must share with the older a word that is not a value, a frame word or a change
word, or name one of its words by a short form, an acronym or a pronoun (memengine/fact_shared.py); an older
it names nothing of is neither superseded nor flagged ``may_update`` (memengine/supersession.py ``_unnamed``).
Before this round "o correio eletrônico agora é o Outlook" retired "A minha operadora é a MEO, 35 euros"
(bench/fact_crowded.py). Pairs of this file's own and of the crowded dev run, EN / DE / FR / ES / PT / IT / NL."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_links

from memengine import fact_shared

# (older, a change about another thing in the same frame: nothing of the older named)
UNNAMED = [
    ("A minha operadora é a MEO, 35 euros", "o correio eletrônico agora é o Outlook"),
    ("O monitoramento passou para o Grafana Cloud", "o correio eletrônico agora é o Outlook"),
    ("De backend draait op Java 17", "Die Ferien sind jetzt vom 10. bis 17. August"),
    ("Meine Schicht ist von 6 bis 14 Uhr", "Die Ferien sind jetzt vom 10. bis 17. August"),
    ("La cuota de la comunidad es de 60 euros", "la machine de prod a maintenant 16 Go de RAM"),
    ("Le front est passé à Vite", "je vois désormais le docteur Petit comme généraliste"),
    ("Unser Handyvertrag ist bei Vodafone, 30 Euro", "Unsere Homepage läuft jetzt auf Hugo"),
    ("El backend se migró a Kotlin", "Lucía dirige ahora el proyecto"),
    ("The invoicing moved to Xero last year", "We moved the wiki to Outline"),
    ("Il parcheggio è a 3 euro all'ora", "La palestra ora viene 50 euro al mese"),
    ("Mijn tandarts is dokter Jansen", "De afvalbak wordt nu op maandag geleegd"),
    ("Our DNS is on Route 53", "The newsletter now goes out on Tuesdays"),
    ("La API de pagos usa Stripe", "la app usa Supabase ahora"),  # (the main verb of both: the frame's)
]

# an update naming its older's thing: a word both say, inflected, a short form, an acronym, a pronoun
NAMED = [
    ("The daily standup is at 9:15", "standup moved to 9:45"),
    ("Postgres connection pool size is 20", "pg pool max is 50"),
    ("Tom has a grey VW Golf", "he's got a Kia EV6 now"),
    ("The deployment runs on Heroku", "deployments go to Fly.io now"),
    ("O monitoramento passou para o Grafana Cloud", "O monitoramento agora é no Zabbix"),
    ("La base de données est sur MySQL 5.7", "la BDD tourne sur MySQL 8 maintenant"),
    ("Der Chor probt montags", "Der Chor probt jetzt am Donnerstag"),
    ("The website runs on WordPress", "The website runs on Astro now"),
    ("Wir nutzen Jira", "Wir nutzen jetzt Linear"),  # (a pronoun subject: the verb names the slot)
]


@pytest.mark.parametrize(("old", "new"), UNNAMED)
def test_nothing_of_the_older_named(old: str, new: str) -> None:
    assert not fact_shared.shares_subject(old, new)


@pytest.mark.parametrize(("old", "new"), NAMED)
def test_the_older_named(old: str, new: str) -> None:
    assert fact_shared.shares_subject(old, new)


def test_values_frame_and_change_words_are_no_evidence() -> None:
    # a number, a unit, a preposition of the frame, a change verb, a "now" word: all the frame's
    assert not fact_shared.shares_subject("The build box has 16 GB of RAM", "The laptop has 32 GB of RAM now")
    assert not fact_shared.shares_subject("We switched the CDN to Fastly", "We switched our bank to Revolut")
    assert fact_shared.shares_subject("The build box has 16 GB of RAM", "The build box has 32 GB of RAM now")


# --------------------------------------------------------------------------- with the real model, real stores

@pytest.mark.parametrize(("old", "new"), UNNAMED)
def test_real_model_unnamed_older_kept_unmarked(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert pair_links(tmp_path / "r.db", old, new, real) == (False, False)


@pytest.mark.parametrize(("old", "new"), [NAMED[0], NAMED[4], NAMED[6], ("O servidor de produção tem 16 GB de RAM",
                                                                           "O servidor de produção passou a ter 32 GB de RAM")])
def test_real_model_named_update_still_supersedes(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert pair_links(tmp_path / "r.db", old, new, real) == (True, False)


def test_real_model_one_store_of_many_facts(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """One agent's store: a change about something no fact is about retires and marks nothing; an update
    retires its own older and nothing else."""
    import memory_core as core

    olders = ["A minha operadora é a MEO, 35 euros", "O monitoramento passou para o Grafana Cloud",
              "Il logging è passato a Loki", "Meine Schicht ist von 6 bis 14 Uhr", "De backend draait op Java 17",
              "Le front est passé à Vite", "La cuota de la comunidad es de 60 euros",
              "Our DNS is on Route 53", "The daily standup is at 9:15", "Der Chor probt montags"]
    s = core.MemoryStore(tmp_path / "one.db", embedder=real)
    try:
        ids = {t: s.store(t, "semantic").id for t in olders}
        for new in ("o correio eletrônico agora é o Outlook", "Die Ferien sind jetzt vom 10. bis 17. August",
                    "je vois désormais le docteur Petit comme généraliste"):
            res = s.store(new, "semantic")
            assert (res.supersedes, res.superseded_by, res.may_update or []) == ([], None, []), new
        res = s.store("standup moved to 9:45", "semantic")
        assert res.supersedes == [ids["The daily standup is at 9:15"]]
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {i for t, i in ids.items() if t != "The daily standup is at 9:15"}
    finally:
        s.close()


def test_a_unit_both_count_in_is_weak_evidence() -> None:
    assert fact_shared.shares_unit("Le loyer est de 900 euros", "je paie maintenant 950 euros pour l'appartement")
    assert fact_shared.shares_unit("Max upload size is 10 MB", "attachments can now be up to 25 MB")
    assert not fact_shared.shares_unit("The laptop has 16 GB of RAM", "the rent is 900 euros now")
    assert not fact_shared.shares_unit("The office is on floor 3", "the canteen is on floor 5 now")  # (no unit)


def test_real_model_unit_alone_names_one_candidate_only(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Alone, the unit points at the one older counted in it: retired. With two such olders in the store,
    nobody can tell which the newer updates: neither is retired."""
    import memory_core as core

    assert pair_links(tmp_path / "r.db", "Le loyer est de 900 euros",
                      "je paie maintenant 950 euros pour l'appartement", real) == (True, False)
    s = core.MemoryStore(tmp_path / "two.db", embedder=real)
    try:
        a = s.store("Le loyer est de 900 euros", "semantic").id
        b = s.store("Die Miete beträgt 980 Euro warm", "semantic").id
        res = s.store("je paie maintenant 950 euros pour l'appartement", "semantic")
        assert a not in res.supersedes and b not in res.supersedes
    finally:
        s.close()
