"""The speaker of reported speech as the clause's subject: "Priya says she's at Wise now" states that *Priya* is at
Wise now (facts27).

memengine/fact_said.py returns the clause reported ("she's at Wise now"); when its subject is a pronoun of the third
person, or none at all in a language that drops it ("Marta dice que ahora da clase en Huesca", "Davide dice che
adesso lavora da Deloitte"), whom the clause is about was said before it: the speaker. Left as a pronoun, the clause
was read of whoever else the store's facts call "she" (memengine/fact_alias.py put "Priya's partner Sam" in its
place and retired Sam's job), and a clause with no subject named nobody's fact. :func:`about_speaker` puts the
speaker in the pronoun's place, or before a clause that opens with no subject of its own (no article, no name, no
pronoun in its first two words) in Spanish, Portuguese and Italian. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re

__all__ = ["about_speaker"]

# Third-person pronouns a clause opens with, by the language of the verb of saying: French "il" is Italian's
# article, Spanish "el" without its accent an article.
_PRONOUN = re.compile(r"^(?:(?P<be>she's|he's|she is|he is)|she|he|er|sie|elle|il|él|ella|ele|ela|lui|lei|hij|zij|ze)"
                      r"(?![\w'’-])\s*", re.IGNORECASE)
_ITALIAN_IL = re.compile(r"^il\s", re.IGNORECASE)
# A clause opening with its own subject: an article, a determiner, a pronoun (es / pt / it).
_OWN_SUBJECT = frozenset("""
el la los las lo un una unos unas este esta ese esa mi su nuestro nuestra yo tu él ella ellos ellas nosotros
o a os as um uma uns umas este esta esse essa meu minha seu sua nosso nossa eu você ele ela eles elas nós
il lo gli le i un uno una questo questa quel quella mio mia suo sua nostro nostra io tu lui lei noi loro l
""".split())
_NULL_SUBJECT_VERBS = re.compile(r"\b(?:dice|dijo|ha dicho|comentó|contó|disse|diz|falou|contou|ha detto)\b",
                                 re.IGNORECASE)
_DUTCH = re.compile(r"\b(?:zegt|zei|heeft gezegd|vertelde|vertelt|liet weten|schreef)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def about_speaker(speaker: str, verb: str, clause: str) -> str:
    """``clause`` with ``speaker`` as its subject when it has none of its own (see the module docstring), else
    ``clause``: ("Priya", "says", "she's at Wise now") -> "Priya is at Wise now"."""
    speaker = speaker.strip()
    if not speaker or not clause:
        return clause
    m = _PRONOUN.match(clause)
    if m is not None and not (_ITALIAN_IL.match(clause) and not re.search(r"\bdit\b", verb, re.IGNORECASE)):
        rest = clause[m.end():]
        if not rest.strip():
            return clause
        if _DUTCH.search(verb):  # "zegt dat hij nu bij Coolblue werkt": the verb of a Dutch "dat" clause comes last
            words = rest.split()
            if len(words) >= 2:
                rest = " ".join([words[-1].rstrip(".!"), *words[:-1]])
        return f"{speaker} is {rest}" if m.group("be") else f"{speaker} {rest}"
    if _NULL_SUBJECT_VERBS.search(verb):
        first = [w.lower() for w in _WORD.findall(clause)[:2]]
        if len(first) == 2 and not any(w in _OWN_SUBJECT for w in first) and not clause[:1].isupper():
            return f"{speaker} {clause}"
    return clause
