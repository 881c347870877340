"""Round 8 of export layouts nobody here had seen (tests/fixtures/unseen8, written by hand from how the
apps export; nothing copied from a real export or from ../shared; see its README.md):

* WhatsApp: Android chats in thirteen locales not read before (ca, bg, sk, hr, sr, lt, et, lv, sl, fil, kk,
  az, nb), each with its encryption notice, media placeholder, deleted message, edited marker and missed
  call; English Android notices of business chats (Meta's service), view-once ("null" and "<View once …
  omitted>"), disappearing messages, a document with its caption, group events quoting a subject with a
  colon; iOS completed and unanswered calls, a German iOS poll; a "with media" zip listing its files;
  zips holding a single .txt (a note, a Telegram copy, binary data);
* ChatGPT 2025: the "commentary" channel (GPT-5's preambles and tool calls, not its final words), photo and
  voice parts, image generation, the memory put before a conversation, the export folder's other files,
  deep research, agent mode;
* Claude 2025: ``memories.json``, the ``create_file`` tool, the starter project, redacted thinking and
  knowledge results;
* vCard: a 2.1 AGENT holding a nested card, CATEGORIES with an escaped comma, escaped ORG/TITLE/NOTE with
  tab-folded lines and a folded photo, CR-only line ends, iOS 17 social profiles, Nokia's 2.1 quoted-printable
  note;
* notes: Bear nested and emoji tags, Obsidian footnotes/highlights/foldable callouts/embeds, a Joplin JEX
  (a tar of its RAW items, tags by note_tag items), a Standard Notes "Super" note (Lexical JSON), Keep's
  2024 Takeout (a note of only a picture), Evernote to-dos and an encrypted section, front matter tags.

WhatsApp times are the phone's wall clock as written (naive); ChatGPT and Claude times UTC (aware)."""

from __future__ import annotations

import io
import re
import tarfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, vcards, wa
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope
from importer_cli import write_zip as _zip

from importers import ImportFormatError, ImportReport, Record, chatgpt, claude, vcf
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen8"
D = datetime
UTC = timezone.utc

# --- WhatsApp: thirteen Android locales ---------------------------------------------------------------

WA = FIX / "whatsapp"
_LOCALES = {  # file: (date order, first message, the edited one, the multi-line one, the last one)
    "android_ca.txt": ("dmy", "Jordi: Sopem a les nou?", "Laia: Porto les cadires", "Laia: D'acord\njo porto el vi",
                       "Jordi: Fins després"),
    "android_bg.txt": ("dmy", "Иван: Вечеря в девет?", "Мария: Нося салата", "Мария: Добре\nще донеса вино",
                       "Иван: До после"),
    "android_sk.txt": ("dmy", "Peter: Večera o deviatej?", "Zuzana: Prinesiem stoličky",
                       "Zuzana: Dobre\nprinesiem víno", "Peter: Zatiaľ"),
    "android_hr.txt": ("dmy", "Ivan: Večera u devet?", "Marija: Donosim stolice", "Marija: Može\ndonosim vino",
                       "Ivan: Vidimo se"),
    "android_sr.txt": ("dmy", "Марко: Вечера у девет?", "Јелена: Доносим столице", "Јелена: Може\nдоносим вино",
                       "Марко: Видимо се"),
    "android_lt.txt": ("ymd", "Jonas: Vakarienė devintą?", "Rūta: Atnešiu kėdes", "Rūta: Gerai\natnešiu vyno",
                       "Jonas: Iki"),
    "android_et.txt": ("dmy", "Mart: Õhtusöök kell üheksa?", "Liis: Toon toolid", "Liis: Sobib\ntoon veini",
                       "Mart: Näeme"),
    "android_lv.txt": ("dmy", "Jānis: Vakariņas deviņos?", "Līga: Atnesīšu krēslus", "Līga: Labi\natnesīšu vīnu",
                       "Jānis: Līdz vakaram"),
    "android_sl.txt": ("dmy", "Luka: Večerja ob devetih?", "Nina: Prinesem stole", "Nina: Velja\nprinesem vino",
                       "Luka: Se vidimo"),
    "android_fil.txt": ("mdy", "Paolo: Hapunan mamayang alas-nuwebe?", "Bea: Dadalhin ko ang mga upuan",
                        "Bea: Sige\nmagdadala ako ng alak", "Paolo: Kita tayo"),
    "android_kk.txt": ("dmy", "Ерлан: Кешкі ас тоғызда ма?", "Айгүл: Орындықтарды әкелемін",
                       "Айгүл: Жарайды\nшарап әкелемін", "Ерлан: Кездескенше"),
    "android_az.txt": ("dmy", "Elvin: Şam yeməyi doqquzda?", "Aysel: Stulları gətirirəm",
                       "Aysel: Oldu\nşərab gətirəcəyəm", "Elvin: Görüşərik"),
    "android_nb.txt": ("dmy", "Ola: Middag klokken ni?", "Kari: Jeg tar med stoler", "Kari: Greit\njeg tar med vin",
                       "Ola: Ses"),
}
# Every locale chat: 12 March 2024 from 21:00: an encryption notice, a deleted message and a missed call are
# notices; the media placeholder is media; the edited message keeps its words, not its marker.
WA_CASES: dict[str, tuple[Any, ...]] = {
    name: ("dashed", order, "gregorian", (3, 1), [(first, D(2024, 3, 12, 21, 1)), (edited, D(2024, 3, 12, 21, 4)),
                                                  (multi, D(2024, 3, 12, 21, 6)), (last, D(2024, 3, 12, 21, 7))],
           {edited})
    for name, (order, first, edited, multi, last) in _LOCALES.items()
}
WA_CASES["android_fil.txt"][4].append(("Bea: Salamat kagabi!", D(2024, 3, 13, 8, 30)))
WA_CASES.update({
    # Meta's notices of a business chat are no one's words
    "android_en_business.txt": ("dashed", "dmy", "gregorian", (3, 1), [
        ("Porto Bikes: Hi Ana! Your bike is ready for pickup.", D(2024, 3, 12, 10, 1)),
        ("Ana: Great, I'll come at 5", D(2024, 3, 12, 10, 5)),
        ("Porto Bikes: See you then. Total is 45 EUR.", D(2024, 3, 12, 10, 7))]),
    # a document's caption is its sender's words; the picture and the voice note alone are media
    "android_en_caption.txt": ("dashed", "dmy", "gregorian", (0, 2), [
        ("Ana: Here is the quote", D(2024, 3, 12, 18, 0)),
        ("Ana: Boiler quote from Oscar, valid until April", D(2024, 3, 12, 18, 1)),
        ("Ben: Looks fine, go ahead", D(2024, 3, 12, 18, 4))]),
    # group events, one quoting a subject with a colon, a number joining by link
    "android_en_groupevents.txt": ("dashed", "dmy", "gregorian", (8, 0), [
        ("Ana: Bins go out on Tuesday", D(2024, 3, 12, 9, 4)),
        ("+351 912 345 678: Hi all, I'm Rui from number 14", D(2024, 3, 12, 9, 6)),
        ("Ana: Welcome Rui", D(2024, 3, 12, 9, 9))]),
    # Android writes a view-once photo as "null"; disappearing messages turned on is a notice
    "android_en_viewonce_null.txt": ("dashed", "dmy", "gregorian", (3, 2), [
        ("Ana: Look at this", D(2024, 3, 12, 15, 1)),
        ("Ben: Ha! Where was that?", D(2024, 3, 12, 15, 2)),
        ("Ben: OK see you at 8", D(2024, 3, 12, 15, 6))]),
    # iOS in German: a poll is kept as written; a picture and a sticker are media; a missed call a notice
    "ios_de_poll.txt": ("bracketed", "dmy", "gregorian", (2, 2), [
        ("Jonas: UMFRAGE:\nWann grillen wir?\nOPTION: Samstag (2 Stimmen)\nOPTION: Sonntag (1 Stimme)",
         D(2024, 3, 12, 20, 1)),
        ("Lena: Samstag passt", D(2024, 3, 12, 20, 3)),
        ("Jonas: Dann bis Samstag", D(2024, 3, 12, 20, 6))], {"Lena: Samstag passt"}),
    # iOS: a call that was held ("Voice call, 12 min") or not answered is a notice as a missed one is
    "ios_en_calls.txt": ("bracketed", "dmy", "gregorian", (5, 2), [
        ("Ana: Dinner at Rui’s on Friday?", D(2024, 3, 12, 20, 1, 10)),
        ("Ben: Yes! I’ll bring dessert", D(2024, 3, 12, 20, 3)),
        ("Ben: See you Friday", D(2024, 3, 12, 20, 9))], {"Ben: Yes! I’ll bring dessert"}),
    # iOS chats re-saved by an editor that dropped WhatsApp's U+200E marks (written after the first fixes of
    # this round): a short "<what> omitted" in the phone's language is still media; a person's sentence that
    # holds the word ("Die Fliesen sind weggelassen worden?") is no placeholder
    "ios_de_nomarks.txt": ("bracketed", "dmy", "gregorian", (2, 2), [
        ("Jonas: Schau mal, die neue Küche", D(2024, 3, 12, 19, 1)),
        ("Lena: Wow! Wann seid ihr fertig?", D(2024, 3, 12, 19, 2)),
        ("Lena: Die Fliesen sind weggelassen worden?", D(2024, 3, 12, 19, 5)),
        ("Jonas: Nein, die kommen Montag", D(2024, 3, 12, 19, 6))]),
    "ios_fr_nomarks.txt": ("bracketed", "dmy", "gregorian", (1, 3), [
        ("Luc: Voilà la cuisine", D(2024, 3, 12, 19, 1)),
        ("Chloé: Magnifique !", D(2024, 3, 12, 19, 2)),
        ("Chloé: Le carrelage est absent ?", D(2024, 3, 12, 19, 5)),
        ("Luc: Il arrive lundi", D(2024, 3, 12, 19, 6))]),
})


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_8(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen8_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_words_like_the_new_notices_stay_a_persons(tmp_path: Path) -> None:
    """A person's words that hold a notice's words are no notice: only the whole body is."""
    texts = ["Това съобщение беше изтрито по погрешка, ето го пак", "Ova poruka je izbrisana? Ne vidim je",
             "<Medija praleista> is what I see", "null and void", "Voice call, later?", "See sõnum kustutati eile"]
    chat = tmp_path / "chat.txt"
    chat.write_text("".join(f"12/03/2024, 15:{i:02d} - Ana: {t}\n" for i, t in enumerate(texts)), encoding="utf-8")
    recs, rep = wa(chat)
    assert [r.content for r in recs] == [f"Ana: {t}" for t in texts]
    assert (rep.skipped_system, rep.skipped_media) == (0, 0)


def test_a_chat_zip_with_its_media_files(tmp_path: Path) -> None:
    src = FIX / "whatsapp_zip"
    path = _zip(tmp_path / "WhatsApp Chat with Ana.zip", {p.name: p.read_bytes() for p in sorted(src.iterdir())})
    assert detect(path) == "whatsapp"
    recs, rep = wa(path)
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("Ana: Here is the quote", D(2024, 3, 12, 18, 0), "Ana"),
        ("Ana: Boiler quote from Oscar, valid until April", D(2024, 3, 12, 18, 1), "Ana"),
        ("Ben: Looks fine, go ahead", D(2024, 3, 12, 18, 4), "Ana")]
    assert recs[1].metadata["media"] == ["DOC-20240312-WA0004.pdf"] and rep.skipped_media == 2
    assert rep.warnings == []


# A zip of a single .txt is tried as a chat; when it is none, it is what the same file alone would be, and the
# one-line error names the member: a plain-text note is not turned into a chat nor silently into a note (a chat
# of a layout not read yet would become one big note), a Telegram copy and binary data are named.
SINGLE_TXT = {
    "Packing list.txt": "plain text with no chat header",
    "data.txt": "binary data",
}


@pytest.mark.parametrize("name", sorted(SINGLE_TXT))
def test_a_zip_of_one_txt_that_is_no_chat_names_what_it_is(tmp_path: Path, name: str) -> None:
    path = _zip(tmp_path / "export.zip", {name: (FIX / "single_txt" / name).read_bytes()})
    with pytest.raises(ImportFormatError) as err:
        kind = detect(path)
        assert kind == "whatsapp"
        wa(path)
    message = str(err.value)
    assert f"{path}!{name}" in message and SINGLE_TXT[name] in message and "\n" not in message


def test_a_zip_of_a_telegram_copy_is_read_since_round_21(tmp_path: Path) -> None:
    """Refused here until round 21 (tests/test_importers_unseen21.py): the zipped copy reads as the file alone."""
    from importers import ImportReport
    from importers.registry import PARSERS

    name = "Chat with Ana.txt"
    path = _zip(tmp_path / "export.zip", {name: (FIX / "single_txt" / name).read_bytes()})
    assert detect(path) == "telegram"
    alone = FIX / "single_txt" / name
    zipped = [r.content for r in PARSERS["telegram"].parse(path, ImportReport(str(path), "telegram"))]
    assert zipped and zipped == [r.content for r in PARSERS["telegram"].parse(alone, ImportReport(str(alone), "telegram"))]


def test_the_cli_names_the_member_of_a_zip_of_one_note(tmp_path: Path) -> None:
    name = "Packing list.txt"
    path = _zip(tmp_path / "export.zip", {name: (FIX / "single_txt" / name).read_bytes()})
    db = tmp_path / "m.db"
    proc = run_cli("--db", str(db), "import", str(path))
    out = _envelope(proc)
    assert proc.returncode == 1 and out["error"]["code"] == "invalid_input", out
    assert f"{path}!{name}" in out["error"]["message"] and "plain text with no chat header" in out["error"]["message"]
    assert "Traceback" not in proc.stderr


# --- ChatGPT 2025 -------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1742900000  # 2025-03-25 10:53:20 UTC


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


GPT_CASES: dict[str, tuple[list[tuple[str, datetime, str]], tuple[int, int, int, int]]] = {
    # folder: ([(content, time, title)], (system, tool, media, seen)): GPT-5's commentary (a preamble, its
    # web.run call) is not its final words; the final answer loses its private-use citation marks
    "commentary": ([("User: What is the ECB deposit rate now?", _t(1), "ECB rate"),
                    ("Assistant: The deposit rate is 2.50% since 12 March 2025.", _t(9), "ECB rate")], (3, 1, 0, 6)),
    # a photo with words (the photo in the metadata), a voice question and the spoken answer as their words
    "multimodal": ([("User: What plant is this?", _t(1), "Plant"),
                    ("Assistant: A monstera deliciosa.", _t(4), "Plant"),
                    ("User: Is it safe for cats?", _t(10), "Plant"),
                    ("Assistant: No: it is toxic to cats, keep it out of reach.", _t(12), "Plant")], (0, 0, 0, 4)),
    # image generation: the call and the picture it made are tool traffic
    "imagegen": ([("User: Draw a round logo for Porto Bikes, blue and white", _t(1), "Bike shop logo"),
                  ("Assistant: Here is the logo: a blue bicycle wheel on white.", _t(41), "Bike shop logo")],
                 (1, 1, 0, 4)),
    # the memory ChatGPT puts before a conversation is context it was given, not something said
    "model_context": ([("User: A quick dinner for tonight?", _t(1), "Dinner"),
                       ("Assistant: Chickpea curry: 25 minutes.", _t(3), "Dinner")], (1, 0, 0, 3)),
    # shared links, feedback, the user and chat.html beside conversations.json: read from conversations.json only
    "export_folder": ([("User: Last ferry to Barreiro?", _t(1), "Ferry"),
                       ("Assistant: At 01:30 from Terreiro do Paco.", _t(2), "Ferry")], (0, 0, 0, 2)),
    # deep research: the kickoff call and its receipt are tool traffic; the report is the answer
    "deep_research": ([("User: Compare air-to-water heat pumps for a flat in Porto", _t(1), "Heat pumps"),
                       ("Assistant: Do you have a budget and the flat's size?", _t(2), "Heat pumps"),
                       ("User: 8000 EUR, 90 m2", _t(30), "Heat pumps"),
                       ("Assistant: # Heat pumps for a 90 m2 flat\n\nA 6 kW monobloc fits the budget.", _t(900),
                        "Heat pumps")], (1, 1, 0, 6)),
    # agent mode: the computer call, its screenshot and a tool error are no words of the conversation
    "agent": ([("User: Book a table for two at Taberna Rua Nova on Friday at 8", _t(1), "Book a table"),
               ("Assistant: Booked: Friday 20:00, two people, confirmation TR-4471.", _t(60), "Book a table")],
              (-1, -1, 0, 5)),
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_2025_layouts(name: str) -> None:
    path = GPT / name
    assert detect(path) == "chatgpt"
    rep = ImportReport(str(path), "chatgpt")
    recs = list(chatgpt.parse(path, rep))
    expected, (system, tool, media, seen) = GPT_CASES[name]
    assert [(r.content, r.event_at, r.metadata["title"]) for r in recs] == expected
    if system < 0:  # agent mode: which of the two counts a tool error goes to is no user-visible matter
        assert rep.skipped_system + rep.skipped_tool == 3
    else:
        assert (rep.skipped_system, rep.skipped_tool) == (system, tool)
    assert (rep.skipped_media, rep.messages_seen, rep.warnings) == (media, seen, [])
    assert all(r.author in ("User", "Assistant") and r.memory_type == "episodic" for r in recs)


def test_chatgpt_photo_and_voice_metadata() -> None:
    rep = ImportReport("x", "chatgpt")
    recs = list(chatgpt.parse(GPT / "multimodal", rep))
    assert recs[0].metadata["images"] == ["sediment://file_00000000abcd"] and "images" not in recs[2].metadata


def test_every_unseen8_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# --- Claude 2025 --------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"
U = "c1a8de00-0000-4000-8000-0000000000"


def _claude(name: str) -> tuple[list[Record], ImportReport]:
    path = CLAUDE / name
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep)), rep


def test_claude_memories_are_semantic_memories() -> None:
    recs, rep = _claude("memories")
    assert [(r.content, r.memory_type, r.event_at) for r in recs] == [
        ("User: The boiler shows F28 again.", "episodic", D(2025, 9, 20, 8, 0, 1, tzinfo=UTC)),
        ("Assistant: Same as in March: call Oscar for the service.", "episodic", D(2025, 9, 20, 8, 0, 9, tzinfo=UTC)),
        # memories.json: each section of what Claude remembers (an empty one says nothing), then each project's
        ("Claude memory: Work context: Ana is an architect in Porto who works from home on Fridays.", "semantic", None),
        ("Claude memory: Personal context: Ana is vegetarian. Her boiler is serviced by Oscar.", "semantic", None),
        ("Claude memory of project Rua Nova flat: The Rua Nova flat renovation: budget 30000 EUR, builder starts in "
         "May.", "semantic", None),
    ]
    assert rep.warnings == [] and recs[2].metadata["memory"] == "conversations"
    assert recs[4].metadata["project"] == "Rua Nova flat"


def test_claude_memories_are_kept_once_by_the_cli(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(CLAUDE / "memories")))
    assert out["ok"] and out["data"]["memories_added"] == 5, out
    assert _envelope(run_cli("--db", str(db), "import", str(CLAUDE / "memories")))["data"]["memories_added"] == 0


def test_claude_create_file_writes_a_document_of_the_answer() -> None:
    recs, rep = _claude("create_file")
    assert [r.content for r in recs] == [
        "User: Make me a budget file for the flat",
        "Assistant: I'll create the budget.\n\n[artifact: budget.md]\n# Budget\n- kitchen 9000 EUR\n- floors 6500 EUR"
        "\n\nThe budget is in budget.md: 15500 EUR in all."]
    # the create_file receipt and the str_replace receipt are tool blocks; the edit is applied to the file it
    # edits, shown once as edited (round 9)
    assert (rep.skipped_tool, rep.warnings) == (2, [])
    assert recs[1].metadata["artifacts"] == ["budget.md"]


def test_claude_starter_project_is_not_the_users() -> None:
    recs, rep = _claude("starter_project")
    assert [(r.content, r.memory_type) for r in recs] == [
        ("Claude project Garden: Planting plan for the balcony.", "semantic"),
        ("Claude project Garden instructions: Answer in metric units.", "procedural")]
    assert rep.warnings == []


def test_claude_redacted_thinking_and_knowledge_results() -> None:
    recs, rep = _claude("blocks")
    assert [(r.content, r.event_at) for r in recs] == [
        ("User: Is there a train strike in Portugal on Friday?", D(2025, 9, 22, 7, 0, 1, tzinfo=UTC)),
        ("Assistant: Yes: CP has a partial strike on Friday 26 September.", D(2025, 9, 22, 7, 0, 20, tzinfo=UTC))]
    assert (rep.skipped_tool, rep.warnings) == (2, [])


def test_every_unseen8_claude_fixture_has_a_test() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == ["blocks", "create_file", "memories", "starter_project"]


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"
VCF_CASES: dict[str, list[tuple[str, list[str]]]] = {  # file: [(content, tags)]
    # vCard 2.1 AGENT: the card of the contact's assistant, nested; both are contacts, the outer one keeps its
    # e-mail (after the nested card) and names the assistant
    "agent_21.vcf": [
        ("Contact: Chidi Okafor — phone +44 20 7946 0958 (work); email chidi@okafor.example; related Ana Reyes "
         "(assistant)", []),
        ("Contact: Ana Reyes — phone +44 20 7946 0000 (work)", []),
    ],
    # vCard 3.0 AGENT: the nested card written on one line, its line breaks escaped (written after the first
    # fixes of this round)
    "agent_30_inline.vcf": [
        ("Contact: Chidi Okafor — phone +44 20 7946 0958 (work); email chidi@okafor.example; related Ana Reyes "
         "(assistant)", []),
        ("Contact: Ana Reyes — phone +44 20 7946 0000 (work)", []),
    ],
    # CATEGORIES: a comma separates, an escaped comma is part of a category
    "categories_30.vcf": [
        ("Contact: Rui Lima — phone +351 912 000 111 (cell)", ["Family", "Climbing, Tuesday"]),
        ("Contact: Maria Costa — phone +351 213 000 222 (home)", ["Climbing, Tuesday"]),
    ],
    # escapes in ORG, TITLE and NOTE; a TAB-folded phone, a folded e-mail, a folded photo (never text)
    "escaped_tab_folded.vcf": [
        ("Contact: Jun Tanaka — phone +81-3-1234-5678 (work); email jun@acme.example; org ACME, Inc., R&D; title Head "
         "of R&D; Tokyo; note Met at the Porto conference. Likes green tea, not coffee.", []),
    ],
    # old Mac address book: CR alone ends a line
    "mac_cr_only.vcf": [
        ("Contact: Bea Silva — phone +55 11 91234-5678 (cell); birthday 1990-07-04", []),
        ("Contact: Min Park — phone +82 2 123 4567 (home)", []),
    ],
    # iOS 17: a labelled e-mail, a related name, a birthday of no year; social profiles, IMPP and the home page
    # are ways to reach her since round 9
    "ios17_social.vcf": [
        ("Contact: Lena Berg — phone +46 70 123 45 67 (cell); email lena@berg.example (Studio); im lena.berg (Skype); "
         "profile lenaberg (instagram); web https://berg.example (home page); birthday 2 November; related Erik Berg "
         "(spouse)", []),
    ],
    # Nokia 2.1: a quoted-printable UTF-8 name and a note of two lines with a soft break inside a number
    "nokia_21_note_qp.vcf": [
        ("Contact: Jürgen Müller — phone +49 170 1234567 (cell); phone +49 30 9876543 (work); note Schlüssel liegt "
         "beim Nachbarn. Garagentor-Code 4711.", []),
    ],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_8(name: str) -> None:
    path = VCF / name
    recs, rep = vcards(path)
    assert [(r.content, r.tags) for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_the_agent_is_an_alias_of_its_own_card() -> None:
    recs = list(vcf.parse(VCF / "agent_21.vcf", ImportReport("x", "vcf")))
    assert recs[1].aliases.get("+44 20 7946 0000") == "Ana Reyes" and "+44 20 7946 0000" not in recs[0].aliases


def test_every_unseen8_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Bear: nested tags as written, a multi-word tag closed by "#", an emoji tag; the closing tags line is no
    # text (its tags first, as round 7 orders them);
    # text; a URL's anchor and an issue number are no tags
    "bear_nested": [("Reading.md", "Reading: Finish *The Dispossessed* by Sunday. #books/2024/fiction #to read#\n"
                     "Ask Rita for the next one: see https://example.com/list#top and issue #123.", None,
                     ["📚", "books/2024", "books/2024/fiction", "to read"])],
    # Obsidian: a footnote reads [1], a highlight loses its marks, a block id and a comment are no text, a
    # foldable callout is titled, embeds read as what they name
    "obsidian_embeds": [
        ("Boiler.md", "Boiler: The service is due in April.[1] Gas smell: call 800 200 200 first.\n\n"
         "> Before the service\n> Turn the boiler off the night before.\n\nBoiler manual.pdf\nOscar > Phone\n\n"
         "- [x] book Oscar\n- [ ] clear the cupboard\n\n[1] Last one was 12 April 2023.", None, ["home/boiler"]),
        ("Oscar.md", "Oscar > Phone: +351 912 000 333", None, []),
    ],
    # Standard Notes "Super" note: its text is the editor's JSON (Lexical); read as the words it holds, its
    # first line (the title again) not repeated; a plain note tagged by a Tag item; the items key stays unread
    "standard_notes_super": [
        ("Standard Notes Backup and Import File.txt", "Gate code: The code is 4711, then press the bell.\n"
         "- parcel box: 12\n- bins: Tuesday", D(2024, 3, 12, 9, 15, tzinfo=UTC), []),
        ("Standard Notes Backup and Import File.txt", "Ferry: Last ferry to Barreiro at 01:30.",
         D(2024, 3, 13, 18, 0, tzinfo=UTC), ["travel"]),
    ],
    # Keep, 2024 Takeout (textContentHtml beside textContent); a note of only a picture is media
    "keep_2024": [
        ("Takeout/Keep/Paint.json", "Paint: - [x] White for the ceiling\n- [ ] Sage green for the bedroom",
         D(2024, 3, 13, 9, 30, tzinfo=UTC), ["Renovation"]),
        ("Takeout/Keep/Tile shop.json", "Tile shop: Tiles: 24 boxes of the grey ones, ask for the 5% discount.\n"
         "Link: Azulejos Porto - tiles https://tiles.example/porto",  # its web link: read since round 10
         D(2024, 3, 12, 9, 30, tzinfo=UTC), ["Renovation"]),
    ],
    # Evernote: to-dos as checkboxes; an encrypted section's cipher text is no words of the note
    "enex_todo": [
        ("Renovation.enex#Before the builders come", "Before the builders come: [x] Empty the kitchen\n"
         "[ ] Move the piano\nAlarm code: [encrypted]", D(2024, 3, 12, 9, 15, tzinfo=UTC), ["renovation", "flat"]),
        ("Renovation.enex#Builder's number", "Builder's number: Rui: +351 912 000 444",
         D(2024, 3, 13, 10, 15, tzinfo=UTC), []),
    ],
    # front matter tags in a flow list: a nested tag, one written with its "#", a number
    "frontmatter_tags": [("Kitchen.md", "Kitchen plan: Oven goes left of the window; the fridge by the door.",
                          D(2024, 3, 12, 9, 15), ["home/kitchen", "renovation", "2024"])],
}


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_notes_of_round_8(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    assert [(r.thread, r.content, r.event_at, r.tags) for r in recs] == NOTE_CASES[name]
    assert rep.warnings == []


def test_a_keep_note_of_only_a_picture_is_media() -> None:
    _, rep = _notes(NOTES / "keep_2024")
    assert (rep.skipped_media, rep.skipped_empty) == (1, 0)


def _jex(tmp_path: Path) -> Path:
    """Joplin's JEX export: an uncompressed tar of its RAW items (notes, notebooks, tags, note_tag links)."""
    path = tmp_path / "Joplin Export.jex"
    with tarfile.open(path, "w") as tar:
        for item in sorted((NOTES / "jex_src").iterdir()):
            data = item.read_bytes()
            info = tarfile.TarInfo(item.name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_joplin_jex_is_read_as_its_raw_items(tmp_path: Path) -> None:
    path = _jex(tmp_path)
    recs, rep = _notes(path)
    # the notebook (type_ 2), the tag (5) and the note-tag link (6) are no notes; the link tags the note
    assert [(r.thread, r.content, r.event_at, r.tags) for r in recs] == [
        ("1a2b3c4d5e6f4a8b9c0d1e2f3a4b5c6d.md", "Window measurements: Living room: 140 x 120 cm, two of them.\n"
         "Bedroom: 90 x 120 cm.", D(2024, 3, 12, 9, 15, tzinfo=UTC), ["renovation"])]
    assert rep.warnings == []
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["format"] == "markdown" and out["data"]["memories_added"] == 1, out


def test_joplin_raw_folder_is_tagged_by_its_links_too() -> None:
    recs, _ = _notes(NOTES / "jex_src")
    assert [(r.content.split(":")[0], r.tags) for r in recs] == [("Window measurements", ["renovation"])]


def test_a_tar_that_is_no_joplin_export_says_so(tmp_path: Path) -> None:
    path = tmp_path / "backup.jex"
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo("readme.bin")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"\x00\x01\x02"))
    with pytest.raises(ImportFormatError, match=re.escape(str(path))):
        _notes(path)


def test_every_unseen8_notes_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted([*NOTE_CASES, "jex_src"])


# --- bad input in the new layouts: no traceback, nothing lost that can be read ---------------------------


def test_a_cut_agent_card_keeps_both_contacts(tmp_path: Path) -> None:
    path = tmp_path / "cut.vcf"
    path.write_text("BEGIN:VCARD\nVERSION:2.1\nFN:Chidi Okafor\nAGENT:\nBEGIN:VCARD\nFN:Ana Reyes\nTEL:+44 20 7946 0000\n",
                    encoding="utf-8")
    rep = ImportReport(str(path), "vcf")
    recs = list(vcf.parse(path, rep))
    assert [r.content for r in recs] == ["Contact: Chidi Okafor — related Ana Reyes (assistant)",
                                         "Contact: Ana Reyes — phone +44 20 7946 0000"]
    assert len(rep.warnings) == 1 and "without END:VCARD" in rep.warnings[0]


def test_a_super_note_that_is_no_editor_json_is_kept_as_written(tmp_path: Path) -> None:
    import json

    deep = "[" * 100_000 + "]" * 100_000  # past the JSON parser's depth: no RecursionError escapes
    items = [{"uuid": f"u{i}", "content_type": "Note", "created_at": "2024-01-01T00:00:00Z",
              "content": {"title": t, "text": text, "noteType": "super"}}
             for i, (t, text) in enumerate([("Deep", deep), ("Odd", json.dumps({"root": {"children": ["x", 5, None]}})),
                                            ("Plain", "not JSON at all")])]
    folder = tmp_path / "sn"
    folder.mkdir()
    (folder / "Standard Notes Backup and Import File.txt").write_text(json.dumps({"version": "004", "items": items}),
                                                                      encoding="utf-8")
    recs, rep = _notes(folder)
    assert [r.content[:12] for r in recs] == ["Deep: [[[[[[", "Plain: not J"] and rep.skipped_empty == 1


def test_claude_memories_of_odd_shapes(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "conversations.json").write_text("[]", encoding="utf-8")
    (folder / "memories.json").write_text('{"conversations_memory": "**Empty**\\n\\n**Work**\\nBuilds boats.", '
                                          '"project_memories": {"p1": null, "p2": "**Only a heading**", "p3": 7}}',
                                          encoding="utf-8")
    recs = list(claude.parse(folder, ImportReport(str(folder), "claude")))
    assert [r.content for r in recs] == ["Claude memory: Work: Builds boats.", "Claude memory of project p3: 7"]
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "conversations.json").write_text("[]", encoding="utf-8")
    (bad / "memories.json").write_text('[{"conversations_memory": 5, "project_memories": []}]', encoding="utf-8")
    with pytest.raises(ImportFormatError, match="no Claude conversation found"):
        list(claude.parse(bad, ImportReport(str(bad), "claude")))
