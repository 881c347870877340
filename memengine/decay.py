"""Memory strength decay that does not compound when the nightly job reruns.

The original design multiplied a stored strength by a decay factor every night.
That compounds: the factor is applied once per *run*, not once per *day*, so a
missed night or a second run changes the outcome, a default episodic memory
vanished on day 9, and years-old imported chats (whose event time is far in the
past) were wiped on the first run.

Here strength is a pure function of two stored values and the clock::

    strength = base * DECAY_RATES[type] ** (days * (1 - importance * IMPORTANCE_SLOWDOWN))

``base`` is the strength at ``ref_time``; ``days`` is the time elapsed since
``ref_time``. ``ref_time`` is the last access (or, for a memory never accessed,
the time it was created/imported in *this* store — never the event time of an
old message). Running the computation every night, twice a night or once a
month gives the same number, because nothing is written back except on access.

Reinforcement (an access) is the only write: it re-anchors the clock at the
access time with ``base = min(1, strength_now + REINFORCE_BOOST)``. Because the
decay is exponential in time, re-anchoring without a boost also never changes
the curve (``b·r^a·r^c == b·r^(a+c)``), so even a job that wrote the current
strength back as a new base would not compound.

Days until a fresh memory (base 1.0) drops below ``ARCHIVE_BELOW`` (0.1)::

    type        importance 0.0   importance 0.5   importance 0.8
    episodic        27.6 d           36.8 d           46.0 d
    semantic       114.0 d          152.0 d          190.0 d
    procedural     229.1 d          305.5 d          381.8 d

i.e. a default episodic memory (importance 0.5) imported today is still active
on day 36 and is archived by the nightly run of day 37; semantic on day 152,
procedural on day 306. Importance >= 0.9 or pinned memories never archive.
Archived memories are kept (status change only), never deleted.
"""

from __future__ import annotations

import math
from datetime import datetime

# Per-day multiplicative decay for each memory type. Episodic memories (what
# happened) fade fastest; semantic facts and procedural know-how are what a
# memory is *for*, so they last months rather than weeks (see table above).
EPISODIC_DECAY = 0.92
SEMANTIC_DECAY = 0.98
PROCEDURAL_DECAY = 0.99

DECAY_RATES: dict[str, float] = {
    "episodic": EPISODIC_DECAY,
    "semantic": SEMANTIC_DECAY,
    "procedural": PROCEDURAL_DECAY,
}

# Below this strength the nightly job archives a memory (status change only:
# archived memories are still searchable on request and are never deleted).
ARCHIVE_BELOW = 0.1

# Importance at or above which a memory is never archived, however weak: the
# user (or the extractor) said it matters, and forgetting it silently would be
# worse than a slightly larger index.
NEVER_ARCHIVE_IMPORTANCE = 0.9

# Importance stretches time: importance 1.0 halves the effective elapsed days
# (decay at half speed), importance 0 decays at the type's full rate.
IMPORTANCE_SLOWDOWN = 0.5

# Strength added on access. 0.2 lifts a memory at the archive threshold (0.1)
# to 0.3, which buys an episodic memory of importance 0.5 another 17.6 days;
# repeated use pushes it back towards 1.0 (the cap).
REINFORCE_BOOST = 0.2

SECONDS_PER_DAY = 86_400.0


def _clamp01(value: float) -> float:
    if math.isnan(value):
        raise ValueError("strength/importance must be a number, got NaN")
    return min(1.0, max(0.0, value))


def _rate(memory_type: str) -> float:
    try:
        return DECAY_RATES[memory_type]
    except KeyError:
        known = ", ".join(sorted(DECAY_RATES))
        raise ValueError(f"unknown memory type {memory_type!r} (expected one of: {known})") from None


def _exponent_per_day(importance: float) -> float:
    return 1.0 - _clamp01(importance) * IMPORTANCE_SLOWDOWN


def elapsed_days(ref_time: datetime, now: datetime) -> float:
    """Days from ``ref_time`` to ``now``, never negative.

    A reference time in the future (clock skew, a bad import) counts as zero
    days rather than *raising* the strength. Both datetimes must be of the same
    kind (both naive or both timezone-aware); mixing them raises ``TypeError``.
    """
    return max(0.0, (now - ref_time).total_seconds() / SECONDS_PER_DAY)


def strength_at(base: float, memory_type: str, importance: float, ref_time: datetime, now: datetime) -> float:
    """Strength at ``now`` of a memory whose strength was ``base`` at ``ref_time``.

    Pure and idempotent: the nightly job calls it from the stored ``base`` and
    ``ref_time`` and must not write the result back as the new base (it may,
    harmlessly, but only :func:`reinforce` should move the clock). The result
    is in [0, 1], non-increasing in ``now`` and non-increasing in decay speed
    (higher importance → slower decay).
    """
    days = elapsed_days(ref_time, now)
    return _clamp01(base) * float(_rate(memory_type) ** (days * _exponent_per_day(importance)))


def reinforce(
    base: float, memory_type: str, importance: float, ref_time: datetime, now: datetime
) -> tuple[float, datetime]:
    """Apply an access at ``now``: return ``(new_base, new_ref_time)`` to store.

    The clock restarts at the access time and the strength gets
    ``REINFORCE_BOOST`` on top of what it had decayed to, capped at 1.0. If
    ``now`` is before ``ref_time`` (clock skew) the reference time is kept, so
    a skewed access can never extend a memory's life by moving time backwards.
    """
    current = strength_at(base, memory_type, importance, ref_time, now)
    return min(1.0, current + REINFORCE_BOOST), max(ref_time, now)


def should_archive(strength: float, importance: float, pinned: bool) -> bool:
    """True when a memory should move to status ``archived`` (never deleted).

    Pinned memories and memories with importance >= ``NEVER_ARCHIVE_IMPORTANCE``
    are never archived; others are archived once strength is strictly below
    ``ARCHIVE_BELOW``.
    """
    if pinned or importance >= NEVER_ARCHIVE_IMPORTANCE:
        return False
    return strength < ARCHIVE_BELOW


def days_until_archive(base: float, memory_type: str, importance: float) -> float | None:
    """Days after the reference time at which strength reaches ``ARCHIVE_BELOW``.

    ``None`` means never (importance >= ``NEVER_ARCHIVE_IMPORTANCE``). ``0.0``
    means the memory is already at or below the threshold. For ``base`` 1.0
    see the table in the module docstring (episodic, importance 0.5: 36.82).
    The memory is archived by the first nightly run strictly after this point.
    """
    rate = _rate(memory_type)  # validate the type even when the answer is "never"
    if importance >= NEVER_ARCHIVE_IMPORTANCE:
        return None
    base = _clamp01(base)
    if base <= ARCHIVE_BELOW:
        return 0.0
    per_day = _exponent_per_day(importance) * math.log(rate)
    return math.log(ARCHIVE_BELOW / base) / per_day
