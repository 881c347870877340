"""A million memories on one ordinary machine (issue 22): every figure of the issue, per store size, in one run.

    .venv/bin/python bench/scale.py --reuse /tmp/scale                       # 10k, 100k, 300k, 1M
    .venv/bin/python bench/scale.py --reuse /tmp/scale --sizes 10000,100000  # quicker (~15 min)
    .venv/bin/python bench/scale.py --reuse /tmp/scale --sizes 1000000 --only warm,cold  # some measurements

For each size N it builds (or reuses, ``--reuse DIR``) a store of N chat turns and prints one
table: warm hybrid recall p50/p95 (in process, keyword index and vectors in memory, real query
embedding), cold CLI recall (a new ``mem.py`` process per query), the model-free commands cold
(stats, get, forget, restore, pin, graph, browse), consolidate (first run and rerun, on a copy),
import messages/s into a copy of the store (a WhatsApp chat and a ChatGPT export, real model),
disk bytes per memory (file + WAL after a checkpoint) and the peak RSS of each process, each next
to the issue's aim with PASS/FAIL.

**The data.** Real text: the LoCoMo dev turns (``../shared/data/locomo``, read at run time, never
copied into the repo), copied until there are N, one thread per copied conversation, with the
two speakers renamed in every copy (names drawn from a list, in the text and as author) so the
people list and vocabulary grow as in a real history. Queries are the LoCoMo questions.

**The vectors are derived, not embedded** (embedding 1M texts takes ~1 h on 2 cores): each
distinct LoCoMo turn is embedded once by the real model (cached in DIR), and copy c stores
that vector under a fixed random signed permutation of its dimensions (copy 0: the real vector).
Within a copy every cosine is the real one (so consolidate finds real clusters, and copy 0
answers the questions as LoCoMo does); across copies vectors are unrelated, as different
conversations are. Writes go through the engine's bulk path (``store_many``, as imports), via
bench/latency.py's ``build_db``.

Each measurement runs in its own process (so each peak RSS is that measurement's own); cold
timings need the bytecode compiled as ``make setup`` does (done here first). Aims: warm p95
<= 20 ms up to 100k and <= 40 ms above; cold recall <= 0.5 s up to 100k; model-free commands
<= 0.15 s; consolidate <= 60 s at 100k (10 s at 10k, linear above 100k); import >= 150 msg/s;
<= 2,500 bytes per chat turn. Numbers move with load: the 1-minute load average is printed at
the start and end of every size.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import DEFAULT_LOCOMO, REPO, CachingEmbedder, load_locomo, log, md_table, percentile  # noqa: E402
from bench.latency import build_db, checkpoint, db_bytes, locomo_corpus, recall_latency  # noqa: E402
from memory_core import MemoryStore, NewMemory  # noqa: E402

SIZES = (10_000, 100_000, 300_000, 1_000_000)
LAYOUT = 1  # bump when the data changes: part of the store file names, so --reuse rebuilds
NAMES = """Aaliyah Abebe Adaeze Ahmed Aiko Akira Alejandro Amara Amina Anders Anika Aroha Astrid Aylin Babajide
Beatriz Bjorn Camila Chen Chiamaka Chloe Dario Dmitri Elif Emeka Esra Farah Felipe Fatima Freya Gabriel Giulia
Hana Hamid Ines Ingrid Isabela Ivan Jamal Javier Jin Joaquin Kaito Kamala Karim Keanu Kenji Kofi Lars Leila Liam
Lucia Lukas Mahnoor Malik Marco Mariam Mateo Mei Mikael Nadia Naveen Nia Nikolai Noor Olga Omar Oscar Paulo Pedro
Priya Quentin Rafael Rania Ravi Rin Rosa Sana Santiago Sekou Sofia Soren Sunita Tariq Thandiwe Tomas Uma Valentina
Vikram Wanjiru Xavier Yara Yusuf Zainab Zanele Zhang Zoe""".split()
AIMS = {"cli_small_s": 0.15, "cli_recall_s": 0.5, "import_msg_s": 150.0, "bytes_per_memory": 2500.0}
CLI_SMALL = ("stats", "get", "forget", "restore", "pin", "graph", "browse")
MEASURES = ("warm", "cold", "consolidate", "import")  # what --only can choose


def warm_aim_ms(n: int) -> float:
    return 20.0 if n <= 100_000 else 40.0


def consolidate_aim_s(n: int) -> float:
    return 10.0 if n <= 10_000 else 60.0 * max(1.0, n / 100_000)


# --------------------------------------------------------------------------- data and derived vectors

def corpus(n: int) -> list[NewMemory]:
    """``n`` LoCoMo turns (bench/latency.py's copies); in each copy after the first the two speakers get
    new names, in every turn's text and as author."""
    items, _ = locomo_corpus(n)
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    speakers = {c.sample_id: sorted({t.speaker for t in c.turns}) for c in convs}
    rng = np.random.default_rng(17)
    renames: dict[str, tuple[dict[str, str], re.Pattern[str]]] = {}  # thread -> (old -> new, pattern)
    out = []
    for it in items:
        copy, sample = (it.thread or "0/").split("/", 1)
        if copy == "0":
            out.append(it)
            continue
        if it.thread not in renames:
            old = speakers[sample]
            new = dict(zip(old, (str(x) for x in rng.choice(NAMES, size=len(old), replace=False))))
            renames[str(it.thread)] = (new, re.compile(r"\b(" + "|".join(map(re.escape, old)) + r")\b"))
        new, pattern = renames[str(it.thread)]
        out.append(replace(it, content=pattern.sub(lambda m, new=new: new[m.group(1)], it.content),
                           author=new.get(it.author or "", it.author)))
    return out


def base_vectors(directory: Path, real: Any) -> dict[str, np.ndarray]:
    """The real vector of every LoCoMo turn (keyed by ``ref`` without its copy), embedded once and cached."""
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    first, _ = locomo_corpus(sum(len(c.turns) for c in convs))  # copy 0: every turn once, original text
    cacher = CachingEmbedder(real, directory / f"locomo-turns.{real.model_id}.npz")
    vecs = cacher.embed([it.content for it in first])
    if cacher.misses:
        cacher.save()
        log(f"embedded {cacher.misses} LoCoMo turns with the real model (cached in {cacher.path})")
    return {(it.ref or "").split("/", 1)[1]: v for it, v in zip(first, vecs)}


class DerivedEmbedder:
    """The real model for queries; while building, the derived vector of each stored item, in write order.

    ``store_many`` embeds each batch's new items in order; the expected contents are checked, so a
    write path that skipped or reordered items fails loudly instead of storing wrong vectors.
    """

    def __init__(self, real: Any, items: list[NewMemory], base: dict[str, np.ndarray]) -> None:
        self.real, self.model_id, self.dims = real, real.model_id, real.dims
        self.items, self.base = items, base
        self.cursor = 0
        self.storing = True
        self._perms: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def _derived(self, it: NewMemory) -> np.ndarray:
        copy, turn = (it.ref or "").split("/", 1)
        v = self.base[turn]
        if copy == "0":
            return v
        if copy not in self._perms:
            rng = np.random.default_rng(1000 + int(copy))
            self._perms[copy] = (rng.permutation(self.dims), rng.choice(np.array([-1.0, 1.0], np.float32), self.dims))
        perm, sign = self._perms[copy]
        return v[perm] * sign

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        if not self.storing:
            return self.real.embed(texts, batch_size)
        todo = self.items[self.cursor : self.cursor + len(texts)]
        if [it.content for it in todo] != texts:
            raise RuntimeError(f"derived vectors out of step at item {self.cursor}")
        self.cursor += len(texts)
        return np.stack([self._derived(it) for it in todo]).astype(np.float32)


def store_path(directory: Path, n: int) -> Path:
    return directory / f"scale-{n}.v{LAYOUT}.db"


# --------------------------------------------------------------------------- child processes

def child_build(n: int, path: Path) -> dict[str, Any]:
    """Build (or reuse) the store of ``n`` turns; its build time, size on disk and bytes per memory."""
    from embedder import OnnxEmbedder

    real = OnnxEmbedder()
    items = corpus(n)
    emb = DerivedEmbedder(real, items, base_vectors(path.parent, real))
    store, took = build_db(path, n, emb, reuse=True, seed=0, items=items)
    checkpoint(store)
    count = store.conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    store.close()
    size = db_bytes(path)
    return {"build_s": None if took is None else round(took, 1), "memories": count, "bytes": size,
            "bytes_per_memory": round(size / count, 1)}


def queries(limit: int) -> list[str]:
    convs, _ = load_locomo(DEFAULT_LOCOMO)
    return [q.question for c in convs for q in c.questions if q.category in (1, 2, 3, 4)][:limit]


def child_warm(path: Path, nq: int) -> dict[str, Any]:
    """Warm in-process hybrid recall (keyword index and vector matrices loaded first)."""
    from embedder import OnnxEmbedder

    store = MemoryStore(path, embedder=OnnxEmbedder(), keyword_index=True)
    t0 = time.perf_counter()
    warm = store.warm_up()
    warm_s = time.perf_counter() - t0
    res = recall_latency(store, queries(nq), runs=3)
    store.close()
    return {**res, "warm_up_s": round(warm_s, 1), "warm_up": warm, "queries": nq}


def child_consolidate(path: Path) -> dict[str, Any]:
    """consolidate twice on ``path`` (a copy): first run and rerun, with the phases of each."""
    from embedder import OnnxEmbedder
    from memengine import consolidate

    store = MemoryStore(path, embedder=OnnxEmbedder())
    last = store.conn.execute("SELECT max(event_at) FROM memories").fetchone()[0]
    now = datetime.fromisoformat(last) + timedelta(days=1)
    out: dict[str, Any] = {}
    for run in ("first", "rerun"):
        t0 = time.perf_counter()
        rep = consolidate.run(store, now=now, keep_backups=1)
        out[run] = {"s": round(time.perf_counter() - t0, 1), "phases": {p.name: round(p.seconds, 1) for p in rep.phases},
                    "counts": rep.counts()}
        log(f"  consolidate {run}: {out[run]['s']} s {out[run]['phases']}")
    store.close()
    return out


def run_child(args: list[str], timeout: float | None = None) -> dict[str, Any]:
    """Run ``scale.py --child ...`` and return its JSON result plus its own peak RSS (MB) and wall time."""
    with tempfile.TemporaryDirectory(prefix="scale-child-") as tmp:
        out = Path(tmp) / "out.json"
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, __file__, "--child", str(out), *args], env=_env())
        try:
            _, status, ru = wait4(proc, timeout)
        except TimeoutError:
            proc.kill()
            os.wait4(proc.pid, 0)
            return {"error": f"stopped after {timeout:.0f} s"}
        wall = time.perf_counter() - t0
        if status != 0 or not out.exists():
            return {"error": f"exit {os.waitstatus_to_exitcode(status)}"}
        res: dict[str, Any] = json.loads(out.read_text())
    res["peak_rss_mb"] = round(ru.ru_maxrss / 1024)
    res["child_wall_s"] = round(wall, 1)
    res["child_cpu_s"] = round(ru.ru_utime + ru.ru_stime, 1)
    return res


def wait4(proc: subprocess.Popen[Any], timeout: float | None) -> tuple[int, int, Any]:
    """``os.wait4`` with a timeout (polling): the child's exit status and its own resource usage."""
    if timeout is None:  # block: a polling sleep would round every cold wall time up to its step
        pid, status, ru = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return pid, status, ru
    deadline = time.monotonic() + timeout
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return pid, status, ru
        if time.monotonic() > deadline:
            raise TimeoutError
        time.sleep(0.05)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MEM_EMBEDDER"}  # the real model everywhere
    env["MEM_NO_SERVER"] = "1"  # cold calls are cold: never handed to a warm server
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return env


# --------------------------------------------------------------------------- cold CLI

def cold(db: Path, argv: list[str]) -> tuple[float, float, int, str, float]:
    """One ``mem.py --db db --json argv`` in a new process: (wall s, peak RSS MB, exit code, stdout, CPU s)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, str(REPO / "mem.py"), "--db", str(db), "--json", *argv],
                                stdout=out, stderr=err, env=_env(), cwd=str(REPO))
        _, status, ru = wait4(proc, None)
        wall = time.perf_counter() - t0
        out.seek(0)
        return (wall, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), out.read().decode(),
                ru.ru_utime + ru.ru_stime)


def cli_timings(db: Path, nq: int, runs: int) -> dict[str, Any]:
    """Cold recall over ``nq`` questions, and each model-free command ``runs`` times (OS page cache warm)."""
    qs = queries(nq)
    cold(db, ["stats"])  # page cache and bytecode warm, as for any repeated use
    rec, rss, cpu = [], [], []
    for q in qs:
        wall, mb, rc, out, c = cold(db, ["recall", q, "-k", "10"])
        if rc != 0:
            return {"error": f"recall exit {rc}: {out[:300]}"}
        rec.append(wall)
        rss.append(mb)
        cpu.append(c)
    res: dict[str, Any] = {"recall": {"p50_s": round(percentile(rec, 50), 3), "p95_s": round(percentile(rec, 95), 3),
                                      "cpu_p50_s": round(percentile(cpu, 50), 3),
                                      "peak_rss_mb": round(max(rss)), "runs": len(rec)}}
    with MemoryStore(db, embedder=None) as s:  # ids that exist, and an active one to forget and restore
        mid = int(s.conn.execute("SELECT max(id) FROM memories WHERE status = 'active' AND level = 0").fetchone()[0])
    argvs = {"stats": ["stats"], "get": ["get", str(mid)], "forget": ["forget", str(mid)],
             "restore": ["restore", str(mid)], "pin": ["pin", str(mid)], "graph": ["graph", str(mid)],
             "browse": ["browse"]}
    for name in CLI_SMALL:
        times, cpus = [], []
        for _ in range(runs):
            wall, mb, rc, out, c = cold(db, argvs[name])
            if rc != 0:
                res[name] = {"error": f"exit {rc}: {out[:200]}"}
                break
            times.append(wall)
            cpus.append(c)
            if name in ("forget", "pin"):
                cold(db, ["restore" if name == "forget" else "unpin", str(mid)])
        else:
            res[name] = {"p50_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
                         "cpu_p50_s": round(statistics.median(cpus), 3), "peak_rss_mb": round(mb)}
    return res


# --------------------------------------------------------------------------- one size

def copy_store(src: Path, dst: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(dst) + suffix).unlink(missing_ok=True)
    with MemoryStore(src, embedder=None) as s:  # one file: everything checkpointed into it
        checkpoint(s)
    shutil.copyfile(src, dst)


def measure(n: int, directory: Path, args: argparse.Namespace) -> dict[str, Any]:
    r: dict[str, Any] = {"n": n, "load_start": round(os.getloadavg()[0], 2)}
    path = store_path(directory, n)
    log(f"== {n:,} memories: building / opening {path} ...")
    r["build"] = run_child(["build", str(n), str(path)])
    if "error" in r["build"]:
        raise SystemExit(f"building {path} failed: {r['build']['error']}")
    log(f"  build: {r['build']}")
    only = set(args.only.split(","))
    skipped = {"error": "not run (--only)"}
    if "warm" in only:
        log("  warm recall ...")
        r["warm"] = run_child(["warm", str(path), str(args.queries)])
        log(f"  warm: p50 {r['warm'].get('p50_ms')} ms, p95 {r['warm'].get('p95_ms')} ms")
    else:
        r["warm"] = skipped
    if "cold" in only:
        log("  cold CLI ...")
        r["cli"] = cli_timings(path, args.cold_queries, args.cold_runs)
    else:
        r["cli"] = skipped
    work = directory / f"work-{n}"
    work.mkdir(exist_ok=True)
    copy = work / "copy.db"
    if "consolidate" not in only:
        r["consolidate"] = skipped
    elif n <= args.consolidate_max:
        log("  consolidate (on a copy) ...")
        copy_store(path, copy)
        r["consolidate"] = run_child(["consolidate", str(copy)], timeout=args.consolidate_timeout)
    else:
        r["consolidate"] = {"error": f"not run (--consolidate-max {args.consolidate_max:,})"}
    if args.import_messages and "import" in only:
        from bench.import_speed import gen_chatgpt, gen_whatsapp, import_case

        log("  import into a copy of the store ...")
        if not copy.exists() or "error" in r["consolidate"]:
            copy_store(path, copy)
        wa = gen_whatsapp(work / "WhatsApp Chat with Ana.txt", args.import_messages)
        cg = gen_chatgpt(work / "conversations.json", args.import_messages)
        r["import"] = [import_case(label, p, copy) for label, p in (("whatsapp", wa), ("chatgpt", cg))]
    shutil.rmtree(work, ignore_errors=True)
    r["load_end"] = round(os.getloadavg()[0], 2)
    return r


# --------------------------------------------------------------------------- report

def _pf(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def rows_for(r: dict[str, Any]) -> list[list[Any]]:
    n = r["n"]
    rows: list[list[Any]] = []
    w = r["warm"]
    if "error" in w:
        rows.append(["warm hybrid recall", w["error"], "", "n/a" if w["error"].startswith("not run") else "FAIL"])
    else:
        aim = warm_aim_ms(n)
        rows.append([f"warm hybrid recall p50 / p95 ({w['queries']} LoCoMo questions, median of 3 runs)",
                     f"{w['p50_ms']:.1f} / {w['p95_ms']:.1f} ms", f"p95 ≤ {aim:.0f} ms", _pf(w["p95_ms"] <= aim)])
        if "cpu_p50_ms" in w:
            rows.append(["  CPU per query p50 / p95 (all threads of the process: about the wall time when idle)",
                         f"{w['cpu_p50_ms']:.1f} / {w['cpu_p95_ms']:.1f} ms", "—", "info"])
        rows.append(["  warm-up of that process (keyword index, vectors) / its peak RSS",
                     f"{w['warm_up_s']:.1f} s / {w['peak_rss_mb']:,} MB", "—", "info"])
    cli = r["cli"]
    if "error" in cli:
        rows.append(["cold CLI", cli["error"], "", "n/a" if cli["error"].startswith("not run") else "FAIL"])
    else:
        c = cli["recall"]
        gated = n <= 100_000
        rows.append([f"cold `mem.py --json recall` p50 / p95 ({c['runs']} new processes; CPU p50) / peak RSS",
                     f"{c['p50_s']:.2f} / {c['p95_s']:.2f} s ({c['cpu_p50_s']:.2f} CPU-s) / {c['peak_rss_mb']:,} MB",
                     f"p95 ≤ {AIMS['cli_recall_s']} s" if gated else "— (aim at 100k)",
                     _pf(c["p95_s"] <= AIMS["cli_recall_s"]) if gated else "info"])
        for name in CLI_SMALL:
            x = cli.get(name, {"error": "not run"})
            if "error" in x:
                rows.append([f"cold `mem.py --json {name}`", x["error"], f"≤ {AIMS['cli_small_s']} s", "FAIL"])
                continue
            rows.append([f"cold `mem.py --json {name}` median / max of runs (CPU median)",
                         f"{x['p50_s']:.3f} / {x['max_s']:.3f} s ({x['cpu_p50_s']:.3f} CPU-s)",
                         f"≤ {AIMS['cli_small_s']} s", _pf(x["p50_s"] <= AIMS["cli_small_s"])])
    co = r["consolidate"]
    if "error" in co:
        rows.append(["consolidate first run / rerun", co["error"], f"≤ {consolidate_aim_s(n):.0f} s", "n/a"])
    else:
        aim = consolidate_aim_s(n)
        rows.append(["consolidate first run / rerun (a copy of the store)", f"{co['first']['s']:.1f} / {co['rerun']['s']:.1f} s",
                     f"first ≤ {aim:.0f} s", _pf(co["first"]["s"] <= aim)])
        slow = sorted(co["first"]["phases"].items(), key=lambda kv: -kv[1])[:3]
        rows.append(["  slowest phases of the first run / peak RSS", ", ".join(f"{k} {v:.1f} s" for k, v in slow)
                     + f" / {co['peak_rss_mb']:,} MB", "—", "info"])
    for imp in r.get("import", []):
        rows.append([f"import {imp['case']} into this store: {imp['messages']} messages (wall; CPU {imp['cpu_s']} s, "
                     f"peak RSS {imp['peak_rss_mb']} MB)", f"{imp['messages_per_s']:.0f} msg/s",
                     f"≥ {AIMS['import_msg_s']:.0f} msg/s", _pf(imp["messages_per_s"] >= AIMS["import_msg_s"])])
    b = r["build"]
    rows.append(["disk per memory (file + WAL after checkpoint; every memory a chat turn)",
                 f"{b['bytes_per_memory']:,.0f} B ({b['bytes'] / 2**20:,.0f} MB)", f"≤ {AIMS['bytes_per_memory']:,.0f} B",
                 _pf(b["bytes_per_memory"] <= AIMS["bytes_per_memory"])])
    rows.append(["build (bulk write path, derived vectors): wall, CPU of the process / its peak RSS",
                 ("reused" if b["build_s"] is None else
                  f"{b['build_s']:.0f} s ({n / b['build_s']:.0f}/s), {b['child_cpu_s']:.0f} CPU-s "
                  f"({1000 * b['child_cpu_s'] / n:.2f} ms a memory)") + f" / {b['peak_rss_mb']:,} MB",
                 "1M in < 30 min", "info"])
    return rows


def summary_rows(results: list[dict[str, Any]]) -> list[list[Any]]:
    """One line per size: the issue's figures side by side."""
    out = []
    for r in results:
        w, cli, co, b = r["warm"], r["cli"], r["consolidate"], r["build"]

        def small(name: str, cli: dict[str, Any] = cli) -> str:
            x = cli.get(name, {})
            return f"{x['p50_s']:.2f}" if "p50_s" in x else "—"

        imp = {i["case"].split()[0]: i["messages_per_s"] for i in r.get("import", [])}
        out.append([
            f"{r['n']:,}",
            f"{w['p50_ms']:.0f} / {w['p95_ms']:.0f}" if "p95_ms" in w else "—",
            f"{cli['recall']['p50_s']:.2f} / {cli['recall']['p95_s']:.2f}" if "recall" in cli else "—",
            " / ".join(small(x) for x in ("stats", "get", "forget")),
            f"{co['first']['s']:.0f} / {co['rerun']['s']:.0f}" if "first" in co else "—",
            " / ".join(f"{imp[k]:.0f}" for k in ("whatsapp", "chatgpt") if k in imp) or "—",
            f"{b['bytes_per_memory']:,.0f}",
            " / ".join(str(x.get("peak_rss_mb", "—")) for x in (w, cli.get("recall", {}), co)),
            f"{r['load_start']}–{r['load_end']}",
        ])
    return out


def report(results: list[dict[str, Any]], header: dict[str, Any]) -> None:
    print(f"# mem at scale — {header['cpu']}, {header['cpus']} CPUs; {header['commit']}\n")
    print("Real LoCoMo text (copies, speakers renamed); vectors derived from real ones (see bench/scale.py); "
          "queries are LoCoMo questions.\n")
    print(md_table(["memories", "warm p50 / p95 ms", "cold recall p50 / p95 s", "stats / get / forget s",
                    "consolidate first / rerun s", "import WhatsApp / ChatGPT msg/s", "bytes / memory",
                    "peak RSS MB warm / cold / consolidate", "load"], summary_rows(results)))
    print()
    fails = []
    for r in results:
        print(f"## {r['n']:,} memories (load average {r['load_start']} at the start, {r['load_end']} at the end)\n")
        rows = rows_for(r)
        print(md_table(["measure", "value", "aim", "result"], rows))
        print()
        fails += [f"{r['n']:,} {row[0].strip().split(' (')[0]}" for row in rows if row[3] == "FAIL"]
    print(f"**{len(fails)} aim(s) missed**" + (": " + "; ".join(fails) if fails else ""))


def cpu_line() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "cpu unknown"
    model = next((ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("model name")), "?")
    flags = next((ln.split(":", 1)[1].split() for ln in text.splitlines() if ln.startswith("flags")), [])
    have = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni") if f in flags]
    return f"{model} ({', '.join(have) or 'no avx2'})"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:  # one measurement in its own process (run_child)
        out, what, *rest = argv[1:]
        if what == "build":
            res = child_build(int(rest[0]), Path(rest[1]))
        elif what == "warm":
            res = child_warm(Path(rest[0]), int(rest[1]))
        else:
            res = child_consolidate(Path(rest[0]))
        Path(out).write_text(json.dumps(res, default=str))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=",".join(str(s) for s in SIZES), help="comma list (default: %(default)s)")
    ap.add_argument("--reuse", metavar="DIR", help="keep the stores (and cached vectors) in DIR and reuse them")
    ap.add_argument("--queries", type=int, default=200, help="warm recall queries (default: %(default)s)")
    ap.add_argument("--cold-queries", type=int, default=10, help="cold recall processes (default: %(default)s)")
    ap.add_argument("--cold-runs", type=int, default=5, help="runs of each model-free command (default: %(default)s)")
    ap.add_argument("--consolidate-max", type=int, default=1_000_000, help="largest size consolidated")
    ap.add_argument("--consolidate-timeout", type=float, default=3600, help="seconds before a consolidate is "
                    "stopped and reported as not finished (default: %(default)s)")
    ap.add_argument("--import-messages", type=int, default=3000, help="messages per import case (0: skip)")
    ap.add_argument("--only", default=",".join(MEASURES), help="measurements to run on each store, a comma list "
                    "of %(default)s (the store is always built or reused, and its size measured)")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    unknown = set(args.only.split(",")) - set(MEASURES)
    if unknown:
        ap.error(f"--only: unknown measurement(s) {', '.join(sorted(unknown))} (known: {', '.join(MEASURES)})")
    if not DEFAULT_LOCOMO.exists():
        raise SystemExit(f"{DEFAULT_LOCOMO} not found: this benchmark reads the LoCoMo dev turns from ../shared")
    directory = Path(args.reuse) if args.reuse else Path(tempfile.mkdtemp(prefix="mem-scale-"))
    directory.mkdir(parents=True, exist_ok=True)
    # what `make setup` does: without bytecode every cold call would recompile the engine (~50 ms)
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-x", r"/(\.venv|tests|bench|demo)/", str(REPO)],
                   check=False, env=dict(os.environ, PYTHONDONTWRITEBYTECODE=""))
    commit = subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%h %s"], capture_output=True,
                            text=True).stdout.strip()[:80]
    header = {"cpu": cpu_line(), "cpus": os.cpu_count(), "commit": commit or "?"}
    results = []
    try:
        for n in (int(x) for x in args.sizes.split(",")):
            results.append(measure(n, directory, args))
    finally:
        if results:
            report(results, header)
            if args.json:
                Path(args.json).write_text(json.dumps({"header": header, "sizes": results}, indent=2, default=str))
        if not args.reuse:
            shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
