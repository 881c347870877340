"""Round 19 of issue 19: the round's held-out chats (bench/data/realchat_heldout17: a Polish landlord-tenant thread
over a year, a Swedish family group of three generations, a US astronomy club, a ChatGPT export of a long technical
project), checked well formed against the importers."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import heldout_sets

from memengine.recall.config import RETRIEVAL_FIELDS
from memengine.recall.parts import endings_of, model_words, word_endings
from memory_core import MemoryStore, NewMemory, RecallConfig

ROOT = Path(__file__).resolve().parent.parent
SET = "realchat_heldout17"
FILES = {"wynajem.txt", "familjen.txt", "stargazers.txt", "studioflow_export.json"}


def _rows(name: str = SET) -> list[dict[str, object]]:
    return heldout_sets.rows(name)


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = _rows()
    heldout_sets.check_kinds(rows, 71, 24, 18, 29, FILES)
    # questions in the chat's own language where the chat is not English
    assert sum(r["lang"] == "pl" for r in rows) == 16 and sum(r["lang"] == "sv" for r in rows) == 15


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # wynajem, familjen, stargazers, the ChatGPT export
    heldout_sets.check_snippets(store, (SET,), 48 + 45 + 37 + 35)


def _chat(store: MemoryStore, lines: list[tuple[str, str]]) -> list[int]:
    start = datetime(2026, 2, 1, 10, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chat",
                                       ref=f"flat/{i}", author=who, thread="flat", position=i,
                                       event_at=start + timedelta(days=i)) for i, (who, text) in enumerate(lines)]).ids


LINES = [("Marek", "Stan liczników: woda zimna 112,4 m3, ciepła 58,1 m3"),
         ("Ola", "U Kowalczyka pękł wąż od zmywarki"),
         ("Elin", "Elsas student är fredag 5 juni")]
LINES += [("Kuba", f"filler {i} o śmieciach i zakupach na sobotę") for i in range(20)]
ENGLISH = {"how", "much", "water", "did", "we", "use", "cold", "what", "broke", "share", "login"}


def test_a_question_word_is_searched_in_the_other_endings_the_index_holds(store: MemoryStore) -> None:
    _chat(store, LINES)
    conn = store.conn
    assert word_endings(conn, ["zimnej"]) == ['"zimna"']  # "zimn": the longest head another indexed word begins
    assert word_endings(conn, ["pękło"]) == ['"pekł"']  # as the index spells it: "ę" loses its accent, "ł" is a letter
    assert word_endings(conn, ["studenten"]) == ['"student"']
    assert word_endings(conn, ["wody"]) == []  # too short: a 3-letter head would match unrelated words
    assert word_endings(conn, ["zimna"]) == []  # held as is and in no other ending
    assert endings_of(conn, "zimnej") == ['"zimna"'] and endings_of(conn, "12345") == []
    # a word of the model's own vocabulary (English: the stemmer folds its endings) is left alone
    assert word_endings(conn, ["student"], known={"student"}) == []
    # "question": only in a question at least half of whose words the model does not hold
    assert word_endings(conn, ["ile", "zimnej", "wody"], known=ENGLISH, whole=True) == ['"zimna"']
    assert word_endings(conn, ["much", "cold", "water", "zimnej"], known=ENGLISH, whole=True) == []
    assert "word_endings" in RETRIEVAL_FIELDS


def test_recall_finds_a_turn_holding_the_question_words_in_other_endings(store: MemoryStore, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ids = _chat(store, LINES)
    # the shipped embedder's tokenizer vocabulary is what tells a question the model reads (the fake one has none)
    monkeypatch.setattr(store.embedder, "_word_pieces", lambda: SimpleNamespace(vocab=dict.fromkeys(ENGLISH, 1)),
                        raising=False)
    assert model_words(store.embedder) is not None and model_words(object()) is None
    cfg = replace(RecallConfig(), context_vectors=False, w_instances=0.0)
    q = "ile zimnej wody zużyliśmy?"
    on = [m.id for m in store.recall(q, k=1, touch=False, config=replace(cfg, word_endings="question")).results]
    assert on == [ids[0]]
    assert RecallConfig().word_endings == "question"
