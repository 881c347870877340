"""WhatsApp header layouts, calendars and 12-hour markers: one synthetic fixture each
(tests/fixtures/whatsapp/layouts, written for these tests), exact texts and event times."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from importers import ImportReport, clock, whatsapp
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "whatsapp" / "layouts"

D = datetime
CASES: dict[str, tuple[str, str, str, list[tuple[str, datetime]]]] = {
    # file: (layout, date order, calendar, [(content, event time)])
    "legacy_colon_12h.txt": ("legacy colon", "mdy", "gregorian", [
        ("Ana: Are we still on for Saturday?", D(2015, 2, 12, 20, 33, 7)),
        ("Ben: Yes! 10am at the pier\nbring sunscreen", D(2015, 2, 12, 20, 34, 10)),
        ("Ana: Great, see you", D(2015, 2, 13, 0, 5)),
    ]),
    "legacy_colon_24h.txt": ("legacy colon", "dmy", "gregorian", [
        ("Ana: Train is late again", D(2016, 3, 14, 21, 2, 33)),
        ("Ben: Of course it is", D(2016, 3, 14, 21, 3, 1)),
    ]),
    "time_first_bracketed.txt": ("bracketed, time first", "mdy", "gregorian", [
        ("Lan: Chào anh, mai đi cà phê không?", D(2022, 3, 18, 14, 56, 1)),
        ("Minh: Được, 8 giờ sáng nhé", D(2022, 3, 18, 15, 2, 44)),
        ("Lan: Em tới rồi", D(2022, 3, 19, 9, 10, 5)),
    ]),
    "time_first_dashed.txt": ("dashed, time first", "dmy", "gregorian", [
        ("Lan: first", D(2022, 3, 18, 14, 56)),
        ("Minh: second", D(2022, 3, 18, 15, 2)),
    ]),
    "buddhist_be.txt": ("bracketed", "mdy", "buddhist", [
        ("Somchai: สวัสดีครับ", D(2022, 3, 18, 14, 56, 1)),
        ("Nok: Hello from Bangkok", D(2022, 3, 18, 14, 57, 12)),
        ("Somchai: Good morning", D(2022, 3, 19, 8, 1)),
    ]),
    "buddhist_year.txt": ("dashed", "dmy", "buddhist", [
        ("Somchai: no era word, a year past 2400", D(2022, 3, 18, 14, 56)),
        ("Nok: still 2022", D(2022, 3, 19, 8, 1)),
    ]),
    "buddhist_short_year.txt": ("dashed", "dmy", "buddhist", [
        ("Somchai: two-digit Buddhist year", D(2022, 3, 18, 14, 56)),
        ("Nok: April", D(2022, 4, 1, 8, 1)),
    ]),
    "japanese_era_letters.txt": ("bracketed", "ymd", "japanese", [
        ("健太: 平成最後の夜", D(2019, 4, 30, 23, 59)),
        ("美咲: 令和になったね", D(2019, 5, 1, 0, 0, 10)),
        ("健太: もう令和4年", D(2022, 3, 18, 14, 56, 1)),
    ]),
    "japanese_era_kanji.txt": ("bracketed", "ymd", "japanese", [
        ("健太: 漢字の元号", D(2022, 3, 18, 9, 15)),
        ("美咲: おやすみ", D(2022, 3, 18, 21, 30)),
    ]),
    "day_periods_en.txt": ("dashed", "mdy", "gregorian", [
        ("Ana: Coffee?", D(2022, 3, 18, 9, 15)),
        ("Ben: Lunch instead", D(2022, 3, 18, 12, 30)),
        ("Ana: Dinner then", D(2022, 3, 18, 20, 40)),
        ("Ben: Good night", D(2022, 3, 18, 23, 5)),
    ]),
    "day_periods_es.txt": ("dashed", "dmy", "gregorian", [
        ("Ana: Buenos días", D(2022, 3, 18, 9, 15)),
        ("Luis: Buenas tardes", D(2022, 3, 18, 16, 20)),
        ("Ana: No puedo dormir", D(2022, 3, 19, 2, 10)),
        ("Luis: Hasta mañana", D(2022, 3, 19, 22, 45)),
    ]),
    "day_periods_de.txt": ("dashed", "dmy", "gregorian", [
        ("Jonas: Kaffee?", D(2022, 3, 18, 15, 15)),
        ("Lea: Zu spät, das war heute Morgen", D(2022, 3, 18, 10, 5)),
        ("Jonas: Gute Nacht", D(2022, 3, 18, 21, 30)),
    ]),
    "ampm_ar.txt": ("bracketed", "dmy", "gregorian", [
        ("أحمد: صباح الخير", D(2022, 3, 18, 9, 15, 1)),
        ("سارة: مساء الخير", D(2022, 3, 18, 21, 20, 1)),
    ]),
    "ampm_zh_before.txt": ("bracketed", "ymd", "gregorian", [
        ("小明: 早上好", D(2022, 3, 18, 9, 15, 1)),
        ("小红: 下午好", D(2022, 3, 18, 15, 20, 45)),
        ("小明: 晚上好", D(2022, 3, 18, 20, 5)),
    ]),
    "ampm_vi.txt": ("bracketed", "dmy", "gregorian", [
        ("Lan: Chào buổi sáng", D(2022, 3, 18, 9, 15, 1)),
        ("Minh: Chào buổi chiều", D(2022, 3, 18, 15, 20, 45)),
    ]),
    "ampm_ko_before.txt": ("dashed", "ymd", "gregorian", [
        ("민준: 좋은 아침", D(2022, 3, 18, 9, 15)),
        ("서연: 안녕하세요", D(2022, 3, 18, 15, 20)),
    ]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_layout_calendar_and_clock(name: str) -> None:
    layout, order, calendar, expected = CASES[name]
    path = FIX / name
    report = ImportReport(str(path), "whatsapp")
    recs = list(whatsapp.parse(path, report))
    assert [(r.content, r.event_at) for r in recs] == expected
    assert report.variant["layout"] == layout
    assert report.variant["date_order"] == order
    assert report.variant["calendar"] == calendar
    assert report.warnings == []
    assert detect(path) == "whatsapp"


def test_every_fixture_has_a_case() -> None:
    assert sorted(p.name for p in FIX.iterdir()) == sorted(CASES)


def test_one_layout_per_file_body_lines_that_look_like_another_layout_stay_text(tmp_path: Path) -> None:
    p = tmp_path / "chat.txt"
    p.write_text("[18/03/2022, 14:56:01] Ana: the log said\n18/03/2022, 14:57 - Ben: quoted from Android\n"
                 "[18/03/2022, 14:58:00] Ben: ok\n", encoding="utf-8")
    recs = list(whatsapp.parse(p, ImportReport(str(p), "whatsapp")))
    assert [r.content for r in recs] == ["Ana: the log said\n18/03/2022, 14:57 - Ben: quoted from Android", "Ben: ok"]


def test_markers_come_from_cldr() -> None:
    # words no hand list here names: Greek, Persian, Thai full forms, Hebrew day periods
    assert clock.to_24h(11, "μ.μ.") == 23
    assert clock.to_24h(9, "ب.ظ.") == 21
    assert clock.to_24h(9, "หลังเที่ยง") == 21
    assert clock.to_24h(8, "בערב") == 20
    assert clock.to_24h(12, "at night") == 0
    assert clock.to_24h(13, "PM") == 13  # "13:23 PM" occurs in real exports: a 24h hour wins
    assert clock.known_marker("p. m.") and not clock.known_marker("xyzzy")


def test_unknown_marker_is_loud(tmp_path: Path) -> None:
    p = tmp_path / "chat.txt"
    p.write_text("3/18/22, 9:15 xyzzy - Ana: hi\n3/18/22, 9:16 xyzzy - Ben: yo\n", encoding="utf-8")
    report = ImportReport(str(p), "whatsapp")
    recs = list(whatsapp.parse(p, report))
    assert [(r.content, r.event_at) for r in recs] == [("Ana: hi", D(2022, 3, 18, 9, 15)),
                                                        ("Ben: yo", D(2022, 3, 18, 9, 16))]
    assert report.warnings == [f"{p}:1: unknown 12-hour marker 'xyzzy': hours read as written"]
