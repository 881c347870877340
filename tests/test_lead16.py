"""Lead, session 16: the older a newer note restates stays under it at the cut — one, never a chain."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import memory_core as core


def test_k1_keeps_one_older_under_the_newer_not_a_chain(tmp_path: Path) -> None:
    # three notes, each a value said anew of the one before (round 36's other_value): 3 marks 2, 2 marks 1
    s = core.MemoryStore(tmp_path / "m.db")
    try:
        for i in range(3):
            s.store(f"memory {i}: deploy the gateway on host {i} with ansible", "semantic")
        wide = s.recall("deploy", k=3).results
        assert [m.id for m in wide] == [3, 2, 1]
        assert [m.possibly_outdated for m in wide] == [None, True, True]
        one = s.recall("deploy", k=1).results
        assert [m.id for m in one] == [3, 2]  # (the newest, and the older it marks right under it; not id 1)
        assert one[1].possibly_outdated_by == [3]
    finally:
        s.close()


def test_a_name_shared_with_another_date_is_no_new_value(tmp_path: Path) -> None:
    # round 36's other_value needs two rare shared words; a person's two names alone are no subject said again
    s = core.MemoryStore(tmp_path / "m.db")
    try:
        meeting = s.store("Ingrid has a meeting with the editor, Siri Dahl, on 2 September at 14:00.", "episodic",
                          event_at=datetime(2026, 8, 20, tzinfo=timezone.utc)).id
        later = s.store("Crime novel manuscript delivered to Siri Dahl on 18 November.", "episodic",
                        event_at=datetime(2026, 11, 18, tzinfo=timezone.utc)).id
        hits = s.recall("when was the meeting with the editor?", k=3).results
        first = next(m for m in hits if m.id == meeting)
        assert later in [m.id for m in hits] and not first.possibly_outdated
    finally:
        s.close()
