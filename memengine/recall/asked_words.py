"""A question's own frame words — its language's function words, its question words — name nothing (round 40).

The keyword side searches a question's content words, and a content word is whatever is not an English stop word
(memengine.text.STOPWORDS). A question asked in another language keeps its frame: "Quand est l'anniversaire de
mamie ?" searched ``quand``, ``est``, ``de`` and the phrase ``l anniversaire``. In a chat of a hundred turns
"quand" is a rare word, so its idf is high, and the one turn saying "quand même" ranked first, while "Mamie aura 85
ans le 14 mars" (holding "mamie", and "anniversaire" nowhere) fell to 53rd (held-out 37, bench/README.md "Round 40").
The same holds of "wann", "wie", "ist" in a German question, "cuándo", "qué", "es" in a Spanish one. And in English
"how much" / "how many" leave "much" / "many" as content words: "How much were my plane tickets?" put "i have so
much to write" first.

:func:`frame_terms` returns the query terms (as :func:`memengine.text.query_terms` gives them) that are such words:

- "much" / "many" right after "how" (the amount is asked; the words name no subject; ``"all"`` only: measured, off);
- when the question is clearly in one language other than English — at least :data:`LEAD_WORDS` of its words are
  that language's function or question words and more of them than English's (memengine.fact_langs' tables of
  seven languages and the question words below; Polish's function words here too) — every term that is one of that
  language's words, and a French or Italian elided article or pronoun before a word ("l'anniversaire" is searched
  as "anniversaire": FTS5 splits at the apostrophe, so the quoted term was the phrase "l anniversaire").

The pipeline leaves them out of the keyword side's words (:func:`content_terms`; never all of them: a question made
only of such words keeps its words). An English question is unchanged but for "how much / many". Pure, no read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine.fact_langs import _WORDS as _FUNCTION
from memengine.text import STOPWORDS

# How many of its own words a question needs to be read as in a language other than English (one "de" or "a" is
# English, Spanish and French alike).
LEAD_WORDS = 2

# Question words and a question's usual auxiliaries, by language (lower case; accents as written and bare).
_QUESTION: dict[str, frozenset[str]] = {lang: frozenset(words.split()) for lang, words in {
    "en": "how what when where which who whom whose why",
    "de": """wann wo wie was wer wen wem wessen warum wieso weshalb welche welcher welches welchen welchem woher
        wohin wieviel wieviele viel viele""",
    "nl": "wanneer waar hoe wat wie welke welk waarom hoeveel",
    "fr": """quand où ou comment combien pourquoi quel quelle quels quelles qui que quoi qu lequel laquelle
        lesquels est-ce c'est ce cette ces""",
    "es": """cuándo cuando dónde donde cómo como cuánto cuánta cuántos cuántas cuanto cuanta cuantos cuantas qué
        quién quien quiénes quienes cuál cual cuáles cuales porqué""",
    "pt": """quando onde como quanto quanta quantos quantas quem qual quais porque porquê quê""",
    "it": "quando dove come quanto quanta quanti quante che chi quale quali perché cosa",
    "pl": """kiedy gdzie jak ile co kto kogo komu który która które którzy dlaczego czemu czy
        w z ze na do od po za i a o u że się nie jest są był była było były to ten ta te tego dla przez jaki jaka
        jakie mój moja moje nasz nasza nasze nam nas mi mnie my""",
}.items()}
_LANGS: dict[str, frozenset[str]] = {lang: _FUNCTION.get(lang, frozenset()) | _QUESTION.get(lang, frozenset())
                                     for lang in sorted({*_FUNCTION, *_QUESTION})}
# English counts with all its stop words: Polish "do", "i", "my", "to", Italian "i", "in" are English words too ("Do I
# write code myself?" holds two Polish function words and three English ones)
_LANGS["en"] = _LANGS["en"] | STOPWORDS
# French and Italian elisions: an article, pronoun or conjunction cut before a vowel ("l'", "d'", "qu'", "dell'")
_ELIDED = re.compile(r"^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|dell|dall|nell|sull|all|coll|quell|un)['’](?=\w)")
_WORD = re.compile(r"[^\W\d_][^\W\d_'’-]*", re.UNICODE)
_HOW_MUCH = re.compile(r"\bhow\s+(much|many)\b", re.IGNORECASE)


@lru_cache(maxsize=1024)
def question_language(query: str) -> str | None:
    """The one language other than English ``query`` is clearly written in (its function and question words:
    at least LEAD_WORDS and more than of any other language, English included), or None."""
    words = [_ELIDED.sub("", w) for w in _WORD.findall(query.lower().replace("’", "'"))]
    counts = {lang: sum(1 for w in words if w in table) for lang, table in _LANGS.items()}
    best = max(counts.values(), default=0)
    top = [lang for lang, n in counts.items() if n == best]
    if best < LEAD_WORDS or len(top) != 1 or top[0] == "en":
        return None  # (a tie — Spanish and Portuguese share "de", "que", "como" — reads no language)
    return top[0]


def frame_terms(query: str, terms: list[str], how: bool = True) -> set[str]:
    """The words of ``terms`` (the question's content words, lower case) that are only its frame: "much" / "many"
    after "how" (``how``); in a question clearly in another language than English, that language's function and
    question words (and an elided article's term, whose word is searched bare: see :func:`content_terms`)."""
    out = {m.group(1).lower() for m in _HOW_MUCH.finditer(query)} & set(terms) if how else set()
    lang = question_language(query)
    if lang is not None:
        table = _LANGS[lang]
        out |= {t for t in terms if t in table or _ELIDED.sub("", t) in table}
    return out


def content_terms(query: str, terms: list[str], mode: str = "all") -> list[str]:
    """``terms`` without the question's frame words (:func:`frame_terms`; ``mode`` "lang": another language's only,
    "all": "how much / many" too), a French or Italian elided term as its bare word when the question is in one of
    them; all of ``terms`` when nothing else is left."""
    frame = frame_terms(query, terms, how=mode == "all")
    lang = question_language(query) if any("'" in t or "’" in t for t in terms) else None
    kept: list[str] = []
    for t in terms:
        if t in frame:
            continue
        bare = _ELIDED.sub("", t) if lang in ("fr", "it") else t
        if bare and bare not in kept:
            kept.append(bare)
    return kept or terms
