"""Round 18: facts that change. A revert said with its reason (the newer names the older's change as
undone: memengine/fact_undone.py) retires the older; a description in one clause whose attributes are
joined by with / mit / avec / con is not retired by a newer about one of them
(memengine/fact_untouched.py). Pairs of this file's own, agent-style, EN / DE / FR / ES / IT."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_links

from memengine import fact_undone, fact_untouched

# (the older states a change; the newer names that change and says it was undone)
REVERTS_NAMED = [
    ("Search now runs on Meilisearch", "Rolled back the Meilisearch migration, search is on Elasticsearch again"),
    ("Der Build läuft jetzt mit Bun", "Die Umstellung auf Bun wurde zurückgerollt, der Build läuft wieder mit npm"),
    ("Les e-mails partent maintenant par Resend", "On a annulé la migration vers Resend : retour à Postmark"),
    ("El cliente móvil pasó a Flutter", "Revertimos el cambio a Flutter, el cliente vuelve a React Native"),
    ("Le code è passato a Biome", "Abbiamo annullato il passaggio a Biome, si torna a ESLint"),
]

# a revert of another thing, a return on a day, a thing rolled back that is no change
NOT_UNDONE = [
    ("Search now runs on Meilisearch", "Reverted the Tailwind upgrade; the styles are back on Tailwind 3"),
    ("Der Build läuft jetzt mit Bun", "Wir sind zurück auf Node 18 für den Deploy-Server"),
    ("Priya works from the Berlin office this week", "Priya is back on Monday"),
    ("The hallway has a new rug", "We rolled back the rug to fix the floor"),
    ("Priya likes Meilisearch", "Priya is back to Elasticsearch for her side project"),
]

# a description in one clause, then one of its attributes
ONE_CLAUSE_DESCRIPTIONS = [
    ("Nimbus runs on Elixir with Postgres and ships through Gigalixir", "Nimbus runs on Elixir 1.17"),
    ("The admin panel is a Svelte app built with Vite and tested with Jest", "The admin panel is tested with Vitest now"),
    ("Kompass läuft auf Kubernetes mit Linkerd und Grafana", "Kompass läuft jetzt auf Kubernetes 1.31"),
    ("Boussole tourne sur Django avec Celery et Redis", "Boussole tourne sur Django 5.1 maintenant"),
    ("Brújula es una API en Go con MySQL desplegada en GCP", "Brújula es una API en Go 1.23 ahora"),
]

# the with-part is the slot's own value, or the newer says the same preposition again: one statement
WITH_IS_THE_VALUE = [
    ("I play squash with Tom", "I play squash with Ana now"),
    ("Unit tests are written with Mocha", "we ported the specs to Vitest"),
    ("Sam lives with Jo", "Sam lives with Kim now"),
    ("The worker runs on Python 3.11", "The worker runs on Python 3.12 now"),
]


@pytest.mark.parametrize(("old", "new"), REVERTS_NAMED)
def test_a_revert_names_the_older_change(old: str, new: str) -> None:
    assert fact_undone.undone(old, new) != ""


@pytest.mark.parametrize(("old", "new"), NOT_UNDONE)
def test_not_the_older_change_undone(old: str, new: str) -> None:
    assert fact_undone.undone(old, new) == ""


@pytest.mark.parametrize(("old", "new"), ONE_CLAUSE_DESCRIPTIONS)
def test_one_clause_description_keeps_an_untouched_attribute(old: str, new: str) -> None:
    assert fact_untouched.untouched(old, new) != ""


@pytest.mark.parametrize(("old", "new"), WITH_IS_THE_VALUE)
def test_a_with_part_that_is_the_value_is_one_statement(old: str, new: str) -> None:
    assert fact_untouched.untouched(old, new) == ""


def test_with_splits_only_after_a_named_thing() -> None:
    assert fact_untouched.statements("Nimbus runs on Elixir with Postgres") == (("nimbus", "runs", "elixir"),
                                                                               ("#with", "postgres"))
    assert len(fact_untouched.statements("I play squash with Tom")) == 1


# --------------------------------------------------------------------------- with the real model

@pytest.mark.parametrize(("old", "new"), ONE_CLAUSE_DESCRIPTIONS)
def test_real_model_one_clause_description_not_retired(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert not pair_links(tmp_path / "r.db", old, new, real)[0]


@pytest.mark.parametrize(("old", "new"), NOT_UNDONE)
def test_real_model_not_undone_not_retired(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert not pair_links(tmp_path / "r.db", old, new, real)[0]


@pytest.mark.parametrize(("old", "new"), REVERTS_NAMED[:4])
def test_real_model_named_revert_supersedes(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert pair_links(tmp_path / "r.db", old, new, real) == (True, False)
