"""Time the sensitivity scorer on 100 kB adversarial inputs (the bars the tests used to assert).

    .venv/bin/python bench/sensitivity_speed.py

Prints, per input, the best of three timings and the bar: random text under 1.0 s, inputs aimed
at each detector's quantifiers under 1.5 s (a super-linear blow-up would take minutes).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_sensitivity import _pathological_texts, _random_texts  # noqa: E402

from memengine.sensitivity import score  # noqa: E402


def best_of(text: str, rounds: int = 3) -> float:
    """Best wall time of `rounds` calls of score(text), in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        score(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    print("| input (first 20 chars) | kind | best of 3 (s) | bar (s) | ok |")
    print("|---|---|---|---|---|")
    failed = 0
    for kind, bar, texts in (("random", 1.0, _random_texts()), ("pathological", 1.5, _pathological_texts())):
        for text in texts:
            t = best_of(text)
            ok = t < bar
            failed += not ok
            print(f"| `{text[:20]!r}` | {kind} | {t:.3f} | {bar} | {'yes' if ok else 'NO'} |")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
