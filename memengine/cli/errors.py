"""The command line's failures as the CLI reports them: (code, one-line message, exit code), the codes README's
table documents. One home for the one-shot CLI (memcli.main) and the servers' calls (memengine/cli/servers.py),
which map a failure without going through the CLI's entry."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

import memory_core as core

EXIT_USAGE = 2


def error_of(exc: BaseException, db: Path | None) -> tuple[str, str, int]:
    """(code, one-line message, exit code) of a failure: the CLI's documented codes."""
    if isinstance(exc, core.NotFound) and db is not None and exc.message.startswith("no "):
        # users32: "no memory with id 9" named no file, and an agent with two stores could not tell a wrong id
        # from a wrong file (SKILL.md: every error's message names the file and what to do); a refusal that
        # already says what to do ("only history edges … name one with --type") is left as it is
        where = os.path.abspath(db)  # (a relative --db names no file once the agent's directory changed)
        if " in this store" in exc.message:
            return exc.code, exc.message.replace(" in this store", f" in {where}", 1), exc.exit_code
        return exc.code, f"{exc.message} in {where} (another store? --db or MEM_DB names it)", exc.exit_code
    if isinstance(exc, core.MemError):
        return error_triple(exc)
    if isinstance(exc, OSError):
        return error_triple(core.os_error(exc, db))
    if isinstance(exc, core.sqlite3.DatabaseError):
        return error_triple(core.db_error(exc, db) or internal(exc))
    if isinstance(exc, click.exceptions.Abort):
        return "aborted", "aborted", 130
    if isinstance(exc, click.ClickException):
        usage = isinstance(exc, click.UsageError)
        return ("usage" if usage else "invalid_input"), exc.format_message(), EXIT_USAGE if usage else 1
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted", "interrupted", 130
    return error_triple(internal(exc))  # a bug: still one line and a documented code, the traceback on request


def internal(exc: BaseException) -> core.MemError:
    """A bug as a one-line ``internal`` error (the traceback on stderr with MEM_DEBUG=1)."""
    if os.environ.get("MEM_DEBUG"):
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    first = (str(exc).splitlines() or [""])[0][:300]
    return core.InternalError(f"internal error {type(exc).__name__}: {first} (a bug: please report it; "
                              "MEM_DEBUG=1 shows the traceback)")


def error_triple(err: core.MemError) -> tuple[str, str, int]:
    """A MemError as (code, message, exit code)."""
    return err.code, err.message, err.exit_code

