"""Round 11 of issue 19: chat updates with no change word (a value restated in the same form, a settlement
after a counter-proposal), a bare hour naming a pm time, and a named update answering the turn it shares a
word with (``RecallConfig.newer_first`` mode ``forms``)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import cand

from memengine.recall.replaced import agrees, bare_hours, forms, names_replaced, pm_same, restated
from memengine.recall.updates import MODES, _values, newer_first
from memengine.records import Candidate


def test_values_said_in_a_form_that_names_their_slot() -> None:
    assert forms("lake cabin for presidents day weekend is 180 a night, 3 nights") == {("rate:night", (180.0,))}
    assert forms("le loueur m'a renvoyé le contrat : 110 € la journée") == {("rate:journ", (110.0,))}
    assert forms("pullman prenotato, 75 a testa tutto compreso") == {("rate:testa", (75.0,))}
    assert forms("el coche de alquiler son 45 al día") == {("rate:dia", (45.0,))}
    assert forms("la casa de Cádiz está libre del 28 al 30 de julio") == {("range", (28.0, 30.0))}
    assert forms("he can do from the 31st to the 2nd") == {("range", (31.0, 2.0))}
    assert forms("la nonna resta da noi dal 3 al 6 ottobre") == {("range", (3.0, 6.0))}
    # an hour and its time of day, hours and headcounts are no such form
    for text in ("9 le matin", "from 3 to 5pm", "plumber coming tuesday between 10 and 12", "dal 3 al 6 people",
                 "reservé para el sábado a las 21:30", "ok 4:30 then"):
        assert forms(text) == frozenset(), text


def test_restated_forms_with_other_values_are_an_update_of_their_kind() -> None:
    night = forms("180 a night")
    assert restated(night, forms("cabin guy emailed, 200 a night now")) == {"number"}
    assert restated(night, forms("still 180 a night")) == set()  # the same value
    assert restated(night, forms("parking is 20 a day")) == set()  # another unit
    assert restated(forms("libre del 28 al 30"), forms("dice que él puede del 31 al 2")) == {"date"}


def test_an_agreement_opens_a_short_turn() -> None:
    for text in ("ok 4:30 then, we grab Keiko from the office", "bon va pour 10h30, on descend les cartons d'abord",
                 "pues a las 11 y comemos en ruta", "d'accordo, 9 e un quarto davanti al Conad", "ok dann 8"):
        assert agrees(text), text
    for text in ("I finish at 4", "so what do you think about moving the whole thing to the 3rd of next month",
                 "je bosse jusqu'à 10h samedi"):
        assert not agrees(text), text


def test_a_bare_hour_names_a_pm_time_but_a_day_of_the_month_does_not() -> None:
    assert pm_same(("number", (7.0,)), ("time", (1140,))) and not pm_same(("number", (7.0,)), ("time", (420,)))
    assert bare_hours(("7", "le 3", "12:30")) == ("7",)
    old = _values("booked Mirabel for grandpa's 80th, friday 7pm, table for 9")
    assert names_replaced(old, [("number", (6.0,))], [("number", (7.0,))]) == set()  # round 10: 7 is 7:00
    assert names_replaced(old, [("number", (6.0,))], [("number", (7.0,))], [("number", (7.0,))]) == {"time"}
    ceremony = _values("la cérémonie est à 15h à la mairie")
    assert names_replaced(ceremony, [("number", (10.0,))], [("number", (3.0,))], []) == set()  # "pas le 3"


def test_forms_links_a_restated_amount_with_no_change_word_from_the_unscored_candidates() -> None:
    old = cand(1, "Marcus", "lake cabin for presidents day weekend is 180 a night, 3 nights", 3, "2027-01-14T20:31", 0.9)
    dock = cand(2, "Keiko", "does it have a dock?", 5, "2027-01-14T20:40", 0.8)
    new = cand(3, "Marcus", "cabin guy emailed, 200 a night now", 20, "2027-01-18T19:11", 0.1)
    parking = cand(4, "Dana", "parking is 20 a day", 21, "2027-01-18T19:20", 0.1)
    q = "how much is the lake cabin a night?"
    out, marks = newer_first([old, dock], 2, "forms", (), q, unscored=[new, parking])
    assert marks == {1: [3]} and [x.id for x in out] == [3, 1, 2] and new.score == 0.9
    old.score, dock.score, new.score = 0.9, 0.8, 0.1
    out, marks = newer_first([old, dock], 2, "named", (), q, unscored=[new, parking])
    assert marks == {} and [x.id for x in out] == [1, 2]  # round 10's mode: no marker, no link
    assert "forms" in MODES


def test_forms_settles_after_a_counter_proposal_no_turn_of_which_holds_the_settled_value() -> None:
    def thread() -> list[Candidate]:
        return [cand(1, "Marcus", "leaving at 3 on friday for the cabin?", 24, "2027-01-19T20:00", 0.9),
                cand(2, "Keiko", "I finish at 4", 25, "2027-01-19T20:04", 0.1),
                cand(3, "Dana", "ok 4:30 then, we grab Keiko from the office", 26, "2027-01-19T20:06", 0.1),
                cand(4, "Dana", "ugh ok", 10, "2027-01-16T14:15", 0.5)]
    c = thread()
    q = "what time are we leaving for the cabin on friday?"
    out, marks = newer_first([c[0], c[3]], 2, "forms", (), q, unscored=c[1:3])
    assert marks == {1: [3]} and [x.id for x in out] == [3, 1, 4]
    c = thread()
    out, marks = newer_first([c[0], c[3]], 2, "named", (), q, unscored=c[1:3])
    assert marks == {}  # round 10: the proposal must hold the settled value
    c = thread()
    out, marks = newer_first([c[0], c[3]], 2, "forms", (), q, unscored=[c[2]])
    assert marks == {}  # no counter-proposal seen: nothing was negotiated
    stated = cand(1, "Lukas", "Hanna hat am 14. Geburtstag, Kuchen nach der Probe?", 6, "2027-05-12T18:20", 0.9)
    other = cand(2, "Jonas", "7 ist mir zu früh, 8?", 8, "2027-05-13T09:30", 0.1)
    ok = cand(3, "Hanna", "ok dann 8", 9, "2027-05-13T09:41", 0.1)
    out, marks = newer_first([stated], 1, "forms", (), "Wann hat Hanna Geburtstag?", unscored=[other, ok])
    assert marks == {}  # a bare number is no proposal's kind


def test_a_named_update_answers_the_earlier_turn_it_shares_a_word_with() -> None:
    def thread() -> list[Candidate]:
        return [cand(1, "Dana", "booked Mirabel for grandpa's 80th, friday 7pm, table for 9", 0, "2027-01-14T18:02", 0.2),
                cand(2, "Keiko", "Theo's soccer is at 7 on saturday mornings this season, ugh", 7, "2027-01-15T07:45", 0.9),
                cand(3, "Dana", "grandpa gets tired late, can we do 6 instead of 7?", 13, "2027-01-16T09:02", 0.1),
                cand(4, "Dana", "brutal", 8, "2027-01-15T07:50", 0.5)]
    c = thread()
    out, marks = newer_first([c[1], c[3]], 2, "named", (), "what time is Theo's soccer on saturdays?",
                             unscored=[c[0], c[2]])
    assert marks == {2: [3]}  # round 10: the bare 7 names the soccer's 7:00
    c = thread()
    out, marks = newer_first([c[1], c[3]], 2, "forms", (), "what time is Theo's soccer on saturdays?",
                             unscored=[c[0], c[2]])
    assert marks == {} and [x.id for x in out] == [2, 4]
    c = thread()
    c[0].score = 0.9
    out, marks = newer_first([c[0], c[3]], 2, "forms", (), "what time is grandpa's birthday dinner?",
                             unscored=[c[1], c[2]])
    assert marks == {1: [3]} and [x.id for x in out][:2] == [3, 1]


def test_the_rounds_own_questions_name_one_message_each() -> None:
    data = Path(__file__).resolve().parent.parent / "bench" / "data"
    rows = [json.loads(line) for line in (data / "recall_updates11.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 26 and sum(r["kind"] == "update" for r in rows) == 16
    assert sum(r["kind"] == "keep" for r in rows) == 10
    for r in rows:
        lines = (data / "recall_updates11" / r["file"]).read_text(encoding="utf-8").splitlines()
        for snippet in r["evidence"] + r.get("outdated", []) + r.get("distractor", []):
            assert sum(snippet in line for line in lines) == 1, (r["id"], snippet)
        assert (r["kind"] == "update") == ("outdated" in r)


def test_forms_reads_an_hour_in_either_half_of_the_day_so_a_cancellation_changes_no_value() -> None:
    dentist = cand(1, "Tobias", "dentist thursday 3pm, back after", 2, "2027-01-12T09:20", 0.9)
    other = cand(2, "Wen", "tight", 3, "2027-01-12T09:25", 0.5)
    gone = cand(3, "Priscilla", "the vendor call at 3 on thursday is no longer happening", 20, "2027-01-19T13:05", 0.1)
    q = "when is Tobias at the dentist?"
    _, marks = newer_first([dentist, other], 2, "named", [gone], q)
    assert marks == {1: [3]}  # round 10: "at 3" read 3:00 against 15:00, a change
    dentist.score, other.score, gone.score = 0.9, 0.5, 0.1
    out, marks = newer_first([dentist, other], 2, "forms", [gone], q)
    assert marks == {} and [x.id for x in out] == [1, 2]


def test_restate_off_by_default_links_a_restated_value_with_no_change_word() -> None:
    quote = cand(1, "Sylvie", "le piano part avec des déménageurs pro, devis à 350", 5, "2027-04-03T08:05", 0.9)
    ouch = cand(2, "Yanis", "ça pique", 6, "2027-04-03T08:07", 0.5)
    new = cand(3, "Sylvie", "déménageurs rappelés : le piano c'est 420 avec l'escalier", 22, "2027-04-05T20:30", 0.1)
    q = "combien pour déménager le piano ?"
    _, marks = newer_first([quote, ouch], 2, "forms", [new], q)
    assert marks == {}
    _, marks = newer_first([quote, ouch], 2, "restate", [new], q)
    assert marks == {1: [3]}
