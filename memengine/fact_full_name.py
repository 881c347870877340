"""A person's full name is whom a fact is about: a shared surname is not the same person (facts35).

"Peter Whitfield lives in Adelaide" / "Jenny Whitfield moved to Perth": memengine/fact_person.other_person reads two
people only when neither sentence says a name of the other's subject, and "Whitfield" is said by both, so the move
rule retired Peter's town by Jenny's move (the lead's blind probe, session 16). A family's notes name its members by
one surname ("Chidi Okafor", "Ngozi Okafor"), a lab's two Lindqvists, a shop's two Trans.

:func:`another_bearer` reads each subject's full name — a given name and a surname, two capitalised words in a row
among the subject's names (memengine/fact_person.py's reading), no title ("Dr Sarah Lindqvist" is Sarah) — and says
two people when the surnames are one, the given names two, and neither sentence says the other's given name
anywhere ("Emeka's brother Obi Okafor …" is about Obi; "Peter and Jenny Whitfield moved to Perth" names Peter).
A surname alone ("Whitfield handles …") names no one in particular: nothing is said. Pure: no SQL, no I/O.
"""

from __future__ import annotations

from functools import lru_cache

from memengine import fact_person
from memengine.fact_cue_lexicon import TITLES
from memengine.fact_person import _WORD, _key, _keys

__all__ = ["another_bearer"]

_WINDOW = 8  # (a subject's words: fact_person reads at most eight)


@lru_cache(maxsize=4096)
def _full_names(text: str) -> tuple[tuple[str, str], ...]:
    """The (given name, surname) pairs, folded, the subject of ``text`` names as two capitalised words in a row."""
    names = fact_person.subject_names(text)
    if len(names) < 2:
        return ()
    found = list(_WORD.finditer(text))[:_WINDOW]
    out = []
    for m1, m2 in zip(found, found[1:]):
        w1, w2 = m1.group(), m2.group()
        k1, k2 = _key(w1), _key(w2)
        # (two words in a row: "Obi Okafor, Emeka's brother" names no "Okafor Emeka")
        if text[m1.end():m2.start()].isspace() and w1[:1].isupper() and w2[:1].isupper() and k1 in names \
                and k2 in names and k1 not in TITLES and not w1.endswith(("'s", "’s")):
            out.append((k1, k2))
    return tuple(out)


def another_bearer(old: str, new: str) -> str:
    """Why ``new`` cannot update ``old``: their subjects' full names share a surname and not the given name, and
    neither sentence says the other's given name ("another bearer of whitfield: jenny / peter"), else ""."""
    a, b = _full_names(old), _full_names(new)
    if not a or not b:
        return ""
    said_old, said_new = _keys(old), _keys(new)
    for g1, s1 in a:
        for g2, s2 in b:
            if s1 == s2 and g1 != g2 and g1 not in said_new and g2 not in said_old:
                return f"another bearer of {s1}: {g2} / {g1}"
    return ""
