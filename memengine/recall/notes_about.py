"""The note ABOUT the asked thing, not a note that names it aside (notes6, session 25).

An agent's later notes name earlier notes' subjects in passing: "Kids' club moved to Saturdays since the Tuesday route
setting runs late" names the route setting as a reason; "Shoe hire goes up to £5 in June; the ten-visit card is
unchanged" names the card in a remark that gives no value. Asked "who does the route setting?" or "how much is a
ten-visit card?", such a note shares the question's words, is later, and ranks above the note that answers (the
lead's agent35: "… since <the supplier> put prices up", "<guest network> unchanged").

A clause is a sentence or a part of one between ";"; its part after a reason or purpose opener (notes_head) or a
time-reason opener (:data:`_SINCE`: "now that", "da quando", "desde que", "depuis que", …, and "since" / "seit" /
"sinds" / "siden" / "sedan" when no number, weekday or month follows) is a side clause, the rest its *head*. A head
*gives a value* when it holds a number, a date, a time or a weekday (updates.values_of), a digit, a capitalised word
past its first that is none of the asked thing's (a name), or more than :data:`REMARK_WORDS` stems beyond the
question's. Of the question's subject stems (updates.subject_stems less function words, notes_lexicon) that a note
says, :func:`names_aside` reads

* ``side``: none in any head (and no stemless word of the question either: "AGM", "CO2");
* ``remark``: the note's first clause gives a value, no set of value-giving heads says them all, and a later head that
  gives none says those the value-giving heads miss ("… ; the ten-visit card is unchanged");
* else nothing (the note answers, or says the thing plainly).

:func:`about_first` (RecallConfig.notes_about): a first hit, an agent's note, that names the asked thing aside goes
under the first of the next WINDOW - 1 notes of its source whose value-giving heads say every subject stem it says;
that note is no longer returned ``possibly_outdated`` by it. Chat turns, episodes, summaries and shared memories are
never read, so imported chats are never moved. The word lists are closed classes of the languages notes_head reads,
written from the languages, not from any set.
"""

from __future__ import annotations

import functools
import re

from memengine.records import Memory

# The first hits an agent takes: the note about the thing is looked for among them.
WINDOW = 3
# A head saying at most this many stems beyond the question's, and no value, is a remark ("X unchanged").
REMARK_WORDS = 2

# Openers of a clause that gives a time as a reason, in the languages notes_head reads, written from the languages:
# "since" and its kin only before a clause (not before a date: "since March", "seit 2019"; checked by
# :func:`_clause_follows`), the others always.
_SINCE_AMBIGUOUS = ("since", "seit", "sinds", "siden", "sedan")
_SINCE = """
now that|ever since|
depuis que|maintenant que|
desde que|ahora que|agora que|
da quando|ora che|adesso che|dal momento che|
seitdem|jetzt wo|jetzt da|nun da|
nu dat|
nå som|nu när|
odkąd
"""
_SINCE_RE = re.compile(r"(?<![\w'’])(" + "|".join(sorted(
    {w.strip().replace(" ", r"\s+") for w in _SINCE.replace("\n", "").split("|") if w.strip()}
    | set(_SINCE_AMBIGUOUS), key=lambda w: (-len(w), w))) + r")(?![\w'’])", re.IGNORECASE)  # (no hash order)
_CLAUSE = re.compile(r"[.;!?]+(?:\s|$)|\n")
_WORD = re.compile(r"[^\W_]+")


def _clause_follows(rest: str) -> bool:
    """Whether the words after an ambiguous "since" open a clause, not a date: the next word is no number, no
    weekday, no month ("since March", "seit 2019", "since Monday" are dates; "since the Tuesday class fills up" is
    a clause)."""
    from memengine.recall.updates import values_of

    words = _WORD.findall(rest)[:1]
    if not words or words[0][0].isdigit():
        return False
    # (a month reads as a date only with a day: "1 March")
    return not values_of(words[0]) and not any(k == "date" for k, _ in values_of("1 " + words[0]))


def _split_since(clause: str) -> tuple[str, str]:
    """A clause's part before a time-reason opener and the part from it on."""
    for m in _SINCE_RE.finditer(clause):
        word = m.group(1).lower()
        if word in _SINCE_AMBIGUOUS and not _clause_follows(clause[m.end():]):
            continue
        if not clause[:m.start()].strip(" \t\"'“”(-–—"):  # (fronted: "Since the hall closed, we meet at Jo's")
            comma = clause.find(",", m.end())
            cut = comma if comma >= 0 else len(clause)
            return clause[cut:], clause[m.end():cut]
        return clause[:m.start()], clause[m.end():]
    return clause, ""


@functools.lru_cache(maxsize=4096)
def heads_of(text: str) -> tuple[str, ...]:
    """The heads of ``text``'s clauses: each clause less its reason / purpose / time-reason part."""
    from memengine.recall.notes_head import head_and_tail

    out = []
    for part in _CLAUSE.split(text):
        if not part.strip():
            continue
        head, _ = head_and_tail(part)
        head, _ = _split_since(head)
        if head.strip():
            out.append(head)
    return tuple(out)


def _stems(text: str) -> frozenset[str]:
    from memengine.recall.notes_lexicon import without_function_words
    from memengine.recall.updates import subject_stems

    return subject_stems(without_function_words(text))


def _valued(head: str, said: frozenset[str]) -> bool:
    """Whether ``head`` gives a value beside the asked thing's words: a number, a date, a time or a weekday
    (updates.values_of), a digit or a capitalised word past its first that is none of ``said`` (a name, a code:
    "… ist Annette Kraus", "… la tiene Marta Ortiz"), or more than REMARK_WORDS other stems."""
    from memengine.recall.updates import values_of

    if values_of(head) or len(_stems(head) - said) > REMARK_WORDS:
        return True
    for w in _WORD.findall(head)[1:]:
        if any(ch.isdigit() for ch in w) or (w[0].isupper() and not (_stems(w) & said)):
            return True
    return False


def answers(text: str, said: frozenset[str]) -> bool:
    """Whether ``text``'s heads that give a value say every stem of ``said`` between them: it answers about that
    thing ("Trude has left the clinic; the new practice manager is Kasper Lund")."""
    got: set[str] = set()
    for head in heads_of(text):
        st = _stems(head) & said
        if st and _valued(head, said):
            got |= st
    return said <= got


def _short_words(text: str) -> frozenset[str]:
    """A text's words that have no stem (three letters or fewer, or with a digit: "AGM", "CO2"), lower case, less
    memengine.text's stop words."""
    from memengine.text import STOPWORDS

    return frozenset(w.lower() for w in _WORD.findall(text)
                     if (len(w) <= 3 or any(ch.isdigit() for ch in w)) and len(w) > 1 and w.lower() not in STOPWORDS)


def names_aside(query: str, text: str) -> str:
    """How ``text`` names the question's subject: ``"side"`` (only in reason / time-reason clauses), ``"remark"``
    (all of it in a later clause that gives no value, after a first clause that gives one: "Drop-in is £13; the
    ten-class card is unchanged"), else ``""`` (it does not name it, or answers about it, or says it plainly)."""
    said = _stems(query) & _stems(text)
    if not said:
        return ""
    heads = heads_of(text)
    short = _short_words(query)
    shorts = [bool(short & _short_words(h)) for h in heads]
    if any(sh and _valued(h, said) for h, sh in zip(heads, shorts, strict=True)):
        return ""  # (the thing named by a word with no stem in a clause giving a value: "CO2 kommt von Linde")
    in_heads = [_stems(h) & said for h in heads]
    if not any(in_heads) and not any(shorts):
        return "side"
    if answers(text, said) or len(heads) < 2 or not _valued(heads[0], said):
        return ""
    got = frozenset().union(*(st for h, st in zip(heads, in_heads, strict=True) if _valued(h, said)))
    for h, st in zip(heads[1:], in_heads[1:], strict=True):
        if st and said - got <= st and not _valued(h, said):
            return "remark"
    return ""


def _is_note(m: Memory) -> bool:
    """A result stored as an agent's note (notes.is_note's reading of a returned memory): no thread, no import
    episode, no consolidation summary, not received from another store."""
    from memengine.recall.notes import NOTE_CHARS, SUMMARY_SOURCE

    source = m.source or ""
    return (m.thread is None and (m.metadata or {}).get("kind") != "episode" and source != SUMMARY_SOURCE
            and not source.startswith("shared:") and len(m.content) <= NOTE_CHARS)


def about_first(results: list[Memory], query: str) -> list[Memory]:
    """``results`` with the first note among the first WINDOW that answers about the asked thing moved above a
    first hit that only names it aside (see the module's text), no longer marked ``possibly_outdated`` by it (the
    aside is no newer version of it); unchanged when the first hit is no agent's note or answers itself."""
    if len(results) < 2 or not query:
        return results
    a = results[0]
    if not _is_note(a) or not names_aside(query, a.content):
        return results
    said_a = _stems(query) & _stems(a.content)
    for b in results[1:WINDOW]:
        if not _is_note(b) or b.source != a.source or not answers(b.content, said_a):
            continue
        if b.possibly_outdated_by and a.id in b.possibly_outdated_by:
            b.possibly_outdated_by = [i for i in b.possibly_outdated_by if i != a.id] or None
            b.possibly_outdated = True if b.possibly_outdated_by else None
        b.score = a.score
        return [b, *(m for m in results if m.id != b.id)]
    return results
