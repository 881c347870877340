"""Lead fix of session 11 on a blind fact probe: whom a person moved with is no description of the mover (the
kinship words that must match the older fact are the newer's subject's, not the whole sentence's)."""

from __future__ import annotations

import pytest

from memengine import fact_relocated


@pytest.mark.parametrize("new", [
    "Diego se ha mudado a Málaga con su novia",
    "Diego moved to Malaga with his girlfriend",
    "Diego si è trasferito a Malaga con la sua ragazza",
])
def test_a_move_with_someone_is_still_the_movers_move(new: str) -> None:
    verdict = fact_relocated.moved("Mi hermano Diego vive en Sevilla", new)
    assert verdict is not None and verdict.reason == f"{fact_relocated.REASON}: diego -> malaga"


@pytest.mark.parametrize("new", [
    "El amigo de mi hermano Diego se ha mudado a Málaga",
    "My brother's friend Diego moved to Malaga",
])
def test_a_mover_described_otherwise_is_another_person(new: str) -> None:
    assert fact_relocated.moved("Mi hermano Diego vive en Sevilla", new) is None
