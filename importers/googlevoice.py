"""Google Voice as Google Takeout writes it: Takeout/Voice/Calls/, a web page per conversation or call, named
"<contact> - <kind> - <UTC time>.html" (kind Text, Voicemail, Missed, Received, Placed, Recorded; a group's
"Group Conversation - <time>.html"). A text conversation is a ``div.hChatLog`` of ``div.message``: ``abbr.dt``
whose title is the time with its offset ("2024-03-13T14:02:11.000-04:00"), ``cite.sender`` (its ``a.tel`` the
number, its ``.fn`` the name; the owner's is ``<abbr class="fn">Me</abbr>``: "me"), ``q`` the words (``<br/>``
a line break), an ``img``/``audio``/``video`` an MMS file (media). A group's page lists its members in
``div.participants`` (they name its chat). A call's page (``div.haudio``) is a service line, save a voicemail's
transcript (``span.full-text``): its caller's words.

The chat is the contact named by the file (its number when it has no name). Pages are read in chunks; Phones.vcf and
the other files of the Takeout are left alone."""

from __future__ import annotations

import re
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._htmlchat import BREAK, ClassTree, feed_file, words
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, ZIP_OPEN_ERRORS, is_junk_member, read_member
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, iso_date

NAME = "googlevoice"
HEAD_RE = re.compile(r'<div class="(?:hChatLog hfeed|haudio)"')
PAGE_RE = re.compile(r"^(?P<who>.+?) - (?P<kind>Text|Voicemail|Missed|Received|Placed|Recorded) - "
                     r"\d{4}-\d{2}-\d{2}T\d{2}_\d{2}_\d{2}Z\.html?$")
GROUP_RE = re.compile(r"^Group Conversation - \d{4}-\d{2}-\d{2}T\d{2}_\d{2}_\d{2}Z\.html?$")
_CALLS = ("Voice/Calls", "Calls", "Takeout/Voice/Calls")


def is_page_head(head: str) -> bool:
    """Whether a page's first bytes are a Google Voice page of the Takeout."""
    return bool(HEAD_RE.search(head))


def calls_folder(folder: Path) -> Path | None:
    """The Calls folder of a Takeout, of its Voice folder, or ``folder`` itself when it holds Voice's pages."""
    for rel in _CALLS:
        if (folder / rel).is_dir():
            return folder / rel
    pages = [p for p in folder.glob("*.html") if PAGE_RE.match(p.name) or GROUP_RE.match(p.name)]
    return folder if pages else None


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Google Voice page, a Takeout (folder or zip) holding them; bad input: a one-line
    ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        calls = calls_folder(path)
        if calls is None:
            raise ImportFormatError("folder holds no Google Voice pages (Takeout/Voice/Calls/*.html)", str(path))
        for p in sorted(calls.glob("*.htm*")):
            if p.is_file():
                yield from _page(p, p.name, str(p), turns)
    elif path.suffix.lower() == ".zip":
        yield from _zip(path, turns)
    else:
        yield from _page(path, path.name, str(path), turns)
    if not report.messages_seen:
        raise ImportFormatError("no Google Voice message or call in this export", str(path))


def takeout_records(path: Path, report: ImportReport) -> Iterator[Record]:
    """The Google Voice records of a whole Takeout (its folder or zip) read for Google Chat: one export of a user
    is imported whole; nothing when it holds no Voice pages."""
    if path.is_dir():
        calls = next((path / rel for rel in _CALLS if (path / rel).is_dir()), None)
        if calls is not None and any(calls.glob("*.htm*")):
            yield from parse(calls, report)
    elif path.suffix.lower() == ".zip":
        try:
            with zipfile.ZipFile(path) as zf:
                found = any(re.search(r"(?:^|/)Voice/Calls/[^/]+\.html?$", n) for n in zf.namelist())
        except ZIP_OPEN_ERRORS:
            found = False
        if found:
            yield from parse(path, report)


def _zip(path: Path, turns: Turns) -> Iterator[Record]:
    try:
        with zipfile.ZipFile(path) as zf:
            infos = sorted((i for i in zf.infolist() if not i.is_dir() and not is_junk_member(i.filename)
                            and re.search(r"(?:^|/)Voice/Calls/[^/]+\.html?$", i.filename)), key=lambda i: i.filename)
            for info in infos:
                data = read_member(zf, info, str(path), DEFAULT_MAX_MEMBER_BYTES)
                with tempfile.TemporaryDirectory() as tmp:  # a page is small; the parser reads files
                    page = Path(tmp) / "page.html"
                    page.write_bytes(data)
                    yield from _page(page, info.filename.rsplit("/", 1)[-1], f"{path}:{info.filename}", turns)
    except ImportFormatError:
        raise
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None


class _Page(ClassTree):
    """A page's messages (``("message", fields)``), its members (``("member", name)``) and its call
    (``("call", fields)``), in the page's order."""

    def __init__(self) -> None:
        super().__init__()
        self.cur: dict[str, Any] | None = None
        self.depth = 0
        self.fn: list[str] = []
        self.member: list[str] | None = None

    def opened(self, tag: str, attrs: dict[str, str], classes: frozenset[str]) -> None:
        if tag == "div" and ("message" in classes or "haudio" in classes) and self.cur is None:
            self.cur = {"kind": "message" if "message" in classes else "call", "when": None, "tel": "", "name": [],
                        "me": False, "q": [], "media": [], "line": self.getpos()[0], "summary": []}
            self.depth = len(self.stack)
            return
        if tag == "cite" and self.inside("participants") and self.cur is None:
            self.member = []
            return
        if self.cur is None:
            return
        if tag == "abbr" and ("dt" in classes or "published" in classes) and self.cur["when"] is None:
            self.cur["when"] = attrs.get("title", "")
        elif tag == "a" and "tel" in classes:
            self.cur["tel"] = attrs.get("href", "").removeprefix("tel:")
        elif tag == "abbr" and "fn" in classes and self.inside("sender"):
            self.cur["me"] = True  # the owner's name is an abbr, the others' a span
        elif tag == "br" and (self.inside("full-text") or self._in("q")):
            self._add("q", BREAK)
        elif tag in ("img", "audio", "video") and (self.cur["kind"] == "message"):
            self.cur["media"].append(attrs.get("src", "").rsplit("/", 1)[-1] or tag)

    def closed(self, tag: str, classes: frozenset[str]) -> None:
        if self.member is not None and tag == "cite":
            self.out.append(("member", words(self.member)))
            self.member = None
        elif self.cur is not None and tag == "div" and len(self.stack) == self.depth:
            self.out.append((self.cur["kind"], self.cur))
            self.cur = None

    def text(self, data: str) -> None:
        if self.member is not None and self.inside("fn"):
            self.member.append(data)
        if self.cur is None:
            return
        if self.inside("fn") and (self.inside("sender") or self.inside("contributor")):
            self.cur["name"].append(data)
        elif self._in("q") or self.inside("full-text"):
            self._add("q", data)
        elif self.cur["kind"] == "call" and self.stack and "fn" in self.stack[-1][1] and len(self.stack) == self.depth + 1:
            self.cur["summary"].append(data)  # "Voicemail from Ana Sousa", "Missed call from …"

    def _in(self, tag: str) -> bool:
        return any(t == tag for t, _ in reversed(self.stack[self.depth:]))

    def _add(self, key: str, data: str) -> None:
        assert self.cur is not None
        self.cur[key].append(data)


def _page(path: Path, name: str, where: str, turns: Turns) -> Iterator[Record]:
    m = PAGE_RE.match(name)
    thread = m.group("who") if m else name.rsplit(".", 1)[0]
    members: list[str] = []
    n = 0
    for kind, item in feed_file(path, _Page()):
        if kind == "member":
            members.append(item)
            continue
        n += 1
        if not isinstance(item, dict):
            continue
        if GROUP_RE.match(name) and members:
            thread = ", ".join(members)
        if item["when"] is None:
            raise ImportFormatError(f"{'message' if kind == 'message' else 'call'} {n}: no time (abbr.dt)", where,
                                    item["line"])
        when = iso_date(item["when"], f"{'message' if kind == 'message' else 'call'} {n}: \"title\"",
                        f"{where}:{item['line']}")
        author = "me" if item["me"] else (words(item["name"]) or item["tel"] or "Unknown")
        text = words(item["q"])
        if kind == "call":
            if not text:
                turns.skip(SYSTEM if not (m and m.group("kind") == "Voicemail") else MEDIA)
                continue
            if not m:
                thread = author
            meta: dict[str, Any] = {"voicemail": True}
        else:
            meta = {"media": item["media"]} if item["media"] else {}
        if item["tel"]:
            meta["phone"] = item["tel"]
        rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, metadata=meta, line=item["line"]))
        if rec is not None:
            yield rec
    if n == 0:
        raise ImportFormatError("no message of Google Voice in this page (div.message, div.haudio)", where)

