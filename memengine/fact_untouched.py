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
its own. A description in one clause joins its attributes with a preposition ("Atlas runs on Go
with Postgres", "Orion läuft auf Kubernetes mit Istio", "Pilote tourne sur Rails avec Sidekiq"): the
stretch after with / mit / avec / con / com is a statement of its own when it names a thing (a
capitalised name: "with 1,200 stars" is a qualifier) and the stretch before already named one after
its subject; "I play tennis with Tom" and "Unit tests are written with Jest" stay one statement (the
with-part is the slot's own value), and a newer that says the same preposition again ("... with Ana
now") touches it. The subject both notes open with ("Atlas", "the admin panel") is what every
statement is about: sharing it touches none of them (a statement it says whole is touched; a run that
ends in two values, "API runs Node 18" / "... Node 20", is the slot changed in place, no subject).
Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_cue
from memengine.fact_template import same_inflection

__all__ = ["MIN_CONTENT", "statements", "untouched"]

# A stretch with fewer content tokens than this is a qualifier of the next one, not a statement.
MIN_CONTENT = 2

# (a comma or dot inside a number or a date, "1,200", "v0.73", "June 30, 2024", is no clause mark; nor is
# a dot inside a name or address, "github.com", "Fly.io", or after an abbreviation, "St. Mary": a sentence
# ends at a dot after three letters, before a capital)
_MARKS = re.compile(
    r"\s*;\s*|:\s+|(?<=[^\W\d_]{3})[.!?](?:\s+(?=[A-ZÀ-Þ])|\s*$)|(?<!\d),(?!\s*\d)\s*|\s+[–—-]\s+|[()\[\]]|"
    r"\s+(?:and|but|et|mais|y|pero|und|aber|sondern|e|mas|ma)\s+", re.I)
# The prepositions that join one more attribute to a description in one clause.
_WITH = re.compile(r"\s+(with|mit|avec|con|com)\s+", re.I)
# (the with-part's thing may follow an article: "with a Redis cache", "mit einem Cache")
_ARTICLES = frozenset("a an the un une le la les des du el los las una uno ein eine einem einer einen dem den der "
                      "das um uma o os as il lo gli".split())
# A note opening with a short label ("Drucker im Büro: Brother MFC-L3770", "Linting: flake8 …"; facts33): the label
# names the slot, it is one statement with the value after it.
_LABEL = re.compile(r"^([^:;,.!?]{1,40}):\s")
# A statement joined by a preposition starts with this mark and its word ("#with"): a newer that
# says the same preposition touches it.
_LINK = "#"


def _content(text: str) -> list[str]:
    """The content tokens of ``text`` (folded): words of three letters or more that are not function
    words, names, and anything holding a digit (a value)."""
    toks = fact_cue.tokens(text)
    out = []
    for i, t in enumerate(toks):
        if any(ch.isdigit() for ch in t.text):
            out.append(t.key)
        elif t.word and (t.key not in fact_cue.NOT_CONTENT and len(t.key) > 2 or fact_cue.is_name(toks, i, "en")):
            out.append(t.key)
    return out


def _named(text: str, skip_first: bool) -> bool:
    """Whether ``text`` names a thing: a capitalised word past its first word or a value (a digit); with
    ``skip_first``, one past its first content word (the subject's)."""
    toks = fact_cue.tokens(text)
    seen_content = False
    for i, t in enumerate(toks):
        named = any(ch.isdigit() for ch in t.text) or i > 0 and t.word and t.cap or t.text[:1].isupper() and len(
            t.text) >= 2 and t.text.isupper()
        content = named or t.word and t.key not in fact_cue.NOT_CONTENT and len(t.key) > 2
        if named and (seen_content or not skip_first):
            return True
        seen_content = seen_content or content
    return False


def _joined(part: str) -> list[tuple[str, str]]:
    """``part`` cut at each preposition that joins one more named attribute (:data:`_WITH`), as
    (link word or "", stretch) pairs; the stretch before must already name a thing past its subject."""
    out: list[tuple[str, str]] = []
    link, rest = "", part
    while True:
        m = _WITH.search(rest)
        if m is None:
            break
        before, after = rest[:m.start()], rest[m.end():]
        words = after.split()
        head = next((w for w in words if w.lower() not in _ARTICLES), "")
        if not head or not head[:1].isupper() \
                or not _named(before, skip_first=not out):
            break
        out.append((link, before))
        link, rest = m.group(1).lower(), after
    out.append((link, rest))
    return out


@lru_cache(maxsize=4096)
def statements(text: str) -> tuple[tuple[str, ...], ...]:
    """The statements of ``text``: the content tokens of each stretch between clause marks that holds
    at least :data:`MIN_CONTENT` of them (a shorter stretch is joined to the next one); a stretch joined
    by a preposition (:func:`_joined`) is one from its first name on, and starts with ``#`` + the
    preposition."""
    out: list[tuple[str, ...]] = []
    pending: list[str] = []
    pieces = [piece for part in _MARKS.split(text) if part and part.strip() for piece in _joined(part)]
    for link, part in pieces:
        if not part.strip():
            continue
        if link:
            if pending and out:
                out[-1] = out[-1] + tuple(pending)
            elif pending:
                out.append(tuple(pending))
            pending = []
            out.append((_LINK + link, *_content(part)))
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
    label = _LABEL.match(old)
    labelled = label is not None and len(parts) >= 2 and set(parts[0]) <= set(_content(label.group(1)))
    if labelled:
        parts = (parts[0] + parts[1], *parts[2:])  # a label and its value are one statement ("Drucker im Büro: Brother")
    if len(parts) < 2:
        return ""
    mine = set(_content(new))
    links = {_LINK + m.group(1).lower() for m in _WITH.finditer(" " + new + " ")}
    topic = _topic(parts[0], _content(new))
    for k, part in enumerate(parts):
        words = [w for w in part if not w.startswith(_LINK)]
        if part[0] in links or set(words) <= topic:
            continue  # (the same preposition said again, or a statement the shared subject says whole)
        if k == 0 and labelled and topic:
            continue  # the label said again, a value of its own after it: the slot changed in place
        if not any(w not in topic and (w in mine or any(same_inflection(w, m) for m in mine)) for w in words):
            return " ".join(words)
    return ""


def _topic(first: tuple[str, ...], new: list[str]) -> set[str]:
    """The subject both notes open with: the content tokens the older's first statement and the newer
    share from their start ("admin panel", "Atlas"), one word in two inflections counting."""
    out: set[str] = set()
    for a, b in zip(first, new):
        if not same_inflection(a, b):
            # a value where the other has one ("API runs Node 18" / "... Node 20"): the run shared was the
            # slot, changed in place, not a subject
            return set() if _value(a) and _value(b) else out
        out.add(a)
    return out


def _value(word: str) -> bool:
    return any(ch.isdigit() for ch in word)
