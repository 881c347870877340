"""Generate a synthetic ChatGPT ``conversations.json`` of a given size (streamed to disk).

Each conversation is a linear ``mapping`` tree (hidden system root, then alternating
user/assistant text nodes) with ``current_node`` at the last message, the layout of
real exports. Written incrementally, so generating 200 MB needs no 200 MB in memory.

Usage::

    python bench/gen_chatgpt_export.py OUT.json --mb 200 [--turns 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

WORDS = ("garden tomato lisbon train budget python deploy gateway meeting recipe marathon invoice "
         "kafka sqlite backup vacation doctor birthday guitar chapter refactor flight hotel").split()


def conversation(idx: int, turns: int, rng: random.Random, words_per_msg: int) -> dict[str, Any]:
    """One conversation object with ``turns`` messages on its active branch."""
    t0 = 1_600_000_000.0 + idx * 3600.0
    mapping: dict[str, Any] = {"root": {"id": "root", "parent": None, "children": ["sys"], "message": None},
                               "sys": {"id": "sys", "parent": "root", "children": [], "message": {
                                   "id": f"s{idx}", "author": {"role": "system", "name": None}, "create_time": None,
                                   "content": {"content_type": "text", "parts": [""]}, "recipient": "all",
                                   "metadata": {"is_visually_hidden_from_conversation": True}}}}
    prev = "sys"
    for t in range(turns):
        node = f"n{idx}-{t}"
        mapping[prev]["children"].append(node)
        text = " ".join(rng.choice(WORDS) for _ in range(words_per_msg)) + f" (turn {t} of chat {idx})"
        mapping[node] = {"id": node, "parent": prev, "children": [], "message": {
            "id": f"m{idx}-{t}", "author": {"role": "user" if t % 2 == 0 else "assistant", "name": None},
            "create_time": t0 + t * 30.0, "content": {"content_type": "text", "parts": [text]},
            "recipient": "all", "metadata": {}, "status": "finished_successfully", "weight": 1.0}}
        prev = node
    return {"id": f"conv-{idx}", "title": f"Chat {idx}", "create_time": t0, "update_time": t0 + turns * 30.0,
            "current_node": prev, "mapping": mapping}


def generate(out: Path, mb: float, turns: int = 40, words_per_msg: int = 60, seed: int = 1) -> tuple[int, int]:
    """Write conversations until the file reaches ``mb`` megabytes; return (conversations, messages)."""
    rng = random.Random(seed)
    target = int(mb * 1024 * 1024)
    n = 0
    written = 0
    with out.open("w", encoding="utf-8") as fh:
        fh.write("[")
        while written < target:
            chunk = ("," if n else "") + json.dumps(conversation(n, turns, rng, words_per_msg), ensure_ascii=False)
            fh.write(chunk)
            written += len(chunk.encode("utf-8"))
            n += 1
        fh.write("]")
    return n, n * turns


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--mb", type=float, default=200.0, help="target size in MB (default: %(default)s)")
    ap.add_argument("--turns", type=int, default=40, help="messages per conversation (default: %(default)s)")
    ap.add_argument("--words", type=int, default=60, help="words per message (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    convs, msgs = generate(args.out, args.mb, args.turns, args.words, args.seed)
    size = args.out.stat().st_size / 1024 / 1024
    print(f"{args.out}: {size:.1f} MB, {convs} conversations, {msgs} messages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
