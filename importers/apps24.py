"""Which of round 24's exports a path is, for :mod:`importers.apps` (and so :mod:`importers.detect`): email (a
mailbox, a message, Apple Mail's exported mailbox, Thunderbird's folders), LinkedIn's and Reddit's messages.csv,
Discord's own data package, Tinder's data.json, Hinge's matches.json, Mattermost's bulk export, Microsoft Teams (free)'s zip. By a file's
name and first bytes, a folder's names, a zip's member names and a member's first bytes; nothing is parsed here. Each
answer is a parser's name (:mod:`importers.registry`) or None."""

from __future__ import annotations

import zipfile
from itertools import islice
from pathlib import Path

from importers._zips import ZIP_OPEN_ERRORS

_HEAD_BYTES = 16384
_MAIL_SUFFIXES = (".mbox", ".eml", ".mbx", ".emlx")


def _head(path: Path, size: int = _HEAD_BYTES) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


def head_app(path: Path, body: str) -> str | None:
    """The app of a file by its name and first bytes (``body``: as text)."""
    from importers import hinge, linkedin, mail, mattermost, reddit, tinder

    suffix = path.suffix.lower()
    if suffix in (".mbox", ".eml", ".mbx", ".emlx"):
        return "mail"  # (by its name: one that is no mail is refused by the reader saying why)
    if suffix in ("", ".txt") or path.name == "mbox":
        raw = _head(path, 4096)
        if mail.is_mbox_head(raw) or (suffix == "" and mail.is_eml_head(raw)):
            return "mail"  # Thunderbird's folder files ("Inbox"), Apple's "mbox"
    if suffix == ".csv" and linkedin.is_head(body):
        return "linkedin"
    if suffix == ".csv" and reddit.is_head(body):
        return "reddit"
    if suffix == ".json":
        if tinder.is_head(path.name, body):
            return "tinder"
        if hinge.is_head(path.name, body):
            return "hinge"
    if suffix in (".jsonl", ".ndjson", ".json", "") and mattermost.is_head(body):
        return "mattermost"
    return None


def folder_app(folder: Path) -> str | None:
    """The app of a folder by the names a download puts at its top (Discord's messages/index.json, Hinge's
    matches.json, Tinder's data.json, LinkedIn's messages.csv, Mattermost's import.jsonl)."""
    from importers import hinge, linkedin, mattermost, reddit, tinder

    if (folder / "messages" / "index.json").is_file() or (
            folder.name == "messages" and (folder / "index.json").is_file()
            and next(folder.glob("*/channel.json"), None) is not None):
        return "discord"
    checks = ((hinge.FILE, lambda p, t: hinge.is_head(p.name, t), "hinge"),
              (tinder.FILE, lambda p, t: tinder.is_head(p.name, t), "tinder"),
              (linkedin.FILE, lambda p, t: linkedin.is_head(t), "linkedin"),
              ("messages.csv", lambda p, t: reddit.is_head(t), "reddit"),
              ("import.jsonl", lambda p, t: mattermost.is_head(t), "mattermost"))
    for name, test, app in checks:
        p = folder / name
        if p.is_file() and test(p, _head(p).decode("utf-8", "replace")):
            return app
    return None


def mail_folder(folder: Path) -> bool:
    """Whether a folder holds mail: a mailbox or message among its first few thousand files, three levels deep at most
    (Thunderbird's "Mail/Local Folders/Inbox", Apple's "Name.mbox/mbox", a folder of .eml)."""
    from importers import mail

    # (and Thunderbird's folder of profiles: Profiles/<profile>/Mail/Local Folders/Inbox, ImapMail/<server>/INBOX)
    entries = islice((p for pattern in ("*", "*/*", "*/*/*", "Profiles/*/Mail/*/*", "Profiles/*/ImapMail/*/*")
                      for p in folder.glob(pattern)), 5000)
    for p in entries:
        if any(part.startswith(".") for part in p.relative_to(folder).parts):
            continue
        if (p.suffix.lower() in _MAIL_SUFFIXES or p.suffix == "" or p.name == "mbox") and p.is_file() \
                and mail.is_mail_file(p):
            return True
    # Apple Mail's store keeps each message seven folders down (V10/<account>/INBOX.mbox/<id>/Data/…/Messages)
    return any(p.is_file() and mail.is_mail_file(p) for p in islice(folder.rglob("*.emlx"), 3))


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """The app of a zip: Discord's package, LinkedIn's download, Mattermost's export, Teams' (Skype's) messages.json,
    Tinder's and Hinge's downloads, a zip of mail (a Takeout of Gmail)."""
    from importers import discord_package, hinge, linkedin, mattermost, reddit, skype, tinder

    if discord_package.is_package_names(names):
        return "discord"

    def head(name: str) -> str:
        try:
            with zf.open(name) as fh:
                return fh.read(_HEAD_BYTES).decode("utf-8", "replace")
        except ZIP_OPEN_ERRORS:
            return ""

    for name, base in zip(names, bases, strict=True):
        if base == linkedin.FILE and linkedin.is_head(head(name)):
            return "linkedin"
        if base in reddit.FILES and reddit.is_head(head(name)):
            return "reddit"
        if base == "messages.json" and all(r.search(head(name)) for r in skype.HEAD_RES):
            return "skype"  # Microsoft Teams (free)'s export
        if base == tinder.FILE and tinder.is_head(base, head(name)):
            return "tinder"
        if base == hinge.FILE and hinge.is_head(base, head(name)):
            return "hinge"
        if base.endswith(".jsonl") and mattermost.is_head(head(name)):
            return "mattermost"
    if any(b.endswith((".mbox", ".eml")) for b in bases):
        return "mail"
    return None
