"""A new value said in chat shorthand: the newer names nothing the older does not, gives another value
of one of the older's kinds, and says that it changed.

People rarely restate a fact's frame when its value changes. They write the new value with a word
that says it changed, and whatever else they write either repeats the older's words or is no
content at all:

- a standing change announced with its start: "starting monday pickup is 3:30", "ab märz öffnet die
  krippe erst um 8", "a partir de março o pilates passa pras terças", "da settembre il mercato si
  sposta al giovedì" (the start phrase is when, not a value);
- an amount that went up, with no subject noun: "went up to 14.99 this month ugh", "jetzt 15€ im
  monat, wieder teurer geworden", "passé à 18€ ce mois-ci", "subiu pra 119 esse mês";
- an event put off or brought forward: "plumber pushed it back to the 11th", "demo got moved up to
  the 15th", "sommerfest ist auf den 12. juli verschoben", "foi antecipada pro dia 15";
- a correction as a fragment: "sorry, saturday the 10th not friday", "perdón, el 20, no el 19" (the
  value after "not" is the older's: what is corrected).

:func:`detect` reads both sentences with its own small value reader (times, days, amounts: what
such slots hold) and accepts a pair when

1. the newer states a change: a change word in six languages, a start phrase, or a correction that
   names the older's value after its negation;
2. every kind of value the newer gives is a kind the older states, and one of them differs;
3. every content word of the newer's clauses up to its value repeats a word of the older (a stem, or
   an abbreviation: "ortho" / "orthodontist"); a trailing clause that holds no value is a comment
   ("attic leaks", "QA found stuff", "er ist zu dick") and is not read;
4. the newer is no question, plan or anecdote (memengine/fact_mood.py), no exception for one day
   (memengine/fact_occasion.py), adds nothing ("also", "another") and keeps nothing ("still").

When the newer shares no content word with the older at all ("went up again, 10.99 now"), only an
amount with a word of rising or falling, a date with a word of putting off, or a correction naming
the older's value counts, and memengine/supersession.py applies it only when the older is the one
fact near it that reads so (:data:`REASON` marks such a verdict). Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memengine import fact_mood, fact_occasion, fact_owner
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, STOPWORDS, WEEKDAYS, _set, fold_text
from memengine.fact_lexicon import same_stem as _same
from memengine.fact_types import Verdict
from memengine.fact_when import OPENERS, TIME_NOUNS

__all__ = ["REASON", "detect", "fragment"]

REASON = "said without its subject"  # a verdict of a newer that shares no content word with the older

# Saying that a value changed (six languages; folded).
CHANGE = _set(
    "now anymore nowadays lately instead changed change switched moved moves move went goes gone up down raised reset "
    "raise increased hiked bumped upped dropped lowered cut reduced cheaper pricier pushed postponed delayed "
    "rescheduled reschedueld resched slipped brought forward",
    "maintenant desormais dorenavant plutot augmente augmentee augmentes baisse baissee passe passee passent "
    "decale decalee repousse repoussee reporte reportee avance avancee deplace deplacee change changee",
    "ahora ya cambio cambiaron cambiado subio subieron subido sube suben bajo bajaron bajado aplazado aplazada "
    "aplazaron pospuesto pospuesta pospusieron adelantaron adelantado adelantada retrasaron retrasado movieron "
    "pasa pasan paso",
    "jetzt nun inzwischen mittlerweile stattdessen teurer billiger erhoht erhöht gestiegen gesenkt verschoben "
    "vorverlegt vorgezogen verlegt geandert geändert",
    "agora ja subiu aumentou aumentaram baixou passou passa adiaram adiado adiada antecipada antecipado "
    "anteciparam remarcaram remarcado mudou mudaram",
    "adesso ora ormai invece aumentato aumentata aumentati salito salita sceso scesa alzato alzati rimandata "
    "rimandato rimandato rinviato rinviata anticipato anticipata spostato spostata sposta spostano cambiato "
    "slittato slittata slitta slittano",
    # Dutch (facts39: a honey price "verhoogd naar 9,50" was read in no language's words)
    "nu voortaan tegenwoordig inmiddels verhoogd verlaagd gestegen gedaald duurder goedkoper verschoven verplaatst "
    "veranderd gewijzigd verzet uitgesteld vervroegd",
)
# An amount that rose or fell, or a date put off / brought forward: what a fragment with no subject needs.
_AMOUNT_MOVED = _set(
    "up down raised increased hiked bumped upped dropped lowered cut reduced cheaper pricier prices price rate",
    "augmente augmentee baisse baissee passe passee prix tarif",
    "subio subieron subido sube bajo bajaron bajado precios precio",
    "teurer billiger erhoht gestiegen gesenkt preise preis",
    "subiu aumentou aumentaram baixou passou precos preco",
    "aumentato aumentata salito salita sceso scesa alzato alzati prezzi prezzo",
)
_DATE_MOVED = _set(
    "pushed postponed delayed rescheduled reschedueld resched slipped moved forward",
    "decale decalee repousse repoussee reporte reportee avance avancee deplace deplacee",
    "aplazado aplazada aplazaron pospuesto pospuesta pospusieron adelantaron adelantado adelantada retrasaron "
    "retrasado movieron",
    "verschoben vorverlegt vorgezogen verlegt",
    "adiaram adiado adiada antecipada antecipado anteciparam remarcaram remarcado",
    "rimandata rimandato rinviato rinviata anticipato anticipata spostato spostata slittato slittata",
)
# Words that are no content: units, currencies, periods, fillers and slang, reporting, "only / already".
_NOT_CONTENT = _set(
    "dollars dollar bucks usd euros euro eur pounds quid reais real balles pesos cents per an hr hrs hour hours "
    "heure heures hora horas stunde stunden ore day days jour jours dia dias tag tage giorno giorni week weeks "
    "semaine semaines semana semanas woche wochen settimana settimane month months mois mes meses monat monate "
    "mese mesi year years annee ano anos jahr jahre anno anni "
    "units unit mg kg km ml min mins minutes minutos minuten uhr am pm diaria",
    "smh ugh lol lmao omg wow fyi btw ok okay yeah yep so well just only already again same time fine "
    "assurdo incroyable genial pasada kkk haha jaja mdr oof sigh",
    "called said says told texted rang meinte sagte sagt dit dijo disse detto llamaron ligaram chiamato "
    "cant can't make it us me it's its",
    "erst schon nur noch seulement encore solo solamente otra vez so de novo nuovo di wieder always toujours "
    "siempre sempre immer dran gibts van sale mas plus more back forward weiter",
    "cost costs costing kostet kosten coute coutent cuesta cuestan custa custam costa costano charges charge "
    "pay pays paid zahle zahlen zahlt paie payons pago pagamos paga pagas paghiamo",
    "on onwards forward going est",
    # a role said with a generic noun ("the window guy" is the window cleaner, "alarm company" its firm) and
    # light verbs of coming, being able and the future ("kommt jetzt erst am 17.", "can only do fridays")
    "guy guys lady man woman people folks company firm mec gars type tipo tipa senor senora typ firma leute cara "
    "moco moca tizio tizia ditta "
    "come comes coming kommt kommen vient viene vienen vem vai va sara ser will can could do does kann "
    "peut puede pode puo",
    "prices price rate prix tarif precios precio preise preis precos preco prezzi prezzo geworden",
    "got get gets getting been was were has had have han ha hat hab habe haben wird werden wurde wurden worden hemos "
    "foi foram era fue fueron sido "
    "stato stata stati sono pro pra pras pros pela pelo nos nas aos del dal nel sul dalla alla allo les gli",
    "sorry oops pardon perdon perdona desculpa desculpe scusa scusate entschuldigung sry nee naturlich course "
    "obviously claro ovviamente klar correction meant mean voulais dire quise decir meinte quis dizer volevo "
    "intendevo",
)
# A general statement has no value of its own to change ("A typical adult weighs 70 kg").
_GENERIC = _set("typical typically average usually normally generally most people", "typique moyenne generalement",
                "tipico tipica promedio normalmente generalmente", "typisch durchschnittlich normalerweise meistens",
                "tipico tipica media normalmente geralmente", "tipicamente solitamente generalmente")
_CURRENCY = _set("$ € £ dollars dollar bucks usd euros euro eur pounds quid reais real balles pesos")
_KEEPS = _set("still", "toujours", "todavia aun", "weiterhin", "ainda", "tuttora")  # no change
_ADDS = _set("also too another extra additional", "aussi autre", "tambien ademas otro otra",
             "auch zusatzlich weitere", "tambem outro outra", "anche altro altra")
# A first-person possessive (folded): the newer's thing is mine, not the relative's the older names.
_MINE_RE = re.compile(r"(?:^|[\s,;:(])(?:my|mon|ma|mes|mi|mis|mein|meine|meinen|meinem|meiner|meu|minha|meus|minhas|"
                      r"mio|mia|miei|mie)\s")
_PAST = _set("yesterday", "hier", "ayer", "gestern", "ontem", "ieri")  # a day told, not a value now
_NEGATIONS = _set("not", "pas", "no", "nicht", "nao", "non")
_DAY_WORDS = frozenset(WEEKDAYS) | frozenset(SHORT_WEEKDAYS)
_SHORT_AFTER = _set("as", "às", "na", "nas", "pra", "pras", "para", "de", "aos", "a")  # "às terças"
_DAY_BEFORE = _set("the on", "le au du", "el al del", "am den dem zum", "dia o", "il al dal")
_TIME_BEFORE = _set("at", "a", "las", "um", "bis", "alle", "ore", "as", "às", "till", "until", "til")
_TIME_AFTER = _set("am", "pm", "uhr", "h", "hs")
_MONTHS = frozenset(MONTHS)
_TIME_WORDS = OPENERS | TIME_NOUNS | _MONTHS | _DAY_WORDS
# A part of the day is a value of a schedule, as its weekday is ("tuesday evenings" / "sunday mornings now").
# (Spanish "mañana" and German "morgen" also mean tomorrow: read by memengine/fact_when.py, not here.)
_PARTS = {w: k for k, ws in {
    "morning": "morning mornings matin matins matinee manha manhas vormittag vormittags morgens mattina mattine "
               "mattino",
    "afternoon": "afternoon afternoons apres-midi aprem nachmittag nachmittags pomeriggio pomeriggi",
    "evening": "evening evenings soir soirs soiree abend abends sera sere noite noites",
    "night": "night nights nuit nuits noche noches nacht nachts notte notti"}.items() for w in _set(ws)}
# Weekdays abbreviated in a range ("mo-mi", "mon-thu", "lun-ven", "seg-qua"): read only when joined by a
# dash or slash, each a short form of one language's list (their index is the weekday).
_SHORT_DAYS = tuple({w: i for i, w in enumerate(ws.split())} for ws in (
    "mon tue wed thu fri sat sun", "lun mar mer jeu ven sam dim", "lun mar mie jue vie sab dom",
    "mo di mi do fr sa so", "seg ter qua qui sex sab dom", "lun mar mer gio ven sab dom"))
_DAY_RANGE_RE = re.compile(r"\b([a-z]{2,3})\.?\s?[-/]\s?([a-z]{2,3})\b")
# A standing change said as a phrase, anywhere (often last: "moving to the rec ground going forward"): the
# change is said and the phrase is no value ("daqui pra frente", "d'ora in poi", "a partir de ahora", "ab jetzt").
_STANDING_RE = re.compile(
    r"\b(?:from now on|going forward|moving forward|from here on(?: out)?|from today on|a partir de maintenant|"
    r"dorenavant|a partir de ahora|de ahora en adelante|desde ahora|ab jetzt|von nun an|ab sofort|kunftig|"
    r"daqui (?:pra|para) frente|daqui em diante|de agora em diante|a partir de agora|d'ora in (?:poi|avanti)|"
    r"da ora in poi|da adesso in poi|d'ora innanzi)\b")
# A reason told as its own clause before or after the value ("because of the strike, 9:40 now", "wegen
# des streiks", "à cause de la grève", "por la huelga", "por causa da greve", "per lo sciopero"): its
# words are why, not what, and are not compared.
_REASON_OPEN = ("because", "cause", "cuz", "bc", "due", "thanks", "wegen", "aufgrund", "dank", "a cause", "grace",
                "por la", "por el", "por los", "por las", "por culpa", "debido", "por causa", "devido", "por conta",
                "per lo", "per la", "per il", "per via", "a causa", "causa")
# A start phrase: "from next week (on)", "starting monday", "as of june", "ab märz", "ab nächster woche",
# "seit januar", "à partir de la semaine prochaine", "dès lundi", "depuis septembre", "desde el mes que viene",
# "a partir de segunda", "dal mese prossimo", "da settembre", "this month", "ce mois-ci", "esse mês".
_START_OPEN = (r"from|starting|beginning|effective|as\s+of|since|ab|seit|a\s+partir\s+d[eou']?|des|depuis|desde|"
               r"dal|dalla|dall'|da|a\s+partire\s+da[l]?")
_START_TAIL = (r"(?:\s+(?:the|le|la|les|l'|el|los|la|o|a|il|lo|dem|den|der|des|de|del|do|da|que|next|this|coming|"
               r"[\w-]+)){0,4}?")
_WORD_RE = re.compile(r"\d+(?:[.,:h]\d+)?(?:st|nd|rd|th|er|eme|e|o|a|º|ª)?|[$€£]|[^\W\d_]+(?:'[^\W\d_]+)?|[,;!?()]|\s-\s")


@dataclass(frozen=True)
class _Val:
    group: str  # "time", "day", "amount"
    norm: float | str


@dataclass(frozen=True)
class _Read:
    values: frozenset[_Val]
    negated: frozenset[_Val]  # values named after a negation ("not friday", "nicht samstag")
    content: tuple[str, ...]  # content words of the clauses up to the last one holding a value
    all_content: tuple[str, ...]
    keys: frozenset[str]
    started: bool  # a start phrase was read ("from next week")
    clauses: tuple[tuple[tuple[str, ...], frozenset[_Val]], ...] = ()  # each clause's content words and values


def _low(text: str) -> str:
    return fold_text(text).replace("'s ", " ").replace("s' ", "s ")


def _number(tok: str) -> float | None:
    m = re.match(r"\d+(?:[.,]\d+)?", tok)
    if m is None:
        return None
    n = float(m.group(0).replace(",", "."))
    return n if n != float("inf") else None  # 400 digits in a row are no amount (int(inf) failed a store: users25)


def _clock(tok: str, nxt: str) -> float | None:
    m = re.fullmatch(r"(\d{1,2})(?:[:h](\d{2}))?(?:h)?", tok)
    if m is None or (":" not in tok and "h" not in tok and nxt not in _TIME_AFTER):
        return None
    h, mins = int(m.group(1)), int(m.group(2) or 0)
    if nxt == "pm" and h < 12:
        h += 12
    return h * 60 + mins if h <= 24 and mins < 60 else None


def _is_start_word(w: str) -> bool:
    return w in _TIME_WORDS or w in ("the", "le", "la", "les", "el", "los", "o", "a", "il", "lo", "dem", "den",
                                     "der", "de", "del", "do", "da", "que", "on", "an", "onwards", "in")


@lru_cache(maxsize=4096)
def _read(text: str) -> _Read:
    """The values, negated values and content words of ``text``."""
    low = _low(text)
    standing = _STANDING_RE.search(low) is not None
    low = _STANDING_RE.sub(" ", low)
    ranged: dict[str, int] = {}
    for m in _DAY_RANGE_RE.finditer(low):
        for table in _SHORT_DAYS:
            if m.group(1) in table and m.group(2) in table and m.group(1) != m.group(2):
                ranged[m.group(1)], ranged[m.group(2)] = table[m.group(1)], table[m.group(2)]
                break
    toks = _WORD_RE.findall(low)
    keep = [True] * len(toks)
    started = standing
    # start phrases and "this month": when the value holds, never the value
    for i, t in enumerate(toks):
        two = " ".join(toks[i:i + 2])
        three = " ".join(toks[i:i + 3])
        opener = 3 if three in ("a partir de", "a partir do", "a partir da", "a partire da", "a partire dal") else \
            2 if two in ("as of", "a partir", "going forward", "from now") else \
            1 if t in ("from", "starting", "beginning", "effective", "since", "ab", "seit", "des", "depuis",
                       "desde", "dal", "dalla", "da") else 0
        if not opener:
            if t in ("this", "ce", "cette", "este", "esta", "esse", "essa", "diesen", "diese", "questo", "questa") \
                    and i + 1 < len(toks) and toks[i + 1] in ("month", "week", "year", "mois", "mes", "semana",
                                                             "monat", "woche", "mese", "settimana", "mois-ci"):
                keep[i] = keep[i + 1] = False
            continue
        j = i + opener
        span: list[int] = []
        while j < len(toks) and len(span) < 5 and (_is_start_word(toks[j]) or toks[j] in ("prochain", "prochaine",
                                                    "viene", "prossimo", "prossima", "nachster", "nachsten",
                                                    "nächster", "nächsten", "neuen", "neue", "schuljahr", "now")):
            span.append(j)
            j += 1
        if any(toks[k] in _TIME_WORDS or toks[k] == "now" for k in span):
            started = True
            for k in range(i, j):
                keep[k] = False
    values: set[_Val] = set()
    negated: set[_Val] = set()
    clauses: list[tuple[list[str], set[_Val], str]] = [([], set(), "")]  # words, values, first words
    neg = False
    toks = [re.sub(r"^(?:c|d|j|l|m|n|s|t|qu)'(?=\w)", "", t) for t in toks]  # "c'est", "l'affitto"
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i > 0 else ""
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if t in (",", ";", "!", "?", "(", ")", " - ", ":") or t.strip() == "-":
            clauses.append(([], set(), ""))
            neg = False
            continue
        if not clauses[-1][2]:
            clauses[-1] = (clauses[-1][0], clauses[-1][1], " ".join(toks[i:i + 2]))
        if not keep[i]:
            continue
        found: list[_Val] = []
        if t[0].isdigit():
            clock = _clock(t, nxt)
            n = _number(t)
            if n is not None and (nxt in _CURRENCY or prev in _CURRENCY):
                found.append(_Val("amount", n))
            elif clock is not None or (n is not None and n == int(n) and n <= 24 and prev in _TIME_BEFORE
                                     and nxt not in _MONTHS and not re.search(r"[a-z]", t)):
                found.append(_Val("time", clock if clock is not None else (n or 0) * 60))
            elif n is not None and (re.search(r"(st|nd|rd|th|er|eme|º|ª)$", t) or prev in _DAY_BEFORE
                                    or prev in _MONTHS or nxt in _MONTHS) and n <= 31 and n == int(n):
                found.append(_Val("day", n))
            elif n is not None:
                found.append(_Val("amount", n))
        elif t in WEEKDAYS:
            found.append(_Val("day", f"wd:{WEEKDAYS[t]}"))
        elif t in SHORT_WEEKDAYS and prev in _SHORT_AFTER:
            found.append(_Val("day", f"wd:{SHORT_WEEKDAYS[t]}"))
        elif t in ranged:
            found.append(_Val("day", f"wd:{ranged[t]}"))
        elif t in _PARTS and (t != "sera" or prev in WEEKDAYS):  # (French "sera": will be)
            found.append(_Val("part", _PARTS[t]))
        if found:
            if neg:
                negated.update(found)
            else:
                values.update(found)
                clauses[-1][1].update(found)
            continue
        if t in _NEGATIONS and not (t == "no" and (nxt in WEEKDAYS or nxt[:1].isdigit() or nxt == "dia")):
            neg = True  # (Portuguese "no sábado", "no dia 15": in the, not a negation)
            continue
        if t in STOPWORDS or t in _NOT_CONTENT or t in CHANGE or t in _TIME_WORDS or len(t) < 3 or not t[0].isalpha():
            continue
        clauses[-1][0].append(t)
    # a clause of its own that gives a reason and no value is not compared ("because of the strike, 9:40 now")
    kept = [(tuple(w), frozenset(v)) for w, v, first in clauses
            if v or not (first.startswith(_REASON_OPEN) and (first.split() or [""])[0] in
                         {r.split()[0] for r in _REASON_OPEN})]
    last = max((k for k, (_, v) in enumerate(kept) if v), default=len(kept) - 1)
    upto = tuple(w for words, _ in kept[:last + 1] for w in words)
    content = tuple(w for words, _ in kept for w in words)
    keys = frozenset(t for t in toks if t[:1].isalpha())
    return _Read(frozenset(values), frozenset(negated), upto, content, keys, started, tuple(kept))


def _groups(values: frozenset[_Val]) -> dict[str, set[float | str]]:
    out: dict[str, set[float | str]] = {}
    for v in values:
        out.setdefault(v.group, set()).add(v.norm)
    return out


def fragment(text: str) -> bool:
    """Whether ``text`` may be a new value said with no subject at all ("went up again, 10.99 now",
    "sorry, saturday the 10th not friday"): its nearest facts in meaning are far, so
    memengine/supersession.py compares it with them whatever the cosine."""
    r = _read(text)
    return bool(r.values) and not r.all_content and len(text) < 80


@lru_cache(maxsize=4096)
def detect(old: str, new: str) -> Verdict | None:
    """A verdict of kind "swap" when ``new`` gives ``old``'s slot another value in shorthand (see the
    module docstring), else None."""
    rn = _read(new)
    if not rn.values:
        return None
    ro = _read(old)
    if not ro.values or fact_mood.unasserted(new) or fact_mood.unasserted(old):
        return None
    adds = rn.keys & _ADDS - ({"otra", "otro", "outra", "outro"} if "vez" in rn.keys else set())  # "otra vez": again
    if "too" in adds and not re.search(r"\btoo\s*(?:$|[,;.!?)])", _low(new)):
        adds -= {"too"}  # "too hectic", "too early": how much, not one more
    if rn.keys & (_KEEPS | _PAST) or adds or fact_occasion.one_off(old, new):
        return None
    if fact_owner.kin_named(new) - fact_owner.kin_named(old):
        return None  # "my son's phone plan": someone else's, however it is said
    if fact_owner.kin_named(old) and _MINE_RE.search(_low(new)):
        return None  # "The kids' swim class ..." / "my swim class switched to ...": mine is another one
    rn = _without_comment(rn, ro)
    go, gn = _groups(ro.values), _groups(rn.values)
    if not set(gn) <= set(go):
        return None  # a kind of value the older does not state: another thing ("on saturdays", "a year")
    changed = [g for g in gn if not all(any(_same_value(x, y) for y in go[g]) for x in gn[g])]
    if not changed:
        return None  # the same values: a restatement
    if "amount" in changed and _counted(old) and _priced(new):
        return None  # a count of people for a price ("28 Mitglieder" / "Mitgliedsbeitrag … 10 €", facts39; not the
        # other way: "subiu pra 119 esse mês" is a price said without its currency)
    corrected = bool(rn.negated) and rn.negated <= ro.values
    said = bool(rn.keys & CHANGE) or rn.started or corrected
    if not said:
        return None
    if any(not any(_same(w, o) for o in ro.all_content) for w in rn.content):
        return None  # the newer names something the older does not: another thing, owner or occasion
    # (a part of the day both name is a shared word too: "6 hours a night" / "8 hours a night lately")
    shared = [w for w in rn.content if any(_same(w, o) for o in ro.all_content)] or sorted(
        str(p) for p in gn.get("part", set()) & go.get("part", set()))
    what = ", ".join(f"{g}: {sorted(map(str, go[g]))} -> {sorted(map(str, gn[g]))}" for g in changed)
    if shared:
        return Verdict("swap", f"new value for '{' '.join(dict.fromkeys(shared))}' ({what})", 0.8)
    if rn.content:
        return None  # (the newer names something, and nothing of the older: not enough)
    if ro.keys & _GENERIC:
        return None
    money = bool((rn.keys | ro.keys | set(new) | set(old)) & _CURRENCY)
    if corrected or "amount" in changed and rn.keys & _AMOUNT_MOVED or changed == ["day"] and rn.keys & _DATE_MOVED \
            or "amount" in changed and money and rn.keys & CHANGE and _ratio_ok(go["amount"], gn["amount"]) \
            or set(gn) == {"time"} == set(go) and len(gn["time"]) == len(go["time"]) == 1 and rn.keys & CHANGE:
        # (the last: one clock time for one, said to be new: "because of the strike, 9:40 now")
        return Verdict("swap", f"{REASON}: {what}", 0.7)
    return None


_NUMBER_WORD = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)(?![\w.,:/])\s*([^\W\d_]*)")


def _priced(text: str) -> bool:
    """Whether ``text`` says an amount of money (a currency sign or word beside a number)."""
    low = _low(text)
    return any(c in low for c in "£€$") or any(w in _CURRENCY for w in re.findall(r"[^\W\d_]+", low))


def _counted(text: str) -> bool:
    """Whether every number ``text`` says counts a noun ("28 Mitglieder: 9 Sopran, 7 Alt"), no money among them."""
    got = [(n, w) for n, w in _NUMBER_WORD.findall(_low(text))]
    return bool(got) and not _priced(text) and all(
        len(w) > 2 and w not in STOPWORDS and w not in _TIME_WORDS and w not in _CURRENCY and w not in _MONTHS
        for _, w in got)


def _same_value(x: float | str, y: float | str) -> bool:
    """Equal values; a clock time told as a bare hour ("at 3": 3:00) is also the same hour after noon."""
    if x == y:
        return True
    if isinstance(x, str) or isinstance(y, str):
        return False
    return abs(x - y) == 720 and (x % 60 == 0 and x < 780 or y % 60 == 0 and y < 780)


def _without_comment(rn: _Read, ro: _Read) -> _Read:
    """``rn`` without its trailing clauses that give only values of the older ("switched meal prep to
    saturday mornings, sundays are too hectic"): a comment on the old value, not a second new one."""
    kept = list(rn.clauses)
    while len(kept) > 1 and kept[-1][1] and kept[-1][1] <= ro.values and any(
            v and not v <= ro.values for _, v in kept[:-1]):
        kept.pop()
    if len(kept) == len(rn.clauses):
        return rn
    values = frozenset(v for _, vs in kept for v in vs)
    last = max((k for k, (_, v) in enumerate(kept) if v), default=len(kept) - 1)
    upto = tuple(w for words, _ in kept[:last + 1] for w in words)
    return _Read(values, rn.negated, upto, rn.all_content, rn.keys, rn.started, tuple(kept))


def _ratio_ok(old: set[float | str], new: set[float | str]) -> bool:
    """One amount each, and the newer within a factor of two of the older (a price, not another number)."""
    if len(old) != 1 or len(new) != 1:
        return False
    a, b = next(iter(old)), next(iter(new))
    return isinstance(a, float) and isinstance(b, float) and a > 0 and 0.5 <= b / a <= 2.0
