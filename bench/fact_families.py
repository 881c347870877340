"""The two families of missed updates nothing reads yet (facts41), counted and scored over every pooled set.

    .venv/bin/python bench/fact_families.py --dump /tmp/fam.jsonl     # store every set once (~4 min), keep the pairs
    .venv/bin/python bench/fact_families.py --pairs /tmp/fam.jsonl    # count, score, leave one set out (seconds)

Each set (held-outs 1-19, the lead's facts30-34, crowded dev) is stored as ``bench/fact_crowded.py`` stores it (the
older facts first, then every write, one empty store, real int8 MiniLM). For every write, each of its candidates
(the 10 nearest memories and the word candidates, read just before the write) is kept with its cosine, whether it
is the write's own older, and whether the write retired it on the tree that dumped. Pure functions then read the
pairs again without the model:

- family (a), **the older's value named in a reason clause** (memengine/fact_reason_value.py): the newer names
  the older's value beside another value of the older's kind;
- family (b), **a new value said plainly in the older's frame** (memengine/fact_plain_value.py): the two sentences
  say one frame once values are masked, one value differs.

Printed per set and pooled: the updates each family reads that are missed now (gains), the look-alikes and other
pairs' olders it reads that are not retired now (wrong retirements it would add), and a leave-one-set-out choice of
each module's constant (the threshold chosen on the other sets, scored on the one left out) beside in-sample.
The counts are of pairs before ``supersession.plan``'s later vetoes and one-slot pruning: an upper bound on both
sides; ``bench/fact_crowded.py`` on the real store is the measure.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

DATA, PROBES = ROOT / "tests" / "data", ROOT / "bench" / "data"
SETS = [*(DATA / f"fact_crowded_heldout{i}.jsonl" for i in range(1, 21)),
        *(PROBES / f"lead_probes{19 + i}" / f"facts{30 + i}.jsonl" for i in range(6))]


def dump(out: Path, sets: list[Path]) -> None:
    """Store every set and write one line per (write, candidate) to ``out``."""
    from fact_stage import DEV, load, load_dev

    from embedder import OnnxEmbedder
    from memengine import supersession
    from memory_core import MemoryStore

    emb = OnnxEmbedder(cache_dir=Path.home() / ".cache" / "mem")
    named = [(p.stem, *load(p)) for p in sets] + ([(DEV, *load_dev())] if not sets or sets == SETS else [])
    with out.open("w", encoding="utf-8") as fh:
        for name, olders, writes in named:
            with tempfile.TemporaryDirectory(prefix="fact-fam-") as d:
                s = MemoryStore(Path(d) / "one.db", embedder=emb)
                try:
                    ids: dict[str, int] = {}
                    said: dict[int, str] = {}
                    for k, t in olders:  # (olders stored together must not retire each other: each pair kept)
                        vec = emb.embed([t])[0]
                        near = dict(s._nearest(vec, supersession.CANDIDATES))
                        cands = sorted((set(near) | set(supersession.lexical_candidates(s.conn, t))) & set(said))
                        cos = s.cosines(vec, cands) if cands else {}
                        res = s.store(t, "semantic")
                        gone = set(res.supersedes or []) | ({res.superseded_by} if res.superseded_by else set())
                        for c in cands:
                            fh.write(json.dumps({"set": name, "n": -1, "write": t, "old": said[c], "own": False,
                                                 "update": False, "older": True, "cos": round(float(cos[c]), 4),
                                                 "near": c in near, "retired": c in gone, "flagged": False},
                                                ensure_ascii=False) + "\n")
                        ids[k] = res.id
                        said[res.id] = t
                    for n, (w, up) in enumerate(writes):
                        own = ids.get(up) if up else None
                        vec = emb.embed([w])[0]
                        near = dict(s._nearest(vec, supersession.CANDIDATES))
                        lex = set(supersession.lexical_candidates(s.conn, w))
                        live = {int(r[0]) for r in s.conn.execute(
                            "SELECT id FROM memories WHERE valid_to IS NULL AND status = 'active'")}
                        cands = sorted((set(near) | lex) & live & set(said))
                        cos = s.cosines(vec, cands) if cands else {}
                        res = s.store(w, "semantic")
                        gone = set(res.supersedes or []) | ({res.superseded_by} if res.superseded_by else set())
                        flagged = set(res.may_update or [])
                        for c in cands:
                            fh.write(json.dumps({"set": name, "n": n, "write": w, "old": said[c], "own": c == own,
                                                 "update": up is not None, "cos": round(float(cos[c]), 4),
                                                 "near": c in near, "retired": c in gone, "flagged": c in flagged},
                                                ensure_ascii=False) + "\n")
                        if own is not None and own not in cands:
                            fh.write(json.dumps({"set": name, "n": n, "write": w, "old": said[own], "own": True,
                                                 "update": True, "cos": None, "near": False, "candidate": False,
                                                 "retired": own in gone, "flagged": own in flagged},
                                                ensure_ascii=False) + "\n")
                        said[res.id] = w
                finally:
                    s.close()
            print(f"  {name}: {len(writes)} writes", flush=True)


def read(path: Path) -> list[dict[str, Any]]:
    """The dumped pairs."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score(pairs: list[dict[str, Any]], fires: Callable[[dict[str, Any]], bool]) -> dict[str, dict[str, int]]:
    """Per set: updates gained (own, missed now, read) and pairs wrongly read (not own, not retired now, read)."""
    out: dict[str, dict[str, int]] = {}
    for p in pairs:
        if p.get("candidate") is False or p["retired"]:
            continue
        row = out.setdefault(p["set"], {"gain": 0, "wrong": 0})
        if fires(p):
            row["gain" if p["own"] else "wrong"] += 1
    return out


def loso(pairs: list[dict[str, Any]], make: Callable[[float], Callable[[dict[str, Any]], bool]],
         grid: list[float], cost: float = 2.0) -> tuple[float, dict[str, tuple[float, int, int]]]:
    """Leave one set out: per set, the grid value maximising gains - ``cost`` x wrongs on the other sets, scored on
    the set left out. Returns the in-sample choice and {set: (chosen, gain, wrong)}."""
    table = {g: score(pairs, make(g)) for g in grid}
    sets = sorted({p["set"] for p in pairs})

    def value(g: float, skip: str | None) -> float:
        return sum(r["gain"] - cost * r["wrong"] for s, r in table[g].items() if s != skip)

    full = max(grid, key=lambda g: (value(g, None), -grid.index(g)))
    out: dict[str, tuple[float, int, int]] = {}
    for s in sets:
        g = max(grid, key=lambda g: (value(g, s), -grid.index(g)))
        r = table[g].get(s, {"gain": 0, "wrong": 0})
        out[s] = (g, r["gain"], r["wrong"])
    return full, out


def report(pairs: list[dict[str, Any]], name: str, make: Callable[[float], Callable[[dict[str, Any]], bool]],
           grid: list[float], show: bool) -> None:
    """Print one family's in-sample and leave-one-set-out counts."""
    full, out = loso(pairs, make, grid)
    ins = score(pairs, make(full))
    print(f"\n## {name}: in-sample constant {full}")
    for g in grid:
        t = score(pairs, make(g)).values()
        print(f"  constant {g}: gain {sum(r['gain'] for r in t)}, wrong {sum(r['wrong'] for r in t)}")
    print("| set | in-sample gain | in-sample wrong | LOSO constant | LOSO gain | LOSO wrong |\n|---|---|---|---|---|---|")
    tg = tw = lg = lw = 0
    for s in sorted(out):
        r = ins.get(s, {"gain": 0, "wrong": 0})
        g, a, b = out[s]
        tg, tw, lg, lw = tg + r["gain"], tw + r["wrong"], lg + a, lw + b
        print(f"| {s} | {r['gain']} | {r['wrong']} | {g} | {a} | {b} |")
    print(f"| **all** | {tg} | {tw} | | {lg} | {lw} |")
    if show:
        f = make(full)
        for p in pairs:
            if p.get("candidate") is not False and not p["retired"] and f(p):
                print(f"  {'GAIN' if p['own'] else 'WRONG'} {p['set']}: {p['old']!r} -> {p['write']!r} ({p['cos']})")


def families(pairs: list[dict[str, Any]]) -> None:
    """How many missed updates each family reads (the older's value in the newer; frame equal once masked)."""
    from memengine import fact_plain_value, fact_reason_value

    miss = [p for p in pairs if p["own"] and not p["retired"]]
    a = sum(bool(fact_reason_value.named_old(p["old"], p["write"])) for p in miss)
    b = sum(fact_plain_value.frame_gap(p["old"], p["write"]) is not None for p in miss)
    print(f"{len(miss)} missed updates (of {sum(p['own'] for p in pairs)}); the older's value named in the newer: {a}; "
          f"one frame with one value apart: {b}")
    for label, keep in (("look-alike writes' near candidates", lambda p: not p["update"]),
                        ("update writes' other near candidates", lambda p: p["update"])):
        looks = [p for p in pairs if not p["own"] and not p["retired"] and p["near"] and keep(p)]
        a = sum(bool(fact_reason_value.named_old(p["old"], p["write"])) for p in looks)
        b = sum(fact_plain_value.frame_gap(p["old"], p["write"]) is not None for p in looks)
        print(f"{len(looks)} {label} not retired; the older's value named in the newer: {a}; "
              f"one frame with one value apart: {b}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dump", help="store every set and write the pairs here")
    ap.add_argument("--pairs", help="read the pairs dumped here")
    ap.add_argument("--sets", nargs="*", help="held-out files (default: held-outs 1-18, facts30-33, crowded dev)")
    ap.add_argument("--show", action="store_true", help="print every pair each family reads")
    a = ap.parse_args()
    if a.dump:
        dump(Path(a.dump), [Path(p) for p in a.sets] if a.sets else SETS)
        return
    if not a.pairs:
        sys.exit("fact_families: --dump FILE or --pairs FILE")
    from memengine import fact_kept, fact_plain_value, fact_reason_value, supersession

    pairs = read(Path(a.pairs))
    families(pairs)
    for p in pairs:  # (as supersession.plan hands them: what the newer says stays taken off, then the vetoes)
        p["kept"] = fact_kept.without(p["old"], p["write"])
        p["veto"] = bool(supersession.vetoed(p["old"], p["write"]))
    report(pairs, "(a) the older's value in a reason clause", lambda g: lambda p: not p["veto"] and fact_reason_value.replaced(
        p["old"], p["kept"], p["cos"], g) is not None, fact_reason_value.GRID, a.show)
    from memengine import fact_denied

    report(pairs, "(c) the older's state denied as lasting", lambda g: lambda p: not p["veto"] and fact_denied.denied(
        p["old"], p["kept"], p["cos"], g) is not None, fact_denied.GRID, a.show)
    report(pairs, "(b) a new value in the older's frame", lambda g: lambda p: not p["veto"] and fact_plain_value.restated(
        p["old"], p["kept"], p["cos"], g) is not None, fact_plain_value.GRID, a.show)


if __name__ == "__main__":
    main()
