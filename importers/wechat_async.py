"""WechatExporter's "load messages asynchronously" output, for :mod:`importers.wechat_exporter`: the chat's page is a
frame holding no message, and loads its messages from scripts in its own files folder (``<chat>_files/Data/msg-1.js``
…), each adding the messages' HTML to an array (``msgArray = msgArray.concat([...])``): the same message divs as the
synchronous page, as JavaScript string literals.

The layout was written from memory of the exporter, not from a page at hand (tests/fixtures/unseen29/README.md): the
reader takes every string literal of the page's own scripts that is a message's HTML, in file order, whatever the
variable is called. A script outside the page's folder (the app's ``../res/jquery.js``) is none of the chat's. A
script cut (a string or a bracket left open at its end) is a one-line error naming the page and the script."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from importers import ImportFormatError

# A script the page loads from its own files: "王芳_files/Data/msg-1.js" (not "../res/jquery-3.4.1.min.js")
OWN_SCRIPT_RE = re.compile(r'<script[^>]+src="(?!\.\./|/|[a-z]+:)[^"]*_files/[^"]+\.js"', re.IGNORECASE)
MAX_SCRIPT_BYTES = 256 * 1024 * 1024
_OPEN, _CLOSE = "[{(", "]})"
_MESSAGE_HTML_RE = re.compile(r"^\s*<div\b[^>]*\bmsg\b", re.IGNORECASE)


def own_scripts(page: Path, sources: list[str]) -> list[Path]:
    """The scripts of ``sources`` (a page's ``<script src>`` values) that lie in the page's own folder, in order."""
    base = page.parent.resolve()
    out = []
    for src in sources:
        if not src.lower().endswith(".js") or src.startswith(("/", "../")) or "://" in src:
            continue
        target = (page.parent / src).resolve()
        if base in target.parents and target.is_file():
            out.append(target)
    return out


def message_html(script: Path, page: str) -> Iterator[str]:
    """The message HTML strings of one script, in order; a script cut or not UTF-8: a one-line error."""
    data = script.read_bytes()[: MAX_SCRIPT_BYTES + 1]
    if len(data) > MAX_SCRIPT_BYTES:
        raise ImportFormatError(f"script {script.name} larger than {MAX_SCRIPT_BYTES} bytes", page)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"script {script.name} is not UTF-8 text ({exc.reason})", page) from None
    for literal in _literals(text, script.name, page):
        if _MESSAGE_HTML_RE.match(literal):
            yield literal


# A script's tokens that matter: a string literal (a line at most), a line comment, a bracket; a quote no literal
# closes on its line is a string cut.
_TOKEN_RE = re.compile(r"""(?P<s>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|//[^\n]*|(?P<o>[\[{(])|(?P<c>[\]})])|(?P<cut>["'])""")


def _literals(text: str, name: str, page: str) -> Iterator[str]:
    """The string literals of a script, decoded; a string or bracket open at the end: the script is cut."""
    depth = 0
    for m in _TOKEN_RE.finditer(text):
        if m.group("s") is not None:
            literal = m.group("s")
            yield _decode(literal, literal[0])
        elif m.group("o") is not None:
            depth += 1
        elif m.group("c") is not None:
            depth -= 1
        elif m.group("cut") is not None:
            line = text.count("\n", 0, m.start()) + 1
            raise ImportFormatError(f"script {name} cut inside a message (a string left open at line {line}); "
                                    "export the chat again", page)
    if depth > 0:
        raise ImportFormatError(f"script {name} cut inside its messages (a bracket left open); export the chat again",
                                page)


def _decode(literal: str, quote: str) -> str:
    """A JS string literal's value (JSON's escapes; a single-quoted one read as JSON after swapping its quotes)."""
    if quote == "'":
        literal = '"' + literal[1:-1].replace('\\"', '"').replace('"', '\\"').replace("\\'", "'") + '"'
    try:
        value = json.loads(literal)
    except ValueError:
        return literal[1:-1]
    return value if isinstance(value, str) else literal[1:-1]
