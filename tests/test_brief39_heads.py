"""(brief39) The deciding line's head phrase as a heading candidate, and the judge against person-written headings."""

from __future__ import annotations

import sys
from pathlib import Path

from memengine import summarize, topic_decided, topic_rank

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import brief_heads  # noqa: E402

ES = ["Lucía: Y si lo pasamos al domingo 15?", "Diego: Cambiado al domingo 15, misma hora",
      "Lucía: Y si lo pasamos al domingo 15?\nDiego: Llamo a Ribera\nDiego: Cambiado al domingo 15, misma hora\n"
      "Lucía: 👍", "Diego: Malas noticias, el tío Andrés no puede el 14"]
PEOPLE = {"lucía", "diego"}


def test_deciding_line_is_the_last_that_takes_up_a_value() -> None:
    stop = summarize.stopwords_for(ES)
    assert topic_decided.deciding_line(ES[2], stop, PEOPLE) == "Cambiado al domingo 15, misma hora"
    # no line of two content words: none
    assert topic_decided.deciding_line("Ana: ok\nBo: 👍", stop, set()) is None


def test_candidates_cut_the_line_to_its_head_phrase() -> None:
    stop = summarize.stopwords_for(ES)
    assert topic_decided.candidates(ES, stop, PEOPLE) == ["Cambiado al domingo 15"]
    # a store of notes (no episode): no candidate
    assert topic_decided.candidates(["Dentist moved to the 14th", "Dentist on the 7th"], stop, set()) == []


def test_ranker_offers_them_only_when_asked() -> None:
    stop = summarize.stopwords_for(ES)
    args = (ES, stop, PEOPLE, lambda k: 1.0, {}, len(ES), {}, None)
    off = {c.text: c for c in topic_rank.candidates(*args, decided=False)}
    on = {c.text: c for c in topic_rank.candidates(*args, decided=True)}
    assert "Cambiado al domingo 15" not in off
    got = on["Cambiado al domingo 15"]
    assert got.source == "decided" and got.x[topic_rank.FEATURES.index("decided")] == 1.0
    assert len(got.x) == len(topic_rank.FEATURES)
    assert all(c.x[topic_rank.FEATURES.index("decided")] == 0.0 for c in off.values())


def test_ranker_reads_the_stored_episodes_when_the_pool_lacks_them() -> None:
    stop = summarize.stopwords_for(ES)
    turns = [ES[0], ES[1], ES[3]]  # the brief's pool: the turns, no episode
    args = (turns, stop, PEOPLE, lambda k: 1.0, {}, len(turns), {}, None)
    assert "Cambiado al domingo 15" not in {c.text for c in topic_rank.candidates(*args, decided=True)}
    got = {c.text for c in topic_rank.candidates(*args, decided=True, more=lambda: ES)}
    assert "Cambiado al domingo 15" in got


def test_judge_credits_a_phrase_more_than_a_keyword() -> None:
    label = ["music: Calvin's DJ set"]
    stop = brief_heads.stop_for([label])
    assert brief_heads.credit("calvin harris", label, stop) == (1 / 3, 1)
    assert brief_heads.credit("Calvin DJ set", label, stop) == (1.0, 3)
    assert brief_heads.credit("school", label, stop) == (0.0, 0)
    # inflections of 5+ letters meet ("moved" / "moves"), plural and possessive endings fold
    assert brief_heads.credit("party date moves", ["party date moved to the 13th"], stop)[1] == 3


def test_judge_gives_each_heading_to_one_label() -> None:
    labels = [["gazebos: Tomasz's plus the school's"], ["school run rota"]]
    stop = brief_heads.stop_for(labels)
    rows = brief_heads.assign(["school", "gazebos from the school"], labels, stop)
    assert [(r[0], r[1]) for r in rows] == [(0, "gazebos from the school"), (1, "school")]
    got = brief_heads.score(["school", "gazebos from the school"], labels, stop)
    assert (got["phrase"], got["keyword"], got["none"]) == (1, 1, 0)


def test_headings_of_a_brief_and_the_label_files(tmp_path: Path) -> None:
    brief = ("## Topics\n### T3 · open day (6 memories) — 2026-05-18 #1 x\n### T1.2 · shed roof (2 memories) — y\n"
             "### T3 · open day (6 memories) — again\n")
    assert brief_heads.headings_of(brief) == ["open day", "shed roof"]
    p = tmp_path / "x.heads"
    p.write_text("# comment\nopen day moved to 30 May || open day on sat 30th may\n\nfees set at £50\n",
                 encoding="utf-8")
    assert brief_heads.read_heads(p) == [["open day moved to 30 May", "open day on sat 30th may"],
                                         ["fees set at £50"]]
    names = {n for n, _ in brief_heads.label_files()}
    assert {"heldout31_plots_en", "lead23_street"} <= names
