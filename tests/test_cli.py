"""The command line as agents and people use it: exact envelopes, in process (``run_cli``), and
through a real process where the boundary is the point (``run_cli_subprocess``)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import click
import pytest
from conftest import run_cli, run_cli_subprocess


def envelope(proc) -> dict:
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stdout + proc.stderr
    return json.loads(lines[0])


def test_store_recall_get_forget_restore_round_trip() -> None:
    s = envelope(run_cli("store", "Oscar prefers morning meetings", "--type", "semantic", "--importance", "0.8"))
    assert s["ok"] is True and s["command"] == "store" and s["data"] == {"id": 1, "deduplicated": False, "supersedes": []}
    assert isinstance(s["took_ms"], float)
    envelope(run_cli("store", "To restart the gateway: openclaw gateway restart", "--type", "procedural"))
    piped = envelope(run_cli("store", "-", "--source", "agent", "--tag", "infra", input="long text\nabout infra\n"))
    assert piped["data"]["id"] == 3
    r = envelope(run_cli("recall", "gateway restart", "-k", "2", "--json"))
    assert r["data"]["results"][0]["id"] == 2
    assert r["data"]["results"][0]["memory_type"] == "procedural"
    assert set(r["data"]["results"][0]) >= {"id", "content", "score", "memory_type", "event_at", "ref", "tags"}
    g = envelope(run_cli("get", "3"))
    assert g["data"]["content"] == "long text\nabout infra" and g["data"]["tags"] == ["infra"]
    assert envelope(run_cli("forget", "3"))["data"] == {"id": 3, "status": "deleted"}
    assert envelope(run_cli("restore", "3"))["data"] == {"id": 3, "status": "active"}
    st = envelope(run_cli("stats"))["data"]
    assert st["memories"] == 3 and st["by_type"] == {"procedural": 1, "semantic": 2}


@pytest.mark.parametrize(("args", "code", "exit_code"), [
    (["get", "42"], "not_found", 3),
    (["forget", "42"], "not_found", 3),
    (["store", ""], "invalid_input", 1),
    (["recall", "x", "--strategy", "psychic"], "usage", 2),
    (["nonsense"], "usage", 2),
    (["recall", "NEAR(", "--raw"], "invalid_input", 1),
    (["store", "x", "--at", "the twelfth of never"], "invalid_input", 1),
    (["import", "jsonl", "/nonexistent/file.jsonl"], "invalid_input", 1),
])
def test_errors_are_one_envelope_with_documented_exit_codes(args, code, exit_code) -> None:
    proc = run_cli(*args)
    assert proc.returncode == exit_code, proc.stderr
    env = envelope(proc)
    assert env["ok"] is False and env["error"]["code"] == code and env["error"]["message"]
    assert "Traceback" not in proc.stderr


def test_plain_output_for_people_and_errors_on_stderr() -> None:
    run_cli("store", "Oscar prefers morning meetings")
    proc = run_cli("recall", "Oscar", "--plain")
    assert proc.returncode == 0 and "Oscar prefers morning meetings" in proc.stdout and "┃" in proc.stdout
    bad = run_cli("get", "9", "--plain")
    assert bad.returncode == 3 and bad.stdout == "" and bad.stderr.strip() == f"error: no memory with id 9 in {os.environ['MEM_DB']} (another store? --db or MEM_DB names it)"


MARKUP_TEXT = "Ana sent [shared image: a cat on a sofa], said [bold]hi[/bold] [/] and {braces}"


def test_people_see_memories_as_written_not_as_markup() -> None:
    run_cli("store", MARKUP_TEXT)
    run_cli("store", "first line\nsecond line\n    third line")
    wide = {"COLUMNS": "250"}
    table = run_cli("recall", "cat sofa line", "--plain", env=wide)
    assert table.returncode == 0, table.stderr
    assert MARKUP_TEXT in table.stdout  # rich would have eaten the brackets as style tags
    assert "first line second line third line" in table.stdout  # one line per cell
    shown = run_cli("get", "1", "--plain", env=wide)
    assert MARKUP_TEXT in shown.stdout
    run_cli("link", "1", "2", "--type", "explicit")
    tree = run_cli("graph", "1", "--plain", env=wide)
    assert tree.returncode == 0 and MARKUP_TEXT in tree.stdout, tree.stdout


def test_cell_is_one_escaped_clipped_line() -> None:
    import mem

    assert mem.cell("a  [b]\n c") == "a \\[b] c"
    assert mem.cell("x" * 10, 4) == "xxxx…"


def test_path_and_db_override(tmp_path) -> None:
    other = tmp_path / "elsewhere.db"
    assert envelope(run_cli("path", "--db", str(other)))["data"]["path"] == str(other)
    envelope(run_cli("--db", str(other), "store", "in the other file"))
    assert other.exists()
    assert envelope(run_cli("stats", "--db", str(other)))["data"]["memories"] == 1


def test_export_import_jsonl_round_trip(tmp_path) -> None:
    run_cli("store", "fact one", "--tag", "x")
    run_cli("store", "went hiking", "--type", "episodic", "--at", "2024-06-01T08:30")
    exported = run_cli("export").stdout
    assert len(exported.splitlines()) == 2
    f = tmp_path / "all.jsonl"
    f.write_text(exported)
    other = str(tmp_path / "new.db")
    first = envelope(run_cli("import", "jsonl", str(f), "--db", other))["data"]
    assert (first["memories_added"], first["skipped_duplicates"]) == (2, 0)
    again = envelope(run_cli("import", "jsonl", str(f), "--db", other))["data"]
    assert (again["memories_added"], again["skipped_duplicates"]) == (0, 2)
    # the same memories; each names, in its ref, the store and id it came from (serve13)
    mine = [json.loads(line) for line in exported.splitlines()]
    theirs = [json.loads(line) for line in run_cli("export", "--db", other).stdout.splitlines()]
    assert [{k: v for k, v in r.items() if k not in ("ref", "origin")} for r in theirs] == \
        [{k: v for k, v in r.items() if k not in ("ref", "origin")} for r in mine]
    assert [r["ref"] for r in theirs] == [f"hash:{r['ref'][5:]}@{r['origin']}" for r in mine]


def test_backup_is_a_working_copy(tmp_path) -> None:
    run_cli("store", "remember the milk")
    dest = tmp_path / "b.db"
    assert envelope(run_cli("backup", str(dest)))["data"]["path"] == str(dest)
    assert envelope(run_cli("recall", "milk", "--db", str(dest)))["data"]["count"] == 1
    again = run_cli("backup", str(dest))
    assert again.returncode == 1 and "already exists" in envelope(again)["error"]["message"]


def test_degraded_mode_is_reported_in_json() -> None:
    env = {"MEM_EMBEDDER": "none"}
    s = envelope(run_cli("store", "tea with lemon", env=env))
    assert s["data"]["degraded"] == "no-vectors" and "degraded mode" in s["warnings"][0]
    r = envelope(run_cli("recall", "tea", env=env))
    assert r["data"]["degraded"] == "no-vectors" and r["data"]["count"] == 1


def _all_commands() -> list[tuple[list[str], click.Command]]:
    """Every command and subcommand, the lazily loaded ones included, as (path, command)."""
    import mem

    def walk(group: click.Group, ctx: click.Context, prefix: list[str]) -> Iterator[tuple[list[str], click.Command]]:
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            assert cmd is not None, f"{' '.join([*prefix, name])} is listed but does not load"
            yield [*prefix, name], cmd
            if isinstance(cmd, click.Group):
                yield from walk(cmd, click.Context(cmd, parent=ctx, info_name=name), [*prefix, name])

    return list(walk(mem.cli, click.Context(mem.cli, info_name="mem.py"), []))


def test_every_command_has_help_with_examples() -> None:
    commands = _all_commands()
    assert {"store", "recall", "consolidate", "graph export", "share import"} <= {" ".join(p) for p, _ in commands}
    for path, cmd in commands:
        assert cmd.help and cmd.help.strip(), f"{' '.join(path)} has no help text"
        assert "Example" in cmd.help, f"{' '.join(path)} lacks help with examples"
        assert cmd.get_short_help_str().strip(), f"{' '.join(path)} has no short help for its group's listing"


def test_every_help_exits_zero() -> None:
    for path, _ in [([], None), *_all_commands()]:
        for flag in ("--help", "-h"):
            proc = run_cli(*path, flag)
            assert proc.returncode == 0, (path, proc.stdout, proc.stderr)
            assert proc.stdout.startswith(" ".join(["Usage: mem.py", *path]) + " "), (path, proc.stdout)
            assert proc.stderr == "", (path, proc.stderr)


def test_the_script_in_a_real_process() -> None:
    """What only a process shows: the script entry point, lazily loaded command modules run from
    it, stdin bytes decoded as UTF-8 through the OS pipe, the exit status, JSON on a pipe."""
    piped = run_cli_subprocess("store", "-", "--tag", "café", input="Zoë’s café opens at 8\n")
    assert envelope(piped)["data"] == {"id": 1, "deduplicated": False, "supersedes": []}, piped.stderr
    got = envelope(run_cli_subprocess("get", "1"))["data"]
    assert (got["content"], got["tags"]) == ("Zoë’s café opens at 8", ["café"])
    missing = run_cli_subprocess("graph", "7")  # a lazily loaded command module, run from the script
    assert missing.returncode == 3 and envelope(missing)["error"]["code"] == "not_found", missing.stderr
    for cmd in ("consolidate", "share", "graph"):
        shown = run_cli_subprocess(cmd, "--help")
        assert shown.returncode == 0 and shown.stdout.startswith(f"Usage: mem.py {cmd} "), shown.stderr


def test_cli_doors_are_one_way() -> None:
    """mem.py imports memengine.cli; the command modules import memengine.cli.common, never ``mem``;
    no engine module imports memengine.cli (imports at any depth, function-level ones too)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]

    def imported(path: Path) -> set[str]:
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        return names

    cli_modules = sorted((root / "memengine" / "cli").glob("*.py"))
    assert {p.stem for p in cli_modules} >= {"__init__", "common", "consolidate", "graph", "share"}
    for p in cli_modules:
        assert not {n for n in imported(p) if n == "mem" or n.startswith("mem.")}, f"{p.name} imports mem"
    for p in (root / "memengine").rglob("*.py"):
        if "cli" in p.relative_to(root / "memengine").parts[:-1]:
            continue
        assert not {n for n in imported(p) if n.startswith("memengine.cli")}, f"{p} imports memengine.cli"
    assert "memengine.cli.common" in imported(root / "memcli.py")  # (mem.py: the entry point only)


def test_in_process_runs_equal_real_processes(tmp_path) -> None:
    """run_cli's contract: the same exit status, stdout and stderr as ``python mem.py`` (timings and
    clock times aside)."""
    import re

    calls = [
        (["store", "Ana's [bold]tea[/bold] at 8", "--tag", "café"], None),
        (["store", "-", "--type", "procedural"], "restart the gateway\nthen check logs\n"),
        (["recall", "tea gateway", "--plain"], None),
        (["recall", "tea", "--strategy", "activation", "--summaries", "--explain"], None),
        (["get", "2", "--plain"], None),
        (["get", "99"], None),
        (["get", "99", "--plain"], None),
        (["nonsense"], None),
        (["recall", "x", "--strategy", "psychic", "--plain"], None),
        (["graph", "--help"], None),
        (["--db", str(tmp_path / "missing" / "x.db"), "stats"], None),
    ]
    took = re.compile(r'"took_ms": [0-9.]+|\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?')
    for side, run in (("a", run_cli), ("b", run_cli_subprocess)):
        env = {"MEM_DB": str(tmp_path / f"{side}.db"), "COLUMNS": "120"}
        outs = [run(*args, input=stdin, env=env) for args, stdin in calls]
        if side == "a":
            first = outs
            continue
        for (args, _), one, two in zip(calls, first, outs):
            # (a not-found error names its file: each side's own, users32)
            one_out, two_out = (p.stdout.replace(f"{s}.db", "X.db") for p, s in ((one, "a"), (two, "b")))
            one_err, two_err = (p.stderr.replace(f"{s}.db", "X.db") for p, s in ((one, "a"), (two, "b")))
            assert (one.returncode, took.sub("", one_out), one_err) == \
                   (two.returncode, took.sub("", two_out), two_err), args
