"""A change retires one slot: olders it names by one and the same word alone, when three or more are, are whom the
facts are about, not the slot (lead, session 7). "o usuário agora é coordenador de dados na Nubank" in a store of
a few facts about the user retired the job it changed and, by "usuário" alone, where the user lives, their dog and
their wife: too few candidates for memengine/fact_shared.py's ``owners`` to see the owner word."""
from __future__ import annotations

from pathlib import Path

from memengine import facts, supersession
from memengine.fact_shared import shared_words


def _d(loser: int) -> supersession.Decision:
    return supersession.Decision(99, loser, "2026-11-27T10:00:00", facts.Verdict("update", "test", 0.9))


def test_one_word_naming_several_olders_alone_is_no_evidence() -> None:
    assert supersession.ONE_SUBJECT_MIN == 3
    evidence = {1: frozenset({"usuario", "nubank", "dados"}), 2: frozenset({"usuario"}), 3: frozenset({"usuario"}),
                4: frozenset({"usuario"})}
    sure, maybe = supersession._one_subject([_d(1), _d(2), _d(3)], [_d(4)], evidence)
    assert ([d.loser for d in sure], maybe) == ([1], [])


def test_two_olders_named_by_one_word_may_be_one_things_attributes() -> None:
    # "moved retro → 10:00": "retro every other Friday at 4pm" / "retro on Fridays at 3pm", one of them its older
    evidence = {1: frozenset({"retro"}), 2: frozenset({"retro"})}
    assert [d.loser for d in supersession._one_subject([_d(1), _d(2)], [], evidence)[0]] == [1, 2]


def test_one_older_named_by_one_word_stays() -> None:
    evidence = {1: frozenset({"usuario", "nubank"}), 2: frozenset({"usuario"})}
    assert [d.loser for d in supersession._one_subject([_d(1), _d(2)], [], evidence)[0]] == [1, 2]
    # two olders named by two different words: each its own evidence
    evidence = {1: frozenset({"editor"}), 2: frozenset({"banco"})}
    assert [d.loser for d in supersession._one_subject([_d(1)], [_d(2)], evidence)[1]] == [2]
    # an older named with no word (a pronoun, an alias) is not counted
    assert [d.loser for d in supersession._one_subject([_d(1), _d(2)], [], {1: frozenset(), 2: frozenset()})[0]] \
        == [1, 2]


def test_shared_words() -> None:
    assert shared_words("O usuário mora em Recife", "o usuário agora é designer sênior na Stone") == {"usuario"}
    assert {"stone", "designer"} <= shared_words("O usuário trabalha na Stone como designer",
                                                  "o usuário agora é designer sênior na Stone")


def test_real_model_a_change_named_by_the_owner_word_alone_retires_nothing(real, tmp_path: Path
                                                                           ) -> None:  # type: ignore[no-untyped-def]
    """On 91de160 the job change retired where the user lives and their cat and flagged their fiancée (by
    "usuário" alone) while it did not reach the job itself (no verdict read the pair before facts25's new role at
    the same organisation)."""
    import memory_core as core

    s = core.MemoryStore(tmp_path / "user.db", embedder=real)
    try:
        texts = ["O usuário trabalha na Stone como analista de dados", "O usuário mora em Recife",
                 "O usuário tem uma gata chamada Pipoca", "O usuário é noivo da Camila",
                 "The office printer is on the second floor"]
        ids = {t: s.store(t, "semantic").id for t in texts}
        res = s.store("o usuário agora é coordenador de dados na Stone", "semantic")
        assert not (set(res.supersedes) | set(res.may_update or [])) & {
            ids[t] for t in texts[1:4]}
        live = {int(r[0]) for r in s.conn.execute("SELECT id FROM memories WHERE valid_to IS NULL")}
        assert live >= set(ids.values()) - {ids[texts[0]]}
        # facts25 (memengine/fact_promoted.py): a new role at the same organisation retires the job, alone
        assert res.supersedes == [ids[texts[0]]]
    finally:
        s.close()
