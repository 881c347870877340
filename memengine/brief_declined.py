"""(brief33) A day proposed in a chat, turned down by another member and replaced by another day, is no plan.

Chats settle a date in a few turns: "gig? Fontaines at the academy, fri 12th june" — "cant do fri 12th, its my uncle
ray's 60th" — "theres a second night sat 13th"; "quiz night: shall we do Thursday 22 October?" — "can't do the 22nd"
— "Thursday 29 October then?"; "Kaş'a gidelim mi? 5 Haziran Cuma çıkarız" — "5 Haziran olmaz" — "O zaman 19 Haziran
Cuma?". The turn that turns the day down plans nothing (its day is negated) and the turn that proposes the other day
names no change, so neither ``brief_upcoming._drop_moved`` (a newer PLAN that moves or takes back) nor
``brief_moves`` (a later memory calling the event off, or the plan's own author not going) dropped the first day:
Coming up showed the declined day (held-out 24's quiz, held-out 25's gig and party).

Here, for each plan of a chat (a turn with an author), the next turns of its chat are read: when a turn by ANOTHER
author, at most REPLY_TURNS turns and REPLY_HOURS after it and before the day, turns down one of its days (a clause
with a word of refusal that names the day: brief_dates' negation, "can't do the 22nd", "cant do fri 12th", or one of
:data:`_REFUSAL_AFTER` said after the day as Turkish does, "5 Haziran olmaz"; or a day refused by its number,
``brief_upcoming.refused_days``) and a turn after that one, at most OTHER_TURNS turns on, names another day ahead,
the day turned down leaves the plan (the plan leaves Coming up when it has no day left). A member who can't come to a
plan that no one moves ("I can't do the 14th, have fun!") leaves it as it is: the others go.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from memengine import brief_asked, brief_dates, brief_upcoming, timekind
from memengine.brief_pool import Store

DECLINED = True  # the switch (off: the base brief)
ASKED = 40  # the soonest plans looked at (Coming up shows a few)
REPLY_TURNS = 8  # a turn turning a day down answers the plan: at most this many turns after it...
REPLY_HOURS = 48  # ...and this many hours
OTHER_TURNS = 6  # the other day is named at most this many turns after the refusal
# a word of refusal said AFTER the day, as Turkish says it ("5 Haziran olmaz", "Cuma bana uymuyor", "o gün
# gelemem"); the languages that say it before the day are brief_dates' negation
_REFUSAL_AFTER = re.compile(r"(?<![^\W\d_])(?:olmaz|olmuyor|olamaz|uymaz|uymuyor|gelemem|gelemeyiz|gelemiyorum|"
                            r"yapamam|yapamayız|yapamıyorum|müsait\s+değil\w*)(?![^\W\d_])", re.IGNORECASE)
_CLAUSES = re.compile(r"(?<!\d)\.|[;!?\n,]|\s[—–-]\s|\b(?:but|and|instead|aber|mais|pero|ama|fakat)\b", re.IGNORECASE)
_REFUSES = re.compile(rf"{brief_dates._NEGATION.pattern}|{_REFUSAL_AFTER.pattern}", re.IGNORECASE)


def settle(store: Store, found: list[Any], days_of: brief_upcoming.PlanDays, now: datetime
           ) -> tuple[list[Any], list[int]]:
    """``found`` (row, first day ahead, days; ``brief_upcoming.plans``) less the days another member turned down
    and someone replaced by another day (the module docstring); and the ids of the plans left with no day."""
    today = timekind.today(now)
    out: list[Any] = []
    gone: list[int] = []
    for n, f in enumerate(found):
        row, days = f[0], list(f[2])
        if n < ASKED and len(row) > 6 and row[6]:
            # (brief34) and a day proposed in a question another member answered no (memengine/brief_asked.py)
            refused = _declined(store, row, days, days_of) | brief_asked.refused(store, row, days, days_of)
            days = [d for d in days if d not in refused]
        ahead = [d for d in days if d >= today]
        if not ahead:
            gone.append(int(row[0]))
            continue
        out.append((row, ahead[0], days) if len(days) != len(f[2]) else f)
    out.sort(key=lambda f: (f[1], -int(f[0][0])))
    return out, gone


def _declined(store: Store, row: Any, days: list[date], days_of: brief_upcoming.PlanDays) -> set[date]:
    """The days of plan ``row`` a later turn by another author turned down, another day named after that."""
    conn = store.conn
    at = conn.execute("SELECT thread, position FROM memories WHERE id = ?", (int(row[0]),)).fetchone()
    if at is None or at[0] is None or at[1] is None:
        return set()
    written = brief_upcoming._written(str(row[2]))
    if written is None:
        return set()
    try:
        start = datetime.fromisoformat(str(row[2])[:19])
    except ValueError:
        return set()
    after = conn.execute(
        f"""SELECT id, content, {timekind.when_sql('')}, author FROM memories WHERE thread = ? AND position > ?
           AND status != 'deleted' ORDER BY position LIMIT ?""",
        (at[0], at[1], REPLY_TURNS + OTHER_TURNS)).fetchall()
    author = str(row[6]).strip().lower()
    for k, (mid, content, when, who) in enumerate(after[:REPLY_TURNS]):
        try:
            said_at = datetime.fromisoformat(str(when)[:19])
        except ValueError:
            continue
        if said_at - start > timedelta(hours=REPLY_HOURS):
            break
        if who is None or str(who).strip().lower() == author:
            continue
        text = str(content)[:600]
        if not _REFUSES.search(text):
            continue
        day = said_at.date()
        turned = _turned_down(text, day, days, lambda mid=int(mid), day=day: days_of._context(mid, day))
        turned = {d for d in turned if d > day}
        if not turned:
            continue
        for mid2, content2, when2, _who2 in after[k + 1:k + 1 + OTHER_TURNS]:
            other = days_of.of(int(mid2), str(content2), when2)
            if any(d not in turned and d not in days for d in other):
                return turned
    return set()


def _turned_down(text: str, written: date, days: list[date], context: Any) -> set[date]:
    """Of ``days``, those ``text`` turns down: named in a clause with a word of refusal (before the day: brief_dates'
    negation; after it: :data:`_REFUSAL_AFTER`), or refused by their number (``brief_upcoming.refused_days``)."""
    out = set(brief_dates.negated_days(text, written, context)) & set(days)
    refused = brief_upcoming.refused_days(text)
    out |= {d for d in days if (d.day, None) in refused or (d.day, d.month) in refused}
    start = 0
    for end in [m.start() for m in _CLAUSES.finditer(text)] + [len(text)]:
        clause, start = text[start:end], end
        if _REFUSAL_AFTER.search(clause):
            out |= set(brief_dates.named_days(clause, written, context)) & set(days)
    return out
