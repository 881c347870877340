"""A thing's value switched, the old value named (facts33): "Package manager for the repo is Poetry" / "Switched
the repo from Poetry to uv", "CI runs on Jenkins" / "CI moved off Jenkins to GitHub Actions", "Bookkeeping is done
in Xero" / "Moved the books from Xero to QuickBooks", "Die E-Mail-Postfächer liegen bei IONOS" / "E-Mail ist seit
März bei mailbox.org statt IONOS", "Lucía factura con Holded" / "Desde enero factura con Quipu en vez de Holded".

An agent's notes are about things (a repo, CI, the insurance, the books) as often as people, and say a change by
naming what was left and what came: "from X to Y", "Y instead of X", "replaced X with Y", "Y replaces X", "moved
off X", "X durch Y ersetzt", "dejó X por Y", "von X auf Y umgestellt". memengine/fact_instead.py reads the same
markers for a person's value (the person named in both); this reads them with no person: when the words the marker
names as left are a value the older states, and the newer says something of its own in their place, the older no
longer holds.

Evidence that the two are one slot, besides the value left: a content word both say (not the store's owner,
"user", nor a day, a month or a number: "reviews pull requests … instead of Tuesdays" is no new night for "plays
football on Tuesday nights"), or an older that states little else — the left value a name, at most
:data:`_SHORT` other content words ("Su banco es el Sabadell" / "Se pasó del Sabadell a ING").

Guards: the newer is asserted (memengine/fact_mood.py), adds nothing ("also"), opens with no scope or occasion
("For unit tests …", "For Ivy's party on the 12th, …", "This week …", "Exception: …": a value for a narrower
slot or one time); the older reports no change itself. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_mood, fact_person
from memengine.fact_align import same_word
from memengine.fact_change_words import CHANGE_WORDS
from memengine.fact_cue_lexicon import ADDITIVE, en_forms
from memengine.fact_lexicon import LANG_AUX, LANG_COPULA, MONTHS, STOPWORDS, WEEKDAYS, fold_text
from memengine.fact_types import Verdict

__all__ = ["REASON", "dated", "left_value", "switched"]

REASON = "the older's value named as left"

_WORD = re.compile(r"[^\W_]+")
_TAKEN = 3  # content words read as the left value
_SHORT = 3  # an older with at most this many content words besides the left name states nothing else
# words that name no value of their own ("a new one")
_NO_VALUE = frozenset("new one ones neu neue neuen nuevo nueva nouveau nouvelle novo nova nuovo nuova".split())
# the store's owner, named in most notes ("User prefers …"): no evidence of one slot
_OWNER_WORDS = frozenset("user users usuario usuaria nutzer nutzerin benutzer utilisateur utilisatrice utente "
                         "utilizador utilizadora gebruiker".split())
# verbs that link any subject to any value ("is", "ist", "son", "has"): no evidence of one slot either
_LINKS = frozenset().union(*LANG_COPULA.values(), *LANG_AUX.values())
_END = r"(?=\s+(?:to|into|a|al|au|aux|auf|zu|zum|zur|nach|naar|para|pra|per|in|en|for|por|par|with|by|mit|durch)\b|" \
       r"[,;.:()]|$)"
_TO = r"(?=\s+(?:a|al|à|au|aux|auf|zu|zum|zur|nach|naar|para|pra|pro|vers|per|in|alla|allo|ai|all)\b)"
# (the left value's span, named by a group ``x``; the text is folded, lower case)
_LEFT = tuple(re.compile(p) for p in (
    # "switched the repo from Poetry to uv", "moved off …" below
    rf"\bfrom\s+(?P<x>[^,;.:()]+?){_END}",
    # "von Zabbix auf Uptime Kuma umgestellt", "van Ziggo naar Odido": a destination named after it ("die Adresse von
    # Anna" is whose)
    rf"\b(?:von|vom|van)\s+(?P<x>[^,;.:()]+?){_TO}",
    # "se pasó del Sabadell a ING", "mudou da Vivo para a Claro", "est passé de Free à Sosh": right after the verb, a
    # destination after it ("migramos o servidor de produção para …", "la mère de Mathilde a changé …": whose)
    rf"\b(?P<verb>[^\W\d_]+)\s+(?:desde|del|de|du|des|da|dal|dalla|dallo|do|das|dos)\s+(?P<x>[^,;.:()]+?){_TO}",
    # "Y instead of X", "statt X", "en vez de X", "au lieu de X", "invece di X", "em vez de X", "in plaats van X"
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|au\s+lieu\s+(?:de|du|des|d)|en\s+vez\s+del?|"
    r"en\s+lugar\s+del?|statt|anstatt|anstelle\s+(?:von|vom)?|em\s+vez\s+d[eoa]s?|em\s+lugar\s+d[eoa]s?|"
    r"invece\s+(?:di|del|della|dello|dei|delle|che)|al\s+posto\s+(?:di|del|della|dello|dei)|in\s+plaats\s+van)"
    r"\s+(?P<x>[^,;.:()]+)",
    # "replaced flake8 with ruff", "swapped X for Y", "dejó Figma por Penpot", "remplacé X par Y", "trocou X por Y"
    r"\b(?:replaced|replace|replacing|swapped|swap|ditched|dropped|traded|dejo|dejado|dejamos|cambio|cambiado|"
    r"sustituido|sustituyo|remplace|remplacee|troquei|trocou|trocado|sostituito|sostituita)\s+(?P<x>[^,;.:()]+?)"
    r"\s+(?:with|by|for|por|par|pelo|pela|con|per)\b",
    # "Renovate replaces Dependabot" (not "is replaced by", read above as a thing's own value)
    r"(?<!\bis\s)(?<!\bwas\s)(?<!\bbe\s)(?<!\bgot\s)(?<!\bbeen\s)\b(?:replaces|replaced|supersedes|superseded)\s+"
    rf"(?!by\b)(?P<x>[^,;.:()]+?){_END}",
    # "CI moved off Jenkins to GitHub Actions", "we're off Slack now"
    rf"\b(?:moved|moving|switched|migrated|came|went|got|are|is|we're)\s+off\s+(?:of\s+)?(?P<x>[^,;.:()]+?){_END}",
    # "Bitwarden durch 1Password ersetzt": the left value before "durch"
    r"(?P<x>[^\s,;.:()]+(?:\s+[^\s,;.:()]+)?)\s+durch\s+[^,;.:()]+\s+(?:ersetzt|abgelost)\b",
))
# the from-marker needs a switch said ("moved", "switched", "umgestellt"): "pulled from Docker Hub" is no switch
_FROM_AT = 0
_WHEN_FROM = frozenset("now today tomorrow next then monday tonight jetzt heute morgen nu vandaag morgen".split())
_VON_AT = 1
_VERB_DE_AT = 2
_SWITCH_VERBS = frozenset(
    {f for w in "switch move migrate change swap port rename rebrand upgrade downgrade bump transfer shift".split()
     for f in en_forms(w)} | {"went", "gone", "moving", "switching"}
    | set("paso pasamos pasado pasaron cambio cambiamos cambiado cambiaron migro migramos migrado mudo mudamos mudado "
          "movio movimos movido trasladado traslado".split())  # es (folded)
    | set("umgestellt gewechselt migriert umgezogen verlegt umbenannt gewandert umgestiegen".split())  # de
    | set("passe passee change changee migre migree demenage bascule".split())  # fr
    | set("mudou mudei mudamos mudaram passou passei passamos trocou trocamos migrou migramos".split())  # pt
    | set("passato passata spostato spostata cambiato cambiata migrato migrata".split()))  # it
# a scope or one occasion said first: the value is for a narrower slot or one time
_OPENS_SCOPE = re.compile(r"^(?:for|fur|pour|para|per|voor|bei|im|in)\s+(?!now\b|good\b|the\s+(?:time|moment)\b)\S+"
                          r"|^(?:this|next|that)\s+(?:week|weekend|month|time|once)\b|^(?:today|tonight|tomorrow)\b"
                          r"|^(?:exception|temporarily|for\s+now|just\s+for|only\s+for|ausnahme|vorerst|diese\s+woche"
                          r"|esta\s+semana|por\s+ahora|cette\s+semaine|questa\s+settimana)\b")


def _content(words: list[str]) -> list[str]:
    return [w for w in words if w not in STOPWORDS and len(w) > 1]


@lru_cache(maxsize=4096)
def _left(ln: str) -> tuple[str, tuple[str, ...]] | None:
    """The marker's name and the content words it names as left in the folded newer ``ln``, or None."""
    words = set(_WORD.findall(ln))
    for i, rx in enumerate(_LEFT):
        if i in (_FROM_AT, _VON_AT) and not words & _SWITCH_VERBS:
            continue
        for m in rx.finditer(ln):
            if i == _VERB_DE_AT and m.group("verb") not in _SWITCH_VERBS:
                continue  # (a noun's "de" is whose: "servidor de produção")
            if i == _FROM_AT and re.search(r"\b(?:still|noch|weiterhin|sigue|siguen|todavia|toujours|ainda|ancora)\s*$",
                                          ln[:m.start()]):
                continue  # "still from Origin": what stays, not what was left
            span = _content(_WORD.findall(m.group("x")))
            span = [w for w in span if w not in CHANGE_WORDS]
            if i in (_FROM_AT, _VON_AT) and span and (dated(span[0]) or span[0].isdigit() or span[0] in _WHEN_FROM) \
                    and (not ln[:m.start()].strip(" ,;:-") or span[0] in _WHEN_FROM):
                continue  # "From September Tom works …", "from now on": when, not what was left (facts39; "moved
                # from Wednesday to Monday" inside the sentence is a day left)
            if i == len(_LEFT) - 1:
                span = span[-_TAKEN:]
            if re.search(r"\w(?:'s|’s|s')(?:\s|$)", m.group("x")):
                continue  # a thing of someone's is left, not a value: "Joe replaced Rick's old drum kit"
            if span:
                return m.group(0).split()[0], tuple(span[:_TAKEN])
    return None


def left_value(old: str, new: str) -> str:
    """The word of ``old`` that ``new`` names as what it switched away from ("moved off Jenkins"), or ""."""
    got = _left(fold_text(new))
    if got is None:
        return ""
    ow = _content(_WORD.findall(fold_text(old)))
    return next((a for a in got[1] if any(same_word(a, v) for v in ow)), "")


def switched(old: str, new: str) -> Verdict | None:
    """A verdict when ``new`` names a value of ``old`` as what it switched away from and says a value of its own
    in its place, the two one slot (see the module docstring), else None."""
    if fact_mood.unasserted(new) or fact_mood.unasserted(old) == "hypothesis":
        return None  # (nor is an older that only weighs leaving a value of it: "Thinking of leaving EDF …", facts37)
    ln, lo = fold_text(new), fold_text(old)
    got = _left(ln)
    if got is None or _OPENS_SCOPE.match(ln.lstrip()):
        return None
    marker, span = got
    ow, nw = _WORD.findall(lo), _WORD.findall(ln)
    if set(nw) & ADDITIVE and not _intensifier(ln):
        return None  # a second value ("also")
    if any(re.search(rf"\b(?:same|gleiche[nrms]?|meme|mism[oa]|mesm[oa]|stess[oa])\s+{re.escape(v)}\b", ln)
           for v in _content(ow)):
        return None  # "… for a new one, same plan": the older's slot kept as it was
    hits = [a for a in span if any(same_word(a, v) for v in _content(ow))]
    was = _left(lo)
    if not hits or was is not None and any(same_word(a, v) for a in hits for v in was[1]):
        return None  # (what the older itself says it left is no value of it)
    people = fact_person.subject_names(old) | fact_person.subject_names(new) | _OWNER_WORDS
    left = set(span)
    # (the newer's subject may be what came: "Renovate replaces Dependabot")
    ours = [w for w in _content(nw) if w not in left and w not in CHANGE_WORDS and w not in _OWNER_WORDS
            and w not in _NO_VALUE and not any(same_word(w, v) for v in ow)]
    if not ours:
        return None  # nothing of its own comes in the left value's place
    shared = [w for w in _content(nw) if w not in left and w not in people and w not in CHANGE_WORDS
              and w not in _LINKS and not dated(w) and not w.isdigit() and any(same_word(w, v) for v in ow)]
    if not shared and not _states_little(old, lo, hits):
        return None
    return Verdict("slot", f"{REASON}: {hits[0]} ({marker})", 0.8)


def _states_little(old: str, lo: str, hits: list[str]) -> bool:
    """Whether the older states little but the left value, a name ("Su banco es el Sabadell")."""
    named = any(w[:1].isupper() for w in old.split()[1:] if fold_text(w).strip(",.;:") in hits
                and not dated(fold_text(w).strip(",.;:")))
    rest = [w for w in _content(_WORD.findall(lo)) if w not in hits and w not in _OWNER_WORDS]
    return named and len(rest) <= _SHORT


def dated(w: str) -> bool:
    """Whether the folded word is a weekday or a month (a value any slot may hold)."""
    return w in WEEKDAYS or w in MONTHS or w.rstrip("s") in WEEKDAYS


def _intensifier(ln: str) -> bool:
    """Whether the newer's only additive word is "too" before a word ("too slow", "too expensive")."""
    adds = [w for w in _WORD.findall(ln) if w in ADDITIVE]
    return bool(adds) and all(w == "too" for w in adds) and re.search(r"\btoo\s+(?:[,;.:()]|$)", ln) is None
