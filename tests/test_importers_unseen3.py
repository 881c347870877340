"""Round 3 of export layouts nobody here had seen (tests/fixtures/unseen3, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* WhatsApp: 12-hour markers in scripts with combining marks (Punjabi, Thai with a Buddhist year,
  Hindi of older Android) and in Greek, Malay, Persian, Albanian, Amharic; Polish and Czech
  Android (no comma), Telugu dashes, Sinhala and Danish dot times; chats re-saved as Windows-1252
  or UTF-16 big-endian; Business chats; community notices and messages an admin deleted; a
  Turkish file name that puts the person first; a "with media" zip holding a contact card;
* ChatGPT, Claude, Markdown (Google Keep, Roam, Dendron), vCard (Shift_JIS feature phones,
  4.0 ``tel:`` URIs, UTF-16, company cards) further below.

Every case pins its exact records (author, text, time), the format detected and what was
skipped; broken inputs fail in one line naming the file, exit code 1, nothing written."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, conversations, vcards
from importer_cli import memory_count as _count
from importer_cli import one_envelope as _envelope
from importer_cli import wa as _wa
from importer_cli import write_zip as _zip

from importers import ImportFormatError, ImportReport, Record, claude, markdown, vcf, whatsapp
from importers.detect import detect
from importers.registry import PARSERS

FIX = Path(__file__).parent / "fixtures" / "unseen3"
WA = FIX / "whatsapp"
D = datetime

# file: (layout, date order, calendar, (system lines, media lines) skipped, [(content, event time)], edited texts)
WA_CASES: dict[str, tuple[str, str, str, tuple[int, int], list[tuple[str, datetime]], set[str]]] = {
    "android_pl.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Ania: Cześć! Jutro o 10?", D(2024, 3, 12, 21, 5)),
        ("Piotr: Tak, pasuje", D(2024, 3, 12, 21, 6)),
    ], {"Piotr: Tak, pasuje"}),
    "android_cs.txt": ("dashed", "dmy", "gregorian", (2, 1), [  # "12.03.24 21:05 - ": no comma
        ("Jan: Ahoj, jdeš zítra?", D(2024, 3, 12, 21, 5)),
        ("Eva: Jo, v 8", D(2024, 3, 12, 21, 6)),
    ], set()),
    "android_pa_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # "ਬਾ.ਦੁ.": vowel signs are combining marks
        ("ਗੁਰਪ੍ਰੀਤ: ਸਤ ਸ੍ਰੀ ਅਕਾਲ", D(2024, 3, 12, 21, 5)),
        ("ਹਰਮਨ: ਕੱਲ੍ਹ ਮਿਲਦੇ ਹਾਂ", D(2024, 3, 12, 21, 6)),
        ("ਗੁਰਪ੍ਰੀਤ: ਸ਼ੁਭ ਸਵੇਰ", D(2024, 3, 13, 7, 30)),
    ], set()),
    "ios_th_12h.txt": ("bracketed", "dmy", "buddhist", (0, 0), [  # "หลังเที่ยง", year 2567 BE
        ("สมชาย: สวัสดีครับ", D(2024, 3, 12, 21, 5, 30)),
        ("มาลี: พรุ่งนี้เจอกันนะคะ", D(2024, 3, 12, 21, 6, 2)),
        ("มาลี: อรุณสวัสดิ์ค่ะ", D(2024, 3, 13, 7, 30)),
    ], set()),
    "android_hi_old_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # "अपराह्न" (before CLDR said "pm")
        ("राम: कल मिलते हैं", D(2024, 3, 12, 21, 5)),
        ("सीता: ठीक है", D(2024, 3, 12, 21, 7)),
        ("राम: सुप्रभात", D(2024, 3, 13, 8, 15)),
    ], set()),
    "android_el_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Νίκος: Γεια σου! Αύριο στις 10;", D(2024, 3, 12, 21, 5)),
        ("Μαρία: Ναι, τα λέμε", D(2024, 3, 12, 21, 6)),
        ("Νίκος: Καλημέρα", D(2024, 3, 13, 8, 0)),
    ], {"Μαρία: Ναι, τα λέμε"}),
    "android_ms_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ahmad: Jom makan malam esok?", D(2024, 3, 12, 21, 5)),
        ("Siti: Boleh, pukul 8", D(2024, 3, 12, 21, 6)),
        ("Ahmad: Selamat pagi", D(2024, 3, 13, 7, 45)),
    ], set()),
    "android_fa_12h.txt": ("dashed", "ymd", "persian", (0, 0), [  # "ب.ظ." after the time, RLM after "،"
        ("علی: سلام، فردا می\u200cبینمت؟", D(2024, 4, 11, 21, 5)),
        ("مریم: آره", D(2024, 4, 11, 21, 6)),
        ("علی: صبح بخیر", D(2024, 4, 12, 8, 10)),
    ], set()),
    "android_sq_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Arben: Përshëndetje! Nesër në orën 10?", D(2024, 3, 12, 21, 5)),
        ("Elira: Po, shihemi", D(2024, 3, 12, 21, 6)),
        ("Arben: Mirëmëngjes", D(2024, 3, 13, 8, 0)),
    ], set()),
    "android_am_12h.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # Ethiopic "ከሰዓት", no comma
        ("አበበ: ሰላም ነው?", D(2024, 3, 12, 21, 5)),
        ("ሔለን: ደህና ነኝ", D(2024, 3, 12, 21, 6)),
        ("አበበ: እንደምን አደርሽ", D(2024, 3, 13, 8, 0)),
    ], set()),
    "android_te_dashes.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # "12-03-24 9:05 PM - "
        ("రాజు: నమస్తే", D(2024, 3, 12, 21, 5)),
        ("లక్ష్మి: రేపు కలుద్దాం", D(2024, 3, 12, 21, 6)),
        ("రాజు: శుభోదయం", D(2024, 3, 13, 8, 0)),
    ], set()),
    "android_si_dots.txt": ("dashed", "ymd", "gregorian", (0, 0), [  # "2024-03-12 21.05 - "
        ("නිමල්: ආයුබෝවන්", D(2024, 3, 12, 21, 5)),
        ("කමලා: හෙට හමුවෙමු", D(2024, 3, 12, 21, 6)),
    ], set()),
    "ios_da_dots.txt": ("bracketed", "dmy", "gregorian", (1, 1), [  # "[12.03.2024 21.05.30]"
        ("Mette: Hej! Ses vi i morgen?", D(2024, 3, 12, 21, 5, 30)),
        ("Lars: Ja, kl. 10", D(2024, 3, 12, 21, 6, 10)),
    ], set()),
    "android_business.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("Acme Store: Hi Ana, your order #1234 has shipped and arrives Thursday.", D(2024, 3, 12, 9, 15)),
        ("Ana: Great, can you leave it with the neighbour at no. 5?", D(2024, 3, 12, 9, 16)),
        ("Acme Store: Done, noted for the courier.", D(2024, 3, 12, 9, 18)),
    ], set()),
    "android_community.txt": ("dashed", "dmy", "gregorian", (6, 0), [
        ("Ana: Bin collection moves to Tuesdays from next week", D(2024, 3, 12, 9, 2)),
        ("Carla: Thanks for the heads-up", D(2024, 3, 12, 9, 5)),
    ], set()),
    "ios_community.txt": ("bracketed", "dmy", "gregorian", (5, 1), [
        ("Ana: Bin collection moves to Tuesdays from next week", D(2024, 3, 12, 9, 2, 11)),
        ("Carla: Thanks for the heads-up", D(2024, 3, 12, 9, 5, 33)),
    ], {"Carla: Thanks for the heads-up"}),
    "android_cp1252.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Jürgen: Grüße aus Köln!", D(2024, 3, 12, 21, 5)),
        ("Bärbel: Schöne Grüße zurück – bis Sonntag", D(2024, 3, 12, 21, 6)),
    ], set()),
    "android_utf16be.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana: saved as Unicode big endian", D(2024, 3, 12, 9, 15)),
        ("Ben: still readable", D(2024, 3, 12, 9, 16)),
    ], set()),
    "Ayşe ile WhatsApp Sohbeti.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ayşe: Yarın görüşelim mi?", D(2024, 3, 12, 21, 5)),
        ("Mehmet: Olur, saat 10'da", D(2024, 3, 12, 21, 6)),
    ], set()),
}
# files read loudly: (warning's start after the path, warning's end)
WA_WARNINGS = {"android_cp1252.txt": (":1: not UTF-8 or UTF-16 text", "read as Windows-1252")}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layout(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name], WA_WARNINGS.get(name))


def test_every_unseen3_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_whatsapp_file_names_that_put_the_person_first() -> None:
    assert whatsapp.thread_name("Ayşe ile WhatsApp Sohbeti.txt") == "Ayşe"  # Turkish
    assert whatsapp.thread_name("WhatsApp Sohbeti - Ayşe.txt") == "Ayşe"
    assert whatsapp.thread_name("WhatsApp Chat with Ana.txt") == "Ana"
    assert whatsapp.thread_name("Ana Lopez.txt") == "Ana Lopez"  # a renamed file: its name
    recs, rep = _wa(WA / "Ayşe ile WhatsApp Sohbeti.txt")
    assert rep.variant["chat"] == "Ayşe" and {r.thread for r in recs} == {"Ayşe"}


# --- a WhatsApp "with media" zip holding a contact card ---------------------------------------

CLIMBING = [("Ana: Here is Ben's number, he joins on Saturday", D(2024, 3, 12, 9, 15)),
            ("+44 7700 900456: Hi all, Ben here", D(2024, 3, 12, 9, 21)),
            ("Ana: Welcome!", D(2024, 3, 12, 9, 22))]


def _chat_zip(tmp_path: Path, card: bytes | None = None) -> Path:
    src = FIX / "whatsapp_zip"
    members = {p.name: p.read_bytes() for p in sorted(src.iterdir())}
    if card is not None:
        members["Ben Smith.vcf"] = card
    members["IMG-20240312-WA0001.jpg"] = b"\xff\xd8\xff"
    return _zip(tmp_path / "WhatsApp Chat with Climbing.zip", members)


def _stored(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT source, content FROM memories WHERE source IN ('vcf', 'whatsapp') "
                            "AND ref NOT LIKE '%episode%' ORDER BY source, position, id").fetchall()


def test_the_chat_parser_alone_counts_the_card_as_media(tmp_path: Path) -> None:
    path = _chat_zip(tmp_path)
    assert detect(path) == "whatsapp"
    recs, rep = _wa(path)
    assert [(r.content, r.event_at) for r in recs] == CLIMBING
    assert rep.skipped_media == 1 and rep.variant["chat"] == "Climbing"


@pytest.mark.parametrize("forced", [(), ("whatsapp",)])
def test_cli_imports_the_contact_card_of_a_chat_zip_first(forced: tuple[str, ...], tmp_path: Path) -> None:
    path = _chat_zip(tmp_path)
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", *forced, str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == "mixed"
    assert [(f["format"], f["memories_added"]) for f in dry["data"]["files"]] == [("vcf", 1), ("whatsapp", 3)]
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", *forced, str(path)))
    assert real["data"]["memories_added"] == 4
    # the card came first: the sender known by a number is named by it
    assert _stored(db) == [("vcf", "Contact: Ben Smith — phone +44 7700 900456 (cell)"),
                           ("whatsapp", "Ana: Here is Ben's number, he joins on Saturday"),
                           ("whatsapp", "Ben Smith: Hi all, Ben here"), ("whatsapp", "Ana: Welcome!")]
    again = _envelope(run_cli("--db", str(db), "import", *forced, str(path)))
    assert again["data"]["memories_added"] == 0
    alone = _envelope(run_cli("--db", str(db), "import", str(FIX / "whatsapp_zip" / "Ben Smith.vcf")))
    assert alone["data"]["memories_added"] == 0  # the same card, by the same ref


def test_cli_chat_zip_with_an_unreadable_card_imports_the_chat_loudly(tmp_path: Path) -> None:
    path = _chat_zip(tmp_path, card=b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\xff\xfe\x00\r\nEND:VCARD\r\n")
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == 3
    warnings = [w for f in out["data"]["files"] for w in f["warnings"]]
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: contact cards skipped: {path}!Ben Smith.vcf")


def test_cli_thread_option_names_the_chat_of_a_zip_with_a_card(tmp_path: Path) -> None:
    path = _chat_zip(tmp_path)
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path), "--thread", "Crag crew"))
    assert out["data"]["memories_added"] == 4
    with sqlite3.connect(db) as conn:
        threads = {t for (t,) in conn.execute("SELECT DISTINCT thread FROM memories WHERE source = 'whatsapp'")}
    assert threads == {"Crag crew"}


# --- Claude -----------------------------------------------------------------------------------

CL = FIX / "claude"
PACKING = "# Packing list\n\n- rope (60 m)\n- quickdraws x12\n- chalk"
PACKING2 = "# Packing list\n\n- rope (70 m)\n- quickdraws x12\n- chalk\n- headlamp"


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text + "+00:00")


CLAUDE_EXPECTED = [
    ("User: Make me a packing list for a sport climbing weekend", _utc("2024-09-02T18:00:00")),
    (f"Assistant: Here is a list.\n\n[artifact: Packing list]\n{PACKING}\n\nTell me if the crag is long.",
     _utc("2024-09-02T18:00:05")),  # the document the user sees, where it stands in the answer
    ("User: The routes are 35 m, and add a headlamp", _utc("2024-09-02T18:02:00")),
    (f"Assistant: [artifact: Packing list]\n{PACKING2}\n\nUpdated: a 70 m rope for 35 m routes.",
     _utc("2024-09-02T18:02:05")),  # the list as updated, then as rewritten: shown once, the rewrite
    ("User: Is the weather good in Siurana this weekend?", _utc("2024-09-02T18:05:00")),
    ("Assistant: Sunny and about 24 °C on Saturday.", _utc("2024-09-02T18:05:09")),
]


def test_claude_artifacts_web_search_and_empty_replies() -> None:
    path = CL / "conversations.json"
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    recs = list(claude.parse(path, rep))
    assert [(r.content, r.event_at) for r in recs] == CLAUDE_EXPECTED
    assert [r.metadata.get("artifacts") for r in recs] == [None, ["Packing list"], None, ["Packing list"], None, None]
    # results and search; m7, the empty chat (round 9: the partial update is applied to the list, then rewritten)
    assert (rep.skipped_tool, rep.skipped_empty) == (5, 2)
    assert rep.variant["empty_conversations"] == 1 and rep.warnings == []
    assert not any("not supported" in r.content for r in recs)


def test_claude_starter_project_is_not_the_users(tmp_path: Path) -> None:
    export = _zip(tmp_path / "data-2024-09-03-08-00-00-batch-0000.zip",
                  {f"data-2024-09-03-08-00-00-batch-0000/{p.name}": p.read_bytes() for p in sorted(CL.iterdir())})
    assert detect(export) == "claude"
    rep = ImportReport(str(export), "claude")
    recs = list(claude.parse(export, rep))
    assert [(r.content, r.event_at) for r in recs] == CLAUDE_EXPECTED + [
        ("Claude project Climbing: Trips and gear for the climbing club.", _utc("2024-08-01T09:00:00")),
        ("Claude project Climbing instructions: Answer in metric units.", _utc("2024-08-01T09:00:00")),
        # round 10: a project's document is a memory of its own
        ("Claude project Climbing, document gear.md: rope, draws", _utc("2024-08-01T09:00:00"))]
    assert recs[-2].metadata == {"project": "Climbing", "docs": ["gear.md"]}
    assert recs[-1].metadata == {"project": "Climbing", "docs": ["gear.md"], "doc": "gear.md"}
    assert rep.variant["projects"] == 1 and rep.skipped_system == 1  # Anthropic's example project


# --- Markdown and other notes -----------------------------------------------------------------

MD = FIX / "markdown"
UTC = timezone.utc
KEEP = [  # (thread, content, time, tags, flags)
    # an untitled note: Keep names the file by its time; its web link is read since round 10
    ("Takeout/Keep/2024-03-14T08_30_00.000+01_00.json", "Wifi password is on the router sticker\n"
     "Link: Router https://router.example", D(2024, 3, 14, 7, 30, tzinfo=UTC), [], {}),
    ("Takeout/Keep/Boiler.json", "Boiler: Plumber quoted 2,400 EUR for a condensing boiler.\nCall back before Friday.",
     D(2024, 3, 12, 9, 15, tzinfo=UTC), ["House", "Money"], {"pinned": True}),
    ("Takeout/Keep/Gate code.json", "Gate code: 4711", D(2023, 11, 14, 22, 13, 20, tzinfo=UTC), [], {"archived": True}),
    ("Takeout/Keep/Shopping.json", "Shopping: - [ ] Milk\n- [x] Eggs", D(2024, 3, 13, 8, 0, tzinfo=UTC), [], {}),
]


def _keep_rows(recs: list[Record]) -> list[tuple[Any, ...]]:
    return [(r.thread, r.content, r.event_at, r.tags,
             {k: v for k, v in r.metadata.items() if k in ("pinned", "archived")}) for r in recs]


def test_google_keep_takeout_folder() -> None:
    path = MD / "keep"
    assert detect(path) == "markdown"
    rep = ImportReport(str(path), "markdown")
    recs = list(markdown.parse(path, rep))
    assert _keep_rows(recs) == KEEP  # the trashed note is not a memory; the .html copies are not read
    assert [r.memory_type for r in recs] == ["semantic"] * 4 and recs[0].metadata["attachments"] == ["1a2b3c.jpg"]
    assert (rep.messages_seen, rep.skipped_system, rep.warnings) == (5, 1, [])


def test_google_keep_takeout_zip(tmp_path: Path) -> None:
    src = MD / "keep"
    path = _zip(tmp_path / "takeout-20240315T101500Z-001.zip",
                {p.relative_to(src).as_posix(): p.read_bytes() for p in sorted(src.rglob("*")) if p.is_file()})
    assert detect(path) == "markdown"  # Labels.txt is no WhatsApp chat
    recs = list(markdown.parse(path, ImportReport(str(path), "markdown")))
    assert _keep_rows(recs) == KEEP


def test_roam_daily_pages_are_named_by_their_date() -> None:
    path = MD / "roam"
    recs = list(markdown.parse(path, ImportReport(str(path), "markdown")))
    daily, oscar = recs
    assert daily.content == ("March 12th, 2024: - Met Oscar for lunch at 13:00\n    - He recommends the plumber from "
                             "Boiler\n- #House quote arrives Friday")
    assert (daily.event_at, daily.memory_type, daily.tags) == (D(2024, 3, 12), "episodic", ["House"])  # "#[[House]]"
    assert daily.links == [("markdown:Oscar.md::0", "explicit")]
    assert (oscar.event_at, oscar.memory_type) == (None, "semantic")  # "Oscar" is no date


def test_dendron_epoch_milliseconds_and_dotted_names() -> None:
    path = MD / "dendron"
    recs = list(markdown.parse(path, ImportReport(str(path), "markdown")))
    assert [(r.content, r.event_at, r.memory_type) for r in recs] == [
        ("2024-03-12: Boiler quote came in: 2,400 EUR.", D(2024, 3, 12, 9, 0, tzinfo=UTC), "episodic"),
        ("Boiler: Replace in April; condensing model.", D(2024, 3, 1, tzinfo=UTC), "semantic"),
    ]


def test_zettelkasten_id_dates_the_note_and_leaves_its_title() -> None:
    path = MD / "zettel"
    [rec] = markdown.parse(path, ImportReport(str(path), "markdown"))
    assert (rec.content, rec.event_at, rec.memory_type) == (
        "Boiler quote: Plumber quoted 2,400 EUR.", D(2024, 3, 12, 9, 15), "semantic")
    assert rec.ref == "markdown:202403120915 Boiler quote.md::0"


def test_front_matter_numbers_that_are_no_time_date_nothing(tmp_path: Path) -> None:
    note = tmp_path / "n.md"
    note.write_text("---\ncreated: 2024\ndate: 42\n---\n\nText\n", encoding="utf-8")
    [rec] = markdown.parse(note, ImportReport(str(note), "markdown"))
    assert rec.event_at is None


# --- vCard ------------------------------------------------------------------------------------

VCF = FIX / "vcf"
VCF_CASES: dict[str, tuple[list[str], str | None]] = {  # file: (contents, the warning's end or None)
    "docomo_sjis_qp.vcf": (["Contact: 田中 太郎 — phone 090-1234-5678 (cell); email taro@docomo.example"], None),
    # raw Shift_JIS bytes, each line in a property that names its CHARSET: read so, no warning (round 12; it was
    # ":3: not UTF-8 or UTF-16 text (invalid start byte); read as SHIFT_JIS (its CHARSET)")
    "softbank_sjis_raw.vcf": (["Contact: 佐藤 花子 — phone 080-9876-5432 (cell)"], None),
    "nextcloud_40.vcf": (["Contact: Marta Nowak — phone +48-600-100-200 (cell); phone +48-22-555-0100 ext. 12 (work); "
                          "email marta@example.pl (home); im marta@jabber.example (xmpp); birthday 1988-03-04; "
                          "anniversary 2015-06-20"], None),  # IMPP read since round 9
    "windows_utf16.vcf": (["Contact: Kari Ødegård — phone +47 912 34 567 (cell)"], None),
    "apple_company.vcf": (["Contact: Acme Plumbing — phone +44 20 7946 0000 (main); profile "
                           "https://twitter.com/acmeplumbing (twitter); web https://acme-plumbing.example (home page)"],
                          None),  # profiles and web pages read since round 9
    "outlook_21_photo.vcf": (["Contact: Chidi Okafor — phone +44 161 496 0000 (work); email chidi@brightside.example; "
                              "org Brightside Ltd; title Site manager"], None),  # no base64 in the text
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcard_layout(name: str) -> None:
    path = VCF / name
    recs, rep = vcards(path)
    contents, warning = VCF_CASES[name]
    assert [r.content for r in recs] == contents
    assert rep.warnings == ([f"{path}{warning}"] if warning else [])


def test_every_unseen3_vcf_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


def test_vcard_aliases_are_numbers_without_uri_parts() -> None:
    [rec] = vcf.parse(VCF / "nextcloud_40.vcf", ImportReport("x", "vcf"))
    assert {a for a in rec.aliases if a.startswith("+")} == {
        "+48-600-100-200", "+48600100200", "+48-22-555-0100", "+48225550100"}
    [sato] = vcf.parse(VCF / "softbank_sjis_raw.vcf", ImportReport("x", "vcf"))
    assert sato.aliases["佐藤 花子"] == "佐藤 花子" and sato.aliases["08098765432"] == "佐藤 花子"


def test_a_charset_the_bytes_do_not_match_falls_back_to_windows_1252(tmp_path: Path) -> None:
    path = tmp_path / "c.vcf"  # Outlook says SHIFT_JIS but wrote Windows-1252 (the bytes are no Shift_JIS)
    path.write_bytes(b"BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=SHIFT_JIS:M\xfcller;J\xfcrgen\r\nFN:J\xfcrgen M\xfcller\r\n"
                     b"TEL;WORK:+49 89 1\r\nEND:VCARD\r\n")
    rep = ImportReport(str(path), "vcf")
    assert [r.content for r in vcf.parse(path, rep)] == ["Contact: Jürgen Müller — phone +49 89 1 (work)"]
    assert rep.warnings[0].endswith("read as Windows-1252")


# --- ChatGPT ----------------------------------------------------------------------------------

GPT = FIX / "chatgpt"


def _gpt(name: str, **options: Any) -> tuple[list[Record], ImportReport]:
    return conversations(GPT / name, **options)


def _t(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def test_chatgpt_export_of_2022_and_2023_plugins() -> None:
    recs, rep = _gpt("early_2023.json")
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("User: How often do I feed a sourdough starter?", _t(1671620010), "6b1f0c1e-0000-4000-8000-000000000001"),
        ("Assistant: Twice a day at room temperature, once a week in the fridge.", _t(1671620060),
         "6b1f0c1e-0000-4000-8000-000000000001"),  # the regenerated answer current_node points at
        ("User: Cheapest flight from Berlin to Lisbon on 3 June?", _t(1684000000), "6b1f0c1e-0000-4000-8000-000000000002"),
        ("Assistant: TAP has one for 89 EUR on 3 June.", _t(1684000012), "6b1f0c1e-0000-4000-8000-000000000002"),
    ]
    assert (rep.skipped_system, rep.skipped_tool) == (2, 1)  # the empty system turn, the plugin call; its reply
    alt = [r.content for r in _gpt("early_2023.json", all_branches=True)[0] if r.metadata.get("branch") == "alt"]
    assert alt == ["Assistant: Once a day at room temperature."]


def test_chatgpt_reasoning_search_and_sediment_images_of_2025() -> None:
    recs, rep = _gpt("reasoning_2025.json")
    assert [(r.content, r.event_at) for r in recs] == [
        ("User: Plan a 3-day trip to Porto", _t(1740000000)),
        ("Assistant: Day 1: Ribeira and the Dom Luís I bridge. Day 2: Livraria Lello. Day 3: Foz.", _t(1740000009)),
        ("User: What is this building?", _t(1740000200)),
        ("Assistant: That is the Clérigos Tower.", _t(1740000210)),
    ]
    assert recs[2].metadata["images"] == ["sediment://file_00000000a1b2c3"]
    # hidden system turn, thoughts, the reasoning recap, the search call; the search result page
    assert (rep.skipped_system, rep.skipped_tool, rep.warnings) == (4, 1, [])


def test_cli_folder_holding_a_chat_zip_with_a_card(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    _chat_zip(folder)
    (folder / "notes.md").write_text("# Climbing\n\nSaturday at the crag.\n", encoding="utf-8")
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(folder)))
    assert out["data"]["format"] == "mixed"
    assert [(f["format"], Path(f["file"]).name, f["memories_added"]) for f in out["data"]["files"]] == [
        ("vcf", "WhatsApp Chat with Climbing.zip", 1), ("whatsapp", "WhatsApp Chat with Climbing.zip", 3),
        ("markdown", "exports", 1)]


EVERNOTE = [
    ("Boiler quote: Plumber quoted 2,400 EUR for a condensing boiler.\n\n[x] Ask for a second quote\n"
     "[ ] Book the install\n- Model: Vaillant ecoTEC\n- Warranty: 7 years", D(2024, 3, 12, 9, 15, tzinfo=UTC),
     ["house", "money"]),
    ("Wifi: The password is on the router\u2019s sticker.", D(2024, 3, 14, 8, 30, tzinfo=UTC), []),
]


def test_evernote_notebook_export() -> None:
    path = MD / "evernote" / "House.enex"
    assert detect(path) == detect(path.parent) == "markdown"
    rep = ImportReport(str(path), "markdown")
    recs = list(markdown.parse(path, rep))
    assert [(r.content, r.event_at, r.tags) for r in recs] == EVERNOTE
    assert recs[0].metadata["attachments"] == ["quote-scan.jpg"]  # named; its base64 is nowhere
    assert recs[1].metadata["source_url"] == "https://router.example/help"
    assert (rep.messages_seen, rep.skipped_empty, rep.warnings) == (3, 1, [])
    assert len({r.ref for r in recs}) == 2 and all(r.memory_type == "semantic" for r in recs)


def test_evernote_export_zipped_and_cut(tmp_path: Path) -> None:
    data = (MD / "evernote" / "House.enex").read_bytes()
    path = _zip(tmp_path / "Evernote.zip", {"Evernote/House.enex": data})
    assert detect(path) == "markdown"
    assert [(r.content, r.event_at, r.tags) for r in markdown.parse(path, ImportReport(str(path), "markdown"))] == EVERNOTE
    cut = tmp_path / "cut.enex"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError, match="not well-formed Evernote export") as err:
        list(markdown.parse(cut, ImportReport(str(cut), "markdown")))
    assert str(cut) in str(err.value) and "\n" not in str(err.value)


# --- end to end: mem.py import ----------------------------------------------------------------

CLI_CASES = {  # name: (path, format, memories)
    "whatsapp": (WA / "android_pa_12h.txt", "whatsapp", 3),
    "chatgpt": (GPT / "reasoning_2025.json", "chatgpt", 4),
    "claude": (CL, "claude", len(CLAUDE_EXPECTED) + 3),
    "keep": (MD / "keep", "markdown", 4),
    "evernote": (MD / "evernote" / "House.enex", "markdown", 2),
    "vcf": (VCF / "softbank_sjis_raw.vcf", "vcf", 1),
}


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_cli_dry_run_then_import_then_again(name: str, tmp_path: Path) -> None:
    path, fmt, expected = CLI_CASES[name]
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == fmt and dry["data"]["memories_added"] == expected
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert real["data"]["memories_added"] == expected
    again = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert again["data"]["memories_added"] == 0


@pytest.mark.parametrize("kind", ["whatsapp", "vcf", "markdown"])
def test_utf8_with_one_damaged_byte_is_not_read_as_a_code_page(kind: str, tmp_path: Path) -> None:
    # a UTF-8 export with one stray byte: Windows-1252 would garble every accented letter ("Ã©")
    text = {"whatsapp": "12/03/2024, 09:15 - José: café olé\n12/03/2024, 09:16 - Zoë: crème brûlée \xff!\n",
            "vcf": "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:José Müller\r\nNOTE:crème brûlée \xff!\r\nEND:VCARD\r\n",
            "markdown": "# Café\n\nJosé: crème brûlée \xff!\n"}[kind]
    path = tmp_path / {"whatsapp": "chat.txt", "vcf": "c.vcf", "markdown": "n.md"}[kind]
    path.write_bytes(text.replace("\xff", "\x00").encode("utf-8").replace(b"\x00", b"\xff"))
    rep = ImportReport(str(path), kind)
    parser = {"whatsapp": whatsapp, "vcf": vcf, "markdown": markdown}[kind]
    content = "\n".join(r.content for r in parser.parse(path, rep))
    assert "José" in content and "crème brûlée \ufffd!" in content and "Ã" not in content
    assert len(rep.warnings) == 1 and rep.warnings[0].endswith("read as UTF-8, undecodable bytes as U+FFFD")


# --- a zip of several chat exports (a "WhatsApp" folder zipped) --------------------------------

def _exports_zip(tmp_path: Path, nested: bool) -> Path:
    android, ios = (WA / "android_pl.txt").read_bytes(), (WA / "ios_da_dots.txt").read_bytes()
    if nested:  # each export as WhatsApp made it: a zip per chat
        members = {"WhatsApp Chat with Ania.zip": _zip(tmp_path / "a.zip", {"WhatsApp Chat with Ania.txt": android,
                                                                            "IMG-1.jpg": b"\xff\xd8"}).read_bytes(),
                   "WhatsApp Chat - Mette.zip": _zip(tmp_path / "b.zip", {"_chat.txt": ios}).read_bytes()}
    else:  # the same, unzipped then zipped again
        members = {"chats/WhatsApp Chat with Ania.txt": android, "chats/WhatsApp Chat - Mette/_chat.txt": ios,
                   "chats/WhatsApp Chat - Mette/00000003-PHOTO.jpg": b"\xff\xd8"}
    return _zip(tmp_path / "WhatsApp exports.zip", members)


@pytest.mark.parametrize("nested", [True, False])
def test_a_zip_of_several_chat_exports_imports_every_chat(nested: bool, tmp_path: Path) -> None:
    path = _exports_zip(tmp_path, nested)
    assert detect(path) == "whatsapp"
    recs, rep = _wa(path)
    ania = [(c, t) for c, t in WA_CASES["android_pl.txt"][4]]
    mette = [(c, t) for c, t in WA_CASES["ios_da_dots.txt"][4]]
    by_chat = {"Ania": [(r.content, r.event_at) for r in recs if r.thread == "Ania"],
               "Mette": [(r.content, r.event_at) for r in recs if r.thread == "Mette"]}
    assert by_chat == {"Ania": ania, "Mette": mette} and len(recs) == len(ania) + len(mette)
    assert sorted(rep.variant["chats"]) == ["Ania", "Mette"]
    # every chat keeps the refs it has when imported from its own export
    alone = {r.ref for r in _wa(_zip(tmp_path / "WhatsApp Chat with Ania.zip",
                                     {"WhatsApp Chat with Ania.txt": (WA / "android_pl.txt").read_bytes()}))[0]}
    assert alone == {r.ref for r in recs if r.thread == "Ania"}


def test_cli_zip_of_several_chats_then_again_and_thread_refused(tmp_path: Path) -> None:
    path = _exports_zip(tmp_path, True)
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["data"]["memories_added"] == 4 and out["data"]["episodes"] >= 2
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0
    proc = run_cli("--db", str(tmp_path / "n.db"), "import", str(path), "--thread", "All")
    err = _envelope(proc)
    assert proc.returncode == 1 and err["error"]["message"] == f"{path}: --thread names one chat; this zip holds 2"


def test_a_damaged_year_is_never_stored(tmp_path: Path) -> None:
    # found by the fuzz test: "3/12/240" read as the year 240, which no ISO date string holds
    chat = tmp_path / "chat.txt"
    chat.write_text("12/03/2024, 09:15 - Ana: hi\n12/03/240, 09:16 - Ben: cut\n12/03/2024, 09:17 - Ana: bye\n",
                    encoding="utf-8")
    recs, rep = _wa(chat)
    assert [r.content for r in recs] == ["Ana: hi", "Ana: bye"]
    assert rep.warnings == [f"{chat}:2: invalid date/time 12/03/240 09:16 for date order dmy; message skipped"]
    note = tmp_path / "n.md"
    note.write_text("---\ndate: 0240-03-12\n---\n\nText\n", encoding="utf-8")
    rep = ImportReport(str(note), "markdown")
    [rec] = PARSERS["markdown"].parse(note, rep)
    assert rec.event_at is None and rep.warnings == [f"{note}:4: {rec.ref}: date 0240-03-12 is no date of a memory; "
                                                     "kept undated"]
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(note)))
    assert out["ok"] and out["data"]["memories_added"] == 1


def test_a_note_the_store_would_refuse_is_left_out_in_both_passes(tmp_path: Path) -> None:
    # JSON can escape a lone surrogate ("\ud800") no UTF-8 holds; before, the write stopped there, halfway
    keep = tmp_path / "Takeout" / "Keep"
    keep.mkdir(parents=True)
    (keep / "A.json").write_text('{"title": "A", "textContent": "fine words", "userEditedTimestampUsec": 1710234000000000}',
                                 encoding="utf-8")
    (keep / "B.json").write_text('{"title": "B", "textContent": "broken \\ud800 words", '
                                 '"userEditedTimestampUsec": 1710234000000000}', encoding="utf-8")
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(tmp_path / "Takeout"), "--dry-run"))
    assert dry["data"]["memories_added"] == 1
    out = _envelope(run_cli("--db", str(db), "import", str(tmp_path / "Takeout")))
    assert out["ok"] and out["data"]["memories_added"] == 1 and out["data"]["skipped_malformed"] == 1
    assert out["data"]["warnings"] == [f"{tmp_path / 'Takeout'}:1: markdown:Keep/B.json::0: not stored (content: lone "
                                       "surrogate U+D800 at position 10 is not text)"]
