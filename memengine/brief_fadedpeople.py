"""(brief29) People whose chat turns faded: the members of an imported chat the nightly decay archived.

The People section's authors are counted on live turns (``memory_authors``, m007, kept by triggers): once the
decay archived a chat imported weeks ago, its members left People altogether (held-out 22: a family group imported
in February had none of its four members in People by April; a walking club's five members, whose news the user
cares about, were gone). Migration m015 keeps the archived rows' (author, thread) pairs the same way
(``memory_author_threads_faded``); this module makes their lines: who wrote, how much, when, and the latest news they
gave, read from the chat's turns archived or not. It only reads: nothing is unarchived.

A faded member ranks with the people the notes name (memengine/brief_namedpeople.py), after the live authors: a
memory they wrote counts FADED_WEIGHT of a memory that names someone (the notes are the agent's newer word).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FADED_PEOPLE = True  # (a switch for measuring: False = the People section of 9466f68)
FADED_WEIGHT = 0.5


def candidates(conn: Any, known: set[str], showable: Callable[[str], bool]
               ) -> list[tuple[float, str, str, dict[str, Any]]]:
    """(rank, name, line, why) of every author of archived turns whom no live author, alias or contact names
    (``known``: lower-cased names and first names) and ``showable`` shows, busiest first. One read of a table of
    (author, chat) pairs."""
    out: list[tuple[float, str, str, dict[str, Any]]] = []
    rows = conn.execute("""SELECT author, sum(archived), sum(thread != ''), min(first_at), max(last_at)
                           FROM memory_author_threads_faded GROUP BY author""").fetchall()
    for author, n, chats, lo, hi in rows:
        name = str(author)
        if name.lower() in known or not showable(name) or int(n) <= 0:
            continue
        lo_day, hi_day = str(lo or "")[:10], str(hi or "")[:10]
        span = lo_day if lo_day == hi_day else f"{lo_day} – {hi_day}"
        line = (f"{name}: wrote {int(n)} {'memory' if int(n) == 1 else 'memories'} in {int(chats)} "
                f"{'chat' if int(chats) == 1 else 'chats'} ({span}; archived)")
        out.append((int(n) * FADED_WEIGHT, name, line, {"memories": int(n), "faded": True, "author": name}))
    out.sort(key=lambda c: (-c[0], c[1]))
    return out


def _same_person(a: str, b: str) -> bool:
    """Whether two names are one person's: equal, or one is the other's first word ("Frank" / "Frank Donnelly")."""
    la, lb = a.lower(), b.lower()
    return la == lb or la.split()[0] == lb or lb.split()[0] == la


def merge(conn: Any, named: list[tuple[str, dict[str, Any]]], known: set[str], room: int,
          showable: Callable[[str], bool]) -> list[tuple[str, dict[str, Any]]]:
    """The people the notes name and the faded chat members, ranked together (a named person by the memories naming
    them, a faded member by FADED_WEIGHT of those they wrote), at most ``room``; a faded member the notes name is
    their named line. A faded member's ``why`` says ``faded`` and their ``author`` (brief_people quotes their news)."""
    if room <= 0:
        return []
    names = [str(why.get("name", line.split(":")[0])) for line, why in named]
    faded = [c for c in candidates(conn, known, showable) if not any(_same_person(c[1], nm) for nm in names)]
    if not faded:
        return named[:room]
    ranked: list[tuple[float, int, str, dict[str, Any]]] = [
        (float(why.get("named_in", 0)), k, line, why) for k, (line, why) in enumerate(named)]
    ranked += [(rank, len(named) + k, line, why) for k, (rank, _n, line, why) in enumerate(faded)]
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return [(line, why) for _r, _k, line, why in ranked[:room]]
