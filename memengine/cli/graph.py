"""Graph commands: link, unlink, graph (neighbourhood / export), browse, brief, surface.

Loaded lazily by ``mem.py`` (``LAZY_COMMANDS``); all logic lives in :mod:`memengine.graph`.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from memengine import graph_nav, graph_rank
from memengine.cli.common import ROW_ID, TopicId, cell, console, current_ctx, emit, one_line, parse_date
from memengine.records import EDGE_TYPES


@click.command()
@click.argument("source_id", type=ROW_ID)
@click.argument("target_id", type=ROW_ID)
@click.option("--type", "edge_type", type=click.Choice(EDGE_TYPES), default="explicit", show_default=True)
@click.option("--weight", type=click.FloatRange(0, 1), default=0.8, show_default=True)
def link(source_id: int, target_id: int, edge_type: str, weight: float) -> None:
    """Link two memories (an explicit, causal, ... edge; re-linking updates the weight).

    \b
    Example:
      mem.py link 12 40 --type causal --weight 0.9
    """
    data = graph_nav.link(current_ctx().store(), source_id, target_id, edge_type, weight)
    emit(data, lambda: click.echo(f"linked #{source_id} -[{edge_type} {weight}]-> #{target_id}"))


@click.command()
@click.argument("source_id", type=ROW_ID)
@click.argument("target_id", type=ROW_ID)
@click.option("--type", "edge_type", type=click.Choice(EDGE_TYPES), default=None, help="Only this edge type.")
def unlink(source_id: int, target_id: int, edge_type: str | None) -> None:
    """Remove the edges between two memories (both directions). A fact's versions (supersedes) and a
    contradiction's pair (contradicts) stay unless named with --type.

    \b
    Example:
      mem.py unlink 12 40 --type causal
    """
    data = graph_nav.unlink(current_ctx().store(), source_id, target_id, edge_type)
    emit(data, lambda: click.echo(f"removed {data['removed']} edge(s) between #{source_id} and #{target_id}"))


class DefaultGroup(click.Group):
    """A group whose first argument, when not a subcommand, goes to the default one.

    ``graph 12 --hops 2`` is ``graph show 12 --hops 2``; ``graph export ...`` stays.
    """

    default_command = "show"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultGroup)
def graph() -> None:
    """The association graph: a memory's neighbourhood, or an export.

    \b
    Examples:
      mem.py graph 12 --hops 2
      mem.py graph export --format dot > memory.dot
      mem.py graph export --format graphml --around 12 --hops 2
    """


def _tree(data: dict[str, Any]) -> None:
    from rich.tree import Tree

    nodes = {n["id"]: n for n in data["nodes"]}
    kids: dict[int | None, list[int]] = {}
    for n in data["nodes"]:
        kids.setdefault(n["parent"], []).append(n["id"])
    via: dict[tuple[int, int], str] = {}
    for e in data["edges"]:
        via[(e["source"], e["target"])] = f"{e['type']} {e['weight']}"
        via.setdefault((e["target"], e["source"]), f"{e['type']} {e['weight']} ←")

    def label(i: int, parent: int | None) -> str:
        n = nodes[i]
        text = cell(n["content"], 90)
        edge = f"[dim]({via.get((parent, i), 'link')})[/dim] " if parent is not None else ""
        return f"{edge}[cyan]#{i}[/cyan] {text}"

    root = data["root"]
    tree = Tree(label(root, None))

    def grow(t: Any, i: int) -> None:
        for c in kids.get(i, []):
            grow(t.add(label(c, i)), c)

    grow(tree, root)
    console().print(tree)
    if data["truncated"]:
        click.echo("(truncated)")


@graph.command("show")
@click.argument("memory_id", type=ROW_ID)
@click.option("--hops", type=click.IntRange(0, 6), default=1, show_default=True)
@click.option("--limit", type=click.IntRange(1, 10_000), default=200, show_default=True, help="At most this many nodes.")
def show(memory_id: int, hops: int, limit: int) -> None:
    """A memory's neighbourhood: a tree for people, nodes and edges as JSON for agents.

    \b
    Examples:
      mem.py graph show 12 --hops 2
      mem.py graph 12            # the same: show is the default subcommand
    """
    data = graph_nav.neighbourhood(current_ctx().store(), memory_id, hops=hops, limit=limit)
    emit(data, lambda: _tree(data))


@graph.command("export")
@click.option("--format", "fmt", type=click.Choice(("dot", "graphml", "json")), default="json", show_default=True)
@click.option("--around", type=ROW_ID, default=None, help="Only the neighbourhood of this memory.")
@click.option("--hops", type=click.IntRange(0, 6), default=2, show_default=True, help="With --around: how far.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to a file instead of stdout.")
def export_cmd(fmt: str, around: int | None, hops: int, output: str | None) -> None:
    """Export the graph (or a neighbourhood) as DOT, GraphML or JSON, raw on stdout.

    \b
    Examples:
      mem.py graph export --format dot > memory.dot
      mem.py graph export --format graphml --around 12 --hops 2 -o around-12.graphml
    """
    text = graph_nav.export(current_ctx().store(), fmt, around=around, hops=hops)
    if output:
        from pathlib import Path

        from memengine.privfile import write_private

        write_private(Path(output), text.encode("utf-8"))  # 0600: the graph holds every memory's text
        click.echo(f"wrote {output}", err=True)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


@click.command()
@click.argument("cluster_id", type=TopicId(), required=False)
@click.option("--limit", type=click.IntRange(1, 1000), default=50, show_default=True)
def browse(cluster_id: int | None, limit: int) -> None:
    """Browse the cluster hierarchy: roots, or one cluster's parent, children and members.

    \b
    Examples:
      mem.py browse
      mem.py browse T7
    """
    data = graph_nav.browse(current_ctx().store(), cluster_id, limit)

    def human() -> None:
        c = data["cluster"]
        if c is None:
            if not data["roots"]:
                click.echo("no clusters yet (run `mem.py consolidate`)")
            for r in data["roots"]:
                # the summary's first chosen sentence: its header repeats the label's key terms
                lines = (r["summary"] or {}).get("content", "").splitlines()
                first = lines[1].removeprefix("- ") if len(lines) > 1 else (lines[0] if lines else "")
                click.echo(f"T{r['id']} L{r['level']} {r['label'] or ''} ({r['member_count']} members) "
                           f"{one_line(first, 80)}")
            return
        click.echo(f"topic T{c['id']} L{c['level']} {c['label'] or ''} — {c['member_count']} members")
        if c["summary"]:
            head, *rest = c["summary"]["content"].splitlines() or [""]
            click.echo(f"  summary #{c['summary']['id']}: {head}")
            for line in rest:
                click.echo(f"    {line}")
        if c["parent"]:
            click.echo(f"  parent: T{c['parent']['id']} {c['parent']['label'] or ''}")
        for ch in c["children"]:
            click.echo(f"  child: T{ch['id']} {ch['label'] or ''} ({ch['member_count']})")
        for m in c["members"]:
            click.echo(f"  #{m['id']} {one_line(m['content'], 100)}")

    emit(data, human)


@click.command()
@click.option("--budget", type=click.IntRange(1, 1_000_000), default=2000, show_default=True, help="Tokens at most.")
@click.option("--now", "now_text", hidden=True, help="Pretend it is this time, on the user's clock (tests, simulations).")
def brief(budget: int, now_text: str | None) -> None:
    """A session-start briefing within a token budget, the same selection as MEMORY.md's block:
    key facts, procedures, recently changed, open contradictions, people, then per topic (T12)
    its most informative memories (#123, what `get` takes). With --json, data.chosen says why.

    \b
    Examples:
      mem.py brief --budget 2000
      mem.py --json brief
    """
    from memengine import briefcache

    store = current_ctx().store()
    # (the same brief as the last call's while the store, the clock's day and bounds, the code and the settings
    # are as they were: memengine/briefcache.py)
    if now_text:  # (a pretended clock: made, never kept)
        data = graph_rank.brief(store, budget, now=parse_date(now_text, "--now"))
    else:
        data = briefcache.brief(store.conn, budget, lambda now: graph_rank.brief(store, budget, now=now))
    if not data["chosen"] and not data["warnings"] and not store.stats()["by_status"].get("active"):
        # (users26) an agent's first session: "# Briefing" alone read as a broken command
        data = {**data, "warnings": [EMPTY_STORE]}
    emit(data, lambda: click.echo(data["text"]), data["warnings"])


EMPTY_STORE = ("no memories yet: store what you learn (mem.py store \"...\") or import history once "
               "(mem.py import PATH)")


@click.command()
@click.argument("utterance")
@click.option("-k", "k", type=click.IntRange(1, 100), default=graph_rank.SURFACE_K, show_default=True)
def surface(utterance: str, k: int) -> None:
    """Memories related to UTTERANCE that it does not already mention.

    \b
    Example:
      mem.py surface "we could ask Ana about the Lisbon trip"
    """
    data = graph_rank.surface(current_ctx().store(), utterance, k)

    def human() -> None:
        if not data["results"]:
            click.echo("nothing to surface")
        for r in data["results"]:
            click.echo(f"#{r['id']} ({r['score']:.2f}, via {r['via']}) {one_line(r['content'], 160)}")

    emit(data, human)
