"""Pure-Python work of consolidate spread over the cores: an ordered map in forked worker processes.

Summaries and contradiction checks are Python loops over strings (the GIL keeps them on
one core in threads). ``ordered_map(fn, items, shared)`` runs ``fn(shared, item)`` for every
item in ``workers()`` forked processes and returns the results in item order, so the caller
writes exactly what the serial loop would. ``shared`` (e.g. a term-frequency table) reaches
the workers through the fork, not through a pipe. Where fork is not the platform's way
(macOS, Windows), with one worker, or for a few items, the loop runs here, serially.
Workers never touch the database: they get plain values and return plain values.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from memengine.knn import workers

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 64  # below this a pool costs more than it saves (forking ~20 ms per worker)
POOLS_RUN = [0]  # pools started in this process (tests check the parallel path really ran)
_shared: Any = None
_fn: Callable[[Any, Any], Any] | None = None


def _call(batch: Sequence[Any]) -> list[Any]:
    assert _fn is not None
    return [_fn(_shared, item) for item in batch]


def ordered_map(fn: Callable[[Any, T], R], items: Sequence[T], shared: Any = None,
                min_items: int | None = None) -> list[R]:
    """``[fn(shared, x) for x in items]``, in forked processes when it pays; the same list either way."""
    global _shared, _fn
    n = workers()
    least = MIN_ITEMS if min_items is None else min(min_items, MIN_ITEMS)
    if n < 2 or len(items) < max(2, least) or not sys.platform.startswith("linux"):
        return [fn(shared, x) for x in items]
    size = max(1, -(-len(items) // (n * 8)))  # ~8 batches per worker: a slow batch does not idle the rest
    batches = [items[i : i + size] for i in range(0, len(items), size)]
    _shared, _fn = shared, fn
    POOLS_RUN[0] += 1
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            out: list[R] = []
            for part in pool.imap(_call, batches):
                out.extend(part)
            return out
    finally:
        _shared, _fn = None, None
