"""The importers, listed once: every format's name, file suffixes and nature, behind one
:class:`Parser` protocol. Detection, the engine (episodes, folders) and the CLI (its
FORMAT choices and help) read this table; nothing else names the formats.

A parser module is imported when it first parses (a CLI call that imports nothing loads
none of them). Every record leaves through :func:`within_cap`: a memory over the store's
size limit is split into parts (at line breaks) with a warning, never cut silently.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from importers import ImportReport, Record, takeout

# the readers that read a Google Takeout's product from the Takeout itself (folder or zip)
_TAKEOUT_KINDS = frozenset({"markdown", "gemini", "googlechat", "googlevoice"})
MAX_RECORD_BYTES = 998_976  # the store's MAX_CONTENT_BYTES (1,000,000) less room for an alias's "Name: "
MAX_PARTS = 8  # a message longer than this many parts is refused (a pasted log, not a memory)


class Parser(Protocol):
    """An importer: what it reads and how, and the function that reads it."""

    name: str  # the FORMAT of `mem.py import FORMAT PATH`, and the records' source
    suffixes: tuple[str, ...]  # file suffixes it reads (detection and folders use them)
    one_per_file: bool  # exports come one file per chat/contact: a folder of them imports each file
    conversational: bool  # messages of a thread: the engine groups them into episodes

    def parse(self, path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
        """Records of ``path``, filling ``report``; bad input raises ImportFormatError."""
        ...


@dataclass(frozen=True)
class ParserSpec:
    """A :class:`Parser` whose ``parse`` lives in ``module`` (imported on first use)."""

    name: str
    suffixes: tuple[str, ...]
    one_per_file: bool
    conversational: bool
    module: str

    def parse(self, path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
        """The module's records, each within the store's size limit (:func:`within_cap`)."""
        records = importlib.import_module(self.module).parse(Path(path), report, **options)
        read = 0
        for rec in records:
            read += 1
            yield from within_cap(rec, report)
        if self.name in _TAKEOUT_KINDS:  # a Takeout read by one reader: the products nothing reads, named
            for said in takeout.unread_of_one(Path(path)):
                report.warn(said)
        if not read and report.messages_seen and report.skipped_empty == report.messages_seen and not report.warnings:
            # every message of no words: another app's export read as this one's (DeepSeek's conversations.json
            # forced as ChatGPT's) would otherwise end as "0 memories" and no word of why
            report.warn(f"{report.messages_seen} messages read as {self.name}'s, none with words: nothing imported "
                        f"(if this is not a {self.name} export, import it without naming its format)")

    def __call__(self, path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
        return self.parse(path, report, **options)


PARSERS: dict[str, ParserSpec] = {p.name: p for p in (
    ParserSpec("whatsapp", (".txt", ".zip"), one_per_file=True, conversational=True, module="importers.whatsapp"),
    ParserSpec("chatgpt", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.chatgpt"),
    ParserSpec("claude", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.claude"),
    ParserSpec("markdown", (".md", ".markdown"), one_per_file=False, conversational=False,
               module="importers.markdown"),
    ParserSpec("vcf", (".vcf",), one_per_file=True, conversational=False, module="importers.vcf"),
    ParserSpec("jsonl", (".jsonl", ".ndjson"), one_per_file=False, conversational=False, module="importers.jsonl"),
    # the chat apps: each message a chat turn, as WhatsApp's
    ParserSpec("telegram", (".json", ".html", ".zip"), one_per_file=False, conversational=True,
               module="importers.telegram"),
    ParserSpec("slack", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.slack"),
    ParserSpec("discord", (".json", ".csv", ".txt", ".html"), one_per_file=True, conversational=True, module="importers.discord"),
    ParserSpec("messenger", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.messenger"),
    ParserSpec("imessage", (".txt",), one_per_file=True, conversational=True, module="importers.imessage"),
    ParserSpec("line", (".txt",), one_per_file=True, conversational=True, module="importers.line"),
    ParserSpec("kakaotalk", (".txt", ".csv"), one_per_file=True, conversational=True, module="importers.kakaotalk"),
    ParserSpec("sms", (".xml",), one_per_file=True, conversational=True, module="importers.sms"),
    ParserSpec("googlechat", (".json", ".zip"), one_per_file=False, conversational=True,
               module="importers.googlechat"),
    ParserSpec("signal", (".md", ".html", ".json"), one_per_file=False, conversational=True, module="importers.signal"),
    ParserSpec("skype", (".json", ".tar"), one_per_file=False, conversational=True, module="importers.skype"),
    ParserSpec("viber", (".csv", ".zip"), one_per_file=False, conversational=True, module="importers.viber"),
    ParserSpec("wechat", (".csv", ".txt", ".html"), one_per_file=False, conversational=True, module="importers.wechat"),
    ParserSpec("threema", (".txt", ".zip"), one_per_file=False, conversational=True, module="importers.threema"),
    ParserSpec("matrix", (".json", ".txt"), one_per_file=False, conversational=True, module="importers.matrix"),
    ParserSpec("twitter", (".js", ".zip"), one_per_file=False, conversational=True, module="importers.twitter"),
    ParserSpec("googlevoice", (".html", ".zip"), one_per_file=False, conversational=True,
               module="importers.googlevoice"),
    ParserSpec("zoom", (".txt",), one_per_file=False, conversational=True, module="importers.zoom"),
    ParserSpec("snapchat", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.snapchat"),
    ParserSpec("mail", (".mbox", ".eml"), one_per_file=False, conversational=True, module="importers.mail"),
    ParserSpec("linkedin", (".csv", ".zip"), one_per_file=False, conversational=True, module="importers.linkedin"),
    ParserSpec("tinder", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.tinder"),
    ParserSpec("hinge", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.hinge"),
    ParserSpec("mattermost", (".jsonl", ".zip"), one_per_file=False, conversational=True,
               module="importers.mattermost"),
    ParserSpec("reddit", (".csv", ".zip"), one_per_file=False, conversational=True, module="importers.reddit"),
    ParserSpec("gemini", (".json", ".html", ".zip"), one_per_file=False, conversational=True, module="importers.gemini"),
    ParserSpec("zulip", (".json", ".zip", ".gz", ".tar"), one_per_file=False, conversational=True,
               module="importers.zulip"),
    # round 28: DeepSeek's and Grok's exports, Mistral Le Chat's, Rocket.Chat's "Export my data" (JSON)
    ParserSpec("deepseek", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.deepseek"),
    ParserSpec("grok", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.grok"),
    ParserSpec("lechat", (".json", ".zip"), one_per_file=False, conversational=True, module="importers.lechat"),
    ParserSpec("rocketchat", (".json", ".html", ".zip"), one_per_file=False, conversational=True,
               module="importers.rocketchat"),
    # round 29: Character.AI's chats, Microsoft Copilot's activity history, Perplexity's threads (and, above,
    # MemoTrace's WeChat pages and Rocket.Chat's HTML export)
    ParserSpec("characterai", (".json", ".zip"), one_per_file=False, conversational=True,
               module="importers.characterai"),
    ParserSpec("copilot", (".csv", ".zip"), one_per_file=False, conversational=True, module="importers.copilot"),
    ParserSpec("perplexity", (".md",), one_per_file=False, conversational=True, module="importers.perplexity"),
    ParserSpec("vk", (".html", ".zip"), one_per_file=False, conversational=True, module="importers.vk"),
    # round 30: iMazing's message CSVs (an iPhone's iMessage, SMS, WhatsApp); (WechatExporter's pages are wechat's)
    ParserSpec("imazing", (".csv",), one_per_file=False, conversational=True, module="importers.imazing"),
    # round 35: the journals of Daylio (its CSV) and Diaro (its backup); (Element's HTML export is matrix's)
    ParserSpec("daylio", (".csv",), one_per_file=True, conversational=False, module="importers.daylio"),
    ParserSpec("diaro", (".xml", ".zip"), one_per_file=False, conversational=False, module="importers.diaro"),
)}
NAMES = tuple(PARSERS)


def _pieces(text: str, limit: int) -> Iterator[str]:
    """``text`` in pieces of at most ``limit`` UTF-8 bytes, cut at line breaks where possible."""
    piece: list[str] = []
    size = 0
    for line in text.split("\n"):
        n = len(line.encode("utf-8", "surrogatepass")) + 1
        if piece and size + n > limit:
            yield "\n".join(piece)
            piece, size = [], 0
        while n > limit:  # one line longer than a piece: cut it at a character boundary
            raw = line.encode("utf-8", "surrogatepass")
            head = raw[:limit].decode("utf-8", "ignore")
            yield head
            line = line[len(head):]
            n = len(line.encode("utf-8", "surrogatepass")) + 1
        piece.append(line)
        size += n
    if piece:
        yield "\n".join(piece)


def within_cap(rec: Record, report: ImportReport) -> Iterator[Record]:
    """``rec`` itself (undated, with a warning, when its date has fewer than four digits of year), or,
    over MAX_RECORD_BYTES, its parts (refs ``ref``, ``ref#part2``, ...;
    later parts keep the speaker's ``Name: ``) with a warning; over MAX_PARTS parts, nothing
    but the warning."""
    if rec.event_at is not None and rec.event_at.year < 1000:  # "0240-03-12": damaged, and no ISO date to store
        report.warn(f"{rec.ref}: date {rec.event_at.date().isoformat()} is no date of a memory; kept undated",
                    rec.line)
        rec = replace(rec, event_at=None)
    size = len(rec.content.encode("utf-8", "surrogatepass"))
    if size <= MAX_RECORD_BYTES:
        yield rec
        return
    prefix = f"{rec.author}: " if rec.author and rec.content.startswith(f"{rec.author}: ") else ""
    parts = list(_pieces(rec.content[len(prefix):], MAX_RECORD_BYTES - len(prefix.encode("utf-8")) - 1))
    if len(parts) > MAX_PARTS:
        report.skipped_oversized += 1
        report.warn(f"{rec.ref}: {size} bytes, more than {MAX_PARTS} memories of {MAX_RECORD_BYTES} bytes; refused",
                    rec.line)
        return
    report.warn(f"{rec.ref}: {size} bytes, over the {MAX_RECORD_BYTES}-byte limit of a memory; split into "
                f"{len(parts)} parts", rec.line)
    for i, part in enumerate(parts, start=1):
        yield replace(rec, content=prefix + part, ref=rec.ref if i == 1 else f"{rec.ref}#part{i}",
                      metadata={**rec.metadata, "part": i, "parts": len(parts)},
                      links=list(rec.links) if i == 1 else [], aliases=dict(rec.aliases) if i == 1 else {})
