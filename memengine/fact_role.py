"""What a name does in its fact: two names of one kind doing two jobs are two attributes (facts26).

memengine/fact_name_kind.py reads the kind of a name (a system, a place, a company, a person); a thing has several
names of one kind: a server its OS, its database, where its backups go, who sends its mail; a person a bank and an
insurer; a team a chat app and a CI. "The API server now keeps its data in MariaDB 11" names a system as "The API
server runs Alma Linux 9" does, and a change cue plus a new name read it as an update of the OS. The job a name does
is said around it, in general words, not in a list of jobs:

- after a role marker ("as its database", "als Datenbank", "comme base", "como banco de dados", "come database",
  "als cache") or a purpose after the name ("uses Notion for the docs", "usa Asana per i progetti"): an explicit role;
- the nouns the fact puts its name's job in: a noun after a possessive or a determiner ("sends its mail through",
  "Lena's health insurance", "gestiona los tickets en") or before a genitive ("backups of the billing server",
  "las copias de seguridad del servidor").

:func:`another_role` says that two facts give their names two different jobs: each says a role word the other says
nowhere, or one says a role the other does not, the other says none and its name is governed by a verb the
first does not say ("runs Alma Linux 9" / "uses Memcached as its cache"). A job said by one fact alone in other words ("We use
Postgres 14" / "We now use MySQL as our database": the verb is said again) or by neither is no evidence. Pure: no SQL,
no model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_kind, fact_name_kind, fact_period
from memengine.fact_align import same_word
from memengine.fact_change_words import CHANGE_WORDS, NOW_WORDS
from memengine.fact_lexicon import DETERMINERS, STOPWORDS, UNITS, _set, fold

__all__ = ["another_role", "roles"]

# A role marker: the noun after it is the job the name does ("as its database").
_AS = _set("as", "als", "comme", "como", "come")
# A purpose said after the name: "uses Notion for the docs", "usa Asana per i progetti", "für die Backups".
_FOR = _set("for", "fur", "pour", "para", "per", "voor")
# Possessives beyond the lexicon's determiners (folded): the noun after one is what the thing has.
_POSSESSIVES = _set("its our their his her my your", "sein seine seinen seiner ihr ihre ihren unser unsere "
                    "unseren", "son sa ses notre nos leur leurs", "su sus nuestro nuestra nuestros nuestras",
                    "seu sua seus suas nosso nossa nossos nossas", "suo sua suoi sue nostro nostra nostri nostre",
                    "zijn haar hun ons onze mijn")
_DUTCH = _set("het de een")  # Dutch articles (not among the lexicon's determiners; "de" is a Romance "of" too)
_ARTICLES = DETERMINERS | _DUTCH
_POSSESSIVE_S = re.compile(r"['’]s$")
_NONE = _set("no every each some one")  # quantifiers: "no longer", "every week" put no job after them
_ELIDED = re.compile(r"^[dlnmst]['’](?=\w)|^qu['’](?=\w)")  # "l'audit", "d'équipe": the article elided
# A genitive link: the noun before it is the job of the thing after it ("backups of the server").
_OF = _set("of", "des", "du", "del", "do da dos das", "della dello dei degli delle", "van")
_NOW_NL = _set("nu inmiddels tegenwoordig now")
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d[\w.,]*")


def _skip(word: str, noun: bool = False) -> bool:
    """Whether the folded ``word`` names no job: a stop word, a change or "now" word, a short word, a unit ("these
    days"). After an article (``noun``) a change word is a noun ("der Umzug", "the move")."""
    return (len(word) < 3 or word in STOPWORDS or (word in CHANGE_WORDS or word in NOW_WORDS) and not noun
            or word in _NOW_NL or word in _ARTICLES or word in _POSSESSIVES or word in UNITS)


def _name_like(raw: str, n: int, toks: list[str]) -> bool:
    """Whether the token ``raw`` at ``n`` is a name (a value): an acronym, a word with an inner capital, a capitalised
    word before a number ("Redis 7"), any word with a digit; in a language other than German a capitalised word
    inside the sentence is one too (German capitalises its nouns: a role noun there is capitalised)."""
    if any(ch.isdigit() for ch in raw):
        return True
    if not raw[:1].isupper() or n == 0:
        return False
    nxt = toks[n + 1] if n + 1 < len(toks) else ""
    return raw.isupper() and len(raw) > 1 or any(ch.isupper() for ch in raw[1:]) or nxt[:1].isdigit()


def _bare(token: str) -> str:
    """``token`` folded, without an elided article or a possessive "'s" ("l'audit" -> "audit", "app's" -> "app")."""
    return _POSSESSIVE_S.sub("", _ELIDED.sub("", fold(token)))


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, str], ...]]:
    """The role words of ``text`` (folded), its strong ones (after a role marker, a purpose said after a name, a
    possessive, or before a genitive: not only after an article, "the primary DNS provider"), and each name (folded)
    with the cue word governing it (memengine/fact_name_kind.py: "runs", "hosted", "assicurata"; "" when none)."""
    from memengine import facts

    f = facts.analyse(text)
    toks = _TOKEN.findall(text)
    elided = [bool(_ELIDED.match(fold(t))) for t in toks]
    folded = [_bare(t) for t in toks]
    periods = fact_period.period_words(text)
    # the subject phrase: a noun an article puts there ("the primary DNS provider") is the thing's as often
    subject = {p for w in f.words[:f.subject_end] for p in _ELIDED.sub("", fold(w.text)).split()}
    # the values: names as written, the names memengine/fact_kind.py reads (German ones too: "einen Tesla Model 3"),
    # the analyser's values ("le jeudi soir", "al giovedì")
    valued = set(fact_kind.names(text)) | {p for v in f.values for p in _TOKEN.findall(fold(v.text))}
    names = [n for n, t in enumerate(toks) if _name_like(t, n, toks) or f.lang != "de" and n and t[:1].isupper()
             or folded[n] in valued or any(ch.isupper() for ch in t[1:])]
    roles: set[str] = set()
    strong: set[str] = set()
    cues = fact_name_kind.kinds_of(text, f.lang)

    def noun(k: int) -> str:
        """The first word from ``k`` past determiners and possessives, if it may name a job."""
        while k < len(toks) and (folded[k] in _ARTICLES or folded[k] in _POSSESSIVES):
            k += 1
        if k >= len(toks) or k in names or _skip(folded[k], True) or folded[k] in periods:
            return ""
        return folded[k]

    for n, w in enumerate(folded):
        # a role marker right after a name or opening the sentence ("PostgreSQL 12 as its database", "Als Datenbank
        # nutzt …"); after a verb its noun is the value ("travaille comme infirmière"), after a person it is the
        # person's ("le docteur Petit comme généraliste")
        if w in _AS and (n == 0 or n - 1 in names and cues.get(fold(toks[n - 1]), ("", ""))[0] != fact_name_kind.PERSON) \
                or w in _FOR and names and names[0] < n:
            got = noun(n + 1)
            if got:
                strong.add(got)
                roles.add(got)
            continue
        before = folded[n - 1] if n else ""
        after = folded[n + 1] if n + 1 < len(folded) else ""
        article = before in DETERMINERS and before not in _NONE or before in _DUTCH and f.lang == "nl" or elided[n]
        # (a change word is a noun after a possessive or an article of two letters or more: "a annulé" is a verb)
        if n in names or _skip(w, len(before) > 1 and (article or before in _POSSESSIVES)) or w in periods:
            continue
        if before in _POSSESSIVES or n and fold(toks[n - 1]).endswith(("'s", "’s")) or after in _OF:
            strong.add(w)  # what the thing has: "keeps its data in", "Lena's health insurance", "backups of"
            roles.add(w)
        elif article:
            roles.add(w)
            if w not in subject:
                strong.add(w)  # an object: "manda el correo con SendGrid" ("the primary DNS provider": the thing's)
    # each name with the cue word governing it, where one says what it is ("runs", "assicurata", "hosted"): a name
    # whose job its verb says ("The API server runs Alma Linux 9"; "The user got an iPhone 15" says no job at all)
    governed = [(folded[at], cues.get(fold(toks[at]), ("", ""))[1]) for at in names]
    return frozenset(roles), frozenset(strong), tuple(governed)


def roles(text: str) -> frozenset[str]:
    """The words (folded) ``text`` says the job of its name in: {"mail"} of "The API server sends its mail through
    Postmark" (with the thing's own words: "server" after "the")."""
    return _read(text)[0]


def _said(word: str, words: list[str]) -> bool:
    return any(same_word(word, w) for w in words)


def another_role(old: str, new: str) -> bool:
    """Whether ``old`` and ``new`` give their names two different jobs: each says a strong role word (after a role
    marker, a possessive, before a genitive, or an object's article) the other says nowhere ("keeps its data in
    MariaDB 11" / "uses Memcached as its cache"), or one says a strong role the other does not while the other says
    none and its own name is governed by a cue word the first does not say ("runs Alma Linux 9" / "uses Memcached
    as its cache"). A thing's own words are said by both and cancel out."""
    ro, so, go = _read(old)
    rn, sn, gn = _read(new)
    wo = [_bare(t) for t in _TOKEN.findall(old)]
    wn = [_bare(t) for t in _TOKEN.findall(new)]
    only_o = [w for w in ro if not _said(w, wn)]
    only_n = [w for w in rn if not _said(w, wo)]
    if any(w in so for w in only_o) and any(w in sn for w in only_n):
        return True  # (a noun only an article puts in the subject is no job: "Die Besprechung" / "Das Meeting")

    def governor(governed: tuple[tuple[str, str], ...], other: list[str]) -> str:
        """The cue word governing the first name not said by the other fact (its value's), "" when none."""
        return next((g for name, g in governed if not _said(name, other)), "")

    if not only_o and any(not _said(w, wo) for w in sn):
        g = governor(go, wn)
        return bool(g) and not _said(g, wn)
    if not only_n and any(not _said(w, wn) for w in so):
        g = governor(gn, wo)
        return bool(g) and not _said(g, wo)
    return False
