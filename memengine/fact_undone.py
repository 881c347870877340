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

A revert said bare, as an agent notes it ("Back to Gradle.", "Wir sind zurück bei Elasticsearch", "Retour à
Docker", "Siamo tornati a Webpack", "Terug naar Slack"), names neither the slot nor the older's thing: it
is far from the older in meaning (cosine 0.1-0.4) and shares no word with it. :func:`bare` reads that shape
(at most a pronoun and a copula, a return phrase, one run of names, "again"); :func:`returned` accepts an
older that states a change to something else ("We moved the build to Bazel", "Il bundler adesso è
Turbopack"): the return undoes that change. Anything more in the newer ("Wir sind zurück auf Node 18 für den
Build-Server", "We're back to work", "Back on Monday") is no bare revert. memengine/supersession.py asks
every candidate and retires the older only when exactly one reads so (:data:`RETURNED` marks the verdict).
Pure: no SQL, no model.
"""

from __future__ import annotations

from functools import lru_cache

from memengine import fact_cue, fact_mood
from memengine import fact_cue_lexicon as C
from memengine import fact_lexicon as L
from memengine.fact_lexicon import STOPWORDS, fold
from memengine.fact_template import same_inflection
from memengine.fact_tokens import guess_lang

__all__ = ["BACK_PHRASES", "CHANGE_WORDS", "RETURNED", "UNDO_WORDS", "WINDOW", "bare", "returned", "undone"]

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


# A return said bare: fact_cue_lexicon.REVERT_PHRASES and the forms it lacks (kept here: added there they would be
# a "now" cue for every rule and a feature of the learned decision, whose weights were fitted without them).
BACK_PHRASES = tuple(sorted(set(C.REVERT_PHRASES) | {fold(p) for p in (
    "back to", "back on", "back with", "going back to", "went back to", "moved back to", "switched back to",
    "retour à", "retour sur", "retour vers", "on revient à", "on revient sur", "revenu à", "revenus à",
    "zurück bei", "zurück beim", "zurück zu", "zurück auf", "zurückgewechselt zu", "wieder bei", "wieder auf",
    "de vuelta a", "de vuelta con", "volvemos a", "volvimos a", "regresamos a",
    "de volta ao", "de volta a", "de volta para", "voltamos ao", "voltamos a", "voltamos para",
    "tornati a", "tornati su", "tornati al", "tornato a", "tornata a", "torniamo a", "torniamo su", "di nuovo su",
    "terug naar", "terug op", "terug bij", "weer terug naar", "weer naar", "weer op",
)}, key=lambda p: (-len(p.split()), p)))
# What may stand before the phrase (the speaker and a copula: "we're", "wir sind", "siamo", "on est", "we zijn")
# and after the run of names ("again", "wieder", "de nuevo").
_BEFORE = STOPWORDS | frozenset(fold(w) for w in (
    "re are is s sind est sommes siamo ci zijn wij estamos somos ok okay so alright well also et e y und en").split())
_AGAIN = frozenset(fold(w) for w in (
    "again wieder nochmal de nouveau nouveau nuevo novo nuovo opnieuw weer it then dann alors entonces quindi dus").split())
_ARTICLES = frozenset(fold(w) for w in (
    "the a an der die das dem den le la les l el los las lo o os as il i gli de het een good old good gute bon buen").split())
# An older that states a switch in a language fact_cue does not read ("We zijn overgestapt op Teams").
_SWITCHED = frozenset(fold(w) for w in (
    "overgestapt overgegaan gemigreerd verhuisd gewisseld passato passati passata migrato migrati migrata "
    "spostato spostati").split())
# Marks the verdict of a bare return: memengine/supersession.py applies it only when one candidate reads so.
RETURNED = "a bare return"


@lru_cache(maxsize=1024)
def bare(new: str) -> tuple[str, ...]:
    """The names a bare return goes back to ("Back to Gradle." -> ("gradle",)), else (): at most the speaker
    and a copula before a phrase of :data:`BACK_PHRASES`, then one run of names (capitalised, an acronym or a
    number: "Postgres 15", "GitHub Actions"), then at most "again"; no question, plan or opinion."""
    if len(new) > 80 or fact_mood.unasserted(new):
        return ()
    toks = fact_cue.tokens(new)
    keys = [t.key for t in toks]
    for p in BACK_PHRASES:
        words = p.split()
        n = len(words)
        i = next((i for i in range(len(keys) - n + 1) if keys[i:i + n] == words), None)
        if i is None:
            continue
        if any(t.word and t.key not in _BEFORE for t in toks[:i]):
            return ()
        j = i + n
        while j < len(toks) and toks[j].key in _ARTICLES and not toks[j].cap:
            j += 1
        run: list[str] = []
        while j < len(toks) and (toks[j].cap and toks[j].word or toks[j].text[:1].isdigit()
                                 or toks[j].text.isupper()) and toks[j].key not in _AGAIN:
            run.append(toks[j].key)
            j += 1
        if not run or any(t.key in L.WEEKDAYS or t.key in L.MONTHS for t in toks[i + n:j]):
            return ()  # ("back on Monday": a return in time)
        if any(t.word and t.key not in _AGAIN for t in toks[j:]) or any(t.text in "?()" for t in toks[j:]):
            return ()
        return tuple(run)
    return ()


def returned(old: str, new: str) -> str:
    """What a bare return (:func:`bare`) of ``new`` goes back to, when ``old`` states a change to something
    else ("We moved the build to Bazel" / "Back to Gradle." -> "gradle"), else ""."""
    back = bare(new)
    if not back or fact_mood.unasserted(old):
        return ""
    keys = {t.key for t in fact_cue.tokens(old)}
    if fact_cue.find_cue(old) is None and not keys & _SWITCHED:
        return ""
    theirs = _things(old)
    if not theirs or any(same_inflection(w, o) or w == o for w in back for o in theirs):
        return ""  # (an older naming nothing, or the same thing: no change undone)
    return " ".join(back)
