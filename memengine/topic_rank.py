"""(brief38) A topic's heading chosen by a learned ranker over the candidates the engine already makes.

Rounds 5–37 wrote the heading's choice as rules, each fitted to its sample: a run two members say, widened to its
noun phrase, renamed from one turn or from an exchange's opening line. Here every candidate those rules could give is
made for a topic (:func:`candidates`: the recurring runs of memengine/topic_names.py in their rank, every run said
once, each one-word run widened to the noun phrases around it as memengine/brief_heading.py reads them), and each
is described by features that name no word of any language (:func:`features`): how many of the topic's members say it
and how many of the store's, how spread over the topic it is, said once, capitalised, its length, whether the
topic's most central member or its opening says it, the share of its words that are weak (verbs, adverbs, calendar
words: topic_words.weak), whether today's judge takes it as a subject or a piece, its rank among today's runs.
A linear score over them (:data:`WEIGHTS`, fitted as a conditional logit over each topic's candidates by
``bench/brief_headrank.py``, leaving one held-out set out) picks the candidate.

:data:`RANKED` is the switch, off (bench/README.md, round brief38): leaving one held-out round out, the learned pick
names more topics with an expected heading (held-outs 5-29: 200 -> 237 of 627 topics, expected headings held 184 ->
214, no round losing more than one), but in the brief it gives headings said once and names sharing a word with
another topic's, which brief_quality counts as faults, and unwidens "Dad's knee surgery" to "surgery".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from memengine import brief_heading, topic_decided, topic_names, topic_shape
from memengine.topic_subject import _SubjectJudge
from memengine.topic_words import _WORD, fold, weak

RANKED = False  # the switch (off: the heading as the rules choose it)
DECIDED = False  # (brief39) offer the head phrases of the episodes' deciding lines too (memengine/topic_decided.py)
MAX_TEXTS = 120  # members read per topic (a large cluster at 100k: its first members say what it is about)
MAX_WIDEN = 6  # one-word runs of the best ranks widened to their phrases
RANK_LIMIT = 8  # today's runs ranked (a candidate's rank among them is a feature)

FEATURES = ("held_share", "held_log", "said_once", "store_share", "lift", "idf", "n_words", "one_word",
            "capitalised", "cap_inside", "in_central", "in_first", "weak_share", "chars", "rank", "top",
            "subject", "piece", "widened", "digit", "spread", "possessive", "other_groups", "edge_stop", "today",
            "upper", "sub_of_equal", "after_number", "unit", "decided")


@dataclass
class Candidate:
    """A heading a topic could take, as written, where it came from and its feature vector."""

    text: str
    source: str  # "run" (a run of topic_names), "phrase" (a run widened to a phrase it is said in), "decided" (the
    # head phrase of an exchange's deciding line: topic_decided)
    x: list[float] = field(default_factory=list)


_SENT_START = re.compile(r"(?:^|[.!?:;\n]\s*|^\s*[^\s:]{1,30}:\s+)$")


def _tokens(text: str) -> list[str]:
    return [fold(w) for w in _WORD.findall(text)]


def _holds(member: list[str], key: Sequence[str]) -> int:
    """The first index where the folded word sequence ``key`` stands in ``member``, or -1."""
    n = len(key)
    if not n:
        return -1
    first = key[0]
    for i, w in enumerate(member):
        if w == first and member[i: i + n] == list(key):
            return i
    return -1


def _central(folded: Sequence[set[str]], content: Callable[[str], bool]) -> int:
    """The member sharing most content words with the others (ties: the earliest)."""
    df: Counter[str] = Counter()
    for s in folded:
        df.update(w for w in s if content(w))
    best, best_score = 0, -1.0
    for i, s in enumerate(folded):
        words = [w for w in s if content(w)]
        if not words:
            continue
        score = sum(df[w] - 1 for w in words) / math.sqrt(len(words))
        if score > best_score:
            best, best_score = i, score
    return best


def candidates(texts: Sequence[str], stop: frozenset[str], exclude: set[str],
               rarity: Callable[[tuple[str, ...]], float], store_df: Mapping[str, int], n_store: int,
               saying: Mapping[str, int] | None = None, today: str | None = None,
               decided: bool | None = None, more: Callable[[], Sequence[str]] | None = None) -> list[Candidate]:
    """Every heading the engine can give the topic of member ``texts`` (the module docstring), with features.

    ``stop``: the group's stop words; ``exclude``: lower-cased people's names; ``rarity``: a run's idf in the store;
    ``store_df``: members of the whole store saying each folded word (``n_store`` members); ``saying``: in how many
    groups of the store two members say each folded word (topic_names.groups_saying); ``today``: the heading the
    rules give (a candidate too, marked by a feature: the ranker learns when to leave it); ``decided``: offer the
    deciding lines' head phrases (default :data:`DECIDED`); ``more``: what reads the topic's stored members (the
    brief's pool of a topic often lacks its episodes, where the deciding lines are read)."""
    texts = list(texts[:MAX_TEXTS])
    if not texts:
        return []
    memo: dict[str, tuple[str, bool, str] | None] = {}
    member_runs = [topic_names.runs(t, stop, exclude, memo) for t in texts]
    judge = _SubjectJudge(texts, stop)
    ranked = topic_names.ranked_names(member_runs, rarity, limit=RANK_LIMIT)
    rank = {r.lower(): i for i, r in enumerate(ranked)}
    spell: dict[tuple[str, ...], Counter[str]] = {}
    for one in member_runs:
        for k, v in one.items():
            spell.setdefault(k, Counter())[v] += 1
    out: dict[str, Candidate] = {}
    for forms in spell.values():
        text = min(forms, key=lambda f, fs=forms: (-fs[f], f != f.lower(), f))  # type: ignore[misc]
        out.setdefault(text.lower(), Candidate(text, "run"))
    for r in ranked:
        out.setdefault(r.lower(), Candidate(r, "run"))
    if today and today not in (topic_names.MIXED, topic_names.UNTITLED):
        out.setdefault(today.lower(), Candidate(today, "today"))
    # the best one-word runs widened to every noun phrase around them (brief_heading's shapes)
    ones = [r for r in ranked if len(_WORD.findall(r)) == 1][:MAX_WIDEN]
    for word in ones:
        key = fold(word)
        seen: set[str] = set()
        for t in texts:
            if word.lower()[:-1] not in t.lower():
                continue
            for ln in t.split("\n"):
                body = brief_heading._LABEL.sub("", ln, count=1).strip()
                if not body or body in seen:
                    continue
                seen.add(body)
                for phrase in brief_heading._phrases(body, key, stop, exclude):
                    out.setdefault(phrase.lower(), Candidate(phrase, "phrase"))
    if DECIDED if decided is None else decided:
        stored = [t for t in (more() if more is not None else []) if "\n" in t.strip()]
        for phrase in topic_decided.candidates(list(dict.fromkeys(list(texts) + stored)), stop, exclude):
            out.setdefault(phrase.lower(), Candidate(phrase, "decided"))
    folded = [_tokens(t) for t in texts]
    sets = [set(f) for f in folded]

    def content(w: str) -> bool:
        return len(w) >= 3 and w not in stop and not weak(w) and w not in exclude

    central = _central(sets, content)
    lowered = [t.lower() for t in texts]
    top = ranked[0].lower() if ranked else ""
    ruled = (today or "").lower()
    nonempty = [c for c in out.values() if _tokens(c.text)]
    for c in nonempty:
        c.x = _features(c, folded, lowered, texts, central, rank, top, judge, stop, exclude, rarity, store_df,
                        n_store, saying or {})
        c.x += [float(c.text.lower() == ruled), float(any(len(w) >= 2 and w.isupper() for w in _WORD.findall(c.text)))]
    # a run always said inside a longer one ("Casa" of "Casa Lola", "Flat" of "Flat 3B"); said after a number ("500
    # euros", "2 Uhr"); a unit
    keys = [(tuple(_tokens(c.text)), c.x[1]) for c in nonempty]
    for c, (k, held) in zip(nonempty, keys):
        inside = any(len(o) > len(k) and h >= held and any(o[i: i + len(k)] == k for i in range(len(o) - len(k) + 1))
                     for o, h in keys)
        c.x += [float(inside), _after_number(c.text, texts), float(any(topic_shape.unit(w.lower())
                                                                       for w in _WORD.findall(c.text))),
                 float(c.source == "decided")]
    return nonempty


_NUMBER_BEFORE = r"\d[\d.,]*\s*"


def _after_number(text: str, texts: Sequence[str]) -> float:
    """The share of the places ``text`` is said right after a number."""
    rx = re.compile(r"(?<![\w])(" + _NUMBER_BEFORE + r")?" + re.escape(text) + r"(?![\w])", re.IGNORECASE)
    n = after = 0
    for t in texts:
        for m in rx.finditer(t):
            n += 1
            after += m.group(1) is not None
    return after / n if n else 0.0


def _features(c: Candidate, folded: Sequence[list[str]], lowered: Sequence[str], texts: Sequence[str], central: int,
              rank: Mapping[str, int], top: str, judge: _SubjectJudge, stop: frozenset[str], exclude: set[str],
              rarity: Callable[[tuple[str, ...]], float], store_df: Mapping[str, int], n_store: int,
              saying: Mapping[str, int]) -> list[float]:
    key = _tokens(c.text)
    n = len(folded)
    where = [i for i, f in enumerate(folded) if _holds(f, key) >= 0]
    held = len(where)
    words = _WORD.findall(c.text)
    content_keys = [k for k, w in zip(key, words) if w.lower() not in stop] or key
    store_share = min(store_df.get(k, 0) for k in content_keys) / max(1, n_store)
    held_share = held / max(1, n)
    lift = math.log((held_share + 0.01) / (store_share + 0.01))
    caps = [w[:1].isupper() for w in words]
    low = c.text.lower()
    cap_inside = 0.0
    for t in texts:  # written capitalised where no sentence starts: a name
        at = t.find(c.text)
        if at > 0 and c.text[:1].isupper() and not _SENT_START.search(t[:at]):
            cap_inside = 1.0
            break
    spread = (where[-1] - where[0]) / max(1, n - 1) if held >= 2 else 0.0
    wk = sum(1 for w in words if weak(w)) / max(1, len(words))
    edge = float(words[0].lower() in stop or words[-1].lower() in stop)
    try:
        subject = float(judge.subject(c.text))
    except Exception:  # noqa: BLE001 (a judge's miss on an odd phrase reads as no subject)
        subject = 0.0
    piece = float(topic_names.is_piece(c.text, texts, exclude)) if held >= 2 else 0.0
    others = max((saying.get(k, 0) for k in content_keys), default=0)
    return [held_share, math.log1p(held), float(held <= 1), store_share, lift,
            rarity(tuple(content_keys)), float(len(words)), float(len(words) == 1),
            float(all(caps)), cap_inside, float(central in where), float(0 in where), wk, len(c.text) / 10.0,
            1.0 / (1 + rank[low]) if low in rank else 0.0, float(low == top), subject, piece,
            float(c.source == "phrase"), float(any(ch.isdigit() for ch in c.text)), spread,
            float("'s" in low or "’s" in low), math.log1p(others), edge]


# (brief39) fitted by bench/brief_headrank39.py on headings a person wrote (the ``.heads`` labels of held-outs 23-30
# and the lead's chats 21-23; held-out 31 left out), candidates with the deciding lines' phrases (DECIDED): a
# conditional logit over each topic's candidates, lam 0.3; standardised inputs: (x - MEAN) / SCALE
# (`python bench/brief_headrank39.py --dumps DUMPS --lam 0.3 --margin 2 --fit-all`). brief38's weights, fitted on the
# ``.expect`` keyword lists, learnt keywords (bench/README.md, round brief38) and are replaced.
WEIGHTS: tuple[float, ...] = (
    -0.0297, -0.0442, 0.1469, 0.1661, -0.1769, -0.2069, 0.1538, -0.362, 0.0771, -0.0508, -0.0928, 0.3053, 0.0103,
    0.3079, 0.0657, 0.0322, 0.2314, 0.0053, 0.0379, 0.0926, 0.0164, 0.0889, 0.2598, -0.0375, 0.1322, -0.05, -0.4647,
    -0.1137, -0.1146, 0.0438)
MEAN: tuple[float, ...] = (
    0.3021, 1.047, 0.2514, 0.0526, 1.5504, 3.7421, 1.559, 0.6824, 0.1719, 0.1392, 0.514, 0.2752, 0.0154, 0.9213,
    0.1206, 0.0507, 0.6197, 0.0222, 0.0442, 0.028, 0.5008, 0.0123, 0.6798, 0.0008, 0.0502, 0.0081, 0.4162, 0.0268,
    0.0063, 0.0623)
SCALE: tuple[float, ...] = (
    0.1818, 0.2614, 0.4338, 0.0339, 0.602, 0.4455, 1.0422, 0.4655, 0.3773, 0.3461, 0.4998, 0.4466, 0.0766, 0.6222,
    0.244, 0.2195, 0.4855, 0.1474, 0.2056, 0.1649, 0.3577, 0.1102, 0.3706, 0.028, 0.2184, 0.0897, 0.4929, 0.1581,
    0.079, 0.2416)
MARGIN = 2.0  # the rules' heading stays unless the best candidate scores this much above it (leave-one-set-out over
# the labelled sets, lam x margin grid: 2 with lam 0.3 gains on the new judge and loses no set more than one line of
# the old; 1 gains more and loses up to 2 lines in six sets)


def best(cands: Sequence[Candidate], taken: set[str] | None = None,
         weights: Sequence[float] = WEIGHTS, mean: Sequence[float] = MEAN, scale: Sequence[float] = SCALE,
         today: str | None = None, margin: float = 0.0) -> str | None:
    """The candidate of the highest score not in ``taken`` (lower-cased names given), or None; ``today``: the rules'
    heading, kept unless the best scores more than ``margin`` above it."""
    if not weights or not cands:
        return None
    scored = sorted(((sum(w * (v - m) / s for w, v, m, s in zip(weights, c.x, mean, scale)), c.text)
                     for c in cands), key=lambda p: (-p[0], p[1]))
    own = next((sc for sc, text in scored if today is not None and text.lower() == today.lower()), None)
    for sc, text in scored:
        if taken is None or text.lower() not in taken:
            if own is not None and today is not None and sc - own <= margin and (taken is None or today.lower() not in taken):
                return today
            return text
    return None


def chosen(name: str, texts: Sequence[str], stop: frozenset[str], exclude: set[str],
           rarity: Callable[[tuple[str, ...]], float], store_df: Mapping[str, int], n_store: int,
           saying: Mapping[str, int], taken: set[str], more: Callable[[], Sequence[str]] | None = None) -> str:
    """(RANKED) The heading the ranker picks for a topic the rules named ``name``, or ``name`` (switch off, no
    candidate, or none beating it by :data:`MARGIN`)."""
    if not RANKED or not WEIGHTS:
        return name
    cands = candidates(texts, stop, exclude, rarity, store_df, n_store, saying, name, more=more)
    got = best(cands, taken, today=name if name not in (topic_names.MIXED, topic_names.UNTITLED) else None,
               margin=MARGIN)
    return got or name
