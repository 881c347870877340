"""Round 33 of export layouts (held-out tests/fixtures/unseen33, written by hand before any change of round
layouts35; notes and entries invented, nothing copied from a real export or from ../shared; see its README.md): the
notes and journal apps people keep years of, as exported today, and what round layouts34 left — Telegram texts copied
out of the app as a folder, Element's HTML export.

Decisions:

* a note's or entry's own date (created) is its record's time, in the zone the app wrote it in (Day One's
  ``timeZone``, Diaro's ``tz_offset``); a note with no date is kept undated and said;
* what an app keeps beside its notes is no note: an Obsidian vault's templates, its trash; a Bear note in the trash;
  Notion's ``_all.csv`` twin of a table; an export's zip inside its zip (Notion's "Part-1") is read, not skipped;
* a journal entry of a mood and no words (Daylio) is still an entry: its mood and activities are its words;
* a folder of Telegram texts copied out of the app imports every file; Element's HTML export is read like its JSON;
* damaged files are refused in one line naming the file, or read with a warning saying what was wrong.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import fuzzed_outcomes, one_envelope, turns

from importers import ImportReport, Record
from importers.detect import detect
from importers.registry import PARSERS
from importers.unwrap import unwrap

FIX = Path(__file__).parent / "fixtures" / "unseen33"
BAD = FIX / "bad"
EL = "matrix - Flat 3B - Chat Export - 2024-12-01T10-00-00.000Z"


def cli_import(path: Path, tmp_path: Path) -> tuple[int, dict]:
    """`mem.py import PATH` into a new store: (exit code, its JSON envelope)."""
    proc = run_cli("--db", str(tmp_path / "m.db"), "import", str(path))
    return proc.returncode, one_envelope(proc)


def warnings_of(out: dict) -> list[str]:
    data = out.get("data") or {}
    return list(data.get("warnings", [])) + [w for f in data.get("files", []) for w in f.get("warnings", [])]


def read(path: Path) -> tuple[str, list[Record], ImportReport]:
    """``path`` detected as some format, and its records and report as that format's reader gives them (a folder
    holding only an export read as that export, as `mem.py import` reads it)."""
    path = unwrap(path) if path.is_dir() else path
    kind = detect(path)
    assert kind, f"{path} not detected"
    rep = ImportReport(str(path), kind)
    return kind, list(PARSERS[kind].parse(path, rep)), rep


def by_word(recs: list[Record], word: str) -> Record:
    found = [r for r in recs if word in r.content]
    assert len(found) == 1, [r.content for r in recs]
    return found[0]


def assert_refused_or_said(path: Path, tmp_path: Path, added: int | None = None) -> None:
    """A damaged file: refused in one line naming it (exit 1 or 13), or read (``added`` memories) with a warning."""
    code, out = cli_import(path, tmp_path)
    if code:
        assert code in (1, 13) and not out["ok"], out
        said = out["error"]["message"]
        assert "\n" not in said and (str(path) in said or path.name in said), out
    else:
        assert warnings_of(out), out
        if added is not None:
            assert out["data"]["memories_added"] == added, out


# --- Telegram texts copied out of the app, a folder of them ----------------------------------------------------------

def test_a_folder_of_copied_telegram_chats_imports_every_file(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "telegram-copied", tmp_path)
    assert code == 0 and out["data"]["format"] == "telegram" and out["data"]["memories_added"] == 7, out


def test_copied_telegram_folder_turns() -> None:
    _, recs, _ = read(FIX / "telegram-copied")
    assert sorted(turns(recs)) == sorted([
        ("Ana Souza: Are we still on for Friday?", "2024-03-12T21:05:00"),
        ("Tomás: Yes! 7pm at the usual place", "2024-03-12T21:06:00"),
        ("Mãe: Don't forget grandma's birthday on Sunday", "2024-03-13T08:15:00"),
        ("Tomás: I ordered the cake", "2024-03-13T08:20:00"),
        ("Rui: The new garden gate", "2024-03-13T09:02:00"),
        ("Kofi: The release moved to Tuesday", "2024-03-14T17:40:00"),
        ("Tomás: Ok, I'll tell the client", "2024-03-14T17:41:00")])
    assert {r.thread for r in recs} == {"Ana Souza", "Family", "Work"}


# --- Element's HTML export -------------------------------------------------------------------------------------------

ELEMENT = [("Priya Nair: Who's buying the bin bags this week?", "2024-03-12T21:05:41"),
           ("Priya Nair: And the boiler man comes Thursday\nbetween 8 and 12", "2024-03-12T21:06:02"),
           ("Kofi: I'll get them", "2024-03-12T21:30:15"),
           ("Tomás: I can be home on Thursday morning", "2024-03-13T08:02:00")]


@pytest.mark.parametrize("rel", [f"{EL}.zip", f"unzipped/{EL}", f"unzipped/{EL}/messages.html"])
def test_element_html_export(rel: str, tmp_path: Path) -> None:
    path = FIX / "element" / rel
    kind, recs, _ = read(path)
    assert kind == "matrix" and turns(recs) == ELEMENT
    assert {r.thread for r in recs} == {"Flat 3B"}
    code, out = cli_import(path, tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 4, out


# --- Daylio ------------------------------------------------------------------------------------------------------------

DAYLIO = {datetime(2024, 3, 14, 21, 30): ("rad", "cooking", "Dinner at Ana's", "We made cataplana.\nAna's new flat"),
          datetime(2024, 3, 13, 8, 10): ("meh", "bad sleep", "Woke at 4"),
          datetime(2024, 3, 12, 19, 45): ("good", "gym")}


@pytest.mark.parametrize("path", [FIX / "daylio" / "daylio_export_2024_03_14.csv",
                                  BAD / "daylio-utf16" / "daylio_export_2024_03_14.csv"])
def test_daylio_entries_keep_their_time_mood_and_words(path: Path) -> None:
    _, recs, _ = read(path)
    assert {r.event_at for r in recs} == set(DAYLIO), [r.event_at for r in recs]
    for r in recs:
        assert r.event_at and all(w in r.content for w in DAYLIO[r.event_at]), r.content


def test_daylio_older_export_and_twelve_hour_clock(tmp_path: Path) -> None:
    _, recs, _ = read(FIX / "daylio" / "daylio_export_2023_12_31.csv")
    assert sorted(r.event_at for r in recs if r.event_at) == [datetime(2023, 12, 30, 9, 5), datetime(2023, 12, 31, 23, 55)]
    assert "train tickets to Porto" in by_word(recs, "Porto").content
    code, out = cli_import(FIX / "daylio", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 5, out


# --- Diaro -------------------------------------------------------------------------------------------------------------

def test_diaro_backup_entries_in_their_own_offset(tmp_path: Path) -> None:
    _, recs, _ = read(FIX / "diaro" / "Diaro_20240315.zip")
    seeds, flight = by_word(recs, "Planted"), by_word(recs, "Boston")
    assert seeds.event_at and seeds.event_at.isoformat() == "2024-03-12T21:05:41+00:00"
    assert flight.event_at and flight.event_at.isoformat() == "2024-03-14T04:00:00-04:00"
    assert "Planted the tomatoes & basil.\nWatered twice." in seeds.content and "Seeds" in seeds.content
    assert {"tomatoes", "spring"} <= set(seeds.tags)
    code, out = cli_import(FIX / "diaro" / "Diaro_20240315.zip", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 2, out


# --- Notesnook and UpNote (Markdown with front matter) -----------------------------------------------------------------

def test_notesnook_notes_dated_by_their_creation() -> None:
    _, recs, _ = read(FIX / "notesnook")
    seeds, plan = by_word(recs, "Cherry tomatoes"), by_word(recs, "Release moved")
    assert seeds.event_at and seeds.event_at.isoformat() == "2024-03-12T21:05:41+00:00"
    assert plan.event_at and plan.event_at.isoformat() == "2024-03-14T17:45:00+00:00"
    assert "garden" in seeds.tags and "created_at" not in seeds.content and len(recs) == 2


def test_upnote_notes_dated_by_their_creation() -> None:
    _, recs, _ = read(FIX / "upnote")
    compost, cataplana = by_word(recs, "Turn the heap"), by_word(recs, "chouriço")
    assert compost.event_at == datetime(2024, 3, 10, 18, 20) and cataplana.event_at == datetime(2023, 11, 2, 20, 0)
    assert "garden" in compost.tags and len(recs) == 2


# --- Obsidian vault ----------------------------------------------------------------------------------------------------

def test_obsidian_vault_daily_notes_dated_templates_and_trash_left_out(tmp_path: Path) -> None:
    _, recs, rep = read(FIX / "obsidian")
    assert len({r.thread for r in recs}) == 3, [r.content for r in recs]   # three notes (a record a section)
    days = {by_word(recs, "plumber comes").event_at, by_word(recs, "new flat").event_at}
    assert {d.date() for d in days if d} == {date(2024, 3, 12), date(2024, 3, 13)}
    assert by_word(recs, "south wall").event_at == datetime(2024, 3, 1, 10, 0)
    assert not any("{{date" in r.content for r in recs)
    assert any("Templates" in w for w in rep.warnings), rep.warnings   # the template left out, said
    code, out = cli_import(FIX / "obsidian", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 4, out   # 12-03's two sections, 13-03, Garden plan


# --- Notion: the export's parts zipped inside its zip ----------------------------------------------------------------

@pytest.mark.parametrize("path", [next((FIX / "notion").iterdir()), BAD / "notion-zip-in-folder"])
def test_notion_export_with_its_part_zips(path: Path, tmp_path: Path) -> None:
    code, out = cli_import(path, tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 4, out   # Garden, Seeds, two task rows (no _all twin)
    _, recs, _ = read(path)
    assert by_word(recs, "Basil and cherry").event_at == datetime(2024, 3, 12, 21, 5)


# --- Evernote 10 -------------------------------------------------------------------------------------------------------

def test_evernote_stack_folder_tasks_and_an_undated_note(tmp_path: Path) -> None:
    _, recs, rep = read(FIX / "evernote")
    assert len(recs) == 3
    lisbon = by_word(recs, "Cacilhas")
    assert lisbon.event_at and lisbon.event_at.isoformat() == "2024-03-12T21:05:41+00:00"
    assert "Book the ferry" in lisbon.content   # an Evernote 10 task lives outside the note's ENML
    assert by_word(recs, "Raincoat").event_at is None
    assert any("date" in w.lower() for w in rep.warnings), rep.warnings
    code, out = cli_import(FIX / "evernote", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 3, out


# --- Day One: two journals in one zip, each entry in its own zone ------------------------------------------------------

def test_dayone_entries_in_their_own_time_zone() -> None:
    _, recs, _ = read(FIX / "dayone" / "Export-All Entries.zip")
    boston, dinner = by_word(recs, "Priya waited"), by_word(recs, "Cataplana")
    assert boston.event_at and boston.event_at.isoformat() == "2024-03-11T21:05:41-04:00"
    assert dinner.event_at and dinner.event_at.isoformat() == "2024-03-14T22:30:00+00:00"


# --- Bear 2's backup ---------------------------------------------------------------------------------------------------

def test_bear_backup_of_textbundles(tmp_path: Path) -> None:
    _, recs, _ = read(FIX / "bear" / "Bear Backup 2024-03-15.bear2bk")
    assert len(recs) == 2 and not any("asdf" in r.content for r in recs)   # the trashed note is no memory
    boiler = by_word(recs, "Service due")
    assert boiler.event_at and boiler.event_at.isoformat() == "2024-03-12T21:05:41+00:00" and "house" in boiler.tags
    code, out = cli_import(FIX / "bear" / "Bear Backup 2024-03-15.bear2bk", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 2, out


# --- OneNote: no readable export -------------------------------------------------------------------------------------

def test_onenote_package_refused_naming_onenote(tmp_path: Path) -> None:
    path = FIX / "onenote" / "Personal.onepkg"
    code, out = cli_import(path, tmp_path)
    assert code == 1 and "OneNote" in out["error"]["message"] and str(path) in out["error"]["message"], out


# --- damaged -----------------------------------------------------------------------------------------------------------

def test_cut_enex(tmp_path: Path) -> None:
    assert_refused_or_said(BAD / "cut.enex", tmp_path, added=1)


def test_cut_diaro_backup(tmp_path: Path) -> None:
    assert_refused_or_said(BAD / "DiaroBackup.xml", tmp_path)


def test_empty_dayone_journal_refused_saying_so(tmp_path: Path) -> None:
    path = BAD / "dayone-empty" / "Journal.json"
    code, out = cli_import(path, tmp_path)
    assert code in (1, 13) and str(path) in out["error"]["message"], out
    assert "0 bytes" in out["error"]["message"] or "empty" in out["error"]["message"], out


def test_obsidian_note_in_windows_1252(tmp_path: Path) -> None:
    _, recs, rep = read(BAD / "obsidian-cp1252")
    assert "The café on the corner sells pão de ló." in by_word(recs, "corner").content and len(recs) == 2
    assert any("1252" in w for w in rep.warnings), rep.warnings


def test_an_empty_vault_is_refused_naming_it(tmp_path: Path) -> None:
    path = BAD / "empty-vault"
    code, out = cli_import(path, tmp_path)
    assert code in (1, 13) and not out["ok"] and str(path) in out["error"]["message"], out


# --- fuzz of the new readers (added after the base run) ----------------------------------------------------------------

@pytest.mark.parametrize("rel", ["daylio/daylio_export_2024_03_14.csv", "diaro/Diaro_20240315.zip",
                                 f"element/unzipped/{EL}/messages.html", f"element/{EL}.zip"])
def test_fuzzed_copies_of_the_new_readers_files_are_read_or_refused_in_one_line(rel: str, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=33, keep=1)
    assert read + refused == 16 and read >= 1
