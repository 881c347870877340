"""Parse cost of round layouts29's exports, as :mod:`bench.import_apps` measures the others (a fresh subprocess per
parse, the registry's parser as ``mem.py import`` calls it, no store): MemoTrace's WeChat pages (10 chats of
``const chatMessages = [...]``, 1 in 10 a photo), Rocket.Chat's HTML export (10 rooms, 1 in 25 a join), Character.AI
chat files (200 turns each, newest first, 1 in 5 with two candidates), Copilot's activity CSV (one file) and
Perplexity threads (10 questions a thread, with footnotes) and VK's archive (10 chats, pages of 50 in Windows-1251); each at two sizes (linear: the CPU time doubles;
streamed or a file at a time: the peak RSS stays flat, or grows with the largest single file).

Usage::

    python bench/import_apps29.py [--messages 100000] [--rounds 1] [--only LABEL]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from import_apps import _sentence, run  # noqa: E402

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def _js(text: str) -> str:
    return text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")


def wechat_pages(folder: Path, messages: int) -> Path:
    """MemoTrace's pages: 聊天记录/<chat>/<chat>.html, 10 chats, 1 in 10 a photo."""
    rng = random.Random(47)
    per = -(-messages // 10)
    for c in range(10):
        d = folder / "聊天记录" / f"chat{c}"
        d.mkdir(parents=True)
        rows = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            kind, text = (3, "./image/x.jpg") if i % 10 == 0 else (1, _sentence(rng))
            rows.append(f"{{ type:{kind}, text: '{_js(text)}',is_send:{i % 2},avatar_path:'./a.png',"
                        f"timestamp:{1_700_000_000 + i * 60},is_chatroom:0,displayname:'p{i % 2}'}},")
        (d / f"chat{c}.html").write_text("<html><head><meta charset='UTF-8'></head><body><script>\n"
                                         "const chatMessages = [\n" + "\n".join(rows) + "\n];\n</script></body></html>",
                                         encoding="utf-8")
    return folder


def rocketchat_pages(folder: Path, messages: int) -> Path:
    """Rocket.Chat's HTML export: 10 room pages, 1 in 25 a join."""
    rng = random.Random(48)
    folder.mkdir(parents=True)
    rooms: list[list[str]] = [['<meta http-equiv="content-type" content="text/html; charset=utf-8">'] for _ in range(10)]
    for i in range(messages):
        when = (T0 + timedelta(seconds=i * 60)).strftime("%a, %d %b %Y %H:%M:%S GMT")
        text = "Has joined the channel." if i % 25 == 0 else _sentence(rng)
        rooms[i % 10].append(f"<p><strong>user.{i % 12}</strong> ({when}):<br/>\n{text}\n</p>")
    for r, lines in enumerate(rooms):
        (folder / f"room-{r}.html").write_text("\n".join(lines), encoding="utf-8")
    return folder


def characterai_files(folder: Path, messages: int) -> Path:
    """Character.AI chat files of 200 turns, newest first, 1 in 5 answers with two candidates."""
    rng = random.Random(49)
    folder.mkdir(parents=True)
    for c in range(0, messages, 200):
        turns = []
        for i in range(c, min(messages, c + 200)):
            when = (T0 + timedelta(seconds=i * 30)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            cands = [{"candidate_id": f"{i}-{k}", "raw_content": _sentence(rng)} for k in range(2 if i % 5 == 1 else 1)]
            turns.append({"turn_key": {"chat_id": f"c{c}", "turn_id": f"t{i}"}, "create_time": when, "state": "STATE_OK",
                          "author": {"name": "me" if i % 2 == 0 else "Bot", "is_human": i % 2 == 0},
                          "candidates": cands, "primary_candidate_id": cands[-1]["candidate_id"]})
        (folder / f"chat{c}.json").write_text(json.dumps({"chat": {"chat_id": f"c{c}", "character_name": "Bot"},
                                                          "turns": turns[::-1]}), encoding="utf-8")
    return folder


def copilot_csv(path: Path, messages: int) -> Path:
    """Copilot's activity history: one CSV, conversations of 20 messages."""
    rng = random.Random(50)
    path.parent.mkdir(parents=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["Conversation", "Time", "Author", "Message"])
        for i in range(messages):
            out.writerow([f"chat {i // 20}", (T0 + timedelta(seconds=i * 30)).isoformat(),
                          "User" if i % 2 == 0 else "Copilot", _sentence(rng)])
    return path


def perplexity_threads(folder: Path, messages: int) -> Path:
    """Perplexity threads of 10 questions (20 messages), each answer with two footnotes."""
    rng = random.Random(51)
    folder.mkdir(parents=True)
    logo = '<img src="https://r2cdn.perplexity.ai/pplx-full-logo-primary-dark%402x.png" class="logo" width="120"/>\n\n'
    for t in range(0, messages, 20):
        parts = []
        for q in range(1, min(10, (messages - t) // 2) + 1):
            parts.append(f"# {_sentence(rng)}?\n\n{_sentence(rng)}[^{q}_1][^{q}_2]\n\n"
                         f'<div style="text-align: center">⁂</div>\n\n[^{q}_1]: https://example.org/{t}/{q}/1\n\n'
                         f"[^{q}_2]: https://example.org/{t}/{q}/2\n\n")
        (folder / f"thread-{t}.md").write_text(logo + "---\n\n".join(parts), encoding="utf-8")
    return folder


def vk_archive(folder: Path, messages: int) -> Path:
    """VK's archive: 10 chats, pages of 50 messages in Windows-1251, newest first, 1 in 10 a photo alone."""
    rng = random.Random(52)
    months = ("янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек")
    per = -(-messages // 10)
    for c in range(10):
        msgs = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            t = T0 + timedelta(seconds=i * 60)
            who = "Вы" if i % 2 else f'<a href="https://vk.com/id{c}">Имя {c}</a>'
            body = "" if i % 10 == 0 else _sentence(rng)
            kl = '<div class="attachment"><div class="attachment__description">Фотография</div></div>' if i % 10 == 0 else ""
            msgs.append(f'<div class="item"><div class="item__main"><div class="message" data-id="{i}">\n'
                        f'<div class="message__header">{who}, {t.day} {months[t.month - 1]} {t.year} в '
                        f'{t.hour}:{t.minute:02d}:{t.second:02d}</div>\n<div>{body}<div class="kludges">{kl}</div></div>'
                        "\n</div></div></div>\n")
        msgs.reverse()
        d = folder / "messages" / str(100 + c)
        d.mkdir(parents=True)
        for p in range(0, len(msgs), 50):
            (d / f"messages{p}.html").write_bytes(
                ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><body>'
                 f'<div class="ui_crumb" >Чат {c}</div>' + "".join(msgs[p:p + 50]) + "</body></html>").encode("cp1251"))
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
            for label, make in (("WeChat MemoTrace pages", lambda d, k: wechat_pages(d / f"wx{k}", k)),
                                ("Rocket.Chat HTML export", lambda d, k: rocketchat_pages(d / f"rch{k}", k)),
                                ("Character.AI chat files", lambda d, k: characterai_files(d / f"cai{k}", k)),
                                ("Copilot activity CSV", lambda d, k: copilot_csv(
                                    d / f"cop{k}" / "Copilot Activity History.csv", k)),
                                ("Perplexity threads", lambda d, k: perplexity_threads(d / f"pplx{k}", k)),
                                ("VK archive pages", lambda d, k: vk_archive(d / f"vk{k}", k))):
                if args.only and args.only.lower() not in label.lower():
                    continue
                path = make(Path(tmp), n)
                best = min((run(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                print(f"| {label} | {n} | {best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} "
                      f"| {best['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
