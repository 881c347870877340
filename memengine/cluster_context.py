"""Chat turns grouped with the exchange they belong to, not alone: each turn's grouping vector takes in its neighbours.

A chat's news comes in one turn ("I got into the PhD at Utrecht!! ... I start on 1 February 2027")
and its replies carry none of its words ("WHAT", "DR PRIYA", "so proud of you"): alone, the news
turn has nothing near it, stays in no level-1 cluster of ``clustering.TOPIC_MIN_SIZE`` and so
outside every topic, while the replies, short turns that all sit near one "chat" direction, group
with other chats' replies into topics of small talk (bench/data/brief_heldout7: 12 of 16 key facts
and plans of a four-person group chat outside every topic, "sore feet club" and "happy halloween"
topics). A reply's subject is the turn it answers.

So, for consolidate's level-1 clustering only (as memengine/cluster_authors.py, whose vectors this
takes in), a chat turn's vector is moved toward the turns around it in its thread: the ``SPAN``
turns before and after it that were written within ``GAP`` of it, each weighted by how much it
says (:func:`weight`: a long turn more than "lol"), and the turn itself by its own weight::

    g_i = normalise(w_i * v_i + CONTEXT * (1 - w_i) * sum_j w_j * v_j / sum_j w_j)

A reply ("WHAT") has little weight of its own and takes its exchange's subject; a turn that says
enough on its own (FULL_WORDS words) keeps its vector, so two conversations interleaved in one
thread stay apart (tests/test_cli_recall.py's chat). Memories that are no chat
turn (no thread position, or an episode) keep their vectors. Stored vectors, centroids and recall
never see these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import numpy as np

from memengine import cluster_authors
from memengine.db import select_in

ENABLED = True  # bench/brief_quality.py measures with and without (BRIEF_QUALITY_SET)
SPAN = 2  # turns on each side that are a turn's context
GAP = timedelta(minutes=30)  # a neighbour written further away belongs to another exchange
CONTEXT = 0.6  # the context's weight, against a turn's own weight (0..1, see weight)
FULL_WORDS = 8  # a turn of this many words or more says enough to keep its own subject (weight 1)
SCAN_OVER = 5000  # more ids than this: thread positions read in one scan
BLOCK = 32768  # turns per step: bounded temporaries at 1M turns
_WORD = re.compile(r"[^\W_]{2,}")


def weight(text: str) -> float:
    """How much a turn says of its own, 0.15..1: its words of two letters or more, over FULL_WORDS (an imported
    chat turn's "Name: " is not what it says; the first 300 characters hold FULL_WORDS words when it has them)."""
    body = text.split(": ", 1)[1] if ": " in text[:60] else text
    return max(0.15, min(1.0, len(_WORD.findall(body[:300])) / FULL_WORDS))


def turns_of(conn: Any, ids: Sequence[int]) -> dict[int, tuple[str, int, float, str]]:
    """id -> (thread, position, event time in seconds or NaN, content) of the chat turns among ``ids`` (episodes
    left out)."""
    id_list = [int(i) for i in ids]
    sql = ("SELECT id, thread, position, julianday(coalesce(event_at, created_at)) * 86400.0, content FROM memories "
           "WHERE thread IS NOT NULL AND position IS NOT NULL AND level = 0 "
           "AND json_extract(metadata, '$.kind') IS NOT 'episode'")
    if len(id_list) > SCAN_OVER:  # one scan of the threaded rows beats thousands of IN lists
        wanted = set(id_list)
        rows = [r for r in conn.execute(sql) if int(r[0]) in wanted]
    else:
        rows = list(select_in(conn, sql + " AND id IN ({ids})", id_list))
    return {int(r[0]): (str(r[1]), int(r[2]), float("nan") if r[3] is None else float(r[3]), str(r[4] or ""))
            for r in rows}


def in_context(conn: Any, ids: np.ndarray, vecs: np.ndarray) -> np.ndarray:
    """Rows of ``vecs`` (unit rows of memories ``ids``) with each chat turn moved toward its exchange (see the
    module docstring); ``vecs`` itself when nothing changes (no chat turn with a neighbour).

    Vectorised over offsets -SPAN..SPAN of the turns sorted by (thread, position), in blocks of BLOCK turns."""
    if not ENABLED or CONTEXT <= 0 or len(ids) == 0:
        return vecs
    turns = turns_of(conn, ids.tolist())
    if len(turns) < 2:
        return vecs
    row = {int(m): i for i, m in enumerate(ids.tolist())}
    order = sorted(turns, key=lambda m: (turns[m][0], turns[m][1], m))
    threads: dict[str, int] = {}
    th = np.fromiter((threads.setdefault(turns[m][0], len(threads)) for m in order), dtype=np.int64, count=len(order))
    at = np.fromiter((turns[m][2] for m in order), dtype=np.float64, count=len(order))
    w = np.fromiter((weight(turns[m][3]) for m in order), dtype=np.float32, count=len(order))
    rows = np.fromiter((row[m] for m in order), dtype=np.int64, count=len(order))
    gap = GAP.total_seconds()
    n = len(order)
    # the turns in thread order, SPAN zero rows on each side: a neighbour at offset d is a slice, not a gather
    pad = np.zeros((n + 2 * SPAN, vecs.shape[1]), dtype=np.float32)
    pad[SPAN: SPAN + n] = vecs[rows]
    out: np.ndarray | None = None
    for b0 in range(0, n, BLOCK):
        k = np.arange(b0, min(n, b0 + BLOCK))
        ctx = np.zeros((len(k), vecs.shape[1]), dtype=np.float32)
        wsum = np.zeros(len(k), dtype=np.float32)
        for d in range(-SPAN, SPAN + 1):
            if d == 0:
                continue
            jj = np.clip(k + d, 0, n - 1)
            ok = (k + d >= 0) & (k + d < n) & (th[jj] == th[k]) & (np.abs(at[jj] - at[k]) <= gap)  # NaN: False
            if not ok.any():
                continue
            wj = np.where(ok, w[jj], np.float32(0.0))
            tmp = pad[SPAN + b0 + d: SPAN + b0 + d + len(k)] * wj[:, None]
            ctx += tmp
            wsum += wj
        has = wsum > 0
        if not has.any():
            continue
        # the less a turn says, the more its exchange says for it: a turn of FULL_WORDS keeps its own vector
        ctx *= (np.float32(CONTEXT) * (np.float32(1.0) - w[k]) / np.where(has, wsum, np.float32(1.0)))[:, None]
        has &= w[k] < 1.0
        ctx += pad[SPAN + b0: SPAN + b0 + len(k)] * w[k][:, None]
        norms = np.linalg.norm(ctx, axis=1)
        has &= norms > 0
        if out is None:
            out = vecs.copy()
        sel = np.nonzero(has)[0]
        out[rows[k[sel]]] = ctx[sel] / norms[sel][:, None]
    return vecs if out is None else out


def grouping_vectors(conn: Any, ids: np.ndarray, vecs: np.ndarray) -> np.ndarray | None:
    """The vectors consolidate's level-1 clustering groups by (None: ``vecs`` themselves): the speaker's
    direction out (memengine/cluster_authors.py), then each chat turn in its exchange (above)."""
    gv = vecs
    if cluster_authors.TOPICS:
        gv = cluster_authors.without_speaker(vecs, cluster_authors.authors_of(conn, ids.tolist()),
                                             common=cluster_authors.CLUSTER_COMMON)
    gv = in_context(conn, ids, gv)
    return None if gv is vecs else gv

