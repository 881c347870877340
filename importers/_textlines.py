"""Text exports read a capped line at a time (split out of :mod:`importers._common`): the encoding
(UTF-8 with or without a BOM, UTF-16 with one; binary data refused), :func:`iter_lines`, and the
legacy code pages a file saved as "ANSI" (or by a Japanese phone) is read with."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from importers import ImportFormatError, codepages
from importers.recode import utf16_codec

# Resource caps (README "Bounded resources"): parsers read line by line and never hold a
# line, a message or a JSON string past these, whatever the input, so memory stays bounded.
MAX_LINE_CHARS = 1_000_000  # one physical line of a text export; longer: its message is refused


def capped_lines(fh: IO[bytes], where: str, cap: int = MAX_LINE_CHARS) -> Iterator[tuple[int, bytes]]:
    """Each raw line of ``fh`` (bytes, its end kept) with its number from 1; a line past ``cap`` bytes is refused
    by its number, so a file of one huge line is never read whole."""
    lineno = 0
    while True:
        raw = fh.readline(cap + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > cap and not raw.endswith(b"\n"):
            raise ImportFormatError(f"line longer than {cap} bytes", where, lineno)
        yield lineno, raw


def looks_binary(data: bytes) -> bool:
    """True when a byte string is plainly not text (NULs without a UTF-16 BOM)."""
    head = data[:8192]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    return b"\x00" in head


STRAY_NULS = 1000  # bytes of text per NUL a damaged text file may hold; more is binary data
_CONTROL_RE = re.compile(rb"[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]")  # no text's: tab, line ends, form feed, ESC are


def damaged_text(head: bytes) -> bool:
    """True when the NULs in the first bytes of a text export are damage, not binary data: text comes
    first, and the NULs are a tail (a copy cut by a crash leaves a zero-filled block) or a few strays
    (at most 8, or one per STRAY_NULS bytes of text), and the rest is UTF-8 with no control character
    text has no use for. Binary files hold NULs throughout, control bytes and bytes UTF-8 has no use for;
    UTF-16 is told before this (:func:`importers.recode.utf16_codec`)."""
    body = head.rstrip(b"\x00")
    if not body.strip() or body[:1] == b"\x00" or body.count(b"\x00") > max(8, len(body) // STRAY_NULS) \
            or _CONTROL_RE.search(body):
        return False
    try:  # not final: the head may end inside a character
        codecs.getincrementaldecoder("utf-8")("strict").decode(body.replace(b"\x00", b""), False)
    except UnicodeDecodeError:
        return False
    return True


@dataclass
class Line:
    """One physical line of a text export: its number (1-based), its text without the
    line break, and its full length in characters (> len(text) when it was over the cap)."""

    no: int
    text: str
    length: int

    @property
    def overlong(self) -> bool:
        """True when the line was longer than the cap and ``text`` is only its start."""
        return self.length > len(self.text)


_NEWLINE_RE = re.compile(r"\r\n|\r|\n")  # CRLF, CR or LF end a line; U+2028 stays inside a message
READ_CHUNK = 1 << 16


def _encoding(raw: IO[bytes], where: str) -> tuple[str, bytes]:
    """(codec, first bytes already read) for export bytes: UTF-16 with a BOM, or without one when a NUL
    stands beside each of its first ASCII characters (a Windows tool's "Unicode"), else UTF-8 (BOM
    optional). Binary data (NULs that are no damage: :func:`damaged_text`) and empty files are refused."""
    head = raw.read(READ_CHUNK)
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        more = raw.read(READ_CHUNK)
        if not more:
            raise ImportFormatError("empty file", where)
        head += more
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16", head
    bare = utf16_codec(head[:8])
    if bare is not None:
        return bare, head
    if looks_binary(head) and not damaged_text(head):
        raise ImportFormatError("binary data, not a text export", where)
    return "utf-8-sig", head


NUL_TAIL = "NUL bytes at the end of the file (a copy cut short?); dropped"
NUL_STRAY = "NUL bytes inside lines; dropped"
CUT_CHAR = "the file ends inside a character (cut short?); the broken bytes are dropped"


class _Nuls:
    """Where a text's NULs were (dropped as they pass): the line of the first, and whether text followed."""

    def __init__(self) -> None:
        self.line = 0
        self.text_after = False

    def drop(self, text: str, line: int) -> str:
        """``text`` without its NULs, noting the first one's line (``line``: the line ``text`` starts on)."""
        if not self.line:
            before, _, rest = text.partition("\x00")
            self.line = line + len(_NEWLINE_RE.findall(before))
            self.text_after = bool(rest.replace("\x00", "").strip())
        elif not self.text_after:
            self.text_after = bool(text.replace("\x00", "").strip())
        return text.replace("\x00", "")


def iter_lines(raw: IO[bytes], where: str, cap: int = MAX_LINE_CHARS,
               damage: list[tuple[int, str]] | None = None) -> Iterator[Line]:
    """Lines of a text export, streamed: never more than ``cap`` characters of one line in memory.

    A longer line yields its first ``cap`` characters with its true ``length`` (the caller
    refuses what it belongs to, loudly). Undecodable bytes raise a one-line error naming the line.
    A copy damaged on the way is read with its damage dropped, each kind noted once in ``damage``
    as (line, what): NUL bytes (a zero-filled tail, or strays), a last character cut in two.
    """
    encoding, chunk = _encoding(raw, where)
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    nuls = _Nuls()
    no = 0
    buf = ""
    length = 0
    pending_cr = False
    while True:
        final = not chunk
        try:
            text = decoder.decode(chunk, final)
        except UnicodeDecodeError as exc:
            if final and exc.reason in ("unexpected end of data", "truncated data"):
                # the first bytes of a character cut in two by the copy: dropped. UTF-8's lead bytes, UTF-16's odd
                # byte or lone high surrogate: only the file's end can hold them (damage inside the text stays an error)
                if damage is not None:
                    damage.append((no + 1, CUT_CHAR))
                if length:
                    yield Line(no + 1, buf, length)
                break
            line = no + 1 + chunk[: max(0, exc.start)].count(b"\n")
            if encoding.startswith("utf-16"):  # a BOM (or NULs beside ASCII) said UTF-16: broken UTF-16, not another code page
                raise ImportFormatError(f"invalid UTF-16 text ({exc.reason})", where, line) from None
            raise ImportFormatError(f"not UTF-8 or UTF-16 text ({exc.reason}); re-export as UTF-8", where, line) from None
        if "\x00" in text:
            text = nuls.drop(text, no + 1)
        pos = 1 if pending_cr and text.startswith("\n") else 0
        pending_cr = False
        for m in _NEWLINE_RE.finditer(text, pos):
            seg = text[pos:m.start()]
            length += len(seg)
            if len(buf) < cap:
                buf += seg[: cap - len(buf)]
            no += 1
            yield Line(no, buf, length)
            buf, length = "", 0
            pos = m.end()
            pending_cr = m.group() == "\r" and pos == len(text)
        seg = text[pos:]
        length += len(seg)
        if len(buf) < cap:
            buf += seg[: cap - len(buf)]
        if final:
            if length:
                yield Line(no + 1, buf, length)
            break
        chunk = raw.read(READ_CHUNK)
    if nuls.line and damage is not None:
        damage.insert(0, (nuls.line, NUL_STRAY if nuls.text_after else NUL_TAIL))


def windows_1252(opener: Callable[[], IO[bytes]], codec: str = "cp1252") -> Callable[[], IO[bytes]]:
    """``opener`` re-coded from Windows-1252 (or ``codec``) to UTF-8, streamed: a file saved by
    Notepad as "ANSI" (or written by Outlook, or a Japanese phone in Shift_JIS) before UTF-8.
    Undecodable bytes (the code page's five undefined ones) read as U+FFFD: this never fails."""

    def recoded() -> IO[bytes]:
        return codecs.EncodedFile(opener(), "utf-8", codec, errors="replace")  # type: ignore[return-value]

    return recoded


def legacy_codec(opener: Callable[[], IO[bytes]]) -> tuple[str, str]:
    """(codec, name) to read a text export that is not valid UTF-8 with: ``utf-8`` (bad bytes as
    U+FFFD) when it is UTF-8 with a few damaged bytes (its valid multi-byte characters outnumber
    the bad bytes: reading it as a code page would garble every one of them), else the code page its first
    bytes read as (:func:`importers.codepages.guess`: Windows-1252 for a Western file saved as "ANSI", 1251
    for a Russian one, Shift_JIS for a Japanese one ...)."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    wide = bad = 0
    head = bytearray()
    with opener() as fh:
        while chunk := fh.read(READ_CHUNK):
            if len(head) < codepages.SAMPLE_BYTES:
                head += chunk[:codepages.SAMPLE_BYTES - len(head)]
            text = decoder.decode(chunk)
            bad += text.count("\ufffd")
            wide += sum(1 for ch in text if ch > "\x7f") - text.count("\ufffd")
    if wide > bad:
        return "utf-8", "UTF-8, undecodable bytes as U+FFFD"
    return codepages.guess(bytes(head))


def decodes_as(opener: Callable[[], IO[bytes]], codec: str) -> bool:
    """True when the whole stream decodes strictly as ``codec`` (read a chunk at a time)."""
    decoder = codecs.getincrementaldecoder(codec)("strict")
    try:
        with opener() as fh:
            while chunk := fh.read(READ_CHUNK):
                decoder.decode(chunk)
        decoder.decode(b"", True)
    except (UnicodeDecodeError, ValueError):
        return False
    return True


def read_utf8(path: Path, cap: int, what: str, advice: str) -> str:
    """The whole of ``path`` as UTF-8 text (a BOM dropped), for a reader that needs a file at once: past ``cap`` bytes
    "<what> larger than <cap> bytes", undecodable "not UTF-8 text (<why>)<advice>" at the line of the first bad byte
    (each reader keeps its own words: a page, a thread; "export the chat again")."""
    where = str(path)
    with path.open("rb") as fh:
        data = fh.read(cap + 1)
    if len(data) > cap:
        raise ImportFormatError(f"{what} larger than {cap} bytes", where)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"not UTF-8 text ({exc.reason}){advice}", where,
                                data[: exc.start].count(b"\n") + 1) from None
