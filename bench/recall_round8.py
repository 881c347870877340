"""Recall on unseen conversations, round 8: answer-blind priors, updates, short answers (issue 19).

Judged as rounds 5-7 (loo.py's Scorer, whose first questions per variant also go through
``recall()``; leave-one-conversation-out over the 28 folds of both dev sets, objective the mean of
the two sets' recall@5; kept only if the held-out gain is > 0 on one set and >= 0 on the other,
and real-chat recall does not fall). Every variant here is an engine switch (RecallConfig), so
one retrieval per question serves them all.

1. ``answer`` — the person, reply and time priors times how much a chat turn can answer
   (memengine/recall/answerable.py: a reaction keeps none; another turn min(1, words / n));
   ``answer-person`` / ``answer-reply`` / ``answer-time``: one prior at a time.
2. ``newer`` — a later turn of the same chat that changes the value of a top-k turn is ranked
   above it (memengine/recall/updates.py: the facts engine's rules, a change cue between two
   values, or either; ``:pool`` brings the later turn in from the whole candidate pool). Also
   scored on the update questions of ``bench/data/recall_updates.jsonl`` (``--updates``),
   LoCoMo's temporal questions are broken out.
3. ``--short``: where the short evidence turns the engine misses stand against the question
   they answer (the asker's question two or more turns back, or in another author's burst), the
   look round 6's reply-pair families did not take.

    .venv/bin/python bench/recall_round8.py --reuse /tmp/recall8              # every family, ~10 min loaded
    .venv/bin/python bench/recall_round8.py --reuse /tmp/recall8 --only answer --short
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, load_locomo, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS, load_questions  # noqa: E402
from bench.recall_round6 import judge  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402
from memengine.text import bare_text, count_words  # noqa: E402

# the engine before this round: both switches off (each family's variants are judged against it)
D = replace(RecallConfig(), answer_words=0, newer_first="")
UPDATES = Path(__file__).resolve().parent / "data" / "recall_updates.jsonl"


def families() -> dict[str, dict[str, RecallConfig]]:
    return {
        "answer": {f"all three, words {n}": replace(D, answer_words=n) for n in (1, 2, 3)},
        "answer-person": {f"person, words {n}": replace(D, answer_words=n, answer_priors=("person",)) for n in (1, 3)},
        "answer-reply": {f"reply, words {n}": replace(D, answer_words=n, answer_priors=("reply",)) for n in (1, 3)},
        "answer-time": {f"time, words {n}": replace(D, answer_words=n, answer_priors=("time",)) for n in (1, 3)},
        "newer": {m: replace(D, newer_first=m) for m in ("rules", "slot", "either", "slot:pool")},
        "both": {"answer_words 1 + slot:pool (the engine after)": RecallConfig()},
    }


def categories(items: list[Any]) -> dict[str, str]:
    """item key -> category name (LoCoMo's numbers named as bench/common.py does)."""
    from bench.common import CATEGORIES

    convs, _ = load_locomo(Path(DEFAULT_LOCOMO))
    out = {f"L:{c.sample_id}:{q.index}": CATEGORIES[q.category] for c in convs for q in c.questions}
    out.update({f"R:{q.id}": q.category for q in load_questions(Path(DEFAULT_QUESTIONS))})
    return out


class Scorer(loo.Scorer):
    """loo's Scorer keeping each variant's top 10 too (``changed`` compares them)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.tops: dict[tuple[str, str], list[str]] = {}

    def ranked(self, it: Any, cfg: RecallConfig) -> list[str]:
        key = (it.key, loo.cfg_key(cfg))
        if key not in self.tops:
            self.tops[key] = super().ranked(it, cfg)
        return self.tops[key]


def changed(scorer: loo.Scorer, items: list[Any], cfg: RecallConfig) -> int:
    """Questions whose top 10 differs from the engine's (how often a mechanism acts at all)."""
    return sum(scorer.ranked(it, cfg) != scorer.ranked(it, D) for it in items)


# --------------------------------------------------------------------------- the round's own chats

def own_questions(directory: Path) -> list[dict[str, Any]]:
    """``recall_updates.jsonl``: each question with its chat's store (imported as ``mem.py import`` does)
    and its evidence / outdated snippets resolved to refs (the one message whose text holds each)."""
    from bench.realchat import build_chat_store
    from embedder import get_embedder

    rows = [json.loads(line) for line in UPDATES.read_text(encoding="utf-8").splitlines() if line.strip()]
    emb = loo.QueryCache(get_embedder())
    stores = {f: build_chat_store(UPDATES.with_suffix(""), f, directory / "updates", emb, True)
              for f in sorted({r["file"] for r in rows})}
    for r in rows:
        st = r["store"] = stores[r["file"]]
        for key in ("evidence", "outdated"):
            refs = []
            for snippet in r.get(key, []):
                got = st.conn.execute("SELECT ref FROM memories WHERE instr(content, ?) > 0 AND ref LIKE 'whatsapp:%'",
                                      (snippet,)).fetchall()
                if len(got) != 1:
                    raise SystemExit(f"{UPDATES}: {r['id']}: {key} {snippet!r} matches {len(got)} messages")
                refs.append(got[0][0])
            r[key + "_refs"] = refs
    return rows


def own_table(rows: list[dict[str, Any]], configs: dict[str, RecallConfig]) -> list[list[Any]]:
    """Per kind and config: recall@5 and MRR of the evidence; updates: the newest value above the one it
    replaced; reactions: the named person's reactions in the top 5."""
    from memengine.brief_reactions import is_reaction

    out = []
    for lab, cfg in configs.items():
        for kind in ("update", "reaction", "short"):
            qs = [r for r in rows if r["kind"] == kind]
            r5, rr, above, reacts = [], [], [], 0
            for r in qs:
                res = r["store"].recall(r["question"], k=10, touch=False, config=cfg).results
                refs = [m.ref for m in res]
                ev = r["evidence_refs"]
                r5.append(sum(e in refs[:5] for e in ev) / len(ev))
                rr.append(max((1 / (refs.index(e) + 1) for e in ev if e in refs), default=0.0))
                if kind == "update":
                    new, old = ev[0], r["outdated_refs"][0]
                    above.append(new in refs and (old not in refs or refs.index(new) < refs.index(old)))
                reacts += sum(1 for m in res[:5] if m.thread is not None and is_reaction(bare_text(m.content, m.author)))
            out.append([lab, kind, len(qs), f"{loo.mean(r5):.3f}", f"{loo.mean(rr):.3f}",
                        f"{sum(above)}/{len(above)}" if above else "", reacts])
    return out


# --------------------------------------------------------------------------- 3: short answers

def short_misses(scorer: loo.Scorer, items: list[Any], max_words: int = 12) -> list[list[Any]]:
    """Short evidence turns outside the engine's top 5, by where their question is."""
    rows: dict[tuple[str, str], int] = {}
    examples: list[str] = []
    for it in items:
        top5 = scorer.ranked(it, D)[:5]
        conn = it.store.conn
        for ref in it.evidence:
            if ref in top5:
                continue
            r = conn.execute("SELECT thread, position, author, content FROM memories WHERE ref = ?", (ref,)).fetchone()
            if r is None or r[0] is None or r[1] is None:
                continue
            text = bare_text(r[3], r[2])
            if count_words(text, max_words + 1) > max_words:
                continue
            before = conn.execute("SELECT position, author, content FROM memories WHERE thread = ? AND position < ? "
                                  "AND position >= ? AND status = 'active' ORDER BY position DESC",
                                  (r[0], r[1], r[1] - 6)).fetchall()
            where = "no question within 6 turns"
            for n, (_pos, author, content) in enumerate(before, 1):
                if author != r[2] and "?" in bare_text(content, author):
                    burst = any(a == author for _p, a, _c in before[: n - 1])
                    where = ("question just before (round 6's pair)" if n == 1 else
                             f"question {n} turns back" + (", its asker went on" if burst else
                                                           ", other turns between"))
                    break
                if author == r[2] and "?" in bare_text(content, author):
                    where = "own question before it"
                    break
            rows[(it.set, where)] = rows.get((it.set, where), 0) + 1
            if len(examples) < 12 and where.startswith("question") and "just before" not in where:
                examples.append(f"{it.key}: {it.question!r} -> {text!r} ({where})")
    for e in examples:
        log("  " + e)
    return [[s, w, n] for (s, w), n in sorted(rows.items())]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="dev stores (as bench/loo.py)")
    ap.add_argument("--only", default="", help="comma list of families (default: all)")
    ap.add_argument("--short", action="store_true", help="also where the missed short answers' questions are")
    ap.add_argument("--own", action="store_true", help="also the round's own chats (bench/data/recall_updates*)")
    args = ap.parse_args(argv)
    for p in (Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA)):
        if not p.exists():
            print(f"error: dev data not found: {p}", file=sys.stderr)
            return 2
    directory = Path(args.reuse)
    items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
    cats = categories(items)
    scorer = Scorer(items, None)  # (no disk cache: ``changed`` needs every variant's top 10 anyway)
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    base = scorer.scores(D)
    rows, detail, temporal = [], [], []
    for name, variants in families().items():
        if only and name not in only:
            continue
        log(f"family {name}: {len(variants)} variants")
        got = {lab: scorer.scores(cfg) for lab, cfg in variants.items()}
        rows.append(judge(items, name, base, got))
        for lab, sc in {"engine": base, **got}.items():
            m = [loo.set_metrics(loo.by_set(items, s), sc) for s in loo.SETS]
            n = changed(scorer, items, variants[lab]) if lab in variants else 0
            detail.append([name, lab, *[f"{x['recall@5']:.4f} / {x['recall@10']:.4f} / {x['multi_all@10']:.3f} / "
                                        f"{x['mrr']:.4f}" for x in m], n])
            tq = [it for it in items if cats.get(it.key) == "temporal"]
            for s in loo.SETS:
                ts = [it for it in tq if it.set == s]
                temporal.append([name, lab, s, len(ts), f"{loo.mean([sc[it.key]['recall@5'] for it in ts]):.4f}",
                                 f"{loo.mean([sc[it.key]['mrr'] for it in ts]):.4f}"])
    print("# Round 8 on both dev sets (LoCoMo dev 760 questions, real chats 191); objective: mean recall@5\n")
    print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                    "LoCoMo gain LOO", "LoCoMo folds held-out +/−/=", "LoCoMo r@10 gain",
                    "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                    "real gain LOO", "real folds held-out +/−/=", "real r@10 gain",
                    "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"], rows))
    print("\n## Every variant, in-sample: recall@5 / recall@10 / multi-hop all@10 / MRR, and questions whose top 10 "
          "changed\n")
    print(md_table(["family", "variant", "LoCoMo", "real chats", "top 10 changed"], detail))
    print("\n## Temporal questions (recall@5, MRR)\n")
    print(md_table(["family", "variant", "set", "n", "recall@5", "MRR"], temporal))
    if args.own:
        rows8 = own_questions(directory)
        configs = {"before (both off)": D, **{lab: cfg for fam in families().values() for lab, cfg in fam.items()}}
        print("\n## The round's own chats (bench/data/recall_updates.jsonl): recall@5, MRR, the update above the "
              "value it replaced, reactions in the top 5\n")
        print(md_table(["variant", "kind", "n", "recall@5", "MRR", "update above", "reactions in top 5"],
                       own_table(rows8, configs)))
    if args.short:
        print("\n## Short evidence turns (<= 12 words) outside the engine's top 5, by where their question is\n")
        print(md_table(["set", "where the question is", "evidence turns"], short_misses(scorer, items)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
