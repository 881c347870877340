"""WhatsApp parse cost per 100k messages, this tree against a base ref, A/B interleaved.

Only the parser (``importers.whatsapp.parse``, both of its passes, every record built): no store,
no embedding. Each measurement is a fresh subprocess that imports the tree's ``importers`` and
reports its process CPU time for one full parse; the trees alternate (base, this, base, this ...)
so load drifts hit both alike. Two generated chats: Android 24-hour (``dd/mm/yyyy, HH:MM - ``)
and iOS 12-hour with U+202F before ``PM`` and U+200E-led media lines (the 12-hour marker path).

Usage::

    python bench/wa_parse_speed.py [--base REF] [--messages 100000] [--rounds 5] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.import_speed import base_tree, gen_whatsapp  # noqa: E402

_PROBE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from importers import ImportReport, whatsapp
path = sys.argv[2]
t = time.process_time()
n = sum(1 for _ in whatsapp.parse(path, ImportReport(path, "whatsapp")))
print(time.process_time() - t, n)
"""


def gen_ios_12h(path: Path, n: int) -> Path:
    """An iOS-layout chat of ``n`` messages: 12-hour clock, U+202F before AM/PM, a media line in 20."""
    t = datetime(2022, 3, 1, 8, 0, 0)
    lines = []
    for i in range(n):
        t += timedelta(hours=5) if i % 40 == 0 else timedelta(seconds=97)
        who = ("Ana García", "Bea", "+34 600 123 456")[i % 3]
        stamp = f"[{t.month}/{t.day}/{t:%y}, {t.hour % 12 or 12}:{t:%M:%S}\u202f{'PM' if t.hour >= 12 else 'AM'}]"
        text = "\u200eimage omitted" if i % 20 == 19 else f"message {i} about the trip, see you tomorrow maybe"
        lines.append(f"{stamp} {who}: {text}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def measure(tree: Path, chat: Path) -> tuple[float, int]:
    """(process CPU seconds, records) of one parse of ``chat`` by ``tree``'s importers."""
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tree), str(chat)], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}).stdout.split()
    return float(out[0]), int(out[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="HEAD~1", help="git ref of the tree to compare with (default HEAD~1)")
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="wa-parse-"))
    work.mkdir(parents=True, exist_ok=True)
    base = base_tree(work, args.base)
    chats = {"android 24h": gen_whatsapp(work / "android.txt", args.messages),
             "ios 12h": gen_ios_12h(work / "ios.txt", args.messages)}
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'chat':<12} {'tree':<6} {'records':>8} {'CPU s min':>10} {'CPU s median':>13} {'per 100k msgs':>14}")
    for label, chat in chats.items():
        runs: dict[str, list[float]] = {"base": [], "this": []}
        counts: dict[str, int] = {}
        for _ in range(args.rounds):
            for name, tree in (("base", base), ("this", REPO)):
                cpu, n = measure(tree, chat)
                runs[name].append(cpu)
                counts[name] = n
        for name in ("base", "this"):
            best, med = min(runs[name]), statistics.median(runs[name])
            print(f"{label:<12} {name:<6} {counts[name]:>8} {best:>10.2f} {med:>13.2f} "
                  f"{best * 100_000 / args.messages:>14.2f}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
