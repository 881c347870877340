"""What the parsers of chats written as web pages share (signal-export's HTML, Google Voice's Takeout pages): an
HTML parser that knows which classes are open around each piece of text, fed a page in chunks (a long chat is never
all in memory at once), and the text of a message as a reader sees it (source line breaks are spaces, ``<br>`` and
paragraphs are line breaks)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError

VOID = frozenset({"br", "img", "meta", "link", "hr", "input", "source", "col", "area", "base", "wbr", "embed", "param",
                  "track"})
_SPACES_RE = re.compile(r"[ \t\r\n\f]+")
CHUNK = 1 << 16


class ClassTree(HTMLParser):
    """An HTML parser that calls :meth:`opened` and :meth:`closed` with each element's tag, attributes and classes,
    and :meth:`text` with text, while :attr:`stack` holds the open elements' (tag, classes). Results go to
    :attr:`out`, drained by :func:`feed_file` after each chunk."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, frozenset[str]]] = []
        self.out: list[Any] = []
        self._open: dict[str, int] = {}  # class -> how many open elements carry it: inside() in O(1)

    def inside(self, cls: str) -> bool:
        """Whether an element of class ``cls`` is open."""
        return self._open.get(cls, 0) > 0

    def _push(self, tag: str, classes: frozenset[str]) -> None:
        self.stack.append((tag, classes))
        for c in classes:
            self._open[c] = self._open.get(c, 0) + 1

    def _pop(self) -> tuple[str, frozenset[str]]:
        tag, classes = self.stack.pop()
        for c in classes:
            self._open[c] -= 1
        return tag, classes

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        """An element opened (void ones too)."""

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        """An element closed (void ones right after they open)."""

    def text(self, data: str) -> None:
        """Text between tags, character references read."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        classes = frozenset(values.get("class", "").split())
        self.opened(tag, values, classes)
        if tag in VOID:
            self.closed(tag, classes)
        else:
            self._push(tag, classes)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        classes = frozenset(values.get("class", "").split())
        self.opened(tag, values, classes)
        self.closed(tag, classes)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                while len(self.stack) > i:  # elements left open inside it close with it
                    t, c = self._pop()
                    self.closed(t, c)
                return

    def handle_data(self, data: str) -> None:
        self.text(data)


def feed_file(path: Path, parser: ClassTree, max_bytes: int = 256 * 1024 * 1024) -> Iterator[Any]:
    """Feed ``path`` (UTF-8) to ``parser`` in chunks, yielding what it put in ``out`` after each; a file that is no
    UTF-8 or past ``max_bytes`` is a one-line error."""
    with path.open("rb") as fh:
        yield from feed_stream(fh, str(path), parser, max_bytes)


def feed_stream(fh: IO[bytes], where: str, parser: ClassTree, max_bytes: int = 256 * 1024 * 1024) -> Iterator[Any]:
    """:func:`feed_file` of an open binary stream (a zip's member), named ``where`` in errors."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
    read = 0
    while True:
        chunk = fh.read(CHUNK)
        read += len(chunk)
        if read > max_bytes:
            raise ImportFormatError(f"page larger than {max_bytes} bytes", where)
        try:
            text = decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            raise ImportFormatError(f"not UTF-8 text ({exc.reason})", where, parser.getpos()[0]) from None
        if text:
            parser.feed(text.replace(BREAK, ""))  # a NUL of the page is no line break
        if not chunk:
            parser.close()
        yield from parser.out
        parser.out.clear()
        if not chunk:
            return


def words(pieces: list[str]) -> str:
    """Text pieces of a message (``"\\n"`` pieces for ``<br>`` and paragraph ends) as its words: runs of source
    whitespace are one space, each line stripped, blank lines at either end dropped."""
    lines = [_SPACES_RE.sub(" ", line).strip() for line in "".join(pieces).split("\x00")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


BREAK = "\x00"  # a line break the page asked for (<br>, a paragraph's end), kept apart from source line ends


def text_chunks(fh: IO[bytes], where: str) -> Iterator[str]:
    """A page's text a chunk at a time, decoded as :func:`importers._common.decode_text` decodes a whole file (UTF-8
    with or without its BOM, UTF-16 with a BOM; binary data or an undecodable byte: the same one-line errors, the
    byte's line named)."""
    import codecs

    from importers._textlines import looks_binary

    first = fh.read(CHUNK)
    utf16 = first.startswith((b"\xff\xfe", b"\xfe\xff"))
    if utf16:
        decoder = codecs.getincrementaldecoder("utf-16")("strict")
    elif looks_binary(first):
        raise ImportFormatError("binary data, not a text export", where)
    else:
        decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
    chunk, lines = first, 1
    while True:
        try:
            text = decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as exc:
            if utf16:
                raise ImportFormatError(f"invalid UTF-16 text ({exc.reason})", where) from None
            at = max(0, min(len(chunk) - 1, exc.start - (len(exc.object) - len(chunk))))
            raise ImportFormatError(f"not UTF-8 or UTF-16 text (undecodable byte 0x{chunk[at]:02x}); re-export as "
                                    "UTF-8", where, lines + chunk[:at].count(b"\n")) from None
        if text:
            yield text
        if not chunk:
            return
        lines += chunk.count(b"\n")
        chunk = fh.read(CHUNK)


TAG_CHARS = 1024  # an element's opening tag is shorter than this: where a block's start is looked for again


def split_blocks(chunks: Iterator[str], start_re: re.Pattern[str]) -> Iterator[tuple[bool, str]]:
    """A page's text cut where ``start_re`` matches (the opening tag of a message's block), a piece at a time:
    ``(False, the text before the first block)`` — the whole text when no block starts — then ``(True, a block)``
    from one start to the next, the last to the page's end. Only one block is held at a time."""
    buf, pos, started, start = "", 0, False, 0  # start: where the block being read starts in buf
    for chunk in chunks:
        buf, pos, start = buf[start:] + chunk, pos - start, 0  # (trimmed once a chunk, not once a block)
        while (m := start_re.search(buf, pos)) is not None:
            yield started, buf[start:m.start()]
            started = True
            start, pos = m.start(), m.end()
        pos = max(pos, len(buf) - TAG_CHARS)  # no start in what is read: look again only where one could end
    yield started, buf[start:]
