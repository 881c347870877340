"""Claude.ai data-export parser.

Formats handled: ``conversations.json`` from a Claude.ai export (a list of
conversations with ``uuid``, ``name``, ``chat_messages``; each message with
``uuid``, ``sender`` human/assistant, ``text`` or ``content[]`` items of type
``text``, ``created_at``, ``attachments`` with ``extracted_content`` and
``files``), also wrapped as ``{"conversations": [...]}``, a single
conversation object, a directory or the export zip. Streamed with ijson.

The export's ``projects.json`` (in the zip or directory, or given alone) gives each
project's description (semantic) and instructions (procedural) as memories, its
documents named in the metadata; its ``memories.json`` (2025) what Claude remembers, one
semantic memory per section and per project (:func:`_memories`); ``users.json`` is left alone. The plain ``text`` of a
message is used only when it has no text blocks, without the "This block is not
supported on your current device yet." placeholder of tool and artifact blocks.

An ``artifacts`` tool call that writes a whole document (``create``, ``rewrite``), or a file
written whole (``create_file``), is part of the answer where it stands (``[artifact: title]`` then
the text); an edit of one (``update``, ``str_replace``: old_str -> new_str) is the document as edited,
whole, when the conversation wrote it and old_str is in it once (:func:`edited`), else a tool call.
The 2024 layout wrote artifacts into the answer's words as ``<antArtifact title="…">…</antArtifact>`` tags:
read the same way, each version where it stands (:func:`ant_artifacts`).
The export's example project (``is_starter_project``) is not the user's: left out.

Documents uploaded as ``files`` are named in their message (``[attachments: lease.pdf]``); a
conversation of no name is named by the user's first words (:mod:`importers.titles`).

Messages are sorted by ``created_at`` (exports are not always in order);
conversations without messages are skipped and counted
(``report.variant["empty_conversations"]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record, claude_code, titles
from importers._common import (
    CUT_MARK,
    DEFAULT_MAX_JSON_BYTES,
    MAX_JSON_STRING_BYTES,
    describe,
    iso_time,
    iter_objects,
    json_sources,
    sha1_hex,
    uncut,
    unread_files,
)
from importers.delivered import BROWSER_COPY

ATTACHMENT_EXCERPT_CHARS = 300  # of an attachment's text, in the metadata
# Of an attachment's text, in the memory itself: claude.ai turns a long paste into an attachment
# (often without a file name), so the words the user gave are there and nowhere else; recall can
# only find what the text holds. Bounded, so a book-length upload stays one memory-sized message.
ATTACHMENT_TEXT_CHARS = 1000
TOOL_OUTPUT_CHARS = 500
_TOOL_BLOCKS = {"tool_use", "tool_result"}
_HIDDEN_BLOCKS = {"thinking", "redacted_thinking"}  # the model's reasoning, not the conversation
_SPEAKERS = {"human": "User", "assistant": "Assistant"}
_ROOT_PARENT = "00000000-0000-4000-8000-000000000000"  # the parent of a conversation's first messages


_OWN_KEYS = frozenset({"uuid", "chat_messages"})  # a conversation (or project) object, not a wrapper


def _accept(name: str) -> bool:
    return re.fullmatch(r"(?:conversations(?:[-_]\d+)?|projects|memories)" + BROWSER_COPY + r"\.jsonl?", name,
                        re.IGNORECASE) is not None


def is_memories(obj: Any) -> bool:
    """The object of a 2025 export's ``memories.json``: what Claude remembers across conversations
    (``conversations_memory``) and per project (``project_memories``: project uuid -> text)."""
    return isinstance(obj, dict) and "uuid" not in obj and (
        "conversations_memory" in obj or "project_memories" in obj)


_BOLD_LINE_RE = re.compile(r"^\s*\*\*(.+?)\*\*\s*:?\s*$")


def _memory_sections(text: str) -> list[tuple[str, str]]:
    """(heading, text) of each section of a memory summary: claude.ai writes it as Markdown
    sections under bold headings ("**Work context**"); text before any heading has none. A
    heading of no text says nothing: left out."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        m = _BOLD_LINE_RE.match(line)
        if m:
            sections.append((m.group(1).strip(), []))
        else:
            sections[-1][1].append(line)
    out = []
    for heading, lines in sections:
        paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", "\n".join(lines)) if p.strip()]
        body = "\n\n".join(p.replace("**", "") for p in paras)
        if body:
            out.append((heading, body))
    return out


def _memories(obj: dict[str, Any], project_names: dict[str, str], report: ImportReport) -> Iterator[Record]:
    """What Claude remembers (``memories.json``), one semantic memory per section, then one per
    project. No date: the file has none. The ref is the text's: a later export's changed memory
    is a new memory beside the old one (never an overwrite)."""
    found: list[tuple[str, dict[str, Any]]] = []
    summary = obj.get("conversations_memory")
    if isinstance(summary, str):
        for heading, body in _memory_sections(uncut(summary)):
            found.append((f"Claude memory: {heading}: {body}" if heading else f"Claude memory: {body}",
                          {"memory": "conversations", "section": heading or None}))
    per_project = obj.get("project_memories")
    if isinstance(per_project, dict):
        for uuid, text in per_project.items():
            body = "\n\n".join(b for _h, b in _memory_sections(uncut(str(text or ""))))
            name = project_names.get(str(uuid), str(uuid))
            if body:
                found.append((f"Claude memory of project {name}: {body}",
                              {"memory": "project", "project": name, "project_uuid": str(uuid)}))
    report.messages_seen += len(found)
    if found:  # said in the summary, so nobody takes the import's day for the day Claude learnt it (layouts33)
        report.variant["memories_undated"] = report.variant.get("memories_undated", 0) + len(found)
    for content, meta in found:
        yield Record(content=content, ref=f"claude:memory:{sha1_hex(content)[:20]}", source="claude",
                     memory_type="semantic", author="Assistant", thread="memories.json",
                     metadata={**meta, "undated": True})


def is_project(obj: Any) -> bool:
    """A Claude project (``projects.json`` of the export): uuid, name, instructions, docs."""
    return isinstance(obj, dict) and "uuid" in obj and "chat_messages" not in obj and (
        "prompt_template" in obj or "docs" in obj)


def _project(proj: dict[str, Any], report: ImportReport) -> Iterator[Record]:
    """What the user wrote about a project and gave it to know: its description and its
    instructions (the prompt every chat of it starts with), then each of its documents (a text
    pasted in, an uploaded file's text: "Claude project Home, document budget.md: ..."), one
    memory each; an empty document is none."""
    name = uncut(str(proj.get("name") or "untitled")).strip()
    when = iso_time(proj.get("created_at"))
    docs = [str(d.get("filename") or "") for d in proj.get("docs") or [] if isinstance(d, dict)]
    meta: dict[str, Any] = {"project": name, "docs": [d for d in docs if d]}
    for key, label in (("description", ""), ("prompt_template", " instructions")):
        text = str(proj.get(key) or "").strip()
        report.messages_seen += 1
        if not text:
            report.skipped_empty += 1
            continue
        if CUT_MARK in text:
            report.skipped_oversized += 1
            report.warn(f"project {name!r} (id {proj['uuid']}): {key} is over {MAX_JSON_STRING_BYTES} bytes; refused")
            continue
        yield Record(content=f"Claude project {name}{label}: {text}", ref=f"claude:project:{proj['uuid']}:{key}",
                     source="claude", memory_type="procedural" if label else "semantic", event_at=when,
                     metadata=meta)
    for doc in proj.get("docs") or []:
        if not isinstance(doc, dict):
            continue
        report.messages_seen += 1
        file = uncut(str(doc.get("filename") or "")).strip() or "untitled"
        text = doc["content"].strip() if isinstance(doc.get("content"), str) else ""
        if not text:
            report.skipped_empty += 1
            continue
        if CUT_MARK in text:
            report.skipped_oversized += 1
            report.warn(f"project {name!r} (id {proj['uuid']}): document {file!r} is over {MAX_JSON_STRING_BYTES} "
                        "bytes; refused")
            continue
        ident = str(doc.get("uuid") or sha1_hex(file)[:16])
        yield Record(content=f"Claude project {name}, document {file}: {text}",
                     ref=f"claude:project:{proj['uuid']}:doc:{ident}", source="claude", memory_type="semantic",
                     event_at=iso_time(doc.get("created_at")) or when, metadata={**meta, "doc": file})


# What claude.ai writes into a message's plain ``text`` where a tool call or artifact was:
# markup noise, never words of the conversation.
_UNSUPPORTED_RE = re.compile(r"\s*(?:```\s*)?This block is not supported on your current device yet\.?(?:\s*```)?\s*")


def artifact(block: dict[str, Any]) -> tuple[str, str] | None:
    """(title, text) of a tool call that writes a whole document: an ``artifacts`` call (``create``
    or ``rewrite``), or a file written whole (2025's ``create_file``: an input's ``file_text``,
    titled by its file name): the document the user reads beside the answer, so its text is a
    memory, as a ChatGPT canvas is. A partial edit (``update``, ``str_replace``: old_str/new_str)
    is no document: None."""
    if block.get("type") != "tool_use":
        return None
    call = block.get("input")
    if not isinstance(call, dict):
        return None
    if block.get("name") == "artifacts":
        if call.get("command", "create") not in ("create", "rewrite"):
            return None
        text, title = call.get("content"), call.get("title") or call.get("id") or "artifact"
    elif isinstance(call.get("file_text"), str):
        text, title = call["file_text"], str(call.get("path") or "file").rstrip("/").rsplit("/", 1)[-1]
    else:
        return None
    if not isinstance(text, str) or not text.strip():
        return None
    return uncut(str(title)).strip(), text.strip()


def _doc_key(block: dict[str, Any]) -> str:
    """What names the document a tool call writes or edits: an artifact's id, a file's path."""
    call = block.get("input")
    if not isinstance(call, dict):
        return ""
    return str(call.get("id") or call.get("path") or "") if block.get("name") == "artifacts" else str(
        call.get("path") or call.get("id") or "")


def edited(block: dict[str, Any], docs: dict[str, tuple[str, str]]) -> tuple[str, str, str] | None:
    """(key, title, text) of the document an edit (an ``artifacts`` ``update``, a ``str_replace`` of a
    file: old_str -> new_str) leaves, when the document is one this conversation wrote (``docs``: key ->
    (title, text)) and old_str is found in it once, as the tools require; None otherwise (what the
    document then says is not known)."""
    if block.get("type") != "tool_use":
        return None
    call = block.get("input")
    if not isinstance(call, dict) or not isinstance(call.get("old_str"), str) or not isinstance(call.get("new_str"), str):
        return None
    if block.get("name") == "artifacts" and call.get("command") != "update":
        return None
    if block.get("name") != "artifacts" and call.get("command", "str_replace") != "str_replace":
        return None
    key = _doc_key(block)  # an update naming no document edits the last one written
    title, text = docs.get(key) or ("", "")
    old = call["old_str"]
    if not title or not old or text.count(old) != 1:
        return None
    if not key:
        key = next((k for k, v in docs.items() if k and v == docs[""]), "")
    return key, title, text.replace(old, call["new_str"])


# The 2024 layout wrote an artifact inside the answer's words: <antArtifact identifier="x" type="…"
# title="Garden plan">…</antArtifact>, and the model's note on why (<antThinking>…</antThinking>, not shown).
_ANT_OPEN_RE = re.compile(r"<antArtifact\b(?P<attrs>[^<>]{0,2000})>")
_ANT_ATTR_RE = re.compile(r'\b(title|identifier)\s*=\s*"([^"]*)"')
_ANT_THINKING_RE = re.compile(r"<antThinking>[^<]{0,20000}</antThinking>\s*")


def ant_artifacts(text: str) -> tuple[str, list[str]]:
    """(text, titles) with each ``<antArtifact …>body</antArtifact>`` of the 2024 layout written as the tool
    calls' artifacts are ("[artifact: title]" then the body; a tag cut before its end keeps the words after it)
    and ``<antThinking>`` notes left out. One pass, no backtracking: a hostile text costs its length."""
    if "<ant" not in text:
        return text, []
    text = _ANT_THINKING_RE.sub("", text)
    out: list[str] = []
    titles: list[str] = []
    at = 0
    for m in _ANT_OPEN_RE.finditer(text):
        if m.start() < at:
            continue  # a tag inside the body of the one before
        attrs = dict((k, v) for k, v in _ANT_ATTR_RE.findall(m.group("attrs")))
        title = (attrs.get("title") or attrs.get("identifier") or "artifact").strip()
        end = text.find("</antArtifact>", m.end())
        body = text[m.end():] if end < 0 else text[m.end():end]
        out.append(text[at:m.start()])
        out.append(f"[artifact: {title}]\n{body.strip()}")
        titles.append(title)
        at = len(text) if end < 0 else end + len("</antArtifact>")
    out.append(text[at:])
    return "".join(out).strip(), titles


def _text(msg: dict[str, Any], include_tools: bool,
          docs: dict[str, tuple[str, str]] | None = None) -> tuple[str, int, list[str]]:
    """(text, tool blocks left out, artifact titles) of a message: ``text`` content blocks and
    the documents of artifacts (:func:`artifact`) and of their edits (:func:`edited`; ``docs``, the
    conversation's documents so far, is kept up to date), and with ``include_tools`` the text of tool
    results (cut to TOOL_OUTPUT_CHARS)."""
    content = msg.get("content")
    tools = 0
    titles: list[str] = []
    docs = {} if docs is None else docs
    if isinstance(content, list):
        # an edit its tool refused (its result an error) changed nothing
        refused = {str(c.get("tool_use_id")) for c in content if isinstance(c, dict) and c.get("type") == "tool_result"
                   and c.get("is_error") is True}
        parts: list[str] = []
        shown: dict[str, int] = {}  # document key -> index of its part in this message
        # claude.ai cuts an answer's text into blocks where a citation starts or ends: a text block beside a
        # cited one goes on the same part as written ("18:30" + "; the last entry…"); other blocks are parts
        last_cited: bool | None = None  # whether the last part was a text block with citations (None: no text)
        for c in content:
            if not isinstance(c, dict):
                continue
            kind = c.get("type")
            if kind == "text" and isinstance(c.get("text"), str):
                cited = bool(c.get("citations"))
                if parts and last_cited is not None and (last_cited or cited):
                    parts[-1] += c["text"]
                else:
                    parts.append(c["text"])
                last_cited = cited
                continue
            last_cited = None
            doc = artifact(c)
            edit = edited(c, docs) if doc is None and str(c.get("id")) not in refused else None
            if doc is not None or edit is not None:
                key, title, body = (_doc_key(c), *doc) if doc is not None else edit  # type: ignore[misc]
                docs[key] = docs[""] = (title, body)
                if key in shown:  # edited again in this message: shown once, after its last edit
                    parts[shown[key]] = ""
                else:
                    titles.append(title)
                shown[key] = len(parts)
                parts.append(f"[artifact: {title}]\n{body.strip()}")
            elif kind == "text" or (kind not in _TOOL_BLOCKS and kind not in _HIDDEN_BLOCKS
                                    and isinstance(c.get("text"), str)):
                parts.append(str(c.get("text") or ""))  # text, and the words of voice notes and the like
            elif kind in _TOOL_BLOCKS:
                tools += 1
                if include_tools and c.get("type") == "tool_result":
                    inner = c.get("content")
                    raw = " ".join(str(i.get("text") or "") for i in inner if isinstance(i, dict)) if isinstance(
                        inner, list) else str(inner or "")
                    raw = raw.strip()
                    parts.append(raw[:TOOL_OUTPUT_CHARS].rstrip() + " …" if len(raw) > TOOL_OUTPUT_CHARS else raw)
        joined = "\n\n".join(p.strip() for p in parts if p.strip())
        if joined.strip():
            joined, inline = ant_artifacts(joined.strip())
            return joined, tools, titles + inline
    plain, inline = ant_artifacts(_UNSUPPORTED_RE.sub("\n\n", str(msg.get("text") or "")).strip())
    return plain, tools, inline


def malformed(conv: Any) -> str | None:
    """Why ``conv`` is not a Claude conversation, or None when it is one."""
    if not isinstance(conv, dict):
        return "not an object"
    if "uuid" not in conv:
        return "no 'uuid'"
    if not isinstance(conv.get("chat_messages"), list):
        return "no 'chat_messages' list"
    return None


def _attachments(msg: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for att in msg.get("attachments") or []:
        if not isinstance(att, dict):
            continue
        extracted = str(att.get("extracted_content") or "")
        out.append(
            {
                "file_name": att.get("file_name"),
                "file_size": att.get("file_size"),
                "file_type": att.get("file_type"),
                "excerpt": extracted[:ATTACHMENT_EXCERPT_CHARS],
                "chars": len(extracted),
            }
        )
    return out


def excerpt(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, cut at a line break or space past half of it, " …" marking a cut."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    if cut < limit // 2:
        cut = text.rfind(" ", 0, limit)
    if cut < limit // 2:
        cut = limit
    return text[:cut].rstrip() + " …"


def _with_attachments(text: str, msg: dict[str, Any]) -> str:
    """The message's text and its attachments: each with its text (bounded, ATTACHMENT_TEXT_CHARS),
    those without text named on one line."""
    named: list[str] = []
    blocks: list[str] = []
    for att in msg.get("attachments") or []:
        if not isinstance(att, dict):
            continue
        name = str(att.get("file_name") or "").strip() or "pasted text"
        body = uncut(str(att.get("extracted_content") or ""))
        if body.strip():
            blocks.append(f"[attachment: {name}]\n{excerpt(body, ATTACHMENT_TEXT_CHARS)}")
        else:
            named.append(name)
    if named:
        text = f"{text}\n[attachments: {', '.join(named)}]".strip()
    return "\n\n".join([text, *blocks]).strip() if blocks else text


_IMAGE_NAME_RE = re.compile(r"\.(?:jpe?g|png|gif|webp|heic|heif|bmp|tiff?)$", re.IGNORECASE)


def _files(msg: dict[str, Any]) -> Any:
    """A message's files: ``files``, or 2025's ``files_v2`` (the same with a ``file_uuid``) when that is all
    (a ``files`` of another shape is returned as it is: the conversation is then malformed, as before)."""
    files = msg.get("files")
    if not files and isinstance(msg.get("files_v2"), list):
        return msg["files_v2"]
    return files or []


def _documents(msg: dict[str, Any]) -> list[str]:
    """Names of the documents among a message's ``files`` (``file_kind`` "document", or a name of no
    picture when the kind is missing); pictures are media, named in the metadata only."""
    names: list[str] = []
    for f in _files(msg):
        if not isinstance(f, dict) or not str(f.get("file_name") or "").strip():
            continue
        kind, name = str(f.get("file_kind") or ""), str(f["file_name"]).strip()
        if kind == "document" or (not kind and not _IMAGE_NAME_RE.search(name)):
            names.append(name)
    return names


def _off_branch(messages: list[dict[str, Any]], leaf: Any) -> set[int]:
    """``id()`` of the messages off the conversation's active branch. claude.ai keeps both versions
    of an edited question (and of a retried answer) as siblings under one parent
    (``parent_message_uuid``); the conversation the user left is the path from the current leaf
    (``current_leaf_message_uuid``, else the latest message without a reply) up to the root.
    Empty when the messages carry no parents, or a parent is missing (an older export: all kept)."""
    by_id = {str(m.get("uuid")): m for m in messages if m.get("uuid")}
    parents = {k: m.get("parent_message_uuid") for k, m in by_id.items()}
    if len(by_id) != len(messages) or not all(isinstance(p, str) for p in parents.values()):
        return set()
    if any(p not in by_id and p != _ROOT_PARENT for p in parents.values()):
        return set()
    if len(set(parents.values())) == len(parents):
        return set()  # one child per parent: a single branch
    if not (isinstance(leaf, str) and leaf in by_id):
        has_child = set(parents.values())
        leaf = next((str(m["uuid"]) for m in reversed(messages) if str(m["uuid"]) not in has_child), None)
        if leaf is None:  # parents that loop: no leaf to start from, keep every message
            return set()
    on: set[str] = set()
    node: str | None = leaf
    while node in by_id and node not in on:  # cycle-safe
        on.add(node)
        node = parents[node]
    return {id(m) for k, m in by_id.items() if k not in on}


def _conversation(conv: dict[str, Any], report: ImportReport, include_tools: bool,
                  all_branches: bool = False) -> Iterator[Record]:
    messages = conv["chat_messages"]
    conv_id = str(conv["uuid"])
    name = uncut(str(conv.get("name") or ""))
    if not messages:
        report.variant["empty_conversations"] = report.variant.get("empty_conversations", 0) + 1
        report.skipped_empty += 1
        return
    fallback = iso_time(conv.get("created_at"))
    indexed = [m for m in messages if isinstance(m, dict)]
    # Stable sort: messages without a time keep their place relative to each other.
    def sort_key(m: dict[str, Any]) -> tuple[float, int]:
        when = iso_time(m.get("created_at")) or fallback
        # A reply is stamped with its question's time: at equal times the human speaks first.
        return (when.timestamp() if when else 0.0, 0 if m.get("sender") == "human" else 1)

    indexed.sort(key=sort_key)
    alt = _off_branch(indexed, conv.get("current_leaf_message_uuid"))
    if alt and not all_branches:
        # an edited question's first version and its answers, a retried answer: not imported, but counted
        left = sum(1 for m in indexed if id(m) in alt)
        report.variant["other_branches"] = report.variant.get("other_branches", 0) + left
        indexed = [m for m in indexed if id(m) not in alt]
    position = 0
    written: dict[str, tuple[str, str]] = {}  # the documents written so far, by key ("" = the last one)
    for msg in indexed:
        report.messages_seen += 1
        text, tools, titles = _text(msg, include_tools, written)
        if not include_tools:
            report.skipped_tool += tools
        if CUT_MARK in text:
            report.skipped_oversized += 1
            report.warn(f"conversation {name!r} (id {conv_id}): message {msg.get('uuid') or position} is over "
                        f"{MAX_JSON_STRING_BYTES} bytes; refused")
            continue
        atts = _attachments(msg)
        files = [str(f.get("file_name")) for f in _files(msg) if isinstance(f, dict)]
        if atts:
            text = _with_attachments(text, msg)
        docs = _documents(msg)
        if docs:  # a document uploaded as a file (its text is not in the export): named, as ChatGPT's uploads
            text = f"{text}\n[attachments: {', '.join(docs)}]".strip()
        if not text:
            if files:
                report.skipped_media += 1
            else:
                report.skipped_empty += 1
            continue
        sender = str(msg.get("sender") or "unknown")
        speaker = _SPEAKERS.get(sender, sender.capitalize())
        metadata: dict[str, Any] = {"title": name}
        if atts:
            metadata["attachments"] = atts
        if files:
            metadata["files"] = files
        if titles:
            metadata["artifacts"] = titles
        if id(msg) in alt:
            metadata["branch"] = "alt"
        yield Record(
            content=f"{speaker}: {text}",
            ref=f"claude:{conv_id}:{msg.get('uuid') or position}",
            source="claude",
            memory_type="episodic",
            event_at=iso_time(msg.get("created_at")) or fallback,
            author=speaker,
            thread=conv_id,
            position=position,
            metadata=metadata,
        )
        position += 1


def _project_names(sources: list[tuple[Path, str | None]], limit: int) -> dict[str, str]:
    """Project uuid -> name, from the export's projects.json (read first: conversations.json names a project
    only by its uuid). A damaged file names none here (it is reported when it is read in turn)."""
    names: dict[str, str] = {}
    for source in sources:
        if not (source[1] or source[0].name).rsplit("/", 1)[-1].lower().startswith("projects"):
            continue
        try:
            for obj in iter_objects(source, "conversations", limit, _OWN_KEYS):
                if is_project(obj):
                    names[str(obj["uuid"])] = uncut(str(obj.get("name") or "untitled")).strip()
        except ImportFormatError:
            continue
    return names


def _in_project(records: list[Record], conv: dict[str, Any], names: dict[str, str]) -> None:
    """The project a conversation was held in (``project_uuid``, or a ``project`` object), on its messages:
    by its name when projects.json gives it, else by its uuid."""
    project = conv.get("project")
    uuid = conv.get("project_uuid") or (project.get("uuid") if isinstance(project, dict) else None)
    name = names.get(str(uuid)) if uuid else None
    if name is None and isinstance(project, dict) and isinstance(project.get("name"), str):
        name = uncut(project["name"]).strip() or None
    for record in records if uuid or name else []:
        record.metadata.update({"project": name} if name else {"project_uuid": str(uuid)})


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a Claude.ai export (json file, directory or zip) into episodic records.

    Options: ``include_tools`` (keep tool results; default False), ``all_branches`` (also the
    messages an edit or a retry left off the active branch, ``metadata["branch"] = "alt"``),
    ``max_member_bytes`` (limit on a zip member read by streaming).

    A malformed conversation (no ``uuid`` or ``chat_messages``) is skipped with a warning
    naming it and counted in ``skipped_malformed``; a file holding no conversation at all
    is an error.
    """
    path = Path(path)
    include_tools = bool(options.get("include_tools", False))
    all_branches = bool(options.get("all_branches", False))
    limit = int(options.get("max_member_bytes") or DEFAULT_MAX_JSON_BYTES)
    report.variant.setdefault("empty_conversations", 0)
    count = projects = 0
    first_why = ""  # why the first malformed entry was skipped: the refusal says it
    # Claude Code's sessions (a session file, or a folder of them: ~/.claude/projects/<project>/)
    sessions = [path] if claude_code.is_session(path) else sorted(
        p for p in path.rglob("*.jsonl") if claude_code.is_session(p)) if path.is_dir() else []
    for session in sessions:
        conv = claude_code.conversation(session, report, include_tools)
        if conv is None:
            report.skipped_empty += 1
            continue
        said = list(_conversation(conv, report, include_tools, all_branches))
        titles.name_untitled(said)  # a session with no summary: the user's first words
        count += 1
        yield from said
    if sessions and (path.is_file() or not any(_accept(p.name) for p in path.rglob("*.json*"))):
        report.variant["conversations"] = count
        if not count:
            raise ImportFormatError("no message in the Claude Code session files", str(path))
        return
    sources = json_sources(path, _accept)
    left = unread_files(path, sources)
    if left:  # the account (users.json) and other files of the export: no history, named in the summary
        report.variant["not_read"] = left
    memories: list[dict[str, Any]] = []  # read after the projects, whose names they use
    project_names = _project_names(sources, limit)  # a conversation of a project names it (projects.json may come later)
    for source in sources:
        for conv in iter_objects(source, "conversations", limit, _OWN_KEYS):
            if is_memories(conv):
                memories.append(conv)
                continue
            if is_project(conv):
                project_names[str(conv["uuid"])] = uncut(str(conv.get("name") or "untitled")).strip()
                if conv.get("is_starter_project") is True:  # Anthropic's example project: not the user's words
                    report.skipped_system += 1
                    continue
                projects += 1
                yield from _project(conv, report)
                continue
            why = malformed(conv)
            records: list[Record] = []
            if why is None:
                try:  # a whole conversation or none of it
                    records = list(_conversation(conv, report, include_tools, all_branches))
                    _in_project(records, conv, project_names)
                    titles.name_untitled(records)  # no name (empty, null): the user's first words
                except (AttributeError, TypeError, ValueError, KeyError) as exc:
                    why = f"unexpected shape ({type(exc).__name__}: {exc})"
            if why is not None:
                report.skipped_malformed += 1
                first_why = first_why or why
                report.warn(f"{describe(conv, ('uuid', 'id'), ('name', 'title'))} skipped: {why}")
                continue
            count += 1
            yield from records
    remembered = 0
    for obj in memories:
        for rec in _memories(obj, project_names, report):
            remembered += 1
            yield rec
    if projects:
        report.variant["projects"] = projects
    if remembered:
        report.variant["memories"] = remembered
    if not count and not projects and not remembered:
        what = f"{report.skipped_malformed} malformed entries, the first: {first_why}; " \
            if report.skipped_malformed else ""
        raise ImportFormatError(f"no Claude conversation found ({what}expected a list of conversations, "
                                "each with 'uuid' and 'chat_messages')", str(path))
    report.variant["conversations"] = count
