"""Parse cost of round layouts30's exports, as :mod:`bench.import_apps` measures the others (a fresh subprocess per
parse, the registry's parser as ``mem.py import`` calls it, no store): WechatExporter's WeChat pages (an account of 10
chat pages, 1 in 10 a photo), Character.AI's account export (one JSON, chats of 200 messages) and iMazing's message
CSVs (10 conversations, 1 in 20 an attachment alone); each at two sizes (linear: the CPU time doubles; a page or a
CSV streamed: the peak RSS stays flat, or grows with the largest single file read whole).

Usage::

    python bench/import_apps30.py [--messages 100000] [--rounds 1] [--only LABEL]
"""

from __future__ import annotations

import argparse
import csv
import html
import json
import random
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from import_apps import _sentence, run  # noqa: E402

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def wechatexporter_pages(folder: Path, messages: int) -> Path:
    """WechatExporter's account folder: 10 chat pages and index.html, 1 in 10 a photo."""
    rng = random.Random(53)
    account = folder / "WechatExporter" / "wxid_bench"
    account.mkdir(parents=True)
    per = -(-messages // 10)
    for c in range(10):
        rows = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            when = (T0 + timedelta(seconds=i * 60)).strftime("%Y-%m-%d %H:%M:%S")
            side, name = ("right", "me") if i % 2 else ("left", f"friend{c}")
            inner = (f'<div class="image"><img src="chat{c}_files/{i}.jpg" /></div>' if i % 10 == 0 else
                     f'<div class="text"><pre>{html.escape(_sentence(rng))}</pre></div>')
            rows.append(f'<div class="msg chat {side}" id="msg{i}" data-type="{3 if i % 10 == 0 else 1}">'
                        f'<div class="avatar"><img src="Portrait/a.jpg" alt="{name}" /></div><div class="msgc">'
                        f'<div class="nickname">{name}</div><div class="time">{when}</div>'
                        f'<div class="bubble">{inner}</div></div></div>\n')
        (account / f"chat{c}.html").write_text(
            f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>chat{c}</title></head><body>'
            f'<div class="content">\n{"".join(rows)}</div></body></html>', encoding="utf-8")
    (account / "index.html").write_text("<html><body>" + "".join(
        f'<a href="chat{c}.html">chat{c}</a>' for c in range(10)) + "</body></html>", encoding="utf-8")
    return folder


def characterai_account(path: Path, messages: int) -> Path:
    """Character.AI's account export: one JSON, chats of 200 messages."""
    rng = random.Random(54)
    path.parent.mkdir(parents=True)
    chats = []
    for c in range(0, messages, 200):
        msgs = [{"id": f"m{i}", "author": "me" if i % 2 == 0 else "Bot", "is_human": i % 2 == 0,
                 "text": _sentence(rng), "create_time": (T0 + timedelta(seconds=i * 30)).isoformat()}
                for i in range(c, min(messages, c + 200))]
        chats.append({"chat_id": f"c{c}", "character_name": f"Bot {c // 200 % 50}", "messages": msgs})
    path.write_text(json.dumps({"user": {"username": "me"}, "characters": [], "personas": [], "chats": chats}),
                    encoding="utf-8")
    return path


def imazing_csvs(folder: Path, messages: int) -> Path:
    """iMazing's message CSVs: 10 conversations, 1 in 20 an attachment alone."""
    rng = random.Random(55)
    folder.mkdir(parents=True)
    head = ["Chat Session", "Message Date", "Delivered Date", "Read Date", "Edited Date", "Service", "Type",
            "Sender ID", "Sender Name", "Status", "Replying to", "Subject", "Text", "Attachment", "Attachment type"]
    per = -(-messages // 10)
    for c in range(10):
        with (folder / f"Person {c}.csv").open("w", encoding="utf-8-sig", newline="") as fh:
            out = csv.writer(fh, quoting=csv.QUOTE_ALL)
            out.writerow(head)
            for i in range(c * per, min(messages, (c + 1) * per)):
                when = (T0 + timedelta(seconds=i * 60)).strftime("%Y-%m-%d %H:%M:%S")
                mine = i % 2 == 1
                media = i % 20 == 0
                out.writerow([f"Person {c}", when, "", "", "", "iMessage", "Outgoing" if mine else "Incoming",
                              "" if mine else f"+1555000{c:04d}", "" if mine else f"Person {c}", "Read", "", "",
                              "" if media else _sentence(rng), "IMG_1.HEIC" if media else "", "Image" if media else ""])
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
            for label, make in (("WechatExporter pages", lambda d, k: wechatexporter_pages(d / f"wxe{k}", k)),
                                ("Character.AI account export", lambda d, k: characterai_account(
                                    d / f"cai{k}" / "character_ai_data.json", k)),
                                ("iMazing message CSVs", lambda d, k: imazing_csvs(d / f"imz{k}", k))):
                if args.only and args.only.lower() not in label.lower():
                    continue
                path = make(Path(tmp), n)
                best = min((run(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                print(f"| {label} | {n} | {best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} "
                      f"| {best['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
