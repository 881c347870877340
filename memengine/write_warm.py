"""What a store compares facts with, loaded before it takes the write lock.

A store of a fact decides inside its ``BEGIN IMMEDIATE`` transaction whether it repeats, replaces or contradicts
a current fact (memengine/writes.py ``_store_locked``): the decision must see the rows as they are when it writes.
The code of that decision is imported lazily (``memengine.facts`` and the ~80 ``memengine.fact_*`` modules,
~250 regular expressions compiled at import), so a process's first such store — every `mem.py store` call —
paid the imports with the write lock held: 95 ms of CPU against 3–4 ms warm, ~1 s of wall at 12×
oversubscription, during which every other writer (a nightly consolidate, seven other agents) waits
(bench/data/users30_findings.md #1). :func:`warm` does the imports first, outside the lock; later calls cost
nothing. Only the import is moved: what is decided and when is unchanged.
"""

from __future__ import annotations

import importlib
import pkgutil

_WARM = False


def warm() -> None:
    """Import ``memengine.facts`` and every ``memengine.fact_*`` module, once per process."""
    global _WARM
    if _WARM:
        return
    import memengine

    importlib.import_module("memengine.facts")
    for mod in pkgutil.iter_modules(memengine.__path__):
        if mod.name.startswith("fact_"):
            importlib.import_module(f"memengine.{mod.name}")
    _WARM = True
