"""Round 49's benches: the right note's rank by one signal, the trigram reading, the weak flag's objective."""

from __future__ import annotations

from bench.recall49_crosslang import fold, grams, rank_by
from bench.recall49_sure import flag, objective


def test_fold_drops_accents_and_case() -> None:
    assert fold("Fotoğrafçı RENOVAÇÃO") == "fotografcı renovacao"  # (Turkish dotless ı is a letter of its own)


def test_grams_read_words_of_four_letters_or_more_padded() -> None:
    assert grams("a pool of 2026") == {" po", "poo", "ool", "ol "}
    assert grams("Renovasi") & grams("renovation") == {" re", "ren", "eno", "nov", "ova"}


def test_rank_by_counts_ties_against_the_evidence() -> None:
    scores = {"a": 0.9, "b": 0.5, "c": 0.5, "d": 0.1}
    assert rank_by(scores, {"a"}) == 1
    assert rank_by(scores, {"c"}) == 3  # "b" ties it and ranks above
    assert rank_by(scores, {"b", "c"}) == 2  # the best evidence note; the other evidence note is no rival
    assert rank_by(scores, {"z"}) is None


def _row(right: bool, sure: float, gap: float, weak: bool = False) -> dict[str, object]:
    return {"right": right, "sure": sure, "gap": gap, "weak": 0.0 if weak else 1.0}


def test_the_flag_adds_the_gap_and_the_objective_needs_recall_and_off_topic_cover() -> None:
    assert flag(0.0, 0.5)(_row(True, 0.4, 1.0)) is True
    assert flag(1.0, 0.5)(_row(True, 0.4, 0.2)) is False  # 0.4 + 0.2 is not under 0.5
    rows = [_row(False, 0.3, 0.0), _row(False, 0.45, 0.0), _row(True, 0.49, 0.0), _row(True, 0.9, 0.0)]
    offs = [_row(False, 0.2, 0.0, weak=True), _row(False, 0.6, 0.0, weak=True)]
    # flags three first hits, two of them wrong (2/3); the off-topic results: one flagged by it, two by today's weak
    assert objective(rows, offs, 0.0, 0.5) == -1.0
    assert objective(rows, offs, 0.0, 0.7) == 2 / 3  # now both off-topic results are flagged too
    assert objective(rows, offs[:1], 0.0, 0.31) == 1.0  # one first hit flagged, wrong: half the wrong ones
    assert objective(rows, offs[:1], 0.0, 0.25) == -1.0  # none flagged
