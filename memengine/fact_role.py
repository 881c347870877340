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
# The definite articles and possessives of each language (folded): the noun phrase after one names something the
# thing has or the fact is about, as an indefinite one ("lives in a flat", "drives a blue Toyota") describes a value.
# Read in the sentence's own language only: "i" is an Italian article and an English pronoun, "a" a Portuguese
# article and a French verb.
_DEFINITE = {
    "en": _set("the"), "de": _set("der die das den dem des"), "fr": _set("le la les"), "es": _set("el la los las"),
    "pt": _set("o a os as"), "it": _set("il lo la i gli le"), "nl": _set("de het"),
}
_POSSESSIVE = {
    "en": _set("its our their his her my your"),
    "de": _set("sein seine seinen seinem seiner ihr ihre ihren ihrem ihrer unser unsere unseren unserem unserer mein "
               "meine meinen"),
    "fr": _set("son sa ses notre nos leur leurs mon ma mes"), "es": _set("su sus nuestro nuestra nuestros nuestras mi mis"),
    "pt": _set("seu sua seus suas nosso nossa nossos nossas meu minha"),
    "it": _set("suo sua suoi sue nostro nostra nostri nostre mio mia"), "nl": _set("zijn haar hun ons onze mijn"),
}
_POSSESSIVE_S = re.compile(r"['’]s$")
_ELIDED = re.compile(r"^[dlnmst]['’](?=\w)|^qu['’](?=\w)")  # "l'audit", "d'équipe", "s'est": elided
_THE_ELIDED = re.compile(r"^l['’](?=\w)")  # the definite article elided: "l'audit", "l'antispam"
# A genitive link: in the subject phrase, the noun before it is the job of the thing after it ("backups of the
# server", "L'antispam du serveur").
_OF = _set("of", "des", "du", "del", "do da dos das", "della dello dei degli delle", "van")
_NOW_NL = _set("nu inmiddels tegenwoordig now")
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d[\w.,]*")
Phrase = tuple[str, ...]
_RUN = 3  # words of a role phrase ("health insurance", "copias de seguridad")


def _skip(word: str) -> bool:
    """Whether the folded ``word`` names no job: a stop word, a change or "now" word, a short word, a unit ("these
    days")."""
    return (len(word) < 3 or word in STOPWORDS or word in CHANGE_WORDS or word in NOW_WORDS or word in _NOW_NL
            or word in DETERMINERS or word in UNITS)


def _name_like(raw: str, n: int, toks: list[str]) -> bool:
    """Whether the token ``raw`` at ``n`` is a name (a value): an acronym, a word with an inner capital, a capitalised
    word before a number ("Redis 7"), any word with a digit."""
    if any(ch.isdigit() for ch in raw):
        return True
    if not raw[:1].isupper() or n == 0:
        return False
    nxt = toks[n + 1] if n + 1 < len(toks) else ""
    return raw.isupper() and len(raw) > 1 or any(ch.isupper() for ch in raw[1:]) or nxt[:1].isdigit()


# when a thing was done, never the job a name does ("Migrated the books … over the weekend", facts39)
_WHEN = _set("weekend weekends morning evening afternoon night holidays holiday", "wochenende", "week-end",
             "finde", "weekend")


def _bare(token: str) -> str:
    """``token`` folded, without an elided article or a possessive "'s" ("l'audit" -> "audit", "app's" -> "app")."""
    return _POSSESSIVE_S.sub("", _ELIDED.sub("", fold(token)))


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[frozenset[Phrase], frozenset[Phrase], frozenset[Phrase], tuple[tuple[str, str], ...]]:
    """The role phrases of ``text`` (folded words), its strong ones (after a role marker, a purpose said after a
    name, a possessive, before a genitive in the subject phrase, or an object's definite article: not one an article
    puts in the subject, "the primary DNS provider"), those of them said as a purpose ("for the job": a reason as
    often as a job), and each name (folded) with the cue word governing it (memengine/fact_name_kind.py: "runs",
    "hosted", "assicurata"; "" when none)."""
    from memengine import facts

    f = facts.analyse(text)
    definite, possessive = _DEFINITE.get(f.lang, frozenset()), _POSSESSIVE.get(f.lang, frozenset())
    spans = [m.span() for m in _TOKEN.finditer(text)]
    toks = [text[a:b] for a, b in spans]
    folded = [_bare(t) for t in toks]
    periods = fact_period.period_words(text)
    # the subject phrase: a noun an article puts there ("the primary DNS provider") is the thing's as often
    subject = {p for w in f.words[:f.subject_end] for p in _ELIDED.sub("", fold(w.text)).split()}
    # the values: names as written, the names memengine/fact_kind.py reads (German ones too: "einen Tesla Model 3"),
    # the analyser's values ("le jeudi soir", "al giovedì"); a capitalised word inside the sentence but in German
    valued = set(fact_kind.names(text)) | {p for v in f.values for p in _TOKEN.findall(fold(v.text))}
    names = {n for n, t in enumerate(toks) if _name_like(t, n, toks) or f.lang != "de" and n and t[:1].isupper()
             or folded[n] in valued or any(ch.isupper() for ch in t[1:])}
    cues = fact_name_kind.kinds_of(text, f.lang)
    roles: set[Phrase] = set()
    strong: set[Phrase] = set()
    purpose: set[Phrase] = set()

    def content(k: int) -> bool:
        return k < len(toks) and k not in names and not _skip(folded[k]) and folded[k] not in periods \
            and folded[k] not in _WHEN

    def run(k: int) -> Phrase:
        """The content words from ``k`` on (at most :data:`_RUN`), up to a name, a function word or a value: () when a
        name comes first (the article introduced the value: "the Volvo")."""
        end = k
        while content(end) and end - k < _RUN:
            end += 1
            if fold(toks[end - 1]).endswith(("'s", "’s")):
                break  # "the analytics server's backups": what follows is what the server has
        return tuple(folded[k:end])

    def determined(k: int) -> Phrase:
        """The phrase after a definite article or a possessive at ``k`` (none, or one of them), else ()."""
        if k < len(toks) and (folded[k] in definite or folded[k] in possessive):
            k += 1
        return run(k)

    n = 0
    while n < len(toks):
        w = folded[n]
        marker = w in _AS and (n == 0 or n - 1 in names and cues.get(fold(toks[n - 1]), ("", ""))[0] != fact_name_kind.PERSON)
        aim = w in _FOR and any(k < n for k in names) and n - 1 in names
        if marker or aim:
            # a role marker right after a name or opening the sentence ("PostgreSQL 12 as its database", "Als
            # Datenbank nutzt …"); after a verb its noun is the value ("travaille comme infirmière"), after a person
            # the person's ("le docteur Petit comme généraliste")
            got = determined(n + 1)
            if got:
                roles.add(got)
                strong.add(got)
                if aim:
                    purpose.add(got)
            n += 1
            continue
        after_det = bool(n) and (folded[n - 1] in definite or folded[n - 1] in possessive
                                 or fold(toks[n - 1]).endswith(("'s", "’s"))) or bool(_THE_ELIDED.match(fold(toks[n])))
        if after_det and content(n):
            got = run(n)
            at = n + len(got)
            if got and at in names and folded[n - 1] in definite and "," not in text[spans[at - 1][1]:spans[at][0]]:
                # after a definite article, the kind of the name right after it, no job: "la clínica San Antón",
                # "the café Blue Door" (the apposition "the database, PostgreSQL 12" is set off by a comma; lead)
                n = at
                continue
            if got:
                roles.add(got)
                if not (folded[n - 1] in definite or _THE_ELIDED.match(fold(toks[n]))) or not set(got) & subject \
                        or n + len(got) < len(toks) and folded[n + len(got)] in _OF:
                    # what the thing has ("its data", "Lena's health insurance"), an object, what is of the thing
                    # ("Les journaux du serveur")
                    strong.add(got)
                n += len(got)
                continue
        if content(n) and n + 1 < len(toks) and folded[n + 1] in _OF and w in subject:
            roles.add((w,))
            strong.add((w,))  # "Nightly backups of the billing server", "L'antispam du serveur"
        n += 1
    # each name with the cue word governing it, where one says what it is ("runs", "assicurata", "hosted"): a name
    # whose job its verb says ("The API server runs Alma Linux 9"; "The user got an iPhone 15" says no job at all;
    # a person's naming verb, "called", says none either)
    governed = tuple((folded[at], cue if kind != fact_name_kind.PERSON else "")
                     for at in sorted(names) for kind, cue in [cues.get(fold(toks[at]), ("", ""))])
    return frozenset(roles), frozenset(strong), frozenset(purpose), governed


def roles(text: str) -> frozenset[Phrase]:
    """The phrases (folded words) ``text`` says the job of its name in: {("mail",)} of "The API server sends its mail
    through Postmark" (with the thing's own: ("api",)... when an article puts it before the name)."""
    return _read(text)[0]


def _one(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one word: inflected alike, of two genders ("jefe" / "jefa", "amigo" / "amiga"), or
    one the head of the other's compound ("books" / "bookkeeping", "Miete" / "Mietvertrag": facts39)."""
    return same_word(a, b) or len(a) > 3 and len(a) == len(b) and a[:-1] == b[:-1] and a[-1] in "aeo" and b[-1] in "aeo" \
        or _compound(a, b) or _compound(b, a)


def _compound(a: str, b: str) -> bool:
    """Whether ``b`` is a compound opening with ``a`` (a plural's -s dropped): "book" + "keeping"."""
    head = a[:-1] if a.endswith("s") and len(a) > 4 else a
    return len(head) >= 4 and b.startswith(head) and len(b) - len(head) >= 4 and b[len(head):].isalpha()


def _said(phrase: Phrase, words: list[str]) -> bool:
    """Whether any word of ``phrase`` is said in ``words`` (inflected alike)."""
    return any(_one(p, w) for p in phrase for w in words)


def another_role(old: str, new: str) -> bool:
    """Whether ``old`` and ``new`` give their names two different jobs: each says a strong role phrase (after a role
    marker, a possessive, before a genitive, or an object's definite article) the other says no word of ("keeps its
    data in MariaDB 11" / "uses Memcached as its cache"), or one says a strong role the other does not while the
    other says none and its own name is governed by a cue word the first does not say ("runs Alma Linux 9" / "uses
    Memcached as its cache"; not a purpose: "relocated to Seattle for the job"). A thing's own words are said by
    both and cancel out."""
    ro, so, po, go = _read(old)
    rn, sn, pn, gn = _read(new)
    wo = [_bare(t) for t in _TOKEN.findall(old)]
    wn = [_bare(t) for t in _TOKEN.findall(new)]
    only_o = [r for r in ro if not _said(r, wn)]
    only_n = [r for r in rn if not _said(r, wo)]
    if any(r in so for r in only_o) and any(r in sn for r in only_n):
        return True  # (a noun only an article puts in the subject is no job: "Die Besprechung" / "Das Meeting")

    def governor(governed: tuple[tuple[str, str], ...], other: list[str]) -> str:
        """The cue word governing the first name not said by the other fact (its value's), "" when none."""
        return next((g for name, g in governed if not _said((name,), other)), "")

    if not only_o and any(r not in pn and not _said(r, wo) for r in sn):
        g = governor(go, wn)
        return bool(g) and not _said((g,), wn)
    if not only_n and any(r not in po and not _said(r, wn) for r in so):
        g = governor(gn, wo)
        return bool(g) and not _said((g,), wo)
    return False
