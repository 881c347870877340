"""Episodes: a chat's stretches of conversation as retrieval units (imports and live threads).

Nemori-style event segmentation without an LLM: consecutive messages of a thread are split
by a time gap, a drop in embedding similarity between neighbouring windows, or a size cap.
An episode is a memory of its own, linked to its messages by ``part_of`` edges and to the
previous episode by a ``temporal`` edge; recall returns its best member in its place
(memengine/recall/episodes.py).

An import builds every episode of the threads it wrote (``build_episodes``). A thread stored
live (``mem.py store --thread``) is still being written: ``close_thread`` builds only its
*closed* episodes (every segment but the last; the last too once it is full or its last
message is EPISODE_GAP old), so an episode is never made from half a conversation and then
left short; ``close_all`` (consolidate's ``episodes`` phase) closes every thread's stale tail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from memengine import episode_marks
from memengine.db import write_tx
from memengine.edges import add_edges
from memengine.episode_vectors import mean_vector
from memengine.records import NewMemory
from memengine.timeparse import to_iso, utcnow
from memengine.vectors import vec_blob

if TYPE_CHECKING:
    from memengine.store import MemoryStore

EPISODE_GAP = timedelta(minutes=45)  # a pause this long ends an episode (chat sessions)
EPISODE_MAX = 25  # messages per episode at most
EPISODE_MIN_FOR_SHIFT = 6  # never split on topic below this many messages
TOPIC_WINDOW = 3  # messages per side compared for a topic shift
TOPIC_SHIFT_COSINE = 0.35  # window-centroid similarity below this is a new topic
SHIFT_MARGIN = 1e-3  # estimated cosines this far above the threshold skip the exact test (see _maybe_shift)
EPISODE_TEXT_CHARS = 4000  # an episode's own text is capped; its members keep everything
PRELOAD_MIN = 5000  # open messages from which close_all reads all vectors in one scan (see _preload)
DERIVED_BATCH = 64  # episodes per write transaction when their vectors are derived (no model call)


_OPEN_WHERE = """m.thread = ? AND m.source = ? AND m.level = 0 AND m.status = 'active'
             AND json_extract(m.metadata, '$.kind') IS NOT 'episode'
             AND NOT EXISTS (SELECT 1 FROM associations a WHERE a.source_id = m.id AND a.edge_type = 'part_of')"""


def _open_rows(store: MemoryStore, source: str, thread: str, live: bool = False) -> list[tuple[Any, ...]]:
    """A thread's stored messages not yet in an episode: (id, content, event_at, author, ref, position, time_kind).

    ``live``: a message stored without ``--at`` happened when it was stored (created_at)."""
    when = "coalesce(m.event_at, m.created_at)" if live else "m.event_at"
    return store.conn.execute(
        f"""SELECT m.id, m.content, {when}, m.author, m.ref, m.position, m.time_kind FROM memories m
           WHERE {_OPEN_WHERE}
           ORDER BY {when}, m.position, m.id""",
        (thread, source),
    ).fetchall()


def open_count(store: MemoryStore, source: str, thread: str) -> int:
    """How many of a thread's messages ``build_episodes`` will look at (an import's progress total)."""
    return int(store.conn.execute(f"SELECT count(*) FROM memories m WHERE {_OPEN_WHERE}",
                                  (thread, source)).fetchone()[0])


def segment(times: list[datetime | None], vecs: Any | None) -> list[tuple[int, int]]:
    """Split a thread's messages into episodes: [start, end) index ranges.

    Boundaries: a gap ≥ EPISODE_GAP, a topic shift (the centroids of the TOPIC_WINDOW
    messages before and after a point have cosine < TOPIC_SHIFT_COSINE, once the
    episode has EPISODE_MIN_FOR_SHIFT messages), or EPISODE_MAX messages.
    """
    import numpy as np

    n = len(times)
    out: list[tuple[int, int]] = []
    start = 0
    maybe = _maybe_shift(vecs) if vecs is not None else None
    for i in range(1, n + 1):
        if i == n:
            out.append((start, n))
            break
        size = i - start
        t0, t1 = times[i - 1], times[i]
        gap = t0 is not None and t1 is not None and t1 - t0 >= EPISODE_GAP
        shift = False
        if vecs is not None and size >= EPISODE_MIN_FOR_SHIFT and i + TOPIC_WINDOW <= n and maybe is not None \
                and maybe[i]:
            left = vecs[max(start, i - TOPIC_WINDOW): i].mean(axis=0)
            right = vecs[i: i + TOPIC_WINDOW].mean(axis=0)
            denom = float(np.linalg.norm(left) * np.linalg.norm(right)) or 1.0
            shift = float(left @ right) / denom < TOPIC_SHIFT_COSINE
        if gap or shift or size >= EPISODE_MAX:
            out.append((start, i))
            start = i
    return out


SHIFT_CHUNK = 2048  # positions estimated at a time by _maybe_shift (its float64 arrays stay ~6 MB each)


def _maybe_shift(vecs: Any) -> Any:
    """Per position i, whether the topic-shift test at i can pass, from all windows at once.

    When segment() tests a point, the episode has EPISODE_MIN_FOR_SHIFT > TOPIC_WINDOW messages,
    so its windows are always the full [i-W, i) and [i, i+W). Their cosine is estimated here in
    float64 from prefix sums (off by < 1e-9); only points within SHIFT_MARGIN of the threshold or
    below it get segment()'s exact float32 test, so the boundaries are the ones it always found.
    The positions go :data:`SHIFT_CHUNK` at a time, each chunk's prefix sums taken over its own rows and
    windows: over a whole 100k-message chat at once the float64 copies were ~1.2 GB, the peak of its import
    (users30 #3).
    """
    import numpy as np

    w = TOPIC_WINDOW
    n = len(vecs)
    maybe = np.ones(n + 1, dtype=bool)
    if n < 2 * w or EPISODE_MIN_FOR_SHIFT <= w:  # (shorter left windows: test every point exactly)
        return maybe
    for a in range(w, n - w + 1, SHIFT_CHUNK):
        b = min(a + SHIFT_CHUNK, n - w + 1)  # positions [a, b): rows [a - w, b - 1 + w) are read
        rows = vecs[a - w: b - 1 + w]
        c = np.zeros((len(rows) + 1, rows.shape[1]), dtype=np.float64)
        np.cumsum(rows, axis=0, dtype=np.float64, out=c[1:])
        m = b - a  # position a + k is row w + k of the chunk: its windows are rows [k, k + w) and [k + w, k + 2w)
        # window sums: the 1/W of the means cancels in a cosine
        left, right = c[w: w + m] - c[:m], c[2 * w: 2 * w + m] - c[w: w + m]
        nl, nr = np.linalg.norm(left, axis=1), np.linalg.norm(right, axis=1)
        ok = (nl > 1e-6) & (nr > 1e-6)
        cos = np.einsum("ij,ij->i", left, right) / np.where(ok, nl * nr, 1.0)
        maybe[a:b] = ~ok | (cos < TOPIC_SHIFT_COSINE + SHIFT_MARGIN)
    return maybe


def build_episodes(store: MemoryStore, source: str, thread: str, open_tail_at: datetime | None = None,
                   preloaded: Mapping[int, Any] | None = None, progress: Callable[[int], None] | None = None) -> int:
    """Group a thread's messages not yet in an episode into episodes; return how many were made.

    ``open_tail_at`` (a live thread, at that time): the last stretch is left open, unless it is
    full (EPISODE_MAX messages) or its last message is at least EPISODE_GAP older.
    ``preloaded``: stored vectors already read (close_all's one scan); the others are read here.
    ``progress``: called with how many messages each written batch of episodes grouped (an import's bar)."""
    return _build(store, source, thread, open_tail_at, preloaded, progress=progress)[0]


def _build(store: MemoryStore, source: str, thread: str, open_tail_at: datetime | None,
           preloaded: Mapping[int, Any] | None, sink: dict[int, bytes] | None = None,
           progress: Callable[[int], None] | None = None) -> tuple[int, list[int] | None]:
    """build_episodes, and the ids of the messages left open if segmenting them again would make
    no episode at any time (only single-message stretches: see memengine/episode_marks.py), else None.
    ``sink``: receives episode id -> the vector blob stored for it, when it was derived (no model)."""
    rows = _open_rows(store, source, thread, live=open_tail_at is not None)
    if len(rows) < 2:
        return 0, None
    ids = [r[0] for r in rows]
    vec_map = {i: preloaded[i] for i in ids if i in preloaded} if preloaded is not None else {}
    if len(vec_map) < len(ids):
        vec_map.update(store.vectors([i for i in ids if i not in vec_map]))
    import numpy as np

    vecs = np.stack([vec_map[i] for i in ids]) if len(vec_map) == len(ids) else None
    times = [datetime.fromisoformat(r[2]) if r[2] else None for r in rows]
    now = to_iso(utcnow()) or ""
    items: list[NewMemory] = []
    groups: list[list[int]] = []  # member ids, parallel to items
    spans = segment(times, vecs)
    if open_tail_at is not None and spans and not _closed(times, spans[-1], open_tail_at):
        spans = spans[:-1]
    for start, end in spans:
        members = rows[start:end]
        if len(members) < 2:
            continue
        text = "\n".join(r[1] for r in members)
        if len(text) > EPISODE_TEXT_CHARS:
            text = text[:EPISODE_TEXT_CHARS] + "…"
        people = sorted({r[3] for r in members if r[3]})
        span = [members[0][2], members[-1][2]]
        items.append(NewMemory(
            content=text, memory_type="episodic", source=source, ref=f"episode:{members[0][4]}",
            metadata={"kind": "episode", "members": len(members), "span": span, "participants": people},
            event_at=times[start], thread=thread, author=None, time_kind=members[0][6],  # its first turn's kind
        ))
        groups.append([r[0] for r in members])
    if not items:
        return 0, _inert(ids, times, vecs, set())
    # Episodes already stored under the same ref (an older run wrote them without edges).
    episode_ids: dict[int, int] = {}  # item index -> memory id
    index = {it.ref: i for i, it in enumerate(items)}
    for i, it in enumerate(items):
        eid = store.id_by_ref(source, it.ref or "")
        if eid is not None:
            episode_ids[i] = eid
    # The thread's latest episode from earlier imports precedes the first new one.
    prev_id: int | None = None
    for eid, ref in store.conn.execute(
        """SELECT m.id, m.ref FROM memories m WHERE m.thread = ? AND m.source = ?
             AND json_extract(m.metadata, '$.kind') = 'episode' ORDER BY m.event_at DESC, m.id DESC""",
            (thread, source)):
        if ref not in index:
            prev_id = eid
            break

    def prev_of(i: int) -> int | None:
        return episode_ids.get(i - 1) if i > 0 else prev_id

    made = 0

    def link(pairs: list[tuple[NewMemory, int]]) -> None:
        # Runs inside the transaction that writes these episodes: an episode never
        # lands without its edges, whatever kills the process. Batches come in order,
        # so the previous episode's id is always known.
        nonlocal made
        edges: list[tuple[int, int, str, float]] = []
        for it, eid in pairs:
            i = index[it.ref or ""]
            episode_ids[i] = eid
            edges.extend(_episode_edges(eid, groups[i], prev_of(i)))
            made += 1
            if sink is not None and derived_of is not None:
                sink[eid] = vec_blob(derived_of[i])  # the very bytes _write_vector stored
        add_edges(store.conn, edges, now)  # one statement run for the batch: the same rows, in the same order
        if progress is not None:
            progress(sum(len(groups[index[it.ref or ""]]) for it, _ in pairs))

    fresh = [it for i, it in enumerate(items) if i not in episode_ids]
    existing = [i for i in range(len(items)) if i in episode_ids]
    # An episode's vector is the mean of its messages' (already stored) vectors, not an
    # embedding of its text: the model would see only the first 256 tokens of it (the first
    # few messages), and embedding that window was 40 % of a WhatsApp import's model time.
    derived = None
    derived_of: dict[int, Any] | None = None  # item index -> its derived vector
    if vecs is not None:
        pos = {mid: k for k, mid in enumerate(ids)}
        derived_of = {i: mean_vector(vecs[[pos[m] for m in groups[i]]]) for i in range(len(items))
                      if i not in episode_ids}
        derived = list(derived_of.values())
    # Small batches when the model embeds: an episode's text fills its 256-token window, and the
    # ONNX arena grows with batch x tokens^2 (32 episodes at once peaked at 1.5 GB RSS). Derived
    # vectors need no model: larger batches then save a transaction and an index bracket per 4.
    store.store_many(fresh, batch_size=4 if derived is None else DERIVED_BATCH, on_batch=link, vectors=derived)
    if existing:
        with write_tx(store.conn):
            for i in existing:
                add_edges(store.conn, _episode_edges(episode_ids[i], groups[i], prev_of(i)), now)
    return made, _inert(ids, times, vecs, {m for g in groups for m in g})


def _inert(ids: list[int], times: list[datetime | None], vecs: Any, taken: set[int]) -> list[int] | None:
    """The ids (sorted) left open once ``taken`` are in episodes, if segmenting just them yields
    single-message stretches only (nothing, at any time); else None."""
    keep = [k for k, i in enumerate(ids) if i not in taken]
    if len(keep) < 2:
        return None  # not an open thread any more: nothing to mark
    spans = segment([times[k] for k in keep], vecs[keep] if vecs is not None else None)
    return sorted(ids[k] for k in keep) if all(end - start < 2 for start, end in spans) else None


def _episode_edges(eid: int, member_ids: list[int], prev_id: int | None) -> list[tuple[int, int, str, float]]:
    """part_of edges member → episode, and a temporal edge from the previous episode."""
    edges: list[tuple[int, int, str, float]] = [(mid, eid, "part_of", 1.0) for mid in member_ids]
    if prev_id is not None and prev_id != eid:
        edges.append((prev_id, eid, "temporal", 0.7))
    return edges


def _closed(times: list[datetime | None], span: tuple[int, int], at: datetime) -> bool:
    """Whether a thread's last stretch can grow no more: full, or quiet for EPISODE_GAP.
    (A stretch without times is closed: nothing tells it apart from an imported one.)"""
    start, end = span
    last = times[end - 1]
    if end - start >= EPISODE_MAX or last is None:
        return True
    if last.tzinfo is None and at.tzinfo is not None:
        at = at.replace(tzinfo=None)
    elif last.tzinfo is not None and at.tzinfo is None:
        last = last.replace(tzinfo=None)
    return at - last >= EPISODE_GAP


def close_thread(store: MemoryStore, source: str, thread: str, at: datetime | None = None) -> int:
    """A live thread's closed stretches made episodes (see the module doc); how many were made."""
    return build_episodes(store, source, thread, open_tail_at=at or utcnow())


_OPEN = """FROM memories m
           WHERE m.thread IS NOT NULL AND m.level = 0 AND m.status = 'active'
             AND json_extract(m.metadata, '$.kind') IS NOT 'episode'
             AND NOT EXISTS (SELECT 1 FROM associations a WHERE a.source_id = m.id AND a.edge_type = 'part_of')"""


def open_threads(store: MemoryStore) -> list[tuple[str, str]]:
    """(source, thread) of every thread with two messages or more not yet in an episode."""
    rows = store.conn.execute(
        f"""SELECT m.source, m.thread {_OPEN}
           GROUP BY m.source, m.thread HAVING count(*) >= 2 ORDER BY m.source, m.thread""").fetchall()
    return [(str(s), str(t)) for s, t in rows]


def _preload(store: MemoryStore, wanted: set[int]) -> dict[int, Any] | None:
    """The vectors of ``wanted`` in one scan of the vector table, when they are many: a vec0
    lookup by id costs ~0.2 ms at 100k rows (a first run over 100k stored turns: ~20 s), the
    scan ~1 s. None when few are wanted (the per-thread lookups are cheaper)."""
    if len(wanted) < PRELOAD_MIN:
        return None
    from memengine.vectors import scan_vectors

    ids, mat = scan_vectors(store.conn, wanted)
    return dict(zip(ids, mat))


def close_all(store: MemoryStore, at: datetime | None = None, preloaded: Mapping[int, Any] | None = None,
              sink: dict[int, bytes] | None = None) -> int:
    """Every thread's closed stretches made episodes (consolidate); how many were made.

    A thread whose open messages are exactly those an earlier run found to make no episode is
    skipped (memengine/episode_marks.py): a night's run re-segments only threads that changed.
    ``preloaded``: stored vectors the caller has read already (consolidate's one scan of the run),
    used instead of a scan here; ``sink`` receives the new episodes' stored vector blobs (see _build)."""
    when = at or utcnow()
    model = store.meta("embedding_model") or ""
    open_ids: dict[tuple[str, str], list[int]] = {}
    for s, t, mid in store.conn.execute(f"SELECT m.source, m.thread, m.id {_OPEN} ORDER BY 1, 2, 3"):
        open_ids.setdefault((str(s), str(t)), []).append(int(mid))
    before = episode_marks.load(store.conn)
    marks: dict[tuple[str, str], tuple[str, list[int]]] = {}
    todo = []
    for (s, t), ids in open_ids.items():
        if len(ids) < 2:
            continue
        if episode_marks.settled(before, s, t, ids, model):
            marks[(s, t)] = (model, ids)
        else:
            todo.append((s, t))
    if preloaded is None:
        preloaded = _preload(store, {m for k in todo for m in open_ids[k]})
    made = 0
    for s, t in todo:
        n, inert = _build(store, s, t, when, preloaded, sink)
        made += n
        if inert is not None:
            marks[(s, t)] = (model, inert)
    episode_marks.save(store.conn, before, marks)
    return made
