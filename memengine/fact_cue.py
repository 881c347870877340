"""A second chance for updates the frame rules miss: a sentence that *says* its value changed.

memengine/facts.py's ``compare`` aligns two frames word by word: precise, but people rarely
restate a fact in the old sentence's words when it changes ("New gym fee: 42 euros", "Mr.
Alvarez raised the rent to 1290 dollars", "Tom left Deloitte and joined KPMG", "Jonas started
eating eggs again, so he's vegetarian now"). :func:`detect` is asked only when ``compare``
found nothing, and supersedes ``old`` by ``new`` when all four hold:

1. **a change is stated** in ``new``: a closed-class cue (now / no longer / instead / after
   all / again, "New X:", a change verb or noun: changed, switched, raised, pushed back, took
   over, left, swap, Umzug ..., five languages: memengine/fact_cue_lexicon.py);
2. **the same slot of the same owner**: the embedding cosine is at least :data:`MIN_COSINE`, the
   two share an anchor (a content word by its stem, a name, a kinship word; a diet or "lives" /
   "moved" counts as one), nothing says the fact is someone else's (a kinship word or a possessor
   on one side only: "my sister", "Tom's wife", "Mia's"), nor that it is another thing of the same
   kind (each side's noun phrase of the shared word has a word or value of its own: "the front" /
   "the back door code", "the Monday" / "the Tuesday class") or another boundary of the same
   thing (opens / closes, departs / lands), nor that ``new`` merely speaks of ``old``'s value
   ("Dr. Okafor's clinic now opens at 8": a name ``old`` holds as its value may reappear in
   ``new`` only as what is left behind — "left Deloitte", "traded the Skoda for", "from Priya");
3. **a new value**: ``new`` holds a value of the kind ``old`` holds (number of the same unit,
   time, date, code, phone ...) that differs, or — when ``old`` holds no such value — a name
   ``old`` lacks; or ``new`` denies ``old`` with every word of it ("not allergic to shellfish
   after all");
4. **nothing added, nothing kept**: no "also", "too", "another", aussi, también, auch, também
   ..., no "still" / toujours / sigue / noch / ainda, no request ("please ...").

The cue itself (step 1) is read by memengine/fact_cue_find.py, which recall and the brief ask alone.

It is conservative on purpose (a false supersession hides a true fact; a miss only leaves
two current facts). Pure: no SQL, no model, no I/O; the cosine is the caller's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memengine import fact_clause_veto, fact_mood
from memengine import fact_cue_lexicon as C
from memengine import fact_lexicon as L
from memengine.fact_cue_find import BREAKS as _BREAKS
from memengine.fact_cue_find import TOKEN_RE as _TOKEN_RE
from memengine.fact_cue_find import Cue, Tok, find_cue, reverted, tokens
from memengine.fact_cue_find import cue_beyond as _cue
from memengine.fact_cue_find import phrase_at as _phrase_at
from memengine.fact_dropped import FREQUENCY
from memengine.fact_lexicon import DETERMINERS, NEGATIONS, STOPWORDS, fold
from memengine.fact_tokens import guess_lang

if TYPE_CHECKING:
    from memengine import facts
# facts, fact_occasion and fact_handover (~40 ms of a cold process's imports) are loaded by detect() and the
# frames it reads, not here: find_cue(), all recall's chat updates and the brief ask, needs none of them

__all__ = ["MIN_COSINE", "NOT_CONTENT", "NOT_NAME", "Cue", "Tok", "detect", "find_cue", "is_name", "reverted", "tokens"]

# The least cosine (int8 MiniLM) at which two sentences may be about one slot. The cue, the
# anchors and the value decide; the cosine only keeps unrelated sentences out (dev set: updates
# 0.39-0.92, look-alikes 0.35-0.91, so it cannot decide alone).
MIN_COSINE = 0.45
# Token distance within which a departure word governs the old value ("stopped training with Helen").
DEPARTURE_REACH = 3
# Inside a noun phrase: determiners and the genitive prepositions ("the code of the front door",
# "la contraseña del wifi de casa", "der Code für die Haustür").
_PHRASE_LINKS = (DETERMINERS - {"a"}) | frozenset(fold(w) for w in (
    "of de del d des du da do das dos von vom fur der des the los las el la le les um uma").split())
# Two words are one stem when they share this many leading letters and 75 % of the shorter.
MIN_PREFIX = 4
PREFIX_SHARE = 0.75

_POSSESSIVE_RE = re.compile(r"([^\W\d_][\w-]*)['’]s\s+[^\W\d_]")  # "Mia's bedtime", not "at Luigi's."
# Words that never say what a fact is about (function words, copulas, "now" words, days, months): public,
# the description check (fact_untouched) and the template (fact_template) read content the same way.
NOT_CONTENT = STOPWORDS | C.GENERIC | C.TITLES | NEGATIONS | C.NEW_WORDS | C.ADDITIVE | C.COPULAS | C.DEPARTURE \
    | C.TRADE_PREPOSITIONS | C.REQUEST | (C.DESTINATIONS - {"back", "front", "up", "down"}) | frozenset(
    w for p in C.NOW_PHRASES for w in p.split()).union(*L.LANG_COPULA.values(), *L.LANG_AUX.values(), L.WEEKDAYS,
                                                       L.MONTHS, L.SHORT_WEEKDAYS, ("feira",))
# Capitalised words that never name anyone at the start of a sentence.
NOT_NAME = STOPWORDS | C.GENERIC | C.TITLES | NEGATIONS | C.NEW_WORDS | C.ADDITIVE | C.COPULAS | frozenset(
    w for p in C.NOW_PHRASES for w in p.split())
_FUNCTION = STOPWORDS.union(*L.LANG_COPULA.values(), *L.LANG_AUX.values())
_VALUE_GROUPS = {"date": "date", "weekday": "date", "time": "time", "number": "number", "code": "ident",
                 "phone": "ident", "email": "ident", "url": "ident"}
_SON_OWNERS = frozenset(fold(w) for w in "my our your his her their a the".split())


# --------------------------------------------------------------------------- who, which slot

def _kin(toks: list[Tok]) -> set[str]:
    out = set()
    for i, t in enumerate(toks):
        group = C.KIN.get(t.key) if t.word else None
        if group is None:
            continue
        if t.key in ("son", "sons") and (i == 0 or toks[i - 1].key not in _SON_OWNERS):
            continue  # French "son" is "his / her"
        out.add(group)
    return out


def _possessors(text: str, toks: list[Tok]) -> set[str]:
    """Names that own the fact: "Mia's bedtime", "la hermana de Marta", "le loyer de Sam"."""
    out = {fold(m.group(1)) for m in _POSSESSIVE_RE.finditer(text) if m.group(1)[:1].isupper()}
    for i in range(1, len(toks) - 1):
        t, prev, nxt = toks[i], toks[i - 1], toks[i + 1]
        if t.key in C.POSSESSOR_PREPOSITIONS and prev.word and not prev.cap and nxt.cap and nxt.word \
                and nxt.key not in C.TITLES and nxt.key not in STOPWORDS:
            out.add(nxt.key)
    return out


def _content(toks: list[Tok]) -> list[str]:
    return [t.key for t in toks if t.word and (len(t.key) >= 3 or t.text.isupper() and len(t.key) == 2)
            and t.key not in NOT_CONTENT
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


def is_name(toks: list[Tok], i: int, lang: str) -> bool:
    """A capitalised word that names someone or something: not the sentence's first word (see
    :func:`_initial_name`), not a title or function word, and in German (where every noun is
    capitalised) not right after an article or possessive."""
    t = toks[i]
    if t.word and i > 0 and len(t.text) >= 2 and t.text.isupper() and t.key not in C.TITLES:
        return True  # an acronym, even one that spells a word ("NOS", "EDF", "IT")
    if not t.word or not t.cap or i == 0 or t.key in C.TITLES or t.key in STOPWORDS or t.key in _VERBS \
            or t.key in C.GENERIC or t.key in L.MONTHS or t.key in L.WEEKDAYS:
        return False
    if lang == "de" and toks[i - 1].key in _DE_BEFORE_NOUN:  # "den Golf": a noun, unless a name
        return i + 1 < len(toks) and toks[i + 1].cap and toks[i + 1].word  # follows ("einen Opel Corsa")
    return True


_DE_BEFORE_NOUN = DETERMINERS | frozenset(
    "unser unsere unseren unserem dein deine sein seine ihr ihre im am zum zur vom beim ins kein keine keinen "
    "jeder jede jedes diese dieser dieses neue neuer neues neuen".split())


def _departing(toks: list[Tok], j: int, trade: bool) -> bool:
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


def _value_groups(values: list[facts.Value], toks: list[Tok] | None = None) -> dict[str, set[tuple[object, ...]]]:
    """Values by group; a number as (unit without its rate, the number as written): "35 euros a
    month" and "35 euros" are one value, "42 euros" another; a number with no unit counts the
    word after it ("8 engineers" and "3 designers" are two slots)."""
    out: dict[str, set[tuple[object, ...]]] = {}
    for v in values:
        group = _VALUE_GROUPS.get(v.kind)
        norm = v.norm
        if v.kind == "number":
            unit = str(norm[0]).split("/")[0]
            if not unit and toks is not None:
                i = _tok_index(toks, v.text) + 1
                if i < len(toks) and toks[i].word and toks[i].key not in NOT_CONTENT:
                    unit = toks[i].key
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


def _new_value(a_values: list[facts.Value], b_values: list[facts.Value], a: _Side, b: _Side) -> str | None:
    """What ``b_values`` hold in the slot of ``a_values`` that those do not, as "was -> now"
    (None: nothing)."""
    va, vb = _value_groups(a_values, a.toks), _value_groups(b_values, b.toks)
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
            was = next((v.text for v in a_values if _VALUE_GROUPS.get(v.kind) in (group, "number")), "?")
            now = next((v.text for v in b_values if _value_groups([v], b.toks).get(group, set()) & fresh), "?")
            return f"{was} -> {now}"
    return None


def _slot_values(side: _Side, other: _Side) -> list[facts.Value]:
    """The values outside the noun phrases of the shared thing: the slot's value ("costs 12 euros"),
    not which thing it is ("the Monday class")."""
    span = _naming(side, other)
    return [v for v in side.fact.values if _VALUE_GROUPS.get(v.kind) and _tok_index(side.toks, v.text) not in span]


def _naming(side: _Side, other: _Side) -> set[int]:
    """Token positions that say which thing the sentence is about: the subject's noun phrases of
    the shared thing ("the 8:10 bus is", "the Monday class costs"), and everything before a
    copula ("the dinner on Friday is at Luigi's")."""
    span = {i for i in _phrases(side, other) if i < side.boundary}
    verbs = L.LANG_COPULA.get(side.fact.lang, frozenset()) | L.LANG_AUX.get(side.fact.lang, frozenset()) | C.COPULAS
    copula = next((i for i, t in enumerate(side.toks) if t.word and t.key in verbs and (t.key != "e" or t.text == "é")),
                  None)
    return span | set(range(copula)) if copula is not None else span


# --------------------------------------------------------------------------- the decision

@dataclass
class _Side:
    """One sentence as :func:`detect` reads it."""

    text: str
    fact: facts.Fact
    toks: list[Tok]
    keys: set[str]
    content: list[str]
    boundary: int  # token index where the subject ends
    names: set[str]  # capitalised names (folded), initial name included
    subject_names: set[str]  # those before the boundary
    kin: set[str]
    possessors: set[str]


def _side(text: str, fact: facts.Fact | None, toks: list[Tok] | None = None) -> _Side:
    from memengine import facts

    toks = toks if toks is not None else tokens(text)
    f = fact if fact is not None else facts.analyse(text)
    boundary = len(toks)
    if f.subject_end < len(f.words):
        first = fold(f.words[f.subject_end].text.split()[0])
        boundary = next((i for i, t in enumerate(toks) if t.key == first), len(toks))
    verbs = L.LANG_COPULA.get(f.lang, frozenset()) | L.LANG_AUX.get(f.lang, frozenset())
    boundary = min(boundary, next((i for i, t in enumerate(toks) if t.word and (
        t.key in verbs and (t.key != "e" or t.text == "é") or t.key in _VERBS
        or i > 0 and t.key not in NOT_CONTENT and t.key not in _PHRASE_LINKS and not _in_phrase(toks, i, f.lang))),
        len(toks)))
    names = {t.key for i, t in enumerate(toks) if is_name(toks, i, f.lang)}
    subject_names = {toks[i].key for i in range(min(boundary, len(toks))) if is_name(toks, i, f.lang)}
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
    from memengine import fact_handover, fact_occasion, facts

    if similarity is None or similarity < MIN_COSINE:
        return None
    new_text = new.text if isinstance(new, facts.Fact) else new
    old_text = old.text if isinstance(old, facts.Fact) else old
    if fact_mood.unasserted(new_text):
        return None  # a question, a plan, an anecdote (memengine/fact_mood.py)
    if fact_occasion.one_off(old_text, new_text):
        return None  # one day, one occasion, a stand-in (memengine/fact_occasion.py)
    if fact_handover.handover(new_text):
        return None  # "X left, so now Y is our ...": the frame rules read the second clause (fact_handover.py)
    tb = tokens(new_text)
    keys_b = [t.key for t in tb if t.word]
    if fact_clause_veto.additive(tb) or fact_clause_veto.continuity(tb):
        return None  # "also", "another": a second value, not a new one; "still": no change (memengine/fact_clause_veto.py)
    ta = tokens(old_text)
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
    if a.keys & C.DIETS and b.keys & C.DIETS:  # "I'm vegetarian" / "so I'm pescatarian now"
        anchors.append("diet")
    if a.keys & C.RESIDENCE and b.keys & (C.MOVE_HOUSE | C.RESIDENCE):  # "lives in Leeds" / "moved into ..."
        anchors.append("home")
    if not anchors or not _slot_shared(a, b, anchors) or _only_final_verb(anchors, a, b):
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
    slot_a, slot_b = _slot_values(a, b), _slot_values(b, a)
    if slot_a:
        what = _new_value(slot_a, slot_b, a, b)
        if what is None:
            return None  # the old fact's number / time / code is not replaced
        return facts.Verdict("cue", f"'{cue.words}': new value for '{topic}': {what}", conf)
    if _value_groups(a.fact.values) and _new_value(a.fact.values, b.fact.values, a, b) is not None:
        return None  # the old number / time / date names its thing ("the 8:10 bus is usually full"):
        # another one in ``new`` is another thing
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
    if _other_thing(a, b):
        return "thing"  # "the sprint review" / "the sprint planning"
    if _owner_added(b, a) or cue.kind == "now" and _qualifier_added(b, a):  # ("New X price: ..." names X at length)
        return "owner"  # "our team meeting" / "the team meeting of the next department", "le marché aux puces"
    if _other_end(a, b) and _value_groups(b.fact.values).keys() & {"time", "date"}:
        return "boundary"  # "the gym opens at 6" / "the gym now closes at 11": another end of it
    if cue.kind == "new":  # "New X: value" / "the new one is": X is the old fact's thing
        i = next(i for i, t in enumerate(b.toks) if t.text == cue.words)
        what = []
        for t in b.toks[i + 1:]:
            if not t.word and t.text == ":" or t.key in C.COPULAS:
                break
            if t.word and t.key not in NOT_CONTENT:
                what.append(t.key)
        if what and not any(_same_stem(w, x) for w in what for x in a.content):
            return "new-what"
    return None


_DE_PARTICIPLE = re.compile(r"^(?:\w*ge\w{2,}(?:t|en)|(?:ver|be|er|ent|zer)\w{2,}(?:t|en))$")


def _only_final_verb(anchors: list[str], a: _Side, b: _Side) -> bool:
    """Whether the one word shared is German's clause-final participle, last in both sentences: "Der Müll
    wird mittwochs abgeholt" / "Künftig wird das Altpapier freitags abgeholt" share what is done, not the thing."""
    if a.fact.lang != "de" and b.fact.lang != "de" or len(set(anchors)) != 1:
        return False
    last_a = next((t.key for t in reversed(a.toks) if t.word), "")
    last_b = next((t.key for t in reversed(b.toks) if t.word), "")
    return bool(_DE_PARTICIPLE.match(anchors[0])) and _same_stem(last_a, anchors[0]) and _same_stem(last_b, anchors[0])


def _owner_added(side: _Side, other: _Side) -> bool:
    """Whether the shared thing's noun phrase in ``side`` hangs an owner on it that ``other`` never
    names: "das Teammeeting der Nachbarabteilung" / "unser Teammeeting", "le marché aux puces" /
    "le marché". (The other way round, a possessor dropped, is how a fact is restated.)"""
    toks = side.toks
    span = _phrases(side, other)
    for i in sorted(span):
        if i + 1 >= len(toks) or toks[i + 1].key not in _OWNER_LINKS or not toks[i].word \
                or toks[i].key in _PHRASE_LINKS or toks[i].key not in side.content:
            continue  # (a noun of the phrase, followed by "of" / "de" / "der" / "aux")
        j = i + 2
        while j < len(toks) and toks[j].key in _PHRASE_LINKS | _POSSESSIVE_DETS:
            j += 1
        if j < len(toks) and toks[j].word and toks[j].key in side.content \
                and not any(_same_stem(toks[j].key, o) for o in other.keys):
            return True
    return False


# (French "au" / "aux" hang a complement on a noun too: "le marché aux puces", "le cours au conservatoire")
_AS = frozenset(("as", "comme", "como", "als"))  # "como dentista": a role named, not a qualifier


def _qualifier_added(side: _Side, other: _Side) -> bool:
    """Whether ``side`` names the shared thing with a word of its own right next to it where ``other``
    names it bare: "le marché" / "le marché bio", "the market" / "the farmers market" (a frequency
    aside: "the rent" / "the monthly rent")."""
    if _qualifiers(other, side):
        return False
    toks = side.toks
    shared = {i for i, t in enumerate(toks) if t.word and t.key in side.content
              and any(_same_stem(t.key, o) for o in other.content)}
    for q in _qualifiers(side, other):
        at = [i for i, t in enumerate(toks) if t.key == q]
        if q not in FREQUENCY and q not in C.DESTINATIONS and q not in _AS and not _sentence_adverb(q) \
                and len(q) >= 3 and any(
                not toks[i].cap and (i - 1 in shared or i + 1 in shared) for i in at):
            return True
    return False


def _sentence_adverb(word: str) -> bool:
    """"actually", "really", "wirklich", "says": a word on the statement, not on the thing it names
    ("The allergist says I'm not actually allergic to penicillin")."""
    return word in _SENTENCE_ADVERBS or len(word) > 4 and word.endswith("ly")


_SENTENCE_ADVERBS = frozenset(fold(w) for w in (
    "actually really truly vraiment reellement realmente wirklich eigentlich tatsachlich doch "
    "verdade mesmo "
    # and who says so: "the allergist says I'm not ..."
    "says said tells told confirms confirmed dit affirme dice dijo sagt sagte meint diz disse").split())
_OWNER_LINKS = frozenset(fold(w) for w in "of de del der des von vom du do da dos das au aux".split())
_POSSESSIVE_DETS = frozenset(fold(w) for w in (
    "my our your his her their mon ma mes notre nos son sa ses mi mis nuestro nuestra su sus mein meine meiner "
    "meines unser unsere unserer unseres sein seine seiner ihr ihre ihrer meu minha meus minhas nosso nossa").split())


def _other_end(a: _Side, b: _Side) -> bool:
    """Whether ``b`` times another end of the thing than ``a``: "the gym opens at 6" / "now closes at
    11". A bare time ("standup is at 9:15") reads as the start, so "starts at 9:45" is the same end."""
    ends = _boundaries(b) - _boundaries(a)
    if not _boundaries(a):
        ends -= _IMPLIED_BY_A_BARE_TIME
    return bool(ends)


_IMPLIED_BY_A_BARE_TIME = frozenset(("start", "open", "depart"))


def _boundaries(side: _Side) -> set[str]:
    return {C.BOUNDARY[k] for k in side.keys if k in C.BOUNDARY}


def _tok_index(toks: list[Tok], text: str) -> int:
    m = _TOKEN_RE.search(text)
    key = fold(m.group(0)) if m else ""
    return next((i for i, t in enumerate(toks) if t.key == key or key and t.key.startswith(key)), len(toks))


_VERBS = C.CHANGE_VERBS | C.HOLDER_VERBS | C.HABIT_VERBS | C.MOTION_VERBS | C.LEAVE_VERBS
_PRONOUN_COPULA = {"s": frozenset({"he", "she", "it", "that", "what", "who"}), "m": frozenset({"i"}),
                   "am": frozenset({"i"}),
                   "re": frozenset({"we", "you", "they"})}


def _negated(f: facts.Fact) -> int:
    """Polarity from negation words only ("stopped" / "quit" are change verbs here, not negations)."""
    return sum(fold(n) in NEGATIONS or fold(n) in ("pas", "plus", "jamais") for n in f.negations) % 2


def _initial_name(toks: list[Tok], f: facts.Fact) -> str:
    """The first word when it names a person: capitalised, read as a name, not a verb (a
    sentence-initial verb is followed by an article: "Traded the Skoda", "Tengo un Seat")."""
    if not toks or not toks[0].word or not toks[0].cap or toks[0].key in _VERBS or toks[0].key in C.TITLES \
            or toks[0].key in STOPWORDS or toks[0].key in NOT_NAME:
        return ""
    if len(toks) > 1 and toks[1].key in DETERMINERS and not (f.lang == "fr" and toks[1].key == "a"):
        return ""
    if f.lang == "de" and len(toks) > 1 and toks[1].key in DETERMINERS:
        return ""
    return toks[0].key


def _other_thing(a: _Side, b: _Side) -> bool:
    """Each sentence names the shared thing with a word of its own in the same noun phrase: "the
    sprint review" / "the sprint planning", "the front door code" / "the back door code", "el
    número personal" / "el número del trabajo" (a word outside that phrase, "the landlord raised
    the rent", is an agent, not another thing), or with its own number, time or date ("the Monday
    class" / "the Tuesday class")."""
    if _qualifiers(a, b) and _qualifiers(b, a):
        return True
    ia, ib = _phrase_values(a, b), _phrase_values(b, a)
    return any(ib[g] - ia[g] and ia[g] - ib[g] for g in ia if g in ib)


def _phrases(side: _Side, other: _Side) -> set[int]:
    """Token positions of the noun phrases around the words ``side`` shares with ``other``: the
    shared word with the content words, determiners and "of" / "de" / "von" around it, up to a
    verb, a copula, a cue word or punctuation."""
    toks = side.toks
    out: set[int] = set()
    for i, t in enumerate(toks):
        if not (t.word and t.key in side.content and t.key not in side.names
                and any(_same_stem(t.key, o) for o in other.content)):
            continue
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(toks) and _in_phrase(toks, j, side.fact.lang):
                out.add(j)
                j += step
        out.add(i)
    return out


def _in_phrase(toks: list[Tok], j: int, lang: str = "en") -> bool:
    """Whether token ``j`` belongs to a noun phrase: a link word, a number right after one ("the
    7:15 tram") or a content word that is no verb (a word followed by an article or a number is
    read as a verb: "catch | the 7:15 tram", "beträgt | 1100 Euro")."""
    t = toks[j]
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    if not t.word:
        return t.text[:1].isdigit() and j > 0 and toks[j - 1].key in _PHRASE_LINKS
    if t.key in _PHRASE_LINKS or t.key in L.WEEKDAYS:  # "the Monday class"
        return True
    if t.key in NOT_CONTENT or t.key in _VERBS or t.key in _FUNCTION:
        return False
    if nxt is not None and nxt.key == "a" and lang in ("fr", "es"):
        return True  # French "a" (has), Spanish "a" (to): no article
    return not (nxt is not None and (nxt.key in DETERMINERS or nxt.text[:1].isdigit()))


def _phrase_values(side: _Side, other: _Side) -> dict[str, set[tuple[object, ...]]]:
    """The values inside the subject's noun phrases of the shared thing: they name which one it is."""
    span = _naming(side, other)
    values = [v for v in side.fact.values if _tok_index(side.toks, v.text) in span]
    values += [v for v in _weekday_values(side) if v.pos in span]
    return _value_groups(values, side.toks)


def _weekday_values(side: _Side) -> list[facts.Value]:
    """Weekday words ("the Monday class") as values, positioned in ``side.toks``."""
    from memengine import facts

    return [facts.Value("weekday", (L.WEEKDAYS[t.key],), t.text, i) for i, t in enumerate(side.toks)
            if t.key in L.WEEKDAYS]


def _value_words(side: _Side) -> set[str]:
    """The words inside the sentence's values ("gato" of "gato123")."""
    return {fold(m.group(0)) for v in side.fact.values for m in _TOKEN_RE.finditer(v.text)}


def _qualifiers(side: _Side, other: _Side) -> list[str]:
    """Words of the shared thing's noun phrases in ``side`` that ``other`` lacks (not names, not
    values): "front" of "the front door code"."""
    values = _value_words(side)
    span = _phrases(side, other)
    toks = side.toks
    # (a first word is capitalised as the sentence's, not as a name, when a lower-case word of its
    # phrase follows: "Finance meeting has been moved")
    initial = len(toks) > 1 and 0 in span and 1 in span and toks[1].word and not toks[1].cap
    return [toks[i].key for i in sorted(span) if toks[i].word
            and toks[i].key in side.content and (toks[i].key not in side.names or i == 0 and initial)
            and toks[i].key not in values and not any(_same_stem(toks[i].key, o) for o in other.keys)]


def _slot_shared(a: _Side, b: _Side, anchors: list[str]) -> bool:
    """Beyond the person a fact is about (its subject's names, possessors, kinship words), the
    two share the slot: another anchor, or both state what the person *is* (a copula on each
    side: "Jonas is vegan" / "so he's vegetarian now")."""
    person = a.subject_names | a.possessors | a.kin
    if any(x not in person for x in anchors):
        return True
    # ... but "Tom's birthday is" / "Tom's anniversary is now" are two things of one person
    return not a.possessors and _has_copula(a.toks) and _has_copula(b.toks)


def _has_copula(toks: list[Tok]) -> bool:
    for i, t in enumerate(toks):
        if t.key in C.COPULAS or i > 0 and toks[i - 1].key in _PRONOUN_COPULA.get(t.key, ()):
            return True
    return False


def _old_value_left(a: _Side, b: _Side) -> bool:
    """Whether ``new``, when it repeats a name the old fact holds as its value (all its words:
    "Elmwood School" does not repeat "Parkside School"), leaves one of them behind ("left
    Deloitte", the office in Leeds staying as it was): repeating them all as they were is speaking
    of the old value, not replacing it ("Dr. Okafor's clinic now opens at 8")."""
    trade = any(t.key in C.TRADE_VERBS for t in b.toks)
    repeated = []
    for run in _value_name_runs(a):
        if all(k in b.keys for k in run):
            repeated += [j for j, t in enumerate(b.toks) if t.word and t.key in run]
    return not repeated or any(_departing(b.toks, j, trade) for j in repeated)


def _value_name_runs(side: _Side) -> list[list[str]]:
    """The names of a sentence outside its subject, consecutive words as one ("Main Street")."""
    runs: list[list[str]] = []
    prev = -2
    for i, t in enumerate(side.toks):
        if t.key in side.names and t.key not in side.subject_names and is_name(side.toks, i, side.fact.lang):
            if i == prev + 1 and runs:
                runs[-1].append(t.key)
            else:
                runs.append([t.key])
            prev = i
    return runs


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
