"""Issue 19, round 52, step 1: the census — for every multi-hop question of the pooled sets (bench/recall52_pool.py's
fifteen: LoCoMo dev, real-chat dev, held-outs 30/35/37–43, the lead's chat21–24) whose evidence is not all in the
default top 10, where the missing evidence turn sits relative to the evidence turn recall did find:

* **the reply it invited**: after the found turn in its thread, by another author, among the next four turns by
  others and within a day (a question or proposal answered, possibly hours later);
* **the turn it answers**: before the found turn, by another author, the found turn among the next four by others;
* **same burst**: the same thread within eight turns and two hours, neither of the above;
* **another session, a rare word shared**: elsewhere, sharing with the found turn a word held by at most 3 % of the
  store's turns (and at most 6 turns);
* **a list question** (``spread.asks_list``) whose missing turn is in another session sharing no rare word;
* **nothing shared**; and **both missed** (no evidence turn in the top 10).

Then, per partner kind, how often the partner of a first-three hit (outside the top 10, the best-fused one) is
evidence against how often the 10th place it would take is — over every question, as a step would see them.

    python bench/recall52_census.py --reuse /tmp/r52/pool [--list]
"""

from __future__ import annotations

import argparse
import collections
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import recall50_pool, recall52_pool  # noqa: E402
from bench.common import md_table  # noqa: E402
from bench.recall46_hops import stems  # noqa: E402
from memengine.recall.spread import asks_list  # noqa: E402
from memengine.text import bare_text  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

KINDS = ("the reply it invited", "the turn it answers", "same burst", "another session, a rare word shared",
         "a list question, another session", "nothing shared", "both missed")


class Turns:
    """A store's turns by ref: thread, position, time, author, stems; each stem's count of turns."""

    def __init__(self, store: Any) -> None:
        rows = store.conn.execute("SELECT ref, thread, position, event_at, content, author FROM memories"
                                  " WHERE ref IS NOT NULL AND ref NOT LIKE 'episode:%'").fetchall()
        self.by_ref: dict[str, tuple[Any, int, datetime | None, str, set[str], str]] = {}
        self.by_pos: dict[tuple[Any, int], str] = {}
        df: collections.Counter[str] = collections.Counter()
        for ref, thread, pos, at, content, author in rows:
            st = stems(bare_text(content, author))
            try:
                when = datetime.fromisoformat(at) if at else None
            except ValueError:
                when = None
            if when is not None and when.tzinfo is not None:
                when = when.replace(tzinfo=None)
            self.by_ref[ref] = (thread, pos or 0, when, author or "", st, content)
            self.by_pos[(thread, pos or 0)] = ref
            df.update(st)
        self.n = max(1, len(rows))
        self.count = df

    def rare(self, a: str, b: str) -> set[str]:
        """Stems two turns share that at most 3 % (and at most 6) of the store's turns hold."""
        sa, sb = self.by_ref[a][4], self.by_ref[b][4]
        return {w for w in sa & sb if self.count[w] <= max(2, min(6, 0.03 * self.n))}

    def others_after(self, ref: str, n: int = 4, hours: float = 24) -> list[str]:
        """The next ``n`` turns by another author after ``ref`` in its thread, within ``hours``."""
        th, pos, when, author, _, _ = self.by_ref[ref]
        out: list[str] = []
        p = pos + 1
        while len(out) < n and (th, p) in self.by_pos and p <= pos + 12:
            r = self.by_pos[(th, p)]
            t = self.by_ref[r]
            if when and t[2] and (t[2] - when).total_seconds() > hours * 3600:
                break
            if t[3] != author:
                out.append(r)
            p += 1
        return out


def relation(turns: Turns, found: str, miss: str, question: str) -> str:
    """The census class of a missed evidence turn relative to one found evidence turn."""
    if miss in turns.others_after(found):
        return KINDS[0]
    if found in turns.others_after(miss):
        return KINDS[1]
    f, m = turns.by_ref[found], turns.by_ref[miss]
    if f[0] == m[0] and abs(f[1] - m[1]) <= 8 and f[2] and m[2] and abs((f[2] - m[2]).total_seconds()) <= 7200:
        return KINDS[2]
    if turns.rare(found, miss):
        return KINDS[3]
    if asks_list(question):
        return KINDS[4]
    return KINDS[5]


def main(argv: list[str] | None = None) -> int:
    """The census table per set group, and the partner precision table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR")
    ap.add_argument("--list", action="store_true", help="print every missed turn")
    args = ap.parse_args(argv)
    reuse = Path(args.reuse)
    items = recall50_pool.pooled_items(reuse, list(recall52_pool.HELD), list(recall52_pool.LEAD))
    cfg = RecallConfig()
    tcache: dict[int, Turns] = {}
    census: collections.Counter[tuple[str, str]] = collections.Counter()
    qcount: collections.Counter[str] = collections.Counter()
    prec: collections.Counter[tuple[str, str, str]] = collections.Counter()
    listing = []
    for it in items:
        group = "LoCoMo" if it.set == "locomo" else "real-chat dev" if it.set == "realchat" else "chats"
        tt = tcache.setdefault(id(it.store), Turns(it.store))
        wide = [m.ref or "" for m in it.store.recall(it.question, k=30, touch=False, config=cfg).results]
        top = wide[:10]
        # partner precision: the best-fused partner (ranks 11-30) of a first-three hit, per kind, vs the 10th place
        if len(top) == 10:
            for kind in KINDS[:4]:
                cand = None
                for h in top[:3]:
                    if h not in tt.by_ref:
                        continue
                    for c in wide[10:]:
                        if c in tt.by_ref and relation(tt, h, c, it.question) == kind:
                            cand = c
                            break
                    if cand:
                        break
                if cand is None:
                    continue
                prec[(group, kind, "n")] += 1
                prec[(group, kind, "hit")] += cand in it.evidence
                prec[(group, kind, "tenth")] += top[9] in it.evidence
                if it.multi:
                    prec[(group, kind, "n multi")] += 1
                    prec[(group, kind, "hit multi")] += cand in it.evidence
                    prec[(group, kind, "tenth multi")] += top[9] in it.evidence
        if not it.multi:
            continue
        qcount[group] += 1
        ev = [e for e in it.evidence if e in tt.by_ref]
        missing = [e for e in ev if e not in top]
        if not missing:
            continue
        qcount[group + " failing"] += 1
        found = [e for e in ev if e in top]
        kinds = []
        for miss in missing:
            if not found:
                kinds.append(KINDS[6])
                continue
            rels = [relation(tt, f, miss, it.question) for f in found]
            kinds.append(min(rels, key=KINDS.index))
        kind = min(kinds, key=KINDS.index)  # the question's nearest missing turn
        census[(group, kind)] += 1
        if args.list:
            listing.append(f"{it.key} [{kind}] {it.question[:100]}\n    " + " | ".join(
                f"{'+' if e in top else '-'}{wide.index(e) + 1 if e in wide else '>30'} {tt.by_ref[e][5][:70]}"
                for e in ev))
    groups = ("LoCoMo", "real-chat dev", "chats")
    print(f"multi-hop questions: {dict(qcount)}\n")
    print(md_table(["where the missing evidence turn is", *groups],
                   [[k, *(census[(g, k)] for g in groups)] for k in KINDS]))
    print("\nThe best-fused partner (ranks 11-30) of a first-three hit, per kind: evidence how often, against the 10th"
          " place it would take (every question / multi-hop only)\n")
    rows = []
    for g in groups:
        for kind in KINDS[:4]:
            n, nm = prec[(g, kind, "n")], prec[(g, kind, "n multi")]
            rows.append([g, kind, n, f"{prec[(g, kind, 'hit')] / max(1, n):.3f}",
                         f"{prec[(g, kind, 'tenth')] / max(1, n):.3f}", nm,
                         f"{prec[(g, kind, 'hit multi')] / max(1, nm):.3f}",
                         f"{prec[(g, kind, 'tenth multi')] / max(1, nm):.3f}"])
    print(md_table(["sets", "partner", "questions", "partner is evidence", "10th is evidence", "multi-hop q",
                    "partner is evidence", "10th is evidence"], rows))
    if args.list:
        print("\n" + "\n".join(listing))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
