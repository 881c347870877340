"""Brief, round 36 (brief36): topic headings are the nouns and names of the chat's language, not its verbs and
adjectives, and a person the chat talks about heads no topic.

Spanish, Portuguese, French and Italian put a noun right after its determiner and what is said of it after the noun
("el piso está libre", "a van sai caro", "no pasa nada"): a word two places after a determiner is no noun there, and a
determiner is one of the language's own (every language's list held Dutch "de" and English "no")."""

from __future__ import annotations

import pytest

from memengine import summarize, topic_subject
from memengine.topic_subject import _SubjectJudge

_ES = ["Marta: el coche sale caro, mejor el tren", "Pablo: no pasa nada, el taller está cerrado hasta el lunes",
       "Marta: la casa rural está libre el puente", "Pablo: reservo la casa rural?", "Marta: el tren sale a las 9",
       "Pablo: vale, la casa y el tren", "Marta: el taller me llama mañana, no pasa nada"]
_PT = ["Ana: a van sai caro no sábado", "Rui: a pousada fica livre no domingo", "Ana: a pousada tem piscina?",
       "Rui: tem sim, e a van sai mais barato no domingo", "Ana: fechado, pousada e van no domingo"]
_FR = ["Léa: le train part à 8h, la salle est libre après", "Tom: la salle est grande, le train part tôt",
       "Léa: je réserve la salle et le train"]


@pytest.mark.parametrize("texts, nouns, others", [
    (_ES, ["coche", "tren", "casa", "taller"], ["sale", "pasa", "libre", "caro"]),
    (_PT, ["van", "pousada"], ["sai", "livre", "caro"]),
    (_FR, ["train", "salle"], ["part", "libre"]),
])
def test_head_first_languages_are_judged_by_their_own_determiners(texts: list[str], nouns: list[str],
                                                                   others: list[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(topic_subject, "HEAD_FIRST_JUDGE", True)
    judge = _SubjectJudge(texts, summarize.stopwords_for(texts))
    assert judge.head_first is not None
    assert [w for w in nouns if not judge.subject(w)] == []
    assert [w for w in others if judge.subject(w)] == []
    monkeypatch.setattr(topic_subject, "HEAD_FIRST_JUDGE", False)  # the base: two words apart, every language's list
    base = _SubjectJudge(texts, summarize.stopwords_for(texts))
    assert base.head_first is None and any(base.subject(w) for w in others)


def test_english_and_german_are_judged_as_before() -> None:
    """A noun two words after its determiner is still one where adjectives come first ("the new deploy days")."""
    en = ["Sam: the new deploy days are tuesdays", "Jo: the new deploy days suit me", "Sam: deploy days it is"]
    judge = _SubjectJudge(en, summarize.stopwords_for(en))
    assert judge.head_first is None and judge.subject("deploy")
