"""Speed of `consolidate` on 10k and 100k memories: wall time per phase, first run and a night's rerun, peak RSS.

Vectors come from a fake embedder so that building the stores takes minutes, not hours:
each memory's text names a topic ("topic 17 ..."), and the embedder returns the topic's
seeded random direction plus seeded noise (cosine to the topic centre ≈ 0.75), so the
data has the clustered structure of real memories (random vectors would all be singletons).
Everything goes through the normal write path (``store_many``).

For each size, on a fresh copy of the same store: the first run, then a night (``NIGHT_SHARE``
of new memories stored, ``now`` one day later) and the rerun. ``--serial`` does the same
with ``MEM_WORKERS=1`` first (the search in one thread), so both appear in one run. Run on 2 cores::

    taskset -c 0,1 .venv/bin/python bench/consolidate_speed.py --serial --keep /tmp/speed   # 10k and 100k
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
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memengine import consolidate  # noqa: E402
from memengine.knn import workers as workers_default  # noqa: E402
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


NIGHT_SHARE = 0.002  # a night's new memories, as a share of the store (200 at 100k)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def build(n: int, directory: Path) -> Path:
    """The pristine store of ``n`` memories (built once, kept in ``directory``)."""
    db = directory / f"speed-{n}.pristine.db"
    if not db.exists():
        t0 = time.perf_counter()
        tmp = db.with_suffix(".building")
        for p in directory.glob(tmp.name + "*"):
            p.unlink()
        s = MemoryStore(tmp, embedder=TopicEmbedder())
        s.store_many(items(n), batch_size=2000)
        s.close()
        os.replace(tmp, db)
        print(f"  built {n} memories in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return db


def night(n: int) -> list[NewMemory]:
    """A night's new memories: the same topics and threads, a day after the store's last one."""
    extra = max(20, int(n * NIGHT_SHARE))
    out = items(n + extra)[n:]
    for m in out:
        m.created_at = m.event_at = (m.event_at or datetime(2024, 1, 1)) + timedelta(days=1)
    return out


def bench(n: int, directory: Path, workers: str | None) -> dict:
    db = directory / f"speed-{n}.run.db"
    for p in directory.glob(db.name + "*"):
        p.unlink()
    shutil.copy(build(n, directory), db)
    if workers is None:
        os.environ.pop("MEM_WORKERS", None)
    else:
        os.environ["MEM_WORKERS"] = workers
    s = MemoryStore(db, embedder=TopicEmbedder())
    now = datetime(2024, 6, 1)
    t0 = time.perf_counter()
    rep = consolidate.run(s, now=now, keep_backups=1)
    first = time.perf_counter() - t0
    s.store_many(night(n), batch_size=2000)
    t0 = time.perf_counter()
    rep2 = consolidate.run(s, now=now + timedelta(days=1), keep_backups=1)
    second = time.perf_counter() - t0
    s.close()
    return {"n": n, "workers": workers or str(workers_default()), "first_run_s": round(first, 2),
            "rerun_s": round(second, 2), "phases": {p.name: round(p.seconds, 2) for p in rep.phases},
            "rerun_phases": {p.name: round(p.seconds, 2) for p in rep2.phases},
            "counts": rep.counts(), "rerun_counts": rep2.counts(), "peak_rss_mb": round(peak_rss_mb(), 1)}


def show(res: dict) -> None:
    n = res["n"]
    bar = 10 if n <= 10_000 else 60
    print(f"{n:>7} memories, {res['workers']} worker(s): first run {res['first_run_s']:.1f} s (bar {bar} s), "
          f"night rerun {res['rerun_s']:.1f} s, peak RSS {res['peak_rss_mb']:.0f} MB (bar 1536 MB)")
    print("         phases: " + ", ".join(f"{k} {v:.1f}s" for k, v in res["phases"].items()))
    print("         rerun:  " + ", ".join(f"{k} {v:.1f}s" for k, v in res["rerun_phases"].items()))
    print("         links: " + json.dumps(res["counts"]["links"]))
    print("         rerun links: " + json.dumps(res["rerun_counts"]["links"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--keep", metavar="DIR", help="build stores in DIR and keep them (reused next time)")
    ap.add_argument("--serial", action="store_true", help="also run with MEM_WORKERS=1 first (before/after)")
    ap.add_argument("--json", metavar="OUT", help="write the results here too")
    args = ap.parse_args()
    tmp = None
    if args.keep:
        directory = Path(args.keep)
        directory.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="consolidate-speed-")
        directory = Path(tmp.name)
    flags = sorted(set(open("/proc/cpuinfo").read().split()) & {"avx2", "avx512_vnni", "avx_vnni"}) \
        if Path("/proc/cpuinfo").exists() else []
    print(f"cpu flags: {' '.join(flags) or '?'}; load average at start: {os.getloadavg()[0]:.2f}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")
    results = []
    for n in (int(x) for x in args.sizes.split(",")):
        cores = str(len(os.sched_getaffinity(0)))  # the parallel path, even if the machine is busy
        for workers in (["1", cores] if args.serial else [cores]):
            res = bench(n, directory, workers)
            res["load_after"] = round(os.getloadavg()[0], 2)
            show(res)
            print(f"         load average after: {res['load_after']:.2f}")
            results.append(res)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
