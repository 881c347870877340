"""Every labelled fact pair, each stored alone into a fresh store (facts22): the pair-by-pair run of rounds 19-22.

    .venv/bin/python bench/fact_pairwise.py --out /tmp/NAME/pairs.jsonl            # ~5 min under load
    .venv/bin/python bench/fact_pairwise.py --diff /tmp/NAME/before.jsonl /tmp/NAME/after.jsonl

Each pair ``a`` / ``b`` (label true: an update; false: a look-alike) of ``tests/data/fact_*.jsonl`` (not the
crowded one-store sets), ``tests/data/contradiction_pairs.jsonl`` and ``bench/data/fact_*.jsonl`` is stored, older
first, into a new SQLite store with the real int8 MiniLM: counted are updates superseded / flagged ``may_update``
and look-alikes superseded / flagged. ``--out`` writes one line per pair (file, line, outcome) so two trees can
be compared pair by pair with ``--diff``, which prints every pair whose outcome changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def labelled() -> list[dict[str, Any]]:
    """The labelled pairs of every pair file, with their file and line."""
    names = sorted(p for p in (ROOT / "tests" / "data").glob("fact_*.jsonl") if "crowded" not in p.name)
    names += [ROOT / "tests" / "data" / "contradiction_pairs.jsonl"] + sorted((ROOT / "bench" / "data").glob("fact_*.jsonl"))
    out: list[dict[str, Any]] = []
    for path in names:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            r = json.loads(line)
            if isinstance(r.get("a"), str) and isinstance(r.get("b"), str) and isinstance(r.get("label"), bool):
                out.append({"file": path.name, "line": n, "a": r["a"], "b": r["b"], "label": r["label"]})
    return out


def run(out_path: Path | None) -> None:
    """Store every pair alone; print the counts; write the outcomes to ``out_path``."""
    from embedder import OnnxEmbedder
    from memory_core import MemoryStore

    emb = OnnxEmbedder()
    rows = labelled()
    counts = {"update": [0, 0, 0], "look-alike": [0, 0, 0]}
    with tempfile.TemporaryDirectory() as tmp:
        for i, r in enumerate(rows):
            s = MemoryStore(Path(tmp) / f"p{i}.db", embedder=emb)
            try:
                first = s.store(r["a"]).id
                res = s.store(r["b"])
                r["superseded"] = first in res.supersedes
                r["flagged"] = first in (res.may_update or [])
            finally:
                s.close()
                for p in Path(tmp).glob(f"p{i}.db*"):
                    p.unlink()
            c = counts["update" if r["label"] else "look-alike"]
            c[0] += 1
            c[1] += r["superseded"]
            c[2] += r["flagged"]
    print("| pairs, each alone | superseded | flagged may_update |")
    print("|---|---|---|")
    for k, (n, sup, fl) in counts.items():
        print(f"| {k}s ({n}) | {sup}/{n} | {fl}/{n} |")
    if out_path is not None:
        out_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def diff(before: Path, after: Path) -> None:
    """Print every pair whose outcome differs between two ``--out`` files."""
    def load(p: Path) -> dict[tuple[str, int], dict[str, Any]]:
        return {(r["file"], r["line"]): r for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())}
    a, b = load(before), load(after)
    changed = 0
    for key in sorted(set(a) & set(b)):
        x, y = a[key], b[key]
        if (x["superseded"], x["flagged"]) != (y["superseded"], y["flagged"]):
            changed += 1
            print(f"{key[0]}:{key[1]} label={x['label']} superseded {x['superseded']}->{y['superseded']} "
                  f"flagged {x['flagged']}->{y['flagged']}: {x['a']!r} / {x['b']!r}")
    print(f"{changed} of {len(set(a) & set(b))} pairs changed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, help="write each pair's outcome here (JSON lines)")
    ap.add_argument("--diff", type=Path, nargs=2, metavar=("BEFORE", "AFTER"), help="compare two --out files")
    args = ap.parse_args()
    if args.diff:
        diff(*args.diff)
    else:
        run(args.out)


if __name__ == "__main__":
    main()
