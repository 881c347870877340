"""What an agent reads at session start: one selection for ``mem.py brief`` and MEMORY.md.

The selection is made of the store's own statements, each shown with its date and id
(``#123``, what ``mem.py get`` takes), in sections an agent uses:

    Key facts            pinned memories, then important semantic facts
    Coming up            plans still ahead (a day named after the memory was written), soonest
                         first, each with its day: ``(→ 2026-12-03, in 13 days)``
    Procedures           how-tos (procedural memories)
    Recently changed     supersessions and new facts of the last RECENT_DAYS days
    Open contradictions  pairs waiting for ``mem.py contradictions --resolve``
    People               authors, vCard contacts and aliases the store knows, one line each
    Topics               per topic (``T12``: a consolidate cluster, what ``browse``/``clusters``
                         take) its 1-3 most representative memories, verbatim or cut at a
                         sentence boundary

Topics are chosen by a budgeted facility-location greedy (a submodular relative of MMR):
each step takes the memory whose shown line adds the most *coverage* of the candidate pool
(sum over candidates of the gain in their best cosine to anything chosen) times its
*information density* (numbers, names, dates, rare words per word), per token it costs.
Coverage favours central memories and, once a region is covered, memories elsewhere;
candidates are weighted by 1/sqrt(size of their chat), so one large chat cannot take the
budget. Superseded memories (``valid_to`` set) are never candidates anywhere.

Every line is counted with the embedder's tokenizer (``graph_rank.token_counter``), so the
selection never exceeds its token budget. The selection is deterministic for a given
store and ``now`` (ties break by id), so MEMORY.md does not change when the store did not.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import chain
from typing import Any

import numpy as np

from memengine import (
    brief_dates,
    brief_declined,
    brief_keyfacts,
    brief_moves,
    brief_naming,
    brief_outdated,
    brief_people,
    brief_pool,
    brief_reactions,
    brief_smalltalk,
    brief_upcoming,
    timekind,
    topic_names,
)
from memengine.brief_keyfacts import KEY_FACT_IMPORTANCE, SAME_SITTING_HOURS, UPDATE_COS  # noqa: F401 (re-exported)
from memengine.brief_keyfacts import fold_updates as _fold_updates
from memengine.brief_keyfacts import key_fact_rows as _key_fact_rows
from memengine.brief_keyfacts import may_update as _may_update  # noqa: F401 (re-exported)
from memengine.brief_naming import COMMON_NAME_MIN, COMMON_NAME_SHARE  # noqa: F401 (re-exported)
from memengine.brief_people import PEOPLE_CONTACTS, PEOPLE_MAX, STATE_SEP, people_lines  # noqa: F401 (re-exported)
from memengine.brief_pool import LIVE as _LIVE
from memengine.brief_pool import (  # noqa: F401 (re-exported: POOL_*, similarities)
    POOL_MAX,
    POOL_PER_TOPIC,
    Store,
    cosine_column,
    min_tokens,
    parts,
    similarities,
    subject_rows,
    topic_pool,
    unit_rows,
)
from memengine.brief_text import (  # noqa: F401 (re-exported)
    ITEM_MAX_CHARS,
    MIN_CUT_CHARS,
    information,
    informative_words,
    memory_line,
    one_line,
    trim,
)
from memengine.brief_text import WORD as _WORD
from memengine.brief_text import day as _day  # noqa: F401 (re-exported)
from memengine.brief_text import shared as _shared
from memengine.timeparse import to_iso

# --------------------------------------------------------------------------- tuning

# Section shares of the budget (at most); what a section leaves unused goes to the topics.
SHARE_FACTS, SHARE_PROCEDURES, SHARE_RECENT, SHARE_CONTRADICTIONS, SHARE_PEOPLE = 0.25, 0.12, 0.12, 0.08, 0.12
SHARE_PEOPLE_FADED = 0.06  # (brief29) more for People when it holds chat members whose turns faded
SHARE_UPCOMING, UPCOMING_MAX = 0.12, 8  # "Coming up": plans still ahead, soonest first (memengine/brief_upcoming.py)
UPCOMING_ASKED = 40  # the soonest plans asked whether a later turn of their chat updates them (brief_outdated)
NEW_FACT_MIN_WORDS = 6  # a new "fact" of fewer words is a heading or a stub ("Clippings > Author")
RECENT_DAYS = 7  # "recently": superseded or stored within this many days of now
CONTRADICTIONS_MAX = 5
MIXED = topic_names.MIXED  # the name of a group whose members share no word run

PER_TOPIC_MAX = 3  # representatives shown per topic
END_SHARE = 0.02  # the topics stop when less than this share of the budget is left (every try then costs a count)
LAST_QUANTILE = 0.0  # ...then, budget still left, any line above this quantile of the informative ones, whatever its part
LEFTOVER_PER_TOPIC_MAX = 6  # ...or up to this many, when budget is left once every part has its PER_TOPIC_MAX
TOPIC_MIN_MEMBERS = 3  # a cluster of fewer members is no topic: its memories show with those in no topic
SMALL_TALK_OUT = True  # nor is a cluster of chat turns that names nothing (brief_smalltalk)
PART_SIZE = 20  # a cluster with more candidates than this is shown as parts of about this size
DUPLICATE_COS = 0.92  # a candidate this close to a chosen memory says the same thing: never chosen
THREAD_WEIGHT_EXP = 0.5  # the k-th pick of a chat is worth 1/k^this: one large chat cannot take the budget
# A memory's value is its information (numbers, names, dates, rare words, + FIRST_PERSON if it
# says something about the speaker: "I", "my", "we") plus DENSITY_FLOOR, per tokens^COST_EXP,
# times novelty (1 - its best cosine to what is chosen)^NOVELTY_EXP. Measured on LoCoMo dev
# (bench/brief_coverage.py): centrality to a topic is *anti*-correlated with holding an answer
# (AUC 0.35: central turns are the generic ones), information count is the best single signal
# (AUC 0.76), so centrality is not part of the value; topics (and their parts) give coverage.
# Chosen by leave-one-conversation-out (the bench prints LOO next to in-sample).
DENSITY_FLOOR = 0.0
FIRST_PERSON = 2.0
FIRST_PERSON_NEEDS_INFO = True  # the first person counts only in a line that says something else too
COST_EXP = 0.5
NOVELTY_EXP = 1.0
RARE_SHARE = 0.02  # a word in at most this share of the pool is informative (a rare word)

HEADER = "# Briefing"
LEAD_SEP = " — "  # between a topic's label and its lead line, in its heading
SECTION_TITLES = {"facts": "Key facts", "upcoming": "Coming up", "procedures": "Procedures", "recent": "Recently changed",
                  "contradictions": "Open contradictions (please review)", "people": "People", "topics": "Topics"}

_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|my|mine|me|we|we're|our|ours|us)\b")


@dataclass
class Item:
    """One chosen line: ``text`` is what is shown, ``why`` says why it was chosen."""

    section: str
    text: str
    tokens: int
    id: int | None = None  # memory id (#id), when the line is one memory
    topic: int | None = None  # cluster id (T12)
    why: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"section": self.section, "id": self.id, "topic": self.topic, "text": self.text,
                "tokens": self.tokens, "why": self.why}


@dataclass
class Topic:
    """A topic as shown: its cluster (None: memories in no cluster yet), part of it, and name.

    A large cluster is shown as several topics (``part``), each named from its own members:
    consolidate's clusters of a long chat hold hundreds of turns on many subjects.
    """

    id: int | None
    part: int
    name: str
    size: int
    items: list[Item] = field(default_factory=list)
    parts: int = 1  # how many parts its cluster is shown as

    def label(self) -> str | None:
        """``T12``, or ``T12.2`` for the second part of a cluster shown as parts: no two topics share one."""
        if self.id is None:
            return None
        return f"T{self.id}" if self.parts <= 1 else f"T{self.id}.{self.part + 1}"

    def title(self) -> str:
        """``T12 · garden beds (14 memories)``; memories in no cluster yet say so."""
        n = f"{self.size} {'memory' if self.size == 1 else 'memories'}"
        if self.id is None:
            name = "Other memories" if self.name == MIXED else self.name
            return f"{name} ({n}, not yet in a topic)"
        return f"{self.label()} · {self.name} ({n})"

    def lead(self) -> Item | None:
        """The line the topic's heading carries: its first pick, the most valuable of its lines (a topic, not
        the memories in no topic)."""
        return next((i for i in self.items if i.why.get("lead")), None)

    def heading(self) -> str:
        """``T12 · garden beds (14 memories) — 2026-05-08 #123 what its best line says``: a label alone
        ("worktops, oven, fitter") says what a topic is about, not what happened in it."""
        lead = self.lead()
        return self.title() if lead is None else f"{self.title()}{LEAD_SEP}{lead.text}"


@dataclass
class Selection:
    """What `brief` shows and MEMORY.md holds, in section order."""

    budget: int
    tokens: int
    token_count: str
    sections: dict[str, list[Item]]
    topics: list[Topic]
    warnings: list[str]
    header: bool = True  # False when even the header line is over budget

    def blocks(self) -> list[tuple[str, list[str]]]:
        """(heading, lines) in display order: fixed sections, then one heading per topic (which carries
        the topic's lead line: a topic's lines may be none but it)."""
        out = [(SECTION_TITLES[k], [i.text for i in v]) for k, v in self.sections.items() if v]
        out += [(t.heading(), [i.text for i in t.items if not i.why.get("lead")]) for t in self.topics if t.items]
        return out

    def standalone(self) -> set[str]:
        """The headings that say something alone (a topic's, with its lead line): shown with no line under them."""
        return {t.heading() for t in self.topics if t.lead() is not None}

    def text(self) -> str:
        """Markdown: the header, then ``### heading`` and ``- line`` per section."""
        lines = [HEADER] if self.header else []
        for title, items in self.blocks():
            lines.append(f"### {title}")
            lines += [f"- {t}" for t in items]
        return "\n".join(lines)

    def chosen(self) -> list[Item]:
        """Every chosen line in display order."""
        return [i for v in self.sections.values() for i in v] + [i for t in self.topics for i in t.items]


# --------------------------------------------------------------------------- text


# --------------------------------------------------------------------------- selection


@dataclass
class _Budget:
    total: int
    count: Callable[[str], int]
    used: int = 0
    # the count is a tokenizer's: every run of non-space holding a letter or digit is >= 1 token,
    # and a count costs ~0.1 ms, so topic candidates are counted only when they could be chosen
    lazy: bool = False

    def take(self, text: str, cap: int | None = None, spent: int = 0) -> int | None:
        """Tokens of ``- text`` if it fits the budget (and ``cap`` for the section), else None."""
        n = self.count(f"- {text}\n")
        if self.used + n > self.total or (cap is not None and spent + n > cap):
            return None
        self.used += n
        return n


TALKED_NAME_NO_TOPIC = False  # (brief36) a talked-about person's name heads no topic: off — on held-outs 21-26 good headings 69 -> 65, a duplicate "Mum", 3 more said-once (lead, session 21)


def select(store: Store, budget: int, now: datetime, count: Callable[[str], int], how: str,
           params: Mapping[str, float] | None = None, ranked_ids: list[int] | None = None) -> Selection:
    """The session-start selection within ``budget`` tokens (see the module docstring).

    ``count`` counts tokens (``how`` says with what). ``params`` overrides the topic
    constants by name (``DENSITY_FLOOR``, ``COST_EXP``, ``THREAD_WEIGHT_EXP``, ``PART_SIZE``), for the
    benchmark's leave-one-out tuning. ``ranked_ids`` (best first, e.g. consolidate's
    precomputed PageRank) fill the topic candidates of a store too large to take whole.
    """
    b = _Budget(budget, count, lazy=how == "tokenizer")
    header = count(f"{HEADER}\n") <= budget
    b.used = count(f"{HEADER}\n") if header else 0
    conn = store.conn
    shown: set[int] = set()
    sections: dict[str, list[Item]] = {k: [] for k in ("facts", "upcoming", "procedures", "recent", "contradictions",
                                                       "people")}
    warnings: list[str] = []
    # a fact a later one probably updates (memengine/supersession.py, the may_update links) is left out; the
    # later one says what it may replace
    may_replace: dict[int, list[int]] = {}
    outdated = brief_keyfacts.outdated_links(conn)
    for old, newer in outdated.items():
        shown.add(old)
        for n in newer:
            may_replace.setdefault(n, []).append(old)

    def add(section: str, share: float, item: Item, heading: bool) -> bool:
        if item.id in may_replace and "may_update" not in item.why:
            item.why["may_update"] = may_replace[item.id]
            item.text += " (may update " + " ".join(f"#{o}" for o in may_replace[item.id]) + ")"
        spent = sum(i.tokens for i in sections[section])
        extra = count(f"### {SECTION_TITLES[section]}\n") if heading else 0
        n = b.take(item.text, int(share * budget) - extra, spent)
        if n is None:
            return False
        b.used += extra
        item.tokens = n + extra
        sections[section].append(item)
        if item.id is not None:
            shown.add(item.id)
        return True

    # Plans still ahead are chosen first: each shows once, with its day, in the order of the days
    # (and a plan a newer one moved shows nowhere). Then what changed (a replaced fact is news, and
    # must not hide among the key facts without saying what it replaces). The sections are shown
    # in their own order.
    days = brief_upcoming.PlanDays(store)  # the days each line plans, read once
    moved: set[int] = set()  # (brief29) plans moved or called off since: no one's news in People either
    _upcoming(store, now, shown, add, sections, days, moved)
    planned = set(shown)  # in "Coming up", or moved by a newer plan: not a key fact again
    _superseding(store, now, shown, add, sections, days)
    today = timekind.today(now)
    # Key facts: pinned first, then important semantic facts (contacts are people, not facts)
    rows = [r for r in _key_fact_rows(conn) if int(r[0]) not in outdated]  # (not what a later fact may update)
    kept: set[int] = set()  # (brief22) shown key facts that plan only days already past: an appointment kept
    folded: set[int] = set(outdated)  # (brief27) facts a later one may update: no one's news in People either
    # (brief27) and the lesser facts a later one replaces by the fact rules: shown nowhere
    folded |= brief_keyfacts.lesser_updates(store)
    shown.update(folded)
    for r, older in _fold_updates(store, rows):
        folded.update(int(o[0]) for o in older)
        if int(r[0]) in planned:
            shown.update(int(o[0]) for o in older)
            continue
        why: dict[str, Any] = {"pinned": True} if r[3] else {"importance": r[4]}
        why.update(_shared(r[5]))
        note = days.note(int(r[0]), r[1], r[2], today)
        text = memory_line(r[0], r[1], r[2], source=r[5]) + note
        if older:
            # a newer statement of the same thing from the same source: likely an update the store did
            # not mark as one; the agent sees the current one, and what it may replace
            why["may_update"] = [int(o[0]) for o in older]
            text += " (may update " + "; ".join(f"#{o[0]} \"{trim(o[1], 60)}\"" for o in older[:2]) + ")"
        # (brief25: or only a month gone by, "Jana will im Mai … fahren" read in June: the note says it, as for days)
        if add("facts", SHARE_FACTS, Item("facts", text, 0, int(r[0]), why=why), not sections["facts"]) and \
                not r[3] and note.endswith(": past)"):
            kept.add(int(r[0]))
        # what it may replace is shown nowhere, whether it took a line here or not (round 11: a group the
        # section had no room for showed its replaced fact among the topics' lines)
        shown.update(int(o[0]) for o in older)
    # (brief22) what is true now before what already happened: the key facts that only planned days now past ("Visita
    # fissata per venerdì 9 ottobre", read on the 29th) show after the others; the same facts, the same tokens
    sections["facts"].sort(key=lambda item: item.id in kept)
    for r in conn.execute(
            f"""SELECT m.id, m.content, {timekind.when_sql('m')}, m.importance, m.access_count, m.source
                FROM memories m WHERE {_LIVE} AND m.memory_type = 'procedural'
                ORDER BY m.importance DESC, m.access_count DESC, m.id DESC LIMIT 100"""):
        if int(r[0]) not in shown:
            add("procedures", SHARE_PROCEDURES, Item("procedures", memory_line(r[0], r[1], r[2], source=r[5]), 0,
                                                     int(r[0]),
                                                     why={"importance": r[3], "access_count": r[4], **_shared(r[5])}),
                not sections["procedures"])
    _new_facts(store, now, shown, add, sections, days)
    for r in conn.execute(
            """SELECT c.id, c.memory_a, c.memory_b, c.reason, a.content, b.content FROM contradictions c
               JOIN memories a ON a.id = c.memory_a JOIN memories b ON b.id = c.memory_b
               WHERE c.status = 'open' AND a.status != 'deleted' AND b.status != 'deleted'
               ORDER BY c.confidence DESC, c.id LIMIT ?""", (CONTRADICTIONS_MAX,)):
        text = (f"#{r[1]} \"{trim(r[4], 100)}\" vs #{r[2]} \"{trim(r[5], 100)}\" — {one_line(r[3])} "
                f"(mem.py contradictions --resolve {r[0]} --keep ID)")
        add("contradictions", SHARE_CONTRADICTIONS, Item("contradictions", text, 0, None,
                                                         why={"contradiction": int(r[0])}),
            not sections["contradictions"])
    named: set[str] = set()  # people the notes name (brief_namedpeople): they name no topic either
    people = brief_people.with_named(store, today, folded, moved)
    # (brief29) a section that holds the members of a chat whose turns faded as well has more people to say
    share = SHARE_PEOPLE + (SHARE_PEOPLE_FADED if any(why.get("faded") for _, why in people) else 0.0)
    for line, why in people:
        named.update(w.lower() for w in str(why.get("name", "")).split())
        if TALKED_NAME_NO_TOPIC:  # (brief36) and the people the chat talks about: "tom", one of two candidates for a room
            named.update(w.lower() for w in str(why.get("talked_about", "")).split())
        plain = line.split(brief_people.STATE_SEP, 1)[0]
        if not add("people", share, Item("people", plain, 0, None, why=why), not sections["people"]):
            break
    _people_said(b, sections["people"], [line for line, _ in people], int(share * budget))
    topics = _topics(store, b, shown, warnings, params or {}, ranked_ids, today, days, named)
    return Selection(budget, b.used, how, sections, topics, warnings, header)


def _people_said(b: _Budget, items: list[Item], lines: list[str], cap: int) -> None:
    """(brief23) Each shown person's line with the latest news they gave (STATE_SEP ...), in the
    section's order while its share and the budget hold it: every person's line first, then what they said (a
    person's news is worth less than another person's line)."""
    # (brief24) first every person's news without their dates, then their dates back while the share holds: five
    # quoted lines outgrew the share, and the last person's line lost its news
    for pass_lines in ([brief_people.compact(line) for line in lines], lines):
        for item, line in zip(items, pass_lines):
            if line == item.text or STATE_SEP not in line:
                continue
            own = b.count(f"- {item.text}\n")
            heading = item.tokens - own  # (the first line carries the section's heading)
            n = b.count(f"- {line}\n")
            spent = sum(i.tokens for i in items)
            if b.used + n - own > b.total or spent + n - own > cap:
                continue
            b.used += n - own
            item.text, item.tokens = line, n + heading


def _upcoming(store: Store, now: datetime, shown: set[int], add: Callable[[str, float, Item, bool], bool],
              sections: dict[str, list[Item]], days_of: brief_upcoming.PlanDays, moved_out: set[int] | None = None
              ) -> None:
    """Plans still ahead of ``now``, soonest first, each with its day (memengine/brief_upcoming.py).

    The plans a newer one moved or restates join ``shown``: no section shows them (and ``moved_out``, if given)."""
    today = timekind.today(now)
    found, moved = brief_upcoming.plans(store, now, days_of)
    shown.update(moved)  # an older plan a newer one moved or restates: shown nowhere
    found, moved = brief_moves.settle(store, found, days_of, now)  # (brief28) ...or a later memory calls off or moves
    if brief_declined.DECLINED:  # (brief33) ...or another member turned its day down and another day was named
        found, declined = brief_declined.settle(store, found, days_of, now)
        moved = sorted(set(moved) | set(declined))
    shown.update(moved)
    if moved_out is not None:  # (those a later memory calls off or moves, and (brief35) those a newer plan moved: one
        moved_out.update([*moved, *days_of.moved])  # it only restates may be quoted as its author's news: held-out 17)
    # ...or a later turn of its chat updates ("he offered 2100 a month, move in from November 15" / "Kowalczyk
    # agreed: 2050 a month"), by recall's rule on turns of one subject (memengine/brief_outdated.py)
    shown.update(brief_outdated.outdated(store, [int(f[0][0]) for f in found[:UPCOMING_ASKED]]))
    for r, day, days in found:
        if len(sections["upcoming"]) >= UPCOMING_MAX:
            break
        if int(r[0]) in shown:
            continue
        text = memory_line(r[0], r[1], r[2], source=r[3]) + brief_dates.when_note(days, today)
        if not add("upcoming", SHARE_UPCOMING, Item("upcoming", text, 0, int(r[0]),
                                                    why={"day": day.isoformat(), **_shared(r[3])}),
                   not sections["upcoming"]):
            break  # the section's share is spent: the later plans wait


def _superseding(store: Store, now: datetime, shown: set[int], add: Callable[[str, float, Item, bool], bool],
                 sections: dict[str, list[Item]], days: brief_upcoming.PlanDays) -> None:
    """Facts that replaced another in the last RECENT_DAYS days, newest first, naming the old one."""
    since = to_iso(now - timedelta(days=RECENT_DAYS))
    seen: set[int] = set()
    for r in store.conn.execute(
            f"""SELECT n.id, n.content, {timekind.when_sql('n')}, o.id, o.content, o.valid_to
                FROM memories o CROSS JOIN associations e ON e.target_id = o.id CROSS JOIN memories n ON n.id = e.source_id
                WHERE e.edge_type = 'supersedes' AND o.valid_to >= ? AND {_LIVE.replace('m.', 'n.')}
                  AND o.status != 'deleted'
                ORDER BY o.valid_to DESC, n.id DESC LIMIT 50""", (since,)):
        # (users35: a forgotten old value — an old password, a wrong fact — is not quoted; the new one is then a
        # new fact like any other)
        if int(r[0]) in seen or int(r[0]) in shown:
            continue
        seen.add(int(r[0]))
        text = f"{memory_line(r[0], r[1], r[2], 200)}{days.note(int(r[0]), r[1], r[2], timekind.today(now))} (replaces #{r[3]}: \"{trim(r[4], 80)}\")"
        add("recent", SHARE_RECENT, Item("recent", text, 0, int(r[0]),
                                         why={"supersedes": int(r[3]), "superseded_at": r[5]}),
            not sections["recent"])


def _new_facts(store: Store, now: datetime, shown: set[int], add: Callable[[str, float, Item, bool], bool],
               sections: dict[str, list[Item]], days: brief_upcoming.PlanDays) -> None:
    """Facts and procedures stored in the last RECENT_DAYS days and not shown yet, newest first."""
    since = to_iso(now - timedelta(days=RECENT_DAYS))
    for r in store.conn.execute(
            f"""SELECT m.id, m.content, {timekind.when_sql('m')}, m.created_at, m.source FROM memories m
                WHERE {_LIVE} AND m.created_at >= ? AND m.memory_type IN ('semantic', 'procedural')
                AND m.source != 'vcf' ORDER BY m.created_at DESC, m.id DESC LIMIT 50""", (since,)):
        if int(r[0]) not in shown and len(_WORD.findall(r[1][:400])) >= NEW_FACT_MIN_WORDS:
            text = memory_line(r[0], r[1], r[2], source=r[4]) + days.note(int(r[0]), r[1], r[2], timekind.today(now))
            add("recent", SHARE_RECENT, Item("recent", text, 0, int(r[0]),
                                             why={"new": True, "stored_at": r[3], **_shared(r[4])}),
                not sections["recent"])


# --------------------------------------------------------------------------- topics


def _no_topics_warning(store: Store) -> str:
    """Why the brief has no topics: consolidate never ran, or it ran and found no group."""
    # consolidate's high-water marks (links.META_PREFIX) and its ranks (graph_rank.RANKS_META_KEY);
    # named here, not imported: both modules sit above brief in the import order
    ran = store.conn.execute("SELECT 1 FROM _mem_meta WHERE key LIKE 'consolidate.%' OR key = 'graph.ranks'"
                             " LIMIT 1").fetchone()
    if ran is None:
        return "no topics yet: run `mem.py consolidate` (nightly) to group memories into topics"
    return "too few memories for topics: consolidate found no group of related memories (of at least " \
        f"{TOPIC_MIN_MEMBERS}) among these"


def _topics(store: Store, b: _Budget, shown: set[int], warnings: list[str],
            params: Mapping[str, float], ranked_ids: list[int] | None, today: date,
            days: brief_upcoming.PlanDays, named: set[str]) -> list[Topic]:
    """The greedy choice of topic representatives within what is left of the budget.

    A line that planned a day says when (``PlanDays.note``): added when the line is counted
    exactly (every line up front, or with a tokenizer only the ones that could be chosen: the
    note only adds tokens, so the lower bound of an uncounted line stays one).
    """
    density_floor = float(params.get("DENSITY_FLOOR", DENSITY_FLOOR))
    first_person = float(params.get("FIRST_PERSON", FIRST_PERSON))
    cost_exp = float(params.get("COST_EXP", COST_EXP))
    novelty_exp = float(params.get("NOVELTY_EXP", NOVELTY_EXP))
    thread_exp = float(params.get("THREAD_WEIGHT_EXP", THREAD_WEIGHT_EXP))
    pool = _no_tiny(store, [p for p in topic_pool(store, ranked_ids) if p[0] not in shown],
                    int(params.get("TOPIC_MIN_MEMBERS", TOPIC_MIN_MEMBERS)))
    if not pool:
        return []
    if all(p[4] is None for p in pool):
        warnings.append(_no_topics_warning(store))
    ids = [p[0] for p in pool]
    # unit rows, not the 1,000 x 1,000 cosines: the greedy reads the column of each pick, parts the cosines
    # inside each cluster they split
    mat = unit_rows(store, ids)
    key = parts(pool, None, int(params.get("PART_SIZE", PART_SIZE)), rows=subject_rows(store, ids, mat))
    topics = _Shells(store, pool, key, named)

    lines = [memory_line(p[0], p[1], p[2], source=p[3].split("/", 1)[0]) for p in pool]
    bare = list(lines)  # without the plan's note: what the information is read from
    if not b.lazy:
        lines = [line + days.note(p[0], p[1], p[2], today) for line, p in zip(lines, pool)]
    # a line's tokens: counted now, or (b.lazy) a lower bound until it could be chosen (_exact)
    counted = np.full(len(pool), not b.lazy)
    cost = np.array([b.count(f"- {t}\n") if not b.lazy else max(1, min_tokens(t)) for t in lines],
                    dtype=np.float64)
    # lines holding each word (one Counter over all: its C loop, not an update per line)
    df: Counter[str] = Counter(chain.from_iterable({w.lower() for w in _WORD.findall(line)} for line in bare))
    rare_max = max(1.0, RARE_SHARE * len(pool))
    info = np.zeros(len(pool))
    texts = [line.split(" ", 2)[2] for line in bare]
    for i, (text, units) in enumerate(zip(texts, information(texts, lambda w: df[w] <= rare_max))):
        # the first person adds to what a line says, never makes a line of it ("works for me", "I'm in")
        info[i] = units + (first_person if (units or not FIRST_PERSON_NEEDS_INFO) and _FIRST_PERSON.search(text)
                           else 0.0)
    reacting = brief_reactions.credit(pool, texts, info)
    # (brief28) what the nightly decay archived is chosen after what is live (brief_pool.FADED_VALUE)
    faded = brief_pool.faded_ids(store, ids) if brief_pool.FADED_TOPICS else set()
    weight = np.array([brief_pool.FADED_VALUE if i in faded else 1.0 for i in ids])
    value = weight * (density_floor + info) / np.power(cost, cost_exp)

    chat_of = [p[3] for p in pool]
    chat_picks: Counter[str] = Counter()
    index_of = {k: n for n, k in enumerate(sorted(set(key), key=lambda k: (k[0] is None, k[0] or 0, k[1])))}
    topic_of = np.array([index_of[k] for k in key], dtype=np.int64)
    chat_index = {c: n for n, c in enumerate(sorted(set(chat_of)))}
    chat_arr = np.array([chat_index[c] for c in chat_of], dtype=np.int64)
    chat_factor = np.ones(len(chat_index))
    max_sim = np.zeros(len(pool), dtype=np.float64)
    alive = np.ones(len(pool), dtype=bool)
    # a chat's reaction takes no line (round 8): it says nothing of its own, and its news gained its credit; shown,
    # the "haha"s and "🔥"s of every exchange sat inside the topics (bench/README.md, "Brief, round 8")
    alive[sorted(reacting)] = False
    per_topic: Counter[tuple[int | None, int]] = Counter()
    per_faded: Counter[tuple[int | None, int]] = Counter()
    pick = 0
    capped = np.zeros(len(pool), dtype=bool)  # left out only because their topic part had its lines
    end_tokens = float(params.get("END_SHARE", END_SHARE)) * b.total
    rounds = ((PER_TOPIC_MAX, None), (int(params.get("LEFTOVER_PER_TOPIC_MAX", LEFTOVER_PER_TOPIC_MAX)), 0.5),
              (10**9, float(params.get("LAST_QUANTILE", LAST_QUANTILE))))[: 3 if params.get("LAST_ROUND", 1) else 2]
    for cap, quantile in rounds:
        if quantile is not None:
            # budget left and nothing else worth a line: the lines the cap kept out (a few busy
            # topics of a small chat hold most of what it says), up to ``cap`` a part, if they say
            # as much as the median line of the store that says something (not "lol look at
            # this": in a small store every word is rare, so nearly every line says a little);
            # then, budget still left, any line that says something, whatever its part: a pair of
            # reactions is no topic (TOPIC_MIN_MEMBERS), so what is in no topic is a large part
            informative = info[info > 0]
            if not len(informative):
                break
            # (brief28) what faded takes no leftover line: its topic's first PER_TOPIC_MAX say what it was
            alive = capped & (info > 0) & (info >= float(np.quantile(informative, quantile))) & (weight >= 1.0)
            for t_full, n_shown in per_topic.items():  # a part that has ``cap`` lines already takes none
                if n_shown >= cap:
                    alive &= topic_of != index_of[t_full]
        while alive.any():
            if b.total - b.used < end_tokens:
                break  # a nearly full brief: what still fits is found only by counting many lines
            # a line longer than what is left never fits, now or later (it would be looked at and
            # dropped in turn, changing nothing else): dropped at once, uncounted ones by their bound
            alive &= cost <= b.total - b.used
            novelty = np.power(np.clip(1.0 - max_sim, 0.0, 1.0), novelty_exp)
            score = np.where(alive, value * novelty * chat_factor[chat_arr], -1.0)
            best = int(np.argmax(score))  # the first maximum: the lowest id on ties
            while not counted[best] and score[best] > 0:
                # its score is an upper bound (its cost a lower bound): count it, and look again. The
                # maximum found on a counted line is the maximum of the exact scores, and the same first
                # one on ties (an uncounted line's bound is >= its exact score). One element is
                # recomputed by the same operations as the whole array: the same value, bit for bit.
                lines[best] += days.note(pool[best][0], pool[best][1], pool[best][2], today)
                cost[best] = b.count(f"- {lines[best]}\n")
                counted[best] = True
                one = slice(best, best + 1)
                value[one] = weight[one] * (density_floor + info[one]) / np.power(cost[one], cost_exp)
                score[one] = value[one] * novelty[one] * chat_factor[chat_arr[one]]
                best = int(np.argmax(score))
            if score[best] <= 0:
                break
            alive[best] = False
            t = key[best]
            if b.used + cost[best] + (0 if per_topic[t] else 4) > b.total:
                continue  # does not fit even with the shortest heading: no need to name its topic
            # a topic's first line is its lead: its heading carries it (Topic.heading), counted as one line; a
            # line that only reacts ("LETS GOOOO", "merci Madame Dubois": brief_reactions) or greets ("tell Grandpa I
            # said hi and ...") leads nothing
            lead = not per_topic[t] and t[0] is not None and best not in reacting \
                and not brief_reactions.is_reaction(texts[best]) and not brief_reactions.is_greeting(texts[best])
            need = int(cost[best]) if per_topic[t] else \
                b.count(f"### {topics[t].title()}{LEAD_SEP}{lines[best]}\n") if lead else \
                int(cost[best]) + b.count(f"### {topics[t].title()}\n")
            if b.used + need > b.total:
                continue  # too long for what is left; a shorter one may still fit
            b.used += need
            pick += 1
            per_topic[t] += 1
            chat_picks[chat_of[best]] += 1
            # one large chat cannot take the budget: each pick from a chat lowers its next ones
            chat_factor[chat_arr[best]] = 1.0 / (1.0 + chat_picks[chat_of[best]]) ** thread_exp
            topics[t].items.append(Item("topics", lines[best], need if lead else int(cost[best]), pool[best][0], t[0], why={
                **({"lead": True} if lead else {}), "pick": pick, "topic": topics[t].label(), "part": t[1],
                "information": round(float(info[best]), 2), "novelty": round(float(novelty[best]), 3),
                "centrality": round(pool[best][5], 3), "tokens": int(cost[best]),
                **_shared(pool[best][3].split("/", 1)[0])}))
            col = cosine_column(mat, best)
            max_sim = np.maximum(max_sim, col)
            alive &= col < DUPLICATE_COS  # the same thing said again
            capped &= col < DUPLICATE_COS
            per_faded[t] += weight[best] < 1.0
            if per_faded[t] >= brief_pool.FADED_PER_TOPIC:  # (brief28) what faded: its lead and one more line
                alive &= (topic_of != index_of[t]) | (weight >= 1.0)
            if per_topic[t] >= cap:
                full = topic_of == index_of[t]
                capped |= alive & full
                alive &= ~full
    chosen = [topic for topic in topics.values() if topic.items]
    # topics in the order of their first pick (the most valuable first), memories in no topic
    # last; inside a topic, by date: it reads as a story
    chosen.sort(key=lambda topic: (topic.id is None, min(i.why["pick"] for i in topic.items)))
    for topic in chosen:
        topic.items.sort(key=lambda i: (i.text[:10], i.id or 0))
    by_id = {p[0]: p for p in pool}
    _newer_lead(chosen, by_id, days, today, b)
    _plans_in_order(chosen, by_id, days, today)
    return chosen


def _newer_lead(chosen: list[Topic], by_id: Mapping[int, tuple[Any, ...]], days: brief_upcoming.PlanDays,
                today: date, b: _Budget) -> None:
    """(brief22) A topic's lead is what an agent reads of it first, in its heading: a lead that plans only days
    already past ("rendez-vous chez le Dr Morel mardi 13 octobre", read on the 31st) is history when a later line of
    the topic says what came of it ("Dr Morel : bronchite ..."). The line written after the lead that says most
    (its information, at least half the lead's), names the topic's subject (a word of its name), is no reaction or
    greeting and no past plan itself, leads instead; the
    old lead stays one of its lines (nothing is added or dropped; the tokens are counted again and the swap is left
    out if they no longer fit)."""
    def past_plan(item: Item) -> bool:
        p = by_id.get(item.id) if item.id is not None else None
        planned = days.of(p[0], p[1], p[2]) if p is not None else []
        return bool(planned) and max(planned) < today

    for topic in chosen:
        lead = topic.lead()
        if lead is None or topic.name == MIXED or not past_plan(lead):
            continue
        # a line of the topic's own subject (its name's words): a topic's members are not all of one subject
        named = {topic_names.fold(w) for w in _WORD.findall(topic.name)}
        later = [i for i in topic.items if i is not lead and i.id is not None and i.text[:10] > lead.text[:10]
                 and named & {topic_names.fold(w) for w in _WORD.findall(str(by_id[i.id][1]))}
                 and not past_plan(i) and not brief_reactions.is_reaction(str(by_id[i.id][1]))
                 and not brief_reactions.is_greeting(str(by_id[i.id][1]))]
        if not later:
            continue
        # the one that says most (a reply, "super nouvelle", says little), at least half what the lead says
        new = max(later, key=lambda i: (float(i.why.get("information", 0.0)), i.text[:10], i.id or 0))
        if float(new.why.get("information", 0.0)) < 0.5 * float(lead.why.get("information", 0.0)) or \
                not float(new.why.get("information", 0.0)):
            continue
        heading = b.count(f"### {topic.title()}{LEAD_SEP}{new.text}\n")
        line = b.count(f"- {lead.text}\n")
        delta = heading + line - lead.tokens - new.tokens
        if b.used + delta > b.total:
            continue
        b.used += delta
        lead.why.pop("lead", None)
        new.why["lead"] = True
        lead.tokens, new.tokens = line, heading


def _plans_in_order(chosen: list[Topic], by_id: Mapping[int, tuple[Any, ...]], days: brief_upcoming.PlanDays,
                    today: date) -> None:
    """Plans read in the order of their days wherever they show: the topics whose first plan still ahead (in
    display order: the lead, then the lines) keep their places among the others, and take them in the order of
    that day (a small brief's "Coming up" has room for the soonest plans only; the later ones show in topics,
    which come in the order of their value). Every topic keeps its lines; nothing is added or dropped."""
    slots: list[int] = []
    firsts: list[tuple[date, int, Topic]] = []
    for n, topic in enumerate(chosen):
        if topic.id is None:
            continue  # the memories in no topic stay last
        lead = topic.lead()
        for item in ([lead] if lead else []) + [i for i in topic.items if i is not lead]:
            p = by_id.get(item.id) if item.id is not None else None
            ahead = [d for d in days.of(p[0], p[1], p[2]) if d >= today] if p is not None else []
            if ahead:
                slots.append(n)
                firsts.append((ahead[0], n, topic))
                break
    for n, (_when, _n, topic) in zip(slots, sorted(firsts, key=lambda f: (f[0], f[1]))):
        chosen[n] = topic


def _no_tiny(store: Store, pool: list[tuple[int, str, str | None, str, int | None, float]],
             min_members: int = TOPIC_MIN_MEMBERS) -> list[tuple[int, str, str | None, str, int | None, float]]:
    """The pool with the members of clusters smaller than TOPIC_MIN_MEMBERS in no cluster.

    A pair of chat reactions ("legend" / "amazing") or of two notes is no subject; shown as a
    topic each such pair took a heading and a line. The cluster's own size decides (a large
    store's pool holds only some members of a cluster)."""
    cids = sorted({p[4] for p in pool if p[4] is not None})
    small: set[int] = set()
    for chunk in range(0, len(cids), 500):
        part = cids[chunk: chunk + 500]
        small.update(int(r[0]) for r in store.conn.execute(
            f"SELECT id FROM clusters WHERE id IN ({','.join('?' * len(part))}) AND member_count < ?",
            (*part, min_members)))
    if SMALL_TALK_OUT:  # an exchange of banter is no topic either (memengine/brief_smalltalk.py)
        people = {w for k in store.known_people() for w in [k, *k.split()]}
        small |= brief_smalltalk.small_talk([p for p in pool if p[4] not in small], people)
    if not small:
        return pool
    return [(p[0], p[1], p[2], p[3], None, 0.0) if p[4] in small else p for p in pool]


class _Shells(brief_naming.Shells[Topic]):
    """A Topic per (cluster, part) of the pool, named when first asked for (memengine/brief_naming.py)."""

    def make(self, k: tuple[int | None, int], name: str, size: int, parts: int) -> Topic:
        return Topic(k[0], k[1], name, size, parts=parts)

