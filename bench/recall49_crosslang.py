"""Round 49: questions in one language over notes in another — what each retriever gives the right note.

Over the agent-note dev sets (bench/recall47_head.SETS and the lead's agent32, or ``--sets``), every question is
recalled (k=60, no touch, ``explain``) and, for the right note, its rank is read four ways: by the engine's fused
score, by cosine alone, by raw bm25 alone (notes the keyword side did not find rank after those it did) and by a
character-trigram overlap with the question computed here (``trigram``: the share of the question's trigrams, of its
words of 4+ letters folded, that the note holds — what a trigram index over notes could give). Printed per class
(``crosslang``: English asked of notes in another language; ``same``: the rest), top-1 and mean reciprocal rank of
each, and with ``--list`` every cross-language question's four ranks.

    .venv/bin/python bench/recall49_crosslang.py --reuse /tmp/r49dev [--list]
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall47_head import SETS  # noqa: E402
from bench.recall_notes import build, load_questions, users_of  # noqa: E402

DEV = (*SETS, "lead_probes21/agent32")
_WORD = re.compile(r"\w+", re.UNICODE)


def fold(text: str) -> str:
    """Lower case, accents off."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def grams(text: str) -> set[str]:
    """The character trigrams of ``text``'s words of four letters or more (folded, each word padded)."""
    out: set[str] = set()
    for w in _WORD.findall(fold(text)):
        if len(w) >= 4 and not w.isdigit():
            p = f" {w} "
            out.update(p[i:i + 3] for i in range(len(p) - 2))
    return out


def rank_by(scores: dict[str, float], evidence: set[str]) -> int | None:
    """The rank of the first evidence note when ``scores`` orders the notes (ties broken against it)."""
    best = max((scores[e] for e in evidence if e in scores), default=None)
    if best is None:
        return None
    return 1 + sum(1 for n, s in scores.items() if n not in evidence and s >= best)


def rows_of(sets: list[str], reuse: Path) -> list[dict[str, Any]]:
    """One row per question: its class and the right note's rank four ways."""
    out = []
    for s in sets:
        data = REPO / "bench" / "data" / s
        qs = load_questions(data)
        for user in users_of(data):
            mine = [q for q in qs if q["user"] == user]
            if not mine:
                continue
            d = reuse / s.replace("/", "_")
            d.mkdir(parents=True, exist_ok=True)
            store, ids, _ = build(user, d, True, data)
            texts = {n: t for n, t in ((ids.get(i), t) for i, t in store.conn.execute(
                "SELECT id, content FROM memories")) if n}
            tg = {n: grams(t) for n, t in texts.items()}
            for q in mine:
                res = store.recall(q["question"], k=60, touch=False, explain=True).results
                ev = set(q["evidence"])
                fused = {ids.get(m.id, ""): -i for i, m in enumerate(res)}
                cos = {ids.get(m.id, ""): float((m.explain or {}).get("cosine") or -1) for m in res}
                bm = {ids.get(m.id, ""): float((m.explain or {}).get("keyword_bm25") or 0) for m in res}
                qg = grams(q["question"])
                tri = {n: len(qg & g) / max(1, len(qg)) for n, g in tg.items()}
                out.append({"set": s, "id": q["id"], "q": q["question"],
                            "cls": "crosslang" if "crosslang" in q.get("kinds", []) else "same",
                            "fused": rank_by(fused, ev), "cosine": rank_by(cos, ev),
                            "bm25": rank_by(bm, ev) if any(bm.get(e) for e in ev) else None,
                            "trigram": rank_by(tri, ev) if any(tri.get(e) for e in ev) else None})
            store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    """The four ranks per class."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", type=Path, required=True, help="keep / reuse the stores here")
    ap.add_argument("--sets", nargs="*", default=list(DEV), help="the sets (folders under bench/data)")
    ap.add_argument("--list", action="store_true", help="every cross-language question's ranks")
    args = ap.parse_args(argv)
    rows = rows_of(args.sets, args.reuse)
    print("| class | n | " + " | ".join(f"{w} top-1 / MRR" for w in ("fused", "cosine", "bm25", "trigram")) + " |")
    print("|---|---|---|---|---|---|")
    for cls in ("crosslang", "same"):
        sub = [r for r in rows if r["cls"] == cls]
        cells = []
        for w in ("fused", "cosine", "bm25", "trigram"):
            t1 = sum(r[w] == 1 for r in sub) / max(1, len(sub))
            mrr = sum(1 / r[w] for r in sub if r[w]) / max(1, len(sub))
            cells.append(f"{t1:.3f} / {mrr:.3f}")
        print(f"| {cls} | {len(sub)} | " + " | ".join(cells) + " |")
    if args.list:
        for r in rows:
            if r["cls"] == "crosslang":
                print(f"{r['set']} {r['id']} fused {r['fused']} cos {r['cosine']} bm25 {r['bm25']} "
                      f"tri {r['trigram']}: {r['q']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
