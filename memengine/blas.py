"""One BLAS thread for a warm recall process: its matrix products are small and already run two at a time.

A warm recall re-ranks a few thousand int8 rows per vector table (``VectorMatrix._sims``:
a 3200 × 384 product, ~0.1 ms on one core) on two threads at once (the memories' table here,
the contexts' on the worker). numpy's OpenBLAS splits each such product over every core and
then spins its threads waiting for the next one: per recall at 100k, 38 → 14 ms of CPU and a
third of the wall time on a loaded 2-core machine (bench/README.md, "Where a warm recall's time
goes at 1M"). One thread computes each row's dot product with the same kernel, so the results
are bit-identical (tests/test_blas.py).

``one_thread()`` sets the limit once per process (threadpoolctl: OpenBLAS, MKL, BLIS or
Accelerate alike) and is a no-op without threadpoolctl. It is process-wide: a process that
also runs consolidate keeps it, and consolidate's neighbour search spreads its blocks over
the cores in its own threads (knn.py), each of which then runs BLAS on one core.
"""

from __future__ import annotations

_state: dict[str, bool] = {}


def one_thread() -> bool:
    """Limit BLAS to one thread in this process (once); False when it could not be done."""
    done = _state.get("done")
    if done is None:
        try:
            from threadpoolctl import threadpool_limits

            threadpool_limits(limits=1, user_api="blas")
            done = True
        except Exception:  # (not installed, or a BLAS it cannot drive): the products stay right, only slower
            done = False
        _state["done"] = done
    return done
