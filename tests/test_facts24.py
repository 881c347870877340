"""facts24: what a thing runs ("runs Debian 12") is no place it is in ("moved to Amsterdam")."""

from __future__ import annotations

import pytest

from memengine import fact_kind


@pytest.mark.parametrize("old, new", [
    ("The build server runs Debian 12", "The build server moved to Amsterdam"),
    ("Il server di posta gira su Debian 11", "Il server di posta ora si trova a Torino"),
    ("Le serveur de prod tourne sous Debian 11", "Le serveur de prod est maintenant à Paris"),
])
def test_a_place_is_another_attribute_of_what_runs(old: str, new: str) -> None:
    assert fact_kind.another_attribute(old, new)


@pytest.mark.parametrize("old, new", [
    ("We use Postgres 14", "We moved to MySQL"),  # a generic verb: the name may be a product
    ("The build server uses Java 17 for the pipelines", "The build server moved to Amsterdam"),  # (left: "uses")
    ("The server runs Ubuntu 20.04", "The server now runs Debian"),  # a running verb in the newer too
    ("De backend draait op Java 17", "Revertimos la migración a Kotlin: el backend vuelve a Java"),  # its own name
    ("The build server runs Debian 12", "The build server now runs Debian 13"),
])
def test_not_told_apart(old: str, new: str) -> None:
    assert not fact_kind.another_attribute(old, new)


def test_runs_needs_a_versioned_name() -> None:
    assert fact_kind._runs("O servidor roda Java 11")
    assert fact_kind._runs("De laptop draait op Fedora 39")
    assert not fact_kind._runs("The server runs Debian")
    assert not fact_kind._runs("We use Postgres 14")
