"""Round 31's mechanisms on examples of their own (not the held-out tests/fixtures/unseen29): a WhatsApp chat's name
from its file name in more of Android's languages, a file WhatsApp named itself or a contact card attached with
words of any language, Instagram's reaction notices told by the reaction they repeat, Telegram forums' topics,
signal-export's JSON, WechatExporter's asynchronous scripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from importer_cli import assert_import_refused, parsed, turns

from importers.whatsapp_files import thread_name
from importers.whatsapp_words import _media_line


@pytest.mark.parametrize(("name", "chat"), [
    ("WhatsApp-chatt med Erik.txt", "Erik"),          # Swedish
    ("WhatsApp-chat med Mette.txt", "Mette"),         # Danish
    ("Czat WhatsApp z Kasią.txt", "Kasią"),           # Polish
    ("Đoạn chat WhatsApp với Minh.txt", "Minh"),      # Vietnamese
    ("WhatsApp-samtale med Ole.txt", "Ole"),          # Norwegian
    ("WhatsApp Chat with Ana Silva.txt", "Ana Silva"),
    ("WhatsApp Ana na Praia.txt", "Ana na Praia"),    # no chat word before "na": the whole name stays
    ("WhatsApp Chat - Ana.txt", "Ana"),
])
def test_chat_names_from_android_file_names(name: str, chat: str) -> None:
    assert thread_name(name) == chat


@pytest.mark.parametrize(("line", "media"), [
    ("IMG-20240312-WA0003.jpg (Dateianhang)", ["IMG-20240312-WA0003.jpg"]),
    ("PTT-20240312-WA0001.opus (fitxategia erantsita)", ["PTT-20240312-WA0001.opus"]),
    ("Anne Dupont.vcf (pièce jointe)", ["Anne Dupont.vcf"]),
    ("Мама.vcf (файл прикреплён)", ["Мама.vcf"]),
    ("report.pdf (the final one)", None),      # a person's words about a file: kept
    ("IMG-20240312-WA0003.jpg (2 of 3)", None),  # a digit: no notice of WhatsApp's
])
def test_files_whatsapp_named_itself(line: str, media: list[str] | None) -> None:
    assert _media_line(line, line) == media


def _instagram(tmp_path: Path, messages: list[dict]) -> Path:
    chat = tmp_path / "your_instagram_activity" / "messages" / "inbox" / "zsofi_1" / "message_1.json"
    chat.parent.mkdir(parents=True)
    chat.write_text(json.dumps({"participants": [{"name": "zsofi"}, {"name": "bence"}], "title": "zsofi",
                                "messages": messages}))
    return chat


def test_a_reaction_told_as_a_message_in_any_language(tmp_path: Path) -> None:
    heart = "\u2764\ufe0f"
    chat = _instagram(tmp_path, [  # newest first
        {"sender_name": "bence", "timestamp_ms": 1714590000000, "content": f"Reagált {heart} az üzenetedre"},
        {"sender_name": "bence", "timestamp_ms": 1714589500000, "content": f"Szuper {heart}"},
        {"sender_name": "zsofi", "timestamp_ms": 1714589000000, "content": "Szombaton 8-kor?",
         "reactions": [{"reaction": "\u2764", "actor": "bence", "timestamp": 1714590000}]},
    ])
    recs, rep = parsed(chat, "messenger")
    # the notice goes (the second its reaction was made); the same emoji in words at another time stays
    assert turns(recs) == [("zsofi: Szombaton 8-kor?", "2024-05-01T18:43:20+00:00"),
                           ("bence: Szuper ❤️", "2024-05-01T18:51:40+00:00")]
    assert rep.skipped_system == 1


def test_telegram_forum_topic_renamed_and_general_messages(tmp_path: Path) -> None:
    def msg(mid: int, reply: int | None = None, **kw: object) -> dict:
        m = {"id": mid, "type": "message", "date": f"2024-05-01T10:{mid:02d}:00", "from": "Ana", "from_id": "user1",
             "text": f"m{mid}"}
        if reply is not None:
            m["reply_to_message_id"] = reply
        return m | kw
    export = {"name": "Forum", "type": "private_supergroup", "id": 5, "messages": [
        msg(1),  # the General topic: no topic
        msg(2, type="service", action="topic_created", title="Trips", actor="Ana", text=""),
        msg(3, 2),
        msg(4, 3),
        msg(5, 2, type="service", action="topic_edit", new_title="Trips 2024", actor="Ana", text=""),
        msg(6, 4),
        msg(7),
    ]}
    result = tmp_path / "result.json"
    result.write_text(json.dumps(export))
    recs, rep = parsed(result, "telegram")
    assert [(r.content, r.metadata.get("topic")) for r in recs] == [
        ("Ana: m1", None), ("Ana: m3", "Trips"), ("Ana: m4", "Trips"), ("Ana: m6", "Trips 2024"), ("Ana: m7", None)]
    assert rep.skipped_system == 2


def test_signal_export_json_array_with_offsets(tmp_path: Path) -> None:
    data = tmp_path / "Mum" / "data.json"
    data.parent.mkdir()
    data.write_text(json.dumps([
        {"date": "2024-03-13T19:02:00+01:00", "sender": "Mum", "body": "Sunday lunch at 1?", "quote": "",
         "sticker": "", "reactions": [{"name": "Me", "emoji": "👍"}], "attachments": []},
        {"date": "2024-03-13T19:03:00+01:00", "sender": "Me", "body": "Yes!", "quote": "Sunday lunch at 1?",
         "sticker": "", "reactions": [], "attachments": []},
    ]))
    recs, _ = parsed(data, "signal")
    assert turns(recs) == [("Mum: Sunday lunch at 1?", "2024-03-13T19:02:00+01:00"),
                           ("Me: Yes!", "2024-03-13T19:03:00+01:00")]
    assert recs[0].metadata["reactions"] == ["Me: 👍"] and recs[1].metadata["quote"] == "Sunday lunch at 1?"
    assert {r.thread for r in recs} == {"Mum"}


def test_signal_export_json_bad_date_is_one_line(tmp_path: Path) -> None:
    data = tmp_path / "Mum" / "data.json"
    data.parent.mkdir()
    data.write_text('{"date": "2024-03-13 19:02:00", "sender": "Mum", "body": "hi"}\n'
                    '{"date": "2024-13-13 19:02:00", "sender": "Mum", "body": "hi"}\n')
    assert_import_refused(data, tmp_path, 'message 2: "date" is no date')


def _wechat_async(tmp_path: Path, scripts: dict[str, str], srcs: list[str]) -> Path:
    page = tmp_path / "acc" / "Li.html"
    page.parent.mkdir()
    tags = "".join(f'<script type="text/javascript" src="{s}"></script>\n' for s in srcs)
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="generator" content="WechatExporter">'
                    f'<title>Li</title></head><body><div id="content"></div>\n{tags}</body></html>\n')
    for rel, text in scripts.items():
        target = page.parent / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return page


def _div(mid: int, side: str, name: str, when: str, words: str) -> str:
    return (f'<div class="msg chat {side}" id="msg{mid}" data-type="1"><div class="msgc"><div class="nickname">{name}'
            f'</div><div class="time">{when}</div><div class="bubble"><pre>{words}</pre></div></div></div>')


def test_wechatexporter_async_single_quoted_scripts_and_outside_scripts(tmp_path: Path) -> None:
    one = _div(1, "left", "Li", "2024-05-18 20:10:00", "It's 8 o'clock")
    two = _div(2, "right", "Wei", "2024-05-18 20:11:00", 'say "hi"')
    js = "var msgArray = [];\n// a comment's quote\nmsgArray.push('" + one.replace("'", "\\'") + "');\n" \
         + "msgArray.push(" + json.dumps(two) + ");\n"
    outside = "var msgArray = [" + json.dumps(_div(9, "left", "X", "2024-05-18 20:00:00", "not this chat")) + "];\n"
    page = _wechat_async(tmp_path, {"Li_files/Data/msg-1.js": js, "../res/other.js": outside},
                         ["../res/other.js", "Li_files/Data/msg-1.js"])
    recs, _ = parsed(page, "wechat")
    assert turns(recs) == [("Li: It's 8 o'clock", "2024-05-18T20:10:00"), ('Wei: say "hi"', "2024-05-18T20:11:00")]


def test_imessage_exporter_1x_reactions_are_no_words(tmp_path: Path) -> None:
    chat = tmp_path / "+15558675309.txt"
    chat.write_text("May 17, 2022  5:29:42 PM\n+15558675309\nDinner at 8?\n\nReactions:\n    Loved by Me\n\n"
                    "May 17, 2022  5:30:01 PM\nMe\nYes!\n\n")
    recs, _ = parsed(chat, "imessage")
    assert turns(recs) == [("+15558675309: Dinner at 8?", "2022-05-17T17:29:42"), ("Me: Yes!", "2022-05-17T17:30:01")]
    assert recs[0].metadata["tapbacks"] == ["Loved by Me"]
