"""The engine's rooms keep their doors one way, and shared rules live in one place."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import memory_core
from importers._common import normalise_phone
from memengine import summarize, text
from memengine.ingest import normalise_alias
from memengine.recall import registry

ROOT = Path(__file__).resolve().parent.parent
CORE = ["errors", "db", "dbfile", "migrations", "text", "vectors", "records", "storebase", "context", "edges",
        "writes", "maintenance", "store", "recall/config", "recall/registry", "recall/people", "recall/keyword",
        "recall/priors", "recall/fusion", "recall/pipeline", "keyword_index", "liveset"]
ABOVE_CORE = {"memory_core", "mem", "memcli", "memengine.graph", "memengine.graph_nav", "memengine.graph_rank", "memengine.sharing", "memengine.consolidate",
              "memengine.ingest", "memengine.sharebundle", "memengine.summarize", "memengine.contradictions", "memengine.memorymd",
              "memengine.recovery", "memengine.cli", "importers"}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_the_core_never_imports_a_feature_the_facade_or_the_cli() -> None:
    for room in CORE:
        bad = {n for n in _imports(ROOT / "memengine" / f"{room}.py")
               if any(n == a or n.startswith(a + ".") for a in ABOVE_CORE)}
        assert not bad, (room, bad)


def test_features_use_no_private_store_method() -> None:
    private = re.compile(r"\b(?:store|self\.store)\._[a-z]\w*")
    for path in sorted((ROOT / "memengine").rglob("*.py")):
        assert not private.findall(path.read_text(encoding="utf-8")), path


def test_graph_strategies_come_from_the_registry() -> None:
    assert memory_core.GRAPH_STRATEGIES == ("graph", "activation", "bridge")
    for name in memory_core.GRAPH_STRATEGIES:
        assert registry.lookup(name) is not None
    assert registry.lookup("hybrid") is None  # built in, not registered


def test_one_phone_rule_for_aliases_and_contacts() -> None:
    for raw in ("0034 600 123 456", "+34 600-123-456", "+34 (600) 123 456"):
        assert normalise_alias(raw) == normalise_phone(raw) == "+34600123456"
    assert normalise_alias("  ~Ana García ") == "ana garcía"  # names compare case-folded


def test_one_author_label_rule() -> None:
    assert text.without_author("Ana: see you at 5", "Ana") == "see you at 5"
    assert text.without_author("Anabel: hi", "Ana") == "Anabel: hi"
    assert text.bare_text("[2024-05-01 10:00] Ana:  hi there ", "Ana") == "hi there"


def test_summary_stopwords_extend_recall_stopwords() -> None:
    assert text.STOPWORDS < summarize.STOPWORDS
    assert {"yeah", "thanks", "today"} <= summarize.STOPWORDS - text.STOPWORDS
