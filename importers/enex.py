"""Evernote's export (``.enex``: one XML file per notebook), read by the markdown importer with
the notes of other apps (:mod:`importers.markdown`).

An ``<en-export>`` holds ``<note>`` elements: ``<title>``, ``<content>`` (the note as ENML, an
XHTML dialect, in a CDATA section), ``<created>``/``<updated>`` (``20240312T091500Z``),
``<tag>``s and ``<resource>``s (attachments, base64). Each note is one semantic memory
"Title: text": block elements and ``<br/>`` become line breaks, list items ``- `` lines,
``<en-todo checked="true"/>`` a ``[x]``, an encrypted section (``<en-crypt>``) ``[encrypted]``;
attachments are named in the metadata, never read.

Streamed with expat: attachment data is dropped as it passes (an export of gigabytes of
photos costs the memory of one note's text), a note's text is bounded (MAX_NOTE_CHARS: past
it the note is refused with a warning). A file that is not well-formed XML fails in one line
naming it and its line; notes before the error are not half-imported (the import parses all
first).
"""

from __future__ import annotations

import html
import re
from datetime import datetime, timezone
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.parsers import expat

from importers import ImportFormatError, ImportReport, Record
from importers._common import sha1_hex, todo_line

MAX_NOTE_CHARS = 4_000_000  # of one note's ENML; more is no note but a pasted dump: refused
MAX_TASKS, MAX_TASK_CHARS = 1000, 2000  # Evernote 10 tasks of one note, and of one task's field
_BLOCKS = {"div", "p", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "table",
           "ul", "ol"}
# a field is read in the element it belongs to: Evernote 10's <task> has its own <title> and <created>,
# a <resource> its own <file-name>, a <reminder> its own dates
_FIELDS = {("note", "title"), ("note", "content"), ("note", "created"), ("note", "updated"), ("note", "tag"),
           ("note-attributes", "source-url"), ("resource-attributes", "file-name"), ("task", "title"),
           ("task", "taskStatus"), ("task", "dueDate"), ("note-attributes", "reminder-time"),
           ("note-attributes", "reminder-done-time"), ("note-attributes", "reminder-order"), ("reminder", "reminderDate")}


class _Text(HTMLParser):
    """ENML to plain text: a block ends its line, ``<br/>`` ends one even if empty (a blank line),
    list items start with ``- ``, to-dos with ``[x]``/``[ ]``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.prefix = ""
        self.crypt = 0  # inside <en-crypt>: cipher text, no words (its password is the user's)

    def _soft(self) -> None:
        if "".join(self.current).strip():
            self._hard()

    def _hard(self) -> None:
        self.lines.append("".join(self.current))
        self.current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._hard()
        elif tag in _BLOCKS:
            self._soft()
            if tag == "li":
                self.prefix = "- "
        elif tag == "en-crypt":
            self.crypt += 1
            self.current.append("[encrypted]")
        elif tag == "en-todo":
            self.current.append(self.prefix + ("[x] " if dict(attrs).get("checked") == "true" else "[ ] "))
            self.prefix = ""
        elif tag in ("td", "th"):  # a table's cells kept apart on their row's line
            if "".join(self.current).strip():
                self.current.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "en-crypt":
            self.crypt = max(0, self.crypt - 1)
        elif tag in _BLOCKS and tag != "br":
            self._soft()

    def handle_data(self, data: str) -> None:
        if self.crypt:
            return
        if self.prefix and data.strip():
            self.current.append(self.prefix)
            self.prefix = ""
        self.current.append(data)


# A run of tags that only end a line or say nothing (blocks, inline styling) with nothing but spaces between them
# reads as one block tag, or none when no block is in it: _Text ends a line at the first and the rest find it
# empty. Collapsed before parsing, so 200,000 nested <div>s cost one tag, not 400,000 of HTMLParser's (10 s a 2 MB
# note). Tags that say something (br, li, en-todo, en-crypt, td, th, en-media) are never in a run.
_PLAIN_BLOCKS = _BLOCKS - {"br", "li"}
_QUIET_TAGS = "|".join(sorted(_PLAIN_BLOCKS | {"span", "font", "b", "i", "u", "s", "strong", "em", "small", "sub", "sup",
                                              "section", "article", "header", "footer", "tbody", "thead", "tfoot"}))
# (a run of at most 1000 a match: the regex engine keeps a frame per repeat, and memory stays bounded)
_TAG_RUN_RE = re.compile(rf"(?:</?(?:{_QUIET_TAGS})(?:\s[^<>]*)?/?>\s*){{2,1000}}", re.IGNORECASE)
_BLOCK_TAG_RE = re.compile(rf"</?(?:{'|'.join(sorted(_PLAIN_BLOCKS))})[\s/>]", re.IGNORECASE)


_ANY_TAG_RE = re.compile(r"<[^<>]*>")


def _one_tag(m: re.Match[str]) -> str:
    """A run of quiet tags as the spaces and line breaks between them (a line break in the text is a line of the
    note's: kept, so the lines come out as they did tag by tag), one tag, and the spaces after the run (which the
    parser hands over with the words that follow, as before)."""
    run = m.group()
    body = run.rstrip()
    tag = "<div>" if _BLOCK_TAG_RE.search(m.string, m.start(), m.end()) else "<span>"
    return _ANY_TAG_RE.sub("", body) + tag + run[len(body):]


def enml_text(enml: str) -> str:
    """The words of an ENML note, one line per block, blank lines collapsed."""
    parser = _Text()
    parser.feed(_TAG_RUN_RE.sub(_one_tag, enml) if "<" in enml else enml)
    parser.close()
    parser._hard()
    text = html.unescape("\n".join(parser.lines)).replace("\xa0", " ")
    lines = [re.sub(r"[ \t]+", " ", ln).strip() for ln in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _tasks(tasks: list[dict[str, str]]) -> tuple[str, list[str]]:
    """Evernote 10's tasks of a note, as its to-dos read: "[ ] title (due 2025-03-01)", "[x]" when completed,
    and the ISO times of their reminders. The due date is the day (the app shows a date; the time is its
    zone's midnight or the user's hour); a reminder is the time Evernote will remind, shown in UTC after it
    ("(due 2025-03-01; reminder 2025-02-28 09:00 UTC)"); a completed task's reminder is spent: not shown."""
    lines, reminders = [], []
    for task in tasks:
        title = " ".join(task.get("title", "").split())
        if not title:
            continue
        due = _when(task.get("dueDate", ""))
        done = task.get("taskStatus", "").strip() == "completed"
        remind = None if done else _when(task.get("reminderDate", ""))
        when = [f"due {due.date().isoformat()}"] if due else []
        if remind is not None:
            when.append(f"reminder {remind:%Y-%m-%d %H:%M} UTC")
            reminders.append(remind.isoformat())
        lines.append(f"{'[x]' if done else '[ ]'} {title}" + (f" ({'; '.join(when)})" if when else ""))
    return "\n".join(lines), reminders


def _reminder(note: dict[str, Any]) -> tuple[datetime | None, bool, str]:
    """(due time, done, to-do line) of a note's reminder (``<note-attributes>``' reminder-time, reminder-done-time,
    reminder-order; all empty when it has none). An undated reminder (only its place in the reminders list)
    is a to-do all the same: Evernote lists it with a checkbox."""
    due = _when(str(note.get("reminder-time") or ""))
    done = bool(str(note.get("reminder-done-time") or "").strip())
    if due is None and not done and not str(note.get("reminder-order") or "").strip():
        return None, False, ""
    return due, done, todo_line("Reminder", due, done)


def _when(value: str) -> datetime | None:
    try:
        return datetime.strptime(value.strip(), "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


class _Notes:
    """expat handlers collecting one note's fields at a time."""

    def __init__(self, rel: str, report: ImportReport) -> None:
        self.rel, self.report = rel, report
        self.stack: list[str] = []
        self.note: dict[str, Any] | None = None
        self.field: str | None = None
        self.buf: list[str] = []
        self.size = 0
        self.records: list[Record] = []
        self.refs: dict[str, int] = {}
        self.line = 0  # set by the parser before each element starts (expat's current line)
        self.task: dict[str, str] | None = None  # the fields of the Evernote 10 task being read

    def start(self, name: str, _attrs: dict[str, str]) -> None:
        parent = self.stack[-1] if self.stack else ""
        self.stack.append(name)
        if name == "note":
            self.note = {"tag": [], "file-name": [], "tasks": [], "line": self.line}
        elif self.note is not None and name == "task" and parent == "note":
            self.task = {}
        elif self.note is not None and (parent, name) in _FIELDS:
            self.field, self.buf, self.size = name, [], 0

    def data(self, text: str) -> None:
        if self.field is None:
            return  # attachment data and the rest: dropped as it passes
        self.size += len(text)
        if self.size <= MAX_NOTE_CHARS:
            self.buf.append(text)

    def end(self, name: str) -> None:
        self.stack.pop()
        parent = self.stack[-1] if self.stack else ""
        if self.note is not None and name == self.field and parent in ("task", "reminder") and self.task is not None:
            self.task.setdefault(name, "".join(self.buf)[:MAX_TASK_CHARS])  # a task's first reminder is its own
            self.field = None
        elif self.note is not None and name == "task" and parent == "note" and self.task is not None:
            if len(self.note["tasks"]) < MAX_TASKS:
                self.note["tasks"].append(self.task)
            self.task = None
        elif self.note is not None and name == self.field:
            value = "".join(self.buf) if self.size <= MAX_NOTE_CHARS else None
            if name in ("tag", "file-name"):
                if value and value.strip():
                    self.note[name].append(value.strip())
            else:
                self.note[name] = value
            self.field = None
        elif name == "note" and self.note is not None:
            self._finish(self.note)
            self.note = None

    def _finish(self, note: dict[str, Any]) -> None:
        report = self.report
        report.messages_seen += 1
        title = str(note.get("title") or "").strip()
        if note.get("content", "") is None:
            report.skipped_oversized += 1
            report.warn(f"{self.rel}: note {title!r} over {MAX_NOTE_CHARS} characters; refused", note["line"])
            return
        due, done, reminder = _reminder(note)
        tasks, reminders = _tasks(note["tasks"])
        body = "\n".join(p for p in (enml_text(str(note.get("content") or "")), tasks, reminder) if p)
        if not body:
            report.skipped_empty += 1
            return
        created = _when(str(note.get("created") or "")) or _when(str(note.get("updated") or ""))
        if created is None:  # the note's own date, never the import's: said when the export gives none
            given = str(note.get("created") or note.get("updated") or "").strip()
            report.warn(f"{self.rel}: note {title!r} " + (f"has an unreadable date {given[:40]!r}" if given else
                        "has no <created> nor <updated> date") + "; kept undated", note["line"])
        # A re-export lists the notebook's notes in another order: the ref is the note's own (its
        # creation and title), numbered when two notes share both.
        key = f"{note.get('created') or ''}|{title}"
        n = self.refs.get(key, 0)
        self.refs[key] = n + 1
        metadata: dict[str, Any] = {"path": self.rel, "title": title, "app": "evernote"}
        if note["file-name"]:
            metadata["attachments"] = note["file-name"]
        if due is not None:
            metadata["due"] = due.isoformat()
        if done:
            metadata["done"] = True
        if reminders:
            metadata["reminders"] = reminders
        if note.get("source-url"):
            metadata["source_url"] = str(note["source-url"]).strip()
        self.records.append(Record(
            content=f"{title}: {body}" if title else body, ref=f"markdown:{self.rel}:{sha1_hex(key)[:16]}:{n}",
            source="markdown", memory_type="semantic", event_at=created, thread=f"{self.rel}#{title}",
            position=0, tags=note["tag"], metadata=metadata, line=note["line"]))


def records(file: Path, rel: str, report: ImportReport) -> list[Record]:
    """The memories of one ``.enex`` file, a note each."""
    notes = _Notes(rel, report)
    parser = expat.ParserCreate()

    def start(name: str, attrs: dict[str, str]) -> None:
        notes.line = parser.CurrentLineNumber
        notes.start(name, attrs)

    parser.StartElementHandler = start
    parser.EndElementHandler = notes.end
    parser.CharacterDataHandler = notes.data
    parser.buffer_text = True
    try:
        with file.open("rb") as fh:
            while chunk := fh.read(1 << 16):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
    except expat.ExpatError as exc:
        raise ImportFormatError(f"not well-formed Evernote export ({expat.errors.messages[exc.code]})", str(file),
                                exc.lineno) from None
    except (LookupError, ValueError) as exc:  # <?xml encoding="..."?> naming no codec expat has
        raise ImportFormatError(f"not a readable Evernote export ({exc})", str(file)) from None
    return notes.records
