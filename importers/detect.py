"""Format detection for import paths.

Recognises: WhatsApp exports (.txt or .zip), ChatGPT and Claude exports
(conversations.json, split files, directories, zips), markdown files or
directories, vCard files, and JSON lines (first non-empty line is a JSON object
with a "content" key). Detection reads only the head of a file (and zip member
names), never the whole export. The formats themselves are listed in
``importers.registry``.
"""

from __future__ import annotations

import codecs
import json
import re
import tarfile
import zipfile
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from importers import (
    ImportFormatError,
    ImportReport,
    Record,
    apps,
    apps23,
    apps25,
    apps32,
    claude_code,
    codepages,
    dayone,
    deepseek,
    delivered,
    docx,
    html_notes,
    jex,
    journey,
    kinds,
    markdown_apps,
    note_layouts,
    notion,
    roam,
    signal,
    simplenote,
    standardnotes,
    tiddlywiki,
    vcf_csv,
    vcf_forms,
    whatsapp,
)
from importers._common import ZIP_OPEN_ERRORS, is_junk_member
from importers._textlines import damaged_text
from importers._zips import folder_zips
from importers.keep import is_keep_path
from importers.recode import utf16_codec
from importers.registry import NAMES, PARSERS, Parser

_TRIED = "tried " + ", ".join(NAMES)


def _unknown(reason: str, what: str | None) -> str:
    """The end of a detection error: what was tried, what the file is (when known), what was expected."""
    return f"{reason} ({_TRIED})" + (f": {what}" if what else "") + f"; {kinds.EXPECTED}"


def _json_kind(head: str) -> str | None:
    """chatgpt/claude/deepseek from the keys visible in the first bytes of a JSON export."""
    if deepseek.is_head(head):
        return "deepseek"  # (its nodes' "mapping" is ChatGPT's word too: asked first, by DeepSeek's own keys)
    if re.search(r'"mapping"\s*:', head) or re.search(r'"current_node"\s*:', head):
        return "chatgpt"
    if re.search(r'"chat_messages"\s*:', head) or (re.search(r'"uuid"\s*:', head) and '"sender"' in head):
        return "claude"
    if re.search(r'"uuid"\s*:', head) and re.search(r'"prompt_template"\s*:', head):
        return "claude"  # projects.json of a Claude export
    if re.search(r'"conversations_memory"\s*:', head):
        return "claude"  # memories.json of a Claude export (2025)
    return None


# The JSON files of a chat export, the conversations first: an export of no conversation (an empty list)
# is still told by its projects.json or memories.json.
_EXPORT_JSON_RE = re.compile(r"conversations(?:[-_]\d+)?" + delivered.BROWSER_COPY + r"\.jsonl?")
_SIDE_JSON = ("projects.json", "memories.json")


def _export_jsons(bases: list[str]) -> list[int]:
    """Indexes of ``bases`` that are an export's JSON files, conversations first."""
    first = [i for i, b in enumerate(bases) if _EXPORT_JSON_RE.fullmatch(b)]
    return first + [i for i, b in enumerate(bases) if b in _SIDE_JSON] if first else []


def _head_text(raw: bytes) -> str:
    """The text of a file's first bytes: UTF-16 (told by a BOM or NULs beside ASCII, as the JSON
    reader does: :func:`importers.recode.utf16_codec`), else UTF-8."""
    codec = utf16_codec(raw[:8])
    return raw.decode(codec or "utf-8", "replace").lstrip("\ufeff")


def _scan_json_keys(path: Path) -> str | None:
    """Key scan of up to 4 MB: conversations can start with long titles or metadata."""
    with path.open("rb") as fh:
        head = _head_text(fh.read(4 * 1024 * 1024))
    return _json_kind(head)


def _page_kind(path: Path) -> bool:
    """True for ChatGPT's chat.html (its conversations as ``var jsonData = [...]``), looked for
    in the first 4 MB (the page's style sheet comes first)."""
    with path.open("rb") as fh:
        return b"var jsonData = " in fh.read(4 * 1024 * 1024)


_NOTE_SUFFIXES = (".md", ".markdown", ".org", tiddlywiki.TID_SUFFIX)


def _notes_zip(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> bool:
    """A zip of notes (a zipped Obsidian vault; Notion's export, whose large workspaces come as
    zips of "Part-N" zips): notes and no WhatsApp chat (_chat.txt, "WhatsApp ... .txt")."""
    if any(b == "_chat.txt" or (b.endswith(".txt") and "whatsapp" in b) for b in bases):
        return False
    if any(b.endswith(_NOTE_SUFFIXES + (".enex",)) or notion.is_database(b) for b in bases) or any(
            is_keep_path(n) for n in names):
        return True
    texts = [n for n in names if n.lower().endswith((".txt", ".json"))]
    # the backup files first: a Simplenote zip holds a .txt per note besides source/notes.json
    texts.sort(key=lambda n: not (n.lower().endswith("notes.json") or "standard notes" in n.lower()))
    for name in texts[:8]:
        try:
            with zf.open(name) as fh:
                head = fh.read(standardnotes.HEAD_BYTES)
                if standardnotes.is_backup_head(head) or simplenote.is_export_head(head) or dayone.is_export_head(head) \
                        or roam.is_export_head(head) or tiddlywiki.is_export_head(head) or journey.is_export_head(head) \
                        or (name.lower().endswith(".txt") and dayone.is_text_head(head)):
                    return True  # a Standard Notes backup zip; Simplenote's notes.zip
        except ZIP_OPEN_ERRORS:
            return False
    inner = [n for n in names if n.lower().endswith(".zip")]
    if not inner or len(inner) != len(names):
        return False
    try:  # a zip of zips: look at the first one's names (a zip member can be opened as a zip)
        with zf.open(inner[0]) as fh, zipfile.ZipFile(fh) as nested:
            return any(n.lower().endswith(_NOTE_SUFFIXES) for n in nested.namelist())
    except ZIP_OPEN_ERRORS:
        return False


def _plain_notes_zip(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> bool:
    """A zip of plain-text notes: two or more ``.txt`` files, none a chat (the parser's own header
    layouts, looked for in each file's first lines) nor named as WhatsApp names its chats, and no
    zipped chat. A lone ``.txt`` stays a chat to parse (it fails naming what it is): a chat in a layout
    nobody parsed must not become a note silently."""
    texts = [n for n, b in zip(names, bases, strict=True) if b.endswith(".txt")]
    if len(texts) < 2 or any(b.endswith(".zip") or b == "_chat.txt" or "whatsapp" in b for b in bases):
        return False
    for name in texts[:50]:
        try:
            with zf.open(name) as fh:
                head = fh.read(16 * 1024)
        except ZIP_OPEN_ERRORS:
            return False
        codec = utf16_codec(head[:8])
        text = head.decode(codec or "utf-8", "replace").lstrip("\ufeff")
        if "\x00" in text or whatsapp.sniff(text.splitlines()[:50]):
            return False
    return True


def _html_notes_zip(zf: zipfile.ZipFile, names: list[str]) -> bool:
    """A zip of notes as web pages: one of its first pages (not ChatGPT's chat.html) is a note's."""
    pages = [n for n in names if n.lower().endswith(html_notes.HTML_SUFFIXES) and
             n.rsplit("/", 1)[-1].lower() != "chat.html"]
    for name in pages[:8]:
        with zf.open(name) as fh:
            if html_notes.is_note_head(fh.read(html_notes.SNIFF_BYTES)):
                return True
    return False


_FOLDER_ZIP_KINDS = ("chatgpt", "claude")  # exports whose parsers read the zip a folder holds (json_sources)


def _folder_zip_kind(folder: Path) -> str | None:
    """The export a folder holds as its zip (a Downloads folder): the kind every zip in it is, when that is
    ChatGPT's or Claude's."""
    kinds_found: set[str] = set()
    for z in folder_zips(folder):
        try:
            kinds_found.add(_zip_kind(z))
        except ImportFormatError:
            return None
    kind = kinds_found.pop() if len(kinds_found) == 1 else None
    return kind if kind in _FOLDER_ZIP_KINDS else None


def _zip_kind(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not is_junk_member(n)]
            if docx.is_docx_names(names):
                return "markdown"  # a Word document: a note (importers.docx)
            bases = [n.rsplit("/", 1)[-1].lower() for n in names]
            for i in _export_jsons(bases):
                with zf.open(names[i]) as fh:
                    head = _head_text(fh.read(4 * 1024 * 1024))
                kind = _json_kind(head)
                if kind:
                    return kind
            app = apps.zip_app(zf, names, bases)  # a chat app's export (Slack, Telegram, Facebook's download)
            if app:
                return app
            if _notes_zip(zf, names, bases):
                return "markdown"
            if _plain_notes_zip(zf, names, bases):
                return "markdown"  # a zip of plain .txt notes: told by what the files hold, not by the zip
            if any(b.endswith(".txt") for b in bases) or any(b.endswith(".zip") for b in bases):
                return "whatsapp"
            if "chat.html" in bases:  # ChatGPT's viewer page alone: it holds every conversation
                return "chatgpt"
            if any(b.endswith(".vcf") for b in bases):  # an address book zipped (Google Takeout)
                return "vcf"
            if _html_notes_zip(zf, names):  # notes as web pages (Apple Notes exporters, Evernote, Joplin)
                return "markdown"
            what = kinds.zip_kind(zf)
    except ZIP_OPEN_ERRORS as exc:
        raise ImportFormatError(f"malformed zip archive ({exc}); {_TRIED}", str(path)) from None
    raise ImportFormatError(_unknown("zip holds no chat export", what), str(path))


def detect(path: Path | str) -> str:
    """The name of the importer (``importers.registry.NAMES``) for a path.

    Raises ImportFormatError naming the formats tried when nothing matches.
    """
    path = Path(path)
    file = str(path)
    if not path.exists():
        raise ImportFormatError("no such file or directory", file)
    if path.is_dir():
        # names first (a vault of 100k notes is not stat'ed for this), then only those are checked as files
        files = sorted(p for p in path.iterdir() if (_EXPORT_JSON_RE.fullmatch(p.name.lower())
                                                     or p.name.lower() in _SIDE_JSON) and p.is_file())
        for i in _export_jsons([p.name.lower() for p in files]):
            kind = _scan_json_keys(files[i])
            if kind:
                return kind
        if any(claude_code.is_session(p) for p in islice(path.rglob("*.jsonl"), 20)):
            return "claude"  # Claude Code's sessions of a project (~/.claude/projects/<project>/)
        app = apps.folder_app(path)  # a chat app's export folder (Slack, Telegram, a Messenger chat)
        if app:
            return app
        inner = delivered.only_folder(path)
        if inner is not None and apps.folder_app(inner) == "telegram":
            return "telegram"  # the folder a Telegram export was saved in: its pages are no notes
        what = kinds.folder_kind(path)
        if what is not None:  # another app's export, whose pages and JSON are no notes
            raise ImportFormatError(_unknown("not an export", what), file)
        if apps.meta_download(path):
            return "messenger"  # Instagram's or Facebook's download at its top: its start page and README no notes
        if any(any(path.rglob(pattern)) for pattern in ("*.md", "*.markdown", "*.org", "*.tid", "Keep/*.json", "*.enex", "*.docx")) or any(
                notion.is_database(p) for p in path.rglob("*.csv")):
            return "markdown"  # notes; Google Keep's (Takeout/Keep/*.json) and Evernote's too
        if other_notes(path) or markdown_apps.plain_notes(path):
            return "markdown"  # web pages, backups of note apps; a folder of plain .txt notes
        app = apps.deep_folder_app(path)  # Facebook's or Instagram's download: its chats lie deep below it
        if app:
            return app
        kind = apps32.folder_export(path) or _folder_zip_kind(path)  # only chat.html, vCards, the export's zip
        if kind:
            return kind
        for p in files:  # an export's own file, empty: said as such, not as "no conversations*.json"
            if p.stat().st_size == 0:
                raise ImportFormatError(f"empty file ({_TRIED})", str(p))
        for p, why in delivered.not_here(path, delivered.EXPORT_SUFFIXES):  # the export left in iCloud
            raise ImportFormatError(f"{why} ({_TRIED})", str(p))
        raise ImportFormatError(_unknown("directory holds no conversations*.json nor notes", kinds.folder_kind(path, deep=True)),
                                file)
    what = delivered.os_file(path)  # an iCloud placeholder, a Zone.Identifier, an AppleDouble, a .DS_Store
    if what:
        raise ImportFormatError(what, file)
    with path.open("rb") as fh:
        raw = fh.read(64 * 1024)
    if raw.startswith(b"PK\x03\x04"):
        return _zip_kind(path)
    if raw.startswith(b"PK\x05\x06"):  # only the end-of-archive record: a zip of nothing
        raise ImportFormatError(f"empty zip archive ({_TRIED})", file)
    if not raw.strip():
        raise ImportFormatError(f"empty file ({_TRIED})", file)
    if jex.is_tar_head(raw):  # Joplin's JEX (a tar of its RAW items): notes
        names = _tar_names(path)
        if any(jex.ITEM_RE.fullmatch(n.rsplit("/", 1)[-1]) for n in names):
            return "markdown"
        if any(n.rsplit("/", 1)[-1] == "messages.json" for n in names):
            return "skype"  # Skype's export: a tar of messages.json and its media
        if apps25.tar_app(path):
            return "zulip"  # Zulip's export unpacked from its .tar.gz once
        raise ImportFormatError(_unknown("tar archive holds no Joplin notes", None), file)
    if raw.startswith(b"\x1f\x8b"):
        if apps25.tar_app(path):
            return "zulip"  # Zulip's export as its web UI gives it (.tar.gz)
        damage = apps25.gzip_damage(path)
        if damage:
            raise ImportFormatError(_unknown("not an export", damage), file)
    what = kinds.binary_kind(raw, path)
    if what is not None:
        raise ImportFormatError(_unknown("not an export", what), file)
    if utf16_codec(raw[:8]):
        text = _head_text(raw)
    elif b"\x00" in raw and not damaged_text(raw):
        raise ImportFormatError(_unknown("binary data", None), file)
    else:  # NULs of a damaged copy (a zero-filled tail, strays) are no text: the reader drops them too
        text = _legacy_head(raw).lstrip("\ufeff").replace("\x00", "")
    suffix = path.suffix.lower()
    stripped = text.lstrip()
    if stripped.upper().startswith("BEGIN:VCARD") or (suffix == ".vcf" and not stripped.upper().startswith("BEGIN:VCALENDAR")):
        return "vcf"  # (a calendar named .vcf is said to be one below, by kinds.text_kind)
    if vcf_forms.form_of(stripped[:4096]):
        return "vcf"  # a jCard (JSON) or xCard (XML) address book
    if suffix == ".csv" and vcf_csv.is_head(stripped[:4096]):
        return "vcf"  # Google's or Outlook's contacts CSV
    app = apps.head_app(path, text)  # Viber, WeChat, Threema, Element, X's DMs, Google Voice, signal-export's pages
    if app:
        return app
    if stripped.startswith(("[", "{")):
        first = next((ln for ln in stripped.splitlines() if ln.strip()), "")
        if first.startswith("{") and suffix != ".json":
            try:
                obj: Any = json.loads(first)
            except (ValueError, RecursionError):  # not JSON, or nested past json's depth: no JSON line
                obj = None
            if isinstance(obj, dict) and "content" in obj:
                return "jsonl"
            if claude_code.is_session_head(raw):
                return "claude"  # a Claude Code session (~/.claude/projects/<project>/<session>.jsonl)
        kind = _json_kind(text) or (_scan_json_keys(path) if len(raw) == 64 * 1024 else None)
        if kind:
            return kind
        app = apps.json_app(text, path)  # a chat app's JSON: Telegram, Discord, Messenger, a Slack day
        if app:
            return app
        if first.startswith("{"):
            try:
                obj = json.loads(first)
            except (ValueError, RecursionError):
                obj = None
            if isinstance(obj, dict) and "content" in obj:
                return "jsonl"
    if suffix == ".md" and signal.is_chat(path):
        return "signal"  # signal-export's chat.md: "[2024-03-13 19:02] Name: text"
    if suffix in (".md", ".markdown", ".org", ".enex", ".canvas", ".tid") or notion.is_database(path) or \
            dayone.is_export_head(raw) or standardnotes.is_backup_head(raw) or simplenote.is_export_head(raw) or \
            roam.is_export_head(raw) or tiddlywiki.is_export_head(raw) or note_layouts.is_zim_head(raw) or \
            (suffix == ".json" and journey.is_export_head(raw)) or (
                suffix == ".txt" and dayone.is_text_head(raw)):  # Day One's plain-text journal
        return "markdown"
    if suffix in (".html", ".htm") and _page_kind(path):
        return "chatgpt"
    app = apps.text_app(text)  # Telegram's pages, DiscordChatExporter's text and CSV, imessage-exporter's text
    if app:
        return app
    what = kinds.other_app(text) or apps23.refused(path) or apps25.refused(path, text)
    if what is not None:  # Telegram's messages.html is a web page, no note; Discord's "[14/03/2024 18:01]" no chat
        raise ImportFormatError(_unknown("unrecognised format", what), file)
    if html_notes.is_note_page(path):
        return "markdown"  # a note exported as a web page
    if whatsapp.sniff(text.splitlines()[:50]):  # the parser's own header layouts
        return "whatsapp"
    raise ImportFormatError(_unknown("unrecognised format", kinds.text_kind(text, suffix)), file)


def _legacy_head(raw: bytes) -> str:
    """The text of a file's first bytes: UTF-8 (a character cut by the read's end is no error), or, when they are
    not, the code page the reader will read them in (:func:`importers.codepages.guess`): an Arabic chat saved as
    "ANSI" writes U+200F in its dates as the byte 0xFE, a header only its code page reads."""
    try:
        return codecs.getincrementaldecoder("utf-8")("strict").decode(raw, final=False)
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
        bad = text.count("\ufffd")
        if sum(1 for ch in text if ch > "\x7f") - bad > bad:
            return text  # UTF-8 with a few damaged bytes, as the reader takes it
        return raw.decode(codepages.guess(raw)[0], "replace")


def _tar_names(path: Path, limit: int = 2000) -> list[str]:
    """The first member names of a tar archive (none when it cannot be read: the parser says why)."""
    names: list[str] = []
    try:
        with tarfile.open(path, "r:") as tar:
            for member in tar:
                names.append(member.name)
                if len(names) >= limit:
                    break
    except (tarfile.TarError, EOFError, OSError):
        pass
    return names


def other_notes(folder: Path) -> bool:
    """A folder of notes that are no Markdown: web pages (a few looked at) or a Standard Notes backup."""
    for pattern in ("*.html", "*.htm"):
        for page in list(path_iter(folder, pattern))[:20]:
            if html_notes.is_note_page(page):
                return True
    return any(standardnotes.is_backup(p) or simplenote.is_export(p) or dayone.is_export(p) or roam.is_export(p)
               or tiddlywiki.is_export(p) or journey.is_export(p) for pattern in ("*.txt", "*.json") for p in list(path_iter(folder, pattern))[:20])


def path_iter(folder: Path, pattern: str) -> Iterator[Path]:
    """Files below ``folder`` matching ``pattern``, outside hidden folders."""
    for p in folder.rglob(pattern):
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts):
            yield p


def parse(path: Path, report: ImportReport | None = None, **options: Any) -> Iterator[Record]:
    """Detect the format and run its parser."""
    kind = detect(path)
    rep = report or ImportReport(str(path), kind)
    return PARSERS[kind].parse(Path(path), rep, **options)


__all__ = ["PARSERS", "Parser", "detect", "parse"]
