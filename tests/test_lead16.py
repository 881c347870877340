"""Lead, session 16: the older a newer note restates stays under it at the cut — one, never a chain."""
from __future__ import annotations

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
