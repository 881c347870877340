"""vCard (.vcf) parser.

Formats handled: vCard 2.1, 3.0 and 4.0 files holding one or many cards
(Android, Gmail, Outlook, iOS exports): quoted-printable values with soft line
breaks, line folding, escapes (``\\,`` ``\\;`` ``\\n``), bare 2.1 type
parameters. Parsed with ``vobject``; a card vobject rejects falls back to a
small built-in reader with a warning, so one bad card never loses the others.

One semantic record per contact ("Contact: Ana García — phone +34 600 123 456;
email ana@x.com; ..."), whose ``aliases`` map every phone number (raw and
normalised ``+digits``) and name variant (FN, N parts, nicknames) to the
display name, so the engine can put names on WhatsApp senders.
"""

from __future__ import annotations

import codecs
import quopri
import re
import zipfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import vobject

from importers import ImportFormatError, ImportReport, Record, vcf_charsets, vcf_csv, vcf_forms, vcf_reach
from importers._common import (
    is_zip,
    iter_lines,
    normalise_phone,
    open_members,
    sha1_hex,
    split_lines,
)

NOTE_CHARS = 300
_NOTES_APART = "\u2029"  # between the values of several NOTE lines (a paragraph separator: never in a vCard value)
_CARD_RE = re.compile(r"^BEGIN:VCARD\s*$(.*?)^END:VCARD\s*$", re.IGNORECASE | re.MULTILINE | re.DOTALL)


@dataclass
class _Contact:
    fn: str = ""
    n_parts: list[str] = field(default_factory=list)  # family, given, additional, prefix, suffix
    nicknames: list[str] = field(default_factory=list)
    tels: list[tuple[str, str]] = field(default_factory=list)  # (type, value)
    emails: list[str] = field(default_factory=list)
    email_kinds: dict[str, str] = field(default_factory=dict)  # email -> its label ("work", "Climbing club")
    org: str = ""
    title: str = ""
    role: str = ""
    bday: str = ""
    dates: list[tuple[str, str]] = field(default_factory=list)  # (label, date): ("anniversary", "2015-06-20")
    adr: list[str] = field(default_factory=list)
    note: str = ""
    uid: str = ""
    categories: list[str] = field(default_factory=list)
    related: list[tuple[str, str]] = field(default_factory=list)  # (name, relation): ("Maria", "spouse")
    reach: vcf_reach.Reach = field(default_factory=vcf_reach.Reach)  # IM handles, social profiles, web pages
    other_names: list[str] = field(default_factory=list)  # a second FN without ALTID: another name they go by


def _join_qp_soft_breaks(card: str) -> str:
    """vCard 2.1 QP values continue on the next line after a trailing '=': join them (in one pass: a value
    of many soft breaks costs linear time). RFC 2045: trailing white space of an encoded line is no part of
    it, so "=  " is a soft break too."""
    out: list[str] = []
    pieces: list[str] | None = None  # the quoted-printable value being joined
    for line in split_lines(card):
        if pieces is None and "QUOTED-PRINTABLE" not in line.split(":", 1)[0].upper():
            out.append(line)
            continue
        line = line.rstrip(" \t")
        if line.endswith("="):
            pieces = [] if pieces is None else pieces
            pieces.append(line[:-1])
            continue
        out.append("".join(pieces) + line if pieces is not None else line)
        pieces = None
    if pieces is not None:
        out.append("".join(pieces))
    return "\r\n".join(out) + "\r\n"


_BASE64_LINE_RE = re.compile(r"[A-Za-z0-9+/]+=*")


def _indent_base64(card: str) -> str:
    """A 2.1 card whose base64 value (a photo) runs on unindented lines up to a blank line, as vCard 2.1 allows
    and older phones write, with those lines folded as later writers fold them (which vobject reads). A line of
    a property always holds a ":", which base64 never does."""
    if "BASE64" not in card.upper():
        return card
    out: list[str] = []
    inside = False
    for line in split_lines(card):
        if inside and line and _BASE64_LINE_RE.fullmatch(line):
            out.append(" " + line)
            continue
        inside = (inside and line[:1] in (" ", "\t")) or (
            ":" in line and "BASE64" in line.split(":", 1)[0].upper())
        out.append(line)
    return "\r\n".join(out) + "\r\n"


def _lines_joined(value: str) -> str:
    """An address part's lines as one ("Rua do Bonfim 12\r\n2.º andar": a street of two lines, CRLF in a 2.1
    quoted-printable value) joined by ", "."""
    return ", ".join(part.strip() for part in re.split(r"\r\n|\r|\n", value) if part.strip())


def _types(params: dict[str, Any], bare: list[str] | None = None) -> str:
    """Comma-joined lowercase types of a property: TYPE= values and vCard 2.1's bare
    parameters (``TEL;CELL;PREF``, which vobject keeps apart as ``singletonparams``)."""
    values: list[str] = [str(b) for b in bare or []]
    for key, vals in params.items():
        if key.upper() == "TYPE":
            values += [str(v) for v in vals]
        elif key.upper() not in ("PREF", "VALUE", "CHARSET", "ENCODING") and not vals:
            values.append(key)  # 2.1 bare params: TEL;CELL;PREF
    flat = [t.strip() for v in values for t in v.split(",")]
    # "X-Werkstatt": a label the user typed (Android, Outlook), not a vCard type
    return ",".join(re.sub(r"^x-", "", t.lower()) for t in flat if t and t.upper() not in ("PREF", "VOICE", "INTERNET"))


def ab_label(value: str) -> str:
    """An Apple ``itemN.X-ABLabel`` value as a plain label: ``_$!<Mobile>!$_`` is ``mobile``, its
    run-together words apart (``_$!<HomeFAX>!$_`` is ``home fax``; ``iPhone`` stays one word)."""
    m = re.fullmatch(r"_\$!<(.*)>!\$_", value.strip())
    return re.sub(r"(?<=[a-z]{2})(?=[A-Z])", " ", m.group(1).strip()).lower() if m else value.strip()


def _kind(*kinds: str) -> str:
    """Labels of a property joined once each, without the meaningless ``other``."""
    flat = [k for part in kinds for k in part.split(",") if k and k != "other"]
    return ",".join(dict.fromkeys(flat))


# Apple writes a birthday without a year as BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15
_OMIT_YEAR = "X-APPLE-OMIT-YEAR"
_DATE_PROPS = {"ANNIVERSARY": "anniversary", "X-ANNIVERSARY": "anniversary", "X-EVOLUTION-ANNIVERSARY": "anniversary",
               "X-ABDATE": ""}  # X-ABDATE: Apple's other dates, named by their X-ABLabel


def _from_vobject(card: Any) -> _Contact:
    c = _Contact()
    # Apple groups a property with its label: item2.TEL + item2.X-ABLabel:Tokyo office
    labels = {str(ch.group).lower(): ab_label(str(ch.value)) for ch in card.getChildren()
              if ch.name.upper() == "X-ABLABEL" and getattr(ch, "group", None)}
    for child in card.getChildren():
        name = child.name.upper()
        value = child.value
        label = labels.get(str(getattr(child, "group", None) or "").lower(), "")
        if name == "FN":
            c.fn = str(value).strip()
        elif name == "N":
            c.n_parts = [
                " ".join(v) if isinstance(v, list) else str(v or "")
                for v in (value.family, value.given, value.additional, value.prefix, value.suffix)
            ]
        elif name == "NICKNAME":
            c.nicknames += [s.strip() for s in (value if isinstance(value, list) else str(value).split(",")) if s.strip()]
        elif name == "TEL":
            c.tels.append((_kind(_types(child.params, getattr(child, "singletonparams", None)), label),
                           str(value).strip()))
        elif name == "EMAIL":
            c.emails.append(str(value).strip())
            c.email_kinds[c.emails[-1]] = _kind(_types(child.params, getattr(child, "singletonparams", None)), label)
        elif name == "ORG":
            c.org = ", ".join(v for v in (value if isinstance(value, list) else [str(value)]) if v)
        elif name == "TITLE":
            c.title = str(value).strip()
        elif name == "BDAY":
            c.bday = _omit_year(str(value).strip(), child.params)
        elif name in _DATE_PROPS:
            c.dates.append((_DATE_PROPS[name] or label or "date", _omit_year(str(value).strip(), child.params)))
        elif name == "ADR":
            parts = [value.street, value.city, value.region, value.code, value.country]
            flat = [" ".join(p) if isinstance(p, list) else str(p or "") for p in parts]
            c.adr.append(", ".join(_lines_joined(p) for p in flat if p and p.strip()))
        elif name == "NOTE":
            c.note = str(value).strip()
        elif name == "UID":
            c.uid = str(value).strip()
        elif name == "CATEGORIES":
            c.categories += [str(v) for v in (value if isinstance(value, list) else [value])]
        elif name in ("RELATED", "X-ABRELATEDNAMES"):
            _add_related(c, str(value), label or _types(child.params, getattr(child, "singletonparams", None)))
    return c


# Android's relation rows (X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;NAME;TYPE;...): ContactsContract types.
_ANDROID_RELATIONS = {"1": "assistant", "2": "brother", "3": "child", "4": "domestic partner", "5": "father",
                      "6": "friend", "7": "manager", "8": "mother", "9": "parent", "10": "partner",
                      "11": "referred by", "12": "relative", "13": "sister", "14": "spouse"}


def _add_related(c: _Contact, value: str, kind: str) -> None:
    """A related person (Apple's X-ABRELATEDNAMES with its label, vCard 4.0 RELATED;TYPE=...): a name, a
    web page (kept as written), or another card's ``urn:uuid:`` (named by :func:`_card_record` when that card
    is in the file); other URIs are no one's name."""
    name = value.strip()
    if not name or (re.match(r"^(?:urn:|[a-z][\w+.-]*:)", name, re.IGNORECASE)
                    and not re.match(r"^(?:urn:uuid:|https?://)\S+$", name, re.IGNORECASE)):
        return
    kinds = [k for k in kind.split(",") if k and k not in ("pref", "text")]
    c.related.append((name, kinds[0] if kinds else ""))


def _unescape(value: str) -> str:
    """RFC 6350 3.4 text escapes: ``\\,`` ``\\;`` ``\\n``/``\\N`` ``\\\\`` (and ``\\:`` of old writers)."""
    return re.sub(r"\\([\\,;nN:])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def split_escaped(value: str, sep: str = ",") -> list[str]:
    """Split a list value on separators no backslash escapes, then unescape each part:
    ``Johnny\\, J,JD`` is ``["Johnny, J", "JD"]``."""
    parts: list[str] = []
    start = i = 0
    while i < len(value):
        if value[i] == "\\":
            i += 2
            continue
        if value[i] == sep:
            parts.append(value[start:i])
            start = i + 1
        i += 1
    parts.append(value[start:])
    return [_unescape(p) for p in parts]


def _raw_values(card: str, name: str) -> list[str]:
    """The raw (still escaped) values of property ``name`` in a card: unfolded, quoted-printable
    decoded. FN and NICKNAME are read from these, not from vobject, which splits FN at an
    unescaped comma ("Doe, John" became "Doe") and NICKNAME at escaped ones."""
    out: list[str] = []
    for line in split_lines(re.sub(r"\r?\n[ \t]", "", card)):
        head, sep, value = line.partition(":")
        if not sep:
            continue
        parts = head.split(";")
        if parts[0].split(".")[-1].upper() != name:
            continue
        params = [p.upper() for p in parts[1:]]
        if any("QUOTED-PRINTABLE" in p for p in params):
            charset = next((p.split("=", 1)[1] for p in params if p.startswith("CHARSET=")), "UTF-8")
            try:
                value = quopri.decodestring(value.encode("latin-1", "replace")).decode(_codec(charset), "replace")
            except LookupError:
                value = quopri.decodestring(value.encode("latin-1", "replace")).decode("utf-8", "replace")
        out.append(value)
    return out


def _codec(charset: str) -> str:
    """The codec a CHARSET parameter names; UTF-8 for a name Python does not know (a typo, a
    vendor's own), so a card's value still decodes (loss shows as U+FFFD, never as an error)."""
    try:
        return codecs.lookup(charset.strip()).name
    except LookupError:
        return "utf-8"


def _fallback(card: str) -> _Contact:
    """Minimal reader for cards vobject refuses: unfold, decode QP, split params."""
    c = _Contact()
    unfolded = re.sub(r"\r?\n[ \t]", "", card)
    for line in split_lines(unfolded):
        if ":" not in line:
            continue
        head, value = line.split(":", 1)
        parts = head.split(";")
        name = parts[0].split(".")[-1].upper()
        params = [p.upper() for p in parts[1:]]
        if any("QUOTED-PRINTABLE" in p for p in params):
            charset = next((p.split("=", 1)[1] for p in params if p.startswith("CHARSET=")), "UTF-8")
            value = quopri.decodestring(value.encode("latin-1", "replace")).decode(_codec(charset), "replace")
        fields = [_unescape(v) for v in re.split(r"(?<!\\);", value)]
        types = ",".join(  # "X-Climbing club": a label the user typed, as _types reads it
            re.sub(r"^x-", "", t.lower())
            for p in params
            if not p.startswith(("CHARSET", "ENCODING", "VALUE", "PREF")) and p not in ("VOICE", "INTERNET")
            for t in p.split("=", 1)[-1].split(",") if t
        )
        if name == "FN":
            c.fn = _unescape(value).strip()
        elif name == "N":
            c.n_parts = (fields + [""] * 5)[:5]
        elif name == "NICKNAME":
            c.nicknames += [s.strip() for s in split_escaped(value) if s.strip()]
        elif name == "TEL":
            c.tels.append((types, _unescape(value).strip()))
        elif name == "EMAIL":
            c.emails.append(_unescape(value).strip())
            c.email_kinds[c.emails[-1]] = _kind(types)
        elif name == "ORG":
            c.org = ", ".join(f for f in fields if f)
        elif name == "TITLE":
            c.title = _unescape(value).strip()
        elif name == "BDAY":
            c.bday = _omit_year(value.strip(), {p.split("=", 1)[0]: [p.split("=", 1)[-1]] for p in params})
        elif name in _DATE_PROPS:
            c.dates.append((_DATE_PROPS[name] or "date", value.strip()))
        elif name == "ADR":
            c.adr.append(", ".join(_lines_joined(f) for f in fields if f.strip()))
        elif name == "NOTE":
            c.note = _unescape(value).strip()
        elif name == "UID":
            c.uid = value.strip()
        elif name == "CATEGORIES":
            c.categories += [f for f in fields[0].split(",") if f]
        elif name in ("RELATED", "X-ABRELATEDNAMES"):
            _add_related(c, _unescape(value), types.lower())
    return c


def _display(c: _Contact) -> str:
    if c.fn:
        return c.fn
    family, given = (c.n_parts + ["", ""])[:2]
    joined = " ".join(p for p in (given, family) if p.strip()).strip()
    # no name at all: what the person is called (a nickname), else the company the card is of (Apple's
    # X-ABShowAs:COMPANY card, an ORG alone), before a way to reach them
    return joined or (c.nicknames[0] if c.nicknames else "") or c.org or (c.emails[0] if c.emails else "") or (
        c.tels[0][1] if c.tels else ""
    )


def _tel(value: str) -> str:
    """A TEL value as shown: vCard 4.0's URI ``tel:+48-22-555-0100;ext=12`` reads
    ``+48-22-555-0100 ext. 12`` (other URI parameters are no part of the number)."""
    number, _, params = re.sub(r"^tel:", "", value.strip(), flags=re.IGNORECASE).partition(";")
    ext = re.search(r"(?:^|;)ext=([^;]+)", params, re.IGNORECASE) if value.lower().startswith("tel:") else None
    if not value.lower().startswith("tel:"):
        return value.strip()
    return number.strip() + (f" ext. {ext.group(1).strip()}" if ext else "")


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _omit_year(value: str, params: dict[str, Any]) -> str:
    """Apple's date of no year (``X-APPLE-OMIT-YEAR=1604`` on ``1604-04-15``) in vCard 4.0's form ``--04-15``."""
    omit = next((v for k, v in params.items() if k.upper() == _OMIT_YEAR), None)
    year = str(omit[0] if isinstance(omit, list) and omit else omit or "")
    return "--" + value[len(year):].lstrip("-") if year and value.startswith(year) else value


def _date(value: str) -> str:
    """A BDAY/ANNIVERSARY as shown: vCard 4.0's basic form ``19880304`` as ``1988-03-04``; a date of
    no year (RFC 6350 ``--0415``, ``--04-15``) as ``15 April``; others as written."""
    # a day written with a time (Apple's 3.0 "1985-03-14T00:00:00Z"): a birthday is the day, the time no fact
    value = re.sub(r"^(\d{4}-?\d{2}-?\d{2})T\d{2}:?\d{2}(?::?\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$", r"\1", value.strip())
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", value)
    if m:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    m = re.fullmatch(r"--(\d{2})-?(\d{2})", value)
    if m and 1 <= int(m.group(1)) <= 12 and 1 <= int(m.group(2)) <= 31:
        return f"{int(m.group(2))} {_MONTHS[int(m.group(1)) - 1]}"
    return value


def _record(c: _Contact, line: int, rel: str) -> Record | None:
    # Phone apps write empty fields ("TEL;TYPE=CELL:", "EMAIL:"): nothing to say, no alias to make
    c.tels = [(k, _tel(t)) for k, t in c.tels if re.sub(r"^tel:", "", t.strip(), flags=re.IGNORECASE).strip()]
    birthday = c.bday  # the machine form (RFC 6350: --04-15 has no year) for the metadata
    c.bday = _date(c.bday)
    c.emails = [e for e in c.emails if e.strip()]
    name = _display(c)
    if not name:
        return None
    # RFC 9554 PRONOUNS: the person's own words about themselves, first
    facts: list[str] = [f"pronouns {', '.join(c.reach.pronouns)}"] if c.reach.pronouns else []
    for kind, tel in c.tels:
        tel = re.sub(r"^tel:", "", tel, flags=re.IGNORECASE)
        facts.append(f"phone {tel}" + (f" ({kind})" if kind else ""))
    facts += [f"email {e}" + (f" ({c.email_kinds[e]})" if c.email_kinds.get(e) else "") for e in c.emails]
    facts += c.reach.facts()  # the other ways to reach them, after the e-mails
    if c.org and c.org != name:  # an organisation's own card (KIND:org) names it once
        facts.append(f"org {c.org}")
    if c.title:
        facts.append(f"title {c.title}")
    if c.role:  # what they do there, as their title says what they are
        facts.append(f"role {c.role}")
    if c.bday:
        facts.append(f"birthday {c.bday}")
    facts += [f"{label} {_date(v) if label == 'died' else v}" for label, v in c.reach.life]
    facts += [f"{label} {_date(d)}" for label, d in c.dates if d.strip()]
    facts += [f"address {a}" for a in c.adr if a]
    nicknames = [n for n in c.nicknames if n != name]  # a nickname that names the card is not said twice
    if nicknames:
        facts.append("nickname " + ", ".join(nicknames))
    if c.other_names:
        facts.append("also known as " + ", ".join(c.other_names))
    if c.reach.reading():
        facts.append(f"reading {c.reach.reading()}")
    if c.related:
        facts.append("related " + ", ".join(f"{n} ({k})" if k else n for n, k in c.related))
    facts += [f"{label} {value}" for label, value in c.reach.interests]
    for one in c.note.split(_NOTES_APART) if c.note else []:
        note = re.sub(r"\s+", " ", one).strip()
        if note:
            facts.append("note " + (note[:NOTE_CHARS] + " …" if len(note) > NOTE_CHARS else note))
    content = f"Contact: {name}" + (" — " + "; ".join(facts) if facts else "")
    aliases: dict[str, str] = {}
    for _kind, tel in c.tels:
        raw = re.sub(r"^tel:", "", tel, flags=re.IGNORECASE).split(" ext. ")[0].strip()
        aliases[raw] = name
        norm = normalise_phone(raw)
        if norm:
            aliases[norm] = name
    family, given, additional, _prefix, _suffix = (c.n_parts + [""] * 5)[:5]
    variants = [c.fn, f"{given} {family}", f"{family}, {given}" if family and given else "", given if not family else "",
                f"{given} {additional} {family}", *c.nicknames, *c.other_names, c.reach.reading()]
    for v in variants:
        v = re.sub(r"\s+", " ", v or "").strip().strip(",").strip()
        if v:
            aliases[v] = name
    uid = c.uid or sha1_hex(f"{c.fn or name}|{c.tels[0][1] if c.tels else ''}")[:16]
    return Record(
        content=content,
        ref=f"vcf:{uid}",
        source="vcf",
        memory_type="semantic",
        author=None,
        thread=rel,
        # Google files every contact under "myContacts": a default group, not a category
        tags=[t for t in c.categories if t and t.lower() != "mycontacts"],
        metadata={
            "name": name,
            "phones": [t for _, t in c.tels],
            "emails": c.emails,
            "org": c.org or None,
            "birthday": re.sub(r"^(\d{4})(\d{2})(\d{2})$", r"\1-\2-\3", birthday) or None,
        },
        aliases=aliases,
        line=line,
    )


_BLOB_PROPERTIES = {"PHOTO", "LOGO", "SOUND", "KEY"}  # base64 blobs: never part of a memory
MAX_CARD_CHARS = 4_000_000  # one card; a blob that would pass it is dropped, other text past it skips the card


def _cards(opener: Callable[[], IO[bytes]], file: str, report: ImportReport) -> Iterator[tuple[int, str]]:
    """(line of BEGIN, card text) for each BEGIN:VCARD ... END:VCARD block, streamed a line at
    a time; a PHOTO/LOGO/SOUND/KEY value (and its folded lines) that would take the card past
    MAX_CARD_CHARS is dropped as it passes.

    vCard 2.1's AGENT (the contact's assistant) can hold a whole card, nested: that card is a
    contact of its own (yielded after its holder), and its holder's AGENT line names it."""
    with opener() as fh:
        card: list[str] | None = None
        start = size = 0
        blob = False
        agent: list[str] | None = None  # the nested card being read, and those read, of this card
        agents: list[tuple[int, str]] = []
        agent_start = 0
        damage: list[tuple[int, str]] = []  # a copy damaged on the way: its NULs or cut character dropped, said
        for ln in iter_lines(fh, file, damage=damage):
            text = ln.text
            if card is None:
                if text.strip().upper() == "BEGIN:VCARD":
                    card, start, size, blob = [text], ln.no, len(text), False
                continue
            if agent is not None:
                agent.append(text)
                size += ln.length
                if text.strip().upper() == "END:VCARD":
                    _close_agent(card, agent, agent_start, agents)
                    agent = None
                continue
            if text.strip().upper() == "BEGIN:VCARD" and _AGENT_RE.match(card[-1]):
                agent, agent_start = [text], ln.no
                continue
            if text.strip().upper() == "BEGIN:VCARD":
                report.warn("BEGIN:VCARD without END:VCARD before the next card; card read up to there", start)
                if size <= MAX_CARD_CHARS:
                    yield start, "\r\n".join([*card, "END:VCARD"]) + "\r\n"
                card, start, size, blob = [text], ln.no, len(text), False
                continue
            if text.strip().upper() == "END:VCARD":
                card.append(text)
                if size > MAX_CARD_CHARS:
                    report.skipped_oversized += 1
                    report.warn(f"card of {size} characters (without photos), over the {MAX_CARD_CHARS} limit; "
                                "skipped", start)
                else:
                    yield start, "\r\n".join(card) + "\r\n"
                    yield from agents
                card, agents = None, []
                continue
            if text[:1] in (" ", "\t") and blob:
                continue  # a folded line of a dropped blob
            if text[:1] not in (" ", "\t"):
                name = re.split(r"[;:]", text, maxsplit=1)[0].rsplit(".", 1)[-1].strip().upper()
                # a photo is kept while the card stays small (vobject reads the card as exported);
                # past the cap it is dropped, the contact kept
                blob = name in _BLOB_PROPERTIES and (size + ln.length > MAX_CARD_CHARS or ln.overlong)
                if blob:
                    continue
            size += ln.length
            if size <= MAX_CARD_CHARS:
                card.append(text)
        if card is not None and size <= MAX_CARD_CHARS:
            # A cut-off export (or a hand-edited one): the card's lines are still the contact.
            report.warn("BEGIN:VCARD without END:VCARD (file cut short?); card read up to the end", start)
            if agent is not None:  # cut inside an AGENT's card: what it holds is still a contact
                _close_agent(card, [*agent, "END:VCARD"], agent_start, agents)
            yield start, "\r\n".join([*card, "END:VCARD"]) + "\r\n"
            yield from agents
        for line, what in damage:
            report.warn(what, line)


_INLINE_AGENT_RE = re.compile(r"^(?:[\w-]+\.)?AGENT(?:;[^:\r\n]*)?:(BEGIN:VCARD\\[nN].*)$", re.IGNORECASE | re.MULTILINE)


def _inline_agents(cards: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """``cards``, each followed by the card its vCard 3.0 AGENT holds on one line (line breaks escaped
    as ``\\n``): a contact of its own, named in its holder as a nested 2.1 AGENT card is."""
    for line, raw in cards:
        if "AGENT" not in raw.upper():
            yield line, raw
            continue
        unfolded = re.sub(r"\r?\n[ \t]", "", raw)
        m = _INLINE_AGENT_RE.search(unfolded)
        if m is None:
            yield line, raw
            continue
        nested = _unescape(m.group(1).rstrip("\r")).replace("\r\n", "\n").strip().split("\n")
        card = "\r\n".join(nested) + "\r\n"
        yield line, unfolded[:m.start()] + _close_name(card) + unfolded[m.end():]
        yield line, card


def _close_name(raw: str) -> str:
    """The line that names a nested AGENT card in its holder."""
    name = next((_unescape(v).strip() for v in _raw_values(re.sub(r"\r?\n[ \t]", "", raw), "FN")), "")
    return f"X-ABRELATEDNAMES;TYPE=assistant:{name}" if name else "X-AGENT:"


def _close_agent(card: list[str], agent: list[str], start: int, agents: list[tuple[int, str]]) -> None:
    """A nested AGENT card read whole: kept to be a contact of its own, and named in its holder in place
    of the AGENT line (the last line of ``card``)."""
    raw = "\r\n".join(agent) + "\r\n"
    agents.append((start, raw))
    card[-1] = _close_name(raw)


_AGENT_RE = re.compile(r"^(?:[\w-]+\.)?AGENT(?:;[^:]*)?:\s*$", re.IGNORECASE)  # a nested card follows
_GROUP_RE = re.compile(r"^(?:[\w-]+\.)?(?:X-ADDRESSBOOKSERVER-KIND|KIND)\s*:\s*group\s*$", re.IGNORECASE | re.MULTILINE)
# parameters end at their line: "[^:]*" crossed lines, each of many colon-less MEMBER lines scanning to the card's end
_MEMBER_RE = re.compile(r"^(?:[\w-]+\.)?(?:X-ADDRESSBOOKSERVER-MEMBER|MEMBER)(?:;[^:\r\n]*)?:(.+)$", re.IGNORECASE | re.MULTILINE)


def _member_key(value: str) -> str:
    """A group member's id as a contact's UID is written: ``urn:uuid:X`` and ``X`` are one."""
    return re.sub(r"^urn:uuid:", "", value.strip(), flags=re.IGNORECASE).lower()


def _groups(opener: Callable[[], IO[bytes]], file: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """(member id -> names of the group cards listing it, UID -> a card's name). A group card (iCloud's
    X-ADDRESSBOOKSERVER-KIND:group, vCard 4.0's KIND:group) is not a contact, it is a label of its members;
    a RELATED urn:uuid names another card. Both can come before the card they name (hence a first pass)."""
    groups: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for _line, raw in _cards(opener, file, ImportReport(file, "vcf")):
        group = _GROUP_RE.search(raw) is not None
        unfolded = re.sub(r"\r?\n[ \t]", "", raw)
        name = next((_unescape(v).strip() for v in _raw_values(unfolded, "FN")), "")
        if not group:
            uid = next((_member_key(v) for v in _raw_values(unfolded, "UID")), "")
            if uid and name:
                names.setdefault(uid, name)
            continue
        for member in _MEMBER_RE.findall(unfolded):
            if name:
                groups.setdefault(_member_key(member), []).append(name)
    return groups, names


def _sources(path: Path, stack: ExitStack) -> list[tuple[str, str, Callable[[], IO[bytes]]]]:
    """(display name, thread, opener) of each .vcf to read: the file, or a zip's .vcf members
    (Google Takeout: Takeout/Contacts/<label>/<label>.vcf)."""
    file = str(path)
    if not is_zip(path):
        def open_file() -> IO[bytes]:
            try:
                return path.open("rb")
            except OSError as exc:
                raise ImportFormatError(f"cannot read file ({exc.strerror})", file) from None
        # jCard, xCard, a contacts CSV (Google's, Outlook's): as the .vcf they stand for
        return [(file, path.name, vcf_forms.as_vcard(open_file, file) or vcf_csv.as_vcard(open_file, file) or open_file)]
    def cards(members: list[zipfile.ZipInfo]) -> list[zipfile.ZipInfo]:
        return [i for i in members if i.filename.lower().endswith(".vcf")]

    try:  # the cards of nested zips too: chat zips (each with the cards shared in it) zipped again
        members = open_members(path, file, cards, stack, everywhere=True)
    except ImportFormatError as exc:
        if exc.reason.startswith("no suitable"):
            raise ImportFormatError("zip holds no .vcf file", file) from None
        raise
    return [(where, where.rsplit("!", 1)[-1], opener) for where, opener in members]


def parse(path: Path, report: ImportReport, **options: Any) -> Iterator[Record]:
    """Parse a .vcf file (or a zip of them) into one semantic record per contact (see module
    docstring); streamed a card at a time. Group cards are no contacts: they tag their members."""
    path = Path(path)
    with ExitStack() as stack:
        sources = _sources(path, stack)
        versions: set[str] = set()
        position = cards = 0
        refs: dict[str, int] = {}
        # A card written twice word for word (two address books merged, an export run over both) is one contact:
        # told by what it says (content, tags, other names); a card of the same name saying more is kept.
        said: set[str] = set()
        for file, rel, raw_opener in sources:
            opener = vcf_charsets.decoded(vcf_charsets.joined(raw_opener), file, report)
            groups, names = _groups(opener, file)
            for line, raw in _inline_agents(_cards(opener, file, report)):
                cards += 1
                report.messages_seen += 1
                vm = re.search(r"^VERSION:\s*(\S+)", raw, re.MULTILINE | re.IGNORECASE)
                if vm:
                    versions.add(vm.group(1))
                if _GROUP_RE.search(raw):
                    report.skipped_system += 1  # a group: its name tags its members
                    continue
                record = _card_record(raw, line, rel, report, names)
                if record is None:
                    continue
                uid = _member_key(str(record.metadata.pop("uid", "") or ""))
                for group in groups.get(uid, []) if uid else []:
                    if group not in record.tags:
                        record.tags.append(group)
                twice = sha1_hex("\x00".join([record.content, *record.tags, *sorted(record.aliases)]))
                if twice in said:
                    report.variant["duplicates"] = report.variant.get("duplicates", 0) + 1
                    continue
                said.add(twice)
                record.position = position
                position += 1
                # Two cards can share a UID-less identity: keep refs unique by numbering repeats.
                n = refs.get(record.ref, 0)
                refs[record.ref] = n + 1
                if n:
                    record.ref = f"{record.ref}:{n}"
                yield record
            if not cards:
                with opener() as fh:
                    calendar = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")[:15].upper() == b"BEGIN:VCALENDAR"
                raise ImportFormatError("an iCalendar file (events), not vCard contacts" if calendar
                                        else "no BEGIN:VCARD ... END:VCARD block found", file, 1)
        report.variant.update({"versions": sorted(versions), "cards": cards})


# Android 2.1 writes a label the user typed as a bare parameter, spaces and all ("EMAIL;X-Climbing club:…"),
# which vobject refuses: such a card is read by the built-in reader, without a warning (nothing is wrong with it).
_SPACED_LABEL_RE = re.compile(r"^[A-Za-z][\w.-]*(?:;[^:;\n]*)*;X-[^:;=\n]* [^:;=\n]*[:;]", re.MULTILINE)


class _Spaced(Exception):
    """A card holding a spaced custom label (see :data:`_SPACED_LABEL_RE`)."""


_OTHER_FN_RE = re.compile(r"^(?:[\w-]+\.)?FN(?![^:\r\n]*ALTID)(?:;[^:\r\n]*)?:(.*?)\r?$", re.IGNORECASE | re.MULTILINE)
_AB_LABEL_RE = re.compile(r"^(item\d+)\.X-ABLABEL:(.*?)\r?$", re.IGNORECASE | re.MULTILINE)


def _card_record(raw: str, line: int, rel: str, report: ImportReport,
                 names: dict[str, str] | None = None) -> Record | None:
    """The record of one card's text, or None (counted) when it names no one; ``names``: the file's cards'
    names by UID, for the relations that name a card by its urn:uuid (one not in the file is dropped)."""
    prepared = vcf_charsets.base64_text(_indent_base64(_join_qp_soft_breaks(raw)), _BLOB_PROPERTIES)
    try:
        if _SPACED_LABEL_RE.search(prepared):
            raise _Spaced  # Android's own custom labels: the built-in reader reads them, as it should
        contact = _from_vobject(vobject.readOne(prepared))
    except _Spaced:
        contact = _fallback(prepared)
    except Exception as exc:  # noqa: BLE001 - vobject raises ParseError, ValueError, binascii.Error, ...
        report.warn(f"vobject could not parse this card ({type(exc).__name__}); used the fallback reader", line)
        contact = _fallback(prepared)
    fn = _raw_values(prepared, "FN")
    if fn:
        contact.fn = _unescape(fn[0]).strip()
    # FN;ALTID=1;LANGUAGE=ja: the same name in another script (an alias, below); an FN of its own is another name
    for other in _OTHER_FN_RE.findall(prepared)[1:]:
        other = re.sub(r"\s+", " ", _unescape(other)).strip()
        if other and other != contact.fn and other not in contact.other_names:
            contact.other_names.append(other)
    # vobject cuts a text value at its first unescaped comma ("Met at the gym, likes bouldering" became
    # "Met at the gym"); Android 2.1 and Outlook cards do not escape commas, so these are read raw too.
    notes = [_unescape(v).strip() for v in _raw_values(prepared, "NOTE")]
    if any(notes):  # each NOTE line a note of its own (said apart), as each TEL is a phone
        contact.note = _NOTES_APART.join(n for n in notes if n)
    titles = [_unescape(v).strip() for v in _raw_values(prepared, "TITLE")]
    if any(titles):
        contact.title = next(t for t in titles if t)
    contact.role = next((r for r in (_unescape(v).strip() for v in _raw_values(prepared, "ROLE")) if r), "")
    nicknames = _raw_values(prepared, "NICKNAME")
    if nicknames:
        contact.nicknames = [n.strip() for v in nicknames for n in split_escaped(v) if n.strip()]
    # Android 2.1 cards keep a nickname in a data row: X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Kenny;1;...
    for row in _raw_values(prepared, "X-ANDROID-CUSTOM"):
        kind, _, rest = row.partition(";")
        nick = _unescape(split_escaped(rest, ";")[0] if rest else "").strip()
        if kind.strip().lower() == "vnd.android.cursor.item/nickname" and nick and nick not in contact.nicknames:
            contact.nicknames.append(nick)
        elif kind.strip().lower() == "vnd.android.cursor.item/relation" and nick:
            fields = split_escaped(rest, ";")
            _add_related(contact, nick, _ANDROID_RELATIONS.get(fields[1].strip() if len(fields) > 1 else "", ""))
    # IM handles, social profiles, web pages; relations and anniversaries in other address books' own fields
    labels = {m.group(1).lower(): ab_label(m.group(2)) for m in _AB_LABEL_RE.finditer(prepared)}
    contact.reach = vcf_reach.read(prepared, labels)
    for name, kind in contact.reach.related:
        if name not in {n for n, _ in contact.related}:
            _add_related(contact, name, kind)
    for what, day in contact.reach.dates:
        if what != "birthday":
            contact.dates.append((what, day))
        elif not contact.bday:  # Android's birthday row: the card's birthday when it wrote no BDAY
            contact.bday = day
    contact.related = [(n, k) for n, k in ((((names or {}).get(_member_key(n), "") if n.lower().startswith("urn:")
                                             else n), k) for n, k in contact.related) if n]
    record = _record(contact, line, rel)
    if record is None:
        report.skipped_empty += 1
        report.warn("card without a name, email or phone skipped", line)
        return None
    for other in fn[1:]:  # vCard 4.0 writes a name in several scripts (FN;ALTID=1;LANGUAGE=en:...): each names them
        alias = re.sub(r"\s+", " ", _unescape(other)).strip()
        if alias:
            record.aliases.setdefault(alias, record.metadata["name"])
    record.metadata["uid"] = contact.uid
    return record
