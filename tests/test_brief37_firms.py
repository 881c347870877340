"""Brief, round 37 (brief37): a firm, an office or a professional met by title is no person talked about.

A chat organising a kitchen names the joiners as often as anyone ("Fenwick says a week more"); a French chat's GP is
"Dr Morel" then "Morel dit que …"; a notary is "Maître Le Gall". None of them is one of the chat's people; a friend
talked about in the same turns still is."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

import memory_core as core
from memengine import brief_firms, brief_talkedabout


def _chat(store: core.MemoryStore, turns: list[tuple[str, str]], start: datetime) -> None:
    for k, (author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread="home", position=k, author=author,
                    event_at=start + timedelta(days=k))


_KITCHEN = [
    ("Raj", "Dave next door used Fenwick Joinery, solid oak. Dave says they were brilliant"),
    ("Emma", "ok, Fenwick Joinery then. Dave's kitchen is gorgeous"),
    ("Raj", "Fenwick can fit it from the 18th. Dave wants to see it when it's done"),
    ("Emma", "Fenwick moved the fit, their oak is late. Dr Morel says my back is fine by the way"),
    ("Raj", "Fenwick says a week more. Morel said rest, didn't he? Dave says hi"),
    ("Emma", "Morel dit que tout va bien. ok Dave wants his ladder back"),
]


def test_firm_names_and_professional_titles() -> None:
    """A trade word in a name of two words or more makes it a firm; a professional title right before a name (a
    particle may sit between) an office; a courtesy title or a one-word name with no such word is neither."""
    assert brief_firms.firm_name("Fenwick Joinery") and brief_firms.firm_name("Banca Emiliana")
    assert brief_firms.firm_name("Studio Notarile Ferraro") and brief_firms.firm_name("Déménageurs Bretons")
    assert not brief_firms.firm_name("Fenwick") and not brief_firms.firm_name("Ellie Marsh")
    assert brief_firms.titled("Gall", ["signature chez Maître Le Gall"])
    assert brief_firms.titled("Morel", ["un certificat du Dr Morel"]) and brief_firms.titled("Morel", ["Dr. Morel"])
    assert brief_firms.titled("Ferraro", ["dal notaio Ferraro"])
    assert not brief_firms.titled("Kowalski", ["Mrs Kowalski keeps asking"])
    assert not brief_firms.titled("Morel", ["Morel dit que tout va bien"])


def test_a_firm_gets_no_people_line_a_friend_and_a_doctor_do(db_path: Path) -> None:
    """As landed: a firm is no person; a professional met by title still is (OFFICES_NO_PERSON off: held-out 24's
    expected "Dr. Aksoy")."""
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _KITCHEN, datetime(2026, 3, 3, 19))
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"raj", "emma"})]
        assert names == ["Dave", "Morel"]
    finally:
        store.close()


def test_offices_switch_on_drops_the_doctor_too(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(brief_talkedabout, "OFFICES_NO_PERSON", True)
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _KITCHEN, datetime(2026, 3, 3, 19))
        names = [p["name"] for p in brief_talkedabout.talked_about(store, {"raj", "emma"})]
        assert names == ["Dave"]
    finally:
        store.close()


def test_off_switch_keeps_them(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Off, the base: the joiners and the doctor are read as people talked about."""
    monkeypatch.setattr(brief_talkedabout, "FIRMS_NO_PERSON", False)
    store = core.MemoryStore(db_path)
    try:
        _chat(store, _KITCHEN, datetime(2026, 3, 3, 19))
        names = {p["name"] for p in brief_talkedabout.talked_about(store, {"raj", "emma"})}
        assert {"Dave", "Fenwick Joinery", "Morel"} <= names
    finally:
        store.close()
