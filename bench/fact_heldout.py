"""Facts that change, judged on a blind held-out set: what the memory GIVES BACK after an update.

Each pair of ``bench/data/fact_heldout10.jsonl`` (written before any code of its round, never tuned
on: 48 updates each with a natural question about the slot, 48 look-alikes sharing subject words, 8
paraphrases; EN/FR/ES/DE/PT/IT chat phrasing) is stored into a fresh store with the real int8 MiniLM,
old fact first, then asked:

- updates: superseded (the old one retired), flagged ``may_update`` (the middle band: both current,
  the older marked ``possibly_outdated``), swallowed as a duplicate (must stay 0), and **newest
  first**: default recall of the pair's question puts the newer memory above the older one (or the
  older one is gone: superseded);
- look-alikes and paraphrases: falsely superseded (must stay 0), falsely flagged, and, for the
  look-alikes, the older fact first on the question of its update pair (a false flag that demotes it);
  paraphrases merged as duplicates (allowed, reported).

    .venv/bin/python bench/fact_heldout.py                     # the held-out set (~1 min)
    .venv/bin/python bench/fact_heldout.py --file PATH --show  # any file of pairs, misses printed

Counts do not depend on load; the CPU of the second store (the one compared) is printed with the load.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from embedder import OnnxEmbedder  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

HELDOUT = ROOT / "bench" / "data" / "fact_heldout10.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    """The pairs of ``path``; a look-alike takes the question of the update sharing its old fact."""
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    asked = {r["a"]: r["q"] for r in rows if r.get("q")}
    for r in rows:
        r.setdefault("q", asked.get(r["a"]))
    return rows


def one(tmp: Path, n: int, r: dict[str, Any], emb: Any) -> dict[str, Any]:
    """Store the pair into a fresh store and read what it gives back."""
    s = MemoryStore(tmp / f"{n}.db", embedder=emb)
    try:
        a = s.store(r["a"]).id
        t0 = time.process_time()
        res = s.store(r["b"])
        cpu = time.process_time() - t0
        superseded = a in res.supersedes or res.superseded_by == a
        flagged = a in (getattr(res, "may_update", None) or [])
        first = None
        if r.get("q") and not res.deduplicated:
            got = s.recall(r["q"], k=10, touch=False).results
            ids = [m.id for m in got]
            if a not in ids:
                first = "new" if res.id in ids else "none"
            elif res.id not in ids:
                first = "old"
            else:
                first = "new" if ids.index(res.id) < ids.index(a) else "old"
        return {"superseded": superseded, "flagged": flagged, "dup": res.deduplicated, "first": first, "cpu": cpu}
    finally:
        s.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", type=Path, default=HELDOUT)
    ap.add_argument("--show", action="store_true", help="print each update missed and each look-alike flagged")
    args = ap.parse_args()
    rows = load(args.file)
    emb = OnnxEmbedder(cache_dir=Path.home() / ".cache" / "mem")
    with tempfile.TemporaryDirectory(prefix="bench-fact-heldout-") as d:  # (one store a pair, removed after)
        out = [one(Path(d), i, r, emb) for i, r in enumerate(rows)]
    ups = [(r, o) for r, o in zip(rows, out) if r["label"]]
    looks = [(r, o) for r, o in zip(rows, out) if not r["label"] and r.get("class") != "paraphrase"]
    paras = [(r, o) for r, o in zip(rows, out) if r.get("class") == "paraphrase"]
    asked = [(r, o) for r, o in ups if o["first"] is not None]

    def n(pairs: list[tuple[dict[str, Any], dict[str, Any]]], key: str, value: Any = True) -> int:
        return sum(o[key] == value for _, o in pairs)

    print(f"{args.file.name}: {len(ups)} updates, {len(looks)} look-alikes, {len(paras)} paraphrases "
          f"(load average {os.getloadavg()[0]:.1f})\n")
    print("| | count |\n|---|---|")
    print(f"| updates superseded | **{n(ups, 'superseded')}/{len(ups)}** |")
    print(f"| updates flagged may_update (not superseded) | {n(ups, 'flagged')}/{len(ups)} |")
    print(f"| updates swallowed as duplicates | {n(ups, 'dup')}/{len(ups)} |")
    print(f"| newest first on the slot's question | **{n(asked, 'first', 'new')}/{len(asked)}** |")
    print(f"| look-alikes superseded (false) | {n(looks, 'superseded')}/{len(looks)} |")
    print(f"| look-alikes flagged may_update (false flag) | {n(looks, 'flagged')}/{len(looks)} |")
    print(f"| paraphrases superseded (false) / flagged / merged | {n(paras, 'superseded')} / "
          f"{n(paras, 'flagged')} / {n(paras, 'dup')} of {len(paras)} |")
    langs = sorted({r["lang"] for r, _ in ups})
    print("\nper language (updates superseded + flagged / newest first / look-alikes false+flagged): " + ", ".join(
        f"{lg} {sum(o['superseded'] or o['flagged'] for r, o in ups if r['lang'] == lg)}"
        f"/{sum(o['first'] == 'new' for r, o in ups if r['lang'] == lg)}"
        f"/{sum(o['superseded'] or o['flagged'] for r, o in looks if r['lang'] == lg)}"
        f" of {sum(r['lang'] == lg for r, _ in ups)}" for lg in langs))
    print(f"CPU of the second store, mean: {sum(o['cpu'] for o in out) / len(out) * 1000:.1f} ms")
    if args.show:
        for r, o in ups:
            if not o["superseded"]:
                print(f"  missed{' (flagged)' if o['flagged'] else ''} first={o['first']}: {r['a']!r} / {r['b']!r}")
        for r, o in looks + paras:
            if o["superseded"] or o["flagged"]:
                print(f"  FALSE {'superseded' if o['superseded'] else 'flag'}: {r['a']!r} / {r['b']!r}")


if __name__ == "__main__":
    main()
