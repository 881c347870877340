"""``mem.py recall``: every option works with every strategy (graph, activation and bridge too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from conftest import run_cli

import memory_core as core
from memengine import consolidate as cons

TOPICS = {
    "garden": "we planted tomatoes and basil in the garden beds {i}",
    "gateway": "the gateway server crashed and was restarted again {i}",
    "hiking": "hiking trip in the alps mountains with the group {i}",
}
QUERY = "tomatoes basil garden"


@pytest.fixture
def summarised(db_path: Path) -> dict[str, int]:
    """Six turns per topic, interleaved in one chat, consolidated: topic -> its summary's id."""
    s = core.MemoryStore(db_path)
    for i in range(6):
        for topic, pattern in TOPICS.items():
            s.store(pattern.format(i=f"note{i}"), "episodic", thread="chat", tags=[topic], dedup=False)
    cons.run(s, phases=["links", "cluster", "summarize"], keep_backups=0)
    ids = {}
    for mid, content in s.conn.execute("SELECT id, content FROM memories WHERE level >= 1"):
        topic = next(t for t in TOPICS if t in content)
        ids[topic] = mid
    s.close()
    assert len(ids) == 3
    return ids


def results(*args: str, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    proc = run_cli("recall", *args, "--no-touch", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]["results"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("strategy", ["hybrid", "graph", "activation"])
def test_summaries_flag_with_walking_strategies(strategy: str, summarised: dict[str, int]) -> None:
    without = results(QUERY, "--strategy", strategy, "-k", "30")
    assert len(without) == 18 and {r["level"] for r in without} == {0}
    with_summaries = results(QUERY, "--strategy", strategy, "-k", "30", "--summaries")
    assert {r["id"] for r in with_summaries if r["level"] >= 1} == set(summarised.values())
    assert with_summaries[0]["id"] == summarised["garden"]  # the query's own summary ranks first
    assert {r["id"] for r in with_summaries if r["level"] == 0} == {r["id"] for r in without}


def test_summaries_flag_with_bridge(summarised: dict[str, int]) -> None:
    # Keyword-only seeds (no vectors) leave part of the graph unseeded in a store this small;
    # the other topics' summaries are then reached through the chat and derived_from edges.
    env = {"MEM_EMBEDDER": "none"}
    assert results(QUERY, "--strategy", "bridge", "-k", "10", env=env) == []
    bridges = results(QUERY, "--strategy", "bridge", "-k", "10", "--summaries", "--explain", env=env)
    assert {r["id"] for r in bridges} == {summarised["gateway"], summarised["hiking"]}
    assert all("(derived_from " in r["explain"]["path"] for r in bridges)


# A value for every recall option that takes one: a new option must be added here to be tested.
OPTION_VALUES = {"-k": "5", "--strategy": None, "--type": "episodic", "--source": "user", "--tag": "garden",
                 "--since": "2000-01-01", "--until": "2999-12-31", "--as-of": "2999-12-31", "--author": "Ana"}
# What each option guarantees about every result, where it restricts them.
RESULT_CHECKS = {
    "-k": lambda rs: len(rs) <= 5,
    "--type": lambda rs: all(r["memory_type"] == "episodic" for r in rs),
    "--source": lambda rs: all(r["source"] == "user" for r in rs),
    "--tag": lambda rs: all("garden" in r["tags"] for r in rs),
    "--author": lambda rs: all(r["author"] == "Ana" or str(r["author"]).startswith("Ana ") for r in rs),
    "--explain": lambda rs: all(r["explain"] for r in rs),
    "--context": lambda rs: all("context" in r for r in rs),
}


def _recall_options() -> list[tuple[str, list[str]]]:
    import mem

    recall = mem.cli.get_command(click.Context(mem.cli), "recall")
    assert recall is not None
    out = []
    for p in recall.params:
        if not isinstance(p, click.Option):
            continue
        name = p.opts[0]
        if p.is_flag:
            out.append((name, [name]))
        elif name == "--strategy":
            continue
        else:
            assert name in OPTION_VALUES, f"recall option {name}: add a sample value to OPTION_VALUES"
            out.append((name, [name, OPTION_VALUES[name]]))  # type: ignore[list-item]
    return out


@pytest.mark.parametrize("strategy", core.ALL_STRATEGIES)
def test_every_recall_option_with_every_strategy(strategy: str, summarised: dict[str, int]) -> None:
    for name, args in _recall_options():
        got = results(QUERY, "--strategy", strategy, *args)
        check = RESULT_CHECKS.get(name)
        assert check is None or check(got), (strategy, name, got)
