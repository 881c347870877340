"""ChatGPT data-export parser.

Formats handled: ``conversations.json`` as a top-level list, as
``{"conversations": [...]}``, or a single conversation object (the
``backend-api/conversation/{id}`` shape); split files
``conversations-000.json`` ... in a directory or zip; the export ``.zip``
itself. Streamed with ijson: one conversation in memory at a time.

Per conversation the active branch is followed from ``current_node`` back
through ``parent`` (cycle-safe; the latest leaf when ``current_node`` is
missing). ``all_branches=True`` also yields off-branch messages marked
``metadata["branch"] = "alt"``. Hidden/system/custom-instruction nodes, tool
calls (assistant messages whose ``recipient`` is not ``all``), reasoning
recaps and the ``analysis``/``commentary`` channels (GPT-5's thinking and its preambles: not its
final words) are skipped; text, code, multimodal text (image pointers noted in
``metadata["images"]``) and summarised tool output are kept; citation marks are
stripped. A memory call (``recipient`` ``bio``: what ChatGPT saved about the user)
is a semantic record "ChatGPT memory: ..."; a conversation of no title (null,
"New chat") is named by the user's first words (:mod:`importers.titles`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record, gpt_projects, gpt_tasks, titles
from importers._common import (
    CUT_MARK,
    DEFAULT_MAX_JSON_BYTES,
    MAX_JSON_STRING_BYTES,
    describe,
    is_zip,
    iter_objects,
    iter_page_array,
    json_sources,
    sha1_hex,
    uncut,
    unread_files,
)
from importers.delivered import BROWSER_COPY

TOOL_OUTPUT_CHARS = 500

# 【12†source】 (browsing era) and \ue200cite\ue202turn0search1\ue201 (private-use, 2025+).
# A marker holds no marker's start: "[^\ue200\ue201]" (and "[^【】]") keeps a text of unclosed starts linear (a start's scan ends at
# the next start, where "[^\ue201]" scanned to the end of the text from every start).
_CITATION_RE = re.compile(r"\s*(?:【\d+(?::\d+)?†[^【】]*】|\ue200[^\ue200\ue201]*\ue201|[\ue200-\ue2ff])")
# 2025's entity markup: \ue200entity\ue202["restaurant","Cantinho do Avillez","Porto"]\ue201 is shown as its name
# (the second item; the first is its kind, the third what tells it apart); other markup (cite, image_group,
# navlist ...) is links and pictures, dropped with the citations
_ENTITY_RE = re.compile(r"(\s*)\ue200entity\ue202(\[[^\ue200\ue201]*\])\ue201")


def _entity_name(match: re.Match[str]) -> str:
    """The name an entity marker shows (with the space before it), or nothing (nor that space) when its
    list is no JSON list of names."""
    try:
        items = json.loads(match.group(2))
    except (ValueError, RecursionError):  # nested past json's depth is no list of names either
        items = None
    name = ""
    if isinstance(items, list) and len(items) > 1 and isinstance(items[1], str):
        name = items[1]
    elif isinstance(items, list) and len(items) == 1 and isinstance(items[0], str):
        name = items[0]
    return match.group(1) + name if name.strip() else ""
_HIDDEN_TYPES = {"user_editable_context", "model_editable_context", "thoughts", "reasoning_recap", "system_error"}
_TOOL_TYPES = {"execution_output", "tether_browsing_display", "tether_quote"}


_OWN_KEYS = frozenset({"mapping", "current_node", "conversation_id"})  # a conversation object, not a wrapper


def _accept(name: str) -> bool:
    return re.fullmatch(r"conversations(?:[-_]\d+)?" + BROWSER_COPY + r"\.jsonl?", name, re.IGNORECASE) is not None


def _accept_page(name: str) -> bool:
    return _accept(name) or name.lower() == HTML_PAGE


HTML_PAGE = "chat.html"  # the export's viewer page: every conversation again, as `var jsonData = [...]`
_PAGE_MARKER = b"var jsonData = "


def _is_page(source: tuple[Path, str | None]) -> bool:
    name = source[1] or source[0].name
    return name.lower().endswith((".html", ".htm"))


def _sources(path: Path) -> list[tuple[Path, str | None]]:
    """The export's conversations*.json files; its chat.html only when they are missing (the
    page repeats them: a user who kept only the page still has every conversation)."""
    sources = json_sources(path, _accept_page)
    data = [s for s in sources if not _is_page(s)]
    return data or sources


SHARED_FILE = "shared_conversations.json"  # the links the user shared: {id, conversation_id, title, is_anonymous}
SHARE_URL = "https://chatgpt.com/share/"
MAX_SHARED_LINKS = 100_000
_SHARE_ID_RE = re.compile(r"[A-Za-z0-9-]{1,100}")


def _shared_links(path: Path, limit: int, report: ImportReport) -> tuple[dict[str, str], list[tuple[Path, str | None]]]:
    """(conversation id -> its share link, the files read) of an export's shared_conversations.json: a link
    is the conversation's, no memory (the messages of the conversation carry it in their metadata). A damaged
    file costs its links only, with a warning."""
    if not (path.is_dir() or is_zip(path)):
        return {}, []
    try:
        sources = json_sources(path, lambda name: name.lower() == SHARED_FILE)
    except ImportFormatError:
        return {}, []
    links: dict[str, str] = {}
    for source in sources:
        try:
            for obj in iter_objects(source, "shared_conversations", limit):
                conv, share = (obj.get("conversation_id"), obj.get("id")) if isinstance(obj, dict) else (None, None)
                if isinstance(conv, str) and isinstance(share, str) and _SHARE_ID_RE.fullmatch(share):
                    links.setdefault(conv, SHARE_URL + share)
                if len(links) >= MAX_SHARED_LINKS:
                    break
        except ImportFormatError as exc:
            report.warn(f"{exc}; its shared links are not read")
    return links, sources


def _when(value: Any) -> datetime | None:
    if isinstance(value, (int, float)) and value > 0:
        try:
            return datetime.fromtimestamp(float(value), tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))  # 3.10 rejects "Z"
        except ValueError:
            return None
    return None


def active_path(mapping: dict[str, Any], current: str | None) -> list[str]:
    """Node ids from the root to ``current`` (or to the latest leaf), cycle-safe. A damaged mapping (a parent
    link to a node that is not there, to itself, or round a cycle) is walked on through the node that names
    the current one among its children, when there is one (:func:`_named_as_child`)."""
    if not current or current not in mapping:
        leaves = [k for k, n in mapping.items() if not [c for c in (n.get("children") or []) if c in mapping]]
        if not leaves:  # every node is a parent (a cycle, a node its own child): the latest message ends it
            leaves = list(mapping)

        def leaf_time(key: str) -> float:
            msg = mapping[key].get("message") or {}
            t = msg.get("create_time") if isinstance(msg, dict) else None
            return float(t) if isinstance(t, (int, float)) else 0.0

        # Latest leaf by time; later in the mapping wins ties (newer nodes are appended).
        order = {k: i for i, k in enumerate(mapping)}
        current = max(leaves, key=lambda k: (leaf_time(k), order[k])) if leaves else None
    path: list[str] = []
    seen: set[str] = set()
    parents: dict[str, str] | None = None  # built once, only for a damaged mapping
    node = current
    while node and node in mapping and node not in seen:
        seen.add(node)
        path.append(node)
        parent = mapping[node].get("parent")
        if parent and (not isinstance(parent, str) or parent not in mapping or parent in seen):
            if parents is None:
                parents = _named_as_child(mapping)
            parent = parents.get(node)
        node = parent
    path.reverse()
    return path


def _named_as_child(mapping: dict[str, Any]) -> dict[str, str]:
    """{node id: the first other node listing it among its children}: the parent links read the other way."""
    out: dict[str, str] = {}
    for key, node in mapping.items():
        for child in node.get("children") or []:
            if isinstance(child, str) and child != key:
                out.setdefault(child, key)
    return out


def _tree_order(mapping: dict[str, Any]) -> list[str]:
    """All node ids, depth-first from the roots in children order (cycle-safe)."""
    roots = [k for k, n in mapping.items() if not n.get("parent") or n.get("parent") not in mapping]
    out: list[str] = []
    seen: set[str] = set()
    stack = list(reversed(roots))
    while stack:
        key = stack.pop()
        if key in seen or key not in mapping:
            continue
        seen.add(key)
        out.append(key)
        stack.extend(reversed([c for c in (mapping[key].get("children") or []) if c in mapping]))
    out.extend(k for k in mapping if k not in seen)  # orphans in cycles
    return out


def _clean(text: str) -> str:
    if "\ue200entity" in text:
        text = _ENTITY_RE.sub(_entity_name, text)
    return _CITATION_RE.sub("", text).strip()


def _message_text(msg: dict[str, Any]) -> tuple[str, list[str], str]:
    """(text, image pointers, kind) of one message; kind is "text", "code", "tool" or "recording" (a voice
    turn whose recording was transcribed to no words)."""
    content = msg.get("content") or {}
    ctype = content.get("content_type", "text")
    images: list[str] = []
    if ctype == "code":
        return str(content.get("text") or ""), images, "code"
    if ctype in _TOOL_TYPES:
        if ctype == "tether_quote":
            raw = f"{content.get('title') or ''} {content.get('url') or ''}\n{content.get('text') or ''}"
        else:
            raw = str(content.get("text") or content.get("result") or "")
        raw = raw.strip()
        if len(raw) > TOOL_OUTPUT_CHARS:
            raw = raw[:TOOL_OUTPUT_CHARS].rstrip() + " …"
        return raw, images, "tool"
    texts: list[str] = []
    recordings = 0
    parts = content.get("parts")
    if isinstance(parts, list):
        for part in parts:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict):
                ptype = str(part.get("content_type") or "")
                if ptype.endswith("asset_pointer") and ("audio" in ptype or "video" in ptype):
                    recordings += 1  # a voice-mode recording: its words come as an audio_transcription part
                    continue
                if ptype == "image_asset_pointer" or "asset_pointer" in part:
                    images.append(str(part.get("asset_pointer") or ""))
                elif isinstance(part.get("text"), str):  # audio transcriptions and the like
                    texts.append(part["text"])
    elif isinstance(content.get("text"), str):
        texts.append(content["text"])
    text = "\n".join(t for t in texts if t)
    # a turn of only a recording (no words transcribed) is media, as a picture alone is
    return text, images, "text" if text or not recordings else "recording"


# Canvas ("canmore"): the assistant writes a document by calling a tool; the document is what the
# user reads and keeps, so its text is a memory (the tool's receipt is not).
_CANVAS_CALLS = {"canmore.create_textdoc", "canmore.update_textdoc"}
_CANVAS_FAILED = "failed"  # how the tool's receipt of an edit that did not apply starts ("Failed with error ...")


def _spoken(msg: dict[str, Any]) -> bool:
    """True for a voice-mode turn: its words are an ``audio_transcription`` part."""
    parts = (msg.get("content") or {}).get("parts")
    return isinstance(parts, list) and any(isinstance(p, dict) and p.get("content_type") == "audio_transcription"
                                           for p in parts)


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for ``re.sub`` that inserts ``text`` as written (no ``\\1`` or ``\\n`` read in it)."""
    return lambda _match: text


def _runs_away(pattern: str) -> bool:
    """True for a pattern with a repeated group that itself repeats ("(a+)+", "(\\w*x)*"): on a text it
    does not match it backtracks for hours. The model writes literal text or ".*"; such a pattern is not
    applied (a bad export must not hang the import)."""
    stack: list[bool] = [False]  # per open group: whether it holds a quantifier
    escaped = False
    for i, ch in enumerate(pattern):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "(":
            stack.append(False)
        elif ch == ")" and len(stack) > 1:
            inner = stack.pop()
            if inner and pattern[i + 1:i + 2] in ("+", "*", "{"):
                return True
            stack[-1] = stack[-1] or inner
        elif ch in "+*{":
            stack[-1] = True
    return False


def _edited(text: str, updates: list[Any]) -> str | None:
    """``text`` after a canvas call's ``updates`` (a regular expression and its replacement each, applied in
    order, to the first match or to every one with ``multiple``); None when one does not parse or is not
    found: what the document then said is not known. The replacement is taken as written (the model writes
    the new text, not a template)."""
    for update in updates:
        if not isinstance(update, dict) or not isinstance(update.get("pattern"), str) \
                or not isinstance(update.get("replacement"), str):
            return None
        if _runs_away(update["pattern"]):
            return None
        try:
            pattern = re.compile(update["pattern"])
        except (re.error, RecursionError, OverflowError):
            return None
        text, count = pattern.subn(_literal(update["replacement"]), text,
                                   count=0 if update.get("multiple") is True else 1)
        if not count:
            return None
    return text


def _canvas(msg: dict[str, Any], current: str, docs: dict[str, str], ids: dict[str, str]) -> tuple[str, str] | None:
    """(document name, text) of a canvas call: a creation, a rewrite (one pattern ``.*``), or edits in
    place of a document, as edited: the one the call names by its ``textdoc_id`` (``ids``: the names of the
    ids the tool's receipts gave), else ``current`` (the one the user has open, else the last one written;
    its text in ``docs``); None for calls that do not parse, edits that cannot be applied and edits of a
    document the export does not hold."""
    import json

    content = msg.get("content") or {}
    try:
        call = json.loads(str(content.get("text") or ""))
    except (ValueError, RecursionError):
        return None
    if not isinstance(call, dict):
        return None
    if msg.get("recipient") == "canmore.create_textdoc":
        text = call.get("content")
        name = str(call.get("name") or current or "document")
    else:
        updates = call.get("updates")
        if not (isinstance(updates, list) and updates):
            return None
        doc_id = call.get("textdoc_id")
        if isinstance(doc_id, str) and doc_id:
            if doc_id not in ids:
                return None
            current = ids[doc_id]
        name = current or "document"
        if len(updates) == 1 and isinstance(updates[0], dict) and updates[0].get("pattern") == ".*":
            text = updates[0].get("replacement")
        elif current in docs:
            text = _edited(docs[current], updates)
        else:
            return None
    return (name, text) if isinstance(text, str) and text.strip() else None


def _receipt_failed(mapping: dict[str, Any], ordered: list[tuple[str, bool]], index: int) -> bool:
    """True when the message after a canvas edit on its path is the tool's receipt saying it failed."""
    if index + 1 >= len(ordered) or ordered[index + 1][1]:
        return False
    nxt = mapping[ordered[index + 1][0]].get("message")
    if not isinstance(nxt, dict) or (nxt.get("author") or {}).get("role") != "tool":
        return False
    return _message_text(nxt)[0].strip().lower().startswith(_CANVAS_FAILED)


def _task(msg: dict[str, Any], tasks: dict[str, dict[str, str]]) -> dict[str, str] | None:
    """The task a task call sets, as it stands after the call: a creation's fields, or an update's over
    the task it names (its id, else the conversation's last task); None for a call that does not parse
    or updates a task this conversation never set (what it changes is not known)."""
    call = gpt_tasks.read(_message_text(msg)[0])
    if call is None or not set(call) - {"id"}:
        return None
    if msg.get("recipient") == "automations.update":
        base = tasks.get(call.get("id", "")) or tasks.get("")
        if base is None:
            return None
        call = {**base, **call}
    elif not (call.get("title") or call.get("prompt")):
        return None
    tasks[""] = call
    if call.get("id"):
        tasks[call["id"]] = call
    return call


def _task_receipt(msg: dict[str, Any], tasks: dict[str, dict[str, str]]) -> None:
    """A task tool's receipt names the task just set (``jawbone_id``): later updates find it by it."""
    receipt = gpt_tasks.read(_message_text(msg)[0]) if tasks.get("") is not None else None
    if receipt and receipt.get("id") and not tasks[""].get("id"):
        tasks[""]["id"] = receipt["id"]
        tasks[receipt["id"]] = tasks[""]


def _uploads(meta: dict[str, Any], images: list[str]) -> list[str]:
    """Names of the documents a user uploaded with a message (``metadata.attachments``); images
    are media (already in ``images``), not named."""
    names: list[str] = []
    for att in meta.get("attachments") or []:
        if not isinstance(att, dict) or not att.get("name"):
            continue
        ident = str(att.get("id") or "")
        mime = str(att.get("mime_type") or att.get("mimeType") or "")
        if mime.startswith("image/") or (ident and any(p.endswith(ident) for p in images)):
            continue
        names.append(str(att["name"]))
    return names


def _speaker(msg: dict[str, Any]) -> str:
    author = msg.get("author") or {}
    role = str(author.get("role") or "unknown")
    if role == "tool":
        return str(author.get("name") or "Tool")
    if role == "user" and isinstance(author.get("name"), str) and author["name"].strip():
        return " ".join(author["name"].split())  # a group chat: each person under their own name
    return role.capitalize()


_CONTEXT_FENCE_RE = re.compile(r"```(.*?)```", re.DOTALL)
_CONTEXT_PREAMBLE_RE = re.compile(r"^The user provided [^:]*?:\s*", re.IGNORECASE)
CONTEXT_REF = "chatgpt:custom-instructions"


def _custom_instructions(msg: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, the user's words) of a ``user_editable_context`` node (custom instructions: "What
    should ChatGPT know about you?", "How should it respond?"): the words the user wrote, from
    ``metadata.user_context_message_data`` when there, else from the text given to the model
    (its ``` fence, or after its "The user provided ...:" preamble)."""
    data = (msg.get("metadata") or {}).get("user_context_message_data") or {}
    content = msg.get("content") or {}
    found: list[tuple[str, str]] = []
    for label, key, field in (("about me", "about_user_message", "user_profile"),
                              ("how to answer", "about_model_message", "user_instructions")):
        text = data.get(key) if isinstance(data, dict) else None
        if not isinstance(text, str) or not text.strip():
            raw = content.get(field)
            raw = raw if isinstance(raw, str) else ""
            fences = _CONTEXT_FENCE_RE.findall(raw)
            text = fences[-1] if fences else _CONTEXT_PREAMBLE_RE.sub("", raw.strip())
        if text.strip():
            found.append((label, uncut(text.strip())))
    return found


def _context_records(msg: dict[str, Any], when: datetime | None) -> list[Record]:
    """Custom instructions as memories of the user (semantic, once per distinct text in the export:
    every conversation repeats them): "Custom instructions, about me: I live in Porto."."""
    out: list[Record] = []
    for label, text in _custom_instructions(msg):
        key = sha1_hex(f"{label}|{text}")[:16]
        out.append(Record(content=f"Custom instructions, {label}: {text}", ref=f"{CONTEXT_REF}:{key}",
                          source="chatgpt", memory_type="semantic", event_at=when, author="User",
                          metadata={"custom_instructions": label}))  # no thread: facts, not a conversation
    return out


def malformed(conv: Any) -> str | None:
    """Why ``conv`` is not a ChatGPT conversation, or None when it is one."""
    if not isinstance(conv, dict):
        return "not an object"
    mapping = conv.get("mapping")
    if not isinstance(mapping, dict):
        return "no 'mapping' object"
    if any(not isinstance(node, dict) for node in mapping.values()):
        return "a 'mapping' node that is not an object"
    return None


def _other_branches(mapping: dict[str, Any], on: set[str]) -> int:
    """How many messages with words lie off the kept branch: the user's and the assistant's turns of the other
    branches (hidden, system and tool nodes are not counted: they would not be imported on the branch either)."""
    count = 0
    for key, node in mapping.items():
        msg = node.get("message") if key not in on else None
        if not isinstance(msg, dict) or not isinstance(msg.get("content") or {}, dict):
            continue
        role = (msg.get("author") or {}).get("role")
        ctype = (msg.get("content") or {}).get("content_type", "text")
        if role not in ("user", "assistant") or (msg.get("recipient") or "all") != "all" or ctype in _HIDDEN_TYPES \
                or ctype in _TOOL_TYPES or (msg.get("metadata") or {}).get("is_visually_hidden_from_conversation"):
            continue
        text, images, _ = _message_text(msg)
        if text.strip() or images:
            count += 1
    return count


def _first_time(mapping: dict[str, Any], keys: list[str]) -> datetime | None:
    """The time of the first message on ``keys`` that has one."""
    for key in keys:
        msg = mapping[key].get("message")
        when = _when(msg.get("create_time")) if isinstance(msg, dict) else None
        if when is not None:
            return when
    return None


def _conversation(conv: dict[str, Any], where: str, report: ImportReport, all_branches: bool,
                  include_tools: bool, context: dict[str, Record] | None = None) -> Iterator[Record]:
    mapping = conv["mapping"]
    conv_id = str(conv.get("conversation_id") or conv.get("id") or "")
    title = uncut(str(conv.get("title") or ""))
    if not conv_id:
        conv_id = sha1_hex(f"{title}|{conv.get('create_time')}")[:16]
        report.warn(f"conversation {title!r} has no id; using a hash of title and time")
    gizmo = str(conv.get("gizmo_id") or "")
    active = active_path(mapping, conv.get("current_node"))
    # a message without a time is dated by the one before it; before the first timed one, by the conversation's
    # creation, else by that first time: the last update comes after every answer and would put the opening of
    # the conversation after them (it dates a conversation none of whose messages has a time)
    fallback = _when(conv.get("create_time")) or _first_time(mapping, active) or _when(conv.get("update_time"))
    ordered: list[tuple[str, bool]] = [(k, False) for k in active]
    if all_branches:
        on = set(active)
        ordered += [(k, True) for k in _tree_order(mapping) if k not in on]
    else:
        left = _other_branches(mapping, set(active))
        if left:  # an edited prompt's first version, a regenerated answer: not imported, but never silently
            report.variant["other_branches"] = report.variant.get("other_branches", 0) + left
    position = 0
    tasks: dict[str, dict[str, str]] = {}  # the scheduled tasks set so far, by id ("" = the last one)
    canvas_name = ""  # the canvas document edits apply to (the last one written)
    canvas_docs: dict[str, str] = {}  # the canvas documents' texts so far, by name
    canvas_ids: dict[str, str] = {}  # the canvas documents' names by the textdoc_id their receipts gave
    last_time = fallback  # a message without create_time is dated by the one before it
    held: Record | None = None  # an answer cut at max_tokens, waiting for its continuation
    for index, (key, alt) in enumerate(ordered):
        msg = mapping[key].get("message")
        if not isinstance(msg, dict) or not isinstance(msg.get("content") or {}, dict):
            continue
        report.messages_seen += 1
        when = _when(msg.get("create_time"))
        if when is None:
            when = last_time
        elif not alt:
            last_time = when
        meta = msg.get("metadata") or {}
        role = (msg.get("author") or {}).get("role")
        ctype = (msg.get("content") or {}).get("content_type", "text")
        recipient = msg.get("recipient") or "all"
        doc_id = (meta.get("canvas") or {}).get("textdoc_id") if isinstance(meta.get("canvas"), dict) else None
        if isinstance(doc_id, str) and doc_id and not alt:
            if role == "tool" and canvas_name:
                canvas_ids.setdefault(doc_id, canvas_name)  # the receipt of the document just written
            elif role == "user" and doc_id in canvas_ids:
                canvas_name = canvas_ids[doc_id]  # the canvas open on the user's screen as they asked
        canvas = _canvas(msg, canvas_name, canvas_docs, canvas_ids) if role == "assistant" and recipient in _CANVAS_CALLS \
            and not _receipt_failed(mapping, ordered, index) else None
        # a memory ("bio" tool call): what ChatGPT saved about the user, a fact of theirs, not a turn
        memory = role == "assistant" and recipient == "bio"
        # a scheduled task the user set ("automations.create"/"update"): the task as it now stands
        task = _task(msg, tasks) if role == "assistant" and recipient in gpt_tasks.TASK_CALLS and not alt else None
        if role == "tool" and str((msg.get("author") or {}).get("name") or "") in gpt_tasks.TASK_CALLS:
            _task_receipt(msg, tasks)
        if canvas is not None and not alt:
            canvas_name = canvas[0]
            canvas_docs[canvas_name] = canvas[1]
        # custom instructions: their own node type since 2024; in 2023 a system message carrying the user's
        # words in metadata.user_context_message_data
        if (ctype == "user_editable_context" or isinstance(meta.get("user_context_message_data"), dict)) \
                and not alt and context is not None:
            found = _context_records(msg, when)
            if found:  # the user's words about themselves: memories, once, after the conversations
                for rec in found:
                    context.setdefault(rec.ref, rec)
                report.messages_seen -= 1  # counted with the memories they make, at the end
                continue
        if canvas is None and not memory and task is None and (
            meta.get("is_visually_hidden_from_conversation")
            or role == "system"
            or ctype in _HIDDEN_TYPES
            or (role == "assistant" and recipient != "all")
            or meta.get("is_user_system_message")  # a custom GPT's or project's instructions
            # chain of thought ("analysis"); GPT-5's preambles and tool calls ("commentary"): not its final words
            # (a tool's answer on the commentary channel is tool output, counted as such below)
            or msg.get("channel") == "analysis" or (role != "tool" and msg.get("channel") == "commentary")
        ):
            report.skipped_system += 1
            continue
        if not include_tools and (role == "tool" or ctype in _TOOL_TYPES):
            # browser pages, code-interpreter output, internal tools: what the model read,
            # not what was said (--include-tools keeps them, cut to TOOL_OUTPUT_CHARS)
            report.skipped_tool += 1
            continue
        text, images, kind = _message_text(msg)
        if task is not None:
            text, kind = gpt_tasks.content(task), "task"
        if canvas is not None:
            text, kind = f"[canvas: {canvas[0]}]\n{canvas[1]}", "canvas"
        files = _uploads(meta, images)
        if files:  # a document uploaded without a word is named all the same
            text = f"{text}\n[attachments: {', '.join(files)}]".strip()
        if CUT_MARK in text:
            report.skipped_oversized += 1
            report.warn(f"conversation {title!r} (id {conv_id}): message {msg.get('id') or key} is over "
                        f"{MAX_JSON_STRING_BYTES} bytes; refused")
            continue
        gap = "\n" if text[:1] == "\n" else " " if text[:1].isspace() else ""  # how a continuation goes on
        text = _clean(text)
        plain = role == "assistant" and not alt and canvas is None and task is None and not memory
        if held is not None and plain and text:
            # "Continue generating": the next answer on the path goes on with the cut one's text, as one answer
            held.content += gap + text
            if (meta.get("finish_details") or {}).get("type") != "max_tokens":
                yield held
                held = None
            continue
        if held is not None and text:
            yield held
            held = None
        if not text:
            if images or kind == "recording":
                report.skipped_media += 1
            else:
                report.skipped_empty += 1
            continue
        speaker = _speaker(msg)
        metadata: dict[str, Any] = {"title": title, "content_type": ctype}
        if images:
            metadata["images"] = images
        if meta.get("model_slug"):
            metadata["model"] = meta["model_slug"]
        if canvas is not None:
            metadata["canvas"] = canvas[0]
        if files:
            metadata["attachments"] = files
        if kind == "code" and (msg.get("content") or {}).get("language"):
            metadata["language"] = msg["content"]["language"]
        if alt:
            metadata["branch"] = "alt"
        if memory:
            metadata["memory"] = "bio"
        if task is not None:
            metadata["task"] = {k: v for k, v in task.items() if k in ("title", "prompt", "schedule")}
        if gizmo:
            metadata["gizmo"] = gizmo  # the project ("g-p-…") or custom GPT ("g-…") it was held in
        if meta.get("voice_mode_message") is True or _spoken(msg):
            metadata["voice"] = True  # spoken in voice mode: the words are a transcript
        if role == "user" and speaker != "User":
            metadata["role"] = "user"  # a person of a group chat, named (titles.name_untitled looks for them)
        msg_id = str(msg.get("id") or key)
        record = Record(
            content=f"ChatGPT memory: {text}" if memory else text if task is not None else f"{speaker}: {text}",
            ref=f"chatgpt:{conv_id}:{msg_id}",
            source="chatgpt",
            memory_type="semantic" if memory or task is not None else "episodic",
            event_at=when,
            author=speaker,
            thread=conv_id,
            position=position,
            metadata=metadata,
        )
        position += 1
        if plain and (meta.get("finish_details") or {}).get("type") == "max_tokens":
            held = record
            continue
        yield record
    if held is not None:
        yield held


def _mark(records: list[Record], conv: dict[str, Any], shared: dict[str, str], gizmos: dict[str, str]) -> None:
    """What the export says of a conversation as a whole, on each of its messages: its share link, archived
    (the user's still: kept, marked, as Keep's archived notes are), starred, the name of the project
    ("project") or custom GPT ("gpt") it was held in when another file of the export gives it
    (:mod:`importers.gpt_projects`)."""
    conv_id = str(conv.get("conversation_id") or conv.get("id") or "")
    marks: dict[str, Any] = {"shared_url": shared[conv_id]} if conv_id in shared else {}
    gizmo = str(conv.get("gizmo_id") or "")
    if gizmo in gizmos:
        marks["project" if gizmo.startswith("g-p-") else "gpt"] = gizmos[gizmo]
    for key, mark in (("is_archived", "archived"), ("is_starred", "starred")):
        if conv.get(key) is True:
            marks[mark] = True
    for record in records if marks else []:
        record.metadata.update(marks)


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a ChatGPT export (json file, directory of split files, or zip) into records.

    Options: ``all_branches`` (bool, default False), ``include_tools`` (keep tool,
    browser and code-interpreter output; default False), ``max_member_bytes`` (limit
    on a zip member read by streaming, default 8 GiB).

    A malformed conversation (no ``mapping``, not an object) is skipped with a warning
    naming it and counted in ``skipped_malformed``; a file holding no conversation at
    all is an error.
    """
    path = Path(path)
    all_branches = bool(options.get("all_branches", False))
    include_tools = bool(options.get("include_tools", False))
    limit = int(options.get("max_member_bytes") or DEFAULT_MAX_JSON_BYTES)
    sources = _sources(path)
    shared, shared_sources = _shared_links(path, limit, report)
    gizmos, named_by = gpt_projects.names(path, {*sources, *shared_sources}, limit)
    left = unread_files(path, [*sources, *shared_sources, *named_by])
    if left:  # user.json, message_feedback.json, chat.html beside conversations.json: no more history
        report.variant["not_read"] = left
    count = 0
    layouts: set[str] = set()
    context: dict[str, Record] = {}  # custom instructions by ref: every conversation repeats them
    for source in sources:
        where = f"{source[0]}!{source[1]}" if source[1] else str(source[0])
        page = _is_page(source)
        convs = (iter_page_array(source, _PAGE_MARKER, limit) if page
                 else iter_objects(source, "conversations", limit, _OWN_KEYS))
        for conv in convs:
            why = malformed(conv)
            if why is not None:
                report.skipped_malformed += 1
                report.warn(f"{describe(conv, ('conversation_id', 'id'), ('title',))} skipped: {why}")
                continue
            try:  # a whole conversation or none of it: one odd node must not leave half of it
                records = list(_conversation(conv, where, report, all_branches, include_tools, context))
                _mark(records, conv, shared, gizmos)
                titles.name_untitled(records)  # a null title (or "New chat"): the user's first words
            except (AttributeError, TypeError, ValueError, KeyError) as exc:
                report.skipped_malformed += 1
                report.warn(f"{describe(conv, ('conversation_id', 'id'), ('title',))} skipped: "
                            f"unexpected shape ({type(exc).__name__}: {exc})")
                continue
            count += 1
            yield from records
        layouts.add("html" if page else "split" if len(sources) > 1 else ("zip" if source[1] else "file"))
    report.messages_seen += len(context)
    yield from context.values()  # the custom instructions, once each, dated by their first conversation
    if not count:
        what = f"{report.skipped_malformed} malformed entries, " if report.skipped_malformed else ""
        raise ImportFormatError(f"no ChatGPT conversation found ({what}expected a list of conversations, "
                                "each with a 'mapping' of messages)", str(path))
    report.variant.update({"layout": "/".join(sorted(layouts)), "conversations": count, "all_branches": all_branches})
