"""(brief24) Which chat turns tell news, and whose news it is, for the People section's lines.

A group chat's news about someone is often told by someone else: "a Rita entrou no mestrado!" said by her sister,
"Emre hat die Stelle bei Siemens Energy bekommen!!!" said by his flatmate, "Camille est enceinte !!!" said by her
partner. The People line of a person quoted only what they wrote themselves, so Rita's line said "alguém tem um
estirador?" and Emre's "wer hat meine Hafermilch leer gemacht". What marks news in any language is how the chat
answers it: within REPLY_TURNS turns and REPLY_MINUTES minutes, someone else answers excited (an exclamation mark, an
emoji, a word in capitals: "WAS Glückwunsch Emre!!!", "boa Rita!!!", "QUOI 😭😭"), or the person the turn names
answers it ("danke danke 🙈", "ja sorry Leute, das Angebot von BMW war zu gut"), or an answer names them ("bravo
Léa, fais gaffe aux ronds-points"). A news turn is about the chat member it names first (not its author), else about
its author. A person's line quotes their newest news that drew about as many answers as their most answered
(brief_people.NEWS_SHARE): "wer hat meine Hafermilch leer gemacht" answered "🙊" is newer than "Emre hat die Stelle
bei Siemens Energy bekommen!!!", answered by three.

A news turn may date a plan ("comprámos casa em Gaia!!! escritura dia 30", "ho firmato il contratto a Milano, inizio
il 7 gennaio"): quoted unless a later turn of the chat names a day and shares one of its rare words ("mi hanno
spostato l'inizio all'11 gennaio"): a plan moved since, which the quote would show as current; and only when every day
it names is ahead of it (a transcript stamps each turn with its own day). Turns of no author (a chat's episodes) are no
turns here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime

from memengine import brief_dates, brief_months, fact_change_words
from memengine.timeparse import WEEKDAYS
from memengine.topic_words import GENERIC

REPLY_TURNS = 4  # a turn's answers: the next this many turns of its chat...
REPLY_MINUTES = 180  # ...written at most this long after it
# (brief25) the questions a turn answers: the turns right before it, of others, each asking, the oldest at most this long
# before it ("hoje sai o resultado da OAB né?" at 9:00, "e aí Lelê??" at 13:40, "PASSEEEEI 😭😭😭" at 13:52)
ASKED_TURNS = 3
ASKED_HOURS = 12
ENDS_ASKING = re.compile(r"[?？؟][^\w]*$")  # what is left after the last question mark is no word
# (brief26) the turn an excited outcome follows: its author's own turn before it, at most this long before ("test at 2,
# the instructor says stay calm" at 10:05, "PASSED 🚗🚗🚗 zero minors" at 15:20; "mañana me ponen los brackets 😬" the
# evening before "YA LOS TENGO 😁🦷")
OWN_HOURS = 24
_RARE_WORD = re.compile(r"[^\W\d_]{4,}")
_WORD = re.compile(r"[^\W\d_]+")
_CAPS_WORD = re.compile(r"\b[^\W\d_]{3,}\b")
_THREE = re.compile(r"\b[^\W\d_]{3}\b")  # an acronym, when in capitals: "OAB", "NHS"
_CALENDAR = frozenset(brief_dates.MONTH_OF) | frozenset(brief_dates._WEEKDAY_OF)
_DAYS = _CALENDAR | frozenset(WEEKDAYS)  # (and the English weekdays: "Saturday" asks after nothing)


# agreement, not excitement: "28. passt 👍"
_AGREEING = frozenset("👍👌✅🆗🙂")


def excited(text: str) -> bool:
    """Whether a reply is excited: an exclamation mark, "??", an emoji (not a thumbs-up) or a word in capitals
    ("WAS", "QUOI")."""
    if "!" in text or "??" in text:
        return True
    if any((ord(ch) >= 0x1F300 or unicodedata.category(ch) == "So") and ch not in _AGREEING for ch in text):
        return True
    return any(w.isupper() for w in _CAPS_WORD.findall(text))


def shouted(text: str) -> bool:
    """(brief26) Whether a turn is said out loud: an exclamation mark or a word in capitals ("PASSED 🚗🚗🚗 zero
    minors", "1:54:20!!!", "YA LOS TENGO 😁🦷"), not an emoji alone ("night ❤️", "🥳"): an outcome told, not a mood."""
    return "!" in text or any(w.isupper() for w in _CAPS_WORD.findall(text))


def when(value: object) -> datetime | None:
    """A stored time (``event_at``) as a datetime to the second, or None when it is missing or unreadable."""
    try:
        return datetime.fromisoformat(str(value)[:19])
    except ValueError:
        return None


def name_pattern(name: str) -> re.Pattern[str]:
    """A chat member's name as a word of a turn: the whole name or its first word (3+ letters), as written, or
    (brief34) as its owner: "Tom's op", and in lower case "tom's knee op went fine" (a chat written in lower case names
    its members so; a name alone in lower case may be a word, "will", "mark", which the possessive rules out)."""
    words = [re.escape(name)] + [re.escape(w) for w in name.split()[:1] if len(w) >= 3 and w != name]
    lower = [w.lower() for w in words if w.lower() != w]
    owner = rf"|(?:{'|'.join(lower)})(?=['’]s(?![\w'’]))" if lower else ""
    return re.compile(rf"(?<![\w@])(?:(?:{'|'.join(words)})(?=['’]s(?![\w'’])|(?![\w'’])){owner})")


def owns(name: str, text: str) -> bool:
    """(brief34) Whether ``text`` names member ``name`` as an owner, in any case: "tom's op went fine", "Ana's new job"
    (news about them, whoever told it; "Paket für Jonas" names him, and may be the teller's own news)."""
    first = name.split()[0] if name.split() else name
    return re.search(rf"(?<![\w@]){re.escape(first)}['’]s(?![\w'’])", text, re.IGNORECASE) is not None


def news(rows: Sequence[Sequence[object]], texts: Sequence[str], name_of: Mapping[str, str],
         candidate: Sequence[bool]) -> tuple[dict[str, list[tuple[int, int]]], set[int]]:
    """Per member (display name), the news turns about them as (index, support), oldest first: support is the number
    of others who answered it excited, named its subject, or (told by someone else) were its subject, plus one when
    its subject told it excited.

    ``rows``: (id, author, content, event_at) of one chat's turns in the order written; ``texts`` their text without
    the author's label; ``name_of``: author as written -> display name of the members to find; ``candidate``: whether
    a turn may be quoted at all (informative, no greeting). An excited answer to a news turn is no news itself ("a
    minha menina 😍 parabéns querida", answered "obrigada 🥹"): their indices are returned as well."""
    members = sorted(set(name_of.values()))
    patterns = {m: name_pattern(m) for m in members}
    out: dict[str, list[tuple[int, int]]] = {}
    answers: set[int] = set()
    for i, row in enumerate(rows):
        author = name_of.get(str(row[1]), str(row[1]))
        if not candidate[i] or i in answers:
            continue
        text = texts[i]
        named = sorted((hit.start(), m) for m, p in patterns.items() if m != author for hit in [p.search(text)] if hit)
        subject = named[0][1] if named else author
        if subject not in patterns:
            continue
        at = when(row[3])
        support: set[str] = set()
        excited_answers: list[int] = []
        for j in range(i + 1, min(len(rows), i + 1 + REPLY_TURNS)):
            later = when(rows[j][3])
            if at is not None and later is not None and (later - at).total_seconds() > REPLY_MINUTES * 60:
                break
            who = name_of.get(str(rows[j][1]), str(rows[j][1]))
            if who == author:
                continue
            if excited(texts[j]):
                excited_answers.append(j)
                support.add(who)
            elif who == subject or patterns[subject].search(texts[j]):
                support.add(who)
        # (its author's own news told excited counts as one answer: "cheguei em Curitiba! apartamento no Batel", said
        # when the chat had gone quiet)
        n = len(support) + (subject == author and excited(text))
        if n:
            out.setdefault(subject, []).append((i, n))
            answers.update(excited_answers)
    return out, answers


def asked(i: int, rows: Sequence[Sequence[object]], texts: Sequence[str], weight: Callable[[str], int]) -> int | None:
    """(brief25) The question turn ``i`` answers, if it answers one: of the turns right before it written by others
    and asking (at most ASKED_TURNS of them, none of its author's between, the oldest at most ASKED_HOURS before it),
    the one of the most ``weight`` (its informative words): "1:58:41!!! under two hours" answers "how did the half
    go??"; "PASSEEEEI" answers "hoje sai o resultado da OAB né?" more than the "e aí Lelê??" after it. A news turn
    that says nothing of what it is about reads with it."""
    at = when(rows[i][3])
    best: tuple[int, int] | None = None
    first = i
    for j in range(i - 1, max(-1, i - 1 - ASKED_TURNS), -1):
        before = when(rows[j][3])
        if rows[j][1] == rows[i][1] or not ENDS_ASKING.search(texts[j]) or at is None or before is None \
                or (at - before).total_seconds() > ASKED_HOURS * 3600:
            break
        first = j
        w = weight(texts[j])
        if best is None or w > best[0]:
            best = (w, j)
    # a question that answers the same person's turn is their talk going on, not a question about their news ("au fait
    # je me suis fait opérer du genou" ... "tu veux que je passe avec des courses ?" ... "oui volontiers, merci ❤️")
    if best is None or first and rows[first - 1][1] == rows[i][1] and _within(rows[first - 1][3], rows[first][3]):
        return None
    return best[1]


def own_before(i: int, rows: Sequence[Sequence[object]], texts: Sequence[str]) -> int | None:
    """(brief26) The turn an excited outcome with no question before it follows: its author's own newest turn before
    it, written at most OWN_HOURS before, that does not ask (what it asked, others answered), when no turn between asks
    anything of anyone (a question between is what ``asked`` reads). "can't feel my legs after Bath lol" then
    "1:54:20!!! PB by four minutes"; "heute um 14 Uhr mündliche Prüfung in Statik" then, hours later, "BESTANDEN!!!
    1,7 🎉": news whose subject its author said before, in their own words."""
    at = when(rows[i][3])
    if at is None:
        return None
    for j in range(i - 1, -1, -1):
        before = when(rows[j][3])
        if before is None or (at - before).total_seconds() > OWN_HOURS * 3600:
            return None
        if rows[j][1] == rows[i][1]:
            return None if ENDS_ASKING.search(texts[j]) else j
        if ENDS_ASKING.search(texts[j]):
            return None
    return None


def follows_up(j: int, i: int, rows: Sequence[Sequence[object]], texts: Sequence[str], stop: frozenset[str]) -> bool:
    """(brief25) Whether question ``j`` asks after something turn ``i``'s author told or was told of before it: it
    shares a word of 4+ letters (not a stop word, a month or a weekday; a word or its inflection) with an earlier turn
    that author wrote or that names them ("Hannah any news from Leeds General?" after Hannah's "applied for the physio
    job at Leeds General"; "how did the half go??" after "good luck at the Leeds Half today Priya"). An invitation to
    all ("Priya is doing Friendsgiving at her place, who's in?") asks after no one's news: "yes! I'll bring the pie"
    answering it is none."""
    author = str(rows[i][1])
    # (a word so general it names nothing, "place" of "at her place" and "the new place", nor a member's name; an
    # acronym of three letters is a subject: "OAB", "NHS")
    asked = {w.lower() for w in _RARE_WORD.findall(texts[j]) + _acronyms(texts[j])} - stop - _DAYS - GENERIC
    asked -= {w.lower() for r in rows for w in _WORD.findall(str(r[1]))}
    if not asked:
        return False
    named = name_pattern(author)
    for k in range(j):
        if str(rows[k][1]) != author and not named.search(texts[k]):
            continue
        told = {w.lower() for w in _RARE_WORD.findall(texts[k]) + _acronyms(texts[k])} - stop
        if any(a == b or min(len(a), len(b)) >= 5 and (a.startswith(b) or b.startswith(a)) for a in asked for b in told):
            return True
    return False


def _acronyms(text: str) -> list[str]:
    """The words of three letters ``text`` writes in capitals ("OAB", "NHS")."""
    return [w for w in _THREE.findall(text) if w.isupper()]


def _within(earlier: object, later: object) -> bool:
    """Whether ``later`` was written at most REPLY_MINUTES after ``earlier``."""
    a, b = when(earlier), when(later)
    return a is not None and b is not None and (b - a).total_seconds() <= REPLY_MINUTES * 60


def ahead(text: str, written: object, today: date | None = None) -> bool:
    """Whether every day ``text`` names is after the day it was written (a plan: "escritura dia 30"), and not before
    ``today`` (the brief's day: "sábado 17 a las 14:00", said on the 12th, has gone by on the 28th), or it names none;
    not a turn stamped with its own day ("[6:46 pm on 23 July, 2023] Gina: Remember Jon, Just do it!": a transcript's
    every turn), nor one that tells of a day gone by. (brief25) A plan placed by its month alone is ahead until its
    month has gone by ("we move in April", written in February, is no news in June: memengine/brief_months.py)."""
    if not brief_dates.says_a_date(text):
        at = when(written)
        return brief_months.gone(text, at.date() if at else None, today) is None
    at = when(written)
    if at is None:
        return False
    days = brief_dates.named_days(text, at.date())
    return bool(days) and all(d > at.date() and (today is None or d >= today) for d in days)


def moved_later(i: int, texts: Sequence[str], stop: frozenset[str], skip: set[str], shown: str | None = None) -> bool:
    """Whether turn ``i`` dates a plan that a later turn (index > i) names a day for again, sharing a word of 4+ letters
    with it (not a stop word of the chat's language, a month, a weekday, nor the words of ``skip``: the members'
    names): moved since ("viajo dia 20 para Londres" ... "mudaram a entrevista em Londres, afinal só vou dia 26"), or
    restated. A plan placed by its month alone counts when a later turn names another month ("nos mudamos en abril"
    ... "cambio: al final la mudanza es en mayo"); there the shared word may be another form of one stem ("mudamos" /
    "mudanza") when another word of the later turn tells a change (memengine/fact_change_words.py: "cambio", "al
    final", "moved", "verschoben")."""
    said = texts[i] if shown is None else shown  # (what the quote shows of it, trimmed; the later turns whole)
    dated = brief_dates.says_a_date(said)
    months = set() if dated else brief_dates.months_named(said)
    if not dated and not months:
        return False
    words = {w.lower() for w in _RARE_WORD.findall(said)} - _CALENDAR - skip - stop
    if not words:
        return False
    for t in texts[i + 1:]:
        # (a plan placed by its month alone is moved by another month: "Kofi starts at Siemens in January and can only
        # take holidays in August" restates "start in January")
        if dated and not brief_dates.says_a_date(t) or not dated and _restates(months, brief_dates.months_named(t)):
            continue
        later = {w.lower() for w in _RARE_WORD.findall(t)} - _CALENDAR - skip - stop
        # (a word or its inflection: "Avslutningsmiddag fredag 4 december" ... "avslutningsmiddagen blir lördag 5
        # december")
        if any(a == b or min(len(a), len(b)) >= 5 and (a.startswith(b) or b.startswith(a))
               for a in words for b in later):
            return True
        stems = {b for b in later for a in words if min(len(a), len(b)) >= 5 and a[:_STEM] == b[:_STEM]}
        # (the change told by another word than the shared one: "mudanza" is itself a change word)
        if stems and any(fact_change_words.change_words(said, " ".join(
                w for w in _WORD.findall(t) if w.lower() not in stems))):
            return True
    return False


_STEM = 4  # ("mudamos" / "mudanza", "verschieben" / "verschoben": one stem, told changed)


def _restates(months: set[int], later: set[int]) -> bool:
    """Whether a later turn names no month, or every month a plan was placed in (it names no other for it)."""
    return not later or months <= later
