"""Round 15 of export layouts nobody here had seen (tests/fixtures/unseen15, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: Malay and Swahili (Android 24-hour, iOS), Hungarian's "de."/"du." and Czech's "dop."/"odp."
  12-hour markers, Ukrainian on both apps, Bengali and Devanagari digits on iOS with seconds, member-approval
  and disappearing-message notices in English, Spanish and Brazilian Portuguese, Polish and Turkish polls, a
  message holding lines pasted from another chat (stamps and all);
* ChatGPT: 2024 search pages ("sonic_webpage"), an answer stopped before its first word, 2025 entity and
  image-group markup, a null among a message's parts;
* Claude: a research report (launch_extended_search_task + its artifact), web_fetch, calendar and Gmail tools;
* notes: an Evernote 10 task's reminder, a Joplin to-do's completion time, Obsidian Tasks' emoji dates, a
  Kanban board, tags written as wiki links, Zettelkasten ids in file names, a Notion database exported in
  Portuguese;
* vCard: birthdays written with a zone, Outlook's card design, Google's phonetic names, cards without a
  name, RFC 6474 (birth place, death date and place), RFC 6715 (expertise, hobby, interest), Thunderbird's
  4.0, two FNs.

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

from importers import Record

FIX = Path(__file__).parent / "fixtures" / "unseen15"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"

# (layout, order, calendar, (system, media), [(content, time)][, edited contents])
WA_CASES: dict[str, tuple[Any, ...]] = {
    "android_ms_24h.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Aisyah: Kenduri Sabtu ni mula pukul 11 pagi", D(2024, 3, 14, 18, 1)), ("Hafiz: Saya bawa kuih", D(2024, 3, 14, 18, 4)),
        ("Aisyah: Jangan lupa bawa tikar", D(2024, 3, 15, 9, 10))], {"Hafiz: Saya bawa kuih"}),
    # a missed call and a deleted message are notices in Swahili as in the other languages
    "android_sw_24h.txt": ("dashed", "dmy", "gregorian", (3, 1), [
        ("Amina: Mkutano wa kikundi ni Jumamosi saa nne asubuhi", D(2024, 3, 14, 18, 1)),
        ("Juma: Nitaleta chai", D(2024, 3, 14, 18, 5)),
        ("Amina: Michango ni shilingi 5,000 kila mmoja", D(2024, 3, 15, 8, 30))], {"Juma: Nitaleta chai"}),
    "android_hu_ampm.txt": ("dashed", "ymd", "gregorian", (1, 1), [
        ("Kovács Anna: A vízóra állása 1043", D(2024, 3, 14, 18, 1)), ("Nagy Péter: Köszi, beküldöm", D(2024, 3, 14, 18, 3)),
        ("Kovács Anna: A számla 12 400 Ft", D(2024, 3, 15, 9, 16)), ("Nagy Péter: Befizettem", D(2024, 3, 15, 12, 5))]),
    "android_cs_ampm.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Jana Nováková: Technik přijde v pondělí v 9:30", D(2024, 3, 14, 18, 1)),
        ("Petr Dvořák: Dobře, budu doma", D(2024, 3, 14, 18, 3)),
        ("Jana Nováková: Zaplatila jsem 2 400 Kč", D(2024, 3, 15, 9, 15)), ("Petr Dvořák: Díky", D(2024, 3, 15, 12, 20))]),
    "ios_cs_seconds.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("Jana Nováková: Technik přijde v pondělí v 9:30", D(2024, 3, 14, 18, 1, 12)),
        ("Petr Dvořák: Cena je 2 400 Kč", D(2024, 3, 14, 18, 3, 5)),
        ("Jana Nováková: Zaplatím převodem", D(2024, 3, 15, 7, 46, 10))], {"Petr Dvořák: Cena je 2 400 Kč"}),
    "android_uk_ampm.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Олена Коваль: Збори ОСББ у четвер о 19:00", D(2024, 3, 14, 18, 1)),
        ("Андрій: Буду, візьму квитанції", D(2024, 3, 14, 18, 4)),
        ("Олена Коваль: Внесок 250 грн", D(2024, 3, 15, 8, 10)), ("Андрій: Оплатив", D(2024, 3, 15, 12, 15))],
        {"Андрій: Буду, візьму квитанції"}),
    "ios_uk_seconds.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("Олена Коваль: Збори ОСББ у четвер о 19:00", D(2024, 3, 14, 18, 1, 12)),
        ("Андрій: Буду, візьму квитанції", D(2024, 3, 14, 18, 3, 5)),
        ("Олена Коваль: Внесок 250 грн", D(2024, 3, 15, 8, 11))], {"Андрій: Буду, візьму квитанції"}),
    "android_bn_digits_24h.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("রহিম: কাল সকাল ১০টায় বাজারে দেখা হবে", D(2024, 3, 14, 18, 1)), ("করিম: ঠিক আছে", D(2024, 3, 14, 18, 4)),
        ("রহিম: দাম ৫০০ টাকা", D(2024, 3, 15, 9, 15))]),
    # Decision: an iOS line of only U+200E and "<the language's picture word> <omitted>" is a photo left out,
    # as "‎image omitted" is: media, not a notice
    "ios_bn_digits_ampm.txt": ("bracketed", "dmy", "gregorian", (1, 1), [
        ("রহিম: কাল সকাল ১০টায় বাজারে দেখা হবে", D(2024, 3, 14, 18, 1, 12)), ("করিম: ঠিক আছে", D(2024, 3, 15, 9, 15)),
        ("রহিম: দাম ৫০০ টাকা", D(2024, 3, 15, 12, 30))]),
    "ios_hi_deva_digits_ampm.txt": ("bracketed", "dmy", "gregorian", (1, 1), [
        ("प्रिया: कल सुबह १० बजे मिलते हैं", D(2024, 3, 14, 18, 1, 12)),
        ("राहुल: ठीक है, मैं टिकट ले लूँगा", D(2024, 3, 15, 9, 15)), ("प्रिया: टिकट ₹४५० का है", D(2024, 3, 15, 12, 30))]),
    # member approval (turned on, requested, approved, rejected) and disappearing messages are notices
    "android_en_member_approval.txt": ("dashed", "dmy", "gregorian", (8, 0), [
        ("Ana Sousa: Welcome! Bins go out on Tuesday nights", D(2024, 3, 14, 18, 5)),
        ("+351 912 345 678: Thanks, I'm Rui from number 14", D(2024, 3, 14, 18, 6)),
        ("Ana Sousa: The street party is on 6 April", D(2024, 3, 14, 18, 12))]),
    "android_es_member_approval.txt": ("dashed", "dmy", "gregorian", (6, 0), [
        ("Ana: La reunión de la comunidad es el jueves a las 20:00", D(2024, 3, 14, 18, 5)),
        ("+34 612 34 56 78: Soy Luis, del 3.º B", D(2024, 3, 14, 18, 6)), ("Ana: La derrama es de 120 €", D(2024, 3, 14, 18, 9))]),
    "ios_pt_BR_approval_disappearing.txt": ("bracketed", "dmy", "gregorian", (5, 0), [
        ("Carla: A assembleia é na quinta às 19h", D(2024, 3, 14, 18, 5, 10)),
        ("+55 11 91234-5678: Aqui é o Paulo, do 32", D(2024, 3, 14, 18, 6)),
        ("Carla: A taxa extra é R$ 150,00", D(2024, 3, 14, 18, 9, 30))]),
    "android_pl_poll.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ("Kasia: ANKIETA:\nGdzie idziemy w sobotę?\nOPCJA: Pizzeria (2 głosy)\nOPCJA: Sushi (1 głos)", D(2024, 3, 14, 20, 0)),
        ("Tomek: Pizzeria, bliżej", D(2024, 3, 14, 20, 1)), ("Kasia: Rezerwuję na 19:00", D(2024, 3, 14, 20, 4))]),
    "android_tr_poll_edited.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Elif: ANKET:\nPiknik ne zaman?\nSEÇENEK: Cumartesi (2 oy)\nSEÇENEK: Pazar (0 oy)", D(2024, 3, 14, 20, 1)),
        ("Mert: Cumartesi olur", D(2024, 3, 14, 20, 2)), ("Elif: Mangalı ben getiririm", D(2024, 3, 14, 20, 5))],
        {"Mert: Cumartesi olur"}),
    # Decision: a stamped line inside a message whose time leaves the chat's flow (days away from the
    # headers before and after it, which agree with each other) is a line the person pasted from another chat:
    # part of their message, not a message of its own
    "android_en_pasted_stamps.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana Sousa: Copying Oscar's message from the other group:\n20/03/2024, 09:00 - Oscar: I'll come at 9 to fit the boiler",
         D(2024, 3, 14, 18, 1)),
        ("Ben Silva: Great, I'll be home", D(2024, 3, 14, 18, 2)),
        ("Ana Sousa: He also said:\n15/03/2024, 10:00 - Oscar: the valve costs 25 EUR", D(2024, 3, 14, 18, 5)),
        ("Ben Silva: OK", D(2024, 3, 14, 18, 7))]),
    "ios_ms_ampm.txt": ("bracketed", "dmy", "gregorian", (1, 1), [
        ("Aisyah: Kenduri Sabtu ni mula pukul 11 pagi", D(2024, 3, 14, 18, 1, 12)), ("Hafiz: Saya sampai awal", D(2024, 3, 15, 9, 15)),
        ("Aisyah: Terima kasih", D(2024, 3, 15, 12, 30))]),
    "ios_sw_seconds.txt": ("bracketed", "dmy", "gregorian", (1, 1), [
        ("Amina: Harusi ni tarehe 6 Aprili", D(2024, 3, 14, 18, 1, 12)), ("Juma: Nitafika mapema", D(2024, 3, 14, 18, 3, 30)),
        ("Amina: Mahari ni shilingi 200,000", D(2024, 3, 15, 8, 0))], {"Juma: Nitafika mapema"}),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_15(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen15_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"

NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Decision: an Evernote 10 task's reminder is when Evernote will remind: its time in UTC after the due
    # day; a completed task's reminder is spent and not written
    "enex_task_reminders": [
        ("Errands.enex#Errands", "Errands: Things to sort out before the move.\n"
         "[ ] Call the bank (due 2024-03-20; reminder 2024-03-19 09:00 UTC)\n[ ] Renew passport (reminder 2024-04-02 08:00 UTC)\n"
         "[x] Cancel the gym (due 2024-03-15)", D(2024, 3, 14, 9, 15), ["home"])],
    # Decision: a completed Joplin to-do says when it was done (todo_completed), after its due time
    "joplin_todo_completed": [
        ("a5b6c7d8e9f00112233445566778899a.md", "Book boiler service: Call Oscar before Friday: 912 345 678.\n"
         "[x] To-do (due 2024-03-20 09:00 UTC; done 2024-03-19 18:30 UTC)", D(2024, 3, 14, 9, 15), []),
        ("b6c7d8e9f00112233445566778899aab.md", "Return the drill: To Ben, flat 2B.\n[x] To-do (done 2024-03-14 14:00 UTC)",
         D(2024, 3, 12, 12, 0), [])],
    # Obsidian Tasks' emoji dates are the user's words about the task: kept as written
    "obsidian_tasks_emoji": [
        ("House.md", "House: - [ ] Pay the rent 🔁 every month 📅 2024-04-01\n- [x] Book the dentist ⏫ ➕ 2024-03-10 ✅ 2024-03-13\n"
         "- [ ] Service the boiler ⏳ 2024-03-25 🛫 2024-03-20", None, ["home"])],
    # a Kanban board reads as notes split at its lanes (headings); the plugin's settings block is no text
    "obsidian_kanban": [
        ("Renovation board.md", "To do: - [ ] Call Oscar about the boiler @{2024-03-20}\n- [ ] Buy tiles #kitchen", None, ["kitchen"]),
        ("Renovation board.md", "Done: - [x] Pay the deposit", None, [])],
    # Decision: a tag written as a wiki link ("[[Home Renovation]]", as Capacities and some vaults write them)
    # is the page's name
    "wikilink_tags": [
        ("Kitchen plan.md", "Kitchen plan: Fitter: Oscar Lima, 912 345 678.\nQuartz worktop: 1,200 EUR fitted.",
         D(2024, 3, 14, 9, 15), ["Kitchen", "Home Renovation"])],
    # Decision: a Zettelkasten id before the title (Zettlr's YYYYMMDDHHMMSS, The Archive's YYYYMMDDHHMM) dates
    # the note to the second it holds and is no part of the title
    "zettel_ids": [
        ("20240314180112 Boiler.md", "Boiler: Oscar serviced it: 85 EUR.\nNext service in March 2025.", D(2024, 3, 14, 18, 1, 12), []),
        ("202403151030 Tiles.md", "Tiles: Zellige 10x10 green, 6 m².", D(2024, 3, 15, 10, 30), [])],
    # Decision: a Notion database exported in another language names its columns in it ("Criado em",
    # "Etiquetas"): the row is dated by the earliest of its cells that hold a Notion date with a time (a created
    # time is never after an edited one; a date without a time is a due date or a day, not when it was
    # written), and tagged by the tags column under its name in the language
    "notion_pt_database": [
        ("Tarefas", "Tarefas > Encomendar azulejos: Etiquetas: cozinha, obras\nCriado em: March 14, 2024 6:01 PM\nEstado: Feito\n\n"
         "Zellige 10x10 verde, 6 m², da Viúva Lamego.", D(2024, 3, 14, 18, 1), ["cozinha", "obras"]),
        ("Tarefas", "Tarefas > Marcar canalizador: Criado em: March 15, 2024 9:30 AM\nEstado: Por fazer", D(2024, 3, 15, 9, 30), [])],
}


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


def _thread(rec: Record) -> str:
    """A Notion table's thread as the cases write it: the table's name without its id and suffix."""
    thread = rec.thread or ""
    if thread.endswith(".csv"):
        return thread.rsplit(" ", 1)[0]
    return thread


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_note_layouts_of_round_15(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    got = [(_thread(r), r.content, _naive(r.event_at), r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert rep.warnings == []
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen15_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


def test_task_reminders_and_completion_times_are_metadata() -> None:
    """The reminder and completion times are also the record's metadata (ISO times in UTC)."""
    recs, _ = _notes(NOTES / "joplin_todo_completed")
    assert [r.metadata.get("done_at") for r in recs] == ["2024-03-19T18:30:00+00:00", "2024-03-14T14:00:00+00:00"]
    assert [r.metadata.get("done") for r in recs] == [True, True]
    recs, _ = _notes(NOTES / "enex_task_reminders")
    assert recs[0].metadata.get("reminders") == ["2024-03-19T09:00:00+00:00", "2024-04-02T08:00:00+00:00"]


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"

VCF_CASES: dict[str, list[str]] = {
    # a birthday written with its zone's midnight (or any hour) is the day as written, not moved to UTC
    "bday_with_zone.vcf": ["Contact: Maria Sousa — birthday 1985-03-14", "Contact: Carla Dias — birthday 1990-07-02",
                           "Contact: Dan Lee — birthday 1978-11-30"],
    # Outlook's X-MS-OL-DESIGN (the card's layout as XML) is no fact about the person
    "outlook_ol_design.vcf": ["Contact: Rui Pinto — phone +351 222 333 444 (work); email rui@garagepinto.example; org Garage Pinto; "
                              "title Owner"],
    # Decision: a phonetic name (X-PHONETIC-LAST-NAME / -FIRST-NAME, as Google and Apple write a name's reading)
    # is kept as the name's reading, family name first as N writes it
    "google_phonetic.vcf": ["Contact: 佐藤 健 — phone 090-1234-5678 (cell); email ken@example.jp (Work); reading さとう けん"],
    # Decision: a card with no FN is named by N, else by its ORG (Apple's X-ABShowAs:COMPANY), else by its nickname;
    # what names the card is not repeated after it
    "names_missing.vcf": ["Contact: Inês Rocha — phone +351 913 222 111 (cell)",
                          "Contact: Canalizações Lima — phone +351 222 444 555 (work)",
                          "Contact: Zé — phone +351 936 000 222 (cell)"],
    # Decision: RFC 6474's BIRTHPLACE, DEATHDATE and DEATHPLACE are facts about the person: kept after the birthday
    "deathdate_birthplace_40.vcf": ["Contact: Rosa Almeida — birthday 1930-05-12; birthplace Viseu, Portugal; died 2020-03-01; "
                                    "place of death Porto, Portugal"],
    # Decision: RFC 6715's EXPERTISE, HOBBY and INTEREST are kept (their LEVEL is not); ORG-DIRECTORY is a lookup
    # service of their employer, no fact about them
    "hobby_interest_40.vcf": ["Contact: Ben Silva — expertise padel; hobby birdwatching; interest jazz"],
    "thunderbird_40.vcf": ["Contact: Ana Sousa — phone +351 913 000 111 (cell); email ana@example.com; email ana.sousa@work.example; "
                           "nickname Aninhas; note Met at the climbing gym"],
    # Decision: a second FN (no ALTID: another name, not a translation) is another name the person goes by
    "two_names_40.vcf": ["Contact: Maria Sousa Costa — phone +351 912 000 333 (cell); also known as Maria Sousa"],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_15(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [r.content for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_every_unseen15_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


def test_other_names_are_aliases_of_the_contact() -> None:
    """The second FN and the reading find the contact as its name does."""
    recs, _ = vcards(VCF / "google_phonetic.vcf")
    assert recs[0].aliases.get("さとう けん") == "佐藤 健"
    recs, _ = vcards(VCF / "two_names_40.vcf")
    assert recs[0].aliases.get("Maria Sousa") == "Maria Sousa Costa"
    recs, _ = vcards(VCF / "names_missing.vcf")
    assert recs[1].metadata["name"] == "Canalizações Lima"


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1760000000


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, list[tuple[str, datetime, str]]] = {  # path: [(content, time, thread)]
    "sonic_webpage_search": [("User: Is there a metro strike in Lisbon this week?", _t(1), "c15a0001"),
                             ("Assistant: Yes: the metro is closed all day on Thursday 21 March.", _t(4), "c15a0001")],
    # an answer stopped before its first word says nothing: no turn
    "stopped_empty_answer": [("User: How long do I boil eggs?", _t(1), "c15a0002"),
                             ("User: Hard-boiled, for a salad", _t(10), "c15a0002"),
                             ("Assistant: Nine to ten minutes, then into cold water.", _t(12), "c15a0002")],
    # Decision: 2025's entity markup (entity["restaurant","Cantinho do Avillez","Porto"] in private-use brackets)
    # reads as the name the app shows (the second item); an image group is pictures, dropped like a citation
    "entity_markup_2025": [("User: Where should we have dinner in Porto on Saturday?", _t(1), "c15a0003"),
                           ("Assistant: Try Cantinho do Avillez near Ribeira: book a table, it fills up on Saturdays.", _t(3),
                            "c15a0003")],
    "null_part": [("User: The new gate code is 4821\nand the garage is 13", _t(1), "c15a0004"),
                  ("Assistant: Noted: gate 4821, garage 13.", _t(2), "c15a0004")],
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_15(name: str) -> None:
    recs, rep = conversations(GPT / name)
    assert [(r.content, r.event_at, r.thread) for r in recs] == GPT_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen15_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


CLAUDE_CASES: dict[str, list[str]] = {
    # a research task's launch is a tool call; its report is an artifact, kept as round 9's artifacts are
    "research_report": ["User: Research heat pump grants in Portugal for 2025",
                        "Assistant: I'll research the 2025 grants.\n\n[artifact: Heat pump grants in Portugal, 2025]\n# Heat pump "
                        "grants\n- Fundo Ambiental: up to 2,500 EUR\n- Applications until 30 June\n\nYour report is ready."],
    "web_fetch": ["User: What does this page say about opening hours? https://museu.example/visit",
                  "Assistant: It opens Tuesday to Sunday, 10:00 to 18:00, and is closed on Mondays."],
    "calendar_gmail": ["User: When is my dentist appointment?",
                       "Assistant: Tuesday 14 October at 15:30, at Clínica Sorriso; bring your health card."],
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_15(name: str) -> None:
    recs, rep = claude_chats(CLAUDE / name)
    assert [r.content for r in recs] == CLAUDE_CASES[name]
    assert rep.warnings == [] and len({r.ref for r in recs}) == len(recs)


def test_every_unseen15_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


# --- the CLI, bad input, hostile input ------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "android_en_pasted_stamps.txt", 4), (NOTES / "notion_pt_database", 2), (NOTES / "joplin_todo_completed", 2),
    (VCF / "deathdate_birthplace_40.vcf", 1), (GPT / "entity_markup_2025", 2)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_hostile_pasted_stamps_stay_within_a_messages_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written after this round's code: 3,000 pasted stamps, each between two headers of the chat's own time,
    all join their messages in one pass; a message that would pass its line cap keeps the stamp as a message."""
    from importer_cli import wa

    from importers import whatsapp

    lines = []
    for i in range(3000):
        lines += [f"14/03/2024, 18:{i % 60:02d} - Ana: pasting:", f"20/03/2024, 09:00 - Oscar: line {i}"]
    lines.append("14/03/2024, 18:59 - Ben: ok")
    path = tmp_path / "chat.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    recs, rep = wa(path)
    assert len(recs) == 3001 and recs[0].content == "Ana: pasting:\n20/03/2024, 09:00 - Oscar: line 0"
    assert rep.warnings == []
    monkeypatch.setattr(whatsapp, "MAX_MESSAGE_LINES", 1)
    path.write_text("14/03/2024, 18:01 - Ana: pasting:\nsecond line\n20/03/2024, 09:00 - Oscar: hi\n"
                    "14/03/2024, 18:02 - Ben: ok\n", encoding="utf-8")
    recs, _ = wa(path)
    assert [r.content for r in recs] == ["Ana: pasting:\nsecond line", "Oscar: hi", "Ben: ok"]


def test_hostile_and_broken_entity_markup(tmp_path: Path) -> None:
    """100,000 entity markers never closed, and markers whose list is no JSON: read in linear time (the
    session-start tree's citation pattern took minutes on it: every unclosed start scanned to the end); a
    broken marker shows nothing, the text around it stays."""
    import json

    src = json.loads((GPT / "entity_markup_2025" / "conversations.json").read_text(encoding="utf-8"))
    node = src[0]["mapping"]["m2"]["message"]["content"]
    node["parts"] = ["Try \ue200entity\ue202[restaurant, Avillez]\ue201 today." + "\ue200entity\ue202[\"x\"," * 100_000]
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "conversations.json").write_text(json.dumps(src), encoding="utf-8")
    recs, rep = conversations(tmp_path / "c")
    assert recs[1].content.startswith("Assistant: Try today.") and len(recs[1].content) < 2_000_000
    assert rep.warnings == []


def test_hostile_notion_table_of_many_timed_columns(tmp_path: Path) -> None:
    """A table of 500 rows and 50 columns of times: the columns are told once per table, each row dated by
    its earliest time."""
    nid = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
    header = "Nome," + ",".join(f"Quando {k}" for k in range(50))
    rows = [f"Linha {i}," + ",".join(f'"March {1 + (k + i) % 28}, 2024 6:01 PM"' for k in range(50)) for i in range(500)]
    (tmp_path / f"Tabela {nid}.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    recs, _ = _notes(tmp_path)
    assert len(recs) == 500 and all(r.event_at is not None and r.event_at.day == 1 for r in recs)


def test_hostile_unclosed_browsing_citations_and_colonless_members(tmp_path: Path) -> None:
    """Written after this round's code: 100,000 "【1†" never closed in an answer, a group card of 100,000 MEMBER
    lines without a colon: each start's scan ends at the next one (linear), the text and cards still read."""
    import json

    src = json.loads((GPT / "null_part" / "conversations.json").read_text(encoding="utf-8"))
    src[0]["mapping"]["n2"]["message"]["content"]["parts"] = ["Noted." + " 【1†source" * 100_000]
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "conversations.json").write_text(json.dumps(src, ensure_ascii=False), encoding="utf-8")
    recs, _ = conversations(tmp_path / "c")
    assert recs[1].content.startswith("Assistant: Noted.")
    members = "".join("MEMBER;X-A=b\r\n" for _ in range(100_000))
    card = f"BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Climbing\r\n{members}END:VCARD\r\n"
    (tmp_path / "g.vcf").write_text(card + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ana\r\nEND:VCARD\r\n", encoding="utf-8")
    recs, _ = vcards(tmp_path / "g.vcf")
    assert [r.content for r in recs] == ["Contact: Ana"]
