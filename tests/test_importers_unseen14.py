"""Round 14 of export layouts nobody here had seen (tests/fixtures/unseen14, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: UTF-16 chats cut one byte short (LE and BE with a BOM, LE without one), Japanese 午前/午後 with a
  space before the time, after it and in iOS brackets, Thai Buddhist years in Android's 24-hour layout, a
  Vietnamese, an Indonesian and a Brazilian group with their notices and edited markers, Hong Kong's 上午/下午,
  Hebrew with RLM marks, iOS "<attached: …>" of a document with its page count, a recording and a sticker;
* notes: Day One's text export with field names no table holds (Polish, Czech, Turkish, Greek, Hebrew, Arabic,
  Chinese, Korean), Evernote's reminders (reminder-time, reminder-done-time, an undated one), Obsidian's tag
  forms in front matter (a space-separated string, "#"-prefixed items, the old singular "tag"), Logseq's tag
  properties, Bear's closing tag line, Joplin to-dos in both its export formats (front matter, raw);
* ChatGPT: 2023 plugins (a call to a named plugin, its named tool answer), 2025 multimodal turns, search
  answers with both citation forms, a 2023 answer cut at max_tokens and continued;
* Claude: 2025 memory and Drive search tools, the analysis tool (repl), an empty content list beside the text;
* vCard: one file of 2.1, 3.0 and 4.0 cards, QUOTED-PRINTABLE soft breaks inside a character, photos of every
  version, tab-folded lines, dates of every version, a work directory's card, Windows UTF-16 cut one byte short.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, claude_chats, conversations, vcards, wa
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

FIX = Path(__file__).parent / "fixtures" / "unseen14"
D = datetime
UTC = timezone.utc
CUT = "the file ends inside a character (cut short?); the broken bytes are dropped"

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"

# (layout, order, calendar, (system, media), [(content, time)][, edited contents])
WA_CASES: dict[str, tuple[Any, ...]] = {
    # Decision: a UTF-16 chat whose last byte is odd is a copy cut short, as a UTF-8 one cut inside a character
    # (round 13): the half character is dropped with one warning naming its line, the rest read
    "android_en_utf16le_odd_tail.txt": ("dashed", "dmy", "gregorian", (1, 0), [
        ("Ana Sousa: Gas meter reading is 10432", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: Thanks, sending it now", D(2024, 3, 14, 18, 2)),
        ("Ana Sousa: Also the water: 81", D(2024, 3, 14, 18, 4))]),
    "ios_en_utf16be_odd_tail.txt": ("bracketed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Boiler service is booked for Monday", D(2024, 3, 14, 18, 1, 12)),
        ("Ben Silva: Which time?", D(2024, 3, 14, 18, 2, 40)),
        ("Ana Sousa: 9:30, Oscar is coming", D(2024, 3, 14, 18, 3, 5))]),
    "android_en_utf16le_nobom_odd_tail.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Parking permit renewed until March 2025", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: How much was it?", D(2024, 3, 14, 18, 2)),
        ("Ana Sousa: 12 EUR", D(2024, 3, 14, 18, 3))]),
    # 午前 0:05 is five past midnight, 午後 0:20 twenty past noon (the Japanese 12-hour clock counts from 0)
    "android_ja_ampm_space.txt": ("dashed", "ymd", "gregorian", (0, 1), [
        ("佐藤: 明日の会議は10時からです", D(2024, 3, 14, 18, 1)), ("田中: 了解です", D(2024, 3, 14, 18, 3)),
        ("佐藤: 資料を送りました", D(2024, 3, 15, 0, 5)), ("田中: 受け取りました\n昼休みに読みます", D(2024, 3, 15, 12, 20))]),
    "android_ja_ampm_after.txt": ("dashed", "ymd", "gregorian", (0, 0), [
        ("佐藤: 明日の会議は10時からです", D(2024, 3, 14, 18, 1)), ("田中: 了解です", D(2024, 3, 14, 18, 3)),
        ("佐藤: 資料を送りました", D(2024, 3, 15, 11, 40)), ("田中: 受け取りました", D(2024, 3, 15, 13, 15))]),
    "ios_ja_ampm_space_seconds.txt": ("bracketed", "ymd", "gregorian", (0, 1), [
        ("佐藤: 明日の会議は10時からです", D(2024, 3, 14, 18, 1, 12)), ("佐藤: 資料を送りました", D(2024, 3, 15, 0, 5, 5)),
        ("田中: 受け取りました", D(2024, 3, 15, 12, 20))]),
    "android_th_buddhist_24h.txt": ("dashed", "dmy", "buddhist", (1, 1), [
        ("สมชาย: พรุ่งนี้เจอกันที่สยามตอนสิบโมง", D(2024, 3, 14, 18, 1)), ("มาลี: ได้เลย", D(2024, 3, 14, 18, 3)),
        ("สมชาย: เลื่อนเป็นบ่ายสองนะ", D(2024, 4, 1, 9, 15))], {"มาลี: ได้เลย"}),
    # Decision: "<Bỏ qua tập tin phương tiện>" is Android's media placeholder however many words the language
    # needs: a whole-line "<...>" holding the language's word for media
    "android_vi_group.txt": ("dashed", "dmy", "gregorian", (3, 1), [
        ("Lan: Vé xe đi Đà Lạt là 350.000đ mỗi người", D(2024, 3, 14, 18, 3)),
        ("Minh: Mình đặt khách sạn rồi", D(2024, 3, 14, 18, 5)), ("Lan: Xe chạy lúc 22:00 thứ Sáu", D(2024, 3, 15, 7, 30))],
        {"Minh: Mình đặt khách sạn rồi"}),
    "android_id_group_edited.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Budi: Arisan bulan ini di rumah Bu Sari, Sabtu jam 4 sore", D(2024, 3, 14, 18, 2)),
        ("Sari: Siap, saya siapkan kue", D(2024, 3, 14, 18, 4)), ("Dewi: Saya izin datang terlambat", D(2024, 3, 15, 7, 10))],
        {"Sari: Siap, saya siapkan kue"}),
    "android_pt_BR_group_edited.txt": ("dashed", "dmy", "gregorian", (4, 1), [
        ("Carla: Churrasco sábado às 13h lá em casa", D(2024, 3, 14, 18, 2)), ("Paulo: Levo a picanha", D(2024, 3, 14, 18, 3)),
        ("Carla: Cada um paga R$ 45,00", D(2024, 3, 15, 9, 0))], {"Paulo: Levo a picanha"}),
    "android_zh_HK_ampm.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ("陳大文: 聽日幾點食飯？", D(2024, 3, 14, 18, 1)), ("李小美: 七點半，喺旺角", D(2024, 3, 14, 18, 3)),
        ("陳大文: 訂咗位", D(2024, 3, 15, 0, 10)), ("李小美: 好", D(2024, 3, 15, 12, 5))]),
    "android_he_rtl_edited.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("דנה: הטכנאי מגיע ביום ראשון ב-9", D(2024, 3, 14, 18, 2)), ("יוסי: מעולה, אני אהיה בבית", D(2024, 3, 14, 18, 3)),
        ("יוסי: הוא ביקש 350 ש\"ח", D(2024, 3, 15, 8, 10))], {"יוסי: מעולה, אני אהיה בבית"}),
    # Decision: an iOS document line ("Kitchen quote.pdf • 2 pages <attached: …>") is media as a photo is: the
    # file's name is no words of the person
    "ios_en_attached_variants.txt": ("bracketed", "dmy", "gregorian", (2, 4), [
        ("Ana Sousa: This is the quote for the kitchen", D(2024, 3, 14, 18, 2)),
        ("Ana Sousa: 4,800 EUR incl. worktop", D(2024, 3, 14, 18, 4, 10))], {"Ana Sousa: 4,800 EUR incl. worktop"}),
}

WA_WARNINGS = {"android_en_utf16le_odd_tail.txt": (":4: ", CUT), "ios_en_utf16be_odd_tail.txt": (":4: ", CUT),
               "android_en_utf16le_nobom_odd_tail.txt": (":3: ", CUT)}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_14(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name], WA_WARNINGS.get(name))


def test_every_unseen14_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_a_utf16_chat_of_one_odd_byte_is_still_no_chat(tmp_path: Path) -> None:
    """A BOM and one more byte hold no character: the file is empty of text, not a cut chat."""
    path = tmp_path / "chat.txt"
    path.write_bytes(b"\xff\xfe\x31")
    with pytest.raises(Exception, match=str(path)):
        wa(path)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _dayone(journal: str, places: tuple[str, str], tags: tuple[list[str], list[str]],
            texts: tuple[str, str, str]) -> list[tuple[Any, ...]]:
    """The three entries every Day One fixture holds: 14 March with a place, weather and tags; 15 March with
    the weather only; 1 April with a place and tags."""
    return [(f"{journal}.txt", f"{journal}: {texts[0]}\n[place: {places[0]}]", D(2024, 3, 14, 21, 10), tags[0]),
            (f"{journal}.txt", f"{journal}: {texts[1]}", D(2024, 3, 15, 8, 5), []),
            (f"{journal}.txt", f"{journal}: {texts[2]}\n[place: {places[1]}]", D(2024, 4, 1, 19, 30), tags[1])]


# Decision: Day One writes an entry's fields in one order, Date, Location, Weather, Tags, whatever their names.
# A name no table knows is placed by that order, learnt from the whole journal: a field whose values are
# temperatures ("9°C …") is the weather; an unknown field before the weather (or, with no weather anywhere,
# the first of two unknown fields) is the place, one after it the tags. Tags are split at the language's comma
# (",", Arabic "،", "、")
NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    "dayone_fields_pl": _dayone("Dziennik", ("Kraków, Polska", "Wrocław, Polska"), (["rodzina", "pieczenie"], ["podróże"]),
                                ("Upiekliśmy z dziećmi szarlotkę.", "Bilety do Wrocławia kupione: 89 zł.", "Rynek o zachodzie słońca.")),
    "dayone_fields_cs": _dayone("Deník", ("Brno, Česko", "Olomouc, Česko"), (["rodina", "pečení"], ["cestování"]),
                                ("Upekli jsme s dětmi jablečný koláč.", "Jízdenky do Olomouce koupeny: 219 Kč.",
                                 "Sloup Nejsvětější Trojice při západu slunce.")),
    "dayone_fields_tr": _dayone("Günce", ("Kadıköy, İstanbul, Türkiye", "Bursa, Türkiye"), (["aile", "tatlı"], ["gezi"]),
                                ("Çocuklarla elmalı turta yaptık.", "Bursa otobüs biletleri alındı: 450 TL.", "Uludağ'da gün batımı.")),
    "dayone_fields_el": _dayone("Ημερολόγιο", ("Θεσσαλονίκη, Ελλάδα", "Μετέωρα, Ελλάδα"), (["οικογένεια", "γλυκά"], ["ταξίδια"]),
                                ("Φτιάξαμε μηλόπιτα με τα παιδιά.", "Εισιτήρια για Καλαμπάκα: 32 EUR.", "Τα Μετέωρα στο ηλιοβασίλεμα.")),
    # no weather in any entry: the first unknown field is the place, the second the tags
    "dayone_fields_he": _dayone("יומן", ("חיפה, ישראל", "עכו, ישראל"), (["משפחה", "אפייה"], ["טיולים"]),
                                ("אפינו עוגת תפוחים עם הילדים.", "כרטיסים לעכו נקנו: 27 ש\"ח.", "החומות בשקיעה.")),
    "dayone_fields_ar": _dayone("اليوميات", ("عمّان، الأردن", "العقبة، الأردن"), (["العائلة", "الحلويات"], ["سفر"]),
                                ("خبزنا فطيرة التفاح مع الأطفال.", "تذاكر إلى العقبة: 12 دينارًا.", "البحر عند الغروب.")),
    "dayone_fields_zh_TW": _dayone("日誌", ("台北市, 台灣", "台中市, 台灣"), (["家人", "烘焙"], ["旅行"]),
                                   ("和孩子們一起烤了蘋果派。", "買了去台中的高鐵票：700元。", "高美濕地的夕陽。")),
    "dayone_fields_ko": _dayone("일기", ("부산, 대한민국", "경주, 대한민국"), (["가족", "베이킹"], ["여행"]),
                                ("아이들과 사과 파이를 구웠다.", "경주 가는 기차표 구입: 11,000원.", "해 질 녘의 첨성대.")),
    # Decision: an Evernote reminder is the note's to-do, as Evernote 10's tasks are (round 13): "[ ] Reminder
    # (due 2024-03-20 09:00 UTC)" after the text, "[x]" once done; one without a time (only its place in the
    # reminders list) is "[ ] Reminder"
    "enex_reminders": [
        ("Reminders.enex#Car inspection", "Car inspection: Garage Pinto, Rua da Alegria 40. Bring the insurance papers.\n"
         "[ ] Reminder (due 2024-03-20 09:00 UTC)", D(2024, 3, 14, 9, 15), ["car"]),
        ("Reminders.enex#Passport photos", "Passport photos: Two photos, 35x45 mm, at the kiosk by the metro.\n"
         "[x] Reminder (due 2024-03-18 09:00 UTC)", D(2024, 3, 10, 18, 0), []),
        ("Reminders.enex#Call the bank", "Call the bank: Ask about the mortgage rate.\n[ ] Reminder", D(2024, 3, 12, 12, 0), []),
        ("Reminders.enex#Old list", "Old list: Light bulbs, batteries.\n[x] Reminder", D(2024, 3, 1, 8, 0), [])],
    # Decision: front matter tags as Obsidian reads them: a string split at spaces or commas, a leading "#"
    # dropped, the old singular "tag" key as "tags"; "#2024" (digits only) is no tag in Obsidian
    "obsidian_tag_forms": [
        ("Kitchen.md", "Kitchen: Fitter comes on 20 March. #quotes/2024 #café\nBudget is 4,800 EUR, see issue #2024.", None,
         ["home", "kitchen", "quotes/2024", "café"]),
        ("Plumber.md", "Plumber: Oscar Lima, 912 345 678 #people #home/plumbing\n\nCame on 14 March for the valve: 85 EUR.",
         None, ["people", "home/plumbing"]),
        ("Tiles.md", "Tiles: Zellige 10x10 green, 6 m².", None, ["home", "Kitchen/Tiles", "renovation"])],
    "logseq_tag_forms": [
        ("journals/2024_03_14.md", "2024-03-14: - Called Oscar about the worktop #Kitchen Plan #quotes\n\t- Quartz: 1,200 EUR "
         "fitted\n- [x] Pay the deposit\n  SCHEDULED: <2024-03-20 Wed>", D(2024, 3, 14), ["Kitchen Plan", "home", "quotes"]),
        ("pages/Kitchen Plan.md", "Kitchen Plan: - Fitter: Oscar Lima, 912 345 678", None, ["home", "renovation"])],
    "bear_tag_forms": [
        ("Kitchen quotes.md", "Kitchen quotes: Quartz worktop: 1,200 EUR fitted.\nOak worktop: 900 EUR, needs oiling.\n\n"
         "#home/kitchen #to buy# #2024", None, ["home/kitchen", "to buy"])],
    # Decision: a Joplin to-do is a note with its to-do line, as Evernote's reminders: "[ ] To-do (due …)",
    # "[x]" once completed; its creation dates it (not the due date: the memory is when it was written)
    "joplin_todo_due": [
        ("Book boiler service.md", "Book boiler service: Call Oscar before Friday: 912 345 678.\n"
         "[ ] To-do (due 2024-03-20 09:00 UTC)", D(2024, 3, 14, 9, 15), ["home"]),
        ("Renew insurance.md", "Renew insurance: Fidelidade, policy 123-456, 310 EUR a year.\n[x] To-do (due 2024-03-02 09:00 UTC)",
         D(2024, 3, 1, 8, 0), [])],
    "joplin_raw_todo": [
        ("d4e5f60718293a4b5c6d7e8f90a1b2c3.md", "Book boiler service: Call Oscar before Friday: 912 345 678.\n"
         "[ ] To-do (due 2024-03-20 09:00 UTC)", D(2024, 3, 14, 9, 15), []),
        ("e5f60718293a4b5c6d7e8f90a1b2c3d4.md", "Renew insurance: Fidelidade, policy 123-456, 310 EUR a year.\n"
         "[x] To-do (due 2024-03-02 09:00 UTC; done 2024-03-02 10:00 UTC)", D(2024, 3, 1, 8, 0), []),  # round 15: when done
        ("f60718293a4b5c6d7e8f90a1b2c3d4e5.md", "Call the bank: Ask about the mortgage rate.\n[ ] To-do", D(2024, 3, 12, 12, 0), [])],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_14(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    got = [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == []
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen14_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


def test_reminders_and_todos_keep_their_due_time() -> None:
    """The due time is also the record's metadata (an ISO time in UTC), for what reads plans."""
    recs, _ = _notes(NOTES / "enex_reminders")
    assert [r.metadata.get("due") for r in recs] == ["2024-03-20T09:00:00+00:00", "2024-03-18T09:00:00+00:00", None, None]
    assert [r.metadata.get("done") for r in recs] == [None, True, None, True]
    recs, _ = _notes(NOTES / "joplin_raw_todo")
    assert [r.metadata.get("due") for r in recs] == ["2024-03-20T09:00:00+00:00", "2024-03-02T09:00:00+00:00", None]


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

VCF_CASES: dict[str, list[tuple[str, list[str]]]] = {
    "mixed_versions.vcf": [("Contact: João Gonçalves — phone +351917222333 (cell)", []),
                           ("Contact: Carla Dias — phone +351 961 111 222 (cell); email carla@clube.example", []),
                           ("Contact: Dan Lee — phone +44-7700-900123 (cell)", [])],
    "qp_soft_breaks_21.vcf": [("Contact: Inês Rocha — phone 225000444 (home); note Vizinha do 2.º esq., rega as plantas "
                               "quando vamos à aldeia. Chave da garagem: a azul na gaveta.", [])],
    "photos_every_version.vcf": [("Contact: Oscar Lima — phone +351 222 000 111 (work)", []),
                                 ("Contact: Ana Sousa — phone +351 913 000 111 (cell)", []),
                                 ("Contact: Ben Silva — phone +351 936 555 000 (cell); note Plays padel on Tuesdays", [])],
    "tab_folded_30.vcf": [("Contact: Garage Pinto — phone +351 222 333 444 (work); org Garage Pinto, Mechanics; address Rua da "
                           "Alegria 40, Porto, 4000-041, Portugal; note Car inspection every March. Ask for Sr. Pinto, not the "
                           "front desk.", [])],
    # Decision: a birthday written as midnight UTC (Apple's 3.0 "1985-03-14T00:00:00Z") is the day; X-APPLE-OMIT-YEAR's
    # placeholder year is no year
    "dates_every_version.vcf": [("Contact: Maria Sousa — birthday 14 March; anniversary 2010-06-12", []),
                                ("Contact: Carla Dias — birthday 1985-03-14", []), ("Contact: Dan Lee — birthday 2 July", [])],
    # Decision: a ROLE is what the person does, as their TITLE: kept
    "work_directory_30.vcf": [("Contact: Dr. Rita Costa — phone +351 222 077 500 (work); email rita.costa@hsa.example (work); "
                               "org Hospital de Santo António, Cardiologia; title Cardiologist; role Head of unit; nickname Ritinha", [])],
    "windows_utf16_cut.vcf": [("Contact: Oscar Lima — phone +351 912 345 678 (cell)", []),
                              ("Contact: Rita Costa — email rita.costa@hsa.example (work)", [])],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_14(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [(r.content, r.tags) for r in recs] == VCF_CASES[name]
    path = VCF / name
    assert rep.warnings == ([f"{path}:11: {CUT}"] if name == "windows_utf16_cut.vcf" else [])


def test_every_unseen14_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000


def _t(seconds: int, base: int = T) -> datetime:
    return datetime.fromtimestamp(base + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {  # path: [(content, time, thread)]
    # a plugin's call (recipient "KAYAK.searchFlights") and its answer (role tool, named) are no turns
    "plugins_2023": [("User: Find me a flight Lisbon to Funchal on 12 April", _t(1), "c14a0001"),
                     ("Assistant: TAP at 07:10 for 89 EUR.", _t(5), "c14a0001")],
    "multimodal_2025": [("User: What plant is this?", _t(1), "c14a0002"),
                        ("Assistant: A Monstera deliciosa: water it weekly.", _t(3), "c14a0002"),
                        ("Assistant: That one is a pothos.", _t(12), "c14a0002")],
    "search_citations": [("User: When does the last ferry to Cacilhas leave?", _t(1), "c14a0003"),
                         ("Assistant: The last ferry leaves Cais do Sodré at 01:40 and runs every 20 minutes at peak.", _t(4), "c14a0003"),
                         ("User: And on Sundays?", _t(20), "c14a0003"),
                         ("Assistant: On Sundays the last one is at 00:20.", _t(22), "c14a0003")],
    # Decision: an answer cut at max_tokens and continued ("Continue generating") is one answer: the next
    # assistant message on the path goes on with the same text, dated by the first
    "hidden_system_2023": [("User: Chocolate cake for 12 people: how much flour?", _t(1), "c14a0004"),
                           ("Assistant: About 360 g of flour and 300 g of sugar.", _t(3), "c14a0004")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_14(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen14_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


CLAUDE_CASES: dict[str, list[str]] = {
    # the past chats and Drive files Claude looked through are no memory of this chat
    "memory_tools": ["User: Which boiler brand did we pick last month?",
                     "Assistant: You picked the Vaillant ecoTEC, quoted at 1,900 EUR."],
    "repl_analysis": ["User: Tiles of 10x10 cm for 6 m² with 10% spare: how many?",
                      "Assistant: Let me compute that.\n\nYou need 660 tiles."],
    "empty_content_list": ["User: The new gate code is 4821", "Assistant: Noted: 4821.", "User: And the garage is 13"],
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_14(name: str) -> None:
    recs, rep = claude_chats(CLAUDE / name)
    assert [r.content for r in recs] == CLAUDE_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen14_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


# --- the CLI, bad input, hostile input ------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "android_en_utf16le_odd_tail.txt", 3), (NOTES / "dayone_fields_he", 3), (NOTES / "enex_reminders", 4),
    (NOTES / "joplin_raw_todo", 3), (VCF / "windows_utf16_cut.vcf", 2), (GPT / "hidden_system_2023", 2)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_a_utf16_chat_broken_in_the_middle_is_one_line_naming_the_file(tmp_path: Path) -> None:
    """Only the last character may be cut: an unpaired surrogate inside the text is damage no copy explains."""
    from importer_cli import assert_broken_import_fails

    body = "14/03/2024, 18:01 - Ana: hi\r\n".encode("utf-16-le") + b"\x00\xd8" + "14/03/2024, 18:02 - Ben: ok\r\n".encode("utf-16-le")
    assert_broken_import_fails(tmp_path, "WhatsApp Chat with Ana.txt", b"\xff\xfe" + body, "UTF-16")


def test_hostile_dayone_unknown_fields_are_bounded(tmp_path: Path) -> None:
    """100,000 distinct unknown field names in one journal: the order is learnt in one pass, no quadratic work."""
    (tmp_path / "j").mkdir()
    fields = "".join(f"\tPole{i}:\twartość\n" for i in range(100_000))
    (tmp_path / "j" / "Dziennik.txt").write_text(
        "\tData:\tczwartek, 14 marca 2024 o 21:10:00 CET\n" + fields + "\nSłowa.\n", encoding="utf-8")
    recs, _ = _notes(tmp_path / "j")
    assert [r.content for r in recs] == ["Dziennik: Słowa."]


def test_hostile_joplin_due_and_reminder_values(tmp_path: Path) -> None:
    """A due time of 10**30 ms, a reminder-time that is no time: no error, no to-do date."""
    src = (NOTES / "joplin_raw_todo" / "d4e5f60718293a4b5c6d7e8f90a1b2c3.md").read_text(encoding="utf-8")
    (tmp_path / "d4e5f60718293a4b5c6d7e8f90a1b2c3.md").write_text(
        src.replace("todo_due: 1710925200000", "todo_due: " + "1" * 31), encoding="utf-8")
    recs, _ = _notes(tmp_path)
    assert recs[0].content.endswith("\n[ ] To-do")
    enex = (NOTES / "enex_reminders" / "Reminders.enex").read_text(encoding="utf-8")
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "R.enex").write_text(enex.replace("20240320T090000Z", "soon"), encoding="utf-8")
    recs, _ = _notes(tmp_path / "r")
    assert recs[0].content.endswith("\n[ ] Reminder") and "due" not in recs[0].metadata


def test_dayone_weather_written_after_its_words_and_a_place_of_coordinates(tmp_path: Path) -> None:
    """Written after this round's code: the weather is told by a temperature anywhere in its value ("Pochmurno,
    9 °C"), and a place Day One gives as coordinates ("38.7223° N") is no temperature: it stays the place."""
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "Dziennik.txt").write_text(
        "\tData:\tczwartek, 14 marca 2024 o 21:10:00 CET\n\tPołożenie:\t38.7223° N, 9.1393° W\n\tPogoda:\tPochmurno, 9 °C\n"
        "\tZnaczniki:\trodzina\n\nWpis.\n\n\n\tData:\tpiątek, 15 marca 2024 o 08:05:00 CET\n\tPołożenie:\tKraków, Polska\n"
        "\tPogoda:\tDeszcz, 5 °C\n\nDrugi wpis.\n", encoding="utf-8")
    recs, _ = _notes(tmp_path / "j")
    assert [(r.content, r.tags) for r in recs] == [
        ("Dziennik: Wpis.\n[place: 38.7223° N, 9.1393° W]", ["rodzina"]),
        ("Dziennik: Drugi wpis.\n[place: Kraków, Polska]", [])]
