"""The ways to reach a contact beyond phones and e-mails, and the relations and dates address books write
in their own fields, read from a vCard's lines for :mod:`importers.vcf`.

* IM handles: ``IMPP`` (vCard 3.0/4.0: ``IMPP;X-SERVICE-TYPE=Skype:skype:ana``, ``IMPP:xmpp:ben@x``), the
  legacy ``X-AIM``, ``X-JABBER``, ``X-ICQ``, ``X-SKYPE(-USERNAME)``, ``X-MSN``, ``X-YAHOO``, ``X-GTALK`` ...
  (Evolution, Android, old Apple) and ``X-MS-IMADDRESS`` (Outlook): the handle, and the service from
  X-SERVICE-TYPE, else the URI's scheme, else the property's name;
* social profiles: ``X-SOCIALPROFILE;TYPE=instagram;X-USER=ana:http://instagram.com/ana`` (Apple,
  Nextcloud): the user name when given, else the URL, and the network;
* web pages: ``URL`` (its TYPE or Apple's item label) and blog fields (``X-EVOLUTION-BLOG-URL``,
  KDE's ``BlogFeed``); a free/busy or calendar URL (``FBURL``, ``CALURI``) is none;
* relations written as Outlook's ``X-MS-SPOUSE``/``X-MS-MANAGER``/``X-MS-ASSISTANT``, Evolution's
  ``X-EVOLUTION-SPOUSE`` ..., KDE's ``X-KADDRESSBOOK-X-SpousesName`` ...; anniversaries as
  ``X-MS-ANNIVERSARY`` or KDE's ``X-KADDRESSBOOK-X-Anniversary``; Android's contact events
  (``X-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;2015-06-20;1;...``: 1 anniversary, 2 other,
  0 a label of the user's).

A handle names an account, not the person: none of these become aliases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from importers._common import split_lines

_LEGACY_IM = {"AIM": "AIM", "ICQ": "ICQ", "JABBER": "Jabber", "MSN": "MSN", "YAHOO": "Yahoo", "SKYPE": "Skype",
              "SKYPE-USERNAME": "Skype", "GTALK": "Google Talk", "GOOGLE-TALK": "Google Talk", "QQ": "QQ",
              "GADUGADU": "Gadu-Gadu", "GROUPWISE": "GroupWise"}
_LEGACY_IM_RE = re.compile(r"^X-(?:EVOLUTION-)?(" + "|".join(map(re.escape, _LEGACY_IM)) + r")$")
_RELATION_RE = re.compile(r"SPOUSE|MANAGER|ASSISTANT")
_SCHEME_RE = re.compile(r"^([a-z][a-z0-9+.-]{1,20}):(?!//)", re.IGNORECASE)
_ANDROID_EVENTS = {"1": "anniversary", "2": "date"}
# read by importers.vcf already (RELATED and Apple's dates, the anniversaries it knows)
_KNOWN = frozenset({"X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-ABRELATEDNAMES", "X-ABDATE"})
_TYPE_SKIP = frozenset({"pref", "voice", "internet", "text", "uri"})


@dataclass
class Reach:
    """What :func:`read` found in one card, each in the card's order."""

    ims: list[tuple[str, str]] = field(default_factory=list)  # (handle, service)
    profiles: list[tuple[str, str]] = field(default_factory=list)  # (user or URL, network)
    webs: list[tuple[str, str]] = field(default_factory=list)  # (URL, label)
    related: list[tuple[str, str]] = field(default_factory=list)  # (name, relation)
    dates: list[tuple[str, str]] = field(default_factory=list)  # (label, date as written)

    def facts(self) -> list[str]:
        """The ways to reach, as the contact's record writes them: "im h (Skype)", "profile u (github)", "web u"."""
        out = [f"im {h}" + (f" ({s})" if s else "") for h, s in self.ims]
        out += [f"profile {u}" + (f" ({n})" if n else "") for u, n in self.profiles]
        return out + [f"web {u}" + (f" ({label})" if label else "") for u, label in self.webs]


def _unescape(value: str) -> str:
    return re.sub(r"\\([\\,;:nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value).strip()


def _params(parts: list[str]) -> dict[str, list[str]]:
    """A property's parameters: ``TYPE=a,b`` and repeated ``type=`` joined, vCard 2.1's bare ones as TYPE."""
    out: dict[str, list[str]] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        key, value = (key.strip().upper(), value.strip().strip('"')) if eq else ("TYPE", key.strip())
        out.setdefault(key, []).extend(v.strip() for v in value.split(",") if v.strip())
    return out


def _types(params: dict[str, list[str]]) -> list[str]:
    return [t.lower() for t in params.get("TYPE", []) if t.lower() not in _TYPE_SKIP]


def read(card: str, labels: dict[str, str]) -> Reach:
    """The ways to reach, relations and dates of one card's text (see the module docstring); ``labels``
    are Apple's item labels by group (``item1`` -> "home page")."""
    found = Reach()
    for line in split_lines(re.sub(r"\r?\n[ \t]", "", card)):
        head, sep, raw = line.partition(":")
        if not sep or not raw.strip():
            continue
        parts = head.split(";")
        group, _, name = parts[0].rpartition(".")
        name = name.strip().upper()
        if not name.startswith(("X-", "IMPP", "URL")) or name in _KNOWN:
            continue
        params = _params(parts[1:])
        value = _unescape(raw)
        label = labels.get(group.lower(), "") if group else ""
        if name == "IMPP":
            scheme = _SCHEME_RE.match(value)
            service = (params.get("X-SERVICE-TYPE") or [""])[0]
            if scheme and scheme.group(1).lower() not in ("http", "https"):
                value = value[scheme.end():]
                service = service or ("" if scheme.group(1).lower() == "x-apple" else scheme.group(1).lower())
            found.ims.append((value, service))
        elif (m := _LEGACY_IM_RE.match(name)) is not None:
            found.ims.append((value, _LEGACY_IM[m.group(1)]))
        elif name.endswith("IMADDRESS"):
            found.ims.append((value, ""))
        elif name == "X-SOCIALPROFILE":
            network = next(iter(_types(params)), "")
            user = next((u for u in params.get("X-USER", []) if u), "")
            found.profiles.append((user or value, network))
        elif name == "URL":
            found.webs.append((value, label or ",".join(_types(params))))
        elif "BLOG" in name:
            found.webs.append((value, "blog"))
        elif (relation := _RELATION_RE.search(name)) is not None and "TEL" not in name:
            found.related.append((value, relation.group().lower()))
        elif "ANNIVERSARY" in name:
            found.dates.append(("anniversary", value))
        elif name == "X-ANDROID-CUSTOM" and raw.lower().startswith("vnd.android.cursor.item/contact_event;"):
            fields = raw.split(";")
            date, kind = fields[1].strip(), fields[2].strip() if len(fields) > 2 else ""
            what = _ANDROID_EVENTS.get(kind) or (_unescape(fields[3]) if kind == "0" and len(fields) > 3 else "")
            if date and what:
                found.dates.append((what, date))
    return found
