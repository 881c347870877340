"""The brief's "Coming up" section: live memories that plan a day still ahead, soonest first.

A plan is a memory whose text names a day after the day it was written (memengine/brief_dates.py:
"Booked the dentist for 3 December", written 9 November), or a note (not a chat turn) stored ahead
of its own date, a day still to come (``mem.py store ... --at "3 December"``). Candidates are the memories dated in the last
LOOKBACK_DAYS (and any dated ahead), read by the event-date index, plus the newest rows by id
(undated ones carry their storage time): a bounded read at any store size. Of two close plans of
one chat or source (cosine >= MOVED_COS) where the newer says it changed ("moved", "postponed",
"instead", in the fact rules' five languages), only the newer is shown: "dinner on Saturday 19
December" then "dinner moved to Sunday 20 December" is one plan, moved; the same plan said again
(the same day, cosine >= RESTATED_COS) is one too. Other close plans stay ("dentist on 3 December",
"dentist on 10 January"). A later turn of the chat that calls a plan's day unavailable ("they double booked June
11, they're offering June 18", "el 14 está completo, nos dan el 16") or its event off ("Notar hat abgesagt, neuer
Termin 10.12.") and plans another day replaces it too, with no word of change (round 18: ``unavailable_days``).
"""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

from memengine import brief_dates, brief_months, brief_thingmonth, timekind
from memengine.brief_pool import FADED, Store, similarities
from memengine.timeparse import to_iso

LOOKBACK_DAYS = 180  # plans written this long ago may still be ahead
SCAN_MAX = 3000  # memories read by date (and again by id), at most
MOVED_COS = 0.6  # two plans of one chat this close, the newer saying it changed: it moved the older
RESTATED_COS = 0.85  # ...or naming the same day this close: the same plan said again
FOUND_MAX = 200  # plans looked at, soonest first
CONTEXT_TURNS = 40  # a day named by its number alone is placed by this many earlier turns of its chat...
CONTEXT_DAYS = 45  # ...written at most this many days before it (memengine/brief_dates.py, _placed)
THING_TURNS = 200  # (brief35) the thing a bare day is about, this many turns back (brief_thingmonth)
EVENT_SHARE = 0.1  # a word in at most this share of the plans looked at (or EVENT_MIN) names an event
EVENT_MIN = 3  # (round 10: 2 before; a plan proposed, confirmed and moved is said three times: "Kroen" of all three)
ANSWERING = frozenset(("assistant", "ai", "bot", "system"))  # the roles that answer, in a conversation export
_WORD = re.compile(r"[^\W_]+")
_AUTHOR = re.compile(r"^[^:\n]{1,60}:\s")  # a chat turn's "Name: " prefix
_CAPITALISED = re.compile(r"(?<![^\s(\"“])[A-ZÀ-Þ][^\W\d_A-Z]{2,}")  # "Kroen", "Pelikan" (not "AGM", not "Name:")


def _written(when: str | None) -> date | None:
    try:
        return datetime.fromisoformat(str(when)[:19]).date() if when else None
    except ValueError:
        return None


class PlanDays:
    """The days each memory plans (memengine/brief_dates.py), read once per brief.

    A chat turn that names a day by its number alone ("soundcheck on the 18th") is read with the
    earlier turns of its chat, which may say the month ("... we now play Friday 18 December"):
    one indexed read of CONTEXT_TURNS turns, only for such turns."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cache: dict[int, list[date]] = {}
        self.orders: dict[str, str] | None = None  # thread -> its importer's date order, read at the first "/"
        self.unavailable: dict[int, frozenset[date]] = {}  # (round 18) the days each plan calls unavailable
        self.booked_by: dict[int, str] = {}  # (brief35) the earlier turn whose booking placed a plan's bare day
        self.moved: set[int] = set()  # (brief35) plans moved by a rebooking or an "instead": no one's news (not
        # those the older rules drop: a restated plan may still be its author's news, held-out 17)

    def of(self, mid: int, content: str, when: str | None) -> list[date]:
        """The days memory ``mid`` (``content``, dated ``when``) planned, sorted."""
        got = self.cache.get(mid)
        if got is None:
            written = _written(when)
            text = str(content)[:600]
            if written is None or not brief_dates.maybe_dated(text):
                got = []  # (most chat turns: no digit, no day word)
            else:  # the earlier turns are read only if a day is named by its number alone (once)
                turns = functools.cache(lambda: self._context(mid, written))
                got = brief_dates.plan_days(text, written, turns, self._order(mid) if "/" in text else None)
                if turns.cache_info().currsize and getattr(turns(), "booked_by", None) is not None:
                    self.booked_by[mid] = str(turns().booked_by)  # type: ignore[attr-defined]
                if got and _REFUSAL_MAY.search(text):  # (round 16) "le 12 ne marche pas, vendredi 11 ?" plans the 11th
                    got = _less_refused(got, text, written, lambda: self._context(mid, written))
                if got and _UNAVAILABLE_MAY.search(text):  # (round 18) "el 14 está completo, nos dan el 16": the 16th
                    gone, again = _unavailable(text, written, lambda: self._context(mid, written))
                    self.unavailable[mid] = gone
                    got = [d for d in got if d not in gone or d in again]
            self.cache[mid] = got
        return got

    def _order(self, mid: int) -> str | None:
        """The numeric date order ("dmy" / "mdy") memory ``mid``'s importer recorded, if any: in its metadata, or
        for its chat (one ``_mem_meta`` row per chat, ``date_order:<thread>``, written by memengine/ingest.py and
        read once per brief). A slash date ("3/12") is read only with it (or with a part > 12)."""
        conn = self.store.conn
        row = conn.execute("SELECT json_extract(metadata, '$.date_order'), thread FROM memories WHERE id = ?",
                           (mid,)).fetchone()
        if row is None:
            return None
        if row[0] in ("dmy", "mdy", "ymd"):
            return str(row[0])
        if self.orders is None:  # (the key prefix: memengine.ingest.DATE_ORDER_KEY)
            self.orders = {str(k)[len("date_order:"):]: str(v) for k, v in conn.execute(
                "SELECT key, value FROM _mem_meta WHERE key >= 'date_order:' AND key < 'date_order;'")}
        got = self.orders.get(row[1]) if row[1] is not None else None
        # (a year-first chat's kept "ymd" is not passed on: brief_dates would then drop even its "12/20", which a
        # chat written in Japanese or Chinese means as month/day and is read as a day > 12 without an order)
        return got if got in ("dmy", "mdy") else None

    def _context(self, mid: int, written: date) -> list[tuple[str, date]]:
        """The earlier turns of memory ``mid``'s chat, newest first (none for a note); (brief35) with ``further``, what
        reads up to THING_TURNS turns of the last ``brief_thingmonth.THING_DAYS`` (a booking made months ahead)."""
        conn = self.store.conn
        row = conn.execute("SELECT thread, position FROM memories WHERE id = ?", (mid,)).fetchone()
        if row is None or row[0] is None or row[1] is None:
            return []
        out = brief_thingmonth.Turns(self._turns(row[0], row[1], written, CONTEXT_TURNS, CONTEXT_DAYS))
        out.further = functools.cache(lambda: self._turns(row[0], row[1], written, THING_TURNS,
                                                          brief_thingmonth.THING_DAYS))
        return out

    def _turns(self, thread: str, position: int, written: date, limit: int, days: int) -> list[tuple[str, date]]:
        """At most ``limit`` turns of ``thread`` before ``position``, newest first, written at most ``days`` before."""
        out: list[tuple[str, date]] = []
        for content, when in self.store.conn.execute(
                f"""SELECT content, {timekind.when_sql('')} FROM memories WHERE thread = ? AND position < ?
                   AND status != 'deleted' ORDER BY position DESC LIMIT ?""", (thread, position, limit)):
            day = _written(when)
            if day is None or (written - day).days > days:
                break
            out.append((str(content)[:600], day))
        return out

    def note(self, mid: int, content: str, when: str | None, today: date) -> str:
        """What a brief line adds about its plan: `` (→ day, in N days)``, `` (day: past)`` or ""; (brief25) for a plan
        placed by its month alone whose month has gone by, `` (2026-04: past)`` (memengine/brief_months.py)."""
        days = self.of(mid, content, when)
        if days:
            return brief_dates.when_note(days, today)
        return brief_months.note(content[:600], _written(when), today)


def plans(store: Store, now: datetime, days_of: PlanDays | None = None
          ) -> tuple[list[tuple[Any, date, list[date]]], list[int]]:
    """(row, first day from today, planned days) of the live plans ahead of ``now``, soonest first,
    and the ids of those a newer plan moved or restates (left out).

    ``row`` is (id, content, date, source, chat key, dated ahead, author). Ties by date go to the newer memory.
    """
    today = timekind.today(now)
    days_of = days_of or PlanDays(store)
    since = to_iso(now - timedelta(days=LOOKBACK_DAYS))
    cols = (f"m.id, m.content, {timekind.when_sql('m')}, m.source, m.source || '/' || coalesce(m.thread, ''), "
            "m.thread IS NULL AND m.event_at > m.created_at, m.author")
    # (brief27) a plan the nightly decay archived is still ahead: FADED, not LIVE (the unary +: the date / id index,
    # not the status one)
    live = FADED
    rows = store.conn.execute(f"""SELECT {cols} FROM memories m WHERE m.event_at >= ? AND {live}
                                  AND m.source != 'vcf' ORDER BY m.event_at DESC LIMIT ?""",
                              (since, SCAN_MAX)).fetchall()
    rows += store.conn.execute(f"""SELECT {cols} FROM memories m WHERE m.event_at IS NULL AND m.created_at >= ?
                                   AND {live} AND m.source != 'vcf' ORDER BY m.id DESC LIMIT ?""",
                               (since, SCAN_MAX)).fetchall()
    found: list[tuple[Any, date, list[date]]] = []
    for r in rows:
        written = _written(r[2])
        if written is None:
            continue
        days = days_of.of(int(r[0]), str(r[1]), r[2])
        if r[5] and written > today:  # a note dated ahead (stored --at a day to come), not a chat turn
            days = sorted({written, *days})
        ahead = [d for d in days if d >= today]
        if ahead:
            found.append((r, ahead[0], days))
    return _drop_moved(store, found, days_of)


def _drop_moved(store: Store, found: list[tuple[Any, date, list[date]]], days_of: PlanDays | None = None
                ) -> tuple[list[tuple[Any, date, list[date]]], list[int]]:
    """The plans less those a newer close plan of the same chat restates or moves, soonest first;
    and the ids of those left out.

    Only the FOUND_MAX soonest are looked at (the section shows a few): a bounded cost at any size.
    """
    found.sort(key=lambda f: (f[1], -int(f[0][0])))
    found = found[:FOUND_MAX]
    if len(found) > 1:
        sim = similarities(store, [int(f[0][0]) for f in found])
        age = np.array(_ranks([(str(f[0][2]), int(f[0][0])) for f in found]))
        chat = np.array([str(f[0][4]) for f in found])
        day = np.array([f[1].toordinal() for f in found])
        cue = np.array([_says_changed(str(f[0][1])) for f in found])
        # i is moved or restated by j: j is newer, of the same chat, close, and says the plan changed
        # ("moved to Sunday 20 December") or names the same day again in nearly the same words
        # ... or, saying it changed, names the same event (a rare word or name of both: "housewarming",
        # "Harbour Bar") before the older one's day had come: "housewarming: Saturday 5 December" then
        # "housewarming is now the 12th instead" are far apart in meaning (short texts, few words)
        newer = (age[None, :] > age[:, None]) & (chat[None, :] == chat[:, None])
        # an assistant's answer moves no plan of the person it answers (round 9: "Good news on the hotel. With
        # slides due on 15 February..." restated a user's moved talk 0.60 apart with a word of change, and "moved" it)
        answer = np.array([str(f[0][6] if len(f[0]) > 6 else "").strip().lower() in ANSWERING for f in found])
        newer &= ~(answer[None, :] & ~answer[:, None])
        written = np.array([(_written(str(f[0][2])) or f[1]).toordinal() for f in found])
        days = [frozenset(f[2]) for f in found]
        other_days = np.array([[days[i] != days[j] for j in range(len(found))] for i in range(len(found))])
        # (round 10) ...at least as close as two plans of the store usually are: a town both name is no event ("hip
        # operation on 10 December at Vejle hospital" / "the party changed to Sunday 22 November, lunch at the
        # brewery in Vejle instead", 0.53 apart where this chat's plans are 0.6 apart on the median)
        off = sim[~np.eye(len(found), dtype=bool)]
        event = _same_event(found, minimum=2) & (day[:, None] >= written[None, :]) & (sim >= float(np.median(off)))
        # "moves from 16 November to ...": what it replaces is a plan of 16 November, no other
        came_from = [_from_days(str(f[0][1]), _written(str(f[0][2])) or f[1]) for f in found]
        replaces = np.array([[not came_from[j] or bool(days[i] & came_from[j]) for j in range(len(found))]
                             for i in range(len(found))])
        # (round 9: a cosine of MOVED_COS alone is no subject: short turns of one chat are that close whatever
        # they say, "the board presentation is Thursday November 19" / "ok. move day is Saturday November 28
        # now" 0.66; below RESTATED_COS the two must name one event too: a rare word of both, "Gasthaus Linde",
        # "dad" of "my dad is having his hip replacement" / "update on dad: surgery moved to 8 December")
        subject = _same_event(found, changed_only=False, min_len=3) | (sim >= RESTATED_COS)
        # (round 10) a newer plan that says the older one's day under a negation took it back ("fireworks: Victoria
        # Park, Thursday 5 November" ... "we're NOT going on the 5th any more, Alexandra Palace Saturday 7 November";
        # "the engineer can't do the 4th, install moved to Wednesday 11 November"), when the two name one subject
        negated = [brief_dates.negated_days(str(f[0][1])[:600], _written(str(f[0][2])) or f[1]) for f in found]
        took_back = np.array([[bool(days[i] & negated[j]) for j in range(len(found))] for i in range(len(found))])
        # (round 16) ...or refuses it by its day and names another, with no word of change, in the languages the
        # brief reads ("Abschiedsparty am 12.12.?" ... "12. geht nicht, machen wir Freitag den 11.?", "el 12 no puedo,
        # ¿el viernes 11?"): the refused day is the older plan's, still ahead when the newer one was written
        refused = [refused_days(str(f[0][1])) for f in found]
        turned_down = np.zeros((len(found), len(found)), dtype=bool)
        for j in (j for j, r in enumerate(refused) if r and days[j]):  # (few turns refuse a day: most briefs none)
            turned_down[:, j] = [any((d.day, None) in refused[j] or (d.day, d.month) in refused[j] for d in days[i]
                                     if d.toordinal() >= written[j] and d not in days[j]) for i in range(len(found))]
        by_newer = newer & ((replaces & (
            ((sim >= MOVED_COS) & ((cue[None, :] & subject) | ((day[None, :] == day[:, None]) & (sim >= RESTATED_COS))))
            | (event & cue[None, :] & other_days))) | (took_back & (subject | cue[None, :])) | (turned_down & other_days))
        by_newer |= newer & _replaced_unsaid(found, days, written, subject, days_of)
        ours = np.zeros_like(by_newer)  # (brief35) the moves of the two rules below: no one's news either
        if days_of is not None and days_of.booked_by:  # (brief35) "tap changed the flight to the 15th" moves the
            ours |= newer & _rebooked(found, days, cue, days_of.booked_by)  # booking that gave the 15th its month
        # (brief35) "... instead" moves the one plan of its exchange whose day is nearest its own, if no rule above
        # paired it ("the 14th is taken, Luca has people over — Saturday 16th instead?" moves the dinner, not the plumber)
        instead = newer & replaces & other_days & _instead_nearby(found, written)
        for said in np.nonzero(instead.any(axis=0) & ~by_newer.any(axis=0) & ~ours.any(axis=0))[0]:
            olds = np.nonzero(instead[:, said])[0]
            dist = np.abs(day[olds] - day[said])
            if (dist == dist.min()).sum() == 1:
                ours[olds[dist.argmin()], said] = True
        by_newer |= ours
        # (round 10) one change moves one plan: of the older plans a newer one would move, only those of the day
        # nearest its own ("Spårvägen moved the match: now Sunday 22 November" moves the league match of the 21st,
        # not the cup's "first match" on 12 December, which names "match" too)
        for col in np.nonzero(by_newer.sum(axis=0) > 1)[0]:
            olds = np.nonzero(by_newer[:, col])[0]
            dist = np.abs(day[olds] - day[col])
            by_newer[olds[dist > dist.min()], col] = False
        # (lead, session 7) ...or says it again in other words the same day: one line, the newer (its days stay its own)
        restated = _restated(found, newer & ~by_newer & ~by_newer.T, sim, day, written, cue, subject)
        gone = by_newer.any(axis=1) | restated.any(axis=1)
        kept: list[tuple[Any, date, list[date]]] = []
        for j, f in enumerate(found):
            if gone[j]:
                continue
            # the days of the plans it moved are the old days it names ("moved to Sunday 20 December,
            # The Crown can't do drinks on the 19th anyway"): its own is what is left
            old = set().union(*(days[i] for i in np.nonzero(by_newer[:, j])[0]))
            left = [d for d in f[2] if d not in old]
            ahead = [d for d in left if d >= f[1]]
            kept.append((f[0], ahead[0], left) if old and ahead else f)
        kept.sort(key=lambda f: (f[1], -int(f[0][0])))
        if days_of is not None:
            days_of.moved.update(int(f[0][0]) for f, g in zip(found, ours.any(axis=1)) if g)
        return kept, [int(f[0][0]) for f, g in zip(found, gone) if g]
    return found, []


RESTATED_DAYS = 1  # two plans of one day written this many days apart at most: one conversation about it


def _restated(found: list[tuple[Any, date, list[date]]], newer: Any, sim: Any, day: Any, written: Any, cue: Any,
              subject: Any) -> Any:
    """(n, n) bool: plan i is said again by plan j (i left out, j shown). Of two plans of one chat (``newer``:
    j the newer) that plan the same first day, written at most RESTATED_DAYS apart, the newer saying nothing
    changed: one that names nothing but its day ("ok June 18 then": no event word of its own) goes, the other
    stays; else the older goes when the two name one event (``subject``: a rare word of both), are closer than
    this store's plans usually are (the median cosine of the pairs) and neither names a thing by name the other
    does not ("Luca's match Saturday 14th" / "lunch at Nonna's Saturday 14th" stay two).

    Lead, session 7: a wedding moved to June 18 was said three times in one day ("they're offering June 18",
    "ok June 18 then", "the barn confirmed Friday June 18 in writing"), 0.28-0.49 apart, and Coming up showed
    all three; RESTATED_COS (0.85) folds only a plan said in nearly the same words. Closeness alone was tried
    and is no evidence: held-out sets had "Mum wants everyone at her house on the 25th" folded into "I'm with
    Marco's family on the 25th", a band's moved gig into "soundcheck on the 18th at 6", and "Far fylder 70 den
    14. november" into the party planned that day (then moved, taking the birthday with it)."""
    from memengine import summarize, topic_names

    n = len(found)
    out = np.zeros((n, n), dtype=bool)
    same = newer & (day[None, :] == day[:, None]) & (np.abs(written[None, :] - written[:, None]) <= RESTATED_DAYS) \
        & ~cue[None, :]
    if not same.any():  # (most briefs: no two plans of one day written together)
        return out
    close = sim >= float(np.median(sim[~np.eye(n, dtype=bool)]))
    bodies = [_AUTHOR.sub("", str(f[0][1])[:600], count=1) for f in found]
    stop = summarize.stopwords_for(bodies)
    # (a day's ordinal, "25th", "14.", is the day both plan, not an event both name)
    words = [{w for w in event_words(str(f[0][1]), stop=stop) if not w[0].isdigit()} for f in found]
    names = [{topic_names.fold(w) for w in _CAPITALISED.findall(body)} & ws for body, ws in zip(bodies, words)]
    for i, j in zip(*np.nonzero(same)):
        if not words[j] and words[i]:
            out[j, i] = True  # the newer only says the day again: the older, which names the event, stays
            continue
        own_names = bool(names[i] - names[j]) and bool(names[j] - names[i])
        if not words[i] or (subject[i, j] and words[i] & words[j] and close[i, j] and not own_names):
            out[i, j] = True
    return out


# Round 18: a plan replaced with no word of change: a later turn of its chat calls its day unavailable ("they double
# booked June 11, they're offering June 18", "the 14th is taken", "el 14 está completo, nos dan el 16", "am 14. ist
# alles ausgebucht") or calls its event off ("Notar hat abgesagt, neuer Termin 10.12."), and plans another day. A
# word that says so whatever stands around it (``_UNAVAILABLE``) names the days of its clause; a word that also says
# other things ("taken", "full", "pris", "voll": "I've taken June 11 off", "a full day") only a day right before it
# ("the 14th is taken", "June 11 is full"). Words of the languages brief_dates reads, folded as written.
_UNAVAILABLE = (r"double[\s-]booked|fully\s+booked|booked\s+up|sold\s+out|cancell?ed|called\s+off|unavailable|"
                r"(?:is|are|am|will\s+be)\s+away|"  # (brief29) "(Priyanka is away on 30 April)"
                r"ausgebucht|abgesagt|storniert|ausgefallen|f[äa]llt\s+aus|"
                r"cancelad[oa]|anulad[oa]|suspendid[oa]|ocupad[oa]|lotad[oa]|esgotad[oa]|annul[ée]e?s?|"
                r"annullat[oa]|cancellat[oa]|occupat[oa]|"
                r"volgeboekt|afgezegd|geannuleerd|afgelast|bezet|"
                r"fullbokat|fullbokad|fullbooket|fullbooka|inst[äa]llt|inst[äa]lld|aflyst|avlyst|optaget|opptatt")
# ("complet" / "completo" / "belegt" say a file complete, a sandwich filled: "envoie le dossier complet le 14")
_UNAVAILABLE_AFTER = (r"taken|full|pris|prise|voll|vol|llen[oa]|pien[oa]|occup[ée]e?|fuld|fullt|belegt|besetzt|"
                      r"completo|completa|al\s+completo|complet|compl[èe]te")
_UNAVAILABLE_MAY = re.compile(rf"(?<![^\W\d_])(?:{_UNAVAILABLE}|{_UNAVAILABLE_AFTER})(?![^\W\d_])", re.IGNORECASE)
_UNAVAILABLE_ANY = re.compile(rf"(?<![^\W\d_])(?:{_UNAVAILABLE})(?![^\W\d_])", re.IGNORECASE)
# ...called off: the event, whatever day its clause names or not ("Notar hat abgesagt")
_CALLED_OFF = re.compile(r"(?<![^\W\d_])(?:cancell?ed|called\s+off|abgesagt|storniert|ausgefallen|f[äa]llt\s+aus|"
                         r"cancelad[oa]|anulad[oa]|suspendid[oa]|annul[ée]e?s?|annullat[oa]|cancellat[oa]|afgezegd|"
                         r"geannuleerd|afgelast|inst[äa]llt|inst[äa]lld|aflyst|avlyst)(?![^\W\d_])", re.IGNORECASE)
_UNAVAILABLE_CLAUSE = re.compile(r"[,;:!?()\[\]\n—–]+|(?<=[^\W\d_])\.(?=\s|$)|\s-\s|"
                                 r"\b(?:but|aber|pero|mais|ma|mas|maar|men|instead|"
                                 # (brief29) a reason's clause: "moved to Saturday 27 June because the coach firm
                                 # double-booked the 20th" calls only the 20th unavailable
                                 r"because|weil|porque|parce\s+que|perché|omdat|fordi|eftersom|ponieważ)\b",
                                 re.IGNORECASE)
_UNAVAILABLE_NOT = re.compile(r"\b(?:not|isn['’]t|wasn['’]t|aren['’]t|nicht|kein|no|pas|non|não|nao|niet|geen|ikke|inte|"
                              r"nie|never)\s+(?:\S+\s+)?$", re.IGNORECASE)
# a recurring plan: one of its days refused is no new plan for the series ("choir every Thursday, next one the 14th")
_RECURRING = re.compile(r"\b(?:every|each|weekly|monthly|jede[nrs]?|wöchentlich|monatlich|chaque|tous\s+les|toutes\s+les|"
                        r"cada|todos\s+los|todas\s+las|ogni|tutti\s+i|elke|iedere|wekelijks|varje|hver|hvert)\b",
                        re.IGNORECASE)
AFTER_WORDS = 4  # a word of ``_UNAVAILABLE_AFTER`` names a day at most this many words before it


def _unavailable(text: str, written: date, context: Any = ()) -> tuple[frozenset[date], frozenset[date]]:
    """The days ``text`` calls unavailable, and the days it names in its other clauses (said again, plainly)."""
    text = text[:600]
    if not _UNAVAILABLE_MAY.search(text):
        return frozenset(), frozenset()
    gone: set[date] = set()
    plain: list[str] = []
    start = 0
    for end in _clause_ends(text):
        clause, start = text[start:end], end
        said: list[date] = []
        meant = False
        for m in _UNAVAILABLE_MAY.finditer(clause):
            if _UNAVAILABLE_NOT.search(clause[:m.start()]):  # "isn't full", "no está completo"
                continue
            if _UNAVAILABLE_ANY.fullmatch(m.group()):
                meant = True  # (not "taken" / "full": "I've taken June 11 off" calls no day unavailable)
                said += brief_dates.named_days(clause, written, context)
            else:  # "the 14th is taken": the day right before the word
                before = clause[:m.start()].split()[-AFTER_WORDS:]
                said += brief_dates.named_days(" ".join(before), written, context)
        if meant and not said:  # (brief29) "... because the coach firm double-booked the 20th": a day the clause
            nums = {int(n) for n in _DAY_NUMBER.findall(clause)}  # names by its number, placed by the whole text
            said = [d for d in brief_dates.named_days(text, written, context) if d.day in nums] if nums else []
        if said:
            gone.update(said)
        else:
            plain.append(clause)
    again = brief_dates.named_days(" , ".join(plain), written, context) if gone else []
    return frozenset(gone), frozenset(again)


_DAY_NUMBER = re.compile(r"(?<![\d.,:])(\d{1,2})(?:st|nd|rd|th|er|e|º|ª|\.)?(?![\d,:])")
# a full stop after a day's number, and the word after it (:func:`_clause_ends`)
_DIGIT_STOP = re.compile(r"\d\.\s+(?P<w>[^\W\d_][^\W\d_'’]*)(?=[\s'’,.!?]|$)")


def _clause_ends(text: str) -> list[int]:
    """Where ``text``'s clauses end for :func:`_unavailable`: ``_UNAVAILABLE_CLAUSE``, and a full stop after a day's
    number when a capitalised word that is no month follows ("double booked June 11. They're offering June 18" is two
    sentences; "am 14. Dezember" and "12.12." stay one): else a refusal's "anywhere" word refuses the next sentence's
    day too (lead, found on an unseen chat)."""
    ends = {m.start() for m in _UNAVAILABLE_CLAUSE.finditer(text)}
    ends.update(m.start() + 1 for m in _DIGIT_STOP.finditer(text) if m.group("w")[0].isupper()
                and m.group("w").lower() not in brief_dates.MONTH_OF)
    return [*sorted(ends), len(text)]


def unavailable_days(text: str, written: date, context: Any = ()) -> set[date]:
    """The days ``text`` (written on ``written``) calls unavailable ("they double booked June 11", "the 14th is
    taken", "el 14 está completo", "am 14. ist alles ausgebucht") and does not plan again in another clause."""
    gone, again = _unavailable(text, written, context)
    return set(gone - again)


EXCHANGE_TURNS = 4  # (brief35) "... instead" moves a plan this many memories before it, written the same day
_INSTEAD = re.compile(r"\b(?:instead|invece|stattdessen|plutôt|à\s+la\s+place|en\s+su\s+lugar|en\s+vez|em\s+vez|"
                      r"in\s+plaats\s+daarvan|istället|i\s+stället|i\s+stedet)\b", re.IGNORECASE)


def _instead_nearby(found: list[tuple[Any, date, list[date]]], written: Any) -> Any:
    """(n, n) bool (brief35): plan j says "instead" and plan i was said in the same exchange, at most EXCHANGE_TURNS
    memories before it on the same day ("cava moved us, its now 4-5 july" / "i'm at a wedding on the 4th" / "asked
    them, we got 11-12 july instead"): the other day is instead of i's, whatever words they share. Of several, the
    caller takes the one of the day nearest j's (none on a tie)."""
    n = len(found)
    out = np.zeros((n, n), dtype=bool)
    ids = [int(f[0][0]) for f in found]
    for j, f in enumerate(found):
        if not _INSTEAD.search(str(f[0][1])[:600]):
            continue
        for i in range(n):
            out[i, j] = 0 < ids[j] - ids[i] <= EXCHANGE_TURNS and written[i] == written[j]
    return out


def _rebooked(found: list[tuple[Any, date, list[date]]], days: list[frozenset[date]], cue: Any,
              booked_by: dict[int, str]) -> Any:
    """(n, n) bool (brief35): plan i moved by plan j, which says a change and whose day by its number alone took its
    month from i's booking (brief_thingmonth: "tap from gatwick, 14 june" ... "tap changed the flight to the 15th")."""
    n = len(found)
    out = np.zeros((n, n), dtype=bool)
    texts = [str(f[0][1])[:600] for f in found]
    for j, f in enumerate(found):
        source = booked_by.get(int(f[0][0]))
        if source is None or not cue[j]:
            continue
        for i in range(n):
            out[i, j] = i != j and texts[i] == source and days[i] != days[j]
    return out


def _replaced_unsaid(found: list[tuple[Any, date, list[date]]], days: list[frozenset[date]], written: Any,
                     subject: Any, days_of: PlanDays | None) -> Any:
    """(n, n) bool (round 18): plan i replaced by plan j with no word of change: j calls i's day unavailable, or
    calls i's event off (a rare word of both: ``subject``), while i's day was still ahead; and j plans another day.
    A recurring plan is no such plan. Of the plans of one day j refuses, those naming its event when some do (the
    plumber and Luca's dinner both on the 14th: "the 14th is taken, Luca has people over" moves the dinner)."""
    n = len(found)
    out = np.zeros((n, n), dtype=bool)
    texts = [str(f[0][1])[:600] for f in found]
    for j in range(n):
        if not days[j] or not _UNAVAILABLE_MAY.search(texts[j]):  # (few turns say so: most briefs none)
            continue
        mid = int(found[j][0][0])
        gone = days_of.unavailable.get(mid, frozenset()) if days_of is not None else \
            frozenset(unavailable_days(texts[j], date.fromordinal(int(written[j]))))
        off = _CALLED_OFF.search(texts[j]) is not None
        for i in range(n):
            if i == j or _RECURRING.search(texts[i]):
                continue
            ahead = {d for d in days[i] if d.toordinal() >= written[j] and d not in days[j]}
            if not ahead or not (days[j] - days[i]):
                continue
            out[i, j] = bool(ahead & gone) or (off and bool(subject[i, j]))
        named = out[:, j] & subject[:, j]
        if named.any():
            out[:, j] = named
    return out


# Round 16: a day refused by its number at the head of a clause, in the languages the brief reads: "12. geht nicht",
# "Der 12. passt mir nicht", "am 12.12. kann ich nicht", "le 12 ne marche pas", "el 12 no puedo", "il 12 non posso",
# "the 12th doesn't work", "den 12. kan jeg ikke". The number needs an ordinal's mark ("12.", "12th", "12e", "12:e")
# or a day's article before it ("le 12", "el 12"): "5 Leute kommen nicht", "12 people can't come" are counts; an
# English ordinal needs its article ("1st one not second one" is no day, found in ../shared's Claude export).
_REFUSED = re.compile(
    r"(?:^|(?<=[.,;:!?¿¡(\n—–]))\s*(?:(?P<art>der|den|am|the|on|le|el|il|dia|o|op\s+de)\s+)?"
    r"(?P<d>[0-3]?\d)(?:(?P<dot>\.)(?:(?P<m>[01]?\d)\.(?:\d{2,4})?)?|(?P<suf>st|nd|rd|th|er|e|º|ª|:e))?"
    r"(?=[\s,])(?P<rest>(?:\s+[^\s,;.!?]+){1,3})", re.IGNORECASE)
_REFUSING = frozenset(("nicht", "not", "cannot", "pas", "no", "non", "não", "nao", "niet", "ikke", "inte", "nie", "kein"))
_NOT_REFUSAL = frozenset(("nur", "only", "just", "seulement", "solo", "solamente", "sólo", "soltanto", "alleen",
                          "bara", "kun", "vergessen", "forget", "oublier", "oubliez", "olvides", "dimenticare"))
_REFUSAL_MAY = re.compile(r"n['’]t\b|\b(?:nicht|not|cannot|pas|no|non|não|nao|niet|ikke|inte|nie|kein)\b", re.IGNORECASE)


def refused_days(text: str) -> set[tuple[int, int | None]]:
    """The days ``text`` refuses by their number at the head of a clause ("12. geht nicht", "le 12 ne marche pas",
    "the 12th doesn't work"), as (day, month or None)."""
    text = text[:600]
    if not _REFUSAL_MAY.search(text):
        return set()
    out: set[tuple[int, int | None]] = set()
    for m in _REFUSED.finditer(text):
        if m.start() and not text[:m.start()].rstrip().endswith(tuple(".,;:!?¿¡(\n—–")):
            continue
        art = (m.group("art") or "").lower()
        marked = m.group("dot") or m.group("suf")
        if not (marked or art in ("le", "el", "il", "dia", "o", "op de")) or (art == "the" and not m.group("suf")) \
                or (not art and (m.group("suf") or "").lower() in ("st", "nd", "rd", "th")):  # ("1st one not second")
            continue
        words = [w.strip("\"'“”():").lower() for w in m.group("rest").split()]
        for k, w in enumerate(words):
            if w in _REFUSING or w.endswith(("n't", "n’t")):
                if k + 1 < len(words) and words[k + 1] in _NOT_REFUSAL:
                    break
                day = int(m.group("d"))
                month = int(m.group("m")) if m.group("m") else None
                if 1 <= day <= 31 and (month is None or 1 <= month <= 12):
                    out.add((day, month))
                break
    return out


def _less_refused(days: list[date], text: str, written: date, context: Any) -> list[date]:
    """``days`` less those ``text`` refuses by their number ("le 12 ne marche pas, on fait vendredi 11 ?") and does
    not name again outside the refusal."""
    refused = refused_days(text)
    if not refused:
        return days
    plain = text
    for m in _REFUSED.finditer(text[:600]):
        if any(int(m.group("d")) == d for d, _ in refused):
            plain = plain[:m.start()] + " " * (m.end() - m.start()) + plain[m.end():]
    again = set(brief_dates.named_days(plain[:600], written, context))
    return [d for d in days if d in again or not ((d.day, None) in refused or (d.day, d.month) in refused)]


# (round 9: no colon: what stands before one names what follows, "called Bluebird: moved to Saturday 28")
_CLAUSE = re.compile(r"[,;.!?()\[\]—–]+|\s-\s|\b(?:because|since|as|but|so)\b", re.IGNORECASE)
_FROM = re.compile(r"\bfrom\s+", re.IGNORECASE)


def _from_days(text: str, written: date) -> frozenset[date]:
    """The days a plan says it moves away from ("moves from 16 November to Monday 30 November")."""
    out: set[date] = set()
    for m in _FROM.finditer(text[:600]):
        snippet = re.split(r"\s(?:to|until|till)\s", text[m.end(): m.end() + 40], maxsplit=1)[0]
        out.update(brief_dates.named_days(snippet, written))
    return frozenset(out)


def event_words(text: str, changed_only: bool = False, min_len: int = 4, stop: frozenset[str] | None = None,
                chat: bool = True) -> set[str]:
    """The words of a plan that may name its event: ``min_len``+ letters or an acronym ("AGM", "MOT"),
    folded, not a stop word, filler, common verb or calendar word (topic_names.WEAK), and not the chat
    turn's "Name:" prefix, nor a word of change itself ("stedet" of "i stedet": round 10). ``stop``: the stop
    words of the plans' language (default English). ``chat`` False: a note, whose text before a first colon is
    no author ("Rolled back from Expo SDK 51 to SDK 50: the maps module crashes").

    ``changed_only``: of a plan that says it changed, only the clauses that say so ("housewarming is now
    the 12th instead, the worktops won't be in before": the housewarming moved, not the worktops, which
    are its cause), when one does."""
    from memengine import summarize, topic_names

    body = _AUTHOR.sub("", text[:600], count=1) if chat else text[:600]
    if changed_only:
        said = [c for c in _CLAUSE.split(body) if c and _says_changed(c)]
        body = " ".join(said) or body
    out = set()
    for w in _WORD.findall(body):
        low = w.lower()
        if (len(low) >= min_len or (len(w) >= 2 and w.isupper())) and not low.isdigit() \
                and low not in (summarize.STOPWORDS if stop is None else stop) and not topic_names.is_filler(low) \
                and not topic_names.weak(w) and low not in brief_dates.MONTH_OF:
            out.add(topic_names.fold(w))
    return out - _change_words()


@functools.lru_cache(maxsize=1)
def _change_words() -> frozenset[str]:
    """The single words of change (the fact lexicon's and ``_MORE_CHANGE``, with the words of the "instead"
    phrases), folded as event_words folds: they say that something changed, not what."""
    from memengine import topic_names
    from memengine.fact_cue_lexicon import CHANGE_NOUNS, CHANGE_VERBS, MOTION_VERBS, NOW_PHRASES

    words = [*CHANGE_VERBS, *MOTION_VERBS, *CHANGE_NOUNS, *(p for p in NOW_PHRASES if " " not in p), *_MORE_CHANGE,
             "stället", "stallet", "stedet", "steden", "plaats", "daarvan", "posto"]
    return frozenset(topic_names.fold(w) for w in words)


def _same_event(found: list[tuple[Any, date, list[date]]], changed_only: bool = True, min_len: int = 4,
                minimum: int = EVENT_MIN) -> Any:
    """(n, n) bool: plan i names the event plan j says changed: a word of i that is in a clause of j
    saying it changed (``event_words``; ``changed_only`` False: anywhere in j), held by at most
    EVENT_SHARE of the plans (and at least two): the event both name, not a word every plan says."""
    from memengine import summarize, topic_names

    # the plans' own language's stop words (round 10: "blir" of two Swedish plans named no event)
    stop = summarize.stopwords_for([_AUTHOR.sub("", str(f[0][1])[:600], count=1) for f in found])
    words = [event_words(str(f[0][1]), min_len=min_len, stop=stop) for f in found]
    changed = [event_words(str(f[0][1]), changed_only=True, min_len=min_len, stop=stop) for f in found] \
        if changed_only else words
    df: dict[str, int] = {}
    for ws in words:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    limit = max(2, int(EVENT_SHARE * len(found)))
    # (round 10) a name (written capitalised) may be said by ``minimum`` plans: a plan proposed, confirmed and moved
    # names its inn three times ("Kroen"); a common noun stays at two ("matchen" of three matches is no one event)
    names = {topic_names.fold(w) for f in found for w in _CAPITALISED.findall(str(f[0][1])[:600])} \
        if minimum > 2 else set()
    name_limit = max(minimum, limit)
    holders: dict[str, list[int]] = {}  # each rare word's plans (at most ``limit``): pairs from them only
    for i, ws in enumerate(words):
        for w in ws:
            if 2 <= df[w] <= (name_limit if w in names else limit):
                holders.setdefault(w, []).append(i)
    out = np.zeros((len(found), len(found)), dtype=bool)
    for w, idx in holders.items():
        newer = [j for j in idx if w in changed[j]]
        if newer:
            out[np.ix_(idx, newer)] = True
    np.fill_diagonal(out, False)
    return out


# Round 10: words of a moved plan in the languages the fact rules' lexicon (memengine/fact_cue_lexicon.py, five
# languages) does not read, folded: Swedish, Danish / Norwegian, Italian, Dutch ("har flyttat", "rykket", "ændret",
# "spostato", "verzet", "uitgesteld"); and their "instead" ("i stället", "i stedet", "invece", "in plaats daarvan").
# Only the brief's moved plans read them (a pair must still name one event: ``_same_event``).
_MORE_CHANGE = frozenset("""
flyttat flyttats flyttades flyttade flyttad flyttas flytta nu ändrat ändrad ändrade ändras uppskjuten uppskjutet framflyttad framflyttat
senarelagd senarelagt tidigarelagd tidigarelagt ombokad ombokat istället
flyttet flyttede flytter rykket rykker ændret ændrede ændres endret endra endres udsat udskudt utsatt utsett
ombooket omlagt istedet istedenfor
spostato spostata spostati spostate spostiamo spostare rinviato rinviata rimandato rimandata anticipato anticipata
cambiato cambiata invece
verzet verplaatst verschoven uitgesteld gewijzigd veranderd omgeboekt
reporté reportée reportés reportées avancé avancée avancés avancées déplacé déplacée déplacés déplacées
przełożona przeniesiony przeniesiona przeniesione przeniesiono przesunięta przełożył przełożyła przełożyli przełożone przełożony przesunął przesunęła przesunięte przesunięty zmieniłam
zmieniłem zmienili zmienione zmieniony zmiana zamiast
ertelendi erteledi ertelediler ertelendik ertelemiş ertelenmiş değişti değiştirdik değiştirdi değiştirildi değişmiş
kaydırdık kaydırdı kaydırıldı oldu yerine
""".split())  # (brief33) Turkish: "nişanı bir hafta erteledi, 20 Haziran Cumartesi oldu" (put off a week; it is now …)
_MORE_INSTEAD = re.compile(r"\bi\s+(?:stället|stallet|stedet|steden)\b|\bin\s+plaats\s+(?:daarvan|van)\b|"
                           r"\bal\s+posto\b", re.IGNORECASE)


def _says_changed(text: str) -> bool:
    """Whether ``text`` holds a word of change (memengine/fact_cue_lexicon.py: "moved", "postponed",
    "instead", "now", "verschoben", "reporté", ...; and ``_MORE_CHANGE``), folded."""
    from memengine.fact_cue_lexicon import CHANGE_NOUNS, CHANGE_VERBS, MOTION_VERBS, NOW_PHRASES
    from memengine.fact_lexicon import fold

    words = {fold(w) for w in _WORD.findall(text[:600])}
    return bool(words & (CHANGE_VERBS | MOTION_VERBS | CHANGE_NOUNS | {p for p in NOW_PHRASES if " " not in p})) \
        or bool(words & _more_change()) or _MORE_INSTEAD.search(text[:600]) is not None


@functools.lru_cache(maxsize=1)
def _more_change() -> frozenset[str]:
    """``_MORE_CHANGE`` folded as the fact rules fold (asked once: the fact lexicon loads only when a plan is read)."""
    from memengine.fact_lexicon import fold

    return frozenset(fold(w) for w in _MORE_CHANGE)


def _ranks(keys: list[tuple[str, int]]) -> list[int]:
    """The rank of each key in sorted order (0 = oldest)."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    out = [0] * len(keys)
    for rank, i in enumerate(order):
        out[i] = rank
    return out


def note(content: str, when: str | None, today: date) -> str:
    """What a brief line adds about its plan: `` (→ day, in N days)``, `` (day: past)`` or ""."""
    written = _written(when)
    if written is None:
        return ""
    return brief_dates.when_note(brief_dates.plan_days(content[:600], written), today)
