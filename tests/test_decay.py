"""Decay: non-compounding strength, reinforcement, archiving thresholds."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memengine.decay import (
    ARCHIVE_BELOW,
    DECAY_RATES,
    REINFORCE_BOOST,
    days_until_archive,
    reinforce,
    should_archive,
    strength_at,
)

T0 = datetime(2024, 3, 1, 3, 0, tzinfo=timezone.utc)

bases = st.floats(min_value=0.0, max_value=1.0)
importances = st.floats(min_value=0.0, max_value=1.0)
types = st.sampled_from(sorted(DECAY_RATES))
day_counts = st.floats(min_value=0.0, max_value=5000.0)


def _nightly_archive_day(memory_type: str, importance: float, base: float = 1.0) -> int | None:
    """Simulate the nightly job from the stored (base, ref): first day archived."""
    for day in range(2000):
        s = strength_at(base, memory_type, importance, T0, T0 + timedelta(days=day))
        if should_archive(s, importance, pinned=False):
            return day
    return None


@given(bases, types, importances)
def test_daily_recompute_equals_one_shot_after_30_days(base: float, mtype: str, imp: float) -> None:
    # The nightly job recomputes from the stored base and ref every day and
    # never writes back: the 30th value is exactly the one-shot value.
    daily = [strength_at(base, mtype, imp, T0, T0 + timedelta(days=d)) for d in range(1, 31)]
    once = strength_at(base, mtype, imp, T0, T0 + timedelta(days=30))
    assert daily[-1] == once


@given(bases, types, importances)
def test_even_writing_back_daily_does_not_compound(base: float, mtype: str, imp: float) -> None:
    # A job that (wrongly) re-anchored every night would still agree within 1e-12:
    # the decay is exponential in elapsed time, so it composes.
    b, ref = base, T0
    for d in range(1, 31):
        now = T0 + timedelta(days=d)
        b, ref = strength_at(b, mtype, imp, ref, now), now
    once = strength_at(base, mtype, imp, T0, T0 + timedelta(days=30))
    assert math.isclose(b, once, rel_tol=1e-12, abs_tol=1e-12)


@given(bases, types, importances, day_counts, day_counts)
def test_monotonic_non_increasing_in_time(base: float, mtype: str, imp: float, d1: float, d2: float) -> None:
    early, late = sorted((d1, d2))
    s_early = strength_at(base, mtype, imp, T0, T0 + timedelta(days=early))
    s_late = strength_at(base, mtype, imp, T0, T0 + timedelta(days=late))
    assert s_late <= s_early


@given(bases, types, importances, importances, day_counts)
def test_importance_slows_decay(base: float, mtype: str, i1: float, i2: float, days: float) -> None:
    low, high = sorted((i1, i2))
    now = T0 + timedelta(days=days)
    assert strength_at(base, mtype, high, T0, now) >= strength_at(base, mtype, low, T0, now)


@given(st.floats(min_value=-5, max_value=5), types, st.floats(min_value=-2, max_value=3),
       st.floats(min_value=-1000, max_value=100000))
def test_strength_stays_in_unit_interval(base: float, mtype: str, imp: float, days: float) -> None:
    s = strength_at(base, mtype, imp, T0, T0 + timedelta(days=days))
    assert 0.0 <= s <= 1.0


def test_future_reference_time_counts_as_zero_days() -> None:
    assert strength_at(0.7, "episodic", 0.5, T0, T0 - timedelta(days=3)) == 0.7


def test_fresh_memory_has_its_base() -> None:
    assert strength_at(1.0, "semantic", 0.0, T0, T0) == 1.0


@pytest.mark.parametrize(
    ("mtype", "expected_days", "archive_day"),
    [
        # base 1.0, importance 0.5: ln(0.1) / (0.75 * ln(rate))
        ("episodic", 36.82003137609802, 37),
        ("semantic", 151.9654474557992, 152),
        ("procedural", 305.47371770225897, 306),
    ],
)
def test_default_importance_archive_day(mtype: str, expected_days: float, archive_day: int) -> None:
    assert days_until_archive(1.0, mtype, 0.5) == pytest.approx(expected_days, rel=1e-12)
    # The nightly job (from the stored base and ref) archives on exactly this day.
    assert _nightly_archive_day(mtype, 0.5) == archive_day


def test_imported_old_chat_survives_first_run() -> None:
    # Imported today (ref = import time), event three years ago: untouched tonight
    # and still active on day 36 — the old formula erased it on the first run.
    imported = T0
    for day in range(37):
        s = strength_at(1.0, "episodic", 0.5, imported, imported + timedelta(days=day))
        assert not should_archive(s, 0.5, pinned=False), day
    s37 = strength_at(1.0, "episodic", 0.5, imported, imported + timedelta(days=37))
    assert should_archive(s37, 0.5, pinned=False)


def test_default_episodic_no_longer_vanishes_on_day_9() -> None:
    s = strength_at(1.0, "episodic", 0.5, T0, T0 + timedelta(days=9))
    assert s == pytest.approx(0.92 ** 6.75)
    assert s > 0.5


def test_days_until_archive_edge_cases() -> None:
    assert days_until_archive(1.0, "episodic", 0.9) is None
    assert days_until_archive(1.0, "episodic", 1.0) is None
    assert days_until_archive(0.1, "episodic", 0.5) == 0.0
    assert days_until_archive(0.05, "semantic", 0.0) == 0.0
    assert days_until_archive(1.0, "episodic", 0.0) == pytest.approx(27.61502353207352)
    with pytest.raises(ValueError, match="unknown memory type"):
        days_until_archive(1.0, "dream", 0.95)


@given(st.floats(min_value=0.11, max_value=1.0), types, st.floats(min_value=0.0, max_value=0.89))
def test_days_until_archive_matches_strength(base: float, mtype: str, imp: float) -> None:
    days = days_until_archive(base, mtype, imp)
    assert days is not None and days > 0
    at = strength_at(base, mtype, imp, T0, T0 + timedelta(days=days))
    assert at == pytest.approx(ARCHIVE_BELOW, rel=1e-6)


def test_should_archive() -> None:
    assert should_archive(0.099, 0.5, pinned=False)
    assert not should_archive(0.1, 0.5, pinned=False)  # strictly below
    assert not should_archive(0.0, 0.5, pinned=True)
    assert not should_archive(0.0, 0.9, pinned=False)
    assert should_archive(0.0, 0.89, pinned=False)


@given(bases, types, importances, day_counts)
def test_reinforce_resets_clock_and_boosts(base: float, mtype: str, imp: float, days: float) -> None:
    now = T0 + timedelta(days=days)
    new_base, new_ref = reinforce(base, mtype, imp, T0, now)
    current = strength_at(base, mtype, imp, T0, now)
    assert new_ref == now
    assert new_base == min(1.0, current + REINFORCE_BOOST)
    assert current <= new_base <= 1.0
    # Immediately after the access, strength is the new base.
    assert strength_at(new_base, mtype, imp, new_ref, now) == new_base


def test_reinforce_with_skewed_clock_keeps_reference() -> None:
    new_base, new_ref = reinforce(0.5, "episodic", 0.5, T0, T0 - timedelta(days=2))
    assert new_ref == T0
    assert new_base == pytest.approx(0.5 + REINFORCE_BOOST)


def test_reinforce_extends_life() -> None:
    # At the threshold, one access buys 17.6 more days (episodic, importance 0.5).
    archive_at = T0 + timedelta(days=36.8)
    new_base, new_ref = reinforce(1.0, "episodic", 0.5, T0, archive_at)
    extra = days_until_archive(new_base, "episodic", 0.5)
    assert extra == pytest.approx(17.57, abs=0.05)
    assert new_ref == archive_at


def test_unknown_type_and_nan_rejected() -> None:
    with pytest.raises(ValueError, match="unknown memory type"):
        strength_at(1.0, "dream", 0.5, T0, T0)
    with pytest.raises(ValueError, match="NaN"):
        strength_at(float("nan"), "episodic", 0.5, T0, T0)


def test_naive_and_aware_datetimes_are_not_mixed() -> None:
    with pytest.raises(TypeError):
        strength_at(1.0, "episodic", 0.5, datetime(2024, 1, 1), T0)
