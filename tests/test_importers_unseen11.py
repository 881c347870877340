"""Round 11 of export layouts nobody here had seen (tests/fixtures/unseen11, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: a person's own sentence-case angle brackets ("<Sigh loudly>", "<Insert joke here>") beside the
  real placeholders of the phone's language, in English (Android and iOS), Spanish, Brazilian Portuguese,
  German, Russian, Greek, Finnish and Indonesian; a group's creation, icon, description and renames (a colon
  in the new name, on iOS written under the group's name); "You" notices beside the owner's own name; long
  messages holding lines that look like a stamp (of this layout and of the other); zips with a media folder
  (the chat inside a folder, "(file attached)" lines, captions, a document's name as its caption);
* ChatGPT: canvas edits that name their document by id across messages, an edit of the canvas the user has
  open, an export folder with shared_conversations.json and user.json, a project's and a custom GPT's
  conversations, mappings with a cycle, a lost parent, a node that is its own parent, a damaged conversation;
* Claude: the 2024 layout of artifacts written inside the text (<antArtifact>), two artifacts edited in turn
  by id (an edit that cannot be placed, then a rewrite), attachments with and without extracted text, files;
* notes: a Keep Takeout with attachments, sharees, a checklist, archived, trashed, pinned and picture-only
  notes; a Logseq graph (namespaced title, alias, block properties, block refs and embeds, a ref to a missing
  block); Obsidian front matter aliases and tags as lists, a singular ``tag:``; a Notion workspace export
  (hashed names, %-encoded links); Day One JSON of two journals and its older plain-text export; an
  org-journal month file;
* vCard: 4.0 groups (KIND:group / MEMBER), iOS related names, 4.0 RELATED (text, a card's urn:uuid, a URL),
  inline photos of three layouts, properties and parameters in odd case, Google's CATEGORIES.

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

from importers import ImportReport, Record, chatgpt, claude
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen11"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"


def _locale(people: tuple[str, str], words: tuple[str, str, str, str], media: int) -> tuple[Any, ...]:
    """A locale chat of 14 March 2024 from 18:00: (first words, the person's sigh, the other's joke, last words);
    the encryption notice and a deletion are notices, the locale's placeholders media."""
    a, b = people
    first, sigh, joke, last = words
    return ("dashed", "dmy", "gregorian", (2, media), [
        (f"{a}: {first}", D(2024, 3, 14, 18, 1)), (f"{a}: {sigh}", D(2024, 3, 14, 18, 2)),
        (f"{b}: {joke}", D(2024, 3, 14, 18, 4)), (last, D(2024, 3, 14, 18, 7 if media == 2 else 6))])


# Decision: WhatsApp writes a placeholder in the phone's language, from a short closed list ("<Media omitted>",
# "<View once message omitted>", "<Video note omitted>", and their translations); the words a person puts in
# angle brackets ("<Sigh loudly>", "<Insert joke here>", in sentence case as a placeholder is) are theirs and
# stay. A bracket is taken for a placeholder of a language no list holds only in a script of no case (where
# it cannot be told from a sentence by its capitals and no list of ours reaches): Georgian, Arabic, Thai ...
WA_CASES: dict[str, tuple[Any, ...]] = {
    "android_en_sentence_brackets.txt": ("dashed", "dmy", "gregorian", (2, 3), [
        ("Ana: Running late again", D(2024, 3, 14, 18, 1)), ("Ana: <Sigh loudly>", D(2024, 3, 14, 18, 1)),
        ("Ben: <Insert joke here>", D(2024, 3, 14, 18, 3)), ("Ana: <Rolls eyes>", D(2024, 3, 14, 18, 5)),
        ("Ben: See you at 7", D(2024, 3, 14, 18, 7)), ("Ana: <Waves from the platform>", D(2024, 3, 14, 18, 9))],
        {"Ben: See you at 7"}),
    "ios_en_sentence_brackets.txt": ("bracketed", "dmy", "gregorian", (1, 3), [
        ("Ana: Running late again", D(2024, 3, 14, 18, 1, 12)), ("Ana: <Sigh loudly>", D(2024, 3, 14, 18, 1, 40)),
        ("Ben: <Insert joke here>", D(2024, 3, 14, 18, 3)), ("Ana: <Shakes head slowly>", D(2024, 3, 14, 18, 5))]),
    "android_es_sentence_brackets.txt": _locale(("Lucía", "Marta"), (
        "Llego tarde otra vez", "<Suspira fuerte>", "<Inserte chiste aquí>", "Lucía: Nos vemos a las 9"), 2),
    "android_pt_BR_sentence_brackets.txt": _locale(("Bia", "Pedro"), (
        "Vou me atrasar de novo", "<Suspira alto>", "<Insira a piada aqui>", "Bia: Até já"), 2),
    "android_de_sentence_brackets.txt": _locale(("Lena", "Jonas"), (
        "Ich komme schon wieder zu spät", "<Seufzt laut>", "<Witz hier einfügen>", "Lena: Bis gleich"), 2),
    "android_ru_sentence_brackets.txt": _locale(("Оля", "Иван"), (
        "Опять опаздываю", "<Тяжело вздыхает>", "<Вставьте шутку сюда>", "Оля: До встречи"), 2),
    "android_el_sentence_brackets.txt": _locale(("Νίκος", "Ελένη"), (
        "Θα αργήσω πάλι", "<Αναστενάζει βαριά>", "<Βάλε ένα αστείο εδώ>", "Ελένη: Τα λέμε"), 1),
    "android_fi_sentence_brackets.txt": _locale(("Eero", "Aino"), (
        "Myöhästyn taas", "<Huokaa syvään>", "<Lisää vitsi tähän>", "Aino: Nähdään"), 1),
    "android_id_sentence_brackets.txt": _locale(("Budi", "Sari"), (
        "Aku telat lagi", "<Menghela napas panjang>", "<Masukkan lelucon di sini>", "Budi: Sampai nanti"), 2),
    # a group's creation, icon, description, renames (a colon inside the quotes), settings, joins and leaves
    "android_en_group_notices.txt": ("dashed", "dmy", "gregorian", (14, 0), [
        ("Ana Costa: Welcome! Flights are booked for 14 March", D(2024, 3, 2, 9, 3)),
        ("Ben Silva: Thanks for adding me", D(2024, 3, 2, 9, 7)), ("Carla: Hi all, I'm in!", D(2024, 3, 2, 9, 14)),
        ("Ana Costa: Hotel is Casa do Largo, check-in at 15:00", D(2024, 3, 2, 9, 18))]),
    # iOS writes a group's notices under the group's name, its U+200E after the colon; a name holding a colon
    # ("Lisbon: March") is the group's all the same: the mark, not the first colon, ends the name
    "ios_en_group_notices.txt": ("bracketed", "dmy", "gregorian", (11, 0), [
        ("Ana Costa: Welcome! Flights are booked for 14 March", D(2024, 3, 2, 9, 3, 10)),
        ("Ben Silva: Thanks for adding me", D(2024, 3, 2, 9, 7, 30)), ("Carla: Hi all, I'm in!", D(2024, 3, 2, 9, 14, 20)),
        ("Ana Costa: Hotel is Casa do Largo, check-in at 15:00", D(2024, 3, 2, 9, 18, 40))]),
    # "You deleted this message", "You pinned a message", blocks: the exporter's notices, under their name or
    # none; a person's sentence starting with "You" is theirs
    "android_en_you_owner.txt": ("dashed", "mdy", "gregorian", (6, 0), [
        ("Maria Lopes: Did you book the table?", D(2024, 3, 14, 18, 1)),
        ("Tom Reed: You were right, it was full at 8", D(2024, 3, 14, 18, 2)),
        ("Tom Reed: You left the oven on, by the way", D(2024, 3, 14, 18, 6)),
        ("Maria Lopes: 9 then", D(2024, 3, 14, 18, 9))]),
    "ios_en_you_owner.txt": ("bracketed", "mdy", "gregorian", (4, 0), [
        ("Maria Lopes: Did you book the table?", D(2024, 3, 14, 18, 1, 10)),
        ("Tom Reed: You were right, it was full at 8", D(2024, 3, 14, 18, 2)),
        ("Tom Reed: You deleted the photos? I still need them", D(2024, 3, 14, 18, 6)),
        ("Maria Lopes: 9 then", D(2024, 3, 14, 18, 9))]),
    # lines that look like a stamp but are not one of this chat's headers (a time alone, a date alone, a date of
    # no year, the other platform's stamp pasted from another chat) are the message's own lines
    "android_en_multiline_stamps.txt": ("dashed", "dmy", "gregorian", (0, 0), [
        ("Ana: Agenda for Saturday:\n09:30 - meet at the station\n10:15 - train to Sintra\n12:00 - lunch at Piriquita\n"
         "14/03/2024 - don't forget the tickets\n14/03, 18:00 - dinner at home\n1. 20:00 - fado at Tasca do Chico",
         D(2024, 3, 14, 9, 0)),
        ("Ben: Great. Copying what Carla sent me:\n[13/03/2024, 21:14:05] Carla: The palace opens at 9:30\n"
         "[13/03/2024, 21:15:40] Carla: tickets are 20 EUR", D(2024, 3, 14, 9, 2)),
        ("Ana: Perfect\nChecklist:\n- passport\n- 2024-03-16 09:30: train\n- 16/03/2024 at 10:15 palace",
         D(2024, 3, 14, 9, 4)),
        ("Ben: 👍", D(2024, 3, 14, 9, 6))]),
    "ios_en_multiline_stamps.txt": ("bracketed", "dmy", "gregorian", (0, 0), [
        ("Ana: Agenda for Saturday:\n[09:30] meet at the station\n[10:15] train to Sintra\n"
         "14/03/2024, 12:00 - lunch at Piriquita\n[14/03/2024] don't forget the tickets", D(2024, 3, 14, 9, 0)),
        ("Ben: Great. Copying what Carla sent me:\n14/03/2024, 21:14 - Carla: The palace opens at 9:30",
         D(2024, 3, 14, 9, 2)),
        ("Ana: Perfect", D(2024, 3, 14, 9, 4))]),
}


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_11(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen11_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_known_placeholders_of_any_case_still_go_and_caseless_scripts_still_fall_back(tmp_path: Path) -> None:
    """The lists hold: "<Media omitted>" of any language of ours is media; a bracket in a script of no case that
    no list holds (Georgian, Amharic) is still taken for a placeholder; a sentence-case bracket of a cased
    script is a person's, alone or among others."""
    texts = ["<Media omitted>", "<Medien ausgeschlossen>", "<მედია გამოტოვებულია>", "<ሚዲያ ተትቷል>",
             "<Sigh loudly>", "<Laughs nervously>", "<Тяжело вздыхает>", "<Insert joke here>"]
    chat = tmp_path / "chat.txt"
    chat.write_text("".join(f"14/03/2024, 15:{i:02d} - Ana: {t}\n" for i, t in enumerate(texts)), encoding="utf-8")
    recs, rep = wa(chat)
    assert [r.content for r in recs] == [f"Ana: {t}" for t in texts[4:]]
    assert rep.skipped_media == 4


WA_ZIP = FIX / "whatsapp_zip"
_MEDIA = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00binary"


def _ios_zip(tmp_path: Path) -> Path:
    members = {"_chat.txt": (WA_ZIP / "ios_media" / "_chat.txt").read_bytes()}
    for name in ("00000005-PHOTO-2024-03-14-10-02-11.jpg", "00000006-PHOTO-2024-03-14-10-03-00.jpg",
                 "00000007-AUDIO-2024-03-14-10-04-00.opus", "00000008-Boarding pass.pdf"):
        members[f"Media/{name}"] = _MEDIA
    return write_zip(tmp_path / "WhatsApp Chat - Lisbon trip.zip", members)


def _android_zip(tmp_path: Path) -> Path:
    folder = "WhatsApp Chat with Ana"
    members = {f"{folder}/{folder}.txt": (WA_ZIP / "android_media" / f"{folder}.txt").read_bytes()}
    for name in ("IMG-20240314-WA0003.jpg", "IMG-20240314-WA0004.jpg", "PTT-20240314-WA0005.opus", "Boarding pass.pdf"):
        members[f"{folder}/Media/{name}"] = _MEDIA
    return write_zip(tmp_path / f"{folder}.zip", members)


# Decision: a caption is the sender's words, kept with the media named in the metadata (on iOS on the same line
# as "<attached: …>", on Android on the line after "(file attached)"); a document's caption that only repeats
# its file name (iOS adds "• 1 page") is no words: the message is media.
def test_ios_zip_with_a_media_folder(tmp_path: Path) -> None:
    path = _ios_zip(tmp_path)
    assert detect(path) == "whatsapp"
    recs, rep = wa(path)
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("Ana: Landed!", D(2024, 3, 14, 10, 1, 30), "Lisbon trip"),
        ("Ben: The view from the hotel", D(2024, 3, 14, 10, 3), "Lisbon trip"),
        ("Ana: Dinner at 8?", D(2024, 3, 14, 10, 6), "Lisbon trip")]
    assert recs[1].metadata["media"] == ["00000006-PHOTO-2024-03-14-10-03-00.jpg"]
    assert (rep.skipped_system, rep.skipped_media, rep.warnings) == (1, 3, [])


def test_android_zip_with_the_chat_in_a_folder(tmp_path: Path) -> None:
    path = _android_zip(tmp_path)
    assert detect(path) == "whatsapp"
    recs, rep = wa(path)
    assert [(r.content, r.event_at, r.thread) for r in recs] == [
        ("Ana: Landed!", D(2024, 3, 14, 10, 1), "Ana"), ("Ben: The view from the hotel", D(2024, 3, 14, 10, 3), "Ana"),
        ("Ana: Dinner at 8?", D(2024, 3, 14, 10, 6), "Ana")]
    assert recs[1].metadata["media"] == ["IMG-20240314-WA0004.jpg"]
    assert (rep.skipped_system, rep.skipped_media, rep.warnings) == (1, 3, [])


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1750000000  # 2025-06-15 15:06:40 UTC


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


def _gpt(name: str) -> tuple[list[Record], ImportReport]:
    return conversations(GPT / name)


MENU = "Assistant: [canvas: dinner_menu]\n# Dinner menu\n- starter: caldo verde\n"
SHOP = "Assistant: [canvas: shopping_list]\n# Shopping list\n- cod 1 kg\n"
GPT_CASES: dict[str, tuple[list[tuple[str, datetime]], tuple[int, int, int, int]]] = {
    # folder: ([(content, time)], (system, tool, media, seen))
    # Decision: an edit names the canvas it edits by the id the tool's receipt gave it (textdoc_id); without an
    # id, the canvas the user's message points at (metadata.canvas.textdoc_id: the one open on their screen);
    # else the last one written (rounds 7-10)
    "canvas_by_id": ([
        ("User: Draft a menu for Saturday's dinner in a canvas", _t(1)),
        (MENU + "- main: bacalhau à Brás\n- dessert: pastéis de nata", _t(2)),
        ("Assistant: Here is a first menu.", _t(4)), ("User: And a shopping list in another canvas", _t(10)),
        (SHOP + "- eggs 6\n- potatoes 1 kg", _t(11)), ("Assistant: The list is in its own canvas.", _t(13)),
        ("User: Swap the dessert for arroz doce", _t(20)),
        (MENU + "- main: bacalhau à Brás\n- dessert: arroz doce", _t(21)), ("Assistant: Dessert is arroz doce now.", _t(23)),
        ("User: Make it 12 eggs", _t(30)), (SHOP + "- eggs 12\n- potatoes 1 kg", _t(31)),
        ("User: And the main is for 6 people", _t(40)),
        (MENU + "- main: bacalhau à Brás (for 6)\n- dessert: arroz doce", _t(41)), ("Assistant: Done.", _t(43))],
        (0, 5, 0, 19)),
    "canvas_focus": ([
        ("User: Write a packing list and a to-do list, each in a canvas", _t(1)),
        ("Assistant: [canvas: packing]\n# Packing\n- passport\n- charger", _t(2)),
        ("Assistant: [canvas: todo]\n# To do\n- water the plants\n- stop the post", _t(4)),
        ("Assistant: Both lists are ready.", _t(6)), ("User: Add sunscreen", _t(10)),
        ("Assistant: [canvas: packing]\n# Packing\n- passport\n- charger\n- sunscreen", _t(11)),
        ("Assistant: Added.", _t(13))], (0, 3, 0, 10)),
    # shared_conversations.json (the links the user shared) and user.json (the account) hold no messages: read
    # as no conversations, and no warning
    "shared_index": ([("User: Recipe for caldo verde for 4?", _t(1)),
                      ("Assistant: 500 g potatoes, 200 g couve galega, 1 chouriço, olive oil, garlic, salt.", _t(3))],
                     (0, 0, 0, 2)),
    "project": ([("User: Which permits does the kitchen work need?", _t(1)),
                 ("Assistant: None for a like-for-like kitchen; a licence only if walls move.", _t(3)),
                 ("User: Translate 'torneira' to English", _t(100)), ("Assistant: Tap (or faucet).", _t(101))],
                (0, 0, 0, 4)),
    # a cycle of parent links: each message once, in the order of the path to current_node
    "mapping_cycle": ([("User: Is the 28 tram running today?", _t(1)),
                       ("Assistant: Yes, every 12 minutes from Martim Moniz.", _t(2)), ("User: And on Sunday?", _t(3)),
                       ("Assistant: On Sunday every 15 minutes.", _t(4))], (0, 0, 0, 4)),
    # a lost parent: what is left of the path is read
    "missing_parent": ([("User: How long is the walk from there to the castle?", _t(30)),
                        ("Assistant: About 15 minutes uphill.", _t(32))], (0, 0, 0, 2)),
    # a node its own parent (and child), children that are not there, no current_node: the path is found through
    # the node that names it as its child (the latest message of no child but itself)
    "self_parent": ([("User: Is Belém worth a half day?", _t(1)),
                     ("Assistant: Yes: the monastery, the tower and the pastéis.", _t(2)), ("User: Thanks!", _t(3))],
                    (0, 0, 0, 3)),
    "one_damaged": ([("User: Best time for sunset at Senhora do Monte?", _t(1)),
                     ("Assistant: Around 20:50 in June; get there 30 minutes early.", _t(2))], (0, 0, 0, 2)),
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_11(name: str) -> None:
    recs, rep = _gpt(name)
    expected, (system, tool, media, seen) = GPT_CASES[name]
    assert [(r.content, r.event_at) for r in recs] == expected
    assert (rep.skipped_system, rep.skipped_tool, rep.skipped_media, rep.messages_seen) == (system, tool, media, seen)
    warnings = [f"{GPT / name}: conversation 'Broken' (id c11a0009) skipped: no 'mapping' object"] \
        if name == "one_damaged" else []
    assert rep.warnings == warnings
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen11_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


def test_chatgpt_project_and_custom_gpt_are_named_in_the_metadata() -> None:
    recs, _ = _gpt("project")
    assert [r.metadata.get("gizmo") for r in recs] == ["g-p-6850abcdef"] * 2 + ["g-6850fedcba"] * 2


def test_chatgpt_canvas_edit_of_an_unknown_id_changes_nothing(tmp_path: Path) -> None:
    """An edit naming a canvas id no receipt gave is of a document the export does not hold: a tool call, not
    an edit of the last one written."""
    conv = json.loads((GPT / "canvas_by_id" / "conversations.json").read_text(encoding="utf-8"))
    call = json.loads(conv[0]["mapping"]["a7"]["message"]["content"]["text"])
    call["textdoc_id"] = "ffffffff"
    conv[0]["mapping"]["a7"]["message"]["content"]["text"] = json.dumps(call)
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "chatgpt")
    texts = [r.content for r in chatgpt.parse(tmp_path, rep)]
    assert not [t for t in texts if "eggs 12" in t] and rep.skipped_system == 1 and rep.warnings == []


def test_chatgpt_long_parent_chain_and_wide_cycle_do_not_recurse(tmp_path: Path) -> None:
    """A path of 50,000 messages and a mapping of 20,000 nodes in one cycle with no current_node: read
    without recursion, each message once."""
    n = 50_000
    mapping: dict[str, Any] = {}
    for i in range(n):
        mapping[f"m{i}"] = {"id": f"m{i}", "parent": f"m{i - 1}" if i else None, "children": [f"m{i + 1}"] if i + 1 < n else [],
                            "message": {"id": f"m{i}", "author": {"role": "user" if i % 2 == 0 else "assistant"},
                                        "create_time": T + i, "content": {"content_type": "text", "parts": [f"turn {i}"]},
                                        "metadata": {}, "recipient": "all"}}
    ring = {f"r{i}": {"id": f"r{i}", "parent": f"r{(i - 1) % 20_000}", "children": [f"r{(i + 1) % 20_000}"],
                      "message": {"id": f"r{i}", "author": {"role": "user"}, "create_time": T + i,
                                  "content": {"content_type": "text", "parts": [f"ring {i}"]}, "metadata": {},
                                  "recipient": "all"}} for i in range(20_000)}
    convs = [{"id": "long", "title": "Long", "create_time": T, "mapping": mapping, "current_node": f"m{n - 1}"},
             {"id": "ring", "title": "Ring", "create_time": T, "mapping": ring, "current_node": None}]
    (tmp_path / "conversations.json").write_text(json.dumps(convs), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "chatgpt")
    recs = list(chatgpt.parse(tmp_path, rep))
    long = [r for r in recs if r.thread == "long"]
    ring_texts = [r.content for r in recs if r.thread == "ring"]
    assert len(long) == n and long[-1].content == f"Assistant: turn {n - 1}"
    assert len(ring_texts) == len(set(ring_texts)) == 20_000


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


def _claude(name: str) -> tuple[list[Record], ImportReport]:
    path = CLAUDE / name
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep)), rep


BUDGET = "# Trip budget\n- flights: 240 EUR\n"
CLAUDE_CASES: dict[str, tuple[list[str], tuple[int, int, int]]] = {
    # folder: ([content], (tool, empty, seen))
    # Decision: the 2024 layout's <antArtifact …> tags in the text are the artifact, written as the tool-call
    # layout's are ("[artifact: title]" then its text); each version stands where it was written (which version
    # is the memory: each, in its place; the newest one last, so recall's newest-first reads it first)
    "ant_artifact_text": ([
        "User: Plan my tomato garden month by month",
        "Assistant: I'll put the plan in a document.\n\n[artifact: Garden plan]\n# Garden plan\n- April: sow tomatoes "
        "indoors\n- May: plant out\n\nTell me what to change.",
        "User: Start in March, and add basil in June",
        "Assistant: Updated:\n\n[artifact: Garden plan]\n# Garden plan\n- March: sow tomatoes indoors\n- May: plant out\n"
        "- June: basil"], (0, 0, 4)),
    # two artifacts edited in turn by id; an edit whose old_str is in the document four times cannot be placed
    # (a tool call), the rewrite after it is the document
    "artifacts_interleaved": ([
        "User: Make a budget and an itinerary for 3 days in Lisbon",
        "Assistant: [artifact: Trip budget]\n" + BUDGET + "- hotel: 300 EUR\n- food: 150 EUR\n\n[artifact: Itinerary]\n"
        "# Itinerary\n- Day 1: Alfama\n- Day 2: Sintra\n\nBoth are ready.",
        "User: The hotel is 360, and add Cascais on day 3",
        "Assistant: [artifact: Trip budget]\n" + BUDGET + "- hotel: 360 EUR\n- food: 150 EUR\n\n[artifact: Itinerary]\n"
        "# Itinerary\n- Day 1: Alfama\n- Day 2: Sintra\n- Day 3: Cascais\n\nDone.",
        "User: Write euros instead of EUR and add a total",
        "Assistant: [artifact: Trip budget]\n" + BUDGET + "- hotel: 360 EUR\n- food: 150 EUR\n- total: 750 EUR\n\n"
        "Rewritten with a total of 750 EUR."], (7, 0, 6)),
    # an attachment's extracted text is part of the message; one of no text is named; a pasted text alone is the
    # message; a picture among files is media (named in the metadata), a document named in the text
    "attachments_files": ([
        "User: When is the rent due, and what notice do I owe?\n[attachments: scan.pdf]\n\n[attachment: lease.pdf]\n"
        "Clause 4: rent 950 EUR, due on the 1st.\nClause 9: 120 days' notice.",
        "Assistant: Rent of 950 EUR is due on the 1st (clause 4); you owe 120 days' notice (clause 9). The scan had no "
        "readable text.",
        "User: [attachment: pasted text]\nMeter reading 14 March: 18342 kWh", "Assistant: Noted: 18342 kWh on 14 March.",
        "User: Here is the floor plan and the inventory\n[attachments: inventory.docx]",
        "Assistant: The plan shows two bedrooms; the inventory lists a fridge and a washing machine."], (0, 0, 6)),
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_11(name: str) -> None:
    recs, rep = _claude(name)
    expected, (tool, empty, seen) = CLAUDE_CASES[name]
    assert [r.content for r in recs] == expected
    assert (rep.skipped_tool, rep.skipped_empty, rep.messages_seen, rep.warnings) == (tool, empty, seen, [])
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen11_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


def test_claude_ant_artifacts_are_named_in_the_metadata() -> None:
    recs, _ = _claude("ant_artifact_text")
    assert [r.metadata.get("artifacts") for r in recs] == [None, ["Garden plan"], None, ["Garden plan"]]


def test_claude_an_unclosed_ant_artifact_keeps_its_words(tmp_path: Path) -> None:
    """An <antArtifact> cut before its closing tag (a truncated export): the words after the tag are kept."""
    conv = json.loads((CLAUDE / "ant_artifact_text" / "conversations.json").read_text(encoding="utf-8"))
    msg = conv[0]["chat_messages"][1]
    cut = msg["text"].split("</antArtifact>")[0]
    msg["text"] = msg["content"][0]["text"] = cut
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "claude")
    recs = list(claude.parse(tmp_path, rep))
    assert recs[1].content == ("Assistant: I'll put the plan in a document.\n\n[artifact: Garden plan]\n# Garden plan\n"
                               "- April: sow tomatoes indoors\n- May: plant out")


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Keep: attachments are named in the metadata (their files are no words); who a note is shared with is no
    # text (their addresses go in the metadata); archived notes are the user's and kept (marked), trashed ones
    # are not; a picture-only note is media; a checklist of no title is its items (an empty item is nothing)
    "keep_takeout_mixed": [
        ("Takeout/Keep/Flat viewing.json", "Flat viewing: Rua do Bonfim 12, 2nd floor: bright, needs a new kitchen. "
         "Landlord Sr. Amaral.", D(2024, 3, 14, 7, 6, 40), ["Flat hunt"]),
        ("Takeout/Keep/Old ideas.json", "Old ideas: Paint the hallway sage green", D(2023, 5, 19, 7, 6, 40), []),
        ("Takeout/Keep/Shared shopping.json", "Shared shopping: - [x] eggs\n- [ ] olive oil\n- [ ] lemons",
         D(2024, 3, 14, 7, 7, 40), []),
        ("Takeout/Keep/Untitled checklist.json", "- [ ] book the tiler\n- [x] pay the deposit", D(2024, 3, 14, 7, 36, 40),
         [])],
    # Logseq: the title:: property names the page (a namespace "Home/Boiler"); alias and tags are no text; a
    # block's own property (type:: visit) reads "type: visit", as Roam's attributes do; a block ref is the
    # block's words, an embed too; a ref to a block not in the graph is dropped with its space
    "logseq_graph": [
        ("journals/2024_03_14.md", "2024-03-14: - Oscar came for the service\n  type: visit\n- Reminder: Pressure "
         "should read 1.5 bar when cold\n- Pressure should read 1.5 bar when cold\n- Asked about too\n- Next service "
         "booked, see Caldeira", D(2024, 3, 14), []),
        ("pages/Home___Boiler.md", "Home/Boiler: - Vaillant ecoTEC plus, installed 2019\n- Pressure should read 1.5 bar "
         "when cold\n\t- below 1 bar: top up at the filling loop\n- Service every March", None, ["home", "maintenance"])],
    # Obsidian: aliases are other names of the note (links to them link to it), tags a list or one "tag:"; a tag
    # written with its hash is the same tag
    "obsidian_aliases": [
        ("Boiler.md", "Boiler: Vaillant ecoTEC plus. Service every March with Oscar (912 345 678).", D(2024, 3, 12, 9, 15),
         ["home", "maintenance/boiler"]),
        ("Daily/2024-03-14.md", "2024-03-14: Oscar serviced the Heating; pressure now 1.5 bar.\n\nPaid 85 EUR.",
         D(2024, 3, 14), ["journal"])],
    # Notion: the 32-hex ids are no part of a title; a page's sub-pages sit under it
    "notion_workspace": [
        ("Private & Shared/Home.md", "Home: Everything about the flat.\n\nBoiler\n\nInsurance 2024", None, []),
        ("Private & Shared/Home/Boiler.md", "Home > Boiler: Serviced on 14 March 2024 by Oscar.\n\nIMG_0042.jpeg", None, []),
        ("Private & Shared/Home/Insurance 2024.md", "Home > Insurance 2024: Policy 88-1234 with Fidelidade, renews 1 June.",
         None, [])],
    # Day One JSON: each journal file its entries; video and audio moments are media, not text
    "dayone_journals": [
        ("Journal.json", "Pi day: Baked a pie with the kids.\n\nThe crust was too thick!\n[place: Home, Porto]",
         D(2024, 3, 14, 21, 10), ["family", "baking"]),
        ("Journal.json", "Journal: Voice memo about the trip\n\nTickets for Sintra bought.", D(2024, 3, 15), []),
        ("Travel.json", "Travel: Pena Palace at opening time: no queue.\n[place: Palácio da Pena, Sintra]",
         D(2024, 3, 16, 10, 30), ["travel"])],
    # Day One's plain-text export: an entry under each tab-indented "Date:" block, one memory each as the JSON
    # export's are: dated by it (the local time written; a zone abbreviation such as WET is ambiguous and
    # dropped), tagged by "Tags:", its "Location:" its place; the weather is no fact of the user's
    "dayone_plaintext": [
        ("Journal.txt", "Journal: Pi day. Baked a pie with the kids.\nThe crust was too thick!\n[place: Porto, Portugal]",
         D(2024, 3, 14, 21, 10), ["family", "baking"]),
        ("Journal.txt", "Journal: Tickets for Sintra bought: 20 EUR each.", D(2024, 3, 15, 8, 0), []),
        ("Journal.txt", "Journal: Pena Palace at opening time: no queue.\n[place: Palácio da Pena, Sintra, Portugal]",
         D(2024, 3, 16, 10, 30), ["travel"])],
    # org-journal: a day's headline ("Thursday, 14/03/24": its weekday tells the day from the month) dates its
    # entries, an entry's leading "09:15" its time (the :CREATED: drawer is no text)
    "org_journal": [
        ("journal/2024-03.org", "March 2024 > Thursday, 14/03/24 > 09:15 Plumber: Oscar came to fix the boiler pressure "
         "valve.", D(2024, 3, 14, 9, 15), []),
        ("journal/2024-03.org", "March 2024 > Thursday, 14/03/24 > 18:00 Dinner: Dinner at Ana's, she moves to Braga in "
         "May.", D(2024, 3, 14, 18, 0), ["family"]),
        ("journal/2024-03.org", "March 2024 > Friday, 15/03/24 > 10:00 Call the bank: Mortgage review moved to 2 April.",
         D(2024, 3, 15, 10, 0), [])],
}


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_notes_of_round_11(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    assert [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs] == NOTE_CASES[name]
    assert rep.warnings == []


def test_every_unseen11_notes_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


def test_keep_sharees_archive_and_attachments_are_in_the_metadata() -> None:
    recs, rep = _notes(NOTES / "keep_takeout_mixed")
    by_title = {r.thread.rsplit("/", 1)[-1]: r.metadata for r in recs if r.thread}
    assert by_title["Shared shopping.json"].get("shared_with") == ["ben.silva@example.com"]
    assert by_title["Shared shopping.json"].get("pinned") is True
    assert by_title["Old ideas.json"].get("archived") is True
    assert by_title["Flat viewing.json"].get("attachments") == ["1f0e2a3b4c.jpg", "1f0e2a3b4d.3gp"]
    assert (rep.skipped_system, rep.skipped_media) == (1, 1)  # the trashed note; the picture-only note


def test_obsidian_and_logseq_aliases_link_to_their_note() -> None:
    recs, _ = _notes(NOTES / "obsidian_aliases")
    boiler, daily = recs
    assert [target for target, _ in daily.links] == [boiler.ref]
    recs, _ = _notes(NOTES / "logseq_graph")
    journal, page = recs
    assert page.ref in [target for target, _ in journal.links]


def test_notion_links_between_hashed_pages_are_edges() -> None:
    recs, _ = _notes(NOTES / "notion_workspace")
    home, boiler, insurance = recs
    assert sorted(target for target, _ in home.links) == sorted([boiler.ref, insurance.ref])


def test_day_one_plain_text_with_no_date_line_is_one_note(tmp_path: Path) -> None:
    """A .txt that only looks like Day One (a "Date:" line that is no tab-indented block, or a date that does
    not parse) is a plain note, whole."""
    (tmp_path / "Journal.txt").write_text("Date: sometime in March\n\nWrote nothing of note.\n", encoding="utf-8")
    (tmp_path / "Other.txt").write_text("\tDate:\tthe 14th\n\nA day.\n", encoding="utf-8")
    recs, rep = _notes(tmp_path)
    assert [(r.content, r.event_at) for r in recs] == [("Journal: Date: sometime in March\n\nWrote nothing of note.", None),
                                                       ("Other: Date:\tthe 14th\n\nA day.", None)]


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"
# Decisions: a group card (KIND:group, iCloud's X-ADDRESSBOOKSERVER-KIND) is no contact: its name tags its
# members (rounds 6-10); a member not in the file is nobody we know. A related person named by the urn:uuid of
# another card of the file is that card's name; by a URL, the URL. Photos (any layout) are never text. Property
# names and parameters are read in any case. Google's "myContacts" is no label of the user's.
VCF_CASES: dict[str, list[tuple[str, list[str]]]] = {
    "groups_40.vcf": [("Contact: Ana Costa — phone +351-912-345-678 (cell)", ["Climbing club", "Neighbours"]),
                      ("Contact: Ben Silva — email ben@silva.example", ["Climbing club"])],
    "ios_related_names.vcf": [("Contact: Rita Moreira — phone +351 913 222 111 (cell); related Paulo Moreira (spouse), "
                               "Inês Moreira (daughter), Dona Lurdes (landlady)", [])],
    "related_40.vcf": [("Contact: Pedro Alves — email pedro@alves.example (home)", []),
                       ("Contact: Marta Alves — related Pedro Alves (spouse), Tiago Alves (child), "
                        "https://example.com/people/joao (co-worker)", [])],
    "photos_inline.vcf": [("Contact: Sofia Reis — phone +351 914 000 111 (cell); note Piano teacher", []),
                          ("Contact: Hugo Pires — email hugo@pires.example", []),
                          ("Contact: Teresa Nunes — phone +351 915 333 444 (cell)", [])],
    "odd_case_40.vcf": [("Contact: Joana Faria — phone +351-916-555-666 (cell); email joana@faria-arq.example (work); "
                         "email JOANA.FARIA@example.com (home); birthday 4 July; address Rua das Flores 5, Porto, "
                         "4050-262, Portugal", [])],
    "google_categories.vcf": [("Contact: Luís Pinto — phone +351 917 888 999 (cell); nickname Lu", ["Climbing", "starred"])],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_11(name: str) -> None:
    recs, rep = vcards(VCF / name)
    assert [(r.content, r.tags) for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_every_unseen11_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


def test_a_related_urn_resolves_to_a_card_later_in_the_file(tmp_path: Path) -> None:
    lines = (VCF / "related_40.vcf").read_bytes().decode("utf-8").split("END:VCARD\r\n")
    (tmp_path / "c.vcf").write_text(lines[1] + "END:VCARD\r\n" + lines[0] + "END:VCARD\r\n", encoding="utf-8")
    recs, _ = vcards(tmp_path / "c.vcf")
    assert recs[0].content.startswith("Contact: Marta Alves — related Pedro Alves (spouse)")


# --- the CLI, bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "added"), [
    (WA / "android_en_sentence_brackets.txt", 6), (WA / "ios_en_group_notices.txt", 4), (GPT / "canvas_by_id", 14),
    (CLAUDE / "ant_artifact_text", 4), (VCF / "related_40.vcf", 2), (NOTES / "dayone_plaintext", 3),
    (NOTES / "org_journal", 3)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added and out["data"]["warnings"] == [], out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_the_cli_imports_a_whatsapp_zip_with_media_once(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    path = _ios_zip(tmp_path)
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == 3, out


def test_a_huge_whatsapp_line_in_a_zip_is_refused_with_its_line(tmp_path: Path) -> None:
    """A 40 MB line inside a media zip's chat: refused with a warning naming its line; the rest is read."""
    chat = (WA_ZIP / "ios_media" / "_chat.txt").read_bytes()
    huge = b"[14/03/2024, 10:07:00] Ana: " + b"x" * (40 * 1024 * 1024) + b"\r\n"
    path = write_zip(tmp_path / "WhatsApp Chat - Big.zip", {"_chat.txt": chat + huge, "Media/a.jpg": _MEDIA})
    with zipfile.ZipFile(path) as zf:
        assert zf.getinfo("_chat.txt").file_size > 40 * 1024 * 1024
    recs, rep = wa(path)
    assert [r.content for r in recs][-1] == "Ana: Dinner at 8?"
    assert len(rep.warnings) == 1 and ":8:" in rep.warnings[0], rep.warnings


def test_claude_hostile_ant_tags_are_read_in_one_pass(tmp_path: Path) -> None:
    """150,000 opening tags and one close, 50,000 unclosed <antThinking> (7 MB, under the cap of one string):
    read in one pass; the first tag takes the words up to the close as its body, no close left in the words."""
    conv = json.loads((CLAUDE / "ant_artifact_text" / "conversations.json").read_text(encoding="utf-8"))
    msg = conv[0]["chat_messages"][1]
    text = "Start. " + '<antArtifact identifier="x" title="X">a ' * 150_000 + "</antArtifact> end " + \
        "<antThinking>hm " * 50_000
    msg["text"] = msg["content"][0]["text"] = text
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "claude")
    recs = list(claude.parse(tmp_path, rep))
    assert rep.warnings == [] and recs[1].content.startswith('Assistant: Start. [artifact: X]\na <antArtifact identifier')
    assert recs[1].metadata["artifacts"] == ["X"] and "</antArtifact>" not in recs[1].content
    assert " end <antThinking>hm <antThinking>hm" in recs[1].content  # unclosed: a damaged note, kept as written


@pytest.mark.parametrize("name", ["ant_artifact_text", "artifacts_interleaved"])
def test_a_cut_claude_export_of_the_new_layouts_is_one_line_naming_the_file(name: str, tmp_path: Path) -> None:
    data = (CLAUDE / name / "conversations.json").read_bytes()
    assert_broken_import_fails(tmp_path, "conversations.json", data[: len(data) // 2], "invalid or truncated JSON")


def test_a_cut_chatgpt_export_with_a_cycle_is_one_line_naming_the_file(tmp_path: Path) -> None:
    data = (GPT / "mapping_cycle" / "conversations.json").read_bytes()
    assert_broken_import_fails(tmp_path, "conversations.json", data[: len(data) * 2 // 3], "invalid or truncated JSON")
