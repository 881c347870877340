"""Recall strategies that live outside the core register here (``memengine.graph`` registers
graph, activation and bridge when imported), so the core never imports them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# strategy name -> fn(store, query, *, k, strategy, types, sources, tags, since, until,
#                     include_archived, raw, touch, explain, shared, summaries, **options) -> RecallResult
# (every filter of store.recall is passed on: tests/test_cli_recall.py runs each CLI option with each strategy)
_STRATEGIES: dict[str, Callable[..., Any]] = {}


def register(name: str, fn: Callable[..., Any]) -> None:
    """Make ``store.recall(q, strategy=name)`` call ``fn``."""
    _STRATEGIES[name] = fn


def lookup(name: str) -> Callable[..., Any] | None:
    """The registered strategy ``name``, or None."""
    return _STRATEGIES.get(name)
