"""Facts that change, in a store crowded by chat turns (facts20): are updates lost when a store also holds
100k turns of imported chats?

    .venv/bin/python bench/fact_crowded.py --store /tmp/scl/scale-100000.v1.db      # ~2 min

Every distinct older fact (``a``) of the labelled files is stored (semantic, outside any conversation), then
every newer text (``b``), each compared with its real candidates; once into a copy of ``--store`` (made with
SQLite's backup into a temporary folder, $TMPDIR; the original is never written) and once into an empty store, with the real
int8 MiniLM. Per pair: its older superseded by the newer's write, or flagged ``may_update``; look-alikes
(label false) superseded or flagged falsely. ``--show`` prints every pair whose outcome differs between the two
stores, and for the chat store whether the older fact was among the newer's candidates at all (vector: among
its 10 nearest memories; words: among ``supersession.lexical_candidates``), and each write that retired
another pair's older fact in one store and not in the other. Without ``--store`` only the empty store is run
(and ``--show`` lists every write retiring another pair's older, with the verdict's reason).

    .venv/bin/python bench/fact_crowded.py --store /tmp/scl/scale-100000.v1.db --show   # both stores
    .venv/bin/python bench/fact_crowded.py --show                                       # the empty store only
    .venv/bin/python bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout1.jsonl --show

``--heldout FILE`` (facts21) reads one agent's store instead of pairs: lines ``{"id", "fact", "lang"}`` are
the older facts, stored first in file order; lines ``{"write", "lang", "updates"}`` are the newer writes,
stored next in file order, ``updates`` naming the one older fact id the write updates, or null for a
change about a subject no older fact is about (it must retire nothing). Printed: updates superseded /
flagged, and every write that retires (or flags) a fact other than its own older (any stored text, an
earlier write too); since facts23 also how many updates' olders are no candidate of their write at all (not
among the 10 nearest memories nor the word candidates, read just before the write, outside its timed store).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from embedder import OnnxEmbedder  # noqa: E402
from memengine import supersession  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

FILES = ["fact_heldout19.jsonl", "fact_heldout20.jsonl", "fact_heldout21.jsonl", "fact_heldout22.jsonl",
         "fact_pairs_dev14.jsonl", "fact_pairs_dev15.jsonl"]


def pairs(names: list[str]) -> list[dict[str, Any]]:
    """The labelled pairs of ``names`` (tests/data), paraphrases kept as look-alikes."""
    out: list[dict[str, Any]] = []
    for name in names:
        for line in (ROOT / "tests" / "data" / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                if isinstance(r.get("a"), str) and isinstance(r.get("b"), str):
                    r["file"] = name
                    out.append(r)
    return out


def run(db: Path, rows: list[dict[str, Any]], emb: Any) -> list[dict[str, Any]]:
    """Store every older, then every newer text into ``db``; what each newer's write did to its older."""
    s = MemoryStore(db, embedder=emb)
    try:
        older: dict[str, int] = {}
        text: dict[int, str] = {}
        for r in rows:
            if r["a"] not in older:
                older[r["a"]] = s.store(r["a"], "semantic").id
                text[older[r["a"]]] = r["a"]
        out = []
        cpu = 0.0
        for r in rows:
            a = older[r["a"]]
            vec = emb.embed([r["b"]])[0]
            near = {i for i, _ in s._nearest(vec, supersession.CANDIDATES)}
            lex = set(supersession.lexical_candidates(s.conn, r["b"]))
            live = s.conn.execute("SELECT status = 'active' AND valid_to IS NULL FROM memories WHERE id = ?",
                                  (a,)).fetchone()[0]
            t0 = time.process_time()
            res = s.store(r["b"], "semantic")
            cpu += time.process_time() - t0
            why = dict(s.conn.execute("SELECT CASE WHEN memory_a = ? THEN memory_b ELSE memory_a END, reason "
                                      "FROM contradictions WHERE ? IN (memory_a, memory_b)", (res.id, res.id)))
            out.append({"superseded": a in (res.supersedes or []) or res.superseded_by == a, "gone": not live, "flagged": a in (res.may_update or []),
                        "dup": res.deduplicated,
                        "others": sorted(text[i] for i in res.supersedes or [] if i != a and i in text), "near": a in near, "lex": a in lex,
                        "why": sorted(f"{text[i]!r}: {why.get(i)}" for i in res.supersedes or [] if i != a and i in text)})
        print(f"  {db.name}: {len(rows)} newer writes, CPU {1000 * cpu / len(rows):.1f} ms each "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
        return out
    finally:
        s.close()


def table(rows: list[dict[str, Any]], empty: list[dict[str, Any]], chat: list[dict[str, Any]]) -> None:
    """The counts of both stores, side by side."""
    ups = [i for i, r in enumerate(rows) if r.get("label")]
    looks = [i for i, r in enumerate(rows) if not r.get("label")]

    def n(out: list[dict[str, Any]], idx: list[int], key: str) -> int:
        return sum(bool(out[i][key]) for i in idx)

    print("\n| one store of the labelled facts | empty store | 100k chat turns |\n|---|---|---|")
    print(f"| updates superseded | {n(empty, ups, 'superseded')}/{len(ups)} | {n(chat, ups, 'superseded')}/{len(ups)} |")
    print(f"| updates flagged may_update | {n(empty, ups, 'flagged')}/{len(ups)} | {n(chat, ups, 'flagged')}/{len(ups)} |")
    print(f"| look-alikes superseded (false) | {n(empty, looks, 'superseded')}/{len(looks)} | "
          f"{n(chat, looks, 'superseded')}/{len(looks)} |")
    print(f"| look-alikes flagged (false) | {n(empty, looks, 'flagged')}/{len(looks)} | "
          f"{n(chat, looks, 'flagged')}/{len(looks)} |")
    print(f"| updates whose older is a vector candidate | {n(empty, ups, 'near')}/{len(ups)} | "
          f"{n(chat, ups, 'near')}/{len(ups)} |")
    print(f"| updates whose older is a word candidate | {n(empty, ups, 'lex')}/{len(ups)} | "
          f"{n(chat, ups, 'lex')}/{len(ups)} |")
    print(f"| updates whose older was retired before (by an earlier write) | {n(empty, ups, 'gone')} | "
          f"{n(chat, ups, 'gone')} |")
    print(f"| writes retiring another pair's older (not theirs) | {sum(bool(o['others']) for o in empty)} | "
          f"{sum(bool(o['others']) for o in chat)} |")
    print(f"| updates whose older is no candidate | {sum(not (empty[i]['near'] or empty[i]['lex']) for i in ups)} | "
          f"{sum(not (chat[i]['near'] or chat[i]['lex']) for i in ups)} |")


def heldout(path: Path, emb: Any, show: bool) -> None:
    """Store the held-out file's facts, then its writes, into one empty store; print what each write retired."""
    facts: list[dict[str, Any]] = []
    writes: list[dict[str, Any]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError as e:
            sys.exit(f"fact_crowded: {path}:{n}: not JSON ({e.msg})")
        if isinstance(r.get("fact"), str) and isinstance(r.get("id"), str):
            facts.append(r)
        elif isinstance(r.get("write"), str) and (r.get("updates") is None or isinstance(r.get("updates"), str)):
            writes.append(r)
        else:
            sys.exit(f"fact_crowded: {path}:{n}: a line needs 'id' and 'fact', or 'write' and 'updates' (id or null)")
    known = {f["id"] for f in facts}
    for w in writes:
        if w["updates"] is not None and w["updates"] not in known:
            sys.exit(f"fact_crowded: {path}: 'updates' names no fact id: {w['updates']!r}")
    with tempfile.TemporaryDirectory(prefix="fact-crowded-") as d:
        s = MemoryStore(Path(d) / "one.db", embedder=emb)
        try:
            ids = {f["id"]: s.store(f["fact"], "semantic").id for f in facts}
            text = {ids[f["id"]]: f["fact"] for f in facts}
            cpu = 0.0
            out = []
            for w in writes:
                own = ids[w["updates"]] if w["updates"] else None
                found = True
                if own is not None:  # (outside the timed store: the candidates the write will compare)
                    near = {i for i, _ in s._nearest(emb.embed([w["write"]])[0], supersession.CANDIDATES)}
                    found = own in near or own in set(supersession.lexical_candidates(s.conn, w["write"]))
                t0 = time.process_time()
                res = s.store(w["write"], "semantic")
                cpu += time.process_time() - t0
                text[res.id] = w["write"]
                gone = [i for i in res.supersedes or [] if i != own] + (
                    [res.superseded_by] if res.superseded_by and res.superseded_by != own else [])
                flags = [i for i in res.may_update or [] if i != own]
                why = dict(s.conn.execute("SELECT CASE WHEN memory_a = ? THEN memory_b ELSE memory_a END, reason "
                                          "FROM contradictions WHERE ? IN (memory_a, memory_b)", (res.id, res.id)))
                out.append({"w": w, "candidate": found, "superseded": own is not None and (own in (res.supersedes or [])
                                                                       or res.superseded_by == own),
                            "flagged": own is not None and own in (res.may_update or []),
                            "wrong": [f"{text.get(i, i)!r} ({why.get(i)})" for i in gone],
                            "wrong_flags": [repr(text.get(i, i)) for i in flags]})
            print(f"  {path.name}: {len(facts)} facts, {len(writes)} writes, CPU {1000 * cpu / len(writes):.1f} ms "
                  f"per write (load {os.getloadavg()[0]:.1f})", flush=True)
        finally:
            s.close()
    ups = [o for o in out if o["w"]["updates"]]
    none = [o for o in out if not o["w"]["updates"]]
    print(f"\n| {path.name} (one store) | count |\n|---|---|")
    print(f"| updates superseded | {sum(o['superseded'] for o in ups)}/{len(ups)} |")
    print(f"| updates flagged may_update | {sum(o['flagged'] for o in ups)}/{len(ups)} |")
    print(f"| writes retiring a fact not theirs | {sum(bool(o['wrong']) for o in out)}/{len(out)} "
          f"({sum(len(o['wrong']) for o in out)} facts) |")
    print(f"| of which writes with no older fact | {sum(bool(o['wrong']) for o in none)}/{len(none)} |")
    print(f"| writes flagging a fact not theirs | {sum(bool(o['wrong_flags']) for o in out)}/{len(out)} |")
    print(f"| updates whose older is no candidate (10 nearest + word candidates) | "
          f"{sum(not o['candidate'] for o in ups)}/{len(ups)} |")
    for o in out:
        if o["wrong"]:
            print(f"  WRONG {o['w']['write']!r} retired {'; '.join(o['wrong'])}")
    if show:
        for o in out:
            if o["wrong_flags"]:
                print(f"  flag {o['w']['write']!r} flagged {'; '.join(o['wrong_flags'])}")
        for o in ups:
            if not o["superseded"]:
                print(f"  update {'flagged' if o['flagged'] else 'missed'}: {o['w']['write']!r} ({o['w']['updates']})"
                      + ("" if o["candidate"] else ", not a candidate"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", help="a chat-heavy store (copied, never written); without it the empty store only")
    ap.add_argument("--files", nargs="*", default=FILES)
    ap.add_argument("--heldout", help="one agent's store of facts and newer writes (see the module docstring)")
    ap.add_argument("--show", action="store_true")
    a = ap.parse_args()
    emb = OnnxEmbedder(cache_dir=Path.home() / ".cache" / "mem")
    if a.heldout:
        if not Path(a.heldout).is_file():
            sys.exit(f"fact_crowded: no file at {a.heldout}")
        heldout(Path(a.heldout), emb, a.show)
        return
    if a.store and not Path(a.store).is_file():
        sys.exit(f"fact_crowded: no store at {a.store}")
    rows = pairs(a.files)
    with tempfile.TemporaryDirectory(prefix="fact-crowded-") as d:
        print(f"{len(rows)} pairs of {', '.join(a.files)}", flush=True)
        empty = run(Path(d) / "empty.db", rows, emb)
        if not a.store:
            table(rows, empty, empty)
            if a.show:
                for r, e in zip(rows, empty):
                    for w in e["why"]:
                        print(f"  {r['b']!r} also retired {w}")
            return
        chat_db = Path(d) / "chat.db"
        src = sqlite3.connect(f"file:{a.store}?mode=ro", uri=True)
        dst = sqlite3.connect(chat_db)
        src.backup(dst)
        src.close()
        dst.close()
        chat = run(chat_db, rows, emb)
    table(rows, empty, chat)
    if a.show:
        for r, e, c in zip(rows, empty, chat):
            if (e["superseded"], e["flagged"]) != (c["superseded"], c["flagged"]):
                def say(o: dict[str, Any]) -> str:
                    return "superseded" if o["superseded"] else "flagged" if o["flagged"] else "kept"
                print(f"  {'update' if r.get('label') else 'look-alike'}: empty {say(e)}, chat {say(c)} "
                      f"(chat candidate: vector {c['near']}, words {c['lex']}): {r['a']!r} / {r['b']!r}")
        for r, e, c in zip(rows, empty, chat):
            if e["others"] != c["others"]:
                print(f"  {r['b']!r} also retired: empty {e['others']}, chat {c['others']}")


if __name__ == "__main__":
    main()
