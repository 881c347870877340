"""Round 22: a subject every fact of the store shares is no evidence of the slot. In one agent's notes most facts
begin "The user …", "O usuário …", "Der Nutzer …"; before this round "The user relocated to Glasgow in August"
retired "The user drives a grey VW Golf" and "The user is allergic to peanuts", and "o usuário se mudou para o
Porto" retired "O banco do usuário é o Itaú" (tests/data/fact_crowded_heldout2.jsonl, bench/fact_crowded.py):
facts21's evidence (memengine/fact_shared.py) took the shared "user" as naming the older's thing. A word most
candidates of the write hold names whom the store is about (:func:`fact_shared.owners`, a document frequency
over the write's own candidates, no word list); said with the main verb of both it names the slot as a pronoun
would ("lives" / "relocated": both keyed 'live' by the analyser); alone it is nothing."""

from __future__ import annotations

from pathlib import Path

from memengine import fact_shared

EN = ["The user lives in Edinburgh", "The user drinks oat milk in coffee", "The user drives a Golf",
      "The user is allergic to peanuts", "The user's editor is Vim", "The user works at Skyscanner",
      "The user runs on Tuesdays and Thursdays", "The user's sister is called Mhairi"]
PT = ["O usuário mora em Lisboa", "O banco do usuário é o Itaú", "O usuário toca violão",
      "O usuário prefere chá verde", "O usuário tem um gato chamado Miau", "O usuário trabalha como designer"]


def test_a_word_most_candidates_hold_is_the_owner() -> None:
    assert fact_shared.owners("The user relocated to Glasgow in August", EN) == frozenset({"user"})
    assert fact_shared.owners("o usuário se mudou para o Porto", PT + EN[:2]) == frozenset({"usuario"})
    # a word a few candidates hold is theirs, not the store's
    assert fact_shared.owners("The user's editor is now Zed", EN) == frozenset({"user"})
    assert "editor" not in fact_shared.owners("The user's editor is now Zed", EN)


def test_too_few_candidates_have_no_owner() -> None:
    # a pair, or a store of a few facts, says nothing of what the store is about
    assert fact_shared.owners("The user relocated to Glasgow", EN[:fact_shared.OWNER_MIN_CANDIDATES - 1]) == frozenset()
    assert fact_shared.owners("The user relocated to Glasgow", []) == frozenset()


def test_the_owner_alone_is_no_evidence() -> None:
    owner = frozenset({"user"})
    assert fact_shared.shares_subject("The user drives a Golf", "The user relocated to Glasgow in August")
    assert not fact_shared.shares_subject("The user drives a Golf", "The user relocated to Glasgow in August", owner)
    assert not fact_shared.shares_subject("The user is allergic to peanuts", "The user relocated to Glasgow", owner)
    assert not fact_shared.shares_subject("O banco do usuário é o Itaú", "o usuário se mudou para o Porto",
                                          frozenset({"usuario"}))


def test_the_owner_with_the_verb_of_both_names_the_slot() -> None:
    # "lives" / "relocated": the analyser keys both 'live'; with the owner said by both, the verb is the slot's
    owner = frozenset({"user"})
    assert fact_shared.shares_subject("The user lives in Edinburgh", "The user relocated to Glasgow in August", owner)
    assert fact_shared.shares_subject("O usuário mora em Lisboa", "o usuário se mudou para o Porto",
                                      frozenset({"usuario"}))
    # a slot word both say stays evidence
    assert fact_shared.shares_subject("The user's editor is Vim", "The user switched their editor to Zed", owner)
    # and the verb alone, each with another named subject, stays the frame's
    assert not fact_shared.shares_subject("La API de pagos usa Stripe", "la app usa Supabase ahora")


# --------------------------------------------------------------------------- with the real model, real stores

def test_real_model_store_about_the_user(real, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A store of 14 facts about the user, in English and Portuguese: a relocation retires the residence fact
    and nothing else; a change of the editor retires the editor; a change no fact is about retires nothing."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "user.db", embedder=real)
    try:
        ids = {t: s.store(t, "semantic").id for t in EN + PT}
        res = s.store("The user relocated to Glasgow in August", "semantic")
        assert (res.supersedes, res.may_update or []) == ([ids["The user lives in Edinburgh"]], [])
        res = s.store("o usuário se mudou para o Porto", "semantic")
        assert (res.supersedes, res.may_update or []) == ([ids["O usuário mora em Lisboa"]], [])
        res = s.store("The user switched their editor to Zed", "semantic")
        assert (res.supersedes, res.may_update or []) == ([ids["The user's editor is Vim"]], [])
        res = s.store("The user took up climbing this spring", "semantic")
        assert (res.supersedes, res.superseded_by, res.may_update or []) == ([], None, [])
        gone = {"The user lives in Edinburgh", "O usuário mora em Lisboa", "The user's editor is Vim"}
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= {i for t, i in ids.items() if t not in gone}
        assert not live & {ids[t] for t in gone}
    finally:
        s.close()
