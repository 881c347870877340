"""Parse cost of round layouts32's readers and of the paths it touched, as :mod:`bench.import_apps` measures the
others (a fresh subprocess per parse, the registry's parser as ``mem.py import`` calls it, no store): sigtop's text
export (10 chats, 1 in 10 a photo, 1 in 25 with a reaction), a ChatGPT conversations.json with branches (40 turns a
conversation, every 5th prompt edited and every 7th answer regenerated: streamed by ijson, the other branches
counted), a Claude conversations.json with an edited question every 10 turns, an Instagram download whose 1 in 10
messages is "sent an attachment.", and Google Contacts' CSV; each at two sizes (linear: the CPU time doubles).
``--repo`` measures another tree (the base) on the same generated files.

Usage::

    python bench/import_apps32.py [--messages 100000] [--rounds 1] [--only LABEL] [--repo PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import import_apps  # noqa: E402
from import_apps import _sentence, run  # noqa: E402

T0 = datetime(2024, 1, 1)
E0 = 1_704_067_200  # T0 as Unix time


def sigtop_text(folder: Path, messages: int) -> Path:
    """sigtop's text output: 10 chats, 1 in 10 messages a photo alone, 1 in 25 with a reaction."""
    rng = random.Random(61)
    per = -(-messages // 10)
    (folder / "messages").mkdir(parents=True)
    for c in range(10):
        lines = [f"Conversation: Friend {c} (+35191000{c:04d})", ""]
        for i in range(c * per, min(messages, (c + 1) * per)):
            sent = (T0 + timedelta(seconds=i * 60)).strftime("%a, %d %b %Y %H:%M:%S +0000")
            out = i % 2 == 1
            lines += ["From: You" if out else f"From: Friend {c} (+35191000{c:04d})",
                      f"Type: {'outgoing' if out else 'incoming'}", f"Sent: {sent}"]
            if not out:
                lines.append(f"Received: {sent}")
            if i % 10 == 0:
                lines += ["Attachment: IMG.jpg (image/jpeg, 1000 bytes)", ""]
                continue
            if i % 25 == 0:
                lines.append("Reaction: 👍 from You")
            lines += ["", _sentence(rng), ""]
        (folder / "messages" / f"Friend {c}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _gpt_node(nid: str, parent: str | None, children: list[str], role: str, text: str, t: float) -> dict[str, Any]:
    return {"id": nid, "parent": parent, "children": children, "message": {
        "id": nid, "author": {"role": role}, "create_time": t, "content": {"content_type": "text", "parts": [text]},
        "metadata": {}, "recipient": "all"}}


def chatgpt_branches(path: Path, messages: int) -> Path:
    """conversations.json: conversations of 40 turns on the kept branch; every 5th prompt has an edited-away first
    version (with its answer), every 7th answer a regenerated one; streamed to the file a conversation at a time."""
    rng = random.Random(62)
    with path.open("w", encoding="utf-8") as fh:
        fh.write("[")
        for c, start in enumerate(range(0, messages, 40)):
            mapping: dict[str, dict[str, Any]] = {"root": {"id": "root", "parent": None, "children": [], "message": None}}
            parent = "root"
            for i in range(start, min(messages, start + 40), 2):
                t = float(E0 + i * 60)
                q, a = f"q{i}", f"a{i}"
                if (i // 2) % 5 == 0:  # an edited prompt: its first version and that version's answer
                    mapping[f"x{i}"] = _gpt_node(f"x{i}", parent, [f"y{i}"], "user", _sentence(rng), t - 30)
                    mapping[f"y{i}"] = _gpt_node(f"y{i}", f"x{i}", [], "assistant", _sentence(rng), t - 20)
                    mapping[parent]["children"].append(f"x{i}")
                mapping[q] = _gpt_node(q, parent, [a], "user", _sentence(rng), t)
                mapping[parent]["children"].append(q)
                if (i // 2) % 7 == 0:  # a regenerated answer: the first one left on its branch
                    mapping[f"r{i}"] = _gpt_node(f"r{i}", q, [], "assistant", _sentence(rng), t + 5)
                    mapping[q]["children"].insert(0, f"r{i}")
                mapping[a] = _gpt_node(a, q, [], "assistant", _sentence(rng), t + 10)
                parent = a
            conv = {"title": f"chat {c}", "create_time": float(E0 + start * 60), "conversation_id": f"c{c}",
                    "current_node": parent, "mapping": mapping}
            fh.write(("," if c else "") + json.dumps(conv))
        fh.write("]")
    return path


def claude_branches(path: Path, messages: int) -> Path:
    """conversations.json of Claude: conversations of 40 messages, an edited question (and its answer) every 10."""
    rng = random.Random(63)
    root = "00000000-0000-4000-8000-000000000000"
    convs = []
    for c, start in enumerate(range(0, messages, 40)):
        msgs: list[dict[str, Any]] = []
        parent = root
        for i in range(start, min(messages, start + 40), 2):
            when = (T0 + timedelta(seconds=i * 60)).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
            if (i // 2) % 5 == 0:
                msgs.append({"uuid": f"x{i}", "sender": "human", "created_at": when, "parent_message_uuid": parent,
                             "content": [{"type": "text", "text": _sentence(rng)}]})
            for uuid, sender in ((f"q{i}", "human"), (f"a{i}", "assistant")):
                msgs.append({"uuid": uuid, "sender": sender, "created_at": when, "parent_message_uuid": parent,
                             "content": [{"type": "text", "text": _sentence(rng)}]})
                parent = uuid
        convs.append({"uuid": f"k{c}", "name": f"chat {c}", "created_at": msgs[0]["created_at"],
                      "current_leaf_message_uuid": parent, "chat_messages": msgs})
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


def instagram_attachments(folder: Path, messages: int) -> Path:
    """An Instagram download: 10 chats, newest first, 1 in 10 messages "… sent an attachment." with a shared post."""
    rng = random.Random(64)
    per = -(-messages // 10)
    for c in range(10):
        d = folder / "your_instagram_activity" / "messages" / "inbox" / f"chat{c}_1"
        d.mkdir(parents=True)
        rows: list[dict[str, Any]] = []
        for i in range(c * per, min(messages, (c + 1) * per)):
            who = "a" if i % 2 == 0 else "b"
            row: dict[str, Any] = {"sender_name": who, "timestamp_ms": (E0 + i * 60) * 1000, "content": _sentence(rng)}
            if i % 10 == 0:
                row.update(content=f"{who} sent an attachment.", share={"link": f"https://www.instagram.com/p/{i}/"})
            rows.append(row)
        rows.reverse()
        for n, k in enumerate(range(0, len(rows), 10_000), start=1):
            (d / f"message_{n}.json").write_text(json.dumps(
                {"participants": [{"name": "a"}, {"name": "b"}], "title": f"chat{c}", "messages": rows[k:k + 10_000]}))
    return folder


def contacts_csv(path: Path, messages: int) -> Path:
    """Google Contacts' CSV (2024 layout), a tenth of ``messages`` rows (contacts are fewer than messages)."""
    rows = ["First Name,Middle Name,Last Name,Nickname,Organization Name,Birthday,Notes,Labels,"
            "E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value"]
    for i in range(max(1, messages // 10)):
        rows.append(f"Person,,{i},P{i},,,Met at the market,* myContacts ::: Friends,* Home,p{i}@example.org,"
                    f"Mobile,+351 91{i:07d},Work,+351 21{i:07d}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--only", default="", help="run the exports whose label holds this text")
    ap.add_argument("--repo", default="", help="measure this tree's importers (e.g. the base) instead of this one")
    args = ap.parse_args()
    if args.repo:
        import_apps.REPO = Path(args.repo).resolve()
    print("| export | messages | records | CPU s | records / CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.messages // 2, args.messages):
            for label, make in (("sigtop text", lambda d, k: sigtop_text(d / f"sigtop{k}", k)),
                                ("ChatGPT with branches", lambda d, k: chatgpt_branches(d / f"conversations{k}.json", k)),
                                ("Claude with branches", lambda d, k: claude_branches(_made(d / f"claude{k}") /
                                                                                      "conversations.json", k)),
                                ("Instagram attachments", lambda d, k: instagram_attachments(d / f"iga{k}", k)),
                                ("Google contacts CSV", lambda d, k: contacts_csv(d / f"contacts{k}.csv", k))):
                if args.only and args.only.lower() not in label.lower():
                    continue
                path = make(Path(tmp), n)
                best = min((run(path) for _ in range(args.rounds)), key=lambda r: r["cpu"])
                print(f"| {label} | {n} | {best['records']} | {best['cpu']:.2f} | {best['records'] / best['cpu']:.0f} "
                      f"| {best['rss_mb']} |", flush=True)


if __name__ == "__main__":
    main()
