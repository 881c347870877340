"""WhatsApp "Export chat" parser.

Formats handled:

* Android layout ``date, time - Name: message`` and iOS layout
  ``[date, time] Name: message`` (with or without the comma, Arabic comma ``،``,
  legacy layouts without seconds).
* Dates in any order (day-month-year, month-day-year, year-month-day), decided
  over the whole file (a field > 12 disambiguates; otherwise the order with the
  fewest backwards jumps wins), 2- or 4-digit years, ``/ . -`` separators; an
  explicit ``date_order="dmy"|"mdy"|"ymd"`` option overrides the guess.
* 24h and 12h clocks with localized markers (``PM``, ``p. m.``, ``a.m.``,
  ``午前``/``午後``, ``오전``/``오후``, ``ص``/``م``), dot times (``9.55``), seconds.
* Invisible marks (U+200E/U+200F/U+202A-U+202E, BOM, NBSP, U+202F), CRLF/LF
  mixes, multi-line messages with blank lines.
* System lines (encryption notices, joins, leaves, subject/icon changes,
  number changes, deleted messages, security codes, timers) in several
  languages are skipped and counted; media placeholders (``<Media omitted>``,
  ``image omitted``, ``<attached: x.jpg>``, ``x.jpg (file attached)`` and
  localized variants) go to ``metadata["media"]``, never into memory text.
* ``.txt`` files and ``.zip`` exports (``_chat.txt`` or the only ``.txt``,
  ``__MACOSX`` ignored, nested zips searched), read in memory only.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._common import (
    DEFAULT_MAX_MEMBER_BYTES,
    INVISIBLE_MARKS,
    decode_text,
    find_in_zip,
    is_zip,
    sha1_hex,
    split_lines,
)

_SPACE_CHARS = "\u00a0\u202f\u2007\u2009"

_AMPM = (
    r"(?:[AaPp]\.?\s?[Mm]\.?|午前|午後|오전|오후|ص|م|[πμ]\.?\s?μ\.?|vorm\.|nachm\.|SA|CH|de la mañana|de la tarde)"
)
_DATE = r"\d{1,4}\s?[./-]\s?\d{1,2}\s?[./-]\s?\d{1,4}\.?"
_TIME = r"\d{1,2}[:.]\d{2}(?:[:.]\d{2})?"
_IOS_RE = re.compile(
    rf"^\[(?P<date>{_DATE})[,،]?\s*(?P<pre>{_AMPM})?\s*(?P<time>{_TIME})\s*(?P<post>{_AMPM})?\]\s?(?P<rest>.*)$"
)
_ANDROID_RE = re.compile(
    rf"^(?P<date>{_DATE})[,،]?\s*(?P<pre>{_AMPM})?\s*(?P<time>{_TIME})\s*(?P<post>{_AMPM})?\s+[-–]\s(?P<rest>.*)$"
)
_AUTHOR_RE = re.compile(r"^(?P<author>[^:\n]{1,100}?):(?: (?P<text>.*)|\s*$)")

_PM_MARKERS = {"pm", "午後", "오후", "م", "μμ", "nachm", "ch", "de la tarde"}

# Whole-body system messages (after marks are stripped, lowercased, trailing dot removed).
_SYSTEM_BODY_PATTERNS = (
            # encryption notices
            r"end-to-end",
            r"ende-zu-ende",
            r"de bout en bout",
            r"koncovým šifrováním",
            r"сквозным шифрованием",
            r"エンドツーエンド",
            r"de extremo a extremo",
            r"ponta a ponta",
            r"crittografia end-to-end",
            r"مشفرة تمام",
            # security code changes
            r"security code with .* changed",
            r"sicherheitsnummer für .* hat sich geändert",
            r"code de sécurité avec .* a changé",
            r"bezpečnostní kód",
            r"код безопасности",
            r"セキュリティコードが変更されました",
            r"beveiligingscode",
            r"código de seguridad",
            r"رمز أمان",
            # deleted messages
            r"^this message was deleted$",
            r"^you deleted this message$",
            r"^diese nachricht wurde gelöscht$",
            r"^du hast diese nachricht gelöscht$",
            r"^ce message a été supprimé$",
            r"^vous avez supprimé ce message$",
            r"^tato zpráva byla (?:smazána|odstraněna)$",
            r"^tuto zprávu jste smazal",
            r"^данное сообщение удалено$",
            r"^вы удалили данное сообщение$",
            r"^この(?:メッセージは削除されました|メッセージを削除しました)。?$",
            r"^dit bericht is verwijderd$",
            r"^u hebt dit bericht verwijderd$",
            r"^(?:se eliminó este mensaje|eliminaste este mensaje|este mensaje fue eliminado)$",
            r"^(?:questo messaggio è stato eliminato|hai eliminato questo messaggio)$",
            r"^(?:mensagem apagada|você apagou esta mensagem|esta mensagem foi apagada)$",
            r"^(?:لقد حذَ?فت|تم حذف) هذه الرسالة$",
            r"^waiting for this message",
            r"^missed (?:voice|video) call",
)
_SYSTEM_BODY_RE = re.compile("|".join(_SYSTEM_BODY_PATTERNS))

# Author-less system lines: "<someone> created group ...", "You were added", ...
_SYSTEM_LINE_PATTERNS = (
            r"\bcreated (?:group|this group)\b",
            r"\badded\b",
            r"\bwere added\b",
            r"\b(?:left|removed)\b",
            r"\bjoined using\b",
            r"\bchanged (?:the|this|their|his|her|your)\b",
            r"\bchanged to\b",
            r"\bturned (?:on|off)\b",
            r"\bupdated the message timer\b",
            r"\bnow an admin\b",
            r"\bno longer an admin\b",
            r"\bsecurity code\b",
            r"\bend-to-end\b",
            r"\bencrypt",
            r"\bhat die gruppe\b",
            r"\bhinzugefügt\b",
            r"\bhat .* (?:erstellt|geändert|entfernt|verlassen)\b",
            r"\bcréé le groupe\b",
            r"\ba ajouté\b",
            r"\bcreó el grupo\b",
            r"\b(?:te )?añadió\b",
            r"\bsalió\b",
            r"\bheeft .* (?:aangemaakt|toegevoegd|gewijzigd|verwijderd)\b",
            r"\bсоздал",
            r"\bдобавил",
            r"\bвышел",
)
_SYSTEM_LINE_RE = re.compile("|".join(_SYSTEM_LINE_PATTERNS), re.IGNORECASE)

# Android: the whole line is a bracketed placeholder.
_MEDIA_BRACKET = {
    "media omitted",
    "medien ausgelassen",
    "medien weggelassen",
    "multimedia omitido",
    "multimedia omitidos",
    "archivo multimedia omitido",
    "media weggelaten",
    "média vynechány",
    "médias omis",
    "fichier multimédia absent",
    "médias absents",
    "без медиафайлов",
    "media omessi",
    "mídia oculta",
    "mídia omitida",
    "arquivo de mídia oculto",
    "media pominięte",
    "medya dahil edilmedi",
    "メディアなし",
    "미디어 파일 생략",
    "video note omitted",
    "gif omitted",
    "sticker omitted",
}
# iOS-style "image omitted" words; only trusted when WhatsApp marked the line with U+200E.
_OMITTED_WORDS = re.compile(
    r"(?:omitted|omitid[oa]|weggelassen|ausgelassen|weggelaten|absente?s?|omis|manquante?s?|retiré|"
    r"vynechán[aoy]?|отсутствует|не добавлен[аоы]?|含まれていません|省略|omess[oa]|oculto|ocultad[oa]|"
    r"pominięt[oay]|dahil edilmedi|생략됨)\s*$|^لم يتم إدراج|^تم حذف الملصق",
    re.IGNORECASE,
)
_OMITTED_EXACT_RE = re.compile(
    r"^(?:image|video|audio|sticker|gif|document|contact card|voice message) omitted$", re.IGNORECASE
)
_ATTACHED_RE = re.compile(r"<(?:attached|adjunto|anexado|angehängt|anhang|allegato|pièce jointe|bijlage|прикреплено|"
                          r"添付ファイル|첨부)\s?:\s?(?P<file>[^<>]+?)>", re.IGNORECASE)
_FILE_ATTACHED_RE = re.compile(
    r"^(?P<file>\S.*?\.[A-Za-z0-9]{2,5}) \((?:file attached|bestand bijgevoegd|soubor byl přiložen|файл добавлен|"
    r"archivo adjunto|datei angehängt|fichier joint|file allegato|arquivo anexado|ファイル添付)\)$",
    re.IGNORECASE,
)
_EDITED_RE = re.compile(
    r"\s*<(?:this message was edited|diese nachricht wurde bearbeitet|se editó este mensaje\.?|"
    r"ce message a été modifié|dit bericht is bewerkt|questo messaggio è stato modificato|"
    r"esta mensagem foi editada|сообщение изменено|tato zpráva byla upravena|編集済み)>\s*$",
    re.IGNORECASE,
)
_THREAD_RE = re.compile(
    r"^.*?whats\s?app[\s_-]*(?:chat|-chat|conversa|discussion)?\s*"
    r"(?:-|–|with|mit|con|avec|met|com|di|med|z|ile|s uživatelem|с контактом|с|do)?\s+(?P<name>.+)$",
    re.IGNORECASE,
)
_THREAD_PREFIX_RE = re.compile(
    r"^(?:chat|discussion|conversa|conversación|чат)\s+(?:de\s+|do\s+)?whats\s?app\s+"
    r"(?:with|mit|con|avec|met|com|di|med|s uživatelem|с контактом|с)\s+(?P<name>.+)$",
    re.IGNORECASE,
)


@dataclass
class _Entry:
    line: int
    ios: bool
    date: str
    time: str
    ampm: str | None
    rest: str
    raw_rest: str
    more: list[str] = field(default_factory=list)


def _clean(raw: str) -> tuple[str, list[int]]:
    """Strip marks, normalise odd spaces, and keep a map back to raw indexes."""
    out: list[str] = []
    pos: list[int] = []
    for i, ch in enumerate(raw):
        if ch in INVISIBLE_MARKS:
            continue
        out.append(" " if ch in _SPACE_CHARS else ch)
        pos.append(i)
    return "".join(out), pos


def thread_name(name: str) -> str:
    """Chat name from an export file name ("WhatsApp Chat with Ana.txt" -> "Ana")."""
    stem = re.sub(r"\.(txt|zip)$", "", name, flags=re.IGNORECASE)
    stem = re.sub(f"[{_SPACE_CHARS}]", " ", stem).strip()
    for rx in (_THREAD_PREFIX_RE, _THREAD_RE):
        m = rx.match(stem)
        if m and m.group("name").strip():
            return m.group("name").strip()
    return stem


def _read_source(path: Path, max_bytes: int) -> tuple[str, str, str]:
    """Return (display file, text, thread) for a .txt or .zip export."""
    file = str(path)
    if is_zip(path):

        def choose(members: list[zipfile.ZipInfo]) -> zipfile.ZipInfo | None:
            txt = [m for m in members if m.filename.lower().endswith(".txt")]
            named = [m for m in txt if m.filename.rsplit("/", 1)[-1] == "_chat.txt"]
            if named:
                return named[0]
            if len(txt) == 1:
                return txt[0]
            chats = [m for m in txt if "whatsapp" in m.filename.lower()]
            if len(chats) == 1:
                return chats[0]
            if len(txt) > 1:
                names = ", ".join(m.filename for m in txt[:5])
                raise ImportFormatError(f"zip holds several .txt files and no _chat.txt ({names})", file)
            return None

        where, data = find_in_zip(path, file, choose, max_bytes)
        member = where.rsplit("!", 1)[-1].rsplit("/", 1)[-1]
        thread = thread_name(member) if member != "_chat.txt" and "whatsapp" in member.lower() else thread_name(path.name)
        return where, decode_text(data, where), thread
    size = path.stat().st_size
    if size > max_bytes:
        raise ImportFormatError(f"file too large ({size} bytes > limit {max_bytes})", file)
    # an unzipped iOS export is "WhatsApp Chat - Ana/_chat.txt": the chat is named by its folder
    named = path.parent.name if path.name.lower() == "_chat.txt" and path.parent.name else path.name
    return file, decode_text(path.read_bytes(), file), thread_name(named)


def _split_entries(lines: list[str], file: str, report: ImportReport) -> list[_Entry]:
    entries: list[_Entry] = []
    preamble = 0
    for no, raw in enumerate(lines, start=1):
        clean, pos = _clean(raw)
        m = _IOS_RE.match(clean) or _ANDROID_RE.match(clean)
        if m:
            start = m.start("rest")
            raw_rest = raw[pos[start]:] if start < len(pos) else ""
            ampm = m.group("pre") or m.group("post")
            entries.append(
                _Entry(no, clean.startswith("["), m.group("date"), m.group("time"), ampm, m.group("rest"), raw_rest)
            )
        elif entries:
            entries[-1].more.append(clean.rstrip())
        elif clean.strip():
            preamble += 1
            if preamble > 20:
                break
    if not entries:
        raise ImportFormatError("no WhatsApp message header found (expected '[date, time] Name: text' or "
                                "'date, time - Name: text')", file, 1)
    if preamble:
        report.warn(f"{preamble} line(s) before the first message header ignored", 1)
    return entries


def _date_fields(date: str) -> tuple[str, str, str]:
    parts = re.split(r"\s?[./-]\s?", date.strip().rstrip("."))
    return parts[0], parts[1], parts[2]


def _make_date(order: str, fields: tuple[str, str, str]) -> tuple[int, int, int]:
    a, b, c = fields
    if order == "ymd":
        y, mo, d = a, b, c
    elif order == "mdy":
        mo, d, y = a, b, c
    else:
        d, mo, y = a, b, c
    year = int(y)
    if len(y) <= 2:
        year += 2000  # WhatsApp exists since 2009: two-digit years are all 20xx
    return year, int(mo), int(d)


def _decide_order(entries: list[_Entry], override: str | None) -> tuple[str, str]:
    """Pick the date order for the whole file; returns (order, reason)."""
    if override:
        if override not in ("dmy", "mdy", "ymd"):
            raise ImportFormatError(f"date_order must be dmy, mdy or ymd, not {override!r}")
        return override, "option"
    fields = [_date_fields(e.date) for e in entries]
    if sum(len(f[0]) == 4 for f in fields) > len(fields) / 2:
        return "ymd", "4-digit first field"
    first_big = any(int(f[0]) > 12 for f in fields)
    second_big = any(int(f[1]) > 12 for f in fields)
    if first_big and not second_big:
        return "dmy", "day > 12 in first field"
    if second_big and not first_big:
        return "mdy", "day > 12 in second field"

    # Undecided (or contradictory): the order under which the chat goes back in time least.
    def jumps(order: str) -> int:
        prev: tuple[int, int, int] | None = None
        count = 0
        for f in fields:
            try:
                cur = _make_date(order, f)
            except ValueError:
                return len(fields) + 1
            if cur[1] > 12 or cur[2] > 31:
                count += 2
            if prev is not None and cur < prev:
                count += 1
            prev = cur
        return count

    dmy, mdy = jumps("dmy"), jumps("mdy")
    if dmy != mdy:
        return ("dmy", "fewer backward jumps") if dmy < mdy else ("mdy", "fewer backward jumps")
    sep = re.search(r"[./-]", entries[0].date)
    if sep and sep.group() == "/" and not entries[0].date.startswith("0") and entries[0].ios:
        return "mdy", "ambiguous: unpadded US-style iOS date"
    return "dmy", "ambiguous: defaulted to day first"


def _timestamp(e: _Entry, order: str) -> datetime:
    year, month, day = _make_date(order, _date_fields(e.date))
    parts = [int(p) for p in re.split(r"[:.]", e.time)]
    hour, minute = parts[0], parts[1]
    second = parts[2] if len(parts) > 2 else 0
    if e.ampm:
        marker = re.sub(r"[\s.]", "", e.ampm).lower()
        pm = marker in _PM_MARKERS or e.ampm.lower() in _PM_MARKERS
        # "13:23 PM" occurs in real exports: a 24h hour wins over the marker.
        if hour <= 12:
            if hour == 12:
                hour = 0
            if pm:
                hour += 12
    return datetime(year, month, day, hour, minute, second)


def _media_line(raw_line: str, clean_line: str) -> list[str] | None:
    """Media names if the line is (ends in) a placeholder, else None."""
    text = clean_line.strip()
    low = text.lower()
    if low.startswith("<") and low.endswith(">") and low[1:-1].strip() in _MEDIA_BRACKET:
        return [text[1:-1].strip()]
    m = _FILE_ATTACHED_RE.match(text)
    if m:
        return [m.group("file")]
    m = _ATTACHED_RE.search(text)
    if m and (m.end() == len(text)):
        return [m.group("file").strip()]
    if _OMITTED_EXACT_RE.match(text):
        return [text]
    # iOS puts U+200E (U+200F in RTL locales) before the placeholder; trust the
    # localized "omitted" words only then.
    mark = "\u200e" if "\u200e" in raw_line else "\u200f"
    if mark in raw_line:
        tail = raw_line.rsplit(mark, 1)[-1]
        tail_clean, _ = _clean(tail)
        tail_clean = tail_clean.strip()
        if tail_clean and len(tail_clean.split()) <= 6 and _OMITTED_WORDS.search(tail_clean):
            head = _clean(raw_line.rsplit(mark, 1)[0])[0].strip().rstrip("•").strip()
            # "Resume.pdf • 2 pages document omitted": keep the document name only.
            head = re.split(r"\s*•\s*", head)[0] if head else ""
            return [head or tail_clean]
    return None


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a WhatsApp export (.txt or .zip) into episodic records, one per message.

    Options: ``date_order`` ("dmy"|"mdy"|"ymd"), ``thread`` (chat name override),
    ``max_member_bytes`` (zip member / file size limit, default 512 MB).
    """
    path = Path(path)
    max_bytes = int(options.get("max_member_bytes") or DEFAULT_MAX_MEMBER_BYTES)
    file, text, thread = _read_source(path, max_bytes)
    thread = str(options.get("thread") or thread)
    entries = _split_entries(split_lines(text), file, report)
    order, reason = _decide_order(entries, options.get("date_order"))
    ios = sum(e.ios for e in entries) > len(entries) / 2
    twelve = any(e.ampm for e in entries)
    report.variant.update(
        {
            "platform": "ios" if ios else "android",
            "date_order": order,
            "date_order_reason": reason,
            "clock": "12h" if twelve else "24h",
            "seconds": any(e.time.count(":") + e.time.count(".") == 2 for e in entries),
            "dot_time": any("." in e.time for e in entries),
            "chat": thread,
        }
    )
    # Everything is parsed before the first yield so a plainly wrong file raises early.
    records: list[Record] = []
    seen: dict[tuple[str, str, str], int] = {}
    for e in entries:
        report.messages_seen += 1
        try:
            when = _timestamp(e, order)
        except ValueError:
            report.warn(f"invalid date/time {e.date} {e.time} for date order {order}; message skipped", e.line)
            continue
        m = _AUTHOR_RE.match(e.rest)
        author_raw = m.group("author") if m else None
        if m is None or _SYSTEM_LINE_RE.search(author_raw or "") or '"' in (author_raw or "") or "“" in (
            author_raw or ""
        ):
            report.skipped_system += 1
            continue
        author = re.sub(r"^~\s*", "", author_raw or "").strip()
        first = m.group("text") or ""
        raw_first = e.raw_rest.split(":", 1)[1] if ":" in e.raw_rest else first
        body_lines = [first.rstrip(), *e.more]
        raw_lines = [raw_first, *e.more]
        whole = "\n".join(body_lines).strip()
        check = whole.lower().rstrip(".").strip()
        if _SYSTEM_BODY_RE.search(check):
            report.skipped_system += 1
            continue
        edited = False
        media: list[str] = []
        kept: list[str] = []
        for raw_line, line in zip(raw_lines, body_lines, strict=True):
            if _EDITED_RE.search(line):
                line = _EDITED_RE.sub("", line)
                raw_line = _EDITED_RE.sub("", raw_line)
                edited = True
            found = _media_line(raw_line, line)
            if found is not None:
                media.extend(found)
                continue
            # Inline "<attached: x>" after a caption on the same line.
            inline = [a.group("file").strip() for a in _ATTACHED_RE.finditer(line)]
            if inline:
                media.extend(inline)
                line = _ATTACHED_RE.sub("", line).rstrip()
            kept.append(line)
        body = "\n".join(kept).strip("\n").rstrip()
        body = body.strip() if "\n" not in body else body
        if not body.strip():
            if media:
                report.skipped_media += 1
            else:
                report.skipped_empty += 1
            continue
        iso = when.isoformat()
        key = (iso, author, body)
        n = seen.get(key, 0)
        seen[key] = n + 1
        metadata: dict[str, Any] = {"chat": thread}
        if media:
            metadata["media"] = media
        if edited:
            metadata["edited"] = True
        records.append(
            Record(
                content=f"{author}: {body}",
                ref=f"whatsapp:{thread}:{iso}:{author}:{sha1_hex(body)[:12]}:{n}",
                source="whatsapp",
                memory_type="episodic",
                event_at=when,
                author=author,
                thread=thread,
                position=len(records),
                metadata=metadata,
                line=e.line,
            )
        )
    yield from records
