"""Maintenance of a memory file: stats, doctor (check and repair), reindex, backup, compact."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memengine import fts_check, signplane
from memengine.context import refresh_context
from memengine.db import is_busy, select_in, sqlite3, write_tx
from memengine.errors import LockedError, MissingDependency
from memengine.storebase import BARE_KEY, REINDEX_KEY, StoreBase

# quick_check's lines about an index whose entries disagree with its table's rows (REINDEX mends these)
_INDEX_PROBLEM = re.compile(r"(?:wrong # of entries in index|missing from index|non-unique entry in index) (\S+)")


def _quick_check(conn: Any) -> list[str]:
    """``PRAGMA quick_check``'s lines (``["ok"]`` for a sound file; at most 100 problems)."""
    return [str(r[0]) for r in conn.execute("PRAGMA quick_check(100)")] or ["ok"]


class Maintenance(StoreBase):
    """The maintenance room of :class:`memengine.store.MemoryStore`."""

    def stats(self) -> dict[str, Any]:
        """Counts by status and type, edges, file size, model.

        Counts come from ``_mem_counts`` (m008: kept exact by triggers) and the vector
        count from sqlite-vec's rowid table, so a cold ``stats`` costs the same at 1M
        memories as at 1k instead of scanning every row.
        """
        c = self.conn
        by_status: dict[str, int] = {}
        by_type: dict[str, int] = {}
        edges = 0
        for what, status, mtype, n in c.execute(
                "SELECT what, status, memory_type, n FROM _mem_counts WHERE n > 0 ORDER BY what, status, memory_type"):
            if what == "associations":
                edges += int(n)
                continue
            by_status[status] = by_status.get(status, 0) + int(n)
            if status == "active":
                by_type[mtype] = int(n)
        size = self._file_bytes()
        return {
            "path": str(self.path),
            "memories": sum(by_status.values()),
            "by_status": by_status,
            "by_type": by_type,
            "vectors": self._count_vectors(),
            "associations": edges,
            "clusters": int(c.execute("SELECT count(*) FROM clusters WHERE status='active'").fetchone()[0]),
            "open_contradictions": int(
                c.execute("SELECT count(*) FROM contradictions WHERE status='open'").fetchone()[0]
            ),
            "embedding_model": self.meta("embedding_model"),
            "schema_version": self.meta("schema_version"),
            "size_bytes": size,
        }

    def _count_vectors(self) -> int:
        """Rows of ``vec_memories``: its rowid table holds one row per vector (a scan of the
        vec0 table itself reads every vector, 36 ms at 100k); the vec0 count if that changes."""
        try:
            return int(self.conn.execute("SELECT count(*) FROM vec_memories_rowids").fetchone()[0])
        except sqlite3.OperationalError:  # a sqlite-vec without that shadow table
            return int(self.conn.execute("SELECT count(*) FROM vec_memories").fetchone()[0])

    def index_gaps(self) -> dict[str, list[int]]:
        """Ids of memories without a vector, and of vectors (own, context) without a memory."""
        c = self.conn
        missing_vec = [
            r[0] for r in c.execute(
                "SELECT id FROM memories WHERE id NOT IN (SELECT memory_id FROM vec_memories) ORDER BY id")
        ]
        orphan_vec = [
            r[0] for r in c.execute(
                "SELECT memory_id FROM vec_memories WHERE memory_id NOT IN (SELECT id FROM memories)")
        ]
        orphan_ctx = [
            r[0] for r in c.execute(
                "SELECT memory_id FROM vec_contexts WHERE memory_id NOT IN (SELECT id FROM memories)")
        ]
        return {"missing_vectors": missing_vec, "orphan_vectors": orphan_vec, "orphan_context_vectors": orphan_ctx}

    def doctor(self, fix: bool = False, full: bool = False) -> dict[str, Any]:
        """Check the file: integrity, FTS in step with memories, vectors present; repair with ``fix``.

        The keyword index is compared with every memory's text on small stores or with
        ``full``, else by sample (memengine.fts_check); ``fts_check`` says which ran.
        """
        import platform

        c = self.conn
        report: dict[str, Any] = {
            "path": str(self.path),
            "driver": sqlite3.__name__,
            "python": platform.python_version(),
            "sqlite_version": c.execute("SELECT sqlite_version()").fetchone()[0],
            "sqlite_vec_version": c.execute("SELECT vec_version()").fetchone()[0],
            "schema_version": self.meta("schema_version"),
            "migrations": [r[0] for r in c.execute("SELECT name FROM _mem_migrations ORDER BY name")],
            "embedding_model": self.meta("embedding_model"),
        }
        checks = _quick_check(c)
        report["integrity"] = checks[0]
        fts = fts_check.check(c, full=full, quick_lines=checks)  # (its FTS5 structure check is in quick_check)
        report["fts_ok"] = fts["ok"]
        report["fts_check"] = _fts_summary(fts)
        gaps = self.index_gaps()
        report.update({k: len(v) for k, v in gaps.items()})
        signs = signplane.problems(c)
        report["sign_plane"] = "ok" if not signs else signs
        from embedder import EmbedderError, load_manifest

        man = load_manifest()
        emb = self.embedder
        # (the optional e5 embedder pins its own weights: memengine/embed_e5.py)
        report["model_expected_sha256"] = getattr(emb, "expected_sha256", None) or man.sha256
        if emb is not None and hasattr(emb, "_load"):
            try:
                emb._load()  # verifies the checksum
                report["model_checksum"] = "ok"
                report["model_id"] = emb.model_id
                report["model_runs"] = str(getattr(emb, "runs", "") or "")  # the int8 form, or the published file
            except EmbedderError as exc:
                report["model_checksum"] = f"failed: {exc}"
        elif emb is not None:
            report["model_checksum"] = f"n/a ({emb.model_id})"
        else:
            report["model_checksum"] = f"unavailable: {self._embedder_failed}"
        from memengine.fact_slot import status  # the learned same-slot decision of fact writes: on or why not

        report["fact_updates_learned"] = status(emb.model_id if emb is not None else None) or "on"
        problems = []
        if report["integrity"] != "ok":
            problems.append(f"integrity: {report['integrity']}")
        if not report["fts_ok"]:
            problems.append("keyword index out of step with memories: " + "; ".join(fts["problems"]))
        for key, ids in gaps.items():
            if ids:
                problems.append(f"{len(ids)} {key.replace('_', ' ')}")
        pending = self.meta(REINDEX_KEY)
        if pending:
            problems.append(f"a reindex to {pending!r} was interrupted ({len(gaps['missing_vectors'])} memories "
                            "without a vector, found by keywords only): run `mem.py reindex` (or doctor --fix) "
                            "to finish it")
        problems += [f"sign plane of {t} out of step ({c['missing']} missing, {c['stale']} stale, {c['extra']} extra)"
                     for t, c in signs.items()]
        report["problems"] = problems
        if self.path != Path(":memory:"):  # the last backup and the log's size: notes, not problems
            from memengine.backup import doctor_notes

            extra, report["notes"] = doctor_notes(self.path, c, fix)
            report.update(extra)
        if fix and problems:
            report["fixed"] = self._repair_indexes(checks)
            report["fixed"] += self._repair(gaps, rebuild_fts=not report["fts_ok"])
            report["fixed"] += self._repair_signs()
            after_signs = signplane.problems(c)
            report["sign_plane"] = "ok" if not after_signs else after_signs
            report["fts_ok"] = fts_check.check(c, full=full)["ok"]
            after = self.index_gaps()
            report.update({k: len(v) for k, v in after.items()})
            report["problems_after_fix"] = [
                f"{len(v)} {k.replace('_', ' ')}" for k, v in after.items() if v
            ] + ([] if report["fts_ok"] else ["keyword index still out of step"]) + (
                [] if report["sign_plane"] == "ok" else ["sign plane still out of step"])
            if checks != ["ok"]:  # (never an OK over a damage no repair here mends)
                report["integrity"] = _quick_check(c)[0]
                if report["integrity"] != "ok":
                    report["problems_after_fix"].append(
                        f"integrity: {report['integrity']} (the file itself is damaged: `mem.py doctor --recover "
                        "NEW.db` salvages what it can into a new file; `mem.py restore --list` shows the backups)")
        report["ok"] = not problems or (fix and not report.get("problems_after_fix"))
        return report

    def _repair_indexes(self, checks: list[str]) -> list[str]:
        """``REINDEX`` each index ``quick_check`` found out of step with its table (a file copied while a
        checkpoint wrote it): rebuilt from the table's rows, nothing else changes. Other damage is left."""
        names = sorted({m.group(1) for line in checks if (m := _INDEX_PROBLEM.search(line))})
        done = []
        for name in names:
            if not self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?",
                                     (name,)).fetchone():
                continue
            try:
                with write_tx(self.conn):
                    self.conn.execute(f'REINDEX "{name}"')
            except sqlite3.DatabaseError:  # (a UNIQUE index over rows that repeat: left to the report)
                continue
            done.append(f"rebuilt index {name}")
        return done

    def _repair(self, gaps: dict[str, list[int]], rebuild_fts: bool) -> list[str]:
        done = []
        if rebuild_fts:
            with write_tx(self.conn):
                self.conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")
                # in-process keyword indexes (keyword_index.py) cannot follow a rebuild row by row
                self._set_meta("keywords_generation", str(int(self.meta("keywords_generation") or 0) + 1))
            done.append("rebuilt keyword index")
        with write_tx(self.conn):
            for mid in gaps["orphan_vectors"]:
                self.conn.execute("DELETE FROM vec_memories WHERE memory_id = ?", (mid,))
            for mid in gaps["orphan_context_vectors"]:
                self.conn.execute("DELETE FROM vec_contexts WHERE memory_id = ?", (mid,))
            signplane.drop(self.conn, "vec_memories", gaps["orphan_vectors"])
            signplane.drop(self.conn, "vec_contexts", gaps["orphan_context_vectors"])
            self._bump_vectors_generation()
        if gaps["orphan_vectors"] or gaps["orphan_context_vectors"]:
            done.append("removed orphan vectors")
        if gaps["missing_vectors"]:
            n = self.reindex(only_missing=True)["embedded"]
            done.append(f"embedded {n} missing vectors")
        return done

    def _repair_signs(self) -> list[str]:
        """Rebuild the sign plane of each vector table where it is out of step with the vectors
        (after the other repairs: they may add or remove vectors)."""
        done = []
        for table, _ in signplane.problems(self.conn).items():
            with write_tx(self.conn):
                n = signplane.rebuild(self.conn, table)
            done.append(f"rebuilt the sign plane of {table} ({n} vectors)")
        return done

    def reindex(self, only_missing: bool = False, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """(Re-)embed memories: all of them (e.g. after a model change) or only those without vectors."""
        emb = self.embedder
        if emb is None:
            raise MissingDependency(f"cannot reindex without the embedding model: {self._embedder_failed}")
        # a model-change reindex that did not finish (killed): this model's vectors are in, the rest is left
        resumed = self.meta(REINDEX_KEY) == emb.model_id and self.meta("embedding_model") == emb.model_id
        if only_missing or resumed:
            self._check_model(emb)
            ids = [r[0] for r in self.conn.execute(
                "SELECT id FROM memories WHERE id NOT IN (SELECT memory_id FROM vec_memories) ORDER BY id")]
        else:
            ids = [r[0] for r in self.conn.execute("SELECT id FROM memories ORDER BY id")]
        # the memories whose context vectors are rebuilt: all of them after a model change (every context
        # vector went with the old model's vectors), else those embedded now
        scope = [r[0] for r in self.conn.execute("SELECT id FROM memories ORDER BY id")] if resumed else ids
        if not only_missing and not resumed and self.meta("embedding_model") != emb.model_id:
            # another model's vectors cannot stand beside this one's: all go first. With the same model each
            # vector is replaced where it is (_write_vector), so a reindex killed midway leaves every memory
            # with a vector of that model, and recall as it was, not most memories without one. Here memories
            # are without one until it finishes: REINDEX_KEY says so to every recall and to doctor (loud), and
            # the next `reindex` (or `doctor --fix`) embeds only what is left (resumed).
            with write_tx(self.conn):
                self.conn.execute("DELETE FROM vec_memories")
                self.conn.execute("DELETE FROM vec_contexts")
                for table in signplane.SIGN_TABLES:
                    signplane.clear(self.conn, table)
                self.conn.execute("DELETE FROM _mem_meta WHERE key = 'embedding_model'")
                self._set_meta("embedding_model", emb.model_id)
                self._set_meta("dims", str(emb.dims))
                self._set_meta(REINDEX_KEY, emb.model_id)
        # episodes get the mean of their messages' vectors, as an import gives them (chat_episodes)
        episodes = {int(r[0]) for r in select_in(
            self.conn, "SELECT DISTINCT a.target_id FROM associations a JOIN memories m ON m.id = a.target_id "
            "WHERE a.edge_type = 'part_of' AND json_extract(m.metadata, '$.kind') = 'episode' "
            "AND a.target_id IN ({ids})", ids)}
        done = 0
        todo = [mid for mid in ids if mid not in episodes]
        for i in range(0, len(todo), 256):
            chunk = todo[i : i + 256]
            texts = [r[0] for r in self.conn.execute(
                f"SELECT content FROM memories WHERE id IN ({','.join('?' * len(chunk))}) ORDER BY id", chunk)]
            vecs = emb.embed(texts)
            with write_tx(self.conn):
                for mid, vec in zip(chunk, vecs):
                    self._write_vector(mid, vec)
                if self.meta("embedding_model") is None:
                    self._set_meta("embedding_model", emb.model_id)
            done += len(chunk)
            if progress:
                progress(len(chunk))
        if episodes:
            from memengine.episode_vectors import episode_vectors

            derived = episode_vectors(self, sorted(episodes))
            rest = sorted(episodes - derived.keys())  # members without vectors: embed the text
            contents = dict(select_in(self.conn, "SELECT id, content FROM memories WHERE id IN ({ids})", rest))
            derived.update(zip(rest, emb.embed([contents[m] for m in rest]) if rest else []))
            with write_tx(self.conn):
                for mid, vec in derived.items():
                    self._write_vector(mid, vec)
            done += len(derived)
            if progress:
                progress(len(derived))
        # context vectors are built from the (new) vectors of each turn's neighbours
        touched: dict[str, list[int]] = {}
        for thread, pos in select_in(
                self.conn, "SELECT thread, position FROM memories WHERE id IN ({ids}) "
                "AND thread IS NOT NULL AND position IS NOT NULL", scope):
            touched.setdefault(thread, []).append(pos)
        for thread, positions in touched.items():
            positions.sort()
            for j in range(0, len(positions), 200):
                with write_tx(self.conn):
                    refresh_context(self, {thread: positions[j : j + 200]})
        with write_tx(self.conn):
            self._bump_vectors_generation()
            # (finished; and every memory stored bare in degraded mode has its vector now)
            self.conn.execute("DELETE FROM _mem_meta WHERE key IN (?, ?)", (REINDEX_KEY, BARE_KEY))
        return {"embedded": done, "model": emb.model_id, "resumed": resumed}

    def backup(self, dest: Path | str) -> dict[str, Any]:
        """Consistent copy with ``VACUUM INTO`` (safe while others write), checked (integrity, a mem store)
        before it gets its name (memengine/backup.py); refuses to overwrite."""
        from memengine.backup import write_checked

        return write_checked(self.conn, self.path, Path(dest))

    def _file_bytes(self) -> int:
        """The memory file with its WAL and shared-memory files."""
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())

    def compact(self) -> dict[str, Any]:
        """Rewrite the file without its free pages (``VACUUM``).

        SQLite reuses freed pages but never returns them to the disk: after large
        deletions, a purge or the int8 vector migration the file keeps its old size. This
        needs the file alone for a moment: other connections wait up to busy_timeout, then
        this fails with LockedError and nothing changes. Temporary disk: a file copy.
        """
        if self.path == Path(":memory:"):
            return {"path": str(self.path), "bytes_before": 0, "bytes_after": 0, "freed_bytes": 0}
        free = int(self.conn.execute("PRAGMA freelist_count").fetchone()[0])
        page = int(self.conn.execute("PRAGMA page_size").fetchone()[0])
        before = self._file_bytes()
        try:
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never waits; VACUUM does
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as exc:
            if is_busy(exc):
                raise LockedError(f"{self.path}: in use by another process; compact needs it alone "
                                  "for a moment (try again)") from exc
            raise
        after = self._file_bytes()
        return {"path": str(self.path), "free_pages_before": free, "page_size": page,
                "bytes_before": before, "bytes_after": after, "freed_bytes": before - after}


def _fts_summary(res: dict[str, Any]) -> str:
    """One line for doctor's report: which keyword-index check ran, on how many rows, how long."""
    if res["mode"] == "sampled":
        return (f"sampled: structure and row set of all {res['rows']:,} rows, text of {res['rows_sampled']:,} "
                f"compared ({res['seconds']} s); `doctor --full` compares every row")
    where = ", on a snapshot copy: no write lock held" if res.get("ran_on") == "snapshot copy" else ""
    return f"{res['mode']}: every one of {res['rows']:,} rows compared ({res['seconds']} s{where})"
