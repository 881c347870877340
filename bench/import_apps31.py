"""Parse cost of round layouts31's exports, as :mod:`bench.import_apps` measures the others (a fresh subprocess per
parse, the registry's parser as ``mem.py import`` calls it, no store): signal-export's JSON (10 chats' data.json, JSON
lines, 1 in 10 a photo), WechatExporter's asynchronous pages (10 chats, their messages in scripts of 1,000, 1 in 10 a
photo), a Telegram forum's result.json (20 topics, every message a reply in one, 1 in 25 with reactions) and an
Instagram download (10 chats, newest first, mojibake, 1 in 20 a reaction told as a message); each at two sizes
(linear: the CPU time doubles).

Usage::

    python bench/import_apps31.py [--messages 100000] [--rounds 1] [--only LABEL]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from import_apps import _sentence, run  # noqa: E402

T0 = datetime(2024, 1, 1)


def signal_json(folder: Path, messages: int) -> Path:
    """signal-export's output: 10 chats, each a data.json of JSON lines, 1 in 10 a photo."""
    rng = random.Random(51)
    per = -(-messages // 10)
    for c in range(10):
        d = folder / f"Chat {c}"
        d.mkdir(parents=True)
        with (d / "data.json").open("w", encoding="utf-8") as fh:
            for i in range(c * per, min(messages, (c + 1) * per)):
                photo = i % 10 == 0
                fh.write(json.dumps({"date": (T0 + timedelta(seconds=i * 60)).strftime("%Y-%m-%d %H:%M:%S"),
                                     "sender": "Me" if i % 2 else f"P{c}", "body": "" if photo else _sentence(rng),
                                     "quote": "", "sticker": "", "reactions": [],
                                     "attachments": [{"name": "x.jpg", "path": "media/x.jpg"}] if photo else []},
                                    ensure_ascii=False) + "\n")
    return folder


def wechat_async(folder: Path, messages: int) -> Path:
    """WechatExporter's asynchronous output: 10 chat pages, each loading scripts of 1,000 messages, 1 in 10 a photo."""
    rng = random.Random(52)
    per = -(-messages // 10)
    account = folder / "WechatExporter" / "wxid_bench"
    account.mkdir(parents=True)
    for c in range(10):
        ids = range(c * per, min(messages, (c + 1) * per))
        chunks = [list(ids[k:k + 1000]) for k in range(0, len(ids), 1000)]
        srcs = []
        for n, chunk in enumerate(chunks, start=1):
            divs = []
            for i in chunk:
                when = (T0 + timedelta(seconds=i * 60)).strftime("%Y-%m-%d %H:%M:%S")
                body = '<div class="image"><img src="x.jpg" /></div>' if i % 10 == 0 else f"<pre>{_sentence(rng)}</pre>"
                divs.append(f'<div class="msg chat {"right" if i % 2 else "left"}" id="msg{i}" data-type="'
                            f'{3 if i % 10 == 0 else 1}"><div class="msgc"><div class="nickname">p{i % 2}</div>'
                            f'<div class="time">{when}</div><div class="bubble">{body}</div></div></div>')
            src = f"chat{c}_files/Data/msg-{n}.js"
            (account / src).parent.mkdir(parents=True, exist_ok=True)
            (account / src).write_text("var msgArray = msgArray || [];\nmsgArray = msgArray.concat("
                                       + json.dumps(divs, ensure_ascii=False) + ");\n", encoding="utf-8")
            srcs.append(src)
        (account / f"chat{c}.html").write_text(
            '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="generator" content="WechatExporter">'
            f'<title>chat{c}</title></head><body><div id="content"></div>\n'
            + "".join(f'<script type="text/javascript" src="{s}"></script>\n' for s in srcs) + "</body></html>\n",
            encoding="utf-8")
    return folder


def telegram_forum(path: Path, messages: int) -> Path:
    """A forum supergroup's result.json: 20 topics, every message a reply in one, 1 in 25 with reactions."""
    rng = random.Random(53)
    msgs = [{"id": t + 1, "type": "service", "date": T0.isoformat(), "date_unixtime": str(1_704_067_200),
             "actor": "Ana", "actor_id": "user1", "action": "topic_created", "title": f"Topic {t}", "text": ""}
            for t in range(20)]
    for i in range(messages):
        when = T0 + timedelta(seconds=60 + i * 60)
        m = {"id": 100 + i, "type": "message", "date": when.isoformat(), "date_unixtime": str(1_704_067_260 + i * 60),
             "from": f"user{i % 7}", "from_id": f"user{i % 7}",
             "reply_to_message_id": (i % 20) + 1 if i < 40 else 100 + i - 20, "text": _sentence(rng)}
        if i % 25 == 0:
            m["reactions"] = [{"type": "emoji", "count": 2, "emoji": "👍", "recent": []}]
        msgs.append(m)
    path.write_text(json.dumps({"name": "Forum", "type": "private_supergroup", "id": 42, "messages": msgs},
                               ensure_ascii=False), encoding="utf-8")
    return path


def _moji(text: str) -> str:
    return text.encode("utf-8").decode("latin-1")


def instagram(folder: Path, messages: int) -> Path:
    """An Instagram download: 10 chats of message_N.json (10,000 a file), newest first, 1 in 20 a reaction notice."""
    rng = random.Random(54)
    per = -(-messages // 10)
    for c in range(10):
        d = folder / "your_instagram_activity" / "messages" / "inbox" / f"chat{c}_1"
        d.mkdir(parents=True)
        rows = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            ms = 1_704_067_200_000 + i * 60_000
            if i % 20 == 1:
                rows.append({"sender_name": "b", "timestamp_ms": ms, "content": _moji("Reagiu ❤️ à sua mensagem")})
                rows[-2]["reactions"] = [{"reaction": _moji("❤"), "actor": "b", "timestamp": ms // 1000}]
            else:
                rows.append({"sender_name": "a" if i % 2 == 0 else "b", "timestamp_ms": ms,
                             "content": _moji(_sentence(rng) + " é")})
        rows.reverse()
        for n, k in enumerate(range(0, len(rows), 10_000), start=1):
            (d / f"message_{n}.json").write_text(json.dumps(
                {"participants": [{"name": "a"}, {"name": "b"}], "title": f"chat{c}", "messages": rows[k:k + 10_000]}))
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", default="", help="run the exports whose label holds this text")
    args = ap.parse_args()
    print("| export | messages | records | CPU s | records / CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.messages // 2, args.messages):
            for label, make in (("signal-export JSON", lambda d, k: signal_json(d / f"sig{k}", k)),
                                ("WechatExporter async pages", lambda d, k: wechat_async(d / f"wxa{k}", k)),
                                ("Telegram forum result.json", lambda d, k: telegram_forum(d / f"forum{k}.json", k)),
                                ("Instagram download", lambda d, k: instagram(d / f"ig{k}", k))):
                if args.only and args.only.lower() not in label.lower():
                    continue
                path = make(Path(tmp), n)
                best = min((run(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                print(f"| {label} | {n} | {best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} "
                      f"| {best['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
