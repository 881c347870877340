"""Round 24 of export layouts: what people have that mem still could not read (tests/fixtures/unseen24, written by
hand from what each exporter writes, before any parser of this round; nothing copied from a real export or from
../shared; see its README.md): email (Gmail's Takeout mbox, Thunderbird's mailbox files, Apple Mail's exported
mailbox, single .eml messages, in legacy code pages), LinkedIn's messages.csv (its data download), Discord's own
data package ("Request all of my data": messages/index.json, c<id>/channel.json and messages.json or, before 2023,
messages.csv), Tinder's data.json, Hinge's matches.json, Mattermost's bulk export (JSON lines), and the zip Microsoft
Teams (free) exports (Skype's messages.json).

Decisions:

* times as the export says them: an email's Date with its own offset (the sender's zone); LinkedIn, Discord, Tinder,
  Hinge and Mattermost write UTC;
* the owner is "me" only where the export marks a message as the owner's without naming them (Discord's package and
  the dating apps hold only the owner's messages: "You" in Tinder's); a name the export writes stays as written (an
  email's From, Gmail's "Sent" label only marks it ``from_me``);
* service lines are left out (system): Gmail's Spam, a delivery failure report, a message Thunderbird marked
  deleted, LinkedIn's unsent drafts, Mattermost's join lines, Teams' member events; a message of a file only media;
* an email's words are its own: the quoted reply ("On … wrote:", "> …", Outlook's "From:/Sent:" block), the
  signature after "-- " are left out; its thread is its subject without "Re:"/"AW:"/"RE:";
* what no parser reads is refused in one line that says what it is (Outlook's .msg and .pst, Facebook's comments).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from importer_cli import (
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    counts,
    fuzzed_outcomes,
    parsed,
    turns,
)

FIX = Path(__file__).parent / "fixtures" / "unseen24"

# --- email --------------------------------------------------------------------------------------------------------

ML = FIX / "mail"
GMAIL = ML / "Takeout" / "Mail" / "All mail Including Spam and Trash.mbox"
THUNDERBIRD = ML / "Thunderbird" / "Mail" / "Local Folders" / "Inbox"
APPLE = ML / "Claire.mbox"
EML = ML / "eml"
GMAIL_TURNS = [
    ("Ana Sousa: Hi Bob,\n\nthe flat is booked from 2 to 9 May.\nFrom the station it's a ten minute walk.",
     "2024-03-14T19:01:12+01:00"),
    ("Bob Lee: Great, I’ll book the train for the 2nd.\nSee you there!", "2024-03-14T14:20:05-04:00"),
    ("Helena Costa: Olá Ana,\nO almoço é às 13h em casa da avó. Levas a sobremesa?\nBeijinhos,\nHelena",
     "2024-03-16T10:05:00+00:00"),
    ("Ana Sousa: Levo o bolo de laranja!", "2024-03-16T12:40:30+00:00"),
    ("佐藤 陽翔: ハルトです。\n来週の会議は水曜日の午後3時からです。\n資料は金曜日までに送ります。", "2024-03-18T09:30:00+09:00"),
]
TB_TURNS = [
    ("Jonas Weber: Hallo Lena,\n\ndie Übung am Freitag fällt aus. Wir treffen uns stattdessen am Montag um 10 Uhr."
     "\n\nGrüße\nJonas", "2024-03-21T08:15:00+01:00"),
    ("Lena Fischer: Danke, Montag passt mir gut – ich bringe die Lösungen mit.", "2024-03-21T09:02:44+01:00"),
    ("ليلى حداد: مرحبا يا لينا،\nالاجتماع يوم الأحد الساعة الخامسة في المكتبة.", "2024-03-24T17:00:00+03:00"),
]
APPLE_TURNS = [
    ("Claire Martin: Coucou Ana,\nOn dîne chez moi vendredi à 20h ? J’apporte le fromage.\nBises,\nClaire",
     "2024-03-22T12:00:00+01:00"),
    ("Ana Sousa: Avec plaisir, j’apporte le vin.", "2024-03-22T13:10:00+01:00"),
]
EML_TURNS = [
    ("François Dubois: Bonjour Claire,\n\nLe budget est validé : 12 000 € pour le deuxième trimestre.\n\n"
     "Cordialement,\nFrançois", "2024-03-26T16:45:10+01:00"),
    ("נועה לוי: שלום דוד,\nהספר מוכן לאיסוף ביום שלישי.", "2024-03-27T11:00:00+02:00"),
    ("王芳: 周五晚上七点在老地方吃饭，别迟到。", "2024-03-29T20:10:00+08:00"),
]


def test_gmail_takeout_mbox() -> None:
    recs, rep = parsed(GMAIL, "mail")
    check_chat_shape(recs, "mail")
    assert turns(recs) == GMAIL_TURNS
    assert [r.thread for r in recs] == ["Lisbon trip", "Lisbon trip", "Almoço de domingo", "Almoço de domingo", "来週の会議"]
    assert [r.position for r in recs] == [0, 1, 0, 1, 0]
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False, False, True, False]  # Gmail's "Sent"
    assert counts(rep) == (8, 2, 1)  # Spam and a delivery failure: system; a PDF alone: media
    assert recs[1].metadata.get("subject") == "Re: Lisbon trip" and recs[1].metadata.get("from") == "bob.lee@example.com"
    assert recs[0].ref != recs[1].ref and rep.warnings == []


def test_thunderbird_mailbox_legacy_code_pages_and_a_deleted_message() -> None:
    recs, rep = parsed(THUNDERBIRD, "mail")
    check_chat_shape(recs, "mail")
    assert turns(recs) == TB_TURNS
    assert [r.thread for r in recs] == ["Übung Statik", "Übung Statik", "اجتماع الأحد"]
    assert counts(rep) == (4, 1, 0) and rep.warnings == []  # X-Mozilla-Status 0009: deleted, not yet compacted


def test_thunderbird_profile_folder() -> None:
    recs, _ = parsed(ML / "Thunderbird", "mail")  # its .msf index files are no mail
    assert turns(recs) == TB_TURNS


def test_apple_mail_exported_mailbox() -> None:
    recs, rep = parsed(APPLE, "mail")
    assert turns(recs) == APPLE_TURNS and {r.thread for r in recs} == {"Dîner vendredi"}
    assert counts(rep) == (2, 0, 0)


def test_single_messages_eml() -> None:
    for path, turn, thread in zip(sorted(EML.iterdir()), EML_TURNS, ["Réunion budget", "הספר מוכן", "周五吃饭"],
                                  strict=True):
        recs, rep = parsed(path, "mail")
        assert turns(recs) == [turn] and recs[0].thread == thread and rep.warnings == []
    recs, _ = parsed(EML, "mail")
    assert turns(recs) == EML_TURNS


def test_a_folder_of_mail() -> None:
    recs, _ = parsed(ML, "mail")
    assert turns(recs) == APPLE_TURNS + GMAIL_TURNS + TB_TURNS + EML_TURNS


def test_mail_without_a_date_is_kept_undated_with_a_warning() -> None:
    recs, rep = parsed(FIX / "bad" / "eml_no_date.eml", "mail")
    assert turns(recs) == [("Bob Lee: The keys are under the blue pot.", "")]
    assert len(rep.warnings) == 1 and "Date" in rep.warnings[0]


def test_mail_in_an_unknown_charset_is_read_in_its_code_page_with_a_warning() -> None:
    recs, rep = parsed(FIX / "bad" / "unknown_charset.mbox", "mail")
    assert turns(recs) == [("Bob Lee: Meet at the café at 9.", "2024-03-29T10:00:00+00:00")]
    assert recs[0].thread == "café"
    assert len(rep.warnings) == 1 and "x-made-up" in rep.warnings[0]


# --- LinkedIn -----------------------------------------------------------------------------------------------------

LI = FIX / "linkedin"
LI_TURNS = [
    ("Marcus Reed: Hi Ana,\nwe're hiring a senior data engineer in Lisbon (remote-friendly). Would you be open to a chat?",
     "2024-03-27T08:01:00+00:00"),
    ("Ana Sousa: Hi Marcus, happy to talk. I'm free Tuesday afternoon.", "2024-03-27T17:30:05+00:00"),
    ("Marcus Reed: Thanks Ana, Tuesday 2 April at 15:00 CET works. I'll send a Teams invite.", "2024-03-28T09:12:40+00:00"),
    ("Carla Vega: ¡Hola a todos!\nLa reunión con el cliente es el jueves a las 10:00.", "2024-03-20T09:45:12+00:00"),
    ("Ana Sousa: Perfecto, allí estaré.", "2024-03-20T10:02:00+00:00"),
]


@pytest.mark.parametrize("path", [LI / "messages.csv", LI / "Basic_LinkedInDataExport_03-30-2024.zip"],
                         ids=lambda p: p.name)
def test_linkedin_messages(path: Path) -> None:
    recs, rep = parsed(path, "linkedin")
    check_chat_shape(recs, "linkedin")
    assert turns(recs) == LI_TURNS
    assert [r.thread for r in recs] == ["Ana Sousa, Marcus Reed"] * 3 + ["Proyecto Sevilla"] * 2
    assert counts(rep) == (7, 1, 1)  # a draft never sent: system; a file alone: media
    assert recs[0].metadata.get("subject") == "Senior data engineer role"
    assert rep.warnings == []


def test_linkedin_csv_and_zip_make_the_same_memories() -> None:
    assert [r.ref for r in parsed(LI / "messages.csv", "linkedin")[0]] == \
        [r.ref for r in parsed(LI / "Basic_LinkedInDataExport_03-30-2024.zip", "linkedin")[0]]


# --- Discord's data package ---------------------------------------------------------------------------------------

DC = FIX / "discord"
DC_TURNS = [("me: are you coming on Saturday?\nwe start at 7", "2024-03-30T20:15:02+00:00"),
            ("me: I'll bring Catan and the seafarers expansion", "2024-03-30T20:16:40+00:00"),
            ("me: みなさん、こんにちは！", "2024-03-31T11:00:03+00:00"),
            ("me: 土曜日は19時から始めます", "2024-03-31T11:02:55+00:00"),
            ("me: happy new year!", "2023-01-05T08:30:00+00:00")]
DC_OLD = [("me: Idziemy na koncert w sobotę?", "2021-06-12T19:05:44.512000+00:00"),
          ("me: Jutro o 18:00 pod pomnikiem,\nweź parasol", "2021-06-12T19:07:10.021000+00:00")]


def test_discord_data_package() -> None:
    recs, rep = parsed(DC / "package", "discord")
    check_chat_shape(recs, "discord")
    assert turns(recs) == DC_TURNS
    assert [r.thread for r in recs] == ["kofi_m"] * 2 + ["一般 in ボードゲームの夜"] * 2 + ["channel 3333000000000000003"]
    assert counts(rep) == (6, 0, 1) and rep.warnings == []


def test_discord_data_package_before_2023_zipped() -> None:
    recs, rep = parsed(DC / "package-2021.zip", "discord")
    assert turns(recs) == DC_OLD and {r.thread for r in recs} == {"Zosia#1234"}
    assert counts(rep) == (3, 0, 1)


# --- dating apps --------------------------------------------------------------------------------------------------

def test_tinder_data_json() -> None:
    recs, rep = parsed(FIX / "tinder" / "data.json", "tinder")
    check_chat_shape(recs, "tinder")
    assert turns(recs) == [("me: Olá! Também gostas de surf?", "2024-03-02T21:14:07+00:00"),
                           ("me: Que tal um café na Ericeira no domingo às 11h?", "2024-03-03T09:40:55+00:00"),
                           ("me: Hi Sam! Your dog in photo 3 <3 what's her name?", "2024-03-08T18:02:11+00:00")]
    assert [r.thread for r in recs] == ["Tinder Match 1", "Tinder Match 1", "Tinder Match 3"]
    assert counts(rep) == (4, 0, 1)  # a GIF: media


@pytest.mark.parametrize("path", [FIX / "hinge" / "export", FIX / "hinge" / "export" / "matches.json"], ids=str)
def test_hinge_matches(path: Path) -> None:
    recs, rep = parsed(path, "hinge")
    check_chat_shape(recs, "hinge")
    assert turns(recs) == [("me: Cześć! Widzę, że też lubisz góry 🙂", "2024-02-10T19:25:40+00:00"),
                           ("me: Byłaś kiedyś w Tatrach zimą?", "2024-02-11T08:02:13.500000+00:00"),
                           ("me: Your dog is adorable", "2024-02-12T12:00:00+00:00")]
    assert [r.thread for r in recs] == ["Hinge match 1", "Hinge match 1", "Hinge match 2"]
    assert recs[2].metadata.get("like") is True
    assert counts(rep) == (3, 0, 0)


# --- Mattermost ---------------------------------------------------------------------------------------------------

MM = FIX / "mattermost"


def test_mattermost_bulk_export() -> None:
    recs, rep = parsed(MM / "export.jsonl", "mattermost")
    check_chat_shape(recs, "mattermost")
    assert turns(recs) == [("Jonas Weber: Die Lieferung der Kisten kommt am Mittwoch um 9 Uhr.", "2024-04-01T09:00:00+00:00"),
                           ("Lena Fischer: Ich bin ab 8:30 in der Halle.", "2024-04-01T09:05:00+00:00"),
                           ("Jonas Weber: Super, danke!", "2024-04-01T09:07:00+00:00"),
                           ("נועה: שלום לנה! הפגישה נדחתה ליום חמישי.", "2024-04-01T11:13:20+00:00"),
                           ("Lena Fischer: Alles klar, danke Noa!", "2024-04-01T11:15:00+00:00")]
    assert [r.thread for r in recs] == ["Projekt Apfel (Werkstatt)"] * 3 + ["Lena Fischer, נועה"] * 2
    assert recs[1].metadata.get("reply_to") == recs[0].ref
    assert counts(rep) == (7, 1, 1) and rep.warnings == []


def test_mattermost_export_zip() -> None:
    recs, _ = parsed(MM / "export_2024-04-02.zip", "mattermost")
    assert turns(recs) == [("Jonas Weber: Schrauben M6 sind bestellt.", "2024-04-02T09:00:00+00:00")]
    assert recs[0].thread == "Einkauf (Werkstatt)"


# --- Microsoft Teams (free): its export is Skype's messages.json, zipped ------------------------------------------

def test_teams_export_zip() -> None:
    recs, rep = parsed(FIX / "teams" / "TeamsExport_2024-04-05.zip", "skype")
    assert turns(recs) == [("Ana Sousa: Het buurtfeest is zaterdag 13 april vanaf 15:00", "2024-04-04T18:13:20+00:00"),
                           ("Sanne de Vries: Ik neem de barbecue mee & de stoelen.", "2024-04-04T18:20:00+00:00")]
    assert {r.thread for r in recs} == {"Buurtfeest"} and counts(rep) == (3, 1, 0)


# --- Reddit's data download (held-out, written before its reader) --------------------------------------------------

RD = FIX / "reddit" / "export_ana_s_20240401"
RD_TURNS = [("ana_s: Count me in for the December meetup. I'll bring 'The Dispossessed'.",
             "2022-11-20T21:00:00+00:00"),
            ("trailrunner_pt: Hi! Saw your post in r/trailrunning.\n\nThe Torre loop is 18 km, start early, the wind picks up "
             "after 2pm.", "2024-03-02T10:15:00+00:00"),
            ("ana_s: Thanks a lot! Is there water on the way?", "2024-03-02T12:40:31+00:00"),
            ("trailrunner_pt: Only at the Lagoa Comprida fountain, bring 2 litres.", "2024-03-03T08:05:10+00:00"),
            ("kyoto_walker: 11月の後半が一番きれいです。東福寺は朝8時に行くと空いています。", "2024-03-10T19:22:45+00:00")]


def test_reddit_private_messages() -> None:
    """Reddit's "Request your data": messages.csv and messages_archive.csv (id, permalink, thread_id, date, ip, from,
    to, subject, body; UTC); a conversation is its subject without "re: "; comments.csv is no conversation."""
    recs, rep = parsed(RD, "reddit")
    check_chat_shape(recs, "reddit")
    assert turns(recs) == RD_TURNS
    assert [r.thread for r in recs] == ["Book club in December"] + ["Serra da Estrela route"] * 3 + ["京都の紅葉"]
    assert counts(rep) == (5, 0, 0) and rep.warnings == []
    assert turns(parsed(RD / "messages.csv", "reddit")[0]) == RD_TURNS[1:]


def test_reddit_bad_date_is_refused(tmp_path: Path) -> None:
    assert_import_refused(BAD / "reddit_bad_date", tmp_path, '"date" is no date', where=(
        BAD / "reddit_bad_date", BAD / "reddit_bad_date" / "messages.csv"))


# --- through the CLI: detected, written, re-imported --------------------------------------------------------------

def test_cli_imports_each_new_layout_by_itself(tmp_path: Path) -> None:
    assert_imports_by_cli(tmp_path / "m.db", {
        GMAIL: ("mail", 5), THUNDERBIRD: ("mail", 3), LI / "Basic_LinkedInDataExport_03-30-2024.zip": ("linkedin", 5),
        DC / "package": ("discord", 5), FIX / "tinder" / "data.json": ("tinder", 3), FIX / "hinge" / "export": ("hinge", 3),
        MM / "export.jsonl": ("mattermost", 5), FIX / "teams" / "TeamsExport_2024-04-05.zip": ("skype", 2),
        RD: ("reddit", 5)})


# --- refused in one line saying what the file is ------------------------------------------------------------------

REFUSED = {FIX / "refused" / "Budget.msg": "an Outlook message", FIX / "refused" / "Outlook.pst": "an Outlook data file",
           FIX / "refused" / "comments.json": "Facebook comments"}


@pytest.mark.parametrize("path", sorted(REFUSED), ids=lambda p: p.name)
def test_what_stays_unsupported_is_refused_saying_why(path: Path, tmp_path: Path) -> None:
    assert_import_refused(path, tmp_path, REFUSED[path])


# --- bad input: one line naming the file (and line or message and field), nothing written --------------------------

BAD = FIX / "bad"
BAD_CASES: dict[Path, str] = {
    BAD / "not_mail.mbox": "not a mailbox",
    BAD / "linkedin_bad_date": '"DATE" is no date',
    BAD / "linkedin_no_content": 'no "CONTENT" column',
    BAD / "discord_cut": "truncated",
    BAD / "discord_bad_time": '"Timestamp" is no date',
    BAD / "tinder_bad_date": '"sent_date" is no date',
    BAD / "hinge_not_list": "not a list",
    BAD / "mm_bad_line.jsonl": ":5:",
    BAD / "mm_bad_time.jsonl": '"create_at" is no time',
    BAD / "teams_cut.zip": "malformed zip",
}


@pytest.mark.parametrize("path", sorted(BAD_CASES), ids=lambda p: p.name)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(path: Path, tmp_path: Path) -> None:
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
    assert_import_refused(path, tmp_path, BAD_CASES[path], where=(path, *files))


def test_every_unseen24_fixture_has_a_case() -> None:
    covered = {GMAIL, THUNDERBIRD, LI / "messages.csv", LI / "Basic_LinkedInDataExport_03-30-2024.zip",
               DC / "package-2021.zip", FIX / "tinder" / "data.json", MM / "export.jsonl", MM / "export_2024-04-02.zip",
               FIX / "teams" / "TeamsExport_2024-04-05.zip", BAD / "eml_no_date.eml", BAD / "unknown_charset.mbox",
               *REFUSED, *BAD_CASES}
    folders = [APPLE, EML, ML / "Thunderbird", DC / "package", FIX / "hinge", RD, BAD / "reddit_bad_date",
               *[p for p in BAD_CASES if p.is_dir()]]
    files = {p for p in FIX.rglob("*") if p.is_file() and p.name != "README.md"}
    left = {p for p in files if p not in covered and not any(f in p.parents for f in folders)}
    assert left == set()
    assert len(files) >= 30 and len(BAD_CASES) + 2 >= 8


FUZZED = sorted(p for p in FIX.rglob("*") if p.is_file() and "bad" not in p.relative_to(FIX).parts
                and "refused" not in p.relative_to(FIX).parts
                and (p.suffix in (".csv", ".json", ".jsonl", ".zip", ".mbox", ".eml") or p.name in ("Inbox", "mbox")))


@pytest.mark.parametrize("source", FUZZED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_damaged_fixture_is_read_or_refused_in_one_line(source: Path, tmp_path: Path) -> None:
    """Fuzzed: every cut or damaged copy of every fixture is read (damage inside words is words) or refused with one
    line naming the file; no other exception, no hang. The copy keeps its name and its folders' names."""
    read, refused = fuzzed_outcomes(source, tmp_path, seed=FUZZED.index(source),
                                    keep=min(5, len(source.relative_to(FIX).parts)))
    assert read + refused == 16


# --- beyond the held-out (written after the parsers) ---------------------------------------------------------------

def test_a_takeout_zip_of_mail_and_a_crlf_mailbox(tmp_path: Path) -> None:
    """Google's Takeout comes zipped (Takeout/Mail/*.mbox); a mailbox copied through Windows has CRLF line ends."""
    import zipfile

    data = GMAIL.read_bytes()
    with zipfile.ZipFile(tmp_path / "takeout-20240401T120000Z-001.zip", "w") as zf:
        zf.writestr("Takeout/Mail/All mail Including Spam and Trash.mbox", data)
    recs, _ = parsed(tmp_path / "takeout-20240401T120000Z-001.zip", "mail")
    assert turns(recs) == GMAIL_TURNS
    crlf = tmp_path / "crlf.mbox"
    crlf.write_bytes(data.replace(b"\n", b"\r\n"))
    assert turns(parsed(crlf, "mail")[0]) == GMAIL_TURNS


def test_an_email_keeps_words_that_only_look_like_a_quote() -> None:
    """"Here is what she wrote:" names no time nor address: no reply's head; a forward's marker cuts nothing."""
    from importers.mail_text import own_words

    text = "Here is what she wrote:\nthe boiler is fixed\n\n---------- Forwarded message ---------\nFrom: Bo\nDate: x\nhi"
    assert own_words(text) == text
    assert own_words("Yes!\n\nOn Mon, 4 Mar 2024, 10:02 Ana Sousa <\nana@example.com> wrote:\n> ok") == "Yes!"
    assert own_words("Ja\n\nAm 04.03.2024 um 10:02 schrieb Ana Sousa:\n> ok") == "Ja"


def test_mail_a_machine_sent_in_bulk_is_left_out(tmp_path: Path) -> None:
    """Gmail's Promotions, a newsletter ("Precedence: bulk"), an out-of-office reply ("Auto-Submitted") are no one's
    words: system, as Spam is; a mailing list's discussion ("Precedence: list") is people's words and stays."""
    head = "From x@y Mon Apr 01 10:00:00 2024\nDate: Mon, 1 Apr 2024 10:00:00 +0000\nFrom: {0} <a@b.example>\nSubject: {0}\n"
    mails = [head.format("Shop") + "X-Gmail-Labels: Category Promotions,Inbox\n\n-50% today\n",
             head.format("News") + "Precedence: bulk\nList-Unsubscribe: <https://x.example/u>\n\nThis week\n",
             head.format("Away") + "Auto-Submitted: auto-replied\n\nI am away until Monday\n",
             head.format("Ana Sousa") + "Precedence: list\nList-Id: <hikers.groups.example>\n\nWho joins on Sunday?\n"]
    path = tmp_path / "bulk.mbox"
    path.write_text("\n".join(mails), encoding="utf-8")
    recs, rep = parsed(path, "mail")
    assert turns(recs) == [("Ana Sousa: Who joins on Sunday?", "2024-04-01T10:00:00+00:00")]
    assert counts(rep) == (4, 3, 0)
