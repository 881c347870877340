"""Which chat app's export a path is (Telegram, Slack, Discord, Messenger/Instagram, iMessage, LINE, KakaoTalk,
SMS Backup & Restore, Google Chat/Hangouts, Signal via signal-export, Skype, Viber, WeChat via MemoTrace, Threema,
Element/Matrix, X archive DMs, Google Voice), for
:mod:`importers.detect`: by the keys in a JSON file's first bytes, the shape of a text's first lines, a folder's
or a zip's names. Each answer is a parser's name (:mod:`importers.registry`) or None; nothing is parsed here."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from importers import apps23, apps24, apps25, apps28, apps29, apps30, apps31, apps32, apps35

_TELEGRAM_TYPES = r'"type"\s*:\s*"(?:personal_chat|bot_chat|private_group|private_supergroup|public_supergroup|' \
                  r'private_channel|public_channel|saved_messages|replies)"'
_JSON_APPS = (
    ("telegram", (_TELEGRAM_TYPES, r'"messages"\s*:')),
    ("telegram", (r'"chats"\s*:\s*\{', r'"(?:personal_information|about)"\s*:')),
    # a whole account's export whose contacts list fills the first bytes ("chats" comes after it)
    ("telegram", (r'^\s*\{\s*"about"\s*:', r'"personal_information"\s*:\s*\{')),
    ("discord", (r'"guild"\s*:', r'"channel"\s*:', r'"messages"\s*:')),
    ("messenger", (r'"sender_name"', r'"timestamp_ms"')),
    ("messenger", (r'"participants"\s*:', r'"(?:threadName|senderName)"\s*:')),
    # Skype's messages.json: the owner's id, then the conversations and their MessageList
    ("skype", (r'"userId"\s*:', r'"conversations"\s*:\s*[\[{]')),  # ({: damaged, said by the reader)
    # Google Chat's Groups/<space>/messages.json; Hangouts.json of the older Takeout
    ("googlechat", (r'"creator"\s*:', r'"created_date"\s*:')),
    ("googlechat", (r'"conversations"\s*:\s*\[', r'"(?:conversation_id|participant_data|event_type)"\s*:')),
    ("googlechat", (r'"conversation_state"\s*:\s*\[', r'"(?:conversation_id|participant_data|event_type)"\s*:')),
)
# a Slack day: YYYY-MM-DD.json, a list of messages with their "ts"
SLACK_DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}\.json")
_SLACK_MESSAGE_RE = re.compile(r'^\s*\[\s*(?:\]|\{[^\[\]]*?"(?:type|ts|user|text|subtype)"\s*:)')
_TEXT_APPS = (
    # DiscordChatExporter: its plain text ("=====", "Guild: ...", "Channel: ...") and its CSV's header
    ("discord", re.compile(r"^={20,}\r?\nGuild: [^\n]*\r?\nChannel: ")),
    ("discord", re.compile(r'^"?AuthorID"?,"?Author"?,"?Date"?,"?Content"?,')),
    # imessage-exporter: "Mar 14, 2024  6:01:12 PM (Read by you after 1 minute)", the sender, the words
    ("imessage", re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4} {1,2}\d{1,2}:\d{2}:\d{2} [AP]M(?: \([^)\n]*\))?\r?\n[^\n]+\r?\n")),
    # Telegram Desktop's web page of a chat
    ("telegram", re.compile(r'<div class="message (?:default|service)')),
    # Telegram Desktop's "copy as text": "Ana Sousa, [13.03.24 15:00]" then the message, a blank line between
    ("telegram", re.compile(r"^[^\n,\[\]]{1,80}, \[\d{1,2}[./]\d{1,2}[./]\d{2,4},? \d{1,2}:\d{2}(?::\d{2})?"
                            r"(?: ?[AaPp]\.? ?[Mm]\.?)?\]\r?\n")),
    # LINE: "[LINE] Chat history with Ana" (any UI language), tab-separated lines after
    ("line", re.compile(r"^\[LINE\] ")),
    # KakaoTalk: its text's header (Korean, English), its CSV's
    ("kakaotalk", re.compile(r"^[^\n]{1,80}님과 카카오톡 대화|^KakaoTalk Chats with |^Talk with [^\n]{1,80}\r?\nDate Saved ?: ")),
    # any title line (the chat's name alone, as a phone writes it) above KakaoTalk's "Date Saved" line
    ("kakaotalk", re.compile(r"^[^\n]{1,80}\r?\n(?:Date Saved|저장한 날짜) ?: [^\n]*\d")),
    ("kakaotalk", re.compile(r'^"?Date"?,"?User"?,"?Message"?\r?\n')),
    # SMS Backup & Restore: <smses> after the XML declaration, its comment and its style sheet
    ("sms", re.compile(r"^<\?xml[^>]*\?>\s*(?:<!--.*?-->\s*|<\?xml-stylesheet[^>]*\?>\s*)*<smses[\s>]", re.DOTALL)),
)
_CALLS_RE = re.compile(r"^<\?xml[^>]*\?>\s*(?:<!--.*?-->\s*|<\?xml-stylesheet[^>]*\?>\s*)*<calls[\s>]", re.DOTALL)
_FILE_APPS = {"imessage", "discord", "line", "kakaotalk", "sms"}
_PAGE_RE = re.compile(r"messages\d*\.html", re.IGNORECASE)
_TAKEOUT_RE = re.compile(r"(?:^|/)(?:Google Chat/Groups/[^/]+/messages\.json|Hangouts/Hangouts\.json)$")
_INBOX_RE = re.compile(r"(?:^|/)messages/(?:inbox|archived_threads|filtered_threads|message_requests|e2ee_cutover)/"
                       r"[^/]+/message_\d+\.json$")


def json_app(head: str, path: Path) -> str | None:
    """The app whose JSON export starts with ``head`` (a file's first bytes as text), or None."""
    for name, keys in _JSON_APPS:
        if all(re.search(k, head) for k in keys):
            return name
    if SLACK_DAY_RE.fullmatch(path.name) and _SLACK_MESSAGE_RE.match(head) and re.search(r'"ts"\s*:', head):
        return "slack"
    return None


def text_app(head: str) -> str | None:
    """The app whose text export (a page, a CSV, plain text) starts with ``head``, or None."""
    head = head.lstrip("\ufeff \t\r\n")[:20000]
    return next((name for name, pattern in _TEXT_APPS if pattern.search(head)), None)


def folder_app(folder: Path) -> str | None:
    """The app whose export ``folder`` is, by its own names (one level, and a Messenger chat's message_N.json);
    a Facebook or Instagram download, whose chats lie deep below it, by :func:`deep_folder_app`."""
    try:
        names = {p.name.lower() for p in folder.iterdir()}
    except OSError:
        return None
    if {"channels.json", "users.json"} <= names:
        return "slack"
    app = apps24.folder_app(folder) or apps25.folder_app(folder) or apps28.folder_app(folder) or \
        apps29.folder_app(folder) or apps30.folder_app(folder) or apps31.folder_app(folder) or \
        apps32.folder_app(folder) or apps35.folder_app(folder)
    # (Discord's package, …, Rocket.Chat's, WechatExporter's pages, signal-export's JSON)
    if app:
        return app
    if "result.json" in names and (folder / "result.json").is_file():
        return "telegram"
    if any(_PAGE_RE.fullmatch(n) for n in names):
        page = folder / ("messages.html" if "messages.html" in names else sorted(n for n in names if _PAGE_RE.fullmatch(n))[0])
        try:
            with page.open("rb") as fh:
                head = fh.read(20000).decode("utf-8", "replace")
        except OSError:
            return None
        if text_app(head) == "telegram":
            return "telegram"
    if "message_1.json" in names:
        return "messenger"
    days = [n for n in names if SLACK_DAY_RE.fullmatch(n)]
    if days and len(days) * 2 >= len(names):  # a channel's folder of days (exported alone)
        try:
            head = (folder / sorted(days)[0]).read_bytes()[:4096].decode("utf-8", "replace")
        except OSError:
            return None
        if json_app(head, folder / sorted(days)[0]) == "slack":
            return "slack"
    if "export_results.html" in names and any(p.is_dir() for p in folder.glob("chats/chat_*")):
        return "telegram"  # a whole account's web pages: chats/chat_001/messages.html, ...
    return chat_folder_app(folder, names) or files_app(folder) or apps25.late_folder_app(folder)


def files_app(folder: Path) -> str | None:
    """The app of a folder whose text files (the first few looked at) are all that app's exports: imessage-exporter
    writes a folder of them, one per conversation; LINE, KakaoTalk and SMS Backup & Restore one file per chat or
    backup (a call log beside the messages is left out)."""
    texts = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".txt", ".csv", ".xml") and p.is_file()
                   and not p.name.startswith("."))
    found = set()
    for p in texts[:5]:
        try:
            with p.open("rb") as fh:
                head = fh.read(4096).decode("utf-8", "replace")
        except OSError:
            return None
        if not _CALLS_RE.match(head.lstrip("\ufeff \t\r\n")):
            found.add(text_app(head))
    return found.pop() if len(found) == 1 and found <= _FILE_APPS else None


def chat_folder_app(folder: Path, names: set[str]) -> str | None:
    """Google Chat or Hangouts (a Takeout, its "Google Chat" folder, a space's folder), Skype's export folder, or
    signal-export's folder of chats (a chat.md per chat), by the folder's names and a look at one file's head."""
    from importers import signal

    for rel in ("Groups", "Google Chat/Groups", "Takeout/Google Chat/Groups"):
        if next((folder / rel).glob("*/messages.json"), None) is not None:
            return "googlechat"
    for rel in ("Hangouts.json", "Hangouts/Hangouts.json", "Takeout/Hangouts/Hangouts.json"):
        if (folder / rel).is_file():
            return "googlechat"
    if "messages.json" in names and (folder / "messages.json").is_file():
        try:
            with (folder / "messages.json").open("rb") as fh:
                app = json_app(fh.read(65536).decode("utf-8", "replace"), folder / "messages.json")
        except OSError:
            return None
        if app in ("googlechat", "skype"):
            return app
    if "chat.md" in names and signal.is_chat(folder / "chat.md"):
        return "signal"
    subs = sorted(p / "chat.md" for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    if any(signal.is_chat(p) for p in subs[:20] if p.is_file()):
        return "signal"
    pages = [folder / "index.html", *(p.parent / "index.html" for p in subs[:20])]
    if any(p.is_file() and signal.is_page(p) for p in pages):
        return "signal"  # signal-export's web pages without their chat.md
    return round22_folder_app(folder, names)


def app_files(folder: Path, app: str) -> list[Path]:
    """The files of ``folder`` (top level, sorted) that are ``app``'s text exports."""
    out = []
    for p in sorted(folder.iterdir()):
        if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in (".txt", ".csv", ".json", ".html"):
            with p.open("rb") as fh:
                head = fh.read(4096).decode("utf-8", "replace")
            if text_app(head) == app or json_app(head, p) == app or (  # DiscordChatExporter's pages too
                    app == "discord" and p.suffix.lower() == ".html" and head_app(p, head) == app):
                out.append(p)
    return out


def meta_download(folder: Path) -> bool:
    """Whether ``folder`` is Instagram's or Facebook's download at its top (its chats in ``messages/inbox/`` or in
    the download's own ``your_instagram_activity/messages/inbox/<chat>/message_1.json``), asked before notes are
    looked for: the download's ``start_here.html`` is no note. Looks at fixed places, not through the whole tree
    (a vault of notes is not walked for it)."""
    for top in _META_TOPS:
        for name in ("message_*.json", "message_*.html"):
            if next(folder.glob(f"{top}messages/inbox/*/{name}"), None) is not None:
                return True
    return False


# the download's own top folders holding messages/ (2024 on), or none (before): a folder holding a download's folder
# among notes ("Documents/facebook-x/messages/inbox") is not one, and stays what it was
_META_TOPS = ("", "your_instagram_activity/", "your_activity_across_facebook/", "this_profile's_activity_across_facebook/")


def deep_folder_app(folder: Path) -> str | None:
    """``messenger`` for a folder holding Facebook's or Instagram's chats below it (messages/inbox/<chat>/message_1.json);
    ``mail`` for one holding mailboxes or messages (asked only once no notes were found: a vault is no mail)."""
    for pattern in ("**/messages/inbox/*/message_*.json", "**/messages/*/*/message_*.json",
                    "**/messages/inbox/*/message_*.html"):  # a download asked in HTML
        if next(folder.glob(pattern), None) is not None:
            return "messenger"
    return "mail" if apps24.mail_folder(folder) else None


def zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """The app whose export a zip is, by its members' names (a Telegram page by its first bytes too)."""
    if {"channels.json", "users.json"} <= set(bases):
        return "slack"
    if "result.json" in bases:
        return "telegram"
    if any(_INBOX_RE.search(n.lower()) for n in names):
        return "messenger"
    if any(_TAKEOUT_RE.search(n) for n in names):
        return "googlechat"
    app = round22_zip_app(zf, names, bases) or apps23.zip_app(zf, names, bases) or apps24.zip_app(zf, names, bases) or \
        apps25.zip_app(zf, names, bases) or apps28.zip_app(zf, names, bases) or apps29.zip_app(zf, names, bases) or \
        apps35.zip_app(zf, names, bases)
    if app:
        return app
    for name, base in zip(names, bases, strict=True):
        if _PAGE_RE.fullmatch(base):
            try:
                with zf.open(name) as fh:
                    head = fh.read(20000).decode("utf-8", "replace")
            except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError):
                return None
            return "telegram" if text_app(head) == "telegram" else None
    texts = [n for n, b in zip(names, bases, strict=True) if b.endswith(".txt")]
    if texts and len(texts) <= 20:  # chats copied from Telegram Desktop as text, zipped
        heads = []
        for name in texts:
            try:
                with zf.open(name) as fh:
                    heads.append(text_app(fh.read(4096).decode("utf-8", "replace")))
            except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError):
                return None
        if set(heads) == {"telegram"}:
            return "telegram"
    return None


# --- round 22: Viber, WeChat (MemoTrace), Threema, Element (Matrix), X archive DMs, Google Voice, signal-export's HTML


def head_app(path: Path, head: str) -> str | None:
    """The app whose export a file is by its name and first bytes (``head`` as text), for the layouts whose first
    line alone is no proof: a Threema messages.txt (WhatsApp's lines look alike), a script of X's archive, a web
    page of Google Voice or signal-export, a CSV of Viber or MemoTrace, MemoTrace's text."""
    from importers import discord_html, googlevoice, matrix, signal_html, threema, twitter, viber, wechat

    suffix = path.suffix.lower()
    body = head.lstrip("\ufeff")
    if suffix in (".html", ".htm") and discord_html.is_page(body):
        return "discord"  # DiscordChatExporter's web page (its default format)
    found = apps23.head_app(path, body) or apps24.head_app(path, body) or apps25.head_app(path, body) or \
        apps28.head_app(path, body) or apps29.head_app(path, body) or apps30.head_app(path, body) or \
        apps31.head_app(path, body) or apps32.head_app(path, body) or apps35.head_app(path, body)
    if found:
        return found
    if suffix == ".js" or body.startswith("window.YTD."):
        return "twitter" if twitter.is_dm_head(body) else None
    if body.lstrip().startswith("{") and matrix.is_export_head(body):
        return "matrix"
    if suffix in (".html", ".htm"):
        if googlevoice.is_page_head(body):
            return "googlevoice"
        if signal_html.is_page_head(body):
            return "signal"
        return None
    if path.name.lower() == threema.MESSAGES and threema.is_messages(body):
        return "threema"
    if wechat.CSV_HEAD_RE.match(body) or wechat.is_txt_head(body):
        return "wechat"
    if viber.is_head(body):
        return "viber"
    return None


def round22_folder_app(folder: Path, names: set[str]) -> str | None:
    """The app of a folder of round 22's exports, by its names and a look at a few files' heads (one level down at
    most: a notes vault is never walked for this)."""
    from importers import googlevoice, threema, twitter

    if googlevoice.calls_folder(folder) is not None:
        return "googlevoice"
    data = folder / "data" if "data" in names else folder
    try:
        if any(twitter.FILE_RE.fullmatch(p.name) for p in data.iterdir() if p.is_file()):
            return "twitter"
    except OSError:
        return None
    if threema.MESSAGES in names and (folder / threema.MESSAGES).is_file():
        return _head_kind(folder / threema.MESSAGES)
    # a plain .txt is looked at only where MemoTrace puts it (<chat>/<chat>.txt): a folder of notes that start with
    # a time is no chat
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")
                   and (p.suffix.lower() in (".csv", ".json") or p.name == f"{folder.name}.txt"))
    subs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    for sub in subs[:50]:  # MemoTrace: 聊天记录/<chat>/<chat>.csv; Threema: <chat>/messages.txt
        files += [sub / f"{sub.name}.csv", sub / f"{sub.name}.txt", sub / threema.MESSAGES]
    found = {_head_kind(p) for p in files[:60] if p.is_file()} - {None}
    if len(found) == 1:
        return found.pop()
    if any(p.suffix.lower() == ".zip" and p.name.lower().startswith("viber") for p in folder.iterdir()):
        return "viber"
    return apps23.folder_app(folder, names)


def _head_kind(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            head = fh.read(8192).decode("utf-8", "replace")
    except OSError:
        return None
    return head_app(path, head)


def round22_zip_app(zf: zipfile.ZipFile, names: list[str], bases: list[str]) -> str | None:
    """The app whose export a zip is, among round 22's: X's archive (data/direct-messages.js), a Threema export
    (messages.txt, no WhatsApp _chat.txt), a Google Voice Takeout (Voice/Calls/*.html), a zip of Viber's CSVs."""
    from importers import threema, twitter, viber

    if any(twitter.FILE_RE.fullmatch(b) for b in bases):
        return "twitter"
    if threema.MESSAGES in bases and "_chat.txt" not in bases:
        return "threema"
    if any(re.search(r"(?:^|/)Voice/Calls/[^/]+\.html?$", n) for n in names):
        return "googlevoice"
    csvs = [n for n, b in zip(names, bases, strict=True) if b.endswith(".csv")]
    if csvs and len(csvs) == len([b for b in bases if not b.endswith("/")]):
        try:
            with zf.open(csvs[0]) as fh:
                head = fh.read(4096).decode("utf-8", "replace")
        except (OSError, zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError):
            return None
        if viber.is_head(head):
            return "viber"
    return None
