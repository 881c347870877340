"""Whether a newer sentence gives any evidence that it is about the older's thing at all.

In one store holding many facts (an agent's months of notes), a write that states a change ("o correio
eletrônico agora é o Outlook", "Die Ferien sind jetzt vom 10. bis 17. August") is compared with the ten
facts nearest to it, most of them about other things in the same frame ("X is now Y", "X läuft auf Y", in
any language). The learned decision (memengine/fact_slot.py) and the cue rules read a change cue and a value
of one kind replaced; a pair of two facts labelled one at a time never showed them a dozen near-neighbours,
and in a crowded store they retired "A minha operadora é a MEO, 35 euros" for the Outlook write
(bench/fact_crowded.py, facts21). An update names its slot again in some way: a word both say (inflected,
"deployment" / "deployments"), a short form, an acronym or a pronoun for the older's named subject
(memengine/fact_alias.py). :func:`shares_subject` says whether any such evidence is there;
memengine/supersession.py neither retires nor marks ``may_update`` an older the newer names nothing of
(a mark hides the older from the brief as well); a unit both values are counted in (:func:`shares_unit`:
"Le loyer est de 900 euros" / "je paie maintenant 950 euros pour l'appartement") is evidence only when it
points at one candidate of the write, as a number without its subject does (memengine/fact_elliptic.py). A fragment without its subject ("Now at 78 kg", "Back to
Gradle.") is not asked: its own guards decide.

Values are no evidence: a number, a date, a unit or a version said by both ("17", "GB", "euros") is the
frame's, not the thing's ("bis 17. August" / "Java 17"); nor are the words a frame is made of, which the
analyser keeps as content ("bis", "hat"), nor the words a change is told with ("moved", "passou":
memengine/fact_change_words.py). Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_alias, fact_period, facts
from memengine.fact_align import same_word
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_cue_lexicon import CHANGE_NOUNS
from memengine.fact_lexicon import STOPWORDS, fold

__all__ = ["FRAME_WORDS", "OWNER_MIN_CANDIDATES", "OWNER_SHARE", "UNIT_ONLY", "owners", "shares_subject", "shares_unit"]

# The mark memengine/supersession.py puts on a verdict whose only evidence is a unit both values are
# counted in (:func:`shares_unit`): kept only when no other candidate of the same write reads so.
UNIT_ONLY = "named by its unit alone"

# Words the analyser keeps as content that name no thing: prepositions and auxiliaries of the frames the
# labelled facts are written in ("von 6 bis 14 Uhr", "hat 16 GB", "tem 16 GB", "has 8 GB"), and the units a
# value is counted in (a value's unit names its kind, not whose it is).
FRAME_WORDS = frozenset({
    "re", "ve", "ll", "bis", "ab", "seit", "hat", "haben", "ist", "sind", "wird", "until", "till", "has", "have", "had", "is", "are",
    "was", "tem", "tiene", "ha", "heeft", "hebben", "a", "est", "sont", "jusqu", "hasta", "ate", "fino", "tot",
    "gb", "mb", "kb", "tb", "go", "mo", "ko", "to", "gib", "mib", "ram", "euro", "euros", "eur", "dollar", "dollars",
    "usd", "minute", "minutes", "minuten", "minutos", "minuti", "hour", "hours", "stunden", "uhr", "h", "ms",
    "seconds", "sekunden", "secondes", "segundos", "secondi", "month", "monat", "mois", "mes", "mese",
    "maand", "week", "woche", "semaine", "semana", "settimana", "day", "days", "tag", "tage", "jour", "jours",
    "dia", "dias", "giorno", "giorni", "dag", "dagen", "year", "jahr", "an", "ano", "anno", "jaar",
})


_TOKEN = re.compile(r"[^\W_]+")
_MEASURE = re.compile(r"\d+(?:am|pm|h|hs|uhr|mg|g|kg|gb|mb|go|mo|km|m|cm|ml|l|min|s|ms|eur|usd|x)")
# the words before a noun (articles, possessives): a change word right after one names a thing ("my shift")
_DETERMINERS = frozenset({
    "the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that",
    "le", "la", "les", "un", "une", "mon", "ma", "mes", "notre", "nos", "ton", "ta", "votre", "son", "sa",
    "el", "los", "las", "una", "mi", "mis", "nuestro", "nuestra", "tu", "su",
    "o", "os", "as", "um", "uma", "meu", "minha", "nosso", "nossa", "seu", "sua",
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "mein", "meine", "unser", "unsere",
    "il", "lo", "gli", "uno", "mio", "mia", "nostro", "nostra", "de", "het", "een", "mijn", "onze", "ons"})


def _no_evidence(raw: str) -> bool:
    """Whether the folded word ``raw`` names nothing: a stop word, a frame word, a value with digits, a change or a
    "now" word (a change noun names the event itself: "le déménagement", "der Umzug")."""
    if raw in STOPWORDS or raw in FRAME_WORDS or raw.isdigit():
        return True
    return (raw in CHANGE_WORDS or raw in NOW_WORDS) and raw not in CHANGE_NOUNS


@lru_cache(maxsize=4096)
def _keys(text: str) -> tuple[str, ...]:
    """The words of ``text`` that may name its thing: every folded word of two letters or more that
    :func:`_no_evidence` keeps or that is a name (capitalised inside the sentence: "the Volvo" is no
    Spanish "volver"), and the analyser's keys of its content words (a synonym mapped to one key,
    the older value a change names: "von GitLab zu GitHub"), the same left out. (A verb both say counts:
    "Wir nutzen Jira" / "Wir nutzen jetzt Linear" name one slot by it; analysed, "6pm closing at the
    library" has "library" for its verb, so the main verb cannot be told from the thing.)"""
    f = facts.analyse(text)
    tokens = [fold(t) for t in _TOKEN.findall(text)]
    raw = _TOKEN.findall(text)
    out = set()
    periods = fact_period.period_words(text)  # a value's words ("fim de março", "finales de"), no thing's
    for n, (t, r) in enumerate(zip(tokens, raw)):
        if len(t) < 2 or t.isdigit() or t in STOPWORDS or t in FRAME_WORDS or t in periods:
            continue
        if any(ch.isdigit() for ch in t) and (not any(ch.isalpha() for ch in t[-2:] + t[:1]) or _MEASURE.fullmatch(t)):
            continue  # ("7am", "25mg": values; kept: "10k", "14th", "w1", "k8s": a value that names a thing)
        if not _no_evidence(t) or n and r[0].isupper() and r.isalpha():
            out.add(t)  # (a name: "the Volvo" is no Spanish "volver")
        elif n and tokens[n - 1] in _DETERMINERS:
            out.add(t)  # a change word used as a noun: "my shift", "the move", "la mudanza"
    for key in [w.key for w in f.words] + [fold(w) for w in f.old_words]:
        if key.startswith("AX:"):
            continue
        out |= {p for p in key.split() if len(p) > 1 and not _no_evidence(p) and p not in periods}
    return tuple(sorted(out))


def _part(short: str, long: str) -> bool:
    """Whether ``short`` (four letters or more) opens the compound ``long``: "Kurs" / "Kurspreis", "ergo" /
    "Ergotherapie". Another thing for the slot ("team" / "Teamleiter"), but named: evidence enough here."""
    return len(short) >= 4 and len(long) > len(short) and long.startswith(short)


def _names(a: str, b: str) -> bool:
    """Whether the keys ``a`` and ``b`` name one word: the same word or an inflection (fact_align's reading),
    or one opening the other (a compound)."""
    return same_word(a, b) or _part(a, b) or _part(b, a)


def shares_subject(old: str, new: str, owner: frozenset[str] = frozenset()) -> bool:
    """Whether ``new`` names anything of ``old`` other than a value or a frame word: a content word of
    both (memengine/fact_align.py's one-word reading: an inflection, a shared prefix; or one word opening
    the other, a compound), or a word of one
    that names a word of the other by its letters, an acronym, a pronoun for the older's named subject
    (memengine/fact_alias.py rewrites the newer). The main verb of both, each with a named subject, is the
    frame's and no evidence (:func:`_verb`). A word of ``owner`` (:func:`owners`: what most facts of the
    store are about, "The user …", "O usuário …") is no evidence either; said by both with the main verb of
    both, it names the slot as a pronoun subject would ("The user lives in Edinburgh" / "The user relocated
    to Glasgow": the owner lives somewhere else now)."""
    ka, kb = _keys(old), _keys(new)
    va, vb = _verb(old), _verb(new)
    owned = verb = False
    for a in ka:
        for b in kb:
            if not _names(a, b):
                continue
            if b in owner:
                owned = True
            elif a in va and b in vb:
                verb = True
            else:
                return True
    if owned and verb:
        return True
    return fact_alias.aliased(old, new) != new


def shared_words(old: str, new: str) -> frozenset[str]:
    """The words of ``new`` (as :func:`_keys` reads them) that name a word of ``old``: the same word, an
    inflection, one opening the other. What :func:`shares_subject` found its evidence in, for
    memengine/supersession.py's ``_one_subject``."""
    ka = _keys(old)
    return frozenset(b for b in _keys(new) if any(_names(a, b) for a in ka))


# A word of the newer most candidates of its write hold names whom the store is about, not the slot: asked
# only of a write with this many candidates (a pair, or a store of a few facts, has no owner), held by this
# share of them. (Not a list of owner words: the store says which word it is, in any language.)
OWNER_MIN_CANDIDATES = 6
OWNER_SHARE = 0.5


def owners(new: str, olders: list[str]) -> frozenset[str]:
    """The words of ``new`` (as :func:`_keys` reads them) that at least :data:`OWNER_SHARE` of ``olders``
    (the candidates of its write, :data:`OWNER_MIN_CANDIDATES` or more) say too: a store-relative document
    frequency. In one agent's notes "The user …", "O usuário …", "We …" begin most facts; a change of one of
    them shares that word with all the others, which is no evidence that it is about any of them."""
    if len(olders) < OWNER_MIN_CANDIDATES:
        return frozenset()
    held = [_keys(o) for o in olders]
    need = OWNER_SHARE * len(olders)
    return frozenset(b for b in _keys(new)
                     if sum(any(same_word(a, b) for a in ka) for ka in held) >= need)


@lru_cache(maxsize=4096)
def _verb(text: str) -> frozenset[str]:
    """The main verb of ``text`` (folded and as the analyser keys it) when its subject is named, not a pronoun:
    a verb both sentences take as their main one is the frame's ("La API de pagos usa Stripe" / "la app usa
    Supabase ahora"); with a pronoun for a subject the verb is all that names the slot ("Wir nutzen Jira" /
    "Wir nutzen jetzt Linear")."""
    f = facts.analyse(text)
    if f.predicate is None or f.pronoun:
        return frozenset()
    w = f.words[f.predicate]
    return frozenset({fold(w.text), w.key})


def shares_unit(old: str, new: str) -> bool:
    """Whether a value of ``old`` and one of ``new`` are counted in the same unit ("25mg" / "50mg", "10 MB" /
    "25 MB", "8 hours" / "7 hours", "900 euros" / "950 euros"): weak evidence, as many facts of one store
    hold euros or hours; memengine/supersession.py trusts it only when one candidate of a write has it."""
    units_a = {v.norm[0] for v in facts.analyse(old).values if v.kind == "number" and v.norm and v.norm[0]}
    return any(v.kind == "number" and v.norm and v.norm[0] in units_a for v in facts.analyse(new).values)
