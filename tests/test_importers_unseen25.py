"""Round 25 of export layouts (held-out tests/fixtures/unseen25, written by hand from what each exporter writes,
before any parser of this round; nothing copied from a real export or from ../shared; see its README.md): Apple
Mail's own store (one .emlx per message, .partial.emlx), Google Takeout's "My Activity" for Gemini Apps (JSON; its
HTML form refused saying why), and Zulip's organization export (realm.json + messages-00000N.json, a folder or the
.tar.gz the web UI gives).

Decisions:

* times as the export says them: an .emlx's Date with its own offset (the sender's zone), Gemini's and Zulip's UTC;
* the owner is marked only where the export marks them: a Gemini prompt ("Prompted …") is the account owner's
  ("User", ``from_me``), the answer "Gemini"; Apple Mail and Zulip name every sender;
* service lines are left out (system): a message Apple Mail marked deleted, Gemini's "Used Gemini Apps" and feedback
  lines, Zulip's bots (Welcome Bot); a Zulip message that is only an uploaded file: media;
* Gemini's Takeout keeps no conversation: its prompts are grouped by UTC day ("Gemini Apps 2024-04-02"); a Zulip
  stream's message is in "#stream > topic", a direct message between its people ("Ana Sousa, Rui Costa").
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

FIX = Path(__file__).parent / "fixtures" / "unseen25"
BAD = FIX / "bad"

# --- Apple Mail's .emlx ---------------------------------------------------------------------------------------------

MAIL = FIX / "Mail"
BOX = next(MAIL.glob("V10/*/INBOX.mbox/*/Data/Messages"))
EMLX_TURNS = [
    ("Tom Baker: Hi Ana,\n\nthe boat leaves Cascais marina at 10:30. Bring a jumper, it gets cold on the water.\n\nTom",
     "2024-04-05T18:22:10+01:00"),
    ("Ana Sousa: Great, I’ll bring sandwiches for everyone.", "2024-04-05T19:03:00+01:00"),
    ("山田 健太: アナさん\n\n来週の月曜日、午前10時に渋谷駅で会いましょう。\n\n健太", "2024-04-06T09:15:00+09:00"),
    ("Jürgen Müller: Hallo Ana,\n\ndie Fahrräder stehen ab Samstag in der Garage. Schlüssel liegt beim Nachbarn.\n\n"
     "Grüße\nJürgen", "2024-04-08T07:45:00+02:00"),
]


def test_apple_mail_store_of_emlx() -> None:
    recs, rep = parsed(MAIL, "mail")  # its Info.plist and "Envelope Index" (SQLite) are no mail
    check_chat_shape(recs, "mail")
    assert turns(recs) == EMLX_TURNS
    assert [r.thread for r in recs] == ["Boat trip on Sunday"] * 2 + ["来週の月曜日", "Fahrräder"]
    assert recs[1].metadata.get("in_reply_to") == "A1B2@example.org"
    assert recs[3].metadata.get("attachments") == ["rad.jpg"]  # a .partial.emlx: its attachment kept apart
    assert counts(rep) == (5, 1, 0) and rep.warnings == []  # 105.emlx: flagged deleted


def test_one_emlx_alone_in_windows_1256() -> None:
    recs, rep = parsed(FIX / "single" / "106.emlx", "mail")
    assert turns(recs) == [("سلمى خوري: مرحبا آنا،\nالعشاء يوم الخميس الساعة الثامنة مساءً عندنا.\nسلمى",
                            "2024-04-10T21:30:00+03:00")]
    assert recs[0].thread == "عشاء الخميس" and counts(rep) == (1, 0, 0)


def test_an_emlx_and_its_mailbox_folder_make_the_same_memory() -> None:
    one = parsed(BOX / "101.emlx", "mail")[0]
    assert [r.ref for r in one] == [parsed(BOX, "mail")[0][0].ref]


# --- Gemini Apps (Google Takeout, My Activity in JSON) --------------------------------------------------------------

GEM = FIX / "gemini"
GEM_TURNS = [
    ("User: ما هي عاصمة المغرب؟", "2024-04-01T20:10:33.001000+00:00"),
    ("Gemini: عاصمة المغرب هي الرباط.", "2024-04-01T20:10:33.001000+00:00"),
    ("User: ¿Cuál es la capital de Australia?", "2024-04-02T07:20:00+00:00"),
    ("Gemini: La capital de Australia es Canberra.", "2024-04-02T07:20:00+00:00"),
    ("User: how long should I boil an egg for a runny yolk?", "2024-04-02T07:31:09.502000+00:00"),
    ("Gemini: For a runny yolk, boil the egg for 6 minutes, then put it in cold water.",
     "2024-04-02T07:31:09.502000+00:00"),
    ("User: 京都で紅葉を見るなら、11月のいつ頃がいいですか？", "2024-04-03T12:05:44.118000+00:00"),
    ("Gemini: 京都の紅葉は11月中旬から下旬が見頃です。\n- 東福寺\n- 永観堂", "2024-04-03T12:05:44.118000+00:00"),
]


@pytest.mark.parametrize("path", [GEM / "Takeout", GEM / "Takeout" / "My Activity" / "Gemini Apps" / "MyActivity.json"],
                         ids=lambda p: p.name)
def test_gemini_takeout_activity(path: Path) -> None:
    recs, rep = parsed(path, "gemini")
    check_chat_shape(recs, "gemini")
    assert turns(recs) == GEM_TURNS
    assert [r.thread for r in recs] == ["Gemini Apps 2024-04-01"] * 2 + ["Gemini Apps 2024-04-02"] * 4 + \
        ["Gemini Apps 2024-04-03"] * 2
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False] * 4
    assert counts(rep) == (10, 2, 0) and rep.warnings == []  # "Used Gemini Apps", "Gave feedback": system


def test_gemini_takeout_zip() -> None:
    recs, rep = parsed(GEM / "takeout-20240405T101500Z-001.zip", "gemini")
    assert turns(recs) == [("User: Translate 'see you tomorrow' into Portuguese", "2024-03-30T09:00:00+00:00"),
                           ("Gemini: Até amanhã.", "2024-03-30T09:00:00+00:00")]
    assert {r.thread for r in recs} == {"Gemini Apps 2024-03-30"} and counts(rep) == (2, 0, 0)


# --- Zulip's organization export ------------------------------------------------------------------------------------

ZU = FIX / "zulip"
ZU_TURNS = [
    ("Rui Costa: Saímos do Rossio às 8h no sábado. Quem leva a corda?", "2024-04-01T10:00:00.250000+00:00"),
    ("Ana Sousa: Levo eu a corda de 60 m.", "2024-04-01T10:15:00+00:00"),
    ("יעל כהן: שלום! אני מביאה את הנעליים החדשות ביום ראשון.", "2024-04-01T11:13:20+00:00"),
    ("Rui Costa: Ana, can you send me the gym's opening hours?", "2024-04-02T10:00:00+00:00"),
    ("Ana Sousa: Weekdays 7:00 to 23:00, Sundays until 20:00.", "2024-04-02T10:05:00+00:00"),
]


def test_zulip_export_folder() -> None:
    recs, rep = parsed(ZU / "zulip-export-climbers", "zulip")
    check_chat_shape(recs, "zulip")
    assert turns(recs) == ZU_TURNS
    assert [r.thread for r in recs] == ["#escalada > Sintra sábado"] * 2 + ["Ana Sousa, Rui Costa, יעל כהן"] + \
        ["Ana Sousa, Rui Costa"] * 2
    assert counts(rep) == (7, 1, 1) and rep.warnings == []  # Welcome Bot: system; an uploaded file alone: media


def test_zulip_export_tar_gz() -> None:
    recs, rep = parsed(ZU / "zulip-export-k3x9a.tar.gz", "zulip")
    assert turns(recs) == [("张伟: 四月读《活着》，月底讨论。", "2024-04-03T00:00:00+00:00"),
                           ("Mei Lin: 好的，我已经买了。", "2024-04-03T01:00:00.500000+00:00")]
    assert {r.thread for r in recs} == {"#读书会 > 四月"} and counts(rep) == (2, 0, 0)


# --- through the CLI ------------------------------------------------------------------------------------------------

def test_cli_imports_each_new_layout_by_itself(tmp_path: Path) -> None:
    assert_imports_by_cli(tmp_path / "m.db", {
        MAIL: ("mail", 4), FIX / "single" / "106.emlx": ("mail", 1), GEM / "Takeout": ("gemini", 8),
        GEM / "takeout-20240405T101500Z-001.zip": ("gemini", 2), ZU / "zulip-export-climbers": ("zulip", 5),
        ZU / "zulip-export-k3x9a.tar.gz": ("zulip", 2)})


# --- refused saying why ---------------------------------------------------------------------------------------------

def test_my_activity_in_html_is_read_since_round_layouts34() -> None:
    # refused until round layouts34 ("export My Activity again choosing JSON"); now read (importers.gemini_html):
    # the time as the page writes it, with its zone's offset (CEST: +02:00); a prompt with no answer is one turn
    recs, _ = parsed(FIX / "refused" / "MyActivity.html", "gemini")
    assert turns(recs) == [("User: hello", "2024-04-02T09:31:09+02:00")]


# --- bad input: one line naming the file (and the message and field), nothing written -------------------------------

BAD_CASES: dict[Path, str] = {
    BAD / "count_not_a_number.emlx": "byte count",
    BAD / "count_past_end.emlx": "byte count",
    BAD / "gemini_bad_time": '"time" is no date',
    BAD / "gemini_not_list": "not a list",
    BAD / "zulip_unknown_sender": '"sender"',
    BAD / "zulip_no_realm": "no realm.json",
    BAD / "zulip_bad_date": '"date_sent" is no time',
    BAD / "zulip_cut.tar.gz": "damaged",
}


@pytest.mark.parametrize("path", sorted(BAD_CASES), ids=lambda p: p.name)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(path: Path, tmp_path: Path) -> None:
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
    assert_import_refused(path, tmp_path, BAD_CASES[path], where=(path, *files))


def test_every_unseen25_fixture_has_a_case() -> None:
    covered = {FIX / "single" / "106.emlx", GEM / "takeout-20240405T101500Z-001.zip", ZU / "zulip-export-k3x9a.tar.gz",
               FIX / "refused" / "MyActivity.html", *BAD_CASES}
    folders = [MAIL, GEM / "Takeout", ZU / "zulip-export-climbers", *[p for p in BAD_CASES if p.is_dir()]]
    files = {p for p in FIX.rglob("*") if p.is_file() and p.name != "README.md"}
    left = {p for p in files if p not in covered and not any(f in p.parents for f in folders)}
    assert left == set()
    assert len(files) >= 25 and len(BAD_CASES) >= 8


FUZZED = sorted(p for p in FIX.rglob("*") if p.is_file() and "bad" not in p.relative_to(FIX).parts
                and "refused" not in p.relative_to(FIX).parts and p.suffix in (".emlx", ".json", ".zip", ".gz")
                and p.name not in ("attachment.json", "records.json"))


@pytest.mark.parametrize("source", FUZZED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_damaged_fixture_is_read_or_refused_in_one_line(source: Path, tmp_path: Path) -> None:
    """Fuzzed: every cut or damaged copy is read (damage inside words is words) or refused with one line naming the
    file; no other exception, no hang. The copy keeps its name and its folders' names."""
    read, refused = fuzzed_outcomes(source, tmp_path, seed=FUZZED.index(source),
                                    keep=min(5, len(source.relative_to(FIX).parts)))
    assert read + refused == 16


# --- beyond the held-out (written after the parsers) -----------------------------------------------------------------

def test_zulip_export_unpacked_once_or_zipped_makes_the_same_memories(tmp_path: Path) -> None:
    """The .tar.gz gunzipped (a .tar) or its folder zipped: the same records, the same refs."""
    import gzip
    import zipfile

    tar = tmp_path / "zulip-export-k3x9a.tar"
    tar.write_bytes(gzip.decompress((ZU / "zulip-export-k3x9a.tar.gz").read_bytes()))
    with zipfile.ZipFile(tmp_path / "climbers.zip", "w") as zf:
        for p in sorted((ZU / "zulip-export-climbers").rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(ZU).as_posix())
    want = parsed(ZU / "zulip-export-k3x9a.tar.gz", "zulip")[0]
    got = parsed(tar, "zulip")[0]
    assert [(r.content, r.ref) for r in got] == [(r.content, r.ref) for r in want]
    assert turns(parsed(tmp_path / "climbers.zip", "zulip")[0]) == ZU_TURNS


def test_a_whole_takeout_stays_what_the_other_readers_make_of_it(tmp_path: Path) -> None:
    """Gemini's activity is read from a Takeout of My Activity alone: one holding Google Chat is still Chat's, one
    holding Keep's notes still notes, folder or zip; its My Activity folder by itself is Gemini's."""
    import shutil
    import zipfile

    from importers.detect import detect

    shutil.copytree(GEM / "Takeout", tmp_path / "chat" / "Takeout")
    group = tmp_path / "chat" / "Takeout" / "Google Chat" / "Groups" / "DM abc"
    group.mkdir(parents=True)
    (group / "messages.json").write_text('{"messages": []}', encoding="utf-8")
    shutil.copytree(GEM / "Takeout", tmp_path / "keep" / "Takeout")
    keep = tmp_path / "keep" / "Takeout" / "Keep"
    keep.mkdir()
    (keep / "Shopping.json").write_text('{"title": "Shopping", "textContent": "eggs", "isTrashed": false, '
                                        '"userEditedTimestampUsec": 1711900000000000}', encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "takeout.zip", "w") as zf:
        for p in sorted((tmp_path / "keep").rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(tmp_path / "keep").as_posix())
    assert detect(tmp_path / "chat") == "googlechat" and detect(tmp_path / "chat" / "Takeout" / "My Activity") == "gemini"
    assert detect(tmp_path / "keep") == "markdown" and detect(tmp_path / "takeout.zip") == "markdown"
