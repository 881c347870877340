"""The brief's faster information count gives the same counts as the per-line one (memengine/brief.py)."""

from __future__ import annotations

import random

from memengine import brief

WORDS = ["Ana", "ana", "The", "the", "Lisbon", "lisbon", "flight", "Flight", "lands", "18:40", "3rd", "2026",
         "Kepler", "I", "we", "ok", "haha", "rounding", "Rounding", "invoice", "Invoices", "x2", "v2.14.0", "ÉTÉ",
         "été", "Straße", "Mia's", "O'Neil", "#billing-alerts", "pg-stage-4"]
SEPS = [" ", " ", " ", ". ", "! ", ": ", ", ", "\n", "\n  ", " — ", "? ", "… "]


def _text(rng: random.Random) -> str:
    out = []
    for _ in range(rng.randint(1, 25)):
        out.append(rng.choice(WORDS))
        out.append(rng.choice(SEPS))
    return "".join(out).strip()


def test_information_counts_as_informative_words_does() -> None:
    rng = random.Random(7)
    texts = [_text(rng) for _ in range(2000)] + ["", "Ana", "ana Ana. Ana", "Flight. flight Flight"]
    rare_words = {"lisbon", "kepler", "rounding", "invoices", "été", "straße"}

    def rare(w: str) -> bool:
        return w in rare_words

    assert brief.information(texts, rare) == [brief.informative_words(t, rare)[0] for t in texts]
    # a name-like word counts inside a sentence, not at its start, unless it is also rare
    assert brief.information(["Flight to Lisbon. Flight Kepler", "Rounding, then Rounding"], rare) == [2, 1]
