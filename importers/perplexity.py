"""Perplexity threads exported as Markdown (a thread's "Export > Markdown"): the Perplexity logo
(``<img src="https://r2cdn.perplexity.ai/pplx-full-logo-…" class="logo" …/>``), then each question as a ``# ``
heading followed by its answer; the answer's footnote markers (``[^1_1]``), a centred "⁂" and the footnotes (its
sources, ``[^1_1]: url``) close it; ``---`` separates a thread's questions. Read alone or as a folder of threads.

A question is the person's ("User", ``from_me``), an answer "Perplexity"'s; the sources go to the answer's
``metadata["sources"]`` (the markers and the "⁂" are no words). The file says no time: the records are undated. A
thread is named by its first question. A thread that is not UTF-8, or holds no question, is a one-line error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._aichat import title_of
from importers._textlines import read_utf8
from importers.chatturns import Turn, Turns

NAME = "perplexity"
LOGO_RE = re.compile(r'^\s*<img\s+src="https://[a-z0-9.]*perplexity\.ai/pplx-[^"]*logo[^"]*"[^>]*>', re.IGNORECASE)
_QUESTION_RE = re.compile(r"^# (\S.*)$")
_RULE_RE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,})\s*$")
_NOTE_RE = re.compile(r"^\[\^(\d+_\d+|\d+)\]:\s*(.*)$")
_MARK_RE = re.compile(r"\[\^(?:\d+_\d+|\d+)\]")
_STARS_RE = re.compile(r"^\s*<div[^>]*>\s*⁂\s*</div>\s*$|^\s*⁂\s*$")
_LINK_RE = re.compile(r"\]\((\S+?)\)")
MAX_BYTES = 64 * 1024 * 1024  # a thread's Markdown, read whole


def is_head(head: str) -> bool:
    """Whether a Markdown file starts with the logo Perplexity's export puts first."""
    return bool(LOGO_RE.match(head.lstrip("\ufeff")))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a thread, or of every thread of a folder; bad input: a one-line ImportFormatError."""
    turns = Turns(NAME, report)
    if path.is_dir():
        files = threads(path)
        if not files:
            raise ImportFormatError("folder holds no Perplexity thread (.md starting with its logo)", str(path))
    else:
        files = [path]
    for file in files:
        yield from _thread(file, turns)


def threads(folder: Path) -> list[Path]:
    """The Perplexity threads of ``folder`` and below (hidden folders left out), by name."""
    out = []
    for p in sorted(folder.rglob("*.md")):
        if any(part.startswith(".") for part in p.relative_to(folder).parts) or not p.is_file():
            continue
        with p.open("rb") as fh:
            if is_head(fh.read(4096).decode("utf-8", "replace")):
                out.append(p)
    return out


def _thread(path: Path, turns: Turns) -> Iterator[Record]:
    where = str(path)
    text = read_utf8(path, MAX_BYTES, "file", "; export the thread again")
    if not is_head(text):  # a note's headings are no questions: only Perplexity's own export is read as one
        raise ImportFormatError("no Perplexity logo at the top: not a thread exported from Perplexity", where, 1)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts: list[int] = []  # the lines of the questions: the first heading, and each heading after a rule
    for i, ln in enumerate(lines):
        if _QUESTION_RE.match(ln):
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            if not starts or _RULE_RE.match(before):
                starts.append(i)
    if not starts:
        raise ImportFormatError("no question (a '# ' heading) of a Perplexity thread", where)
    thread = ""
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        body = lines[start + 1: end]
        while body and (not body[-1].strip() or (k + 1 < len(starts) and _RULE_RE.match(body[-1]))):
            body.pop()  # the rule before the next question, and blank lines
        question = _QUESTION_RE.match(lines[start]).group(1).strip()  # type: ignore[union-attr]
        thread = thread or title_of(question)
        rec = turns.record(Turn(thread=thread, author="User", when=None, text=question, metadata={"from_me": True},
                                line=start + 1))
        if rec is not None:
            yield rec
        answer, sources = _answer(body)
        metadata: dict[str, Any] = {"sources": sources} if sources else {}
        rec = turns.record(Turn(thread=thread, author="Perplexity", when=None, text=answer, metadata=metadata,
                                line=start + 2))
        if rec is not None:
            yield rec


def _answer(body: list[str]) -> tuple[str, list[str]]:
    """An answer's words (markers, "⁂" and footnotes left out) and its sources in the order of the footnotes."""
    words, sources = [], []
    for ln in body:
        note = _NOTE_RE.match(ln)
        if note:
            link = _LINK_RE.search(note.group(2))
            sources.append(link.group(1) if link else note.group(2).strip())
            continue
        if _STARS_RE.match(ln):
            continue
        words.append(_MARK_RE.sub("", ln))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(words)).strip(), [s for s in sources if s]
