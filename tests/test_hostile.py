"""Hostile input, private files, backups that respect disk, signed share bundles.

Each case ends as one documented error (or a documented success), never a traceback:
commands run in-process through ``mem.main`` (the real entry point and its error
mapping); an uncaught exception would fail the test, an ``internal`` code too.
"""

from __future__ import annotations

import copy
import json
import os
import random
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest

import mem
import memory_core as core
from memengine import consolidate as cons
from memengine import ingest, sharebundle, sharing


def run(capsys: pytest.CaptureFixture[str], *args: str, stdin: bytes | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, dict]:
    if stdin is not None:
        import io
        import sys

        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    try:
        mem.main([*args, "--json"])
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.strip()]
    if not lines and status == 0:  # (graph export -o writes its file, not an envelope)
        return status, {}
    assert len(lines) == 1, out
    env = json.loads(lines[0])
    assert env.get("error", {}).get("code") != "internal", env
    return status, env


def refused(capsys: pytest.CaptureFixture[str], *args: str, match: str, **kw: Any) -> None:
    status, env = run(capsys, *args, **kw)
    assert status == 1 and env["error"]["code"] == "invalid_input", env
    assert match in env["error"]["message"], env["error"]["message"]


# --------------------------------------------------------------------------- hostile CLI input

def test_invalid_utf8_in_argv_and_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Python hands undecodable argv bytes over as surrogates (surrogateescape)
    refused(capsys, "recall", os.fsdecode(b"deploy \xff"), match="not valid UTF-8 (byte 0xff at position 7)")
    refused(capsys, "store", os.fsdecode(b"caf\xe9"), match="byte 0xe9")
    refused(capsys, "store", "-", stdin=b"caf\xe9 from stdin", monkeypatch=monkeypatch,
            match="stdin: not UTF-8 text (byte 0xe9 at offset 3)")
    status, env = run(capsys, "store", "-", stdin="\ufeffcafé ok".encode(), monkeypatch=monkeypatch)
    assert status == 0
    assert core.MemoryStore().get(env["data"]["id"]).content == "café ok"


@pytest.mark.parametrize(("args", "match"), [
    (["store", "x", "--at", "99999999999 days ago"], "out of the calendar's range"),
    (["recall", "x", "--since", "99999999999 days ago"], "out of the calendar's range"),
    (["store", "x", "--at", "-5"], "bare number"),
    (["recall", "x", "--until", "12"], "bare number"),
    (["store", "x", "--meta", '{"a":' * 60000 + "1" + "}" * 60000], "nested deeper than 64"),
    (["store", "x", "--meta", "[" * 200000], "nested deeper than 64"),
    (["store", "x", "--tag", "a" * 100_000], "over the 100 limit"),
    (["store", "\0\0\0"], "content is empty"),
])
def test_hostile_options_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], match: str) -> None:
    refused(capsys, *args, match=match)


def test_a_year_is_still_a_date(capsys: pytest.CaptureFixture[str]) -> None:
    status, env = run(capsys, "store", "moved to Lisbon", "--at", "2019-06-01")
    assert status == 0
    status, env = run(capsys, "recall", "Lisbon", "--since", "2019")  # four digits: a year, not a bare number
    assert status == 0


def test_ids_beyond_64_bits(capsys: pytest.CaptureFixture[str]) -> None:
    status, env = run(capsys, "get", str(2 ** 63))
    assert status == 2 and env["error"]["code"] == "usage"


def test_nul_characters_are_dropped_from_text(store: core.MemoryStore) -> None:
    # SQLite text functions stop at the first NUL: kept, it would silently cut the text
    res = store.store("deploy\0 the gateway", "semantic")
    assert store.get(res.id).content == "deploy the gateway"


def test_import_jsonl_of_wrong_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = {
        "binary.jsonl": (b"\x89PNG\r\n\x1a\n" + bytes(range(128, 256)) * 20, "not UTF-8"),
        "zip.jsonl": (b"", "a zip archive"),
        "nuls.jsonl": (b'{"content": "x"}\n\x00\x01\x02' * 10, "binary data"),
        "deep.jsonl": (b"[" * 200_000 + b"\n", "nested deeper than 64"),
        "surrogate.jsonl": (b'{"content": "bad \\ud800 here"}\n', "lone surrogate U+D800"),
        "nul.jsonl": (b'{"content": "\\u0000\\u0000"}\n', "content is empty"),
        "shape.jsonl": (b'[1, 2]\n', "expected a JSON object"),
    }
    for name, (data, match) in cases.items():
        p = tmp_path / name
        if name == "zip.jsonl":
            with zipfile.ZipFile(p, "w") as z:
                z.writestr("a.txt", "hello")
        else:
            p.write_bytes(data)
        refused(capsys, "import", "jsonl", str(p), match=match)
        assert str(p) in capsys.readouterr().out or True
    assert core.MemoryStore().stats()["memories"] == 0  # nothing half-written
    # UTF-16 with a BOM is text: imported as such (like every other importer), not mojibake
    p = tmp_path / "utf16.jsonl"
    p.write_bytes((json.dumps({"content": "héllo wörld"}) + "\n").encode("utf-16"))
    ingest.import_jsonl(core.MemoryStore(), p)
    assert [m["content"] for m in core.MemoryStore().export()] == ["héllo wörld"]


def test_a_file_of_the_wrong_shape_says_nothing_was_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # (importers that can tell refuse a wrong shape themselves; what parses to nothing says so here)
    md = tmp_path / "notes.md"
    md.write_text("")
    status, env = run(capsys, "import", "markdown", str(md))
    assert env["data"]["warnings"] == [f"{md}: nothing to import (0 messages found): is it really a markdown export?"]
    # (layouts30) and the exit code says it: 13, nothing_to_import, nothing written
    assert status == 13 and env["error"] == {"code": "nothing_to_import", "message": (
        f"{md}: nothing to import: no message nor note found as markdown; if this is not a markdown export, import "
        "it without naming its format; nothing was written")}


def test_fuzzed_recall_queries_raise_only_documented_errors(store: core.MemoryStore) -> None:
    for i in range(30):
        store.store(f"memory {i}: the gateway on host {i} restarts at {i}pm", "semantic")
    rng = random.Random(23)
    alphabet = ["a", "é", " ", '"', "(", ")", "*", "-", "NEAR", "AND", "OR", "\0", "\ud800", "\udfff", "\U0001f600",
                "\\", ":", "^", "'", "\n", "\t", "0x", "deploy", "gateway"]
    errors: dict[str, int] = {}
    for _ in range(300):
        q = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        strategy = rng.choice(core.ALL_STRATEGIES)
        try:
            store.recall(q, k=rng.randint(1, 20), strategy=strategy, touch=rng.random() < 0.5)
        except core.MemError as exc:  # documented: a bad query is a UserError
            errors[exc.code] = errors.get(exc.code, 0) + 1
    assert set(errors) <= {"invalid_input"}
    assert errors.get("invalid_input", 0) > 0  # the lone surrogates were refused, not crashed on


def test_near_duplicate_keeps_the_new_tags_and_says_so(store: core.MemoryStore) -> None:
    first = store.store("Oscar prefers morning meetings before ten", "semantic", tags=["work"], source="user")
    again = store.store("Oscar prefers morning meetings before ten.", "semantic", tags=["calendar"], source="agent")
    assert again.deduplicated and again.id == first.id
    kept = store.get(first.id)
    assert set(kept.tags) == {"work", "calendar"} and kept.metadata["also_from"] == ["agent"]
    assert again.merged == {"tags": ["calendar"], "also_from": "agent"}


# --------------------------------------------------------------------------- private files

def _mode(p: Path) -> str:
    return oct(stat.S_IMODE(p.stat().st_mode))


def test_outputs_are_private_under_umask_000(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "store", "deploy the gateway with ansible")
    run(capsys, "store", "the gateway runs on host 7")
    ids = [run(capsys, "store", f"we planted tomatoes and basil in the garden beds {i}")[1]["data"]["id"]
           for i in range(3)]
    old = os.umask(0)
    try:
        # (a missing folder is an error unless asked for: a typo must not be created; asked, it is private)
        status, _ = run(capsys, "backup", str(tmp_path / "new" / "copy.db"), "--parents")
        assert status == 0
        status, _ = run(capsys, "graph", "export", "-o", str(tmp_path / "g.json"))
        assert status == 0
        status, env = run(capsys, "consolidate", "--keep-backups", "2")
        assert status == 0
        run(capsys, "forget", str(ids[0]))  # the next run's cascade changes clusters: it writes a backup first
        status, env = run(capsys, "consolidate", "--keep-backups", "2")
        assert status == 0 and env["data"]["backup"]
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new" / "copy.db") == "0o600" and _mode(tmp_path / "new") == "0o700"
    assert _mode(tmp_path / "g.json") == "0o600"
    backups = tmp_path / "backups"
    assert _mode(backups) == "0o700"
    assert all(_mode(p) == "0o600" for p in backups.iterdir())


def test_read_only_memory_md_is_refused_not_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    md = tmp_path / "MEMORY.md"
    md.write_text("# my notes\n")
    md.chmod(0o444)
    run(capsys, "store", "Oscar prefers morning meetings", "--pin")
    status, env = run(capsys, "consolidate", "--memory-md", str(md))
    assert status == 1 and "read-only (mode 0444)" in env["error"]["message"] and str(md) in env["error"]["message"]
    assert md.read_text() == "# my notes\n" and _mode(md) == "0o444"


# --------------------------------------------------------------------------- backups that respect disk

def test_consolidate_keeps_a_backup_only_when_it_changed_something(store: core.MemoryStore) -> None:
    for i in range(40):
        store.store(f"fact {i}: the gateway on host {i % 5} listens on port {8000 + i % 3}", "semantic")
    backups = store.path.parent / "backups"
    first = cons.run(store, keep_backups=2)
    assert first.backup is not None and Path(first.backup).exists()
    second = cons.run(store, keep_backups=2)  # nothing new: decay, contradict, cascade change nothing
    assert second.backup is None and second.backup_note and "changed nothing" in second.backup_note
    assert sorted(backups.iterdir()) == [Path(first.backup)]
    # with new facts that supersede old ones, backups accumulate up to keep=2
    for round_ in range(3):
        for i in range(5):
            store.store(f"fact {i}: the gateway on host {i % 5} listens on port {9000 + round_}", "semantic")
        rep = cons.run(store, keep_backups=2)
        if rep.backup is None:
            continue
    assert len(list(backups.iterdir())) <= 2


# --------------------------------------------------------------------------- sharing

@pytest.fixture
def pair(tmp_path: Path):
    a = core.MemoryStore(tmp_path / "ana.db")
    b = core.MemoryStore(tmp_path / "max.db")
    sharing.set_owner(a, "ana")
    sharing.set_owner(b, "max")
    yield a, b
    a.close()
    b.close()


FACT = "The payment gateway client retries idempotent requests three times with exponential backoff"


def _offer(a: core.MemoryStore, text: str) -> str:
    mid = a.store(text, "semantic").id
    oid = sharing.offer(a, [mid], "max")["offer_id"]
    sharing.approve(a, oid, sharing.ROLE_A)
    return oid


def test_bundles_are_signed_and_forged_revocations_refused(tmp_path: Path, pair) -> None:
    a, b = pair
    oid = _offer(a, FACT)
    bundle = sharing.export_bundle(a, "max")
    assert bundle["version"] == 2 and bundle["signature"]["alg"] == "ed25519"
    res = sharing.import_bundle(b, bundle)
    assert res["signed_by"] == sharing.own_fingerprint(a)
    sharing.approve(b, oid, sharing.ROLE_B)
    assert b.conn.execute("SELECT count(*) FROM memories WHERE source = 'shared:ana'").fetchone()[0] == 1
    # eve writes a bundle "from ana" revoking the offer, signed with her own key
    eve = core.MemoryStore(tmp_path / "eve.db")
    sharing.set_owner(eve, "eve")
    forged = {"format": sharing.BUNDLE_FORMAT, "version": 2, "from": "ana", "to": "max",
              "created_at": "2026-01-01T00:00:00", "offers": [], "consents": [],
              "revocations": [{"offer_id": oid, "by": "ana", "at": "2026-01-01T00:00:00"}]}
    forged["digest"] = sharing.bundle_digest(forged)
    from memengine import sharekeys

    with core.write_tx(eve.conn):
        sharekeys.ensure_own_key(eve.conn)
    signed = dict(forged, signature=sharekeys.sign(eve.conn, forged["digest"]))
    with pytest.raises(core.UserError, match="not by ana's known key"):
        sharing.import_bundle(b, signed)
    with pytest.raises(core.UserError, match="unsigned, but ana's key is known"):
        sharing.import_bundle(b, forged)
    bad = copy.deepcopy(bundle)
    bad["created_at"] = "2030-01-01T00:00:00"
    bad["digest"] = sharing.bundle_digest(bad)  # digest fixed, signature not
    with pytest.raises(core.UserError, match="signature does not match"):
        sharing.import_bundle(b, bad)
    assert b.conn.execute("SELECT count(*) FROM memories WHERE source = 'shared:ana'").fetchone()[0] == 1
    # ana's real revocation still works
    sharing.revoke(a, oid)
    res = sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    assert res["revocations_applied"] == [oid]
    assert b.conn.execute("SELECT count(*) FROM memories WHERE source = 'shared:ana'").fetchone()[0] == 0
    eve.close()


def test_old_unsigned_bundle_imports_with_a_loud_warning(pair) -> None:
    a, b = pair
    _offer(a, FACT)
    bundle = sharing.export_bundle(a, "max")
    bundle.pop("signature")
    bundle["version"] = 1
    bundle["digest"] = sharing.bundle_digest(bundle)
    res = sharing.import_bundle(b, bundle)
    assert res["offers_received"] and res["warnings"][0].startswith("UNSIGNED bundle from ana")


def test_nul_only_and_deep_bundles_are_refused(tmp_path: Path, pair) -> None:
    a, b = pair
    _offer(a, FACT)
    bundle = sharing.export_bundle(a, "max")
    bundle["offers"][0]["items"][0]["content"] = "\0\0"
    bundle["offers"][0]["items"][0]["sha256"] = sharing.item_sha256("\0\0")
    bundle["digest"] = sharing.bundle_digest(bundle)
    with pytest.raises(core.UserError, match="has no content"):
        sharing.validate_bundle(bundle)
    deep = tmp_path / "deep.membundle"
    deep.write_text("[" * 200_000)
    with pytest.raises(core.UserError, match="nested deeper"):
        sharebundle.read_bundle(deep)
    sur = tmp_path / "sur.membundle"
    sur.write_text('{"format": "x", "items": ["\\ud800"]}')
    with pytest.raises(core.UserError, match="not a share bundle"):
        sharebundle.read_bundle(sur)


def test_exported_bundle_file_is_private(tmp_path: Path, pair) -> None:
    a, _ = pair
    _offer(a, FACT)
    out = tmp_path / "to-max.membundle"
    old = os.umask(0)
    try:
        sharebundle.write_bundle(sharing.export_bundle(a, "max"), out)
    finally:
        os.umask(old)
    assert _mode(out) == "0o600"


def test_brief_marks_a_partners_memories(pair) -> None:
    from memengine import graph_rank

    a, b = pair
    oid = _offer(a, FACT)
    sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    sharing.approve(b, oid, sharing.ROLE_B)
    b.store("Max keeps his own notes about the gateway", "semantic")
    data = graph_rank.brief(b, 500)
    shared = [m for m in data["chosen"] if m["why"].get("shared_from")]
    assert [m["why"]["shared_from"] for m in shared] == ["ana"]
    assert f"#{shared[0]['id']} (shared from ana) " in data["text"]
    own = [m for m in data["chosen"] if m["id"] is not None and not m["why"].get("shared_from")]
    assert own and f"#{own[0]['id']} Max keeps" in data["text"]
