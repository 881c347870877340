"""(brief32) People a chat's authors talk ABOUT, for the brief's People section.

A chat's People section listed its authors only, and brief_namedpeople reads notes (no author): the friend whose
wedding two friends plan for months ("Jess's hen do", "Jess wants the bridesmaids in sage green"), the colleague whose
leaving do one of them organises ("Derek is leaving", "your Derek?"), a cousin in a Turkish chat ("Zeynep'e çok
sevindim", "Zeynep'in düğünü") had no line. A capitalised word is not a person ("York", "Porto", "Tamam" at a turn's
start), so a name counts when the turns read give evidence that a person is meant (brief_namedpeople's cues: a title
or role, a verb only people do after it, a person's belonging after "'s"; and here, as chats say them, any "X's …" and
a case ending written after an apostrophe, "Zeynep'in"), and:

* it is said in at least TURNS_MIN turns, with EVIDENCE_MIN points, or by two authors or more with one point
  (a person talked about across speakers); or
* it is said in two turns with a title or a role (brief_namedpeople's rule for notes: "Mrs Kowalski keeps asking").

Never an author's name or a word of one, never a word the turns read also write in lower case (a sentence's first
word: "Tamam", "Shall"), never a name the People section already has. Language-free apart from the cues.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from memengine import brief_dates, brief_firms, brief_namedpeople, brief_places, brief_talkedcues, summarize, timekind
from memengine.brief_namedpeople import STATE_CHARS, STATE_SEP
from memengine.brief_pool import FADED, POOL_MAX, Store
from memengine.brief_text import one_line

FIRMS_NO_PERSON = True  # (brief37) a firm's name ("Fenwick Joinery") is no person (brief_firms.firm_name)
# (brief37) OFF: a professional met by title ("Dr Morel") as no person lost held-out 24's expected "Dr. Aksoy" (the
# father's surgeon: people in People 17 -> 16 / 17)
OFFICES_NO_PERSON = False
LOWER_NAMES = True  # (brief33) names in lower case / not always capitalised, places and glued openers (off: brief32)
TURNS_MIN = 3  # turns naming a person talked about (fewer: a title or a role is needed)
EVIDENCE_MIN = 2  # points of evidence in those turns (one, when two authors or more name them)
READ_CHARS = 400  # of each turn read
TURNS_READ = 500  # (cost) of the rank index's best POOL_MAX rows, the turns read: ~40 ms of CPU for 1,000 at 100k
_LOWER = re.compile(r"(?<![\w'’-])[a-zà-öø-ÿğış][\w'’-]*")
_OPENS = re.compile(r"(?:^|[.!?:;\n])[\s\"'“‘(¡¿-]*$")  # what comes before a sentence's first word
_CAPWORD = re.compile(r"(?<![\w'’-])[A-ZÀ-ÖØ-Þ][\w'’-]*")
# a case ending written after an apostrophe ("Zeynep'in", "Ankara'dan"): a proper noun's, not "'s" nor "O'Brien"
_ENDING = re.compile(r"^([^\W\d_][\w-]*?)['’]([a-zà-öø-ÿğış]{1,6})$")


def _turns(store: Store) -> list[tuple[int, str, str, str]]:
    """(id, author, content, day) of the chat turns the brief reads (of the rank index's best POOL_MAX rows, the
    first TURNS_READ turns)."""
    return [(int(r[0]), str(r[1]), str(r[2] or "")[:READ_CHARS], str(r[3] or "")) for r in store.conn.execute(
        f"""SELECT m.id, m.author, m.content, {timekind.when_sql('m')} FROM memories m
            WHERE {FADED} AND m.source != 'vcf'
            ORDER BY m.pinned DESC, m.importance DESC, coalesce(m.event_at, m.created_at) DESC, m.id DESC LIMIT ?""",
        (POOL_MAX,)) if r[1] is not None][:TURNS_READ]


def _name_of(word: str) -> tuple[str, int]:
    """A span's name without a case ending after an apostrophe, and 1 when it had one ("Zeynep'in" -> "Zeynep")."""
    m = _ENDING.match(word)
    if m and m.group(2) != "s":
        return m.group(1), 1
    return word, 0


def talked_about(store: Store, known: Collection[str], unquoted: Collection[int] = ()) -> list[dict[str, Any]]:
    """The people the chat turns talk about (see the module docstring), most named first: each a dict of ``name``,
    ``turns`` (ids), ``first`` / ``last`` day, ``authors`` (lower-cased, who named them) and ``news`` (the newest
    turn naming them that says no date, none of ``unquoted``: plans moved or called off, facts outdated; or None:
    Coming up has the plans, and a plan quoted as a person's news read as current after it was called off — "bad news
    for the Bristol weekend: I can't come on 4 July", held-out 23)."""
    turns = _turns(store)
    if not turns:
        return []
    authors = {a.lower() for _i, a, _c, _d in turns}
    author_words = {w for a in authors for w in a.split()} | {k.lower() for k in known} | \
        {w for k in known for w in k.lower().split()}
    lower: set[str] = set()
    for _i, _a, text, _d in turns:
        lower.update(w.lower() for w in _LOWER.findall(text))
    cued: dict[str, int] = {}
    english = False
    original = {i: t for i, _a, t, _d in turns}  # (news is quoted as written, not as recased below)
    if LOWER_NAMES:  # (brief33) names written in lower case, or not always capitalised (brief_talkedcues)
        texts = [t for _i, _a, t, _d in turns]
        english = summarize.detect_language(texts) in ("english", None)  # (the cues are English words)
        # only the turns of authors who write in lower case: who capitalises writes a word in lower case because it
        # is one (LoCoMo's speakers: "my friends look", "customers love it" were people)
        writers = brief_talkedcues.lower_writers([(a, t) for _i, a, t, _d in turns])
        theirs = [t for _i, a, t, _d in turns if a.lower() in writers]
        cued = brief_talkedcues.lower_names(theirs, author_words, english)
        others_lower = {w.lower() for _i, a, t, _d in turns if a.lower() not in writers for w in _LOWER.findall(t)}
        mixed = {w for w in lower & brief_talkedcues.mid_capitalised(texts) - brief_talkedcues.determined(texts)
                 - others_lower if brief_talkedcues.can_name(w, author_words)} if english and theirs else set()
        lower -= set(cued) | mixed
        turns = [(i, a, brief_talkedcues.recased(t, set(cued) | mixed), d) for i, a, t, d in turns]
    # (cost) only the turns holding a capitalised word that two turns or more hold, never in lower case nor an author's,
    # are read for names: brief_namedpeople._mentions over every turn read was ~200 ms at 100k
    # and somewhere inside a sentence or with an ending ("Jess's", "Zeynep'in"): "Thanks", "Wow" open sentences only
    holders: dict[str, set[int]] = {}
    inside: set[str] = set()
    for mid, _a, text, _d in turns:
        for m in _CAPWORD.finditer(text):
            w = m.group()
            plain = w.removesuffix("'s").removesuffix("’s")
            bare, ending = _name_of(plain)
            bare = bare.lower()
            if len(bare) < 2 or bare in lower or bare in author_words or bare in summarize.STOPWORDS \
                    or bare in brief_namedpeople._CALENDAR:
                continue
            holders.setdefault(bare, set()).add(mid)
            if ending or plain != w or not _OPENS.search(text[max(0, m.start() - 4): m.start()]):
                inside.add(bare)
    worth = set().union(*(ids for w, ids in holders.items() if len(ids) >= 2 and w in inside)) if holders else set()
    seen: dict[str, dict[str, Any]] = {}
    places = _places(turns) if LOWER_NAMES else set()
    openers: set[str] = set()  # (brief33) the first words of those glued spans, never a name alone ("Wow" of "Wow Mel")
    for mid, author, text, day in turns:
        if mid not in worth:
            continue
        found = brief_namedpeople._mentions(text)
        for raw, pts in found.items():
            if LOWER_NAMES and _opener_glued(raw, found, inside):
                openers.add(raw.split()[0].lower())
                continue  # (brief33) "Evet Burak" of "Evet Burak'la": a sentence's first word glued to a name
            words = [_name_of(w) for w in raw.split()]
            if any(w.lower() in places for w, _e in words):
                continue  # (brief33) said with a case ending of place ("Kaş'ta", "Bodrum'da"): a place
            name = " ".join(w for w, _e in words)
            if not name or any(w.lower() in author_words for w, _e in words) or \
                    any(w.lower() in lower for w, _e in words):
                continue
            if not re.search(r"(?<!\d\s)(?<!\d)" + re.escape(raw), text):
                continue  # said only right after a number: a month or a unit ("8 Ekim", "17 Ekim'de"), no one
            pts += sum(e for _w, e in words)
            if LOWER_NAMES and len(words) >= 2 and words[-1][0].lower() in _TITLES_AFTER:
                pts = max(pts, 2)  # (brief33) a title after the name: "Hakan Bey", "Ayşe Hanım"
            if re.search(re.escape(raw) + r"['’]s\b", text):
                pts = max(pts, 1)  # "Leila's cakes": a belonging the cues do not list
            got = seen.setdefault(name, {"name": name, "turns": [], "authors": set(), "points": 0, "strong": False,
                                         "days": []})
            if mid in got["turns"]:
                continue
            got["turns"].append(mid)
            got["authors"].add(author.lower())
            got["points"] += pts
            got["strong"] = got["strong"] or pts >= 2
            got["days"].append((day, mid, text))
    out: list[dict[str, Any]] = []
    merged = _merged(seen)
    # (brief33) the cues the capitalised reader lacks, in any case: "his name is Marcus", "he bought" after the name
    said = brief_talkedcues.name_cues([t for _i, _a, t, _d in turns if _i in worth],
                                      {w.lower() for n in merged for w in n.split()}) if LOWER_NAMES and english else {}
    for name, got in merged.items():
        if name.lower() in openers:
            continue
        if FIRMS_NO_PERSON and (brief_firms.no_person(name, [t for _d, _m, t in got["days"]]) if OFFICES_NO_PERSON
                                else brief_firms.firm_name(name)):
            continue  # (brief37) "Fenwick Joinery" (and, OFFICES_NO_PERSON, "Dr Morel"): a firm or an office
        if FIRMS_NO_PERSON and brief_firms.PLACE_SAID and brief_firms.said_as_place(name, [t for _d, _m, t in got["days"]]):
            continue  # (brief38) "The Velvet Foxes", "Rosalie's", "chez Dufour": every turn says it as a place
        if FIRMS_NO_PERSON and brief_places.PLACES_NO_PERSON and \
                brief_places.said_as_place(name, [t for _d, _m, t in got["days"]]):
            continue  # (brief40) "Anchor have us down", "at Greystones", "the Plough": a place's frames, no person's
        n = len(got["turns"])
        # (brief33) the lower-case cues ("jo from work", "ray's 60th", "nan") and those above
        bonus = max([cued.get(name.lower(), 0)] + [said.get(w.lower(), 0) for w in name.split()])
        if bonus:
            got["points"] = max(got["points"], bonus)
            got["strong"] = got["strong"] or bonus >= 2
        if not (n >= TURNS_MIN and (got["points"] >= EVIDENCE_MIN or (len(got["authors"]) >= 2 and got["points"] >= 1))
                or (n >= 2 and got["strong"] and got["points"] >= EVIDENCE_MIN)):
            continue
        days = sorted(got["days"])
        out.append({"name": name, "turns": sorted(got["turns"]), "first": days[0][0] or None,
                    "label": brief_talkedcues.label([t for _d, _m, t in days], name) if name.lower() in cued else "",
                    "authors": sorted(got["authors"]),
                    "last": days[-1][0] or None,
                    "news": next(((mid, original.get(mid, text)) for _d, mid, text in reversed(days) if mid not in unquoted
                                  and not brief_dates.says_a_date(text)), None)})
    if LOWER_NAMES and english:  # (brief33) people named only by a relation: "my boss", "the landlord"
        out += _relations(turns, author_words | {o["label"] for o in out if o.get("label")} | {
            w.lower() for o in out for w in o["name"].split()}, original, unquoted)
    out.sort(key=lambda o: (-len(o["turns"]), o["name"]))
    return out


def _relations(turns: list[tuple[int, str, str, str]], taken: set[str], original: dict[int, str],
               unquoted: Collection[int]) -> list[dict[str, Any]]:
    """(brief33) ``brief_talkedcues.relations`` as :func:`talked_about`'s entries: named ``boss`` with the label
    ``dan's`` when every "my boss" is dan's."""
    day_of = {i: d for i, _a, _t, d in turns}
    out = []
    for role, (ids, authors, owner) in brief_talkedcues.relations([(i, a, t) for i, a, t, _d in turns], taken).items():
        days = sorted((day_of[i], i) for i in ids)
        out.append({"name": role, "turns": sorted(ids), "first": days[0][0] or None, "last": days[-1][0] or None,
                    "label": f"{owner}'s" if owner else "", "authors": sorted(authors),
                    "news": next(((i, original[i]) for _d, i in reversed(days) if i not in unquoted
                                  and not brief_dates.says_a_date(original[i])), None)})
    return out


# (brief33) a case ending of place after an apostrophe, Turkish: locative "'da / 'de / 'ta / 'te" (and what follows
# it: "Kaş'tayız", we are in Kaş) and ablative "'dan / 'den / 'tan / 'ten"; a person takes "'la", "'ın", "'e" …
_PLACE_ENDING = re.compile(r"(?<![\w'’-])([A-ZÀ-ÖØ-Þİ][\w-]*)['’](?:d|t)[ae]", re.UNICODE)


_TITLES_AFTER = frozenset("bey hanım hanim efendi".split())  # (brief33) Turkish titles follow the name


def _places(turns: list[tuple[int, str, str, str]]) -> set[str]:
    """The lower-cased capitalised words the turns say with an ending of place (``_PLACE_ENDING``)."""
    return {m.group(1).lower() for _i, _a, text, _d in turns for m in _PLACE_ENDING.finditer(text)}


def _opener_glued(raw: str, found: dict[str, int], inside: set[str]) -> bool:
    """Whether ``raw`` is a sentence's first word glued to a name the text also holds alone ("Evet Burak", "Burak"):
    its first word never capitalised inside a sentence, its other words a name of their own in ``found``."""
    words = raw.split()
    return len(words) >= 2 and words[0].lower() not in inside and " ".join(words[1:]) in found


def _merged(seen: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One entry per person: a one-word name that is a word of a longer name is counted as the longer one
    (brief_namedpeople's merge: "Kowalski" / "Mrs Kowalski" read as "Kowalski" twice)."""
    into = brief_namedpeople._merge({n: g["points"] for n, g in seen.items()})
    out: dict[str, dict[str, Any]] = {}
    for name, got in seen.items():
        target = into.get(name, name)
        if target not in out:
            out[target] = {"name": target, "turns": [], "authors": set(), "points": 0, "strong": False, "days": []}
        acc = out[target]
        for mid, day in zip(got["turns"], got["days"]):
            if mid not in acc["turns"]:
                acc["turns"].append(mid)
                acc["days"].append(day)
        acc["authors"] |= got["authors"]
        acc["points"] += got["points"]
        acc["strong"] = acc["strong"] or got["strong"]
    return out


def lines(store: Store, known: Collection[str], room: int, unquoted: Collection[int] = ()
          ) -> list[tuple[str, dict[str, Any]]]:
    """At most ``room`` People lines for the people the chat turns talk about: ``Jess: named in 4 turns (2026-04-22 –
    2026-06-25; first #11) — said #25 "I have to do a bridesmaid speech at Jess's wedding. Help"``; ``unquoted``: no
    news quoted from these (a plan moved or called off since, quoted as news, was shown as current)."""
    if room <= 0:
        return []
    out = []
    for p in talked_about(store, known, unquoted)[:room]:
        lo, hi = str(p["first"] or "")[:10], str(p["last"] or "")[:10]
        span = lo if lo == hi else f"{lo} – {hi}"
        first = p["turns"][0]
        n = len(p["turns"])
        said_as = f" ({p['label']})" if p.get("label") else ""  # (brief33) "Ray (uncle)", "Jo (from work)"
        line = f"{p['name']}{said_as}: named in {n} turns ({span}; first #{first})"
        if p["news"] is None:
            out.append((line, {"named_in": n, "first": first, "talked_about": p["name"]}))
            continue
        mid, content = p["news"]
        content = content.split(": ", 1)[1] if content.lower().startswith(tuple(
            a.lower() + ": " for a in p["authors"])) else content  # (a turn's text starts with its author)
        line += f"{STATE_SEP}#{mid} \"{brief_namedpeople._head(one_line(content), STATE_CHARS)}\""
        out.append((line, {"named_in": n, "first": first, "talked_about": p["name"]}))
    return out
