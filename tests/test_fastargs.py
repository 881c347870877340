"""The warm servers' argv reader (memengine/cli/fastargs.py) against click's own parsing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
import pytest

import mem
from memengine.cli import fastargs

SIMPLE = [
    ("recall", ["Oscar meetings"]),
    ("recall", ["Oscar meetings", "-k", "3", "--no-touch"]),
    ("recall", ["deploy", "--strategy", "keyword", "--type", "procedural", "--type", "semantic", "--tag", "infra",
                "--source", "agent", "--since", "2024-01-01", "--until", "last week", "--explain", "--context",
                "--include-archived", "--raw", "--shared", "--summaries", "--history", "--as-of", "2025-01-01"]),
    ("recall", ["--no-touch", "-k", "1000", "x y z"]),
    ("recall", ["-"]),
    ("get", ["42"]),
    ("get", ["0"]),
    ("stats", []),
    ("store", ["Oscar prefers morning meetings", "--type", "semantic", "--importance", "0.8"]),
    ("store", ["-", "--tag", "a", "--tag", "b", "--at", "yesterday", "--ref", "r1", "--thread", "t", "--author", "Ana",
               "--meta", '{"k": 1}', "--pin", "--truncate", "--no-dedup", "--link", "3", "--link", "4",
               "--link-type", "causal", "--link-weight", "0.25", "--supersede", "7", "--source", "agent"]),
]

LEFT_TO_CLICK = [
    ("recall", ["q", "-k5"]),  # a clustered short option
    ("recall", ["q", "--strategy=keyword"]),  # --opt=value
    ("recall", ["q", "-k", "0"]),  # out of range: click's message
    ("recall", ["q", "-k", "many"]),  # not a number
    ("recall", ["q", "--type", "nonsense"]),  # not a choice
    ("recall", ["q", "-k", "-3"]),  # a value that looks like an option
    ("recall", ["q", "-k", "3", "-k", "4"]),  # repeated single option
    ("recall", ["q", "--", "-x"]),
    ("recall", ["q", "--help"]),
    ("recall", ["q", "--bogus"]),
    ("recall", []),  # missing argument
    ("recall", ["a", "b"]),  # extra argument
    ("recall", ["q", "-k"]),  # option without its value
    ("get", ["99999999999999999999"]),  # beyond 64 bits
    ("get", ["-1"]),
]


def _click_params(name: str, args: list[str]) -> dict:
    command = mem.cli.commands[name]
    with command.make_context(name, list(args)) as ctx:
        return dict(ctx.params)


@pytest.mark.parametrize(("name", "args"), SIMPLE)
def test_simple_forms_read_as_click_reads_them(name: str, args: list[str]) -> None:
    got = fastargs.parse_command(mem.cli.commands[name], args)
    assert got is not None
    want = _click_params(name, args)
    assert got == want
    assert [type(v) for v in got.values()] == [type(want[k]) for k in got]


@pytest.mark.parametrize(("name", "args"), LEFT_TO_CLICK)
def test_other_forms_are_left_to_click(name: str, args: list[str]) -> None:
    assert fastargs.parse_command(mem.cli.commands[name], args) is None


def test_group_options_and_commands_taken_by_the_fast_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "m.db")
    fast = frozenset({"recall"})
    monkeypatch.delenv("MEM_DB", raising=False)
    assert fastargs.parse(mem.cli, ["--json", f"--db={db}", "recall", "q"], fast) == (
        {"db": db, "as_json": True}, "recall", _click_params("recall", ["q"]))
    assert fastargs.parse(mem.cli, ["--json", "recall", "q"], fast)[0] == {"db": None, "as_json": True}
    monkeypatch.setenv("MEM_DB", db)  # the group's envvar, as click reads it
    assert fastargs.parse(mem.cli, ["--json", "recall", "q"], fast)[0] == {"db": db, "as_json": True}
    assert fastargs.parse(mem.cli, ["recall", "q"], fast) is None  # no --json: output mode decided by click
    assert fastargs.parse(mem.cli, ["--json", "get", "1"], fast) is None  # not a fast command here
    assert fastargs.parse(mem.cli, ["--json", "--plain", "recall", "q"], fast) is None
    assert fastargs.parse(mem.cli, ["--json", f"--db={tmp_path}", "recall", "q"], fast) is None  # a folder: click says so


def _run(argv: list[str], fast: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple:
    monkeypatch.setattr(mem, "FAST_COMMANDS", mem.FAST_COMMANDS if fast else frozenset())
    code = 0
    try:
        mem.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    out, err = capsys.readouterr()
    env = json.loads(out) if out.strip() else None
    if env is not None:
        env.pop("took_ms", None)
        _no_clock(env)
    return code, env, err


CLOCK = {"created_at", "last_accessed_at", "updated_at", "valid_from"}  # now, to the second: may tick between runs


def _no_clock(value: object) -> None:
    if isinstance(value, dict):
        for k in CLOCK & value.keys():
            value[k] = "now"
        for v in value.values():
            _no_clock(v)
    elif isinstance(value, list):
        for v in value:
            _no_clock(v)


def test_the_fast_path_prints_what_click_s_path_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    fast_db, slow_db = str(tmp_path / "fast.db"), str(tmp_path / "slow.db")
    monkeypatch.delenv("MEM_DB", raising=False)
    calls = [
        ["store", "Oscar prefers morning meetings", "--type", "semantic", "--tag", "people", "--json"],
        ["store", "Flew to Rome for the offsite", "--type", "episodic", "--at", "2024-05-02", "--json"],
        ["store", "Oscar prefers morning meetings", "--json"],  # deduplicated
        ["recall", "Oscar meetings", "--no-touch", "-k", "2", "--json"],
        ["recall", "Rome", "--explain", "--json"],
        ["recall", "Rome", "--type", "episodic", "--since", "2024-01-01", "--json"],
        ["get", "2", "--json"],
        ["get", "99", "--json"],  # not found: the error envelope and exit code
        ["recall", "x", "--since", "5", "--json"],  # a bad date: the engine's one-line error
        ["stats", "--json"],
    ]
    for argv in calls:
        a = _run(["--db", fast_db, *argv], True, monkeypatch, capsys)
        b = _run(["--db", slow_db, *argv], False, monkeypatch, capsys)
        if a[1] is not None and argv[0] == "stats":
            for env in (a[1], b[1]):
                env["data"].pop("path"), env["data"].pop("size_bytes")
        for env, db in ((a[1], fast_db), (b[1], slow_db)):  # a not-found error names its file (users32)
            if env is not None and not env["ok"]:
                env["error"]["message"] = env["error"]["message"].replace(db, "DB")
        assert a == b, argv
    assert os.path.exists(fast_db)


def test_main_takes_the_fast_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    def no_click(*args: object, **kwargs: object) -> None:
        raise AssertionError("click's parser ran")

    monkeypatch.setattr(click.Group, "main", no_click)
    code, env, _ = _run(["--db", str(tmp_path / "m.db"), "recall", "anything", "--json"], True, monkeypatch, capsys)
    assert code == 0 and env is not None and env["ok"] is True and env["command"] == "recall"
