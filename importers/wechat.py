"""WeChat chats as the third-party exporter MemoTrace (留痕) writes them, one folder per chat ("聊天记录/<chat>/"):

* CSV (<chat>.csv): a header naming its columns (localId, TalkerId, Type, SubType, IsSender, CreateTime, Status,
  StrContent, StrTime, Remark, NickName, Sender), a row per message. Type 1 is text; 3 photo, 34 voice, 43 video,
  47 sticker, 42 contact card, 48 location: media; 49 an app message whose XML holds a title (a link: its title and
  url; a reply, subtype 57: its words; a file, subtype 6: media); 10000 and 10002 (joins, renames, recalls) and 50
  (calls) are service lines. IsSender 1 marks the owner: "me" where the row names no Sender. A group's rows may keep
  WeChat's raw "wxid_…:\\n" before the words: dropped. CreateTime is the instant, StrTime the phone's wall time:
  the time keeps the offset the two give (+08:00 in China).
* TXT (<chat>.txt): "2024-04-02 19:30:12 李娜" then the words, a blank line between messages; the phone's wall
  time (naive); "[图片]" and the like are media.

* HTML (<chat>.html): the page's message list, read by :mod:`importers.wechat_html`; a page of WechatExporter
  (iOS; its messages as HTML, no script) by :mod:`importers.wechat_exporter`.

Columns are found by the header's names (an exporter's version that moves them is read the same). A chat written
as CSV and TXT side by side is read once, from its CSV. The chat is named by the file."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError, ImportReport, Record
from importers._textlines import iter_lines
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, epoch, zoned

NAME = "wechat"
CSV_HEAD_RE = re.compile(r"^\ufeff?\"?localId\"?,\"?TalkerId\"?,\"?Type\"?,.*\bStrContent\b", re.IGNORECASE)
TXT_HEAD_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) (\S.{0,100})$")
_NEEDED = ("Type", "IsSender", "CreateTime", "StrContent")
_MEDIA_TYPES = {"3", "34", "42", "43", "47", "48"}
_SERVICE_TYPES = {"10000", "10002", "50"}
_RAW_SENDER_RE = re.compile(r"^[A-Za-z][\w-]{2,40}:\n")
_MEDIA_RE = re.compile(r"^\[[^\[\]\n]{1,12}\]$")
_LINK_SUBTYPES = {"4", "5", "33", "36"}


def is_txt_head(head: str) -> bool:
    """Whether a text's first bytes are a MemoTrace TXT: a "date time name" line, words, a blank line, another."""
    lines = head.lstrip("\ufeff").splitlines()[:200]
    heads = [i for i, ln in enumerate(lines) if TXT_HEAD_RE.match(ln) and (i == 0 or not lines[i - 1].strip())]
    return bool(heads) and heads[0] == 0 and (len(heads) >= 2 or len(lines) < 200) and len(lines) > 1


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a MemoTrace CSV or TXT, or of every chat in a folder; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_file() and path.name.lower() == "index.html":
        from importers import wechat_exporter

        if wechat_exporter.is_account_index(path):
            path = path.parent  # WechatExporter's list of an account's chats: the chats it lists
    if path.is_dir():
        files = chat_files(path)
        if not files:
            raise ImportFormatError("folder holds no WeChat chat as MemoTrace writes it (<chat>.csv, .html, .txt)",
                                    str(path))
        for p in files:
            yield from _file(p, turns)
        return
    yield from _file(path, turns)
    if not report.messages_seen:
        raise ImportFormatError("no WeChat message in this file", str(path), 1)


def chat_files(folder: Path) -> list[Path]:
    """The chats below ``folder``: in each folder its CSVs, else its web pages, else its TXTs (the same chat in two
    forms is read once)."""
    out: list[Path] = []
    from importers import wechat_exporter
    from importers.wechat_html import is_page

    for d in sorted({p.parent for p in folder.rglob("*") if p.suffix.lower() in (".csv", ".txt", ".html")
                     and p.is_file()}):
        if any(part.startswith(".") for part in d.relative_to(folder).parts):
            continue
        found = [p for p in sorted(d.iterdir()) if p.is_file() and p.suffix.lower() == ".csv" and _head_is(p, "csv")]
        found = found or [p for p in sorted(d.iterdir()) if p.is_file() and p.suffix.lower() == ".html" and (
            is_page(p) or wechat_exporter.is_page(p))]
        out += found or [p for p in sorted(d.iterdir()) if p.is_file() and p.suffix.lower() == ".txt" and _head_is(p, "txt")]
    return out


def _head_is(path: Path, kind: str) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.read(8192).decode("utf-8", "replace")
    except OSError:
        return False
    return bool(CSV_HEAD_RE.match(head)) if kind == "csv" else is_txt_head(head)


def _file(path: Path, turns: Turns) -> Iterator[Record]:
    if path.suffix.lower() in (".html", ".htm"):
        from importers import wechat_exporter, wechat_html

        if not wechat_html.is_page(path) and wechat_exporter.is_page(path):
            yield from wechat_exporter.records(path, turns)  # WechatExporter's (iOS) page
        else:
            yield from wechat_html.records(path, turns)  # MemoTrace's
        return
    if path.suffix.lower() == ".csv" or _head_is(path, "csv"):
        yield from _csv(path, turns)
    else:
        yield from _txt(path, turns)


def _csv(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    thread = path.stem
    codec = _csv_codec(path, turns.report)
    with path.open("rb") as raw, io.TextIOWrapper(raw, encoding=codec, newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = next(reader, None)
            if header is None or not CSV_HEAD_RE.match(",".join(header)):
                raise ImportFormatError("no MemoTrace header (localId,TalkerId,Type,…,StrContent,…)", where, 1)
            col = {name.strip(): i for i, name in enumerate(header)}
            missing = [n for n in _NEEDED if n not in col]
            if missing:
                raise ImportFormatError(f"no \"{missing[0]}\" column in the header", where, 1)
            row_no = 1
            for row in reader:
                row_no += 1
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) < len(header):
                    raise ImportFormatError(f"row {row_no}: {len(row)} fields, the header names {len(header)}", where,
                                            reader.line_num)
                rec = _row(row, col, thread, turns, f"row {row_no}", where, reader.line_num)
                if rec is not None:
                    yield rec
        except UnicodeDecodeError as exc:
            raise ImportFormatError(f"not UTF-8 text ({exc.reason}); export the chat again as UTF-8", where,
                                    reader.line_num + 1) from None
        except csv.Error as exc:
            raise ImportFormatError(f"invalid CSV ({exc})", where, reader.line_num) from None


def _csv_codec(path: Path, report: ImportReport) -> str:
    """UTF-8, as MemoTrace writes its CSV; for one opened and saved again by Excel (GBK on a Chinese Windows, the
    code page of its language elsewhere), the code page its words read in (:func:`importers.codepages.guess`), said
    in one warning; a file that reads in none stays UTF-8 (its first bad byte is the error)."""
    from importers import codepages
    from importers._textlines import decodes_as

    def opener() -> IO[bytes]:
        return path.open("rb")

    if decodes_as(opener, "utf-8-sig"):
        return "utf-8-sig"
    with path.open("rb") as fh:
        sample = fh.read(codepages.SAMPLE_BYTES)
    wide = [ch for ch in sample.decode("gb18030", "replace") if ch > "\x7f"]
    if sum("\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef" for ch in wide) * 2 \
            >= len(wide):  # WeChat's words are mostly Chinese: GBK first (a short one would pass for Cyrillic)
        codec, name = "gb18030", "GBK"
    else:
        codec, name = codepages.guess(sample)
    if not decodes_as(opener, codec):
        return "utf-8-sig"
    report.warn(f"not UTF-8; read as {name} ({codec}), as Excel saves a CSV again")
    return codec


def _cell(row: list[str], col: dict[str, int], name: str) -> str:
    i = col.get(name)
    return row[i] if i is not None and i < len(row) else ""


def _row(row: list[str], col: dict[str, int], thread: str, turns: Turns, what: str, where: str, line: int
         ) -> Record | None:
    kind, sub = _cell(row, col, "Type").strip(), _cell(row, col, "SubType").strip()
    instant = epoch(_cell(row, col, "CreateTime").strip(), 1, f"{what}: \"CreateTime\"", f"{where}:{line}")
    when: datetime = instant
    try:
        local = datetime.strptime(_cell(row, col, "StrTime").strip(), "%Y-%m-%d %H:%M:%S")
        when = zoned(local, instant)
    except ValueError:
        pass  # no wall time beside it: the instant, in UTC
    if kind in _SERVICE_TYPES:
        turns.skip(SYSTEM)
        return None
    content = _cell(row, col, "StrContent")
    talker = _cell(row, col, "TalkerId").strip()
    if talker.endswith("@chatroom"):
        content = _RAW_SENDER_RE.sub("", content, count=1)
    meta: dict[str, Any] = {}
    if kind in _MEDIA_TYPES:
        turns.skip(MEDIA)
        return None
    if kind == "49":
        xml = content
        title = _tag(xml, "title")
        if sub == "6" or not title:
            turns.skip(MEDIA)
            return None
        url = _tag(content, "url")
        content = f"{title} {url}" if sub in _LINK_SUBTYPES and url else title
        if sub == "57":
            quoted = _tag(xml, "content")
            if quoted:
                meta["quote"] = quoted
    elif kind != "1" and content.lstrip().startswith("<"):
        turns.skip(MEDIA)  # a kind this reader does not know, written as XML: no words of a person
        return None
    sender = _cell(row, col, "Sender").strip()
    if not sender:
        sender = "me" if _cell(row, col, "IsSender").strip() == "1" else (
            _cell(row, col, "Remark").strip() or _cell(row, col, "NickName").strip() or talker)
    # the ref is made of the time, the sender and the words (localId is a row of one phone's database: a chat
    # exported again from another phone numbers its rows anew)
    return turns.record(Turn(thread=thread, author=sender, when=when, text=content, metadata=meta, line=line))


def _tag(xml: str, name: str) -> str:
    """The text of an app message's first ``<name>`` (unescaped), or ""."""
    m = re.search(rf"<{name}>(.*?)</{name}>", xml, re.DOTALL)
    if m is None:
        return ""
    text = m.group(1)
    if text.startswith("<![CDATA[") and text.endswith("]]>"):
        return text[9:-3].strip()
    return html.unescape(text).strip()


def _txt(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    thread = path.stem
    cur: tuple[str, datetime, int] | None = None
    body: list[str] = []
    blank = True
    with path.open("rb") as raw:
        for ln in iter_lines(raw, where):
            text = ln.text.lstrip("\ufeff") if ln.no == 1 else ln.text
            m = TXT_HEAD_RE.match(text) if blank else None
            blank = not text.strip()
            if m:
                if cur is not None:
                    yield from _txt_message(cur, body, thread, turns)
                cur, body = (m.group(7).strip(), _txt_when(m, where, ln.no), ln.no), []
            elif cur is not None:
                body.append(text)
            elif text.strip():
                raise ImportFormatError("no \"2024-04-02 19:30:12 Name\" line before the first words", where, ln.no)
    if cur is not None:
        yield from _txt_message(cur, body, thread, turns)


def _txt_when(m: re.Match[str], where: str, line: int) -> datetime:
    try:
        y, mo, d, h, mi, sec = (int(m.group(i)) for i in range(1, 7))
        return datetime(y, mo, d, h, mi, sec)
    except ValueError:
        raise ImportFormatError(f"{m.group(0)[:19]!r}: no such date", where, line) from None


def _txt_message(cur: tuple[str, datetime, int], body: list[str], thread: str, turns: Turns) -> Iterator[Record]:
    author, when, line = cur
    text = "\n".join(body).strip("\n")
    if _MEDIA_RE.match(text.strip()):
        turns.skip(MEDIA)
        return
    rec = turns.record(Turn(thread=thread, author=author, when=when, text=text, line=line))
    if rec is not None:
        yield rec
