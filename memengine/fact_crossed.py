"""One person's fact told again in another language, with a new value (facts32).

An agent writes a note in the language the user spoke that day: "Sanne gaat met de trein naar haar werk", weeks
later "Sanne bikes to work now that her office moved to Leidsche Rijn"; "Jonas' Mutter wohnt allein in Halle",
later "Jonas' mother has moved into a care home in Leipzig". MiniLM is an English model: such pairs score
0.34-0.54, under the rules' cosine floor (memengine/supersession.py's MIN_COSINE), and the rules' patterns are
each written for one language's grammar, so none reads them (held-out 10: 9 of 10 bilingual updates missed).

What carries over between languages is the structure, read here in three parts, each from closed word classes:

- **whose**: the person the subject names (memengine/fact_person.py), or a relative of a person, the kinship
  word mapped to one concept in every language ("Mutter" = "mother", "ouders" = "parents": :data:`_KIN`);
  both sentences must name the same one (and "Sanne's parents" are not "Bram's parents");
- **which attribute**: one of a person's attributes named by a word of seven languages (:data:`ATTRIBUTES`:
  where one lives, works, trains, how one gets to work, a child's school, a course, one's doctor); both must
  name one and the same, and nothing else of the table;
- **a new value**: the newer names a value the older does not hold (a name the older does not say, another
  weekday, another way of getting to work) and says a change or a present state ("now", "moved", "since",
  "started", "agora"), never a hypothesis, a plan, an anecdote, nor "too" / "as well" (someone else's, or a
  second one).

Asked only when the two are clearly in two languages (memengine/fact_langs.py): within one language the rules
and the learned decision read the pair. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_attr, fact_hired, fact_langs, fact_mood, fact_person
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_kin import KIN as _KIN
from memengine.fact_lexicon import MONTHS, WEEKDAYS, fold

__all__ = ["ATTRIBUTES", "REASON", "attributes", "crossed", "day_of", "same_whose", "whose"]

REASON = "one person's fact in another language"

# A person's attributes beyond memengine/fact_attr.py's (home, work, commute, school), by words of seven
# languages (folded; "*" a stem). A word names its attribute wherever it is said.
ATTRIBUTES: dict[str, frozenset[str]] = {attr: frozenset(fold(w) for w in words.split()) for attr, words in {
    "gym": """gym gyms trains training trainiert trainieren fitnessstudio s'entraine entraine salle entrena entreno
        entrenar gimnasio treina treino ginasio allena allenarsi palestra traint sportschool""",
    "doctor": """gp doctor dentist teeth hausarzt hausarztin zahnarzt zahnarztin arzt arztin medecin dentiste dents
        medico medica dentista dientes cabecera huisarts tandarts dottore dottoressa denti""",
    "course": """course courses class classes lessons lesson rehearsals choir kurs englischkurs sprachkurs unterricht
        chor probe proben cours chorale repetitions curso cursos clases coro ensayos aulas ensaios corso corsi lezioni
        prove cursus lessen koor repetities""",
    "study": """studies studying studied study degree university studiert studium universitat etudie etudes
        universite estudia estudios estudiar universidad estuda estudos universidade studia studiare universita
        studeert studie universiteit""",
}.items()}
# Every word of both tables, and those of 5 letters or more a compound may end in
_ALL_WORDS = frozenset(w for t in ATTRIBUTES.values() for w in t) | frozenset(
    w for ws in fact_attr.ATTRIBUTES.values() for w in ws.split())
_ENDINGS = tuple((w, a) for a, ws in fact_attr.ATTRIBUTES.items() for w in ws.split()
                 if len(w) >= 5 and not w.endswith("*") and a in ("school", "commute")) + tuple(
    (w, a) for a, t in ATTRIBUTES.items() for w in t if len(w) >= 5)
# Getting to work said by the vehicle (memengine/fact_attr.py's commute words, and these)
_COMMUTE_MORE = frozenset(fold(w) for w in """bikes biking walks drives trein treinen auto coche carro voiture macchina
    bus""".split())
# A job said by a role "as" ("joined X as a project architect", "started as a clinical lead", "als controller")
_AS_ROLE = re.compile(r"\b(?:joined|started|starts|began|begun|works|working|hired|begonnen|angefangen|"
                      r"commence|entree?|empezado|entrado|comecou|entrou|iniziato|entrata?|gestart)\b.{0,60}?"
                      r"\b(?:as|als|comme|como|come)\s", re.IGNORECASE)
# Words saying the fact is someone else's as well, or a second one: no new value of the older's slot.
_ADDED = re.compile(r"\b(?:too|as well|also|auch|ebenfalls|aussi|egalement|tambien|tambem|anche|pure|ook)\b")
# Words saying when a change happened or that a state holds now, beside CHANGE_WORDS / NOW_WORDS.
# (Dutch verbs of change too: memengine/fact_change_words.py has six languages)
_SINCE = frozenset(fold(w) for w in """since seit sinds depuis desde dal da tegenwoordig nu inmiddels voortaan
    mittlerweile inzwischen desormais ya ja overgestapt overgegaan verhuisd gewisseld veranderd begonnen gestopt
    verkocht gekocht verhoogd verlaagd opgehoogd geworden""".split())
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_HEAD = 6  # the words a subject is read in
# The attributes read in one language too (a school, a way to work, a gym, a doctor, a course, a study are each
# named by a noun of their own; where one works or lives is said by verbs the rules of one language read)
_SAID_ALIKE = frozenset(("school", "commute", "gym", "doctor", "course", "study"))
_OF = frozenset("of von van de di do da del della dos das".split())  # a possessor after a noun
_MOVED_IN = re.compile(r"\bmoved (?:in|into|out)\b")
_MOVED_WHEN = re.compile(r"\b(?:move|moves|moved|moving)\s+(?:back\s+)?to\s+(?:" + "|".join(
    [d.capitalize() for d in WEEKDAYS if d.isascii()] + [m.capitalize() for m in MONTHS if m.isascii()]) + ")")
_HOME_WORDS = frozenset(w for w in fact_attr.ATTRIBUTES["home"].split() if not w.endswith("*"))
_NAME = re.compile(r"(?<![\w'’])[A-ZÀ-Ý][\w'’.&-]*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
# Weekday stems of seven languages (folded): "dienstags", "woensdagavond", "Mondays", "às segundas".
_DAYS = {fold(w)[:5] if len(w) > 5 else fold(w): i for w, i in WEEKDAYS.items()} | {
    "maand": 0, "dinsd": 1, "woens": 2, "donde": 3, "vrijd": 4, "zater": 5, "zonda": 6,
    "segun": 0, "terca": 1, "quart": 2, "quint": 3, "sexta": 4}


def day_of(word: str) -> int | None:
    """The weekday ``word`` (folded) names, by its first five letters, else None."""
    return _DAYS.get(word[:5]) if len(word) >= 5 else _DAYS.get(word)


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    """The words of ``text``, folded, an elided article and a possessive "'s" off."""
    return tuple(fold(w.replace("’", "'")).split("'")[-1] if "'" in w.replace("’", "'")[:3] else
                 fold(w.replace("’", "'")).removesuffix("'s").rstrip("'") for w in _WORD.findall(text))


@lru_cache(maxsize=4096)
def attributes(text: str) -> frozenset[str]:
    """The person's attributes ``text`` names: memengine/fact_attr.py's and :data:`ATTRIBUTES`' (how one gets
    to work also by a vehicle; a role said "as" after a verb of starting is work)."""
    words = set(_words(text))
    out = set(fact_attr.attributes(text))
    if _MOVED_IN.search(text):
        out.add("home")  # "has moved into a care home in Leipzig"
    elif "home" in out and _MOVED_WHEN.search(text) and not words & _HOME_WORDS:
        out.discard("home")  # "the course moved to Monday evenings": a day, not a home
    for attr, table in ATTRIBUTES.items():
        if words & table:
            out.add(attr)
    for w in words - _ALL_WORDS:  # a compound ending in an attribute's word: "Montessorischool", "Sprachschule"
        out.update(a for end, a in _ENDINGS if w.endswith(end) and len(w) > len(end) + 2)
    if words & _COMMUTE_MORE and {"work", "werk", "trabajo", "travail", "boulot", "lavoro", "ufficio", "trabalho",
                                   "arbeit", "buro", "school", "ecole", "escola", "scuola"} & words:
        out.add("commute")
        out.discard("work")
        out.discard("school")
    if _AS_ROLE.search(text):
        out.add("work")
    if "gym" in out:
        out.discard("commute")  # "trains at the gym": training, not a train
    if "commute" in out:
        out -= {"school", "home"}  # "bikes to work now that her office moved to …": how one gets there
    return frozenset(out)


@lru_cache(maxsize=4096)
def whose(text: str) -> tuple[frozenset[str], str]:
    """(the names, the kinship concept) of whom ``text`` is about: its subject's person ("" for the concept),
    or, when the subject is a relative of a named person ("Jonas' Mutter", "De ouders van Bram"), that person's
    name and the relative's concept ("mother", "parents"); (empty, "") when the subject names nobody."""
    head = _WORD.findall(text)[:_HEAD]
    if len(head) > 1 and head[0][:1].isupper() and text[len(head[0]):].lstrip().startswith(","):
        return frozenset({_words(head[0])[0]}), ""  # "Tommaso, il figlio di Chiara, …": Tommaso
    names, owners = fact_person._subject(text)
    words = _words(text)[:_HEAD]
    at = next((i for i, w in enumerate(words) if w in _KIN), None)
    if not names:  # ("De huisarts van Pieter …", which the subject reading stops at its article)
        names = frozenset(_words(head[i + 1])[0] for i in range(1, len(head) - 1)
                          if words[i] in _OF and head[i + 1][:1].isupper() and words[i - 1] not in _OF)
    if not owners:
        first = next((i for i, w in enumerate(words) if w in names), None)
        if at is not None and first is not None and at < first:
            return frozenset(names), _KIN[words[at]]  # "De ouders van Bram": Bram's parents
        if at is None and first and words[first - 1] in _OF:
            return frozenset(names), ""  # "De huisarts van Joost": Joost's
        return fact_person.subject_person(text), ""
    if at is None:
        return frozenset(owners), ""  # "Jonas' Handyvertrag", "De huisarts van Joost": the owner's
    after = head[at + 1] if at + 1 < len(head) else ""
    if after[:1].isupper() and _words(after)[0] not in owners:
        return frozenset({_words(after)[0]}), ""  # "Hugo's son Nathan": Nathan
    return frozenset(owners), _KIN[words[at]]


def same_whose(old: str, new: str) -> bool:
    """Whether both sentences are about one person, or about one relative (one concept) of one person."""
    (a, ka), (b, kb) = whose(old), whose(new)

    def keys(names: frozenset[str]) -> set[str]:
        return set(names) | {n[:-1] for n in names if len(n) > 3 and n.endswith("s")}
    return bool(a and b and keys(a) & keys(b) and ka == kb)


def _values(text: str, people: set[str]) -> tuple[frozenset[str], frozenset[int], frozenset[str]]:
    """(names, weekdays, numbers) ``text`` says: capitalised words (no weekday, month, name of whom it is about,
    nor the first word), the weekdays it names and its numbers."""
    names: set[str] = set()
    for m in _NAME.finditer(text):
        k = fold(m.group().replace("’", "'")).split("'")[-1].removesuffix("s").rstrip(".")
        if m.start() == 0 or k in people or k.removesuffix("s") in people or day_of(k) is not None or k in MONTHS:
            continue
        names.add(k)
    days = frozenset(d for d in (day_of(w) for w in _words(text)) if d is not None)
    return frozenset(names), days, frozenset(_NUMBER.findall(text))


def _commute(text: str) -> frozenset[str]:
    """The ways of getting somewhere ``text`` names (vehicle words; a bike is a bike in every language)."""
    bike = {"bike", "bikes", "biking", "cycles", "cycling", "bicycle", "fahrrad", "rad", "radelt", "velo", "bici",
            "bicicleta", "bicicletta", "fiets", "fietst", "fietsen", "valenbisi"}
    words = set(_words(text))
    out = {"bike"} if words & bike else set()
    table = fact_attr.ATTRIBUTES["commute"].split()
    out |= {w for w in words if (w in table or w in _COMMUTE_MORE) and w not in bike}
    return frozenset(out)


def _two_languages(old: str, new: str) -> bool:
    """Whether each sentence holds more function words of a language of its own than of every language the
    other has most of (memengine/fact_langs.py's reading with a lead of one word: short notes hold few)."""
    ha, hb = fact_langs.hits(old), fact_langs.hits(new)
    ta = [k for k, n in ha.items() if n == max(ha.values()) and n > 0]
    tb = [k for k, n in hb.items() if n == max(hb.values()) and n > 0]
    return bool(ta and tb) and all(ha[la] > ha[lb] and hb[lb] > hb[la] for la in ta for lb in tb)


def crossed(old: str, new: str) -> str | None:
    """``REASON: attribute`` when ``new``, in another language than ``old``, says a new value of the same
    person's (or relative's) one attribute ``old`` states (see the module docstring), else None."""
    if fact_mood.unasserted(new):
        return None
    crossed_langs = _two_languages(old, new)
    low = fold(new.lower().replace("’", "'"))
    if _ADDED.search(low) or not same_whose(old, new):
        return None
    a, b = attributes(old), attributes(new)
    if not a and fact_hired.job(old):
        a = frozenset({"work"})  # "Lucía es enfermera en el Hospital La Fe": a role where it is held
    if len(a) != 1 or a != b or not crossed_langs and not a & _SAID_ALIKE:
        return None
    words = set(_words(new))
    if not (words & (CHANGE_WORDS | NOW_WORDS | _SINCE)):
        return None  # a state said again, or an event: no change told
    people = set(whose(old)[0]) | set(whose(new)[0])
    old_names, old_days, old_nums = _values(old, people)
    new_names, new_days, new_nums = _values(new, people)
    old_words = set(_words(old))
    fresh = {n for n in new_names if n not in old_words and not any(n in w or w in n for w in old_words if len(w) > 3)}
    (attr,) = a
    changed = bool(fresh) or bool(new_days and new_days != old_days) or bool(new_nums and new_nums != old_nums) \
        or attr == "commute" and bool(_commute(new) - _commute(old))
    return f"{REASON}: {attr}" if changed else None
