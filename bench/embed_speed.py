"""Bulk embedding throughput of the real model (texts/s), batch size × length sorting.

    python bench/embed_speed.py                      # 2000 texts, batches 16/32/64
    python bench/embed_speed.py --n 500 --batches 32
    python bench/embed_speed.py --threads 1,2        # compare intra-op thread counts

"sorted" is the engine's own ``OnnxEmbedder.embed`` (it sorts by length before
padding); "unsorted" is the same loop in input order, kept here only to show what the
sorting buys. Both produce the same vectors (checked). Bar: ≥ 150 texts/s on 2 cores.
The load average is printed at start and end: the machine is shared, rerun above 1.5.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import log, md_table  # noqa: E402
from bench.latency import synthetic_texts  # noqa: E402

BAR_TEXTS_PER_S = 150.0
SHORT = ["ok", "thanks!", "see you tomorrow", "lol yes", "Sounds good to me.", "Where?", "haha true",
         "Can you send the link?", "Happy birthday Mei!!", "on my way"]


def text_mix(n: int, seed: int = 5) -> list[str]:
    """A chat-like mix: ~30 % one-liners, the rest 1-8 sentence notes (some near the 256-token cap)."""
    rng = random.Random(seed)
    longer = synthetic_texts(n, seed)
    return [rng.choice(SHORT) if rng.random() < 0.3 else longer[i] for i in range(n)]


def embed_unsorted(emb: Any, texts: list[str], batch_size: int) -> np.ndarray:
    """The engine's batch loop without length sorting (padding to each batch's longest)."""
    emb._load()
    tok, sess, names = emb._tokenizer, emb._session, emb._input_names
    out = np.zeros((len(texts), emb.dims), dtype=np.float32)
    for start in range(0, len(texts), batch_size):
        chunk = texts[start : start + batch_size]
        encs = tok.encode_batch([t or " " for t in chunk])
        ids = np.array([e.ids for e in encs], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = sess.run(None, {k: v for k, v in feeds.items() if k in names})[0]
        m = mask[..., None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        out[start : start + len(chunk)] = pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000, help="texts (default: %(default)s)")
    ap.add_argument("--batches", default="16,32,64", help="batch sizes (default: %(default)s)")
    ap.add_argument("--threads", default="", help="onnxruntime intra-op threads, comma-separated list "
                    "(default: the engine's choice)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    os.environ.pop("MEM_EMBEDDER", None)
    from embedder import OnnxEmbedder

    load_start = os.getloadavg()
    texts = text_mix(args.n)
    rows, res = [], []
    ref = None
    thread_list = [int(t) for t in args.threads.split(",") if t] or [None]
    for threads in thread_list:
        emb = OnnxEmbedder(threads=threads)
        t0 = time.perf_counter()
        emb.embed(["warm up"])
        load_s = time.perf_counter() - t0
        n_threads = emb._threads or min(os.cpu_count() or 1, 4)
        raw_tokens = [emb.count_tokens(t) + 2 for t in texts]  # + [CLS] and [SEP]
        tokens = [min(t, 256) for t in raw_tokens]
        log(f"{len(texts)} texts, tokens/text mean {np.mean(tokens):.0f}, median {np.median(tokens):.0f}, "
            f"max {max(raw_tokens)} (truncated at 256); model loaded in {load_s:.2f} s, {n_threads} threads")
        emb.embed(texts[:64])  # warm the kernels at realistic shapes
        for bs in [int(b) for b in args.batches.split(",")]:
            for mode in ("unsorted", "sorted"):
                t0 = time.perf_counter()
                vecs = emb.embed(texts, batch_size=bs) if mode == "sorted" else embed_unsorted(emb, texts, bs)
                took = time.perf_counter() - t0
                if ref is None:
                    ref = vecs
                max_diff = float(np.abs(vecs - ref).max())
                rate = len(texts) / took
                res.append({"threads": n_threads, "batch": bs, "mode": mode, "seconds": round(took, 2),
                            "texts_per_s": round(rate, 1), "max_abs_diff_vs_first": max_diff})
                rows.append([n_threads, bs, mode, f"{took:.1f}", f"{rate:.0f}", f"≥ {BAR_TEXTS_PER_S:.0f}",
                             "PASS" if rate >= BAR_TEXTS_PER_S else "FAIL"])
                log(f"  {n_threads} threads, batch {bs} {mode}: {rate:.0f} texts/s")
        del emb
    load_end = os.getloadavg()
    print(f"# embedding throughput: {len(texts)} texts (mean {np.mean(tokens):.0f} tokens), {os.cpu_count()} CPUs; "
          f"load average at start {load_start[0]:.2f}, at end {load_end[0]:.2f}\n")
    if max(load_start[0], load_end[0]) > 1.5:
        print("**warning: load average above 1.5: the machine was busy, rerun before comparing**\n")
    print(md_table(["threads", "batch", "order", "seconds", "texts/s", "bar", "result"], rows))
    by = {(r["threads"], r["batch"], r["mode"]): r["texts_per_s"] for r in res}
    gains = [by[(t, b, "sorted")] / by[(t, b, "unsorted")] for t, b, _ in by]
    print(f"\nlength sorting speed-up: ×{min(gains):.2f}–×{max(gains):.2f}; "
          f"max |Δ| between runs {max(r['max_abs_diff_vs_first'] for r in res):.1e} (same vectors)")
    if args.json:
        Path(args.json).write_text(json.dumps({"n": len(texts), "mean_tokens": float(np.mean(tokens)),
                                               "loadavg_start": load_start, "loadavg_end": load_end,
                                               "results": res}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
