"""LINE chats as the app's "Send chat history" writes them in text (phone and PC, any UI language): a header
("[LINE] Chat history with Ana", "[LINE] 田中とのトーク履歴", "[LINE] ประวัติการแชทกับ …") and a "Saved on" line, then
day lines ("2024/03/13(Wed)", "Wed, 03/13/2024", "2024.03.13 Wednesday", "พ., 20/03/2024") and a line per message:
time, name and text separated by tabs ("15:00", "3:05 PM", "午後3:05"). A message of several lines is written in
double quotes ("" for a quote inside). A line of a time and one field (or an empty name) is a service line (joins,
leaves, unsent messages); "☎ …" is a call; a whole message in brackets ("[Sticker]", "[写真]") is media.

Times are the phone's wall time (naive). Day-first or month-first: the file's own day lines tell (a number over
12); when none does, an English export writes the month first, the others the day. The chat is named by the
header, else by the file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import iter_lines
from importers.chatturns import SYSTEM, Turn, Turns

NAME = "line"
HEAD_RE = re.compile(r"^\ufeff?\[LINE\] ")
_CHAT_RES = (
    re.compile(r"^\[LINE\] (?:Chat history with|Chat history in|Chats? with|Chat in) (.+)$", re.IGNORECASE),
    re.compile(r"^\[LINE\] (.+?) ?とのトーク履歴$"),
    re.compile(r"^\[LINE\] (.+?)のトーク履歴$"),
    re.compile(r"^\[LINE\] ประวัติการแชทกับ ?(.+)$"),
    re.compile(r"^\[LINE\] (.+?) ?(?:님과의 대화|와의 대화|과의 대화)$"),
    re.compile(r"^\[LINE\] (?:與|与)(.+?) ?的聊天[記记]錄?录?$"),
    re.compile(r"^\[LINE\] (.+?) ?的聊天[記记]錄?录?$"),
    # other UI languages: the name after their "with" ("Riwayat obrolan dengan Ana", "Historial de chat con Ana")
    re.compile(r"^\[LINE\] .{0,40}?\b(?:with|in|dengan|con|avec|mit|com|med|met|z|với)\s+(.+)$", re.IGNORECASE),
    re.compile(r"^\[LINE\] (.+)$"),
)
# a day line: year first ("2024/03/13(Wed)", "2024.03.13 Wednesday") or last ("Wed, 03/13/2024", "20/03/2024")
_YMD_RE = re.compile(r"(?<!\d)(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?!\d)")
_XXY_RE = re.compile(r"(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)")
# the time of a message: "15:00", "15.00", "3:05 PM", "03:05PM", "午後3:05", "오후 3:05"
# (a dot in locales that write times so: Indonesian "15.00", Finnish, Danish)
_TIME_RE = re.compile(r"^(?:(午前|午後|AM|PM|오전|오후|上午|下午)\s?)?(\d{1,2})[:.](\d{2})(?:[:.]\d{2})?(?:\s?([AaPp])\.?[Mm]\.?)?$")
_PM = {"午後", "PM", "오후", "下午"}
_MEDIA_RE = re.compile(r"^\[[^\[\]\n]{1,40}\]$")
_CALL_RE = re.compile(r"^☎")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one LINE text export, or of each in a folder; bad input: a one-line ImportFormatError."""
    if path.is_dir():
        files = [p for p in sorted(path.iterdir()) if p.is_file() and p.suffix.lower() == ".txt" and is_line(p)]
        if not files:
            raise ImportFormatError("folder holds no LINE chat export (\"[LINE] Chat history with …\")", str(path))
        for p in files:
            yield from parse(p, report)
        return
    turns = Turns(NAME, report)
    where = str(path)
    thread, day_first = _survey(path)
    day: date | None = None
    cur: tuple[str, str, datetime, int] | None = None  # (author, first text, time, line)
    body: list[str] = []
    quoted = False  # inside a message written in quotes: its lines are words whatever they look like
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            text = ln.text.lstrip("\ufeff") if ln.no == 1 else ln.text
            if quoted:
                body.append(text)
                quoted = not _closes(text)
                continue
            fields = text.split("\t")
            m = _TIME_RE.match(fields[0].strip()) if len(fields) >= 2 else None
            if m:
                if cur is not None:
                    yield from _message(cur, body, thread, turns)
                    cur, body = None, []
                if day is None:
                    raise ImportFormatError("a message before any date line (\"2024/03/13(Wed)\")", where, ln.no)
                when = _at(day, m, where, ln.no)
                if len(fields) == 2 or not fields[1].strip():
                    turns.skip(SYSTEM)  # "Ana joined the group.", "\tAna unsent a message."
                    continue
                first = "\t".join(fields[2:])
                cur = (fields[1].strip(), first, when, ln.no)
                quoted = first.startswith('"') and not _closes(first[1:])
                continue
            found = _day(text, day_first, where, ln.no) if "\t" not in text else None
            if found is not None:
                if cur is not None:
                    yield from _message(cur, body, thread, turns)
                    cur, body = None, []
                day = found
            elif cur is not None:
                body.append(text)  # a line of the message before (older exports write no quotes)
            elif day is not None and text.strip():  # after a service line: words of no one's message, kept out loudly
                report.warn("no message (\"15:00<tab>Name<tab>text\"); left out", ln.no)
    if cur is not None:
        yield from _message(cur, body, thread, turns)
    if not report.messages_seen:
        raise ImportFormatError("no LINE message in this file", where, 1)


def is_line(path: Path) -> bool:
    """Whether ``path`` starts as a LINE text export does ("[LINE] …")."""
    try:
        with path.open("rb") as fh:
            head = fh.read(256)
    except OSError:
        return False
    return bool(HEAD_RE.match(head.decode("utf-8", "replace")))


def _closes(text: str) -> bool:
    """Whether a line inside a quoted message ends it: it ends in a quote that is no doubled one."""
    stripped = text.rstrip().replace('""', "")
    return stripped.endswith('"')


def _survey(path: Path) -> tuple[str, bool]:
    """The chat's name (the header's, else the file's) and whether the day lines put the day first."""
    thread = path.stem
    english = False
    with path.open("rb") as raw:
        for ln in iter_lines(raw, str(path)):
            text = ln.text.lstrip("\ufeff")
            if ln.no == 1:
                header = text.strip()
                for pattern in _CHAT_RES:
                    m = pattern.match(header)
                    if m and m.group(1).strip():
                        thread = m.group(1).strip()
                        break
                english = bool(re.match(r"^\[LINE\] Chat", header, re.IGNORECASE))
                continue
            if "\t" in text:
                continue
            m = _XXY_RE.search(text)
            if m and not _YMD_RE.search(text):
                if int(m.group(1)) > 12:
                    return thread, True
                if int(m.group(2)) > 12:
                    return thread, False
    return thread, not english


def _day(text: str, day_first: bool, where: str, line: int) -> date | None:
    """The day of a day line, or None for a line that is none; a day line of no real day is an error."""
    stripped = text.strip()
    if not stripped or len(stripped) > 40:
        return None
    m = _YMD_RE.search(stripped)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    else:
        m = _XXY_RE.search(stripped)
        if m is None:
            return None
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        d, mo = (a, b) if day_first else (b, a)
    rest = (stripped[:m.start()] + stripped[m.end():]).strip(" ,.()（）")
    if re.search(r"\d", rest):  # "Saved on: 2024/03/14 18:30" and the like: no day line
        return None
    if y > 2400:  # a Thai Buddhist-era year
        y -= 543
    try:
        return date(y, mo, d)
    except ValueError:
        raise ImportFormatError(f"{stripped[:40]!r}: no such date", where, line) from None


def _at(day: date, m: re.Match[str], where: str, line: int) -> datetime:
    hour, minute = int(m.group(2)), int(m.group(3))
    marker = m.group(1) or (m.group(4).upper() + "M" if m.group(4) else None)
    if marker is not None:
        if not 1 <= hour <= 12:
            raise ImportFormatError(f"{m.group(0)!r}: no such time", where, line)
        hour = hour % 12 + (12 if marker in _PM else 0)
    try:
        return datetime(day.year, day.month, day.day, hour, minute)
    except ValueError:
        raise ImportFormatError(f"{m.group(0)!r}: no such time", where, line) from None


def _message(cur: tuple[str, str, datetime, int], body: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    author, first, when, line = cur
    text = "\n".join([first, *body]).rstrip()
    if "\n" in text and text.startswith('"') and text.endswith('"'):
        text = text[1:-1].replace('""', '"')  # a message of several lines, written in quotes
    meta: dict[str, Any] = {}
    if _CALL_RE.match(text):
        turns.skip(SYSTEM)  # "☎ Missed call", "☎ Call time 0:45"
        return
    if _MEDIA_RE.match(text.strip()):
        meta["media"] = [text.strip()[1:-1]]
        text = ""
    rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, metadata=meta, line=line))
    if rec is not None:
        yield rec
