"""Disk per chat turn, write cost and keyword-side cost of a LoCoMo-turn store (issue 22).

    .venv/bin/python bench/disk.py                         # 100k turns in a temp dir (~5-10 min)
    .venv/bin/python bench/disk.py --n 20000 --keep /tmp/disk   # smaller; keep the DB
    .venv/bin/python bench/disk.py --migrate OLD.db        # time m010 on a copy of an older store

Builds a store of real conversation turns (the LoCoMo dev file copied to ``--n``, one thread
per copied conversation, as ``bench/latency.py --text locomo`` does) through ``store_many``
with random unit vectors (what is measured is disk and the write path, not the model), then
prints:

* bytes per memory on disk after a checkpoint and after ``compact`` (VACUUM), split by
  table with SQLite's ``dbstat`` (row table, FTS5 shadow tables, vec0 tables, indexes);
* build rate (messages/s through ``store_many``: the import path without the embedder) and
  the rate of ``store`` appending turns one by one to live threads;
* keyword-side latency over the LoCoMo questions: FTS5 bm25 and the in-process index;
* exactness: FTS5's ``integrity-check`` against its content and the in-process index's
  scores equal to FTS5's for every question.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

os.environ.setdefault("MEM_EMBEDDER", "hash")  # stored vectors are random; no model needed

import numpy as np  # noqa: E402

from bench.latency import locomo_corpus  # noqa: E402
from memengine import migrations  # noqa: E402
from memengine.db import connect  # noqa: E402
from memory_core import MemoryStore, NewMemory  # noqa: E402

GROUPS = (("memories row", ("memories",)),
          ("keyword index (FTS5)", ("memories_fts",)),
          ("vectors (vec0)", ("vec_memories", "vec_contexts")),
          ("indexes on memories", ("memories_",)))


class RandomEmbedder:
    """Seeded random unit vectors under a fixed model id (disk and write cost only)."""

    model_id = "random-384"
    dims = 384

    def __init__(self, seed: int = 3) -> None:
        self.rng = np.random.default_rng(seed)

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        v = self.rng.standard_normal((len(texts), self.dims)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def corpus(n: int) -> tuple[list[NewMemory], list[str]]:
    """LoCoMo turns copied to ``n`` (each copy its own threads) and the LoCoMo questions."""
    return locomo_corpus(n)


def breakdown(path: Path) -> dict[str, int]:
    """Bytes per table group (dbstat), plus the file total."""
    conn = connect(str(path))
    sizes: dict[str, int] = {}
    for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
        sizes[name] = int(size)
    conn.close()
    out: dict[str, int] = {}
    used: set[str] = set()
    for label, prefixes in GROUPS:
        names = [k for k in sizes if k not in used and any(k == p or k.startswith(p) for p in prefixes)]
        if label == "memories row":
            names = [k for k in names if k == "memories"]
        used.update(names)
        out[label] = sum(sizes[k] for k in names)
    out["everything else"] = sum(v for k, v in sizes.items() if k not in used)
    out["file"] = path.stat().st_size
    return out


def print_sizes(title: str, sizes: dict[str, int], n: int) -> None:
    print(f"\n{title}")
    print("| part | bytes per memory |\n|---|---|")
    for k, v in sizes.items():
        print(f"| {k} | {v / n:,.0f} |")


def keyword_latency(path: Path, questions: list[str]) -> dict[str, Any]:
    """p50/p95 of the keyword side (FTS5 bm25 vs the in-process index) and their agreement."""
    out: dict[str, Any] = {}
    fts = MemoryStore(path, embedder=RandomEmbedder(), keyword_index=False)
    warm = MemoryStore(path, embedder=RandomEmbedder(), keyword_index=True)
    t0 = time.perf_counter()
    warm.warm_up()
    out["index_build_s"] = round(time.perf_counter() - t0, 2)
    out["index_stats"] = warm._keyword_index.stats() if getattr(warm, "_keyword_index", None) else None
    lat: dict[str, list[float]] = {"fts5": [], "index": []}
    same = 0
    for q in questions:
        got = {}
        for name, st in (("fts5", fts), ("index", warm)):
            t0 = time.perf_counter()
            got[name] = [(m.id, m.score) for m in st.recall(q, k=10, strategy="keyword", touch=False).results]
            lat[name].append((time.perf_counter() - t0) * 1000)
        same += int([(i, round(s, 6)) for i, s in got["fts5"]] == [(i, round(s, 6)) for i, s in got["index"]])
    for name, ms in lat.items():
        ms.sort()
        out[name] = {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1)}
    out["same_top10"] = f"{same}/{len(questions)}"
    fts.close()
    warm.close()
    return out


def append_rate(path: Path, items: list[NewMemory], n: int) -> float:
    """messages/s of ``store`` appending ``n`` turns one by one to live threads."""
    st = MemoryStore(path, embedder=RandomEmbedder(seed=9))
    t0 = time.perf_counter()
    for i, it in enumerate(items[:n]):
        st.store(it.content, "episodic", source="live", ref=f"live/{i}", author=it.author,
                 thread=f"live/{it.thread}", event_at=it.event_at, dedup=False)
    took = time.perf_counter() - t0
    st.close()
    return n / took


def migrate(old: Path) -> int:
    """Copy ``old`` and time the pending migrations on the copy (one transaction each)."""
    work = Path(tempfile.mkdtemp(prefix="mem-disk-mig-")) / old.name
    shutil.copy(old, work)
    conn = connect(str(work))
    n = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    before = work.stat().st_size
    t0 = time.perf_counter()
    applied = migrations.migrate(conn)
    took = time.perf_counter() - t0
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    mid = work.stat().st_size
    t1 = time.perf_counter()
    conn.execute("VACUUM")
    vac = time.perf_counter() - t1
    conn.close()
    after = work.stat().st_size
    print(f"migrations {applied} on {n:,} memories: {took:.1f} s; file {before / n:,.0f} -> {mid / n:,.0f} B/memory, "
          f"after VACUUM ({vac:.1f} s) {after / n:,.0f} B/memory")
    shutil.rmtree(work.parent, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--append", type=int, default=2000, help="turns appended one by one with store()")
    ap.add_argument("--keep", metavar="DIR", help="build in DIR and keep the DB (reused when it has --n rows)")
    ap.add_argument("--migrate", metavar="DB", help="only time the pending migrations on a copy of DB")
    args = ap.parse_args(argv)
    if args.migrate:
        return migrate(Path(args.migrate))
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    items, questions = corpus(args.n)
    directory = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="mem-disk-"))
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"locomo-{args.n}.db"
    build_s = None
    if path.exists():
        st = MemoryStore(path, embedder=RandomEmbedder())
        have = st.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        st.close()
        if have != args.n:
            path.unlink()
    if not path.exists():
        st = MemoryStore(path, embedder=RandomEmbedder())
        t0 = time.perf_counter()
        st.store_many(items, batch_size=1000)
        build_s = time.perf_counter() - t0
        st.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        st.close()
        print(f"store_many: {args.n:,} turns in {build_s:.1f} s ({args.n / build_s:,.0f} messages/s)")
    print_sizes(f"{path.name}, after a checkpoint", breakdown(path), args.n)
    print(f"\nkeyword side over {len(questions)} LoCoMo questions: {keyword_latency(path, questions)}")
    conn = connect(str(path))
    t0 = time.perf_counter()
    conn.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
    print(f"FTS5 integrity-check against its content: ok ({time.perf_counter() - t0:.1f} s)")
    conn.close()
    if args.append:
        scratch = directory / "append.db"
        scratch.unlink(missing_ok=True)
        print(f"store(): {append_rate(scratch, items, args.append):,.0f} messages/s appending {args.append} turns")
        for suffix in ("", "-wal", "-shm"):
            Path(str(scratch) + suffix).unlink(missing_ok=True)
    st = MemoryStore(path, embedder=RandomEmbedder())
    t0 = time.perf_counter()
    st.compact() if hasattr(st, "compact") else st.conn.execute("VACUUM")
    st.close()
    print(f"\ncompact: {time.perf_counter() - t0:.1f} s")
    print_sizes(f"{path.name}, after compact (VACUUM)", breakdown(path), args.n)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    if not args.keep:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
