"""A note's head and its reason clauses: the note about a thing, not a note naming it as a reason (recall47, round 47).

An agent's notes name each other's subjects. "Lowther Dairy switched delivery to Wednesdays to match the evening
session" says "evening session", but as the reason for a delivery day; "Moved the grocery run to Saturdays because
the book club takes Sunday afternoons" says "book club", but is about the grocery run. Such a note says a change
word ("switched", "moved") and two rare words of the older note about the thing, so recall read it as that note's
newer version (notes.newer_notes_first) and put it above the note about the thing, which it returned as
``possibly_outdated`` (the lead's agent31 miss, "is there an evening session?"); the store's ``may_update`` link
between the two was honoured the same way (notes_links.link_keeper).

A note's *head* is its text outside its reason and purpose clauses; its *tail* the clauses opened by a
subordinator of reason or purpose ("because (of)", "due to", "so that", "to match"; "parce que", "à cause de";
"omdat", "vanwege"; "perché", "a causa di"; "porque", "por causa de"; "weil", "wegen"; "eftersom", "på grund av";
"ponieważ", "z powodu"), written from the languages, not from any set. A clause runs from its subordinator to
the end of its sentence (";", ".", "!", "?"), or, when the subordinator opens the sentence ("Because of the rain,
…"), to its first comma. With ``RecallConfig.notes_head`` a later note's subject is read from its head only.

Measured, not kept: moving a note that says the question's words only in its tail below the first of the top two
that says them in its head — it moved no question's evidence on the ten agent-note dev sets (671 questions) nor on
the round's own scratch examples: what put such notes first was always the newer-version reading above.
"""

from __future__ import annotations

import functools
import re

# Subordinators of reason and purpose, lower case, one per language group; matched as whole words. Left out, as
# too often something else: "as", "since" ("since March"), "for", "after", "da" (de), "door" (nl), "siden" (no), and
# the words of one language that are common words of another: "want" (nl; "Maya and Theo want to …"), "dank" (de),
# "car" (fr).
_OPENERS = """
because|because of|due to|owing to|on account of|thanks to|as a result of|so that|in order to|in order for|to match|
to fit in with|to fit around|to make room for|to avoid|to free up|
parce que|parce qu|à cause de|à cause du|à cause des|en raison de|en raison du|grâce à|puisque|afin de|afin que|
pour que|vu que|suite à|faute de|étant donné|
porque|por culpa de|debido a|a causa de|a causa del|ya que|puesto que|para que|gracias a|por falta de|
por causa de|por causa do|por causa da|por causa dos|por causa das|devido a|devido ao|já que|graças a|visto que|
uma vez que|
perché|poiché|a causa di|a causa del|a causa della|per via di|per via del|per via della|dato che|visto che|
siccome|affinché|grazie a|per colpa di|per mancanza di|
weil|denn|wegen|aufgrund|sodass|so dass|mangels|
omdat|vanwege|doordat|zodat|dankzij|wegens|aangezien|
eftersom|för att|på grund av|därför att|så att|tack vare|fordi|på grunn av|slik at|
ponieważ|bo|z powodu|dlatego że|żeby|aby|dzięki
"""
_OPENER = re.compile(r"(?<![\w'’])(" + "|".join(sorted(
    (w.strip().replace(" ", r"\s+") for w in _OPENERS.replace("\n", "").split("|") if w.strip()),
    key=len, reverse=True)) + r")(?![\w'’])", re.IGNORECASE)
_SENTENCE = re.compile(r"[.;!?]+(?:\s|$)|\n")
_LEAD = re.compile(r"^[\s\"'“”(\-–—]*$")


@functools.lru_cache(maxsize=4096)
def head_and_tail(text: str) -> tuple[str, str]:
    """``text`` split into its head (outside reason and purpose clauses) and its tail (those clauses)."""
    head: list[str] = []
    tail: list[str] = []
    start = 0
    for end_m in [*_SENTENCE.finditer(text), None]:
        end = end_m.end() if end_m else len(text)
        sentence = text[start:end]
        start = end
        m = _OPENER.search(sentence)
        if not m:
            head.append(sentence)
            continue
        if _LEAD.match(sentence[:m.start()]):  # (fronted: "Because of the rain, the walk moved to Sunday")
            comma = sentence.find(",", m.end())
            cut = comma if comma >= 0 else len(sentence)
            tail.append(sentence[m.end():cut])
            head.append(sentence[cut:])
        else:
            head.append(sentence[:m.start()])
            tail.append(sentence[m.end():])
    return " ".join(head), " ".join(tail)
