"""Updates said without a change word: a value countered, preferred or settled (issue 19, round 9).

"make it 6:30 on sunday" and "the cabin moved to 19-22" carry a change cue (memengine/fact_cue.py);
"sunday works better, 7pm?" after "dinner sat 8pm?", "can't do 11, 1pm?", "can we do the 21st",
"actually let's make dues 15" do not, yet each replaces the value before it. They are said with a
handful of idioms, the same in every chat: a preference ("works better", "suits her better",
"rather than", "I'd prefer"), a counter-proposal ("can we do", "how about", "let's say", "make
it"), a refusal of the value before ("can't do 11"), a correction ("actually", "in the end",
"turns out"), a start ("from next month"), a settlement ("7 then", "the 21st it is"). This module
only says whether a turn holds one (a regular expression on the lower-cased text, ~3 us); whether
it changes an earlier turn's value is decided by memengine/recall/updates.py as for a change cue (a
value of one kind on both sides, not the same ones).
"""

from __future__ import annotations

import functools
import re

from memengine import recache

# (compiled on first use, as the lexicon's fold is imported: a recall that reads no pair pays neither)
_IDIOMS = (
    r"\b(?:"
    # a preference
    r"(?:works?|suits?|is|'s|be|sounds?) (?:\w+ )?better(?! than)|better for (?:me|us|her|him|them)|rather than|"
    r"(?:i'?d|we'?d) (?:rather|prefer)|prefers?\b|"
    # a counter-proposal, a refusal of the value before
    r"can we (?:do|make it|say|move it|go)|could we (?:do|make it|say)|how about|what about|"
    r"let'?s (?:do|make|say|go with|keep it)|make (?:it|that)|can'?t do|cannot do|no can do|"
    # a correction, a start
    r"actually|in the end|turns out|after all|from (?:this|next) (?:week|month|year|term)|"
    # a settlement ("7 then", "ok 7 then", "the 21st it is")
    r"\w+ then$|\w+ it is$|"
    # French: plutôt, finalement, en fait, ça marche mieux, on peut faire
    r"plutot|finalement|en fait|(?:marche|va) mieux|on peut faire|on dit"
    r")"
)


def _fold(text: str) -> str:
    from memengine.fact_lexicon import fold

    return fold(text)


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return recache.fixed(pattern)  # (the module's own: kept for the next one-shot call, memengine/recache.py)


def counters(text: str) -> bool:
    """Whether a chat turn's bare text holds a counter / preference / settlement idiom (no value read)."""
    low = text.lower().replace("’", "'").strip(" .!?")
    if not low.isascii():
        low = _fold(low)
    return _compiled(_IDIOMS).search(low) is not None


# What a question asks for, by its first words: a time ("when", "what time", "which day"), an amount
# ("how much", "how many", "how long"); another question names no kind (None). An update pair ranked for a
# question must change a value of the kind it asks: "how many people is the booking for?" is not
# answered by "dinner sat 8pm?" / "sunday works better, 7pm?", two top hits of the same chat.
_ASKS = (
    (r"\b(?:what|which) (?:time|day|date|week|month|year|night|evening|morning)\b|\bwhen\b|"
     r"\bwhat (?:day|time) of\b|\bquand\b|\bquel(?:le)? (?:jour|heure|date)\b|\ba quelle heure\b|"
     # German, Spanish, Portuguese (round 10)
     r"\bwann\b|\bum wie ?viel uhr\b|\ban welchem (?:tag|datum)\b|\bcuando\b|\ba que hora\b|\bque dia\b|"
     r"\bquando\b|\ba que horas\b",
     frozenset({"time", "date", "weekday", "number"})),  # (a day of the month is a number: "the 14th", "19-22")
    (r"\bhow (?:much|many|long|far|old|often|big|tall|heavy)\b|\bwhat(?:'s| is| are)? the "
     r"(?:price|cost|number|amount|total|score|rent)\b|\bcombien\b|\bwie ?viele?\b|\bwie lange?\b|"
     r"\bcuant[oa]s?\b|\bquant[oa]s?\b",
     frozenset({"number", "number:*"})),  # (any unit)
)


def asked_kinds(question: str) -> frozenset[str] | None:
    """The value kinds a question asks for, or None when it names none."""
    low = question.lower().replace("’", "'")
    if not low.isascii():
        low = _fold(low)
    kinds = [k for pattern, k in _ASKS if _compiled(pattern).search(low)]
    return frozenset().union(*kinds) if kinds else None


def kind_fits(changed: set[str], asked: frozenset[str] | None) -> bool:
    """Whether a pair whose values of the kinds ``changed`` differ answers a question asking ``asked``
    ("number:*": a number of any unit; "number": one without a unit)."""
    return asked is None or any(k in asked or k.split(":", 1)[0] + ":*" in asked for k in changed)


# A question asking for the value before a change ("what did the movers quote at first?", "what did the
# garage first quote?", "ursprünglich", "au départ"): the earlier turn is the answer, nothing is moved above it.
_FIRST = (r"\bat first\b|\boriginal(?:ly)?\b|\binitial(?:ly)?\b|\bin the first place\b|\bto begin with\b|"
          r"\b(?:did|do|does|was|were|had)\b[^?]*\bfirst\b|\bd'abord\b|\bau (?:depart|debut)\b|\binitialement\b|"
          r"\bursprunglich\b|\bzuerst\b|\banfangs\b|\bal principio\b|\boriginalmente\b|\binicialmente\b")


def asks_first(question: str) -> bool:
    """Whether a question asks for the value as first said, before any change."""
    low = question.lower().replace("’", "'")
    if not low.isascii():
        low = _fold(low)
    return _compiled(_FIRST).search(low) is not None
