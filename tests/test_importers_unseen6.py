"""Round 6 of export layouts nobody here had seen (tests/fixtures/unseen6, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* vCard: e-mail labels (``TYPE=WORK``, Apple ``itemN.X-ABLabel``), Apple's built-in labels of run-together
  words (``_$!<HomeFAX>!$_``), dates of no year (RFC 6350 ``--0415``/``--04-15``, Apple's
  ``X-APPLE-OMIT-YEAR``), anniversaries (``ANNIVERSARY``, ``X-ANNIVERSARY``, Apple ``X-ABDATE``), vCard
  4.0 ``VALUE=uri`` phones, ``ALTID``/``LANG`` names, ``KIND:group``/``KIND:org``;
* notes: a folder of plain ``.txt`` notes, Org-mode files (org-roam ids, TODO keywords, drawers,
  planning lines, source blocks), a Logseq graph (journal days, task markers, block references,
  aliases), a Notion export's nested pages (threads without page ids, parents' titles);
* WhatsApp chats of locales not tested before (ja, ko, zh 12-hour words and midnight/noon; ar/he with
  right-to-left marks; hi-en two-digit years; tr without a comma; pl, nl with dashes, sv ISO dates,
  ru; en-CA ``p.m.`` with dots; U+202F before ``PM``; a line starting with U+200F), polls in Spanish,
  attachments in Italian, live locations, missed group calls, pinned messages, business notices;
* ChatGPT exports of 2022 (no ``current_node``), 2023 (string parts) and 2024 (parts as dicts, a photo),
  custom instructions (``user_editable_context``: the user's words about themselves, one memory), a
  shared conversation's JSON; the files of an export left unread, named (``users.json``).

WhatsApp times are the phone's wall clock as written (naive); ChatGPT times UTC (aware); note dates as
their front matter or file name writes them."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, vcards
from importer_cli import memory_count as _count
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope
from importer_cli import write_zip as _zip

from importers import ImportFormatError, ImportReport, Record, chatgpt, claude, markdown, vcf
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen6"
D = datetime


def _t(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


# --- vCard: labels of e-mails, dates of no year, anniversaries, vCard 4.0 ------------------------------

VCF = FIX / "vcf"
VCF_CASES: dict[str, list[tuple[str, list[str], str | None]]] = {  # file: [(content, tags, birthday metadata)]
    # iPhone: type labels on e-mails, a labelled e-mail, Apple's "HomeFAX", a birthday of no year, an X-ABDATE
    "ios_labels_dates.vcf": [
        ("Contact: Maria Costa — phone +351 912 345 678 (cell); phone +351 933 000 111 (home fax); email "
         "maria@atelier.example (work); email maria@home.example (home); email maria.c@club.example (Climbing club); "
         "birthday 15 April; anniversary 2015-06-20", [], "--04-15"),
        ("Contact: Chidi Okafor — phone +44 20 7946 0958 (work); email chidi@okafor.example; birthday 23 September",
         [], "--0923"),
    ],
    # RFC 6350: VALUE=uri phones, ALTID/LANG names, a group with MEMBERs, a text birthday, an org's own card
    "rfc6350_v40.vcf": [
        ("Contact: Jun Tanaka — phone +81-90-1234-5678 (cell); phone +81-3-1234-5678 ext. 21 (work); email "
         "jun@example.jp (work); email jun.t@example.net (home); birthday 15 April; anniversary 2015-06-20",
         ["Climbing"], "--04-15"),
        ("Contact: Lea Roth — phone +49-30-1234567 (home); birthday circa 1990; anniversary 20 June", ["Climbing"],
         "circa 1990"),
        ("Contact: Okafor Plumbing — phone +44-20-7946-0000 (work); email office@okafor.example (work)", [], None),
    ],
    # Google Contacts: a grouped custom e-mail label, Evolution's X-ANNIVERSARY, LF line ends
    "google_labels.vcf": [
        ("Contact: Marta Nowak — phone +48 600 100 200 (cell); email marta@example.pl; email marta.nowak@uni.example "
         "(Uni); birthday 1985-02-03; anniversary 2010-09-18", [], "1985-02-03"),
    ],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcard_labels_and_dates(name: str) -> None:
    path = VCF / name
    recs, rep = vcards(path)
    assert [(r.content, r.tags, r.metadata["birthday"]) for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_every_unseen6_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


def test_vcard_4_names_of_every_language_are_aliases() -> None:
    recs = list(vcf.parse(VCF / "rfc6350_v40.vcf", ImportReport("x", "vcf")))
    assert {k for k, v in recs[0].aliases.items() if not k.startswith("+")} == {
        "Jun Tanaka", "田中 純", "田中, 純", "純 田中"}


# --- notes: plain text, Org-mode, Logseq, Notion's nested pages ------------------------------------------

NOTES = FIX / "notes"


def _rows(recs: list[Record]) -> list[tuple[Any, ...]]:
    return [(r.thread, r.content, r.event_at, r.tags, r.memory_type) for r in recs]


TXT = [  # a dated file name dates its note; a first line repeating the name is the title; "#" is no heading
    ("2024-03-12.txt", "2024-03-12: Dentist moved to Friday 10:30.\nCall Ana about the keys.", D(2024, 3, 12), [],
     "episodic"),
    ("Boiler service.txt", "Boiler service: Oscar comes Thursday at 8.\nBring the warranty card.\n\n# not a heading: "
     "plain text has none", None, [], "semantic"),
    ("Gate code.txt", "Gate code: Gate code 4711, then press the bell.", None, [], "semantic"),
    ("Archive/Router.txt", "Router: Old router password: in the blue folder.", None, [], "semantic"),
]


def test_a_folder_of_plain_text_notes() -> None:
    recs, rep = _notes(NOTES / "txt")
    assert sorted(_rows(recs), key=lambda r: ("/" in r[0], r[0])) == TXT
    assert rep.warnings == [] and len({r.ref for r in recs}) == 4


def test_one_plain_text_note_is_read_when_asked_and_named_when_not(tmp_path: Path) -> None:
    path = NOTES / "txt" / "Gate code.txt"
    with pytest.raises(ImportFormatError, match=r"plain text with no chat header \(`mem.py import markdown FILE` reads"):
        detect(path)
    recs = list(markdown.parse(path, ImportReport(str(path), "markdown")))
    assert [r.content for r in recs] == ["Gate code: Gate code 4711, then press the bell."]
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", "markdown", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == 1, out


def test_a_folder_of_chats_is_no_folder_of_notes(tmp_path: Path) -> None:
    (tmp_path / "Ana.txt").write_text("12/03/2024, 21:00 - Ana: Hi\n12/03/2024, 21:01 - Ben: Hello\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Buy milk\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="directory holds no conversations"):
        detect(tmp_path)


PORTO = [  # the title heads the headlines; TODO keywords are to-do boxes; drawers and comments are no text
    ("porto.org", "Trip to Porto: Fly on 12 April, back on 19 April."),
    ("porto.org", "Trip to Porto > Flights: TAP 1947, seat 14C."),
    ("porto.org", "Trip to Porto > [ ] Book hotel: scheduled 2024-03-20\nNear Ribeira, under 200 EUR."),
    ("porto.org", "Trip to Porto > [ ] Book hotel > Options: - Memmo Alfama\n- Pestana Vintage"),
    ("porto.org", "Trip to Porto > [x] Renew passport: closed 2024-03-10 18:02\n```shell\n# a comment, not a heading\n"
     "echo done\n```"),
]


def test_org_mode_file_alone() -> None:
    recs, rep = _notes(NOTES / "org" / "porto.org")
    assert [(r.thread, r.content) for r in recs] == PORTO
    assert {(r.event_at, r.memory_type) for r in recs} == {(D(2024, 3, 12, 9, 15), "semantic")}
    # the file's tags tag every section, a headline's its own and those under it (round 7: before, the whole note)
    assert [r.tags for r in recs] == [["travel", "family"], ["travel", "family"], ["travel", "family", "urgent"],
                                      ["travel", "family", "urgent"], ["travel", "family"]]
    assert rep.warnings == []


def test_org_roam_folder_links_by_id_and_file() -> None:
    recs, rep = _notes(NOTES / "org")
    boiler, oscar = recs[0], recs[1]
    assert [(r.thread, r.content) for r in recs[:2]] == [
        ("boiler.org", "Boiler: Quote from Oscar: 2,400 EUR. See also the trip and a guide."),
        ("oscar.org", "Oscar: Plumber, works Saturdays. Phone +351 912 000 222."),
    ]
    assert [(r.thread, r.content) for r in recs[2:]] == PORTO
    assert oscar.tags == ["person"] and oscar.metadata["frontmatter"]["id"] == "6c1f0e2a-7b3d-4c5e-9f10-2a3b4c5d6e7f"
    assert boiler.links == [(oscar.ref, "explicit"), (recs[2].ref, "explicit")]  # [[id:…]] and [[file:porto.org]]
    assert rep.warnings == [] and "unresolved_links" not in boiler.metadata


LOGSEQ_DAY = ("2024-03-12: - Called Oscar about the boiler\n\t- he comes on Thursday, see Quote: 2,400 EUR for the "
              "boiler\n- [ ] buy descaler\n- [ ] write the insurance claim\n- [x] pay the water bill\n- [ ] call the "
              "bank\n- [ ] book the flights (priority A)\n- [-] renew the gym\n- Plumber confirmed by text")


def test_logseq_journal_day_markers_block_refs_and_aliases() -> None:
    recs, rep = _notes(NOTES / "logseq")
    assert _rows(recs) == [
        ("journals/2024_03_12.md", LOGSEQ_DAY, D(2024, 3, 12), [], "episodic"),
        ("pages/Oscar.md", "Oscar: - Plumber, works Saturdays\n- Quote: 2,400 EUR for the boiler", None, [], "semantic"),
    ]
    day, oscar = recs
    assert day.links == [(oscar.ref, "explicit")]  # [[Oscar]], [[Plumber]] (its alias) and the block's page
    assert oscar.metadata["frontmatter"] == {"type": "person", "alias": "Plumber"} and rep.warnings == []


HOME = "Home 0a1b2c3d4e5f40718293a4b5c6d7e8f9"
NOTION_PAGES = [
    ("Home.md", "Home: The house in Porto.\n\nBoiler"),
    ("Home/Boiler.md", "Home > Boiler: Oscar quoted 2,400 EUR.\n\nQuote"),
    ("Home/Boiler/Quote.md", "Home > Boiler > Quote: Valid until 31 March."),
]


@pytest.mark.parametrize("where", ["folder", "zip"])
def test_notion_nested_pages_threads_and_titles(where: str, tmp_path: Path) -> None:
    src = NOTES / "notion" / "Export-3f2a"
    path = src if where == "folder" else _zip(tmp_path / "Export-3f2a.zip", {
        p.relative_to(src).as_posix(): p.read_bytes() for p in sorted(src.rglob("*")) if p.is_file()})
    recs, rep = _notes(path)
    assert [(r.thread, r.content) for r in recs] == NOTION_PAGES
    assert recs[0].links == [(recs[1].ref, "explicit")] and recs[1].links == [(recs[2].ref, "explicit")]
    assert recs[2].metadata["path"] == f"{HOME}/Boiler 1b2c3d4e5f6a47b8c9d0e1f2a3b4c5d6/Quote 2c3d4e5f6a7b48c9d0e1f2a3b4c5d6e7.md"


NOTE_CLI = {"txt": 4, "org": 7, "logseq": 2, "notion/Export-3f2a": 3}


@pytest.mark.parametrize("name", sorted(NOTE_CLI))
def test_cli_notes_dry_run_then_import_then_again(name: str, tmp_path: Path) -> None:
    path, expected = NOTES / name, NOTE_CLI[name]
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == "markdown" and dry["data"]["memories_added"] == expected, dry
    assert not db.exists() or _count(db) == 0
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == expected
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


# --- WhatsApp: locales nobody tested, notices of groups and shares ---------------------------------------

WA = FIX / "whatsapp"
# file: (layout, date order, calendar, (system, media) skipped, [(content, time)])
WA_CASES: dict[str, tuple[str, str, str, tuple[int, int], list[tuple[str, datetime]]]] = {
    "android_ar_rlm.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('أحمد: نلتقي غدا؟', D(2024, 3, 12, 15, 5)),
        ('أحمد: وصلت', D(2024, 3, 13, 9, 1)),
    ]),
    "android_dash_2digit.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ('Ana: Hoi', D(2024, 3, 12, 15, 5)),
        ('Ben: Doei', D(2024, 3, 12, 15, 7)),
        ('Ana: Morgen', D(2024, 3, 13, 9, 1)),
    ]),
    "android_en_ca_dots.txt": ("dashed", "ymd", "gregorian", (0, 0), [
        ('Sam: Meet tomorrow?', D(2024, 3, 12, 15, 5)),
        ('Jo: OK', D(2024, 3, 12, 15, 7)),
        ('Sam: Here', D(2024, 3, 13, 9, 1)),
    ]),
    "android_en_group.txt": ("dashed", "dmy", "gregorian", (15, 1), [
        ('Ben: Sushi?', D(2024, 3, 12, 15, 9)),
        ('Ana: POLL:\nFriday or Saturday?\nOPTION: Friday (2 votes)\nOPTION: Saturday (0 votes)', D(2024, 3, 12, 15, 11)),
        ('Ana: Sounds good', D(2024, 3, 12, 15, 12)),
        ('Ana: Call me', D(2024, 3, 12, 15, 20)),
    ]),
    "android_es_poll.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ('Ana: ENCUESTA:\n¿Cena?\nOPCIÓN: Pizza (1 voto)', D(2024, 3, 12, 15, 5)),
        ('Ben: ubicación: https://maps.google.com/?q=40.4,-3.7', D(2024, 3, 12, 15, 6)),
        ('Ana: Vale', D(2024, 3, 12, 15, 8)),
    ]),
    "android_he_dots.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('דנה: נפגשים מחר?', D(2024, 3, 12, 15, 5)),
        ('דנה: הגעתי', D(2024, 3, 13, 9, 1)),
    ]),
    "android_hi_en_2digit.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('Rahul: Kal milte hain?', D(2024, 3, 12, 15, 5)),
        ('Rahul: So jao', D(2024, 3, 12, 0, 15)),
        ('Rahul: Pahunch gaya', D(2024, 3, 13, 9, 1)),
    ]),
    "android_it_attached.txt": ("dashed", "dmy", "gregorian", (0, 2), [
        ('Ana: Ciao', D(2024, 3, 12, 15, 5)),
        ('Ana: Ok', D(2024, 3, 12, 15, 9)),
    ]),
    "android_ja_12h.txt": ("dashed", "ymd", "gregorian", (0, 1), [
        ('佐藤: 明日は何時?', D(2024, 3, 12, 15, 5)),
        ('田中: 午前10時はどう?', D(2024, 3, 12, 15, 7)),
        ('田中: おやすみ', D(2024, 3, 13, 0, 1)),
        ('佐藤: 着いた', D(2024, 3, 13, 9, 1)),
    ]),
    "android_ko_12h.txt": ("dashed", "ymd", "gregorian", (0, 1), [
        ('민수: 내일 몇 시에 만날까?', D(2024, 3, 12, 15, 5)),
        ('지은: 오전 10시 어때?', D(2024, 3, 12, 15, 7)),
        ('민수: 도착했어', D(2024, 3, 13, 9, 1)),
    ]),
    "android_nl_dashes.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('Sanne: Zien we elkaar morgen?', D(2024, 3, 12, 15, 5)),
        ('Sanne: Ik ben er', D(2024, 3, 13, 9, 1)),
    ]),
    "android_pl.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('Kasia: Spotkamy się jutro?', D(2024, 3, 12, 15, 5)),
        ('Kasia: Jestem', D(2024, 3, 13, 9, 1)),
    ]),
    "android_ru.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('Оля: Встретимся завтра?', D(2024, 3, 12, 15, 5)),
        ('Оля: Я на месте', D(2024, 3, 13, 9, 1)),
    ]),
    "android_tr_nocomma.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ('Ayşe: Yarın buluşalım mı?', D(2024, 3, 12, 15, 5)),
        ('Ayşe: Geldim', D(2024, 3, 13, 9, 1)),
    ]),
    "android_zh_12h.txt": ("dashed", "ymd", "gregorian", (0, 1), [
        ('小明: 明天几点见?', D(2024, 3, 12, 15, 5)),
        ('小红: 午饭吃了吗', D(2024, 3, 12, 12, 30)),
        ('小明: 到了', D(2024, 3, 13, 9, 1)),
    ]),
    "ios_de_2digit_marks.txt": ("bracketed", "dmy", "gregorian", (0, 1), [
        ('Ana: Hallo', D(2024, 3, 12, 15, 5, 10)),
        ('Ana: Standort: https://maps.google.com/?q=52.5,13.4', D(2024, 3, 12, 15, 7)),
        ('Ben: Bis dann', D(2024, 3, 13, 9, 1)),
    ]),
    "ios_en_nnbsp.txt": ("bracketed", "dmy", "gregorian", (0, 1), [
        ('Ana: Meet tomorrow?', D(2024, 3, 12, 15, 5, 10)),
        ('Ana: Here', D(2024, 3, 13, 9, 1)),
    ]),
    "ios_en_notices.txt": ("bracketed", "dmy", "gregorian", (7, 2), [
        ('Ben: Real text', D(2024, 3, 12, 15, 4)),
        ('Ana: Location: https://maps.google.com/?q=41.1,-8.6', D(2024, 3, 12, 15, 8)),
        ('Ben: ok', D(2024, 3, 12, 15, 11)),
    ]),
    "ios_ja_24h.txt": ("bracketed", "ymd", "gregorian", (1, 1), [
        ('佐藤: 明日は何時に会う?', D(2024, 3, 12, 15, 5, 10)),
        ('田中: 午後3時はどう?\n改札の前で', D(2024, 3, 12, 15, 7)),
        ('佐藤: いいね、駅で!', D(2024, 3, 12, 15, 9)),
    ]),
    "ios_ko_12h.txt": ("bracketed", "ymd", "gregorian", (0, 1), [
        ('민수: 내일 몇 시에 만날까?', D(2024, 3, 12, 15, 5, 10)),
        ('민수: 아직 안 자?', D(2024, 3, 13, 0, 30)),
        ('민수: 도착했어', D(2024, 3, 13, 9, 1)),
    ]),
    "ios_sv_iso.txt": ("bracketed", "ymd", "gregorian", (0, 1), [
        ('Erik: Ses vi imorgon?', D(2024, 3, 12, 15, 5, 10)),
        ('Erik: Jag är här', D(2024, 3, 13, 9, 1)),
    ]),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_locales_and_notices(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen6_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


@pytest.mark.parametrize("where", ["zip", "folder"])
def test_the_chat_is_named_by_its_zip_or_folder(where: str, tmp_path: Path) -> None:
    chat = (WA / "ios_en_nnbsp.txt").read_bytes()
    if where == "zip":
        path = _zip(tmp_path / "WhatsApp Chat - Ana Sousa.zip", {"_chat.txt": chat})
    else:  # the zip opened by macOS: a folder holding _chat.txt
        path = tmp_path / "WhatsApp Chat - Ana Sousa"
        path.mkdir()
        (path / "_chat.txt").write_bytes(chat)
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    files = out["data"].get("files") or [out["data"]]
    assert [(f["variant"]["chat"], f["memories_added"]) for f in files] == [("Ana Sousa", 2)], out
    with sqlite3.connect(db) as conn:
        assert {r[0] for r in conn.execute("SELECT DISTINCT thread FROM memories WHERE source = 'whatsapp'")} == {"Ana Sousa"}


# --- ChatGPT 2022-2024 layouts, custom instructions, a shared conversation; what an export leaves unread ---

GPT = FIX / "chatgpt"
T23 = 1678611600  # 2023-03-12 09:00 UTC
C22, C23, C24 = ("c0ffee00-0000-4000-8000-000000002022", "c0ffee00-0000-4000-8000-000000002023",
                 "c0ffee00-0000-4000-8000-000000002024")
CUSTOM = [  # the user's own words in both forms ChatGPT kept them (fenced in the model's text; its metadata): once
    ("Custom instructions, about me: I live in Porto with my cat Smokey and I am vegetarian.", _t(T23 + 0.2),
     None),
    ("Custom instructions, how to answer: Answer in metric units.", _t(T23 + 0.2), None),
]


def test_chatgpt_2022_to_2024_layouts_and_custom_instructions() -> None:
    path = GPT / "2023"
    assert detect(path) == "chatgpt"
    rep = ImportReport(str(path), "chatgpt")
    recs = list(chatgpt.parse(path, rep))
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("User: Is 2,400 EUR fair for a condensing boiler?", _t(T23 + 5), C23),  # 2023: parts are strings
        ("Assistant: Yes, that is within the usual range.", _t(T23 + 10), C23),
        ("User: Which tram goes to Foz?", _t(T23 - 8000000 + 3), C22),  # 2022: no current_node, the later answer
        ("Assistant: Line 1 runs along the river to Foz.", _t(T23 - 8000000 + 60), C22),
        ("User: How often should I water this?", _t(T23 + 31536004), C24),  # 2024: parts as dicts, a photo
        ("Assistant: About once a week; let the top 2 cm dry.", _t(T23 + 31536009.5), C24),
        *CUSTOM,
    ]
    assert recs[4].metadata["images"] == ["file-service://file-Pl4nt"]
    assert [r.memory_type for r in recs[-2:]] == ["semantic", "semantic"] and recs[-1].author == "User"
    assert (rep.skipped_system, rep.messages_seen, rep.warnings) == (1, 9, [])  # the empty system message


def test_chatgpt_shared_conversation_json() -> None:
    path = GPT / "shared" / "5ba1ed00-0000-4000-8000-00000000beef.json"
    assert detect(path) == "chatgpt"
    recs = list(chatgpt.parse(path, ImportReport(str(path), "chatgpt")))
    share = "5ba1ed00-0000-4000-8000-00000000beef"
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("User: Where should I eat francesinha?", _t(T23 + 40000005), share),
        ("Assistant: Café Santiago is the classic.", _t(T23 + 40000009.5), share)]


def test_custom_instructions_are_one_memory_however_often_imported(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    first = _envelope(run_cli("--db", str(db), "import", str(GPT / "2023")))
    assert first["data"]["memories_added"] == 8, first
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT content FROM memories WHERE content LIKE 'Custom instructions,%'").fetchall()
    assert sorted(r[0] for r in rows) == sorted(c for c, _, _ in CUSTOM)
    assert _envelope(run_cli("--db", str(db), "import", str(GPT / "2023")))["data"]["memories_added"] == 0


def test_what_an_export_leaves_unread_is_named(tmp_path: Path) -> None:
    export = _zip(tmp_path / "chatgpt.zip", {
        "conversations.json": (GPT / "2023" / "conversations.json").read_bytes(), "user.json": b'{"id": "user-x"}',
        "message_feedback.json": b"[]", "chat.html": b"<html></html>", "file-Pl4nt-photo.jpg": b"\xff\xd8",
        "__MACOSX/._conversations.json": b"x"})
    rep = ImportReport(str(export), "chatgpt")
    assert len(list(chatgpt.parse(export, rep))) == 8
    assert rep.variant["not_read"] == ["chat.html", "message_feedback.json", "user.json"]
    claude_dir = Path(__file__).parent / "fixtures" / "unseen4" / "claude"  # conversations, projects, users
    crep = ImportReport(str(claude_dir), "claude")
    assert list(claude.parse(claude_dir, crep)) and crep.variant["not_read"] == ["users.json"]
    out = _envelope(run_cli("--db", str(tmp_path / "m.db"), "import", str(claude_dir), "--dry-run"))
    assert out["data"]["variant"]["not_read"] == ["users.json"], out
