"""Readable topic names taken from a topic's own members, for ``brief`` and consolidate's cluster labels.

A name is a run of 1-3 consecutive content words, as written in the members ("invoice runner",
"Mum's birthday", "multi currency"), that recurs in at least two of them. Runs are matched
with case and plurals folded ("deploys" = "deploy", "Invoices" = "invoice") and shown in the
spelling the members use most. A run never crosses punctuation, so "Milan. Tests" is no run.
Chat filler ("ok", "lol", "haha", "thanks", "good") and stop words are never part of a name,
nor are people's names (the People section says who they are). Runs score (members holding
it) x idf of its rarest word x (1 + 0.3 per extra word): what these members share and the
rest of the store does not. When nothing recurs, the name is :data:`MIXED`: a phrase of one
member would pass for the subject of all of them. A one-word name must be a word the members use as a
subject (:func:`used_as_subject`: "fully" of "fully booked", "left" of "on the left" are none).

Rooms (brief23): the word lists and word-level tests are memengine/topic_words.py, the judge of a name's shape and
use memengine/topic_subject.py; this module reads a group's runs and picks its name (it re-exports both rooms' names).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence, Set

from memengine import brief_greetings, topic_people
from memengine.topic_subject import (  # noqa: F401  (re-exported: callers read them here)
    CAPITALS_READ,
    DETERMINERS,
    PLACE_PREPOSITIONS,
    _SubjectJudge,
    _Vocabulary,
    name_shaped,
    used_as_subject,
)
from memengine.topic_words import (  # noqa: F401  (re-exported: callers read them here)
    _CLOCK,
    _ELONGATED,
    _JOIN,
    _LAUGH,
    _ORDINAL,
    _PARTICIPLE,
    _STAMP,
    _WORD,
    _WORD_SPLIT,
    CONTRACTIONS,
    ENDEARMENTS,
    FILLER,
    FUNCTION,
    GENERIC,
    TITLES,
    WEAK,
    fold,
    is_filler,
    is_title,
    unstretched,
    weak,
)

MIXED = "mixed subjects"  # the name of a group whose members share no word run
UNTITLED = "untitled"  # a one-member group with no content word
MAX_WORDS = 3
MIN_WORD_CHARS = 3
RUN_BONUS = 0.3  # per extra word of a run: "credit notes" over "credit" when both recur as often




Runs = dict[tuple[str, ...], str]  # folded key -> as written


def runs(text: str, stop: frozenset[str], exclude: set[str],
         memo: dict[str, tuple[str, bool, str] | None] | None = None) -> Runs:
    """Runs of 1-3 consecutive content words of ``text`` (folded key -> first spelling in it).

    A content word has MIN_WORD_CHARS or more characters, is not only digits, not a stop
    word, not filler and not in ``exclude`` (lower-cased people's names); a run ends at any
    other word and at punctuation. ``memo`` (one per ``stop`` and ``exclude``, e.g. per group
    named) keeps each spelling's verdict between texts.
    """
    out: Runs = {}
    run: list[tuple[str, bool, str]] = []  # (as written, weak, folded)
    if memo is None:
        memo = {}
    # one split gives [gap, word, gap, word, ..., gap]: no match object per word, and what a
    # word is judged by is looked up once per spelling (consolidate reads every member of every
    # cluster: ~6 million words at 100k)
    parts = _WORD_SPLIT.split(_STAMP.sub("", text, count=1))
    gap_ok = True  # whether the text after the run's last word may stand inside a run
    for i in range(1, len(parts), 2):
        w = parts[i]
        if w in memo:
            word = memo[w]
        else:
            low, plain, base, weak_, folded = _judged(w)
            ok = plain and low not in stop and low not in exclude and base not in exclude
            word = memo[w] = (w, weak_, folded) if ok else None
        if run and not (word is not None and gap_ok):
            _add_runs(out, run)
            run = []
        if word is not None:
            run.append(word)
            gap = parts[i + 1]
            gap_ok = gap == " " or _JOIN.fullmatch(gap) is not None
    if run:
        _add_runs(out, run)
    return out


@functools.lru_cache(maxsize=131072)
def _judged(word: str) -> tuple[str, bool, str, bool, str]:
    """(lower case, plain content word, without "'s", weak, folded) of a spelling."""
    low = word.lower()
    return low, _plain_word(low), low.removesuffix("'s").removesuffix("’s"), weak(word), fold(word)


@functools.lru_cache(maxsize=65536)
def _plain_word(low: str) -> bool:
    """The checks of a content word that depend on the word alone (length, digits, ordinals, filler):
    asked once per distinct word, since ``runs`` reads every member of every cluster."""
    low = unstretched(low)  # "GOOOO" is "go", "yesss" "yes": no subject
    return len(low) >= MIN_WORD_CHARS and not low.isdigit() and not _ORDINAL.match(low) and not _CLOCK.match(low) \
        and not is_filler(low) \
        and low not in TITLES and low not in CONTRACTIONS and low not in ENDEARMENTS




def _unpossessed(phrase: str) -> str:
    """A run's spelling without a possessive at its end ("Casa Verde's" -> "Casa Verde"): a name
    reads as a phrase, and the key it stands for is folded without it anyway."""
    return phrase[:-2] if phrase.endswith(("'s", "’s")) and len(phrase) > 3 else phrase


def _add_runs(out: Runs, run: list[tuple[str, bool, str]]) -> None:
    if len(run) == 1:  # most runs: one word
        w, weak_, folded = run[0]
        if not weak_ and folded not in GENERIC and (folded,) not in out:
            out[(folded,)] = _unpossessed(w)
        return
    words = [r[0] for r in run]
    weak_at = [r[1] for r in run]
    keys = [r[2] for r in run]
    for n in range(1, MAX_WORDS + 1):
        for k in range(len(run) - n + 1):
            if weak_at[k] or weak_at[k + n - 1]:
                continue
            key = tuple(keys[k: k + n])
            if n == 1 and key[0] in GENERIC:
                continue  # "course" alone names nothing ("golf course" does)
            if key not in out:
                out[key] = _unpossessed(" ".join(words[k: k + n]))


def ranked_names(member_runs: Sequence[Runs], rarity: Callable[[tuple[str, ...]], float], limit: int = 5,
                 keep: Callable[[str], bool] | None = None) -> list[str]:
    """The best names of a group, best first (at most ``limit``); ``rarity(key)`` is the key's idf.

    A run must recur in two members (in the one member of a group of one). The spelling shown
    is the one most members use (ties: lower case, then first seen). ``keep(name)``: a name it refuses is
    left out and hides none of its own words ("Haus" of the adverbial "direkt vorm Haus" stays a candidate); the
    ``limit`` best are asked as before, and the phrases refused on top (their test reads only the phrase).
    """
    held: Counter[tuple[str, ...]] = Counter()
    spellings: dict[tuple[str, ...], dict[str, int]] = {}
    for r in member_runs:
        held.update(r.keys())
        for k, v in r.items():
            forms = spellings.get(k)
            if forms is None:  # (not setdefault(k, {}): a new dict per run of every member)
                spellings[k] = {v: 1}
            else:
                forms[v] = forms.get(v, 0) + 1
    need = 2 if len(member_runs) > 1 else 1
    cands = [k for k in held if held[k] >= need]

    def spelling(k: tuple[str, ...]) -> str:
        forms = spellings[k]
        return min(forms, key=lambda f: (-forms[f], f != f.lower(), f))

    def score(k: tuple[str, ...]) -> tuple[float, str]:
        return (-round(held[k] * rarity(k) * (1 + RUN_BONUS * (len(k) - 1)), 9), spelling(k))

    out: list[str] = []
    slots = 0  # names taken, and one-word names ``keep`` refused: the ``limit`` best candidates, as without ``keep``
    for k in sorted(cands, key=score):
        # a run inside a better run that recurs as often adds nothing ("invoice" after "invoice runner")
        name = spelling(k)
        if any(name.lower() in o.lower() for o in out):
            continue
        if keep is not None and not keep(name):
            # a phrase refused by its shape takes no slot and hides none of its words; a word refused takes one
            slots += len(k) == 1
            if slots >= limit:
                break
            continue
        out.append(name)
        slots += 1
        if slots >= limit:
            break
    return out





def name(texts: Iterable[str], stop: frozenset[str], exclude: set[str],
         rarity: Callable[[tuple[str, ...]], float], taken: set[str] | None = None, inflected: bool = False) -> str:
    """The name of a group of member texts: its best run not in ``taken`` (lower-cased names
    already given to other groups), or MIXED / UNTITLED. ``inflected``: (brief30) the group's language declines its
    nouns: the forms of one word are held together ("babcia", "babci": memengine/topic_people.py)."""
    memo: dict[str, tuple[str, bool, str] | None] = {}
    texts = list(texts)
    # (brief20) a greeting's words name nothing: "buon compleanno", and "tutti" of "buongiorno a tutti"; a group
    # of greetings is small talk ("jullie" of "gefeliciteerd!" / "dank jullie wel" names it no better)
    wishing = [brief_greetings.has_opener(t) for t in texts]
    if len(texts) > 1 and any(wishing) and brief_greetings.mostly_greetings(
            [t for t, w in zip(texts, wishing) if w], len(texts)):
        # named by what its other members say at length, if two do ("jullie" of "dank jullie wel" names nothing)
        texts = [t for t, w in zip(texts, wishing) if brief_greetings.says_more(t) and not
                 (w and brief_greetings.is_greeting(t))]
        if len(texts) < 2:
            return MIXED
        wishing = [brief_greetings.has_opener(t) for t in texts]
    lowered = [t.lower() for t in texts]
    member_runs = [runs(brief_greetings.without_greetings(t) if w else t, stop, exclude, memo)
                   for t, w in zip(texts, wishing)]
    if inflected:
        member_runs = topic_people.stemmed_runs(member_runs)
    judge = _SubjectJudge(texts, stop)
    judge._lower, judge.greeted = lowered, any(wishing)
    # (round 14) only a name the members use as a subject: when none is, the group is named by none of its words
    # (rounds 13's fallback to the best run named unseen chats' topics "calendar", "ahead", and the group of
    # memories in no topic "left"); (round 15) of a name's shape: no adverbial or clause ("direkt vorm Haus"), whose
    # refusal leaves its words to the next candidates
    # (brief23) the fallback a refused name leaves must pass every check too: in lower case, it is said in two places
    # ("zapisz datę" after "Legia wygrała", "capisco" after "Briciola dorme": one turn each, quoted by its episode,
    # which ranked_names counts as two members), else the group is MIXED; a name written capitalised says what it
    # names once ("Banco Galicia", then "el Galicia"). Not asked of a group's first choice: a small group's subject
    # is often said in one turn and its episode ("pedalboard", "gas meter reading")
    refused: list[str] = []
    failed: list[str] = []  # a fallback that failed: nothing after it names the group (not "Name" after it)

    def keep(n: str) -> bool:
        if failed:
            return False
        ok = judge.subject(n)
        if ok and refused and n.islower() and not judge.recurs(n):
            failed.append(n)
            return False
        if not ok:
            refused.append(n)
        return ok

    best = ranked_names(member_runs, rarity, keep=keep)
    for n in best:
        if (taken is None or n.lower() not in taken) and not is_piece(n, texts, exclude, judge.verb_after(n)):
            return n
    for n in best:  # every name is a piece of a longer one: the best that is free
        if taken is None or n.lower() not in taken:
            return n
    if best:  # every good name is taken: the best, told apart by what it is the second name of
        return best[0]
    return MIXED if len(member_runs) > 1 else UNTITLED


_GAP = re.compile(r"[ \t]*(?:[&+-][ \t]*)?")
_NEIGHBOUR = 3  # words on each side that tell two occurrences of a name apart (a quoted sentence is one)


def is_piece(phrase: str, texts: Sequence[str], exclude: set[str],
             verb: Callable[[str], bool] | None = None) -> bool:
    """Whether ``phrase`` is a piece of a longer fixed name: "man" of "best man", "Mud" of "Mud & Co", "council"
    of "Arts Council". Runs stop at stop words and punctuation, so the piece that recurs can be taken for the
    name. It is one when, in at least two different places (a sentence quoted twice, as a chat turn and its
    episode, is one), the same word stands right before it (or right after it), and that word is no article or
    preposition, no number, no filler, no verb or calendar word (WEAK) and no person's name: the name is the
    longer phrase, which the members do not let a name be (a stop word, a short word, punctuation inside), so
    another name is taken. ``verb(word)``: (brief22) a word after the phrase that is its verb ("Legia" of "Legia
    wygrała", "Palmeiras" of "o Palmeiras ganhou") makes it no piece: a clause's subject is the name."""
    key = [fold(w) for w in _WORD.findall(phrase)]
    n = len(key)
    if not n:
        return False
    first = phrase.split()[0].lower()
    # places told apart by the words around them: a sentence quoted again (a chat turn and the episode that
    # quotes it, whose next words may differ where the turn ended) shares the words on one side at least
    seen_before: set[tuple[str, ...]] = set()
    seen_after: set[tuple[str, ...]] = set()
    places = 0
    before: set[str] = set()
    after: set[str] = set()
    for text in texts:
        if first not in text.lower():
            continue  # (most members: no need to split their words)
        body = _STAMP.sub("", text, count=1)
        spans = [(m.start(), m.end()) for m in _WORD.finditer(body)]
        folded = [fold(body[a:b]) for a, b in spans]
        for i in range(len(spans) - n + 1):
            if folded[i: i + n] != key:
                continue
            ctx_before, ctx_after = tuple(folded[max(0, i - _NEIGHBOUR): i]), tuple(folded[i + n: i + n + _NEIGHBOUR])
            if ctx_before in seen_before or ctx_after in seen_after:
                continue
            seen_before.add(ctx_before)
            seen_after.add(ctx_after)
            places += 1
            # a neighbour only when nothing but spaces, "&", "+" or "-" stands between ("Mud & Co", "best man")
            # (a unit after a number is no name's part: "500 g bloem")
            before.add(folded[i - 1] if i and _GAP.fullmatch(body[spans[i - 1][1]: spans[i][0]])
                       and not (i >= 2 and any(ch.isdigit() for ch in folded[i - 2])) else "")
            last = spans[i + n - 1][1]
            after.add(folded[i + n] if i + n < len(spans) and _GAP.fullmatch(body[last: spans[i + n][0]]) else "")
    if places < 2:
        return False

    def joined(side: set[str]) -> bool:
        low = next(iter(side)) if len(side) == 1 else ""
        return len(low) >= 2 and low not in FUNCTION and not any(ch.isdigit() for ch in low) and not is_filler(low) \
            and low not in exclude and not is_title(low) and not weak(low) and "'" not in low \
            and low not in CONTRACTIONS  # ("went" of "visa appointment went", "I'm" of "I'm crying")

    return joined(before) or joined(after) and not (verb is not None and len(after) == 1 and verb(next(iter(after))))


def idf(df: Callable[[str], int], n_docs: int) -> Callable[[tuple[str, ...]], float]:
    """Rarity of a run from document frequencies of words: a run is as rare as its rarest word."""
    def rarity(k: tuple[str, ...]) -> float:
        return math.log((n_docs + 1) / (min(df(w) for w in k) + 1)) + 1.0
    return rarity


def folded_df(df: Mapping[str, int]) -> Callable[[str], int]:
    """Document frequency of a folded word from frequencies of lower-cased words (its plural
    spellings added: "invoice" counts the documents of "invoice" and of "invoices")."""
    def of(w: str) -> int:
        n = df.get(w, 0) + df.get(w + "s", 0) + df.get(w + "es", 0)
        return n + (df.get(w[:-1] + "ies", 0) if w.endswith("y") else 0)
    return of


# --------------------------------------------------------------------------- (brief27) names chosen together

def said_twice(texts: Iterable[str]) -> frozenset[str]:
    """The folded words at least two of ``texts`` say (a group's own vocabulary: what several members share)."""
    per: Counter[str] = Counter()
    for t in texts:
        per.update({fold(w) for w in _WORD.findall(t)})
    return frozenset(w for w, n in per.items() if n >= 2)


def groups_saying(groups: Iterable[Iterable[str]]) -> Counter[str]:
    """(brief27) For each folded word, in how many of ``groups`` (each a list of member texts) two or more members
    say it: "trip" of a Lisbon trip and of a camping trip, the user's own name in most groups of an assistant's
    notes. A name made of such a word does not tell its topic apart from the others."""
    out: Counter[str] = Counter()
    for texts in groups:
        out.update(said_twice(texts))
    return out


def apart(rarity: Callable[[tuple[str, ...]], float], saying: Mapping[str, int], own: Set[str]
          ) -> Callable[[tuple[str, ...]], float]:
    """``rarity`` of a run divided by one plus the number of OTHER groups that say its most shared word: topics are
    named together, each by what the others do not say ("Lisbon" rather than "trip", "Cangas de Onís" rather than
    "Lucía"). ``own``: the group's :func:`said_twice` words (its own saying is not counted against it)."""
    def of(k: tuple[str, ...]) -> float:
        others = max(saying.get(w, 0) - (w in own) for w in k)
        return rarity(k) / (1.0 + max(0, others))
    return of


def content_words(name: str, stop: Set[str]) -> frozenset[str]:
    """The folded content words of a name (no stop word, filler or word shorter than MIN_WORD_CHARS)."""
    return frozenset(fold(w) for w in _WORD.findall(name) if len(w) >= MIN_WORD_CHARS and w.lower() not in stop
                     and not is_filler(w.lower()))  # ("de" of "Cangas de Onís" is no word of the name)


def names_nobody(label: str, exclude: Set[str], stop: Set[str]) -> bool:
    """(brief27) Whether every content word of a stored label is a person's name or a word of most of the store
    (``exclude``): "Marini", the supervisor of both papers (the People section says who he is), "Lucía", the user
    every note of her assistant names."""
    words = [w for w in _WORD.findall(label) if fold(w) in content_words(w, stop)]
    return bool(words) and all(w.lower() in exclude for w in words)


LEFTOVER_SHARE = 1 / 3  # of the memories in no topic, the share that must say a name for it to head them


def held_by_share(name: str, texts: list[str], stop: Set[str], share: float = LEFTOVER_SHARE) -> bool:
    """Whether at least ``share`` of ``texts`` say a content word of ``name`` (folded): the memories in no topic are
    what no topic took, many subjects; held-out 23 headed them "jadę" (I go), said by 2 of 10, and held-out 22
    "Leeds". A name that is no name (MIXED, untitled) passes: it says nothing to check."""
    words = content_words(name, stop)
    if name in (MIXED, UNTITLED) or not words or not texts:
        return True
    held = sum(bool(words & {fold(w) for w in _WORD.findall(t)}) for t in texts)
    return held >= share * len(texts)
