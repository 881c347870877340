"""CLI commands ``consolidate``, ``clusters`` and ``contradictions`` (registered lazily by mem.py).

Parsing and rendering only: the work is in :mod:`memengine.consolidate`.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import click

from memengine import consolidate as cons
from memengine.cli.common import ROW_ID, TopicId, cell, console, current_ctx, emit, parse_date
from memengine.errors import MemError


def _phase_line(name: str, counts: dict[str, Any]) -> str:
    shown = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items()
                      if k not in ("phase", "seconds") and v not in (None, ""))
    return f"{name:<11} {counts.get('seconds', 0):6.2f} s  {shown}"


@click.command("consolidate")
@click.option("--dry-run", is_flag=True, help="Report exactly what a real run would do; change nothing.")
@click.option("--phases", help=f"Comma list, in any order (default: all): {','.join(cons.ALL_PHASES)}.")
@click.option("--memory-md", "memory_md", type=click.Path(dir_okay=False), envvar="MEM_MEMORY_MD",
              help="MEMORY.md whose managed block to write (env MEM_MEMORY_MD).")
@click.option("--summarizer", help="Command that reads cluster JSON on stdin and prints a summary (optional).")
@click.option("--keep-backups", type=click.IntRange(0, 1000), default=cons.DEFAULT_KEEP_BACKUPS, show_default=True,
              help="Backups kept in <db dir>/backups (0: no backup before destructive phases); a run whose "
                   "destructive phases change nothing keeps none.")
@click.option("--now", "now_text", hidden=True, help="Pretend it is this time (tests, simulations).")
def consolidate(dry_run: bool, phases: str | None, memory_md: str | None, summarizer: str | None,
                keep_backups: int, now_text: str | None) -> None:
    """The nightly sleep cycle: links, clusters, summaries, contradictions, decay, MEMORY.md.

    Safe to run unattended: one run at a time (exit code 6 if another holds the lock),
    a backup before destructive phases, idempotent, and agents can keep storing meanwhile.

    \b
    Examples:
      mem.py consolidate
      mem.py consolidate --dry-run --json
      mem.py consolidate --memory-md ~/agent/MEMORY.md --phases links,cluster,summarize
    """
    selected = cons.parse_phases(phases)
    now = parse_date(now_text, "--now") if now_text else None
    cmd = shlex.split(summarizer) if summarizer else None
    s = current_ctx().store(fast_start=False)
    notes = console(stderr=True) if not current_ctx().json and sys.stderr.isatty() else None

    def progress(phase: str) -> None:
        if notes is not None:
            notes.print(f"[dim]{phase}…[/dim]")

    failed: MemError | None = None
    try:
        report = cons.run(s, phases=selected, now=now, dry_run=dry_run,
                          memory_md=Path(memory_md) if memory_md else None, summarizer=cmd, keep_backups=keep_backups,
                          progress=progress)
    except MemError as exc:
        # (users36) MEMORY.md failed after every other phase ran and committed: the report goes out with the error
        # (a cron's log shows what was done and what failed); the exit code is the error's (1 for an edited block)
        if getattr(exc, "report", None) is None:
            raise
        failed, report = exc, exc.report  # type: ignore[attr-defined]
    data = report.to_dict()

    def human() -> None:
        head = "dry run — nothing changed; a real run would do:" if dry_run else "consolidated:"
        click.echo(head)
        for name, counts in data["phases"].items():
            click.echo("  " + _phase_line(name, counts))
        if data["backup"]:
            click.echo(f"  backup      {data['backup']}")
        elif data.get("backup_note"):
            click.echo(f"  backup      {data['backup_note']}")
        click.echo(f"  total       {data['seconds']:.2f} s")

    if failed is None:
        emit(data, human, report.warnings)
        return
    ran = [name for name in data["phases"] if name != "write"]
    said = [f"MEMORY.md was not written; the other phases ran and are kept: {', '.join(ran)} (see data.phases)"] \
        if ran else []

    def human_failed() -> None:
        human()
        click.secho(f"error: {failed.message}", fg="red", err=True)

    emit(data, human_failed, [*report.warnings, *said], failed=(failed.code, failed.message))
    sys.exit(failed.exit_code)


def _tree(nodes: list[dict[str, Any]]) -> Any:
    from rich.tree import Tree

    root = Tree("[bold]clusters[/bold]")

    def add(parent: Any, n: dict[str, Any]) -> None:
        first = (n.get("summary") or "").splitlines()[0] if n.get("summary") else (n.get("label") or "")
        branch = parent.add(f"[cyan]T{n['id']}[/cyan] L{n['level']} · {n['member_count']} · {cell(first)}")
        for c in n.get("children", []):
            add(branch, c)
        for m in n.get("members", []):
            branch.add(f"[dim]#{m['id']}[/dim] {cell(m['content'], 100)}")

    for n in nodes:
        add(root, n)
    return root


@click.command("clusters")
@click.argument("cluster_id", type=TopicId(), required=False)
@click.option("--leaves", type=click.IntRange(0, 10_000), default=20, show_default=True,
              help="Member memories shown per leaf cluster.")
def clusters(cluster_id: int | None, leaves: int) -> None:
    """The hierarchy of clusters, root to leaves (all roots, or the cluster ID).

    \b
    Examples:
      mem.py clusters
      mem.py clusters T12 --json
    """
    nodes = cons.cluster_tree(current_ctx().store(), cluster_id, max_leaves=leaves)

    def human() -> None:
        if not nodes:
            click.echo("no clusters yet (run: mem.py consolidate)")
            return
        console().print(_tree(nodes))

    emit({"count": len(nodes), "clusters": nodes}, human)


@click.command("contradictions")
@click.option("--resolve", "resolve_id", type=ROW_ID, help="Contradiction id to resolve (with --keep).")
@click.option("--keep", type=ROW_ID, help="Memory id to keep; the other one is superseded (restorable).")
@click.option("--status", type=click.Choice(["open", "superseded", "resolved", "dismissed", "all"]), default="open",
              show_default=True, help="Which contradictions to list.")
def contradictions(resolve_id: int | None, keep: int | None, status: str) -> None:
    """List contradictions found by consolidate, or resolve one.

    \b
    Examples:
      mem.py contradictions
      mem.py contradictions --status all --json
      mem.py contradictions --resolve 3 --keep 42
    """
    s = current_ctx().store()
    if resolve_id is not None or keep is not None:
        if resolve_id is None or keep is None:
            raise click.UsageError("--resolve ID and --keep MEMORY_ID go together")
        res = cons.resolve_contradiction(s, resolve_id, keep)
        emit(res, lambda: click.echo(f"#{resolve_id}: kept memory {res['kept']}, memory {res['superseded']} "
                                     f"superseded (restorable)"))
        return
    rows = cons.list_contradictions(s, None if status == "all" else status)

    def human() -> None:
        if not rows:
            click.echo(f"no {'' if status == 'all' else status + ' '}contradictions")
            return
        from rich.table import Table

        t = Table()
        for col in ("id", "status", "kind", "a", "b", "reason"):
            t.add_column(col, overflow="fold")
        for r in rows:
            t.add_row(str(r["id"]), r["status"], r["kind"], f"#{r['memory_a']} {cell(r['content_a'], 80)}",
                      f"#{r['memory_b']} {cell(r['content_b'], 80)}", cell(r["reason"]))
        console().print(t)

    emit({"count": len(rows), "contradictions": rows}, human)
