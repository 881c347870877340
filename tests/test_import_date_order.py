"""A chat's date order, as its importer decided it, reaches the brief (round 14).

The brief reads a slash date with both parts <= 12 ("pay the deposit by 03/12") only when the chat's numeric date
order is known (memengine/brief_upcoming.py, PlanDays._order). The WhatsApp importer decides it per chat (a day > 12
seen, a locale's layout, --date-order); the import keeps it in one ``_mem_meta`` row per chat, not in every memory.
A defaulted order ("ambiguous: defaulted to day first") is a guess: it is not kept, and such a date stays unread."""

from __future__ import annotations

import json
import zipfile
from datetime import datetime
from pathlib import Path

import memory_core as core
from memengine import graph_rank, ingest

NOW = datetime(2026, 11, 20, 9, 0)
PLAN = "pay the deposit by 03/12"

UK = ["14/11/2026, 18:02 - Sam: the flat is ours if we want it",
      f"18/11/2026, 10:15 - Ana: great, {PLAN} then"]
US = ["11/14/26, 6:02 PM - Sam: the flat is ours if we want it",
      f"11/18/26, 10:15 AM - Ana: great, {PLAN} then"]
UNDECIDED = ["05/11/2026, 18:02 - Sam: the flat is ours if we want it",
             f"05/11/2026, 18:15 - Ana: great, {PLAN} then"]


def _export(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _upcoming(store: core.MemoryStore) -> dict[str, str]:
    """content -> planned day of the brief's "Coming up" lines."""
    data = graph_rank.brief(store, 2000, now=NOW)
    by_id = {i["id"]: i["why"]["day"] for i in data["sections"]["upcoming"]}
    rows = store.conn.execute("SELECT id, content FROM memories").fetchall()
    return {content: by_id[mid] for mid, content in rows if mid in by_id}


def _plan_day(store: core.MemoryStore) -> str | None:
    return next((day for content, day in _upcoming(store).items() if PLAN in content), None)


def test_a_uk_export_plans_the_3rd_of_december(store: core.MemoryStore, tmp_path: Path) -> None:
    s = ingest.import_path(store, _export(tmp_path / "WhatsApp Chat with Ana.txt", UK), "whatsapp")
    assert (s.variant["date_order"], s.variant["date_order_reason"]) == ("dmy", "day > 12 in first field")
    assert _plan_day(store) == "2026-12-03"


def test_a_us_export_plans_the_12th_of_march(store: core.MemoryStore, tmp_path: Path) -> None:
    s = ingest.import_path(store, _export(tmp_path / "WhatsApp Chat with Ana.txt", US), "whatsapp")
    assert (s.variant["date_order"], s.variant["date_order_reason"]) == ("mdy", "day > 12 in second field")
    assert _plan_day(store) == "2027-03-12"


def test_a_defaulted_order_plans_nothing(store: core.MemoryStore, tmp_path: Path) -> None:
    s = ingest.import_path(store, _export(tmp_path / "WhatsApp Chat with Ana.txt", UNDECIDED), "whatsapp")
    assert s.variant["date_order_reason"] == "ambiguous: defaulted to day first"
    assert store.conn.execute("SELECT count(*) FROM _mem_meta WHERE key LIKE 'date_order:%'").fetchone()[0] == 0
    assert _plan_day(store) is None


def test_the_order_chosen_by_option_counts(store: core.MemoryStore, tmp_path: Path) -> None:
    ingest.import_path(store, _export(tmp_path / "WhatsApp Chat with Ana.txt", UNDECIDED), "whatsapp",
                       date_order="dmy")  # the order the default would guess, but said
    assert _plan_day(store) == "2026-12-03"


def test_each_chat_of_a_zip_keeps_its_own_order(store: core.MemoryStore, tmp_path: Path) -> None:
    zpath = tmp_path / "chats.zip"
    with zipfile.ZipFile(zpath, "w") as z:
        z.writestr("WhatsApp Chat with Ana.txt", "\n".join(UK) + "\n")
        z.writestr("WhatsApp Chat with Bob.txt", "\n".join(US).replace("Ana:", "Bob:") + "\n")
        z.writestr("WhatsApp Chat with Cy.txt", "\n".join(UNDECIDED).replace("Ana:", "Cy:") + "\n")
    ingest.import_path(store, zpath, "whatsapp")
    days = {content.split(":")[0]: day for content, day in _upcoming(store).items() if PLAN in content}
    assert days == {"Ana": "2026-12-03", "Bob": "2027-03-12"}


def test_no_memory_carries_the_order_and_a_dry_run_writes_none(store: core.MemoryStore, tmp_path: Path) -> None:
    path = _export(tmp_path / "WhatsApp Chat with Ana.txt", UK)
    ingest.import_path(store, path, "whatsapp", dry_run=True)
    assert store.conn.execute("SELECT count(*) FROM _mem_meta WHERE key LIKE 'date_order:%'").fetchone()[0] == 0
    ingest.import_path(store, path, "whatsapp")
    assert all("date_order" not in json.loads(m or "{}")
               for (m,) in store.conn.execute("SELECT metadata FROM memories"))
    rows = store.conn.execute("SELECT key, value FROM _mem_meta WHERE key LIKE 'date_order:%'").fetchall()
    assert len(rows) == 1 and rows[0][1] == "dmy"


def test_a_markdown_or_chatgpt_import_keeps_no_order(store: core.MemoryStore, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "flat.md").write_text(f"# Flat\n\n{PLAN}\n", encoding="utf-8")
    ingest.import_path(store, notes, "markdown")
    assert store.conn.execute("SELECT count(*) FROM _mem_meta WHERE key LIKE 'date_order:%'").fetchone()[0] == 0
