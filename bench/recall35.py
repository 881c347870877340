"""Issue 19, round 35: long messages past the model's window (AI-assistant exports, long notes).

MiniLM reads at most 256 word pieces of a memory (embedder.py MAX_TOKENS); the rest is keyword-indexed but invisible to
the vector side. Held-out 33 (``bench/data/realchat_heldout33``, committed with the base score before any engine code):
a Galway illustrator's ChatGPT export (13 conversations: photos shrunk with ImageMagick, a print shop's name, a mural
quote, a marathon plan, a move to Cork…), a Manchester nurse's Claude export (6 conversations: a deposit dispute, a
used car, night-shift sleep, a best man's speech, an allotment, a rota sheet) and a Leeds product manager's markdown
notes folder (meetings, a Portugal trip, a kitchen renovation…). Long assistant answers with lists, code blocks and
tables; questions whose evidence sits past the first 256 word pieces of its memory flagged ``past_256``. Scored as every
held-out chat set is (``bench/recall_round12.py`` through round 32's scorer, ``bench/recall32.py``).

    python bench/recall35.py heldout --reuse /tmp/recall35/h33                 # held-out 33, this tree
    python bench/recall35.py heldout --reuse /tmp/recall35/h33 --misses
    python bench/recall35.py heldout --resolve DRAFT.json --reuse DIR          # authoring: texts -> refs, flags
    python bench/recall35.py heldout --history --reuse /tmp/recall35/h33       # one store: a whole history (below)
    python bench/recall35.py where --reuse /tmp/recall35/ws                    # real-chat dev: where evidence sits

Each file alone is a small store (20-60 messages), where the keyword side finds nearly everything. ``--history`` asks
the same questions of ONE store holding the three files and, as the rest of a person's history, the AI-assistant
exports of the older held-outs (15, 16, 17, 18, 20, 21, 22, 24) and held-out 23's two long chats (~3,000 memories):
the long answers of other conversations then compete with the evidence, as in a real import of years.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout33"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout33.jsonl"
CHATS = {"conversations.json": "the illustrator's ChatGPT export", "claude_conversations.json": "the nurse's Claude export",
         "notes": "the product manager's notes folder"}
HISTORY = ["realchat_heldout15/claude_export.json", "realchat_heldout16/chatgpt_export.json",
           "realchat_heldout17/studioflow_export.json", "realchat_heldout18/claude_export.json",
           "realchat_heldout20/relocation_export.json", "realchat_heldout21/danube_export.json",
           "realchat_heldout22/claude_pottery.json", "realchat_heldout24/chatgpt_puppy.json",
           "realchat_heldout23/radar_canoe.txt", "realchat_heldout23/galway_lusaka.txt"]
WINDOW = 256  # embedder.MAX_TOKENS when this set was written


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Round 32's table by kind plus the questions whose evidence sits past the first 256 word pieces (and the rest)."""
    from bench import recall32

    table = recall32.kinds(rows, meta, CHATS)
    extra = {"evidence past 256 word pieces": [r for r in rows if meta[r["id"]].get("past_256")],
             "evidence within the first 256": [r for r in rows if not meta[r["id"]].get("past_256")]}
    from bench.recall_round27 import kinds as by_kind

    return table[:-1] + [[name, *by_kind(sub, meta)[-1][1:]] for name, sub in extra.items() if sub] + table[-1:]


def heldout(argv: list[str]) -> int:
    """Held-out 33 by kind: round 32's scorer (bench/recall32.py) pointed at this set."""
    from bench import realchat, recall_updates25

    if "--history" in argv:
        argv = [a for a in argv if a != "--history"]
        whole = realchat.build_chat_store

        def one_store(questions: Any, data: Path, directory: Path, embedder: Any = None, reuse: bool = False,
                      one_store: bool = False) -> dict[str, Any]:
            # round 12's scorer unchanged: every question's file maps to the one store of the whole history
            rels = [f"{DATA.name}/{f}" for f in CHATS] + HISTORY
            st = whole(DATA.parent, rels, directory / "history", embedder, reuse)
            return {f: st for f in CHATS}

        realchat.build_chat_stores = one_store  # type: ignore[assignment]
    return recall_updates25.run(argv, __doc__, DATA, QUESTIONS, kinds,
                                lambda draft, reuse: _resolve(draft, reuse))


def token_offset(embedder: Any, content: str, text: str) -> int:
    """Word pieces of ``content`` before ``text`` starts (the model's tokenizer, no special tokens: the model reads
    pieces 0 .. WINDOW - 3 of a text, [CLS] and [SEP] taking two of its WINDOW)."""
    at = content.find(text)
    if at < 0:
        return -1
    return int(embedder.count_tokens(content[:at]))


def _resolve(draft: Path, reuse: Path) -> int:
    """Round 27's resolver on this set, then each question's ``past_256``: some evidence text starts past the first
    256 word pieces of its memory: at or past piece WINDOW - 2 of the text (the embedder's own count; [CLS] and [SEP]
    take two of the window)."""
    from bench import realchat, recall32
    from embedder import get_embedder

    code = recall32.resolve(draft, reuse, DATA, QUESTIONS)
    if code:
        return code
    emb = get_embedder()
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in rows:
        st = realchat.build_chat_store(DATA, r["file"], reuse, emb, reuse=True)
        offs = []
        for ref, text in zip(r["evidence"], r["evidence_text"]):
            content = st.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()[0]
            offs.append(token_offset(emb, content, text))
        r["evidence_offset"] = offs
        r["past_256"] = any(o >= WINDOW - 2 for o in offs)
    with QUESTIONS.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    n = sum(r["past_256"] for r in rows)
    print(f"{n} of {len(rows)} questions have evidence past {WINDOW} word pieces")
    return 0


def where(argv: list[str]) -> int:
    """Where the evidence of the real-chat dev set's questions sits: each question's longest evidence message in word
    pieces (the model reads 254 of them), the questions the engine misses at 5 by that length, and where the answer
    starts when a long evidence message says it word for word. ``where --reuse DIR`` (the dev stores: ``DIR/loo/
    realchat``, bench/loo.py's layout)."""
    import argparse

    from bench.common import md_table
    from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS, build_chat_stores, load_questions
    from embedder import get_embedder

    ap = argparse.ArgumentParser(prog="recall35.py where")
    ap.add_argument("--reuse", required=True, metavar="DIR")
    args = ap.parse_args(argv)
    emb = get_embedder()
    qs = load_questions(DEFAULT_QUESTIONS)
    stores = build_chat_stores(qs, DEFAULT_DATA, Path(args.reuse) / "loo" / "realchat", emb, reuse=True)
    groups: dict[str, list[bool]] = {}
    offsets: list[int] = []
    for q in qs:
        st = stores[q.file]
        lens = []
        for ref in q.evidence:
            row = st.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()
            content = row[0] if row else ""
            lens.append(emb.count_tokens(content))
            at = content.lower().find(q.answer.lower()) if len(q.answer) >= 4 else -1
            if at >= 0 and lens[-1] > WINDOW - 2:
                offsets.append(token_offset(emb, content, content[at:at + len(q.answer)]))
        refs = [m.ref for m in st.recall(q.question, k=5, touch=False).results]
        longest = max(lens)
        key = ("evidence within 254 pieces" if longest <= WINDOW - 2 else
               "evidence 255-512 pieces" if longest <= 512 else "evidence over 512 pieces")
        groups.setdefault(key, []).append(any(e in refs for e in q.evidence))
    rows = [[k, len(v), sum(not hit for hit in v)] for k, v in sorted(groups.items())]
    print(md_table(["real-chat dev", "questions", "missed at 5"], rows))
    past = sum(o >= WINDOW - 2 for o in offsets)
    print(f"\nanswers said word for word in a long evidence message: {len(offsets)}, "
          f"{past} of them past the first 254 pieces (offsets {sorted(offsets)})")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``heldout ...`` or ``where ...``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    if args[:1] == ["where"]:
        return where(args[1:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
