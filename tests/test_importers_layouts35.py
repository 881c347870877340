"""Round layouts35's readers beyond the held-out (tests/test_importers_unseen33.py): a page cut into blocks the same
whatever its chunks, Daylio's rows that cannot be read, Diaro's offsets, the daily note's own template of a vault."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from importers import ImportFormatError, ImportReport, daylio, diaro, markdown
from importers._htmlchat import TAG_CHARS, split_blocks

FIX = Path(__file__).parent / "fixtures" / "unseen33"
START = re.compile(r"<div class=\"m\">")


@pytest.mark.parametrize("size", [1, 2, 7, 15, 64, 10_000])
def test_split_blocks_is_the_same_whatever_the_chunks(size: int) -> None:
    page = "<html><p>head</p>" + "".join(f'<div class="m">message {i} ' + "x" * (i * 37 % 300) + "</div>"
                                         for i in range(60)) + "</html>"
    pieces = list(split_blocks(iter(page[i:i + size] for i in range(0, len(page), size)), START))
    assert pieces[0] == (False, "<html><p>head</p>")
    assert [p for _, p in pieces[1:]] == ['<div class="m">' + b for b in page.split('<div class="m">')[1:]]
    assert "".join(p for _, p in pieces) == page and all(is_block for is_block, _ in pieces[1:])


def test_split_blocks_of_a_page_with_no_block_is_the_page() -> None:
    page = "y" * (5 * TAG_CHARS)
    assert list(split_blocks(iter([page[:3000], page[3000:]]), START)) == [(False, page)]


def _daylio(tmp_path: Path, rows: str) -> tuple[list, ImportReport]:
    path = tmp_path / "daylio_export_2024_03_14.csv"
    path.write_text("full_date,date,weekday,time,mood,activities,note_title,note\n" + rows, encoding="utf-8")
    rep = ImportReport(str(path), "daylio")
    return list(daylio.parse(path, rep)), rep


def test_daylio_row_of_an_unreadable_time_is_kept_undated_and_said(tmp_path: Path) -> None:
    recs, rep = _daylio(tmp_path, '2024-03-14,March 14,Thursday,25:99,rad,,,"Late one"\n'
                                  '2024-03-13,March 13,Wednesday,12:00 am,good,,,"Midnight"\n')
    assert [(r.content, r.event_at) for r in recs] == [("Late one\nMood: rad.", None),
                                                      ("Midnight\nMood: good.", datetime(2024, 3, 13, 0, 0))]
    assert len(rep.warnings) == 1 and "25:99" in rep.warnings[0]


def test_daylio_short_row_is_said_and_skipped_and_a_same_minute_entry_kept(tmp_path: Path) -> None:
    recs, rep = _daylio(tmp_path, "2024-03-14,March 14,Thursday,21:30,rad\n"
                                  '2024-03-12,March 12,Tuesday,19:45,good,,,"One"\n'
                                  '2024-03-12,March 12,Tuesday,19:45,meh,,,"Two"\n')
    assert [r.ref for r in recs] == ["daylio:2024-03-12T19:45", "daylio:2024-03-12T19:45:1"]
    assert rep.skipped_malformed == 1 and "5 columns" in rep.warnings[0]


def test_a_csv_that_is_not_daylios_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="not Daylio's CSV export"):
        list(daylio.parse(path, ImportReport(str(path), "daylio")))


def test_diaro_offsets_and_an_unreadable_date(tmp_path: Path) -> None:
    path = tmp_path / "DiaroBackup.xml"
    path.write_text('<?xml version="1.0"?><data version="2"><table name="diaro_entries">'
                    "<r><uid>a</uid><date>1710277541000</date><tz_offset>+05:30</tz_offset><text>Chai</text></r>"
                    "<r><uid>b</uid><date>soon</date><tz_offset>+00:00</tz_offset><text>When?</text></r>"
                    "<r><uid>c</uid><date>1710277541000</date><tz_offset></tz_offset><title></title><text></text></r>"
                    "</table></data>", encoding="utf-8")
    rep = ImportReport(str(path), "diaro")
    recs = list(diaro.parse(path, rep))
    assert [(r.content, r.event_at.isoformat() if r.event_at else None) for r in recs] == [
        ("Chai", "2024-03-13T02:35:41+05:30"), ("When?", None)]
    assert rep.skipped_empty == 1 and len(rep.warnings) == 1 and "'soon'" in rep.warnings[0]


def test_the_daily_notes_template_named_outside_a_templates_folder_is_left_out(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    shutil.copytree(FIX / "obsidian", vault)
    (vault / ".obsidian" / "templates.json").unlink()  # no Templates plugin: only the Daily notes' template named
    rep = ImportReport(str(vault), "markdown")
    recs = list(markdown.parse(vault, rep))
    assert len({r.thread for r in recs}) == 3 and not any("{{date" in r.content for r in recs)
    assert any("Templates/Daily.md: the daily note's template" in w for w in rep.warnings), rep.warnings
    (vault / ".obsidian" / "daily-notes.json").write_text(json.dumps({"format": "DD-MM-YYYY", "folder": "Journal"}))
    rep = ImportReport(str(vault), "markdown")
    assert len({r.thread for r in markdown.parse(vault, rep)}) == 4   # named by nothing: a note like any other
