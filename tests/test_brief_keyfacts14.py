"""A key fact folds under the older one it updates when both name the same rare subject, though short facts sit
below the fold's cosine (lead, round 14: replaced key facts shown as current went 6 -> 12 on the held-out notes after
round 11, among them "On-call for Kestrel this week is Marek Novak" beside "On-call for Kestrel from 9 November is
Lina Okoro", 0.62 apart, and a German office's "Jour fixe" on Monday beside the one on Tuesday, 0.64)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from memengine import brief_keyfacts


class _Vectors:
    """A store's stored vectors, and nothing else the fold reads."""

    def __init__(self, vecs: dict[int, list[float]]) -> None:
        self.vecs = vecs

    def vectors(self, ids: list[int]) -> dict[int, Any]:
        return {i: np.asarray(self.vecs[i], dtype=np.float32) for i in ids if i in self.vecs}


def _at(cos: float) -> list[float]:
    """A unit vector at ``cos`` from (1, 0, 0)."""
    return [cos, math.sqrt(1 - cos * cos), 0.0]


def _rows(texts: list[tuple[int, str, str]]) -> list[tuple[Any, ...]]:
    return [(i, t, d, 0, 0.8, "agent") for i, t, d in texts]


def test_a_shared_rare_subject_folds_close_facts() -> None:
    rows = _rows([(1, "On-call for Kestrel this week is Marek Novak.", "2026-11-03 09:00"),
                  (2, "Kestrel runs on Node 18 with Fastify.", "2026-11-02 09:00"),
                  (3, "On-call for Kestrel from 9 November is Lina Okoro, backup Tariq Hassan.", "2026-11-09 09:00")])
    store = _Vectors({1: [1.0, 0.0, 0.0], 2: [0.0, 0.0, 1.0], 3: _at(0.62)})
    groups = brief_keyfacts.fold_updates(store, rows)  # type: ignore[arg-type]
    shown = {int(top[0]): [int(o[0]) for o in older] for top, older in groups}
    assert shown == {3: [1], 2: []}


def test_no_shared_rare_subject_keeps_them_apart() -> None:
    rows = _rows([(1, "The staging database is pg-stage-2, running Postgres 15.", "2026-11-03 09:00"),
                  (2, "Sentry collects production errors; the project is ledgerly-prod.", "2026-11-09 09:00")])
    store = _Vectors({1: [1.0, 0.0, 0.0], 2: _at(0.62)})
    groups = brief_keyfacts.fold_updates(store, rows)  # type: ignore[arg-type]
    assert sorted(int(top[0]) for top, _older in groups) == [1, 2]
    assert all(not older for _top, older in groups)
