"""users31 findings 1–3: the JSON a user reads is one shape everywhere, and an import's progress covers the whole
command. Real subprocesses of ``mem.py`` (JSON through a pipe), fresh stores under tmp_path, the hash embedder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli_subprocess

HASH = {"MEM_EMBEDDER": "hash"}


def _ok(db: Path, *args: str) -> dict[str, Any]:
    proc = run_cli_subprocess("--db", str(db), *args, env=HASH)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert out["ok"] is True
    return dict(out["data"])


def test_a_fact_stored_as_older_says_superseded_by_as_a_list(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    new = _ok(db, "store", "The office wifi password is tiger-43")["id"]
    old = _ok(db, "store", "The office wifi password is tiger-41", "--at", "2024-01-01")
    assert old["superseded_by"] == [new]  # was the bare number 1, where recall / get / SKILL say [1]
    got = _ok(db, "get", str(old["id"]))
    assert got["superseded_by"] == old["superseded_by"]  # the same field, the same shape
    hist = _ok(db, "recall", "office wifi password", "--history")
    assert [r["superseded_by"] for r in hist["results"] if r["id"] == old["id"]] == [[new]]


def _chat(path: Path, n: int, who: tuple[str, str], topic: str) -> Path:
    lines = [f"{1 + i // 600 % 28:02d}/03/2021, {i // 60 % 10 + 10:02d}:{i % 60:02d} - {who[i % 2]}: "
             f"{topic} note {i} for {who[(i + 1) % 2]}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _lines(stderr: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stderr.splitlines() if line.strip()]


def test_progress_covers_the_episodes_and_ends_when_the_import_does(tmp_path: Path) -> None:
    chat = _chat(tmp_path / "WhatsApp Chat with Ana.txt", 600, ("Ana", "Bruno"), "garden")
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", str(chat), "--progress", "json", env=HASH)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)["data"]
    assert data["memories_added"] == 600 and data["episodes"] > 0
    lines = _lines(proc.stderr)
    phases = [x["phase"] for x in lines]
    assert phases[0] == "messages" and phases[-1] == "episodes"
    assert phases == sorted(phases, key=["messages", "episodes"].index)  # messages, then episodes, never back
    assert all(x["total"] == 1200 for x in lines)  # 600 written, then 600 grouped: known from the start
    done = [x["done"] for x in lines]
    assert done == sorted(done)
    first_grouping = next(x for x in lines if x["phase"] == "episodes")
    assert first_grouping["done"] == 600 and first_grouping["eta_s"] != 0.0  # before: "done, eta 0" here
    assert lines[-1]["done"] == 1200 and lines[-1]["eta_s"] == 0.0
    assert [x for x in lines if x["done"] == x["total"]] == lines[-1:]  # "all done" is said once: at the end


def test_a_re_import_corrects_the_total_and_still_ends_at_it(tmp_path: Path) -> None:
    chat = _chat(tmp_path / "WhatsApp Chat with Ana.txt", 300, ("Ana", "Bruno"), "garden")
    db = tmp_path / "m.db"
    _ok(db, "import", str(chat))
    proc = run_cli_subprocess("--db", str(db), "import", str(chat), "--progress", "json", env=HASH)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["data"]["skipped_duplicates"] == 300
    lines = _lines(proc.stderr)
    assert lines[0]["total"] == 600  # the guess: nothing is known yet about what is already grouped
    assert lines[-1]["done"] == lines[-1]["total"] == 300 and lines[-1]["eta_s"] == 0.0  # nothing left to group


def test_a_folder_import_has_a_total_an_eta_and_a_last_line(tmp_path: Path) -> None:
    folder = tmp_path / "chats"
    folder.mkdir()
    _chat(folder / "WhatsApp Chat with Ana.txt", 1500, ("Ana", "Bruno"), "garden")
    _chat(folder / "WhatsApp Chat with Carla.txt", 1300, ("Carla", "Bruno"), "kitchen tiles")
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", str(folder), "--progress", "json", env=HASH)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)["data"]
    assert data["memories_added"] == 2800
    lines = _lines(proc.stderr)
    # before: "total": null and "eta_s": null on every line, and the last line said 2048 of an unknown total
    assert lines[0]["total"] == 5600 and all(x["total"] == 5600 for x in lines)
    assert any(x["eta_s"] for x in lines)
    assert lines[-1]["done"] == 5600 and lines[-1]["eta_s"] == 0.0
    assert [x["phase"] for x in lines].count("episodes") >= 2  # each file's grouping is followed


def test_pinned_is_true_or_false_in_every_reply(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mid = _ok(db, "store", "Oscar prefers morning meetings")["id"]
    again = _ok(db, "store", "Oscar prefers morning meetings", "--pin")
    assert again["pinned"] is True
    assert _ok(db, "get", str(mid))["pinned"] is True  # was 1
    assert [r["pinned"] for r in _ok(db, "recall", "Oscar morning meetings")["results"]] == [True]
    assert [m["pinned"] for m in _ok(db, "list")["memories"]] == [True]
    assert _ok(db, "unpin", str(mid))["pinned"] is False
    assert _ok(db, "get", str(mid))["pinned"] is False  # was 0
    proc = run_cli_subprocess("--db", str(db), "export", env=HASH)
    line = json.loads(proc.stdout.splitlines()[0])
    assert line["pinned"] is False
    # an export written before (pinned 1) still reads back as pinned
    line.update(pinned=1, ref="older-export-line")
    (tmp_path / "old.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    moved = tmp_path / "moved.db"
    assert _ok(moved, "import", "jsonl", str(tmp_path / "old.jsonl"))["memories_added"] == 1
    assert _ok(moved, "list")["memories"][0]["pinned"] is True


def test_an_unknown_embedder_name_is_refused_not_read_as_the_default(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _ok(db, "store", "Oscar prefers morning meetings")
    before = db.read_bytes()
    for name in ("fake", "minilm", "e5-small"):
        proc = run_cli_subprocess("--db", str(db), "recall", "Oscar", env={"MEM_EMBEDDER": name})
        assert proc.returncode == 1, proc.stdout  # was exit 5: "run `mem.py reindex`" (to the wrong model)
        out = json.loads(proc.stdout)
        assert out["error"]["code"] == "invalid_input" and f"MEM_EMBEDDER='{name}'" in out["error"]["message"]
        assert "Traceback" not in proc.stderr
    proc = run_cli_subprocess("--db", str(db), "reindex", env={"MEM_EMBEDDER": "fake"})
    assert proc.returncode == 1, proc.stdout
    assert db.read_bytes() == before  # nothing re-embedded
    assert _ok(db, "stats")["embedding_model"] == "hash-bow-384"
    assert _ok(db, "recall", "Oscar")["count"] == 1  # the right name still works
    proc = run_cli_subprocess("--db", str(db), "stats", env={"MEM_EMBEDDER": " HASH "})
    assert proc.returncode == 0, proc.stdout  # case and spaces: the same name


def test_a_backup_restores_on_a_new_machine_before_any_other_command(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEM_DB", raising=False)  # each machine's default file, in its own data folder
    old_home, new_home = tmp_path / "laptop", tmp_path / "desktop"
    old_env = {**HASH, "XDG_DATA_HOME": str(old_home), "HOME": str(old_home)}
    new_env = {**HASH, "XDG_DATA_HOME": str(new_home), "HOME": str(new_home)}
    proc = run_cli_subprocess("store", "Oscar prefers morning meetings", env=old_env)
    assert proc.returncode == 0, proc.stdout
    made = json.loads(run_cli_subprocess("backup", env=old_env).stdout)["data"]["path"]
    carried = tmp_path / "usb"
    carried.mkdir()
    (carried / Path(made).name).write_bytes(Path(made).read_bytes())
    dry = run_cli_subprocess("restore", Path(made).name, "--from", str(carried), "--dry-run", env=new_env)
    assert dry.returncode == 0, dry.stdout  # was exit 1: "folder … does not exist (check --db)", no --db given
    assert json.loads(dry.stdout)["data"]["mode"] == "new" and not new_home.exists()  # a dry run makes nothing
    proc = run_cli_subprocess("restore", Path(made).name, "--from", str(carried), env=new_env)
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout)["data"]["memories_after"] == 1
    recall = json.loads(run_cli_subprocess("recall", "Oscar", env=new_env).stdout)["data"]
    assert [r["content"] for r in recall["results"]] == ["Oscar prefers morning meetings"]
    # an explicit --db under a missing folder is still refused (a typo, more likely than a wish)
    typo = run_cli_subprocess("--db", str(tmp_path / "nope" / "m.db"), "restore", Path(made).name, "--from",
                              str(carried), env=new_env)
    assert typo.returncode == 1 and "check --db" in json.loads(typo.stdout)["error"]["message"]


def test_a_mixed_folder_import_has_a_total_and_ends_at_it(tmp_path: Path) -> None:
    folder = tmp_path / "history"
    folder.mkdir()
    _chat(folder / "WhatsApp Chat with Ana.txt", 900, ("Ana", "Bruno"), "garden")
    (folder / "contacts.vcf").write_text("BEGIN:VCARD\nVERSION:3.0\nFN:Ana García\nTEL:+34600123456\nEND:VCARD\n",
                                         encoding="utf-8")
    proc = run_cli_subprocess("--db", str(tmp_path / "m.db"), "import", str(folder), "--progress", "json", env=HASH)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)["data"]
    assert data["format"] == "mixed" and data["memories_added"] == 901
    lines = _lines(proc.stderr)
    assert lines[0]["total"] == 1801  # a contact card, then 900 messages written and grouped
    assert lines[-1]["done"] == lines[-1]["total"] and lines[-1]["eta_s"] == 0.0
    assert [x["done"] for x in lines] == sorted(x["done"] for x in lines)
