"""Brief, round 37 (brief37): a heading said in one turn only is named anew from what the topic's turns say.

A topic's members are chat turns and the episodes quoting them; a rare word said in one turn is said twice once
quoted, and its rarity made it the heading ("unreal tho" of a hen do, "Vengo sicuro" of a degree). Asked again, the
topic is named by what two turns or more say, else by its opening line's phrase; a name met with a professional's
title ("Maître Le Gall") is asked again too."""

from __future__ import annotations

import pytest

from memengine import brief_headphrase, topic_names

_STOP = frozenset("the a to of is it in on for and we i so my at be was".split())


def _rarity(k: tuple[str, ...]) -> float:
    return 1.0


_TURNS = [
    "Raj: the kitchen fitters come monday, old units out first",
    "Emma: kitchen fitters said the oak worktop is late",
    "Raj: the spa was unreal tho",
    "Emma: oak worktop arrives thursday then",
]
_EPISODE = "\n".join(_TURNS[2:4])


def test_said_in_counts_turns_word_for_word_folded() -> None:
    assert brief_headphrase.said_in("kitchen fitter", _TURNS) == 2  # ("fitters" folded)
    assert brief_headphrase.said_in("unreal tho", _TURNS) == 1
    assert brief_headphrase.said_in("oak kitchen", _TURNS) == 0
    assert brief_headphrase.turns_of([*_TURNS, _EPISODE]) == _TURNS


def test_a_heading_said_in_one_turn_is_weak_one_two_turns_say_is_not() -> None:
    texts = [*_TURNS, _EPISODE]
    assert brief_headphrase.weak("unreal tho", texts)
    assert not brief_headphrase.weak("oak worktop", texts)
    assert not brief_headphrase.weak(topic_names.MIXED, texts)
    # fewer than MIN_TURNS turns: one turn saying it may be the topic
    assert not brief_headphrase.weak("unreal tho", [_TURNS[2], _EPISODE])
    assert brief_headphrase.weak("Gall", ["Claire: signature du compromis chez Maître Le Gall", "Julien: top"])


def test_renamed_takes_what_two_turns_say(monkeypatch: pytest.MonkeyPatch) -> None:
    """(the switch is off as landed: measured worse on held-outs 2-8; on, it does what it says)"""
    monkeypatch.setattr(brief_headphrase, "HEAD_PHRASE", True)
    texts = [*_TURNS, _EPISODE]
    got = brief_headphrase.renamed("unreal tho", texts, _STOP, {"raj", "emma"}, _rarity, set(), False, frozenset())
    assert got in ("kitchen fitters", "oak worktop")
    # a name another topic has (its words), or the switch off: the heading stays
    assert brief_headphrase.renamed("unreal tho", texts, _STOP, {"raj", "emma"}, _rarity, set(), False,
                                    frozenset({"kitchen", "oak"})) == "unreal tho"
    monkeypatch.setattr(brief_headphrase, "HEAD_PHRASE", False)  # off (as landed): the heading stays
    assert brief_headphrase.renamed("unreal tho", texts, _STOP, {"raj", "emma"}, _rarity, set(), False,
                                    frozenset()) == "unreal tho"


def test_a_professional_met_by_title_heads_no_topic(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Gall" (the notary of "chez Maître Le Gall") heading a flat's sale: what the turn naming them is about (on)."""
    monkeypatch.setattr(brief_headphrase, "HEAD_PHRASE", True)
    texts = ["Claire: Ils acceptent 190 000, signature du compromis le 21 novembre chez Maître Le Gall",
             "Claire: 2 150 € par mois tout compris, repas et ménage", "Julien: Parfait"]
    stop = frozenset("ils le du chez par et de la les un une".split())
    got = brief_headphrase.renamed("Gall", texts, stop, {"claire", "julien"}, _rarity, set(), False, frozenset())
    assert got == "compromis"
