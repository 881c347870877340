"""Issue 19, round 20: late interaction over the model's static token embeddings, judged by leave-one-out.

A soft word match that costs nothing at query time beyond a lookup: every WordPiece of the vocabulary has an input
vector in the model (``inner.embeddings.word_embeddings``, int8 rows with a scale each, read once from the ONNX
initializer). For a question and a candidate, MaxSim: each content word-piece of the question takes its best cosine
among the candidate's word-pieces, averaged over the question's. The engine's top ``--depth`` (its own ranking, with
every shipped mechanism) is re-ranked by ``min-max(engine score) + w * min-max(MaxSim)``; ``w`` is chosen per held-out
fold on the other folds of both dev sets (bench/loo.py's protocol), then the held-out chats of rounds 12-20 are
scored at each ``w``.

    python bench/recall_late.py --reuse /tmp/r20dev                 # both dev sets, leave-one-out over w
    python bench/recall_late.py --reuse /tmp/r20dev --heldout DIR   # and the held-out sets (stores under DIR)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo  # noqa: E402
from bench.common import log, md_table  # noqa: E402
from bench.common import score_ranking as _score  # noqa: E402

WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.5)
HELDOUT = ("heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17", "heldout18", "heldout19")


def static_vectors() -> np.ndarray:
    """The model's input word-piece vectors, each row of unit length (the int8 rows' scales cancel out)."""
    import onnx
    from onnx import numpy_helper

    from embedder import default_model_path

    model = onnx.load(str(default_model_path()))
    q = next(numpy_helper.to_array(i) for i in model.graph.initializer if i.name.endswith("word_embeddings.weight_q"))
    w = q.astype(np.float32)
    return w / np.maximum(np.linalg.norm(w, axis=1, keepdims=True), 1e-6)


class Late:
    """MaxSim of a question's content word-pieces against a text's word-pieces."""

    def __init__(self) -> None:
        from embedder import get_embedder
        from memengine.text import STOPWORDS

        self.vec = static_vectors()
        self.tok = get_embedder().load_tokenizer()
        self.stop = STOPWORDS
        self.special = {0, 100, 101, 102, 103}  # [PAD] [UNK] [CLS] [SEP] [MASK]

    def pieces(self, text: str, content: bool) -> list[int]:
        enc = self.tok.encode(text)
        out = []
        for tid, tok in zip(enc.ids, enc.tokens):
            if tid in self.special or not any(ch.isalnum() for ch in tok):
                continue
            if content and tok.lower() in self.stop:
                continue
            out.append(tid)
        return out

    def scores(self, question: str, texts: list[str]) -> list[float]:
        qi = self.pieces(question, True)
        if not qi:
            return [0.0] * len(texts)
        qv = self.vec[qi]
        out = []
        for t in texts:
            di = self.pieces(t, False)
            out.append(float((qv @ self.vec[di].T).max(axis=1).mean()) if di else 0.0)
        return out


def _minmax(xs: list[float]) -> list[float]:
    lo, hi = min(xs), max(xs)
    return [(x - lo) / (hi - lo) if hi > lo else 0.0 for x in xs]


def variants(items: list[loo.Item], late: Late, depth: int, keep: int = 0) -> dict[str, dict[str, dict[str, float]]]:
    """``{"w": {item key: metrics}}`` for every weight, the engine's top ``depth`` re-ranked (its first ``keep`` stay)."""
    from memory_core import RecallConfig

    cfg = RecallConfig()
    out: dict[str, dict[str, dict[str, float]]] = {f"{w}{'*' if w == 0 else ''}": {} for w in WEIGHTS}
    for n, it in enumerate(items):
        run = loo.retrieve(it.store, it.question, cfg, k=depth)
        res = it.store._rank(replace(run, cfg=cfg), False)
        if not res:
            for lab in out:
                out[lab][it.key] = _score([], it.evidence)
            continue
        eng = _minmax([m.score for m in res])
        ms = _minmax(late.scores(it.question, [m.content for m in res]))
        for w in WEIGHTS:
            order = list(range(min(keep, len(res)))) + sorted(range(min(keep, len(res)), len(res)),
                                                               key=lambda i: -(eng[i] + w * ms[i]))
            out[f"{w}{'*' if w == 0 else ''}"][it.key] = _score([res[i].ref or "" for i in order[:10]], it.evidence)
        if n % 200 == 0:
            log(f"  {n}/{len(items)}")
    return out


def heldout_items(name: str, directory: Path) -> list[loo.Item]:
    from bench.realchat import build_chat_stores, load_questions
    from embedder import get_embedder

    data = HERE / "bench" / "data" / f"realchat_{name}"
    qs = load_questions(HERE / "bench" / "data" / f"realchat_{name}.jsonl")
    stores = build_chat_stores(qs, data, directory / name, loo.QueryCache(get_embedder()), reuse=True)
    return [loo.Item(name, q.fold, f"{name}:{q.id}", stores[q.file], q.question, q.evidence, q.category == "multi-hop")
            for q in qs]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="dev stores (as bench/loo.py)")
    ap.add_argument("--heldout", metavar="DIR", help="also the held-out sets of rounds 12-20, stores under DIR")
    ap.add_argument("--depth", type=int, default=30, help="how many of the engine's candidates are re-ranked")
    ap.add_argument("--keep", type=int, default=0, help="the engine's first KEEP stay where they are (ranks 6-10: 5)")
    args = ap.parse_args(argv)
    late = Late()
    items = loo.load_items(Path(loo.DEFAULT_LOCOMO), Path(loo.DEFAULT_DATA), Path(loo.DEFAULT_QUESTIONS),
                           Path(args.reuse))
    got = variants(items, late, args.depth, args.keep)
    if args.keep >= 5:  # (recall@5 cannot move: the folds choose by recall@10, as loo.py's verdict does at a tie)
        loo.OBJECTIVE = "recall@10"
    chosen = loo.loo_choose(items, got)
    ho = loo.held_out(items, chosen, got)
    rows = []
    for s in loo.SETS:
        its = loo.by_set(items, s)
        for lab, sc in [*got.items(), ("leave-one-out", ho)]:
            m = loo.set_metrics(its, sc)
            rows.append([s, lab, m["recall@5"], m["recall@10"], m["multi_all@10"], m["mrr"]])
    counts: dict[str, int] = {}
    for lab in chosen.values():
        counts[lab] = counts.get(lab, 0) + 1
    print(f"# Late interaction over static token vectors (top {args.depth} re-ranked, first {args.keep} kept); "
          f"folds chose {counts}\n")
    print(md_table(["set", "w", "recall@5", "recall@10", "multi all@10", "MRR"], rows))
    if args.heldout:
        rows = []
        for name in HELDOUT:
            its = heldout_items(name, Path(args.heldout))
            sc = variants(its, late, args.depth, args.keep)
            for lab, v in sc.items():
                m = loo.set_metrics(its, v)
                rows.append([name, lab, m["recall@5"], m["recall@10"], m["multi_all@10"], m["mrr"]])
        print("\n# The held-out chats\n")
        print(md_table(["set", "w", "recall@5", "recall@10", "multi all@10", "MRR"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
