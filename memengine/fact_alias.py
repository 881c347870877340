"""The same slot named in other words: the newer sentence rewritten in the older's words.

Agents store facts tersely and name one slot differently from one write to the next: "pg pool max is 50"
after "Postgres connection pool size is 20", "BD de prod é MySQL 8.0" after "O banco de dados de produção é
MySQL 5.7", "he's got a Kia EV6 now" after "Tom has a grey VW Golf". The rules and the learned decision
compare the words the two share; a short form shares none. :func:`aliased` rewrites the newer with the
older's words wherever one names the other by its letters alone (no word list):

- a **short form** of a word: its start ("prod" / "production", "repo", "retro", "hebdo"), its letters in
  order from the same first letter ("pw" / "password", "svc" / "service", "tz" / "timezone", "DB" /
  "Datenbank", "pg" / "postgres"), a numeronym ("k8s" / "kubernetes": k, 8 letters, s);
- an **acronym** of words that follow each other, stop words skipped ("PM" / "product manager", "CI" /
  "continuous integration", "BD" / "banco de dados");
- a **pronoun for the owner**: a newer whose subject is "he" / "she" / "elle" / "er" / "ela" / "lei" ...
  after an older whose subject is one named person ("Tom has ..." / "he's got ..."); "he's" is read "Tom is".

Either side may hold the short form: the newer's word is replaced by the older's. A pair with nothing to
rewrite is returned as it is (the caller asks nothing more). memengine/supersession.py asks the rules and
the learned decision again on the rewritten newer when the newer as written decided nothing; every veto
still reads the newer as written too (memengine/fact_instance.py keeps another instance out).
Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import facts
from memengine.fact_lexicon import STOPWORDS, fold
from memengine.fact_tokens import guess_lang

__all__ = ["aliased", "short_form"]

_WORD = re.compile(r"[^\W_]+(?:-[^\W\d_]+)*")
_NUMERONYM = re.compile(r"([a-z])(\d+)([a-z])")
# third-person singular subject pronouns: who the older names, said again ("he's got a new car")
_HE_SHE = frozenset({"he", "she", "il", "elle", "er", "sie", "el", "ella", "ele", "ela", "lui", "lei"})


def short_form(short: str, long: str, clipped: bool = True) -> bool:
    """Whether the folded word ``short`` names ``long`` by its letters: a numeronym ("k8s"); a clipped start
    of 3 to 5 letters with 4 letters or more cut off, none of them an inflection's ("prod" / "production",
    "repo", "retro", "hebdo"; not "meet" / "meetings", "walk" / "walker"; ``clipped`` False: not at all, a German word opening another is
    a compound's modifier, "Uhr" / "Uhrzeit"); or 2 to 3 consonants, the
    first one first, all in order in ``long`` ("pw" / "password", "svc" / "service", "tz", "db", "pg")."""
    if len(short) < 2 or len(long) < len(short) + 2 or short[0] != long[0] or len(set(short)) < 2:
        return False
    m = _NUMERONYM.fullmatch(short)
    if m is not None:
        return len(long) == int(m.group(2)) + 2 and long[-1] == m.group(3) and long.isalpha()
    if not short.isalpha() or not long.isalpha():
        return False
    if clipped and 3 <= len(short) <= 5 and long.startswith(short):
        rest = long[len(short):]
        return len(rest) >= 4 and not rest.lstrip(short[-1]).startswith(_INFLECTED)  # ("run" / "running")
    if len(short) > 3 or any(ch in _VOWELS for ch in short):
        return False  # ("vive" / "viviendo", "es" / "esta": a word of its own, not a short form)
    it = iter(long[1:])
    return all(ch in it for ch in short[1:])


# what an inflection or a derivation adds to a word (a clipped word never stops right before it)
_INFLECTED = ("ing", "ed", "er", "es", "ly", "ion", "at", "in", "ment")
_VOWELS = frozenset("aeiouy")


def _content(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, folded word, raw word) of each word of ``text``, stop words included; a compound with
    hyphens is one word, its parts joined ("Team-Meeting": "teammeeting")."""
    return [(m.start(), m.end(), fold(m.group().replace("-", "")), m.group()) for m in _WORD.finditer(text)]


def _names(a: str, b: str, clipped: bool = True) -> bool:
    """Whether one word names the other by its letters: a short form either way, or two compounds (one
    at least written with a hyphen) opening on the same part of 4 letters or more ("Team-Meeting" /
    "Teamsitzung", "Haupt-Repository" / "Hauptrepo")."""
    return short_form(a, b, clipped) or short_form(b, a, clipped)


def _same_head(a: str, b: str) -> bool:
    """Two compounds, one at least written with a hyphen, opening on the same first part of 4 letters or
    more ("Team-Meeting" / "Teamsitzung", "Haupt-Repository" / "Hauptrepo"), or with as many parts, each
    the same word or one naming the other ("DB-Backup" / "Datenbank-Backups"); not the same word."""
    pa, pb = fold(a).split("-"), fold(b).split("-")
    if len(pa) == len(pb) == 1 or pa == pb or any(len(x) < 3 for x in pa + pb):
        return False  # ("chama-se", "fermera-t-elle": a verb and its pronoun)
    if len(pa) == len(pb):  # part by part: "DB-Backup" / "Datenbank-Backups"
        return all(x == y or x[:5] == y[:5] and min(len(x), len(y)) >= 5 or _names(x, y) for x, y in zip(pa, pb))
    head = pa[0] if len(pa) > 1 else pb[0]
    other = fold(b if len(pa) > 1 else a).replace("-", "")
    return len(head) >= 4 and other.startswith(head) and len(other) > len(head)


def _in_value(text: str, s: int, e: int) -> bool:
    """Whether the word at ``text[s:e]`` is part of an address, a path or a host ("stg.acme.io", "jon@...")."""
    return text[s - 1:s] in ("@", ".", "/") and s > 0 or text[e:e + 1] in ("@", ".", "/") and text[e + 1:e + 2].isalnum()


def _is_content(key: str) -> bool:
    return key not in STOPWORDS and not key.isdigit() and len(key) > 1


def _acronym_run(raw: str, words: list[tuple[int, int, str, str]]) -> tuple[int, int] | None:
    """The (first, last) index of the words of ``words`` whose initials spell ``raw``, an acronym written
    in capitals (stop words inside skipped, at least two words; else every word's initial counted: French
    "BDD" / "base de données"), or None."""
    acro = fold(raw)
    if not (2 <= len(acro) <= 4) or not acro.isalpha() or not raw.isupper():
        return None
    for every in (False, True):
        for i in range(len(words)):
            if not _is_content(words[i][2]) or words[i][2][0] != acro[0]:
                continue
            k, j = 1, i + 1
            while k < len(acro) and j < len(words):
                key = words[j][2]
                if every and not key.isdigit() or _is_content(key):
                    if key[0] != acro[k]:
                        break
                    k += 1
                j += 1
            if k == len(acro) and _is_content(words[j - 1][2]):
                return i, j - 1
    return None


def _owner(old: str) -> str | None:
    """The one named person the older's subject is ("Tom has ...", "Mi hermano Diego vive ..."), or None."""
    f = facts.analyse(old)
    run: list[str] = []
    last = -2
    for w in f.words[:3]:
        if w.name and (not run or w.pos == last + 1):  # ("Priya Sharma"; not "Mia and Leo")
            run.append(w.text)
            last = w.pos
        elif run:
            return None if w.name else " ".join(run) if len(run) <= 2 else None
    return " ".join(run) if 1 <= len(run) <= 2 else None


@lru_cache(maxsize=4096)
def aliased(old: str, new: str) -> str:
    """``new`` with each word that names one of ``old``'s words by its letters (or that ``old`` names so)
    replaced by ``old``'s, and a third-person subject pronoun by the older's named subject; ``new`` as it
    is when nothing is rewritten."""
    wa, wb = _content(old), _content(new)
    clipped = guess_lang(old) != "de" and guess_lang(new) != "de"
    keys_a = {k for _, _, k, _ in wa}
    keys_b = {k for _, _, k, _ in wb}
    out: list[tuple[int, int, str]] = []  # (start, end, replacement) in ``new``
    taken: set[int] = set()
    for n, (s, e, kb, rb) in enumerate(wb):
        if kb in keys_a or not _is_content(kb) or new[s - 1:s] in ("'", "’") or _in_value(new, s, e):
            continue  # (the same word; "he'll"; a part of an address, "stg.acme.io")
        hit = next((raw for _, _, ka, raw in wa if ka not in keys_b and _is_content(ka)
                    and (_same_head(raw, rb) if "-" in raw + rb else _names(kb, ka, clipped))), None)
        if hit is None:
            run = _acronym_run(rb, [w for w in wa if w[2] not in keys_b])
            if run is not None:
                rest = [w for w in wa if w[2] not in keys_b]
                hit = old[rest[run[0]][0]:rest[run[1]][1]]
        if hit is not None:
            out.append((s, e, hit))
            taken.add(n)
    # an acronym of the older said out in words by the newer ("CI" / "continuous integration")
    for _, _, ka, raw in wa:
        if ka in keys_b or not ka.isalpha() or not 2 <= len(ka) <= 4:
            continue
        at = [n for n, w in enumerate(wb) if n not in taken and w[2] not in keys_a]
        run = _acronym_run(raw, [wb[n] for n in at])
        if run is not None and run[1] > run[0]:
            out.append((wb[at[run[0]]][0], wb[at[run[1]]][1], raw))
            taken.update(at[run[0]:run[1] + 1])
    if wb and wb[0][2] in _HE_SHE and facts.analyse(new).pronoun:
        who = _owner(old)
        if who is not None:
            s, e = wb[0][0], wb[0][1]
            tail = new[e:e + 2]
            if tail in ("'s", "’s"):  # "he's got" / "she's driving": has / is, never a possessive
                e += 2
                who += " has" if new[e:].lstrip().lower().startswith("got") else " is"
            out.append((s, e, who))
    if not out:
        return new
    text = new
    for s, e, rep in sorted(out, reverse=True):
        text = text[:s] + rep + text[e:]
    return text
