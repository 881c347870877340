"""What a topic's name must not be, and which words are one word, read from the group's own texts (brief30).

Held-out 23 (bench/data/brief_heldout23: chats nobody tuned the brief on) headed topics with people and with one case
of a word: "T11 · Tariq" (the friend who draws the board game), "T2 · Maud" (the editor), "T8 · Tomek", "T4 ·
Kubusiu" and "T13 · Aniu" (the vocatives of two authors, Kuba and Ania), and a Polish family's grandmother as two
topics, "T2 · babcia" and "T3 · babci". Three structural readings, no word list of any language:

* :func:`said_of_people` (asked of a name chosen, :func:`persons_in`: reading every text cost 57 ms per 1,000): words the texts say of a person: a title before them ("Dr Okoye"), "X and I" / "X and
  me" (in the languages of ``_AND_ME``: one's companion), a turn that calls them ("Kuba, tak, będzie DJ", "Bravo
  Julien !": a name then a comma, or a cheer then the name, at a turn's start), a name written right after a
  greeting or thanks ("thanks Callum", "dziękujemy Tato" are no subject);
* :func:`name_forms`: in a language whose nouns decline (:data:`INFLECTED`), the forms of the store's people's names
  ("Aniu", "Anią", "Ani" of Ania; "Kubusiu", "Kuby" of Kuba): capitalised, the name's first letters (all but its
  last two, at least three) and at most four letters more;
* :func:`stems`: in such a language, the forms of one word a group says ("babcia", "babci", "babcię"; "wesele",
  "weselu") count as one word: neighbours in sorted order sharing their first letters (all but the shorter's last
  two, at least four).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence, Set

# languages whose nouns and names decline (the brief's store language, summarize.detect_language's names)
INFLECTED = frozenset("polish czech slovak russian ukrainian bulgarian finnish hungarian".split())
STEM_MIN = 4  # letters two forms of a word share at least
STEM_SLACK = 2  # ...and all but this many of the shorter one's
FORM_MIN = 3  # a name's form shares at least this many of its first letters
FORM_MORE = 4  # ...and has at most this many letters more than those

_CAP = r"[A-ZÀ-ÖØ-ÞĀ-ŽА-Я][^\W\d_]+"
# "X and I", "X and me" in the languages the brief reads: the speaker's companion
_AND_ME = re.compile(rf"\b({_CAP})\s+(?:and\s+(?:I|me)|et\s+moi|und\s+ich|y\s+yo|e\s+io|e\s+eu|en\s+ik|och\s+jag|og\s+jeg|"
                     r"i\s+ja|a\s+já|и\s+я)\b")
_TITLE = re.compile(rf"\b(?:Dr|Dra|Prof|Mr|Mrs|Ms|Herr|Frau|Mme|Mlle|M\.|Sr|Sra|Pan|Pani|pan|pani)\.?\s+({_CAP})")
# a turn that calls someone: "Kuba, tak", "Aniu, cudownie", "Julien !", at a turn's start (after its author's "Name: ")
_CALLED = re.compile(rf"^(?:[^:\n]{{1,60}}:\s+)?({_CAP}),")
_THANKED = re.compile(rf"(?i:\b(?:thanks|thank\s+you|cheers|merci|danke|gracias|grazie|obrigad[oa]|dzięki|dziękuj[eę]|"
                      rf"bravo|brawo|congrats))\s*,?\s+({_CAP})\b")


def said_of_people(texts: Iterable[str]) -> set[str]:
    """The lower-cased words ``texts`` say of a person (see the module docstring)."""
    out: set[str] = set()
    for t in texts:
        head = t[:400]
        for rx in (_AND_ME, _TITLE, _THANKED):
            out.update(m.group(1).lower() for m in rx.finditer(head))
        m = _CALLED.match(head)
        if m and _callable(head, m):
            out.add(m.group(1).lower())
    return out


def _callable(text: str, m: re.Match[str]) -> bool:
    """A name called at a turn's start is followed by more words ("Kuba, tak, będzie DJ")."""
    return len(text) > m.end() + 3


def name_forms(names: Iterable[str], words: Iterable[str]) -> set[str]:
    """(lower-cased) The ``words`` that are a declined form of one of ``names`` (one-word names, as written or not),
    written capitalised: "Aniu" of "Ania", "Kubusiu" of "Kuba", "Tomka" of "Tomek"."""
    stems = {}
    for n in names:
        low = n.lower()
        if len(low) >= FORM_MIN and low.isalpha():
            stems[low] = max(FORM_MIN, len(low) - 2)
    if not stems:
        return set()
    out: set[str] = set()
    for w in words:
        if not w[:1].isupper():
            continue
        low = w.lower()
        if low in stems:
            continue
        for name, need in stems.items():
            if low[:need] == name[:need] and len(low) - need <= FORM_MORE:
                out.add(low)
                break
    return out


def stems(words: Iterable[str]) -> dict[str, str]:
    """Each (folded) word -> the form it is counted as: neighbours in sorted order that share their first letters
    (:data:`STEM_MIN`, all but :data:`STEM_SLACK` of the shorter) are one word, named by the first in order."""
    ws = sorted(set(words))
    out: dict[str, str] = {}
    for a, b in zip(ws, ws[1:]):
        need = max(STEM_MIN, min(len(a), len(b)) - STEM_SLACK)
        if a[:need] == b[:need] and len(a) >= STEM_MIN + 1 and len(b) >= STEM_MIN + 1:
            out[b] = out.get(a, a)
    return out


def stemmed_runs(member_runs: list[dict[tuple[str, ...], str]]) -> list[dict[tuple[str, ...], str]]:
    """``member_runs`` (topic_names.runs of each member) with each word of a key counted as its :func:`stems` form:
    "babci" and "babcia" are held together (the spelling shown is still the one most members write)."""
    words = {w for r in member_runs for k in r for w in k}
    into = stems(words)
    if not into:
        return member_runs
    out: list[dict[tuple[str, ...], str]] = []
    for r in member_runs:
        new: dict[tuple[str, ...], str] = {}
        for k, v in r.items():
            key = tuple(into.get(w, w) for w in k)
            new.setdefault(key, v)
        out.append(new)
    return out


PEOPLE_TRIES = 3  # names looked at for a group: a person's name found, the next best is asked (its words left out)
TEXTS_READ = 40  # of the texts that say a word, those read for what they say of it


def persons_in(name: str, texts: Sequence[str], people: Set[str], language: str | None) -> set[str]:
    """(lower-cased) The words of a topic's ``name`` that name a person: what the ``texts`` saying the word (at most
    :data:`TEXTS_READ`) say of it (:func:`said_of_people`), and in an :data:`INFLECTED` ``language`` a declined form of a
    person's name (``people``, lower-cased; or a name those texts say of a person: "Tomkiem" of "Tomek i ja"). Asked
    of the name chosen only: reading every text of a store's topics for people cost 57 ms per 1,000 texts."""
    out: set[str] = set()
    for w in re.findall(_CAP, name):
        low = w.lower()
        if low in people:
            continue  # (left out already)
        key = w[:max(FORM_MIN, len(w) - FORM_MORE)] if language in INFLECTED else w
        said = [t for t in texts if key in t][:TEXTS_READ]
        found = said_of_people(said) if said else set()
        if low in found or (language in INFLECTED and name_forms({p for n in people | found for p in n.split()}, [w])):
            out.add(low)
    return out


def without_people(pick: Callable[[], str], texts: Sequence[str], exclude: set[str], language: str | None) -> str:
    """``pick()``'s name for a group, asked again while it names a person (:func:`persons_in`); the person's words join
    ``exclude`` (the set ``pick`` reads), so the next pick leaves them out."""
    name = pick()
    for _ in range(PEOPLE_TRIES - 1):
        found = persons_in(name, texts, exclude, language)
        if not found:
            break
        exclude |= found
        name = pick()
    return name


def form(word: str) -> str:
    """(lower-cased) A word's first letters, all but its last two (at least :data:`STEM_MIN`): what its declined forms
    share ("wese" of "wesele" and "weselu", "krzeszow" of "Krzeszowic" and "Krzeszowice"; three letters were too few:
    "sal" of "salę", the wedding hall, was the "Salon" that moved a dress fitting)."""
    low = word.lower()
    return low[:max(STEM_MIN, len(low) - 2)]
