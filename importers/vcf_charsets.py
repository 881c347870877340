"""The code pages of a vCard file (read by :mod:`importers.vcf`): UTF-8 as written, folds that split a UTF-8
character undone, and address books from before UTF-8.

vCard 2.1 lets each property name its own code page (``N;CHARSET=ISO-8859-7;ENCODING=8BIT:…``), so one file
can hold a Greek card written in ISO-8859-7 beside a Russian one in Windows-1251 (phones that merged SIM and
phone contacts write such files). Such a file is read line by line, each line in the code page its property
declares (:func:`per_property`), without a warning: nothing is wrong with it. A file whose odd bytes are in no
declared code page is read as before: in the first code page the cards declare when the whole file decodes so,
else Windows-1252, with one warning naming the first odd line."""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable
from typing import IO, Any

from importers import ImportFormatError, ImportReport
from importers._common import decodes_as, iter_lines, legacy_codec, windows_1252

_CHARSET_RE = re.compile(rb";CHARSET=([A-Za-z][A-Za-z0-9_-]{1,30})", re.IGNORECASE)
CHARSET_SCAN_BYTES = 4 * 1024 * 1024  # of a non-UTF-8 file, looked through for a CHARSET parameter
LINE_PIECE = 1 << 20  # a line is read in pieces of this many bytes (a photo's line can be long)


def _declared_codec(opener: Callable[[], IO[bytes]]) -> tuple[str, str] | None:
    """(codec, name as written) of the first legacy CHARSET the cards declare (Japanese phones write
    raw ``N;CHARSET=SHIFT_JIS:`` bytes), when Python knows it; None otherwise."""
    seen = b""
    with opener() as fh:
        while len(seen) < CHARSET_SCAN_BYTES and (chunk := fh.read(1 << 16)):
            seen = seen[-64:] + chunk  # a parameter cut between two chunks is found whole
            for m in _CHARSET_RE.finditer(seen):
                name = m.group(1).decode("ascii")
                try:
                    codec = codecs.lookup(name).name
                except LookupError:
                    continue
                if codec not in ("utf-8", "utf-8-sig", "ascii"):
                    return codec, name
    return None


_SPLIT_FOLD_RE = re.compile(rb"\r?\n[ \t](?=[\x80-\xbf])")


class _JoinSplitCharacters(io.RawIOBase):
    """A vCard's bytes with the folds that split a UTF-8 character undone: RFC 6350 folds lines at 75
    octets, and writers that count octets cut "Ø" (C3 98) into "\\xc3" CRLF SPACE "\\x98", which no
    decoder reads line by line. A fold before a continuation byte (0x80-0xBF, which starts no
    character) is always such a cut; unfolding it is what any vCard reader does. Streamed: the
    last bytes of a read wait for the next, so a fold across reads is found too."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._out = b""
        self._tail = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._out:
            chunk = self._raw.read(1 << 16)
            data = self._tail + chunk
            if not chunk:
                self._out, self._tail = _SPLIT_FOLD_RE.sub(b"", data), b""
                break
            data = _SPLIT_FOLD_RE.sub(b"", data)
            self._out, self._tail = data[:-3], data[-3:]
        n = min(len(buffer), len(self._out))
        buffer[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


def joined(opener: Callable[[], IO[bytes]]) -> Callable[[], IO[bytes]]:
    """``opener`` through :class:`_JoinSplitCharacters`."""
    return lambda: io.BufferedReader(_JoinSplitCharacters(opener()), 1 << 16)  # type: ignore[arg-type]


def _codec_of(head: bytes) -> str | None:
    """The codec a property line's own CHARSET parameter names (in its head, before the value), or None."""
    m = _CHARSET_RE.search(head.split(b":", 1)[0])
    if not m:
        return None
    try:
        return codecs.lookup(m.group(1).decode("ascii")).name
    except LookupError:
        return None


def _pieces(fh: IO[bytes]) -> Any:
    """(piece, starts a line) of a stream's lines, each line in pieces of at most LINE_PIECE bytes."""
    start = True
    while piece := fh.readline(LINE_PIECE):
        yield piece, start
        start = piece.endswith(b"\n")


def _recode(piece: bytes, codec: str | None, strict: bool) -> bytes | None:
    """``piece`` as UTF-8: as it is when it is UTF-8, else in ``codec``; None (strict) when neither reads it."""
    try:
        piece.decode("utf-8")
        return piece
    except UnicodeDecodeError:
        pass
    if codec is None:
        return None if strict else piece.decode("utf-8", "replace").encode("utf-8")
    try:
        return piece.decode(codec, "strict" if strict else "replace").encode("utf-8")
    except (UnicodeDecodeError, ValueError):
        return None


def _per_property_lines(fh: IO[bytes], strict: bool) -> Any:
    """The stream's lines as UTF-8, each in the code page its property names (a folded line in its
    property's); with ``strict``, None at the first line that no such code page reads."""
    codec: str | None = None
    for piece, starts in _pieces(fh):
        if starts and piece[:1] not in (b" ", b"\t"):
            codec = _codec_of(piece)
        yield _recode(piece, codec, strict)


def per_property(opener: Callable[[], IO[bytes]]) -> Callable[[], IO[bytes]] | None:
    """``opener`` recoded to UTF-8 line by line, each line in the code page its property declares; None when
    some line that is not UTF-8 declares no code page that reads it (then the file is read as a whole)."""
    with opener() as fh:
        if any(line is None for line in _per_property_lines(fh, True)):
            return None

    class _Lines(io.RawIOBase):
        def __init__(self) -> None:
            self._fh = opener()
            self._lines = _per_property_lines(self._fh, False)
            self._out = b""

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            while not self._out:
                line = next(self._lines, None)
                if line is None:
                    break
                self._out = line
            n = min(len(buffer), len(self._out))
            buffer[:n] = self._out[:n]
            self._out = self._out[n:]
            return n

        def close(self) -> None:
            self._fh.close()
            super().close()

    return lambda: io.BufferedReader(_Lines(), 1 << 16)  # type: ignore[arg-type]


def decoded(opener: Callable[[], IO[bytes]], file: str, report: ImportReport) -> Callable[[], IO[bytes]]:
    """``opener`` as UTF-8 bytes: UTF-8 as it is; a file whose other lines each declare their code page read
    so (:func:`per_property`); else an address book from before UTF-8 read in the code page its cards declare
    (``CHARSET=SHIFT_JIS``) when the whole file decodes so, else as Windows-1252 (Outlook writes 2.1 cards in
    the Windows code page: "N:M\\xfcller"), with a warning naming the first undecodable line; not refused."""
    try:
        with opener() as fh:
            for _ in iter_lines(fh, file):
                pass
        return opener
    except ImportFormatError as exc:
        if not exc.reason.startswith("not UTF-8"):
            raise
        by_property = per_property(opener)
        if by_property is not None:
            return by_property
        declared = _declared_codec(opener)
        if declared is not None and decodes_as(opener, declared[0]):
            report.warn(f"{exc.reason.split(';')[0]}; read as {declared[1]} (its CHARSET)", exc.line)
            return windows_1252(opener, declared[0])
        codec, name = legacy_codec(opener)
        report.warn(f"{exc.reason.split(';')[0]}; read as {name}", exc.line)
    return windows_1252(opener, codec)


# A text property in base64: vCard 3.0's ``NOTE;ENCODING=b:…`` and 2.1's ``FN;CHARSET=UTF-8;ENCODING=BASE64:…``
# (older Sony and Android phones wrote names so). Decoded to the text it holds, in its CHARSET (UTF-8 when it
# names none), before the card is read; a blob (a photo, a key) stays as it is, unread.
_B64_PARAM_RE = re.compile(r";(?:ENCODING=)?(?:B|BASE64)(?=[;:])", re.IGNORECASE)
_B64_LOGICAL_RE = re.compile(r"\r?\n(?![ \t])")
_TEXT_ESCAPED = {"FN", "NOTE", "TITLE", "ROLE"}  # one text each: a decoded "," or ";" is the text's own


def base64_text(card: str, blobs: set[str]) -> str:
    """``card`` with each base64 value of a text property (not in ``blobs``) replaced by its text, escaped as a
    vCard value is; a value that is no base64, or decodes to bytes no text has, stays as written."""
    if not _B64_PARAM_RE.search(card):
        return card
    out: list[str] = []
    for logical in _B64_LOGICAL_RE.split(card):
        head, sep, value = logical.partition(":")
        name = head.split(";", 1)[0].split(".")[-1].upper()
        if not sep or name in blobs or not _B64_PARAM_RE.search(head + ":"):
            out.append(logical)
            continue
        text = _b64_decoded(re.sub(r"\s+", "", value), head)
        if text is None:
            out.append(logical)
            continue
        text = text.replace("\\", "\\\\").replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
        if name in _TEXT_ESCAPED:
            text = text.replace(",", "\\,").replace(";", "\\;")
        params = [p for p in head.split(";")[1:] if not re.fullmatch(r"(?:ENCODING=)?(?:B|BASE64)|CHARSET=.*", p, re.I)]
        out.append(";".join([head.split(";", 1)[0], *params]) + ":" + text)
    return "\r\n".join(out)


def _b64_decoded(value: str, head: str) -> str | None:
    import base64
    import binascii

    try:
        data = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    if b"\x00" in data:
        return None  # a blob under a text property's name
    charset = re.search(r";CHARSET=([A-Za-z][A-Za-z0-9_-]{1,30})", head, re.IGNORECASE)
    for codec in ([charset.group(1)] if charset else []) + ["utf-8"]:
        try:
            return data.decode(codec)
        except (LookupError, UnicodeDecodeError):
            continue
    return data.decode("cp1252", "replace")
