"""``mem.py share``: offer, approve, export, import, list, revoke — the CLI over ``sharing``.

Parsing and rendering only; every rule lives in :mod:`memengine.sharing` (and its SQL triggers).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from memengine import sharebundle, sharing
from memengine.cli.common import ROW_ID, current_ctx, emit, one_line


@click.group()
def share() -> None:
    """Share semantic and procedural memories with a partner, with both owners' consent.

    \b
    Example, one offer, A's store and B's store (possibly two machines):
      A: mem.py share whoami ana
      A: mem.py share offer 12 15 --with max
      A: mem.py share approve OFFER --as owner-a
      A: mem.py share export --with max > to-max.membundle
      B: mem.py share import to-max.membundle      # pending until B consents
      B: mem.py share approve OFFER --as owner-b   # copies become memories 'shared:ana'
      B: mem.py share export --with ana > to-ana.membundle
      A: mem.py share import to-ana.membundle      # both consents: in the pool
      B: mem.py recall "deploy steps" --shared
      either: mem.py share revoke OFFER, then export; the import on the other side purges.
    """


def _store() -> Any:
    return current_ctx().store(fast_start=True)


@share.command()
@click.argument("name", required=False)
def whoami(name: str | None) -> None:
    """Show or set this store's owner name (who bundles come from and are addressed to).

    \b
    Examples:
      mem.py share whoami ana
      mem.py share whoami
    """
    s = _store()
    if name:
        owner: str | None = sharing.set_owner(s, name)
    else:
        owner = sharing.whoami(s)
    fp = sharing.own_fingerprint(s)

    def human() -> None:
        click.echo(owner or "no owner set (mem.py share whoami NAME)")
        if fp:
            click.echo(f"signing key {fp} (partners see it when they import your bundles)")

    emit({"owner": owner, "key_fingerprint": fp}, human)


@share.command()
@click.argument("memory_ids", nargs=-1, type=ROW_ID, required=True)
def check(memory_ids: tuple[int, ...]) -> None:
    """Show whether memories could be shared, with their sensitivity score and reasons.

    \b
    Example:
      mem.py share check 12 15
    """
    s = _store()
    gates = [sharing.check_memory(s, mid) for mid in memory_ids]

    def human() -> None:
        for g in gates:
            verdict = "ok" if g.ok else f"refused: memory {g.memory_id} {g.problem}"
            click.echo(f"#{g.memory_id}  sensitivity {g.sensitivity:.2f}  {verdict}")
            for r in [] if (g.problem or "").startswith("sensitivity") else g.reasons:  # else already in the line
                click.echo(f"    {r}")

    emit([g.to_dict() for g in gates], human)


@share.command()
@click.argument("memory_ids", nargs=-1, type=ROW_ID, required=True)
@click.option("--with", "partner", required=True, help="The partner's owner name.")
def offer(memory_ids: tuple[int, ...], partner: str) -> None:
    """Propose memories to a partner (semantic/procedural, not episodic-derived, sensitivity < 0.5).

    \b
    Example:
      mem.py share offer 12 15 --with max
    """
    res = sharing.offer(_store(), memory_ids, partner)

    def human() -> None:
        click.echo(f"offer {res['offer_id']} to {res['with']}: {len(res['items'])} memories")
        for it in res["items"]:
            click.echo(f"  #{it['memory_id']}  sensitivity {it['sensitivity']:.2f}")
        click.echo(f"next: {res['next']}")

    emit(res, human)


@share.command()
@click.argument("offer_id")
@click.option("--as", "role", required=True, type=click.Choice(sharing.ROLES),
              help="owner-a on the offering store, owner-b on the partner's store.")
def approve(offer_id: str, role: str) -> None:
    """Consent to an offer as this store's owner.

    \b
    Examples:
      mem.py share approve off-0123456789abcdef --as owner-a   # on the offering store
      mem.py share approve off-0123456789abcdef --as owner-b   # on the partner's store, after import
    """
    res = sharing.approve(_store(), offer_id, role)

    def human() -> None:
        if res["already"]:
            click.echo(f"{offer_id}: {role} had already consented")
        elif role == sharing.ROLE_B:
            click.echo(f"{offer_id}: {role} consented; {res['added']} memories added as {res['source']}")
        else:
            click.echo(f"{offer_id}: {role} consented")
        if res.get("next"):
            click.echo(f"next: {res['next']}")

    emit(res, human)


@share.command("export")
@click.option("--with", "partner", required=True, help="The partner's owner name.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the bundle here instead of stdout.")
def export_cmd(partner: str, output: str | None) -> None:
    """Write a bundle for a partner: approved offers, consents and revocations (JSON).

    \b
    Examples:
      mem.py share export --with max > to-max.membundle
      mem.py share export --with max -o to-max.membundle
    """
    bundle = sharing.export_bundle(_store(), partner)
    counts = {k: len(bundle[k]) for k in ("offers", "consents", "revocations")}
    if output is None:
        click.echo(json.dumps(bundle, ensure_ascii=False, indent=2))
        click.echo(f"bundle for {bundle['to']}: " + ", ".join(f"{v} {k}" for k, v in counts.items()), err=True)
        return
    sharebundle.write_bundle(bundle, Path(output))
    data = {"path": output, "to": bundle["to"], "digest": bundle["digest"], **counts}
    emit(data, lambda: click.echo(f"wrote {output}: " + ", ".join(f"{v} {k}" for k, v in counts.items())))


@share.command("import")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--approve", "approve_all", is_flag=True,
              help="Consent as owner-b to every offer in the bundle at once (after reading it).")
@click.option("--trust-key", is_flag=True,
              help="Accept the sender's new signing key (compare its fingerprint with their `share whoami` first).")
def import_cmd(path: str, approve_all: bool, trust_key: bool) -> None:
    """Receive a partner's bundle: offers (pending your consent), consents, revocations (purge).

    \b
    Examples:
      mem.py share import to-max.membundle
      mem.py share import to-max.membundle --approve
    """
    s = _store()
    if path == "-":
        import tempfile

        with tempfile.NamedTemporaryFile("wb", suffix=sharing.BUNDLE_SUFFIX, delete=False) as fh:
            fh.write(sys.stdin.buffer.read())
        p = Path(fh.name)
        try:
            bundle = sharebundle.read_bundle(p)
        finally:
            p.unlink(missing_ok=True)
    else:
        bundle = sharebundle.read_bundle(Path(path))
    res = sharing.import_bundle(s, bundle, approve_all=approve_all, trust_key=trust_key)

    def human() -> None:
        if res["already_imported"]:
            click.echo(f"bundle from {res['from']} was already imported: nothing added")
            return
        click.echo(f"bundle from {res['from']}: {len(res['offers_received'])} offers received, "
                   f"{len(res['consents_applied'])} consents, {len(res['revocations_applied'])} revocations, "
                   f"{len(res['purged'])} shared copies purged"
                   + (f"; signed by key {res['signed_by']}" if res.get("signed_by") else ""))
        for b in res["blocked"]:
            click.secho(f"  blocked item of {b['offer_id']} (sensitivity {b['sensitivity']:.2f}): "
                        + "; ".join(b["reasons"]), fg="yellow")
        for oid in res["offers_received"]:
            if not approve_all:
                click.echo(f"  review, then: mem.py share approve {oid} --as owner-b")

    emit(res, human, res.get("warnings"))


@share.command("list")
@click.option("--with", "partner", help="Only offers with this partner.")
@click.option("--items", is_flag=True, help="Show each offer's items.")
def list_cmd(partner: str | None, items: bool) -> None:
    """List offers made and received, with consents and state.

    \b
    Examples:
      mem.py share list
      mem.py share list --with max --items
    """
    offers = sharing.list_offers(_store(), partner, items=items)

    def human() -> None:
        if not offers:
            click.echo("no offers")
            return
        for o in offers:
            arrow = "->" if o["direction"] == "outgoing" else "<-"
            consents = " ".join(f"{role} {(o[key] or '-')[:16]}" for role, key in
                                ((sharing.ROLE_A, "consent_a"), (sharing.ROLE_B, "consent_b")))
            click.echo(f"{o['offer_id']}  {arrow} {o['partner']:<12} {o['state']:<17} {o['count']:>3} items  {consents}")
            for it in o.get("items", []) if items else []:
                click.echo(f"    [{it['status']}] {one_line(it['content'], 120)}")

    emit(offers, human)


@share.command()
@click.argument("offer_id")
def revoke(offer_id: str) -> None:
    """Withdraw an offer (either side); received copies are deleted. Export to tell the partner.

    \b
    Example:
      mem.py share revoke off-0123456789abcdef && mem.py share export --with max > to-max.membundle
    """
    res = sharing.revoke(_store(), offer_id)

    def human() -> None:
        if res["already"]:
            click.echo(f"{offer_id} was already revoked at {res['revoked_at']}")
            return
        click.echo(f"revoked {offer_id}; {len(res['purged'])} shared copies deleted")
        if res["derived_summaries"]:
            click.secho(f"your summaries derived from them remain: {res['derived_summaries']} (review them)",
                        fg="yellow")
        click.echo(f"next: {res['next']}")

    emit(res, human)


@share.command("mark-semantic")
@click.argument("memory_id", type=ROW_ID)
@click.option("--undo", is_flag=True, help="Remove the mark: the summary counts as episodic again.")
def mark_semantic(memory_id: int, undo: bool) -> None:
    """Re-mark a summary derived from episodic memories as semantic, so it may be offered.

    \b
    Example:
      mem.py share mark-semantic 42
    """
    res = sharing.mark_semantic(_store(), memory_id, undo=undo)
    emit(res, lambda: click.echo(f"#{memory_id} {'unmarked' if undo else 'marked semantic'}"
                                 f" (counts as episodic: {'yes' if res['tainted'] else 'no'})"))
