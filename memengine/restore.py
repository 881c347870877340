"""Putting a backup back: ``mem.py restore BACKUP`` and ``mem.py restore --list``.

Replacing the memory file by hand (``mv backup.db memory.db``) races with every process that has it
open: a server keeps writing to the old inode until it notices (memengine/storewatch.py), a process
that opened the path just before the move reads the new file with the old one's ``-wal`` and
``-shm`` (SQLite pairs them by name, not by file) and replays the old log into the restored file.

This module restores **in place, through SQLite**: the backup's pages are copied into the live file
with SQLite's online backup API, as one write transaction of the live file. So:

* nobody writes during the copy: the copy holds the file's write lock from its first page to its
  commit (other writers wait, as for any long write, and then write into the restored content);
  readers keep reading the old content until the commit, then read the new one;
* the file, its ``-wal`` and ``-shm`` stay the ones every process has open: no old log can be
  replayed into the restored file, no process is left writing to a file nobody opens again;
* a crash (kill -9, power loss: the commit is synced) leaves the old store whole (the transaction
  never committed) or the new one whole;
* the current content is kept first: inside the copy, once the write lock is held and before
  anything is committed, a ``VACUUM INTO`` of the live file writes
  ``backups/<name>.<time>.pre-restore.db`` (exactly what the restore replaces: nothing can
  commit in between). Consolidate never prunes these;
* warm servers notice: the copy moves SQLite's schema cookie, and the restored file carries a new
  ``restore_id`` in ``_mem_meta``; a server's file watch reads it when the cookie moves and reopens
  the store before its next call (memengine/storewatch.py).

The backup is checked before anything is touched (``integrity_check``, a mem store, no migration
this code does not know, the embedding model), copied to a temporary file next to the store and
migrated to this code's schema there. A current file that SQLite cannot open at all (not a
database) cannot be written through SQLite: it is moved aside into ``backups/`` (``.damaged.db``,
with its ``-wal``/``-shm`` renamed beside it) and the checked copy takes its place (``os.replace``).
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from memengine.db import backup_dir, connect, raw_connect, sqlite3
from memengine.errors import Busy, DamagedFile, LockedError, MemError, NewerSchema, UserError
from memengine.migrations import MIGRATIONS, migrate
from memengine.privfile import fsync_path

BUSY_SECONDS = 60.0  # how long the copy waits for the write lock (other writers' transactions) before `busy`
STEP_PAGES = 1024  # pages copied per step of the backup API (the lock is held from the first step to the commit)
KINDS = ("consolidate", "backup", "pre-restore", "damaged", "pre-migrate")  # the backups mem writes into backups/ (by their name)
# What reading a damaged file raises: SQLite's own errors, or a text value a spoilt page no longer holds as UTF-8
# (the driver decodes it; a damaged sqlite_master row gives a UnicodeDecodeError, not a DatabaseError)
UNREADABLE = (sqlite3.DatabaseError, UnicodeDecodeError)


def lock_path(db: Path) -> Path:
    """The job lock a restore shares with consolidate (memengine.consolidate.lock_path: the same file),
    so that no consolidate runs on content a restore is replacing, and no two restores run at once."""
    return Path(str(db) + ".consolidate.lock")


def _stamp(now: datetime) -> str:
    return now.strftime("%Y%m%dT%H%M%S")


def _ro(path: Path) -> Any:
    """A read-only look at a file that is not ours to change (a backup): no -wal made, nothing written."""
    from urllib.parse import quote

    return raw_connect(f"file:{quote(str(path.resolve()))}?mode=ro", True)


# --------------------------------------------------------------------------- what a file holds

def _counts(conn: Any) -> dict[str, int]:
    """Memories by status (``_mem_counts``, kept exact by triggers; a count of the table if it is missing)."""
    try:
        rows = conn.execute("SELECT status, sum(n) FROM _mem_counts WHERE what = 'memories' GROUP BY status")
        by = {str(s): int(n) for s, n in rows.fetchall() if n}
    except sqlite3.DatabaseError:  # (no counts table: an older store; a damaged page is the caller's to report)
        by = {str(s): int(n) for s, n in conn.execute("SELECT status, count(*) FROM memories GROUP BY status")}
    return by


def describe_file(path: Path, check: bool = False) -> dict[str, Any]:
    """What a backup (or store) file holds: memories, active memories, its last migration, embedding model.

    ``check`` runs SQLite's ``integrity_check`` too (reads every page: seconds at 100k memories).
    Raises :class:`UserError` for a file that is no mem store, :class:`DamagedFile` for a damaged one,
    :class:`NewerSchema` for one a newer mem wrote."""
    if not path.is_file():
        raise UserError(f"{path}: no such backup file")
    try:
        conn = _ro(path)
    except sqlite3.DatabaseError as exc:
        raise DamagedFile(f"{path}: cannot be opened ({exc})") from exc
    try:
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except UNREADABLE as exc:
            raise (UserError if "not a database" in str(exc) else DamagedFile)(
                f"{path}: not a readable SQLite database ({exc})") from exc
        if not {"memories", "_mem_migrations", "_mem_meta"} <= tables:
            raise UserError(f"{path}: an SQLite file, but not a mem store (no memories table)")
        if check:
            bad = [r[0] for r in conn.execute("PRAGMA integrity_check(5)").fetchall()]
            if bad != ["ok"]:
                raise DamagedFile(f"{path}: fails SQLite's integrity_check ({'; '.join(bad)[:200]}); "
                                  "choose another backup (mem.py restore --list)")
        done = [r[0] for r in conn.execute("SELECT name FROM _mem_migrations ORDER BY name")]
        known = {name for name, _ in MIGRATIONS}
        newer = sorted(set(done) - known)
        if newer:
            raise NewerSchema(f"{path}: written by a newer mem (unknown migrations: {', '.join(newer)}); "
                              "upgrade mem to restore it")
        meta = dict(conn.execute("SELECT key, value FROM _mem_meta WHERE key IN "
                                 "('embedding_model', 'restore_id', 'restored_from', 'restored_at')").fetchall())
        by = _counts(conn)
        page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    except UNREADABLE as exc:
        raise DamagedFile(f"{path}: damaged ({exc}); choose another backup (mem.py restore --list)") from exc
    finally:
        conn.close()
    last = max((i for i, (name, _) in enumerate(MIGRATIONS) if name in done), default=-1)
    return {"memories": sum(by.values()), "active": by.get("active", 0), "by_status": by,
            "schema": MIGRATIONS[last][0] if last >= 0 else None, "model": meta.get("embedding_model"),
            "page_size": page_size, "restored_from": meta.get("restored_from")}


def list_backups(db: Path, folder: Path | None = None) -> list[dict[str, Any]]:
    """The backups of ``db`` in ``backups/`` next to it, newest first: path, kind, time, size, memories.

    ``folder``: another folder (``restore --list --from DIR``): every ``*.db`` file in it, whatever its name
    (a ``mem.py backup DEST`` may be named anything); files that are no mem store say so in their ``error``.
    A backup that cannot be read is listed with its ``error`` (one line), not skipped."""
    if folder is not None:
        if not folder.exists():
            raise UserError(f"{folder}: no such folder")
        if not folder.is_dir():
            raise UserError(f"{folder}: is a file, not a folder (restore it with: mem.py restore {folder})")
        pattern = "*.db"
    else:
        folder, pattern = backup_dir(db), f"{db.name}.*.db"
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob(pattern) if p.is_file() and not p.name.startswith(".")
             and not (db.exists() and p.resolve() == db.resolve())]
    found.sort(key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    out = []
    for p in found:
        st = p.stat()
        kind = p.name[: -len(".db")].rsplit(".", 1)[-1]
        item: dict[str, Any] = {
            "path": str(p), "name": p.name, "kind": kind if kind in KINDS else "other",
            "time": datetime.fromtimestamp(st.st_mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "size_bytes": st.st_size}
        try:
            info = describe_file(p)
            item.update(memories=info["memories"], active=info["active"], schema=info["schema"], model=info["model"])
        except MemError as exc:
            item.update(memories=None, error=exc.message)
        out.append(item)
    return out


def resolve_backup(db: Path, name: str, folder: Path | None = None) -> Path:
    """The backup file ``name`` names: a path, or a file name of ``mem.py restore --list [--from DIR]`` (in
    ``folder``, default backups/)."""
    p = Path(name).expanduser()
    where = folder if folder is not None else backup_dir(db)
    if not p.exists() and not p.is_absolute() and len(p.parts) == 1 and (where / p).exists():
        p = where / p
    if not p.exists():
        raise UserError(f"{name}: no such backup file (mem.py restore --list shows the backups of {db})")
    if p.is_dir():
        raise UserError(f"{p}: is a folder, not a backup file")
    if db.exists() and p.resolve() == db.resolve():
        raise UserError(f"{p}: is the memory file itself, not a backup of it")
    return Path(os.path.abspath(p))  # (users33 #3: the reply's restored_from names it from anywhere, not from where mem ran)


# --------------------------------------------------------------------------- the restore

def _current(db: Path) -> dict[str, Any] | None:
    """What the current file holds (None when there is none), or ``{"damaged": message}`` when SQLite cannot
    read it: such a file cannot be written through SQLite, so it is moved aside instead."""
    if not db.exists() or db.stat().st_size == 0:
        return None
    with open(db, "rb") as fh:
        if fh.read(16) != b"SQLite format 3\0":  # (never opened: SQLite drops the -wal of a file it cannot read)
            return {"damaged": "file is not a database"}
    try:
        conn = raw_connect(str(db), False)
    except sqlite3.DatabaseError as exc:
        return {"damaged": str(exc)}
    try:
        conn.execute("PRAGMA busy_timeout = 10000")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        info: dict[str, Any] = {"page_size": int(conn.execute("PRAGMA page_size").fetchone()[0])}
        if "memories" in tables:
            by = _counts(conn)
            info.update(memories=sum(by.values()), active=by.get("active", 0))
        if "_mem_meta" in tables:
            row = conn.execute("SELECT value FROM _mem_meta WHERE key = 'embedding_model'").fetchone()
            info["model"] = row[0] if row else None
        return info
    except UNREADABLE as exc:
        return {"damaged": str(exc)}
    finally:
        conn.close()


def _prepare(backup: Path, tmp: Path, page_size: int | None, source_name: str) -> dict[str, Any]:
    """Copy ``backup`` to ``tmp`` (a consistent copy, the backup untouched), check the copy, bring it to this
    code's schema, and stamp it with a new ``restore_id`` (what tells servers to reopen)."""
    src = _ro(backup)
    try:
        dst = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            src.backup(dst)
            if page_size is not None and int(dst.execute("PRAGMA page_size").fetchone()[0]) != page_size:
                # SQLite copies pages into a WAL file only at its own page size
                dst.execute("PRAGMA journal_mode = DELETE")
                dst.execute(f"PRAGMA page_size = {int(page_size)}")
                dst.execute("VACUUM")
        finally:
            dst.close()
    finally:
        src.close()
    try:
        info = describe_file(tmp, check=True)
    except MemError as exc:  # (the copy's fault is the backup's: name the file the user gave)
        exc.message = exc.message.replace(str(tmp), str(backup))
        exc.args = (exc.message,)
        raise
    conn = connect(tmp)
    try:
        applied = migrate(conn)
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with contextlib.closing(conn.cursor()) as cur:
            cur.execute("BEGIN IMMEDIATE")
            cur.executemany("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)",
                            [("restore_id", uuid.uuid4().hex), ("restored_from", source_name), ("restored_at", now)])
            cur.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    info["migrated"] = applied
    return info


def _copy_in(db: Path, tmp: Path, pre: Path) -> dict[str, Any]:
    """Copy ``tmp`` into the live file ``db`` as one write transaction (SQLite's backup API); once its write
    lock is held and before anything commits, keep the current content in ``pre``. Returns timings."""
    from memengine.privfile import private_dir, vacuum_into

    src = sqlite3.connect(str(tmp), isolation_level=None)
    dst = connect(db)
    started = time.monotonic()
    state: dict[str, Any] = {}
    try:
        dst.execute("PRAGMA synchronous = FULL")  # the restore's commit is on the disk when we say it is done
        src.execute("BEGIN")  # one read snapshot of the copy for every step
        pages = int(src.execute("PRAGMA page_count").fetchone()[0])
        step = max(1, min(STEP_PAGES, pages // 4))  # the first step must not be the last: the snapshot runs after it

        def progress(status: int, remaining: int, total: int) -> None:
            if "locked_at" in state:
                return
            if status != 0:  # SQLITE_BUSY / LOCKED: another writer holds the lock; the API retries
                if time.monotonic() - started > BUSY_SECONDS:
                    raise Busy(f"{db}: another process kept the write lock for over {BUSY_SECONDS:.0f} s; "
                               "nothing was changed (try again)")
                return
            state["locked_at"] = time.monotonic()
            private_dir(pre.parent)
            part = pre.with_name(f".{pre.name}.{os.getpid()}.mem-tmp")
            reader = connect(db)
            try:
                vacuum_into(reader, part)  # the last committed state: nobody can commit while we hold the lock
                fsync_path(part)
                os.replace(part, pre)
            finally:
                reader.close()
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(part)
            state["snapshot_seconds"] = round(time.monotonic() - state["locked_at"], 3)

        src.backup(dst, pages=step, progress=progress, sleep=0.02)
        if "locked_at" not in state:  # (cannot happen: the first step never copies every page)
            raise MemError(f"{db}: the restore committed before the current content was kept")
        state["lock_held_seconds"] = round(time.monotonic() - state["locked_at"], 3)
        del state["locked_at"]
        with contextlib.suppress(sqlite3.DatabaseError):  # (readers of the moment: the servers' checkpointers fold it)
            dst.execute("PRAGMA busy_timeout = 200")
            dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.DatabaseError as exc:
        from memengine.db import db_error

        raise (db_error(exc, db) or MemError(f"{db}: restore failed ({exc})")) from exc
    finally:
        src.close()
        dst.close()
    return state


def _move_aside(db: Path, dest: Path) -> list[str]:
    """Move a file SQLite cannot open, with its -wal and -shm (kept paired by their names), to ``dest``."""
    moved = []
    for suffix in ("", "-wal", "-shm"):
        p = Path(f"{db}{suffix}")
        if p.exists():
            target = Path(f"{dest}{suffix}")
            os.replace(p, target)
            moved.append(str(target))
    return moved


def restore(db: Path, backup: Path, dry_run: bool = False, now: datetime | None = None,
            new_folder: bool = False) -> tuple[dict[str, Any], list[str]]:
    """Restore ``backup`` into the memory file ``db`` (see the module docstring); (report, warnings).

    ``dry_run`` checks the backup and reports what would change; nothing is written. ``new_folder``: ``db`` is
    the default file, whose folder is made on first use as every command makes it (users31: a restore on a
    new machine, before any other command, was refused with "check --db" — a flag the user never gave)."""
    from filelock import FileLock, Timeout

    now = now or datetime.now(timezone.utc)
    started = time.monotonic()
    db = Path(db)
    if not db.parent.is_dir():
        if not new_folder:
            raise UserError(f"{db}: folder {db.parent} does not exist (check --db)")
        if not dry_run:
            db.parent.mkdir(parents=True, exist_ok=True)
    current = _current(db)
    incoming = describe_file(backup, check=dry_run)  # (a real run checks the copy it restores: _prepare)
    warnings = []
    before_model = (current or {}).get("model")
    if incoming["model"] and before_model and incoming["model"] != before_model:
        warnings.append(f"the backup's vectors come from {incoming['model']!r}, the current store's from "
                        f"{before_model!r}: recall refuses to mix them; run `mem.py reindex` after the restore")
    report: dict[str, Any] = {
        "path": str(db), "restored_from": str(backup), "dry_run": dry_run,
        "mode": "new" if current is None else ("replaced" if "damaged" in current else "in_place"),
        "memories_before": (current or {}).get("memories"), "active_before": (current or {}).get("active"),
        "memories_after": incoming["memories"], "active_after": incoming["active"],
        "model_before": before_model, "model_after": incoming["model"], "backup_schema": incoming["schema"]}
    if current is not None and "damaged" in current:
        warnings.append(f"{db}: SQLite cannot read it ({current['damaged']}); it is moved aside, not copied "
                        "(stop the mem processes that have it open)")
    if dry_run:
        report["seconds"] = round(time.monotonic() - started, 3)
        return report, warnings
    lock = FileLock(str(lock_path(db)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise LockedError(f"a consolidate or another restore is running on {db} (lock {lock_path(db)}); "
                          "try again when it has finished") from None
    from memengine.privfile import sweep_leftovers

    sweep_leftovers(db.parent)  # (what a killed restore left: its prepared copy, its pre-restore copy)
    sweep_leftovers(backup_dir(db))
    tmp = db.with_name(f".{db.name}.restore-{os.getpid()}.mem-tmp")
    try:
        prepared = _prepare(backup, tmp, (current or {}).get("page_size") if report["mode"] == "in_place" else None,
                            str(backup.resolve()))
        report["migrated"] = prepared["migrated"]
        kind = {"in_place": "pre-restore", "replaced": "damaged"}.get(report["mode"])
        keep = backup_dir(db) / f"{db.name}.{_stamp(now)}.{kind}.db" if kind else None
        n = 1
        while keep is not None and keep.exists():
            n += 1
            keep = backup_dir(db) / f"{db.name}.{_stamp(now)}-{n}.{kind}.db"
        if report["mode"] == "in_place":
            assert keep is not None
            report.update(_copy_in(db, tmp, keep))
        else:
            from memengine.privfile import private_dir

            private_dir(backup_dir(db))
            if keep is not None:
                report["moved_aside"] = _move_aside(db, keep)
            else:  # no file: a -wal or -shm left without it must not meet the restored one
                report["moved_aside"] = _move_aside(db, backup_dir(db) / f"{db.name}.{_stamp(now)}.orphan") \
                    if any(Path(f"{db}{s}").exists() for s in ("-wal", "-shm")) else []
            fsync_path(tmp)
            os.replace(tmp, db)
            os.chmod(db, 0o600)
        report["previous_kept_in"] = str(keep) if keep is not None else None
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{tmp}{suffix}")
        lock.release()
    report["seconds"] = round(time.monotonic() - started, 3)
    return report, warnings
