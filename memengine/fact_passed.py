"""A task or a role passed from one named person to another: "Priya runs the newsletter" / "priya
handed the newsletter over to tom", "julie a passé la caisse de l'asso à marc", "pablo le pasó la
liga de fútbol a sergio", "a luana passou a agenda do consultório pra juliana", "marco ha passato il
gruppo dei genitori a elena", "die fußball-ag hat jetzt frau lenz übernommen", "tom took over the
podcast from lisa".

The older fact names its holder first (a name, after an article or a title: "A Luana", "Herr Kaya")
and then what the holder does. The newer says either that the holder **passed** the thing on
(giver, a verb of handing, the thing, "to" and the receiver) or that someone **took it over** (the
receiver, a verb of taking over, the thing; "from" the giver or not). :func:`passed_on` accepts the
pair when

- the giver, if named, is the older's holder, and the receiver is a name the older does not hold;
- every content word of the thing repeats a word of the older (a stem, or an abbreviation: "asso" /
  "association"), and at least one does: "lisa coaches the under-12s" is not "the under-10s".

memengine/supersession.py asks it after the frame rules; the owner and one-off vetoes apply to it as to
every verdict. Pure: no SQL, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import STOPWORDS, _set, fold, fold_text
from memengine.fact_lexicon import same_stem as _same
from memengine.fact_types import Verdict

__all__ = ["passed_on", "provider_left"]

_PASS = ("handed", "passed", "gave", "transferred", "handing", "passing", "hands", "passes",
         "passe", "passee", "confie", "confiee", "transmis", "transmise", "laisse", "refile",
         "paso", "pasado", "dejo", "cedio", "traspaso", "passou", "entregou", "deixou", "transferiu",
         "passato", "passata", "ceduto", "lasciato", "affidato", "girato")
_TAKE = ("took over", "taken over", "takes over", "taking over", "ubernommen", "ubernimmt", "repris", "reprend",
         "reprise", "asumio", "asume", "se hizo cargo de", "se encarga de", "assumiu", "assume", "rilevato",
         "preso in mano", "ha preso")
_TO = r"(?:to|a|au|al|pra|para|pro|pros|an|com|ad)"
_AUX = r"(?:(?:has|had|just|le|les|lui|l'|ha|hat|a|gli|lo|la|ja|already|schon|deja|ya|ja|gia)\s+)*"
_NAME = r"(?:(?:frau|herr|dr|mr|mrs|ms|mme|m|sr|sra|senhor|senhora|dona|dott|dottssa|signora|signor)\.?\s+)?[^\W\d_][\w'-]*"
_END = r"(?=\s*(?:[,;.!?()]|$|\s+(?:and|so|now|since|because|he|she|they|et|car|y|porque|und|weil|e|ed|perche|jetzt)\b))"
_PASS_RE = re.compile(
    rf"^\W*(?:(?:the|le|la|el|o|a|il|der|die)\s+)?(?P<giver>{_NAME})\s+{_AUX}(?P<verb>{'|'.join(_PASS)})\s+"
    rf"(?:over\s+|on\s+)?(?P<thing>.+?)\s+(?:over\s+|on\s+)?{_TO}\s+(?:(?:the|la|le|o|a|il)\s+)?(?P<recv>{_NAME}){_END}")
_DE_GIVE_RE = re.compile(
    rf"^\W*(?P<giver>{_NAME})\s+hat\s+(?:jetzt\s+)?(?P<thing>.+?)\s+an\s+(?P<recv>{_NAME})\s+"
    rf"(?:ubergeben|abgegeben|weitergegeben)")
_TAKE_RE = re.compile(
    rf"^\W*(?:(?:the|le|la|el|o|a|il)\s+)?(?P<recv>{_NAME})\s+{_AUX}(?:now\s+|jetzt\s+|agora\s+|ahora\s+)?"
    rf"(?:{'|'.join(_TAKE)})\s+(?P<thing>.+?)(?:\s+(?:from|de|von|da|di)\s+(?P<giver>{_NAME}))?{_END}")
# German: "die fußball-ag hat jetzt frau lenz übernommen" / "frau lenz hat die fußball-ag übernommen"
_DE_TAKE_RE = re.compile(r"^\W*(?P<one>.+?)\s+hat\s+(?:jetzt\s+|nun\s+|inzwischen\s+)?(?P<two>.+?)\s+ubernommen")
_TITLES = _set("frau herr dr mr mrs ms mme m sr sra senhor senhora dona dott dottssa signora signor")
_ARTICLES = _set("the a an", "le la les l un une", "el la los las", "der die das den dem", "o a os as", "il lo la i gli")
_WORD = re.compile(r"[^\W\d_][\w'-]*|\d+")


# the holder said last, after a passive verb (facts37): "The rota is managed by Priya", "… are led by Mr Hughes"
_BY_HOLDER = re.compile(r"\b(?:is|are|was|were)\s+(?:[a-z]+\s+)?[a-z]+(?:ed|en|d|t)\s+by\s+"
                        r"(?:(?:Mr|Mrs|Ms|Dr|Prof)\.?\s+)?(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*[.!]?$")


def _holder(old: str) -> list[str]:
    """The name the older starts with ("Priya", "Herr Kaya", "A Luana"), or the one a passive verb ends it with
    ("The rota is managed by Priya"), folded; [] when neither."""
    m = _BY_HOLDER.search(old.strip())
    if m is not None:
        return [fold(w) for w in _WORD.findall(m.group("name"))]
    out: list[str] = []
    for w in _WORD.findall(old):
        k = fold(w)
        if not out and (k in _ARTICLES or k in _TITLES):
            continue
        if w[:1].isupper() and k not in STOPWORDS:
            out.append(k)
            continue
        break
    return out


def _name(span: str) -> list[str]:
    return [w for w in _WORD.findall(span) if w not in _TITLES]


def _content(span: str) -> list[str]:
    return [w for w in _WORD.findall(span) if w not in STOPWORDS and w not in _ARTICLES and len(w) >= 3
            and not w.isdigit() or w[:1].isdigit() and len(w) > 1]


def _parts(low: str) -> tuple[list[str], list[str], str] | None:
    """(giver, receiver, thing) read from the newer: passing on, or taking over."""
    m = _PASS_RE.match(low) or _DE_GIVE_RE.match(low)
    if m is not None:
        return _name(m.group("giver")), _name(m.group("recv")), m.group("thing")
    m = _TAKE_RE.match(low)
    if m is not None:
        return _name(m.group("giver") or ""), _name(m.group("recv")), m.group("thing")
    m = _DE_TAKE_RE.match(low)
    if m is not None:
        one, two = m.group("one"), m.group("two")
        # the receiver is the short span that is a name (a title and a name, or one word)
        for recv, thing in ((two, one), (one, two)):
            words = recv.split()
            if 1 <= len(words) <= 2 and (len(words) == 1 or words[0] in _TITLES):
                return [], _name(recv), thing
    return None


@lru_cache(maxsize=4096)
def passed_on(old: str, new: str) -> Verdict | None:
    """A verdict of kind "slot" when ``new`` says ``old``'s holder passed its thing to someone else (see
    the module docstring), else None."""
    holder = _holder(old)
    if not holder:
        return None
    parts = _parts(fold_text(new))
    if parts is None:
        return None
    giver, receiver, thing = parts
    old_words = [w for w in _WORD.findall(fold_text(old))]
    if not receiver or any(r in old_words for r in receiver):
        return None  # nobody new: "priya passed the newsletter to priya's team" is no new holder
    if giver and not all(g in holder for g in giver):
        return None  # someone else passed something on
    what = _content(thing)
    rest = [w for w in old_words if w not in holder]
    if not what or not all(any(_same(w, o) for o in rest) for w in what):
        return None  # another thing: "tom runs the podcast" / "passed the newsletter"
    return Verdict("slot", f"handed over '{' '.join(what)}': {' '.join(holder)} -> {' '.join(receiver)}", 0.8)


# --------------------------------------------------------------------------- a provider left for another

# Switching, said of oneself (first word of the sentence, or after I / we): "switched to the physio clinic on
# king street", "we signed up with a dog walking service", "bin zu ... gewechselt", "me cambié a", "mudei para".
_SWITCH = ("switched to", "switched over to", "changed to", "moved to", "signed up with", "went with", "go to",
           "use", "using", "see", "seeing", "passe a", "passee a", "suis passe", "suis passee", "change pour",
           "me cambie a", "nos cambiamos a", "cambie a", "ahora voy a", "gewechselt", "wechseln zu", "gehe jetzt zu",
           "gehen jetzt zu", "mudei para", "mudei pra", "mudamos para", "troquei para", "sono passato a",
           "sono passata a", "siamo passati a", "vado da")
_SELF = r"(?:i|we|je|j'|on|nous|ich|wir|yo|nosotros|eu|nos|io|noi|bin|sind|ho|abbiamo)\s+"
_SWITCH_RE = re.compile(rf"^\W*(?:{_SELF})?(?:now\s+|jetzt\s+|ahora\s+|agora\s+|adesso\s+|just\s+)?(?:{'|'.join(_SWITCH)})\b")
_LEFT = ("retired", "left", "moved away", "quit", "closed", "stopped", "was too", "is too", "too far", "too expensive",
         "est parti", "est partie", "a pris sa retraite", "se jubilo", "se fue", "ist in rente", "hat aufgehort",
         "saiu", "se aposentou", "e andato", "e andata", "in pensione", "war zu", "era troppo", "etait trop")
_HOLDER_RE = re.compile(r"^\W*(?:(?:my|our|the|mon|ma|notre|mi|nuestro|nuestra|mein|meine|unser|unsere|o|a|meu|minha|"
                        r"nosso|nossa|il|la|mio|mia|nostro|nostra)\s+){1,2}(?P<role>[\w' -]{3,40}?)\s+"
                        r"(?:is|are|est|es|ist|e|sont|son|sind)\s+(?P<name>[^,;!?]{2,40}?)\s*[.!]?\s*$")


@lru_cache(maxsize=4096)
def provider_left(old: str, new: str) -> Verdict | None:
    """A verdict of kind "slot" when ``old`` says who holds a role for me ("My eye doctor is Dr. Lin", "Our dog
    walker is Jenny") and ``new`` says I switched to someone or something else, naming the old holder as left
    behind ("switched to the optometrist at costco, way cheaper than dr lin", "we use the h&r block office now,
    helen retired"): the new provider may be named by another noun ("the optometrist", "a dog walking service")."""
    m = _HOLDER_RE.match(fold_text(old))
    if m is None:
        return None
    names = [w for w in _WORD.findall(m.group("name")) if w not in _TITLES and w not in _ARTICLES and len(w) >= 3]
    if not names or len(names) > 3:
        return None
    low = fold_text(new)
    words = _WORD.findall(low)
    spots = [i for i, w in enumerate(words) if w in names]
    if not spots:
        return None
    s = _SWITCH_RE.match(low)
    after = " ".join(words[spots[0] + 1:spots[0] + 5])
    left = any(after.startswith(p) or f" {p}" in f" {after}" for p in _LEFT)
    if s is None and not left:
        return None
    if s is not None:
        head = _WORD.findall(low[:s.end()])
        # the old holder is whom I switched to, or the clause's subject: "switched to dr lin's evening hours"
        if spots[0] <= len(head) + 1:
            return None
    elif not any(w in ("now", "maintenant", "ahora", "jetzt", "agora", "adesso", "ora") for w in words):
        return None  # "dr lin retired" alone says nothing of who holds it now
    role = _WORD.findall(m.group("role"))
    for other in _ROLE_NAMED_RE.finditer(low):
        if not any(_same(other.group(1), r) for r in role):
            return None  # "Emma left for college, so Chloe is our dog walker now": another role
    return Verdict("slot", f"'{m.group('role').strip()}': {' '.join(names)} left for another", 0.75)


# A role the newer names ("... is our dog walker now", "c'est ma responsable", "è il mio medico").
_ROLE_NAMED_RE = re.compile(r"\b(?:is|are|est|es|ist|e|sind|son)\s+(?:our|my|mon|ma|notre|mi|nuestro|nuestra|mein|meine|"
                            r"unser|unsere|o nosso|a nossa|o meu|a minha|il mio|la mia|il nostro|la nostra)\s+([\w'-]+)")
