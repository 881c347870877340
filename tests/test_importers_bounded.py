"""Bounded resources: parsers stream and refuse (loudly) what is over a documented cap.

Checked by sizes, never by time: a line over the cap comes out as its first MAX_LINE_CHARS
characters with its true length, and its message is refused with a warning naming the line.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from importers import ImportReport, whatsapp
from importers._common import MAX_LINE_CHARS, iter_lines


class _Endless(io.RawIOBase):
    """``size`` bytes of one character, made on the fly (never held in memory)."""

    def __init__(self, size: int, char: bytes = b"a") -> None:
        self.left = size
        self.block = char * (1 << 16)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        n = min(len(buffer), self.left, len(self.block))
        buffer[:n] = self.block[:n]
        self.left -= n
        return n


def test_a_line_of_any_length_holds_at_most_the_cap() -> None:
    size = 20 * MAX_LINE_CHARS
    lines = list(iter_lines(io.BufferedReader(_Endless(size)), "x"))
    assert len(lines) == 1
    assert (lines[0].no, len(lines[0].text), lines[0].length, lines[0].overlong) == (1, MAX_LINE_CHARS, size, True)


def test_line_breaks_crlf_cr_lf_and_not_u2028() -> None:
    data = "a\r\nb\rc\nd\u2028e\n\nlast".encode()
    got = [(ln.no, ln.text) for ln in iter_lines(io.BufferedReader(io.BytesIO(data)), "x")]  # type: ignore[arg-type]
    assert got == [(1, "a"), (2, "b"), (3, "c"), (4, "d\u2028e"), (5, ""), (6, "last")]


def test_whatsapp_message_over_the_line_cap_is_refused_loudly(tmp_path: Path) -> None:
    p = tmp_path / "chat.txt"
    long = "b" * (MAX_LINE_CHARS + 5)
    p.write_text(f"18/03/2022, 14:56 - Ana: hello\n18/03/2022, 14:57 - Ben: {long}\n"
                 "18/03/2022, 14:58 - Ana: after\n", encoding="utf-8")
    report = ImportReport(str(p), "whatsapp")
    recs = list(whatsapp.parse(p, report))
    assert [r.content for r in recs] == ["Ana: hello", "Ana: after"]
    assert (report.messages_seen, report.skipped_oversized) == (3, 1)
    assert report.warnings == [f"{p}:2: message refused: a line of {len(long) + 25} characters (cap {MAX_LINE_CHARS});"
                               " split it in the export or import it by hand"]


def test_whatsapp_zip_of_one_character_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    p = tmp_path / "chat.zip"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf, zf.open("_chat.txt", "w") as f:
        for _ in range(8):
            f.write(b"a" * MAX_LINE_CHARS)
    report = ImportReport(str(p), "whatsapp")
    try:
        list(whatsapp.parse(p, report))
    except whatsapp.ImportFormatError as exc:
        assert str(exc) == (f"{p}!_chat.txt:1: no WhatsApp message header found (expected '[date, time] Name: text'"
                            " or 'date, time - Name: text')")
    else:
        raise AssertionError("a chat without a header imported")


def test_utf16_markdown_with_a_bom_is_text_not_mojibake(tmp_path: Path) -> None:
    from importers import markdown

    for codec in ("utf-16", "utf-16-be"):
        p = tmp_path / f"{codec}.md"
        data = "# Notes\n\nCafé with Zoë on Friday.\n".encode(codec)
        p.write_bytes(data if codec == "utf-16" else b"\xfe\xff" + data)
        recs = list(markdown.parse(p, ImportReport(str(p), "markdown")))
        assert [r.content for r in recs] == ["Notes: Café with Zoë on Friday."]


def test_markdown_note_over_the_cap_is_skipped_loudly_in_a_folder(tmp_path: Path, monkeypatch) -> None:
    from importers import markdown

    monkeypatch.setattr(markdown, "MAX_NOTE_BYTES", 100)
    (tmp_path / "small.md").write_text("# A\n\nshort note\n", encoding="utf-8")
    (tmp_path / "big.md").write_text("# B\n\n" + "long " * 100 + "\n", encoding="utf-8")
    report = ImportReport(str(tmp_path), "markdown")
    assert [r.content for r in markdown.parse(tmp_path, report)] == ["A: short note"]
    assert report.skipped_oversized == 1
    assert report.warnings == [f"{tmp_path}: big.md: note of 506 bytes, over the 100-byte limit; skipped"]


def test_a_memory_over_the_store_limit_is_split_at_line_breaks_with_a_warning() -> None:
    from importers import Record
    from importers.registry import MAX_PARTS, MAX_RECORD_BYTES, within_cap
    from memengine.writes import MAX_CONTENT_BYTES

    assert MAX_RECORD_BYTES <= MAX_CONTENT_BYTES - 1024  # room for an alias's "Name: " (ingest)
    line = "x" * 1000
    body = "\n".join([line] * 1500)  # ~1.5 MB
    rec = Record(content=f"Ana: {body}", ref="r1", source="whatsapp", author="Ana", line=7)
    report = ImportReport("chat.txt", "whatsapp")
    parts = list(within_cap(rec, report))
    assert [p.ref for p in parts] == ["r1", "r1#part2"]
    assert all(p.content.startswith("Ana: ") for p in parts)
    assert all(len(p.content.encode()) <= MAX_RECORD_BYTES for p in parts)
    assert "\n".join(p.content[5:] for p in parts) == body  # nothing lost, cut between lines
    assert [p.metadata for p in parts] == [{"part": 1, "parts": 2}, {"part": 2, "parts": 2}]
    assert report.warnings == [f"chat.txt:7: r1: {len(rec.content.encode())} bytes, over the {MAX_RECORD_BYTES}-byte "
                               "limit of a memory; split into 2 parts"]
    huge = Record(content="y" * (MAX_RECORD_BYTES * (MAX_PARTS + 1)), ref="r2", source="whatsapp")
    report = ImportReport("chat.txt", "whatsapp")
    assert list(within_cap(huge, report)) == [] and report.skipped_oversized == 1


def test_formats_are_listed_once() -> None:
    import re

    from importers.registry import NAMES

    root = Path(__file__).resolve().parent.parent
    listing = re.compile(r"[\"']whatsapp[\"'],\s*[\"']chatgpt[\"']|whatsapp, chatgpt")
    hits = [str(p.relative_to(root)) for p in [*root.glob("*.py"), *root.glob("importers/*.py"),
                                               *root.glob("memengine/**/*.py")]
            if listing.search(p.read_text(encoding="utf-8"))]
    assert hits == []  # the only list is importers/registry.py's table of ParserSpec(...)
    assert NAMES == ("whatsapp", "chatgpt", "claude", "markdown", "vcf", "jsonl", "telegram", "slack", "discord", "messenger",
                     "imessage", "line", "kakaotalk", "sms", "googlechat", "signal", "skype", "viber", "wechat", "threema",
                     "matrix", "twitter", "googlevoice", "zoom", "snapchat", "mail", "linkedin", "tinder", "hinge",
                     "mattermost", "reddit", "gemini", "zulip", "deepseek", "grok", "lechat", "rocketchat",
                     "characterai", "copilot", "perplexity", "vk", "imazing", "daylio", "diaro")


def test_vcard_with_a_photo_past_the_cap_keeps_the_contact(tmp_path: Path) -> None:
    from importers import vcf

    p = tmp_path / "c.vcf"
    photo = "A" * (MAX_LINE_CHARS + 10)
    p.write_text(f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana\r\nPHOTO;ENCODING=b:{photo}\r\n {photo[:70]}\r\n"
                 "TEL:+34 600\r\nEND:VCARD\r\n", encoding="utf-8")
    recs = list(vcf.parse(p, ImportReport(str(p), "vcf")))
    assert [r.content for r in recs] == ["Contact: Ana — phone +34 600"]
