"""Parse cost of the chat apps' exports: a Telegram Desktop result.json of N messages (a full export: several chats,
entity lists, replies, service lines), a Slack workspace folder of N messages (channels, days, threads,
mentions), an SMS Backup & Restore XML of N messages (sms sent and received, 1 in 10 an MMS with a base64 photo),
a LINE text export of N lines (day lines, 1 in 8 a quoted message of three lines, stickers), and round 22's: a Viber
CSV, a WeChat CSV (MemoTrace), a Threema messages.txt, an Element JSON room, an X archive's DMs, Google Voice pages
and signal-export's HTML of N messages each; and round 23's: a Zoom saved chat, a Snapchat chat_history.json, a Facebook
chat's pages (message_N.html, 10,000 messages a page as Meta writes them), an imessage-exporter page, a Word document
of N paragraphs; and round 24's: a Gmail Takeout mbox, LinkedIn's messages.csv, Discord's data package, Tinder's
data.json, Hinge's matches.json, Mattermost's bulk export, Reddit's messages.csv; and round 28's: DeepSeek's
conversations.json, Grok's prod-grok-backend.json, Le Chat's chat files, Rocket.Chat's room files; each at two sizes
(the second twice the first: linear means the CPU time doubles, not quadruples; streamed means the peak RSS stays
flat).

Each parse runs in a fresh subprocess (the registry's parser, as ``mem.py import`` calls it, without the store):
the table prints CPU seconds, records per CPU second, peak RSS and the records it gave.

Usage::

    python bench/import_apps.py [--messages 50000] [--rounds 1] [--only LABEL]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from importers import ImportReport
from importers.detect import detect
from importers.registry import PARSERS
path = Path(sys.argv[2])
kind = detect(path)
start = time.process_time()
n = sum(1 for _ in PARSERS[kind].parse(path, ImportReport(str(path), kind)))
cpu = time.process_time() - start
# VmHWM: this interpreter's own peak (ru_maxrss keeps the bench's peak across exec on Linux)
hwm = next((int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")), 0)
print(json.dumps({"kind": kind, "cpu": cpu, "rss_mb": hwm // 1024, "records": n}))
"""
_WORDS = ("dinner market train ticket tomorrow Saturday meeting budget review draft hotel airport flight kids school "
          "doctor Tuesday coffee office plan trip mountain refuge boots rain sunny book chapter").split()


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 18))).capitalize()


def telegram(path: Path, messages: int) -> Path:
    """A full export of ``messages`` messages over 8 chats: 1 in 10 with entities, 1 in 20 a service line."""
    rng = random.Random(7)
    people = ["Ana Sousa", "Rui Costa", "Lucía Fernández", "Jonas Becker", "Ирина"]
    chats = []
    per = messages // 8
    for c in range(8):
        msgs = []
        for i in range(per):
            t = 1_700_000_000 + c * 10_000_000 + i * 61
            who = people[(i + c) % len(people)]
            local = datetime.fromtimestamp(t, timezone.utc).replace(tzinfo=None) + timedelta(hours=1)  # at +01:00
            m: dict[str, object] = {"id": i + 1, "type": "message", "date": local.isoformat(), "date_unixtime": str(t),
                                    "from": who, "from_id": f"user{(i + c) % 5}"}
            if i % 20 == 19:
                m.update(type="service", actor=who, action="pin_message", message_id=i)
                m.pop("from")
                m["text"] = ""
            elif i % 10 == 3:
                m["text"] = [_sentence(rng) + " ", {"type": "bold", "text": "now"}, " see ",
                             {"type": "link", "text": "https://example.com/x"}]
                m["reply_to_message_id"] = i
            else:
                m["text"] = _sentence(rng)
            m["text_entities"] = []
            msgs.append(m)
        chats.append({"name": f"Chat {c}", "type": "private_group", "id": 1000 + c, "messages": msgs})
    path.write_text(json.dumps({"about": "...", "personal_information": {"first_name": "Rui"},
                                "chats": {"about": "...", "list": chats}}, ensure_ascii=False, indent=1),
                    encoding="utf-8")
    return path


def slack(folder: Path, messages: int) -> Path:
    """A workspace of ``messages`` messages in 5 channels, 200 a day, 1 in 8 a thread reply, 1 in 6 a mention."""
    rng = random.Random(11)
    folder.mkdir()
    users = [{"id": f"U{i:03d}", "name": f"user{i}", "real_name": f"Person {i}", "profile": {"real_name": f"Person {i}"}}
             for i in range(40)]
    channels = [{"id": f"C{c:03d}", "name": f"chan-{c}"} for c in range(5)]
    (folder / "users.json").write_text(json.dumps(users, indent=4))
    (folder / "channels.json").write_text(json.dumps(channels, indent=4))
    per = messages // 5
    for c in range(5):
        (folder / f"chan-{c}").mkdir()
        for day in range(0, per, 200):
            batch = []
            for i in range(day, min(per, day + 200)):
                ts = f"{1_700_000_000 + i * 300}.{i:06d}"
                text = _sentence(rng) + (f" <@U{i % 40:03d}>" if i % 6 == 0 else "")
                m = {"type": "message", "user": f"U{i % 40:03d}", "text": text, "ts": ts}
                if i % 8 == 7:
                    m["thread_ts"] = f"{1_700_000_000 + (i - 1) * 300}.{i - 1:06d}"
                batch.append(m)
            date = f"2023-{1 + day // 200 // 28 % 12:02d}-{1 + day // 200 % 28:02d}"
            (folder / f"chan-{c}" / f"{date}.json").write_text(json.dumps(batch, indent=4))
    return folder


def sms_xml(path: Path, messages: int) -> Path:
    """An SMS Backup & Restore file of ``messages`` messages with 12 contacts: 1 in 10 an MMS carrying a 20 kB photo
    (base64) and a text part."""
    from xml.sax.saxutils import quoteattr

    rng = random.Random(5)
    photo = "/9j/" + "A" * 20_000
    with path.open("w", encoding="utf-8") as fh:
        fh.write("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
                 f'<smses count="{messages}" backup_set="bench" backup_date="1711000000000" type="full">\n')
        for i in range(messages):
            t = 1_700_000_000_000 + i * 61_000
            local = datetime.fromtimestamp(t / 1000, timezone.utc).replace(tzinfo=None) - timedelta(hours=3)
            who = f"Contact {i % 12}"
            address = f"+55119876500{i % 12:02d}"
            readable = local.strftime("%d/%m/%Y %H:%M:%S")
            if i % 10 == 9:
                fh.write(f'  <mms date="{t}" msg_box="{1 + i % 2}" address="{address}" readable_date="{readable}" '
                         f'contact_name="{who}">\n    <parts>\n'
                         f'      <part seq="0" ct="image/jpeg" name="IMG_{i}.jpg" data="{photo}" />\n'
                         f'      <part seq="1" ct="text/plain" text={quoteattr(_sentence(rng))} />\n'
                         f'    </parts>\n    <addrs>\n      <addr address="{address}" type="137" charset="106" />\n'
                         '    </addrs>\n  </mms>\n')
            else:
                fh.write(f'  <sms protocol="0" address="{address}" date="{t}" type="{1 + i % 2}" '
                         f'body={quoteattr(_sentence(rng))} readable_date="{readable}" contact_name="{who}" />\n')
        fh.write("</smses>\n")
    return path


def line_text(path: Path, lines: int) -> Path:
    """A LINE export of ``lines`` lines: a day line every 200, 1 in 8 messages quoted over three lines, 1 in 20 a
    sticker."""
    rng = random.Random(9)
    out = ["[LINE] Chat history with Ana Sousa", "Saved on: 2024/03/14 18:30", ""]
    day = datetime(2020, 1, 1)
    i = 0
    while len(out) < lines:
        if i % 200 == 0:
            day += timedelta(days=1)
            out += ["", f"{day:%a, %m/%d/%Y}"]
        who = ("Ana Sousa", "Rui Costa")[i % 2]
        stamp = f"{(i // 10) % 24:02d}:{i % 60:02d}"
        if i % 20 == 19:
            out.append(f"{stamp}\t{who}\t[Sticker]")
        elif i % 8 == 7:
            out += [f'{stamp}\t{who}\t"{_sentence(rng)}', _sentence(rng), f'{_sentence(rng)}"']
        else:
            out.append(f"{stamp}\t{who}\t{_sentence(rng)}")
        i += 1
    path.write_text("\n".join(out[:lines]) + "\n", encoding="utf-8")
    return path


# --- round 22's formats (Viber, WeChat, Threema, Element, X DMs, Google Voice, signal-export's HTML) ------------------


def viber_csv(path: Path, messages: int) -> Path:
    """A Viber CSV of ``messages`` rows (1 in 8 quoted over two lines, 1 in 20 empty: a photo)."""
    import csv

    rng = random.Random(21)
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        for i in range(messages):
            t = datetime(2021, 1, 1) + timedelta(seconds=i * 67)
            who, phone = (("Ana Sousa", "+351912345678"), ("Me", "+351934567890"))[i % 2]
            text = "" if i % 20 == 19 else (_sentence(rng) + "\n" + _sentence(rng) if i % 8 == 7 else _sentence(rng))
            out.writerow([f"{t:%d/%m/%Y}", f"{t:%H:%M:%S}", who, phone, text])
    return path


def wechat_csv(path: Path, messages: int) -> Path:
    """A MemoTrace CSV of ``messages`` rows: 1 in 10 a photo, 1 in 25 a service line, 1 in 15 a link (appmsg XML)."""
    import csv

    rng = random.Random(22)
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow("localId,TalkerId,Type,SubType,IsSender,CreateTime,Status,StrContent,StrTime,Remark,NickName,Sender"
                     .split(","))
        for i in range(messages):
            t = 1_700_000_000 + i * 61
            local = datetime.fromtimestamp(t, timezone.utc).replace(tzinfo=None) + timedelta(hours=8)
            kind, sub, text = 1, 0, _sentence(rng)
            if i % 10 == 9:
                kind, text = 3, ""
            elif i % 25 == 24:
                kind = 10000
            elif i % 15 == 14:
                kind, sub = 49, 5
                text = f"<msg><appmsg><title>{_sentence(rng)}</title><url>https://example.com/{i}</url></appmsg></msg>"
            mine = i % 2
            out.writerow([i, "wxid_bench01", kind, sub, mine, t, 2, text, f"{local:%Y-%m-%d %H:%M:%S}", "", "张伟",
                          "" if mine else "张伟"])
    return path


def threema_txt(folder: Path, messages: int) -> Path:
    """A Threema export folder: messages.txt of ``messages`` messages (1 in 8 over two lines)."""
    rng = random.Random(23)
    folder.mkdir()
    with (folder / "messages.txt").open("w", encoding="utf-8") as fh:
        for i in range(messages):
            t = datetime(2021, 1, 1) + timedelta(seconds=i * 67)
            fh.write(f"[{t:%d/%m/%Y, %H:%M}] {('Ana Sousa', 'Me')[i % 2]}: {_sentence(rng)}\n")
            if i % 8 == 7:
                fh.write(_sentence(rng) + "\n")
    return folder


def matrix_json(path: Path, messages: int) -> Path:
    """An Element JSON export of ``messages`` events: 1 in 20 a member event, 1 in 15 a reply, 1 in 30 an image."""
    rng = random.Random(24)
    events = []
    for i in range(messages):
        sender = f"@user{i % 7}:matrix.org"
        ev: dict[str, object] = {"type": "m.room.message", "sender": sender, "origin_server_ts": 1_700_000_000_000 + i * 61_000,
                                 "event_id": f"$ev{i}", "room_id": "!bench:matrix.org", "unsigned": {"age": 1}}
        if i % 20 == 0:
            ev.update(type="m.room.member", state_key=sender, content={"membership": "join", "displayname": f"Person {i % 7}"})
        elif i % 15 == 14:
            ev["content"] = {"msgtype": "m.text", "body": f"> <@user1:matrix.org> {_sentence(rng)}\n\n{_sentence(rng)}",
                             "m.relates_to": {"m.in_reply_to": {"event_id": f"$ev{i - 1}"}}}
        elif i % 30 == 29:
            ev["content"] = {"msgtype": "m.image", "body": "photo.jpg", "url": "mxc://matrix.org/x"}
        else:
            ev["content"] = {"msgtype": "m.text", "body": _sentence(rng)}
        events.append(ev)
    path.write_text(json.dumps({"room_name": "Bench room", "room_creator": "@user0:matrix.org", "topic": "",
                                "export_date": "3/14/2024", "exported_by": "@user0:matrix.org", "messages": events},
                               indent=2))
    return path


def twitter_js(folder: Path, messages: int) -> Path:
    """An X archive whose data/direct-messages.js holds ``messages`` messages in conversations of 250, 1 in 10 with a
    t.co link, 1 in 40 a photo alone."""
    rng = random.Random(25)
    data = folder / "data"
    data.mkdir(parents=True)
    me = "1450000000000000001"
    (data / "account.js").write_text("window.YTD.account.part0 = " + json.dumps([{"account": {"accountId": me}}]))
    convs = []
    for c in range(0, messages, 250):
        other = str(900000 + c)
        msgs = []
        for i in range(c, min(messages, c + 250)):
            sender, recipient = (me, other) if i % 2 else (other, me)
            created = datetime.fromtimestamp(1_700_000_000 + i * 61, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            m: dict[str, object] = {"recipientId": recipient, "reactions": [], "urls": [], "text": _sentence(rng),
                                    "mediaUrls": [], "senderId": sender, "id": str(10**18 + i), "createdAt": created}
            if i % 10 == 3:
                m["text"] = f"{m['text']} https://t.co/x{i}"
                m["urls"] = [{"url": f"https://t.co/x{i}", "expanded": f"https://example.com/{i}", "display": "example.com"}]
            elif i % 40 == 39:
                m["text"] = f"https://t.co/p{i}"
                m["urls"] = [{"url": f"https://t.co/p{i}", "expanded": f"https://twitter.com/messages/media/{i}",
                              "display": "pic.twitter.com/p"}]
                m["mediaUrls"] = [f"https://ton.twitter.com/dm/{i}/p.jpg"]
            msgs.append({"messageCreate": m})
        convs.append({"dmConversation": {"conversationId": f"{other}-{me}", "messages": msgs[::-1]}})
    (data / "direct-messages.js").write_text("window.YTD.direct_messages.part0 = " + json.dumps(convs, indent=2))
    return folder


def googlevoice_pages(folder: Path, messages: int) -> Path:
    """A Takeout's Voice/Calls of ``messages`` text messages in pages of 100 (1 in 3 the owner's)."""
    rng = random.Random(26)
    calls = folder / "Takeout" / "Voice" / "Calls"
    calls.mkdir(parents=True)
    for p in range(0, messages, 100):
        t0 = datetime(2021, 1, 1, tzinfo=timezone(timedelta(hours=-5))) + timedelta(hours=p)
        body = []
        for i in range(p, min(messages, p + 100)):
            t = t0 + timedelta(seconds=(i - p) * 61)
            fn = '<abbr class="fn" title="">Me</abbr>' if i % 3 == 0 else f'<span class="fn">Contact {p}</span>'
            body.append(f'<div class="message"><abbr class="dt" title="{t.isoformat(timespec="milliseconds")}">x</abbr>:\n'
                        f'<cite class="sender vcard"><a class="tel" href="tel:+1555{p:07d}">{fn}</a></cite>:\n'
                        f"<q>{_sentence(rng)}</q>\n</div>")
        stamp = t0.astimezone(timezone.utc).strftime("%Y-%m-%dT%H_%M_%SZ")
        (calls / f"Contact {p} - Text - {stamp}.html").write_text(
            '<?xml version="1.0" ?>\n<html><head><title>Contact</title></head><body><div class="hChatLog hfeed">\n'
            + "\n".join(body) + "\n</div></body></html>\n", encoding="utf-8")
    return folder


def signal_html(folder: Path, messages: int) -> Path:
    """signal-export's web page of one chat of ``messages`` messages (1 in 8 with a line break, 1 in 25 a photo)."""
    rng = random.Random(27)
    chat = folder / "Ana Sousa"
    chat.mkdir(parents=True)
    with (chat / "index.html").open("w", encoding="utf-8") as fh:
        fh.write('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Ana Sousa</title></head><body>\n'
                 '<div class="page" id="pg-0">\n')
        for i in range(messages):
            t = datetime(2021, 1, 1) + timedelta(seconds=i * 67)
            body = (f'<figure><img src="./media/{i}.jpg" alt="{i}.jpg"></figure>' if i % 25 == 24 else
                    f"<p>{_sentence(rng)}<br>\n{_sentence(rng)}</p>" if i % 8 == 7 else f"<p>{_sentence(rng)}</p>")
            fh.write(f'<div class="msg {("incoming", "outgoing")[i % 2]}">\n  <span class="date">{t:%Y-%m-%d}</span>\n'
                     f'  <span class="time">{t:%H:%M}</span>\n  <span class="sender">{("Ana Sousa", "Me")[i % 2]}</span>\n'
                     f'  <span class="body">{body}</span>\n</div>\n')
        fh.write("</div>\n</body>\n</html>\n")
    return folder


def zoom_chat(folder: Path, messages: int) -> Path:
    """A meeting's meeting_saved_chat.txt of ``messages`` messages (1 in 6 of two lines, 1 in 20 a reaction)."""
    rng = random.Random(28)
    meeting = folder / "2024-03-14 08.00.00 All hands 84512345678"
    meeting.mkdir(parents=True)
    with (meeting / "meeting_saved_chat.txt").open("w", encoding="utf-8") as fh:
        for i in range(messages):
            t = datetime(2024, 3, 14, 8) + timedelta(seconds=i)
            words = (f'Reacted to "{_sentence(rng)[:20]}..." with 👍' if i % 20 == 19 else
                     f"{_sentence(rng)}\n\t{_sentence(rng)}" if i % 6 == 5 else _sentence(rng))
            fh.write(f"{t:%H:%M:%S} From Person {i % 40} to Everyone:\n\t{words}\n")
    return meeting / "meeting_saved_chat.txt"


def snapchat_json(path: Path, messages: int) -> Path:
    """A chat_history.json of ``messages`` rows in 50 chats, newest first (1 in 10 a snap without words)."""
    rng = random.Random(29)
    chats: dict[str, list[dict[str, object]]] = {}
    for i in range(messages):
        t = datetime(2024, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=i * 37)
        chats.setdefault(f"friend.{i % 50}", []).insert(0, {
            "From": f"friend.{i % 50}" if i % 2 else "owner", "Media Type": "MEDIA" if i % 10 == 9 else "TEXT",
            "Created": f"{t:%Y-%m-%d %H:%M:%S} UTC", "Content": "" if i % 10 == 9 else _sentence(rng),
            "Conversation Title": None, "IsSender": i % 2 == 0, "Created(microseconds)": int(t.timestamp() * 1000)})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(chats, indent=1), encoding="utf-8")
    return path


def facebook_pages(folder: Path, messages: int) -> Path:
    """One Facebook chat as pages of 10,000 messages (message_1.html the newest; 1 in 25 a photo)."""
    rng = random.Random(30)
    chat = folder / "messages" / "inbox" / "anasousa_1"
    chat.mkdir(parents=True)
    for page, start in enumerate(range(0, messages, 10000), start=1):
        rows = []
        for i in range(min(messages, start + 10000) - 1, start - 1, -1):
            t = datetime(2021, 1, 1) + timedelta(seconds=(messages - i) * 67)
            body = ('<div><a href="photos/1.jpg"><img src="photos/1.jpg" /></a></div>' if i % 25 == 24 else
                    f"<div>{_sentence(rng)}</div>")
            rows.append(f'<div class="pam _3-95 _2ph- _a6-g uiBoxWhite noborder"><div class="_a6-h">'
                        f'{("Ana Sousa", "Rui Costa")[i % 2]}</div><div class="_a6-p"><div><div></div>{body}</div></div>'
                        f'<div class="_a6-o">{t:%b %d, %Y} {t.hour % 12 or 12}:{t:%M:%S} {("am", "pm")[t.hour >= 12]}'
                        f"</div></div>")
        (chat / f"message_{page}.html").write_text(
            '<html><head><meta charset="utf-8" /><title>Ana Sousa</title></head><body><div role="main">'
            + "\n".join(rows) + "</div></body></html>\n", encoding="utf-8")
    return folder


def imessage_page(folder: Path, messages: int) -> Path:
    """imessage-exporter's page of one chat of ``messages`` messages (1 in 20 a picture)."""
    rng = random.Random(31)
    folder.mkdir(parents=True)
    with (folder / "+15551234567.html").open("w", encoding="utf-8") as fh:
        fh.write('<html>\n<head>\n<meta charset="UTF-8">\n</head>\n<body>\n')
        for i in range(messages):
            t = datetime(2021, 1, 1) + timedelta(seconds=i * 67)
            part = ('<div class="attachment"><img src="a.heic"></div>' if i % 20 == 19 else
                    f'<span class="bubble">{_sentence(rng)}</span>')
            fh.write(f'<div class="message">\n<div class="{("sent iMessage", "received")[i % 2]}">\n<p><span class='
                     f'"timestamp"><a title="Reply">{t:%b} {t.day}, {t.year}  {t.hour % 12 or 12}:{t:%M:%S} '
                     f'{("AM", "PM")[t.hour >= 12]}</a></span>\n<span class="sender">{("Me", "+15551234567")[i % 2]}'
                     f'</span></p>\n<hr><div class="message_part">\n{part}\n</div>\n</div>\n</div>\n')
        fh.write("</body>\n</html>\n")
    return folder


def word_document(path: Path, paragraphs: int) -> Path:
    """A .docx of ``paragraphs`` paragraphs, a heading every 20."""
    import zipfile

    rng = random.Random(32)
    body = "".join(f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Section {i}</w:t></w:r></w:p>'
                   if i % 20 == 0 else f"<w:p><w:r><w:t>{_sentence(rng)}</w:t></w:r></w:p>" for i in range(paragraphs))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
                    f'wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>')
    return path


def gmail_mbox(path: Path, messages: int) -> Path:
    """A Takeout mbox of ``messages`` mails in 200 threads (1 in 3 a reply quoting the last, 1 in 10 multipart with
    an HTML twin, 1 in 25 a PDF attached)."""
    rng = random.Random(33)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(messages):
            t = datetime(2022, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=i * 97)
            words = _sentence(rng)
            if i % 3 == 1:
                words += f"\n\nOn {t:%a, %d %b %Y} at {t:%H:%M}, Person <p@example.com> wrote:\n> {_sentence(rng)}\n"
            head = (f"From 17{i:017d}@xxx {t:%a %b %d %H:%M:%S} +0000 {t:%Y}\nX-GM-THRID: {i % 200}\n"
                    f"X-Gmail-Labels: {('Inbox', 'Sent')[i % 2]}\nDate: {t:%a, %d %b %Y %H:%M:%S} +0000\n"
                    f"From: Person {i % 40} <p{i % 40}@example.com>\nTo: owner@example.com\n"
                    f"Subject: {'Re: ' if i % 3 == 1 else ''}Topic {i % 200}\nMessage-ID: <m{i}@example.com>\n")
            if i % 10 == 9 or i % 25 == 24:
                att = ('--b\nContent-Type: application/pdf; name="a.pdf"\nContent-Disposition: attachment\n'
                       'Content-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n' if i % 25 == 24 else "")
                fh.write(f"{head}Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain; charset=UTF-8"
                         f"\n\n{words}\n--b\nContent-Type: text/html\n\n<p>{words}</p>\n{att}--b--\n\n")
            else:
                fh.write(f"{head}Content-Type: text/plain; charset=UTF-8\n\n{words}\n\n")
    return path


def linkedin_csv(path: Path, messages: int) -> Path:
    """messages.csv of ``messages`` rows in 500 conversations, each newest first."""
    import csv

    rng = random.Random(34)
    path.parent.mkdir(parents=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["CONVERSATION ID", "CONVERSATION TITLE", "FROM", "SENDER PROFILE URL", "TO", "RECIPIENT PROFILE URLS",
                    "DATE", "SUBJECT", "CONTENT", "FOLDER", "ATTACHMENTS", "IS MESSAGE DRAFT"])
        per = max(1, messages // 500)
        for c in range(0, messages, per):
            for i in range(min(messages, c + per) - 1, c - 1, -1):
                t = datetime(2023, 1, 1) + timedelta(seconds=i * 301)
                who = ("Ana Sousa", f"Person {c % 97}")[i % 2]
                w.writerow([f"2-{c}", "", who, "", "x", "", f"{t:%Y-%m-%d %H:%M:%S} UTC", "", _sentence(rng), "INBOX", "",
                            "false"])
    return path


def discord_package(folder: Path, messages: int) -> Path:
    """A data package of ``messages`` of the owner's messages over 50 channels (1 in 15 an attachment alone)."""
    rng = random.Random(35)
    (folder / "messages").mkdir(parents=True)
    index = {}
    for c in range(50):
        cid = str(10**17 + c)
        index[cid] = f"Direct Message with friend{c}#0"
        (folder / "messages" / f"c{cid}").mkdir()
        (folder / "messages" / f"c{cid}" / "channel.json").write_text(json.dumps({"id": cid, "type": 1}))
        rows = [{"ID": 10**18 + i, "Timestamp": f"{datetime(2023, 1, 1) + timedelta(seconds=i * 53):%Y-%m-%d %H:%M:%S}",
                 "Contents": "" if i % 15 == 14 else _sentence(rng), "Attachments": "https://cdn/x.png" if i % 15 == 14
                 else ""} for i in range(c, messages, 50)]
        (folder / "messages" / f"c{cid}" / "messages.json").write_text(json.dumps(rows[::-1]))
    (folder / "messages" / "index.json").write_text(json.dumps(index))
    return folder


def tinder_json(path: Path, messages: int) -> Path:
    """A data.json of ``messages`` messages over 300 matches."""
    rng = random.Random(36)
    matches: dict[int, list[dict[str, object]]] = {}
    for i in range(messages):
        t = datetime(2023, 1, 1) + timedelta(seconds=i * 71)
        matches.setdefault(i % 300, []).append({"to": i % 300, "from": "You", "message": _sentence(rng),
                                                 "sent_date": f"{t:%a, %d %b %Y %H:%M:%S} GMT"})
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"Usage": {"app_opens": {"2023-01-01": 3}},
                                "Messages": [{"match_id": f"Match {k + 1}", "messages": v} for k, v in matches.items()]}))
    return path


def hinge_json(folder: Path, messages: int) -> Path:
    """matches.json of ``messages`` chat messages over 300 matches."""
    rng = random.Random(37)
    people: dict[int, list[dict[str, str]]] = {}
    for i in range(messages):
        t = datetime(2023, 1, 1) + timedelta(seconds=i * 71)
        people.setdefault(i % 300, []).append({"body": _sentence(rng), "timestamp": f"{t:%Y-%m-%d %H:%M:%S}"})
    folder.mkdir(parents=True)
    (folder / "matches.json").write_text(json.dumps([{"match": [{"timestamp": "2023-01-01 00:00:00"}], "chats": v}
                                                     for v in people.values()]))
    return folder


def mattermost_jsonl(path: Path, messages: int) -> Path:
    """A bulk export of ``messages`` posts in 20 channels (1 in 5 with two replies counted among them)."""
    rng = random.Random(38)
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"version","version":1}\n{"type":"team","team":{"name":"t","display_name":"Team"}}\n')
        for u in range(40):
            fh.write(json.dumps({"type": "user", "user": {"username": f"u{u}", "first_name": "Person", "last_name": str(u)}}) + "\n")
        i = 0
        while i < messages:
            t = 1_672_531_200_000 + i * 61_000
            post: dict[str, object] = {"team": "t", "channel": f"c{i % 20}", "user": f"u{i % 40}", "message": _sentence(rng),
                                       "create_at": t}
            if i % 5 == 4:
                post["replies"] = [{"user": f"u{(i + k) % 40}", "message": _sentence(rng), "create_at": t + k} for k in (1, 2)]
                i += 2
            fh.write(json.dumps({"type": "post", "post": post}) + "\n")
            i += 1
    return path


def reddit_csv(path: Path, messages: int) -> Path:
    """messages.csv of ``messages`` private messages in 400 conversations."""
    import csv

    rng = random.Random(39)
    path.parent.mkdir(parents=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "permalink", "thread_id", "date", "ip", "from", "to", "subject", "body"])
        for i in range(messages):
            t = datetime(2022, 1, 1) + timedelta(seconds=i * 113)
            w.writerow([f"m{i}", "", "", f"{t:%Y-%m-%d %H:%M:%S} UTC", "", f"user{i % 50}", "owner",
                        f"{'re: ' if i % 3 else ''}topic {i % 400}", _sentence(rng)])
    return path


def apple_mail_emlx(folder: Path, messages: int) -> Path:
    """Apple Mail's store: ``messages`` .emlx files in one mailbox's Messages folder (``V10/<account>/INBOX.mbox``)."""
    rng = random.Random(40)
    box = folder / "V10" / "ACCOUNT" / "INBOX.mbox" / "ID" / "Data" / "Messages"
    box.mkdir(parents=True)
    for i in range(messages):
        t = datetime(2022, 1, 1) + timedelta(seconds=i * 97)
        msg = (f"From: Person {i % 50} <p{i % 50}@example.com>\nTo: owner@example.com\nSubject: topic {i % 400}\n"
               f"Date: {t:%a, %d %b %Y %H:%M:%S} +0100\nMessage-Id: <m{i}@example.com>\n"
               f"Content-Type: text/plain; charset=utf-8\n\n{_sentence(rng)}\n").encode()
        (box / f"{i + 1}.emlx").write_bytes(f"{len(msg)}\n".encode() + msg +
                                            b"<plist><dict><key>flags</key><integer>1</integer></dict></plist>\n")
    return folder


def gemini_json(folder: Path, messages: int) -> Path:
    """Takeout's My Activity for Gemini Apps: ``messages`` / 2 prompts with their answers, newest first."""
    rng = random.Random(41)
    path = folder / "Takeout" / "My Activity" / "Gemini Apps" / "MyActivity.json"
    path.parent.mkdir(parents=True)
    entries = [{"header": "Gemini Apps", "title": f"Prompted {_sentence(rng)}",
                "time": f"{datetime(2023, 1, 1) + timedelta(seconds=i * 600):%Y-%m-%dT%H:%M:%S}.000Z",
                "products": ["Gemini Apps"], "safeHtmlItem": [{"html": f"<p>{_sentence(rng)}</p>"}]}
               for i in range(messages // 2)]
    path.write_text(json.dumps(entries[::-1]), encoding="utf-8")
    return folder


def zulip_tar(path: Path, messages: int) -> Path:
    """Zulip's export as a .tar.gz: realm.json (40 users, 20 streams) and messages-N.json of 1,000 messages each."""
    import io
    import tarfile

    rng = random.Random(42)
    realm = {"zerver_realm": [{"id": 1, "string_id": "bench"}],
             "zerver_userprofile": [{"id": u, "full_name": f"Person {u}", "is_bot": False} for u in range(40)],
             "zerver_stream": [{"id": s, "name": f"stream {s}"} for s in range(20)],
             "zerver_recipient": [{"id": 100 + s, "type": 2, "type_id": s} for s in range(20)],
             "zerver_subscription": []}
    with tarfile.open(path, "w:gz") as tar:
        def add(name: str, obj: object) -> None:
            data = json.dumps(obj).encode()
            info = tarfile.TarInfo(f"zulip-export-bench/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        add("realm.json", realm)
        for f in range(0, messages, 1000):
            add(f"messages-{f // 1000 + 1:06d}.json", {"zerver_message": [
                {"id": i, "sender": i % 40, "recipient": 100 + i % 20, "subject": f"topic {i % 7}", "content": _sentence(rng),
                 "date_sent": 1_672_531_200 + i * 61} for i in range(f, min(f + 1000, messages))]})
    return path


def deepseek_json(path: Path, messages: int) -> Path:
    """DeepSeek's conversations.json: conversations of 20 nodes (a prompt, then an answer with its reasoning)."""
    rng = random.Random(43)
    path.parent.mkdir(parents=True)
    convs = []
    for c in range(0, messages, 20):
        mapping: dict[str, object] = {"root": {"id": "root", "parent": None, "children": ["1"], "message": None}}
        for i in range(1, min(20, messages - c) + 1):
            ask = i % 2 == 1
            frags = [{"type": "REQUEST", "content": _sentence(rng)}] if ask else [
                {"type": "THINK", "content": _sentence(rng)}, {"type": "RESPONSE", "content": _sentence(rng)}]
            when = datetime(2025, 1, 1, tzinfo=timezone(timedelta(hours=8))) + timedelta(seconds=(c + i) * 60)
            mapping[str(i)] = {"id": str(i), "parent": str(i - 1) if i > 1 else "root",
                               "children": [str(i + 1)] if i < min(20, messages - c) else [],
                               "message": {"files": [], "model": "deepseek-chat", "inserted_at": when.isoformat(),
                                           "fragments": frags}}
        convs.append({"id": f"c{c}", "title": f"chat {c}", "inserted_at": "2025-01-01T00:00:00+08:00",
                      "mapping": mapping})
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


def grok_json(path: Path, messages: int) -> Path:
    """Grok's prod-grok-backend.json: conversations of 20 responses, times as MongoDB's $date."""
    rng = random.Random(44)
    path.parent.mkdir(parents=True)
    convs = [{"conversation": {"id": f"c{c}", "title": f"chat {c}"}, "responses": [
        {"response": {"_id": f"r{c + i}", "message": _sentence(rng), "sender": "human" if i % 2 == 0 else "assistant",
                      "create_time": {"$date": {"$numberLong": str(1_735_689_600_000 + (c + i) * 60_000)}}}}
        for i in range(min(20, messages - c))]} for c in range(0, messages, 20)]
    path.write_text(json.dumps({"conversations": convs, "projects": []}), encoding="utf-8")
    return path


def lechat_folder(folder: Path, messages: int) -> Path:
    """Le Chat's export: a chat-<id>.json of 50 messages per chat."""
    rng = random.Random(45)
    folder.mkdir(parents=True)
    for c in range(0, messages, 50):
        cid = f"{c:08x}-0000-4000-8000-000000000000"
        msgs = [{"id": f"m{c + i}", "chatId": cid, "role": "user" if i % 2 == 0 else "assistant",
                 "content": _sentence(rng), "createdAt": f"{datetime(2025, 1, 1) + timedelta(seconds=(c + i) * 60):%Y-%m-%dT%H:%M:%S}.000Z"}
                for i in range(min(50, messages - c))]
        (folder / f"chat-{cid}.json").write_text(json.dumps(msgs), encoding="utf-8")
    return folder


def rocketchat_folder(folder: Path, messages: int) -> Path:
    """Rocket.Chat's "Export my data" (JSON): 10 room files, a message per line, 1 in 25 a service line."""
    rng = random.Random(46)
    folder.mkdir(parents=True)
    rooms: list[list[str]] = [[] for _ in range(10)]
    for i in range(messages):
        msg: dict[str, object] = {"msg": _sentence(rng), "username": f"user.{i % 12}",
                                  "ts": f"{datetime(2024, 1, 1) + timedelta(seconds=i * 60):%Y-%m-%dT%H:%M:%S}.000Z"}
        if i % 25 == 0:
            msg["type"] = "uj"
        rooms[i % 10].append(json.dumps(msg))
    for r, lines in enumerate(rooms):
        (folder / f"room-{r}.json").write_text("\n".join(lines), encoding="utf-8")
    return folder


def run(path: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(REPO), str(path)], capture_output=True, text=True,
                         timeout=3600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]



def time_exports(description: str, exports: Sequence[tuple[str, Callable[[Path, int], Path]]],
                 run_one: Callable[[Path], dict[str, Any]], header: str,
                 row: Callable[[dict[str, Any]], str]) -> None:
    """The command line the per-round import benches share (``--messages``, ``--rounds``, ``--only``, ``--repo``):
    each export made at half and at full size, parsed by ``run_one`` (the least CPU of ``--rounds``), one table row
    each — ``header`` the table's first two lines after "| export | messages ", ``row(best)`` the cells after them. An
    export the measured tree refuses (the base, for a layout it cannot read) gets a "refused" row saying why."""
    global REPO
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", default="", help="run the exports whose label holds this text")
    ap.add_argument("--repo", default="", help="measure this tree's importers (e.g. the base) instead of this one")
    args = ap.parse_args()
    if args.repo:
        REPO = Path(args.repo).resolve()
    print(header)
    blanks = header.splitlines()[0].count("|") - 5
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.messages // 2, args.messages):
            for label, make in exports:
                if args.only and args.only.lower() not in label.lower():
                    continue
                path = make(Path(tmp), n)
                try:
                    best = min((run_one(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                except Exception as exc:  # the base refuses some of these: said in the table
                    said = str(exc).splitlines()[0][:60]
                    print(f"| {label} | {n} | refused | {said} |" + " |" * blanks, flush=True)
                    continue
                print(f"| {label} | {n} | {row(best)} |", flush=True)

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", default="", help="run the exports whose label holds this text (e.g. 'Viber')")
    args = ap.parse_args()
    print("| export | messages | records | CPU s | records / CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.messages // 2, args.messages):
            for label, make in (("Telegram result.json", lambda d, k: telegram(d / f"result{k}.json", k)),
                                ("Slack workspace folder", lambda d, k: slack(d / f"slack{k}", k)),
                                ("SMS Backup & Restore XML", lambda d, k: sms_xml(d / f"sms-{k}.xml", k)),
                                ("LINE text (lines)", lambda d, k: line_text(d / f"line{k}.txt", k)),
                                ("Viber CSV", lambda d, k: viber_csv(d / f"Viber Ana {k}.csv", k)),
                                ("WeChat MemoTrace CSV", lambda d, k: wechat_csv(d / f"wechat{k}.csv", k)),
                                ("Threema messages.txt", lambda d, k: threema_txt(d / f"threema{k}", k)),
                                ("Element (Matrix) JSON", lambda d, k: matrix_json(d / f"matrix{k}.json", k)),
                                ("X archive DMs", lambda d, k: twitter_js(d / f"twitter{k}", k)),
                                ("Google Voice pages", lambda d, k: googlevoice_pages(d / f"voice{k}", k)),
                                ("signal-export HTML", lambda d, k: signal_html(d / f"signal{k}", k)),
                                ("Zoom saved chat", lambda d, k: zoom_chat(d / f"zoom{k}", k)),
                                ("Snapchat chat_history.json", lambda d, k: snapchat_json(d / f"snap{k}" / "json" /
                                                                                          "chat_history.json", k)),
                                ("Facebook chat pages", lambda d, k: facebook_pages(d / f"facebook{k}", k)),
                                ("imessage-exporter HTML", lambda d, k: imessage_page(d / f"imessage{k}", k)),
                                ("Word document (paragraphs)", lambda d, k: word_document(d / f"notes{k}.docx", k)),
                                ("Gmail Takeout mbox", lambda d, k: gmail_mbox(d / f"mail{k}.mbox", k)),
                                ("LinkedIn messages.csv", lambda d, k: linkedin_csv(d / f"li{k}" / "messages.csv", k)),
                                ("Discord data package", lambda d, k: discord_package(d / f"discord{k}", k)),
                                ("Tinder data.json", lambda d, k: tinder_json(d / f"tinder{k}" / "data.json", k)),
                                ("Hinge matches.json", lambda d, k: hinge_json(d / f"hinge{k}", k)),
                                ("Mattermost bulk export", lambda d, k: mattermost_jsonl(d / f"mm{k}.jsonl", k)),
                                ("Reddit messages.csv", lambda d, k: reddit_csv(d / f"reddit{k}" / "messages.csv", k)),
                                ("Apple Mail .emlx store", lambda d, k: apple_mail_emlx(d / f"Mail{k}", k)),
                                ("Gemini Apps activity JSON", lambda d, k: gemini_json(d / f"gemini{k}", k)),
                                ("Zulip export .tar.gz", lambda d, k: zulip_tar(d / f"zulip-export-{k}.tar.gz", k)),
                                ("DeepSeek conversations.json", lambda d, k: deepseek_json(d / f"ds{k}" /
                                                                                           "conversations.json", k)),
                                ("Grok prod-grok-backend.json", lambda d, k: grok_json(d / f"grok{k}" /
                                                                                       "prod-grok-backend.json", k)),
                                ("Le Chat export folder", lambda d, k: lechat_folder(d / f"lechat{k}", k)),
                                ("Rocket.Chat export folder", lambda d, k: rocketchat_folder(d / f"rc{k}", k))):
                if args.only and args.only.lower() not in label.lower():
                    continue
                path = make(Path(tmp), n)
                best = min((run(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                print(f"| {label} | {n} | {best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} "
                      f"| {best['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
