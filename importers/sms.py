"""Text messages as SMS Backup & Restore (Android) writes them: an XML file (sms-<time>.xml) of ``<smses>``, each
``<sms>`` with its address, contact_name ("(Unknown)" for none), type (1 received, 2 sent, 3 draft, 4 outbox,
5 failed, 6 queued), date (ms since 1970) and body; each ``<mms>`` with msg_box (the same numbers), its parts
(text/plain parts are the words; images, videos, audio are media; SMIL is layout) and addrs (type 137: the
sender). The file is streamed element by element (a backup of years holds photos as base64).

The chat is the contact (a group MMS: its contacts), else the number; the sender is "me" for what the phone sent
(the backup names no owner), else the contact (a group MMS: the name at the sender's place among its addresses).
The time is the instant (``date``) with the offset the phone's own wall time beside it (``readable_date``) gives;
UTC when that is unreadable. Drafts are no messages (system). The call log (calls-<time>.xml) is refused by
detection: a call holds no words (see :mod:`importers.kinds`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from importers import ImportFormatError, ImportReport, Record
from importers._common import sha1_hex
from importers.chatturns import SYSTEM, Turn, Turns, epoch, zoned

NAME = "sms"
HEAD_RE = re.compile(r"^(?:\ufeff)?\s*<\?xml[^>]*\?>\s*(?:<!--.*?-->\s*|<\?xml-stylesheet[^>]*\?>\s*)*<smses[\s>]", re.DOTALL)
_SENT = {"2", "4", "5", "6"}  # sent, outbox, failed, queued: written by the phone's owner
_DRAFT = "3"
_FROM = "137"
_READABLE = ("%d/%m/%Y %H:%M:%S", "%m/%d/%Y %H:%M:%S", "%b %d, %Y %I:%M:%S %p", "%d %b %Y %H:%M:%S", "%Y-%m-%d %H:%M:%S",
             "%d.%m.%Y %H:%M:%S", "%b %d, %Y %H:%M:%S", "%d/%m/%Y %I:%M:%S %p", "%m/%d/%Y %I:%M:%S %p")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one SMS Backup & Restore file of messages, or of each in a folder; bad input: a one-line
    ImportFormatError."""
    if path.is_dir():
        files = [p for p in sorted(path.iterdir()) if p.is_file() and p.suffix.lower() == ".xml" and is_sms(p)]
        if not files:
            raise ImportFormatError("folder holds no SMS Backup & Restore file of messages (sms-*.xml)", str(path))
        for p in files:
            yield from parse(p, report)
        return
    where = str(path)
    turns = Turns(NAME, report)
    counts = {"sms": 0, "mms": 0}
    root_seen = False
    try:
        with path.open("rb") as raw:
            context = ElementTree.iterparse(_CharRefs(raw), events=("start", "end"))
            depth = 0
            root: ElementTree.Element | None = None
            for event, elem in context:
                if event == "start":
                    depth += 1
                    if depth == 1:
                        if elem.tag != "smses":
                            raise ImportFormatError(f"<{elem.tag[:40]}> is no <smses> of SMS Backup & Restore", where)
                        root_seen, root = True, elem
                    continue
                depth -= 1
                if depth != 1:
                    continue
                if elem.tag in counts:
                    counts[elem.tag] += 1
                    what = f"{elem.tag} {counts[elem.tag]}"
                    rec = _sms(elem, turns, what, where) if elem.tag == "sms" else _mms(elem, turns, what, where)
                    if rec is not None:
                        yield rec
                if root is not None:
                    root.clear()  # a message is done with: it, its parts (photos in base64) freed
    except ElementTree.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise ImportFormatError(f"invalid or truncated XML ({str(exc).split(':')[0]})", where, line) from None
    if not root_seen:
        raise ImportFormatError("no <smses> of SMS Backup & Restore in this file", where)


# SMS Backup & Restore writes a character past U+FFFF (an emoji) as the two numeric references of its UTF-16
# surrogates ("&#55357;&#56832;"), and keeps control characters of a message as references ("&#1;"): XML forbids
# both, so the reader would refuse the whole backup. They are made the character itself (a pair) or U+FFFD.
_REF_RE = re.compile(rb"&#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}));")


def _fix_ref(m: re.Match[bytes]) -> bytes:
    n = int(m.group(1), 16) if m.group(1) else int(m.group(2))
    if 0xD800 <= n <= 0xDFFF or (n < 0x20 and n not in (0x9, 0xA, 0xD)) or n in (0xFFFE, 0xFFFF) or n > 0x10FFFF:
        return b"&#65533;"
    return m.group(0)


_PAIR_RE = re.compile(rb"&#(5[56][0-9]{3});&#(5[67][0-9]{3});")
_HIGH_END_RE = re.compile(rb"&#5[56][0-9]{3};$")


def _fix_pair(m: re.Match[bytes]) -> bytes:
    high, low = int(m.group(1)), int(m.group(2))
    if 0xD800 <= high <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)).encode("utf-8")
    return m.group(0)


class _CharRefs:
    """The backup's bytes with its surrogate and control-character references fixed (:data:`_REF_RE`), read in
    chunks: a reference cut by a chunk's end waits for the next."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.tail = b""

    def read(self, size: int = 65536) -> bytes:
        """Up to about ``size`` bytes (never b"" before the end: the reader takes it for the end)."""
        while True:
            chunk = self.raw.read(max(size, 64))
            data, self.tail = self.tail + chunk, b""
            if chunk:  # the last 32 bytes from their first "&" wait: a reference (or a pair) may go on
                keep = data.find(b"&", max(0, len(data) - 32))
                if keep >= 0:
                    high = _HIGH_END_RE.search(data, max(0, keep - 9), keep)
                    keep = high.start() if high else keep  # the first of a pair waits with the second
                    data, self.tail = data[:keep], data[keep:]
                if not data:
                    continue
            if b"&#" in data:
                data = _REF_RE.sub(_fix_ref, _PAIR_RE.sub(_fix_pair, data))
            return data


def is_sms(path: Path) -> bool:
    """Whether ``path`` starts as an SMS Backup & Restore file of messages does (<smses> after the XML header)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    return bool(HEAD_RE.match(head))


def _when(elem: ElementTree.Element, what: str, where: str) -> datetime:
    """The instant of ``date``, with the offset ``readable_date`` (the phone's wall time) gives it."""
    instant = epoch(elem.get("date"), 1000, f'{what}: "date"', where)
    readable = (elem.get("readable_date") or "").strip()
    for fmt in _READABLE:
        try:
            local = datetime.strptime(readable, fmt)
        except ValueError:
            continue
        zoned_time = zoned(local, instant)
        if zoned_time is not instant:
            return zoned_time
    return instant


def _contact(elem: ElementTree.Element) -> tuple[str, list[str], list[str]]:
    """The chat's name, and the addresses and names of its contacts (in the same order, when they match)."""
    address = (elem.get("address") or "").strip()
    name = (elem.get("contact_name") or "").strip()
    addresses = [a.strip() for a in address.split("~") if a.strip()]
    names = [n.strip() for n in name.split(", ")] if name and name != "(Unknown)" else []
    thread = name if names else (address.replace("~", ", ") or "Unknown")
    return thread, addresses, names if len(names) == len(addresses) else []


def _sms(elem: ElementTree.Element, turns: Turns, what: str, where: str) -> Record | None:
    kind = elem.get("type") or "1"
    when = _when(elem, what, where)
    if kind == _DRAFT:
        turns.skip(SYSTEM)
        return None
    thread, addresses, names = _contact(elem)
    author = "me" if kind in _SENT else (names[0] if names else (addresses[0] if addresses else thread))
    body = elem.get("body") or ""
    meta: dict[str, Any] = {"address": elem.get("address") or ""}
    text = "" if body == "null" else body
    return turns.record(Turn(thread=thread, author=author, when=when, text=text, metadata=meta,
                             ref=_ref(thread, elem, author, text)))


def _mms(elem: ElementTree.Element, turns: Turns, what: str, where: str) -> Record | None:
    box = elem.get("msg_box") or "1"
    when = _when(elem, what, where)
    if box == _DRAFT:
        turns.skip(SYSTEM)
        return None
    thread, addresses, names = _contact(elem)
    words: list[str] = []
    media: list[str] = []
    for part in elem.iter("part"):
        ct = (part.get("ct") or "").lower()
        if ct == "text/plain":
            text = part.get("text") or ""
            if text and text != "null":
                words.append(text)
        elif ct and ct != "application/smil":
            label = next((v for v in (part.get("name"), part.get("cl"), part.get("fn")) if v and v != "null"), ct)
            media.append(label)
    if box in _SENT:
        author = "me"
    else:
        sender = next((a.get("address") or "" for a in elem.iter("addr") if a.get("type") == _FROM), "")
        author = sender or (addresses[0] if addresses else thread)
        if sender in addresses and names:
            author = names[addresses.index(sender)]
        elif len(addresses) == 1 and names and _same_number(sender, addresses[0]):
            author = names[0]
    meta: dict[str, Any] = {"address": elem.get("address") or ""}
    if media:
        meta["media"] = media
    subject = elem.get("sub") or ""
    if subject and subject != "null":
        words.insert(0, subject)
    text = "\n".join(words)
    return turns.record(Turn(thread=thread, author=author, when=when, text=text, metadata=meta,
                             ref=_ref(thread, elem, author, text)))


def _ref(thread: str, elem: ElementTree.Element, author: str, text: str) -> str:
    """A message's ref from what the backup says of it (chat, millisecond, sender, words): the same message in two
    backups is one memory, and no table of the refs made grows with the backup (two messages alike to the
    millisecond are one)."""
    return f"{NAME}:{thread}:{elem.get('date')}:{author}:{sha1_hex(text)[:12]}"


def _same_number(a: str, b: str) -> bool:
    da, db = re.sub(r"\D", "", a), re.sub(r"\D", "", b)
    return bool(da) and (da.endswith(db[-9:]) or db.endswith(da[-9:]))
