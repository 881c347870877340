"""A thing that runs one system and is said to be moved or migrated to another is updated (lead, session 7):
facts24 read "moved to X" after an older "runs <name> <version>" as a place the thing moved to (another attribute)
and kept "The build server runs Ubuntu 20.04" live beside "we moved the build server to Debian last week"; the rule
was reverted. Real model, real stores, one pair per store."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_outcome


@pytest.mark.parametrize(("old", "new"), [
    ("The build server runs Ubuntu 20.04", "we moved the build server to Debian last week"),
    ("Our CI runner runs Fedora 39", "CI runner migrated to Rocky Linux"),
])
def test_a_system_migrated_to_another_is_an_update(real, tmp_path: Path, old: str, new: str
                                                   ) -> None:  # type: ignore[no-untyped-def]
    superseded, _ = pair_outcome(tmp_path / "m.db", old, new, real)
    assert superseded
