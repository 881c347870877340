"""Lead, session 13: fixes found by the lead's blind probes after the helpers' landings; each test fails on the
commit before its fix."""

from __future__ import annotations

from memengine.recall.notes import newer_notes_first
from memengine.recall.updates import change_stems
from memengine.records import Candidate


def _cand(mid: int, text: str, day: str) -> Candidate:
    # (Candidate.COLUMNS: id, content, author, thread, position, event_at, metadata, strength, importance, source)
    return Candidate((mid, text, None, None, None, day, "{}", 1.0, 0.5, "agent"))


def test_a_change_word_both_notes_say_names_no_subject() -> None:
    # "Sofia moved to another team" shares "Sofia" and the stem "move" with a decision taken with her to move the
    # PDFs: the move is the newer note's change, not the PDFs' subject; one stem left is no subject said again.
    pdfs = _cand(1, "Decided with Sofia to move the invoice PDFs from S3 to Cloudflare R2 to cut egress costs.",
                 "2026-09-18")
    other = _cand(2, "Invoice worker OOM in production: the PDF renderer leaked memory on large invoices.", "2026-10-13")
    team = _cand(3, "Rafa's manager is now Tiago Mendes; Sofia moved to the data platform team.", "2026-10-09")
    ranked, marks = newer_notes_first([other, pdfs, team], 3, "where are invoice PDFs stored?")
    assert [c.id for c in ranked] == [2, 1, 3] and marks == {}
    assert change_stems(team.content) == frozenset({"move"}) and change_stems("Sofia owns the PDFs.") == frozenset()


def test_a_restated_subject_with_its_own_change_word_still_goes_first() -> None:
    old = _cand(1, "Flour for the bakery comes from Marriage's: delivered every Monday, order by Friday noon.",
                "2026-09-02")
    new = _cand(2, "Marriage's moved the cut-off: flour orders for Monday delivery must be in by Thursday 5pm.",
                "2026-10-05")
    ranked, marks = newer_notes_first([old, new], 2, "when do I have to order flour?")
    assert [c.id for c in ranked] == [2, 1] and marks == {1: [2]}
