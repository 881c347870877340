"""What supersession.lexical_candidates' FTS5 query costs at scale, and how far an exact cut could go (serve14).

    .venv/bin/python bench/lexical_candidates_cost.py --store /tmp/scl/scale-100000.v1.db --texts 400

Copies the store to /tmp (never writes into it). For ``--texts`` fact texts (tests/data/fact_*.jsonl, each
pair's two sides) and as many of the store's own level-0 texts, it prints the CPU of the query as
lexical_candidates asks it (``{content} : (t1 OR ...) ORDER BY rank, rowid LIMIT 40``), the rows it scores
(every row matching a word), the CPU of counting each word's rows alone (what any exact cut must know:
the idf), and the rows an exact MaxScore cut would still have to score, in its best case (the true 40th
score known in advance): a row matching only words whose bounds sum below it cannot enter the 40, where a
word's bound is idf x 2.2 / (1 + 0.9 / avgdl) (bm25's tf part, k1 1.2, b 0.75, any tf, any row length).

``--facts``: also stores the fact texts (semantic, outside any conversation) into the copy with this tree's
code, and counts the stores whose other facts sharing a word are left out of the candidates because chat
turns fill the 40 best rows (the candidates are facts among all rows' top 40, not the best facts).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memengine import supersession  # noqa: E402
from memengine.db import connect  # noqa: E402
from memengine.text import query_terms, quote_fts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def fact_texts(n: int) -> list[str]:
    """The first ``n`` distinct texts of the labelled fact files (both sides of each pair)."""
    out: list[str] = []
    for f in sorted(glob.glob(str(ROOT / "tests/data/fact_*.jsonl"))):
        for line in open(f, encoding="utf-8"):
            try:
                row = json.loads(line)
            except ValueError:
                continue
            out += [row[k] for k in ("a", "b") if isinstance(row.get(k), str)]
    return list(dict.fromkeys(out))[:n]


def pct(xs: list[float], p: float) -> float:
    """The ``p`` quantile of ``xs`` (nearest rank)."""
    return sorted(xs)[int(p * (len(xs) - 1))]


def measure(c: Any, texts: list[str], label: str) -> None:
    """Print the query's CPU, rows and the best-case MaxScore rows over ``texts``."""
    blob = c.execute("SELECT block FROM memories_fts_data WHERE id = 1").fetchone()[0]
    vals: list[int] = []
    v = 0
    for byte in blob:  # the averages record: row count, then each column's tokens (SQLite varints)
        v = (v << 7) | (byte & 0x7F)
        if byte < 0x80:
            vals.append(v)
            v = 0
    nrow, avgdl = vals[0], sum(vals[1:]) / vals[0]
    bound = 2.2 / (1 + 0.9 / avgdl)
    rank_ms: list[float] = []
    count_ms: list[float] = []
    matched: list[float] = []
    must: list[float] = []
    for t in texts:
        terms = query_terms(t)
        if not terms:
            continue
        q = "{content} : (" + " OR ".join(quote_fts(x) for x in terms) + ")"
        a = time.thread_time()
        top = c.execute("SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank, rowid LIMIT 40",
                        (q,)).fetchall()
        b = time.thread_time()
        hits = [c.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?",
                          ("{content} : " + quote_fts(x),)).fetchone()[0] for x in terms]
        d = time.thread_time()
        n = c.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", (q,)).fetchone()[0]
        rank_ms.append(1000 * (b - a))
        count_ms.append(1000 * (d - b))
        idf = [max(math.log((nrow - h + 0.5) / (h + 0.5)), 0.0) or 1e-6 for h in hits]
        theta = -top[-1][1] if len(top) == 40 else 0.0
        order = sorted(range(len(terms)), key=lambda i: -idf[i])
        need = n
        for k in range(len(order) + 1):
            if sum(idf[i] * bound for i in order[k:] if hits[i]) < theta:
                need = min(n, sum(hits[i] for i in order[:k]))
                break
        matched.append(n)
        must.append(need)
    print(f"{label}: {len(rank_ms)} texts, {nrow} rows, avgdl {avgdl:.1f}, load {os.getloadavg()[0]:.1f}")
    print(f"  ranking CPU ms p50 {pct(rank_ms, .5):.1f} p95 {pct(rank_ms, .95):.1f} mean {statistics.mean(rank_ms):.1f};"
          f" counting each word's rows p50 {pct(count_ms, .5):.1f} p95 {pct(count_ms, .95):.1f}")
    print(f"  rows scored p50 {pct(matched, .5):.0f} p95 {pct(matched, .95):.0f} mean {statistics.mean(matched):.0f};"
          f" an exact MaxScore cut's, best case, p50 {pct(must, .5):.0f} p95 {pct(must, .95):.0f}"
          f" mean {statistics.mean(must):.0f}")


def drowned(db: str, texts: list[str]) -> None:
    """Store ``texts`` as facts; count the stores whose word-sharing other facts miss the candidates."""
    import memory_core as core

    s = core.MemoryStore(db)
    n = left_out = 0
    for t in texts:
        r = s.store(t, "semantic")
        if r.deduplicated or not query_terms(t):
            continue
        q = "{content} : (" + " OR ".join(quote_fts(x) for x in query_terms(t)) + ")"
        cands = set(supersession.lexical_candidates(s.conn, t)) - {r.id}
        sharing = {int(x[0]) for x in s.conn.execute(
            f"SELECT m.id FROM memories_fts f JOIN memories m ON m.id = f.rowid WHERE memories_fts MATCH ? "
            f"AND {supersession.FACT_SQL} AND m.id != ?", (q, r.id))}
        n += 1
        left_out += bool(sharing) and len(cands) < min(len(sharing), supersession.CANDIDATES - 1)
    s.close()
    print(f"facts stored {n}: stores where fewer word-sharing facts were candidates than there were"
          f" (up to {supersession.CANDIDATES - 1}): {left_out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--texts", type=int, default=400)
    ap.add_argument("--facts", action="store_true")
    a = ap.parse_args()
    os.makedirs("/tmp/lexical_cost", exist_ok=True)
    db = "/tmp/lexical_cost/store.db"
    shutil.copy(a.store, db)
    conn = connect(db)
    texts = fact_texts(a.texts)
    measure(conn, texts, "fact texts")
    own = [r[0] for r in conn.execute("SELECT content FROM memories WHERE level = 0 ORDER BY id % 7919, id LIMIT ?",
                                      (a.texts,))]
    measure(conn, own, "the store's own texts")
    conn.close()
    if a.facts:
        drowned(db, texts)


if __name__ == "__main__":
    main()
