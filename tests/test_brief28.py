"""Brief, round 28 (brief28): an agent's store after weeks of nights (bench/data/brief_heldout21). What reached users:
the nightly decay archived every note of a project worked on for five weeks, and its topic vanished from the brief
(the topic pool read live rows only); a plan called off ("Finley Foods cancelled the 13 May demo") or moved by a
memory that is no plan of its chat ("O churrasco do Caio mudou para o salão de festas do prédio, mesmo dia", an
agent's note moving an imported chat's summer party) stayed under "Coming up" with its old place or day."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import memory_core as core
from memengine import brief_moves, brief_pool, consolidate, graph_rank, writes

START = datetime(2026, 2, 2, 9, 0)


def _store(db: Path, monkeypatch: pytest.MonkeyPatch, notes: list[tuple[int, str, float, str]]) -> None:
    """``notes`` (days after START, type, importance, text) stored one by one, the clock at each note's day."""
    store = core.MemoryStore(db)
    try:
        for days, kind, imp, text in notes:
            at = START + timedelta(days=days, minutes=len(text))
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            store.store(text, kind, source="agent", importance=imp, event_at=at)
    finally:
        store.close()


def _brief(db: Path, now: datetime, nights: list[datetime] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    store = core.MemoryStore(db)
    try:
        for night in [*nights, now]:
            consolidate.run(store, now=night, keep_backups=0)
        return graph_rank.brief(store, 2000, now=now)
    finally:
        store.close()


HARBOR = [  # five weeks of a migration, then other work: the migration's episodic notes fade
    (1, "episodic", 0.6, "Harbor migration: invoices move out of the Ledger monolith into the Harbor service."),
    (3, "episodic", 0.5, "Harbor migration: the invoice export job copies invoices from Ledger to Harbor."),
    (8, "episodic", 0.5, "Harbor migration: the dry run found invoices with a null tax region in Ledger."),
    (14, "episodic", 0.5, "Harbor migration: fixed the VAT rounding on invoices, per line as Ledger did."),
    (21, "episodic", 0.6, "Harbor migration: Harbor is live for new invoices, Ledger is read-only."),
    (30, "episodic", 0.5, "Harbor migration: the backfill of old invoices into Harbor finished."),
]
LATER = [
    (60, "episodic", 0.6, "Postgres upgrade: tested pg_upgrade on the staging cluster, fourteen minutes."),
    (62, "episodic", 0.6, "Postgres upgrade: the reporting queries run faster on the staging cluster."),
    (65, "episodic", 0.6, "Postgres upgrade: planned the cutover of the production cluster."),
    (70, "episodic", 0.6, "Postgres upgrade: the replica of the production cluster is in sync."),
]


def test_a_topic_whose_every_note_faded_is_still_a_topic(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _store(db_path, monkeypatch, HARBOR + LATER)
    now = START + timedelta(days=80)
    out = _brief(db_path, now, [START + timedelta(days=d, hours=18) for d in (10, 40)])
    store = core.MemoryStore(db_path)
    faded = {int(r[0]) for r in store.conn.execute("SELECT id FROM memories WHERE status = 'archived'")}
    store.close()
    assert len(faded) == len(HARBOR)  # (the decay archived every note of the migration, and nothing else)
    shown = _topic_ids(out)
    assert shown & faded and shown - faded  # the migration's lines, and the live topic's
    # a faded topic shows its lead and one more line at most (brief_pool.FADED_PER_TOPIC), after what is live
    assert len(shown & faded) <= brief_pool.FADED_PER_TOPIC
    assert "Harbor" in out["text"]
    # nothing was deleted or unarchived by the brief: it only reads
    store = core.MemoryStore(db_path)
    assert {int(r[0]) for r in store.conn.execute("SELECT id FROM memories WHERE status = 'archived'")} == faded
    store.close()


def _topic_ids(out: dict[str, Any]) -> set[int]:
    return {int(i["id"]) for i in out["chosen"] if i["section"] == "topics" and i["id"] is not None}


def test_without_faded_topics_the_migration_vanishes(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same store with the round's switch off: what users saw before (the guard of the test above)."""
    _store(db_path, monkeypatch, HARBOR + LATER)
    monkeypatch.setattr(brief_pool, "FADED_TOPICS", False)
    out = _brief(db_path, START + timedelta(days=80), [START + timedelta(days=d, hours=18) for d in (10, 40)])
    assert "Harbor" not in out["text"] and "Postgres" in out["text"]
    assert _topic_ids(out)


def _upcoming(out: dict[str, Any]) -> str:
    return "\n".join(i["text"] for i in out["sections"].get("upcoming", []))


@pytest.mark.parametrize("plan, off, gone, kept", [
    # called off, its day said in the clause that calls it off
    ("Demo of the invoice portal for Finley Foods on Wednesday 13 May at 14:00.",
     "Finley Foods cancelled the 13 May demo; they will ask for a new date after their audit.",
     "Finley Foods on Wednesday 13 May", None),
    # called off, no day said: the event is off
    ("Ingressos para o show do Djavan na Ópera de Arame, 26 de setembro, comprados.",
     "O show do Djavan foi cancelado; o reembolso cai no cartão em até 30 dias.",
     "show do Djavan na Ópera de Arame", None),
    # moved, its day unsaid ("mesmo dia"): the newer note is the plan, on the older's day
    ("Churrasco de aniversário do Caio no sítio do tio Nelson em Campo Largo, sábado 19 de setembro, ao meio-dia.",
     "O churrasco do Caio mudou para o salão de festas do prédio, mesmo dia: choveu e a estrada do sítio está ruim.",
     "sítio do tio Nelson", "salão de festas do prédio"),
])
def test_a_plan_a_later_note_calls_off_or_moves_leaves_coming_up(db_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   plan: str, off: str, gone: str,
                                                                   kept: str | None) -> None:
    notes = [(60 + d, "episodic", 0.5, t) for d, t in enumerate((
        "Nuria started the new job at Ondas Energía.", "The flat's boiler was repaired on Tuesday.",
        "Lunch with Carmen at the market.", "Bought a new bike helmet."))]
    # the plan, written in April; the later note two weeks on; "now" a few days before the plan's day
    dated = [(0, plan), (14, off)]
    when = {"13 May": datetime(2026, 5, 8), "26 de setembro": datetime(2026, 9, 10),
            "19 de setembro": datetime(2026, 9, 10)}
    now = next(v for k, v in when.items() if k in plan)
    first = now - timedelta(days=20)
    store = core.MemoryStore(db_path)
    try:
        for days, text in [*dated, *((d - 60 + 2, t) for d, _k, _i, t in notes)]:
            at = first + timedelta(days=days, minutes=len(text))
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            store.store(text, "episodic", source="agent", importance=0.6, event_at=at)
    finally:
        store.close()
    out = _brief(db_path, now)
    assert gone not in _upcoming(out)
    if kept:
        assert kept in _upcoming(out)
        assert f"→ {now.year}-09-19" in next(ln for ln in _upcoming(out).splitlines() if kept in ln)


def test_a_note_moves_a_plan_of_an_imported_chat_and_calls_another_off(db_path: Path) -> None:
    """A chat turn naming two plans (a meeting and a party); the agent's notes later call the meeting off and move
    the party: neither of the turn's days is still a plan, the note's new day is."""
    store = core.MemoryStore(db_path)
    try:
        store.store("Kemal: Termine 2026: Mitgliederversammlung am Samstag, 9. Mai, 15 Uhr im Vereinsheim. "
                    "Sommerfest am Samstag, 13. Juni, im Vereinsheim", "episodic", source="whatsapp",
                    thread="garten", position=1, author="Kemal", event_at=datetime(2026, 2, 1, 16, 0))
        for at, text in ((datetime(2026, 4, 9, 9), "Sommerfest des Vereins verlegt: jetzt am Samstag, 20. Juni, in "
                                                   "der Gaststätte Zur Linde, weil das Vereinsheim saniert wird."),
                         (datetime(2026, 4, 14, 20), "Die Mitgliederversammlung vom 9. Mai fällt aus; der Vorstand "
                                                     "schickt einen neuen Termin per Brief.")):
            store.store(text, "episodic", source="agent", importance=0.6, event_at=at)
    finally:
        store.close()
    out = _brief(db_path, datetime(2026, 4, 24))
    up = _upcoming(out)
    assert "Zur Linde" in up and "→ 2026-06-20" in up
    assert "Termine 2026" not in up


def test_a_word_every_note_says_is_no_subject(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's name in most notes joins no plan to a later note that changes something else: "El alquiler de
    Nuria sube" moves no visit of Nuria's parents."""
    notes = [(d, f"Nuria {t}") for d, t in enumerate((
        "fue al rocódromo.", "cenó con Dani.", "compró una bici.", "llamó a su madre.", "leyó un libro.",
        "fue al cine.", "hizo la compra.", "arregló la lámpara."))]
    notes += [(10, "Los padres de Nuria, Jordi y Montse, vienen de Girona del 9 al 12 de octubre."),
              (12, "El alquiler de Nuria sube a 545 € desde octubre.")]
    first = datetime(2026, 9, 5, 9)
    store = core.MemoryStore(db_path)
    try:
        for days, text in notes:
            at = first + timedelta(days=days)
            monkeypatch.setattr(writes, "utcnow", lambda at=at: at)
            store.store(text, "episodic", source="agent", importance=0.6, event_at=at)
    finally:
        store.close()
    out = _brief(db_path, datetime(2026, 9, 23))
    assert "Jordi y Montse" in _upcoming(out)


def test_called_off_days_are_those_of_the_clause_that_says_so() -> None:
    from datetime import date

    assert brief_moves._called_off_days("Finley Foods cancelled the 13 May demo; new date in June 4",
                                        date(2026, 5, 7)) == [date(2026, 5, 13)]
    assert brief_moves._called_off_days("se suspende lo de La Pedriza, dan tormentas todo el finde 3-4 de octubre",
                                        date(2026, 9, 19)) == []


@pytest.mark.parametrize("text, names", [
    ("Sam flies to Lisbon on 27 February to see his two sisters, Inês and Marta.", ("Inês", "Marta")),
    ("Sam had dinner with Rita and her kids.", ("Rita",)),
    ("Marta and her husband Rui are moving to Porto in July.", ("Marta", "Rui")),
    ("Joel (Sam's manager) signed off the Harbor migration plan.", ("Joel",)),
    ("Dev Malhotra, the new contractor, started on the Postgres upgrade.", ("Dev Malhotra",)),
    ("Bia levou os dois filhos, Caio e Lara, ao dentista.", ("Caio", "Lara")),
    ("A Renata e o marido dela, Paulo, vão se mudar para Florianópolis.", ("Renata", "Paulo")),
    ("A sogra da Bia, dona Célia, fez 80 anos.", ("Célia",)),
    ("Friedas zwei Töchter, Paula und Greta, wechseln an die Grundschule.", ("Paula", "Greta")),
    ("Los padres de Nuria, Jordi y Montse, vienen de Girona.", ("Jordi", "Montse")),
])
def test_people_named_only_in_indirect_forms_have_evidence(text: str, names: tuple[str, ...]) -> None:
    from memengine import brief_namedpeople

    got = brief_namedpeople._mentions(text)
    assert all(got.get(n, 0) >= brief_namedpeople.EVIDENCE_MIN for n in names), got


@pytest.mark.parametrize("text, name", [
    ("Dinner at Nando's and Pizza Express in Leeds.", "Pizza Express"),  # two places joined: no role anywhere
    ("Sam flies to Lisbon and Porto with his kids.", "Porto"),            # a place joined to a place
    ("Marta and her husband Rui are moving to Porto in July.", "Porto"),
])
def test_a_name_joined_to_no_person_gets_no_evidence(text: str, name: str) -> None:
    from memengine import brief_namedpeople

    assert brief_namedpeople._mentions(text).get(name, 0) == 0
