"""Round 23 of issue 19: the round's held-out chats (bench/data/realchat_heldout20: a São Paulo family, a Lyon
street-party committee, the parents of a Cologne under-11 team, a ChatGPT export of a move to Melbourne), checked
well formed against the importers."""

from __future__ import annotations

import heldout_sets

from memory_core import MemoryStore

SET = "realchat_heldout20"
FILES = {"familia_sp.txt", "fete_quartier.txt", "e_jugend.txt", "relocation_export.json"}


def test_the_held_out_set_has_the_kinds_the_round_asks_for() -> None:
    rows = heldout_sets.rows(SET)
    heldout_sets.check_kinds(rows, 60, 0, 40, 0, FILES)
    updates = [r for r in rows if r.get("kind") == "update"]
    assert sum(bool(r.get("name_changed")) for r in updates) == 27
    assert not any(r.get("name_changed") for r in rows if r.get("kind") != "update")
    assert sum(bool(r.get("later_other_name")) for r in rows) == 9
    assert {r["lang"] for r in rows} == {"pt", "fr", "de", "en"}


def test_each_snippet_is_in_exactly_one_message_and_its_ref_is_the_importers(store: MemoryStore) -> None:
    # familia_sp, fete_quartier, e_jugend, the ChatGPT export
    heldout_sets.check_snippets(store, (SET,), 52 + 46 + 44 + 26)


# ---- memengine/recall/renamed.py: a name replaced by a name first said later

from dataclasses import replace  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402

from memengine.recall.renamed import names_of  # noqa: E402
from memory_core import NewMemory, RecallConfig  # noqa: E402

GYM = [("Camila", "voltei pra academia, fiz matrícula na Smart Fit da Domingos de Morais, plano black"),
       ("Lúcia", "que bom filha, cuida da coluna")]
FILLER = [("Rafael", f"lista do mercado {i}: arroz, feijão, café") for i in range(10)]


def _chat(store: MemoryStore, lines: list[tuple[str, str]], thread: str = "familia") -> list[int]:
    start = datetime(2026, 1, 8, 7, 0)
    return store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="whatsapp",
                                       ref=f"{thread}/{i}", author=who, thread=thread, position=i,
                                       event_at=start + timedelta(days=2 * i))
                             for i, (who, text) in enumerate(lines)]).ids


def _ranked(store: MemoryStore, query: str, mode: str) -> list[tuple[int, bool]]:
    cfg = replace(RecallConfig(), renamed=mode)
    return [(m.id, bool(m.possibly_outdated)) for m in store.recall(query, k=5, touch=False, config=cfg).results]


def test_a_name_is_a_capitalised_word_no_weekday_no_code() -> None:
    assert names_of("saí da Smart Fit, agora é na Bluefit do lado do trabalho") == {"smart", "fit", "bluefit"}
    assert names_of("Emil steht ab Samstag im Tor, Leon spielt Abwehr") == {"emil", "tor", "leon", "abwehr"}
    assert names_of("Brightpath result: Ethan went from 58 to 71 in the WA2") == {"brightpath", "ethan"}
    assert names_of("tudo certo, até amanhã") == frozenset()
    # a sentence's first word is surely a name only when written with an inner capital or in capitals
    assert names_of("Thanks, Nate! Vauban a fermé. Moved to ING", sure=True) == {"nate", "ing"}
    assert names_of("a Dra. Helena saiu 😩 Copytop fait les affiches", sure=True) == {"dra", "helena"}


def test_the_turn_leaving_the_old_name_for_a_new_one_ranks_above_it(store: MemoryStore) -> None:
    ids = _chat(store, [*GYM, *FILLER, ("Camila", "saí da Smart Fit, agora é na Bluefit do lado do trabalho")])
    q = "em qual academia a Camila treina?"
    on = _ranked(store, q, "cue")
    order = [i for i, _ in on]
    assert ids[-1] in order and ids[0] in order and order.index(ids[-1]) < order.index(ids[0])
    assert dict(on)[ids[0]] and not dict(on)[ids[-1]]  # the older is marked, not dropped
    off = [i for i, _ in _ranked(store, q, "")]
    assert ids[-1] not in off[:off.index(ids[0]) + 1]  # (off: the older first, as before)


def test_a_third_party_the_chat_knows_naming_the_old_value_is_no_update(store: MemoryStore) -> None:
    lines = [("Camila", "visitei o Colégio Sabiá, gostei muito da proposta"), ("Lúcia", "a filha da Cida estuda lá"),
             *FILLER, ("Rafael", "a Cida disse que o neto dela agora vai pro Colégio Sabiá também")]
    ids = _chat(store, lines)
    q = "em que escola a Bia vai estudar?"
    got = _ranked(store, q, "cue")
    assert ids[-1] in [i for i, _ in got] and not any(marked for _, marked in got)
    assert got == _ranked(store, q, "")  # (Cida was said before: no name of the turn is new)


def test_no_word_of_change_no_move_with_cue_and_a_how_much_question_is_left_alone(store: MemoryStore) -> None:
    ids = _chat(store, [*GYM, *FILLER, ("Camila", "a Smart Fit e a Bluefit estão lotadas de manhã")])
    assert not any(marked for _, marked in _ranked(store, "em qual academia a Camila treina?", "cue"))
    assert any(marked for _, marked in _ranked(store, "em qual academia a Camila treina?", "any"))
    ids = _chat(store, [*GYM, *FILLER, ("Camila", "saí da Smart Fit, agora é na Bluefit, R$ 99")], thread="b")
    assert not any(marked for _, marked in _ranked(store, "quanto custa a academia da Camila?", "cue"))
    assert ids


def _export(store: MemoryStore, convs: list[list[tuple[str, str]]]) -> list[list[int]]:
    start = datetime(2026, 4, 2, 18, 0)
    out = []
    for n, turns in enumerate(convs):
        out.append(store.store_many([NewMemory(content=f"{who}: {text}", memory_type="episodic", source="chatgpt",
                                               ref=f"chatgpt:c{n}:{i}", author=who, thread=f"c{n}", position=i,
                                               event_at=start + timedelta(days=20 * n, minutes=i))
                                     for i, (who, text) in enumerate(turns)]).ids)
    return out


def test_the_new_name_said_in_a_later_conversation_of_the_users_export(store: MemoryStore) -> None:
    ids = _export(store, [
        [("User", "Our GP is Dr Minh Nguyen at Northcote Family Practice, he bulk bills children."),
         ("Assistant", "Yes, GPs give the childhood vaccines at no cost.")],
        [("User", f"Grocery list {i}: rice, beans, coffee.") for i in range(8)],
        [("User", "Dr Nguyen retired last month. We're seeing Dr Fiona Walsh at the same clinic now."),
         ("Assistant", "A written asthma action plan lists his daily preventer.")]])
    q = "who is our family doctor?"
    got = _ranked(store, q, "cue")
    order = [i for i, _ in got]
    old, new = ids[0][0], ids[2][0]
    assert order.index(new) < order.index(old) and dict(got)[old]
    off = [i for i, _ in _ranked(store, q, "")]
    assert off.index(old) < (off + [new]).index(new)


def test_a_name_another_conversation_said_before_is_not_new(store: MemoryStore) -> None:
    ids = _export(store, [
        [("User", "Our GP is Dr Minh Nguyen at Northcote Family Practice, he bulk bills children.")],
        [("User", "My sister sees Dr Fiona Walsh in Fitzroy, she likes her.")],
        [("User", "Dr Nguyen says hi to my sister, Dr Fiona Walsh trained with him now and then.")]])
    got = _ranked(store, "who is our family doctor?", "cue")
    assert not dict(got).get(ids[0][0])  # (Fiona Walsh was said in the second conversation: no new name)
