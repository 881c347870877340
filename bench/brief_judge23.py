"""Round 23's judgments of a brief (bench/data/brief_heldout23), split out of bench/brief_quality.py (its size).

* ``oneline | NAME | form || form …``: the People section holds ONE line for a person, however their name inflects
  ("Ania", "Ani", "Anią", "Aniu" are one woman; "Tomek", "Tomka", "Tomkiem" one man): column ``people split``
  counts the entries with two or more People lines headed by one of the forms.
* ``notperson | - | NAME || NAME``: the user themself (an author of the imported chat the notes are about) is no
  People line: column ``user in People`` counts the entries some People line is headed by.
* column ``one-word headings`` (every set, the judge's rule of round 23): topic headings shown whose name is one word
  ("T12 · Saturday", "T9 · oat") and none of the set's expected ``topic`` / ``goodname`` alternatives: a stray word
  of its turns, not what the topic is about. A one-word name a person would give ("Porto", "matura") is expected.

A People line's head is what comes before its first ":" (or " (" of a contact's id, " — " of what they said).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_TOPIC_HEAD = re.compile(r"^T\d+(?:\.\d+)? · ")
SECTION_HEADINGS = {"Key facts", "Coming up", "Procedures", "Recently changed", "Open contradictions (please review)",
                    "People", "Latest events"}


def people_heads(b: dict[str, Any]) -> list[str]:
    """The name that heads each line of the brief's People section."""
    out = []
    for item in b["sections"].get("people", []):
        text = item["text"].lstrip("- ").strip()
        head = re.split(r":| \(#| — ", text, maxsplit=1)[0]
        out.append(head.strip())
    return out


def _headed_by(head: str, forms: list[str]) -> bool:
    """Whether a People line's head is one of ``forms`` (whole) or starts with one as a word ("Ania Nowak")."""
    low = head.lower()
    return any(low == f.lower() or low.startswith(f.lower() + " ") for f in forms)


def score_people(expect: list[tuple[str, str, list[str]]], b: dict[str, Any], c: Counter[str]) -> None:
    """Kinds ``oneline`` (a person's name in several forms: one People line) and ``notperson`` (the user: none)."""
    heads = people_heads(b)
    for kind, _name, alts in expect:
        if kind == "oneline":
            c["oneline:n"] += 1
            c["oneline:split"] += sum(_headed_by(h, alts) for h in heads) >= 2
        elif kind == "notperson":
            c["notperson:n"] += 1
            c["notperson:shown"] += any(_headed_by(h, alts) for h in heads)


def topic_names(text: str) -> list[str]:
    """The name of every topic heading of a brief's markdown (``T12 · name (…) — lead`` → ``name``)."""
    out = []
    for line in text.splitlines():
        if line.startswith("### ") and line[4:] not in SECTION_HEADINGS:
            bare = _TOPIC_HEAD.sub("", line[4:])
            out.append(bare.split(" (")[0].split(" — ")[0].split(": ")[0].strip())
    return out


def score_oneword(expect: list[tuple[str, str, list[str]]], b: dict[str, Any], c: Counter[str]) -> None:
    """Topic headings whose name is one word and none of the set's expected subjects (a stray word)."""
    wanted = {" ".join(a.lower().split()) for kind, _d, alts in expect if kind in ("topic", "goodname")
              for a in alts}
    for name in topic_names(b["text"]):
        c["oneword:n"] += 1
        words = _WORD.findall(name)
        c["oneword:stray"] += len(words) == 1 and name.lower() not in wanted


COLUMNS = ("one-word headings", "people split", "user in People")


def cells(c: Counter[str]) -> list[str]:
    """The totals table's cells for :data:`COLUMNS`."""
    return [f"{c['oneword:stray']}/{c['oneword:n']}", f"{c['oneline:split']}/{c['oneline:n']}",
            f"{c['notperson:shown']}/{c['notperson:n']}"]


def line(c: Counter[str]) -> str:
    """One line of a set's report."""
    return (f"   one-word headings {c['oneword:stray']}/{c['oneword:n']}; people in several People lines "
            f"{c['oneline:split']}/{c['oneline:n']}; the user as a People line {c['notperson:shown']}/"
            f"{c['notperson:n']}")
