"""Where each missed update dies (facts40): over every crowded fact set pooled, the stage of
``supersession.plan`` that lost it.

    .venv/bin/python bench/fact_stage.py                  # held-outs 1-19, facts30-34, crowded dev (~4 min)
    .venv/bin/python bench/fact_stage.py --show           # and every miss with its stage
    .venv/bin/python bench/fact_stage.py --sets tests/data/fact_crowded_heldout3.jsonl

Each set is stored as ``bench/fact_crowded.py`` stores it (the older facts first, then every write, into one
empty store, real int8 MiniLM). For each update not superseded, its older alone is handed to
``supersession.plan`` again (the same cosine, the same word-or-vector candidacy) with every stage traced:

- ``not a candidate``: the older is neither among the 10 nearest nor the word candidates;
- ``retired before``: an earlier write had already retired the older (rightly or not);
- ``near-duplicate``: the write was taken as the older said again;
- ``far (cos < 0.55)``: only the shorthand rules read a pair so far in meaning, and none did;
- ``veto: …``: a rule or the learned decision read an update and a veto (``supersession.vetoed``) stopped it;
- ``another attribute`` / ``unnamed``: read, then set aside as another attribute or role, or naming nothing
  of the older but values and frame words;
- ``flagged: …``: the pair was linked may_update (the older says more; the learned middle band);
- ``learned: …``: no rule read a change, and the learned decision said no: its veto, guard, or score
  (``p`` against the threshold the pair would need);
- ``lost among candidates``: alone, the pair is retired; with the write's other candidates it is not
  (``_one_subject``, ``_one_owner``, ``_one_switch``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from embedder import OnnxEmbedder  # noqa: E402
from memengine import fact_kind, fact_period, fact_slot, supersession  # noqa: E402
from memory_core import MemoryStore  # noqa: E402

DATA, PROBES = ROOT / "tests" / "data", ROOT / "bench" / "data"
SETS = [*(DATA / f"fact_crowded_heldout{i}.jsonl" for i in range(1, 20)),
        *(PROBES / f"lead_probes{19 + i}" / f"facts{30 + i}.jsonl" for i in range(5))]
DEV = "crowded dev"  # bench/fact_crowded.py's six labelled pair files, as one agent's store


def load(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str | None]]]:
    """(fact id, text) of the older facts and (write, the id it updates or None) of the writes."""
    olders: list[tuple[str, str]] = []
    writes: list[tuple[str, str | None]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if "fact" in r:
                olders.append((r["id"], r["fact"]))
            else:
                writes.append((r["write"], r["updates"]))
    return olders, writes


def load_dev() -> tuple[list[tuple[str, str]], list[tuple[str, str | None]]]:
    """The crowded dev pairs as one store: each distinct older once, each newer a write (label false: None)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from fact_crowded import FILES, pairs

    ids: dict[str, str] = {}
    writes: list[tuple[str, str | None]] = []
    for r in pairs(FILES):
        ids.setdefault(r["a"], f"d{len(ids)}")
        writes.append((r["b"], ids[r["a"]] if r.get("label") else None))
    return [(i, a) for a, i in ids.items()], writes


@contextmanager
def traced(log: list[tuple[str, Any]]) -> Iterator[None]:
    """Every stage function ``plan`` asks, wrapped to append (name, result) to ``log``."""
    targets = [(supersession, "rules"), (supersession, "vetoed"), (supersession, "_unnamed"),
               (supersession, "_covered"), (supersession, "_another_role"), (fact_slot, "decide"),
               (fact_kind, "another_attribute"), (fact_period, "other_subject")]
    saved = [(m, n, getattr(m, n)) for m, n in targets]

    def wrap(name: str, f: Any) -> Any:
        def inner(*a: Any, **k: Any) -> Any:
            out = f(*a, **k)
            log.append((name, out))
            return out
        return inner

    for m, n, f in saved:
        setattr(m, n, wrap(n, f))
    try:
        yield
    finally:
        for m, n, f in saved:
            setattr(m, n, f)


def learned_no(old: str, new: str, cos: float | None, s: MemoryStore) -> str:
    """Why ``fact_slot.decide`` said nothing on the pair: its veto, one-off, guard, or the score."""
    w = fact_slot._weights()
    if cos is None:
        return "learned: no cosine"
    if cos < w["min_cosine"]:
        return "learned: below its least cosine"
    v = fact_slot.veto(new)
    if v is not None:
        return f"learned veto: {v}"
    off = fact_slot._one_off(old, new)
    if off is not None:
        return f"learned one-off: {off.split(' (')[0][:40]}"
    pair = fact_slot.Pair(fact_slot._vector(old, new, cos, 0.0), None)
    g = fact_slot.guarded(pair)
    if g is not None:
        return f"learned guard: {g}"
    if fact_slot.value_as_subject(old, new):
        return "learned guard: value_as_subject"
    vecs = s.embed_or_none([fact_slot.masked(old), fact_slot.masked(new)])
    p = fact_slot.score(fact_slot.with_slot(pair, float(vecs[0] @ vecs[1])).x, w) if vecs is not None else -1.0
    return f"learned score below band (p={p:.2f} < {fact_slot.band(w):.2f})"


def stage(s: MemoryStore, old_id: int, old: str, new: str, sim: float | None, cos: float | None) -> str:
    """The stage of ``plan`` that loses the pair, replayed with the older as the only candidate."""
    log: list[tuple[str, Any]] = []
    row = (old_id, old, "2000-01-01T00:00:00", "agent")
    with traced(log):
        ds = supersession.plan(-1, new, "2100-01-01T00:00:00", [(row, sim)], new_source="agent",
                               cosines={old_id: cos} if cos is not None else {}, embed=s.embed_or_none,
                               model_id=getattr(s.embedder, "model_id", None))
    if any(not d.maybe and d.loser == old_id for d in ds):
        return "lost among candidates"
    if any(d.maybe for d in ds):
        why = ds[0].verdict.reason
        return "flagged: older says more" if "the older says more" in why else "flagged: learned band" \
            if "learned" in why else "flagged: other"
    if sim is not None and sim < supersession.MIN_COSINE:
        return "far (cos < 0.55)" if sim >= supersession.SWAP_COSINE else "far (cos < 0.35)"
    verdicts = [r for n, r in log if n in ("rules", "decide") and r is not None]
    if verdicts:
        veto = next((r for n, r in log if n == "vetoed" and r), "")
        if veto:
            return "veto: " + veto.split(" (")[0].split(":")[0][:50]
        if any(n in ("another_attribute", "_another_role", "other_subject") and r is True for n, r in log):
            return "another attribute/role"
        if any(n == "_unnamed" and r is None for n, r in log):
            return "unnamed (no shared subject)"
        return "read, dropped later"
    return learned_no(old, new, cos, s)


def run(name: str, olders: list[tuple[str, str]], writes: list[tuple[str, str | None]], emb: Any,
        wrong: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Store the set; each update write's outcome and, for a miss, its stage (``wrong``: each write retiring
    a fact not its own, appended)."""
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="fact-stage-") as d:
        s = MemoryStore(Path(d) / "one.db", embedder=emb)
        try:
            ids = {k: s.store(t, "semantic").id for k, t in olders}
            text = dict(olders)
            said = {ids[k]: t for k, t in olders}  # (store id -> text: what a wrong write retired)
            for w, up in writes:
                own = ids.get(up) if up else None
                info: dict[str, Any] = {"set": name, "write": w, "old": text.get(up) if up else None}
                if own is not None:
                    vec = emb.embed([w])[0]
                    near = dict(s._nearest(vec, supersession.CANDIDATES))
                    lex = own in set(supersession.lexical_candidates(s.conn, w))
                    live = s.conn.execute("SELECT valid_to IS NULL FROM memories WHERE id = ?", (own,)).fetchone()[0]
                    cos = float(s.cosines(vec, [own])[own])
                    info.update(near=own in near, lex=lex, live=bool(live), cos=cos)
                res = s.store(w, "semantic")
                said[res.id] = w
                gone = [i for i in res.supersedes or [] if i != own] + (
                    [res.superseded_by] if res.superseded_by and res.superseded_by != own else [])
                if gone:
                    wrong.append({"set": name, "write": w, "retired": sorted(repr(said.get(i, i)) for i in gone)})
                if own is None:
                    continue
                info["superseded"] = own in (res.supersedes or []) or res.superseded_by == own
                info["flagged"] = own in (res.may_update or [])
                if info["superseded"]:
                    info["stage"] = "superseded"
                elif not info["live"]:
                    info["stage"] = "retired before"
                elif res.deduplicated:
                    info["stage"] = "near-duplicate"
                elif not (info["near"] or info["lex"]):
                    info["stage"] = "not a candidate"
                else:
                    sim = info["cos"] if info["near"] else None
                    info["stage"] = stage(s, own, text[up], w, sim, info["cos"])  # type: ignore[index]
                out.append(info)
        finally:
            s.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", nargs="*", help="held-out files (default: held-outs 1-19, facts30-34, crowded dev)")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--json", help="write every update's outcome here")
    a = ap.parse_args()
    emb = OnnxEmbedder(cache_dir=Path.home() / ".cache" / "mem")
    sets = [(Path(p).stem, *load(Path(p))) for p in a.sets] if a.sets else \
        [(p.stem, *load(p)) for p in SETS] + [(DEV, *load_dev())]
    rows: list[dict[str, Any]] = []
    wrong: list[dict[str, Any]] = []
    for name, olders, writes in sets:
        got = run(name, olders, writes, emb, wrong)
        print(f"  {name}: {sum(r['superseded'] for r in got)}/{len(got)} superseded, "
              f"{sum(r['flagged'] for r in got)} flagged, {sum(w['set'] == name for w in wrong)} writes retiring a fact "
              "not theirs", flush=True)
        rows += got
    miss = [r for r in rows if not r["superseded"]]
    print(f"\n{len(rows)} updates, {len(rows) - len(miss)} superseded, {len(miss)} missed\n")
    for r in miss:
        if "p=" in r["stage"]:  # (bucketed: one row per score decile)
            r["stage"] = f"learned score below band (p {int(10 * float(r['stage'].split('p=')[1][:4])) / 10:.1f}-)"
    by = Counter(r["stage"] for r in miss)
    sets_of: dict[str, set[str]] = {}
    for r in miss:
        sets_of.setdefault(r["stage"], set()).add(r["set"])
    print("| stage | misses | sets |\n|---|---|---|")
    for k, n in by.most_common():
        print(f"| {k} | {n} | {len(sets_of[k])} |")
    coarse = Counter(r["stage"].split(":")[0].split(" (")[0] for r in miss)
    print("\n| coarse stage | misses |\n|---|---|")
    for k, n in coarse.most_common():
        print(f"| {k} | {n} |")
    if a.show:
        for r in sorted(miss, key=lambda r: r["stage"]):
            print(f"  [{r['stage']}] {r['set']}: {r['old']!r} -> {r['write']!r} (cos {r['cos']:.2f})")
    if a.show:
        for w in wrong:
            print(f"  WRONG {w['set']}: {w['write']!r} retired {', '.join(w['retired'])}")
    if a.json:
        Path(a.json).write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows + wrong) + "\n",
                                encoding="utf-8")


if __name__ == "__main__":
    main()
