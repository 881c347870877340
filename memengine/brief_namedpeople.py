"""People a store's notes name often, for the brief's People section when no chat says who wrote what.

A store of notes (markdown, an assistant's facts) has no authors, so the People section stayed
empty however often the notes named the same colleagues. A capitalised word is not a person
("Porto", "Shopify", "Brightwave"), so a name counts only with evidence that a person is meant,
in at least MIN_MEMORIES memories, with EVIDENCE_MIN points in all and at least once a title or a
role (a company too "wants" and "sent the contract"):

* a title before it ("Dr. Kalle Niemi", "Prof. Okafor", "Mrs Hale", "Herr Braun"): 2;
* a role next to it ("Tomás Ruiz is a postdoc", "my partner Miguel", "Bea Lindqvist, the lab
  manager", "the user is Rita Campos"): 2 (not the roles a company holds too: client, builder);
* a verb only people do after it ("Adaeze wants", "Tomás says", "Kalle Niemi sent ... emailed"),
  or a person's belonging after it ("Sven's parents", "Adaeze's comments"): 1.

Names of one person are merged: a one-word name that is the first or last word of a longer one
("Tomás" / "Tomás Ruiz", "Okafor" / "Adaeze Okafor") counts as the longer one. English cues, with
the titles of the other languages the store reads; a name without such evidence is not shown.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime
from typing import Any

from memengine import summarize, timekind
from memengine.brief_pool import FADED, POOL_MAX, Store
from memengine.brief_text import one_line

STATE_SEP = " — said "  # (as brief_people.STATE_SEP, which imports this module: between a line and its news)
STATE_CHARS = 60

MIN_MEMORIES = 2  # a person named in fewer memories is not shown
EVIDENCE_MIN = 2  # points of evidence (see the module docstring) a name needs
SCAN_MAX = POOL_MAX  # notes read: all of a small store, else the best by importance and date

_TITLES = frozenset("""dr dr. prof prof. professor mr mr. mrs mrs. ms ms. miss mx dra dra. sr sr. sra sra. herr frau
mme mme. madame monsieur dott dott. sig sig. signora herrn m. mlle dona doña""".split())
_ROLES = frozenset("""supervisor boss manager colleague coworker co-worker co-author coauthor postdoc student phd
friend partner wife husband girlfriend boyfriend fiancé fiancée fiance fiancee brother sister mother father mum mom
dad son daughter aunt uncle cousin grandma grandpa grandmother grandfather nephew niece neighbour neighbor landlord
landlady doctor nurse dentist physio therapist accountant lawyer solicitor teacher coach mentor tutor foreman
plumber electrician contact owner founder ceo cto cfo assistant intern flatmate roommate housemate
nanny babysitter illustrator designer developer engineer head lead user editor advisor adviser
director chair professor lecturer researcher parents friends colleagues flatmates roommates kids children sons
daughters brothers sisters neighbours neighbors grandparents in-laws""".split()) | frozenset(
    # (brief24) the roles of the other languages the store reads: "Pablo, el hermano de Carmen", "mi amiga Lucía",
    # "Jorge, compañero de Carmen", "ma sœur Claire", "meine Kollegin Jana" (notes of an assistant in Spanish had no
    # People section at all)
    """hermano hermana madre padre hijo hija amigo amiga novio novia marido esposo esposa pareja compañero compañera
    jefe jefa vecino vecina primo prima tío tía abuelo abuela sobrino sobrina suegro suegra cuñado cuñada
    irmão irmã mãe pai filho filha namorado namorada colega chefe vizinho vizinha tio avô avó sogro sogra
    frère sœur soeur mère père fils fille ami amie copain copine mari femme collègue patron patronne voisin voisine
    cousin cousine oncle tante compagnon compagne
    bruder schwester mutter vater sohn tochter freund freundin ehemann ehefrau kollege kollegin chef chefin
    nachbar nachbarin cousine onkel tante oma opa partnerin verlobte
    fratello sorella figlio figlia amico amica ragazzo ragazza marito moglie capo vicino vicina cugino cugina zio zia
    nonno nonna fidanzato fidanzata""".split()) | frozenset(
    # (brief27) the roles of a workplace an agent's notes name people by: "Marco Bellini is Priya's teammate", "Théo
    # Moreau est l'apprenti de Claire", "Davide Ferri, collega di dottorato" (an assistant's notes of a job had no
    # People line for them)
    """teammate teammates apprentice trainee collaborator supplier conseiller conseillère apprenti apprentie
    vendeur vendeuse aprendiz asesor asesora collega colleghi relatore relatrice tesista dottorando dottoranda
    azubi betreuer betreuerin teamleiter teamleiterin
    usuario usuaria utilisateur utilisatrice nutzer nutzerin utente utilizador utilizadora gebruiker""".split()) | frozenset(
    # (brief28) roles said of several people at once and a contract's roles: "Friedas zwei Töchter, Paula und Greta",
    # "os dois filhos, Caio e Lara", "Los padres de Nuria, Jordi y Montse", "Dev Malhotra, the new contractor"
    """töchter söhne kinder eltern geschwister hijos hijas padres hermanos hermanas filhos filhas irmãos irmãs
    enfants frères sœurs soeurs figli figlie genitori fratelli sorelle contractor consultant freelancer""".split())
# (brief28) what joins two names of one role ("his two sisters, Inês and Marta"), and a possessive before a role
# ("Rita and her kids", "Marta and her husband Rui", "Herr Özdemir und seine Frau Leyla", "A Renata e o marido dela")
_AND = frozenset("and e und y et i en och og".split())
_POSSESSIVES = frozenset("""her his their seine seiner ihre ihren ihr su sus sua seu suas seus o a os as sa son ses
leur leurs la il lo i le""".split())
_OF_HER = frozenset("dela dele delas deles".split())  # "o marido dela, Paulo"
# (brief27) "the user is called …" in the languages the notes are written in: "La usuaria se llama Lucía Ferrer", "Der
# Nutzer heißt Jonas Becker", "L'utilisatrice s'appelle Claire Dubois"
_USER_ROLES = frozenset("user usuario usuaria utilisateur utilisatrice nutzer nutzerin utente utilizador utilizadora "
                        "gebruiker".split())
_CALLED = frozenset("called named llama heißt heisst s'appelle appelle chiama chama heet".split())
# (brief27) a copula in the languages the notes are written in: "Paco es la pareja de Lucía", "Inès est la vendeuse",
# "Sabine ist die Kollegin", "Davide è il collega"
_COPULAS = frozenset("is was es era est était ist war è é".split())
# words that stand between a copula and a role ("the", "la", "Priya's" / "de", "di", "von" before the one named)
_ROLE_LEADS = frozenset("""a an the my our his her their your el la los las un una le les l un une der die das ein
eine il lo i gli un una o os as um uma""".split())
_OF = frozenset("of de di von du da del della des do dos".split())
_CALENDAR = frozenset("""january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday today tomorrow""".split())
_HUMAN_VERBS = frozenset("""says said thinks thought wants wanted asked asks told tells agreed agrees prefers preferred
likes liked loves loved hates feels felt hopes hoped knows knew replied replies wrote writes suggested suggests
promised promises called emailed texted mentioned complained laughed decided decides recommends recommended
reviewed reviews sent booked will""".split())
_BELONGINGS = frozenset("""partner wife husband parents mum mom dad mother father sister brother kids children son
daughter baby birthday wedding comments comment feedback office desk phone email notes thesis team family
girlfriend boyfriend friend flat house car""".split())
_CAP = r"[A-ZÀ-ÖØ-Þ][\w'’-]*"
_SPAN = re.compile(rf"(?<![\w'’-]){_CAP}(?:\s+{_CAP}){{0,3}}")  # (4 words: "Jonas' Kollegin Sabine Roth")
_WORDS_AFTER = re.compile(r"^(?:'s|’s)?[\s,]*((?:[\w'’-]+[\s,]*){0,4})")
_WORD = re.compile(r"[\w'’-]+")
_ARTICLES = frozenset("a an the my our his her their your".split())


def named_people(store: Store, known: set[str]) -> list[tuple[str, int, str | None, str | None, int]]:
    """(name, memories naming them, first date, last date, first memory id) of the people the
    store's notes name, most named first; ``known`` (lower-cased names of authors and contacts)
    are left out: the People section has them already."""
    return _named(store, known)[0]


def _named(store: Store, known: set[str], outdated: Collection[int] = (), users_out: set[str] | None = None
           ) -> tuple[list[tuple[str, int, str | None, str | None, int]], dict[str, tuple[int, str]]]:
    """:func:`named_people`, and (brief24) each one's news: the note most important, then newest, that names them
    before any other name ("Pablo, el hermano de Carmen, ha sacado plaza de profesor ... en Valencia"), as
    (id, content); never one of ``outdated`` (brief27: facts a later fact probably updates, the brief's may_update
    links: "Mia wird um 16:00 Uhr abgeholt" was Mia's news beside "Mia muss um 15:30 Uhr abgeholt werden")."""
    conn = store.conn
    # the best SCAN_MAX memories by the rank index, notes among them (a chat turn has an author): the
    # author is not in that index, so a filter on it would walk every row of a store of chats
    # (brief27) notes the nightly decay archived count too: an agent's episodic notes of importance 0.5 fade after
    # five weeks, and with them every mention of the colleagues and family they named ("Marta ha tenido al bebé");
    # archived is not untrue (a superseded note, with its valid_to, stays out)
    fetched = [r for r in conn.execute(
        f"""SELECT m.id, CASE WHEN m.author IS NULL THEN m.content END, {timekind.when_sql('m')},
                   m.author IS NULL, m.importance FROM memories m WHERE {FADED} AND m.source != 'vcf'
            ORDER BY m.pinned DESC, m.importance DESC, coalesce(m.event_at, m.created_at) DESC, m.id DESC LIMIT ?""",
        (SCAN_MAX,)) if r[3]]
    rows = [r[:3] for r in fetched]
    importance = {int(r[0]): float(r[4] or 0.0) for r in fetched}
    users: set[str] = set()  # (brief27) the names the notes give the user ("La usuaria se llama Lucía Ferrer")
    points: dict[str, int] = {}
    strong: set[str] = set()  # names with a title or a role somewhere
    seen_in: dict[str, list[tuple[str, int]]] = {}
    # each note's names as they come, and its day (the rows' order: the best first)
    in_order: list[tuple[int, str, list[str], str]] = []
    for mid, content, when in rows:
        found = _mentions(str(content)[:2000], users)
        in_order.append((int(mid), str(content), list(found), str(when or "")))
        for name, got in found.items():
            points[name] = points.get(name, 0) + got
            if got >= 2:
                strong.add(name)
            seen_in.setdefault(name, []).append((str(when or ""), int(mid)))
    merged = _merge(points)
    total: dict[str, int] = {}
    where: dict[str, set[tuple[str, int]]] = {}
    for name, into in merged.items():
        total[into] = total.get(into, 0) + points[name]
        where.setdefault(into, set()).update(seen_in[name])
    strong = {merged[n] for n in strong}
    out = []
    for name, pts in total.items():
        mems = sorted(where[name])
        if pts < EVIDENCE_MIN or name not in strong or len({m for _, m in mems}) < MIN_MEMORIES:
            continue
        if name.lower() in known or any(w.lower() in known for w in name.split()):
            continue
        out.append((name, len({m for _, m in mems}), mems[0][0] or None, mems[-1][0] or None,
                    min(m for _, m in mems)))
    # (brief27) the user last: the people the user knows come first, and the section's share drops the last news
    users = {merged.get(u, u) for u in users}
    out.sort(key=lambda o: (o[0] in users, -o[1], o[0]))
    people = {o[0] for o in out}
    news: dict[str, tuple[int, str]] = {}
    dated: dict[str, str] = {}  # the day of each one's news
    stop = summarize.stopwords_for([c for _m, c, _n, _w in in_order[:50]]) if people else frozenset()
    for mid, content, names, when in in_order:
        # (the first name it holds, a person's or not: "Decision: Kestrel switches from npm to pnpm; Marek approved it"
        # is Kestrel's news, not Marek's)
        # (brief27: a sentence's capitalised article is no name: "La boda de Irene Soler …", "Il relatore di Giulia …")
        names = [n for n in names if not all(w.lower() in stop for w in n.split())]
        lead = merged[names[0]] if names else None
        if lead in people and mid not in outdated and not _restated(lead, content, when, in_order, merged, stop):
            if lead not in news:
                news[lead] = (mid, content)
                dated[lead] = when
            elif _later_news(when, dated[lead], importance[mid], importance[news[lead][0]]):
                news[lead] = (mid, content)  # (brief27) weeks later, about as important: what happened since
                dated[lead] = when
    for user in users:  # (brief27) the user's "news" is every note: the topics show it; the share keeps the others'
        news.pop(user, None)
    if users_out is not None:  # (brief30) who the user is, for brief_people: the user's own chat turns are no person
        users_out.update(users)
    return out, news


NEWS_NEWER_DAYS = 30  # (brief27) a note naming a person first this many days after their news, and at most...
NEWS_IMPORTANCE_SLACK = 0.1  # ...this much less important, is their news instead ("Marta ha tenido al bebé" after
# "Marta es la hermana de Lucía; está embarazada", seven weeks before and 0.1 more important; not "La furgoneta para
# la mudanza de Pablo está reservada", two weeks after "Pablo ha sacado plaza de profesor")


def _later_news(when: str, before: str, imp: float, imp_before: float) -> bool:
    """Whether a note of ``when`` replaces as a person's news their note of ``before`` (see NEWS_NEWER_DAYS)."""
    try:
        gap = (datetime.fromisoformat(when[:19]) - datetime.fromisoformat(before[:19])).days
    except ValueError:
        return False
    return gap >= NEWS_NEWER_DAYS and imp_before - imp <= NEWS_IMPORTANCE_SLACK + 1e-9


RESTATED_WORDS = 3  # a newer note naming the person that shares this many words with a note may update it


def _restated(person: str, content: str, when: str, notes: list[tuple[int, str, list[str], str]],
              merged: dict[str, str], stop: frozenset[str]) -> bool:
    """(brief24) Whether a newer note naming ``person`` shares RESTATED_WORDS words (4+ letters, no stop word of the
    notes' language, no name)
    with ``content``: "Dmitri Volkov owns the maps module (src/maps)", then "Hana Sato owns the maps module now
    (src/maps); Dmitri moved to the bookings backend" — the older, still live, is no news of Dmitri's."""
    own = {w.lower() for w in _LONG_WORD.findall(content)} - stop
    own -= {w.lower() for n in merged for w in n.split()}
    if len(own) < RESTATED_WORDS:
        return False
    for _mid, other, names, at in notes:
        if at > when and any(merged[n] == person for n in names):
            if len(own & {w.lower() for w in _LONG_WORD.findall(other)}) >= RESTATED_WORDS:
                return True
    return False


_LONG_WORD = re.compile(r"[^\W\d_]{4,}")


def _is_name_word(w: str) -> bool:
    low = w.lower().rstrip(".")
    return len(w) >= 2 and low not in summarize.STOPWORDS and low not in _TITLES and low not in _ROLES \
        and low.removesuffix("'s").removesuffix("’s") not in _CALENDAR \
        and not any(ch.isdigit() for ch in w) and not w.isupper()


_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*(?:[-*#>]+\s*)*)$")


def _mentions(text: str, users: set[str] | None = None) -> dict[str, int]:
    """Each capitalised name of ``text`` with the evidence points it has in this text (0 or more).

    A span at a sentence's start may begin with a capitalised verb ("Read Adaeze's comments"):
    it counts as the span and as the span without its first word."""
    out: dict[str, int] = {}
    prev: tuple[int, int] = (-1, 0)  # (brief28) the previous span's end and points
    for m in _SPAN.finditer(text):
        words = m.group().split()
        lead = 0  # a title inside the span: "Dr Kalle Niemi"
        while lead < len(words) and words[lead].lower() in _TITLES:
            lead += 1
        # (brief27) a capitalised role inside the span, as German writes every noun: "Jonas' Kollegin Sabine Roth",
        # "Oma Gisela": the name is what follows it, and the role is its evidence
        role_at = max((i for i, w in enumerate(words[:-1]) if w.lower() in _ROLES), default=-1)
        if role_at >= lead:
            lead = role_at + 1
        names = [words[lead:]]
        if len(names[0]) > 1 and _SENTENCE_START.search(text[max(0, m.start() - 4): m.start()]):
            names.append(names[0][1:])
        before = [w.lower() for w in _WORD.findall(text[max(0, m.start() - 40): m.start()])][-3:]
        tail = text[m.end():]
        possessive = m.group().endswith(("'s", "’s"))
        after = [w.lower() for w in _WORD.findall(tail[:60])][:5]
        if after and after[0] in ("s",) and tail[:1] in ("'", "’"):  # "Sven's" read as "Sven" + "'s"
            possessive, after = True, after[1:]
        comma = tail.lstrip()[:1] == ","
        user = False
        pts = 2 if lead or (before and before[-1] in _TITLES) else 0  # (a title or a role in the span)
        if (before and before[-1] in _ROLES) or (len(before) >= 2 and (before[-1] in _COPULAS or before[-1] in _CALLED)
                                                 and any(_role(w) for w in before[-3:-1])):
            pts += 2  # "my partner Miguel", "the user is Rita Campos", "her contact there is Tiago Rocha"
            user = users is not None and any(w.rsplit("'", 1)[-1] in _USER_ROLES for w in before[-3:])
        elif len(before) == 3 and before[0] in _ROLES and before[1] in _OF and tail.lstrip()[:1] != "'":
            pts += 2  # (brief27) "la amiga de Lucía, Irene Soler", "the sister of Ana, Marta"
        elif after[:1] and after[0] in _COPULAS and len(after) >= 3 and _role_lead(after[1]) and \
                any(_role(w) for w in after[1:4]):
            pts += 2  # "Tomás Ruiz is a postdoc", "Bea is the lab manager", (brief27) "Dana is Priya's manager",
            # "Paco es la pareja de Lucía", "Théo est l'apprenti de Claire"
        elif (comma or tail.lstrip()[:1] == "(") and any(_role(w) for w in after[:3]):
            pts += 2  # "Marta Silva, head of product", "Bea Lindqvist, the lab manager", (brief28) "Joel (Sam's manager)"
        elif len(after) >= 3 and after[0] in _AND and after[1] in _POSSESSIVES and any(_role(w) for w in after[2:4]):
            pts += 2  # (brief28) "Rita and her kids", "Marta and her husband Rui", "A Renata e o marido dela"
        elif len(before) >= 2 and before[-1] in _OF_HER and before[-2] in _ROLES:
            pts += 2  # (brief28) "o marido dela, Paulo"
        elif prev[1] >= 2 and text[prev[0]: m.start()].strip(" ,").lower() in _AND:
            pts += 2  # (brief28) the second of two names of one role: "his two sisters, Inês and Marta"
        if possessive and after and after[0] in _BELONGINGS:
            pts += 1  # "Sven's parents", "Adaeze's comments"
        elif not possessive and after and (after[0] in _HUMAN_VERBS or after[0] in ("she", "he")):
            pts += 1  # "Tomás says", "Adaeze wants", "Adaeze: she wants"
        prev = (m.end(), pts)
        for name_words in names:
            if not name_words or not all(_is_name_word(w) for w in name_words):
                continue
            name = " ".join(w.removesuffix("'s").removesuffix("’s") for w in name_words)
            out[name] = max(out.get(name, 0), pts)
            if user and users is not None:
                users.add(name)
    return out


def _role(word: str) -> bool:
    """A role word, an elided article before it or not ("l'apprenti", "dell'amica")."""
    return word in _ROLES or word.rsplit("'", 1)[-1].rsplit("’", 1)[-1] in _ROLES


def _role_lead(word: str) -> bool:
    """(brief27) What stands between a copula and a role: an article, a possessive ("Priya's"), or the role itself
    with its elided article ("l'apprenti")."""
    return word in _ROLE_LEADS or word.endswith(("'s", "’s")) or _role(word)


def _merge(points: dict[str, int]) -> dict[str, str]:
    """Each name -> the name of the person it is counted as: a one-word name that is the first or last
    word of a longer name is that longer name ("Tomás" -> "Tomás Ruiz"), the one with the most evidence
    ("Adaeze" -> "Adaeze Okafor", not "Read Adaeze": a sentence's first word glued to it)."""
    names = sorted(points)
    longer = sorted((n for n in names if " " in n), key=lambda n: (-points[n], n))
    out: dict[str, str] = {}
    for n in names:
        if " " in n:
            out[n] = n
            continue
        hits = [m for m in longer if m.split()[0] == n or m.split()[-1] == n]
        out[n] = hits[0] if hits else n
    return out


def _head(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` characters (with "…" when cut)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "…"


def lines(store: Store, known: set[str], room: int, outdated: Collection[int] = (), users: set[str] | None = None
          ) -> list[tuple[str, dict[str, Any]]]:
    """At most ``room`` People lines for the people the notes name: ``Tomás Ruiz: named in 7 memories
    (2026-08-04 – 2026-11-16; first #12)``. ``users``: (brief30) filled with the names the notes give the user."""
    if room <= 0:
        return []
    out = []
    people, news = _named(store, known, outdated, users)
    for name, n, lo, hi, first in people[:room]:
        span = (lo or "")[:10] if (lo or "")[:10] == (hi or "")[:10] else f"{(lo or '')[:10]} – {(hi or '')[:10]}"
        line = f"{name}: named in {n} memories ({span}; first #{first})"
        if name in news:  # (brief24) what the notes say of them (brief.py drops it when the line does not fit)
            mid, content = news[name]
            # (its head, where it names them: trim's informative clause of "Aisha Mensah is the mobile lead; Dmitri
            # Volkov and Hana Sato are the app developers" was the developers)
            line += f"{STATE_SEP}#{mid} \"{_head(one_line(content), STATE_CHARS)}\""
        out.append((line, {"named_in": n, "first": first, "name": name}))
    return out
