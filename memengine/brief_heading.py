"""(brief34) A topic heading of one word widened to the noun phrase its members say it in.

A topic is named by the run of content words its members repeat (memengine/topic_names.py). In a chat that run is
often one word: the members say "knee", "furgone", "mamma", "gig" in many turns, but each time in a longer phrase:
"tom's knee op", "il furgone di Luca", "la festa della mamma", "tickets for the Glasgow gig". The word alone is a
label ("T2 · knee"): it says what the turns share, not what the topic is about. Here the one-word name is widened to
a phrase a member writes around it, of the shapes a noun phrase takes in the languages the brief reads:

* a possessive before it ("tom's knee", "ben's stag"), or a content word joined to it ("knee op", "pub quiz");
* a prepositional complement after it ("cottage in Coniston", "esame di abilitazione", "trasloco a Bologna"), or the
  word as the complement of a head before it ("festa della mamma", "tickets for the Glasgow gig").

A phrase is taken only when it is said word for word in at least :data:`MIN_HELD` members (a chat turn and the
episode quoting it are two, as topic_names counts), has a name's shape (topic_subject.name_shaped: no clause, no
adverbial), names no day ("party on the 14th": a plan moves, its heading would not), and adds no content word of
another topic's name (two headings sharing a word do not tell their topics apart). Of several, the one whose added
words the topic's own lines say most; then the one said most; then the shorter. No phrase: the word stays.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence, Set

from memengine import brief_dates
from memengine.topic_subject import DETERMINERS, name_shaped
from memengine.topic_words import _WORD, ENDEARMENTS, FUNCTION, GENERIC, fold, is_filler, is_title, weak

WIDEN = True  # the switch (off: the base brief)
MIN_HELD = 2  # members that must say the phrase word for word
MAX_WORDS = 5  # words of a widened name
MAX_LINES = 200  # lines read per topic (the lines that say the word; a large cluster at 100k)
MAX_TEXTS = 400  # members a phrase is counted in
# Prepositions that join a noun to its complement, in the languages the brief reads (not "on" / "at" / "am" / "dal":
# "the gig on friday", "am Samstag" name a time, brief_dates tells those; these stay for places and owners)
_PREPS: frozenset[str] = frozenset("""of for in at to from with about
di del della dello dei degli delle a al alla allo ai agli alle da in nel nella per con su sul sulla
de del a al en para con sobre du des à au aux pour avec sur chez
für vom von zum zur im in an auf mit nach aus bei
do da dos das em no na nos nas para com ao
van voor in op naar met bij
na w do z ze dla od""".split())
# a "Name: " label heading a chat turn (at most four words before the colon)
_LABEL = re.compile(r"^\s*(?:[^\s:]+\s+){0,3}[^\s:]+:\s+")
_JOINED = re.compile(r"[ \t]+")
_ELIDED = re.compile(r"(?:l|d|dell|dall|all|nell|sull|un|qu|c|j|m|n|s|t)['’](?=[^\W\d_]{2})", re.IGNORECASE)


def widened(name: str, texts: Sequence[str], stop: frozenset[str], people: Set[str], taken_words: Set[str],
            more: Callable[[], Sequence[str]] | None = None) -> str:
    """``name`` (a topic's one-word name) widened to the noun phrase its members say it in, or ``name`` (the module
    docstring). ``stop``: the group's stop words; ``people``: lower-cased people's names (no compound of a name, only
    its possessive or a complement); ``taken_words``: the folded content words of the names other topics have.
    ``more``: (brief35) what reads all the topic's stored members, asked when ``texts`` (the brief's pool of it,
    often without the episode that says the phrase again) widen nothing: "seat" of "a shower seat" in the sisters'
    chat."""
    got = _widened(name, texts, stop, people, taken_words)
    if got == name and more is not None and WIDEN and len(_WORD.findall(name)) == 1:
        got = _widened(name, more(), stop, people, taken_words)
    return got


def _widened(name: str, texts: Sequence[str], stop: frozenset[str], people: Set[str], taken_words: Set[str]) -> str:
    words = _WORD.findall(name)
    if not WIDEN or len(words) != 1 or len(texts) < MIN_HELD:
        return name
    key = fold(words[0])
    low_word = words[0].lower()
    lines: list[str] = []
    seen: set[str] = set()
    texts = texts[:MAX_TEXTS]  # (a large cluster at 100k: its first members say what it is about)
    for t in texts:
        if low_word[:-1] not in t.lower():
            continue
        for ln in t.split("\n"):
            body = _LABEL.sub("", ln, count=1).strip()
            if body and body not in seen and low_word[:-1] in body.lower():
                seen.add(body)
                lines.append(body)
        if len(lines) >= MAX_LINES:
            break
    if _proper(words[0], lines):
        return name  # a proper name or an acronym ("Panda", "SSH") names its thing already
    cands: dict[str, tuple[int, str]] = {}  # lower-cased phrase -> (first line, as written)
    for n, body in enumerate(lines):
        for phrase in _phrases(body, key, stop, people):
            cands.setdefault(phrase.lower(), (n, phrase))
    if not cands:
        return name
    freq = _line_freq(lines)
    lowered = [t.lower() for t in texts]
    scored: list[tuple[tuple[bool, int, int, int, int], str]] = []
    for low, (first, phrase) in cands.items():
        said = _WORD.findall(phrase)
        added = [fold(w) for w in said if fold(w) != key]
        if any(w in taken_words for w in added):
            continue  # another topic's word: the two headings would not tell their topics apart
        rx = re.compile(rf"(?<![^\W_]){re.escape(low)}(?![^\W_])")
        held = sum(1 for t in lowered if low in t and rx.search(t))
        # said once: each added word (but an owner's name, "Dad's") is one the topic's lines say twice
        if held < MIN_HELD and any(freq.get(fold(w), 0) < 2 for w in said if fold(w) != key and _content(w, stop)
                                   and not w.lower().endswith(("'s", "’s"))):
            continue
        scored.append(((held >= MIN_HELD, sum(freq.get(w, 0) for w in added), held, -len(said), -first), phrase))
    # the best first; its shape asked only then (a judge reads the members' words)
    for _score, phrase in sorted(scored, reverse=True):
        if not brief_dates.says_a_date(phrase) and name_shaped(phrase, texts, stop):
            return phrase
    return name


_NUMBERS = frozenset("one two three four five six seven eight nine ten eleven twelve".split())


def _ends_phrase(i: int, toks: Sequence[str], low: Sequence[str], stop: frozenset[str],
                 joined: Callable[[int], bool]) -> bool:
    """(brief35) Whether the word at ``i`` may end a noun phrase: the line ends or breaks after it, or a stop word,
    preposition or determiner follows ("the knee op is on tues"); a content word or a number after it makes it a verb
    or an adjective said of the thing ("my car fits four", "el vocho suena raro")."""
    if i + 1 >= len(toks) or not joined(i):
        return True
    nxt = low[i + 1]
    return not any(ch.isdigit() for ch in nxt) and nxt not in _NUMBERS and (nxt in stop or nxt in FUNCTION or nxt in _PREPS
                                                   or nxt in DETERMINERS)


def _proper(word: str, lines: Sequence[str]) -> bool:
    """Whether ``word`` is an acronym, or written capitalised inside a sentence of ``lines`` (a proper name)."""
    if word.isupper() and len(word) > 1:
        return True
    if not word[:1].isupper():
        return False
    rx = re.compile(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])")
    for ln in lines:
        for m in rx.finditer(ln):
            before = ln[:m.start()].rstrip()
            if before and before[-1] not in ".!?:;\"'“(–—":  # ("Fontainebleau-la-Forêt": a name)
                return True
    return False


def _line_freq(lines: Sequence[str]) -> dict[str, int]:
    """In how many of ``lines`` each folded word stands."""
    out: dict[str, int] = {}
    for ln in lines:
        for w in {fold(x) for x in _WORD.findall(ln)}:
            out[w] = out.get(w, 0) + 1
    return out


def _content(word: str, stop: frozenset[str]) -> bool:
    """A word that may stand in a name: not a stop word, filler, title, weak word (verb, adjective, calendar word),
    generic noun, nor a number."""
    low = word.lower()
    return len(low) >= 2 and low not in stop and low not in FUNCTION and low not in DETERMINERS and low not in _PREPS \
        and not is_filler(low) and not is_title(low) and not weak(word) and low not in ENDEARMENTS \
        and fold(word) not in GENERIC and low not in GENERIC and not any(ch.isdigit() for ch in low)


def _phrases(body: str, key: str, stop: frozenset[str], people: Set[str]) -> list[str]:
    """The noun phrases around each place of the word ``key`` (folded) in one line (the module docstring)."""
    spans = []
    for m in _WORD.finditer(body):  # an elided article is no part of the word ("l'esame", "dell'anno")
        e = _ELIDED.match(m.group())
        spans.append((m.start() + (e.end() if e else 0), m.end()))
    toks = [body[a:b] for a, b in spans]
    low = [t.lower() for t in toks]

    def joined(i: int) -> bool:  # token i and i + 1 stand in one phrase: only spaces between
        return 0 <= i < len(spans) - 1 and _JOINED.fullmatch(body[spans[i][1]: spans[i + 1][0]]) is not None

    def hyphen(i: int) -> bool:  # token i and i + 1 are one word ("e-bike", "check-in")
        return 0 <= i < len(spans) - 1 and body[spans[i][1]: spans[i + 1][0]] == "-"

    def noun(i: int) -> bool:  # a content word that is no person's name (nor the word again: "gig gig")
        return _content(toks[i], stop) and low[i] not in people and fold(toks[i]) not in people \
            and fold(toks[i]) != key and "'" not in low[i] and "’" not in low[i]  # (an owner: asked apart)

    out: list[str] = []
    for i, t in enumerate(toks):
        if fold(t) != key:
            continue
        lefts = [(i, False)]
        a = i
        if hyphen(i - 1) and low[i - 1] not in DETERMINERS:
            a = i - 1  # "e-bike": one word ("la-Forêt": a piece of a place's name)
            lefts.append((a, False))
        elif joined(i - 1) and noun(i - 1):
            a = i - 1
            lefts.append((a, False))  # "pub quiz", "knee surgery"
        if joined(a - 1) and low[a - 1].endswith(("'s", "’s")) and len(low[a - 1]) > 3 and "'" not in t \
                and _content(toks[a - 1][:-2], stop) and (low[a - 1][:-2] in people or toks[a - 1][:1].isupper()
                                                          or a >= 2 and joined(a - 2) and low[a - 2] in DETERMINERS):
            # an owner: a person, a name, or "my sister's" (not "there's", "someone else's")
            lefts.append((a - 1, False))  # "tom's knee", "Dad's knee surgery"
        # the word as a complement: head + preposition (+ determiner) (+ a modifier) + word ("festa della mamma")
        j = i - 1
        if j >= 1 and joined(j) and _content(toks[j], stop) and low[j] not in people:
            j -= 1  # a modifier ("the Glasgow gig")
        if j >= 1 and joined(j) and low[j] in DETERMINERS:
            j -= 1
        if j >= 1 and joined(j) and low[j] in _PREPS and joined(j - 1) and noun(j - 1):
            lefts.append((j - 1, True))
        if hyphen(i):
            continue  # a piece of a longer word ("bike-shed")
        rights = [(i, False)]
        if joined(i) and noun(i + 1) and _ends_phrase(i + 1, toks, low, stop, joined) \
                and (t.isupper() or not toks[i + 1].isupper()):
            rights.append((i + 1, False))  # "knee op" (not "car fits four", "vocho suena raro", "regner SÅ")
        # a complement: preposition (+ determiner) + one or two content words ("cottage in Coniston")
        k = i + 1
        if joined(i) and k < len(toks) and low[k] in _PREPS:
            if joined(k) and k + 1 < len(toks) and low[k + 1] in DETERMINERS:
                k += 1
            if joined(k) and k + 1 < len(toks) and _content(toks[k + 1], stop):
                end = k + 1
                if joined(end) and end + 1 < len(toks) and _content(toks[end + 1], stop):
                    end += 1
                rights.append((end, True))
        for a, left_prep in lefts:
            for b, right_prep in rights:
                if (a, b) == (i, i) or left_prep and right_prep or b - a + 1 > MAX_WORDS:
                    continue
                out.append(body[spans[a][0]: spans[b][1]])
    return out


def members_of(conn: sqlite3.Connection, cluster: int) -> list[str]:
    """(brief35) The texts of cluster ``cluster``'s live members, oldest first (at most MAX_TEXTS)."""
    return [str(r[0]) for r in conn.execute(
        """SELECT m.content FROM cluster_members cm JOIN memories m ON m.id = cm.memory_id WHERE cm.cluster_id = ?
           AND m.status != 'deleted' ORDER BY m.id LIMIT ?""", (cluster, MAX_TEXTS))]


def member_reader(conn: sqlite3.Connection, cluster: int) -> Callable[[], list[str]]:
    """What reads :func:`members_of` ``cluster`` when asked (widened's ``more``)."""
    return lambda: members_of(conn, cluster)
