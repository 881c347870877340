"""Do two trees rank alike? The top-10 ids of the same recalls on the same store, by each tree's own code.

    .venv/bin/python bench/same_top.py --base /work/base-start --store /tmp/scl/scale-100000.v1.db
    .venv/bin/python bench/same_top.py --base DIR --store DB --embedder hash --questions 300 --compounds 100

For a change meant to keep every ranking (a faster path to the same scores): each tree runs, in its own
process (``--emit``: its own ``memengine`` first on the path), ``store.recall(q, k=10, touch=False)`` for

* the first ``--questions`` LoCoMo questions (categories 1-4, as scale.py and agent_latency.py ask them);
* ``--compounds`` compound-word queries: a question whose longest content word is glued to the next one
  ("When did Caroline go to the LGBTQ supportgroup?"), a word no memory holds, whose parts recall's word
  parts look up (memengine/recall/parts.py), and which the instance step reads anchors for.

``--chats DIR``: instead of ``--store`` and LoCoMo, a store of the held-out real chats (bench/data/
realchat_heldout12-14, realchat_posthoc12: Dutch, Swedish, German, Italian compounds, four more locales,
vocabulary-gap questions), built in DIR by this tree's ``mem.py import`` with the embedder chosen, asked
their own questions: small stores, where the instance and word-part steps fire on most questions.

``--embedder real`` embeds queries with the store's model; ``hash`` with the hashing test embedder under
the store's model id (query vectors unrelated to the stored ones: another candidate pool, the fusion's
vector side by chance), so both embedders' candidate pools are compared. The store is read only
(``touch=False``; open a copy anyway). Exit 1 and the first differing query when any top 10 differs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


def queries(n_questions: int, n_compounds: int) -> list[str]:
    """LoCoMo questions, then compound-word variants of the first ``n_compounds`` of them."""
    sys.path.insert(0, str(HERE.parent.parent))
    from bench.common import DEFAULT_LOCOMO, load_locomo

    convs, _ = load_locomo(DEFAULT_LOCOMO)
    qs = [" ".join(q.question.split()) for c in convs for q in c.questions if q.category in (1, 2, 3, 4)]
    out = qs[:n_questions]
    for q in qs:
        if len(out) >= n_questions + n_compounds:
            break
        toks = q.split()
        pairs = [j for j in range(len(toks) - 1) if re.fullmatch(r"[a-z]{3,}", toks[j])
                 and re.fullmatch(r"[a-z]{3,}\W?", toks[j + 1]) and len(toks[j] + toks[j + 1]) >= 9]
        if pairs:  # the longest pair of adjacent lower-case words: "support group" -> "supportgroup"
            j = max(pairs, key=lambda j: (len(toks[j] + toks[j + 1]), -j))
            out.append(" ".join([*toks[:j], toks[j] + toks[j + 1], *toks[j + 2:]]))
    return out


CHAT_SETS = ("realchat_heldout12", "realchat_heldout13", "realchat_heldout14", "realchat_posthoc12")


def chat_store(directory: Path, embedder: str) -> tuple[str, list[str]]:
    """The held-out chats' store (built once per embedder by ``mem.py import``) and their questions."""
    data = HERE.parent / "data"
    db = directory / f"chats-{embedder}.db"
    env = {**os.environ, **({"MEM_EMBEDDER": "hash"} if embedder == "hash" else {}), "MEM_NO_SERVER": "1"}
    if not db.exists():
        directory.mkdir(parents=True, exist_ok=True)
        for name in CHAT_SETS:
            subprocess.run([sys.executable, str(HERE.parent.parent / "mem.py"), "--db", str(db), "import", "whatsapp",
                            str(data / name)], env=env, check=True, capture_output=True)
    qs = [json.loads(line)["question"] for name in CHAT_SETS
          for line in (data / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return str(db), qs


def emit(store_path: str, embedder: str, qs: list[str]) -> list[list[int]]:
    """Top-10 ids of each query, by the ``memengine`` first on ``sys.path``."""
    import memory_core as core

    emb: Any = None
    if embedder == "hash":
        from embedder import HashEmbedder

        probe = core.MemoryStore(store_path, fast_start=False)
        model = probe.meta("embedding_model")
        probe.close()
        emb = HashEmbedder()
        emb.model_id = str(model or emb.model_id)  # (a real model's vectors: queried by hashed ones)
    store = core.MemoryStore(store_path, fast_start=False, **({"embedder": emb} if emb is not None else {}))
    try:
        store.warm_up()
        return [[m.id for m in store.recall(q, k=10, touch=False).results] for q in qs]
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, help="the other tree (a checkout with .venv)")
    ap.add_argument("--store")
    ap.add_argument("--chats", type=Path, help="build (once) and ask the held-out chats' store in this folder")
    ap.add_argument("--embedder", choices=("real", "hash"), default="real")
    ap.add_argument("--questions", type=int, default=300)
    ap.add_argument("--compounds", type=int, default=100)
    ap.add_argument("--emit", type=Path, help=argparse.SUPPRESS)  # (internal: the tree to import, in a subprocess)
    args = ap.parse_args()
    if args.chats:
        args.store, qs = chat_store(args.chats, args.embedder)
        args.questions, args.compounds = len(qs), 0
    elif args.store:
        qs = queries(args.questions, args.compounds)
    else:
        ap.error("--store or --chats is required")
    if args.emit:
        sys.path.insert(0, str(args.emit))
        for mod in [m for m in sys.modules if m == "bench" or m.startswith("bench.")]:
            del sys.modules[mod]  # (the tree's own modules, not this one's)
        print(json.dumps(emit(args.store, args.embedder, qs)))
        return
    if args.base is None:
        ap.error("--base is required")
    tops = {}
    for name, tree in (("base", args.base.resolve()), ("this", HERE.parent.parent)):
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        where = ["--chats", str(args.chats)] if args.chats else ["--store", args.store, "--questions",
                                                                 str(args.questions), "--compounds", str(args.compounds)]
        out = subprocess.run([str(tree / ".venv" / "bin" / "python"), str(HERE), "--emit", str(tree), *where,
                              "--embedder", args.embedder], env=env, cwd=tree, check=True,
                             capture_output=True, text=True).stdout
        tops[name] = json.loads(out.strip().splitlines()[-1])
    differ = [i for i, (a, b) in enumerate(zip(tops["base"], tops["this"])) if a != b]
    what = "held-out chats' questions" if args.chats else (
        f"{args.questions} LoCoMo questions, {len(qs) - args.questions} compound-word")
    print(f"{len(qs)} recalls ({what}), "
          f"embedder {args.embedder}, {args.store}: {len(qs) - len(differ)} same top 10, {len(differ)} differ")
    if differ:
        i = differ[0]
        print(f"first: {qs[i]!r}\n  base {tops['base'][i]}\n  this {tops['this'][i]}")
        sys.exit(1)


if __name__ == "__main__":
    main()
