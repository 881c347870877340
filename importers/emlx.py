"""Apple Mail's own store: one ``.emlx`` per message (``~/Library/Mail/V10/<account>/INBOX.mbox/<id>/Data/…/Messages/
123.emlx``, ``123.partial.emlx`` when Mail kept the attachments apart). Its first line is the message's length in
bytes; the message (RFC 822) follows; then a property list whose ``flags`` integer says what Mail knows of it (bit 1:
deleted, bit 6: a draft, bit 24: junk). Only the framing is read here; :mod:`importers.mail` reads the message."""

from __future__ import annotations

import re
from typing import IO

from importers import ImportFormatError

SUFFIX = ".emlx"
_COUNT_RE = re.compile(rb"^\s*(\d{1,12})[ \t]*\r?\n")
_FLAGS_RE = re.compile(rb"<key>flags</key>\s*<integer>(\d{1,20})</integer>")
_DELETED, _DRAFT, _JUNK = 1 << 1, 1 << 6, 1 << 24


def is_emlx_name(name: str) -> bool:
    """Whether a file's name is an .emlx's (``12.emlx``, ``12.partial.emlx``)."""
    return name.lower().endswith(SUFFIX)


def is_emlx_head(head: bytes) -> bool:
    """Whether a file's first bytes are an .emlx's: a byte count on its own line, then a mail header."""
    m = _COUNT_RE.match(head)
    return m is not None and re.match(rb"[!-9;-~]{1,76}:", head[m.end():m.end() + 80]) is not None


def read(fh: IO[bytes], where: str, max_bytes: int) -> tuple[bytes, bool]:
    """(the message's bytes, whether Mail marked it deleted, a draft or junk) of an open .emlx; a first line that is no
    byte count, or a count past the file's end or past ``max_bytes``: a one-line ImportFormatError."""
    first = fh.readline(64)
    m = _COUNT_RE.match(first)
    if m is None:
        raise ImportFormatError(f"line 1: no byte count of the message ({first[:20]!r}): not an Apple Mail .emlx", where)
    size = int(m.group(1))
    if size > max_bytes:
        raise ImportFormatError(f"line 1: byte count {size} is past {max_bytes} bytes", where)
    data = fh.read(size)
    if len(data) < size:
        raise ImportFormatError(f"line 1: byte count {size} runs past the file's end ({len(data)} bytes follow): "
                                "truncated", where)
    flags = _FLAGS_RE.search(fh.read(65536))
    value = int(flags.group(1)) if flags else 0
    return data, bool(value & (_DELETED | _DRAFT | _JUNK))
