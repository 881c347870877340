"""Parse cost of round layouts35's readers and of the paths it touched, as :mod:`bench.import_layouts34` measures (a
fresh subprocess per parse, detection timed too, no store): the two web pages now read a block at a time (Gemini's My
Activity, DiscordChatExporter's page: peak RSS is the point), Element's HTML export, Daylio's CSV, Diaro's backup, a
folder of Telegram's copied texts, and a big ChatGPT export (streamed by ijson, untouched: the control); each at two
sizes. ``--repo`` measures another tree (the base) on the same generated files.

Usage::

    python bench/import_layouts35.py [--messages 100000] [--rounds 1] [--only LABEL] [--repo PATH]
"""

from __future__ import annotations

import random
import sys
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import import_apps  # noqa: E402
from import_apps import _sentence  # noqa: E402
from import_apps32 import chatgpt_branches  # noqa: E402
from import_layouts34 import TABLE_HEAD, dce_html, gemini_html, run, table_row  # noqa: E402

T0 = datetime(2024, 1, 1)
EL = "matrix - Bench Room - Chat Export - 2024-12-01T10-00-00.000Z"


def element_html(folder: Path, messages: int) -> Path:
    """Element's HTML export unzipped (the room's folder): one messages.html of ``messages`` tiles (every third a continuation)."""
    rng = random.Random(35)
    room = folder / EL
    room.mkdir(parents=True)
    with (room / "messages.html").open("w", encoding="utf-8") as out:
        out.write('<!DOCTYPE html><html><head><script src="js/script.js"></script></head><body>'
                  '<div class="mx_RoomView"><div class="mx_RoomHeader_name">Bench Room</div><ol>\n')
        for i in range(messages):
            t = T0 + timedelta(minutes=3 * i)
            who = "" if i % 3 else (f'<div class="mx_DisambiguatedProfile"><span class="mx_DisambiguatedProfile_displayName">'
                                    f'{rng.choice(["Ana", "Kofi", "Priya"])}</span></div>')
            cont = " mx_EventTile_continuation" if i % 3 else ""
            out.write(f'<div class="mx_Export_EventWrapper" id="$e{i}"><li class="mx_EventTile{cont}" data-scroll-tokens="$e{i}">'
                      f'{who}<div class="mx_EventTile_line"><a href="#$e{i}"><span class="mx_MessageTimestamp" '
                      f'title="{t.strftime("%a, %b %d, %Y, %H:%M:%S")}">{t.strftime("%H:%M")}</span></a>'
                      f'<div class="mx_EventTile_body" dir="auto">{_sentence(rng)}</div></div></li></div>\n')
        out.write("</ol></div></body></html>\n")
    return room


def daylio_csv(path: Path, messages: int) -> Path:
    """Daylio's CSV export: ``messages`` entries, newest first."""
    rng = random.Random(36)
    rows = ["full_date,date,weekday,time,mood,activities,note_title,note"]
    for i in reversed(range(messages)):
        t = T0 + timedelta(hours=7 * i)
        rows.append(f'{t:%Y-%m-%d},{t:%B %d},{t:%A},{t:%H:%M},good,friends | reading,,"{_sentence(rng)}"')
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def diaro_zip(path: Path, messages: int) -> Path:
    """Diaro's backup zip: ``messages`` entries, each on its own offset."""
    rng = random.Random(37)
    rows = []
    for i in range(messages):
        ms = int((T0.replace(tzinfo=UTC) + timedelta(hours=5 * i)).timestamp() * 1000)
        rows.append(f"<r><uid>e{i}</uid><date>{ms}</date><tz_offset>+01:00</tz_offset><title>Day {i}</title>"
                    f"<text>{_sentence(rng)}</text><folder_uid></folder_uid><tags>,t1,</tags></r>")
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="2"><table name="diaro_tags"><r><uid>t1</uid>'
           '<title>life</title></r></table><table name="diaro_entries">' + "\n".join(rows) + "</table></data>\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("DiaroBackup.xml", xml)
    return path


def telegram_copies(folder: Path, messages: int) -> Path:
    """A folder of 10 chats copied out of Telegram Desktop as text, ``messages`` in all."""
    rng = random.Random(38)
    folder.mkdir(parents=True)
    for c in range(10):
        lines = []
        for i in range(messages // 10):
            t = T0 + timedelta(minutes=2 * i)
            lines.append(f"{rng.choice(['Ana', 'Tomás'])}, [{t:%d.%m.%Y %H:%M}]\n{_sentence(rng)}\n")
        (folder / f"Chat {c}.txt").write_text("\n".join(lines), encoding="utf-8")
    return folder


def main() -> None:
    import_apps.time_exports(
        __doc__.split("\n\n")[0],
        (("Gemini My Activity HTML", lambda d, k: gemini_html(d / f"gem{k}", k)),
         ("DiscordChatExporter page", lambda d, k: dce_html(d / f"Guild - general [{k}].html", k)),
         ("Element HTML export", lambda d, k: element_html(d / f"el{k}", k)),
         ("Daylio CSV", lambda d, k: daylio_csv(d / f"daylio_export_{k}.csv", k)),
         ("Diaro backup", lambda d, k: diaro_zip(d / f"Diaro_{k}.zip", k)),
         ("Telegram copied folder", lambda d, k: telegram_copies(d / f"tg{k}", k)),
         ("ChatGPT export (ijson)", lambda d, k: chatgpt_branches(d / f"conversations{k}.json", k))),
        run, TABLE_HEAD, table_row)


if __name__ == "__main__":
    main()
