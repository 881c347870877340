"""(brief38) Would a learned ranker choose better topic headings than today's rules? Leave-one-SET-out.

Reads the briefs and stored topics ``bench/brief_quality.py --dump DIR`` wrote for each held-out set (one dump
directory per held-out round: ``DUMPS/hN/<set>.after.md`` and ``.after.topics.json``), makes every candidate heading
of each shown topic with memengine/topic_rank.py (today's runs, runs said once, one-word runs widened to their noun
phrases) and its word-free features, and labels a candidate right when it is one of the set's expected headings
(``.expect`` kind ``goodname``; a set with none: its ``topic`` alternatives), compared as brief_quality compares them
(lower case, spaces folded). A conditional logit (numpy, L2) is fitted on every round but one and picks the headings
of the round left out (the best candidate not already given to an earlier topic of the same brief).

Per round: topics shown, those whose heading today is an expected one, those the learned pick's is, the ceiling (a
topic some candidate of which is expected), and ``goodname`` lines held by a shown heading (brief_quality's "good odd
names held", shown names only) today vs learned.

    python bench/brief_quality.py --no-shared --split heldout --data bench/data/brief_heldoutN --dump DUMPS/hN
    python bench/brief_headrank.py --dumps DUMPS [--rounds 5-30] [--lam 0.01] [--show]
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memengine import summarize, topic_names, topic_rank  # noqa: E402
from memengine.brief_text import WORD  # noqa: E402

DATA = ROOT / "bench" / "data"
_HEAD = re.compile(r"^### T(\d+)(?:\.\d+)? · (.+?) \(\d+ memor", re.M)
_PEOPLE = re.compile(r"^- ([^:]{1,60}): (?:wrote|named|talked)", re.M)
_AUTHOR = re.compile(r"^([^\n:]{1,40}):\s", re.M)


def norm(s: str) -> str:
    """As brief_quality compares a name with an expected one."""
    return " ".join(s.lower().split())


def read_expect(path: Path) -> list[tuple[str, list[str]]]:
    """(kind, alternatives) of the ``goodname`` / ``topic`` lines of a ``.expect`` file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            parts = [p.strip() for p in line.split("|", 2)]
            if len(parts) == 3 and parts[0] in ("goodname", "topic"):
                out.append((parts[0], [a.strip() for a in parts[2].split(" || ")]))
    return out


def round_dir(n: int) -> Path:
    return DATA / ("brief_heldout" if n == 1 else f"brief_heldout{n}")


def load_round(n: int, dumps: Path) -> list[dict[str, Any]]:
    """Every set of round ``n``: its shown topics, each with its candidates (features) and labels."""
    out = []
    ddir = dumps / ("h" if n == 1 else f"h{n}")
    for exp in sorted(round_dir(n).glob("*.expect")):
        name = exp.stem
        md, tj = ddir / f"{name}.after.md", ddir / f"{name}.after.topics.json"
        if not md.exists() or not tj.exists():
            continue
        lines = read_expect(exp)
        good = [alts for k, alts in lines if k == "goodname"] or [alts for k, alts in lines if k == "topic"]
        if not good:
            continue
        got = load_set(name, md, tj)
        alts = {norm(a) for g in good for a in g}
        for t in got["topics"]:
            t["y"] = [norm(c[0]) in alts for c in t["cands"]]
        got.update(round=n, good=good)
        out.append(got)
    return out


def load_set(name: str, md: Path, tj: Path, decided: bool | None = None) -> dict[str, Any]:
    """A dumped brief's shown topics (``md``, its stored topics ``tj``), each with the candidates topic_rank makes
    (``decided``: its switch of the deciding lines' head phrases) and their features; no labels yet."""
    text = md.read_text(encoding="utf-8")
    dump = json.loads(tj.read_text(encoding="utf-8"))
    members: dict[str, list[str]] = dump["members"]
    shown: dict[str, str] = {}
    for m in _HEAD.finditer(text):
        shown.setdefault(m.group(1), m.group(2))
    every = [t for ts in members.values() for t in ts]
    people = {p.lower() for p in _PEOPLE.findall(text)} | {a.lower() for t in every for a in _AUTHOR.findall(t)}
    exclude = people | {w for p in people for w in p.split()}
    word_df: dict[str, int] = {}
    for t in every:
        for w in {topic_names.fold(w) for w in WORD.findall(t)}:
            word_df[w] = word_df.get(w, 0) + 1
    rarity = topic_names.idf(lambda w, df=word_df: df.get(w, 0), len(every))
    saying = topic_names.groups_saying(members.values())
    language = summarize.detect_language(every[:300])
    topics = []
    for cid, name_today in shown.items():
        texts = members.get(cid, [])
        if not texts:
            continue
        stop = summarize.stopwords_for(texts[:50], language)
        cands = topic_rank.candidates(texts, stop, exclude, rarity, word_df, len(every), saying, name_today,
                                      decided=decided)
        topics.append({"cluster": cid, "today": name_today, "cands": [(c.text, c.source, c.x) for c in cands]})
    return {"set": name, "topics": topics}


def fit(topics: Sequence[dict[str, Any]], lam: float, steps: int = 400, lr: float = 0.3
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A conditional logit over each topic's candidates (the mass on its right ones), L2 ``lam``: (w, mean, scale)."""
    train = [t for t in topics if any(t["y"])]
    allx = np.array([c[2] for t in train for c in t["cands"]], dtype=float)
    mean, scale = allx.mean(0), allx.std(0)
    scale[scale < 1e-9] = 1.0
    xs = [(np.array([c[2] for c in t["cands"]], dtype=float) - mean) / scale for t in train]
    ys = [np.array(t["y"], dtype=bool) for t in train]
    w = np.zeros(allx.shape[1])
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        g = lam * w * len(xs)
        for x, y in zip(xs, ys):
            s = x @ w
            q = np.exp(s - s.max())
            q /= q.sum()
            r = np.where(y, q, 0.0)
            r /= r.sum()
            g += x.T @ (q - r)
        g /= len(xs)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w, mean, scale


def pick(sets: Sequence[dict[str, Any]], w: np.ndarray, mean: np.ndarray, scale: np.ndarray, margin: float = 0.0
         ) -> None:
    """Each shown topic's learned heading (``learned``), chosen in the brief's order, none given twice; the rules'
    heading stays unless the best scores ``margin`` above it."""
    for s in sets:
        taken: set[str] = set()
        for t in s["topics"]:
            if not t["cands"]:
                t["learned"] = t["today"]
                continue
            x = (np.array([c[2] for c in t["cands"]], dtype=float) - mean) / scale
            sc = x @ w
            order = np.argsort(-sc, kind="stable")
            got = next((t["cands"][i][0] for i in order if t["cands"][i][0].lower() not in taken), t["today"])
            own = [sc[i] for i, c in enumerate(t["cands"]) if c[0].lower() == t["today"].lower()]
            if own and t["today"].lower() not in taken and sc.max() - own[0] <= margin:
                got = t["today"]
            t["learned"] = got
            taken.add(got.lower())


def score(s: dict[str, Any], key: str) -> tuple[int, int]:
    """(topics whose ``key`` heading is expected, goodname lines held by one of them)."""
    alts = {norm(a) for g in s["good"] for a in g}
    named = sum(norm(t[key]) in alts for t in s["topics"])
    have = {norm(t[key]) for t in s["topics"]}
    held = sum(any(norm(a) in have for a in g) for g in s["good"])
    return named, held


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dumps", type=Path, required=True)
    ap.add_argument("--rounds", default="5-30", help="held-out rounds, e.g. 5-30 or 13,20,30")
    ap.add_argument("--lam", type=float, default=0.01)
    ap.add_argument("--margin", type=float, default=0.0, help="keep the rules' heading unless beaten by this much")
    ap.add_argument("--cache", type=Path, help="pickle of the candidates (made once, reused)")
    ap.add_argument("--recurring", action="store_true", help="only candidates two members say (or the rules' own)")
    ap.add_argument("--show", action="store_true", help="print each topic's heading today and learned")
    ap.add_argument("--fit-all", action="store_true", help="print the weights fitted on every round")
    args = ap.parse_args(argv)
    rounds: list[int] = []
    for part in args.rounds.split(","):
        a, _, b = part.partition("-")
        rounds += list(range(int(a), int(b or a) + 1))
    if args.cache and args.cache.exists():
        data = pickle.loads(args.cache.read_bytes())
    else:
        data = {n: load_round(n, args.dumps) for n in rounds}
        if args.cache:
            args.cache.write_bytes(pickle.dumps(data))
    data = {n: data[n] for n in rounds if data.get(n)}
    if args.recurring:  # a heading said once is a fault brief_quality counts ("single"): never offered
        once, today = topic_rank.FEATURES.index("said_once"), topic_rank.FEATURES.index("today")
        for ss in data.values():
            for s in ss:
                for t in s["topics"]:
                    keep = [i for i, c in enumerate(t["cands"]) if c[2][once] == 0 or c[2][today] == 1
                            or len(t["cands"]) == 1]
                    t["cands"] = [t["cands"][i] for i in keep]
                    t["y"] = [t["y"][i] for i in keep]
    tot = np.zeros(6, dtype=int)
    lost: list[str] = []
    print("| round | topics | expected today | learned | ceiling | goodname held today | learned | lines |")
    print("|---|---|---|---|---|---|---|---|")
    for n, sets in data.items():
        train = [t for m, ss in data.items() if m != n for s in ss for t in s["topics"]]
        w, mean, scale = fit(train, args.lam)
        pick(sets, w, mean, scale, args.margin)
        row = np.zeros(6, dtype=int)
        for s in sets:
            a, b = score(s, "today")
            c, d = score(s, "learned")
            row += [len(s["topics"]), a, c, sum(any(t["y"]) for t in s["topics"]), b, d]
            if args.show:
                for t in s["topics"]:
                    mark = "=" if t["today"] == t["learned"] else "*"
                    print(f"   {s['set']} T{t['cluster']}: {mark} «{t['today']}» → «{t['learned']}»"
                          f"{' (expected: ' + '/'.join(c[0] for c, y in zip(t['cands'], t['y']) if y)[:80] + ')' if any(t['y']) else ''}")
        n_lines = sum(len(s["good"]) for s in sets)
        if row[5] < row[4]:
            lost.append(f"{n} ({row[4]} → {row[5]})")
        print(f"| {n} | {row[0]} | {row[1]} | {row[2]} | {row[3]} | {row[4]} | {row[5]} | {n_lines} |")
        tot += row
    print(f"| all | {tot[0]} | {tot[1]} | {tot[2]} | {tot[3]} | {tot[4]} | {tot[5]} | |")
    print(f"rounds losing goodname lines: {', '.join(lost) or 'none'}")
    if args.fit_all:
        allt = [t for ss in data.values() for s in ss for t in s["topics"]]
        w, mean, scale = fit(allt, args.lam)
        for f, wi in sorted(zip(topic_rank.FEATURES, w), key=lambda p: -abs(p[1])):
            print(f"   {f:14s} {wi:+.3f}")
        print("WEIGHTS =", tuple(round(float(v), 4) for v in w))
        print("MEAN =", tuple(round(float(v), 4) for v in mean))
        print("SCALE =", tuple(round(float(v), 4) for v in scale))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
