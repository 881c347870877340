"""Round 21 of issue 19: asking for more results never changes the first ones.

The steps after fusion (follow, mention, the chat updates, moved, the facts' may-update links) used to work on the
top k the caller asked for, so ``recall -k 5`` and the first five of ``recall -k 10`` could differ. They now rank
``max(k, RecallConfig.step_depth)`` and the list is cut to k after them (pipeline.py ``step_depth``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from memengine import ingest
from memengine.recall.config import POOL, STEP_DEPTH
from memengine.recall.pipeline import step_depth
from memory_core import MemoryStore, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
SETS = ("realchat_heldout17", "realchat_heldout18")  # chats with updates the steps rank (rounds 19-20)
NO_STEPS = RecallConfig(follow="", mention="", newer_first="", moved="")


def _questions(store: MemoryStore) -> list[str]:
    out: list[str] = []
    for name in SETS:
        for path in sorted((ROOT / "bench" / "data" / name).iterdir()):
            ingest.import_path(store, path)
        rows = (ROOT / "bench" / "data" / f"{name}.jsonl").read_text().splitlines()
        out += [str(json.loads(line)["question"]) for line in rows if line.strip()]
    return out


def _ids(store: MemoryStore, query: str, k: int, cfg: RecallConfig | None = None) -> list[int]:
    return [m.id for m in store.recall(query, k=k, touch=False, config=cfg).results]


def test_the_top_k_is_the_head_of_any_longer_list_where_the_steps_move_results(store: MemoryStore) -> None:
    questions = _questions(store)
    assert len(questions) == 71 + 64
    moved = 0
    assert STEP_DEPTH == 15  # (the documented maximum: README's recall section and config.py)
    for q in questions:
        five, ten, deep = _ids(store, q, 5), _ids(store, q, 10), _ids(store, q, STEP_DEPTH)
        # (more than k when an older that a newer at the cut marks stays under it: still the longer list's head)
        assert five == ten[:len(five)] == deep[:len(five)] and len(five) >= 5, q
        assert ten == deep[:len(ten)], q
        for k in (1, 3):
            short = _ids(store, q, k)
            assert short == deep[:len(short)] and len(short) >= k, q
        moved += _ids(store, q, 10, NO_STEPS) != ten  # an update / follow / mention step changed this top 10
        # with a depth of 30 (the steps' depth is a setting), k = 30 has the same head too
        wide = replace(RecallConfig(), step_depth=30)
        five_wide = _ids(store, q, 5, wide)
        assert five_wide == _ids(store, q, 30, wide)[:len(five_wide)], q
    assert moved >= 5  # (the property is tested where the steps fire, not only on plain fusion)


def test_one_depth_for_every_k_below_it() -> None:
    # the depth is one number for every k below it, and it never widens the retrievers' pool
    assert step_depth(5, RecallConfig()) == step_depth(10, RecallConfig()) == STEP_DEPTH
    assert step_depth(STEP_DEPTH + 7, RecallConfig()) == STEP_DEPTH + 7
    assert step_depth(3, replace(RecallConfig(), step_depth=0)) == 3
    assert STEP_DEPTH * 3 <= POOL


def test_the_marks_of_a_result_do_not_depend_on_k(store: MemoryStore) -> None:
    questions = _questions(store)
    for q in questions:
        short = store.recall(q, k=5, touch=False).results
        long = store.recall(q, k=STEP_DEPTH, touch=False).results[:len(short)]
        assert [(m.id, m.possibly_outdated, m.possibly_outdated_by, m.weak) for m in short] == \
            [(m.id, m.possibly_outdated, m.possibly_outdated_by, m.weak) for m in long], q
