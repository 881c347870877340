"""The People section: authors, vCard contacts and aliases the store knows, one line each.

Split out of memengine/brief.py (round 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memengine import summarize
from memengine.brief_pool import Store
from memengine.brief_text import day, trim

PEOPLE_MAX = 10
PEOPLE_CONTACTS = 3  # of which at least this many are contacts who wrote nothing in the store, if any


def people_lines(store: Store) -> list[tuple[str, dict[str, Any]]]:
    """One line per person the store knows, most present first: who they are, from the store.

    People are authors of memories and vCard contacts (their names and aliases); a line says
    what the contact card holds (organisation, title, note, birthday), how many memories
    they wrote, in how many chats and over which dates. Nothing is guessed from capitalised
    words in the text.
    """
    conn = store.conn
    known = store.known_people()
    names = sorted(set(known.values()))
    if not names:
        return []  # (with_named adds the people the notes name)
    cards: dict[str, tuple[int, str]] = {}
    for r in conn.execute("""SELECT id, content, metadata FROM memories WHERE source = 'vcf' AND status = 'active'
                             AND valid_to IS NULL ORDER BY id"""):
        meta = _json(r[2])
        name = str(meta.get("name") or "")
        if name:
            cards[name] = (int(r[0]), _card_facts(r[1], meta))
    stats = _author_stats(conn, known, names, cards)
    out: list[tuple[int, str, str, dict[str, Any]]] = []
    for name in names:
        if not _showable(name):
            continue
        n, threads, lo, hi = stats.get(name, (0, 0, None, None))
        parts: list[str] = []
        card = cards.get(name)
        if card:
            parts.append("contact" + (f" ({card[1]})" if card[1] else ""))
        if n:
            span = day(lo) if day(lo) == day(hi) else f"{day(lo)} – {day(hi)}"
            parts.append(f"wrote {n} {'memory' if n == 1 else 'memories'} in {threads} "
                         f"{'chat' if threads == 1 else 'chats'} ({span})")
        if not parts:
            continue  # an alias whose person wrote nothing and has no card: nothing to say
        ref = f" (#{card[0]})" if card else ""
        out.append((n, name, f"{name}{ref}: " + "; ".join(parts),
                    {"memories": n, "contact": card[0] if card else None}))
    out.sort(key=lambda x: (-x[0], x[1]))
    # the busiest authors, and some room for contacts who wrote nothing here (richest cards first)
    writers = [o for o in out if o[0] > 0]
    cards_only = sorted((o for o in out if o[0] == 0), key=lambda o: (-len(o[2]), o[1]))
    keep = writers[: PEOPLE_MAX - min(len(cards_only), PEOPLE_CONTACTS)]
    keep += cards_only[: PEOPLE_MAX - len(keep)]
    return [(line, why) for _, _, line, why in keep]


def with_named(store: Store) -> list[tuple[str, dict[str, Any]]]:
    """:func:`people_lines`, then (room left) the people the notes name often (memengine/brief_namedpeople.py):
    a store of notes has no authors, and its People section was empty however often they named someone."""
    from memengine import brief_namedpeople

    out = people_lines(store)
    known = set(store.known_people())
    return out + brief_namedpeople.lines(store, known | {line.split(":")[0].lower() for line, _ in out},
                                         PEOPLE_MAX - len(out))


def _author_stats(conn: Any, known: dict[str, str], names: list[str], cards: Mapping[str, Any]
                  ) -> dict[str, tuple[int, int, str | None, str | None]]:
    """(memories, chats, first date, last date) of the people :func:`people_lines` can show.

    Memories per name come from ``memory_authors`` (m007, kept by triggers) less the summaries
    (level > 0, few, by their index); chats and dates come from ``memory_author_threads`` (m012,
    kept by triggers; dates only widen), for the PEOPLE_MAX busiest names only. Several authors
    of one name (case variants) add up, as one line.
    """
    per_name: dict[str, int] = {}
    authors: dict[str, list[str]] = {}
    for author, active in conn.execute("SELECT author, active FROM memory_authors"):
        name = known.get(str(author).lower())
        if name is not None:
            per_name[name] = per_name.get(name, 0) + int(active)
            authors.setdefault(name, []).append(author)
    # (the unary + keeps the planner on the small summaries index, off the status one)
    for author, n in conn.execute("SELECT author, count(*) FROM memories WHERE level > 0 AND +status = 'active' "
                                  "AND +author IS NOT NULL GROUP BY author"):
        name = known.get(str(author).lower())
        if name is not None:
            per_name[name] -= int(n)
    shown = [nm for nm in names if per_name.get(nm, 0) > 0 and _showable(nm)]
    shown.sort(key=lambda nm: (-per_name[nm], nm))
    cards_only = sum(1 for nm in names if per_name.get(nm, 0) <= 0 and nm in cards and _showable(nm))
    # the others keep their count, which places them below these (their lines are not shown)
    stats: dict[str, tuple[int, int, str | None, str | None]] = {nm: (per_name[nm], 0, None, None) for nm in shown}
    for name in shown[: PEOPLE_MAX - min(cards_only, PEOPLE_CONTACTS)]:
        threads, lo, hi = 0, None, None
        for author in authors[name]:
            t, a, z = conn.execute(
                "SELECT coalesce(sum(thread != ''), 0), min(first_at), max(last_at) FROM memory_author_threads"
                " WHERE author = ?", (author,)).fetchone()
            threads += int(t)
            lo = min(filter(None, (lo, a)), default=None)
            hi = max(filter(None, (hi, z)), default=None)
        stats[name] = (per_name[name], threads, lo, hi)
    return stats


def _showable(name: str) -> bool:
    """A chat role ("assistant") or a phone number (an unnamed WhatsApp sender) is no person's line."""
    return name.lower() not in summarize.ROLE_AUTHORS and not any(ch.isdigit() for ch in name)


def _json(text: str | None) -> dict[str, Any]:
    import json

    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _card_facts(content: str, meta: dict[str, Any]) -> str:
    """Organisation, title, birthday and note of a contact card (not its phones and emails)."""
    keep: list[str] = []
    body = content.split(" — ", 1)[1] if " — " in content else ""
    for part in body.split("; "):
        if part.startswith(("org ", "title ", "birthday ", "note ", "nickname ")):
            keep.append(trim(part, 80))
    return "; ".join(keep)
