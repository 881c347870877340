"""The second-chance update detector (memengine/fact_cue.py): precision / recall before and after.

For every labelled pair set — bench/data/fact_cue_dev.jsonl (tuned on), bench/data/fact_cue_heldout.jsonl
(the third split off before any rule was written, scored once at the end), and every existing set
(tests/data/fact_pairs_heldout.jsonl, contradiction_pairs.jsonl, fact_pairs_dev2..5.jsonl, the
fact_updates.jsonl stream as old/new pairs) — it embeds both sentences with the real int8 MiniLM
and scores what a write decides, pair by pair:

    before  facts.compare(old, new)                           (the frame rules alone)
    after   facts.compare(old, new) or fact_cue.detect(old, new, cosine)

then the same pairs of the cue sets stored one after the other in a fresh store (write time: the
kNN and word candidates, supersession.plan with its hook), then the per-pair cost of
``fact_cue.detect`` (process CPU time). ``--show`` prints each pair the detector changes and every
miss of the cue dev set (never of the held-out sets: score those once, without looking).

    .venv/bin/python bench/fact_cue.py [--show] [--heldout]     # ~1 min
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from embedder import OnnxEmbedder  # noqa: E402
from memengine import fact_cue, facts  # noqa: E402

SETS = (
    ("cue dev", ROOT / "bench" / "data" / "fact_cue_dev.jsonl"),
    ("cue held-out", ROOT / "bench" / "data" / "fact_cue_heldout.jsonl"),
    ("cue held-out 2", ROOT / "bench" / "data" / "fact_cue_heldout2.jsonl"),
    ("held-out", ROOT / "tests" / "data" / "fact_pairs_heldout.jsonl"),
    ("dev", ROOT / "tests" / "data" / "contradiction_pairs.jsonl"),
    ("dev2", ROOT / "tests" / "data" / "fact_pairs_dev2.jsonl"),
    ("dev3", ROOT / "tests" / "data" / "fact_pairs_dev3.jsonl"),
    ("dev4", ROOT / "tests" / "data" / "fact_pairs_dev4.jsonl"),
    ("dev5", ROOT / "tests" / "data" / "fact_pairs_dev5.jsonl"),
    ("stream", ROOT / "tests" / "data" / "fact_updates.jsonl"),
)


def load(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if rows and "old" in rows[0]:  # the stream: updates and paraphrases
        rows = [{"a": r["old"], "b": r["new"], "label": r["kind"] == "update"} for r in rows]
    return rows


def score(flags: list[bool], rows: list[dict[str, Any]]) -> str:
    tp = sum(f and r["label"] for f, r in zip(flags, rows))
    fp = sum(f and not r["label"] for f, r in zip(flags, rows))
    fn = sum((not f) and r["label"] for f, r in zip(flags, rows))
    return f"{tp / max(1, tp + fp):.3f} / {tp / max(1, tp + fn):.3f} ({tp} {fp} {fn})"


def main() -> None:
    show = "--show" in sys.argv
    emb = OnnxEmbedder(cache_dir=Path.home() / ".cache" / "mem")
    print(f"load average {os.getloadavg()[0]:.1f}; MIN_COSINE {fact_cue.MIN_COSINE}\n")
    print("| set (pairs) | before: compare P / R (tp fp fn) | after: compare or cue P / R (tp fp fn) | cue added |")
    print("|---|---|---|---|")
    cost_pairs: list[tuple[str, str, float]] = []
    for name, path in SETS:
        if name.startswith("cue held-out") and "--heldout" not in sys.argv:
            continue  # scored once, at the end: --heldout
        rows = load(path)
        va, vb = emb.embed([r["a"] for r in rows]), emb.embed([r["b"] for r in rows])
        before, after, notes = [], [], []
        for i, r in enumerate(rows):
            cos = float(va[i] @ vb[i])
            cost_pairs.append((r["a"], r["b"], cos))
            v = facts.compare(r["a"], r["b"], similarity=cos)
            cue = fact_cue.detect(r["a"], r["b"], cos) if v is None else None
            before.append(v is not None)
            after.append(v is not None or cue is not None)
            if cue is not None:
                notes.append(f"  {'ok ' if r['label'] else 'FP '} {cos:.2f} {r['a']} || {r['b']} -> {cue.reason}")
            elif v is None and r["label"] and name == "cue dev":
                notes.append(f"  miss {cos:.2f} {r['a']} || {r['b']}")
        added = sum(a and not b for a, b in zip(after, before))
        print(f"| {name} ({len(rows)}) | {score(before, rows)} | {score(after, rows)} | {added} |")
        if show and "held-out" not in name:
            print("\n".join(notes))
    write_time(emb)
    t0 = time.process_time()
    for a, b, cos in cost_pairs:
        fact_cue.detect(a, b, cos)
    per = (time.process_time() - t0) / len(cost_pairs) * 1000
    print(f"\nfact_cue.detect: {per:.3f} ms CPU per pair over {len(cost_pairs)} pairs "
          f"(load average {os.getloadavg()[0]:.1f})")


def write_time(emb: OnnxEmbedder) -> None:
    """Each pair of the cue sets stored one after the other in a fresh store: does ``b`` supersede ``a``?"""
    from memory_core import MemoryStore

    tmp = Path(tempfile.mkdtemp(prefix="bench-fact-cue-"))
    print("\n| write time (real model) | precision / recall (tp fp fn) |\n|---|---|")
    for name, path in SETS[:3]:
        if "held-out" in name and "--heldout" not in sys.argv:
            continue
        rows = load(path)
        flags = []
        for i, r in enumerate(rows):
            s = MemoryStore(tmp / f"{i}.db", embedder=emb)
            a = s.store(r["a"]).id
            res = s.store(r["b"])
            flags.append(a in res.supersedes or res.superseded_by == a)
            s.close()
        print(f"| {name} ({len(rows)}) | {score(flags, rows)} |")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
