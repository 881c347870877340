"""Issue 19, round 27: the current answer and questions in other words on held-out 24 (bench/data/realchat_heldout24).

``bench/recall_round12.py`` on the set (each chat imported into its own store as ``mem.py import`` does, turn-level
scoring, "newer above older" for the questions about a fact that changed), then the figures by kind:

- updates whose newer turn shares no content word with the question (``new_no_q_word``, found by ``flags``: lower-case
  words of 3+ letters outside a short stop list), updates whose newer turn names the new value WITHOUT the old one
  (``new_without_old``), a provider or venue replaced after the old one closed, told in a turn naming neither the kind
  word nor the old name (``replaced_closed``);
- traps (``kind: "trap"``: a later turn naming another name that is NO update: a hypothetical, a question, another
  person's), scored as "decoys above" (a decoy above the evidence in the top 10, or in it while the evidence is not);
- questions in words the chat does not use (``other_words``: no content word of the question in the evidence turns;
  ``other_words_chat``: in no turn of the chat at all);
- each chat: a Utrecht couple renovating a house (nl), a Porto apartment building's group (pt), two partners running a
  dumpling stall in Bristol (en), a Bologna choir's group (it), a puppy owner's ChatGPT export (en).

    python bench/recall_round27.py --reuse /tmp/recall27/h24                 # this tree
    python bench/recall_round27.py --reuse /tmp/recall27/h24 --misses        # every miss
    python bench/recall_round27.py --reuse DIR --config FIELD=VALUE          # a switch changed
    python bench/recall_round27.py --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.recall_updates25 import decoy_above  # noqa: E402  (the same decoy test as round 25)

DATA = HERE / "bench" / "data" / "realchat_heldout24"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout24.jsonl"
CHATS = {"huis_utrecht.txt": "the Utrecht house (nl)", "predio_porto.txt": "the Porto building (pt)",
         "stall_bristol.txt": "the Bristol stall (en)", "coro_bologna.txt": "the Bologna choir (it)",
         "chatgpt_puppy.json": "the puppy ChatGPT export (en)"}

# Function words of the five languages: a word shared only through these is no shared word.
_STOP = set("""the and for our who what which where when how why does did are was were is has have with from now that this
there their they them his her him its you your yes not but can will from into out new
aan should van het een wie wat waar wanneer hoe welke zijn bij met voor naar onze ons zij hij wij jij ook nog niet dat die
que quem qual onde quando como porque para com uma umas uns dos das nos nas pelo pela está são foi vai
chi che cosa dove quando come perché per con una del della dei delle nel nella alla allo sono abbiamo
""".split())


def words(text: str) -> set[str]:
    """Content words of ``text``: lower-case runs of 3+ letters outside a short stop list of the five languages."""
    return {w for w in re.findall(r"[^\W\d_]{3,}", text.lower()) if w not in _STOP}


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older, decoys above) by kind and by chat."""
    upd = [r for r in rows if meta[r["id"]].get("kind") == "update"]
    subsets = {
        "update: newer turn shares no word with the question": [r for r in upd if meta[r["id"]].get("new_no_q_word")],
        "update: new name said without the old": [r for r in upd if meta[r["id"]].get("new_without_old")],
        "update: replaced after closing, neither kind word nor old name": [
            r for r in upd if meta[r["id"]].get("replaced_closed")],
        "update: a name replaced": [r for r in upd if meta[r["id"]].get("name_changed")],
        "update: another value": [r for r in upd if not meta[r["id"]].get("name_changed")],
        "every fact that changed": upd,
        "traps (a later turn that is no update)": [r for r in rows if meta[r["id"]].get("kind") == "trap"],
        "other words (none in the evidence)": [r for r in rows if meta[r["id"]].get("other_words")],
        "other words (none in the chat)": [r for r in rows if meta[r["id"]].get("other_words_chat")],
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


def flags(row: dict[str, Any], chat_words: set[str]) -> dict[str, bool]:
    """The measured flags of a draft question: its newer turn shares no content word with it (updates), no content
    word of it is in its evidence turns, or in any turn of its chat (``other_words``/``other_words_chat``; only for
    the questions the author marked ``other_words``)."""
    q = words(row["question"])
    ev = set().union(*(words(t) for t in row.get("evidence_text_full", [])))
    out: dict[str, bool] = {}
    if row.get("kind") == "update":
        first = words(row["evidence_text_full"][0])
        out["new_no_q_word"] = not (q & first)
    if row.get("other_words"):
        out["other_words"] = not (q & ev)
        out["other_words_chat"] = not (q & chat_words)
    return out


def resolve(draft: Path, reuse: Path) -> int:
    """Authoring: the questions of ``draft`` (a JSON list with ``evidence_text``/``outdated_text``/``decoy_text``)
    with each text replaced by the ref of the one message of its chat holding it, and the measured flags, written to
    the set's jsonl."""
    from bench import realchat
    from embedder import get_embedder

    rows = json.loads(draft.read_text(encoding="utf-8"))
    emb = get_embedder()
    bad = []
    for r in rows:
        st = realchat.build_chat_store(DATA, r["file"], reuse, emb, reuse=True)
        msgs = list(st.conn.execute("SELECT ref, content FROM memories WHERE ref IS NOT NULL"
                                    " AND ref NOT LIKE 'episode:%'"))
        for field in ("evidence", "outdated", "decoy"):
            refs, full = [], []
            for text in r.get(f"{field}_text", []):
                got = [(ref, content) for ref, content in msgs if text in content]
                if len(got) != 1:
                    bad.append(f"{r['id']} {field}: {text!r} found {len(got)} times")
                refs += [g[0] for g in got[:1]]
                full += [g[1] for g in got[:1]]
            if refs:
                r[field] = refs
                r[f"{field}_text_full"] = full
        if not bad:
            chat_words = set().union(*(words(c) for _, c in msgs))
            if r.get("other_words"):
                r.update(flags(r, chat_words))
            elif r.get("kind") == "update":
                r.update(flags(r, chat_words))
        for field in ("evidence", "outdated", "decoy"):
            r.pop(f"{field}_text_full", None)
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


def main(argv: list[str] | None = None) -> int:
    """Round 27's held-out chats, scored by kind (``--rows OUT.json`` tables a saved run)."""
    from bench import recall_updates25

    return recall_updates25.run(argv, __doc__, DATA, QUESTIONS, kinds, resolve)

if __name__ == "__main__":
    raise SystemExit(main())
