"""The real-chat question set and its benchmark (bench/realchat.py).

The set must stay usable: every evidence ref must still be a message the importers
produce from the shared real chats (checked when ../shared/data is present), the file
must be well formed, and the benchmark's own retrievers must score what they return.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.realchat import (
    DEFAULT_QUESTIONS,
    ChatQuestion,
    PlainFts,
    QuestionFileError,
    aggregate,
    load_questions,
    run,
)
from tests.conftest import SHARED_DATA

REALWORLD = SHARED_DATA / "realworld"


def test_question_file_is_well_formed() -> None:
    qs = load_questions(DEFAULT_QUESTIONS)
    assert len(qs) >= 150
    cats = Counter(q.category for q in qs)
    assert set(cats) == {"single-hop", "multi-hop", "temporal", "open"}
    assert sum(len(q.evidence) >= 2 for q in qs) * 10 >= len(qs) * 3  # ~a third need two messages or more (63 of 191)
    assert len({q.fold for q in qs}) >= 20  # spread over many chats
    for q in qs:
        assert len(q.answer.split()) <= 20, q.id  # short answers, no copied messages
        assert len(set(q.evidence)) == len(q.evidence), q.id


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/data/realworld is absent (a user's clone has no shared/)")
def test_every_evidence_ref_is_produced_by_the_importers() -> None:
    from importers import ImportReport
    from importers.detect import PARSERS, detect

    qs = load_questions(DEFAULT_QUESTIONS)
    refs: dict[str, set[str]] = {}
    for f in sorted({q.file for q in qs}):
        path = REALWORLD / f
        fmt = detect(path)
        refs[f] = {r.ref for r in PARSERS[fmt](path, ImportReport(file=str(path), format=fmt))}
    missing = [(q.id, e) for q in qs for e in q.evidence if e not in refs[q.file]]
    assert missing == []


def _write(tmp_path: Path, lines: list[str]) -> Path:
    p = tmp_path / "q.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_bad_question_lines_name_file_and_line(tmp_path: Path) -> None:
    good = {"id": "a-1", "file": "x.txt", "question": "q?", "answer": "a", "category": "single-hop", "lang": "en",
            "evidence": ["r1"]}
    p = _write(tmp_path, [json.dumps(good), "{not json"])
    with pytest.raises(QuestionFileError, match=r"q\.jsonl:2: not JSON"):
        load_questions(p)
    p = _write(tmp_path, [json.dumps({**good, "category": "trivia"})])
    with pytest.raises(QuestionFileError, match=r"q\.jsonl:1: category 'trivia'"):
        load_questions(p)
    p = _write(tmp_path, [json.dumps(good), json.dumps(good)])
    with pytest.raises(QuestionFileError, match=r"q\.jsonl:2: duplicate id 'a-1'"):
        load_questions(p)
    p = _write(tmp_path, [json.dumps({k: v for k, v in good.items() if k != "evidence"})])
    with pytest.raises(QuestionFileError, match=r"missing field 'evidence'"):
        load_questions(p)


def test_plain_fts_baseline_and_scoring(store) -> None:
    from memory_core import NewMemory

    store.store_many([
        NewMemory(content="Loris: tickets are $10 each", ref="m1", source="t", thread="c", position=0),
        NewMemory(content="Emily: I will bring my Switch", ref="m2", source="t", thread="c", position=1),
        NewMemory(content="John: she comes back in August", ref="m3", source="t", thread="c", position=2),
    ])
    qs = [ChatQuestion("q1", "f", "How much were the tickets?", "$10", "single-hop", "en", ["m1"]),
          ChatQuestion("q2", "f", "Who brings a Switch, and when is she back?", "", "multi-hop", "en", ["m2", "m3"])]
    rows = run({"f": store}, qs, PlainFts())
    assert rows[0]["top"][0] == "m1" and rows[0]["recall@5"] == 1.0 and rows[0]["mrr"] == 1.0
    assert set(rows[1]["top"]) == {"m2", "m3"}  # "switch" and "back" (porter: "brings" matches nothing)
    assert rows[1]["all@10"] == 1.0
    qs[1].evidence.append("m4")  # a third evidence message nobody returns
    rows = run({"f": store}, qs, PlainFts())
    agg = aggregate(rows)
    assert agg["n"] == 2 and agg["recall@5"] == round((1 + 2 / 3) / 2, 4) and agg["multi_all@10"] == 0.0
