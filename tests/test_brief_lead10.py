"""Lead fixes of session 10 on a blind family chat: a plan placed by its month alone and moved later is no news, and a
number after "with" + article is no day."""

from __future__ import annotations

from datetime import date

from memengine import brief_dates, brief_news

TEXTS = [
    "por cierto, Marta y yo nos mudamos en abril. hemos comprado el piso de la calle Santiago",
    "QUÉ?? y no nos dices nada",
    "cambio: al final la mudanza es en mayo, el banco va lento con la hipoteca",
]


def test_a_month_only_plan_moved_by_a_later_change_is_moved() -> None:
    assert brief_dates.months_named(TEXTS[0]) == {4} and not brief_dates.says_a_date(TEXTS[0])
    assert brief_news.moved_later(0, TEXTS, frozenset(("con", "por", "cierto")), {"marta", "javier"})


def test_another_stem_without_a_change_word_is_not_moved() -> None:
    # ("mudanza" shares only its first four letters with "mudamos": one stem only when another word of the later turn tells
    # a change; "mudanza" is a change word itself)
    texts = [TEXTS[0], "la mudanza de mis padres es en mayo, con la furgoneta de Tomás"]
    assert not brief_news.moved_later(0, texts, frozenset(), {"marta"})


def test_no_time_in_the_later_turn_is_not_moved() -> None:
    texts = [TEXTS[0], "cambio: al final la mudanza la hacemos nosotros"]
    assert not brief_news.moved_later(0, texts, frozenset(), {"marta"})


def test_with_and_article_before_a_number_is_no_day() -> None:
    written = date(2026, 2, 24)
    assert brief_dates.named_days("y velas con el 8 y el 0", written) == []
    assert brief_dates.named_days("avec le 12 au dos", written) == []
    assert brief_dates.named_days("nos vemos el 8", written) == [date(2026, 3, 8)]
    assert brief_dates.named_days("quedamos con ella el 8", written) == [date(2026, 3, 8)]


def test_a_later_turn_naming_the_same_month_restates() -> None:
    # (held-out 1's Kofi: the job news stays his, a later turn says his start month again beside another plan's month)
    texts = ["I got the job at Siemens!!! start in January",
             "change of plan for the trip: Kofi starts at Siemens in January and can only take holidays in August"]
    assert not brief_news.moved_later(0, texts, frozenset(), {"kofi", "maya"})
