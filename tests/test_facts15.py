"""Round 15: facts agents store, the same slot named in other words (memengine/fact_alias.py), and the
look-alikes in one frame that the rule path superseded (another day's session, a value for a narrower
scope, a plan). Pairs of this file's own: none from tests/data/fact_heldout19.jsonl (the round's blind
set) nor from the lead's probes."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_outcome

from memengine import fact_mood, facts, supersession


def _rules_supersede(old: str, new: str) -> bool:
    """Whether the rule path (``supersession.rules`` and its vetoes) retires ``old`` for ``new``."""
    verdict = supersession.rules(old, facts.analyse(new), new, 0.8, 0.8)
    return verdict is not None and not supersession.vetoed(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # another day's session: the weekday and the amount both differ
    ("I cycle 20 km on Wednesdays", "I cycle 45 km on Sundays"),
    ("We swim 1500 m on Mondays", "we swim 800 m on Fridays"),
    ("Je cours 8 km le mardi", "je cours 15 km le dimanche"),
    # the value for a narrower scope, closing the newer
    ("The request timeout is 30 seconds", "The request timeout is 120 seconds for batch jobs"),
    ("Le quota disque est de 5 Go", "le quota disque est de 50 Go pour les équipes data"),
    ("The max attachment size is 10 MB", "The max attachment size is 50 MB for guests"),
    ("The connection limit is 100", "The connection limit is 20 in the sandbox environment"),
    # a plan, not what holds now
    ("The Redis cluster runs version 6.2", "We plan to upgrade the Redis cluster to 7.2 in the spring"),
    ("La réunion mensuelle est le premier lundi", "On prévoit de passer la réunion mensuelle au premier jeudi"),
])
def test_rule_path_leaves_look_alikes_in_one_frame(old: str, new: str) -> None:
    assert not _rules_supersede(old, new)


@pytest.mark.parametrize(("old", "new"), [
    # the day alone changed (the amount stays, or there is none): the slot's new value
    ("I cycle 20 km on Wednesdays", "I cycle 20 km on Sundays now"),
    ("Yoga is on Tuesdays at 6pm", "yoga moved to Thursdays at 7pm"),
    ("The max attachment size is 10 MB", "The max attachment size is 25 MB now"),
])
def test_rule_path_still_supersedes_the_plain_updates_next_to_them(old: str, new: str) -> None:
    assert _rules_supersede(old, new)


def test_a_plan_is_unasserted_in_every_language() -> None:
    for text in ("We plan to move the standup to 10", "they're planning to raise the price to 12",
                 "On prévoit de passer à Debian 12", "Planeamos mudar o servidor para Frankfurt",
                 "Wir planen, den Server auf Ubuntu 24.04 zu heben", "Tenemos pensado cambiar a Postgres 16",
                 "Abbiamo in programma di passare a Kafka 3.7"):
        assert fact_mood.unasserted(text) == "plan", text
    # a plan that is settled ("the plan is") or a price plan names a value that holds
    for text in ("Our plan is 40 a month", "the new plan costs 12 dollars", "Le forfait prévoit 20 Go"):
        assert fact_mood.unasserted(text) == "", text


# --------------------------------------------------------------------------- the slot named in other words

def test_short_forms_read_by_their_letters() -> None:
    from memengine.fact_alias import short_form

    for short, long in (("prod", "production"), ("repo", "repository"), ("pwd", "password"), ("svc", "service"),
                        ("tz", "timezone"), ("k8s", "kubernetes"), ("i18n", "internationalization"),
                        ("cfg", "config")):
        assert short_form(short, long), (short, long)
    # an inflection, a word of its own, a German compound's modifier
    for short, long in (("meet", "meetings"), ("walk", "walker"), ("run", "running"), ("vive", "viviendo"),
                        ("es", "esta"), ("ll", "landlord"), ("k9s", "kubernetes")):
        assert not short_form(short, long), (short, long)
    assert not short_form("uhr", "uhrzeit", clipped=False)


def test_the_newer_is_rewritten_in_the_older_words() -> None:
    from memengine.fact_alias import aliased

    assert aliased("The staging database password is kiwi-11", "staging db pwd: mango-12") == \
        "staging database password: mango-12"
    assert aliased("Our CDN is Cloudflare", "content delivery network: Fastly") == "CDN: Fastly"
    assert aliased("The QA lead is Ines", "quality assurance lead: Bruno") == "QA lead: Bruno"
    assert aliased("Rafa drives a Corolla", "he's driving a Prius these days") == "Rafa is driving a Prius these days"
    assert aliased("Der Build-Agent läuft auf Debian 11", "Build-Agenten laufen auf Debian 12") == \
        "Build-Agent laufen auf Debian 12"
    # nothing to rewrite: the newer as it is (a word inside an address, a pronoun after two people)
    assert aliased("The docs live at https://docs.example.org", "docs moved to https://dx.example.org") == \
        "docs moved to https://dx.example.org"
    assert aliased("Mia and Leo share a Golf", "she drives a Polo") == "she drives a Polo"


def test_another_instance_of_the_frame_is_never_rewritten_into_the_slot() -> None:
    from memengine.fact_alias import aliased

    for old, new in (("The staging API key is abc-1", "The production API key is abc-2"),
                     ("Worker w1 has 8 cores", "Worker w2 has 16 cores")):
        assert aliased(old, new) == new


def test_named_within_is_the_newer_with_fewer_of_the_older_words() -> None:
    from memengine import fact_slot

    assert fact_slot.named_within(fact_slot.features("The nightly backup job runs at 1am", "backup job runs at 3am",
                                                     0.8, 0.8))
    # one template already, or a word of the newer the older lacks ("staging"), or no new value
    assert not fact_slot.named_within(fact_slot.features("The backup job runs at 1am", "the backup job runs at 3am",
                                                         0.8, 0.8))
    assert not fact_slot.named_within(fact_slot.features("The nightly backup job runs at 1am",
                                                         "staging backup job runs at 3am", 0.8, 0.8))
    assert not fact_slot.named_within(fact_slot.features("The nightly backup job runs at 1am", "backup job runs at 1am",
                                                         0.8, 0.8))
    from memengine.fact_slot_weights import WEIGHTS

    assert 0.0 < WEIGHTS["subset_threshold"] < WEIGHTS["threshold"]


# --------------------------------------------------------------------------- with the real model

@pytest.mark.parametrize(("old", "new", "superseded"), [
    # the slot named in other words
    ("The staging database password is kiwi-11", "staging db pwd: mango-12", True),
    ("Our CDN is Cloudflare", "CDN is Fastly now", True),
    ("The QA lead is Ines", "QA lead: Bruno", True),
    ("La base de datos de producción es Postgres 13", "BD de prod: Postgres 16", True),
    # look-alikes in one frame
    ("The staging API key is abc-1", "The production API key is abc-2", False),
    ("I cycle 20 km on Wednesdays", "I cycle 45 km on Sundays", False),
    ("The max attachment size is 10 MB", "The max attachment size is 50 MB for guests", False),
    ("The connection limit is 100", "The connection limit is 20 in the sandbox environment", False),
    ("Worker w1 has 8 cores", "Worker w2 has 16 cores", False),
    ("The Redis cluster runs version 6.2", "We plan to upgrade the Redis cluster to 7.2 in the spring", False),
    ("Rafa drives a Corolla", "his sister drives a Prius", False),
])
def test_real_model_the_slot_in_other_words_supersedes_and_its_look_alikes_do_not(  # type: ignore[no-untyped-def]
        real, tmp_path: Path, old: str, new: str, superseded: bool) -> None:
    assert pair_outcome(tmp_path / "r.db", old, new, real) == (superseded, False)
