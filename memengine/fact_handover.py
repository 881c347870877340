"""A role handed over, told in two clauses: "Dr. Patel retired, so now Dr. Okoro is my GP",
"Karen moved on and now Raj is our team lead", "Julien est parti, donc maintenant Karim est mon
coach", "Lucía se fue de la empresa y ahora Marta es mi jefa", "Frau Keller ist gegangen, und
jetzt ist Herr Braun mein Chef", "O Pedro saiu, e agora o Rui é o nosso treinador".

The first clause says the old holder is gone (a name, then a leaving verb: left, retired, moved
on, was replaced, quit ...); the second names the new holder of a role. :func:`successor`
returns the second clause when the first one's holder is the old fact's value, and
memengine/facts.py compares that clause alone with the old fact: "now Raj is our product owner"
is another role, "now Dr. Lopez is my wife's dentist" another person's, and both stay apart.
A holder away for a while ("was on vacation", "est en vacances") is not gone: no leaving verb.
Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re

from memengine import fact_roles
from memengine.fact_change import NOW
from memengine.fact_lexicon import LANG_COPULA, _set, fold
from memengine.fact_tokens import guess_lang, prepare, read_tokens
from memengine.fact_view import Fact

__all__ = ["successor"]

# Leaving a role, by the holder (a name before it): one word, or the words of a phrase in order.
LEAVING = _set(
    "left quit retired resigned departed died transferred fired replaced relocated",
    "parti partie retraite demissionne quitte remplace remplacee mute mutee decede decedee licencie licenciee",
    "marcho jubilo jubilada jubilado renuncio dimitio reemplazado reemplazada sustituido sustituida "
    "trasladado trasladada murio fallecio despedido despedida",
    "gegangen gekundigt ersetzt versetzt verstorben aufgehort weggezogen verlassen pensioniert rente ruhestand "
    "verkauft",
    "saiu reformou reformou-se aposentou aposentou-se substituido substituida transferido transferida morreu "
    "faleceu despedido despedida",
    "andato andata licenziato licenziata pensionato pensionata dimesso dimessa sostituito sostituita trasferito "
    "trasferita morto morta",
)
LEAVING_PHRASES = ("moved on", "moved away", "went back", "stepped down", "passed away", "let go", "gave up",
                   "se fue", "se jubilo", "se ha ido", "se mudo", "foi embora", "se aposentou", "se reformou",
                   "mudou-se", "est partie", "est parti", "a pris sa retraite", "ist in rente", "ging in rente",
                   "moved teams", "changed teams", "changed departments", "a change de service", "a change d'equipe",
                   "cambio de departamento", "cambio de equipo", "hat die abteilung gewechselt", "das team gewechselt",
                   "mudou de setor", "mudou de area", "mudou de equipe", "ha cambiato reparto", "ha cambiato team",
                   "se n'e andato", "se n'e andata", "e andato via", "e andata via", "in pensione")
# What joins the two clauses: "so", "and (so)", "donc", "et", "alors", "así que", "y", "por eso",
# "und", "also", "deshalb", "daher", "então", "e", "por isso" (after a comma or not), or a bare comma.
_JOIN = re.compile(
    r"(?:\s*[,;]\s*|\s+)(?:and so|and|so|donc|alors|et|as[ií] que|por eso|y|und|also|deshalb|daher|ent[ãa]o|por isso|e)"
    r"\s+|\s*[;,]\s*(?=(?:now|maintenant|d[ée]sormais|ahora|jetzt|nun|agora)\b)", re.I)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
TITLES = _set("dr mr mrs ms miss prof doctor", "docteur madame monsieur mme", "doctora doctor senor senora don dona",
              "frau herr", "doutor doutora senhor senhora dona")
ARTICLES = _set("the", "le la l", "el la", "der die", "o a")


def _holder(first: str) -> list[str]:
    """The name the first clause starts with ("Dr. Patel", "Le docteur Blanc", "O João"), folded."""
    out: list[str] = []
    for w in _WORD.findall(first):
        k = fold(w)
        if not out and k in ARTICLES or k in TITLES:
            continue
        if w[:1].isupper():
            out.append(k)
            continue
        break
    return out


def _leaves(first: str) -> bool:
    low = " " + " ".join(fold(w) for w in _WORD.findall(first)) + " "
    return any(w in LEAVING for w in low.split()) or any(f" {p} " in low for p in LEAVING_PHRASES)


def _role_clause(text: str) -> bool:
    """Whether ``text`` says who holds a role: "now Ben is our tech lead", "ahora mi jefa es Carmen",
    "jetzt ist Herr Braun mein Chef" (not "ist zu Bosch gegangen": a move, read by fact_cue.py)."""
    raw = _WORD.findall(text)
    words = [fold(w) for w in raw]
    if not _COPULAS & set(words) and "é" not in raw:  # (Portuguese "é" is "is", "e" is "and")
        return False
    lang = guess_lang(text)
    toks = read_tokens(prepare(text), text)
    if fact_roles.reorder(toks, lang) is not toks:
        return True
    lead = next((w for w in words if w not in fact_roles.SKIP | NOW), "")
    return lead in fact_roles.DEFINITE and lead not in ARTICLES


def _names_someone(text: str) -> bool:
    """Whether a clause says who someone is: a name and its copula, either order after the "now"
    adverbs ("now Priya is ...", "jetzt ist Herr Braun ...", "agora o Rui é ...")."""
    raw = _WORD.findall(text)
    i = 0
    while i < len(raw) and fold(raw[i]) in fact_roles.SKIP | NOW:
        i += 1
    copula = i < len(raw) and (fold(raw[i]) in _COPULAS or raw[i] == "é")
    j = i + 1 if copula else i
    while j < len(raw) and fold(raw[j]) in ARTICLES | TITLES:
        j += 1
    names = j < len(raw) and raw[j][:1].isupper()
    while j < len(raw) and (raw[j][:1].isupper() or fold(raw[j]) in TITLES):
        j += 1
    return names and (copula or j < len(raw) and (fold(raw[j]) in _COPULAS or raw[j] == "é"))


def _split(text: str, keys: frozenset[str], strict: bool = True) -> tuple[str, str] | None:
    """(first clause, second clause) when the first says its holder left and the second who holds
    the role now (``strict``: a role memengine/fact_roles.py reads as one, "our team lead")."""
    if not keys & _ANY_LEAVING:
        return None
    for m in _JOIN.finditer(text):
        first, second = text[:m.start()], text[m.end():].strip()
        second = second[:1].upper() + second[1:]  # (a sentence of its own: fact_roles.py reads capitals)
        if second and _leaves(first) and _holder(first) and (
                _role_clause(second) if strict else _names_someone(second)):
            return first, second
    return None


def handover(text: str) -> bool:
    """Whether ``text`` tells of a holder who left and who someone is now (two clauses): the
    second-chance cue rule leaves such a sentence to the frame rules."""
    return _split(text, frozenset(fold(w) for w in _WORD.findall(text)), strict=False) is not None


def successor(fa: Fact, fb: Fact) -> str | None:
    """The clause naming the new holder when ``fb`` says ``fa``'s holder left (see the module docstring)."""
    parts = _split(fb.text, fb.keys)
    if parts is None or not all(h in fa.keys for h in _holder(parts[0])):
        return None  # no holder left, or someone else did: nothing of this fact's holder
    return parts[1]


# Whom one reports to or works for, said of oneself ("I report to Omar now", "je dépends de Sophie", "le
# reporto a Andrés", "ich berichte an Frau Kaya", "respondo ao Paulo", "rispondo a Marco"): the holder of the
# older's role, named in the older's own frame.
_REPORT_RE = re.compile(
    r"^(?:(?:and|so|et|donc|y|und|also|e|quindi)\s+)?(?:i|je|j'|ich|io|eu|yo)?\s*(?:now\s+)?"
    r"(?:report(?:ing)? to|answer to|work for|work under|rapporte [aà]|d[ée]pends de|rends compte [aà]|"
    r"le reporto a|reporto a|respondo (?:a|ao|à)|berichte an|unterstehe|rispondo a|riporto a)\s+"
    r"(?P<name>(?:(?:the|le|la|el|o|a|der|die|il|al|ao|à)\s+)?[^\s,.;!?]+(?:\s+[A-ZÀ-Ý][^\s,.;!?]*)?)\s*[.!]?$",
    re.I)
_NOW_RE = re.compile(r"\s*\b(?:now|maintenant|ahora|jetzt|nun|agora|ora|adesso)\b\s*", re.I)
_CLAUSE_RE = re.compile(r"\s*[,;:]\s*|\s+(?:so|and so|and|donc|alors|et|as[ií] que|y|also|deshalb|und|ent[ãa]o|e|quindi|"
                        r"allora)\s+", re.I)
# the older states whom one reports to: a word of the hierarchy, or a verb of reporting
_BOSS = _set("manager boss supervisor lead teamlead report reports line", "chef cheffe responsable superieur superieure",
             "jefe jefa supervisor supervisora responsable reporto", "chef chefin teamleiter teamleiterin vorgesetzter "
             "vorgesetzte abteilungsleiter abteilungsleiterin berichte", "chefe gerente supervisor supervisora "
             "gestor gestora respondo", "capo responsabile manager rispondo riporto")


def reported_to(fa: Fact, fb: Fact) -> str | None:
    """The older fact with its holder replaced by the one ``fb`` now reports to, when ``fb``'s first
    clause says the older's holder left ("Herr Vogel ist gegangen, ich berichte jetzt an Frau Kaya" /
    "Mein Teamleiter ist Herr Vogel" -> "Mein Teamleiter ist Frau Kaya"), else None."""
    if not fb.keys & _ANY_LEAVING or not fa.keys & _BOSS:
        return None
    for m in _CLAUSE_RE.finditer(fb.text):
        first, second = fb.text[:m.start()], _NOW_RE.sub(" ", fb.text[m.end():]).strip()
        r = _REPORT_RE.match(second)
        if r is None or not _leaves(first):
            continue
        holder = _holder(first) or [k for k in (fold(w) for w in _WORD.findall(first)[:2]) if k not in ARTICLES][:1]
        span = _name_span(fa.text, holder)
        if span is None:
            return None  # the older names no such holder
        name = re.sub(r"^(?:the|le|la|el|o|a|der|die|il|al|ao|à)\s+", "", r.group("name"), flags=re.I)
        return fa.text[:span[0]] + name + fa.text[span[1]:]
    return None


def _name_span(text: str, holder: list[str]) -> tuple[int, int] | None:
    """Where ``text`` names ``holder`` (folded words), with its title and the rest of its name: a run
    of capitalised words and titles holding every holder word."""
    runs: list[list[re.Match[str]]] = []
    for m in _WORD.finditer(text):
        w = m.group(0)
        if w[:1].isupper() or fold(w) in TITLES:
            if runs and text[runs[-1][-1].end():m.start()].strip(" .") == "":
                runs[-1].append(m)
                continue
            runs.append([m])
    for run in runs:
        keys = [fold(m.group(0)) for m in run]
        if holder and all(h in keys for h in holder) and run[0].start() > 0:
            return run[0].start(), run[-1].end()
    return None


_COPULAS = frozenset().union(*LANG_COPULA.values()) - {"e"}
# (the gate: one telling word of each phrase)
_ANY_LEAVING = LEAVING | _set("moved went stepped passed let gave fue jubilo ido mudo embora aposentou reformou "
                              "mudou-se partie parti retraite rente changed change cambio gewechselt mudou cambiato "
                              "pensione")
