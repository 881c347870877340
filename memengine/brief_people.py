"""The People section: authors, vCard contacts and aliases the store knows, one line each.

Split out of memengine/brief.py (round 4).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Mapping
from datetime import date
from typing import Any

from memengine import brief_dates, brief_greetings, brief_months, brief_news, brief_text, summarize
from memengine.brief_pool import Store
from memengine.brief_text import day, trim

PEOPLE_MAX = 10
PEOPLE_CONTACTS = 3  # of which at least this many are contacts who wrote nothing in the store, if any
# (brief23) a chat author's line says the latest news they gave: read from the last STATE_READ
# turns of the chat they wrote in last (one indexed read per chat; (brief24) turns with an author: its episodes
# took the places of its older turns), their turns that say at least STATE_MIN_INFO
# informative things (brief_text.information: numbers, names, words rare among those turns), no greeting
STATE_READ = 40
STATE_TRIES = 4  # of an author's turns, newest first, judged at most (the cost of a chat whose turns say little)
STATE_MIN_INFO = 3
STATE_CHARS = 60  # each quoted turn, trimmed
STATE_READ_CHARS = 200  # of each turn read
# (brief24) a person's news quoted is their newest that at least this share of the answers of their most answered drew:
# "wer hat meine Hafermilch leer gemacht" (one "🙊") is no news beside "Emre hat die Stelle bekommen!!!" (three)
NEWS_SHARE = 0.5
STATE_SEP = " — said "  # between a line and what its person said (brief.py drops it when the line does not fit)
_RARE_WORD = re.compile(r"[^\W\d_]{4,}")
# a turn that ends asking ("quem vai mixar o EP?", "todo mundo chegou bem? 😅") tells nothing of its author's state:
# what is left after the last question mark (Latin or Arabic) is no word, only emoji, spaces or closing marks
_ENDS_ASKING = re.compile(r"[?？؟][^\w]*$")
_SAID_BEFORE = re.compile(r"\w\s?[.!]+\s+\w")  # a sentence ended before the question


def people_lines(store: Store, today: date | None = None, moved: Collection[int] = ()
                 ) -> list[tuple[str, dict[str, Any]]]:
    """One line per person the store knows, most present first: who they are, from the store.

    People are authors of memories and vCard contacts (their names and aliases); a line says
    what the contact card holds (organisation, title, note, birthday), how many memories
    they wrote, in how many chats and over which dates. Nothing is guessed from capitalised
    words in the text. (brief29) ``moved``: plans moved or called off since, quoted as no one's news.
    """
    conn = store.conn
    known = store.known_people()
    names = sorted(set(known.values()))
    if not names:
        return []  # (with_named adds the people the notes name)
    cards: dict[str, tuple[int, str]] = {}
    for r in conn.execute("""SELECT id, content, metadata FROM memories WHERE source = 'vcf' AND status = 'active'
                             AND valid_to IS NULL ORDER BY id"""):
        meta = _json(r[2])
        name = str(meta.get("name") or "")
        if name:
            cards[name] = (int(r[0]), _card_facts(r[1], meta))
    stats, authors_of = _author_stats(conn, known, names, cards)
    out: list[tuple[int, str, str, dict[str, Any]]] = []
    for name in names:
        if not _showable(name):
            continue
        n, threads, lo, hi = stats.get(name, (0, 0, None, None))
        parts: list[str] = []
        card = cards.get(name)
        if card:
            parts.append("contact" + (f" ({card[1]})" if card[1] else ""))
        if n:
            span = day(lo) if day(lo) == day(hi) else f"{day(lo)} – {day(hi)}"
            parts.append(f"wrote {n} {'memory' if n == 1 else 'memories'} in {threads} "
                         f"{'chat' if threads == 1 else 'chats'} ({span})")
        if not parts:
            continue  # an alias whose person wrote nothing and has no card: nothing to say
        ref = f" (#{card[0]})" if card else ""
        out.append((n, name, f"{name}{ref}: " + "; ".join(parts),
                    {"memories": n, "contact": card[0] if card else None}))
    out.sort(key=lambda x: (-x[0], x[1]))
    # the busiest authors, and some room for contacts who wrote nothing here (richest cards first)
    writers = [o for o in out if o[0] > 0]
    cards_only = sorted((o for o in out if o[0] == 0), key=lambda o: (-len(o[2]), o[1]))
    keep = writers[: PEOPLE_MAX - min(len(cards_only), PEOPLE_CONTACTS)]
    keep += cards_only[: PEOPLE_MAX - len(keep)]
    said = _states(conn, {name: authors_of.get(name, []) for n, name, _l, _w in keep if n > 0}, today, unquoted=moved)
    return [(line + (STATE_SEP + said[name] if said.get(name) else ""), why) for _, name, line, why in keep]


_SPAN = re.compile(r" \(\d{4}-\d\d-\d\d(?: – \d{4}-\d\d-\d\d)?\)(?=" + re.escape(STATE_SEP) + ")")


def compact(line: str) -> str:
    """(brief24) A line that quotes its person's news without their dates (brief.py shows it when the whole line does not
    fit: five quoted lines outgrew the section's share, and the last person's line lost its news)."""
    return _SPAN.sub("", line, count=1)


def _rare(df: Mapping[str, int], at: int, low: str) -> bool:
    """Whether a lower-cased word is held by at most ``at`` of the turns read (``df``)."""
    return df.get(low, 0) <= at


def _states(conn: Any, authors: Mapping[str, list[str]], today: date | None = None, faded: bool = False,
            unquoted: Collection[int] = ()) -> dict[str, str]:
    """(brief23) Per shown author, the latest news they gave: in a group chat the People line said only who talks
    ("wrote 17 memories in 1 chat"), nothing of anyone's move, new job, baby or trip. Their latest turn that says
    STATE_MIN_INFO informative things or more (brief_text.informative_words: numbers, names, words rare among the
    turns read) among the last STATE_READ turns of the chat they wrote in last, no question, and no greeting ("cheguei em
    Curitiba! apartamento no Batel"), as ``#id "text"`` trimmed. Not a turn that dates a plan ("housewarming:
    Saturday 5 December"): Coming up shows plans, moved or past as they are; quoted here, a moved one read as
    current. (Their most informative turn as well took the section's share from the people after them: one line
    each is worth more.) Each author's turns are judged newest first, up to the first that says enough, at most
    STATE_TRIES of them. (brief29) ``faded``: authors whose turns the decay archived (memengine/brief_fadedpeople.py):
    their chats from m015's table, and the chat's archived turns read as well. ``unquoted``: turns not quoted (plans moved or
    called off since: "Your panel is on 30 April", moved by an agent's note)."""
    last_thread: dict[str, str] = {}
    pairs = "memory_author_threads_faded" if faded else "memory_author_threads"
    live = "status IN ('active', 'archived')" if faded else "status = 'active'"
    for name, names in authors.items():
        best: tuple[str, str] | None = None
        for author in names:
            for thread, at in conn.execute(f"SELECT thread, last_at FROM {pairs} WHERE author = ? "
                                           "AND thread != '' ORDER BY last_at DESC LIMIT 1", (author,)):
                if best is None or str(at or "") > best[1]:
                    best = (str(thread), str(at or ""))
        if best is not None:
            last_thread[name] = best[0]
    out: dict[str, str] = {}
    for thread in sorted(set(last_thread.values())):
        rows = conn.execute("SELECT id, author, content, event_at FROM memories WHERE thread = ? AND level = 0 "
                            f"AND {live} AND valid_to IS NULL AND author IS NOT NULL "
                            "ORDER BY position DESC LIMIT ?",
                            (thread, STATE_READ)).fetchall()
        # (each turn's first STATE_READ_CHARS: a turn is quoted trimmed, and a pasted log costs no more)
        texts = [summarize._without_label(str(r[2])[:STATE_READ_CHARS], r[1]) for r in rows]
        df: dict[str, int] = {}
        for t in texts:
            for w in {w.lower() for w in _RARE_WORD.findall(t)}:
                df[w] = df.get(w, 0) + 1
        rare = functools.partial(_rare, df, max(2, len(texts) // 50))
        newest = sorted(range(len(rows)), key=lambda i: (str(rows[i][3] or ""), int(rows[i][0])), reverse=True)

        # (a news turn may end asking when it said something before: "Mathis a été pris chez Ubisoft ! ... pot de
        # départ jeudi 29 ?"; quoted as trimmed, and judged moved on what the quote shows)
        quotable = [brief_text.informative_words(t, rare)[0] >= STATE_MIN_INFO and not brief_greetings.is_greeting(t)
                    and not (_ENDS_ASKING.search(t) and not _SAID_BEFORE.search(t)) for t in texts]
        quote = _Quotes(texts)

        # (brief24) the news turns of the chat and whom each is about (memengine/brief_news.py), in the order written
        order = newest[::-1]
        pos = {i: k for k, i in enumerate(order)}
        asks = _asked(rows, texts, order, quotable, rare)
        stop = summarize.stopwords_for([texts[i] for i in order])
        here = {name: names for name, names in authors.items() if last_thread.get(name) == thread}
        name_of = {a: name for name, names in here.items() for a in names}
        told, answers = brief_news.news([rows[i] for i in order], [texts[i] for i in order], name_of,
                               [quotable[i] for i in order])
        skip = {w.lower() for name in here for w in name.split()}
        ordered = [texts[i] for i in order]
        about_others = {k for who, lst in told.items() for k, _n in lst
                        if who != name_of.get(str(rows[order[k]][1]), str(rows[order[k]][1]))
                        and brief_news.owns(who, ordered[k])}
        quoted = _Quotes([texts[i] for i in order])
        for name, names in here.items():
            pick: tuple[int, str] | None = None
            # their newest news that about as many answered as their most answered (NEWS_SHARE of it), whoever told it,
            # not moved since
            theirs = told.get(name, [])
            most = max((n for _k, n in theirs), default=0)
            # (at most STATE_TRIES of them judged: a transcript's every turn names its own day, judged in vain)
            for k, _n in sorted(((k, n) for k, n in theirs if n >= NEWS_SHARE * most), key=lambda kn: -kn[0])[
                    :STATE_TRIES]:
                if int(rows[order[k]][0]) in unquoted or faded and brief_dates.says_a_date(texts[order[k]]):
                    continue  # (brief29) a faded chat's plan is no news now: called off or moved since, unseen here
                if brief_news.ahead(texts[order[k]], rows[order[k]][3], today) and not brief_news.moved_later(k, ordered, stop, skip, quoted[k]):
                    i = order[k]
                    pick = (i, "" if rows[i][1] in names else f"by {rows[i][1]} ")
                    break
            past = ""
            if pick is None:  # else their newest turn that says enough, no dated plan, no answer to someone's news
                # (brief34) nor news they told about another member ("tom's op went fine": Tom's, not the teller's)
                mine = [i for i in newest if rows[i][1] in names and pos[i] not in answers and pos[i] not in about_others
                        and int(rows[i][0]) not in unquoted][:STATE_TRIES]
                pick = next(((i, "") for i in mine if quotable[i] and not _ENDS_ASKING.search(texts[i])
                             and not brief_dates.says_a_date(texts[i])), None)
                # (a plan placed by a month gone by is still their newest word, marked past rather than passed over
                # for a filler: "al final la mudanza es en mayo" (2026-05: past), not "os lo digo ahora jaja")
                if pick is not None and today is not None:
                    at = brief_news.when(rows[pick[0]][3])
                    past = brief_months.note(texts[pick[0]], at.date() if at else None, today)
            if pick is not None:
                i, by = pick
                out[name] = (f'{by}#{int(rows[i][0])} "{quote[i]}"' + past
                             + _context(rows, texts, i, asks.get(i), quote[i]))
    return out


ASKED_CHARS = 50  # the question a quoted answer answers, trimmed
OWN_MIN_INFO = 2  # (brief26) informative words of the own turn an outcome reads with (a "morning all ☀️" says none)
OWN_MAX_WORDS = 6  # (brief26) words of an outcome that says too little alone ("PASSED 🚗🚗🚗 zero minors")
_LETTERS = re.compile(r"[^\W\d_]+")


def _asked(rows: list[Any], texts: list[str], order: list[int], quotable: list[bool],
           rare: Callable[[str], bool]) -> dict[int, int]:
    """(brief25) Per turn (index into ``rows``, newest first), the question it answers (brief_news.asked) when that
    asks after what its author told or was told of before (brief_news.follows_up), if any; an excited answer that says
    too little alone becomes ``quotable`` with its question ("GOT IT 😭😭 they rang this afternoon" answering "Hannah
    any news from Leeds General?"): news that reads as news only with what it answers."""
    def weight(text: str) -> int:
        return brief_text.informative_words(text, rare)[0]

    written = [rows[i] for i in order]
    said = [texts[i] for i in order]
    out: dict[int, int] = {}
    for k, i in enumerate(order):
        j = brief_news.asked(k, written, said, weight)
        if j is None or not brief_news.follows_up(j, k, written, said, summarize.STOPWORDS):
            # (brief26) no question: an outcome of a few words said out loud reads with its author's own turn before
            # it ("can't feel my legs after Bath lol" ... "1:54:20!!! PB by four minutes"), when that says something;
            # not "💀💀" or "night ❤️" (a mood), nor news that says what it is about ("Mathis a été pris chez Ubisoft à
            # Montpellier !")
            j = None if not brief_news.shouted(texts[i]) or not 0 < len(_LETTERS.findall(texts[i])) <= OWN_MAX_WORDS \
                else brief_news.own_before(k, written, said)
            if j is None or brief_greetings.is_greeting(said[j]) or weight(said[j]) < OWN_MIN_INFO:
                continue
        out[i] = order[j]
        if not quotable[i] and brief_news.excited(texts[i]) and not brief_greetings.is_greeting(texts[i]) \
                and not _ENDS_ASKING.search(texts[i]) and weight(texts[i]) + weight(said[j]) >= STATE_MIN_INFO:
            quotable[i] = True
    return out


def _context(rows: list[Any], texts: list[str], i: int, j: int | None, quoted: str) -> str:
    """`` answering NAME #id "question"`` when the quote (of turn ``i``) answers question ``j`` and shares none of its
    words of 4+ letters ("1:58:41!!! under two hours" answering "how did the half go??"); `` after #id "turn"`` when
    ``j`` is its author's own turn before it (brief26: "PASSED 🚗🚗🚗 zero minors" after "test at 2, the instructor
    says …"); else ""."""
    if j is None:
        return ""
    theirs = {w.lower() for w in _RARE_WORD.findall(texts[j])} - summarize.STOPWORDS
    if not theirs or theirs & {w.lower() for w in _RARE_WORD.findall(quoted)}:
        return ""
    asked = brief_text.trim(brief_text.one_line(_ungreeted(texts[j])), ASKED_CHARS)
    if rows[j][1] == rows[i][1]:  # (brief26) their own turn before it: what the outcome is of
        return f' after #{int(rows[j][0])} "{asked}"'
    return f' answering {rows[j][1]} #{int(rows[j][0])} "{asked}"'


class _Quotes(dict[int, str]):
    """Each turn's quote (without its opening greeting, trimmed), made when first asked for: most are never shown."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.texts = texts

    def __missing__(self, i: int) -> str:
        self[i] = q = brief_text.trim(brief_text.one_line(_ungreeted(self.texts[i])), STATE_CHARS)
        return q


def _ungreeted(text: str) -> str:
    """(brief24) A turn quoted without the greeting it opens with: "bom dia, já tenho a receita dos colírios para depois
    da operação" spent its quote's first characters on "bom dia" and lost "operação" to the trim."""
    if not brief_greetings.has_opener(text):
        return text
    rest = brief_greetings.without_greetings(text).lstrip(" ,;:!.-–—")
    return rest or text


def with_named(store: Store, today: date | None = None, outdated: Collection[int] = (), moved: Collection[int] = ()
               ) -> list[tuple[str, dict[str, Any]]]:
    """:func:`people_lines`, then (room left) the people the notes name often (memengine/brief_namedpeople.py):
    a store of notes has no authors, and its People section was empty however often they named someone."""
    from memengine import brief_fadedpeople, brief_namedpeople

    out = people_lines(store, today, moved)
    known = set(store.known_people()) | {line.split(":")[0].lower() for line, _ in out}
    users: set[str] = set()
    named = brief_namedpeople.lines(store, known, PEOPLE_MAX - len(out), outdated, users)
    if users:  # (brief30) the user is no person of their own brief: an author of the chats the notes import
        out = [(line, why) for line, why in out if not _is_user(line.split(":")[0].split(" (#")[0], users)]
    if not brief_fadedpeople.FADED_PEOPLE:
        return out + named + _talked(store, known, named, users, PEOPLE_MAX - len(out) - len(named),
                                     set(outdated) | set(moved))
    # (brief29) ...ranked with the members of imported chats whose turns the decay archived (m015), each with the
    # latest news they gave, read from their chat's turns archived or not. (An author's name, not a "name": brief.py
    # keeps the people the notes name out of topic names, and a chat's members named its topics before; held-out 22:
    # a topic's lead changed with its name.)
    kept = brief_fadedpeople.merge(store.conn, named, known, PEOPLE_MAX - len(out), _showable)
    faded = {str(why["author"]): [str(why["author"])] for _line, why in kept if why.get("faded")}
    said = _states(store.conn, faded, today, faded=True, unquoted=moved) if faded else {}
    return out + [(line + (STATE_SEP + said[str(why.get("author"))] if why.get("faded") and said.get(
        str(why.get("author"))) else ""), why) for line, why in kept] + _talked(
        store, known, kept, users, PEOPLE_MAX - len(out) - len(kept), set(outdated) | set(moved))


TALKED_ABOUT = True  # (brief32) the people a chat's authors talk about get People lines (room left)


def _talked(store: Store, known: set[str], named: list[tuple[str, dict[str, Any]]], users: set[str], room: int,
            unquoted: Collection[int]) -> list[tuple[str, dict[str, Any]]]:
    """(brief32) memengine/brief_talkedabout.py's lines, none for a person a line above has (or the user); no news
    quoted from ``unquoted`` (plans moved or called off, facts outdated)."""
    from memengine import brief_talkedabout

    if not TALKED_ABOUT or room <= 0:
        return []
    have = set(known) | {line.split(":")[0].split(" (#")[0].lower() for line, _ in named} | {u.lower() for u in users}
    return brief_talkedabout.lines(store, have, room, unquoted)


def _is_user(name: str, users: Collection[str]) -> bool:
    """(brief30) Whether a chat author's ``name`` is the user's ("Camille Roux" of "L'utilisatrice est Camille Roux";
    one of them one word, the other's first: "Camille")."""
    low = name.lower().split()
    for u in users:
        words = u.lower().split()
        if words == low or (low and words and (len(words) == 1 or len(low) == 1) and words[0] == low[0]):
            return True
    return False


def _author_stats(conn: Any, known: dict[str, str], names: list[str], cards: Mapping[str, Any]
                  ) -> tuple[dict[str, tuple[int, int, str | None, str | None]], dict[str, list[str]]]:
    """(memories, chats, first date, last date) of the people :func:`people_lines` can show.

    Memories per name come from ``memory_authors`` (m007, kept by triggers) less the summaries
    (level > 0, few, by their index); chats and dates come from ``memory_author_threads`` (m012,
    kept by triggers; dates only widen), for the PEOPLE_MAX busiest names only. Several authors
    of one name (case variants) add up, as one line. Also each name's authors (as written).
    """
    per_name: dict[str, int] = {}
    authors: dict[str, list[str]] = {}
    for author, active in conn.execute("SELECT author, active FROM memory_authors"):
        name = known.get(str(author).lower())
        if name is not None:
            per_name[name] = per_name.get(name, 0) + int(active)
            authors.setdefault(name, []).append(author)
    # (the unary + keeps the planner on the small summaries index, off the status one)
    for author, n in conn.execute("SELECT author, count(*) FROM memories WHERE level > 0 AND +status = 'active' "
                                  "AND +author IS NOT NULL GROUP BY author"):
        name = known.get(str(author).lower())
        if name is not None:
            per_name[name] -= int(n)
    shown = [nm for nm in names if per_name.get(nm, 0) > 0 and _showable(nm)]
    shown.sort(key=lambda nm: (-per_name[nm], nm))
    cards_only = sum(1 for nm in names if per_name.get(nm, 0) <= 0 and nm in cards and _showable(nm))
    # the others keep their count, which places them below these (their lines are not shown)
    stats: dict[str, tuple[int, int, str | None, str | None]] = {nm: (per_name[nm], 0, None, None) for nm in shown}
    for name in shown[: PEOPLE_MAX - min(cards_only, PEOPLE_CONTACTS)]:
        threads, lo, hi = 0, None, None
        for author in authors[name]:
            t, a, z = conn.execute(
                "SELECT coalesce(sum(thread != ''), 0), min(first_at), max(last_at) FROM memory_author_threads"
                " WHERE author = ?", (author,)).fetchone()
            threads += int(t)
            lo = min(filter(None, (lo, a)), default=None)
            hi = max(filter(None, (hi, z)), default=None)
        stats[name] = (per_name[name], threads, lo, hi)
    return stats, authors


def _showable(name: str) -> bool:
    """A chat role ("assistant") or a phone number (an unnamed WhatsApp sender) is no person's line."""
    return name.lower() not in summarize.ROLE_AUTHORS and not any(ch.isdigit() for ch in name)


def _json(text: str | None) -> dict[str, Any]:
    import json

    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _card_facts(content: str, meta: dict[str, Any]) -> str:
    """Organisation, title, birthday and note of a contact card (not its phones and emails)."""
    keep: list[str] = []
    body = content.split(" — ", 1)[1] if " — " in content else ""
    for part in body.split("; "):
        if part.startswith(("org ", "title ", "birthday ", "note ", "nickname ")):
            keep.append(trim(part, 80))
    return "; ".join(keep)
