"""Change language in a fact sentence: "moved to Friday", "switched from Jira to Linear",
"replaced X with Y", "now uses", "instead of", and their French, Spanish, German and
Portuguese forms.

A sentence that says its slot changed is an update of the fact holding the old value, even
though its verb ("switched") is not the old fact's verb ("uses"). :func:`find` reads, over the
tokens memengine/facts.py made, which token is the change verb, which tokens name the old
value ("from Jira", "replaced Jenkins with ...", "instead of coffee") and which the new one
("to Linear"); facts.py leaves the verb and the old value out of the sentence's frame, so
"The team switched from Jira to Linear" reads as "the team [is now on] Linear" with "Jira"
as the value it replaces.

Two kinds of verbs. *Strong* ones only ever mean a change of value ("switched", "changed",
"rescheduled", "replaced", "gewechselt", "cambiado"). *Motion* ones ("moved", "went",
"passé", "pasó") also describe going somewhere, so they count only with both a "from" and a
"to" ("went from espresso to green tea") or when the destination is a date or time ("moved
to Friday"); "moved to Porto" is a move of house, read as "lives in" before this module runs.
Pure functions over tokens: no SQL, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from memengine.fact_lexicon import DETERMINERS, LANG_AUX, LANG_COPULA, STOPWORDS, _set, fold

_FUNCTION = STOPWORDS.union(*LANG_COPULA.values(), *LANG_AUX.values())

STRONG_VERBS = _set(
    "switched switch switches changed change changes rescheduled reschedule reschedules replaced replace "
    "replaces migrated migrate migrates upgraded downgraded updated bumped swapped transferred renamed "
    "rebranded raised increased reduced lowered decreased cut dropped rose extended shortened rotated",
    "change changee changes changees remplace remplacee remplaces remplacees reprogramme reprogrammee "
    "reporte reportee migre migree bascule basculee augmente augmentee baisse baissee reduit reduite prolonge "
    "prolongee "
    "renomme renommee decale decalee avance avancee repousse repoussee",
    "cambiado cambiada cambiados cambiadas cambio cambiaron reemplazado reemplazada reemplazo sustituido "
    "sustituida sustituyo reprogramado reprogramada aplazado aplazada pospuesto pospuesta migrado migro "
    "aumentado aumentada subido subida bajado bajada reducido reducida renombrado renombrada cambiamos "
    "bajaron subieron redujeron subio redujo rebajo rebajado rebajada ampliado ampliada prorrogado prorrogada",
    "gewechselt wechselt wechselte geandert andert anderte umgestellt verschoben verlegt ersetzt migriert "
    "umgestiegen erhoht gesenkt reduziert umbenannt verlangert",
    "mudou mudado mudada mudaram trocou trocado trocada trocaram substituiu substituido substituida "
    "remarcado remarcada adiado adiada migrou migrado alterado alterada alterou aumentou aumentado subiu "
    "baixou reduzido reduzida reduziu diminuiu diminuido diminuida renomeado renomeada trocamos mudamos prorrogado prorrogada estendido estendida",
    "cambiato cambiata cambiati cambiate sostituito sostituita sostituiti rinviato rinviata posticipato posticipata "
    "anticipato anticipata aumentato aumentata alzato alzata ridotto ridotta abbassato abbassata diminuito "
    "diminuita rinominato rinominata prorogato prorogata",
)
MOTION_VERBS = _set(
    "moved move moves shifted pushed postponed went gone",
    "passe passee passes passees deplace deplacee deplaces deplacees",
    "pasado pasada paso pasaron movido movida movio trasladado trasladada pasamos",
    "gezogen",
    "passou passado passada passamos",
    "passato passata passati passa spostato spostata spostati spostate",
)
# Verbs whose object is the old value and whose "with" / "by" phrase the new one.
REPLACE_VERBS = _set(
    "replaced replace replaces swapped",
    "remplace remplacee remplaces remplacees",
    "reemplazado reemplazada reemplazo sustituido sustituida sustituyo",
    "ersetzt",
    "substituiu substituido substituida trocou trocado trocada trocamos",
    "sostituito sostituita sostituiti",
)
LANGS = ("en", "fr", "es", "de", "pt", "it")


def _by_lang(*blocks: str) -> dict[str, frozenset[str]]:
    return dict(zip(LANGS, (_set(b) for b in blocks)))


# Per language: English "a" is an article, French "à" (folded "a") a preposition.
FROM_PREPS = _by_lang("from", "de du des d", "de del desde", "von vom", "de do da dos das", "da dal dalla dai di del della")
TO_PREPS = _by_lang("to for until", "a au aux pour", "a al para hasta", "zu zum zur auf nach", "para pra ao aos a as",
                    "a al alla ai alle allo fino")
WITH_PREPS = _by_lang("with by", "par", "por con", "durch mit", "por pelo pela com", "con dal dalla")
# "instead of X": X is the value being replaced (phrases joined by facts.py's rewriting).
INSTEAD = _set("instead_of au_lieu_de en_lugar_de en_vez_de anstatt statt anstelle em_vez_de em_lugar_de")
INSTEAD_PHRASES: tuple[tuple[str, str], ...] = tuple(
    (p, p.replace(" ", "_")) for p in (
        "instead of", "au lieu de", "au lieu du", "au lieu des", "en lugar de", "en vez de", "em vez de",
        "em lugar de", "anstelle von"))
NOW = _set("now nowadays", "maintenant desormais", "ahora", "jetzt nun inzwischen mittlerweile", "agora", "adesso ora ormai")
# "now also": something added, not replaced
ADDITIVE = _set("also too additionally", "aussi egalement", "tambien ademas", "auch zusatzlich", "tambem", "anche inoltre")
# "another", "otro": one more of a kind, the one before stays ("We got another dog")
ANOTHER = _set("another", "autre autres", "otro otra otros otras", "weitere weiteren weiterer weiteres",
               "outro outra outros outras", "altro altra altri altre")
# Words that may sit between a verb and its "from" / "to": "went up from", "pushed back to".
PARTICLES = _set("up down back over forward out along", "se s", "se", "sich", "se", "si")
VERB_LAST = frozenset({"de"})  # a participle at the end: its "from" / "to" phrases come before it
_CHANGE_VERBS = STRONG_VERBS | MOTION_VERBS
_DETERMINERS = DETERMINERS | _set("my our your his her their its mon ma mes notre nos son sa ses mi mis su sus nuestro "
                                  "nuestra mein meine meinen unser unsere sein seine ihr ihre meu minha nosso nossa "
                                  "il lo gli mio mia miei mie nostro nostra suo sua")
OF = _set("of", "de d du des", "de del", "von vom", "de do da dos das", "di del della dei degli delle")
_AUX_DE = LANG_AUX["de"] | LANG_COPULA["de"]
# Possessives of someone else: "my husband cut HIS coffee to 1 cup" is not about me.
THIRD_POSSESSIVES = _set("his her their", "son sa ses leur leurs", "su sus", "sein seine seinen seinem seiner ihr "
                         "ihre ihren ihrem ihrer", "seu sua seus suas dele dela deles delas", "suo sua suoi sue")
MAX_PHRASE = 4  # tokens in a value phrase ("GitHub Actions", "green tea", "March 10")


class Token(Protocol):
    """What :func:`find` needs of facts.py's tokens."""

    kind: str
    text: str
    low: str
    role: str


@dataclass
class Change:
    """Where a sentence says its slot changed: ``verb`` (token index, or None for "now" /
    "instead of"), ``old`` and ``new`` (token indices of the old and new value phrases)."""

    marker: str  # "verb", "now", "instead"
    verb: int | None = None
    old: set[int] = field(default_factory=set)
    new: set[int] = field(default_factory=set)
    # "My doctor | lowered | my dose | to 10mg": what the verb changed (its object) and who did it
    obj: set[int] = field(default_factory=set)
    agent: set[int] = field(default_factory=set)


def _key(tok: Token) -> str:
    return fold(tok.low) if tok.kind == "word" else ""


def _phrase(toks: Sequence[Token], start: int, stop: int) -> set[int]:
    """The value phrase from ``start`` (leading function words skipped) to the first function
    word after it, at most MAX_PHRASE tokens and never at or past ``stop``."""
    i = start
    while i < stop and toks[i].kind == "word" and not toks[i].role and _key(toks[i]) in STOPWORDS:
        i += 1
    out: set[int] = set()
    while i < stop and len(out) < MAX_PHRASE:
        t = toks[i]
        if t.kind == "word" and not t.role and _key(t) in STOPWORDS:
            break
        if t.role not in ("", "value", "unit"):
            break
        out.add(i)
        i += 1
    return out


def _next_prep(toks: Sequence[Token], start: int, preps: frozenset[str], reach: int) -> int | None:
    """The first of ``preps`` within ``reach`` tokens of ``start``, only particles in between."""
    for j in range(start, min(len(toks), start + reach)):
        k = _key(toks[j])
        if k in preps and not toks[j].role:
            return j
        if k not in PARTICLES:
            return None
    return None


def _to_after_object(toks: Sequence[Token], start: int, preps: frozenset[str]) -> int | None:
    """A "to" after a short object of a strong verb ("renamed | the wifi network | to Loft",
    "lowered | my dose of aspirin | to 20mg"); the object holds no value and no other preposition
    than "of" and particles ("cut my coffee down to")."""
    for j in range(start, min(len(toks), start + MAX_PHRASE + 3)):
        if toks[j].kind != "word" or toks[j].role:
            return None
        k = _key(toks[j])
        if k in preps and not (j == start and k in _DETERMINERS):  # (Portuguese "a" is "the")
            return j if j > start else None
        if k in STOPWORDS and k not in _DETERMINERS and k not in OF and k not in PARTICLES:
            return None
    return None


def _object_and_agent(toks: Sequence[Token], ch: Change, first: int, to: int, verb_at: int) -> None:
    """Record the object (``first`` .. ``to``) and the agent (what stands before ``verb_at``)."""
    obj = set(range(first, to))
    if any(toks[i].kind == "word" and _key(toks[i]) not in _FUNCTION for i in obj):
        ch.obj = obj
        ch.agent = set(range(verb_at))


def _find_back(toks: Sequence[Token], end: int, preps: frozenset[str], reach: int) -> int | None:
    for j in range(end - 1, max(-1, end - 1 - reach), -1):
        if _key(toks[j]) in preps and not toks[j].role:
            return j
    return None


def _has_time(toks: Sequence[Token], idx: set[int]) -> bool:
    return any(toks[i].role == "value" for i in idx)


def _verb_change(toks: Sequence[Token], v: int, lang: str) -> Change | None:
    key = _key(toks[v])
    from_p, to_p, with_p = FROM_PREPS[lang], TO_PREPS[lang], WITH_PREPS[lang]
    n = len(toks)
    ch = Change("verb", v)
    if key in REPLACE_VERBS:
        w = next((j for j in range(v + 1, min(n, v + 2 + MAX_PHRASE)) if _key(toks[j]) in with_p), None)
        if w is not None:
            ch.old = _phrase(toks, v + 1, w)
            ch.new = _phrase(toks, w + 1, n)
            if not ch.old:  # "Jenkins was replaced by GitHub Actions": the old value is the subject
                ch.old = {i for i in range(v) if toks[i].kind != "word" or _key(toks[i]) not in _FUNCTION}
        else:  # verb last (German): "... Jenkins durch GitHub Actions ersetzt"
            w = _find_back(toks, v, with_p, MAX_PHRASE + 1) if lang in VERB_LAST else None
            if w is None:
                return None
            ch.new = _phrase(toks, w + 1, v)
            start = w
            while start > 0 and toks[start - 1].kind == "word" and _key(toks[start - 1]) not in STOPWORDS \
                    and not toks[start - 1].role and w - start < MAX_PHRASE:
                start -= 1
            ch.old = set(range(start, w))
        return ch if ch.old and ch.new else None
    f = _next_prep(toks, v + 1, from_p, 3)
    if f is not None:
        t = next((j for j in range(f + 1, min(n, f + 2 + MAX_PHRASE)) if _key(toks[j]) in to_p
                  and not toks[j].role), None)
        if t is not None:
            ch.old, ch.new = _phrase(toks, f + 1, t), _phrase(toks, t + 1, n)
    else:
        t = _next_prep(toks, v + 1, to_p, 3)
        if (t is None or _key(toks[t]) in _DETERMINERS and t + 1 < n and toks[t + 1].text[:1].islower()) \
                and key in STRONG_VERBS:
            # (an article that reads as "to": "reduziu a dose de omeprazol para 10mg")
            after = _to_after_object(toks, v + 1, to_p)
            if after is not None:
                t = after
                _object_and_agent(toks, ch, v + 1, t, v)
        if t is not None:
            ch.new = _phrase(toks, t + 1, n)
        elif lang in VERB_LAST:  # "von Jira zu Linear gewechselt", "auf Samstag verschoben"
            t = _find_back(toks, v, to_p, MAX_PHRASE + 1)
            if t is not None:
                ch.new = _phrase(toks, t + 1, v)
                f = _find_back(toks, t, from_p, MAX_PHRASE + 1)
                if f is not None:
                    ch.old = _phrase(toks, f + 1, t)
                else:  # "Die Ärztin hat | meine Dosis | auf 5mg gesenkt"
                    aux = next((j for j in range(t) if _key(toks[j]) in _AUX_DE), None)
                    if aux is not None and key in STRONG_VERBS:
                        _object_and_agent(toks, ch, aux + 1, t, aux)
    if not ch.new:
        return None
    if key in MOTION_VERBS and not ch.old and not _has_time(toks, ch.new):
        return None  # "went to the dentist": somewhere, not a new value
    return ch


def find(toks: Sequence[Token], lang: str) -> Change | None:
    """The change a sentence (in ``lang``) states, or None (see the module docstring)."""
    lang = lang if lang in FROM_PREPS else "en"
    for v, t in enumerate(toks):
        if t.kind == "word" and not t.role and _key(t) in _CHANGE_VERBS:
            ch = _verb_change(toks, v, lang)
            if ch is not None:
                return ch
    for i, t in enumerate(toks):
        if t.kind == "word" and _key(t) in INSTEAD:
            old = _phrase(toks, i + 1, len(toks))
            if old:
                return Change("instead", None, old)
    keys = {_key(t) for t in toks}
    if keys & NOW and not keys & ADDITIVE:
        return Change("now")
    return None
