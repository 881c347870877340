"""Bad input: every parser raises a one-line ImportFormatError naming the file, before yielding."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from importers import ImportFormatError, ImportReport
from importers.detect import PARSERS, detect

FIX = Path(__file__).parent / "fixtures"


def first(kind: str, path: Path) -> object:
    return next(iter(PARSERS[kind](path, ImportReport(str(path), kind))), None)


@pytest.mark.parametrize("kind", ["whatsapp", "chatgpt", "claude", "vcf"])
def test_empty_file(kind: str, tmp_path: Path) -> None:
    p = tmp_path / "empty.txt"
    p.write_bytes(b"")
    with pytest.raises(ImportFormatError) as err:
        first(kind, p)
    assert str(p) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("kind", ["whatsapp", "chatgpt", "claude", "vcf"])
def test_binary_file(kind: str, tmp_path: Path) -> None:
    p = tmp_path / "blob.bin"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(ImportFormatError, match="binary"):
        first(kind, p)


def test_non_utf8_chat_is_read_as_windows_1252_naming_the_line(tmp_path: Path) -> None:
    # a chat re-saved as "ANSI" (as markdown notes and vCards before it): read, loudly, not refused
    p = tmp_path / "latin1.txt"
    p.write_bytes("01/02/23, 10:00 - A: ok\n01/02/23, 10:01 - B: caf\xe9\n".encode("latin-1"))
    rep = ImportReport(str(p), "whatsapp")
    recs = list(PARSERS["whatsapp"].parse(p, rep))
    assert [r.content for r in recs] == ["A: ok", "B: café"]
    assert rep.warnings == [f"{p}:2: not UTF-8 or UTF-16 text (invalid continuation byte); read as Windows-1252"]


def test_wrong_format_for_whatsapp(tmp_path: Path) -> None:
    p = tmp_path / "notes.txt"
    p.write_text("just some prose\nwith no headers\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="no WhatsApp message header"):
        first("whatsapp", p)


@pytest.mark.parametrize("kind", ["chatgpt", "claude"])
def test_truncated_json(kind: str, tmp_path: Path) -> None:
    p = tmp_path / "conversations.json"
    p.write_text('[{"uuid": "x", "mapping": {"a": {"id": "a"', encoding="utf-8")
    with pytest.raises(ImportFormatError, match="truncated JSON"):
        list(PARSERS[kind](p, ImportReport(str(p), kind)))


def test_not_json(tmp_path: Path) -> None:
    p = tmp_path / "conversations.json"
    p.write_text("hello", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="not a JSON export"):
        first("chatgpt", p)


def test_malformed_zip(tmp_path: Path) -> None:
    p = tmp_path / "chat.zip"
    p.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(ImportFormatError, match="malformed zip"):
        first("whatsapp", p)
    with pytest.raises(ImportFormatError, match="malformed zip"):
        first("chatgpt", p)


def test_zip_slip_in_json_export(tmp_path: Path) -> None:
    p = tmp_path / "export.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("conversations.json", "[]")
        zf.writestr("/abs/evil.json", "{}")
    with pytest.raises(ImportFormatError, match="unsafe member name"):
        first("chatgpt", p)


def test_json_member_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "export.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.write(FIX / "chatgpt" / "conversations.json", "conversations.json")
    with pytest.raises(ImportFormatError, match="size limit"):
        list(PARSERS["chatgpt"](p, ImportReport(str(p), "chatgpt"), max_member_bytes=1000))


def test_no_vcard(tmp_path: Path) -> None:
    p = tmp_path / "x.vcf"
    p.write_text("hello\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="BEGIN:VCARD"):
        first("vcf", p)


def test_detect(tmp_path: Path) -> None:
    assert detect(FIX / "whatsapp" / "ios_mdy_12h.txt") == "whatsapp"
    assert detect(FIX / "chatgpt" / "conversations.json") == "chatgpt"
    assert detect(FIX / "chatgpt") == "chatgpt"
    assert detect(FIX / "claude" / "conversations.json") == "claude"
    assert detect(FIX / "markdown" / "notes") == "markdown"
    assert detect(FIX / "markdown" / "notes" / "MEMORY.md") == "markdown"
    assert detect(FIX / "vcf" / "contacts.vcf") == "vcf"
    j = tmp_path / "mem.jsonl"
    j.write_text(json.dumps({"content": "hi", "tags": []}) + "\n", encoding="utf-8")
    assert detect(j) == "jsonl"
    z = tmp_path / "chat.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.write(FIX / "whatsapp" / "ja.txt", "_chat.txt")
    assert detect(z) == "whatsapp"
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="tried whatsapp, chatgpt, claude, markdown, vcf, jsonl"):
        detect(bad)
