"""Facts that change, second round: prepositions are not switch states, change language
("switched from Jira to Linear", "moved to Friday"), restatements with another verb, accents,
Portuguese. Rules in memengine/facts.py and memengine/fact_change.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import memory_core as core
from memengine import facts

DATA = Path(__file__).parent / "data"
DEV2 = [json.loads(line) for line in (DATA / "fact_pairs_dev2.jsonl").read_text(encoding="utf-8").splitlines()]
DEV3 = [json.loads(line) for line in (DATA / "fact_pairs_dev3.jsonl").read_text(encoding="utf-8").splitlines()]
DEV4 = [json.loads(line) for line in (DATA / "fact_pairs_dev4.jsonl").read_text(encoding="utf-8").splitlines()]
SETS = {"dev2": DEV2, "dev3": DEV3, "dev4": DEV4}

# dev2 was written before these rules and tuned on; dev3 was written after dev2's rules and
# scored once before any further change (then: precision 1.000, recall 0.897); dev4 likewise
# after dev3's (then: precision 1.000, recall 0.654: pronoun subjects, contractions, "got").
MIN_PRECISION = 0.95
MIN_RECALL = 0.90


def scores(rows: list[dict[str, Any]]) -> tuple[float, float]:
    tp = fp = fn = 0
    for r in rows:
        flagged = facts.compare(r["a"], r["b"]) is not None
        tp += flagged and r["label"]
        fp += flagged and not r["label"]
        fn += (not flagged) and r["label"]
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


def test_sets_shape() -> None:
    for rows in SETS.values():
        assert {r["lang"] for r in rows} == {"en", "fr", "es", "de", "pt"}
        assert {r["class"] for r in rows} <= {"prep", "change", "restate", "modifier"}
        for r in rows:
            assert set(r) == {"a", "b", "label", "kind", "lang", "class"} and (r["kind"] is None) == (not r["label"])


@pytest.mark.parametrize("name", sorted(SETS))
def test_precision_recall(name: str) -> None:
    precision, recall = scores(SETS[name])
    assert precision >= MIN_PRECISION and recall >= MIN_RECALL, (name, precision, recall)


@pytest.mark.parametrize("cls", ["prep", "change", "restate", "modifier"])
def test_no_class_has_a_false_supersession(cls: str) -> None:
    for r in DEV2 + DEV3 + DEV4:
        if r["class"] == cls and not r["label"]:
            assert facts.compare(r["a"], r["b"]) is None, r


# --------------------------------------------------------------------------- prepositions

@pytest.mark.parametrize(("text", "switch"), [
    ("The heating is on", True),
    ("The heating is off now", True),
    ("Logging is on in production", True),
    ("The review is on Thursday at 3pm", False),
    ("The party is on the 14th", False),
    ("The gym is on Elm Street", False),
    ("The talk is on security", False),
    ("Das Licht ist aus", True),
    ("Er ist aus Berlin", False),
])
def test_on_and_off_are_switch_states_only_without_an_object(text: str, switch: bool) -> None:
    assert any(w.key == "AX:switch" for w in facts.analyse(text).words) == switch


def test_a_weekday_after_on_is_the_value() -> None:
    v = facts.compare("The design review is on Thursday at 3pm", "The design review is on Friday at 3pm")
    assert v is not None and v.kind == "date"
    assert facts.compare("The design review is on Thursday at 3pm", "The design review is at 3pm on Thursday") is None
    v = facts.compare("The farewell party is on the 14th", "The farewell party is on the 21st")
    assert v is not None and v.kind == "number"


# --------------------------------------------------------------------------- change language

@pytest.mark.parametrize(("text", "marker", "old"), [
    ("The team switched from Jira to Linear for tickets", "verb", ["jira"]),
    ("We replaced Jenkins with GitHub Actions", "verb", ["jenkins"]),
    ("Jenkins was replaced by GitHub Actions", "verb", ["jenkins"]),
    ("The standup moved to Friday at 10am", "verb", []),
    ("Das Team ist von Jira zu Linear gewechselt", "verb", ["jira"]),
    ("L'équipe est passée de Slack à Teams", "verb", ["slack"]),
    ("Ana drinks tea instead of coffee", "instead", ["coffee"]),
    ("Marco now drinks green tea", "now", []),
    ("Marco now also drinks green tea", "", []),  # added, not replaced
    ("Tom went to the dentist", "", []),  # a motion verb without a new value
    ("Sara moved to Berlin", "", []),  # a move of house: "lives in Berlin"
])
def test_change_language_is_read(text: str, marker: str, old: list[str]) -> None:
    f = facts.analyse(text)
    assert (f.change, f.old_words) == (marker, old)


def test_a_move_to_a_place_is_living_there_and_a_move_to_a_day_is_a_new_date() -> None:
    assert any(w.key == "live" for w in facts.analyse("Sara moved to Berlin").words)
    f = facts.analyse("The standup moved to Friday")
    assert not any(w.key == "live" for w in f.words) and [v.kind for v in f.values] == ["weekday"]


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("The team uses Jira for tickets", "The team switched from Jira to Linear for tickets", "slot"),
    ("The standup is on Monday at 9am", "The standup moved to Tuesday at 9am", "date"),
    ("Emma's manager is Raj", "Emma's manager changed to Lina", "slot"),
    ("We use GitLab", "We switched from GitLab to GitHub", "slot"),
    ("The rent is $1,200 a month", "The rent went up to $1,350 a month", "number"),
    ("Das Abendessen ist am Freitag", "Das Abendessen wurde auf Samstag verschoben", "date"),
    ("A equipa usa o Slack", "A equipa mudou do Slack para o Teams", "slot"),
])
def test_changes_supersede(old: str, new: str, kind: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == kind, v


@pytest.mark.parametrize(("old", "new"), [
    ("The team uses Jira for tickets", "The team switched from Trello to Jira for tickets"),  # already so
    ("Nina uses Notion for notes", "Nina now also uses Obsidian for notes"),  # added
    ("The sprint review is on Friday", "The sprint planning was moved to Monday"),  # another event
    ("Ben works at Acme in Leeds", "Ben moved to Bristol"),  # works / lives
    ("We use GitLab for CI", "We switched from GitLab to GitHub for the wiki"),  # each side its own words
])
def test_change_language_about_something_else_does_not_supersede(old: str, new: str) -> None:
    assert facts.compare(old, new) is None


# --------------------------------------------------------------------------- restatements, accents

@pytest.mark.parametrize(("a", "b"), [
    ("Priya's cat is called Mochi", "Priya has a cat named Mochi"),
    ("The project is led by Hana", "Hana leads the project"),
    ("Le chien de Julie s'appelle Rex", "Julie a un chien nommé Rex"),
    ("O cão do Rui chama-se Bolt", "O Rui tem um cão chamado Bolt"),
    ("Annas Hund heißt Bello", "Anna hat einen Hund namens Bello"),
])
def test_a_restatement_with_another_verb_is_no_update(a: str, b: str) -> None:
    assert facts.compare(a, b) is None and facts.compare(b, a) is None


def test_a_new_name_is_still_an_update() -> None:
    v = facts.compare("Priya's cat is called Mochi", "Priya has a cat named Luna")
    assert v is not None and "Mochi -> Luna" in v.reason


def test_accented_words_are_not_english_function_words() -> None:
    assert [w.key for w in facts.analyse("Claire préfère le thé").words] == ["claire", "AX:prefers", "the"]
    v = facts.compare("Claire préfère le thé", "Claire préfère le café")
    assert v is not None and v.kind == "preference"
    assert facts.compare("Marta prefiere el té", "Marta prefiere el café") is not None


def test_a_negated_addition_is_no_denial() -> None:
    assert facts.compare("Tom drinks his coffee black", "Tom drinks his coffee black with no sugar") is None
    assert facts.compare("Ana is allergic to peanuts", "Ana is not allergic to peanuts") is not None


def test_portuguese_reads_its_copula_negation_and_weekdays() -> None:
    f = facts.analyse("O cão não está no jardim na quinta")
    assert f.lang == "pt" and f.negations == ["nao"] and [v.kind for v in f.values] == ["weekday"]
    assert facts.analyse("O Rui é alto e magro").subject_end == 1


# --------------------------------------------------------------------------- the store

def test_change_language_supersedes_at_write_time(store: core.MemoryStore) -> None:
    old = store.store("The team uses Jira for tickets").id
    new = store.store("The team switched from Jira to Linear for tickets")
    assert new.supersedes == [old] and store.get(old).valid_to is not None


def test_a_restatement_never_supersedes_at_write_time(store: core.MemoryStore) -> None:
    old = store.store("Priya's cat is called Mochi").id
    new = store.store("Priya has a cat named Mochi")
    assert new.supersedes == [] and new.superseded_by is None and store.get(old).valid_to is None


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("The heating is on", "The heating is now off", "antonym"),  # an adverb between copula and state
    ("Das Licht ist an", "Das Licht ist jetzt aus", "antonym"),
    ("Oscar eats meat", "Oscar now does not eat meat", "negation"),  # "now" and a negation
    ("The retro is on Wednesday at 4pm", "The retro got pushed back to Thursday", "date"),
    ("We track bugs in Jira", "We've switched to Linear for bugs", "place"),  # (after in / to)
    ("Usamos o Jira", "Trocamos o Jira pelo Linear", "slot"),  # the verb's ending is the subject
])
def test_more_forms_of_change(old: str, new: str, kind: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == kind, v


def test_the_same_pronoun_alone_needs_one_name_for_another() -> None:
    assert facts.compare("We use Jira", "We switched to Linear") is not None
    assert facts.compare("I use Vim", "I switched to a standing desk") is None
    assert facts.compare("We use GitLab", "They switched from GitLab to GitHub") is None
