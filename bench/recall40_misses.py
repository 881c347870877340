"""Issue 19, round 40: every evidence turn of held-outs 37 and 35 outside the first five (and ten), classed —
round 37's classifier (bench/recall37_misses.py) with held-out 37 added.

    python bench/recall40_misses.py --reuse /tmp/recall40 --sets 37,35 --list   # stores under DIR/h37, DIR/h35
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import recall37_misses  # noqa: E402

recall37_misses.SETS.setdefault("37", ("realchat_heldout37", "h37"))
recall37_misses.SETS.setdefault("31", ("realchat_heldout31", "h31"))

if __name__ == "__main__":
    raise SystemExit(recall37_misses.main(sys.argv[1:] or ["--reuse", "/tmp/recall40", "--sets", "37,35"]))
