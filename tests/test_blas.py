"""memengine.blas: a warm recall process runs BLAS on one thread, with bit-identical products.

In a subprocess: the limit is process-wide, and the products must be compared before and
after it in one process (a matrix large enough that OpenBLAS splits it over threads).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SCRIPT = """
import json, numpy as np
from threadpoolctl import threadpool_info
rng = np.random.default_rng(5)
rows = rng.integers(-127, 128, size=(20000, 384), dtype=np.int8).astype(np.float32)
q = rng.standard_normal(384).astype(np.float32)
before = rows @ q
from memengine.blas import one_thread
ok = one_thread()
after = rows @ q
print(json.dumps({"ok": ok, "again": one_thread(), "same": bool((before == after).all()),
                  "threads": [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]}))
"""


def test_one_thread_keeps_products_bit_identical() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["ok"] and got["again"]
    assert got["threads"] and all(n == 1 for n in got["threads"])
    assert got["same"]
