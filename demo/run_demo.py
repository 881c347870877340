#!/usr/bin/env python3
"""The demo: import a small sample the team wrote, then recall from it like an agent would.

Runs the real CLI in subprocesses against a fresh memory file (demo/demo.db), using the
local MiniLM model: nothing leaves the machine.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DB = HERE / "demo.db"


def mem(*args: str) -> dict:
    """Run one CLI command and return its JSON envelope."""
    proc = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(DB), "--json", *args],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"demo failed: mem.py {' '.join(args)}: {proc.stdout or proc.stderr}")
    return json.loads(proc.stdout)


def main() -> None:
    for p in DB.parent.glob(DB.name + "*"):
        p.unlink()
    imported = mem("import", "jsonl", str(HERE / "sample.jsonl"))["data"]
    print(f"imported {imported['memories_added']} memories from demo/sample.jsonl into {DB}")
    again = mem("import", "jsonl", str(HERE / "sample.jsonl"))["data"]
    print(f"re-import is idempotent: {again['memories_added']} added, {again['skipped_duplicates']} already present\n")
    # the same owner as the imported notes ("demo"): a newer value supersedes the old fact (kept,
    # restorable, reachable with --history), or, when the older says more than the value, marks it probably
    # outdated; from another source both would stay, as a contradiction
    stored = mem("store", "Oscar moved the weekly planning to Tuesdays", "--type", "semantic",
                 "--source", "demo")["data"]
    old = ", ".join(f"#{i}" for i in stored.get("supersedes", []))
    # a probable update (the older says more than the day: the room, the printout) keeps both, the newer first
    maybe = ", ".join(f"#{i}" for i in stored.get("may_update") or [])
    print(f"stored a new fact as #{stored['id']}" + (f", superseding {old} (see recall --history)" if old else "")
          + (f", probably updating {maybe} (both kept; recall ranks the newer first and marks the older)"
             if maybe else "") + "\n")
    for query in ("when is the weekly planning?", "when does Oscar like to meet?", "error 0x8007045D", "how do I restart the gateway?",
                  "what caused the outage in March?", "food allergies", "what happened on 12 March?"):
        res = mem("recall", query, "-k", "3", "--no-touch")["data"]
        print(f"recall {query!r}  ({res['count']} results)")
        for r in res["results"]:
            later = ", ".join(f"#{i}" for i in r.get("possibly_outdated_by") or [])
            print(f"  #{r['id']:<3} {r['score']:.3f}  [{r['memory_type']}] {r['content'][:90]}"
                  + (f"  (maybe outdated by {later})" if later else ""))
        print()
    stats = mem("stats")["data"]
    print(f"{stats['memories']} memories, {stats['vectors']} vectors, model {stats['embedding_model']}, "
          f"{stats['size_bytes']:,} bytes on disk")
    # `mem` once installed (pip install .); else python3 mem.py, which runs itself in .venv
    command = "mem" if shutil.which("mem") else "python3 mem.py"
    print(f"try it yourself:  {command} --db {DB.relative_to(ROOT)} recall \"deploy rules\"")


if __name__ == "__main__":
    main()
