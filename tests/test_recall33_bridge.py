"""Round 33 of issue 19: the round's held-out chats (bench/data/realchat_heldout31: narrowboat friends, a Taglish
mother and son, cousins in English and Pidgin) checked well formed against the importers; and bridge.py: question
words bridged to the words the store says them with, from the model's own word table (on by default since the lead's blind chat sets, session 15)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import heldout_sets

from memengine.recall import bridge
from memengine.recall.bridge import bridge_words, kin, neighbours
from memory_core import MemoryStore, NewMemory, RecallConfig

SET = "realchat_heldout31"
FILES = {"narrowboat.txt", "mama_pao.txt", "cousins_ibadan.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 77, 18, 5, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 4
    assert sum(bool(r.get("other_words")) for r in rows) == 43  # no content word of the question in its evidence
    assert sum(bool(r.get("other_words_chat")) for r in rows) == 10
    assert {r["lang"] for r in rows} == {"en", "tl"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 83 + 71 + 55)  # (the boat's "<Media omitted>" is no message)


def test_the_shipped_table_holds_the_models_neighbours_of_a_word() -> None:
    assert [w for w, _ in neighbours("thesis", 0.6)] == ["dissertation"]
    assert [w for w, _ in neighbours("toilet", 0.5)] == ["restroom", "bathroom", "bathrooms"]
    sims = [s for _, s in neighbours("truck")]
    assert sims == sorted(sims, reverse=True) and len(sims) == 8
    assert neighbours("colour") and not any(kin(w, "colour") for w, _ in neighbours("colour"))  # no family
    assert neighbours("bachelorette") == [] and neighbours("Toilet") == []  # not in the table; lower case only


def test_words_of_one_family_by_their_spelling() -> None:
    assert kin("war", "wars") and kin("painting", "paint") and kin("colours", "colour")
    assert not kin("toilet", "bathroom") and not kin("thesis", "dissertation")


def test_bridge_words_are_the_neighbours_the_store_holds_and_the_question_does_not_say() -> None:
    held = {"bathroom": 0.002, "restroom": 0.0, "dissertation": 0.001, "toilet": 0.0, "thesis": 0.0}
    shares = lambda ws: {w: held.get(w, 0.0) for w in ws}  # noqa: E731
    assert bridge_words(["toilet", "broken"], 0.5, "all", shares) == ["bathroom"]
    assert bridge_words(["thesis", "dissertation"], 0.5, "all", shares) == []  # said by the question already
    common = {**held, "toilet": 0.5}  # a word the store says often bridges nothing under "rare"
    assert bridge_words(["toilet"], 0.5, "rare", lambda ws: {w: common.get(w, 0.0) for w in ws}) == []
    assert bridge_words(["toilet"], 0.5, "all", lambda ws: {w: common.get(w, 0.0) for w in ws}) == ["bathroom"]
    # a question most of whose words the table lacks is in a language it does not read ("war" is German here)
    assert bridge_words(["wie", "hoch", "war", "rechnung", "betriebskosten"], 0.3, "all", lambda ws: dict.fromkeys(
        ws, 0.1)) == []


def test_without_the_table_nothing_is_bridged(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(bridge, "TABLE", tmp_path / "missing.npz")
    bridge._table.cache_clear()
    try:
        assert neighbours("toilet") == [] and bridge_words(["toilet"], 0.0, "all", lambda ws: {}) == []
    finally:
        bridge._table.cache_clear()


def _chat(store: MemoryStore, lines: list[tuple[str, str]]) -> list[int]:
    start = datetime(2026, 3, 1, 20, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="whatsapp",
                                       ref=f"boat/{i}", author=who, thread="boat", position=i,
                                       event_at=start + timedelta(days=i))
                             for i, (who, text) in enumerate(lines)]).ids


def test_recall_finds_the_turn_said_in_the_stores_own_word(store: MemoryStore) -> None:
    ids = _chat(store, [("Gemma", "the bathroom pump died again, ordered a new one for 80 quid"),
                        *[("Ros", f"broken {w} on the way home lol") for w in ("umbrella", "heel", "phone strap")],
                        ("Gemma", "the stove is lit, 24 degrees inside"),
                        ("Ros", "Pepper slept all afternoon")])
    pump = ids[0]
    q = "what broke in the toilet?"
    off = store.recall(q, k=6, touch=False, explain=True, config=replace(RecallConfig(), bridge="")).results
    on_cfg = replace(RecallConfig(), bridge="all", bridge_floor=0.5, w_bridge=1.0)
    on = store.recall(q, k=6, touch=False, explain=True, config=on_cfg).results
    assert (RecallConfig().bridge, RecallConfig().bridge_floor, RecallConfig().w_bridge) == ("all", 0.45, 0.3)
    assert [m.id for m in off][0] != pump  # "broken" turns share the question's word
    assert on[0].id == pump
    assert store.recall(q, k=6, touch=False, config=replace(RecallConfig(), bridge="all")).results[0].id == pump
    assert store.recall(q, k=6, touch=False).results[0].id == pump  # on by default (lead, session 15)
