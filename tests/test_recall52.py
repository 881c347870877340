"""Round 52 of issue 19: held-out 44 well formed; the reply a short top hit invited, at the tenth place
(memengine/recall/partner.py) — read, placed, and through a real store (on by default, "3:10:4:24")."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import heldout_sets

from memengine.recall.partner import PLACE, parse, partner_slot, replies_to
from memengine.records import Candidate
from memory_core import MemoryStore, RecallConfig

SET = "realchat_heldout44"
FILES = {"canal_week.txt", "podcast_girona.txt", "vancouver_sisters.txt", "logo_grooming.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 126, 70, 0, 0, FILES)
    assert sum(r["lang"] == "ca" for r in rows) == 28
    assert sum(len(r["evidence"]) >= 2 for r in rows) / len(rows) >= 0.50  # the round asks >= 50 % two-turn
    assert sum(bool(r.get("list")) for r in rows) == 14  # >= 10 list questions
    assert {r.get("hop") for r in rows} == {None, "reply", "later", "list"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 79 + 73 + 98 + 58)


def cand(i: int, who: str, text: str, hour: int, score: float = 0.0, day: int = 2) -> Candidate:
    c = Candidate((i, text, who, "t", i, f"2026-04-{day:02d}T{hour:02d}:00:00", "{}", 1.0, 0.5, "whatsapp"))
    c.score = score
    return c


def test_the_replies_are_the_next_turns_by_someone_else_within_the_hours() -> None:
    assert parse("3:10:4:24") == (3, 10, 4, 24.0)
    seed = cand(1, "Ruth", "can you drive thu", 8)
    turns = [cand(2, "Ruth", "the golf is in for its mot", 8), cand(3, "Dev", "sure, i'll drive both days", 13),
             cand(4, "Ruth", "ta", 13), cand(5, "Dev", "the golf is tiny tho", 14),
             cand(6, "Dev", "next week then", 10, day=4)]
    assert [t.id for t in replies_to(seed, turns, 4, 24)] == [3, 5]  # (day 4 is past the 24 hours)
    assert [t.id for t in replies_to(seed, turns, 1, 24)] == [3]
    assert [t.id for t in replies_to(seed, turns, 4, 2)] == []  # (the reply came five hours later)


def test_the_first_short_hits_reply_takes_the_tenth_place_and_the_first_nine_stay() -> None:
    seed = cand(1, "Ruth", "can you drive thu", 8, 1.0)
    longer = cand(20, "Ruth", " ".join(["word"] * 12), 9, 0.99)  # (a long turn says its own words: no seed)
    ranked = [seed, longer, *(cand(i, "Ana", f"filler {i}", 9, 1.0 - i / 100) for i in range(30, 45))]
    reply = cand(3, "Dev", "sure, i'll drive both days", 13)

    def after(seeds: list[Candidate], span: int) -> dict[int, list[Candidate]]:
        assert [s.id for s in seeds] == [1, 30]  # (the first three hits that are short turns)
        return {1: [reply]}

    out = partner_slot(list(ranked), "who drove on thursday?", after, "3:10:4:24")
    assert [c.id for c in out[:PLACE - 1]] == [c.id for c in ranked[:PLACE - 1]]
    assert out[PLACE - 1].id == 3 and out[PLACE - 1].score == ranked[PLACE - 1].score
    assert [c.id for c in out[PLACE:]] == [c.id for c in ranked[PLACE - 1:]]
    assert partner_slot(list(ranked), "who drove?", after, "") == ranked  # off
    # the reply already among the first ten: nothing moves
    shown = [*ranked[:5], reply, *ranked[5:]]
    assert [c.id for c in partner_slot(list(shown), "who drove?", after, "3:10:4:24")] == [c.id for c in shown]


CHAT = "\n".join(f"[{d:02d}/03/26, {h:02d}:{m:02d}:00] {who}: {text}" for d, h, m, who, text in (
    (1, 8, 0, "Ruth", "car's in for its mot thursday. can you drive?"),
    (1, 8, 1, "Ruth", "and friday probably"),
    (1, 13, 30, "Dev", "sure, both days. the golf is tiny tho"),
    *((2 + i // 2, 7 + i % 2, 0, "Ruth" if i % 2 else "Dev", f"drove the car over the bridge, traffic again ({i})")
      for i in range(28)),
)) + "\n"


def test_through_a_store_on_by_default_and_the_first_five_never_move(tmp_path: Path) -> None:
    from memengine import ingest

    path = tmp_path / "carpool.txt"
    path.write_text(CHAT, encoding="utf-8")
    store = MemoryStore(str(tmp_path / "m.db"))
    ingest.import_path(store, path)
    d = RecallConfig()
    assert d.partner == "3:10:4:24"
    off = replace(d, partner="")

    def top(q: str, cfg: RecallConfig, k: int = 10) -> list[str]:
        return [r.content for r in store.recall(q, k=k, touch=False, config=cfg).results]

    q = "who drove when ruth's car was in for its mot?"
    on10, off10 = top(q, d), top(q, off)
    assert on10[:5] == off10[:5] == top(q, d, k=5)  # (the first five never move; k=5 is the head of k=10)
    assert len(on10) == 10
    reply = "sure, both days. the golf is tiny tho"
    assert not any(reply in t for t in off10)  # (it says no word of the question: off, it ranks below ten)
    assert reply in on10[PLACE - 1] and on10[:PLACE - 1] == off10[:PLACE - 1]
    store.close()
