"""Chat turns that update each other: the newer one first (issue 19, round 8).

"we booked the cabin for the 12th-15th" and, a week later, "Kahu moved us to 19-22" both
answer "when is the cabin trip?", and the first is worded closer to the question. Facts
stored as facts are retired by the facts engine at write time (memengine/supersession.py);
chat turns are events and never supersede each other there. At recall time, among the top
``k`` only, a later turn of the same chat that changes the value of an earlier one is moved
to just above it, and the earlier one is marked ``possibly_outdated`` (by the later ids):
nothing leaves the results, the order of the others is kept.

Either way both turns must hold a value (a date, time, weekday, number: memengine/fact_tokens.py)
and not the same ones. Who decides that the later turn changes the earlier one's value (``RecallConfig.newer_first``):

* ``rules`` — the facts engine's own frame rules on the pair (facts.compare: the same frame
  with another value; facts.restated: a number restated without its subject);
* ``slot`` — the recall's question is the slot both answer (they are its top hits): the later
  one states a change (fact_cue.find_cue: "moved", "pushed", "now", "instead"...)
  and is asserted (fact_mood.unasserted: not a question or a plan);
* ``either`` — the two together;
* ``turns`` — ``slot``, an idiom that counters, prefers or settles a value counting as a cue too
  (memengine/recall/counter.py; round 9: updates said without a change word);
* ``named`` — ``turns``, and two links that need no shared word (memengine/recall/replaced.py; round 10):
  a later turn naming the earlier one's value as replaced ("wednesday not tuesday", "16h30 au lieu de
  15h", "Mittwoch statt Dienstag"), and a short settlement ("yep 12 then", "ok dann 8") within CLOSE
  turns after a top hit of the thread.
* ``forms`` — ``named``, and (round 11) a value restated in the same form with no change word ("200 a night
  now" / "180 a night", "puede del 31 al 2" / "libre del 28 al 30"), a settlement after a counter-proposal
  that no proposal holds ("leaving at 3?" / "I finish at 4" / "ok 4:30 then"), a bare hour naming a pm time
  ("6 instead of 7" / "friday 7pm"), and a named update answering the earlier turn it shares a word with
  ("grandpa gets tired late, 6 instead of 7?" names "grandpa's 80th, 7pm", not "soccer at 7").

Across threads (round 17, ``across``): people come back to a subject in a new conversation with an assistant
days later ("we signed with the kitchen fitter, install is 3 March" / two weeks on, another chat: "the fitter
moved the kitchen install to 17 March"), and a notes folder keeps one file per thread. A pair may join two
threads of one import source of one person: the user's own turns of a ChatGPT / Claude export (ACROSS_CHATS),
or the files of a notes import (ACROSS_NOTES, one author); the later one said at a later time, sharing
ACROSS_STEMS content-word stems with the earlier one (its subject named again: two conversations share no
context) and changing its value by the tests above that need no nearness (a cue or a counter idiom, a value
named as replaced, a value restated in the same form). Never across a chat with other people (WhatsApp: each
chat its own thread), never across sources (another store's shared memories included).

Costs nothing with the switch off; on, the facts modules load on the first recall that has two
turns of one chat holding values in its top k (~0.25 s once per process).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable
from typing import Any

from memengine.recall.counter import asked_kinds, asks_first, counters, kind_fits
from memengine.recall.episodes import is_episode
from memengine.recall.replaced import (
    agrees,
    bare_hours,
    forms,
    kin,
    may_name,
    names_replaced,
    pm_same,
    replaced_fragments,
    restated,
    same_value,
    settled,
    settles,
)
from memengine.records import Candidate
from memengine.text import bare_text, count_words, query_terms

MODES = ("", "rules", "slot", "either", "turns", "named", "forms", "restate", "units")
# ``restate`` (round 11, off: bench/README.md): ``forms``, and a later short turn sharing a word with an earlier
# top hit and stating another value of the kind the question asks counts as an update with no change word
# ("le piano c'est 420 avec l'escalier" / "le piano ... devis à 350")
FORMS = ("forms", "restate", "units")
# ``units`` (round 20): ``forms``, and a later turn stating another number right beside the same word as the
# earlier one, in any language ("300 porsi" / "nambah jadi 350 porsi", "Rp 38.000/kg" / "naik jadi Rp
# 42.000/kg", "89 kg now" / "down to 84 kg", "por 3 canciones" / "son 4 canciones"): the unit or counted thing
# names the slot, the number its value, and no change word need be read (the cue lexicon reads six languages).
RESTATE_WORDS = 12
# ``turns`` (round 9): ``slot``, and a later turn holding a counter / preference / settlement idiom
# (memengine/recall/counter.py: "sunday works better, 7pm?", "can't do 11, 1pm?") counts as a cue too;
# within CLOSE positions of the earlier turn (a reply in the same exchange), both in the top k, such a
# turn needs no shared content word and may speak of its author ("can we do the 21st, I'm away on the 14th").
CLOSE = 3
# An update is said in a message ("Kahu moved us to 19-22"), not in a long answer: a later turn of more
# words is never read as one (an assistant's recipe or plan holds numbers and "change" words throughout).
UPDATE_WORDS = 40
_WORDS = re.compile(r"[^\W\d_]+")
# A turn fusion did not score is read only if it is a short message (a named update or a settlement is a
# line: "garage rang, wednesday not tuesday"): ~150 such candidates a recall at 100k, most of them long.
NAMED_CHARS = 200
# Round 17: the import sources whose threads are one person's own (``across``): an assistant export's
# conversations, where only the user's turns are that person's ("User" in both importers), and a notes import.
ACROSS_CHATS = frozenset({"chatgpt", "claude"})
ACROSS_USER = "User"
ACROSS_NOTES = frozenset({"markdown"})
# Two conversations share no context: the later turn names the subject again ("the fitter moved the kitchen
# install" / "we signed with the kitchen fitter"), by two stems at least. (One is chance across months of
# chats: round 16's held-out Claude export paired "the Yaris seller dropped to 12,800 €. The mechanic ...
# found the brake discs are worn; 280 € to replace" with "Ana found a place in Alvalade ... asking 1,750 €"
# by "found" alone, asked what the flat cost: bench/README.md, "Round 17".)
ACROSS_STEMS = 2


# Per-text results are kept per process (a warm server meets the same turns again; each is a pure
# function of the text, a few hundred bytes at most): the value reader costs ~0.2-0.5 ms a text.
_CACHE = 4096


@functools.lru_cache(maxsize=_CACHE)
def _values(text: str) -> frozenset[tuple[str, tuple[object, ...]]]:
    from memengine import fact_tokens as T

    vals, _ = T.read_values(T.read_tokens(T.prepare(text), text), T.guess_lang(text))
    # a number's kind is its unit ("3 months" is a duration, "the 18th" a day): another unit, another slot
    out = {(f"{v.kind}:{v.norm[0]}" if v.kind == "number" and v.norm and v.norm[0] not in ("", "ordinal")
            else v.kind, v.norm[1:] if v.kind == "number" and v.norm else v.norm) for v in vals}
    # the value reader has no word for the two named times ("agent says noon is better for her")
    out.update(("time", (_NAMED_TIMES[w],)) for w in _NAMED_TIME.findall(text.lower()))
    return frozenset(out)


def values_of(text: str) -> frozenset[tuple[str, tuple[object, ...]]]:
    """The values a chat turn's bare text states, as ``(kind, normalised value)`` pairs (a number's kind
    carries its unit: "number:eur"); kept per text per process."""
    return _values(text)


_NAMED_TIMES = {"noon": 720, "midday": 720, "midnight": 0, "midi": 720, "minuit": 0}
_NAMED_TIME = re.compile(r"\b(" + "|".join(_NAMED_TIMES) + r")\b")


@functools.lru_cache(maxsize=1)
def _cue_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """Every word that can start a change cue in fact_cue's lexicon (its words, not a copy), and the
    suffixes of its compound change nouns."""
    from memengine import fact_cue_lexicon as C

    words: set[str] = set()
    for group in (C.NOW_PHRASES, C.NEW_WORDS, C.CHANGE_NOUNS, C.CHANGE_VERBS, C.MOTION_VERBS, C.HOLDER_VERBS,
                  C.LEAVE_VERBS, C.LEAVE_VERBS_LAST, C.HABIT_VERBS):
        words.update(w for phrase in group for w in phrase.split())
    words.update(("ne", "n", "kein", "keine", "keinen", "keinem", "nicht", "nao", "not"))  # fact_cue._discontinuous
    return frozenset(words), tuple(C.CHANGE_NOUN_SUFFIXES)


@functools.lru_cache(maxsize=_CACHE)
def _may_cue(text: str) -> bool:
    """Whether ``text`` holds a word a change cue can be made of: the cheap gate before fact_cue's whole
    reading (whose modules cost ~0.1-0.3 s to load in a cold process; the lexicon alone ~0.03 s)."""
    from memengine.fact_lexicon import fold

    words, suffixes = _cue_words()
    return any(w in words or w.endswith(suffixes) for w in (fold(t) for t in _WORDS.findall(text)))


@functools.lru_cache(maxsize=1)
def _change_words() -> frozenset[str]:
    """fact_cue's change lexicon as words (memengine/fact_cue_lexicon.py): each one-word cue ("now", "agora",
    "jetzt", "retired"), and the words of its phrases that are no stop word ("fin" of "à la fin", not its "à")."""
    from memengine import fact_cue_lexicon as C
    from memengine.fact_lexicon import STOPWORDS

    out: set[str] = set()
    for group in (C.NOW_PHRASES, C.NEW_WORDS, C.CHANGE_NOUNS, C.CHANGE_VERBS, C.MOTION_VERBS, C.HOLDER_VERBS,
                  C.LEAVE_VERBS, C.LEAVE_VERBS_LAST, C.HABIT_VERBS):
        for phrase in group:
            words = phrase.split()
            out.update(words if len(words) == 1 else (w for w in words if w not in STOPWORDS))
    return frozenset(out)


@functools.lru_cache(maxsize=_CACHE)
def change_word(text: str) -> bool:
    """Whether a turn's bare text holds a word of fact_cue's change lexicon (:func:`_change_words`: "agora",
    "saiu", "now", "retired", "jetzt", "finalement"; not the "a", "de", "que" its phrases are made of too): the
    lexicon's words, read without its phrases' grammar (~2 us a text, kept per text per process)."""
    from memengine.fact_lexicon import fold

    words, suffixes = _change_words(), _cue_words()[1]
    return any(w in words or w.endswith(suffixes) for w in (fold(t) for t in _WORDS.findall(text)))


def change_stems(text: str) -> frozenset[str]:
    """The :func:`stems` of a text's change words (:func:`change_word`'s: "moved" → "move", "switched" →
    "swit"): the words that say a change, which name no subject a newer and an older text share."""
    from memengine.fact_lexicon import fold

    words, suffixes = _change_words(), _cue_words()[1]
    found = " ".join(t for t in _WORDS.findall(text) if (w := fold(t)) in words or w.endswith(suffixes))
    return _stems(found) if found else frozenset()


@functools.lru_cache(maxsize=_CACHE)
def _slot_update(new: str) -> bool:
    from memengine import fact_cue, fact_mood

    return fact_cue.find_cue(new) is not None and not fact_mood.unasserted(new)


def _rules_update(old: str, new: str) -> bool:
    from memengine import facts

    fb = facts.analyse(new)
    return (facts.compare(old, fb) or facts.restated(old, fb)) is not None


def _half_day(values: frozenset[tuple[str, tuple[object, ...]]]) -> frozenset[tuple[str, tuple[object, ...]]]:
    """``values`` with each time of day read modulo twelve hours."""
    return frozenset((k, (v[0] % 720,) if k == "time" and v and isinstance(v[0], int) else v) for k, v in values)


def updates(old: str, new: str, mode: str, memo: dict[tuple[str, str], Any] | None = None,
            close: bool = False, asked: frozenset[str] | None = None) -> bool:
    """Whether the chat turn ``new`` (said later) changes the value the turn ``old`` gave, by ``mode``.

    Either way both must hold a value of one kind and not the same ones (a change of value is what
    is ranked: the rules' polarity flips and anything said without a value are left alone). The
    cheapest test first, each module loaded only when the one before passed (a cold process pays
    ~10 ms for the value reader, ~7 for the cue lexicon, ~60 more for fact_cue and fact_mood): with
    ``slot``, the values, then a word a cue can be made of, then the cue itself — the cue before the
    values once fact_cue is loaded (a warm process: the cue costs ~0.2 ms a text, the values ~0.5).
    ``close``: the pair passed on nearness alone (``turns``), so only a counter idiom can make it one.
    ``asked``: the value kinds the question asks for (counter.asked_kinds; None: any), one of which
    must be among those that changed.
    ``memo`` keeps each result per text across the pairs of one recall."""
    if mode not in MODES or not mode:
        return False
    memo = {} if memo is None else memo

    def got(kind: str, text: str, fn: Any) -> Any:
        if (kind, text) not in memo:
            memo[kind, text] = fn(text)
        return memo[kind, text]

    counter = mode in ("turns", "named", *FORMS) and got("counter", new, counters)
    if close and not counter:
        return False
    if (mode in ("slot", "turns", "named", "forms") and not counter and "memengine.fact_cue" in sys.modules
            and not (got("may", new, _may_cue) and got("cue", new, _slot_update))):
        return False  # (a warm process: the cue first, ~0.2 ms a text against ~0.5 for the values)
    a, b = got("values", old, _values), got("values", new, _values)
    if mode in FORMS:  # (round 11: an hour reads in either half of the day: "the vendor call at 3 on thursday
        # is no longer happening" keeps "dentist thursday 3pm"'s time, so it changes no value of it)
        a, b = _half_day(a), _half_day(b)
    kinds = {k for k, _ in a} & {k for k, _ in b}
    changed = {k for k in kinds if {v for v in a if v[0] == k} != {v for v in b if v[0] == k}}
    if not changed or not kind_fits(changed, asked):
        return False  # no value of one kind on both sides ("pitch 3" / "kickoff at 11:15"), the same ones,
        # or none of the kind the question asks ("how many people?" / a time moved)
    if counter:
        return True
    if mode != "rules" and got("may", new, _may_cue) and got("cue", new, _slot_update):
        return True
    if mode == "restate" and asked is not None and "?" not in new and count_words(new, RESTATE_WORDS + 1) <= RESTATE_WORDS:
        return True
    if mode == "units" and unit_link(old, new):
        return True
    return mode in ("rules", "either") and _rules_update(old, new)


_UNIT_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+|[$€£¥₹]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*")
# Words after a number that name no slot: an hour's ("6 pm", "9 Uhr"), a currency (every price of a chat stands
# beside it: "Rp 42.000/kg" for the chicken, "harga tetap Rp 25.000" for the lunch boxes; the thing priced names
# the slot), a span of time ("7 days" of antibiotics, "3 days 2 nights" of camp).
_NO_UNIT = frozenset("""am pm uhr hrs h rp usd eur euro euros gbp chf nok sek dkk pln zł zl kr kc tl try inr rs php mxn
brl sgd aud cad nzd zar kes jpy yen won dollars dollar bucks pesos peso reais rupees lira zloty zlotych kronor kroner
mil juta ribu rb jt lei forint ft
day days night nights hour hours hr minutes minute min mins sec secs seconds weeks wks hari malam jam menit minggu
bulan tahun dias dia noches horas hora minutos semanas meses anos jours jour nuits heures heure semaines mois ans
tage tag nachte stunden stunde minuten wochen monate jahre dni dzien godzin godziny minut tygodni miesiecy lat
dagar dag timmar minuter veckor manader ar gun saat dakika hafta ay yil""".split())
# month words the calendar pattern above does not start (other languages'; "7 Juni" is read there already)
_MONTH_WORD = re.compile(r"(?:mei|agu|okt|des|ene|abr|ago|dic|mai|avr|aout|maj|sty|lut|kwi|cze|lip|sie|wrz|paz|lis|gru)")


def _number(token: str) -> str:
    """A number token as one spelling: "12,000", "12.000" and "12000" alike ("3.25" kept)."""
    return re.sub(r"[.,]", "", token) if _THOUSANDS.fullmatch(token) else token.replace(",", ".")


@functools.lru_cache(maxsize=_CACHE)
def unit_forms(text: str) -> frozenset[tuple[str, str]]:
    """``(word, number)`` for each number of ``text`` and the word right after it ("300 porsi", "38.000/kg", "por
    3 canciones": ("porsi", "300"), ("kg", "38000"), ("canciones", "3")): a unit or counted thing, in any language
    that names it after the number. The word before a number is most often a verb or a preposition ("wynoszą
    720", "mulai 13", "jadi 55") and gives none; nor does a function word, a currency, a span of time or a
    calendar word ("at 5", "720 zł", "7 days", "7 Juni"), nor a number written into a word or a time ("6pm",
    "10:30")."""
    from memengine.fact_lexicon import STOPWORDS, fold

    toks = [(m.group(), m.start(), m.end()) for m in _UNIT_TOKEN.finditer(text)]
    out: set[tuple[str, str]] = set()
    for (tok, start, end), (word, ws, _) in zip(toks, toks[1:]):
        if (not _NUMBER.fullmatch(tok) or text[end:ws].strip(" /") or (start and text[start - 1] in ":")
                or (end < len(text) and text[end] == ":")):
            continue  # (only a space or a slash between: "38.000/kg", not "300, and")
        w = fold(word)
        if (len(w) >= 2 and w.isalpha() and w not in STOPWORDS and w not in _NO_UNIT
                and not _VALUE_WORD.match(w) and not _MONTH_WORD.match(w)):
            out.add((w, _number(tok)))
    return frozenset(out)


def unit_link(old: str, new: str) -> bool:
    """Whether the later turn ``new`` states another number beside a word the earlier ``old`` states one beside,
    and none of ``old``'s numbers there (a restated figure is no change): "40 kotak per hari" / "55 kotak per
    hari". (The values' kinds are checked by :func:`updates` before.)"""
    a, b = unit_forms(old), unit_forms(new)
    if not a or not b:
        return False
    for word in {w for w, _ in a} & {w for w, _ in b}:
        was, now = {n for w, n in a if w == word}, {n for w, n in b if w == word}
        if now - was and not (was & now):
            return True
    return False


@functools.lru_cache(maxsize=_CACHE)
def _stems(text: str) -> frozenset[str]:
    """Content-word stems, crudely (the first four letters of content words of four letters or more, as
    the brief counts content words: no stop word, no filler): "booked" / "booking" share "book"."""
    # (the talk words from memengine.text and fillers from topic_words, not summarize: a note store's cold recall
    # would import the brief's modules, ~20 ms)
    from memengine.text import STOPWORDS, TALK_STOPWORDS
    from memengine.topic_words import is_filler

    return frozenset(w[:4] for w in query_terms(text) if len(w) >= 4 and w.isalpha()
                     and w not in STOPWORDS and w not in TALK_STOPWORDS and not is_filler(w))


def stems(text: str) -> frozenset[str]:
    """A text's content-word stems, crudely (the first four letters of its content words of four letters or
    more, stop words and fillers left out): "booked" / "booking" share "book"."""
    return _stems(text)


_FIRST_SINGULAR = re.compile(r"\b(i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|myself)\b", re.I)


def _other_persons(a: Candidate, b: Candidate, text: dict[int, str]) -> bool:
    """Two authors, one speaking of themself: each tells their own ("we were teammates for four years" /
    "I've been playing for four months now"), not one slot. A group's plan ("we booked the cabin" /
    "the owner moved us to 19-22") is said by anyone."""
    return a.author != b.author and bool(_FIRST_SINGULAR.search(text[a.id]) or _FIRST_SINGULAR.search(text[b.id]))


def _may_cue_raw(content: str) -> bool:
    """:func:`_may_cue` on a memory's raw text (its "[date]" stamp and "Author:" label hold no cue word
    but may: a superset, tested before the bare text is cut out; ~2 us a turn, ASCII unfolded)."""
    low = content.lower()
    if not low.isascii():
        from memengine.fact_lexicon import fold

        low = fold(low)
    words, suffixes = _cue_words()
    return not words.isdisjoint(_WORDS.findall(low)) or _cue_suffix().search(low) is not None


@functools.lru_cache(maxsize=1)
def _cue_suffix() -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(re.escape(s) for s in _cue_words()[1]) + r")\b")


_DIGIT = re.compile(r"\d")
# the starts of words that name a value with no digit: weekdays, months, named times, relative days and spans
_VALUE_WORDS = ("mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
                "noon|midnight|tomorrow|tonight|week|month|year|"
                # (round 10: weekdays of the other languages read: "Mittwoch statt Dienstag", "jeudi")
                "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|dienstag|mittwoch|donnerstag|freitag|"
                "samstag|sonntag|lunes|martes|miercoles|jueves|viernes|sabado|domingo|segunda|terca|quarta|"
                "quinta|sexta")
_VALUE_WORD = re.compile(rf"\b(?:{_VALUE_WORDS})")


def _valued_raw(content: str) -> bool:
    """Whether a memory's text after its "[date]" stamp may hold a value (a superset of the bare text's:
    ``_MAYBE_VALUE`` on lower-cased text, the digit first; ~3x cheaper than the case-blind pattern)."""
    stamp = content.find("]") + 1 if content.startswith("[") else 0
    return _DIGIT.search(content, stamp) is not None or _VALUE_WORD.search(content.lower(), stamp) is not None


def may_hold_value(content: str) -> bool:
    """Whether a memory's raw text may state a value (a digit or a date word after its "[date]" stamp): the
    cheap gate (~3 us) before the value reader (~0.2-0.5 ms a text)."""
    return _valued_raw(content)


def _close(a: Candidate, b: Candidate) -> bool:
    """``b`` follows ``a`` within CLOSE turns of one thread (a reply in the same exchange)."""
    return a.position is not None and b.position is not None and 0 < b.position - a.position <= CLOSE


def _when(c: Candidate) -> tuple[str, int]:
    return c.event_at or "", c.position if c.position is not None else -1


def lift_newer(ranked: list[Candidate], marks: dict[int, list[int]], later: Iterable[Candidate]) -> list[Candidate]:
    """``ranked`` with each newer of ``marks`` (older id -> newer ids, candidates of ``later``) put right above its
    older, oldest newer first, scored as the older (a newer already above it stays where it is). Used by this
    module's update links and by memengine/recall/renamed.py."""
    out = list(ranked)
    by_id = {c.id: c for c in later}
    for old_id, newer in marks.items():
        for new_id in sorted(newer, key=lambda i: _when(by_id[i])):
            old, new = next(c for c in out if c.id == old_id), by_id[new_id]
            if new in out and out.index(new) < out.index(old):
                continue
            if new in out:
                out.remove(new)
            out.insert(out.index(old), new)
            new.score = old.score
    return out


_MAYBE_VALUE = re.compile(rf"\d|\b({_VALUE_WORDS})", re.I)


@functools.lru_cache(maxsize=_CACHE)
def _replaced(text: str) -> frozenset[tuple[str, tuple[object, ...]]]:
    """The values a turn names as replaced ("tuesday" in "wednesday not tuesday"; memengine/recall/replaced.py)."""
    out: set[tuple[str, tuple[object, ...]]] = set()
    for fragment in replaced_fragments(text):
        out |= _values(fragment)
    return frozenset(out)


def _text(c: Candidate, text: dict[int, str]) -> str:
    if c.id not in text:
        text[c.id] = bare_text(c.content, c.author)
    return text[c.id]


def more_link(a: Candidate, b: Candidate, seen: list[Candidate], text: dict[int, str],
              asked: frozenset[str] | None) -> bool:
    """Round 11's two links that need no change word (mode ``forms``):

    * the later turn restates a value of the earlier one in the same form with other values ("200 a night
      now" / "180 a night", "del 31 al 2" / "del 28 al 30": replaced.forms);
    * the later turn settles ("ok 4:30 then", "bon va pour 10h30", "d'accordo, 9 e un quarto") a value of the
      earlier one's kind after a counter-proposal: within CLOSE turns after the earlier one, another person
      said a value of that kind that is not the earlier one's ("I finish at 4" after "leaving at 3?"), and
      the settlement comes within CLOSE turns after that; no turn need hold the settled value."""
    ta, tb = text[a.id], text[b.id]
    kinds = restated(forms(ta), forms(tb))
    if kinds and kind_fits(kinds, asked):
        return True
    if ("?" not in ta or not agrees(tb) or a.position is None or b.position is None
            or not 1 < b.position - a.position <= 2 * CLOSE):
        return False  # (a negotiation opens on a proposal: "leaving at 3 on friday?", "on part à 8h ?")
    old, new = _values(ta), _values(tb)
    # the settled value is of the proposal's kind, or a bare hour against its time ("d'accordo, 9 e un quarto")
    # (a bare number is no proposal's kind: "Hanna hat am 14. Geburtstag?" / "ok dann 8")
    moved = {o[0] for o in old for n in new if not same_value(n, o) and o[0] != "number"
             and (n[0] == o[0] or (n[0] == "number" and o[0] == "time" and kin(n, o)))}
    if not moved or not kind_fits(moved, asked):
        return False
    for p in seen:
        if (p.thread == b.thread and p.author not in (a.author, b.author) and _close(a, p) and _close(p, b)
                and p.id not in (a.id, b.id) and not is_episode(p)):
            said = _values(_text(p, text))
            if any(kin(w, o) and not same_value(w, o) for w in said for o in old if o[0] in moved):
                return True
    return False


def _answers(a: Candidate, b: Candidate, seen: list[Candidate], text: dict[int, str],
             gone: frozenset[tuple[str, tuple[object, ...]]]) -> bool:
    """Whether, of the earlier turns read that state a value ``b`` names as replaced, ``a`` is the one it
    answers: one sharing a content word with it before one that does not ("grandpa gets tired late, 6
    instead of 7?" answers "grandpa's 80th, friday 7pm", not "Theo's soccer is at 7 on saturday mornings")."""
    mine = _stems(text[b.id])
    if mine & _stems(text[a.id]):
        return True
    for p in seen:
        if p.thread != b.thread or p.id in (a.id, b.id) or _when(p) >= _when(b) or is_episode(p):
            continue
        tp = _text(p, text)
        if mine & _stems(tp) and any(same_value(r, v) or pm_same(r, v) for r in gone for v in _values(tp)):
            return False
    return True


@functools.lru_cache(maxsize=_CACHE)
def _bare_replaced(text: str) -> frozenset[tuple[str, tuple[object, ...]]]:
    """The values a turn names as replaced by a bare hour ("7" in "6 instead of 7")."""
    out: set[tuple[str, tuple[object, ...]]] = set()
    for fragment in bare_hours(replaced_fragments(text)):
        out |= _values(fragment)
    return frozenset(out)


def named_links(linked: list[tuple[Candidate, Candidate]], seen: list[Candidate], text: dict[int, str],
                asked: frozenset[str] | None, more: bool = False) -> list[tuple[Candidate, Candidate]]:
    """The pairs of ``linked`` (an earlier top hit, a later turn of its thread) that need no shared word:

    * the later turn names a value of the earlier one as replaced and states another of its kind
      ("wednesday not tuesday" / "drop off tuesday 8am"); of the earlier turns stating that value, the
      latest is the one it answers ("am 21., nicht am 14." corrects "ist das Konzert am 14.?", not
      "Hanna hat am 14. Geburtstag" before it);
    * the later turn settles ("ok dann 8") a value that a turn within CLOSE before it proposed against
      the earlier one's ("7 ist mir zu früh, 8?" / "Abfahrt Samstag 7 Uhr"): the proposal holds both.

    ``seen``: the turns read (top hits and later turns), where proposals are looked for. One of the
    kinds the question asks (``asked``) must be among those changed; two persons each telling their own
    are no pair. ``more`` (mode ``forms``, round 11): the links of :func:`more_links` too."""
    out: dict[int, list[tuple[Candidate, Candidate]]] = {}
    for a, b in linked:
        named, settling = bool(replaced_fragments(text[b.id])), settles(text[b.id])  # (~2 us; the values ~0.3 ms)
        if more and not named and not _other_persons(a, b, text) and more_link(a, b, seen, text, asked):
            out.setdefault(b.id, []).append((a, b))
            continue
        if not (named or settling) or _other_persons(a, b, text):
            continue
        old, new = _values(text[a.id]), _values(text[b.id])
        gone = _replaced(text[b.id]) if named else frozenset()
        pm = _bare_replaced(text[b.id]) if more and gone else frozenset()
        kinds = (names_replaced(old, [v for v in new if not any(same_value(v, r) for r in gone)], gone, pm)
                 if gone else set())
        if kinds and kind_fits(kinds, asked):
            if more and not _answers(a, b, seen, text, gone):
                continue
            out.setdefault(b.id, []).append((a, b))
            continue
        if not gone and settling:
            for p in seen:
                if p.thread != b.thread or p.id in (a.id, b.id) or not _close(p, b) or _when(p) <= _when(a):
                    continue
                proposed = _values(text[p.id] if p.id in text else bare_text(p.content, p.author))
                kinds = settled(old, [v for v in new if any(same_value(v, w) for w in proposed)])
                if kinds and kind_fits(kinds, asked) and any(same_value(v, w) for v in old for w in proposed):
                    out.setdefault(b.id, []).append((a, b))
                    break
    # (of the earlier turns it may answer, the one stating the value in its own kind, then the latest)
    return [max(got, key=lambda ab: (bool(_values(text[ab[0].id]) & (_replaced(text[ab[1].id]) | _values(text[ab[1].id]))),
                                     _when(ab[0]))) for got in out.values()]


def _subject(text: str) -> frozenset[str]:
    """A turn's stems that may name a subject: :func:`stems` without the words of a value ("march", "week",
    "tomorrow": two threads of one person state many dates; a month shared is no subject shared)."""
    return frozenset(s for s in _stems(text) if not _VALUE_WORD.match(s))


def subject_stems(text: str) -> frozenset[str]:
    """A text's stems that may name a subject (:func:`stems` without the words of a value: "march", "week")."""
    return _subject(text)


def person_source(c: Candidate) -> tuple[str, str] | None:
    """The (import source, author) whose threads ``c`` may pair across (round 17), or None: the user's turn
    of an assistant export, a note of a notes import; a group chat, an assistant's answer, a memory stored
    by hand or received from another store never."""
    source = getattr(c, "source", None)
    if c.thread is None or not c.event_at:
        return None
    if source in ACROSS_CHATS:
        return (source, ACROSS_USER) if c.author == ACROSS_USER else None
    return (source, c.author or "") if source in ACROSS_NOTES else None


def _across_link(a: Candidate, b: Candidate, text: dict[int, str], mode: str, memo: dict[tuple[str, str], Any],
                 asked: frozenset[str] | None) -> bool:
    """Whether ``b``, said in another thread of ``a``'s person and source, changes ``a``'s value by the links
    that need no nearness: a change cue or counter idiom (:func:`updates`), a value named as replaced
    (``named``), a value restated in the same form (``forms``). (The settlements and replies of one
    exchange are turns of one thread: positions of two threads say nothing of nearness.)"""
    if updates(text[a.id], text[b.id], mode, memo, False, asked):
        return True
    if mode not in ("named", *FORMS):
        return False
    ta, tb = text[a.id], text[b.id]
    if mode in FORMS:
        kinds = restated(forms(ta), forms(tb))
        if kinds and kind_fits(kinds, asked):
            return True
    gone = _replaced(tb) if replaced_fragments(tb) else frozenset()
    if not gone:
        return False
    new = [v for v in _values(tb) if not any(same_value(v, r) for r in gone)]
    kinds = names_replaced(_values(ta), new, gone, frozenset())
    return bool(kinds) and kind_fits(kinds, asked)


def newer_first(ranked: list[Candidate], k: int, mode: str, pool: Iterable[Candidate] = (), query: str = "",
                unscored: Iterable[Candidate] = (), across: bool = False
                ) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` (best first) with every later turn that updates an earlier one of the same chat in the
    top ``k`` moved to just above it; and ``{earlier id: [later ids]}`` (the earlier ones to mark).

    The later turn is looked for in the top ``k`` and, when ``pool`` is given (recall passes the
    candidates fusion scored below the top ``k``: those that came near it), among them too: an update
    worded away from the question ("the owner moved us to 19-22") is a candidate through its neighbours
    but rarely a top hit. (The whole candidate pool found one more update of the round's own chats, and
    cost ~5 ms a recall on LoCoMo's long threads instead of ~1.3.) One brought in takes the
    earlier turn's score (so the scores returned stay in order) and pushes the last of the top ``k``
    down. Cheapest test first, on the raw text (round 9: ~0.2 instead of ~0.7 ms a warm recall at
    100k): a top-``k`` chat turn holding a digit or a date word (1 turn in 6 of LoCoMo's), then a
    later turn of its thread, short enough, holding one too and a word a cue can be made of; only then
    bare text, word counts, stems and values (each text's kept per process): most recalls read no pair.
    ``across`` (round 17): the later turn may be of another thread of the earlier one's person and import
    source (:func:`person_source`), said at a later time, sharing ACROSS_STEMS stems with it, and linked by
    :func:`_across_link`."""
    if not mode or k < 2 or (query and asks_first(query)):  # ("what did the movers quote at first?")
        return ranked, {}
    top = ranked[:k]
    text: dict[int, str] = {}
    seen: dict[int, bool] = {}

    def valued(c: Candidate) -> bool:  # (the bare text: a chat turn's "[date]" stamp is no value)
        if c.id not in seen:
            if _valued_raw(c.content):
                text[c.id] = bare_text(c.content, c.author)
            seen[c.id] = c.id in text and _MAYBE_VALUE.search(text[c.id]) is not None
        return seen[c.id]

    olds = [c for c in top if c.thread is not None and not is_episode(c) and valued(c)]
    if not olds:
        return ranked, {}
    first: dict[str, tuple[str, int]] = {}
    for c in olds:
        w = _when(c)
        if c.thread not in first or w < first[c.thread]:
            first[c.thread] = w
    # (round 17: the earliest time of each person's source among the top hits, for the later turns of
    # their other threads)
    since: dict[tuple[str, str], str] = {}
    for c in olds if across else ():
        who = person_source(c)
        if who is not None and (who not in since or (c.event_at or "") < since[who]):
            since[who] = c.event_at or ""

    def after(c: Candidate) -> bool:
        if c.thread in first and _when(c) > first[c.thread]:
            return True
        if not since:
            return False
        who = person_source(c)
        return who is not None and who in since and (c.event_at or "") > since[who]

    in_top = {c.id for c in top}
    limit = UPDATE_WORDS * 12  # (UPDATE_WORDS words are rarely over 12 characters each)
    extra: set[int] = set()
    near: list[Candidate] = []
    named = mode in ("named", *FORMS)
    before: list[Candidate] = []
    if named:  # (the candidates fusion did not score, for the links that need no shared word only:
        # ~150 a recall at 100k, most gone on the thread and time tests, then a word a link can be made of)
        near = [c for c in unscored if c.thread in first and len(c.content) <= NAMED_CHARS
                and _when(c) > first[c.thread]]  # (where a settlement's proposal may be too)
        got = [c for c in near if (may_name(c.content) or (mode in FORMS and forms(c.content)))
               and _valued_raw(c.content)]
        extra = {c.id for c in got}
        pool = [*pool, *got]
        if mode in FORMS:  # (the earlier turns a named update may answer instead of a top hit: _answers)
            before = [c for c in unscored if c.thread in first and len(c.content) <= NAMED_CHARS
                      and _when(c) <= first[c.thread] and c.id not in in_top]
    later = [c for c in [*top, *(c for c in pool if c.id not in in_top)]
             if len(c.content) <= limit and after(c) and seen.get(c.id, True) and _valued_raw(c.content)
             and (mode != "slot" or _may_cue_raw(c.content))]
    later = [c for c in later if not is_episode(c) and valued(c)
             and count_words(text[c.id], UPDATE_WORDS + 1) <= UPDATE_WORDS
             and (mode != "slot" or _may_cue(text[c.id]))]
    linked = [(a, b) for a in olds for b in later if a.thread == b.thread and _when(a) < _when(b)]
    pairs = [(a, b, False) for a, b in linked if _stems(text[a.id]) & _stems(text[b.id])
             and not _other_persons(a, b, text) and b.id not in extra]
    if mode in ("turns", "named", *FORMS):  # (a reply in the same exchange: "dinner sat 8pm?" / "sunday works better,
        # 7pm?"; both top hits: a turn brought in from below on nearness alone answers the slot of another question)
        paired = {(a.id, b.id) for a, b, _ in pairs}
        pairs += [(a, b, True) for a, b in linked if (a.id, b.id) not in paired and b.id in in_top and _close(a, b)]
    asked = asked_kinds(query) if query else None
    marks: dict[int, list[int]] = {}
    cross = [(a, b) for a in olds for b in later if since and a.thread != b.thread and (who := person_source(a))
             is not None and who == person_source(b) and (a.event_at or "") < (b.event_at or "")
             and b.id not in extra and len(_subject(text[a.id]) & _subject(text[b.id])) >= ACROSS_STEMS]
    if named:  # the replaced value, or a settlement near a top hit, is the link (no shared word)
        for a, b in named_links(linked, [*olds, *later, *(c for c in near if c.id not in extra), *before], text,
                                asked, mode in FORMS):
            marks.setdefault(a.id, []).append(b.id)
        pairs = [(a, b, c) for a, b, c in pairs if b.id not in marks.get(a.id, ())]
    if not pairs and not marks and not cross:
        return ranked, {}
    memo: dict[tuple[str, str], Any] = {}
    for a, b in cross:
        if _across_link(a, b, text, mode, memo, asked):
            marks.setdefault(a.id, []).append(b.id)
    for a, b, close in pairs:
        if updates(text[a.id], text[b.id], mode, memo, close, asked):
            marks.setdefault(a.id, []).append(b.id)
    if not marks:
        return ranked, {}
    out = lift_newer(top, marks, later)
    rest = [c for c in ranked[k:] if c not in out]
    return out[:k] + out[k:] + rest, {o: sorted(ls) for o, ls in marks.items()}
