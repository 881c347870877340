"""``count_words`` (one anchored match of the first ``cap`` words, issue 21) counts exactly as the
head-of-text ``findall`` it replaced: the reference below is that version, verbatim, run on texts
built to trip a word count (apostrophes, underscores, digits, combining marks, CJK, long words,
words cut where the old head ended) and on random mixes of such characters."""

from __future__ import annotations

import itertools
import random

import pytest

from memengine.recall.priors import replies
from memengine.records import Candidate
from memengine.text import TOKEN_RE, count_words


def _count_before(text: str, cap: int) -> int:
    head = text[: cap * 32]
    n = len(TOKEN_RE.findall(head))
    if n < cap and len(head) < len(text):
        n = sum(1 for _ in itertools.islice(TOKEN_RE.finditer(text), cap))
    return min(n, cap)


TEXTS = ["", " ", "word", "[2024-05-01 10:00] Ana: Did you see the concert? It was great!",
         "don't stop’s it's o'clock 'quoted' ’tis", "snake_case and __dunder__ names_", "٣٤٥ 12th 2024 1st",
         "cafe\u0301 nai\u0308ve re\u0301sume\u0301", "日本語のテキスト と English words", "a" * 5000,
         "x " * 19 + "y" * 700, "x " * 19 + "y" * 700 + " z", "word " * 19, "word " * 20, "word " * 21,
         "-" * 640 + " one two", ("w" * 31 + " ") * 25, "\n\n\t  leading space then words " * 3]


@pytest.mark.parametrize("cap", [1, 2, 5, 20, 64])
def test_count_words_equals_the_head_findall(cap: int) -> None:
    rng = random.Random(cap)
    alphabet = ["a", "é", "_", "1", "'", "’", " ", ".", "-", "\n", "ß", "日", "٣", "\u0301", "x", "?"]
    texts = TEXTS + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200))) for _ in range(3000)]
    for text in texts:
        assert count_words(text, cap) == _count_before(text, cap), (text[:80], cap)


def test_reply_prior_reads_the_question_mark_in_the_bare_text() -> None:
    # a "?" only in the turn's [stamp] or author label is no question; one in its words is
    def turn(i: int, content: str, author: str = "Ana") -> Candidate:
        return Candidate((i, content, author, "t", i, "2024-05-01T10:00:00", "{}", 1.0, 0.5))

    rows = {1: turn(1, "[what?] Ana: we met"), 2: turn(2, "fine"), 3: turn(3, "Ana: where did we meet?"),
            4: turn(4, "at the pier"), 5: turn(5, "no question here"), 6: turn(6, "ok")}
    assert replies(rows) == {4: 3}
