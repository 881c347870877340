"""Another name in the same frame, with a change said: an update even when nothing says what the names are (facts26).

"Backups of the file server now go to Backblaze" after "Backups of the file server go to Wasabi": no word governs
the names as a system, a company or a place (memengine/fact_name_kind.py reads no kind, so memengine/fact_promoted.py's
"same cue word" finds nothing), no title, no version. The sentence is the older's again word for word, a "now" or a
change verb added, with another name where the older's stood: whatever the names are, the slot is the frame's and it
changed. Read by shape only: the words before the names are the same, the words after them are the same, the names
differ (each a name as written: capitalised inside the sentence, an acronym, a word with a digit), the newer says a
change and not "also". Pure: no SQL, no model.
"""

from __future__ import annotations

import re

from memengine.fact_align import same_word
from memengine.fact_change import ADDITIVE
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_lexicon import STOPWORDS, _set, fold
from memengine.fact_types import Verdict

__all__ = ["REASON", "another_name"]

# The reason starts like memengine/fact_promoted.py's frame verdicts: memengine/supersession.py counts the slot as
# named by its frame.
REASON = "the same frame, another name in its slot"
_NOW_NL = _set("nu inmiddels tegenwoordig")  # (Dutch "now": not among memengine/fact_change_words.py's)
_ALSO = ADDITIVE | _set("ook eveneens")
_TOKEN = re.compile(r"[^\W_][\w'’.-]*[^\W_]|[^\W_]")
_MAX_NAME = 3  # words of one name ("Mutua Madrileña", "Route 53", "Zilveren Kruis")


def _change(word: str) -> bool:
    return word in NOW_WORDS or word in _NOW_NL or word in CHANGE_WORDS


def _name(raw: str, first: bool) -> bool:
    """Whether ``raw`` is written as a name: capitalised inside the sentence, or with a digit ("Route 53")."""
    return any(ch.isdigit() for ch in raw) or raw[:1].isupper() and not first


def another_name(old: str, new: str) -> Verdict | None:
    """A ``slot`` verdict when ``new`` is ``old`` again with a change word added and another name in place of
    ``old``'s ("Die Dumps des Mailservers gehen an Borgbase" / "Die Dumps des Mailservers gehen jetzt an Tarsnap"),
    else None."""
    raw_o, raw_n = _TOKEN.findall(old), _TOKEN.findall(new)
    fo = [fold(t) for t in raw_o]
    fn = [fold(t) for t in raw_n]
    if not any(_change(w) for w in fn) or any(w in _ALSO for w in fn):
        return None
    # the newer without its change words: the older's frame again
    keep = [n for n, w in enumerate(fn) if not _change(w)]
    sn, rn = [fn[n] for n in keep], [(raw_n[n], n == 0) for n in keep]
    so, ro = fo, [(t, n == 0) for n, t in enumerate(raw_o)]
    p = 0
    while p < min(len(so), len(sn)) and same_word(so[p], sn[p]):
        p += 1
    s = 0
    while s < min(len(so), len(sn)) - p and same_word(so[-1 - s], sn[-1 - s]):
        s += 1
    mid_o, mid_n = ro[p:len(ro) - s], rn[p:len(rn) - s]
    if not mid_o or not mid_n or len(mid_o) > _MAX_NAME or len(mid_n) > _MAX_NAME:
        return None
    if not all(_name(t, first) for t, first in mid_o + mid_n):
        return None
    # the thing: a content word said before the names (not only "we", "it")
    if not any(w not in STOPWORDS and len(w) > 2 for w in so[:p]):
        return None
    return Verdict("slot", f"{REASON}: {' '.join(t for t, _ in mid_o)} -> {' '.join(t for t, _ in mid_n)}", 0.75)
