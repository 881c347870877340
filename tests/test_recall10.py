"""Round 10 of issue 19: chat updates that name the value they replace, short settlements, questions
asking for the first value."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from conftest import cand

from memengine.recall.counter import asked_kinds, asks_first
from memengine.recall.replaced import kin, names_replaced, replaced_fragments, same_value, settled, settles
from memengine.recall.updates import _values, newer_first
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory, RecallConfig


def test_the_replaced_value_is_read_after_its_marker_in_each_language() -> None:
    assert replaced_fragments("garage rang, wednesday not tuesday") == ("tuesday",)
    assert replaced_fragments("Ortega called, 1:15 instead of 12:30") == ("12:30",)
    assert replaced_fragments("the client asked to push, demo's the 22nd, no longer the 19th") == ("the 19th",)
    assert replaced_fragments("ils nous donnent 16h30 au lieu de 15h") == ("15h",)
    assert replaced_fragments("le 19 plutôt que le 12, la couturière est en congé") == ("le 12",)
    assert replaced_fragments("Mittwoch statt Dienstag, der Saal ist belegt") == ("dienstag",)
    assert replaced_fragments("am 21., nicht am 14.") == ("am 14",)
    assert replaced_fragments("el viernes en vez del jueves") == ()  # ("del": no function word listed)
    assert replaced_fragments("mejor el viernes en vez de el jueves") == ("el jueves",)
    # only articles and prepositions between the marker and the value; a marker with no value after it
    assert replaced_fragments("I'm not sure 5 works") == ()
    assert replaced_fragments("the vendor call at 3 on thursday is no longer happening") == ()
    assert replaced_fragments("can't do 11, 1pm?") == ()


def test_a_bare_number_is_read_in_the_other_values_kind_and_a_unit_only_matches_its_unit() -> None:
    assert same_value(("number", (7.0,)), ("time", (420,)))  # "7 ist mir zu früh" / "7 Uhr"
    assert not same_value(("number", (7.0,)), ("time", (1140,)))  # not 19:00
    assert same_value(("number", (3.0,)), ("date", (None, 4, 3)))  # "pas le 3" / "le 3 avril"
    assert not same_value(("number", (45.0,)), ("number:duration", (2700.0,)))  # "not 45" / "45 minutes"
    assert kin(("number", (10.0,)), ("date", (None, 4, 3))) and not kin(("number", (900.0,)), ("date", (None, 4, 3)))
    old = _values("les alliances seront prêtes le 3 avril")
    assert names_replaced(old, [("number", (10.0,))], [("number", (3.0,))]) == {"date"}
    assert names_replaced(old, [("number", (3.0,))], [("number", (3.0,))]) == set()  # no other value stated
    assert settled(_values("Abfahrt Samstag 7 Uhr am Bahnhof"), _values("ok dann 8")) == {"time"}


def test_a_settlement_is_short_and_says_so() -> None:
    for text in ("ok friday then", "yep 12 then", "ok 13h alors", "ok dann 8", "the 21st it is"):
        assert settles(text), text
    for text in ("I'll call you then and we can talk about the 5th", "dinner at 8", "ok"):
        assert not settles(text), text


def test_questions_asking_for_the_first_value_and_kinds_in_other_languages() -> None:
    for q in ("what did the movers quote at first?", "what did the garage first quote for the brakes?",
              "what was the original price?", "Was hat der Bus ursprünglich gekostet?"):
        assert asks_first(q), q
    for q in ("when is the first meeting?", "how much are the brakes going to cost?"):
        assert not asks_first(q), q
    assert asked_kinds("Wann ist das Konzert?") == {"time", "date", "weekday", "number"}
    assert asked_kinds("Wie viel kostet der Bus?") == {"number", "number:*"}


GARAGE = [  # (author, text, score): the update, worded away from the question, scores lowest
    ("Farid", "drop off tuesday 8am", 0.9),
    ("Omar", "I can take it in", 0.8),
    ("Farid", "Zara's swimming finishes at 5 on thursdays", 0.7),
    ("Omar", "garage rang, wednesday not tuesday", 0.1),
    ("Omar", "heads up my shift ends at 6:40 not 5 this week", 0.1),
]


def garage() -> list[Candidate]:
    return [cand(i + 1, a, t, i, f"2027-02-0{i + 3}T09:00:00", s) for i, (a, t, s) in enumerate(GARAGE)]


def test_newer_first_named_links_the_turn_naming_the_replaced_value_from_the_unscored_candidates() -> None:
    c = garage()
    q = "which day is the car in for the WOF?"
    out, marks = newer_first(c[:3], 3, "named", (), q, unscored=c[3:])
    assert [x.id for x in out] == [4, 1, 2, 3] and marks == {1: [4]} and c[3].score == 0.9
    c = garage()
    out, marks = newer_first(c[:3], 3, "turns", (), q, unscored=c[3:])  # round 9's mode: no shared word, no pair
    assert marks == {} and [x.id for x in out] == [1, 2, 3]
    c = garage()
    out, marks = newer_first(c[:3], 3, "named", (), "how much is the WOF?", unscored=c[3:])
    assert marks == {}  # a weekday changed, the question asks an amount
    c = garage()
    out, marks = newer_first(c[:3], 3, "named", (), "what time does Zara's swimming finish?", unscored=c[3:])
    assert 3 not in marks  # "my shift ends at 6:40 not 5": another person telling their own


def test_named_links_go_to_the_latest_turn_stating_the_value_and_skip_questions_asking_the_first() -> None:
    bday = cand(1, "Lukas", "Hanna hat am 14. Geburtstag", 0, "2027-05-12T18:20:00", 0.9)
    ask = cand(2, "Hanna", "ist das Konzert am 14.?", 1, "2027-05-15T11:11:00", 0.8)
    fix = cand(3, "Lukas", "am 21., nicht am 14.", 2, "2027-05-15T11:15:00", 0.1)
    out, marks = newer_first([bday, ask], 2, "named", (), "Wann ist das Konzert?", unscored=[fix])
    assert marks == {2: [3]} and [x.id for x in out] == [1, 3, 2]
    quote = cand(1, "Omar", "they quoted 320 for the brakes too", 0, "2027-02-03T12:02:00", 0.9)
    cheaper = cand(2, "Omar", "290 rather than 320, they had discs in stock", 5, "2027-02-06T17:45:00", 0.1)
    ouch = cand(3, "Farid", "ouch", 1, "2027-02-03T12:05:00", 0.5)
    out, marks = newer_first([quote, ouch], 2, "named", [], "how much are the brakes?", unscored=[cheaper])
    assert marks == {1: [2]} and [x.id for x in out] == [2, 1, 3]
    quote.score, cheaper.score = 0.9, 0.1
    out, marks = newer_first([quote, ouch], 2, "named", [], "what did the garage first quote for the brakes?",
                             unscored=[cheaper])
    assert marks == {} and [x.id for x in out] == [1, 3]


def test_a_settlement_updates_only_the_value_its_proposal_countered() -> None:
    probe = cand(1, "Lukas", "die Probe ist am Dienstag um 19 Uhr", 0, "2027-05-12T18:01:00", 0.9)
    leave = cand(2, "Lukas", "Abfahrt Samstag 7 Uhr am Bahnhof", 4, "2027-05-12T18:10:00", 0.8)
    counter = cand(3, "Jonas", "7 ist mir zu früh, 8?", 8, "2027-05-13T09:30:00", 0.1)
    ok = cand(4, "Hanna", "ok dann 8", 9, "2027-05-13T09:41:00", 0.1)
    out, marks = newer_first([probe, leave], 2, "named", (), "Um wie viel Uhr fahren wir los?", unscored=[counter, ok])
    assert marks == {2: [4]} and [x.id for x in out][:2] == [1, 4]
    for c, s in ((probe, 0.9), (leave, 0.8), (ok, 0.1)):
        c.score = s
    out, marks = newer_first([probe, leave], 2, "named", (), "Um wie viel Uhr fahren wir los?", unscored=[ok])
    assert marks == {}  # no proposal seen: "ok dann 8" settles nothing known


def chat(store: MemoryStore, turns: list[tuple[str, str]], thread: str = "g") -> list[int]:
    start = datetime(2027, 2, 3, 8, 0)
    items = [NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat", ref=f"{thread}/{i}",
                       author=who, thread=thread, position=i, event_at=start + timedelta(hours=i * 7))
             for i, (who, text) in enumerate(turns)]
    return store.store_many(items).ids


def test_recall_by_default_ranks_the_turn_naming_the_replaced_value_first(store: MemoryStore) -> None:
    ids = chat(store, [("Farid", "dad's car needs its WOF, drop off tuesday 8am at Hutt Motors"),
                       ("Omar", "I can take it in"), ("Farid", "mum's birthday lunch is at Ortega, 12:30 saturday"),
                       ("Nour", "I'll bring the cake"), ("Omar", "garage rang, wednesday not tuesday"),
                       ("Farid", "new tyres were 180 each")])
    assert RecallConfig().newer_first == "units:pool"  # (round 20: forms, and a number restated beside its unit)
    q = "which day does dad's car go in for the WOF?"
    off = [r.id for r in store.recall(q, k=3, touch=False, config=replace(RecallConfig(), newer_first="")).results]
    got = store.recall(q, k=3, touch=False).results
    assert off[0] == ids[0]
    assert [r.id for r in got][:2] == [ids[4], ids[0]]
    assert got[1].possibly_outdated is True and got[1].possibly_outdated_by == [ids[4]]
    turns = store.recall(q, k=3, touch=False, config=replace(RecallConfig(), newer_first="turns:pool")).results
    assert ids[4] not in [r.id for r in turns][:1]  # round 9's mode: no word shared, no pair


def test_the_rounds_own_questions_name_one_message_each() -> None:
    data = Path(__file__).resolve().parent.parent / "bench" / "data"
    rows = [json.loads(line) for line in (data / "recall_updates10.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 27 and {r["kind"] for r in rows} == {"update", "keep"}
    assert sum(r["kind"] == "update" for r in rows) == 17
    for r in rows:
        lines = (data / "recall_updates10" / r["file"]).read_text(encoding="utf-8").splitlines()
        for snippet in r["evidence"] + r.get("outdated", []) + r.get("distractor", []):
            assert sum(snippet in line for line in lines) == 1, (r["id"], snippet)
        assert (r["kind"] == "update") == ("outdated" in r)
