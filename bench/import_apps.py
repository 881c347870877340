"""Parse cost of the chat apps' exports: a Telegram Desktop result.json of N messages (a full export: several chats,
entity lists, replies, service lines), a Slack workspace folder of N messages (channels, days, threads,
mentions), an SMS Backup & Restore XML of N messages (sms sent and received, 1 in 10 an MMS with a base64 photo)
and a LINE text export of N lines (day lines, 1 in 8 a quoted message of three lines, stickers), each at two sizes
(the second twice the first: linear means the CPU time doubles, not quadruples; streamed means the peak RSS stays
flat).

Each parse runs in a fresh subprocess (the registry's parser, as ``mem.py import`` calls it, without the store):
the table prints CPU seconds, records per CPU second, peak RSS and the records it gave.

Usage::

    python bench/import_apps.py [--messages 50000] [--rounds 1]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

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


def run(path: Path) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(REPO), str(path)], capture_output=True, text=True,
                         timeout=3600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    print("| export | messages | records | CPU s | records / CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.messages // 2, args.messages):
            for label, make in (("Telegram result.json", lambda d, k: telegram(d / f"result{k}.json", k)),
                                ("Slack workspace folder", lambda d, k: slack(d / f"slack{k}", k)),
                                ("SMS Backup & Restore XML", lambda d, k: sms_xml(d / f"sms-{k}.xml", k)),
                                ("LINE text (lines)", lambda d, k: line_text(d / f"line{k}.txt", k))):
                path = make(Path(tmp), n)
                best = min((run(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                print(f"| {label} | {n} | {best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} "
                      f"| {best['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
