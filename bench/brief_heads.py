"""(brief39) Do the brief's topic headings say what a person would write? A judge against person-written headings.

Each set scored has a ``.heads`` file (one line per topic the chat holds: the heading a person would give it, what
was decided / happened / is planned, 2-6 words, alternatives separated by `` || ``), next to its ``.expect`` in the
held-out rounds (bench/data/brief_heldoutN/NAME.heads) or in bench/data/brief_heads39/ for the lead's chats. The
older ``.expect`` lists (``topic`` / ``goodname``: bare keywords) are left as they are.

A heading is compared with a label by their content words (folded as topic names are: case, plural and possessive
endings; a word of 4+ letters starting another, or two of 5+ letters sharing their first five, count as one:
"move"/"moved", "operation"/"operated"),
stop words of the set's language left out. Its **credit** is the share of the label's content words it says, out of
at most three: one word matched (a keyword: "calvin harris" against "music: Calvin's DJ set") scores 1/3, two 2/3, a
phrase with its verb or object (three or all) 1. Each label takes the heading of the brief crediting it most, one
heading per label (greedy, best pair first). Per set: labels, the credit summed, labels met by a phrase (2+ words),
by a keyword only (1 word), by nothing.

    python bench/brief_quality.py --no-shared --split heldout --data bench/data/brief_heldoutN --dump DUMPS/hN
    python bench/brief_heads.py --dumps DUMPS [--show]            # every set with a .heads whose brief was dumped
    python bench/brief_heads.py --lead DUMPS/lead                  # also build + dump the lead's chats (lead_probes21-23)
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memengine import summarize  # noqa: E402
from memengine.topic_words import _WORD, fold  # noqa: E402

DATA = ROOT / "bench" / "data"
LEAD_HEADS = DATA / "brief_heads39"
CAP = 3  # content words of a label a heading must say for full credit
PREFIX = 5  # two words this long sharing this many first letters are one ("moved" / "moves")
_HEAD = re.compile(r"^### T(\d+)(?:\.\d+)? · (.+?) \(\d+ memor", re.M)
# the lead's chats: (label file stem, chat file)
LEAD_CHATS = (("lead21_hen", "lead_probes21/chat21/hen.txt"), ("lead21_demenag", "lead_probes21/chat21/demenag.txt"),
              ("lead22_bookclub", "lead_probes22/chat22/bookclub.txt"),
              ("lead22_abuela", "lead_probes22/chat22/abuela.txt"),
              ("lead23_street", "lead_probes23/chat23/street.txt"), ("lead23_papai", "lead_probes23/chat23/papai.txt"))


def read_heads(path: Path) -> list[list[str]]:
    """The labels of a ``.heads`` file: one list of alternatives per topic line (comments and blanks skipped)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            out.append([a.strip() for a in line.split(" || ") if a.strip()])
    return out


def stop_for(labels: Sequence[Sequence[str]]) -> frozenset[str]:
    """Stop words of the language the set's labels are written in (English ones always)."""
    return summarize.stopwords_for([a for alts in labels for a in alts])


def content(text: str, stop: frozenset[str]) -> list[str]:
    """The folded content words of ``text``: no stop word, no one-letter word but a number."""
    out = []
    for w in _WORD.findall(text):
        f = fold(w)
        if f in stop or w.lower() in stop or (len(f) < 2 and not f.isdigit()):
            continue
        out.append(f)
    return out


def same(a: str, b: str) -> bool:
    """One word, folded; one of 4+ letters the other's start ("move" / "moved"); two long words sharing their first
    PREFIX letters ("moved" / "moving")."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return (len(short) >= 4 and long_.startswith(short)) or (len(a) >= PREFIX and len(b) >= PREFIX
                                                            and a[:PREFIX] == b[:PREFIX])


def matched(heading: str, label: str, stop: frozenset[str]) -> tuple[int, int]:
    """(content words of ``label`` ``heading`` says, content words of ``label``)."""
    h = content(heading, stop)
    lab = list(dict.fromkeys(content(label, stop)))
    return sum(any(same(x, y) for x in h) for y in lab), len(lab)


def credit(heading: str, alts: Sequence[str], stop: frozenset[str]) -> tuple[float, int]:
    """(credit, words matched) of ``heading`` for the best of a label's alternatives (the module docstring)."""
    best = (0.0, 0)
    for a in alts:
        m, n = matched(heading, a, stop)
        if n:
            best = max(best, (min(1.0, m / min(CAP, n)), m))
    return best


def assign(headings: Sequence[str], labels: Sequence[Sequence[str]], stop: frozenset[str]
           ) -> list[tuple[int, str | None, float, int]]:
    """For each label (index), the heading given to it, its credit and words matched: best pairs first, one heading
    per label and one label per heading."""
    pairs = []
    for i, alts in enumerate(labels):
        for j, h in enumerate(headings):
            c, m = credit(h, alts, stop)
            if c > 0:
                pairs.append((-c, i, j, m))
    pairs.sort()
    got: dict[int, tuple[int, float, int]] = {}
    used: set[int] = set()
    for c, i, j, m in pairs:
        if i in got or j in used:
            continue
        got[i] = (j, -c, m)
        used.add(j)
    return [(i, headings[got[i][0]] if i in got else None, got[i][1] if i in got else 0.0, got[i][2] if i in got else 0)
            for i in range(len(labels))]


def headings_of(brief: str) -> list[str]:
    """The topic headings a brief shows (``### T12 · name (N memories)``), in order, each once."""
    return list(dict.fromkeys(m.group(2) for m in _HEAD.finditer(brief)))


def score(headings: Sequence[str], labels: Sequence[Sequence[str]], stop: frozenset[str] | None = None
          ) -> dict[str, float]:
    """A set's figures: labels, credit, phrase (2+ words matched), keyword (1), none."""
    stop = stop if stop is not None else stop_for(labels)
    rows = assign(headings, labels, stop)
    return {"labels": len(labels), "credit": sum(r[2] for r in rows), "phrase": sum(r[3] >= 2 for r in rows),
            "keyword": sum(r[3] == 1 for r in rows), "none": sum(r[1] is None for r in rows),
            "headings": len(headings)}


def label_files() -> list[tuple[str, Path]]:
    """(set name, .heads path) of every labelled set: held-out rounds and the lead's chats."""
    out = [(p.stem, p) for p in sorted(DATA.glob("brief_heldout*/*.heads"))]
    out += [(p.stem, p) for p in sorted(LEAD_HEADS.glob("*.heads"))]
    return out


def find_brief(dumps: Path, name: str, tree: str) -> Path | None:
    """The dumped brief of set ``name`` under ``dumps`` (any sub-directory), tree ``after`` / ``before``."""
    for p in dumps.rglob(f"{name}.{tree}.md"):
        return p
    return None


def build_lead(out: Path, before: str | None = None) -> None:
    """Dump the briefs of the lead's chats with brief_quality (each chat a set: an empty .keys makes it one)."""
    tmp = Path(tempfile.mkdtemp(prefix="brief_heads_"))
    cache = Path(tempfile.mkdtemp(prefix="brief_heads_cache_"))  # (not inside the data: a folder there is a vault)
    try:
        for name, rel in LEAD_CHATS:
            shutil.copy(DATA / rel, tmp / f"{name}.txt")
            (tmp / f"{name}.keys").write_text("# key | current | superseded\n", encoding="utf-8")
        cmd = [sys.executable, str(ROOT / "bench" / "brief_quality.py"), "--no-shared", "--split", "heldout",
               "--data", str(tmp), "--dump", str(out), "--cache", str(cache)]
        if before:
            cmd += ["--before", before]
        subprocess.run(cmd, check=True, cwd=str(ROOT), stdout=subprocess.DEVNULL)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)


def report(dumps: Path, trees: Iterable[str], show: bool = False) -> dict[str, dict[str, dict[str, float]]]:
    """Print the per-set table for each tree dumped; returns {tree: {set: figures}}."""
    trees = list(trees)
    res: dict[str, dict[str, dict[str, float]]] = {t: {} for t in trees}
    print("| set | labels | " + " | ".join(f"{t} credit | phrase | keyword | none" for t in trees) + " |")
    print("|---|---|" + "---|---|---|---|" * len(trees))
    tot = {t: {"labels": 0.0, "credit": 0.0, "phrase": 0.0, "keyword": 0.0, "none": 0.0} for t in trees}
    for name, path in label_files():
        labels = read_heads(path)
        stop = stop_for(labels)
        cells = []
        for t in trees:
            md = find_brief(dumps, name, t)
            if md is None:
                break
            heads = headings_of(md.read_text(encoding="utf-8"))
            s = score(heads, labels, stop)
            res[t][name] = s
            for k in tot[t]:
                tot[t][k] += s[k]
            cells.append(f"{s['credit']:.2f} | {s['phrase']:.0f} | {s['keyword']:.0f} | {s['none']:.0f}")
            if show:
                for i, h, c, _m in assign(heads, labels, stop):
                    print(f"   {name} [{t}] «{labels[i][0]}» ← «{h or '-'}» {c:.2f}")
        else:
            print(f"| {name} | {len(labels)} | " + " | ".join(cells) + " |")
    print("| all | " + f"{tot[trees[0]]['labels']:.0f} | " + " | ".join(
        f"{tot[t]['credit']:.2f} | {tot[t]['phrase']:.0f} | {tot[t]['keyword']:.0f} | {tot[t]['none']:.0f}"
        for t in trees) + " |")
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dumps", type=Path, required=True, help="brief_quality --dump directories (searched below)")
    ap.add_argument("--lead", type=Path, help="first build and dump the lead's chats' briefs into this directory")
    ap.add_argument("--before", help="with --lead: a code tree to compare with (as brief_quality's --before)")
    ap.add_argument("--trees", default="after", help="comma-separated dumped trees to score (after,before)")
    ap.add_argument("--show", action="store_true", help="print each label with the heading given to it")
    args = ap.parse_args(argv)
    if args.lead:
        build_lead(args.lead, args.before)
    report(args.dumps, args.trees.split(","), args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
