"""The state said before the clause that tells why it changed (facts39): "House lager is 5.10 a pint after the duty
rise", "Running club sessions are Tuesdays now, the track wasn't free on Wednesdays", "The sourdough loaf is 4.80
since flour went up", "Galleries go out via ShootProof now that Pixieset put prices up".

memengine/fact_after_event.py reads the event told first and the state after it; people as often say the new state
first and the reason after. Read whole, the reason's words (a duty, a track, flour) stand between the two facts'
slots, and the older's value may be said again in the reason ("wasn't free on Wednesdays"), so the newer seems to
keep it. :func:`state_before` gives the state alone: the newer up to its first reason clause, which is

- a clause opened by a word of cause or of a preceding event, in the languages the engine reads ("after the …",
  "following …", "since …", "now that …", "because …", "due to …", "once …", "tras …", "desde que …", "porque …",
  "nach dem …", "seit …", "weil …", "après …", "parce que …", "dopo …", "perché …", "sinds …", "omdat …"), or
- a later clause (after a comma, a semicolon or a dash) that says a negation ("the track wasn't free on
  Wednesdays", "no more nights", "la pista no estaba libre").

memengine/supersession.py asks the rules and memengine/fact_shift.py about the state alone when the whole decided
nothing or only "probably" (not the learned decision: a reason cut off a look-alike must not make it one slot by
meaning alone); every veto still reads the whole newer. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_lexicon import fold_text

__all__ = ["one_time", "state_before"]

# a clause of cause or of the event before, opened inside the sentence (folded text, so no accents)
_CAUSE = re.compile(
    r"(?:,\s*|\s+-\s+|\s+–\s+|\s+)(?:"
    r"after\s+(?:the|a|an|our|their|his|her|its|[a-z]+'s)\b|following\s+(?:the|a|an|our|their)\b|since\s+(?!\d)|"
    r"now\s+that|because|as\s+(?:the|our|their|it|they|we)\b|due\s+to|thanks\s+to|once\s+(?:the|our|their)\b|"
    r"when\s+(?:the|our|their|my)\b|"
    r"tras\s+(?:el|la|los|las)\b|despues\s+de\s+(?:el|la|los|las)\b|desde\s+que|porque|ya\s+que|debido\s+a|"
    r"nach\s+(?:dem|der|den)\b|seit\s+(?:dem|der|den)\b|weil|wegen|"
    r"apres\s+(?:le|la|les|l')|depuis\s+que|parce\s+qu|a\s+cause\s+d|"
    r"dopo\s+(?:il|la|lo|i|le|l')|perche|poiche|a\s+causa\s+d|"
    r"depois\s+d[aeo]s?\b|porque|desde\s+que|"
    r"na\s+(?:de|het)\b|sinds|omdat|want\b|doordat)")
# a later clause that says a negation: the old value told as what no longer holds ("the track wasn't free")
_CLAUSE = re.compile(r"\s*[,;]\s*|\s+[-–]\s+")
_NEGATION = re.compile(r"\b(?:not|no|never|n't|wasn't|isn't|weren't|aren't|couldn't|can't|didn't|doesn't|"
                       r"nicht|kein|keine|nein|niet|geen|pas|plus|jamais|non|nao|nunca)\b|n't\b")
_MIN_WORDS = 3


@lru_cache(maxsize=4096)
def state_before(new: str) -> str:
    """The newer up to its first reason clause (see the module docstring), or "" when it has none or too little is
    left."""
    low = fold_text(new)
    if len(low) != len(new):
        return ""  # (folding changed the length: positions would not match the text as written)
    cut = len(new)
    m = _CAUSE.search(low)
    if m is not None and m.start() > 0:
        cut = m.start()
    for sep in _CLAUSE.finditer(low[:cut]):
        rest = low[sep.end():cut]
        nxt = _CLAUSE.search(rest)
        clause = rest[:nxt.start()] if nxt else rest
        if _NEGATION.search(clause) and not _NEGATION.search(low[:sep.start()]):
            cut = sep.start()  # (the state itself says no negation: "no longer X, Y now" is the change itself)
            break
    if cut >= len(new):
        return ""
    state = new[:cut].strip(" ,;-–")
    return state if len(state.split()) >= _MIN_WORDS else ""


def one_time(old: str, new: str) -> bool:
    """Whether ``new`` is said for one time or a while ("This month's meeting moves to Wednesday because of the bank
    holiday", "this week", "until"; memengine/fact_occasion.py's one-off): its reason cut off, it is no standing value."""
    from memengine import fact_occasion, fact_shift

    return bool(fact_shift.WHILE.search(fold_text(new))) or bool(fact_occasion.one_off(old, new))
