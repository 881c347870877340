"""Opening, diagnosing and salvaging memory files: what went wrong, in one line a user can act on.

SQLite reports a damaged, foreign, read-only or full file as an exception somewhere
between ``connect`` and the first real query. :func:`classify` turns such an exception
into a *kind* (``damaged``, ``read_only``, ``disk_full``, ``busy``, ``io_error``) and
:func:`describe` into one line naming the file and what to do. :func:`diagnose` is
``doctor`` for a file that cannot be opened as a store; :func:`recover` copies every
row SQLite can still read into a new file, never writing to the old one.

This module knows nothing of the store's classes: callers map kinds to their errors.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

SQLITE_HEADER = b"SQLite format 3\x00"

# primary result codes (sqlite3.h); the driver's exception carries the extended code
SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY = 3, 5, 6, 8
SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN = 10, 11, 13, 14
SQLITE_NOTADB, SQLITE_AUTH = 26, 23

KINDS = ("damaged", "read_only", "disk_full", "busy", "io_error", "newer_schema")


def _sqlite_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return int(code) & 0xFF if isinstance(code, int) else None


def classify(exc: BaseException) -> str | None:
    """The kind of file problem behind a driver exception or OSError, or None if it is not one.

    Uses SQLite's result code when the driver gives it (Python ≥ 3.11 and sqlean), the
    message otherwise. Only SQLITE_BUSY and SQLITE_LOCKED are ``busy``: a read-only
    ``-wal`` at ``BEGIN IMMEDIATE`` is not a lock to wait out.
    """
    if isinstance(exc, OSError):
        if exc.errno == errno.ENOSPC or exc.errno == errno.EDQUOT or exc.errno == errno.EFBIG:
            return "disk_full"
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "read_only"
        return None
    if isinstance(exc, UnicodeDecodeError):  # (SQLite's own message quoting a schema name a spoilt page garbled)
        return "damaged"
    code = _sqlite_code(exc)
    msg = str(exc).lower()
    if code is not None:
        if code in (SQLITE_BUSY, SQLITE_LOCKED):
            return "busy"
        if code in (SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH):
            return "read_only"
        if code == SQLITE_FULL:
            return "disk_full"
        if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
            return "damaged"
        if code == SQLITE_IOERR:
            return "io_error"
        if code == SQLITE_CANTOPEN:
            return "cantopen"
        return None
    # drivers without result codes: the messages of sqlite3.c's sqlite3ErrStr
    for needle, kind in (("database is locked", "busy"), ("database table is locked", "busy"),
                         ("readonly database", "read_only"), ("disk is full", "disk_full"),
                         ("disk image is malformed", "damaged"), ("file is not a database", "damaged"),
                         ("disk i/o error", "io_error"), ("unable to open database file", "cantopen")):
        if needle in msg:
            return kind
    return None


# sqlite-vec reports a page of its own tables it cannot read as a plain SQL error (SQLITE_ERROR), not as
# SQLITE_CORRUPT: "chunks iter error", "could not open vectors blob for chunk 1", "vectors blob read error for 1",
# "Could not fetch vector data for 17, opening blob failed" (users29: one zeroed page; exit 70 "a bug")
_VEC_STORAGE_WORDS = ("blob", "chunk", "vector data")


def damaged_under_extension(exc: BaseException, path: Path | None, connect: Callable[[str, bool], Any]) -> bool:
    """Whether an error ``classify`` does not know is an extension's way of meeting a damaged file.

    Only an error that reads like sqlite-vec's storage errors, on a file whose ``PRAGMA quick_check`` fails
    (run on a read-only connection, on this failure path only): a bug in a healthy file stays a bug.
    """
    msg = str(exc).lower()
    if path is None or classify(exc) is not None or not any(w in msg for w in _VEC_STORAGE_WORDS):
        return False
    try:
        conn = open_read_only(path, connect)
    except Exception:  # cannot even be opened read-only: not for this check to say
        return False
    try:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
        return row is None or str(row[0]) != "ok"
    except Exception as check:  # the check itself fails on the damaged pages
        return classify(check) == "damaged"
    finally:
        conn.close()


def _free_bytes(path: Path) -> int | None:
    folder = path.parent if path.parent.exists() else Path(".")
    import shutil  # (here: a cold call that reads no free space skips shutil's imports)

    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def size_limit_reached(path: Path) -> int | None:
    """This process's file size limit (``ulimit -f``, RLIMIT_FSIZE) in bytes when the file or its write-ahead log
    has grown to within a megabyte of it; None when there is no limit or it is far."""
    try:
        import resource  # (Unix only; here: only a failed write reads it)

        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    except (ImportError, OSError, ValueError):
        return None
    if limit == resource.RLIM_INFINITY or limit < 0:
        return None
    for p in (path, side_files(path)[0], Path(str(path) + "-journal")):
        try:
            if p.stat().st_size + (1 << 20) >= limit:
                return int(limit)
        except OSError:
            continue
    return None


def _header_ok(path: Path) -> bool | None:
    """True if the file starts like an SQLite database; None if it cannot be read or is empty."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
    except OSError:
        return None
    return None if not head else head == SQLITE_HEADER


def side_files(path: Path) -> list[Path]:
    """The write-ahead log and shared-memory index SQLite keeps next to the file."""
    return [Path(str(path) + "-wal"), Path(str(path) + "-shm")]


def fix_side_file_modes(path: Path) -> list[str]:
    """Make our own ``-wal``/``-shm`` writable again when the file itself is.

    A process that opened the store while the file was read-only (0400) leaves them
    0400 (SQLite copies the file's mode); once the file is writable again every write
    would fail at ``BEGIN IMMEDIATE``. They are ours and private, so 0600 is right.
    Returns the names changed.
    """
    fixed: list[str] = []
    if not os.access(path, os.W_OK):
        return fixed
    for side in side_files(path):
        try:
            st = side.stat()
        except OSError:
            continue
        if st.st_uid == os.geteuid() and not st.st_mode & stat.S_IWUSR:
            try:
                os.chmod(side, 0o600)
                fixed.append(side.name)
            except OSError:
                pass
    return fixed


def _read_only_mount(path: Path) -> bool:
    """Whether ``path``'s file system is mounted read-only (chmod cannot help there)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # (no statvfs on Windows)
        return False


def describe(kind: str, path: Path, exc: BaseException | None = None, backups: Path | None = None,
             folder_read_only: bool = False) -> tuple[str, str]:
    """``(kind, one line)`` for a problem with the memory file at ``path``.

    ``cantopen`` is resolved here to the concrete cause (a folder, a missing folder, no
    permission, a hot journal that needs write access). The line names the file and
    what to do next. ``folder_read_only``: the caller found the folder read-only (a
    permission check cannot tell for root, or for a read-only mount).
    """
    detail = f" ({exc})" if exc is not None and str(exc) else ""
    restore = (f"put a backup back (`mem.py restore --list` shows those in {backups}, `mem.py restore NAME` "
               "keeps this file)") if backups else "put a backup back (`mem.py restore BACKUP`)"
    if kind == "cantopen":
        if path.is_dir():
            return "invalid_input", f"{path}: is a folder, not a memory file (point --db at a file inside it)"
        if not path.parent.exists():
            return "invalid_input", f"{path}: folder {path.parent} does not exist (create it, or check --db)"
        if path.exists() and not os.access(path, os.R_OK):
            return "read_only", f"{path}: no permission to read it (check its owner and mode)"
        if not os.access(path.parent, os.W_OK) and any(p.exists() for p in side_files(path)):
            return "read_only", (f"{path}: its write-ahead log needs write access to {path.parent} to be read "
                                 f"(a writer stopped mid-way): run `mem.py doctor` once with write access")
        if not os.access(path.parent, os.W_OK) and not path.exists():
            return "read_only", f"{path}: cannot create it, folder {path.parent} is read-only"
        return "io_error", f"{path}: cannot open it{detail}"
    if kind == "damaged":
        head = _header_ok(path)
        if head is False:
            return "damaged", (f"{path}: not a memory database (not an SQLite file): check --db; if this was your "
                               f"memory file, {restore}")
        return "damaged", (f"{path}: the database is damaged{detail}: run `mem.py doctor` to see how, "
                           f"`mem.py doctor --recover NEW.db` to salvage what can be read, or {restore}")
    if kind == "read_only":
        stuck = [p.name for p in side_files(path) if p.exists() and not os.access(p, os.W_OK)]
        if stuck and os.access(path, os.W_OK):
            return "read_only", (f"{path}: {' and '.join(stuck)} are read-only (left by a read-only spell): "
                                 f"chmod 600 {' '.join(str(path.parent / n) for n in stuck)}")
        if path.exists() and _read_only_mount(path):
            return "read_only", (f"{path}: is on a read-only mount; reads work, writes need a copy on a writable "
                                 f"disk (mem.py --db {path} backup COPY.db)")
        if path.exists() and not os.access(path, os.W_OK):
            return "read_only", (f"{path}: the memory file is read-only; reads work, writes need write access "
                                 "(chmod u+w, or use a copy: mem.py backup COPY.db)")
        if folder_read_only or not os.access(path.parent, os.W_OK):
            return "read_only", (f"{path}: folder {path.parent} is read-only; writes need to create "
                                 f"{path.name}-wal there")
        return "read_only", f"{path}: cannot write{detail}"
    if kind in ("disk_full", "io_error"):
        # SQLite reports a write the file size limit refused (EFBIG) as a disk I/O error: the disk is fine (users34)
        limit = size_limit_reached(path)
        if limit is not None:
            return "disk_full", (f"{path}: the file size limit ({limit:,} bytes: ulimit -f) is reached: raise it and "
                                 "retry; nothing was half-written")
    if kind == "disk_full":
        free = _free_bytes(path)
        room = f" ({free:,} bytes free)" if free is not None else ""
        return "disk_full", f"{path}: disk is full{room}: free some space and retry; nothing was half-written"
    if kind == "busy":
        return "busy", f"{path}: database is busy{detail}"
    if kind == "io_error":
        free = _free_bytes(path)
        if free is not None and free < 1 << 20:
            return describe("disk_full", path, exc, backups)
        return "io_error", f"{path}: input/output error{detail}: check the disk, then run `mem.py doctor`"
    return kind, f"{path}: {exc}"


# --------------------------------------------------------------------------- doctor for a damaged file

def open_read_only(path: Path, connect: Callable[[str, bool], Any]) -> Any:
    """A read-only connection that never writes to ``path`` (``mode=ro``, else ``immutable=1``).

    ``connect(uri, uri=True)`` is the driver's connect. ``immutable`` ignores a ``-wal``,
    so it is the fallback for a folder where the shared-memory file cannot be made.
    """
    from urllib.parse import quote

    base = "file:" + quote(str(path.resolve()))
    last: BaseException | None = None
    for flags in ("?mode=ro", "?mode=ro&immutable=1"):
        try:
            conn = connect(base + flags, True)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except Exception as exc:  # the next mode may still read it
            last = exc
    assert last is not None
    raise last


def diagnose(path: Path, connect: Callable[[str, bool], Any]) -> dict[str, Any]:
    """What ``doctor`` can say about a file that does not open as a store.

    Reports the file's size, header, side files and SQLite's ``integrity_check`` (first
    20 lines) from a read-only connection; never writes to the file.
    """
    report: dict[str, Any] = {"path": str(path), "exists": path.exists()}
    if not path.exists():
        report["problems"] = ["the file does not exist"]
        return report
    if path.is_dir():
        report["problems"] = ["it is a folder, not a file"]
        return report
    st = path.stat()
    report["size_bytes"] = st.st_size
    report["mode"] = oct(st.st_mode & 0o777)
    report["writable"] = os.access(path, os.W_OK)
    report["sqlite_header"] = _header_ok(path)
    report["side_files"] = {p.name: p.stat().st_size for p in side_files(path) if p.exists()}
    problems: list[str] = []
    if st.st_size == 0:
        problems.append("the file is empty (0 bytes)")
    elif report["sqlite_header"] is False:
        problems.append("not an SQLite database (wrong header)")
    if st.st_size and report["sqlite_header"]:
        if st.st_size % 512:
            problems.append(f"size {st.st_size} is not a whole number of pages (truncated or appended to)")
        try:
            conn = open_read_only(path, connect)
        except Exception as exc:
            report["integrity"] = f"cannot open: {exc}"
            problems.append(f"cannot open: {exc}")
        else:
            try:
                lines = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(20)")]
            except Exception as exc:
                lines = [f"integrity_check failed: {exc}"]
            finally:
                conn.close()
            report["integrity"] = "ok" if lines == ["ok"] else lines
            if lines != ["ok"]:
                problems.append(f"integrity_check: {lines[0]}" + (f" (+{len(lines) - 1} more)" if len(lines) > 1
                                                                   else ""))
    report["problems"] = problems
    return report


# --------------------------------------------------------------------------- salvage

def _read_rows(src: Any, table: str, cols: list[str], max_rowid: int, skipped: list[int],
               batch: int = 500) -> Any:
    """Yield ``(rowid, row)`` of ``table`` in rowid order, stepping over pages that cannot be read.

    A range scan that hits a damaged page fails; the b-tree's interior pages usually still
    lead past it, so the scan restarts after the last good rowid with a growing jump
    (1, 2, 4, …) until a read succeeds or the largest rowid is passed.
    """
    collist = ", ".join(f'"{c}"' for c in cols)
    last = -(1 << 63)
    jump = 1
    while last < max_rowid:
        try:
            rows = src.execute(f'SELECT rowid, {collist} FROM "{table}" WHERE rowid > ? ORDER BY rowid LIMIT ?',
                               (last, batch)).fetchall()
        except Exception:
            # skip ahead past the unreadable stretch
            skipped.append(last)
            last = last + jump if last > -(1 << 62) else 0
            jump = min(jump * 2, 1 << 20)
            continue
        if not rows:
            return
        jump = 1
        yield from ((int(r[0]), tuple(r[1:])) for r in rows)
        last = int(rows[-1][0])


def recover(src_path: Path, dest: Path, src_connect: Callable[[str, bool], Any], make_dest: Callable[[Path], Any],
            skip: Callable[[str], bool],
            raw_rows: dict[str, Callable[[dict[str, Any]], bool]] | None = None) -> dict[str, Any]:
    """Copy every row SQLite can read from ``src_path`` into a new store at ``dest``.

    ``make_dest(dest)`` creates the new file with the current schema and returns its
    connection; ``skip(table)`` names tables not copied (virtual tables and their shadow
    tables, indexes the new file rebuilds). Rows go in with ``INSERT OR IGNORE`` over the
    columns both files have, one transaction per table. The old file is opened read-only.

    When SQL cannot read everything (a damaged page, a truncated file, an unreadable
    schema), the tables in ``raw_rows`` are also filled from :func:`scan_table_pages`:
    a raw row with the table's column count that ``raw_rows[table](row)`` accepts (a
    column -> value dict) is
    added if its rowid is not there yet (counted under ``from_pages``).
    """
    if dest.exists():
        raise FileExistsError(errno.EEXIST, "already exists (choose a new file name)", str(dest))
    copied: dict[str, int] = {}
    unreadable: dict[str, str] = {}
    from_pages: dict[str, int] = {}
    src: Any = None
    try:
        src = open_read_only(src_path, src_connect)
    except Exception as exc:
        if not raw_rows:
            raise
        unreadable["sqlite_master"] = str(exc)
    try:
        try:
            if src is None:
                raise RuntimeError(unreadable["sqlite_master"])
            tables = [str(r[0]) for r in src.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        except Exception as exc:
            tables = []
            unreadable["sqlite_master"] = str(exc)
        out = make_dest(dest)
        try:
            dest_tables = {str(r[0]) for r in out.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            for table in tables:
                if skip(table) or table not in dest_tables:
                    continue
                try:
                    src_cols = [str(r[1]) for r in src.execute(f'PRAGMA table_info("{table}")')]
                    max_rowid = src.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
                except Exception as exc:
                    unreadable[table] = str(exc)
                    continue
                if max_rowid is None:
                    copied[table] = 0
                    continue
                dest_cols = {str(r[1]) for r in out.execute(f'PRAGMA table_info("{table}")')}
                cols = [c for c in src_cols if c in dest_cols]
                marks = ", ".join("?" for _ in cols)
                collist = ", ".join(f'"{c}"' for c in cols)
                n = 0
                out.execute("BEGIN")
                skipped: list[int] = []
                try:
                    for _rowid, row in _read_rows(src, table, cols, int(max_rowid), skipped):
                        try:
                            out.execute(f'INSERT OR IGNORE INTO "{table}" ({collist}) VALUES ({marks})', row)
                            n += 1
                        except Exception as exc:  # a row the new schema refuses (a broken CHECK): leave it
                            unreadable.setdefault(table, f"some rows refused: {exc}")
                    out.execute("COMMIT")
                except BaseException:
                    out.execute("ROLLBACK")
                    raise
                copied[table] = n
                if skipped:
                    unreadable.setdefault(table, f"{len(skipped)} unreadable stretches stepped over")
            if unreadable and raw_rows:
                from_pages = _fill_from_pages(src_path, out, raw_rows)
        finally:
            out.close()
    finally:
        if src is not None:
            src.close()
    return {"source": str(src_path), "dest": str(dest), "copied": copied, "from_pages": from_pages,
            "unreadable": unreadable}


def _fill_from_pages(src_path: Path, out: Any,
                     raw_rows: dict[str, Callable[[dict[str, Any]], bool]]) -> dict[str, int]:
    """Add the rows :func:`scan_table_pages` finds for ``raw_rows``' tables, by rowid, if not there yet."""
    info = {t: list(out.execute(f'PRAGMA table_info("{t}")')) for t in raw_rows}
    cols = {t: [str(r[1]) for r in rows] for t, rows in info.items()}
    # an INTEGER PRIMARY KEY is stored as NULL in the record: its value is the cell's rowid
    pk = {t: next((i for i, r in enumerate(rows) if r[5] == 1 and str(r[2]).upper() == "INTEGER"), None)
          for t, rows in info.items()}
    added = dict.fromkeys(raw_rows, 0)
    out.execute("BEGIN")
    try:
        for rowid, values in scan_table_pages(src_path):
            for table, accept in raw_rows.items():
                if len(values) != len(cols[table]):
                    continue
                row = list(values)
                key = pk[table]
                if key is not None:
                    row[key] = rowid
                try:
                    if not accept(dict(zip(cols[table], row))):
                        continue
                except Exception:
                    continue
                collist = ", ".join(f'"{c}"' for c in cols[table])
                marks = ", ".join("?" for _ in row)
                try:
                    cur = out.execute(f'INSERT OR IGNORE INTO "{table}" ({collist}) VALUES ({marks})', row)
                    added[table] += max(cur.rowcount, 0)
                except Exception:  # a constraint the raw row breaks: not a row of this table after all
                    pass
                break
        out.execute("COMMIT")
    except BaseException:
        out.execute("ROLLBACK")
        raise
    return added


# --------------------------------------------------------------------------- raw pages

def _varint(buf: bytes, i: int) -> tuple[int, int]:
    """SQLite's big-endian varint at ``buf[i]``: (value, next offset)."""
    v = 0
    for k in range(8):
        b = buf[i + k]
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            return v, i + k + 1
    return (v << 8) | buf[i + 8], i + 9


def _record(payload: bytes) -> list[Any]:
    """Decode one record (the row format of a table b-tree cell)."""
    hsize, i = _varint(payload, 0)
    types: list[int] = []
    while i < hsize:
        t, i = _varint(payload, i)
        types.append(t)
    pos = hsize
    out: list[Any] = []
    sizes = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}
    for t in types:
        if t == 0:
            out.append(None)
        elif t in sizes:
            n = sizes[t]
            out.append(int.from_bytes(payload[pos:pos + n], "big", signed=True))
            pos += n
        elif t == 7:
            import struct

            out.append(struct.unpack(">d", payload[pos:pos + 8])[0])
            pos += 8
        elif t in (8, 9):
            out.append(t - 8)
        elif t >= 12:
            n = (t - 12) // 2
            chunk = payload[pos:pos + n]
            if len(chunk) != n:
                raise ValueError("record runs past its payload")
            out.append(chunk.decode("utf-8") if t % 2 else bytes(chunk))
            pos += n
        else:
            raise ValueError(f"reserved serial type {t}")
    return out


def scan_table_pages(path: Path) -> Any:
    """Yield ``(rowid, values)`` of every row cell on every table leaf page SQLite's format lets us parse.

    The ``.recover`` idea without the b-tree: a damaged interior page or a truncated
    file hides rows from SQL, but the leaf pages that hold them are still there. Cells
    that do not parse (a torn page, a lost overflow page) are skipped. Rows of every
    table come out mixed, and free pages may hold stale copies: the caller tells them
    apart (column count, values) and prefers what SQL could read.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    if len(data) < 100 or data[:16] != SQLITE_HEADER:
        return
    page_size = int.from_bytes(data[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    usable = page_size - data[20]
    if page_size < 512 or usable < 480:
        return
    npages = len(data) // page_size
    max_local = usable - 35
    min_local = (usable - 12) * 32 // 255 - 23

    def page(n: int) -> bytes:
        return data[(n - 1) * page_size:n * page_size]

    for pno in range(1, npages + 1):
        p = page(pno)
        off = 100 if pno == 1 else 0
        if len(p) < page_size or p[off] != 0x0D:
            continue
        ncells = int.from_bytes(p[off + 3:off + 5], "big")
        for c in range(min(ncells, page_size // 4)):
            try:
                cp = int.from_bytes(p[off + 8 + 2 * c:off + 10 + 2 * c], "big")
                size, i = _varint(p, cp)
                rowid, i = _varint(p, i)
                if rowid >= 1 << 63:
                    rowid -= 1 << 64
                if size <= max_local:
                    payload = p[i:i + size]
                else:
                    k = min_local + (size - min_local) % (usable - 4)
                    local = k if k <= max_local else min_local
                    payload = p[i:i + local]
                    nxt = int.from_bytes(p[i + local:i + local + 4], "big")
                    hops = 0
                    while len(payload) < size and 0 < nxt <= npages and hops < 1_000_000:
                        ov = page(nxt)
                        payload += ov[4:usable]
                        nxt = int.from_bytes(ov[:4], "big")
                        hops += 1
                    payload = payload[:size]
                if len(payload) != size:
                    continue
                yield rowid, _record(payload)
            except (IndexError, ValueError, UnicodeDecodeError):
                continue
