"""What every CLI command shares: the invocation context, output (JSON envelope or rich for
people), text cells, progress, date options, and the lazily loading command group.

``mem.py`` (the entry point) and the command modules of this package import it; it imports
neither of them, so the command modules never import ``mem``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from memengine.db import default_db_path
from memengine.errors import UserError
from memengine.store import MemoryStore

# an id argument: SQLite integers are 64-bit, so a larger number is a usage error, not an OverflowError
ROW_ID = click.IntRange(0, 2 ** 63 - 1)


class TopicId(click.ParamType):
    """A topic (cluster) id as `brief` and MEMORY.md show it, ``T12`` (``T12.2``: its part 2), or the bare number."""

    name = "TOPIC"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        text = str(value).strip()
        digits = text[1:] if text[:1] in ("T", "t") else text
        if "." in digits and digits.split(".", 1)[1].isdigit():  # T12.2: a part of topic 12, as brief shows it
            digits = digits.split(".", 1)[0]
        if not digits.isdigit() or int(digits) > 2 ** 63 - 1:
            self.fail(f"{value!r} is not a topic id (like T12 or 12); memories are #ID, read with `mem.py get ID`",
                      param, ctx)
        return int(digits)


class Ctx:
    """Per-invocation settings shared by every command."""

    def __init__(self, db: str | None, as_json: bool | None) -> None:
        self.db = Path(db).expanduser() if db else None
        # Agents call us through exec with a pipe: JSON is the default when stdout is not a terminal.
        self.json = as_json if as_json is not None else not sys.stdout.isatty()
        self.started = time.perf_counter()
        self._store: MemoryStore | None = None

    # In `mem serve` / `mem mcp`: the store opened once and warmed, used by every call (never closed by one),
    # and how the server runs its calls (memengine.serving.Calls: a recall's reinforcement after its reply).
    warm_store: MemoryStore | None = None
    serving: Any = None

    def store(self, fast_start: bool = True) -> MemoryStore:
        """Open the memory file (once per invocation).

        The default file's folder is created on first use (what a new user expects); an
        explicit ``--db`` under a missing folder is more likely a typo than a wish for a new
        store there, so it is refused with one line.
        """
        if Ctx.serving is not None and Ctx.serving.refused is not None:
            # (the file changed under the server: memengine/storewatch.py; each raise starts a new traceback)
            raise Ctx.serving.refused.with_traceback(None)
        if Ctx.warm_store is not None:
            return Ctx.warm_store
        if self._store is None:
            if self.db is not None and not self.db.parent.exists():
                raise UserError(f"{self.db}: folder {self.db.parent} does not exist (create it, or check --db)")
            self._store = MemoryStore(self.db, fast_start=fast_start)
        return self._store

    def close(self) -> None:
        """Close the memory file if this invocation opened it (also when the command failed)."""
        if self._store is not None:
            self._store.close()
            self._store = None

    @property
    def path(self) -> Path:
        """The memory file this invocation uses."""
        return self.db or default_db_path()


_ENTRY: list[Callable[[list[str]], None]] = []  # the CLI's entry (memcli.main), registered when it loads


def set_entry(main: Callable[[list[str]], None]) -> None:
    """Register the CLI's entry point (memcli does, as it loads): what a server runs a call through."""
    _ENTRY[:] = [main]


def entry() -> Callable[[list[str]], None]:
    """The CLI's entry point, as one-shot calls run it (memcli.main; loaded if nothing has loaded it yet:
    a server started from Python rather than from ``mem.py``)."""
    if not _ENTRY:
        importlib.import_module("memcli")  # (it registers itself: this room never names the one above)
    return _ENTRY[0]


def current_ctx() -> Ctx:
    """The running invocation's :class:`Ctx`."""
    return click.get_current_context().find_object(Ctx)  # type: ignore[return-value]


def _command_name() -> str:
    ctx = click.get_current_context(silent=True)
    return ctx.command_path.split(" ", 1)[1] if ctx and " " in ctx.command_path else "mem"


def emit(data: Any, human: Callable[[], None] | None = None, warnings: Sequence[str | None] | None = None,
         failed: tuple[str, str] | None = None) -> None:
    """Write the result: the JSON envelope for agents, or ``human()`` output for people.

    ``failed`` (code, message): a report that is itself the answer to a failure (``doctor`` on a damaged file):
    the envelope says ``"ok": false`` with that ``error`` as every failure does, and still carries ``data``
    (users26: ``"ok": true`` beside exit 8 misled an agent testing ``ok``); the caller exits non-zero."""
    c = current_ctx()
    warnings = [w for w in (warnings or []) if w]
    if c.json:
        env: dict[str, Any] = {
            "ok": failed is None,
            "command": _command_name(),
            "took_ms": round((time.perf_counter() - c.started) * 1000, 1),
        }
        if failed is not None:
            env["error"] = {"code": failed[0], "message": failed[1]}
        env["data"] = data
        if warnings:
            env["warnings"] = warnings
        click.echo(json.dumps(env, ensure_ascii=False, default=str))
    else:
        for w in warnings:
            click.secho(f"warning: {w}", fg="yellow", err=True)
        if human is not None:
            human()
        else:
            click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def console(stderr: bool = False) -> Any:
    """A rich console (imported lazily: agents never pay for it)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` on one line (runs of whitespace, newlines included, become one space), at
    most ``limit`` characters (then "…")."""
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    return text


def cell(text: str, limit: int | None = None) -> str:
    """User text for a rich table or tree: :func:`one_line`, and markup-escaped, so a memory
    that says "[shared image: ...]" or "[bold]" is shown as written, not eaten as style tags."""
    from rich.markup import escape

    return escape(one_line(text, limit))


def author_warnings(conn: Any, authors: Sequence[str]) -> list[str]:
    """(An empty answer under ``--author``.) One warning per name no memory was written by: a typo, or notes stored
    without ``--author``, are not "nothing about it"."""
    from memengine.author_filter import unknown

    return [f"--author {name!r}: no memory here was written by {name!r} (authors come from imported chats and mail, "
            "and from `store --author`)" for name in unknown(conn, authors)]


def degraded_warning(reason: str | None, why: str | None) -> str | None:
    """The loud line every output carries when vectors are unavailable."""
    if not reason:
        return None
    return f"degraded mode ({reason}): keyword search only — {why or 'embedding model unavailable'}; run `mem.py reindex` once it loads"


class Advance:
    """What a progress display hands its job: call it with how many items were done; ``set_total`` once the
    job knows how many there are (an import counts its messages in its first pass, before writing).

    A job in phases (an import writes its messages, then groups them into episodes) says ``phase(name)`` when
    one starts and counts its steps too: the display's done/total cover every phase, so it reaches its end
    when the command does (users31: an import said done, eta 0, then grouped episodes ~19 % longer, silent).
    ``done`` / ``total`` here stay the messages written / to write (what an interrupted import reports)."""

    def __init__(self, step: Callable[[int], None], total: Callable[[int], None],
                 phase: Callable[[str], None] | None = None, add: Callable[[int], None] | None = None) -> None:
        self._step, self._total = step, total
        self._phase, self._add = phase, add
        self.done = 0  # what a job cut short says it got through
        self.total: int | None = None
        self.phase = "messages"

    def __call__(self, n: int) -> None:
        if self.phase == "messages":
            self.done += n
        self._step(n)

    def set_total(self, total: int, later: int = 0) -> None:
        """The number of items the job will report (the bar's N, the JSON lines' ``total``); ``later``: the
        steps of the phases after this one, as far as known now (``add_total`` corrects them)."""
        self.total = total
        self._total(total + later)

    def add_total(self, delta: int) -> None:
        """A later phase turned out ``delta`` steps longer (or shorter) than ``set_total`` guessed."""
        if self._add is not None:
            self._add(delta)

    def start_phase(self, name: str) -> None:
        """The job moves on to its phase ``name`` (its steps keep counting toward the same total)."""
        if name == self.phase:
            return
        self.phase = name
        if self._phase is not None:
            self._phase(name)


class JsonProgress:
    """Progress as JSON lines on stderr, for an agent following a long job (``--progress json``): one line
    per percent of the total (every 1,000 items while it is unknown), one when a phase starts and one at the
    end, each ``{"progress": LABEL, "phase": P, "done": n, "total": N or null, "elapsed_s": s, "eta_s": s or
    null}``. ``done`` / ``total`` count the steps of every phase: the last line (``done == total``, eta 0)
    comes when the job ends, not when its first phase does."""

    def __init__(self, label: str) -> None:
        self.label, self.done, self._done_at_total = label, 0, 0
        self.total: int | None = None
        self.phase = "messages"
        self._t0 = self._t_total = time.monotonic()
        self._next = 1000
        self._said: tuple[str, int, int | None] | None = None  # (phase, done, total) of the last line written

    def set_total(self, total: int) -> None:
        self.total, self._t_total, self._done_at_total = total, time.monotonic(), self.done
        self._next = self.done + max(1, total // 100)
        self._line()

    def add_total(self, delta: int) -> None:
        """The total corrected mid-job; the rate the ETA uses keeps its start."""
        if self.total is not None:
            self.total = max(self.done, self.total + delta)

    def set_phase(self, name: str) -> None:
        if name != self.phase:
            self.phase = name
            self._line()

    def advance(self, n: int) -> None:
        self.done += n
        if self.done >= self._next or (self.total is not None and self.done >= self.total):
            self._line()
            step = max(1, self.total // 100) if self.total else 1000
            self._next = self.done + step

    def finish(self) -> None:
        """The job ended: its last line says so (done == total, eta 0), whatever the steps counted."""
        if self.total is not None:
            self.total = self.done
        if self._said != (self.phase, self.done, self.total):
            self._line()

    def _line(self) -> None:
        elapsed = time.monotonic() - self._t0
        eta = None
        done = self.done - self._done_at_total
        if self.total is not None and done > 0:  # the rate since the count was known (pass 1 only parses)
            eta = round((time.monotonic() - self._t_total) / done * max(0, self.total - self.done), 1)
        self._said = (self.phase, self.done, self.total)
        sys.stderr.write(json.dumps({"progress": self.label, "phase": self.phase, "done": self.done,
                                     "total": self.total, "elapsed_s": round(elapsed, 1), "eta_s": eta},
                                    ensure_ascii=False) + "\n")
        sys.stderr.flush()


PHASE_WORDS = {"messages": "", "episodes": " (grouping episodes)"}  # what the bar's label adds in each phase


@contextmanager
def progress_bar(total: int | None, label: str, mode: str = "auto") -> Iterator[Advance]:
    """A progress bar on stderr for people; silent for agents and pipes unless ``mode`` is ``json``
    (JSON lines, :class:`JsonProgress`); ``none``: silent everywhere."""
    if mode == "json":
        jp = JsonProgress(label)
        if total is not None:
            jp.set_total(total)
        yield Advance(jp.advance, jp.set_total, jp.set_phase, jp.add_total)
        jp.finish()  # not on an error: a job cut short does not say it ended
        return
    if mode == "none" or current_ctx().json or not sys.stderr.isatty():
        yield Advance(lambda n: None, lambda n: None)
        return
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console(stderr=True), transient=True) as prog:
        # the description is read as markup: "Chat [2024] {old}.txt" must show as named
        task = prog.add_task(escape(label), total=total)

        def add(delta: int) -> None:
            now = prog.tasks[0].total
            if now is not None:
                prog.update(task, total=max(prog.tasks[0].completed, now + delta))

        yield Advance(lambda n: prog.advance(task, n), lambda n: prog.update(task, total=n),
                      lambda name: prog.update(task, description=escape(label + PHASE_WORDS.get(name, f" ({name})"))),
                      add)


def parse_date(value: str | None, field: str) -> Any:
    """A CLI date option (ISO or a phrase) as a datetime, or a one-line error naming ``field``."""
    if value is None:
        return None
    import re

    from memengine import timeparse  # lazily: dateparser costs ~120 ms of every cold start

    # a bare number reads as a month or a day of this year ("-5" became May 25th): refuse it
    if re.fullmatch(r"\s*[+-]?\d{1,3}\s*|\s*[+-]?\d{5,}\s*", value):
        raise UserError(f"{field}: {value!r} is a bare number, not a date (write '5 days ago', a year like "
                        "2024, or an ISO date like 2024-03-12)")
    from memengine.cli import dates  # a named period read as one (``--until`` its end), local time read as UTC

    try:
        return dates.parse(value, field)
    except timeparse.DateParseError as exc:
        raise UserError(f"{field}: {exc}") from exc
    except (OverflowError, ValueError) as exc:  # "99999999999 days ago": beyond any calendar
        raise UserError(f"{field}: {value!r} is out of the calendar's range") from exc


def at_kind(value: str | None) -> str | None:
    """What ``--at value`` (already read by :func:`parse_date`) stores: ``day`` for a bare day, ``utc`` for a moment
    (memengine/timekind.py); None without ``--at``."""
    if value is None:
        return None
    from memengine.cli import dates

    return dates.at_kind(value)


class LazyGroup(click.Group):
    """A click group whose extra commands are imported on first use.

    ``lazy_commands`` maps a command name to ``"module:attribute"``; the module is imported
    only when that command is invoked (or listed in help), so a cold ``store``/``recall``
    never pays for the others.
    """

    def __init__(self, *args: Any, lazy_commands: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | {n for n in self.lazy_commands if self._available(n)})

    def _available(self, name: str) -> bool:
        return importlib.util.find_spec(self.lazy_commands[name].split(":")[0]) is not None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None or cmd_name not in self.lazy_commands or not self._available(cmd_name):
            return cmd
        module, attr = self.lazy_commands[cmd_name].split(":")
        return getattr(importlib.import_module(module), attr)
