"""The answer to a top hit's question, brought into the tail (ranks after the first ``keep``; issue 19, round 24).

In a chat the words of a subject and the answer about it are often in different turns, by different people:
"what's it called" / '"Maré Cheia". full tide'; "I survived my first orgo midterm" / "and??" / "88!!! I studied
every night"; "Dad's results weren't great" / "What did they find?" / "two of his arteries are badly blocked".
A question shares its words with the asker's turn (a hit), the answer shares none, and ranks far below: its
context column and context vector hold the subject at a fraction, as every neighbour's do, and the reply prior
hands it 0.05 of its question's score. ``follow.py`` places such an answer after its hit when the question asks
for a value (a time, a date, an amount); this step does it for any question, on the tail only:

* a **seed** is one of the first ``seeds`` hits that is a chat turn;
* its **prompt** is the seed itself when it asks (ends with a question mark), else the first turn by another
  author among the next ``PROMPT_SPAN`` of its thread that asks ("and??", "What did they find?");
* the **answer** is the first turn after the prompt, within ``ANSWER_SPAN`` turns and ``ANSWER_HOURS``, by
  another author than the prompt's, that says something (a content word or a digit: "88!!!", "SECOND PLACE";
  "haha", "omg" are passed over); a question back first means no answer;
* an answer below that place goes right after its seed (after its prompt when the prompt follows the seed in
  the results), never above rank ``keep`` + 1 nor at ``depth`` or below: the first ``keep`` results never move, so
  recall@``keep`` cannot change; what moves is the order of ranks ``keep`` + 1 onwards.

Pure over the candidates and one indexed range read per seed (``next_turns``, as follow.py's): O(seeds).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memengine.recall.answerable import answer_share
from memengine.recall.episodes import is_episode
from memengine.records import Candidate
from memengine.text import bare_text
from memengine.timeparse import hours_between

PROMPT_SPAN = 2  # a prompt follows its seed within two turns (the teller may add a line first)
ANSWER_SPAN = 2  # the answer follows its prompt within two turns (the asker may add a line first)
ANSWER_HOURS = 6.0  # one stretch of the chat (the context columns' session gap)
_ASKS = re.compile(r"[?？؟]\W*$")  # ends with a question mark, emoji and punctuation after it aside
_WORD = re.compile(r"\w+", re.UNICODE)
_SAID = re.compile(r"\w[\w'’]*", re.UNICODE)  # a word as said ("what's" is one)
# a turn of at most ASK_WORDS words opening with a question word asks without a question mark ("where", "how
# much", "what's it called"): chats drop the mark
ASK_WORDS = 5
_QUESTION_WORDS = frozenset(
    "what where when who whom whose which why how "  # en
    "wo wann wer was wie welche welcher warum wieviel "  # de
    "où quand qui quoi comment combien pourquoi "  # fr
    "dónde donde cuándo cuando quién quien qué cómo como cuánto cuanto "  # es
    "onde quando quem quanto "  # pt (que, como: es)
    "waar wanneer wat hoe hoeveel "  # nl
    "dove chi cosa come quanto perché "  # it
    "hvor når hva hvem hvordan hvorfor hvilken "  # nb/da
    "var när vad vem hur vilken".split())  # sv

NextTurns = Callable[[list[Candidate], int], dict[int, list[Candidate]]]


def asks(c: Candidate) -> bool:
    """Whether a turn asks: its own text ends with a question mark (in any script's form), or it is a few words
    opening with a question word."""
    text = bare_text(c.content, c.author).strip()
    if _ASKS.search(text):
        return True
    words = _SAID.findall(text.lower())
    return 0 < len(words) <= ASK_WORDS and re.split(r"['’]", words[0])[0] in _QUESTION_WORDS


def says_something(c: Candidate) -> bool:
    """Whether a turn says something: not a reaction ("haha", "omg ok"; answerable.py's reading, the brief's
    reaction detector: a content word or a digit is enough: "88!!!", "SECOND PLACE")."""
    return answer_share(c, 1) > 0


def _answer_after(seed: Candidate, turns: list[Candidate], gate: str = "") -> Candidate | None:
    """The answer of ``seed``'s question (``turns``: the next turns of its thread, in order), or None. ``gate``
    "self": only a seed that asks itself; "prompt": only a seed a prompt after it asks about."""
    prompt: Candidate | None = seed if asks(seed) else None
    rest = turns
    if (prompt is None and gate == "self") or (prompt is not None and gate == "prompt"):
        return None
    if prompt is None:
        for i, t in enumerate(turns[:PROMPT_SPAN]):
            if t.author != seed.author and asks(t) and not is_episode(t):
                prompt, rest = t, turns[i + 1:]
                break
        if prompt is None:
            return None
    else:
        rest = turns
    for t in rest[:ANSWER_SPAN]:
        if is_episode(t) or hours_between(prompt.event_at, t.event_at) > ANSWER_HOURS:
            return None
        if t.author and t.author == prompt.author:
            continue  # (the asker going on)
        if asks(t):
            return None  # (a question back: no answer here)
        if says_something(t):
            return t
        # ("haha", "omg": the answer may come next)
    return None


def answer_tail(ranked: list[Candidate], depth: int, seeds: int, keep: int, next_turns: NextTurns,
                query: str = "", gate: str = "") -> list[Candidate]:
    """``ranked`` with the answer of each of its first ``seeds`` chat turns' questions (see the module doc) moved or
    brought in right after its seed, below the first ``keep``, when it is not among the first ``depth`` already.
    ``gate`` "subject": only seeds whose own text shares a content-word stem with ``query`` (updates.stems); "self" /
    "prompt": only seeds that ask themselves / that a prompt after them asks about."""
    if seeds <= 0 or len(ranked) <= keep:
        return ranked
    firsts = [c for c in ranked[:seeds] if c.thread is not None and c.position is not None and not is_episode(c)]
    if gate == "subject":
        from memengine.recall.updates import stems

        asked = stems(query)
        firsts = [c for c in firsts if asked & stems(bare_text(c.content, c.author))]
    if not firsts:
        return ranked
    span = PROMPT_SPAN + ANSWER_SPAN
    after = next_turns(firsts, span)
    out = list(ranked)
    floor = keep  # the next free rank right below the kept ones (answers of seeds above it go there, in order)
    for seed in firsts:
        turns = [t for t in after.get(seed.id, []) if (t.position or 0) <= (seed.position or 0) + span]
        answer = _answer_after(seed, turns, gate)
        if answer is None:
            continue
        at = next(i for i, c in enumerate(out) if c.id == seed.id) + 1
        # right after the seed, and after the turns between it and the answer that follow it there (its prompt)
        while at < len(out) and out[at].thread == seed.thread and out[at].id != answer.id \
                and (seed.position or 0) < (out[at].position or -1) < (answer.position or 0):
            at += 1
        place = max(at, floor)
        have = next((i for i, c in enumerate(out) if c.id == answer.id), None)
        if have is not None and (have <= place or have < keep):
            continue  # (at or above that place already: fusion's order stands)
        if place >= depth:
            continue  # (below the depth the steps rank: no change the caller would see)
        if have is not None:
            answer = out.pop(have)
        answer.score = out[place - 1].score
        out.insert(place, answer)
        if place == floor:
            floor += 1
    return out
