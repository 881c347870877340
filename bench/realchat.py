"""Real-chat retrieval benchmark: does recall find the messages a person's question needs?

The questions (bench/data/realchat_questions.jsonl, written by reading the chats; see
bench/data/README.md) ask about real exports in ../shared/data/realworld: WhatsApp chats,
a ChatGPT and a Claude export. Each export file is imported into its own store exactly as
a user would (``ingest.import_path``, the code behind ``mem.py import``: parsing, episodes,
neighbour context), then every question is asked of its file's store. Evidence is the
``ref`` the importer gives each message, so a hit is a returned memory whose ref is one of
the question's evidence refs; episode memories never count as a hit (turn-level scoring,
like bench/locomo.py).

    python bench/realchat.py                          # hybrid, keyword and plain FTS5
    python bench/realchat.py --reuse /tmp/realchat    # keep the stores, reuse them next time
    python bench/realchat.py --json out.json --per-question

Also reported: plain FTS5 over the imported messages (the baseline of
../shared/data/README.md: porter tokenizer, question terms minus English stopwords OR-ed,
bm25 order), the same numbers by category, language and source, and the share of top-10
slots filled by episode memories.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    CachingEmbedder,
    _remove_db,
    log,
    md_table,
    percentile,
    score_ranking,
    write_path_fingerprint,
)
from memory_core import STOPWORDS, MemoryStore  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "realworld"
DEFAULT_QUESTIONS = REPO / "bench" / "data" / "realchat_questions.jsonl"
CATEGORIES = ("single-hop", "multi-hop", "temporal", "open")
METRICS = ("recall@5", "recall@10", "all@10", "mrr")


@dataclass
class ChatQuestion:
    """One annotated question: which export it asks about, and the refs of its evidence."""

    id: str
    file: str  # relative to the realworld data folder
    question: str
    answer: str
    category: str
    lang: str
    evidence: list[str]

    @property
    def fold(self) -> str:
        """The chat a question belongs to, for leave-one-chat-out: the export file, and for
        exports holding several conversations (ChatGPT, Claude) the conversation of its first
        evidence message."""
        first = self.evidence[0]
        if first.startswith(("chatgpt:", "claude:")):
            return f"{self.file}#{first.split(':')[1]}"
        return self.file


class QuestionFileError(ValueError):
    """A malformed line of the questions file (message names file and line)."""


def load_questions(path: Path) -> list[ChatQuestion]:
    """Read and check the questions file: one JSON object per line, every field present."""
    out: list[ChatQuestion] = []
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionFileError(f"{path}:{n}: not JSON ({exc.msg})") from None
        for key in ("id", "file", "question", "answer", "category", "lang", "evidence"):
            if key not in obj:
                raise QuestionFileError(f"{path}:{n}: missing field {key!r}")
        if obj["category"] not in CATEGORIES:
            raise QuestionFileError(f"{path}:{n}: category {obj['category']!r} is not one of {', '.join(CATEGORIES)}")
        if not obj["evidence"] or not all(isinstance(e, str) for e in obj["evidence"]):
            raise QuestionFileError(f"{path}:{n}: evidence must be a non-empty list of refs")
        if obj["id"] in seen:
            raise QuestionFileError(f"{path}:{n}: duplicate id {obj['id']!r}")
        seen.add(obj["id"])
        out.append(ChatQuestion(**{k: obj[k] for k in ("id", "file", "question", "answer", "category", "lang",
                                                        "evidence")}))
    return out


# --------------------------------------------------------------------------- stores

def _import_fingerprint() -> str:
    """The engine's write path plus the import path (parsers, episodes): a reused store
    must have been built by the same code."""
    import importers
    from memengine import ingest

    parts = [write_path_fingerprint(), inspect.getsource(ingest)]
    for mod in sorted(Path(importers.__file__).parent.glob("*.py")):
        parts.append(mod.read_text(encoding="utf-8"))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _slug(rel: str) -> str:
    return re.sub(r"[^\w.-]+", "_", rel)


def _sha(path: Path) -> str:
    """An export file's digest; a notes folder's: each file's relative path and bytes, in path order."""
    if not path.is_dir():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(path)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def build_chat_store(data: Path, rel: str | list[str], directory: Path, embedder: Any,
                     reuse: bool = False) -> MemoryStore:
    """Open (``reuse``) or build the store of one export file (or of several, imported one
    after the other into one store), imported as ``mem.py import`` does.

    Vectors are cached per store in ``<slug>.<model>.vectors.npz``, so a rebuild after an
    engine change re-embeds nothing that was embedded before.
    """
    from memengine import ingest

    rels = [rel] if isinstance(rel, str) else list(rel)
    name = rels[0] if isinstance(rel, str) else "all-files"
    tag = re.sub(r"[^\w.-]+", "_", embedder.model_id)
    db = directory / f"{_slug(name)}.{tag}.db"
    side = directory / f"{_slug(name)}.{tag}.json"
    expect = {"file_sha": [_sha(data / r) for r in rels],
              "model_id": embedder.model_id, "import_path": _import_fingerprint()}
    directory.mkdir(parents=True, exist_ok=True)
    if reuse and db.exists() and side.exists():
        try:
            got = json.loads(side.read_text())
        except json.JSONDecodeError:
            got = {}
        if got == expect:
            return MemoryStore(db, embedder=embedder)
        log(f"  {name}: stored file is stale, rebuilding")
    _remove_db(db)
    side.unlink(missing_ok=True)
    cacher = CachingEmbedder(embedder, directory / f"{_slug(name)}.{tag}.vectors.npz")
    t0 = time.perf_counter()
    store = MemoryStore(db, embedder=cacher)
    added = episodes = 0
    for r in rels:
        summary = ingest.import_path(store, data / r)
        added, episodes = added + summary.memories_added, episodes + summary.episodes
    cacher.save()
    store.close()
    side.write_text(json.dumps(expect))
    log(f"  {name}: {added} messages, {episodes} episodes in "
        f"{time.perf_counter() - t0:.1f} s ({cacher.misses} embedded)")
    return MemoryStore(db, embedder=embedder)


def build_chat_stores(questions: Sequence[ChatQuestion], data: Path, directory: Path, embedder: Any | None = None,
                      reuse: bool = False, one_store: bool = False) -> dict[str, MemoryStore]:
    """``{file: store}`` for every export file the questions ask about; with ``one_store``
    every file maps to the same store holding all of them (a person's whole history)."""
    if embedder is None:
        from embedder import get_embedder

        embedder = get_embedder()
    files = sorted({q.file for q in questions})
    if one_store:
        whole = build_chat_store(data, files, directory, embedder, reuse)
        return {f: whole for f in files}
    return {f: build_chat_store(data, f, directory, embedder, reuse) for f in files}


def check_evidence(stores: dict[str, MemoryStore], questions: Sequence[ChatQuestion]) -> list[str]:
    """Evidence refs that are not a message of their file's store (an importer changed its refs)."""
    missing = []
    for q in questions:
        st = stores[q.file]
        for ref in q.evidence:
            if st.conn.execute("SELECT 1 FROM memories WHERE ref = ?", (ref,)).fetchone() is None:
                missing.append(f"{q.id}: {ref}")
    return missing


# --------------------------------------------------------------------------- retrievers

RecallFn = Callable[[MemoryStore, str, int], list[str]]


def engine_fn(strategy: str, config: Any = None) -> RecallFn:
    """Refs of the engine's ``recall`` (no touch: the bench must not change the stores)."""

    def fn(store: MemoryStore, query: str, k: int) -> list[str]:
        res = store.recall(query, k=k, strategy=strategy, touch=False, config=config)
        return [m.ref or "" for m in res.results]

    return fn


_WORD = re.compile(r"\w+", re.UNICODE)


class PlainFts:
    """The data README's keyword baseline, independent of the engine: an in-memory FTS5
    table (porter tokenizer) over a store's messages (episodes left out), the question's
    words minus English stopwords OR-ed, bm25 order."""

    def __init__(self) -> None:
        self._dbs: dict[int, sqlite3.Connection] = {}

    def _db(self, store: MemoryStore) -> sqlite3.Connection:
        key = id(store)
        if key not in self._dbs:
            db = sqlite3.connect(":memory:")
            db.execute("CREATE VIRTUAL TABLE t USING fts5(ref UNINDEXED, body, "
                       "tokenize='porter unicode61 remove_diacritics 2')")
            rows = store.conn.execute(
                "SELECT ref, content FROM memories WHERE status = 'active' AND level = 0 "
                "AND json_extract(metadata, '$.kind') IS NOT 'episode'").fetchall()
            db.executemany("INSERT INTO t(ref, body) VALUES (?, ?)", rows)
            self._dbs[key] = db
        return self._dbs[key]

    def __call__(self, store: MemoryStore, query: str, k: int) -> list[str]:
        words = [w for w in _WORD.findall(query.lower()) if w not in STOPWORDS]
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
        rows = self._db(store).execute("SELECT ref FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?",
                                       (match, k)).fetchall()
        return [r[0] for r in rows]


# --------------------------------------------------------------------------- scoring

def run(stores: dict[str, MemoryStore], questions: Sequence[ChatQuestion], fn: RecallFn,
        k: int = 10) -> list[dict[str, Any]]:
    """Per-question rows: the metrics of bench.common.score_ranking, latency, episode slots."""
    rows = []
    for q in questions:
        store = stores[q.file]
        t0 = time.perf_counter()
        refs = fn(store, q.question, k)
        ms = (time.perf_counter() - t0) * 1000
        s = score_ranking(refs, q.evidence)
        rows.append({"id": q.id, "file": q.file, "fold": q.fold, "category": q.category, "lang": q.lang,
                     "ms": ms, "episodes": sum(r.startswith("episode:") for r in refs[:k]) / k,
                     "top": refs[:k], **s})
    return rows


def aggregate(rows: Iterable[dict[str, Any]]) -> dict[str, float]:
    """Mean metrics over rows (``n`` = how many)."""
    rows = list(rows)
    if not rows:
        return {"n": 0}
    out: dict[str, float] = {"n": len(rows)}
    for m in METRICS:
        out[m] = round(statistics.fmean(r[m] for r in rows), 4)
    multi = [r for r in rows if r["category"] == "multi-hop"]
    out["multi_all@10"] = round(statistics.fmean(r["all@10"] for r in multi), 4) if multi else 0.0
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall, by category / language / source, latency and episode share."""
    def src(r: dict[str, Any]) -> str:
        return r["file"].split("/", 1)[0]

    lat = [r["ms"] for r in rows]
    return {
        "overall": aggregate(rows),
        "by_category": {c: aggregate(r for r in rows if r["category"] == c) for c in CATEGORIES},
        "by_lang": {g: aggregate(r for r in rows if r["lang"] == g) for g in sorted({r["lang"] for r in rows})},
        "by_source": {s: aggregate(r for r in rows if src(r) == s) for s in sorted({src(r) for r in rows})},
        "latency_ms": {"p50": round(percentile(lat, 50), 2), "p95": round(percentile(lat, 95), 2)},
        "episode_slots": round(statistics.fmean(r["episodes"] for r in rows), 4) if rows else 0.0,
    }


def _table_rows(groups: dict[str, dict[str, float]]) -> list[list[Any]]:
    return [[name, m["n"], m["recall@5"], m["recall@10"], m["all@10"], m["mrr"]]
            for name, m in groups.items() if m.get("n")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA), help="realworld data folder (default: %(default)s)")
    ap.add_argument("--questions", default=str(DEFAULT_QUESTIONS), help="questions JSONL (default: %(default)s)")
    ap.add_argument("--strategies", default="hybrid,keyword,fts5", help="comma list of hybrid, keyword, vector, "
                    "fts5 (the plain baseline) (default: %(default)s)")
    ap.add_argument("--reuse", metavar="DIR", help="keep the stores in DIR and reuse them when still valid")
    ap.add_argument("--one-store", action="store_true",
                    help="import every file into ONE store (a person's whole history) instead of one per file")
    ap.add_argument("--embedder", choices=("onnx", "hash"), default=None, help="sets MEM_EMBEDDER")
    ap.add_argument("--json", metavar="OUT", help="write all results as JSON")
    ap.add_argument("--per-question", action="store_true", help="include each question's top 10 in --json")
    args = ap.parse_args(argv)

    import os

    if args.embedder:
        os.environ["MEM_EMBEDDER"] = args.embedder
    data, qpath = Path(args.data), Path(args.questions)
    if not data.is_dir():
        print(f"error: real-chat data folder not found: {data}\n  (it lives in ../shared/data/realworld next to "
              "the repo; pass --data)", file=sys.stderr)
        return 2
    try:
        questions = load_questions(qpath)
    except (OSError, QuestionFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    absent = sorted({q.file for q in questions if not (data / q.file).is_file()})
    if absent:
        print(f"error: {len(absent)} export file(s) named by the questions are missing from {data}: "
              f"{', '.join(absent)}", file=sys.stderr)
        return 1
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    for s in strategies:
        if s not in ("hybrid", "keyword", "vector", "fts5"):
            ap.error(f"unknown strategy {s!r}")

    from embedder import get_embedder

    embedder = get_embedder()
    tmp = None
    if args.reuse:
        directory = Path(args.reuse)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="realchat-")
        directory = Path(tmp.name)
    log(f"stores in {directory}, embedder {embedder.model_id}")
    stores = build_chat_stores(questions, data, directory, embedder, reuse=bool(args.reuse),
                               one_store=args.one_store)
    missing = check_evidence(stores, questions)
    if missing:
        print(f"error: {len(missing)} evidence ref(s) are not messages of their store (did an importer change "
              f"its refs?): {'; '.join(missing[:5])}", file=sys.stderr)
        return 1
    distinct = {id(st): st for st in stores.values()}
    n_msgs = sum(st.conn.execute("SELECT count(*) FROM memories").fetchone()[0] for st in distinct.values())
    if any(s in ("hybrid", "vector") for s in strategies):
        embedder.embed(["warm up"])

    fts = PlainFts()
    results: dict[str, dict[str, Any]] = {}
    rows_by: dict[str, list[dict[str, Any]]] = {}
    for s in strategies:
        fn = fts if s == "fts5" else engine_fn(s)
        rows_by[s] = run(stores, questions, fn)
        results[s] = summary(rows_by[s])
        log(f"{s}: {len(questions)} questions")

    folds = sorted({q.fold for q in questions})
    print(f"# Real-chat retrieval — {len(stores)} export files in {len(distinct)} store(s), {len(folds)} chats, {n_msgs} memories "
          f"(messages and episodes), {len(questions)} questions, embedder `{embedder.model_id}`\n")
    for s in strategies:
        r = results[s]
        print(f"## {s}  (latency p50 {r['latency_ms']['p50']:.1f} ms, p95 {r['latency_ms']['p95']:.1f} ms; "
              f"episode memories fill {r['episode_slots']:.0%} of the top 10)\n")
        groups = {f"{c}": r["by_category"][c] for c in CATEGORIES}
        groups.update({f"lang {g}": m for g, m in r["by_lang"].items()})
        groups.update({f"source {g}": m for g, m in r["by_source"].items()})
        groups["**overall**"] = r["overall"]
        print(md_table(["group", "n", "recall@5", "recall@10", "all-evidence@10", "MRR"], _table_rows(groups)))
        print()
    print("## comparison (overall)\n")
    print(md_table(["strategy", "n", "recall@5", "recall@10", "MRR", "multi-hop all@10", "p50 ms", "p95 ms"],
                   [[s, results[s]["overall"]["n"], results[s]["overall"]["recall@5"],
                     results[s]["overall"]["recall@10"], results[s]["overall"]["mrr"],
                     results[s]["overall"]["multi_all@10"], results[s]["latency_ms"]["p50"],
                     results[s]["latency_ms"]["p95"]] for s in strategies]))
    print()
    if args.json:
        out: dict[str, Any] = {"questions": str(qpath), "data": str(data), "embedder": embedder.model_id,
                               "files": sorted(stores), "chats": folds, "strategies": results}
        if args.per_question:
            out["per_question"] = {s: [{k: v for k, v in r.items()} for r in rows_by[s]] for s in strategies}
        Path(args.json).write_text(json.dumps(out, indent=2, ensure_ascii=False), encoding="utf-8")
        log(f"wrote {args.json}")
    for st in distinct.values():
        st.close()
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
