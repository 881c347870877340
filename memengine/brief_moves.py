"""Plans a later memory calls off or moves, when that memory is no plan of the same chat (brief28).

``brief_upcoming.plans`` folds a plan into a newer PLAN of its own chat that moved it. Three cases stayed in
"Coming up" with their old place or day (bench/data/brief_heldout21, 6 of 12 moved plans):

* the later memory calls the plan off and plans nothing ("Finley Foods cancelled the 13 May demo", "O show do Djavan
  de 26 de setembro foi cancelado", "se suspende lo de La Pedriza, dan tormentas todo el finde 3-4 de octubre"): the
  days it calls off leave the plan (the plan goes when none is left), and leave the memory itself;
* it moves the place and keeps the day unsaid ("O churrasco do Caio mudou para o salão de festas do prédio, mesmo
  dia"), a memory of the plan's own chat or notes: it is the plan now, on the older plan's days (a note of another
  source changing a rare word of a chat's plan, "the renovation budget went up after the worktop delay", is none);
* it is an agent's NOTE about a plan of an imported chat ("Sommerfest des Vereins verlegt: jetzt am Samstag, 20.
  Juni, in der Gaststätte Zur Linde" after the club's "Sommerfest am Samstag, 13. Juni, im Vereinsheim"): another
  source than the plan's, so no pair of ``_drop_moved``; the older plan's day nearest the new one leaves it.

One subject: a word of both (``brief_upcoming.event_words``, part of the same name: ``brief_outdated._one_name``) that
few of the memories read say (at most ``RARE_SHARE`` of them, or ``RARE_MIN``): "Finley", "churrasco", "Pedriza",
"Sommerfest", not the user's name every note says. The later memory is written after the plan and before its day;
a memory that moves says so (a verb or noun of change, in the clause that names the subject: :func:`_changes`). Bounded: the ASKED soonest
plans, at most SCAN_MAX memories read, each scanned once for the plans' words (one pattern of them all).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from memengine import brief_dates, brief_outdated, brief_upcoming, timekind, topic_people
from memengine.brief_pool import FADED, Store
from memengine.timeparse import to_iso

ASKED = 40  # the soonest plans asked about (Coming up shows a few)
SCAN_MAX = 1000  # memories read (the newest of brief_upcoming.LOOKBACK_DAYS): what a rare word is rare among
RARE_SHARE = 0.1  # a word said by at most this share of the memories read (or RARE_MIN) names one subject
RARE_MIN = 3  # (a plan proposed, confirmed and called off names its event three times)
NEXT_DAYS = 1  # a memory calling a plan off plans nothing this close to the plan's days (the weekend it names)

# called off, in the languages the brief reads: brief_upcoming's words, and the present tense of a chat ("se
# suspende lo de La Pedriza", "entfällt", "is off")
_OFF = re.compile(rf"{brief_upcoming._CALLED_OFF.pattern}|(?<![^\W\d_])(?:se\s+suspende|se\s+cancela|suspended|"
                  r"entf[äa]llt|is\s+off|annulé|annulée|sospes[oa]|gecanceld|"
                  # (brief29) "will not take place" in the brief's languages, and Polish "called off"
                  r"won['’]t\s+take\s+place|will\s+not\s+take\s+place|n['’]aura\s+(?:pas|plus)\s+lieu|"
                  r"findet\s+nicht\s+statt|no\s+tendrá\s+lugar|non\s+(?:si\s+terrà|avrà\s+luogo)|"
                  r"não\s+(?:vai\s+)?acontecer|gaat\s+niet\s+door|nie\s+odbędzie\s+się|"
                  r"odwołan[yaeo]|odwołał[aoy]?|odwołali)(?![^\W\d_])", re.IGNORECASE)

# (brief30) the plan's own author saying they will not go, in the first person ("nie jedziemy 2 lipca", "I can't come
# on 4 July after all", "je n'irai pas"): the plan is off for the one who made it (another member's "I can't do Porto"
# is not: the trip goes on without them, so the author must be the plan's)
_NOT_GOING = re.compile(r"(?<![^\W\d_])(?:i\s+can['’]?t\s+(?:come|make\s+it|go|do)|i\s+won['’]t\s+(?:come|make\s+it|go|be\s+there)|"
                        r"we['’]re\s+not\s+going|we\s+won['’]t\s+(?:go|come|make\s+it)|we\s+can['’]t\s+(?:go|come|make\s+it)|"
                        r"i['’]m\s+not\s+(?:coming|going)|not\s+(?:launching|doing\s+it)|"
                        r"je\s+n['’](?:irai|y\s+vais)\s+pas|on\s+n['’]y\s+va\s+(?:pas|plus)|nous\s+n['’]irons\s+pas|"
                        r"je\s+ne\s+(?:viendrai|peux\s+pas\s+venir)|"
                        r"nie\s+(?:jedziemy|jadę|pojadę|pojedziemy|idę|idziemy|przyjdę|przyjadę|mogę\s+przyjść)|"
                        r"no\s+(?:voy|vamos|puedo\s+ir|iremos)|non\s+(?:vengo|veniamo|vado|andiamo|posso\s+venire)|"
                        r"não\s+(?:vou|vamos|posso\s+ir)|ich\s+(?:komme|fahre|gehe)\s+nicht|wir\s+(?:kommen|fahren|gehen)\s+nicht|"
                        r"ik\s+(?:kom|ga)\s+niet|wij\s+(?:komen|gaan)\s+niet)(?![^\W\d_])", re.IGNORECASE)

Found = tuple[Any, date, list[date]]
_WORD = re.compile(r"[^\W_]+")


def settle(store: Store, found: list[Found], days_of: brief_upcoming.PlanDays, now: datetime
           ) -> tuple[list[Found], list[int]]:
    """``found`` (``brief_upcoming.plans``: row, first day ahead, days) less the days later memories call off or
    move, a plan moved without a day of its own shown as the memory that moved it; and the ids left out."""
    from memengine import summarize

    asked = found[:ASKED]
    if not asked:
        return found, []
    today = timekind.today(now)
    rows = store.conn.execute(
        f"""SELECT m.id, m.content, {timekind.when_sql('m')}, m.source, m.source || '/' || coalesce(m.thread, ''),
                   m.thread IS NULL AND m.event_at > m.created_at, m.author, m.thread IS NULL
            FROM memories m WHERE m.event_at >= ? AND {FADED} AND m.source != 'vcf'
            ORDER BY m.event_at DESC LIMIT ?""",
        (to_iso(now - timedelta(days=brief_upcoming.LOOKBACK_DAYS)), SCAN_MAX)).fetchall()
    texts = [str(f[0][1])[:600] for f in asked]
    stop = summarize.stopwords_for(texts)
    # the plans' words (a note's text before a colon is no author) and, for each, the memories read that say it
    # (brief30) in a language that declines its nouns, a word's forms are one word: its first letters ("Olkiem" planned,
    # "Olek" called it off; memengine/topic_people.py)
    form = topic_people.form if summarize.detect_language(texts) in topic_people.INFLECTED else None
    plan_words = [_formed(brief_upcoming.event_words(t, stop=stop, chat=bool(f[0][4].split("/", 1)[1])), form)
                  for t, f in zip(texts, asked)]
    said = {w for ws in plan_words for w in ws}
    if not said:
        return found, []
    rx = re.compile(r"(?<![^\W\d_])(" + "|".join(map(re.escape, sorted(said, key=lambda w: (-len(w), w)))) + ")",
                    re.IGNORECASE)
    hits = {int(r[0]): {m.group(1).lower() for m in rx.finditer(str(r[1])[:600])} for r in rows}
    df: dict[str, int] = {}
    for hs in hits.values():
        for w in hs:
            df[w] = df.get(w, 0) + 1
    limit = max(RARE_MIN, int(RARE_SHARE * len(rows)))
    plan_ids = {int(f[0][0]): n for n, f in enumerate(found)}
    days = [list(f[2]) for f in found]
    rows_of: list[Any] = [f[0] for f in found]
    gone: set[int] = set()
    later = sorted(rows, key=lambda r: (str(r[2]), int(r[0])))
    for n, f in enumerate(asked):
        pid = int(f[0][0])
        rare = {w for w in plan_words[n] if df.get(w, 0) <= limit}
        own_author = f[0][6] if len(f[0]) > 6 else None
        for r in later if rare or own_author else ():
            mid, text = int(r[0]), str(r[1])[:600]
            if mid == pid or (str(r[2]), mid) <= (str(f[0][2]), pid):
                continue  # not written after the plan
            if not rare & hits[mid]:  # no word of its subject: (brief30) its author not going on its day, said so
                if own_author and r[6] == own_author and _NOT_GOING.search(text):
                    off = set(_called_off_days(text, brief_upcoming._written(r[2]), _NOT_GOING))
                    if not off and _loosely_shared(plan_words[n], text):  # no day said: the plan's subject is off
                        off = set(ahead_of(days[n], r[2]))
                    days[n] = [d for d in days[n] if d not in off]
                continue
            written = brief_upcoming._written(r[2])
            ahead = [d for d in days[n] if written is not None and d >= written]
            shared = {w for w in rare & hits[mid] if brief_outdated._one_name(texts[n], text, w)}
            if not ahead or not shared:
                continue
            if _OFF.search(text) or (_NOT_GOING.search(text) and len(f[0]) > 6 and f[0][6] and r[6] == f[0][6]):
                off = set(_called_off_days(text, written)) or set(ahead)  # (no day said: the event is off)
                days[n] = [d for d in days[n] if d not in off]
                if mid in plan_ids:  # the memory that calls it off plans nothing of its days, nor the next to them
                    k = plan_ids[mid]  # ("se suspende lo de La Pedriza, dan tormentas todo el finde 3-4 de octubre")
                    days[k] = [d for d in days[k] if min(abs(d.toordinal() - o.toordinal()) for o in off) > NEXT_DAYS]
                continue
            if not _changes(text) or not shared & _formed(brief_upcoming.event_words(
                    text, changed_only=True, stop=stop, chat=not r[7]), form):
                continue
            if mid in plan_ids:
                own = set(days[plan_ids[mid]])
                if not r[7] or str(r[4]) == str(f[0][4]) or not own or own & set(ahead):
                    continue  # a plan of the same chat is brief_upcoming's pair; the same day is no move
                first = min(own)
                nearest = min(ahead, key=lambda d: (abs(d.toordinal() - first.toordinal()), d))
                days[n] = [d for d in days[n] if d != nearest]
            elif str(r[4]) == str(f[0][4]) and not any(d >= today for d in days_of.of(mid, str(r[1]), r[2])):
                rows_of[n] = r[:7]  # moved, its day unsaid: the newer memory is the plan, on the older's days
                gone.add(pid)
    out: list[Found] = []
    for n, f in enumerate(found):
        ahead = [d for d in days[n] if d >= today]
        if not ahead:
            gone.add(int(f[0][0]))
            continue
        out.append((rows_of[n], ahead[0], days[n]))
    out.sort(key=lambda f: (f[1], -int(f[0][0])))
    # (a plan shown as the memory that moved it keeps its id out of the other sections: the newer one shows)
    return out, sorted(gone - {int(f[0][0]) for f in out})


def ahead_of(days: list[date], when: Any) -> list[date]:
    """The ``days`` on or after the day ``when`` was written."""
    written = brief_upcoming._written(when)
    return [d for d in days if written is not None and d >= written]


def _loosely_shared(words: set[str], text: str) -> bool:
    """(brief30) Whether ``text`` says a word of ``words`` (a plan's) by its first letters, all but its last two (at
    least three): "Łeba odpada, nie jedziemy" of "Planuję Łebę". Asked only of the plan's own author saying they will
    not go (the loose match that named a dress fitting's "Salon" as the wedding's "salę" needs that)."""
    said = {w.lower()[:max(3, len(w) - 2)] for w in _WORD.findall(text[:600]) if len(w) >= 4}
    return any(w[:max(3, len(w) - 2)] in said or w[:3] in said for w in words if len(w) >= 4)


def _formed(words: set[str], form: Callable[[str], str] | None) -> set[str]:
    """``words``, each as its first letters when ``form`` is given (a declining language)."""
    return words if form is None else {form(w) for w in words}


def _called_off_days(text: str, written: date | None, off: re.Pattern[str] = _OFF) -> list[date]:
    """The days ``text`` calls off: those its clauses that say so name ("Finley Foods cancelled the 13 May demo");
    none when they name none (the event is off: "se suspende lo de La Pedriza, dan tormentas ... 3-4 de octubre")."""
    if written is None:
        return []
    said: list[date] = []
    start = 0
    for end in brief_upcoming._clause_ends(text):
        clause, start = text[start:end], end
        if off.search(clause):
            said += brief_dates.named_days(clause, written)
    return said


def _changes(text: str) -> bool:
    """Whether ``text`` says something changed with a verb or noun of change ("mudou", "verlegt", "moved", "changed",
    "cambio"; brief_upcoming's other languages): not a verb of motion alone ("I'll bring the tape", "he's bringing
    his famous chili to Thanksgiving" moved no plan: held-outs 11 and 12) nor "now"."""
    from memengine.fact_cue_lexicon import CHANGE_NOUNS, CHANGE_VERBS
    from memengine.fact_lexicon import fold

    words = {fold(w) for w in _WORD.findall(text[:600])}
    return bool(words & (CHANGE_VERBS | CHANGE_NOUNS)) or bool(words & brief_upcoming._more_change())
