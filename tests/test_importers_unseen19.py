"""Round 19 of export layouts nobody here had seen (tests/fixtures/unseen19, written by hand from how the
apps export today or did in past versions, before any code of this round; nothing copied from a real export
or from ../shared; see its README.md):

* WhatsApp: chats re-saved as "ANSI" on Hungarian, Turkish, Lithuanian, Hebrew, Arabic and Thai Windows
  (Windows-1250, 1254, 1257, 1255, 1256 and 874), an iPhone in Canadian French ("18 h 01 min 12 s");
* notes: the same code pages, Croatian and Hungarian in 1250, KOI8-R (Linux) and ISO-8859-2 (Linux, Czech);
  a Mac's decomposed file names (NFD) linked by a composed [[name]]; MultiMarkdown's metadata lines; Denote's
  file names (Org front matter, and a name alone); Obsidian Web Clipper's front matter; Day One's escaped
  Markdown; Bear 2's backup (.bear2bk, a zip of TextBundles);
* vCard: iOS's birthday and anniversary without a year (year 1604, X-APPLE-OMIT-YEAR), cards in Windows-1250,
  1254 and 1257 without a CHARSET;
* ChatGPT: a GPT-5 search turn (a web.run call, its result, a final answer with citation marks);
* Claude: a Claude Code session of late 2025 (its first line a file-history snapshot; an interruption, a
  `!` shell command, a queued prompt, a compaction), a project's folder with a sub-agent's file, a claude.ai
  export zip as it is named since 2025 (data-...-batch-0000.zip, with memories.json);
* other apps' exports pointed at as folders or text: Telegram's web pages, Slack's and Messenger's folders,
  DiscordChatExporter's text, imessage-exporter's text: one line naming the app.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, claude_chats, conversations, vcards
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError
from importers.detect import detect
from importers.registry import PARSERS

FIX = Path(__file__).parent / "fixtures" / "unseen19"
D = datetime
UTC = timezone.utc
NOT_UTF8 = ":1: not UTF-8 or UTF-16 text"

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"

# (layout, order, calendar, (system, media), [(content, time)]), the code page the warning names (or None)
WA_CASES: dict[str, tuple[tuple[Any, ...], str | None]] = {
    # Decision: a chat that is not UTF-8 is read in the code page its words are written in, as a note is
    # (round 18), and the warning names it; Hungarian's ő and ű are no õ and û
    "android_hu_cp1250.txt": (("dashed", "ymd", "gregorian", (1, 1), [
        ("Kovács Győző: Szombaton tízkor találkozunk a piacon, hozok pogácsát", D(2024, 3, 14, 18, 1)),
        ("Szűcs Ildikó: Rendben, én viszem a kávét és a bögréket", D(2024, 3, 14, 18, 4)),
        ("Kovács Győző: Ő is jön, a húgom", D(2024, 3, 15, 9, 15))]), "Windows-1250"),
    "android_tr_cp1254.txt": (("dashed", "dmy", "gregorian", (0, 1), [
        ("Ayşe Yılmaz: Cumartesi saat onda pazarda buluşalım mı?", D(2024, 3, 14, 18, 1)),
        ("Oğuz Şahin: Olur, ben çay getiririm", D(2024, 3, 14, 18, 3)),
        ("Ayşe Yılmaz: Güzel, görüşürüz", D(2024, 3, 15, 9, 15))]), "Windows-1254"),
    "android_lt_cp1257.txt": (("dashed", "ymd", "gregorian", (0, 0), [
        ("Jonas Kazlauskas: Šeštadienį dešimtą susitinkame turguje prie įėjimo", D(2024, 3, 14, 18, 1)),
        ("Rūta Žukauskienė: Gerai, aš atnešiu kavos ir sūrio", D(2024, 3, 14, 18, 3)),
        ("Jonas Kazlauskas: Puiku, iki šeštadienio", D(2024, 3, 15, 9, 15))]), "Windows-1257"),
    "android_he_cp1255.txt": (("dashed", "dmy", "gregorian", (0, 0), [
        ("דוד לוי: נפגש בשבת בעשר בשוק ליד הכניסה", D(2024, 3, 14, 18, 1)), ("שרה כהן: בסדר, אני אביא קפה", D(2024, 3, 14, 18, 3)),
        ("דוד לוי: מצוין, נתראה", D(2024, 3, 15, 9, 15))]), "Windows-1255"),
    "android_ar_cp1256.txt": (("dashed", "dmy", "gregorian", (0, 0), [
        ("أحمد: سنلتقي يوم السبت في السوق الساعة العاشرة", D(2024, 3, 14, 18, 1)), ("سارة: حسنا، سأحضر القهوة", D(2024, 3, 14, 18, 4)),
        ("أحمد: ممتاز، إلى اللقاء", D(2024, 3, 15, 9, 15))]), "Windows-1256"),
    "android_th_cp874.txt": (("dashed", "dmy", "buddhist", (0, 0), [
        ("สมชาย: วันเสาร์เจอกันที่ตลาดสิบโมงนะ", D(2024, 3, 14, 18, 1)), ("มาลี: ได้เลย ฉันจะเอากาแฟไป", D(2024, 3, 14, 18, 4)),
        ("สมชาย: ดีมาก แล้วเจอกัน", D(2024, 3, 15, 9, 15))]), "Windows-874"),
    # Canadian French writes a time "18 h 01 min 12 s" (CLDR's medium time of fr_CA)
    "ios_fr_CA_h_min_s.txt": (("bracketed", "ymd", "gregorian", (1, 1), [
        ("Émilie Tremblay: Le club de lecture est déplacé à jeudi 19 h", D(2024, 3, 14, 18, 1, 12)),
        ("Marc Gagnon: Jeudi, ça me va. J'apporte le livre", D(2024, 3, 14, 18, 7, 45)),
        ("Émilie Tremblay: Parfait, à jeudi!", D(2024, 3, 15, 9, 10, 30))]), None),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_19(name: str) -> None:
    case, codec = WA_CASES[name]
    check_whatsapp_layout(WA / name, case, (NOT_UTF8, f"read as {codec}") if codec else None)


def test_every_unseen19_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"

NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    "cp1250_hungarian": [
        ("Bevásárlás.md", "Bevásárlás: Tejföl, túró és kenyér a hétvégére.\nSzerdán jön a vízvezeték-szerelő, ő hozza a csöveket; "
         "fizetés kézpénzben.", None, []),
        ("Teendők.md", "Teendők: Csütörtökön fogorvos délután négykor.\nA kulcsot Győzőnél hagytam.", None, [])],
    "cp1250_croatian": [("Kupovina.md", "Kupovina: Mlijeko, jaja i kruh za vikend.\nU srijedu dolazi vodoinstalater, donijet će "
                         "cijevi; plaćamo gotovinom, Đuro zna adresu.", None, [])],
    "cp1254_turkish": [("Alışveriş.md", "Alışveriş: Süt, yumurta ve ekmek al.\nÇarşamba günü tesisatçı geliyor; ödeme nakit olacak, "
                        "şofbeni de kontrol etsin.", None, [])],
    "cp1257_lithuanian": [("Pirkiniai.md", "Pirkiniai: Pienas, kiaušiniai ir duona.\nTrečiadienį ateis santechnikas, jis atneš "
                           "vamzdžius; mokėsime grynaisiais.", None, [])],
    "cp1255_hebrew": [("קניות.md", "קניות: חלב, ביצים ולחם.\nביום רביעי האינסטלטור מגיע, הוא מביא את הצינורות.", None, [])],
    "cp1256_arabic": [("مشتريات.md", "مشتريات: حليب وبيض وخبز.\nيوم الأربعاء يأتي السباك، وهو يحضر الأنابيب؛ الدفع نقدا.", None, [])],
    "cp874_thai": [("ซื้อของ.md", "ซื้อของ: นม ไข่ และขนมปัง\nวันพุธช่างประปาจะมา เขาจะเอาท่อมาด้วย จ่ายเงินสด", None, [])],
    "koi8r_russian": [("Дача.md", "Дача: Насос для колодца заменили в четверг.\nМастер Сергей сказал, что фильтр надо менять "
                       "каждый год.", None, [])],
    "latin2_czech": [("Nákup.md", "Nákup: Mléko, vejce a chléb na víkend.\nVe středu přijde instalatér, přiveze trubky; platíme "
                      "hotově, šek ne.", None, [])],
    # Decision: MultiMarkdown's metadata (Key: value lines, then a blank line, at the top) is front matter
    "multimarkdown_meta": [("Boiler service.md", "Boiler service: Oscar serviced the boiler: 85 EUR.", D(2024, 3, 14, 18, 1),
                            ["home", "maintenance"])],
    "denote_org": [("20240314T180112--boiler-service__home_maintenance.org", "Boiler service: Oscar serviced the boiler: 85 EUR.",
                    D(2024, 3, 14, 18, 1), ["home", "maintenance"])],
    # Decision: a Denote name alone (no front matter) says the note's date (its identifier), title (its words, as
    # written in the name) and keywords (tags)
    "denote_plain": [("20240315T100000--gate-code__home.md", "gate code: Garage gate: 4821", D(2024, 3, 15, 10, 0), ["home"])],
    # Decision: a clipping is dated the day it was clipped ("created"), not the day its page was published
    "obsidian_web_clipper": [("Clippings/How to bleed a radiator.md", "How to bleed a radiator: Turn the heating off, open the "
                              "valve a quarter turn with the key, close it when water comes out.", D(2024, 3, 14), ["clippings"])],
    # Day One's Markdown escapes punctuation ("4821\\."): the backslashes are no text
    "dayone_escapes": [("Journal.json", "Journal: Gate code changed to 4821. Bins: recycling moved to Tuesdays (not Mondays)!"
                        "\n\n- call Oscar before 10:00", D(2024, 3, 14, 18, 1, 12), ["home"])],
    # Decision: Bear 2's backup is read as its TextBundles are; Bear's info.json dates each note
    "bear2_backup": [
        ("Bear Notes 2024-03-16 at 10.00/Gate code.textbundle/text.markdown", "Gate code: Garage gate: 4821",
         D(2024, 3, 15, 10, 0), []),
        ("Bear Notes 2024-03-16 at 10.00/Kitchen plan.textbundle/text.markdown",
         "Kitchen plan: Tiles from Porcelanosa, 12 m2; Oscar fits them on 2 April.", D(2024, 3, 14, 18, 1, 12), ["home/kitchen"])],
}

NOTE_WARNINGS = {
    "cp1250_hungarian": ["Bevásárlás.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xf6); read as Windows-1250",
                         "Teendők.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xfc); read as Windows-1250"],
    "cp1250_croatian": ["Kupovina.md:2: not UTF-8 or UTF-16 text (undecodable byte 0xe6); read as Windows-1250"],
    "cp1254_turkish": ["Alışveriş.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xfc); read as Windows-1254"],
    "cp1257_lithuanian": ["Pirkiniai.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xf0); read as Windows-1257"],
    "cp1255_hebrew": ["קניות.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xe7); read as Windows-1255"],
    "cp1256_arabic": ["مشتريات.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xcd); read as Windows-1256"],
    "cp874_thai": ["ซื้อของ.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xb9); read as Windows-874"],
    "koi8r_russian": ["Дача.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xee); read as KOI8-R"],
    "latin2_czech": ["Nákup.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xe9); read as ISO-8859-2"],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


def _only(name: str) -> Path:
    """The one file of a note fixture's folder that is the export (Bear's backup), else the folder."""
    folder = NOTES / name
    backups = list(folder.glob("*.bear2bk"))
    return backups[0] if backups else folder


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_19(name: str) -> None:
    path = _only(name)
    recs, rep = _notes(path)
    got = [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == [f"{path}: {w}" for w in NOTE_WARNINGS.get(name, [])]
    assert len({r.ref for r in recs}) == len(recs)


def test_a_mac_s_decomposed_file_name_is_the_name_a_link_writes() -> None:
    """macOS wrote "Café Lisboa.md" decomposed (e + U+0301); the note's title, words and link are the composed
    "Café" the user typed and searches for."""
    cafe, plans = _notes(NOTES / "nfd_mac_names")[0]
    assert cafe.content == "Café Lisboa: Pastéis on the counter, open until 19:00."
    assert plans.content == "Plans: Saturday: coffee at Café Lisboa with Rita."
    assert plans.links == [(cafe.ref, "explicit")] and "unresolved_links" not in plans.metadata


def test_a_web_clipping_keeps_its_source() -> None:
    recs, _ = _notes(NOTES / "obsidian_web_clipper")
    assert recs[0].metadata["frontmatter"]["source"] == "https://example.com/guides/bleed-a-radiator"


def test_every_unseen19_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted([*NOTE_CASES, "nfd_mac_names"])


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

VCF_CASES: dict[str, tuple[list[str], str | None]] = {
    # Decision: iOS writes a date without a year as year 1604 (X-APPLE-OMIT-YEAR=1604): no year, as "--03-15"
    "ios_omit_year_1604.vcf": (["Contact: Ana Sousa — phone +351 912 345 678 (mobile); birthday 15 March; anniversary 20 June"],
                               None),
    "hu_cp1250_no_charset.vcf": (["Contact: Kovács Győző — phone +36 30 123 4567 (cell); note Vízvezeték-szerelő, szerdán jön"],
                                 "read as Windows-1250"),
    "tr_cp1254_no_charset.vcf": (["Contact: Oğuz Şahin — phone +90 532 123 45 67 (cell); note Tesisatçı, çarşamba geliyor"],
                                 "read as Windows-1254"),
    "lt_cp1257_no_charset.vcf": (["Contact: Rūta Žukauskienė — phone +370 612 34567 (cell); note Kaimynė, šeštadieniais turguje"],
                                 "read as Windows-1257"),
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_19(name: str) -> None:
    recs, rep = vcards(VCF / name)
    contents, warning = VCF_CASES[name]
    assert [r.content for r in recs] == contents
    assert len(rep.warnings) == (1 if warning else 0), rep.warnings
    assert all(warning and warning in w for w in rep.warnings)


def test_every_unseen19_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {
    # the web.run call and its result are tool output; the citation marks no words
    "gpt5_web_run": [("User: When does the Porto Santo ferry leave Funchal on Fridays in April?", _t(1),
                      "c19a0001-0000-4000-8000-000000000001"),
                     ("Assistant: On Fridays in April the Lobo Marinho leaves Funchal at 08:00 and returns from Porto Santo "
                      "at 19:00.", _t(9), "c19a0001-0000-4000-8000-000000000001")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_19(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen19_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"
SESSION = CLAUDE / "claude_code_snapshot_first" / "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.jsonl"
BATCH = CLAUDE / "batch_zip_2025" / "data-2025-10-15-09-00-00-batch-0000.zip"

CLAUDE_CASES: dict[Path, list[str]] = {
    # Decision: "[Request interrupted by user ...]" is Claude Code's note, a `!` shell command and its output the
    # shell's lines, a queued prompt a copy of the prompt it becomes, a compaction the tool's: no words of either side
    SESSION: ["User: Why does the cart total show 0 after a refresh?",
              "Assistant: The cart is kept in memory only; a refresh empties it. I'll store it in localStorage.",
              "User: Use sessionStorage instead, the cart should not outlive the tab",
              "Assistant: Done: the cart is saved in sessionStorage and survives a refresh, not a closed tab."],
    # a sub-agent's file (agent-<id>.jsonl, its lines all sidechain) is no conversation of its own
    CLAUDE / "claude_code_project_dir": ["User: Find where prices are rounded",
                                         "Assistant: Prices are rounded in src/money.js, roundCents(), half up to 2 decimals."],
    BATCH: ["User: How often do I feed a rye starter kept in the fridge?",
            "Assistant: Once a week: take it out, discard all but 50 g, feed 50 g rye flour and 50 g water, leave it 2 hours at "
            "room temperature, then back in the fridge.",
            "Claude memory: Ana bakes rye sourdough on Sundays."],
}


@pytest.mark.parametrize("path", sorted(CLAUDE_CASES), ids=lambda p: p.parent.name if p.is_file() else p.name)
def test_claude_layouts_of_round_19(path: Path) -> None:
    assert detect(path) == "claude"
    recs, rep = claude_chats(path)
    assert [r.content for r in recs] == CLAUDE_CASES[path]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_a_late_2025_claude_code_session_is_dated_and_named() -> None:
    recs, _ = claude_chats(SESSION)
    assert [r.event_at for r in recs] == [D(2025, 10, 14, 18, 1, 12, tzinfo=UTC), D(2025, 10, 14, 18, 1, 15, tzinfo=UTC),
                                          D(2025, 10, 14, 18, 2, tzinfo=UTC), D(2025, 10, 14, 18, 2, 9, tzinfo=UTC)]
    assert {r.metadata.get("title") for r in recs} == {"Cart lost on refresh"}


def test_every_unseen19_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(
        (p.parent if p.is_file() else p).name for p in CLAUDE_CASES)


# --- other apps' exports: one line naming the app -------------------------------------------------------

OTHER = FIX / "other"
# Refused until round 20 (one line naming the app); read since (tests/test_importers_unseen20.py): each is detected as
# its app's export and its two messages (one for the Messenger chat) become chat turns.
OTHER_CASES = {  # path: the importer that reads it
    OTHER / "telegram_html" / "ChatExport_2024-03-14": "telegram",
    OTHER / "telegram_html" / "ChatExport_2024-03-14" / "messages.html": "telegram",
    OTHER / "slack_folder": "slack",
    OTHER / "messenger_folder": "messenger",
    OTHER / "discord_txt" / "Book club - general [1234567890].txt": "discord",
    OTHER / "imessage_txt" / "+351912345678.txt": "imessage",
}


@pytest.mark.parametrize("path", sorted(OTHER_CASES), ids=lambda p: str(p.relative_to(OTHER)))
def test_another_app_s_export_is_read_since_round_20(path: Path) -> None:
    kind = detect(path)
    assert kind == OTHER_CASES[path]
    rep = ImportReport(str(path), kind)
    recs = list(PARSERS[kind].parse(path, rep))
    assert len(recs) == (1 if kind in ("messenger", "slack", "telegram") else 2) and rep.warnings == []
    assert all(r.source == kind and r.author and r.content.startswith(f"{r.author}: ") for r in recs)


def test_every_unseen19_other_fixture_has_a_case() -> None:
    assert sorted(p.name for p in OTHER.iterdir()) == sorted({p.relative_to(OTHER).parts[0] for p in OTHER_CASES})


@pytest.mark.parametrize("path", [OTHER / "slack_folder", OTHER / "telegram_html" / "ChatExport_2024-03-14"])
def test_the_cli_imports_another_app_s_folder(path: Path, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(path))
    out = _envelope(proc)
    assert proc.returncode == 0 and out["data"]["format"] == OTHER_CASES[path] and out["data"]["memories_added"] == 1, out


# --- the CLI ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "android_hu_cp1250.txt", 3), (WA / "ios_fr_CA_h_min_s.txt", 3), (NOTES / "cp1250_hungarian", 2),
    (NOTES / "bear2_backup" / "Bear Notes 2024-03-16 at 10.00.bear2bk", 2), (SESSION, 4), (BATCH, 3),
    (VCF / "ios_omit_year_1604.vcf", 1)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


# --- written after this round's code: code pages, what stays as it was, bad input ---------------------------

from importer_cli import assert_broken_import_fails, write_zip  # noqa: E402

from importers import codepages  # noqa: E402
from importers.frontmatter import front_matter  # noqa: E402
from importers.note_dates import name_parts  # noqa: E402

CODE_PAGE_TEXTS = [  # (language, text, the code page it was saved in)
    ("hu", "Holnap megyek a piacra, ő is jön. Hozok kenyeret és tejfölt, a szerelő szerdán jön.", "cp1250"),
    ("hr", "Sutra ću doći autom; donijet ću kruh i sir. Hvala, Đuro!", "cp1250"),
    ("sl", "Jutri pridem z avtom, prinesem kruh in sir. Že vem, hvala.", "cp1250"),
    ("tr", "Yarın pazara gideceğim, o da geliyor. Şimdi çay içiyoruz, hiç acele yok.", "cp1254"),
    ("lt", "Rytoj atvažiuosiu automobiliu, atvešiu duonos ir sūrio. Ačiū, iki pasimatymo.", "cp1257"),
    ("lv", "Rīt es braukšu ar mašīnu, atvedīšu maizi un sieru. Paldies, arī tev.", "cp1257"),
    ("et", "Homme tulen autoga, toon leiba ja juustu. Aitäh, kõik on hästi.", "cp1257"),
    ("he", "מחר אני מגיע עם האוטו, אביא לחם וגבינה. תודה, נתראה.", "cp1255"),
    ("ar", "غدا سآتي بالسيارة وسأحضر الخبز والجبن. شكرا لك على كل شيء.", "cp1256"),
    # (Persian in Windows-1256 writes Arabic's yeh and kaf: 1256 has not Persian's own)
    ("fa", "فردا با ماشين مي‌آيم و نان و پنير مي‌آورم. از شما ممنونم كه اين كار را كرديد.", "cp1256"),
    ("th", "พรุ่งนี้ฉันจะมาด้วยรถ และจะเอาขนมปังกับชีสมาด้วย ขอบคุณมากนะ", "cp874"),
    ("ru-koi8", "Завтра приеду на машине, привезу хлеб и сыр. Спасибо, что всё сделали.", "koi8_r"),
    ("cs-latin2", "Zítra přijedu autem, přivezu chléb a sýr. Děkuji, že jste to udělali.", "iso8859_2"),
    ("pl-latin2", "Jutro przyjadę samochodem, przywiozę chleb i ser. Dziękuję, że to zrobiłaś.", "iso8859_2"),
    # Western code pages stay Windows-1252 (the tie's winner), Icelandic's ð and þ and French's œ among them
    ("de", "Müller: Straße gesperrt, Umleitung über die Brücke. Grüße!", "cp1252"),
    ("fr", "Très bien, à demain. Le café est prêt, où es-tu ? Mon cœur, ma sœur.", "cp1252"),
    ("is", "Hittumst á laugardaginn, ég kem með kaffi. Þetta er frábært, góða nótt.", "cp1252"),
    ("fi", "Tulen huomenna autolla, tuon leipää ja juustoa. Kiitos, nähdään pian.", "cp1252"),
    ("sv", "Jag kommer i morgon med bilen, tar med bröd och ost. Tack så mycket, vi ses på fredag.", "cp1252"),
    ("nl", "Ik kom morgen met de auto, ik breng brood en kaas mee. Tot ziens, café om één uur.", "cp1252"),
    ("ca", "Demà vindré amb cotxe, portaré pa i formatge. Gràcies per tot, què en penses?", "cp1252"),
    ("pt", "Amanhã às 10h na praça. Não esqueças o pão, está bem? 1º andar, coração.", "cp1252"),
    ("es", "¿Mañana? Sí, llevo el jamón y la paella. ¡Olé! Pingüino.", "cp1252"),
]


@pytest.mark.parametrize(("lang", "text", "codec"), CODE_PAGE_TEXTS, ids=[c[0] for c in CODE_PAGE_TEXTS])
def test_the_code_page_of_an_old_file_is_the_one_its_words_are_read_in(lang: str, text: str, codec: str) -> None:
    data = text.encode(codec)
    assert data.decode(codepages.guess(data)[0]) == text


def test_stop_words_lists_stored_misread_are_read_back() -> None:
    """stop-words' Hungarian list writes "elõ" for "elő", its Turkish "þey" for "şey", its Hebrew words quoted."""
    words = codepages._stopwords()
    assert {"elő", "şey", "için", "אבל"} <= words and not {"elõ", "þey", '"אבל",'} & words


@pytest.mark.parametrize(("lines", "expected"), [
    (["Title: Boiler", "Tags: home, boiler", "", "Text"], ({"title": "Boiler", "tags": ["home", "boiler"]}, 3)),
    # words of the note that only look like metadata: an unknown key, no blank line after, no naming key, no body
    (["Note: call Oscar", "", "Text"], ({}, 0)),
    (["Title: Boiler", "Oscar comes in April"], ({}, 0)),
    (["Author: Ana", "", "Text"], ({}, 0)),
    (["Title: Boiler", ""], ({}, 0)),
    (["Date: 14 March", "Where: Porto", "", "Text"], ({}, 0)),
])
def test_multimarkdown_metadata_is_known_keys_then_a_blank_line(lines: list[str], expected: tuple[dict[str, Any], int]) -> None:
    assert front_matter(lines) == expected


@pytest.mark.parametrize(("stem", "expected"), [
    ("20240314T180112--boiler-service__home_maintenance", ("boiler service", D(2024, 3, 14, 18, 1, 12), ["home", "maintenance"])),
    ("20240314T180112==1a--boiler", ("boiler", D(2024, 3, 14, 18, 1, 12), [])),
    ("20240314T180112__home", ("20240314T180112__home", D(2024, 3, 14, 18, 1, 12), ["home"])),
    ("20241399T250000--boiler", ("20241399T250000--boiler", None, [])),  # no such day: no date, the name kept
    ("202403141801 Boiler", ("Boiler", D(2024, 3, 14, 18, 1), [])),  # a Zettelkasten id, as before
    ("Boiler", ("Boiler", None, [])),
])
def test_a_denote_name_says_date_title_and_keywords(stem: str, expected: tuple[str, datetime | None, list[str]]) -> None:
    assert name_parts(stem) == expected


def test_a_bear_note_with_a_broken_info_json_is_read_undated(tmp_path: Path) -> None:
    bundle = tmp_path / "Bear" / "Gate code.textbundle"
    bundle.mkdir(parents=True)
    (bundle / "info.json").write_text('{"net.shinyfrog.bear": {"creationDate": "2024-03-15T10:0', encoding="utf-8")
    (bundle / "text.markdown").write_text("# Gate code\n\nGarage gate: 4821\n", encoding="utf-8")
    recs, rep = _notes(tmp_path / "Bear")
    assert [(r.content, r.event_at) for r in recs] == [("Gate code: Garage gate: 4821", None)] and rep.warnings == []


@pytest.mark.parametrize(("name", "content", "message"), [
    # a Claude Code session whose snapshot line is followed by a cut line
    ("s.jsonl", (SESSION.read_text(encoding="utf-8")[:900]).encode(), "invalid JSON line of a Claude Code session"),
    # a Bear 2 backup cut short by a failed copy
    ("Bear Notes 2024-03-16 at 10.00.bear2bk",
     (NOTES / "bear2_backup" / "Bear Notes 2024-03-16 at 10.00.bear2bk").read_bytes()[:300], "malformed zip archive"),
    # (a Slack export zipped, a Telegram page, Discord's text were refused here until round 20: they are read now)
])
def test_a_broken_or_foreign_export_of_the_new_layouts_is_refused_in_one_line(name: str, content: dict[str, bytes] | bytes,
                                                                              message: str, tmp_path: Path) -> None:
    assert_broken_import_fails(tmp_path, name, content, message)


def test_a_claude_code_session_cut_after_its_snapshot_names_its_line(tmp_path: Path) -> None:
    """The cut line is named by its number: the snapshot line before it counts."""
    path = tmp_path / "s.jsonl"
    head = SESSION.read_text(encoding="utf-8")[:900]
    path.write_bytes(head.encode())
    with pytest.raises(ImportFormatError, match=rf"s\.jsonl:{head.count(chr(10)) + 1}: invalid JSON line"):
        claude_chats(path)


def test_write_zip_helper_is_the_one_the_refusals_use(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "x.zip", {"a.txt": b"x"})
    assert path.read_bytes().startswith(b"PK")


# --- a vault is read once when it fits, a note's name is no date to guess --------------------------------

from importers import ImportReport, markdown, note_dates  # noqa: E402


def _vault(folder: Path) -> Path:
    folder.mkdir()
    (folder / "Boiler 2023.md").write_text("# Boiler 2023\n\nServiced by [[Oscar]].\n\n## Parts\n\nValve, see [[Gate]].\n",
                                           encoding="utf-8")
    (folder / "Oscar.md").write_text("---\ntags: [people]\n---\nPlumber, 912 345 678. [[Nobody]]\n", encoding="utf-8")
    (folder / "Gate.md").write_bytes("Código 4821, portão da garagem.\n".encode("cp1252"))  # a warning to say once
    return folder


def _read(folder: Path) -> tuple[list[tuple[Any, ...]], ImportReport]:
    rep = ImportReport(str(folder), "markdown")
    recs = [(r.content, r.ref, r.links, r.metadata.get("unresolved_links"), r.event_at, r.tags)
            for r in markdown.parse(folder, rep)]
    return recs, rep


def test_a_vault_read_ahead_gives_what_reading_it_twice_gave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pass 1 keeps what it read (under READ_AHEAD_CHARS): the records, links, warnings and counts are those of
    reading every note again (READ_AHEAD_CHARS = 0), each note parsed once instead of twice."""
    folder = _vault(tmp_path / "v")
    calls: list[str] = []
    parse_file = markdown._parse_file

    def counted(file: Path, *args: Any, **kwargs: Any) -> Any:
        calls.append(file.name)
        return parse_file(file, *args, **kwargs)

    monkeypatch.setattr(markdown, "_parse_file", counted)
    ahead, rep_ahead = _read(folder)
    assert sorted(calls) == ["Boiler 2023.md", "Gate.md", "Oscar.md"]
    calls.clear()
    monkeypatch.setattr(markdown, "READ_AHEAD_CHARS", 0)
    twice, rep_twice = _read(folder)
    assert sorted(calls) == sorted(["Boiler 2023.md", "Gate.md", "Oscar.md"] * 2)
    assert ahead == twice and len(ahead) == 4 and ahead[0][2] and ahead[1][2]
    assert rep_ahead == rep_twice and len(rep_ahead.warnings) == 1 and rep_ahead.messages_seen == 4


def test_a_note_named_with_a_year_is_no_date_for_dateparser(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Budget 2023", "Trip to Porto 2024": a year and no day, never sent to dateparser (every locale tried, then
    nothing); a date written out is read as before, by the month names."""
    import sys

    monkeypatch.setitem(sys.modules, "dateparser", None)  # importing it would fail the test
    assert note_dates.written_date("Budget 2023") is None and note_dates.written_date("Trip to Porto 2024") is None
    assert note_dates.written_date("March 12th, 2024") == D(2024, 3, 12)
