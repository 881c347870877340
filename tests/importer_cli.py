"""Shared helpers of the importer tests (rounds 1-3 of unseen layouts): the CLI checks, and the parser calls
every round makes."""
from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

from conftest import run_cli

from importers import ImportReport, Record, chatgpt, claude, markdown, vcf, whatsapp
from importers.detect import detect
from importers.registry import PARSERS


def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    """A zip at ``path`` holding ``members`` (name -> bytes)."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def one_envelope(proc: object) -> dict:
    """The single JSON line a CLI call printed."""
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]  # type: ignore[attr-defined]
    assert len(lines) == 1, proc.stdout + proc.stderr  # type: ignore[attr-defined]
    return json.loads(lines[0])


def assert_broken_import_fails(tmp_path: Path, name: str, content: dict[str, bytes] | bytes, message: str) -> Path:
    """`mem.py import` of a broken export: exit 1, code invalid_input, one line naming the file and
    holding ``message``, nothing written; returns the export's path."""
    path = tmp_path / name
    if isinstance(content, dict):
        write_zip(path, content)
    else:
        path.write_bytes(content)
    assert_import_refused(path, tmp_path, message)
    return path


def assert_import_refused(path: Path, tmp_path: Path, message: str, where: tuple[Path, ...] = ()) -> None:
    """`mem.py import PATH` into a store in ``tmp_path``: exit 1, code invalid_input, one line holding ``message``
    and naming the path (or one of ``where``), no traceback, nothing written."""
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(path))
    out = one_envelope(proc)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    said = out["error"]["message"]
    assert message in said and any(str(p) in said for p in where or (path,)), out
    assert "\n" not in said and "Traceback" not in proc.stderr  # type: ignore[attr-defined]
    assert not db.exists() or memory_count(db) == 0


def assert_imports_by_cli(db: Path, expected: dict[Path, tuple[str, int]]) -> list[dict]:
    """Each path imported into ``db`` through ``mem.py import``: detected as its format, adding its count of
    memories; imported again, it adds none (idempotent: the same refs); the store then holds those memories and the
    episodes the imports made. The first imports' envelopes, in ``expected``'s order."""
    outs, episodes = [], 0
    for path, (kind, added) in expected.items():
        out = one_envelope(run_cli("--db", str(db), "import", str(path)))
        assert out["ok"] and out["data"]["format"] == kind and out["data"]["memories_added"] == added, out
        episodes += out["data"]["episodes"]
        again = one_envelope(run_cli("--db", str(db), "import", str(path)))
        assert again["data"]["memories_added"] == 0 and again["data"]["skipped_duplicates"] == added, again
        outs.append(out)
    assert memory_count(db) == sum(n for _, n in expected.values()) + episodes  # the chats' turns and episodes
    return outs


def memory_count(db: Path) -> int:
    """Memories in ``db``, as `mem.py stats` counts them."""
    return int(one_envelope(run_cli("--db", str(db), "stats"))["data"]["memories"])


def wa(path: Path, **options: object) -> tuple[list[Record], ImportReport]:
    """The records and report of ``whatsapp.parse`` on ``path``."""
    rep = ImportReport(str(path), "whatsapp")
    return list(whatsapp.parse(path, rep, **options)), rep


def conversations(path: Path, **options: object) -> tuple[list[Record], ImportReport]:
    """The records and report of ``chatgpt.parse`` on ``path``, which must be detected as a ChatGPT export."""
    assert detect(path) == "chatgpt"
    rep = ImportReport(str(path), "chatgpt")
    return list(chatgpt.parse(path, rep, **options)), rep


def claude_chats(path: Path) -> tuple[list[Record], ImportReport]:
    """The records and report of ``claude.parse`` on ``path``."""
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep)), rep


def notes(path: Path) -> tuple[list[Record], ImportReport]:
    """The records and report of ``markdown.parse`` on ``path``, which must be detected as notes."""
    assert detect(path) == "markdown"
    rep = ImportReport(str(path), "markdown")
    return list(markdown.parse(path, rep)), rep


def vcards(path: Path) -> tuple[list[Record], ImportReport]:
    """The records and report of ``vcf.parse`` on ``path``, which must be detected as contacts."""
    assert detect(path) == "vcf"
    rep = ImportReport(str(path), "vcf")
    return list(vcf.parse(path, rep)), rep


def check_whatsapp_layout(path: Path, case: tuple, warning: tuple[str, str] | None = None) -> None:
    """One WhatsApp layout of the unseen-layout tables: detected as WhatsApp, parsed to exactly the
    expected (content, time) list with the expected layout, date order, calendar and skip counts.
    ``case`` is (layout, order, calendar, (system, media), expected[, edited contents]); ``warning``
    is the one warning's (start after the path, end), else there must be none. Every record starts
    with its author, positions run 0, 1, 2, … and refs are unique."""
    layout, order, calendar, skipped, expected, *edited = case
    assert detect(path) == "whatsapp"
    recs, rep = wa(path)
    assert [(r.content, r.event_at) for r in recs] == expected
    assert (rep.variant["layout"], rep.variant["date_order"], rep.variant["calendar"]) == (layout, order, calendar)
    assert (rep.skipped_system, rep.skipped_media) == skipped
    if edited:
        assert {r.content for r in recs if r.metadata.get("edited")} == edited[0]
    if warning:
        assert len(rep.warnings) == 1, rep.warnings
        assert rep.warnings[0].startswith(f"{path}{warning[0]}") and rep.warnings[0].endswith(warning[1]), rep.warnings
    else:
        assert rep.warnings == []  # e.g. no connector word ("à", "klo") taken for an unknown 12-hour marker
    assert all(r.author and r.content.startswith(f"{r.author}: ") for r in recs)
    assert [r.position for r in recs] == list(range(len(recs)))
    assert len({r.ref for r in recs}) == len(recs)


# --- chat apps' exports (tests/test_importers_unseen20.py, unseen21.py) ---

def parsed(path: Path, kind: str) -> tuple[list[Record], ImportReport]:
    """``path`` detected as ``kind``, and its records and report."""
    assert detect(path) == kind
    rep = ImportReport(str(path), kind)
    return list(PARSERS[kind].parse(path, rep)), rep


def turns(recs: list[Record]) -> list[tuple[str, str]]:
    """(content, time in ISO 8601 as stored: with its offset when aware) of each record."""
    return [(r.content, r.event_at.isoformat() if r.event_at else "") for r in recs]


def counts(rep: ImportReport) -> tuple[int, int, int]:
    return rep.messages_seen, rep.skipped_system, rep.skipped_media


def check_chat_shape(recs: list[Record], source: str) -> None:
    """Every record is a chat turn: its author leads its content, a thread, positions 0.. per thread, unique refs."""
    assert recs
    assert all(r.source == source and r.memory_type == "episodic" and r.author and r.thread for r in recs)
    assert all(r.content.startswith(f"{r.author}: ") for r in recs)
    assert all(r.ref.startswith(f"{source}:") for r in recs)
    assert len({r.ref for r in recs}) == len(recs)
    for thread in {r.thread for r in recs}:
        assert [r.position for r in recs if r.thread == thread] == list(range(sum(r.thread == thread for r in recs)))


# What a fuzz case puts in (unseen22 and later); unseen21's cases were drawn from the first eight
INSERTS = (b'"', b"\t", b"\n", b"[", b"}", b"null", b'"x"', b"123", b"<", b">", b"&")


def mutations(data: bytes, seed: int, inserts: tuple[bytes, ...] = INSERTS) -> list[tuple[str, bytes]]:
    """Fuzz cases of an export's bytes: the file cut at six places, and ten small damages (a byte changed, a run
    dropped or doubled, a digit made another character, one of ``inserts`` put in), the same on every run."""
    rng = random.Random(seed)
    out = [(f"cut{frac}", data[: int(len(data) * frac)]) for frac in (0.1, 0.3, 0.5, 0.7, 0.9, 0.97)]
    for i in range(10):
        b = bytearray(data)
        pos = rng.randrange(len(b))
        op = ("flip", "drop", "double", "digit", "insert")[i % 5]
        if op == "flip":
            b[pos] = rng.randrange(256)
        elif op == "drop":
            del b[pos: pos + rng.randint(1, 30)]
        elif op == "double":
            b[pos:pos] = b[pos: pos + rng.randint(1, 60)]
        elif op == "digit":
            digits = [j for j, c in enumerate(b) if 48 <= c <= 57] or [pos]
            b[rng.choice(digits)] = rng.choice(b"0123456789Xx:-")
        else:
            b[pos:pos] = rng.choice(inserts)
        out.append((f"{op}{i}", bytes(b)))
    return out


def read_or_refused(target: Path) -> bool:
    """Whether an export (a fuzzed copy) is read by the parser its detection picks (True) or refused in one line
    naming it (False); any other exception fails the test."""
    from importers import ImportFormatError

    try:
        kind = detect(target)
        list(PARSERS[kind].parse(target, ImportReport(str(target), kind)))
        return True
    except ImportFormatError as exc:
        assert str(target) in str(exc) and "\n" not in str(exc), str(exc)
        return False


def fuzzed_outcomes(source: Path, into: Path, seed: int, keep: int) -> tuple[int, int]:
    """``(read, refused)`` over every fuzz case of ``source`` (``mutations``), each written under ``into`` as
    ``<case>/<the last keep parts of its path>`` (its name and its folders' names: a Zoom meeting's date, a Threema
    messages.txt are told by them) and read or refused in one line (``read_or_refused``)."""
    read = refused = 0
    for i, (what, data) in enumerate(mutations(source.read_bytes(), seed=seed)):
        target = into.joinpath(f"{i}-{what}", *source.parts[-keep:])
        target.parent.mkdir(parents=True)
        target.write_bytes(data)
        if read_or_refused(target):
            read += 1
        else:
            refused += 1
    return read, refused
