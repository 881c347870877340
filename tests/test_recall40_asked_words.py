"""Round 40 of issue 19: the round's held-out chats (bench/data/realchat_heldout37: two Glasgow friends, a French family
group of five, a Toronto-Manchester couple, a student house of five) checked well formed against the importers; and
asked_words.py (a question's frame words — "how much", another language's function and question words — searched by
no keyword)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import heldout_sets

from memengine.recall.asked_words import content_terms, frame_terms, question_language
from memengine.recall.config import RETRIEVAL_FIELDS
from memengine.text import query_terms
from memory_core import MemoryStore, NewMemory, RecallConfig

SET = "realchat_heldout37"
FILES = {"jamie_shona.txt", "famille_moreau.txt", "mei_sam.txt", "house_selly.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 123, 44, 0, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 8
    assert sum(bool(r.get("other_words")) for r in rows) == 39  # measured: no content word of it in its evidence
    assert {r["lang"] for r in rows} == {"en", "fr"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 111 + 92 + 90 + 64)


def _content(q: str, mode: str = "all") -> list[str]:
    return content_terms(q, query_terms(q), mode)


def test_the_language_of_a_question_is_read_from_its_own_function_and_question_words() -> None:
    assert question_language("Quand est l'anniversaire de mamie ?") == "fr"
    assert question_language("Wann war der Termin beim Tierarzt?") == "de"
    assert question_language("¿Cuánto cuesta el alquiler?") == "es"
    assert question_language("Quanto custou o cartão de residência?") == "pt"  # ("quanto", "o": Italian's too)
    assert question_language("Quanto costa?") is None  # (one word of Portuguese and Italian alike: no language)
    assert question_language("O que a mãe da Bia trouxe de presente pro Léo?") == "pt"
    assert question_language("Ile płacimy miesięcznie za nowe mieszkanie?") == "pl"
    assert question_language("Dove abbiamo mangiato la pizza con Giulia?") == "it"
    for q in ("How much were my plane tickets?", "Who said grandpa never had a licence?",
              "What did Léa say about la pâtisserie Roux?", "Where is the Café de Flore?", "Do I write code myself?",
              "Am I interested in investing?"):
        assert question_language(q) is None, q


def test_frame_words_leave_the_keyword_side_and_an_elided_word_is_searched_bare() -> None:
    assert _content("Quand est l'anniversaire de mamie ?") == ["anniversaire", "mamie"]
    assert _content("Chez quelle pâtisserie on a pris le gâteau de mamie ?") == ["pâtisserie", "pris", "gâteau",
                                                                                  "mamie"]
    assert _content("Wann war der Termin beim Tierarzt?") == ["termin", "beim", "tierarzt"]
    assert _content("¿Cuánto cuesta el alquiler?") == ["cuesta", "alquiler"]
    assert _content("How much were my plane tickets?") == ["plane", "tickets"]
    assert _content("How many people was the table booked for?") == ["people", "table", "booked"]
    assert _content("How much were my plane tickets?", "lang") == ["much", "plane", "tickets"]  # (the shipped mode)
    assert _content("Quand est l'anniversaire de mamie ?", "lang") == ["anniversaire", "mamie"]
    # an English question keeps every other word; "much" / "many" stay where no "how" asks the amount
    assert _content("Who said grandpa never had a licence?") == ["said", "grandpa", "never", "licence"]
    assert _content("Why did Dan say it costs too much?") == ["dan", "say", "costs", "much"]
    assert frame_terms("How much is the rent on Perth Road?", query_terms("How much is the rent on Perth Road?")) \
        == {"much"}
    # nothing left: the words stay (a question made of frame words only still searches something)
    assert _content("Quand est-ce que c'est ?") == query_terms("Quand est-ce que c'est ?")


def test_the_switch_is_a_retrieval_field_and_on_by_default() -> None:
    assert "asked_words" in RETRIEVAL_FIELDS  # (bench/loo.py reuses one retrieval per question and these fields)
    assert RecallConfig().asked_words == "lang"


def _chat(store: MemoryStore, lines: list[tuple[str, str]], thread: str = "famille") -> list[int]:
    start = datetime(2026, 1, 11, 19, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="whatsapp",
                                       ref=f"{thread}/{i}", author=who, thread=thread, position=i,
                                       event_at=start + timedelta(days=3 * i))
                             for i, (who, text) in enumerate(lines)]).ids


def test_recall_no_longer_ranks_a_turn_by_the_questions_own_question_word(store: MemoryStore) -> None:
    ids = _chat(store, [("Sylvie", "Mamie aura 85 ans le 14 mars, on organise un repas"),
                        ("Jeanne", "ton grand-père conduisait quand même"),
                        ("Alain", "Fuite sous la baignoire, le plafond est mouillé"),
                        ("Hugo", "j'ai eu le code, 36 sur 40"),
                        ("Léa", "le TGV met deux heures depuis Paris")])
    q = "Quand est l'anniversaire de mamie ?"
    cfg = replace(RecallConfig(), bridge="")  # (this step alone: no bridged words)
    off = [m.id for m in store.recall(q, k=5, touch=False, config=replace(cfg, asked_words="")).results]
    on = [m.id for m in store.recall(q, k=5, touch=False, config=cfg).results]
    assert off.index(ids[1]) < off.index(ids[0])  # "quand même" matched the question word "quand"
    assert on[0] == ids[0], [ids.index(i) for i in on]
