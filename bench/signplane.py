"""The stored sign plane's shortlist against the exact kNN scan, on real-model vectors at 100k.

    .venv/bin/python bench/signplane.py --reuse /tmp/mem-signplane      # ~10 min the first time (embeds)

Vectors: the real MiniLM model (the engine's int8 form, ``embedder.OnnxEmbedder``) embeds
every distinct LoCoMo dev turn and synthetic texts (``bench/latency.synthetic_texts``) up
to ``--n`` rows; they are cached in the ``--reuse`` directory. Context vectors are derived
as the engine derives them (own vector plus its ±2 neighbours, decayed, in threads of 200).
Queries: the LoCoMo dev questions, embedded by the same model.

For each table and shortlist width M it reports the share of the exact top-10 and of the
exact top-VEC_POOL (the pool whose cosines recall fuses) that the Hamming shortlist +
exact int8 re-rank returns, and the time of each step.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import DEFAULT_LOCOMO, conversation_items, emit_json, load_locomo, log, percentile  # noqa: E402
from memengine import signplane, signrank  # noqa: E402
from memengine.recall.config import VEC_POOL  # noqa: E402
from memengine.vectors import VEC_PARAM, vec_blob, vectors_from_blobs  # noqa: E402


def corpus_texts(n: int) -> list[str]:
    """Distinct LoCoMo turns first, then synthetic texts, ``n`` in all."""
    from bench.latency import synthetic_texts

    convs, _ = load_locomo(DEFAULT_LOCOMO)
    seen: dict[str, None] = {}
    for conv in convs:
        for it in conversation_items(conv):
            seen.setdefault(it.content, None)
    texts = list(seen)[:n]
    if len(texts) < n:
        texts += synthetic_texts(n - len(texts), seed=31)
    return texts


def questions() -> list[str]:
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    return [q.question for c in convs for q in c.questions]


def real_vectors(directory: Path, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(``n`` stored vectors, query vectors), embedded once by the real model and cached."""
    path = directory / f"signplane-vectors-{n}.npz"
    if path.exists():
        z = np.load(path)
        return z["V"], z["Q"]
    os.environ.pop("MEM_EMBEDDER", None)
    from embedder import OnnxEmbedder

    real = OnnxEmbedder()
    texts = corpus_texts(n)
    t0 = time.perf_counter()
    parts = []
    for i in range(0, n, 2000):
        parts.append(real.embed(texts[i:i + 2000]))
        log(f"  embedded {i + len(parts[-1])}/{n} ({time.perf_counter() - t0:.0f} s)")
    V = np.vstack(parts).astype(np.float32)
    Q = real.embed(questions()).astype(np.float32)
    np.savez(path, V=V, Q=Q)
    return V, Q


def derived(real: np.ndarray, n: int, seed: int = 5) -> np.ndarray:
    """``n`` vectors: the real ones, then blends of two random real ones (normalised sums).

    Embedding 100k texts takes ~50 min on a loaded 2-core machine. A blend keeps what the
    sign plane depends on (MiniLM's shared mean direction and per-dimension spread) while
    every row stays distinct (copies would tie in both rankings).
    """
    rng = np.random.default_rng(seed)
    extra = n - len(real)
    if extra <= 0:
        return real[:n]
    a, b = rng.integers(0, len(real), (2, extra))
    mix = real[a] + real[b]
    mix /= np.linalg.norm(mix, axis=1, keepdims=True)
    return np.vstack([real, mix]).astype(np.float32)


def stored(mat: np.ndarray) -> tuple[list[bytes], np.ndarray]:
    """(int8 blobs as the engine stores them, the unit float rows they read back as)."""
    blobs = [vec_blob(v) for v in mat]
    return blobs, vectors_from_blobs(blobs)


def contexts(own: np.ndarray, thread: int = 200) -> np.ndarray:
    """Context vectors as ``context.refresh_context`` derives them: own + 0.6·(±1) + 0.36·(±2), in threads."""
    ctx = own.copy()
    n = len(own)
    pos = np.arange(n) % thread
    for d, w in ((1, 0.6), (2, 0.36)):
        ctx[d:] += np.where((pos[d:] >= d)[:, None], w * own[:-d], 0)
        ctx[:-d] += np.where((pos[:-d] < thread - d)[:, None], w * own[d:], 0)
    return ctx / np.linalg.norm(ctx, axis=1, keepdims=True)


def build_db(path: Path, tables: dict[str, list[bytes]]) -> Any:
    """A store holding only vectors (ids 1..n) and their sign plane, written through the engine's helpers."""
    from memengine.db import connect, write_tx
    from memengine.migrations import migrate

    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    conn = connect(path)
    migrate(conn)
    for table, blobs in tables.items():
        for i in range(0, len(blobs), 5000):
            rows = [(j + 1, blobs[j]) for j in range(i, min(i + 5000, len(blobs)))]
            with write_tx(conn):
                conn.executemany(f"INSERT INTO {table}(memory_id, embedding) VALUES (?, {VEC_PARAM})", rows)
                signplane.put(conn, table, rows)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return conn


def recall_by_width(mat: np.ndarray, qs: np.ndarray, widths: list[int], ks: tuple[int, ...],
                    prefilter: bool = False) -> dict[str, dict[str, float]]:
    """Share of the exact top-k (by cosine, stored precision) that a shortlist of M + exact re-rank
    returns: the engine's ranking (``signrank.rank_rows``), and plain Hamming distance for comparison.
    ``prefilter`` forces the Hamming pre-pass the engine runs past ``PREFILTER_FROM`` rows."""
    cols = list(np.ascontiguousarray(np.packbits(mat > 0, axis=1).view(np.uint64).T))
    methods = {"estimator": lambda q, m: signrank.rank_rows(cols, q, m),
               "hamming": lambda q, m: signrank.top_rows(-signrank.hamming_cols(cols, q).astype(np.float32), m)}
    saved = signrank.PREFILTER_FROM
    signrank.PREFILTER_FROM = 0 if prefilter else 10**12
    got = {(name, m, k): 0 for name in methods for m in widths for k in ks}
    try:
        for q in qs:
            sims = mat @ q
            wants = {}
            for k in ks:
                want = np.argpartition(-sims, k - 1)[:k]
                wants[k] = (set(want.tolist()), float(sims[want].min()))
            for name, fn in methods.items():
                for m in widths:
                    rows = fn(q, m)
                    order = rows[np.argsort(-sims[rows], kind="stable")]
                    for k in ks:
                        want_set, kth = wants[k]
                        extra = [r for r in order[:k].tolist() if r not in want_set]
                        # a row tied with the k-th cosine counts as found (either is a correct top k)
                        got[(name, m, k)] += k - len(extra) + sum(abs(float(sims[r]) - kth) <= 1e-6 for r in extra)
    finally:
        signrank.PREFILTER_FROM = saved
    out: dict[str, dict[str, float]] = {}
    for name in methods:
        for m in widths:
            row = out[f"{name} M={m}"] = {f"top{k}": round(got[(name, m, k)] / (k * len(qs)), 4) for k in ks}
            log(f"  {name} M={m}: " + ", ".join(f"top-{k} {v}" for k, v in zip(ks, row.values())))
    return out


def timed(fn: Any, qs: np.ndarray) -> dict[str, float]:
    """p50/p95 of wall and process CPU time of ``fn(q)`` per query, in ms."""
    ms, cpu = [], []
    for q in qs:
        t0, c0 = time.perf_counter(), time.process_time()
        fn(q)
        ms.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return {"p50_ms": round(percentile(ms, 50), 2), "p95_ms": round(percentile(ms, 95), 2),
            "cpu_p50_ms": round(percentile(cpu, 50), 2), "cpu_p95_ms": round(percentile(cpu, 95), 2)}


def latency(conn: Any, table: str, qs: np.ndarray, widths: list[int], k: int) -> dict[str, Any]:
    """kNN of k on one table: sqlite-vec's exact scan vs sign shortlist of each width + re-rank."""
    scan = timed(lambda q: conn.execute(
        f"SELECT memory_id, distance FROM {table} WHERE embedding MATCH {VEC_PARAM} AND k = ?",
        (vec_blob(q), k)).fetchall(), qs)
    out: dict[str, Any] = {"scan": scan}
    for m in widths:
        out[f"sign M={m}"] = timed(lambda q, m=m: signplane.search(conn, table, q, k, m), qs)
    log(f"  {table}: " + ", ".join(f"{name} p50 {v['p50_ms']} ms (CPU {v['cpu_p50_ms']})" for name, v in out.items()))
    return out


def quantised(mat: np.ndarray) -> np.ndarray:
    """int8 rows exactly as ``vectors.vec_blob`` stores them (largest component ±127), without the blobs."""
    top = np.abs(mat).max(axis=1, keepdims=True)
    return np.rint(mat * (127.0 / np.where(top > 0, top, 1))).astype(np.int8)


def old_search(mat: np.ndarray, cols: list[np.ndarray], q: np.ndarray, k: int) -> list[int]:
    """The warm path before: float32 rows, Hamming shortlist of max(2000, 4k) rows, exact re-rank."""
    ham = signrank.hamming_cols(cols, q)
    width = max(2000, 4 * k)
    cut = int(np.searchsorted(np.cumsum(np.bincount(ham)), width))
    rows = np.flatnonzero(ham <= cut)
    sims = mat[rows] @ q
    top = np.argpartition(-sims, k - 1)[:k]
    return rows[top[np.argsort(-sims[top])]].tolist()


def warm(real: np.ndarray, qs: np.ndarray, n: int) -> dict[str, Any]:
    """Warm kNN of both tables (k = VEC_POOL each, as recall asks) at ``n`` rows: in-memory bytes
    and p50/p95 per query, the int8 matrices against the float32 ones they replace."""
    from memengine.vectors import VectorMatrix

    own = derived(real, n)
    tables = {"vec_memories": own, "vec_contexts": contexts(own)}
    del own
    new, old = {}, {}
    ids = np.arange(1, n + 1, dtype=np.int64)
    for name, mat in tables.items():
        q8 = quantised(mat)
        new[name] = VectorMatrix(name)
        new[name].append_int8(ids, q8)
        unit = new[name].unit_rows()  # the float32 rows the old matrix held
        old[name] = (unit, [new[name]._planes[w, :n] for w in range(new[name]._planes.shape[0])])
        del q8
    out: dict[str, Any] = {"rows": n, "queries": len(qs),
                           "new_mb": round(sum(m.nbytes for m in new.values()) / 2**20, 1),
                           "old_mb": round(sum(u.nbytes + n * 56 for u, _ in old.values()) / 2**20, 1)}
    t_new, t_old, c_new, c_old = [], [], [], []
    for q in qs:  # (one thread: CPU time is what the search costs, wall adds the machine's load)
        t0, c0 = time.perf_counter(), time.process_time()
        for m in new.values():
            m.search(q, VEC_POOL)
        t1, c1 = time.perf_counter(), time.process_time()
        for unit, cols in old.values():
            old_search(unit, cols, q, VEC_POOL)
        t2, c2 = time.perf_counter(), time.process_time()
        t_new.append((t1 - t0) * 1000)
        t_old.append((t2 - t1) * 1000)
        c_new.append((c1 - c0) * 1000)
        c_old.append((c2 - c1) * 1000)
    for key, xs in (("new_ms", t_new), ("old_ms", t_old), ("new_cpu_ms", c_new), ("old_cpu_ms", c_old)):
        out[key] = {"p50": round(percentile(xs, 50), 2), "p95": round(percentile(xs, 95), 2)}
    # the share of the exact top-400 each keeps (own vectors; a sample of the queries)
    kept = {"new": 0, "old": 0}
    unit, cols = old["vec_memories"]
    sample = qs[:40]
    for q in sample:
        want = set(np.argpartition(-(unit @ q), VEC_POOL - 1)[:VEC_POOL].tolist())
        kept["new"] += len(want & {i - 1 for i, _ in new["vec_memories"].search(q, VEC_POOL)})
        kept["old"] += len(want & set(old_search(unit, cols, q, VEC_POOL)))
    out["top400_kept"] = {k: round(v / (VEC_POOL * len(sample)), 4) for k, v in kept.items()}
    log(f"  warm at {n}: int8 {out['new_mb']} MB, p50/p95 {out['new_ms']['p50']}/{out['new_ms']['p95']} ms "
        f"(CPU {out['new_cpu_ms']['p50']}/{out['new_cpu_ms']['p95']}); float32 {out['old_mb']} MB, "
        f"{out['old_ms']['p50']}/{out['old_ms']['p95']} ms (CPU {out['old_cpu_ms']['p50']}/{out['old_cpu_ms']['p95']}); "
        f"top-400 kept {out['top400_kept']}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000, help="vectors in all (default: %(default)s)")
    ap.add_argument("--real", type=int, default=20_000,
                    help="of which embedded by the real model; the rest derived (default: %(default)s)")
    ap.add_argument("--sizes", default="5000,10000,20000,50000", help="smaller stores timed for the threshold")
    ap.add_argument("--widths", default="1000,2000,3200,4000")
    ap.add_argument("--recall-queries", type=int, default=250, help="LoCoMo questions of the recall check")
    ap.add_argument("--timing-queries", type=int, default=60)
    ap.add_argument("--warm-sizes", default="100000,1000000", help="in-memory matrices timed (both tables)")
    ap.add_argument("--only-warm", action="store_true", help="skip the recall and one-shot sections")
    ap.add_argument("--reuse", metavar="DIR", help="cache the embedded vectors in DIR")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    directory = Path(args.reuse) if args.reuse else Path(tempfile.mkdtemp(prefix="mem-signplane-"))
    directory.mkdir(parents=True, exist_ok=True)
    R, Q = real_vectors(directory, args.real)
    blobs_own, own = stored(derived(R, args.n))
    blobs_ctx, ctx = stored(contexts(own))
    qs = vectors_from_blobs([vec_blob(q) for q in Q])  # queries at stored precision, as recall scans them
    widths = [int(w) for w in args.widths.split(",")]
    log(f"{len(own)} vectors ({min(args.real, args.n)} real), {len(qs)} LoCoMo questions; load {os.getloadavg()}")
    out: dict[str, Any] = {"n": len(own), "real": min(args.real, args.n), "queries": len(qs),
                           "loadavg_start": os.getloadavg(), "recall": {}, "latency": {}, "threshold": {}}
    out["warm"] = {}
    for n in [int(x) for x in args.warm_sizes.split(",") if x]:
        out["warm"][str(n)] = warm(R, qs[:200], n)
    if args.only_warm:
        print(json.dumps(out, indent=2))
        return 0
    rq = qs[:: max(1, len(qs) // args.recall_queries)]
    for table, mat in (("vec_memories", own), ("vec_contexts", ctx)):
        log(f"share of the exact top-k kept, {table}, {len(rq)} queries:")
        out["recall"][table] = recall_by_width(mat, rq, widths, (10, VEC_POOL))
        log(f"  with the Hamming pre-pass ({signrank.PREFILTER_SHARE:.0%} kept), width {signrank.width(VEC_POOL)}:")
        out["recall"][table + " prefilter"] = recall_by_width(mat, rq, [signrank.width(VEC_POOL)], (10, VEC_POOL),
                                                              prefilter=True)
    tq = qs[: args.timing_queries]
    conn = build_db(directory / f"signplane-{args.n}.db", {"vec_memories": blobs_own, "vec_contexts": blobs_ctx})
    log(f"kNN latency at {args.n} (k = {VEC_POOL}, one table, {len(tq)} queries):")
    for table in ("vec_memories", "vec_contexts"):
        out["latency"][table] = latency(conn, table, tq, widths, VEC_POOL)
    conn.close()
    for n in [int(x) for x in args.sizes.split(",") if x]:
        conn = build_db(directory / f"signplane-{n}.db", {"vec_memories": blobs_own[:n]})
        log(f"at {n}:")
        out["threshold"][str(n)] = latency(conn, "vec_memories", tq, [signrank.width(VEC_POOL)], VEC_POOL)
        conn.close()
    out["loadavg_end"] = os.getloadavg()
    emit_json(out, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
