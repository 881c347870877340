"""Signed share bundles: a per-store Ed25519 key, and the keys of partners pinned on first use.

A bundle's digest proves it was not altered on the way, not who made it: anyone can
write a bundle "from alice" whose revocations purge the copies alice shared. So every
bundle is signed with its store's own key (kept in ``_mem_meta``, which lives in the
private 0600 file), and the first signed bundle from a partner pins that partner's
public key; later bundles must carry the same key. A revocation is honoured only from
a key pinned by an earlier bundle (or confirmed with ``--trust-key``), so a stranger's
key cannot purge anything. Library: ``cryptography`` (pinned in requirements.txt).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from memengine.errors import UserError

OWN_KEY = "share_signing_key"  # _mem_meta: this store's private key (raw 32 bytes, base64)
PARTNER_KEY = "share_partner_key:"  # _mem_meta: + owner name -> the partner's pinned public key (base64)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def fingerprint(public_b64: str) -> str:
    """A short, readable form of a public key to compare out of band (16 hex digits in 4 groups)."""
    h = hashlib.sha256(base64.b64decode(public_b64)).hexdigest()[:16]
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


def _meta(conn: Any, key: str) -> str | None:
    row = conn.execute("SELECT value FROM _mem_meta WHERE key = ?", (key,)).fetchone()
    return str(row[0]) if row else None


def own_public_key(conn: Any) -> str | None:
    """This store's public key (base64), or None before its first signed bundle."""
    raw = _meta(conn, OWN_KEY)
    if raw is None:
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(raw))
    return _b64(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def ensure_own_key(conn: Any) -> None:
    """Create this store's signing key if it has none (call inside a write transaction)."""
    if _meta(conn, OWN_KEY) is not None:
        return
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    raw = Ed25519PrivateKey.generate().private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    conn.execute("INSERT INTO _mem_meta(key, value) VALUES (?, ?)", (OWN_KEY, _b64(raw)))


def sign(conn: Any, digest: str) -> dict[str, str]:
    """The ``signature`` object of a bundle: Ed25519 over its digest, with the public key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = _meta(conn, OWN_KEY)
    if raw is None:
        raise RuntimeError("no signing key: call ensure_own_key first")
    key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(raw))
    public = _b64(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))
    return {"alg": "ed25519", "public_key": public, "sig": _b64(key.sign(digest.encode("ascii")))}


def verify(signature: Any, digest: str) -> str:
    """The signer's public key (base64) if ``signature`` is a valid Ed25519 signature of ``digest``.

    Raises ValueError (malformed or not matching: forged or altered).
    """
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(signature, dict) or signature.get("alg") != "ed25519":
        raise ValueError("signature is malformed (expected an ed25519 signature object)")
    try:
        public = base64.b64decode(str(signature.get("public_key")), validate=True)
        sig = base64.b64decode(str(signature.get("sig")), validate=True)
        Ed25519PublicKey.from_public_bytes(public).verify(sig, digest.encode("ascii"))
    except (ValueError, InvalidSignature) as exc:
        raise ValueError("signature does not match the bundle: forged or altered") from exc
    return _b64(public)


def pinned_key(conn: Any, owner: str) -> str | None:
    """The public key pinned for partner ``owner`` (base64), if any."""
    return _meta(conn, PARTNER_KEY + owner)


def pin_key(conn: Any, owner: str, public_b64: str) -> None:
    """Pin (or, confirmed by the user, replace) a partner's public key; inside a write transaction."""
    conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (PARTNER_KEY + owner, public_b64))


def check_bundle_signature(c: Any, bundle: dict[str, Any], trust_key: bool) -> tuple[str | None, list[str]]:
    """Verify a bundle's sender; return (key to pin, warnings) or raise UserError.

    - a signature that does not verify: refused (forged or altered);
    - signed by another key than the one pinned for the sender: refused, unless
      ``trust_key`` (the partner really changed stores: compare fingerprints first);
    - a key seen for the first time is pinned, but its revocations of offers received
      here are refused unless ``trust_key``: a stranger's fresh key must not purge a
      partner's copies (withdrawing one of our own offers is harmless, so it may);
    - unsigned (a version-1 bundle of an older mem): refused if the sender's key is
      known or if it carries revocations, else imported with a loud warning.
    """
    sender = bundle["from"]
    pinned = pinned_key(c, sender)
    sig = bundle.get("signature")
    if sig is None:
        if pinned is not None:
            raise UserError(f"bundle from {sender} is unsigned, but {sender}'s key is known "
                                 f"({fingerprint(pinned)}): forged, refused")
        if bundle["revocations"]:
            raise UserError(f"unsigned bundle from {sender} carries revocations: refused (anyone can write "
                                 f"one; ask {sender} to upgrade mem and export again)")
        return None, [f"UNSIGNED bundle from {sender} (made by an older mem): who made it cannot be verified; "
                      "its offers still wait for your approval"]
    try:
        key = verify(sig, bundle["digest"])
    except ValueError as exc:
        raise UserError(f"bundle from {sender}: {exc}; refused") from exc
    fp = fingerprint(key)
    if pinned is not None and key != pinned and not trust_key:
        raise UserError(f"bundle from {sender} is signed by key {fp}, not by {sender}'s known key "
                             f"{fingerprint(pinned)}: forged, or {sender} moved to a new store "
                             "(compare with their `mem.py share whoami`, then import with --trust-key)")
    # a revocation of an offer we received purges our copies: only from a key we already knew;
    # one of our own outgoing offers only withdraws it (fail-safe), so a first key may do that
    purging = [r["offer_id"] for r in bundle["revocations"] if c.execute(
        "SELECT 1 FROM share_offers WHERE offer_id = ? AND direction = 'incoming'", (r["offer_id"],)).fetchone()]
    if (pinned is None or key != pinned) and purging and not trust_key:
        raise UserError(f"first signed bundle from {sender} (key {fp}) revokes offers you received: refused until you "
                             f"confirm the key with {sender} (`mem.py share whoami` on their side), then import "
                             "with --trust-key")
    return key, []
