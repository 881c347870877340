"""The older's value named as what was left for another: "We ditched MySQL for Postgres", "Migramos do SQL Server
para o PostgreSQL", "Wir sind … von Hetzner zu IONOS umgezogen", "Priya traded the Yaris in for a Kia Niro" (facts27).

A migration or a swap is often told with no word of the older's subject: "Our main database is MySQL 5.7" / "We
ditched MySQL for Postgres last month" says neither "main" nor "database", and the frame rules
(memengine/facts.py) and memengine/fact_disposed.py (which wants every word of the older's subject said again)
see two facts. What ties them is the older's own value, a name, said again in the newer as the thing left: after a
word of leaving ("from", "off", "von", "van", "do", "da", "de") or as the object of a verb of leaving or trading
("ditched", "traded", "lasciato", "revendu"), with another name said after it. The older's value then no longer
holds, whatever its subject was called.

Guards: the newer is asserted (memengine/fact_mood.py: "If we move off Heroku …" is a plan); the name left is the
older's value, not its subject ("Priya lives in Leeds" / "Priya moved from Leeds …" is where she lives, but
"Priya" is no value); every content word before the leaving is the older's or a first person's ("My sister
switched from Monzo …" speaks of her bank); another name comes after it; the older states no number a swap says
nothing of (a price, an amount). memengine/supersession.py keeps such a verdict only when a single candidate reads
so (two facts that name MySQL: nobody can tell which one the migration ended). Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine.fact_align import same_word
from memengine.fact_change_words import CHANGE_WORDS
from memengine.fact_disposed import DISPOSAL_VERBS
from memengine.fact_lexicon import LANG_AUX, LANG_COPULA, STOPWORDS, _set, fold
from memengine.fact_tokens import guess_lang
from memengine.fact_types import Verdict

__all__ = ["REASON", "left_for"]

REASON = "the older's value left for another"

# The words a value left is said after: "from MySQL", "off Heroku", "von Hetzner", "van Azure", "do SQL Server".
_FROM = _set("from off", "von", "de du des", "de del desde", "do da dos das de", "da dal dalla dai di", "van")
# The words another value is said after: "to Postgres", "for Buildkite", "zu IONOS", "para o PostgreSQL", "naar GitHub".
_TO = _set("to onto into for", "zu nach auf", "a au aux vers pour chez", "a al para hacia por",
           "para pro pelo pela por", "a ad al alla allo su per", "naar op voor")
# (words of another language's too: English "do", German "das", "da": from only in a Romance sentence)
_ROMANCE_FROM = _set("do da das dos")
# Verbs of leaving or trading a value for another, beyond memengine/fact_disposed.py's disposal verbs: a
# migration's and a trade's ("traded the Yaris in", "a revendu sa Clio", "ha lasciato la Virgin Active").
_VERBS = DISPOSAL_VERBS | _set(
    "traded swapped replaced migrated moved switched",
    "getauscht ersetzt migriert",
    "revendu revendue remplace remplacee migre migree",
    "cambiamos cambie reemplazamos reemplazado migramos migrado migre",
    "trocamos troquei trocou substituimos migramos migrou migrei",
    "sostituito sostituita migrato migrata migrati",
    "vervangen gemigreerd ingeruild")
# The words the first person is said with (they name nobody else).
_FIRST = _set("i we me us my our", "ich wir mein meine unser unsere", "je nous mon ma mes notre nos on",
              "yo nosotros mi mis nuestro nuestra", "eu nos meu minha nosso nossa", "io noi mio mia nostro nostra",
              "ik wij we mijn ons onze")
# (auxiliaries: "ha", "sind"; Dutch ones are not in the engine's tables: "zijn", "hebben")
_FUNCTION = STOPWORDS.union(*LANG_AUX.values(), *LANG_COPULA.values()) | _set("zijn ben hebben heeft hebt werd werden")
_TOKEN = re.compile(r"[^\W_][\w.+-]*[^\W_]|[^\W_]")
_REACH = 3  # words from a verb of leaving to the name (articles and possessives between: "the", "sa", "la")


# (only from a token's start: tried at every letter of a 200 KB word, a store took minutes over one note; users25.
# No possessive quantifier: pyproject allows Python 3.10, which has none)
_VERSIONED = re.compile(r"(?<![\w+-])([^\W\d_][\w+-]*)\s+v?\d+(?:\.\d+)*\b")


def _names(text: str) -> set[str]:
    """The names (folded words) ``text`` states as values: memengine/fact_kind.py's, and a versioned name's word
    ("MySQL 5.7", which it reads as a version)."""
    from memengine import fact_kind

    out = set(fact_kind.names(text))
    out |= {fold(w) for w in _VERSIONED.findall(text) if any(ch.isupper() for ch in w)
            and fold(w) not in STOPWORDS and not text.startswith(w)}
    return out


def _value_names(old: str) -> set[str]:
    """The names (folded words) ``old`` states after its subject phrase: its value's."""
    from memengine import facts

    f = facts.analyse(old)
    subject = {fold(w.text) for w in f.words[:f.subject_end]}
    return {n for n in _names(old) if n not in subject}


def left_for(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict (reason :data:`REASON`) when ``new`` says the name ``old`` states as its value was left
    for another name (see the module docstring), else None."""
    names = _value_names(old)
    if not names or any(ch.isdigit() for ch in old.replace(".", "")) and not _versioned(old):
        return None
    from memengine import fact_mood

    got = _left(old, new, names)
    if got is None:
        got = _cancelled(old, new, names)
    return None if got is None or fact_mood.unasserted(new) else got


def _left(old: str, new: str, names: set[str]) -> Verdict | None:
    """The first reading of :func:`left_for`: the name left after a word of leaving, another name after it."""
    toks = _TOKEN.findall(new)
    low = [fold(t) for t in toks]
    said = {fold(t) for t in _TOKEN.findall(old)}
    lang = guess_lang(new)
    for j, w in enumerate(low):
        if w not in names or not _left_at(low, j, lang):
            continue
        before = [x for x in low[:j] if x not in _FUNCTION and x not in _FIRST and not any(same_word(x, y) for y in said)
                  and x not in _VERBS and x not in CHANGE_WORDS and x not in _FROM]
        if before:
            return None  # someone else's or another thing's ("My sister switched from Monzo …")
        fresh = _names(new) - said
        after = [k for k in range(j + 1, len(toks)) if fold(toks[k]) in fresh]
        if not after:
            return None
        # "de" / "di" / "von" is a genitive too ("el jefe de Carlos es Andrés"): a word of leaving says a move only
        # with a change verb or a word of arriving before the other name ("de X a Y", "von X zu Y")
        if not _left_by_verb(low, j) and not any(w in CHANGE_WORDS or w in _VERBS for w in low) and not any(
                w in _TO for w in low[j + 1:after[0]]):
            return None
        return Verdict("slot", f"{REASON}: {toks[j]} -> {toks[after[0]]}", 0.8)
    return None


# "Owen cancelled his Three contract and went with giffgaff", "Jana hat bei der Telekom gekündigt und ist zu 1&1
# gegangen", "se dio de baja en Movistar y ahora tiene Digi", "cancelou a inscrição no Fitness Hut e entrou para a
# piscina municipal": the older's value cancelled in one clause, another taken in the next. Verbs of ending a
# subscription beyond the disposal verbs:
_CANCEL = DISPOSAL_VERBS | _set("terminated ended closed unsubscribed", "beendet gekundigt", "baja rescindi rescindio",
                                "encerrei encerrou rescindi rescindiu", "chiuso chiusa", "opgezegd afgemeld gestopt")
# Verbs of taking another: the second clause's.
_TAKE = _set("joined went signed got took switched moved picked chose",
             "gegangen gewechselt abgeschlossen genommen angemeldet eingetreten geholt",
             "pris prise rejoint inscrit inscrite abonne abonnee passe passee souscrit choisi",
             "tiene tengo tenemos contratado contrato contrate apuntado apunto apunte cogido pasado paso pase fue fui",
             "entrou entrei aderiu aderi inscreveu inscrevi contratou contratei pegou peguei passou passei foi fui tem",
             "preso presa iscritto iscritta passata passato passati attivato attivata scelto andato andata",
             "genomen overgestapt ingeschreven aangemeld gekozen gegaan afgesloten")
_AND = _set("and", "und", "et", "y e", "e ed", "en")
# The light verb of a cancelling phrase ("se dio de baja", "deu baixa"): no word of another subject.
_LIGHT = _set("dio di dimos doy damos dado", "dei deu demos dou damos")
_NOUN_GAP = 4  # tokens from the verb of cancelling to the value ("cancelou a inscrição no Fitness Hut")


def _cancelled(old: str, new: str, names: set[str]) -> Verdict | None:
    """A ``slot`` verdict when ``new`` cancels the older's value (a name of ``names``) in one clause and takes
    another in the next, joined by "and" (see :data:`_CANCEL`), else None."""
    toks = _TOKEN.findall(new)
    low = [fold(t) for t in toks]
    said = {fold(t) for t in _TOKEN.findall(old)}
    for c, w in enumerate(low):
        if w not in _AND:
            continue
        first, second = low[:c], low[c + 1:]
        verb = next((i for i, x in enumerate(first) if x in _CANCEL), None)
        if verb is None:
            continue
        at = [j for j, x in enumerate(first) if x in names and abs(j - verb) <= _NOUN_GAP and sum(
            y not in _FUNCTION for y in first[min(j, verb) + 1:max(j, verb)]) <= 1]
        if not at:
            continue
        before = [x for x in first[:min(at[0], verb)] if x not in _FUNCTION and x not in _FIRST
                  and not any(same_word(x, y) for y in said) and x not in _CANCEL and x not in _LIGHT]
        take = next((i for i, x in enumerate(second) if x in _TAKE), None)
        fresh = [x for x in second if x not in _FUNCTION and x not in _TAKE and x not in said
                 and x not in CHANGE_WORDS and x not in _FIRST]
        if before or take is None or not fresh:
            continue
        return Verdict("slot", f"{REASON}: {toks[at[0]]} -> {' '.join(fresh[:3])}", 0.8)
    return None


def _left_by_verb(low: list[str], j: int) -> bool:
    """Whether the name at ``j`` is the object of a verb of leaving or trading (articles between)."""
    for d in range(1, _REACH + 1):
        i = j - d
        if i < 0:
            return False
        if low[i] in _VERBS:
            return True
        if low[i] not in STOPWORDS:
            return False
    return False


def _left_at(low: list[str], j: int, lang: str) -> bool:
    """Whether the name at ``j`` is said as what was left: a word of leaving or a verb of leaving or trading
    right before it, only articles and possessives between ("traded the Yaris", "a revendu sa Clio")."""
    for d in range(1, _REACH + 1):
        i = j - d
        if i < 0:
            return False
        if low[i] in _VERBS or low[i] in _FROM and (low[i] not in _ROMANCE_FROM or lang in ("pt", "it", "es")):
            return True
        if low[i] not in STOPWORDS:
            return False
    return False


_VERSION = re.compile(r"\b[^\W\d_][\w+-]*\s+\d+(?:\.\d+)*\b")


def _versioned(old: str) -> bool:
    """Whether every number ``old`` states is a name's version ("MySQL 5.7", "a 2015 Toyota Yaris" not): a
    version goes with its name, an amount is another value a swap says nothing of."""
    rest = _VERSION.sub(" ", old)
    return not any(ch.isdigit() for ch in rest)


def left_names(new: str) -> frozenset[str]:
    """The names (folded words) ``new`` says were left: after a word of leaving or as the object of a verb of
    leaving or trading ("switched from Notion", "trocou o SketchUp", "est passée de WebStorm")."""
    toks = _TOKEN.findall(new)
    low = [fold(t) for t in toks]
    names = _names(new)
    lang = guess_lang(new)
    return frozenset(w for j, w in enumerate(low) if w in names and _left_at(low, j, lang))
