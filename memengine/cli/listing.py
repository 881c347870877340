"""CLI command ``list`` (registered lazily by memcli.py): parsing and rendering; the query is memengine/listing.py."""

from __future__ import annotations

import click

from memengine.cli.common import author_warnings, cell, console, current_ctx, emit, parse_date
from memengine.records import MEMORY_TYPES


@click.command("list")
@click.option("--type", "types", multiple=True, type=click.Choice(MEMORY_TYPES), help="Only this type (repeatable).")
@click.option("--tag", "tags", multiple=True, help="Only memories with this tag (repeatable: all of them).")
@click.option("--source", "sources", multiple=True, help="Only from this source (repeatable).")
@click.option("--author", "authors", multiple=True,
              help="Only written by this person (a chat's or mail's author; a first name also finds the full one).")
@click.option("--since", help="Only memories that happened at or after this date.")
@click.option("--until", help="Only memories that happened at or before this date (a day given alone: all of it).")
@click.option("--history", is_flag=True, help="Also facts a newer one replaced (kept as history).")
@click.option("--archived", is_flag=True, help="Also memories decay archived.")
@click.option("--forgotten", is_flag=True, help="Only forgotten memories (mem.py restore ID brings one back).")
@click.option("-n", "--limit", type=click.IntRange(1, 100_000), default=20, show_default=True,
              help="Memories per page.")
@click.option("--offset", type=click.IntRange(0), default=0, show_default=True, help="Skip this many first.")
@click.option("--oldest", is_flag=True, help="First stored first (default: most recently stored first).")
def list_cmd(types: tuple[str, ...], tags: tuple[str, ...], sources: tuple[str, ...], authors: tuple[str, ...],
             since: str | None,
             until: str | None, history: bool, archived: bool, forgotten: bool, limit: int, offset: int,
             oldest: bool) -> None:
    """List memories, most recently stored first: current ones by default, a page at a time.

    To find memories by meaning use recall; to copy them all, export.

    \b
    Examples:
      mem.py list
      mem.py list --type procedural --tag infra -n 50
      mem.py list --since "last week" --json
      mem.py list --forgotten            # what mem.py restore ID can bring back
      mem.py list --offset 20            # the next page
      mem.py list --author "Ana Souza" -n 1000 --json   # everything she wrote (to forget it, say)
    """
    from memengine.listing import list_memories

    data = list_memories(current_ctx().store(), types=types, sources=sources, tags=tags,
                         since=parse_date(since, "--since"), until=parse_date(until, "--until"), history=history,
                         archived=archived, forgotten=forgotten, limit=limit, offset=offset, oldest=oldest,
                         authors=authors)
    warnings = author_warnings(current_ctx().store().conn, authors) if authors and not data["total"] else []

    def human() -> None:
        if not data["memories"]:
            filtered = bool(types or tags or sources or authors or since or until or history or archived or forgotten or offset)
            click.echo("no memories match" if filtered else "no memories yet (mem.py store \"...\")")
            return
        from rich.table import Table

        t = Table()
        for col in ("id", "when", "type", "content"):
            t.add_column(col, overflow="fold", justify="right" if col == "id" else "left")
        for m in data["memories"]:
            flags = [f for f, on in (("pinned", m["pinned"]), ("history", m["valid_to"]),
                                     (m["status"], m["status"] != "active")) if on]
            text = cell(m["content"], 200) + (f" [dim]({', '.join(flags)})[/dim]" if flags else "")
            t.add_row(str(m["id"]), str(m["event_at"] or m["created_at"])[:16].replace("T", " "), m["memory_type"],
                      text)
        console().print(t)
        shown_to = offset + data["count"]
        if shown_to < data["total"]:
            click.echo(f"{offset + 1}-{shown_to} of {data['total']} (next: --offset {shown_to})", err=True)

    emit(data, human, warnings)
