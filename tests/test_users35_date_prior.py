"""users35 #5: recall's date prior (``priors.in_spans``, off by default: ``w_date`` 0) read a UTC row's UTC date.

In Los Angeles a note stored ``--at "2026-03-01 23:30"`` is the UTC moment 2026-03-02 07:30: "what happened on
March 1" must count it (the user's day, as ``--since`` reads it: memengine/timekind.py), while a WhatsApp message
written at 07:30 on 2 March (a floating wall clock) stays on 2 March.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest

from memengine import timeparse
from memengine.recall.config import RecallConfig
from memengine.recall.priors import in_spans
from memengine.records import Candidate


@pytest.fixture
def los_angeles() -> Iterator[None]:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "America/Los_Angeles"
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


def _cand(event_at: str, kind: str | None) -> Candidate:
    row = (1, "x", None, None, None, event_at, "{}", 1.0, 0.5, "user") + ((kind,) if kind else ())
    return Candidate(row)


def test_a_utc_moment_is_on_the_users_day(los_angeles: None) -> None:
    march1 = timeparse.query_dates("what happened on March 1 2026")
    march2 = timeparse.query_dates("what happened on March 2 2026")
    assert march1 and march2
    assert in_spans(_cand("2026-03-02T07:30:00", "utc"), march1)
    assert not in_spans(_cand("2026-03-02T07:30:00", "utc"), march2)
    # a chat's wall clock and a bare day are the day they show
    assert in_spans(_cand("2026-03-02T07:30:00", "floating"), march2)
    assert in_spans(_cand("2026-03-02T00:00:00", "day"), march2)
    # a row whose kind is not known (an older caller's row) reads as stored, as before
    assert in_spans(_cand("2026-03-02T07:30:00", None), march2)


def test_recall_candidates_carry_their_kind(los_angeles: None, store: Any) -> None:
    late = store.store("Dinner with the Hendersons at the harbour restaurant", memory_type="episodic",
                       event_at=datetime(2026, 3, 2, 7, 30, tzinfo=timezone.utc)).id  # 23:30 in LA
    store.store("Dinner plans with the Hendersons cancelled again", memory_type="episodic",
                event_at=datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc))
    assert tuple(store.conn.execute("SELECT event_at, time_kind FROM memories WHERE id = ?", (late,)).fetchone()) == (
        "2026-03-02T07:30:00", "utc")
    res = store.recall("dinner with the Hendersons on March 1 2026", k=2, explain=True, touch=False,
                       config=RecallConfig(w_date=0.2))
    dated = [m.id for m in res.results if (m.explain or {}).get("priors", {}).get("date")]
    assert dated == [late]
