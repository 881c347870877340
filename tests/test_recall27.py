"""Round 27 of issue 19: the round's held-out chats (bench/data/realchat_heldout24: a Utrecht house, a Porto building,
a Bristol dumpling stall, a Bologna choir, a puppy owner's ChatGPT export) checked well formed against the importers;
and succeeded.py: the successor of a name told after news of the old one, the new name said without the old."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import heldout_sets

from memengine.recall.renamed import asks_name
from memengine.recall.succeeded import ends
from memory_core import MemoryStore, NewMemory, RecallConfig

SET = "realchat_heldout24"
FILES = {"huis_utrecht.txt", "predio_porto.txt", "stall_bristol.txt", "coro_bologna.txt", "chatgpt_puppy.json"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 78, 0, 35, 0, FILES)
    updates = [r for r in rows if r.get("kind") == "update"]
    assert sum(bool(r.get("new_no_q_word")) for r in updates) == 28
    assert sum(bool(r.get("new_without_old")) for r in updates) == 21
    traps = [r for r in rows if r.get("kind") == "trap"]
    assert len(traps) == 11 and all(r.get("decoy") and not r.get("outdated") for r in traps)
    assert sum(bool(r.get("other_words")) for r in rows) == 27
    assert sum(bool(r.get("other_words_chat")) for r in rows) == 16
    assert {r["lang"] for r in rows} == {"nl", "pt", "en", "it"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # the house, the building, the stall, the choir, the ChatGPT export
    heldout_sets.check_snippets(store, (SET,), 64 + 49 + 51 + 47 + 38)
    for r in heldout_sets.rows(SET):
        for ref, text in zip(r.get("decoy", []), r.get("decoy_text", [])):  # type: ignore[call-overload]
            got = store.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()[0]
            assert text in got


def test_dutch_who_asks_for_a_name() -> None:
    assert asks_name("Wie is onze aannemer?") and asks_name("welk bedrijf doet het dak?")
    assert not asks_name("Hoeveel kost de keuken?")


def test_news_is_an_ending_word_beside_the_old_name() -> None:
    assert ends("Van Dijk belt net af, ze hebben te veel werk", {"dijk"})
    assert ends("The Kitchen Collective is shutting its doors end of Feb", {"collective"})
    assert ends("Merceria Lolli chiude per la pensione della signora", {"lolli"})
    assert not ends("Buxton's mince was 30% fat again. that's the third week, the order is closed", {"buxton"})
    assert not ends("noi stiamo benissimo da Gianni", {"gianni"})


def _chat(store: MemoryStore, lines: list[tuple[str, str]], thread: str = "house") -> list[int]:
    start = datetime(2026, 1, 8, 20, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="whatsapp",
                                       ref=f"{thread}/{i}", author=who, thread=thread, position=i,
                                       event_at=start + timedelta(days=2 * i))
                             for i, (who, text) in enumerate(lines)]).ids


FILLER = [("Sanne", f"boodschappen {i}: brood, melk, koffie") for i in range(8)]


def _ranked(store: MemoryStore, query: str, on: bool) -> list[tuple[int, bool]]:
    cfg = replace(RecallConfig(), succeeded=on)
    return [(m.id, bool(m.possibly_outdated)) for m in store.recall(query, k=5, touch=False, config=cfg).results]


def test_the_successor_after_the_news_goes_above_the_old_name(store: MemoryStore) -> None:
    ids = _chat(store, [("Sanne", "aannemer wordt Bouwbedrijf Van Dijk, offerte voor de badkamer en de zolder"),
                        *FILLER[:4], ("Daan", "Van Dijk belt net af, ze hebben te veel werk"),
                        ("Sanne", "wat?! en nu"),
                        ("Daan", "Kees Hoogendoorn heeft getekend, maart beginnen ze met de badkamer"), *FILLER[4:]])
    on = _ranked(store, "Wie is onze aannemer?", True)
    order = [i for i, _ in on]
    assert order.index(ids[7]) < order.index(ids[0])
    assert dict(on)[ids[0]] and not dict(on)[ids[7]]  # the older is marked, not dropped
    off = [i for i, _ in _ranked(store, "Wie is onze aannemer?", False)]
    assert ids[7] not in off[:off.index(ids[0])]


def test_no_news_no_successor(store: MemoryStore) -> None:
    # the old name said again with nothing ending, then a neighbour's builder: no update
    ids = _chat(store, [("Sanne", "aannemer wordt Bouwbedrijf Van Dijk, offerte voor de badkamer en de zolder"),
                        *FILLER[:4], ("Daan", "Van Dijk was vandaag op tijd, netjes"),
                        ("Daan", "de buren hebben Bouwbedrijf Smits voor hun badkamer"), *FILLER[4:]])
    on = _ranked(store, "Wie is onze aannemer?", True)
    assert not any(outdated for _, outdated in on)
    order = [i for i, _ in on]
    assert ids[0] in order and (ids[6] not in order or order.index(ids[0]) < order.index(ids[6]))
