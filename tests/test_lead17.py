"""Lead, session 17: the same statement about another named thing is no update (users27's finding 7)."""
from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine.fact_qualifier import another_qualified


@pytest.mark.parametrize(("old", "new", "want"), [
    ("The build server for project Apollo uses port 8001", "The build server for project Zeus uses port 8001", True),
    ("agent0 note 1: the build server for project 0 uses port 8001",
     "agent3 note 1: the build server for project 3 uses port 8001", True),
    ("Die Miete für Wohnung 3 ist 700 Euro", "Die Miete für Wohnung 4 ist 700 Euro", True),
    # the difference after the verb is the value; a subject with no qualifier is the subject itself
    ("Standup is at 9:30 in room B", "Standup is at 10:00 in room B", False),
    ("Alice is our contact at Acme", "Bob is our contact at Acme", False),
    ("The rent for flat 3 is 420 euros", "The rent for flat 3 is 450 euros", False),
    # a change said is a change
    ("The build server for project Apollo uses port 8001", "The build server for project Zeus now uses port 8001",
     False),
])
def test_another_qualified(old: str, new: str, want: bool) -> None:
    assert another_qualified(old, new) is want


def test_eight_agents_projects_are_eight_facts_and_a_new_port_still_updates(tmp_path: Path) -> None:
    s = core.MemoryStore(tmp_path / "m.db")
    try:
        ids = [s.store(f"agent{k} note 1: the build server for project {k} uses port 8001", "semantic",
                       source="agent") for k in range(4)]
        assert [r.supersedes for r in ids] == [[], [], [], []]
        named = [s.store(f"The build server for project {p} uses port 8001", "semantic", source="agent")
                 for p in ("Apollo", "Zeus", "Hera")]
        assert [r.supersedes for r in named] == [[], [], []]
        moved = s.store("The build server for project Zeus uses port 8002", "semantic", source="agent")
        assert moved.supersedes == [named[1].id]
    finally:
        s.close()
