"""Greetings and wishes are small talk, not a subject: "buon compleanno", "feliz sábado", "Prettig weekend allemaal",
"gefeliciteerd", "happy birthday Dad" name no topic, and a group of them is no topic.

A chat greets every morning, every weekend, every birthday and holiday, and the greetings recur word for word, so
they scored as a topic's name ("buon compleanno", "feliz cumpleaños", "Prettig weekend allemaal", "birthday" of
"happy birthday": bench/data/brief_heldout14) and a group of them headed a topic. A greeting is told by how it
opens: a wish word (a closed class per language, as stop words are: "buon", "feliz", "fijne", "happy", "frohe") or a
greeting said in one word ("buongiorno", "goedemorgen", "gefeliciteerd", "felicidades"). A name written
capitalised inside a sentence is a name whatever it opens with ("al Buongiorno Caffè", "the Good Morning Bakery").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Wish words a greeting opens with, in the languages the brief reads (lower case): "happy birthday", "buon weekend",
# "feliz sábado", "boas festas", "joyeux Noël", "frohe Weihnachten", "fijne zaterdag", "god jul", "wesołych świąt".
# Adjectives as "good" / "bon" / "gute" open other phrases too ("buena idea", "good job"): said alone in a short
# turn they are praise, small talk as well.
WISHES: frozenset[str] = frozenset("""
happy merry good congrats congratulations
buon buona buone buoni felice felici auguri tanti
feliz felices buen buena buenos buenas felicidades próspero
bom boa bons boas parabéns
bon bonne bons bonnes joyeux joyeuse joyeuses meilleurs félicitations
frohe frohes frohen fröhliche fröhliches gute guten gutes schöne schönen schönes herzlichen
fijne fijn prettige prettig goede gelukkig gelukkige
god godt glad glada trevlig trevligt glædelig glædelige
wesołych szczęśliwego wszystkiego
""".split())
# Greetings said in one word ("buongiorno a tutti", "goedemorgen!", "gefeliciteerd Fatima"): a whole wish
GREETINGS: frozenset[str] = frozenset("""
buongiorno buonasera buonanotte buondì auguri bonjour bonsoir bonne-nuit félicitations felicidades parabéns
goedemorgen goedemiddag goedenavond goedenacht welterusten gefeliciteerd grattis gratulerer tillykke dobranoc
moin morning congrats congratulations
""".split())
OPENERS: frozenset[str] = WISHES | GREETINGS
SEGMENT_WORDS = 6  # a greeting is short: "Happy birthday to Aunt Carol today", "buona festa anche a te Pina"
REST_WORDS = 3  # a line whose other parts say at most this many words is a greeting ("auguri Enrico!! buon compleanno")
_AUTHOR = re.compile(r"^[^:\n]{1,60}:\s")  # a chat turn's "Name: " prefix
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_DIGIT = re.compile(r"\d")
# punctuation and emoji end a greeting: "morning all, coffee machine is fixed", "God morgen. Frost på bilruden"
_SEGMENT = re.compile(r"([^\w\s'’-]+)")  # (captured: a split keeps the cuts)
_EDGE = "!?.,;:()[]\"“”«»¡¿…~*'’ "  # what stands around a line's first word ("¡feliz", "auguri!!", "morning,")


def _opens(line: str) -> bool:
    """Whether a line's first word, after its "Name: " label, is a wish word or a greeting: a greeting opens its
    line ("God morgen. Frost på bilruden", "auguri Enrico!! buon compleanno"), and most lines are read by this
    test alone (a split of their first characters, no scan: consolidate names every cluster's members)."""
    colon = line.find(": ", 0, 62)
    head = line[colon + 2 if colon > 0 else 0:][:40].split(None, 1)
    return bool(head) and head[0].strip(_EDGE).lower() in OPENERS


def has_opener(text: str) -> bool:
    """Whether a line of ``text`` opens with a wish word or a greeting (then its greetings are read)."""
    return any(_opens(line) for line in text.split("\n"))


def opens_wish(low: str) -> bool:
    """Whether a lower-cased word opens a greeting or is one ("buon", "feliz", "happy", "buongiorno")."""
    return low in OPENERS


def _greeting_part(part: str) -> bool:
    """A part of a line between punctuation or emoji that is a greeting: short, no number, a greeting word or a
    wish word and what is wished ("buon compleanno", "Happy birthday to Aunt Carol today", "Goedemorgen buren"; not
    a "good" alone, which only acknowledges)."""
    words = _WORD.findall(part)
    if not 0 < len(words) <= SEGMENT_WORDS or _DIGIT.search(part):
        return False
    first = words[0].lower()
    return first in GREETINGS or first in WISHES and len(words) >= 2


def _parts(line: str) -> tuple[str, list[str]]:
    """A line's "Name: " label and the rest cut at punctuation and emoji, the cuts kept (every other item)."""
    m = _AUTHOR.match(line)
    label = m.group(0) if m else ""
    return label, _SEGMENT.split(line[len(label):])


def greeting_line(line: str) -> bool:
    """A line (a chat turn, its "Name: " label dropped) that is a greeting or wish: a greeting part and at most
    REST_WORDS words besides ("auguri Enrico!! buon compleanno", "FELIZ CUMPLEAÑOS MEMO", "Goedemorgen! fijne
    zaterdag allemaal"; not "morning all, coffee machine is fixed")."""
    if not _opens(line):  # (most lines: one split of their start)
        return False
    _label, parts = _parts(line)
    words = [p for p in parts[::2]]
    greeted = [p for p in words if _greeting_part(p)]
    rest = sum(len(_WORD.findall(p)) for p in words if not _greeting_part(p))
    return bool(greeted) and rest <= REST_WORDS


def without_greetings(text: str, instead: str = "") -> str:
    """``text`` with the greetings of its lines replaced by ``instead`` ("God morgen. Frost på bilruden" ->
    ". Frost på bilruden"): what a topic name is taken from (the punctuation and emoji around a greeting stay, so
    runs never join across it). ``instead="x"`` puts an "x" for each of a greeting's words: what follows it stays
    inside its sentence and the line as long ("God morgen 🌞 Bamse har gravet" -> "x x🌞 Bamse har gravet": "Bamse"
    is still a name written inside a sentence)."""
    if not has_opener(text):
        return text
    out = []
    for line in text.split("\n"):
        if not _opens(line):
            out.append(line)
            continue
        label, parts = _parts(line)
        out.append(label + "".join(" ".join(instead for _w in _WORD.findall(p)) if i % 2 == 0 and _greeting_part(p)
                                   else p for i, p in enumerate(parts)))
    return "\n".join(out)


def is_greeting(text: str) -> bool:
    """A memory more than half of whose lines are greetings (a chat turn, or an episode that quotes several)."""
    if not has_opener(text):
        return False
    lines = [ln for ln in text.splitlines() if _WORD.search(_AUTHOR.sub("", ln, count=1))]  # (not "💀💀")
    return 2 * sum(greeting_line(ln) for ln in lines) > len(lines)


def says_more(text: str) -> bool:
    """Whether a line of ``text`` is no greeting and says more than REST_WORDS words: not a reply to a greeting
    ("jullie ook", "gracias cuates", "grazie a tutti")."""
    return any(len(_WORD.findall(_AUTHOR.sub("", ln, count=1))) > REST_WORDS and not greeting_line(ln)
               for ln in text.split("\n"))


def mostly_greetings(texts: Sequence[str], of: int | None = None) -> bool:
    """A group more than half of whose texts (two at least) are greetings: small talk, named by no subject. ``of``:
    the group's size when ``texts`` are only those of its texts that may be greetings."""
    size = len(texts) if of is None else of
    greetings, others = 0, size - len(texts)  # (the texts left out are no greetings)
    for t in texts:  # (stops once the others are half the group: most groups greet nobody)
        if is_greeting(t):
            greetings += 1
        else:
            others += 1
            if 2 * others >= size:
                return False
    return greetings >= 2 and 2 * greetings > size
