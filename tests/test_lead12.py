"""Lead, session 12: a probable update marks one earlier value, not every near fact.

The middle band (memengine/fact_slot.py) links a write to each near fact it scores above the band. An agent's
notes about one person are all near each other: "Rafa and Inês are moving from Porto to Lisbon" was linked to
the new job in Lisbon, the partner and her dog, and a December flight. Recall then ranked the move above the
dog's name and the flight's day, and the brief hid the job. Now recall marks only the later fact's strongest
link (versions._strongest, the brief's own rule), and the brief's chain rule reads a chain's subject from
its rare words, not from the name every note says (brief_keyfacts.outdated_links).
"""

from __future__ import annotations

from datetime import datetime, timezone

import memory_core as core
from memengine import fact_slot, facts, graph_rank, supersession, versions


def _link(s: core.MemoryStore, newer: int, older: int, p: float, kind: str = "maybe") -> None:
    """A write's link as supersession.apply writes it: may_update (``maybe``) or superseded outright."""
    s.conn.execute("BEGIN IMMEDIATE")
    verdict = facts.Verdict(fact_slot.MAY_UPDATE if kind == "maybe" else "slot", "test", p)
    supersession.apply(s.conn, [supersession.Decision(newer, older, "2026-11-26T10:00:00Z", verdict,
                                                      maybe=kind == "maybe")], "2026-11-26T10:00:00Z")
    s.conn.execute("COMMIT")


def test_recall_marks_only_the_strongest_link_of_a_later_fact(store: core.MemoryStore) -> None:
    dog = store.store("Rafa's partner is Ines; they have a dog called Biscoito.").id
    flight = store.store("Rafa and Ines are flying to Lagos on 18 December.").id
    job = store.store("Rafa starts at Kaya Pay, a payments company in Lisbon, on 1 December.").id
    move = store.store("Rafa and Ines are moving from Porto to Lisbon in late November.", dedup=False).id
    _link(store, move, dog, 0.75)
    _link(store, move, flight, 0.85)
    _link(store, move, job, 0.94)
    res = store.recall("what is the name of the dog called Biscoito", k=2, strategy="keyword").results
    assert res[0].id == dog and res[0].possibly_outdated is None
    res = store.recall("flying to Lagos on 18 December", k=2, strategy="keyword").results
    assert res[0].id == flight and res[0].possibly_outdated is None
    res = store.recall("Kaya Pay payments company", k=1, strategy="keyword").results
    assert [m.id for m in res] == [move, job] and res[1].possibly_outdated_by == [move]
    # every link is kept in the file: only what recall marks changed
    assert versions.probably_outdated(store.conn) == {dog: [move], flight: [move], job: [move]}


def test_a_later_fact_that_superseded_one_outright_marks_nothing_else(store: core.MemoryStore) -> None:
    old_host = store.store("The staging database host is pg-staging-2.internal.").id
    backups = store.store("Staging database backups run nightly at 02:00.").id
    new_host = store.store("The staging database moved to pg-staging-3.internal.", dedup=False).id
    _link(store, new_host, old_host, 1.0, kind="sure")
    _link(store, new_host, backups, 0.7)
    res = store.recall("staging database backups nightly", k=1, strategy="keyword").results
    assert res[0].id == backups and res[0].possibly_outdated is None


def test_the_brief_keeps_a_new_job_a_move_is_only_linked_to_by_the_owner_name(store: core.MemoryStore) -> None:
    for n in ["Rafa prefers short answers.", "Rafa is allergic to penicillin."]:
        store.store(n, importance=0.9)
    # other probable updates about Rafa: the linked facts that tell whom the store is about (his name, said by most)
    for old, newer in [("Rafa uses Neovim with LazyVim.", "Rafa switched to Zed for Go work."),
                       ("The team deploys on Tuesdays.", "The team now deploys on Wednesdays only.")]:
        older = store.store(old, importance=0.9).id
        _link(store, store.store(newer, importance=0.9, dedup=False).id, older, 0.7)
    old_job = store.store("Rafa works as a backend engineer at Lumen Health in Porto.", importance=0.9).id
    job = store.store("Rafa left Lumen Health; he starts at Kaya Pay in Lisbon.", importance=0.9, dedup=False).id
    _link(store, job, old_job, 1.0, kind="sure")
    move = store.store("Rafa and Ines are moving from Porto to Lisbon.", importance=0.9, dedup=False).id
    _link(store, move, job, 0.94)
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    text = graph_rank.brief(store, budget=3000, now=now)["text"]
    assert f"#{job} Rafa left Lumen Health; he starts at Kaya Pay in Lisbon." in text
    assert f"(may update #{job})" not in text
    # a move that names the chain's own subject still stands as a probable update of it
    store.conn.execute("BEGIN IMMEDIATE")
    store.conn.execute("DELETE FROM associations WHERE source_id = ?", (move,))
    store.conn.execute("COMMIT")
    quits = store.store("Rafa quit Kaya Pay and went back to Lumen Health.", importance=0.9, dedup=False).id
    _link(store, quits, job, 0.9)
    text = graph_rank.brief(store, budget=3000, now=now)["text"]
    assert f"(may update #{job})" in text and f"#{job} Rafa left" not in text


# --------------------------------------------------------------------------- the other leg of a journey

LEGS = [  # (older, newer, the other leg?)
    ("Flight to Lagos on 18 December at 07:10", "Flight back from Lagos on 3 January at 22:40", True),
    ("Train to Paris on Friday at 8:15", "Train back from Paris on Sunday at 19:30", True),
    ("Outbound flight LH123 on 3 May", "Return flight LH124 on 10 May", True),
    ("Ferry to Mallorca on 2 August", "Ferry from Mallorca on 16 August", True),
    ("Vuelo a Lagos el 18 de diciembre", "Vuelo de vuelta desde Lagos el 3 de enero", True),
    ("Hinflug nach Lissabon am 3. Mai", "Rückflug von Lissabon am 10. Mai", True),
    ("Volo per Roma il 3 maggio", "Volo di ritorno da Roma il 9 maggio", True),
    ("Le vol pour Montréal part le 2 juin", "Vol retour de Montréal le 20 juin", True),
    ("Vlucht naar Lissabon op 3 mei", "Terugvlucht uit Lissabon op 10 mei", True),
    # the same leg moved, a revert, no journey: updates as before
    ("Flight to Lagos on 18 December", "The flight to Lagos moved to 19 December", False),
    ("Return flight on 3 January", "Return flight now on 4 January", False),
    ("The train to Leeds leaves at 7:05", "The train to Leeds now leaves at 7:20", False),
    ("The event bus is Kafka", "Rolled back the event bus to RabbitMQ", False),
    ("We build with Maven", "Back to Gradle.", False),
    ("Die Preise steigen im Januar", "Rückfahrt am Sonntag", False),
]


def test_the_other_leg_of_a_journey_is_read_as_such() -> None:
    from memengine import fact_legs

    assert [bool(fact_legs.another_leg(old, new)) for old, new, _ in LEGS] == [leg for _, _, leg in LEGS]


def test_a_flight_back_keeps_the_flight_there(store: core.MemoryStore) -> None:
    """Through the write path (the period rule read the way back as the flight moved and retired it)."""
    there = store.store("Flight to Lagos on 18 December at 07:10").id
    back = store.store("Flight back from Lagos on 3 January at 22:40")
    assert back.supersedes == [] and not back.may_update
    moved = store.store("The flight to Lagos moved to 19 December at 07:10")
    assert moved.supersedes == [there]


# --------------------------------------------------------------------------- paths and storage addresses are values

PATHS = [  # (older, newer): the same slot, another path or address
    ("The VPN config lives in ~/vpn/office.ovpn", "The VPN config lives in ~/vpn/office2.ovpn"),
    ("The nginx config is at /etc/nginx/sites-enabled/app.conf", "The nginx config is at /etc/nginx/conf.d/app.conf"),
    ("Backups go to s3://acme-backups/prod", "Backups go to s3://acme-backups-eu/prod"),
    ("The app config is in C:\\Users\\ana\\app.ini", "The app config is in D:\\cfg\\app.ini"),
    ("The entry point is src/maps/index.ts", "The entry point is src/app/main.ts"),
]


def test_a_path_is_one_value() -> None:
    assert [[(v.kind, v.text) for v in facts.analyse(old).values] for old, _ in PATHS] == [
        [("url", "~/vpn/office.ovpn")], [("url", "/etc/nginx/sites-enabled/app.conf")],
        [("url", "s3://acme-backups/prod")], [("url", "C:\\Users\\ana\\app.ini")], [("url", "src/maps/index.ts")]]
    # slashes that are no path stay what they were
    assert sorted((v.kind, v.text) for v in facts.analyse("and/or he/she 24/7 on 12/03/2024, 1.5/2.0 km/h").values) \
        == [("code", "1.5"), ("code", "2.0"), ("date", "12/03/2024"), ("number", "24"), ("number", "7")]


def test_another_path_supersedes_on_store(store: core.MemoryStore) -> None:
    for old, new in PATHS:
        older = store.store(old).id
        assert store.store(new).supersedes == [older], new


# --------------------------------------------------------------------------- someone moved it

MOVED_BY = [
    ("Oscar moved the weekly planning to Tuesdays", "The weekly planning was moved to Tuesdays"),
    ("We pushed the launch to May 3", "The launch was pushed to May 3"),
    ("Dr Lee rescheduled the dentist appointment to 5 December", "The dentist appointment was rescheduled to 5 December"),
    ("Ana and Ben moved the party to Saturday", "The party was moved to Saturday"),
    ("The team has moved the retro to Thursday at 4pm", "The retro was moved to Thursday at 4pm"),
    ("Oscar moved to Berlin", "Oscar moved to Berlin"),  # a person who moved: no thing moved
    ("The weekly planning moved to Tuesdays", "The weekly planning moved to Tuesdays"),
]


def test_someone_moved_it_is_read_as_it_was_moved() -> None:
    from memengine import fact_stated

    assert [fact_stated.stated(said) for said, _ in MOVED_BY] == [read for _, read in MOVED_BY]


def test_the_demo_update_marks_the_older_planning(store: core.MemoryStore) -> None:
    """The demo's own update (demo/run_demo.py) was read as no update at all: the older now probably outdated (it
    says more than the day: the room, the printout), the newer ranked first."""
    old = store.store("Weekly planning is on Mondays at 9:30 in the small meeting room; bring the sprint board "
                      "printout.").id
    new = store.store("Oscar moved the weekly planning to Tuesdays")
    assert new.supersedes == [] and new.may_update == [old]
