"""Issue 19, round 13: recall on the held-out chats written for it (bench/data/realchat_heldout13), by kind.

``bench/recall_round12.py`` on round 13's set (each chat imported into its own store as ``mem.py import``
does, turn-level scoring, "newer above older" for the questions about a value that changed), plus the
figures of the round's subject: the **vocabulary-gap** questions (``gap: true``: the question names a
category or role, the answer turn only the instance) apart from the others, and the questions asked in
English of a chat in another language apart.

    python bench/recall_round13.py --reuse /tmp/r13                              # this tree
    python bench/recall_round13.py --reuse /tmp/r13b --tree /work/base-start     # the session start
    python bench/recall_round13.py --reuse /tmp/r13 --config w_instances=0.0     # the round's switch off
    python bench/recall_round13.py --reuse /tmp/r13 --misses                     # every miss, one by one
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout13"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout13.jsonl"


def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR) for the gap / other / cross-lingual subsets."""
    meta = question_meta(questions)
    lang_of_chat = {"energie.txt": "nl", "nonna.txt": "it", "hund.txt": "sv", "housemates.txt": "en"}
    subsets = {
        "vocabulary gap": [r for r in rows if meta[r["id"]].get("gap")],
        "other": [r for r in rows if not meta[r["id"]].get("gap")],
        "asked in English of another language's chat": [
            r for r in rows if r["lang"] == "en" and lang_of_chat.get(r["file"], "en") != "en"],
        "all": rows,
    }
    return subset_rows(subsets)


def question_meta(questions: Path) -> dict[str, dict[str, Any]]:
    """The questions of a held-out set's jsonl by id (their kinds and flags)."""
    meta = {}
    for line in questions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            meta[obj["id"]] = obj
    return meta


def subset_rows(subsets: dict[str, list[dict[str, Any]]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR), one per named subset of scored questions."""
    out = []
    for name, sub in subsets.items():
        def mean(key: str, sub: list[dict[str, Any]] = sub) -> float:
            return round(statistics.fmean(r[key] for r in sub), 3) if sub else 0.0
        out.append([name, len(sub), mean("recall@5"), mean("recall@10"), mean("mrr")])
    return out


def kind_subsets(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]], chats: dict[str, str],
                 **extra: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The subsets every round's table shows (rounds 16+): asked in other words (``gap``), multi-hop, a value that
    changed, then ``extra``, each chat of ``chats`` (file -> name), and all."""
    return {
        "asked in words the chat does not use": [r for r in rows if meta[r["id"]].get("gap")],
        "multi-hop": [r for r in rows if r["category"] == "multi-hop"],
        "a value that changed": [r for r in rows if meta[r["id"]].get("kind") == "update"],
        **extra,
        **{name: [r for r in rows if r["file"] == f] for f, name in chats.items()},
        "all": rows,
    }


def amount_kinds(chats: dict[str, str]) -> Callable[[list[dict[str, Any]], Path], list[list[Any]]]:
    """The by-kind table of rounds 18+: :func:`kind_subsets` with the questions asking how much (the amount
    prior's, memengine/recall/priors.py) after the updates."""
    from memengine.recall.priors import asks_amount

    def by_kind(rows: list[dict[str, Any]], questions: Path) -> list[list[Any]]:
        """Rows of (subset, n, recall@5, recall@10, MRR) by kind of question and by chat."""
        meta = question_meta(questions)
        much = [r for r in rows if asks_amount(meta[r["id"]]["question"], "much")]
        return subset_rows(kind_subsets(rows, meta, chats, **{"asking how much (the amount prior's)": much}))
    return by_kind


def run_by_kind(argv: list[str] | None, doc: str, data: Path, questions: Path,
                kinds: Callable[[list[dict[str, Any]], Path], list[list[Any]]]) -> int:
    """``bench/recall_round12.py`` on one round's held-out set, then its table by ``kinds`` (the CLI of rounds 13+);
    ``--rows OUT.json`` tables a saved ``recall_round12.py --json`` run of any tree instead."""
    from bench.common import md_table

    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--rows"] and len(args_in) == 2:
        rows = json.loads(Path(args_in[1]).read_text())["rows"]
        print(md_table(["questions", "n", "recall@5", "recall@10", "MRR"], kinds(rows, questions)))
        return 0
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=str(HERE), help="repository whose engine is scored (default: this one)")
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (one DIR per tree)")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE",
                    help="a RecallConfig field for the recalls (repeatable)")
    ap.add_argument("--misses", action="store_true", help="print every miss with its top 10 and evidence ranks")
    args = ap.parse_args(args_in)
    from bench import recall_round12

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        extra = [f"--config={c}" for c in args.config] + (["--misses"] if args.misses else [])
        code = recall_round12.main(["--tree", args.tree, "--data", str(data), "--set", str(questions),
                                    "--reuse", args.reuse, "--json", str(out), *extra])
        if code:
            return code
        rows = json.loads(out.read_text())["rows"]
    print()
    print(md_table(["questions", "n", "recall@5", "recall@10", "MRR"], kinds(rows, questions)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Round 13's held-out chats, scored by kind."""
    return run_by_kind(argv, __doc__ or "", DATA, QUESTIONS, by_kind)


if __name__ == "__main__":
    raise SystemExit(main())
