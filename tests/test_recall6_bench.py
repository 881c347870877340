"""Round 6's bench mechanisms (bench/recall_round6.py) do what the README says, on real stores."""

from __future__ import annotations

from datetime import datetime, timedelta

from bench import loo
from bench.recall_round6 import _entities, fold_signs, reply_burst
from memengine.recall import fusion as fusion_mod
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory


def _cands(turns: list[tuple[str, str]], gap_min: int = 1) -> dict[int, Candidate]:
    start = datetime(2026, 9, 12, 18, 0)
    return {i: Candidate((i, f"{a}: {t}", a, "t", i, (start + timedelta(minutes=gap_min * i)).isoformat(), "{}", 1.0,
                          0.5)) for i, (a, t) in enumerate(turns)}


def test_reply_burst_pairs_a_question_with_the_first_turn_by_someone_else() -> None:
    rows = _cands([("Ben", "whoa which one?"), ("Ben", "where's the marathon?"), ("Ana", "it's in Évora"),
                   ("Ana", "on october 18"), ("Ben", "cool, how long?"), ("Ben", "is it flat?"), ("Ben", "hello?"),
                   ("Ben", "anyone?"), ("Ana", "21 km")])
    engine = fusion_mod.replies(rows)
    assert engine == {1: 0, 2: 1, 5: 4, 6: 5, 7: 6, 8: 7}  # the very next turn, whoever wrote it
    with reply_burst(3, True)():
        burst = fusion_mod.replies(rows)
    # Ana's turns answer the nearest question before them: "it's in Évora" (2) -> "where's the marathon?" (1),
    # skipping the asker's own earlier question (0); "21 km" (8) -> "anyone?" (7); Ana's second turn (3) and
    # Ben's questions after Ben's questions pair with nothing
    assert burst == {2: 1, 8: 7}
    with reply_burst(3, False)():
        both = fusion_mod.replies(rows)
    assert both == engine  # every burst reply already has the engine's pair, which comes first
    assert fusion_mod.replies is not None and fusion_mod.replies(rows) == engine  # restored


def test_reply_burst_stays_inside_a_session() -> None:
    rows = _cands([("Ben", "where's the marathon?"), ("Ana", "Évora")], gap_min=7 * 60)
    with reply_burst(3, True)():
        assert fusion_mod.replies(rows) == {}


def test_entities_are_names_inside_a_sentence_and_numbers() -> None:
    assert _entities("Went to Évora with Carla on 18.10, then Lisbon. Great day") == {"évora", "carla", "18.10",
                                                                                       "lisbon"}
    assert _entities("Ok got them") == set()  # a capital at the start of a sentence is not a name


def test_fold_signs_count_each_folds_held_out_change(store: MemoryStore) -> None:
    store.store_many([NewMemory(content="x", memory_type="episodic", source="chat", ref="r")])
    items = [loo.Item("locomo", f, f"{f}:{i}", store, "q", ["r"], False) for f in ("a", "b", "c") for i in (0, 1)]
    base = {it.key: {"recall@5": 0.5} for it in items}
    ho = {**base, "a:0": {"recall@5": 1.0}, "b:1": {"recall@5": 0.0}}
    assert fold_signs(items, base, ho, "locomo") == "+1 / −1 / =1"
