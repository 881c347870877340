"""``mem.py backup``: a checked copy of the memory file, by default timestamped into ``backups/`` next to it.

* The copy is SQLite's ``VACUUM INTO`` (consistent while other processes write) into a temporary file in the
  destination's folder, created 0600; then SQLite's ``integrity_check`` runs on the copy and it must read as
  a mem store; only then is it synced and renamed to its name. A killed or failed backup leaves no file
  under the final name (a half-written copy is never mistaken for a backup).
* Without a destination the copy is ``<db dir>/backups/<name>.<UTC time>.backup.db``, the folder consolidate
  uses, so ``mem.py restore --list`` shows it. Retention: the newest ``keep`` copies *of this kind* are kept,
  older ones of this kind deleted (``keep=0`` keeps all); consolidate's own backups (it keeps its newest 3),
  ``pre-restore`` copies (what a restore replaced) and ``damaged`` files moved aside are never deleted here.
* :func:`last_backup` (doctor) names the newest backup of any kind in that folder and its age.
"""

from __future__ import annotations

import contextlib
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from memengine.db import backup_dir
from memengine.errors import MemError, UserError
from memengine.privfile import fsync_path

KIND = "backup"  # the name's last part: <name>.<time>.backup.db
PRE_MIGRATE = "pre-migrate"  # the file as an older mem left it, kept before this one migrated it (never pruned)
DEFAULT_KEEP = 7  # copies of this kind kept by a backup with no destination
STALE_DAYS = 7  # doctor says so when the newest backup is older than this


def default_dest(db: Path, now: datetime, kind: str = KIND) -> Path:
    """``backups/<name>.<UTC time>.<kind>.db`` (``-2``, ``-3`` ... when that second is taken)."""
    folder = backup_dir(db)
    stamp = now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S")
    dest = folder / f"{db.name}.{stamp}.{kind}.db"
    n = 1
    while dest.exists():
        n += 1
        dest = folder / f"{db.name}.{stamp}-{n}.{kind}.db"
    return dest


def write_checked(conn: Any, db: Path, dest: Path) -> dict[str, Any]:
    """``VACUUM INTO`` a temporary file beside ``dest``, check it (integrity, a mem store), sync, rename.

    Raises :class:`UserError` if ``dest`` exists, the check's error (:class:`~memengine.errors.DamagedFile`,
    exit 8) if the copy fails it; nothing is left under ``dest`` or beside it then."""
    from memengine.privfile import private_dir, sweep_leftovers, vacuum_into
    from memengine.restore import describe_file

    if dest.exists():
        raise UserError(f"{dest}: already exists (choose a new file name, or leave it out: "
                        f"mem.py backup writes into {backup_dir(db)})")
    if dest.parent.exists() and not dest.parent.is_dir():
        raise UserError(f"{dest.parent}: is not a folder")
    private_dir(dest.parent)
    sweep_leftovers(dest.parent)  # (what a killed backup left there)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.mem-tmp")
    started = time.monotonic()
    try:
        vacuum_into(conn, tmp)  # 0600 from the first byte
        try:
            info = describe_file(tmp, check=True)
        except MemError as exc:  # (the copy's fault is the store's: say which file to look at)
            exc.message = f"{db}: its copy fails the check ({exc.message.replace(str(tmp), 'copy')}); " \
                          "nothing was written: run mem.py doctor"
            exc.args = (exc.message,)
            raise
        fsync_path(tmp)
        os.replace(tmp, dest)
        with contextlib.suppress(OSError):  # (the rename itself on the disk)
            fsync_path(dest.parent)
    finally:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{tmp}{suffix}")
    return {"path": str(dest), "size_bytes": dest.stat().st_size, "memories": info["memories"],
            "active": info["active"], "integrity": "ok", "seconds": round(time.monotonic() - started, 3)}


def before_upgrade(conn: Any, pending: list[str]) -> None:
    """Keep the file as an older mem left it before this one migrates it: ``backups/<name>.<time>.pre-migrate.db``
    (checked like any backup), and say so on stderr (users29: ten migrations rewrote an old store in place with
    no copy and no word). Called by :func:`memengine.migrations.migrate` inside the first migration's write
    transaction: a second connection copies the last committed state, which nobody can change meanwhile. A store
    with no memories is migrated without a copy. A copy that cannot be written stops the upgrade (nothing migrated)."""
    import sys

    from memengine.db import conn_path, connect

    db = conn_path(conn)
    if db is None or not conn.execute("SELECT EXISTS (SELECT 1 FROM memories)").fetchone()[0]:
        return
    dest = default_dest(db, datetime.now(timezone.utc), PRE_MIGRATE)
    reader = connect(db)
    try:
        write_checked(reader, db, dest)
    finally:
        reader.close()
    print(f"mem: {db} was written by an older mem: upgrading it ({len(pending)} migration"
          f"{'s' if len(pending) != 1 else ''}, {pending[0]}{' … ' + pending[-1] if len(pending) > 1 else ''}); "
          f"the file as it was is kept in {dest}", file=sys.stderr)


def prune(db: Path, keep: int) -> tuple[list[str], list[str]]:
    """Delete all but the newest ``keep`` backups of this kind (``keep <= 0``: none); (kept, deleted) names,
    newest first. Other kinds in the folder are never touched."""
    folder = backup_dir(db)
    mine = [p for p in folder.glob(f"{db.name}.*.{KIND}.db") if p.is_file()]
    mine.sort(key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    if keep <= 0:
        return [p.name for p in mine], []
    gone = mine[keep:]
    for p in gone:
        p.unlink(missing_ok=True)
    return [p.name for p in mine[:keep]], [p.name for p in gone]


def take(conn: Any, db: Path, dest: Path | None = None, keep: int = DEFAULT_KEEP,
         now: datetime | None = None, parents: bool = False) -> dict[str, Any]:
    """A checked backup of ``db`` (open as ``conn``) into ``dest``, or timestamped into ``backups/`` with the
    retention rule (see the module docstring). The report: path, size, memories, what was kept and deleted.

    ``dest``'s folder must exist unless ``parents``: a missing one is far more often a typo ("/mnt/usbb")
    than a wish, and a copy reported ok in a folder nobody looks at is a backup lost (:class:`UserError`
    naming the folder, nothing created); the store's own ``backups/`` is created as for a backup without DEST."""
    now = now or datetime.now(timezone.utc)
    default = dest is None
    # (the store's own backups/ is made as a backup without DEST makes it)
    if dest is not None and not parents and not dest.parent.exists() and dest.parent.resolve() != backup_dir(db.resolve()):
        missing = dest.parent
        raise UserError(f"{missing}: no such folder (nothing written; create it first, or add --parents to create it)")
    target = default_dest(db, now) if dest is None else dest
    report = write_checked(conn, db, target)
    report["path"] = str(target.resolve())
    report["folder"] = str(target.resolve().parent)
    if default:
        kept, deleted = prune(db, keep)
        others = [p.name for p in backup_dir(db).glob(f"{db.name}.*.db")
                  if p.is_file() and not p.name.endswith(f".{KIND}.db")]
        report.update(keep=keep, kept=kept, deleted=deleted, other_backups=len(others))
    return report


def last_backup(db: Path, now: datetime | None = None) -> dict[str, Any] | None:
    """The newest backup of ``db`` in ``backups/`` (by modification time; damaged files moved aside are not
    backups), or None."""
    from memengine.restore import KINDS

    folder = backup_dir(db.resolve())
    if not folder.is_dir():
        return None
    found = [p for p in folder.glob(f"{db.name}.*.db") if p.is_file() and not p.name.startswith(".")
             and not p.name.endswith(".damaged.db")]  # (a file moved aside is no copy to go back to)
    if not found:
        return None
    p = max(found, key=lambda q: (q.stat().st_mtime, q.name))
    at = datetime.fromtimestamp(p.stat().st_mtime, timezone.utc)
    kind = p.name[: -len(".db")].rsplit(".", 1)[-1]
    age = ((now or datetime.now(timezone.utc)) - at).total_seconds()
    return {"path": str(p), "kind": kind if kind in (*KINDS, KIND) else "other",
            "time": at.strftime("%Y-%m-%dT%H:%M:%SZ"), "age_hours": round(max(0.0, age) / 3600, 1),
            "count": len(found)}


def age_text(hours: float) -> str:
    """``3 min``, ``5.2 h``, ``12 days`` (doctor's line)."""
    if hours < 1:
        return f"{hours * 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    return f"{hours / 24:.0f} days"


# Free space under which doctor says so: a store's writes, a backup (about the file's size) and consolidate's
# copy need room, and each fails with disk_full once it is gone (doctor itself still runs on a full disk).
LOW_DISK_BYTES = 64 << 20


def disk_room_note(db: Path, log_bytes: int) -> tuple[int | None, str | None]:
    """(free bytes on the disk holding ``db``, doctor's line when that is under LOW_DISK_BYTES or the room a
    backup needs); (None, None) when the disk cannot be asked."""
    import shutil

    try:
        free = shutil.disk_usage(db.parent).free
        need = db.stat().st_size + log_bytes
    except OSError:
        return None, None
    if free >= max(LOW_DISK_BYTES, need):
        return free, None
    return free, (f"only {free:,} bytes free on the disk holding {db.parent}: new memories fail with disk_full when "
                  f"it runs out, and a backup there needs about {need:,}: free some space (or `mem.py backup` to "
                  "another disk)")


def doctor_notes(db: Path, conn: Any, fix: bool, now: datetime | None = None) -> tuple[dict[str, Any], list[str]]:
    """What ``doctor`` says about backups and the write-ahead log: (report fields, notes for a person).

    Neither is a problem of the file (doctor's exit code is unchanged): a store with no recent backup is
    one mistake away from a loss, and a log far past its bound means a reader held one snapshot for long
    while others wrote (memengine/walbound.py). ``fix`` empties such a log (a TRUNCATE checkpoint that waits
    at most 2 s for the readers of the moment)."""
    from memengine import walbound

    db = db.resolve()
    out: dict[str, Any] = {}
    notes = []
    last = last_backup(db, now)
    out["last_backup"] = last
    if last is None:
        notes.append(f"no backup in {backup_dir(db)}: run `mem.py backup` (a checked copy there)")
    elif last["age_hours"] > STALE_DAYS * 24:
        notes.append(f"the last backup is {age_text(last['age_hours'])} old ({last['path']}): run `mem.py backup`")
    from memengine import walholders

    out["log_held_by"], held = walholders.note(db, conn)  # another program's open transaction pins the log
    if held:
        notes.append(held)
    out["write_lock_held_by"], writing = walholders.writer_note(db)  # ... or keeps every writer waiting
    if writing:
        notes.append(writing)
    wal = Path(f"{db}-wal")
    size = wal.stat().st_size if wal.exists() else 0
    out["log_bytes"] = size
    room = disk_room_note(db, size)
    out["disk_free_bytes"] = room[0]
    if room[1]:
        notes.append(room[1])
    out["log_large"] = size > walbound.BOUND_BYTES
    if out["log_large"]:
        if fix:
            emptied = walbound.truncate(conn, 2000)
            out["log_bytes_after_fix"] = wal.stat().st_size if wal.exists() else 0
            if not emptied:
                notes.append(f"the write-ahead log {wal} is {size / 2**20:.1f} MB and could not be emptied now: "
                             "a process holds a read transaction open (a server's first keyword-index build, "
                             "a long report); it empties once it ends")
        else:
            notes.append(f"the write-ahead log {wal} is {size / 2**20:.1f} MB (usually under "
                         f"{walbound.BOUND_BYTES >> 20} MB): `mem.py doctor --fix` empties it")
    return out, notes
