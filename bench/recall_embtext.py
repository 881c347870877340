#!/usr/bin/env python3
"""What text a turn's own vector should embed (issue 7): the whole content, or less.

Each LoCoMo dev store (as `locomo.py` builds them) is copied per variant; every own vector
is re-embedded from the variant's text and the context vectors are rebuilt from those
(`memengine.context.refresh_context`), then the 760 questions are scored as `recall_ablation.py`
scores them. Variants: ``full`` (the stored content, "[date] Speaker: text": what the
engine embeds), ``nostamp`` ("Speaker: text") and ``bare`` (the words only).

    python bench/recall_embtext.py --reuse /tmp/locomo-stores --work /tmp/embtext
"""

from __future__ import annotations

import sys
from pathlib import Path

# the repository first: bench/keyword_index.py must not shadow the engine's keyword_index
# (this script's own directory is already on the path, after it)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402
import recall_ablation as ra  # noqa: E402

import memory_core as mc  # noqa: E402
from memengine.context import refresh_context  # noqa: E402
from memengine.vectors import vec_blob  # noqa: E402

VARIANTS = ("full", "nostamp", "bare")


def text_for(variant: str, content: str, author: str | None) -> str:
    """The text a variant embeds for one turn."""
    if variant == "full":
        return content
    bare = mc.bare_text(content, author)
    return f"{author}: {bare}" if variant == "nostamp" and author else bare


def variant_store(src: Path, dst: Path, variant: str, real, embedder) -> mc.MemoryStore:
    """A copy of ``src`` whose own (and so context) vectors embed ``variant``'s text."""
    if dst.exists():
        return mc.MemoryStore(dst, embedder=embedder)
    conn = mc.connect(src)
    conn.execute("VACUUM INTO ?", (str(dst),))
    conn.close()
    s = mc.MemoryStore(dst, embedder=embedder)
    if variant == "full":
        return s
    rows = s.conn.execute("SELECT id, content, author, thread, position FROM memories ORDER BY id").fetchall()
    vecs = real.embed([text_for(variant, r[1], r[2]) for r in rows])
    contexts = s.conn.execute("SELECT count(*) FROM vec_contexts").fetchone()[0]
    touched: dict[str, list[int]] = {}
    with mc.write_tx(s.conn):
        for r, v in zip(rows, vecs):
            s.conn.execute("DELETE FROM vec_memories WHERE memory_id = ?", (r[0],))
            s.conn.execute(f"INSERT INTO vec_memories(memory_id, embedding) VALUES (?, {mc.VEC_PARAM})",
                           (r[0], vec_blob(v)))
            if r[3] is not None and r[4] is not None:
                touched.setdefault(r[3], []).append(r[4])
        refresh_context(s, touched)
    assert s.conn.execute("SELECT count(*) FROM vec_contexts").fetchone()[0] == contexts
    return s


def main() -> None:
    ap = ra.dev_parser(__doc__)
    ap.add_argument("--work", type=Path, default=Path("/tmp/embtext"), help="where the variant copies go")
    args = ap.parse_args()
    convs = ra.dev_conversations(args)
    base = common.build_stores(convs, args.reuse, reuse=True)
    real = next(iter(base.values())).embedder
    shared = ra.QueryCache(real)
    paths = {sid: s.path for sid, s in base.items()}
    for s in base.values():
        s.close()
    questions = [q for c in convs for q in c.questions]
    rows = []
    for variant in VARIANTS:
        d = args.work / variant
        d.mkdir(parents=True, exist_ok=True)
        stores = {sid: variant_store(p, d / p.name, variant, real, shared) for sid, p in paths.items()}
        hyb = common.evaluate(stores, questions, ra.fn_for(mc.RecallConfig(), "hybrid"))
        vec = common.evaluate(stores, questions, ra.fn_for(mc.RecallConfig(), "vector"))
        o, v = hyb["overall"], vec["overall"]
        rows.append([variant, o["recall@5"], o["recall@10"], o["mrr"], o["all@10"], hyb["by_category"][1]["all@10"],
                     v["recall@5"], v["recall@10"]])
        common.log(f"  {variant}: hybrid r@10 {o['recall@10']:.3f}")
        for s in stores.values():
            s.close()
    print("## own-vector text (LoCoMo dev, 760 questions, categories 1-4)\n")
    print(common.md_table(["variant", "hybrid r@5", "r@10", "MRR", "all@10", "multi-hop all@10", "vector r@5",
                           "vector r@10"], rows))


if __name__ == "__main__":
    main()
