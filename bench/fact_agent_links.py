"""Links an agent's own store makes between its notes (facts42): the lead's agent probes' notes stored through
``MemoryStore.store`` as ``bench/recall_notes.py`` stores them (``--at`` the note's day, source "agent"), and every
``supersedes`` / ``may_update`` answer scored against the questions' ``outdated`` -> ``evidence`` notes.

    .venv/bin/python bench/fact_agent_links.py                 # lead_probes19-23 agent*/ (~1 min)
    .venv/bin/python bench/fact_agent_links.py --show          # and every link, right or wrong

A change is a pair (outdated note, evidence note) of one question (the evidence written later). A link is right when
it joins the two notes of a change (either way round), wrong otherwise. Printed per set: changes, changes retired,
changes flagged, wrong retirements, wrong flags.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.recall_notes import build, load_notes, load_questions, users_of  # noqa: E402

SETS = [ROOT / "bench" / "data" / f"lead_probes{i}" / f"agent{i + 11}" for i in range(19, 24)]


def changes(data: Path) -> set[tuple[str, str]]:
    """The (outdated, evidence) note pairs of the set's questions, the evidence written after the outdated."""
    out: set[tuple[str, str]] = set()
    for q in load_questions(data):
        for old in q.get("outdated") or []:
            for new in q.get("evidence") or []:
                out.add((old, new))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="*", help="agent folders (default: lead_probes19-23 agent*)")
    ap.add_argument("--show", action="store_true")
    a = ap.parse_args()
    total = [0, 0, 0, 0, 0]
    print("| set | changes | retired | flagged | wrong retirements | wrong flags |\n|---|---|---|---|---|---|")
    for data in [Path(p) for p in a.sets] if a.sets else SETS:
        truth = changes(data)
        pair = {frozenset(c) for c in truth}
        text = {n["n"]: n["text"] for u in users_of(data) for n in load_notes(u, data)}
        got = {"superseded": set(), "may_update": set()}
        with tempfile.TemporaryDirectory(prefix="agent-links-") as d:
            for user in users_of(data):
                store, _, answers = build(user, Path(d), False, data)
                store.close()
                for kind in got:
                    got[kind] |= {(old, new) for old, new in answers[kind].items()}
        right = {k: {p for p in v if frozenset(p) in pair} for k, v in got.items()}
        wrong = {k: v - right[k] for k, v in got.items()}
        row = [len(truth), len({c for c in truth if frozenset(c) in {frozenset(p) for p in right["superseded"]}}),
               len({c for c in truth if frozenset(c) in {frozenset(p) for p in right["may_update"]}}),
               len(wrong["superseded"]), len(wrong["may_update"])]
        total = [x + y for x, y in zip(total, row)]
        print(f"| {data.parent.name}/{data.name} | " + " | ".join(map(str, row)) + " |", flush=True)
        if a.show:
            for kind in got:
                for old, new in sorted(got[kind]):
                    ok = "RIGHT" if frozenset((old, new)) in pair else "WRONG"
                    print(f"  {ok} {kind}: {text.get(old, old)!r} -> {text.get(new, new)!r}")
            for old, new in sorted(truth):
                if not any(frozenset((old, new)) == frozenset(p) for v in got.values() for p in v):
                    print(f"  MISSED: {text.get(old, old)!r} -> {text.get(new, new)!r}")
    print("| **all** | " + " | ".join(map(str, total)) + " |")


if __name__ == "__main__":
    main()
