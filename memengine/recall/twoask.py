"""A question that asks two things, answered by two turns of one burst (issue 19, round 37).

People ask their own history two things at once: "Where did dad's dinner end up, and why did it move?", "What brand
was the stolen bike and what had it cost?", "When does the settling-in start, and who goes with her?", "Why did we
lose the first hall, and did we get the money back?". The whole question's words and vector are mostly the first
part's, so the turn answering it ranks first; the second part ("and why", "who goes with her", "what had it cost")
shares little with anything, and the turn answering it — in a chat, nearly always a turn of the same burst, a line
before or after ("the Vicarage has shut down" / "The Plough at Findern?"; "das Gazelle?" / "1100 Euro vor zwei
Jahren"; "Eingewöhnung ist ab dem 3. August" / "das mach ich, ich nehm Urlaub") — ranks 6th to 40th among every other
turn that happens to share a word.

Held-outs 35 and 30 (bench/recall37_misses.py): of the evidence turns outside the first five, 32 of 61 and 19 of 58
sit within three turns of a top-five hit; most belong to such two-part questions. Expanding every top hit's burst
(rounds 3, 10, 24: chunk windows, session expansion, the answer to a top hit's question) brought chaff in for the
one-part questions, which are most questions. This step reads the *question's* structure instead: only a question
that asks two things pairs its top hits with a turn of their burst.

* a question **asks two things** when a second question word opens a coordinated part ("…, and who …", "und wann",
  "y cuánto", "e quem", "i ile", "en waarom"; "…, and did …") or two question words are joined ("when and where");
* a **seed** is one of the first ``seeds`` hits that is a chat turn;
* its **partner** is the best-scored turn (fusion's score; an unscored turn counts below every scored one) within
  ``PAIR_SPAN`` turns of it in its thread and ``PAIR_HOURS`` of it, that says something ("haha", "omg", "👍" are
  passed over) and is no seed;
* a partner ranked below its seed's next place goes right after its seed (or after the partner already brought in
  for an earlier seed), never at ``depth`` or below; the seeds themselves never move down by more than the partners
  placed above them.

Pure over the candidates and one indexed read of the seeds' thread ranges (``burst``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memengine.recall.answers import says_something
from memengine.recall.episodes import is_episode
from memengine.records import Candidate
from memengine.timeparse import hours_between

PAIR_SPAN = 3  # a partner is within three turns of its seed (a question, a reaction, the answer)
PAIR_HOURS = 6.0  # one stretch of the chat (the context columns' session gap)

# question words of the languages recall reads, as a coordinated part opens with them
_WH = {
    "en": r"who|whom|whose|what|when|where|why|how|which",
    "de": r"wer|wen|wem|wessen|was|wann|wo|wohin|woher|warum|wieso|wie|welche[nrms]?",
    "fr": r"qui|quand|où|pourquoi|comment|combien|quel(?:le)?s?|que|quoi",
    "es": r"quién|quien|cuándo|cuando|dónde|donde|por ?qué|cómo|cuánto|cuánta|qué|cuál",
    "pt": r"quem|quando|onde|por ?que|porque|como|quanto|quanta|qual|o que",
    "it": r"chi|quando|dove|perché|come|quanto|quanta|cosa|quale",
    "pl": r"kto|kiedy|gdzie|dlaczego|czemu|jak|ile|co|który|która|które",
    "nl": r"wie|wanneer|waar|waarom|hoe|hoeveel|wat|welke",
}
_AND = {"en": r"and|&", "de": r"und", "fr": r"et", "es": r"y|e", "pt": r"e", "it": r"e|ed", "pl": r"i|a", "nl": r"en"}
# "…, and did we get the money back?": a yes/no part after a comma (English auxiliaries; other languages mark such a
# part with no word of their own)
_YESNO = r",\s*and\s+(?:did|does|do|was|were|is|are|has|have|had|can|could|will|would)\b"
_TWO = re.compile("|".join(
    [rf"(?:^|[\s,;])(?:{_AND[lang]})\s+(?:{wh})(?=[\s,?'’]|$)" for lang, wh in _WH.items()] + [_YESNO]),
    re.IGNORECASE)
_FIRST_WH = re.compile("|".join(rf"^\s*(?:{wh})\b" for wh in _WH.values()), re.IGNORECASE)

Burst = Callable[[list[Candidate], int], dict[int, list[Candidate]]]


def asks_two(query: str) -> bool:
    """Whether ``query`` asks two things: a coordinated part opening with a question word (or, in English, an
    auxiliary after a comma), in a question that opens with a question word itself or has one before that part."""
    m = _TWO.search(query)
    if m is None:
        return False
    head = query[:m.start()]
    return bool(_FIRST_WH.search(head)) or bool(re.search(
        "|".join(rf"\b(?:{wh})\b" for wh in _WH.values()), head, re.IGNORECASE))


def pair_burst(ranked: list[Candidate], depth: int, seeds: int, query: str, burst: Burst) -> list[Candidate]:
    """``ranked`` with the partner of each of its first ``seeds`` chat turns (see the module doc) right after it,
    when ``query`` asks two things; unchanged otherwise. ``burst`` reads, for each seed, the turns within a span of
    it in its thread (both sides, the seed excluded)."""
    if seeds <= 0 or len(ranked) < 2 or not asks_two(query):
        return ranked
    firsts = [c for c in ranked[:seeds] if c.thread is not None and c.position is not None and not is_episode(c)]
    if not firsts:
        return ranked
    near = burst(firsts, PAIR_SPAN)
    out = list(ranked)
    order = {c.id: i for i, c in enumerate(out)}
    seed_ids = {c.id for c in firsts}
    placed: set[int] = set()
    for seed in firsts:
        turns = [t for t in near.get(seed.id, []) if t.id not in seed_ids and t.id not in placed
                 and not is_episode(t) and hours_between(seed.event_at, t.event_at) <= PAIR_HOURS
                 and says_something(t)]
        if not turns:
            continue
        # fusion's order decides among the burst (unscored turns last, the nearer first)
        partner = min(turns, key=lambda t: (order.get(t.id, len(out)), abs((t.position or 0) - (seed.position or 0))))
        at = next(i for i, c in enumerate(out) if c.id == seed.id) + 1
        while at < len(out) and out[at].id in placed:
            at += 1  # (after the partners brought in for the seeds above)
        have = next((i for i, c in enumerate(out) if c.id == partner.id), None)
        if at >= depth or (have is not None and have <= at):
            continue  # (at or above that place already, or below what the caller sees: fusion's order stands)
        if have is not None:
            partner = out.pop(have)
        partner.score = out[at - 1].score
        out.insert(at, partner)
        placed.add(partner.id)
    return out


def burst_reader(conn: object, where: str, args: list[object]) -> Burst:
    """A :data:`Burst` over ``conn``: the turns within ``span`` positions of each seed in its thread (both sides, the
    seed excluded) passing the recall's filter (``where``/``args``), in one read (an OR of indexed thread ranges)."""
    def read(seeds: list[Candidate], span: int) -> dict[int, list[Candidate]]:
        out: dict[int, list[Candidate]] = {s.id: [] for s in seeds}
        ranges = [(s.id, s.thread, s.position or 0) for s in seeds if s.thread is not None]
        if not ranges:
            return out
        cond = " OR ".join("(m.thread = ? AND m.position >= ? AND m.position <= ?)" for _ in ranges)
        params = [a for _, thread, pos in ranges for a in (thread, pos - span, pos + span)]
        rows = conn.execute(  # type: ignore[attr-defined]
            f"SELECT {Candidate.COLUMNS} FROM memories m WHERE ({cond}) AND {where} "
            f"ORDER BY m.thread, m.position, m.id", [*params, *args]).fetchall()
        turns = [Candidate(r) for r in rows]
        for sid, thread, pos in ranges:
            out[sid] = [t for t in turns if t.thread == thread and t.id != sid and t.position is not None
                        and abs(t.position - pos) <= span]
        return out
    return read


MODES = ("", "burst", "next", "tail")


def two_asks(ranked: list[Candidate], depth: int, query: str, mode: str, conn: object, where: str,
             args: list[object], later_turns: Callable[[list[Candidate], int], dict[int, list[Candidate]]],
             counts: Callable[[list[str], int], dict[str, int]]) -> list[Candidate]:
    """The step of ``mode`` for a question asking two things (``asks_two``): ``burst`` (:func:`pair_burst`, two
    seeds), ``next`` / ``tail`` (mention.py's next mention of a top hit's subject, right after it / at rank 5 at
    best); ``ranked`` unchanged for any other question or mode."""
    if mode not in MODES or not mode or not asks_two(query):
        return ranked
    if mode == "burst":
        return pair_burst(ranked, depth, 2, query, burst_reader(conn, where, args))
    from memengine.recall.mention import next_mention

    return next_mention(ranked, depth, query, later_turns, counts, mode)
