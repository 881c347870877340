"""The SQLite connection: driver, pragmas, write transactions with busy retry, chunked IN queries,
and the one-line errors for a memory file SQLite cannot use (memengine.dbfile classifies them)."""

from __future__ import annotations

import os
import sqlite3 as _std_sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from memengine import dbfile, walbound, write_turns
from memengine.errors import KIND_ERRORS, Busy, IOFailure, MemError, MissingDependency, UserError

try:  # an SQLite that can load extensions (this machine's stdlib sqlite3 cannot)
    import sqlean as sqlite3
except ImportError:  # pragma: no cover - exercised only where sqlean is missing
    sqlite3 = _std_sqlite3  # type: ignore[no-redef]



class Connection(sqlite3.Connection):
    """The driver's connection, weakly referenceable (the driver's own is not): memengine.walbound keeps its
    per-connection state in a weak map, so a connection freed and another made at its address never share it."""


BUSY_RETRY_SECONDS = 30.0  # on top of busy_timeout, for BEGIN IMMEDIATE under heavy contention
IN_CHUNK = 500  # ids per "IN (...)" query: well under SQLite's bound-parameter limit


def _jitter() -> float:
    """A random fraction for a busy retry's sleep (``random`` imported here: a cold call that never waits skips it)."""
    import random

    return random.random()


def db_error(exc: BaseException, path: Path | str | None) -> MemError | None:
    """The one-line error for a driver exception or OSError about the memory file, or None.

    None means it is not a file problem (a bug, or a bad query): the caller re-raises.
    """
    kind = dbfile.classify(exc)
    p = Path(path) if path is not None else default_db_path()
    if kind is None and dbfile.damaged_under_extension(exc, p, raw_connect):
        kind = "damaged"
    if kind is None:
        return None
    folder = _READ_ONLY_FOLDERS.get(str(p.resolve().parent))
    if kind == "read_only" and folder == "disk_full":
        kind = "disk_full"  # opened read-only because the disk was full: that is what to fix
    code, message = dbfile.describe(kind, p, exc, backups=backup_dir(p), folder_read_only=folder == "read_only")
    return KIND_ERRORS.get(code, IOFailure)(message)


def os_error(exc: OSError, db: Path | str | None) -> MemError:
    """The one-line error for an OSError: about the memory file (see :func:`db_error`) or a file the user named."""
    named = Path(exc.filename) if exc.filename is not None else None
    p = Path(db) if db is not None else None
    ours = named is None or (p is not None and named.name.startswith(p.name) and named.parent == p.parent)
    if ours:
        err = db_error(exc, p)
        if err is not None:
            return err
    kind = dbfile.classify(exc)
    what = "disk is full" if kind == "disk_full" else (exc.strerror or str(exc))
    cls = KIND_ERRORS.get(kind or "", UserError if named is not None else IOFailure)
    return cls(f"{named if named is not None else 'mem'}: {what}")


def backup_dir(db: Path) -> Path:
    """Where consolidate keeps its backups of ``db``: ``backups/`` next to the file."""
    return db.parent / "backups"


# --------------------------------------------------------------------------- connection

def default_db_path() -> Path:
    """``MEM_DB`` if set, else ``memory.db`` in the user data dir (platformdirs)."""
    env = os.environ.get("MEM_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("mem", appauthor=False)) / "memory.db"


def _vec_extension_path() -> str:
    # Importing the sqlite_vec package pulls numpy.typing (~70 ms); we only need the
    # path of its loadable library, which find_spec gives without executing it.
    import importlib.util

    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency("sqlite-vec is not installed (pip install sqlite-vec)")
    return str(Path(next(iter(spec.submodule_search_locations))) / "vec0")


def connect(path: Path | str, create_parents: bool = True) -> Any:
    """Open (creating with mode 0600) a database with sqlite-vec loaded and our pragmas.

    A file SQLite cannot use (not a database, damaged, read-only where a write is needed,
    a full disk, a missing folder with ``create_parents=False``) raises the matching
    :class:`MemError` with one line naming the file and what to do.
    """
    path = Path(path)
    try:
        return _connect(path, create_parents)
    except (sqlite3.DatabaseError, OSError, UnicodeDecodeError) as exc:
        err = db_error(exc, path)
        if err is None:
            raise
        raise err from exc


def _connect(path: Path, create_parents: bool) -> Any:
    if str(path) != ":memory:":
        if path.is_dir():
            raise UserError(f"{path}: is a folder, not a memory file (point --db at a file inside it)")
        if not path.parent.exists():
            if not create_parents:
                raise UserError(f"{path}: folder {path.parent} does not exist (create it, or check --db)")
            old = os.umask(0o077)  # a new folder for the memory file is private (0700)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            finally:
                os.umask(old)
        if not path.exists():
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
                os.close(fd)
            except FileExistsError:
                pass
        else:
                dbfile.fix_side_file_modes(path)
    old_umask = os.umask(0o077)  # -wal and -shm files inherit private permissions too
    try:
        immutable = False
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, timeout=10.0, check_same_thread=False,
                                   factory=Connection)
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.OperationalError as exc:
            conn, immutable = _read_only_fallback(path, exc), True
        try:
            _prepare(conn)
            try:
                mode = "wal" if immutable else _journal_mode(conn)
            except sqlite3.OperationalError as exc:
                ro = _rollback_file_read_only(path, exc)
                if ro is None:
                    raise
                conn.close()
                conn = ro
                _prepare(conn)
                mode = "wal"  # (read as it is: no writer can exist, see _rollback_file_read_only)
            if mode.lower() != "wal" and str(path) != ":memory:":
                raise IOFailure(f"{path}: cannot switch to WAL journal mode (got {mode})")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA recursive_triggers = ON")
        except BaseException:
            conn.close()
            raise
    finally:
        os.umask(old_umask)
    return conn


def _prepare(conn: Any) -> None:
    """sqlite-vec loaded, rows by name, waits on locks: every connection :func:`connect` hands out."""
    if not hasattr(conn, "enable_load_extension"):
        raise MissingDependency("this Python's sqlite3 cannot load extensions: install sqlean-py")
    conn.enable_load_extension(True)
    conn.load_extension(_vec_extension_path())
    conn.enable_load_extension(False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout = 10000")


def _rollback_file_read_only(path: Path, exc: BaseException) -> Any:
    """A read-only connection to a rollback-journal file that cannot be switched to WAL, or None.

    A copy made by ``VACUUM INTO`` or sqlite3's ``.backup`` (and by mem.py backup before serve12) is in
    rollback-journal mode; on a read-only mount or share the switch to WAL is a write SQLite refuses.
    Nothing can write such a file there, so, without a hot ``-journal`` (an interrupted write to roll
    back: reading past it would see half a transaction), it is read as immutable, and writes fail with
    ReadOnly naming it. Only the read-only case: a busy or damaged file keeps its own error.
    """
    if dbfile.classify(exc) != "read_only" or not path.is_file():
        return None
    journal = Path(f"{path}-journal")
    if journal.exists() and journal.stat().st_size > 0:
        return None
    return _immutable(path, "read_only")


def _read_only_fallback(path: Path, exc: BaseException) -> Any:
    """Reads from a WAL file in a read-only folder or on a full disk (SQLite cannot make its ``-shm``).

    With no ``-wal`` (or an empty one) every commit is in the file and no writer can be
    active (none could write a -wal either), so the file is safely read as immutable;
    writes then fail with ReadOnly/DiskFull naming the folder.
    """
    kind = dbfile.classify(exc)
    if kind == "io_error" and _disk_nearly_full(path):
        kind = "disk_full"
    wal = dbfile.side_files(path)[0]
    if kind not in ("cantopen", "disk_full") or not path.is_file() or (wal.exists() and wal.stat().st_size > 0):
        raise exc  # a non-empty -wal holds commits that an immutable read would not see
    return _immutable(path, "disk_full" if kind == "disk_full" else "read_only")


def _immutable(path: Path, why: str) -> Any:
    """``path`` opened as immutable (no locks, no side files), its folder noted as ``why`` (read_only, disk_full)."""
    from urllib.parse import quote

    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?immutable=1", uri=True, isolation_level=None,
                           timeout=10.0, check_same_thread=False, factory=Connection)
    _READ_ONLY_FOLDERS[str(path.resolve().parent)] = why
    return conn


# folders _read_only_fallback found read-only (a mode check cannot tell for root) or full
_READ_ONLY_FOLDERS: dict[str, str] = {}


def opened_read_only(path: Path | str) -> bool:
    """Whether this process opened the memory file at ``path`` read-only (its folder or disk refused writes)."""
    return str(Path(path).resolve().parent) in _READ_ONLY_FOLDERS


def _disk_nearly_full(path: Path) -> bool:
    import shutil

    try:
        return shutil.disk_usage(path.parent).free < 1 << 20
    except OSError:
        return False


def _journal_mode(conn: Any) -> str:
    """Switch to WAL; a file already in WAL answers without writing (fine on a read-only or full disk).

    The switch is retried while another connection holds the write lock: SQLite answers a
    ``journal_mode`` change with SQLITE_BUSY at once, without waiting out busy_timeout (it holds
    a read lock while it asks for the write lock, and waiting could deadlock). Processes opening
    a new file together raced here: the one that lost the switch failed with "database is busy".
    """
    current = str(conn.execute("PRAGMA journal_mode").fetchone()[0])
    if current.lower() == "wal":
        return current
    deadline = time.monotonic() + BUSY_RETRY_SECONDS
    delay = 0.005
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay * (1 + _jitter()))
            delay = min(delay * 2, 0.25)


def is_busy(exc: BaseException) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED only (a read-only -wal at BEGIN IMMEDIATE is no lock to wait out)."""
    return dbfile.classify(exc) == "busy"


def _tx_error(conn: Any, exc: BaseException, what: str) -> MemError:
    """The error for a failed BEGIN/COMMIT/write: busy for real locks, the file's problem otherwise."""
    if is_busy(exc):
        return Busy(f"{what}: {exc}")
    err = db_error(exc, conn_path(conn))
    return err or IOFailure(f"{what}: {exc}")


def conn_path(conn: Any) -> Path | None:
    """The main file of a connection (None for an in-memory database)."""
    try:
        row = conn.execute("PRAGMA database_list").fetchone()
    except Exception:
        return None
    return Path(row[2]) if row is not None and row[2] else None


@contextmanager
def write_tx(conn: Any) -> Iterator[Any]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` with retry and jittered backoff on SQLITE_BUSY.

    A deferred BEGIN that reads and then writes fails at once under a concurrent
    writer whatever busy_timeout says; IMMEDIATE takes the write lock up front.
    A writer that finds the lock taken holds its turn while it waits, and a job that writes back to back
    (``write_turns.yielding``: consolidate) lets it in after its next commit (memengine/write_turns.py).
    """
    with ExitStack() as turn:
        _begin(conn, turn)
        try:
            yield conn
        except BaseException as exc:
            # After a full disk or an I/O error SQLite has already rolled back: a second
            # ROLLBACK would fail with "cannot rollback" and hide the real cause.
            _rollback(conn)
            if isinstance(exc, sqlite3.DatabaseError):
                err = db_error(exc, conn_path(conn))
                if err is not None:
                    raise err from exc
            raise
        else:
            try:
                conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                _rollback(conn)
                raise _tx_error(conn, exc, "commit failed") from exc
    walbound.after_commit(conn)  # a log past its bound is emptied (memengine/walbound.py); never raises
    if write_turns.is_yielding(conn):
        write_turns.after_commit(conn, conn_path(conn))  # the writers kept waiting go first; never raises


def _begin(conn: Any, turn: ExitStack) -> None:
    """``BEGIN IMMEDIATE``: tried once without waiting; if the lock is taken, the writer takes its turn
    (``turn`` holds it until the transaction ends), then waits busy_timeout and retries until
    :data:`BUSY_RETRY_SECONDS` have passed."""
    timeout = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("BEGIN IMMEDIATE")
        return
    except sqlite3.DatabaseError as exc:
        if not is_busy(exc):
            raise _tx_error(conn, exc, "database is busy") from exc
    finally:
        conn.execute(f"PRAGMA busy_timeout = {timeout}")
    turn.enter_context(write_turns.waiting(conn_path(conn)))
    deadline = time.monotonic() + BUSY_RETRY_SECONDS
    delay = 0.01
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.DatabaseError as exc:
            if not is_busy(exc) or time.monotonic() > deadline:
                raise _tx_error(conn, exc, "database is busy") from exc
            time.sleep(delay * (1 + _jitter()))
            delay = min(delay * 2, 0.5)


@contextmanager
def read_snapshot(conn: Any) -> Iterator[Any]:
    """One read transaction for the block: its statements all see the same committed state (in WAL mode
    writers go on meanwhile). A check that reads one table, then another, otherwise sees a write committed in
    between in one and not the other, and reports it as damage (doctor under agents that store). Inside a
    transaction already: that one's view. Keep the block short: no log frame after its start can be folded
    until it ends (memengine/walbound.py)."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        conn.execute("SELECT count(*) FROM sqlite_master")  # (a deferred BEGIN takes its snapshot at the first read)
        yield conn
    except BaseException:
        _rollback(conn)
        raise
    else:
        if conn.in_transaction:
            try:
                conn.execute("COMMIT")  # (nothing written: ends the read)
            except sqlite3.DatabaseError:
                _rollback(conn)


def _rollback(conn: Any) -> None:
    """ROLLBACK if a transaction is still open (SQLite ends some failed ones itself)."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.DatabaseError:
            pass


def raw_connect(uri: str, is_uri: bool = True) -> Any:
    """A bare connection with sqlite-vec loaded (doctor's read-only look at a damaged file)."""
    conn = sqlite3.connect(uri, uri=is_uri, isolation_level=None, timeout=10.0, check_same_thread=False,
                           factory=Connection)
    try:
        conn.enable_load_extension(True)
        conn.load_extension(_vec_extension_path())
        conn.enable_load_extension(False)
    except Exception:  # a damaged file is still worth reading without its vectors
        pass
    return conn


def diagnose_file(path: Path | str) -> dict[str, Any]:
    """``doctor`` for a file that does not open as a store: header, size, ``integrity_check``; read-only."""
    return dbfile.diagnose(Path(path), raw_connect)


def split_sql(script: str) -> list[str]:
    """Split a script into complete statements (trigger bodies keep their semicolons)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        if not buf and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out



def select_in(conn: Any, sql: str, ids: Iterable[int], args: Iterable[Any] = ()) -> Iterator[Any]:
    """Rows of ``sql`` for many ids: ``{ids}`` in ``sql`` becomes ``?,?,…``, queried in chunks.

    The id placeholders come first, then ``args`` (for the rest of the WHERE clause).
    """
    ids = list(ids)
    extra = list(args)
    for start in range(0, len(ids), IN_CHUNK):
        chunk = ids[start : start + IN_CHUNK]
        # each chunk read whole before its rows are handed out: a caller that works between rows would hold the
        # read snapshot of an open statement for as long (memengine/walbound.py: no log is emptied past it)
        yield from conn.execute(sql.format(ids=",".join("?" * len(chunk))), [*chunk, *extra]).fetchall()

