"""Round 18 of export layouts nobody here had seen (tests/fixtures/unseen18, written by hand from how the
apps export today or did in past versions, before any code of this round; nothing copied from a real export
or from ../shared; see its README.md):

* WhatsApp: a phone whose locale WhatsApp does not speak (Icelandic "14.3.2024", Mongolian "2024.03.14",
  Sorani Kurdish with Arabic-Indic digits: the phone's date, WhatsApp's English words), South Africa's
  "2024/03/14", 2024's placeholders on iPhone and Android (video notes, view-once voice messages, deleted
  messages of both sides, "waiting for this message", a missed call), deleted messages in Bengali, Marathi and
  Amharic, noon and midnight in 12-hour time;
* ChatGPT: a lone half of an emoji (a title cut mid-character), a tool's system_error, a current_node the
  mapping does not hold, an export zip re-zipped with its folder;
* Claude: redacted_thinking blocks, a Claude Code session (~/.claude/projects/<dir>/<session>.jsonl);
* notes: Obsidian's one-item flow list `aliases: [Atlas]`, a Day One entry with a garbled date, Notesnook's and
  Capacities' front matter, Obsidian's "date created: Thursday, March 14th 2024, 6:01:12 pm" and a date written as
  a link "[[2024-03-14]]", Amplenote's JSON comments, notes saved in Windows-1251, Windows-1250 and Shift_JIS,
  Journey's JSON entries, Google Docs' Markdown download (escapes, a base64 image reference), a Hebrew note;
* vCard: jCard (RFC 7095) and xCard (RFC 6351), an iCalendar file named .vcf, a Russian card in Windows-1251
  without a CHARSET, a GB2312 quoted-printable 2.1 card, a KIND:org card, a 4.0 ADR with a LABEL and GEO.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout, claude_chats, conversations, vcards, wa
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen18"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"
_CLUB = [("Ana Sousa: Book club moved to Thursday at 7", D(2024, 3, 14, 18, 1, 12)),
         ("Ben Silva: Thursday works, I'll bring the book", D(2024, 3, 14, 18, 7, 45)),
         ("Ana Sousa: See you Thursday", D(2024, 3, 14, 18, 10, 30))]

# (layout, order, calendar, (system, media), [(content, time)][, edited contents])
WA_CASES: dict[str, tuple[Any, ...]] = {
    # a phone in a language WhatsApp does not speak writes the phone's dates around WhatsApp's English words
    "android_is_en_words.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Jón Jónsson: Hittumst á laugardaginn klukkan 10 við höfnina", D(2024, 3, 14, 18, 1)),
        ("Guðrún Ólafsdóttir: Ég kem með kaffi", D(2024, 3, 14, 18, 4)),
        ("Jón Jónsson: Frábært, sjáumst þá", D(2024, 3, 15, 9, 15))]),
    "android_mn_ymd_dots.txt": ("dashed", "ymd", "gregorian", (1, 0), [
        ("Бат-Эрдэнэ: Бямба гаригт 10 цагт захын үүдэнд уулзъя", D(2024, 3, 14, 18, 1)),
        ("Сарангэрэл: Би кофе авчирна", D(2024, 3, 14, 18, 4)), ("Бат-Эрдэнэ: Сайн байна", D(2024, 3, 15, 9, 15))]),
    "android_ckb_en_words.txt": ("dashed", "dmy", "gregorian", (1, 0), [
        ("ئاراس: شەممە کاتژمێر ١٠ لە بازاڕ یەکتر دەبینین", D(2024, 3, 14, 18, 1)), ("شیلان: من چا دەهێنم", D(2024, 3, 14, 18, 4)),
        ("ئاراس: زۆر باشە", D(2024, 3, 15, 9, 15))]),
    "android_en_ZA_ymd_slashes.txt": ("dashed", "ymd", "gregorian", (1, 1), [
        ("Thabo Mokoena: Braai at my place on Saturday from 2pm", D(2024, 3, 14, 18, 1)),
        ("Lerato: I'll bring the boerewors", D(2024, 3, 14, 18, 3)), ("Thabo Mokoena: Lekker, see you then", D(2024, 3, 15, 9, 10))]),
    # Decision: a video note and a view-once voice message are media (as a view-once photo is); a deletion of
    # either side, "waiting for this message" and a missed call are notices; the edit mark is no word
    "ios_en_2024_placeholders.txt": ("bracketed", "mdy", "gregorian", (5, 2), _CLUB,
                                     {"Ben Silva: Thursday works, I'll bring the book"}),
    "android_en_2024_placeholders.txt": ("dashed", "dmy", "gregorian", (4, 3), [
        (c, w.replace(second=0)) for c, w in _CLUB], {"Ben Silva: Thursday works, I'll bring the book"}),
    "android_bn_deleted.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("রহিম: শনিবার সকাল ১০টায় বাজারে দেখা হবে", D(2024, 3, 14, 18, 1)), ("করিম: আমি চা নিয়ে আসব", D(2024, 3, 14, 18, 4)),
        ("রহিম: ঠিক আছে", D(2024, 3, 15, 9, 15))]),
    "android_mr_deleted.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("राहुल: शनिवारी सकाळी १० वाजता बाजारात भेटू", D(2024, 3, 14, 18, 1)), ("प्रिया: मी चहा घेऊन येते", D(2024, 3, 14, 18, 4)),
        ("राहुल: छान", D(2024, 3, 15, 9, 15))]),
    "android_am_deleted.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("አበበ: ቅዳሜ ጠዋት 4 ሰዓት ገበያ እንገናኝ", D(2024, 3, 14, 18, 1)), ("ሰላም: ቡና አመጣለሁ", D(2024, 3, 14, 18, 4)),
        ("አበበ: በጣም ጥሩ", D(2024, 3, 15, 9, 15))]),
    # 12:05 AM is five past midnight, 12:00 PM noon
    "ios_en_noon_midnight.txt": ("bracketed", "mdy", "gregorian", (0, 0), [
        ("Ana Sousa: Are you still up?", D(2024, 3, 14, 23, 58)), ("Ben Silva: Yes, finishing the slides", D(2024, 3, 15, 0, 5, 30)),
        ("Ana Sousa: Lunch at noon?", D(2024, 3, 15, 12, 0)), ("Ben Silva: Running late, 10 min", D(2024, 3, 15, 12, 45, 10))]),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_18(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen18_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"
_BOILER = "Oscar serviced the boiler: 85 EUR."

NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    "obsidian_aliases_flow": [
        ("Daily/2024-03-14.md", "2024-03-14: Call with Rita about Atlas: API frozen on Friday.", D(2024, 3, 14), []),
        ("Projects/Atlas v2.md", "Atlas v2: Launch on 2 April; Rita owns the API.", None, ["work"])],
    # a garbled date is no date, said in a warning (round 17's decision for Keep)
    "dayone_garbled_date": [("Journal.json", "Journal: Gate code changed to 4821.", None, ["home"]),
                            ("Journal.json", "Journal: Bins: recycling moved to Tuesdays.", D(2024, 3, 15, 9, 30), [])],
    # Notesnook: created_at dates the note; its tags a comma list
    "notesnook_frontmatter": [("Boiler service.md", f"Boiler service: {_BOILER}", D(2024, 3, 14, 18, 1, 12), ["home", "maintenance"]),
                              ("Gate code.md", "Gate code: Garage gate: 4821", D(2024, 3, 15, 10, 0), [])],
    # Capacities: createdAt dates the page; its tags are links to tag pages, named by them
    "capacities_props": [("Pages/Boiler service.md", f"Boiler service: {_BOILER}", D(2024, 3, 14, 18, 1, 12), ["Home", "Maintenance"])],
    # Obsidian's "Update time on edit" plugin: "date created" in words, with an ordinal
    "obsidian_date_words": [("Boiler.md", f"Boiler: {_BOILER}", D(2024, 3, 14, 18, 1, 12), ["home"])],
    # a date property written as a link to the daily note is that day
    "obsidian_linked_dates": [("Boiler.md", f"Boiler: {_BOILER}", D(2024, 3, 14), [])],
    # Amplenote's comments hold the app's JSON (a task's id, a fold): no words of the note
    "amplenote_comments": [("Boiler service.md", "Boiler service: - [ ] Book the next service with Oscar\n\nPaid 85 EUR on 14 March.",
                            None, [])],
    # Decision: a note that is not UTF-8 is read in the code page its letters make words in (Windows-1251 for
    # Russian, 1250 for Polish, Shift_JIS for Japanese), not always as Windows-1252; said in the warning
    "cp1251_russian": [("Дача.md", "Дача: Насос для колодца заменили 14 марта.\nМастер: Сергей, 8 912 345-67-89.", None, [])],
    "cp1250_polish": [("Zakupy.md", "Zakupy: Żółte płytki do łazienki — 12 m2, odbiór w środę.", None, [])],
    "shift_jis_japanese": [("買い物.md", "買い物: 牛乳、卵、パン。\n土曜日に田中さんと市場へ行く。", None, [])],
    # Decision: a Journey entry (one JSON file each) is a note: date_journal (milliseconds, UTC) dates it, its
    # address is its place, as Day One's; its HTML is read as a web page's; titled "Journey" (it has no title)
    "journey_json": [
        ("1710439272000-3fd5b2c1a9e8d7f6.json", "Journey: Hiked from Pico do Areeiro to Pico Ruivo: 3 h, cold and clear at the top.\n"
         "[place: Pico Ruivo, Madeira]", D(2024, 3, 14, 18, 1, 12), ["travel", "madeira"]),
        # (written first as "**Porto Santo**" and a blank line: a guess at how a page reads; a note page's words
        # read without bold and a line a paragraph, html_notes.to_lines, and that is the decision's reading)
        ("1710525600000-8a7b6c5d4e3f2a1b.json", "Journey: Ferry to Porto Santo at 08:00.\nBeach all afternoon.",
         D(2024, 3, 15, 18, 0), [])],
    # Google Docs' "Download as Markdown": its escapes are no text, its pictures base64 data (no words)
    "gdocs_markdown": [("Trip plan.md", "Trip plan: **Day 1:** Lisbon - Sintra, train at 09:10.\n\n**Day 2:** Cascais by bike.", None, [])],
    "rtl_hebrew": [("רשימת קניות.md", "רשימת קניות: חלב, ביצים ולחם.\nלקנות מים לשבת.", D(2024, 3, 14), ["בית"])],
}

NOTE_WARNINGS = {
    "dayone_garbled_date": ["Journal.json: unreadable date '2024-03-14T18:0l:12Z'; no date"],
    "cp1251_russian": ["Дача.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xcd); read as Windows-1251"],
    "cp1250_polish": ["Zakupy.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xaf); read as Windows-1250"],
    "shift_jis_japanese": ["買い物.md:1: not UTF-8 or UTF-16 text (undecodable byte 0x8b); read as Shift_JIS"],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_18(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    got = [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == [f"{NOTES / name}: {w}" for w in NOTE_WARNINGS.get(name, [])]
    assert len({r.ref for r in recs}) == len(recs)


def test_a_one_item_flow_list_of_aliases_names_the_note() -> None:
    """`aliases: [Atlas]`: [[Atlas]] in the daily note links to "Atlas v2"."""
    daily, atlas = _notes(NOTES / "obsidian_aliases_flow")[0]
    assert [target for target, _ in daily.links] == [atlas.ref]


def test_a_notesnook_title_comes_from_its_front_matter() -> None:
    recs, _ = _notes(NOTES / "notesnook_frontmatter")
    assert [r.metadata.get("title") for r in recs] == ["Boiler service", "Gate code"]


def test_every_unseen18_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

# Decision: jCard and xCard are vCard 4.0 in JSON and XML: read as the same cards written as .vcf
VCF_CASES: dict[str, list[str]] = {
    "jcard/contacts.json": ["Contact: Ana Sousa — phone +351-912-345-678 (cell); email ana@example.com (work); birthday 15 March",
                            "Contact: Ben Silva — phone +351-213-000-222 (home); note Plays bass, Tuesdays"],
    "xcard/contacts.xml": ["Contact: Carla Dias — phone +351-913-222-111 (cell); email carla@example.com; note Dentist, Rua Direita 4"],
    "ru_cp1251_no_charset.vcf": ["Contact: Сергей Петров — phone +7 912 345-67-89 (cell); note Сантехник, приезжал 14 марта"],
    "gb2312_qp_21.vcf": ["Contact: 张明 — phone 13800138000 (cell)"],
    "kind_org_40.vcf": ["Contact: Canalizações Lima — phone +351 213 000 222 (work)"],
    # the LABEL is the same address written for an envelope; GEO and TZ are no facts a user looks up
    "adr_label_geo_40.vcf": ["Contact: Rita Lopes — phone +351-934-000-111 (cell); address Rua do Bonfim 12, Porto, 4000-123, Portugal"],
}
VCF_WARNINGS = {"ru_cp1251_no_charset.vcf": "read as Windows-1251"}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_18(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [r.content for r in recs] == VCF_CASES[name]
    assert len(rep.warnings) == (1 if name in VCF_WARNINGS else 0), rep.warnings
    assert all(VCF_WARNINGS[name] in w for w in rep.warnings)
    assert len({r.ref for r in recs}) == len(recs)


def test_an_icalendar_file_named_vcf_is_refused_naming_the_format(tmp_path: Path) -> None:
    assert_broken_import_fails(tmp_path, "events.vcf", (VCF / "calendar_not_contacts.vcf").read_bytes(), "iCalendar")


def test_every_unseen18_vcard_fixture_has_a_case() -> None:
    names = sorted(str(p.relative_to(VCF)) for p in VCF.rglob("*") if p.is_file())
    assert names == sorted([*VCF_CASES, "calendar_not_contacts.vcf"])


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {  # path: [(content, time, thread)]
    # Decision: a lone half of a surrogate pair (an emoji cut in two) is U+FFFD, as a viewer shows it
    "lone_surrogate": [("User: Pack the hiking boots 🥾 and the rain jacket \ufffd for Pico Ruivo", _t(1), "c18a0001"),
                       ("Assistant: Boots, rain jacket, a fleece and 2 litres of water: it is cold at the top.", _t(9), "c18a0001")],
    # a tool's system_error is tool output, no words of either side
    "system_error_2024": [("User: When does the Porto Santo ferry leave Funchal on Friday?", _t(1), "c18a0002"),
                          ("Assistant: It usually leaves Funchal at 08:00 on Fridays; check the Porto Santo Line site, as I could "
                           "not reach it.", _t(12), "c18a0002")],
    # a current_node the mapping does not hold: the latest leaf, as with no current_node
    "dangling_current_node": [("User: Which grout for the shower tiles?", _t(1), "c18a0003"),
                              ("Assistant: Epoxy grout: it does not stain and needs no sealing.", _t(40), "c18a0003"),
                              ("User: Epoxy then, in light grey", _t(60), "c18a0003"),
                              ("Assistant: Light grey epoxy it is: about 2 kg for that shower.", _t(61), "c18a0003")],
    # the export's folder zipped again by the user: its files one folder down
    "rezipped_folder/ChatGPT export.zip": [("User: How often should I water a snake plant?", _t(1), "c18a0004"),
                                           ("Assistant: Every two to three weeks; less in winter.", _t(4), "c18a0004")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_18(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_a_title_cut_mid_emoji_keeps_its_words() -> None:
    recs, _ = conversations(GPT / "lone_surrogate")
    assert {r.metadata.get("title") for r in recs} == {"Packing for Madeira \ufffd"}


def test_every_unseen18_chatgpt_fixture_has_a_case() -> None:
    assert sorted(str(p.relative_to(GPT)) for p in GPT.iterdir()) == sorted(n.split("/")[0] for n in GPT_CASES)


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"
SESSION = CLAUDE / "claude_code_session" / "5f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b.jsonl"

CLAUDE_CASES: dict[str, list[str]] = {
    # redacted thinking is thinking: no words
    "redacted_thinking": ["User: Is the PR1 trail open in May?",
                          "Assistant: Yes: PR1 Vereda do Areeiro reopened in April; book the shuttle to Pico do Areeiro."],
    # Decision: a Claude Code session is a Claude conversation: the user's prompts and the assistant's words of
    # each turn (its texts between two prompts, joined as the parts of one answer); tool calls and results are
    # tool output, a slash command's lines (isMeta) none; the summary line names it
    "claude_code_session": ["User: Why does test_login fail on CI only?",
                            "Assistant: Let me read the test first.\n\nThe test reads the local hour: CI runs in UTC. Set "
                            "TZ=Europe/Lisbon in conftest.py.",
                            "User: Do it, and run the tests", "Assistant: Done: TZ is pinned and all 48 tests pass."],
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_18(name: str) -> None:
    recs, rep = claude_chats(CLAUDE / name)
    assert [r.content for r in recs] == CLAUDE_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_a_claude_code_session_is_detected_dated_and_named() -> None:
    assert detect(SESSION) == "claude" and detect(SESSION.parent) == "claude"
    recs, _ = claude_chats(SESSION)
    assert [r.event_at for r in recs] == [D(2025, 7, 14, 18, 1, 12, 345000, tzinfo=UTC), D(2025, 7, 14, 18, 1, 15, tzinfo=UTC),
                                          D(2025, 7, 14, 18, 2, 10, tzinfo=UTC), D(2025, 7, 14, 18, 3, 40, tzinfo=UTC)]
    assert {r.metadata.get("title") for r in recs} == {"Flaky login test on CI"}
    assert {r.thread for r in recs} == {"5f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"}


def test_every_unseen18_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


# --- the CLI ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (GPT / "lone_surrogate", 2), (NOTES / "cp1251_russian", 1), (NOTES / "journey_json", 2), (VCF / "jcard" / "contacts.json", 2),
    (VCF / "xcard" / "contacts.xml", 1), (SESSION, 4), (WA / "android_bn_deleted.txt", 3)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_detect_refuses_an_icalendar_file() -> None:
    with pytest.raises(ImportFormatError, match="iCalendar"):
        detect(VCF / "calendar_not_contacts.vcf")


# --- written after this round's code: code pages, bad input, the faster readers -------------------------

from importers import codepages, enex, markdown  # noqa: E402
from importers._jsonstream import _lone_surrogates  # noqa: E402

CODE_PAGE_TEXTS = [  # (language, text, the code page it was saved in)
    ("ru", "Насос для колодца заменили 14 марта. Мастер: Сергей.", "cp1251"),
    ("uk", "Привіт, я приїду в п'ятницю ввечері.", "cp1251"),
    ("bg", "Утре ще дойда с колата, ще донеса хляб и сирене.", "cp1251"),
    ("pl", "Żółte płytki do łazienki — 12 m2, odbiór w środę.", "cp1250"),
    ("cs", "Přijedu zítra ve čtvrtek, ať je to hotové. Děkuji.", "cp1250"),
    ("sk", "Zajtra prídem autom, donesiem chlieb a syr. Ďakujem, ľúbim ťa.", "cp1250"),
    ("ro", "Mâine la ora zece în piaţă; aduc cafea şi prăjituri.", "cp1250"),
    ("el", "Καλημέρα, θα έρθω αύριο το πρωί και θα φέρω το κλειδί.", "cp1253"),
    ("ja", "牛乳、卵、パン。土曜日に田中さんと市場へ行く。", "cp932"),
    ("zh", "我们明天在市场见面，他说这个东西很好。", "gb18030"),
    ("zh-TW", "我們明天在市場見面，他說這個東西很好。", "big5"),
    ("ko", "내일 시장에서 만나요. 커피 가져갈게요.", "cp949"),
    # Western code pages stay Windows-1252 (the tie's winner): nothing read otherwise than before
    ("de", "Müller: Straße gesperrt, Umleitung über die Brücke.", "cp1252"),
    ("fr", "Très bien, à demain. Le café est prêt, où es-tu ?", "cp1252"),
    ("es", "¿Mañana? Sí, llevo el jamón y la paella. ¡Olé!", "cp1252"),
    ("da", "Kære Søren, vi ses på fredag. Hilsen Åse.", "cp1252"),
    ("is", "Hittumst á laugardaginn, ég kem með kaffi. Þetta er frábært.", "cp1252"),
    ("pt", "Amanhã às 10h na praça. Não esqueças o pão, está bem? 1º andar.", "cp1252"),
]


@pytest.mark.parametrize(("lang", "text", "codec"), CODE_PAGE_TEXTS, ids=[c[0] for c in CODE_PAGE_TEXTS])
def test_the_code_page_of_an_old_file_is_the_one_its_words_are_read_in(lang: str, text: str, codec: str) -> None:
    data = text.encode(codec)
    assert data.decode(codepages.guess(data)[0]) == text


def test_an_old_chat_in_windows_1251_is_read_so_and_said(tmp_path: Path) -> None:
    """The same guess reads a WhatsApp chat (and a vCard file) re-saved as "ANSI" on a Russian Windows."""
    chat = tmp_path / "chat.txt"
    chat.write_bytes("14.03.2024, 18:01 - Сергей: Насос заменили, всё работает\n"
                     "14.03.2024, 18:05 - Ольга: Спасибо!\n".encode("cp1251"))
    recs, rep = wa(chat)
    assert [r.content for r in recs] == ["Сергей: Насос заменили, всё работает", "Ольга: Спасибо!"]
    assert len(rep.warnings) == 1 and rep.warnings[0].endswith("read as Windows-1251")


def test_a_lone_surrogate_escape_is_told_from_a_pair_and_an_escaped_backslash() -> None:
    assert _lone_surrogates(rb'"a \ud83c b"') == rb'"a \ufffd b"'
    assert _lone_surrogates(rb'"\ud83d\ude00 \udc00"') == rb'"\ud83d\ude00 \ufffd"'
    assert _lone_surrogates(rb'"\\ud83c"') == rb'"\\ud83c"'  # a backslash, then the letters "ud83c"
    assert _lone_surrogates(rb'"\\\ud83c"') == rb'"\\\ufffd"'


def test_a_surrogate_pair_cut_by_a_read_stays_one_emoji(tmp_path: Path) -> None:
    """The pair's high half ends exactly where a 64 KB read does: it waits for its low half."""
    head = '[{"title": "T", "create_time": 1760000000, "current_node": "m1", "id": "c1", "mapping": {"m1": {"id": "m1", ' \
           '"parent": null, "children": [], "message": {"id": "m1", "author": {"role": "user"}, "create_time": 1760000001, ' \
           '"content": {"content_type": "text", "parts": ["'
    pad = "x" * (65536 - len(head.encode()) - len("\\ud83d"))
    (tmp_path / "conversations.json").write_text(head + pad + '\\ud83d\\ude00"]}}}}}]', encoding="utf-8")
    recs, _ = conversations(tmp_path)
    assert recs[0].content == "User: " + pad + "😀"


@pytest.mark.parametrize(("name", "content", "message"), [
    ("s.jsonl", (SESSION.read_text(encoding="utf-8")[:1500]).encode(), "invalid JSON line of a Claude Code session"),
    ("contacts.json", b'[["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text"', "invalid jCard JSON"),
    ("contacts.json", b'["vcard", [["fn", "Ana"]]]', "a property is not [name, {parameters}, type, value]"),
    ("contacts.xml", b'<?xml version="1.0"?><vcards xmlns="urn:ietf:params:xml:ns:vcard-4.0"><vcard><fn><text>Ana',
     "invalid xCard XML"),
    ("contacts.xml", b'<?xml version="1.0"?><!DOCTYPE vcards [<!ENTITY a "ha">]><vcards xmlns="urn:ietf:params:xml:ns:'
                     b'vcard-4.0"><vcard><fn><text>&a;</text></fn></vcard></vcards>', "DTD or entity declarations"),
    ("1710439272000-3fd5b2c1a9e8d7f6.json", b'{"text": "Hiked to Pico Ruivo", "date_journal": 1710439272000, "tags": ["tra',
     "invalid Journey entry"),
])
def test_a_broken_export_of_the_new_layouts_is_refused_in_one_line(name: str, content: bytes, message: str,
                                                                   tmp_path: Path) -> None:
    assert_broken_import_fails(tmp_path, name, content, message)


def _naive_chunks(text: str) -> list[str]:
    """Round 17's _chunks (each cut copied what was left): the reference the offsets must equal."""
    size = markdown.CHUNK_CHARS
    if len(text) <= size:
        return [text]
    out: list[str] = []
    cur = ""
    for para in __import__("re").split(r"\n\s*\n", text):
        while len(para) > size:
            cut = para.rfind("\n", 0, size)
            if cut < size // 3:
                cut = para.rfind(" ", 0, size)
            if cut < size // 3:
                cut = size
            if cur:
                out.append(cur)
                cur = ""
            out.append(para[:cut].rstrip())
            para = para[cut:].lstrip()
        if cur and len(cur) + 2 + len(para) > size:
            out.append(cur)
            cur = para
        else:
            cur = f"{cur}\n\n{para}" if cur else para
    if cur.strip():
        out.append(cur)
    return [c for c in out if c.strip()]


def test_a_long_paragraph_is_cut_where_it_was() -> None:
    import random
    rng = random.Random(18)
    bits = ["a", "word ", " ", "\n", "\n\n", "  ", "x" * 60, "\u3000", "\t", "y" * 700]
    for _ in range(400):
        text = "".join(rng.choice(bits) for _ in range(rng.randint(0, 2500)))
        assert markdown._chunks(text) == _naive_chunks(text)


def test_runs_of_quiet_tags_read_as_they_did_tag_by_tag(monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    import re
    rng = random.Random(18)
    bits = ["<div>", "</div>", "<p>", "</p>", "<span>", "</span>", "<b>", "</b>", "<br/>", "<li>", "</li>", "<ul>", "</ul>",
            '<en-todo checked="true"/>', "<en-todo/>", "<td>", "</td>", "<tr>", "</tr>", " ", "\n", "word", "&amp;",
            '<div style="x">', "<DIV>", "<font color=red>", "</font>", "<hr/>", "<en-crypt>", "abc</en-crypt>", "\u00a0"]
    notes = ["".join(rng.choice(bits) for _ in range(rng.randint(0, 40))) for _ in range(1500)]
    collapsed = [enex.enml_text(n) for n in notes]
    monkeypatch.setattr(enex, "_TAG_RUN_RE", re.compile(r"(?!)"))  # every tag read by HTMLParser, one by one
    assert collapsed == [enex.enml_text(n) for n in notes]
    assert enex.enml_text("<div>" * 5000 + "Gate code 4821" + "</div>" * 5000) == "Gate code 4821"


def test_a_note_read_alone_links_its_sections_as_in_a_vault(tmp_path: Path) -> None:
    """Read once when alone: its later sections still link to the note's first record, as in a folder."""
    (tmp_path / "v").mkdir()
    note = tmp_path / "v" / "Boiler.md"
    note.write_text("# Boiler\n\nVaillant.\n\n## Service\n\nSee [[Boiler]] and [[Oscar]].\n", encoding="utf-8")
    alone, _ = _notes(note)
    (tmp_path / "v" / "Gate.md").write_text("Code 4821\n", encoding="utf-8")
    vault, _ = _notes(tmp_path / "v")
    assert [(r.content, r.links, r.metadata.get("unresolved_links")) for r in alone] == \
        [(r.content, r.links, r.metadata.get("unresolved_links")) for r in vault if r.thread == "Boiler.md"]
    assert alone[1].links == [(alone[0].ref, "explicit")]
