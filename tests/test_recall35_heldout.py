"""Round 35 of issue 19: the round's held-out set (bench/data/realchat_heldout33: a ChatGPT export, a Claude export and
a markdown notes folder with long messages and notes) checked well formed against the importers, and its measured
flags: where each evidence snippet starts in its memory, in the model's word pieces. The round's mechanism (a long
memory's later windows, memengine/recall/windows.py) was measured and not kept: branch recall35-windows."""

from __future__ import annotations

import heldout_sets

from bench.recall35 import token_offset
from embedder import HashEmbedder
from memory_core import MemoryStore

SET = "realchat_heldout33"
FILES = {"conversations.json", "claude_conversations.json", "notes"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 157, 6, 0, 0, FILES)
    assert sum(bool(r["past_256"]) for r in rows) == 97  # evidence past the model's first 256 word pieces
    assert all(r["past_256"] == any(o >= 254 for o in r["evidence_offset"]) for r in rows)  # type: ignore[attr-defined]
    assert sum(bool(r.get("other_words")) for r in rows) == 6  # no content word of the question in its evidence
    assert sum(str(r["id"]).startswith(("h33-gb", "h33-cb", "h33-nb")) for r in rows) == 52  # the second batch


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 42 + 20 + 23)


def test_an_offset_counts_the_pieces_before_the_snippet() -> None:
    emb = HashEmbedder()  # (whitespace tokens)
    assert token_offset(emb, "Assistant: one two three four", "three") == 3
    assert token_offset(emb, "Assistant: one two", "Assistant") == 0
    assert token_offset(emb, "Assistant: one two", "absent") == -1
