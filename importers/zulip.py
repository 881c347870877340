"""Zulip's organization export ("Export organization" in its settings, or ``manage.py export``): a folder, its
``.tar.gz`` (as the web UI gives it), a plain tar or a zip, holding ``realm.json`` (the organization: its users,
streams, recipients, subscriptions) and ``messages-000001.json``, ``messages-000002.json``, … (``{"zerver_message":
[...]}``, a thousand messages each). A message names its ``sender`` (a user's id), its ``recipient`` (a stream, a
person or a group of people: type 2, 1 and 3), its ``subject`` (the topic), its ``content`` (Markdown) and
``date_sent`` (epoch seconds, UTC; ``pub_date`` in old exports).

Each message is a chat turn ``Full Name: content``: a stream's in "#stream > topic", a direct message in the chat of
its people's names ("Ana Sousa, Rui Costa"), a group's in its members' names. An organization has no owner: every
sender keeps their name. Bots' messages (Welcome Bot, Notification Bot: the export's cross-realm users, a user with
``is_bot``) are system; a message that is only an uploaded file is media. ``realm.json`` is read first and whole; the
message files one at a time, in order, each whole (a thousand messages)."""

from __future__ import annotations

import re
import tarfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from importers import ImportFormatError, ImportReport, Record
from importers._tree import MAX_JSON_FILE_BYTES, MAX_NAMES, Tree, load_json
from importers.chatturns import MEDIA, SYSTEM, Turn, Turns, epoch, text_of

NAME = "zulip"
REALM = "realm.json"
MESSAGES_RE = re.compile(r"messages-(\d{1,9})\.json")
_HEAD_RE = re.compile(r'"zerver_(?:message|realm|userprofile|stream|recipient)"\s*:')
_UPLOAD_RE = re.compile(r"\[[^\]\n]*\]\(/user_uploads/[^)\s]+\)")
_TAR_ERRORS = (tarfile.TarError, EOFError, OSError, zlib.error)
_PERSONAL, _STREAM, _GROUP = 1, 2, 3


def is_head(head: str) -> bool:
    """Whether a JSON file's first bytes are a Zulip export's (realm.json's or a messages file's keys)."""
    return head.lstrip("\ufeff \t\r\n")[:1] == "{" and bool(_HEAD_RE.search(head[:65536]))


def is_export_names(bases: list[str]) -> bool:
    """Whether an archive's or folder's file names are a Zulip export's: realm.json and a messages-N.json."""
    return REALM in bases and any(MESSAGES_RE.fullmatch(b) for b in bases)


def tar_names(path: Path, limit: int = 2000) -> tuple[list[str], str | None]:
    """The first member names of a tar (gzip'd or not): those read before any damage, and the damage (None: none)."""
    names: list[str] = []
    try:
        with tarfile.open(path, "r:*") as tar:
            for member in tar:
                names.append(member.name)
                if len(names) >= limit:
                    break
    except _TAR_ERRORS as exc:
        return names, str(exc) or type(exc).__name__
    return names, None


class _Tar:
    """A tar's files by name: its members listed once, the archive kept open so that each file is read when its turn
    comes (a .tar.gz is decompressed once through when its message files lie in their order, as Zulip writes them)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.names: list[str] = []
        self.members: dict[str, tarfile.TarInfo] = {}
        try:
            self.tar = tarfile.open(path, "r:*")
            for member in self.tar:
                if member.isfile():
                    self.names.append(member.name)
                    self.members[member.name] = member
                if len(self.names) >= MAX_NAMES:
                    break
        except _TAR_ERRORS as exc:
            raise ImportFormatError(f"damaged tar archive ({' '.join(str(exc).split())[:80]})", str(path)) from None

    def where(self, name: str) -> str:
        return f"{self.path}!{name}"

    def read(self, name: str, limit: int = MAX_JSON_FILE_BYTES) -> bytes:
        member = self.members[name]
        if member.size > limit:
            raise ImportFormatError(f"file larger than {limit} bytes", self.where(name))
        try:
            fh = self.tar.extractfile(member)
            data = fh.read() if fh is not None else b""
        except _TAR_ERRORS as exc:
            raise ImportFormatError(f"damaged tar archive ({' '.join(str(exc).split())[:80]})", self.where(name)) from None
        return data


def parse(path: Path, report: ImportReport, **_options: Any) -> Iterator[Record]:
    """Records of a Zulip export (folder, tar, tar.gz, zip, or its realm.json / a messages file given alone: their
    folder is read); bad input: a one-line ImportFormatError."""
    named = str(path)  # what an error names: the path given
    if path.is_file() and path.suffix.lower() == ".json":
        path = path.parent
    magic = b""
    if path.is_file():
        with path.open("rb") as fh:
            magic = fh.read(262)
    if magic[:2] == b"\x1f\x8b" or magic[257:262] == b"ustar":
        tar = _Tar(path)
        try:
            yield from _records(tar, named, report)
        finally:
            tar.tar.close()
        return
    yield from _records(Tree(path), named, report)


def _records(tree: Tree | _Tar, named: str, report: ImportReport) -> Iterator[Record]:
    bases = {n.rsplit("/", 1)[-1]: n for n in tree.names}
    if REALM not in bases:
        raise ImportFormatError(f"no {REALM} of a Zulip export beside its messages", named)
    people = _Realm(load_json(tree.read(bases[REALM]), tree.where(bases[REALM])), tree.where(bases[REALM]))
    files = sorted((int(m.group(1)), n) for b, n in bases.items() if (m := MESSAGES_RE.fullmatch(b)))
    if not files:
        raise ImportFormatError("no messages-000001.json of a Zulip export", named)
    turns = Turns(NAME, report)
    for _, name in files:
        where = tree.where(name)
        obj = load_json(tree.read(name), where)
        messages = obj.get("zerver_message") if isinstance(obj, dict) else None
        if not isinstance(messages, list):
            raise ImportFormatError('no "zerver_message" list', where)
        for i, msg in enumerate(messages, start=1):
            rec = _turn(msg, i, people, turns, where)
            if rec is not None:
                yield rec


class _Realm:
    """realm.json's people and places: user ids to names (bots apart), recipients to chat names."""

    def __init__(self, realm: Any, where: str) -> None:
        if not isinstance(realm, dict):
            raise ImportFormatError("realm.json is not an object", where)
        self.names: dict[Any, str] = {}
        self.bots: set[Any] = set()
        for key in ("zerver_userprofile", "zerver_userprofile_mirrordummy", "zerver_userprofile_crossrealm"):
            for user in _rows(realm, key, where):
                uid = user.get("id")
                self.names[uid] = " ".join(text_of(user.get("full_name") or user.get("email") or f"user {uid}").split())
                if key.endswith("crossrealm") or user.get("is_bot") or user.get("bot_type"):
                    self.bots.add(uid)
        streams = {s.get("id"): text_of(s.get("name")) for s in _rows(realm, "zerver_stream", where)}
        members: dict[Any, list[Any]] = {}
        for sub in _rows(realm, "zerver_subscription", where):
            members.setdefault(sub.get("recipient"), []).append(sub.get("user_profile"))
        self.recipients: dict[Any, tuple[Any, Any]] = {}
        self.streams = streams
        self.members = members
        for r in _rows(realm, "zerver_recipient", where):
            self.recipients[r.get("id")] = (r.get("type"), r.get("type_id"))
        realms = _rows(realm, "zerver_realm", where)
        self.realm = text_of(realms[0].get("string_id") or realms[0].get("name")) if realms else ""

    def thread(self, sender: Any, recipient: Any, topic: str, what: str, where: str) -> str:
        """The chat of a message: "#stream > topic", or its people's names (the sender's among them)."""
        kind, target = self.recipients.get(recipient, (None, None))
        if kind == _STREAM:
            stream = self.streams.get(target) or f"stream {target}"
            return f"#{stream} > {topic}" if topic else f"#{stream}"
        if kind == _PERSONAL:
            ids = {sender, target}
        elif kind == _GROUP:
            ids = {sender, *self.members.get(recipient, [])}
        else:
            raise ImportFormatError(f'{what}: "recipient" {str(recipient)[:20]} is no recipient of realm.json', where)
        return ", ".join(sorted(self.names.get(i, f"user {i}") for i in ids))


def _rows(realm: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    rows = realm.get(key) or []
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ImportFormatError(f'"{key}" is not a list of objects', where)
    return rows


def _turn(msg: Any, i: int, people: _Realm, turns: Turns, where: str) -> Record | None:
    if not isinstance(msg, dict):
        raise ImportFormatError(f"message {i}: not an object", where)
    what = f"message {msg.get('id', i)}"
    sender = msg.get("sender")
    if sender not in people.names:
        raise ImportFormatError(f'{what}: "sender" {str(sender)[:20]} is no user of realm.json', where)
    key = "date_sent" if "date_sent" in msg else "pub_date"
    when = epoch(msg.get(key), 1, f'{what}: "{key}"', where)
    thread = people.thread(sender, msg.get("recipient"), text_of(msg.get("subject") or msg.get("topic_name")).strip(),
                           what, where)
    if sender in people.bots:
        turns.skip(SYSTEM)
        return None
    text = text_of(msg.get("content"))
    if _UPLOAD_RE.search(text) and not _UPLOAD_RE.sub("", text).strip():
        turns.skip(MEDIA)  # an uploaded file alone: its link is no words
        return None
    ident = msg.get("id")
    ref = f"{NAME}:{people.realm}:{ident}" if isinstance(ident, int) and not isinstance(ident, bool) else None
    return turns.record(Turn(thread=thread, author=people.names[sender], when=when, text=text, ref=ref,
                             metadata={"message_id": ident} if ref else {}))
