"""Round 4 of export layouts nobody here had seen (tests/fixtures/unseen4, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* WhatsApp: 12-hour markers of older Android in Tamil, Marathi (Devanagari digits) and Bengali
  (Bengali digits) that today's CLDR no longer lists, Hebrew markers holding a gershayim, Hungarian
  iOS media words and attachments, an iOS poll / location / contact card / notices, a chat across
  both DST changes, a day/month order only the line after 216 or the chat's flow decides, a UK
  iOS chat of one day (padded fields: day first), chat zips carrying contact cards zipped again;
* vCard 4.0 with ALTID, PID, a quoted TYPE list, group prefixes and a data: photo; a fold inside a
  UTF-8 character;
* notes: Apple Notes as HTML and as Markdown whose first line is the title, a Standard Notes backup;
* ChatGPT: an edited question, a regenerated answer, the memory tool, hidden nodes; Claude: a
  project, pasted text as an attachment, thinking blocks;
* files that are no export at all: a one-line error naming the file, what it looks like and what
  was expected (exit code 1, ``invalid_input``), nothing written.

WhatsApp times are the phone's wall clock as written (exports carry no zone): naive datetimes.
ChatGPT and Claude times are UTC (aware)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout
from importer_cli import memory_count as _count
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope
from importer_cli import wa as _wa
from importer_cli import write_zip as _zip

from importers import ImportReport, Record, chatgpt, claude, vcf
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen4"
WA = FIX / "whatsapp"
D = datetime
UTC = timezone.utc

_LATE = [(f"{'Ana' if i % 2 == 0 else 'Ben'}: day {day} message {i}", D(2024, 3, day, 8 + i // 2, (i % 2) * 30))
         for day in range(1, 13) for i in range(18)] + [("Ana: the thirteenth", D(2024, 3, 13, 9, 0))]

# file: (layout, date order, calendar, (system lines, media lines) skipped, [(content, time)], edited contents)
WA_CASES: dict[str, tuple[str, str, str, tuple[int, int], list[tuple[str, datetime]], set[str]]] = {
    "android_ta_old_12h.txt": ("dashed", "dmy", "gregorian", (1, 0), [  # முற்பகல் / பிற்பகல்: old CLDR
        ("ராஜா: வணக்கம்! நாளை சந்திக்கலாமா?", D(2024, 3, 12, 21, 5)),
        ("மீனா: சரி, காலை 10 மணிக்கு", D(2024, 3, 12, 21, 6)),
        ("ராஜா: காலை வணக்கம்", D(2024, 3, 13, 7, 30)),
        ("மீனா: நான் கிளம்பிவிட்டேன்", D(2024, 3, 13, 11, 58)),
        ("ராஜா: நானும்", D(2024, 3, 13, 12, 10)),
    ], set()),
    "android_mr_deva_digits.txt": ("dashed", "dmy", "gregorian", (0, 1), [  # "१२/०३/२४, ९:०५ म.उ."
        ("राहुल: नमस्कार, उद्या भेटूया का?", D(2024, 3, 12, 21, 5)),
        ("प्रिया: हो, सकाळी १० वाजता", D(2024, 3, 12, 21, 7)),
        ("राहुल: सुप्रभात", D(2024, 3, 13, 8, 15)),
        ("प्रिया: मी निघाले", D(2024, 3, 13, 11, 40)),
        ("राहुल: हे बघ", D(2024, 3, 13, 12, 6)),
    ], set()),
    "android_bn_old_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # "১২/৩/২৪, ৯:০৫ অপরাহ্ণ"
        ("রহিম: কাল দেখা হবে?", D(2024, 3, 12, 21, 5)),
        ("করিম: হ্যাঁ, সকাল ১০টায়", D(2024, 3, 12, 21, 6)),
        ("রহিম: আমি রওনা দিয়েছি", D(2024, 3, 13, 11, 55)),
        ("করিম: পৌঁছে গেছি", D(2024, 3, 13, 12, 20)),
    ], set()),
    "android_he_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # "אחה״צ": U+05F4 inside the word
        ("דני: ערב טוב! מחר ב-10?", D(2024, 3, 12, 21, 5)),
        ("נועה: כן, נתראה", D(2024, 3, 12, 21, 6)),
        ("דני: בוקר טוב", D(2024, 3, 13, 8, 0)),
    ], set()),
    "ios_hu_media.txt": ("bracketed", "ymd", "gregorian", (1, 4), [  # "kép kihagyva", "<csatolmány: …>"
        ("Kata: Szia! Holnap 10-kor?", D(2024, 3, 12, 21, 5, 30)),
        ("Bence: Igen, ott leszek", D(2024, 3, 12, 21, 6, 40)),
        ("Bence: Szuper", D(2024, 3, 12, 21, 8)),
    ], {"Bence: Szuper"}),
    "ios_en_poll_location.txt": ("bracketed", "dmy", "gregorian", (3, 2), [  # one day of "12/03/2024"
        ("Ana: POLL:\nWhere shall we eat on Friday?\nOPTION: Pizza Place (2 votes)\nOPTION: Sushi Bar (1 vote)",
         D(2024, 3, 12, 18, 1, 5)),
        ("Ben: Location: https://maps.google.com/?q=41.145,-8.611", D(2024, 3, 12, 18, 3, 10)),
        ("Carla: Sushi please", D(2024, 3, 12, 18, 5)),
        ("Ana: See you Friday at 8!", D(2024, 3, 12, 18, 10)),
    ], {"Carla: Sushi please"}),
    "android_de_dst.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # wall clock as written, file order kept
        ("Jonas: Gute Nacht", D(2024, 3, 31, 1, 59)),
        ("Lea: Schon Sommerzeit, die Uhr ist gesprungen", D(2024, 3, 31, 3, 1)),
        ("Lea: ok", D(2024, 10, 27, 2, 30)),
        ("Jonas: Bist du noch wach?", D(2024, 10, 27, 2, 45)),
        ("Lea: Ja, gleich wird die Uhr zurückgestellt", D(2024, 10, 27, 2, 58)),
        ("Jonas: Jetzt ist es wieder kurz nach zwei", D(2024, 10, 27, 2, 5)),
        ("Lea: ok", D(2024, 10, 27, 2, 30)),  # the same words in the same minute, an hour later
    ], set()),
    "android_late_day13.txt": ("dashed", "dmy", "gregorian", (0, 0), _LATE, set()),
    "android_us_jumps.txt": ("dashed", "mdy", "gregorian", (0, 0), [  # day-first would go back in time
        ("Mike: Dinner Friday?", D(2024, 3, 4, 10, 15)),
        ("Sara: Sure, 7pm", D(2024, 3, 9, 18, 40)),
        ("Mike: Back from the trip", D(2024, 4, 2, 9, 0)),
        ("Sara: Welcome back!", D(2024, 4, 11, 20, 20)),
    ], set()),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layout(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen4_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_inferred_markers_are_reported() -> None:
    _recs, rep = _wa(WA / "android_mr_deva_digits.txt")
    assert rep.variant["clock"] == "12h"
    assert rep.variant["markers"] == {"म.पू.": "am", "म.उ.": "pm"}


def test_one_unknown_marker_with_nothing_to_tell_it_by_stays_loud(tmp_path: Path) -> None:
    chat = tmp_path / "chat.txt"  # one marker, never beside another: am or pm cannot be told
    chat.write_text("12/03/24, 9:05 ঘ - Ana: hi\n12/03/24, 9:06 ঘ - Ben: hello\n", encoding="utf-8")
    recs, rep = _wa(chat)
    assert [(r.content, r.event_at) for r in recs] == [("Ana: hi", D(2024, 3, 12, 9, 5)),
                                                       ("Ben: hello", D(2024, 3, 12, 9, 6))]
    assert rep.warnings == [f"{chat}:1: unknown 12-hour marker 'ঘ': hours read as written"]


def test_the_dst_night_keeps_both_identical_messages() -> None:
    recs, _rep = _wa(WA / "android_de_dst.txt")
    oks = [r for r in recs if r.content == "Lea: ok" and r.event_at == D(2024, 10, 27, 2, 30)]
    assert len(oks) == 2 and oks[0].ref != oks[1].ref and [r.position for r in oks] == [2, 6]


# --- chat zips with contact cards, zipped again ------------------------------------------------

NESTED = FIX / "whatsapp_nested"


def _nested_zip(tmp_path: Path) -> Path:
    climbing = _zip(tmp_path / "a.zip", {"WhatsApp Chat with Climbing.txt": (NESTED / "WhatsApp Chat with Climbing.txt")
                                         .read_bytes(), "Ben Smith.vcf": (NESTED / "Ben Smith.vcf").read_bytes(),
                                         "IMG-20240312-WA0001.jpg": b"\xff\xd8\xff"})
    carla = _zip(tmp_path / "b.zip", {"_chat.txt": (NESTED / "_chat.txt").read_bytes(),
                                      "00000003-Dan Lee.vcf": (NESTED / "Dan Lee.vcf").read_bytes()})
    return _zip(tmp_path / "WhatsApp exports.zip", {"WhatsApp Chat with Climbing.zip": climbing.read_bytes(),
                                                   "WhatsApp Chat - Carla Ruiz.zip": carla.read_bytes()})


BEN = "Contact: Ben Smith — phone +44 7700 900456 (cell)"
DAN = "Contact: Dan Lee — phone +1 (555) 010-0199 (cell,mobile)"


def test_the_cards_of_nested_chat_zips_are_contacts(tmp_path: Path) -> None:
    path = _nested_zip(tmp_path)
    assert detect(path) == "whatsapp"
    rep = ImportReport(str(path), "vcf")
    assert sorted(r.content for r in vcf.parse(path, rep)) == [BEN, DAN]
    recs, wrep = _wa(path)
    assert sorted((r.thread, r.content) for r in recs) == [
        ("Carla Ruiz", "+1 (555) 010-0199: Yes! Dan here, I'm in"), ("Carla Ruiz", "Carla Ruiz: Are we still on for Sunday?"),
        ("Climbing", "+44 7700 900456: Hi all, Ben here"), ("Climbing", "Ana: Here is Ben's number")]
    assert wrep.skipped_media == 2


def test_cli_imports_cards_of_nested_chat_zips_first(tmp_path: Path) -> None:
    path = _nested_zip(tmp_path)
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == "mixed"
    assert [(f["format"], f["memories_added"]) for f in dry["data"]["files"]] == [("vcf", 2), ("whatsapp", 4)]
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert real["data"]["memories_added"] == 6
    with sqlite3.connect(db) as conn:
        rows = sorted(conn.execute("SELECT source, content FROM memories WHERE source IN ('vcf', 'whatsapp') "
                                   "AND ref NOT LIKE '%episode%'").fetchall())
    assert rows == sorted([("vcf", BEN), ("vcf", DAN), ("whatsapp", "Ana: Here is Ben's number"),
                           ("whatsapp", "Ben Smith: Hi all, Ben here"),
                           ("whatsapp", "Carla Ruiz: Are we still on for Sunday?"),
                           ("whatsapp", "Dan Lee: Yes! Dan here, I'm in")])
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


# --- vCard ------------------------------------------------------------------------------------

VCF = FIX / "vcf"


def test_vcard_40_altid_pid_quoted_types_and_a_data_photo() -> None:
    path = VCF / "v40_altid_pid.vcf"
    assert detect(path) == "vcf"
    rep = ImportReport(str(path), "vcf")
    [rec] = vcf.parse(path, rep)
    assert rec.content == "Contact: 山田 太郎 — phone +81-90-1234-5678 (cell); email taro@example.jp (private)"
    assert rec.ref == "vcf:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1"
    assert {"山田 太郎", "Taro Yamada", "+81-90-1234-5678", "+819012345678"} <= set(rec.aliases)
    assert set(rec.aliases.values()) == {"山田 太郎"} and rep.warnings == []


def test_every_altid_name_is_an_alias(tmp_path: Path) -> None:
    path = tmp_path / "a.vcf"  # no N to build "Taro Yamada" from: the second FN says it
    path.write_text("BEGIN:VCARD\r\nVERSION:4.0\r\nFN;ALTID=1;LANGUAGE=ja:山田 太郎\r\nFN;ALTID=1;LANGUAGE=en:Taro Yamada\r\n"
                    "TEL:+81 90 1234 5678\r\nEND:VCARD\r\n", encoding="utf-8")
    [rec] = vcf.parse(path, ImportReport(str(path), "vcf"))
    assert rec.content == "Contact: 山田 太郎 — phone +81 90 1234 5678"
    assert rec.aliases == {"+81 90 1234 5678": "山田 太郎", "+819012345678": "山田 太郎", "山田 太郎": "山田 太郎",
                           "Taro Yamada": "山田 太郎"}


def test_vcard_folded_inside_a_utf8_character() -> None:
    path = VCF / "fold_mid_character.vcf"  # RFC 6350 folds at 75 octets: a character can be split
    rep = ImportReport(str(path), "vcf")
    [rec] = vcf.parse(path, rep)
    assert rec.content == ("Contact: Zoë Ångström-Ødegård — phone +47 912 34 567 (cell); note Met at the climbing "
                           "gym in Trondheim, likes bouldering and smørbrød")
    assert rep.warnings == [] and rec.aliases["Zoë Ångström-Ødegård"] == "Zoë Ångström-Ødegård"


# --- notes ------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _rows(recs: list[Record]) -> list[tuple[Any, ...]]:
    return [(r.thread, r.content, r.event_at, r.tags, r.memory_type) for r in recs]


APPLE_HTML = [
    ("Notes/Boiler.html", "Boiler: Plumber quoted 2,400 EUR for a condensing boiler.\n\n- Call back before Friday\n"
     "- Ask about the warranty", None, [], "semantic"),
    ("Notes/Gate code.html", "Gate code: 4711, then press the bell & wait", None, [], "semantic"),
]


def test_apple_notes_exported_as_html() -> None:
    recs, rep = _notes(NOTES / "apple_html")
    assert _rows(recs) == APPLE_HTML
    assert [r.ref for r in recs] == ["markdown:Notes/Boiler.html::0", "markdown:Notes/Gate code.html::0"]
    assert "base64" not in recs[0].content and rep.warnings == []


def test_one_apple_html_note_and_a_zip_of_them(tmp_path: Path) -> None:
    [rec], _ = _notes(NOTES / "apple_html" / "Notes" / "Gate code.html")
    assert rec.content == "Gate code: 4711, then press the bell & wait"
    src = NOTES / "apple_html"
    path = _zip(tmp_path / "Notes.zip", {p.relative_to(src).as_posix(): p.read_bytes() for p in src.rglob("*.html")})
    recs, _ = _notes(path)
    assert _rows(recs) == APPLE_HTML


def test_apple_notes_markdown_whose_first_line_is_the_title() -> None:
    recs, _ = _notes(NOTES / "apple_md")
    assert _rows(recs) == [
        ("Boiler.md", "Boiler: Plumber quoted 2,400 EUR for a condensing boiler.\n\n- Call back before Friday", None,
         [], "semantic"),
        ("Wifi.md", "Wifi: The password is on the router's sticker.", None, [], "semantic"),
    ]


SN_FILE = "Standard Notes Backup and Import File.txt"
STANDARD = [
    (SN_FILE, "Boiler: Plumber quoted 2,400 EUR.\nCall back before Friday.", D(2024, 3, 12, 9, 15, tzinfo=UTC),
     ["house"], "semantic"),
    (SN_FILE, "Wifi password is on the router sticker", D(2024, 3, 14, 8, 30, tzinfo=UTC), [], "semantic"),
]


@pytest.mark.parametrize("where", ["file", "folder", "zip"])
def test_standard_notes_backup(where: str, tmp_path: Path) -> None:
    src = NOTES / "standard_notes" / SN_FILE
    path = {"file": src, "folder": src.parent,
            "zip": _zip(tmp_path / "Standard Notes Backup - Tue Mar 12 2024.zip", {SN_FILE: src.read_bytes()})}[where]
    recs, rep = _notes(path)
    assert _rows(recs) == STANDARD  # the trashed note, the tag and the preferences are no notes
    assert [r.ref for r in recs] == ["markdown:standardnotes:2f1c7a10-0000-4000-8000-000000000001",
                                     "markdown:standardnotes:2f1c7a10-0000-4000-8000-000000000002"]
    assert (rep.messages_seen, rep.skipped_system, rep.warnings) == (3, 1, [])


SIMPLENOTE = [
    ("source/notes.json", "Boiler: Plumber quoted 2,400 EUR.\nCall back before Friday.", D(2024, 3, 12, 9, 15, tzinfo=UTC),
     ["house", "money"], "semantic"),
    ("source/notes.json", "Wifi password is on the router sticker", D(2024, 3, 14, 8, 30, tzinfo=UTC), [], "semantic"),
]


@pytest.mark.parametrize("where", ["folder", "zip"])
def test_simplenote_export(where: str, tmp_path: Path) -> None:
    src = NOTES / "simplenote"  # notes/*.txt say again what source/notes.json holds: read once
    members = {f"notes/Note {i}.txt": f"Note {i}".encode() for i in range(12)}  # more notes than are sniffed, first
    members.update({p.relative_to(src).as_posix(): p.read_bytes() for p in sorted(src.rglob("*")) if p.is_file()})
    path = src if where == "folder" else _zip(tmp_path / "notes.zip", members)
    recs, rep = _notes(path)
    assert _rows(recs) == SIMPLENOTE
    assert [r.ref for r in recs] == ["markdown:simplenote:a1b2c3d4e5f60718293a4b5c6d7e8f90",
                                     "markdown:simplenote:b1b2c3d4e5f60718293a4b5c6d7e8f91"]
    assert recs[0].metadata["pinned"] is True
    # the blank note, the trashed one
    assert (rep.messages_seen, rep.skipped_empty, rep.skipped_system, rep.warnings) == (4, 1, 1, [])


# --- ChatGPT ----------------------------------------------------------------------------------

def _t(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


T = 1710234000
CAT = "67f0c1de-0000-4000-8000-00000000cafe"


def test_chatgpt_edited_question_regenerated_answer_and_memory_tool() -> None:
    path = FIX / "chatgpt" / "conversations.json"
    assert detect(path) == "chatgpt"
    rep = ImportReport(str(path), "chatgpt")
    recs = list(chatgpt.parse(path, rep))
    assert [(r.content, r.event_at, r.thread, r.position) for r in recs] == [
        ("User: What's a good name for a grey cat?", _t(T + 10.25), CAT, 0),
        ("Assistant: Smokey, Ash or Pebble.", _t(T + 60.75), CAT, 1),  # the regenerated answer
        ("User: We chose Smokey. Remember that.", _t(T + 180), CAT, 2),  # the edited question
        # round 7: the call to the memory tool is what ChatGPT saved about the user: a memory
        ("ChatGPT memory: The user's cat is a grey cat named Smokey.", _t(T + 181), CAT, 3),
        ("Assistant: Noted: Smokey it is.", _t(T + 182), CAT, 4),
        # round 6: the custom instructions, the user's own words, once, after the conversations
        ("Custom instructions, about me: I live in Porto.", _t(T + 0.5), None, None),
        ("Custom instructions, how to answer: Be brief.", _t(T + 0.5), None, None),
    ]
    assert [r.ref for r in recs[:3] + recs[4:5]] == [f"chatgpt:{CAT}:{k}" for k in ("q1", "a1b", "q2b", "a3")]
    assert recs[3].memory_type == "semantic" and recs[3].metadata["memory"] == "bio"
    # the hidden system node; the memory tool's receipt
    assert (rep.skipped_system, rep.skipped_tool, rep.warnings) == (1, 1, [])
    alt = [(r.content, r.metadata["branch"]) for r in chatgpt.parse(path, ImportReport(str(path), "chatgpt"),
                                                                     all_branches=True) if r.metadata.get("branch")]
    assert alt == [("Assistant: Ash.", "alt"), ("User: Something Portuguese?", "alt"), ("Assistant: Cinza.", "alt")]


# --- Claude -----------------------------------------------------------------------------------

def test_claude_project_pasted_attachment_and_thinking() -> None:
    path = FIX / "claude"
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    recs = list(claude.parse(path, rep))
    assert [(r.content, r.event_at, r.memory_type) for r in recs] == [
        ("User: Is this quote fair?\n\n[attachment: pasted text]\nHeatwise Ltd quote: condensing boiler 2,400 EUR "
         "incl. installation.\nValid until 31 March.", D(2024, 3, 12, 9, 15, 1, tzinfo=UTC), "episodic"),
        ("Assistant: Yes: 2,400 EUR with installation is within the usual range.",
         D(2024, 3, 12, 9, 15, 5, tzinfo=UTC), "episodic"),
        ("Claude project House: Repairs and bills for the flat in Porto.", D(2024, 3, 1, 8, 0, tzinfo=UTC), "semantic"),
        ("Claude project House instructions: Quote prices in EUR.", D(2024, 3, 1, 8, 0, tzinfo=UTC), "procedural"),
        # round 10: a project's document is a memory of its own
        ("Claude project House, document house-rules.md: No drilling after 20:00.", D(2024, 3, 1, 8, 0, tzinfo=UTC),
         "semantic"),
    ]
    assert recs[0].metadata["files"] == ["boiler-photo.jpg"] and recs[2].metadata["docs"] == ["house-rules.md"]
    assert "Typical prices" not in " ".join(r.content for r in recs) and rep.warnings == []


# --- files that are no export -------------------------------------------------------------------

EXPECTED = "expected a WhatsApp chat (.txt, .zip), a ChatGPT or Claude export"


NOT_EXPORTS: dict[str, tuple[Any, str]] = {  # file name: (bytes or a function of a scratch path, what it is)
    "scan.pdf": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "a PDF document"),
    "photo.jpg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01", "a JPEG image"),
    # (a Word document is read as a note since round 23: tests/test_importers_unseen23.py)
    "budget.csv": (b"date,amount\n2024-03-12,12.50\n2024-03-13,8.00\n", "a CSV table"),
    "settings.json": (b'{"theme": "dark", "fontSize": 14}\n', "JSON without conversations or notes"),
}


@pytest.mark.parametrize("name", sorted(NOT_EXPORTS))
def test_a_file_that_is_no_export_says_what_it_is_and_what_was_expected(name: str, tmp_path: Path) -> None:
    content, what = NOT_EXPORTS[name]
    path = tmp_path / name
    data = content(tmp_path / "scratch.zip") if callable(content) else content
    path.write_bytes(data)
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(path))
    out = _envelope(proc)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    message = out["error"]["message"]
    # "PATH: <what failed> (tried whatsapp, …): <what the file is>; expected …"
    assert message.startswith(f"{path}: ") and f"diaro): {what}; {EXPECTED}" in message, message
    assert "\n" not in message and "Traceback" not in proc.stderr
    assert not db.exists() or _count(db) == 0


def test_an_export_forced_as_the_wrong_format_names_what_it_is(tmp_path: Path) -> None:
    path = FIX / "chatgpt" / "conversations.json"
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", "whatsapp", str(path))
    out = _envelope(proc)
    message = out["error"]["message"]
    assert proc.returncode == 1 and message.startswith(f"{path}:1: no WhatsApp message header found")
    assert message.endswith("; this looks like a chatgpt export: mem.py import chatgpt PATH (or without a format)")
    assert not db.exists() or _count(db) == 0


# --- end to end: mem.py import ----------------------------------------------------------------

CLI_CASES = {  # name: (path, format, memories)
    "whatsapp": (WA / "android_mr_deva_digits.txt", "whatsapp", 5),
    "chatgpt": (FIX / "chatgpt" / "conversations.json", "chatgpt", 7),  # 4 messages, a memory, the custom instructions
    "claude": (FIX / "claude", "claude", 5),
    "apple_html": (NOTES / "apple_html", "markdown", 2),
    "standard_notes": (NOTES / "standard_notes" / SN_FILE, "markdown", 2),
    "simplenote": (NOTES / "simplenote", "markdown", 2),
    "vcf": (VCF / "fold_mid_character.vcf", "vcf", 1),
}


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_cli_dry_run_then_import_then_again(name: str, tmp_path: Path) -> None:
    path, fmt, expected = CLI_CASES[name]
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == fmt and dry["data"]["memories_added"] == expected, dry
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert real["data"]["memories_added"] == expected
    again = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert again["data"]["memories_added"] == 0
