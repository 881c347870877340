"""An older note that says several things is retired only by a newer one that covers them all.

Agents store descriptions: "Fernway is the React Native app of Fernway Trails; the repo is
github.com/fernway/app and releases go out through EAS", "Marta is our backend lead; she lives in
Lisbon and owns the deploy pipeline". A later note about one attribute ("The app is on Expo SDK 50",
"Marta lives in Porto now") may well update that attribute, but superseding the description retires
every other statement in it (what the app is, where its code lives, how it ships), which nothing
replaced. The decision paths (the frame rules, the cue rule, the learned bands) read a pair as one slot
and cannot see that; this module reads the older note as statements and says when one of them is
untouched by the newer: none of its content words, names or values is in the newer (repeated or in
another inflection). memengine/supersession.py then links the two as ``may_update`` (the newer ranked
first, the older marked) instead of retiring the older.

A statement is a stretch of the older between clause marks (";", ": ", a sentence end, a comma, a
dash, brackets, and a coordinating conjunction in EN/FR/ES/DE/PT/IT) that holds at least
:data:`MIN_CONTENT` content tokens: a lone qualifier ("every day", "my brother") is no statement of
its own. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_cue
from memengine.fact_template import _same

__all__ = ["MIN_CONTENT", "statements", "untouched"]

# A stretch with fewer content tokens than this is a qualifier of the next one, not a statement.
MIN_CONTENT = 2

# (a comma or dot inside a number or a date, "1,200", "v0.73", "June 30, 2024", is no clause mark; nor is
# a dot inside a name or address, "github.com", "Fly.io", or after an abbreviation, "St. Mary": a sentence
# ends at a dot after three letters, before a capital)
_MARKS = re.compile(
    r"\s*;\s*|:\s+|(?<=[^\W\d_]{3})[.!?](?:\s+(?=[A-ZÀ-Þ])|\s*$)|(?<!\d),(?!\s*\d)\s*|\s+[–—-]\s+|[()\[\]]|"
    r"\s+(?:and|but|et|mais|y|pero|und|aber|sondern|e|mas|ma)\s+", re.I)


def _content(text: str) -> list[str]:
    """The content tokens of ``text`` (folded): words of three letters or more that are not function
    words, names, and anything holding a digit (a value)."""
    toks = fact_cue._tokens(text)
    out = []
    for i, t in enumerate(toks):
        if any(ch.isdigit() for ch in t.text):
            out.append(t.key)
        elif t.word and (t.key not in fact_cue._NOT_CONTENT and len(t.key) > 2 or fact_cue._is_name(toks, i, "en")):
            out.append(t.key)
    return out


@lru_cache(maxsize=4096)
def statements(text: str) -> tuple[tuple[str, ...], ...]:
    """The statements of ``text``: the content tokens of each stretch between clause marks that holds
    at least :data:`MIN_CONTENT` of them (a shorter stretch is joined to the next one)."""
    out: list[tuple[str, ...]] = []
    pending: list[str] = []
    for part in _MARKS.split(text):
        if not part or not part.strip():
            continue
        pending += _content(part)
        if len(pending) >= MIN_CONTENT:
            out.append(tuple(pending))
            pending = []
    if pending and out:
        out[-1] = out[-1] + tuple(pending)
    elif pending:
        out.append(tuple(pending))
    return tuple(out)


def untouched(old: str, new: str) -> str:
    """A statement of ``old`` (as written) that ``new`` neither repeats nor changes: none of its content
    tokens is in ``new`` (one word in two inflections counts), when ``old`` holds at least two
    statements; "" when ``new`` touches every statement of ``old`` (or ``old`` says one thing)."""
    parts = statements(old)
    if len(parts) < 2:
        return ""
    mine = set(_content(new))
    for part in parts:
        if not any(w in mine or any(_same(w, m) for m in mine) for w in part):
            return " ".join(part)
    return ""
