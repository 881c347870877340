"""Brief, round 35 (brief35): headings for topics whose members share no word, and one-word names widened from the
topic's stored members.

A short exchange ("GIG!! the hug and pint want us 18th april" / "omg yes" / "🔥🔥") shares no word run: it was headed
"mixed subjects"; now by what its opening line names ("hug and pint"), the opening line read from the episode that
quotes the exchange when the topic's own turns start later ("Cava Sound" of "studio! Cava Sound can do a 2 day
session"). A one-word name whose phrase the brief's pool does not repeat is widened from all the topic's members."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_heading, brief_opener, summarize, topic_names


def _stop(texts: list[str]) -> frozenset[str]:
    return summarize.stopwords_for(texts, "en")


def _name(texts: list[str]) -> str | None:
    return brief_opener.opener_name(texts, _stop(texts), {"niamh", "priya", "tobi"}, lambda _k: 1.0, set())


def test_an_exchange_of_no_shared_word_is_named_by_its_opening_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two words joined by "and", a proper name of two words (an episode's first line read first), a run; lines of
    filler skipped; nothing named: None; the switch off: None."""
    gig = ["Niamh: GIG!! the hug and pint want us 18th april, support for Lacuna", "Priya: omg yes", "Tobi: 🔥🔥"]
    assert topic_names.name(gig, _stop(gig), {"niamh", "priya", "tobi"}, lambda _k: 1.0) == topic_names.MIXED
    assert _name(gig) == "hug and pint"
    studio = ["Priya: cost?", "Niamh: 400 for both days with an engineer",
              "Niamh: studio! Cava Sound can do a 2 day session end of june\nPriya: cost?\nTobi: i can put in 100"]
    assert _name(studio) == "Cava Sound"
    assert _name(["Priya: omg yes", "Tobi: walking plan for the Old Man of Coniston, 5 hrs"]) == "Old Man of Coniston"
    assert _name(["Priya: omg yes", "Tobi: lol"]) is None
    monkeypatch.setattr(brief_opener, "OPENER", False)
    assert _name(gig) is None


def test_lines_in_order_reads_the_episode_first() -> None:
    """An episode (a member of several lines) opens the exchange; labels off; each line once."""
    texts = ["Priya: cost?", "Niamh: studio! Cava Sound\nPriya: cost?"]
    assert brief_opener.lines_in_order(texts) == ["studio! Cava Sound", "cost?"]


def test_a_one_word_name_widens_from_the_stored_members() -> None:
    """The pool says "seat" once in the phrase; the stored members (the turn and its episode) say it twice."""
    pool = ["Ana: OT says grab rails by the toilet and a shower seat, council fits them free", "Rui: how long"]
    stored = pool + ["Ana: OT says grab rails by the toilet and a shower seat, council fits them free\nRui: how long"]
    stop = _stop(stored)
    assert brief_heading.widened("seat", pool, stop, {"ana", "rui"}, frozenset()) == "seat"
    assert brief_heading.widened("seat", pool, stop, {"ana", "rui"}, frozenset(), lambda: stored) == "shower seat"


def test_episode_of_reads_the_exchange_from_a_real_store(db_path: Path) -> None:
    """A cluster holding the episode gives it; a cluster of turns only gives the episode whose span holds its first
    turn; none: []."""
    store = core.MemoryStore(db_path)
    try:
        t1 = store.store("Niamh: studio! Cava Sound can do a 2 day session", "episodic", thread="band", position=0,
                         author="Niamh", event_at=datetime(2026, 5, 6, 18, 40))
        t2 = store.store("Priya: cost?", "episodic", thread="band", position=1, author="Priya",
                         event_at=datetime(2026, 5, 6, 18, 42))
        ep = store.store("Niamh: studio! Cava Sound can do a 2 day session\nPriya: cost?", "episodic", thread="band",
                         event_at=datetime(2026, 5, 6, 18, 40),
                         metadata={"kind": "episode", "span": ["2026-05-06T18:40:00", "2026-05-06T18:42:00"]})
        conn = store.conn
        now = "2026-05-07T00:00:00"
        for cid, mids in ((1, [t2]), (2, [t2, ep]), (3, [t1])):
            conn.execute("INSERT INTO clusters (id, level, member_count, label, created_at, updated_at) "
                         "VALUES (?, 1, ?, 'mixed subjects', ?, ?)", (cid, len(mids), now, now))
            conn.executemany("INSERT INTO cluster_members (cluster_id, memory_id, added_at) VALUES (?, ?, ?)",
                             [(cid, m.id, now) for m in mids])
        conn.execute("INSERT INTO clusters (id, level, member_count, created_at, updated_at) VALUES (4, 1, 0, ?, ?)",
                     (now, now))
        conn.commit()
        episode = "Niamh: studio! Cava Sound can do a 2 day session\nPriya: cost?"
        assert brief_opener.episode_of(conn, 1) == [episode]
        assert brief_opener.episode_of(conn, 2) == [episode]
        assert brief_opener.episode_of(conn, 4) == []
        assert brief_heading.members_of(conn, 2) == ["Priya: cost?", episode]
    finally:
        store.close()


def test_joining_words_end_no_name() -> None:
    """"120 plus drinks tab" is named "drinks tab"."""
    tab = ["Niamh: 120 plus drinks tab", "Niamh: 120 plus drinks tab\nCallum: fair"]
    assert topic_names.name(tab, _stop(tab), {"niamh", "callum"}, lambda _k: 1.0) == "drinks tab"


def test_a_verb_or_a_shout_after_the_word_is_no_compound() -> None:
    """"my car fits four", "el vocho suena raro", "det regner SÅ meget": the word stays; "tom's knee op is on tues"
    still widens; a greeting opening an exchange names nothing ("Guten Morgen")."""
    def w(name: str, texts: list[str], people: set[str] | None = None) -> str:
        return brief_heading.widened(name, texts, summarize.stopwords_for(texts, None), people or set(), frozenset())

    car = ["Kofi: I can drive, my car fits four and the bags", "Kofi: I can drive, my car fits four\nMo: ok",
           "Mo: the car is blue"]
    assert w("car", car) == "car"
    vocho = ["R: el vocho suena raro desde el viernes", "R: lo llevo al taller, el vocho suena raro cuando frena",
             "R: el vocho suena raro\nX: ok"]
    assert w("vocho", vocho) == "vocho"
    assert w("regner", ["Sofie: det regner SÅ meget", "Sofie: det regner SÅ meget\nAnders: ja"]) == "regner"
    knee = ["Mel: tom's knee op is on tues 22nd", "Mel: tom's knee op is on tues 22nd\nTom: ok", "Tom: knee is bad"]
    assert w("knee", knee, {"tom", "mel"}) == "tom's knee"
    morgen = ["Jonas: Guten Morgen! Störung im ganzen Block, Techniker kommt heute", "Lena: danke"]
    got = brief_opener.opener_name(morgen, summarize.stopwords_for(morgen, "german"), {"jonas", "lena"},
                                   lambda _k: 1.0, set())
    assert got is not None and "Morgen" not in got, got
