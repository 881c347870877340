"""Round 12 of export layouts nobody here had seen (tests/fixtures/unseen12, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: iOS and Android in Arabic (Arabic-Indic digits, U+200F after each date separator), Persian
  (Solar Hijri in Persian digits, iOS and Android), Hebrew (iOS with seconds and marks, Android), Thai iOS
  (Buddhist era, seconds), Korean (iOS and Android, 오전/오후), Japanese iOS 24-hour with seconds, Chinese
  (Android zh-CN, iOS zh-TW: 上午/下午), Hindi iOS; a business account's notices; location pins, live
  location, contact cards, view-once, edited and deleted messages and a poll, Android and iOS;
* notes: Day One's plain-text export in Polish, Turkish, Greek, Ukrainian, Finnish, Hungarian, Korean and
  Japanese (weekday and month names, dotted times, 12-hour words); Google Keep Takeout pages with
  attachments, a picture-only page, pinned and archived icons, and sharees; Notion databases nested in a page
  and in a row's page (CSV beside Markdown); Bear 1 markup; an Apple Notes exporter's front matter; Joplin's
  RAW export;
* vCard: Outlook 2.1 quoted-printable in Windows-1252 with soft breaks (one before a blank line, one with
  trailing spaces, a bare QUOTED-PRINTABLE parameter), Android 2.1 UTF-8 quoted-printable broken inside a
  character and in lower-case hex, a file of cards in several code pages (ISO-8859-7, raw Windows-1251),
  2.1 base64 photos with unindented lines, Outlook.com 3.0 with CHARSET parameters;
* ChatGPT: an export's shared links tied to their conversations, a conversation saved from its share page
  (one object, linear_conversation beside the mapping), a project's archived and starred conversations;
* Claude: 2025's files_v2 (documents and pictures by file_uuid), conversations of a project (project_uuid)
  whose documents hold no text, attachments with no extracted_content key.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout, conversations, vcards
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

from importers import ImportReport, Record, claude, markdown, vcf
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen12"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"

# (layout, order, calendar, (system, media), [(content, time)])
WA_CASES: dict[str, tuple[Any, ...]] = {
    # iOS Arabic: Arabic-Indic digits, U+200F after each "/", "ص"/"م" after the time; an image omitted is media
    "ios_ar_arabic_digits.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("أحمد: العشاء الساعة الثامنة في بيت سارة", D(2024, 3, 14, 18, 1, 12)),
        ("سارة: تمام، سأحضر الحلوى", D(2024, 3, 14, 18, 2, 40)),
        ("أحمد: الباب الخلفي مفتوح", D(2024, 3, 14, 18, 5, 30)),
        ("سارة: تصبح على خير", D(2024, 3, 14, 23, 59, 59)), ("أحمد: وأنتِ بخير", D(2024, 3, 15, 0, 0, 30))],
        {"أحمد: الباب الخلفي مفتوح"}),
    "android_ar_digits.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("أحمد: العشاء الساعة الثامنة في بيت سارة", D(2024, 3, 14, 18, 1)),
        ("سارة: تمام، سأحضر الحلوى", D(2024, 3, 14, 18, 3)), ("سارة: مبكر جدًا!", D(2024, 3, 15, 0, 10))]),
    # Persian: Solar Hijri 1402/12/24 is 14 March 2024, 1403/01/01 (Nowruz) 20 March 2024
    "android_fa_persian_digits.txt": ("dashed", "ymd", "persian", (2, 1), [
        ("علی: فردا ساعت ۱۰ جلسه داریم", D(2024, 3, 14, 18, 1)), ("مریم: باشه، من می\u200cآیم", D(2024, 3, 14, 18, 4)),
        ("مریم: نوروز مبارک!", D(2024, 3, 19, 23, 59)), ("علی: سال نو مبارک", D(2024, 3, 20, 0, 1))]),
    "ios_fa_seconds.txt": ("bracketed", "ymd", "persian", (0, 1), [
        ("علی: بلیت قطار مشهد را خریدم", D(2024, 3, 14, 18, 1, 12)), ("مریم: عالی! ساعت حرکت؟", D(2024, 3, 14, 18, 3, 5)),
        ("علی: ۷ صبح", D(2024, 3, 14, 18, 4))]),
    "ios_he_rlm_seconds.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("דנה: מחר ב-10 אצל ההורים", D(2024, 3, 14, 18, 1, 40)), ("יואב: אני מביא עוגה", D(2024, 3, 14, 18, 3)),
        ("יואב: החניה ברחוב הרצל", D(2024, 3, 14, 18, 5))], {"יואב: החניה ברחוב הרצל"}),
    # Android Hebrew: the sender's name after a U+200F is the same sender
    "android_he_rtl.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("דנה: מחר ב-10 אצל ההורים", D(2024, 3, 14, 18, 2)), ("יואב: אני מביא עוגה", D(2024, 3, 14, 18, 4)),
        ("יואב: החניה ברחוב הרצל", D(2024, 3, 14, 18, 6))], {"יואב: החניה ברחוב הרצל"}),
    "ios_th_buddhist_seconds.txt": ("bracketed", "dmy", "buddhist", (1, 1), [
        ("สมชาย: พรุ่งนี้เจอกันที่สยามตอนสิบโมง", D(2024, 3, 14, 18, 1, 40)), ("มาลี: ได้เลย", D(2024, 3, 14, 18, 3)),
        ("สมชาย: เลื่อนเป็นบ่ายสองนะ", D(2024, 4, 1, 9, 15))]),
    # 오전 12:05 is five past midnight, 오후 12:30 half past noon
    "ios_ko_ampm_seconds.txt": ("bracketed", "ymd", "gregorian", (1, 1), [
        ("민준: 내일 10시에 강남역에서 봐", D(2024, 3, 14, 18, 1, 40)), ("서연: 좋아", D(2024, 3, 14, 18, 3)),
        ("민준: 잘 자", D(2024, 3, 15, 0, 5)), ("서연: 점심 먹었어?", D(2024, 3, 15, 12, 30))]),
    "android_ko_ampm.txt": ("dashed", "ymd", "gregorian", (2, 1), [
        ("민준: 내일 10시에 강남역에서 봐", D(2024, 3, 14, 18, 1)), ("서연: 좋아", D(2024, 3, 14, 18, 3)),
        ("서연: 잘 자", D(2024, 3, 15, 0, 5))]),
    "ios_ja_24h_seconds.txt": ("bracketed", "ymd", "gregorian", (2, 1), [
        ("健太: 明日10時に渋谷で", D(2024, 3, 14, 18, 1, 40)), ("美咲: 了解", D(2024, 3, 14, 18, 3))]),
    "android_zh_CN_ampm.txt": ("dashed", "ymd", "gregorian", (1, 1), [
        ("李明: 明天上午十点在人民广场见", D(2024, 3, 14, 18, 1)), ("王芳: 好的", D(2024, 3, 14, 18, 3)),
        ("王芳: 晚安", D(2024, 3, 15, 0, 5)), ("李明: 午饭吃了吗", D(2024, 3, 15, 12, 15))]),
    "ios_zh_TW_ampm_seconds.txt": ("bracketed", "ymd", "gregorian", (0, 1), [
        ("小明: 明天早上十點在台北車站見", D(2024, 3, 14, 18, 1, 12)), ("小華: 好", D(2024, 3, 14, 18, 3)),
        ("小明: 晚安", D(2024, 3, 15, 0, 5))]),
    "ios_hi_ampm.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("राहुल: कल सुबह 10 बजे स्टेशन पर मिलते हैं", D(2024, 3, 14, 18, 1, 40)), ("प्रिया: ठीक है 👍", D(2024, 3, 14, 18, 3)),
        ("प्रिया: शुभ रात्रि", D(2024, 3, 15, 0, 5))]),
    # Meta's notices of a business chat (secure service, "is a business account", a number change) are no one's
    "android_en_business_notices.txt": ("dashed", "dmy", "gregorian", (5, 0), [
        ("Lisbon Bikes: Hi! Your e-bike is booked for Saturday 16 March, 09:00-13:00.", D(2024, 3, 14, 10, 1)),
        ("Ana: Great, can I add a child seat?", D(2024, 3, 14, 10, 3)),
        ("Lisbon Bikes: Yes, child seat added (5 EUR).", D(2024, 3, 14, 10, 5)), ("Ana: Thanks!", D(2024, 3, 14, 10, 7))]),
    # Decision (as rounds 1-6): a location pin is the person's words (where to meet), kept with its link; a live
    # location is a notice; a contact card and a view-once message are media; a poll is kept as written
    "android_en_pins_cards.txt": ("dashed", "dmy", "gregorian", (1, 3), [
        ("Ana: Meet me here", D(2024, 3, 14, 18, 1)),
        ("Ana: location: https://maps.google.com/?q=38.7139,-9.1334", D(2024, 3, 14, 18, 1)),
        ("Ana: That's Carla, she has the keys", D(2024, 3, 14, 18, 4)), ("Ben: I'm at the corner", D(2024, 3, 14, 18, 6)),
        ("Ana: POLL:\nDinner where?\nOPTION: Tasca do Chico (2 votes)\nOPTION: Home (0 votes)", D(2024, 3, 14, 18, 8))],
        {"Ben: I'm at the corner"}),
    "ios_en_pins_cards_24h.txt": ("bracketed", "dmy", "gregorian", (1, 2), [
        ("Ana: Meet me here", D(2024, 3, 14, 18, 1, 5)),
        ("Ana: Location: https://maps.google.com/?q=38.7139,-9.1334", D(2024, 3, 14, 18, 1, 20)),
        ("Ana: That's Carla, she has the keys", D(2024, 3, 14, 18, 4)), ("Ben: I'm at the corner", D(2024, 3, 14, 18, 6))],
        {"Ben: I'm at the corner"}),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_12(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen12_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _dayone(journal: str, entries: list[tuple[str, datetime, list[str]]]) -> list[tuple[Any, ...]]:
    return [(f"{journal}.txt", f"{journal}: {text}", when, tags) for text, when, tags in entries]


# Decision: Day One's plain-text export keeps its field names in English (Date, Location, Weather, Tags) and
# writes the date in the app's language, with or without the weekday, "at" in that language ("o", "στις",
# "klo", "о"), dotted or 12-hour times: the written date is read by the language's own month names (CLDR), not
# only where dateparser reads it; the zone abbreviation is dropped and the local time kept (round 11)
NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    "dayone_text_pl": _dayone("Dziennik", [
        ("Dzień liczby pi. Upiekliśmy szarlotkę z dziećmi.\n[place: Kraków, Polska]", D(2024, 3, 14, 21, 10),
         ["rodzina", "pieczenie"]),
        ("Bilety do Zakopanego kupione: 89 zł od osoby.", D(2024, 3, 15, 8, 5), []),
        ("Gubałówka o zachodzie słońca, bez kolejki.\n[place: Zakopane, Polska]", D(2024, 4, 1, 19, 30), ["podróże"])]),
    "dayone_text_tr": _dayone("Günlük", [
        ("Annemle Moda sahilinde yürüdük.\n[place: Kadıköy, İstanbul, Türkiye]", D(2024, 3, 14, 21, 10), ["aile"]),
        ("Kapadokya balon turu için 150 EUR kapora ödendi.", D(2024, 3, 15, 8, 5), []),
        ("Yeni ofise taşındık: Levent, 12. kat.", D(2024, 4, 2, 19, 30), ["iş"])]),
    "dayone_text_el": _dayone("Ημερολόγιο", [
        ("Φτιάξαμε πίτα με τα παιδιά.\n[place: Θεσσαλονίκη, Ελλάδα]", D(2024, 3, 14, 21, 10), ["οικογένεια"]),
        ("Εισιτήρια για Μετέωρα: 25 EUR το άτομο.", D(2024, 3, 15, 8, 5), []),
        ("Μετέωρα: ανεβήκαμε στη Μεγάλη Μετέωρο.", D(2024, 4, 2, 12, 30), ["ταξίδια"])]),
    "dayone_text_uk": _dayone("Щоденник", [
        ("Спекли пиріг з дітьми.\n[place: Львів, Україна]", D(2024, 3, 14, 21, 10), ["родина"]),
        ("Квитки до Ужгорода куплено: 620 грн.", D(2024, 3, 15, 8, 5), []),
        ("Ужгородський замок, сакури ще не цвітуть.", D(2024, 4, 2, 19, 30), ["подорожі"])]),
    "dayone_text_fi": _dayone("Päiväkirja", [
        ("Leivoimme piirakan lasten kanssa.\n[place: Tampere, Suomi]", D(2024, 3, 14, 21, 10), ["perhe"]),
        ("Junaliput Rovaniemelle ostettu: 89 EUR.", D(2024, 3, 15, 8, 5), []),
        ("Revontulia Rovaniemellä klo 23.", D(2024, 4, 2, 19, 30), ["matkat"])]),
    "dayone_text_hu": _dayone("Napló", [
        ("Pitét sütöttünk a gyerekekkel.\n[place: Szeged, Magyarország]", D(2024, 3, 14, 21, 10), ["család"]),
        ("Vonatjegy Egerbe megvéve: 4200 Ft.", D(2024, 3, 15, 8, 5), []),
        ("Egri vár naplementében.", D(2024, 4, 2, 19, 30), ["utazás"])]),
    "dayone_text_ko": _dayone("일기", [
        ("아이들과 파이를 구웠다.\n[place: 서울, 대한민국]", D(2024, 3, 14, 21, 10), ["가족"]),
        ("부산행 KTX 예매: 59,800원.", D(2024, 3, 15, 8, 5), []), ("해운대에서 점심.", D(2024, 4, 2, 12, 30), ["여행"])]),
    "dayone_text_ja": _dayone("日記", [
        ("子どもたちとパイを焼いた。\n[place: 京都市, 日本]", D(2024, 3, 14, 21, 10), ["家族"]),
        ("大阪行きの切符を購入: 1,450円。", D(2024, 3, 15, 8, 5), []), ("嵐山で昼ごはん。", D(2024, 4, 2, 12, 30), ["旅行"])]),
    # Keep Takeout pages: the attachments (a picture, a recording, a PDF) are named in the metadata, not the text;
    # a page of a picture only is media; pinned and archived icons mark the note (as the JSON's flags do)
    "keep_html_attachments": [
        ("Takeout/Keep/Flat viewing.html", "Flat viewing: Rua do Bonfim 12, 2nd floor: bright, needs a new kitchen.\n"
         "Landlord Sr. Amaral.", D(2024, 3, 14, 8, 0), ["Flat hunt"]),
        ("Takeout/Keep/Old ideas.html", "Old ideas: Paint the hallway sage green", D(2023, 5, 19, 7, 6, 40), []),
        ("Takeout/Keep/Plumber.html", "Plumber: Oscar, 912 345 678", D(2024, 3, 15, 18, 0), [])],
    # the people a page is shared with are no text: their addresses (from the title attribute, a mailto link or
    # the text) go to metadata["shared_with"], the owner left out
    "keep_html_sharees": [
        ("Takeout/Keep/Gate codes.html", "Gate codes: Garage: 4821\nFront door: 1357", D(2024, 3, 14, 10, 0), ["Zuhause"]),
        ("Takeout/Keep/Shared shopping.html", "Shared shopping: - [x] eggs\n- [ ] olive oil", D(2024, 3, 14, 7, 7, 40), [])],
    # Decision: a database in a page reads under the page, as a sub-page does (round 6): "Home > Projects >
    # Kitchen"; a database in a row's page under that row; a link to a database's CSV reads as its name
    "notion_nested_db": [
        ("Home.md", "Home: Everything about the flat.\n\nProjects", None, []),
        ("Home/Projects", "Home > Projects > Kitchen: Status: In progress\nBudget: 8000\n\nNew worktop and tiles; fitter "
         "is Sr. Amaral.\n\nTasks", None, []),
        ("Home/Projects", "Home > Projects > Bathroom: Status: Planned\nBudget: 3500", None, []),
        ("Home/Projects/Kitchen/Tasks", "Home > Projects > Kitchen > Tasks > Order tiles: Done: Yes\nDue: March 20, 2024\n\n"
         "Zellige, 6 m², from Viúva Lamego.", None, []),
        ("Home/Projects/Kitchen/Tasks", "Home > Projects > Kitchen > Tasks > Book the fitter: Done: No\nDue: April 2, 2024",
         None, [])],
    # Bear 1 ("Polar Bear" markup): ::highlight:: is a mark, not a Dataview field; a struck ~value~ stays as written
    "bear_polar_markup": [
        ("Kitchen quotes.md", "Kitchen quotes: - Fitter A: 4,200 EUR incl. worktop\n- Fitter B: ~5,100 EUR~ 4,800 EUR after "
         "a call\n\nDecision by Friday 22 March.", None, ["home/kitchen", "quotes 2024"])],
    "apple_notes_exporter": [
        ("Notes/Kitchen/Tile order.md", 'Tile order: Zellige 10x10, 6 m², colour "verde".\nDelivery on 28 March.',
         D(2024, 3, 14, 9, 15), [])],
    # Joplin's RAW export: one <id>.md per item, its properties after the text; a folder and a tag are no notes
    "joplin_raw": [
        ("a1b2c3d4e5f60718293a4b5c6d7e8f90.md", "Boiler service: Oscar comes every March; last service 14 March 2024, "
         "85 EUR.", D(2024, 3, 14, 9, 15), ["heating"])],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


def _thread(name: str, rec: Record) -> str:
    """The thread as the cases write it: a Notion table's path without ids and suffix."""
    if name != "notion_nested_db" or not rec.thread or rec.thread.endswith(".md"):
        return rec.thread or ""
    return "/".join(p.rsplit(" ", 1)[0] for p in rec.thread.removesuffix(".csv").split("/"))


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_12(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    got = [(_thread(name, r), r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == []
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen12_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


def test_keep_pages_name_their_attachments_flags_and_sharees() -> None:
    recs, rep = _notes(NOTES / "keep_html_attachments")
    meta = {r.metadata["title"]: r.metadata for r in recs}
    assert meta["Flat viewing"].get("attachments") == ["1f0e2a3b4c.jpg", "1f0e2a3b4d.3gp"]
    assert meta["Flat viewing"].get("pinned") is True and "archived" not in meta["Flat viewing"]
    assert meta["Old ideas"].get("archived") is True and "attachments" not in meta["Old ideas"]
    assert meta["Plumber"].get("attachments") == ["3c4d5e6f7a.pdf"]
    assert (rep.skipped_media, rep.skipped_empty) == (1, 0)  # the receipt: a picture only
    recs, _ = _notes(NOTES / "keep_html_sharees")
    assert [r.metadata.get("shared_with") for r in recs] == [
        ["carla.dias@example.com", "dan@example.org"], ["ben.silva@example.com"]]


def test_joplin_raw_note_is_titled_by_its_title_not_its_id() -> None:
    recs, _ = _notes(NOTES / "joplin_raw")
    assert recs[0].metadata["title"] == "Boiler service"


def test_written_dates_of_many_languages() -> None:
    """The written-date reader behind Day One's text export, Keep pages and front matter: month names of any
    language CLDR knows (genitive forms too), weekdays ignored, 12-hour words, dotted times; numeric dates of no
    month name stay unread (their order is ambiguous)."""
    read = markdown.written_date
    cases = {
        "Πέμπτη, 14 Μαρτίου 2024 στις 9:10:00 μ.μ.": D(2024, 3, 14, 21, 10),
        "14. maaliskuuta 2024 klo 21.10.00": D(2024, 3, 14, 21, 10),
        "2024年3月14日 21:10:00": D(2024, 3, 14, 21, 10),
        "2024년 3월 14일 목요일 오후 9:10:00": D(2024, 3, 14, 21, 10),
        "14 de março de 2024 às 21:10:00": D(2024, 3, 14, 21, 10),
        "14 March 2024 at 9:10:00 PM": D(2024, 3, 14, 21, 10),
        "2024. március 14., csütörtök 21:10:00": D(2024, 3, 14, 21, 10),
        "14 Μαρτίου 2024": D(2024, 3, 14),
    }
    assert {k: read(k) for k in cases} == cases
    assert read("14/03/2024 21:10") is None and read("yesterday at 9") is None and read("x" * 10_000) is None


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

VCF_CASES: dict[str, list[tuple[str, list[str]]]] = {
    # Decision: a line break inside a street ("=0D=0A" in a 2.1 ADR) reads as ", "; a soft break before a blank
    # line, or followed by spaces, ends the value (the "=" is no text)
    "outlook_21_qp_soft.vcf": [(
        "Contact: João Gonçalves — phone +351 222 000 111 (work); email joao@canalizacoes.example; org Canalizações Lda; "
        "address Rua do Bonfim 12, 2.º andar, Porto, 4000-123, Portugal; note Canalizador de confiança. Chave do portão "
        "com a vizinha do 1.º Não aceita cartão, só dinheiro.", [])],
    "android_21_qp_split.vcf": [
        ("Contact: Иван Петров — phone +7 916 123-45-67 (cell); note Сосед сверху, кв. 12", []),
        ("Contact: Γιώργος Παπαδόπουλος — phone +30 694 123 4567 (cell)", [])],
    # each property in the code page its CHARSET names: the file as a whole is in none
    "mixed_charsets_21.vcf": [
        ("Contact: Μαρία Ιωάννου — phone +30 697 000 1111 (cell)", []),
        ("Contact: Ольга Смирнова — phone +7 495 000-11-22 (home); note Соседка, поливает цветы", [])],
    # vCard 2.1 ends a base64 value with a blank line: its lines need no indent
    "photo_21_unindented.vcf": [
        ("Contact: Rui Lima — phone +351 917 222 333 (cell); note Coach of the under-12 team", []),
        ("Contact: Ines Melo — email ines@melo.example", [])],
    "outlook_30_charset.vcf": [(
        "Contact: Beatriz Rocha — phone +351 225 000 222 (work); email beatriz.rocha@escola.example; org Escola Primária "
        "n.º 3; title Professora; note Turma do Tomás, 2.º ano", [])],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_12(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [(r.content, r.tags) for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_every_unseen12_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000  # 2025-10-09 08:53:20 UTC


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {  # path: [(content, time, thread)]
    "shared_links": [
        ("User: Recipe for caldo verde for 4?", _t(1), "c12a0001"),
        ("Assistant: 500 g potatoes, 200 g couve galega, 1 chouriço, olive oil, garlic, salt.", _t(3), "c12a0001"),
        ("User: Is the 28 tram running on Sunday?", _t(100), "c12a0002"),
        ("Assistant: Yes, every 15 minutes from Martim Moniz.", _t(102), "c12a0002"),
        ("User: A gift for a 10-year-old who likes drawing?", _t(200), "c12a0003"),
        ("Assistant: A set of brush pens and a sketchbook.", _t(202), "c12a0003")],
    # a conversation saved from its share page: one object, not a list; linear_conversation repeats the mapping
    "share_page/Sintra day trip.json": [
        ("User: Plan a day in Sintra without a car", _t(1), "c12a0004"),
        ("Assistant: Train from Rossio at 9:11, bus 434 to Pena, then Quinta da Regaleira after lunch.", _t(3), "c12a0004"),
        ("User: Is the Moorish Castle worth it?", _t(10), "c12a0004"), ("Assistant: Yes, for the view; allow an hour.", _t(12), "c12a0004")],
    "project_archived": [
        ("User: How many m² of tiles for a 2.4 x 2.5 m floor with 10% spare?", _t(1), "c12a0005"),
        ("Assistant: 6.6 m².", _t(2), "c12a0005"), ("User: Grout colour for green zellige?", _t(50), "c12a0006"),
        ("Assistant: Off-white or light grey.", _t(52), "c12a0006")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_12(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen12_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted({n.split("/")[0] for n in GPT_CASES})


# Decision: a shared link is the conversation's, not a memory: its address goes to the metadata of the
# conversation's messages (https://chatgpt.com/share/<id>), whether shared anonymously or not
def test_chatgpt_shared_links_are_tied_to_their_conversations() -> None:
    recs, _ = conversations(GPT / "shared_links")
    share = "https://chatgpt.com/share/68e7a1b2-0000-8000-aaaa-00000000000"
    assert [r.metadata.get("shared_url") for r in recs] == [share + "1"] * 2 + [None] * 2 + [share + "3"] * 2


# Decision: an archived conversation is the user's, kept and marked (as Keep's archived notes are); a starred one
# is marked too; both stay in their project
def test_chatgpt_archived_and_starred_conversations_are_marked() -> None:
    recs, _ = conversations(GPT / "project_archived")
    assert [(r.metadata.get("archived"), r.metadata.get("starred"), r.metadata.get("gizmo")) for r in recs] == \
        [(True, None, "g-p-68e7aa00bb")] * 2 + [(None, True, "g-p-68e7aa00bb")] * 2


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


def _claude(name: str) -> tuple[list[Record], ImportReport]:
    path = CLAUDE / name
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep)), rep


CLAUDE_CASES: dict[str, tuple[list[str], tuple[int, int, int]]] = {  # folder: ([content], (media, empty, seen))
    # files_v2 names documents as "files" did (in the text), pictures are media named in the metadata
    "files_v2": ([
        "User: Which quote is cheaper?\n[attachments: quote_A.pdf, quote_B.pdf]",
        "Assistant: Quote B: 4,800 EUR against 5,100 EUR.", "Assistant: That is the worktop sample: oak, 40 mm."],
        (1, 0, 4)),
    # a project's document of no text (nothing was read from the upload) is none; the conversations name the project
    "project_conversations": ([
        "User: Oak or quartz for the worktop?", "Assistant: Quartz: it needs no oiling and fits the 1,200 EUR budget.",
        "User: Rain on Saturday in Porto?", "Assistant: Showers in the morning, dry after 14:00.",
        "Claude project Kitchen: Kitchen renovation, 2025", "Claude project Kitchen instructions: Answer in metric units.",
        "Claude project Kitchen, document budget.md: Worktop 1,200 EUR\nTiles 600 EUR"], (0, 1, 8)),
    # attachments with no extracted_content key are named, as those of an empty one are (round 11)
    "attachments_no_content": ([
        "User: Add these up\n[attachments: receipt1.heic, receipts.xlsx]",
        "Assistant: I can't read the HEIC photo; the spreadsheet's total is 142.50 EUR.", "User: [attachments: receipt2.pdf]",
        "Assistant: That one is 18.20 EUR: 160.70 EUR in all."], (0, 0, 4)),
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_12(name: str) -> None:
    recs, rep = _claude(name)
    expected, (media, empty, seen) = CLAUDE_CASES[name]
    assert [r.content for r in recs] == expected
    assert (rep.skipped_media, rep.skipped_empty, rep.messages_seen, rep.warnings) == (media, empty, seen, [])
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen12_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


def test_claude_files_v2_are_named_in_the_metadata() -> None:
    """As "files" are (round 11): every file's name in the metadata; the message of a picture only is media."""
    recs, _ = _claude("files_v2")
    assert [r.metadata.get("files") for r in recs] == [["quote_A.pdf", "quote_B.pdf"], None, None]


# Decision: a conversation of a project (project_uuid) names it in its metadata, by projects.json's name; the
# export's file order does not matter (conversations.json is read before projects.json)
def test_claude_project_conversations_name_their_project() -> None:
    recs, _ = _claude("project_conversations")
    assert [r.metadata.get("project") for r in recs[:4]] == ["Kitchen", "Kitchen", None, None]


# --- the CLI, bad input, hostile input ------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "ios_ar_arabic_digits.txt", 5), (NOTES / "dayone_text_el", 3), (NOTES / "keep_html_attachments", 3),
    (NOTES / "notion_nested_db", 5), (VCF / "mixed_charsets_21.vcf", 2), (GPT / "shared_links", 6),
    (CLAUDE / "project_conversations", 7)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added and out["data"]["warnings"] == [], out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_a_cut_share_page_is_one_line_naming_the_file(tmp_path: Path) -> None:
    data = (GPT / "share_page" / "Sintra day trip.json").read_bytes()
    assert_broken_import_fails(tmp_path, "conversations.json", data[: len(data) // 2], "invalid or truncated JSON")


def test_hostile_keep_page_deep_nesting_and_a_huge_line(tmp_path: Path) -> None:
    """100,000 nested divs and 20,000 sharees in a Keep page (under its 4 MB cap): read in linear
    time, no recursion, the people capped."""
    keep = tmp_path / "Takeout" / "Keep"
    keep.mkdir(parents=True)
    page = (NOTES / "keep_html_sharees" / "Takeout" / "Keep" / "Gate codes.html").read_text(encoding="utf-8")
    deep = "<div>\n" * 100_000 + "deep" + "</div>\n" * 100_000
    many = "".join(f"<li class=\"sharee\" title=\"p{i}@example.com\">p{i}</li>\n" for i in range(20_000))
    (keep / "Deep.html").write_text(page.replace("Front door: 1357", "Front door: 1357" + deep).replace(
        '<li class="sharee">', many + '<li class="sharee">', 1), encoding="utf-8")
    recs, rep = _notes(tmp_path)
    assert recs[0].content.startswith("Gate codes: Garage: 4821\nFront door: 1357")
    assert len(recs[0].metadata["shared_with"]) <= 1000


def test_hostile_dayone_dates_and_qp_soft_breaks_do_not_hang(tmp_path: Path) -> None:
    """A Date field of 3,000 dates (48 KB); a vCard whose quoted-printable value is 200,000 soft breaks: each
    read in bounded work (the written-date reader looks at no more than a field's first 200 characters)."""
    text = "\tDate:\t" + "14 Μαρτίου 2024 " * 3_000 + "\n\nWords.\n"
    (tmp_path / "journal").mkdir()
    (tmp_path / "journal" / "Journal.txt").write_text(text, encoding="utf-8")
    recs, _ = _notes(tmp_path / "journal")
    assert recs and recs[-1].content.endswith("Words.") and all(r.event_at is None for r in recs)
    card = b"BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Ana\r\nNOTE;ENCODING=QUOTED-PRINTABLE:" + b"ab=\r\n" * 200_000 + \
        b"end\r\nEND:VCARD\r\n"
    (tmp_path / "c.vcf").write_bytes(card)
    rep = ImportReport(str(tmp_path / "c.vcf"), "vcf")
    recs = list(vcf.parse(tmp_path / "c.vcf", rep))
    assert len(recs) == 1 and recs[0].content.startswith("Contact: Ana")


# Written after this round's code (round 11 left it open): an org-journal whose days are headed in another
# language; the weekday, by its CLDR name, tells the day from the month as the English one does
@pytest.mark.parametrize(("thursday", "friday"), [
    ("Donnerstag", "Freitag"), ("czwartek", "piątek"), ("Πέμπτη", "Παρασκευή"), ("jeudi", "vendredi")])
def test_org_journal_days_headed_in_other_languages(thursday: str, friday: str, tmp_path: Path) -> None:
    (tmp_path / "journal").mkdir()
    (tmp_path / "journal" / "2024-03.org").write_text(
        f"#+TITLE: März 2024\n\n* {thursday}, 14.03.24\n** 09:15 Klempner\nOscar kam wegen des Ventils.\n"
        f"* {friday}, 05.04.24\n** 10:00 Bank\nTermin verschoben.\n", encoding="utf-8")
    recs, _ = _notes(tmp_path)
    assert [_naive(r.event_at) for r in recs] == [D(2024, 3, 14, 9, 15), D(2024, 4, 5, 10, 0)]
    # a heading whose word is no weekday (or the wrong one) dates nothing
    (tmp_path / "journal" / "2024-03.org").write_text(
        f"* Anna, 14.03.24\n** 09:15 Klempner\nOscar.\n* {friday}, 14.03.24\n** 10:00 Bank\nTermin.\n", encoding="utf-8")
    recs, _ = _notes(tmp_path)
    assert [r.event_at for r in recs] == [None, None]
