"""One subject, one topic: level-1 clusters that name the same rare things are merged.

A practical subject of a chat comes back on separate days among banter: a car's clutch (a quote from
one garage, a second from another, the car dropped off, the part early, the car back), a cottage for
New Year (the host's first price, a longer stay, a final offer, the deposit, the drive). Each exchange
is close in meaning to its own replies but not to the exchange of another day: "Brightside called:
the part came early, car ready Thursday" and "my cousin swears by Brightside Autos in Bow" sit at a
cosine of 0.3, the store's background. Average linkage keeps them apart, and the brief showed one move
in eight topics, a flat's boiler, energy and broadband each split (bench/data/brief_heldout10).

What the exchanges share is their names: "Brightside", "Keswick", "Lakeside Barn", "clutch",
"Vello". So, for consolidate's level-1 clustering only, after the merge by cosine: two clusters merge
when

* they share rare words worth EVIDENCE points — a word held by at most RARE_SHARE of the memories
  clustered (at least RARE_MIN, at most RARE_MAX), not a stop word (of its chat's language), filler, common verb or calendar word
  (``topic_names.weak``), general noun (``GENERIC``) or plain adjective, no one's name (the store's people, a word said as "X's" or "X and Y"): a name
  (written capitalised inside a sentence) 2 points, another word 1;
* on average their members are at least as close as two memories of the store are (the background,
  memengine/cluster_background.py: read once per run from every memory, so a rerun reads the same floor
  and changes nothing);
* the shared words are said by at least COVER of each cluster's members (a subject of both);
* and the merged cluster stays small: at most MAX_SHARE of the memories clustered (at least MAX_MIN), so
  that a word that recurs everywhere builds no topic of everything.

Pairs merge best first (most evidence, then closest), in rounds until none is left. Stored vectors,
centroids and recall never see the words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from memengine.db import select_in

ENABLED = True  # bench/brief_quality.py measures with and without (BRIEF_QUALITY_SET)
JOIN = True  # memories in no cluster join the one that names what they name (join_step; round 12)
RARE_SHARE = 0.1  # a word held by at most this share of the memories clustered...
RARE_MIN = 4  # ...(never fewer than this many: a small store's subject is said in a few turns)...
RARE_MAX = 40  # ...(nor more: in a large store a subject is still a few dozen memories) is rare
EVIDENCE = 2  # points of shared rare words a merge needs: a name 2, another word 1
MAX_SHARE = 0.2  # a merged cluster holds at most this share of the memories clustered...
MAX_MIN = 24  # ...or this many
COVER = 0.25  # the shared words are said by at least this share of each cluster's members: a subject of both,
# not a word one member of a large cluster let fall ("Cykelhuset" in one turn of fifteen)
MAX_ROUNDS = 6
LANGUAGE_SAMPLE = 200  # texts of a chat read to tell its language (summarize.stopwords_for)
# adjectives and adverbs too plain to name a subject that WEAK leaves to names ("New Year", "Live Aid")
_PLAIN = frozenset("new common live general simple easy hard last first second next nice".split())
# words of 4+ letters or acronyms of 2-3 capitals ("AGM", "MOT"): shorter ones are never a subject here
_WORD = re.compile(r"\b[^\W\d_]{4,}\b|\b[A-Z]{2,3}\b")  # (no digits: "note0", "B12" are codes, not names)
_POSSESSIVE = re.compile(r"\b([A-ZÀ-Þ][^\W\d_]+)['’]s\b")
_AUTHOR = re.compile(r"^[^:\n]{1,60}:\s")
_PAIR = re.compile(r"\b([A-ZÀ-Þ][^\W\d_]+)\s+(?:and|&|og|och|und|et|e|y|en)\s+([A-ZÀ-Þ][^\W\d_]+)\b")
_CAPITAL = re.compile(r"\b[A-ZÀ-Þ][^\W\d_]+")
_STARTS = re.compile(r"(?:^|[.!?:;\n][\s\"“(]*|[\"“(]\s*)([A-ZÀ-Þ][^\W\d_]+)")


def words_of(conn: Any, ids: Sequence[int]) -> tuple[list[frozenset[str]], set[str]]:
    """Per id, its content words (folded, ``topic_names.fold``) and the names among them: the words written
    capitalised somewhere inside a sentence; and the words said of people ("Ada's", "Ada and Josh")."""
    from memengine import summarize, topic_names

    content: dict[int, str] = {}
    thread_of: dict[int, str] = {}
    id_list = [int(i) for i in ids]
    for mid, text, thread in select_in(conn, "SELECT id, content, thread FROM memories WHERE id IN ({ids})", id_list):
        content[int(mid)] = str(text or "")[:600]
        thread_of[int(mid)] = str(thread or "")
    # each chat's (and the notes') own stop words: "till", "blir", "senast" of a Swedish chat are no subject
    by_thread: dict[str, list[str]] = {}
    for mid, t in thread_of.items():
        if len(by_thread.setdefault(t, [])) < LANGUAGE_SAMPLE:
            by_thread[t].append(content[mid])
    stop_of = {t: summarize.stopwords_for(texts) for t, texts in by_thread.items()}
    people = {str(a).lower() for (a,) in conn.execute("SELECT DISTINCT author FROM memories WHERE author IS NOT NULL")}
    people |= {w.lower() for a in list(people) for w in a.split()}
    out: list[frozenset[str]] = []
    names: set[str] = set()
    # a word's verdict depends on the word and its chat's stop list only: decided once (100k memories hold ~2M words)
    verdict: dict[tuple[int, str], str | None] = {}

    def judged(w: str, stop: frozenset[str]) -> str | None:
        low = w.lower()
        if (len(low) < 4 and not (len(w) >= 2 and w.isupper())) or low in stop or topic_names.is_filler(low) \
                or topic_names.weak(w) or low in topic_names.GENERIC or low in _PLAIN:
            return None
        return topic_names.fold(w)

    for mid in id_list:
        text = content.get(mid, "")
        stop = stop_of.get(thread_of.get(mid, ""), summarize.STOPWORDS)
        body = _AUTHOR.sub("", text, count=1)
        got: set[str] = set()
        sid = id(stop)
        if "s" in body and ("'s" in body or "’s" in body):
            people.update(w.lower() for w in _POSSESSIVE.findall(body))
        for w in set(_WORD.findall(body)):
            key = (sid, w)
            f = verdict[key] if key in verdict else verdict.setdefault(key, judged(w, stop))
            if f is not None:
                got.add(f)
        if got:
            # names: written capitalised where no sentence starts ("my cousin swears by Brightside Autos")
            first = {m.group(1) for m in _STARTS.finditer(body)}
            for w in _CAPITAL.findall(body):
                if w not in first and not w.isupper():
                    f = verdict.get((sid, w))
                    if f is not None:
                        names.add(f)
        if " " in body and ("and" in body or "&" in body or " og " in body or " och " in body):
            for m in _PAIR.finditer(body):
                people.update((m.group(1).lower(), m.group(2).lower()))
        out.append(frozenset(got))
    folded_people = {topic_names.fold(p) for p in people}
    return [ws - folded_people for ws in out], names - folded_people


def _covers(a: list[int], b: list[int], words: list[frozenset[str]], df: Counter[str], rare_limit: int) -> bool:
    """Whether the rare words clusters ``a`` and ``b`` (rows) share are said by >= COVER of each one's members."""
    wa = set().union(*(words[r] for r in a))
    wb = set().union(*(words[r] for r in b))
    shared = {w for w in wa & wb if df[w] <= rare_limit}
    return all(sum(bool(words[r] & shared) for r in rows) >= COVER * len(rows) for rows in (a, b))


def merge_step(clusters: dict[int, list[int]], assign: np.ndarray, gv: np.ndarray, words: list[frozenset[str]],
               names: set[str], floor: float, n: int, merge_order: Any, merged: list[tuple[int, int]],
               apart: Any = None) -> bool:
    """Merge the clusters (cluster id -> rows) that name the same rare things (module docstring); True if any
    merged. ``words`` are per row of ``gv``; ``floor`` the store's background; ``n`` the memories clustered;
    ``apart(a, b)``: a pair left apart (two subjects a split would separate: memengine/cluster_split.py)."""
    if len(clusters) < 2:
        return False
    df: Counter[str] = Counter()
    held: dict[int, Counter[str]] = {}
    for cid, rows in clusters.items():
        c: Counter[str] = Counter()
        for r in rows:
            c.update(words[r])
        held[cid] = c
    for ws in words:
        df.update(ws)
    rare_limit = max(RARE_MIN, min(RARE_MAX, int(RARE_SHARE * n)))
    cap = max(MAX_MIN, int(MAX_SHARE * n))
    changed = False
    for _round in range(MAX_ROUNDS):
        by_word: dict[str, list[int]] = {}
        for cid, c in held.items():
            for w in c:
                if df[w] <= rare_limit:
                    by_word.setdefault(w, []).append(cid)
        points: Counter[tuple[int, int]] = Counter()
        for w, cids in by_word.items():
            if 2 <= len(cids) <= 8:  # (a word of more clusters than this names nothing in particular)
                cids.sort()
                for i, a in enumerate(cids):
                    for b in cids[i + 1:]:
                        points[(a, b)] += 2 if w in names else 1
        cand = [(p, a, b) for (a, b), p in points.items()
                if p >= EVIDENCE and len(clusters[a]) + len(clusters[b]) <= cap
                and _covers(clusters[a], clusters[b], words, df, rare_limit)]
        if not cand:
            break
        mean = {cid: gv[clusters[cid]].mean(axis=0) for cid in {x for _p, a, b in cand for x in (a, b)}}
        scored = sorted(((p, float(mean[a] @ mean[b]), a, b) for p, a, b in cand), key=lambda t: (-t[0], -t[1], t[2], t[3]))
        touched: set[int] = set()
        merged_now = False
        for _p, sim, a, b in scored:
            if sim < floor or a in touched or b in touched or (apart is not None and apart(a, b)):
                continue
            keep, drop = merge_order(a, b, {a: len(clusters[a]), b: len(clusters[b])})
            clusters[keep] = sorted(set(clusters[keep]) | set(clusters[drop]))
            assign[clusters[keep]] = keep
            held[keep] = held[keep] + held.pop(drop)
            del clusters[drop]
            merged.append((keep, drop))
            touched.update((a, b))
            merged_now = changed = True
        if not merged_now:
            break
    return changed


def join_step(clusters: dict[int, list[int]], assign: np.ndarray, free: np.ndarray, gv: np.ndarray,
              words: list[frozenset[str]], names: set[str], floor: float, n: int) -> bool:
    """Memories in no cluster (rows ``free``) join the cluster that names the same rare things (round 12); True if
    any joined. A turn of a subject said on another day, away from its exchange ("Hertz came back on the car:
    $295 for a midsize or $340 for the SUV, I took the midsize", the settled price, the deed's new day) stayed
    in no topic: it is close to no cluster by meaning, only by its names. A row joins when it shares rare words
    worth EVIDENCE points (module docstring: a name 2, another word 1) with at least two members of the cluster,
    is at least as close to the members that say them, on average, as two memories of the store are (``floor``), and
    the cluster stays under the merge's size cap; of several, the one it shares most with, then the closest."""
    if not clusters or not len(free):
        return False
    df: Counter[str] = Counter()
    for ws in words:
        df.update(ws)
    rare_limit = max(RARE_MIN, min(RARE_MAX, int(RARE_SHARE * n)))
    cap = max(MAX_MIN, int(MAX_SHARE * n))
    holders: dict[str, dict[int, int]] = {}  # rare word -> cluster -> members saying it
    for cid, rows in clusters.items():
        for r in rows:
            for w in words[r]:
                if df[w] <= rare_limit:
                    by = holders.setdefault(w, {})
                    by[cid] = by.get(cid, 0) + 1
    joins: dict[int, list[int]] = {}
    for r in (int(x) for x in free):
        points: Counter[int] = Counter()
        for w in words[r]:
            for cid, k in holders.get(w, {}).items():
                if k >= 2:
                    points[cid] += 2 if w in names else 1
        cand = [cid for cid, p in points.items() if p >= EVIDENCE and len(clusters[cid]) < cap]
        if not cand:
            continue
        mine = {w for w in words[r] if df[w] <= rare_limit}
        sims = {cid: float((gv[[m for m in clusters[cid] if words[m] & mine]] @ gv[r]).mean()) for cid in cand}
        best = max(cand, key=lambda c: (points[c], sims[c], -c))
        if sims[best] >= floor:
            joins.setdefault(best, []).append(r)
    for cid, rows in joins.items():
        clusters[cid] = sorted(set(clusters[cid]) | set(rows))
        assign[rows] = cid
    return bool(joins)
