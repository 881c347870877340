"""Issue 19, round 46: why the second evidence turn of a multi-hop question is missed — the pooled sets' multi-hop
questions sorted by where the missed turn sits relative to what recall did find.

For every multi-hop question of the pooled sets (LoCoMo dev, the real-chat dev set, held-outs 30/35/37/38/39) the
default engine's top 10 is read; each evidence turn outside it is classed by:

* **found / none**: whether another evidence turn of the question IS in the top 10 (the second hop's case) or none
  is (the first hop failed too);
* **where**: the reply of a top-10 turn (the next turn of its thread), within 5 turns of one (its burst), in the
  session of the found evidence turn (thread and day; a LoCoMo session), elsewhere;
* **words**: shares a rare word (in at most 3 % of the store's turns) with the found evidence turn, else a content
  word with the question, else nothing;
* its rank in the top 50.

Then the case for promoting a burst-mate, even with a perfect multi-hop detector: for every question, the next turn by
another author after each of the first three hits (outside the top 10): how often it is evidence, against how often
the 10th place it would take is — over all questions and over the multi-hop ones alone (an oracle gate).

    python bench/recall46_hops.py --reuse /tmp/r46/pool [--sets 30,35,37,38,39] [--list]
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from bench.recall44_pool import heldout_items  # noqa: E402
from memengine.text import STOPWORDS, bare_text  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

_WORD = re.compile(r"\w[\w'’-]*", re.UNICODE)


def stems(text: str) -> set[str]:
    """Content-word prefix stems of a text (expand.py's crude stem)."""
    out = set()
    for w in _WORD.findall(text.lower()):
        if len(w) >= 3 and w not in STOPWORDS and not w.isdigit():
            out.add(w[: max(4, len(w) - 3)] if len(w) > 4 else w)
    return out


class Turns:
    """A store's turns by ref: thread, position, day, stems; and each stem's share of turns."""

    def __init__(self, store: Any) -> None:
        rows = store.conn.execute("SELECT ref, thread, position, event_at, content, author FROM memories"
                                  " WHERE ref IS NOT NULL AND ref NOT LIKE 'episode:%'").fetchall()
        self.by_ref = {}
        df: collections.Counter[str] = collections.Counter()
        for ref, thread, pos, at, content, author in rows:
            st = stems(bare_text(content, author))
            session = ref.split("/")[1].split(":")[0] if ref.count("/") == 1 and ":" in ref else (at or "")[:10]
            self.by_ref[ref] = (thread, pos or 0, session, st, content, author)
            df.update(st)
        self.share = {w: n / max(1, len(rows)) for w, n in df.items()}


def classify(it: loo.Item, top: list[str], wide: list[str], turns: Turns) -> list[dict[str, Any]]:
    """One row per evidence turn outside the top 10."""
    found = [e for e in it.evidence if e in top]
    q = stems(it.question)
    out = []
    for e in it.evidence:
        if e in top or e not in turns.by_ref:
            continue
        th, pos, sess, st, content, _ = turns.by_ref[e]
        tops = [turns.by_ref[t] for t in top if t in turns.by_ref]
        if any(t[0] == th and t[1] == pos - 1 for t in tops):
            where = "reply of a top-10 turn"
        elif any(t[0] == th and t[1] == pos + 1 for t in tops):
            where = "turn before a top-10 turn"
        elif any(t[0] == th and abs(t[1] - pos) <= 5 for t in tops):
            where = "within 5 turns of a top-10 turn"
        elif found and any(turns.by_ref[f][2] == sess and turns.by_ref[f][0] == th for f in found):
            where = "same session as the found turn"
        else:
            where = "elsewhere"
        fst = set().union(*(turns.by_ref[f][3] for f in found)) if found else set()
        rare = {w for w in st & fst if turns.share.get(w, 1) <= 0.03}
        if rare:
            words = "a rare word of the found turn"
        elif st & fst:
            words = "a common word of the found turn"
        elif st & q:
            words = "a question word"
        else:
            words = "nothing"
        rank = wide.index(e) + 1 if e in wide else 99
        out.append({"key": it.key, "set": it.set, "case": "second hop" if found else "both missed", "where": where,
                    "words": words, "rank": rank, "q_words": bool(st & q), "question": it.question,
                    "turn": content[:120], "shared": sorted(rare or (st & fst) or (st & q))[:6]})
    return out


def burst_precision(rows: list[tuple[str, bool, list[str], list[dict[str, Any]]]]) -> list[list[Any]]:
    """Per set group and gate: questions with a candidate, the share of first candidates that are evidence, and the
    share of 10th places that are. ``rows``: (set, multi-hop, evidence, the top 30 with thread/position/author)."""
    out = []
    for group in ("LoCoMo", "real-chat dev", "held-outs"):
        for gate in ("every question", "multi-hop only (oracle)"):
            n = hit = tenth = 0
            for s, multi, ev, top in rows:
                g = "LoCoMo" if s == "locomo" else "real-chat dev" if s == "realchat" else "held-outs"
                if g != group or (gate != "every question" and not multi) or len(top) < 10:
                    continue
                first10 = {t["ref"] for t in top[:10]}
                cand = next((c["ref"] for h in top[:3] for c in top[10:] if h["thread"] is not None
                             and c["thread"] == h["thread"] and c["pos"] == h["pos"] + 1
                             and c["author"] != h["author"] and c["ref"] not in first10), None)
                if cand is None:
                    continue
                n += 1
                hit += cand in ev
                tenth += top[9]["ref"] in ev
            out.append([group, gate, n, f"{hit / max(1, n):.3f}", f"{tenth / max(1, n):.3f}"])
    return out


def main(argv: list[str] | None = None) -> int:
    """Tables of the missed multi-hop evidence turns by case, place and words."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--sets", default="30,35,37,38,39")
    ap.add_argument("--list", action="store_true", help="print every missed turn")
    args = ap.parse_args(argv)
    from embedder import get_embedder

    reuse = Path(args.reuse)
    items = loo.load_items(DEFAULT_LOCOMO, DEFAULT_DATA, DEFAULT_QUESTIONS, reuse / "loo")
    items += heldout_items([s for s in args.sets.split(",") if s], reuse, loo.QueryCache(get_embedder()))
    cfg = RecallConfig()
    turns: dict[int, Turns] = {}
    rows = []
    bursts = []
    n_multi: collections.Counter[str] = collections.Counter()
    for it in items:
        if id(it.store) not in turns:
            turns[id(it.store)] = Turns(it.store)
        tt = turns[id(it.store)]
        top10 = [m.ref or "" for m in it.store.recall(it.question, k=10, touch=False, config=cfg).results]
        wide = top10 + [r for r in (m.ref or "" for m in it.store.recall(it.question, k=50, touch=False,
                                                                            config=cfg).results) if r not in top10]
        bursts.append((it.set, it.multi, it.evidence,
                       [{"ref": r, "thread": tt.by_ref[r][0] if r in tt.by_ref else None,
                         "pos": tt.by_ref[r][1] if r in tt.by_ref else 0,
                         "author": tt.by_ref[r][5] if r in tt.by_ref else None} for r in wide[:30]]))
        if not it.multi:
            continue
        n_multi[it.set] += 1
        rows += classify(it, top10, wide, tt)
    print(f"multi-hop questions: {dict(n_multi)}; evidence turns outside the top 10: {len(rows)}\n")
    for field in ("case", "where", "words"):
        tab = collections.Counter((r["set"] == "locomo", r["case"], r[field]) for r in rows)
        keys = sorted({(c, v) for _, c, v in tab})
        print(md_table(["case", field, "LoCoMo", "chats"],
                       [[c, v, tab[(True, c, v)], tab[(False, c, v)]] for c, v in keys]))
        print()
    ranks = collections.Counter(("LoCoMo" if r["set"] == "locomo" else "chats", r["case"],
                                 "11-20" if r["rank"] <= 20 else "21-50" if r["rank"] <= 50 else ">50") for r in rows)
    print(md_table(["set", "case", "rank", "n"], [[*k, v] for k, v in sorted(ranks.items())]))
    cross = collections.Counter((r["case"], r["where"], r["words"]) for r in rows)
    print()
    print(md_table(["case", "where", "words", "n"], [[*k, v] for k, v in cross.most_common(20)]))
    print("\nThe next turn by another author after a first-three hit, outside the top 10: evidence how often?\n")
    print(md_table(["sets", "questions", "with a candidate", "candidate is evidence", "10th place is evidence"],
                   burst_precision(bursts)))
    if args.list:
        for r in rows:
            print(f"{r['key']} [{r['case']}; {r['where']}; {r['words']} {r['shared']}; rank {r['rank']}] "
                  f"{r['question']}\n    -> {r['turn']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
