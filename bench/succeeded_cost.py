"""Warm cost of round 27's succeeded step (memengine/recall/succeeded.py) on one long chat thread.

A store of one WhatsApp-like thread of ``--turns`` turns (default 100,000; hash vectors, so the build needs no model)
where a provider's name is said again every ``--every`` turns (the postings a name lookup reads), with the old
provider's turn near the start and its news and successor near the end, is recalled warm with the step on and off,
alternated per query: the calling thread's CPU per recall, p50 / p95 / mean, and the step's marks.

    .venv/bin/python bench/succeeded_cost.py                        # 100k turns, 200 recalls a side
    .venv/bin/python bench/succeeded_cost.py --turns 20000 --rounds 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from embedder import HashEmbedder  # noqa: E402
from memory_core import MemoryStore, NewMemory, RecallConfig  # noqa: E402

FILLER = ["ok see you at 7", "lol", "did you buy milk", "Ziggo is down again, no internet", "at the gym, later",
          "can you pick up Moos from Ineke", "the train is late again", "dinner at mum's on Sunday?"]
QUERIES = ["who is our contractor?", "which contractor is doing the bathroom?", "who does the bathroom?",
           "which internet provider do we have?", "who looks after the cat?"]


def build(path: Path, turns: int, every: int) -> MemoryStore:
    """The long thread (see the module's text)."""
    store = MemoryStore(path, embedder=HashEmbedder())
    start = datetime(2020, 1, 1)
    lines = ["contractor is Van Dijk Builders, quote 41k for the bathroom and the attic"]
    for i in range(1, turns - 3):
        lines.append(f"Van Dijk sent the invoice {i}" if i % every == 0 else FILLER[i % len(FILLER)])
    lines += ["Van Dijk cancelled, too much work until summer", "what?! and the bathroom",
              "Kees Hoogendoorn signed! starts on the bathroom in March"]
    batch = 5000
    for at in range(0, len(lines), batch):
        store.store_many([NewMemory(content=f"{'Sanne' if i % 2 else 'Daan'}: {t}", memory_type="episodic",
                                    source="whatsapp", ref=f"house/{i}", author="Sanne" if i % 2 else "Daan",
                                    thread="house", position=i, event_at=start + timedelta(minutes=30 * i))
                          for i, t in enumerate(lines[at:at + batch], start=at)])
    return store


def main(argv: list[str] | None = None) -> int:
    """Build, warm, time (see the module's text)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--every", type=int, default=50, help="a turn naming the old provider every N turns")
    ap.add_argument("--rounds", type=int, default=40, help="passes over the queries per side")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store = build(Path(tmp) / "long.db", args.turns, args.every)
        print(f"built {args.turns} turns in {time.perf_counter() - t0:.1f} s")
        on, off = RecallConfig(), replace(RecallConfig(), succeeded=False)
        for q in QUERIES:  # (warm: matrices, keyword index, caches)
            store.recall(q, k=10, touch=False, config=on)
        cpu: dict[str, list[float]] = {"on": [], "off": []}
        marked = 0
        for _ in range(args.rounds):
            for q in QUERIES:
                for side, cfg in (("on", on), ("off", off)):
                    c0 = time.thread_time()
                    res = store.recall(q, k=10, touch=False, config=cfg)
                    cpu[side].append((time.thread_time() - c0) * 1000)
                    if side == "on":
                        marked += any(m.possibly_outdated for m in res.results)
        for side, xs in cpu.items():
            xs.sort()
            print(f"succeeded {side:3}: p50 {statistics.median(xs):.2f} ms, p95 {xs[int(0.95 * len(xs)) - 1]:.2f} ms,"
                  f" mean {statistics.fmean(xs):.2f} ms (thread CPU, {len(xs)} recalls)")
        print(f"recalls with a marked older turn (step on): {marked}/{len(cpu['on'])}")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
