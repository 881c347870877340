"""Recall over an agent's OWN notes (bench/data/recall_heldout29): the first hits an agent takes mid-session.

Every earlier recall held-out is chat history. This one is what SKILL.md tells an agent to do: short notes stored
one at a time with ``store`` (``--type``, ``--tag``, ``--importance``, ``--at`` the day the note was written) over
4-12 weeks, some of them updating older ones, then ``recall "..."`` later, taking the first 1-3 hits. Four users
(``maya.jsonl`` … ``hattie.jsonl``, one store each), ``questions.jsonl``: each question's ``evidence`` (the note(s)
that answer it: for a fact that changed, the CURRENT note only), ``outdated`` (the older notes it replaced) and
``decoy`` (a wrong note that holds a word of the question in another sense or of another person).

Each note goes through ``MemoryStore.store`` exactly as ``mem.py store TEXT --type T --tag … --importance I --at
DATE`` does (no ``--ref``: a ref turns supersession off), in date order, so supersession on store is active; the
store's own ``supersedes`` / ``may_update`` answers are counted. Then every question is recalled (k=10, no touch)
and scored:

* top-1 — the first hit is an evidence note; r@3, r@5 — one is in the first 3 / 5;
* current above outdated (questions with ``outdated``) — the evidence is in the top 10 and every outdated note
  there ranks below it (an outdated note the store superseded is out of default recall: below);
* decoy above (questions with ``decoy``) — a decoy ranks above the evidence in the top 10;
* CPU per question — ``time.process_time`` around the recall, on a second (warm) pass.

    .venv/bin/python bench/recall_notes.py                                  # this tree, fresh stores in a tmp dir
    .venv/bin/python bench/recall_notes.py --reuse /tmp/notes29             # keep / reuse the stores
    .venv/bin/python bench/recall_notes.py --reuse /tmp/notes29 --misses    # every question not top-1, its top 5
    .venv/bin/python bench/recall_notes.py --reuse /tmp/notes29 --config FIELD=VALUE   # a RecallConfig switch
    .venv/bin/python bench/recall_notes.py --json out.json                  # per-question rows too
    .venv/bin/python bench/recall_notes.py --data bench/data/recall_heldout29/after --reuse /tmp/notes29b

``--data``: another folder of the same layout (``after/``: two more users written after round 30's step was built,
never tuned on: Sam, whose agent stores undated notes — store order is their time — and Inês in Lisbon, in
Portuguese and English). A note's ``at`` may be null: stored with no ``--at``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DATA = REPO / "bench" / "data" / "recall_heldout29"
USERS = {"maya": "Maya, a Seattle engineer (en)", "ken": "Ken, a Leeds baker (en)",
         "lucia": "Lucía in Berlin (es/de/en)", "hattie": "Hattie, a retired teacher in Norwich (en)"}
KINDS = ("changed", "person", "other_words", "trap", "decision", "procedure", "lang", "crosslang", "plain", "past",
         "detail", "when", "current", "now", "history2", "shared", "oneword", "mention", "unchanged", "frame", "de", "es", "fr", "it", "nl",
         "pt", "sv", "pl", "tr", "id")


def load_notes(user: str, data: Path = DATA) -> list[dict[str, Any]]:
    """A user's notes in the order they were written (date, then file order; undated ones in file order)."""
    rows = [json.loads(line) for line in (data / f"{user}.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return [r for _, r in sorted(enumerate(rows), key=lambda p: (p[1]["at"] or "", p[0]))]


def users_of(data: Path) -> dict[str, str]:
    """The users of a set folder: USERS for held-out 29, else each notes file's name."""
    if data.resolve() == DATA.resolve():
        return USERS
    return {p.stem: p.stem for p in sorted(data.glob("*.jsonl")) if p.stem != "questions"}


def load_questions(data: Path = DATA) -> list[dict[str, Any]]:
    """The questions, as written (expected answers and notes fixed before any engine run)."""
    return [json.loads(line) for line in (data / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]


def build(user: str, directory: Path, reuse: bool, data: Path = DATA) -> tuple[Any, dict[int, str], dict[str, Any]]:
    """The user's store (built note by note, or reopened), its id -> note map and the store's answers."""
    from memory_core import MemoryStore

    db = directory / f"{user}.db"
    idmap_path = directory / f"{user}.ids.json"
    if reuse and db.exists() and idmap_path.exists():
        saved = json.loads(idmap_path.read_text(encoding="utf-8"))
        return MemoryStore(db), {int(k): v for k, v in saved["ids"].items()}, saved["store"]
    for p in (db, idmap_path):
        p.unlink(missing_ok=True)
    store = MemoryStore(db)
    ids: dict[int, str] = {}
    answers: dict[str, Any] = {"superseded": {}, "may_update": {}, "deduplicated": []}
    for note in load_notes(user, data):
        at = datetime.fromisoformat(note["at"]).replace(hour=9) if note["at"] else None
        res = store.store(note["text"], note.get("type", "semantic"), source="agent", tags=note.get("tags") or [],
                          importance=float(note.get("importance", 0.5)), event_at=at)
        if res.deduplicated:
            answers["deduplicated"].append(note["n"])
            continue
        ids[res.id] = note["n"]
        for old in res.supersedes or []:
            answers["superseded"][ids.get(int(old), str(old))] = note["n"]
        for old in getattr(res, "may_update", None) or []:
            answers["may_update"][ids.get(int(old), str(old))] = note["n"]
    idmap_path.write_text(json.dumps({"ids": ids, "store": answers}), encoding="utf-8")
    return store, ids, answers


def config_of(pairs: list[str]) -> Any:
    """A RecallConfig with ``FIELD=VALUE`` pairs set (Python literals, else text); None for none (round 12's
    reading of ``--config``, this tree's engine)."""
    from bench.recall_round12 import _config

    return _config(pairs)


def score_row(q: dict[str, Any], top: list[str], marked: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """One question's marks from its ranked note ids (top 10); ``marked``: the hits returned
    ``possibly_outdated`` (note -> the notes said to update it), what an agent reads in the JSON."""
    ev = set(q["evidence"])
    marked = marked or {}
    first = next((i + 1 for i, n in enumerate(top) if n in ev), None)
    row: dict[str, Any] = {"id": q["id"], "user": q["user"], "top": top, "rank": first,
                           "top1": first == 1, "r3": first is not None and first <= 3,
                           "r5": first is not None and first <= 5}
    # the first hit flagged outdated although it is the answer (the agent is told not to trust it)
    row["answer_flagged"] = first is not None and top[first - 1] in marked and "past" not in q.get("kinds", [])
    if q.get("outdated"):
        old = [i + 1 for i, n in enumerate(top) if n in set(q["outdated"])]
        row["current_above"] = first is not None and all(r > first for r in old)
        # an outdated note in the first three hits, and whether the JSON says so (possibly_outdated)
        shown = [n for n in top[:3] if n in set(q["outdated"])]
        if shown:
            row["old_shown"] = len(shown)
            row["old_flagged"] = sum(1 for n in shown if n in marked)
    if q.get("decoy"):
        dec = [i + 1 for i, n in enumerate(top) if n in set(q["decoy"])]
        row["decoy_above"] = any(r < (first or 99) for r in dec)
    if q.get("newer"):  # held-out 36: a question wanting the OLDER note (or when it changed): above the newer ones?
        new = [i + 1 for i, n in enumerate(top) if n in set(q["newer"])]
        row["wanted_above"] = first is not None and all(r > first for r in new)
    if q.get("detail"):  # a later note that only adds a detail to the answer: it must not go above it
        det = [i + 1 for i, n in enumerate(top) if n in set(q["detail"])]
        row["detail_above"] = any(r < (first or 99) for r in det)
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """top-1, r@3, r@5, current above outdated (k/n), decoy above (k/n) of some rows."""
    n = len(rows) or 1
    cur = [r["current_above"] for r in rows if "current_above" in r]
    dec = [r["decoy_above"] for r in rows if "decoy_above" in r]
    det = [r["detail_above"] for r in rows if "detail_above" in r]
    wan = [r["wanted_above"] for r in rows if "wanted_above" in r]
    return {"n": len(rows), "top1": sum(r["top1"] for r in rows) / n, "r3": sum(r["r3"] for r in rows) / n,
            "r5": sum(r["r5"] for r in rows) / n, "current_above": (sum(cur), len(cur)),
            "decoy_above": (sum(dec), len(dec)), "detail_above": (sum(det), len(det)),
            "wanted_above": (sum(wan), len(wan)),
            "old_flagged": (sum(r.get("old_flagged", 0) for r in rows), sum(r.get("old_shown", 0) for r in rows)),
            "answer_flagged": sum(1 for r in rows if r.get("answer_flagged"))}


def run(directory: Path, reuse: bool, config: Any, only: str | None = None,
        data: Path = DATA, history: bool = False) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Per-question rows (with warm CPU ms) and the stores' answers, per user."""
    questions = load_questions(data)
    rows: list[dict[str, Any]] = []
    stores: dict[str, Any] = {}
    for user in users_of(data):
        if only and user != only:
            continue
        store, ids, answers = build(user, directory, reuse, data)
        stores[user] = answers
        mine = [q for q in questions if q["user"] == user]
        for q in mine:  # first pass: warms the model, caches and the page cache (not timed)
            store.recall(q["question"], k=10, touch=False, config=config, history=history)
        for q in mine:
            t0 = time.process_time()
            res = store.recall(q["question"], k=10, touch=False, config=config, history=history)
            cpu = (time.process_time() - t0) * 1000
            top = [ids.get(m.id, f"#{m.id}") for m in res.results]
            marked = {ids.get(m.id, f"#{m.id}"): [ids.get(b, f"#{b}") for b in m.possibly_outdated_by or []]
                      for m in res.results if m.possibly_outdated}
            row = score_row(q, top, marked)
            row["cpu_ms"] = cpu
            # the first hit an older note the store replaced, and whether its JSON says by which (superseded_by or
            # possibly_outdated_by): an agent reading the old value must be told it is old
            if res.results:
                head = res.results[0]
                row["head_replaced"] = ids.get(head.id, "") in answers["superseded"] or \
                    ids.get(head.id, "") in answers["may_update"]
                row["head_told"] = bool(head.superseded_by or head.possibly_outdated_by)
            rows.append(row)
        store.close()
    return rows, stores


def print_report(rows: list[dict[str, Any]], stores: dict[str, Any], questions: dict[str, dict[str, Any]],
                 users: dict[str, str] = USERS) -> None:
    """The table: overall, per kind, per user; the store's supersession answers; CPU."""
    def line(label: str, sub: list[dict[str, Any]]) -> str:
        s = summarise(sub)
        cur = f"{s['current_above'][0]}/{s['current_above'][1]}" if s["current_above"][1] else "—"
        dec = f"{s['decoy_above'][0]}/{s['decoy_above'][1]}" if s["decoy_above"][1] else "—"
        wan = f"{s['wanted_above'][0]}/{s['wanted_above'][1]}" if s["wanted_above"][1] else "—"
        return f"| {label} | {s['n']} | {s['top1']:.3f} | {s['r3']:.3f} | {s['r5']:.3f} | {cur} | {dec} | {wan} |"

    print("| set | n | top-1 | r@3 | r@5 | current above outdated | decoy above | wanted above newer |")
    print("|---|---|---|---|---|---|---|---|")
    print(line("all", rows))
    for kind in KINDS:
        sub = [r for r in rows if kind in questions[r["id"]].get("kinds", [])]
        if sub:
            print(line(kind, sub))
    for user, label in users.items():
        sub = [r for r in rows if r["user"] == user]
        if sub:
            print(line(label, sub))
    outdated = [(q["id"], o) for q in questions.values() for o in q.get("outdated", []) if q["user"] in stores]
    sup = sum(1 for qid, o in outdated if o in stores[questions[qid]["user"]]["superseded"])
    may = sum(1 for qid, o in outdated if o in stores[questions[qid]["user"]]["may_update"])
    s = summarise(rows)
    if s["detail_above"][1]:
        print(f"\na note adding a detail above the note it adds to: {s['detail_above'][0]}/{s['detail_above'][1]}")
    print(f"\noutdated notes in the first 3 hits: {s['old_flagged'][1]}, returned possibly_outdated "
          f"{s['old_flagged'][0]}; first evidence hit returned possibly_outdated: {s['answer_flagged']} questions")
    print(f"outdated notes of the questions: {len(outdated)}; superseded on store {sup}, may_update {may}")
    for user, ans in stores.items():
        print(f"  {user}: superseded {ans['superseded']} may_update {ans['may_update']} dedup {ans['deduplicated']}")
    replaced = [r for r in rows if r.get("head_replaced")]
    if replaced:
        print(f"first hit a note the store replaced: {len(replaced)} questions, its JSON says by which: "
              f"{sum(1 for r in replaced if r.get('head_told'))}")
    cpu = sorted(r["cpu_ms"] for r in rows)
    if cpu:
        p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        print(f"\nwarm recall CPU per question: mean {statistics.mean(cpu):.1f} ms, median "
              f"{statistics.median(cpu):.1f} ms, p95 {p95:.1f} ms ({len(cpu)} questions)")


def main(argv: list[str] | None = None) -> int:
    """Build the four stores, recall every question, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", type=Path, help="keep the stores in DIR and reuse them when there")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE")
    ap.add_argument("--misses", action="store_true", help="print every question whose first hit is no evidence")
    ap.add_argument("--only", help="one user")
    ap.add_argument("--data", type=Path, default=DATA, help="the set's folder (default: held-out 29)")
    ap.add_argument("--json", type=Path, help="write the per-question rows here")
    ap.add_argument("--history", action="store_true", help="recall with history=True (mem.py recall --history)")
    args = ap.parse_args(argv)
    config = config_of(args.config)
    questions = {q["id"]: q for q in load_questions(args.data)}
    users = users_of(args.data)
    if args.reuse:
        args.reuse.mkdir(parents=True, exist_ok=True)
        rows, stores = run(args.reuse, True, config, args.only, args.data, args.history)
    else:
        with tempfile.TemporaryDirectory(prefix="notes29-") as tmp:
            rows, stores = run(Path(tmp), False, config, args.only, args.data, args.history)
    print(f"{args.data.name}; config {' '.join(args.config) or 'default'}{'; --history' if args.history else ''}")
    print_report(rows, stores, questions, users)
    if args.misses:
        texts = {n["n"]: n["text"] for u in users for n in load_notes(u, args.data)}
        kinds = Counter()
        for r in rows:
            if r["top1"]:
                continue
            q = questions[r["id"]]
            kinds.update(q.get("kinds", []))
            print(f"\n{r['id']} {q['question']!r} rank {r['rank']} (evidence {q['evidence']}, outdated "
                  f"{q.get('outdated', [])}, decoy {q.get('decoy', [])})")
            for i, n in enumerate(r["top"][:5], 1):
                mark = "*" if n in q["evidence"] else ("o" if n in q.get("outdated", []) + q.get("newer", []) else " ")
                print(f"   {i}{mark} {n} {texts.get(n, '?')[:110]}")
        print(f"\nmisses by kind: {dict(kinds)}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
