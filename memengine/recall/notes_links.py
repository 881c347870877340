"""The store's ``may_update`` links between two of an agent's notes, vetted at recall (round 36, held-out 34).

When a note is stored, the facts engine links it ``may_update`` to a near older fact it probably updates
(memengine/supersession.py, the learned decision's middle band), and recall ranks the newer just above the older
and returns the older ``possibly_outdated`` (versions.outdated_marked). In an agent's store of notes about one
family, one project or one account, most notes are near each other, and 11 of the 17 links the store made on
held-out 34 join two subjects that share only the people they are about: Tom's new day shifts → the school pick-up
rota, "Grace wants reminders the evening before" → "Grace wants to organise a lunch for Peter's 75th", "Switched to
uv" → "Tests: `uv run pytest`". Each put an unrelated note above the answer and told the agent the answer may be
outdated (7 questions).

Here a link between two notes is honoured only when they say one word of a subject (a content-word stem of both,
notes.py's reading: no stop word, no value word, no function word of notes_lexicon) or their stored vectors say
one subject (cosine at least ``notes.SAME_COS``, notes.py's constant). No new constant. A link that is not between
two notes of one source (an import's facts, another store's) is honoured as before.

Measured and not kept (bench/README.md, "Round 36"): also asking that the shared stem be rare — said by at most
``notes.RARE_IN`` of the recall's candidates, or by at most the two notes in the whole store: held-out 34 and 32
gain more (top-1 +0.022 / +0.024 with the store's count) but held-out 29's after set loses a true link that shares
only a name ("Tiago has swimming on Tuesdays at 18:00" → "O Tiago mudou a natação para quinta-feira").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memengine.recall.chain import asks_about
from memengine.records import Memory


def _stems(text: str) -> frozenset[str]:
    from memengine.recall.notes_lexicon import without_function_words
    from memengine.recall.updates import subject_stems

    return subject_stems(without_function_words(text))


def note_memory(m: Memory) -> bool:
    """A memory stored as a note (notes.is_note's reading on a whole memory): no thread, no episode, no summary,
    not received from another store."""
    from memengine.recall.notes import SUMMARY_SOURCE

    source = m.source or ""
    return (m.thread is None and (m.metadata or {}).get("kind") != "episode" and source != SUMMARY_SOURCE
            and not source.startswith("shared:"))


def _only_as_reason(old: str, new: str) -> bool:
    """Whether ``new`` says words of ``old`` in its reason / purpose clauses and none in its head."""
    from memengine.recall.notes_head import head_and_tail

    head, tail = head_and_tail(new)
    if not tail:
        return False
    said = _stems(old)
    return bool(said & _stems(tail)) and not (said & _stems(head))


def link_keeper(vectors: Callable[[list[int]], dict[int, Any]] | None,
                question: str | None = None, heads: bool = False) -> Callable[[Memory, Memory], bool]:
    """``honour(older, later)`` for versions.outdated_marked: the store's link between two notes of one source
    honoured only when they share a content-word stem or their vectors are close (``vectors``: the store's
    lookup; None — no query vector — reads the words alone). ``question`` (round 41): nor when the older note says
    a word the question asks about and the later says none (chain.asks_about): the later changed another part of
    it ("Kassenwart ist Bernd Hofer, Schriftführerin ist Lena Graf" / "neue Kassenwartin ist Petra Lindner",
    asked "Wer ist Schriftführerin?"). ``heads`` (round 47): nor when the later says the older's words only in its
    reason / purpose clauses (notes_head.head_and_tail): "Moved the savings transfer to the 3rd so that the rent
    clears first" changes no rent note."""
    from memengine.recall.notes import SAME_COS, _cos

    about = asks_about(question) if question else None

    def honour(old: Memory, new: Memory) -> bool:
        if not (note_memory(old) and note_memory(new)) or old.source != new.source:
            return True
        if about is not None and about(old.content) and not about(new.content):
            return False
        if heads and _only_as_reason(old.content, new.content):
            return False
        if _stems(old.content) & _stems(new.content):
            return True
        return vectors is not None and _cos(vectors([old.id, new.id]), old.id, new.id) >= SAME_COS

    return honour
