"""Round 22 of export layouts: the chat exports mem still refused (tests/fixtures/unseen22, written by hand from
what each exporter writes, before any parser of this round; nothing copied from a real export or from ../shared;
see its README.md): Viber's "Email message history" CSV (alone and zipped), WeChat as MemoTrace writes it (CSV and
TXT), Threema's chat export (zip and folder), signal-export's HTML, Element's (Matrix) room export as JSON, X/Twitter
DMs of the account archive (direct-messages.js, direct-messages-group.js) and Google Voice (Takeout pages).

Records are chat turns as WhatsApp's are: ``Author: text``, the author, the time, the chat as thread. Decisions:

* times are what the export says: Viber, Threema, signal-export and MemoTrace's TXT write the phone's (computer's)
  wall time (naive); MemoTrace's CSV writes the instant (CreateTime) and the wall time beside it (StrTime): kept with
  the offset the two give (+08:00); Matrix and X write instants (UTC); Google Voice writes its own offset;
* the owner is "me" where the export marks a message as the owner's without naming them (WeChat's IsSender 1 with no
  Sender; X's accountId from account.js; Google Voice's ``<abbr class="fn">Me</abbr>``); where the export writes a
  name for the owner ("Me" in Viber and signal-export, "Ich" in a German Threema export) it stays as written;
* service lines (joins, renames, topics, reactions, redactions, recalls, calls, encrypted events) are counted as
  system and left out; a message of a file only (a photo, a sticker, a voice note) as media;
* day-first or month-first numeric dates (Viber, Threema) are told by the file: a number over 12, dots (day first),
  a 12-hour clock (month first, as the US writes it), else day first.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import (
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    counts,
    fuzzed_outcomes,
    parsed,
    turns,
    write_zip,
)
from importer_cli import one_envelope as _envelope

FIX = Path(__file__).parent / "fixtures" / "unseen22"


# --- Viber ----------------------------------------------------------------------------------------------------

VB = FIX / "viber"
VIBER_ANA = [("Ana Sousa: Bom dia! Já compraste os bilhetes para o concerto?", "2024-03-13T09:12:40"),
             ("Me: Ainda não, compro hoje à noite", "2024-03-13T09:15:02"),
             ("Me: Comprados! Plateia, fila 12\nLugares 7 e 8\nCustaram 45€ cada", "2024-03-13T21:40:11"),
             ('Ana Sousa: Obrigada! Pago-te no sábado, diz "olá" à tua mãe', "2024-03-14T08:05:30")]
# "3/5/2024" could be either: a 12-hour clock says the US wrote it (month first); an unquoted comma stays in the words
VIBER_JAKE = [("Jake Miller: Hey! Are we still on for the hardware store Saturday?", "2024-03-05T15:02:11"),
              ("Me: Yes. I need 2x4s and deck screws", "2024-03-05T15:10:45"),
              ("Jake Miller: Great, pick you up at 9", "2024-03-06T08:00:00"),
              ("Me: Sounds good 👍", "2024-03-06T12:30:00")]
VIBER_OLENA = [("Олена Коваль: Привіт! Ти завтра на роботі?", "2024-03-20T18:30:00"),
               ("Me: Так, до шостої", "2024-03-20T18:31:12"),
               ("Олена Коваль: Тоді зустрінемось о 18:30 біля метро Золоті ворота", "2024-03-20T18:32:40"),
               ("Me: Я на місці 👋", "2024-03-21T19:05:00")]
VIBER_GROUP = [("Андрій: Сусіди, завтра відключення води з 9 до 14", "2024-03-22T10:00:00"),
               ("Me: Дякую за попередження!", "2024-03-22T10:02:30"),
               ("Марія Петренко: Набрала два відра.\nХто має зайву каністру?", "2024-03-22T10:05:00")]


@pytest.mark.parametrize(("name", "chat", "expected", "seen", "order"), [
    ("Viber Ana Sousa.csv", "Ana Sousa", VIBER_ANA, (5, 0, 0), "dmy"),  # CRLF; an empty message (a photo) left out
    ("Viber Jake Miller.csv", "Jake Miller", VIBER_JAKE, (4, 0, 0), "mdy"),
], ids=["pt-dmy", "us-mdy"])
def test_viber_csv(name: str, chat: str, expected: list, seen: tuple, order: str) -> None:
    recs, rep = parsed(VB / name, "viber")
    check_chat_shape(recs, "viber")
    assert turns(recs) == expected and {r.thread for r in recs} == {chat}
    assert counts(rep) == seen and rep.date_orders == {chat: order}
    assert rep.warnings == []


def test_viber_zip_of_chats_and_folder() -> None:
    recs, rep = parsed(VB / "Viber messages.zip", "viber")
    check_chat_shape(recs, "viber")
    assert turns(recs) == VIBER_OLENA + VIBER_GROUP  # "20.03.2024": dots and a 20 put the day first
    assert [r.thread for r in recs] == ["Олена Коваль"] * 4 + ["Сусіди"] * 3
    assert counts(rep) == (7, 0, 0)
    recs, _ = parsed(VB, "viber")
    assert turns(recs) == VIBER_ANA + VIBER_JAKE + VIBER_OLENA + VIBER_GROUP


# --- WeChat (MemoTrace) -----------------------------------------------------------------------------------------

WX = FIX / "wechat" / "聊天记录"
WX_ZHANG = [("张伟: 周六去爬香山吗？", "2024-03-13T20:01:05+08:00"),
            ("me: 好啊，几点？", "2024-03-13T20:02:30+08:00"),
            ("张伟: 早上七点半，\n北宫门地铁站B口见", "2024-03-13T20:05:12+08:00"),
            ("张伟: 香山公园门票预约 https://example.com/xiangshan?ticket=1&day=0316", "2024-03-13T20:06:00+08:00"),
            ('me: 好的，我带水和"能量棒"', "2024-03-13T20:07:30+08:00"),
            ("张伟: 明天降温，多穿点", "2024-03-14T07:21:00+08:00")]
WX_GROUP = [("陈静: 这周六下午两点，五棵松体育馆，场地已订", "2024-05-10T12:01:00+08:00"),
            ("me: 我可以带一桶球", "2024-05-10T12:03:20+08:00"),
            ("刘洋: 新人报到，水平一般😂", "2024-05-10T12:04:00+08:00"),  # the sender's id before the words: dropped
            ("陈静: AA制，每人45元，转我就行", "2024-05-11T16:40:00+08:00")]
WX_LINA = [("李娜: 明天的会议改到下午三点了", "2024-04-02T19:30:12"),
           ("王磊: 收到，会议室还是302吗？", "2024-04-02T19:31:40"),
           ("李娜: 对，302。\n记得带上季度报表", "2024-04-02T19:32:05"),
           ("王磊: 报表已经发到你邮箱了", "2024-04-03T08:15:44")]


def test_wechat_memotrace_csv_one_to_one() -> None:
    recs, rep = parsed(WX / "张伟" / "张伟.csv", "wechat")
    check_chat_shape(recs, "wechat")
    assert turns(recs) == WX_ZHANG and {r.thread for r in recs} == {"张伟"}
    # 11 rows: a "you added" line and a recall are system; a photo, a sticker, a voice note are media
    assert counts(rep) == (11, 2, 3)
    assert rep.warnings == []


def test_wechat_memotrace_csv_group() -> None:
    recs, rep = parsed(WX / "周末羽毛球群" / "周末羽毛球群.csv", "wechat")
    assert turns(recs) == WX_GROUP and {r.thread for r in recs} == {"周末羽毛球群"}
    assert counts(rep) == (7, 2, 1)


def test_wechat_memotrace_txt() -> None:
    recs, rep = parsed(WX / "李娜" / "李娜.txt", "wechat")
    check_chat_shape(recs, "wechat")
    assert turns(recs) == WX_LINA and {r.thread for r in recs} == {"李娜"}
    assert counts(rep) == (5, 0, 1)  # "[图片]" is a photo


def test_wechat_folder_of_chats_reads_each_chat_once(tmp_path: Path) -> None:
    recs, _ = parsed(WX, "wechat")
    assert turns(recs) == WX_GROUP + WX_ZHANG + WX_LINA
    # MemoTrace writes a chat as CSV and TXT side by side: the CSV (with its instants) is read, the TXT not again
    both = tmp_path / "聊天记录"
    shutil.copytree(WX, both)
    (both / "张伟" / "张伟.txt").write_text("2024-03-13 20:01:05 张伟\n周六去爬香山吗？\n\n", encoding="utf-8")
    assert turns(parsed(both, "wechat")[0]) == WX_GROUP + WX_ZHANG + WX_LINA


# --- Threema --------------------------------------------------------------------------------------------------

TH = FIX / "threema"
THREEMA_ANA = [("Ana Sousa: Olá! Já tens o Threema instalado no portátil?", "2024-03-14T10:02:00"),
               ("Me: Sim, acabei de ligar", "2024-03-14T10:05:00"),
               ("Ana Sousa: Esta é a foto do quadro da reunião.\nOs números do orçamento estão no canto direito",
                "2024-03-14T10:16:00"),
               ("Me: Obrigado, vou passar a limpo", "2024-03-14T10:20:00")]
THREEMA_WEBER = [("Oma Weber: Sonntag gibt es Rouladen, kommt ihr um 12?", "2024-06-02T18:00:00"),
                 ("Ich: Ja, wir bringen den Nachtisch mit", "2024-06-02T18:04:00"),
                 ("Lukas Weber: Ich komme später, Training bis 13 Uhr", "2024-06-02T18:10:00"),
                 ("Oma Weber: Gut. Lukas, bring bitte die Gartenstühle zurück", "2024-06-03T09:30:00")]


def test_threema_zip_with_its_media() -> None:
    recs, rep = parsed(TH / "threema-export-Ana Sousa.zip", "threema")
    check_chat_shape(recs, "threema")
    assert turns(recs) == THREEMA_ANA and {r.thread for r in recs} == {"Ana Sousa"}
    assert counts(rep) == (5, 0, 1)  # a message naming a file of the zip is that file


def test_threema_folder() -> None:
    for path in (TH / "Familie Weber", TH / "Familie Weber" / "messages.txt"):
        recs, rep = parsed(path, "threema")
        assert turns(recs) == THREEMA_WEBER and {r.thread for r in recs} == {"Familie Weber"}
        assert counts(rep) == (4, 0, 0)


# --- Signal Desktop as signal-export writes it in HTML -----------------------------------------------------------

def test_signal_export_html_chat_rtl() -> None:
    recs, rep = parsed(FIX / "signal" / "signal-chats" / "Yasmin Haddad" / "index.html", "signal")
    check_chat_shape(recs, "signal")
    assert turns(recs) == [
        ("Yasmin Haddad: مرحبا! هل وصلت الكتب التي طلبتها؟", "2024-04-18T20:01:00"),
        ("Me: نعم، وصلت اليوم. سأحضرها معي يوم الأحد", "2024-04-18T20:05:00"),
        ("Yasmin Haddad: ممتاز & شكراً جزيلاً\nالساعة الحادية عشرة في المقهى؟", "2024-04-18T20:07:00"),
        ("Me: Perfect, 11:00 at Café Nour", "2024-04-19T08:30:00")]
    assert {r.thread for r in recs} == {"Yasmin Haddad"} and counts(rep) == (5, 0, 1)
    assert recs[1].metadata["reactions"] == ["Yasmin Haddad: ❤️"]
    assert recs[2].metadata["quote"] == "نعم، وصلت اليوم. سأحضرها معي يوم الأحد"
    assert parsed(FIX / "signal" / "signal-chats", "signal")[0] == recs  # the folder of chats


# --- Element (Matrix) --------------------------------------------------------------------------------------------

MX = FIX / "matrix"
MX_LISBOA = [("Ana Sousa: Olá a todos! Reunião com o empreiteiro quinta às 15h", "2024-03-12T09:00:12+00:00"),
             ("Rui Costa: **Combinado.** Levo as medições", "2024-03-12T09:03:40+00:00"),
             ("Rui Costa: Posso levar o projetor", "2024-03-12T09:06:30+00:00"),  # the reply's quoted fallback dropped
             ("Rui Costa: Posso levar o projetor e o cabo HDMI", "2024-03-12T09:08:10+00:00"),  # its edit
             ("Inês Almeida: chega 10 minutos atrasada à reunião", "2024-03-12T10:02:30+00:00"),
             ("cal: Lembrete: reunião com o empreiteiro às 15:00 (sala 2)", "2024-03-14T14:45:00+00:00"),
             ("Rui C.: Ata da reunião: obra começa a 2 de abril", "2024-03-14T16:30:00+00:00")]  # renamed himself
MX_VAAD = [("נועה לוי: שלום לכולם! אסיפת דיירים ביום שלישי בשעה 20:00 בלובי", "2024-04-20T06:05:00+00:00"),
           ("דן כהן: אני אביא את דוח ההוצאות של ועד הבית\nכולל הצעת המחיר למעלית", "2024-04-20T07:02:00+00:00"),
           ("sara: Can someone translate the agenda for me? 🙏", "2024-04-21T18:00:00+00:00")]
MX_LISBOA_FILE = MX / "matrix - Equipa Lisboa - Chat Export - 2024-03-14T18-30-00.000Z.json"
MX_VAAD_FILE = MX / "matrix - ועד הבית - Chat Export - 2024-04-22T09-00-00.000Z.json"


def test_element_json_export() -> None:
    recs, rep = parsed(MX_LISBOA_FILE, "matrix")
    check_chat_shape(recs, "matrix")
    assert turns(recs) == MX_LISBOA and {r.thread for r in recs} == {"Equipa Lisboa"}
    # 17 events: create, 3 joins, a topic, a reaction, a redaction, a rename and an encrypted event are system
    assert counts(rep) == (17, 9, 1)
    assert recs[2].metadata["quote"] == "Olá a todos! Reunião com o empreiteiro quinta às 15h"
    assert recs[3].metadata.get("edited") is True and recs[4].metadata.get("emote") is True
    assert recs[5].metadata.get("notice") is True
    assert len({r.ref for r in recs}) == 7 and recs[0].ref == "matrix:!kQzVbLmNoPqRsT:matrix.org:$e1"
    assert len(rep.warnings) == 1 and rep.warnings[0].endswith("1 encrypted event the export could not read; left out")


def test_element_json_export_rtl_room_and_folder() -> None:
    recs, rep = parsed(MX_VAAD_FILE, "matrix")
    assert turns(recs) == MX_VAAD and {r.thread for r in recs} == {"ועד הבית"} and counts(rep) == (7, 3, 1)
    assert rep.warnings == []


def test_element_html_export_is_read() -> None:
    """Decision (round layouts35, was: refused, its JSON asked): Element's web page of a room is read by
    importers/matrix_html.py; this page's tile has no timestamp: its words kept undated, said."""
    recs, rep = parsed(MX / "matrix - Equipa Lisboa - Chat Export - 2024-03-14T18-31-00.000Z.html", "matrix")
    assert turns(recs) == [("Ana Sousa: Olá a todos! Reunião com o empreiteiro quinta às 15h", "")]
    assert {r.thread for r in recs} == {"Equipa Lisboa"} and len(rep.warnings) == 1 and "no time" in rep.warnings[0]


# --- X / Twitter DMs (account archive) -----------------------------------------------------------------------------

TW = FIX / "twitter" / "twitter-2024-03-20-5f1e2d3c4b5a69788796a5b4c3d2e1f0"
TW_DMS = [("987654321: Olá! Vi o teu fio sobre o Porto. Recomendas algum sítio para jantar perto da Ribeira?",
           "2024-03-15T20:58:40+00:00"),
          ("me: O Cantinho do Avillez, sem dúvida. Peixe & marisco ótimos. Reserva aqui: "
           "https://www.cantinhodoavillez.pt/reservas", "2024-03-15T21:02:11.347000+00:00"),
          ("987654321: Perfeito, obrigado! Vou reservar para sábado", "2024-03-16T11:20:00+00:00"),
          ("1122334455: 来週の勉強会、発表者として参加できますか？テーマは「ローカルファースト」です", "2024-03-18T02:40:21+00:00"),
          ("me: ありがとうございます！\n当日は渋谷駅のハチ公前で待っています", "2024-03-18T03:15:00+00:00")]
TW_GROUP = [("987654321: Voos comprados: 12 a 19 de junho, Lisboa → Ponta Delgada", "2024-03-19T11:30:00+00:00"),
            ("me: Alguém tem o contacto do barco para as Flores?", "2024-03-19T12:00:00+00:00")]


def test_x_archive_folder() -> None:
    recs, rep = parsed(TW, "twitter")
    check_chat_shape(recs, "twitter")
    assert turns(recs) == TW_DMS + TW_GROUP  # oldest first (the archive lists the newest first)
    assert [r.thread for r in recs] == ["987654321"] * 3 + ["1122334455"] * 2 + ["Viagem Açores 🌊"] * 2
    assert counts(rep) == (11, 3, 1)  # a photo alone; a join, an add, a rename
    assert recs[1].metadata["reactions"] == ["987654321: like"]
    assert recs[0].ref == "twitter:1769000000000000001"
    assert rep.warnings == []


def test_x_direct_messages_js_alone_and_the_archive_zip(tmp_path: Path) -> None:
    recs, _ = parsed(TW / "data" / "direct-messages.js", "twitter")  # account.js beside it names the owner
    assert turns(recs) == TW_DMS
    archive = tmp_path / "twitter-2024-03-20-5f1e2d3c.zip"
    shutil.make_archive(str(archive.with_suffix("")), "zip", TW)
    assert turns(parsed(archive, "twitter")[0]) == TW_DMS + TW_GROUP
    lone = tmp_path / "direct-messages.js"
    shutil.copy(TW / "data" / "direct-messages.js", lone)
    recs, rep = parsed(lone, "twitter")  # no account.js: nobody is "me"; said once
    assert [r.author for r in recs] == ["987654321", "1450000000000000001", "987654321", "1122334455",
                                        "1450000000000000001"]
    assert len(rep.warnings) == 1 and "no account.js" in rep.warnings[0]


# --- Google Voice (Takeout) --------------------------------------------------------------------------------------

GV = FIX / "googlevoice" / "Takeout"
GV_ANA = [("Ana Sousa: Hi! Is the apartment on Elm St still available?", "2024-03-13T14:02:11-04:00"),
          ("me: Yes it is. Showings Saturday 10am–noon", "2024-03-13T14:05:40-04:00"),
          ("Ana Sousa: Great, I'll come at 10:30.\nIs parking included?", "2024-03-13T14:06:02-04:00"),
          ("me: One spot in the garage & street parking", "2024-03-13T14:07:30-04:00")]


def test_google_voice_takeout_folder() -> None:
    recs, rep = parsed(GV, "googlevoice")
    check_chat_shape(recs, "googlevoice")
    assert [(r.thread, *t) for r, t in zip(recs, turns(recs), strict=True)] == [
        ("+18005550100", "+18005550100: Your pharmacy order #4471 is ready for pickup. Reply STOP to opt out",
         "2024-03-15T08:00:00-04:00"),
        *(("Ana Sousa", *t) for t in GV_ANA),
        ("Ana Sousa", "Ana Sousa: Hi, this is Ana. I'm running late for the showing, I'll be there at eleven. Sorry!",
         "2024-03-14T11:30:00-04:00"),  # a voicemail's transcript is its caller's words
        ("Ana Sousa, Jordan Reyes", "Jordan Reyes: Moving day is the 30th, who can help with the couch?",
         "2024-03-16T16:00:00-04:00"),
        ("Ana Sousa, Jordan Reyes", "Ana Sousa: Me! I can be there from 9", "2024-03-16T16:04:10-04:00"),
        ("Ana Sousa, Jordan Reyes", "me: I'll bring the van", "2024-03-16T16:05:00-04:00")]
    assert counts(rep) == (12, 2, 1)  # a missed and a placed call; a photo alone
    assert recs[5].metadata.get("voicemail") is True
    assert rep.warnings == []


def test_google_voice_one_page() -> None:
    recs, rep = parsed(GV / "Voice" / "Calls" / "Ana Sousa - Text - 2024-03-13T18_02_11Z.html", "googlevoice")
    assert turns(recs) == GV_ANA and {r.thread for r in recs} == {"Ana Sousa"} and counts(rep) == (5, 0, 1)


# --- through the CLI: detected, written, re-imported ------------------------------------------------------------

def test_cli_imports_each_app_by_itself(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    expected = {VB / "Viber messages.zip": ("viber", 7), WX / "张伟" / "张伟.csv": ("wechat", 6),
                TH / "threema-export-Ana Sousa.zip": ("threema", 4), FIX / "signal" / "signal-chats": ("signal", 4),
                MX_VAAD_FILE: ("matrix", 3), TW: ("twitter", 7), GV: ("googlevoice", 9)}
    assert_imports_by_cli(db, expected)
    found = _envelope(run_cli("--db", str(db), "recall", "apartment parking garage", "--no-touch"))["data"]["results"]
    assert found


# --- bad input: one line naming the file (and line or message and field), nothing written ------------------------

BAD = FIX / "bad"
BAD_CASES: dict[Path, str] = {
    BAD / "viber_bad_date.csv": "row 2: \"Date\" is no date",
    BAD / "viber_short_row.csv": "row 3: 3 fields",
    BAD / "wechat_bad_createtime.csv": 'row 3: "CreateTime" is no time',
    BAD / "wechat_txt_bad_time.txt": "no such date",
    BAD / "matrix_cut.json": "truncated",
    BAD / "matrix_bad_ts.json": 'event 3: "origin_server_ts" is no time',
    BAD / "matrix_messages_not_list.json": '"messages" is not a list',
    BAD / "twitter_bad_date": 'conversation 1, message 2: "createdAt" is no date',
    BAD / "twitter_cut": "truncated",
    BAD / "twitter_not_a_list": "no list of conversations",
    BAD / "googlevoice_bad_date": 'message 2: "title" is no date',
    BAD / "threema_encrypted.zip": "password-protected",
    BAD / "threema_bad_date": "no such date",
    BAD / "signal_html_bad_date": "no such date",
}


@pytest.mark.parametrize("path", sorted(BAD_CASES), ids=lambda p: p.name)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(path: Path, tmp_path: Path) -> None:
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
    assert_import_refused(path, tmp_path, BAD_CASES[path], where=(path, *files))


def test_every_unseen22_fixture_has_a_case() -> None:
    covered = {VB / "Viber Ana Sousa.csv", VB / "Viber Jake Miller.csv", VB / "Viber messages.zip",
               WX / "张伟" / "张伟.csv", WX / "周末羽毛球群" / "周末羽毛球群.csv", WX / "李娜" / "李娜.txt",
               TH / "threema-export-Ana Sousa.zip", TH / "Familie Weber" / "messages.txt", MX_LISBOA_FILE, MX_VAAD_FILE,
               MX / "matrix - Equipa Lisboa - Chat Export - 2024-03-14T18-31-00.000Z.html", *BAD_CASES,
               BAD / "wechat_gbk.csv"}  # read since round 23 (tests/test_importers_unseen23.py)
    folders = [FIX / "signal", TW, GV, *[p for p in BAD_CASES if p.is_dir()]]
    files = {p for p in FIX.rglob("*") if p.is_file() and p.name != "README.md"}
    left = {p for p in files if p not in covered and not any(f in p.parents for f in folders)}
    assert left == set()
    assert len(files) >= 30 and len(BAD_CASES) >= 8


FUZZED = sorted(p for p in FIX.rglob("*") if p.is_file() and "bad" not in p.relative_to(FIX).parts
                and p.suffix in (".txt", ".csv", ".json", ".js", ".html"))


@pytest.mark.parametrize("source", FUZZED, ids=lambda p: p.name)
def test_a_damaged_fixture_is_read_or_refused_in_one_line(source: Path, tmp_path: Path) -> None:
    """Fuzzed: every cut or damaged copy of every fixture is read (damage inside words is words) or refused with one
    line naming the file; no other exception, no hang. The copy keeps its name and its siblings' names (a Google
    Voice page, a Threema messages.txt are told by them)."""
    read, refused = fuzzed_outcomes(source, tmp_path, seed=FUZZED.index(source), keep=2)
    assert read + refused == 16


def test_a_zip_of_the_wrong_things_is_refused(tmp_path: Path) -> None:
    """A Threema-looking zip whose messages.txt is no chat: refused, not read as nothing."""
    path = write_zip(tmp_path / "threema-export-X.zip", {"messages.txt": b"just some words\nand more\n"})
    assert_import_refused(path, tmp_path, "line of Threema before the first words")


# --- beyond the held-out (written after the parsers): what the same exporters also write ------------------------

def test_viber_of_a_year_first_locale(tmp_path: Path) -> None:
    path = tmp_path / "Viber 王芳.csv"
    path.write_text("2024/03/13,20:01:05,王芳,+8613800138000,周六见\n2024/03/13,20:02:30,Me,+8613900139000,好的\n",
                    encoding="utf-8")
    recs, rep = parsed(path, "viber")
    assert turns(recs) == [("王芳: 周六见", "2024-03-13T20:01:05"), ("Me: 好的", "2024-03-13T20:02:30")]
    assert rep.date_orders == {"王芳": "ymd"}


def test_a_google_takeout_of_chat_and_voice_imports_both(tmp_path: Path) -> None:
    """Decision: a Takeout holding Google Chat and Google Voice is one export of one user: imported whole (the Voice
    records are googlevoice's, the same refs as when the Voice pages are imported alone)."""
    takeout = tmp_path / "Takeout"
    shutil.copytree(FIX.parent / "unseen21" / "googlechat" / "Takeout", takeout)
    shutil.copytree(GV / "Voice", takeout / "Voice")
    chat = parsed(FIX.parent / "unseen21" / "googlechat" / "Takeout", "googlechat")[0]
    voice = parsed(GV, "googlevoice")[0]
    for path in (takeout, Path(shutil.make_archive(str(tmp_path / "takeout-001"), "zip", tmp_path, "Takeout"))):
        recs, rep = parsed(path, "googlechat")
        assert turns(recs) == turns(chat) + turns(voice)
        assert [r.source for r in recs] == ["googlechat"] * len(chat) + ["googlevoice"] * len(voice)
        assert [r.ref for r in recs[len(chat):]] == [r.ref for r in voice]
