"""A call's argv read without click's parser, for the warm servers' hot commands.

A warm recall costs ~12 ms in the engine; click's parsing of the group and the command
(contexts, the option parser, each parameter's ``handle_parse_result``) adds ~0.8 ms to every
handed-over call. :func:`parse` reads the simple forms an agent writes (``--json``, ``--db=X``,
a command, its argument, ``--option VALUE``, ``--flag``, repeated options) from the command's
own click parameters and converts each value with the parameter's click type, so the values
are exactly click's. Anything else (``--opt=value``, ``-k5``, ``--``, a value starting with
``-``, an unknown option, help, a value click would refuse) returns ``None`` and click parses
the call as before: its usage errors and messages stay click's.

:func:`invoke` runs the command in click contexts built as click builds them (the group's
callback, then the command's), so ``current_ctx()``, ``emit`` and the errors are the same.
"""

from __future__ import annotations

import os
from typing import Any

import click
import click.core

_UNSET = getattr(click.core, "UNSET", None)  # click >= 8.3 marks "no default" with a sentinel


def _missing(value: Any) -> bool:
    return value is None or value is _UNSET


def _simple(param: click.Parameter) -> bool:
    """Whether ``param`` is a form :func:`parse` reads exactly as click does."""
    if param.nargs != 1 or param.callback is not None or not param.expose_value or param.envvar:
        return False
    if isinstance(param, click.Argument):
        return param.required and not param.multiple
    if not isinstance(param, click.Option) or param.secondary_opts or param.count or param.prompt:
        return False
    if param.is_flag:  # a plain on/off flag: True when given, False when not
        return not param.multiple and param.flag_value in (_UNSET, True) and param.default in (_UNSET, None, False)
    return not callable(param.default)


def _convert(param: click.Parameter, value: Any) -> Any:
    return param.type.convert(value, param, None)


def parse_command(command: click.Command, args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments click would give ``command``'s callback for ``args``, or ``None``
    when ``args`` use a form this reader leaves to click (see the module docstring)."""
    params = command.params
    if not all(_simple(p) for p in params):
        return None
    options = {opt: p for p in params if isinstance(p, click.Option) for opt in p.opts}
    positional = [p for p in params if isinstance(p, click.Argument)]
    given: dict[str, list[str]] = {}
    free: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("-") and a != "-":
            p = options.get(a)
            if p is None or p.name is None:
                return None  # unknown, --opt=value, -k5, --, help: click's
            if getattr(p, "is_flag", False):
                given.setdefault(p.name, []).append("")
                i += 1
                continue
            if i + 1 >= len(args) or (args[i + 1].startswith("-") and args[i + 1] != "-"):
                return None
            given.setdefault(p.name, []).append(args[i + 1])
            i += 2
            continue
        free.append(a)
        i += 1
    if len(free) != len(positional):
        return None
    out: dict[str, Any] = {}
    try:
        for arg, value in zip(positional, free):
            out[str(arg.name)] = _convert(arg, value)
        for opt in params:
            if not isinstance(opt, click.Option) or opt.name is None:
                continue
            values = given.get(opt.name)
            if opt.is_flag:
                out[opt.name] = values is not None
            elif opt.multiple:
                out[opt.name] = tuple(_convert(opt, v) for v in values or ())
            elif values is not None:
                if len(values) > 1:
                    return None  # (click keeps the last one; rare enough to leave to it)
                out[opt.name] = _convert(opt, values[0])
            else:
                out[opt.name] = None if _missing(opt.default) else _convert(opt, opt.default)
    except click.BadParameter:
        return None  # click says what is wrong, in its words
    return out


def parse(group: click.Group, argv: list[str], commands: frozenset[str]) -> tuple[dict[str, Any], str, dict[str, Any]] | None:
    """``(the group's parameters, command name, its keyword arguments)`` for argv as
    ``mem.hoist_global_options`` leaves it (``--json`` first, then ``--db=X``, then the command),
    when the command is one of ``commands`` and every argument has a simple form; JSON output
    only (the group's ``--json``/``--plain`` pair is read here, not generically). Else ``None``."""
    i = 0
    json_out = False
    while i < len(argv) and argv[i] == "--json":
        json_out = True
        i += 1
    db: str | None = None
    if i < len(argv) and argv[i].startswith("--db="):
        db = argv[i][len("--db="):]
        i += 1
    if not json_out or i >= len(argv) or argv[i] not in commands:
        return None
    command = group.commands.get(argv[i])
    if command is None:
        return None
    kwargs = parse_command(command, argv[i + 1:])
    db_param = next((p for p in group.params if "--db" in p.opts), None)
    if kwargs is None or db_param is None:
        return None
    if db is None and isinstance(db_param.envvar, str):
        db = os.environ.get(db_param.envvar) or None  # (click reads an empty variable as unset too)
    try:
        db_value = None if db is None else _convert(db_param, db)
    except click.BadParameter:
        return None
    return {str(db_param.name): db_value, "as_json": True}, argv[i], kwargs


def invoke(group: click.Group, prog_name: str, group_params: dict[str, Any], name: str, kwargs: dict[str, Any]) -> None:
    """Run command ``name`` with ``kwargs`` as ``group.main`` would after parsing: the group's
    callback in its context, then the command's callback in a child context; contexts closed
    (their close callbacks run) on the way out, as click does."""
    command = group.commands[name]
    with click.Context(group, info_name=prog_name, **group.context_settings) as ctx:
        ctx.params = dict(group_params)
        ctx.invoked_subcommand = name
        click.Command.invoke(group, ctx)
        with click.Context(command, info_name=name, parent=ctx) as sub:
            sub.params = dict(kwargs)
            command.invoke(sub)
