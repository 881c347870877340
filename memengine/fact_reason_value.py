"""The older's value named only in a clause beside the new one (facts41): "We've gone over to Hempel for antifouling,
Jotun's lead times were silly" after "Our antifouling paint supplier is Jotun"; "Renewed with Hiscox, Aviva's quote
was too high"; "Tickets are on See Tickets, Skiddle's fees were daft".

The rules before this one read the older's value where a change word or an ending verb governs it ("switched from
X", "X went bust", memengine/fact_vacated.py). Said as a reason, the older's value comes with any verb of any
language ("X's lead times were silly", "Y wanted more", "Z kwam te vaak te laat"). This reading needs no verb:

- **the older's value named** in one clause of the newer (a name or a code of the older past its subject, in a run
  of names the older says all of: memengine/fact_vacated.py's reading), and not in another;
- **a new value in another clause**: a name or a code the older does not say, in a clause naming none of the
  older's value;
- **that clause in the older's slot**: it says a word of the older's frame (what is left once values are masked,
  in any word form), and the pair is near in meaning (a cosine of at least the caller's floor, chosen leaving one
  set out by ``bench/fact_families.py``).

Guards, as fact_vacated's: the newer is asserted (memengine/fact_mood.py), adds nothing ("also", "a second"), says
no while nor one time (memengine/fact_cause.one_time: "this week", "until", "this Saturday"), names no possessor the
older does not, and its new value fills no role the older does not name. Pure: no SQL, no model.
"""

from __future__ import annotations

import os
import re

from memengine import fact_cause, fact_left_clause, fact_mood, fact_vacated
from memengine.fact_align import same_word
from memengine.fact_cue_lexicon import TITLES
from memengine.fact_lexicon import MONTHS, STOPWORDS, WEEKDAYS, fold_text
from memengine.fact_shift import _AUX
from memengine.fact_tokens import guess_lang
from memengine.fact_types import Verdict

__all__ = ["GRID", "MIN_COSINE", "REASON", "named_old", "replaced"]

REASON = "the older's value named beside a new value of its slot"

# the cosine the pair needs (leave-one-set-out over the pooled sets, bench/fact_families.py); above 1: off
MIN_COSINE = 0.5
GRID = [0.0, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 2.0]

_WORD = re.compile(r"[^\W_]+(?:[-+.][^\W_]+)*\+?")
_POSSESSIVE = re.compile(r"([^\W_])(?:'s|’s|'|’)(?=\s)")


def _frame(old: str, names: frozenset[str]) -> list[str]:
    """The older's content words once its values are masked (a month or a day is a value: "Voyage au Japon … avril"
    is no frame word "avril" that "une nuit à Kawaguchiko le 15 avril" would say)."""
    out = []
    for i, w in enumerate(_WORD.findall(old)):
        k = fold_text(w)
        if k in names or k in STOPWORDS or k in _AUX or k in TITLES or k in MONTHS or k in WEEKDAYS or len(k) < 3 or fact_vacated.written_as_name(w, i == 0) \
                or k.isdigit():
            continue
        out.append(k.removesuffix("'s").removesuffix("’s"))
    return out


def _reason_hits(clause: str, frame: list[str], names: frozenset[str], numbers: frozenset[str],
                 old_keys: frozenset[str]) -> list[str]:
    """The older's value words ``clause`` names as the one beside: not in a clause saying the older's slot too
    ("Xero still holds the accounts"), not a unit after a number ("22 Euro"), and with a word of its own that is
    no value ("Jotun's lead times were silly"; not a bare "//api.acme.io/v3" cut at a colon)."""
    clause = _POSSESSIVE.sub(r"\1", clause)  # (whose it is, here, is the older's value: "Jotun's lead times were silly")
    hit = fact_vacated.value_hits(clause, names, numbers, old_keys)
    if not hit:
        return []
    raw = _WORD.findall(clause)
    said = [fold_text(w) for w in raw]
    if any(same_word(k, f) for k in said for f in frame if len(f) > 3):  # (not a copula: "est", "ist")
        return []
    if any(i > 0 and said[i - 1][:1].isdigit() for i, k in enumerate(said) if k in hit):
        return []
    if not any(k.isalpha() and len(k) > 1 and not fact_vacated.written_as_name(w, i == 0) and k not in hit
               for i, (w, k) in enumerate(zip(raw, said))):
        return []
    return hit


# languages writing a thing's kind as the last part of one word ("Ersatzteile" is a kind of "Teile", facts42)
_COMPOUNDING = frozenset({"de", "nl"})


def _head(a: str, b: str) -> bool:
    """Whether one word is the other's compound head ("teile" / "ersatzteile", "fietsen" / "bakfietsen")."""
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and len(long) > len(short) and long.endswith(short)


def named_old(old: str, new: str) -> list[str]:
    """The older's value words that some clause of ``new`` names (memengine/fact_vacated.py's reading), or []."""
    names, numbers, old_keys = fact_vacated.older_values(old)
    if not names and not numbers:
        return []
    return [k for c in fact_left_clause.clauses(new, reasons=True)
            for k in fact_vacated.value_hits(c, names, numbers, old_keys)]


def replaced(old: str, new: str, cos: float | None, min_cosine: float = MIN_COSINE) -> Verdict | None:
    """A ``slot`` verdict when one clause of ``new`` names the older's value and another says a new value in the
    older's slot (see the module docstring), else None. ``cos`` None (a word candidate) passes a floor up to 0.5;
    off with ``MEM_REASON_VALUE=0``."""
    if min_cosine > 1 or (cos if cos is not None else 0.5) < min_cosine or os.environ.get("MEM_REASON_VALUE", "1") == "0":
        return None
    if fact_mood.unasserted(new) or fact_cause.one_time(old, new):
        return None
    ln = fold_text(new)
    keys = set(_WORD.findall(ln))
    if keys & fact_vacated.ADDING or "as well" in ln:
        return None
    names, numbers, old_keys = fact_vacated.older_values(old)
    if not names and not numbers:
        return None
    lo = fold_text(old)
    if any(fold_text(m.group(1)) not in keys | {"user", "users"} for m in re.finditer(r"\b([A-Z][^\W_]*)(?:'s|’s)\s", old)):
        return None  # the older is someone else's the newer does not name
    if any(fold_text(m.group(1)) not in lo for m in re.finditer(r"([^\W_]+)(?:'s|’s)\s+\w", new)
           if fold_text(m.group(1)) not in names):
        return None  # a possessor the older does not name
    parts = fact_left_clause.clauses(new, reasons=True)
    if len(parts) < 2:
        return None
    frame = _frame(old, names)
    if old_keys & fact_vacated.NOT_STATE or len(fact_left_clause.clauses(old)) > 1:
        return None  # (the older adds one or says it stays: "Bought a second Podmic", "… still goes out via Mailchimp";
        # or says two things, one of which the newer moves: "Le prove sono il martedì; il direttore è Paolo Rossi")
    hits = [_reason_hits(c, frame, names, numbers, old_keys) for c in parts]
    # (with memengine/fact_note_parts.py's switch, MEM_NOTE_PARTS)
    compound = guess_lang(old) in _COMPOUNDING and os.environ.get("MEM_NOTE_PARTS", "1") != "0"
    if not any(hits):
        return None
    gone = {k for h in hits for k in h}
    words = [fold_text(w) for w in _WORD.findall(old)]
    # (a capitalised first word is no frame word here: "Nadia Kowalski is …" starts with its subject)
    first = min((i for i, k in enumerate(words) if k in frame and (i or not old[:1].isupper())), default=0)
    if any(min((i for i, k in enumerate(words) if k == g), default=first) < first for g in gone):
        return None  # (the older's value is its subject: "Nadia Kowalski is the infra lead")
    for c, hit in zip(parts, hits):
        if hit:
            continue
        came = fact_vacated.new_value(c, old_keys, gone)
        if not came or came[:1].isdigit() != all(g[:1].isdigit() for g in gone):
            continue  # (a value of the older's kind: a price beside a firm is no new firm, "Clearview quoted £40")
        said = [fold_text(w) for w in _WORD.findall(_POSSESSIVE.sub(r"\1", c))]
        # (a word right after the new value is its name's, no word of the slot: "those are GitHub secrets now")
        said = [k for i, k in enumerate(said) if not (i and said[i - 1] == came)]
        if not any(same_word(k, f) or compound and _head(k, f) for k in said for f in frame):
            continue  # (the clause says nothing of the older's slot: "We hired a Luton for the Scotland run")
        if fact_vacated.another_role(new, came, old_keys):
            continue
        return Verdict("slot", f"{REASON}: {sorted(gone)[0]} -> {came}", 0.8)
    return None
