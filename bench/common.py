"""Shared pieces of the benchmarks: LoCoMo loading, store building, scoring, timing.

Tuning scripts import this module instead of copying code::

    from bench.common import load_locomo, build_stores, evaluate, engine_recall
    convs, norm = load_locomo(path)
    stores = build_stores(convs, Path("/tmp/locomo-stores"), reuse=True)
    questions = [q for c in convs for q in c.questions if q.category in (1, 2, 3, 4)]
    print(evaluate(stores, questions, engine_recall("hybrid"))["overall"])

``evaluate`` only needs a ``recall_fn(store, question_text, k) -> list[ref]``, so a
tuning script can monkeypatch the fusion constants of ``memory_core`` (or pass its
own retriever) and score it on exactly the same questions; ``leave_one_out`` picks
the best of several candidates on four conversations and scores it on the fifth.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # the bench scripts run as `python bench/x.py` from the repo
    sys.path.insert(0, str(REPO))

import memory_core  # noqa: E402
from memory_core import MemoryStore, NewMemory  # noqa: E402

DEFAULT_LOCOMO = REPO.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED_CATEGORIES = (1, 2, 3, 4)
K_EVAL = 10  # every metric is computed on the top 10

# Session dates look like "1:56 pm on 8 May, 2023"; other LoCoMo releases drop the comma,
# abbreviate the month or leave out "on". Tried in order.
_DATE_FORMATS = (
    "%I:%M %p on %d %B, %Y",
    "%I:%M %p on %d %B %Y",
    "%I:%M %p on %d %b, %Y",
    "%I:%M %p on %d %b %Y",
    "%I:%M %p, %d %B, %Y",
    "%I:%M %p %d %B, %Y",
    "%I:%M %p on %B %d, %Y",
    "%d %B, %Y",
    "%d %B %Y",
)


def log(msg: str) -> None:
    """Progress and diagnostics go to stderr; stdout is for results."""
    print(msg, file=sys.stderr, flush=True)


def parse_session_date(text: str) -> datetime:
    """Parse a LoCoMo ``session_N_date_time`` value (raises ValueError if no format fits)."""
    s = " ".join(text.replace("\u202f", " ").split())
    s = re.sub(r"(?i)\b(a\.?m\.?|p\.?m\.?)", lambda m: m.group(1).replace(".", "").upper(), s)
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(s, fmt)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo session date {text!r}")


# --------------------------------------------------------------------------- data

@dataclass
class Turn:
    """One dialog turn, already formatted as the memory we store."""

    dia_id: str
    speaker: str
    text: str
    session_date: str
    event_at: datetime
    position: int
    blip_caption: str | None = None

    @property
    def content(self) -> str:
        body = f"[{self.session_date}] {self.speaker}: {self.text}"
        if self.blip_caption:
            body += f" [shared image: {self.blip_caption}]"
        return body


@dataclass
class Question:
    """A QA item with its evidence normalised to existing ``dia_id``s."""

    sample_id: str
    index: int
    question: str
    category: int
    evidence: list[str]
    raw_evidence: list[str]
    answer: str | None = None


@dataclass
class Conversation:
    """One LoCoMo conversation (``sample_id``): its turns in order and its questions."""

    sample_id: str
    turns: list[Turn]
    questions: list[Question] = field(default_factory=list)


@dataclass
class EvidenceStats:
    """What evidence normalisation had to do (printed so nobody trusts the raw file blindly)."""

    entries: int = 0
    kept_as_is: int = 0
    normalised: int = 0  # split / reformatted into a valid id
    dropped: int = 0  # unparseable or pointing to a turn that does not exist
    questions_without_evidence: dict[int, int] = field(default_factory=dict)  # by category
    examples: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lost = ", ".join(f"cat {c}: {n}" for c, n in sorted(self.questions_without_evidence.items())) or "none"
        return (f"evidence entries: {self.entries} — {self.kept_as_is} as-is, {self.normalised} normalised, "
                f"{self.dropped} dropped; questions left without evidence (skipped): {lost}")


_EVID_RE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def normalise_evidence(raw: Iterable[str], valid: set[str], stats: EvidenceStats) -> list[str]:
    """Clean one question's evidence list.

    ``'D8:6; D9:17'`` → two ids, ``'D:11:26'`` → ``D11:26``, ``'D30:05'`` → ``D30:5``;
    ids of turns that do not exist (and fragments like ``'D'``) are dropped.
    """
    out: list[str] = []
    for entry in raw:
        stats.entries += 1
        entry = str(entry)
        parts = [p for p in re.split(r"[;,\s]+(?=D)", entry.strip()) if p.strip()]
        found: list[str] = []
        for p in parts:
            m = _EVID_RE.fullmatch(p.strip())
            if m:
                found.append(f"D{int(m.group(1))}:{int(m.group(2))}")
        good = [f for f in found if f in valid]
        if len(good) == 1 and good[0] == entry:
            stats.kept_as_is += 1
        elif good:
            stats.normalised += 1
            if len(found) > len(good):
                stats.dropped += 1
            if len(stats.examples) < 12:
                stats.examples.append(f"{entry!r} -> {good}")
        else:
            stats.dropped += 1
            if len(stats.examples) < 12:
                stats.examples.append(f"{entry!r} -> dropped")
        for g in good:
            if g not in out:
                out.append(g)
    return out


def load_locomo(path: Path) -> tuple[list[Conversation], EvidenceStats]:
    """Read a LoCoMo JSON file into conversations with normalised evidence."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    stats = EvidenceStats()
    convs: list[Conversation] = []
    for sample in data:
        sid = str(sample["sample_id"])
        conv = sample["conversation"]
        sessions = sorted(
            (int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)) and isinstance(conv[k], list)),
        )
        turns: list[Turn] = []
        for n in sessions:
            date_str = conv.get(f"session_{n}_date_time") or ""
            when = parse_session_date(date_str)
            for t in conv[f"session_{n}"]:
                turns.append(Turn(
                    dia_id=str(t["dia_id"]).strip(), speaker=t["speaker"], text=t.get("text", ""),
                    session_date=date_str, event_at=when, position=len(turns),
                    blip_caption=t.get("blip_caption") or None,
                ))
        valid = {t.dia_id for t in turns}
        c = Conversation(sid, turns)
        for i, qa in enumerate(sample.get("qa", [])):
            cat = int(qa["category"])
            raw = list(qa.get("evidence") or [])
            ev = normalise_evidence(raw, valid, stats)
            if not ev:
                stats.questions_without_evidence[cat] = stats.questions_without_evidence.get(cat, 0) + 1
            answer = qa.get("answer", qa.get("adversarial_answer"))
            c.questions.append(Question(sid, i, qa["question"], cat, ev, raw, None if answer is None else str(answer)))
        convs.append(c)
    return convs, stats


# --------------------------------------------------------------------------- stores

class CachingEmbedder:
    """Wraps an embedder with an on-disk text → vector cache (one .npz per store).

    Re-embedding 3000 turns costs ~15 s per conversation; with the cache a store whose
    write path changed is rebuilt in about a second. Queries are not cached (their
    embedding time belongs in the latency numbers) — only ``embed`` calls made while
    building go through the cache, see :func:`build_store`.
    """

    def __init__(self, inner: Any, cache_path: Path) -> None:
        import numpy as np

        self.inner = inner
        self.model_id = inner.model_id
        self.dims = inner.dims
        self.path = cache_path
        self.cache: dict[str, Any] = {}
        self.misses = 0
        if cache_path.exists():
            z = np.load(cache_path, allow_pickle=False)
            if str(z["model_id"]) == self.model_id:
                self.cache = dict(zip((str(k) for k in z["keys"]), z["vecs"]))

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()

    def __getattr__(self, name: str) -> Any:
        """What the wrapper does not define is the inner embedder's (its tokenizer's vocabulary, recall reads)."""
        if name == "inner":  # (unpickling: before __init__ set it)
            raise AttributeError(name)
        return getattr(self.inner, name)

    def embed(self, texts: list[str], batch_size: int = 32) -> Any:
        import numpy as np

        keys = [self._key(t) for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self.cache]
        if todo:
            self.misses += len(todo)
            vecs = self.inner.embed([texts[i] for i in todo])
            for i, v in zip(todo, vecs):
                self.cache[keys[i]] = np.asarray(v, dtype=np.float32)
        return np.stack([self.cache[k] for k in keys]) if keys else np.zeros((0, self.dims), np.float32)

    def save(self) -> None:
        import numpy as np

        if not self.cache:
            return
        keys = list(self.cache)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), vecs=np.stack([self.cache[k] for k in keys]), model_id=self.model_id)
        os.replace(tmp, self.path)


def write_path_fingerprint() -> str:
    """Hash of the engine code that decides what a stored row looks like.

    A reused store is only valid if the write path (row values, date indexing,
    vector writes) is the one that built it; otherwise it is rebuilt from cached vectors.
    """
    from memengine import timeparse

    parts = [inspect.getsource(MemoryStore._row_values), inspect.getsource(MemoryStore._insert),
             inspect.getsource(MemoryStore._write_vector)]
    if hasattr(timeparse, "index_dates"):
        parts.append(inspect.getsource(timeparse.index_dates))
    parts.append(Path(memory_core.SCHEMA_PATH).read_text(encoding="utf-8"))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def conversation_items(conv: Conversation) -> list[NewMemory]:
    """One episodic memory per turn, in order, with ref ``<sample_id>/<dia_id>``."""
    return [
        NewMemory(content=t.content, memory_type="episodic", source="locomo", ref=f"{conv.sample_id}/{t.dia_id}",
                  event_at=t.event_at, author=t.speaker, thread=conv.sample_id, position=t.position)
        for t in conv.turns
    ]


def _remove_db(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()


def build_store(conv: Conversation, directory: Path, embedder: Any, reuse: bool = False) -> MemoryStore:
    """Open (``reuse``) or (re)build the store of one conversation in ``directory``.

    Store files are named ``<sample_id>.<model_id>.db``; vectors computed for them are
    cached next to them in ``.vectors.npz`` so rebuilding never re-embeds unchanged text.
    """
    directory.mkdir(parents=True, exist_ok=True)
    tag = re.sub(r"[^\w.-]+", "_", embedder.model_id)
    db = directory / f"{conv.sample_id}.{tag}.db"
    side = directory / f"{conv.sample_id}.{tag}.json"
    fp = write_path_fingerprint()
    expect = {"turns": len(conv.turns), "model_id": embedder.model_id, "write_path": fp,
              "content_sha": hashlib.sha1("\n".join(t.content for t in conv.turns).encode()).hexdigest()}
    if reuse and db.exists() and side.exists():
        try:
            got = json.loads(side.read_text())
        except json.JSONDecodeError:
            got = {}
        if got == expect:
            store = MemoryStore(db, embedder=embedder)
            if store.meta("embedding_model") == embedder.model_id:
                return store
            store.close()
        log(f"  {conv.sample_id}: stored file is stale ({'write path changed' if got.get('write_path') != fp else 'mismatch'}), rebuilding")
    _remove_db(db)
    side.unlink(missing_ok=True)
    cacher = CachingEmbedder(embedder, directory / f"{conv.sample_id}.{tag}.vectors.npz")
    t0 = time.perf_counter()
    store = MemoryStore(db, embedder=cacher)
    stats = store.store_many(conversation_items(conv), batch_size=512)
    cacher.save()
    store.close()
    side.write_text(json.dumps(expect))
    log(f"  {conv.sample_id}: {stats.added} memories in {time.perf_counter() - t0:.1f} s "
        f"({cacher.misses} embedded, {len(conv.turns) - cacher.misses} from cache)")
    return MemoryStore(db, embedder=embedder)


def build_stores(convs: Sequence[Conversation], directory: Path, embedder: Any | None = None,
                 reuse: bool = False) -> dict[str, MemoryStore]:
    """``{sample_id: MemoryStore}``, one file per conversation, sharing one embedder."""
    if embedder is None:
        from embedder import get_embedder

        embedder = get_embedder()
    return {c.sample_id: build_store(c, directory, embedder, reuse) for c in convs}


# --------------------------------------------------------------------------- scoring

RecallFn = Callable[[MemoryStore, str, int], list[str]]


def engine_recall(strategy: str, **kwargs: Any) -> RecallFn:
    """A ``recall_fn`` over the engine: refs of ``store.recall(q, k, strategy, touch=False)``."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        res = store.recall(query, k=k, strategy=strategy, touch=False, **kwargs)
        return [m.ref or "" for m in res.results]

    return fn


def score_ranking(ranked: Sequence[str], evidence: Sequence[str]) -> dict[str, float]:
    """Per-question metrics from ranked dia_ids and the evidence set."""
    ev = set(evidence)
    top5, top10 = set(ranked[:5]), set(ranked[:K_EVAL])
    rr = 0.0
    for i, r in enumerate(ranked[:K_EVAL]):
        if r in ev:
            rr = 1.0 / (i + 1)
            break
    return {
        "recall@5": len(ev & top5) / len(ev),
        "recall@10": len(ev & top10) / len(ev),
        "all@10": float(ev <= top10),
        "mrr": rr,
    }


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100); 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    idx = min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))
    return s[idx]


def _aggregate(rows: list[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {"n": 0}
    keys = ("recall@5", "recall@10", "all@10", "mrr")
    return {"n": len(rows), **{k: round(statistics.fmean(r[k] for r in rows), 4) for k in keys}}


def evaluate(stores: dict[str, MemoryStore], questions: Sequence[Question], recall_fn: RecallFn,
             k: int = K_EVAL, per_question: bool = False) -> dict[str, Any]:
    """Score ``recall_fn`` on ``questions`` (each answered from its own conversation's store).

    Returns ``{"by_category": {cat: metrics}, "overall": metrics over categories 1-4,
    "latency_ms": {"p50", "p95", "mean"}, "skipped_no_evidence": n}``; metrics are
    recall@5, recall@10, all@10 (all evidence in the top 10) and MRR of the first hit
    in the top 10. Category 5 is in ``by_category`` but never in ``overall``.
    """
    by_cat: dict[int, list[dict[str, float]]] = {}
    lat: list[float] = []
    details: list[dict[str, Any]] = []
    skipped = 0
    for q in questions:
        if not q.evidence:
            skipped += 1
            continue
        store = stores[q.sample_id]
        t0 = time.perf_counter()
        refs = recall_fn(store, q.question, k)
        lat.append((time.perf_counter() - t0) * 1000)
        ranked = [r.split("/", 1)[1] if "/" in r else r for r in refs]
        s = score_ranking(ranked, q.evidence)
        by_cat.setdefault(q.category, []).append(s)
        if per_question:
            details.append({"sample_id": q.sample_id, "index": q.index, "category": q.category,
                            "question": q.question, "evidence": q.evidence, "top": ranked[:k], **s})
    overall = [s for c in SCORED_CATEGORIES for s in by_cat.get(c, [])]
    out: dict[str, Any] = {
        "by_category": {c: _aggregate(by_cat[c]) for c in sorted(by_cat)},
        "overall": _aggregate(overall),
        "latency_ms": {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2),
                       "mean": round(statistics.fmean(lat), 2) if lat else 0.0},
        "skipped_no_evidence": skipped,
    }
    if per_question:
        out["questions"] = details
    return out


def leave_one_out(stores: dict[str, MemoryStore], questions: Sequence[Question],
                  candidates: dict[str, RecallFn], metric: str = "recall@10") -> dict[str, Any]:
    """Leave-one-conversation-out selection among ``candidates`` (name → recall_fn).

    For each conversation, the candidate with the best ``metric`` on the *other*
    conversations is scored on the held-out one; the mean of those held-out scores
    (weighted by questions) is an honest estimate of the tuned setting. Every
    candidate is evaluated once per conversation, then folds are combined.
    """
    qs = [q for q in questions if q.category in SCORED_CATEGORIES and q.evidence]
    sids = sorted({q.sample_id for q in qs})
    per: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in candidates}
    for name, fn in candidates.items():
        for sid in sids:
            per[name][sid] = evaluate(stores, [q for q in qs if q.sample_id == sid], fn)["overall"]

    def pooled(name: str, keep: Iterable[str]) -> float:
        rows = [per[name][s] for s in keep if per[name][s].get("n")]
        n = sum(r["n"] for r in rows)
        return sum(r[metric] * r["n"] for r in rows) / n if n else 0.0

    folds = []
    for held in sids:
        train = [s for s in sids if s != held]
        best = max(candidates, key=lambda nm: pooled(nm, train))
        folds.append({"held_out": held, "chosen": best, "train": round(pooled(best, train), 4),
                      "test": round(per[best][held][metric], 4), "n": per[best][held]["n"]})
    n = sum(f["n"] for f in folds)
    return {"metric": metric, "folds": folds,
            "loo_estimate": round(sum(f["test"] * f["n"] for f in folds) / n, 4) if n else 0.0,
            "in_sample": {nm: round(pooled(nm, sids), 4) for nm in candidates}}


# --------------------------------------------------------------------------- tables

def md_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(f"{x:.3f}" if isinstance(x, float) else str(x) for x in r) + " |")
    return "\n".join(lines)


def emit_json(result: Any, path: str | None) -> None:
    """Print a bench's result as indented JSON, and write the same text to ``path`` if given."""
    text = json.dumps(result, indent=2)
    print(text)
    if path:
        Path(path).write_text(text, encoding="utf-8")
