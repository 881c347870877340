"""Round 32 of export layouts (held-out tests/fixtures/unseen32, written by hand before any change of round
layouts34; conversations invented, nothing copied from a real export or from ../shared; see its README.md): the chat
apps people use as they really export them today, and what round layouts33 left — a Google Takeout of one readable
product beside unreadable ones, Gemini's My Activity in HTML.

Decisions:

* a Google Takeout names every product it holds that nothing reads (Google Photos, YouTube, Chrome), even when only
  one product is read; a product nothing reads is never read as notes (YouTube's watch-history.html is no note);
* Gemini's My Activity in HTML (Takeout's default) is read: each prompt "User", its answer "Gemini", the time as the
  page writes it with its zone's offset (PDT -07:00, GMT +00:00, BST +01:00), one chat a day (the page's own day);
* DiscordChatExporter's HTML page (its default format) is read like its JSON: the author as Discord showed them
  (the server nickname), the time as the page writes it (the exporting computer's clock: naive), the chat
  "Guild / #channel"; a page cut short keeps its whole messages and says it was cut;
* a folder holding an export (Discord's package, Instagram's download, a Takeout, Teams' zip) is that export, not
  the notes its README or start page would make;
* Teams' HTML paragraphs stay lines;
* damaged files are refused in one line naming the file, or read with a warning saying what was wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import assert_import_refused, counts, fuzzed_outcomes, one_envelope, parsed, turns

FIX = Path(__file__).parent / "fixtures" / "unseen32"
BAD = FIX / "bad"
DCE = "Board Games Night - Text Channels - general [1200000000000000002]"


def cli_import(path: Path, tmp_path: Path) -> tuple[int, dict]:
    """`mem.py import PATH` into a new store: (exit code, its JSON envelope)."""
    proc = run_cli("--db", str(tmp_path / "m.db"), "import", str(path))
    return proc.returncode, one_envelope(proc)


def warnings_of(out: dict) -> list[str]:
    data = out["data"]
    return list(data.get("warnings", [])) + [w for f in data.get("files", []) for w in f.get("warnings", [])]


# --- Google Takeout: one product read, the others named -----------------------------------------------------------

@pytest.mark.parametrize("rel", ["one-product-folder", "one-product-folder/Takeout",
                                 "one-product-zip/takeout-20241201T101500Z-001.zip", "one-product-zip"])
def test_a_takeout_of_one_readable_product_names_the_others(rel: str, tmp_path: Path) -> None:
    code, out = cli_import(FIX / "takeout" / rel, tmp_path)
    assert code == 0 and out["data"]["memories_added"] == 1, out   # Keep's note; no YouTube page as a note
    said = [w for w in warnings_of(out) if "not read" in w]
    assert len(said) == 1, out
    assert all(p in said[0] for p in ("Chrome", "Google Photos", "YouTube and YouTube Music")), said
    assert "Keep" not in said[0].split("not read", 1)[1]


def test_gemini_json_beside_google_photos_names_photos(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "takeout" / "gemini-json-with-photos", tmp_path)
    assert code == 0 and out["data"]["format"] == "gemini" and out["data"]["memories_added"] == 2, out
    said = [w for w in warnings_of(out) if "not read" in w]
    assert len(said) == 1 and "Google Photos" in said[0], out


# --- Gemini's My Activity in HTML ---------------------------------------------------------------------------------

GEM_US = [("User: Is it a good idea to bring a bike on the ferry?", "2024-03-09T10:15:00-08:00"),
          ("Gemini: Yes, bikes ride free outside rush hour.", "2024-03-09T10:15:00-08:00"),
          ("User: Which ferry goes to Cacilhas on Sundays?", "2024-03-12T21:07:02-07:00"),
          ("Gemini: On Sundays the ferry to Cacilhas leaves Cais do Sodré every 20 minutes.\n"
           "The last one is at 1:40 AM.", "2024-03-12T21:07:02-07:00")]
GEM_UK = [("User: What should I pack?", "2024-03-30T19:00:00+00:00"),
          ("Gemini: Water, a hat and sun cream.", "2024-03-30T19:00:00+00:00"),
          ("User: Plan a two-day walk on the Fisherman's Trail", "2024-04-02T08:31:09+01:00"),
          ("Gemini: Day one: Porto Covo to Vila Nova de Milfontes (20 km).\n"
           "- Day two: Milfontes to Almograve (15 km).", "2024-04-02T08:31:09+01:00")]


def test_gemini_my_activity_html_in_its_takeout_folder() -> None:
    page = FIX / "takeout" / "gemini-html" / "Takeout" / "My Activity" / "Gemini Apps" / "MyActivity.html"
    recs, rep = parsed(page, "gemini")
    assert turns(recs) == GEM_US
    assert [r.thread for r in recs] == ["Gemini Apps 2024-03-09"] * 2 + ["Gemini Apps 2024-03-12"] * 2
    assert [r.metadata.get("from_me") for r in recs] == [True, None, True, None]
    assert counts(rep) == (5, 1, 0)   # two turns a prompt (as the JSON form counts); "Used Gemini Apps" no turn


def test_gemini_my_activity_html_as_a_takeout_folder(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "takeout" / "gemini-html", tmp_path)
    assert code == 0 and out["data"]["format"] == "gemini" and out["data"]["memories_added"] == 4, out
    assert warnings_of(out) == []


def test_gemini_my_activity_html_in_british_english() -> None:
    recs, _ = parsed(FIX / "takeout" / "gemini-html-alone" / "MyActivity.html", "gemini")
    assert turns(recs) == GEM_UK


# --- Discord -------------------------------------------------------------------------------------------------------

DCE_HTML = [("Tomás: Who has the spare dice?", "2024-03-13T09:00:00"),
            ("Tomás: And the <timer> too", "2024-03-13T09:01:00"),
            ("Kofi: they're in the blue box\nunder the table", "2024-03-13T09:03:00")]


def test_discordchatexporter_html_page() -> None:
    recs, rep = parsed(FIX / "discord" / "dce-html" / f"{DCE}.html", "discord")
    assert turns(recs) == DCE_HTML
    assert {r.thread for r in recs} == {"Board Games Night / #general"}
    assert counts(rep) == (3, 0, 0)


def test_discordchatexporter_html_folder_by_cli(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "discord" / "dce-html", tmp_path)
    assert code == 0 and out["data"]["format"] == "discord" and out["data"]["memories_added"] == 3, out


def test_discordchatexporter_json_and_csv_as_before() -> None:
    recs, rep = parsed(FIX / "discord" / "dce-json" / f"{DCE}.json", "discord")
    assert turns(recs) == [("Tomás: Who has the spare dice?", "2024-03-13T09:00:02.341000+01:00"),
                           ("Kofi: @Tomás they're in the blue box", "2024-03-13T09:03:40.002000+01:00")]
    assert counts(rep) == (3, 1, 0)
    recs, _ = parsed(FIX / "discord" / "dce-csv" / "Direct Messages - Private - kofi_m [1200000000000000001].csv",
                     "discord")
    assert [r.author for r in recs] == ["tomas.f", "kofi_m", "tomas.f"]
    assert [r.event_at.isoformat() for r in recs if r.event_at] == [
        "2024-03-12T22:05:41.123000+01:00", "2024-03-12T22:06:30.500000+01:00", "2024-03-12T22:07:15+01:00"]


@pytest.mark.parametrize(("rel", "added"), [("package-2024", 4), ("package-2024/package", 4),
                                            ("package-2021", 2), ("package-2021/package", 2)])
def test_discord_data_package_from_the_folder_it_unzipped_to(rel: str, added: int, tmp_path: Path) -> None:
    code, out = cli_import(FIX / "discord" / rel, tmp_path)
    assert code == 0 and out["data"]["format"] == "discord" and out["data"]["memories_added"] == added, out


def test_discord_package_turns() -> None:
    recs, rep = parsed(FIX / "discord" / "package-2024" / "package", "discord")
    assert turns(recs) == [("me: Game night at mine on Friday?", "2024-03-12T21:05:41+00:00"),
                           ("me: I'll bring Catan and the seafarers expansion", "2024-03-12T21:07:15+00:00"),
                           ("me: Who has the spare dice?", "2024-03-13T08:00:02+00:00"),
                           ("me: Pizza or sushi?", "2024-03-14T19:30:00+00:00")]
    assert [r.thread for r in recs] == ["kofi_m", "kofi_m", "general in Board Games Night",
                                        "channel 1200000000000000003"]
    assert counts(rep) == (5, 0, 1)


# --- Teams (free) and Skype ------------------------------------------------------------------------------------------

TEAMS = [("Priya Nair: Hi Tomás, are we still on for Thursday?", "2024-03-12T21:05:41+00:00"),
         ("Tomás: Can you bring the projector on Thursday?\nThe meeting is at 10.", "2024-03-12T21:06:40+00:00"),
         ("Priya Nair: Great, see you there. I'll book the small room", "2024-03-12T21:09:00+00:00")]


@pytest.mark.parametrize("rel", ["teams-free-folder", "teams-free-zip/8_live_.cid.7a1b2c3d4e5f6a7b_export.zip"])
def test_teams_free_export_keeps_its_paragraphs(rel: str) -> None:
    recs, rep = parsed(FIX / "teams" / rel, "skype")
    assert turns(recs) == TEAMS
    assert {r.thread for r in recs} == {"Priya Nair"}
    assert counts(rep) == (5, 1, 1)


def test_teams_zip_alone_in_its_download_folder(tmp_path: Path) -> None:
    code, out = cli_import(FIX / "teams" / "teams-free-zip", tmp_path)
    assert code == 0 and out["data"]["format"] == "skype" and out["data"]["memories_added"] == 3, out


def test_skype_tar_quote_call_and_deleted_message() -> None:
    recs, rep = parsed(FIX / "skype" / "8_tomas.ferreira_export.tar", "skype")
    assert turns(recs) == [("Mariana: Did you call the plumber? :S", "2024-03-12T21:46:40+00:00"),
                           ("Tomás: Yes, he comes on Monday at 8", "2024-03-12T22:05:00+00:00")]
    assert counts(rep) == (4, 2, 0)


# --- Snapchat, Instagram -------------------------------------------------------------------------------------------

def test_snapchat_2024_download_with_html_beside_json() -> None:
    recs, rep = parsed(FIX / "snapchat" / "mydata-2024", "snapchat")
    assert turns(recs) == [("kofi.m: Dune 2 tonight?", "2024-03-14T18:05:00+00:00"),
                           ("tomasf: Meet at the cinema at 8?", "2024-03-14T18:07:30+00:00"),
                           ("lena.k: Bring sunscreen 🌞", "2024-03-15T09:00:05+00:00")]
    assert [r.thread for r in recs] == ["kofi.m", "kofi.m", "Beach crew"]
    assert counts(rep) == (5, 1, 1)


def test_snapchat_older_layout() -> None:
    recs, rep = parsed(FIX / "snapchat" / "mydata-2021", "snapchat")
    assert turns(recs) == [("ana.sousa: Are you coming to the arraial?", "2021-06-12T19:05:44+00:00"),
                           ("me: Yes, after dinner", "2021-06-12T19:07:00+00:00")]
    assert counts(rep) == (3, 0, 1)


IG = [("Tomás Ferreira: Vamos a Sintra no sábado? Sai às 9h", "2024-03-12T21:09:01+00:00"),
      ("Ana Sousa: Combinado, às 9 na estação de Sete Rios", "2024-03-12T21:13:20+00:00"),
      ("Tomás Ferreira: Até amanhã então 👋", "2024-03-12T21:15:00+00:00")]


@pytest.mark.parametrize("rel", ["instagram-2024", "instagram-zip/instagram-tomasf-2024-12-01-AbCdEf.zip"])
def test_instagram_2024_download_both_files_of_a_chat(rel: str) -> None:
    recs, rep = parsed(FIX / "instagram" / rel, "messenger")
    assert turns(recs) == IG
    assert {r.thread for r in recs} == {"Ana Sousa"}
    assert rep.messages_seen == 6 and rep.skipped_system == 1


@pytest.mark.parametrize("rel", ["instagram-2024", "instagram-zip"])
def test_instagram_download_by_cli_is_no_note(rel: str, tmp_path: Path) -> None:
    code, out = cli_import(FIX / "instagram" / rel, tmp_path)
    assert code == 0 and out["data"]["format"] == "messenger" and out["data"]["memories_added"] == 3, out


# --- SMS Backup & Restore, Element, KakaoTalk, Threema -----------------------------------------------------------

def test_sms_backup_with_mms_parts_and_surrogate_pair_emoji() -> None:
    recs, rep = parsed(FIX / "sms" / "sms-20241201103000.xml", "sms")
    assert [(r.content, r.thread) for r in recs] == [
        ("Mãe: Chego às 9 😊", "Mãe"), ("me: Ok, deixo a porta aberta\ne o jantar no forno", "Mãe"),
        ("Pedro: O bolo da avó 🎂", "Mãe, Pedro")]
    assert counts(rep) == (3, 0, 0)


def test_element_room_export_with_reply_edit_reaction_redaction() -> None:
    recs, rep = parsed(FIX / "matrix" / "matrix - Flat 3B - Chat Export - 2024-12-01T10-00-00.000Z.json", "matrix")
    assert turns(recs) == [("Priya: Electricity bill is 84 euros this month", "2024-03-12T21:05:41+00:00"),
                           ("Tomás: I'll pay it tomorrow", "2024-03-12T21:06:40+00:00"),
                           ("Tomás: I'll pay it on Friday", "2024-03-12T21:08:20+00:00")]
    assert counts(rep) == (8, 4, 1)


def test_kakaotalk_pc_korean() -> None:
    recs, rep = parsed(FIX / "kakaotalk" / "KakaoTalk_20240313_1530_12_345_민지.txt", "kakaotalk")
    assert turns(recs) == [("민지: 토요일에 등산 갈래?", "2024-03-13T15:02:00"),
                           ("토마스: 좋아! 몇 시에?", "2024-03-13T15:05:00"),
                           ("민지: 아침 7시 북한산 입구\n물 꼭 챙겨", "2024-03-13T15:06:00")]
    assert counts(rep) == (4, 0, 1)


def test_kakaotalk_phone_english() -> None:
    recs, _ = parsed(FIX / "kakaotalk" / "KakaoTalk Chats with Minji Kim.txt", "kakaotalk")
    assert turns(recs) == [("Minji Kim: Hiking on Saturday?", "2024-03-13T15:02:00"),
                           ("Tomás: Sure! What time?", "2024-03-13T15:05:00"),
                           ("Minji Kim: 7 AM at the Bukhansan gate", "2024-03-13T15:06:00"),
                           ("Minji Kim: Don't forget water", "2024-03-14T09:00:00")]
    assert {r.thread for r in recs} == {"Minji Kim"}


def test_threema_zip() -> None:
    recs, rep = parsed(FIX / "threema" / "threema-export-Priya.zip", "threema")
    assert turns(recs) == [("Priya: Did you get the train tickets?", "2024-03-12T21:05:00"),
                           ("Me: Yes, coach 4, seats 41 and 42", "2024-03-12T21:07:00"),
                           ("Priya: Perfect, see you at Oriente", "2024-03-13T08:15:00")]
    assert counts(rep) == (4, 0, 1)


# --- damaged -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rel", "message"), [
    (f"dce-cut/{DCE}.json", "truncated"),
    ("instagram-cut/your_instagram_activity/messages/inbox/anasousa_1234567890/message_1.json", "truncated"),
    ("sms-cut/sms-20241201103000.xml", "truncated"),
    ("gemini-html-empty/MyActivity.html", "no Gemini"),
    ("snapchat-empty", "0 bytes"),
    ("teams-wrong-type", '"conversations"'),
])
def test_damaged_exports_are_refused_in_one_line(rel: str, message: str, tmp_path: Path) -> None:
    path = BAD / rel
    where = (path,) if path.is_file() else tuple(p for p in path.rglob("*") if p.is_file())
    assert_import_refused(path, tmp_path, message, where)


def test_a_cut_discordchatexporter_page_keeps_its_whole_messages_and_says_so(tmp_path: Path) -> None:
    code, out = cli_import(BAD / "dce-html-cut", tmp_path)
    assert code == 0 and out["data"]["format"] == "discord" and out["data"]["memories_added"] == 2, out
    assert any("cut" in w and f"{DCE}.html" in w for w in warnings_of(out)), out


def test_gemini_html_in_windows_1252_is_read_and_said(tmp_path: Path) -> None:
    code, out = cli_import(BAD / "gemini-html-latin1", tmp_path)
    assert code == 0 and out["data"]["format"] == "gemini" and out["data"]["memories_added"] == 4, out
    assert any("Windows-1252" in w for w in warnings_of(out)), out


def test_kakaotalk_in_the_korean_windows_codepage_is_a_chat(tmp_path: Path) -> None:
    code, out = cli_import(BAD / "kakaotalk-cp949", tmp_path)
    assert code == 0 and out["data"]["format"] == "kakaotalk" and out["data"]["memories_added"] == 3, out
    assert any("EUC-KR" in w for w in warnings_of(out)), out


# added after the base run: the two pages this round reads, fuzzed (cuts, damaged bytes): read or refused in one line

@pytest.mark.parametrize("rel", ["takeout/gemini-html-alone/MyActivity.html", f"discord/dce-html/{DCE}.html"])
def test_fuzzed_copies_of_the_new_pages_are_read_or_refused_in_one_line(rel: str, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=32, keep=1)
    assert read + refused == 16 and read >= 1
