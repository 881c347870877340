"""The pure jobs consolidate hands to its pool of forked workers (memengine/pool.py): one cluster's
summary, document frequencies of a chunk of texts, a fact's subject key, a pair's contradiction verdict.
Each takes (shared, job) and touches no database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memengine import contradictions, summarize
from memengine import facts as fact_rules
from memengine.knn import VectorIndex
from memengine.timeparse import from_iso

SUMMARY_MAX_MEMBERS = 60  # most central members given to the summarizer (its cost grows with sentences)


def _summary_members(job: tuple[Any, ...], index: VectorIndex) -> tuple[list[summarize.Member], int]:
    """The members a summary is made from: at most SUMMARY_MAX_MEMBERS, the most central first chosen."""
    level, rows, vec_of, cent = job
    if vec_of is None:  # raw members: their vectors are in the run's index (shared with forked workers)
        vec_of = {r[0]: index.vecs[index.pos[r[0]]] for r in rows if r[0] in index.pos}
    chosen = rows
    if len(rows) > SUMMARY_MAX_MEMBERS and cent is not None:
        # the most central members: their sentences are the candidates for the summary
        ranked = sorted(rows, key=lambda r: (-float(vec_of[r[0]] @ cent) if r[0] in vec_of else 1.0, r[0]))
        chosen = sorted(ranked[:SUMMARY_MAX_MEMBERS], key=lambda r: r[0])

    def body(text: str) -> str:
        # a child summary's header line ("Summary of 12 memories (...)") is not a sentence worth repeating
        lines = text.splitlines()
        return "\n".join(lines[1:]) if level > 1 and len(lines) > 1 else text

    return [summarize.Member(id=r[0], content=body(r[1]), event_at=from_iso(r[2]), author=r[3],
                             embedding=vec_of.get(r[0])) for r in chosen], len(rows)


def _summary_job(shared: tuple[Any, ...], job: tuple[Any, ...]) -> tuple[str, list[str]]:
    """(extractive summary text, [topic name] + key terms) of one cluster: pure, so it runs in a forked worker."""
    (df, n_docs, language), people, index = shared
    mem, total = _summary_members(job, index)
    s = summarize.summarize_cluster(mem, df=df, n_docs=n_docs, known_people=people, language=language)
    text = s.text
    if len(mem) < total:
        text = text.replace(f"Summary of {len(mem)} memories", f"Summary of {total} memories", 1)
    return text, [s.name] + s.key_terms  # the topic name first: the cluster's label


def _doc_freq(_shared: None, texts: Sequence[str]) -> dict[str, int]:
    """Documents per term in ``texts`` (summed over chunks: the counts of one pass over them all)."""
    df: dict[str, int] = {}
    for text in texts:
        for t in set(summarize.tokenize(text)):
            df[t] = df.get(t, 0) + 1
    return df


def _subject(_shared: None, text: str) -> str:
    return contradictions.subject_key(text)


def _verdict(_shared: None, job: tuple[str, str, str, str, float]) -> Any:
    """The frame rules (memengine/facts.py, multilingual, held-out P/R 0.98/0.94) first, then the
    older English detector for what they leave (bench/facts.py measures both)."""
    older, newer, a, b, sim = job
    verdict: Any = fact_rules.compare(older, newer, similarity=sim)
    if verdict is None and not fact_rules.other_subjects(older, newer):  # ("flight to Boston" / "to Denver")
        verdict = contradictions.detect(a, b, similarity=sim)
    return verdict
