"""Sensitivity gate for cross-agent memory sharing.

Two agents serving people who work together may share technical and procedural
knowledge, but nothing personal.  :func:`score` rates a memory's text from 0 to 1
with no LLM, no network and no SQL: regular expressions for secrets and PII, a
personal-life lexicon and first-person feeling phrases.  A score of
``BLOCK_THRESHOLD`` (0.5) or more blocks sharing; every contribution is kept as a
:class:`Finding` so the user sees *why* (``Sensitivity.reasons()``).

How findings combine
--------------------
Each finding has a weight in (0, 1]; the score is the noisy-OR
``1 - prod(1 - w)``.  It stays in [0, 1], never decreases when evidence is
added, and lets weak evidence accumulate without any single weak word blocking.
Every secret and PII weight is >= 0.5, so one such finding blocks on its own.

Decisions on technical look-alikes (false positives cost usefulness)
-------------------------------------------------------------------
* IPv4: private, loopback, link-local, CGNAT and documentation ranges
  (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, 100.64/10, 192.0.2/24,
  198.51.100/24, 203.0.113/24) and well-known public resolvers (8.8.8.8,
  1.1.1.1, 9.9.9.9, ...) are infrastructure, not findings.  Any other public
  IPv4 is PII (``public_ip``): it can locate a person's home or device.  IPv6 is
  not checked.  Four-part version numbers after "v"/"version" are skipped.
* Hex-only strings (git SHAs of any length, sha256 digests, UUIDs, hashes) are
  never flagged by the entropy detector, in a "commit" context or not: hex is
  what version control and content addressing print all day.  A hex secret is
  still caught when it is *labelled* as one (``token is <hex>``,
  ``api_key=<hex>``, ``Bearer <hex>``).
* Emails at reserved domains (RFC 2606/6761: example.com/.net/.org,
  ``*.example``, ``*.test``, ``*.invalid``, ``*.localhost``, ``*.local``,
  ``*.internal``) are not PII: docs and fixtures use them precisely because
  nobody owns them.  ``scheme://user@host`` is URL userinfo, not a mailbox.
  Every other address is PII, role addresses (billing@acme.com) included: the
  gate cannot tell a role from a person.
* Well-known public test card numbers (Stripe/Visa/Mastercard test PANs such as
  4242 4242 4242 4242) are not PII; other Luhn-valid numbers with a card IIN
  prefix are.
* Placeholder credentials (``password=<password>``, ``${DB_PASSWORD}``,
  ``user:password@``, ``changeme``, ``xxxx``) are not secrets.
* Phone numbers need a leading ``+country`` code, a North-American layout
  (``(415) 555-0132``, ``415-555-0132``) or a cue word ("phone", "mobile",
  "call me", ...), so ports, dates, versions and digit runs in code are ignored.
* Technical compounds are removed before the lexicon runs: "health check",
  "parent/child process", "kernel panic", "leader election", "tech debt",
  "sister project", "brew doctor", ...
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from memengine.sensitivity_lexicon import (
    FEELING_RE,
    FEELING_WEIGHTS,
    FIRST_PERSON_RE,
    I_FEEL_RE,
    IMPLICIT_FIRST_PERSON_RE,
    KIN_ANCHOR_RE,
    LEXICON_GROUPS,
    LEXICON_RE,
    NAMED_PERSON_RE,
    OPINION_RE,
    PERSON_PRONOUN_RE,
    POSSESSIVE_KIN_RE,
    ROLE_NOUN_RE,
    TECH_COMPOUNDS_RE,
    W_I_FEEL,
    W_STRONG,
    W_WEAK,
    WORD_START_RE,
)

__all__ = ["BLOCK_THRESHOLD", "Finding", "Sensitivity", "score"]

BLOCK_THRESHOLD: float = 0.5

# --------------------------------------------------------------------------
# Weights.  Secret and PII weights are all >= BLOCK_THRESHOLD by design: one
# leaked credential or one address is enough to refuse sharing.
# --------------------------------------------------------------------------

# Vendor-prefixed tokens (AKIA..., ghp_..., xoxb-...) and PEM private-key
# headers have fixed shapes that almost never occur by chance.
W_PRIVATE_KEY = 0.99
W_VENDOR_TOKEN = 0.95
# A JWT is a bearer credential until it expires; its eyJ.eyJ. shape is unique.
W_JWT = 0.9
# user:password@host in a URL is a working credential by construction.
W_CONNECTION_STRING = 0.9
# "Authorization: Bearer/Basic <value>" carries a credential by definition.
W_AUTH_HEADER = 0.9
# password=..., token is ..., login admin / pw: labelled, but the label could be
# loose prose, hence a little below the structural detectors.
W_CREDENTIAL_ASSIGNMENT = 0.85
# Unlabelled high-entropy strings: the least certain secret detector (could be
# a random id), yet an unknown-vendor key looks exactly like this, so it blocks.
W_HIGH_ENTROPY = 0.6

# Luhn/mod-97 checks make card and IBAN matches near-certain.
W_CARD = 0.9
W_IBAN = 0.9
# US SSN layout with the invalid ranges (000, 666, 9xx) excluded.
W_SSN = 0.9
W_EMAIL = 0.7
W_PHONE = 0.7
W_ADDRESS = 0.7
W_DATE_OF_BIRTH = 0.7
# Lowest PII weight: a public IP is sometimes a server, not a person, but it
# must still block on its own per the sharing policy.
W_PUBLIC_IP = 0.55

# Without any person reference ("I", "my", "she", "mom", "my manager"), a
# lexicon hit is probably about a domain ("patients with diabetes", "billing
# money"), so its weight is halved.
UNANCHORED_FACTOR = 0.5
# Added once when personal terms appear in text about a person: the same words
# are more revealing in "I ..." than in a spec.
W_PERSON_CONTEXT = 0.15





@dataclass(frozen=True)
class Finding:
    """One piece of evidence: ``kind`` is "secret", "pii", "personal" or "feeling"."""

    kind: str
    label: str
    excerpt: str  # masked for secrets/PII: never the full value
    weight: float


@dataclass(frozen=True)
class Sensitivity:
    """The score of a text and the findings that produced it."""

    score: float
    findings: tuple[Finding, ...]

    @property
    def blocked(self) -> bool:
        """True when the text must not be shared (score >= BLOCK_THRESHOLD)."""
        return self.score >= BLOCK_THRESHOLD

    def reasons(self) -> list[str]:
        """Human-readable one-liners, heaviest first, e.g. "secret: aws_access_key (AKIA…MPLE)"."""
        ordered = sorted(self.findings, key=lambda f: -f.weight)
        return [f"{f.kind}: {f.label} ({f.excerpt})" for f in ordered]


def mask(value: str) -> str:
    """Shorten ``value`` so a reason can be shown without revealing it."""
    n = len(value)
    if n >= 16:
        return f"{value[:4]}…{value[-4:]}"
    if n >= 8:
        return f"{value[:2]}…{value[-2:]}"
    return f"{value[:1]}…"


# --------------------------------------------------------------------------
# Validators
# --------------------------------------------------------------------------


def luhn_valid(digits: str) -> bool:
    """Luhn checksum used by payment cards."""
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_valid(iban: str) -> bool:
    """ISO 13616 mod-97 check (spaces ignored)."""
    s = iban.replace(" ", "").upper()
    if not 15 <= len(s) <= 34 or not s[:2].isalpha() or not s[2:4].isdigit():
        return False
    if not s.isalnum() or not s.isascii():
        return False
    rearranged = s[4:] + s[:4]
    numeric = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(numeric) % 97 == 1


def shannon_entropy(s: str) -> float:
    """Bits per character of ``s``."""
    if not s:
        return 0.0
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


# --------------------------------------------------------------------------
# Secret patterns.  Every quantifier is bounded or over a single character
# class, so matching is linear (no catastrophic backtracking).
# --------------------------------------------------------------------------

_PEM_RE = re.compile(r"-----BEGIN [A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?-----")
_JWT_RE = re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}")

# (label, pattern): fixed vendor shapes.
_VENDOR_TOKENS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b")),
    ("github_token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,255}\b")),
    ("github_token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,255}")),
    ("gitlab_token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("slack_token", re.compile(r"\bxox[abposrce]-[A-Za-z0-9-]{10,}")),
    ("slack_webhook", re.compile(r"hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]{8,}")),
    ("anthropic_key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai_key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("stripe_key", re.compile(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("stripe_webhook_secret", re.compile(r"\bwhsec_[A-Za-z0-9]{24,}")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("npm_token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
)

_CONN_RE = re.compile(
    r"\b([a-z][a-z0-9+.-]{1,20})://([^\s:/@]{0,64}):([^\s@/]{1,128})@([^\s/?#]{1,255})"
)
_BEARER_RE = re.compile(r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)")
_BASIC_RE = re.compile(r"(?i:authorization)\W{0,5}Basic\s+([A-Za-z0-9+/]{8,}={0,2})")

# key=value / key: value where the key names a credential.  The keyword anchors
# the match (PGPASSWORD, aws_secret_access_key, client_secret, GITLAB_TOKEN).
_ASSIGN_RE = re.compile(
    r"(?i)(pass(?:word|wd|phrase|code)?|pwd|secret|token|api[_-]?key|apikey|"
    r"access[_-]?key|auth[_-]?key|private[_-]?key|credentials?)([\w.-]{0,20})"
    r"[ \t]{0,3}(:=|=|:)[ \t]{0,3}['\"]?([^\s'\"`,;]{3,200})"
)
# Prose: "the wifi password is X", "the Twilio auth token is X".
_PROSE_SECRET_RE = re.compile(
    r"(?i)\b(password|passcode|passphrase|pin|token|secret|api key)\b"
    r"[^.\n:=]{0,30}?\b(?:is|was)\s+['\"]?([^\s'\"`,;]{4,200})"
)
# "login ... admin / Kx9#mP2" and "credentials: bob / pw".
_PAIR_RE = re.compile(
    r"(?i)\b(?:login|logins|credentials?|creds)\b[^\n]{0,40}?\b([\w.@-]{2,40})[ \t]*/[ \t]*(\S{4,64})"
)
_SECRETISH_SUFFIX_RE = re.compile(r"(?i)(?:key|secret|token|password|passwd|pwd|pass|phrase)$")
_PLACEHOLDERS = frozenset(
    {
        "none", "null", "nil", "true", "false", "password", "passwd", "pass", "secret",
        "token", "changeme", "change_me", "redacted", "example", "required", "optional",
        "string", "str", "bytes", "int", "hidden", "masked", "your_password",
        "yourpassword", "your_token", "your_api_key", "mypassword", "e.g.", "i.e.",
        "empty", "undefined", "dummy", "test", "foo", "bar", "placeholder",
    }
)
# The generic high-entropy candidate: base64/base62-ish runs.
_TOKEN_RE = re.compile(r"[A-Za-z0-9+/_~=-]{20,}")
_HEX_RE = re.compile(r"[0-9a-fA-F-]+")

# --------------------------------------------------------------------------
# PII patterns
# --------------------------------------------------------------------------

_EMAIL_RE = re.compile(r"\b[A-Za-z0-9._%+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24})\b")
_RESERVED_EMAIL_DOMAINS = ("example.com", "example.net", "example.org")
# .internal is ICANN-reserved for private networks (2024); .local is mDNS.
_RESERVED_TLDS = (".example", ".test", ".invalid", ".localhost", ".local", ".internal")

_PHONE_INTL_RE = re.compile(r"(?<![\w+])\+\d[\d \t().-]{6,22}\d(?!\w)")
_PHONE_NANP_RE = re.compile(r"(?<![\w.-])(?:\(\d{3}\)[ \t]?\d{3}[ .-]\d{4}|\d{3}([.-])\d{3}\1\d{4})(?![\w-])")
_PHONE_CUE_RE = re.compile(
    r"(?i)\b(?:phone|mobile|cell|tel|telephone|whatsapp|call me|text me|"
    r"(?:home|work|contact|cell|phone|my|his|her|their) number|reach (?:me|him|her|them) at)\b"
)
_PHONE_LOCAL_RE = re.compile(r"\(?\d[\d \t().-]{5,18}\d")
_DATEISH_RE = re.compile(r"^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$")

_SSN_RE = re.compile(r"(?<![\w-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])")
_CARD_RE = re.compile(r"(?<![\d+.-])(?:\d[ -]?){12,18}\d(?![\d-])")
_TEST_CARDS = frozenset(
    {
        "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881",
        "5555555555554444", "5200828282828210", "5105105105105100", "2223003122003222",
        "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
        "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005",
    }
)
_IBAN_RE = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")

_STREET_SUFFIX_STRONG = (
    r"Street|Avenue|Ave\.?|Road|Rd\.?|Boulevard|Blvd\.?|Lane|Terrace|Parkway|Pkwy\.?|"
    r"Crescent|Highway|Hwy\.?"
)
_STREET_SUFFIX_WEAK = r"St\.?|Drive|Dr\.?|Way|Place|Pl\.?|Court|Ct\.?|Square|Close|Row|Gardens"
_NAME_WORD = r"[A-Z][\w'.-]{0,30}"
_STREET_STRONG_RE = re.compile(
    rf"\b\d{{1,5}}[A-Za-z]?[ \t]+(?:{_NAME_WORD}[ \t]+){{1,3}}(?:{_STREET_SUFFIX_STRONG})(?!\w)"
)
_STREET_WEAK_RE = re.compile(
    rf"\b\d{{1,5}}[A-Za-z]?[ \t]+(?:{_NAME_WORD}[ \t]+){{1,3}}(?:{_STREET_SUFFIX_WEAK})"
    rf"(?:,[ \t]*[A-Z][a-z]+|[ \t]+\d{{5}})"
)
# "15 rue de la Paix", "Calle Mayor 5", "Via Roma 12".
_STREET_ROMANCE_RE = re.compile(
    r"\b\d{1,4}(?:[ \t]?bis)?,?[ \t]+(?i:rue|boulevard|chemin|allée|impasse|quai|"
    r"calle|avenida|rua|viale|piazza|carrer|paseo)[ \t]+[\w'-]{1,30}"
    r"|\b(?:Calle|Avenida|Rua|Via|Viale|Piazza|Carrer|Paseo|Rue)[ \t]+"
    r"(?:(?:de|del|la|di|da|do|dos|das|della)[ \t]+|[A-ZÀ-Ý][\w'-]{0,30}[ \t]+){1,4}\d{1,4}(?=,|[ \t]*$|[ \t]+\d{5})"
)
# "Hauptstraße 12", "Kerkstraat 5".
_STREET_GERMANIC_RE = re.compile(
    r"\b[A-ZÄÖÜ][a-zäöüß]{2,30}(?:straße|strasse|str\.|weg|gasse|platz|allee|straat|laan|gracht|plein)"
    r"[ \t]+\d{1,4}[a-z]?\b"
)
_PO_BOX_RE = re.compile(r"(?i)\bP\.?[ \t]?O\.?[ \t]+Box[ \t]+\d{1,6}\b")
# Preceded by a town ("London NW1 6XE") so "S3 1TB" or "EC2 2GB" never match.
_UK_POSTCODE_RE = re.compile(r"\b[A-Z][a-z]+,?[ \t]+[A-Z]{1,2}\d[A-Z\d]?[ \t]\d(?![KMGTP]B\b)[ABD-HJLNP-UW-Z]{2}\b")
_US_STATE_ZIP_RE = re.compile(r",[ \t]*[A-Z]{2}[ \t]+\d{5}(?:-\d{4})?\b")
_EU_POSTCODE_CITY_RE = re.compile(r"(?:,[ \t]*|\b(?:in|à)[ \t]+)\d{5}[ \t]+[A-ZÀ-Ý][a-zà-ÿ]{2,30}")

_DOB_RE = re.compile(
    r"(?i)\b(?:born(?: on)?|date of birth|d\.?o\.?b\.?|birthday|birth date)\b[^\n\d]{0,20}"
    r"(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Za-z]{3,9}\s+\d{4}|[A-Za-z]{3,9}\s+\d{1,2},?\s+\d{4})"
)
_IPV4_RE = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
_VERSION_CUE_RE = re.compile(r"(?i)(?:\bv|version|release|build|ver\.?)\s*$")
_PUBLIC_RESOLVERS = frozenset({"8.8.8.8", "8.8.4.4", "1.1.1.1", "1.0.0.1", "9.9.9.9", "149.112.112.112", "208.67.222.222", "208.67.220.220"})
_NON_PERSONAL_NETS = tuple(
    ipaddress.ip_network(n)
    for n in ("100.64.0.0/10", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "0.0.0.0/8")
)

# --------------------------------------------------------------------------
# Detection
# --------------------------------------------------------------------------


class _Collector:
    """Collects findings and remembers claimed spans so one value is reported once."""

    def __init__(self, length: int) -> None:
        self.findings: list[Finding] = []
        # One byte per character: checking a span is a C-level find, so thousands
        # of candidates in a pathological text stay linear.
        self._claimed = bytearray(length)

    def overlaps(self, start: int, end: int) -> bool:
        return self._claimed.find(1, start, end) != -1

    def add(self, kind: str, label: str, excerpt: str, weight: float, span: tuple[int, int] | None = None) -> None:
        if span is not None:
            self._claimed[span[0] : span[1]] = b"\x01" * (span[1] - span[0])
        self.findings.append(Finding(kind, label, excerpt, weight))


def _is_placeholder(value: str) -> bool:
    v = value.strip("'\"`.,;:)(").lower()
    if not v or v in _PLACEHOLDERS:
        return True
    if v[0] in "$<{%[(*#" or "..." in v or "…" in v or "(" in v:
        return True
    if len(set(v)) == 1:  # xxxx, ****, 0000
        return True
    if re.match(r"(?:os\.|process\.env|env\.|settings\.|config\.|getenv|self\.|request\.|args\.)", v):
        return True
    return bool(re.fullmatch(r"(?:your|my|the|some|example|dummy|fake|test)[_-]?\w*", v))


def _looks_secretish(value: str) -> bool:
    """A prose value ("password is X") is a secret only if it is not a plain word."""
    v = value.rstrip(".,;:!?)")
    if len(v) < 4:
        return False
    has_digit = any(c.isdigit() for c in v)
    has_symbol = any(not c.isalnum() and c not in ".-'’" for c in v)
    inner_upper = any(c.isupper() for c in v[1:]) and any(c.islower() for c in v)
    return has_digit or has_symbol or inner_upper


def _detect_secrets(text: str, out: _Collector) -> None:
    for m in _PEM_RE.finditer(text):
        out.add("secret", "private_key", m.group(0).strip("-"), W_PRIVATE_KEY, m.span())
    for m in _JWT_RE.finditer(text):
        out.add("secret", "jwt", mask(m.group(0)), W_JWT, m.span())
    for label, rx in _VENDOR_TOKENS:
        for m in rx.finditer(text):
            if not out.overlaps(*m.span()):
                out.add("secret", label, mask(m.group(0)), W_VENDOR_TOKEN, m.span())
    for m in _CONN_RE.finditer(text):
        scheme, _user, password, host = m.groups()
        if _is_placeholder(password) or out.overlaps(*m.span()):
            continue
        out.add("secret", "connection_string", f"{scheme}://…:{mask(password)}@{host}", W_CONNECTION_STRING, m.span())
    for m in _BEARER_RE.finditer(text):
        value = m.group(1)
        if out.overlaps(*m.span(1)) or _is_placeholder(value) or not any(c.isdigit() for c in value):
            continue
        out.add("secret", "bearer_token", mask(value), W_AUTH_HEADER, m.span())
    for m in _BASIC_RE.finditer(text):
        try:
            decoded = base64.b64decode(m.group(1), validate=True).decode("utf-8", "replace")
        except (binascii.Error, ValueError):
            continue
        if ":" in decoded and not out.overlaps(*m.span(1)):
            out.add("secret", "basic_auth", mask(m.group(1)), W_AUTH_HEADER, m.span())
    for m in _ASSIGN_RE.finditer(text):
        key_word, suffix, op, value = m.groups()
        value = value.rstrip(".,;:!?)")
        # token_ttl=3600, password_min_length=12: the key describes a setting, not a secret.
        if suffix and not _SECRETISH_SUFFIX_RE.search(suffix):
            continue
        if out.overlaps(*m.span(4)) or _is_placeholder(value):
            continue
        if value.isdigit() and len(value) < 6:
            continue
        if op == ":" and not _looks_secretish(value):  # "Password: must be 12 chars"
            continue
        key = (key_word + suffix)[-24:]
        out.add("secret", "credential_assignment", f"{key}{op}{mask(value)}", W_CREDENTIAL_ASSIGNMENT, m.span(4))
    for m in _PROSE_SECRET_RE.finditer(text):
        value = m.group(2).rstrip(".,;:!?)")
        if out.overlaps(*m.span(2)) or _is_placeholder(value) or not _looks_secretish(value):
            continue
        out.add("secret", "credential_assignment", f"{m.group(1).lower()} is {mask(value)}", W_CREDENTIAL_ASSIGNMENT, m.span(2))
    for m in _PAIR_RE.finditer(text):
        value = m.group(2).rstrip(".,;:!?)")
        if out.overlaps(*m.span(2)) or _is_placeholder(value) or not _looks_secretish(value):
            continue
        out.add("secret", "credential_pair", f"{m.group(1)} / {mask(value)}", W_CREDENTIAL_ASSIGNMENT, m.span(2))


def _high_entropy(token: str) -> bool:
    """A random-looking base62/base64 run (see module docstring for exclusions)."""
    core = token.strip("=-_/~+")
    if len(core) < 20 or "//" in core:
        return False
    if _HEX_RE.fullmatch(core):  # SHAs, digests, UUIDs: see module docstring
        return False
    if not (any(c.isdigit() for c in core) and any(c.isupper() for c in core) and any(c.islower() for c in core)):
        return False
    # Paths such as src/MyModule2/handlers: a word-like segment means structure, not randomness.
    if "/" in core and any(re.fullmatch(r"[a-z]{3,}(?:[-_][a-z]+)*", seg) for seg in core.split("/")):
        return False
    letters = [c for c in core if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters)
    digits = sum(c.isdigit() for c in core)
    # Identifiers (test_Parses_Utf8_Header_Names) read like words: many vowels, few digits.
    if letters and vowels / len(letters) >= 0.3 and digits / len(core) < 0.15:
        return False
    return shannon_entropy(core) >= 0.8 * math.log2(min(len(core), 64))


def _detect_high_entropy(text: str, out: _Collector) -> None:
    for m in _TOKEN_RE.finditer(text):
        if out.overlaps(*m.span()):
            continue
        if _high_entropy(m.group(0)):
            out.add("secret", "high_entropy_string", mask(m.group(0)), W_HIGH_ENTROPY, m.span())


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def _detect_pii(text: str, out: _Collector) -> None:
    for m in _IBAN_RE.finditer(text):
        if not out.overlaps(*m.span()) and iban_valid(m.group(0)):
            out.add("pii", "iban", mask(m.group(0).replace(" ", "")), W_IBAN, m.span())
    for m in _CARD_RE.finditer(text):
        digits = _digits(m.group(0))
        if out.overlaps(*m.span()) or not 13 <= len(digits) <= 19 or digits[0] not in "23456":
            continue
        if digits in _TEST_CARDS or not luhn_valid(digits):
            continue
        out.add("pii", "card_number", mask(digits), W_CARD, m.span())
    for m in _SSN_RE.finditer(text):
        if not out.overlaps(*m.span()):
            out.add("pii", "ssn", mask(m.group(0)), W_SSN, m.span())
    for m in _EMAIL_RE.finditer(text):
        domain = m.group(1).lower()
        # scheme://user@host is URL userinfo (a login name for a service), not a mailbox.
        if out.overlaps(*m.span()) or text[max(0, m.start() - 3) : m.start()] == "://":
            continue
        if domain in _RESERVED_EMAIL_DOMAINS or domain.endswith(tuple("." + d for d in _RESERVED_EMAIL_DOMAINS)):
            continue
        if domain.endswith(_RESERVED_TLDS):
            continue
        out.add("pii", "email", mask(m.group(0)), W_EMAIL, m.span())
    _detect_phones(text, out)
    _detect_addresses(text, out)
    for m in _DOB_RE.finditer(text):
        if not out.overlaps(*m.span(1)):
            out.add("pii", "date_of_birth", mask(m.group(1)), W_DATE_OF_BIRTH, m.span(1))
    for m in _IPV4_RE.finditer(text):
        if out.overlaps(*m.span()) or _VERSION_CUE_RE.search(text[max(0, m.start() - 10) : m.start()]):
            continue
        try:
            ip = ipaddress.IPv4Address(m.group(0))
        except ValueError:
            continue
        if not ip.is_global or m.group(0) in _PUBLIC_RESOLVERS or any(ip in n for n in _NON_PERSONAL_NETS):
            continue
        out.add("pii", "public_ip", mask(m.group(0)), W_PUBLIC_IP, m.span())


def _phone_ok(candidate: str, lo: int, hi: int) -> bool:
    digits = _digits(candidate)
    if not lo <= len(digits) <= hi:
        return False
    if _DATEISH_RE.match(candidate.strip()):
        return False
    # "1.2.3.4", "3.11.4": dotted groups are versions and IPs, not phones.
    return not re.fullmatch(r"[\d.]+", candidate.strip())


def _detect_phones(text: str, out: _Collector) -> None:
    for m in _PHONE_INTL_RE.finditer(text):
        if not out.overlaps(*m.span()) and _phone_ok(m.group(0), 8, 15):
            out.add("pii", "phone", mask(m.group(0)), W_PHONE, m.span())
    for m in _PHONE_NANP_RE.finditer(text):
        if not out.overlaps(*m.span()):
            out.add("pii", "phone", mask(m.group(0)), W_PHONE, m.span())
    for cue in _PHONE_CUE_RE.finditer(text):
        window_start = cue.end()
        local = _PHONE_LOCAL_RE.search(text, window_start, window_start + 40)
        if local is None or out.overlaps(*local.span()):
            continue
        if _phone_ok(local.group(0), 7, 15):
            out.add("pii", "phone", mask(local.group(0)), W_PHONE, local.span())


def _detect_addresses(text: str, out: _Collector) -> None:
    for rx in (
        _STREET_STRONG_RE,
        _STREET_WEAK_RE,
        _STREET_ROMANCE_RE,
        _STREET_GERMANIC_RE,
        _PO_BOX_RE,
        _UK_POSTCODE_RE,
        _US_STATE_ZIP_RE,
        _EU_POSTCODE_CITY_RE,
    ):
        for m in rx.finditer(text):
            if out.overlaps(*m.span()):
                continue
            label = "postcode" if rx in (_UK_POSTCODE_RE, _US_STATE_ZIP_RE, _EU_POSTCODE_CITY_RE) else "address"
            out.add("pii", label, mask(m.group(0).strip(", \t")), W_ADDRESS, m.span())


def _lower(text: str) -> str:
    """Lower-case ``text`` without changing offsets (a few characters lower to two)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _word_matches(rx: re.Pattern[str], text: str, starts: list[int] | None = None) -> Iterator[re.Match[str]]:
    """Non-overlapping matches of ``rx`` that start at a word boundary.

    With ``starts`` (word-start offsets) the pattern is only tried there: for the
    big alternations that is ~25x faster than letting finditer try every offset.
    """
    if starts is None:
        for m in rx.finditer(text):
            start = m.start()
            if start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-"):
                yield m
        return
    last_end = 0
    for pos in starts:
        if pos < last_end:
            continue
        found = rx.match(text, pos)
        if found is not None:
            last_end = found.end()
            yield found


def _word_starts(low: str) -> list[int]:
    return [m.start() for m in WORD_START_RE.finditer(low) if m.start() == 0 or low[m.start() - 1] != "-"]


def _has_word(rx: re.Pattern[str], text: str) -> bool:
    return next(_word_matches(rx, text), None) is not None


def _blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace spans with spaces, keeping offsets, so the lexicon cannot see them."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _person_near(low: str, orig: str, start: int, end: int) -> bool:
    """A person reference shortly before or after an opinion word ("my manager is lazy")."""
    lo, hi = max(0, start - 60), min(len(low), end + 30)
    return (
        _has_word(PERSON_PRONOUN_RE, low[lo:hi])
        or _has_word(ROLE_NOUN_RE, low[lo:hi])
        or NAMED_PERSON_RE.search(orig, lo, hi) is not None
    )


def _iter_lexicon(low: str, orig: str, starts: list[int]) -> Iterator[tuple[str, float, str]]:
    for m in _word_matches(LEXICON_RE, low, starts):
        label, strength = LEXICON_GROUPS[m.lastgroup or ""]
        yield label, strength, orig[m.start() : m.end()]
    for m in _word_matches(POSSESSIVE_KIN_RE, low, starts):
        yield "family", W_STRONG, orig[m.start() : m.end()]
    for m in _word_matches(OPINION_RE, low, starts):
        near = _person_near(low, orig, m.start(), m.end())
        yield "opinion_about_person", W_STRONG if near else W_WEAK, orig[m.start() : m.end()]


def _detect_personal(text: str, out: _Collector) -> None:
    low = _lower(text)
    tech = [m.span() for m in _word_matches(TECH_COMPOUNDS_RE, low, _word_starts(low))]
    if tech:
        low, orig = _blank_spans(low, tech), _blank_spans(text, tech)
    else:
        orig = text
    first_person = _has_word(FIRST_PERSON_RE, low) or IMPLICIT_FIRST_PERSON_RE.search(low) is not None
    person_ref = (
        _has_word(PERSON_PRONOUN_RE, low) or _has_word(ROLE_NOUN_RE, low) or NAMED_PERSON_RE.search(orig) is not None
    )
    anchored = first_person or person_ref or _has_word(KIN_ANCHOR_RE, low)
    factor = 1.0 if anchored else UNANCHORED_FACTOR
    starts = _word_starts(low)

    # One finding per term, keeping its strongest reading ("my brother" over "brother"):
    # repeating a word is not more evidence.
    best: dict[str, Finding] = {}
    for label, strength, term in _iter_lexicon(low, orig, starts):
        key = " ".join(term.lower().split())
        key = key.removeprefix("my ").removeprefix("our ")
        finding = Finding("personal", label, term, round(strength * factor, 4))
        prev = best.get(key)
        if prev is None or finding.weight > prev.weight:
            best[key] = finding
    personal = list(best.values())

    feelings: dict[str, Finding] = {}
    for m in _word_matches(FEELING_RE, low, starts):
        weight = FEELING_WEIGHTS[m.lastgroup or "mild"]
        phrase = orig[m.start() : m.end()]
        feelings.setdefault(m.group(0), Finding("feeling", "first_person_feeling", phrase, weight))
    if not feelings:
        for m in _word_matches(I_FEEL_RE, low):
            feelings.setdefault("i feel", Finding("feeling", "i_feel", orig[m.start() : m.end()], W_I_FEEL))
    # Drop a feeling fully contained in a longer one ("I'm anxious" inside "I'm really anxious").
    keys = list(feelings)
    for k in keys:
        if any(k != other and k in other for other in keys):
            feelings.pop(k, None)
    personal.extend(feelings.values())

    if personal and anchored:
        cue = "first person" if first_person else "about a person"
        personal.append(Finding("personal", "person_context", cue, W_PERSON_CONTEXT))
    out.findings.extend(personal)


def score(text: str) -> Sensitivity:
    """Rate how sensitive ``text`` is for sharing with another person's agent.

    Returns a :class:`Sensitivity` whose ``score`` is in [0, 1] (noisy-OR of the
    finding weights) and whose ``blocked`` is True at ``BLOCK_THRESHOLD`` or
    above.  Pure and deterministic; never raises on any ``str``.
    """
    if not text or not text.strip():
        return Sensitivity(0.0, ())
    out = _Collector(len(text))
    _detect_secrets(text, out)
    _detect_pii(text, out)
    _detect_high_entropy(text, out)
    _detect_personal(text, out)
    remaining = 1.0
    for f in out.findings:
        remaining *= 1.0 - min(max(f.weight, 0.0), 1.0)
    value = round(min(max(1.0 - remaining, 0.0), 1.0), 4)
    return Sensitivity(value, tuple(out.findings))
