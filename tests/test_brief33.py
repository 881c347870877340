"""Brief, round 33 (brief33): chats written by other people (bench/data/brief_heldout25).

Terse writers name people in lower case or by what they are to them ("uncle ray", "bev says", "nan's 90th", "jo from
work"), half capitalise a name ("his name is Marcus" … "marcus is actually really nice"), turn a proposed day down
("cant do fri 12th") and name another; a Turkish chat writes its months with case endings ("8 Ekim'de")."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_dates, brief_declined, brief_months, brief_talkedabout, brief_talkedcues, graph_rank


def _chat(store: core.MemoryStore, turns: list[tuple[float, str, str]], start: datetime, thread: str) -> None:
    for k, (hours, author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread=thread, position=k, author=author,
                    event_at=start + timedelta(hours=hours))


def test_weekday_abbreviations_and_turkish_months_are_read() -> None:
    """"sat 13th" is the next Saturday the 13th; "8 Ekim'de", "26 Haziran'a" are Turkish days with their case
    endings; a Turkish month alone places no plan (brief_months: "aralık" is also "an interval")."""
    assert brief_dates.plan_days("theres a second night sat 13th", date(2026, 5, 28)) == [date(2026, 6, 13)]
    assert brief_dates.plan_days("drive up weds 3rd", date(2026, 5, 28)) == [date(2026, 6, 3)]
    assert brief_dates.plan_days("Tamam, 8 Ekim'de gelirim", date(2026, 9, 10)) == [date(2026, 10, 8)]
    assert brief_dates.plan_days("Kaş'ı 26 Haziran'a alalım mı?", date(2026, 6, 6)) == [date(2026, 6, 26)]
    assert brief_months.placed("bu aralık çok yoğunum, haziran gibi", date(2026, 5, 1)) == []


_GIG = [
    (0, "dan", "gig? Fontaines at the academy, fri 12th june. tix are £38"),
    (0.05, "kez", "cant do fri 12th, its my uncle ray's 60th"),
    (0.06, "dan", "theres a second night sat 13th"),
    (0.07, "kez", "sat works. get 2"),
]


def test_a_day_another_member_turns_down_and_replaces_leaves_coming_up(db_path: Path) -> None:
    """The gig's "fri 12th june", turned down by the other member and replaced by "sat 13th", is no plan; the 13th is."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _GIG, datetime(2026, 5, 28, 22), "dan")
        out = graph_rank.brief(store, 1500, now=datetime(2026, 6, 1, 9))
        coming = [i["text"] for i in out["sections"]["upcoming"]]
        assert coming == ["2026-05-28 #3 dan: theres a second night sat 13th (→ 2026-06-13, in 12 days)"]
    finally:
        store.close()


def test_a_day_turned_down_with_no_other_day_named_stays(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"I can't do the 14th, have fun!": the others still go, nothing replaced it; the switch off keeps the base."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, [(0, "Mum", "nan's 90th!! Sat 14th nov at the royal oak?"),
                      (0.1, "Dad", "cant do the 14th, have fun without me"),
                      (0.2, "Soph", "see you all there")], datetime(2026, 10, 10, 18), "fam")
        out = graph_rank.brief(store, 1500, now=datetime(2026, 10, 12, 9))
        assert [i["text"] for i in out["sections"]["upcoming"]] == [
            "2026-10-10 #1 Mum: nan's 90th!! Sat 14th nov at the royal oak? (→ 2026-11-14, in 33 days)"]
    finally:
        store.close()
    store = core.MemoryStore(db_path.with_name("gig.db"))
    try:
        _chat(store, _GIG, datetime(2026, 5, 28, 22), "dan")
        monkeypatch.setattr(brief_declined, "DECLINED", False)
        out = graph_rank.brief(store, 1500, now=datetime(2026, 6, 1, 9))
        assert [i["text"][:24] for i in out["sections"]["upcoming"]] == ["2026-05-28 #1 dan: gig? ",
                                                                         "2026-05-28 #3 dan: there"]
    finally:
        store.close()


def test_lower_case_cues() -> None:
    """A relation before the word, "from work" after it, a verb only people do, a kinship word: a name; a word
    after an article ("the van") never; an author's prefix ("Mum: nan's") is no relation before "nan"."""
    texts = ["kez: cant do fri 12th, its my uncle ray's 60th", "dan: lol classic. tell ray happy bday from me",
             "dan: swapped with jo from work", "Mum: bev says the cake will be lemon", "dan: van has a bed now",
             "kez: the van smells", "Mum: nan's 90th!!"]
    got = brief_talkedcues.lower_names(texts, {"dan", "kez", "mum"})
    assert got == {"ray": 2, "jo": 2, "bev": 1, "nan": 2}
    assert brief_talkedcues.label(texts, "ray") == "uncle"
    assert brief_talkedcues.label(texts, "nan") == ""
    assert brief_talkedcues.recased("bev says, ask bev's mum", {"bev"}) == "Bev says, ask Bev's mum"
    # a role's belonging is no name ("my mum's knee"); a role with a possessive before a name is ("my boss gareth")
    assert brief_talkedcues.lower_names(["a: my mum's knee is bad", "c: my boss gareth is off"], {"a", "c"}) == {
        "gareth": 2}
    # a common noun for a person is no name, whatever verb follows it ("guy said", "<thing> guy here, he needs")
    assert brief_talkedcues.lower_names(["a: inspection done, guy said the damp needs reporting",
                                         "b: broadband guy here, he needs to drill", "a: the kid asked for you",
                                         "b: lady says the shop shuts at 5"], {"a", "b"}) == {}


_MATES = [
    (0, "dan", "u seen what priya posted"),
    (0.1, "kez", "the new bf?? yes. his name is Marcus apparently"),
    (0.2, "dan", "marcus. sounds like a guy who owns a kayak"),
    (48, "kez", "Marcus is coming to my birthday drinks btw, priya asked"),
    (200, "kez", "marcus is actually really nice?? he bought a round for everyone"),
    (201, "kez", "and him and priya are going to Lisbon in july"),
    (300, "kez", "cant do fri 12th, its my uncle ray's 60th"),
    (400, "kez", "uncle ray's party moved to the sunday btw, 14th"),
    (401, "dan", "lol classic. tell ray happy bday from me"),
]


def test_people_written_in_lower_case_get_lines(db_path: Path) -> None:
    """Marcus (capitalised inside a sentence once, in lower case twice), priya (always lower case, "priya asked" and
    two authors), ray ("uncle ray", three turns); Lisbon (no cue) none; the news is quoted as written."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _MATES, datetime(2026, 5, 3, 21), "dan")
        got = brief_talkedabout.talked_about(store, {"dan", "kez"})
        assert [(p["name"], len(p["turns"]), p["label"]) for p in got] == [
            ("Marcus", 4, ""), ("Priya", 3, ""), ("Ray", 3, "uncle")]
        assert got[2]["news"] == (9, "dan: lol classic. tell ray happy bday from me")
        out = graph_rank.brief(store, 1500, now=datetime(2026, 6, 1, 9))
        heads = [i["text"].split(":")[0] for i in out["sections"]["people"]]
        assert heads == ["kez", "dan", "Marcus", "Priya", "Ray (uncle)"]
    finally:
        store.close()


def test_off_switch_and_turkish_places_and_glued_openers(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Evet Burak'la" (yes, with Burak) is Burak; Kaş, said with endings of place ("Kaş'tayız", in Kaş), is no
    one; "Hakan Bey" (a title after the name) in two turns is; LOWER_NAMES off: brief32's reading."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, [(0, "Selin K.", "Ablam nişanlanıyor"), (0.1, "Deniz Arslan", "Ne diyorsun! Burak'la mı?"),
                      (0.2, "Selin K.", "Evet Burak'la. Nişan Bodrum'da"),
                      (10, "Deniz Arslan", "Diyemem, Hakan Bey'le tartışmak imkansız"),
                      (20, "Selin K.", "Kaş'a gidelim mi?"), (30, "Deniz Arslan", "Ama biz o gün Kaş'tayız!"),
                      (31, "Selin K.", "Biliyorum, Kaş'ı sonraya alalım mı?"),
                      (40, "Selin K.", "Burak'ın ailesi nişanı bir hafta erteledi"),
                      (50, "Deniz Arslan", "Hakan Bey terfi ettirdi beni!!")], datetime(2026, 5, 12, 21), "s")
        got = brief_talkedabout.talked_about(store, {"selin k.", "deniz arslan"})
        assert [(p["name"], p["turns"]) for p in got] == [("Burak", [2, 3, 8]), ("Hakan Bey", [4, 9])]
        monkeypatch.setattr(brief_talkedabout, "LOWER_NAMES", False)
        got = brief_talkedabout.talked_about(store, {"selin k.", "deniz arslan"})
        assert [p["name"] for p in got] == ["Evet Burak", "Kaş"]
    finally:
        store.close()


def test_things_and_places_said_like_people_get_no_line(db_path: Path) -> None:
    """Found on held-outs 10–14 while building: "the hospital rang" (a thing: said after an article), "Harlow …
    worried about light to her kitchen" (a pronoun is no evidence), "grandpa sleeps" (a kinship word before a verb is
    no name), "the planning officer says" (a compound's head), "And" capitalised inside a sentence (a stop word)."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, [(0, "Mum", "the hospital rang: the operation moves to Thu 3 Dec"),
                      (1, "Jo", "and near the hospital too. And parking"),
                      (2, "Mum", "Harrogate District Hospital will write with a date"),
                      (3, "Ana", "neighbour objected to the Harlow extension, worried about light to her kitchen"),
                      (4, "Ben", "Harlow: the planning officer says the decision is Thu 10 Dec"),
                      (5, "Ana", "Harlow drawings updated, she is happy"),
                      (6, "Jo", "grandpa sleeps all afternoon"), (7, "Mum", "grandpa sleeps better now"),
                      (8, "Ben", "grandpa sleeps, he says hi")], datetime(2026, 10, 1, 9), "fam")
        assert brief_talkedabout.talked_about(store, {"mum", "jo", "ana", "ben"}) == []
    finally:
        store.close()


def test_a_person_named_only_by_a_relation_gets_a_line(db_path: Path) -> None:
    """"my boss" (three turns, every "my" dan's) is a person: ``boss (dan's)``; "my boss Karen" is Karen's (not
    counted), "the bosses" a plural (not counted), "my sister" said twice is a passing mention."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, [(0, "dan", "my boss wants me in on sat again"), (1, "kez", "tell your boss no"),
                      (2, "dan", "my sister is visiting"), (30, "dan", "my boss put me on the rota. im going to scream"),
                      (31, "kez", "the bosses are all mad"), (40, "dan", "my sister says hi"),
                      (50, "dan", "my boss Karen says ok")], datetime(2026, 5, 5, 8), "dan")
        got = brief_talkedabout.talked_about(store, {"dan", "kez"})
        assert [(p["name"], p["turns"], p["label"]) for p in got] == [("boss", [1, 2, 4], "dan's")]
        lines = brief_talkedabout.lines(store, {"dan", "kez"}, 3)
        assert lines[0][0] == ("boss (dan's): named in 3 turns (2026-05-05 – 2026-05-06; first #1) — said #4 "
                               "\"my boss put me on the rota. im going to scream\"")
    finally:
        store.close()


def test_writers_who_capitalise_write_no_names_in_lower_case(db_path: Path) -> None:
    """LoCoMo's speakers capitalise ("[6:46 pm on 23 July, 2023] Gina: …"): a word they write in lower case is one
    ("my friends look", "customers love it"), so only the turns of writers who start their turns in lower case are
    read for lower-case names (found on LoCoMo: "Customers", "Look (friends)", "Come (teammates)" had lines)."""
    assert brief_talkedcues.lower_writers([("Gina", "[6:46 pm on 23 July, 2023] Gina: That's the spirit!"),
                                           ("Jon", "[6:46 pm on 23 July, 2023] Jon: thanks, Gina!"),
                                           ("Jon", "[6:47 pm on 23 July, 2023] Jon: Ah ha ha")]) == {"jon"}
    store = core.MemoryStore(db_path)
    try:
        _chat(store, [(0, "Gina", "You look great. My friends look up to you"),
                      (1, "Mel", "Thanks Gina! The Customers love the new studio, my friends come every week"),
                      (2, "Gina", "That matters. Max loves the studio too"),
                      (3, "Mel", "Indeed. customers say the studio is cosy"),
                      (4, "Gina", "Yes, my friends look happy and Max says hi"),
                      (5, "Mel", "Max says hi back!")], datetime(2023, 7, 23, 18), "loco")
        got = brief_talkedabout.talked_about(store, {"gina", "mel"})
        assert [p["name"] for p in got] == ["Max"]
    finally:
        store.close()
