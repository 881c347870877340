"""Round 21 of export layouts: the chat exports mem still refused (tests/fixtures/unseen21, written by hand from
what each exporter writes, before any parser of this round; nothing copied from a real export or from ../shared;
see its README.md): LINE's text (phone and PC, English, Japanese, Thai UI), KakaoTalk's (PC and phone text in
Korean and English, its CSV), SMS Backup & Restore (sms and mms; the call log stays refused), Google Chat and
Hangouts (Takeout), Signal Desktop as signal-export writes it, Skype's messages.json, and a zip holding a Telegram
chat copied as text.

Records are chat turns as WhatsApp's are: ``Author: text``, the author, the time, the chat as thread. Decisions:

* times are what the export says: LINE, KakaoTalk and signal-export write the phone's wall time (naive); Google
  Chat writes UTC ("… PM UTC"), Hangouts and Skype an instant (UTC); SMS Backup & Restore writes an instant
  (ms) and the phone's wall time beside it (readable_date): kept with the offset the two give (as Telegram's);
* the owner is "me" where the export says a message was sent without naming its sender (an SMS or MMS of
  type/msg_box 2; Skype's own messages without a displayName); where the export names everyone (LINE, KakaoTalk,
  Google Chat, Hangouts) the names stay; signal-export's "Me" stays as written;
* service lines (joins, leaves, invitations, unsent messages, calls, renames, topic changes, deleted messages,
  drafts) are counted as system and left out; a message of a file only (a sticker, a photo) as media.
"""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import (
    INSERTS,
    assert_broken_import_fails,
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    counts,
    mutations,
    parsed,
    turns,
)
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError, ImportReport
from importers.detect import detect
from importers.registry import PARSERS

FIX = Path(__file__).parent / "fixtures" / "unseen21"


# --- LINE -------------------------------------------------------------------------------------------------

LN = FIX / "line"
# file: (chat, turns, (seen, system, media))
LINE_CASES: dict[str, tuple[str, list[tuple[str, str]], tuple[int, int, int]]] = {
    # "Wed, 03/13/2024": month first (13 is no month); the quoted message keeps its lines and its "Rui"
    "LINE_Ana_Sousa.txt": ("Ana Sousa", [
        ("Ana Sousa: Morning! Did you book the table for Friday?", "2024-03-13T09:12:00"),
        ("Rui Costa: Not yet, I'll call them at lunch", "2024-03-13T09:15:00"),
        ('Rui Costa: Booked: Friday 20:30\nTaberna do Mar, table for 4\nThey asked us to say "Rui" at the door',
         "2024-03-13T12:40:00"),
        ("Ana Sousa: That's the one with the grilled octopus 🐙", "2024-03-13T12:41:00"),
        ("Ana Sousa: Can we move it to 21:00? My train arrives at 20:45", "2024-03-14T08:01:00"),
        ("Rui Costa: Done, 21:00 it is", "2024-03-14T08:30:00")], (10, 2, 2)),
    "[LINE] 田中 美咲とのトーク.txt": ("田中 美咲", [
        ("田中 美咲: 来週の花見、土曜日で大丈夫？", "2024-04-01T19:03:00"),
        ("佐藤 健: うん、土曜日OK！場所は上野公園？", "2024-04-01T19:05:00"),
        ("田中 美咲: 上野は混むから、\n新宿御苑はどう？\n入園料は500円だよ", "2024-04-01T19:07:00"),
        ("佐藤 健: 新宿御苑いいね。10時に新宿門で", "2024-04-01T19:21:00"),
        ("田中 美咲: 了解！お弁当は私が作るね", "2024-04-02T07:45:00")], (8, 1, 2)),
    # a 12-hour clock; "Sat, 05/04/2024" is 4 May (an English export writes the month first)
    "Weekend Hikers.txt": ("Weekend Hikers", [
        ("Liam O'Brien: Meeting point: Takao-san station, exit 1, 8:30", "2024-05-04T07:05:00"),
        ("Kenji Watanabe: I'll be 10 minutes late, sorry", "2024-05-04T07:06:00"),
        ("Priya Nair: Summit reached!\nView is amazing, Fuji visible", "2024-05-04T13:15:00"),
        ("Liam O'Brien: Next hike: Mt. Mitake on 05/18, same time", "2024-05-05T09:00:00")], (8, 2, 2)),
    "LINE_สมชาย.txt": ("สมชาย ใจดี", [
        ("สมชาย ใจดี: พรุ่งนี้ประชุมกี่โมงครับ", "2024-03-20T10:30:00"),
        ("Nok Chaiyaporn: บ่ายสองโมงครับ ห้องประชุม 3", "2024-03-20T10:32:00"),
        ("สมชาย ใจดี: รับทราบครับ จะเอาเอกสารงบประมาณไปด้วย", "2024-03-20T10:40:00"),
        ("Nok Chaiyaporn: ถึงแล้วครับ อยู่หน้าห้อง", "2024-03-21T13:55:00")], (5, 0, 1)),
    "LINE PC Mai Nguyen.txt": ("Mai Nguyen", [
        ("Mai Nguyen: Happy Lunar New Year! 🧧", "2024-02-10T18:00:00"),
        ("Tom Becker: Happy new year Mai! Are you at your parents' in Da Nang?", "2024-02-10T18:02:00"),
        ("Mai Nguyen: Yes, until Wednesday.\nFlight back VN 126 lands 14:10", "2024-02-10T18:05:00"),
        ("Tom Becker: I can pick you up at the airport on Wednesday", "2024-02-11T09:30:00")], (5, 0, 1)),
}


@pytest.mark.parametrize("name", sorted(LINE_CASES))
def test_line_text_exports(name: str) -> None:
    chat, expected, seen = LINE_CASES[name]
    recs, rep = parsed(LN / name, "line")
    check_chat_shape(recs, "line")
    assert turns(recs) == expected
    assert {r.thread for r in recs} == {chat} and counts(rep) == seen
    assert rep.warnings == []


def test_line_folder_of_chats() -> None:
    recs, _ = parsed(LN, "line")
    assert len(recs) == sum(len(c[1]) for c in LINE_CASES.values())
    assert len({r.thread for r in recs}) == len(LINE_CASES)


# --- KakaoTalk --------------------------------------------------------------------------------------------

KK = FIX / "kakaotalk"
KAKAO_CASES: dict[str, tuple[str, list[tuple[str, str]], tuple[int, int, int]]] = {
    "KakaoTalk_20240314_1830_12_345_김민지.txt": ("김민지", [
        ("김민지: 내일 스터디 몇 시에 해?", "2024-03-13T15:02:00"),
        ("이준호: 7시 어때? 강남역 스타벅스", "2024-03-13T15:05:00"),
        ("김민지: 좋아\n그럼 자료는 내가 인쇄해 갈게\n총 20페이지야", "2024-03-13T15:05:00"),
        ("이준호: 오늘 비 온대, 우산 챙겨", "2024-03-14T09:15:00"),
        ("김민지: 고마워 ㅎㅎ", "2024-03-14T09:20:00")], (7, 0, 2)),
    # a group: its member count after its name is no part of it; joins, invitations, leaves are service lines
    "KakaoTalk_20240407_2000_00_123_주말 등산 모임.txt": ("주말 등산 모임", [
        ("최유나: 북한산 입구에서 8시에 만나요", "2024-04-06T06:30:00"),
        ("박서준: 네! 김밥 사갈게요", "2024-04-06T06:45:00"),
        ("정하늘: 5분 늦어요 ㅠㅠ", "2024-04-06T07:58:00"),
        ("최유나: 정상 도착! 날씨 최고", "2024-04-06T12:10:00")], (8, 3, 1)),
    "KakaoTalk_Chat_Minji Kim_2024-03-14-18-31-40.txt": ("Minji Kim", [
        ("Minji Kim: Are you free for the study group tomorrow?", "2024-03-13T15:02:00"),
        ("Daniel Lee: Yes, 7 PM at the Gangnam Starbucks?", "2024-03-13T15:05:00"),
        ("Minji Kim: Perfect\nI'll print the handouts", "2024-03-13T15:05:00"),
        ("Sora Park: Sorry, can I join too?", "2024-03-13T23:58:00"),
        ("Minji Kim: Of course! Bring your notes on chapter 4", "2024-03-14T00:03:00")], (7, 1, 1)),
    "KakaoTalkChats.txt": ("김민지", [
        ("김민지: 내일 스터디 몇 시에 해?", "2024-03-13T15:02:00"),
        ("이준호: 7시 어때? 강남역 스타벅스", "2024-03-13T15:05:00"),
        ("김민지: 좋아\n자료는 내가 인쇄해 갈게", "2024-03-13T15:05:00"),
        ("이준호: 오늘 비 온대, 우산 챙겨", "2024-03-14T09:15:00")], (6, 1, 1)),
    "KakaoTalk Chats with Minji Kim.txt": ("Minji Kim", [
        ("Minji Kim: Are you free for the study group tomorrow?", "2024-03-13T15:02:00"),
        ("Daniel Lee: Yes, 7 PM at the Gangnam Starbucks?", "2024-03-13T15:05:00"),
        ("Minji Kim: Bring your notes on chapter 4\nand the calculator, the exam allows one", "2024-03-14T00:03:00")],
        (5, 1, 1)),
    "Talk_2024.5.8 21:12-1.txt": ("엄마", [
        ("엄마: 어버이날 저녁은 집에서 먹자", "2024-05-08T08:01:00"),
        ("서연: 네 엄마! 케이크는 제가 사갈게요", "2024-05-08T08:30:00"),
        ("엄마: 카네이션 고마워 ❤️", "2024-05-08T19:45:00")], (4, 0, 1)),
    # the CSV: the chat is named by the file (KakaoTalk_Chat_<chat>_<saved>.csv)
    "KakaoTalk_Chat_프로젝트 팀_2024-06-01-12-00-00.csv": ("프로젝트 팀", [
        ("최유나: 다음 주 회의 안건 정리했어요", "2024-06-01T10:00:12"),
        ("박서준: 감사합니다!\n예산 항목은 제가 추가할게요", "2024-06-01T10:01:40"),
        ('정하늘: 회의실은 "3층 대회의실"로 예약했어요', "2024-06-01T10:05:55")], (4, 0, 1)),
}


@pytest.mark.parametrize("name", sorted(KAKAO_CASES))
def test_kakaotalk_exports(name: str) -> None:
    chat, expected, seen = KAKAO_CASES[name]
    recs, rep = parsed(KK / name, "kakaotalk")
    check_chat_shape(recs, "kakaotalk")
    assert turns(recs) == expected
    assert {r.thread for r in recs} == {chat} and counts(rep) == seen
    assert rep.warnings == []


def test_kakaotalk_folder_of_chats() -> None:
    recs, _ = parsed(KK, "kakaotalk")
    assert len(recs) == sum(len(c[1]) for c in KAKAO_CASES.values())


# --- SMS Backup & Restore -----------------------------------------------------------------------------------

SMS = FIX / "sms"


def test_sms_backup_of_a_brazilian_phone() -> None:
    recs, rep = parsed(SMS / "sms-20240316080000.xml", "sms")
    check_chat_shape(recs, "sms")
    assert [(r.thread, *t) for r, t in zip(recs, turns(recs), strict=True)] == [
        ("Beatriz Lima", "Beatriz Lima: Oi! Você vai na reunião de pais amanhã?", "2024-03-13T15:00:05-03:00"),
        ("Beatriz Lima", "me: Vou sim, às 19h. Quer carona?", "2024-03-13T15:03:40-03:00"),
        ("Beatriz Lima", "Beatriz Lima: Quero!\nPasso aí às 18h40 então", "2024-03-13T15:04:02-03:00"),
        # "(Unknown)": no contact; the number (or short code) names the chat and the sender
        ("28450", "28450: Seu código de verificação é 481 205. Não compartilhe.", "2024-03-13T16:20:00-03:00"),
        ("+5521998761234", "me: Bom dia, o conserto da geladeira fica pronto quando?", "2024-03-14T09:12:00-03:00"),
        ("+5521998761234", "+5521998761234: Bom dia! Fica pronto sexta depois das 14h. Valor R$ 380,00",
         "2024-03-14T09:30:00-03:00"),
        # a group MMS: its sender is the addr of type 137, named by contact_name's place for that address
        ("Beatriz Lima, Carla Souza", "Carla Souza: Festa junina da escola: cada família leva um prato doce",
         "2024-03-15T12:00:00-03:00"),
        ("Beatriz Lima, Carla Souza", "me: Eu levo canjica 🌽", "2024-03-15T12:05:00-03:00"),
        ("Beatriz Lima", "Beatriz Lima: A fantasia da Lara ficou pronta!", "2024-03-15T12:10:00-03:00")]
    assert counts(rep) == (11, 1, 1)  # the draft (type 3) is no message; the photo alone is media
    assert recs[-1].metadata["media"] == ["IMG_20240315_120955.jpg"]
    assert rep.warnings == []


def test_sms_backup_of_an_american_phone_one_contact_two_spellings() -> None:
    recs, rep = parsed(SMS / "sms-20240322070000.xml", "sms")
    assert turns(recs) == [
        ("Jordan Reyes: Running 10 min late, order me the pad thai & a Thai iced tea", "2024-03-20T18:45:00-04:00"),
        ("me: Got it. We're at the table by the window <3", "2024-03-20T18:46:12-04:00"),
        ("Jordan Reyes: Thanks for dinner! I owe you $24", "2024-03-21T08:02:00-04:00")]
    assert {r.thread for r in recs} == {"Jordan Reyes"} and counts(rep) == (3, 0, 0)


def test_sms_folder_reads_the_messages_and_leaves_the_call_log() -> None:
    recs, _ = parsed(SMS, "sms")
    assert len(recs) == 12


def test_sms_call_log_is_refused_in_one_line() -> None:
    """Decision: a call log holds no words (a number, a duration, a time): no memory to recall, and a record per
    call would bury the chats' episodes; refused saying what it is and what to import instead."""
    with pytest.raises(ImportFormatError) as err:
        detect(SMS / "calls-20240316080000.xml")
    assert "an SMS Backup & Restore call log" in str(err.value) and "\n" not in str(err.value)


# --- Google Chat and Hangouts (Takeout) --------------------------------------------------------------------

GC = FIX / "googlechat" / "Takeout"
GC_DM = [("Ana Sousa: Ainda acordado? Amanhã levas tu o carro?", "2024-01-31T23:58:07+00:00"),
         ("Rui Costa: Levo. Apanho-te às 8h15 à porta", "2024-02-01T00:03:44+00:00")]
GC_SPACE = [("Ana Sousa: Bom dia! A apresentação para o cliente passou para quinta às 15h", "2024-04-08T09:01:15+00:00"),
            ("Rui Costa: Ok. Eu trato dos slides do orçamento", "2024-04-08T09:04:50+00:00"),
            ("Inês Almeida: Planta nova do escritório acima 👆\nA sala grande é a 2.14", "2024-04-08T09:06:30+00:00"),
            ("Google Drive: Rui Costa shared a file: Orçamento Q2", "2024-04-08T09:10:00+00:00"),
            ("Ana Sousa: Confirmado com o cliente: quinta, 15h, na sala 2.14", "2024-04-09T17:45:00+00:00")]
HANGOUTS = [("Joanna Wu: Did you get the tickets for Saturday?", "2016-03-11T16:00:00+00:00"),
            ("Sam Carter: Yes! Row F, seats 12 and 13\nDoors open at 7:30, see https://example.com/venue",
             "2016-03-11T16:01:05.123456+00:00"),
            ("Marco Bianchi: Ciao! Ho trovato un appartamento ad Alfama, 4 notti a 320€", "2016-05-01T10:58:20+00:00"),
            ("Joanna Wu: Book it!! I'll pay you back on Friday", "2016-05-01T11:00:20+00:00")]


def test_google_chat_takeout_folder() -> None:
    recs, rep = parsed(GC, "googlechat")
    check_chat_shape(recs, "googlechat")
    assert turns(recs) == GC_DM + GC_SPACE + HANGOUTS
    # a DM has no name: the other members name it (the owner is known from Users/*/user_info.json)
    assert [r.thread for r in recs] == ["Ana Sousa"] * 2 + ["Equipa Lisboa"] * 5 + ["Joanna Wu"] * 2 + \
        ["Lisbon trip 2016"] * 2
    # seen: 2 + 7 Google Chat (a file alone, a deleted message) + 8 Hangouts (a call, a photo, a rename, an add)
    assert counts(rep) == (17, 4, 2)
    assert recs[6].metadata.get("edited") is True and recs[5].metadata.get("bot") is True
    assert rep.warnings == []


def test_google_chat_one_space_folder_and_its_messages_json() -> None:
    space = GC / "Google Chat" / "Groups" / "Space AAAAx1y2z3"
    for path in (space, space / "messages.json"):
        recs, _ = parsed(path, "googlechat")
        assert turns(recs) == GC_SPACE and {r.thread for r in recs} == {"Equipa Lisboa"}
    # refs are the messages' own ids: the same message read from the Takeout or its folder is the same memory
    assert {r.ref for r in parsed(space, "googlechat")[0]} <= {r.ref for r in parsed(GC, "googlechat")[0]}


def test_hangouts_json_alone() -> None:
    recs, rep = parsed(GC / "Hangouts" / "Hangouts.json", "googlechat")
    assert turns(recs) == HANGOUTS and counts(rep) == (8, 3, 1)


def test_google_takeout_zip(tmp_path: Path) -> None:
    archive = tmp_path / "takeout-20240410T101010Z-001.zip"
    shutil.make_archive(str(archive.with_suffix("")), "zip", GC.parent, "Takeout")
    recs, _ = parsed(archive, "googlechat")
    assert turns(recs) == GC_DM + GC_SPACE + HANGOUTS


# --- Signal Desktop (signal-export) -------------------------------------------------------------------------

SG = FIX / "signal" / "signal-chats"
SIGNAL_ANA = [("Ana Sousa: Chegaste bem a casa?", "2024-03-13T19:02:00"),
              ("Me: Cheguei! O comboio atrasou 20 minutos", "2024-03-13T19:10:00"),
              ("Ana Sousa: Ainda bem 😌", "2024-03-13T19:11:00"),
              ("Me: Amanhã almoçamos?\nPosso às 13h perto do Saldanha", "2024-03-13T19:16:00"),
              ("Ana Sousa: Combinado, 13h no Saldanha", "2024-03-14T08:40:00")]
SIGNAL_FAMILY = [("Mãe: Domingo almoço cá em casa, levem sobremesa", "2024-05-11T10:00:00"),
                 ("Pedro Costa: Eu levo o pudim", "2024-05-11T10:05:00"),
                 ("Me: Eu levo fruta e o vinho", "2024-05-11T10:06:00"),
                 ("Mãe: 👍", "2024-05-11T10:30:00"),
                 ("Pedro Costa: Alguém deixou um casaco azul no carro", "2024-05-12T16:45:00")]


def test_signal_export_markdown_chat() -> None:
    recs, rep = parsed(SG / "Ana Sousa" / "chat.md", "signal")
    check_chat_shape(recs, "signal")
    assert turns(recs) == SIGNAL_ANA and {r.thread for r in recs} == {"Ana Sousa"}
    assert counts(rep) == (6, 0, 1)
    assert recs[2].metadata["reactions"] == ["Me: ❤️"]
    assert recs[3].metadata["quote"] == "Ainda bem 😌"
    assert recs[4].metadata["media"] == ["Voice message.m4a"]


def test_signal_export_folder_of_chats() -> None:
    recs, _ = parsed(SG, "signal")
    assert turns(recs) == SIGNAL_ANA + SIGNAL_FAMILY
    assert [r.thread for r in recs] == ["Ana Sousa"] * 5 + ["Família Costa"] * 5
    assert recs[8].metadata["reactions"] == ["Pedro Costa: 😂", "Me: 👍"]


def test_signal_backup_stays_refused_in_one_line(tmp_path: Path) -> None:
    """Signal's own backup (signal-YYYY-MM-DD-HH-MM-SS.backup) is encrypted with a 30-digit passphrase: mem does
    not decrypt it; the one-line refusal names it."""
    path = tmp_path / "signal-2024-03-14-18-01-12.backup"
    path.write_bytes(b"\x00\x00\x00\x20" + bytes(range(32)) * 4)
    with pytest.raises(ImportFormatError) as err:
        detect(path)
    assert "an encrypted Signal backup (not an export mem reads)" in str(err.value) and "\n" not in str(err.value)


# --- Skype --------------------------------------------------------------------------------------------------

SK = FIX / "skype"
SKYPE = [("Sophie Martin: Bonjour ! Tu es dispo pour la réunion budget la semaine prochaine ?\nJe pensais mardi matin",
          "2024-03-28T09:00:00+00:00"),
         ("me: On se retrouve mardi 2 avril à 10h salle Lumière & je t'envoie le plan", "2024-03-28T09:04:00+00:00"),
         ("Sophie Martin: Parfait, à mardi alors ! :)", "2024-03-28T09:15:02.117000+00:00"),
         ("Sophie Martin: La démo est prête ?", "2024-03-31T15:48:20+00:00"),
         ("Karim Benali: Oui, @Sophie, la démo tourne sur le serveur de test", "2024-03-31T15:50:00+00:00")]


def test_skype_messages_json() -> None:
    recs, rep = parsed(SK / "messages.json", "skype")
    check_chat_shape(recs, "skype")
    assert turns(recs) == SKYPE  # oldest first in each conversation (the export lists the newest first)
    assert [r.thread for r in recs] == ["Sophie Martin"] * 3 + ["Projet Atlas"] * 2
    assert counts(rep) == (9, 3, 1)
    assert recs[1].metadata.get("edited") is True and recs[4].metadata.get("reply") is True


def test_skype_folder_and_tar(tmp_path: Path) -> None:
    assert turns(parsed(SK, "skype")[0]) == SKYPE
    tar = tmp_path / "8_live.cid.5f3a2b1c0d9e8f7a_export.tar"
    with tarfile.open(tar, "w") as tf:
        tf.add(SK / "messages.json", arcname="messages.json")
    assert turns(parsed(tar, "skype")[0]) == SKYPE


# --- a zip holding a Telegram chat copied as text -------------------------------------------------------------

def test_telegram_copy_in_a_zip() -> None:
    recs, rep = parsed(FIX / "telegram" / "Chat with Lena.zip", "telegram")
    assert turns(recs) == [("Lena Vogel: Hast du am Samstag Zeit für den Flohmarkt am Mauerpark?", "2024-04-02T19:30:00"),
                           ("Tom Becker: Ja! Ich bringe die alten Platten mit", "2024-04-02T19:42:00")]
    assert {r.thread for r in recs} == {"Chat with Lena"} and counts(rep) == (3, 0, 1)


# --- through the CLI: detected, written, re-imported ------------------------------------------------------------

def test_cli_imports_each_app_by_itself(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    expected = {LN / "LINE_Ana_Sousa.txt": ("line", 6), KK / "KakaoTalkChats.txt": ("kakaotalk", 4),
                SMS / "sms-20240316080000.xml": ("sms", 9), GC: ("googlechat", 11), SG: ("signal", 10),
                SK / "messages.json": ("skype", 5), FIX / "telegram" / "Chat with Lena.zip": ("telegram", 2)}
    assert_imports_by_cli(db, expected)
    found = _envelope(run_cli("--db", str(db), "recall", "fridge repair ready", "--no-touch"))["data"]["results"]
    assert found


# --- bad input: one line naming the file (and line or message and field), nothing written ------------------------

BAD = FIX / "bad"
BAD_CASES: dict[Path, str] = {
    BAD / "line_bad_date.txt": "'2024/02/30(Fri)': no such date",
    BAD / "line_time_before_date.txt": "a message before any date line",
    BAD / "kakaotalk_bad_time.txt": "no such time",
    BAD / "kakaotalk_csv_bad_date.csv": 'row 3: "Date" is no date',
    BAD / "sms_cut.xml": "invalid or truncated XML",
    BAD / "sms_bad_date.xml": 'sms 2: "date" is no time',
    BAD / "googlechat_bad_date": 'message 2: "created_date" is no date',
    BAD / "googlechat_messages_not_a_list": '"messages" is not a list',
    BAD / "skype_bad_time": 'message 2: "originalarrivaltime" is no date',
    BAD / "skype_cut.json": "invalid or truncated JSON",
    BAD / "signal_bad_time": "no such date",
    BAD / "hangouts_bad_timestamp": 'event 1: "timestamp" is no time',
}


@pytest.mark.parametrize("path", sorted(BAD_CASES), ids=lambda p: p.name)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(path: Path, tmp_path: Path) -> None:
    assert_import_refused(path, tmp_path, BAD_CASES[path])


@pytest.mark.parametrize(("source", "cut"), [(SMS / "sms-20240316080000.xml", 3000), (SK / "messages.json", 2000),
                                             (GC / "Hangouts" / "Hangouts.json", 1500)], ids=lambda v: str(v)[-20:])
def test_a_cut_file_is_refused_in_one_line(source: Path, cut: int, tmp_path: Path) -> None:
    assert_broken_import_fails(tmp_path, source.name, source.read_bytes()[:cut], "truncated")


def test_every_unseen21_fixture_has_a_case() -> None:
    covered = {*(LN / n for n in LINE_CASES), *(KK / n for n in KAKAO_CASES), SMS / "sms-20240316080000.xml",
               SMS / "sms-20240322070000.xml", SMS / "calls-20240316080000.xml", SK / "messages.json",
               FIX / "telegram" / "Chat with Lena.zip", *BAD_CASES}
    folders = [GC, SG, *[p for p in BAD_CASES if p.is_dir()]]
    files = {p for p in FIX.rglob("*") if p.is_file() and p.name != "README.md"}
    left = {p for p in files if p not in covered and not any(f in p.parents for f in folders)}
    assert left == set()
    assert len(files) >= 30


def _mutations(data: bytes, seed: int) -> list[tuple[str, bytes]]:
    """importer_cli's fuzz cases, drawn from the eight inserts this round was written with (the same cases as then)."""
    return mutations(data, seed, inserts=INSERTS[:8])


FUZZED = sorted(p for p in FIX.rglob("*") if p.is_file() and "bad" not in p.relative_to(FIX).parts
                and p.suffix in (".txt", ".csv", ".xml", ".json", ".md"))


@pytest.mark.parametrize("source", FUZZED, ids=lambda p: p.name)
def test_a_damaged_fixture_is_read_or_refused_in_one_line(source: Path, tmp_path: Path) -> None:
    """Fuzzed: every cut or damaged copy of every fixture is read (damage inside words is words) or refused with one
    line naming the file; no other exception, no hang."""
    read = refused = 0
    for i, (what, data) in enumerate(_mutations(source.read_bytes(), seed=FUZZED.index(source))):
        target = tmp_path / f"{i}-{what}" / source.name
        target.parent.mkdir()
        target.write_bytes(data)
        try:
            kind = detect(target)
            list(PARSERS[kind].parse(target, ImportReport(str(target), kind)))
            read += 1
        except ImportFormatError as exc:
            assert str(target) in str(exc) and "\n" not in str(exc), str(exc)
            refused += 1
    assert read + refused == 16


# --- beyond the held-out (written after the parsers): what the same exporters also write ------------------------

def test_sms_backup_writes_an_emoji_as_two_surrogate_references(tmp_path: Path) -> None:
    """SMS Backup & Restore escapes a character past U+FFFF as its UTF-16 surrogates ("&#55357;&#56832;") and keeps
    control characters as references: XML forbids both, so a parser as strict as XML would refuse the backup."""
    body = "Parabéns! &#55357;&#56832;&#55356;&#57225; até logo&#1;" * 300  # long: pairs fall across read chunks
    path = tmp_path / "sms-20240401100000.xml"
    path.write_text("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<smses count=\"1\">\n"
                    f'  <sms protocol="0" address="+5511987650001" date="1711976400000" type="1" body="{body}" '
                    'readable_date="01/04/2024 10:00:00" contact_name="Beatriz Lima" />\n</smses>\n', encoding="utf-8")
    recs, _ = parsed(path, "sms")
    assert recs[0].content == "Beatriz Lima: " + ("Parabéns! 😀🎉 até logo\ufffd" * 300)
    assert recs[0].event_at is not None and recs[0].event_at.isoformat() == "2024-04-01T10:00:00-03:00"


def test_line_chat_names_in_other_ui_languages(tmp_path: Path) -> None:
    for header, chat in (("[LINE] 與王小明的聊天記錄", "王小明"), ("[LINE] Riwayat obrolan dengan Budi Santoso", "Budi Santoso")):
        path = tmp_path / "chat.txt"
        path.write_text(f"{header}\nSaved on: 2024/03/14 18:30\n\n2024/03/13（三）\n下午03:05\t{chat}\t你好\n",
                        encoding="utf-8")
        recs, _ = parsed(path, "line")
        assert turns(recs) == [(f"{chat}: 你好", "2024-03-13T15:05:00")] and recs[0].thread == chat


def test_google_chat_dates_of_a_british_account_and_an_offset(tmp_path: Path) -> None:
    folder = tmp_path / "Groups" / "Space AAAA"
    folder.mkdir(parents=True)
    creator = {"name": "Ana Sousa", "email": "ana@example.com", "user_type": "Human"}
    import json

    (folder / "messages.json").write_text(json.dumps({"messages": [
        {"creator": creator, "created_date": "Monday, 8 April 2024 at 09:01:15 UTC", "text": "Bom dia"},
        {"creator": creator, "created_date": "Monday, April 8, 2024 at 9:05:00 PM GMT+2", "text": "Boa noite"}]}))
    recs, _ = parsed(tmp_path, "googlechat")
    assert turns(recs) == [("Ana Sousa: Bom dia", "2024-04-08T09:01:15+00:00"),
                           ("Ana Sousa: Boa noite", "2024-04-08T21:05:00+02:00")]
