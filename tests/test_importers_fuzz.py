"""Property: every parser, fed a mutated, truncated or garbage version of a real-shaped export,
either parses or fails with the project's one user error (``ImportFormatError``: one line naming
the file); through the engine (``ingest.import_path``, what ``mem.py import`` runs) that is a
``UserError`` of one line (exit code 1, ``invalid_input``) and the store is left as it was:
nothing half-written. Never any other exception.

The seeds are this repo's hand-written fixtures; the mutations are byte flips, insertions,
deletions, cuts, duplicated spans, runs of odd characters (BOMs, NULs, U+2028, RTL marks, CRs)
and whole garbage. Derandomized (the same examples every run: a failure is reproducible) and
small, so the file runs in a few seconds (``MEM_FUZZ_EXAMPLES`` searches deeper)."""

from __future__ import annotations

import os
import sqlite3
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from importers import ImportFormatError, ImportReport
from importers.registry import PARSERS
from memengine import ingest
from memory_core import MemoryStore, NewMemory, UserError

FIX = Path(__file__).parent / "fixtures"


def _zip_bytes(members: dict[str, bytes]) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in members.items():
                zf.writestr(name, data)
        return path.read_bytes()


def _read(rel: str) -> bytes:
    return (FIX / rel).read_bytes()


# kind: [(file name the bytes are written as, seed bytes)]
SEEDS: dict[str, list[tuple[str, bytes]]] = {
    "whatsapp": [
        ("WhatsApp Chat with Ana.txt", _read("unseen2/whatsapp/ios_en_us_nnbsp.txt")),
        ("chat.txt", _read("unseen3/whatsapp/android_pa_12h.txt")),
        ("WhatsApp Chat with Ana.zip", _zip_bytes({"_chat.txt": _read("unseen/whatsapp/ios_group_uk.txt"),
                                                   "Ben.vcf": _read("unseen3/whatsapp_zip/Ben Smith.vcf")})),
        ("chat.txt", _read("unseen4/whatsapp/android_mr_deva_digits.txt")),  # markers told by the file
        ("WhatsApp exports.zip", _zip_bytes({"WhatsApp Chat with Dan.zip": _zip_bytes({  # cards in a nested chat zip
            "_chat.txt": _read("unseen4/whatsapp_nested/_chat.txt"),
            "Dan Lee.vcf": _read("unseen4/whatsapp_nested/Dan Lee.vcf")})})),
        ("chat.txt", _read("unseen13/whatsapp/android_en_trailing_nuls.txt")),  # a NUL tail dropped
        ("chat.txt", _read("unseen13/whatsapp/android_en_utf16le_nobom.txt")),  # UTF-16 told by its NULs
        ("chat.txt", _read("unseen14/whatsapp/android_en_utf16le_odd_tail.txt")),  # UTF-16 cut one byte short
    ],
    "chatgpt": [
        ("conversations.json", _read("unseen3/chatgpt/reasoning_2025.json")),
        ("chat.html", _read("unseen2/chatgpt/chat.html")[:6000]),
        ("conversations.json", _read("unseen5/chatgpt/utf16le/conversations.json")),  # UTF-16 recoded as it streams
        ("conversations.json", _read("unseen5/chatgpt/jsonlines/conversations.json")),
        ("conversations.json", _read("unseen10/chatgpt/canvas_edits/conversations.json")),  # patterns applied
        ("Sintra day trip.json", _read("unseen12/chatgpt/share_page/Sintra day trip.json")),  # one object
        ("conversations.json", _read("unseen13/chatgpt/voice_mode_2025/conversations.json")),  # transcripts
        ("conversations.json", _read("unseen14/chatgpt/hidden_system_2023/conversations.json")),  # a continued answer
    ],
    "claude": [
        ("conversations.json", _read("unseen3/claude/conversations.json")),
        ("projects.json", _read("unseen3/claude/projects.json")),
        ("conversations.json", _read("unseen5/claude/2025/conversations.json")),  # branches
        ("projects.json", _read("unseen10/claude/project_docs/projects.json")),  # documents
        ("conversations.json", _read("unseen12/claude/files_v2/conversations.json")),  # files_v2
        ("conversations.json", _read("unseen13/claude/web_search_citations/conversations.json")),  # cited blocks
    ],
    "markdown": [
        ("note.md", _read("unseen2/markdown/obsidian_daily/Daily/2024-03-14.md")),
        ("Keep/Boiler.json", _read("unseen3/markdown/keep/Takeout/Keep/Boiler.json")),
        ("House.enex", _read("unseen3/markdown/evernote/House.enex")),
        ("Notes/Boiler.html", _read("unseen4/notes/apple_html/Notes/Boiler.html")),
        ("Standard Notes Backup and Import File.txt",
         _read("unseen4/notes/standard_notes/Standard Notes Backup and Import File.txt")),
        ("source/notes.json", _read("unseen4/notes/simplenote/source/notes.json")),
        ("Journal/Journal.json", _read("unseen5/notes/dayone/Journal.json")),  # Day One
        ("Export/Reading list 9f8e7d6c5b4a49382716a5b4c3d2e1f0_all.csv",  # a Notion database
         _read("unseen5/notion/Export-7d1c/Reading list 9f8e7d6c5b4a49382716a5b4c3d2e1f0_all.csv")),
        ("Keep/Groceries.html", _read("unseen10/notes/keep_html_only/Takeout/Keep/Groceries.html")),  # no JSON
        ("Keep/Shared shopping.html", _read("unseen12/notes/keep_html_sharees/Takeout/Keep/Shared shopping.html")),
        ("Journal/Ημερολόγιο.txt", _read("unseen12/notes/dayone_text_el/Ημερολόγιο.txt")),  # written dates
        ("Journal/Дневник.txt", _read("unseen13/notes/dayone_fields_ru/Дневник.txt")),  # fields named in Russian
        ("Home.enex", _read("unseen13/notes/enex_v10_tasks/Home.enex")),  # Evernote 10 tasks
        ("Journal/Dziennik.txt", _read("unseen14/notes/dayone_fields_pl/Dziennik.txt")),  # fields of no table
        ("Reminders.enex", _read("unseen14/notes/enex_reminders/Reminders.enex")),  # Evernote reminders
        ("d4e5f60718293a4b5c6d7e8f90a1b2c3.md", _read("unseen14/notes/joplin_raw_todo/d4e5f60718293a4b5c6d7e8f90a1b2c3.md")),
    ],
    "vcf": [
        ("contacts.vcf", _read("unseen3/vcf/outlook_21_photo.vcf")),
        ("sjis.vcf", _read("unseen3/vcf/softbank_sjis_raw.vcf")),
        ("related.vcf", _read("unseen2/vcf/related_names.vcf")),
        ("fold.vcf", _read("unseen4/vcf/fold_mid_character.vcf")),
        ("v40.vcf", _read("unseen4/vcf/v40_altid_pid.vcf")),
        ("rfc9554.vcf", _read("unseen10/vcf/rfc9554_v40.vcf")),
        ("mixed.vcf", _read("unseen12/vcf/mixed_charsets_21.vcf")),  # a code page per property
        ("outlook.vcf", _read("unseen12/vcf/outlook_21_qp_soft.vcf")),  # soft breaks, trailing spaces
        ("photo.vcf", _read("unseen12/vcf/photo_21_unindented.vcf")),  # base64 on unindented lines
        ("b.vcf", _read("unseen13/vcf/encoding_b_text_30.vcf")),  # base64 text properties
        ("b21.vcf", _read("unseen13/vcf/base64_text_21.vcf")),
        ("cut.vcf", _read("unseen14/vcf/windows_utf16_cut.vcf")),  # UTF-16 cut one byte short
        ("cards.zip", _zip_bytes({"a.zip": _zip_bytes({"Dan Lee.vcf": _read("unseen4/whatsapp_nested/Dan Lee.vcf")})})),
    ],
    "jsonl": [
        ("export.jsonl", b'{"content": "Ana likes tea", "memory_type": "semantic", "tags": ["people"]}\n'
                         b'{"content": "Ben moved to Porto", "event_at": "2024-03-12T09:15:00Z"}\n'),
    ],
}
ODD = ["\ufeff", "\x00", "\u2028", "\u200f", "\r", "\n", "\ud7ff", "\U0001f600", "\\", '"', "{", "[", "]", "}",
       ":", ",", "-", "BEGIN:VCARD\r\n", "[12/03/2024, 09:15:00] ", "12/03/2024, 09:15 - ", "=\r\n", "---\n"]


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """``seed`` after one to four random edits (or replaced by garbage altogether)."""
    data = bytearray(seed)
    if draw(st.integers(0, 19)) == 0:
        return draw(st.binary(max_size=300))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["cut", "flip", "insert", "delete", "dup", "odd"]))
        at = draw(st.integers(0, len(data)))
        if op == "cut":
            del data[at:]
        elif op == "flip" and data:
            at = min(at, len(data) - 1)
            data[at] = draw(st.integers(0, 255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        elif op == "dup":
            data[at:at] = data[at:at + draw(st.integers(1, 200))]
        else:
            data[at:at] = draw(st.sampled_from(ODD)).encode("utf-8", "surrogatepass")
    return bytes(data)


def _write(root: Path, name: str, data: bytes) -> Path:
    """The export as ``mem.py import`` would get it: a file, or (markdown) the folder holding it."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return root if "/" in name or name.endswith((".md", ".enex")) else path


def _one_line_naming(err: BaseException, path: Path) -> None:
    text = str(err)
    assert "\n" not in text and str(path) in text, text


CASES = [(kind, i) for kind, seeds in SEEDS.items() for i in range(len(seeds))]
# MEM_FUZZ_EXAMPLES=2000 for a deeper search (minutes); the suite's run takes a few seconds
EXAMPLES = int(os.environ.get("MEM_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize(("kind", "index"), CASES)
@FUZZ
@given(data=st.data())
def test_a_parser_fails_only_with_its_one_line_error(kind: str, index: int, data: st.DataObject) -> None:
    name, seed = SEEDS[kind][index]
    blob = data.draw(mutated(seed))
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), name, blob)
        try:
            for _ in PARSERS[kind].parse(path, ImportReport(str(path), kind)):
                pass
        except ImportFormatError as err:
            _one_line_naming(err, path)


def _memories(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])


@pytest.mark.parametrize("kind", sorted(SEEDS))
@settings(max_examples=max(1, EXAMPLES // 3), derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_import_of_a_broken_export_writes_nothing(kind: str, data: st.DataObject) -> None:
    name, seed = data.draw(st.sampled_from(SEEDS[kind]))
    blob = data.draw(mutated(seed))
    forced = data.draw(st.booleans())  # `mem.py import FORMAT PATH` or `mem.py import PATH`
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        store = MemoryStore(db)
        try:
            store.store_many([NewMemory(content="a memory from before the import", source="cli", ref="before")])
            before = _memories(db)
            path = _write(Path(tmp) / "in", name, blob)
            try:
                ingest.import_path(store, path, kind if forced else None)
            except UserError as err:
                assert "\n" not in err.message and err.message, err.message
                assert _memories(db) == before  # nothing half-written
        finally:
            store.close()
