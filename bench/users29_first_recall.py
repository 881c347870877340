"""users29: what the first `recall` after install costs on an empty store (users27 #9), in CPU seconds.

Each run is a fresh interpreter with fresh XDG cache/data folders (so the int8 model is prepared anew, as on a
new machine), the published model package as installed. Prints the child's user+sys CPU seconds and whether it
printed the "preparing the int8 model" line; then the same for the first `store` (which needs the model anyway).
Usage: .venv/bin/python bench/users29_first_recall.py [RUNS]
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu_of(args: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, str(ROOT / "mem.py"), *args], capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.returncode, proc.stderr


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    for i in range(runs):
        with tempfile.TemporaryDirectory(prefix="u29-first-") as tmp:
            env = {k: v for k, v in os.environ.items() if k not in ("MEM_EMBEDDER", "MEM_DB")}
            env.update(XDG_CACHE_HOME=f"{tmp}/cache", XDG_DATA_HOME=f"{tmp}/data", MEM_NO_SERVER="1")
            for label, args in (("recall on the empty store", ["recall", "what did Ana say about the trip?"]),
                                ("first store", ["store", "Ana booked the train to Leeds"]),
                                ("recall after it", ["recall", "what did Ana say about the trip?"])):
                cpu, rc, err = _cpu_of(args, env)
                prep = "preparing the int8 model" in err
                print(f"run {i + 1}: {label:28} exit {rc}  {cpu:5.2f} CPU-s  model prepared: {prep}")
    print(f"load: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
