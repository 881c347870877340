"""Issue 19, round 33: build ``models/word_neighbours.npz``, the word table memengine/recall/bridge.py reads.

Each whole English word of the MiniLM WordPiece vocabulary (letters only, three or more, no stop word) and its
nearest other words by the model's own input word vectors (the ``word_embeddings`` matrix of the pinned ONNX
export: static, one row per token; centred, then cosine). Neighbours of the same family ("colours" of "colour",
"defended" of "defence") are left out: the keyword index's stemmer folds most of them already, and the table is
for words said otherwise ("loo" -> "toilet", "thesis" -> "dissertation", "truck" -> "pickup").

Deterministic: the same model file gives the same table (ties broken by token id). ~30 s of CPU, once. Stored
uncompressed (831 KB): a cold call reads it in half the CPU of the compressed file (535 KB; 10 vs 20 ms at load 13).

    python bench/recall33_vocab.py                 # writes models/word_neighbours.npz
    python bench/recall33_vocab.py --show toilet,thesis,permit
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

OUT = HERE / "models" / "word_neighbours.npz"
KEEP = 8  # neighbours kept per word (after the same-family ones are left out)
SCAN = 40  # nearest rows read per word before that filter
MIN_SIM = 0.3  # neighbours below this cosine are not kept (the recall's own floor is higher)
_WORD = re.compile(r"[a-z]{3,}")


def same_family(a: str, b: str) -> bool:
    """Whether two words are one family by their spelling: a shared head of at least four letters reaching to
    within three letters of the shorter's end ("colour"/"colours", "defence"/"defending", "adopt"/"adoption")."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= 4 and n >= min(len(a), len(b)) - 3


def word_matrix() -> tuple[list[str], np.ndarray]:
    """The vocabulary's whole words and their centred, unit-length input vectors."""
    import onnx
    from onnx import numpy_helper

    from embedder import default_model_path, load_manifest
    from memengine.text import STOPWORDS

    model = onnx.load(str(default_model_path()))
    weights = None
    for init in model.graph.initializer:
        if init.name.endswith("word_embeddings.weight_q") or init.name.endswith("word_embeddings.weight"):
            weights = numpy_helper.to_array(init).astype(np.float32)
    if weights is None:
        raise SystemExit("no word_embeddings matrix in the model file")
    vocab = json.loads((HERE / "models" / load_manifest().tokenizer).read_text(encoding="utf-8"))["model"]["vocab"]
    weights -= weights.mean(axis=0)  # (the rows share a large common direction: centred, cosine reads meaning)
    words = sorted((w for w in vocab if _WORD.fullmatch(w) and w not in STOPWORDS), key=vocab.__getitem__)
    mat = weights[[vocab[w] for w in words]]
    mat /= np.linalg.norm(mat, axis=1, keepdims=True) + 1e-9
    return words, mat


def build() -> tuple[list[str], np.ndarray, np.ndarray]:
    """(words, neighbour indices [n, KEEP] with -1 for none, cosines [n, KEEP])."""
    words, mat = word_matrix()
    n = len(words)
    nbr = np.full((n, KEEP), -1, dtype=np.int32)
    sim = np.zeros((n, KEEP), dtype=np.float32)
    for lo in range(0, n, 2048):
        block = mat[lo:lo + 2048] @ mat.T
        for i, row in enumerate(block):
            me = lo + i
            row[me] = -2.0
            top = np.argpartition(-row, SCAN)[:SCAN]
            top = top[np.lexsort((top, -row[top]))]  # best first, ties by index: deterministic
            kept = [j for j in top if row[j] >= MIN_SIM and not same_family(words[me], words[j])][:KEEP]
            nbr[me, :len(kept)] = kept
            sim[me, :len(kept)] = row[kept]
    return words, nbr, sim


def main(argv: list[str] | None = None) -> int:
    """Write the table (or show some words' neighbours)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show", default="", help="comma-separated words: print their neighbours from the built table")
    args = ap.parse_args(argv)
    if args.show:
        from memengine.recall.bridge import neighbours

        for w in args.show.split(","):
            print(w, [(x, round(s, 2)) for x, s in neighbours(w)])
        return 0
    words, nbr, sim = build()
    blob = np.frombuffer("\n".join(words).encode("ascii"), dtype=np.uint8)
    np.savez(OUT, words=blob, nbr=nbr.astype(np.int16), sim=np.round(sim * 1000).astype(np.int16))
    print(f"{len(words)} words, {int((nbr >= 0).sum())} neighbours -> {OUT} ({OUT.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
