"""Issue 19, round 25: the newer fact above the older one (bench/data/realchat_heldout22), by kind, with traps.

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does, turn-level
scoring, "newer above older" for the questions about a fact that changed), then the figures by kind: a name replaced
by a name sharing no word with it (``no_shared_word``: Movistar -> Digi, Dr. Brinkmann -> Frau Dr. Yilmaz), the newer
turn sharing few words with the question (``few_shared``), another value that changed, the traps (``kind: "trap"``: a
later turn naming another name that is NO update — a hypothetical, a question, another person's, a past-tense story),
the ordinary questions, and each chat (a Madrid flatshare group in Spanish, a Turin couple planning a wedding in
Italian, two siblings caring for their mother in Bielefeld in German, a potter's Claude export in English, two friends
in Nantes in French).

"Decoys above" counts the questions with a ``decoy`` ref (every trap, and updates whose later other name is no update)
where a decoy ranks above the evidence in the top 10 (or the evidence is out of the top 10 and a decoy is in it): a
mechanism that lifts later turns must not lift these.

    python bench/recall_updates25.py --reuse /tmp/recall25/h22                              # this tree
    python bench/recall_updates25.py --reuse /tmp/recall25/h22b --tree /work/base-start     # the session start
    python bench/recall_updates25.py --reuse /tmp/recall25/h22 --misses                     # every miss
    python bench/recall_updates25.py --reuse /tmp/recall25/h22 --config FIELD=VALUE         # a switch changed
    python bench/recall_updates25.py --resolve DRAFT.json --reuse DIR                       # texts -> refs (authoring)
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

DATA = HERE / "bench" / "data" / "realchat_heldout22"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout22.jsonl"
CHATS = {"piso_lavapies.txt": "the Madrid flatshare (es)", "matrimonio.txt": "the Turin wedding (it)",
         "mama_bielefeld.txt": "the Bielefeld siblings (de)", "claude_pottery.json": "the potter's Claude export (en)",
         "lea_ines.txt": "the Nantes friends (fr)"}


def _rank(refs: list[str], ref: str) -> int | None:
    return refs.index(ref) + 1 if ref in refs else None


def decoy_above(row: dict[str, Any], q: dict[str, Any]) -> bool:
    """A decoy of ``q`` ranks above its first evidence in the top 10 (or is there while the evidence is not)."""
    top = row["top"][:10]
    ev = _rank(top, q["evidence"][0]) or 99
    return any((_rank(top, d) or 100) < ev for d in q.get("decoy", []))


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older, decoys above) by kind and by chat."""
    upd = [r for r in rows if meta[r["id"]].get("kind") == "update"]
    subsets = {
        "a name replaced, no word shared": [r for r in upd if meta[r["id"]].get("no_shared_word")],
        "a name replaced (all)": [r for r in upd if meta[r["id"]].get("name_changed")],
        "the newer turn shares few words with the question": [r for r in upd if meta[r["id"]].get("few_shared")],
        "another value that changed": [r for r in upd if not meta[r["id"]].get("name_changed")],
        "every fact that changed": upd,
        "traps (a later turn that is no update)": [r for r in rows if meta[r["id"]].get("kind") == "trap"],
        "ordinary": [r for r in rows if meta[r["id"]].get("kind") is None],
        **{name: [r for r in rows if r["file"] == f] for f, name in CHATS.items()},
        "all": rows,
    }
    out = []
    for name, sub in subsets.items():
        def mean(key: str, sub: list[dict[str, Any]] = sub) -> float:
            return round(statistics.fmean(r[key] for r in sub), 3) if sub else 0.0
        old = [r for r in sub if r["outdated"]]
        above = f"{sum(r['newer_first'] for r in old)}/{len(old)}" if old else "—"
        dec = [r for r in sub if meta[r["id"]].get("decoy")]
        moved = f"{sum(decoy_above(r, meta[r['id']]) for r in dec)}/{len(dec)}" if dec else "—"
        out.append([name, len(sub), mean("recall@5"), mean("recall@10"), mean("mrr"), above, moved])
    return out


def resolve(draft: Path, reuse: Path) -> int:
    """Authoring: the questions of ``draft`` (a JSON list with ``evidence_text``/``outdated_text``/``decoy_text``)
    with each text replaced by the ref of the one message of its chat holding it, written to the set's jsonl."""
    from bench import realchat
    from embedder import get_embedder

    rows = json.loads(draft.read_text(encoding="utf-8"))
    emb = get_embedder()
    bad = []
    for r in rows:
        st = realchat.build_chat_store(DATA, r["file"], reuse, emb, reuse=True)
        for field in ("evidence", "outdated", "decoy"):
            refs = []
            for text in r.get(f"{field}_text", []):
                got = [ref for ref, content in st.conn.execute("SELECT ref, content FROM memories WHERE ref IS NOT NULL"
                                                                     " AND ref NOT LIKE 'episode:%'")
                       if text in content]
                if len(got) != 1:
                    bad.append(f"{r['id']} {field}: {text!r} found {len(got)} times")
                refs += got[:1]
            if refs:
                r[field] = refs
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 2
    keys = ["id", "file", "question", "answer", "category", "lang", "evidence", "kind", "outdated", "decoy"]
    with QUESTIONS.open("w", encoding="utf-8") as fh:
        for r in rows:
            obj = {k: r[k] for k in keys if k in r} | {k: v for k, v in r.items() if k not in keys}
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    print(f"{len(rows)} questions -> {QUESTIONS}")
    return 0


def run(argv: list[str] | None, doc: str | None, data: Path, questions: Path,
        kinds_of: Callable[[list[dict[str, Any]], dict[str, dict[str, Any]]], list[list[Any]]],
        resolve_draft: Callable[[Path, Path], int]) -> int:
    """A held-out set of update questions scored by kind (``--rows OUT.json`` tables a saved run): the command line
    of this round and of the later rounds that reuse it (bench/recall_round27.py), each with its own set and kinds."""
    from bench.common import md_table
    from bench.recall_round13 import question_meta

    head = ["questions", "n", "recall@5", "recall@10", "MRR", "newer above older", "decoys above"]
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--rows"] and len(args_in) == 2:
        meta = question_meta(questions)
        print(md_table(head, kinds_of(json.loads(Path(args_in[1]).read_text())["rows"], meta)))
        return 0
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=str(HERE), help="repository whose engine is scored (default: this one)")
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (one DIR per tree)")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE",
                    help="a RecallConfig field for the recalls (repeatable)")
    ap.add_argument("--misses", action="store_true", help="print every miss with its top 10 and evidence ranks")
    ap.add_argument("--json", metavar="OUT", help="keep the per-question rows")
    ap.add_argument("--resolve", metavar="DRAFT", help="authoring: turn a draft's texts into refs")
    args = ap.parse_args(args_in)
    if args.resolve:
        return resolve_draft(Path(args.resolve), Path(args.reuse))
    meta = question_meta(questions)
    from bench import recall_round12

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.json) if args.json else Path(tmp) / "rows.json"
        extra = [f"--config={c}" for c in args.config] + (["--misses"] if args.misses else [])
        code = recall_round12.main(["--tree", args.tree, "--data", str(data), "--set", str(questions),
                                    "--reuse", args.reuse, "--json", str(out), *extra])
        if code:
            return code
        rows = json.loads(out.read_text())["rows"]
    print()
    print(md_table(head, kinds_of(rows, meta)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Round 25's held-out chats, scored by kind (``--rows OUT.json`` tables a saved run)."""
    return run(argv, __doc__, DATA, QUESTIONS, kinds, resolve)

if __name__ == "__main__":
    raise SystemExit(main())
