"""An email's own words, for :mod:`importers.mail`: its headers decoded (RFC 2047 words in any charset, raw 8-bit
bytes in their code page), its body chosen (the first text/plain part that is no attachment, else the HTML one made
lines), decoded in its charset (ISO-8859-1 read as Windows-1252, as mail programs do: Outlook declares the one and
writes the other's "€"; GB2312 as GB18030; an unknown charset in the code page the bytes read as, with a warning),
and cut to what the sender wrote: the quoted reply ("On … wrote:" in the languages mail programs write it, lines of
"> ", Outlook's "From:/Sent:" block and its separators) and the signature after "-- " are left out."""

from __future__ import annotations

import codecs
import re
from email.errors import HeaderParseError
from email.header import Header, decode_header
from email.message import Message

from importers import html_notes
from importers.codepages import guess

# the charsets mail programs declare for what they wrote in another (the WHATWG Encoding Standard's readings)
_CHARSET_READS = {"iso-8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252", "us-ascii": "cp1252",
                  "ascii": "cp1252", "iso-8859-9": "cp1254", "iso-8859-11": "cp874", "gb2312": "gb18030",
                  "gbk": "gb18030", "x-gbk": "gb18030", "ks_c_5601-1987": "cp949", "euc-kr": "cp949",
                  "shift_jis": "cp932", "x-sjis": "cp932", "windows-874": "cp874", "utf8": "utf-8",
                  "unicode-1-1-utf-7": "utf-7", "x-mac-roman": "mac_roman"}


def codec_of(charset: str | None) -> str | None:
    """The Python codec that reads ``charset`` as mail programs mean it, or None for a name no codec has."""
    if not charset:
        return None
    name = charset.strip().strip('"').lower()
    name = _CHARSET_READS.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode_bytes(data: bytes, charset: str | None) -> tuple[str, str | None]:
    """``data`` as text in ``charset`` (a damaged byte replaced), and a warning when the charset is no known one (the
    bytes are then read as UTF-8 when they are, else in the code page they read as)."""
    codec = codec_of(charset)
    if codec is not None:
        return data.decode(codec, "replace"), None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode(guess(data)[0], "replace")
    return text, (f"charset {charset!r} unknown, read as its bytes read" if charset else None)


def header_text(value: object) -> str:
    """A header's text: RFC 2047 words decoded in their charsets, raw 8-bit bytes (carried as surrogates by the
    parser) in UTF-8 or their code page; folded lines joined."""
    if value is None:
        return ""
    try:  # (a header of raw 8-bit bytes comes as a Header in charset "unknown-8bit")
        parts = decode_header(value if isinstance(value, Header) else str(value))
    except (ValueError, LookupError, AssertionError, UnicodeError, HeaderParseError):  # a damaged encoded word
        parts = [(str(value), None)]
    out = []
    for piece, charset in parts:
        if isinstance(piece, str):
            out.append(_raw_bytes(piece))
        elif charset and charset.lower() != "unknown-8bit":
            out.append(decode_bytes(piece, charset)[0])
        else:
            out.append(decode_bytes(piece, None)[0])
    return " ".join("".join(out).split())


def _raw_bytes(text: str) -> str:
    """Text the parser read as ASCII, its 8-bit bytes kept as surrogates: those bytes in UTF-8, else their code page."""
    if not any("\udc80" <= ch <= "\udcff" for ch in text):
        return text
    data = text.encode("ascii", "surrogateescape")
    return decode_bytes(data, None)[0]


def is_attachment(part: Message) -> bool:
    """A part sent as a file (its disposition, or a name of its own), not as the words of the message."""
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    return disposition == "attachment" or (disposition != "inline" and bool(part.get_param("name")))


def body(msg: Message) -> tuple[str, list[str], list[str]]:
    """(the message's words, the names of its attached files, warnings): the first plain-text part that is no
    attachment, else the first HTML one as lines; parts inside a forwarded message (message/rfc822) are its own."""
    plain = html = None
    files: list[str] = []
    warnings: list[str] = []
    for part in _parts(msg):
        ctype = part.get_content_type()
        if is_attachment(part) or not ctype.startswith("text/"):
            if not part.is_multipart() and ctype not in ("message/delivery-status", "text/rfc822-headers"):
                files.append(header_text(part.get_filename() or ctype))
            continue
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and html is None:
            html = part
    chosen = plain if plain is not None else html
    if chosen is None:
        return "", files, warnings
    payload = chosen.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else str(payload or "").encode("utf-8", "surrogateescape")
    text, warning = decode_bytes(data, chosen.get_content_charset())
    if warning:
        warnings.append(warning)
    if chosen is html:
        text = "\n".join(html_notes.to_lines(text, ""))
    return own_words(text), files, warnings


def _parts(msg: Message) -> list[Message]:
    """The leaf parts of ``msg`` in order, a forwarded message's parts included (at most 500: a bomb of parts is no
    email anyone wrote)."""
    out: list[Message] = []
    stack = [msg]
    while stack and len(out) < 500:
        part = stack.pop(0)
        inner = part.get_payload() if part.is_multipart() or part.get_content_type() == "message/rfc822" else None
        if isinstance(inner, list):
            stack = [p for p in inner if isinstance(p, Message)] + stack
        else:
            out.append(part)
    return out


# "On Thu, 14 Mar 2024 at 19:01, Ana <a@b> wrote:", in the languages mail programs write it (one or two lines)
_WROTE = (r"wrote|schrieb|a écrit|escribió|escreveu|ha scritto|schreef|napisał\(a\)|napisała|napisał|skrev|kirjoitti|"
          r"написал\(а\)|написала|написал|napsal|yazdı|έγραψε|כתב|כתבה|كتب|写道|寫道|書きました|작성")
# (German and others name the sender after the verb: "Am 04.03.2024 um 10:02 schrieb Ana Sousa <a@b>:")
_ATTRIBUTION_RE = re.compile(rf"(?:{_WROTE})(?:\s*[:：]?|\s[^\n]{{1,120}}[:：])\s*$", re.IGNORECASE)
_ATTRIBUTION_START_RE = re.compile(r"^(?:On|Am|Le|El|Em|Il|Op|W dniu|Den|På|Dne|В|Στις|Dana|Pada|在|于|於)\s", re.IGNORECASE)
_JA_ATTRIBUTION_RE = re.compile(r"^\d{4}年\d{1,2}月\d{1,2}日.*[:：]$")  # Gmail in Japanese: "2024年3月18日(月) 9:30 佐藤 <a@b>:"
_SEPARATOR_RE = re.compile(r"^\s*(?:-{3,}\s*[^-\n]{3,60}?\s*-{3,}|_{20,}|\*{20,})\s*$")
_FORWARD_RE = re.compile(r"forward|weitergeleitet|transféré|reenviado|encaminhad|inoltrato|doorgestuurd|przekazan", re.IGNORECASE)
_FROM_RE = re.compile(r"^\*?(?:From|De|Von|Van|Da|Od|Från|Fra|Lähettäjä|От|Kimden|送信者|发件人|寄件者|差出人|보낸 사람)\*?\s?[:：]", re.IGNORECASE)
_SENT_RE = re.compile(r"^\*?(?:Sent|Date|Envoyé|Gesendet|Datum|Enviado|Enviada|Fecha|Verzonden|Inviato|Data|Wysłano|"
                      r"Skickat|Sendt|Lähetetty|Отправлено|Gönderildi|送信日時|发送时间|寄件日期|日付|보낸 날짜)\*?\s?[:：]", re.IGNORECASE)


def own_words(text: str) -> str:
    """The sender's own words of a plain-text body: up to a reply's attribution or Outlook's quoted header block, up
    to the signature ("-- "), without quoted lines ("> "); blank-line runs made one, lines' trailing blanks dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    cut = len(lines)
    for i, line in enumerate(lines):
        stripped = line.strip()
        if line in ("-- ", "--"):
            cut = i
            break
        if (_SEPARATOR_RE.match(line) or stripped.endswith(":")) and _FORWARD_RE.search(line) and len(stripped) < 80:
            break  # "---------- Forwarded message ---------", "Begin forwarded message:": what follows is the message
        if _SEPARATOR_RE.match(line):
            if any(_FROM_RE.match(n.strip()) for n in lines[i + 1:i + 3]) or "-----" in line:
                cut = i
                break
        if i > 0 and _FROM_RE.match(stripped) and any(_SENT_RE.match(n.strip()) for n in lines[i + 1:i + 4]):
            cut = i
            break
        if stripped.startswith(">"):
            continue
        if _JA_ATTRIBUTION_RE.match(stripped):
            cut = i
            break
        if _ATTRIBUTION_RE.search(stripped):
            prev = lines[i - 1].strip() if i > 0 else ""
            two = bool(prev) and not _ATTRIBUTION_START_RE.match(stripped) and bool(_ATTRIBUTION_START_RE.match(prev))
            said = f"{prev} {stripped}" if two else stripped
            # an attribution names a time and starts as one or names an address: "what she wrote:" is no quote's head
            if re.search(r"\d", said) and (_ATTRIBUTION_START_RE.match(said) or "@" in said):
                cut = i - 1 if two else i
                break
    kept = [ln.rstrip() for ln in lines[:cut] if not ln.lstrip().startswith(">")]
    out: list[str] = []
    for line in kept:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)
