"""``MemoryStore``: one memory file, its rooms put together.

``StoreBase`` (state and shared reads) ← ``Writes`` (store, links, lifecycle, export),
``Recall`` (the recall pipeline), ``Maintenance`` (stats, doctor, reindex, backup,
compact). Features (graph, consolidate, sharing, ingest) use its public methods.
"""

from __future__ import annotations

from memengine.maintenance import Maintenance
from memengine.recall.pipeline import Recall
from memengine.writes import Writes


class MemoryStore(Writes, Recall, Maintenance):
    """One memory file. ``MemoryStore(path).store(...)`` / ``.recall(query, k=...)``.

    ``embedder`` may be an object with ``model_id``, ``dims`` and ``embed(texts)``;
    by default the local MiniLM model is loaded on first use. If it cannot load,
    the store works keyword-only and says so (``degraded == "no-vectors"``).
    """

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
