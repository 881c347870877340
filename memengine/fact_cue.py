"""A second chance for updates the frame rules miss: a sentence that *says* its value changed.

memengine/facts.py's ``compare`` aligns two frames word by word: precise, but people rarely
restate a fact in the old sentence's words when it changes ("New gym fee: 42 euros", "Mr.
Alvarez raised the rent to 1290 dollars", "Tom left Deloitte and joined KPMG", "Jonas started
eating eggs again, so he's vegetarian now"). :func:`detect` is asked only when ``compare``
found nothing, and supersedes ``old`` by ``new`` when all four hold:

1. **a change is stated** in ``new``: a closed-class cue (now / no longer / instead / after
   all / again, "New X:", a change verb or noun: changed, switched, raised, pushed back, took
   over, left, swap, Umzug ..., five languages: memengine/fact_cue_lexicon.py);
2. **the same slot**: the embedding cosine is at least :data:`MIN_COSINE`, the two share an
   anchor (a content word by its stem, or a name), and nothing says the fact is someone
   else's (a kinship word or a possessor on one side only: "my sister", "Tom's wife", "Mia's"),
   nor that ``new`` merely speaks of ``old``'s value ("Dr. Okafor's clinic now opens at 8":
   a name ``old`` holds as its value may reappear in ``new`` only as what is left behind —
   "left Deloitte", "traded the Skoda for", "from Priya");
3. **a new value**: ``new`` holds a value of the kind ``old`` holds (number, time, date, code,
   phone ...) that differs, or — when ``old`` holds no such value — a word or name ``old`` lacks;
   or ``new`` denies ``old`` with every word of it ("not allergic to shellfish after all");
4. **nothing added**: no "also", "too", "another", aussi, también, auch, também ...

It is conservative on purpose (a false supersession hides a true fact; a miss only leaves
two current facts). Pure: no SQL, no model, no I/O; the cosine is the caller's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memengine import fact_cue_lexicon as C
from memengine import fact_lexicon as L
from memengine import facts
from memengine.fact_lexicon import DETERMINERS, NEGATIONS, STOPWORDS, fold
from memengine.fact_tokens import MAX_CHARS, guess_lang

__all__ = ["MIN_COSINE", "Cue", "detect", "find_cue"]

# The least cosine (int8 MiniLM) at which two sentences may be about one slot. The cue, the
# anchors and the value decide; the cosine only keeps unrelated sentences out (dev set: updates
# 0.39-0.92, look-alikes 0.35-0.91, so it cannot decide alone).
MIN_COSINE = 0.45
# Token distance within which a departure word governs the old value ("stopped training with Helen").
DEPARTURE_REACH = 3
# Two sentences that each name the shared thing with a word of their own ("the guest wifi
# password" / "the wifi password at the office", "the sprint review" / "the sprint planning")
# are one slot only at this cosine or more ("gym membership" / "gym fee": 0.84).
MIXED_COSINE = 0.75
MODIFIER_REACH = 2  # words: "the sprint | review", "the garage door | code"
# Token distance within which a motion verb needs its destination ("moved the standup to").
MOTION_REACH = 6
# Two words are one stem when they share this many leading letters and 75 % of the shorter.
MIN_PREFIX = 4
PREFIX_SHARE = 0.75

_TOKEN_RE = re.compile(r"\d+(?:[.,:h]\d+)*|[^\W\d_]+|[,;:!?()]")
_POSSESSIVE_RE = re.compile(r"([^\W\d_][\w-]*)['’]s\b")
_BREAKS = frozenset(",;:!?()")
_NOT_CONTENT = STOPWORDS | C.GENERIC | C.TITLES | NEGATIONS | C.NEW_WORDS | C.ADDITIVE | C.COPULAS | C.DEPARTURE \
    | C.TRADE_PREPOSITIONS | C.DESTINATIONS | C.REQUEST | frozenset(
    w for p in C.NOW_PHRASES for w in p.split()).union(*L.LANG_COPULA.values(), *L.LANG_AUX.values(), L.WEEKDAYS,
                                                       L.MONTHS, L.SHORT_WEEKDAYS, ("feira",))
# Capitalised words that never name anyone at the start of a sentence.
_NOT_NAME = STOPWORDS | C.GENERIC | C.TITLES | NEGATIONS | C.NEW_WORDS | C.ADDITIVE | C.COPULAS | frozenset(
    w for p in C.NOW_PHRASES for w in p.split())
_VALUE_GROUPS = {"date": "date", "weekday": "date", "time": "time", "number": "number", "code": "ident",
                 "phone": "ident", "email": "ident", "url": "ident"}
_SON_OWNERS = frozenset(fold(w) for w in "my our your his her their a the".split())


@dataclass(frozen=True)
class _Tok:
    text: str
    key: str  # folded, lower-case
    cap: bool
    word: bool


@dataclass(frozen=True)
class Cue:
    """The change a sentence states: ``kind`` ("now", "new", "verb", "noun", "habit") and the words."""

    kind: str
    words: str


def _tokens(text: str) -> list[_Tok]:
    out = []
    for m in _TOKEN_RE.finditer(text[:MAX_CHARS]):
        t = m.group(0)
        out.append(_Tok(t, fold(t), t[:1].isupper(), t[:1].isalpha()))
    return out


def _phrase_at(keys: list[str], phrases: tuple[str, ...]) -> str | None:
    joined = " " + " ".join(keys) + " "
    return next((p for p in phrases if " " + p + " " in joined), None)


def _discontinuous(keys: list[str]) -> str | None:
    """"ne ... plus", "kein ... mehr", "não ... mais", "not ... anymore": a negation ended."""
    for first, last in (({"ne", "n"}, "plus"), ({"kein", "keine", "keinen", "keinem", "nicht"}, "mehr"),
                        ({"nao"}, "mais")):
        i = next((i for i, k in enumerate(keys) if k in first), None)
        if i is not None and last in keys[i + 1:]:
            return f"{keys[i]} ... {last}"
    return None


def _verb_cue(toks: list[_Tok], lang: str) -> Cue | None:
    """A change verb ("raised", "switched"), a motion verb with a destination ("pushed back to",
    "passés chez"), a holder verb ("joined", "took over"), a leaving verb with the name it leaves
    ("left Deloitte") or a habit verb with a verb after it ("started eating", "a recommencé à
    manger", "volvió a comer")."""
    for i, t in enumerate(toks):
        k = t.key
        if not t.word:
            continue
        if k in C.CHANGE_VERBS:
            return Cue("verb", t.text)
        if k in C.MOTION_VERBS and _destination_follows(toks, i, lang):
            return Cue("verb", t.text)
        if k in C.HOLDER_VERBS:
            if k in ("took", "taken"):
                if "over" in [x.key for x in toks[i + 1:i + 5]]:
                    return Cue("verb", t.text + " over")
                continue
            return Cue("verb", t.text)
        if k in C.LEAVE_VERBS and any(x.cap and x.word for x in toks[i + 1:i + 4]) \
                or k in C.LEAVE_VERBS_LAST and any(x.cap and x.word for x in toks[max(1, i - 3):i]):
            return Cue("verb", t.text)
        if k in C.HABIT_VERBS and _habit_follows(toks, i):
            return Cue("habit", t.text)
    return None


def _habit_follows(toks: list[_Tok], i: int) -> bool:
    """A verb after a habit verb: "started eating", "started to eat", "a recommencé à manger",
    "volvió a comer", German "aufgehört zu rauchen" / "mit dem Rauchen"."""
    k = toks[i].key
    if k in ("angefangen", "begonnen", "aufgehort"):
        return any(t.key in C.GERMAN_HABIT_LINKS for t in toks)
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or not nxt.word:
        return False
    if nxt.key.endswith("ing") and len(nxt.key) > 4:
        return True
    after = toks[i + 2] if i + 2 < len(toks) else None
    if nxt.key in C.HABIT_LINKS and after is not None and after.word and after.key not in STOPWORDS:
        return nxt.key == "to" or after.key.endswith(C.ROMANCE_INFINITIVE)
    return False


def _destination_follows(toks: list[_Tok], i: int, lang: str) -> bool:
    """A destination within the clause after a motion verb: "pushed Leo's bedtime back to"."""
    dest = C.DESTINATIONS_BY_LANG.get(lang, C.DESTINATIONS)
    for t in toks[i + 1:i + 1 + MOTION_REACH]:
        if not t.word and t.text in _BREAKS:
            return False
        if t.key in dest:
            return True
    return False


def find_cue(text: str) -> Cue | None:
    """The change ``text`` states, or None; None too when it also states an addition ("also")."""
    toks = _tokens(text)
    keys = [t.key for t in toks if t.word]
    if any(k in C.ADDITIVE for k in keys) or _phrase_at(keys, C.ADDITIVE_PHRASES):
        return None
    return _cue(toks, keys, set(), guess_lang(text))


def _cue(toks: list[_Tok], keys: list[str], old: set[str], lang: str) -> Cue | None:
    """The first cue of ``keys`` whose words are not all in ``old`` (the old fact's words: "joined"
    in both "joined in January" and "joined on January 15" tells no change)."""
    cue = _first_cue(toks, keys, lang)
    if cue is None or not all(fold(w) in old for w in cue.words.split() if w != "..."):
        return cue
    rest = [t for t in toks if t.key not in old]
    return _first_cue(rest, [t.key for t in rest if t.word], lang)


def _first_cue(toks: list[_Tok], keys: list[str], lang: str) -> Cue | None:
    p = _phrase_at(keys, C.NOW_PHRASES) or _discontinuous(keys)
    if p is not None:
        return Cue("now", p)
    for i, t in enumerate(toks):  # "New gym fee: 42", "the new one is", "Neuer Türcode:"
        if t.word and t.key in C.NEW_WORDS and any(
                not x.word and x.text == ":" or x.key in C.COPULAS for x in toks[i + 1:i + 7]):
            return Cue("new", t.text)
    if any(k in C.CHANGE_NOUNS or len(k) > 8 and k.endswith(C.CHANGE_NOUN_SUFFIXES) for k in keys):
        return Cue("noun", next(k for k in keys if k in C.CHANGE_NOUNS or k.endswith(C.CHANGE_NOUN_SUFFIXES)))
    return _verb_cue(toks, lang)


# --------------------------------------------------------------------------- who, which slot

def _kin(toks: list[_Tok]) -> set[str]:
    out = set()
    for i, t in enumerate(toks):
        group = C.KIN.get(t.key) if t.word else None
        if group is None:
            continue
        if t.key in ("son", "sons") and (i == 0 or toks[i - 1].key not in _SON_OWNERS):
            continue  # French "son" is "his / her"
        out.add(group)
    return out


def _possessors(text: str, toks: list[_Tok]) -> set[str]:
    """Names that own the fact: "Mia's bedtime", "la hermana de Marta", "le loyer de Sam"."""
    out = {fold(m.group(1)) for m in _POSSESSIVE_RE.finditer(text) if m.group(1)[:1].isupper()}
    for i in range(1, len(toks) - 1):
        t, prev, nxt = toks[i], toks[i - 1], toks[i + 1]
        if t.key in C.POSSESSOR_PREPOSITIONS and prev.word and not prev.cap and nxt.cap and nxt.word \
                and nxt.key not in C.TITLES and nxt.key not in STOPWORDS:
            out.add(nxt.key)
    return out


def _content(toks: list[_Tok]) -> list[str]:
    return [t.key for t in toks if t.word and (len(t.key) >= 3 or t.text.isupper() and len(t.key) == 2)
            and t.key not in _NOT_CONTENT
            and t.key not in C.KIN and t.key not in _VERBS]


def _same_stem(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= MIN_PREFIX and long_.startswith(short):
        return True  # "code" / "codes", "Kurs" / "Kurspreis"
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= MIN_PREFIX + 1 and n >= PREFIX_SHARE * len(short)


def _is_name(toks: list[_Tok], i: int, lang: str) -> bool:
    """A capitalised word that names someone or something: not the sentence's first word (see
    :func:`_initial_name`), not a title or function word, and in German (where every noun is
    capitalised) not right after an article or possessive."""
    t = toks[i]
    if not t.word or not t.cap or i == 0 or t.key in C.TITLES or t.key in STOPWORDS or t.key in _VERBS \
            or t.key in C.GENERIC or t.key in L.MONTHS or t.key in L.WEEKDAYS:
        return False
    if lang == "de" and toks[i - 1].key in _DE_BEFORE_NOUN:  # "den Golf": a noun, unless a name
        return i + 1 < len(toks) and toks[i + 1].cap and toks[i + 1].word  # follows ("einen Opel Corsa")
    return True


_DE_BEFORE_NOUN = DETERMINERS | frozenset(
    "unser unsere unseren unserem dein deine sein seine ihr ihre im am zum zur vom beim ins kein keine keinen "
    "jeder jede jedes diese dieser dieses neue neuer neues neuen".split())


def _departing(toks: list[_Tok], j: int, trade: bool) -> bool:
    """Whether the token ``j`` (a name of the old value) is what ``new`` leaves behind: right
    after "left" / "from" / "traded" ("stopped training with Helen"), unless a destination
    comes first ("from Trello to Jira"), or right before a verb that leaves it (German
    "Siemens verlassen") or a trade's "for" ("the Skoda for a Mazda")."""
    for d in range(1, DEPARTURE_REACH + 1):
        i = j - d
        if i < 0 or not toks[i].word and toks[i].text in _BREAKS or toks[i].key in C.DESTINATIONS:
            break
        if toks[i].key in C.DEPARTURE:
            return True
    for d in range(1, 3):
        i = j + d
        if i >= len(toks) or not toks[i].word and toks[i].text in _BREAKS:
            break
        if toks[i].key in C.DEPARTURE and toks[i].key not in ("from", "plus", "mais", "mehr") \
                or trade and toks[i].key in C.TRADE_PREPOSITIONS:
            return True
    return False


_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)?")


def _value_groups(values: list[facts.Value]) -> dict[str, set[tuple[object, ...]]]:
    """Values by group; a number as (unit without its rate, the number as written): "35 euros a
    month" and "35 euros" are one value, "42 euros" another."""
    out: dict[str, set[tuple[object, ...]]] = {}
    for v in values:
        group = _VALUE_GROUPS.get(v.kind)
        norm = v.norm
        if v.kind == "number":
            unit = str(norm[0]).split("/")[0]
            if unit == "ordinal":
                group = "date"  # "on the 25th"
            m = _NUMBER_RE.search(v.text)
            norm = (unit, m.group(0).replace(",", ".") if m else v.text)
        if group is not None:
            out.setdefault(group, set()).add(norm)
    return out


def _dates_agree(x: tuple[object, ...], y: tuple[object, ...]) -> bool:
    """"January" / "January 15", "2019" / "March 2019": one date said more or less precisely."""
    if len(x) != 3 or len(y) != 3:
        return x == y
    return all(u is None or v is None or u == v for u, v in zip(x, y))


def _new_value(a: _Side, b: _Side) -> str | None:
    """What ``b`` holds in ``a``'s slot that ``a`` does not, as "was -> now" (None: nothing); a value
    standing in ``b``'s subject names a thing and does not count ("the Tuesday yoga class")."""
    fa, fb = a.fact, b.fact
    va = _value_groups(fa.values)
    vb = _value_groups([v for v in fb.values if b.boundary >= len(b.toks) or _tok_index(b.toks, v.text) >= b.boundary])
    for group in ("number", "time", "date", "ident"):
        if group not in va or group not in vb:
            continue
        if group == "date":
            fresh = {y for y in vb[group] if not any(_dates_agree(x, y) for x in va[group])}
        else:
            fresh = vb[group] - va[group]
        if group == "number":  # a number compares within its unit ("42 euros" vs "35 euros")
            units = {n[0] for n in va[group]}
            fresh = {n for n in fresh if n[0] in units}
        if fresh:
            was = next((v.text for v in fa.values if _VALUE_GROUPS.get(v.kind) in (group, "number")), "?")
            now = next((v.text for v in fb.values if v.norm in fresh or _NUMBER_RE.search(v.text)
                        and any(_NUMBER_RE.search(v.text).group(0).replace(",", ".") == n[1]  # type: ignore[union-attr]
                                for n in fresh if len(n) == 2)), "?")
            return f"{was} -> {now}"
    return None


# --------------------------------------------------------------------------- the decision

@dataclass
class _Side:
    """One sentence as :func:`detect` reads it."""

    text: str
    fact: facts.Fact
    toks: list[_Tok]
    keys: set[str]
    content: list[str]
    boundary: int  # token index where the subject ends
    names: set[str]  # capitalised names (folded), initial name included
    subject_names: set[str]  # those before the boundary
    kin: set[str]
    possessors: set[str]


def _side(text: str, fact: facts.Fact | None, toks: list[_Tok] | None = None) -> _Side:
    toks = toks if toks is not None else _tokens(text)
    f = fact if fact is not None else facts.analyse(text)
    boundary = len(toks)
    if f.subject_end < len(f.words):
        first = fold(f.words[f.subject_end].text.split()[0])
        boundary = next((i for i, t in enumerate(toks) if t.key == first), len(toks))
    verbs = L.LANG_COPULA.get(f.lang, frozenset()) | L.LANG_AUX.get(f.lang, frozenset())
    boundary = min(boundary, next((i for i, t in enumerate(toks) if t.word and (
        t.key in verbs and (t.key != "e" or t.text == "é") or t.key in _VERBS)), len(toks)))
    names = {t.key for i, t in enumerate(toks) if _is_name(toks, i, f.lang)}
    subject_names = {toks[i].key for i in range(min(boundary, len(toks))) if _is_name(toks, i, f.lang)}
    first_name = _initial_name(toks, f)
    if first_name:
        names.add(first_name)
        subject_names.add(first_name)
    return _Side(text, f, toks, {t.key for t in toks if t.word}, _content(toks), boundary, names,
                 subject_names, _kin(toks), _possessors(text, toks))


def detect(old: str | facts.Fact, new: str | facts.Fact, similarity: float | None) -> facts.Verdict | None:
    """Whether ``new`` states a change of ``old``'s value (see the module docstring): a
    :class:`memengine.facts.Verdict` of kind "cue", or None. ``similarity`` is the embedding
    cosine of the two; None (unknown) never supersedes."""
    if similarity is None or similarity < MIN_COSINE:
        return None
    new_text = new.text if isinstance(new, facts.Fact) else new
    old_text = old.text if isinstance(old, facts.Fact) else old
    tb = _tokens(new_text)
    keys_b = [t.key for t in tb if t.word]
    if any(k in C.ADDITIVE for k in keys_b) or _phrase_at(keys_b, C.ADDITIVE_PHRASES):
        return None  # "also", "another": a second value, not a new one
    ta = _tokens(old_text)
    fb0 = new if isinstance(new, facts.Fact) else None
    cue = _cue(tb, keys_b, {t.key for t in ta if t.word}, fb0.lang if fb0 is not None else guess_lang(new_text))
    if cue is None:
        return None
    a = _side(old_text, old if isinstance(old, facts.Fact) else None, ta)
    b = _side(new_text, fb0, tb)
    if any(k in C.REQUEST for k in a.keys | b.keys) or _phrase_at([t.key for t in ta if t.word], C.REQUEST_PHRASES) \
            or _phrase_at(keys_b, C.REQUEST_PHRASES):
        return None  # "Please confirm for the dinner on the 12th": a request, not a fact
    why_not = _not_same_slot(a, b, cue, similarity)
    if why_not is not None:
        return None
    anchors = [x for x in a.content if any(_same_stem(x, y) for y in b.content)] + sorted(a.kin)
    if not anchors and _phrase_at(keys_b, C.INSTEAD_PHRASES):  # "I take the bus instead"
        anchors = sorted(a.keys & b.keys & C.GENERIC - STOPWORDS)
    if not anchors or not _slot_shared(a, b, anchors):
        return None
    conf = round(0.6 + 0.2 * min(1.0, max(0.0, (similarity - MIN_COSINE) / (1 - MIN_COSINE))), 3)
    topic = " ".join(dict.fromkeys(anchors[:3]))
    if _negated(a.fact) != _negated(b.fact):
        # a denial of the whole old fact ("not allergic to shellfish after all", "isst wieder Fleisch")
        if all(any(_same_stem(x, y) for y in b.content) for x in a.content):
            return facts.Verdict("cue", f"'{cue.words}': '{topic}' no longer holds as stated", conf)
        return None
    if not _old_value_left(a, b):
        return None  # "Dr. Okafor's clinic now opens at 8": about the old value, not a new one
    if _value_groups(a.fact.values):
        what = _new_value(a, b)
        if what is None:
            return None  # the old fact's number / time / code is not replaced
        return facts.Verdict("cue", f"'{cue.words}': new value for '{topic}': {what}", conf)
    fresh = _fresh_value(a, b, cue, keys_b)
    if fresh is None:
        return None
    if all(x in a.names - a.subject_names for x in anchors) and any(
            x not in anchors and x not in fresh.split() and not any(_same_stem(x, y) for y in a.content)
            for x in b.content if x not in b.names):
        return None  # only the old holder is shared and more is said: "Marco took over the billing
        # team from Priya" is not about "the on-call engineer is Priya"
    return facts.Verdict("cue", f"'{cue.words}': '{topic}' is now {fresh}", conf)


def _not_same_slot(a: _Side, b: _Side, cue: Cue, similarity: float) -> str | None:
    """Why the two are not about one slot of one owner, or None."""
    if a.kin != b.kin:
        return "kin"  # "my sister", "Tom's wife": someone else's fact
    if a.possessors - b.keys or b.possessors - a.keys:
        return "possessor"  # "Mia's bedtime" / "Leo's bedtime"
    if a.subject_names and not a.subject_names & b.keys:
        return "subject"  # "Claire prefers coffee" / "Paul replaced coffee with tea"
    first_b = _initial_name(b.toks, b.fact)
    if b.possessors and first_b and first_b not in a.keys:
        return "agent"  # "Ingrid joined Tomás's team": Tomás is still the lead
    if _other_thing(a, b) and similarity < MIXED_COSINE:
        return "thing"  # "the sprint review" / "the sprint planning"
    if cue.kind == "new":  # "New X: value" / "the new one is": X is the old fact's thing
        i = next(i for i, t in enumerate(b.toks) if t.text == cue.words)
        what = []
        for t in b.toks[i + 1:]:
            if not t.word and t.text == ":" or t.key in C.COPULAS:
                break
            if t.word and t.key not in _NOT_CONTENT:
                what.append(t.key)
        if what and not any(_same_stem(w, x) for w in what for x in a.content):
            return "new-what"
    if _typed_in_subject(a):
        return "identifier"  # "The 7:15 tram is usually packed": a detail of the 7:15 tram
    return None


def _tok_index(toks: list[_Tok], text: str) -> int:
    m = _TOKEN_RE.search(text)
    key = fold(m.group(0)) if m else ""
    return next((i for i, t in enumerate(toks) if t.key == key or key and t.key.startswith(key)), len(toks))


def _typed_in_subject(side: _Side) -> bool:
    """The old fact's number / time / date stands only in its subject: it names the thing."""
    typed = [v for v in side.fact.values if _VALUE_GROUPS.get(v.kind)]
    return bool(typed) and side.boundary < len(side.toks) and all(
        _tok_index(side.toks, v.text) < side.boundary for v in typed)


_VERBS = C.CHANGE_VERBS | C.HOLDER_VERBS | C.HABIT_VERBS | C.MOTION_VERBS | C.LEAVE_VERBS
_PRONOUN_COPULA = {"s": frozenset({"he", "she", "it", "that", "what", "who"}), "m": frozenset({"i"}),
                   "re": frozenset({"we", "you", "they"})}


def _negated(f: facts.Fact) -> int:
    """Polarity from negation words only ("stopped" / "quit" are change verbs here, not negations)."""
    return sum(fold(n) in NEGATIONS or fold(n) in ("pas", "plus", "jamais") for n in f.negations) % 2


def _initial_name(toks: list[_Tok], f: facts.Fact) -> str:
    """The first word when it names a person: capitalised, read as a name, not a verb (a
    sentence-initial verb is followed by an article: "Traded the Skoda", "Tengo un Seat")."""
    if not toks or not toks[0].word or not toks[0].cap or toks[0].key in _VERBS or toks[0].key in C.TITLES \
            or toks[0].key in STOPWORDS or toks[0].key in _NOT_NAME:
        return ""
    if len(toks) > 1 and toks[1].key in DETERMINERS and not (f.lang == "fr" and toks[1].key == "a"):
        return ""
    if f.lang == "de" and len(toks) > 1 and toks[1].key in DETERMINERS:
        return ""
    return toks[0].key


def _other_thing(a: _Side, b: _Side) -> bool:
    """Each sentence has a word of its own next to a shared one: "the sprint review" / "the
    sprint planning", "the garage door code" / "the storage locker code" (a word far from the
    shared ones, "the landlord raised the rent", is an agent, not another thing)."""
    ka, kb = [t.key for t in a.toks if t.word], [t.key for t in b.toks if t.word]
    va, vb = _value_words(a), _value_words(b)
    mine_a = [k for k in ka if k in a.content and k not in a.names and k not in va]
    mine_b = [k for k in kb if k in b.content and k not in b.names and k not in vb]
    return bool(_modifiers(mine_a, ka, kb, a.names | b.names)) and bool(_modifiers(mine_b, kb, ka, a.names | b.names))


def _value_words(side: _Side) -> set[str]:
    """The words inside the sentence's values ("gato" of "gato123")."""
    return {fold(m.group(0)) for v in side.fact.values for m in _TOKEN_RE.finditer(v.text)}


def _modifiers(subject: list[str], own: list[str], other: list[str], names: set[str]) -> list[str]:
    """Words of ``subject`` absent from ``other`` that stand within two words of a shared word
    (a shared thing, not a shared name: "Jonas is vegan" / "Jonas started eating eggs")."""
    shared = [i for i, k in enumerate(own) if any(_same_stem(k, o) for o in other) and k not in _NOT_CONTENT
              and k not in names]
    out = []
    for w in subject:
        if any(_same_stem(w, o) for o in other) or w not in own:
            continue
        i = own.index(w)
        if any(0 < abs(i - j) <= MODIFIER_REACH for j in shared):
            out.append(w)
    return out


def _slot_shared(a: _Side, b: _Side, anchors: list[str]) -> bool:
    """Beyond the person a fact is about (its subject's names, possessors, kinship words), the
    two share the slot: another anchor, or both state what the person *is* (a copula on each
    side: "Jonas is vegan" / "so he's vegetarian now")."""
    person = a.subject_names | a.possessors | a.kin
    if any(x not in person for x in anchors):
        return True
    return _has_copula(a.toks) and _has_copula(b.toks)


def _has_copula(toks: list[_Tok]) -> bool:
    for i, t in enumerate(toks):
        if t.key in C.COPULAS or i > 0 and toks[i - 1].key in _PRONOUN_COPULA.get(t.key, ()):
            return True
    return False


def _old_value_left(a: _Side, b: _Side) -> bool:
    """Whether ``new``, when it repeats names the old fact holds as its value, leaves one of them
    behind ("left Deloitte", the office in Leeds staying as it was): repeating them all as they
    were is speaking of the old value, not replacing it ("Dr. Okafor's clinic now opens at 8")."""
    names = a.names - a.subject_names
    trade = any(t.key in C.TRADE_VERBS for t in b.toks)
    repeated = [j for j, t in enumerate(b.toks) if t.word and t.key in names]
    return not repeated or any(_departing(b.toks, j, trade) for j in repeated)


def _fresh_value(a: _Side, b: _Side, cue: Cue, keys_b: list[str]) -> str | None:
    """The new value when the old fact holds no number, time or code: a name the old one lacks
    ("joined KPMG", "is now at the Voltaire school"), or any new word when the new sentence says
    what someone now *is* ("so he's vegetarian now") or what it does *instead*. Never when either
    side is a negation ("no longer allergic to shellfish" is not a new allergy) or the old fact
    reports a change itself ("started a vegan cooking blog" is an event, not a value)."""
    if _negated(a.fact) or _negated(b.fact) or _cue(a.toks, [t.key for t in a.toks if t.word], set(),
                                                    a.fact.lang) is not None:
        return None
    new_words = [x for x in b.content if not any(_same_stem(x, y) for y in a.content)]
    names = [n for n in sorted(b.names - a.keys) if n not in b.possessors and n not in C.KIN
             and not any(_same_stem(n, y) for y in a.content)]
    # a name in the subject is the new holder ("Marco took over the team", "Ingrid replaced Tomás")
    # only for a verb of holding; elsewhere it is who made the change ("Paul replaced coffee with tea")
    holder = cue.kind == "verb" and (fold(cue.words.split()[0]) in C.HOLDER_VERBS or fold(
        cue.words) in C.TRADE_VERBS and not any(t.key in C.TRADE_PREPOSITIONS for t in b.toks))
    names = [n for n in names if n not in b.subject_names or holder]
    if names:
        return " ".join(names[:3])
    if new_words and (cue.kind in ("now", "habit") and _has_copula(a.toks) and _has_copula(b.toks)
                      or _phrase_at(keys_b, C.INSTEAD_PHRASES)):
        return " ".join(new_words[:3])
    return None
