"""``mem.py restore BACKUP`` / ``restore --list``: the CLI side of memengine/restore.py (parse, call, render)."""

from __future__ import annotations

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


def _list(db: Any) -> None:
    items = engine.list_backups(db)

    def human() -> None:
        if not items:
            click.echo(f"no backups in {engine.backup_dir(db)}")
            return
        for i in items:
            count = f"{i['memories']:,} memories ({i['active']:,} active)" if i.get("memories") is not None \
                else f"unreadable: {i['error']}"
            click.echo(f"{i['time']}  {_size(i['size_bytes']):>9}  {count:<32}  {i['name']}")
        click.echo(f"(in {engine.backup_dir(db)}; restore one with: mem.py restore NAME)")

    emit({"folder": str(engine.backup_dir(db)), "backups": items}, human)


def restore_store(target: str | None, list_only: bool, dry_run: bool) -> None:
    """``restore --list`` or ``restore BACKUP [--dry-run]`` on the invocation's memory file."""
    db = current_ctx().path
    if list_only:
        if target is not None:
            raise UserError("--list takes no backup file (restore one with: mem.py restore BACKUP)")
        _list(db)
        return
    assert target is not None
    backup = engine.resolve_backup(db, target)
    report, warnings = engine.restore(db, backup, dry_run=dry_run)

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
