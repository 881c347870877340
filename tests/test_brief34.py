"""Brief, round 34 (brief34): headings a person would write, and plans moved in chat shorthand.

A topic named by one word its turns share ("surgery", "gig", "mamma") is headed by the phrase the turns say it in
("Dad's knee surgery", "tickets for the Glasgow gig", "festa della mamma"); a move proposed as a question ("shall we
make it the 21st instead?") is no move until another member agrees; "moved to the sunday btw, 14th" and "domenica,
l'8" are days."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_asked, brief_dates, brief_heading, brief_news, consolidate, graph_rank, summarize


def _chat(store: core.MemoryStore, turns: list[tuple[float, str, str]], start: datetime, thread: str) -> None:
    for k, (hours, author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread=thread, position=k, author=author,
                    event_at=start + timedelta(hours=hours))


def _widened(name: str, texts: list[str], people: set[str] | None = None, taken: frozenset[str] = frozenset()) -> str:
    return brief_heading.widened(name, texts, summarize.stopwords_for(texts, None), people or set(), taken)


def test_one_word_names_widen_to_the_phrase_they_are_said_in() -> None:
    """A possessive and a compound ("Dad's knee surgery"), a complement after ("esame di abilitazione"), the word as
    a complement ("tickets for the Glasgow gig", "festa della mamma"), a hyphenated word ("e-bike")."""
    surgery = ["Ana: Dad's knee surgery is on the 21st at St Mary's", "Ana: the surgery went well, the knee is in",
               "Bo: great news", "Ana: surgery starts at 7:30 so we leave at 6"]
    assert _widened("surgery", surgery, {"ana", "bo"}) == "Dad's knee surgery"
    gig = ["Al: got tickets for the Glasgow gig!!", "Bea: the gig sold out in an hour",
           "Al: tickets for the Glasgow gig are £40 each", "Bea: gig gig gig"]
    assert _widened("gig", gig) == "tickets for the Glasgow gig"
    esame = ["Giulia: l'esame di abilitazione è a Roma", "Marta: quando è l'esame?",
             "Giulia: l'esame di abilitazione è a Roma\nMarta: brava"]
    assert _widened("esame", esame) == "esame di abilitazione"
    mamma = ["Ale: la festa della mamma la facciamo da Nino", "Bea: la mamma sospetta qualcosa?",
             "Ale: la festa della mamma la facciamo da Nino\nBea: ok"]
    assert _widened("mamma", mamma) == "festa della mamma"
    bike = ["Tom: she wants a new e-bike", "Eli: the e-bike is 1800 euros", "Eli: Mum cried when she saw the bike"]
    assert _widened("bike", bike) == "e-bike"


def test_names_that_stay_one_word() -> None:
    """A proper name or an acronym names its thing; a phrase said once whose added word the topic says once; a
    phrase that names a day; one sharing a word with another topic's name; a name of two words."""
    panda = ["Marta: La Panda è dal meccanico", "Giulia: la Panda di nuovo?", "Marta: la Panda costa"]
    assert _widened("Panda", panda) == "Panda"
    assert _widened("SSH", ["A: the SSH key of the server", "B: SSH again"]) == "SSH"
    once = ["A: the quiz is at the Crown", "B: quiz quiz", "A: we lost the quiz"]
    assert _widened("quiz", once) == "quiz"
    dated = ["A: party on saturday 14th", "B: the party is at nine", "A: party on saturday 14th\nB: ok"]
    assert _widened("party", dated) == "party"
    cottage = ["A: the cottage in Coniston is booked", "B: cottage yes", "A: the cottage in Coniston is booked\nB: x"]
    assert _widened("cottage", cottage) == "cottage in Coniston"
    assert _widened("cottage", cottage, taken=frozenset({"coniston"})) == "cottage"
    assert _widened("pub quiz", once) == "pub quiz"
    # an owner is a person, a name or "my sister's": not a contraction ("there's room") nor "someone else's"
    heating = ["A: someone else's heating is on", "B: heating again", "A: someone else's heating is on\nB: x"]
    assert _widened("heating", heating) == "heating"
    room = ["A: there's room for two", "B: the room is big", "A: there's room for two\nB: ok"]
    assert _widened("room", room) == "room"
    wedding = ["A: my sister's wedding is in May", "B: wedding!!", "A: my sister's wedding is in May\nB: x"]
    assert _widened("wedding", wedding) == "sister's wedding"


def test_the_brief_heads_its_topics_with_the_widened_names(db_path: Path, real: object,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the brief on a real store: each topic heading is the name ``widened`` gives (asked with the topic's
    member texts and the names given before it); the switch off leaves the one-word name."""
    turns = [(0, "Sofia", "the surgery is confirmed for the 21st of October at San Raffaele"),
             (0.1, "Tom", "ok who takes him"), (0.2, "Sofia", "I can take him, surgery starts at 7:30"),
             (24, "Sofia", "Dad's knee surgery went well, the doctor is happy"),
             (24.1, "Tom", "great news"), (24.2, "Elena", "so relieved, the surgery took four hours"),
             (48, "Sofia", "the surgery wound looks clean, the knee is swollen")]
    asked: list[tuple[str, int]] = []
    real_widened = brief_heading.widened

    def spy(name: str, texts: list[str], *rest: object) -> str:
        asked.append((name, len(texts)))
        got = real_widened(name, texts, *rest)  # type: ignore[arg-type]
        return f"{got} spied" if got == name and len(name.split()) == 1 else got

    store = core.MemoryStore(db_path, embedder=real)
    try:
        _chat(store, turns, datetime(2026, 10, 1, 9), "fam")
        consolidate.run(store, now=datetime(2026, 10, 5, 9), keep_backups=0)
        monkeypatch.setattr(brief_heading, "widened", spy)
        text = graph_rank.brief(store, 1500, now=datetime(2026, 10, 5, 9))["text"]
        monkeypatch.setattr(brief_heading, "widened", real_widened)
        monkeypatch.setattr(brief_heading, "WIDEN", False)
        base = graph_rank.brief(store, 1500, now=datetime(2026, 10, 5, 9))["text"]
    finally:
        store.close()
    heads = [ln for ln in text.splitlines() if ln.startswith("### T")]
    # (the clusters the model makes vary: "surgery" is widened when its cluster holds the turn that says the phrase)
    assert any(" · surgery spied (" in h or " · Dad's knee surgery (" in h for h in heads), heads
    assert not any(" · surgery (" in h for h in heads), heads
    assert any(n == "surgery" and k >= 2 for n, k in asked), asked
    assert any(ln.startswith("### T") and " · surgery (" in ln for ln in base.splitlines()), base


_MOVE = [(0, "Ellie", "the cottage is booked, fri 9th october"),
         (48, "Pri", "shall we move it to fri 16th october instead? work wants me in that weekend"),
         (48.1, "Ellie", "can't move it, it's paid and non refundable"),
         (48.2, "Josh", "stick with the 9th")]


def test_a_move_asked_and_refused_is_no_plan(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"shall we make it the 16th instead?" answered "can't move it": Coming up keeps the 9th, not the 16th; with the
    switch off the 16th shows as before."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _MOVE, datetime(2026, 9, 1, 19), "uni")
        now = datetime(2026, 9, 5, 9)
        coming = [i["text"] for i in graph_rank.brief(store, 1500, now=now)["sections"]["upcoming"]]
        monkeypatch.setattr(brief_asked, "ASKED", False)
        base = [i["text"] for i in graph_rank.brief(store, 1500, now=now)["sections"]["upcoming"]]
    finally:
        store.close()
    assert not any("fri 16th october" in t for t in coming), coming
    assert any("fri 9th" in t for t in coming), coming
    assert any("fri 16th october" in t for t in base), base


def test_a_move_asked_and_agreed_stays(db_path: Path) -> None:
    """The same question answered "ok" moves the plan: the 16th is in Coming up; an Italian "spostiamo?" refused with
    "No, il 22 non ci sono" leaves it."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _MOVE[:2] + [(48.1, "Ellie", "ok fine, I'll call them")], datetime(2026, 9, 1, 19), "uni")
        coming = [i["text"] for i in graph_rank.brief(store, 1500, now=datetime(2026, 9, 5, 9))["sections"]["upcoming"]]
        assert any("fri 16th october" in t for t in coming), coming
    finally:
        store.close()
    store = core.MemoryStore(db_path.with_name("it.db"))
    try:
        _chat(store, [(0, "Ale", "Prenotato Da Nino, sabato 21 marzo alle 20"),
                      (72, "Ale", "Papà chiede se la cena la spostiamo a domenica 22?"),
                      (72.1, "Bea", "No, il 22 io non ci sono, resta sabato")], datetime(2026, 3, 1, 18), "sis")
        coming = [i["text"] for i in graph_rank.brief(store, 1500, now=datetime(2026, 3, 6, 9))["sections"]["upcoming"]]
        assert not any("domenica 22" in t for t in coming), coming
        assert any("sabato 21 marzo" in t for t in coming), coming
    finally:
        store.close()


def test_shorthand_days_of_a_move() -> None:
    """A chat's word between a weekday and its day; Italian's elided article before 1, 8, 11 (not "l'80")."""
    assert brief_dates.named_days("party moved to the sunday btw, 14th, at the golf club", date(2026, 6, 6)) == \
        [date(2026, 6, 14)]
    assert brief_dates.named_days("Allora trasloco spostato a domenica, l'8", date(2026, 2, 19)) == [date(2026, 3, 8)]
    assert brief_dates.named_days("consegna entro l'11", date(2026, 2, 19)) == [date(2026, 3, 11)]
    assert brief_dates.named_days("l'80 per cento", date(2026, 2, 19)) == []


_OP = [(0, "Kim", "anyone up for the pub later"), (0.1, "Rob", "can't, rota"),
       (24, "Kim", "fyi rob's shoulder op is on monday, I'm driving him"), (24.2, "Rob", "yeah should be fine"),
       (72, "Kim", "rob's op went fine, he's in a sling for three weeks"), (72.1, "Ada", "get well soon rob!!"),
       (72.2, "Rob", "cheers all, the drugs are good"),
       (80, "Ada", "my new flat has a balcony, moving in on the 1st")]


def test_news_told_about_a_member_in_lower_case_is_theirs(db_path: Path) -> None:
    """"rob's op went fine" told by Kim, answered by Ada and by Rob: Rob's news (his line quotes it, said by Kim), not
    Kim's; a member's name in lower case counts as its owner ("rob's"), not as a word alone ("will", "mark")."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _OP, datetime(2026, 9, 1, 19), "g")
        people = {i["text"].split(":")[0]: i["text"] for i in
                  graph_rank.brief(store, 1500, now=datetime(2026, 9, 5, 9))["sections"]["people"]}
    finally:
        store.close()
    assert 'said by Kim #5 "rob\'s op went fine' in people["Rob"], people
    assert "op went fine" not in people["Kim"], people
    pattern = brief_news.name_pattern("Will")
    assert pattern.search("will's bike") and pattern.search("Will said") and not pattern.search("I will go")
