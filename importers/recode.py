"""Text exports that are not UTF-8, turned into UTF-8 as they stream: a JSON export saved as UTF-16
(Notepad's "Unicode", PowerShell's ``Out-File``, .NET's ``Encoding.Unicode``) is read like any other,
never refused for its encoding."""

from __future__ import annotations

import codecs
import io
from typing import IO, Any

from importers import ImportFormatError


def utf16_codec(head: bytes) -> str | None:
    """The UTF-16 codec of JSON bytes, told by the file itself: a byte order mark (Notepad's
    "Unicode", PowerShell's ``Out-File``), or, without one, a NUL beside each of the first ASCII
    characters (``[\\x00{\\x00``: little-endian; ``\\x00[\\x00{``: big-endian). None for UTF-8."""
    if head.startswith(b"\xff\xfe"):
        return "utf-16"
    if head.startswith(b"\xfe\xff"):
        return "utf-16"
    pairs = head[:8]
    if len(pairs) >= 4 and pairs[1::2] == b"\x00" * (len(pairs) // 2) and b"\x00" not in pairs[0::2]:
        return "utf-16-le"
    if len(pairs) >= 4 and pairs[0::2] == b"\x00" * (len(pairs) // 2) and b"\x00" not in pairs[1::2]:
        return "utf-16-be"
    return None


class Recoded(io.RawIOBase):
    """UTF-8 bytes of a stream in another encoding (a UTF-16 export), decoded a read at a time;
    broken UTF-16 is a one-line error naming ``where``."""

    def __init__(self, raw: IO[bytes], codec: str, where: str) -> None:
        self._raw = raw
        self._decoder = codecs.getincrementaldecoder(codec)("strict")
        self._where = where
        self._out = b""
        self._eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._out and not self._eof:
            chunk = self._raw.read(1 << 16)
            self._eof = not chunk
            try:
                text = self._decoder.decode(chunk, self._eof)
            except UnicodeDecodeError as exc:
                raise ImportFormatError(f"invalid UTF-16 text ({exc.reason})", self._where) from None
            self._out = text.lstrip("\ufeff").encode("utf-8", "surrogatepass") if text else b""
        n = min(len(buffer), len(self._out))
        buffer[:n] = self._out[:n]
        self._out = self._out[n:]
        return n
