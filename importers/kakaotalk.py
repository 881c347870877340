"""KakaoTalk chats as the app exports them ("대화 내보내기" / "Export Chats"), in Korean or English:

* PC text: "김민지 님과 카카오톡 대화" or "Talk with Minji Kim", a "저장한 날짜 : …" line, day lines
  ("--------------- 2024년 3월 13일 수요일 ---------------") and a line per message ("[김민지] [오후 3:02] 안녕",
  "[Minji Kim] [3:02 PM] Hi");
* phone text: each message with its date and time ("2024년 3월 13일 오후 3:02, 김민지 : 안녕" on Android,
  "2024. 3. 13. 오후 3:02, 김민지 : 안녕" on iOS, "Mar 13, 2024 at 3:02 PM, Minji Kim : Hi" in English), a date and
  time alone between days;
* CSV: "Date,User,Message", a row per message.

A line that starts no message continues the one before, unless it is a service line ("박서준님이 들어왔습니다.",
"… joined this chatroom.": counted as system); a message that is a file's name ("사진", "이모티콘", "Photo") is
media; calls and deleted messages are system. Times are the phone's wall time (naive). The chat is named by the
header (a group's member count after its name dropped), a CSV by its file's name."""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import iter_lines, legacy_codec, windows_1252
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns

NAME = "kakaotalk"
HEAD_RE = re.compile(r"^\ufeff?(?:[^\n]{1,80}님과 카카오톡 대화|KakaoTalk Chats with |Talk with [^\n]{1,80}\r?\nDate Saved ?: |"
                     r"[^\n]{1,80}\r?\n(?:Date Saved|저장한 날짜) ?: [^\n]*\d)")
_SAVED_RE = re.compile(r"^(?:Date Saved|저장한 날짜) ?: ")
CSV_HEAD_RE = re.compile(r"^\ufeff?\"?Date\"?,\"?User\"?,\"?Message\"?\r?$")
_CHAT_RES = (re.compile(r"^(.+?) ?님과 카카오톡 대화$"), re.compile(r"^KakaoTalk Chats with (.+)$"),
             re.compile(r"^Talk with (.+)$"))
_CSV_NAME_RE = re.compile(r"^KakaoTalk_Chat_(.+?)_\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$")
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                        "dec"), start=1)}
_AMPM = r"(?:오전|오후|AM|PM|am|pm)"
# PC: "[김민지] [오후 3:02] 안녕", "[Minji Kim] [3:02 PM] Hi"
_PC_RE = re.compile(rf"^\[(?P<name>[^\]\n]{{1,80}})\] \[(?P<a1>{_AMPM})? ?(?P<h>\d{{1,2}}):(?P<m>\d{{2}}) ?(?P<a2>{_AMPM})?\] ?"
                    r"(?P<text>.*)$")
_PC_DAY_RE = re.compile(r"^-{5,} (.+?) -{5,}$")
# phone: a date, a time, then ", " and the rest ("김민지 : 안녕", or a service line)
_DATE_KO = r"(?P<y>\d{4})년 (?P<mo>\d{1,2})월 (?P<d>\d{1,2})일"
_DATE_IOS = r"(?P<y>\d{4})\. ?(?P<mo>\d{1,2})\. ?(?P<d>\d{1,2})\.?"
_DATE_EN = r"(?P<mon>[A-Z][a-z]{2,8}) (?P<d>\d{1,2}), (?P<y>\d{4})(?: at)?"
_TIME = rf"(?:(?P<a1>{_AMPM}) )?(?P<h>\d{{1,2}}):(?P<m>\d{{2}})(?: (?P<a2>{_AMPM}))?"
_PHONE_RES = tuple(re.compile(rf"^{d} {_TIME}(?:, (?P<rest>.*))?$") for d in (_DATE_KO, _DATE_IOS, _DATE_EN))
# a day alone: "Wednesday, March 13, 2024", "2024년 3월 13일 수요일"
_DAY_RES = (re.compile(r"^[A-Z][a-z]+day, (?P<mon>[A-Z][a-z]+) (?P<d>\d{1,2}), (?P<y>\d{4})$"),
            re.compile(rf"^{_DATE_KO} \S요일$"))
_SERVICE_RE = re.compile(r"님이 (?:들어왔습니다|나갔습니다)|님을 (?:초대|내보냈)|(?:초대했|초대하였|내보냈)습니다\.?$|"
                         r"\b(?:joined|left) (?:this|the) chat ?room|invited .+ to (?:this|the) chat ?room|"
                         r"\bwas removed from (?:this|the) chat ?room|채팅방 관리자가")
_MEDIA_RE = re.compile(r"^(?:사진(?: \d+장)?|동영상|이모티콘|음성메시지|파일: .+|샵검색: .+|Photos?|\d+ [Pp]hotos|Video|"
                       r"Emoticons?|Voice [Mm]essage|File: .+)$")
_NO_WORDS_RE = re.compile(r"^(?:보이스톡|페이스톡|Voice ?Talk|Face ?Talk|Voice Call|Video Call)\b|"
                          r"^(?:삭제된 메시지입니다\.?|This message (?:has been|was) deleted\.?)$")


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of one KakaoTalk export (text or CSV), or of each in a folder; bad input: a one-line
    ImportFormatError."""
    if path.is_dir():
        files = [p for p in sorted(path.iterdir()) if p.is_file() and p.suffix.lower() in (".txt", ".csv")
                 and is_kakaotalk(p)]
        if not files:
            raise ImportFormatError("folder holds no KakaoTalk chat export", str(path))
        for p in files:
            yield from parse(p, report)
        return
    turns = Turns(NAME, report)
    if _is_csv(path):
        report.variant["layout"] = "csv"
        yield from _csv_records(path, turns)
    else:
        yield from _text_records(path, turns)
    if not report.messages_seen:
        raise ImportFormatError("no KakaoTalk message in this file", str(path), 1)


def _head(path: Path) -> str:
    try:
        with path.open("rb") as fh:
            return fh.read(1024).decode("utf-8", "replace")
    except OSError:
        return ""


def _is_csv(path: Path) -> bool:
    return bool(CSV_HEAD_RE.match(_head(path).split("\n", 1)[0]))


def is_kakaotalk(path: Path) -> bool:
    """Whether ``path`` starts as a KakaoTalk export does (its text header, or its CSV's)."""
    head = _head(path)
    return bool(HEAD_RE.match(head) or CSV_HEAD_RE.match(head.split("\n", 1)[0]))


def _text_records(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    thread = path.stem
    first, named = "", None
    day: date | None = None
    cur: tuple[str, datetime, int] | None = None
    body: list[str] = []
    def opener() -> IO[bytes]:
        return path.open("rb")

    if not _utf8_head(path):  # the PC's text saved in the Korean Windows code page: read in it, said
        codec, name = legacy_codec(opener)
        turns.report.warn(f"not UTF-8 text; read as {name}", 1)
        read: Callable[[], IO[bytes]] = windows_1252(opener, codec)
    else:
        read = opener
    with read() as raw:
        for ln in iter_lines(raw, where):
            text = ln.text.lstrip("\ufeff") if ln.no == 1 else ln.text
            if ln.no == 1:
                first = text.strip()
                named = _chat_name(first)
                thread = named or _chat_name(thread) or thread
                continue
            if ln.no == 2 and named is None and first and _SAVED_RE.match(text):
                thread = first  # the chat's name alone above "Date Saved" (a phone's export)
                continue
            start: tuple[str, datetime] | None = None
            m = _PC_RE.match(text)
            if m:
                if day is None:
                    raise ImportFormatError("a message before any day line (\"----- 2024년 3월 13일 수요일 -----\")",
                                            where, ln.no)
                start = (m.group("name"), _at(day, m, where, ln.no))
                rest: str | None = m.group("text")
            else:
                found = _day_line(text, where, ln.no)
                if found is not None:
                    day = found
                    if cur is not None:
                        yield from _message(cur, body, thread, turns)
                        cur, body = None, []
                    continue
                pm = next((p.match(text) for p in _PHONE_RES if p.match(text)), None)
                if pm is not None:
                    when = _at(_date_of(pm, where, ln.no), pm, where, ln.no)
                    rest = pm.group("rest")
                    if cur is not None:
                        yield from _message(cur, body, thread, turns)
                        cur, body = None, []
                    if rest is None:
                        continue  # "2024년 3월 13일 오후 3:02" alone: the phone's line between days
                    name, sep, words = rest.partition(" : ")
                    if not sep:
                        turns.skip(SYSTEM)  # "박서준님이 들어왔습니다.", "Sora Park joined this chatroom."
                        continue
                    start, rest = (name, when), words
            if start is not None:
                if cur is not None:
                    yield from _message(cur, body, thread, turns)
                cur, body = (start[0], start[1], ln.no), [rest or ""]
            elif _SERVICE_RE.search(text) and (cur is None or not text.startswith((" ", "\t"))):
                if cur is not None:
                    yield from _message(cur, body, thread, turns)
                    cur, body = None, []
                turns.skip(SYSTEM)
            elif cur is not None:
                body.append(text)
    if cur is not None:
        yield from _message(cur, body, thread, turns)


def _utf8_head(path: Path) -> bool:
    """Whether a file's first 64 KB are UTF-8 (a character cut at their end is no error)."""
    with path.open("rb") as fh:
        head = fh.read(1 << 16)
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _chat_name(header: str) -> str | None:
    for pattern in _CHAT_RES:
        m = pattern.match(header)
        if m and m.group(1).strip():
            return re.sub(r" \d{1,4}$", "", m.group(1).strip()) or m.group(1).strip()  # a group's member count
    return None


def _day_line(text: str, where: str, line: int) -> date | None:
    """The day of a day line (PC's "----- … -----", the phone's "Wednesday, March 13, 2024"), or None."""
    stripped = text.strip()
    m = _PC_DAY_RE.match(stripped)
    inner = m.group(1) if m else stripped
    for pattern in (*_DAY_RES, re.compile(rf"^{_DATE_KO}(?: \S요일)?$"), re.compile(r"^[A-Z][a-z]+day, " + _DATE_EN + "$")):
        dm = pattern.match(inner)
        if dm:
            return _date_of(dm, where, line)
    if m:
        raise ImportFormatError(f"{stripped[:60]!r}: no day in this day line", where, line)
    return None


def _date_of(m: re.Match[str], where: str, line: int) -> date:
    groups = m.groupdict()
    month = int(groups["mo"]) if groups.get("mo") else _MONTHS.get((groups.get("mon") or "")[:3].lower(), 0)
    try:
        return date(int(groups["y"]), month, int(groups["d"]))
    except ValueError:
        raise ImportFormatError(f"{m.group(0).strip()[:60]!r}: no such date", where, line) from None


def _at(day: date, m: re.Match[str], where: str, line: int) -> datetime:
    hour, minute = int(m.group("h")), int(m.group("m"))
    marker = (m.group("a1") or m.group("a2") or "").upper()
    if marker:
        if not 1 <= hour <= 12:
            raise ImportFormatError(f"{m.group(0).strip()[:60]!r}: no such time", where, line)
        hour = hour % 12 + (12 if marker in ("오후", "PM") else 0)
    try:
        return datetime(day.year, day.month, day.day, hour, minute)
    except ValueError:
        raise ImportFormatError(f"{m.group(0).strip()[:60]!r}: no such time", where, line) from None


def _message(cur: tuple[str, datetime, int], body: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    author, when, line = cur
    text = "\n".join(body).rstrip()
    yield from _turn(author, when, text, thread, turns, line)


def _turn(author: str, when: datetime, text: str, thread: str, turns: Turns, line: int | None) -> Iterator[Record]:
    stripped = text.strip()
    if _NO_WORDS_RE.match(stripped):
        turns.skip(SYSTEM)
        return
    if _MEDIA_RE.match(stripped):
        turns.skip(MEDIA)
        return
    rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, line=line))
    if rec is not None:
        yield rec


def _csv_records(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    m = _CSV_NAME_RE.match(path.stem)
    thread = m.group(1) if m else path.stem
    with path.open("rb") as raw, io.TextIOWrapper(raw, encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh)
        try:
            for row_no, row in enumerate(reader, start=1):
                if row_no == 1:
                    continue  # Date,User,Message
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) < 3:
                    raise ImportFormatError(f"row {row_no}: {len(row)} fields, not Date,User,Message", where,
                                            reader.line_num)
                try:
                    when = datetime.strptime(row[0].strip(), "%Y-%m-%d %H:%M:%S")
                except ValueError:
                    raise ImportFormatError(f"row {row_no}: \"Date\" is no date ({row[0][:40]!r})", where,
                                            reader.line_num) from None
                yield from _turn(row[1], when, ",".join(row[2:]), thread, turns, reader.line_num)
        except UnicodeDecodeError as exc:
            raise ImportFormatError(f"not UTF-8 text ({exc.reason})", where, reader.line_num + 1) from None
        except csv.Error as exc:
            raise ImportFormatError(f"invalid CSV ({exc})", where, reader.line_num) from None
