"""facts33: a thing's value switched with the old value named, and vetoes read clause by clause (pure readings,
no model; the stored outcome with the real model is bench/fact_crowded.py --heldout tests/data/fact_crowded_heldout12.jsonl)."""

from __future__ import annotations

import pytest

from memengine import (
    fact_clause_veto,
    fact_instead,
    fact_kept,
    fact_left_clause,
    fact_mood,
    fact_named_switch,
    fact_person,
    fact_slot,
    fact_untouched,
)
from memengine.fact_cue_find import tokens


@pytest.mark.parametrize(("old", "new", "left"), [
    ("The build tool for the monorepo is Gradle", "Moved the monorepo from Gradle to Bazel", "gradle"),
    ("Deploys run on CircleCI", "Deploys moved off CircleCI to Buildkite", "circleci"),
    ("Invoices are sent with FreshBooks", "Invoices are now sent with Zoho instead of FreshBooks", "freshbooks"),
    ("Feature flags live in LaunchDarkly", "Unleash replaces LaunchDarkly for the feature flags", "launchdarkly"),
    ("Der Chat im Team läuft über Slack", "Team-Chat von Slack auf Mattermost umgestellt", "slack"),
    ("Las nóminas se hacen con A3", "Las nóminas se hacen con Sage en vez de A3", "a3"),
    ("Su seguro de hogar es con Mapfre", "Se pasó de Mapfre a Línea Directa", "mapfre"),
])
def test_a_named_switch_retires_the_older(old: str, new: str, left: str) -> None:
    v = fact_named_switch.switched(old, new)
    assert v is not None and v.kind == "slot"
    assert v.reason.startswith(f"{fact_named_switch.REASON}: {left} ")


@pytest.mark.parametrize(("old", "new"), [
    # a scope or one occasion said first
    ("The staging database is MySQL 8", "For the load tests we use Postgres instead of MySQL"),
    ("Lunch is ordered from Deliveroo", "For the offsite on Friday, lunch comes from Pret instead of Deliveroo"),
    ("Exports run through Metabase", "This week only, exports run through Redash instead of Metabase"),
    # a day replaced, nothing else of the older said
    ("The bins go out on Mondays", "User now does the weekly review at 9 instead of Mondays"),
    # nothing of its own in the left value's place; what the older itself left
    ("Search moved from Solr to Elasticsearch", "Search moved from Solr to Elasticsearch"),
    ("Moved the wiki from Confluence to Notion", "The docs team switched from Confluence to Notion too"),
    # a plan; a second value
    ("Email is on Fastmail", "Might move email from Fastmail to Proton next year"),
    ("Builds are cached in S3", "Also switched the logs from S3 to R2"),
    # "still from": what stays is no left value
    ("Tea comes from Ringtons", "Tea still from Ringtons, the price went up"),
    # only the left value shared, and the older states more
    ("Local dev database is Postgres 14 in Docker with seeded fixtures", "The analytics cluster moved from Postgres to ClickHouse"),
])
def test_no_named_switch(old: str, new: str) -> None:
    assert fact_named_switch.switched(old, new) is None


def test_left_value_and_dated() -> None:
    assert fact_named_switch.left_value("CI runs on Jenkins at ci.example:8080", "CI moved off Jenkins to Drone") == "jenkins"
    assert fact_named_switch.left_value("CI runs on Jenkins", "CI now runs on Drone") == ""
    assert fact_named_switch.dated("tuesdays") and fact_named_switch.dated("march")
    assert not fact_named_switch.dated("jenkins") and not fact_named_switch.dated("208")


def test_instead_of_a_day_needs_more_of_the_older() -> None:
    old = "User swims at the lido on Wednesday mornings"
    assert fact_instead.replaced(old, "User now writes the newsletter on Fridays instead of Wednesdays") is None
    v = fact_instead.replaced(old, "User now swims at the lido on Fridays instead of Wednesdays")
    assert v is not None and v.reason == f"{fact_instead.REASON}: wednesdays (instead)"
    # a number is no day: "traded the 208 for a Zoé" (held-out 8)
    v = fact_instead.replaced("Élodie conduit une Peugeot 208", "Élodie a échangé sa 208 contre une Zoé")
    assert v is not None and v.reason == f"{fact_instead.REASON}: 208 (traded)"


@pytest.mark.parametrize(("text", "adds"), [
    ("Switched to Hetzner, AWS got too expensive", False),
    ("Mia handles payroll now, Jon is too busy", False),
    ("Sam takes the early train too", True),
    ("Sam takes the early train too, since May", True),
    ("The API also returns the ETag", True),
    ("Keep one copy on the NAS as well", True),
])
def test_too_before_a_word_adds_nothing(text: str, adds: bool) -> None:
    assert fact_clause_veto.additive(tokens(text)) is adds


def test_still_is_read_after_the_restated_clause_is_taken_off() -> None:
    old = "Project uses Node 20, managed with nvm"
    new = "Node bumped to 22 in March; nvm still manages it"
    assert fact_clause_veto.continuity(tokens(new)) and fact_slot.veto(new) == "still"
    kept = fact_kept.without(old, new)
    assert kept == "Node bumped to 22 in March" and fact_slot.veto(kept) is None
    # a still clause the older does not hold stays, and vetoes
    assert fact_slot.veto("Arjun is in Year 5 now, still at Ashley Down") == "still"


def test_a_kept_clause_with_its_own_head() -> None:
    old = "Project uses Ruby 3.1, managed with rbenv"
    assert fact_kept.without(old, "Ruby bumped to 3.3 in May; rbenv still manages it") == "Ruby bumped to 3.3 in May"
    assert fact_kept.without("Bread comes from Hobbs, Tuesday delivery",
                             "Bread now comes from Gail's, delivery still on Tuesday") == "Bread now comes from Gail's"
    # the first clause is never a kept part; a head of the older's whose rest is new stays
    assert fact_kept.without(old, "rbenv still manages it, Ruby 3.3 now") == "rbenv still manages it, Ruby 3.3 now"
    assert fact_kept.without(old, "Ruby 3.3 now, rbenv still pinned to 1.2") == "Ruby 3.3 now, rbenv still pinned to 1.2"
    # (facts35) a head neither the older nor the first clause names is another part: taken off
    assert fact_kept.without(old, "Ruby 3.3 now, Bundler still pinned to 2.4") == "Ruby 3.3 now"


def test_reflexive_se_is_no_if() -> None:
    assert fact_mood.unasserted("Se pasó de Movistar a Digi por el precio") == ""
    assert fact_mood.unasserted("Se mudou para Coimbra em março") == ""
    assert fact_mood.unasserted("Se ha cambiado de gimnasio") == ""
    assert fact_mood.unasserted("Se o preço subir, muda de operadora") == "hypothesis"
    assert fact_mood.unasserted("Se piove, la partita si gioca al coperto") == "hypothesis"


def test_a_leading_preposition_is_no_person() -> None:
    assert fact_person.subject_names("Desde marzo factura con Quipu") == frozenset()
    assert fact_person.other_person("Marta factura con Holded", "Desde marzo factura con Quipu") == ""
    assert fact_person.subject_names("Marta factura con Holded") == frozenset({"marta"})


def test_the_older_value_as_the_newer_subject() -> None:
    assert fact_slot.value_as_subject("Nora's usual lunch is a tuna sandwich", "Tuna is from Waitrose now")
    assert not fact_slot.value_as_subject("User wants replies in British English", "Replies: user now wants US English")
    assert not fact_slot.value_as_subject("The office printer is a Brother", "The office printer is an HP now")


@pytest.mark.parametrize(("old", "new", "gone"), [
    ("Code reviewer for the mobile app is Ingrid", "Tomás reviews the mobile app now, Ingrid moved to platform", "ingrid"),
    ("Der Router im Lager ist ein TP-Link Archer", "Neuer Router im Lager: Fritzbox 7530, der Archer war zu langsam", "archer"),
    ("Build with `npm run bundle`", "Builds run through turbo now; `npm run bundle` is gone", "npm"),
    ("Bread supplier is Hobbs House, two deliveries a week", "Bread now comes from Gail's, Hobbs House closed the bakery", "hobbs"),
])
def test_the_older_value_said_apart_from_the_change(old: str, new: str, gone: str) -> None:
    assert fact_left_clause.left_in_clause(old, new) == gone


@pytest.mark.parametrize(("old", "new"), [
    # named first: the newer is about it
    ("Andrea keeps the accounts of Bruno", "Bruno left the club; now he coaches the juniors"),
    # the older's value named where the new value is said ("MacBook Pro M3" after "MacBook Air")
    ("Works on a MacBook Air M1", "New laptop: MacBook Pro M3, the Air went to Pablo"),
    # a name of its own around the shared word: another mill
    ("Flour supplier is Shipton Mill", "Rye now comes from Wessex Mill, cheaper"),
    # no change said before it; one clause
    ("Hosting is on Hetzner", "Hetzner raised prices again"),
    ("Hosting is on Hetzner", "The status page, still on Hetzner, is fine"),
    # the older's subject, not its value
    ("Hiscox quoted for the van", "Renewed with Simply Business, Hiscox was dearer"),
])
def test_no_value_said_apart(old: str, new: str) -> None:
    assert fact_left_clause.left_in_clause(old, new) == ""


def test_a_label_naming_the_slot_is_no_statement_of_its_own() -> None:
    assert fact_untouched.untouched("Drucker im Büro: Brother MFC-L3770",
                                    "Neuer Drucker: HP Color LaserJet, der Brother war defekt") == ""
    # a description's statements still count
    assert fact_untouched.untouched("Marta is our backend lead; she lives in Lisbon",
                                    "Marta lives in Porto now") == "marta backend lead"
    assert fact_untouched.untouched("Printer in the office: Brother MFC; toner from Cartridge People",
                                    "New printer in the office: an HP LaserJet") == "toner cartridge people"


def test_a_joined_word_names_its_parts() -> None:
    assert fact_person.other_person("Windows-Updates werden mittwochs eingespielt",
                                    "Windows updates moved to Fridays") == ""
    assert fact_person.other_person("Pablo juega al tenis", "Javier juega al tenis") != ""
    # the older's possessor is the person the newer is about, not the older's value
    assert not fact_slot.value_as_subject("O namorado da Beatriz se chama Diego", "A Beatriz se mudou para Valinhos")


def test_a_value_taken_again_is_no_value_left() -> None:
    assert fact_left_clause.left_in_clause("Deploys go out through Jenkins",
                                           "Reverted the CI move; builds run on Jenkins again") == ""
    assert fact_left_clause.left_in_clause("O servidor de produção roda Java 11",
                                           "Revertimos la migración a Kotlin: el backend vuelve a Java") == ""
    assert fact_left_clause.left_in_clause("Docs are built by Sphinx", "Docs build changed, moved to Sphinx") == ""


def test_pairs_the_pairwise_diff_showed() -> None:
    # the older's slot kept; a possessor is whose, not the value left
    assert fact_named_switch.switched("My phone plan is with Vodafone",
                                      "they swapped my vodafone sim for a new one, same plan") is None
    assert fact_named_switch.switched("The band's drummer is Rick", "Joe replaced Rick's old drum kit") is None
    # a later clause saying the slot's new state: the old value named first is no other thing
    assert not fact_slot.value_as_subject("Il mio capo è Luca", "luca se n'è andato, ora il mio capo è Giulia")
    assert fact_slot.value_as_subject("Nora's usual lunch is a tuna sandwich", "Tuna is from Waitrose now, still on offer")
