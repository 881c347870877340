"""recall/keyword.fts_ranked: the best FTS5 matches by bm25 rounded to KEYWORD_TIE_DECIMALS, ties by row id,
rounding only the rows near the cut, equal to the query that rounded every match (the one it replaced)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import memory_core as core
from memengine.db import connect
from memengine.recall import keyword
from memengine.recall.config import FTS_WEIGHTS, KEYWORD_TIE_DECIMALS

WEIGHTS = ", ".join(str(x) for x in FTS_WEIGHTS)


def every_match_rounded(conn: object, match: str, want: int) -> list[tuple[int, float]]:
    """What recall ran before fts_ranked: SQLite's round() on every match."""
    sql = (f"SELECT rowid, bm25(memories_fts, {WEIGHTS}) AS r FROM memories_fts WHERE memories_fts MATCH ? "
           f"ORDER BY round(r, {KEYWORD_TIE_DECIMALS}), rowid LIMIT ?")
    return [(int(r[0]), -float(r[1])) for r in conn.execute(sql, (match, want))]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Templated notes (long groups of equal scores: 300 identical texts, 3 x 40 near-identical ones) and
    varied ones (scores all different), in a real SQLite file."""
    path = tmp_path_factory.mktemp("fts-cut") / "memory.db"
    rng = random.Random(7)
    words = "gateway restart deploy invoice oscar meeting budget river garden piano coffee ticket".split()
    texts = ["the gateway restart runbook"] * 300
    texts += [f"gateway {w} note" for w in ("alpha", "beta", "gamma") for _ in range(40)]
    texts += [" ".join(rng.choice(words) for _ in range(rng.randint(2, 14))) for _ in range(900)]
    s = core.MemoryStore(path)
    try:
        s.store_many(core.NewMemory(content=t) for t in texts)
    finally:
        s.close()
    return path


@pytest.mark.parametrize("match", ['"gateway"', '"gateway" OR "restart"', '"restart"', '"runbook"', '"oscar" OR "piano"',
                                  '"coffee ticket"', '"budget" OR "gateway" OR "river"', '"nothing-like-it"'])
@pytest.mark.parametrize("want", [1, 20, 65, 200, 1000])
def test_same_rows_and_scores_as_rounding_every_match(db: Path, match: str, want: int) -> None:
    conn = connect(db)
    try:
        assert keyword.fts_ranked(conn, match, WEIGHTS, want) == every_match_rounded(conn, match, want)
    finally:
        conn.close()


def test_a_tie_group_longer_than_the_slack_falls_back_to_rounding_every_match(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = connect(db)
    statements: list[str] = []
    conn.set_trace_callback(lambda sql: statements.append(sql) if "bm25(" in sql and not sql.startswith("--") else None)
    try:
        # "runbook" scores its 300 identical notes alike: a cut at 20 lies inside a group the slack cannot hold
        got = keyword.fts_ranked(conn, '"runbook"', WEIGHTS, 20)
        assert got == every_match_rounded(conn, '"runbook"', 20)
        assert len(statements) == 3  # the narrow query, the fallback, and the reference above
        statements.clear()
        monkeypatch.setattr(keyword, "TIE_SLACK", 400)  # the whole group fetched: no fallback
        assert keyword.fts_ranked(conn, '"runbook"', WEIGHTS, 20) == got
        assert len(statements) == 1
    finally:
        conn.close()


def test_ties_go_to_the_lower_row_id(db: Path) -> None:
    conn = connect(db)
    try:
        got = keyword.fts_ranked(conn, '"alpha"', WEIGHTS, 40)
        assert [mid for mid, _ in got] == sorted(mid for mid, _ in got)
        assert len({score for _, score in got}) == 1 and len(got) == 40
    finally:
        conn.close()
