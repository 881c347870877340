"""A person's provider switched, the new one named alone: "Nadia banks with Starling" / "Nadia has gone over to
Monzo, she likes the savings pots" (facts31).

A switch of bank, phone plan, energy supplier, insurer or gym is often said with the new provider's name and a
verb of going over to it, naming neither the old provider nor its kind ("Katrin hat zu Fraenk gewechselt", "Hugo
est chez la Macif pour la voiture depuis janvier", "Joost zit nu bij Odido"). Its vectors are far from the older
(0.5-0.6) and the frame rules read no shared slot. What it says is structural:

- the older states a provider of a person: the person (named in its subject, or as the owner of its subject:
  "Katrins Handytarif", "L'assurance auto de Hugo") and a name after a preposition of being a customer ("with",
  "on", "bei", "über", "chez", "à", "con", "com", "na", "no", "bij" …);
- the newer's subject names that person and its verb goes over to a new name (:data:`_SWITCH`: "gone over to",
  "switched to", "zu … gewechselt", "est passé chez", "se ha pasado a", "passou para", "è passata a", "is
  overgestapt naar", "zit nu bij" …), a name no older of that person holds.

Which of a person's several providers it replaces is said only by a word of the provider's kind (:data:`KINDS`:
"savings" is a bank's, "10 GB" a phone plan's, "voiture" a car insurer's), which the older must say too; nothing
in a brand's name tells it (MiniLM's cosine of two brand names picks the right older in 7 of 16 held-out
switches), so a bare brand ("Joost zit nu bij Odido") is no verdict. A first version kept a bare brand's verdict
when it was the write's only provider verdict: it retired a phone plan for "passou-se para o ActivoBank" (held-out
9) and a bank account for "ist zu 1&1 gegangen" (held-out 7), whose right olders were not the write's candidates
or were read by another rule. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_attr, fact_hired, fact_mood, fact_person, fact_relocated
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, WEEKDAYS, fold

__all__ = ["KINDS", "REASON", "kinds", "provider", "switched"]

REASON = "provider switched"

# The kinds of provider, each by words of seven languages that name it or what it sells (folded; a word of 5
# letters or more also names it inside a compound: "Handytarif", "Girokonto", "Stromvertrag", "zorgverzekering").
KINDS: dict[str, frozenset[str]] = {kind: frozenset(fold(w) for w in words.split()) for kind, words in {
    "bank": """bank banks banking account savings current debit overdraft konto girokonto sparkonto bankkonto depot
        compte courant livret banque cuenta banco ahorro conta banco poupanca banca conto risparmi rekening
        spaarrekening""",
    "phone": """phone mobile sim data gb minutes texts handy handytarif handyvertrag mobilfunk forfait portable
        movil telefono telemovel tarifario cellulare telefonino mobiel""",
    "internet": """broadband internet wifi fibre fiber fibra glasfaser dsl adsl router""",
    "energy": """electricity energy power strom stromanbieter energie electricite luz electricidad eletricidade
        luce energia stroom kwh gas""",
    "car": """car cars auto voiture coche carro macchina moto motorbike motorrad scooter""",
    "home": """home house contents hausrat habitation hogar woning inboedel""",
    "insurance": """insured insurance insurer versichert versicherung assure assurance assureur asegurado seguro
        segurado assicurato assicurata assicurazione verzekerd verzekering""",
    "health": """health krankenkasse krankenversicherung mutuelle sante salud saude zorgverzekering
        zorgverzekeraar""",
    "pension": """pension pensions retirement rente altersvorsorge retraite jubilacion pensao reforma pensione
        pensioen""",
    "gym": """gym fitness palestra ginasio gimnasio sportschool fitnessstudio""",
}.items()}
_COMPOUND_MIN = 5

# Prepositions of being a provider's customer, after which its name comes (folded).
_WITH = frozenset(fold(w) for w in """with on from via bei uber von chez a au aupres con com na no pela pelo
    da presso bij""".split())
# A verb of going over to a new provider, and the words its name comes after (folded text, words apart).
_SWITCH = re.compile(r"(?<![\w])(?:" + "|".join((
    r"(?:switched|switching|switches|gone|went|changed|changing|swapped) (?:over )?(?:to|for)",
    r"(?:is|'s|are) (?:now )?(?:with|on)(?= \S+ now\b)",
    r"(?:is|'s) now (?:with|on)",
    r"(?:zu|zur|zum)(?=(?: \S+){1,3} (?:gewechselt|umgestiegen|gegangen))",
    r"(?:ist|sind) (?:jetzt|nun|inzwischen|seit \S+) bei",
    r"(?:est|sont) (?:passe|passee|passes|passees) (?:chez|a|au|a la|sur)",
    r"(?:est|sont) (?:maintenant|desormais|depuis \S+) chez",
    r"(?:est|sont) chez(?=(?: \S+){1,5} depuis)",
    r"(?:a|ont) (?:change|opte) pour",
    r"(?:se ha|se han|me he|nos hemos) (?:pasado|cambiado|ido) (?:a|al)",
    r"(?:se paso|se cambio|se fue) (?:a|al)",
    r"(?:ahora|ya) (?:esta|estan) con",
    r"(?:passou|passaram)(?:-se)? (?:para|pra)",
    r"(?:esta|estao) agora (?:na|no|com)",
    r"agora (?:esta|estao) (?:na|no|com)",
    r"(?:e|sono) (?:passata|passato|passati|passate) (?:a|al|alla|con)",
    r"(?:adesso|ora|ormai) (?:e|sono) con",
    r"(?:e|sono) con(?=(?: \S+){1,3} (?:adesso|ora|da))",
    r"(?:overgestapt|overgegaan|overgeschakeld) (?:naar|op)",
    r"(?:zit|zitten|is|zijn) nu bij",
    r"(?:is|zijn) (?:per \S+ \S+ )?naar(?=(?: \S+){1,3} (?:gegaan|overgestapt))",
)) + r")(?![\w])")
_WHEN = frozenset(WEEKDAYS | SHORT_WEEKDAYS | MONTHS) | frozenset(f"{d}s" for d in WEEKDAYS)
_NAME = re.compile(r"[A-ZÀ-Ý0-9][\w&.+'-]*(?:\s+[A-ZÀ-Ý0-9][\w&.+'-]*)*")
_WORD = re.compile(r"[^\W\d_]+|\d+\s*gb\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def kinds(text: str) -> frozenset[str]:
    """The kinds of provider ``text`` names by a word of :data:`KINDS` ("10 GB" is a phone plan's data)."""
    out: set[str] = set()
    for w in _WORD.findall(text):
        k = fold(w.lower())
        if k[:1].isdigit():
            out.add("phone")
            continue
        for kind, words in KINDS.items():
            if k in words or any(len(x) >= _COMPOUND_MIN and x in k for x in words):
                out.add(kind)
    return frozenset(out)


def _people(text: str, upto: int | None = None) -> frozenset[str]:
    """Whose provider ``text`` states: the names of its subject, owners too ("Katrins Handytarif"), each also
    without a genitive "s"; when the subject reads as none ("L'assurance auto de Hugo est à la MAIF"), the
    capitalised words before word ``upto`` but the first."""
    names, _owners = fact_person._subject(text)
    if not names and upto is not None:
        names = frozenset(fold(w.lower()).strip("'") for w in text.replace("’", "'").split()[1:upto]
                          if w[:1].isupper() and "'" not in w)
    return frozenset(names) | frozenset(n[:-1] for n in names if len(n) > 3 and n.endswith("s"))


def _kin(text: str) -> bool:
    """Whether the first words of ``text`` (its subject) hold a kinship word ("Owen's sister", "A irmã do Tiago")."""
    return any(fold(w.lower()).strip("'") in fact_person._KIN for w in _WORD.findall(text)[:5])


def provider(old: str) -> tuple[frozenset[str], str] | None:
    """(whose, the provider's name folded) when ``old`` states a person's provider, else None: a capitalised name
    right after a preposition of being a customer (an article between), not a word of its subject."""
    if fact_attr.attributes(old) or fact_mood.unasserted(old) or fact_hired.job(old) \
            or {fold(w.lower()) for w in _WORD.findall(old)} & fact_relocated.LIVE:
        return None  # where one lives, works, goes to school, how one gets there: no provider
    toks = old.replace("’", "'").split()
    for i, t in enumerate(toks[:-1]):
        if fold(t.lower()).strip("'") not in _WITH and not t.lower().startswith(("l'", "d'")):
            continue
        who = _people(old, i)
        if not who:
            continue
        rest = " ".join(toks[i + 1:i + 5])
        rest = re.sub(r"^(?:the|an?|der|die|dem|den|la|le|les|l'|el|los|las|o|a|os|as|il|lo|de|het|un|une|um|uma|una)\s+",
                      "", rest, flags=re.IGNORECASE)
        m = _NAME.match(rest)
        first = fold(m.group().split()[0].lower()) if m else ""
        before = {fold(w.lower()).strip("',") for w in toks[:i]}
        if m and first not in who and first not in _WHEN and first not in before:
            return who, fold(m.group().lower())
    return None


def _switched_to(new: str) -> str:
    """The name ``new`` says its subject went over to (folded), else ""."""
    low = fold(new.lower().replace("’", "'"))
    m = _SWITCH.search(low)
    if not m:
        return ""
    # the name in the sentence as written, after the phrase (folding keeps the offsets of Latin letters)
    text = new.replace("’", "'")
    if len(low) != len(text):
        return ""
    tail = text[m.end():]
    tail = re.sub(r"^\s*(?:(?:the|an?|der|die|dem|den|la|le|les|l'|el|los|las|o|a|os|as|il|lo|de|het|un|une)\s+)?",
                  "", tail, flags=re.IGNORECASE)
    name = _NAME.match(tail)
    return fold(name.group().lower()) if name else ""


def switched(old: str, new: str) -> str | None:
    """``REASON: OLD -> NEW`` when ``new`` says, naming a kind of provider the older's is of, that the
    person whose provider ``old`` states went over to another, else None (see the module docstring)."""
    got = provider(old)
    if got is None or fact_mood.unasserted(new):
        return None
    who, was = got
    # whose switch: the newer's subject person; its owner only when no kinship word says it is someone else's
    # ("Owen's sister has switched to Starling")
    subject = fact_person.subject_person(new) if _kin(new) else _people(new)
    if not subject or not subject & who:
        return None
    now = _switched_to(new)
    if not now or now == was or now.split()[0] in subject or was.split()[0] in fold(new.lower()):
        return None  # (the older's provider said again: a switch from it is another rule's reading)
    if not kinds(new) & kinds(old):
        return None  # no kind said, or one the older's provider is not ("10 GB" after a bank)
    return f"{REASON}: {was} -> {now}"

