"""Lead, session 14: fixes found by the lead's review and probes; each test fails on the commit before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_recall_over_notes_imports_no_brief_module(tmp_path: Path) -> None:
    # The notes step (recall.notes -> updates._stems) read the brief's stop words and fillers from summarize and
    # topic_names, so every cold recall over a store of notes imported the brief's modules (~20 ms of a CLI call on
    # a slow host). The words live in memengine.text now; the set is the same.
    db = tmp_path / "notes.db"
    env = {**os.environ, "MEM_DB": str(db), "MEM_EMBEDDER": "hash"}
    for note in ("Flour for the bakery comes from Marriage's: delivered every Monday, order by Friday noon.",
                 "Marriage's moved the cut-off: flour orders for Monday delivery must be in by Thursday 5pm.",
                 "Sofia prefers morning meetings"):
        subprocess.run([sys.executable, str(ROOT / "mem.py"), "store", note], env=env, check=True,
                       capture_output=True)
    mem_py = str(ROOT / "mem.py")
    probe = ("import runpy, sys\n"
             "sys.argv = ['mem.py', '--json', 'recall', 'when do I have to order flour?']\n"
             f"try:\n    runpy.run_path({mem_py!r}, run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "print('LOADED', sorted(m for m in sys.modules if m in ('memengine.summarize', 'memengine.topic_names')),"
             " file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=ROOT)
    reply = json.loads(out.stdout)
    assert reply["ok"] and [r["id"] for r in reply["data"]["results"]] == [2, 1, 3]
    assert "LOADED []" in out.stderr


def test_summarize_stopwords_are_recall_words_and_talk_words() -> None:
    from memengine import summarize
    from memengine.text import STOPWORDS, TALK_STOPWORDS

    assert summarize.STOPWORDS == STOPWORDS | TALK_STOPWORDS and len(summarize.STOPWORDS) == 336
    assert {"yeah", "thanks", "went", "today"} <= TALK_STOPWORDS and not TALK_STOPWORDS & {"flight", "lisbon"}
