"""doc_shares(..., upto=N): exact below the bound, never under it above (serve12: warm recall's rare-word tests
count a common word only as far as they need)."""

from __future__ import annotations

from memory_core import MemoryStore


def _fill(store: MemoryStore) -> None:
    for i in range(6):
        store.store(f"coffee note number {i}", "semantic")
    store.store("we walked around Lisbon for hours", "semantic")
    store.store("the tram to Belém, then coffee", "semantic")
    for i in range(4):
        store.store(f"unrelated filler memory {i}", "semantic")


def test_counts_up_to_the_bound_are_exact_and_above_it_read_as_more(store: MemoryStore) -> None:
    _fill(store)
    words = ["coffee", "lisbon", "belem", "zanzibar", "number"]
    full = store.doc_shares(words, "content")
    assert {w: round(s * 12) for w, s in full.items()} == {"coffee": 7, "lisbon": 1, "belem": 1, "zanzibar": 0,
                                                            "number": 6}
    store._df_cache = None  # (a fresh cache: the bounded path counts, not the exact counts kept above)
    got = store.doc_shares(words, "content", upto=6)
    assert got["lisbon"] == full["lisbon"] and got["belem"] == full["belem"] and got["zanzibar"] == 0.0
    assert got["number"] == full["number"]  # 6: at the bound, exact
    assert got["coffee"] * 12 == 7  # 7 > 6: read as 7 (the count stops after upto + 1 rows)
    store._df_cache = None
    assert store.doc_shares(words, "content", upto=2)["coffee"] * 12 == 3  # never fewer than upto + 1
    assert store.doc_shares(["coffee"], "content") == {"coffee": full["coffee"]}  # a bound is not an exact count
    store._df_cache = None
    held = store.doc_shares(words, upto=0)  # (any column: whether a word is held at all)
    assert [w for w in words if held[w] == 0.0] == ["zanzibar"]


def test_a_word_the_tokenizer_splits_counts_as_its_rarest_part_either_way(store: MemoryStore) -> None:
    _fill(store)
    store.store("coffee-lisbon is a made-up word", "semantic")
    exact = store.doc_shares(["coffee-lisbon"], "content")
    store._df_cache = None
    assert store.doc_shares(["coffee-lisbon"], "content", upto=1) == exact
    assert round(exact["coffee-lisbon"] * 13) == 2  # lisbon: its own turn and the made-up word's
