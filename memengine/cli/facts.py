"""``mem.py update`` / ``pin`` / ``unpin``, and how a store reports supersession (facts that change).

Parsing and rendering only; the rules live in memengine.writes (``update``, ``set_pinned``)
and memengine.supersession. Loaded lazily by ``mem.py`` (``LAZY_COMMANDS``); ``store``
imports the two render helpers when it runs.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from memengine.cli.common import ROW_ID, at_kind, current_ctx, degraded_warning, emit, parse_date
from memengine.records import StoreResult


def store_json(res: StoreResult) -> dict[str, Any]:
    """The JSON of a store (also ``update``): what was written, merged, superseded, raised."""
    data: dict[str, Any] = {"id": res.id, "deduplicated": res.deduplicated, "supersedes": res.supersedes}
    if res.superseded_by is not None:  # a list, as in recall, get and export (users31: was a bare number)
        data["superseded_by"] = [res.superseded_by]
    if res.contradicts:
        data["contradicts"] = res.contradicts
    if res.may_update:
        data["may_update"] = res.may_update  # probably (not surely) an update: both current, recall ranks it first
    if res.possibly_outdated_by:
        data["possibly_outdated_by"] = res.possibly_outdated_by
    data.update(res.raised)
    if res.links:
        data["links"] = [{"target_id": t, "edge_type": et, "weight": w} for t, et, w in res.links]
    if res.dedup_reason:
        data["dedup_reason"] = res.dedup_reason
    if res.merged:
        data["merged"] = res.merged  # the duplicate's tags/source now belong to the kept memory
    if res.degraded:
        data["degraded"] = res.degraded
    return data


def store_human(res: StoreResult, data: dict[str, Any]) -> None:
    """The human lines of a store."""
    if res.deduplicated:
        added = "; added " + ", ".join(f"{k} {v}" for k, v in res.merged.items()) if res.merged else ""
        click.echo(f"already known as #{res.id} ({res.dedup_reason}); reinforced{added}")
    else:
        click.echo(f"stored #{res.id}")
    for key in ("importance", "pinned"):
        if key in res.raised:
            click.echo(f"#{res.id}: {key} now {res.raised[key]}")
    if res.supersedes:
        click.echo(f"#{res.id} supersedes " + " ".join(f"#{i}" for i in res.supersedes)
                   + " (kept as history: recall --history)")
    if res.superseded_by is not None:
        click.echo(f"#{res.id} is older than #{res.superseded_by}, which stays current (kept as history)")
    if res.contradicts:
        click.echo(f"#{res.id} disagrees with " + " ".join(f"#{i}" for i in res.contradicts)
                   + " from another source: see mem.py contradictions")
    if res.may_update:
        click.echo(f"#{res.id} probably updates " + " ".join(f"#{i}" for i in res.may_update)
                   + " (not sure enough to supersede: both kept, recall ranks the newer first)")
    if res.possibly_outdated_by:
        click.echo(f"#{res.id} is probably outdated by " + " ".join(f"#{i}" for i in res.possibly_outdated_by))
    for link in data.get("links", []):
        click.echo(f"linked #{res.id} -[{link['edge_type']} {link['weight']}]-> #{link['target_id']}")


@click.command()
@click.argument("memory_id", type=ROW_ID)
@click.argument("content")
@click.option("--at", "at", help="When the new version became true (default: now).")
@click.option("--truncate", is_flag=True, help="Keep the first part of larger text instead of failing.")
def update(memory_id: int, content: str, at: str | None, truncate: bool) -> None:
    """Correct memory MEMORY_ID: CONTENT replaces it (it stays as history). '-' reads stdin.

    \b
    Examples:
      mem.py update 12 "The wifi password at the office is tiger-43"
      mem.py update 12 "Keiko lives in Kyoto" --at 2025-03-01
      mem.py get 12          # shows the chain; mem.py recall "..." --history too
    """
    if content == "-":
        content = sys.stdin.read().strip()
    s = current_ctx().store(fast_start=True)
    res = s.update(memory_id, content, event_at=parse_date(at, "--at"), truncate=truncate, time_kind=at_kind(at))
    data = store_json(res)
    emit(data, lambda: store_human(res, data), [degraded_warning(res.degraded, s.degraded_reason)])


def _pin(memory_id: int, pinned: bool) -> None:
    m = current_ctx().store().set_pinned(memory_id, pinned)
    emit({"id": m.id, "pinned": bool(m.pinned)},
         lambda: click.echo(f"{'pinned' if m.pinned else 'unpinned'} #{m.id}"))


@click.command()
@click.argument("memory_id", type=ROW_ID)
def pin(memory_id: int) -> None:
    """Pin a memory: never archived by decay.

    \b
    Example:
      mem.py pin 12
    """
    _pin(memory_id, True)


@click.command()
@click.argument("memory_id", type=ROW_ID)
def unpin(memory_id: int) -> None:
    """Unpin a memory (decay may archive it again when unused).

    \b
    Example:
      mem.py unpin 12
    """
    _pin(memory_id, False)
