"""Scale and latency benchmark: recall at 100k, matrix kNN vs sqlite-vec, cold CLI, bytes/memory.

    python bench/latency.py                          # 100k + 10k DBs in a temp dir
    python bench/latency.py --reuse /tmp/lat         # build once, reuse on later runs
    python bench/latency.py --n 20000 --skip-cli     # quicker
    python bench/latency.py --text locomo --plain --skip-small --real-vectors 0 --reuse /tmp/lat
                                                     # real chat text (LoCoMo turns copied to 100k)

Two synthetic databases of realistic, varied text (templates × word lists, seeded):

* the *large* one (``--n``, default 100 000) gets **random unit vectors**, written
  through the engine's own write path (``store_many``) by an embedder wrapper that
  carries the real model id. Embedding 100k texts with MiniLM takes ~10 min on two
  cores, and kNN latency does not depend on vector content (both the matrix and vec0
  score every row). Queries are embedded by the real model, so recall latency
  includes real query embedding. At this size recall runs kNN on the in-process
  matrix (``MATRIX_MIN_ROWS``).
* the *small* one (``--n-small``, default 10 000) is embedded by the real model; it
  serves the cold-CLI timings, bytes/memory and a second matrix-vs-scan check on real
  vectors (near-duplicate texts give near-tied cosines: the harder case for exactness).
* ``--real-vectors N`` (default 50 000) real MiniLM vectors, embedded once and cached in
  the DB directory: the recall@k loss of the matrix's 1-bit coarse shortlist against the
  exact scan is gated on them (on random vectors every cosine is near 0, so a 1-bit sketch
  cannot order them: that loss is printed for information only).
* ``--text locomo``: the large DB holds real conversation turns (the LoCoMo dev file,
  copied to ``--n``, one thread per copied conversation) and the queries are the real
  LoCoMo questions. Synthetic text draws from ~300 words, so every query word matches a
  large share of the rows: the worst case for the keyword side, not a typical one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import memory_core  # noqa: E402
from bench.common import DEFAULT_LOCOMO, REPO, conversation_items, load_locomo, log, md_table, percentile  # noqa: E402
from memengine import signrank, storebase, vectors  # noqa: E402
from memory_core import MemoryStore, NewMemory  # noqa: E402

BARS = {
    "recall_p95_ms": 20.0,  # warm in-process hybrid recall at 100k
    "knn_recall_loss": 0.0,  # matrix (exact mode) vs sqlite-vec: both exact
    "coarse_recall_loss": 0.01,  # 1-bit shortlist + exact re-rank vs exact, recall@10 on real vectors
    "cli_recall_s": 0.5, "cli_small_s": 0.15,
    "bytes_per_memory": 2500,
}
MAX_LOAD = 1.5  # above this 1-min load average the machine is shared: latencies are not comparable

# --------------------------------------------------------------------------- synthetic text

NAMES = ["Ana", "Oscar", "Mei", "Jonas", "Priya", "Tomás", "Fatima", "Lukas", "Sofia", "Kenji", "Amara", "Diego",
         "Elif", "Noah", "Chloé", "Ravi", "Ingrid", "Malik", "Hana", "Pedro", "Zoe", "Ivan", "Leila", "Marco"]
PLACES = ["Lisbon", "the office", "Berlin", "the gym", "Kyoto", "the café on Rua Augusta", "Nairobi", "the lab",
          "grandma's house", "the airport", "Toronto", "the farmers market", "Oslo", "the climbing hall",
          "São Paulo", "the library", "Marseille", "the dentist", "the beach", "Reykjavík"]
THINGS = ["the quarterly report", "a sourdough starter", "the gateway service", "a used bicycle", "the wedding playlist",
          "the Postgres migration", "a watercolor set", "the tax return", "the hiking boots", "the API keys",
          "a birthday present for Mei", "the garden fence", "the Kubernetes cluster", "a Japanese textbook",
          "the conference talk", "the car insurance", "a new laptop", "the team offsite", "the rent contract",
          "the photo album", "a guitar amplifier", "the backup script", "the flight to Oslo", "a pottery class"]
FEELINGS = ["excited", "worried", "relieved", "tired", "proud", "annoyed", "curious", "nervous", "happy", "stressed"]
HOBBIES = ["running", "painting", "chess", "bouldering", "baking bread", "birdwatching", "salsa dancing",
           "woodworking", "photography", "playing the cello", "gardening", "surfing", "knitting", "board games"]
FOODS = ["ramen", "oat milk", "spicy food", "cilantro", "dark chocolate", "green tea", "pastel de nata", "sushi",
         "black coffee", "lentil soup", "mango", "peanuts"]
TOOLS = ["git", "docker", "systemctl", "kubectl", "npm", "pytest", "rsync", "ssh", "terraform", "psql", "make"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]

TEMPLATES = [
    "{a} said they felt {feel} about {thing} after the meeting at {place}.",
    "Met {a} at {place} on {day}; we talked about {hobby} and {thing}.",
    "{a} prefers {food} and hates {food2}; remember that for the dinner on {day}.",
    "To restart {thing}, run `{tool} restart` and check the logs before telling {a}.",
    "{a}: I finally finished {thing}! It took three weeks but I'm so {feel} now.",
    "{a}'s birthday is on {num} {month}; they love {hobby} and {food}.",
    "Deploy checklist: bump the version, run {tool} tests, tag the release, then ping {a} in the channel.",
    "Reminder: pay {thing} before {num} {month}, the late fee is {num2} euros.",
    "{a} moved from {place} to {place2} in {month} {year} to start a job in {hobby}.",
    "We booked {thing} for {day}, {num} {month}; {a} will bring {food}.",
    "{a} told me {b} is learning {hobby} and wants to visit {place} next {month}.",
    "Error {hex} when running {tool} on {thing}: fixed by clearing the cache and retrying.",
    "Weekly note: spent {num} hours on {thing}, {num2} on {hobby}; felt {feel} most of the week.",
    "{a} recommended a book about {hobby}; I should read it before the trip to {place}.",
    "The {thing} costs {num2}0 euros at {place}; {a} says it is cheaper online.",
    "{a} and {b} argued about {thing} again, {b} thinks it should wait until {month}.",
]
QUESTIONS = [
    "What does {a} think about {thing}?", "When is {a}'s birthday?", "How do I restart {thing}?",
    "Where did {a} move in {year}?", "What food does {a} like?", "Who is learning {hobby}?",
    "what happened at {place} on {day}", "error {hex} {tool}", "Which book did {a} recommend?",
    "How much does {thing} cost?", "When is the payment for {thing} due?", "{a} {hobby} {place}",
    "What did {a} and {b} argue about?", "deploy checklist release steps", "how was I feeling about {thing}",
]


def _fill(rng: random.Random, template: str) -> str:
    a, b = rng.sample(NAMES, 2)
    f1, f2 = rng.sample(FOODS, 2)
    p1, p2 = rng.sample(PLACES, 2)
    return template.format(
        a=a, b=b, place=p1, place2=p2, thing=rng.choice(THINGS), feel=rng.choice(FEELINGS), hobby=rng.choice(HOBBIES),
        food=f1, food2=f2, tool=rng.choice(TOOLS), day=rng.choice(WEEKDAYS), month=rng.choice(MONTHS),
        num=rng.randint(1, 28), num2=rng.randint(2, 90), year=rng.randint(2015, 2025), hex=f"0x{rng.getrandbits(32):08X}",
    )


def synthetic_texts(n: int, seed: int = 7) -> list[str]:
    """``n`` varied memory texts: 1-4 sentences, mostly short, some long; deterministic."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        k = rng.choices([1, 2, 3, 4, 8], weights=[50, 25, 12, 8, 5])[0]
        body = " ".join(_fill(rng, rng.choice(TEMPLATES)) for _ in range(k))
        out.append(f"{body} (#{i})")  # unique: no exact-duplicate collapsing
    return out


def synthetic_queries(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [_fill(rng, rng.choice(QUESTIONS)) for _ in range(n)]


# --------------------------------------------------------------------------- embedders

class RandomStoreEmbedder:
    """Real model id and real query embeddings; random unit vectors for stored texts.

    The engine calls ``embed`` for both writes and queries. While ``storing`` is true
    (building the DB) it returns seeded random unit vectors; afterwards it delegates to
    the real model, so recall embeds queries exactly as in production.
    """

    def __init__(self, real: Any, seed: int = 3) -> None:
        self.real = real
        self.model_id = real.model_id
        self.dims = real.dims
        self.rng = np.random.default_rng(seed)
        self.storing = True

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        if not self.storing:
            return self.real.embed(texts, batch_size)
        v = self.rng.standard_normal((len(texts), self.dims)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


THREAD_TURNS = 200  # memories per synthetic conversation
LAYOUT = 2  # bump when the synthetic data changes: part of the DB file names, so --reuse rebuilds


def _items(texts: list[str], seed: int, threads: bool = True) -> list[NewMemory]:
    """Conversation-shaped memories: threads of THREAD_TURNS turns, a few minutes apart.

    Imports (chat exports, LoCoMo) look like this, and it is the heavier case for
    recall: the engine fills the ``context`` / ``context_far`` FTS columns and a context
    vector (``vec_contexts``) for every turn of a thread, so both kNN tables are full.
    ``threads=False`` gives stand-alone notes (no context columns, empty ``vec_contexts``).
    """
    rng = random.Random(seed)
    kinds = ["episodic"] * 6 + ["semantic"] * 3 + ["procedural"]
    start = datetime(2023, 1, 1, 9, 0)
    out = []
    for i, t in enumerate(texts):
        thread, pos = divmod(i, THREAD_TURNS)
        out.append(NewMemory(
            content=t, memory_type=rng.choice(kinds), source="synthetic", ref=f"s{i}",
            importance=round(rng.random(), 2), tags=rng.sample(["work", "family", "health", "travel", "ops"], 1),
            **({"author": rng.choice(NAMES[:2]), "thread": f"t{thread}", "position": pos,
                "event_at": start + timedelta(days=thread, minutes=3 * pos)} if threads else {})))
    return out


def checkpoint(store: MemoryStore) -> None:
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def locomo_corpus(n: int) -> tuple[list[NewMemory], list[str]]:
    """Real conversational text at scale: the LoCoMo dev turns, copied until there are ``n``.

    Each copy is its own set of threads (so every turn gets its neighbour context, as an
    imported chat would), with refs ``<copy>/<sample_id>/<dia_id>``. The queries are the
    real LoCoMo questions. Copies multiply every word's document frequency by the number
    of copies (~36 at 100k): a harder keyword case than a real 100k history, whose
    vocabulary keeps growing.
    """
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    items: list[NewMemory] = []
    copy = 0
    while len(items) < n:
        for conv in convs:
            items.extend(replace(it, source="locomo-copies", ref=f"{copy}/{it.ref}", thread=f"{copy}/{it.thread}")
                         for it in conversation_items(conv))
        copy += 1
    return items[:n], [q.question for c in convs for q in c.questions]


def build_db(path: Path, n: int, embedder: Any, reuse: bool, seed: int,
             threads: bool = True, items: list[NewMemory] | None = None) -> tuple[MemoryStore, float | None]:
    """Create (or reuse) a DB of ``n`` memories (synthetic unless ``items`` are given); (store, build s or None)."""
    if reuse and path.exists():
        store = MemoryStore(path, embedder=embedder)
        have = store.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        if have == n and store.meta("embedding_model") == embedder.model_id:
            return store, None
        store.close()
        log(f"{path}: has {have} memories (want {n}); rebuilding")
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    store = MemoryStore(path, embedder=embedder)
    items = items if items is not None else _items(synthetic_texts(n, seed), seed, threads)
    t0 = time.perf_counter()
    done = [0]
    last = [t0]

    def progress(k: int) -> None:
        done[0] += k
        if time.perf_counter() - last[0] > 15:
            last[0] = time.perf_counter()
            rate = done[0] / (last[0] - t0)
            log(f"  {path.name}: {done[0]}/{n} ({rate:.0f}/s, ~{(n - done[0]) / rate:.0f} s left)")

    store.store_many(items, batch_size=1000, progress=progress)
    checkpoint(store)
    took = time.perf_counter() - t0
    log(f"  {path.name}: {n} memories in {took:.1f} s ({n / took:.0f}/s)")
    return store, took


# --------------------------------------------------------------------------- measurements

def recall_latency(store: MemoryStore, queries: list[str], runs: int = 3, strategy: str = "hybrid") -> dict[str, Any]:
    """Warm in-process recall: p50/p95 of each run over all queries, median over runs."""
    store.recall(queries[0], k=10, strategy=strategy, touch=False)  # warm: model loaded, pages cached
    p50s, p95s, cpu = [], [], []
    for run in range(runs):
        lat = []
        for q in queries:
            t0, c0 = time.perf_counter(), time.process_time()
            store.recall(q, k=10, strategy=strategy, touch=False)
            lat.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)  # every thread of the process: wall on an idle machine is at most about this
        p50s.append(percentile(lat, 50))
        p95s.append(percentile(lat, 95))
        log(f"  {strategy} run {run + 1}: p50 {p50s[-1]:.1f} ms, p95 {p95s[-1]:.1f} ms")
        if statistics.fmean(lat) > 500 and run + 1 < runs:
            log("  (over 0.5 s per query: further runs skipped)")
            break
    return {"p50_ms": round(statistics.median(p50s), 2), "p95_ms": round(statistics.median(p95s), 2),
            "runs_p50": [round(x, 2) for x in p50s], "runs_p95": [round(x, 2) for x in p95s],
            "cpu_p50_ms": round(percentile(cpu, 50), 2), "cpu_p95_ms": round(percentile(cpu, 95), 2)}


def ab_latency(stores: dict[str, MemoryStore], queries: list[str], runs: int = 3) -> dict[str, dict[str, Any]]:
    """:func:`recall_latency` of several stores, one run each in turn (load drifts alike for all)."""
    per: dict[str, list[dict[str, Any]]] = {name: [] for name in stores}
    for _ in range(runs):
        for name, store in stores.items():
            log(f"  [{name}]")
            per[name].append(recall_latency(store, queries, runs=1))
    out = {}
    for name, rs in per.items():
        p50s = [r["runs_p50"][0] for r in rs]
        p95s = [r["runs_p95"][0] for r in rs]
        out[name] = {"p50_ms": round(statistics.median(p50s), 2), "p95_ms": round(statistics.median(p95s), 2),
                     "runs_p50": p50s, "runs_p95": p95s}
    return out


def _percentiles(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(ms, 50), 2), "p95_ms": round(percentile(ms, 95), 2)}


def _lost(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> tuple[int, int, float]:
    """(ids of ``want`` missing from ``got``, of which near-ties, max cosine difference on shared ids)."""
    g, w = dict(got), dict(want)
    kth = min(w.values()) if w else 0.0
    lost = ties = 0
    for mid in w.keys() - g.keys():
        if abs(w[mid] - kth) <= 1e-6:
            ties += 1
        else:
            lost += 1
    diff = max((abs(w[m] - g[m]) for m in w.keys() & g.keys()), default=0.0)
    return lost, ties, diff


def _compare(search_a: Any, search_b: Any, qvecs: np.ndarray, k: int) -> dict[str, Any]:
    """Recall@k loss of ``search_a`` against ``search_b`` (the reference), and both latencies."""
    lost = ties = 0
    max_diff = 0.0
    t_a, t_b = [], []
    for v in qvecs:
        t0 = time.perf_counter()
        a = search_a(v, k)
        t1 = time.perf_counter()
        b = search_b(v, k)
        t2 = time.perf_counter()
        t_a.append((t1 - t0) * 1000)
        t_b.append((t2 - t1) * 1000)
        lo, ti, di = _lost(a, b)
        lost, ties, max_diff = lost + lo, ties + ti, max(max_diff, di)
    n = len(qvecs) * k
    return {"loss": round(lost / n, 6), "tie_swaps": ties, "max_cos_diff": float(f"{max_diff:.2e}"),
            "matrix": _percentiles(t_a), "scan": _percentiles(t_b)}


def knn_check(store: MemoryStore, qvecs: np.ndarray, ks: tuple[int, ...] = (10, memory_core.VEC_POOL),
              tables: tuple[str, ...] = ("vec_memories", "vec_contexts")) -> dict[str, Any]:
    """The in-process matrix's exact scan against sqlite-vec's exact scan, on the same DB and queries.

    Both paths of ``MemoryStore._knn`` are forced by setting ``MATRIX_MIN_ROWS`` (0: matrix;
    above the store's size: the vec0 ``MATCH ... AND k = ?`` scan); the matrix's coarse
    shortlist is switched off here (``coarse_check`` measures it). Both are exact, so the
    neighbour sets must be identical: recall@k loss is 1 - |matrix ∩ scan| / k, and a miss
    whose cosine equals the k-th one to 1e-6 is a tie, counted separately. Also reported:
    the largest cosine difference for shared ids, each path's latency, and the matrix's
    one-off load time (the first recall of a process pays it).
    """
    saved = storebase.MATRIX_MIN_ROWS, vectors.COARSE_MIN_ROWS
    out: dict[str, Any] = {"queries": len(qvecs), "rows": store._vector_count(), "tables": {}}

    def matrix(table: str) -> Any:
        def run(v: np.ndarray, k: int) -> list[tuple[int, float]]:
            storebase.MATRIX_MIN_ROWS = 0
            return store._knn(table, v, k)
        return run

    def scan(table: str) -> Any:
        def run(v: np.ndarray, k: int) -> list[tuple[int, float]]:
            storebase.MATRIX_MIN_ROWS = 10**12
            return store._knn(table, v, k)
        return run

    try:
        storebase.MATRIX_MIN_ROWS, vectors.COARSE_MIN_ROWS = 0, 10**12
        store._matrices.clear()
        t0 = time.perf_counter()
        for table in tables:
            store._matrix(table)
        out["matrix_load_s"] = round(time.perf_counter() - t0, 3)
        out["matrix_mb"] = round(sum(m.nbytes for m in store._matrices.values()) / 2**20, 1)
        for table in tables:
            per_k: dict[str, Any] = {}
            for k in ks:
                c = per_k[str(k)] = _compare(matrix(table), scan(table), qvecs, k)
                log(f"  {table} k={k}: loss {c['loss']:.4f} (+{c['tie_swaps']} ties), matrix p50 "
                    f"{c['matrix']['p50_ms']:.1f} ms, scan p50 {c['scan']['p50_ms']:.1f} ms")
            out["tables"][table] = per_k
    finally:
        storebase.MATRIX_MIN_ROWS, vectors.COARSE_MIN_ROWS = saved
        store._matrices.clear()
    return out


def coarse_check(ids: np.ndarray, mat: np.ndarray, qvecs: np.ndarray,
                 ks: tuple[int, ...] = (10, 2 * memory_core.POOL, memory_core.VEC_POOL)) -> dict[str, Any]:
    """The matrix's sign shortlist (signrank) + exact int8 re-rank against its exact scan, same vectors.

    k = max(VEC_POOL, 2·POOL) is the width recall asks of each vector table at scale.
    """
    saved = vectors.COARSE_MIN_ROWS
    vectors.COARSE_MIN_ROWS = 0  # the shortlist at any size
    try:
        fast = memory_core.VectorMatrix.of("bench", ids, mat)
        exact = memory_core.VectorMatrix.of("bench", ids, mat, coarse=False)
        per_k = {str(k): _compare(fast.search, exact.search, qvecs, k) for k in ks}
    finally:
        vectors.COARSE_MIN_ROWS = saved
    for k, c in per_k.items():
        log(f"  coarse vs exact, {len(ids)} rows, k={k}: loss {c['loss']:.4f}, "
            f"{c['matrix']['p50_ms']:.1f} vs {c['scan']['p50_ms']:.1f} ms")
    return {"rows": len(ids), "queries": len(qvecs), "shortlist": f"max({signrank.SHORTLIST}, "
            f"{signrank.SHORTLIST_FACTOR}·k), ranked by signrank.estimate", "k": per_k}


def real_vectors(directory: Path, n: int, real: Any, reuse: bool) -> np.ndarray:
    """``n`` real MiniLM vectors of synthetic texts, cached in ``directory`` (embedding 50k takes ~5 min)."""
    path = directory / f"real-vectors-{n}.npz"
    if reuse and path.exists():
        return np.load(path)["V"]
    log(f"embedding {n} texts for the coarse-scan check ...")
    vecs = real.embed(synthetic_texts(n, seed=21))
    np.savez(path, V=vecs)
    return vecs


STAGES = {  # MemoryStore method -> stage of hybrid recall
    "embed_or_none": "query embedding", "_keyword": "keyword (bm25; on a worker thread, overlaps)", "_knn": "kNN (both tables)",
    "allowed": "status filter of candidate ids", "_candidates": "fusion columns of candidates",
    "_fuse": "fusion + priors", "rows": "whole rows of the top k", "people_in": "people in query",
}


def recall_breakdown(store: MemoryStore, queries: list[str]) -> dict[str, Any]:
    """Where one warm hybrid recall spends its time: perf_counter around the store's internals.

    The methods are wrapped on the instance (``recall`` calls them through ``self``), for
    one extra pass over the queries, so the timed runs of :func:`recall_latency` are
    untouched. "other" is the rest of ``recall`` (filters SQL, dict work, sorting).
    Reported: the mean per query, and the mean over the slowest 5 % of queries.
    """
    acc: dict[str, float] = {}

    def wrap(name: str) -> None:
        fn = getattr(store, name)
        stage = STAGES[name]

        def timed(*a: Any, **kw: Any) -> Any:
            if name == "rows":
                acc["candidates"] = acc.get("candidates", 0.0) + len(a[0])
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                acc[stage] = acc.get(stage, 0.0) + (time.perf_counter() - t0) * 1000

        setattr(store, name, timed)

    for name in STAGES:
        wrap(name)
    per_query: list[dict[str, float]] = []
    try:
        store.recall(queries[0], k=10, touch=False)
        for q in queries:
            acc.clear()
            t0 = time.perf_counter()
            store.recall(q, k=10, touch=False)
            total = (time.perf_counter() - t0) * 1000
            row = dict(acc)
            row["other"] = total - sum(v for s, v in acc.items() if s != "candidates")
            row["total"] = total
            per_query.append(row)
    finally:
        for name in STAGES:
            store.__dict__.pop(name, None)
    names = [*dict.fromkeys(STAGES.values()), "other", "total", "candidates"]
    slow = sorted(per_query, key=lambda r: r["total"])[int(0.95 * len(per_query)):]
    return {
        "mean_ms": {s: round(statistics.fmean(r.get(s, 0.0) for r in per_query), 2) for s in names},
        "slowest5pct_mean_ms": {s: round(statistics.fmean(r.get(s, 0.0) for r in slow), 2) for s in names},
    }


def cli_timings(db: Path, runs: int = 5) -> dict[str, Any]:
    """Cold ``mem.py`` processes (new interpreter each run; OS page cache warm): median of ``runs``."""
    mem = REPO / "mem.py"
    if not mem.exists():
        return {"error": f"{mem} not found"}
    env = dict(os.environ)
    env.pop("MEM_EMBEDDER", None)
    py = sys.executable  # the venv interpreter: system python3 lacks the dependencies here
    cmds = {
        "recall": ["recall", "what does Ana think about the gateway service?"],
        "stats": ["stats"],
        "get 1": ["get", "1"],
        "forget N": None,
    }
    out: dict[str, Any] = {"python": py}
    for name, argv in cmds.items():
        times, err = [], None
        for i in range(runs):
            a = argv if argv is not None else ["forget", str(100 + i)]
            t0 = time.perf_counter()
            p = subprocess.run([py, str(mem), "--db", str(db), "--json", *a], capture_output=True, text=True, env=env)
            times.append(time.perf_counter() - t0)
            if p.returncode != 0:
                err = f"exit {p.returncode}: {(p.stderr or p.stdout).strip()[:300]}"
        out[name] = {"median_s": round(statistics.median(times), 3), "runs_s": [round(t, 3) for t in times],
                     **({"error": err} if err else {})}
    # undo the forgets so the DB can be reused as it was
    s = MemoryStore(db, embedder=None)
    for i in range(runs):
        try:
            s.restore(100 + i)
        except memory_core.MemError:
            pass
    s.close()
    return out


def api_small_timings(store: MemoryStore, runs: int = 5) -> dict[str, float]:
    """The same operations in-process (what the CLI costs beyond interpreter start-up)."""
    res = {}
    for name, fn in {
        "stats": store.stats, "get 1": lambda: store.get(1),
        "forget+restore": lambda: (store.forget(200), store.restore(200)),
    }.items():
        t = []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            t.append((time.perf_counter() - t0) * 1000)
        res[name] = round(statistics.median(t), 2)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000, help="memories in the large DB (default: %(default)s)")
    ap.add_argument("--n-small", type=int, default=10_000, help="memories in the real-vector DB (default: %(default)s)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--knn-queries", type=int, default=50, help="queries of the matrix-vs-scan check (default: %(default)s)")
    ap.add_argument("--reuse", metavar="DIR", help="keep the DBs in DIR and reuse them when present")
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--skip-small", action="store_true", help="no real-vector DB (no CLI, no real-vector kNN check)")
    ap.add_argument("--plain", action="store_true",
                    help="stand-alone notes instead of conversation threads (no context columns / vectors)")
    ap.add_argument("--text", choices=("synthetic", "locomo"), default="synthetic",
                    help="large DB text: synthetic templates (a ~300-word vocabulary: every word is frequent) or "
                         "real LoCoMo turns copied to --n, with the LoCoMo questions as queries (needs ../shared)")
    ap.add_argument("--real-vectors", type=int, default=50_000, metavar="N",
                    help="real MiniLM vectors for the coarse-scan loss check (0: skip; default: %(default)s)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    os.environ.pop("MEM_EMBEDDER", None)
    from embedder import OnnxEmbedder

    layout = f"v{LAYOUT}{'-plain' if args.plain else ''}"
    results: dict[str, Any] = {"n": args.n, "n_small": args.n_small, "cpus": os.cpu_count(), "bars": BARS,
                               "layout": "plain notes" if args.plain else f"threads of {THREAD_TURNS} turns",
                               "loadavg_start": os.getloadavg()}
    if results["loadavg_start"][0] > MAX_LOAD:
        log(f"warning: load average {results['loadavg_start'][0]:.2f} > {MAX_LOAD}: the machine is busy, rerun later")
    real = OnnxEmbedder()
    real.embed(["warm up"])
    directory = Path(args.reuse) if args.reuse else Path(tempfile.mkdtemp(prefix="mem-latency-"))
    directory.mkdir(parents=True, exist_ok=True)
    log(f"DBs in {directory}")
    queries = synthetic_queries(args.queries)
    big_items = None
    if args.text == "locomo":
        big_items, questions = locomo_corpus(args.n)
        queries = questions[: args.queries]
        layout = f"v{LAYOUT}"
        results["layout"] = "real LoCoMo turns in threads, copied"
    results["queries"] = len(queries)
    results["text"] = args.text
    qvecs = real.embed(queries)

    # ---- large DB, random stored vectors
    big_path = directory / f"{args.text}-{args.n}.{layout}.db"
    wrapper = RandomStoreEmbedder(real)
    big, took = build_db(big_path, args.n, wrapper, bool(args.reuse), seed=7, threads=not args.plain,
                         items=big_items)
    wrapper.storing = False
    results["large_build_s"] = took
    results["large_matrix_path"] = big._vector_count() >= storebase.MATRIX_MIN_ROWS
    log("matrix kNN vs sqlite-vec scan on the large DB ...")
    results["large_knn"] = knn_check(big, qvecs[: args.knn_queries])
    own = big._matrix("vec_memories")
    results["large_coarse"] = coarse_check(own.ids, own.unit_rows(), qvecs[: args.knn_queries])
    checkpoint(big)
    count_big = big.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    results["large_bytes_per_memory"] = round(db_bytes(big_path) / count_big, 1)
    big.close()
    # Two stores on the same file, measured in alternating runs: the keyword side by FTS5
    # (what a one-shot process gets) and by the in-process keyword index (a warm process).
    fts5 = MemoryStore(big_path, embedder=wrapper, keyword_index=False)
    t0 = time.perf_counter()
    fts5.recall(queries[0], k=10, touch=False)
    results["large_first_recall_s"] = round(time.perf_counter() - t0, 3)  # includes the matrix load
    warm = MemoryStore(big_path, embedder=wrapper, keyword_index=True)
    t0 = time.perf_counter()
    results["keyword_index"] = warm.warm_up()
    results["keyword_index"]["warm_up_s"] = round(time.perf_counter() - t0, 2)
    log(f"keyword index: {results['keyword_index']}")
    log("measuring hybrid recall on the large DB (FTS5 and keyword index, alternating runs) ...")
    ab = ab_latency({"fts5": fts5, "index": warm}, queries)
    same = sum(
        [(m.id, m.score) for m in fts5.recall(q, k=10, touch=False).results]
        == [(m.id, m.score) for m in warm.recall(q, k=10, touch=False).results] for q in queries)
    results["index_same_top10"] = [same, len(queries)]
    results["large_recall_hybrid"], results["large_recall_hybrid_fts5"] = ab["index"], ab["fts5"]
    results["large_breakdown"] = recall_breakdown(warm, queries)
    results["large_recall_keyword"] = recall_latency(warm, queries, runs=1, strategy="keyword")
    results["large_recall_keyword_fts5"] = recall_latency(fts5, queries, runs=1, strategy="keyword")
    fts5.close()
    warm.close()

    # ---- small DB, real vectors
    if not args.skip_small:
        small_path = directory / f"real-{args.n_small}.{layout}.db"
        log("building / opening the real-vector DB ...")
        small, took = build_db(small_path, args.n_small, real, bool(args.reuse), seed=8, threads=not args.plain)
        results["small_build_s"] = took
        results["small_recall_hybrid"] = recall_latency(small, queries)
        log("matrix kNN vs sqlite-vec scan on the real-vector DB (matrix forced) ...")
        results["small_knn"] = knn_check(small, qvecs[: args.knn_queries])
        own = small._matrix("vec_memories")
        results["small_coarse"] = coarse_check(own.ids, own.unit_rows(), qvecs[: args.knn_queries])
        small._matrices.clear()
        checkpoint(small)
        count_small = small.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        results["small_bytes_per_memory"] = round(db_bytes(small_path) / count_small, 1)
        results["api_small_ms"] = api_small_timings(small)
        small.close()
        if not args.skip_cli:
            log("timing cold CLI calls ...")
            results["cli"] = cli_timings(small_path)

    if args.real_vectors:
        vecs = real_vectors(directory, args.real_vectors, real, bool(args.reuse))
        rq = real.embed(synthetic_queries(args.knn_queries, seed=5))
        results["real_coarse"] = coarse_check(np.arange(1, len(vecs) + 1, dtype=np.int64), vecs, rq)

    results["loadavg_end"] = os.getloadavg()
    print_report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")
        log(f"wrote {args.json}")
    if not args.reuse:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


def _pf(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def _knn_rows(rows: list[list[Any]], knn: dict[str, Any], what: str) -> None:
    for table, per_k in knn["tables"].items():
        for k, c in per_k.items():
            gated = k == "10"
            rows.append([f"matrix (exact mode) vs sqlite-vec scan, {table}, recall@{k} loss, {what}, {knn['queries']} q",
                         f"{100 * c['loss']:.2f} % ({c['tie_swaps']} tie swaps, max Δcos {c['max_cos_diff']:.0e})",
                         "= 0" if gated else "—", _pf(c["loss"] == 0) if gated else "info"])
            rows.append([f"  kNN k={k} p50/p95: matrix vs scan",
                         f"{c['matrix']['p50_ms']:.1f}/{c['matrix']['p95_ms']:.1f} vs "
                         f"{c['scan']['p50_ms']:.1f}/{c['scan']['p95_ms']:.1f} ms", "—", "info"])
    rows.append([f"  matrix load (both tables), {what}", f"{knn['matrix_load_s']:.2f} s, {knn['matrix_mb']:.0f} MB",
                 "—", "info"])


def _coarse_rows(rows: list[list[Any]], c: dict[str, Any], what: str, gated: bool) -> None:
    for k, x in c["k"].items():
        bar = gated and k == "10"
        rows.append([f"coarse 1-bit shortlist {c['shortlist']} vs exact, recall@{k} loss, {c['rows']:,} {what}, "
                     f"{c['queries']} q", f"{100 * x['loss']:.2f} %",
                     f"< {100 * BARS['coarse_recall_loss']:.0f} %" if bar else "—",
                     _pf(x["loss"] < BARS["coarse_recall_loss"]) if bar else "info"])
        rows.append([f"  k={k} p50/p95: coarse vs exact matrix", f"{x['matrix']['p50_ms']:.1f}/{x['matrix']['p95_ms']:.1f}"
                     f" vs {x['scan']['p50_ms']:.1f}/{x['scan']['p95_ms']:.1f} ms", "—", "info"])


def print_report(r: dict[str, Any]) -> None:
    n, ns = r["n"], r["n_small"]
    rows: list[list[Any]] = []
    h = r["large_recall_hybrid"]
    path = "matrix" if r["large_matrix_path"] else "sqlite-vec scan"
    rows.append([f"hybrid recall p50, {n:,} memories (warm, real query embedding, kNN: {path})", f"{h['p50_ms']:.1f} ms",
                 "—", "info"])
    rows.append([f"hybrid recall p95, {n:,} memories (median of 3 runs)", f"{h['p95_ms']:.1f} ms",
                 f"≤ {BARS['recall_p95_ms']:.0f} ms", _pf(h["p95_ms"] <= BARS["recall_p95_ms"])])
    if "large_recall_hybrid_fts5" in r:
        f = r["large_recall_hybrid_fts5"]
        rows.append(["  same runs, keyword side by FTS5 (one-shot process; no in-process keyword index) p50 / p95",
                     f"{f['p50_ms']:.1f} / {f['p95_ms']:.1f} ms", "—", "baseline"])
        same, nq = r["index_same_top10"]
        rows.append(["  hybrid top 10 (ids and scores) with the keyword index = with FTS5", f"{same}/{nq} queries",
                     "all", _pf(same == nq)])
        ki = r["keyword_index"]
        rows.append(["  in-process keyword index: build (background, once per process)",
                     f"{ki['warm_up_s']:.1f} s, {ki['postings']:,} postings, {ki['bytes'] / 2**20:.0f} MB", "—", "info"])
    rows.append([f"first recall of a process, {n:,} (sqlite-vec scan; the matrix loads from the second)",
                 f"{r['large_first_recall_s']:.2f} s",
                 "—", "info"])
    kw = r["large_recall_keyword"]
    rows.append([f"keyword recall p50 / p95, {n:,}", f"{kw['p50_ms']:.1f} / {kw['p95_ms']:.1f} ms", "—", "info"])
    if "large_recall_keyword_fts5" in r:
        kf = r["large_recall_keyword_fts5"]
        rows.append([f"  keyword recall by FTS5 p50 / p95, {n:,}", f"{kf['p50_ms']:.1f} / {kf['p95_ms']:.1f} ms",
                     "—", "baseline"])
    _knn_rows(rows, r["large_knn"], f"{n:,} random vectors")
    _coarse_rows(rows, r["large_coarse"], "random vectors: near-equal cosines, the worst case; not gated", False)
    if "small_knn" in r:
        _knn_rows(rows, r["small_knn"], f"{ns:,} real vectors (forced)")
        _coarse_rows(rows, r["small_coarse"], "real vectors (forced)", True)
    if "real_coarse" in r:
        _coarse_rows(rows, r["real_coarse"], "real vectors", True)
    if "small_recall_hybrid" in r:  # (absent with --skip-small)
        s = r["small_recall_hybrid"]
        rows.append([f"hybrid recall p50 / p95, {ns:,} memories (warm: matrix from the second recall)",
                     f"{s['p50_ms']:.1f} / {s['p95_ms']:.1f} ms", "—", "info"])
    cli = r.get("cli")
    if cli and "error" not in cli:
        for name, bar in (("recall", BARS["cli_recall_s"]), ("stats", BARS["cli_small_s"]),
                          ("get 1", BARS["cli_small_s"]), ("forget N", BARS["cli_small_s"])):
            c = cli[name]
            val = f"{c['median_s']:.3f} s" + (f" ({c['error']})" if "error" in c else "")
            rows.append([f"cold CLI `mem.py --json {name}`, {ns:,} DB (median of 5)", val, f"≤ {bar} s",
                         _pf(c["median_s"] <= bar and "error" not in c)])
    elif cli:
        rows.append(["cold CLI", cli["error"], "—", "n/a"])
    if "api_small_ms" in r:
        a = r["api_small_ms"]
        rows.append(["same via API (in-process): stats / get / forget+restore",
                     f"{a['stats']:.1f} / {a['get 1']:.2f} / {a['forget+restore']:.1f} ms", "—", "info"])
    for key, label in (("small_bytes_per_memory", f"{ns:,}"), ("large_bytes_per_memory", f"{n:,}")):
        if key in r:
            rows.append([f"bytes per memory on disk, {label} DB", f"{r[key]:,.0f} B", f"≤ {BARS['bytes_per_memory']:,} B",
                         _pf(r[key] <= BARS["bytes_per_memory"])])
    la0, la1 = r["loadavg_start"][0], r["loadavg_end"][0]
    print(f"# mem latency and scale ({r['cpus']} CPUs, {r['queries']} queries, {r['layout']}; load average at start "
          f"{la0:.2f}, at end {la1:.2f})\n")
    if max(la0, la1) > MAX_LOAD:
        print(f"**warning: load average above {MAX_LOAD}: the machine was busy, rerun before trusting latencies**\n")
    print(md_table(["measure", "value", "bar", "result"], rows))
    b = r["large_breakdown"]
    stages = [s for s in b["mean_ms"] if s != "candidates"]
    print(f"\n## where a warm hybrid recall spends its time, {n:,} memories (ms; one extra pass, "
          f"methods wrapped with perf_counter)\n")
    print(md_table(["stage", "mean", "slowest 5 % (mean)"],
                   [[s, f"{b['mean_ms'][s]:.2f}", f"{b['slowest5pct_mean_ms'][s]:.2f}"] for s in stages]
                   + [["candidates fused", f"{b['mean_ms']['candidates']:.0f}",
                       f"{b['slowest5pct_mean_ms']['candidates']:.0f}"]]))
    if r.get("large_build_s"):
        print(f"\nlarge DB built in {r['large_build_s']:.0f} s ({n / r['large_build_s']:.0f} memories/s, random vectors)")
    if r.get("small_build_s"):
        print(f"small DB built in {r['small_build_s']:.0f} s ({ns / r['small_build_s']:.0f} memories/s, real embeddings)")


if __name__ == "__main__":
    raise SystemExit(main())
