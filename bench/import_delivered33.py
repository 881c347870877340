"""Parse cost of round layouts33's readers and of the paths it touched, as :mod:`bench.import_apps` measures the
others (a fresh subprocess per parse, the registry's parser as ``mem.py import`` calls it, no store): sigtop's JSON
(10 chats, 1 in 10 a photo alone, 1 in 20 a timer notice), a WhatsApp iOS zip whose video is 2 GB (deflated zeros:
the zip is small, the member is not; the chat is read, the video never opened), Telegram Desktop's "Both" given as
the folder above it (result.json beside the same messages as pages: read once now, twice before), and a folder of two
ChatGPT downloads ("conversations.json" and "conversations (1).json", streamed by ijson); each at two sizes (linear:
the CPU time doubles). ``--repo`` measures another tree (the base) on the same generated files.

Usage::

    python bench/import_delivered33.py [--messages 100000] [--rounds 1] [--only LABEL] [--repo PATH]
"""

from __future__ import annotations

import json
import random
import sys
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import import_apps  # noqa: E402
from import_apps import _sentence, run  # noqa: E402
from import_apps32 import chatgpt_branches  # noqa: E402

T0 = datetime(2024, 1, 1)
E0 = 1_704_067_200  # T0 as Unix time
BIG_MEMBER = 2 * 1024 ** 3  # the video's size once unzipped


def sigtop_json(folder: Path, messages: int) -> Path:
    """sigtop's JSON: 10 chats of Signal Desktop message objects, 1 in 10 a photo alone, 1 in 20 a timer notice."""
    rng = random.Random(71)
    per = -(-messages // 10)
    (folder / "messages").mkdir(parents=True)
    for c in range(10):
        rows: list[dict[str, Any]] = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            ms = (E0 + i * 60) * 1000
            if i % 20 == 19:
                rows.append({"type": "timer-notification", "sent_at": ms, "conversationId": f"c{c}"})
                continue
            out = i % 2 == 1
            row: dict[str, Any] = {"type": "outgoing" if out else "incoming", "sent_at": ms, "timestamp": ms,
                                   "conversationId": f"c{c}", "body": _sentence(rng), "attachments": []}
            if not out:
                row["source"] = f"+35191000{c:04d}"
            if i % 10 == 0:
                row.update(body="", attachments=[{"contentType": "image/jpeg", "fileName": "IMG.jpg"}])
            rows.append(row)
        (folder / "messages" / f"Friend {c} (+35191000{c:04d}).json").write_text(json.dumps(rows), encoding="utf-8")
    return folder


def whatsapp_zip_big_video(path: Path, messages: int) -> Path:
    """iOS's "Export chat" zip: _chat.txt of ``messages`` lines and a 2 GB video (zeros, deflated to ~2 MB)."""
    rng = random.Random(72)
    lines = []
    for i in range(messages):
        t = T0 + timedelta(seconds=i * 61)
        lines.append(f"[{t:%d/%m/%Y, %H:%M:%S}] {'Ana' if i % 2 else 'Rui'}: {_sentence(rng)}")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("_chat.txt", "\n".join(lines) + "\n")
        with zf.open("00000042-VIDEO-2024-01-01-00-00-00.mp4", "w", force_zip64=True) as member:
            block = bytes(1 << 24)
            for _ in range(BIG_MEMBER // len(block)):
                member.write(block)
    return path


def telegram_both(folder: Path, messages: int) -> Path:
    """Telegram Desktop's "Both" of one chat in ``ChatExport_…/`` (result.json and messages*.html pages of the same
    messages, 1,000 a page), given as the folder above it."""
    rng = random.Random(73)
    chat = folder / "ChatExport_2024-01-01"
    chat.mkdir(parents=True)
    msgs, pages, page = [], [], []
    for i in range(messages):
        t = E0 + i * 61
        text = _sentence(rng)
        who = "Ana Sousa" if i % 2 else "Rui Costa"
        msgs.append({"id": i + 1, "type": "message", "date": datetime.fromtimestamp(t, UTC).replace(tzinfo=None)
                     .isoformat(), "date_unixtime": str(t), "from": who, "from_id": f"user{i % 2}", "text": text,
                     "text_entities": [{"type": "plain", "text": text}]})
        stamp = datetime.fromtimestamp(t, UTC).strftime("%d.%m.%Y %H:%M:%S")
        page.append(f'<div class="message default clearfix" id="message{i + 1}"><div class="body">'
                    f'<div class="pull_right date details" title="{stamp} UTC+00:00">00:00</div>'
                    f'<div class="from_name">{who}</div><div class="text">{text}</div></div></div>')
        if len(page) == 1000 or i == messages - 1:
            pages.append(page)
            page = []
    (chat / "result.json").write_text(json.dumps({"name": "Obras", "type": "private_group", "id": 77,
                                                  "messages": msgs}), encoding="utf-8")
    for n, body in enumerate(pages, start=1):
        name = "messages.html" if n == 1 else f"messages{n}.html"
        (chat / name).write_text('<!DOCTYPE html><html><head><meta charset="utf-8"/><title>Exported Data</title>'
                                 '</head><body><div class="page_wrap"><div class="page_header"><div class="content">'
                                 '<div class="text bold">Obras</div></div></div><div class="page_body chat_page">'
                                 '<div class="history">' + "".join(body) + "</div></div></div></body></html>",
                                 encoding="utf-8")
    return folder


def chatgpt_two_downloads(folder: Path, messages: int) -> Path:
    """A folder of two ChatGPT downloads: the older (half the conversations) and "conversations (1).json" (all)."""
    folder.mkdir(parents=True)
    chatgpt_branches(folder / "conversations (1).json", messages)
    chatgpt_branches(folder / "conversations.json", messages // 2)
    return folder


def main() -> None:
    import_apps.time_exports(
        __doc__.split("\n\n")[0],
        (("sigtop JSON", lambda d, k: sigtop_json(d / f"sigtop{k}", k)),
         ("WhatsApp zip with a 2 GB video", lambda d, k: whatsapp_zip_big_video(d / f"WhatsApp Chat - Ana {k}.zip", k)),
         ("Telegram Both, the folder above", lambda d, k: telegram_both(d / f"tg{k}", k)),
         ("ChatGPT two downloads", lambda d, k: chatgpt_two_downloads(d / f"gpt{k}", k))),
        run, "| export | messages | records | CPU s | records / CPU s | peak RSS MB |\n|---|---:|---:|---:|---:|---:|",
        lambda best: f"{best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} | {best['rss_mb']}")


if __name__ == "__main__":
    main()
