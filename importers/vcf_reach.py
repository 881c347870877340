"""The ways to reach a contact beyond phones and e-mails, and the relations and dates address books write
in their own fields, read from a vCard's lines for :mod:`importers.vcf`.

* IM handles: ``IMPP`` (vCard 3.0/4.0: ``IMPP;X-SERVICE-TYPE=Skype:skype:ana``, ``IMPP:xmpp:ben@x``), the
  legacy ``X-AIM``, ``X-JABBER``, ``X-ICQ``, ``X-SKYPE(-USERNAME)``, ``X-MSN``, ``X-YAHOO``, ``X-GTALK`` ...
  (Evolution, Android, old Apple) and ``X-MS-IMADDRESS`` (Outlook): the handle, and the service from
  X-SERVICE-TYPE, else the URI's scheme, else the property's name;
* social profiles: ``X-SOCIALPROFILE;TYPE=instagram;X-USER=ana:http://instagram.com/ana`` (Apple,
  Nextcloud) and RFC 9554's ``SOCIALPROFILE;SERVICE-TYPE=Mastodon:https://...``: the user name when given
  (``X-USER``, a ``VALUE=text`` value), else the URL, and the network (``SERVICE-TYPE``, else a TYPE that
  is no place, else the item's label);
* a handle or profile's home/work type is shown after its service, as an e-mail's is ("xmpp, home");
  Apple's ``x-apple:`` prefix and %-escapes are no part of a handle; a Matrix URI (``matrix:u/ana:x.org``)
  names ``@ana:x.org``; RFC 9554's ``CONTACT-URI`` is a web page "(contact)";
* web pages: ``URL`` (its TYPE or Apple's item label) and blog fields (``X-EVOLUTION-BLOG-URL``,
  KDE's ``BlogFeed``); a free/busy or calendar URL (``FBURL``, ``CALURI``) is none;
* RFC 9554's ``PRONOUNS`` (shown first by :mod:`importers.vcf`); its GRAMGENDER, LANGUAGE and CREATED are
  not shown;
* RFC 6474's ``BIRTHPLACE``, ``DEATHDATE`` and ``DEATHPLACE`` (a place given as a ``geo:`` URI is none);
  RFC 6715's ``EXPERTISE``, ``HOBBY`` and ``INTEREST`` (their LEVEL is not shown; ``ORG-DIRECTORY`` is a
  lookup service of the employer, no fact about the person);
* a name's reading: ``X-PHONETIC-LAST-NAME`` / ``X-PHONETIC-FIRST-NAME`` (Google, Apple) and the same names
  with ``X-PHONETIC-MIDDLE-NAME``, family name first as N writes it;
* relations written as Outlook's ``X-MS-SPOUSE``/``X-MS-MANAGER``/``X-MS-ASSISTANT``, Evolution's
  ``X-EVOLUTION-SPOUSE`` ..., KDE's ``X-KADDRESSBOOK-X-SpousesName`` ...; anniversaries as
  ``X-MS-ANNIVERSARY`` or KDE's ``X-KADDRESSBOOK-X-Anniversary``; Android's contact events
  (``X-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;2015-06-20;1;...``: 1 anniversary, 2 other,
  3 the birthday (kept as the card's birthday when it has no BDAY: a birthday of no year is written only
  there), 0 a label of the user's).

A handle names an account, not the person: none of these become aliases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from importers._common import split_lines

_LEGACY_IM = {"AIM": "AIM", "ICQ": "ICQ", "JABBER": "Jabber", "MSN": "MSN", "YAHOO": "Yahoo", "SKYPE": "Skype",
              "SKYPE-USERNAME": "Skype", "GTALK": "Google Talk", "GOOGLE-TALK": "Google Talk", "QQ": "QQ",
              "GADUGADU": "Gadu-Gadu", "GROUPWISE": "GroupWise"}
_LEGACY_IM_RE = re.compile(r"^X-(?:EVOLUTION-)?(" + "|".join(map(re.escape, _LEGACY_IM)) + r")$")
_RELATION_RE = re.compile(r"SPOUSE|MANAGER|ASSISTANT")
_SCHEME_RE = re.compile(r"^([a-z][a-z0-9+.-]{1,20}):(?!//)", re.IGNORECASE)
_ANDROID_EVENTS = {"1": "anniversary", "2": "date", "3": "birthday"}  # ContactsContract's Event types
# read by importers.vcf already (RELATED and Apple's dates, the anniversaries it knows)
_KNOWN = frozenset({"X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-ABRELATEDNAMES", "X-ABDATE"})
# RFC 6474 (life events) and RFC 6715 (what the person knows and likes), as the record names them
_LIFE = {"BIRTHPLACE": "birthplace", "DEATHDATE": "died", "DEATHPLACE": "place of death"}
_INTERESTS = {"EXPERTISE": "expertise", "HOBBY": "hobby", "INTEREST": "interest"}
_PHONETIC_RE = re.compile(r"^X-PHONETIC-(FIRST|MIDDLE|LAST)-NAME$")
_TYPE_SKIP = frozenset({"pref", "voice", "internet", "text", "uri"})
_PLACES = frozenset({"home", "work", "other", "personal", "business", "cell", "mobile"})
_MATRIX_SIGILS = {"u": "@", "r": "#", "roomid": "!"}


@dataclass
class Reach:
    """What :func:`read` found in one card, each in the card's order."""

    ims: list[tuple[str, str]] = field(default_factory=list)  # (handle, service)
    profiles: list[tuple[str, str]] = field(default_factory=list)  # (user or URL, network)
    webs: list[tuple[str, str]] = field(default_factory=list)  # (URL, label)
    related: list[tuple[str, str]] = field(default_factory=list)  # (name, relation)
    dates: list[tuple[str, str]] = field(default_factory=list)  # (label, date as written)
    pronouns: list[str] = field(default_factory=list)  # RFC 9554 PRONOUNS, as written ("she/her")
    life: list[tuple[str, str]] = field(default_factory=list)  # RFC 6474: ("birthplace", "Viseu"), ("died", date)
    interests: list[tuple[str, str]] = field(default_factory=list)  # RFC 6715: ("hobby", "birdwatching")
    phonetic: dict[str, str] = field(default_factory=dict)  # "LAST"/"MIDDLE"/"FIRST" -> the reading of that part

    def reading(self) -> str:
        """The name's reading, family name first (as N writes a name), or ""."""
        return " ".join(self.phonetic[k] for k in ("LAST", "FIRST", "MIDDLE") if self.phonetic.get(k))

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


def _service(params: dict[str, list[str]], label: str = "") -> str:
    """The service or network a handle or profile is on, and its place ("xmpp, home"): SERVICE-TYPE
    (RFC 9554) or Apple's X-SERVICE-TYPE, else a TYPE that is no place, else the item's label."""
    types = _types(params)
    named = (params.get("SERVICE-TYPE") or params.get("X-SERVICE-TYPE") or [""])[0]
    network = named or next((t for t in types if t not in _PLACES), "") or label
    places = [t for t in types if t in _PLACES and t != network.lower()]
    return ", ".join(p for p in (network, *places) if p)


def handle(value: str) -> tuple[str, str]:
    """(handle, URI scheme) of an IMPP value: ``xmpp:ben@x`` -> ("ben@x", "xmpp"), Apple's
    ``x-apple:%2B4477...`` -> ("+4477...", ""), ``matrix:u/ana:x.org`` -> ("@ana:x.org", "matrix"); a web
    URL is kept whole."""
    scheme = _SCHEME_RE.match(value)
    if not scheme or scheme.group(1).lower() in ("http", "https"):
        return value, ""
    name = scheme.group(1).lower()
    rest = unquote(value[scheme.end():])
    if name == "matrix":
        kind, slash, ident = rest.partition("/")
        if slash and kind in _MATRIX_SIGILS:
            rest = _MATRIX_SIGILS[kind] + ident.split("?")[0]
    return rest, "" if name == "x-apple" else name


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
        if name in _LIFE or name in _INTERESTS:
            value = _unescape(raw)
            if name in _LIFE and not value.lower().startswith("geo:"):
                found.life.append((_LIFE[name], value))
            elif name in _INTERESTS:
                found.interests.append((_INTERESTS[name], value))
            continue
        if not name.startswith(("X-", "IMPP", "URL", "SOCIALPROFILE", "CONTACT-URI", "PRONOUNS")) or name in _KNOWN:
            continue
        params = _params(parts[1:])
        value = _unescape(raw)
        label = labels.get(group.lower(), "") if group else ""
        if (phonetic := _PHONETIC_RE.match(name)) is not None:
            found.phonetic.setdefault(phonetic.group(1), value)
        elif name == "PRONOUNS":
            if value not in found.pronouns:
                found.pronouns.append(value)
        elif name == "IMPP":
            value, scheme = handle(value)
            service = _service(params)
            if scheme and not (params.get("SERVICE-TYPE") or params.get("X-SERVICE-TYPE")):
                service = ", ".join(p for p in (scheme, service) if p)
            found.ims.append((value, service))
        elif (m := _LEGACY_IM_RE.match(name)) is not None:
            found.ims.append((value, _LEGACY_IM[m.group(1)]))
        elif name.endswith("IMADDRESS"):
            found.ims.append((value, ""))
        elif name in ("X-SOCIALPROFILE", "SOCIALPROFILE"):
            user = next((u for u in params.get("X-USER", []) if u), "")
            if value.lower().startswith("x-apple:"):  # iOS 18: the user name behind Apple's own scheme
                value = unquote(value[len("x-apple:"):])
            found.profiles.append((user or value, _service(params, label)))
        elif name == "CONTACT-URI":
            found.webs.append((value, "contact"))
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
