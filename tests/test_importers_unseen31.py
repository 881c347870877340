"""Round 31 of export layouts (held-out tests/fixtures/unseen31, written by hand before any change of this round;
conversations invented, nothing copied from a real export or from ../shared; see its README.md): what a person
actually hands over, as the app or the OS delivered it — WhatsApp's iOS zip with its media and a Mac's
``__MACOSX``, an unzipped iOS chat folder, Android's text beside its media, exports renamed by a browser
("conversations (1).json", "WhatsApp Chat - Ana(2).zip"), Windows' Zone.Identifier streams copied as files,
UTF-16 BE and Windows-1252 text, iCloud placeholders (``.name.icloud``) and OneDrive's 0-byte files, a Google Takeout
holding several products (a folder, a zip, a split archive), Telegram Desktop's "Both" (result.json beside
messages.html), sigtop's JSON, Obsidian callouts, Claude's undated memories.

Decisions:

* a file the cloud has not downloaded (an iCloud ``.name.icloud`` placeholder, a 0-byte file) is never read as
  nothing: beside other exports it is skipped with a warning naming it; alone it is refused saying what it is;
* a Windows ``Zone.Identifier`` stream, a macOS ``._name`` (AppleDouble) or ``.DS_Store`` is the OS's, not the
  export: skipped beside the export; alone refused saying what it is;
* a Google Takeout is every product it holds that has a reader (Keep, Google Chat, Gemini, Contacts), each as its
  own kind; Takeout's own ``archive_browser.html`` is no note;
* a folder of two ChatGPT downloads ("conversations.json" and "conversations (1).json") reads both (the same
  messages keep the same refs: a second copy adds nothing); a browser's " (1)" is no part of a chat's name;
* Telegram's "Both": the chat once (its result.json), however deep the folder given;
* sigtop's JSON: ``incoming`` is the chat's person (named by the file), ``outgoing`` "You", ``sent_at`` in UTC;
* an Obsidian callout keeps its type as a word ("Todo: Before leaving"), its ``> `` dropped;
* Claude's memories carry no date: stored with none (not dated as the import), and the summary says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import (
    assert_import_refused,
    check_chat_shape,
    fuzzed_outcomes,
    one_envelope,
    parsed,
    turns,
)

from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen31"
WA = FIX / "whatsapp"
GPT = FIX / "chatgpt"
BAD = FIX / "bad"


def cli_import(path: Path, tmp_path: Path) -> tuple[int, dict]:
    """`mem.py import PATH` into a new store: (exit code, its JSON envelope)."""
    proc = run_cli("--db", str(tmp_path / "m.db"), "import", str(path))
    return proc.returncode, one_envelope(proc)


def warnings_of(out: dict) -> list[str]:
    data = out["data"]
    return list(data.get("warnings", [])) + [w for f in data.get("files", []) for w in f.get("warnings", [])]


# --- WhatsApp as delivered ---------------------------------------------------------------------------------------------

ANA = [("Ana Sousa: Did you book the table at Tasca do Chico?", "2024-03-12T21:05:41"),
       ("Rui: Yes, Friday at 20:30", "2024-03-12T21:06:02"),
       ("Ana Sousa: Perfect, I'll bring Marta.\nShe finishes work at 8.", "2024-03-12T21:07:15")]


def test_whatsapp_ios_zip_with_media_and_macosx() -> None:
    recs, rep = parsed(WA / "ios-zip" / "WhatsApp Chat - Ana Sousa.zip", "whatsapp")
    check_chat_shape(recs, "whatsapp")
    assert turns(recs) == ANA
    assert {r.thread for r in recs} == {"Ana Sousa"}
    assert (rep.skipped_system, rep.skipped_media) == (1, 1)


def test_a_browser_renamed_ios_zip_keeps_the_chats_name() -> None:
    recs, rep = parsed(WA / "ios-renamed" / "WhatsApp Chat - Ana(2).zip", "whatsapp")
    assert turns(recs) == [("Ana: Can you water the plants on Sunday?", "2024-05-02T09:00:00"),
                           ("Rui: Sure, leave the key with Dona Graça", "2024-05-02T09:02:10")]
    assert {r.thread for r in recs} == {"Ana"} and rep.skipped_media == 1


def test_a_browser_renamed_android_text_keeps_the_chats_name() -> None:
    recs, _ = parsed(WA / "android-renamed" / "WhatsApp Chat with Carla (1).txt", "whatsapp")
    assert {r.thread for r in recs} == {"Carla"}
    assert turns(recs) == [("Carla: Bus to Sintra leaves at 9:40 from Portela", "2024-07-15T08:00:00"),
                           ("Rui: See you at the stop", "2024-07-15T08:02:00")]


def test_android_text_in_utf16_be_and_in_windows_1252() -> None:
    recs, _ = parsed(WA / "android-utf16be" / "WhatsApp Chat with Elsa.txt", "whatsapp")
    assert turns(recs) == [("Elsa: The vet said Bolinha needs drops twice a day", "2024-09-10T14:00:00"),
                           ("Rui: Morning and evening then", "2024-09-10T14:03:00")]
    recs, rep = parsed(WA / "android-cp1252" / "WhatsApp Chat with Luís.txt", "whatsapp")
    assert turns(recs) == [("Luís: Já comprei o bacalhau para a consoada", "2024-12-20T17:00:00"),
                           ("Rui: Ótimo! Eu levo o vinho", "2024-12-20T17:02:00")]
    assert len(rep.warnings) == 1 and "Windows-1252" in rep.warnings[0]


@pytest.mark.parametrize(("rel", "added", "thread"), [
    ("ios-unzipped", 2, "Pedro Lima"),                          # the chat's folder beside its __MACOSX, a .DS_Store
    ("ios-unzipped/WhatsApp Chat - Pedro Lima", 2, "Pedro Lima"),
    ("android-with-media", 2, "Bruno Costa"),                   # the text beside IMG-…jpg and PTT-…opus
    ("android-zone", 3, "Dora"),                                # beside its Zone.Identifier copied as a file
])
def test_whatsapp_folders_as_delivered(rel: str, added: int, thread: str, tmp_path: Path) -> None:
    code, out = cli_import(WA / rel, tmp_path)
    assert code == 0 and out["data"]["format"] == "whatsapp" and out["data"]["memories_added"] == added, out
    assert [f["file"].rsplit("/", 1)[-1] for f in out["data"]["files"]] in (
        [f"WhatsApp Chat with {thread}.txt"], ["_chat.txt"])
    assert warnings_of(out) == []


def test_a_folder_with_a_chat_left_in_icloud_says_so(tmp_path: Path) -> None:
    code, out = cli_import(WA / "folder-icloud", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 2, out
    said = [w for w in warnings_of(out) if ".WhatsApp Chat with Gil.txt.icloud" in w]
    assert len(said) == 1 and "iCloud" in said[0], out


def test_a_folder_with_a_0_byte_chat_reads_the_others_and_names_it(tmp_path: Path) -> None:
    code, out = cli_import(WA / "folder-onedrive", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 2, out
    said = [w for w in warnings_of(out) if "WhatsApp Chat with Ines.txt" in w]
    assert len(said) == 1 and "0 bytes" in said[0], out


def test_an_ios_chat_folder_whose_chat_is_still_in_icloud_is_refused_saying_so(tmp_path: Path) -> None:
    folder = WA / "icloud-evicted" / "WhatsApp Chat - Filipa"
    assert_import_refused(folder, tmp_path, "iCloud", where=(folder / "._chat.txt.icloud",))


# --- ChatGPT as downloaded ---------------------------------------------------------------------------------------------

FERN = [("User: How often should I water a Boston fern?", "2024-06-10T06:13:20+00:00"),
        ("Assistant: Keep the soil moist: about twice a week, more in summer.", "2024-06-10T06:13:30+00:00")]


def test_chatgpt_renamed_file_and_its_folder() -> None:
    recs, _ = parsed(GPT / "renamed" / "conversations (1).json", "chatgpt")
    assert turns(recs) == FERN
    recs, _ = parsed(GPT / "renamed", "chatgpt")
    assert turns(recs) == FERN


def test_two_chatgpt_downloads_in_one_folder_are_both_read(tmp_path: Path) -> None:
    code, out = cli_import(GPT / "two-downloads", tmp_path)
    # the fern chat (2 turns, then 2 more in the newer download) and the visa chat; the older copy adds nothing
    assert code == 0 and out["data"]["memories_added"] == 6, out


@pytest.mark.parametrize(("rel", "added"), [("zip-renamed/3f9a1c2b7e-2025-01-02-09-30-11 (1).zip", 4),
                                            ("zip-renamed", 4), ("macos-unzipped", 2)])
def test_chatgpt_as_delivered(rel: str, added: int, tmp_path: Path) -> None:
    code, out = cli_import(GPT / rel, tmp_path)
    assert code == 0 and out["data"]["format"] == "chatgpt" and out["data"]["memories_added"] == added, out


# --- Telegram Desktop's "Both" -----------------------------------------------------------------------------------------

OBRAS = [("Marta Reis: O eletricista vem na terça às 9h", "2024-06-01T09:01:00+02:00"),
         ("Rui: Eu fico em casa para abrir", "2024-06-01T09:04:00+02:00")]


@pytest.mark.parametrize("rel", ["both/ChatExport_2024-06-01", "both", "both-zipped/ChatExport_2024-06-01 (1).zip"])
def test_telegram_both_formats_read_once(rel: str) -> None:
    recs, rep = parsed(FIX / "telegram" / rel, "telegram")
    check_chat_shape(recs, "telegram")
    assert turns(recs) == OBRAS
    assert (rep.skipped_system, rep.skipped_media) == (1, 1)


# --- Google Takeout holding several products ---------------------------------------------------------------------------

TAKEOUT = {"vcf": 1, "googlechat": 2, "markdown": 1, "gemini": 2}


@pytest.mark.parametrize("rel", ["several", "several/Takeout", "several-zip/takeout-20240610T101010Z-001.zip"])
def test_a_takeout_of_several_products_reads_each(rel: str, tmp_path: Path) -> None:
    code, out = cli_import(FIX / "takeout" / rel, tmp_path)
    assert code == 0 and out["data"]["format"] == "mixed", out
    got: dict[str, int] = {}
    for f in out["data"]["files"]:
        got[f["format"]] = got.get(f["format"], 0) + f["memories_added"]
    assert got == TAKEOUT, out


def test_a_split_takeout_reads_both_zips_and_no_index_page(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "takeout" / "split", tmp_path)
    assert code == 0, out
    got = {(f["file"].rsplit("/", 1)[-1], f["format"]): f["memories_added"] for f in out["data"]["files"]}
    assert got == {("takeout-20240610T101010Z-001.zip", "markdown"): 1,
                   ("takeout-20240610T101010Z-002.zip", "googlechat"): 2}, out


# --- notes as synced -----------------------------------------------------------------------------------------------------


def test_a_vault_with_notes_left_in_icloud_names_them(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "notes" / "icloud-vault", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 2, out
    said = " ".join(warnings_of(out))
    assert ".Groceries.md.icloud" in said and ".2024-06-01.md.icloud" in said and "iCloud" in said, out


def test_a_vault_with_a_0_byte_note_names_it(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "notes" / "onedrive-vault", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 1, out
    said = [w for w in warnings_of(out) if "Passwords hint.md" in w]
    assert len(said) == 1 and "0 bytes" in said[0], out


@pytest.mark.parametrize(("rel", "content"), [
    ("macos-unzipped", "Boiler: Pressure should sit at 1.5 bar."),
    ("zone-copied", "Garden: Prune the olive tree in February."),
])
def test_notes_beside_the_os_files(rel: str, content: str) -> None:
    recs, rep = parsed(FIX / "notes" / rel, "markdown")
    assert [r.content for r in recs] == [content] and rep.warnings == []


def test_obsidian_callouts_keep_their_type() -> None:
    recs, _ = parsed(FIX / "notes" / "callouts", "markdown")
    # read as quotes titled by their title (the decision of rounds 9-13, kept); the types in the metadata
    assert [r.content for r in recs] == [
        "Trip to Porto: > Train\n> The Alfa Pendular leaves Lisboa at 08:39.\n\n"
        "> Before leaving\n> - Book the hotel\n> - Print the tickets\n\n"
        "> Parking\n> The garage closes at 23:00.\n\nThat's all."]
    assert recs[0].metadata["callouts"] == ["note", "todo", "warning"]


# --- sigtop's JSON, Claude's memories ------------------------------------------------------------------------------------

SIG = FIX / "sigtop-json" / "messages"


@pytest.mark.parametrize("path", [SIG / "Ana Sousa (+351912345678).json", SIG], ids=["file", "folder"])
def test_sigtop_json(path: Path) -> None:
    recs, rep = parsed(path, "signal")
    check_chat_shape(recs, "signal")
    assert turns(recs) == [("Ana Sousa: Are we still on for the market tomorrow?", "2024-03-13T19:02:00+00:00"),
                           ("You: Yes, 9am at the north gate", "2024-03-13T19:03:10+00:00"),
                           ("Ana Sousa: Great, see you there", "2024-03-13T19:06:00+00:00")]
    assert {r.thread for r in recs} == {"Ana Sousa"}
    assert (rep.skipped_system, rep.skipped_media) == (1, 1)  # the timer change; a photo alone


def test_claude_memories_stored_undated_and_said(tmp_path: Path) -> None:
    recs, rep = parsed(FIX / "claude-memories", "claude")
    memory = [r for r in recs if r.memory_type == "semantic"]
    assert [(r.content, r.event_at) for r in memory] == [("Claude memory: Rui rents a flat in Alvalade.", None)]
    assert rep.variant["memories_undated"] == 1 and memory[0].metadata["undated"] is True
    code, out = cli_import(FIX / "claude-memories", tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 3
    assert out["data"]["variant"]["memories_undated"] == 1, out  # in the summary line too ("memories_undated 1")


# --- damaged and OS files alone ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "message"), [
    ("cut-zip/WhatsApp Chat - Kiko.zip", "malformed zip"),
    ("onedrive-zero/conversations.json", "empty file"),
    ("zone-only/WhatsApp Chat with Dora.txt:Zone.Identifier", "Zone.Identifier"),
    ("appledouble/._chat.txt", "AppleDouble"),
    ("icloud-file/.WhatsApp Chat with Gil.txt.icloud", "iCloud"),
    ("ds-store/.DS_Store", "Finder"),
])
def test_damaged_and_os_files_are_refused_saying_what_they_are(rel: str, message: str, tmp_path: Path) -> None:
    assert_import_refused(BAD / rel, tmp_path, message)


def test_a_folder_holding_only_an_icloud_placeholder_is_refused_saying_so(tmp_path: Path) -> None:
    folder = BAD / "only-icloud"
    assert_import_refused(folder, tmp_path, "iCloud", where=(folder / ".conversations.json.icloud",))


def test_a_cut_utf16_chat_keeps_what_it_holds_and_says_so() -> None:
    recs, rep = parsed(BAD / "utf16-cut" / "WhatsApp Chat with Elsa.txt", "whatsapp")
    assert turns(recs)[0] == ("Elsa: The vet said Bolinha needs drops twice a day", "2024-09-10T14:00:00")
    assert len(rep.warnings) == 1 and "cut short" in rep.warnings[0]


@pytest.mark.parametrize(("rel", "keep"), [
    ("sigtop-json/messages/Ana Sousa (+351912345678).json", 2),
    ("telegram/both/ChatExport_2024-06-01/result.json", 2),
])
def test_fuzzed_copies_are_read_or_refused_in_one_line(rel: str, keep: int, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=31, keep=keep)
    assert read + refused == 16 and read >= 1


def test_detected_kinds() -> None:
    assert detect(WA / "android-with-media" / "WhatsApp Chat with Bruno Costa.txt") == "whatsapp"
    assert detect(FIX / "telegram" / "both") == "telegram"


def test_a_takeout_zip_with_damaged_member_headers_is_refused_in_one_line(tmp_path: Path) -> None:
    # found by this round's fuzzing: Google Chat's group_info.json read from a zip whose member header is damaged
    # escaped as BadZipFile (a traceback) instead of a one-line refusal
    data = (FIX / "takeout" / "split" / "takeout-20240610T101010Z-002.zip").read_bytes()
    damaged = tmp_path / "takeout-20240610T101010Z-002.zip"
    second = data.index(b"PK\x03\x04", 4)  # group_info.json's header (the central directory still names it)
    damaged.write_bytes(data[:second] + b"PK\x03\x05" + data[second + 4:])
    assert_import_refused(damaged, tmp_path, "cannot read")
