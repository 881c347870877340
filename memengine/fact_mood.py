"""Whether a sentence asserts what is true now: a question, a plan not yet decided or a past
anecdote never updates a fact, whatever value it names.

"Has the team sync been moved to Thursday?", "Yoga could be changed to Fridays if enough
people agree", "Quizás a partir de ahora la reunión sea los miércoles", "The all-hands was
once moved to Thursday when the CEO was travelling", "Letztes Jahr wurde der Jour fixe einmal
verschoben": each names a new value in the old fact's frame, and none of them says the fact
changed. :func:`unasserted` reads the sentence's mood from closed-class words in the five
languages of memengine/fact_lexicon.py (English, French, Spanish, German, Portuguese):

- **question**: a question mark (or "¿"), "est-ce que", or an English auxiliary first with its
  subject after it ("Was the board meeting pushed ...");
- **hypothesis**: "might", "maybe", "perhaps", "could", "if", "unless", "thinking about";
  peut-être, pourrait, si; quizás, tal vez, a lo mejor, podría, si; vielleicht, eventuell,
  könnte, falls; talvez, poderia, "se" first;
- **plan**: "plan to", "intend to"; prévoit de; planeamos, tenemos pensado; wir planen, haben vor;
  planejamos, pretendemos; abbiamo in programma, prevediamo di;
- **anecdote**: "used to", "once" (not "once a week"), "back in", "years ago", "when I was",
  "as a kid"; autrefois, une fois, à l'époque; una vez, cuando era, de niño; einmal, früher,
  damals, als Kind; uma vez, antigamente, quando eu era;
- **to-do**: what someone still has to do about the thing ("need to buy Lily a present for the party",
  "remember to", "don't forget"; il faut que je, penser à, n'oublie pas; tengo que, hay que, no olvides;
  muss noch, nicht vergessen, denk dran; preciso, tenho que, não esquecer; devo, bisogna, ricordami),
  unless a "now" word says it is how things stand now ("I need to be in at 8 now").

Italian (se, forse, magari; una volta, da bambino; ieri, la settimana scorsa; devo, ricordami) is read
too: the learned decision and the change words cover it.

Only the *new* sentence is asked (an old fact may well have been a plan). A miss here only
leaves two current facts; reading a real update as a plan would hide nothing either, so the
lists hold words that never state a settled current value. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import fold_text
from memengine.fact_tokens import guess_lang

__all__ = ["unasserted"]

# An English auxiliary first and a subject after it: a question even without its "?".
_EN_INVERSION = re.compile(
    r"^(?:is|are|was|were|has|have|had|did|does|do|will|can|could|should|would|shall)\s+"
    r"(?:the|my|our|your|his|her|their|this|that|it|we|you|they|he|she|i|[A-Z][\w.-]*)\b")
_QUESTION = re.compile(r"[?¿]|\best[- ]ce que?\b")

_HYPOTHESIS = (
    "might", "maybe", "perhaps", "possibly", "could", "if", "unless", "thinking about", "thinking of",
    "considering", "we'll see", "we will see", "will vote", "proposed", "proposal",
    "peut-etre", "pourrait", "pourraient", "si", "envisage", "envisageons", "on verra",
    "quizas", "quiza", "tal vez", "a lo mejor", "podria", "podrian", "pensando en", "ya veremos",
    "vielleicht", "eventuell", "moglicherweise", "konnte", "konnten", "falls", "uberlegen", "mal sehen",
    "talvez", "poderia", "poderiam", "pode ser que", "a pensar em", "pensando em", "vamos ver",
    "forse", "magari", "potrebbe", "potrebbero", "potremmo", "stiamo pensando", "sto pensando", "vedremo",
    # a choice still being weighed ("estamos valorando pasar el correo a Mailgun", "stiamo valutando Vercel")
    "weighing", "mulling", "toying with", "debating whether", "on reflechit", "nous reflechissons",
    "valorando", "barajando", "considerando", "nos planteamos", "estudiando la posibilidad",
    "erwagen", "erwagt", "in betracht", "a ponderar", "ponderando", "estamos a considerar",
    "valutando", "stiamo valutando", "sto valutando",
    # Dutch
    "misschien", "wellicht", "eventueel", "mogelijk", "overwegen", "overweeg", "overweegt", "denken erover",
    "we zien wel",
    # a third person weighing it (facts29: "Katrin überlegt, ob ...", "Femke denkt erover ...", "Élodie pense
    # changer de mutuelle", "O Rui está a pensar aprender alemão", "Giulia pensa di cambiare medico")
    "uberlegt", "uberlege", "denkt erover", "denk erover", "pense", "pensent", "a pensar", "pensa di", "penso di",
)
# Someone's advice or preference, not what holds: "ops says staging should be on a t3.large", "Dana thinks
# HubSpot would be a better CRM", "Julien trouve que npm est mieux", "Marco dice che il sito starebbe meglio su
# Netlify" (after memengine/fact_said.py the clause said is read: "staging should be on a t3.large"). A modal of
# advice or a conditional, or a third person's verb of opinion; a "now" word keeps it asserted ("deploys should
# go through ArgoCD now" is the rule restated).
_OPINION = (
    "should", "shouldn't", "ought to", "would", "wouldn't", "had better", "thinks", "reckons", "believes",
    "suggests",
    "devrait", "devraient", "devrions", "serait", "seraient", "trouve que", "pense que", "estime que", "suggere",
    "deberia", "deberian", "deberiamos", "seria mejor", "cree que", "piensa que", "opina que", "sugiere",
    "sollte", "sollten", "ware", "waren besser", "findet dass", "findet, dass", "glaubt", "schlagt vor",
    "deveria", "deveriam", "deveriamos", "seria melhor", "acha que", "sugere",
    "dovrebbe", "dovrebbero", "dovremmo", "sarebbe", "starebbe", "starebbero", "pensa che", "trova che",
    "crede che", "suggerisce",
    "zou moeten", "zouden moeten", "zou beter", "vindt dat", "vindt het", "denkt dat", "stelt voor",
)
# (not "recommended" / "empfiehlt": "the recommended dose is 20 mg" states a value; not "findet" / "vindt"
# alone: "das Meeting findet montags statt", "de vergadering vindt plaats op dinsdag" take place)
_ANECDOTE = (
    "used to", "back in", "years ago", "when i was", "as a kid", "as a child", "growing up", "at the time",
    "autrefois", "a l'epoque", "quand j'etais", "quand j etais", "il y a des annees",
    "cuando era", "de nino", "de nina", "de pequeno", "de pequena", "hace anos", "en aquella epoca", "en esa epoca",
    "fruher", "damals", "als ich", "als kind", "vor jahren",
    "antigamente", "quando eu era", "quando era", "em crianca", "ha anos", "naquela altura", "naquela epoca",
    "da bambino", "da bambina", "da piccolo", "da piccola", "anni fa", "a quei tempi", "quando ero", "una volta",
    "vroeger", "destijds", "jaren geleden", "toen ik", "als kind",
)
# "once" / "une fois" / "una vez" / "einmal" / "uma vez" tell an anecdote, unless a frequency follows
# ("once a week", "une fois par mois", "una vez al mes", "einmal pro Woche", "uma vez por semana").
_ONCE = re.compile(r"\b(?:once|une fois|una vez|einmal|uma vez)\b(?!\s+(?:a|an|every|per|par|tous|toutes|al|a la|"
                   r"cada|por|pro|im|in der|die|je|jede|jeden|por semana|ao|a cada)\b)")


def _alternation(words: tuple[str, ...]) -> re.Pattern[str]:
    body = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w'-])(?:{body})(?![\w'-])")


# A past state at a past moment ("Lukas und Anna waren letzte Woche in Wien", "The bus was 20 minutes late
# this morning"): an event, not what holds now. A passive change ("was moved to Friday last week") is
# a change: a participle right after the copula, or a "now" word, keeps the sentence asserted.
_PAST_COPULA = ("was", "were", "war", "waren", "était", "étaient", "estaba", "estaban", "estuvo", "estuvieron",
                "estava", "estavam", "esteve", "estiveram")
_PAST_MOMENT = (
    "yesterday", "last week", "last night", "this morning", "last month", "last weekend", "the other day",
    "last year",
    "hier", "la semaine derniere", "le mois dernier", "ce matin", "le week-end dernier", "l'autre jour",
    "l'annee derniere", "l'an dernier",
    "ayer", "la semana pasada", "el mes pasado", "esta manana", "el fin de semana pasado", "el otro dia",
    "el ano pasado",
    "gestern", "letzte woche", "letzten monat", "heute morgen", "letztes wochenende", "neulich", "letztes jahr",
    "ontem", "semana passada", "mes passado", "hoje de manha", "fim de semana passado", "outro dia",
    "ano passado",
    "ieri", "la settimana scorsa", "il mese scorso", "stamattina", "lo scorso weekend", "l'altro giorno",
    "l'anno scorso",
)
_NOW_WORDS = ("now", "nowadays", "maintenant", "desormais", "ahora", "jetzt", "nun", "agora", "adesso", "ora")
_PAST_COPULA_RE = re.compile(r"(?<![\w'-])(?:" + "|".join(_PAST_COPULA) + r")\s+(\S+)")
_PAST_MOMENT_RE = _alternation(_PAST_MOMENT)
_NOW_RE = _alternation(_NOW_WORDS)
# ... or at a moment told by a clause ("council tax was 120 a month when we moved in", "le loyer était de
# 700 quand on est arrivés", "era de 40 cuando empecé"): with a past copula, a value that held then
_PAST_WHEN_RE = re.compile(r"(?<![\w'-])(?:when|quand|lorsque|cuando|quando)\s+\w+")
_PARTICIPLE = re.compile(r"^(?:\w{2,}(?:ed|en|é|ée|és|ées|ado|ada|ados|adas|ido|ida|idos|idas)|ge\w+t)\W*$")


def _past_event(low: str, lower: str) -> bool:
    """A past copula (not a passive: "was moved", accents kept in ``lower``) and a past moment (in the
    folded ``low``), and no "now"."""
    if not (_PAST_MOMENT_RE.search(low) or _PAST_WHEN_RE.search(low)) or _NOW_RE.search(low):
        return False
    return any(not _PARTICIPLE.match(m.group(1)) for m in _PAST_COPULA_RE.finditer(lower))


# A sentence that opens on a past moment ("ontem a reunião atrasou e começou às 16h", "yesterday the bus
# came at 8:10"): what happened that day, unless a "now" word says it holds since.
_LEADING_MOMENT_RE = re.compile(r"^(?:" + "|".join(re.escape(w) for w in sorted(_PAST_MOMENT, key=len, reverse=True))
                                + r")(?![\w'-])")


def _told_of_a_day(low: str) -> bool:
    return bool(_LEADING_MOMENT_RE.match(low)) and not _NOW_RE.search(low)


# A to-do about the thing: someone still has to act ("need to buy Lily a present for the party"). Only
# the forms that never state a settled value; "have to" / "must" are left out ("we have to pay 1520 from
# June" states the new rent), and a "now" word lifts the rest ("I need to be in at 8 now").
_TODO = (
    "need to", "needs to", "gotta", "remember to", "don't forget", "dont forget", "do not forget", "remind me",
    "to do:", "todo:", "to-do:", "reminder:",
    "il faut que je", "faut que je", "il faut que j'", "je dois", "penser a", "n'oublie pas", "ne pas oublier",
    "rappelle-moi", "rappel :", "rappel:",
    "tengo que", "hay que", "acordarme de", "acuerdate de", "no olvidar", "no olvides", "no te olvides",
    "recuerdame", "recordatorio:",
    "muss noch", "musst noch", "mussen noch", "nicht vergessen", "denk dran", "dran denken", "daran denken",
    "erinnere mich", "erinnerung:",
    "preciso", "tenho que", "tenho de", "lembrar de", "nao esquecer", "nao esquece", "me lembra", "lembrete:",
    "devo", "dobbiamo", "bisogna", "ricordami", "ricordarmi", "ricordati", "non dimenticare", "promemoria:",
)
_TODO_RE = re.compile(r"(?<![\w'-])(?:" + "|".join(re.escape(w) for w in sorted(_TODO, key=len, reverse=True))
                      + r")(?![\w-])")


def _todo(low: str) -> bool:
    """A to-do about the thing (in the folded ``low``), with no "now" word."""
    return bool(_TODO_RE.search(low)) and not _NOW_RE.search(low)


# A plan someone has, not yet what holds ("We plan to upgrade the cluster to 1.29 next quarter", "On prévoit de
# déplacer le point hebdo"): a verb of planning followed by what is planned. Not the noun ("our plan is 40 a
# month", "le forfait prévoit 20 Go": what a plan holds).
_PLAN = (
    "plan to", "plans to", "planning to", "planned to", "intend to", "intends to", "intending to",
    "on prevoit de", "prevoit de", "prevoyons de", "prevoient de", "on projette de", "projetons de",
    "planeamos", "planeo", "planea", "planean", "tenemos pensado", "tengo pensado", "tenemos previsto",
    "wir planen", "ich plane", "haben vor", "habe vor", "ist geplant",
    "planejamos", "planejo", "planeja", "pretendemos", "temos previsto",
    "abbiamo in programma", "ho in programma", "prevediamo di", "pianifichiamo", "intendiamo",
)
_PLAN_RE = re.compile(r"(?<![\w'-])(?:" + "|".join(re.escape(w) for w in sorted(_PLAN, key=len, reverse=True))
                      + r")[\s,]+(?!\d)[^\W\d_]")  # (a verb follows: "bumped my plan to 15 dollars" is a price plan)
_PLAN_NOUN = re.compile(r"(?<![\w'-])(?:my|our|your|his|her|their|the|a|this|that|data|phone|price)\s+plans?\s+to\b")
# A plan said with a verb of wanting or going to and a time still to come ("Wir wollen dem Server nächstes Jahr
# 64 GB RAM geben", "we want to move CI to Buildkite next quarter", "On va passer à Postgres 16 le mois
# prochain"): both are needed, a want alone is often a standing preference ("Ich will kein Fleisch mehr").
_INTENT = (
    "want to", "wants to", "going to", "gonna",
    "wollen", "will", "mochten", "mochte", "werden", "wird",
    "voulons", "veut", "veux", "voulez", "allons", "on va", "va",
    "queremos", "quiero", "quiere", "vamos a", "va a",
    "quero", "quer", "vamos",
    "vogliamo", "voglio", "vuole",
    "willen", "wil", "gaan",
)
_LATER = (
    "next year", "next month", "next week", "next quarter", "next sprint", "next spring", "next summer",
    "next autumn", "next fall", "next winter", "later this year", "later this month",
    "nachstes jahr", "nachsten jahr", "nachsten monat", "nachste woche", "nachstes quartal", "nachsten quartal",
    "nachsten sommer", "nachsten winter", "nachsten fruhling", "nachsten herbst", "demnachst",
    "l annee prochaine", "l an prochain", "le mois prochain", "la semaine prochaine", "le trimestre prochain",
    "el ano que viene", "el proximo ano", "el mes que viene", "el proximo mes", "la semana que viene",
    "la proxima semana", "el proximo trimestre",
    "no proximo ano", "ano que vem", "mes que vem", "no proximo mes", "semana que vem", "na proxima semana",
    "il prossimo anno", "l anno prossimo", "il prossimo mese", "il mese prossimo", "la prossima settimana",
    "volgend jaar", "volgende maand", "volgende week", "volgend kwartaal", "volgende sprint",
)
_HYPOTHESIS_RE = _alternation(_HYPOTHESIS)
_INTENT_RE = _alternation(_INTENT)
_LATER_RE = _alternation(_LATER)
_ANECDOTE_RE = _alternation(_ANECDOTE)
_OPINION_RE = _alternation(_OPINION)
# Portuguese "se" is "if" only first in the sentence (elsewhere it is mostly reflexive: "reformou-se");
# "si" is "if" in French and Spanish but "yes" with its accent ("sí"), which folding removes.
_SE_FIRST = re.compile(r"^se\s")
# Spanish / Portuguese "se" before a verb in the past is a reflexive pronoun, not "if": "Se pasó del Sabadell a ING",
# "Se mudou para Braga", "Se ha cambiado de gestor" (read on the unfolded text: the accent tells the tense)
_SE_REFLEXIVE = re.compile(r"^se\s+(?:[^\W\d_]+(?:ó|aron|ieron|ou|aram|eram)|ha|han|había|habían)(?![\w])")
# Italian "si" after a subject an Italian article opens ("il mercatino dell'usato si fa in piazza", "gli
# allenamenti si tengono"): a pronoun, even when the sentence's language is guessed otherwise.
_IT_SI = re.compile(r"(?:^|[\s,;:])(?:il|lo|gli|l'|un)\s*[^\W\d_][\w']*(?:\s+[\w']+){0,2}\s+si\s+[^\W\d_]"
                    # "la" / "le" / "una" are French and Spanish articles too: Italian when an Italian "di" follows
                    # the noun ("la riunione di studio si sposta al lunedì"; facts27)
                    r"|(?:^|[\s,;:])(?:la|le|una)\s+[^\W\d_][\w']*\s+(?:di|del|della|dello|dei|degli|delle)\s+"
                    r"(?:[\w']+\s+){0,2}si\s+[^\W\d_]")


# English "may" / "might" before a verb, written in lower case (the month is "May"), not after a word that names
# a time ("in may", "since may" in a chat written all in lower case): "… and may swap the Yaris for it" (facts36)
_MAY = re.compile(r"(?<!\bin )(?<!\bsince )(?<!\bfrom )(?<!\buntil )(?<!\btill )(?<!\bby )(?<!\bof )"
                  r"(?<!\bmid )(?<!\bearly )(?<!\blate )(?<!\bend )(?<!\blast )(?<!\bnext )(?<!\bthis )(?<!\bin mid )"
                  r"\bmay\s+(?:not\s+|well\s+|also\s+|still\s+)?(?!\d)[a-z]{2,}\b(?!\s+\d)")
# a note labelled a plan or an idea ("Plan for Q3: move the banking to Tide", "Idea: …"): what is planned, not what
# holds (facts36); not a plan's name ("Plan: Grow" names no verb after it: the plan a shop is on)
_PLAN_LABEL = re.compile(r"^(?:plans?|planned|ideas?|proposal|to\s+consider|plano|planung|vorhaben|idee|projet|"
                         r"proyecto)(?:\s+(?:for|fur|pour|para|per)\s+[^:]{1,30})?\s*:\s*(?=(?-i:[a-z]))", re.IGNORECASE)


@lru_cache(maxsize=4096)  # (a write compares its new fact with ~20 candidates: read its mood once)
def unasserted(text: str) -> str:
    """"question", "hypothesis", "plan", "opinion", "anecdote" or "todo" when ``text`` does not assert a current fact, else ""."""
    stripped = text.strip()
    if _QUESTION.search(stripped.lower()) or _EN_INVERSION.match(stripped[:1].lower() + stripped[1:]):
        return "question"
    low = fold_text(stripped)
    if "sí" in stripped.lower() or " si " in f" {low} " and (guess_lang(stripped) == "it" or _IT_SI.search(low)):
        # "sí": yes, not "if"; Italian "si" is a pronoun ("il mercato si sposta al giovedì"): its "if" is "se"
        low = re.sub(r"(?<!\w)si(?!\w)", "", low)
    if " falls " in f" {low} " and guess_lang(stripped) != "de":
        low = re.sub(r"(?<!\w)falls(?!\w)", "", low)  # German "if"; English "the falls team", "it falls on"
    if _HYPOTHESIS_RE.search(low) or _SE_FIRST.match(low) and not _SE_REFLEXIVE.match(stripped.lower()) \
            or _MAY.search(stripped):
        return "hypothesis"
    if _PLAN_LABEL.match(stripped) or _PLAN_RE.search(low) and not _PLAN_NOUN.search(low) \
            or _INTENT_RE.search(low) and _LATER_RE.search(low):
        return "plan"
    if _OPINION_RE.search(low) and not _NOW_RE.search(low):
        return "opinion"
    if _ANECDOTE_RE.search(low) or _ONCE.search(low) or _past_event(low, stripped.lower()) or _told_of_a_day(low):
        return "anecdote"
    if _todo(low):
        return "todo"
    return ""
