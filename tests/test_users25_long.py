"""users25 findings 18-20: what an agent pipes into ``mem.py store -`` is sometimes long and odd.

* 18 (high): a long note stored again with a new paragraph at its end was merged into the old one
  ("near-duplicate (cosine 1.000)": the model reads the first 256 word pieces only) and the paragraph was lost;
  a long text is a near-duplicate now only when it says no word the older does not (memengine/writes.py).
* 19 (medium): a 200 KB word (a blob, a minified line) in a store holding a fact took minutes: a pattern
  tried at every letter backtracked over the rest (memengine/fact_migrated.py).
* 20 (medium): 400 digits in a row failed the store with exit 70 (float infinity read as an amount,
  memengine/fact_swap.py).

Real subprocesses on real files; a subprocess's timeout only guards against the old hang."""

from __future__ import annotations

import json
import random
from pathlib import Path

from conftest import run_cli_subprocess


def _store(db: Path, text: str, *args: str, env: dict[str, str] | None = None) -> dict:
    proc = run_cli_subprocess("--db", str(db), "store", "-", *args, input=text, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["data"]


def test_a_long_note_with_a_new_paragraph_is_not_merged_into_the_old(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = ("the team decided to move the release because the integration tests kept failing on the staging "
             "cluster and nobody could reproduce it locally so we paused").split()
    journal = "\n\n".join(f"Day {i + 1}: " + " ".join(rng.choice(words) for _ in range(60)) + "." for i in range(12))
    later = journal + "\n\nDay 13: we ship on Friday 12 December; Maria owns the rollback plan."
    db, model = tmp_path / "m.db", {"MEM_EMBEDDER": "onnx"}  # (the model reads a prefix: the hash fake reads all)
    first = _store(db, journal, "--tag", "journal", env=model)
    second = _store(db, later, "--tag", "journal", env=model)
    assert (second["deduplicated"], second["id"]) == (False, first["id"] + 1)
    assert _store(db, later, env=model) == {**second, "deduplicated": True, "dedup_reason": "identical"}
    got = run_cli_subprocess("--db", str(db), "get", str(second["id"]), env=model)
    assert json.loads(got.stdout)["data"]["content"].endswith("Maria owns the rollback plan.")


def test_a_200kb_word_is_stored_beside_a_fact(tmp_path: Path) -> None:
    db, model = tmp_path / "m.db", {"MEM_EMBEDDER": "onnx"}  # (the fake's vectors find no candidate fact to compare)
    _store(db, "Oscar likes green tea", env=model)
    out = _store(db, "b" * 200_000, env=model)
    assert (out["id"], out["deduplicated"]) == (2, False)


def test_four_hundred_digits_are_stored_not_a_bug(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _store(db, "The gate code is 4471")
    for text in ("7" * 400, "the price is " + "9" * 400 + " euros now", "meeting at " + "9" * 400 + ":30 now"):
        assert _store(db, text)["deduplicated"] is False
