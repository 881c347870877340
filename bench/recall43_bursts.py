"""Issue 19, round 43: the burst of a top hit and the second hop of a multi-hop question — five re-rankings of the
engine's own list, each against its off switch, on both dev sets (in-sample and leave-one-conversation-out) and on
the held-out chat sets.

The largest miss class on the held-out chats is "the burst of a top hit": the answer turn sits in the same short
exchange as a hit that ranks high, but itself ranks low ("yes 7pm" after "what time on friday?"). Multi-hop questions
need two turns, often said days apart. Each family below re-ranks the engine's list for a question — its first ten
exactly as ``recall(k=10)`` returns them, then ranks 11-30 of ``recall(k=30)`` — and is scored as bench/loo.py scores
a switch: per-question recall@5, recall@10, MRR and all-evidence@10, the two dev sets' mean recall@5 the objective,
and per fold (one LoCoMo conversation or one real chat) the variant chosen on all the other folds (``loo.loo_choose``;
"off" is the default and wins ties). The families (bench/README.md, "Round 43"):

* ``words`` — turn-level re-ranking inside the top hits' bursts: a turn within ``W`` positions of one of the first
  ``S`` hits (same thread) that holds a content-word stem of the question the hit itself lacks goes right after it;
* ``pair`` — the second hop gets a share of the first hit's score only when it supplies a question stem the first
  ``S`` hits lack: score + share x top score x (the lacking stems it holds / the question's stems), from rank ``start``;
* ``spread`` — two bursts rather than one: from rank ``start`` on, a turn within ``W`` positions of ``B`` turns above
  it in its thread waits below the rest of the first 30;
* ``asked`` — the reply to a top hit that asks: the first turn by another author within two after one of the first
  ``S`` hits ending in "?" (a question back ends the search) goes right after it; ``wh`` only when the hit's question
  word is the question's ("who" / "who's having Biscuit");
* ``own`` — inside a burst the context a turn shares with its neighbours is common to all of them: the burst's places
  among the first ``depth`` re-dealt by fusion's score + ``lam`` x the cosine of the turn's own text alone.

    python bench/recall43_bursts.py --reuse /tmp/r43/loo --chats /tmp/recall43        # ~4 min on 2 cores
    python bench/recall43_bursts.py --reuse DIR --chats DIR --sets 30,35,37,38          # held-outs scored

``--reuse`` holds the dev stores (as bench/loo.py builds them), ``--chats`` the held-outs' stores (DIR/h30, h35, h37,
h38 as bench/recall32.py / recall37.py / recall40.py / recall43.py ``heldout --reuse`` build them).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo, realchat  # noqa: E402
from bench.common import md_table  # noqa: E402
from bench.common import score_ranking as _score  # noqa: E402

HELDOUTS = {"30": "realchat_heldout30", "35": "realchat_heldout35", "37": "realchat_heldout37",
            "38": "realchat_heldout38"}
DEPTH = 30  # the list each family re-ranks
MATES = 3  # turns each side of a top-five hit read as its burst
_ASKS = re.compile(r"[?？]\W*$")
_WH = re.compile(r"\b(what time|how much|how many|how long|who|whom|whose|when|where|which|why|how|what)\b")

Row = dict[str, Any]
Rerank = Callable[[Row, list[Row]], list[Row]]


def gather(items: list[loo.Item], emb: Any) -> list[Row]:
    """Per question: the engine's list (top ten of recall(k=10), then ranks 11-30 of recall(k=30)), each turn's
    thread, position, author, text, score and own-text cosine (first 15), and the turns around its first five."""
    from memengine.recall.updates import stems
    from memengine.text import bare_text
    from memory_core import RecallConfig

    cfg = RecallConfig()
    out: list[Row] = []
    for it in items:
        ten = it.store._rank(loo.retrieve(it.store, it.question, cfg), False)
        deep = it.store._rank(loo.retrieve(it.store, it.question, cfg, k=DEPTH), False)
        seen = {m.id for m in ten}
        rows = [dict(id=m.id, ref=m.ref or "", thread=m.thread, pos=m.position, author=m.author or "",
                     text=bare_text(m.content, m.author or ""), score=m.score or 0.0)
                for m in [*ten, *(m for m in deep if m.id not in seen)]]
        for r in rows:
            r["stems"] = stems(r["text"])
        mates: dict[int, list[Row]] = {}
        for r in rows[:5]:
            if r["thread"] is None or r["pos"] is None:
                continue
            got = it.store.conn.execute(
                "SELECT id, ref, position, author, content FROM memories WHERE thread = ? AND position BETWEEN ? "
                "AND ? AND status = 'active' ORDER BY position", (r["thread"], r["pos"] - MATES, r["pos"] + MATES))
            mates[r["id"]] = [dict(id=i, ref=ref or "", thread=r["thread"], pos=p, author=a or "",
                                   text=bare_text(c, a or ""), score=r["score"]) for i, ref, p, a, c in got]
            for m in mates[r["id"]]:
                m["stems"] = stems(m["text"])
        out.append(dict(item=it, q=it.question, stems=stems(it.question), rows=rows, mates=mates))
    texts = sorted({r["text"] for d in out for r in d["rows"][:15]} | {d["q"] for d in out})
    vecs = emb.embed(texts)
    at = {t: vecs[i] for i, t in enumerate(texts)}
    for d in out:
        for r in d["rows"][:15]:
            r["own"] = float(at[r["text"]] @ at[d["q"]])
    return out


def _near(a: Row, b: Row, w: int) -> bool:
    return bool(a["thread"]) and a["thread"] == b["thread"] and a["pos"] is not None and b["pos"] is not None \
        and abs(a["pos"] - b["pos"]) <= w


def _after(rows: list[Row], seed_at: int, turn: Row) -> list[Row]:
    """``rows`` with ``turn`` right after its seed's place (taken from below, or brought in from its burst)."""
    at = next((i for i, r in enumerate(rows) if r["id"] == turn["id"]), None)
    if at is not None and at <= seed_at + 1:
        return rows
    rest = [r for r in rows if r["id"] != turn["id"]]
    return rest[:seed_at + 1] + [turn] + rest[seed_at + 1:]


def words(seeds: int, w: int) -> Rerank:
    def run(d: Row, rows: list[Row]) -> list[Row]:
        for s in list(rows[:seeds]):
            lack = d["stems"] - s["stems"]
            if not lack:
                continue
            add = [m for m in d["mates"].get(s["id"], []) if m["id"] != s["id"] and abs(m["pos"] - s["pos"]) <= w
                   and m["stems"] & lack]
            if add:
                best = max(add, key=lambda m: (len(m["stems"] & lack), -abs(m["pos"] - s["pos"])))
                rows = _after(rows, next(i for i, r in enumerate(rows) if r["id"] == s["id"]), best)
        return rows
    return run


def pair(seeds: int, share: float, start: int) -> Rerank:
    def run(d: Row, rows: list[Row]) -> list[Row]:
        lack = set(d["stems"])
        for s in rows[:seeds]:
            lack -= s["stems"]
        if not lack or not d["stems"]:
            return rows
        top = rows[0]["score"]
        scored = [(r["score"] + (share * top * len(r["stems"] & lack) / len(d["stems"]) if i >= start else 0.0), -i, r)
                  for i, r in enumerate(rows)]
        return rows[:start] + [x[2] for x in sorted(scored[start:], key=lambda x: (-x[0], -x[1]))]
    return run


def spread(start: int, w: int, cap: int) -> Rerank:
    def run(d: Row, rows: list[Row]) -> list[Row]:
        kept: list[Row] = []
        wait: list[Row] = []
        for r in rows:
            if len(kept) >= start and sum(_near(k, r, w) for k in kept) >= cap:
                wait.append(r)
            else:
                kept.append(r)
        return kept + wait
    return run


def asked(seeds: int, same_wh: bool, short: int = 0) -> Rerank:
    def run(d: Row, rows: list[Row]) -> list[Row]:
        qw = _WH.search(d["q"].lower())
        for s in list(rows[:seeds]):
            if not _ASKS.search(s["text"]):
                continue
            sw = _WH.search(s["text"].lower())
            if same_wh and (qw is None or sw is None or sw.group(1) != qw.group(1)):
                continue
            for m in d["mates"].get(s["id"], []):
                if m["pos"] <= s["pos"] or m["pos"] > s["pos"] + 2 or m["author"] == s["author"]:
                    continue
                if _ASKS.search(m["text"]):
                    break
                if short and len(m["text"].split()) > short:
                    break
                if re.search(r"\w", m["text"]):
                    rows = _after(rows, next(i for i, r in enumerate(rows) if r["id"] == s["id"]), m)
                    break
        return rows
    return run


def own(depth: int, w: int, lam: float) -> Rerank:
    def run(d: Row, rows: list[Row]) -> list[Row]:
        head, tail = list(rows[:depth]), rows[depth:]
        group = list(range(len(head)))
        for i in range(len(head)):
            for j in range(i):
                if _near(head[i], head[j], w):
                    group[i] = group[j]
                    break
        out = list(head)
        for g in set(group):
            slots = [i for i in range(len(head)) if group[i] == g]
            ordered = sorted((head[i] for i in slots), key=lambda r: -(r["score"] + lam * r.get("own", 0.0)))
            for s, r in zip(slots, ordered):
                out[s] = r
        return out + tail
    return run


FAMILIES: dict[str, dict[str, Rerank]] = {
    "words": {f"S{s} W{w}": words(s, w) for s in (1, 3) for w in (1, 3)},
    "pair": {f"S{s} share {sh} from {st + 1}": pair(s, sh, st) for s in (1, 3) for sh in (0.2, 0.4) for st in (1, 5)},
    "spread": {f"from {st + 1} W{w} B{b}": spread(st, w, b) for st in (3, 5) for w in (1, 2) for b in (1, 2)},
    "asked": {f"S{s}{' wh' if wh else ''}{f' short {sh}' if sh else ''}": asked(s, wh, sh) for s in (1, 3)
              for wh in (True, False) for sh in (0, 12)},
    "own": {f"depth {dp} W{w} lam {lam}": own(dp, w, lam) for dp in (10, 15) for w in (1, 2) for lam in (0.5, 1.0)},
}


def counts(data: list[Row]) -> list[list[Any]]:
    """Per set, where the evidence outside the first five sits and how often a top-three hit's burst-mate (outside
    the first five) is evidence, by a feature of the mate: the counts the families were built on."""
    from memengine.brief_reactions import content_words

    out = []
    for s in dict.fromkeys(d["item"].set for d in data):
        ds = [d for d in data if d["item"].set == s]
        missed = in_burst = 0
        feats: dict[str, list[int]] = {k: [0, 0] for k in ("any", "next, other author", "digit",
                                                           "a question word the hit lacks", "reply to a hit that asks")}
        for d in ds:
            ev, top5 = set(d["item"].evidence), [r["ref"] for r in d["rows"][:5]]
            for e in ev - set(top5):
                missed += 1
                in_burst += any(m["ref"] == e for r in d["rows"][:5] for m in d["mates"].get(r["id"], []))
            for r in d["rows"][:3]:
                for m in d["mates"].get(r["id"], []):
                    if m["ref"] in top5 or m["ref"].startswith("episode"):
                        continue
                    nxt = m["pos"] == r["pos"] + 1 and m["author"] != r["author"]
                    got = {"any": True, "next, other author": nxt, "digit": bool(re.search(r"\d", m["text"])),
                           "a question word the hit lacks": bool((d["stems"] - r["stems"]) & m["stems"]),
                           "reply to a hit that asks": nxt and bool(_ASKS.search(r["text"]))}
                    for k, on in got.items():
                        if on:
                            feats[k][0] += m["ref"] in ev
                            feats[k][1] += 1
        fifth = sum(d["rows"][4]["ref"] in d["item"].evidence for d in ds if len(d["rows"]) > 4) / len(ds)
        two = sum(1 for d in ds for r in d["rows"][:5] if r["thread"] and content_words(r["text"], 5) == 2)
        out.append([s, f"{in_burst}/{missed}", *(f"{a}/{b}" for a, b in feats.values()), f"{fifth:.3f}", two])
    return out


def scores(data: list[Row], f: Rerank | None) -> dict[str, dict[str, float]]:
    """Per question key: the metrics of ``f``'s list (the engine's for None)."""
    return {d["item"].key: _score([r["ref"] for r in (f(d, list(d["rows"])) if f else d["rows"])][:10],
                                  d["item"].evidence) for d in data}


def figures(items: list[loo.Item], sc: dict[str, dict[str, float]]) -> str:
    m = loo.set_metrics(items, sc)
    return f"{m['recall@5']:.3f} / {m['recall@10']:.3f} / {m['multi_all@10']:.3f}"


def main(argv: list[str] | None = None) -> int:
    """Every family's variants on the dev sets and the held-outs asked; the leave-one-out row per family."""
    from embedder import get_embedder

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, help="the dev stores (bench/loo.py --reuse)")
    ap.add_argument("--chats", required=True, help="the held-outs' stores: DIR/h30, h35, h37, h38")
    ap.add_argument("--sets", default="30,35,37", help="held-outs scored (38 only at the round's end)")
    ap.add_argument("--third", default="", help="older held-outs (read by earlier rounds) pooled as a third dev set "
                    "of chat folds in the leave-one-out objective, e.g. 12,13,14,15,16,17,18,20,22,23,24")
    args = ap.parse_args(argv)
    emb = loo.QueryCache(get_embedder())
    dev = loo.load_items(loo.DEFAULT_LOCOMO, realchat.DEFAULT_DATA, realchat.DEFAULT_QUESTIONS, Path(args.reuse))
    held: dict[str, list[loo.Item]] = {}
    for s in [x.strip() for x in args.sets.split(",") if x.strip()]:
        name = HELDOUTS[s]
        qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
        st = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.chats) / f"h{s}", emb, reuse=True)
        held[s] = [loo.Item(f"h{s}", q.fold, f"h{s}:{q.id}", st[q.file], q.question, q.evidence,
                            q.category == "multi-hop") for q in qs]
    if args.third:  # WhatsApp-like chats: the two dev sets hold few bursts (LoCoMo's turns are long; 144 of the
        # 191 real-chat questions ask assistant exports)
        loo.SETS = (*loo.SETS, "older")
        for s in [x.strip() for x in args.third.split(",") if x.strip()]:
            name = f"realchat_heldout{s}"
            qs = realchat.load_questions(HERE / "bench" / "data" / f"{name}.jsonl")
            st = realchat.build_chat_stores(qs, HERE / "bench" / "data" / name, Path(args.chats) / f"h{s}", emb,
                                            reuse=True)
            dev += [loo.Item("older", f"{s}:{q.fold}", f"o{s}:{q.id}", st[q.file], q.question, q.evidence,
                             q.category == "multi-hop") for q in qs]
    data = gather(dev + [it for its in held.values() for it in its], emb)
    by = {"dev": [d for d in data if d["item"].set in loo.SETS]}
    for s in held:
        by[s] = [d for d in data if d["item"].set == f"h{s}"]
    head = ["family", "variant", *(f"{s} r@5 / r@10 / multi all@10" for s in loo.SETS),
            *(f"held-out {s}" for s in held)]
    sets = [loo.by_set(dev, s) for s in loo.SETS]
    off = {k: scores(v, None) for k, v in by.items()}
    rows = [["—", "off (the engine)", *(figures(x, off["dev"]) for x in sets),
             *(figures(held[s], off[s]) for s in held)]]
    loo_rows = []
    for fam, variants in FAMILIES.items():
        dev_sc = {"off*": off["dev"]}
        for lab, f in variants.items():
            dev_sc[lab] = scores(by["dev"], f)
            hs = {s: scores(by[s], f) for s in held}
            rows.append([fam, lab, *(figures(x, dev_sc[lab]) for x in sets), *(figures(held[s], hs[s]) for s in held)])
        chosen = loo.loo_choose(dev, dev_sc)
        ho = loo.held_out(dev, chosen, dev_sc)
        on = sum(v != "off*" for v in chosen.values())
        gains = [loo.set_metrics(loo.by_set(dev, s), ho)["recall@5"] - loo.set_metrics(loo.by_set(dev, s),
                                                                                        off["dev"])["recall@5"]
                 for s in loo.SETS]
        loo_rows.append([fam, *(f"{g:+.3f}" for g in gains), f"{on}/{len(chosen)}",
                         ", ".join(sorted({v for v in chosen.values() if v != 'off*'})) or "—"])
    print(md_table(["set", "evidence outside the first five: in a top-five hit's burst", "burst-mates of the first "
                    "three: evidence / all", "next turn, other author", "holding a digit", "a question word the hit "
                    "lacks", "the reply to a hit that asks", "the fifth place: evidence rate",
                    "first-five places of two content words"], counts(data)))
    print()
    print(md_table(head, rows))
    print()
    print(md_table(["family", *(f"{s} LOO r@5 gain" for s in loo.SETS), "folds choosing a variant", "chosen"],
                   loo_rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
