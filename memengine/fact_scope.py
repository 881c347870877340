"""What a fact sentence says beside its slot and value: a purpose ("pour aller au travail"), and whose
the thing is (its owner). Used by memengine/facts.py's frame rules.

- :func:`purpose_words`: the words of a purpose clause, an infinitive after "pour" / "para" / "per" /
  "to get to" / "um ... zu". "Je prends le métro pour aller au travail" / "... pour aller chez ma mère"
  differ in what the métro is taken FOR, not in how: another fact, never a new value of one slot.
- :func:`values_differ_in_kind`: one side states a kind of value (a number, a time, an identifier such as
  "room 12") the other does not state at all: a word swapped beside them ("I sleep 7 hours a night" / "I
  sleep in room 12") is not the slot's new value.
- :func:`scope_added`: the newer ends by naming whom or what its value is for, a group the older never names
  ("The max upload size is 10 MB" / "... is 100 MB for admins", "the cache TTL is 60 seconds for session
  tokens"): a value of a narrower slot, not the slot's new value.
- :func:`owner` / :func:`owner_dropped`: whose the slot is. A newer sentence that names no owner at all
  ("school starts at 8:40") keeps the older's ("The kids' school starts at 8:15"); one that names another
  ("my rent is 950" after "my sister's rent is 900", "our son's swim practice") is another fact.

Pure functions over tokens: no SQL, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, _set, fold, fold_text
from memengine.fact_tokens import Tok, prepare, read_tokens
from memengine.fact_view import Fact

__all__ = ["owner", "owner_dropped", "purpose_words", "scope_added", "values_differ_in_kind"]


# "pour" / "para" / "per" + an infinitive (read by its ending), in five languages; English and German below.
_PURPOSE_INF = {"pour": ("er", "ir", "re"), "para": ("ar", "er", "ir"), "pra": ("ar", "er", "ir"),
                "per": ("are", "ere", "ire")}
_EN_PURPOSE_VERBS = _set("go get reach commute travel visit see drive ride walk pick drop take")
_CLAUSE_END = frozenset({",", ";", ".", "!", "?", ":"})


@lru_cache(maxsize=2048)  # (a write compares one new sentence with up to ten candidates: read each once)
def tokens(text: str) -> tuple[Tok, ...]:
    """The tokens of ``text``, read once; callers never change them."""
    return tuple(read_tokens(prepare(text), text))


def _toks(text: str) -> list[Tok]:
    return list(tokens(text))


def _purpose_start(toks: list[Tok], i: int) -> bool:
    k = fold(toks[i].low) if toks[i].kind == "word" else ""
    nxt = fold(toks[i + 1].low) if i + 1 < len(toks) and toks[i + 1].kind == "word" else ""
    if k in _PURPOSE_INF:
        return nxt.endswith(_PURPOSE_INF[k])  # ("para ir", "pour aller")
    if k == "to":  # "to get to work", "in order to"
        return nxt in _EN_PURPOSE_VERBS or i > 1 and fold(toks[i - 1].low) == "order"
    if k == "um":  # "um zur Arbeit zu kommen"
        return any(fold(t.low) == "zu" for t in toks[i + 2:i + 7] if t.kind == "word")
    return False


def purpose_positions(text: str) -> set[int]:
    """Token positions of the purpose clauses of ``text`` (to the end of their clause)."""
    toks = _toks(text)
    out: set[int] = set()
    i = 0
    while i < len(toks) - 1:
        if _purpose_start(toks, i):
            j = i
            while j < len(toks) and toks[j].text not in _CLAUSE_END:
                out.add(j)
                j += 1
            i = j
        i += 1
    return out


def purpose_words(f: Fact, idx: Sequence[int]) -> bool:
    """Whether each word ``idx`` of ``f`` stands inside a purpose clause (and there is one at least)."""
    if not idx:
        return False
    toks = _toks(f.text)
    span = purpose_positions(f.text)
    for i in idx:
        p = f.words[i].pos
        if p >= len(toks) or toks[p].text != f.words[i].text.split(" ")[0] or p not in span:
            return False  # (tokens reordered, or outside the clause)
    return True


def _kinds(f: Fact) -> set[str]:
    # a number's unit class is its kind here: "3rd floor" (a rank), "18 degrees", "7 hours" are three
    return {v.kind + (":" + str(v.norm[0]) if v.kind == "number" and v.norm else "") for v in f.values}


def values_differ_in_kind(fa: Fact, fb: Fact) -> bool:
    """Whether the older states a kind of value the newer has none of ("7 hours a night" / "in room
    12": its value was the number), the two name things by other identifiers, or the newer adds a
    weekday ("lavoro da Fiat" / "lavoro in ufficio il mercoledì": when, another slot). A date the newer
    adds is when the change happened ("lives in Lyon" / "moved to Nantes in March")."""
    ka, kb = _kinds(fa), _kinds(fb)
    ia, ib = {i.partition("#")[0] for i in fa.identifiers}, {i.partition("#")[0] for i in fb.identifiers}
    return bool((ka - kb) or (ia ^ ib) or "weekday" in kb - ka)


# --------------------------------------------------------------------------- whose

FIRST_PERSON = _set("i me my mine we us our ours", "je j me m moi mon ma mes nous notre nos",
                    "yo me mi mis nosotros nosotras nuestro nuestra nuestros nuestras",
                    "ich mich mir mein meine meinen meinem meiner wir uns unser unsere unseren unserem unserer",
                    "eu meu minha meus minhas nos nosso nossa nossos nossas", "io mio mia miei mie noi nostro nostra")
OTHER_POSSESSIVES = _set("his her their your", "son sa ses leur leurs ton ta tes votre vos", "su sus tu tus",
                         "sein seine seinen seinem seiner ihr ihre ihren ihrem ihrer dein deine",
                         "seu sua seus suas dele dela deles delas teu tua", "suo sua suoi sue tuo tua loro")
_GENITIVE = _set("of", "de d du des", "de del", "von vom", "de do da dos das", "di del della dei degli delle")


def owner(text: str, subject_words: Sequence[str] = ()) -> tuple[str, frozenset[str]]:
    """Whose thing a sentence speaks of: ("self", {}) for a first person, ("other", {words}) for a
    possessor ("Mum's", "the kids'", "my sister's", "de ma fille", "his"), ("", {}) when it names none.
    ``subject_words`` (folded keys of the subject) are searched for "X's" and "of / de + X"."""
    toks = _toks(text)
    others: set[str] = set()
    selfish = False
    for i, t in enumerate(toks):
        if t.kind != "word":
            continue
        k = fold(t.low)
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        owned = i + 2 < len(toks) and toks[i + 2].kind == "word" and fold(toks[i + 2].low) not in STOPWORDS
        if nxt is not None and nxt.role == "poss" and owned and k not in STOPWORDS or t.text.endswith("'"):
            others.add(k.rstrip("'"))  # "Mum's", "the kids'" (not "it's all", "Bedtime's 8:30": "is")
        elif k in OTHER_POSSESSIVES:
            others.add(k)
        elif k in FIRST_PERSON:
            selfish = True
    if others:
        return "other", frozenset(others)
    return ("self", frozenset()) if selfish else ("", frozenset())


def owner_dropped(old: str, new: str) -> bool:
    """Whether ``new`` names no owner at all while ``old`` names someone's ("The kids' school" /
    "school"): the newer keeps the older's owner."""
    return owner(old)[0] == "other" and owner(new)[0] == ""


# "for" / "für" / "pour" + one to four words closing the sentence: whom or what the value is for. Not
# Spanish/Portuguese "para" nor Italian "per": "mudou para quinta", "20 euro per month" say where and how often.
_SCOPE_TAIL = re.compile(r"\b(?:for|fur|pour)\s+((?:[^\W\d_]+\s+){0,3}[^\W\d_]+)\s*[.!]?\s*$")
_LETTERS = re.compile(r"[^\W\d_]+")
# "for now", "for good", "for the summer", "pour le moment": how long, not for whom
_SPAN_WORDS = _set("now good ever once today tomorrow while time being moment instance example change week weeks month "
                   "months year years summer winter season weekend instant maintenant toujours semaine mois an "
                   "annee immer jetzt woche monat jahr")


@lru_cache(maxsize=4096)
def scope_added(old: str, new: str) -> bool:
    """Whether ``new`` closes on a "for <group>" the older lacks ("... is 100 MB for admins" after "The max
    upload size is 10 MB"): the value of a narrower slot. Not when the older has such a close itself, when
    the group is a span of time ("for now", "pour le moment") or the older names any of its words ("la
    cantine ... pour la cantine")."""
    lo, ln = fold_text(old), fold_text(new)
    m = _SCOPE_TAIL.search(ln)
    if m is None or _SCOPE_TAIL.search(lo) is not None:
        return False
    words = [w for w in _LETTERS.findall(m.group(1)) if w not in STOPWORDS]
    if not words or any(w in _SPAN_WORDS or w in MONTHS or w in WEEKDAYS for w in words):
        return False
    olds = set(_LETTERS.findall(lo))
    return not any(w in olds or any(len(w) >= 5 and o[:5] == w[:5] for o in olds) for w in words)
