"""Cross-agent memory sharing with dual consent: offers, consents, bundles, import, revocation.

Two people who work together each keep their own memory file, possibly on two
machines. They may share *semantic* and *procedural* memories, never episodic
ones, never personal ones, and only when both owners agree. Nothing here talks to
a network: bundles are JSON files the owners move over any channel they choose.

Trust model (one offer, A = the offering side, B = the partner)::

    A's machine                                   B's machine
    -----------                                   -----------
    share offer 12 --with B   (gates: type, derived-from-episodic, sensitivity)
    share approve O --as owner-a      consent A
    share export --with B  ----- offer bundle ---->  share import  (gates again, B's
                                                     scorer; pending, not a memory yet)
                                                     share approve O --as owner-b
                                                         consent B: copies become memories
                                                         with source 'shared:A'
    share import  <------- consent bundle --------  share export --with A
    (offer enters A's pool: both consents)
    share revoke O  ------ revocation bundle ---->  share import: copies hard-deleted
      (or B revokes: B's copies go at once, and the revocation travels back to A)

Each owner consents on their own machine against their own file: owner-a cannot
consent for owner-b, or the reverse (``approve`` checks the role against the offer's
direction). B sees the content before consenting (that is what the offer bundle is
for); nothing enters B's memory until B approves.

Bundles are tamper-evident, not authenticated: every item carries the sha256 of its
content and the bundle carries a sha256 digest over its canonical JSON, so an edited
item or an edited header is refused. Someone able to rewrite the file can also
recompute the digests; authenticity rests on the channel the owners use.

What counts as episodic: episodic memories, and memories derived from them
(associations ``derived_from``, summary -> member, followed transitively) unless an
owner re-marked that summary with ``share mark-semantic``; the mark records the
content hash the owner saw, so a summary rewritten later counts as episodic again.
A partner's memories, and summaries derived from them, are never offered onwards.

Purge is a hard delete: the copies are the other person's withdrawn data, so a
restorable soft delete would keep exactly what they asked to remove. It runs with
``secure_delete``, FTS5 ``secure-delete`` and overwritten vectors, then folds the WAL
back, so the text is gone from the file. Only rows with source ``shared:<partner>``
and a ref of that offer can match: the receiving owner's own memories never do
(their own summaries of the copies are reported, not deleted).

The schema additions (``share_offers``, ``share_bundles``, the ``share_pool`` view and
triggers that refuse episodic, episodic-derived or partner-derived memories in
``shared_memories`` whatever SQL is run) are the named migration ``m002_sharing``
(memengine.migrations), applied when a store is opened.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from memengine import sensitivity, sharekeys, signplane
from memengine.db import sqlite3, write_tx
from memengine.errors import NotFound, UserError
from memengine.migrations import migrate
from memengine.records import SHARED_SOURCE_PREFIX, NewMemory
from memengine.sharebundle import (
    BUNDLE_FORMAT,
    BUNDLE_SUFFIX,
    BUNDLE_VERSION,
    OFFER_ID_RE,
    OWNER_RE,
    ROLE_A,
    ROLE_B,
    ROLES,
    SHAREABLE_TYPES,
    bundle_digest,
    item_sha256,
    validate_bundle,
)
from memengine.store import MemoryStore
from memengine.timeparse import to_iso, utcnow

MIGRATION_NAME = "m002_sharing"
OWNER_META_KEY = "share_owner"
# metadata: an owner re-marked a derived summary as semantic. The value is the content_hash
# the owner saw: if consolidation rewrites the summary, the mark no longer applies.
SEMANTIC_MARK_KEY = "share_semantic"
PROVENANCE_KEY = "shared"  # metadata key holding provenance on received copies
REF_HASH_CHARS = 16  # ref of a received copy: '<offer id>:<first chars of the item sha256>'

# Memory ``mid`` is episodic-tainted when it is episodic, or when it is derived
# (associations 'derived_from', summary -> member) from a tainted memory and no owner
# re-marked this very text semantic. The walk stops at re-marked nodes and tolerates
# cycles (UNION).
_TAINT_SQL = """
WITH RECURSIVE walk(id) AS (
    SELECT {start}
    UNION
    SELECT a.target_id FROM associations a
    JOIN walk w ON a.source_id = w.id
    JOIN memories s ON s.id = w.id
    WHERE a.edge_type = 'derived_from'
      AND s.memory_type <> 'episodic'
      AND coalesce(json_extract(s.metadata, '$.{mark}'), '') <> s.content_hash
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.memory_type = 'episodic'
"""

# A memory received from a partner, or derived from one (a summary consolidation made
# over shared copies), is the partner's content: it is never offered onwards.
_PARTNER_SQL = """
WITH RECURSIVE walk(id) AS (
    SELECT {start}
    UNION
    SELECT a.target_id FROM associations a JOIN walk w ON a.source_id = w.id WHERE a.edge_type = 'derived_from'
)
SELECT 1 FROM walk JOIN memories m ON m.id = walk.id WHERE m.source LIKE '""" + SHARED_SOURCE_PREFIX + """%'
"""

# --------------------------------------------------------------------------- schema

def ensure_schema(conn: Any) -> bool:
    """Apply the ``m002_sharing`` migration (memengine.migrations) if it is not recorded yet;
    return True if applied. Idempotent and safe under concurrent callers (``migrate``)."""
    return MIGRATION_NAME in migrate(conn)


# --------------------------------------------------------------------------- helpers

def _now() -> str:
    now = to_iso(utcnow())
    assert now is not None
    return now


def normalise_owner(name: str) -> str:
    """An owner name as stored: lower case, ``[a-z0-9_.-]``, at most 64 characters."""
    n = (name or "").strip().lower()
    if not OWNER_RE.match(n):
        raise UserError(f"owner name {name!r} must be 1-64 of a-z 0-9 _ . - (starting with a letter or digit)")
    return n


def whoami(store: MemoryStore) -> str | None:
    """This store's owner name, or None if not set."""
    return store.meta(OWNER_META_KEY)


def set_owner(store: MemoryStore, name: str) -> str:
    """Set this store's owner name (``share whoami NAME``)."""
    ensure_schema(store.conn)
    owner = normalise_owner(name)
    current = whoami(store)
    if current and current != owner and store.conn.execute("SELECT 1 FROM share_offers LIMIT 1").fetchone():
        raise UserError(
            f"this store already shares as {current!r}: renaming would orphan its offers (revoke them first)")
    with write_tx(store.conn):
        store.conn.execute("INSERT OR REPLACE INTO _mem_meta(key, value) VALUES (?, ?)", (OWNER_META_KEY, owner))
        sharekeys.ensure_own_key(store.conn)  # the key partners will pin: its fingerprint is shown from now on
    return owner


def own_fingerprint(store: MemoryStore) -> str | None:
    """The fingerprint of this store's signing key (partners compare it), None before it has one."""
    key = sharekeys.own_public_key(store.conn)
    return None if key is None else sharekeys.fingerprint(key)


def _require_owner(store: MemoryStore) -> str:
    owner = whoami(store)
    if not owner:
        raise UserError("this store has no owner name yet: run `mem.py share whoami NAME` first")
    return owner


def is_tainted(conn: Any, memory_id: int) -> bool:
    """True if the memory is episodic or derived from episodic memories without a semantic re-mark."""
    return conn.execute(_TAINT_SQL.format(start="?", mark=SEMANTIC_MARK_KEY), (memory_id,)).fetchone() is not None


def partner_content(conn: Any, memory_id: int) -> str | None:
    """The partner a memory came from, if it was received or derived from received memories."""
    row = conn.execute(_PARTNER_SQL.format(start="?").replace("SELECT 1 FROM", "SELECT m.source FROM"),
                       (memory_id,)).fetchone()
    return row[0][len(SHARED_SOURCE_PREFIX):] if row else None


def _check_offer_id(offer_id: str) -> str:
    oid = (offer_id or "").strip()
    if not OFFER_ID_RE.match(oid):
        raise UserError(f"{offer_id!r} is not an offer id (expected off-<16 hex>; see `mem.py share list`)")
    return oid


@dataclass
class Gate:
    """Why a memory may or may not be shared."""

    memory_id: int
    ok: bool
    sensitivity: float
    reasons: list[str] = field(default_factory=list)
    problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"memory_id": self.memory_id, "ok": self.ok, "sensitivity": self.sensitivity,
                "reasons": self.reasons, "problem": self.problem}


def check_memory(store: MemoryStore, memory_id: int) -> Gate:
    """Every gate a memory must pass to be offered: exists, active, current (not superseded), own, not
    episodic(-derived), not sensitive."""
    ensure_schema(store.conn)
    m = store.get(memory_id)  # NotFound for unknown ids
    sens = sensitivity.score(m.content)
    gate = Gate(memory_id, True, sens.score, sens.reasons())
    if m.memory_type == "episodic":
        gate.problem = "is episodic: episodic memories are never shared"
    elif is_tainted(store.conn, memory_id):
        gate.problem = ("is derived from episodic memories: it counts as episodic unless an owner re-marks it "
                        f"(mem.py share mark-semantic {memory_id})")
    elif (partner := partner_content(store.conn, memory_id)) is not None:
        how = "was received" if m.source.startswith(SHARED_SOURCE_PREFIX) else "is derived from memories received"
        gate.problem = f"{how} from {partner}: partners' memories are not re-shared"
    elif m.status != "active":
        gate.problem = f"is {m.status}: only active memories can be shared"
    elif m.valid_to is not None:  # a bundle never carries a superseded fact as current
        gate.problem = f"was superseded on {m.valid_to[:10]}: only current facts are shared"
    elif m.memory_type not in SHAREABLE_TYPES:
        gate.problem = f"has type {m.memory_type}: only semantic and procedural memories are shared"
    elif sens.blocked:
        gate.problem = (f"sensitivity {sens.score:.2f} >= {sensitivity.BLOCK_THRESHOLD}: "
                        + "; ".join(sens.reasons()))
    gate.ok = gate.problem is None
    return gate


def mark_semantic(store: MemoryStore, memory_id: int, undo: bool = False) -> dict[str, Any]:
    """An owner's explicit re-mark: this summary is semantic knowledge, shareable despite episodic sources."""
    ensure_schema(store.conn)
    m = store.get(memory_id)
    if m.memory_type == "episodic":
        raise UserError(f"memory {memory_id} is episodic itself: it can never be re-marked semantic")
    owner = whoami(store) or "owner"
    with write_tx(store.conn):
        if undo:
            store.conn.execute(
                f"UPDATE memories SET metadata = json_remove(metadata, '$.{SEMANTIC_MARK_KEY}', "
                f"'$.{SEMANTIC_MARK_KEY}_at', '$.{SEMANTIC_MARK_KEY}_by'), updated_at = ? WHERE id = ?",
                (_now(), memory_id))
        else:
            store.conn.execute(
                f"UPDATE memories SET metadata = json_set(metadata, '$.{SEMANTIC_MARK_KEY}', content_hash, "
                f"'$.{SEMANTIC_MARK_KEY}_at', ?, '$.{SEMANTIC_MARK_KEY}_by', ?), updated_at = ? WHERE id = ?",
                (_now(), owner, _now(), memory_id))
    return {"id": memory_id, "marked_semantic": not undo, "tainted": is_tainted(store.conn, memory_id)}


# --------------------------------------------------------------------------- offers and consent

def offer(store: MemoryStore, memory_ids: Iterable[int], partner: str) -> dict[str, Any]:
    """Propose memories to ``partner``; every gate must pass for every id, or nothing is offered."""
    ensure_schema(store.conn)
    me = _require_owner(store)
    partner = normalise_owner(partner)
    if partner == me:
        raise UserError(f"{partner!r} is this store's own owner: offer to a partner")
    ids = list(dict.fromkeys(int(i) for i in memory_ids))
    if not ids:
        raise UserError("give at least one memory id to offer")
    gates = [check_memory(store, mid) for mid in ids]
    bad = [g for g in gates if not g.ok]
    if bad:
        raise UserError("; ".join(f"memory {g.memory_id} {g.problem}" for g in bad))
    offer_id = "off-" + secrets.token_hex(8)
    now = _now()
    with write_tx(store.conn):
        for mid in ids:  # inside the lock: two concurrent offers of one memory cannot both pass
            live = store.conn.execute(
                """SELECT s.offer_id FROM shared_memories s JOIN share_offers o ON o.offer_id = s.offer_id
                   WHERE s.direction = 'outgoing' AND s.memory_id = ? AND o.owner_b = ? AND s.status <> 'revoked'""",
                (mid, partner)).fetchone()
            if live:
                raise UserError(f"memory {mid} is already offered to {partner} in {live[0]}")
        store.conn.execute(
            "INSERT INTO share_offers(offer_id, direction, owner_a, owner_b, created_at) VALUES (?, 'outgoing', ?, ?, ?)",
            (offer_id, me, partner, now))
        for g in gates:
            m = store.get(g.memory_id)
            meta = {"importance": m.importance, "reasons": g.reasons}
            store.conn.execute(
                """INSERT INTO shared_memories(offer_id, direction, partner, memory_id, content, memory_type,
                       content_hash, sensitivity, status, created_at, metadata)
                   VALUES (?, 'outgoing', ?, ?, ?, ?, ?, ?, 'offered', ?, ?)""",
                (offer_id, partner, m.id, m.content, m.memory_type, item_sha256(m.content), g.sensitivity, now,
                 json.dumps(meta, ensure_ascii=False)))
    return {"offer_id": offer_id, "with": partner, "items": [g.to_dict() for g in gates],
            "next": f"mem.py share approve {offer_id} --as {ROLE_A}"}


def _offer_row(store: MemoryStore, offer_id: str) -> Any:
    row = store.conn.execute("SELECT * FROM share_offers WHERE offer_id = ?", (offer_id,)).fetchone()
    if row is None:
        raise NotFound(f"no offer {offer_id} in this store (see `mem.py share list`)")
    return row


def approve(store: MemoryStore, offer_id: str, role: str) -> dict[str, Any]:
    """Record this owner's consent to an offer.

    On the offering side only ``owner-a`` can consent (to send); on the receiving
    side only ``owner-b`` (to admit the items as memories with source ``shared:<A>``).
    One owner can never consent for the other: each consents on their own machine.
    """
    ensure_schema(store.conn)
    me = _require_owner(store)
    offer_id = _check_offer_id(offer_id)
    if role not in ROLES:
        raise UserError(f"--as must be {ROLE_A} or {ROLE_B} (got {role!r})")
    o = _offer_row(store, offer_id)
    if o["revoked_at"]:
        raise UserError(f"offer {offer_id} was revoked by {o['revoked_by']} at {o['revoked_at']}")
    if o["direction"] == "outgoing":
        if role != ROLE_A:
            raise UserError(
                f"offer {offer_id} is this store's own offer: only {ROLE_A} ({me}) consents here; "
                f"{ROLE_B} ({o['owner_b']}) consents on their own store after importing the bundle")
        return _approve_outgoing(store, o)
    if role != ROLE_B:
        raise UserError(
            f"offer {offer_id} came from {o['owner_a']}: {ROLE_A} consented on their store; here only {ROLE_B} ({me}) "
            "consents")
    return _approve_incoming(store, o)


def _approve_outgoing(store: MemoryStore, o: Any) -> dict[str, Any]:
    offer_id = o["offer_id"]
    if o["consent_a"]:
        return {"offer_id": offer_id, "role": ROLE_A, "consent_a": o["consent_a"], "already": True}
    rows = store.conn.execute(
        "SELECT id, memory_id FROM shared_memories WHERE offer_id = ? AND direction = 'outgoing' AND status = 'offered'",
        (offer_id,)).fetchall()
    # the memories may have changed since the offer: every gate again, at the moment of consent
    problems = []
    for r in rows:
        if r["memory_id"] is None:
            problems.append("an offered memory no longer exists")
            continue
        g = check_memory(store, int(r["memory_id"]))
        if not g.ok:
            problems.append(f"memory {g.memory_id} {g.problem}")
    if problems:
        raise UserError(f"cannot approve {offer_id}: " + "; ".join(problems) + f" (revoke it: mem.py share revoke {offer_id})")
    now = _now()
    with write_tx(store.conn):
        store.conn.execute("UPDATE share_offers SET consent_a = ? WHERE offer_id = ?", (now, offer_id))
        store.conn.execute("UPDATE shared_memories SET consent_a = ? WHERE offer_id = ? AND direction = 'outgoing'",
                           (now, offer_id))
    return {"offer_id": offer_id, "role": ROLE_A, "consent_a": now, "already": False,
            "next": f"mem.py share export --with {o['owner_b']} > to-{o['owner_b']}{BUNDLE_SUFFIX}"}


def _approve_incoming(store: MemoryStore, o: Any) -> dict[str, Any]:
    offer_id = o["offer_id"]
    partner = o["owner_a"]
    rows = store.conn.execute(
        "SELECT * FROM shared_memories WHERE offer_id = ? AND direction = 'incoming' AND status = 'offered'",
        (offer_id,)).fetchall()
    if o["consent_b"] and not rows:
        return {"offer_id": offer_id, "role": ROLE_B, "consent_b": o["consent_b"], "already": True, "added": 0}
    now = o["consent_b"] or _now()
    source = SHARED_SOURCE_PREFIX + partner
    prov_base = json.loads(o["metadata"] or "{}")
    items: list[NewMemory] = []
    for r in rows:
        meta = json.loads(r["metadata"] or "{}")
        provenance = {
            "from": partner, "offer_id": offer_id, "sha256": r["content_hash"],
            "consents": {ROLE_A: {"by": partner, "at": o["consent_a"]}, ROLE_B: {"by": o["owner_b"], "at": now}},
            "bundle_digest": o["bundle_digest"], "received_at": prov_base.get("received_at"),
            "offered_at": o["created_at"], "sensitivity": r["sensitivity"],
        }
        items.append(NewMemory(
            content=r["content"], memory_type=r["memory_type"], source=source,
            ref=f"{offer_id}:{r['content_hash'][:REF_HASH_CHARS]}", importance=float(meta.get("importance", 0.5)),
            metadata={PROVENANCE_KEY: provenance}))

    def consent(_written: list[tuple[NewMemory, int]] | None = None) -> None:
        # runs inside the batch transaction: the copies and the consent land together
        store.conn.execute("UPDATE share_offers SET consent_b = ? WHERE offer_id = ?", (now, offer_id))
        for r in rows:
            ref = f"{offer_id}:{r['content_hash'][:REF_HASH_CHARS]}"
            mid = store.conn.execute("SELECT id FROM memories WHERE source = ? AND ref = ?", (source, ref)).fetchone()
            store.conn.execute(
                "UPDATE shared_memories SET consent_b = ?, status = 'received', memory_id = ? WHERE id = ?",
                (now, mid[0] if mid else None, r["id"]))

    stats = store.store_many(items, batch_size=max(1, len(items) + 1), on_batch=consent)
    if stats.added == 0:
        with write_tx(store.conn):
            consent()
    return {"offer_id": offer_id, "role": ROLE_B, "consent_b": now, "already": False, "added": stats.added,
            "ids": stats.ids, "source": source,
            "next": f"mem.py share export --with {partner} > to-{partner}{BUNDLE_SUFFIX}"}


# --------------------------------------------------------------------------- revocation

def _purge_incoming(store: MemoryStore, offer_id: str, partner: str) -> tuple[list[int], list[int]]:
    """Hard-delete the received copies of one offer (inside the caller's transaction).

    Only rows with source ``shared:<partner>`` and a ref of this offer: the partner's
    own memories can never match. Hard delete, not ``forget``: it is the other
    person's withdrawn data, so it must not stay restorable, searchable or in backups.
    Returns the purged ids and this store's own summaries that were derived from them
    (left in place, reported so the owner can review them).
    """
    source = SHARED_SOURCE_PREFIX + partner
    prefix = offer_id + ":"
    c = store.conn
    ids = [int(r[0]) for r in c.execute(
        "SELECT id FROM memories WHERE source = ? AND substr(ref, 1, ?) = ?", (source, len(prefix), prefix))]
    derived = _derived_from(c, ids)
    fts_secure = c.execute("SELECT v FROM memories_fts_config WHERE k = 'secure-delete'").fetchone()
    if ids:
        # FTS5 otherwise keeps a deleted row's tokens in old segments until a merge
        c.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1)")
    for mid in ids:
        for table in ("vec_memories", "vec_contexts"):
            # sqlite-vec 0.1.9 zeroes a deleted vector's slot in its chunk blob (tested), and
            # secure_delete zeroes the old page: no bytes of it stay in the file
            c.execute(f"DELETE FROM {table} WHERE memory_id = ?", (mid,))
            signplane.drop(c, table, [mid])
        c.execute("DELETE FROM memories WHERE id = ?", (mid,))  # FTS trigger, edges and members cascade
    if ids:
        c.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', ?)",
                  (int(fts_secure[0]) if fts_secure else 0,))
    c.execute("DELETE FROM shared_memories WHERE offer_id = ? AND direction = 'incoming'", (offer_id,))
    return ids, derived


def _derived_from(c: Any, ids: list[int]) -> list[int]:
    """This store's own memories derived from the given ones (summaries a purge leaves behind)."""
    if not ids:
        return []
    q = ",".join("?" * len(ids))
    return [int(r[0]) for r in c.execute(
        f"SELECT DISTINCT source_id FROM associations WHERE edge_type = 'derived_from' AND target_id IN ({q}) "
        f"AND source_id NOT IN ({q}) ORDER BY source_id", [*ids, *ids])]


@contextmanager
def _secure_delete(conn: Any) -> Iterator[None]:
    """Deleted content is overwritten with zeros in the file, then the WAL is folded back.

    ``secure_delete`` is restored afterwards: it slows every other delete down.
    """
    before = int(conn.execute("PRAGMA secure_delete").fetchone()[0])
    conn.execute("PRAGMA secure_delete = ON")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA secure_delete = {before}")
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError:  # a reader holds the WAL: a later checkpoint folds it
        pass


class _AlreadyImported(Exception):
    """A concurrent import of the same bundle won the race: roll ours back."""


def revoke(store: MemoryStore, offer_id: str) -> dict[str, Any]:
    """Withdraw an offer from the pool, from either side.

    The offering side marks its rows revoked (its own memories stay). The receiving
    side hard-deletes its copies at once. Either way the revocation travels to the
    partner in the next ``share export`` bundle.
    """
    ensure_schema(store.conn)
    me = _require_owner(store)
    offer_id = _check_offer_id(offer_id)
    o = _offer_row(store, offer_id)
    if o["revoked_at"]:
        return {"offer_id": offer_id, "already": True, "revoked_at": o["revoked_at"], "purged": [],
                "derived_summaries": []}
    now = _now()
    purged: list[int] = []
    derived: list[int] = []
    with _secure_delete(store.conn), write_tx(store.conn):
        store.conn.execute("UPDATE share_offers SET revoked_at = ?, revoked_by = ? WHERE offer_id = ?",
                           (now, me, offer_id))
        if o["direction"] == "outgoing":
            store.conn.execute(
                "UPDATE shared_memories SET status = 'revoked', revoked_at = ? WHERE offer_id = ? AND direction = 'outgoing'",
                (now, offer_id))
        else:
            purged, derived = _purge_incoming(store, offer_id, o["owner_a"])
    partner = o["owner_b"] if o["direction"] == "outgoing" else o["owner_a"]
    return {"offer_id": offer_id, "already": False, "revoked_at": now, "purged": purged,
            "derived_summaries": derived, "next": f"mem.py share export --with {partner} > to-{partner}{BUNDLE_SUFFIX}"}


# --------------------------------------------------------------------------- listing

def _offer_state(o: Any) -> str:
    if o["revoked_at"]:
        return "revoked"
    if not o["consent_a"]:
        return "awaiting owner-a"
    if not o["consent_b"]:
        return "awaiting owner-b"
    return "shared"


def list_offers(store: MemoryStore, partner: str | None = None, items: bool = False) -> list[dict[str, Any]]:
    """Every offer this store made or received, newest first, with its consents and state."""
    ensure_schema(store.conn)
    args: list[Any] = []
    where = ""
    if partner:
        p = normalise_owner(partner)
        where = "WHERE (direction = 'outgoing' AND owner_b = ?) OR (direction = 'incoming' AND owner_a = ?)"
        args = [p, p]
    out = []
    for o in store.conn.execute(f"SELECT * FROM share_offers {where} ORDER BY created_at DESC, offer_id", args):
        rows = store.conn.execute(
            "SELECT memory_id, content, memory_type, content_hash, sensitivity, status FROM shared_memories "
            "WHERE offer_id = ? AND direction = ? ORDER BY id", (o["offer_id"], o["direction"])).fetchall()
        d: dict[str, Any] = {
            "offer_id": o["offer_id"], "direction": o["direction"],
            "partner": o["owner_b"] if o["direction"] == "outgoing" else o["owner_a"],
            "owner_a": o["owner_a"], "owner_b": o["owner_b"], "state": _offer_state(o),
            "created_at": o["created_at"], "consent_a": o["consent_a"], "consent_b": o["consent_b"],
            "revoked_at": o["revoked_at"], "revoked_by": o["revoked_by"], "count": len(rows),
        }
        if items:
            d["items"] = [dict(r) for r in rows]
        out.append(d)
    return out


# --------------------------------------------------------------------------- bundles: export

def export_bundle(store: MemoryStore, partner: str) -> dict[str, Any]:
    """Everything this store has to tell ``partner``: approved offers, consents, revocations.

    Offers carry only items that pass every gate again now (type, derivation,
    sensitivity, still active); items that no longer do are revoked instead of sent.
    """
    ensure_schema(store.conn)
    me = _require_owner(store)
    partner = normalise_owner(partner)
    if partner == me:
        raise UserError(f"{partner!r} is this store's own owner: export to a partner")
    c = store.conn
    offers: list[dict[str, Any]] = []
    withdrawn: list[tuple[int, str]] = []
    for o in c.execute(
        """SELECT * FROM share_offers WHERE direction = 'outgoing' AND owner_b = ? AND revoked_at IS NULL
           AND consent_a IS NOT NULL AND consent_b IS NULL ORDER BY created_at, offer_id""", (partner,)).fetchall():
        items = []
        for r in c.execute(
            "SELECT * FROM shared_memories WHERE offer_id = ? AND direction = 'outgoing' AND status = 'offered' ORDER BY id",
            (o["offer_id"],)).fetchall():
            problem = _item_problem(store, r)
            if problem:
                withdrawn.append((int(r["id"]), problem))
                continue
            meta = json.loads(r["metadata"] or "{}")
            # only what the owner saw and the gates scored travels: no tags, thread, author or metadata
            items.append({"content": r["content"], "memory_type": r["memory_type"], "sha256": r["content_hash"],
                          "sensitivity": r["sensitivity"], "importance": meta.get("importance", 0.5)})
        if items:
            offers.append({"offer_id": o["offer_id"], "owner_a": me, "owner_b": partner, "created_at": o["created_at"],
                           "consents": {ROLE_A: {"by": me, "at": o["consent_a"]}}, "items": items})
    consents = [
        {"offer_id": o["offer_id"], "role": ROLE_B, "by": me, "at": o["consent_b"],
         "items": [r[0] for r in c.execute(
             "SELECT content_hash FROM shared_memories WHERE offer_id = ? AND direction = 'incoming' "
             "AND status = 'received' ORDER BY id", (o["offer_id"],))]}
        for o in c.execute(
            """SELECT * FROM share_offers WHERE direction = 'incoming' AND owner_a = ? AND revoked_at IS NULL
               AND consent_b IS NOT NULL ORDER BY created_at, offer_id""", (partner,)).fetchall()
    ]
    revocations = [
        {"offer_id": o["offer_id"], "by": o["revoked_by"], "at": o["revoked_at"]}
        for o in c.execute(
            """SELECT * FROM share_offers WHERE revoked_at IS NOT NULL AND revoked_by = ?
               AND ((direction = 'outgoing' AND owner_b = ?) OR (direction = 'incoming' AND owner_a = ?))
               ORDER BY revoked_at, offer_id""", (me, partner, partner)).fetchall()
    ]
    if withdrawn:
        now = _now()
        with write_tx(c):
            for rid, problem in withdrawn:
                c.execute("UPDATE shared_memories SET status = 'revoked', revoked_at = ?, "
                          "metadata = json_set(metadata, '$.withdrawn', ?) WHERE id = ?", (now, problem, rid))
    if not (offers or consents or revocations):
        raise UserError(
            f"nothing to send to {partner}: no offers approved by {ROLE_A}, no consents and no revocations "
            "(see `mem.py share list`)")
    bundle: dict[str, Any] = {
        "format": BUNDLE_FORMAT, "version": BUNDLE_VERSION, "from": me, "to": partner, "created_at": _now(),
        "offers": offers, "consents": consents, "revocations": revocations,
    }
    bundle["digest"] = bundle_digest(bundle)
    with write_tx(c):
        sharekeys.ensure_own_key(c)
    bundle["signature"] = sharekeys.sign(c, bundle["digest"])
    return bundle


def _item_problem(store: MemoryStore, r: Any) -> str | None:
    """Why an outgoing item may not leave now (None if it may)."""
    if r["memory_type"] not in SHAREABLE_TYPES:
        return f"type {r['memory_type']}"
    if r["memory_id"] is None:
        return "the memory was deleted"
    try:
        g = check_memory(store, int(r["memory_id"]))
    except NotFound:
        return "the memory was deleted"
    if not g.ok:
        return f"memory {g.memory_id} {g.problem}"
    sens = sensitivity.score(r["content"])  # the snapshot that travels, not only the live memory
    if sens.blocked:
        return f"sensitivity {sens.score:.2f}: " + "; ".join(sens.reasons())
    return None


# --------------------------------------------------------------------------- bundles: import

def import_bundle(store: MemoryStore, bundle: dict[str, Any], approve_all: bool = False,
                  trust_key: bool = False) -> dict[str, Any]:
    """Apply a validated bundle addressed to this store; idempotent.

    Offers become pending incoming offers (not memories) until owner-b approves, or
    at once with ``approve_all`` (owner-b consenting on import, on their own store).
    Items this store's own sensitivity scorer blocks are refused and reported.
    Consents complete this store's outgoing offers; revocations withdraw or purge.
    The signature is checked first (:func:`_check_signature`); ``trust_key`` confirms a
    sender key seen for the first time (or a changed one) for its revocations.
    """
    ensure_schema(store.conn)
    me = _require_owner(store)
    validate_bundle(bundle)
    sender = bundle["from"]
    if bundle["to"] != me:
        raise UserError(f"bundle is addressed to {bundle['to']!r}, this store is {me!r}: refused")
    digest = bundle["digest"]
    c = store.conn
    already = {"from": sender, "digest": digest, "already_imported": True, "offers_received": [],
               "consents_applied": [], "revocations_applied": [], "purged": [], "derived_summaries": [],
               "blocked": [], "approved": [], "warnings": []}
    if c.execute("SELECT 1 FROM share_bundles WHERE digest = ?", (digest,)).fetchone():
        return already
    key, sig_warnings = sharekeys.check_bundle_signature(c, bundle, trust_key)
    try:
        res = _apply_bundle(store, bundle, me)
    except _AlreadyImported:
        return already
    if key is not None:
        with write_tx(c):
            sharekeys.pin_key(c, sender, key)
    res["warnings"] = sig_warnings + res["warnings"]
    res["signed_by"] = None if key is None else sharekeys_fingerprint(key)
    if approve_all:
        res["approved"] = [approve(store, oid, ROLE_B) for oid in res["offers_received"]]
    return res


def sharekeys_fingerprint(key: str) -> str:
    """The fingerprint of a public key (to compare with the partner's `share whoami`)."""
    from memengine.sharekeys import fingerprint

    return fingerprint(key)


def _apply_bundle(store: MemoryStore, bundle: dict[str, Any], me: str) -> dict[str, Any]:
    c = store.conn
    sender = bundle["from"]
    digest = bundle["digest"]
    now = _now()
    received: list[str] = []
    blocked: list[dict[str, Any]] = []
    consents_applied: list[str] = []
    revocations_applied: list[str] = []
    purged: list[int] = []
    derived: list[int] = []
    warnings: list[str] = []
    revoked_here = {r["offer_id"] for r in bundle["revocations"]}
    with _secure_delete(c), write_tx(c):
        if c.execute("INSERT OR IGNORE INTO share_bundles(digest, sender, imported_at) VALUES (?, ?, ?)",
                     (digest, sender, now)).rowcount == 0:
            raise _AlreadyImported(digest)
        for o in bundle["offers"]:
            oid = o["offer_id"]
            if oid in revoked_here:
                continue
            existing = c.execute("SELECT direction FROM share_offers WHERE offer_id = ?", (oid,)).fetchone()
            if existing:  # already known (or revoked: a tombstone keeps it out)
                continue
            kept = []
            for it in o["items"]:
                sens = sensitivity.score(it["content"])  # our own gate: the sender's number is not trusted
                if sens.blocked:
                    blocked.append({"offer_id": oid, "sha256": it["sha256"], "sensitivity": sens.score,
                                    "reasons": sens.reasons()})
                    continue
                kept.append((it, sens.score))
            if not kept:
                continue
            meta = {"received_at": now, "bundle_created_at": bundle["created_at"]}
            c.execute(
                """INSERT INTO share_offers(offer_id, direction, owner_a, owner_b, created_at, consent_a, bundle_digest,
                       metadata) VALUES (?, 'incoming', ?, ?, ?, ?, ?, ?)""",
                (oid, sender, me, str(o.get("created_at") or now), o["consents"][ROLE_A]["at"], digest,
                 json.dumps(meta)))
            for it, score in kept:
                imp = it.get("importance", 0.5)
                imeta = {"importance": imp if isinstance(imp, (int, float)) and 0 <= imp <= 1 else 0.5}
                c.execute(
                    """INSERT OR IGNORE INTO shared_memories(offer_id, direction, partner, content, memory_type,
                           content_hash, sensitivity, consent_a, status, created_at, metadata)
                       VALUES (?, 'incoming', ?, ?, ?, ?, ?, ?, 'offered', ?, ?)""",
                    (oid, sender, it["content"], it["memory_type"], it["sha256"], score,
                     o["consents"][ROLE_A]["at"], now, json.dumps(imeta, ensure_ascii=False)))
            received.append(oid)
        for cons in bundle["consents"]:
            oid = cons["offer_id"]
            o = c.execute("SELECT * FROM share_offers WHERE offer_id = ? AND direction = 'outgoing'", (oid,)).fetchone()
            if o is None or o["owner_b"] != sender:
                warnings.append(f"consent for unknown offer {oid} ignored")
                continue
            if o["revoked_at"] or o["consent_b"]:
                continue
            accepted = set(cons["items"])
            c.execute("UPDATE share_offers SET consent_b = ? WHERE offer_id = ?", (cons["at"], oid))
            for r in c.execute("SELECT * FROM shared_memories WHERE offer_id = ? AND direction = 'outgoing' "
                               "AND status = 'offered'", (oid,)).fetchall():
                if r["content_hash"] in accepted and r["memory_id"] is not None and not is_tainted(c, r["memory_id"]):
                    c.execute("UPDATE shared_memories SET consent_b = ?, status = 'approved' WHERE id = ?",
                              (cons["at"], r["id"]))
                else:
                    c.execute("UPDATE shared_memories SET status = 'revoked', revoked_at = ?, "
                              "metadata = json_set(metadata, '$.withdrawn', 'not accepted by partner') WHERE id = ?",
                              (now, r["id"]))
            consents_applied.append(oid)
        for rev in bundle["revocations"]:
            oid = rev["offer_id"]
            o = c.execute("SELECT * FROM share_offers WHERE offer_id = ?", (oid,)).fetchone()
            if o is None:
                # a tombstone, so an older offer bundle replayed later cannot bring it back
                c.execute("""INSERT INTO share_offers(offer_id, direction, owner_a, owner_b, created_at, revoked_at,
                                 revoked_by, bundle_digest) VALUES (?, 'incoming', ?, ?, ?, ?, ?, ?)""",
                          (oid, sender, me, rev["at"], rev["at"], sender, digest))
                revocations_applied.append(oid)
                continue
            partner_side = o["owner_a"] if o["direction"] == "incoming" else o["owner_b"]
            if partner_side != sender:
                warnings.append(f"revocation of {oid} by {sender}, who is not its partner, ignored")
                continue
            if o["revoked_at"]:
                continue
            c.execute("UPDATE share_offers SET revoked_at = ?, revoked_by = ? WHERE offer_id = ?", (rev["at"], sender, oid))
            if o["direction"] == "incoming":
                gone, left = _purge_incoming(store, oid, sender)
                purged += gone
                derived += left
            else:
                c.execute("UPDATE shared_memories SET status = 'revoked', revoked_at = ? WHERE offer_id = ? "
                          "AND direction = 'outgoing'", (rev["at"], oid))
            revocations_applied.append(oid)
        summary = {"offers": received, "consents": consents_applied, "revocations": revocations_applied,
                   "purged": len(purged), "blocked": len(blocked)}
        c.execute("UPDATE share_bundles SET summary = ? WHERE digest = ?", (json.dumps(summary), digest))
    if derived:
        warnings.append(f"own summaries derived from purged shared memories remain: {derived} (review them)")
    return {"from": sender, "digest": digest, "already_imported": False, "offers_received": received,
            "consents_applied": consents_applied, "revocations_applied": revocations_applied, "purged": purged,
            "derived_summaries": derived, "blocked": blocked, "approved": [], "warnings": warnings}
