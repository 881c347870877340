"""Two people's stores importing each other's exports while their agents keep storing (real processes): every
memory of each ends up in the other once, the text both stored is two memories, and a last exchange adds nothing
(serve13; bench/agent_week_exchange.py runs the longer version in the soak)."""

from __future__ import annotations

import json
import threading
from collections import Counter
from pathlib import Path

from conftest import run_cli_subprocess

import memory_core as core

SAME = "standup moved to 10:00"


def _ok(*args: str) -> dict:
    p = run_cli_subprocess(*args, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)["data"]


def _exchange(src: Path, dst: Path, dump: Path) -> int:
    p = run_cli_subprocess("--db", str(src), "export", timeout=300)
    assert p.returncode == 0, p.stderr
    if not p.stdout.strip():
        return 0
    dump.write_text(p.stdout, encoding="utf-8")
    return int(_ok("--db", str(dst), "import", "jsonl", str(dump))["memories_added"])


def _active(db: Path) -> Counter[str]:
    conn = core.connect(db)
    try:
        return Counter(r[0] for r in conn.execute("SELECT content FROM memories WHERE status = 'active'"))
    finally:
        conn.close()


def test_two_stores_exchanging_exports_while_storing(tmp_path: Path) -> None:
    ana, bob = tmp_path / "ana.db", tmp_path / "bob.db"
    for db, who in ((ana, "ana"), (bob, "bob")):
        _ok("--db", str(db), "store", f"{who} keeps the keys to the office")
    stored = {who: [f"{who} keeps the keys to the office"] for who in ("ana", "bob")}
    errors: list[str] = []

    def agent(db: Path, who: str) -> None:
        for i in range(5):
            text = SAME if i == 2 else f"{who}'s note {i}: the {('build', 'billing')[i % 2]} plan"
            p = run_cli_subprocess("--db", str(db), "store", text, timeout=300)
            if p.returncode != 0:
                errors.append(p.stdout + p.stderr)
            elif not json.loads(p.stdout)["data"]["deduplicated"]:
                stored[who].append(text)

    def exchanger() -> None:
        for n in range(2):
            _exchange(ana, bob, tmp_path / f"a{n}.jsonl")
            _exchange(bob, ana, tmp_path / f"b{n}.jsonl")

    threads = [threading.Thread(target=agent, args=(ana, "ana")), threading.Thread(target=agent, args=(bob, "bob")),
               threading.Thread(target=exchanger)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    _exchange(ana, bob, tmp_path / "qa.jsonl")
    _exchange(bob, ana, tmp_path / "qb.jsonl")
    assert _exchange(ana, bob, tmp_path / "again-a.jsonl") == 0
    assert _exchange(bob, ana, tmp_path / "again-b.jsonl") == 0
    want = Counter(stored["ana"]) + Counter(stored["bob"])
    assert want[SAME] in (1, 2)  # (a store after the other's copy arrived is deduplicated against it, as any store)
    assert _active(ana) == want
    assert _active(bob) == want
