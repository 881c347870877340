"""Where the int8 model's CPU goes per token, and what batching, threads and graph forms change.

    python bench/int8_kernels.py              # ~3 min on 2 cores
    python bench/int8_kernels.py --quick      # fewer rounds

One process derives the model forms into a temp dir and measures them alternately (so a
drift in the host's speed hits all alike), in CPU time of the calling thread (onnxruntime
runs a one-thread session in it), ms per token, median of the rounds:

* **forms** at 12 / 89 / 256 tokens, one text per call, one thread: the engine's recipe
  before 26 Nov 2026 (v1, unfused), this tree's (v2: attention and GELU fused,
  ``memengine/onnx_fusion.py``), v2 without onnxruntime's SkipLayerNormalization fusion, and
  v2 with int8 7-bit weights (the VPMADDUBSW kernel without saturation on AVX2); with each
  form's cosine to v1 over chat-like texts (mean / min): float noise, or moved vectors?
* **batching** of the engine's form at 89 tokens: batch 1 / 4 / 8 / 16 / 32 on intra-op
  threads 1 and 2 (CPU ms per token), and how far a text's vector moves when it is batched
  with others (activations are quantized with one scale per call).
* **two workers**: wall tokens/s of 2 threads each making one-text calls (the engine's bulk
  path) against one thread — meaningful only on a quiet machine (load is printed).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import md_table  # noqa: E402
from bench.latency import synthetic_texts  # noqa: E402


def derive(tmp: Path, name: str, fuse: bool, reduce_range: bool = False, signed: bool | None = None) -> Path:
    """A form of the pinned model, derived as ``embedder.int8_model`` does (optionally varied)."""
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    import embedder

    folded = tmp / f"{name}-folded.onnx"
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    opts.optimized_model_filepath = str(folded)
    opts.log_severity_level = 3
    ort.InferenceSession(str(embedder.default_model_path()), sess_options=opts, providers=["CPUExecutionProvider"])
    src = embedder._fused(folded) if fuse else folded
    if signed is None:
        signed = embedder.int8_recipe() == embedder.INT8_RECIPE
    out = tmp / f"{name}.onnx"
    logging.disable(logging.WARNING)
    quantize_dynamic(str(src), str(out), weight_type=QuantType.QInt8 if signed else QuantType.QUInt8,
                     per_channel=True, reduce_range=reduce_range)
    logging.disable(logging.NOTSET)
    return out


def session(path: Path, threads: int = 1, disabled: list[str] | None = None) -> Any:
    """A session set up as the engine's (no spinning), optionally without some graph optimisers."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    kw = {"disabled_optimizers": disabled} if disabled else {}
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"], **kw)


def feeds(ids: np.ndarray, mask: np.ndarray | None = None) -> dict[str, np.ndarray]:
    return {"input_ids": ids, "attention_mask": np.ones_like(ids) if mask is None else mask,
            "token_type_ids": np.zeros_like(ids)}


def cpu_ms_per_token(sess: Any, batch: int, length: int, budget: int = 1500) -> float:
    """CPU ms per token of repeated calls (the calling thread's CPU: intra-op 1 runs in it)."""
    ids = np.random.RandomState(length).randint(1000, 20000, size=(batch, length)).astype(np.int64)
    f = feeds(ids)
    sess.run(None, f)
    reps = max(2, budget // (batch * length))
    c0, p0 = time.thread_time(), time.process_time()
    for _ in range(reps):
        sess.run(None, f)
    # with intra-op threads > 1 the workers' CPU is only in the process total
    spent = time.thread_time() - c0 if sess.get_session_options().intra_op_num_threads == 1 else time.process_time() - p0
    return spent / reps / (batch * length) * 1000


def vectors(sess: Any, token_ids: list[list[int]]) -> np.ndarray:
    """Mean-pooled, normalised vectors, one text per call."""
    out = []
    for ids in token_ids:
        h = sess.run(None, feeds(np.array([ids], dtype=np.int64)))[0][0].mean(axis=0)
        out.append(h / np.linalg.norm(h))
    return np.stack(out)


def rounds_median(n: int, fns: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Run every fn once per round, alternating; the median per fn."""
    got: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(n):
        for k, fn in fns.items():
            got[k].append(fn())
    return {k: statistics.median(v) for k, v in got.items()}


def two_workers(sess: Any, length: int, calls: int) -> tuple[float, float]:
    """Wall tokens/s of one thread, then of two threads, making one-text calls."""
    ids = np.random.RandomState(1).randint(1000, 20000, size=(1, length)).astype(np.int64)
    f = feeds(ids)

    def work(k: int) -> None:
        for _ in range(k):
            sess.run(None, f)

    t0 = time.perf_counter()
    work(calls)
    one = calls * length / (time.perf_counter() - t0)
    threads = [threading.Thread(target=work, args=(calls,)) for _ in range(2)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return one, 2 * calls * length / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="3 rounds instead of 7")
    args = ap.parse_args(argv)
    rounds = 3 if args.quick else 7
    from tokenizers import Tokenizer

    import embedder

    load0 = os.getloadavg()[0]
    tok = Tokenizer.from_file(str(embedder.MODELS_DIR / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_length=embedder.MAX_TOKENS)
    token_ids = [e.ids for e in tok.encode_batch(synthetic_texts(150, 3))]
    with tempfile.TemporaryDirectory(prefix="int8-kernels-") as tmp_name:
        tmp = Path(tmp_name)
        v1, v2 = derive(tmp, "v1", fuse=False), derive(tmp, "v2", fuse=True)
        s7 = derive(tmp, "v2-s7", fuse=True, reduce_range=True, signed=True)
        forms = {"v1 (unfused, before)": session(v1), "v2 (fused, this tree)": session(v2),
                 "v2 without SkipLayerNorm fusion": session(v2, disabled=["SkipLayerNormFusion"]),
                 "v2, int8 7-bit weights": session(s7)}
        ref = vectors(forms["v1 (unfused, before)"], token_ids)
        rows = []
        per_len = {n: rounds_median(rounds, {k: (lambda s=s, n=n: cpu_ms_per_token(s, 1, n)) for k, s in forms.items()})
                   for n in (12, 89, 256)}
        for k, s in forms.items():
            cos = (vectors(s, token_ids) * ref).sum(axis=1)
            rows.append([k, *(f"{per_len[n][k]:.4f}" for n in (12, 89, 256)),
                         f"{per_len[89][k] / per_len[89]['v1 (unfused, before)'] - 1:+.1%}",
                         f"{cos.mean():.6f} / {cos.min():.6f}"])
        print(f"# int8 kernels — {os.cpu_count()} CPUs, load average {load0:.1f} at the start\n")
        print(f"Forms, one text per call, one thread: CPU ms per token (median of {rounds} rounds); cosine to v1 "
              f"over {len(token_ids)} chat-like texts.\n")
        print(md_table(["form", "12 tok", "89 tok", "256 tok", "89 tok vs v1", "cos to v1 mean / min"], rows))
        engine = v2
        batch_rows = []
        sessions = {t: session(engine, threads=t) for t in (1, 2)}
        for b in (1, 4, 8, 16, 32):
            got = rounds_median(max(2, rounds // 2), {t: (lambda s=s, b=b: cpu_ms_per_token(s, b, 89))
                                                      for t, s in sessions.items()})
            batch_rows.append([str(b), f"{got[1]:.4f}", f"{got[2]:.4f}"])
        print("\nBatching (v2, 89 tokens, equal lengths so no padding): CPU ms per token\n")
        print(md_table(["batch", "intra-op 1 thread", "intra-op 2 threads"], batch_rows))
        s1 = sessions[1]
        alone = vectors(s1, token_ids[:16])
        width = max(len(i) for i in token_ids[:16])
        ids = np.zeros((16, width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for r, i in enumerate(token_ids[:16]):
            ids[r, : len(i)], mask[r, : len(i)] = i, 1
        hidden = s1.run(None, feeds(ids, mask))[0]
        pooled = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
        cos = (pooled * alone).sum(axis=1)
        print(f"\nA batch of 16 texts (padded, masked) against each alone: cosine mean {cos.mean():.4f}, "
              f"min {cos.min():.4f} (one activation scale per call: a text's vector would depend on its neighbours)")
        one, two = two_workers(s1, 89, 40 if args.quick else 120)
        print(f"\nTwo threads making one-text calls (89 tokens): {one:.0f} tokens/s on one thread, {two:.0f} on two "
              f"(x{two / one:.2f}); load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
