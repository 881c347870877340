"""(brief34) A plan's move proposed as a question is no move until another member agrees.

"shall we make it the 16th instead?" — "can't move it, the cottage is paid"; "Papà chiede se la festa la spostiamo a
domenica 22?" — "No, il 22 io non ci sono, resta sabato"; "wed 30th then?" — "nope". The question names a day,
so ``brief_upcoming.plans`` took it for a plan; the answer turns it down without naming another day (the old one
stands), so ``brief_declined`` (a day turned down AND replaced) left it in Coming up, where it showed a day nobody
agreed to, over the day that holds.

Here, for a plan of a chat whose day is named in a question that proposes (:data:`_PROPOSES`: "shall we", "how about",
"make it", "facciamo", "spostiamo", "on décale", "sollen wir", "alalım mı"..., or a short question that is mostly the
day: "sun 15th instead?"; not one asking someone whether they come: "are you coming on the 14th?") a MOVE (a word of
change: "move", "push", "instead", "make it", "spostiamo", "verschieben", "erteleyelim"), the replies of the OTHER
members are read, at most REPLY_TURNS turns and REPLY_HOURS on: the first that answers decides. One that starts with a
yes ("ok", "sure", "sounds good", "va bene", "vale", "tamam", "👍") makes the move; one that starts with a refusal
("no", "nope", "can't", "no chance", "non", "nein", "hayır"; not "no worries") leaves the question's days out of
Coming up. No answer in reach keeps them (tests/test_brief18.py: "the 14th is taken, Luca has people over — Saturday
16th instead?" is a move the day's loss makes, not one the others may refuse). A new day proposed (no move) and turned down stays as brief_declined leaves it: a member who
can't come to it is no "no" of the others ("cant do the 14th, have fun without me").
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from memengine import brief_dates, brief_upcoming, timekind
from memengine.brief_pool import Store

ASKED = True  # the switch (off: the base brief)
REPLY_TURNS = 6  # the answer is at most this many turns after the question...
REPLY_HOURS = 48  # ...and this many hours
SHORT_WORDS = 7  # a question of at most this many words that names a day proposes it ("wed 30th then?")

_B = r"(?<![^\W\d_])"  # a word starts here (no letter before)
_E = r"(?![^\W\d_])"  # a word ends here
_PROPOSES = re.compile(
    _B + r"(?:shall\s+we|should\s+we|how\s+about|what\s+about|why\s+don['’]?t\s+we|can\s+we|could\s+we|let['’]?s|"
    r"make\s+it|move\s+it|push\s+it|push|instead|"
    r"facciamo|spostiamo|possiamo|che\s+ne\s+dite|che\s+ne\s+dici|ci\s+vediamo|"
    r"hacemos|quedamos|movemos|cambiamos|qu[ée]\s+tal|podemos|"
    r"on\s+fait|on\s+se\s+voit|on\s+d[ée]cale|et\s+si\s+on|ça\s+vous\s+dit|"
    r"sollen\s+wir|wollen\s+wir|machen\s+wir|verschieben|wie\s+w[äa]re|k[öo]nnen\s+wir|"
    r"fazemos|mudamos|que\s+tal|bora|"
    r"zrobimy|przesuniemy|mo[żz]e|"
    r"\w+(?:al[ıi]m|elim)\s+m[ıi])" + _E, re.IGNORECASE)
# a word of change: the question proposes to move a plan, which no one agreeing leaves where it was
_MOVES = re.compile(_B + r"(?:move|moving|push|instead|make\s+it|postpone|reschedule|bring\s+forward|"
                    r"spost\w+|rimand\w+|anticip\w+|mover|movemos|cambiar|cambiamos|aplazar|posponer|"
                    r"d[ée]caler|d[ée]cale|reporter|verschieb\w*|verlegen|adiar|mudar|przesun\w*|"
                    r"ertele\w*|al[ıi]m|alal[ıi]m)" + _E, re.IGNORECASE)
# asking whether someone comes is no proposal ("are you coming on the 14th?", "can you make the 14th?")
_ASKS_SOMEONE = re.compile(_B + r"(?:are\s+you|r\s+u|will\s+you|can\s+you|could\s+you|do\s+you|you\s+coming|"
                           r"vieni|venite|vienes|venís|viens|venez|kommst\s+du|kommt\s+ihr|vens|vem|vêm)" + _E,
                           re.IGNORECASE)
_REFUSAL = re.compile(r"^\W*(?:no(?!\s+(?:worries|problem|prob|probs|biggie|sweat|rush|stress))|nope|nah|"
                      r"can['’]?t|cannot|not\s+(?:that|the)|no\s+chance|no\s+way|non|nein|n[ãa]o|nee|hay[ıi]r|nie|"
                      r"olmaz|negative|impossible|impossibile|imposible|unm[öo]glich)" + _E, re.IGNORECASE)
_YES = re.compile(r"^\W*(?:yes|yeah|yep|yup|ya|sure|ok|okay|k|fine|deal|done|perfect|great|cool|sounds\s+good|"
                  r"works|agreed|s[iì]|s[íi]|va\s+bene|d['’]accordo|certo|vale|claro|perfecto|oui|d['’]accord|"
                  r"ça\s+marche|ja|gerne|passt|klar|sim|beleza|combinado|evet|tamam|olur|tak|dobra|jasne|"
                  r"👍|👌)" + _E, re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?\n]*[.!?\n]?")


def refused(store: Store, row: Any, days: list[date], days_of: brief_upcoming.PlanDays) -> set[date]:
    """The days of plan ``row`` (id, text, written, ..., author at 6) proposed in a question that another member
    answered no, or that proposed a move no one agreed to (the module docstring)."""
    if not ASKED or len(row) <= 6 or not row[6] or "?" not in str(row[1]):
        return set()
    text = str(row[1])[:600]
    written_at = brief_upcoming._written(str(row[2]))
    if written_at is None:
        return set()
    try:
        start = datetime.fromisoformat(str(row[2])[:19])
    except ValueError:
        return set()
    mid = int(row[0])
    asked: set[date] = set()
    moves = False
    for m in _SENTENCES.finditer(text):
        sentence = m.group(0)
        if not sentence.rstrip().endswith("?") or _ASKS_SOMEONE.search(sentence):
            continue
        if not (_PROPOSES.search(sentence) or len(sentence.split()) <= SHORT_WORDS):
            continue
        named = set(brief_dates.named_days(sentence, written_at, lambda: days_of._context(mid, written_at))) \
            & set(days)
        asked |= named
        moves = moves or bool(named and _MOVES.search(sentence))
    if not asked or not moves:
        return set()  # (a new day proposed and turned down stands until another is named: brief_declined)
    # (unanswered: kept, as before; "the 14th is taken — Saturday 16th instead?" moves a day it says is gone)
    return asked if _answer(store, mid, str(row[6]), start) is False else set()


def _answer(store: Store, mid: int, author: str, start: datetime) -> bool | None:
    """True when another member's first answer to turn ``mid`` says yes, False when it says no, None when no reply
    in reach answers."""
    conn = store.conn
    at = conn.execute("SELECT thread, position FROM memories WHERE id = ?", (mid,)).fetchone()
    if at is None or at[0] is None or at[1] is None:
        return None
    after = conn.execute(
        f"""SELECT content, {timekind.when_sql('')}, author FROM memories WHERE thread = ? AND position > ?
           AND status != 'deleted' ORDER BY position LIMIT ?""", (at[0], at[1], REPLY_TURNS)).fetchall()
    who_asked = author.strip().lower()
    for content, when, who in after:
        try:
            if datetime.fromisoformat(str(when)[:19]) - start > timedelta(hours=REPLY_HOURS):
                break
        except ValueError:
            continue
        if who is None or str(who).strip().lower() == who_asked:
            continue
        said = str(content)
        if said.lower().startswith(str(who).strip().lower() + ":"):
            said = said[len(str(who).strip()) + 1:]  # (a chat turn is stored "Name: text")
        if _REFUSAL.search(said):
            return False
        if _YES.search(said):
            return True
    return None
