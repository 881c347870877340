"""Text that crosses into the store: valid Unicode, no NUL characters, bounded nesting.

Hostile or broken input (invalid UTF-8 bytes, lone surrogates from a careless API
caller, NUL bytes from a binary file, JSON nested 100k deep) must end as one
:class:`ValueError` with a message naming the field, never as an encoder error deep
inside SQLite or a RecursionError. Callers wrap the ValueError in their own error.
"""

from __future__ import annotations

import json
from typing import Any

MAX_TAG_CHARS = 100  # a tag is a label; longer text belongs in the content
MAX_JSON_DEPTH = 64  # metadata and bundles are shallow; deeper is hostile or broken


def check_text(value: str, field: str, strip_nul: bool = True) -> str:
    """``value`` if it is valid Unicode text, NUL characters removed (``strip_nul``).

    SQLite's text functions stop at the first NUL (``length('a\\0b')`` is 1), so a NUL
    would silently cut what is indexed and checked: they are dropped. A lone surrogate
    (``"\\ud800"``) cannot be stored as UTF-8: it is refused, with its position.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = value[exc.start]
        if 0xDC80 <= ord(bad) <= 0xDCFF:  # how Python carries an undecodable byte (surrogateescape)
            raise ValueError(f"{field}: not valid UTF-8 (byte 0x{ord(bad) - 0xDC00:02x} at position {exc.start}); "
                             "is the terminal or file in another encoding?") from None
        raise ValueError(f"{field}: lone surrogate U+{ord(bad):04X} at position {exc.start} is not text") from None
    if strip_nul and "\0" in value:
        value = value.replace("\0", "")
    return value


def decode_utf8(data: bytes, field: str) -> str:
    """``data`` decoded as UTF-8 (a BOM is dropped); refuses UTF-16 and binary with one line."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ValueError(f"{field}: UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{field}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def json_depth_ok(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if brackets in JSON ``text`` nest at most ``limit`` deep (strings skipped); linear, no recursion."""
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def loads(text: str, field: str, limit: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses nesting deeper than ``limit`` and invalid JSON with one ValueError."""
    if not json_depth_ok(text, limit):
        raise ValueError(f"{field}: JSON nested deeper than {limit} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{field}: invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise ValueError(f"{field}: JSON nested too deep") from None
