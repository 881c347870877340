"""Brief, round 24 (brief24): a person's news told by someone else, news that dates a plan, days said by their number
alone. What reached users on unseen chats (bench/data/brief_heldout17, before this round): "a Rita entrou no
mestrado!" said by her sister left Rita's People line quoting "alguém tem um estirador?"; "Emre hat die Stelle bei
Siemens Energy bekommen!!!" said by a flatmate left Emre's quoting "wer hat meine Hafermilch leer gemacht"; "comprámos
casa em Gaia!!! escritura dia 30" was never quoted (it dates a plan); "vendredi 30 ça marche aussi" and "e volto no
domingo 29" were quoted as news (says_a_date missed a day said by its number)."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from conftest import chat_turns

import memory_core as core
from memengine import brief_dates, brief_namedpeople, brief_news, brief_people, consolidate, graph_rank

# --------------------------------------------------------------------------- days said by their number alone


@pytest.mark.parametrize("text", ["viajo dia 5", "le 12 on y va", "Verteidigung am 3.", "vendredi 30 ça marche aussi",
                                  "exato, e volto no domingo 29", "zahlbar bis zum 30.11.", "partiamo il 27?",
                                  "see you on the 25th", "Sonntag 1. November wieder"])
def test_says_a_date_reads_a_day_said_by_its_number(text: str) -> None:
    assert brief_dates.says_a_date(text)


@pytest.mark.parametrize("text", ["dans le 7e, rue de Marseille", "la mairie du 6e", "na rua 25 de Março",
                                  "3,2 kg, 49 cm", "Zimmer 14 qm, 420 warm", "the 5th floor", "por 40 reais",
                                  "Wohnung leer, morgen Hamburg!"])
def test_says_a_date_reads_no_day_from_a_place_an_amount_or_a_floor(text: str) -> None:
    assert not brief_dates.says_a_date(text)


# --------------------------------------------------------------------------- news and whose it is


def test_an_excited_answer_has_a_mark_a_pictograph_or_capitals_and_a_thumbs_up_is_none() -> None:
    assert brief_news.excited("boa Rita!!! que orgulho")
    assert brief_news.excited("a minha menina 😍")
    assert brief_news.excited("WAS Glückwunsch")
    assert brief_news.excited("Londres?? vais-te embora")
    assert not brief_news.excited("28. passt 👍")
    assert not brief_news.excited("traurig aber verständlich")


ROWS = [  # (id, author, content, event_at): a family chat, in the order written
    (1, "Bia", "novidade: a Rita entrou no mestrado de Arquitetura na FAUP", "2026-11-02T09:40:00"),
    (2, "Tiago", "boa Rita!!! que orgulho", "2026-11-02T09:42:00"),
    (3, "Lurdes", "a minha menina 😍 parabéns querida", "2026-11-02T09:50:00"),
    (4, "Rita", "obrigada 🥹 ainda nem acredito", "2026-11-02T10:30:00"),
    (5, "Tiago", "pessoal, viajo dia 20 para Londres, entrevista na Deloitte", "2026-11-06T12:15:00"),
    (6, "Lurdes", "Londres?? vais-te embora?", "2026-11-06T12:18:00"),
    (7, "Tiago", "mudaram a entrevista em Londres, afinal só vou dia 26", "2026-11-10T13:20:00"),
    (8, "Bia", "assim vais ao jantar sem stress", "2026-11-10T13:22:00"),
]
NAME_OF = {a: a for a in ("Bia", "Tiago", "Lurdes", "Rita")}
TEXTS = [str(r[2]) for r in ROWS]


def test_news_told_by_someone_else_is_about_the_member_it_names_and_its_answers_are_no_news() -> None:
    told, answers = brief_news.news(ROWS, TEXTS, NAME_OF, [True] * len(ROWS))
    # Tiago, Lurdes and Rita herself answered Bia's news about Rita; Lurdes answered Tiago's trip
    assert told == {"Rita": [(0, 3)], "Tiago": [(4, 1)]}
    assert answers == {1, 2, 3, 5}  # (no excited answer to anyone's news is news of its own)


def test_a_turn_no_one_answered_within_the_window_is_no_news() -> None:
    late = [(1, "Bia", "a Rita entrou no mestrado", "2026-11-02T09:40:00"),
            (2, "Tiago", "boa Rita!!!", "2026-11-02T19:40:00")]  # ten hours later: not an answer
    assert brief_news.news(late, [str(r[2]) for r in late], NAME_OF, [True, True]) == ({}, set())


def test_a_dated_news_turn_a_later_turn_moved_is_not_quoted() -> None:
    stop = frozenset(("para", "pessoal", "afinal"))
    assert brief_news.moved_later(4, TEXTS, stop, {"tiago"})  # "viajo dia 20 para Londres" ... "só vou dia 26"
    assert not brief_news.moved_later(6, TEXTS, stop, {"tiago"})  # the newest: nothing after it
    assert not brief_news.moved_later(0, TEXTS, stop, {"rita"})  # no day in it


# --------------------------------------------------------------------------- end to end: a real store

CHAT = [  # (day, hour, minute, author, text): a flat share, November 2026
    (1, 10, 2, "Lukas", "Morgen WG, wer hat den letzten Kaffee genommen"),
    (1, 10, 5, "Sophie", "schuldig, ich kauf neuen"),
    (4, 17, 15, "Nele", "Emre hat die Stelle bei Siemens Energy bekommen!!! er ist zu schüchtern es selbst zu sagen"),
    (4, 17, 17, "Sophie", "WAS Glückwunsch Emre!!!"),
    (4, 17, 18, "Lukas", "Ehrenmann 🎉"),
    (4, 17, 25, "Emre", "danke danke 🙈"),
    (5, 15, 40, "Sophie", "hab heute meine Masterarbeit abgegeben!! Verteidigung am 3. Dezember"),
    (5, 15, 42, "Nele", "endlich frei! 🥳"),
    (9, 18, 5, "Emre", "Vertrag bei Siemens Energy unterschrieben, Start im Dezember"),
    (13, 22, 5, "Emre", "wer hat meine Hafermilch leer gemacht heute"),
    (13, 22, 6, "Lukas", "🙊"),
]


@pytest.fixture
def flat(store: core.MemoryStore) -> dict:
    chat_turns(store, "wg", [(f"2026-11-{d:02d}T{h:02d}:{m:02d}:00", who, text) for d, h, m, who, text in CHAT])
    consolidate.run(store, now=datetime(2026, 11, 15), keep_backups=0)
    return graph_rank.brief(store, 2000, now=datetime(2026, 11, 15))


def test_a_persons_line_quotes_the_news_a_flatmate_told_of_them(flat: dict) -> None:
    people = {line.split(":")[0]: line for line in (i["text"] for i in flat["sections"]["people"])}
    # told by Nele, answered by three: Emre's news, not his newest turn ("Hafermilch", answered by one emoji)
    assert "— said by Nele #3 \"Emre hat die Stelle bei Siemens Energy bekommen!!!" in people["Emre"]
    assert "Hafermilch" not in people["Emre"]
    # her own news, excited, answered, dating a plan no later turn moved
    assert "Masterarbeit abgegeben" in people["Sophie"]


def test_a_quoted_line_without_its_persons_dates_when_the_whole_does_not_fit() -> None:
    line = f"Rita: wrote 6 memories in 1 chat (2026-11-02 – 2026-11-11){brief_people.STATE_SEP}by Bia #3 \"...\""
    assert brief_people.compact(line) == f"Rita: wrote 6 memories in 1 chat{brief_people.STATE_SEP}by Bia #3 \"...\""
    plain = "Rita: wrote 6 memories in 1 chat (2026-11-02 – 2026-11-11)"
    assert brief_people.compact(plain) == plain  # (no news quoted: its dates stay)


def test_a_turns_author_named_marco_names_no_month_for_the_days_after_it() -> None:
    context = [("Marco: ma daiii Fede! non ci hai detto niente!", date(2026, 12, 4))]
    assert brief_dates.named_days("Marco: per Capodanno: settimana bianca, partiamo il 27?", date(2026, 12, 8),
                                  context) == [date(2026, 12, 27)]
    assert brief_dates._months("Marco: ci vediamo") == []
    assert brief_dates._months("chegamos em marco") == [3] and brief_dates._months("25 de Março") == [3]


def test_a_news_turn_that_names_its_own_day_or_a_day_gone_by_is_no_plan_to_quote() -> None:
    assert brief_news.ahead("comprámos casa em Gaia!!! escritura dia 30", "2026-11-09T18:40:00")
    assert brief_news.ahead("Giulia si è laureata oggi!!!", "2026-12-02T18:40:00")  # (no day at all)
    # a transcript stamps each turn with its own day; a day gone by is no plan
    assert not brief_news.ahead("[6:46 pm on 23 July, 2023] Gina: Remember Jon, just do it!", "2023-07-23T18:46:00")
    assert not brief_news.ahead("the party on 3 March was great!", "2026-03-10T10:00:00")
    # ahead when said, gone by on the brief's day
    said = "reservo en Aquí Me Quedo para 4, sábado 17 de octubre a las 14:00"
    assert brief_news.ahead(said, "2026-10-12T20:35:40", date(2026, 10, 17))
    assert not brief_news.ahead(said, "2026-10-12T20:35:40", date(2026, 10, 28))


def test_the_people_notes_name_in_spanish_have_lines_that_say_their_news(store: core.MemoryStore) -> None:
    notes = ["Pablo, el hermano de Carmen, ha sacado plaza de profesor de Historia en Valencia.",
             "Pablo se muda a Valencia el 25; Carmen le ayuda con la mudanza.",
             "Lucía, la mejor amiga de Carmen, ha dado a luz a Martina.",
             "Carmen visitó a Lucía y a Martina en casa; Martina duerme poco."]
    for text, imp in zip(notes, (0.7, 0.6, 0.7, 0.5)):
        store.store(text, "semantic", importance=imp)
    assert brief_namedpeople.STATE_SEP == brief_people.STATE_SEP  # (brief.py drops a quote that does not fit by it)
    lines = {line.split(":")[0]: line for line, _why in brief_people.with_named(store)}
    assert set(lines) >= {"Pablo", "Lucía"}
    # the most important note that names them first (not "Carmen visitó a Lucía")
    assert lines["Pablo"].endswith(f'{brief_people.STATE_SEP}#1 "Pablo, el hermano de Carmen, ha sacado plaza de '
                                   'profesor…"')
    assert "#3 \"Lucía, la mejor amiga de Carmen, ha dado a luz a Martina.\"" in lines["Lucía"]


def test_a_quoted_turn_loses_the_greeting_it_opens_with() -> None:
    assert brief_people._ungreeted("bom dia, já tenho a receita dos colírios para depois da operação") == \
        "já tenho a receita dos colírios para depois da operação"
    assert brief_people._ungreeted("bom dia") == "bom dia"  # (nothing else: the turn as it is)
    assert brief_people._ungreeted("the flat is ours") == "the flat is ours"


def test_a_plan_moved_by_a_turn_that_inflects_its_words_is_moved() -> None:
    texts = ["Avslutningsmiddag fredag 4 december kl 19 på Restaurang Pelikan",
             "Pelikan hade inget bord på fredagen, avslutningsmiddagen blir lördag 5 december kl 19 i stället"]
    assert brief_news.moved_later(0, texts, frozenset(("inget", "bord")), set())
