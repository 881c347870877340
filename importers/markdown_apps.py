"""What note apps put into their Markdown exports beyond Markdown, read for :mod:`importers.markdown`.

* **Joplin RAW** export: one ``<32-hex id>.md`` per item, the title on line 1, the body, then a
  block of ``key: value`` lines ending in ``type_: N`` (1 a note; 2 a notebook, 4 a resource,
  5 a tag, 6 a note's tag: no notes). The block is no text of the note: it dates it.
* **Logseq** pages: ``key:: value`` page properties on the first lines (``tags:: [[a]], b``,
  ``alias:: x``), and the app's own ``id:: <uuid>`` / ``collapsed:: true`` lines under blocks.
* **Notion** pages: ``Key: value`` property lines right under the title (``Created: March 12,
  2024 9:15 AM``, ``Tags: House, Money``); they stay text, and date and tag the page.
* **Bear** tags of several words, closed by a second ``#``: ``#family trip#``.
* **Joplin to-dos**: ``completed?`` and ``due`` in its front matter export, ``is_todo``, ``todo_due`` and
  ``todo_completed`` (ms) in its RAW one: a to-do line ends the note (:func:`todo`).
"""

from __future__ import annotations

import io
import json
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import IO, Any
from urllib.parse import unquote

from importers import ImportFormatError, dayone, html_notes, journey, roam, simplenote, standardnotes, tiddlywiki
from importers._common import DEFAULT_MAX_MEMBER_BYTES, ZIP_ERRORS, is_junk_member, iso_time, open_zip, todo_line
from importers.keep import is_keep_path
from importers.note_layouts import TRASH_FOLDERS

_JOPLIN_ID_RE = re.compile(r"^id: [0-9a-f]{32}$")
_JOPLIN_TYPE_RE = re.compile(r"^type_: (\d+)$")
_KEY_VALUE_RE = re.compile(r"^([a-z_]+): ?(.*)$")
JOPLIN_NOTE = "1"


def joplin_raw(lines: list[str]) -> tuple[dict[str, Any], list[str]] | None:
    """(front matter, the note's lines with its title as a level-1 heading) of a Joplin RAW export
    item, or None when ``lines`` are not one. The front matter holds ``type_`` (a note is "1"),
    ``title``, ``id``, ``parent_id`` and the creation and update times."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    if not end or not _JOPLIN_TYPE_RE.match(lines[end - 1].strip()):
        return None
    start = end
    while start and _KEY_VALUE_RE.match(lines[start - 1].rstrip()):
        start -= 1
    block = [ln.rstrip() for ln in lines[start:end]]
    if not any(_JOPLIN_ID_RE.match(ln) for ln in block) or (start and lines[start - 1].strip()):
        return None
    meta = {m.group(1): m.group(2).strip() for m in map(_KEY_VALUE_RE.match, block) if m}
    title = lines[0].strip() if start else ""
    body = lines[2:start - 1] if start >= 2 else []
    front: dict[str, Any] = {"type_": meta.get("type_", ""), "id": meta.get("id", "")}
    if title:
        front["title"] = title
    for key in ("parent_id", "user_created_time", "created_time", "user_updated_time", "updated_time", "is_todo",
                "todo_due", "todo_completed"):
        if meta.get(key):
            front[key.removeprefix("user_")] = front.get(key.removeprefix("user_")) or meta[key]
    if front.get("created_time"):
        front["created"] = front.pop("created_time")
    return front, ([f"# {title}", ""] if title else []) + body


def _ms_time(value: Any) -> datetime | None:
    """A Joplin RAW time in milliseconds since 1970 ("0": none); one no calendar holds is none too."""
    try:
        ms = int(str(value).strip())
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc) if 0 < ms < 10**14 else None
    except (ValueError, OverflowError, OSError):
        return None


def _aware(value: Any) -> datetime | None:
    """A front matter time (parsed by YAML, or the string Joplin writes, "2024-03-20 09:00:00Z"), in UTC."""
    if not isinstance(value, datetime):
        try:
            value = datetime.fromisoformat(str(value).strip())
        except ValueError:
            return None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def todo(front: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(the to-do line that ends the note, metadata) of a Joplin to-do, ("", {}) for any other note: its front
    matter export writes ``completed?: yes/no`` (only to-dos have it) and ``due``, its RAW export ``is_todo: 1``,
    ``todo_due`` and ``todo_completed`` (ms, 0 for none). Read as Evernote's reminders are:
    ``[ ] To-do (due 2024-03-20 09:00 UTC)``, ``[x]`` once completed, with the completion time when known
    (``[x] To-do (due …; done 2024-03-19 18:30 UTC)``)."""
    done_at = None
    if str(front.get("is_todo", "")).strip() == "1":
        due, done_at = _ms_time(front.get("todo_due")), _ms_time(front.get("todo_completed"))
        done = done_at is not None
    elif "completed?" in front:
        due, done = _aware(front.get("due")), str(front["completed?"]).strip().lower() in ("yes", "true")
    else:
        return "", {}
    meta: dict[str, Any] = {"due": due.isoformat()} if due else {}
    if done:  # when it was done: the RAW export's todo_completed (the front matter export does not say)
        meta |= {"done": True} | ({"done_at": done_at.isoformat()} if done_at is not None else {})
    return todo_line("To-do", due, done, done_at), meta


_LOGSEQ_PROP_RE = re.compile(r"^([A-Za-z][\w-]*):: ?(.*)$")
# The app's own bookkeeping under a block: a block's uuid, whether it is folded. Not the user's words.
LOGSEQ_NOISE_RE = re.compile(
    r"^\s*(?:id:: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|collapsed:: (?:true|false)|"
    r"heading:: (?:true|false|[1-6])|background-color:: \S+|logseq\.order-list-type:: \w+)\s*$",
    re.IGNORECASE)


def logseq_properties(lines: list[str]) -> tuple[dict[str, Any], int]:
    """(page properties, index of the first body line) of a Logseq page whose first lines are
    ``key:: value``; ({}, 0) otherwise. ``tags``/``alias`` become lists (``[[a]], b`` is a, b)."""
    props: dict[str, Any] = {}
    i = 0
    while i < len(lines) and (m := _LOGSEQ_PROP_RE.match(lines[i].strip())):
        key, value = m.group(1).lower(), m.group(2).strip()
        if key in ("tags", "alias", "aliases"):
            items = [re.sub(r"^\[\[|\]\]$", "", v.strip()).lstrip("#").strip() for v in value.split(",")]
            props[key] = [v for v in items if v] if key == "tags" or len(items) > 1 else (items[0] if items else "")
        else:
            props[key] = value
        i += 1
    if not props:
        return {}, 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    return props, i


_NOTION_PROP_RE = re.compile(r"^([A-Z][\w .'/-]{0,40}?): (\S.*)$")


def notion_properties(lines: list[str]) -> dict[str, Any]:
    """The ``Key: value`` lines under a Notion page's title heading (its database properties),
    as front matter (``Tags`` split on commas); {} when the page has none."""
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].startswith("# "):
        return {}
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    props: dict[str, Any] = {}
    while i < len(lines) and (m := _NOTION_PROP_RE.match(lines[i].rstrip())):
        props[m.group(1)] = m.group(2).strip()
        i += 1
    if i < len(lines) and lines[i].strip():
        return {}  # a paragraph that starts with "Note: ...", not a block of properties
    for key in list(props):
        if key.lower() == "tags":
            props[key] = [t.strip() for t in props[key].split(",") if t.strip()]
    return props


_BEAR_TAG_RE = re.compile(r"(?<!\S)#([^\s#][^#\n]{0,60}?[^\s#])#(?!\w)")


def _bear_info(file: Path) -> dict[str, Any] | None:
    """The "net.shinyfrog.bear" object of a TextBundle's ``info.json`` (Bear 2's backups and exports), else None."""
    info = file.parent / "info.json"
    if file.parent.suffix.lower() not in (".textbundle", ".textpack") or not info.is_file():
        return None
    try:
        data = json.loads(info.read_bytes()[:1 << 20])
    except (OSError, ValueError, RecursionError):
        return None  # an unreadable info.json dates nothing; the note is read all the same
    bear = data.get("net.shinyfrog.bear") if isinstance(data, dict) else None
    return bear if isinstance(bear, dict) else None


def bundle_date(file: Path) -> datetime | None:
    """When Bear made a TextBundle's note (``text.markdown`` beside an ``info.json`` whose "net.shinyfrog.bear"
    holds its creationDate: Bear 2's backups and exports), else None."""
    bear = _bear_info(file)
    return iso_time(bear.get("creationDate")) if bear else None


def bundle_trashed(file: Path) -> bool:
    """True when a TextBundle's note is in Bear's trash (its info.json says ``"trashed": 1``: a Bear 2 backup
    holds the trash too): no note, as a trashed Keep or Standard Notes note is none."""
    bear = _bear_info(file)
    return bear is not None and bear.get("trashed") in (1, True, "1")


def bear_tags(text: str) -> tuple[list[tuple[int, str]], str]:
    """Bear's tags of several words (``#family trip#``) with their positions, and ``text`` with
    them blanked out (so a one-word tag reader does not read ``#family`` from them)."""
    found: list[tuple[int, str]] = []

    def blank(m: re.Match[str]) -> str:
        tag = m.group(1)
        if " " not in tag or not re.search(r"[^\W\d_]", tag) or len(tag.split()) > 5:
            return m.group(0)
        found.append((m.start(), re.sub(r"\s+", " ", tag)))
        return " " * len(m.group(0))

    return found, _BEAR_TAG_RE.sub(blank, text) if "#" in text else text


MAX_UNPACKED_BYTES = 4 * DEFAULT_MAX_MEMBER_BYTES  # the notes of one zipped export, all together


def unpack_notes(source: Path | IO[bytes], archive: str, dest: Path, suffixes: tuple[str, ...], note_cap: int,
                 depth: int = 0, written: list[int] | None = None) -> int:
    """Write the notes (``suffixes``) of a zipped export under ``dest``, keeping their paths, and
    those of the zips inside it (Notion splits a large export into "Part-N" zips: their trees
    merge). Nothing else is written; names are checked against zip slip (:func:`open_zip`); a
    note is copied up to ``note_cap`` + 1 bytes (the parser refuses it, naming it), the whole
    export up to MAX_UNPACKED_BYTES. Returns the number of notes written."""
    written = written if written is not None else [0]
    count = 0
    with open_zip(source, archive) as zf:
        for info in zf.infolist():
            name = info.filename
            if is_junk_member(name):
                continue
            low = name.lower()
            if low.endswith(".zip") and depth < 2:
                with zf.open(info) as inner:  # a zip member is seekable: opened as a zip in place
                    count += unpack_notes(inner, f"{archive}!{name}", dest, suffixes, note_cap, depth + 1, written)
                continue
            if not (low.endswith(suffixes) or is_keep_path(name)):
                continue
            target = dest.joinpath(*PurePosixPath(name.replace("\\", "/")).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            cap = DEFAULT_MAX_MEMBER_BYTES if low.endswith(".enex") else note_cap  # a notebook and its attachments
            try:
                with zf.open(info) as src, target.open("wb") as out:
                    shutil.copyfileobj(_capped(src, cap + 1), out)
            except ZIP_ERRORS as exc:
                raise ImportFormatError(f"cannot read zip member ({exc})", f"{archive}!{name}") from None
            written[0] += target.stat().st_size
            if written[0] > MAX_UNPACKED_BYTES:
                raise ImportFormatError(f"notes of more than {MAX_UNPACKED_BYTES} bytes in this zip", archive)
            count += 1
    return count


class _capped(io.RawIOBase):
    """At most ``limit`` bytes of ``raw``."""

    def __init__(self, raw: IO[bytes], limit: int) -> None:
        self._raw, self._left = raw, limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(min(len(buffer), self._left, 1 << 16)) if self._left > 0 else b""
        self._left -= len(data)
        buffer[: len(data)] = data
        return len(data)


# A Markdown link to another note of the export (Notion, Bear, Typora): "[Porto](Trips%20x/Porto%20y.md)", or to a
# Notion database's table ("[Projects](Home%20x/Projects%20y.csv)": the database, read by its rows).
# Joplin links notes by id: "[Boiler service](:/7e6d…)" (a picture or file is "![name](:/<id>)", left to the
# picture rule); the target is named ":/<id>", which :func:`joplin_key` gives the note of that id.
JOPLIN_LINK = ":/"
_JOPLIN_LINK_RE = re.compile(r"(?<!!)\[([^\[\]\n]+)\]\(:/([0-9a-fA-F]{32})\)")
_JOPLIN_HEX_RE = re.compile(r"[0-9a-fA-F]{32}")
_NOTE_LINK_RE = re.compile(r"(?<!!)\[([^\[\]\n]+)\]\((?!\w+://)([^()\s]+?\.(?:md|markdown|html?|org|txt|csv))\)", re.IGNORECASE)


# A picture of the note's own folder (Bear's TextBundle assets, Typora, Obsidian with Markdown links):
# "![](assets/ticket.png)", "![Ticket](assets/ticket%201.png)". Pictures on the web are left as written.
_LOCAL_IMAGE_RE = re.compile(r"!\[([^\[\]\n]*)\]\((?!\w+://)(?:<([^<>\n]+)>|([^()\s]+))(?:\s+\"[^\"\n]*\")?\)")


# A picture by reference, "![alt][image1]" (Google Docs' Markdown download: its data at the note's end), or one
# whose data is written in the link, "![](data:image/png;base64,...)": its alt text, else nothing (neither the
# reference's label nor the data is a name)
_REF_IMAGE_RE = re.compile(r"!\[([^\[\]\n]*)\](?:\[[^\[\]\n]*\]|\(\s*<?data:[^()\s<>]*>?\s*\))")


def ref_images(text: str) -> str:
    """``text`` with pictures by reference or of inline data (see above) shown as their alt text."""
    return _REF_IMAGE_RE.sub(lambda m: m.group(1).strip(), text) if "![" in text else text


def local_images(text: str) -> str:
    """``text`` with pictures of the note's folder shown as their alt text, or their file's path when
    they have none (as Obsidian's ``![[assets/x.jpg]]`` embeds read)."""
    return _LOCAL_IMAGE_RE.sub(lambda m: m.group(1).strip() or unquote(m.group(2) or m.group(3)), text) \
        if "![" in text else text


def note_links(text: str, rel: str) -> tuple[str, list[str]]:
    """``text`` with links to other notes shown as their words, and the notes they point at (paths
    from the export's root, resolved from the note at ``rel``; URL escapes undone); pictures of the
    note's folder as their words (:func:`local_images`)."""
    text = local_images(text)
    targets: list[str] = []

    def repl(m: re.Match[str]) -> str:
        parts: list[str] = []
        for part in PurePosixPath(rel).parent.joinpath(unquote(m.group(2))).parts:
            if part == "..":
                if parts:
                    parts.pop()
            elif part != ".":
                parts.append(part)
        targets.append("/".join(parts))
        return m.group(1)

    def joplin(m: re.Match[str]) -> str:
        targets.append(JOPLIN_LINK + m.group(2).lower())
        return m.group(1)

    if "](:/" in text:  # Joplin: [Boiler service](:/<the note's id>)
        text = _JOPLIN_LINK_RE.sub(joplin, text)
    return (_NOTE_LINK_RE.sub(repl, text) if "](" in text else text), targets


def joplin_key(front: Any) -> str | None:
    """The name a Joplin note's links give it (``:/<id>``), from its front matter's 32-hex ``id``."""
    ident = front.get("id") if isinstance(front, dict) else None
    return JOPLIN_LINK + ident.lower() if isinstance(ident, str) and _JOPLIN_HEX_RE.fullmatch(ident) else None


def other_note(file: Path, keep_dir: bool) -> bool:
    """Notes in a walked folder besides Markdown: web pages that are notes (:mod:`importers.html_notes`)
    and Standard Notes backups (a ``.txt`` or ``.json`` outside Google Keep's folder)."""
    low = file.name.lower()
    if low.endswith(html_notes.HTML_SUFFIXES):
        return html_notes.is_note_page(file)
    if low.endswith(".docx"):  # a Word document (importers.docx)
        return not low.startswith("~$")  # Word's lock file beside an open document is none
    return not keep_dir and low.endswith((".txt", ".json")) and (standardnotes.is_backup(file) or simplenote.is_export(file)
                                                                 or dayone.is_export(file) or roam.is_export(file)
                                                                 or tiddlywiki.is_export(file) or journey.is_export(file))


PLAIN_SUFFIX = ".txt"
_PLAIN_SNIFF = 64 * 1024


def plain_notes(folder: Path) -> list[Path]:
    """The ``.txt`` files of a folder of plain-text notes (nvALT, Notepad, a phone's notes app): every
    ``.txt`` below it, outside hidden folders, when each is text (no NUL; UTF-8, UTF-16 or an old
    code page) and none is another export (a WhatsApp chat, a Standard Notes or Simplenote backup);
    else none. Called only for folders holding no other notes: beside Markdown, ``.txt`` files are
    attachments, and beside chats, stray files."""
    from importers import apps, codepages, whatsapp  # the chat sniffers: a folder of chats is no folder of notes

    found = sorted(p for p in folder.rglob("*" + PLAIN_SUFFIX) if p.is_file() and not any(
        part.startswith(".") or part.casefold() in TRASH_FOLDERS for part in p.relative_to(folder).parts[:-1])
        and not p.name.startswith("."))
    for file in found:
        with file.open("rb") as fh:
            head = fh.read(_PLAIN_SNIFF)
        text = head.decode("utf-16", "replace") if head.startswith((b"\xff\xfe", b"\xfe\xff")) else head.decode("utf-8", "replace")
        if "\ufffd" in text and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
            text = head.decode(codepages.guess(head)[0], "replace")  # a chat saved in a code page is still a chat
        if "\x00" in text or whatsapp.sniff(text.splitlines()[:50]) or apps.text_app(text.lstrip("\ufeff")) or \
                standardnotes.is_backup_head(head) or \
                simplenote.is_export_head(head) or dayone.is_export_head(head):
            return []
    return found


def streamed(file: Path) -> bool:
    """An export of many notes read as a stream (Evernote's ``.enex``, a Standard Notes backup)."""
    low = file.name.lower()
    return low.endswith((".enex", ".docx")) or (low.endswith((".txt", ".json")) and (standardnotes.is_backup(file)
                                                                          or simplenote.is_export(file)
                                                                          or dayone.is_export(file)
                                                                          or journey.is_export(file)
                                                                          or roam.is_export(file)))


def aliases(front: Any) -> list[str]:
    """The other names a note's front matter gives it (Obsidian ``aliases: [a, b]`` or ``alias: a``)."""
    if not isinstance(front, dict):
        return []
    value = front.get("aliases", front.get("alias"))
    names = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    if isinstance(front.get("id"), str):
        names.append(front["id"])  # org-roam's :ID: (links are [[id:<uuid>][words]]); Joplin's id
    return [str(n) for n in names if str(n).strip()]
