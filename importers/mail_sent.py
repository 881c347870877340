"""Whether a mailbox is the owner's sent mail, by its name as mail programs write it in the UI's language: Apple
Mail's "Sent Messages.mbox", Thunderbird's "Sent" (or "Gesendet", "Enviados", "送信済み" …, a file without suffix),
Outlook's "Sent Items" exported, a folder of .eml under such a name. Gmail's Takeout says it per message by its
"Sent" label instead (:mod:`importers.mail`). Mail in a sent mailbox is the owner's: ``from_me``."""

from __future__ import annotations

import re

# Sent folders' names in the languages mail programs ship (casefolded; ".mbox"/".sbd" taken off before comparing)
SENT_NAMES = frozenset(name.casefold() for name in (
    "Sent", "Sent Messages", "Sent Items", "Sent Mail", "Sent Email", "Sent-Mail",
    "Gesendet", "Gesendete Objekte", "Gesendete Elemente", "Gesendete Nachrichten",
    "Enviados", "Elementos enviados", "Mensajes enviados", "Correo enviado", "Itens Enviados", "Mensagens Enviadas",
    "Envoyés", "Éléments envoyés", "Messages envoyés", "Courrier envoyé",
    "Inviata", "Posta inviata", "Inviati", "Elementi inviati", "Verzonden", "Verzonden items",
    "Wysłane", "Elementy wysłane", "Odeslané", "Odoslané", "Elküldött", "Elküldött elemek", "Trimise",
    "Skickat", "Skickade objekt", "Sendt", "Sendte elementer", "Sendte", "Lähetetyt", "Lähetetyt kohteet",
    "Gönderilen", "Gönderilmiş Öğeler", "Отправленные", "Надіслані", "Изпратени", "Απεσταλμένα",
    "送信済み", "送信済みメール", "送信済みアイテム", "已发送", "已發送", "已傳送", "已发送邮件", "寄件備份",
    "보낸편지함", "보낸 편지함", "المرسلة", "العناصر المرسلة", "נשלחו", "דואר יוצא", "פריטים שנשלחו",
    "ส่งแล้ว", "Đã gửi", "Terkirim", "Item Terkirim",
))
_SUFFIX_RE = re.compile(r"\.(?:mbox|sbd|mbx)$", re.IGNORECASE)
_MESSAGE_RE = re.compile(r"\.(?:partial\.)?emlx$|\.eml$", re.IGNORECASE)


def is_sent(where: str) -> bool:
    """Whether the mail at ``where`` (a path; a zip's as ``zip!member``) lies in a sent mailbox: an mbox file so
    named (Apple's "Name.mbox/mbox": the folder's name), or, for a message file (.eml, .emlx), the nearest folder
    named ".mbox" above it, else its own folder."""
    parts = [p for p in re.split(r"[/\\!]", where) if p]
    if not parts:
        return False
    if _MESSAGE_RE.search(parts[-1]):
        boxes = [p for p in parts[:-1] if _SUFFIX_RE.search(p)]
        name = boxes[-1] if boxes else (parts[-2] if len(parts) > 1 else "")
    elif parts[-1] == "mbox" and len(parts) > 1:
        name = parts[-2]
    else:
        name = parts[-1]
    return _SUFFIX_RE.sub("", name).strip().casefold() in SENT_NAMES
