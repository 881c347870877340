"""Round 29 of export layouts (held-out tests/fixtures/unseen29, written by hand from what each exporter writes,
before any parser of this round; nothing copied from a real export or from ../shared; see its README.md): the apps
most people's history is in, in the locales, app versions and phone systems not seen before — WhatsApp as Android
and iOS export it in eighteen phone languages (Arabic-Indic and Persian digits, right-to-left marks, the Solar Hijri
and Buddhist calendars, 上午/下午, 오전/오후, 午前/午後, "p. m.", "μ.μ.", dotted Swedish times, localised media,
deleted and edited notices, contact cards, "null" view-once photos), Telegram Desktop 5's forum topics and
reactions, Instagram's 2024 download in Portuguese (mojibake), Messenger's end-to-end encrypted download,
signal-export's JSON and WechatExporter's asynchronous pages.

Decisions:

* WhatsApp: times naive (the phone's wall time), in the Gregorian calendar whatever the phone's; a media
  placeholder, a contact card (a .vcf attached or "contact card omitted") and a view-once "null" are media; a
  deleted message and the encryption notice are system lines; an edit marker is cut from the words and the record
  marked ``edited``; the chat is named from the export's file name in the phone's language;
* Telegram: aware times (``date`` with the offset ``date_unixtime`` gives); a forum's topic creation and rename, a
  pin, the group's creation are system lines; reactions are no words of the message (HTML: emoji, counts, the
  reactors' initials); a message in a topic (a reply to the topic's creation, or to a message in it) has the
  topic's name at the time in ``metadata["topic"]``;
* Instagram and Messenger: UTC instants; "Reagiu ❤️ à sua mensagem" (a reaction told as a message, in Portuguese)
  and an unsent message are system lines; a photo alone is media;
* signal-export's JSON: naive times, "Me" as written; an attachment or a sticker without words is media;
* WechatExporter's asynchronous page: its messages are read from the scripts it loads, in their order.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from importer_cli import (
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    check_whatsapp_layout,
    counts,
    fuzzed_outcomes,
    parsed,
    turns,
)

FIX = Path(__file__).parent / "fixtures" / "unseen29"
WA = FIX / "whatsapp"
BAD = FIX / "bad"


def d(*parts: int) -> datetime:
    return datetime(*parts)  # type: ignore[arg-type]


# --- WhatsApp in eighteen phone languages ----------------------------------------------------------------------------

WHATSAPP = {
    "WhatsApp Chat with أحمد.txt": ("أحمد", ("dashed", "dmy", "gregorian", (2, 1), [
        ("أحمد: مرحبا، كيف حالك؟", d(2024, 3, 12, 22, 15)),
        ("سارة: بخير والحمد لله\nسأصل غدًا الساعة ٩ صباحًا", d(2024, 3, 12, 22, 16)),
        ("أحمد: تصبحين على خير", d(2024, 3, 13, 0, 5)),
        ("سارة: صباح الخير! وصلت المحطة", d(2024, 3, 13, 9, 30)),
    ], {"أحمد: تصبحين على خير"})),
    "fa-ios/_chat.txt": (None, ("bracketed", "ymd", "persian", (1, 1), [
        ("علی: سلام مریم، فردا ساعت ۱۰ جلسه داریم؟", d(2024, 3, 12, 18, 6, 10)),
        ("مریم: بله، در دفتر مرکزی.\nلطفاً گزارش را هم بیاور.", d(2024, 3, 12, 18, 7, 45)),
        ("مریم: رسیدم 👍", d(2024, 3, 13, 9, 1, 30)),
    ])),
    "WhatsApp Chat with דנה.txt": ("דנה", ("dashed", "dmy", "gregorian", (1, 2), [
        ("דנה: ערב טוב! מחר בשמונה בקפה?", d(2024, 3, 12, 21, 5)),
        ("יוסי: כן, נתראה שם", d(2024, 3, 12, 21, 6)),
        ("יוסי: יצאתי עכשיו\nאגיע בעוד רבע שעה", d(2024, 3, 13, 7, 45)),
    ])),
    "WhatsApp Chat with राहुल.txt": ("राहुल", ("dashed", "dmy", "gregorian", (1, 1), [
        ("राहुल: कल सुबह 10 बजे मिलते हैं", d(2024, 3, 12, 21, 15)),
        ("प्रिया: ठीक है, स्टेशन पर", d(2024, 3, 12, 21, 16)),
        ("राहुल: मैं निकल गया हूँ", d(2024, 3, 13, 8, 2)),
    ])),
    "th-ios/_chat.txt": (None, ("bracketed", "dmy", "buddhist", (2, 0), [
        ("สมชาย: พรุ่งนี้ไปตลาดน้ำกันไหม", d(2024, 3, 12, 21, 6)),
        ("นภา: ไปสิ เจอกันแปดโมง", d(2024, 3, 12, 21, 7, 12)),
        ("สมชาย: ถึงแล้วนะ", d(2024, 3, 13, 8, 1)),
    ])),
    "WhatsApp Chat with 小明.txt": ("小明", ("dashed", "ymd", "gregorian", (1, 1), [
        ("小明: 我们明天几点见？", d(2024, 3, 12, 21, 5)),
        ("丽丽: 上午十点，在地铁站", d(2024, 3, 12, 21, 6)),
        ("小明: 我到了\n你在哪儿？", d(2024, 3, 13, 8, 30)),
    ])),
    "ko-ios/_chat.txt": (None, ("bracketed", "ymd", "gregorian", (1, 1), [
        ("민지: 내일 부산 가는 거 맞지?", d(2024, 3, 12, 21, 5, 30)),
        ("준호: 응, 7시 30분 KTX", d(2024, 3, 12, 21, 6, 2)),
        ("민지: 역에 도착했어", d(2024, 3, 13, 7, 10)),
    ])),
    "WhatsApp Chat with Minh.txt": ("Minh", ("dashed", "dmy", "gregorian", (1, 1), [
        ("Minh: Mai mình đi cà phê lúc 8 giờ nhé", d(2024, 3, 12, 21, 5)),
        ("Lan: Ok, quán cũ ở Hoàn Kiếm", d(2024, 3, 12, 21, 6)),
        ("Minh: Mình tới rồi", d(2024, 3, 13, 7, 55)),
    ], {"Minh: Mình tới rồi"})),
    "WhatsApp Chat with Иван.txt": ("Иван", ("dashed", "dmy", "gregorian", (1, 2), [
        ("Иван: Привет! Завтра в 10 у метро?", d(2024, 3, 12, 21, 5)),
        ("Ольга: Да.\nВозьми зонт, обещают дождь.\n\nИ билеты!", d(2024, 3, 12, 21, 6)),
        ("Иван: Я на месте", d(2024, 3, 13, 9, 58)),
    ], {"Иван: Я на месте"})),
    "pl-ios/_chat.txt": (None, ("bracketed", "dmy", "gregorian", (1, 1), [
        ("Kasia: Jutro o 10 w kawiarni?", d(2024, 3, 12, 21, 5, 30)),
        ("Tomek: Tak, do zobaczenia!", d(2024, 3, 12, 21, 6, 10)),
        ("Kasia: Jestem na miejscu", d(2024, 3, 13, 9, 59)),
    ])),
    "WhatsApp Chat with Ayşe.txt": ("Ayşe", ("dashed", "dmy", "gregorian", (2, 1), [
        ("Ayşe: Yarın saat 10'da kahve?", d(2024, 3, 12, 21, 6)),
        ("Mehmet: Olur, Kadıköy'de", d(2024, 3, 12, 21, 7)),
        ("Ayşe: Geldim", d(2024, 3, 13, 9, 57)),
    ], {"Ayşe: Geldim"})),
    "WhatsApp Chat with Νίκος.txt": ("Νίκος", ("dashed", "dmy", "gregorian", (1, 1), [
        ("Νίκος: Αύριο στις 10 στο λιμάνι;", d(2024, 3, 12, 21, 5)),
        ("Ελένη: Ναι, τα λέμε εκεί", d(2024, 3, 12, 21, 6)),
        ("Νίκος: Έφτασα", d(2024, 3, 13, 9, 55)),
    ])),
    "nl-ios/_chat.txt": (None, ("bracketed", "dmy", "gregorian", (1, 2), [
        ("Sanne: Morgen om 10 uur bij het station?", d(2024, 3, 12, 21, 5, 30)),
        ("Daan: Prima, tot dan!", d(2024, 3, 12, 21, 6, 1)),
        ("Daan: Ik sta bij spoor 5", d(2024, 3, 13, 9, 58)),
    ])),
    "Conversa do WhatsApp com João.txt": ("João", ("dashed", "dmy", "gregorian", (2, 3), [
        ("João: Amanhã às 10 na padaria?", d(2024, 3, 12, 21, 6)),
        ("Bia: Combinado!", d(2024, 3, 12, 21, 7)),
        ("João: Cheguei", d(2024, 3, 13, 9, 58)),
    ], {"João: Cheguei"})),
    "Chat de WhatsApp con Lucía.txt": ("Lucía", ("dashed", "dmy", "gregorian", (1, 1), [
        ("Lucía: ¿Mañana a las 10 en la plaza?", d(2024, 3, 12, 21, 5)),
        ("Pablo: Vale, allí nos vemos", d(2024, 3, 12, 21, 6)),
        ("Lucía: Ya llegué", d(2024, 3, 13, 9, 58)),
    ], {"Lucía: Ya llegué"})),
    "de-ios/_chat.txt": (None, ("bracketed", "dmy", "gregorian", (2, 2), [
        ("Jonas: Morgen um 10 am Bahnhof?", d(2024, 3, 12, 21, 6)),
        ("Lea: Passt!\nIch bringe Brötchen mit.", d(2024, 3, 12, 21, 6, 40)),
        ("Jonas: Bin da", d(2024, 3, 13, 9, 58)),
    ], {"Jonas: Bin da"})),
    "WhatsApp-chatt med Erik.txt": ("Erik", ("dashed", "ymd", "gregorian", (1, 1), [
        ("Erik: Ses vi vid stationen kl. 10 i morgon?", d(2024, 3, 12, 21, 5)),
        ("Anna: Ja, vi ses!", d(2024, 3, 12, 21, 6)),
        ("Erik: Jag är här", d(2024, 3, 13, 9, 58)),
    ])),
    "ja-ios/_chat.txt": (None, ("bracketed", "ymd", "gregorian", (1, 1), [
        ("健太: 明日10時に渋谷駅で", d(2024, 3, 12, 21, 5, 30)),
        ("美咲: 了解です！", d(2024, 3, 12, 21, 6)),
        ("健太: 着きました", d(2024, 3, 13, 9, 58)),
    ])),
}


@pytest.mark.parametrize("name", sorted(WHATSAPP))
def test_whatsapp_in_phone_languages(name: str) -> None:
    thread, case = WHATSAPP[name]
    check_whatsapp_layout(WA / name, case)
    if thread is not None:  # Android names the file in the phone's language: "Conversa do WhatsApp com João.txt"
        recs, _ = parsed(WA / name, "whatsapp")
        assert {r.thread for r in recs} == {thread}


def test_whatsapp_saved_as_utf16_by_notepad() -> None:
    recs, _ = parsed(BAD / "WhatsApp Chat with Tom.txt", "whatsapp")
    assert turns(recs) == [("Tom: Dinner at 8 tomorrow?", "2024-03-12T21:05:00"),
                           ("Eva: Yes, at Luigi's", "2024-03-12T21:06:00"),
                           ("Tom: Running 5 minutes late", "2024-03-13T19:55:00")]
    assert {r.thread for r in recs} == {"Tom"}


# --- Telegram Desktop 5 -------------------------------------------------------------------------------------------------


def test_telegram_forum_topics_and_reactions() -> None:
    recs, rep = parsed(FIX / "telegram-forum" / "ChatExport_2024-05-02" / "result.json", "telegram")
    check_chat_shape(recs, "telegram")
    assert turns(recs) == [
        ("Rita Lopes: Sábado: Pena às 9h. Quem vem?", "2024-05-01T09:02:00+02:00"),
        ("Nuno Reis: Eu vou, levo o carro.", "2024-05-01T09:04:00+02:00"),
        ("Rita Lopes: https://maps.app.goo.gl/abc ponto de encontro", "2024-05-01T09:08:00+02:00"),
        ("Marta: Eu preciso de boleia de Lisboa 🙏", "2024-05-01T09:12:00+02:00"),
    ]
    assert {r.thread for r in recs} == {"Trilhos de Sintra"}
    assert [r.metadata.get("topic") for r in recs] == ["Caminhadas", "Caminhadas", "Boleias", "Boleias e carros"]
    assert counts(rep) == (11, 5, 2)  # the group's creation, two topics made, one renamed, a pin; a photo, a sticker


def test_telegram_page_reactions_are_no_words() -> None:
    recs, _ = parsed(FIX / "telegram-html-reactions" / "ChatExport_2024-05-15" / "messages.html", "telegram")
    assert turns(recs) == [
        ("Anna Kowalska: Kolacja w piątek o 19?", "2024-05-14T19:00:05+02:00"),
        ("Piotr Nowak: Tak! Rezerwuję stolik na 4 osoby.", "2024-05-14T19:01:10+02:00"),
        ("Piotr Nowak: W Kazimierzu & blisko tramwaju.", "2024-05-14T19:01:40+02:00"),
    ]


# --- Instagram, Messenger ----------------------------------------------------------------------------------------------


def test_instagram_2024_download_in_portuguese() -> None:
    chat = FIX / "instagram" / "your_instagram_activity" / "messages" / "inbox" / "joaopires_17841" / "message_1.json"
    recs, rep = parsed(chat, "messenger")
    check_chat_shape(recs, "messenger")
    assert turns(recs) == [
        ("ana.silva: Olá João! Já sabes a data?", "2024-05-01T17:53:20+00:00"),
        ("João Pires: Jantar de anos da avó: sábado às 20h, em Alfama.", "2024-05-01T18:10:00+00:00"),
        ("ana.silva: Combinado! Levo o bolo de laranja 🎂", "2024-05-01T18:43:20+00:00"),
    ]
    assert {r.thread for r in recs} == {"João Pires"}
    assert counts(rep) == (5, 1, 1)  # "Reagiu ❤️ à sua mensagem": system; a photo: media


def test_instagram_download_folder() -> None:
    recs, _ = parsed(FIX / "instagram", "messenger")
    assert len(recs) == 3 and {r.author for r in recs} == {"ana.silva", "João Pires"}


def test_messenger_end_to_end_encrypted_download() -> None:
    recs, rep = parsed(FIX / "messenger-e2ee" / "messages" / "sofiamartins_10.json", "messenger")
    assert turns(recs) == [
        ("Sofia Martins: Já marcaste o dentista?", "2024-06-01T10:00:00+00:00"),
        ("Diogo Costa: Sim, dia 12 às 15h30.", "2024-06-01T10:01:00+00:00"),
        ("Sofia Martins: Ótimo, eu levo-te lá.\nSaímos às 15h?", "2024-06-01T10:04:00+00:00"),
    ]
    assert {r.thread for r in recs} == {"Sofia Martins"} and counts(rep) == (5, 1, 1)  # unsent: system; a photo


# --- signal-export's JSON ----------------------------------------------------------------------------------------------

ANA = [
    ("Ana: Are we still on for the market tomorrow?", "2024-03-13T19:02:00"),
    ("Me: Yes, 9am at the north gate.\nBring cash!", "2024-03-13T19:03:10"),
    ("Ana: Great, see you there", "2024-03-13T19:05:00"),
]
BOOK = [("Bruno: Book club on Friday: chapter 5 to 9.", "2024-04-20T10:00:00"),
        ("Me: I'll bring snacks", "2024-04-20T10:02:30")]


def test_signal_export_json_lines() -> None:
    recs, rep = parsed(FIX / "signal-export" / "signal-chats" / "Ana" / "data.json", "signal")
    check_chat_shape(recs, "signal")
    assert turns(recs) == ANA and {r.thread for r in recs} == {"Ana"}
    assert counts(rep) == (5, 0, 2)  # a photo; a sticker


def test_signal_export_json_folder() -> None:
    recs, _ = parsed(FIX / "signal-export", "signal")
    assert sorted(turns(recs)) == sorted(ANA + BOOK)
    assert {r.thread for r in recs} == {"Ana", "Book Club"}


# --- WechatExporter, asynchronous loading ------------------------------------------------------------------------------

WANG = [("王芳: 周日一起去看展吗？\n下午两点", "2024-05-18T20:10:00"),
        ("张伟: 好啊，在美术馆门口见 & 带学生证", "2024-05-18T20:11:30"),
        ("王芳: 这是展览的海报", "2024-05-18T20:14:05")]


def test_wechatexporter_async_page() -> None:
    page = FIX / "wechatexporter-async" / "WechatExporter" / "wxid_w8m2" / "王芳.html"
    recs, rep = parsed(page, "wechat")
    check_chat_shape(recs, "wechat")
    assert turns(recs) == WANG and {r.thread for r in recs} == {"王芳"}
    assert [bool(r.metadata.get("from_me")) for r in recs] == [False, True, False]
    assert counts(rep) == (5, 1, 1)  # a recall; a photo


def test_wechatexporter_async_account_folder() -> None:
    recs, _ = parsed(FIX / "wechatexporter-async", "wechat")
    assert turns(recs) == WANG


# --- through the CLI: detected, imported once, idempotent ---------------------------------------------------------------


def test_each_layout_imports_by_cli(tmp_path: Path) -> None:
    assert_imports_by_cli(tmp_path / "m.db", {
        WA / "WhatsApp Chat with أحمد.txt": ("whatsapp", 4),
        WA / "fa-ios" / "_chat.txt": ("whatsapp", 3),
        FIX / "telegram-forum" / "ChatExport_2024-05-02" / "result.json": ("telegram", 4),
        FIX / "instagram": ("messenger", 3),
        FIX / "signal-export": ("signal", 5),
        FIX / "wechatexporter-async": ("wechat", 3),
    })


# --- damaged: one line naming the file (and the line or field), nothing written -----------------------------------------


@pytest.mark.parametrize(("rel", "message"), [
    ("WhatsApp Chat with Nobody.txt", "empty file"),
    ("telegram-forum-cut/ChatExport_2024-05-02/result.json", "truncated"),
    ("instagram-messages-not-list/your_instagram_activity/messages/inbox/joaopires_17841/message_1.json",
     '"messages" is not a list'),
    ("signal-json-cut/signal-chats/Ana/data.json", "truncated"),
    ("wechatexporter-async-cut/王芳.html", "cut"),
])
def test_damaged_exports_are_refused_in_one_line(rel: str, message: str, tmp_path: Path) -> None:
    assert_import_refused(BAD / rel, tmp_path, message)


@pytest.mark.parametrize(("rel", "keep"), [
    ("whatsapp/WhatsApp Chat with أحمد.txt", 1),
    ("signal-export/signal-chats/Ana/data.json", 2),
    ("telegram-forum/ChatExport_2024-05-02/result.json", 1),
])
def test_fuzzed_copies_are_read_or_refused_in_one_line(rel: str, keep: int, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=29, keep=keep)
    assert read + refused == 16 and read >= 1  # every case one or the other; no other exception
