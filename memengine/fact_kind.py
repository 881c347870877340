"""Which attribute of a thing a value is: the kind of each value a fact states (facts23).

In one agent's store a thing has several attributes, one fact each: a server its RAM, OS, runtime, IP and
place; a person a phone, a city, an employer; a flat a rent, a landlord, a size. A write that changes one
of them ("o servidor agora tem 32 GB de RAM") names the thing, so it shares the thing's words with every
other attribute's fact ("o servidor roda Java 11"), and a change cue plus a new value read it as an update
of them (bench/fact_crowded.py: 10 of the 20 wrong writes after facts22). Sharing the thing is not sharing
the slot: the value says which attribute it is. :func:`kinds` reads the kind of each value a sentence states
— an amount with a unit of memory, money, time, length, volume, mass; a clock time; a day (a date, a
weekday, a year); a count of something; a name (a product, its version, a place, a person, a company); an
email, a URL, a phone number, an IP address — and :func:`another_attribute` says that a newer whose values
are all of kinds the older states none of changes another attribute of the thing: memengine/supersession.py
neither retires nor flags the older for it.

Read conservatively, so that a misread value lets the other paths decide rather than losing an update: a bare
number with nothing around it ("now 1200", "10.99") is of any kind; a name and a version are one kind (a
product changed with or without its version: "Postgres 14" / "MySQL"), a date, a weekday and a year one
(a day); an older that states no value at all is never told apart. Pure: no SQL, no model.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from memengine import fact_name_kind, fact_period, facts
from memengine.fact_align import same_word
from memengine.fact_lexicon import STOPWORDS, UNITS, WORD_NUMBERS, fold

__all__ = ["ANY", "NAMED", "VERSION", "another_attribute", "kinds", "names"]

# The kind of a number read with nothing that says what it counts: compatible with every kind.
ANY = "number"
NAMED = "named"
# a name with its number ("Debian 12", "ThinkPad T14"): a product, a model, a house; it may replace a plain name
# and be replaced by one (a product changed with or without its version). (A place is not told from a product:
# the analyser reads "moved to MySQL" as it reads "moved to Amsterdam".)
VERSION = "version"
_NAMED_AS = "named:"  # a name read as one kind: "named:org@hosted" (memengine/fact_name_kind.py)
# the analyser's unit classes (memengine/fact_lexicon.py UNITS) -> the kind of amount they measure
_UNIT_KIND = {"bytes": "memory", "eur": "money", "usd": "money", "gbp": "money", "duration": "duration",
              "metres": "length", "litres": "volume", "grams": "mass", "%": "percent"}
_DAY_SECONDS = 86400.0  # the multiplier of the analyser's day words ("day", "dia", "jour", "Tag")
_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_THOUSANDS = re.compile(r"\d{1,3}(?:[.,]\d{3})+")
_WORD = re.compile(r"[^\W\d_][\w'/-]*")
# German capitalises every noun: there a name is an acronym, a word capitalised inside ("TrueNAS"), a word the
# analyser reads as a place, one of two capitalised words in a row ("Skoda Octavia", "Herr Braun"), or a word
# right after a preposition that names a provider, a maker, a destination ("bei Bosch", "von Continental",
# "bei der Allianz")
_DE_NAMING = frozenset({"bei", "von", "nach", "zu", "zur", "zum", "aus"})
_DE_ARTICLES = frozenset({"der", "die", "das", "den", "dem"})


# Lengths the analyser reads no unit of (folded), a thousand said as a word, and the words a price is said after.
_LENGTHS = frozenset(fold(w) for w in ("mile miles yard yards feet foot ft inch inches meile meilen milha milhas milla "
                                       "millas miglio miglia mijl mijlen quilometro quilometros kilometro kilometros "
                                       "chilometro chilometri kilometre kilometres").split())
_THOUSAND = frozenset("thousand tausend mille mil mila duizend".split())
_PRICE = frozenset(fold(w) for w in ("cost costs price priced rent fee fees kostet kosten preis miete gebuhr coute "
                                     "coutent prix loyer tarif cuesta cuestan precio alquiler cuota custa custam preco "
                                     "aluguel mensalidade costa costano prezzo affitto canone kost prijs huur").split())


def _priced(text: str, value: str) -> str:
    """"money" when one of the three words before ``value`` is a price word ("costs 40 now", "Miete 980"), else ""."""
    at = text.find(value)
    return "money" if at >= 0 and any(fold(w) in _PRICE for w in _WORD.findall(text[:at])[-3:]) else ""


def _thousands(text: str, value: str, content: set[str]) -> str:
    """The kind of a number said with a thousand word ("80 mil quilómetros", "120 tausend Kilometer", "300 mil
    reais"): that of the word after the thousand, as if said right after the number."""
    at = text.find(value)
    words = [fold(w) for w in _WORD.findall(text[at + len(value):])[:2]] if at >= 0 else []
    after = words[1] if len(words) > 1 else ""
    if after in UNITS:
        return _kind_of_unit(UNITS[after][0]) or ANY
    if after in _LENGTHS:
        return "length"
    if after in content and after not in STOPWORDS and len(after) > 2:
        return "count:" + after
    return _priced(text, value) or ANY


def _kind_of_unit(unit: object) -> str:
    """The kind an analyser unit ("eur/duration", "bytes", "") names; "" for none."""
    head = str(unit or "").split("/")[0]
    return _UNIT_KIND.get(head, "")


def _around(text: str, value: str) -> tuple[str, str]:
    """The word right before and the word right after ``value`` in ``text`` (as written), "" when none."""
    at = text.find(value)
    if at < 0:
        return "", ""
    before = _WORD.findall(text[:at])
    after = re.match(r"\s*([^\W\d_][\w'/-]*)", text[at + len(value):])
    return (before[-1] if before and text[:at].rstrip().endswith(before[-1]) else "",
            after.group(1) if after else "")


def _counted(text: str, value: str) -> str:
    """What the quantity ``value`` counts (folded): the first word after it that is no stop word and no unit
    ("64 GB of RAM" -> "ram", "8 CPU cores" -> "cpu"), within three words; "" when none."""
    at = text.find(value)
    if at < 0:
        return ""
    for w in _WORD.findall(text[at + len(value):])[:3]:
        k = fold(w)
        if k not in STOPWORDS and k not in UNITS:
            return k
    return ""


def _is_name(word: str, first: bool, lang: str) -> bool:
    """Whether ``word`` (as written) is a name: capitalised inside the sentence; in German, where every
    noun is, only an acronym or a word capitalised inside ("TrueNAS")."""
    if first or not word[:1].isupper():
        return False
    if lang != "de":
        return True
    return len(word) > 1 and (word.isupper() or any(ch.isupper() for ch in word[1:]))


@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of the values ``text`` states, and the names it says that belong to no value (each folded):
    a name right before a number is a product and its version ("Java 17", "Peugeot 208"); one right after a
    quantity is what the quantity counts ("16 GB RAM", "8 CPU cores")."""
    f = facts.analyse(text)
    out: list[str] = []
    bound: set[str] = set()
    # the analyser's content words: what a number is followed by counts something only when it is one
    content = {p for w in f.words for p in _WORD.findall(fold(w.text)) + w.key.split()}
    for v in f.values:
        before, after = _around(text, v.text)
        first_before = not text[:max(text.find(before), 0)].strip() if before else True
        named_before = bool(before) and _is_name(before, first_before, f.lang)
        noun = _counted(text, v.text)
        if noun:
            bound.add(noun)
        raw = v.text.strip()
        at = text.find(v.text)
        if v.kind == "number" and at >= 0 and re.match(r"\s\d{3}\b", text[at + len(v.text):]):
            continue  # the first group of "62 000 km": the analyser reads the rest as the amount
        if v.kind in ("email", "url"):
            out.append(v.kind)
        elif v.kind in ("phone", "code") and _IP.fullmatch(raw):
            out.append("ip")
        elif v.kind == "phone":
            out.append("phone")
        elif v.kind in ("date", "weekday"):
            out.append("day")
        elif v.kind == "time":
            out.append("clock")
        elif v.kind == "code":
            if fact_period.periods(raw):
                out.append("day")  # a quarter of a year: "Q3" (memengine/fact_period.py)
            elif re.fullmatch(r"\d+(?:[.,]\d+)?[kK]", raw):
                out.append(_priced(text, v.text) or _kind_of_unit(UNITS.get(fold(after), ("", 0.0))[0]) or ANY)  # "65k"
            elif named_before or any(ch.isalpha() for ch in raw):
                out.append(_versioned(text, before, f.lang))  # "Ubuntu 20.04", "ThinkPad T14", "eu-west-1"
                bound.add(fold(before))
            elif _THOUSANDS.fullmatch(raw) and fold(after) in UNITS:
                out.append(_kind_of_unit(UNITS[fold(after)][0]) or ANY)  # "120.000 Kilometer"
            elif _THOUSANDS.fullmatch(raw) and fold(after) in _LENGTHS:
                out.append("length")  # "152.000 millas"
            else:
                out.append(ANY)  # ("10.99": a price, a version? unsaid)
        elif v.kind == "number" and raw[:1].isupper() and text.find(raw) > 0:
            out.append(NAMED)  # a number word written as a name ("a Three plan")
        elif v.kind == "number":
            unit = v.norm[0] if v.norm else ""
            noun = (re.findall(r"[^\W\d_]+", fold(after)) or [""])[0]
            if unit == "ordinal":
                out.append(ANY)  # ("the 3rd": a day of the month, a floor, a place in a race)
            elif unit:
                out.append(_kind_of_unit(unit) or ANY)
            elif noun in _LENGTHS:
                out.append("length")  # a length the analyser has no unit of: "45,000 miles", "80 quilómetros"
            elif noun in _THOUSAND:
                out.append(_thousands(text, v.text, content))  # "80 mil quilómetros", "300 mil reais"
            elif named_before or f.lang == "de" and before[:1].isupper() and not (noun and after[:1].isupper()):
                # (a German noun is capitalised: a number before a lowercase word counts nothing, "auf Debian 12
                # migriert")
                out.append(_versioned(text, before, f.lang))  # a version, a model, a house: "Debian 12", "Peugeot 208", "Schillerstraße 12"
                bound.add(fold(before))
            elif UNITS.get(fold(before), ("", 0.0))[1] == _DAY_SECONDS:
                out.append("day")  # a day of the month: "no dia 10", "le jour 5", "am Tag 3"
            elif noun in content and noun not in WORD_NUMBERS and len(noun) > 2 and not after[:1].isupper():
                out.append("count:" + noun)  # "8 cores", "vier Festplatten", "12 núcleos", "2000 reais"
            elif re.fullmatch(r"(?:19|20)\d\d", raw):
                # a year; one right before a name is the model's ("a 2016 Toyota Corolla")
                out.append(NAMED if after[:1].isupper() else "day")
            elif noun in content and len(noun) > 2:
                out.append("count:" + noun)  # ("8 CPU cores", "500 Mbit/s": what a name counts)
            else:
                # a bare number after a price word is money ("costs 40 now", "the rent is 1200 a month"); else
                # any kind ("on est à 890 depuis janvier", "subiu pra 119 esse mês")
                out.append(_priced(text, v.text) or ANY)
        else:
            out.append(ANY)
    bound |= {fold(w) for v in f.values for w in _WORD.findall(v.text)}  # ("14 March", "Thursdays")
    # a period of a month or a year ("fim de março", "Mitte Mai", "next spring"): a day (memengine/fact_period.py)
    periods = fact_period.periods(text)
    if periods and not any(fact_period.periods(v.text) for v in f.values if v.kind == "code"):
        out.append("day")
    bound |= fact_period.period_words(text)
    placed = {fold(w.text) for w in f.words if w.place}  # a name after a place word ("nach Stuttgart")
    # a name in the subject phrase is the thing's or the attribute's ("Priya's phone", "The build server's IP
    # address is …"), not a value
    bound |= {p for w in f.words[:f.subject_end] for p in _WORD.findall(fold(w.text))}
    names = []
    words = _WORD.findall(text)
    for n, w in enumerate(words):
        k = fold(w)
        if k in bound or k in STOPWORDS or k in UNITS:
            continue
        if _is_name(w, n == 0, f.lang) or k in placed or f.lang == "de" and n and w[:1].isupper() and (
                fold(words[n - 1]) in _DE_NAMING or n > 1 and fold(words[n - 1]) in _DE_ARTICLES
                and fold(words[n - 2]) in _DE_NAMING or n + 1 < len(words) and words[n + 1][:1].isupper()
                and fold(words[n + 1]) not in STOPWORDS):
            names.append(k)
    if not any(ch.isupper() for ch in text):
        out.append(ANY)  # written without capitals: its names cannot be told from other words
    return tuple(out), tuple(names)


def kinds(text: str) -> frozenset[str]:
    """The kinds of the values ``text`` states (a name counts as a value of the kind :data:`NAMED`), e.g.
    {"memory"} for "The build server now has 64 GB of RAM", {"named"} for "Priya works for Deloitte", {"version"}
    for "O servidor roda Java 11"."""
    vals, names = _read(text)
    return frozenset(vals) | (frozenset({NAMED}) if names else frozenset())


def _named(kind: str) -> bool:
    """Whether ``kind`` is a name's: unread (:data:`NAMED`), a version, or read (``named:org@hosted``)."""
    return kind in (NAMED, VERSION) or kind.startswith(_NAMED_AS)


def _name_kind(kind: str) -> tuple[str, str]:
    """The kind of name and its cue word of a read name kind ("named:org@hosted" -> ("org", "hosted")); a version
    is a system's, read from its number."""
    if kind == VERSION:
        return fact_name_kind.SYSTEM, ""
    what, _, cue = kind[len(_NAMED_AS):].partition("@")
    return what, cue


def names(text: str) -> tuple[str, ...]:
    """The names ``text`` states as values (folded; not its subject's, not a quantity's or a version's word)."""
    return _read(text)[1]


def _compatible(a: str, b: str) -> bool:
    """Whether a value of kind ``a`` may replace one of kind ``b``: the same kind, or either unsaid; two
    counts only of one thing ("8 cores" / "12 cores"); two names unless both are read as names of other kinds
    (a system against a host, a place against a person: memengine/fact_name_kind.py), and even then when one
    cue word governs both ("managed by Mr. Hughes" / "now managed by Foxtons": one slot)."""
    if a == ANY or b == ANY or a == b:
        return True
    if _named(a) and _named(b):
        if NAMED in (a, b):
            return True
        (ka, ca), (kb, cb) = _name_kind(a), _name_kind(b)
        if ca and cb and same_word(ca, cb):
            return True
        # two companies serving in two ways (an insurer, a garage: memengine/fact_name_kind.py SERVICE) are two
        return ka == kb and not (fact_name_kind.SERVICE.get(ca, ca) != fact_name_kind.SERVICE.get(cb, cb)
                                 and ca in fact_name_kind.SERVICE and cb in fact_name_kind.SERVICE)
    if a.startswith("count:") and b.startswith("count:"):
        return same_word(a[6:], b[6:])
    return False


def _versioned(text: str, name: str, lang: str) -> str:
    """The kind of a name said with a number ("Debian 12", "Peugeot 208", "Bergmannstraße 5"): a version (a
    system's) unless the word governing it says a place, a company or a person ("wohnt in der Bergmannstraße 5")."""
    kind, cue = fact_name_kind.kinds_of(text, lang).get(fold(name), ("", ""))
    return VERSION if kind in ("", fact_name_kind.SYSTEM) else f"{_NAMED_AS}{kind}@{cue}"


def _own(text: str, names: list[str], known: Mapping[str, str] | None) -> set[str]:
    """The kinds of ``names`` (said by ``text`` alone): each read from its own sentence, else from the store's
    other uses of it (``known``: memengine/fact_name_kind.py), else :data:`NAMED` (no evidence)."""
    read = fact_name_kind.kinds_of(text, facts.analyse(text).lang)
    out: set[str] = set()
    for name in names:
        kind, cue = read.get(name, ("", ""))
        kind = kind or (known or {}).get(name, "")
        out.add(f"{_NAMED_AS}{kind}@{cue}" if kind else NAMED)
    return out


def another_attribute(old: str, new: str, known: Mapping[str, str] | None = None) -> bool:
    """Whether ``new`` changes another attribute of ``old``'s thing rather than ``old``'s own: both state
    values, and none of ``new``'s is of a kind ``old`` states a value of ("O servidor agora tem 32 GB de
    RAM" / "O servidor roda Java 11": memory against a version; "Priya's email is now …" / "Priya lives in
    Leeds"; "The team retro is now on Thursdays" / "The team retro is at 4 pm": a day against a clock time).
    Names both say are the thing's, not a value ("Priya", "Jonas"); a move from one place to another, a
    price for a price stay of one kind. A name is read as a system, a place, a company or a person where its own
    sentence or ``known`` (the kind of each name in the store's other facts: memengine/fact_name_kind.py) says so:
    "… migrated to Rocky Linux 9" changes another attribute than "… is hosted by Hetzner"."""
    vals_a, names_a = _read(old)
    vals_b, names_b = _read(new)
    # (a name the other sentence says anywhere, its subject too, is the thing's: "den Backup-Server")
    own_a = [a for a in names_a if not any(same_word(a, b) for b in names_b + tuple(_words(new)))]
    own_b = [b for b in names_b if not any(same_word(a, b) for a in names_a + tuple(_words(old)))]
    ka = set(vals_a) | _own(old, own_a, known)
    kb = set(vals_b) | _own(new, own_b, known)
    if not ka or not kb:
        return False
    # what a number is followed by, said by the other sentence too, is the slot's word ("unsere miete beträgt
    # 1100 euro" / "jetzt zahlen wir 1180 miete"), not a thing counted
    words_a, words_b = _words(old), _words(new)
    ka = {ANY if k.startswith("count:") and any(same_word(k[6:], w) for w in words_b) else k for k in ka}
    kb = {ANY if k.startswith("count:") and any(same_word(k[6:], w) for w in words_a) else k for k in kb}
    return not any(_compatible(a, b) for a in ka for b in kb)


def _words(text: str) -> list[str]:
    """The folded words of ``text``."""
    return [fold(w) for w in _WORD.findall(text)]
