"""``import --dry-run`` counts what the real run writes, episodes included, and writes nothing."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import SHARED_DATA

from memengine import ingest
from memory_core import MemoryStore

TOPICS = ("the boat trip to the lake on saturday", "dinner with grandma on friday night",
          "the new job offer in Lisbon", "fixing the broken bike chain")


def _chat(path: Path, sessions: int, seed: int) -> Path:
    """A WhatsApp chat of several sessions with topic changes inside them (episode boundaries by
    gap, by size and by topic shift)."""
    rnd = random.Random(seed)
    t = datetime(2023, 5, 1, 9, 0)
    lines = []
    for s in range(sessions):
        t += timedelta(hours=rnd.choice([1, 5, 30]))
        for i in range(rnd.randint(3, 40)):
            t += timedelta(minutes=rnd.randint(1, 10))
            topic = TOPICS[(s + i // 12) % len(TOPICS)]
            who = ("Ana", "Ben")[i % 2]
            lines.append(f"{t:%d/%m/%Y, %H:%M} - {who}: about {topic}, message {i} {rnd.random():.3f}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _counts(s: ingest.ImportSummary) -> tuple[int, int, int]:
    return s.memories_added, s.skipped_duplicates, s.episodes


def _db_rows(store: MemoryStore) -> int:
    return int(store.conn.execute("SELECT count(*) FROM memories").fetchone()[0])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dry_run_episode_count_equals_the_real_run(tmp_path: Path, seed: int) -> None:
    chat = _chat(tmp_path / "WhatsApp Chat with Ana.txt", 8, seed)
    store = MemoryStore(tmp_path / "m.db")
    dry = ingest.import_path(store, chat, dry_run=True)
    assert _db_rows(store) == 0
    real = ingest.import_path(store, chat)
    assert real.episodes > 2
    assert _counts(dry) == _counts(real)
    # a later export with more messages: the dry run sees the stored ones too
    (tmp_path / "longer").mkdir()
    longer = _chat(tmp_path / "longer" / "WhatsApp Chat with Ana.txt", 12, seed)
    before = _db_rows(store)
    dry2 = ingest.import_path(store, longer, dry_run=True)
    assert _db_rows(store) == before
    real2 = ingest.import_path(store, longer)
    assert _counts(dry2) == _counts(real2)


def test_dry_run_of_jsonl_writes_nothing(tmp_path: Path) -> None:
    f = tmp_path / "m.jsonl"
    f.write_text("".join(json.dumps({"content": f"fact {i}", "ref": f"r{i}"}) + "\n" for i in range(5))
                 + json.dumps({"content": "fact 0", "ref": "r0"}) + "\n", encoding="utf-8")
    store = MemoryStore(tmp_path / "m.db")
    dry = ingest.import_path(store, f, "jsonl", dry_run=True)
    assert (dry.messages_seen, dry.memories_added, dry.skipped_duplicates, dry.dry_run) == (6, 5, 1, True)
    assert _db_rows(store) == 0
    real = ingest.import_path(store, f, "jsonl")
    assert (real.memories_added, real.skipped_duplicates) == (5, 1)


REAL = [p for p in sorted((SHARED_DATA / "realworld").rglob("*")) if p.is_file()
        and p.parent.name in ("whatsapp", "zip", "chatgpt", "claude") and p.suffix in (".txt", ".zip", ".json")
        and "expected" not in p.name] if (SHARED_DATA / "realworld").is_dir() else []


@pytest.mark.parametrize("path", REAL or [None], ids=lambda p: p.name if p else "absent")
def test_dry_run_matches_real_run_on_real_exports(tmp_path: Path, path: Path | None) -> None:
    if path is None:
        pytest.skip("../shared/data absent")
    store = MemoryStore(tmp_path / "m.db")
    dry = ingest.import_path(store, path, dry_run=True)
    real = ingest.import_path(store, path)
    assert _counts(dry) == _counts(real)
