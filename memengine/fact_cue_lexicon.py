"""Word tables of the second-chance update detector (memengine/fact_cue.py), five languages.

Closed classes only: the words that say a value changed ("now", "no longer", "instead",
"after all", change verbs), the words that say something was *added* ("also", "another"),
the words that leave a value behind ("left", "traded ... for", "from"), kinship and other
people a fact may be about, titles, and the generic nouns and verbs that never anchor a slot
(units, "day", "have"). Verbs are given as lemmas and inflected by small regular rules
(:func:`en_forms`, :func:`romance_forms`), irregular forms listed beside them, so one entry
covers "switch / switches / switched / switching" or "changer / change / changé / changée".
Everything is stored folded (lower-case, accents removed: memengine.fact_lexicon.fold).
"""

from __future__ import annotations

from memengine.fact_lexicon import _set, fold

# --------------------------------------------------------------------------- inflection


def en_forms(lemma: str) -> set[str]:
    """An English verb's regular forms: "change" -> change changes changed changing;
    "swap" -> swapped swapping; "delay" -> delayed; "push" -> pushes."""
    out = {lemma}
    if lemma.endswith("e"):
        out |= {lemma + "s", lemma + "d", lemma[:-1] + "ing"}
    elif lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        out |= {lemma[:-1] + "ies", lemma[:-1] + "ied", lemma + "ing"}
    else:
        s = lemma + ("es" if lemma.endswith(("s", "sh", "ch", "x", "z")) else "s")
        double = len(lemma) <= 4 and lemma[-1] not in "aeiouwyx" and lemma[-2] in "aeiou" and lemma[-3] not in "aeiou"
        stem = lemma + lemma[-1] if double else lemma
        out |= {s, stem + "ed", stem + "ing"}
    return out


# Endings of the forms a change is told with (present 1/3 sg and pl, preterite, participles,
# infinitive, gerund) for each Romance conjugation.
_ROMANCE_ENDINGS: dict[tuple[str, str], tuple[str, ...]] = {
    ("fr", "er"): ("er", "e", "es", "ent", "ons", "ez", "e", "ee", "es", "ees", "ait", "ais", "a", "ant"),
    ("fr", "ir"): ("ir", "is", "it", "issent", "i", "ie", "is", "ies"),
    ("es", "ar"): ("ar", "o", "a", "as", "amos", "an", "e", "aste", "aron", "ado", "ada", "ados", "adas", "ando"),
    ("es", "er"): ("er", "o", "e", "es", "emos", "en", "i", "io", "ieron", "ido", "ida", "idos", "idas", "iendo"),
    ("es", "ir"): ("ir", "o", "e", "es", "imos", "en", "i", "io", "ieron", "ido", "ida", "idos", "idas", "iendo"),
    ("pt", "ar"): ("ar", "o", "a", "as", "amos", "am", "ei", "ou", "aram", "ado", "ada", "ados", "adas", "ando"),
    ("pt", "er"): ("er", "o", "e", "es", "emos", "em", "i", "eu", "eram", "ido", "ida", "idos", "idas", "endo"),
    ("pt", "ir"): ("ir", "o", "e", "es", "imos", "em", "i", "iu", "iram", "ido", "ida", "idos", "idas", "indo"),
}


def romance_forms(lang: str, infinitive: str) -> set[str]:
    """The regular forms of a French, Spanish or Portuguese verb from its infinitive
    ("changer" -> change changes changé changée ...; "aplazar" -> aplazó aplazado ...).
    Spelling changes (empezar -> empecé) are listed as irregular forms instead."""
    inf = fold(infinitive)
    conj = inf[-2:]
    stem = inf[:-2]
    endings = _ROMANCE_ENDINGS.get((lang, conj), ())
    return {fold(stem + e) for e in endings} | {inf}


def _verbs(en: str, fr: str, es: str, pt: str, de: str, irregular: str = "") -> frozenset[str]:
    out: set[str] = set()
    for w in en.split():
        out |= en_forms(w)
    for lang, block in (("fr", fr), ("es", es), ("pt", pt)):
        for w in block.split():
            out |= romance_forms(lang, w)
    out |= set(_set(de, irregular))
    return frozenset(out)


# --------------------------------------------------------------------------- cues of a change

# Verbs that only ever report a change of value (any object): "changed", "switched", "raised".
_CHANGE_VERBS = _verbs(
    "change switch replace swap trade raise increase decrease reduce reset postpone delay reschedule "
    "upgrade downgrade migrate transfer convert relocate hike bump",
    "changer remplacer augmenter baisser reduire reinitialiser repousser decaler retarder echanger "
    "troquer basculer migrer demenager reprogrammer",
    "cambiar reemplazar sustituir subir bajar aumentar reducir restablecer aplazar posponer retrasar "
    "reprogramar trasladar mudar migrar intercambiar",
    "mudar trocar substituir aumentar baixar reduzir redefinir adiar atrasar remarcar migrar transferir",
    # German: participles and finite forms, separable prefixes written together
    "gewechselt wechselt wechselte wechselten umgezogen umziehen zog gezogen ersetzt ersetzte "
    "erhoht erhohte angehoben hob gesenkt senkte reduziert reduzierte gekurzt zuruckgesetzt verschoben "
    "verschob verlegt verlegte getauscht tauschte umgestellt umgestiegen geandert anderte andert "
    "angepasst migriert",
    # irregular English / Romance forms ("lower" alone is the adjective: only its verb forms)
    "cut cuts cutting lowered lowers lowering moved redujo redujeron reduzi reduziu pospuso pospuesto "
    "pospuesta reduit reduite reduits mudou mudaram mudamos troquei trocou",
)
# Forms that are another common word first: Spanish "bajo" (under).
CHANGE_VERBS = _CHANGE_VERBS - _set("bajo")
# Verbs that report a change only with a destination or a time: "moved to Friday", "pushed
# back to May 2", "went up to 50" (alone they describe going somewhere or pushing something).
MOTION_VERBS = _verbs("move push shift bring", "passer deplacer", "pasar mover", "passar", "")
# Moving on from one holder of the slot to another: "left A and joined B", "took over".
HOLDER_VERBS = _verbs(
    "join", "rejoindre", "", "",
    "beigetreten ubernommen ubernahm ubernimmt",
    "took taken took_over rejoint rejoins repris reprise unio unido unida entro entra entraron entrou entrei",
)
# Leaving a holder: a change only with the name left right after ("left Deloitte", "a quitté
# Renault", "dejó Telefónica", "saiu da Galp"), or right before in German ("Siemens verlassen").
LEAVE_VERBS = _verbs(
    "leave quit", "quitter", "dejar", "deixar",
    "", "left quits quit saiu sai sairam saimos",
)
LEAVE_VERBS_LAST = _set("verlassen verliess verlasst gekundigt")
# Beginning or ending a habit, a change only with a verb after it ("started eating fish",
# "stopped training with Helen", "a recommencé à manger", "volvió a comer", "voltou a comer").
HABIT_VERBS = _verbs(
    "start stop begin resume", "commencer recommencer arreter reprendre", "empezar comenzar volver dejar",
    "comecar voltar deixar passar",
    "angefangen begonnen aufgehort",
    "began begun started empece empezo comence comenzo volvio volvi vuelve vuelvo comecei comecou voltei "
    "voltou parei parou paro parado parada",
)
# Adverbs and phrases (folded words, space separated) saying the value changed.
NOW_PHRASES = (
    "now", "nowadays", "these days", "from now on", "going forward", "as of now", "any more", "anymore",
    "no longer", "instead", "after all", "turns out", "turned out", "not anymore",
    "maintenant", "desormais", "dorenavant", "a la place", "a present", "finalement", "en fin de compte",
    "au final", "ne plus", "n plus", "il s avere",
    "ahora", "hoy en dia", "a partir de ahora", "en su lugar", "en vez de eso", "en cambio", "al final",
    "ya no", "resulta que", "finalmente", "despues de todo",
    "jetzt", "nun", "inzwischen", "mittlerweile", "neuerdings", "ab sofort", "stattdessen", "nicht mehr",
    "letztendlich", "doch nicht", "kein mehr", "ab jetzt", "kunftig", "zukunftig", "von nun an", "ab heute",
    "desde ahora", "de ahora en adelante", "de agora em diante", "daqui em diante", "desde agora",
    "agora", "hoje em dia", "a partir de agora", "em vez disso", "no lugar", "afinal", "ja nao", "nao mais",
    "de novo", "de nuevo", "a nouveau", "de nouveau", "again", "wieder",
    "adesso", "ora", "ormai", "oramai", "da ora in poi", "d ora in poi", "invece", "al suo posto", "non piu",
    "alla fine", "di nuovo", "nuovamente",
)
# A revert: the slot back on an earlier value ("Reverted the Zustand migration: back on Redux Toolkit", "Rolled
# back to SDK 50", "CI is back on GitHub Actions"): a change said as plainly as "now". Read as a cue only
# (memengine/fact_cue.py, memengine/fact_change_words.py), never as words without content: "back" stays a word.
REVERT_PHRASES = (
    "reverted", "revert", "reverting", "rolled back", "roll back", "rolling back", "rollback", "back on", "back to",
    "zuruck auf", "zuruck zu", "zuruck zum", "zuruck zur", "zuruckgerollt", "zuruckgedreht",
    "revenu a", "revenus a", "revenu sur", "revenus sur", "de retour sur", "de retour a",
    "de vuelta a", "de vuelta en", "volvimos a", "revertimos", "revertido",
    "de volta ao", "de volta a", "voltamos ao", "voltamos para", "revertemos",
)
# "Instead": the verb stays and its object is replaced ("I take the bus instead"), so a shared
# everyday verb ("take", "apanho") anchors the slot when one of these is said.
INSTEAD_PHRASES = ("instead", "a la place", "en su lugar", "en vez de eso", "stattdessen", "em vez disso",
                   "no lugar", "au lieu")
# Nouns of a change ("after the ISP swap", "depuis le déménagement", "nach dem Umzug").
CHANGE_NOUNS = _set(
    "swap switch switchover changeover change move migration upgrade reset relocation",
    "changement demenagement migration bascule",
    "cambio mudanza migracion traslado",
    "wechsel umzug umstellung migration",
    "troca mudanca migracao",
)
# German compounds ending in a change noun: "Anbieterwechsel", "Serverumzug".
CHANGE_NOUN_SUFFIXES = ("wechsel", "umzug", "umstellung")
# "new X: value", "the new one is ...", "nouveau code :", "neuer Türcode:".
NEW_WORDS = _set("new", "nouveau nouvelle nouveaux nouvelles nouvel", "nuevo nueva nuevos nuevas",
                 "neu neue neuer neues neuen", "novo nova novos novas")
COPULAS = _set("is are was be", "est sont suis sommes etes", "es son esta soy somos estoy estan",
               "ist sind lautet bin bist", "e sao esta sou somos estou estao")
# After "started" / "stopped": a verb, the habit ("eating", "à manger", "a comer", "de fumar").
HABIT_LINKS = _set("to", "a de d", "a de", "zu", "a de")
ROMANCE_INFINITIVE = ("er", "ir", "re", "ar")
# German habit verbs say what started or stopped with "zu" / "mit" ("hat aufgehört zu rauchen").
GERMAN_HABIT_LINKS = _set("zu mit")

# Words that add a value rather than replace one.
ADDITIVE = _set(
    "also too additionally another extra",
    "aussi egalement autre",
    "tambien ademas otro otra otros otras",
    "auch zusatzlich weitere weiterer weiteres ebenfalls",
    "tambem outro outra outros outras segundo segunda",
    "anche inoltre altro altra altri altre",
)
ADDITIVE_PHRASES = ("as well", "in addition", "en plus", "de plus", "noch ein", "noch eine", "alem disso", "in piu")

# Saying a value has NOT changed: "still", "sigue siendo", "immer noch".
CONTINUITY = _set("still", "toujours encore", "sigue siguen seguimos todavia aun", "noch weiterhin",
                  "ainda continua continuam", "tuttora")
# Mutually exclusive values of one slot that share no word: a diet. Two sentences that each name
# one share the slot ("I'm vegetarian" / "so I'm pescatarian now").
DIETS = _set(
    "vegan vegetarian vegetarien pescatarian pescetarian flexitarian omnivore carnivore",
    "vegane vegetarienne pescetarien pescetarienne flexitarien flexitarienne omnivore",
    "vegano vegana vegetariano vegetariana pescetariano pescetariana pescatariano flexitariano omnivoro",
    "veganer veganerin vegetarier vegetarierin pescetarier pescetarierin flexitarier",
    "vegano vegana vegetariano vegetariana pescetariano pescetariana flexitariano onivoro",
)

# Where someone lives, and moving house: "Grandpa lives in Leeds" / "Grandpa moved into a care
# home in Harrogate" share the slot though no word of it.
RESIDENCE = _set("live lives living lived reside resides", "habite habitent habiter vit vivent",
                 "vive viven vivo reside residen", "wohnt wohnen wohne lebt leben lebe", "mora moram moro vive vivem")
MOVE_HOUSE = _set("moved relocated", "demenage demenagee demenages demenagees", "mudo mudamos mudaron trasladado",
                  "umgezogen zog gezogen", "mudou mudei mudaram mudamos")

# Verbs naming one boundary of a thing's time: opening and closing, start and end, departure and
# arrival are different slots ("the gym opens at 6" / "the gym now closes at 11"). Group -> forms.
_BOUNDARY_GROUPS = {
    "open": "open opens opened opening ouvre ouvrent ouvert ouverte abre abren abierto abierta offnet "
            "offnen geoffnet abrem aberto aberta",
    "close": "close closes closing ferme ferment fermee cierra cierran cerrado cerrada schliesst schliessen "
             "geschlossen fecha fecham fechado fechada",
    "start": "start starts begins commence commencent debute empieza empiezan comienza comienzan beginnt "
             "beginnen fangt comeca comecam inicia",
    "end": "end ends finishes finish termine terminent finit acaba acaban termina terminan endet enden "
           "hort terminam acaba",
    "depart": "departs departure leaves part partent sale salen despega fahrt abfahrt startet parte partem",
    "arrive": "arrives arrival lands arrive arrivent atterrit llega llegan aterriza kommt landet ankunft "
              "chega chegam aterra",
}
BOUNDARY: dict[str, str] = {fold(w): g for g, block in _BOUNDARY_GROUPS.items() for w in block.split()}

# A request or an instruction is no fact to replace, nor one that replaces ("Please bring the
# slides to the March 12 review").
REQUEST = _set("please kindly", "svp stp", "favor", "bitte", "favor")
REQUEST_PHRASES = ("merci de", "s il vous plait", "s il te plait", "por favor", "se faz favor")

# --------------------------------------------------------------------------- what a value leaves

# The old value named right after one of these is being left: "left Deloitte", "traded the
# Skoda", "stopped training with Helen", "from Priya", "a quitté Renault", "dejó Telefónica".
DEPARTURE = _set(
    "left leave leaves leaving quit quits stopped stop traded trade swapped swap replaced replace sold "
    "dropped ditched from instead longer anymore",
    "quitte quittee quitter arrete echange echangee remplace remplacee vendu troque lieu plus",
    "deje dejo dejado dejamos vendi vendio sustitui sustituyo lugar vez",
    "verlassen verliess gekundigt getauscht ersetzt verkauft statt anstatt anstelle aufgehort mehr",
    "saiu sai deixou deixei troquei trocou trocado trocamos vendeu vendi substitui substituiu largou parou "
    "largei mais",
)
# "<verb> X for / contre / por / gegen Y": X is the old value when a trade verb is in the sentence.
TRADE_VERBS = _set(
    "traded trade swapped swap exchanged replaced", "echange echangee troque remplace remplacee",
    "cambie cambio cambiado intercambie sustitui", "getauscht ersetzt eingetauscht",
    "troquei trocou trocado trocamos substitui substituiu",
)
TRADE_PREPOSITIONS = _set("for with", "contre pour par", "por", "gegen durch", "por pelo pela")
# Where a value goes: scanning back from a name, one of these first means the name is the
# destination ("from Trello to Jira": Jira is not left behind).
DESTINATIONS = _set(
    "to back forward into onto later earlier up down", "a au aux chez vers", "al para hasta",
    "auf zu zur zum nach", "para pra ao aos")
# The same, per language: English "a" is an article, French "à" (folded "a") a destination.
DESTINATIONS_BY_LANG = {lang: _set(b) for lang, b in (
    ("en", "to back forward into onto later earlier up down"), ("fr", "a au aux chez vers en"),
    ("es", "a al para hasta"), ("de", "auf zu zur zum nach"), ("pt", "para pra ao aos a as"))}

# --------------------------------------------------------------------------- people

# Whose fact it is: a kinship word or another person on one side only is another subject.
# Canonical id per group, so "mother" = "mum" = "mère" = "Mutter".
_KIN_GROUPS = (
    "sister sisters soeur soeurs hermana hermanas schwester schwestern irma irmas sorella sorelle",
    "brother brothers frere freres hermano hermanos bruder bruders irmao irmaos fratello fratelli",
    "mother mum mom mama maman mere madre mutter mae mamma",
    "father dad daddy papa pere padre vater pai",
    "parents eltern padres pais genitori",
    "son sons fils hijo hijos sohn sohne filho filhos figlio figli",
    "daughter daughters fille filles hija hijas tochter tochter filha filhas figlia figlie",
    "wife ehefrau esposa femme mujer mulher moglie",
    "husband mari marido esposo ehemann",
    "partner partners conjoint conjointe pareja companera companero lebensgefahrte",
    "boyfriend girlfriend copain copine novio novia namorado namorada freundin fidanzato fidanzata",
    "grandma grandmother granny grandmere abuela oma grossmutter avo nonna",
    "grandpa grandfather grandad granddad grandpere abuelo opa grossvater avo nonno",
    "aunt tante tia zia",
    "uncle oncle tio onkel zio",
    "cousin cousins cousine primo prima cugino cugina",
    "niece nephew niece neveu sobrino sobrina nichte neffe sobrinho sobrinha",
    "neighbour neighbor neighbours neighbors voisin voisine vecino vecina nachbar nachbarin vizinho vizinha",
    "friend friends ami amie amis amigo amiga amigos freund freunde amico amica amici",
    "colleague colleagues coworker collegue companero kollege kollegin colega collega colleghi",
    "boss patron patronne jefe jefa chef chefin chefe",
    "roommate flatmate colocataire mitbewohner coinquilino coinquilina",
    "kid kids child children enfant enfants nino nina ninos kind kinder crianca criancas",
)
KIN: dict[str, str] = {fold(w): group.split()[0] for group in _KIN_GROUPS for w in group.split()}
# Titles before a name: not a name themselves, and not what a fact is about.
TITLES = _set(
    "dr doctor mr mrs ms miss prof professor sir",
    "docteur docteure dr madame monsieur mme m mlle",
    "doctor doctora senor senora sr sra don dona",
    "herr herrn frau doktor",
    "doutor doutora senhor senhora sr sra dona",
)
# Words introducing a possessor after a noun: "the rent of Sam", "le loyer de Sam", "das Auto von Sam".
POSSESSOR_PREPOSITIONS = _set("of", "de d", "de del", "von", "de do da")

# --------------------------------------------------------------------------- not anchors

# Nouns and verbs so general that sharing them says nothing about the slot.
GENERIC = _set(
    "day days week weeks month months year years hour hours minute minutes time times today thing things "
    "euro euros dollar dollars pound pounds cent cents real reais percent mg kg km am pm "
    "have has had get gets got take takes took go goes going make makes made do does use uses used "
    "is are be been being one ones way lot last next ago yesterday tomorrow tonight weekend morning evening",
    "jour jours semaine semaines mois an ans annee annees heure heures minute fois chose euro euros "
    "avoir ai as avons avez ont faire fait prendre prends prend aller vais va dernier derniere prochain "
    "prochaine hier demain",
    "dia dias semana semanas mes meses ano anos hora horas minuto minutos vez veces cosa euro euros "
    "tener tengo tiene tienen hacer hago hace ir voy va tomar tomo coger cojo pasado pasada proximo proxima "
    "ayer manana",
    "tag tage woche wochen monat monate jahr jahre stunde stunden minute minuten mal ding euro "
    "haben habe hat machen mache macht gehen gehe geht nehmen nehme nimmt fahre fahrt letzte letzten "
    "letzter nachste nachsten gestern morgen",
    "dia dias semana semanas mes meses ano anos hora horas minuto minutos vez vezes coisa reais "
    "ter tenho tem fazer faco faz ir vou vai tomar tomo apanhar apanho pegar pego passado passada proximo "
    "proxima ontem amanha",
)
