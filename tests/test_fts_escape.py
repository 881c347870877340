"""Hostile queries never crash: every user token is quoted for FTS5."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_core import MemoryStore, fts_query, quote_fts

HOSTILE = ["C++", '"unbalanced', "tea AND", "NEAR(", "*", "🙂 emoji 🎉", "a-b", "don't", "OR", "NOT x", "^start",
           "col:value", "(((", "'", '""', "x" * 10_000, "é è ñ", "AND OR NOT", "-", "{}[]"]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_run_against_a_real_fts_table(store: MemoryStore, query: str) -> None:
    store.store("C++ templates and don't panic about tea", "semantic")
    for strategy in ("keyword", "hybrid"):
        res = store.recall(query, strategy=strategy, touch=False)
        assert isinstance(res.results, list)


def test_quote_doubles_inner_quotes() -> None:
    assert quote_fts('say "hi"') == '"say ""hi"""'
    assert fts_query("C++ and tea") == '"c" OR "tea"'
    assert fts_query("the and of") == '"the" OR "and" OR "of"'  # all stopwords: keep them rather than nothing
    assert fts_query("!!!") is None


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.text(min_size=1, max_size=200))
def test_fuzzed_escaper_never_breaks_fts(store: MemoryStore, text: str) -> None:
    q = fts_query(text)
    if q is None:
        return
    store.conn.execute("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", (q,)).fetchone()
