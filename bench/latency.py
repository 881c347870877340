"""Scale and latency benchmark: recall at 100k, 1-bit vector scan quality, cold CLI, bytes/memory.

    python bench/latency.py                          # 100k + 10k DBs in a temp dir
    python bench/latency.py --reuse /tmp/lat         # build once, reuse on later runs
    python bench/latency.py --n 20000 --skip-cli     # quicker

Two synthetic databases of realistic, varied text (templates × word lists, seeded):

* the *large* one (``--n``, default 100 000) gets **random unit vectors**, written
  through the engine's own write path (``store_many``) by an embedder wrapper that
  carries the real model id. Embedding 100k texts with MiniLM takes ~10 min on two
  cores, and scan latency does not depend on vector content (vec0 scans every row
  whatever they hold). Queries are embedded by the real model, so recall latency
  includes real query embedding. Random vectors are the *worst case* for the 1-bit
  scan (no structure, all distances alike), so its recall loss there is pessimistic.
* the *small* one (``--n-small``, default 10 000) is embedded by the real model; it
  serves the cold-CLI timings, bytes/memory and the 1-bit recall check on real vectors
  (forcing the bit path below BIT_SCAN_MIN_ROWS).
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import memory_core  # noqa: E402
from bench.common import REPO, log, md_table, percentile  # noqa: E402
from memory_core import MemoryStore, NewMemory, _vec_blob  # noqa: E402

BARS = {
    "recall_p50_ms": 50.0, "recall_p95_ms": 150.0,  # warm in-process hybrid recall at 100k
    "bit_recall_loss": 0.01,
    "cli_recall_s": 0.5, "cli_small_s": 0.15,
    "bytes_per_memory": 2500,
}

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


def _items(texts: list[str], seed: int) -> list[NewMemory]:
    rng = random.Random(seed)
    kinds = ["episodic"] * 6 + ["semantic"] * 3 + ["procedural"]
    return [NewMemory(content=t, memory_type=rng.choice(kinds), source="synthetic", ref=f"s{i}",
                      importance=round(rng.random(), 2), tags=rng.sample(["work", "family", "health", "travel", "ops"], 1))
            for i, t in enumerate(texts)]


def checkpoint(store: MemoryStore) -> None:
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*") if p.is_file())


def build_db(path: Path, n: int, embedder: Any, reuse: bool, seed: int) -> tuple[MemoryStore, float | None]:
    """Create (or reuse) a DB of ``n`` synthetic memories; returns (store, build seconds or None)."""
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
    texts = synthetic_texts(n, seed)
    t0 = time.perf_counter()
    done = [0]
    last = [t0]

    def progress(k: int) -> None:
        done[0] += k
        if time.perf_counter() - last[0] > 15:
            last[0] = time.perf_counter()
            rate = done[0] / (last[0] - t0)
            log(f"  {path.name}: {done[0]}/{n} ({rate:.0f}/s, ~{(n - done[0]) / rate:.0f} s left)")

    store.store_many(_items(texts, seed), batch_size=1000, progress=progress)
    checkpoint(store)
    took = time.perf_counter() - t0
    log(f"  {path.name}: {n} memories in {took:.1f} s ({n / took:.0f}/s)")
    return store, took


# --------------------------------------------------------------------------- measurements

def recall_latency(store: MemoryStore, queries: list[str], runs: int = 3, strategy: str = "hybrid") -> dict[str, Any]:
    """Warm in-process recall: p50/p95 of each run over all queries, median over runs."""
    store.recall(queries[0], k=10, strategy=strategy, touch=False)  # warm: model loaded, pages cached
    p50s, p95s = [], []
    for run in range(runs):
        lat = []
        for q in queries:
            t0 = time.perf_counter()
            store.recall(q, k=10, strategy=strategy, touch=False)
            lat.append((time.perf_counter() - t0) * 1000)
        p50s.append(percentile(lat, 50))
        p95s.append(percentile(lat, 95))
        log(f"  {strategy} run {run + 1}: p50 {p50s[-1]:.1f} ms, p95 {p95s[-1]:.1f} ms")
        if statistics.fmean(lat) > 500 and run + 1 < runs:
            log("  (over 0.5 s per query: further runs skipped)")
            break
    return {"p50_ms": round(statistics.median(p50s), 2), "p95_ms": round(statistics.median(p95s), 2),
            "runs_p50": [round(x, 2) for x in p50s], "runs_p95": [round(x, 2) for x in p95s]}


def exact_nearest(store: MemoryStore, vec: np.ndarray, k: int) -> list[int]:
    rows = store.conn.execute(
        "SELECT memory_id FROM vec_memories WHERE embedding MATCH ? AND k = ?", (_vec_blob(vec), k)
    ).fetchall()
    return [int(r[0]) for r in rows]


def bit_scan_check(store: MemoryStore, qvecs: np.ndarray, plan: tuple[tuple[int, int | None, int], ...] = (
                       (10, None, 200), (150, None, 50), (150, 2, 50), (150, 4, 50)),
                   force: bool = False) -> list[dict[str, Any]]:
    """Recall@k of the engine's ``_nearest`` (1-bit scan + exact re-rank) against exact brute force.

    ``force`` lowers BIT_SCAN_MIN_ROWS so a small DB goes through the bit path too.
    k=150 is what hybrid recall asks ``_nearest`` for (POOL + 50). ``plan`` is
    (k, oversample or None for the engine's BIT_OVERSAMPLE, number of queries): the
    smaller oversamples show what a cheaper coarse scan would lose.
    """
    saved = memory_core.BIT_SCAN_MIN_ROWS
    saved_over = memory_core.BIT_OVERSAMPLE
    if force:
        memory_core.BIT_SCAN_MIN_ROWS = 0
    store._vec_count_cache = None
    out = []
    try:
        for k, over, nq in plan:
            memory_core.BIT_OVERSAMPLE = over or saved_over
            hits, t_bit, t_exact = [], [], []
            for v in qvecs[:nq]:
                t0 = time.perf_counter()
                approx = [mid for mid, _ in store._nearest(v, k)]
                t1 = time.perf_counter()
                exact = exact_nearest(store, v, k)
                t2 = time.perf_counter()
                t_bit.append((t1 - t0) * 1000)
                t_exact.append((t2 - t1) * 1000)
                hits.append(len(set(approx) & set(exact)) / max(1, len(exact)))
            out.append({"k": k, "oversample": memory_core.BIT_OVERSAMPLE, "queries": len(hits),
                        "engine_default": over is None, "recall": round(statistics.fmean(hits), 4), "loss": round(1 - statistics.fmean(hits), 4),
                        "bit_p50_ms": round(percentile(t_bit, 50), 2), "exact_p50_ms": round(percentile(t_exact, 50), 2),
                        "bit_p95_ms": round(percentile(t_bit, 95), 2), "exact_p95_ms": round(percentile(t_exact, 95), 2),
                        "bit_path": store._vector_count() >= memory_core.BIT_SCAN_MIN_ROWS})
    finally:
        memory_core.BIT_SCAN_MIN_ROWS = saved
        memory_core.BIT_OVERSAMPLE = saved_over
        store._vec_count_cache = None
    return out


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
    ap.add_argument("--reuse", metavar="DIR", help="keep the DBs in DIR and reuse them when present")
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--skip-small", action="store_true", help="no real-vector DB (no CLI, no real-vector bit check)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    os.environ.pop("MEM_EMBEDDER", None)
    from embedder import OnnxEmbedder

    real = OnnxEmbedder()
    real.embed(["warm up"])
    directory = Path(args.reuse) if args.reuse else Path(tempfile.mkdtemp(prefix="mem-latency-"))
    directory.mkdir(parents=True, exist_ok=True)
    log(f"DBs in {directory}")
    queries = synthetic_queries(args.queries)
    qvecs = real.embed(queries)
    results: dict[str, Any] = {"n": args.n, "n_small": args.n_small, "queries": len(queries),
                               "cpus": os.cpu_count(), "bars": BARS, "loadavg_start": os.getloadavg()}

    # ---- large DB, random stored vectors
    big_path = directory / f"synthetic-{args.n}.db"
    wrapper = RandomStoreEmbedder(real)
    big, took = build_db(big_path, args.n, wrapper, bool(args.reuse), seed=7)
    wrapper.storing = False
    results["large_build_s"] = took
    log("measuring hybrid recall on the large DB ...")
    results["large_recall_hybrid"] = recall_latency(big, queries)
    results["large_recall_keyword"] = recall_latency(big, queries, runs=1, strategy="keyword")
    log("measuring the 1-bit scan on the large DB ...")
    results["large_bit"] = bit_scan_check(big, qvecs)
    checkpoint(big)
    count_big = big.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    results["large_bytes_per_memory"] = round(db_bytes(big_path) / count_big, 1)
    big.close()

    # ---- small DB, real vectors
    if not args.skip_small:
        small_path = directory / f"real-{args.n_small}.db"
        log("building / opening the real-vector DB ...")
        small, took = build_db(small_path, args.n_small, real, bool(args.reuse), seed=8)
        results["small_build_s"] = took
        results["small_recall_hybrid"] = recall_latency(small, queries)
        results["small_bit_forced"] = bit_scan_check(small, qvecs, force=True)
        checkpoint(small)
        count_small = small.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        results["small_bytes_per_memory"] = round(db_bytes(small_path) / count_small, 1)
        results["api_small_ms"] = api_small_timings(small)
        small.close()
        if not args.skip_cli:
            log("timing cold CLI calls ...")
            results["cli"] = cli_timings(small_path)

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


def print_report(r: dict[str, Any]) -> None:
    n, ns = r["n"], r["n_small"]
    rows: list[list[Any]] = []
    h = r["large_recall_hybrid"]
    rows.append([f"hybrid recall p50, {n:,} memories (warm, real query embedding)", f"{h['p50_ms']:.1f} ms",
                 f"≤ {BARS['recall_p50_ms']:.0f} ms", _pf(h["p50_ms"] <= BARS["recall_p50_ms"])])
    rows.append([f"hybrid recall p95, {n:,} memories", f"{h['p95_ms']:.1f} ms", f"≤ {BARS['recall_p95_ms']:.0f} ms",
                 _pf(h["p95_ms"] <= BARS["recall_p95_ms"])])
    kw = r["large_recall_keyword"]
    rows.append([f"keyword recall p50 / p95, {n:,}", f"{kw['p50_ms']:.1f} / {kw['p95_ms']:.1f} ms", "—", "info"])

    def bit_rows(bits: list[dict[str, Any]], what: str) -> None:
        for b in bits:
            gated = b["k"] == 10 and b["engine_default"]
            label = (f"1-bit scan ×{b['oversample']}{' (engine)' if b['engine_default'] else ''} recall@{b['k']} loss, "
                     f"{what}{'' if b['bit_path'] else ' (exact path!)'}, {b['queries']} q")
            rows.append([label, f"{100 * b['loss']:.2f} %", "< 1 %" if gated else "—",
                         _pf(b["loss"] < BARS["bit_recall_loss"]) if gated else "info"])
            rows.append([f"  nearest-{b['k']} p50/p95: 1-bit+re-rank vs exact",
                         f"{b['bit_p50_ms']:.1f}/{b['bit_p95_ms']:.1f} vs {b['exact_p50_ms']:.1f}/{b['exact_p95_ms']:.1f} ms",
                         "—", "info"])

    bit_rows(r["large_bit"], f"{n:,} random vectors")
    if "small_bit_forced" in r:
        bit_rows(r["small_bit_forced"], f"{ns:,} real-model vectors (forced)")
        s = r["small_recall_hybrid"]
        rows.append([f"hybrid recall p50 / p95, {ns:,} memories", f"{s['p50_ms']:.1f} / {s['p95_ms']:.1f} ms", "—", "info"])
    cli = r.get("cli")
    if cli and "error" not in cli:
        for name, bar in (("recall", BARS["cli_recall_s"]), ("stats", BARS["cli_small_s"]),
                          ("get 1", BARS["cli_small_s"]), ("forget N", BARS["cli_small_s"])):
            c = cli[name]
            val = f"{c['median_s']:.3f} s" + (f" ({c['error']})" if "error" in c else "")
            rows.append([f"cold CLI `mem.py {name}`, {ns:,} DB (median of 5)", val, f"≤ {bar} s",
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
    print(f"# mem latency and scale ({r['cpus']} CPUs, {r['queries']} queries; load average at start "
          f"{r['loadavg_start'][0]:.1f}, at end {r['loadavg_end'][0]:.1f})\n")
    print(md_table(["measure", "value", "bar", "result"], rows))
    if r.get("large_build_s"):
        print(f"\nlarge DB built in {r['large_build_s']:.0f} s ({n / r['large_build_s']:.0f} memories/s, random vectors)")
    if r.get("small_build_s"):
        print(f"small DB built in {r['small_build_s']:.0f} s ({ns / r['small_build_s']:.0f} memories/s, real embeddings)")


if __name__ == "__main__":
    raise SystemExit(main())
