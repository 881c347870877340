"""The share bundle file: its format, digest, and every check that needs no database.

A bundle is a JSON file one owner moves to the other over any channel (see
:mod:`memengine.sharing` for the trust model). Reading one checks format, version,
digest, owners, consents and each item's sha256 before anything touches a store, so
a damaged or altered file is refused with the place it is wrong.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from memengine.errors import UserError

BUNDLE_FORMAT = "mem-share-bundle"
BUNDLE_VERSION = 2  # 2: signed (memengine/sharekeys.py); 1: unsigned, still read (loudly)
SUPPORTED_VERSIONS = (1, 2)
BUNDLE_SUFFIX = ".membundle"
MAX_BUNDLE_BYTES = 64 * 1024 * 1024  # a bundle carries text only; anything larger is not ours
ROLE_A = "owner-a"  # the offering side's owner
ROLE_B = "owner-b"  # the partner's owner
ROLES = (ROLE_A, ROLE_B)
SHAREABLE_TYPES = ("semantic", "procedural")
OFFER_ID_RE = re.compile(r"^off-[0-9a-f]{16}$")
OWNER_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")


def item_sha256(content: str) -> str:
    """sha256 of the exact UTF-8 content (any edit, even whitespace, changes it)."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def canonical_json(obj: Any) -> bytes:
    """The bytes the bundle digest is computed over: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def bundle_digest(bundle: dict[str, Any]) -> str:
    """sha256 over the canonical JSON of the bundle without its ``digest`` and ``signature`` fields."""
    body = {k: v for k, v in bundle.items() if k not in ("digest", "signature")}
    return hashlib.sha256(canonical_json(body)).hexdigest()


def write_bundle(bundle: dict[str, Any], path: Path) -> None:
    """Write a bundle file (pretty JSON, UTF-8); the digest is over canonical JSON, so layout is free."""
    from memengine.privfile import write_private

    write_private(path, (json.dumps(bundle, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))  # 0600


def read_bundle(path: Path) -> dict[str, Any]:
    """Load a bundle file and check everything that needs no database: format, version, digest, items."""
    try:
        size = path.stat().st_size
        if size > MAX_BUNDLE_BYTES:
            raise UserError(f"{path}: {size:,} bytes is larger than a bundle can be ({MAX_BUNDLE_BYTES:,})")
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror}") from exc
    from memengine import cleantext

    try:  # a bundle nests 4 deep: 200k '[' is refused before the parser recurses
        bundle = cleantext.loads(cleantext.decode_utf8(raw, str(path)), str(path), limit=16)
    except ValueError as exc:
        raise UserError(f"{path}: not a share bundle ({str(exc).removeprefix(str(path) + ': ')})") from exc
    validate_bundle(bundle, str(path))
    return bundle


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise UserError(f"{where}: {message}")


def _is_str(v: Any) -> bool:
    return isinstance(v, str) and bool(v)


def _is_text(v: str) -> bool:
    """Storable text with something in it: no NUL, no lone surrogate, not blank."""
    from memengine.cleantext import check_text

    try:
        return "\0" not in v and bool(check_text(v, "content").strip())
    except ValueError:
        return False


def validate_bundle(bundle: Any, where: str = "bundle") -> None:
    """Refuse anything malformed, of another format or version, altered, or carrying episodic items."""
    _need(isinstance(bundle, dict), where, "not a share bundle (expected a JSON object)")
    _need(bundle.get("format") == BUNDLE_FORMAT, where, f"not a share bundle (format {bundle.get('format')!r})")
    _need(bundle.get("version") in SUPPORTED_VERSIONS, where,
          f"unsupported bundle version {bundle.get('version')!r} (this mem reads {', '.join(map(str, SUPPORTED_VERSIONS))})")
    _need(isinstance(bundle.get("digest"), str), where, "bundle has no digest")
    _need(bundle_digest(bundle) == bundle["digest"], where,
          "bundle digest does not match its content: the file was altered or damaged")
    for key in ("from", "to"):
        _need(_is_str(bundle.get(key)) and bool(OWNER_RE.match(bundle[key])), where, f"field {key!r} is not an owner name")
    _need(bundle["from"] != bundle["to"], where, "bundle is addressed to its own sender")
    _need(_is_str(bundle.get("created_at")), where, "field 'created_at' is missing")
    for key in ("offers", "consents", "revocations"):
        _need(isinstance(bundle.get(key), list), where, f"field {key!r} must be a list")
    for i, o in enumerate(bundle["offers"]):
        at = f"{where}: offer {i + 1}"
        _need(isinstance(o, dict) and _is_str(o.get("offer_id")) and bool(OFFER_ID_RE.match(o["offer_id"])),
              at, "bad offer_id")
        at = f"{where}: offer {o['offer_id']}"
        _need(o.get("owner_a") == bundle["from"] and o.get("owner_b") == bundle["to"], at,
              "owners do not match the bundle's sender and recipient")
        consent_a = (o.get("consents") or {}).get(ROLE_A) if isinstance(o.get("consents"), dict) else None
        _need(isinstance(consent_a, dict) and consent_a.get("by") == bundle["from"] and _is_str(consent_a.get("at")),
              at, f"lacks {ROLE_A}'s consent")
        _need(isinstance(o.get("items"), list) and bool(o["items"]), at, "has no items")
        for j, it in enumerate(o["items"]):
            iat = f"{at} item {j + 1}"
            _need(isinstance(it, dict) and _is_str(it.get("content")) and _is_text(it["content"]), iat,
                  "has no content (empty, NUL characters or invalid Unicode)")
            _need(it.get("memory_type") in SHAREABLE_TYPES, iat,
                  f"has type {it.get('memory_type')!r}: only semantic and procedural memories are accepted "
                  "(episodic memories are never shared)")
            _need(isinstance(it.get("sha256"), str) and bool(SHA256_RE.match(it["sha256"])), iat, "has no sha256")
            _need(item_sha256(it["content"]) == it["sha256"], iat, "content does not match its sha256: altered")
    for i, c in enumerate(bundle["consents"]):
        at = f"{where}: consent {i + 1}"
        _need(isinstance(c, dict) and _is_str(c.get("offer_id")) and bool(OFFER_ID_RE.match(c["offer_id"])), at,
              "bad offer_id")
        _need(c.get("role") == ROLE_B and c.get("by") == bundle["from"] and _is_str(c.get("at")), at,
              f"must be {ROLE_B}'s consent by the sender")
        _need(isinstance(c.get("items"), list) and all(isinstance(h, str) for h in c["items"]), at, "bad items")
    for i, r in enumerate(bundle["revocations"]):
        at = f"{where}: revocation {i + 1}"
        _need(isinstance(r, dict) and _is_str(r.get("offer_id")) and bool(OFFER_ID_RE.match(r["offer_id"])), at,
              "bad offer_id")
        _need(r.get("by") == bundle["from"] and _is_str(r.get("at")), at, "must be made by the sender")
