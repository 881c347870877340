"""Round 7 of export layouts nobody here had seen (tests/fixtures/unseen7, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* WhatsApp: Android chats in ten locales (es, de, fr, pt-BR, it, nl, ru, tr, id, pl) whose notices are
  messages of a sender (deleted, edited, live location, view-once placeholders, missed calls, "waiting
  for this message") or group events quoting a subject with a colon in the locale's quote marks; an
  iOS chat in Spanish with its U+200E notices;
* ChatGPT 2024-2025: a conversation of no title (null, or "New chat"), reasoning ("thoughts",
  "reasoning_recap"), a canvas and its tool receipt, a memory ("bio") call, uploaded documents (one
  with no words), a picture as a ``sediment://`` pointer, an edited question's two branches;
* Claude 2025: content blocks (text with citations, thinking, tool_use, tool_result), an attachment's
  extracted text, ``files``/``files_v2``, a conversation of no name, a message of only a picture;
* notes: a zip of plain ``.txt`` notes (one UTF-16), Org headline tags (each tags its subtree), Joplin's
  "Markdown + Front Matter" and plain Markdown exports, a Bear note ending in its tags line, Obsidian
  Dataview fields and callouts without a title, an Apple Notes note exported as HTML in a ``.md``;
* files that are no export: subtitles (SubRip, WebVTT), a program's log, SMS Backup & Restore's
  messages and calls, a Telegram chat copied as text.

WhatsApp times are the phone's wall clock as written (naive); ChatGPT and Claude times UTC (aware); note
dates as their front matter or file name writes them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, conversations
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope
from importer_cli import write_zip as _zip

from importers import ImportFormatError, ImportReport, Record, claude
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen7"
D = datetime


def _t(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


# --- WhatsApp: notices of ten Android locales, and of iOS in Spanish -------------------------------------

WA = FIX / "whatsapp"
_ANDROID = {  # file: (first message, the edited one, the multi-line one)
    "android_de_notices.txt": ("Jonas: Flüge sind gebucht", "Jonas: Hotel auch", "Lena: Super\ndanke dir"),
    "android_es_notices.txt": ("Marta: ¿Quedamos el viernes a las 9?", "Marta: Llevo el vino",
                               "Lucía: Perfecto\nyo llevo el postre"),
    "android_fr_notices.txt": ("Luc: On part à quelle heure ?", "Luc: Vers 8 h", "Chloé: Parfait\nà demain"),
    "android_id_notices.txt": ("Budi: Tiket sudah dipesan", "Budi: Jam 9 pagi", "Sari: Oke\nsampai besok"),
    "android_it_notices.txt": ("Luca: Prenoto io il tavolo", "Luca: Alle 20", "Giulia: Ottimo\nci sono"),
    "android_nl_notices.txt": ("Sven: De boot gaat om 10 uur", "Sven: Om 11 uur", "Femke: Prima\ntot dan"),
    "android_pl_notices.txt": ("Kasia: Pociąg o 8:15", "Kasia: Peron 3", "Tomek: Super\ndo jutra"),
    "android_pt_br_notices.txt": ("Pedro: Eu levo a carne", "Pedro: Às 13h", "Bia: Fechado\nlevo o carvão"),
    "android_ru_notices.txt": ("Иван: Билеты купил", "Иван: На 9 утра", "Оля: Отлично\nдо встречи"),
    "android_tr_notices.txt": ("Mehmet: Otel tamam", "Mehmet: Saat 10'da", "Elif: Harika\ngörüşürüz"),
}
# Every Android chat: 12 lines on 13 March 2024 from 15:00; three messages, 7 notices (encryption, a join,
# a subject change, a deletion, a missed call, "waiting for this message", a security code), 2 media
# (a live location, a view-once placeholder).
WA_CASES: dict[str, tuple[Any, ...]] = {
    name: ("dashed", "dmy", "gregorian", (7, 2), [(first, D(2024, 3, 13, 15, 3)), (edited, D(2024, 3, 13, 15, 9)),
                                                  (multi, D(2024, 3, 13, 15, 10))], {edited})
    for name, (first, edited, multi) in _ANDROID.items()
}
# Missed calls of the languages whose other notices the importer reads (six more chats, the Greek one 12-hour):
# encryption, two missed calls and a deletion are notices, a live location media.
_CALLS = {  # file: (date order, first message, the multi-line one)
    "android_cs_calls.txt": ("dmy", "Petr: Sejdeme se u nádraží", "Jana: Dobře\nbudu tam v pět"),
    "android_el_12h_calls.txt": ("dmy", "Νίκος: Τα λέμε στο λιμάνι", "Ελένη: Εντάξει\nέρχομαι στις πέντε"),
    "android_hu_calls.txt": ("ymd", "Bence: Találkozunk az állomáson", "Anna: Rendben\nötre ott leszek"),
    "android_ro_calls.txt": ("dmy", "Andrei: Ne vedem la gară", "Ioana: Bine\nvin la cinci"),
    "android_sv_calls.txt": ("ymd", "Erik: Vi ses vid sjön", "Maja: Okej\njag tar med kaffe"),
    "android_uk_calls.txt": ("dmy", "Олег: Зустрінемось біля метро", "Ірина: Добре\nбуду о п'ятій"),
}
WA_CASES.update({name: ("dashed", order, "gregorian", (4, 1), [(first, D(2024, 3, 13, 15, 1)),
                                                                (multi, D(2024, 3, 13, 15, 6))])
                 for name, (order, first, multi) in _CALLS.items()})
WA_CASES["ios_es_notices.txt"] = ("bracketed", "dmy", "gregorian", (5, 2), [
    ("Lucía: ¿Quién lleva el pan?", D(2024, 3, 13, 15, 2)),
    ("Marta: Yo lo llevo", D(2024, 3, 13, 15, 7)),
    ("Lucía: Ubicación: https://maps.google.com/?q=40.4,-3.7", D(2024, 3, 13, 15, 9)),
    ("Marta: Genial", D(2024, 3, 13, 15, 10)),
], {"Marta: Yo lo llevo"})


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_notices_of_every_locale(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen7_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_live_locations_and_view_once_are_media_of_their_sender() -> None:
    from importer_cli import wa

    for name in ("android_de_notices.txt", "android_pl_notices.txt", "ios_es_notices.txt"):
        recs, rep = wa(WA / name)
        assert rep.skipped_media == 2 and not any("Standort" in r.content or "lokalizac" in r.content.lower()
                                                  or "tiempo real" in r.content for r in recs)


def test_words_of_a_person_that_look_like_notices_stay_messages(tmp_path: Path) -> None:
    from importer_cli import wa

    texts = ["Share your live location?", "Live location please", "<he omitted the tip>", "My location: the café",
             "O’Brien said: come at 9", "The ‘new’ plan: Friday"]
    path = tmp_path / "chat.txt"
    path.write_text("".join(f"13/03/2024, 15:{i:02d} - Ana: {t}\n" for i, t in enumerate(texts)), encoding="utf-8")
    recs, rep = wa(path)
    assert [r.content for r in recs] == [f"Ana: {t}" for t in texts] and (rep.skipped_system, rep.skipped_media) == (
        0, 0)


# --- ChatGPT 2024-2025 ---------------------------------------------------------------------------------

GPT = FIX / "chatgpt" / "2025"
T = 1741770000  # 2025-03-12 09:00 UTC
C = [f"67d1a000-0000-8000-8000-00000000000{i}" for i in range(1, 7)]
GPT_RECORDS = [  # (content, time, thread, title, memory type)
    ("User: My landlord wants to raise the rent by 15% next month —\n is that legal in Lisbon? The contract "
     "started in 2022.", _t(T + 1), C[0], "My landlord wants to raise the rent by 15% next month — is…", "episodic"),
    ("Assistant: No: for 2025 the annual update is capped at 2.16%.", _t(T + 10), C[0],
     "My landlord wants to raise the rent by 15% next month — is…", "episodic"),
    ("User: Make me a packing list for Porto", _t(T + 101), C[1], "Packing list", "episodic"),
    ("Assistant: [canvas: porto_packing]\n# Porto\n- rain jacket\n- adapter", _t(T + 104), C[1], "Packing list",
     "episodic"),
    # round 10: the partial edit (pattern "adapter") is applied: the document as edited
    ("Assistant: [canvas: porto_packing]\n# Porto\n- rain jacket\n- EU adapter", _t(T + 106), C[1], "Packing list",
     "episodic"),
    ("Assistant: I made the list in the canvas.", _t(T + 107), C[1], "Packing list", "episodic"),
    ("User: I'm vegetarian, remember that. Dinner ideas?", _t(T + 201), C[2], "Dinner ideas", "episodic"),
    ("ChatGPT memory: Is vegetarian.", _t(T + 203), C[2], "Dinner ideas", "semantic"),
    ("Assistant: Noted. Try a mushroom risotto.", _t(T + 205), C[2], "Dinner ideas", "episodic"),
    ("User: Summarise the lease\n[attachments: lease.pdf]", _t(T + 301), C[3], "Lease", "episodic"),
    ("Assistant: Two years, 1,200 EUR a month.", _t(T + 303), C[3], "Lease", "episodic"),
    ("User: [attachments: annex-B.docx]", _t(T + 304), C[3], "Lease", "episodic"),
    ("Assistant: Annex B lists the furniture.", _t(T + 306), C[3], "Lease", "episodic"),
    ("User: Is this stain mine to fix?", _t(T + 307), C[3], "Lease", "episodic"),
    ("Assistant: Normal wear: not yours.", _t(T + 309), C[3], "Lease", "episodic"),
    ("User: Which tram goes to Belem from Cais do Sodre?", _t(T + 410), C[4], "Tram", "episodic"),
    ("Assistant: Tram 15E, from Praca da Figueira via Cais do Sodre.", _t(T + 412), C[4], "Tram", "episodic"),
    ("Assistant: A tiled roof.", _t(T + 503), C[5], "Roof tiles: can I replace three myself?", "episodic"),
    ("User: Roof tiles: can I replace three myself?", _t(T + 504), C[5], "Roof tiles: can I replace three myself?",
     "episodic"),
    ("Assistant: Yes, with a slate ripper.", _t(T + 506), C[5], "Roof tiles: can I replace three myself?",
     "episodic"),
]


def _gpt(**options: Any) -> tuple[list[Record], ImportReport]:
    return conversations(GPT, **options)


def test_chatgpt_2025_titles_reasoning_canvas_memory_uploads_branches() -> None:
    recs, rep = _gpt()
    assert [(r.content, r.event_at, r.thread, r.metadata["title"], r.memory_type) for r in recs] == GPT_RECORDS
    # reasoning (thoughts, its recap) and the hidden system message are no memories (the canvas's partial edit
    # is, since round 10: the document as edited); the canvas's and the memory's tool receipts are tool output;
    # the picture alone is media
    assert (rep.skipped_system, rep.skipped_tool, rep.skipped_empty, rep.skipped_media, rep.messages_seen) == (
        3, 2, 0, 1, 26)
    assert recs[13].metadata["images"] == ["sediment://file_00000000aa"] and recs[11].metadata["attachments"] == [
        "annex-B.docx"]
    assert recs[7].metadata["memory"] == "bio" and recs[7].author == "Assistant" and rep.warnings == []
    assert [r.position for r in recs if r.thread == C[2]] == [0, 1, 2]


def test_chatgpt_other_branch_only_when_asked() -> None:
    recs, _ = _gpt(all_branches=True)
    alt = [(r.content, r.metadata["title"]) for r in recs if r.metadata.get("branch") == "alt"]
    assert alt == [("User: Which tram goes to Belem?", "Tram"), ("Assistant: Tram 15.", "Tram")]


def test_chatgpt_memory_is_kept_once_by_the_cli(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(GPT)))
    assert out["ok"] and out["data"]["memories_added"] == len(GPT_RECORDS), out
    assert _envelope(run_cli("--db", str(db), "import", str(GPT)))["data"]["memories_added"] == 0


# --- Claude 2025 ------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude" / "2025"
U = "7c0de000-0000-4000-8000-0000000000"
_EMAIL = "Can you help me write a polite but firm email to my…"


def test_claude_2025_content_blocks_attachments_and_names() -> None:
    assert detect(CLAUDE) == "claude"
    rep = ImportReport(str(CLAUDE), "claude")
    recs = list(claude.parse(CLAUDE, rep))
    assert [(r.content, r.event_at, r.thread, r.metadata["title"]) for r in recs] == [
        ("User: What does my boiler's error F28 mean?\n\n[attachment: manual.txt]\nF28: ignition failure. Check the "
         "gas supply, then reset.", D(2025, 3, 12, 9, 0, 1, tzinfo=timezone.utc), U + "01",
         "What does my boiler's error F28 mean?"),
        ("Assistant: F28 is an ignition failure: check that the gas is on, then press reset.",
         D(2025, 3, 12, 9, 0, 20, tzinfo=timezone.utc), U + "01", "What does my boiler's error F28 mean?"),
        ("User: Gas is on. Still F28.", D(2025, 3, 12, 9, 1, tzinfo=timezone.utc), U + "01",
         "What does my boiler's error F28 mean?"),
        ("Assistant: Then call Oscar: it needs a service.", D(2025, 3, 12, 9, 1, 30, tzinfo=timezone.utc), U + "01",
         "What does my boiler's error F28 mean?"),
        ("User: Can you help me write a polite but firm email to my neighbour about the noise after midnight on "
         "weekdays?", D(2025, 3, 13, 18, 0, 1, tzinfo=timezone.utc), U + "02", _EMAIL),
        ("Assistant: Sure. Start by naming the nights and the hours.", D(2025, 3, 13, 18, 0, 30, tzinfo=timezone.utc),
         U + "02", _EMAIL),
        ("Assistant: The note on the door is a good start.", D(2025, 3, 13, 18, 1, 30, tzinfo=timezone.utc), U + "02",
         _EMAIL),
        ("User: Here is my log of the nights.\n[attachments: noise-log.pdf]", D(2025, 3, 13, 18, 2, tzinfo=timezone.utc),
         U + "02", _EMAIL),
        ("User: [attachments: lease-clause-7.pdf]", D(2025, 3, 13, 18, 2, 10, tzinfo=timezone.utc), U + "02", _EMAIL),
    ]
    assert recs[0].metadata["files"] == ["boiler.jpg"] and recs[0].metadata["attachments"][0]["chars"] == 56
    # thinking is no memory; the search call and its result are tool blocks; the picture alone is media
    assert (rep.skipped_tool, rep.skipped_media, rep.skipped_empty, rep.messages_seen, rep.warnings) == (
        2, 1, 0, 10, [])
    assert recs[-1].metadata["files"] == ["lease-clause-7.pdf"]


# --- notes ------------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _tree_zip(src: Path, dest: Path) -> Path:
    return _zip(dest, {p.relative_to(src).as_posix(): p.read_bytes() for p in sorted(src.rglob("*")) if p.is_file()})


TXT_NOTES = [  # (thread, content, date, type): the UTF-16 note (Windows Notepad) read as such
    ("Notes/2024-05-02.txt", "2024-05-02: Called the bank: the new card arrives Friday.", D(2024, 5, 2), "episodic"),
    ("Notes/Garden/Tomatoes.txt", "Tomatoes: Plant the tomatoes after the last frost, mid April.\nBasil beside them.",
     None, "semantic"),
    ("Notes/Groceries.txt", "Groceries: Oat milk, lentils, 2 lemons.\nThe good olive oil from the market.", None,
     "semantic"),
    ("Notes/Wifi.txt", "Wifi: Wifi at the flat: Casa-5G, key on the fridge.", None, "semantic"),
]


def test_a_zip_of_plain_text_notes_is_notes_not_a_chat(tmp_path: Path) -> None:
    path = _tree_zip(NOTES / "txtzip", tmp_path / "Notes.zip")
    recs, rep = _notes(path)
    assert sorted((r.thread, r.content, r.event_at, r.memory_type) for r in recs) == TXT_NOTES
    assert rep.warnings == []
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["format"] == "markdown" and out["data"]["memories_added"] == 4, out


def test_a_zip_of_a_chat_is_a_chat_whatever_its_name(tmp_path: Path) -> None:
    chat = b"13/03/2024, 15:00 - Ana: Hi\n13/03/2024, 15:01 - Ben: Hello\n"
    assert detect(_zip(tmp_path / "a.zip", {"Ana.txt": chat})) == "whatsapp"
    assert detect(_zip(tmp_path / "b.zip", {"notes/todo.txt": b"Buy milk\n", "Ana.txt": chat})) == "whatsapp"


ORG = [  # (content, tags): a headline's tags tag its subtree (Org's inheritance), the file's every section
    ("Work log > Projects > Gateway: Deadline moved to 20 March.", ["work", "project", "urgent"]),
    ("Work log > Projects > Gateway > Notes: Ask Priya for the test keys.", ["work", "project", "urgent"]),
    ("Work log > Projects > Billing: Waiting for the invoice data.", ["work", "project"]),
    ("Work log > Personal: Dentist on Friday.", ["work", "home"]),
]


def test_org_headline_tags_tag_their_subtree() -> None:
    recs, rep = _notes(NOTES / "org" / "worklog.org")
    assert [(r.content, r.tags) for r in recs] == ORG and rep.warnings == []


NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Joplin "Markdown + Front Matter": the title, the dates (UTC, "Z"), the tags list; its heading repeats the title;
    # "completed?" (Joplin writes it for to-dos only) and "due" make its to-do line (round 14)
    "joplin_md": [("Home/Boiler service.md", "Boiler service: Oscar comes Thursday at 8.\n[ ] To-do (due 2024-03-20 09:00 UTC)",
                   D(2024, 3, 12, 9, 15, tzinfo=timezone.utc), ["home", "boiler"])],
    # Joplin plain Markdown: a folder a notebook, pictures in _resources (no notes)
    "joplin_plain": [("Travel/Ferry times.md", "Ferry times: The 8:30 ferry to Barreiro, back at 18:10.\n\nticket.png",
                      None, [])],
    # Bear: the tags line closing the note tags it and is no text of it (a nested tag as written)
    "bear": [("Trip to Lisbon.md", "Trip to Lisbon: Book the train on Monday.\nAsk Rita about the flat.", None,
              ["travel/2024", "family trip", "todo"])],
    # Obsidian: Dataview fields read "key: value"; a callout with no title is titled by its type
    "obsidian": [("Boiler.md", "Boiler: status: waiting for quote\nOscar said price: 2400 EUR last week.\n\n"
                  "> Gas smell\n> Call 800 200 200 first.\n\n> Tip\n> Reset takes 30 s.", None, ["home"])],
    # the keys note apps date a note by: Notesnook's created_at, createdAt (an offset kept), "Creation Date"
    # (as written: no zone), created-on written out, dateCreated, Joplin's created_time; the update dates are not it
    "frontdates": [
        ("Book club.md", "Book club: Next book: The Dispossessed.", D(2024, 3, 12, 9, 15), []),
        ("Car service.md", "Car service: Service due at 60,000 km.", D(2024, 3, 12), []),
        ("Gym plan.md", "Gym plan: Squats, rows, 3x8.", D(2024, 3, 12, 9, 15, tzinfo=timezone(timedelta(hours=1))), []),
        ("Insurance claim.md", "Insurance claim: Claim number 88-1234. Adjuster visits Monday.",
         D(2024, 3, 12, 9, 15, tzinfo=timezone.utc), ["house", "insurance"]),
        ("Passport.md", "Passport: Renew before the trip; photos at the kiosk.", D(2024, 3, 12, 9, 15, tzinfo=timezone.utc),
         []),
        ("Tax return.md", "Tax return: Accountant needs the rent receipts.", D(2024, 3, 12), []),
    ],
    # Apple Notes exported as HTML into a .md: read as the page it is (its heading the title, its list a list)
    "applenotes": [("Gate code.md", "Gate code: 4711, then press the bell.\n\nNeighbour: Rui, 2nd floor\n"
                    "- parcel box: 12\n- bins: Tuesday", None, [])],
}


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_notes_of_other_apps(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    assert [(r.thread, r.content, r.event_at, r.tags) for r in recs] == NOTE_CASES[name]
    assert rep.warnings == []


def test_dataview_fields_are_metadata_too() -> None:
    recs, _ = _notes(NOTES / "obsidian")
    assert recs[0].metadata["fields"] == {"status": "waiting for quote", "price": "2400 EUR"}


def test_every_unseen7_notes_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted([*NOTE_CASES, "org", "txtzip"])


# --- files that are no export: one line saying what each is ----------------------------------------------

NOT_EXPORT = {
    "Episode 3.srt": "subtitles of a video (SubRip)",
    "captions.vtt": "subtitles of a video (WebVTT)",
    "server.log": "a program's log",
    "calls-20240313150000.xml": "an SMS Backup & Restore call log (not an export mem reads)",
    "Budget.numbers": "an Apple Pages, Numbers or Keynote document",
    "signal-2024-03-13-15-00-00.backup": "an encrypted Signal backup (not an export mem reads)",
}
# Refused here until round 21 (tests/test_importers_unseen21.py): chats now, each with its two turns.
READ_SINCE_21 = {"sms-20240313150000.xml": "sms", "[LINE] Chat with Ana.txt": "line",
                 "KakaoTalk_20240313_1530.txt": "kakaotalk"}


@pytest.mark.parametrize("name", sorted(NOT_EXPORT))
def test_a_file_that_is_no_export_says_what_it_is(name: str) -> None:
    with pytest.raises(ImportFormatError, match=re.escape(f": {NOT_EXPORT[name]}; expected a WhatsApp chat")):
        detect(FIX / "notexport" / name)


def test_every_unseen7_non_export_has_a_case() -> None:
    assert sorted(p.name for p in (FIX / "notexport").iterdir()) == sorted([*NOT_EXPORT, *READ_SINCE_21,
                                                                            "Telegram copy.txt", "contacts.csv"])


def test_google_contacts_csv_is_read_since_round_32() -> None:
    """Refused here (a contacts table) until round layouts32 (importers/vcf_csv.py): Google's older CSV layout."""
    from importers import ImportReport
    from importers.registry import PARSERS

    path = FIX / "notexport" / "contacts.csv"
    assert detect(path) == "vcf"
    recs = list(PARSERS["vcf"].parse(path, ImportReport(str(path), "vcf")))
    assert [r.content for r in recs] == [
        "Contact: Ana Sousa — phone +351 912 000 111 (cell); email ana@example.pt (home); birthday 1988-03-04",
        "Contact: Oscar Lima — phone +351 912 000 222 (work); note Plumber"]


@pytest.mark.parametrize("name", sorted(READ_SINCE_21))
def test_line_kakaotalk_and_sms_are_read_since_round_21(name: str) -> None:
    from importers import ImportReport
    from importers.registry import PARSERS

    path = FIX / "notexport" / name
    kind = READ_SINCE_21[name]
    assert detect(path) == kind
    recs = list(PARSERS[kind].parse(path, ImportReport(str(path), kind)))
    assert [r.content for r in recs] == {
        "sms": ["Oscar: Boiler fixed"],
        "line": ["Ana: Are you coming tonight?", "Ben: Yes, at 8"],
        "kakaotalk": ["Ana: 오늘 올 거야?", "Ben: 응, 8시에"]}[kind]


def test_a_telegram_chat_copied_as_text_is_read_since_round_20() -> None:
    """Refused here until round 20 (tests/test_importers_unseen20.py): two chat turns now."""
    from importers import ImportReport
    from importers.registry import PARSERS

    path = FIX / "notexport" / "Telegram copy.txt"
    assert detect(path) == "telegram"
    recs = list(PARSERS["telegram"].parse(path, ImportReport(str(path), "telegram")))
    assert [(r.content, r.event_at) for r in recs] == [("Ana Sousa: Are you coming tonight?", datetime(2024, 3, 13, 15, 0)),
                                                      ("Ben Costa: Yes, at 8", datetime(2024, 3, 13, 15, 1))]


def test_the_cli_names_a_log_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(FIX / "notexport" / "server.log"))
    out = _envelope(proc)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    assert "a program's log" in out["error"]["message"] and "\n" not in out["error"]["message"]
    assert not db.exists() or _envelope(run_cli("--db", str(db), "stats"))["data"]["memories"] == 0
