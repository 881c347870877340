"""Speed of `consolidate` on 10k and 100k memories: wall time per phase and peak RSS.

Vectors come from a fake embedder so that building the stores takes minutes, not hours:
each memory's text names a topic ("topic 17 ..."), and the embedder returns the topic's
seeded random direction plus seeded noise (cosine to the topic centre ≈ 0.75), so the
data has the clustered structure of real memories (random vectors would all be singletons).
Everything goes through the normal write path (``store_many``). Run on 2 cores::

    taskset -c 0,1 .venv/bin/python bench/consolidate_speed.py            # 10k and 100k
    .venv/bin/python bench/consolidate_speed.py --sizes 10000 --keep /tmp/speed
"""

from __future__ import annotations

import os

# Many small matrix products: one BLAS thread per process avoids OpenBLAS spin-waiting (5x slower on 2 busy cores).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memengine import consolidate  # noqa: E402
from memory_core import MemoryStore, NewMemory  # noqa: E402

DIMS = 384
TOPIC_SIZE = 50  # memories per topic on average
NOISE = 0.9  # norm of the noise added to the unit topic direction (cosine to centre ≈ 0.74)
SEMANTIC_SHARE = 0.1  # one memory in ten is a fact (contradiction candidates); the rest chat turns
WORDS = ("garden gateway billing hiking recipe invoice deploy meeting flight concert python budget "
         "doctor school holiday server backup coffee football novel").split()


class TopicEmbedder:
    """Deterministic fake: the topic's direction plus noise seeded by the text."""

    model_id = "bench-topic-384"
    dims = DIMS

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        for i, t in enumerate(texts):
            topic = int(t.split()[1]) if t.startswith("topic ") else zlib.crc32(t.encode()) % 100_000
            centre = np.random.default_rng(topic).standard_normal(DIMS)
            noise = np.random.default_rng(zlib.crc32(t.encode()) + 1_000_003).standard_normal(DIMS)
            v = centre / np.linalg.norm(centre) + NOISE * noise / np.linalg.norm(noise)
            out[i] = v / np.linalg.norm(v)
        return out


def items(n: int) -> list[NewMemory]:
    rng = np.random.default_rng(42)
    topics = max(1, n // TOPIC_SIZE)
    start = datetime(2024, 1, 1)
    out = []
    for i in range(n):
        topic = int(rng.integers(topics))
        words = " ".join(rng.choice(WORDS, size=6))
        semantic = rng.random() < SEMANTIC_SHARE
        out.append(NewMemory(
            content=f"topic {topic} note {i}: {words} value {int(rng.integers(100))}",
            memory_type="semantic" if semantic else "episodic", source="bench", ref=f"m{i}",
            event_at=start + timedelta(minutes=10 * i), thread=None if semantic else f"chat-{topic % 200}",
            importance=float(rng.choice([0.3, 0.5, 0.8])), created_at=start + timedelta(minutes=10 * i)))
    return out


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def bench(n: int, directory: Path) -> dict:
    db = directory / f"speed-{n}.db"
    emb = TopicEmbedder()
    if not db.exists():
        t0 = time.perf_counter()
        s = MemoryStore(db, embedder=emb)
        s.store_many(items(n), batch_size=2000)
        print(f"  built {n} memories in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    else:
        s = MemoryStore(db, embedder=emb)
    now = datetime(2024, 6, 1)
    t0 = time.perf_counter()
    rep = consolidate.run(s, now=now, keep_backups=1)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    rep2 = consolidate.run(s, now=now, keep_backups=1)
    second = time.perf_counter() - t0
    s.close()
    return {"n": n, "first_run_s": round(first, 2), "second_run_s": round(second, 2),
            "phases": {p.name: round(p.seconds, 2) for p in rep.phases},
            "counts": rep.counts(), "rerun_counts": rep2.counts(), "peak_rss_mb": round(peak_rss_mb(), 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--keep", metavar="DIR", help="build stores in DIR and keep them (reused next time)")
    args = ap.parse_args()
    tmp = None
    if args.keep:
        directory = Path(args.keep)
        directory.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="consolidate-speed-")
        directory = Path(tmp.name)
    for n in (int(x) for x in args.sizes.split(",")):
        res = bench(n, directory)
        bar = 10 if n <= 10_000 else 60
        print(f"{n:>7} memories: first run {res['first_run_s']:.1f} s (bar {bar} s), rerun {res['second_run_s']:.1f} s, "
              f"peak RSS {res['peak_rss_mb']:.0f} MB (bar 1536 MB)")
        print("         phases: " + ", ".join(f"{k} {v:.1f}s" for k, v in res["phases"].items()))
        print("         " + json.dumps(res["counts"]))
        print("         rerun: " + json.dumps(res["rerun_counts"]))
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
