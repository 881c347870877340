"""Hinge's "Download My Data": matches.json (alone, in the download's folder or zip), a list with one object per
person: "match" (when), "chats" (the messages the owner sent: {"body", "timestamp": "2024-02-10 19:25:40"}), "like"
(a like the owner sent, with its comment), "we_met", "block". Only the owner's words are in it: they are "me"
(``from_me``). Each person is a chat ("Hinge match 1", by their place in the list: the download names no one); a
like's comment is a turn (``like``); matches, meetings and blocks carry no words. Times are UTC."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import Tree, load_json
from importers.chatturns import Turn, Turns, text_of

NAME = "hinge"
FILE = "matches.json"
_KEY_RE = re.compile(r'"(?:match|chats|like|we_met|block)"\s*:\s*\[')
_TIME_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6})\d*)?(?:Z|\+00:?00)?$")


def is_head(name: str, head: str) -> bool:
    """Whether a JSON file is Hinge's matches.json, by its name and its keys."""
    return name.lower() == FILE and head.lstrip("\ufeff \t\r\n")[:1] in ("[", "{") and bool(_KEY_RE.search(head))


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of matches.json, its folder or its zip; bad input: a one-line ImportFormatError."""
    if path.is_file() and path.suffix.lower() == ".json":
        data, where = path.read_bytes(), str(path)
    else:
        tree = Tree(path)
        name = next((n for n in tree.names if n.rsplit("/", 1)[-1].lower() == FILE), None)
        if name is None:
            raise ImportFormatError(f"no {FILE} of a Hinge download", str(path))
        data, where = tree.read(name), tree.where(name)
    people = load_json(data, where)
    if not isinstance(people, list):
        raise ImportFormatError(f"{FILE} is not a list of matches", where)
    turns = Turns(NAME, report)
    for n, person in enumerate(people, start=1):
        if not isinstance(person, dict):
            raise ImportFormatError(f"match {n} is not an object", where)
        said = []
        for key in ("chats", "like"):
            entries = person.get(key) or []
            if not isinstance(entries, list):
                raise ImportFormatError(f'match {n}: "{key}" is not a list', where)
            for i, entry in enumerate(entries, start=1):
                what = f"match {n}, {key} {i}"
                if not isinstance(entry, dict):
                    raise ImportFormatError(f"{what}: not an object", where)
                if key == "chats":
                    said.append((_time(entry.get("timestamp"), what, where), text_of(entry.get("body")), False))
                    continue
                inner = entry.get("like")
                comments = inner if isinstance(inner, list) else [entry]
                for c in comments:
                    if isinstance(c, dict) and text_of(c.get("comment")).strip():
                        said.append((_time(c.get("timestamp") or entry.get("timestamp"), what, where),
                                     text_of(c.get("comment")), True))
        for when, text, like in sorted(said, key=lambda s: s[0]):
            metadata: dict[str, Any] = {"from_me": True, "match": n}
            if like:
                metadata["like"] = True
            rec = turns.record(Turn(thread=f"Hinge match {n}", author="me", when=when, text=text, metadata=metadata))
            if rec is not None:
                yield rec


def _time(value: Any, what: str, where: str) -> datetime:
    m = _TIME_RE.match(value.strip()) if isinstance(value, str) else None
    try:
        if m:
            y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
            return datetime(y, mo, d, h, mi, s, int((m.group(7) or "0").ljust(6, "0")), tzinfo=timezone.utc)
    except ValueError:
        pass
    raise ImportFormatError(f'{what}: "timestamp" is no date ({str(value)[:40]!r})', where)
