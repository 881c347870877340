"""The duplicate path never swallows an update; a conversation turn is never compared with facts."""

from __future__ import annotations

from pathlib import Path

import pytest

import memory_core as core
from memengine import facts


@pytest.mark.parametrize(("a", "b"), [
    ("My cousin lives in Salvador", "My cousin lives in El Salvador"),
    ("Mi primo vive en Salvador", "Mi primo vive en El Salvador"),
    ("She moved to Paz", "She moved to La Paz"),
    ("The spare key is in the drawer", "The spare key is in the drawers"),
    ("Les clés sont dans le tiroir", "Les clés sont dans les tiroirs"),
])
def test_a_name_with_its_article_or_a_plural_value_is_another_fact(a: str, b: str) -> None:
    assert not facts.same_fact(a, b) and not facts.same_fact(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("The team is led by Keiko", "The team is led by Keiko Tanaka"),
    ("We deploy on Fridays", "We deploy on Friday"),
    ("The deploys run on Fridays", "The deploy runs on Fridays"),  # the subject and the verb inflect
    ("El Niño is strong this year", "El Niño is strong this year"),
])
def test_restatements_stay_the_same_fact(a: str, b: str) -> None:
    assert facts.same_fact(a, b)


def test_a_fact_stored_in_a_thread_is_a_turn_it_never_supersedes_nor_is_superseded(tmp_path: Path) -> None:
    s = core.MemoryStore(tmp_path / "t.db")
    fact = s.store("The standup is at 9:15").id
    turn = s.store("The standup is at 9:30", thread="team-chat")  # a semantic memory, but said in a chat
    assert turn.supersedes == [] and not turn.deduplicated and s.get(fact).valid_to is None
    again = s.store("The standup is at 9:45")
    assert again.supersedes == [fact] and s.get(turn.id).valid_to is None  # the turn stays what was said
    told = s.store("Standup is 10:00 from now on", thread="team-chat", supersede=[again.id])
    assert told.supersedes == [again.id]  # said explicitly, a turn may correct a fact
    s.close()


def test_real_model_the_article_and_the_plural_pairs_are_stored_not_merged(tmp_path: Path) -> None:
    from embedder import OnnxEmbedder

    emb = OnnxEmbedder(cache_dir=tmp_path / "model-cache")
    pairs = [("My cousin lives in Salvador", "My cousin lives in El Salvador"),
             ("The keys are in the drawer", "The keys are in the drawers")]
    for i, (a, b) in enumerate(pairs):
        va, vb = emb.embed([a, b])
        assert float(va @ vb) >= core.NEAR_DUP_COSINE  # past the duplicate bar: same_fact alone decides
        s = core.MemoryStore(tmp_path / f"d{i}.db", embedder=emb)
        first = s.store(a).id
        res = s.store(b)
        assert not res.deduplicated and res.id != first, (a, b)
        s.close()
