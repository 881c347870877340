"""Contacts exported as a CSV table, read as the vCards :mod:`importers.vcf` reads: Google Contacts' CSV (the 2024
layout: "First Name", "Last Name", "Labels", "E-mail 1 - Label", "E-mail 1 - Value", "Phone 1 - Label", …; and the
older one: "Name", "Given Name", "Family Name", "Group Membership", "E-mail 1 - Type", …, "Organization 1 - Name")
and Outlook's ("First Name", "Last Name", "E-mail Address", "Mobile Phone", "Business Phone", "Company", …). Each row
is written as the vCard 3.0 it stands for (a label a TYPE, or an ``itemN.X-ABLabel`` when it is no type vCard
knows; several values in one cell, Google's " ::: ", each their own line) so a contact reads the same from either
file: the same words, the same aliases.

The columns are found by name, not position; the layouts are this round's recollection of the apps' files (no
export was at hand)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import IO

from importers import ImportFormatError, codepages

MAX_CSV_BYTES = 64 * 1024 * 1024  # an address book of tens of thousands of rows; past it, not contacts
_MULTI = " ::: "  # Google's separator of several values (labels, e-mails) in one cell
_KNOWN_TYPES = {"mobile": "CELL", "cell": "CELL", "home": "HOME", "work": "WORK", "business": "WORK", "main": "MAIN",
                "other": "OTHER", "pager": "PAGER", "home fax": "HOME,FAX", "work fax": "WORK,FAX",
                "business fax": "WORK,FAX"}
_NUMBERED_RE = re.compile(r"^(?P<kind>E-mail|Phone|Website|Relation|Address) (?P<n>\d+) - (?P<part>.+)$")
_OUTLOOK_PHONE_RE = re.compile(r"^(?P<label>.*?) ?(?:Phone|Fax)(?: \d)?$")
_OUTLOOK_EMAIL_RE = re.compile(r"^E-mail(?: \d)? Address$")


def is_head(head: str) -> bool:
    """Whether a file's first bytes (as text) are the header of Google's or Outlook's contacts CSV."""
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    try:
        names = {c.strip() for c in next(csv.reader([first]))}
    except (csv.Error, StopIteration):
        return False
    named = {"First Name", "Last Name"} <= names or {"Given Name", "Family Name"} <= names
    reach = any(n.startswith(("E-mail", "Phone 1")) or n.endswith(" Phone") for n in names)
    return named and reach


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\r\n", "\\n").replace("\n", "\\n")


def _values(cell: str) -> list[str]:
    return [v.strip() for v in cell.split(_MULTI) if v.strip()]


def _typed(prop: str, label: str, value: str, item: list[int]) -> list[str]:
    """A property's line(s) with its label: a vCard type, else a custom label on an item group (as iOS writes it)."""
    label = label.strip().lstrip("* ").strip()
    known = _KNOWN_TYPES.get(label.lower())
    if not label:
        return [f"{prop}:{value}"]
    if known:
        return [f"{prop};TYPE={known}:{value}"]
    item[0] += 1
    return [f"item{item[0]}.{prop}:{value}", f"item{item[0]}.X-ABLabel:{_escaped(label)}"]


def _card(row: dict[str, str]) -> list[str]:
    """The vCard lines of one row (without BEGIN/END), or none for a row with no name nor reach."""
    get = lambda *names: next((row[n].strip() for n in names if (row.get(n) or "").strip()), "")  # noqa: E731
    first, middle, last = get("First Name", "Given Name"), get("Middle Name", "Additional Name"), get("Last Name", "Family Name")
    prefix, suffix = get("Name Prefix", "Title"), get("Name Suffix", "Suffix")
    full = get("Name") or " ".join(p for p in (prefix, first, middle, last, suffix) if p)
    lines = [f"FN:{_escaped(full)}", ";".join(_escaped(p) for p in (last, first, middle, prefix, suffix)).join(("N:", ""))]
    item = [0]
    groups: dict[tuple[str, str], dict[str, str]] = {}
    for column, cell in row.items():
        if not column or not (cell or "").strip():
            continue
        m = _NUMBERED_RE.match(column.strip())
        if m:  # Google: "Phone 1 - Label", "Phone 1 - Value", "Address 1 - Street", …
            groups.setdefault((m.group("kind"), m.group("n")), {})[m.group("part")] = cell.strip()
        elif _OUTLOOK_EMAIL_RE.match(column.strip()):
            lines += [f"EMAIL;TYPE=INTERNET:{_escaped(v)}" for v in _values(cell)]
        elif column.strip() != "Primary Phone" and _OUTLOOK_PHONE_RE.match(column.strip()):
            # Outlook: "Mobile Phone", "Business Phone 2", "Home Fax" ("Primary Phone" repeats one of them)
            label = _OUTLOOK_PHONE_RE.match(column.strip()).group("label")  # type: ignore[union-attr]
            label = f"{label} fax" if column.strip().endswith("Fax") else label
            lines += [ln for v in _values(cell) for ln in _typed("TEL", label, _escaped(v), item)]
    for (kind, _n), parts in sorted(groups.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
        label = parts.get("Label") or parts.get("Type") or ""
        if kind == "Address":
            adr = [parts.get(k, "") for k in ("PO Box", "Extended Address", "Street", "City", "Region", "Postal Code",
                                              "Country")]
            if not any(adr) and parts.get("Formatted"):
                adr = ["", "", parts["Formatted"].replace("\n", ", "), "", "", "", ""]
            if any(adr):
                lines += _typed("ADR", label, ";".join(_escaped(a) for a in adr), item)
            continue
        prop = {"E-mail": "EMAIL", "Phone": "TEL", "Website": "URL", "Relation": "X-ABRELATEDNAMES"}[kind]
        for value in _values(parts.get("Value", "")):
            lines += _typed(prop, label, _escaped(value) if prop != "URL" else value, item)
    for prop, names in (("NICKNAME", ("Nickname",)), ("TITLE", ("Organization Title", "Organization 1 - Title", "Job Title")),
                        ("BDAY", ("Birthday",)), ("NOTE", ("Notes",))):
        value = get(*names)
        if value:
            lines.append(f"{prop}:{_escaped(value)}")
    org = get("Organization Name", "Organization 1 - Name", "Company")
    if org:
        dept = get("Organization Department", "Organization 1 - Department", "Department")
        lines.append(f"ORG:{_escaped(org)}" + (f";{_escaped(dept)}" if dept else ""))
    labels = [v.lstrip("* ").strip() for v in _values(get("Labels", "Group Membership", "Categories"))]
    labels = [v for v in labels if v and v.lower() not in ("mycontacts", "starred")]
    if labels:
        lines.append("CATEGORIES:" + ",".join(_escaped(v) for v in labels))
    return lines if full or len(lines) > 2 else []


def _decoded(data: bytes) -> str:
    """Google writes UTF-8 (with a BOM at times), Outlook the computer's code page (Windows-1252 in the West, 1251 in
    Russia …: the one :func:`importers.codepages.guess` reads the first bytes as)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode(codepages.guess(data)[0], errors="replace")


def as_vcard(opener: Callable[[], IO[bytes]], where: str) -> Callable[[], IO[bytes]] | None:
    """An opener of the vCards a contacts CSV stands for (see the module docstring), or None when the file is no
    such CSV."""
    with opener() as fh:
        head = fh.read(4096)
        if not is_head(_decoded(head[:4096]) if head else ""):
            return None
        data = head + fh.read(MAX_CSV_BYTES + 1 - len(head))
    if len(data) > MAX_CSV_BYTES:
        raise ImportFormatError(f"contacts CSV over {MAX_CSV_BYTES} bytes", where)
    try:
        rows = list(csv.DictReader(io.StringIO(_decoded(data), newline="")))
    except csv.Error as exc:
        raise ImportFormatError(f"unreadable contacts CSV ({exc})", where) from None
    out: list[str] = []
    for row in rows:
        lines = _card({k: v for k, v in row.items() if isinstance(k, str) and isinstance(v, str)})
        if lines:
            out += ["BEGIN:VCARD", "VERSION:3.0", *lines, "END:VCARD"]
    if not out:
        raise ImportFormatError("contacts CSV with no contact in it", where)
    encoded = ("\r\n".join(out) + "\r\n").encode("utf-8")
    return lambda: io.BytesIO(encoded)
