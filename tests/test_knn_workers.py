"""How many workers consolidate's search and pools take: MEM_WORKERS, else the idle cores."""

from __future__ import annotations

import os

import pytest

from memengine import knn


@pytest.mark.parametrize(("load", "expected"), [(0.0, 2), (0.6, 2), (1.3, 2), (1.6, 1), (4.8, 1)])
def test_idle_cores_decide_the_workers(monkeypatch: pytest.MonkeyPatch, load: float, expected: int) -> None:
    monkeypatch.delenv("MEM_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert knn.workers() == expected


def test_mem_workers_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_WORKERS", "3")
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    assert knn.workers() == 3
