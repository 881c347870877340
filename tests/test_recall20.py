"""Round 20 of issue 19: the round's held-out chats (bench/data/realchat_heldout18: Singapore co-parents, a Mexico
City band, an Indonesian catering business, a Claude export of a year after a diagnosis), checked well formed
against the importers."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import heldout_sets

from memengine.recall.updates import unit_forms, unit_link
from memory_core import MemoryStore, NewMemory, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
SET = "realchat_heldout18"
FILES = {"coparents.txt", "banda.txt", "katering.txt", "claude_export.json"}


def _rows() -> list[dict[str, object]]:
    return heldout_sets.rows(SET)


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    heldout_sets.check_kinds(rows, 64, 22, 18, 19, FILES)
    assert sum(r["lang"] == "es" for r in rows) == 11 and sum(r["lang"] == "id" for r in rows) == 10


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # coparents, banda, katering, the Claude export
    heldout_sets.check_snippets(store, (SET,), 43 + 40 + 36 + 23)


def test_a_number_is_read_with_the_word_right_after_it_in_any_language() -> None:
    assert unit_forms("tanggal 7 Juni, 300 porsi") == {("porsi", "300")}  # a calendar word names no slot
    assert unit_forms("harga ayam naik jadi Rp 42.000/kg") == {("kg", "42000")}  # a currency neither
    assert unit_forms("nos cobra $12,000 por 3 canciones") == {("canciones", "3")}
    assert unit_forms("I'm 89 kg now. I've lost 5 kg") == {("kg", "89"), ("kg", "5")}
    assert unit_forms("40 kotak per hari, mulai 13 April") == {("kotak", "40")}  # the word before: a verb, a preposition
    assert unit_forms("amoxicillin for 7 days") == frozenset()  # a span of time names no slot
    assert unit_forms("Friday 6pm pickup, 10:30 or at 5 this month") == frozenset()
    assert unit_forms("czynsz 2800 zł plus 650 zł") == frozenset()
    assert unit_forms("12.000 canciones") == unit_forms("12,000 canciones") == {("canciones", "12000")}


def test_a_later_turn_with_another_number_beside_the_same_word_updates_it() -> None:
    assert unit_link("40 kotak per hari", "minta tambah jadi 55 kotak per hari")
    assert unit_link("I'm 89 kg now", "I'm down to 84 kg")
    assert not unit_link("40 kotak per hari", "ya 40 kotak per hari")  # restated, not changed
    assert not unit_link("40 kotak per hari", "55 porsi")  # another thing counted
    assert not unit_link("gave amoxicillin for 7 days", "camp: 3 days 2 nights")
    assert not unit_link("harga ayam Rp 38.000/kg", "harga tetap Rp 25.000")  # two prices, one currency
    assert not unit_link("we were 4 people", "")


def _chat(store: MemoryStore, lines: list[tuple[str, str]]) -> list[int]:
    start = datetime(2026, 4, 2, 7, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat",
                                       ref=f"katering/{i}", author=who, thread="katering", position=i,
                                       event_at=start + timedelta(days=3 * i)) for i, (who, text) in enumerate(lines)]).ids


def test_recall_ranks_the_newer_number_of_a_thing_first_with_no_change_word_read(store: MemoryStore) -> None:
    lines = [("Ratna", "pesanan nikahan Bu Wulan sudah fix? tanggal 7 Juni, 300 porsi"),
             ("Dimas", "menu nasi liwet, ayam bakar, sayur lodeh")]
    lines += [("Sari", f"belanja pasar {i}: cabai, bawang, tempe") for i in range(12)]
    lines += [("Dimas", "Bu Wulan telpon, tamu nikahan nambah jadi 350 porsi")]
    ids = _chat(store, lines)
    q = "berapa porsi pesanan nikahan Bu Wulan?"
    cfg = replace(RecallConfig(), newer_first="units:pool")
    got = store.recall(q, k=5, touch=False, config=cfg).results
    order = [m.id for m in got]
    assert ids[-1] in order and ids[0] in order and order.index(ids[-1]) < order.index(ids[0])
    old = next(m for m in got if m.id == ids[0])
    assert old.possibly_outdated and old.possibly_outdated_by == [ids[-1]]
    # the rules of round 11 read no change word in Indonesian: the older turn is not marked
    before = store.recall(q, k=5, touch=False, config=replace(cfg, newer_first="forms:pool")).results
    assert not any(m.possibly_outdated for m in before)
