"""Export layouts the first fixtures did not have, written from how the apps export (not copied
from any real export; tests/fixtures/unseen/README.md): WhatsApp locales (French "à", Finnish
"klo", no comma, ISO and Hungarian dates, Arabic-Indic and Devanagari digits, Solar and lunar
Hijri years, iOS group events written as messages of the group), ChatGPT nodes of every content
type, Claude content blocks and the export zip's other files, Markdown front matter in TOML,
setext headings, HTML and outlines, Apple/Google/2.1 vCards. Each is checked for its exact
records (authors, times, text) through the parser, and end to end through ``mem.py import``
(dry run, real run, re-run), with the right format detected; broken inputs fail in one line."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout
from importer_cli import memory_count as _count
from importer_cli import one_envelope as _envelope
from importer_cli import wa as _wa
from importer_cli import write_zip as _zip

from importers import ImportFormatError, ImportReport, Record, chatgpt, claude, markdown, vcf, whatsapp
from importers.clock import islamic_to_gregorian, persian_to_gregorian
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen"
WA = FIX / "whatsapp"
D = datetime

# file: (layout, date order, calendar, (system lines, media lines) skipped, [(content, event time)])
WA_CASES: dict[str, tuple[str, str, str, tuple[int, int], list[tuple[str, datetime]]]] = {
    "android_ar_digits.txt": ("dashed", "dmy", "gregorian", (0, 1), [
        ("أحمد: صباح الخير", D(2023, 3, 12, 9, 15)),
        ("سارة: مساء النور", D(2023, 3, 12, 21, 16)),
    ]),
    "android_bg.txt": ("dashed", "dmy", "gregorian", (0, 0), [  # "12.03.23 г.," (година)
        ("Иван: Здравей", D(2023, 3, 12, 21, 15)),
        ("Мария: Добро утро", D(2023, 3, 13, 8, 0)),
    ]),
    "android_ko_short_year.txt": ("dashed", "ymd", "gregorian", (0, 0), [  # "23. 3. 28." is yy. M. d.
        ("민준: 메시지 0", D(2023, 3, 28, 21, 10)),
        ("민준: 메시지 1", D(2023, 3, 29, 21, 11)),
        ("민준: 메시지 2", D(2023, 3, 30, 21, 12)),
        ("민준: 메시지 3", D(2023, 3, 31, 21, 13)),
        ("서연: 답장 0", D(2023, 4, 1, 8, 10)),
        ("서연: 답장 1", D(2023, 4, 2, 8, 11)),
        ("서연: 답장 2", D(2023, 4, 5, 8, 12)),
    ]),
    "android_de_short.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Lena: Frohes neues Jahr!", D(2023, 12, 31, 23, 59)),
        ("Max: Dir auch! 🎉", D(2024, 1, 1, 0, 1)),
    ]),
    "android_es_am.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Lucía: hola", D(2024, 1, 5, 9, 41)),
        ("Tomás: adiós", D(2024, 1, 13, 21, 42)),
    ]),
    "android_fa_jalali.txt": ("dashed", "ymd", "persian", (0, 0), [
        ("علی: سلام", D(2024, 3, 11, 9, 15)),
        ("مریم: خداحافظ", D(2024, 3, 12, 21, 0)),
    ]),
    "android_fi_klo.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Aino: Moi!", D(2023, 3, 12, 9, 16)),
        ("Eero: Moikka", D(2023, 3, 12, 9, 17)),
    ]),
    "android_frca_h.txt": ("dashed", "ymd", "gregorian", (0, 0), [  # Canadian French "09 h 15"
        ("Ana: Salut!", D(2023, 3, 12, 9, 15)),
        ("Luc: Bonne soirée", D(2023, 3, 12, 21, 5)),
    ]),
    "android_fr_a.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Ana: Salut, ça va ?", D(2023, 3, 12, 9, 16)),
        ("Paul: Oui et toi", D(2023, 3, 12, 9, 17)),
    ]),
    "android_hi_digits.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("राम: नमस्ते", D(2023, 3, 12, 9, 15)),
        ("सीता: नमस्ते", D(2023, 3, 13, 21, 16)),
    ]),
    "android_hu.txt": ("dashed", "ymd", "gregorian", (0, 1), [
        ("Anna: Szia!", D(2023, 3, 12, 9, 15)),
        ("Béla: Szia, mi újság?", D(2023, 3, 12, 9, 16)),
    ]),
    "android_it.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Giulia: Ciao!", D(2023, 3, 12, 9, 16)),
    ]),
    "android_nl.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("Daan: Hoi!", D(2023, 3, 12, 9, 16)),
    ]),
    "android_ptbr.txt": ("dashed", "dmy", "gregorian", (2, 1), [
        ("João: Oi, tudo bem?", D(2023, 3, 12, 9, 16)),
        ("Maria: Tudo!", D(2023, 3, 12, 9, 17)),
    ]),
    "android_sv_iso.txt": ("dashed", "ymd", "gregorian", (1, 1), [
        ("Erik: Hej!", D(2023, 3, 12, 9, 16)),
        ("Karin: Hej hej", D(2023, 3, 12, 9, 17)),
    ]),
    "android_us_12h.txt": ("dashed", "mdy", "gregorian", (6, 2), [
        ("Ana Lopez: Happy new year in advance!", D(2023, 12, 31, 23, 58)),
        ("Ben: fireworks from the roof", D(2024, 1, 1, 0, 3)),
        ("Ana Lopez: POLL:\nDinner on Friday?\nOPTION: Pizza (2 votes)\nOPTION: Sushi (1 vote)", D(2024, 1, 2, 10, 0)),
        ("Ben: Booked the table for 8", D(2024, 1, 13, 13, 15)),
        ("Ana Lopez: Perfect", D(2024, 1, 13, 13, 17)),
        ("Carla: hi all", D(2024, 1, 13, 13, 21)),
        ("Ben: ok", D(2024, 1, 13, 13, 22)),
    ]),
    "android_tr.txt": ("dashed", "dmy", "gregorian", (1, 0), [  # "Bu mesaj silindi": deleted, in Turkish
        ("Ayşe: Merhaba", D(2023, 3, 12, 9, 15)),
        ("Mehmet: Görüşürüz", D(2023, 3, 13, 9, 17)),
    ]),
    "ios_ar_12h.txt": ("bracketed", "dmy", "gregorian", (0, 0), [
        ("أحمد: مرحبا", D(2023, 3, 12, 21, 15, 2)),
        ("سارة: أهلا", D(2023, 3, 13, 10, 0)),
    ]),
    "ios_ar_hijri.txt": ("bracketed", "dmy", "islamic", (0, 0), [
        ("خالد: رمضان كريم", D(2024, 3, 11, 20, 0)),  # 1 Ramadan 1445
        ("فاطمة: كل عام وأنتم بخير", D(2024, 3, 12, 9, 30)),
    ]),
    "ios_es_pm.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("Lucía: hola", D(2024, 1, 5, 21, 42, 10)),
        ("Tomás: ¿qué tal?", D(2024, 1, 5, 21, 43)),
        ("Lucía: nos vemos", D(2024, 1, 13, 12, 30)),
    ]),
    "ios_group_uk.txt": ("bracketed", "dmy", "gregorian", (11, 7), [
        ("Mum: Morning all!", D(2023, 3, 12, 9, 16, 40)),
        ("Sam: Looks great\nCan't wait\n\nSee you Sunday", D(2023, 3, 12, 9, 18, 3)),
        ("+44 7700 900123: Hi, it's Jo's new number", D(2023, 3, 14, 8, 0)),
        ("Mum: Lovely", D(2023, 3, 14, 8, 1)),
        ("Dad: Location: https://maps.google.com/?q=51.5,-0.12", D(2023, 3, 14, 8, 3)),
    ]),
    "ios_lrm_line.txt": ("bracketed", "dmy", "gregorian", (0, 2), [
        ("Dad: hello", D(2023, 3, 12, 9, 18, 11)),
    ]),
    "ios_ru.txt": ("bracketed", "dmy", "gregorian", (1, 1), [
        ("Иван: Привет!", D(2023, 3, 12, 9, 16, 40)),
        ("Ольга: Как дела?", D(2023, 3, 12, 9, 18, 3)),
    ]),
    "ios_tr_notices.txt": ("bracketed", "dmy", "gregorian", (3, 1), [  # notices in a language no pattern knows
        ("Ayşe: Merhaba!", D(2023, 3, 12, 9, 16, 40)),
        ("Mehmet: Konum: https://maps.google.com/?q=41.0,28.9", D(2023, 3, 12, 9, 20, 3)),
        ("Ayşe: Görüşürüz", D(2023, 3, 12, 9, 21, 3)),
    ]),
    "ios_zh.txt": ("bracketed", "ymd", "gregorian", (0, 0), [
        ("王伟: 你好", D(2023, 3, 12, 21, 15, 2)),
        ("李娜: 早上好", D(2023, 3, 13, 10, 0)),
    ]),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layout(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.glob("*.txt")) == sorted(WA_CASES)


def test_whatsapp_ios_group_file_details() -> None:
    raw = (WA / "ios_group_uk.txt").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw  # the fixture is what it claims: BOM, CRLF
    recs, _ = _wa(WA / "ios_group_uk.txt")
    by_text = {r.content: r for r in recs}
    assert by_text["Mum: Lovely"].metadata["edited"] is True
    assert all("Family Group" != r.author for r in recs)  # the group's own "messages" are its events


def test_whatsapp_android_media_with_caption_and_view_once() -> None:
    recs, rep = _wa(WA / "android_us_12h.txt")
    caption = next(r for r in recs if r.content == "Ben: fireworks from the roof")
    assert caption.metadata["media"] == ["IMG-20240101-WA0001.jpg"]
    assert not any(r.content.endswith(": null") for r in recs)  # Android's view-once placeholder
    assert rep.skipped_media == 2


def test_android_media_placeholders_by_their_word_for_media() -> None:
    for line in ("<Media jätetty pois>", "<Média kihagyva>", "<Medien ausgeschlossen>", "<تم استبعاد الوسائط>"):
        assert whatsapp._media_line(line, line) == [line[1:-1]]
    for line in ("<immediately>", "<3", "<media of the whole town and all its people>"):
        assert whatsapp._media_line(line, line) is None  # a word inside another, a heart, a sentence


def test_whatsapp_month_first_decided_by_a_date_late_in_the_file(tmp_path: Path) -> None:
    # 300 headers where day and month are both <= 12, then one that only month-first can read
    lines = [f"[{1 + (i // 30) % 12}/{1 + i % 12}/23, 9:{i % 60:02d}:00 AM] Ana: msg {i}" for i in range(300)]
    path = tmp_path / "late.txt"
    path.write_text("\n".join([*lines, "[1/13/24, 9:00:00 AM] Ana: late"]) + "\n", encoding="utf-8")
    recs, rep = _wa(path)
    assert (rep.variant["date_order"], rep.variant["date_order_reason"]) == ("mdy", "day > 12 in second field")
    assert recs[1].event_at == D(2023, 1, 2, 9, 1) and recs[-1].event_at == D(2024, 1, 13, 9, 0)


def test_a_chat_whose_first_message_is_long_is_still_detected() -> None:
    path = FIX / "whatsapp_detect" / "long_first.txt"  # one header, 80 lines of a pasted recipe, a header
    assert detect(path) == "whatsapp"
    recs, _ = _wa(path)
    assert len(recs) == 2 and recs[0].content.count("\n") == 80



def test_whatsapp_ios_zip_with_media_and_a_folder(tmp_path: Path) -> None:
    chat = (WA / "ios_group_uk.txt").read_bytes()
    flat = _zip(tmp_path / "WhatsApp Chat - Family Group.zip",
                {"_chat.txt": chat, "00000012-PHOTO-2023-03-13-19-06-00.jpg": b"\xff\xd8\xff"})
    nested = _zip(tmp_path / "export.zip", {"WhatsApp Chat - Family Group/_chat.txt": chat,
                                           "WhatsApp Chat - Family Group/00000012-PHOTO.jpg": b"\xff\xd8"})
    assert detect(flat) == detect(nested) == "whatsapp"
    recs, rep = _wa(flat)
    assert rep.variant["chat"] == "Family Group"
    assert [r.content for r in recs] == [c for c, _ in WA_CASES["ios_group_uk.txt"][4]]
    assert {r.thread for r in recs} == {"Family Group"}
    assert len(_wa(nested)[0]) == len(recs)


def test_a_second_download_names_the_same_chat(tmp_path: Path) -> None:
    chat = (WA / "android_us_12h.txt").read_bytes()
    first = _zip(tmp_path / "WhatsApp Chat with Ana Lopez.zip", {"WhatsApp Chat with Ana Lopez.txt": chat,
                                                                "IMG-20240101-WA0001.jpg": b"\xff\xd8"})
    again = tmp_path / "WhatsApp Chat with Ana Lopez (1).txt"
    again.write_bytes(chat)
    assert whatsapp.thread_name(again.name) == whatsapp.thread_name(first.name) == "Ana Lopez"
    assert [r.ref for r in _wa(first)[0]] == [r.ref for r in _wa(again)[0]]


def test_calendar_conversions() -> None:
    assert persian_to_gregorian(1399, 1, 1) == (2020, 3, 20)  # Nowruz
    assert persian_to_gregorian(1403, 12, 30) == (2025, 3, 20)  # the last day of a leap year
    assert islamic_to_gregorian(1445, 9, 1) == (2024, 3, 11)
    with pytest.raises(ValueError):
        persian_to_gregorian(1402, 7, 31)  # the second half-year has 30-day months


# --- ChatGPT ----------------------------------------------------------------------------------

GPT = FIX / "chatgpt" / "conversations.json"
T0 = 1710234000.123456


def _at(offset: float) -> datetime:
    return datetime.fromtimestamp(T0 + offset, tz=timezone.utc)


# round 6: the custom instructions are the user's words about themselves, once, after the conversations
GPT_CONTEXT = [("Custom instructions, about me: I live in Porto.", _at(0)), ("Custom instructions, how to answer: Be brief.",
                                                                            _at(0))]
GPT_EXPECTED = [
    ("User: Where was this photo taken?", _at(10)),
    ("Assistant: This is the Alfama district of Lisbon, near the cathedral.", _at(30)),  # current branch
    ("User: How far is it from the airport? Compute 7.2 km at 30 km/h.", _at(41)),  # no time: the one before
    ("Assistant: About 14 minutes by car. The metro red line also goes there.", _at(70)),  # citations gone
    ("ChatGPT memory: User lives in Porto.", _at(71)),  # round 7: what ChatGPT saved about the user (a bio call)
    ("User: Book me a tram ticket please", _at(90)),  # voice mode: the transcription, not the audio
    ("Assistant: I can't book tickets, but tram 28 leaves every 10 minutes.", _at(100)),
    ("User: Remember my bike lock code is in the drawer", None),
    ("Assistant: Noted.", None),
    *GPT_CONTEXT,
]


def _gpt(path: Path) -> tuple[list[Record], ImportReport]:
    rep = ImportReport(str(path), "chatgpt")
    return list(chatgpt.parse(path, rep)), rep


def test_chatgpt_content_types() -> None:
    assert detect(GPT) == "chatgpt"
    recs, rep = _gpt(GPT)
    assert [(r.content, r.event_at) for r in recs] == GPT_EXPECTED
    # system, thoughts, reasoning_recap, calls to python/canvas, system_error (a bio call is a memory: round 7)
    assert rep.skipped_system == 6
    assert rep.skipped_tool == 5  # execution_output, browsing display, tether_quote, bio's reply, DALL-E image
    assert recs[0].metadata["images"] == ["file-service://file-AbC123"]
    assert "images" not in recs[4].metadata  # an audio recording is not an image
    assert {r.thread for r in recs} == {"11111111-aaaa-bbbb-cccc-000000000001", "22222222-aaaa-bbbb-cccc-000000000002",
                                        None}


def test_chatgpt_export_zip_and_single_object(tmp_path: Path) -> None:
    data = json.loads(GPT.read_text(encoding="utf-8"))
    export = _zip(tmp_path / "chatgpt-export.zip", {
        "conversations.json": json.dumps(data).encode(),
        "chat.html": b"<html><script>var jsonData = [];</script></html>",
        "user.json": b'{"id": "user-x"}', "message_feedback.json": b"[]", "shared_conversations.json": b"[]",
        "file-AbC123-photo.jpg": b"\xff\xd8", "dalle-generations/file-Dall3.webp": b"RIFF"})
    assert detect(export) == "chatgpt"
    assert [(r.content, r.event_at) for r in _gpt(export)[0]] == GPT_EXPECTED
    single = tmp_path / "conversation.json"
    single.write_text(json.dumps(data[0]), encoding="utf-8")
    assert detect(single) == "chatgpt"
    assert [(r.content, r.event_at) for r in _gpt(single)[0]] == GPT_EXPECTED[:7] + GPT_CONTEXT


def test_chatgpt_instructions_and_chain_of_thought_are_not_memories(tmp_path: Path) -> None:
    def node(key: str, parent: str | None, child: str | None, role: str, text: str, **extra: object) -> dict:
        msg = {"id": key, "author": {"role": role}, "create_time": 1.7e9, "content": {"content_type": "text",
               "parts": [text]}, "metadata": extra.pop("metadata", {}), "recipient": "all", **extra}
        return {"id": key, "parent": parent, "children": [child] if child else [], "message": msg}
    conv = {"id": "c-9", "title": "GPT", "current_node": "a", "mapping": {
        "i": node("i", None, "u", "user", "You are a pirate.", metadata={"is_user_system_message": True}),
        "u": node("u", "i", "t", "user", "Where is the treasure?"),
        "t": node("t", "u", "a", "assistant", "The user wants a location...", channel="analysis"),
        "a": node("a", "t", None, "assistant", "Under the palm tree, arr.", channel="final")}}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conv]), encoding="utf-8")
    recs, rep = _gpt(path)
    assert [r.content for r in recs] == ["User: Where is the treasure?", "Assistant: Under the palm tree, arr."]
    assert rep.skipped_system == 2


@pytest.mark.parametrize("kind", ["chatgpt", "claude"])
def test_json_export_saved_with_a_byte_order_mark(kind: str, tmp_path: Path) -> None:
    # Notepad and PowerShell's Out-File write a UTF-8 BOM; the JSON parser refused it
    path = tmp_path / "conversations.json"
    path.write_bytes(b"\xef\xbb\xbf" + (FIX / kind / "conversations.json").read_bytes())
    assert detect(path) == kind
    parser = chatgpt if kind == "chatgpt" else claude
    recs = list(parser.parse(path, ImportReport(str(path), kind)))
    assert [r.content for r in recs] == ([c for c, _ in GPT_EXPECTED] if kind == "chatgpt" else CLAUDE_EXPECTED)


# --- Claude -----------------------------------------------------------------------------------

CLAUDE = FIX / "claude"
CLAUDE_EXPECTED = [
    "User: Can you plan my sourdough bake for Saturday?\n\n[attachment: starter-notes.txt]\n"
    "Starter fed at 8am, doubles in 6 hours.",  # the attachment's text is searchable (round 2)
    # no thinking, no tool blocks; the artifact's document is kept where it stands (round 3, as a canvas)
    "Assistant: Here is a plan.\n\n[artifact: Bake plan]\n# Plan\n- Fri 22:00 feed\n\nFeed the starter Friday night.",
    "Assistant: Thanks! Bake at 250°C with steam.",
    "User: My passport expires in March 2027",
]


def test_claude_blocks_and_the_export_zip(tmp_path: Path) -> None:
    conv = CLAUDE / "conversations.json"
    assert detect(conv) == "claude"
    rep = ImportReport(str(conv), "claude")
    recs = list(claude.parse(conv, rep))
    assert [r.content for r in recs] == CLAUDE_EXPECTED
    # a message of tool blocks only was "This block is not supported on your current device yet." in its text
    assert not any("not supported" in r.content for r in recs)
    assert recs[1].event_at == datetime(2024, 6, 20, 15, 32, 30, tzinfo=timezone.utc)
    assert recs[0].metadata["attachments"][0]["excerpt"] == "Starter fed at 8am, doubles in 6 hours."
    assert (rep.skipped_tool, rep.skipped_media) == (3, 1)
    export = _zip(tmp_path / "data-2024-06-22-10-00-00.zip", {
        name: (CLAUDE / name).read_bytes() for name in ("conversations.json", "projects.json", "users.json")})
    assert detect(export) == "claude"
    # round 10: a project's document is a memory of its own (before: named only)
    project = ["Claude project Bakery: Home baking", "Claude project Bakery instructions: Answer like a baker.",
               "Claude project Bakery, document recipes.md: Rye: 20% whole rye."]
    recs = list(claude.parse(export, ImportReport(str(export), "claude")))
    assert [r.content for r in recs] == CLAUDE_EXPECTED + project  # users.json left alone
    assert [r.memory_type for r in recs[-3:]] == ["semantic", "procedural", "semantic"]
    assert recs[-2].metadata == {"project": "Bakery", "docs": ["recipes.md"]}
    assert recs[-1].metadata == {"project": "Bakery", "docs": ["recipes.md"], "doc": "recipes.md"}
    assert recs[-1].thread is None  # not a conversation: no episode
    assert detect(CLAUDE / "projects.json") == "claude"
    alone = CLAUDE / "projects.json"
    assert [r.content for r in claude.parse(alone, ImportReport(str(alone), "claude"))] == project


# --- Markdown ---------------------------------------------------------------------------------

VAULT = FIX / "markdown" / "vault"


def test_markdown_vault_layouts() -> None:
    assert detect(VAULT) == "markdown"
    rep = ImportReport(str(VAULT), "markdown")
    recs = list(markdown.parse(VAULT, rep))
    by_file: dict[str, list[Record]] = {}
    for r in recs:
        by_file.setdefault(str(r.thread), []).append(r)
    assert ".trash/old.md" not in by_file
    toml = by_file["toml.md"][0]
    assert toml.content == "Hugo post: We flew to Osaka and took the train to Kyoto."  # no "+++" block; its title
    assert toml.event_at == datetime(2023, 11, 5, 10, 0, tzinfo=timezone.utc)
    assert toml.tags == ["travel", "japan"]
    assert [r.content for r in by_file["setext.md"]] == ["Shopping: Milk and eggs", "Shopping > Hardware: Screws M4"]
    assert [r.content for r in by_file["crlf.md"]] == [
        "Recipes > Pancakes: Mix 2 eggs, 250 ml milk, 125 g flour.", "Recipes > Soup: Onions first."]
    assert [r.content for r in by_file["headings-only.md"]] == ["headings-only: Project X > Goals; Project X > Risks > Budget"]
    assert [r.content for r in by_file["html.md"]] == [
        "Readme: Install with **pip** and see [the docs](https://example.com/docs).\n\nMore\nHidden text"]
    assert [(r.content, r.event_at) for r in by_file["bom.md"]] == [
        ("bom: New year resolutions: run twice a week.", datetime(2024, 1, 2))]
    assert by_file["yaml-block.md"][0].metadata["frontmatter"]["title"] == "Meeting: Q3 plan"
    daily = by_file["Daily/2024-03-12.md"]
    assert [r.memory_type for r in daily] == ["episodic", "episodic"] and daily[0].event_at == datetime(2024, 3, 12)
    assert by_file["table.md"][0].content.startswith("Contacts at work: | Name | Role | Phone |")
    assert [r.content for r in by_file["obsidian.md"]] == [  # comments, callout marker, block id, query: gone
        "Trip ideas: Visit Porto in May.\n\n> Book early\n> Trains sell out.\n\n```python\n%%timeit\nx = 1\n```\n"
        "Keep `%%literal%%` as code."]
    long = by_file["longline.md"]
    assert len(long) > 1 and all(len(r.content) <= markdown.CHUNK_CHARS + len("Essay: ") for r in long)


def test_markdown_html_inside_code_is_kept(tmp_path: Path) -> None:
    note = tmp_path / "web.md"
    note.write_text("# Web\n\nUse `<br>` for breaks.\n\n```html\n<div>kept</div>\n```\n<p>Para</p>\n", encoding="utf-8")
    recs = list(markdown.parse(note, ImportReport(str(note), "markdown")))
    assert [r.content for r in recs] == ["Web: Use `<br>` for breaks.\n\n```html\n<div>kept</div>\n```\nPara"]


def test_markdown_thematic_break_after_a_list_is_not_a_heading(tmp_path: Path) -> None:
    note = tmp_path / "n.md"
    note.write_text("- one\n- two\n---\n\nText\n\n---\nmore\n", encoding="utf-8")
    recs = list(markdown.parse(note, ImportReport(str(note), "markdown")))
    assert [r.content for r in recs] == ["n: - one\n- two\n---\n\nText\n\n---\nmore"]


def test_markdown_logseq_journal_and_notion_page_names() -> None:
    logseq = FIX / "markdown" / "logseq"
    recs = list(markdown.parse(logseq, ImportReport(str(logseq), "markdown")))
    journal = recs[0]
    assert (journal.thread, journal.memory_type, journal.event_at) == (
        "journals/2024_03_12.md", "episodic", datetime(2024, 3, 12))  # Logseq's underscores are a date
    assert journal.links == [("markdown:pages/Oscar.md::0", "explicit")]
    notion = FIX / "markdown" / "notion"
    recs = list(markdown.parse(notion, ImportReport(str(notion), "markdown")))
    assert [r.content.split(":", 1)[0] for r in recs] == ["Ideas", "Meeting notes"]  # no 32-hex page id
    assert recs[1].ref == "markdown:Meeting notes 5f3a2b1c9d8e4f7a8b6c5d4e3f2a1b0c.md:Meeting notes:0"


def test_markdown_front_matter_dates_written_out() -> None:
    dates = FIX / "markdown" / "dates"
    recs = list(markdown.parse(dates, ImportReport(str(dates), "markdown")))
    assert [(r.thread, r.event_at) for r in recs] == [
        ("german.md", datetime(2024, 3, 12)),  # "Date: 12. März 2024"
        ("notion.md", datetime(2024, 3, 12, 9, 15)),  # "created: Tuesday, March 12, 2024 9:15 AM"
        ("num.md", None),  # 12/03/2024: day or month first? not guessed
        ("rel.md", None),  # "yesterday" dates nothing in a note
    ]


def test_markdown_note_from_before_utf8_is_read_loudly() -> None:
    legacy = FIX / "markdown" / "legacy"
    assert (legacy / "latin1.md").read_bytes() == b"# Caf\xe9\n\nLe caf\xe9 est bon.\n"
    rep = ImportReport(str(legacy), "markdown")
    assert [r.content for r in markdown.parse(legacy, rep)] == ["Café: Le café est bon.", "OK: fine"]
    assert rep.warnings == [f"{legacy}: latin1.md:1: not UTF-8 or UTF-16 text (undecodable byte 0xe9); "
                            "read as Windows-1252"]


# --- vCard ------------------------------------------------------------------------------------

VCF = FIX / "vcf"


def _cards(name: str) -> tuple[list[Record], ImportReport]:
    path = VCF / name
    assert detect(path) == "vcf"
    rep = ImportReport(str(path), "vcf")
    return list(vcf.parse(path, rep)), rep


def test_vcard_21_quoted_printable_and_missing_fn() -> None:
    recs, rep = _cards("android_21.vcf")
    assert [r.content for r in recs] == [
        "Contact: José García — phone +34600123456 (cell); phone 91 555 12 34 (home); note Conocido en el congreso "
        "de Valencia. Le gusta el café solo.",
        "Contact: Jürgen Müller — phone +49 30 1234567 (work)",  # ISO-8859-1 QP, N only
        "Contact: +44 7700 900123 — phone +44 7700 900123 (cell)",  # no name at all: the number names it
    ]
    assert recs[1].aliases["+49301234567"] == "Jürgen Müller"
    assert rep.variant["versions"] == ["2.1"] and rep.warnings == []


def test_vcard_apple_labels_google_groups_and_4_0() -> None:
    apple, _ = _cards("apple_30.vcf")
    assert apple[0].content == (
        "Contact: Yuki Nakamura — phone +81 90-1234-5678 (Tokyo office); phone +81 80 0000 1111 (cell); email "
        "yuki@acme.example; profile https://twitter.com/yuki (twitter); org Acme Corp, Design; title Lead designer; "
        "birthday 1990-04-01; address 1-2-3 Shibuya, Tokyo, 150-0002, Japan")  # the base64 PHOTO is nowhere; the
    # social profile is a way to reach her since round 9
    assert apple[1].tags == ["Family"]
    google, _ = _cards("google.vcf")
    assert google[0].tags == ["starred"]  # "myContacts" is every Google contact's group
    assert "long distance running" in google[0].content  # a folded NOTE line joined
    v4, _ = _cards("v40.vcf")
    assert v4[0].content == "Contact: Ana Souza — phone +55-11-91234-5678 (cell); email ana@example.br; anniversary 2015-06-12"  # round 6: anniversaries
    assert v4[0].aliases["+5511912345678"] == "Ana Souza"


def test_vcard_empty_fields_make_no_phone_and_no_alias() -> None:
    recs, rep = _cards("empties.vcf")
    assert [(r.content, r.aliases) for r in recs] == [("Contact: Empty Fields", {"Empty Fields": "Empty Fields"})]
    assert rep.skipped_empty == 1  # the card with nothing at all


def test_vcard_without_end_keeps_both_contacts_loudly() -> None:
    recs, rep = _cards("unclosed.vcf")
    assert [r.content for r in recs] == ["Contact: Ana — phone +1 555 0100", "Contact: Ben — phone +1 555 0101"]
    assert rep.warnings == [f"{VCF / 'unclosed.vcf'}:1: BEGIN:VCARD without END:VCARD before the next card; "
                            "card read up to there"]


# --- end to end: mem.py import ----------------------------------------------------------------




@pytest.mark.parametrize("kind", ["whatsapp", "chatgpt", "claude", "markdown", "vcf"])
def test_cli_dry_run_then_import_then_again(kind: str, tmp_path: Path) -> None:
    if kind == "whatsapp":
        path = _zip(tmp_path / "WhatsApp Chat - Family Group.zip", {"_chat.txt": (WA / "ios_group_uk.txt").read_bytes()})
        expected = len(WA_CASES["ios_group_uk.txt"][4])
    elif kind == "chatgpt":
        path, expected = GPT, len(GPT_EXPECTED)
    elif kind == "claude":
        path = _zip(tmp_path / "claude.zip", {n: (CLAUDE / n).read_bytes() for n in (
            "conversations.json", "projects.json", "users.json")})
        expected = len(CLAUDE_EXPECTED) + 3  # round 10: the project document too
    elif kind == "markdown":
        path = tmp_path / "vault"
        shutil.copytree(VAULT, path)
        expected = len(list(markdown.parse(path, ImportReport(str(path), "markdown"))))
    else:
        path, expected = VCF / "android_21.vcf", 3
    db = tmp_path / "m.db"
    dry = _envelope(run_cli("--db", str(db), "import", str(path), "--dry-run"))
    assert dry["ok"] and dry["data"]["format"] == kind and dry["data"]["memories_added"] == expected
    assert not db.exists() or _count(db) == 0
    real = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert real["data"]["memories_added"] == expected and real["data"]["warnings"] == []
    assert _count(db) >= expected  # plus the episodes of a chat
    again = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert again["data"]["memories_added"] == 0


BROKEN: dict[str, tuple[dict[str, bytes] | bytes, str]] = {
    "notes.txt": (b"Shopping list\nmilk\neggs\n", "unrecognised format (tried whatsapp, chatgpt"),
    "empty.zip": ({}, "empty zip archive"),
    "media.zip": ({"IMG-1.jpg": b"\xff\xd8"}, "zip holds no chat export"),
    "gpt.zip": ({"conversations.json": b'[{"title": "x", "mapping": {'},
                "conversations.json: invalid or truncated JSON (parse error: premature EOF)"),
    "projects.json": (b'[{"uuid": "p-1", "name": "Bakery", "docs": []}]', "unrecognised format"),
    "conversations.json": (b'{"conversations": []}', "unrecognised format"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_cli_broken_export_fails_in_one_line_and_writes_nothing(name: str, tmp_path: Path) -> None:
    content, message = BROKEN[name]
    path = assert_broken_import_fails(tmp_path, name, content, message)
    with pytest.raises(ImportFormatError):
        detect(path) if name not in ("gpt.zip",) else list(chatgpt.parse(path, ImportReport(str(path), "chatgpt")))
