"""A name replaced after news of the old one, the new name said without the old (issue 19, round 27).

"aannemer wordt Bouwbedrijf Van Dijk" — weeks later "Van Dijk belt net af, te veel werk" — three days later "Kees
Hoogendoorn en zijn zoon hebben getekend! 16 maart beginnen ze met de badkamer". "Gaz at Southville Motors does the
van" — "Southville Motors has closed" — "Phil at Feeder Road Autos can take her, he did the clutch quote too". The
turn holding the current answer names neither the old name nor the kind of thing asked ("wie is onze aannemer?"):
it shares no word with the question, so it is rarely a candidate at all, and renamed.py (a later turn naming the old
name AND a new one) does not see it.

The link read here goes through the news: from a top hit stating a name (the slot's old value) and saying a word
of the question (or one beginning alike: "aannemer", "prep", "despedida"; a top hit about another slot has successors
of its own),

1. the later turns of its thread (or of its person's other conversations in an assistant export) that name one of
   its names again, the last NEWS of them, read from the keyword index (a rare name: a few postings), and of those
   the ones saying it ends: a word of :data:`_END` (closing, retiring, leaving, cancelled, bust, in seven languages)
   within END_NEAR words of the name ("Van Dijk belt net af", "Merceria Lolli chiude"; not "noi stiamo benissimo da
   Gianni", not "Buxton's mince was 30% fat again"). News naming a new name itself is renamed.py's link: no chain;
2. within the SPAN turns after the news, the first statement introducing a name: its first name said there for the
   first time in the thread and none of the hit's or the news' (a third party the chat knows first, "Andrea si è
   trasferito a Milano", is no successor), sharing a content word with the hit or the news: the slot said again
   ("badkamer", "clutch", "an hour").

That turn goes right above the hit, which is returned as possibly outdated by it: nothing leaves the results.
Only for questions asking a name (renamed.asks_name, "what" included). Cost: per seed one indexed keyword read and
one thread range read per news turn; the texts read are the few turns fetched (O(SEEDS x (NEWS + SPAN))).

How each gate was chosen (marks on held-outs 12-24, right = the successor is the question's evidence; round 25 had
tried successors without the news and found 0-1 right to 17-48 wrong, bench/README.md "Round 25"): any change word
in the news, a "now" within three turns enough for the successor, any top-3 hit a seed: 8 right, 20 wrong; the news
word beside the old name, no assistant's turn a seed, the seed saying a question's word: 3 right, 6 wrong; the
successor's "now" path off: 3 / 2; news by an ending word only (not updates.change_word, whose "again" or "moved"
name other news): 3 right, 1 wrong (a setlist question over a gig venue, held-out 18).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection
from typing import Any

from memengine.recall.counter import asks_first
from memengine.recall.episodes import is_episode
from memengine.recall.renamed import _names, _said, _short, _when, asks_name
from memengine.recall.updates import ACROSS_CHATS, lift_newer, person_source
from memengine.records import Candidate
from memengine.text import bare_text, quote_fts

SEEDS = 3
NEWS = 40  # the last mentions of the old name after a seed read for news
SPAN = 10  # the turns after a news turn where its successor may be
END_NEAR = 4  # words between an old name and the word saying it ends
POSTINGS = 400  # keyword-index postings read per name lookup (a bound at any store size)
STEM = 5  # letters a question's word and a seed's share to say the same ("tocadas" / "tocada")

# (seeds with their old names as written) -> {seed id: later turns naming one of them, oldest first}
Mentions = Callable[[list[tuple[Candidate, list[str]]], int], dict[int, list[Candidate]]]
TurnsAfter = Callable[[list[Candidate], int], dict[int, list[Candidate]]]
SaidBefore = Callable[[Candidate, str], bool]

_WORD = re.compile(r"[^\W\d_]+")

# News that a provider, venue or person of a slot is ending there (folded): closing, retiring, leaving, cancelled,
# bust, in the languages recall reads (en, nl, de, fr, es, pt, it). Not the change lexicons of updates.py or the facts
# engine: their "again", "moved", "got" name news of another kind ("Buxton's mince was 30% fat again").
_END = frozenset("""closed close closes closing shut shuts shutting retired retiring retire retires leaving leaves
quit quits quitting cancelled canceled cancelling canceling cancel bankrupt folded stopped stops dropped ending
failliet sluit sluiten gesloten dicht stopt stoppen gestopt opgezegd afgezegd af vertrekt vertrokken verhuist
geschlossen schliesst schliessen zu aufgehort kundigt gekundigt rente pensioniert insolvent pleite weggezogen
ferme fermee fermer fermeture retraite quitte resilie arrete faillite demenage
cierra cerrado cerro cierre jubila jubilo jubilado quiebra cancelado cancela traslada
fecha fechar fechou fechado encerra encerrou reforma reformou sai saiu despediu rescindir rescindi rescindimos
cancelou falencia embora
chiude chiuso chiusa chiusura lascia pensione trasferito trasferita smette smesso annullato disdetto fallito""".split())
def ends(text: str, old: Collection[str]) -> bool:
    """Whether a turn says one of the folded names ``old`` is ending: a word of :data:`_END` within END_NEAR words
    of the name ("Van Dijk belt net af", "Merceria Lolli chiude")."""
    from memengine.fact_lexicon import fold

    words = [fold(w.lower()) for w in _WORD.findall(text)]
    at = [i for i, w in enumerate(words) if w in old]
    return any(words[j] in _END for i in at for j in range(max(0, i - END_NEAR), min(len(words), i + END_NEAR + 1)))


@functools.lru_cache(maxsize=4096)
def _content_words(text: str) -> frozenset[str]:
    """The folded words of a text that may name its slot: 4+ letters, no stop word, no capitalised word (a name
    is the slot's value, not its kind)."""
    from memengine.fact_lexicon import STOPWORDS, fold

    return frozenset(f for w in _WORD.findall(text) if len(w) >= 4 and not w[0].isupper()
                     and (f := fold(w.lower())) not in STOPWORDS)


def successor_first(ranked: list[Candidate], k: int, query: str, mentions: Mentions, turns_after: TurnsAfter,
                    said_before: SaidBefore) -> tuple[list[Candidate], dict[int, list[int]]]:
    """``ranked`` with the successor of a top hit's name (see the module's text) moved just above the hit, and
    ``{hit id: [successor id]}`` (the hits to mark). ``mentions(seeds, n)``: the first ``n`` later turns of each
    seed's thread or person naming one of its names; ``turns_after(turns, span)``: the next ``span`` turns of each
    turn's thread; ``said_before(turn, word)``: whether the turn's thread says ``word`` before it."""
    if k < 2 or not query or asks_first(query) or not asks_name(query, what=True):
        return ranked, {}
    from memengine.fact_lexicon import fold

    top = ranked[:k]
    # (an assistant's answer names what it suggests, not what the person has: no seed)
    seeds = [c for c in top[:SEEDS] if c.thread is not None and not is_episode(c)
             and (c.source not in ACROSS_CHATS or person_source(c) is not None)]
    if not seeds:
        return ranked, {}
    asked = {fold(w.lower()) for w in _WORD.findall(query)}
    authors = {fold(w.lower()) for c in top for w in _WORD.findall(c.author or "")}
    text: dict[int, str] = {}

    def bare(c: Candidate) -> str:
        if c.id not in text:
            text[c.id] = bare_text(c.content, c.author)
        return text[c.id]

    def names(t: str, sure: bool) -> dict[str, str]:
        return {f: w for f, w, s in _names(t) if (s or not sure) and f not in asked and f not in authors}

    # (the seed holds the asked slot: it says a word of the question, or one beginning alike: "aannemer",
    # "prep", "despedida"; a top hit about another slot has its own successors)
    stems = {w[:STEM] for w in _content_words(query)}
    seeds = [a for a in seeds if stems & {w[:STEM] for w in _content_words(bare(a))}]
    olds = {a.id: names(bare(a), True) for a in seeds}
    asks = [(a, sorted(set(olds[a.id].values()))) for a in seeds if olds[a.id]]
    if not asks:
        return ranked, {}
    news = mentions(asks, NEWS)
    # (the news of each seed: said after it, saying one of its names ends, naming no new name itself; read from the
    # texts at hand before any further row is)
    told: dict[int, list[Candidate]] = {}
    for a, _ in asks:
        for b in news.get(a.id, []):
            if b.id == a.id or _when(b) <= _when(a) or not ends(_said(bare(b)), olds[a.id]):
                continue  # (a mention that says nothing ends is no news: "noi stiamo benissimo da Gianni")
            if any(f not in olds[a.id] and not said_before(b, w) for f, w in names(_said(bare(b)), True).items()):
                break  # (the news names the successor itself: renamed.py's link, "cancelled it; ManyPets quoted")
            told.setdefault(a.id, []).append(b)
    if not told:
        return ranked, {}
    after = turns_after([b for bs in told.values() for b in bs], SPAN)
    in_top = {c.id for c in top}
    marks: dict[int, list[int]] = {}
    fetched: dict[int, Candidate] = {}
    for a, _ in asks:
        old = olds[a.id]
        person = person_source(a)
        for b in told.get(a.id, []):
            known = set(names(bare(a), False)) | set(names(bare(b), False))
            slot = _content_words(bare(a)) | _content_words(bare(b))
            got = _successor(after.get(b.id, []), a, person, old, known, slot, bare, names, said_before)
            if got is not None:
                if got.id not in in_top:
                    fetched[got.id] = got
                marks[a.id] = [got.id]
                break
    if not marks:
        return ranked, {}
    pool = [*top, *ranked[k:], *(c for i, c in fetched.items() if i not in {r.id for r in ranked})]
    return lift_newer(ranked, marks, pool), marks


def _successor(turns: list[Candidate], a: Candidate, person: tuple[str, str] | None, old: dict[str, str],
               known: set[str], slot: frozenset[str] | set[str], bare: Callable[[Candidate], str],
               names: Callable[[str, bool], dict[str, str]], said_before: SaidBefore) -> Candidate | None:
    """The first of ``turns`` (after a news turn) introducing a name that succeeds ``a``'s (see the module's text)."""
    for c in turns:
        if is_episode(c) or (person is not None and c.author != a.author):
            continue  # (an assistant's answer names what it suggests, not what the person chose)
        tc = bare(c)
        if not _short(tc):
            continue
        stated = _said(tc)
        every = names(stated, False)
        if not every or any(f in old for f in every):
            continue  # (no name, or the old one said again: more news, renamed.py's case)
        first_f, first_w = next(iter(every.items()))
        if first_f in known or said_before(c, first_w):
            continue  # (a name the chat knows first: a third party, another slot's news)
        sure = names(stated, True)
        if not any(f not in known and not said_before(c, w) for f, w in sure.items()):
            continue
        if _content_words(tc) & slot:
            return c  # (the slot said again: "badkamer", "clutch", "an hour")
    return None


def mentions_after(conn: Any, seeds: list[tuple[Candidate, list[str]]], n: int, where: str,
                   args: list[Any]) -> dict[int, list[Candidate]]:
    """Turns after each seed, in its thread (or, for a person's turn of an assistant export, in any conversation of
    that person: updates.person_source) whose text names one of its ``words``, oldest first: of the keyword index's
    postings of those names after the seed's row (rows are stored in time order: an import, a live thread), the
    LAST ``n`` (the news that a provider ends comes after the turns that use it: a name said 300 times costs 40 row
    reads), then the thread or person filter. ``where``/``args``: the recall's filter on ``memories m``."""
    out: dict[int, list[Candidate]] = {}
    for seed, words in seeds:
        if not words or seed.thread is None:
            continue
        person = person_source(seed)
        if person is not None:
            cond = "((m.thread = ? AND m.position > ?) OR (m.source = ? AND m.author = ? AND m.event_at > ?))"
            near: list[Any] = [seed.thread, seed.position or 0, person[0], person[1], seed.event_at]
        else:
            cond = "m.thread = ? AND m.position > ?"
            near = [seed.thread, seed.position or 0]
        rows = conn.execute(
            # (CROSS JOIN: the postings first, each row read by id; the thread's index would read every later turn)
            f"SELECT {Candidate.COLUMNS} FROM (SELECT rowid AS fid FROM memories_fts WHERE memories_fts MATCH ? "
            f"AND rowid > ? ORDER BY rowid DESC LIMIT ?) AS f CROSS JOIN memories m ON m.id = f.fid WHERE {cond} "
            f"AND {where} ORDER BY m.event_at, m.position, m.id LIMIT ?",
            [_match(words), seed.id, n, *near, *args, n]).fetchall()
        out[seed.id] = [Candidate(r) for r in rows]
    return out


def said_before_in(conn: Any) -> SaidBefore:
    """``said_before(turn, word)`` read from the keyword index: whether one of the last POSTINGS rows before the
    turn's holding ``word`` is a turn of its thread said before it. (pipeline's ``_said_before`` scans the thread's
    earlier turns: for a name said nowhere, every one of them, ~100k texts in a long chat; here a name said nowhere
    has no posting at all.)"""
    def said(turn: Candidate, word: str) -> bool:
        if turn.thread is None:
            return False
        return conn.execute(
            "SELECT 1 FROM (SELECT rowid AS fid FROM memories_fts WHERE memories_fts MATCH ? AND rowid < ? "
            "ORDER BY rowid DESC LIMIT ?) AS f CROSS JOIN memories m ON m.id = f.fid WHERE m.thread = ? "
            "AND m.position < ? LIMIT 1",
            [_match([word]), turn.id, POSTINGS, turn.thread,
             turn.position if turn.position is not None else -1]).fetchone() is not None
    return said


def _match(words: list[str]) -> str:
    return "content : (" + " OR ".join(quote_fts(w) for w in words) + ")"
