"""Facts that change, round 13: what an update says did NOT change is taken off before the rules read it
(memengine/fact_kept.py: "same time", "still at the library", "gleiche Uhrzeit", "stessa ora"); "changed the
X, new one is V" read as "the X is now V" (memengine/fact_stated.py) with a password or a combination typed
short (fact_lexicon.SHORT_FORMS); "quit X, took up Y instead" (memengine/fact_joined.instead). Pairs written
for these tests (none from tests/data/fact_heldout17.jsonl, the round's blind set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memengine import fact_joined, fact_kept, fact_lexicon, fact_stated, supersession
from memory_core import MemoryStore

T0, T1 = "2026-03-01T09:00:00", "2026-03-02T09:00:00"


def _plan(old: str, new: str, cos: float | None = None) -> list[tuple[int, int, bool]]:
    """What a store decides for the pair as a word-found candidate (the pair's cosine ``cos`` given to the
    second-chance cue, none without vectors): (winner, loser, maybe)."""
    got = supersession.plan(2, new, T1, [((1, old, T0, "user"), None)], new_source="user",
                            cosines=None if cos is None else {1: cos})
    return [(d.winner, d.loser, d.maybe) for d in got]


KEPT = [  # (old, new, what the rules read of new)
    ("Orchestra practice is on Mondays at 7pm", "orchestra practice moved to wednesdays, same time",
     "orchestra practice moved to wednesdays"),
    ("The vet check-up is on the 3rd at the Bridge Road practice", "vet check-up pushed to the 9th, still bridge road",
     "vet check-up pushed to the 9th"),
    ("Le cours de céramique est le lundi à 18h", "céramique passe au mercredi, toujours 18h",
     "céramique passe au mercredi"),
    ("Der Stammtisch ist am 4. um 20 Uhr", "stammtisch auf den 18. verschoben, gleiche uhrzeit wie immer",
     "stammtisch auf den 18. verschoben"),
    ("La clase de inglés es el martes a las 19", "inglés pasa al jueves; misma hora", "inglés pasa al jueves"),
    ("O ensaio da banda é na terça às 20h", "ensaio passou pra quinta, mesmo horário e mesmo lugar",
     "ensaio passou pra quinta"),
    ("Il corso di cucina è il martedì alle 19", "corso di cucina spostato al giovedì - stesso posto",
     "corso di cucina spostato al giovedì"),
]


@pytest.mark.parametrize(("old", "new", "read"), KEPT)
def test_kept_part_taken_off(old: str, new: str, read: str) -> None:
    assert fact_kept.without(old, new) == read


@pytest.mark.parametrize(("old", "new", "read"), KEPT)
def test_kept_part_no_longer_hides_the_update(old: str, new: str, read: str) -> None:
    assert _plan(old, new) == [(2, 1, False)]


def test_still_keeps_only_what_the_older_says() -> None:
    old = "The vet check-up is on the 3rd at the Bridge Road practice"
    # "still" with a word the older does not name is a fact of its own, not a kept part
    assert fact_kept.without(old, "vet check-up pushed to the 9th, still at the new clinic") == \
        "vet check-up pushed to the 9th, still at the new clinic"
    # a number the older does not have neither
    assert fact_kept.without("Le cours de céramique est le lundi à 18h", "céramique passe au mercredi, toujours 19h") \
        == "céramique passe au mercredi, toujours 19h"
    # "same" with no slot noun, or with a comparison to someone else's, stays
    assert fact_kept.without(old, "my cat's check-up is on the 9th, same clinic as ours") == \
        "my cat's check-up is on the 9th, same clinic as ours"
    # nothing left but the kept part: the sentence whole
    assert fact_kept.without(old, "same time") == "same time"


def test_same_hour_is_no_now_in_a_lookalike() -> None:
    # Italian "stessa ora" is "same hour": left in, "ora" read as "now" made another lesson an update
    assert _plan("Il corso di tennis è il lunedì alle 18", "il corso di padel è il giovedì, stessa ora") == []
    assert _plan("Orchestra practice is on Mondays at 7pm", "choir practice is on wednesdays, same time") == []
    assert _plan("Orchestra practice is on Mondays at 7pm",
                 "my son's orchestra practice is on wednesdays, same time") == []


NEW_ONE = [
    ("changed the door pw, new one is maple-19", "the door pw is now maple-19"),
    ("locker combo got reset - new one's 7720", "locker combo is now 7720"),
    ("ich hab den Tresorcode geändert, der neue ist 6612", "den Tresorcode ist jetzt 6612"),
    ("j'ai changé le mot de passe de la box, le nouveau c'est Lilas44", "le mot de passe de la box est maintenant Lilas44"),
    ("cambié la clave de la alarma, la nueva es 3390", "la clave de la alarma es ahora 3390"),
    ("troquei o pin do cartão, o novo é 8841", "o pin do cartão é agora 8841"),
    ("abbiamo cambiato la password del wifi, quella nuova è Tiglio22", "la password del wifi è ora Tiglio22"),
]


@pytest.mark.parametrize(("new", "read"), NEW_ONE)
def test_new_one_read_as_the_thing_now(new: str, read: str) -> None:
    assert fact_stated.stated(new) == read


def test_new_one_updates_the_thing_and_only_it() -> None:
    # "pw": the cue reads it as the password, given the pair's cosine (0.6: near in meaning)
    assert _plan("The door password is birch-07", "changed the door pw, new one is maple-19") == []
    assert _plan("The door password is birch-07", "changed the door pw, new one is maple-19", 0.6) == [(2, 1, False)]
    assert _plan("My locker combination is 1184", "changed my locker combo, new one's 7720") == [(2, 1, False)]
    assert _plan("Le mot de passe de la box est Rose12",
                 "j'ai changé le mot de passe de la box, le nouveau c'est Lilas44") == [(2, 1, False)]
    # another thing changed, or someone else's
    assert _plan("The door password is birch-07", "changed my laptop password, new one is maple-19", 0.6) == []
    assert _plan("My locker combination is 1184", "my brother changed his locker combo to 7720") == []
    # "one" is no value: not read when nothing says "new one"
    assert fact_stated.stated("changed the door pw yesterday") == "changed the door pw yesterday"


def test_short_forms_of_password_and_combination() -> None:
    assert fact_lexicon.same_stem("pw", "password") and fact_lexicon.same_stem("pwd", "passwort")
    assert fact_lexicon.same_stem("combo", "combination") and fact_lexicon.same_stem("combo", "combinazione")
    assert not fact_lexicon.same_stem("pw", "power")


INSTEAD = [
    ("I do karate on Tuesday evenings", "quit karate, joined a climbing club instead"),
    ("Ich gehe donnerstags zum Schwimmen", "schwimmen abgemeldet, bin stattdessen beim rudern"),
    ("Je fais du judo le samedi", "j'ai arrêté le judo, je me suis inscrite à l'escrime à la place"),
    ("Voy a clases de cerámica los lunes", "dejé cerámica, me apunté a pintura en su lugar"),
    ("Eu faço inglês às quartas", "cancelei o inglês, me inscrevi em francês no lugar"),
    ("Faccio pilates il mercoledì", "ho lasciato pilates, mi sono iscritta a yoga al suo posto"),
]
NOT_INSTEAD = [
    ("I do karate on Tuesday evenings", "my son quit karate and joined a climbing club instead"),  # someone else
    ("Ich gehe donnerstags zum Schwimmen", "mein mann hat schwimmen gekündigt und rudert stattdessen"),
    ("Voy a clases de cerámica los lunes", "mi vecina dejó cerámica, se apuntó a pintura en su lugar"),
    ("I do karate on Tuesday evenings", "quit my job, went freelance instead"),  # not what the older says I do
    ("I do karate on Tuesday evenings", "quit karate, joined a climbing club"),  # no "instead"
    ("I do karate on Tuesday evenings", "should i quit karate and do climbing instead?"),  # a question
    ("I do karate on Tuesday evenings", "quit karate instead"),  # nothing taken up
]


@pytest.mark.parametrize(("old", "new"), INSTEAD)
def test_instead_read(old: str, new: str) -> None:
    assert fact_joined.instead(old, new) is not None
    assert _plan(old, new) == [(2, 1, False)]


@pytest.mark.parametrize(("old", "new"), NOT_INSTEAD)
def test_instead_lookalike(old: str, new: str) -> None:
    assert fact_joined.instead(old, new) is None


def test_store_kept_part_and_new_one(tmp_path: Path) -> None:
    s = MemoryStore(tmp_path / "m.db")
    practice = s.store("Orchestra practice is on Mondays at 7pm").id
    s.store("The door password is birch-07")
    res = s.store("orchestra practice moved to wednesdays, same time")
    assert res.supersedes == [practice]
    assert s.store("il corso di padel è il giovedì, stessa ora").supersedes == []
    s.close()
