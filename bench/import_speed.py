"""Import throughput and peak memory, end to end (parse + embed + write), through the CLI.

Modes (each runs ``mem.py import`` in a fresh subprocess on a fresh memory file, so the
timing includes model load and the peak RSS is that of the import alone):

* ``speed`` (default): a generated WhatsApp chat (``--messages``, default 3000) and a
  generated ChatGPT export of about the same size, with the REAL embedding model
  (``MEM_EMBEDDER=onnx``). Bar: >= 150 messages/s on 2 cores.
* ``memory``: a generated ChatGPT export of ``--mb`` MB (default 200): peak RSS of a
  ``--dry-run`` import and of a real import with ``MEM_EMBEDDER=hash`` (the model's
  own ~100 MB would hide what the import holds), plus the file size for scale.
* ``--into STORE.db`` (with ``speed``): each import runs twice, into a new file and into a
  fresh copy of STORE (never STORE itself), and the table adds the CPU ms per message of
  both and their ratio ("no cliffs": importing into 1M memories should cost what it costs
  into none). ``--embedder hash`` isolates the non-model part (the copy is relabelled as a
  hash-embedder store so the model check lets it in). With ``--base REF`` the rows and
  vectors each tree wrote are compared (every column but the write times): they must be equal.

Usage::

    python bench/import_speed.py [speed|memory|all] [--messages 3000] [--mb 200] [--workdir DIR]
    python bench/import_speed.py speed --into /tmp/x/scale-1000000.v1.db [--formats chatgpt]
        [--embedder hash] [--base REF]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.gen_chatgpt_export import conversation, generate  # noqa: E402

TOPICS = ("the boat trip to the lake", "dinner on friday", "the new job offer", "grandma's birthday",
          "fixing the bike", "the flight to Lisbon", "a book about birds", "the electricity bill")


def gen_whatsapp(path: Path, n: int) -> Path:
    """An Android-layout chat of ``n`` messages, sessions of ~40 messages a few hours apart."""
    t = datetime(2022, 3, 1, 8, 0)
    lines = []
    for i in range(n):
        t += timedelta(hours=5) if i % 40 == 0 else timedelta(minutes=2)
        who = ("Ana García", "Bea", "+34 600 123 456")[i % 3]
        lines.append(f"{t:%d/%m/%Y, %H:%M} - {who}: message {i} about {TOPICS[(i // 40) % len(TOPICS)]}, "
                     f"see you tomorrow maybe")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def rss_of(path: Path, db: Path, embedder: str, *extra: str, repo: Path = REPO) -> dict[str, Any]:
    """Peak RSS measured in a fresh Python that runs one import (exact, not masked by earlier children)."""
    code = (
        "import json,resource,subprocess,sys,os;"
        "p=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
        "print(json.dumps({'rc':p.returncode,'out':p.stdout,'err':p.stderr[-2000:],"
        "'kb':(r:=resource.getrusage(resource.RUSAGE_CHILDREN)).ru_maxrss,'cpu':r.ru_utime+r.ru_stime}))"
    )
    env = dict(os.environ, MEM_EMBEDDER=embedder, MEM_DB=str(db))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, sys.executable, str(repo / "mem.py"), "import", str(path),
                           *extra], env=env, capture_output=True, text=True, cwd=str(repo))
    wall = time.perf_counter() - t0
    res = json.loads(proc.stdout)
    if res["rc"] != 0:
        raise SystemExit(f"import failed: {res['out'][-500:]} {res['err']}")
    return {"summary": json.loads(res["out"])["data"], "wall_s": wall, "peak_rss_mb": res["kb"] / 1024,
            "cpu_s": res["cpu"]}


def gen_chatgpt(path: Path, messages: int, turns: int = 40) -> Path:
    """A ChatGPT export of about ``messages`` messages (conversations of ``turns``, ~60 words each)."""
    # generate() stops at a size, so size it from one conversation.
    one = len(json.dumps(conversation(0, turns, random.Random(1), 60)).encode()) / 1024 / 1024
    generate(path, one * (messages / turns) * 0.999, turns=turns)
    return path


def import_case(label: str, path: Path, db: Path, repo: Path = REPO, embedder: str = "onnx") -> dict[str, Any]:
    """One ``mem.py import`` of ``path`` into ``db`` (the real model by default): messages/s (wall and CPU), RSS."""
    r = rss_of(path, db, embedder, repo=repo)
    s = r["summary"]
    n = s["messages_seen"] - s["skipped_system"] - s["skipped_media"] - s["skipped_empty"]
    return {"case": f"{label} ({path.stat().st_size / 1e6:.1f} MB)", "messages": n,
            "added": s["memories_added"], "episodes": s["episodes"], "seconds": round(r["wall_s"], 1),
            "messages_per_s": round(n / r["wall_s"], 1), "cpu_s": round(r["cpu_s"], 1),
            "messages_per_cpu_s": round(n / r["cpu_s"], 1), "peak_rss_mb": round(r["peak_rss_mb"]),
            "cpu_ms_per_message": round(1000 * r["cpu_s"] / max(1, n), 2)}


def _unlink_db(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)


def base_tree(work: Path, base: str) -> Path:
    """``base``'s tree (``git archive``) in ``work``, run with this checkout's venv."""
    tree = work / "base-tree"
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", base], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def copy_store(src: Path, db: Path, embedder: str) -> int:
    """A consistent copy of ``src`` at ``db`` (never ``src`` itself); its largest memory id.

    ``embedder`` "hash": the copy is labelled as a hash-embedder store, so an import with the
    fake embedder is let in and only the non-model work is measured.
    """
    import sqlite3

    _unlink_db(db)
    shutil.copyfile(src, db)
    for suffix in ("-wal",):  # a store left with a WAL: its committed pages come along
        if Path(str(src) + suffix).exists():
            shutil.copyfile(str(src) + suffix, str(db) + suffix)
    conn = sqlite3.connect(db)
    try:
        if embedder == "hash":
            from embedder import HashEmbedder

            conn.execute("UPDATE _mem_meta SET value = ? WHERE key = 'embedding_model'", (HashEmbedder().model_id,))
            conn.commit()
        return int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    finally:
        conn.close()


# Columns a write stamps with the clock: they differ between any two runs.
CLOCK_COLUMNS = {"created_at", "updated_at", "decay_ref_at", "last_accessed_at", "valid_from"}


def written_rows(db: Path, after: int) -> dict[str, list[tuple[Any, ...]]]:
    """What an import wrote to ``db``: memories with id > ``after`` (without the clock
    columns), their edges, the aliases, their own and context vectors as stored bytes."""
    import sqlite_vec

    from memengine.db import sqlite3  # one that loads extensions

    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    sqlite_vec.load(conn)
    try:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(memories)") if r[1] not in CLOCK_COLUMNS]
        out = {
            "memories": conn.execute(f"SELECT {', '.join(cols)} FROM memories WHERE id > ? ORDER BY id",
                                     (after,)).fetchall(),
            "edges": conn.execute("SELECT source_id, target_id, edge_type, weight, metadata FROM associations "
                                  "WHERE source_id > ? OR target_id > ? ORDER BY source_id, target_id, edge_type",
                                  (after, after)).fetchall(),
            "aliases": conn.execute("SELECT alias, name, kind, source FROM aliases ORDER BY alias").fetchall(),
        }
        new_ids = [int(r[0]) for r in conn.execute("SELECT id FROM memories WHERE id > ? ORDER BY id", (after,))]
        for table in ("vec_memories", "vec_contexts"):  # by id: vec0 scans the whole table for an IN list
            out[table] = [r for r in (conn.execute(f"SELECT memory_id, embedding FROM {table} WHERE memory_id = ?",
                                                   (mid,)).fetchone() for mid in new_ids) if r is not None]
        return out
    finally:
        conn.close()


def compare_written(a: dict[str, list[tuple[Any, ...]]], b: dict[str, list[tuple[Any, ...]]]) -> str:
    """"identical" or which table differs first (and where)."""
    for table in a:
        if a[table] != b[table]:
            diff = next((i for i, (x, y) in enumerate(zip(a[table], b[table])) if x != y), None)
            return f"DIFFERENT: {table} ({len(a[table])} vs {len(b[table])} rows, first difference at row {diff})"
    return "identical (" + ", ".join(f"{len(v)} {k}" for k, v in a.items()) + ")"


def speed(work: Path, messages: int, base: str | None = None, into: Path | None = None,
          formats: tuple[str, ...] = ("whatsapp", "chatgpt"), embedder: str = "onnx") -> list[dict[str, Any]]:
    """Messages/s on a WhatsApp chat and a ChatGPT export (the real model unless ``embedder``).

    ``base`` (a git ref): the same imports by that commit's tree too (``git archive`` into a
    temp dir), alternating base / this tree per case so that load drifts alike for both.
    ``into``: each import also runs into a fresh copy of that store (after the one into a new
    file, same tree), for the cost per message into an empty and into a big store side by side.
    """
    files = {"whatsapp": lambda: gen_whatsapp(work / "WhatsApp Chat with Ana.txt", messages),
             "chatgpt": lambda: gen_chatgpt(work / "speed-conversations.json", messages)}
    trees: list[tuple[str, Path]] = [("", REPO)]
    if base:
        trees = [(f"{base}: ", base_tree(work, base)), ("this tree: ", REPO)]
    targets: list[tuple[str, Path | None]] = [("new file", None)] + ([(into.name, into)] if into else [])
    out = []
    for label in formats:
        path = files[label]()
        for target, src in targets:
            wrote: list[dict[str, list[tuple[Any, ...]]]] = []
            for name, repo in trees:
                db = work / f"speed-{label}.db"
                _unlink_db(db)
                after = copy_store(src, db, embedder) if src is not None else 0
                row = import_case(label, path, db, repo=repo, embedder=embedder)
                row["case"] = name + row["case"] + (f" into {target}" if into else "")
                row["target"], row["tree"] = target, name
                if base:
                    wrote.append(written_rows(db, after))
                out.append(row)
                _unlink_db(db)
            if len(wrote) == 2:
                out[-1]["same_as_base"] = compare_written(wrote[0], wrote[1])
    return out


def memory(work: Path, mb: float) -> list[dict[str, Any]]:
    """Peak RSS of a dry run and of a hash-embedder import of a ``mb`` MB ChatGPT export."""
    cg = work / "big-conversations.json"
    if not cg.exists() or abs(cg.stat().st_size / 1024 / 1024 - mb) > mb * 0.05:
        t0 = time.perf_counter()
        convs, msgs = generate(cg, mb)
        print(f"generated {cg} ({cg.stat().st_size / 1e6:.0f} MB, {convs} conversations, {msgs} messages) "
              f"in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    out = []
    for label, extra in (("dry run", ("--dry-run",)), ("import (hash embedder)", ())):
        db = work / "big.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        r = rss_of(cg, db, "hash", *extra)
        s = r["summary"]
        out.append({"case": f"chatgpt {cg.stat().st_size / 1e6:.0f} MB, {label}", "messages": s["messages_seen"],
                    "added": s["memories_added"], "episodes": s["episodes"], "seconds": round(r["wall_s"], 1),
                    "messages_per_s": round(s["messages_seen"] / r["wall_s"], 1),
                    "cpu_s": round(r["cpu_s"], 1), "messages_per_cpu_s": round(s["messages_seen"] / r["cpu_s"], 1),
                    "peak_rss_mb": round(r["peak_rss_mb"])})
    return out


def print_cliff(rows: list[dict[str, Any]], into: Path) -> None:
    """CPU ms per message into a new file vs into the big store's copy, per tree and format."""
    print(f"\nCPU ms per message, new file vs a copy of {into.name} (ratio > 1: the store's size costs):\n")
    print("| tree | format | new file | big store | ratio |")
    print("|---|---|---|---|---|")
    for r in rows:
        if r.get("target") != into.name:
            continue
        fmt = r["case"].split(" (")[0].removeprefix(r["tree"])
        empty = next((e for e in rows if e.get("target") == "new file" and e["tree"] == r["tree"]
                      and e["case"].removeprefix(r["tree"]).startswith(fmt)), None)
        if empty:
            print(f"| {r['tree'].rstrip(': ') or 'this tree'} | {fmt} | {empty['cpu_ms_per_message']} | "
                  f"{r['cpu_ms_per_message']} | {r['cpu_ms_per_message'] / empty['cpu_ms_per_message']:.2f} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", nargs="?", choices=("speed", "memory", "all"), default="speed")
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--mb", type=float, default=200.0)
    ap.add_argument("--workdir", type=Path, help="keep generated files here (default: a temp dir)")
    ap.add_argument("--base", metavar="REF", help="speed: also run the imports of this git ref's tree (before/after)")
    ap.add_argument("--into", type=Path, metavar="STORE.db",
                    help="speed: also import into a fresh copy of this store (empty vs big, same run)")
    ap.add_argument("--formats", default="whatsapp,chatgpt", help="speed: which generated exports (comma list)")
    ap.add_argument("--embedder", choices=("onnx", "hash"), default="onnx",
                    help="speed: hash = the fake embedder, to measure everything but the model")
    args = ap.parse_args(argv)
    if args.into is not None and not args.into.is_file():
        ap.error(f"--into {args.into}: no such store")
    load0 = os.getloadavg()[0]
    tmp = None
    if args.workdir:
        work = args.workdir
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="import-speed-")
        work = Path(tmp.name)
    rows: list[dict[str, Any]] = []
    if args.mode in ("speed", "all"):
        rows += speed(work, args.messages, args.base, args.into, tuple(args.formats.split(",")), args.embedder)
    if args.mode in ("memory", "all"):
        rows += memory(work, args.mb)
    load = os.getloadavg()[0]
    flags = next((ln.split(":", 1)[1].split() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                  if ln.startswith("flags")), []) if Path("/proc/cpuinfo").exists() else []
    simd = ", ".join(f for f in ("avx2", "avx512_vnni", "avx_vnni") if f in flags) or "no avx2"
    print(f"# import speed — {os.cpu_count()} CPUs ({simd}), load average {load0:.1f} at the start, "
          f"{load:.1f} at the end\n")
    print("CPU seconds are user+sys of the import process (ONNX uses both cores, so on an idle\n"
          "2-core machine wall time lies between cpu/2 and cpu).\n")
    print("| case | messages | added | episodes | wall s | messages/s (wall) | CPU s | messages/CPU-s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['messages']} | {r['added']} | {r['episodes']} | {r['seconds']} | "
              f"{r['messages_per_s']} | {r['cpu_s']} | {r['messages_per_cpu_s']} | {r['peak_rss_mb']} |")
    if args.into is not None:
        print_cliff(rows, args.into)
    compared = [r for r in rows if "same_as_base" in r]
    for r in compared:
        print(f"\nrows and vectors written, {args.base} vs this tree, {r['case']}: {r['same_as_base']}")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
