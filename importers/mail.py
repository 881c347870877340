"""Email as people have it: a mailbox file (mbox: Gmail's Takeout "All mail Including Spam and Trash.mbox",
Thunderbird's folder files such as "Inbox" with no suffix, Apple Mail's exported "Name.mbox/mbox"), a single message
(.eml, as Outlook and every mail program save one; Apple Mail's own .emlx: :mod:`importers.emlx`), a folder of them, or a zip (a Takeout). Each message is a chat
turn: ``Sender Name: words``, its time the Date header with the sender's own offset, its thread the subject without
its "Re:", "AW:", "RE:", "Fwd:" (the words: :mod:`importers.mail_text`), its ref the Message-ID (the same message in
two mailboxes is one memory).

Left out as system: what Gmail filed as Spam or Promotions, messages Thunderbird marked deleted (they stay in the file
until it is compacted), delivery failure reports, drafts, mail sent in bulk or automatically ("Precedence: bulk",
"Auto-Submitted"); a message of files only is media. Gmail's "Sent" label marks the
owner's (``from_me``); the sender's name stays as the header writes it. A mailbox is read a message at a time (one
message at most ``MAX_MESSAGE_BYTES`` in memory; a larger one is left out with a warning), so its size is no limit."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime
from email import message_from_bytes
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses, parseaddr, parsedate_to_datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record, emlx
from importers._zips import ZIP_OPEN_ERRORS, is_junk_member
from importers.chatturns import SYSTEM, Turn, Turns
from importers.mail_sent import is_sent
from importers.mail_text import body, header_text

NAME = "mail"
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # a message with its attachments; past it: left out, with a warning
# "From ana@example.com Thu Mar 14 18:01:12 2024", Gmail's "From 1793…@xxx Thu Mar 14 18:01:12 +0000 2024",
# Thunderbird's "From - Thu Mar 21 08:15:00 2024"
FROM_LINE_RE = re.compile(rb"^From \S*\s+\S+ +\S+ +\d+ +\d+:\d+(?::\d+)?")
_HEADER_RE = re.compile(rb"^[!-9;-~]{1,76}:[ \t]?")
_EML_HEADS = re.compile(rb"^(?:Received|Return-Path|Delivered-To|MIME-Version|Message-ID|From|To|Subject|Date|Cc|"
                        rb"Reply-To|In-Reply-To|References|Content-Type|Thread-Topic|Thread-Index|X-[\w-]+)\s*:",
                        re.IGNORECASE | re.MULTILINE)
_SUBJECT_PREFIX_RE = re.compile(r"^\s*(?:(?:re|fw|fwd|aw|wg|sv|vs|antw|rif|r|i|enc|res|tr|odp|pd|ynt|ha|rv|vl|"
                                r"回复|答复|转发|回覆|轉寄|件名)\s*(?:\[\d+\])?\s*[:：]\s*)+", re.IGNORECASE)
Opener = Callable[[], AbstractContextManager[IO[bytes]]]


def is_mbox_head(head: bytes) -> bool:
    """Whether a file's first bytes are a mailbox's: a "From " line, then a header line."""
    lines = head.lstrip(b"\r\n").split(b"\n", 2)
    return len(lines) >= 2 and bool(FROM_LINE_RE.match(lines[0])) and bool(_HEADER_RE.match(lines[1]))


def is_eml_head(head: bytes) -> bool:
    """Whether a file's first bytes are one email's headers: three or more of the headers mail carries, From or
    Subject or Date among them, before the first blank line."""
    top = re.split(rb"\r?\n\r?\n", head.lstrip(b"\r\n\xef\xbb\xbf"), maxsplit=1)[0]
    names = {m.group(0).split(b":")[0].strip().lower() for m in _EML_HEADS.finditer(top)}
    return len(names) >= 3 and bool(names & {b"from", b"subject", b"date"}) and bool(_HEADER_RE.match(top))


def _head(path: Path) -> bytes:
    with path.open("rb") as fh:
        return fh.read(4096)


def is_mail_file(path: Path) -> bool:
    """A mailbox or a message by its first bytes (a .msf index, a table_of_contents are neither)."""
    try:
        head = _head(path)
    except OSError:
        return False
    if emlx.is_emlx_name(path.name):
        return emlx.is_emlx_head(head)
    return is_mbox_head(head) or (path.suffix.lower() == ".eml" and is_eml_head(head))


def mail_files(folder: Path, limit: int | None = None) -> list[Path]:
    """The mailboxes and messages below ``folder`` (hidden folders skipped), sorted; the first ``limit`` files of
    a mail program's names (.mbox, .eml, a file with no suffix, Apple's "mbox") looked at."""
    out = []
    looked = 0
    for p in sorted(folder.rglob("*")):
        if any(part.startswith(".") for part in p.relative_to(folder).parts) or not p.is_file():
            continue
        if p.suffix.lower() in (".mbox", ".eml", ".mbx", ".emlx") or p.suffix == "" or p.name == "mbox":
            looked += 1
            if is_mail_file(p):
                out.append(p)
            if limit is not None and looked >= limit:
                break
    return out


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a mailbox, a message, a folder of them or a zip of them; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        files = mail_files(path)
        if not files:
            raise ImportFormatError("folder holds no mailbox (mbox) nor message (.eml)", str(path))
        for f in files:
            yield from _file(_path_opener(f), str(f), f.suffix.lower() == ".eml", turns, report)
        return
    with path.open("rb") as fh:
        head = fh.read(4096)
    if head.startswith(b"PK\x03\x04"):
        yield from _zip(path, turns, report)
        return
    yield from _file(_path_opener(path), str(path), path.suffix.lower() == ".eml", turns, report)


def _path_opener(path: Path) -> Opener:
    return lambda: path.open("rb")


def _zip(path: Path, turns: Turns, report: ImportReport) -> Iterator[Record]:
    """The mailboxes and messages of a zip (a Google Takeout), each streamed from the archive."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = sorted(n for n in zf.namelist() if not n.endswith("/") and not is_junk_member(n)
                           and n.lower().endswith((".mbox", ".eml", ".emlx")))
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None
    if not names:
        raise ImportFormatError("zip holds no mailbox (.mbox) nor message (.eml)", str(path))
    for name in names:
        def opener(name: str = name) -> Any:
            return _ZipMember(path, name)
        yield from _file(opener, f"{path}!{name}", name.lower().endswith(".eml"), turns, report)


class _ZipMember:
    """A zip member opened as a context manager (the archive closed with it)."""

    def __init__(self, path: Path, name: str) -> None:
        self.path, self.name = path, name

    def __enter__(self) -> IO[bytes]:
        try:
            self.zf = zipfile.ZipFile(self.path)
            self.fh = self.zf.open(self.name)
        except ZIP_OPEN_ERRORS as exc:
            raise ImportFormatError(f"malformed zip archive ({exc})", str(self.path)) from None
        return self.fh

    def __exit__(self, *exc: object) -> None:
        self.fh.close()
        self.zf.close()


def _file(opener: Opener, where: str, eml: bool, turns: Turns, report: ImportReport) -> Iterator[Record]:
    if emlx.is_emlx_name(where):  # Apple Mail's store: a byte count, the message, Mail's flags
        with opener() as fh:
            data, left_out = emlx.read(fh, where, MAX_MESSAGE_BYTES)
        if left_out:
            turns.skip(SYSTEM)  # deleted, a draft, junk: as Thunderbird's deleted and Gmail's Spam
            return
        if not is_eml_head(data[:4096]):
            raise ImportFormatError("line 2: no email headers after the byte count", where)
        yield from _message(data, where, 2, turns, report)
        return
    with opener() as fh:
        head = fh.read(4096)
        if eml or not is_mbox_head(head):
            if not is_eml_head(head):
                what = "not a mailbox (no \"From \" line starts it)" if not eml else "no email headers at its start"
                raise ImportFormatError(what, where)
            data = head + fh.read(MAX_MESSAGE_BYTES + 1 - len(head))
            if len(data) > MAX_MESSAGE_BYTES:
                raise ImportFormatError(f"message larger than {MAX_MESSAGE_BYTES} bytes", where)
            yield from _message(data, where, 1, turns, report)
            return
        for line, data in _messages(head, fh, where, report):
            yield from _message(data, where, line, turns, report)


def _messages(head: bytes, fh: IO[bytes], where: str, report: ImportReport) -> Iterator[tuple[int, bytes]]:
    """(first line, bytes) of each message of a mailbox, its "From " line dropped and ">From " lines unquoted (mboxrd,
    as Gmail writes them); a new message starts at a "From " line after a blank line (or at the file's start)."""
    chunks: list[bytes] = []
    size = 0
    start = 0
    blank = True
    too_big = False
    lineno = 0
    pending = head

    def lines() -> Iterator[bytes]:
        nonlocal pending
        buf = pending
        while True:
            more = fh.read(1 << 20)
            buf += more
            parts = buf.split(b"\n")
            buf = parts.pop()
            yield from (p + b"\n" for p in parts)
            if not more:
                if buf:
                    yield buf
                return

    for raw in lines():
        lineno += 1
        if blank and raw.startswith(b"From ") and FROM_LINE_RE.match(raw):
            if lineno > 1:
                if too_big:
                    report.skipped_oversized += 1
                    report.warn(f"{where}:{start}: message larger than {MAX_MESSAGE_BYTES} bytes; left out", start)
                elif chunks:
                    yield start, b"".join(chunks)
            chunks, size, start, too_big = [], 0, lineno, False
            blank = False
            continue
        if lineno == 1:
            raise ImportFormatError("not a mailbox (no \"From \" line starts it)", where, 1)
        blank = raw in (b"\n", b"\r\n")
        if raw.startswith(b">") and raw.lstrip(b">").startswith(b"From "):
            raw = raw[1:]
        if not too_big:
            size += len(raw)
            if size > MAX_MESSAGE_BYTES:
                too_big, chunks = True, []
            else:
                chunks.append(raw)
    if too_big:
        report.skipped_oversized += 1
        report.warn(f"{where}:{start}: message larger than {MAX_MESSAGE_BYTES} bytes; left out", start)
    elif chunks:
        yield start, b"".join(chunks)


def _message(data: bytes, where: str, line: int, turns: Turns, report: ImportReport) -> Iterator[Record]:
    """The record of one message (or its skip)."""
    msg = message_from_bytes(data.rstrip(b"\r\n") + b"\n", policy=compat32)
    labels = [x.strip() for x in header_text(msg.get("X-Gmail-Labels")).split(",") if x.strip()]
    if _service(msg, labels):
        turns.skip(SYSTEM)
        return
    name, address = parseaddr(header_text(msg.get("From")))
    author = name.strip().strip('"') or address or "Unknown"
    subject = header_text(msg.get("Subject"))
    thread = _SUBJECT_PREFIX_RE.sub("", subject).strip() or "(no subject)"
    when = _date(msg, where, line, report)
    text, files, warnings = body(msg)
    for w in warnings:
        report.warn(f"{where}:{line}: {w}", line)
    msgid = header_text(msg.get("Message-ID")).strip().strip("<>").strip()
    metadata: dict[str, Any] = {"subject": subject, "from": address.lower()}
    to = [a.lower() for _, a in getaddresses([header_text(msg.get("To")), header_text(msg.get("Cc"))]) if a]
    if to:
        metadata["to"] = to
    if msgid:
        metadata["message_id"] = msgid
    if labels:
        metadata["labels"] = labels
    if any(lb.lower() == "sent" for lb in labels) or is_sent(where):  # Gmail's label; a sent mailbox's name
        metadata["from_me"] = True
    if files:
        metadata["attachments"] = files[:50]
        metadata["media"] = True
    reply = header_text(msg.get("In-Reply-To")).strip().strip("<>").strip()
    if reply:
        metadata["in_reply_to"] = reply
    rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, line=line, metadata=metadata,
                            ref=f"{NAME}:{msgid}" if msgid else None))
    if rec is not None:
        yield rec


def _service(msg: Message, labels: list[str]) -> bool:
    """Mail that is nobody's words to remember: Spam, drafts, what Thunderbird marked deleted, delivery reports, and
    mail a machine sent in bulk (Gmail's Promotions, "Precedence: bulk", an "Auto-Submitted" auto-reply or notice):
    a Takeout of years holds more of these than of letters, and each would bury the people's words in recall."""
    if any(lb.lower() in ("spam", "draft", "drafts", "category promotions") for lb in labels):
        return True
    auto = str(msg.get("Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return True
    if str(msg.get("Precedence") or "").strip().lower() in ("bulk", "junk"):
        return True
    status = str(msg.get("X-Mozilla-Status") or "").strip()
    if re.fullmatch(r"[0-9A-Fa-f]{4}", status) and int(status, 16) & 0x0008:
        return True
    ctype = msg.get_content_type()
    if ctype == "multipart/report" or (msg.get_param("report-type") or "") == "delivery-status":
        return True
    sender = parseaddr(header_text(msg.get("From")))[1].lower()
    return sender.split("@")[0] in ("mailer-daemon", "postmaster")


def _date(msg: Message, where: str, line: int, report: ImportReport) -> datetime | None:
    """The Date header as an aware time in the sender's offset; none or a damaged one: undated, with a warning."""
    value = header_text(msg.get("Date"))
    if value:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            when = None
        if when is not None:
            return when
    report.warn(f"{where}:{line}: message has no \"Date\" a time can be read from ({value[:40]!r}); kept undated", line)
    return None

