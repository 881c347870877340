"""Python's ``round(x, digits)`` over numpy arrays: the very floats, hundreds of times faster.

consolidate stores rounded weights (a link's cosine to 4 digits, a decayed weight to 6): rounding
half a million values one ``round`` call at a time was ~1.5 CPU-s at 100k memories. These give the
floats ``round`` gives (tests/test_consolidate_once.py compares them on millions of values and ties).

``round(x, d)`` is the double nearest the decimal ``k / 10**d``, where ``k`` is ``x · 10**d`` rounded
half to even *exactly*. ``rint(x · 10**d) / 10**d`` is that whenever the product ``x · 10**d`` is
exact or not within its rounding error of a half; the division is correctly rounded, so it gives
the nearest double to ``k / 10**d``.
"""

from __future__ import annotations

import numpy as np

SUSPECT = 1e-6  # products this close to a half are rounded by round() itself (their error is ~1e-10)


def round_float32(x: np.ndarray, digits: int) -> list[float]:
    """``[round(float(v), digits) for v in x]`` for a float32 array.

    A float32 has 24 significant bits, so ``v · 10**digits`` is exact in float64 for digits ≤ 8
    (10**8 < 2**27, and 24 + 27 < 53): ``rint`` rounds the exact value half to even, as round() does.
    """
    assert x.dtype == np.float32 and 0 <= digits <= 8
    scale = float(10**digits)
    return (np.rint(x.astype(np.float64) * scale) / scale).tolist()


def round_float64(x: np.ndarray, digits: int) -> np.ndarray:
    """``round(float(v), digits)`` for each value of a float64 array (finite values, |v| < 1e9)."""
    x = np.asarray(x, dtype=np.float64)
    scale = float(10**digits)
    y = x * scale
    out = np.rint(y) / scale
    frac = y - np.floor(y)
    for i in np.nonzero(np.abs(frac - 0.5) < SUSPECT)[0].tolist():  # near a half: the product may be off
        out[i] = round(float(x[i]), digits)
    return out
