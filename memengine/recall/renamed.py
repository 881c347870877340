"""A name replaced by another name: the later turn that says so ranks above the earlier one (issue 19, round 23).

"fiz matrícula na Smart Fit" and, three months later, "saí da Smart Fit, agora é na Bluefit do lado do trabalho";
"Our GP is Dr Minh Nguyen" and, in another conversation, "Dr Nguyen retired last month. We're seeing Dr Fiona Walsh";
"Imprimerie Vauban nous fait 200 affiches" and "Vauban a fermé pour congés. Copytop rue Terme fait les affiches".
A name is no value the update links of memengine/recall/updates.py read (a time, a date, an amount), and the
newer turn is worded away from the question ("which gym does Camila go to now?" shares "academia" with the
older), so it ranks below the older or out of the top ``k``.

The link read here needs no word of the question: a later turn of the earlier one's thread (or of its person's
other conversations in an assistant export, as updates.py's ``across``) that

* names a name the earlier top hit states (a capitalised word that is not the question's, not an author's, no
  weekday or month): the slot's old value, said again ("saí da Smart Fit", "Vauban a fermé", "Dr Nguyen retired");
* names a name the thread has not said before it (a capitalised word, first said there): the new value. A third
  party that names the old value ("a Cida disse que o neto dela vai pro Colégio Sabiá também", "l'asso de la
  Guillotière a pris SonoLyon") names people and places the chat already knows;
* holds a word a change cue can be made of (fact_cue's lexicon, updates.py's gate: "agora", "now", "jetzt",
  "retired", "moved"...), with mode ``cue``; any wording with mode ``any``;
* is a short message (updates.UPDATE_WORDS words), no question.

It goes just above the earlier one, which is returned as possibly outdated by it: nothing leaves the results.

Round 25 (mode ``switch``, the default): the change word is read in the facts engine's broader lexicon too
(:func:`switch_word`: "j'ai résilié Bouygues", "siamo passati alla Cascina Vallera", "cancelei a Vivo"), and a "what"
question asking no value ("What kiln do I have?", "c'est quoi la mutuelle") is read as asking a name, its update
saying the change beside the old name ("sold the Rohde ... bought a new Skutt"; not "got a bigger flat in Vallila,
Nalle needs space" for "what's the dog called?").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from memengine.recall.counter import asks_first
from memengine.recall.episodes import is_episode
from memengine.recall.updates import UPDATE_WORDS, change_word, lift_newer, person_source
from memengine.records import Candidate
from memengine.text import bare_text, count_words

MODES = ("", "cue", "any", "switch")
# ``switch`` (round 25): ``cue`` with the broader change lexicon of :func:`switch_word`, and for "what" questions
# asking no value too (:func:`asks_name`), whose update must say the change beside the old name (:func:`_near_change`)
# the top hits whose names are read as the slot's old value (the answer an agent reads first)
SEEDS = 3
_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"[^\W_][\w’']*")  # (a word with a digit is a code, no name: "WA2", "CX22")
# a weekday's or month's short form ("Sat", "Fr", "Feb")
_SHORT_CAL = re.compile(r"(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|"
                        r"mo|di|mi|do|fr|sa|so|lun|mer|jeu|ven|sam|dim|seg|ter|qua|qui|sex|sab|dom|okt|dez)")

SaidBefore = Callable[[Candidate, str], bool]
# A question asking for a name: who, which, where (a person, a provider, a venue), in the languages recall reads;
# not how much, when or why (a turn that names another name answers none of those).
_ASKS_NAME = re.compile(r"\b(?:which|who|whom|whose|where|qual|quais|quem|onde|quel|quelle|quels|quelles|qui|"
                        r"wer|wem|wen|welche|welcher|welches|welchem|welchen|wo|cual|cuales|quien|quienes|donde|"
                        r"quale|quali|chi|dove|welke|welk|wie|waar|vem|vilken|vilket|vilka|hvem|hvilken|hvilket|hvor|"
                        r"kto|ktory|ktora|ktore|gdzie|siapa|mana|kim|hangi|nerede)\b")


@functools.lru_cache(maxsize=4096)
def _names(text: str) -> tuple[tuple[str, str, bool], ...]:
    """The capitalised words of a turn's bare text, as (folded, as written, sure): no stop word, no weekday or
    month, no one-letter word, no word with a digit (a code: "WA2"). ``sure``: not a sentence's first word
    ("Thanks, Nate!", "Sounds great"), or one written with an inner capital or in capitals ("SpielerPlus", "ING")."""
    from memengine.fact_lexicon import STOPWORDS, fold

    out: dict[str, tuple[str, bool]] = {}
    for m in _TOKEN.finditer(text):
        if any(ch.isdigit() for ch in m.group()):
            continue
        before = text[:m.start()].rstrip()
        if not before:
            first = True
        elif before[-1] in ".!?:;…":
            first = not _TITLE.search(before)  # ("a Dra. Helena": a title's dot ends no sentence)
        else:  # (after an emoji or a dash a new sentence starts; after a comma, a word or a quote none)
            first = not before[-1].isalnum() and before[-1] not in ",'’)\"»"
        for w in _WORD.findall(m.group()):
            if len(w) < 2 or not w[0].isupper():
                continue
            f = fold(w)
            if f in STOPWORDS or f in _CAL or _SHORT_CAL.fullmatch(f):
                continue
            sure = not first or w.isupper() or any(ch.isupper() for ch in w[1:])
            out[f] = (w, sure or out.get(f, ("", False))[1])
            first = False
    return tuple((f, w, sure) for f, (w, sure) in out.items())


_TITLE = re.compile(r"\b(?:Dr|Dra|Mr|Mrs|Ms|St|Sr|Sra|Prof|M|Mme)\.$")


_CAL = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february march april may june
july august september october november december montag dienstag mittwoch donnerstag freitag samstag sonntag januar
februar marz juni juli oktober dezember lundi mardi mercredi jeudi vendredi samedi dimanche janvier fevrier mars avril
juin juillet aout septembre octobre novembre decembre segunda terca quarta quinta sexta sabado domingo janeiro
fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro lunes martes miercoles jueves viernes
enero febrero marzo mayo junio julio septiembre octubre noviembre diciembre""".split())


def _when(c: Candidate) -> tuple[str, int]:
    return c.event_at or "", c.position if c.position is not None else -1


@functools.lru_cache(maxsize=4096)
def _short(text: str) -> bool:
    return count_words(text, UPDATE_WORDS + 1) <= UPDATE_WORDS


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


@functools.lru_cache(maxsize=4096)
def _said(text: str) -> str:
    """A turn's sentences that are no question ("…, worth a look later?" asks, it states nothing)."""
    return " ".join(s for s in _SENTENCE.findall(text) if not s.rstrip().endswith("?"))


def renamed_first(ranked: list[Candidate], k: int, mode: str, query: str, pool: Iterable[Candidate],
                  said_before: SaidBefore) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` with every later turn that replaces a name an earlier top hit states (see the module's text)
    moved just above it, and ``{earlier id: [later ids]}`` (the earlier ones to mark). ``pool``: the candidates
    below the top ``k`` (scored or not) where the later turn may be; ``said_before(turn, word)``: whether the
    turn's thread says ``word`` (as written) before it."""
    if mode not in MODES or not mode or k < 2 or not query or asks_first(query):
        return ranked, {}
    from memengine.fact_lexicon import fold

    if not asks_name(query, what=mode == "switch"):
        return ranked, {}
    # (a "what" question asks for a name less surely: its update must say the change beside the old name)
    weak = not asks_name(query)

    top = ranked[:k]
    seeds = [c for c in top[:SEEDS] if c.thread is not None and not is_episode(c)]
    if not seeds:
        return ranked, {}
    asked = {fold(w) for w in _WORD.findall(query)}
    in_top = {c.id for c in top}
    everyone = [*top, *(c for c in pool if c.id not in in_top)]
    # (a speaker of the chat named by another is no value: "Thanks, Nate!")
    authors = {fold(w) for c in everyone for w in _WORD.findall(c.author or "")}
    text: dict[int, str] = {}

    def bare(c: Candidate) -> str:
        if c.id not in text:
            text[c.id] = bare_text(c.content, c.author)
        return text[c.id]

    def names(text: str, sure: bool = True) -> dict[str, str]:
        return {f: w for f, w, s in _names(text) if (s or not sure) and f not in asked and f not in authors}

    olds = {a.id: names(bare(a)) for a in seeds}
    olds = {i: n for i, n in olds.items() if n}
    if not olds:
        return ranked, {}
    threads = {a.thread for a in seeds if a.id in olds}
    people = {who for a in seeds if a.id in olds and (who := person_source(a)) is not None}
    first = min(_when(a) for a in seeds if a.id in olds)
    written = {w for n in olds.values() for w in n.values()}
    # (the cheap tests first, on the raw text: a turn of those threads or persons, later, short, holding one of the
    # old names as written; ~1 us a candidate, the names of a text ~20-50 us)
    later = [c for c in everyone
             if (c.thread in threads or (people and person_source(c) in people)) and _when(c) > first
             and len(c.content) <= UPDATE_WORDS * 12 and any(w in c.content for w in written) and not is_episode(c)]
    if not later:
        return ranked, {}
    def known(b: Candidate, word: str) -> bool:
        """Whether a candidate said before ``b`` (any thread: an assistant export's other conversations) holds
        ``word``: read from the texts at hand, before the thread is asked."""
        return any(word in c.content for c in everyone if (c.event_at or "") < (b.event_at or ""))

    def changed(tb: str, old: dict[str, str]) -> bool:
        """The later turn says a change: any wording (``any``), a change word anywhere (``cue``; ``switch`` for a
        who / which / where question), or one of the broader lexicon beside the old name (``switch``)."""
        if mode == "any":
            return True
        if mode == "cue" or not weak:
            if change_word(tb):
                return True
        return mode == "switch" and _near_change(tb, old)

    marks: dict[int, list[int]] = {}
    for a in seeds:
        old = olds.get(a.id)
        if not old:
            continue
        for b in later:
            if b.id == a.id or _when(b) <= _when(a) or not (b.thread == a.thread or (
                    person_source(a) is not None and person_source(a) == person_source(b)
                    and (a.event_at or "") < (b.event_at or ""))):
                continue
            tb = bare(b)
            if not _short(tb):
                continue
            if not any(f in old for f in names(_said(tb), sure=False)):
                continue  # (the old value said again, a sentence's first word too: "Vauban a fermé")
            new = [w for f, w in names(_said(tb)).items() if f not in old and f not in names_of(bare(a))]
            if not new or not changed(tb, old):
                continue
            if all(known(b, w) or said_before(b, w) for w in new):
                continue  # (no name first said here: a third party the chat knows, not a new value)
            marks.setdefault(a.id, []).append(b.id)
    if not marks:
        return ranked, {}
    return lift_newer(ranked, marks, later), {o: sorted(ls) for o, ls in marks.items()}


# "what" asks for a name too when it asks for no value ("what kiln do I have?", "¿qué compañía tenemos?", "c'est quoi
# la mutuelle"; not "what time", "what date", "what does it cost": counter.asked_kinds names a kind for those), said
# among the question's first words (a Romance "que" later is a conjunction)
_ASKS_WHAT = re.compile(r"^\W*(?:\w+\W+)?(?:what|que|quoi|qu|cosa|che)\b")
_ASKS_WHAT_ANYWHERE = re.compile(r"\bquoi\b")


def asks_name(query: str, what: bool = False) -> bool:
    """Whether a question asks for a name: who, which, where in the languages recall reads, or with ``what``
    (round 25) "what" asking for no value kind (counter.asked_kinds)."""
    from memengine.fact_lexicon import fold

    low = fold(query.lower())
    if _ASKS_NAME.search(low) or "où" in query.lower():
        return True
    if not what or not (_ASKS_WHAT.search(low) or _ASKS_WHAT_ANYWHERE.search(low)):
        return False
    from memengine.recall.counter import asked_kinds

    return asked_kinds(query) is None


@functools.lru_cache(maxsize=1)
def _lexicon() -> tuple[frozenset[str], tuple[str, ...]]:
    """The change words the facts engine reads, folded: fact_cue's (updates.change_word's) and fact_change_words'
    (change verbs and now-words, six languages), and fact_cue's compound-noun suffixes ("Kassenwechsel")."""
    from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
    from memengine.recall.updates import _change_words, _cue_words

    return frozenset(CHANGE_WORDS | NOW_WORDS | _change_words()), _cue_words()[1]


def _switches(word: str) -> bool:
    """Whether one folded word is a change word (:func:`_lexicon`), an Italian or Portuguese participle read in any
    number and gender too ("passati", "cambiate": the lists hold the singular)."""
    words, suffixes = _lexicon()
    return (word in words or word.endswith(suffixes)
            or (len(word) > 4 and word[-1] in "ie" and (word[:-1] + "o") in words))


@functools.lru_cache(maxsize=4096)
def switch_word(text: str) -> bool:
    """Whether ``text`` holds a change word of the facts engine's lexicons (:func:`_switches`): fact_cue's
    ("agora", "now", "jetzt", "retired") and fact_change_words' broad lists ("résilié", "cancelei", "ditched")."""
    from memengine.fact_lexicon import fold

    return any(_switches(fold(t.lower())) for t in _WORD.findall(text))


# ``switch``: a change word within NEAR words of the old name said again ("sold the Rohde", "j'ai résilié Bouygues",
# "Sonnenschein hab ich gekündigt"); a turn naming the old name apart from its change is about something else
# ("got a bigger flat in Vallila, 62 m2, 1150/month, Nalle needs space": the dog named, the flat changed)
NEAR = 4


def _near_change(text: str, old: Iterable[str]) -> bool:
    """Whether a change word (:func:`_switches`) stands within NEAR words of one of the folded names ``old``."""
    from memengine.fact_lexicon import fold

    words = [fold(w.lower()) for w in _WORD.findall(text)]
    names = set(old)
    at = [i for i, w in enumerate(words) if w in names]
    return any(_switches(words[j]) for i in at for j in range(max(0, i - NEAR), min(len(words), i + NEAR + 1)))


def names_of(text: str, sure: bool = False) -> frozenset[str]:
    """The folded capitalised words of a text (:func:`_names`): every one, or with ``sure`` those that are surely
    names (no sentence's first word unless written with an inner capital)."""
    return frozenset(f for f, _, s in _names(text) if s or not sure)
