"""Round 17 of export layouts nobody here had seen (tests/fixtures/unseen17, written by hand from how the
apps export today or did in past versions, before any code of this round; nothing copied from a real export
or from ../shared; see its README.md):

* WhatsApp: 2013's iPhone and 2014's Windows Phone "date time: author: text" headers without a comma (US and
  UK, a 2-digit year), unsaved numbers in international formats inside direction marks, Arabic-Indic digits with
  the Arabic letter mark (CLDR 42+) and names in isolates, Hebrew iOS with embeddings, Burmese, Khmer and Thai
  digits (a Buddhist year), Turkish dotted İ in group notices, a Spanish business chat's Meta notices, a French
  community, a German event, Dutch, Indonesian and Japanese polls, Italian view-once and disappearing messages,
  a German deleted message;
* ChatGPT: 2023's DALL·E and browser tools, 2024's file search over an upload, three regenerated answers of
  which the middle one is current and goes on, o3's thoughts around a web search;
* Claude: 2025's bash tool over an attached CSV, thinking interleaved with tool calls, an unnamed chat of a
  shared project, a human turn of a picture only;
* notes: TiddlyWiki (.tid files and a JSON export), Zettlr's keywords, Zim's wiki pages, a vault of CRLF with a
  BOM and Windows-1252, Notepad's UTF-16, classic Mac CR line ends, Obsidian callouts, Bear 2, Notion's
  property lines and <aside> callouts, a Google Keep page whose date is garbled;
* vCard: Nokia's 2.1 charset and quoted-printable, several NOTE lines, birthdays without a year (4.0, 3.0,
  Android's contact_event row), Android's custom rows, a KIND:group card, Outlook's 2.1 in Windows-1252.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout, claude_chats, conversations, vcards
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen17"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"
_DINNER = ["Ana Sousa: Dinner at Rui's on Saturday at 8", "Ben Silva: I'll bring wine", "Ana Sousa: Remember the cake"]

# (layout, order, calendar, (system, media), [(content, time)][, edited contents])
WA_CASES: dict[str, tuple[Any, ...]] = {
    # Decision: the old "date time: author: text" header without a comma between date and time (iPhone 2013,
    # Windows Phone 2014) is the legacy colon layout the comma form already is
    "ios_2013_colon_us.txt": ("legacy colon", "mdy", "gregorian", (0, 0), list(zip(_DINNER, [
        D(2013, 3, 14, 18, 1, 12), D(2013, 3, 14, 18, 3, 40), D(2013, 3, 15, 9, 10, 5)]))),
    "ios_2013_colon_uk_2digit.txt": ("legacy colon", "dmy", "gregorian", (0, 0), list(zip(_DINNER, [
        D(2013, 3, 14, 18, 1, 12), D(2013, 3, 14, 18, 3, 40), D(2013, 3, 15, 9, 10, 5)]))),
    "wp_2014_colon_uk.txt": ("legacy colon", "dmy", "gregorian", (0, 0), list(zip(_DINNER, [
        D(2014, 3, 14, 18, 1, 12), D(2014, 3, 14, 18, 3, 40), D(2014, 3, 15, 9, 10, 5)]))),
    # an unsaved number is the author, as written, without the marks around it
    "android_intl_numbers.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("+44 7700 900123: Street party on Saturday from 2pm", D(2024, 3, 14, 18, 1)),
        ("+1 (415) 555-0132: I'll bring the speakers", D(2024, 3, 14, 18, 2)),
        ("+91 98765 43210: Samosas from me", D(2024, 3, 14, 18, 4)), ("+49 1512 3456789: Ich bringe Bier", D(2024, 3, 14, 18, 5))]),
    "android_ar_alm_isolates.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("أحمد: نلتقي يوم السبت الساعة العاشرة صباحاً", D(2024, 3, 14, 18, 1)), ("سارة: سأحضر القهوة", D(2024, 3, 14, 18, 4)),
        ("أحمد: ممتاز", D(2024, 3, 15, 9, 15))]),
    "ios_he_bidi.txt": ("bracketed", "dmy", "gregorian", (1, 0), [
        ("דנה: נפגשים בשבת בעשר בבוקר", D(2024, 3, 14, 18, 1, 12)), ("יוסי: אני מביא קפה", D(2024, 3, 14, 18, 3, 5)),
        ("דנה: מעולה", D(2024, 3, 15, 9, 11, 30))]),
    "android_my_digits.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("မောင်မောင်: စနေနေ့ မနက် ၁၀ နာရီ တွေ့မယ်", D(2024, 3, 14, 18, 1)), ("နှင်းဝေ: ကော်ဖီ ယူလာမယ်", D(2024, 3, 14, 18, 4)),
        ("မောင်မောင်: ကောင်းတယ်", D(2024, 3, 15, 9, 15))]),
    "android_km_digits.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("សុខា: ថ្ងៃសៅរ៍ ម៉ោង ១០ ព្រឹក ជួបគ្នានៅផ្សារ", D(2024, 3, 14, 18, 1)), ("ដារ៉ា: ខ្ញុំយកកាហ្វេមក", D(2024, 3, 14, 18, 4)),
        ("សុខា: ល្អណាស់", D(2024, 3, 15, 9, 15))]),
    "android_th_digits_buddhist.txt": ("dashed", "dmy", "buddhist", (0, 0), [
        ("สมชาย: วันเสาร์เจอกันสิบโมงเช้าที่ตลาด", D(2024, 3, 14, 18, 1)), ("มาลี: เดี๋ยวเอากาแฟไปนะ", D(2024, 3, 14, 18, 4)),
        ("สมชาย: ดีเลย", D(2024, 3, 15, 9, 15))]),
    "android_tr_group_system.txt": ("dashed", "dmy", "gregorian", (6, 0), [
        ("İsmail: Aidat toplantısı Cumartesi saat 11'de", D(2024, 3, 14, 18, 1)),
        ("Işıl Yılmaz: Ben çay getiririm", D(2024, 3, 14, 18, 4)), ("İsmail: Görüşmek üzere", D(2024, 3, 15, 9, 12))]),
    # a business's automatic greeting is its words; Meta's "secure service" and "is a business account" are notices
    "android_es_business_meta.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("Panadería Sol: ¡Hola! Gracias por escribirnos. Abrimos de 8 a 20 h.", D(2024, 3, 14, 18, 1)),
        ("Lucía: ¿Tenéis roscón el sábado?", D(2024, 3, 14, 18, 2)),
        ("Panadería Sol: Sí, encárguelo antes del viernes.", D(2024, 3, 14, 18, 5))]),
    "android_fr_community.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("Marie: Sortie au musée vendredi 22 mars, départ 9 h", D(2024, 3, 14, 18, 2)),
        ("Paul: Je peux accompagner", D(2024, 3, 14, 18, 5))]),
    # an event is kept as written, as round 9 decided for English
    "android_de_event.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Jonas: VERANSTALTUNG: Grillabend\nSamstag, 16. März 2024, 19:00\nGarten hinter Haus 3", D(2024, 3, 14, 18, 0)),
        ("Lena: Ich bringe Salat mit", D(2024, 3, 14, 18, 2)), ("Jonas: Super", D(2024, 3, 14, 18, 5))]),
    "ios_nl_poll.txt": ("bracketed", "dmy", "gregorian", (0, 0), [
        ("Sanne: PEILING:\nWanneer gaan we fietsen?\nOPTIE: Zaterdag (2 stemmen)\nOPTIE: Zondag (1 stem)", D(2024, 3, 14, 18, 1, 12)),
        ("Daan: Zaterdag is prima", D(2024, 3, 14, 18, 3, 5)), ("Sanne: Top", D(2024, 3, 15, 9, 11, 30))]),
    "ios_id_poll.txt": ("bracketed", "dmy", "gregorian", (0, 0), [
        ("Budi: POLLING:\nKapan kerja bakti?\nOPSI: Sabtu (3 suara)\nOPSI: Minggu (0 suara)", D(2024, 3, 14, 18, 1, 12)),
        ("Sari: Sabtu saja", D(2024, 3, 14, 18, 3, 5)), ("Budi: Kumpul di pos ronda", D(2024, 3, 15, 7, 30))]),
    "ios_ja_poll.txt": ("bracketed", "ymd", "gregorian", (0, 0), [
        ("健太: 投票:\n土曜日の予定\n選択肢: 公園 (2票)\n選択肢: 映画 (1票)", D(2024, 3, 14, 18, 1, 12)),
        ("美咲: 公園がいいな", D(2024, 3, 14, 18, 3, 5)), ("健太: 了解", D(2024, 3, 15, 9, 11, 30))]),
    # Android writes a view-once picture as "null": media, as round 8 decided in English
    "android_it_disappearing_viewonce.txt": ("dashed", "dmy", "gregorian", (2, 2), [
        ("Giulia: Guarda qui", D(2024, 3, 14, 18, 1)), ("Marco: Bellissimo! Dov'è?", D(2024, 3, 14, 18, 2)),
        ("Marco: Ci vediamo alle 20", D(2024, 3, 14, 18, 5))]),
    "android_de_disappearing_deleted.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("Anna: Treffen am Samstag um 10 Uhr am Markt", D(2024, 3, 14, 18, 1)), ("Paul: Ich bringe Brötchen", D(2024, 3, 14, 18, 4))]),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_17(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen17_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"

NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Decision: a TiddlyWiki tiddler (.tid: "field: value" lines, a blank line, the text) is a note: its title
    # field the title, its created field (UTC, to the millisecond) the date, its tags field ("Home [[Boiler
    # service]]": spaces part tags, brackets hold one) the tags; ''bold'' is read as Markdown's **bold**
    "tiddlywiki_tid": [
        ("Boiler.tid", "Boiler: Serviced by **Oscar** on 14 March: 85 EUR.", D(2024, 3, 14, 18, 1, 12), ["Home", "Boiler service"]),
        ("Gate code.tid", "Gate code: Garage gate: 4821", D(2024, 3, 15, 10, 0), ["Home"])],
    # the same tiddlers in TiddlyWiki's JSON export (a list of field objects); a system tiddler ("$:/...") is
    # the wiki's own state, no note
    "tiddlywiki_json": [
        ("tiddlers.json#Boiler", "Boiler: Serviced by **Oscar** on 14 March: 85 EUR.", D(2024, 3, 14, 18, 1, 12),
         ["Home", "Boiler service"]),
        ("tiddlers.json#Gate code", "Gate code: Garage gate: 4821", D(2024, 3, 15, 10, 0), ["Home"])],
    # Zettlr's front matter: keywords are its tags, the id the creation time, the title the title
    "zettlr_keywords": [
        ("20240314180112.md", "Boiler service: Oscar serviced the boiler: 85 EUR.", D(2024, 3, 14, 18, 1, 12), ["home", "boiler"])],
    # Decision: a Zim page's header lines (Content-Type, Wiki-Format, Creation-Date) are the app's: the creation
    # date dates the page; its "====== Title ======" heading and the "Created <day>" line under it repeat the
    # page's name and date: no text
    "zim_wiki": [
        ("Home/Boiler.txt", "Boiler: Serviced by **Oscar**: 85 EUR.\n[ ] book the next service", D(2024, 3, 14, 18, 1, 12), []),
        ("Home.txt", "Home: Gate code 4821", D(2024, 3, 14, 18, 0), [])],
    "crlf_bom_cp1252": [
        ("Quote.md", "Quote: Oscar’s quote: 85 € – boiler only.", None, []),
        ("Tiles.md", "Tiles: Zellige green, 6 m².", D(2024, 3, 15), ["kitchen"])],
    "utf16_notepad": [("Wifi.md", "Wifi: Password: lemon-tree-42\nRouter in the hall cupboard", None, [])],
    "cr_only": [("Bins.md", "Bins: Recycling on Tuesdays.\nGlass on Fridays.", None, [])],
    # callouts read as quotes, their type a title when they have none (round 9's decision)
    "obsidian_callouts": [("Boiler.md", "Boiler: > Pressure\n> Top up to 1.5 bar when it drops below 1.\n\n> Note\n"
                           "> Oscar: 912 345 678", None, [])],
    "bear2_export": [("Kitchen plan.md", "Kitchen plan: Quartz worktop: 1,200 EUR fitted.", None, ["home/kitchen", "renovation"])],
    "notion_md_props": [("Boiler service.md", "Boiler service: Created: March 14, 2024 6:01 PM\nTags: home, maintenance\n\n"
                         "Oscar serviced the boiler: 85 EUR.", D(2024, 3, 14, 18, 1), ["home", "maintenance"])],
    # a Notion callout (<aside>) keeps its words and its icon
    "notion_aside": [("Trip.md", "Trip: 💡 Spare key with the neighbour at number 14\n\nTrain at 09:10 from Santa Apolónia.",
                      None, [])],
    # a garbled date ("Mar 1m5, 2018") is no date, said in a warning: never a guess (it read as 1 May 2018)
    "keep_garbled_date": [("Takeout/Keep/Gate code.html", "Gate code: Garage gate: 4821", None, [])],
}

NOTE_WARNINGS = {
    "crlf_bom_cp1252": ["Quote.md:1: not UTF-8 or UTF-16 text (undecodable byte 0x92); read as Windows-1252"],
    "keep_garbled_date": ["Takeout/Keep/Gate code.html: unreadable date 'Mar 1m5, 2018'; no date"],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_17(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    got = [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == [f"{NOTES / name}: {w}" for w in NOTE_WARNINGS.get(name, [])]
    assert len({r.ref for r in recs}) == len(recs)


def test_a_zettlr_note_is_titled_by_its_front_matter() -> None:
    recs, _ = _notes(NOTES / "zettlr_keywords")
    assert [r.metadata.get("title") for r in recs] == ["Boiler service"]


def test_every_unseen17_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

VCF_CASES: dict[str, list[str]] = {
    "nokia_21_charset_qp.vcf": ["Contact: João Gonçalves — phone +351912000111 (cell); phone +351213000222 (home)"],
    # Decision: each NOTE line is a note of its own, as each TEL is a phone: not run together into one sentence
    "multiple_notes_30.vcf": ["Contact: Ana Sousa — phone +351 912 345 678 (cell); note Allergic to nuts; "
                              "note Daughter Lia born 2017"],
    "bday_no_year.vcf": ["Contact: Ben Silva — birthday 15 March", "Contact: Carla Dias — birthday 16 March"],
    # Android's contact_event row of type 3 is the birthday, here without a year ("--03-16")
    "android_event_no_year.vcf": ["Contact: Carla Dias — phone +351913222111 (cell); birthday 16 March"],
    "android_custom_rows.vcf": ["Contact: Rui Pinto — phone +351936111222 (cell); nickname Ruizinho; related Marta Pinto (spouse)"],
    # a group card is a label of its members, no contact (round 9's decision)
    "group_kind_40.vcf": ["Contact: Ana Sousa — phone +351 912 345 678 (cell)"],
    "outlook_21_ol_latin1.vcf": ["Contact: Inês Rocha — phone +351 222 333 444 (work); email ines@example.com"],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_17(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [r.content for r in recs] == VCF_CASES[name]
    assert all("not UTF-8" in w for w in rep.warnings)  # Outlook's Windows-1252 is said once
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen17_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {  # path: [(content, time, thread)]
    # DALL·E's call, its picture and its "DALL·E displayed 1 images" instruction are no words of either side
    "dalle_2023": [("User: Draw a birthday card for my niece Lia, she turns 7 and loves foxes", _t(1), "c17a0001"),
                   ("Assistant: Here is Lia's fox card, with a big 7 on the balloon.", _t(32), "c17a0001")],
    # the browser's search, its page and its quote are tool output
    "browsing_2023": [("User: When is the last ferry from Cais do Sodré to Cacilhas?", _t(1), "c17a0002"),
                      ("Assistant: The last ferry leaves Cais do Sodré at 01:20.", _t(8), "c17a0002")],
    "myfiles_2024": [("User: How much notice do I have to give on this lease?\n[attachments: lease.pdf]", _t(1), "c17a0003"),
                     ("Assistant: You must give 60 days' notice in writing.", _t(6), "c17a0003")],
    # the current node's branch is read, wherever it stands among its siblings
    "regenerated_middle_branch": [("User: Which white for a north-facing room?", _t(1), "c17a0004"),
                                  ("Assistant: A warm white such as Lime White.", _t(40), "c17a0004"),
                                  ("User: Lime White it is, 2 coats", _t(100), "c17a0004"),
                                  ("Assistant: Two coats of Lime White: about 5 litres for that room.", _t(101), "c17a0004")],
    "o3_search_thoughts": [("User: Is there a train from Lisbon to Porto after 21:00 on Sundays?", _t(1), "c17a0005"),
                           ("Assistant: Yes: the Intercidades at 21:39 from Santa Apolónia reaches Porto at 00:44.", _t(7),
                            "c17a0005")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_17(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen17_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"

CLAUDE_CASES: dict[str, list[str]] = {
    # the bash tool's call and output are the assistant's work, not its words; the attached CSV is the user's
    "bash_tool_2025": ["User: Add up my March expenses from the CSV\n\n[attachment: march.csv]\nitem,eur\nrent,900\nfood,310",
                       "Assistant: Your March expenses come to 1,210 EUR: rent 900 and food 310."],
    "interleaved_thinking": ["User: Which is cheaper to Madeira in May, TAP or easyJet?",
                             "Assistant: easyJet, from 39 EUR against TAP's 59 EUR."],
    "shared_project_noname": ["User: The school run rota: Mon Ana, Tue Ben, Wed Carla",
                              "Assistant: Noted: Mon Ana, Tue Ben, Wed Carla."],
    # a turn of a picture and no words is media (round 12's decision); the answer is kept
    "image_only_human": ["Assistant: That is a monstera; water it when the top 3 cm of soil are dry."],
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_17(name: str) -> None:
    recs, rep = claude_chats(CLAUDE / name)
    assert [r.content for r in recs] == CLAUDE_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_an_unnamed_chat_of_a_project_is_named_by_its_first_words() -> None:
    recs, _ = claude_chats(CLAUDE / "shared_project_noname")
    assert {r.metadata.get("title") for r in recs} == {"The school run rota: Mon Ana, Tue Ben, Wed Carla"}


def test_every_unseen17_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


# --- the CLI, bad input, look-alikes (written after this round's code) -----------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "ios_2013_colon_us.txt", 3), (NOTES / "tiddlywiki_tid", 2), (NOTES / "tiddlywiki_json", 2), (NOTES / "zim_wiki", 2),
    (VCF / "multiple_notes_30.vcf", 1), (NOTES / "zim_wiki" / "Home" / "Boiler.txt", 1),
    (NOTES / "tiddlywiki_tid" / "Boiler.tid", 1)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_a_log_of_stamped_lines_is_no_legacy_chat(tmp_path: Path) -> None:
    """"2024-03-13 15:00:01: server started" is a header and a colon, as the comma-less legacy layout writes, but no
    line names a sender: not a chat (refused as plain text, `import markdown` reads it as a note)."""
    log = tmp_path / "server.txt"
    log.write_text("2024-03-13 15:00:01: server started on :8080\n2024-03-13 15:00:02: cache miss for user=ana\n"
                   "2024-03-13 15:00:03: retrying\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="plain text with no chat header"):
        detect(log)


def test_a_tiddlywiki_export_cut_short_is_refused_in_one_line(tmp_path: Path) -> None:
    whole = (NOTES / "tiddlywiki_json" / "tiddlers.json").read_bytes()
    assert_broken_import_fails(tmp_path, "tiddlers.json", whole[: len(whole) // 2], "invalid or truncated JSON")


def test_a_system_or_empty_tiddler_alone_is_no_note(tmp_path: Path) -> None:
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "$__StoryList.tid").write_text("title: $:/StoryList\nlist: Boiler\n\n", encoding="utf-8")
    (tmp_path / "w" / "Empty.tid").write_text("title: Empty\ncreated: 20240314180112000\n\n", encoding="utf-8")
    (tmp_path / "w" / "Bins.tid").write_text("title: Bins\ncreated: 2024031418\n\nRecycling on //Tuesdays//, see https://x.example/a", encoding="utf-8")
    recs, _ = _notes(tmp_path / "w")
    assert [(r.content, r.event_at) for r in recs] == [("Bins: Recycling on *Tuesdays*, see https://x.example/a", None)]


def test_a_legacy_group_opening_with_notices_is_still_a_chat(tmp_path: Path) -> None:
    """Twelve "added" notices (no sender) before four messages: a quarter of the headers name a sender, enough."""
    lines = [f"14/03/13 18:00:{i:02d}: Ana added P{i}" for i in range(12)]
    lines += [f"14/03/13 18:01:{i:02d}: Ana Sousa: message {i}" for i in range(4)]
    path = tmp_path / "chat.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert detect(path) == "whatsapp"
