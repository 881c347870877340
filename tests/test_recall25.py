"""Round 25 of issue 19: the round's held-out chats (bench/data/realchat_heldout22: a Madrid flatshare, a Turin couple
planning a wedding, two siblings caring for their mother in Bielefeld, a potter's Claude export, two friends in Nantes),
checked well formed against the importers; and renamed.py's ``switch`` mode (the broader change lexicon, "what"
questions whose update says the change beside the old name)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import heldout_sets

from memengine.recall.renamed import asks_name, switch_word
from memory_core import MemoryStore, NewMemory, RecallConfig

SET = "realchat_heldout22"
FILES = {"piso_lavapies.txt", "matrimonio.txt", "mama_bielefeld.txt", "claude_pottery.json", "lea_ines.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 77, 0, 42, 0, FILES)
    updates = [r for r in rows if r.get("kind") == "update"]
    assert sum(bool(r.get("name_changed")) for r in updates) == 33
    assert sum(bool(r.get("no_shared_word")) for r in updates) == 31
    assert sum(bool(r.get("few_shared")) for r in updates) == 20
    traps = [r for r in rows if r.get("kind") == "trap"]
    assert len(traps) == 12 and all(r.get("decoy") and not r.get("outdated") for r in traps)
    assert sum(r.get("kind") is None for r in rows) == 23
    assert {r["lang"] for r in rows} == {"es", "it", "de", "en", "fr"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # the flatshare, the wedding, the siblings, the Claude export, the friends
    heldout_sets.check_snippets(store, (SET,), 55 + 45 + 41 + 34 + 39)
    refs = {r for r, in store.conn.execute("SELECT ref FROM memories WHERE ref IS NOT NULL")}
    for r in heldout_sets.rows(SET):
        for ref, text in zip(r.get("decoy", []), r.get("decoy_text", [])):  # type: ignore[call-overload]
            assert ref in refs
            got = store.conn.execute("SELECT content FROM memories WHERE ref = ?", (ref,)).fetchone()[0]
            assert text in got


def test_the_change_words_are_the_facts_engines_in_six_languages() -> None:
    assert switch_word("j'ai résilié Bouygues ! Je suis chez Sosh maintenant")
    assert switch_word("cancelei a Vivo e fui pra Claro")
    assert switch_word("siamo passati alla Cascina Vallera, a Caselette")  # (the lists hold "passato")
    assert switch_word("Wir sind umgestiegen: ab Montag kommt die Diakoniestation Mitte")
    assert not switch_word("la zia Rita è fiorista da 30 anni")
    assert not switch_word("Potclays' buff stoneware fires much better at cone 6")


def test_what_asks_for_a_name_only_with_switch_and_when_it_asks_no_value() -> None:
    assert asks_name("What kiln do I have?", what=True) and not asks_name("What kiln do I have?")
    assert asks_name("¿qué compañía de internet tenemos?", what=True)
    assert asks_name("C'est quoi la mutuelle de Léa ?", what=True)
    assert not asks_name("What time is the dentist?", what=True)
    assert not asks_name("How much is the rent?", what=True)
    assert asks_name("who is our plumber?")  # (who, which, where: as before)


def _chat(store: MemoryStore, lines: list[tuple[str, str]], thread: str = "wedding") -> list[int]:
    start = datetime(2026, 1, 10, 20, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="whatsapp",
                                       ref=f"{thread}/{i}", author=who, thread=thread, position=i,
                                       event_at=start + timedelta(days=3 * i))
                             for i, (who, text) in enumerate(lines)]).ids


FILLER = [("Matteo", f"lista della spesa {i}: pane, latte, caffè") for i in range(10)]


def _ranked(store: MemoryStore, query: str, mode: str) -> list[tuple[int, bool]]:
    cfg = replace(RecallConfig(), renamed=mode)
    return [(m.id, bool(m.possibly_outdated)) for m in store.recall(query, k=5, touch=False, config=cfg).results]


def test_a_change_word_of_the_broader_lexicon_lifts_the_newer_with_switch_only(store: MemoryStore) -> None:
    ids = _chat(store, [("Giulia", "il ricevimento lo facciamo a Villa Sassi sulla collina"), *FILLER,
                        ("Giulia", "Villa Sassi niente, siamo passati alla Cascina Vallera, giardino enorme")])
    q = "dove si fa il ricevimento?"
    on = _ranked(store, q, "switch")
    order = [i for i, _ in on]
    assert ids[-1] in order and order.index(ids[-1]) < order.index(ids[0])
    assert dict(on)[ids[0]] and not dict(on)[ids[-1]]  # the older is marked, not dropped
    cue = [i for i, _ in _ranked(store, q, "cue")]  # ("passati": no word of fact_cue's lexicon)
    assert cue.index(ids[0]) < (cue.index(ids[-1]) if ids[-1] in cue else 99)


def test_a_what_question_and_a_hypothetical_later(store: MemoryStore) -> None:
    ids = _chat(store, [("Ana", "the kiln is a secondhand Rohde 60 litre, glaze firing costs £9"), *FILLER,
                        ("Ana", "sold the Rohde on Marketplace and bought a new Skutt with a digital controller"),
                        ("Ana", "what if I sold the Skutt and moved to Nabertherm?")], thread="studio")
    on = _ranked(store, "What kiln do I have?", "switch")
    order = [i for i, _ in on]
    assert order.index(ids[-2]) < order.index(ids[0]) and dict(on)[ids[0]]
    assert not dict(on)[ids[-2]]  # (the hypothetical after it updates nothing: a question)
    cue = [i for i, _ in _ranked(store, "What kiln do I have?", "cue")]  # ("what": no name question for cue)
    assert cue.index(ids[0]) < (cue.index(ids[-2]) if ids[-2] in cue else 99)


def test_a_what_question_needs_the_change_beside_the_old_name(store: MemoryStore) -> None:
    # the dog named again in a turn about a new flat: no update of the dog's name
    ids = _chat(store, [("Laura", "adopted a rescue dog, his name is Nalle"), *FILLER,
                        ("Laura", "moving! got a bigger flat in Vallila, 62 m2, 1150/month, Nalle needs space")],
                thread="helsinki")
    on = _ranked(store, "what's the dog called?", "switch")
    assert ids[0] in dict(on) and not any(outdated for _, outdated in on)
