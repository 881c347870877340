"""What a fact sentence states, as the update rules compare it: the clause reported
(memengine/fact_said.py), a correction's frame taken off, German separable verbs joined.

- **Corrections** state the corrected value: "correction: band practice is on fridays, not thursdays",
  "sorry, I meant 7:30", "pardon, je voulais dire ...", "perdón, me equivoqué: ...", "Korrektur: ...",
  "corrigindo: ...", "scusa, volevo dire ...". The opening words of correcting (six languages) and a
  trailing contrast that names what is *not* (", not thursdays", ", pas le lundi", ", no el lunes",
  ", nicht am Dienstag", ", não na terça", ", non lunedì") are no words of the frame: left in, the first
  hides the subject and the second reads as a denial of the whole fact.
- **German separable verbs** are one verb: "Die Post macht jetzt erst um 9 Uhr auf" is "öffnet",
  "macht ... zu" is "schließt", "fängt ... an" is "beginnt" — so the other
  end of a thing stays another end ("macht um 16 Uhr zu" never updates "macht um 7:30 auf"), and the
  same end with a new time is an update.
- **"changed the X, new one is V"** is "the X is now V" ("hab das wlan pw geändert, das neue ist Ahorn55",
  "j'ai changé le code du portail, le nouveau c'est 2290", "ho cambiato il codice, quello nuovo è 8803"):
  left as it is, "one" / "nouveau" reads as the new value and the thing changed as no subject.
- **"Open until X"** is the closing time ("Der Hort hat bis 17 Uhr auf", "the shop is open until 8pm", "ouvert
  jusqu'à 19h", "abierto hasta las 9", "aberto até às 18h", "aperto fino alle 19"): "schließt um 17 Uhr", so a
  later "macht schon um 16 Uhr zu" is the same end with a new time.
- **Someone moved it** is "it was moved" ("Oscar moved the weekly planning to Tuesdays", "we pushed the launch to
  May 3", "Dr Lee rescheduled the appointment to 5 December"): who moved a thing is no subject of its frame; as
  the passive it is the thing's new value (lead, session 12: the demo's own update was read as no update).

:func:`stated` is what memengine/supersession.py compares (both sides); ``text`` itself when there is
nothing to take off. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_said
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, WEEKDAYS
from memengine.fact_note_label import unlabelled

__all__ = ["stated"]

# The words that open a correction, in six languages, after an apology or not ("sorry, ...", "oops").
_CORRECTING = (
    "correction", "sorry i meant", "sorry, i meant", "oops i meant", "oops, i meant", "i meant", "i mean",
    "meant to say", "my bad", "my mistake", "scratch that",
    "rectification", "erratum", "je voulais dire", "pardon je voulais dire", "je me suis trompe", "je me suis trompee",
    "correccion", "quise decir", "queria decir", "me equivoque", "fe de erratas", "corrijo",
    "korrektur", "berichtigung", "ich meinte", "ich meine", "ich hab mich vertan", "ich habe mich vertan",
    "correcao", "corrigindo", "quis dizer", "queria dizer", "me enganei", "errei",
    "correzione", "volevo dire", "intendevo", "mi sono sbagliato", "mi sono sbagliata", "errata corrige",
)
_APOLOGY = ("sorry", "oops", "pardon", "oups", "perdon", "perdona", "ups", "entschuldigung", "desculpa",
            "desculpe", "ops", "scusa", "scusate", "scusami")
_ACCENTS = str.maketrans("áàâãäçéèêëíìîïóòôõöúùûü", "aaaaaceeeeiiiiooooouuuu")


def _fold(text: str) -> str:
    # one character for one (not fact_lexicon.fold, whose NFKD and "œ" -> "oe" change the length): the
    # offsets of matches on the folded text cut the original text
    return text.lower().translate(_ACCENTS)


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"[\s,]+") for w in sorted(words, key=len, reverse=True))


_OPENING_RE = re.compile(rf"^\s*(?:(?:{_alternation(_APOLOGY)})(?![\w'-])[\s,!.:]*)?(?:(?:{_alternation(_CORRECTING)})"
                         r"(?![\w'-])\s*[:,-]?\s*)?")
# ", not X" at the end: what is not (at most four words, not "not anymore" / "plus" / "mehr": a denial).
_CONTRAST_RE = re.compile(r"\s*[,;]\s*(?:and\s+|et\s+|y\s+|und\s+|e\s+)?(?:not|pas|no|nicht|nao|non)\s+"
                          r"(?!(?:any\s*more|longer|more|plus|mehr|mas|mais|piu|ya)\b)[^\s,.;!?]+(?:\s+[^\s,.;!?]+){0,3}"
                          r"\s*[.!]?\s*$")
# German separable verbs: the finite verb, then its particle at the clause's end.
_SEPARABLE = (
    (re.compile(r"\b(macht|machen)\b(?P<mid>[^,.;!?]*?)\s+auf(?=\s*(?:[,.;!?]|$))", re.I), {"macht": "öffnet",
                                                                                           "machen": "öffnen"}),
    (re.compile(r"\b(macht|machen)\b(?P<mid>[^,.;!?]*?)\s+zu(?=\s*(?:[,.;!?]|$))", re.I), {"macht": "schließt",
                                                                                          "machen": "schließen"}),
    (re.compile(r"\b(fängt|fangen)\b(?P<mid>[^,.;!?]*?)\s+an(?=\s*(?:[,.;!?]|$))", re.I), {"fängt": "beginnt",
                                                                                          "fangen": "beginnen"}),
)


def _corrected(text: str) -> str:
    """``text`` without its opening words of correcting and its trailing contrast."""
    low = _fold(text)
    m = _OPENING_RE.match(low)
    if m is not None and 0 < m.end() < len(text):
        text = text[m.end():]
        low = low[m.end():]
    c = _CONTRAST_RE.search(low)
    if c is not None and c.start() > 0 and len(low[:c.start()].split()) >= 3:
        text = text[:c.start()]
    return text.strip()


# "Open until X" is the closing time, in six languages: "Der Hort hat bis 17 Uhr auf" / "macht schon um 16 Uhr zu",
# "the shop is open until 8pm" / "closes at 7 now" are one end of one thing (the other end, "opens at", stays another).
_HOUR = r"\d{1,2}(?:[:.h]\d{2})?(?:\s*(?:uhr|h|am|pm))?"
_OPEN_UNTIL = (
    (re.compile(rf"\b(?:hat|haben|ist|sind|macht|machen)\b(?P<mid>(?:\s+[^\s,.;!?]+){{0,3}}?)\s+bis\s+(?P<hour>{_HOUR})"
                r"\s+(?:auf|offen|geöffnet|geoeffnet)\b", re.I), "schließt{mid} um {hour}"),
    (re.compile(rf"\b(?:is\s+|are\s+|stays\s+)?open\s+(?:until|till|til)\s+(?P<hour>{_HOUR})", re.I), "closes at {hour}"),
    (re.compile(rf"\b(?:est\s+|sont\s+|reste\s+)?ouverte?s?\s+jusqu'(?:à|a|au)\s+(?P<hour>{_HOUR})", re.I), "ferme à {hour}"),
    (re.compile(rf"\b(?:está\s+|están\s+|esta\s+)?abiert[oa]s?\s+hasta\s+(?:las\s+|la\s+)?(?P<hour>{_HOUR})", re.I),
     "cierra a las {hour}"),
    (re.compile(rf"\b(?:está\s+|fica\s+|ficam\s+)?abert[oa]s?\s+até\s+(?:às\s+|as\s+|a\s+)?(?P<hour>{_HOUR})", re.I),
     "fecha às {hour}"),
    (re.compile(rf"\b(?:è\s+|sono\s+|resta\s+)?apert[oaie]\s+fino\s+(?:alle\s+|all'|a\s+)(?P<hour>{_HOUR})", re.I),
     "chiude alle {hour}"),
)


def _open_until(text: str) -> str:
    """"Open until X" said as the closing time ("hat bis 17 Uhr auf" -> "schließt um 17 Uhr")."""
    for pattern, form in _OPEN_UNTIL:
        m = pattern.search(text)
        if m is not None:
            parts = m.groupdict()
            text = text[:m.start()] + form.format(mid=parts.get("mid") or "", hour=parts["hour"]) + text[m.end():]
            break
    return text


# "changed the wifi pw, new one is tangerine77": the thing changed, then its new value said of "the new one".
# Read as "the wifi pw is now tangerine77" (the thing as the subject, a change marker), in six languages (folded).
_SEP = r"\s*(?:[,;:]|\s-)\s*(?:and\s+|und\s+|et\s+|y\s+|e\s+)?"
_NEW_ONE = (
    (re.compile(rf"^(?:(?:i|we)\s+)?(?:just\s+)?(?:changed|reset|updated)\s+(?P<np>(?:the|my|our)\s+[^,;:]+?){_SEP}"
                r"(?:the\s+)?new\s+one(?:'s|\s+is)\s+(?P<v>.+)$"), "{np} is now {v}"),
    (re.compile(rf"^(?P<np>[^,;:]+?)\s+(?:got\s+|was\s+|has\s+been\s+)?(?:changed|reset|updated){_SEP}"
                r"(?:the\s+)?new\s+one(?:'s|\s+is)\s+(?P<v>.+)$"), "{np} is now {v}"),
    (re.compile(rf"^(?:ich\s+)?(?:hab|habe|haben)\s+(?:ich\s+|wir\s+)?(?P<np>(?:das|den|die|unser|unsere|unseren|mein|"
                rf"meine|meinen)\s+[^,;:]+?)\s+(?:geandert|geaendert|gewechselt|zuruckgesetzt){_SEP}"
                r"(?:das|der|die)\s+neue[nrs]?\s+(?:ist|lautet)\s+(?P<v>.+)$"), "{np} ist jetzt {v}"),
    (re.compile(rf"^(?:j'ai|on\s+a|nous\s+avons)\s+change\s+(?P<np>(?:le|la|l'|les|mon|ma|notre)\s*[^,;:]+?){_SEP}"
                r"(?:le|la)\s+(?:nouveau|nouvelle)\s+(?:c'est|est)\s+(?P<v>.+)$"), "{np} est maintenant {v}"),
    (re.compile(rf"^(?:cambie|cambiamos|he\s+cambiado|hemos\s+cambiado)\s+(?P<np>(?:el|la|mi|nuestr[oa])\s+[^,;:]+?)"
                rf"{_SEP}(?:el|la)\s+nuev[oa]\s+es\s+(?P<v>.+)$"), "{np} es ahora {v}"),
    (re.compile(rf"^(?:troquei|mudei|alterei|trocamos|mudamos)\s+(?P<np>(?:o|a|meu|minha|nosso|nossa)\s+[^,;:]+?)"
                rf"{_SEP}(?:o|a)\s+nov[oa]\s+e\s+(?P<v>.+)$"), "{np} é agora {v}"),
    (re.compile(rf"^(?:ho|abbiamo)\s+cambiato\s+(?P<np>(?:il|la|lo|l'|i|le|il\s+mio|la\s+mia)\s*[^,;:]+?){_SEP}"
                r"(?:(?:il|la|lo)\s+nuov[oa]|quell[oa]\s+nuov[oa])\s+e\s+(?P<v>.+)$"), "{np} è ora {v}"),
)


def _new_one(text: str) -> str:
    """"changed the X, new one is V" read as "the X is now V" (see :data:`_NEW_ONE`)."""
    low = _fold(text.replace("’", "'"))
    for pattern, form in _NEW_ONE:
        m = pattern.match(low)
        if m is not None:
            return form.format(np=text[m.start("np"):m.end("np")], v=text[m.start("v"):m.end("v")])
    return text


def _joined(text: str) -> str:
    """German separable verbs joined ("macht ... auf" -> "öffnet ...")."""
    for pattern, verbs in _SEPARABLE:
        m = pattern.search(text)
        if m is not None:
            verb = verbs[m.group(1).lower()]
            verb = verb.capitalize() if m.group(1)[:1].isupper() else verb
            text = text[:m.start()] + verb + m.group("mid") + text[m.end():]
    return text


# "<someone> moved the <thing> to <value>": a name (two with "and"), a pronoun or "the team", a verb of moving a
# date or time, the thing, then "to"/"until" and the rest (English; the other languages say it reflexively or in the
# passive already: "se movió", "wurde verschoben", "a été décalé")
_MOVED_BY_RE = re.compile(
    r"^(?:(?:I|we|they|he|she|the team|our team|[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)?(?:\s+(?:and|&)\s+[A-Z][\w'.-]*)?)\s+)"
    r"(?:have\s+|has\s+|just\s+|finally\s+)?"
    r"(?P<verb>moved|pushed|shifted|rescheduled|postponed|delayed|bumped|brought\s+forward|pulled\s+forward)\s+"
    r"(?P<thing>(?:the|our|my|his|her|their|this\s+week's|next\s+week's)\s+[^,;.!?]+?)\s+"
    r"(?P<rest>(?:to|until|till|back\s+to|forward\s+to)\s+.+)$", re.IGNORECASE)


# what a date or time is moved to: a weekday, a month, a day's number, a clock time, "next …", "tomorrow", "later"
_WHEN_RE = re.compile(
    r"(?:(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b|\d{1,2}[:.h]\d{2}|\d{1,2}\s*[ap]\.?m\b|next\b|tomorrow\b|tonight\b|"
    r"later\b|after\b|early\b|mid\b|the\s+end\b|(?:" + "|".join(sorted(WEEKDAYS | MONTHS | SHORT_WEEKDAYS,
                                                                           key=lambda w: (-len(w), w))) + r")s?\b)",
    re.IGNORECASE)


def _moved_by(text: str) -> str:
    """"Oscar moved the weekly planning to Tuesdays" -> "The weekly planning was moved to Tuesdays"; else ``text``."""
    m = _MOVED_BY_RE.match(text.strip())
    if m is None or not _WHEN_RE.match(m.group("rest").split(None, 1)[-1]):
        return text  # (a thing moved to a place or a system: "we moved the build server to Debian" is a migration)
    thing = m.group("thing")
    return f"{thing[0].upper()}{thing[1:]} was {m.group('verb').lower()} {m.group('rest')}"


@lru_cache(maxsize=4096)
def stated(text: str) -> str:
    """The sentence the update rules compare: the clause reported, a correction's frame off, German
    separable verbs joined (see the module docstring); a note's opening label ("Update: …", "Decided: …") is no
    word of it (memengine/fact_note_label.py)."""
    out = _moved_by(_joined(_open_until(_new_one(_corrected(fact_said.reported(unlabelled(text)))))))
    return out if len(out.split()) >= 2 else text
