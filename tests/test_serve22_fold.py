"""serve22: ``fact_lexicon.fold``'s ASCII shortcut folds every word as the full fold does (a cold call's speed only)."""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

from memengine.fact_lexicon import fold

ROOT = Path(__file__).resolve().parent.parent


def _full_fold(word: str) -> str:
    """The fold before the shortcut: NFKD, combining marks dropped, "œ"/"æ" spelled out."""
    w = unicodedata.normalize("NFKD", word.lower())
    w = "".join(ch for ch in w if not unicodedata.combining(ch))
    return w.replace("œ", "oe").replace("æ", "ae") if "œ" in w or "æ" in w else w


def test_every_ascii_pair_folds_as_before() -> None:
    words = ["".join(p) for n in (0, 1, 2) for p in itertools.product(map(chr, range(128)), repeat=n)]
    assert len(words) == 1 + 128 + 128 * 128
    assert [fold.__wrapped__(w) for w in words] == [_full_fold(w) for w in words]


def test_every_word_of_the_engine_source_folds_as_before() -> None:
    words = {w for p in sorted((ROOT / "memengine").rglob("*.py")) for w in p.read_text(encoding="utf-8").split()}
    ascii_words = sorted(w for w in words if w.isascii())
    assert len(ascii_words) > 10_000
    assert [fold.__wrapped__(w) for w in ascii_words] == [_full_fold(w) for w in ascii_words]


def test_words_with_accents_still_fold_in_full() -> None:
    assert [fold.__wrapped__(w) for w in ("Préfère", "sœur", "ÆON", "straße", "ﬁn", "Ⅻ")] == [
        "prefere", "soeur", "aeon", "straße", "fin", "xii"]
