"""``mem.py restore BACKUP`` / ``restore --list``: the CLI side of memengine/restore.py (parse, call, render)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from memengine import restore as engine
from memengine.cli.common import current_ctx, emit
from memengine.errors import UserError


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


def _list(db: Any, source: Path | None) -> None:
    items = engine.list_backups(db, source)
    folder = source if source is not None else engine.backup_dir(db)
    also = "" if source is not None else " --from DIR"

    def human() -> None:
        if not items:
            click.echo(f"no backups in {folder}" + (f" (backups elsewhere: mem.py restore --list{also})" if also else ""))
            return
        for i in items:
            count = f"{i['memories']:,} memories ({i['active']:,} active)" if i.get("memories") is not None \
                else f"unreadable: {i['error']}"
            click.echo(f"{i['time']}  {_size(i['size_bytes']):>9}  {count:<32}  {i['name']}")
        how = f"mem.py restore NAME --from {folder}" if source is not None else "mem.py restore NAME"
        click.echo(f"(in {folder}; restore one with: {how})")

    emit({"folder": str(folder), "backups": items}, human)


def restore_store(target: str | None, list_only: bool, dry_run: bool, source: str | None = None) -> None:
    """``restore --list [--from DIR]`` or ``restore BACKUP [--from DIR] [--dry-run]`` on the invocation's file."""
    db = current_ctx().path
    folder = Path(os.path.abspath(Path(source).expanduser())) if source else None  # (users33 #3: absolute in every reply)
    if list_only:
        if target is not None:
            raise UserError("--list takes no backup file (restore one with: mem.py restore BACKUP)")
        _list(db, folder)
        return
    assert target is not None
    backup = engine.resolve_backup(db, target, folder)
    report, warnings = engine.restore(db, backup, dry_run=dry_run, new_folder=current_ctx().db is None)

    def human() -> None:
        before = "no file" if report["memories_before"] is None else f"{report['memories_before']:,} memories " \
            f"({report['active_before']:,} active)"
        after = f"{report['memories_after']:,} memories ({report['active_after']:,} active)"
        verb = "would restore" if dry_run else "restored"
        click.echo(f"{verb} {report['path']} from {report['restored_from']}: {before} -> {after}")
        if report.get("previous_kept_in"):
            click.echo(f"the content it replaced is kept in {report['previous_kept_in']} "
                       f"(undo with: mem.py restore {report['previous_kept_in']})")

    emit(report, human, warnings)
