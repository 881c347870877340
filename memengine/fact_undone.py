"""A revert said with its reason: the newer names the older's change and says it was undone.

Agents write reverts naming what they undo: "Reverted the Zustand migration: the app is back on Redux
Toolkit" after "The app's state moves to Zustand", "Das Upgrade auf Postgres 16 wurde zurückgerollt",
"On a annulé la migration vers Vite", "Revertimos la migración a Kotlin", "Abbiamo annullato il passaggio
a Loki". The learned decision reads the older's value (Zustand) still in the newer as a value kept and
stays in its middle band; but here the value is named as the thing undone, which says the older's state
is over. :func:`undone` finds that shape: an undo word (fact_cue_lexicon.REVERT_PHRASES, read by
fact_cue's revert reading, so "Tom is back on Monday" is none, or one of :data:`UNDO_WORDS`), a change noun
("migration", "switch", "upgrade", "Umstellung", "passaggio"), and next to that noun a name or value the
older says. A revert of another thing ("Reverted the Tailwind upgrade" after a note about Zustand) names
nothing of the older; "rolled back the carpet" names no change. memengine/supersession.py reads it
for a pair some path already linked, or whose older states a change (a change cue) near in meaning.
Pure: no SQL, no model.
"""

from __future__ import annotations

from memengine import fact_cue
from memengine import fact_cue_lexicon as C
from memengine.fact_lexicon import fold
from memengine.fact_template import same_inflection
from memengine.fact_tokens import guess_lang

__all__ = ["CHANGE_WORDS", "UNDO_WORDS", "WINDOW", "undone"]

# Verbs of undoing that fact_cue_lexicon.REVERT_PHRASES does not hold (they are no "now" cue alone:
# "annulé" is said of a meeting too; here they count only next to a change noun naming the older's thing).
UNDO_WORDS = frozenset(fold(w) for w in (
    "undid undo undone undoing backed "
    "annulé annulée annulés annulons annule "
    "deshicimos deshecho deshizo anulamos anulado anulada "
    "rückgängig zurückgenommen zurückgesetzt "
    "desfizemos desfeito desfeita anulamos anulado "
    "annullato annullata annullati annulliamo ripristinato ripristinata revertito"
).split())
# Nouns of a change beyond fact_cue_lexicon.CHANGE_NOUNS: what a revert names as undone.
CHANGE_WORDS = C.CHANGE_NOUNS | frozenset(fold(w) for w in (
    "upgrade downgrade update rollout port cutover "
    "passaggio migrazione aggiornamento cambio trasloco "
    "actualización actualizacion "
    "aktualisierung upgrade "
    "atualização atualizacao"
).split())
# How many tokens from the change noun the older's thing may stand ("the Zustand migration", "la
# migration vers Vite", "das Upgrade auf Postgres 16").
WINDOW = 3


def _things(text: str) -> set[str]:
    """The names and values of ``text`` (folded): names as fact_cue reads them (in German not a noun
    after its article, "der App"), tokens with a digit."""
    toks = fact_cue.tokens(text)
    lang = guess_lang(text)
    return {t.key for i, t in enumerate(toks) if any(ch.isdigit() for ch in t.text)
            or t.key not in fact_cue.NOT_NAME and fact_cue.is_name(toks, i, lang)}


def undone(old: str, new: str) -> str:
    """The change noun and the older's thing it names when ``new`` says that change was undone
    ("Zustand migration"), else ""."""
    toks = fact_cue.tokens(new)
    keys = [t.key for t in toks]
    if fact_cue.reverted(toks) is None and not any(k in UNDO_WORDS for k in keys):
        return ""
    theirs = _things(old)
    if not theirs:
        return ""
    mine = _things(new)
    for i, k in enumerate(keys):
        if not (k in CHANGE_WORDS or len(k) > 8 and k.endswith(C.CHANGE_NOUN_SUFFIXES)):
            continue
        for j in range(max(0, i - WINDOW), min(len(toks), i + WINDOW + 1)):
            t = toks[j]
            if j != i and t.key in mine and any(same_inflection(t.key, w) for w in theirs):
                return f"{toks[min(i, j)].text} {toks[max(i, j)].text}"
    return ""
