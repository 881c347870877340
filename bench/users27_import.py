"""users27: a years-long WhatsApp export imported through the real CLI, then next month's export of the same
chat saved under another name (the old messages and 1 % new ones). Prints, for each run, the child's CPU
seconds, its peak RSS, messages added and skipped as duplicates. CPU, not wall time: the machine is shared.

    .venv/bin/python bench/users27_import.py [--messages 20000] [--embedder hash|default]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = ["Ana Souza", "Bruno", "Mãe", "Carla Dias"]
SAID = ["ok", "see you at 7", "did you pay the rent?", "the dentist moved my appointment to Thursday", "lol",
        "can you pick up milk", "flight lands 18:40 at gate B12", "new wifi password is tangerine42",
        "the car is at the mechanic until Friday", "rent is going up to 2300 next month", "call me when you can"]


def chat(n: int, seed: int = 1) -> list[str]:
    """``n`` Android-layout WhatsApp lines from 2019 on, a message every 1-120 minutes."""
    rnd, t, out = random.Random(seed), datetime(2019, 1, 1, 8, 0), []
    for i in range(n):
        t += timedelta(minutes=rnd.randint(1, 120))
        text = rnd.choice(SAID) + ("" if rnd.random() < 0.7 else f" #{i}")
        out.append(f"{t:%d/%m/%Y, %H:%M} - {rnd.choice(PEOPLE)}: {text}")
    return out


def run(db: Path, path: Path, env: dict[str, str]) -> dict[str, float]:
    """One import in a child process: its CPU seconds, peak RSS (MB) and the summary's counts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, str(ROOT / "mem.py"), "--db", str(db), "import", "whatsapp", str(path)],
                          capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    data = json.loads(proc.stdout)["data"]
    return {"cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "peak_rss_mb": round(after.ru_maxrss / 1024), "added": data["memories_added"],
            "duplicates": data["skipped_duplicates"], "episodes": data["episodes"], "warnings": len(data["warnings"])}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=20000)
    ap.add_argument("--embedder", default="hash", help="hash (fast, for counts) or default (the real model)")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if args.embedder != "default":
        env["MEM_EMBEDDER"] = args.embedder
    lines = chat(args.messages)
    more = [f"{datetime(2031, 1, 1) + timedelta(hours=i):%d/%m/%Y, %H:%M} - Ana Souza: new after the import {i}"
            for i in range(max(1, args.messages // 100))]
    with tempfile.TemporaryDirectory() as tmp:
        first, second, db = Path(tmp, "ana-2024-12.txt"), Path(tmp, "ana-2025-01.txt"), Path(tmp, "m.db")
        first.write_text("\n".join(lines) + "\n", encoding="utf-8")
        second.write_text("\n".join(lines + more) + "\n", encoding="utf-8")
        print(f"load: {os.getloadavg()[0]:.1f}; {args.messages} messages, embedder {args.embedder}")
        print("first import      ", run(db, first, env))
        print(f"renamed re-export (+{len(more)} new)", run(db, second, env))


if __name__ == "__main__":
    main()
