"""doctor's check of the keyword index (``memories_fts``) against the memories, full or sampled.

FTS5's own ``integrity-check`` with rank 1 compares the whole index with its content table.
Since m010 that content is the view ``memories_text``, which derives every chat turn's
neighbour text from its thread: the check recomputes it for every row (46-51 s at 100k
turns, ~10x that at 1M). So above ``FULL_MAX_ROWS`` rows ``doctor`` runs, by default:

* FTS5's ``integrity-check`` with rank 0: the index's own structure (segments, doclists,
  checksums of what it holds), without reading the content (1.1 s of CPU at 100k), run as a read:
  ``PRAGMA quick_check`` calls FTS5's xIntegrity method, which is that check (SQLite 3.44 on), where the
  ``INSERT ... 'integrity-check'`` command is a write statement and held the file's write lock throughout
  (4-5 s at 100k on a loaded host: every writer waited; tests/test_doctor_locks.py). doctor hands in the
  lines of the quick_check it ran on the whole file, so the check is not run twice;
* the row sets, exactly: every memory has a row in the index (``memories_fts_docsize``)
  and the index has no row for a memory that is gone (integer scans);
* a sample of rows (``SAMPLE_ROWS`` in runs of ``RUN`` consecutive ids, from random
  places): each row's text, as the view gives it now, is tokenized again in a temporary
  FTS5 table of the same tokenizer, and (1) its per-column token counts must equal the
  index's (``docsize``: a stale neighbour text almost always changes them), and (2) for
  each (term, column) of the fresh tokens, the rows of the run that hold it there must be
  the same in the index (one query per term and column over the run's id range; a term
  missing from a row, or held by a row that lost it, fails it).

What a sample cannot see: a row outside the sample, and a stale posting of a term that the
sampled rows no longer contain in that column when the token counts happen to agree. ``doctor --full``
runs FTS5's complete comparison, and the report says which check ran (``fts_check``). That comparison is an
INSERT command (a write: on the live file it held the write lock from start to end, 46-51 s at 100k): it runs
on a copy of the file taken in one read (:func:`_fts5_check_on_copy`), so writers never wait for it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from memengine import dbfile
from memengine.db import read_snapshot, sqlite3

if TYPE_CHECKING:  # (random is imported where a sample is drawn: every cold call imports this module)
    import random

FULL_MAX_ROWS = 5_000  # up to this many memories the full comparison is cheap (~2 s): always run it
SAMPLE_ROWS = 500  # rows compared with the view in a sampled check
RUN = 100  # consecutive ids per sampled run (neighbouring turns share terms: one query per term a run)
COLUMNS = ("content", "tags", "date_terms", "context", "context_far")
TOKENIZE = "porter unicode61 remove_diacritics 2"  # memories_fts's tokenizer (schema.sql)
_SAMPLE = "_fts_check_sample"
_TERMS = "_fts_check_terms"


def check(conn: Any, full: bool = False, sample_rows: int = SAMPLE_ROWS, seed: int | None = None,
          full_max_rows: int | None = None, quick_lines: list[str] | None = None) -> dict[str, Any]:
    """Check ``memories_fts`` against the memories; a report with ``ok``, ``mode`` and ``problems``.

    ``full`` (or a store of at most ``full_max_rows`` rows, default ``FULL_MAX_ROWS``): FTS5's comparison of every
    row. Otherwise the structure, the row sets and ``sample_rows`` sampled rows (module
    docstring). A read-only file cannot run FTS5's checks (they are INSERT commands):
    the row sets and the sample still run, and the report says the structure was not checked.
    ``quick_lines``: what ``PRAGMA quick_check`` said of the whole file, if the caller ran it (it includes
    the structure check of the sampled mode).
    """
    t0 = time.perf_counter()
    rows = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    problems: list[str] = []
    report: dict[str, Any] = {"rows": rows}
    if full or rows <= (FULL_MAX_ROWS if full_max_rows is None else full_max_rows):
        report["mode"] = "full"
        done, report["ran_on"] = _fts5_check_on_copy(conn)
        if report["ran_on"] != "snapshot copy":  # (no room for a copy, or an in-memory store): on the file
            done = _fts5_check(conn, rank=1)
        if done is None or done == BUSY:  # read-only, or another process's write lock: what a read can check
            report["mode"] = ("full (read-only file: FTS5's check cannot run; row sets and every row compared instead)"
                              if done is None else "full (the write lock FTS5's check needs was held by another "
                              "process: row sets and every row compared instead)")
            with read_snapshot(conn):  # (the text and the index as of one moment: agents may store meanwhile)
                problems += _row_sets(conn)
                problems += _compare_rows(conn, [r[0] for r in conn.execute("SELECT id FROM memories ORDER BY id")])
        elif done:
            problems.append(f"FTS5 integrity-check against the memories: {done}")
    else:
        report["mode"] = "sampled"
        structure = _structure(conn, quick_lines)
        if structure is None:
            report["structure"] = "not checked (read-only file)"
        elif structure == BUSY:  # (SQLite before 3.44 only: the INSERT command)
            report["structure"] = "not checked (another process held the write lock)"
        elif structure:
            problems.append(f"FTS5 integrity-check of the index's structure: {structure}")
        with read_snapshot(conn):  # (the text and the index as of one moment: agents may store meanwhile)
            problems += _row_sets(conn)
            import random

            ids = sample_ids(conn, sample_rows, random.Random(seed))
            report["rows_sampled"] = len(ids)
            problems += _compare_rows(conn, ids)
        report["note"] = (f"sampled: the index's structure and row set in full, {len(ids):,} of {rows:,} rows "
                          "compared with their text; `doctor --full` compares every row (slow: the view derives "
                          "each turn's neighbour text)")
    report["problems"] = problems
    report["ok"] = not problems
    report["seconds"] = round(time.perf_counter() - t0, 2)
    return report


def _structure(conn: Any, quick_lines: list[str] | None) -> str | None:
    """FTS5's structure check (``integrity-check`` rank 0) as a read: '' if it passed, the error if not.

    ``PRAGMA quick_check`` runs it through FTS5's xIntegrity method, a read (no write lock: writers go on);
    from the lines of a whole-file quick_check when given, else of one limited to the index. SQLite before
    3.44 has no xIntegrity: the INSERT command then (None if the file is read-only)."""
    if tuple(int(x) for x in sqlite3.sqlite_version.split(".")[:2]) < (3, 44):
        return _fts5_check(conn, rank=0)
    try:
        lines = quick_lines if quick_lines is not None else [
            str(r[0]) for r in conn.execute("PRAGMA quick_check('memories_fts')")]
    except sqlite3.DatabaseError as exc:
        return str(exc) or type(exc).__name__
    return "; ".join(line for line in lines if "memories_fts" in line)


def _fts5_check_on_copy(conn: Any) -> tuple[str | None, str]:
    """FTS5's complete comparison (rank 1) run on a snapshot copy of the file: (what :func:`_fts5_check` says,
    where it ran: "snapshot copy", or why not and "file").

    The comparison is an INSERT command: run on the live file it held the write lock from its first row to its
    last (46-51 s at 100k: every agent storing meanwhile waited, and failed past its busy timeout). SQLite's
    backup API copies the pages in one step, a read (one snapshot, 1.8-3.4 s at 100k; writers go on), into a
    private temporary folder; the comparison then runs on the copy, which no one else opens, and the copy is
    deleted. The copy holds the same rows and index as the snapshot, so the check says what it said on the
    file. It needs free space the size of the file in the temporary folder (``TMPDIR``): without it, on the file.
    """
    import os
    import shutil
    import tempfile
    from pathlib import Path

    from memengine.db import conn_path
    from memengine.privfile import private_umask, sweep_leftovers

    if conn_path(conn) is None:
        return None, "file (an in-memory store)"
    size = int(conn.execute("PRAGMA page_count").fetchone()[0]) * int(conn.execute("PRAGMA page_size").fetchone()[0])
    folder = Path(tempfile.gettempdir())
    sweep_leftovers(folder)  # (a killed doctor's copy)
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = 0
    if free < size + (64 << 20):
        return None, f"file (no room for a snapshot copy in {folder}: {size >> 20} MB needed)"
    with private_umask():
        where = Path(tempfile.mkdtemp(prefix=f"mem-doctor-{os.getpid()}-"))  # (the pid: see sweep_leftovers)
    try:
        copy = sqlite3.connect(str(where / "snapshot.db"), isolation_level=None)
        try:
            conn.backup(copy)  # (every page in one step: one read snapshot of the live file)
            return _fts5_check(copy, rank=1), "snapshot copy"
        finally:
            copy.close()
    except (OSError, sqlite3.DatabaseError) as exc:  # (a disk that filled meanwhile): on the file
        return None, f"file (the snapshot copy failed: {exc})"
    finally:
        shutil.rmtree(where, ignore_errors=True)


BUSY = "busy"  # _fts5_check: another process held the write lock past LOCK_WAIT_MS
LOCK_WAIT_MS = 1000  # what the INSERT command waits for another process's write lock (then: BUSY)


def _fts5_check(conn: Any, rank: int) -> str | None:
    """FTS5's ``integrity-check`` (rank 1: against the content too): '' if it passed, the
    error if not, None if the file is read-only, BUSY if another process held the write lock the command
    needs (an INSERT) past LOCK_WAIT_MS: it waited out the whole busy timeout and then failed, which read as
    a damaged index (tests/test_doctor_locks.py)."""
    wait = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
    conn.execute(f"PRAGMA busy_timeout = {min(wait, LOCK_WAIT_MS)}")
    try:
        conn.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', ?)", (rank,))
        return ""
    except sqlite3.DatabaseError as exc:
        kind = dbfile.classify(exc)
        if kind == "read_only":
            return None
        if kind == "busy":
            return BUSY
        return str(exc) or type(exc).__name__
    finally:
        conn.execute(f"PRAGMA busy_timeout = {wait}")


def _row_sets(conn: Any) -> list[str]:
    """Memories without an index row, and index rows without a memory (exact)."""
    missing = int(conn.execute(
        "SELECT count(*) FROM memories WHERE id NOT IN (SELECT id FROM memories_fts_docsize)").fetchone()[0])
    extra = int(conn.execute(
        "SELECT count(*) FROM memories_fts_docsize WHERE id NOT IN (SELECT id FROM memories)").fetchone()[0])
    out = []
    if missing:
        out.append(f"{missing} memories missing from the keyword index")
    if extra:
        out.append(f"{extra} keyword index rows for memories that are gone")
    return out


def sample_ids(conn: Any, n: int, rng: random.Random) -> list[int]:
    """About ``n`` memory ids in runs of ``RUN`` consecutive ids starting at random places."""
    lo, hi = conn.execute("SELECT min(id), max(id) FROM memories").fetchone()
    if lo is None:
        return []
    ids: set[int] = set()
    run = max(1, min(RUN, n))
    for _ in range(max(1, -(-n // run))):
        start = rng.randint(int(lo), int(hi))
        ids.update(int(r[0]) for r in conn.execute(
            "SELECT id FROM memories WHERE id >= ? ORDER BY id LIMIT ?", (start, run)))
    return sorted(ids)


def _compare_rows(conn: Any, ids: list[int]) -> list[str]:
    """Rows of ``ids`` whose indexed tokens differ from their text as ``memories_text`` gives it now."""
    made = [f"CREATE VIRTUAL TABLE temp.{_SAMPLE} USING fts5({', '.join(COLUMNS)}, tokenize='{TOKENIZE}')",
            f"CREATE VIRTUAL TABLE temp.{_SAMPLE}_v USING fts5vocab(temp, {_SAMPLE}, instance)",
            f"CREATE VIRTUAL TABLE temp.{_TERMS} USING fts5(t, tokenize='{TOKENIZE}')",
            f"CREATE VIRTUAL TABLE temp.{_TERMS}_v USING fts5vocab(temp, {_TERMS}, instance)"]
    for sql in made:
        conn.execute(sql)
    bad: set[int] = set()
    try:
        for run in _runs(ids):
            bad |= _compare_run(conn, run)
    finally:
        for name in (f"{_SAMPLE}_v", f"{_TERMS}_v", _SAMPLE, _TERMS):
            conn.execute(f"DROP TABLE IF EXISTS temp.{name}")
    if not bad:
        return []
    shown = ", ".join(str(b) for b in sorted(bad)[:10]) + (" ..." if len(bad) > 10 else "")
    return [f"keyword index out of step with the text of {len(bad)} of {len(ids)} rows compared (ids {shown})"]


def _runs(ids: list[int]) -> list[list[int]]:
    """``ids`` (sorted) cut into runs of at most RUN ids each."""
    return [ids[i:i + RUN] for i in range(0, len(ids), RUN)]


def _compare_run(conn: Any, run: list[int]) -> set[int]:
    """The ids of ``run`` whose index rows differ from a fresh tokenization of their text.

    Per row, the per-column token counts (``docsize``); per distinct (term, column) of the
    run, the rows of the run that hold it there, in the index and in the fresh tokenization
    (one query over the run's id range: neighbouring turns share most of their terms).
    """
    cols = ", ".join(COLUMNS)
    marks = ",".join("?" * len(run))
    conn.execute(f"DELETE FROM temp.{_SAMPLE}")
    texts = {int(r[0]): tuple(r[1:]) for r in conn.execute(
        f"SELECT id, {cols} FROM memories_text WHERE id IN ({marks})", run)}
    conn.executemany(f"INSERT INTO temp.{_SAMPLE}(rowid, {cols}) VALUES (?, ?, ?, ?, ?, ?)",
                     [(mid, *t) for mid, t in texts.items()])
    want = dict(conn.execute(f"SELECT id, sz FROM temp.{_SAMPLE}_docsize"))
    have = dict(conn.execute(f"SELECT id, sz FROM memories_fts_docsize WHERE id IN ({marks})", run))
    bad = {mid for mid in texts if have.get(mid) != want.get(mid)}  # (a row deleted meanwhile is skipped)
    docs: dict[tuple[str, str], set[int]] = {}
    for term, col, doc in conn.execute(f"SELECT term, col, doc FROM temp.{_SAMPLE}_v"):
        docs.setdefault((term, col), set()).add(int(doc))
    lo, hi = min(run), max(run)
    ok = set(_queryable(conn, sorted({t for t, _ in docs})))
    for (term, col), want_docs in docs.items():
        if term not in ok:
            continue
        found = {int(r[0]) for r in conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ?",
            (f'{{{col}}} : "' + term.replace('"', '""') + '"', lo, hi))}
        bad |= (found ^ want_docs) & texts.keys()
    return bad


def _queryable(conn: Any, terms: list[str]) -> list[str]:
    """The index terms that a query for that same string finds (the porter stemmer is not
    idempotent for every word: a stem it would stem again cannot be asked for; skipped)."""
    conn.execute(f"DELETE FROM temp.{_TERMS}")
    conn.executemany(f"INSERT INTO temp.{_TERMS}(rowid, t) VALUES (?, ?)", enumerate(terms))
    out: dict[int, list[str]] = {}
    for term, doc in conn.execute(f"SELECT term, doc FROM temp.{_TERMS}_v"):
        out.setdefault(int(doc), []).append(term)
    return [t for i, t in enumerate(terms) if out.get(i) == [t]]
