"""Parse cost of round layouts34's readers and of the paths it touched, as :mod:`bench.import_delivered33` measures
(a fresh subprocess per parse, the registry's parser as ``mem.py import`` calls it, no store): Gemini's My Activity in
HTML, DiscordChatExporter's web page, Microsoft Teams (free)'s messages.json (HTML paragraphs), KakaoTalk's PC text in
the Korean code page, a big ChatGPT export (streamed by ijson), and the Instagram download at its top beside a vault's
worth of notes (detection looks two fixed levels down for its inbox); each at two sizes (linear: the CPU time
doubles). ``--repo`` measures another tree (the base) on the same generated files.

Usage::

    python bench/import_layouts34.py [--messages 100000] [--rounds 1] [--only LABEL] [--repo PATH]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import import_apps  # noqa: E402
from import_apps import _sentence  # noqa: E402
from import_apps32 import chatgpt_branches  # noqa: E402

T0 = datetime(2024, 1, 1)
# import_apps' child, with detection timed too (a folder's detection is part of what this round touched)
_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from importers import ImportReport
from importers.detect import detect
from importers.registry import PARSERS
path = Path(sys.argv[2])
start = time.process_time()
kind = detect(path)
detected = time.process_time() - start
n = sum(1 for _ in PARSERS[kind].parse(path, ImportReport(str(path), kind)))
cpu = time.process_time() - start
hwm = next((int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")), 0)
print(json.dumps({"kind": kind, "cpu": cpu, "detect": detected, "rss_mb": hwm // 1024, "records": n}))
"""


def run(path: Path) -> dict[str, float]:
    """Detection and parse of ``path`` by the tree ``import_apps.REPO`` in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", _CHILD, str(import_apps.REPO), str(path)], capture_output=True,
                         text=True, timeout=3600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def gemini_html(folder: Path, messages: int) -> Path:
    """Takeout's My Activity/Gemini Apps/MyActivity.html: ``messages // 2`` prompts and their answers, newest first."""
    rng = random.Random(81)
    cells = []
    for i in reversed(range(messages // 2)):
        t = T0 + timedelta(minutes=7 * i)
        when = t.strftime("%b %d, %Y, %I:%M:%S\u202f%p") + " CET"
        cells.append('<div class="outer-cell mdl-cell mdl-cell--12-col mdl-shadow--2dp"><div class="mdl-grid">'
                     '<div class="header-cell mdl-cell mdl-cell--12-col"><p class="mdl-typography--title">Gemini Apps'
                     '<br></p></div><div class="content-cell mdl-cell mdl-cell--6-col mdl-typography--body-1">'
                     f'Prompted&nbsp;{_sentence(rng)}<br>{when}<br><p>{_sentence(rng)}</p><p>{_sentence(rng)}</p></div>'
                     '<div class="content-cell mdl-cell mdl-cell--12-col mdl-typography--caption"><b>Products:</b>'
                     '<br>&emsp;Gemini Apps<br></div></div></div>\n')
    page = folder / "Takeout" / "My Activity" / "Gemini Apps" / "MyActivity.html"
    page.parent.mkdir(parents=True)
    page.write_text('<html><head><meta charset="utf-8"><title>My Activity</title></head><body><div class="mdl-grid">'
                    + "".join(cells) + "</div></body></html>", encoding="utf-8")
    return page


def dce_html(path: Path, messages: int) -> Path:
    """A DiscordChatExporter page of ``messages`` messages, groups of five by one author."""
    rng = random.Random(82)
    out = ['<!DOCTYPE html><html lang="en"><head><title>Guild - general</title><meta charset="utf-8"></head><body>'
           '<div class="preamble"><div class="preamble__entries-container"><div class="preamble__entry">Guild</div>'
           '<div class="preamble__entry">Text Channels / general</div></div></div><div class="chatlog">']
    for i in range(messages):
        t = T0 + timedelta(minutes=i)
        title = t.strftime("%A, %B %d, %Y %I:%M %p")
        head = i % 5 == 0
        if head:
            out.append('<div class="chatlog__message-group">')
        mid = 1_200_000_000_000_000_000 + i
        if head:
            who = ("Ana", "Rui")[(i // 5) % 2]
            out.append(f'<div id="chatlog__message-container-{mid}" class="chatlog__message-container" '
                       f'data-message-id="{mid}"><div class="chatlog__message"><div class="chatlog__message-primary">'
                       f'<div class="chatlog__header"><span class="chatlog__author" title="{who.lower()}">{who}</span> '
                       f'<span class="chatlog__timestamp" title="{title}"><a href="#">{t:%m/%d/%Y %I:%M %p}</a></span>'
                       '</div>')
        else:
            out.append(f'<div id="chatlog__message-container-{mid}" class="chatlog__message-container" '
                       f'data-message-id="{mid}"><div class="chatlog__message"><div class="chatlog__message-aside">'
                       f'<div class="chatlog__short-timestamp" title="{title}">{t:%I:%M %p}</div></div>'
                       '<div class="chatlog__message-primary">')
        out.append('<div class="chatlog__content chatlog__markdown"><span class="chatlog__markdown-preserve">'
                   f'{_sentence(rng)}</span></div></div></div></div>\n')
        if i % 5 == 4 or i == messages - 1:
            out.append("</div>")
    out.append("</div></body></html>\n")
    path.write_text("".join(out), encoding="utf-8")
    return path


def teams_json(path: Path, messages: int) -> Path:
    """Teams (free)'s messages.json: 10 chats, newest first, RichText/Html paragraphs."""
    rng = random.Random(83)
    per = -(-messages // 10)
    convs = []
    for c in range(10):
        msgs = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            t = T0 + timedelta(seconds=61 * i)
            mine = i % 2 == 0
            msgs.append({"id": str(i), "displayName": "Tomás" if mine else f"Friend {c}",
                         "originalarrivaltime": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "messagetype": "RichText/Html",
                         "content": f"<p>{_sentence(rng)}</p><p>{_sentence(rng)}</p>", "conversationid": f"19:{c}",
                         "from": "8:live:me" if mine else f"8:live:f{c}", "properties": None, "amsreferences": None})
        convs.append({"id": f"19:{c}@thread.v2", "displayName": f"Friend {c}", "properties": {},
                      "threadProperties": {"topic": None}, "MessageList": list(reversed(msgs))})
    path.mkdir(parents=True)
    (path / "messages.json").write_text(json.dumps({"userId": "8:live:me", "exportDate": "2024-12-01T10:00:00Z",
                                                    "conversations": convs}), encoding="utf-8")
    return path / "messages.json"


def kakaotalk_cp949(path: Path, messages: int) -> Path:
    """KakaoTalk's PC text of ``messages`` messages, saved in the Korean Windows code page."""
    words = ("토요일에", "등산", "갈래", "좋아", "몇", "시에", "아침", "물", "꼭", "챙겨", "내일", "점심")
    rng = random.Random(84)
    lines = ["민지 님과 카카오톡 대화", "저장한 날짜 : 2024-12-01 10:00:00", ""]
    day = None
    for i in range(messages):
        t = T0 + timedelta(minutes=3 * i)
        if t.date() != day:
            day = t.date()
            lines.append(f"--------------- {t.year}년 {t.month}월 {t.day}일 월요일 ---------------")
        ampm = "오전" if t.hour < 12 else "오후"
        lines.append(f"[{'민지' if i % 2 else '토마스'}] [{ampm} {(t.hour % 12) or 12}:{t.minute:02d}] "
                     + " ".join(rng.choice(words) for _ in range(6)))
    path.write_bytes("\r\n".join(lines).encode("cp949"))
    return path


def instagram_beside_notes(folder: Path, messages: int) -> Path:
    """Instagram's 2024 download at its top (``start_here.html``, one chat of ``messages`` messages in 10,000-message
    files), beside ``messages // 10`` Markdown notes in folders (detection must not walk them for the inbox)."""
    rng = random.Random(85)
    chat = folder / "your_instagram_activity" / "messages" / "inbox" / "ana_1"
    chat.mkdir(parents=True)
    (folder / "start_here.html").write_text("<html><body>Your information</body></html>", encoding="utf-8")
    ms0 = int(T0.replace(tzinfo=UTC).timestamp() * 1000)
    rows = [{"sender_name": ("Ana", "Rui")[i % 2], "timestamp_ms": ms0 + i * 60_000, "content": _sentence(rng)}
            for i in range(messages)]
    rows.reverse()
    for n in range(0, messages, 10_000):
        (chat / f"message_{n // 10_000 + 1}.json").write_text(json.dumps(
            {"participants": [{"name": "Ana"}, {"name": "Rui"}], "messages": rows[n:n + 10_000], "title": "Ana"}),
            encoding="utf-8")
    for i in range(messages // 10):
        d = folder / "notes" / f"area{i % 50}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"note {i}.md").write_text(f"# Note {i}\n\n{_sentence(rng)}\n", encoding="utf-8")
    return folder


TABLE_HEAD = ("| export | messages | kind | records | CPU s (of it detection) | records / CPU s | peak RSS MB |\n"
              "|---|---:|---|---:|---:|---:|---:|")


def table_row(best: dict[str, float]) -> str:
    """A timed export's row after its messages column (the best of its runs: records, CPU, detection, memory)."""
    return (f"{best['kind']} | {best['records']} | {best['cpu']:.2f} ({best['detect']:.2f}) "
            f"| {best['records'] / best['cpu']:.0f} | {best['rss_mb']}")


def main() -> None:
    import_apps.time_exports(
        __doc__.split("\n\n")[0],
        (("Gemini My Activity HTML", lambda d, k: gemini_html(d / f"gem{k}", k)),
         ("DiscordChatExporter page", lambda d, k: dce_html(d / f"Guild - general [{k}].html", k)),
         ("Teams messages.json", lambda d, k: teams_json(d / f"teams{k}", k)),
         ("KakaoTalk PC text CP949", lambda d, k: kakaotalk_cp949(d / f"KakaoTalk_{k}.txt", k)),
         ("ChatGPT export (ijson)", lambda d, k: chatgpt_branches(d / f"conversations{k}.json", k)),
         ("Instagram download beside notes", lambda d, k: instagram_beside_notes(d / f"ig{k}", k))),
        run, TABLE_HEAD, table_row)


if __name__ == "__main__":
    main()
