"""mem — local-first long-term memory for AI agents, in one SQLite file: the command line.

This module is only the command line: it parses, calls ``memory_core`` and renders
(rich tables for people, one JSON envelope for agents). It holds no SQL. ``mem.py`` is its
entry point (``python3 mem.py ...``), kept to a few lines because Python compiles a script it
runs on every call, never from a cached ``.pyc``: with this module in it, that was ~10 ms of
every call, a handed-over one included (~40 % of its CPU). ``import mem`` gives this module.
"""

from __future__ import annotations

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

# Small matrix products run faster on one BLAS thread than on two contended ones (a
# consolidate neighbour search was 5x slower on busy cores); set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click  # noqa: E402

import memory_core as core  # noqa: E402
from memengine.bootstrap import wants_json  # noqa: E402
from memengine.cli import fastargs  # noqa: E402
from memengine.cli.common import (  # noqa: E402
    ROW_ID,
    Ctx,
    LazyGroup,
    at_kind,
    cell,
    console,
    current_ctx,
    degraded_warning,
    emit,
    one_line,
    parse_date,
    progress_bar,
    set_entry,
)
from memengine.cli.recall_body import recall_data  # noqa: E402  (bench/transport_steps.py names mem.recall_data)

# --------------------------------------------------------------------------- the group

# Commands that live in their own modules, imported only when invoked so that the
# cold start of `store`/`recall` never pays for them: name -> "module:attribute".
LAZY_COMMANDS: dict[str, str] = {
    "consolidate": "memengine.cli.consolidate:consolidate",
    "clusters": "memengine.cli.consolidate:clusters",
    "contradictions": "memengine.cli.consolidate:contradictions",
    "link": "memengine.cli.graph:link",
    "unlink": "memengine.cli.graph:unlink",
    "graph": "memengine.cli.graph:graph",
    "browse": "memengine.cli.graph:browse",
    "brief": "memengine.cli.graph:brief",
    "surface": "memengine.cli.graph:surface",
    "share": "memengine.cli.share:share",
    "update": "memengine.cli.facts:update",
    "pin": "memengine.cli.facts:pin",
    "unpin": "memengine.cli.facts:unpin",
    "list": "memengine.cli.listing:list_cmd",
    "export": "memengine.cli.transfer:export",
    "import": "memengine.cli.transfer:import_cmd",
    "serve": "memengine.cli.servers:serve",
    "mcp": "memengine.cli.servers:mcp",
}


@click.group(cls=LazyGroup, lazy_commands=LAZY_COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--db", envvar="MEM_DB", type=click.Path(dir_okay=False), help="Memory file (default: user data dir; env MEM_DB).")
@click.option("--json", "as_json", flag_value=True, default=None, help="JSON envelope output (default when stdout is not a terminal).")
@click.option("--plain", "as_json", flag_value=False, help="Human output even when piped.")
@click.version_option("0.1.0", prog_name="mem")
@click.pass_context
def cli(ctx: click.Context, db: str | None, as_json: bool | None) -> None:
    """Long-term memory for AI agents: store what matters, recall it in milliseconds.

    \b
    Examples:
      mem.py store "Oscar prefers morning meetings" --type semantic --importance 0.8
      mem.py recall "when does Oscar like to meet?"
      mem.py recall "error 0x8007045D" -k 5 --json
      mem.py import whatsapp "WhatsApp Chat with Ana.zip"
      mem.py stats

    \b
    Exit codes: 0 ok, 1 bad input, 2 usage, 3 not found, 4 database busy,
                5 embedding model mismatch (run reindex), 6 another job holds the lock,
                7 this Python lacks mem's packages (run make setup or pip install .),
                8 damaged file (run doctor), 9 read-only, 10 disk full, 11 newer schema,
                12 I/O error, 70 a bug.
    """
    global _DB_FOR_ERRORS
    ctx.obj = Ctx(db, as_json)
    ctx.call_on_close(ctx.obj.close)  # in-process callers (tests, agents importing main) must not leak connections
    _DB_FOR_ERRORS = ctx.obj.path


# --------------------------------------------------------------------------- store / recall

@cli.command()
@click.argument("content")
@click.option("--type", "memory_type", type=click.Choice(core.MEMORY_TYPES), default="semantic", show_default=True,
              help="episodic = an event, semantic = a fact, procedural = how to do something.")
@click.option("--importance", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@click.option("--source", default="user", show_default=True, help="Who or what this came from (agent, user, tool...).")
@click.option("--tag", "tags", multiple=True, help="Tag (repeatable).")
@click.option("--at", "at", help="When it happened: ISO date or phrase ('yesterday 3pm', 'last Friday').")
@click.option("--ref", help="External id, unique per source (makes repeated stores idempotent).")
@click.option("--thread", help="Conversation id this memory belongs to.")
@click.option("--author", help="Who said or wrote it.")
@click.option("--meta", "meta", help="Extra metadata as a JSON object.")
@click.option("--pin", is_flag=True, help="Never archive this memory.")
@click.option("--truncate", is_flag=True, help=f"Keep the first {core.MAX_CONTENT_BYTES:,} bytes of larger text instead of failing.")
@click.option("--no-dedup", is_flag=True,
              help="Store as given: no merge into an identical memory, no automatic supersession.")
@click.option("--link", "link_ids", multiple=True, type=ROW_ID,
              help="Link the new memory to this memory id (repeatable); graph and activation recall follow it.")
@click.option("--link-type", type=click.Choice(core.EDGE_TYPES), default="explicit", show_default=True,
              help="Edge type of --link (causal: the new memory caused or explains the other).")
@click.option("--link-weight", type=click.FloatRange(0, 1), default=0.8, show_default=True)
@click.option("--supersede", "supersede_ids", multiple=True, type=ROW_ID,
              help="This corrects memory ID (repeatable): ID leaves default recall, kept as history.")
def store(content: str, memory_type: str, importance: float, source: str, tags: tuple[str, ...], at: str | None,
          ref: str | None, thread: str | None, author: str | None, meta: str | None, pin: bool, truncate: bool,
          no_dedup: bool, link_ids: tuple[int, ...], link_type: str, link_weight: float,
          supersede_ids: tuple[int, ...]) -> None:
    """Store a memory. CONTENT '-' reads it from stdin.

    \b
    Examples:
      mem.py store "Oscar prefers morning meetings" --type semantic --importance 0.8
      mem.py store "To restart the gateway: openclaw gateway restart" --type procedural
      echo "long text" | mem.py store - --source agent --tag infra
      mem.py store "Flew to Rome" --type episodic --at "last Friday"
      mem.py store "The disk on db-7 was full" --type episodic --link 12 --link-type causal
      mem.py store "The wifi password is tiger-43" --supersede 12   # a correction (automatic when detected)
    """
    from memengine import cleantext

    if content == "-":
        try:  # bytes first: invalid UTF-8 on stdin is one line, not a decoder traceback
            content = cleantext.decode_utf8(sys.stdin.buffer.read(), "stdin").strip()
        except ValueError as exc:
            raise core.UserError(str(exc)) from exc
    metadata = None
    if meta:
        try:
            metadata = cleantext.loads(meta, "--meta")
        except ValueError as exc:
            raise core.UserError(str(exc)) from exc
        if not isinstance(metadata, dict):
            raise core.UserError("--meta: expected a JSON object")
    event_at = parse_date(at, "--at")
    s = current_ctx().store(fast_start=True)
    res = s.store(content, memory_type, source=source, importance=importance, tags=list(tags), metadata=metadata,
                  event_at=event_at, ref=ref, author=author, thread=thread, pinned=pin, truncate=truncate,
                  dedup=not no_dedup, links=[(t, link_type, link_weight) for t in link_ids],
                  supersede=supersede_ids, time_kind=at_kind(at))
    from memengine.cli.facts import store_human, store_json

    data = store_json(res)
    if thread and not res.deduplicated:  # a live thread: its closed stretches become episodes
        from memengine.chat_episodes import close_thread

        # (at the message's own time: a backfill with --at in the past closes nothing early)
        if made := close_thread(s, source, thread, at=event_at):
            data["episodes"] = made
    warnings = [degraded_warning(res.degraded, s.degraded_reason)]
    if not res.deduplicated and len(content) > 250:  # (users36) a note past the model's window says so
        from memengine.long_note import window_warning

        warnings.append(window_warning(s.embedder, content))
    emit(data, lambda: store_human(res, data), warnings)


def _explain_line(ex: dict[str, Any]) -> str:
    """Compact human rendering of a result's signals."""
    parts = []
    for key, value in ex.items():
        if value is None or isinstance(value, (dict, list)):
            continue
        parts.append(f"{key} {value:.3f}" if isinstance(value, float) else f"{key} {value}")
    return " · ".join(parts)


def _memory_table(results: list[core.Memory], explain: bool = False) -> Any:
    from rich.table import Table

    table = Table(show_lines=False, expand=False)
    table.add_column("id", justify="right", style="cyan", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("type", no_wrap=True)
    table.add_column("when", no_wrap=True)
    table.add_column("content", overflow="fold")
    if explain:
        table.add_column("why", overflow="fold", style="dim")
    for m in results:
        when = (m.event_at or m.created_at or "")[:16].replace("T", " ")
        text = cell(m.content, 400)
        if m.source.startswith(core.SHARED_SOURCE_PREFIX):
            text = cell(f"[shared from {m.source[len(core.SHARED_SOURCE_PREFIX):]}] ") + text
        if m.valid_to is not None:
            by = " ".join(f"#{i}" for i in m.superseded_by or [])
            text = cell(f"[superseded {m.valid_to[:10]}{' by ' + by if by else ''}]") + " " + text
        elif m.possibly_outdated:
            text = cell("[maybe outdated by " + " ".join(f"#{i}" for i in m.possibly_outdated_by or []) + "]") + " " + text
        if m.contradicts:
            text = cell("[disagrees with " + " ".join(f"#{i}" for i in m.contradicts) + "]") + " " + text
        row = [str(m.id), f"{m.score:.3f}" if m.score is not None else "", m.memory_type, when, text]
        if explain:
            row.append(cell(_explain_line(m.explain or {})))
        table.add_row(*row)
    return table


@cli.command()
@click.argument("query")
@click.option("-k", "k", type=click.IntRange(1, 1000), default=10, show_default=True, help="How many results.")
@click.option("--strategy", type=click.Choice(core.ALL_STRATEGIES), default="hybrid", show_default=True,
              help="hybrid (default), keyword, vector; graph = multi-hop, activation = spreading activation, "
                   "bridge = distant but connected.")
@click.option("--type", "types", multiple=True, type=click.Choice(core.MEMORY_TYPES), help="Only this type (repeatable).")
@click.option("--source", "sources", multiple=True, help="Only from this source (repeatable).")
@click.option("--tag", "tags", multiple=True, help="Only with this tag (repeatable).")
@click.option("--author", "authors", multiple=True,
              help="Only written by this person (a chat's or mail's author; a first name also finds the full one).")
@click.option("--since", help="Only memories that happened at or after this date.")
@click.option("--until", help="Only memories that happened at or before this date.")
@click.option("--include-archived", is_flag=True, help="Also search archived and superseded memories.")
@click.option("--raw", is_flag=True, help="QUERY is FTS5 syntax, passed through unescaped.")
@click.option("--explain", is_flag=True, help="Show each signal: keyword rank, cosine, fusion, priors.")
@click.option("--no-touch", is_flag=True, help="Do not reinforce what is returned.")
@click.option("--shared", is_flag=True, help="Also search memories shared by partners (marked as such).")
@click.option("--summaries", is_flag=True, help="Also return consolidation summaries (level >= 1).")
@click.option("--context", "with_context", is_flag=True, help="Attach each result's cluster, summary, siblings and links.")
@click.option("--history", is_flag=True, help="Also superseded versions of facts, each after what replaced it.")
@click.option("--as-of", "as_of", help="Answer with what was true at this date (superseded later or not).")
def recall(query: str, k: int, strategy: str, types: tuple[str, ...], sources: tuple[str, ...], tags: tuple[str, ...],
           authors: tuple[str, ...], since: str | None, until: str | None, include_archived: bool, raw: bool, explain: bool, no_touch: bool,
           shared: bool, summaries: bool, with_context: bool, history: bool, as_of: str | None) -> None:
    """Recall the memories most relevant to QUERY.

    \b
    Examples:
      mem.py recall "when does Oscar like to meet?"
      mem.py recall "error 0x8007045D" -k 5 --json
      mem.py recall "deploy" --type procedural --tag infra --since "last month"
      mem.py recall 'gateway NEAR(restart crash)' --raw --explain
      mem.py recall "office wifi password" --history      # the current value, then the older ones
      mem.py recall "where does Keiko live" --as-of 2025-01-01
      mem.py recall "cabin" --author Ana                  # what Ana said about it
    """
    s = current_ctx().store(fast_start=True)
    data, warnings, res = recall_data(s, query, k=k, strategy=strategy, types=types, sources=sources, tags=tags,
                                      since=since, until=until, include_archived=include_archived, raw=raw,
                                      explain=explain, touch=not no_touch, shared=shared, summaries=summaries,
                                      with_context=with_context, history=history, as_of=as_of, authors=authors)

    def human() -> None:
        if not res.results:
            click.echo("no matching memories")
            return
        console().print(_memory_table(res.results, explain))
        if with_context:
            for r in data["results"]:
                click.echo(_context_line(r["id"], r.get("context") or {}))

    emit(data, human, warnings)


def _context_line(mid: int, ctx: dict[str, Any]) -> str:
    """One line of a result's structural context, with the ids to follow (browse, graph, get)."""
    parts = []
    cl = ctx.get("cluster")
    if cl:
        text = f"topic T{cl['id']} L{cl['level']} {one_line(cl.get('label') or '', 40)} ({cl['member_count']} members)"
        if cl.get("parent"):
            text += f" in {cl['parent']['id']} {one_line(cl['parent'].get('label') or '', 30)}"
        parts.append(text)
    if ctx.get("episode"):
        parts.append(f"episode #{ctx['episode']['id']}")
    if ctx.get("siblings"):
        parts.append("siblings " + " ".join(f"#{i}" for i in ctx["siblings"]))
    if ctx.get("links"):
        arrows = {"out": "→", "in": "←"}
        parts.append("links " + ", ".join(f"{arrows.get(x['direction'], '')}#{x['id']} {x['type']} {x['weight']}"
                                          for x in ctx["links"]))
    return f"#{mid}: " + (" · ".join(parts) if parts else "no cluster, episode or links yet")


# --------------------------------------------------------------------------- single memories

def _show_memory(m: core.Memory) -> None:
    from rich.markup import escape
    from rich.table import Table

    t = Table(show_header=False, box=None)
    for key, value in m.to_dict().items():
        if value in (None, "", [], {}):
            continue
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
        t.add_row(f"[bold]{key}[/bold]", escape(shown))  # the whole text, line breaks kept
    console().print(t)


@cli.command()
@click.argument("memory_id", type=ROW_ID)
def get(memory_id: int) -> None:
    """Show one memory by id.

    \b
    Example:
      mem.py get 42
    """
    versions = current_ctx().store().versions(memory_id)
    m = next(v for v in versions if v.id == memory_id)
    data = m.to_dict()
    if len(versions) > 1:  # the whole chain, newest first
        data["versions"] = [{"id": v.id, "content": v.content, "valid_from": v.valid_from, "valid_to": v.valid_to,
                             **({"status": v.status} if v.status != "active" else {})}  # forgotten: not current
                            for v in versions]

    def human() -> None:
        _show_memory(m)
        for v in data.get("versions", []):
            mark = "forgotten" if v.get("status") == "deleted" else v.get("status") or (
                "current" if v["valid_to"] is None else f"until {v['valid_to']}")
            click.echo(f"{'*' if v['id'] == m.id else ' '} #{v['id']} ({mark}) {one_line(v['content'], 80)}")

    emit(data, human)


@cli.command()
@click.argument("memory_id", type=ROW_ID)
def forget(memory_id: int) -> None:
    """Forget a memory (soft delete: kept in the file, restorable).

    \b
    Example:
      mem.py forget 42 && mem.py restore 42
    """
    m, back, episodes = current_ctx().store().forget_versions(memory_id)
    data: dict[str, Any] = {"id": m.id, "status": m.status}
    if back:  # the older versions of a fact it had replaced: the answer again (users31)
        data["current_again"] = back
    if episodes:  # a chat turn's episodes hold its words: forgotten with it (users34)
        data["episodes_forgotten"] = episodes

    def human() -> None:
        click.echo(f"forgot #{m.id} (restore with: mem.py restore {m.id})")
        if back:
            click.echo("current again: " + " ".join(f"#{i}" for i in back) + f" (#{m.id} had replaced them)")
        if episodes:
            click.echo("forgotten with it: " + " ".join(f"#{i}" for i in episodes) + " (episodes holding its words)")

    emit(data, human)


@cli.command()
@click.argument("target", metavar="ID|BACKUP", required=False)
@click.option("--list", "list_backups", is_flag=True, help="List the backups in backups/ next to the file, newest first.")
@click.option("--from", "source", type=click.Path(), default=None,
              help="With --list: list the backups in this folder instead (every *.db file); with BACKUP: look for "
                   "that name there.")
@click.option("--dry-run", is_flag=True, help="Check BACKUP and say what a restore would change; change nothing.")
def restore(target: str | None, list_backups: bool, source: str | None, dry_run: bool) -> None:
    """Restore a forgotten memory (ID), or the whole store from a backup file (BACKUP).

    A store restore checks the backup first, keeps the current content as
    backups/<name>.<time>.pre-restore.db, and copies the backup into the file in one
    transaction while servers keep running (they reopen it by themselves).

    \b
    Examples:
      mem.py restore 42                                  # a forgotten memory
      mem.py restore --list                              # backups, newest first
      mem.py restore --list --from ~/backups             # backups kept elsewhere
      mem.py restore memory.db.20261126T031700.consolidate.db --dry-run
      mem.py restore ~/mem-backup.db
    """
    if list_backups or source is not None or (target is not None and not target.isdigit()):
        from memengine.cli.restore import restore_store

        restore_store(target, list_backups, dry_run, source)
        return
    if target is None:
        raise click.UsageError("Missing argument 'ID|BACKUP' (a memory id, a backup file, or --list).")
    if dry_run:
        raise click.UsageError("--dry-run is for a backup file, not a memory id.")
    memory_id = ROW_ID.convert(int(target), None, click.get_current_context())
    m, episodes = current_ctx().store().restore_episodes(memory_id)
    data: dict[str, Any] = {"id": m.id, "status": m.status}
    if episodes:  # a chat turn's episodes forgotten with it, back with it (users36), as forget names them
        data["episodes_restored"] = episodes

    def human() -> None:
        click.echo(f"restored #{m.id}")
        if episodes:
            click.echo("back with it: " + " ".join(f"#{i}" for i in episodes) + " (episodes holding its words)")

    emit(data, human)


# --------------------------------------------------------------------------- maintenance

@cli.command()
def stats() -> None:
    """Counts by status and type, graph size, file size, model.

    \b
    Example:
      mem.py stats --json
    """
    data = current_ctx().store().stats()

    def human() -> None:
        from rich.table import Table

        t = Table(show_header=False, box=None)
        for key, value in data.items():
            t.add_row(f"[bold]{key}[/bold]", cell(json.dumps(value) if isinstance(value, dict) else str(value)))
        console().print(t)

    emit(data, human)


@cli.command()
@click.option("--fix", is_flag=True, help="Repair what is out of step (rebuild FTS, embed missing vectors).")
@click.option("--recover", "recover_to", type=click.Path(dir_okay=False),
              help="Copy every row SQLite can still read from a damaged file into this NEW file (the old one is "
                   "only read).")
@click.option("--full", is_flag=True, help="Compare the keyword index with every memory's text (above 5,000 "
              "memories the default compares a sample; slow at scale: minutes at 1M).")
def doctor(fix: bool, recover_to: str | None, full: bool) -> None:
    """Check the memory file and its indexes; report versions and model checksum.

    Works on a damaged file too: it reports what SQLite's integrity_check finds and exits
    with the file's error code (8 damaged, 11 newer schema, ...).

    \b
    Examples:
      mem.py doctor
      mem.py doctor --fix
      mem.py doctor --full      # the keyword index against every row, not a sample
      mem.py doctor --recover salvaged.db && mem.py --db salvaged.db doctor --fix
    """
    c = current_ctx()
    if recover_to:
        res = core.recover_file(c.path, Path(recover_to).expanduser())

        def told() -> None:
            rows = ", ".join(f"{n} {t}" for t, n in res["copied"].items() if n)
            click.echo(f"recovered into {res['dest']}: {rows or 'nothing'}; {res['vectors']} vectors")
            for t, why in res["unreadable"].items():
                click.secho(f"  unreadable: {t}: {why}", fg="yellow", err=True)
            if res["missing_vectors"]:
                click.echo(f"next: mem.py --db {res['dest']} doctor --fix  (embeds {res['missing_vectors']} vectors)")

        warnings = [f"{t}: {why}" for t, why in res["unreadable"].items()]
        if res["newer_migrations"]:  # (users34) every other command refuses such a file: the copy is a downgrade
            warnings.append(f"{c.path}: written by a newer mem (unknown migrations: {', '.join(res['newer_migrations'])});"
                            f" {res['dest']} has this version's schema, without what those migrations added: upgrade "
                            "mem and recover again to keep it")
        emit(res, told, warnings)
        return
    failed: core.MemError | None = None
    try:
        s = c.store(fast_start=True)
        report = s.doctor(fix=fix, full=full)
    except (core.DamagedFile, core.NewerSchema, core.IOFailure, core.ReadOnly) as opened:
        failed = opened
    except core.sqlite3.DatabaseError as raw:  # (users29) a file that opens may fail at a page the check reads
        failed = core.db_error(raw, c.path)
        if not isinstance(failed, core.DamagedFile):
            raise
    if failed is not None:
        err = failed
        report = core.diagnose_file(c.path)
        from memengine.backup import last_backup

        report["last_backup"] = last_backup(c.path)  # (what `mem.py restore --list` would offer first)
        problem, status = err.message, err.exit_code
        if err.code == "damaged":  # (users29) not "run `mem.py doctor` to see how" to someone who just ran it
            found = " ".join("; ".join(report.get("problems") or []).split()) or "SQLite finds it damaged"
            problem = problem.replace("run `mem.py doctor` to see how, ", f"doctor found: {found}; ")
        report.update(ok=False, error={"code": err.code, "message": problem})

        def damaged() -> None:
            for key, value in report.items():
                click.echo(f"{key:24} {value}")
            click.secho(f"PROBLEMS FOUND: {problem}", fg="red", err=True)

        emit(report, damaged, failed=(err.code, problem))
        sys.exit(status)

    def human() -> None:
        import shutil
        import textwrap

        from memengine.backup import age_text

        width = max(60, shutil.get_terminal_size((80, 24)).columns)
        for key, value in report.items():
            if key == "last_backup" and value:
                value = f"{value['time']} ({age_text(value['age_hours'])} ago, {value['kind']}): {value['path']}"
            if key == "migrations" and isinstance(value, list) and value:
                value = f"{len(value)} applied, the last {value[-1]}"  # (users26: the list was 307 characters)
            if key != "notes":
                # (users26) wrapped to the terminal, continued under the value (a path stays whole)
                click.echo(textwrap.fill(f"{key:24} {', '.join(map(str, value)) if isinstance(value, list) else value}",
                                         width=width, subsequent_indent=" " * 25, break_long_words=False,
                                         break_on_hyphens=False))
        for note in report.get("notes", []):
            click.secho(f"note: {note}", fg="yellow", err=True)
        left = report.get("problems_after_fix")
        click.secho("OK" if report["ok"] else (f"PROBLEMS LEFT after --fix: {'; '.join(left)}" if left
                                               else "PROBLEMS FOUND (run: mem.py doctor --fix)"),
                    fg="green" if report["ok"] else "red", err=True)

    left = report.get("problems_after_fix") if fix else report.get("problems")
    emit(report, human, failed=None if report["ok"] else (
        "problems_found", f"{c.path}: {'; '.join(left or ['see data.problems'])} "
                          f"({'left after --fix: see data' if fix else 'run: mem.py doctor --fix'})"))
    if not report["ok"]:
        sys.exit(1)


@cli.command()
@click.option("--missing", is_flag=True, help="Only embed memories that have no vector yet.")
def reindex(missing: bool) -> None:
    """Re-embed memories with the current model (after a model change or a degraded period).

    \b
    Examples:
      mem.py reindex            # everything, e.g. after MEM_MODEL_PATH changed
      mem.py reindex --missing  # what was stored while the model could not load
    """
    s = current_ctx().store(fast_start=False)
    total = s.stats()["memories"]
    with progress_bar(total, "embedding") as advance:
        res = s.reindex(only_missing=missing, progress=advance)
    emit(res, lambda: click.echo(f"embedded {res['embedded']} memories with {res['model']}"))


@cli.command()
def compact() -> None:
    """Give free pages back to the disk (VACUUM): after big deletions or an upgrade.

    \b
    Example:
      mem.py compact
    """
    res = current_ctx().store(fast_start=True).compact()
    emit(res, lambda: click.echo(f"{res['path']}: {res['bytes_before']:,} -> {res['bytes_after']:,} bytes "
                                 f"({res['freed_bytes']:,} freed)"))


@cli.command()
@click.argument("dest", type=click.Path(dir_okay=False), required=False)
@click.option("--keep", type=click.IntRange(0, 100_000), default=None, show_default=False,
              help="Without DEST: how many of these timestamped backups to keep, newest first (default 7; 0 keeps "
                   "all). Consolidate's, pre-restore and damaged files are never deleted.")
@click.option("--parents", is_flag=True, help="Create DEST's folder if it does not exist (default: an error "
                                             "naming it, as a typo in the path would make it).")
def backup(dest: str | None, keep: int | None, parents: bool) -> None:
    """Write a checked copy of the memory file (VACUUM INTO, then integrity_check), safe while others write.

    Without DEST: backups/<name>.<UTC time>.backup.db next to the file (where consolidate
    and restore keep theirs; `mem.py restore --list` shows them), keeping the newest 7.
    DEST's folder must exist (or add --parents).

    \b
    Examples:
      mem.py backup                                  # into backups/ next to the file
      mem.py backup --keep 30                        # e.g. daily from cron: a month of copies
      mem.py backup ~/backups/memory-$(date +%F).db  # anywhere else (never overwrites)
    """
    from memengine import backup as bk

    if dest is not None and keep is not None:
        raise click.UsageError("--keep is for backups into backups/ (no DEST)")
    if dest is None and parents:
        raise click.UsageError("--parents is for a DEST in a folder to create (backups/ is always created)")
    s = current_ctx().store(fast_start=True)
    res = bk.take(s.conn, s.path, Path(dest).expanduser() if dest else None,
                  bk.DEFAULT_KEEP if keep is None else keep, parents=parents)

    def human() -> None:
        click.echo(f"backed up to {res['path']} ({res['size_bytes']:,} bytes, {res['memories']:,} memories, "
                   f"integrity ok)")
        if "kept" in res:
            rule = "all kept" if res["keep"] == 0 else f"the newest {res['keep']} kept"
            click.echo(f"backups of this kind in {res['folder']}: {len(res['kept'])} ({rule})"
                       + (f"; deleted {len(res['deleted'])} older: {', '.join(res['deleted'])}" if res["deleted"]
                          else ""))
            if res["other_backups"]:
                click.echo(f"{res['other_backups']} other backups there (consolidate's, pre-restore, damaged) "
                           "are left as they are")

    emit(res, human)


@cli.command()
def path() -> None:
    """Print the memory file's path.

    \b
    Example:
      mem.py path
    """
    # absolute (users35): a relative --db or MEM_DB named the file only from the folder the command ran in
    p = os.path.abspath(os.path.expanduser(str(current_ctx().db or core.default_db_path())))
    emit({"path": p}, lambda: click.echo(p))


# --------------------------------------------------------------------------- entry point

_COMMAND_FOR_ERRORS = "mem"
_DB_FOR_ERRORS: Path | None = None  # the memory file, named by errors raised outside the store


def _emit_error(code: str, message: str, exit_code: int, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"ok": False, "command": _COMMAND_FOR_ERRORS,
                               "error": {"code": code, "message": message}}, ensure_ascii=False))
    else:
        click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(exit_code)


GLOBAL_FLAGS = ("--json", "--plain")
# read by fastargs (JSON output, simple forms) instead of click's parser: ~0.8 ms of a warm call
FAST_COMMANDS = frozenset({"recall", "get", "store", "stats"})


def hoist_global_options(argv: list[str]) -> list[str]:
    """Accept ``--json``/``--plain``/``--db X`` anywhere: agents append them to any command.

    click only knows group options before the subcommand, so they are moved to the
    front (never past a ``--`` separator); ``--db`` is found as the warm-path handoff finds it.
    """
    from memengine.handoff import split_db

    db, rest = split_db(argv)
    cut = rest.index("--") if "--" in rest else len(rest)
    flags = [a for a in rest[:cut] if a in GLOBAL_FLAGS]
    others = [a for a in rest[:cut] if a not in GLOBAL_FLAGS] + rest[cut:]
    return flags + ([f"--db={db}"] if db is not None else []) + others


def main(argv: list[str] | None = None) -> None:
    """Run the CLI, mapping every failure to one line and a documented exit code."""
    global _COMMAND_FOR_ERRORS, _DB_FOR_ERRORS
    _DB_FOR_ERRORS = None  # set by the group callback; a second call in one process must not see the last file
    argv = hoist_global_options(list(sys.argv[1:] if argv is None else argv))
    as_json = wants_json(argv)
    rest = [a for i, a in enumerate(argv) if not a.startswith("-") and (i == 0 or argv[i - 1] not in ("--db",))]
    _COMMAND_FOR_ERRORS = rest[0] if rest else "mem"
    try:
        _check_argv(argv)
        prog_name = os.path.basename(sys.argv[0]) or "mem"
        fast = fastargs.parse(cli, argv, FAST_COMMANDS)
        if fast is not None:  # an agent's simple call: the same values and contexts, without click's parser
            fastargs.invoke(cli, prog_name, *fast)
        else:
            cli.main(args=argv, prog_name=prog_name, standalone_mode=False)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except (Exception, KeyboardInterrupt) as exc:
        from memengine.cli.errors import error_of  # (a failing call only)

        _emit_error(*error_of(exc, _DB_FOR_ERRORS), as_json)


set_entry(main)  # the servers run calls in process through it (memengine/cli/servers.py)


def _check_argv(argv: list[str]) -> None:
    """Refuse an argument that is not valid UTF-8 (Python hands it over with surrogates) with one line."""
    from memengine.cleantext import check_text

    for i, a in enumerate(argv, 1):
        try:
            check_text(a, f"argument {i} ({a.encode('utf-8', 'replace').decode('utf-8')[:40]!r})", strip_nul=False)
        except ValueError as exc:
            raise core.UserError(str(exc)) from exc
