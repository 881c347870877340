"""What a file that is no export is, for the one-line error of ``mem.py import``: a user who points
the import at a PDF, a photo, a spreadsheet or WhatsApp's encrypted backup learns what the file
is and what the import expects, not only that the format was not recognised.

Told by magic numbers, the members of a zip, and the shape of text; None when nothing says.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

EXPECTED = ("expected a WhatsApp chat (.txt, .zip), a ChatGPT or Claude export (conversations.json, "
            "chat.html or the export .zip), notes (.md, .html, .enex, a Notion, Keep, Standard Notes or Day One "
            "export), "
            "contacts (.vcf), JSON lines (.jsonl) or a chat of Telegram, Slack, Discord (DiscordChatExporter: JSON, CSV, text or its web page), Messenger, "
            "Instagram, iMessage (imessage-exporter), LINE, KakaoTalk, SMS Backup & Restore, Google Chat or Hangouts "
            "(Takeout), Signal Desktop (signal-export), Skype, Viber (its CSV), WeChat (MemoTrace's CSV, TXT or web page, WechatExporter's pages), Threema, "
            "Element (Matrix, JSON, text or its HTML export), X/Twitter DMs (the archive), Google Voice (Takeout), Zoom (meeting_saved_chat.txt) "
            "Snapchat (chat_history.json), LinkedIn or Reddit (messages.csv), Discord's data package, Tinder (data.json), Hinge "
            "(matches.json), Mattermost (bulk export), Zulip (its export, .tar.gz) or Teams (free, its zip); Gemini Apps "
            "(Takeout's My Activity in JSON); DeepSeek, Grok or Le Chat (their export), Rocket.Chat (Export my data, JSON or HTML); Character.AI chats (JSON, its account export too), Microsoft Copilot's activity history (CSV), Perplexity threads (Markdown), VK (its archive), iMazing's message CSVs; the journals of Daylio (its CSV) and Diaro (its backup); email (.mbox, .eml, .emlx: Gmail's Takeout, Thunderbird, Apple Mail); a Word "
            "document (.docx) as a note")

_MAGIC = (
    (b"%PDF", "a PDF document"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"GIF8", "a GIF image"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"OggS", "an Ogg audio file (a voice note?)"),
    (b"ID3", "an MP3 audio file"),
    (b"\x1f\x8b", "a gzip archive (unpack it first)"),
    (b"Rar!", "a RAR archive (unpack it first)"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive (unpack it first)"),
    (b"\xd0\xcf\x11\xe0", "an old Office document"),
    (b"{\\rtf", "an RTF document"),
)
_ZIP_MEMBERS = (
    ("word/", "a Word document"),
    ("xl/", "an Excel workbook"),
    ("ppt/", "a PowerPoint presentation"),
    ("androidmanifest.xml", "an Android app"),
    ("meta-inf/container.xml", "an EPUB book"),
    ("index/document.iwa", "an Apple Pages, Numbers or Keynote document"),
)


def binary_kind(head: bytes, path: Path) -> str | None:
    """What a file is by its first bytes (and, for WhatsApp's backups and Outlook's files, its name)."""
    name = path.name.lower()
    if head.startswith(b"!BDN"):
        return "an Outlook data file (.pst: export the folder from Outlook as .eml files, or as an .mbox, to import it)"
    if head.startswith(b"\xd0\xcf\x11\xe0") and name.endswith(".msg"):
        return "an Outlook message (.msg: save it as .eml, or drag it out of the new Outlook, to import it)"
    if head.startswith(b"\xe4\x52\x5c\x7b\x8c\xd8\xa7\x4d"):
        return "a OneNote section (.one: export its pages as .docx or PDF; a .docx imports as a note)"
    if head.startswith(b"MSCF") and name.endswith(".onepkg"):  # a cabinet of .one sections
        return "a OneNote notebook package (.onepkg: no readable export; export its pages as .docx or PDF, a .docx " \
               "imports as a note)"
    if re.search(r"\.crypt\d+$", name):
        return "an encrypted WhatsApp backup (export a chat from the app: More > Export chat)"
    if re.fullmatch(r"signal-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.backup", name):
        return "an encrypted Signal backup" + NOT_SUPPORTED
    for magic, what in _MAGIC:
        if head.startswith(magic):
            return what
    if head[4:8] == b"ftyp":
        return "an HEIC image or MP4/MOV video" if head[8:12] not in (b"M4A ", b"M4B ") else "an M4A audio file"
    if head.startswith(b"RIFF") and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return {b"WEBP": "a WebP image", b"WAVE": "a WAV audio file", b"AVI ": "an AVI video"}[head[8:12]]
    return None


def zip_kind(zf: zipfile.ZipFile) -> str | None:
    """What a zip is by its members: an Office document, an app, a book; a zip of media only."""
    names = [n.lower() for n in zf.namelist()]
    if "mimetype" in names:
        try:
            mime = zf.read("mimetype")[:100].decode("ascii", "replace")
        except (KeyError, OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError):
            mime = ""
        if "opendocument" in mime:
            return "an OpenDocument file"
        if "epub" in mime:
            return "an EPUB book"
    for prefix, what in _ZIP_MEMBERS:
        if any(n.startswith(prefix) or n == prefix for n in names):
            return what
    bases = {n.rsplit("/", 1)[-1] for n in names}
    if {"channels.json", "users.json"} <= bases:
        return "a Slack workspace export" + NOT_SUPPORTED
    if "result.json" in bases or any(b.startswith("messages") and b.endswith(".html") for b in bases):
        return "a Telegram export" + NOT_SUPPORTED
    if any(re.search(r"(?:^|/)messages/inbox/[^/]+/message_\d+\.json$", n) for n in names):
        return "a Facebook or Instagram data download" + NOT_SUPPORTED
    files = [n for n in names if not n.endswith("/")]
    if files and all(re.search(r"\.(?:jpe?g|png|gif|heic|webp|mp4|mov|opus|ogg|m4a|mp3|pdf)$", n) for n in files):
        return "a zip of photos, videos or documents only"
    return None


# Exports of other apps, by the keys of their JSON (read in the first bytes): the user learns which
# app's export it is, and that it is not one mem reads.
_OTHER_JSON = (
    ((r'"sender_name"', r'"timestamp_ms"'), "a Facebook Messenger or Instagram chat export"),
    ((r'"type"\s*:\s*"(?:personal_chat|private_group|private_supergroup|public_channel|saved_messages)"',),
     "a Telegram chat export"),
    ((r'"chats"\s*:\s*\{', r'"personal_information"'), "a Telegram export"),
    ((r'"guild"\s*:', r'"channel"\s*:', r'"messages"\s*:'), "a Discord chat export"),
    ((r'"client_msg_id"|"subtype"\s*:\s*"channel_join"',), "a Slack channel export"),
    ((r'"comments_v2"\s*:',), "Facebook comments (your comments on posts: no conversation, and each says no more "
                               "than the post it answers)"),
)
_OTHER_TEXT = (
    (re.compile(r"^BEGIN:VCALENDAR", re.IGNORECASE), "an iCalendar file (events)"),
    (re.compile(r"^From \S+ +\w{3} \w{3} +\d"), "a mailbox (mbox) of emails"),
    (re.compile(r"^(?:(?:Return-Path|Received|Delivered-To|MIME-Version|Message-ID|From|To|Subject|Date|X-[\w-]+):"
                r" .*\r?\n){3}", re.IGNORECASE), "an email message"),
    (re.compile(r'<div class="message (?:default|service)'), "a Telegram chat as a web page"),
    # Element's web page of a room: its JSON export is the same room, exact and with ids
    (re.compile(r'class="mx_(?:Export_EventWrapper|EventTile|MatrixChat)'),
     "an Element (Matrix) room exported as HTML; export it as JSON (Export chat > Format: JSON) to import it"),
    # DiscordChatExporter: its plain text ("=====", "Guild: ...", "Channel: ...") and its CSV's header
    (re.compile(r"^={20,}\r?\nGuild: [^\n]*\r?\nChannel: "), "a Discord chat export"),
    (re.compile(r'^"?AuthorID"?,"?Author"?,"?Date"?,"?Content"?,'), "a Discord chat export"),
    # imessage-exporter's text: "Mar 14, 2024  6:01:12 PM (Read by you after 1 minute)", the sender, the words
    (re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4} {1,2}\d{1,2}:\d{2}:\d{2} [AP]M(?: \([^)\n]*\))?\r?\n[^\n]+\r?\n"),
     "an iMessage chat export"),
    # Telegram Desktop's "copy": "Ana Sousa, [13.03.24 15:00]" then the message, a blank line between
    (re.compile(r"^[^\n,\[\]]{1,80}, \[\d{1,2}[./]\d{1,2}[./]\d{2,4},? \d{1,2}:\d{2}(?::\d{2})?(?: ?[AaPp]\.? ?[Mm]\.?)?\]\r?\n"),
     "a Telegram chat copied as text"),
    # SMS Backup & Restore's call log (its messages are read: importers.sms): a call holds no words to remember, and a
    # record per call would bury the chats' episodes
    (re.compile(r"^<\?xml[^>]*\?>\s*(?:<!--.*?-->\s*|<\?xml-stylesheet[^>]*\?>\s*)*<calls[\s>]", re.DOTALL),
     "an SMS Backup & Restore call log"),
)
# Text of no export that is not another app's either: subtitles, a program's log (said before "a CSV
# table": a log's lines have commas too).
_SUBTITLES = (
    (re.compile(r"^\d+\r?\n\d{1,2}:\d{2}:\d{2},\d{3} --> \d{1,2}:\d{2}:\d{2},\d{3}"), "subtitles of a video (SubRip)"),
    (re.compile(r"^WEBVTT(?:[ \t]|\r?\n|$)"), "subtitles of a video (WebVTT)"),
)
# "2024-03-13 15:00:01,123 INFO ...", "[2024-03-13T15:00:01Z] WARN ...", "Mar 13 15:00:01 host sshd[42]: ..."
_LOG_LINE_RE = re.compile(r"^\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}[\d.,:]*(?:Z|[+-]\d{2}:?\d{2})?\]?\s+\[?"
                          r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|CRITICAL|FATAL|SEVERE)\b|"
                          r"[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \S+ [\w./-]+(?:\[\d+\])?: )")
NOT_SUPPORTED = " (not an export mem reads)"


def other_app(text: str) -> str | None:
    """Which other app's export a text file is, by its shape (the first of :data:`_OTHER_TEXT` found), or None:
    asked before a web page is taken for a note (Telegram's messages.html is a page too)."""
    head = text.lstrip("\ufeff \t\r\n")[:20000]
    return next((what + NOT_SUPPORTED for pattern, what in _OTHER_TEXT if pattern.search(head)), None)


_TELEGRAM_PAGE_RE = re.compile(r"messages\d*\.html|export_results\.html")


def folder_kind(folder: Path, deep: bool = False) -> str | None:
    """Which other app's export a folder is, or None: Slack's (channels.json and users.json), Telegram's (its
    result.json, or its pages: messages.html, a full export's export_results.html), by the folder's own names;
    with ``deep``, a Facebook or Instagram data download (messages/inbox/<chat>/message_1.json below it: the
    whole tree is walked, so only once nothing else was found)."""
    try:
        names = {p.name.lower(): p for p in folder.iterdir() if p.is_file()}
    except OSError:
        return None
    if {"channels.json", "users.json"} <= set(names):
        return "a Slack workspace export" + NOT_SUPPORTED
    if "result.json" in names:
        return "a Telegram export" + NOT_SUPPORTED
    for name, page in sorted(names.items()):
        if _TELEGRAM_PAGE_RE.fullmatch(name):
            with page.open("rb") as fh:
                what = other_app(fh.read(20000).decode("utf-8", "replace"))
            if what is not None or name == "export_results.html":
                return what or "a Telegram export" + NOT_SUPPORTED
    if deep and next(folder.glob("**/inbox/*/message_*.json"), None) is not None:
        return "a Facebook or Instagram data download" + NOT_SUPPORTED
    return None


def text_kind(text: str, suffix: str) -> str | None:
    """What a text file is by its shape: another app's export (Telegram, Messenger, Discord, a
    calendar, an email, SMS Backup & Restore), JSON of no known export, subtitles, a program's log, a
    CSV table, a web page, XML."""
    stripped = text.lstrip("\ufeff \t\r\n")
    head = stripped[:65536]
    for pattern, what in _OTHER_TEXT:
        if pattern.search(head[:20000]):  # "^" patterns: the file's start; the others: anywhere in its head
            return what + NOT_SUPPORTED
    if _JSON_START_RE.match(stripped):  # not "[LINE] Chat history ...": text that only starts with a bracket
        for keys, what in _OTHER_JSON:
            if all(re.search(k, head) for k in keys):
                return what + NOT_SUPPORTED
        return "JSON without conversations or notes"
    low = stripped[:1000].lower()
    if low.startswith(("<!doctype html", "<html")) or suffix in (".html", ".htm"):
        return "a web page without conversations or notes"
    if low.startswith("<?xml"):
        return "an XML file"
    for pattern, what in _SUBTITLES:
        if pattern.search(head):
            return what
    lines = [ln for ln in stripped.splitlines()[:20] if ln.strip()]
    if len(lines) >= 2 and sum(1 for ln in lines if _LOG_LINE_RE.match(ln)) * 5 >= len(lines) * 4:
        return "a program's log"  # four lines in five start with a time and a level (or syslog's host and program)
    if lines and _CONTACT_COLUMNS_RE.search(lines[0]) and _fields(lines[0]) > 3:
        return "a contacts table (CSV: export the contacts as vCard, .vcf, to import them)"
    if suffix in (".csv", ".tsv") or (len(lines) >= 2 and all(_fields(ln) == _fields(lines[0]) > 1 for ln in lines)):
        return "a CSV table"
    if suffix == ".txt":  # a lone plain-text file is not taken for a note unasked: it may be a chat nobody parsed
        return "plain text with no chat header (`mem.py import markdown FILE` reads it as a note)"
    return None


# (a number is JSON's when a comma or a bracket follows it: "[2024-03-14 18 h 01]" is a chat's header, no list)
_JSON_START_RE = re.compile(r'[\[{]\s*(?:[\[{"\]}]|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\s*[,\]]|true\b|false\b|null\b|$)')
# The header of Google's, Outlook's and Apple's contact tables.
_CONTACT_COLUMNS_RE = re.compile(r"(?:^|[,;\t])\"?(?:Given Name|First Name|Phone 1 - Value|E-mail Address|Mobile Phone|"
                                 r"E-mail 1 - Value)\"?(?:[,;\t]|$)", re.IGNORECASE)


def _fields(line: str) -> int:
    sep = max(",;\t", key=line.count)
    return line.count(sep) + 1 if line.count(sep) else 1
