"""Round 17 of issue 19: an update said in a later conversation of one person's assistant export (or a later
note of one notes import) ranked above the value it changes; never across chats with other people or sources."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from memengine.recall.updates import newer_first, person_source
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory, RecallConfig

# three conversations with an assistant, two weeks apart; the install date changes in the third
FITTER = [
    ("conv-1", [("User", "We signed with the kitchen fitter, the install date is 3 March"),
                ("Assistant", "Great! Before the install, clear the worktops and check the water shut-off valve.")]),
    ("conv-2", [("User", "what temperature should I bake sourdough at"),
                ("Assistant", "Around 250 degrees with the lid on for 20 minutes, then 230 without it.")]),
    ("conv-3", [("User", "the fitter moved the kitchen install to 17 March, they had a clash"),
                ("Assistant", "That gives you two more weeks to pick the tiles.")]),
]


def export(store: MemoryStore, convs: list[tuple[str, list[tuple[str, str]]]], source: str = "claude",
           days: int = 14, start: datetime = datetime(2027, 2, 1, 9, 0)) -> dict[tuple[str, int], int]:
    """The conversations stored as the importer stores them (one thread each, the user "User"), ``days`` apart."""
    items, keys = [], []
    for n, (conv, turns) in enumerate(convs):
        for i, (who, text) in enumerate(turns):
            items.append(NewMemory(content=f"{who}: {text}", memory_type="episodic", source=source,
                                   ref=f"{source}:{conv}:{i}", author=who, thread=conv, position=i,
                                   event_at=start + timedelta(days=n * days, minutes=i)))
            keys.append((conv, i))
    return dict(zip(keys, store.store_many(items).ids))


def ask(store: MemoryStore, q: str, across: bool = True) -> list[int]:
    cfg = replace(RecallConfig(), updates_across=across)
    return [r.id for r in store.recall(q, k=5, touch=False, config=cfg).results]


def test_an_update_in_a_later_conversation_goes_above_the_value_it_changes(store: MemoryStore) -> None:
    ids = export(store, FITTER)
    old, new = ids["conv-1", 0], ids["conv-3", 0]
    before = ask(store, "when is the kitchen install date?", across=False)
    assert before.index(old) < before.index(new)  # (the older value ranked first: the pair never formed)
    got = store.recall("when is the kitchen install date?", k=5, touch=False).results
    order = [r.id for r in got]
    assert RecallConfig().updates_across is True
    assert order.index(new) == order.index(old) - 1
    first = next(r for r in got if r.id == old)
    assert first.possibly_outdated is True and first.possibly_outdated_by == [new]
    assert not any(r.possibly_outdated for r in got if r.id != old)


def test_a_later_note_of_one_notes_import_updates_an_earlier_note(store: MemoryStore) -> None:
    notes = [("house/kitchen.md", [(None, "Kitchen fitter booked, install on 3 March")]),
             ("house/garden.md", [(None, "Garden: plant the roses in April")]),
             ("house/todo.md", [(None, "Kitchen install moved to 17 March now, fitter is ill")])]
    items = [NewMemory(content=text, memory_type="semantic", source="markdown", ref=f"md:{path}", author=who,
                       thread=path, position=0, event_at=datetime(2027, 2, 1) + timedelta(days=9 * n))
             for n, (path, turns) in enumerate(notes) for who, text in turns]
    old, _, new = store.store_many(items).ids
    order = ask(store, "when is the kitchen install?")
    assert order.index(new) == order.index(old) - 1
    assert ask(store, "when is the kitchen install?", across=False).index(old) < order.index(old)


def test_never_across_chats_with_other_people(store: MemoryStore) -> None:
    # two WhatsApp chats, the same words as FITTER's: each chat its own people, its own thread
    export(store, [FITTER[0], FITTER[2]], source="whatsapp")
    q = "when is the kitchen install date?"
    assert ask(store, q) == ask(store, q, across=False)
    assert not any(r.possibly_outdated for r in store.recall(q, k=5, touch=False).results)


def test_never_across_two_sources_of_one_person(store: MemoryStore) -> None:
    export(store, FITTER[:1], source="claude")
    export(store, FITTER[2:], source="chatgpt", start=datetime(2027, 3, 1, 9, 0))
    q = "when is the kitchen install date?"
    assert ask(store, q) == ask(store, q, across=False)
    assert not any(r.possibly_outdated for r in store.recall(q, k=5, touch=False).results)


def cand(mid: int, author: str, text: str, thread: str, when: str, source: str | None, score: float) -> Candidate:
    c = Candidate((mid, f"{author}: {text}", author, thread, 0, when, "{}", 1.0, 0.5, source))
    c.score = score
    return c


def test_only_the_users_turns_of_an_assistant_export_pair_across() -> None:
    said = cand(1, "User", "the install date is 3 March", "c1", "2027-02-01T09:00", "claude", 0.9)
    moved = cand(2, "User", "the fitter moved the install date, 17 March now", "c3", "2027-03-01T09:00", "claude", 0.5)
    answer = cand(3, "Assistant", "the install moved to 17 March now then", "c3", "2027-03-01T09:01", "claude", 0.5)
    assert person_source(said) == ("claude", "User") and person_source(answer) is None
    assert person_source(cand(4, "Ana", "x", "t", "2027", "whatsapp", 0.1)) is None
    assert person_source(cand(5, "User", "x", "t", "2027", None, 0.1)) is None  # (a row read without its source)
    q = "when is the install?"
    out, marks = newer_first([said, moved], 2, "forms", query=q, across=True)
    assert [c.id for c in out] == [2, 1] and marks == {1: [2]}
    assert newer_first([said, moved], 2, "forms", query=q, across=False)[1] == {}
    assert newer_first([said, answer], 2, "forms", query=q, across=True)[1] == {}  # (the assistant's answer)
    # said earlier in time: no update of a later value
    early = cand(6, "User", "the fitter moved the install date, 17 March now", "c0", "2027-01-01T09:00", "claude", 0.5)
    assert newer_first([said, early], 2, "forms", query=q, across=True)[1] == {}
    # no shared subject: "the dentist moved to 17 March" changes no install date
    dentist = cand(7, "User", "dentist appointment moved, 17 March now", "c3", "2027-03-01T09:00", "claude", 0.5)
    assert newer_first([said, dentist], 2, "forms", query=q, across=True)[1] == {}
    # one word in common is chance across conversations (round 16's held-out Claude export: "found")
    flat = cand(8, "User", "Ana found a place in Alvalade, asking 1,750 € with a balcony", "flat",
                "2027-02-19T21:02", "claude", 0.9)
    car = cand(9, "User", "The Yaris seller dropped to 12,800 €. The mechanic found the brake discs are worn; "
               "280 € to replace.", "car", "2027-08-11T18:05", "claude", 0.5)
    assert newer_first([flat, car], 2, "forms", query="what did we end up paying a month for the flat?",
                       across=True)[1] == {}
