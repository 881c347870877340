"""What kind of name a fact states: a system, a place, an organisation, a person (facts25).

memengine/fact_kind.py reads every name as one kind, so "The analytics server is hosted by Hetzner" and "we
migrated the analytics server to Rocky Linux 9" state values of one kind, and the migration retires who hosts the
server (as "Our flat is now managed by Savills" retired "Our flat is rented from Mr. Hughes"). The kind of a name is
read here from general evidence around it in its own sentence, never from a list of names:

- the word that governs it, looking back over a few words to the nearest cue ("lives / wohnt / habite / vive / mora /
  abita / woont" → a place; "works / arbeitet / travaille / trabaja / trabalha / lavora / werkt", "insured",
  "hosted", "managed", "bank", "account", "chez", "bei", "bij", "presso" → an organisation; "runs / läuft / tourne /
  funciona / roda / gira / draait", "uses", "built with", "monitored with" → a system), or, for a verb at the end of its clause (German, Dutch), the word
  right after it ("von Vonovia verwaltet");
- a title right before it ("Dr.", "Mr.", "Frau", "M.", "doña", "senhor", "signora", "meneer") or a naming verb
  ("is called", "heißt", "s'appelle", "se llama", "is dating") → a person;
- a version number right after it ("Rocky Linux 9", "PostgreSQL 12") → a system, unless its cue says otherwise
  ("wohnt in der Bergmannstraße 5");
- the same name's use in the store's other facts (:func:`known`: "Rocky Linux 8" elsewhere makes "vers Rocky Linux"
  a system).

A name with no such evidence has no kind and is compatible with every name; "moved to", "migrated to", "switched
to", "para", "nach", "vers", "naar" are no evidence at all (a thing moves to a city, a host or a system alike), so a
migration stays an update of what the thing runs (tests/test_facts_migrations.py). Two names governed by the same
cue word are of one slot whatever their kinds ("managed by Mr. Hughes" / "now managed by Foxtons"). Pure: no SQL,
no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from memengine.fact_lexicon import _set, fold

__all__ = ["FROM", "MOVED", "NameKind", "ORG", "PERSON", "PLACE", "ORG_PREPOSITIONS", "RESIDE", "SERVICE", "SYSTEM", "kinds_of",
           "known"]

SYSTEM, PLACE, ORG, PERSON = "system", "place", "org", "person"
NameKind = tuple[str, str]  # (kind or "", the governing cue word folded or "")

# Words that govern a name of one kind (folded; every language in one set: a short sentence's language is often
# guessed wrong). Verbs of dwelling and being located, and nouns of a place that name the place after them.
_PLACE = _set(
    "live lives living lived reside resides resided based located situated sits relocated city town village "
    "district neighbourhood neighborhood suburb region country datacentre datacenter centre center",
    "wohnt wohne wohnen wohnte lebt lebe leben lebte gezogen liegt liegen steht stehen sitzt befindet stadt "
    "stadtteil viertel bezirk ort rechenzentrum",
    "habite habitent habitons habitait vit vivent reside residence demenage demenagee demenages situe situee "
    "trouve trouvent ville quartier arrondissement region pays",
    "vive viven vivo vivimos vivia residen mudado mudada mudo mudamos mude mudaron ubicado ubicada situado "
    "situada encuentra ciudad barrio distrito centro",
    "mora moram moro moramos morava vivem mudou mudaram mudei fica ficam localizado localizada cidade bairro",
    "abita abitano abito abitava vivono risiede trasferito trasferita trasferiti trasferite trova trovano "
    "situato situata citta quartiere zona",
    "woont woon wonen woonde verhuisd verhuist verhuizen gevestigd ligt liggen staat staan stad wijk buurt")
# Moving to live somewhere (a change said by the verb itself), and living there: one slot, where someone lives
# (memengine/fact_promoted.py).
MOVED = _set("relocated", "gezogen umgezogen", "demenage demenagee demenages", "mudado mudada mudo mudamos mude mudaron",
             "mudou mudaram mudei", "trasferito trasferita trasferiti trasferite", "verhuisd verhuist verhuizen")
RESIDE = MOVED | _set("live lives living lived reside resides resided", "wohnt wohne wohnen wohnte lebt lebe leben lebte",
                      "habite habitent habitons habitait vit vivent reside", "vive viven vivo vivimos vivia residen",
                      "mora moram moro moramos morava vivem", "abita abitano abito abitava vivono risiede",
                      "woont woon wonen woonde")
# Employment, insurance, banking, hosting, managing, servicing: what a company or a practice does for someone. (Not
# "provider", "Anbieter", "contract": a DNS provider, a service, is a system as often; nor "work", "trabalho", "werk",
# nouns too: "perto do trabalho na Paulista")
_ORG = _set(
    "works working worked employed employer insured insurer insurance bank banks banking account hosted "
    "hosting managed agency serviced registered subscribed",
    "arbeitet arbeite arbeiten arbeitete angestellt beschaftigt arbeitgeber versichert versicherung versicherer "
    "krankenkasse konto gehostet betrieben verwaltet hausverwaltung gewartet vertrag bei beim",
    "travaille travaillent travaillais employe employee employeur assure assuree assures assurance assureur "
    "banque compte heberge hebergee hebergement hebergeur gere geree agence entretenu entretenue "
    "abonne abonnee contrat chez",
    "trabaja trabajan trabajaba empleado empleada asegurado asegurada aseguradora seguro banco cuenta "
    "alojado alojada gestiona gestionado gestionada inmobiliaria agencia taller",
    "trabalha trabalham trabalhava empregado empregada seguradora segurado segurada conta hospedado "
    "hospedada hospedagem administrado administrada administradora imobiliaria agencia oficina",
    "lavora lavorano lavorava impiegato impiegata dipendente assicurato assicurata assicurazione "
    "assicuratore banca conto ospitato ospitata gestito gestita agenzia officina contratto presso",
    "werkt werken werkte werkzaam verzekerd verzekering verzekeraar rekening gehost beheerd "
    "makelaar bij")
# The prepositions of a company among the organisation cues: the verb governing them names the service.
ORG_PREPOSITIONS = _set("bei beim bij chez presso")
# What a company does for someone, one family each: two companies governed by verbs of two families are two
# attributes ("assurée chez la MACIF" / "entretenue chez Norauto": an insurer, a garage).
_SERVICES = {
    "employ": _set("works working worked employed employer", "arbeitet arbeite arbeiten arbeitete angestellt "
                   "beschaftigt arbeitgeber", "travaille travaillent travaillais employe employee employeur",
                   "trabaja trabajan trabajaba empleado empleada", "trabalha trabalham trabalhava empregado empregada",
                   "lavora lavorano lavorava impiegato impiegata dipendente", "werkt werken werkte werkzaam"),
    "insure": _set("insured insurer insurance", "versichert versicherung versicherer krankenkasse",
                   "assure assuree assures assurance assureur", "asegurado asegurada aseguradora seguro",
                   "seguradora segurado segurada", "assicurato assicurata assicurazione assicuratore",
                   "verzekerd verzekering verzekeraar"),
    "bank": _set("bank banks banking account", "konto", "banque compte", "banco cuenta", "conta", "banca conto",
                 "rekening"),
    "host": _set("hosted hosting", "gehostet", "heberge hebergee hebergement hebergeur", "alojado alojada",
                 "hospedado hospedada hospedagem", "ospitato ospitata", "gehost"),
    "service": _set("serviced", "gewartet", "entretenu entretenue", "taller", "oficina", "officina"),
}
SERVICE = {w: family for family, words in _SERVICES.items() for w in words}
# Running software: what a machine, a site or a service runs on.
# Using, building with, monitoring with a tool: what is used is software far more often than a company.
_SYSTEM = _set(
    "runs running powered uses use using built monitored",
    "lauft laufen lief nutzt nutzen verwendet benutzt gebaut uberwacht",
    "tourne tournent fonctionne fonctionnent utilise utilisent construit surveille",
    "funciona funcionan corre corren usa usan utiliza construido construida monitorizado",
    "roda rodam rodando usam construido monitorado", "gira girano funziona utilizza usano costruito monitorato",
    "draait draaien draaide gebruikt gebruiken gebouwd gemonitord")
# A naming verb or a partner's: the name after it is a person's.
_PERSON = _set(
    "called named dating married", "heisst heissen genannt verheiratet", "appelle appellent appelee marie mariee",
    "llama llaman llamado llamada casado casada", "chama chamam chamado chamada namora casou",
    "chiama chiamano chiamato chiamata sposato sposata", "heet heten genaamd getrouwd")
_CUES = {**{w: PLACE for w in _PLACE}, **{w: ORG for w in _ORG}, **{w: SYSTEM for w in _SYSTEM},
         **{w: PERSON for w in _PERSON}}
# A title right before a name makes it a person's ("Dr. Patel", "Frau Schulz", "M. Durand", "doña Carmen").
_TITLES = _set("dr mr mrs ms miss prof doctor", "frau herr", "m mme mlle madame monsieur docteur",
               "don dona doctora senor senora sr sra", "senhor senhora doutor doutora",
               "signor signore signora sig dott dottor dottore dottoressa", "meneer mevrouw dhr mevr")
_STOP_SCAN = frozenset({",", ";", ":", "(", ")", "—", "–"})
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d[\d.,]*|[,;:()—–]")
FROM = _set("from", "von vom aus", "de", "desde", "da do", "dal", "van uit")  # what a change leaves
_ELIDED = re.compile(r"^[a-z]['’]")
# Verbs of switching to another value: a cue word before one is its subject, not the new name's kind ("L'agenzia è
# passata a Notion": the agency is no evidence that Notion is an organisation).
_SWITCHED = _set("switched moved migrated", "gewechselt umgestiegen migriert", "passe passee passes passees migre",
                 "pasado pasada pasamos paso migrado", "passou passamos passaram mudou mudamos trocou migrou",
                 "passato passata passati passate migrato migrata", "overgestapt overgegaan gemigreerd")
_WINDOW = 4  # words looked back for a cue (past articles, prepositions, "now": "is now hosted by", "ist jetzt bei der")


def _capital(word: str) -> bool:
    return word[:1].isupper()


def _strong_name(word: str, lang: str) -> bool:
    """A word that is surely a name where it stands (an inner capital, an acronym; any capital but in German)."""
    if not _capital(word):
        return False
    return lang != "de" or len(word) > 1 and (word.isupper() or any(ch.isupper() for ch in word[1:]))


@lru_cache(maxsize=4096)
def kinds_of(text: str, lang: str = "") -> dict[str, NameKind]:
    """Each capitalised word of ``text`` (folded, not the sentence's first word) with the kind of name it is and
    the cue word that governs it: ``{"hetzner": ("org", "hosted")}`` for "The analytics server is hosted by
    Hetzner". A kind of "" is unknown (no evidence). Words of one name written in a row share its reading
    ("Rocky Linux 9": both a system)."""
    toks = _TOKEN.findall(text)
    out: dict[str, NameKind] = {}
    n = 1
    while n < len(toks):
        if not _capital(toks[n]):
            n += 1
            continue
        end = n
        while end + 1 < len(toks) and _capital(toks[end + 1]):
            end += 1
        # "Dr." is a title of the name after it, not a name of its own
        start = n
        while start <= end and fold(toks[start]) in _TITLES:
            start += 1
        kind, cue = _governed(toks, start, end, lang)
        if start > n or start == n and n > 0 and fold(toks[n - 1]) in _TITLES:
            kind = PERSON
        elif not kind and end + 1 < len(toks) and toks[end + 1][:1].isdigit():
            kind = SYSTEM  # a name with its version ("PostgreSQL 12", "Debian 12")
        for t in toks[n:end + 1]:  # (a title with its name: "Mr. Hughes")
            out[fold(t)] = (kind, cue)
        n = end + 1
    return out


def _governed(toks: list[str], start: int, end: int, lang: str) -> NameKind:
    """The kind and cue word governing the name ``toks[start:end + 1]``: the nearest cue among the few words
    before it (a comma, or another name in between, ends the look), else a cue right after it (a verb at the end
    of a German or Dutch clause: "von Vonovia verwaltet"; only a place, a company or a system there)."""
    preposition = ""
    for k in range(start - 1, max(start - 1 - _WINDOW, -1), -1):
        t = toks[k]
        if t in _STOP_SCAN:
            break
        f = _ELIDED.sub("", fold(t))  # "s'appelle", "l'agence"
        if f in _SWITCHED and f not in _CUES:  # ("mudou" is a cue of its own: a person's move)
            break
        if f in ORG_PREPOSITIONS and not preposition:
            preposition = f  # a company's ("chez", "bei"): the verb before or after it says which service
            continue
        if f in _CUES:
            return _CUES[f], f
        if k > 0 and _strong_name(t, lang) and f not in _TITLES:
            # another name between ("chez Norauto à Villeneuve"): nothing of this one's, unless this one is where
            # that one was left for ("mudou de Braga para Coimbra", "von Leipzig nach Dresden": one slot)
            first = k
            while first > 1 and _capital(toks[first - 1]):
                first -= 1
            if first > 0 and fold(toks[first - 1]) in FROM:
                return _governed(toks, first, k, lang)
            break
    after = fold(toks[end + 1]) if end + 1 < len(toks) else ""
    if _CUES.get(after, PERSON) != PERSON and (not preposition or _CUES[after] == ORG):
        return _CUES[after], after
    return (ORG, preposition) if preposition else ("", "")


def known(texts: Iterable[str]) -> dict[str, str]:
    """The kind each name of ``texts`` (the store's facts a write is compared with) is read as wherever it has
    one, when all its readings agree: the same name's other uses say what it is."""
    from memengine import facts

    seen: dict[str, set[str]] = {}
    for text in texts:
        for name, (kind, _) in kinds_of(text, facts.analyse(text).lang).items():
            if kind:
                seen.setdefault(name, set()).add(kind)
    return {name: next(iter(ks)) for name, ks in seen.items() if len(ks) == 1}
