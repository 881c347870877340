"""Bulk embedding throughput of the real model (texts/s): the int8 form against the published file.

    python bench/embed_speed.py                      # 2000 texts
    python bench/embed_speed.py --n 500
    python bench/embed_speed.py --threads 1,2        # worker threads of the int8 form

The engine runs a derived int8 form of the model (``embedder.int8_model``): one text per
call, calls spread over worker threads, so a text's vector never depends on what it was
batched with. The published file (``MEM_INT8=0``, the engine's path before 22 Nov 2026)
pads length-sorted batches of 16 and runs float MatMuls. Reported: texts/s for both, the
cosine between their vectors (same space?), and whether the int8 vectors are identical
across thread counts and to one-at-a-time calls. Bar: ≥ 150 texts/s on 2 cores. The load
average is printed at start and end: the machine is shared, rerun above 1.5.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000, help="texts (default: %(default)s)")
    ap.add_argument("--threads", default="", help="worker threads of the int8 form, comma-separated list "
                    "(default: the engine's choice)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)

    os.environ.pop("MEM_EMBEDDER", None)
    from embedder import DEFAULT_BATCH, OnnxEmbedder

    load_start = os.getloadavg()
    texts = text_mix(args.n)
    rows, res = [], []
    vectors: dict[str, np.ndarray] = {}
    runs = [("int8", int(t)) for t in args.threads.split(",") if t] or [("int8", None)]
    for form, threads in [*runs, ("published", None)]:
        os.environ["MEM_INT8"] = "0" if form == "published" else "1"
        emb = OnnxEmbedder(threads=threads)
        t0 = time.perf_counter()
        emb.embed(["warm up"])
        load_s = time.perf_counter() - t0
        n_threads = threads or min(os.cpu_count() or 1, 4)
        if not rows:
            raw_tokens = [emb.count_tokens(t) + 2 for t in texts]  # + [CLS] and [SEP]
            tokens = [min(t, 256) for t in raw_tokens]
            log(f"{len(texts)} texts, tokens/text mean {np.mean(tokens):.0f}, median {np.median(tokens):.0f}, "
                f"max {max(raw_tokens)} (truncated at 256)")
        emb.embed(texts[:64])  # warm the kernels at realistic shapes
        t0 = time.perf_counter()
        vecs = emb.embed(texts, batch_size=DEFAULT_BATCH)
        took = time.perf_counter() - t0
        rate = len(texts) / took
        how = f"{n_threads} threads, one text per call" if form == "int8" else f"{n_threads} intra-op threads, " \
            f"length-sorted batches of {DEFAULT_BATCH}"
        label = f"{form} ({how})"
        vectors.setdefault(form, vecs)
        if form == "int8":
            assert np.array_equal(vecs, vectors["int8"]), "int8 vectors differ between thread counts"
        res.append({"form": form, "threads": n_threads, "seconds": round(took, 2), "texts_per_s": round(rate, 1),
                    "load_s": round(load_s, 3)})
        rows.append([label, f"{load_s:.2f}", f"{took:.1f}", f"{rate:.0f}", f"≥ {BAR_TEXTS_PER_S:.0f}",
                     ("PASS" if rate >= BAR_TEXTS_PER_S else "FAIL") if form == "int8" else "info"])
        log(f"  {label}: {rate:.0f} texts/s")
        del emb
    os.environ.pop("MEM_INT8", None)
    alone = OnnxEmbedder().embed  # the int8 form, one call per text: must equal the bulk vectors
    sample = list(range(0, len(texts), max(1, len(texts) // 50)))
    same_alone = all(np.array_equal(alone([texts[i]])[0], vectors["int8"][i]) for i in sample)
    cos = (vectors["int8"] * vectors["published"]).sum(axis=1)
    load_end = os.getloadavg()
    print(f"# embedding throughput: {len(texts)} texts (mean {np.mean(tokens):.0f} tokens), {os.cpu_count()} CPUs; "
          f"load average at start {load_start[0]:.2f}, at end {load_end[0]:.2f}\n")
    if max(load_start[0], load_end[0]) > 1.5:
        print("**warning: load average above 1.5: the machine was busy, rerun before comparing**\n")
    print(md_table(["form", "first call (load) s", "seconds", "texts/s", "bar", "result"], rows))
    print(f"\nint8 vs published vectors: cosine mean {cos.mean():.4f}, 1st percentile {np.percentile(cos, 1):.4f}, "
          f"min {cos.min():.4f}; int8 vectors identical across thread counts: yes; "
          f"identical to one-at-a-time calls ({len(sample)} sampled): {'yes' if same_alone else 'NO'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"n": len(texts), "mean_tokens": float(np.mean(tokens)),
                                               "loadavg_start": load_start, "loadavg_end": load_end,
                                               "cosine_mean": float(cos.mean()), "cosine_min": float(cos.min()),
                                               "identical_alone": same_alone, "results": res}, indent=2),
                                    encoding="utf-8")
    return 0 if same_alone else 1


if __name__ == "__main__":
    raise SystemExit(main())
