"""The comparing primitives of the frame rules (memengine/facts.py): two words as one word
(inflection, a prefix, a name written out), the word-by-word alignment of two frames, and the
first kind of value two facts both state with no value in common. Pure: no SQL, no model."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memengine.fact_tokens import Value
from memengine.fact_types import Fact

__all__ = ["MIN_PREFIX", "PREFIX_SHARE", "align", "by_kind", "dates_agree", "same_word", "stem", "value_conflict"]

# Two words are one word when they share a prefix this long (and >= 75 % of the shorter):
# "allergic" / "allergy", "deployment" / "deployments", "alergica" / "alergia".
MIN_PREFIX = 4
PREFIX_SHARE = 0.75

_SUFFIXES = ("ing", "es", "ed", "s", "e", "d")


def stem(w: str) -> str:
    """Drop one inflection ending ("uses", "used" -> "use"): enough to compare, never shown."""
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            if suf in ("ing", "ed") and len(w) > 3 and w[-1] == w[-2]:
                w = w[:-1]  # "running" -> "run", "stopped" -> "stop"
            return w
    return w


def same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    if a.startswith("AX:") or b.startswith("AX:"):
        return False
    if stem(a) == stem(b):
        return True
    if a.startswith(b + " ") or b.startswith(a + " "):  # "Keiko" / "Keiko Tanaka": one name, written out
        return True
    if a == "re" + b or b == "re" + a:  # "rewritten" / "written": the same verb done again
        return min(len(a), len(b)) >= 4
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    # (and half the longer: "team" is not "Teamleiter", a compound names another thing)
    return n >= MIN_PREFIX and n >= PREFIX_SHARE * min(len(a), len(b)) and 2 * n >= max(len(a), len(b))


@dataclass
class Alignment:
    shared: list[tuple[int, int]]
    only_a: list[int]
    only_b: list[int]


def align(fa: Fact, fb: Fact) -> Alignment:
    used: set[int] = set()
    shared: list[tuple[int, int]] = []
    only_a: list[int] = []
    for i, wa in enumerate(fa.words):
        j = next((j for j, wb in enumerate(fb.words) if j not in used and wb.key == wa.key), None)
        if j is None:
            j = next((j for j, wb in enumerate(fb.words) if j not in used and same_word(wa.key, wb.key)
                      and ("-" in wa.text) == ("-" in wb.text)), None)  # "atlas" / "atlas-core": two names
        if j is None:
            only_a.append(i)
        else:
            used.add(j)
            shared.append((i, j))
    return Alignment(shared, only_a, [j for j in range(len(fb.words)) if j not in used])


def by_kind(f: Fact) -> dict[str, set[tuple[object, ...]]]:
    out: dict[str, set[tuple[object, ...]]] = {}
    for v in f.values:
        out.setdefault(v.kind, set()).add(v.norm)
    return out


def dates_agree(x: tuple[object, ...], y: tuple[object, ...]) -> bool | None:
    """True / False when comparable component by component, None when nothing is shared."""
    if len(x) != 3 or len(y) != 3:
        return x == y
    shared = False
    for u, v in zip(x, y):
        if u is not None and v is not None:
            shared = True
            if u != v:
                return False
    return True if shared else None


def value_conflict(fa: Fact, fb: Fact) -> tuple[str, str] | None:
    """The first kind of value both state with no value in common: (kind, "a vs b")."""
    va, vb = by_kind(fa), by_kind(fb)
    for kind in ("date", "weekday", "time", "number", "code", "phone", "email", "url"):
        if kind not in va or kind not in vb:
            continue
        if kind == "date":
            verdicts = [dates_agree(x, y) for x in va[kind] for y in vb[kind]]
            comparable = [v for v in verdicts if v is not None]
            if not comparable or any(comparable):
                continue
        elif kind == "number":
            # numbers compare within a unit class ("45 dollars" vs "3 kids" are two slots); a
            # newer message that drops the old unit ("rent is 1450 a month" / "rent is now 1525")
            # restates the one number in it: the same unit, another value (see _unit_dropped)
            if _unit_dropped(fa, fb, {u for u, _ in va[kind]}, {u for u, _ in vb[kind]}) or _rate_dropped(  # type: ignore[misc]
                    fa, fb, va[kind], vb[kind]):
                show_a = next(v.text for v in fa.values if v.kind == kind)
                show_b = next(v.text for v in fb.values if v.kind == kind)
                return "number", f"{show_a} -> {show_b}"
            units_a = {u for u, _ in va[kind]}  # type: ignore[misc]
            units_b = {u for u, _ in vb[kind]}  # type: ignore[misc]
            common = units_a & units_b
            if not common or all(
                    {x for x in va[kind] if x[0] == u} & {y for y in vb[kind] if y[0] == u} for u in common):
                continue
        elif va[kind] & vb[kind] or kind == "time" and _half_day_agree(fa, fb):
            continue
        show_a = next(v.text for v in fa.values if v.kind == kind)
        show_b = next(v.text for v in fb.values if v.kind == kind)
        return ("time" if kind == "time" else "date" if kind in ("date", "weekday")
                else "number" if kind == "number" else "code"), f"{show_a} -> {show_b}"
    return None


def _half_day_agree(fa: Fact, fb: Fact) -> bool:
    """Whether a clock time one side tells as a bare hour ("on thursdays at 3") is the other's same hour
    twelve hours on or back ("Thursdays at 3pm"): one hour said two ways, not two times."""
    def bare(v: Value) -> bool:
        return v.text.strip().isdigit() and 1 <= int(v.text) <= 12

    ta = [v for v in fa.values if v.kind == "time"]
    tb = [v for v in fb.values if v.kind == "time"]
    return any(abs(x.norm[0] - y.norm[0]) == 720 and (bare(x) or bare(y))  # type: ignore[operator]
               for x in ta for y in tb)


def _unit_dropped(fa: Fact, fb: Fact, units_a: set[str], units_b: set[str]) -> bool:
    """Whether each side states exactly one number, one of them with a unit and the other bare,
    and the two numbers differ: "1450 a month" / "now 1525" ("1450" / "1525" as written). Only a
    number told bare in the newer message counts (the older fact is the one that named its unit);
    one number a side keeps "3 kids, 45 dollars" from pairing a bare number with the wrong one."""
    nums_a = [v for v in fa.values if v.kind == "number"]
    nums_b = [v for v in fb.values if v.kind == "number"]
    if len(nums_a) != 1 or len(nums_b) != 1 or units_b != {""} or "" in units_a:
        return False
    at = fb.text.find(nums_b[0].text)
    if at < 0 or not _NEW_VALUE_BEFORE.search(fb.text[:at]):
        return False  # a bare number is the new value only when told as one ("now 1525", "up to 1475"), not "room 12"
    return _digits(nums_a[0].text) != _digits(nums_b[0].text)


def _rate_dropped(fa: Fact, fb: Fact, va: set[tuple[object, ...]], vb: set[tuple[object, ...]]) -> bool:
    """Whether each side states one number of one unit, told per period on one side only, and they
    differ: "30 euros al mes" / "35 euros", "1450 dollars a month" / "1525 dollars" (the period is
    what the older said, the amount is the slot)."""
    if len(va) != 1 or len(vb) != 1:
        return False
    (ua, _), (ub, _) = next(iter(va)), next(iter(vb))
    base_a, base_b = str(ua).removesuffix("/duration"), str(ub).removesuffix("/duration")
    if ua == ub or base_a != base_b or base_a in ("", "count"):
        return False
    ta = next(v.text for v in fa.values if v.kind == "number")
    tb = next(v.text for v in fb.values if v.kind == "number")
    return _digits(ta) != _digits(tb)  # (as written: "45 dollars" / "$45 a month" is one amount)


# right before the bare number, "to" or "now" in the six languages: "bumped the rent to 1525", "is now 25"
_NEW_VALUE_BEFORE = re.compile(
    r"(?:^|\s)(?:to|now|à|maintenant|a|para|al|agora|ahora|auf|zu|jetzt|nun|ora|adesso)[\s:,]+$", re.I)


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit() or ch in ".,").strip(".,")
