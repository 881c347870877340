"""Does recalling episodes help? Turn-level recall on LoCoMo with and without episode memories.

Each conversation is stored one memory per turn (as ``bench/locomo.py`` does), then a
copy of that store gets episodes built by the import engine (``ingest.build_episodes``:
time gaps, topic shift, size cap; ``part_of`` edges to the member turns). Scored on
turn evidence, categories 1-4:

* ``turns only``       — the store without episodes (baseline);
* ``episodes as extra`` — the store with episodes: an episode hit takes a result slot
  and, not being a turn, never counts as evidence (what an agent sees as-is);
* ``expand all``       — each episode hit is replaced in place by all its member turns
  (ordered by cosine to the question), then duplicates dropped and cut at k;
* ``expand top-N``     — the same with the N members closest to the question.

Usage::

    python bench/locomo_episodes.py [LOCOMO.json] [--strategy hybrid] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import (  # noqa: E402
    DEFAULT_LOCOMO,
    RecallFn,
    build_stores,
    evaluate,
    load_locomo,
    log,
    md_table,
)
from memengine import ingest  # noqa: E402
from memory_core import MemoryStore  # noqa: E402


def add_episodes(src: MemoryStore, dest: Path, sample_id: str) -> tuple[MemoryStore, int, list[int]]:
    """Copy a turn store to ``dest`` and build its episodes; returns (store, episodes, sizes)."""
    src.backup(dest)
    store = MemoryStore(dest, embedder=src.embedder)
    made = ingest.build_episodes(store, "locomo", sample_id)
    sizes = [int(r[0]) for r in store.conn.execute(
        "SELECT json_extract(metadata, '$.members') FROM memories WHERE json_extract(metadata, '$.kind') = 'episode'")]
    return store, made, sizes


def plain(strategy: str) -> RecallFn:
    """Refs of the engine's ranking, episodes included as they come."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        return [m.ref or "" for m in store.recall(query, k=k, strategy=strategy, touch=False).results]

    return fn


def expanding(strategy: str, per_episode: int | None) -> RecallFn:
    """Episode hits replaced in place by their member turns (closest to the query first)."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        res = store.recall(query, k=k, strategy=strategy, touch=False).results
        qvec: Any = None
        out: list[str] = []
        for m in res:
            if (m.metadata or {}).get("kind") != "episode":
                out.append(m.ref or "")
                continue
            members = store.conn.execute(
                "SELECT m.id, m.ref FROM associations a JOIN memories m ON m.id = a.source_id "
                "WHERE a.target_id = ? AND a.edge_type = 'part_of' ORDER BY m.position", (m.id,)).fetchall()
            if qvec is None:
                emb = store.embedder
                qvec = emb.embed([query])[0] if emb is not None else None
            if qvec is not None:
                vecs = store.vectors([r[0] for r in members])
                members = sorted(members, key=lambda r: -float(np.dot(vecs[r[0]], qvec)) if r[0] in vecs else 0.0)
            out.extend(r[1] for r in members[: per_episode or len(members)])
        seen: set[str] = set()
        ranked = [r for r in out if not (r in seen or seen.add(r))]  # type: ignore[func-returns-value]
        return ranked[:k]

    return fn


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", default=str(DEFAULT_LOCOMO))
    ap.add_argument("--strategy", default="hybrid", help="engine strategy(ies), comma list (default: %(default)s)")
    ap.add_argument("--keep", metavar="DIR", help="build/reuse turn stores in DIR")
    args = ap.parse_args(argv)
    path = Path(args.path)
    if not path.exists():
        print(f"error: LoCoMo file not found: {path}", file=sys.stderr)
        return 2
    convs, norm = load_locomo(path)
    log(norm.summary())
    from embedder import get_embedder

    embedder = get_embedder()
    tmp = tempfile.mkdtemp(prefix="locomo-ep-")
    directory = Path(args.keep) if args.keep else Path(tmp)
    base = build_stores(convs, directory, embedder, reuse=bool(args.keep))
    with_ep: dict[str, MemoryStore] = {}
    sizes: list[int] = []
    for c in convs:
        with_ep[c.sample_id], made, sz = add_episodes(base[c.sample_id], Path(tmp) / f"{c.sample_id}.ep.db", c.sample_id)
        sizes += sz
        log(f"  {c.sample_id}: {len(c.turns)} turns -> {made} episodes")
    questions = [q for c in convs for q in c.questions]
    n_turns = sum(len(c.turns) for c in convs)
    print(f"# Episodes on LoCoMo — {len(convs)} conversations, {n_turns} turns, {len(sizes)} episodes "
          f"(mean {np.mean(sizes):.1f} turns, max {max(sizes)}), embedder `{embedder.model_id}`\n")
    for strategy in [s.strip() for s in args.strategy.split(",") if s.strip()]:
        variants: list[tuple[str, dict[str, MemoryStore], Callable[..., list[str]]]] = [
            ("turns only", base, plain(strategy)),
            ("episodes as extra results", with_ep, plain(strategy)),
            ("episode hit -> all members", with_ep, expanding(strategy, None)),
            ("episode hit -> top-3 members", with_ep, expanding(strategy, 3)),
            ("episode hit -> top-1 member", with_ep, expanding(strategy, 1)),
        ]
        rows = []
        for name, stores, fn in variants:
            o = evaluate(stores, questions, fn)
            ov, lat = o["overall"], o["latency_ms"]
            rows.append([name, ov["n"], ov["recall@5"], ov["recall@10"], ov["all@10"], ov["mrr"], lat["p50"]])
            log(f"{strategy} / {name}: {ov}")
        print(f"## strategy `{strategy}` (categories 1-4)\n")
        print(md_table(["variant", "n", "recall@5", "recall@10", "all-evidence@10", "MRR", "p50 ms"], rows))
        print()
    for s in (*base.values(), *with_ep.values()):
        s.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
