"""Round 32 of issue 19: the round's held-out chats (bench/data/realchat_heldout30: a Kraków couple, two Dublin
flatmates, a Texan family's quinceañera; each in two languages) checked well formed against the importers; and
newname.py: a chat turn first saying a name, for a question asking which one."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import heldout_sets

from memengine.recall.newname import asks_which, names_said, new_names_first
from memengine.records import Candidate
from memory_core import MemoryStore, NewMemory, RecallConfig

SET = "realchat_heldout30"
FILES = {"kawa_krakow.txt", "casa_dublin.txt", "quince_sa.txt"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 77, 18, 4, 0, FILES)
    assert sum(r["category"] == "temporal" for r in rows) == 9
    assert sum(bool(r.get("other_words")) for r in rows) == 58
    assert sum(bool(r.get("other_words_chat")) for r in rows) == 17
    assert {r["lang"] for r in rows} == {"en", "pl", "pt", "es"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    heldout_sets.check_snippets(store, (SET,), 103 + 70 + 52)


def test_a_question_asking_which_one_in_the_languages_recall_reads() -> None:
    for q in ("Who cleans the stairs now?", "which bank is Inès with?", "Quem limpa as escadas?",
              "Wie is onze aannemer?", "¿Quién hace la música?", "Welche Firma repariert die Maschine?",
              "Chi è il direttore del coro?", "Kto ma nasze klucze?"):
        assert asks_which(q, "who") and asks_which(q, "wh"), q
    for q in ("Where did we book in the end?", "What did the vet say?", "Onde eu fiz a queixa?"):
        assert not asks_which(q, "who") and asks_which(q, "wh"), q
    for q in ("How much is the rent?", "Did we have enough food?", "Ile płacimy za mieszkanie?"):
        assert not asks_which(q, "who") and not asks_which(q, "wh"), q


def test_names_are_capitalised_words_inside_a_turn_not_its_author_nor_the_question() -> None:
    assert names_said("Javi: found another place, Quinta Real on Bandera Rd", "Javi", set()) == \
        ["Quinta", "Real", "Bandera"]  # "Rd": two letters
    assert names_said("Ola: Magda jest w ciąży!!! Kuba wie", "Ola", set()) == []  # sentence starts
    assert names_said("Léo: o Declan mandou msg, Léo tá sabendo", "Léo", set()) == ["Declan"]  # not the author
    assert names_said("Dan: technik z UPC przyjdzie, mówi Marek", "Dan", {"marek"}) == []  # acronym; asked
    assert names_said("Dan: and then " + "word " * 40 + "Marek", "Dan", set()) == []  # a long text's topics


def _cand(i: int, text: str, score: float, author: str = "A", thread: str | None = "t") -> Candidate:
    c = Candidate((i, f"{author}: {text}", author, thread, i, None, "{}", 1.0, 0.5, "whatsapp"))
    c.score = score
    return c


def test_a_first_naming_turn_in_the_head_rises_by_the_weight_times_the_spread() -> None:
    head = [_cand(1, "ok the stairs are a mess", 1.0), _cand(2, "yes she does them monday", 0.9),
            _cand(3, "a Lurdes começa segunda", 0.6), _cand(4, "ok so Lurdes again tomorrow", 0.55),
            _cand(5, "lol", 0.5)]
    tail = [_cand(6, "Bruno starts soon", 0.4)]
    def before(c: Candidate, w: str) -> bool:  # "Lurdes" first said at position 3 of thread "t"; "Bruno" at 7
        return c.position is not None and c.position > {"Lurdes": 3, "Bruno": 7}.get(w, 99)

    out = new_names_first(head + tail, 5, "Who cleans the stairs?", "who", 1.0, before, [])
    assert [c.id for c in out] == [3, 1, 2, 4, 5, 6]  # 0.6 + 1.0 x (1.0 - 0.5) = 1.1
    assert out[0].score == 1.1 and out[-1].score == 0.4  # the tail below the depth is untouched
    head = [_cand(1, "x", 1.0), _cand(2, "y", 0.9), _cand(3, "a Lurdes começa segunda", 0.6), _cand(5, "z", 0.5)]
    assert [c.id for c in new_names_first(head, 4, "Who?", "who", 0.5, before, [])] == [1, 2, 3, 5]  # 0.85
    unchanged = [_cand(1, "x", 1.0), _cand(3, "a Lurdes começa segunda", 0.6), _cand(5, "y", 0.5)]
    assert [c.id for c in new_names_first(unchanged, 3, "How much is it?", "who", 0.5, before, [])] == [1, 3, 5]
    asked = [_cand(1, "x", 1.0), _cand(3, "do you know a Lurdes?", 0.6), _cand(5, "y", 0.5)]
    assert [c.id for c in new_names_first(asked, 3, "Who?", "who", 1.0, before, [])] == [1, 3, 5]  # asked, not told
    # ":rare": the lift times the share of the head's readable turns that do NOT first say a name (here 1 of 2)
    rare = [_cand(1, "x", 1.0), _cand(7, "met Bruno today", 0.8), _cand(3, "a Lurdes começa segunda", 0.6),
            _cand(5, "y", 0.5)]
    out = new_names_first(rare, 4, "Who?", "who:rare", 1.0, before, [])
    assert [c.id for c in out] == [7, 1, 3, 5] and [c.score for c in out] == [1.05, 1.0, 0.85, 0.5]
    notes = [_cand(1, "x", 1.0, thread=None), _cand(3, "a Lurdes começa segunda", 0.6, thread=None)]
    assert [c.score for c in new_names_first(notes, 2, "Who?", "who", 0.5, before, [])] == [1.0, 0.6]


def _chat(store: MemoryStore, lines: list[tuple[str, str]], thread: str = "flat") -> list[int]:
    start = datetime(2026, 1, 8, 20, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="whatsapp",
                                       ref=f"{thread}/{i}", author=who, thread=thread, position=i,
                                       event_at=start + timedelta(days=i))
                             for i, (who, text) in enumerate(lines)]).ids


def test_recall_lifts_the_turn_where_the_name_entered_the_chat(store: MemoryStore) -> None:
    ids = _chat(store, [("Fernanda", "as escadas estão imundas de novo"),
                        ("Albano", "a senhora da limpeza foi embora"),
                        *[("Fernanda", f"compras {i}: pão, leite, café") for i in range(6)],
                        ("Fernanda", "a Lurdes começa segunda, mesmos dias, mesmo preço"),
                        ("Albano", "ótimo, obrigado"),
                        ("Fernanda", "falei com a Lurdes sobre o corrimão")])
    first, again = ids[8], ids[10]
    cands = store._candidates([first, again])
    assert not store._said_earlier(cands[first], "Lurdes") and store._said_earlier(cands[again], "Lurdes")
    other = _chat(store, [("Bia", "a Lurdes ligou")], thread="other")[0]  # another thread's later mention
    assert not store._said_earlier(store._candidates([other])[other], "Lurdes")
    q = "Quem limpa as escadas agora?"
    off = [m.id for m in store.recall(q, k=10, touch=False).results]
    cfg = replace(RecallConfig(), newname="who", w_newname=5.0)
    on = [m.id for m in store.recall(q, k=10, touch=False, config=cfg).results]
    assert first in off and on[0] == first  # the only turn of the head first saying a name, far ahead
    assert on.index(again) >= off.index(again) - 1  # said before: no lift (one place up at most, as `first` passed)
