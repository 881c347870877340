"""Two facts written in two languages, each clearly its own (facts30).

One agent's store holds facts in several languages, one person's each ("Katrin ... in Leipzig", "Femke ...
in Utrecht"), and a sentence in Dutch shares no slot with a German one however near the multilingual model
puts them: the learned same-slot decision (memengine/fact_slot.py) retired a German provider switch for a
Dutch freelancer's news at p=0.98 (held-out 8), and flagged a Dutch dose for a Spanish one (held-out 9).
memengine/fact_tokens.guess_lang reads six languages from the stop-word table (no Dutch), and one word often
decides it; so this module reads seven from function words and common auxiliaries of its own
(:data:`_WORDS`), and a pair counts as two languages only when each sentence holds :data:`LEAD` more words of
its own language than of the other's (Spanish and Portuguese, Dutch and German share many: "de", "a", "als",
"in"). Used as a guard of the learned decision only: the rules read words, and a word is a word. Pure.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["FUNCTION_WORDS", "LEAD", "hits", "other_language"]

# How many more of its own language's words than of the other's each sentence must hold.
LEAD = 2

_WORDS: dict[str, frozenset[str]] = {lang: frozenset(words.split()) for lang, words in {
    "en": """the a an and or of to in on at for with from by is are was were be been has have had do does did
        not my his her him them their our your its this that these those who which he she they we it now also just
        will would can could up out into about than after before still""",
    "de": """der die das den dem des ein eine einen einem einer und oder zu zum zur im am auf aus bei mit nach
        von vom für über unter ist sind war waren hat haben hatte wird werden wurde nicht kein keine sein seine
        ihr ihre ihren wir ich er sie es jetzt auch noch schon seit dass sich bis""",
    "nl": """de het een en of van voor naar met bij op aan uit om is zijn was waren heeft hebben had wordt worden
        werd niet geen zijn haar hun ons onze mijn wij we ik hij zij ze nu ook nog al sinds dat die dit deze
        zich tot""",
    "fr": """le la les un une des du de au aux et ou à en dans sur avec pour par chez est sont était a ont
        avait sera pas ne son sa ses leur leurs notre nos mon ma mes il elle ils elles nous on je maintenant
        aussi encore déjà depuis qui que se""",
    "es": """el la los las un una unos unas del al a de y o en con por para sobre es son era está están ha han
        había será no su sus mi mis nuestro nuestra él ella ellos nosotros yo ahora también todavía ya desde
        que se le lo les""",
    "pt": """o a os as um uma do da dos das de e ou em no na nos nas ao pelo pela com por para é são era está
        estão tem têm foi será não seu sua seus suas meu minha nosso nossa ele ela eles elas eu agora também
        ainda já desde que se lhe""",
    "it": """il lo la i gli le un una uno del della dei degli delle di a al ai col coi da dal dalla e o in nel nella con per
        su sul sulla è sono era ha hanno aveva sarà non suo sua suoi mio mia nostro nostra lui lei loro noi
        io adesso ora anche ancora già da che si gli""",
}.items()}
FUNCTION_WORDS: frozenset[str] = frozenset().union(*_WORDS.values())  # (of any of the seven languages)
_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def hits(text: str) -> dict[str, int]:
    """How many words of ``text`` are function words of each language (:data:`_WORDS`; a word of several
    languages counts for each)."""
    words = [w.strip("'’") for w in _WORD.findall(text[:400].lower().replace("’", "'"))]
    return {lang: sum(1 for w in words if w in table) for lang, table in _WORDS.items()}


def _top(h: dict[str, int]) -> list[str]:
    """The languages with the most words in ``h`` (several on a tie: "una", "ha" are Spanish and Italian)."""
    most = max(h.values())
    return [lang for lang, n in h.items() if n == most]


def other_language(old: str, new: str) -> str | None:
    """``"<old's languages>/<new's languages>"`` when each sentence is clearly in a language of its own:
    every language it has most words of leads every one of the other sentence's by :data:`LEAD` function
    words, in both sentences (a tie names both: "es+it"); else None."""
    ha, hb = hits(old), hits(new)
    ta, tb = _top(ha), _top(hb)
    if any(ha[la] - ha[lb] < LEAD or hb[lb] - hb[la] < LEAD for la in ta for lb in tb):
        return None
    return f"{'+'.join(ta)}/{'+'.join(tb)}"
