"""Two sentences compared as templates: their values replaced by the kind of value they are.

The learned same-slot decision (memengine/fact_slot.py) was fitted on features that mostly read the
words people use to say a change ("now", "moved to", "raised"); an update said plainly ("the
psychiatrist put me on 30 mg of citalopram" after "I take 20 mg of citalopram every morning", "en el
club me dieron la taquilla 112" after "Mi taquilla en el club es la 31") names no change at all. What
it shares with the older is its *template*: once every value is replaced by a placeholder of its kind
(a number, a time, a date, a code, a name), the two say the same slot, and the value at the aligned
place differs. A look-alike about another slot swaps a content word instead ("the personal trainer
costs 42 a session" against "The gym membership costs 35 a month", "unser Gasanbieter" against
"Unser Stromanbieter").

This module reads that with no word list of its own (the project's stop words only): the token
templates, how much of each side's content the other carries, whether a value of the same kind
and the same unit stands where the older's stood with another value, and whether content words
are swapped at aligned places. Pure, cached per text; the features are :func:`features`.
"""

from __future__ import annotations

import difflib
from functools import lru_cache

from memengine import fact_cue, facts
from memengine.fact_lexicon import MONTHS, SHORT_WEEKDAYS, WEEKDAYS

__all__ = ["NAMES", "features", "same_inflection", "template"]

# the feature names, in the order :func:`features` gives them (memengine/fact_slot.py appends them)
NAMES: tuple[str, ...] = ("tmpl_ratio", "old_covered", "new_covered", "kinds_kept", "unit_changed",
                          "unit_same_value", "aligned_changed", "content_swapped", "head_carried", "slot_covered", "context_covered", "enclosed_swap",
                          "changed_apart", "head_modified", "value_reused")

_DATE_WORDS = WEEKDAYS | MONTHS | SHORT_WEEKDAYS
_KIND = {"date": "#date", "weekday": "#date", "time": "#time", "number": "#num", "money": "#num",
         "code": "#code", "phone": "#code", "email": "#code", "url": "#code", "version": "#code"}


@lru_cache(maxsize=4096)
def template(text: str) -> tuple[tuple[str, str], ...]:
    """``text`` as (template token, raw token) pairs: a value becomes the placeholder of its kind
    (``#num``, ``#time``, ``#date``, ``#code``, ``#name``), a word its folded form; punctuation and
    the project's stop words are left out (what remains is what the sentence is about)."""
    f = facts.analyse(text)
    kinds: dict[str, str] = {}
    for v in f.values + f.old_values:
        for part in fact_cue.tokens(v.text):
            kinds.setdefault(part.key, _KIND.get(v.kind, "#num"))
    toks = fact_cue.tokens(text)
    out: list[tuple[str, str]] = []
    for i, t in enumerate(toks):
        if not t.word and not any(ch.isdigit() for ch in t.text):
            continue  # punctuation
        if any(ch.isdigit() for ch in t.text):
            kind = kinds.get(t.key, "#num")
            unit = t.key.lstrip("0123456789.,:h")  # "40mg", "8h30": the unit glued to the number
            out.append((kind, t.key))
            if unit and kind == "#num":
                out.append((unit, unit))
        elif t.key in _DATE_WORDS:
            out.append(("#date", t.key))
        elif fact_cue.is_name(toks, i, f.lang) or t.key in kinds or _letter_id(toks, i):
            out.append(("#name", t.key))
        elif t.key not in fact_cue.NOT_CONTENT and len(t.key) > 1:
            out.append((t.key, t.key))
    return tuple(out)


def _letter_id(toks: list[fact_cue.Tok], i: int) -> bool:
    """A capital letter standing alone right after a word names the thing ("Server A", "Plan B", "vitamin D",
    "row F"): an identifier, though "A" is an article to the stop words (so "Server A has 32 GB" / "Server B
    has 64 GB" reads as another thing with another value, not one slot's new value). Not "I"."""
    t = toks[i]
    return len(t.text) == 1 and t.text.isupper() and t.text != "I" and i > 0 and toks[i - 1].word


def _unified(ta: tuple[tuple[str, str], ...], tb: tuple[tuple[str, str], ...]) -> tuple[
        tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The two templates with a name both sides hold as the word it is (a name lower-cased in chat is
    no name to the tokenizer: "Our Costco membership" / "the costco executive membership"), and the
    newer's words in the older's inflection."""
    raw_a, raw_b = {r for _, r in ta}, {r for _, r in tb}
    ta = tuple((r if t == "#name" and r in raw_b else t, r) for t, r in ta)
    tb = tuple((r if t == "#name" and r in raw_a else t, r) for t, r in tb)
    # a word of the newer in another inflection of the older's is the older's word ("weigh" / "weighs")
    words_a = [t for t, _ in ta if not t.startswith("#")]
    return ta, tuple((next((x for x in words_a if same_inflection(x, t)), t) if not t.startswith("#") else t, r) for t, r in tb)


def same_inflection(a: str, b: str) -> bool:
    """One word in two inflections: equal, or a shared start of 5 letters covering most of the shorter
    ("costs" / "costava", "Spind" / "spinde"; not "gym" / "gas")."""
    if a == b:
        return True
    n = min(len(a), len(b))
    if n < 5:
        return False
    k = 0
    while k < n and a[k] == b[k]:
        k += 1
    return k >= 5 and k >= n - 2


def _content(tpl: tuple[tuple[str, str], ...]) -> list[str]:
    return [t for t, _ in tpl if not t.startswith("#") and len(t) > 2]


def _covered(a: list[str], b: list[str]) -> float:
    """The share of ``a``'s content words that ``b`` carries (0.5 when ``a`` has none)."""
    if not a:
        return 0.5
    return sum(any(same_inflection(x, y) for y in b) for x in a) / len(a)


def _unit_after(tpl: tuple[tuple[str, str], ...], i: int) -> str | None:
    """The content word right after the number at ``i`` (its unit: "mg", "euros", "month"), if any."""
    for t, _ in tpl[i + 1:i + 3]:
        if not t.startswith("#"):
            return t
    return None


def _units(tpl: tuple[tuple[str, str], ...]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for i, (t, raw) in enumerate(tpl):
        if t == "#num":
            u = _unit_after(tpl, i)
            if u is not None:
                out.setdefault(u, set()).add(raw)
    return out


def _context(tpl: tuple[tuple[str, str], ...]) -> list[str]:
    """The content words within two places of a value of ``tpl`` (all its content words if it holds none)."""
    at = [i for i, (t, _) in enumerate(tpl) if t.startswith("#")]
    near = {j for i in at for j in range(i - 2, i + 3)}
    words = [t for j, (t, _) in enumerate(tpl) if j in near and not t.startswith("#") and len(t) > 2]
    return words or _content(tpl)


@lru_cache(maxsize=4096)
def features(old: str, new: str) -> tuple[float, ...]:
    """The template features of the pair, in :data:`NAMES` order:

    - ``tmpl_ratio``: how alike the two templates are (difflib's ratio over the template tokens);
    - ``old_covered`` / ``new_covered``: the share of one side's content words the other carries;
    - ``kinds_kept``: every kind of value the older holds, the newer holds too (and it holds one);
    - ``unit_changed`` / ``unit_same_value``: a number followed by the same unit on both sides, with
      another value / with the same value;
    - ``aligned_changed``: a placeholder at an aligned place of the two templates stands for another value;
    - ``content_swapped``: an aligned place holds a content word on each side, and they differ (another slot);
    - ``head_carried``: the older's first content word (most often the thing the fact is about) is in the newer;
    - ``slot_covered``: the share of the older's content words before its first value (the slot it
      names: "gym membership costs", "Stromanbieter") that the newer carries;
    - ``context_covered``: the share of the content words next to the older's values (within two places:
      the unit and the thing a value is of, "mg of citalopram", "taquilla … club") that the newer carries;
    - ``enclosed_swap``: a content word replaced by another, or added, between words both sides share (another thing);
    - ``changed_apart``: two aligned values changed with a content word between them (one names the
      thing), or a name and a value of another kind (the name says whose);
    - ``head_modified``: the newer opens with one or two words more, right before the older's first word;
    - ``value_reused``: a value of the older (not a name) is in the newer as it was (a second value, or the same).
    """
    ta, tb = _unified(template(old), template(new))
    ka, kb = [t for t, _ in ta], [t for t, _ in tb]
    ca, cb = _content(ta), _content(tb)
    kinds_a = {t for t in ka if t.startswith("#") and t != "#name"}
    kinds_b = {t for t in kb if t.startswith("#") and t != "#name"}
    ua, ub = _units(ta), _units(tb)
    shared_units = [u for u in ua if any(same_inflection(u, v) for v in ub)]
    unit_changed = any(not (ua[u] & ub[v]) for u in shared_units for v in ub if same_inflection(u, v))
    unit_same = any(ua[u] & ub[v] for u in shared_units for v in ub if same_inflection(u, v))
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    aligned_changed = swapped = enclosed = False
    changed_at: list[int] = []  # where, in the older's template, an aligned value differs
    ops = sm.get_opcodes()
    for k, (op, i1, i2, j1, j2) in enumerate(ops):
        if op == "equal":
            changed_at += [i for i, j in zip(range(i1, i2), range(j1, j2)) if ka[i].startswith("#") and ta[i][1] != tb[j][1]]
        else:
            left = [t for t in ka[i1:i2] if not t.startswith("#") and len(t) > 2]
            right = [t for t in kb[j1:j2] if not t.startswith("#") and len(t) > 2]
            word_swap = op == "replace" and bool(left and right and not any(same_inflection(x, y) for x in left for y in right))
            swapped = swapped or word_swap
            # a word replaced or added inside the frame, the same words on both sides of it ("60 Euro für
            # Strom im Monat" / "40 Euro für Gas im Monat", "The museum closes" / "the museum shop
            # closes"): another thing of the frame, where an update adds or replaces words at its edges
            # ("I take" / "the psychiatrist put me on", "... from this billing cycle")
            inside = 0 < k < len(ops) - 1 and ops[k - 1][0] == ops[k + 1][0] == "equal"
            enclosed = enclosed or inside and (word_swap or op == "insert" and bool(right))
    aligned_changed = bool(changed_at)
    # one or two words put right before the older's first word, which opens both ("The gateway" / "The
    # admin gateway", "my email" / "my work email", "il supermercato" / "la cassa del supermercato"):
    # a part or a kind of that thing, not the thing
    head_modified = any(op == "insert" or op == "replace" and i2 - i1 == 0 for op, i1, i2, j1, j2 in ops[:1]) \
        and len(ops) > 1 and ops[1][0] == "equal" and ops[1][1] == 0 and bool(ka) and not ka[0].startswith("#") \
        and 0 < ops[0][4] - ops[0][3] <= 2 and not any(t.startswith("#") for t in kb[ops[0][3]:ops[0][4]])
    # two aligned values changed with a content word between them: one names the thing ("Version 2 was
    # released in 2021", "the number 12 bus leaves at 7:40"), so the thing changed, not only its value
    apart = any(any(not ka[i].startswith("#") for i in range(p + 1, q)) for p, q in zip(changed_at, changed_at[1:]))
    # ... or a name and a value of another kind both changed: the name says whose ("Le foot de Hugo c'est
    # le mercredi" / "le foot de nathan c'est le samedi", "der Zug nach Hamburg/Berlin ... um 7:15/7:50")
    apart = apart or any(ka[i] == "#name" for i in changed_at) and any(ka[i] not in ("#name",) for i in changed_at)
    raw_b = {r for t, r in tb if t.startswith("#")}
    reused = any(t.startswith("#") and t != "#name" and r in raw_b for t, r in ta)
    first = next((i for i, t in enumerate(ka) if t.startswith("#") and t != "#name"), len(ka))
    slot = _content(ta[:first]) or ca
    return (sm.ratio(), _covered(ca, cb), _covered(cb, ca), float(bool(kinds_a) and kinds_a <= kinds_b),
            float(unit_changed), float(unit_same), float(aligned_changed), float(swapped),
            float(bool(ca) and any(same_inflection(ca[0], y) for y in cb)), _covered(slot, cb), _covered(_context(ta), cb),
            float(enclosed), float(apart), float(head_modified), float(reused))
