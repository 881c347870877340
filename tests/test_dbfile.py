"""Damaged and wrong memory files: one line naming the file, a documented exit code, never a traceback.

Commands run in-process through ``mem.main`` (the real entry point with its error
mapping) so that the matrix of files x commands stays fast; a few run as real
subprocesses where the process boundary is the point.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

import mem
import memengine.db
import memory_core as core

README = (ROOT / "README.md").read_text(encoding="utf-8")

# every command, with arguments that would work on a healthy store
EVERY_COMMAND: list[list[str]] = [
    ["recall", "deploy"], ["store", "a new fact"], ["get", "1"], ["forget", "1"], ["restore", "1"], ["stats"],
    ["reindex", "--missing"], ["compact"], ["export"], ["import", "jsonl", "{jsonl}"], ["backup", "{out}"],
    ["consolidate"], ["clusters"], ["contradictions"], ["link", "1", "2"], ["unlink", "1", "2"],
    ["graph", "show", "1"], ["graph", "export"], ["browse"], ["brief"], ["surface", "deploy the gateway"],
    ["share", "list"], ["share", "whoami"], ["share", "check", "1"],
]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    """``mem.py ARGS --json`` in this process: (exit status, the one JSON envelope)."""
    try:
        mem.main([*args, "--json"])
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    if args and args[0] == "export" and status == 0:
        return status, {"ok": True}
    assert len(lines) == 1, out
    return status, json.loads(lines[0])


def healthy(path: Path, n: int = 30) -> Path:
    """A store with ``n`` memories, checkpointed so the file alone holds them."""
    s = core.MemoryStore(path)
    for i in range(n):
        s.store(f"memory {i}: deploy the gateway on host {i} with ansible", "semantic")
    s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    return path


def assert_one_line_error(status: int, env: dict, code: str, path: Path) -> None:
    assert env["ok"] is False, env
    err = env["error"]
    assert err["code"] == code, err
    assert status == core.EXIT_CODES[code]
    assert str(path) in err["message"] and "\n" not in err["message"]


def assert_damaged_from_every_command(capsys: pytest.CaptureFixture[str], db: Path, words: str) -> None:
    """Every command on ``db`` fails with one line of ``damaged`` naming it and saying ``words``; the file unchanged."""
    before = db.read_bytes()
    jsonl = db.parent / "in.jsonl"
    jsonl.write_text('{"content": "x"}\n')
    for args in EVERY_COMMAND:
        args = [a.format(jsonl=jsonl, out=db.parent / "out.db") for a in args]
        status, env = run(capsys, "--db", str(db), *args)
        assert_one_line_error(status, env, "damaged", db)
        assert words in env["error"]["message"], args
    assert db.read_bytes() == before


def test_every_code_that_reaches_stdout_is_in_readme() -> None:
    table = README[README.index("Exit codes:"):]
    table = table[:table.index("`doctor` on a damaged")]
    for code, status in core.EXIT_CODES.items():
        assert f"`{code}`" in table and f"`{status}`" in table, code
    # and the base class answers a documented code
    assert core.MemError("x").code in core.EXIT_CODES


def test_an_error_is_one_line_whatever_it_quotes() -> None:
    err = core.DamagedFile("f.db: damaged (malformed database schema (orces')),\n    weight\r\x1b[2J\tx))")
    assert err.message == str(err) == "f.db: damaged (malformed database schema (orces')), weight [2J x))"
    assert core.UserError("a  b: c").message == "a  b: c"  # (a message without control characters is as written)


def test_not_a_database_from_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("these are my notes, not a database\n" * 20)
    assert_damaged_from_every_command(capsys, db, "not a memory database")
    assert not (tmp_path / "notes.txt-wal").exists()


@pytest.mark.parametrize("garbled", ["CAST(x'b0ff' AS TEXT)", "'orces'')),' || char(10) || '    weight'"])
def test_a_garbled_schema_name_is_one_line_of_damage_from_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], garbled: str) -> None:
    # A spoilt page can garble a schema row's name, and SQLite's "malformed database schema (<name>)" quotes it:
    # bytes the driver cannot decode (a UnicodeDecodeError rather than an SQLite error: CI met it once in ~30
    # damaged files), or schema text with its line breaks (2 damaged backups in 3000), still one line
    db = healthy(tmp_path / "memory.db")
    conn = core.sqlite3.connect(db)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(f"UPDATE sqlite_master SET name = {garbled}, tbl_name = 'x' WHERE name = '_mem_counts'")
    conn.commit()
    conn.close()
    assert_damaged_from_every_command(capsys, db, "doctor --recover")


def test_doctor_on_a_file_that_is_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("hello\n")
    status, env = run(capsys, "--db", str(db), "doctor")
    # (users26: a failure like any other, the report still in data)
    assert status == core.EXIT_CODES["damaged"] and env["ok"] is False and env["error"]["code"] == "damaged"
    rep = env["data"]
    assert rep["ok"] is False and rep["sqlite_header"] is False and rep["error"]["code"] == "damaged"
    assert rep["problems"] == ["not an SQLite database (wrong header)"]


def test_truncated_file_every_command_then_doctor_and_recover(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    good = healthy(tmp_path / "good.db", n=400)
    size = good.stat().st_size
    db = tmp_path / "cut.db"
    db.write_bytes(good.read_bytes()[: size * 9 // 10])  # the last tenth of the pages is gone
    before = db.read_bytes()
    for args in (["recall", "deploy"], ["store", "x"], ["stats"], ["get", "1"], ["consolidate"], ["export"]):
        status, env = run(capsys, "--db", str(db), *args)
        if status == 0:  # some reads touch only pages that survived: then the answer is right
            continue
        assert_one_line_error(status, env, "damaged", db)
        assert "doctor --recover" in env["error"]["message"]
    status, env = run(capsys, "--db", str(db), "doctor")
    assert status in (1, core.EXIT_CODES["damaged"]), env
    rep = env["data"]
    assert rep["ok"] is False and rep["integrity"] != "ok"
    out = tmp_path / "salvaged.db"
    status, env = run(capsys, "--db", str(db), "doctor", "--recover", str(out))
    assert status == 0, env
    res = env["data"]
    assert db.read_bytes() == before  # the damaged file is only read
    assert oct(out.stat().st_mode & 0o777) == "0o600"
    s = core.MemoryStore(out)
    contents = [r[0] for r in s.conn.execute("SELECT content FROM memories ORDER BY id")]
    originals = {f"memory {i}: deploy the gateway on host {i} with ansible" for i in range(400)}
    assert res["memories"] == len(contents) > 0 and set(contents) <= originals
    assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # the keyword index was rebuilt by the triggers: a recovered memory is found by its words
    hit = s.recall(contents[-1].split(":")[0], k=1, strategy="keyword", touch=False).results
    assert hit and hit[0].content == contents[-1]
    s.close()
    assert res["from_pages"]["memories"] == len(contents)  # the schema pages were lost: rows came from raw pages
    # recovering into an existing file is refused
    status, env = run(capsys, "--db", str(db), "doctor", "--recover", str(out))
    assert status == 1 and "already exists" in env["error"]["message"]


def test_recover_steps_over_garbage_pages(tmp_path: Path) -> None:
    good = healthy(tmp_path / "good.db", n=400)
    n = core.MemoryStore(good).stats()["memories"]
    data = bytearray(good.read_bytes())
    data[4096 * 20:4096 * 60] = bytes(range(256)) * (4096 * 40 // 256)  # 40 pages of garbage mid-file
    db = tmp_path / "garbled.db"
    db.write_bytes(bytes(data))
    res = core.recover_file(db, tmp_path / "out.db")
    # memories rows live on other pages than the garbled ones here: every one comes back
    assert res["memories"] == n
    s = core.MemoryStore(tmp_path / "out.db")
    assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert s.doctor(fix=True)["ok"] and s.stats()["vectors"] == n
    s.close()


def test_recover_a_healthy_file_is_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = healthy(tmp_path / "good.db", n=50)
    out = tmp_path / "copy.db"
    status, env = run(capsys, "--db", str(db), "doctor", "--recover", str(out))
    a, b = core.MemoryStore(db), core.MemoryStore(out)
    n = a.stats()["memories"]
    assert status == 0 and env["data"]["memories"] == n and env["data"]["vectors"] == n > 40
    assert env["data"]["missing_vectors"] == 0 and env["data"]["from_pages"] == {}
    q = "SELECT id, content, content_hash, created_at FROM memories ORDER BY id"
    assert a.conn.execute(q).fetchall() == b.conn.execute(q).fetchall()
    assert [m.id for m in a.recall("host 7", k=3, touch=False).results] == \
           [m.id for m in b.recall("host 7", k=3, touch=False).results]
    a.close()
    b.close()


def test_zero_length_file_is_a_new_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # SQLite's own rule: an empty file is an empty database (what `touch memory.db` means)
    db = tmp_path / "empty.db"
    db.touch()
    status, env = run(capsys, "--db", str(db), "store", "first")
    assert status == 0 and env["data"]["id"] == 1


def test_folder_and_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, env = run(capsys, "--db", str(tmp_path), "recall", "x")
    assert status == 2 and "is a directory" in env["error"]["message"]
    with pytest.raises(core.UserError, match="is a folder"):
        core.MemoryStore(tmp_path)
    missing = tmp_path / "no" / "such" / "memory.db"
    status, env = run(capsys, "--db", str(missing), "store", "x")
    assert_one_line_error(status, env, "invalid_input", missing)
    assert "does not exist" in env["error"]["message"] and not (tmp_path / "no").exists()


def test_default_path_creates_a_private_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEM_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    old = os.umask(0)
    try:
        status, env = run(capsys, "store", "hello")
    finally:
        os.umask(old)
    assert status == 0
    db = core.default_db_path()
    assert db.is_file() and str(db).startswith(str(tmp_path / "xdg"))
    assert oct(db.parent.stat().st_mode & 0o777) == "0o700"
    assert oct(db.stat().st_mode & 0o777) == "0o600"


def test_newer_schema_is_refused_by_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = healthy(tmp_path / "future.db", n=3)
    s = core.MemoryStore(db)
    s.conn.execute("INSERT INTO _mem_migrations(name, applied_at) VALUES ('m999_from_the_future', 'x')")
    s.close()
    for args in (["recall", "deploy"], ["store", "x"], ["stats"], ["consolidate"]):
        status, env = run(capsys, "--db", str(db), *args)
        assert_one_line_error(status, env, "newer_schema", db)
        assert "m999_from_the_future" in env["error"]["message"]
    status, env = run(capsys, "--db", str(db), "doctor")
    assert status == core.EXIT_CODES["newer_schema"] and env["data"]["integrity"] == "ok" and env["data"]["error"]["code"] == "newer_schema"


def test_wal_of_a_crashed_writer_is_replayed(tmp_path: Path) -> None:
    db = healthy(tmp_path / "crash.db", n=3)
    script = (f"import os, signal, sys; sys.path.insert(0, {str(ROOT)!r}); import memory_core as c; "
              f"s = c.MemoryStore({str(db)!r}); s.conn.execute('PRAGMA wal_autocheckpoint = 0'); "
              "s.store('only in the write-ahead log', 'semantic'); os.kill(os.getpid(), signal.SIGKILL)")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert Path(str(db) + "-wal").stat().st_size > 0
    out = run_cli("--db", str(db), "recall", "write-ahead log", "-k", "1")
    env = json.loads(out.stdout)
    assert out.returncode == 0 and env["data"]["results"][0]["content"] == "only in the write-ahead log"
    assert run_cli("--db", str(db), "doctor").returncode == 0


# --------------------------------------------------------------------------- read-only files and folders

def _root() -> bool:
    return os.geteuid() == 0


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file or folder read-only for this process: chmod for users; root ignores modes,
    so for root the inode is made immutable (chattr +i) and restored after."""
    if not _root():
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode & 0o777)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a file read-only")
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i not supported on this file system")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_read_only_file_reads_work_and_writes_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = healthy(tmp_path / "ro.db", n=5)
    before = db.read_bytes()
    with read_only(db):
        status, env = run(capsys, "--db", str(db), "recall", "deploy gateway", "-k", "2")
        assert status == 0 and env["data"]["count"] == 2
        assert env["warnings"] == [f"{db}: read-only, so the recalled memories were not reinforced"]
        status, env = run(capsys, "--db", str(db), "recall", "deploy", "--strategy", "graph")
        assert status == 0 and "not reinforced" in env["warnings"][0]
        for args in (["stats"], ["get", "1"], ["doctor"]):
            status, env = run(capsys, "--db", str(db), *args)
            assert status == 0 and env["ok"] is True, (args, env)
        assert env["data"]["fts_ok"] is True
        for args in (["store", "x"], ["forget", "1"], ["consolidate"]):
            status, env = run(capsys, "--db", str(db), *args)
            assert_one_line_error(status, env, "read_only", db)
    assert db.read_bytes() == before


def test_read_only_folder_without_wal_reads_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = healthy(folder / "m.db", n=5)
    for side in Path(str(db) + "-wal"), Path(str(db) + "-shm"):
        side.unlink(missing_ok=True)
    with read_only(folder):
        status, env = run(capsys, "--db", str(db), "recall", "deploy", "-k", "1")
        assert status == 0 and env["data"]["count"] == 1 and "not reinforced" in env["warnings"][0]
        status, env = run(capsys, "--db", str(db), "store", "x")
        assert_one_line_error(status, env, "read_only", db)
        assert f"folder {folder} is read-only" in env["error"]["message"]


def test_only_real_locks_are_busy(tmp_path: Path) -> None:
    # a read-only connection fails at BEGIN IMMEDIATE: that is no lock to wait out
    db = healthy(tmp_path / "m.db", n=1)
    conn = core.sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    with pytest.raises(core.ReadOnly), core.write_tx(conn):
        conn.execute("INSERT INTO _mem_meta(key, value) VALUES ('x', 'y')")
    conn.close()
    # a real lock is busy (after the retry deadline)
    holder = core.connect(db)
    holder.execute("BEGIN IMMEDIATE")
    other = core.connect(db)
    other.execute("PRAGMA busy_timeout = 1")
    old = memengine.db.BUSY_RETRY_SECONDS
    memengine.db.BUSY_RETRY_SECONDS = 0.0
    try:
        with pytest.raises(core.Busy), core.write_tx(other):
            pass
    finally:
        memengine.db.BUSY_RETRY_SECONDS = old
        holder.execute("ROLLBACK")


def test_side_files_left_read_only_are_made_writable_again(tmp_path: Path) -> None:
    # a process that opened the file during a read-only spell leaves -wal/-shm 0400 (SQLite
    # copies the file's mode); once the file is writable again they must be too, or every
    # write fails at BEGIN IMMEDIATE (root writes them anyway: the modes are what is checked)
    db = healthy(tmp_path / "m.db", n=1)
    holder = core.MemoryStore(db)  # keeps -wal/-shm in place
    sides = [Path(str(db) + "-wal"), Path(str(db) + "-shm")]
    for side in sides:
        side.chmod(0o400)
    s = core.MemoryStore(db)
    assert [oct(p.stat().st_mode & 0o777) for p in sides] == ["0o600", "0o600"]
    assert s.store("written after the spell", "semantic").deduplicated is False
    s.close()
    holder.close()


def test_disk_full_in_a_write_says_so_not_cannot_rollback(tmp_path: Path) -> None:
    s = core.MemoryStore(healthy(tmp_path / "m.db", n=1))
    pages = s.conn.execute("PRAGMA page_count").fetchone()[0]
    s.conn.execute(f"PRAGMA max_page_count = {pages + 1}")  # the file cannot grow: SQLITE_FULL
    rows = [core.NewMemory(content=f"imported line {i} " + "x" * 2000, memory_type="episodic", ref=f"r{i}",
                           source="import") for i in range(200)]
    with pytest.raises(core.DiskFull, match="disk is full"):
        s.store_many(rows)
    assert s.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 1
    assert not s.conn.in_transaction
    s.close()


@contextlib.contextmanager
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 3 MB tmpfs (root only), unmounted after."""
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    if not _root() or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mnt)],
                                     capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_full_disk_one_line_from_every_command_and_reads_still_work(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with tiny_disk(tmp_path) as mnt:
        db = healthy(mnt / "m.db", n=3)
        # fill the disk; unbuffered, so closing the file has nothing left to write (ENOSPC again)
        with open(mnt / "filler", "wb", buffering=0) as fh:
            with contextlib.suppress(OSError):
                while True:
                    fh.write(b"\0" * 65536)
        # (-k 3: all three; at -k 1 the notes step may keep the older a newer restates right under it)
        status, env = run(capsys, "--db", str(db), "recall", "deploy", "-k", "3")
        assert status == 0 and env["data"]["count"] == 3 and "disk is full" in env["warnings"][0]
        jsonl = tmp_path / "in.jsonl"
        jsonl.write_text("".join(json.dumps({"content": f"line {i} " + "y" * 500}) + "\n" for i in range(500)))
        for args in (["store", "x"], ["import", "jsonl", str(jsonl)], ["consolidate"], ["forget", "1"]):
            status, env = run(capsys, "--db", str(db), *args)
            assert_one_line_error(status, env, "disk_full", db)
            assert "disk is full" in env["error"]["message"]
        memengine.db._READ_ONLY_FOLDERS.clear()


def test_ids_beyond_sqlite_integers_are_not_found(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["get", str(2 ** 63)], ["forget", str(2 ** 64)], ["link", "1", str(2 ** 70)]):
        status, env = run(capsys, *args)
        assert status in (2, 3) and env["error"]["code"] in ("not_found", "usage"), env


def test_unknown_errors_are_one_line_internal(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def boom(*a: object, **k: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(core.MemoryStore, "stats", boom)
    status, env = run(capsys, "stats")
    assert status == 70 and env["error"]["code"] == "internal"
    assert re.match(r"internal error ZeroDivisionError: a bug \(a bug: please report it", env["error"]["message"])
