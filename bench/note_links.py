"""Every supersedes / may_update link the store makes over the agent-note sets (facts39).

Each set's notes are stored one user at a time exactly as ``bench/recall_notes.py`` does (supersession on), and
every link the store answers is printed: the older note, the newer note, and a label —
``ok`` when a question lists the older as ``outdated`` and the newer as evidence, ``WRONG`` when the pair is in
``bench/data/note_links_judged.jsonl`` judged wrong (two different things, not one fact changed), ``right`` when
judged right there, ``?`` when neither says. Summary: links, judged wrong, unjudged, per kind.

    .venv/bin/python bench/note_links.py                 # all sets, fresh stores in a tmp dir
    .venv/bin/python bench/note_links.py --only recall_heldout39
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.recall_notes import build, load_notes, users_of  # noqa: E402

SETS = ["recall_heldout29", "recall_heldout29/after", "recall_heldout32", "recall_heldout34", "recall_heldout36",
        "recall_heldout37", "recall_heldout38", "recall_heldout39", "lead_probes19/agent30", "lead_probes20/agent31"]
JUDGED = REPO / "bench" / "data" / "note_links_judged.jsonl"


def judged() -> dict[tuple[str, str, str], str]:
    """(set, older n, newer n) -> "right" / "wrong" from the judged file."""
    out: dict[tuple[str, str, str], str] = {}
    if JUDGED.exists():
        for line in JUDGED.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out[(r["set"], r["older"], r["newer"])] = r["verdict"]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=None, help="one set, e.g. recall_heldout39")
    ap.add_argument("--json", default=None, help="write every link as JSON lines here")
    args = ap.parse_args()
    verdicts = judged()
    rows: list[dict[str, Any]] = []
    cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name in SETS:
            if args.only and name != args.only:
                continue
            data = REPO / "bench" / "data" / name
            qs = [json.loads(x) for x in (data / "questions.jsonl").read_text(encoding="utf-8").splitlines() if x]
            known = {(o, e) for q in qs for o in q.get("outdated") or [] for e in q.get("evidence") or []}
            for user in users_of(data):
                text = {n["n"]: n["text"] for n in load_notes(user, data)}
                d = Path(tmp) / name.replace("/", "_")
                d.mkdir(exist_ok=True)
                t0 = time.process_time()
                store, _, answers = build(user, d, False, data)
                cpu += time.process_time() - t0
                store.close()
                for kind in ("superseded", "may_update"):
                    for old, new in sorted(answers[kind].items()):
                        label = "ok" if (old, new) in known else {"wrong": "WRONG", "right": "right"}.get(
                            verdicts.get((name, old, new), ""), "?")
                        rows.append({"set": name, "user": user, "kind": kind, "older": old, "newer": new,
                                     "label": label, "older_text": text.get(old, ""), "newer_text": text.get(new, "")})
    for r in rows:
        print(f"{r['label']:5} {r['kind']:10} {r['set']}/{r['user']} {r['older']} -> {r['newer']}\n"
              f"        old: {r['older_text']}\n        new: {r['newer_text']}")
    for kind in ("superseded", "may_update"):
        sub = [r for r in rows if r["kind"] == kind]
        print(f"{kind}: {len(sub)} links; ok {sum(r['label'] == 'ok' for r in sub)}, right "
              f"{sum(r['label'] == 'right' for r in sub)}, WRONG {sum(r['label'] == 'WRONG' for r in sub)}, "
              f"unjudged {sum(r['label'] == '?' for r in sub)}")
    print(f"CPU storing all notes: {cpu:.1f} s")
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
