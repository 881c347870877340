"""VK (VKontakte)'s data archive (vk.com/data_protection > "Request archive"): a zip, or the folder it unpacks to,
whose ``messages/<peer id>/messages<N>.html`` pages hold a chat 50 messages a page (the newest page and the newest
message first), in Windows-1251 as their ``<meta … charset>`` says. A message is ``<div class="message"
data-id="…">`` holding ``<div class="message__header"><a href="https://vk.com/id…">Name</a>, 12 мар 2024 в
21:35:10</div>`` and its words, then ``<div class="kludges">`` with its attachments (``attachment__description``:
"Фотография", "Ссылка"…). The owner's header names no profile ("Вы", "You"): ``from_me``. An edited message's date
ends "(ред.)" / "(edited)": ``metadata["edited"]``. The chat is named by the page's last ``ui_crumb``.

Times are the wall time the archive writes, in words of the account's language (Russian, Ukrainian, English month
names): no zone is said, so none is made up (naive). A chat's messages are read in time order (then by id). A message
of only attachments is media. A page that ends before ``</html>`` (cut), or a date that is no date: a one-line error
naming the page and the line. Read a page at a time (a page is 50 messages)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._htmlchat import BREAK, ClassTree, words
from importers._tree import Tree
from importers.chatturns import MEDIA, Turn, Turns

NAME = "vk"
PAGE_RE = re.compile(r"messages\d+\.html?", re.IGNORECASE)
MEMBER_RE = re.compile(r"(?:^|/)messages/(-?\d+)/(messages\d+\.html?)$", re.IGNORECASE)
_CHARSET_RE = re.compile(rb"<meta[^>]+charset=[\"']?([\w-]+)", re.IGNORECASE)
_HEAD_RE = re.compile(r'class="message__header"|class="ui_crumb"[^>]*>[^<]*</div>.*class="message"', re.DOTALL)
_YOU = {"вы", "you", "ви", "ты", "сіз", "jūs"}
_MONTHS = {
    **dict.fromkeys(("янв", "января", "январь", "січ", "січня", "jan", "january"), 1),
    **dict.fromkeys(("фев", "февраля", "февраль", "лют", "лютого", "feb", "february"), 2),
    **dict.fromkeys(("мар", "марта", "март", "бер", "березня", "mar", "march"), 3),
    **dict.fromkeys(("апр", "апреля", "апрель", "квіт", "квітня", "apr", "april"), 4),
    **dict.fromkeys(("мая", "май", "трав", "травня", "may"), 5),
    **dict.fromkeys(("июн", "июня", "июнь", "черв", "червня", "jun", "june"), 6),
    **dict.fromkeys(("июл", "июля", "июль", "лип", "липня", "jul", "july"), 7),
    **dict.fromkeys(("авг", "августа", "август", "серп", "серпня", "aug", "august"), 8),
    **dict.fromkeys(("сен", "сент", "сентября", "сентябрь", "вер", "вересня", "sep", "sept", "september"), 9),
    **dict.fromkeys(("окт", "октября", "октябрь", "жовт", "жовтня", "oct", "october"), 10),
    **dict.fromkeys(("ноя", "ноября", "ноябрь", "лист", "листопада", "nov", "november"), 11),
    **dict.fromkeys(("дек", "декабря", "декабрь", "груд", "грудня", "dec", "december"), 12),
}
_DATE_RE = re.compile(r"^(\d{1,2}) ([^\W\d_]+)\.? (\d{4})(?: г\.)?,? (?:в|о|at|um) (\d{1,2}):(\d{2})(?::(\d{2}))?"
                      r"(?: ?([ap])\.?m\.?)?$", re.IGNORECASE)
_EN_DATE_RE = re.compile(r"^([^\W\d_]+)\.? (\d{1,2}),? (\d{4}),? (?:at )?(\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([ap])\.?m\.?)?$",
                         re.IGNORECASE)
_EDITED_RE = re.compile(r"\s*\((?:ред\.?|edited|змінено|ред)\)\s*$", re.IGNORECASE)
MAX_PAGE_BYTES = 64 * 1024 * 1024


def is_page_head(head: str) -> bool:
    """Whether a page's first bytes are a VK archive's chat page."""
    return bool(_HEAD_RE.search(head))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a chat page, a peer's folder, the archive's messages folder, the archive or its zip; bad input: a
    one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_file() and path.suffix.lower() in (".html", ".htm"):
        yield from _chat([(path.name, path.read_bytes, str(path))], path.parent.name, turns)
        return
    tree = Tree(path)
    chats: dict[str, list[str]] = {}
    for name in tree.names:
        m = MEMBER_RE.search(name)
        if m is None and PAGE_RE.fullmatch(name.rsplit("/", 1)[-1]) and "/" not in name:
            chats.setdefault(path.name, []).append(name)  # a peer's own folder
        elif m is not None:
            chats.setdefault(str(PurePosixPath(name).parent), []).append(name)
    if not chats:
        raise ImportFormatError("no chat page of a VK archive (messages/<id>/messages0.html)", str(path))
    for peer_dir in sorted(chats, key=lambda d: (len(d), d)):
        pages = [(n.rsplit("/", 1)[-1], (lambda n=n: tree.read(n, MAX_PAGE_BYTES)), tree.where(n)) for n in chats[peer_dir]]
        yield from _chat(pages, peer_dir.rsplit("/", 1)[-1], turns)


def _chat(pages: list[tuple[str, Any, str]], peer: str, turns: Turns) -> Iterator[Record]:
    """A chat's messages from all its pages, in time order."""
    found: list[tuple[datetime, int, dict[str, Any]]] = []
    name = ""
    for _base, read, where in sorted(pages, key=lambda p: int(re.sub(r"\D", "", p[0]) or 0)):
        data = read()
        if len(data) > MAX_PAGE_BYTES:
            raise ImportFormatError(f"page larger than {MAX_PAGE_BYTES} bytes", where)
        page = _Page(where)
        page.feed(_decode(data, where).replace("\r\n", "\n"))
        page.close()
        if not page.ended:
            raise ImportFormatError("the page ends before </html> (cut?)", where, page.getpos()[0])
        name = name or page.crumb
        for msg in page.out:
            when, edited = _when(msg["header_date"], where, msg["line"])
            msg["edited"], msg["where"] = edited, where
            found.append((when, msg["id"], msg))
    thread = name or peer
    for when, mid, msg in sorted(found, key=lambda t: (t[0], t[1])):
        author = msg["author"] or "Unknown"
        metadata: dict[str, Any] = {"peer_id": peer}
        if not msg["linked"] and author.lower() in _YOU:
            metadata["from_me"] = True
        if msg["edited"]:
            metadata["edited"] = True
        text = words(msg["body"])
        if msg["attachments"]:
            if not text.strip():
                turns.skip(MEDIA)
                continue
            metadata["attachments"] = msg["attachments"][:50]
        rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, metadata=metadata,
                                ref=f"{NAME}:{peer}:{mid}" if mid >= 0 else None, line=msg["line"]))
        if rec is not None:
            yield rec


def _decode(data: bytes, where: str) -> str:
    m = _CHARSET_RE.search(data[:4096])
    codec = m.group(1).decode("ascii", "replace").lower() if m else "windows-1251"
    try:
        return data.decode(codec)
    except LookupError:
        return data.decode("windows-1251", "replace")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(f"not {codec} text as the page says ({exc.reason})", where,
                                data[: exc.start].count(b"\n") + 1) from None


def _is_date(text: str) -> bool:
    text = _EDITED_RE.sub("", text).strip()
    return bool(_DATE_RE.match(text) or _EN_DATE_RE.match(text))


def _when(date: str, where: str, line: int) -> tuple[datetime, bool]:
    """The wall time of a header's date, and whether it says the message was edited."""
    edited = bool(_EDITED_RE.search(date))
    text = _EDITED_RE.sub("", date).strip()
    m = _DATE_RE.match(text)
    parts: tuple[str, ...] | None = None
    if m:
        parts = (m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6) or "0", m.group(7) or "")
    else:
        e = _EN_DATE_RE.match(text)
        if e:
            parts = (e.group(2), e.group(1), e.group(3), e.group(4), e.group(5), e.group(6) or "0", e.group(7) or "")
    month = _MONTHS.get(parts[1].lower().rstrip(".")) if parts else None
    try:
        if parts is None or month is None:
            raise ValueError
        hour = int(parts[3])
        if parts[6]:
            hour = hour % 12 + (12 if parts[6].lower() == "p" else 0)
        return datetime(int(parts[2]), month, int(parts[0]), hour, int(parts[4]), int(parts[5])), edited
    except ValueError:
        raise ImportFormatError(f'"{text[:60]}" is no date', where, line) from None


class _Page(ClassTree):
    """A VK chat page: its messages (header, words, attachments) and its chat name."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.crumb = ""
        self.ended = False
        self._msg: dict[str, Any] | None = None
        self._depth = 0  # open elements inside the current message
        self._where = ""  # "header", "body", "desc", "crumb" or ""
        self._header: list[str] = []
        self._crumb: list[str] = []

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        if "ui_crumb" in classes:
            self._where, self._crumb = "crumb", []
        if self._msg is None:
            if tag == "div" and "message" in classes:
                try:
                    mid = int(attrs.get("data-id", "-1"))
                except ValueError:
                    mid = -1
                self._msg = {"id": mid, "line": self.getpos()[0], "author": "", "linked": False, "header_date": "",
                             "body": [], "attachments": [], "desc": []}
                self._depth = 0
            return
        if tag not in ("br", "img", "hr", "meta", "link", "input", "wbr"):
            self._depth += 1
        if "message__header" in classes:
            self._where, self._header = "header", []
        elif self._where == "header" and tag == "a":
            self._msg["linked"] = True
        elif "attachment__description" in classes:
            self._where = "desc"
            self._msg["desc"] = []
        elif tag == "br" and self._where == "body" and not self.inside("kludges"):
            self._msg["body"].append(BREAK)

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        if tag == "html":
            self.ended = True
        if "ui_crumb" in classes and self._where == "crumb":
            self.crumb = " ".join("".join(self._crumb).split())
            self._where = ""
            return
        msg = self._msg
        if msg is None or tag in ("br", "img", "hr", "meta", "link", "input", "wbr"):
            return
        if "message__header" in classes:
            header = " ".join("".join(self._header).split())
            cuts = [m.start() for m in re.finditer(", ", header)]
            if not cuts:
                raise ImportFormatError(f"message header {header[:60]!r} holds no date", self.where, msg["line"])
            # the name ends at the first ", " after which a date is read ("Mar 12, 2024" has its own comma)
            at = next((c for c in cuts if _is_date(header[c + 2:])), cuts[-1])
            msg["author"], msg["header_date"] = header[:at].strip(), header[at + 2:].strip()
            self._where = "body"
        elif "attachment__description" in classes:
            msg["attachments"].append(" ".join("".join(msg["desc"]).split()))
            self._where = "body"
        if self._depth == 0:  # the message's own div closed
            self.out.append(msg)
            self._msg, self._where = None, ""
            return
        self._depth -= 1

    def text(self, data: str) -> None:
        if self._where == "crumb":
            self._crumb.append(data)
        elif self._msg is None:
            return
        elif self._where == "header":
            self._header.append(data)
        elif self._where == "desc":
            self._msg["desc"].append(data)
        elif self._where == "body" and not self.inside("kludges"):
            self._msg["body"].append(data)
