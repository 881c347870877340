"""Round 2 of export layouts nobody here had seen (tests/fixtures/unseen2, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* WhatsApp: iOS 17's narrow no-break space before AM/PM, polls, contact cards, disappearing-message
  and community notices (one with a colon, in Turkish), "edited" markers in Turkish, Portuguese,
  Indonesian, Ukrainian, Hebrew, Japanese and Chinese, Persian dates with RLM after the Arabic comma,
  UTF-16 re-saved chats, message lines that look like dates, a zip whose media holds a .vcf and a .txt;
* ChatGPT: the mapping's root last, regenerated answers and edited-away questions, null parts, canvas
  documents, uploaded files, a shared conversation's JSON, chat.html alone (the viewer page);
* Claude: thinking and voice-note blocks, pasted text and file attachments (their text searchable,
  bounded), files, an empty name;
* Markdown: Obsidian block refs and image embeds, Joplin RAW and front-matter exports, Bear tags and
  TextBundles (.markdown), Logseq page properties, Notion property lines, UTF-16 and CR-only notes,
  Jekyll dates with a spaced offset, a front-matter title;
* vCard: iCloud and 4.0 group cards, Outlook's Windows-1252 2.1, Android's nickname rows and custom
  labels, Google Takeout's zip;
* ``mem.py import`` on a folder mixing a chat, contacts and notes.

Every case pins its exact records (author, text, time, tags), the format detected and what was
skipped; broken inputs fail in one line naming the file, exit code 1 (``invalid_input``), nothing
written."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout
from importer_cli import memory_count as _count
from importer_cli import one_envelope as _envelope
from importer_cli import wa as _wa
from importer_cli import write_zip as _zip

from importers import ImportFormatError, ImportReport, Record, chatgpt, claude, markdown, vcf, whatsapp
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen2"
WA = FIX / "whatsapp"
D = datetime

# file: (layout, date order, calendar, (system lines, media lines) skipped, [(content, event time)], edited texts)
WA_CASES: dict[str, tuple[str, str, str, tuple[int, int], list[tuple[str, datetime]], set[str]]] = {
    "ios_en_us_nnbsp.txt": ("bracketed", "mdy", "gregorian", (3, 1), [
        ("Ana Lopez: Did you book the cabin?", D(2024, 3, 12, 21, 6)),
        ("Ben: Yes, for the 22nd", D(2024, 3, 12, 21, 6, 41)),
        ("Ben: POLL:\nWho drives?\nOPTION: Ana (1 vote)\nOPTION: Ben (0 votes)", D(2024, 3, 12, 21, 7, 2)),
        ("Ben: Location: https://maps.google.com/?q=46.5,7.9", D(2024, 3, 12, 21, 9)),
        ("Ben: ok 👍", D(2024, 3, 13, 0, 2)),
    ], {"Ben: Yes, for the 22nd"}),
    "android_tr_community.txt": ("dashed", "dmy", "gregorian", (3, 1), [  # "X bu grubu topluluğa ekledi: Y"
        ("Mehmet: Yarın toplantı var mı?", D(2024, 3, 12, 21, 6)),
        ("Ayşe: Evet, saat 8'de", D(2024, 3, 12, 21, 7)),
    ], {"Ayşe: Evet, saat 8'de"}),
    "android_ptbr_poll.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Carla: Oi gente", D(2024, 3, 12, 21, 5)),  # "~ Carla": a name the phone has not saved
        ("João: Chego às 8", D(2024, 3, 12, 21, 6)),
        ("João: ENQUETE:\nPizza ou sushi?\nOPÇÃO: Pizza (2 votos)\nOPÇÃO: Sushi (1 voto)", D(2024, 3, 12, 21, 7)),
    ], {"João: Chego às 8"}),
    "Chat WhatsApp dengan Budi.txt": ("dashed", "dmy", "gregorian", (2, 1), [  # Indonesian: "21.05"
        ("Budi: Halo, jadi ketemu besok?", D(2024, 3, 12, 21, 5)),
        ("Sari: Jadi, jam 10", D(2024, 3, 12, 21, 6)),
    ], {"Sari: Jadi, jam 10"}),
    "android_uk.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Оксана: Привіт! Коли зустрічаємось?", D(2024, 3, 12, 21, 6)),
        ("Тарас: О сьомій", D(2024, 3, 12, 21, 7)),
    ], {"Тарас: О сьомій"}),
    "android_he.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("דני: שלום, מה נשמע?", D(2024, 3, 12, 21, 6)),
        ("נועה: הכל טוב", D(2024, 3, 12, 21, 7)),
    ], {"נועה: הכל טוב"}),
    "android_ja.txt": ("dashed", "ymd", "gregorian", (2, 1), [
        ("健太: 明日の予定は？", D(2024, 3, 12, 21, 6)),
        ("美咲: 10時に駅で", D(2024, 3, 12, 21, 7)),
    ], {"美咲: 10時に駅で"}),
    "android_zh_cn.txt": ("dashed", "ymd", "gregorian", (1, 1), [
        ("小明: 明天见", D(2024, 3, 12, 21, 5)),
        ("小红: 好的，上午十点", D(2024, 3, 12, 21, 6)),
    ], {"小红: 好的，上午十点"}),
    "ios_de.txt": ("bracketed", "dmy", "gregorian", (2, 2), [
        ("Lena: Bin gleich da", D(2024, 3, 12, 21, 5, 30)),
        ("Max: Standort: https://maps.google.com/?q=52.52,13.40", D(2024, 3, 12, 21, 6, 2)),
        ("Lena: Guten Morgen ☀️", D(2024, 3, 13, 8, 0)),
    ], {"Lena: Bin gleich da"}),
    "android_multiline_dates.txt": ("dashed", "dmy", "gregorian", (1, 0), [
        ("Ana: Plan for next week:\n13/03/2024 dentist\n14/03/2024, 10:00 meeting with Ben\n2024-03-15: call mum\n"
         "15/03/2024, 11:00 - pick up the parcel", D(2024, 3, 12, 9, 15)),  # a line shaped like a header, in the future
        ("Ben: thanks!", D(2024, 3, 12, 9, 16)),
        ("Carla: hi both", D(2024, 3, 12, 9, 18)),
    ], set()),
    "android_fa_rlm.txt": ("dashed", "ymd", "persian", (0, 1), [  # "۱۴۰۳/۱/۲۳،\u200f ۲۱:۰۵"
        ("علی: سلام، فردا می\u200cآیی؟", D(2024, 4, 11, 21, 5)),  # the ZWNJ is part of the word: kept
        ("مریم: آره، ساعت ده", D(2024, 4, 12, 8, 10)),
    ], set()),
    "ios_he_rlm.txt": ("bracketed", "dmy", "gregorian", (2, 1), [  # RTL iOS: notices start with U+200F
        ("דני: שלום, מה נשמע?", D(2024, 3, 12, 21, 6)),
        ("נועה: הכל טוב, נתראה מחר", D(2024, 3, 12, 21, 9)),
    ], set()),
    "android_utf16.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana: saved from Notepad as Unicode", D(2024, 3, 12, 9, 15)),
        ("Ben: still readable", D(2024, 3, 12, 9, 16)),
    ], set()),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layout(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen2_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_whatsapp_file_names_of_more_languages() -> None:
    assert whatsapp.thread_name("Chat WhatsApp dengan Budi.txt") == "Budi"  # Indonesian
    assert whatsapp.thread_name("Đoạn chat WhatsApp với Lan.txt") == "Lan"  # Vietnamese
    assert whatsapp.thread_name("WhatsApp Chat with Ana Lopez.txt") == "Ana Lopez"
    recs, rep = _wa(WA / "Chat WhatsApp dengan Budi.txt")
    assert rep.variant["chat"] == "Budi" and {r.thread for r in recs} == {"Budi"}


def test_whatsapp_edited_markers_are_told_by_their_words() -> None:
    for line in ("<Mensagem editada>", "<Bu mesaj düzenlendi>", "<Pesan ini diedit>", "<Se editó este mensaje.>",
                 "<Повідомлення відредаговано>", "<このメッセージは編集されました>", "<此消息已编辑>",
                 "<ההודעה נערכה>", "<This message was edited>", "<Ta wiadomość została edytowana>"):
        assert whatsapp._EDITED_RE.search(f"text {line}"), line
    for line in ("<edit this later>", "the <edited> cut", "<Media omitted>"):
        assert not whatsapp._EDITED_RE.search(f"text {line}"), line



def test_whatsapp_zip_whose_media_holds_a_contact_card_and_a_text_document(tmp_path: Path) -> None:
    src = FIX / "whatsapp_zip"
    path = _zip(tmp_path / "WhatsApp Chat with Ana.zip", {p.name: p.read_bytes() for p in sorted(src.iterdir())})
    assert detect(path) == "whatsapp"
    recs, rep = _wa(path)
    assert [(r.content, r.event_at) for r in recs] == [
        ("Ana: Here is Ben's number", D(2024, 3, 12, 9, 15)),
        ("Ana: packing list", D(2024, 3, 12, 9, 16)),  # the caption of notes.txt; the document is not the chat
        ("You: thanks", D(2024, 3, 12, 9, 17)),
    ]
    assert recs[1].metadata["media"] == ["notes.txt"] and rep.skipped_media == 1
    assert rep.variant["chat"] == "Ana"


# --- ChatGPT ----------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T1, T2, T3 = 1710234000, 1715000000, 1720000000


def _ts(t: float) -> datetime:
    return datetime.fromtimestamp(t, tz=timezone.utc)


ICELAND = [
    ("User: What should I pack for Iceland in March?", _ts(T1)),
    ("Assistant: Layers, a waterproof shell and microspikes.", _ts(T1 + 20)),  # the regenerated answer kept
    ("User: And for the car?", _ts(T1 + 30.25)),  # not the edited-away "And for the bus?"
    ("Assistant: A 4x4 for the F-roads.", _ts(T1 + 30.25)),  # no time: the one before
]
LETTER = ("Dear Mr. Silva,\n\nThe heater in flat 3B has been broken since 2 March. Could you send someone before "
          "Friday?\n\nBest regards,\nAna")
SHORT = "Dear Mr. Silva, the heater in 3B has been broken since 2 March. Please have it fixed this week. Ana"
CANVAS = [
    ("User: Draft a note to my landlord about the broken heater.", _ts(T2)),
    ("Assistant: [canvas: landlord_note]\n" + LETTER, _ts(T2 + 5)),  # the document the user sees
    ("Assistant: I've drafted the note in the canvas.", _ts(T2 + 7)),
    ("User: Make it shorter.", _ts(T2 + 60)),
    ("Assistant: [canvas: landlord_note]\n" + SHORT, _ts(T2 + 65)),  # a whole rewrite (pattern ".*")
    ("Assistant: Done, shortened.", _ts(T2 + 70)),  # a partial edit is not a document: left out
]


def _gpt(path: Path) -> tuple[list[Record], ImportReport]:
    rep = ImportReport(str(path), "chatgpt")
    return list(chatgpt.parse(path, rep)), rep


def test_chatgpt_root_last_regenerated_and_edited_branches() -> None:
    path = GPT / "regenerated_roots_last.json"
    assert detect(path) == "chatgpt"
    recs, rep = _gpt(path)
    assert [(r.content, r.event_at) for r in recs] == ICELAND
    assert rep.skipped_system == 1 and recs[1].metadata["model"] == "gpt-4o"
    assert not any("Shorts" in r.content or "bus" in r.content for r in recs)


def test_chatgpt_shared_conversation_object() -> None:
    path = GPT / "shared_conversation.json"
    assert detect(path) == "chatgpt"
    recs, _ = _gpt(path)
    assert [(r.content, r.event_at) for r in recs] == ICELAND
    assert {r.thread for r in recs} == {"share-7f3e-0001"}


def test_chatgpt_canvas_documents() -> None:
    recs, rep = _gpt(GPT / "canvas.json")
    assert [(r.content, r.event_at) for r in recs] == CANVAS
    assert [r.metadata.get("canvas") for r in recs] == [None, "landlord_note", None, None, "landlord_note", None]
    assert (rep.skipped_system, rep.skipped_tool) == (1, 2)  # the partial edit; the tool's two receipts


def test_chatgpt_uploaded_files_are_named() -> None:
    recs, rep = _gpt(GPT / "attachments.json")
    assert [(r.content, r.event_at) for r in recs] == [
        ("User: When does my lease end?\n[attachments: lease-2024.pdf]", _ts(T3)),
        ("Assistant: Your lease ends on 31 August 2025.", _ts(T3 + 5)),
    ]
    assert recs[0].metadata["attachments"] == ["lease-2024.pdf"]
    assert (rep.skipped_media, rep.skipped_tool) == (1, 1)  # the photo (an image, not a document); the file tool


def test_chatgpt_chat_html_alone_and_in_a_zip(tmp_path: Path) -> None:
    html = GPT / "chat.html"
    assert detect(html) == "chatgpt"
    recs, rep = _gpt(html)
    assert [(r.content, r.event_at) for r in recs] == ICELAND + CANVAS
    assert rep.variant["layout"] == "html"
    only = _zip(tmp_path / "export.zip", {"chat.html": html.read_bytes(), "user.json": b'{"id": "user-1"}',
                                          "message_feedback.json": b"[]"})
    assert detect(only) == "chatgpt"
    assert [(r.content, r.event_at) for r in _gpt(only)[0]] == ICELAND + CANVAS
    both = _zip(tmp_path / "full.zip", {"chat.html": html.read_bytes(),
                                        "conversations.json": (GPT / "canvas.json").read_bytes()})
    assert [(r.content, r.event_at) for r in _gpt(both)[0]] == CANVAS  # conversations.json wins: no duplicates


# --- Claude -----------------------------------------------------------------------------------

CL = FIX / "claude"


def _claude_expected() -> list[tuple[str, datetime]]:
    conv = json.loads((CL / "conversations.json").read_text(encoding="utf-8"))[0]
    lease = conv["chat_messages"][0]["attachments"][0]["extracted_content"]
    budget = conv["chat_messages"][5]["attachments"][0]["extracted_content"]
    at = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))  # noqa: E731
    return [
        (f"User: Summarise this for me\n\n[attachment: pasted text]\n{lease}", at("2024-07-01T09:00:00Z")),
        ("Assistant: The lease ends on 31 August 2025; rent is 950 EUR a month.", at("2024-07-01T09:00:20.5Z")),
        ("User: Remind me to call the landlord on Friday", at("2024-07-01T09:05:00Z")),  # a voice note's words
        ("Assistant: Added a reminder for Friday at 10:00.", at("2024-07-01T09:05:10Z")),
        (f"User: Where does my money go?\n\n[attachment: budget.csv]\n{budget[:claude.ATTACHMENT_TEXT_CHARS]} …",
         at("2024-07-01T09:10:00Z")),  # a long document: its beginning, bounded
    ]


def test_claude_thinking_voice_notes_and_attachment_text() -> None:
    path = CL / "conversations.json"
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    recs = list(claude.parse(path, rep))
    assert [(r.content, r.event_at) for r in recs] == _claude_expected()
    assert not any("find the end date" in r.content for r in recs)  # thinking is not the answer
    assert (rep.skipped_tool, rep.skipped_media) == (2, 1)
    lease = json.loads(path.read_text(encoding="utf-8"))[0]["chat_messages"][0]["attachments"][0]["extracted_content"]
    assert recs[0].metadata["attachments"][0]["chars"] == len(lease)
    # round 7: a conversation of no name is named by its user's first words
    assert (recs[0].metadata["title"], recs[0].metadata["title_from"]) == ("Summarise this for me", "first message")


def test_claude_export_directory_with_users_json(tmp_path: Path) -> None:
    export = tmp_path / "data-2024-07-02"
    shutil.copytree(CL, export)
    assert detect(export) == "claude"
    recs = list(claude.parse(export, ImportReport(str(export), "claude")))
    assert [(r.content, r.event_at) for r in recs] == _claude_expected()


# --- Markdown ---------------------------------------------------------------------------------

MD = FIX / "markdown"


def _notes(path: Path) -> tuple[dict[str, list[Record]], ImportReport]:
    rep = ImportReport(str(path), "markdown")
    by_file: dict[str, list[Record]] = {}
    for r in markdown.parse(path, rep):
        by_file.setdefault(str(r.thread), []).append(r)
    return by_file, rep


def test_obsidian_daily_note_block_refs_and_image_embeds() -> None:
    vault = MD / "obsidian_daily"
    notes, rep = _notes(vault)
    daily = notes["Daily/2024-03-14.md"]
    assert [r.content for r in daily] == [
        "Thursday: > Today\n> - [ ] Call the plumber about the boiler\n> - [x] Send invoice #42 ✅ 2024-03-14\n\n"
        "Met Oscar for lunch, see People/Oscar and the boiler saga.\nProjects/Boiler\nboiler-photo.jpg\n"
        "Decision: replace the boiler in April."]
    rec = daily[0]
    assert (rec.event_at, rec.memory_type, rec.tags) == (D(2024, 3, 14), "episodic", ["daily"])
    assert rec.links == [("markdown:People/Oscar.md:Oscar:0", "explicit"), ("markdown:Projects/Boiler.md:Boiler:0",
                                                                          "explicit")]
    assert "unresolved_links" not in rec.metadata
    assert [r.content for r in notes["People/Oscar.md"]] == ["Oscar: Plumber's friend, lunch on Thursdays."]
    assert rep.warnings == []


def test_joplin_raw_export() -> None:
    notes, _ = _notes(MD / "joplin_raw")
    assert list(notes) == ["8f3c0a6b2d1e4f5a9b7c6d5e4f3a2b1c.md"]  # the notebook (type_ 2) is no note
    [rec] = notes["8f3c0a6b2d1e4f5a9b7c6d5e4f3a2b1c.md"]
    assert rec.content == "Boiler quote: Plumber quoted 2,400 EUR for a new condensing boiler."
    assert rec.event_at == D(2024, 3, 12, 9, 15, tzinfo=timezone.utc)
    assert "parent_id" not in rec.content and "type_" not in rec.content


def test_joplin_front_matter_export() -> None:
    notes, _ = _notes(MD / "joplin_frontmatter")
    [rec] = notes["Home/Boiler quote.md"]
    assert (rec.content, rec.event_at, rec.tags) == (
        "Boiler quote: Plumber quoted 2,400 EUR.", D(2024, 3, 12, 9, 15, tzinfo=timezone.utc), ["house", "money"])


def test_bear_tags_and_textbundle() -> None:
    notes, _ = _notes(MD / "bear")
    [rec] = notes["Trip to Porto.md"]
    # round 7: a line of tags only tags the note and is no text of it
    assert rec.content == "Trip to Porto: Flights booked for 3 May, hotel near Ribeira."
    assert rec.tags == ["travel/2024", "family trip"]  # Bear's "#multi word#" tag
    bundle = MD / "bear_textbundle"
    assert detect(bundle) == "markdown"
    notes, _ = _notes(bundle)
    assert [r.content for r in notes["Trip notes.textbundle/text.markdown"]] == [
        "Trip notes: Bring the rail passes. assets/map.png"]  # round 5: a picture of the bundle reads as its file


def test_logseq_page_properties() -> None:
    notes, _ = _notes(MD / "logseq_props")
    [rec] = notes["pages/Sleep.md"]
    assert rec.content == ("Sleep: - Went to bed at 23:00, woke at 7:00\n\t- Felt rested\n"
                           "- Caffeine after 14:00 hurts my sleep")
    assert rec.tags == ["health", "habits"]
    assert rec.metadata["frontmatter"]["alias"] == "Sleep log"


def test_notion_property_lines_date_the_page() -> None:
    notes, _ = _notes(MD / "notion_props")
    [rec] = notes["Boiler replacement.md"]  # round 6: no page id in a thread
    assert rec.content == ("Boiler replacement: Created: March 12, 2024 9:15 AM\nStatus: In progress\n"
                           "Tags: House, Money\n\nPlumber comes on 2 April.")
    assert (rec.event_at, rec.tags) == (D(2024, 3, 12, 9, 15), ["House", "Money"])


def test_utf16_and_cr_only_notes() -> None:
    notes, rep = _notes(MD / "encodings")
    assert [r.content for r in notes["utf16.md"]] == ["Passwords: The wifi password is on the router."]
    assert [r.content for r in notes["classic_mac.md"]] == ["Old note: Written on a Mac in 2001."]
    assert rep.warnings == []


def test_jekyll_date_with_a_spaced_offset_and_a_front_matter_title() -> None:
    notes, _ = _notes(MD / "jekyll")
    [rec] = notes["kyoto.md"]
    assert rec.content == "Kyoto trip: Temples in the morning, Nishiki market at noon."
    assert rec.event_at == D(2024, 3, 12, 9, 15, tzinfo=timezone(timedelta(hours=9)))
    assert rec.tags == ["travel", "japan"]


NOTION_ID = "4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b"
PORTO = f"Trips {NOTION_ID}/Porto 9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d.md"


def _notion_zip(tmp_path: Path) -> Path:
    """Notion's export: a zip holding "Part-N" zips (large workspaces are split) of pages and CSVs."""
    src = MD / "notion_zip"
    part = _zip(tmp_path / "part.zip", {p.relative_to(src).as_posix(): p.read_bytes()
                                        for p in sorted(src.rglob("*")) if p.is_file()})
    return _zip(tmp_path / "Export-7f3e2a1b-0c4d-4e5f-8a9b-0c1d2e3f4a5b.zip",
                {"Export-7f3e2a1b-0c4d-4e5f-8a9b-0c1d2e3f4a5b-Part-1.zip": part.read_bytes()})


def test_notion_export_zip_of_part_zips_and_its_page_links(tmp_path: Path) -> None:
    path = _notion_zip(tmp_path)
    assert detect(path) == "markdown"
    notes, rep = _notes(path)
    # the database's row is one record holding its page (round 5: tables are read, rows are records)
    assert list(notes) == [f"Trips {NOTION_ID}.csv", "Trips.md"]  # round 6: no page id in a thread
    [trips] = notes["Trips.md"]
    assert trips.content == "Trips: Porto\n\nNext year: Lisbon again."  # a link to a page reads as its text
    assert trips.links == [(f"markdown:Trips {NOTION_ID}.csv:Porto:0", "explicit")]
    [porto] = notes[f"Trips {NOTION_ID}.csv"]
    assert porto.content == ("Trips > Porto: Created: May 3, 2024 8:00 PM\nTags: Travel\n\n"
                             "Stayed near Ribeira; the tram 1 runs along the river.")
    assert (porto.event_at, porto.tags) == (D(2024, 5, 3, 20, 0), ["Travel"])
    assert rep.variant["layout"] == "zip" and rep.warnings == []


def test_obsidian_vault_zip_with_app_files_and_a_text_attachment(tmp_path: Path) -> None:
    vault = MD / "obsidian_daily"
    members = {f"My Vault/{p.relative_to(vault).as_posix()}": p.read_bytes() for p in sorted(vault.rglob("*.md"))}
    members["My Vault/.obsidian/app.json"] = b"{}"
    members["My Vault/attachments/readme.txt"] = b"scanned receipts\n"
    path = _zip(tmp_path / "My Vault.zip", members)
    assert detect(path) == "markdown"  # a .txt among notes is no WhatsApp chat
    notes, _ = _notes(path)
    assert sorted(notes) == ["My Vault/Daily/2024-03-14.md", "My Vault/People/Oscar.md", "My Vault/Projects/Boiler.md"]
    assert [r.content for r in notes["My Vault/Daily/2024-03-14.md"]] == [
        r.content for r in _notes(vault)[0]["Daily/2024-03-14.md"]]
    assert notes["My Vault/Daily/2024-03-14.md"][0].links == [
        ("markdown:My Vault/People/Oscar.md:Oscar:0", "explicit"), ("markdown:My Vault/Projects/Boiler.md:Boiler:0",
                                                                   "explicit")]


# --- vCard ------------------------------------------------------------------------------------

VCF = FIX / "vcf"


def _cards(path: Path) -> tuple[list[Record], ImportReport]:
    assert detect(path) == "vcf"
    rep = ImportReport(str(path), "vcf")
    return list(vcf.parse(path, rep)), rep


def test_icloud_group_card_tags_its_members() -> None:
    recs, rep = _cards(VCF / "icloud_groups.vcf")
    assert [(r.content, r.tags) for r in recs] == [
        ("Contact: Ana Lopez — phone +34 600 111 222 (mobile)", ["Climbing friends"]),
        ("Contact: Ben Smith — email ben@example.org (home)", ["Climbing friends"]),  # a member listed before its card
    ]
    assert rep.skipped_system == 1 and rep.warnings == []


def test_vcard_40_group_kind_and_quoted_types() -> None:
    recs, rep = _cards(VCF / "v40_group_kind.vcf")
    assert [(r.content, r.tags) for r in recs] == [
        ("Contact: Yui Tanaka — phone +81-90-1234-5678 (cell); email yui@example.jp (work); birthday 15 April; anniversary 2015-06-20", ["Book club"])]
    assert recs[0].aliases["+819012345678"] == "Yui Tanaka" and rep.skipped_system == 1


def test_outlook_windows_1252_card_is_read_loudly() -> None:
    path = VCF / "outlook_cp1252.vcf"
    recs, rep = _cards(path)
    assert [r.content for r in recs] == [
        "Contact: Jürgen Müller — phone +49 89 123456 (work); email juergen@baeckerei.example; org Bäckerei Müller"]
    assert len(rep.warnings) == 1
    assert rep.warnings[0].startswith(f"{path}:3: not UTF-8") and rep.warnings[0].endswith("read as Windows-1252")


def test_android_nickname_row_and_custom_label() -> None:
    recs, rep = _cards(VCF / "android_21_custom.vcf")
    assert [r.content for r in recs] == [
        "Contact: Ken Nakamura — phone 090-1111-2222 (cell); phone +49 30 999 (werkstatt); nickname Kenny; reading ケン"]
    assert recs[0].aliases["Kenny"] == "Ken Nakamura" and rep.warnings == []  # round 15: X-PHONETIC-* is the reading


def test_related_names_of_apple_android_and_vcard_40() -> None:
    recs, rep = _cards(VCF / "related_names.vcf")
    assert [r.content for r in recs] == [
        "Contact: Pedro Costa — phone +351 912 345 678 (mobile); birthday 1985-02-10; "
        "related Maria Costa (spouse), Rui (brother)",
        "Contact: Ana Silva — phone +351 913 000 111 (cell); related João Silva (spouse)",  # Android's type 14
        "Contact: Lena Vogel — related Mia (child)",  # a urn:uuid relation names no one
    ]
    assert rep.warnings == []


TAKEOUT = [("Contact: Lucía Fernández — phone +34 611 222 333 (cell); email lucia@example.es (home)", ["Climbing"]),
           ("Contact: Tomás Ruiz — phone +34 912 345 678 (work)", [])]


def _takeout(tmp_path: Path) -> Path:
    return _zip(tmp_path / "takeout-20240312T091500Z-001.zip", {
        "Takeout/archive_browser.html": b"<html></html>",
        "Takeout/Contacts/All Contacts/All Contacts.vcf": (VCF / "google_takeout.vcf").read_bytes()})


def test_vcards_in_a_google_takeout_zip(tmp_path: Path) -> None:
    path = _takeout(tmp_path)
    recs, rep = _cards(path)
    assert [(r.content, r.tags) for r in recs] == TAKEOUT
    assert rep.variant["cards"] == 2


def test_every_unseen2_vcf_fixture_has_a_test() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(
        ["android_21_custom.vcf", "google_takeout.vcf", "icloud_groups.vcf", "outlook_cp1252.vcf", "related_names.vcf",
         "v40_group_kind.vcf"])


# --- end to end: mem.py import ----------------------------------------------------------------




CLI_CASES = {
    "whatsapp": (WA / "ios_en_us_nnbsp.txt", 5),
    "chatgpt": (GPT / "chat.html", len(ICELAND) + len(CANVAS)),
    "claude": (CL / "conversations.json", 5),
    "markdown": (MD / "obsidian_daily", 3),
    "vcf": (VCF / "icloud_groups.vcf", 2),
}


@pytest.mark.parametrize("kind", sorted(CLI_CASES))
def test_cli_dry_run_then_import_then_again(kind: str, tmp_path: Path) -> None:
    path, expected = CLI_CASES[kind]
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == kind and dry["data"]["memories_added"] == expected
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert real["data"]["memories_added"] == expected and real["data"]["warnings"] == []
    again = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert again["data"]["memories_added"] == 0


def test_cli_notion_zip(tmp_path: Path) -> None:
    path = _notion_zip(tmp_path)
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["data"]["format"] == "markdown" and out["data"]["memories_added"] == 2
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_cli_takeout_zip(tmp_path: Path) -> None:
    path = _takeout(tmp_path)
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["data"]["format"] == "vcf" and out["data"]["memories_added"] == 2


def test_cli_folder_mixing_a_chat_contacts_and_notes(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    shutil.copytree(FIX / "mixed", folder)
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(folder), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == "mixed"
    assert {(f["format"], Path(f["file"]).name, f["memories_added"]) for f in dry["data"]["files"]} == {
        ("whatsapp", "WhatsApp Chat with Ana.txt", 2), ("vcf", "contacts.vcf", 1), ("markdown", "exports", 1)}
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", str(folder)))
    assert real["data"]["memories_added"] == 4
    again = _envelope(run_cli("--db", str(db), "import", str(folder)))
    assert again["data"]["memories_added"] == 0


def test_cli_mixed_folder_skips_a_stray_text_loudly_and_fails_whole_on_a_broken_export(tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    shutil.copytree(FIX / "mixed", folder)
    (folder / "readme.txt").write_text("What is in this folder\n", encoding="utf-8")
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(folder), "--dry-run"))
    warnings = [w for f in out["data"]["files"] for w in f["warnings"]]
    assert warnings == [f"{folder / 'readme.txt'}: skipped: unrecognised format (tried whatsapp, chatgpt, claude, "
                        "markdown, vcf, jsonl, telegram, slack, discord, messenger, imessage, line, kakaotalk, sms, "
                        "googlechat, signal, skype, viber, wechat, threema, matrix, twitter, googlevoice, zoom, snapchat, mail, linkedin, tinder, hinge, mattermost, reddit, gemini, zulip, deepseek, grok, lechat, rocketchat, characterai, copilot, perplexity, vk, imazing, daylio, diaro): plain text with no chat header (`mem.py import markdown FILE` reads "
                        "it as a note)"]
    assert out["data"]["memories_added"] == 4
    bad = _zip(folder / "WhatsApp Chat with Bad.zip", {"_chat.txt": b"hello\nthis is no chat\n"})
    proc = run_cli("--db", str(db), "import", str(folder))
    err = _envelope(proc)
    assert proc.returncode == 1 and err["error"]["code"] == "invalid_input"
    assert err["error"]["message"].startswith(f"{bad}!_chat.txt:1: no WhatsApp message header found")
    assert not db.exists() or _count(db) == 0


BROKEN: dict[str, tuple[dict[str, bytes] | bytes, str]] = {
    "chat.html": (b"<html><body><p>Nothing exported</p></body></html>", "unrecognised format (tried whatsapp"),
    "cut.html": (b"<html><script>\nvar jsonData = [{\"title\": \"x\", \"mapping\": {\"a\": ",
                 "invalid or truncated JSON"),
    "contacts.zip": ({"Contacts/All.vcf": b"N:Nobody\n"}, "no BEGIN:VCARD ... END:VCARD block found"),
    "bad.vcf": (b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\xff\xfe\x00\r\nEND:VCARD\r\n", "binary data"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_cli_broken_export_fails_in_one_line_and_writes_nothing(name: str, tmp_path: Path) -> None:
    content, message = BROKEN[name]
    assert_broken_import_fails(tmp_path, name, content, message)


def test_broken_chat_html_names_the_file_in_the_parser(tmp_path: Path) -> None:
    path = tmp_path / "chat.html"
    path.write_bytes(BROKEN["cut.html"][0])
    with pytest.raises(ImportFormatError, match="truncated JSON") as err:
        list(chatgpt.parse(path, ImportReport(str(path), "chatgpt")))
    assert str(path) in str(err.value)
