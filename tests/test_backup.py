"""`mem.py backup` with no destination, its retention rule, `restore --list --from DIR`, and what `doctor` says
about backups and the write-ahead log (memengine/backup.py, memengine/walbound.py).

Real files throughout; a real second process where the process boundary is the point (a reader holding a
snapshot in another process while this one writes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import stored as _fill

import memory_core as core
from memengine import backup as bk
from memengine import handoff, walbound
from memengine.errors import DamagedFile
from tests.conftest import run_cli

sqlite3 = core.sqlite3
ROOT = Path(__file__).resolve().parents[1]
OLD = ["The VPN gateway is vpn-2", "Oscar prefers morning meetings", "The NAS is named atlas"]



def _json(*args: str) -> tuple[int, dict]:
    done = run_cli(*args, "--json")
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    return done.returncode, json.loads(lines[0])


def _age(p: Path, days: float) -> None:
    t = time.time() - days * 86400
    os.utime(p, (t, t))


def test_backup_without_a_destination_writes_a_checked_copy_into_backups(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    code, out = _json("--db", str(db), "backup")
    assert code == 0, out
    data = out["data"]
    p = Path(data["path"])
    assert p.parent == tmp_path / "backups" and p.name.startswith("memory.db.") and p.name.endswith(".backup.db")
    assert (data["memories"], data["active"], data["integrity"]) == (3, 3, "ok")
    assert data["size_bytes"] == p.stat().st_size and oct(p.stat().st_mode & 0o777) == "0o600"
    assert (data["keep"], data["kept"], data["deleted"], data["other_backups"]) == (7, [p.name], [], 0)
    assert not [q for q in p.parent.iterdir() if "mem-tmp" in q.name]
    conn = sqlite3.connect(p)
    assert {r[0] for r in conn.execute("SELECT content FROM memories")} == set(OLD)
    conn.close()
    code, listed = _json("--db", str(db), "restore", "--list")
    assert [(i["name"], i["kind"], i["memories"]) for i in listed["data"]["backups"]] == [(p.name, "backup", 3)]
    code, again = _json("--db", str(db), "backup")  # the same second: another name, never overwritten
    assert code == 0 and again["data"]["path"] != data["path"] and len(again["data"]["kept"]) == 2


def test_retention_deletes_only_older_copies_of_its_own_kind(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    folder = tmp_path / "backups"
    folder.mkdir()
    made: dict[str, list[Path]] = {}
    for kind, n in (("backup", 5), ("consolidate", 4), ("pre-restore", 2), ("damaged", 1)):
        for i in range(n):
            p = folder / f"memory.db.2026110{i + 1}T031700.{kind}.db"
            p.write_bytes(b"x")
            _age(p, 30 - i)  # older first
            made.setdefault(kind, []).append(p)
    other_store = folder / "other.db.20261101T031700.backup.db"  # another store's backup: not ours to prune
    other_store.write_bytes(b"y")
    _age(other_store, 60)
    code, out = _json("--db", str(db), "backup", "--keep", "3")
    assert code == 0, out
    data = out["data"]
    newest = Path(data["path"]).name
    assert data["kept"] == [newest, made["backup"][4].name, made["backup"][3].name]
    assert data["deleted"] == [p.name for p in reversed(made["backup"][:3])]
    assert data["other_backups"] == 7  # consolidate 4, pre-restore 2, damaged 1
    left = {p.name for p in folder.iterdir()}
    assert left == {newest, other_store.name} | {p.name for k in ("consolidate", "pre-restore", "damaged")
                                                 for p in made[k]} | {made["backup"][4].name, made["backup"][3].name}
    code, out = _json("--db", str(db), "backup", "--keep", "0")  # 0: keep every copy
    assert code == 0 and out["data"]["deleted"] == [] and len(out["data"]["kept"]) == 4


def test_bad_backup_commands_are_one_line_and_write_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    dest = tmp_path / "taken.db"
    dest.write_bytes(b"keep me")
    code, out = _json("--db", str(db), "backup", str(dest))
    assert code == 1 and "already exists" in out["error"]["message"] and dest.read_bytes() == b"keep me"
    code, out = _json("--db", str(db), "backup", str(tmp_path / "new.db"), "--keep", "2")
    assert code == 2 and out["error"]["code"] == "usage" and not (tmp_path / "new.db").exists()

    def spoiled(path: Path, check: bool = False) -> dict:
        raise DamagedFile(f"{path}: fails SQLite's integrity_check (page 7 is never used)")

    monkeypatch.setattr("memengine.restore.describe_file", spoiled)  # a copy that fails its check
    code, out = _json("--db", str(db), "backup")
    assert code == 8 and out["error"]["code"] == "damaged", out
    assert "fails the check" in out["error"]["message"] and "mem-tmp" not in out["error"]["message"]
    assert not [p for p in (tmp_path / "backups").iterdir()]  # nothing under a backup's name, no temp file
    code, out = _json("--db", str(db), "backup", str(tmp_path / "elsewhere.db"))
    assert code == 8 and not [p for p in tmp_path.iterdir() if "elsewhere" in p.name]


def test_a_typo_in_the_folder_is_one_line_naming_it_and_creates_nothing(tmp_path: Path) -> None:
    # `mem.py backup /mnt/usbb/x.db` for /mnt/usb: a backup reported ok in a folder nobody looks at is worse
    # than an error; the folder is named, nothing is created, exit 1
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    (tmp_path / "usb").mkdir()
    typo = tmp_path / "usbb" / "deeper" / "x.db"
    done = run_cli("--db", str(db), "backup", str(typo), "--json")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    out = json.loads(done.stdout)
    assert out["error"]["code"] == "invalid_input"
    assert out["error"]["message"] == (f"{typo.parent}: no such folder (nothing written; create it first, "
                                       "or add --parents to create it)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.db", "usb"]
    done = run_cli("--db", str(db), "backup", str(typo), "--plain")
    assert done.returncode == 1 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert f"{typo.parent}: no such folder" in done.stderr
    # asked for: created (private, as backups/ is), the copy checked as always
    code, out = _json("--db", str(db), "backup", str(typo), "--parents")
    assert code == 0 and Path(out["data"]["path"]) == typo.resolve() and out["data"]["memories"] == 3
    assert oct(typo.parent.stat().st_mode & 0o777) == "0o700"
    code, out = _json("--db", str(db), "backup", "--parents")  # (backups/ is always created: a usage error)
    assert code == 2 and out["error"]["code"] == "usage"


def test_restore_list_from_another_folder_and_restore_by_name_from_it(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    away = tmp_path / "away"
    away.mkdir()
    assert run_cli("--db", str(db), "backup", str(away / "memory-2026-11-01.db")).returncode == 0
    _fill(db, ["After the backup: the printer is on floor 3"])
    assert run_cli("--db", str(db), "backup", str(away / "memory-2026-11-02.db")).returncode == 0
    _age(away / "memory-2026-11-01.db", 2)
    (away / "notes.db").write_bytes(b"not a database" * 100)
    _age(away / "notes.db", 5)
    (away / "readme.txt").write_text("not listed")
    code, out = _json("--db", str(db), "restore", "--list", "--from", str(away))
    assert code == 0 and out["data"]["folder"] == str(away)
    items = out["data"]["backups"]
    assert [(i["name"], i["memories"], i["kind"]) for i in items] == [
        ("memory-2026-11-02.db", 4, "other"), ("memory-2026-11-01.db", 3, "other"), ("notes.db", None, "other")]
    assert "not a" in items[2]["error"]
    code, out = _json("--db", str(db), "restore", "memory-2026-11-01.db", "--from", str(away))
    assert code == 0 and (out["data"]["memories_before"], out["data"]["memories_after"]) == (4, 3)
    assert out["data"]["restored_from"] == str(away / "memory-2026-11-01.db")
    code, out = _json("--db", str(db), "restore", "--list", "--from", str(tmp_path / "nowhere"))
    assert code == 1 and "no such folder" in out["error"]["message"]
    code, out = _json("--db", str(db), "restore", "--list", "--from", str(away / "notes.db"))
    assert code == 1 and "is a file" in out["error"]["message"]
    assert not handoff._memory_restore(["restore", "42", "--from=away", "--json"])  # never handed to a server


def test_doctor_says_when_the_last_backup_was_taken(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    code, out = _json("--db", str(db), "doctor")
    assert code == 0 and out["data"]["last_backup"] is None and out["data"]["ok"] is True
    assert any("no backup in" in n and "mem.py backup" in n for n in out["data"]["notes"])
    code, taken = _json("--db", str(db), "backup")
    code, out = _json("--db", str(db), "doctor")
    last = out["data"]["last_backup"]
    assert (last["path"], last["kind"], last["count"]) == (taken["data"]["path"], "backup", 1)
    assert last["age_hours"] < 1 and out["data"]["notes"] == []
    _age(Path(last["path"]), 10)
    code, out = _json("--db", str(db), "doctor")
    assert out["data"]["last_backup"]["age_hours"] >= 239 and any("10 days old" in n for n in out["data"]["notes"])
    plain = run_cli("--db", str(db), "doctor", "--plain")
    assert "last_backup" in plain.stdout and "days ago, backup)" in plain.stdout and "note: the last backup" in plain.stderr


READER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN")
conn.execute("SELECT count(*) FROM memories").fetchone()  # a read snapshot, held until told
print("held", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
print("released", flush=True)
sys.stdin.readline()
"""


def _wal(db: Path) -> int:
    p = Path(f"{db}-wal")
    return p.stat().st_size if p.exists() else 0


def test_a_writer_bounds_the_log_once_no_reader_holds_it_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds a read snapshot: the log grows past the bound (nothing can fold past the
    snapshot), and the writer tries again only once its pause is over (1 s, then doubled while the snapshot
    holds frames back), not at every store; once the snapshot ends, the next try empties the log. Every
    memory is in the file; doctor sees the large log. (The pauses run on a clock the test moves.)"""
    monkeypatch.setattr(walbound, "BOUND_BYTES", 256 << 10)
    monkeypatch.setattr(walbound, "RETRY_GROWTH", 1)
    clock = [1000.0]
    monkeypatch.setattr(walbound, "_clock", lambda: clock[0])
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    s = core.MemoryStore(db)
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    assert reader.stdin is not None and reader.stdout is not None
    stored = 0

    def store(what: str) -> None:
        nonlocal stored
        s.store(f"{what} {stored}: shard {stored} copied", dedup=False)
        stored += 1

    try:
        store("written before the reader's snapshot")
        assert reader.stdout.readline().strip() == "held"
        before = dict(walbound.STATS)

        def tries() -> int:
            return walbound.STATS["tries"] - before["tries"]

        while _wal(db) < 1 << 20:
            store("while the snapshot is held")
        assert tries() == 1 < stored  # one try at the bound, then a pause: not one per store
        assert walbound.STATS["held"] - before["held"] == 1 and walbound.STATS["emptied"] == before["emptied"]
        clock[0] += 1.0
        store("after the first pause")
        assert tries() == 2  # held back again: the pause doubles to 2 s
        clock[0] += 1.0
        store("1 s later")
        assert tries() == 2
        clock[0] += 1.5
        store("2.5 s later")
        assert tries() == 3 and walbound.STATS["emptied"] == before["emptied"]
        code, out = _json("--db", str(db), "doctor")
        assert out["data"]["log_large"] is True and out["data"]["log_bytes"] >= 1 << 20
        assert any("write-ahead log" in note and "doctor --fix" in note for note in out["data"]["notes"])
        reader.stdin.write("\n")
        reader.stdin.flush()
        assert reader.stdout.readline().strip() == "released"
        clock[0] += 10.0
        store("after the reader let go")
        assert tries() == 4 and walbound.STATS["emptied"] == before["emptied"] + 1 and _wal(db) == 0
        for _ in range(3):  # it grows again from nothing
            store("after the truncate")
        assert 0 < _wal(db) < 256 << 10
    finally:
        if reader.poll() is None:
            reader.stdin.write("\n")
            reader.stdin.flush()
            reader.wait(timeout=60)
        s.close()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == len(OLD) + stored
    finally:
        conn.close()


def test_doctor_fix_empties_a_large_log_and_a_server_connection_is_exempt(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walbound, "BOUND_BYTES", 128 << 10)
    db = tmp_path / "memory.db"
    _fill(db, OLD)
    s = core.MemoryStore(db)
    try:
        from memengine.walcheckpoint import Checkpointer

        cp = Checkpointer(db, s.conn, idle=3600, quiet=3600, watch=3600, most=10**9)  # (its thread stays idle)
        cp.start()
        before = walbound.STATS["tries"]
        for i in range(60):
            s.store(f"through a server's connection {i}: the log is the checkpointer's", dedup=False)
        assert walbound.STATS["tries"] == before and _wal(db) > 128 << 10  # its commits never wait on a checkpoint
        code, out = _json("--db", str(db), "doctor", "--fix")
        assert code == 0 and out["data"]["log_large"] is True and out["data"]["log_bytes_after_fix"] == 0
        cp.close()
        s.store("after the server stopped: bounded by its commits again", dedup=False)
    finally:
        s.close()
    assert bk.last_backup(db) is None
