"""Neighbour text derived by the view ``memories_text`` (m010), and the keyword index kept exact.

* The view's SQL gives exactly what the Python of ``refresh_context`` stored before m010
  (``bare_text``, thread order, the 6-hour session gap, the 1,200-character cap), on
  hostile text: white space of every kind, ``[...]`` prefixes around the 60-character
  limit, ``Author:`` labels, gaps of exactly 6 hours, forgotten turns and summaries.
* After many writes of every kind (turns appended live and in batches, a batch into the
  middle of a thread, edits, forget / restore, hard deletes, raw SQL moving a turn to another
  thread or time, summaries), FTS5's own integrity check against the view passes and every
  word's bm25 equals that of an index rebuilt from scratch; the in-process keyword index
  agrees with FTS5.
* A store from m009 (stored context columns) migrates to the same index, and ``compact``
  gives the space back.
"""

from __future__ import annotations

import random
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import memory_core as mc
from memengine import migrations
from memengine.context import CONTEXT_CHARS, CONTEXT_FAR, CONTEXT_MAX_GAP_HOURS, CONTEXT_NEAR
from memengine.db import connect
from memengine.keyword_index import KeywordIndex
from memengine.text import bare_text
from memengine.timeparse import from_iso

WORDS = ("garden tomato bicycle repair lisbon trip parser crash meeting budget painting dog adopt "
         "school concert guitar recipe bread sourdough marathon knee doctor").split()
SPACES = [" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\x1c", "\u2028", ""]
START = datetime(2024, 5, 1, 18, 0)


def python_context(conn: Any) -> dict[int, tuple[str, str]]:
    """(context, context_far) of every level-0, not forgotten thread turn, as refresh_context
    computed and stored them before m010 (its code, kept here as the reference)."""
    out: dict[int, tuple[str, str]] = {}
    threads = [r[0] for r in conn.execute("SELECT DISTINCT thread FROM memories WHERE thread IS NOT NULL")]
    for thread in threads:
        rows = conn.execute("""SELECT id, content, author, position, event_at FROM memories
                               WHERE thread = ? AND position IS NOT NULL AND status != 'deleted' AND level = 0
                               ORDER BY position, id""", (thread,)).fetchall()
        times = [from_iso(r["event_at"]) for r in rows]
        texts = [bare_text(r["content"], r["author"]) for r in rows]
        for i, r in enumerate(rows):
            near: list[str] = []
            far: list[str] = []
            for j in range(max(0, i - CONTEXT_FAR), min(len(rows), i + CONTEXT_FAR + 1)):
                dist = abs(rows[j]["position"] - r["position"])
                if j == i or dist == 0 or dist > CONTEXT_FAR:
                    continue
                ti, tj = times[i], times[j]
                if ti and tj and abs((ti - tj).total_seconds()) > CONTEXT_MAX_GAP_HOURS * 3600:
                    continue
                (near if dist <= CONTEXT_NEAR else far).append(texts[j])
            out[int(r["id"])] = (" ".join(near)[:CONTEXT_CHARS], " ".join(far)[:CONTEXT_CHARS])
    return out


def view_context(conn: Any) -> dict[int, tuple[str, str]]:
    return {int(r[0]): (r[1], r[2]) for r in conn.execute(
        "SELECT t.id, t.context, t.context_far FROM memories_text t JOIN memories m USING (id) "
        "WHERE m.thread IS NOT NULL AND m.position IS NOT NULL AND m.level = 0 AND m.status != 'deleted'")}


def hostile_text(rng: random.Random, author: str) -> str:
    """A turn as exports write them, with the edge cases of bare_text's regex and strip()."""
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 40)))
    pre = "".join(rng.choice(SPACES) for _ in range(rng.randint(0, 2)))
    kind = rng.randrange(6)
    if kind == 0:  # "[...]" of 59-62 characters: the regex's limit is 60
        inner = "x" * rng.choice([0, 1, 59, 60, 61, 62])
        text = f"{pre}[{inner}]{rng.choice(SPACES)}{author}:{rng.choice(SPACES)}{words}"
    elif kind == 1:
        text = f"{pre}{author}:{rng.choice(SPACES)}{words}{rng.choice(SPACES)}"
    elif kind == 2:  # a label that is not this author's, or no colon
        text = f"{pre}{author}x: {words}" if rng.random() < 0.5 else f"{author} {words}"
    elif kind == 3:
        text = f"[12/03/2024, 09:15] {words}]"
    elif kind == 4:
        text = f"{pre}[never closed {words}"
    else:
        text = words
    return text if text.strip() else "x"


def fill_threads(store: mc.MemoryStore, rng: random.Random, threads: int = 3, turns: int = 40) -> None:
    items = []
    for t in range(threads):
        when = START
        for p in range(turns):
            who = rng.choice(["Ana", "Ben", "Zoë", ""])
            # gaps of exactly 6 h and 6 h + 1 s around the session limit; some turns without a time
            when += rng.choice([timedelta(minutes=3)] * 4 + [timedelta(hours=6), timedelta(hours=6, seconds=1)])
            items.append(mc.NewMemory(content=hostile_text(rng, who), memory_type="episodic", source="chat",
                                      ref=f"t{t}/{p}", author=who or None, thread=f"t{t}", position=p,
                                      event_at=None if rng.random() < 0.1 else when))
    store.store_many(items, batch_size=17)  # batches that end inside a thread


def test_view_gives_what_refresh_context_stored(store: mc.MemoryStore) -> None:
    rng = random.Random(3)
    fill_threads(store, rng)
    with mc.write_tx(store.conn):  # a forgotten turn and a summary are nobody's neighbour
        store.conn.execute("UPDATE memories SET status = 'deleted' WHERE id IN (5, 44)")
        store.conn.execute("UPDATE memories SET level = 1 WHERE id = 9")
    want = python_context(store.conn)
    got = view_context(store.conn)
    assert got == want
    assert sum(1 for c, f in got.values() if c and f) > 60  # the cases above are really exercised
    gaps = [r[0] for r in store.conn.execute(
        "SELECT unixepoch(b.event_at) - unixepoch(a.event_at) FROM memories a JOIN memories b "
        "ON b.thread = a.thread AND b.position = a.position + 1")]
    assert gaps.count(21600) >= 5 and gaps.count(21601) >= 5  # both sides of the session limit
    for text, author in [("  [09:15]  Ana:\u3000hello ", "Ana"), ("[" + "x" * 61 + "] Ana: hi", "Ana"),
                         ("\u2028Ana:hi\x1c", "Ana"), ("Ana: ", "Ana"), ("[] :x", "")]:
        row = store.conn.execute("SELECT bare FROM memories_turns WHERE id = ?", (store.store(
            text, "episodic", author=author or None, thread="solo", dedup=False).id,)).fetchone()
        assert row[0] == bare_text(text, author or None), text


def _bm25_by_word(conn: Any) -> dict[str, list[tuple[int, float]]]:
    w = ", ".join(str(x) for x in mc.FTS_WEIGHTS)
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.v_rows USING fts5vocab(main, memories_fts, row)")
    terms = [r[0] for r in conn.execute("SELECT term FROM temp.v_rows ORDER BY term")]
    out = {}
    for term in terms:
        out[term] = [(int(r[0]), round(float(r[1]), 9)) for r in conn.execute(
            f"SELECT rowid, bm25(memories_fts, {w}) FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid",
            (mc.quote_fts(term),))]
    return out


def assert_index_exact(store: mc.MemoryStore, tmp_path: Path) -> None:
    """FTS5's check against the view, and every word's bm25 equal to a from-scratch rebuild's."""
    store.conn.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
    copy = tmp_path / "rebuilt.db"
    copy.unlink(missing_ok=True)
    store.backup(copy)
    fresh = connect(copy)
    fresh.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")
    fresh.commit()
    got, want = _bm25_by_word(store.conn), _bm25_by_word(fresh)
    assert got == want
    assert len(got) > 20
    sizes = "SELECT id, sz FROM memories_fts_docsize ORDER BY id"
    assert store.conn.execute(sizes).fetchall() == fresh.execute(sizes).fetchall()
    fresh.close()


def test_index_stays_exact_through_every_kind_of_write(store: mc.MemoryStore, tmp_path: Path) -> None:
    rng = random.Random(11)
    fill_threads(store, rng)
    index = KeywordIndex(store.path, mc.FTS_WEIGHTS)
    index.start()
    assert index.wait(60)
    assert_index_exact(store, tmp_path)
    # live turns appended one by one (store), and a batch into the middle of a thread
    for i in range(6):
        store.store(f"Ana: live turn {rng.choice(WORDS)} {i}", "episodic", author="Ana", thread="t0",
                    event_at=START + timedelta(hours=40, minutes=i), dedup=False)
    store.store_many([mc.NewMemory(content=f"Ben: inserted {rng.choice(WORDS)}", memory_type="episodic",
                                   source="chat", ref=f"mid/{p}", author="Ben", thread="t1", position=p,
                                   event_at=START + timedelta(minutes=3 * p)) for p in (10, 11, 25)])
    assert_index_exact(store, tmp_path)
    ids = [int(r[0]) for r in store.conn.execute("SELECT id FROM memories WHERE thread = 't2' ORDER BY position")]
    store.forget(ids[3])
    store.forget(ids[4])
    store.restore(ids[3])
    store.update(ids[7], "Ana: corrected to sourdough marathon")  # an edit supersedes: a new memory
    assert_index_exact(store, tmp_path)
    with mc.write_tx(store.conn):  # what other paths and a user's SQL can do to a turn
        c = store.conn
        c.execute("UPDATE memories SET content = 'Zoë: tomato tomato tomato' WHERE id = ?", (ids[10],))
        c.execute("UPDATE memories SET thread = 't0', position = 3 WHERE id = ?", (ids[12],))
        c.execute("UPDATE memories SET event_at = '2030-01-01T00:00:00' WHERE id = ?", (ids[15],))
        c.execute("UPDATE memories SET author = 'Zoë' WHERE id = ?", (ids[16],))
        c.execute("UPDATE memories SET level = 1 WHERE id = ?", (ids[18],))
        c.execute("UPDATE memories SET position = NULL WHERE id = ?", (ids[20],))
        c.execute("UPDATE memories SET tags = 'garden', date_terms = 'march' WHERE id = ?", (ids[21],))
        c.execute("UPDATE memories SET status = 'archived' WHERE id = ?", (ids[22],))
        c.execute("DELETE FROM memories WHERE id IN (?, ?)", (ids[25], ids[26]))
        c.execute("UPDATE memories SET status = 'deleted' WHERE id = ?", (ids[30],))
        c.execute("DELETE FROM memories WHERE id = ?", (ids[30],))  # a forgotten turn, deleted for good
    assert_index_exact(store, tmp_path)
    # the in-process index followed every change through the log, as a delta
    words = ["tomato", "sourdough", "garden", "inserted", "live", "marathon", "ben"]
    for word in words:
        got = index.search(store.conn, [word], 1000)
        assert got is not None
        w = ", ".join(str(x) for x in mc.FTS_WEIGHTS)
        ref = {int(r[0]): -float(r[1]) for r in store.conn.execute(
            f"SELECT rowid, bm25(memories_fts, {w}) FROM memories_fts WHERE memories_fts MATCH ?", (word,))}
        assert dict(got) == pytest.approx(ref, rel=1e-9), word
    assert index.stats()["builds"] == 1
    index.close()


def test_a_failed_batch_leaves_the_index_as_it_was(store: mc.MemoryStore, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    fill_threads(store, random.Random(5), threads=1, turns=12)
    real_write = store._write_vector
    calls = []

    def failing_write(mid: int, vec: Any) -> None:  # the disk fills up mid-batch, after the rows
        calls.append(mid)
        if len(calls) == 2:
            raise RuntimeError("the disk filled up")
        real_write(mid, vec)

    monkeypatch.setattr(store, "_write_vector", failing_write)
    batch = [mc.NewMemory(content=f"Ana: turn {p}", memory_type="episodic", source="chat", ref=f"x/{p}",
                          author="Ana", thread="t0", position=p) for p in (5, 6)]
    with pytest.raises(RuntimeError):
        store.store_many(batch)
    assert len(calls) == 2
    assert store.conn.execute("SELECT count(*) FROM _fts_deferred").fetchone()[0] == 0
    assert store.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 12
    assert_index_exact(store, tmp_path)


def test_a_store_with_stored_context_migrates_to_the_same_index(tmp_path: Path) -> None:
    old = tmp_path / "m009.db"
    conn = connect(old)
    migrations.migrate(conn, upto="m009_signplane")
    rng = random.Random(8)
    rows = []
    for t in range(2):
        for p in range(30):
            rows.append((f"Ana: {' '.join(rng.choice(WORDS) for _ in range(rng.randint(3, 30)))}", "Ana",
                         f"t{t}", p, (START + timedelta(minutes=p)).isoformat()))
    conn.executemany("INSERT INTO memories(content, content_hash, created_at, updated_at, author, thread, position, "
                     "event_at) VALUES (?, 'h', '2024-01-01T00:00:00', '2024-01-01T00:00:00', ?, ?, ?, ?)", rows)
    for mid, (near, far) in python_context(conn).items():  # what refresh_context stored
        conn.execute("UPDATE memories SET context = ?, context_far = ? WHERE id = ?", (near, far, mid))
    conn.commit()
    before = _bm25_by_word(conn)
    conn.close()
    shutil.copy(old, tmp_path / "kept.db")
    store = mc.MemoryStore(old)  # opening migrates
    assert _bm25_by_word(store.conn) == before  # the same words, the same scores
    assert store.conn.execute("SELECT count(*) FROM memories WHERE context <> '' OR context_far <> ''").fetchone()[0] == 0
    assert_index_exact(store, tmp_path)
    freed = store.compact()["freed_bytes"]
    assert freed > 60 * 500  # ~1 KB of neighbour text per turn was in the rows
    store.close()
