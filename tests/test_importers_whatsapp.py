"""WhatsApp parser: layouts, date orders, clocks, marks, system and media lines, zips."""

from __future__ import annotations

import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from importers import ImportFormatError, ImportReport, Record, whatsapp

FIX = Path(__file__).parent / "fixtures" / "whatsapp"


def run(path: Path, **options: object) -> tuple[list[Record], ImportReport]:
    report = ImportReport(str(path), "whatsapp")
    return list(whatsapp.parse(path, report, **options)), report


def test_android_dmy_edge_cases() -> None:
    recs, rep = run(FIX / "WhatsApp Chat with Ana.txt")
    assert [r.content for r in recs] == [
        "Ana García: Hola! Lunch at 13:00?",
        "Bea 🌸: first line\n\nthird line after blank",
        "Ana García: photo caption",
        "Ana García: fixed typo",
        "Ana García: ok",
        "Ana García: ok",
    ]
    assert recs[0].event_at == datetime(2023, 4, 3, 9, 6)
    assert recs[-1].event_at == datetime(2023, 4, 13, 18, 0)
    assert recs[1].author == "Bea 🌸"  # "~<U+202F>Bea" tilde prefix dropped
    assert recs[2].metadata["media"] == ["Medien ausgelassen"]
    assert recs[3].metadata["edited"] is True
    assert {r.thread for r in recs} == {"Ana"}
    assert [r.position for r in recs] == [0, 1, 2, 3, 4, 5]
    assert recs[4].ref.endswith(":0") and recs[5].ref.endswith(":1")
    assert recs[4].ref.rsplit(":", 1)[0] == recs[5].ref.rsplit(":", 1)[0]
    assert recs[0].ref.startswith("whatsapp:Ana:2023-04-03T09:06:00:Ana García:")
    assert (rep.messages_seen, rep.skipped_system, rep.skipped_media, rep.skipped_empty) == (11, 3, 2, 0)
    assert rep.variant["platform"] == "android"
    assert rep.variant["date_order"] == "dmy"
    assert rep.variant["clock"] == "24h"
    assert all(r.source == "whatsapp" and r.memory_type == "episodic" for r in recs)


def test_ios_mdy_12h_spanish_markers_and_marks() -> None:
    recs, rep = run(FIX / "ios_mdy_12h.txt")
    assert [(r.content, r.event_at) for r in recs] == [
        ("Ana: See you at 8", datetime(2023, 4, 13, 13, 6)),
        ("Bob: midnight snack", datetime(2023, 4, 13, 0, 30)),
    ]
    assert rep.variant["platform"] == "ios"
    assert rep.variant["date_order"] == "mdy"
    assert rep.variant["clock"] == "12h"
    assert rep.variant["seconds"] is True
    assert (rep.skipped_system, rep.skipped_media) == (2, 3)


def test_ymd_dots_and_dot_times() -> None:
    recs, rep = run(FIX / "ymd_dots.txt")
    assert [(r.content, r.event_at) for r in recs] == [
        ("Liisa: Huomenta", datetime(2023, 1, 2, 9, 55)),
        ("Pekka: Moi", datetime(2023, 1, 2, 10, 6)),
    ]
    assert rep.variant["date_order"] == "ymd"
    assert rep.variant["dot_time"] is True
    assert rep.skipped_system == 1


def test_date_order_override() -> None:
    recs, rep = run(FIX / "ambiguous.txt")
    assert [r.event_at for r in recs] == [datetime(2023, 2, 1, 10), datetime(2023, 3, 1, 10)]
    recs, rep = run(FIX / "ambiguous.txt", date_order="mdy")
    assert [r.event_at for r in recs] == [datetime(2023, 1, 2, 10), datetime(2023, 1, 3, 10)]
    assert rep.variant["date_order_reason"] == "option"


def test_german_system_lines() -> None:
    recs, rep = run(FIX / "de_system.txt")
    assert [r.content for r in recs] == ["Jonas: Wer bringt das Zelt?"]
    assert rep.skipped_system == 3


def test_japanese_markers_before_time() -> None:
    recs, _ = run(FIX / "ja.txt")
    assert [(r.author, r.event_at) for r in recs] == [
        ("花子", datetime(2023, 4, 13, 14, 5)),
        ("太郎", datetime(2023, 4, 13, 9, 0)),
    ]


def test_refs_stable_across_overlapping_exports(tmp_path: Path) -> None:
    text = (FIX / "WhatsApp Chat with Ana.txt").read_text(encoding="utf-8-sig")
    lines = text.splitlines(keepends=True)
    early = tmp_path / "WhatsApp Chat with Ana.txt"
    early.write_text("".join(lines[:3]), encoding="utf-8")
    first, _ = run(early)
    full, _ = run(FIX / "WhatsApp Chat with Ana.txt")
    assert [r.ref for r in first] == [full[0].ref]


def test_thread_names() -> None:
    assert whatsapp.thread_name("WhatsApp Chat with Ana.txt") == "Ana"
    assert whatsapp.thread_name("WhatsApp Chat - Elon Musk.zip") == "Elon Musk"
    assert whatsapp.thread_name("Chat de WhatsApp con Luis.txt") == "Luis"
    assert whatsapp.thread_name("WhatsApp-Chat mit Jonas.txt") == "Jonas"
    assert whatsapp.thread_name("family.txt") == "family"


def _chat_bytes() -> bytes:
    return (FIX / "ios_mdy_12h.txt").read_bytes()


def test_zip_with_macosx_and_nested_zip(tmp_path: Path) -> None:
    inner = tmp_path / "inner.zip"
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("_chat.txt", _chat_bytes())
    outer = tmp_path / "WhatsApp Chat - Trip.zip"
    with zipfile.ZipFile(outer, "w") as zf:
        zf.writestr("__MACOSX/._chat.txt", b"\x00\x05\x16\x07junk")
        zf.writestr("00000001-PHOTO.jpg", b"\xff\xd8")
        zf.write(inner, "export.zip")
    recs, rep = run(outer)
    assert [r.content for r in recs] == ["Ana: See you at 8", "Bob: midnight snack"]
    assert {r.thread for r in recs} == {"Trip"}


def test_zip_prefers_chat_txt(tmp_path: Path) -> None:
    z = tmp_path / "x.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("_chat.txt", _chat_bytes())
        zf.writestr("__MACOSX/._chat.txt", b"junk")
    recs, _ = run(z)
    assert len(recs) == 2


def test_zip_slip_and_oversize_refused(tmp_path: Path) -> None:
    z = tmp_path / "evil.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("_chat.txt", _chat_bytes())
        zf.writestr("../../etc/evil.txt", b"x")
    with pytest.raises(ImportFormatError, match="unsafe member name"):
        run(z)
    z2 = tmp_path / "big.zip"
    with zipfile.ZipFile(z2, "w") as zf:
        zf.writestr("_chat.txt", _chat_bytes())
    with pytest.raises(ImportFormatError, match="too large"):
        run(z2, max_member_bytes=100)


def test_utf16_export(tmp_path: Path) -> None:
    p = tmp_path / "u16.txt"
    p.write_bytes((FIX / "ymd_dots.txt").read_text(encoding="utf-8").encode("utf-16"))
    recs, _ = run(p)
    assert [r.content for r in recs] == ["Liisa: Huomenta", "Pekka: Moi"]


@pytest.mark.parametrize(("stamp", "order", "when"), [
    # Arabic iOS: unpadded d/m/yyyy, Arabic-Indic digits, "م" for p.m. — no US English export.
    ("\u200f[٣\u200f/١١\u200f/٢٠٢٦، ٧:٠٤:١١ م]", "dmy", datetime(2026, 11, 3, 19, 4, 11)),
    # a 4-digit year is not what US iOS writes either, whatever the marker
    ("[3/11/2026, 7:04:11 PM]", "dmy", datetime(2026, 11, 3, 19, 4, 11)),
    # Spanish (or Italian, German …) iOS: the same unpadded d/m/yy, but a 24-hour clock, which US English never writes
    ("[3/11/26, 19:04:11]", "dmy", datetime(2026, 11, 3, 19, 4, 11)),
    ("[3/11/26, 8:15:00]", "dmy", datetime(2026, 11, 3, 8, 15, 0)),
    # US English iOS: unpadded m/d/yy with AM/PM stays month first
    ("[3/11/26, 7:04:11 PM]", "mdy", datetime(2026, 3, 11, 19, 4, 11)),
])
def test_undecided_ios_dates_are_month_first_only_when_us_english(tmp_path: Path, stamp: str, order: str,
                                                                  when: datetime) -> None:
    chat = tmp_path / "chat.txt"
    chat.write_text(f"{stamp} Omar: hello\n{stamp} Sara: hi\n", encoding="utf-8")
    recs, rep = run(chat)
    assert [r.event_at for r in recs] == [when, when]
    assert rep.variant["date_order"] == order
