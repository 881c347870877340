"""``Memory.to_dict`` (the JSON of every recall result): the same dict as ``dataclasses.asdict``
minus the derived fields left unset, and a copy, without asdict's per-value deepcopy."""

from __future__ import annotations

from dataclasses import asdict

from memengine.records import Memory


def _memory(**over: object) -> Memory:
    base: dict = dict(id=7, content="Flew to Rome", memory_type="episodic", source="agent", ref=None,
                      content_hash="ab", importance=0.5, strength=0.9, access_count=2, pinned=0,
                      created_at="2024-05-02T10:00:00", event_at="2024-05-02T09:00:00", last_accessed_at=None,
                      updated_at="2024-05-02T10:00:00", valid_from=None, valid_to=None, status="active", level=0,
                      author="Ana", thread="t1", position=3,
                      metadata={"resolved_dates": [{"phrase": "today", "date": "2024-05-02"}], "n": 1},
                      tags=["travel", "rome"])
    base.update(over)
    return Memory(**base)


def test_to_dict_is_asdict_without_the_unset_derived_fields() -> None:
    plain = _memory()
    derived = ("score", "explain", "weak", "superseded_by", "supersedes", "possibly_outdated", "possibly_outdated_by",
               "may_update", "contradicts")
    assert plain.to_dict() == {k: v for k, v in asdict(plain).items() if k not in derived}
    assert list(plain.to_dict()) == [k for k in asdict(plain) if k not in derived]
    ranked = _memory(score=1.25, weak=False, superseded_by=[9], supersedes=[], possibly_outdated=True,
                     possibly_outdated_by=[8], may_update=[], contradicts=[11],
                     explain={"priors": {"person": 0.2}, "weights": {"keyword": 0.5}, "cosine": None})
    assert ranked.to_dict() == asdict(ranked)
    assert list(ranked.to_dict()) == list(asdict(ranked))


def test_to_dict_copies_what_it_nests() -> None:
    m = _memory(explain={"priors": {"person": 0.2}})
    d = m.to_dict()
    d["metadata"]["resolved_dates"][0]["date"] = "changed"
    d["tags"].append("x")
    d["explain"]["priors"]["person"] = 9.0
    assert m.metadata["resolved_dates"][0]["date"] == "2024-05-02"
    assert m.tags == ["travel", "rome"] and m.explain == {"priors": {"person": 0.2}}
