"""A new value noted as a label and a value: "staging → t3.large", "correo saliente → Mailgun", "deploys:
ArgoCD from today".

Agents write updates as notes, not sentences: the slot's name, an arrow (or a colon and a word saying it
holds from now), the new value. Nothing in such a note is a verb or a copula the frame rules could align
with the older's ("Staging runs on a t3.medium instance"), and the pair is often far in meaning when the
older's verb says most of it ("Deploys go out through Jenkins", cosine 0.36). :func:`labelled` accepts a
pair when

1. the newer is ``LABEL → VALUE`` (→, ->, =>) or ``LABEL: VALUE`` with a "now" word ("now", "from today",
   "jetzt", "ab heute", "ahora", "desde hoy", "agora", "adesso", "nu", "vanaf vandaag" ...);
2. the value is one to three names, numbers or codes ("Mailgun", "Postgres 16", "t3.large", "10:00") and
   nothing else, and the older holds a thing of one of the same shapes (a name for a name, a code for a
   code, a number for a number) that the value does not repeat;
3. every content word of the label repeats one of the older's before its first value (its slot: a stem, or
   a short form: "DB" / "database");
4. both are asserted (memengine/fact_mood.py).

Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_cue, fact_mood
from memengine import fact_cue_lexicon as C
from memengine.fact_alias import short_form
from memengine.fact_lexicon import fold, fold_text, same_stem
from memengine.fact_template import same_inflection

__all__ = ["labelled"]

_ARROW = re.compile(r"^(?P<label>[^:→⇒]+?)\s*(?:→|⇒|->|=>)\s*(?P<value>[^→⇒]+)$")
_COLON = re.compile(r"^(?P<label>[^:→⇒]+?)\s*:\s+(?P<value>[^:→⇒]+)$")
# Words saying the value holds from now (folded), beyond fact_cue_lexicon.NOW_PHRASES.
_FROM_NOW = (
    "from today", "as of today", "starting today", "since today", "from now", "a partir d'aujourd'hui",
    "des aujourd'hui", "desde hoy", "a partir de hoy", "ab heute", "seit heute", "a partir de hoje", "desde hoje",
    "da oggi", "da adesso", "vanaf vandaag", "vanaf nu", "nu",
)
_NOW_RE = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(p) for p in sorted(
    set(_FROM_NOW) | set(C.NOW_PHRASES), key=len, reverse=True)) + r")(?![\w'])")
_THING = re.compile(r"[^\s,;!?()\"']+")
_ARTICLES = frozenset(fold(w) for w in "the a an der die das le la les el los las o os il lo de het een".split())


def _shape(tok: str) -> str:
    """"code" (letters and digits: "t3.large", "m5"), "number" ("16", "10:00", "5.7"), "name" (capitalised or
    an acronym), else ""."""
    letters, digits = any(c.isalpha() for c in tok), any(c.isdigit() for c in tok)
    if letters and digits:
        return "code"
    if digits:
        return "number"
    return "name" if tok[:1].isupper() else ""


def _things(text: str, skip_first: bool) -> dict[str, tuple[str, int]]:
    """The names, numbers and codes of ``text`` (folded, without trailing dots) with their shape and where
    they start; a capital opening the sentence names nothing (``skip_first``)."""
    out: dict[str, tuple[str, int]] = {}
    for n, m in enumerate(_THING.finditer(text)):
        tok = m.group().rstrip(".:")
        shape = _shape(tok)
        if shape and not (shape == "name" and n == 0 and skip_first) and fold(tok) not in fact_cue.NOT_NAME:
            out.setdefault(fold(tok), (shape, m.start()))
    return out


def _content(text: str) -> list[str]:
    toks = fact_cue.tokens(text)
    return [t.key for t in toks if t.word and (len(t.key) >= 3 or t.text.isupper() and len(t.key) == 2)
            and t.key not in fact_cue.NOT_CONTENT and t.key not in C.CHANGE_VERBS and t.key not in C.MOTION_VERBS]


def _same(a: str, b: str) -> bool:
    return a == b or same_inflection(a, b) or same_stem(a, b) or short_form(a, b) or short_form(b, a)


@lru_cache(maxsize=4096)
def labelled(old: str, new: str) -> str:
    """The label and the new value when ``new`` notes ``old``'s slot with another value (see the module
    docstring: "staging -> t3.large"), else ""."""
    text = new.strip().rstrip(".!")
    if len(text) > 80 or "\n" in text:
        return ""
    m = _ARROW.match(text)
    if m is None:
        m = _COLON.match(text)
        if m is None or not _NOW_RE.search(fold_text(m.group("value"))):
            return ""
    label, value = m.group("label").strip(), _NOW_RE.sub(" ", fold_text(m.group("value"))).strip()
    raw_value = " ".join(w for w in m.group("value").split() if fold(w.strip(".,")) in value.split())
    words = [w for w in value.split() if w not in _ARTICLES]
    mine = _things(raw_value, skip_first=False)
    if not words or len(words) > 3 or len(mine) != len(words):
        return ""  # (the value: names, numbers or codes only)
    lab = _content(label)
    theirs = {k: v for k, v in _things(old, skip_first=True).items() if not any(_same(k, w) for w in lab)}
    gone = {v[0] for k, v in theirs.items() if k not in mine}
    if not lab or not theirs or all(k in theirs for k in mine) or not {v[0] for k, v in mine.items()
                                                                         if k not in theirs} & gone:
        return ""  # (nothing of that shape replaced, or the same value)
    # the older's slot: its content words before its first value ("Staging runs on a t3.medium instance")
    subject = _content(old[:min(at for _, at in theirs.values())])
    if not subject or any(not any(_same(w, o) for o in subject) for w in lab):
        return ""  # (another slot, or a part of the older's value)
    if fact_mood.unasserted(new) or fact_mood.unasserted(old):
        return ""
    return f"{label} -> {raw_value}"
