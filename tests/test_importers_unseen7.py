"""Round 7 of export layouts nobody here had seen (tests/fixtures/unseen7, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* WhatsApp: Android chats in ten locales (es, de, fr, pt-BR, it, nl, ru, tr, id, pl) whose notices are
  messages of a sender (deleted, edited, live location, view-once placeholders, missed calls, "waiting
  for this message") or group events quoting a subject with a colon in the locale's quote marks; an
  iOS chat in Spanish with its U+200E notices;
* ChatGPT 2024-2025: a conversation of no title (null, or "New chat"), reasoning ("thoughts",
  "reasoning_recap"), a canvas and its tool receipt, a memory ("bio") call, uploaded documents (one
  with no words), a picture as a ``sediment://`` pointer, an edited question's two branches;
* Claude 2025: content blocks (text with citations, thinking, tool_use, tool_result), an attachment's
  extracted text, ``files``/``files_v2``, a conversation of no name, a message of only a picture;
* notes: a zip of plain ``.txt`` notes (one UTF-16), Org headline tags (each tags its subtree), Joplin's
  "Markdown + Front Matter" and plain Markdown exports, a Bear note ending in its tags line, Obsidian
  Dataview fields and callouts without a title, an Apple Notes note exported as HTML in a ``.md``;
* files that are no export: subtitles (SubRip, WebVTT), a program's log, SMS Backup & Restore's
  messages and calls, a Telegram chat copied as text.

WhatsApp times are the phone's wall clock as written (naive); ChatGPT and Claude times UTC (aware); note
dates as their front matter or file name writes them."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen7"
D = datetime


def _t(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


# --- files that are no export: one line saying what each is ----------------------------------------------

NOT_EXPORT = {
    "Episode 3.srt": "subtitles of a video (SubRip)",
    "captions.vtt": "subtitles of a video (WebVTT)",
    "server.log": "a program's log",
    "sms-20240313150000.xml": "an SMS Backup & Restore file of text messages (not an export mem reads)",
    "calls-20240313150000.xml": "an SMS Backup & Restore call log (not an export mem reads)",
    "Telegram copy.txt": "a Telegram chat copied as text (not an export mem reads)",
}


@pytest.mark.parametrize("name", sorted(NOT_EXPORT))
def test_a_file_that_is_no_export_says_what_it_is(name: str) -> None:
    with pytest.raises(ImportFormatError, match=re.escape(f": {NOT_EXPORT[name]}; expected a WhatsApp chat")):
        detect(FIX / "notexport" / name)


def test_every_unseen7_non_export_has_a_case() -> None:
    assert sorted(p.name for p in (FIX / "notexport").iterdir()) == sorted(NOT_EXPORT)


def test_the_cli_names_a_log_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(FIX / "notexport" / "server.log"))
    out = _envelope(proc)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    assert "a program's log" in out["error"]["message"] and "\n" not in out["error"]["message"]
    assert not db.exists() or _envelope(run_cli("--db", str(db), "stats"))["data"]["memories"] == 0
