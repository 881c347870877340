"""Reliability you can show: concurrency, kill -9, a bad-input corpus, fuzzed recall.

Real processes and real files, the figures printed (and with ``--json`` one JSON object)
so bench/README.md can keep them. The exact, fast checks live in tests/
(test_dbfile.py, test_hostile.py, test_reliability.py); this script runs the heavy parts:

    python bench/reliability.py concurrency   # 8 writers x 200 CLI stores while consolidate loops
    python bench/reliability.py kills         # kill -9 at random points of imports and consolidate
    python bench/reliability.py corpus        # every importer x bad inputs: exit code, peak RSS, DB untouched
    python bench/reliability.py fuzz          # 10k fuzzed recall queries (API) + 200 (CLI)
    python bench/reliability.py wal           # WAL size while a server answers recalls and another
                                              #   process stores 10k memories (--tree: another checkout)
    python bench/reliability.py walreaders --tree /work/base-start --tree . --repeat 2
                                              # WAL size with no server: reader processes recall in a loop
                                              #   while a writer stores back to back (--held: long snapshots)
    python bench/reliability.py kwbuild --store /tmp/scl/scale-100000.v1.db --tree /work/base-start --tree .
                                              # WAL size while the keyword index's first build runs and
                                              #   another process stores (a held read snapshot lets it grow)
    python bench/reliability.py restore --store /tmp/scl/scale-100000.v1.db
                                              # `mem.py restore` of a big store while a writer stores:
                                              #   how long writers wait, nothing lost
    python bench/reliability.py all

Every CLI call uses ``MEM_EMBEDDER=hash`` (the fake embedder behind the real interface):
what is measured is locking, crash safety and input handling, not the model.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
MEM = [sys.executable, str(REPO / "mem.py")]
ENV = dict(os.environ, MEM_EMBEDDER="hash", OPENBLAS_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="")
WORDS = ("gateway deploy ansible postgres backup rotate token lisbon oscar meeting invoice kafka retry "
         "latency cache shard replica vacuum index vector memory agent cron nightly alert pager budget").split()


def cli(args: list[str], db: Path, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MEM, "--db", str(db), *args, "--json"], capture_output=True, text=True, env=ENV, **kw)


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def count(db: Path, sql: str = "SELECT count(*) FROM memories") -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


# --------------------------------------------------------------------------- concurrency

WRITER = """
import random, subprocess, sys
mem, db, n, w = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
words = sys.argv[5].split()
rng = random.Random(int(w))
bad = 0
for i in range(n):
    text = f"writer {w} note {i}: " + " ".join(rng.choice(words) for _ in range(8))
    p = subprocess.run([sys.executable, mem, "--db", db, "store", text, "--ref", f"w{w}-{i}", "--source", "stress",
                        "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        bad += 1
        print(p.returncode, p.stdout.strip()[:200], file=sys.stderr)
print(bad)
"""


def concurrency(tmp: Path, writers: int, writes: int) -> dict[str, Any]:
    """``writers`` processes each run ``writes`` CLI stores while consolidate runs in a loop."""
    db = tmp / "stress.db"
    cli(["store", "seed memory"], db)
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(REPO / "mem.py"), str(db), str(writes), str(w),
                               " ".join(WORDS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
             for w in range(writers)]
    t0 = time.perf_counter()
    runs = cons_fail = 0
    cons_errors: list[str] = []
    while any(p.poll() is None for p in procs):
        r = cli(["consolidate"], db)
        runs += 1
        if r.returncode != 0:
            cons_fail += 1
            cons_errors.append(r.stdout.strip()[:200])
    outs = [p.communicate() for p in procs]
    took = time.perf_counter() - t0
    failed = sum(int(o.strip().splitlines()[-1]) for o, _ in outs)
    errors = "\n".join(e for _, e in outs)
    stored = count(db, "SELECT count(DISTINCT ref) FROM memories WHERE source = 'stress'")
    return {"writers": writers, "writes_each": writes, "expected": writers * writes, "stored": stored,
            "lost": writers * writes - stored, "failed_writes": failed,
            "lock_errors": errors.count('"busy"') + errors.count('"locked"'),
            "consolidate_runs": runs, "consolidate_failures": cons_fail, "consolidate_errors": cons_errors[:3],
            "integrity": integrity(db), "seconds": round(took, 1)}


# --------------------------------------------------------------------------- kill -9

def _jsonl(path: Path, n: int) -> None:
    rng = random.Random(7)
    with open(path, "w") as fh:
        for i in range(n):
            fh.write(json.dumps({"content": f"imported line {i}: " + " ".join(rng.choice(WORDS) for _ in range(12)),
                                 "ref": f"line-{i}", "memory_type": "semantic" if i % 3 else "episodic"}) + "\n")


def _whatsapp(path: Path, n: int) -> None:
    rng = random.Random(11)
    with open(path, "w") as fh:
        for i in range(n):
            d, h, m = 1 + (i // 600) % 28, (i // 60) % 24, i % 60
            who = ("Ana", "Max")[i % 2]
            fh.write(f"{d:02d}/03/2024, {h:02d}:{m:02d} - {who}: message {i} " +
                     " ".join(rng.choice(WORDS) for _ in range(9)) + "\n")


def _contents(db: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        return sorted((str(r[0]), str(r[1])) for r in conn.execute("SELECT content_hash, coalesce(ref, '') "
                                                                    "FROM memories WHERE status != 'deleted'"))
    finally:
        conn.close()


def kill_imports(tmp: Path, points: int, fmt: str, n: int) -> dict[str, Any]:
    """Kill ``import`` at ``points`` random moments; after each, integrity and an exact re-import."""
    src = tmp / ("in.jsonl" if fmt == "jsonl" else "WhatsApp Chat with Ana.txt")
    (_jsonl if fmt == "jsonl" else _whatsapp)(src, n)
    ref_db = tmp / f"ref-{fmt}.db"
    t0 = time.perf_counter()
    r = cli(["import", fmt, str(src)], ref_db)
    full = time.perf_counter() - t0
    assert r.returncode == 0, r.stdout + r.stderr
    want = _contents(ref_db)
    rng = random.Random(23)
    bad_integrity = not_exact = 0
    killed_mid = 0
    for k in range(points):
        db = tmp / f"kill-{fmt}-{k}.db"
        p = subprocess.Popen([*MEM, "--db", str(db), "import", fmt, str(src), "--json"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=ENV)
        time.sleep(rng.uniform(0.3, full))  # (the first ~0.3 s is the interpreter starting)
        if p.poll() is None:
            killed_mid += 1
        p.send_signal(signal.SIGKILL)
        p.wait()
        if db.exists() and integrity(db) != "ok":
            bad_integrity += 1
        r = cli(["import", fmt, str(src)], db)
        if r.returncode != 0 or _contents(db) != want or integrity(db) != "ok":
            not_exact += 1
        for side in db.parent.glob(db.name + "*"):
            side.unlink()
    return {"format": fmt, "rows": n, "full_import_s": round(full, 1), "kills": points,
            "killed_mid_import": killed_mid, "integrity_failures": bad_integrity, "reimport_not_exact": not_exact}


MD_USER = "# Agent notes\n\nWritten by hand: keep this exactly.\n"


def kill_consolidate(tmp: Path, points: int, n: int) -> dict[str, Any]:
    """Kill ``consolidate`` at random moments; MEMORY.md must be the old or a whole new file."""
    from memengine import memorymd

    base = tmp / "cons-base.db"
    src = tmp / "cons.jsonl"
    _jsonl(src, n)
    cli(["import", "jsonl", str(src)], base)
    md0 = tmp / "MEMORY0.md"
    md0.write_text(MD_USER)
    t0 = time.perf_counter()
    probe = tmp / "probe.db"
    probe.write_bytes(base.read_bytes())
    r = cli(["consolidate", "--memory-md", str(md0)], probe)
    full = time.perf_counter() - t0
    assert r.returncode == 0, r.stdout + r.stderr
    rng = random.Random(5)
    bad_integrity = half_md = incomplete = killed_mid = 0
    states = {"old": 0, "new": 0}
    for k in range(points):
        db = tmp / f"cons-{k}.db"
        db.write_bytes(base.read_bytes())
        md = tmp / f"MEMORY-{k}.md"
        md.write_text(MD_USER)
        old = md.read_bytes()
        p = subprocess.Popen([*MEM, "--db", str(db), "consolidate", "--memory-md", str(md), "--json"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        time.sleep(rng.uniform(0.3, full))  # (the first ~0.3 s is the interpreter starting)
        if p.poll() is None:
            killed_mid += 1
        p.send_signal(signal.SIGKILL)
        p.wait()
        if integrity(db) != "ok":
            bad_integrity += 1
        now = md.read_bytes()
        if now == old:
            states["old"] += 1
        else:
            text = now.decode("utf-8")
            try:
                memorymd.splice(text, f"{memorymd.BEGIN}\nx\n{memorymd.END}")  # markers whole and balanced
                whole = text.startswith(MD_USER.rstrip("\n")) and text.count(memorymd.BEGIN) == 1 \
                    and text.count(memorymd.END) == 1
            except memorymd.ManagedBlockError:
                whole = False
            states["new"] += 1
            half_md += not whole
        leftovers = list(tmp.glob(f".MEMORY-{k}.md.*"))
        half_md += bool(leftovers)
        r = cli(["consolidate", "--memory-md", str(md)], db)  # the next run completes what was cut
        if r.returncode != 0 or integrity(db) != "ok":
            incomplete += 1
        for side in db.parent.glob(db.name + "*"):
            side.unlink()
    return {"memories": n, "full_run_s": round(full, 1), "kills": points, "killed_mid_run": killed_mid,
            "integrity_failures": bad_integrity, "memory_md_old": states["old"], "memory_md_new": states["new"],
            "memory_md_half_written": half_md, "next_run_failed": incomplete}


# --------------------------------------------------------------------------- bad-input corpus

def _zip(path: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", compression, compresslevel=9) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _bomb(path: Path, member: str, mb: int) -> Path:
    """A small zip holding ``mb`` MB of one character (streamed: never ``mb`` MB in memory)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z, z.open(member, "w") as fh:
        chunk = b"a" * (1 << 20)
        for _ in range(mb):
            fh.write(chunk)
    return path


def _big_line(path: Path, mb: int, prefix: bytes = b"", suffix: bytes = b"") -> Path:
    with open(path, "wb") as fh:
        fh.write(prefix)
        chunk = b"b" * (1 << 20)
        for _ in range(mb):
            fh.write(chunk)
        fh.write(suffix + b"\n")
    return path


def corpus_files(d: Path, big_mb: int, bomb_mb: int) -> list[tuple[str, str, Path]]:
    """(format, kind, file) for every importer and every kind of bad input."""
    fx = REPO / "tests" / "fixtures"
    valid = {"whatsapp": (fx / "whatsapp" / "WhatsApp Chat with Ana.txt").read_bytes(),
             "chatgpt": (fx / "chatgpt" / "conversations.json").read_bytes(),
             "claude": (fx / "claude" / "conversations.json").read_bytes(),
             "markdown": (fx / "markdown" / "notes" / "Deploy Notes.md").read_bytes(),
             "vcf": (fx / "vcf" / "contacts.vcf").read_bytes(),
             "jsonl": b"".join(json.dumps({"content": f"fact {i}", "ref": f"r{i}"}).encode() + b"\n"
                               for i in range(20))}
    names = {"whatsapp": "WhatsApp Chat with Ana.txt", "chatgpt": "conversations.json",
             "claude": "conversations.json", "markdown": "notes.md", "vcf": "contacts.vcf", "jsonl": "in.jsonl"}
    wrong_shape = {"whatsapp": b"just a shopping list\nmilk\neggs\n", "chatgpt": b'{"conversations": 3}',
                   "claude": b'[{"uuid": 1, "chat_messages": "none"}]', "markdown": b"\x00\x01\x02 not notes",
                   "vcf": b"BEGIN:VCARD\nFN\nEND:VCARD\n", "jsonl": b'["a", "b"]\n'}
    zips = {"whatsapp": "_chat.txt", "chatgpt": "conversations.json", "claude": "conversations.json"}
    rng = random.Random(1)
    out: list[tuple[str, str, Path]] = []
    for fmt, data in valid.items():
        f = d / fmt
        f.mkdir(parents=True, exist_ok=True)

        def put(kind: str, content: bytes, name: str | None = None, _f: Path = f, _fmt: str = fmt) -> None:
            p = _f / kind / (name or names[_fmt])
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(content)
            out.append((_fmt, kind, p))

        put("empty", b"")
        put("binary", bytes(rng.getrandbits(8) for _ in range(65536)))
        put("truncated", data[: len(data) // 2 + 7])
        put("wrong_shape", wrong_shape[fmt])
        put("invalid_utf8", data[:40] + b"\xff\xfe\xc3\x28 caf\xe9 " + data[40:])
        put("utf16", data.decode("utf-8").encode("utf-16"))
        big = f / "big_line" / names[fmt]
        big.parent.mkdir(parents=True, exist_ok=True)
        prefix = {"whatsapp": b"01/03/2024, 10:00 - Ana: ", "jsonl": b'{"content": "'}.get(fmt, b"")
        _big_line(big, big_mb, prefix, b'"}' if fmt == "jsonl" else b"")
        out.append((fmt, "big_line", big))
        if fmt in zips:
            zs = f / "zip_slip"
            zs.mkdir(exist_ok=True)
            out.append((fmt, "zip_slip", _zip(zs / "export.zip", {"../../evil.txt": b"owned", zips[fmt]: data})))
            zb = f / "zip_bomb"
            zb.mkdir(exist_ok=True)
            out.append((fmt, "zip_bomb", _bomb(zb / "export.zip", zips[fmt], bomb_mb)))
    return out


def _fingerprint(db: Path) -> tuple[int, str]:
    import hashlib

    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        n = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
    finally:
        conn.close()
    return n, hashlib.sha256(db.read_bytes()).hexdigest()


def corpus(tmp: Path, big_mb: int, bomb_mb: int) -> dict[str, Any]:
    """Import every bad file into a store that already holds memories; the store must not change."""
    db = tmp / "corpus.db"
    cli(["store", "a memory that must survive every bad import"], db)
    rows = []
    for fmt, kind, path in corpus_files(tmp / "corpus", big_mb, bomb_mb):
        before = _fingerprint(db)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            t0 = time.perf_counter()
            p = subprocess.Popen([*MEM, "--db", str(db), "import", fmt, str(path), "--json"], stdout=out, stderr=err,
                                 env=ENV)
            _, status, usage = os.wait4(p.pid, 0)
            took = time.perf_counter() - t0
            p.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
        try:
            env = json.loads(stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            env = {}
        after = _fingerprint(db)
        added = (env.get("data") or {}).get("memories_added", 0) if env.get("ok") else 0
        rows.append({"format": fmt, "kind": kind, "exit": p.returncode,
                     "code": (env.get("error") or {}).get("code") if not env.get("ok") else "ok",
                     "message": ((env.get("error") or {}).get("message") or "")[:120] if not env.get("ok") else
                     f"added {added}, warnings {len(env.get('warnings') or (env.get('data') or {}).get('warnings') or [])}",
                     "traceback": "Traceback" in stderr, "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
                     "seconds": round(took, 1),
                     "db_untouched": after == before if not env.get("ok") or not added else None})
        r = rows[-1]
        print(f"{r['format']:9} {r['kind']:13} {r['exit']:>4} {str(r['code']):15} {r['peak_rss_mb']:>7} "
              f"{r['seconds']:>6} {str(r['db_untouched']):9}  {r['message'][:90]}"
              + ("  TRACEBACK" if r["traceback"] else ""), flush=True)
        if env.get("ok") and added:  # a partial salvage (truncated file) may add: reset for the next case
            db.unlink()
            for side in tmp.glob("corpus.db-*"):
                side.unlink()
            cli(["store", "a memory that must survive every bad import"], db)
    evil = list(tmp.rglob("evil.txt")) + list(Path(tempfile.gettempdir()).glob("evil.txt"))
    return {"cases": len(rows), "tracebacks": sum(r["traceback"] for r in rows),
            "internal_errors": sum(r["code"] == "internal" for r in rows),
            "db_changed_by_a_refused_file": sum(r["db_untouched"] is False for r in rows),
            "max_peak_rss_mb": max(r["peak_rss_mb"] for r in rows), "zip_slip_files_written": len(evil),
            "rows": rows}


# --------------------------------------------------------------------------- fuzzed recall

FUZZ_ALPHABET = ["a", "é", " ", '"', "(", ")", "*", "-", "NEAR", "AND", "OR", "NOT", "\0", "\ud800", "\udfff",
                 "\U0001f600", "\\", ":", "^", "'", "\n", "\t", "0x", "deploy", "gateway", "{", "}", "[", "]",
                 "%", "_", "ß", "İ", "\u200b", "\ufeff", "$", "#", ";", "--", "/*", "NULL", "1e308"]


def fuzz(tmp: Path, api_n: int, cli_n: int) -> dict[str, Any]:
    """``api_n`` random queries through MemoryStore.recall, ``cli_n`` through the CLI (bytes too)."""
    os.environ["MEM_EMBEDDER"] = "hash"
    import memory_core as core

    db = tmp / "fuzz.db"
    s = core.MemoryStore(db)
    for i in range(300):
        s.store(f"memory {i}: " + " ".join(random.Random(i).choice(WORDS) for _ in range(10)), "semantic")
    rng = random.Random(42)
    documented: dict[str, int] = {}
    other: dict[str, int] = {}
    t0 = time.perf_counter()
    for _ in range(api_n):
        q = "".join(rng.choice(FUZZ_ALPHABET) for _ in range(rng.randint(0, 16)))
        try:
            s.recall(q, k=rng.randint(1, 50), strategy=rng.choice(core.ALL_STRATEGIES), raw=rng.random() < 0.2,
                     touch=rng.random() < 0.3, explain=rng.random() < 0.2)
        except core.MemError as exc:
            documented[exc.code] = documented.get(exc.code, 0) + 1
        except Exception as exc:  # counted: the figure must be 0
            other[type(exc).__name__] = other.get(type(exc).__name__, 0) + 1
    api_s = time.perf_counter() - t0
    s.close()
    codes: dict[str, int] = {}
    tracebacks = 0
    for _ in range(cli_n):
        q = "".join(rng.choice(FUZZ_ALPHABET) for _ in range(rng.randint(1, 12))).replace("\0", "")
        arg = q.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes no UTF-8 decoder accepts
        if rng.random() < 0.2:
            arg += bytes([rng.randint(0x80, 0xFF)])  # an invalid UTF-8 byte
        extra = ["--raw"] if rng.random() < 0.2 else []
        p = subprocess.run([*MEM, "--db", str(db), "recall", arg, *extra, "--json"], capture_output=True, env=ENV)
        tracebacks += b"Traceback" in p.stderr
        try:
            env = json.loads(p.stdout.decode().strip().splitlines()[-1])
            code = "ok" if env.get("ok") else env["error"]["code"]
        except (ValueError, IndexError, KeyError):
            code = f"no-envelope(exit {p.returncode})"
        codes[code] = codes.get(code, 0) + 1
    return {"api_queries": api_n, "api_documented_errors": documented, "api_other_exceptions": other,
            "api_seconds": round(api_s, 1), "cli_queries": cli_n, "cli_codes": codes, "cli_tracebacks": tracebacks}


# --------------------------------------------------------------------------- WAL growth under a server

_WRITER = """
import json, sys, time, memory_core as core
s = core.MemoryStore(sys.argv[1])
words = sys.argv[3].split()
t0 = time.perf_counter()
for i in range(int(sys.argv[2])):
    s.store(f"note {i}: " + " ".join(words[(i * 7 + j * 3) % len(words)] for j in range(9)), dedup=False)
s.close()
try:
    from memengine.walbound import STATS  # (the writer's own TRUNCATEs: trees that have them)
    print(json.dumps({k: round(v, 3) for k, v in STATS.items()}), file=sys.stderr)
except ImportError:
    pass
print(round(time.perf_counter() - t0, 2))
"""

_READER = """
import json, os, sys, time
from memengine import handoff
db, stop, words = sys.argv[1], sys.argv[2], sys.argv[3].split()
lat, n, failed, cpu0 = [], 0, 0, time.process_time()
while not os.path.exists(stop):
    q = " ".join(words[(n * 5 + j) % len(words)] for j in range(3))
    t = time.perf_counter()
    got = handoff.try_handoff(["--db", db, "recall", q, "-k", "5", "--json"])
    lat.append(time.perf_counter() - t)
    failed += got is None or got[0] != 0
    n += 1
lat.sort()
print(json.dumps({"recalls": n, "failed": failed, "p50_ms": round(lat[len(lat) // 2] * 1000, 2) if lat else None,
                  "p95_ms": round(lat[int(len(lat) * 0.95)] * 1000, 2) if lat else None}))
"""


def _checkpoint(db: Path, mode: str) -> tuple[int, int, int]:
    conn = sqlite3.connect(db, timeout=10)
    try:
        busy, log, folded = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        return int(busy), int(log), int(folded)
    finally:
        conn.close()


def wal_growth(tmp: Path, tree: Path, start: int, stores: int, serve: bool = True, run_no: int = 0) -> dict[str, Any]:
    """A `mem serve` of ``tree`` answers recalls in a loop while another process stores ``stores`` memories
    one by one: the WAL file's size over the run, and whether an outside checkpoint folds every frame once
    the server is idle (polled with a deadline; a held read snapshot would keep frames back)."""
    db = tmp / f"wal-{tree.name}-{run_no}.db"
    run = tmp / f"rt-{run_no}"
    run.mkdir(mode=0o700, exist_ok=True)
    env = dict(ENV, XDG_RUNTIME_DIR=str(run), PYTHONPATH=str(tree))
    env.pop("MEM_NO_SERVER", None)
    py = [sys.executable, "-c"]
    subprocess.run([*py, _WRITER, str(db), str(start), " ".join(WORDS)], env=dict(env, MEM_NO_SERVER="1"),
                   check=True, capture_output=True, cwd=tree)
    server = subprocess.Popen([sys.executable, str(tree / "mem.py"), "--db", str(db), "serve", "--json"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tree) if serve else None
    stop = tmp / f"stop-{run_no}"
    wal = Path(f"{db}-wal")
    try:
        if server is not None:
            assert server.stdout is not None and json.loads(server.stdout.readline())["ok"]
        else:
            stop.touch()  # (no server: the writer alone, the baseline of the log's size)
        reader = subprocess.Popen([*py, _READER, str(db), str(stop), " ".join(WORDS)], env=env,
                                  stdout=subprocess.PIPE, text=True, cwd=tree)
        writer = subprocess.Popen([*py, _WRITER, str(db), str(stores), " ".join(reversed(WORDS))],
                                  env=dict(env, MEM_NO_SERVER="1"), stdout=subprocess.PIPE, text=True, cwd=tree)
        sizes: list[int] = []
        while writer.poll() is None:
            sizes.append(wal.stat().st_size if wal.exists() else 0)
            time.sleep(0.1)
        write_s = float((writer.stdout.read() if writer.stdout else "0").strip() or 0)
        stop.touch()
        reads = json.loads((reader.communicate(timeout=120)[0] or "{}").strip() or "{}")
        t0 = time.monotonic()
        folded = None
        while time.monotonic() - t0 < 30:  # the server is idle now: every frame must fold
            busy, log, done = _checkpoint(db, "PASSIVE")
            if busy == 0 and log == done:
                folded = round(time.monotonic() - t0, 2)
                break
            time.sleep(0.05)
        left = _checkpoint(db, "PASSIVE")
        truncate = _checkpoint(db, "TRUNCATE")
        out = {"tree": str(tree), "served": serve, "start_memories": start, "stored": stores, "writer_s": write_s, **reads,
               "wal_max_mb": round(max(sizes, default=0) / 2**20, 1),
               "wal_p50_mb": round(sorted(sizes)[len(sizes) // 2] / 2**20, 1) if sizes else 0.0,
               "wal_end_mb": round(sizes[-1] / 2**20, 1) if sizes else 0.0,
               "idle_fold_s": folded, "idle_frames_left": left[1] - left[2],
               "truncate_busy": truncate[0], "wal_after_truncate": wal.stat().st_size if wal.exists() else 0,
               "memories": count(db), "load": os.getloadavg()[0]}
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    return out


# --------------------------------------------------------------------------- WAL growth without a server

_API_READER = """
import json, os, sys, time, memory_core as core
s = core.MemoryStore(sys.argv[1])
stop, words, mode = sys.argv[2], sys.argv[3].split(), sys.argv[4]
n, lat = 0, []
while not os.path.exists(stop):
    q = " ".join(words[(n * 5 + j) % len(words)] for j in range(3))
    t = time.perf_counter()
    if mode == "held":  # a snapshot held across reads (a long report, a keyword index build): nothing can fold past it
        s.conn.execute("BEGIN")
        for _ in range(20):
            s.recall(q, k=5, touch=False)
        s.conn.execute("COMMIT")
    else:
        s.recall(q, k=5, touch=False)
    lat.append(time.perf_counter() - t)
    n += 1
s.close()
lat.sort()
print(json.dumps({"reads": n, "read_p50_ms": round(lat[len(lat) // 2] * 1000, 2) if lat else None}))
"""


def wal_readers(tmp: Path, tree: Path, start: int, stores: int, readers: int, mode: str,
                run_no: int = 0) -> dict[str, Any]:
    """No server: ``readers`` processes recall in a loop through the API (warm, ``touch=False``: pure readers)
    while another process stores ``stores`` memories back to back. The -wal's size meanwhile (every 0.1 s).
    ``mode`` ``held``: each reader holds one read snapshot over 20 recalls."""
    db = tmp / f"walr-{tree.name}-{run_no}.db"
    env = dict(ENV, PYTHONPATH=str(tree), MEM_NO_SERVER="1")
    py = [sys.executable, "-c"]
    subprocess.run([*py, _WRITER, str(db), str(start), " ".join(WORDS)], env=env, check=True, capture_output=True,
                   cwd=tree)
    stop = tmp / f"walr-stop-{run_no}"
    wal = Path(f"{db}-wal")
    procs = [subprocess.Popen([*py, _API_READER, str(db), str(stop), " ".join(WORDS), mode], env=env,
                              stdout=subprocess.PIPE, text=True, cwd=tree) for _ in range(readers)]
    time.sleep(2.0)  # the readers are warm
    load = [os.getloadavg()[0]]
    c0 = time.monotonic()
    writer = subprocess.Popen([*py, _WRITER, str(db), str(stores), " ".join(reversed(WORDS))], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tree)
    sizes: list[int] = []
    while writer.poll() is None:
        sizes.append(wal.stat().st_size if wal.exists() else 0)
        time.sleep(0.1)
    write_s = float((writer.stdout.read() if writer.stdout else "0").strip() or 0)
    tail = (writer.stderr.read() if writer.stderr else "").strip().splitlines()
    truncates = json.loads(tail[-1]) if tail and tail[-1].startswith("{") else None
    stop.touch()
    reads = [json.loads(p.communicate(timeout=120)[0].strip() or "{}") for p in procs]
    load.append(os.getloadavg()[0])
    wal_mb = [round(x / 2**20, 1) for x in sizes]
    out = {"tree": str(tree), "readers": readers, "mode": mode, "start_memories": start, "stored": stores,
           "writer_s": write_s, "stores_per_s": round(stores / write_s, 1) if write_s else None,
           "writer_truncates": truncates, "reads": sum(r.get("reads", 0) for r in reads),
           "read_p50_ms": [r.get("read_p50_ms") for r in reads],
           "wal_max_mb": max(wal_mb, default=0.0), "wal_p50_mb": sorted(wal_mb)[len(wal_mb) // 2] if wal_mb else 0.0,
           "wal_end_mb": wal_mb[-1] if wal_mb else 0.0,
           "kb_per_store_unbounded": round(max(sizes, default=0) / 1024 / stores, 1),
           "seconds": round(time.monotonic() - c0, 1), "memories": count(db), "integrity": integrity(db), "load": load}
    for p in (db, wal, Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    stop.unlink(missing_ok=True)
    return out


# --------------------------------------------------------------------------- the keyword index's first build

_BUILDER = """
import json, os, sys, threading, time
from memengine import keyword_index as ki
from memengine.db import connect
from memengine.recall.config import FTS_WEIGHTS
from memengine.walcheckpoint import Checkpointer
cp = None
if sys.argv[2] == "server":  # as in `mem serve`: its checkpointer (TRUNCATE past 16 MB) runs beside the build
    conn = connect(sys.argv[1])
    cp = Checkpointer(sys.argv[1], conn)
    cp.start()
c0, w0 = time.process_time(), time.perf_counter()
base = ki._build_base(sys.argv[1], FTS_WEIGHTS, threading.Event())
print(json.dumps({"build_cpu_s": round(time.process_time() - c0, 2), "build_wall_s": round(time.perf_counter() - w0, 2),
                  "postings": int(len(base.docs)), "truncates": cp.truncates if cp else None}))
if cp:
    cp.close()
"""

_STREAM = """
import os, sys, time, memory_core as core
s = core.MemoryStore(sys.argv[1], fast_start=True)
stop, words, n, worst = sys.argv[2], sys.argv[3].split(), 0, 0.0
while not os.path.exists(stop):
    t = time.perf_counter()
    s.store(f"streamed {n}: " + " ".join(words[(n * 7 + j * 3) % len(words)] for j in range(9)), dedup=False)
    worst = max(worst, time.perf_counter() - t)
    n += 1
s.close()
print(n, round(worst * 1000, 1))
"""


def _copy_store(src: Path, dest: Path, tree: Path) -> None:
    """A private copy of ``src`` (never the original: opening it migrates it), migrated by ``tree``'s code."""
    conn = sqlite3.connect(src)
    try:
        conn.execute("VACUUM INTO ?", (str(dest),))
    finally:
        conn.close()
    subprocess.run([sys.executable, "-c", "import sys, memory_core as core; core.MemoryStore(sys.argv[1]).close()",
                    str(dest)], env=dict(ENV, PYTHONPATH=str(tree)), cwd=tree, check=True, capture_output=True)


def kwbuild(tmp: Path, store: Path, tree: Path, run_no: int, server: bool = True) -> dict[str, Any]:
    """The keyword index's first build (``tree``'s code, its own process) on a copy of ``store`` while another
    process stores memories one by one: the -wal's size meanwhile (sampled every 0.1 s)."""
    db = tmp / f"kw-{run_no}.db"
    _copy_store(store, db, tree)
    # (the copied stores hold the real model's vectors: the writer stores keyword-only, MEM_EMBEDDER=none)
    env = dict(ENV, PYTHONPATH=str(tree), MEM_NO_SERVER="1", MEM_EMBEDDER="none")
    stop = tmp / f"kw-stop-{run_no}"
    wal = Path(f"{db}-wal")
    writer = subprocess.Popen([sys.executable, "-c", _STREAM, str(db), str(stop), " ".join(WORDS)], env=env,
                              stdout=subprocess.PIPE, text=True, cwd=tree)
    time.sleep(1.0)  # the writer runs
    builder = subprocess.Popen([sys.executable, "-c", _BUILDER, str(db), "server" if server else "alone"], env=env,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tree)
    sizes: list[int] = []
    load = [os.getloadavg()[0]]
    while builder.poll() is None:
        sizes.append(wal.stat().st_size if wal.exists() else 0)
        time.sleep(0.1)
    stop.touch()
    built = json.loads(builder.communicate()[0])
    stored, worst = (writer.communicate(timeout=120)[0] or "0 0").split()
    load.append(os.getloadavg()[0])
    out = {"tree": str(tree), "server_checkpointer": server, **built, "wal_max_mb": round(max(sizes, default=0) / 2**20, 1),
           "wal_end_mb": round(sizes[-1] / 2**20, 1) if sizes else 0.0, "stored_meanwhile": int(stored),
           "slowest_store_ms": float(worst), "load": load}
    for p in (db, wal, Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    return out


def restore_bench(tmp: Path, store: Path) -> dict[str, Any]:
    """`mem.py restore` of a copy of ``store`` (its backup: the copy less the writes after it) while another
    process stores one memory after another: the restore's own figures, the slowest store meanwhile, and
    that every store is in the restored file or in the pre-restore backup."""
    db = tmp / "restore.db"
    _copy_store(store, db, REPO)
    backup = tmp / "restore-backup.db"
    assert cli(["backup", str(backup)], db).returncode == 0
    env = dict(ENV, MEM_NO_SERVER="1", MEM_EMBEDDER="none")  # (see kwbuild)
    stop = tmp / "restore-stop"
    writer = subprocess.Popen([sys.executable, "-c", _STREAM, str(db), str(stop), " ".join(WORDS)], env=env,
                              stdout=subprocess.PIPE, text=True, cwd=REPO)
    time.sleep(2.0)
    load = [os.getloadavg()[0]]
    t0 = time.perf_counter()
    done = subprocess.run([*MEM, "--db", str(db), "restore", str(backup), "--json"], capture_output=True, text=True,
                          env=env)
    wall = time.perf_counter() - t0
    time.sleep(1.0)
    stop.touch()
    stored, worst = (writer.communicate(timeout=120)[0] or "0 0").split()
    load.append(os.getloadavg()[0])
    data = json.loads(done.stdout)["data"]
    kept = Path(data["previous_kept_in"])
    got = {r[0] for r in sqlite3.connect(db).execute("SELECT content FROM memories WHERE content LIKE 'streamed %'")}
    got |= {r[0] for r in sqlite3.connect(kept).execute("SELECT content FROM memories WHERE content LIKE 'streamed %'")}
    lost = [i for i in range(int(stored)) if not any(c.startswith(f"streamed {i}: ") for c in got)]
    return {"memories_before": data["memories_before"], "memories_after": data["memories_after"],
            "process_wall_s": round(wall, 2), "restore_s": data["seconds"], "snapshot_s": data["snapshot_seconds"],
            "lock_held_s": data["lock_held_seconds"], "stored_meanwhile": int(stored), "slowest_store_ms": float(worst),
            "lost": len(lost), "integrity": integrity(db), "db_mb": round(db.stat().st_size / 2**20, 1), "load": load}


# --------------------------------------------------------------------------- main

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("concurrency", "kills", "kill-consolidate", "corpus", "fuzz", "wal", "walreaders",
                                     "kwbuild",
                                     "restore", "all"))
    ap.add_argument("--store", type=Path, help="kwbuild/restore: a store to copy (never opened itself)")
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--writes", type=int, default=200)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--rows", type=int, default=4000, help="lines of the killed imports")
    ap.add_argument("--big-mb", type=int, default=200, help="size of the one-line file of the corpus")
    ap.add_argument("--bomb-mb", type=int, default=500, help="uncompressed size of the zip bomb's member")
    ap.add_argument("--api", type=int, default=10_000)
    ap.add_argument("--cli", type=int, default=200)
    ap.add_argument("--stores", type=int, default=10_000, help="memories the other process stores (wal)")
    ap.add_argument("--start", type=int, default=2000, help="memories in the store when the server starts (wal)")
    ap.add_argument("--readers", type=int, default=2, help="walreaders: reading processes (no server)")
    ap.add_argument("--held", action="store_true", help="walreaders: each reader holds a snapshot over 20 recalls")
    ap.add_argument("--repeat", type=int, default=1, help="walreaders/kwbuild: runs per tree (alternating)")
    ap.add_argument("--no-server", action="store_true", help="wal: the writer alone (the log's baseline)")
    ap.add_argument("--tree", type=Path, action="append", help="checkout(s) to run wal against, alternating "
                    "(default: this one); e.g. --tree /work/base-start --tree .")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mem-reliability-") as t:
        tmp = Path(t)
        if a.what in ("concurrency", "all"):
            out["concurrency"] = concurrency(tmp, a.writers, a.writes)
            print("concurrency", json.dumps(out["concurrency"]), flush=True)
        if a.what in ("kills", "all"):
            out["kill_import_jsonl"] = kill_imports(tmp, a.kills, "jsonl", a.rows)
            print("kill import jsonl", json.dumps(out["kill_import_jsonl"]), flush=True)
            out["kill_import_whatsapp"] = kill_imports(tmp, a.kills, "whatsapp", a.rows)
            print("kill import whatsapp", json.dumps(out["kill_import_whatsapp"]), flush=True)
        if a.what in ("kills", "kill-consolidate", "all"):
            out["kill_consolidate"] = kill_consolidate(tmp, a.kills, min(a.rows, 1500))
            print("kill consolidate", json.dumps(out["kill_consolidate"]), flush=True)
        if a.what in ("corpus", "all"):
            print(f"{'format':9} {'kind':13} {'exit':>4} {'code':15} {'rss MB':>7} {'s':>6} untouched  message")
            res = corpus(tmp, a.big_mb, a.bomb_mb)
            out["corpus"] = res
            print("corpus", json.dumps({k: v for k, v in res.items() if k != "rows"}), flush=True)
        if a.what in ("fuzz", "all"):
            out["fuzz"] = fuzz(tmp, a.api, a.cli)
            print("fuzz", json.dumps(out["fuzz"]), flush=True)
        if a.what in ("wal", "all"):
            out["wal"] = []
            for i, tree in enumerate(a.tree or [REPO]):
                res = wal_growth(tmp, tree.resolve(), a.start, a.stores, not a.no_server, i)
                out["wal"].append(res)
                print("wal", json.dumps(res), flush=True)
        if a.what == "walreaders":
            out["walreaders"] = []
            for rep in range(a.repeat):
                for i, tree in enumerate(a.tree or [REPO]):
                    res = wal_readers(tmp, tree.resolve(), a.start, a.stores, a.readers, "held" if a.held else "short",
                                      rep * 10 + i)
                    out["walreaders"].append(res)
                    print("walreaders", json.dumps(res), flush=True)
        if a.what == "kwbuild":
            out["kwbuild"] = []
            for rep in range(a.repeat):
                for i, tree in enumerate(a.tree or [REPO]):
                    res = kwbuild(tmp, a.store, tree.resolve(), rep * 10 + i, not a.no_server)
                    out["kwbuild"].append(res)
                    print("kwbuild", json.dumps(res), flush=True)
        if a.what == "restore":
            out["restore"] = restore_bench(tmp, a.store)
            print("restore", json.dumps(out["restore"]), flush=True)
    if a.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
