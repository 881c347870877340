"""Round 19: facts that change as an agent notes them. A revert said bare ("Back to Gradle.", "Terug naar
Slack": memengine/fact_undone.py's ``bare`` / ``returned``) retires the change it undoes, when that change is
the one recent candidate that reads so; a value moved by a relative word ("the hosting bill doubled", "Release
um eine Woche verschoben": memengine/fact_relative.py) retires the older; a choice still weighed ("estamos
valorando ...", "we overwegen ...") or someone's advice ("ops says staging should be ...") retires nothing
(memengine/fact_mood.py). Pairs of this file's own, EN / DE / FR / ES / PT / IT / NL."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import pair_links

from memengine import fact_alias, fact_mood, fact_relative, fact_undone, supersession

# (the older states a change to a thing; the newer goes back to another one, naming nothing else)
BARE_RETURNS = [
    ("The docs site moved to Docusaurus", "Back to MkDocs."),
    ("Das Monitoring läuft jetzt über Grafana", "Wir sind zurück bei Nagios"),
    ("On est passés à Podman pour les conteneurs", "Retour à Docker"),
    ("Il linter adesso è Biome", "Siamo tornati a ESLint"),
    ("We zijn overgestapt op Jira", "Terug naar Trello"),
    ("O deploy passou para o Render", "Voltamos ao Heroku"),
    ("El frontend se migró a Svelte", "De vuelta a React"),
]

# more than a bare return, a return in time, the same thing, an older stating no change, a question
NOT_BARE_RETURNS = [
    ("Die App wurde auf Zustand umgestellt", "Wir sind zurück auf Node 18 für den Build-Server"),
    ("We moved the build to Bazel", "We are back to work"),
    ("Priya moved to the Berlin office", "Priya is back on Monday"),
    ("We moved the build to Bazel", "Back to Bazel"),
    ("The app uses Zustand", "Back to Redux."),
    ("We moved the build to Bazel", "Back to Gradle?"),
    ("We moved the build to Bazel", "back to the drawing board"),
    ("Le front est passé à Vite", "On est revenus sur l'ancienne version du logo"),
]

# a value moved by a factor, a percentage or a shift, the slot named as in the older
RELATIVE = [
    ("The hosting bill is 300 dollars a month", "the hosting bill doubled"),
    ("The offsite is on June 12", "pushed the offsite two weeks"),
    ("Das Sprint-Review ist am Freitag", "Sprint-Review um eine Woche verschoben"),
    ("La cuota del gimnasio es de 30 euros", "la cuota del gimnasio se ha duplicado"),
    ("Il canone è di 40 euro", "il canone è raddoppiato"),
    ("Het budget is 5000 euro", "het budget is gehalveerd"),
    ("A mensalidade da escola é 400 euros", "a mensalidade da escola dobrou"),
    ("The rent is 1200 a month", "the rent went up 5%"),
]

# another thing moved the same way, a part of the older's subject, an older with no value of that kind, unasserted
NOT_RELATIVE = [
    ("The hosting bill is 300 dollars a month", "the electricity bill doubled"),
    ("The offsite is on June 12", "pushed the release two weeks"),
    ("The sales target is 1M", "sales doubled"),
    ("The offsite is in Lisbon", "pushed the offsite a week"),
    ("Our team has 4 people", "the traffic doubled"),
    ("The hosting bill is 300 dollars a month", "maybe the hosting bill doubled?"),
    ("The hosting bill is 300 dollars a month", "finance says the hosting bill should be halved"),
    ("The gym's wifi fee is 5 euros", "the wifi fee doubled"),
    ("Releases go out on Thursday mornings", "release pushed two weeks"),
]

# not asserted: a choice weighed, a plan, someone's advice or opinion, a past
UNASSERTED = [
    ("estamos valorando mover las copias de seguridad a S3", "hypothesis"),
    ("stiamo valutando di passare a Vercel", "hypothesis"),
    ("we overwegen om naar Azure te gaan", "hypothesis"),
    ("misschien verhuizen we de build naar GitLab", "hypothesis"),
    ("Priya thinks we should use Terraform for the infra", "opinion"),
    ("staging should be on a t3.large", "opinion"),
    ("Lena findet, Vercel wäre besser", "opinion"),
    ("Ana cree que el servidor debería ir en Hetzner", "opinion"),
    ("Julien trouve que pnpm est mieux", "opinion"),
    ("Vroeger gebruikten we Bitbucket", "anecdote"),
    ("we gaan volgende maand naar Postgres 17", "plan"),
]

# asserted still: a "now" word lifts advice, "findet ... statt" / "vindt plaats" take place, a recommended value
ASSERTED = [
    "Deploys should go through ArgoCD now",
    "Das Meeting findet montags um 11 Uhr statt",
    "De vergadering vindt plaats op dinsdag",
    "The recommended dose is 20 mg",
    "De huur is 1275 euro per maand",
]


@pytest.mark.parametrize(("old", "new"), BARE_RETURNS)
def test_a_bare_return_undoes_the_older_change(old: str, new: str) -> None:
    assert fact_undone.bare(new)
    assert fact_undone.returned(old, new) != ""


@pytest.mark.parametrize(("old", "new"), NOT_BARE_RETURNS)
def test_not_a_bare_return_of_the_older(old: str, new: str) -> None:
    assert fact_undone.returned(old, new) == ""


def test_bare_reads_the_run_of_names() -> None:
    assert fact_undone.bare("We are back on Redux Toolkit") == ("redux", "toolkit")
    assert fact_undone.bare("Back to Postgres 15 again!") == ("postgres", "15")
    assert fact_undone.bare("Back to Postgres for the analytics jobs") == ()


@pytest.mark.parametrize(("old", "new"), RELATIVE)
def test_a_value_moved_by_a_relative_word(old: str, new: str) -> None:
    assert fact_relative.moved_by(old, new) != ""


@pytest.mark.parametrize(("old", "new"), NOT_RELATIVE)
def test_not_the_older_value_moved(old: str, new: str) -> None:
    assert fact_relative.moved_by(old, new) == ""


@pytest.mark.parametrize(("text", "mood"), UNASSERTED)
def test_unasserted_moods(text: str, mood: str) -> None:
    assert fact_mood.unasserted(text) == mood


@pytest.mark.parametrize("text", ASSERTED)
def test_still_asserted(text: str) -> None:
    assert fact_mood.unasserted(text) == ""


def test_an_acronym_counting_its_stop_words() -> None:
    assert fact_alias.aliased("La base de données tourne sur MySQL 5.7", "la BDD tourne sur MySQL 8") \
        == "la base de données tourne sur MySQL 8"
    # (skipping stop words first: "BD" / "banco de dados" as before)
    assert fact_alias.aliased("O banco de dados é MySQL 5.7", "BD é MySQL 8.0") == "banco de dados é MySQL 8.0"


# --------------------------------------------------------------------------- the plan, no model

def _row(i: int, text: str, at: str) -> tuple[int, str, str, str]:
    return (i, text, at, "agent")


def test_plan_retires_the_one_recent_change_a_bare_return_undoes() -> None:
    got = supersession.plan(9, "Back to MkDocs.", "2026-05-10T10:00:00+00:00",
                            [(_row(1, "The docs site moved to Docusaurus", "2026-05-02T09:00:00+00:00"), 0.2),
                             (_row(2, "The docs site is at docs.example.com", "2026-04-01T09:00:00+00:00"), 0.3)],
                            new_source="agent")
    assert [(d.winner, d.loser, d.maybe, d.verdict.kind) for d in got] == [(9, 1, False, "revert")]


def test_plan_two_changes_a_bare_return_may_undo_neither_retired() -> None:
    got = supersession.plan(9, "Back to MkDocs.", "2026-05-10T10:00:00+00:00",
                            [(_row(1, "The docs site moved to Docusaurus", "2026-05-02T09:00:00+00:00"), 0.2),
                             (_row(2, "The standup moved to Room 4", "2026-05-03T09:00:00+00:00"), 0.1)],
                            new_source="agent")
    assert got == []


def test_plan_a_change_of_long_ago_is_not_what_a_bare_return_undoes() -> None:
    old = _row(1, "The docs site moved to Docusaurus", "2025-11-02T09:00:00+00:00")
    assert supersession.plan(9, "Back to MkDocs.", "2026-05-10T10:00:00+00:00", [(old, 0.2)],
                             new_source="agent") == []
    later = _row(1, "The docs site moved to Docusaurus", "2026-05-12T09:00:00+00:00")  # (stored after: history)
    assert supersession.plan(9, "Back to MkDocs.", "2026-05-10T10:00:00+00:00", [(later, 0.2)],
                             new_source="agent") == []


def test_plan_a_relative_move_without_the_model() -> None:
    got = supersession.plan(9, "the hosting bill doubled", "2026-05-10T10:00:00+00:00",
                            [(_row(1, "The hosting bill is 300 dollars a month", "2026-05-02T09:00:00+00:00"), 0.8)],
                            new_source="agent")
    assert [(d.loser, d.maybe, d.verdict.kind) for d in got] == [(1, False, "relative")]


# --------------------------------------------------------------------------- with the real model

@pytest.mark.parametrize(("old", "new"), BARE_RETURNS)
def test_real_model_bare_return_supersedes(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert pair_links(tmp_path / "r.db", old, new, real) == (True, False)


@pytest.mark.parametrize(("old", "new"), RELATIVE)
def test_real_model_relative_supersedes(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert pair_links(tmp_path / "r.db", old, new, real)[0]


@pytest.mark.parametrize(("old", "new"), NOT_BARE_RETURNS[:3] + NOT_RELATIVE + [
    ("El correo de la tienda va por Postfix", "estamos valorando pasar el correo de la tienda a Mailgun"),
    ("Staging runs on a t3.medium", "ops says staging should be on a t3.large"),
])
def test_real_model_look_alike_not_retired(real, tmp_path: Path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert not pair_links(tmp_path / "r.db", old, new, real)[0]

