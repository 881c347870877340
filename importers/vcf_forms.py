"""vCard 4.0 in its other two forms, read as the text form :mod:`importers.vcf` reads: jCard (RFC 7095, JSON:
``["vcard", [["fn", {}, "text", "Ana Sousa"], ...]]``, one card or a list of them) and xCard (RFC 6351, XML:
``<vcards xmlns="urn:ietf:params:xml:ns:vcard-4.0"><vcard><fn><text>Ana Sousa</text></fn>...``). CardDAV
servers, address-book libraries and web apps write them; a card in either form says what its ``.vcf`` twin says,
so it is written as that twin (properties, parameters, groups, structured values, escapes) and read by the same
code: the same contact, word for word."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from typing import IO, Any
from xml.etree import ElementTree

from importers import ImportFormatError

MAX_FORM_BYTES = 64 * 1024 * 1024  # an address book of tens of thousands of cards; past it, not contacts
XCARD_NS = "urn:ietf:params:xml:ns:vcard-4.0"
_JCARD_HEAD_RE = re.compile(r'^\s*\[\s*(?:\[\s*)?"vcard"\s*,', re.IGNORECASE)
_XCARD_HEAD_RE = re.compile(r"<vcards\b[^>]*\burn:ietf:params:xml:ns:vcard-4\.0", re.IGNORECASE)
# The parts of xCard's structured values, in the order the text form writes them (RFC 6350 6.2.2, 6.3.1, 6.2.7)
_PARTS = {"n": ("surname", "given", "additional", "prefix", "suffix"),
          "adr": ("pobox", "ext", "street", "locality", "region", "code", "country"),
          "gender": ("sex", "identity")}


def form_of(head: str) -> str | None:
    """"jcard" or "xcard" for the start of a file in one of those forms, else None."""
    if _JCARD_HEAD_RE.match(head.lstrip("\ufeff")):
        return "jcard"
    if _XCARD_HEAD_RE.search(head[:4096]):
        return "xcard"
    return None


def _escaped(value: Any) -> str:
    """A text value as the text form writes it: backslash, comma, semicolon and line breaks escaped."""
    text = "" if value is None else str(value)
    return (text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _param(name: str, values: list[str]) -> str:
    """``;NAME=a,b`` with a value quoted when it holds a character the text form splits on."""
    shown = [f'"{v}"' if any(c in v for c in ':;,') else v for v in (str(x).replace('"', "'") for x in values)]
    return f";{name.upper()}={','.join(shown)}"


def _line(name: str, params: dict[str, list[str]], value: str, group: str = "") -> str:
    head = (f"{group}." if group else "") + name.upper()
    return head + "".join(_param(k, v) for k, v in params.items() if v) + ":" + value


def _jcard_value(values: list[Any], structured: bool) -> str:
    """The text form of a jCard property's values: several are a list (","), a structured one's parts are ";"."""
    def one(v: Any) -> str:
        if isinstance(v, list):
            return ";".join(",".join(_escaped(x) for x in p) if isinstance(p, list) else _escaped(p) for p in v)
        return _escaped(v) if not isinstance(v, bool) else str(v).lower()
    if structured and len(values) == 1 and isinstance(values[0], list):
        return one(values[0])
    return ",".join(one(v) for v in values)


def _jcard_lines(card: Any, where: str, index: int) -> Iterator[str]:
    """The text lines of one jCard (``["vcard", [properties]]``); a card of another shape is an error naming it."""
    if not (isinstance(card, list) and len(card) == 2 and str(card[0]).lower() == "vcard" and isinstance(card[1], list)):
        raise ImportFormatError(f"jCard {index + 1}: not [\"vcard\", [properties]]", where)
    yield "BEGIN:VCARD"
    for prop in card[1]:
        if not (isinstance(prop, list) and len(prop) >= 4 and isinstance(prop[0], str) and isinstance(prop[1], dict)):
            raise ImportFormatError(f"jCard {index + 1}: a property is not [name, {{parameters}}, type, value]", where)
        name, raw_params, kind = prop[0], prop[1], str(prop[2]).lower()
        params = {str(k): [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in raw_params.items()
                  if str(k).lower() != "group"}
        if kind == "uri" and "value" not in {k.lower() for k in params}:
            params = {"VALUE": ["uri"], **params}
        group = str(raw_params.get("group") or "")
        yield _line(name, params, _jcard_value(prop[3:], name.lower() in _PARTS), group)
    yield "END:VCARD"


def _jcard_text(data: bytes, where: str) -> str:
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ImportFormatError(f"invalid jCard JSON ({' '.join(str(exc).split())[:120]})", where) from None
    cards = [doc] if isinstance(doc, list) and doc and isinstance(doc[0], str) else doc
    if not isinstance(cards, list):
        raise ImportFormatError("jCard: not a card nor a list of cards", where)
    return "\r\n".join(line for i, card in enumerate(cards) for line in _jcard_lines(card, where, i)) + "\r\n"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


def _xcard_values(elem: ElementTree.Element) -> list[str]:
    """The values of an xCard property or parameter element: the text of its value elements (``<text>``,
    ``<uri>``, ``<date>`` ...)."""
    return [(v.text or "").strip() for v in elem if _local(v.tag) != "parameters"]


def _xcard_property(elem: ElementTree.Element, group: str) -> str:
    name = _local(elem.tag)
    params: dict[str, list[str]] = {}
    for child in elem:
        if _local(child.tag) == "parameters":
            for param in child:
                params[_local(param.tag)] = _xcard_values(param)
    kids = {_local(c.tag): c for c in elem if _local(c.tag) != "parameters"}
    if name in _PARTS:
        value = ";".join(",".join(_escaped(t.text.strip()) for t in kids[p] if t.text) or _escaped((kids[p].text or "").strip())
                         if p in kids else "" for p in _PARTS[name])
    elif name == "org":
        value = ";".join(_escaped(v) for v in _xcard_values(elem))
    else:
        if "uri" in kids and "value" not in params:
            params = {"value": ["uri"], **params}
        value = ",".join(_escaped(v) for v in _xcard_values(elem))
    return _line(name, params, value, group)


def _xcard_text(data: bytes, where: str) -> str:
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:  # xCard declares none; entities that expand are a bomb
        raise ImportFormatError("xCard with a DTD or entity declarations (an xCard has none); not read", where)
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise ImportFormatError(f"invalid xCard XML ({exc})", where) from None
    lines: list[str] = []
    for card in root.iter(f"{{{XCARD_NS}}}vcard"):
        lines.append("BEGIN:VCARD")
        lines.append("VERSION:4.0")
        for elem in card:
            if _local(elem.tag) == "group":
                lines.extend(_xcard_property(p, elem.get("name") or "") for p in elem)
            elif _local(elem.tag) != "version":
                lines.append(_xcard_property(elem, ""))
        lines.append("END:VCARD")
    return "\r\n".join(lines) + "\r\n" if lines else ""


def as_vcard(opener: Callable[[], IO[bytes]], where: str) -> Callable[[], IO[bytes]] | None:
    """An opener of the text form of a jCard or xCard file (see the module docstring), or None when the
    file is in neither form (a .vcf: read as it is)."""
    with opener() as fh:
        head = fh.read(4096)
        form = form_of(head.decode("utf-8", "replace"))
        if form is None:
            return None
        data = head + fh.read(MAX_FORM_BYTES + 1 - len(head))
    if len(data) > MAX_FORM_BYTES:
        raise ImportFormatError(f"{'jCard' if form == 'jcard' else 'xCard'} file over {MAX_FORM_BYTES} bytes", where)
    text = (_jcard_text if form == "jcard" else _xcard_text)(data, where)
    encoded = text.encode("utf-8")
    return lambda: io.BytesIO(encoded)
