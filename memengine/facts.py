"""Facts that change: what a fact sentence states, and how two of them relate.

A sentence is read into a :class:`Fact`: its content words in order (the *frame*), its
fact-bearing values (numbers with units, times, dates, weekdays, versions, codes such as
``tiger-42``, phone numbers, emails, URLs), its polarity (negations, plus the negative
pole of a closed-class opposite such as "closed" or "forbidden"), its modals (must / may /
should) and where its subject ends. Two questions are asked of a pair:

``same_fact(a, b)``
    Do they state the same thing (a write may reinforce the old memory instead of storing
    a new one)? Same content words (inflection and listed synonyms aside), identical values,
    same polarity, same modals.
``compare(old, new)``
    Does ``new`` contradict ``old`` — a new value in the same slot of the same frame, or
    the same frame with the opposite polarity? Returns a :class:`Verdict` or ``None``.

The mechanism is language-neutral: frames are compared by aligning content words, values
by type, polarity by parity. Only function words, negations and a few closed-class
opposites come from tables (memengine/fact_lexicon.py: English, French, Spanish, German,
Portuguese). What a sentence is read into is memengine/fact_types.py; the word-by-word alignment
and the value conflict are memengine/fact_align.py. Tokens and values are read by memengine/fact_tokens.py; change language
("switched from Jira to Linear", "moved to Friday", "now uses") by memengine/fact_change.py,
and a sentence stating a change is compared by :func:`_compare_change`.
Pure functions: no SQL, no model, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from memengine import (
    fact_change,
    fact_clauses,
    fact_cue_lexicon,
    fact_disposed,
    fact_dropped,
    fact_elliptic,
    fact_handover,
    fact_mood,
    fact_occasion,
    fact_place,
    fact_roles,
    fact_same,
    fact_scope,
    fact_when,
)
from memengine import fact_lexicon as L

# the comparing primitives (memengine/fact_align.py), kept under these names: other rooms use them
from memengine.fact_align import Alignment as _Alignment
from memengine.fact_align import align as _align
from memengine.fact_align import by_kind as _by_kind
from memengine.fact_align import same_word as _same_word
from memengine.fact_align import stem as _stem
from memengine.fact_align import value_conflict as _value_conflict
from memengine.fact_lexicon import fold
from memengine.fact_tokens import Tok, Value, clock_minutes, guess_lang, prepare, read_tokens, read_values
from memengine.fact_types import Fact, Verdict, Word

__all__ = ["Fact", "Value", "Verdict", "analyse", "clock_minutes", "compare", "restated", "same_fact"]

# Share of the smaller frame's words the other must contain for the two to be one frame.
MIN_SHARED = 0.5


# --------------------------------------------------------------------------- reading

def _participle(low: str, lang: str) -> bool:
    """Whether ``low`` (accents kept) looks like a past participle in ``lang``."""
    if lang == "en":
        return low.endswith(("ed", "en", "ing")) and len(low) > 4
    if lang == "fr":
        return low.endswith(("é", "ée", "és", "ées"))
    if lang in ("es", "pt"):
        return low.endswith(("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas"))
    # German: "gewechselt", "geschrieben", and the inseparable prefixes ("erhöht", "verschoben")
    return low.startswith(("ge", "er", "ver", "be", "ent", "zer")) and low.endswith(("t", "en")) and len(low) > 5


def _switch_state(toks: list[Tok], i: int, lang: str, copulas: frozenset[str]) -> str | None:
    """"+" / "-" when "on" / "off" ("an" / "aus") at ``i`` is a switch state: right after a copula
    and with no object after it. "The heating is on (now / in winter / , but ...)" is a state;
    "the review is on Thursday", "on the 14th", "on Elm Street", "ist aus Berlin" are prepositions."""
    pole = L.SWITCH.get(lang, {}).get(fold(toks[i].low))
    j = i - 1
    while j > 0 and fold(toks[j].low) in L.SWITCH_ADVERBS:  # "is now off", "ist jetzt an"
        j -= 1
    if pole is None or j < 0 or fold(toks[j].low) not in copulas:
        return None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None:
        return pole
    if nxt.kind != "word" or nxt.role:
        return None  # a value: "on Thursday", "on 3 May", "on the 14th"
    k = fold(nxt.low)
    return pole if k in L.STOPWORDS and k not in L.DETERMINERS else None


def _is_stop(t: Tok, key: str) -> bool:
    """A function word. A word written with an accent only when listed with it (L.ACCENTED_STOP):
    folded, French "thé" would be English "the"."""
    if t.orig and t.orig != t.low:
        return t.orig in L.ACCENTED_STOP
    return key in L.STOPWORDS


@dataclass
class _Reading:
    words: list[Word] = field(default_factory=list)
    negations: list[str] = field(default_factory=list)
    modals: set[str] = field(default_factory=set)
    boundary: tuple[int, str] | None = None  # (token index, "copula" | "aux")
    old_words: list[str] = field(default_factory=list)


def _function_word(t: Tok, i: int, key: str, lang: str, r: _Reading, has_ne: bool, nxt: str) -> bool:
    """Negations, modals, copulas and auxiliaries: recorded in ``r``; True when ``t`` is one
    (``nxt`` is the kind of the next token)."""
    if has_ne and lang == "it" and key in L.NON_COMPLEMENTS:  # "non ... mai": one negation, as "ne ... pas"
        t.role = "stop"
        return True
    if key in L.NEGATIONS and not (key == "n" and lang != "fr") and not (key == "no" and nxt == "num") \
            and key not in L.NEGATION_EXCEPT.get(lang, ()) and lang in L.NEGATION_LANGS.get(key, (lang,)):
        r.negations.append(t.low)
        t.role = "neg"
        return True
    if key in L.NE_COMPLEMENTS:
        if has_ne or key == "plus":
            t.role = "stop"
            return True
        if lang == "fr":  # spoken French drops the "ne": "j'aime pas"
            r.negations.append(t.low)
            t.role = "neg"
            return True
    if key in L.CESSATION:
        r.negations.append(t.low)
        t.role = "neg"
        return True
    if key in L.MODALS:
        r.modals.add(L.MODALS[key])
    copula = key in L.LANG_COPULA[lang] and t.orig != "à" and not (key in L.COPULA_NEEDS_ACCENT and t.orig == key)
    if copula or (key in L.LANG_AUX[lang] and t.orig != "à") or key in L.MODALS:
        if r.boundary is None:
            r.boundary = (i, "copula" if copula else "aux")
        t.role = "stop"
        return True
    return False


def _read(toks: list[Tok], lang: str) -> _Reading:
    """Content words (synonyms and axes mapped), negations, modals, the copula / aux boundary."""
    r = _Reading()
    copulas = L.LANG_COPULA[lang]
    has_ne = any(t.kind == "word" and fold(t.low) in ("ne", "n") for t in toks) and lang == "fr" or lang == "it" and any(
        t.kind == "word" and fold(t.low) == "non" for t in toks)
    quantity = any(t.role == "value" and t.kind != "word" for t in toks)
    place_next = False
    for i, t in enumerate(toks):
        if t.role == "old" and t.kind == "word":
            key = fold(t.low)
            if not _is_stop(t, key):
                canon = L.SYNONYMS.get(key, key).replace("-", "")
                if t.text[:1].isupper() and i > 0 and toks[i - 1].role == "old" and toks[i - 1].text[:1].isupper() \
                        and r.old_words:
                    r.old_words[-1] += " " + canon  # "VS Code": one name, as in the words
                else:
                    r.old_words.append(canon)
            continue
        if t.kind != "word" or t.role:
            place_next = False
            continue
        key = fold(t.low)
        if _function_word(t, i, key, lang, r, has_ne, toks[i + 1].kind if i + 1 < len(toks) else ""):
            continue
        pole = _switch_state(toks, i, lang, copulas)
        if pole is not None:
            if pole == "-":
                r.negations.append(t.low)
            r.words.append(Word("AX:switch", t.text, i))
            continue
        if _is_stop(t, key) or len(key) < 2 and not t.text.isupper():
            t.role = "stop"
            place_next = key in L.PLACE_PREPOSITIONS
            continue
        if quantity and (key in L.MEASURE_NOUNS or "-" in key and key.rpartition("-")[2] in L.MEASURE_NOUNS):
            key = key.rpartition("-")[0]  # "my lisinopril dose": the dose is the number
            if not key:
                t.role = "stop"
                continue
        canon = L.SYNONYMS.get(key, key).replace("-", "")  # "stand-up" = "standup"
        for axis, (pos, neg) in L.AXES.items():
            if key in pos or key in neg:
                canon = "AX:" + axis
                if key in neg:
                    r.negations.append(t.low)
                break
        name = t.text[:1].isupper() and (i > 0 or key not in L.STOPWORDS)
        last = r.words[-1] if r.words else None
        if name and last is not None and last.name and last.pos == i - 1 and last.pos > 0:
            # "Keiko Tanaka", "Acme Corp": one name, one slot value
            r.words[-1] = Word(f"{last.key} {canon}", f"{last.text} {t.text}", i, name=True, place=last.place)
            continue
        agent = i + 1 < len(toks) and fold(toks[i + 1].low) in L.AGENT_PREPOSITIONS
        r.words.append(Word(canon, t.text, i, name=name, place=name and place_next, agent=agent))
        place_next = False
    return r


def _subject(toks: list[Tok], lang: str, words: list[Word], boundary: tuple[int, str] | None,
             change_verb: int | None) -> tuple[int, int | None]:
    """Where the subject ends (``words[:n]``) and which word is the verb (None: a copula)."""
    if change_verb is not None:  # the change verb is the verb: "the team | switched to Linear"
        end = boundary[0] if boundary is not None and boundary[0] < change_verb else change_verb
        return sum(1 for w in words if w.pos < end), None
    if boundary is not None and any(w.pos < boundary[0] for w in words):
        subject_end = sum(1 for w in words if w.pos < boundary[0])
        after = subject_end if subject_end < len(words) else None
        if after is not None and (boundary[1] == "aux" or not words[after].name
                                  and _participle(toks[words[after].pos].orig, lang)):  # ("is Dr. Green")
            return subject_end, after
        return subject_end, None
    first = next((t for t in toks if t.kind == "word"), None)
    if boundary is None and words and first is not None and first.orig in L.PRONOUNS.get(lang, ()):
        return 0, 0  # "We use GitLab": a pronoun subject, the first content word is the verb
    if boundary is None and words and lang in L.PRO_DROP and toks[words[0].pos].orig.endswith(L.PRO_DROP[lang]) \
            and all(t.kind == "word" and _is_stop(t, fold(t.low)) for t in toks[:words[0].pos]):
        return 0, 0  # "(Nós) usamos o Jira": the verb's ending is the subject
    if boundary is None and words and _first_singular(toks, words[0].pos):
        return 0, 0  # "(Yo) tengo un Seat", "(Eu) trabalho na Sonae"
    if boundary is None and words:
        # no copula: the subject is the first word and what its possessives chain to
        k = 1
        while k < len(words) and (any(toks[j].role == "poss" or fold(toks[j].low) in ("de", "del", "of")
                                      for j in range(words[k - 1].pos + 1, words[k].pos)) and words[k - 1].name
                                  or _possessor(toks, words[k - 1].pos, words[k].pos)
                                  or _attached(toks, words[k - 1].pos, words[k].pos, lang)):
            k += 1
        return k, (k if k < len(words) else None)
    return (0 if boundary is not None else (1 if words else 0)), None


def _possessor(toks: list[Tok], left: int, right: int) -> bool:
    """Whether the word at ``left`` owns the one at ``right`` ("the kids' school", "Mum's physio"), or
    a kinship word hangs on it by "of / de" ("El colegio de los niños", "le cours de ma fille"): both
    are the subject of a sentence without a copula ("the kids' school | starts at 8:15")."""
    if right == left + 1:
        return toks[left].text.endswith("'")
    if right == left + 2 and toks[left + 1].role == "poss":
        return True  # "my partner's train"
    between = [fold(toks[j].low) for j in range(left + 1, right)]
    return bool(between) and between[0] in fact_dropped.GENITIVE and fold(toks[right].low) in fact_cue_lexicon.KIN \
        and all(b in fact_dropped.GENITIVE or b in fact_dropped.POSSESSIVES or b in fact_dropped.ARTICLES
                for b in between)


# Prepositions that attach a name to the noun before it, inside a subject with no copula: "my
# flight to Boston | lands at 3pm", "el vuelo a Lima | sale", "der Zug nach Hamburg | fährt".
SUBJECT_PREPOSITIONS = L._set("to for from", "pour", "a para", "nach", "para")


def _attached(toks: list[Tok], left: int, right: int, lang: str) -> bool:
    """Whether the name at ``right`` hangs on the noun at ``left`` by one preposition ("flight
    to Boston"): then it belongs to the subject, and the sentence's verb comes after it. (German
    writes every noun with a capital: "der Zug nach Hamburg".)"""
    return right == left + 2 and toks[right].text[:1].isupper() and (toks[left].text[:1].islower() or lang == "de") \
        and fold(toks[left + 1].low) in SUBJECT_PREPOSITIONS and toks[left + 1].role in ("", "stop")


def _pronoun(toks: list[Tok], lang: str) -> str:
    """The pronoun a sentence starts with, or the first-person ending of its first verb."""
    first = next((t for t in toks if t.kind == "word"), None)
    if first is not None and first.orig in L.PRONOUNS.get(lang, ()):
        return first.orig
    if first is not None and lang in L.PRO_DROP and first.orig.endswith(L.PRO_DROP[lang]):
        return next(("-" + e for e in L.PRO_DROP[lang] if first.orig.endswith(e)), "")
    verb = next((i for i, t in enumerate(toks) if t.kind != "word" or not _is_stop(t, fold(t.low))), None)
    if verb is not None and toks[verb].kind == "word" and _first_singular(toks, verb):
        return "-o"  # ("Também tomo ...": only function words before it)
    return ""


def _first_singular(toks: list[Tok], i: int) -> bool:
    """A Spanish / Portuguese first-person verb at ``i``, the sentence's first content word ("Tengo
    un ...", "Trabalho na ..."): a word in "-o" followed by an article, a preposition or a number (a name in "-o" is
    followed by its verb: "Pedro vive en ..."). Read whatever language the sentence was guessed."""
    if i + 1 >= len(toks) or not toks[i].orig.endswith("o") or len(toks[i].orig) < 4:
        return False
    if not all(t.kind == "word" and _is_stop(t, fold(t.low)) and fold(t.low) not in L.DETERMINERS
               for t in toks[:i]):
        return False  # "O comboio da ...": a noun after its article ("Também tomo ...": a verb)
    nxt = toks[i + 1]
    return nxt.kind != "word" or fold(nxt.low) in L.AFTER_VERB


def _key_of(t: Tok) -> str:
    return fold(t.low) if t.kind == "word" else ""


def analyse(text: str) -> Fact:
    """Read one sentence into a :class:`Fact` (never raises on str input). The reading is kept for the next
    asks (a write compares its fact with ~10 candidates, and each path reads both sides again): treat the
    Fact as read-only."""
    return _analysed(text)


@lru_cache(maxsize=512)  # (a write reads ~20 texts; consolidate's passes thrash it harmlessly)
def _analysed(text: str) -> Fact:
    lang = guess_lang(text)
    toks = read_tokens(prepare(text), text)
    keys = frozenset(fold(t.low) for t in toks if t.kind == "word")
    toks = fact_roles.reorder(toks, lang, keys)  # "X is now our landlord"
    values, idents = read_values(toks, lang)
    values = fact_when.mark(toks, values)  # "from next week": when the value holds, not a word
    change = fact_change.find(toks, lang)
    if change is not None and change.agent and not any(_key_of(toks[i]) in fact_change.THIRD_POSSESSIVES
                                                       for i in change.obj):
        for i in change.agent:  # who made the change is not whose fact it is ("my doctor lowered my dose")
            toks[i].role = toks[i].role or "agent"
        changer = [fold(toks[i].low) for i in sorted(change.agent)
                   if toks[i].kind == "word" and not _is_stop(toks[i], fold(toks[i].low))]
    else:
        changer = []
    if change is not None:
        for i in change.old:
            toks[i].role = "old" if toks[i].role in ("", "value", "unit") else toks[i].role
        if change.verb is not None:
            toks[change.verb].role = "change"
    r = _read(toks, lang)
    words, boundary = r.words, r.boundary
    old_values = [v for v in values if change is not None and v.pos in change.old]
    values = [v for v in values if v not in old_values]
    subject_end, predicate = _subject(toks, lang, words, boundary, change.verb if change else None)
    pronoun = _pronoun(toks, lang) if subject_end == 0 else ""
    # a number or code inside the subject names which thing is meant ("server 42 runs ...",
    # "room 4 is ..."): it is part of the subject, not the value the sentence states
    if words and predicate != 0:  # (a pronoun subject: "I take 40mg of ..." has no subject to name)
        limit = boundary[0] if boundary is not None and subject_end else (
            words[1].pos if len(words) > 1 else words[0].pos)
        if change is not None and change.verb is not None:
            limit = min(limit, change.verb)
        # (a quantity with its unit, "20mg", "5 km", is never a name: "Tomo 20mg de ...")
        inside = [v for v in values if (v.kind == "code" or v.kind == "number" and not v.norm[0])
                  and words[0].pos < v.pos < limit]
        for v in inside:
            idents.add(f"{v.kind}#{v.norm}")
        values = [v for v in values if v.pos not in {x.pos for x in inside}]
    if boundary is not None:  # (after a copula or auxiliary only: "coffee note number 2" tells no value)
        values, idents = _told_identifiers(toks, boundary[0], values, idents)
    exclusive = True
    if change is not None:
        exclusive = True  # a change replaces the value: "now uses Linear" retires "uses Jira"
    elif predicate is not None:
        pk = words[predicate].key
        exclusive = not (pk == "AX:likes" or fold(toks[words[predicate].pos].low) in L.NON_EXCLUSIVE)
    elif boundary is not None and fold(toks[boundary[0]].low) in L.NON_EXCLUSIVE:
        exclusive = False
    adding = keys & _ADDING - ({"also"} if lang == "de" else set())  # (German "also" is "so": "..., also gehen wir")
    low = " " + " ".join(fold(w) for w in re.findall(r"[^\W\d_]+", text)) + " "
    adding |= {p for p in fact_cue_lexicon.ADDITIVE_PHRASES if f" {p} " in low}  # "90 euros de charges en plus du loyer"
    return Fact(text, lang, words, values, r.negations, frozenset(r.modals), subject_end, predicate, exclusive,
                idents, change.marker if change else "", r.old_words, old_values,
                frozenset(change.new) if change else frozenset(), pronoun, adding, changer, keys)


def _told_identifiers(toks: list[Tok], verb: int, values: list[Value], idents: set[str]
                      ) -> tuple[list[Value], set[str]]:
    """A thing's number told after the main verb is the value the fact states, not which thing it is about:
    "the office is on floor 3", "the printer is in room 204", "Ana's locker is number 17" ("floor 3" / "floor 4"
    is one slot with another value; "room 4 has a projector" / "room 5 has a projector" stay two things).
    Before: each was an identifier, and "floor 3" / "floor 4" read as two things, so a plain update was a new fact."""
    # (a capitalised word before the number is a product's name and version, "en Node 20", "auf Node 18": left as
    # it was; German capitalises every noun, "im Raum 14")
    told = [i for i, t in enumerate(toks) if t.role == "ident" and i > verb and i > 0
            and (toks[i - 1].text[:1].islower() or fold(toks[i - 1].low) in L.IDENTIFIER_WORDS_DE)]
    if not told:
        return values, idents
    values = list(values)
    for i in told:
        key = f"{fold(toks[i - 1].low)}#{toks[i].low}"
        if key in idents:
            idents = idents - {key}
            toks[i].role = "value"
            values.append(Value("code", (key,), toks[i].text, i))
    return values, idents


# --------------------------------------------------------------------------- comparing



def _before_verb(f: Fact, idx: list[int]) -> bool:
    """Whether a word of ``idx`` stands before the verb of a sentence stating a value, the verb
    being the last word before the first value ("Das Training | der Jugend | beginnt | um 17 Uhr"):
    a sentence without a copula names its subject before its verb, whatever the subject rule read."""
    if not idx or not f.values or f.pronoun or not f.predicate:
        return False  # (a pronoun or a copula: the subject is known, "We pushed the demo to Wednesday")
    first = min(v.pos for v in f.values if v.pos >= 0) if any(v.pos >= 0 for v in f.values) else -1
    before = [i for i, w in enumerate(f.words) if w.pos < first]
    return len(before) > 1 and any(i < before[-1] for i in idx)


def _topic(f: Fact, al: _Alignment) -> str:
    return " ".join(f.words[i].text for i, _ in al.shared[:4]) or "statement"


def _in_subject(f: Fact, idx: list[int]) -> bool:
    return any(i < f.subject_end for i in idx)


def compare(old: str | Fact, new: str | Fact, similarity: float | None = None) -> Verdict | None:
    """Whether ``new`` contradicts ``old``: the same frame with another value, or with the
    opposite polarity. ``None`` when they agree, add to each other, or are about different
    things. ``similarity`` (an embedding cosine) only nudges the confidence. A ``new`` told in
    two clauses ("sold the Civic and now drives a Tesla") is read by memengine/fact_clauses.py."""
    fa = old if isinstance(old, Fact) else analyse(old)
    fb = new if isinstance(new, Fact) else analyse(new)
    if fact_mood.unasserted(fb.text):
        return None  # a question, a plan not yet decided, a past anecdote: nothing changed
    if fact_occasion.one_off(fa.text, fb.text):
        return None  # "opens at 11 on saturday", "this week only": an exception, the standing value holds
    if _adds(fa, fb):
        return None  # "I also take ...", "We got another dog": an addition replaces nothing
    if fact_same.kin_added(fa.text, fb.text):
        return None  # "my son is reading Dune": someone else's fact
    handed = fact_handover.successor(fa, fb) or fact_handover.reported_to(fa, fb) if fa.words else None
    if handed is not None:  # "Dr. Patel retired, so now Dr. Okoro is my GP": the second clause decides
        return _compare_frames(fa, analyse(handed), similarity)
    verdict = _compare_frames(fa, fb, similarity)
    if verdict is None and fa.words and _TWO_CLAUSES.search(fb.text):
        verdict = fact_clauses.compare_clauses(
            fa, fb, analyse, _compare_frames, lambda v: v.kind,
            lambda was, now: Verdict("slot", f"slot changed: {was} -> {now}", 0.8)) or _first_denies(fa, fb)
    if verdict is None:
        placed = fact_place.moved(fa.text, fb.text, fb.keys)  # "is kept under the doormat" / "I put ... in ... now"
        if placed is not None:
            verdict = Verdict("place", "place changed for '{}': {} -> {}".format(*placed), 0.8)
    if verdict is None and fa.words:
        gone = fact_disposed.disposed(fa, fb)  # "Nadia quit the library, ...", "killed jira, ..."
        if gone is not None:
            verdict = Verdict("slot", f"value given up: {gone}", 0.75)
    if verdict is None and fa.words:
        swapped = fact_disposed.slot_swapped(fa, fb)  # "j'ai changé de coiffeur, ...", "ho cambiato numero"
        if swapped is not None:
            verdict = Verdict("slot", f"changed for another: {swapped}", 0.75)
    if verdict is not None and verdict.kind in ("time", "date", "slot", "number") and fact_same.other_boundary(fa, fb):
        return None  # "the clinic closes at 6pm" / "opens at 8am": another end of the same thing
    return verdict



def _first_denies(fa: Fact, fb: Fact) -> Verdict | None:
    """A first clause that denies the old fact, whatever the second adds: "non sono più vegano, mangio
    di nuovo formaggio", "not vegetarian anymore, had a burger", "ya no fumo, lo dejé en marzo". Only a
    negation of the same frame counts: a first clause with another value is the second clause's context."""
    parts = fact_clauses.split_text(fb.text)
    if parts is None:
        return None
    first = analyse(parts[0])
    if first.polarity == fa.polarity or fact_same.kin_added(fa.text, first.text):
        return None
    al = _align(fa, first)
    quits = bool(first.keys & L.CESSATION)  # "quit football": the verb of stopping stands for "plays"
    if al.only_b or any(i != fa.predicate or not quits for i in al.only_a):
        return None  # the whole older frame is denied, its verb aside ("quit football" for "plays football"),
        # nothing else said of it ("Noah quit soccer" denies no "swims on Sundays")
    verdict = _compare_frames(fa, first)
    return verdict if verdict is not None and verdict.kind in ("negation", "antonym", "preference") else None


def restated(old: str | Fact, new: str | Fact) -> Verdict | None:
    """Whether ``new`` restates ``old``'s number without its subject ("I weigh 82 kg" / "Now at 78 kg",
    memengine/fact_elliptic.py). Not part of :func:`compare`: only a write asks, in
    memengine/supersession.py, which sees every candidate and supersedes none when two read so
    (consolidate compares pairs one by one: "I weigh 82 kg" and "My suitcase weighs 23 kg" would both)."""
    fb_text = new.text if isinstance(new, Fact) else new
    if len(fb_text) > 80 or not any(ch.isdigit() for ch in fb_text) or fact_mood.unasserted(fb_text):
        return None
    old_text = old.text if isinstance(old, Fact) else old
    if fact_occasion.one_off(old_text, fb_text):
        return None
    measured = fact_elliptic.restated(old_text, fb_text)
    if measured is None:
        return None
    unit, was, now = measured
    return Verdict("number", f"number {fact_elliptic.REASON}: {was} -> {now} {unit}", 0.75)


_ADDING = fact_change.ADDITIVE | fact_change.ANOTHER


def _adds(fa: Fact, fb: Fact) -> bool:
    """Whether ``fb`` says "also" / "too" / "another" (in any of the five languages) and ``fa`` does not."""
    return bool(fb.adding) and not fb.adding <= fa.adding


_TWO_CLAUSES = re.compile(r"(?<!\d),(?!\s*\d)|\s(?:and|et|y|und|e)\s", re.I)


def _compare_frames(fa: Fact, fb: Fact, similarity: float | None = None) -> Verdict | None:
    """:func:`compare` for one frame each."""
    if not fa.words or not fb.words:
        return None
    if fa.identifiers != fb.identifiers and fa.identifiers and fb.identifiers:
        return None  # "version 2 ..." vs "version 3 ...": two things
    al = _align(fa, fb)
    renamed = _suffixed_name(fa, fb, al) if fa.polarity == fb.polarity else None
    if renamed is not None:
        return renamed
    if fb.change and fa.polarity == fb.polarity:  # (a negation, "now" or not, is read below)
        return _compare_change(fa, fb, al, similarity)
    smaller = min(len(fa.words), len(fb.words))
    if not al.shared or len(al.shared) < MIN_SHARED * smaller:
        return None
    dropped = [i for i in al.only_a if i < fa.subject_end]
    if dropped and not _in_subject(fb, al.only_b) and fact_dropped.droppable(fa, dropped, fb, change_verb=False):
        # "The kids' school starts at 8:15" / "school starts at 8:40": the owner left unsaid is the older's
        al = _Alignment(al.shared, [i for i in al.only_a if i not in dropped], al.only_b)
    if _in_subject(fa, al.only_a) or _in_subject(fb, al.only_b):
        return None  # "Lena's sister", "the admin gateway": another subject
    if len(al.only_a) > 1 or len(al.only_b) > 1:
        return _modifier_swap(fa, fb, al, similarity)
    conf = 0.8 + (0.1 * max(0.0, min(1.0, similarity)) if similarity is not None else 0.05)
    topic = _topic(fa, al)
    flipped = fa.polarity != fb.polarity
    swap = (al.only_a[0], al.only_b[0]) if al.only_a and al.only_b else None
    verbs = (_verb_like(fa, swap[0]), _verb_like(fb, swap[1])) if swap is not None else (False, False)
    if verbs[0] != verbs[1]:
        return None  # a verb against a complement ("is scheduled for Friday" / "is on Friday afternoon")
    if swap is not None and fa.words[swap[0]].key.startswith("AX:") != fb.words[swap[1]].key.startswith("AX:"):
        return None  # a state against a value ("is open on Sundays" / "is on Elm Street")
    # two verbs, every other word and value shared: a restatement ("is led by Hana" / "Hana leads")
    # or another relation, never a new value of one slot
    predicate_swap = verbs[0] and verbs[1]
    value = _value_conflict(fa, fb)
    if value is not None:
        if flipped or (swap is not None and not predicate_swap):
            return None  # "doesn't live in Porto" / "lives in Lisbon" can both hold
        if _before_verb(fa, al.only_a) or _before_verb(fb, al.only_b):
            return None  # "La cantine | des professeurs | ouvre à 12h": another, more precise subject
        kind, what = value
        return Verdict(kind, f"{kind} changed for '{topic}': {what}", round(conf, 3))
    if swap is not None and not predicate_swap:
        if flipped or not (fa.exclusive and fb.exclusive):
            return None
        if fact_scope.values_differ_in_kind(fa, fb) or (
                fact_scope.purpose_words(fa, [swap[0]]) and fact_scope.purpose_words(fb, [swap[1]])):
            return None  # "7 hours a night" / "in room 12"; "pour aller au travail" / "chez ma mère": not the value
        wa, wb = fa.words[swap[0]], fb.words[swap[1]]
        kind = "place" if wa.place and wb.place else "preference" if any(
            w.key == "AX:prefers" for w in fa.words) else "slot"
        return Verdict(kind, f"{kind} changed for '{topic}': {wa.text} -> {wb.text}", round(conf, 3))
    if flipped:
        if al.only_a and al.only_b and not predicate_swap or _negates_an_addition(fa, fb, al):
            # (the second: "black" / "black with no sugar" adds a fact, it does not deny one)
            return None
        axis = next((w.key[3:] for w in fa.words + fb.words if w.key.startswith("AX:")
                     and any(n.lower() == w.text.lower() for n in fa.negations + fb.negations)), None)
        if axis is not None:
            kind = "preference" if axis in ("likes", "prefers") else "antonym"
            return Verdict(kind, f"opposite '{axis}' for '{topic}'", round(conf, 3))
        if any(fa.words[i].key in ("AX:likes", "AX:prefers") for i, _ in al.shared):
            return Verdict("preference", f"preference reversed ('{(fb.negations or fa.negations)[0]}') "
                           f"for '{topic}'", round(conf, 3))
        word = (fb.negations or fa.negations)[0]
        return Verdict("negation", f"negation ('{word}') of '{topic}'", round(conf, 3))
    return None


def _suffixed_name(fa: Fact, fb: Fact, al: _Alignment) -> Verdict | None:
    """A name and the same name with a suffix or prefix, each side's only word of its own:
    "is called HomeNet" / "is called HomeNet-5G" (read as a code) is a new value of the slot."""
    if len(al.only_a) + len(al.only_b) != 1 or not al.shared:
        return None
    word_side, code_side, idx = (fa, fb, al.only_a[0]) if al.only_a else (fb, fa, al.only_b[0])
    if idx < word_side.subject_end or any(v.kind == "code" for v in word_side.values):
        return None
    key = word_side.words[idx].text.lower()
    own = [v for v in code_side.values if v not in word_side.values]
    if len(own) != 1 or own[0].kind != "code" or len(code_side.values) != len(word_side.values) + 1:
        return None
    parts = own[0].text.lower().split("-")
    if len(parts) < 2 or key not in (parts[0], parts[-1]):
        return None
    was, now = (word_side.words[idx].text, own[0].text) if word_side is fa else (own[0].text, word_side.words[idx].text)
    return Verdict("slot", f"name changed for '{_topic(fa, al)}': {was} -> {now}", 0.8)


def _modifier_swap(fa: Fact, fb: Fact, al: _Alignment, similarity: float | None) -> Verdict | None:
    """One modifier of a shared thing replaced by a two-word one, at the same place after the
    same shared word: "drinks his coffee black" / "drinks his coffee with oat milk"."""
    a, b = al.only_a, al.only_b
    if not a or not b or len(a) > 2 or len(b) > 2 or not (_run(a) and _run(b)) or fa.values or fb.values:
        return None
    if fa.polarity != fb.polarity or not (fa.exclusive and fb.exclusive) or fa.change or fb.change:
        return None
    if any(_verb_like(fa, i) for i in a) or any(_verb_like(fb, i) for i in b):
        return None
    if any(fa.words[i].key.startswith("AX:") or fa.words[i].name for i in a) or any(
            fb.words[i].key.startswith("AX:") or fb.words[i].name for i in b):
        return None
    if fact_scope.purpose_words(fa, a) and fact_scope.purpose_words(fb, b):
        return None  # "para ir al trabajo" / "para ir a casa de mi abuela": what it is for, not how
    pairs = dict(al.shared)
    before_a, before_b = min(a) - 1, min(b) - 1
    if before_a < 0 or pairs.get(before_a) != before_b or max(a) != len(fa.words) - 1 or max(b) != len(fb.words) - 1:
        return None  # both at the end, after the same shared word
    if fa.predicate is None or fb.predicate is None or not (fa.predicate < before_a and fb.predicate < before_b):
        return None  # ... which is the object of the verb ("coffee"), not the subject or the verb itself
    conf = 0.75 + (0.1 * max(0.0, min(1.0, similarity)) if similarity is not None else 0.05)
    was, now = " ".join(fa.words[i].text for i in a), " ".join(fb.words[i].text for i in b)
    return Verdict("slot", f"slot changed for '{_topic(fa, al)}': {was} -> {now}", round(conf, 3))


def _verb_like(f: Fact, i: int) -> bool:
    """Whether word ``i`` is the sentence's verb, or a passive one ("led by"); never the thing a number
    measures, read as the verb when "has" is left out ("has 32 GB of memory": "memory" names the quantity,
    and "2 TB of disk" is another one)."""
    if any(v.kind == "number" and 0 < f.words[i].pos - v.pos <= 3 for v in f.values):
        return False
    return i == f.predicate or f.words[i].agent or f.words[i].key in ("AX:likes", "AX:prefers")


def _negates_an_addition(fa: Fact, fb: Fact, al: _Alignment) -> bool:
    """Whether the one side's extra negations each govern a word only that side has, the other
    side having no word of its own: "with no sugar" adds a fact about sugar."""
    more, extra, other = (fb, al.only_b, al.only_a) if len(fb.negations) > len(fa.negations) \
        else (fa, al.only_a, al.only_b)
    if not extra or other:
        return False
    extra_pos = {more.words[i].pos for i in extra}
    text = [w.pos for w in more.words]
    negs = [i for i, w in enumerate(read_tokens(prepare(more.text))) if w.role == "" and i not in text
            and w.low in {n.lower() for n in more.negations}]
    for n in negs:
        nxt = next((p for p in text if p > n), None)
        if nxt is None or nxt not in extra_pos:
            return False
    return bool(negs)


def _run(idx: list[int]) -> bool:
    """Whether word indices are one contiguous run ("green tea")."""
    return not idx or max(idx) - min(idx) == len(idx) - 1


def _same_pronoun_change(fa: Fact, fb: Fact) -> bool:
    """Nothing shared but the pronoun: "we use GitLab" / "we switched from GitLab to GitHub" (the
    old value named), or "we use Jira" / "we moved to Linear" (one name for another)."""
    if not fa.pronoun or fa.pronoun != fb.pronoun or fb.change != "verb":
        return False
    if fb.old_words:
        return True
    rest = [w for i, w in enumerate(fa.words) if i != fa.predicate]
    return bool(rest) and all(w.name for w in rest + fb.words) and all(w.pos in fb.new_pos for w in fb.words)


def _compare_change(fa: Fact, fb: Fact, al: _Alignment, similarity: float | None) -> Verdict | None:
    """``fb`` says a slot changed ("switched from Jira to Linear", "moved to Friday", "now uses"):
    its verb stands for ``fa``'s verb, the old value it names must be ``fa``'s, and the new value
    may be a phrase ("green tea", "GitHub Actions")."""
    only_a, only_b = list(al.only_a), list(al.only_b)
    if not al.shared and not _same_pronoun_change(fa, fb):
        return None
    if fb.change == "verb" and fa.predicate in only_a:
        only_a.remove(fa.predicate)  # "switched to" stands for "uses", "moved to" for "is on"
    named_old = bool(fb.old_words or fb.old_values)
    held: list[int] = []
    if named_old:
        fa_values = {(v.kind, v.norm) for v in fa.values}
        if not all((v.kind, v.norm) in fa_values for v in fb.old_values):
            return None
        held = [i for i in only_a if any(_same_word(fa.words[i].key, k) for k in fb.old_words)]
        if len(held) < len({k for k in fb.old_words}) and fb.old_words:
            return None  # "from Trello to Jira" does not update "uses Jira"
        only_a = [i for i in only_a if i not in held]
        if only_a and any(fb.words[i].pos not in fb.new_pos for i in only_b):
            return None  # each side keeps words of its own: "GitLab for CI" / "to GitHub for the wiki"
    if al.shared and len(al.shared) + len(held) < MIN_SHARED * min(len(fa.words), len(fb.words) + len(held)):
        return None
    # who made the change may be whose the thing is: "A escola aumentou a mensalidade" / "A mensalidade
    # da escola": neither needed nor a conflict
    only_a = [i for i in only_a if not any(_same_word(fa.words[i].key, k) for k in fb.changer)]
    dropped = [i for i in only_a if i < fa.subject_end]
    if dropped and not _in_subject(fb, only_b) and (fact_dropped.droppable(fa, dropped, fb) or fact_dropped.droppable(
            fa, dropped, fb, change_verb=False)):
        only_a = [i for i in only_a if i not in dropped]  # "Mum's physio appointment" / "Physio appointment"
    if _in_subject(fa, only_a) or _in_subject(fb, only_b):
        return None
    if fa.polarity != fb.polarity or len(only_a) > fact_change.MAX_PHRASE or len(only_b) > fact_change.MAX_PHRASE:
        return None
    if fb.change != "verb" and (fa.predicate in only_a or fb.predicate in only_b or len(only_a) > 2
                                or len(only_b) > 2):
        return None  # "now" keeps the verb: "now drinks green tea" updates "drinks espresso" only
    conf = 0.8 + (0.1 * max(0.0, min(1.0, similarity)) if similarity is not None else 0.05)
    topic = _topic(fa, al)
    value = _value_conflict(fa, fb)
    if value is not None:
        kind, what = value
        return Verdict(kind, f"{kind} changed for '{topic}': {what}", round(conf, 3))
    if not only_b or not (only_a or named_old) or not (_run(only_a) and _run(only_b)):
        return None
    if not named_old and fact_scope.values_differ_in_kind(fa, fb):
        return None  # "lavoro da Fiat" / "adesso lavoro in ufficio il mercoledì": when, not where
    was = " ".join(fb.old_words) if named_old else " ".join(fa.words[i].text for i in only_a)
    now = " ".join(fb.words[i].text for i in only_b)
    kind = "place" if all(fb.words[i].place for i in only_b) and only_a and all(
        fa.words[i].place for i in only_a) else "preference" if any(
        w.key == "AX:prefers" for w in fa.words) else "slot"
    return Verdict(kind, f"{kind} changed for '{topic}': {was} -> {now}", round(conf, 3))


def other_subjects(a: str | Fact, b: str | Fact) -> bool:
    """Whether the frame rules read two subjects in ``a`` and ``b`` ("My flight to Boston ..." /
    "My flight to Denver ...", "The train ..." / "The return train ..."): consolidate then asks no
    other detector whether they disagree."""
    fa = a if isinstance(a, Fact) else analyse(a)
    fb = b if isinstance(b, Fact) else analyse(b)
    if not fa.words or not fb.words:
        return False
    al = _align(fa, fb)
    return bool(al.shared) and (_in_subject(fa, al.only_a) or _in_subject(fb, al.only_b)
                                or _before_verb(fa, al.only_a) or _before_verb(fb, al.only_b))


def same_fact(a: str | Fact, b: str | Fact) -> bool:
    """Whether ``a`` and ``b`` state the same fact: same content words (inflection,
    listed synonyms and a swapped verb aside), identical values, polarity and modals."""
    fa = a if isinstance(a, Fact) else analyse(a)
    fb = b if isinstance(b, Fact) else analyse(b)
    if fa.polarity != fb.polarity or fa.modals != fb.modals or fa.identifiers != fb.identifiers:
        return False
    if _by_kind(fa) != _by_kind(fb):
        return False
    if sorted(k for k in fa.keys if k in L.WORD_NUMBERS) != sorted(k for k in fb.keys if k in L.WORD_NUMBERS):
        return False  # "My PIN is dos" / "My PIN is tres": a number word read as no value is still one
    al = _align(fa, fb)
    if not all(_restated(fa.words[i], fb.words[j]) for i, j in al.shared):
        return False  # "Ivan" / "Ivana", "tigertwo" / "tigerthree": two values, not one word inflected
    if fact_same.name_articles(fa.text) != fact_same.name_articles(fb.text):
        return False  # "Salvador" / "El Salvador", "Paz" / "La Paz": another place, not the same name
    if any(fact_same.count_changed(fa, fb, i, j) for i, j in al.shared):
        return False  # "in the drawer" / "in the drawers": another value, not an inflection
    if not al.only_a and not al.only_b:
        return True
    if len(al.only_a) == 1 and len(al.only_b) == 1:
        return al.only_a[0] == fa.predicate and al.only_b[0] == fb.predicate
    return False


def _restated(wa: Word, wb: Word) -> bool:
    """Whether two aligned words are one word for :func:`same_fact`, which merges: stricter than the
    alignment. A name is the same name, inflected ("Lyon" / "Lyons") or written out ("Keiko" /
    "Keiko Tanaka"); another word shares all but a short ending ("allergic" / "allergy")."""
    a, b = wa.key, wb.key
    if a == b or _stem(a) == _stem(b):
        return True
    if wa.name or wb.name:
        return a.startswith(b + " ") or b.startswith(a + " ")
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return len(a) - n <= 3 and len(b) - n <= 3
