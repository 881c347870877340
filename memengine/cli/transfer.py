"""The command line's import and export (``mem.py import``, ``mem.py export``): loaded when invoked
(memcli.LAZY_COMMANDS), so a cold ``store``/``recall`` never pays for them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

import memory_core as core
from importers.registry import NAMES as IMPORTERS
from memengine.cli.common import Advance, current_ctx, degraded_warning, emit, progress_bar


class ImportInterrupted(core.MemError):
    """Ctrl-C during an import, said with what was written (README's ``interrupted``, exit 130)."""

    code = "interrupted"
    exit_code = 130


NOTHING_TO_IMPORT = "nothing_to_import"  # README's exit 13: the file held nothing to keep; nothing was written
_SKIPS = (("skipped_system", "service lines"), ("skipped_media", "files without words"), ("skipped_empty", "empty"),
          ("skipped_tool", "tool output"), ("skipped_malformed", "malformed"), ("skipped_oversized", "too long"))


def nothing_imported(what: str, fmt: str, summaries: Sequence[Any], forced: bool) -> tuple[str, str] | None:
    """(code, one-line message) when ``summaries`` read no record at all — none added, none already stored, no
    summary replaced — else None. A re-import of the same file (every record a duplicate) imported what it holds:
    not this. Said by the exit code (13) so an agent need not read the counts to know nothing landed."""
    if any(x.memories_added or x.skipped_duplicates or getattr(x, "summaries_replaced", 0) for x in summaries):
        return None
    seen = sum(x.messages_seen for x in summaries)
    skips = [f"{n} {label}" for key, label in _SKIPS if (n := sum(getattr(x, key) for x in summaries))]
    if seen:
        said = f"{seen} message{'' if seen == 1 else 's'} read as {fmt}, none to keep"
        said += f" ({', '.join(skips)})" if skips else ""
    else:
        said = f"no message nor note found as {fmt}"
    hint = f"; if this is not a {fmt} export, import it without naming its format" if forced else ""
    return NOTHING_TO_IMPORT, f"{what}: nothing to import: {said}{hint}; nothing was written"


def _how_far(advance: Advance, path: Path) -> tuple[str, str]:
    """(what an import cut short had written, what running it again does): the batches are whole transactions
    keyed by (source, ref), so a re-run skips what landed and adds the rest."""
    if advance.done == 0:
        return f"{path}: nothing was written", "import it"
    if advance.total is not None and advance.done >= advance.total:
        return (f"{path}: all {advance.total} messages were written, the episodes not all grouped",
                "finish them (the messages are skipped as duplicates)")
    of = f" of {advance.total}" if advance.total is not None else ""
    return (f"{path}: {advance.done}{of} messages were written, whole batches only (nothing half-written)",
            "add the rest (what landed is skipped as duplicates)")


@contextmanager
def _said_if_cut_short(advance: Advance, path: Path) -> Iterator[None]:
    """Ctrl-C or a full disk mid-import: the one-line error says how far it got and that a re-run resumes."""
    try:
        yield
    except KeyboardInterrupt:
        done, then = _how_far(advance, path)
        raise ImportInterrupted(f"interrupted: {done}; run the same import again to {then}") from None
    except core.DiskFull as exc:
        done, then = _how_far(advance, path)
        raise core.DiskFull(f"{exc.message}. {done}: once there is space, run the same import again to {then}") \
            from exc


@click.command()
@click.option("--include-deleted", is_flag=True, help="Also export forgotten memories.")
def export(include_deleted: bool) -> None:
    """Write every memory as JSON lines (the `import jsonl` format) to stdout.

    \b
    Example:
      mem.py export > all.jsonl && mem.py --db new.db import jsonl all.jsonl
    """
    n = 0
    for row in current_ctx().store().export(include_deleted=include_deleted):
        click.echo(json.dumps(row, ensure_ascii=False))
        n += 1
    click.echo(f"exported {n} memories", err=True)


# --------------------------------------------------------------------------- import

IMPORT_FORMATS = IMPORTERS  # importers/registry.py lists them once


@click.command("import", help=f"""Import chats, notes, contacts or JSON lines. Idempotent: re-imports add only what is new.

    FORMAT is one of {", ".join(IMPORT_FORMATS)}; without it the format is detected.

    \b
    Examples:
      mem.py import whatsapp "WhatsApp Chat with Ana.zip"
      mem.py import whatsapp ~/exports/          # every chat (.txt, .zip) in the folder
      mem.py import chatgpt ~/Downloads/chatgpt-export.zip
      mem.py import claude conversations.json
      mem.py import markdown ~/agent/workspace
      mem.py import vcf contacts.vcf
      mem.py import jsonl memories.jsonl
      mem.py import ~/Downloads/export.zip --dry-run
    """)
@click.argument("args", nargs=-1, required=True, metavar="[FORMAT] PATH")
@click.option("--dry-run", is_flag=True, help="Parse and report what would be added; write nothing.")
@click.option("--date-order", type=click.Choice(["dmy", "mdy", "ymd"]), help="WhatsApp: force the date order.")
@click.option("--all-branches", is_flag=True, help="ChatGPT, Claude: keep edited/regenerated branches too.")
@click.option("--include-tools", is_flag=True,
              help="ChatGPT/Claude: keep tool, browser and code-interpreter output (left out by default).")
@click.option("--thread", help="WhatsApp: name of the chat (default: from the file name).")
@click.option("--no-episodes", is_flag=True, help="Do not group chat messages into episodes.")
@click.option("--progress", "progress_mode", type=click.Choice(["auto", "json", "none"]), default="auto",
              show_default=True,
              help="auto: a bar with the total and an ETA on a terminal, nothing when piped; json: JSON lines "
                   "on stderr ({\"progress\", \"phase\", \"done\", \"total\", \"elapsed_s\", \"eta_s\"}: done/total count "
                   "the messages written, then grouped into episodes), for agents.")
def import_cmd(args: tuple[str, ...], dry_run: bool, date_order: str | None, all_branches: bool,
               include_tools: bool, thread: str | None,
               no_episodes: bool, progress_mode: str) -> None:
    """Import chats, notes, contacts or JSON lines (help: the decorator's, naming the formats)."""
    from memengine import ingest

    if len(args) == 2 and args[0] in IMPORT_FORMATS:
        fmt: str | None = args[0]
        target = args[1]
    elif len(args) == 1:
        fmt, target = None, args[0]
    else:
        raise click.UsageError(f"expected [FORMAT] PATH with FORMAT one of {', '.join(IMPORT_FORMATS)}")
    p = Path(target).expanduser()
    if fmt is None and p.is_dir():
        from importers.unwrap import unwrap

        p = unwrap(p)  # the folder an export was saved or unzipped into, holding only it: the export
    folder_fmt = None
    if (p.is_dir() and fmt is None) or (p.is_file() and fmt in (None, "whatsapp")):
        from memengine import ingest_mixed

        # a chat, contacts and notes side by side, or a chat zip carrying contact cards: each as what it is
        plan = ingest_mixed.mixed_plan(p) if p.is_dir() else ingest_mixed.zip_plan(p)
        if plan is not None:
            s = current_ctx().store(fast_start=False)
            with progress_bar(None, f"importing {p.name}", progress_mode) as advance, _said_if_cut_short(advance, p):
                summaries = ingest_mixed.import_mixed(s, *plan, dry_run=dry_run, episodes=not no_episodes,
                                                      progress=advance, set_total=advance.set_total,
                                                      add_total=advance.add_total, phase=advance.start_phase,
                                                      date_order=date_order,
                                                      all_branches=all_branches or None,
                                                      include_tools=include_tools or None, thread=thread)
            _emit_folder(p, "mixed", summaries, s, forced=False)
            return
    if p.is_dir():  # a folder of one-chat (WhatsApp) or one-contact (vCard) files: each is imported
        if fmt in ingest.FOLDER_SUFFIXES:
            folder_fmt = fmt
        elif fmt is None:
            try:  # what a folder was before (a ChatGPT/Claude export, markdown notes) comes first
                fmt = ingest.detect_format(p)
            except core.UserError:
                folder_fmt = ingest.detect_folder(p)
                if folder_fmt is None:
                    raise
    s = current_ctx().store(fast_start=False)
    if folder_fmt is not None:
        with progress_bar(None, f"importing {p.name}", progress_mode) as advance, _said_if_cut_short(advance, p):
            summaries = ingest.import_folder(s, p, folder_fmt, dry_run=dry_run, episodes=not no_episodes,
                                             progress=advance, set_total=advance.set_total,
                                             add_total=advance.add_total, phase=advance.start_phase,
                                             date_order=date_order, thread=thread)
        _emit_folder(p, folder_fmt, summaries, s, forced=fmt is not None)
        return
    with progress_bar(None, f"importing {p.name}", progress_mode) as advance, _said_if_cut_short(advance, p):
        summary = ingest.import_path(s, p, fmt, dry_run=dry_run, episodes=not no_episodes, progress=advance,
                                     set_total=advance.set_total, add_total=advance.add_total,
                                     phase=advance.start_phase, date_order=date_order, all_branches=all_branches or None,
                                     include_tools=include_tools or None, thread=thread)
    data = summary.to_dict()
    nothing = nothing_imported(str(p), summary.format, [summary], forced=fmt is not None)

    def human() -> None:
        click.echo(ingest.summary_line(summary))
        for w in summary.warnings[:20]:
            click.secho(f"  warning: {w}", fg="yellow", err=True)
        if len(summary.warnings) > 20:
            click.secho(f"  … {len(summary.warnings) - 20} more warnings (use --json to see all)", fg="yellow", err=True)
        if nothing:
            click.secho(nothing[1], fg="red", err=True)

    emit(data, human, [degraded_warning(summary.degraded, s.degraded_reason)], failed=nothing)
    if nothing:
        sys.exit(core.EXIT_CODES[NOTHING_TO_IMPORT])


def _emit_folder(folder: Path, fmt: str, summaries: list[Any], s: Any, forced: bool) -> None:
    """A folder import's result: each file's summary, and the totals (exit 13 when no file held a record)."""
    from memengine import ingest

    totals = {key: sum(getattr(x, key) for x in summaries)
              for key in ("messages_seen", "memories_added", "skipped_duplicates", "episodes")}
    data = {"folder": str(folder), "format": fmt, "files": [x.to_dict() for x in summaries], **totals,
            "dry_run": bool(summaries and summaries[0].dry_run)}
    warnings = [w if w.startswith(x.file) else f"{x.file}: {w}" for x in summaries for w in x.warnings]
    nothing = nothing_imported(str(folder), fmt, summaries, forced)

    def human() -> None:
        for x in summaries:
            click.echo(ingest.summary_line(x))
        verb = "would add" if data["dry_run"] else "added"
        files = f"{len(summaries)} {fmt} file{'' if len(summaries) == 1 else 's'}"
        click.echo(f"{folder}: {files} — {totals['messages_seen']} messages seen, "
                   f"{verb} {totals['memories_added']}, {totals['skipped_duplicates']} duplicates")
        for w in warnings[:20]:
            click.secho(f"  warning: {w}", fg="yellow", err=True)
        if len(warnings) > 20:
            click.secho(f"  … {len(warnings) - 20} more warnings (use --json to see all)", fg="yellow", err=True)
        if nothing:
            click.secho(nothing[1], fg="red", err=True)

    degraded = next((x.degraded for x in summaries if x.degraded), None)
    emit(data, human, [degraded_warning(degraded, s.degraded_reason)], failed=nothing)
    if nothing:
        sys.exit(core.EXIT_CODES[NOTHING_TO_IMPORT])
