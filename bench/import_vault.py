"""Parse cost of a vault of notes (a folder of Markdown files linking to each other), at two sizes (the second
twice the first: linear means the CPU time doubles). Notes are named by words and a year ("Roof plumber ferry 2019"), as
people name them, with front matter, headings and [[links]] to notes read later.

Each parse runs in a fresh subprocess (``markdown.parse`` of the folder, as ``mem.py import`` calls it, without the
store): the table prints its CPU seconds, peak RSS and the records it gave. With ``--base REF`` the same vault is
parsed by that git ref's importers too (``git archive`` into a temp dir), alternating, so both columns share the
load; the records' contents must be the same.

Usage::

    python bench/import_vault.py [--notes 2000] [--base 9797b74] [--rounds 1]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
from pathlib import Path

from import_deep import REPO, compare_row

WORDS = ("boiler oscar tiles kitchen porto lisbon garden bike train coffee meeting plan budget invoice roof "
         "plumber ferry school dentist insurance car rent lease paint window door").split()


def vault(folder: Path, notes: int, seed: int = 20) -> Path:
    """A vault of ``notes`` notes, each with front matter, two sections and links to three other notes."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < notes:  # "Roof plumber ferry 2019": words and a year, all different
        name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {rng.choice(WORDS)} {2000 + len(names) % 26}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    for i, name in enumerate(names):
        paras = ["  ".join(" ".join(rng.choice(WORDS) for _ in range(12)) + "." for _ in range(3))
                 + f" See [[{rng.choice(names)}]]." for _ in range(3)]
        (folder / f"{name}.md").write_text(
            f"---\ntags: [{rng.choice(WORDS)}, home]\ncreated: 2024-03-{1 + i % 28:02d}\n---\n# {name}\n\n"
            + "\n\n".join(paras[:2]) + f"\n\n## Later\n\n{paras[2]}\n", encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=2000)
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
        print(f"{'case':24} {'MB':>6} " + " ".join(f"{name + ' CPU-s':>12} {name + ' MB':>8}" for name in trees)
              + "  records")
        for scale in (1, 2):
            n = args.notes // 2 * scale
            folder = vault(work / f"vault{scale}", n)
            size = sum(p.stat().st_size for p in folder.iterdir())
            print(compare_row(f"{f'vault of {n:,} notes':24}", size, folder, trees, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
