"""Recall on unseen conversations, round 9: updates said without a change word, the update ranking made
cheap, answers that hold only a name (issue 19).

The update mechanisms are judged on chats written for them (no dev set holds an update pair):
``bench/data/recall_updates.jsonl`` (round 8's, 11 updates) and ``bench/data/recall_updates9.jsonl``
(this round's, written before any change: 15 updates, 9 of them said without a change word, 3
look-alikes that are no update, 7 answers that hold only a name). Every variant is a RecallConfig, so
the dev sets' leave-one-out (``--dev``: loo.py's Scorer and round 6's ``judge``) scores the same ones.

    .venv/bin/python bench/recall_round9.py --reuse /tmp/recall9            # own chats only, ~1 min
    .venv/bin/python bench/recall_round9.py --reuse /tmp/recall9 --dev      # + both dev sets' LOO, ~10 min loaded
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loo  # noqa: E402
from bench.common import DEFAULT_LOCOMO, log, md_table  # noqa: E402
from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS  # noqa: E402
from memengine.recall.config import RecallConfig  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SETS = {"round 8": DATA / "recall_updates.jsonl", "round 9": DATA / "recall_updates9.jsonl"}
OFF = replace(RecallConfig(), newer_first="")


def variants() -> dict[str, RecallConfig]:
    """The configs compared (the engine's default is always one of them)."""
    return {
        "off": OFF,
        "slot:pool (round 8)": replace(OFF, newer_first="slot:pool"),
        "turns:pool": replace(OFF, newer_first="turns:pool"),
        "turns (top k only)": replace(OFF, newer_first="turns"),
        "engine default": RecallConfig(),
    }


def own_questions(path: Path, directory: Path, emb: Any) -> list[dict[str, Any]]:
    """Each question with its chat's store (imported as ``mem.py import`` does) and its evidence /
    outdated / distractor snippets resolved to refs (the one message whose text holds each)."""
    from bench.realchat import build_chat_store

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    stores = {f: build_chat_store(path.with_suffix(""), f, directory / path.stem, emb, True)
              for f in sorted({r["file"] for r in rows})}
    for r in rows:
        st = r["store"] = stores[r["file"]]
        for key in ("evidence", "outdated", "distractor"):
            refs = []
            for snippet in r.get(key, []):
                got = st.conn.execute("SELECT ref FROM memories WHERE instr(content, ?) > 0 AND ref LIKE 'whatsapp:%'",
                                      (snippet,)).fetchall()
                if len(got) != 1:
                    raise SystemExit(f"{path}: {r['id']}: {key} {snippet!r} matches {len(got)} messages")
                refs.append(got[0][0])
            r[key + "_refs"] = refs
    return rows


def score(rows: list[dict[str, Any]], cfg: RecallConfig) -> dict[str, dict[str, Any]]:
    """Per question: recall@5, reciprocal rank of the evidence, whether the newer value is above the older
    (updates) or the evidence above its look-alike (keeps), and the top 10's refs."""
    out = {}
    for r in rows:
        res = r["store"].recall(r["question"], k=10, touch=False, config=cfg).results
        refs = [m.ref for m in res]
        ev = r["evidence_refs"]
        got: dict[str, Any] = {"r5": sum(e in refs[:5] for e in ev) / len(ev),
                               "rr": max((1 / (refs.index(e) + 1) for e in ev if e in refs), default=0.0),
                               "top": refs}
        other = (r.get("outdated_refs") or r.get("distractor_refs") or [None])[0]
        if other is not None:
            new = ev[0]
            got["above"] = new in refs and (other not in refs or refs.index(new) < refs.index(other))
        out[r["id"]] = got
    return out


def own_table(rows: list[dict[str, Any]], configs: dict[str, RecallConfig], label: str) -> list[list[Any]]:
    out = []
    for lab, cfg in configs.items():
        sc = score(rows, cfg)
        for kind in ("update", "keep", "category", "reaction", "short"):
            qs = [r for r in rows if r["kind"] == kind]
            if not qs:
                continue
            above = [sc[r["id"]]["above"] for r in qs if "above" in sc[r["id"]]]
            out.append([label, lab, kind, len(qs), f"{loo.mean([sc[r['id']]['r5'] for r in qs]):.3f}",
                        f"{loo.mean([sc[r['id']]['rr'] for r in qs]):.3f}",
                        f"{sum(above)}/{len(above)}" if above else ""])
    return out


# --------------------------------------------------------------------------- 3: answers that hold only a name

_WH = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(\w{3,})", re.I)


def category_answers(scorer: loo.Scorer, items: list[Any], max_words: int = 6) -> list[list[Any]]:
    """Dev questions asking a category ("which venue...", "what book...") whose evidence turn is short
    (<= ``max_words`` words), does not hold the category word, and whose thread holds it in the 1-3 turns
    before: the pattern a "category word from the turn before" mechanism would serve; how many, and how
    many of those turns the engine already has in its top 5."""
    from memengine.text import bare_text, count_words, query_terms

    rows: dict[tuple[str, str], int] = {}
    examples = []
    for it in items:
        m = _WH.search(it.question)
        if m is None:
            continue
        noun = query_terms(m.group(1))
        if not noun:
            continue
        top5 = scorer.ranked(it, RecallConfig())[:5]
        for ref in it.evidence:
            r = it.store.conn.execute("SELECT thread, position, author, content FROM memories WHERE ref = ?",
                                      (ref,)).fetchone()
            if r is None or r[0] is None or r[1] is None:
                continue
            text = bare_text(r[3], r[2])
            if count_words(text, max_words + 1) > max_words:
                continue
            if set(noun) & set(query_terms(text)):
                continue
            before = it.store.conn.execute("SELECT content, author FROM memories WHERE thread = ? AND position < ? "
                                           "AND position >= ?", (r[0], r[1], r[1] - 3)).fetchall()
            named = any(set(noun) & set(query_terms(bare_text(c, a))) for c, a in before)
            key = (it.set, "category word 1-3 turns before" if named else "category word not near")
            rows[key] = rows.get(key, 0) + 1
            hit = "in top 5" if ref in top5 else "missed"
            rows[(it.set, f"{key[1]}, {hit}")] = rows.get((it.set, f"{key[1]}, {hit}"), 0) + 1
            if named and len(examples) < 10:
                examples.append(f"{it.key}: {it.question!r} -> {text!r} ({hit})")
    for e in examples:
        log("  " + e)
    return [[s, w, n] for (s, w), n in sorted(rows.items())]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", metavar="DIR", required=True, help="stores live here (as bench/loo.py)")
    ap.add_argument("--dev", action="store_true", help="also both dev sets: every variant judged by leave-one-out")
    ap.add_argument("--category", action="store_true", help="count the dev questions whose answer holds only a name")
    ap.add_argument("--show", action="store_true", help="print each update question's top 5 per variant")
    args = ap.parse_args(argv)
    directory = Path(args.reuse)
    from embedder import get_embedder

    emb = loo.QueryCache(get_embedder())
    configs = variants()
    table = []
    for label, path in SETS.items():
        rows = own_questions(path, directory, emb)
        table += own_table(rows, configs, label)
        if args.show:
            for lab, cfg in configs.items():
                sc = score(rows, cfg)
                for r in rows:
                    if r["kind"] in ("update", "keep"):
                        top = [x.split(":")[2][5:16] for x in sc[r["id"]]["top"][:5]]
                        log(f"  {lab:22} {r['id']}: r5 {sc[r['id']]['r5']:.0f} above {sc[r['id']].get('above')} "
                            f"ev {r['evidence_refs'][0].split(':')[2][5:16]} old "
                            f"{[x.split(':')[2][5:16] for x in r.get('outdated_refs') or r.get('distractor_refs') or []]}"
                            f" top5 {top}")
    print("# Round 9: the own chats (recall@5, MRR, the newer value / the evidence above the turn it is "
          "confused with)\n")
    print(md_table(["chats", "variant", "kind", "n", "recall@5", "MRR", "above"], table))
    if args.dev or args.category:
        items = loo.load_items(Path(DEFAULT_LOCOMO), Path(DEFAULT_DATA), Path(DEFAULT_QUESTIONS), directory)
        scorer = loo.Scorer(items, None)
    if args.category:
        print("\n# Dev questions asking a category whose answer turn (<= 6 words) does not name it\n")
        print(md_table(["set", "where the category word is", "evidence turns"], category_answers(scorer, items)))
    if args.dev:
        from bench.recall_round6 import judge

        base = scorer.scores(OFF)
        got = {lab: scorer.scores(cfg) for lab, cfg in configs.items() if lab != "off"}
        row = judge(items, "round 9 variants", base, got)
        print("\n# Both dev sets: the variants against the engine with the update ranking off\n")
        print(md_table(["family", "best in-sample", "LoCoMo r@5 base / best / LOO", "LoCoMo gain in-sample",
                        "LoCoMo gain LOO", "LoCoMo folds +/−/=", "LoCoMo r@10 gain",
                        "LoCoMo multi all@10 base / best / LOO", "real r@5 base / best / LOO", "real gain in-sample",
                        "real gain LOO", "real folds +/−/=", "real r@10 gain",
                        "real multi all@10 base / best / LOO", "folds choosing a variant", "verdict"], [row]))
        for lab in got:
            n = sum(scorer.ranked(it, configs[lab]) != scorer.ranked(it, OFF) for it in items)
            log(f"{lab}: top 10 changed on {n} dev questions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
