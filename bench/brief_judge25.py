"""Round 25's judgment (brief33): a person the chat's authors talk ABOUT has a People line of their own.

``.expect`` kind ``talked | NAME | alt || alt``: some People line's head (the text before ":" / " (#" / " — ") is
one of the alternatives, whole or followed by a space ("Marcus", "uncle ray", "Hakan Bey"). The older ``person``
kind counts a substring anywhere in the People section (a name quoted in another person's line counts there); this
one asks for the line itself, as the lead's blind probes did.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import brief_judge23

COLUMNS = ("talked-about lines",)


def score(expect: list[tuple[str, str, list[str]]], b: dict[str, Any], c: Counter[str]) -> None:
    """Kind ``talked``: a People line headed by one of the person's names."""
    heads = brief_judge23.people_heads(b)
    for kind, _name, alts in expect:
        if kind == "talked":
            c["talked:n"] += 1
            c["talked:line"] += any(brief_judge23._headed_by(h, alts) for h in heads)


def cells(c: Counter[str]) -> list[str]:
    """The totals table's cells for :data:`COLUMNS`."""
    return [f"{c['talked:line']}/{c['talked:n']}"]


def line(c: Counter[str]) -> str:
    """One line of a set's report."""
    return f"   talked-about people with a People line of their own {c['talked:line']}/{c['talked:n']}"
