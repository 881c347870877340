"""Round 47: a later note naming a subject only in its reason / purpose clause is no newer version of the note about
that subject (notes_head.py; notes.newer_notes_first and notes_links read a later note's subject from its head)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

import memory_core as core
from memengine.recall.config import RecallConfig
from memengine.recall.notes_head import head_and_tail

FILLER = ["Council tax for the house is band D.", "Window cleaner comes on the last Monday of the month, £20.",
          "The car's MOT is due in September."]

# (the note about a thing, a later note naming it only as a reason, the question): written for this test, not from
# any set; on 7a7fdae the later one ranked first and the note about the thing came back possibly_outdated
MENTIONS = [
    ("Choir practice: Thursdays 7:30 at St Mary's.",
     "No Thursday dinners with the Patels, because choir practice at St Mary's runs till 9:30.",
     "when is choir practice?"),
    ("Swimming lessons for Ella: Saturdays 9am, Leisure Centre.",
     "Saturday breakfast is early because of Ella's swimming lessons at the leisure centre.",
     "when are Ella's swimming lessons?"),
    ("Die Chorprobe ist mittwochs um 19:30 im Gemeindehaus.",
     "Mittwochs essen wir früh, weil die Chorprobe im Gemeindehaus um 19:30 beginnt.",
     "wann ist die Chorprobe?"),
]


@pytest.fixture
def store(db_path, real):  # type: ignore[no-untyped-def]
    """A store with the real MiniLM vectors (the newer-version reading uses their closeness)."""
    s = core.MemoryStore(db_path, embedder=real)
    yield s
    s.close()


def _first(store, notes: list[str], question: str, head: bool):  # type: ignore[no-untyped-def]
    ids = [store.store(t, event_at=datetime(2026, 3, 1 + i)).id for i, t in enumerate([notes[0], *FILLER, notes[1]])]
    # (off: notes6's notes_about off too, which reads the reason clause on its own)
    cfg = replace(RecallConfig(), notes_head=head, notes_about=head and RecallConfig().notes_about)
    res = store.recall(question, k=5, touch=False, config=cfg).results
    return ids, res


@pytest.mark.parametrize(("about", "mention", "question"), MENTIONS)
def test_the_note_about_the_thing_first(store, about: str, mention: str, question: str) -> None:
    ids, res = _first(store, [about, mention], question, True)
    assert res[0].id == ids[0]
    assert not res[0].possibly_outdated


@pytest.mark.parametrize(("about", "mention", "question"), MENTIONS[:1])
def test_off_reads_the_reason_as_a_newer_version(store, about: str, mention: str, question: str) -> None:
    ids, res = _first(store, [about, mention], question, False)
    assert res[0].id == ids[-1]
    assert res[1].id == ids[0] and res[1].possibly_outdated


def test_a_real_update_with_a_reason_still_goes_first(store) -> None:
    ids, res = _first(store, ["Choir practice: Thursdays 7:30 at St Mary's.",
                              "Choir practice moved to Wednesdays because St Mary's hall is booked on Thursdays."],
                      "when is choir practice?", True)
    assert res[0].id == ids[-1]  # (the store retires the older one here: it is not above it either way)
    assert all(m.possibly_outdated for m in res if m.id == ids[0])


@pytest.mark.parametrize(("text", "head", "tail"), [
    ("Lowther Dairy switched delivery to Wednesdays to match the evening session.",
     "Lowther Dairy switched delivery to Wednesdays", "the evening session."),
    ("Because of the rain, the walk moved to Sunday. Bring boots.", ", the walk moved to Sunday. Bring boots.",
     "the rain"),
    ("Os ensaios passam para segundas e quartas por causa do trabalho do André.",
     "Os ensaios passam para segundas e quartas", "trabalho do André."),
    ("Cykelrensningen flyttas till maj eftersom vårstädningen tar hela april.", "Cykelrensningen flyttas till maj",
     "vårstädningen tar hela april."),
    ("Maya and Theo want to spend Christmas in Gothenburg.", "Maya and Theo want to spend Christmas in Gothenburg.",
     ""),
    ("Le club se retrouve au port, la mairie est en travaux.", "Le club se retrouve au port, la mairie est en travaux.",
     ""),
])
def test_head_and_tail(text: str, head: str, tail: str) -> None:
    got_head, got_tail = head_and_tail(text)
    assert " ".join(got_head.split()) == head
    assert " ".join(got_tail.split()) == tail
