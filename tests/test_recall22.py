"""Round 22 of issue 19: the round's held-out chats (bench/data/realchat_heldout19: two LONG chats of the LoCoMo
kind — friends in Accra and Glasgow, in Amman and Denver — a Norwegian housing co-op board, a Portuguese PhD
supervision), checked well formed against the importers."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import heldout_sets

from memengine.recall.expand import expand
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

SET = "realchat_heldout19"
FILES = {"penpals.txt", "exroomies.txt", "borettslag.txt", "orientacao.txt"}


def _rows() -> list[dict[str, object]]:
    return heldout_sets.rows(SET)


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    heldout_sets.check_kinds(rows, 70, 38, 2, 22, FILES)
    assert sum(r["lang"] == "nb" for r in rows) == 5 and sum(r["lang"] == "pt" for r in rows) == 4
    # the two LoCoMo-kind chats hold most questions, and most of the multi-hop ones
    long_chats = [r for r in rows if r["file"] in ("penpals.txt", "exroomies.txt")]
    assert len(long_chats) == 51 and sum(r["category"] == "multi-hop" for r in long_chats) == 28


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # penpals, exroomies, borettslag, orientacao
    heldout_sets.check_snippets(store, (SET,), 383 + 350 + 76 + 52)


# ---- the expansion on ranks 6+ only (RecallConfig.expand_keep; bench/recall_tail.py: measured, not kept)

def _cand(i: int, text: str, day: int, score: float) -> Candidate:
    c = Candidate((i, f"Mia: {text}", "Mia", "chat", i, f"2026-03-{day:02d}T10:00:00", "{}", 1.0, 0.5))
    c.score = score
    return c


def _run(keep: int) -> SimpleNamespace:
    cfg = replace(RecallConfig(), w_hop=0.5, expand_seeds=1, hop_rare_share=0.5, expand_keep=keep)
    return SimpleNamespace(cfg=cfg, query="where did Mia go?", people={})


def _ranked() -> list[Candidate]:
    # the seed names a rare word (Lisbon); the last candidate, another day, says it too
    texts = ["flew to Lisbon on friday", "the weather was grey", "work is busy", "bought a lamp",
             "the cat is fine", "dinner with Jo", "lost my keys", "Lisbon was lovely, the trams!"]
    return [_cand(i + 1, t, 1 if i < 7 else 20, round(1.0 - 0.05 * i, 2)) for i, t in enumerate(texts)]


def _search(match: str, limit: int) -> dict[int, float]:
    assert '"lisbon"' in match.lower()
    return {1: 3.0, 8: 3.0}


def _shares(words: list[str]) -> tuple[dict[str, float], int]:
    return {w: (2 / 8 if w == "lisbon" else 1.0) for w in words}, 8


def test_the_second_hop_moves_a_turn_of_another_day_up_past_every_rank_but_the_seeds() -> None:
    got = [c.id for c in expand(_run(0), _ranked(), _search, _shares)]
    assert got == [1, 8, 2, 3, 4, 5, 6, 7]


def test_with_expand_keep_5_the_first_five_stay_and_only_ranks_6_on_are_re_ranked() -> None:
    got = [c.id for c in expand(_run(5), _ranked(), _search, _shares)]
    assert got == [1, 2, 3, 4, 5, 8, 6, 7]
    # expand_keep below the seeds keeps the seeds: the default (0) is the expansion as before
    assert [c.id for c in expand(_run(0), _ranked(), _search, _shares)] == \
        [c.id for c in expand(SimpleNamespace(cfg=replace(_run(0).cfg, expand_keep=1), query="where did Mia go?",
                                              people={}), _ranked(), _search, _shares)]
