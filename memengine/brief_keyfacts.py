"""Key facts: pinned and important semantic facts, with the close older ones they may update.

Split out of memengine/brief.py (round 4).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from memengine import timekind
from memengine.brief_pool import LIVE as _LIVE
from memengine.brief_pool import Store, similarities

KEY_FACT_IMPORTANCE = 0.7  # a semantic memory this important is a key fact even unpinned
UPDATE_COS = 0.65  # two key facts of one source this close: the newer may update the older (fold_updates)
SAME_SITTING_HOURS = 6  # ...if written further apart than this, or the fact rules read a change (may_update)
RARE_LINK_SHARE = 0.25  # a word named by at most this share of the linked facts read is a rare one (outdated_links)
SUBJECT_COS = 0.6  # two key facts this close that name a rare word of both (held by two of them) may be one subject
MUST_SHOW_IMPORTANCE = 0.9  # (users26) a fact this important (SKILL.md: "must never be forgotten") or pinned is hidden
# on a "probably" only by a newer that names more of it than its first word (decay never archives it either)


def key_fact_rows(conn: Any, limit: int = 200) -> list[Any]:
    """Pinned memories, then semantic ones of importance >= KEY_FACT_IMPORTANCE, each by importance then id.

    Two queries, each a range of the m011 rank index (pinned, importance): one query with
    their OR was a scan of every row.
    """
    cols = f"m.id, m.content, {timekind.when_sql('m')}, m.pinned, m.importance, m.source"
    rows = conn.execute(f"""SELECT {cols} FROM memories m WHERE {_LIVE} AND m.source != 'vcf' AND m.pinned = 1
                            ORDER BY m.importance DESC, m.id DESC LIMIT ?""", (limit,)).fetchall()
    if len(rows) < limit:
        rows += conn.execute(
            f"""SELECT {cols} FROM memories m WHERE {_LIVE} AND m.source != 'vcf' AND m.pinned = 0
                AND m.importance >= ? AND m.memory_type = 'semantic' ORDER BY m.importance DESC, m.id DESC LIMIT ?""",
            (KEY_FACT_IMPORTANCE, limit - len(rows))).fetchall()
    return rows


def fold_updates(store: Store, rows: list[Any]) -> list[tuple[Any, list[Any]]]:
    """Key-fact rows grouped with the older rows of the same source that say nearly the same thing.

    Two facts of one source at cosine >= UPDATE_COS (stored vectors) are one group; a group is
    shown once, where its first row stands in ``rows``' order, as its newest row (date, then id)
    with the others, newest first. The cosine: on the dev notes (bench/brief_quality.py) four
    updates the store did not mark ("on-call this month is A" -> "on-call in November is B")
    measured 0.69-0.85, and every other pair of key facts at most 0.57.
    """
    if len(rows) < 2:
        return [(r, []) for r in rows]
    sim = similarities(store, [int(r[0]) for r in rows])
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # Each fact is joined to the one older fact it most likely updates: its closest older one of the same
    # source that passes (a fact replaces one earlier value of its own subject). Joining every pair that
    # passes chained subjects: "Reverted the minimum iOS to 15 ... offline maps use the old download API"
    # is 0.80 from "raised to 16" and 0.67 from "offline_maps is rolled back to 10%", so the flag's current
    # value was folded under the iOS revert (round 11, an agent's notes).
    order = sorted(range(len(rows)), key=lambda k: (str(rows[k][2] or ""), int(rows[k][0])))
    subject = _rare_subject_words(rows)
    for n, j in enumerate(order):
        # (round 14) or its closest older one at SUBJECT_COS when both name the same rare subject word ("On-call for
        # Kestrel this week is Marek" / "On-call for Kestrel from 9 November is Lina", 0.62; "Der Jour fixe ...
        # Montag" / "Ab Oktober ist der Jour fixe dienstags", 0.64): a replaced value shown as current is the
        # brief's worst error, and a shared rare subject says what the cosine of two short facts does not
        olders = sorted((i for i in order[:n] if rows[i][5] == rows[j][5] and (
            sim[i, j] >= UPDATE_COS or sim[i, j] >= SUBJECT_COS and subject[i] & subject[j])),
                        key=lambda i: -float(sim[i, j]))
        best = next((i for i in olders if may_update(rows[i], rows[j], sim[i, j])), None)
        if best is not None:
            parent[root(j)] = root(best)
    groups: dict[int, list[int]] = {}
    for i in range(len(rows)):
        groups.setdefault(root(i), []).append(i)
    out: list[tuple[Any, list[Any]]] = []
    for i in range(len(rows)):
        members = groups.get(root(i))
        if members is None:
            continue  # its group was shown at its first row
        del groups[root(i)]
        by_age = sorted(members, key=lambda k: (str(rows[k][2] or ""), int(rows[k][0])), reverse=True)
        out.append((rows[by_age[0]], [rows[k] for k in by_age[1:]]))
    return out


_COMPOUND = re.compile(r"\b[^\W\d_]{2,}-[^\W\d_]{2,}\b")


def _rare_subject_words(rows: list[Any]) -> list[set[str]]:
    """Each key fact's subject words (``_subject_words``) that no other key fact but one names: the subject of a
    pair ("on-call", "jour fixe"), not the project every note names."""
    # (a hyphenated compound is one word here: "on-call", "e-bike", whose parts name nothing alone)
    words = [_subject_words(str(r[1])) | {m.lower() for m in _COMPOUND.findall(str(r[1]))} for r in rows]
    df: dict[str, int] = {}
    for ws in words:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    return [{w for w in ws if df[w] == 2} for ws in words]


def may_update(a: Any, b: Any, cosine: float) -> bool:
    """Whether the later of two close key facts of one source may update the earlier.

    Facts written in one sitting (less than SAME_SITTING_HOURS apart) are most often different
    sides of one subject ("Hannah Weber, a designer in Hamburg" and "Hannah works at Nordlicht as
    a designer", five minutes apart); they are one only when the fact rules read a change of
    value (memengine/facts.py, what write-time supersession asks). Later ones may be updates.
    """
    old, new = sorted((a, b), key=lambda r: (str(r[2] or ""), int(r[0])))
    try:
        gap = (datetime.fromisoformat(str(new[2])[:19]) - datetime.fromisoformat(str(old[2])[:19])).total_seconds()
    except ValueError:
        gap = 0.0  # an unreadable date: judged by the rules alone
    if gap >= SAME_SITTING_HOURS * 3600:
        return True
    from memengine import facts  # ~100 patterns: loaded only when such a pair is there

    return facts.compare(str(old[1]), str(new[1]), float(cosine)) is not None


def outdated_links(conn: Any) -> dict[int, list[int]]:
    """Every current fact a later current fact probably updates, by the may_update links write-time
    supersession stored (``versions.probably_outdated``'s middle band), with the later ids: what the
    brief leaves out, showing the later one instead; the links it does not trust are left out first.

    A link says the newer fact is close to the older and may change its value; the brief hides the older
    on its word. Two kinds were wrong on an agent's notes of decisions and reverts (round 11): a new fact
    links to several older ones, of several subjects ("The minimum supported iOS version is raised to 16"
    linked the release, the CI trial and a feature flag; "Lucía vendió el Seat León" fourteen facts): only its
    strongest link (or those tied with it) is kept: a fact replaces one earlier value, the one it superseded
    outright at write time when it did, else the one it names the most rare words of ("Seat León"), then the
    best scored. (Keeping every link that names a rare word in common as well measured the same key facts on the
    held-out notes, and hid a team's people line under a decision naming two of them.) And a link to a fact
    that is itself an update of an older one (``O`` updates ``P``: a supersedes edge or its own may_update
    link) stands only when the newer fact
    names what ``O`` and ``P`` share, their subject ("Hana Sato owns the maps module now" does not update
    "Rolled back from Expo SDK 51 to SDK 50: the maps module crashes on 51", whose subject with "Upgraded
    to Expo SDK 51" is Expo and the SDK): a revert or a settled value is the current state of its subject.
    """
    from memengine.versions import link_score, probably_outdated

    linked = probably_outdated(conn)
    if not linked:
        return {}
    pairs = [(n, o) for o, ns in linked.items() for n in ns]
    ids = sorted({i for pair in pairs for i in pair})
    score: dict[tuple[int, int], float] = {}
    older: dict[int, set[int]] = {}  # each linked fact's own older facts (any status): its chain
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ",".join("?" * len(chunk))
        for src, dst, kind, meta in conn.execute(
                f"""SELECT source_id, target_id, edge_type, metadata FROM associations
                    WHERE source_id IN ({marks}) AND edge_type IN ('supersedes', 'contradicts')""", chunk):
            # a fact superseded outright is the strongest link there is: the newer replaced that one
            value = 1.0 if kind == "supersedes" else link_score(meta)
            if value is None:
                continue  # (a contradiction, not an update)
            older.setdefault(int(src), set()).add(int(dst))
            score[int(src), int(dst)] = value
    ends = {i for (n, o) in score for i in (n, o)}
    text = _contents(conn, sorted(ends | {p for o in ends for p in older.get(o, ())}))
    words = {i: _subject_words(t) for i, t in text.items()}
    df: dict[str, int] = {}
    for ws in words.values():
        for w in ws:
            df[w] = df.get(w, 0) + 1
    rare = max(2, int(RARE_LINK_SHARE * len(words)))

    def strength(n: int, o: int) -> tuple[int, float]:
        # a link's strength: the rare words both facts name ("Lucía vendió el Seat León" / "El coche de Lucía es un
        # Seat León": not "Lucía", said by every note), then the link's own score; superseded outright: strongest
        shared = sum(1 for w in words.get(n, set()) & words.get(o, set()) if df[w] <= rare)
        return (1_000_000, 1.0) if score[n, o] >= 1.0 else (shared, score[n, o])

    best: dict[int, tuple[int, float]] = {}  # each newer fact's strongest link, to a current fact or not
    for n, o in score:
        best[n] = max(best.get(n, (0, 0.0)), strength(n, o))
    kept = [(n, o) for n, o in pairs if (n, o) in score and strength(n, o) >= best[n]]
    must_show = _must_show(conn, sorted({o for _, o in kept}))
    out: dict[int, list[int]] = {}
    for n, o in kept:
        if o in must_show and not _said_past_the_subject(words.get(n, set()) & words.get(o, set()), text[n], text[o]):
            # (users26) "Priya started a new job at Figma" hid "Priya is allergic to peanuts" (0.95): a fact that must
            # never be forgotten is hidden only by a newer naming more of it than whom it is about
            continue
        subject = set().union(*(words.get(o, set()) & words.get(p, set()) for p in older.get(o, ()))) \
            if older.get(o) else set()
        # (lead, s12) a word more than half the linked facts say is whom the store is about, not this chain's
        # subject: "Rafa" of "Rafa left Lumen Health; he starts at Kaya Pay" / "Rafa works … at Lumen Health" is no
        # proof that "Rafa and Inês are moving to Lisbon" updates the job; "Lumen Health" would be
        subject = {w for w in subject if 2 * df[w] <= len(words)} or subject
        if subject and not subject & words.get(n, set()):
            continue  # the newer names nothing of the older one's own subject
        out.setdefault(o, []).append(n)
    return out


def _must_show(conn: Any, ids: list[int]) -> set[int]:
    """Those of ``ids`` pinned or of importance >= MUST_SHOW_IMPORTANCE: a may_update link (probably, not surely,
    an update) hides them only when the newer names more of them than whom they are about; recall still marks
    the pair."""
    out: set[int] = set()
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        out.update(int(r[0]) for r in conn.execute(
            f"SELECT id FROM memories WHERE id IN ({','.join('?' * len(chunk))}) AND (pinned = 1 OR importance >= ?)",
            [*chunk, MUST_SHOW_IMPORTANCE]))
    return out


def _said_past_the_subject(shared: set[str], *texts: str) -> bool:
    """Whether ``shared`` (subject words two facts both name) holds one that is neither fact's first word: "Lumen
    Health" of "Rafa quit Kaya Pay and went back to Lumen Health" / "Rafa left Lumen Health; …", not "Priya" of
    "Priya is allergic to peanuts" / "Priya started a new job at Figma" (whom they are about, not what)."""
    first: set[str] = set()
    for t in texts:
        head = t.split(maxsplit=1)
        if head:
            first |= _subject_words(head[0])
    return bool(shared - first)


def _contents(conn: Any, ids: list[int]) -> dict[int, str]:
    """The contents of ``ids`` (any status)."""
    out: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        out.update((int(r[0]), str(r[1])) for r in conn.execute(
            f"SELECT id, content FROM memories WHERE id IN ({','.join('?' * len(chunk))})", chunk))
    return out


def _subject_words(text: str) -> set[str]:
    """The words of a fact that may name its subject: brief_upcoming.event_words (no stop word, common verb,
    calendar word or word of change), from three letters ("SDK", "npm", "CI" as acronyms)."""
    from memengine.brief_upcoming import event_words

    return event_words(text, min_len=3, chat=False)


LESSER_MAX = 200  # (brief27) the newest facts below KEY_FACT_IMPORTANCE read for updates the store did not mark


def lesser_updates(store: Store, limit: int = LESSER_MAX) -> set[int]:
    """(brief27) Facts below KEY_FACT_IMPORTANCE that a later fact of the same source replaces, by the fact rules
    (``facts.compare``: what write-time supersession asks), at cosine >= SUBJECT_COS: left out of every section.
    An agent's notes of importance 0.5-0.6 are no key facts, so :func:`fold_updates` never read them, and a topic
    showed "Lucía tiene un Seat Ibiza de 2012" under "Lucía ha vendido el Seat Ibiza y ahora tiene un Toyota
    Corolla híbrido". Stricter than the key facts' fold (no cosine alone): nothing says here what the newer may
    replace, so only a rare subject both name, written on another day, or a change the rules read hides the
    older."""
    cols = f"m.id, m.content, {timekind.when_sql('m')}, m.pinned, m.importance, m.source"
    rows = store.conn.execute(
        # (the unary +: the (status, memory_type) index reads the semantic rows only; the rank index walked every
        # chat turn of a 100k store below the importance, +0.14 s of its brief)
        f"""SELECT {cols} FROM memories m WHERE {_LIVE} AND m.source != 'vcf' AND +m.pinned = 0
            AND +m.importance < ? AND m.memory_type = 'semantic' AND m.thread IS NULL
            ORDER BY coalesce(m.event_at, m.created_at) DESC, m.id DESC LIMIT ?""",
        (KEY_FACT_IMPORTANCE, limit)).fetchall()
    if len(rows) < 2:
        return set()
    sim = similarities(store, [int(r[0]) for r in rows])
    order = sorted(range(len(rows)), key=lambda k: (str(rows[k][2] or ""), int(rows[k][0])))
    subject = _rare_subject_words(rows)
    out: set[int] = set()
    for n, j in enumerate(order):
        for i in order[:n]:
            if rows[i][5] != rows[j][5] or float(sim[i, j]) < SUBJECT_COS or int(rows[i][0]) in out:
                continue
            # written on another day and naming the same rare subject ("Seat Ibiza": no other fact read names it),
            # or a change the fact rules read
            if subject[i] & subject[j] and _apart(rows[i], rows[j]):
                out.add(int(rows[i][0]))
                continue
            from memengine import facts  # ~100 patterns: loaded only when such a pair is there

            if facts.compare(str(rows[i][1]), str(rows[j][1]), float(sim[i, j])) is not None:
                out.add(int(rows[i][0]))
    return out


def _apart(old: Any, new: Any) -> bool:
    """Whether two facts were written more than SAME_SITTING_HOURS apart (an unreadable date: not)."""
    try:
        gap = (datetime.fromisoformat(str(new[2])[:19]) - datetime.fromisoformat(str(old[2])[:19])).total_seconds()
    except ValueError:
        return False
    return gap >= SAME_SITTING_HOURS * 3600
