"""Parse cost of deeply nested notes: an Evernote note of N nested ``<div>``s and a Markdown list nested D deep,
each at two sizes (the second twice the first: linear means the CPU time doubles, not quadruples).

Each parse runs in a fresh subprocess (``markdown.parse`` of the file, as ``mem.py import`` calls it, without the
store): the table prints its CPU seconds, peak RSS and the records it gave. With ``--base REF`` the same files are
parsed by that git ref's importers too (``git archive`` into a temp dir), alternating, so both columns share the
load; the records must be the same.

Usage::

    python bench/import_deep.py [--divs 200000] [--depth 3000] [--base 03dcfb9] [--rounds 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_CHILD = r"""
import hashlib, json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from importers import ImportReport, markdown
path = Path(sys.argv[2])
start = time.process_time()
recs = list(markdown.parse(path, ImportReport(str(path), "markdown")))
cpu = time.process_time() - start
digest = hashlib.sha1("\x00".join(r.content for r in recs).encode()).hexdigest()[:12]
print(json.dumps({"cpu": cpu, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                  "records": len(recs), "digest": digest}))
"""


def enex(path: Path, divs: int) -> Path:
    """An Evernote export of one note whose text sits inside ``divs`` nested <div>s."""
    note = "<div>" * divs + "Gate code 4821" + "</div>" * divs
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<en-export><note><title>Deep</title><content><![CDATA['
                    '<?xml version="1.0" encoding="UTF-8"?><en-note>' + note + "</en-note>]]></content>"
                    "<created>20240314T180112Z</created></note></en-export>\n", encoding="utf-8")
    return path


def nested_list(path: Path, depth: int) -> Path:
    """A Markdown note of one list nested ``depth`` deep (an item a level, indented two spaces more each)."""
    path.write_text("\n".join("  " * i + f"- item {i} of the packing list" for i in range(depth)) + "\n", encoding="utf-8")
    return path


def run(tree: Path, path: Path) -> dict[str, float]:
    """One parse of ``path`` by the importers of ``tree``, in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(path)], capture_output=True, text=True,
                         timeout=3600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--divs", type=int, default=200_000)
    ap.add_argument("--depth", type=int, default=3000)
    ap.add_argument("--base", metavar="REF", help="also parse with this git ref's importers (alternating)")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        trees = {"this": REPO}
        if args.base:
            base = work / "base"
            base.mkdir()
            archive = subprocess.run(["git", "-C", str(REPO), "archive", args.base, "importers", "memengine"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            trees = {"base": base, "this": REPO}
        cases = []
        for scale in (1, 2):
            cases.append((f"ENEX, {args.divs // 2 * scale:,} nested divs",
                          enex(work / f"deep{scale}.enex", args.divs // 2 * scale)))
            cases.append((f"Markdown list {args.depth // 2 * scale:,} deep",
                          nested_list(work / f"deep{scale}.md", args.depth // 2 * scale)))
        print(f"{'case':34} {'MB':>6} " + " ".join(f"{name + ' CPU-s':>12} {name + ' MB':>8}" for name in trees)
              + "  records")
        for label, path in cases:
            print(compare_row(f"{label:34}", path.stat().st_size, path, trees, args.rounds))
    return 0


def compare_row(label: str, size: int, path: Path, trees: dict[str, Path], rounds: int) -> str:
    """One table row: ``path`` parsed by each tree ``rounds`` times (the least CPU kept), its size in MB, each
    tree's CPU-s and peak MB, the records "this" tree read, and a mark when the trees' records differ."""
    best: dict[str, dict[str, float]] = {}
    for _ in range(rounds):
        for name, tree in trees.items():
            got = run(tree, path)
            if name not in best or got["cpu"] < best[name]["cpu"]:
                best[name] = got
    same = len({str(b["digest"]) for b in best.values()}) == 1
    return (f"{label} {size / 1e6:6.1f} " + " ".join(f"{b['cpu']:12.2f} {b['rss_mb']:8.0f}" for b in best.values())
            + f"  {best['this']['records']:.0f}" + ("" if same else "  RECORDS DIFFER"))


if __name__ == "__main__":
    raise SystemExit(main())
