"""What SKILL.md and README.md tell an agent, run as written (docs1).

An agent copies SKILL.md's examples verbatim, so every ``mem.py ...`` command it shows (inline or
fenced) is extracted from the markdown and run as a real subprocess against a fresh store, in the
order the document gives them; so are the commands of README's "Using it" section up to "Where
things live" (the usage block, backups, restore). Each must exit as documented (no ``usage`` error:
an option or command the CLI does not have) with the one-line JSON envelope; the outputs the docs
show are compared key by key, exactly where the doc is exact (ids, flags, lists). Every ``--option``
either document names must exist on some command, and the exit codes both list must be the code's.

The fake embedder runs where the outcome does not depend on the model; the two examples whose outcome
is the model's decision (a superseded fact, a recall's result) run with the real model.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import memory_core as core

REPO = Path(__file__).resolve().parent.parent
SKILL = (REPO / "SKILL.md").read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")
MEM = f"{sys.executable} {REPO / 'mem.py'}"

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`((?:echo \"[^\"`]*\" \| )?mem\.py [^`]+)`")


def _fenced(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced block, in order."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(text)]


def skill_commands() -> list[str]:
    """Every ``mem.py`` command SKILL.md shows, in document order: inline code spans and the lines of
    fenced blocks that start with ``mem.py`` (a block's other lines are output)."""
    found: list[tuple[int, str]] = []
    fences = [(m.start(), m.end()) for m in FENCE.finditer(SKILL)]
    for m in FENCE.finditer(SKILL):
        at = m.start()
        for line in m.group(2).splitlines():
            if line.startswith("mem.py "):
                found.append((at, line.strip()))
                at += 1
    for m in INLINE.finditer(SKILL):
        if not any(a <= m.start() < b for a, b in fences):
            found.append((m.start(), m.group(1).strip()))
    return [cmd for _, cmd in sorted(found)]


def readme_usage_commands() -> list[str]:
    """The commands of README's usage blocks ("Using it" up to "Where things live"), one per ``;``-separated
    part, comments cut, ``[--opt ARG]`` (optional) given, ``python3 mem.py`` as ``mem.py``."""
    section = README[README.index("## Using it"):README.index("## Where things live")]
    out: list[str] = []
    for info, body in _fenced(section):
        if info != "sh":
            continue
        for line in body.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            for part in line.split(" ; "):
                part = part.strip().replace("python3 mem.py ", "mem.py ")
                if part.startswith("mem.py "):
                    out.append(re.sub(r"\[(--[^\]]+)\]", r"\1", part))
    return out


def _env(home: Path, db: Path, real: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEM_")}
    env.update(MEM_DB=str(db), MEM_NO_SERVER="1", XDG_CACHE_HOME=str(home / "cache"),
               XDG_DATA_HOME=str(home / "data"), TEXT="a long note\nwith two lines")
    if not real:
        env["MEM_EMBEDDER"] = "hash"
    return env


def _run(cmd: str, env: dict[str, str], cwd: Path) -> tuple[int, dict[str, Any] | None, str]:
    """Run one documented command line through bash (pipes, ``$(...)`` and ``>`` as written), ``mem.py`` as
    this checkout's; returns the exit status, the JSON envelope on stdout (None when stdout is redirected or
    not JSON) and stderr."""
    line = re.sub(r"(^|\| )mem\.py ", lambda m: m.group(1) + MEM + " ", cmd)
    proc = subprocess.run(["bash", "-c", line], capture_output=True, text=True, env=env, cwd=str(cwd), timeout=300)
    out = proc.stdout.strip()
    env_json: dict[str, Any] | None = None
    if out.startswith("{") and "\n" not in out:
        env_json = json.loads(out)
    return proc.returncode, env_json, proc.stderr


def _run_checked(cmd: str, env: dict[str, str], cwd: Path, expect: tuple[int, ...] = (0,)) -> dict[str, Any] | None:
    """Run a documented command and check what it must give: ``--help`` its usage, ``> FILE`` a file, else the
    envelope with an exit status in ``expect``."""
    status, envelope, err = _run(cmd, env, cwd)
    if cmd.endswith("--help"):
        assert status == 0 and envelope is None, (cmd, status, err[-2000:])
        return None
    if " > " in cmd:
        target = cwd / cmd.rsplit(" > ", 1)[1].strip()
        assert status == 0 and target.stat().st_size > 0, (cmd, status, err[-2000:])
        return None
    _check_envelope(cmd, status, envelope, err, expect=status if status in expect else expect[0])
    return envelope


def _check_envelope(cmd: str, status: int, envelope: dict[str, Any] | None, err: str, expect: int = 0) -> None:
    assert envelope is not None, (cmd, status, err[-2000:])
    if status == 0:
        assert envelope["ok"] is True and envelope["command"].split()[0] == cmd.split("mem.py ", 1)[1].split()[0], (cmd, envelope)
        assert isinstance(envelope["took_ms"], float) and isinstance(envelope["data"], dict), cmd
    else:
        assert envelope["ok"] is False and set(envelope) == {"ok", "command", "error"}, (cmd, envelope)
        assert set(envelope["error"]) == {"code", "message"}, (cmd, envelope)
        assert core.EXIT_CODES[envelope["error"]["code"]] == status, (cmd, envelope)
    assert status == expect, (cmd, status, envelope, err[-2000:])


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A home folder and a store of 131 memories (so every id the docs name, up to #123, exists), #12 and #131
    in contradiction 1."""
    db = tmp_path / "memory.db"
    store = core.MemoryStore(str(db))
    try:
        for i in range(1, 131):
            text = f"filler note {i}: the rack {i} in room {i % 7} holds server s{i}"
            store.store("The deploy window is Friday 5pm" if i == 12 else text, "semantic", source="alice")
        # contradiction 1, between #12 and #131 (SKILL.md: `contradictions --resolve 1 --keep 12`)
        assert store.store("The deploy window is Thursday 5pm", "semantic", source="bob").contradicts == [12]
    finally:
        store.close()
    yield tmp_path, db


# --------------------------------------------------------------------------- SKILL.md, every command

SKILL_PLACEHOLDERS = {"ID": "5", "PATH": "notes.md", "NEW.db": "recovered.db"}


def _keys(data: dict[str, Any], path: str) -> set[str]:
    """The keys at ``path`` ("a.b[]" = every item of the list ``a.b``) of a command's ``data``."""
    node: Any = data
    for part in path.split("."):
        many = part.endswith("[]")
        node = node[part.removesuffix("[]")]
        if many:
            assert node, path
            node = node[0]
    return set(node)


# The JSON SKILL.md names, by the command it names it for (as written there): where it is, what it holds.
SKILL_KEYS: dict[str, list[tuple[str, set[str]]]] = {
    'mem.py recall "when does Oscar like to meet?" -k 5': [("results[]", {"id", "content", "weak", "score"})],
    "mem.py contradictions": [("contradictions[]", {"id", "memory_a", "memory_b"})],
    "mem.py brief --budget 1500": [("sections", {"upcoming"})],
    'mem.py recall "QUERY" --context': [("results[].context", {"cluster", "episode", "siblings", "links"})],
    "mem.py get 3": [("", {"superseded_by", "supersedes"})],  # (`versions` with a chain: the real-model test)
    "mem.py backup": [("", {"path", "kept", "deleted"})],
    "mem.py doctor": [("", {"last_backup", "notes"})],
    "mem.py restore --list": [("backups[]", {"name", "kind", "time", "size_bytes", "memories", "active"})],
    "mem.py restore NAME --dry-run": [("", {"memories_before", "memories_after"})],
    "mem.py restore NAME": [("", {"previous_kept_in"})],
}


def test_skill_md_commands_are_extracted() -> None:
    cmds = skill_commands()
    assert len(cmds) >= 30, cmds
    for must in ('mem.py store "The wifi password at the office is tiger-43"',
                 'mem.py recall "when does Oscar like to meet?" -k 5', "mem.py brief --budget 1500",
                 "mem.py restore --list", 'echo "$TEXT" | mem.py store - --source agent --tag notes'):
        assert must in cmds, must


def test_every_skill_md_command_runs_as_written(filled: tuple[Path, Path]) -> None:
    home, db = filled
    env = _env(home, db, real=False)
    (home / "notes.md").write_text("# Deploys\n\nDeploys go out on Tuesdays after the standup.\n", encoding="utf-8")
    ran: list[str] = []
    checked: set[str] = set()
    for cmd in skill_commands():
        doc_cmd = cmd
        if cmd.endswith("&"):  # `mem.py serve &`: a server (tests/test_handoff*.py)
            continue
        cmd = " ".join(SKILL_PLACEHOLDERS.get(w, w) for w in cmd.split(" "))
        cmd = cmd.replace("recall ... --shared", 'recall "deploy steps" --shared')
        if " NAME" in cmd:  # a backup's name: the newest `restore --list` shows
            _, listed, _ = _run("mem.py restore --list", env, home)
            assert listed is not None
            cmd = cmd.replace(" NAME", " " + listed["data"]["backups"][0]["name"])
        # a topic id: the doc's T12 exists once consolidate made twelve topics, else not_found
        envelope = _run_checked(cmd, env, home, expect=(0, 3) if cmd.startswith("mem.py browse T") else (0,))
        for where, keys in SKILL_KEYS.get(doc_cmd, []):
            assert envelope is not None
            data = envelope["data"]
            assert keys <= (set(data) if not where else _keys(data, where)), (doc_cmd, where, keys, data)
            checked.add(doc_cmd)
        if " --recover " in cmd:
            (home / "recovered.db").unlink()
        ran.append(cmd)
    assert any(c.startswith("mem.py restore memory") for c in ran), ran
    assert checked == set(SKILL_KEYS), set(SKILL_KEYS) - checked


def test_skill_md_json_outputs_with_the_real_model(tmp_path: Path) -> None:
    """The two outputs SKILL.md shows: a new value superseding #3 (the model's decision) and a recall's result."""
    blocks = [body for _, body in _fenced(SKILL)]
    store_block = next(b for b in blocks if "tiger-43" in b)
    cmd, shown = [line for line in store_block.splitlines() if line.strip()]
    db = tmp_path / "memory.db"
    env = _env(tmp_path, db, real=True)
    for text in ("Oscar prefers morning meetings", "The standup is at 9:30 on Mondays",
                 "The wifi password at the office is tiger-42", "Ana's phone number is +33 6 12 34 56 78",
                 "The gateway runs on host gw-2", "Our landlord is Mr. Patel"):
        status, envelope, err = _run(f"mem.py store {json.dumps(text)}", env, tmp_path)
        _check_envelope("mem.py store", status, envelope, err)
    status, envelope, err = _run(cmd, env, tmp_path)
    _check_envelope(cmd, status, envelope, err)
    doc = json.loads(shown)
    assert envelope is not None and list(envelope) == list(doc)
    assert envelope["data"] == doc["data"] == {"id": 7, "deduplicated": False, "supersedes": [3]}
    # "default `recall` returns only #7 ... --history shows #7 then #3 (`"superseded_by": [7]`) ... get 3 the chain"
    _, now, _ = _run('mem.py recall "wifi password"', env, tmp_path)
    assert now is not None and 7 in [r["id"] for r in now["data"]["results"]]
    assert 3 not in [r["id"] for r in now["data"]["results"]]
    _, hist, _ = _run('mem.py recall "wifi password" --history', env, tmp_path)
    assert hist is not None
    ids = [r["id"] for r in hist["data"]["results"]]
    assert ids.index(7) + 1 == ids.index(3), ids
    assert hist["data"]["results"][ids.index(3)]["superseded_by"] == [7]
    _, got, _ = _run("mem.py get 3", env, tmp_path)
    assert got is not None and [v["id"] for v in got["data"]["versions"]] == [7, 3]

    # The recall example: a store holding the one memory it shows.
    recall_cmd = next(line for b in blocks for line in b.splitlines() if line.startswith("mem.py recall"))
    shown_json = next(b for info, b in _fenced(SKILL) if info == "json")
    shown_json = shown_json.replace(", ...}", "}")
    doc = json.loads(shown_json)
    env = _env(tmp_path, tmp_path / "oscar.db", real=True)
    _run('mem.py store "Oscar prefers morning meetings" --type semantic --importance 0.8', env, tmp_path)
    status, envelope, err = _run(recall_cmd, env, tmp_path)
    _check_envelope(recall_cmd, status, envelope, err)
    assert envelope is not None and list(envelope) == list(doc)
    data, want = envelope["data"], doc["data"]
    assert {k: data[k] for k in ("query", "strategy", "count")} == {k: want[k] for k in ("query", "strategy", "count")}
    got_r, want_r = data["results"][0], want["results"][0]
    assert {k: got_r[k] for k in want_r if k != "score"} == {k: v for k, v in want_r.items() if k != "score"}
    assert abs(got_r["score"] - want_r["score"]) < 0.1, got_r["score"]  # the priors' sum: the doc rounds it


# --------------------------------------------------------------------------- README.md's usage


def test_readme_usage_commands_run_as_written(filled: tuple[Path, Path]) -> None:
    home, db = filled
    env = _env(home, db, real=False)
    (home / "usb").mkdir()
    shutil.copy(REPO / "tests/fixtures/whatsapp/WhatsApp Chat with Ana.txt", home / "chat.txt")
    subprocess.run(["zip", "-q", "WhatsApp Chat with Ana.zip", "chat.txt"], cwd=home, check=True)
    (home / "Downloads").mkdir()
    shutil.copy(home / "WhatsApp Chat with Ana.zip", home / "Downloads/export.zip")
    cmds = readme_usage_commands()
    assert len(cmds) >= 30, cmds
    for cmd in cmds:
        cmd = cmd.replace("~/", f"{home}/").replace(" DIR", f" {home}/usb")
        if "memories.jsonl" in cmd:
            _run(f"mem.py export > {home}/memories.jsonl", env, home)
        # The names the restore block uses, as the backups that would hold them
        if "memory-2026-11-26.db --from" in cmd and not (home / "usb/memory-2026-11-26.db").exists():
            _run(f"mem.py backup {home}/usb/memory-2026-11-26.db", env, home)
        if ".consolidate.db" in cmd and not (home / "backups/memory.db.20261126T031700.consolidate.db").exists():
            _run("mem.py backup", env, home)
            newest = sorted((home / "backups").glob("*.backup.db"))[-1]
            shutil.copy(newest, home / "backups/memory.db.20261126T031700.consolidate.db")
        _run_checked(cmd, env, home)


# --------------------------------------------------------------------------- options and exit codes


def _all_options() -> set[str]:
    import click

    import memcli

    names: set[str] = set()

    def walk(cmd: click.Command) -> None:
        for p in cmd.params:
            names.update(o for o in (*p.opts, *p.secondary_opts) if o.startswith("--"))
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for sub in cmd.list_commands(ctx):
                c = cmd.get_command(ctx, sub)
                if c is not None:
                    walk(c)

    walk(memcli.cli)
    return names


# Options the docs quote of other programs: bench scripts' (agent_latency.py --base, recall_signals.py --only,
# scale.py --sizes, ...) and a summarizer command's own ("my-summarizer --flag"); --help is click's.
FOREIGN = {"--help", "--ab", "--base", "--only", "--sizes", "--variants", "--flag"}


def test_every_option_the_docs_name_exists() -> None:
    known = _all_options() | FOREIGN
    for name, text in (("SKILL.md", SKILL), ("README.md", README)):
        named = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text))
        assert not named - known, f"{name} names options mem does not have: {sorted(named - known)}"


def test_skill_md_exit_codes_are_the_codes() -> None:
    line = SKILL[SKILL.index("## Exit codes"):]
    listed = {int(n) for n in re.findall(r"(?:^|·|\n)\s*(\d+) ", line)}
    assert listed == {v for v in core.EXIT_CODES.values() if v != 130}, listed


def test_readme_exit_code_table_is_the_codes() -> None:
    table = README[README.index("Exit codes:"):README.index("`doctor` on a damaged")]
    rows = {code: int(status) for codes, status in re.findall(r"^\s*\| (`[^|]+`) \| `(\d+)` \|", table, re.M)
            for code in re.findall(r"`(\w+)`", codes)}
    assert rows == core.EXIT_CODES


def test_readme_python_api_example_runs(tmp_path: Path) -> None:
    """README's "Python API" block, run as written (in a subprocess: its `memory.db` is relative)."""
    code = next(body for info, body in _fenced(README) if info == "python" and "from memory_core" in body)
    env = _env(tmp_path, tmp_path / "unused.db", real=False)
    env["PYTHONPATH"] = str(REPO)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(tmp_path),
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    first, hit = proc.stdout.splitlines()[:2]
    assert first == "1 False"  # res.id, res.deduplicated
    assert hit.startswith("1 ") and hit.endswith(" semantic None None Oscar prefers morning meetings"), hit
    assert (tmp_path / "memory.db").exists()


def test_the_mcp_recall_fields_the_docs_list_are_the_servers() -> None:
    from memengine.mcp_server import LEAN_FIELDS, LEAN_IF_SET

    skill = re.search(r"results carry only ([\w, ]+) \(([\w, ]+) when set\)", SKILL.replace("\n", " "))
    assert skill is not None
    assert tuple(skill.group(1).split(", ")) == LEAN_FIELDS
    assert set(LEAN_IF_SET) <= set(re.split(r", ", skill.group(2)))
    readme = README.replace("\n", " ")
    lean = readme[readme.index("results are lean by default:"):]
    lean = lean[:lean.index("when set")]
    head, _, extra = lean.partition(", plus ")
    assert tuple(re.findall(r"`(\w+)`", head)) == LEAN_FIELDS
    assert set(re.findall(r"`(\w+)`", extra)) == set(LEAN_IF_SET)
