"""Round 13 of export layouts nobody here had seen (tests/fixtures/unseen13, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: exports damaged on the way (a BOM with CRLF or CR-only line ends, a file cut mid-message or inside
  a character, a tail of NUL bytes from a copy cut by a crash, stray NULs in lines, UTF-16LE without a BOM), a
  group renamed twice with changed numbers, participants known by number only (iOS wraps it in U+202A/U+202C,
  "~ Name" for a name not in contacts), a re-zipped folder with a Media folder holding a .txt document;
* notes: Day One's plain-text export with its field names in the app's language (Datum, Fecha, Data, Дата,
  Date/Lieu, Data/Luogo, 日付); Google Keep Takeout JSON beside its HTML and its binary attachments, a voice
  note and a drawing; Obsidian daily notes named by the vault's own format (.obsidian/daily-notes.json) and by
  the Periodic Notes plugin's, front matter with embeds of a PDF page, a heading and a callout; Apple's iCloud
  data copy of Notes (a folder per note, Recently Deleted); Evernote 10's ENEX with tasks, a table and a resource;
* ChatGPT: project names in another file than the conversations' gizmo ids (projects.json, the sidebar's
  gizmo objects), an edited prompt's branch, a regenerated answer whose first version was kept, voice mode
  with and without transcripts, canvas comments on a code document, the export unpacked with its media;
* Claude: an edited prompt whose first version the user went back to, a retried answer with no current leaf,
  web-search answers whose text blocks are cut by citations;
* vCard: several TEL/EMAIL types per value, iCloud item groups with X-ABLabel, ENCODING=b (3.0) and
  ENCODING=BASE64 (2.1) on text properties, Google's comma-separated TYPE lists, 4.0 PREF and tel: URIs.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

import json
import zipfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout, conversations, vcards, wa, write_zip
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError, ImportReport, Record, claude
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen13"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"

# (layout, order, calendar, (system, media), [(content, time)])
WA_CASES: dict[str, tuple[Any, ...]] = {
    "android_en_bom_crlf.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Ana Sousa: Shopping for Saturday:\n- 2 kg potatoes\n- couve galega", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: I'll bring the chouriço", D(2024, 3, 14, 18, 3)),
        ("Ana Sousa: Receipt above: 23,40 EUR", D(2024, 3, 15, 9, 13))]),
    "ios_en_bom_crlf_attached.txt": ("bracketed", "mdy", "gregorian", (1, 1), [
        ("Ana Sousa: The plumber comes Tuesday at 9", D(2024, 3, 14, 18, 1, 40)),
        ("Ben Silva: OK, I'll leave the key\nunder the mat", D(2024, 3, 14, 18, 3)),
        ("Ben Silva: Done", D(2024, 3, 15, 0, 10, 30))]),
    "android_en_cr_only.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Dentist moved to Thursday 21 March, 15:30", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: Noted\nand I'll pick up the kids", D(2024, 3, 14, 18, 2))]),
    # Decision: a file that ends without a line break may be cut, but nothing says so: its last message is kept
    # as written, no warning (WhatsApp's own files end either way)
    "android_en_cut_midmessage.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Gate code changed today", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: What is it now?", D(2024, 3, 14, 18, 2)),
        ("Ana Sousa: 4821, and the garage is 13", D(2024, 3, 14, 18, 4))]),
    # Decision: zeros after the last line are a copy cut by a crash (a zero-filled block), not binary data: the
    # chat is read, the NULs dropped, with one warning naming the line they start on
    "android_en_trailing_nuls.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: The boiler man is Oscar, 912 345 678", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: Saved", D(2024, 3, 14, 18, 2))]),
    # Decision: a few NULs inside lines are damage, not text: removed (a warning names the first line)
    "ios_en_stray_nuls.txt": ("bracketed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Wifi password is on the router", D(2024, 3, 14, 18, 1, 12)),
        ("Ben Silva: It's Lisboa2024!", D(2024, 3, 14, 18, 2, 40)),
        ("Ana Sousa: Yes", D(2024, 3, 14, 18, 3, 5))]),
    # UTF-16 without a BOM: every other byte of its Latin text is a NUL, on the same side (little-endian here)
    "android_en_utf16le_nobom.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Ferry to Cacilhas every 20 min", D(2024, 3, 14, 18, 1)),
        ("Ben Silva: Última às 23h?", D(2024, 3, 14, 18, 3)),
        ("Ana Sousa: Sim, 23:40", D(2024, 3, 14, 18, 4))]),
    # Decision (as round 11): renaming a group and changing a number are notices; the thread keeps the export's
    # name; a participant known by number is the number as written (the old and the new one are two authors)
    "android_en_group_renamed.txt": ("dashed", "dmy", "gregorian", (7, 0), [
        ("Ana Sousa: Flights are booked for 14 March", D(2024, 3, 2, 9, 3)),
        ("+351 912 345 678: Hi, it's Carla, I'm in", D(2024, 3, 3, 10, 2)),
        ("+351 913 000 111: New number, same Carla", D(2024, 3, 4, 11, 5)),
        ("Ben Silva: Hotel is Casa do Largo", D(2024, 3, 5, 12, 1)),
        ("Ben Silva: Check-in at 15:00", D(2024, 3, 5, 12, 3))]),
    # iOS wraps a number in U+202A … U+202C; "~ Dan Lee" is a name the sender gave, not in the user's contacts
    "ios_en_phone_only_marks.txt": ("bracketed", "dmy", "gregorian", (3, 0), [
        ("Ana Sousa: Flights are booked for 14 March", D(2024, 3, 2, 9, 3, 10)),
        ("+351 912 345 678: Hi, it's Carla", D(2024, 3, 2, 9, 4)),
        ("Dan Lee: Count me in for the dinner", D(2024, 3, 2, 9, 5, 30)),
        ("+351 913 000 111: Carla again, new number", D(2024, 3, 2, 9, 7))]),
    "android_en_number_only.txt": ("dashed", "dmy", "gregorian", (1, 0), [
        ("+44 7700 900123: Hello, I'm the electrician from the agency", D(2024, 3, 14, 18, 1)),
        ("Ana Sousa: Hi! Can you come Monday at 10?", D(2024, 3, 14, 18, 2)),
        ("+44 7700 900123: Monday 10 is fine. Call-out fee is 60 GBP", D(2024, 3, 14, 18, 5))]),
}

# (line the warning names, its end)
WA_WARNINGS = {"android_en_trailing_nuls.txt": (":3: ", "NUL bytes at the end of the file (a copy cut short?); dropped"),
               "ios_en_stray_nuls.txt": (":1: ", "NUL bytes inside lines; dropped")}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_13(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name], WA_WARNINGS.get(name))


def test_every_unseen13_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted([*WA_CASES, "ios_en_cut_midchar.txt", "zip_media_folder"])


def test_a_chat_cut_inside_a_character_keeps_its_text() -> None:
    """Decision: a file cut inside its last character (a copy stopped mid-way) is UTF-8 still: the broken
    character is dropped with a warning naming its line, every other character read as UTF-8 (not the whole
    file as Windows-1252, which garbled each accent)."""
    path = WA / "ios_en_cut_midchar.txt"
    recs, rep = wa(path)
    assert [(r.content, r.event_at) for r in recs] == [
        ("Ana Sousa: Dinner at Tasca do Chico on Friday", D(2024, 3, 14, 18, 1, 12)),
        ("Ben Silva: Booked for 8, name Silva", D(2024, 3, 14, 18, 2, 40)),
        ("Ana Sousa: Perfeito, obrigada", D(2024, 3, 14, 18, 3, 5))]
    assert rep.warnings == [f"{path}:3: the file ends inside a character (cut short?); the broken bytes are dropped"]


def _media_zip(tmp_path: Path) -> Path:
    src = WA / "zip_media_folder"
    return write_zip(tmp_path / "WhatsApp Chat - Ana Sousa.zip",
                     {p.relative_to(src).as_posix(): p.read_bytes() for p in sorted(src.rglob("*")) if p.is_file()})


def test_a_rezipped_folder_with_a_media_folder_and_a_txt_document(tmp_path: Path) -> None:
    """Decision: the chat is _chat.txt (the name iOS gives it) in whatever folder; a .txt sent in the chat as a
    document (Media/00000014-shopping.txt) is an attachment, never a second chat; media are never read."""
    path = _media_zip(tmp_path)
    assert detect(path) == "whatsapp"
    recs, rep = wa(path)
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("Ana Sousa: Here is the floor plan", D(2024, 3, 14, 18, 1, 40), "Ana Sousa"),
        ("Ben Silva: The kitchen is 2.4 by 2.5 m", D(2024, 3, 14, 18, 3), "Ana Sousa")]
    assert (rep.skipped_system, rep.skipped_media, rep.warnings) == (1, 2, [])


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _dayone(journal: str, entries: list[tuple[str, datetime, list[str]]]) -> list[tuple[Any, ...]]:
    return [(f"{journal}.txt", f"{journal}: {text}", when, tags) for text, when, tags in entries]


# Decision: Day One's plain-text export names its fields in the app's language. The first field of each
# entry's block is its date, whatever its name (the block always starts with it); the place and the tags are
# told by their names in the languages Day One speaks; any other field (the weather) is no fact of the user's
NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    "dayone_fields_de": _dayone("Tagebuch", [
        ("Pi-Tag. Mit den Kindern einen Apfelkuchen gebacken.\n[place: Leipzig, Deutschland]", D(2024, 3, 14, 21, 10),
         ["Familie", "Backen"]),
        ("Zugtickets nach Dresden gekauft: 29,90 EUR.", D(2024, 3, 15, 8, 5), []),
        ("Frauenkirche bei Sonnenuntergang.\n[place: Dresden, Deutschland]", D(2024, 4, 1, 19, 30), ["Reisen"])]),
    "dayone_fields_es": _dayone("Diario", [
        ("Hicimos tarta de manzana con los niños.\n[place: Sevilla, España]", D(2024, 3, 14, 21, 10), ["familia", "cocina"]),
        ("Billetes a Granada comprados: 32 EUR por persona.", D(2024, 3, 15, 8, 5), []),
        ("La Alhambra al atardecer.\n[place: Granada, España]", D(2024, 4, 2, 19, 30), ["viajes"])]),
    "dayone_fields_pt": _dayone("Diário", [
        ("Fizemos torta de maçã com as crianças.\n[place: Curitiba, Brasil]", D(2024, 3, 14, 21, 10), ["família", "receitas"]),
        ("Passagens para Florianópolis compradas: R$ 420.", D(2024, 3, 15, 8, 5), []),
        ("Pôr do sol na Lagoa da Conceição.\n[place: Florianópolis, Brasil]", D(2024, 4, 2, 19, 30), ["viagens"])]),
    "dayone_fields_ru": _dayone("Дневник", [
        ("Испекли с детьми яблочный пирог.\n[place: Казань, Россия]", D(2024, 3, 14, 21, 10), ["семья", "выпечка"]),
        ("Билеты в Нижний Новгород куплены: 2400 руб.", D(2024, 3, 15, 8, 5), []),
        ("Чкаловская лестница на закате.\n[place: Нижний Новгород, Россия]", D(2024, 4, 2, 19, 30), ["поездки"])]),
    # French keeps "Date" but names the rest in French
    "dayone_fields_fr": _dayone("Journal", [
        ("Tarte aux pommes avec les enfants.\n[place: Lyon, France]", D(2024, 3, 14, 21, 10), ["famille", "pâtisserie"]),
        ("Billets pour Annecy achetés : 38 EUR.", D(2024, 3, 15, 8, 5), []),
        ("Le lac au coucher du soleil.\n[place: Annecy, France]", D(2024, 4, 2, 19, 30), ["voyages"])]),
    "dayone_fields_it": _dayone("Diario", [
        ("Torta di mele con i bambini.\n[place: Bologna, Italia]", D(2024, 3, 14, 21, 10), ["famiglia", "dolci"]),
        ("Biglietti per Verona comprati: 19,90 EUR.", D(2024, 3, 15, 8, 5), []),
        ("L'Arena al tramonto.\n[place: Verona, Italia]", D(2024, 4, 2, 19, 30), ["viaggi"])]),
    "dayone_fields_ja": _dayone("日記", [
        ("子どもたちとアップルパイを焼いた。\n[place: 京都市, 日本]", D(2024, 3, 14, 21, 10), ["家族", "お菓子"]),
        ("奈良行きの切符を購入: 760円。", D(2024, 3, 15, 8, 5), [])]),
    # Keep Takeout: the JSON is read, its HTML twin not again; the attachments beside them are binary files, named
    # in the metadata and never read as notes; a drawing alone is media
    "keep_attachments_beside": [
        ("Takeout/Keep/Flat viewing.json", "Flat viewing: Rua do Bonfim 12, 2nd floor: bright, needs a new kitchen.",
         D(2024, 3, 14, 8, 0), ["Flat hunt"]),
        ("Takeout/Keep/Voice memo.json", "Voice memo: Call the landlord about the boiler before Friday",
         D(2024, 3, 15, 8, 0), [])],
    # Decision: a daily note's file name is read by the format the vault's own settings give
    # (.obsidian/daily-notes.json, Moment.js tokens): 05.04.2024 is 5 April under "DD.MM.YYYY"
    "obsidian_daily_format": [
        ("Heizung.md", "Wartung: Jedes Jahr im März, Oscar (0151 2345678).", None, ["haus"]),
        ("Tagebuch/05.04.2024.md", "05.04.2024: Zählerstand Gas: 10432 m³", D(2024, 4, 5), []),
        ("Tagebuch/14.03.2024.md", "14.03.2024: Oscar kam wegen des Ventils. Rechnung 85 EUR, siehe Wartung.",
         D(2024, 3, 14), [])],
    # the Periodic Notes plugin's daily format in nested folders; a weekly note is no day: undated
    "obsidian_daily_periodic": [
        ("Journal/2024/03/2024-03-14 Thursday.md", "2024-03-14 Thursday: Boiler serviced by Oscar, 85 EUR. receipt.jpg",
         D(2024, 3, 14), []),
        ("Journal/2024/03/2024-03-15 Friday.md", "2024-03-15 Friday: Booked the ferry for Porto on 2 April.", D(2024, 3, 15), []),
        ("Journal/Weeks/2024-W11.md", "2024-W11: Week of the boiler. Next: tiles.", None, [])],
    # Decision: an embed of a PDF's page reads as the file's name (#page=2 is where the viewer opens it, no
    # heading); an embed of a heading reads "Note > Heading" (round 8); a callout's type is no text
    "obsidian_frontmatter_embeds": [
        ("Kitchen.md", "Kitchen: Fitter: Oscar (see People/Oscar Lima).\n\nKitchen plan.pdf\n\n> Budget\n> 4,800 EUR incl. "
         "worktop\n\nTiles > Chosen", D(2024, 3, 14, 9, 15), ["home/kitchen", "quotes"]),
        ("Tiles.md", "Chosen: Zellige 10x10, green.", None, [])],
    # Decision: Apple's "Recently Deleted" folder is the app's trash (as Obsidian's .trash): not imported
    "icloud_notes_txt": [
        ("iCloud Notes/Notes/Gate code/Gate code.txt", "Gate code: Garage 4821, front door 1357", None, []),
        ("iCloud Notes/Notes/Tile order/Tile order.txt", "Tile order: Zellige 10x10, 6 m², colour verde.\nDelivery on 28 March.",
         None, [])],
    # Decision: Evernote 10's tasks are the note's, as its to-dos: "[ ]"/"[x]" lines after its text, with their due
    # date; a task's own <title>/<created> never replace the note's; table cells are kept apart by " | "; (round 15)
    # an open task's reminder is shown after its due date
    "enex_v10_tasks": [
        ("Home.enex#Boiler", "Boiler: Oscar serviced it: 85 EUR.\nPart | Price\nValve | 25 EUR\n"
         "[ ] Book next service (due 2025-03-01; reminder 2025-02-15 09:00 UTC)\n[x] Pay Oscar", D(2024, 3, 14, 9, 15), ["home"]),
        ("Home.enex#Boiler", "Boiler: Last year: 80 EUR.", D(2023, 3, 10, 8, 0), [])],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_13(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    got = [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == []
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen13_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


def test_keep_attachments_are_named_and_a_drawing_alone_is_media() -> None:
    recs, rep = _notes(NOTES / "keep_attachments_beside")
    assert [r.metadata.get("attachments") for r in recs] == [["1f0e2a3b4c.jpg", "1f0e2a3b4d.3gp"], ["2a3b4c5d6e.3gp"]]
    assert (rep.skipped_media, rep.skipped_empty, rep.messages_seen) == (1, 0, 3)


def test_evernote_10_note_keeps_its_title_and_attachments() -> None:
    recs, _ = _notes(NOTES / "enex_v10_tasks")
    assert [(r.metadata["title"], r.metadata.get("attachments")) for r in recs] == [
        ("Boiler", ["receipt.jpg"]), ("Boiler", None)]


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

VCF_CASES: dict[str, list[tuple[str, list[str]]]] = {
    # Decision: every TYPE of a value is kept but "pref", "voice" and "internet" (no kind of number or address)
    "ios_multi_types_30.vcf": [(
        "Contact: Oscar Lima — phone +351 912 345 678 (cell); phone +351 222 000 111 (work); phone +351 222 000 112 "
        "(home,fax); email oscar@lima.example (home); email oscar@canalizacoes.example (work)", [])],
    # an item's X-ABLabel names its value; Apple's built-in "_$!<Other>!$_" says nothing
    "icloud_item_labels_30.vcf": [(
        "Contact: Ana Sousa — phone +351 913 000 111 (Gate phone); email ana@escola.example; web https://ana.example "
        "(home page); address Rua do Bonfim 12, Porto, 4000-123, Portugal; related Maria Sousa (mother)", [])],
    # Decision: a text property in base64 (3.0's ENCODING=b, 2.1's BASE64) is its decoded text in its CHARSET
    # (UTF-8 when none); a photo's stays unread
    "encoding_b_text_30.vcf": [(
        "Contact: João Gonçalves — phone +351 917 222 333 (cell); note Canalizador de confiança. Chave com a vizinha do 1.º",
        [])],
    "base64_text_21.vcf": [(
        "Contact: Inês Rocha — phone +351 936 000 444 (cell); phone +351 225 000 444 (home); note Vizinha do 2.º esq., "
        "rega as plantas", [])],
    "google_grouped_types_30.vcf": [(
        "Contact: Carla Dias — phone +351 961 111 222 (cell); phone +351 212 000 333 (Grandma's house); email "
        "carla.dias@example.com (home); email carla@clube.example (Club)", ["Climbing"])],
    # Decision: values keep the card's order whatever their PREF (the order the user sees them in)
    "v40_pref_uri.vcf": [(
        "Contact: Dan Lee — phone +44-7700-900123 (cell); phone +44-20-7946-0000 ext. 12 (work); email dan@work.example "
        "(work); email dan@home.example (home)", [])],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_13(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [(r.content, r.tags) for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_every_unseen13_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


def test_base64_names_are_the_contacts_names() -> None:
    recs, _ = vcards(VCF / "base64_text_21.vcf")
    assert recs[0].metadata["name"] == "Inês Rocha"


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000  # 2025-10-09 08:53:20 UTC


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {  # path: [(content, time, thread)]
    "project_names_file": [
        ("User: How much grout for 6 m² of 10x10 zellige?", _t(1), "c13a0001"), ("Assistant: About 3 kg.", _t(2), "c13a0001"),
        ("User: Oak or quartz worktop?", _t(50), "c13a0002"), ("Assistant: Quartz: no oiling.", _t(52), "c13a0002"),
        ("User: Rain in Porto on Saturday?", _t(100), "c13a0003"), ("Assistant: Showers until 14:00.", _t(102), "c13a0003")],
    "project_names_sidebar": [
        ("User: Packing list for 3 days in Madeira", _t(1), "c13a0004"),
        ("Assistant: Rain jacket, hiking boots, swimsuit.", _t(3), "c13a0004"),
        ("User: Make the logo green", _t(60), "c13a0005"), ("Assistant: Done: #2E7D32.", _t(62), "c13a0005")],
    # the branch current_node ends is the conversation the user left: the edited prompt's
    "edited_prompt_branch": [
        ("User: Train from Lisbon to Porto on Friday morning?", _t(1), "c13a0006"),
        ("Assistant: The 7:00 Alfa Pendular, 3 h.", _t(3), "c13a0006"),
        ("User: Price for two adults and a child of 8?", _t(20), "c13a0006"),
        ("Assistant: About 88 EUR: the child pays half.", _t(22), "c13a0006")],
    # the user went back to the first answer (< 1/2 >) and went on from it: the regenerated one is off the path
    "regenerated_first_kept": [
        ("User: Paint for a 12 m² bedroom?", _t(1), "c13a0007"), ("Assistant: About 5 litres for two coats.", _t(3), "c13a0007"),
        ("User: Which brand?", _t(10), "c13a0007"), ("Assistant: CIN Vinylsoft, matt.", _t(12), "c13a0007")],
    # a recording with no transcript is media; the words of one are the turn's
    "voice_mode_2025": [
        ("User: What time does the pharmacy on Rua Augusta close?", _t(1), "c13a0008"),
        ("Assistant: It closes at 20:00 on weekdays.", _t(3), "c13a0008"),
        ("Assistant: Sorry, I didn't catch that.", _t(12), "c13a0008"), ("User: Never mind, thanks", _t(20), "c13a0008")],
    # Decision: canvas comments are the model's remarks on the document, not its text: no memory (the message
    # that tells the user about them is one)
    "canvas_code_comments": [
        ("User: Write a function for tiles with spare", _t(1), "c13a0009"),
        ("Assistant: [canvas: tile_calc]\ndef tiles(area_m2, spare=0.1):\n    return area_m2 * (1 + spare)", _t(3), "c13a0009"),
        ("Assistant: Here is a function in the canvas.", _t(5), "c13a0009"), ("User: Review it", _t(10), "c13a0009"),
        ("Assistant: I left one comment: more spare for zellige.", _t(13), "c13a0009")],
    "export_with_media": [
        ("User: What colour grout goes with this tile?", _t(1), "c13a0010"), ("Assistant: Off-white.", _t(3), "c13a0010")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_13(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen13_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# Decision: the export names a project (or a custom GPT) elsewhere than the conversation that holds its gizmo id:
# any other JSON file of the export giving an object with that id and a name (projects.json's "name", the
# sidebar's "display": {"name"}) names it; the gizmo id stays beside the name
@pytest.mark.parametrize(("name", "expected"), [
    ("project_names_file", [("g-p-68f0aa00bb11cc22dd33ee44ff556677", "Kitchen renovation", None)] * 4 + [(None, None, None)] * 2),
    ("project_names_sidebar", [("g-p-690011aa22bb33cc44dd55ee66ff7788", "Madeira trip", None)] * 2
     + [("g-2fkFE8rbu", None, "Logo Creator")] * 2)])
def test_chatgpt_projects_and_gpts_are_named(name: str, expected: list[tuple[Any, ...]]) -> None:
    recs, _ = conversations(GPT / name)
    assert [(r.metadata.get("gizmo"), r.metadata.get("project"), r.metadata.get("gpt")) for r in recs] == expected


def test_chatgpt_voice_turns_are_marked_and_a_silent_one_is_media() -> None:
    recs, rep = conversations(GPT / "voice_mode_2025")
    assert [r.metadata.get("voice") for r in recs] == [True] * 4
    assert (rep.skipped_media, rep.messages_seen) == (1, 5)


def test_chatgpt_export_zipped_with_its_media(tmp_path: Path) -> None:
    src = GPT / "export_with_media"
    path = write_zip(tmp_path / "chatgpt-export.zip",
                     {p.relative_to(src).as_posix(): p.read_bytes() for p in sorted(src.rglob("*")) if p.is_file()})
    recs, rep = conversations(path)
    assert [(r.content, r.thread) for r in recs] == [(c, th) for c, _, th in GPT_CASES["export_with_media"]]
    assert rep.warnings == []


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


def _claude(name: str) -> tuple[list[Record], ImportReport]:
    path = CLAUDE / name
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep)), rep


CLAUDE_CASES: dict[str, list[str]] = {
    "edited_prompt_switched_back": [
        "User: Ferry from Lisbon to Cacilhas: how often?", "Assistant: Every 20 minutes, every 10 at rush hour.",
        "User: Last one tonight?", "Assistant: 01:40 from Cais do Sodré."],
    "retried_no_leaf": [
        "User: Caldo verde for 4: how many potatoes?", "Assistant: 500 g of floury potatoes.", "User: And kale?",
        "Assistant: 200 g of couve galega, finely shredded."],
    # Decision: text blocks that follow one another are one text cut where a citation starts or ends: joined as
    # written; a tool call between two texts is a paragraph break; the search results are no memory
    "web_search_citations": [
        "User: When is Pena Palace open?",
        "Assistant: Let me check.\n\nThe Pena Palace is open daily from 9:30 to 18:30; the last entry is at 17:45."],
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_13(name: str) -> None:
    recs, rep = _claude(name)
    assert [r.content for r in recs] == CLAUDE_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen13_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


# --- the CLI, bad input, hostile input ------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "android_en_trailing_nuls.txt", 2), (WA / "android_en_utf16le_nobom.txt", 3), (NOTES / "dayone_fields_ru", 3),
    (NOTES / "enex_v10_tasks", 2), (VCF / "encoding_b_text_30.vcf", 1), (GPT / "project_names_file", 6),
    (CLAUDE / "web_search_citations", 2)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_a_cut_chat_zip_is_one_line_naming_the_file(tmp_path: Path) -> None:
    data = _media_zip(tmp_path).read_bytes()
    assert_broken_import_fails(tmp_path, "WhatsApp Chat - Cut.zip", data[: len(data) // 2], "zip")


def test_a_file_of_zeros_is_binary_data_not_a_chat(tmp_path: Path) -> None:
    """NULs after some text are a cut copy; a file that is mostly NULs, or NULs first, is no text at all."""
    path = tmp_path / "chat.txt"
    path.write_bytes(b"\x00" * 100_000 + b"14/03/2024, 18:01 - Ana: hi\n")
    with pytest.raises(ImportFormatError, match="binary data"):
        wa(path)
    path.write_bytes(b"14/03/2024, 18:01 - Ana: hi\n" + b"\x00\x01\x02\x00" * 50_000)
    with pytest.raises(ImportFormatError, match="binary data"):
        wa(path)


def test_hostile_utf16_without_bom_and_nul_tail_are_bounded(tmp_path: Path) -> None:
    """A UTF-16LE file of one 4 MB line (no BOM): read a capped line at a time, its message refused with a
    warning; 8 MB of NULs after a chat: dropped in one pass."""
    path = tmp_path / "big.txt"
    path.write_bytes(("14/03/2024, 18:01 - Ana: " + "x" * 2_000_000 + "\r\n14/03/2024, 18:02 - Ben: ok\r\n").encode("utf-16-le"))
    recs, rep = wa(path)
    assert [r.content for r in recs] == ["Ben: ok"] and len(rep.warnings) == 1
    path.write_bytes(b"14/03/2024, 18:01 - Ana: hi\n" + b"\x00" * 8_000_000)
    recs, rep = wa(path)
    assert [r.content for r in recs] == ["Ana: hi"]


def test_hostile_project_names_file(tmp_path: Path) -> None:
    """A names file nested 100,000 deep, one of 20 MB, and a zip whose names member inflates to 1 GB: never
    read past their caps, no recursion error; the conversations are read all the same."""
    convs = (GPT / "project_names_file" / "conversations.json").read_bytes()
    deep = tmp_path / "deep"
    deep.mkdir()
    (deep / "conversations.json").write_bytes(convs)
    (deep / "projects.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (deep / "gizmos.json").write_text(json.dumps([{"id": "g-p-x", "name": "y" * 20_000_000}]), encoding="utf-8")
    recs, _ = conversations(deep)
    assert len(recs) == 6 and all(r.metadata.get("project") is None for r in recs)
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("conversations.json", convs)
        with zf.open("projects.json", "w", force_zip64=True) as member:
            chunk = b" " * (1 << 20)
            for _ in range(1024):
                member.write(chunk)
    recs, _ = conversations(bomb)
    assert len(recs) == 6


def test_hostile_dayone_fields_and_base64_cards(tmp_path: Path) -> None:
    """200,000 field lines in one entry's block and a 2 MB base64 note: bounded work, the words kept."""
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "Дневник.txt").write_text(
        "\tДата:\t14 марта 2024 г. в 21:10:00 MSK\n" + "\tПогода:\t-2°C\n" * 200_000 + "\nСлова.\n", encoding="utf-8")
    recs, _ = _notes(tmp_path / "j")
    assert [r.content for r in recs] == ["Дневник: Слова."]
    import base64
    card = ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana\r\nNOTE;ENCODING=b:" + base64.b64encode(b"a" * 2_000_000).decode()
            + "\r\nEND:VCARD\r\n")
    (tmp_path / "c.vcf").write_text(card, encoding="ascii")
    recs, rep = vcards(tmp_path / "c.vcf")
    assert len(recs) == 1 and recs[0].content.startswith("Contact: Ana")



def test_a_nul_tail_in_contacts_and_json_lines_is_said_once(tmp_path: Path) -> None:
    """The same damage in the other line-read exports: read, dropped, one warning naming the line."""
    from importers import jsonl

    (tmp_path / "c.vcf").write_bytes(b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana\r\nTEL:123\r\nEND:VCARD\r\n" + b"\x00" * 5000)
    recs, rep = vcards(tmp_path / "c.vcf")
    assert [r.content for r in recs] == ["Contact: Ana — phone 123"]
    assert rep.warnings == [f"{tmp_path / 'c.vcf'}:6: NUL bytes at the end of the file (a copy cut short?); dropped"]
    (tmp_path / "m.jsonl").write_bytes(b'{"content": "Ana likes tea"}\n' + b"\x00" * 5000)
    rep = ImportReport(str(tmp_path / "m.jsonl"), "jsonl")
    assert [r.content for r in jsonl.parse(tmp_path / "m.jsonl", rep)] == ["Ana likes tea"]
    assert rep.warnings == [f"{tmp_path / 'm.jsonl'}:2: NUL bytes at the end of the file (a copy cut short?); dropped"]


# Written after this round's code: a Day One text journal given alone, or zipped alone, was "plain text with no
# chat header" (the English one too): its first line (a tab-indented field holding a year) says what it is
@pytest.mark.parametrize("journal", ["dayone_fields_de/Tagebuch.txt", "dayone_fields_ja/日記.txt"])
def test_a_day_one_text_journal_alone_or_zipped_is_detected(journal: str, tmp_path: Path) -> None:
    path = NOTES / journal
    recs, _ = _notes(path)
    assert [r.content for r in recs] == [c for _, c, _, _ in NOTE_CASES[journal.split("/")[0]]]
    zipped = write_zip(tmp_path / "journal.zip", {path.name: path.read_bytes()})
    recs, _ = _notes(zipped)
    assert len(recs) == len(NOTE_CASES[journal.split("/")[0]])
