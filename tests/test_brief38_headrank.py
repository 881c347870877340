"""Brief, round 38 (brief38): the candidates and word-free features of a topic's heading (memengine/topic_rank.py)."""

from __future__ import annotations

import pytest

from memengine import summarize, topic_names, topic_rank

_TEXTS = [
    "Owen: so the knee. MRI says torn meniscus, the surgeon wants to operate",
    "Owen: yep. knee surgery is February 24th at St. Luke's, day surgery",
    "Nina: Owen is out of knee surgery, the surgeon says it went well",
    "Owen: physio twice a week for 6 weeks for the knee",
]


def _cands(today: str | None = None) -> list[topic_rank.Candidate]:
    stop = summarize.stopwords_for(_TEXTS)
    df: dict[str, int] = {}
    for t in _TEXTS:
        for w in {topic_names.fold(w) for w in topic_rank._WORD.findall(t)}:
            df[w] = df.get(w, 0) + 1
    rarity = topic_names.idf(lambda w: df.get(w, 0), 40)
    return topic_rank.candidates(_TEXTS, stop, {"owen", "nina"}, rarity, df, 40, today=today)


def test_candidates_hold_runs_phrases_and_the_rules_heading() -> None:
    got = {c.text.lower(): c for c in _cands(today="surgeon")}
    assert {"knee", "knee surgery", "surgeon", "meniscus"} <= set(got)
    assert all(len(c.x) == len(topic_rank.FEATURES) for c in got.values())
    f = topic_rank.FEATURES.index
    assert got["knee"].x[f("held_share")] == 1.0 and got["knee surgery"].x[f("held_share")] == 0.5
    assert got["meniscus"].x[f("said_once")] == 1.0 and got["knee"].x[f("said_once")] == 0.0
    assert got["surgeon"].x[f("today")] == 1.0 and got["knee"].x[f("today")] == 0.0
    assert got["knee surgery"].x[f("n_words")] == 2.0
    assert not any(w in got for w in ("owen", "nina"))  # people name no topic


def test_best_follows_the_weights_and_skips_names_taken() -> None:
    cands = _cands()
    n = len(topic_rank.FEATURES)
    words = [0.0] * n
    words[topic_rank.FEATURES.index("n_words")] = 1.0
    longest = topic_rank.best(cands, None, words, [0.0] * n, [1.0] * n)
    assert longest is not None and len(longest.split()) == max(len(c.text.split()) for c in cands)
    again = topic_rank.best(cands, {longest.lower()}, words, [0.0] * n, [1.0] * n)
    assert again is not None and again != longest
    assert topic_rank.best(cands, None, ()) is None  # no weights: the rules' heading stays


def test_the_rules_heading_stays_within_the_margin() -> None:
    """``today`` is kept unless the best candidate beats it by more than ``margin``."""
    cands = _cands(today="surgeon")
    n = len(topic_rank.FEATURES)
    words = [0.0] * n
    words[topic_rank.FEATURES.index("n_words")] = 1.0  # a two-word candidate scores 1 above "surgeon"
    zero, one = [0.0] * n, [1.0] * n
    assert topic_rank.best(cands, None, words, zero, one, today="surgeon", margin=5.0) == "surgeon"
    assert topic_rank.best(cands, None, words, zero, one, today="surgeon", margin=0.5) != "surgeon"
    # the rules' heading given to another topic already: the best free one
    assert topic_rank.best(cands, {"surgeon"}, words, zero, one, today="surgeon", margin=5.0) != "surgeon"


def test_chosen_is_the_rules_heading_when_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(topic_rank, "RANKED", False)
    stop = summarize.stopwords_for(_TEXTS)
    assert topic_rank.chosen("surgeon", _TEXTS, stop, {"owen"}, lambda k: 1.0, {}, 40, {}, set()) == "surgeon"
