"""Issue 19, round 37: every evidence turn of held-outs 35 and 30 outside the first five (and ten), classed.

For each evidence turn below rank 5: its rank (to 50), whether it shares a content word with the question
(bench/recall_round27.words), its length, whether it is the second evidence of a multi-hop question whose other
evidence is in the first five, and where it sits beside the first five: the turn right after / before a top-5 hit in
its thread (a reply pair), within two turns of one (its burst), or apart. The primary class is the first that applies
in the order printed.

    python bench/recall37_misses.py --reuse /tmp/recall37            # stores under DIR/h35, DIR/h30
    python bench/recall37_misses.py --reuse /tmp/recall37 --list     # every miss, one line each
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

SETS = {"35": ("realchat_heldout35", "h35"), "30": ("realchat_heldout30", "h30")}
DEPTH = 50


def _turns(st: Any) -> dict[str, tuple[int | None, int | None, str, str]]:
    """ref -> (thread, position, author, content) of a store's turns."""
    rows = st.conn.execute("SELECT ref, thread, position, author, content FROM memories WHERE ref IS NOT NULL "
                           "AND ref NOT LIKE 'episode:%'")
    return {r[0]: (r[1], r[2], r[3] or "", r[4]) for r in rows}


def _side(ev: dict[str, Any] | None, fifth: dict[str, Any]) -> str:
    """Why an evidence turn is below the fifth result, by its explain: the keyword side, the vectors, both (its
    normalised bm25 and cosine each below the fifth's), the priors (its retrieval at least the fifth's, its total not),
    a step after fusion (neither), or past the depth read."""
    if not ev or not fifth:
        return "past the depth read"
    kw = (ev.get("keyword_norm") or 0.0) < (fifth.get("keyword_norm") or 0.0)
    vec = (ev.get("vector_norm") or 0.0) < (fifth.get("vector_norm") or 0.0)
    if kw and vec:
        return "keyword and vectors"
    w = fifth.get("weights") or {"keyword": 0.5, "vector": 0.5}
    def retrieval(e: dict[str, Any]) -> float:
        return w["keyword"] * (e.get("keyword_norm") or 0.0) + w["vector"] * (e.get("vector_norm") or 0.0)
    if retrieval(ev) >= retrieval(fifth):
        return "priors or a later step"
    return "keyword side" if kw else "vectors"


def classify(reuse: Path, names: list[str], listing: bool, config: list[str]) -> list[dict[str, Any]]:
    """Every evidence turn below rank 5 of the sets ``names``, with its class."""
    from bench import realchat
    from bench.recall_round12 import _config
    from bench.recall_round27 import words
    from embedder import get_embedder

    emb = get_embedder()
    cfg = _config(config)
    out = []
    for name in names:
        folder, sub = SETS[name]
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{folder}.jsonl")
        stores = realchat.build_chat_stores(qs, HERE / "bench" / "data" / folder, reuse / sub, emb, reuse=True)
        turns = {f: _turns(st) for f, st in stores.items()}
        for q in qs:
            t = turns[q.file]
            res = stores[q.file].recall(q.question, k=DEPTH, touch=False, config=cfg, explain=True).results
            refs = [m.ref or "" for m in res]
            rank = {r: i + 1 for i, r in enumerate(refs)}
            expl = {m.ref: (m.explain or {}) for m in res}
            fifth = expl.get(refs[4], {}) if len(refs) >= 5 else {}
            top5 = [t[r] for r in refs[:5] if r in t]
            qw = words(q.question)
            for ev in q.evidence:
                rk = rank.get(ev)
                if rk is not None and rk <= 5:
                    continue
                thread, pos, author, text = t[ev]
                others = [rank.get(o) for o in q.evidence if o != ev]
                near = [p for th, p, _, _ in top5 if th == thread and p is not None and pos is not None]
                row = {"set": name, "id": q.id, "q": q.question, "cat": q.category, "rank": rk, "text": text,
                       "author": author, "shares": bool(qw & words(text)), "words": len(text.split()),
                       "after_hit": any(pos - p == 1 for p in near), "before_hit": any(p - pos == 1 for p in near),
                       "burst": any(abs(pos - p) <= 3 for p in near),
                       "second": q.category == "multi-hop" and any(o is not None and o <= 5 for o in others)}
                row["side"] = _side(expl.get(ev), fifth)
                row["class"] = ("reply to a top-5 turn" if row["after_hit"] else
                                "turn a top-5 turn answers" if row["before_hit"] else
                                "within 3 turns of a top-5 turn" if row["burst"] else
                                "shares a word, apart" if row["shares"] else "no shared word, apart")
                out.append(row)
                if listing:
                    print(f"{name} {q.id} r{rk} {'2nd ' if row['second'] else ''}[{row['class']}; {row['side']}] "
                          f"{q.question} "
                          f"=> {author}: {text[:70]}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--sets", default="35,30")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    rows = classify(Path(args.reuse), args.sets.split(","), args.list, args.config)
    for name in args.sets.split(","):
        sub = [r for r in rows if r["set"] == name]
        for cut, label in ((5, "missed at 5"), (10, "missed at 10")):
            miss = [r for r in sub if r["rank"] is None or r["rank"] > cut]
            c = Counter(r["class"] for r in miss)
            print(f"held-out {name}, {label}: {len(miss)} evidence turns; "
                  + "; ".join(f"{k} {v}" for k, v in c.most_common())
                  + f"; of them the second of a multi-hop {sum(r['second'] for r in miss)}"
                  + "; below the fifth on: " + "; ".join(f"{k} {v}" for k, v in
                                                        Counter(r["side"] for r in miss).most_common())
                  + f", rank 6-10/11-50/past 50 {sum(1 for r in miss if r['rank'] and r['rank'] <= 10)}/"
                  + f"{sum(1 for r in miss if r['rank'] and r['rank'] > 10)}/{sum(1 for r in miss if not r['rank'])}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
