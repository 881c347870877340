"""Errors shown to users as one line with a stable code and exit status (see EXIT_CODES)."""

from __future__ import annotations

from memengine import bootstrap


class MemError(Exception):
    """Base of errors shown to users as one line with a stable code and exit status.

    Raised bare only for what no subclass names, shown as ``internal`` (a bug): every
    code that reaches a user is in :data:`EXIT_CODES` and README's table.
    """

    code = "internal"
    exit_code = 70

    def __init__(self, message: str) -> None:
        if any(c < " " or c == "\x7f" for c in message):
            # One line whatever the message quotes: SQLite's error about a damaged file can quote schema text a
            # spoilt page garbled, line breaks included (test_restore's random damage: 2 runs in 3000).
            message = " ".join("".join(" " if c < " " or c == "\x7f" else c for c in message).split())
        super().__init__(message)
        self.message = message


class UserError(MemError):
    """Bad input: empty content, malformed file, unknown option value."""

    code = "invalid_input"
    exit_code = 1


class NotFound(MemError):
    """A memory id (or other object) that does not exist."""

    code = "not_found"
    exit_code = 3


class Busy(MemError):
    """The database stayed locked longer than we are willing to wait."""

    code = "busy"
    exit_code = 4


class ModelMismatch(MemError):
    """Vectors in the file come from another embedding model: run ``reindex``."""

    code = "model_mismatch"
    exit_code = 5


class LockedError(MemError):
    """Another exclusive job (consolidate) holds the lock."""

    code = "locked"
    exit_code = 6


class MissingDependency(MemError):
    """This Python lacks a package mem needs (or an SQLite that loads extensions)."""

    code = bootstrap.CODE_MISSING
    exit_code = bootstrap.EXIT_MISSING


class DamagedFile(MemError):
    """The memory file is not a database, or SQLite finds it damaged: doctor, recover, or restore a backup."""

    code = "damaged"
    exit_code = 8


class ReadOnly(MemError):
    """A write to a memory file (or its folder, or its -wal) that this process may not write."""

    code = "read_only"
    exit_code = 9


class DiskFull(MemError):
    """The disk (or quota) is full: nothing was half-written; free space and retry."""

    code = "disk_full"
    exit_code = 10


class NewerSchema(MemError):
    """The file was written by a newer mem whose migrations this code does not know."""

    code = "newer_schema"
    exit_code = 11


class IOFailure(MemError):
    """An input/output error under SQLite that is neither a full disk nor a damaged file."""

    code = "io_error"
    exit_code = 12


class InternalError(MemError):
    """A bug: anything not foreseen, shown as one line (MEM_DEBUG=1 shows the traceback)."""

    code = "internal"
    exit_code = 70


EXIT_CODES = {"ok": 0, "invalid_input": 1, "usage": 2, "not_found": 3, "busy": 4, "model_mismatch": 5, "locked": 6,
              bootstrap.CODE_MISSING: bootstrap.EXIT_MISSING, "damaged": 8, "read_only": 9, "disk_full": 10,
              "newer_schema": 11, "io_error": 12, "nothing_to_import": 13, "internal": 70, "aborted": 130, "interrupted": 130,
              "problems_found": 1}  # (the last: `doctor` found indexes out of step; its report in data)
KIND_ERRORS: dict[str, type[MemError]] = {
    "damaged": DamagedFile, "read_only": ReadOnly, "disk_full": DiskFull, "busy": Busy, "io_error": IOFailure,
    "newer_schema": NewerSchema, "invalid_input": UserError}  # dbfile.classify kind -> error
