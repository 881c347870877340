"""The state said after the event that brought it (facts36): "The flat was sold in May; the landlord is now Harbour
Lettings", "With the move to Alder Court, the landlord is Aster Housing", "Kofi was promoted to mid-level; the new
junior developer is Aisha".

An agent notes why a value changed before the value: an event in a clause of its own (a passive past, "was sold",
"was taken over", "was promoted"; a past verb of ending, "retired", "closed down"; or an event named as a noun,
"With the move to …", "After the merger"), then the state in the last clause, in the present ("is", "are", "now").
Read whole, the event's words stand between the two facts' slots: the learned decision scores the pair under its
threshold, and the rules read the event's verb. :func:`state_after` gives the last clause alone, which
memengine/supersession.py's ``plan`` asks the rules and the learned decision about when the whole sentence decided
nothing (the whole newer still goes through every veto: whose it is, a one-off, another person). Pure: no SQL, no
model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_handover import handover
from memengine.fact_left_clause import clauses
from memengine.fact_lexicon import fold_text
from memengine.fact_person import subject_names

__all__ = ["state_after"]

# an event told in the past: a passive ("was sold", "were taken over", "got promoted"), a past verb of ending or
# moving, or an event named as a noun after "with / after / following the"
_EVENT = re.compile(
    r"\b(?:was|were|got|has\s+been|have\s+been)\s+(?:\w+ed|sold|bought|taken|given|closed|shut|built|made|won|lost|"
    r"split|broken|stolen|hired|fired)\b"
    r"|\b(?:retired|died|left|closed\s+down|shut\s+down|went\s+bust|went\s+under|moved\s+out|merged)\b"
    r"|^(?:with|after|following|since)\s+the\s+\w+")
# the state: a present copula or a "now" word
_STATE = re.compile(r"\b(?:is|are|now|these\s+days|nowadays)\b")
_OWNERS = frozenset("user users".split())  # whom an agent's notes are about: named in every note, no person
_LEAD = re.compile(r"^(?:so|and|then|which\s+means|meaning)\s+", re.IGNORECASE)


@lru_cache(maxsize=4096)
def state_after(new: str, old: str = "") -> str:
    """The newer's last clause when an earlier one tells the event that brought it (see the module docstring),
    else "". Not when ``old`` names a person the newer does not ("Walter's landlord is …" / "The flat was sold; the
    landlord is now …": whose landlord the event told, the clause alone no longer says)."""
    if old and subject_names(old) - _OWNERS - {fold_text(w) for w in re.findall(r"[^\W_]+", new)}:
        return ""
    if handover(new):
        return ""  # ("Tom left, so now Sofia is our cleaner": a person's task passed on, memengine/fact_handover.py)
    parts = [p.strip() for p in clauses(new) if p.strip()]
    if len(parts) < 2:
        return ""
    last = _LEAD.sub("", parts[-1]).strip()
    before = " ".join(parts[:-1])
    if not _EVENT.search(fold_text(before)) or not _STATE.search(fold_text(last)) or _EVENT.search(fold_text(last)):
        return ""
    if len(last.split()) < 3:
        return ""
    return last[:1].upper() + last[1:]
