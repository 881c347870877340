"""Word tables the fact comparison reads (memengine/facts.py), one block per language.

English, French, Spanish, German, Portuguese and Italian. The mechanism in facts.py is language-neutral
(same frame + a differing value slot, negation parity); these tables only say which
words are function words, negations, copulas, modals and the few closed-class
opposites that no frame can see ("open" / "closed"). Words are stored lower-case and
accent-folded (``fold``), so "fermée" and "fermee" are one entry. Adding a language
is adding a block to each table; nothing else changes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=16384)  # (every token of every compared sentence is folded, several times)
def fold(word: str) -> str:
    """Lower-case, accents removed ("Préfère" -> "prefere"); "ß" stays."""
    if word.isascii():  # (NFKD leaves ASCII as is, nothing to drop: ~4,000 table words folded at import, ~10 ms
        return word.lower()  # of a cold fact store's CPU in the loop below; tests/test_serve22_fold.py)
    w = unicodedata.normalize("NFKD", word.lower())
    w = "".join(ch for ch in w if not unicodedata.combining(ch))
    return w.replace("œ", "oe").replace("æ", "ae") if "œ" in w or "æ" in w else w  # "sœur" = "soeur"


def fold_text(text: str) -> str:
    """A sentence folded as :func:`fold` folds a word, its typographic apostrophe written "'"
    ("l’école" -> "l'ecole"): the form the fact rules' patterns are written in."""
    return fold(text).replace("’", "'")


def _set(*blocks: str) -> frozenset[str]:
    return frozenset(fold(w) for block in blocks for w in block.split())


# Short forms people type for a word whose start they do not share ("xmas" / "christmas", "bday" /
# "birthday"): the same word for :func:`same_stem` (folded; a prefix abbreviation needs no entry).
SHORT_FORMS = {"xmas": "christmas", "x-mas": "christmas", "bday": "birthday", "b-day": "birthday",
               "appt": "appointment", "mtg": "meeting", "anniv": "anniversary", "hols": "holidays",
               "geburi": "geburtstag", "cumple": "cumpleanos", "niver": "aniversario",
               # a password / a combination typed short: the start of the word in every language
               "pw": "passw", "pwd": "passw", "passwd": "passw", "combo": "combin"}


def same_stem(a: str, b: str) -> bool:
    """One word, two spellings: equal, the same stem (a shared start of 4+ letters, endings of at most
    3: "renovation" / "renovations"), an abbreviation ("ortho" / "orthodontist") or a short form
    (:data:`SHORT_FORMS`: "xmas" / "christmas")."""
    a, b = SHORT_FORMS.get(a, a), SHORT_FORMS.get(b, b)
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 4 and long_.startswith(short):
        return True
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    if n >= 6 and short[n:] in _PLURAL_ENDINGS and len(long_) - n >= 4:
        return True  # a German compound and its first noun in the plural: "zeugnisausgabe" / "zeugnisse"
    return n >= 4 and len(a) - n <= 3 and len(b) - n <= 3


_PLURAL_ENDINGS = frozenset(("e", "n", "en", "s", "se", "er", "es", "nen"))


# The six languages of every table (one block each, in this order).
LANGS = ("en", "fr", "es", "de", "pt", "it")

# Function words: never content, never a value. "now / no longer / again" style change
# markers are here too (a fact and its update must still share a frame).
LANG_STOP: dict[str, frozenset[str]] = dict(zip(LANGS, (_set(b) for b in (
    # en
    """a an the this that these those it its he she they them his her their our we you your i me my mine
    of in on at to from for with by about as into onto over under and or but so if then than also too very
    really just still there here where when which who whom whose what how all every each any some much many
    more most less own same such now currently usually normally typically always only even both either per
    via up out off anymore again today nowadays presently lately recently instead already yet one's
    big great""",
    # fr
    """le la les l un une des du de d au aux ce cet cette ces il elle ils elles on nous vous je j me m te t
    se s son sa ses leur leurs notre nos votre vos mon ma mes en dans sur sous avec pour par chez vers et ou
    mais donc qui que qu quoi dont ou y tout tous toute toutes tres aussi encore toujours maintenant
    desormais actuellement aujourd hui deja chaque plus moins bien""",
    # es
    """el la los las lo un una unos unas del al de en con por para sobre entre y o pero que quien cual
    cuyo su sus mi mis tu tus nuestro nuestra se le les me te nos muy tambien todavia siempre ahora
    actualmente hoy ya cada todo todos toda todas mas menos otra vez""",
    # de
    """der die das den dem des ein eine einen einem einer eines und oder aber in im am an auf aus bei mit
    nach von vom zu zum zur fur uber unter durch er sie es wir ihr ich mich mir sein seine seinen seinem seiner ihre
    ihren ihrem ihrer unser unsere unseren unserem unserer mein meine meinen meinem meiner dein deine jetzt
    inzwischen mittlerweile heute immer noch schon auch sehr jede jeder jedes seit nicht mehr""",
    # pt
    """o a os as um uma uns umas do da dos das de em no na nos nas ao aos pelo pela pelos pelas com por
    para pra e ou mas que quem qual seu sua seus suas meu minha meus minhas teu tua nosso nossa ele ela
    eles elas eu nos voce se lhe me te muito tambem ainda sempre agora atualmente hoje ja cada todo toda
    todos todas mais menos outra vez""",
    # it. The table is one for every language (a short sentence's language is often guessed wrong): no word
    # that is a name or content elsewhere ("ci" / CI, "ai" / AI, "ed", "sue", "vi", "lei", "chi", "dai", "mia")
    """il lo gli i del dello della dei degli delle di da dal dallo dalla dagli dalle nel nello nella nei
    negli nelle sul sulla sui sugli con per fra al allo alla agli alle ma che cui questo questa
    questi queste quello quella quelli io tu lui noi voi loro mio miei mie tuo tua suo sua suoi
    nostro nostra nostri nostre vostro vostra molto anche ancora sempre adesso ora oggi ormai ogni tutto
    tutti tutta tutte meno altro altra poi invece quindi""",
))))
STOPWORDS: frozenset[str] = frozenset().union(*LANG_STOP.values())
# A word written with an accent is a function word only if it is listed here with its accent:
# folded, "thé" would be English "the" and "té" Spanish "te" (memengine/facts.py keeps the accents).
ACCENTED_STOP = frozenset("""
à où là déjà très été être était étaient après même près voilà ça
más él tú sí también todavía está están estás qué cuál cómo dónde según después además aún sólo así
für über während gegenüber später schon
é à às até após já não também você vocês está estão lá só através
è più già perché così può però lì né
""".split())

# Copulas: what follows them is the complement (the value of the frame). The verbs of a price or an
# amount are copulas too ("die Miete beträgt 900 Euro" / "die Miete ist jetzt 950": one slot).
LANG_COPULA: dict[str, frozenset[str]] = dict(zip(LANGS, (_set(b) for b in (
    "is are was were be been being am got gets costs cost amounts",
    "est sont etait etaient etre sera ete coute coutent",
    "es son era eran ser esta estan estaba estaban estar sera fue cuesta cuestan",
    "ist sind war waren sein wird wurde betragt betragen kostet kosten",
    "e sao era eram ser esta estao estava estavam estar sera foi custa custam",
    "e sono era erano essere siamo costa costano",  # ("è": read from its accent, as Portuguese "é")
))))
# Folded copulas that are another function word without their accent: Portuguese "é", Italian "è" (is) / "e" (and).
COPULA_NEEDS_ACCENT = frozenset({"e"})

# Auxiliaries and modals: they end the subject phrase; the next content word is the verb.
LANG_AUX: dict[str, frozenset[str]] = dict(zip(LANGS, (_set(b) for b in (
    """has have had do does did will would shall should can could may might must need needs
    has_to have_to""",
    "a ont avait ai doit doivent devrait peut peuvent faut va vont",
    "ha han habia he debe deben deberia puede pueden hay tiene_que hay_que va van",
    "hat haben habe hast habt hatte muss mussen soll sollte kann konnen darf durfen wird werden",
    "tem tinha deve devem pode podem vai vao tem_que",
    "ha hanno ho hai abbiamo aveva avevo deve devono devo dovrebbe puo possono posso",
))))

# Modal classes: an obligation and a permission are different facts (same-fact test).
MODALS: dict[str, str] = {fold(w): cls for cls, block in {
    "must": "must need needs needed required has_to have_to doit doivent faut oblige debe deben tiene_que "
            "hay_que muss mussen tem_que devono devo bisogna",
    "may": "may can could allowed peut peuvent pouvez puede pueden podemos darf durfen kann konnen pode podem "
           "puo possono posso",
    "should": "should ought devrait devraient deberia deberian sollte sollten deveria deveriam dovrebbe "
              "dovrebbero",
}.items() for w in block.split()}

# Negation words. French "ne ... pas" counts once (facts.py), so "pas", "plus", "jamais",
# "rien", "aucun" count only without a "ne".
NEGATIONS = _set(
    "not no never none nobody nothing neither nor cannot without n't",
    "ne n sans ni",
    "no nunca jamas ningun ninguna ninguno nada nadie sin tampoco",
    "nicht kein keine keinen keinem keiner nie niemals nichts ohne",
    "nao nunca jamais nenhum nenhuma nada ninguem sem",
    "non mai nessuno nessuna niente nulla senza",
)
# Negations that are another function word in one language: Portuguese "no" is "in the".
# Italian "ne" (of it) is no French "ne".
NEGATION_EXCEPT: dict[str, frozenset[str]] = {"pt": frozenset({"no"}), "it": frozenset({"ne", "ni"})}
# Negations of some languages only: Italian "mai" (never) is May in French and German and a name in English,
# "non" is "non-profit" in English.
NEGATION_LANGS: dict[str, frozenset[str]] = {"mai": frozenset({"it"}), "non": frozenset({"it", "fr"})}
NE_COMPLEMENTS = _set("pas plus jamais rien aucun aucune personne guere point")
NON_COMPLEMENTS = _set("mai nessuno nessuna niente nulla")  # Italian "non ... mai" is one negation
# Verbs of stopping: "quit smoking", "a arrêté de fumer", "dejó de fumar" negate what follows.
CESSATION = _set(
    "quit quits stopped stop stops ceased",
    "arrete arretee cesse",
    "dejo dejado",
    "aufgehort",
    "parou deixou",
    "smesso smette smettere",
)

# Phrases rewritten before tokenising (lower-cased, folded text; word boundaries added).
PHRASES: tuple[tuple[str, str], ...] = (
    ("no longer", "not"), ("not any more", "not"), ("not anymore", "not"), ("gave up", "quit"),
    ("can't stand", "hates"), ("cannot stand", "hates"), ("can not stand", "hates"), ("fan of", "likes"), ("keen on", "likes"),
    ("has to", "has_to"), ("have to", "have_to"), ("had to", "has_to"),
    ("is based in", "lives in"), ("are based in", "live in"),
    ("aime mieux", "prefere"), ("a demenage a", "habite a"), ("demenage a", "habite a"),
    ("s'est installe a", "habite a"), ("s'est installee a", "habite a"),
    ("se mudo a", "vive en"), ("se ha mudado a", "vive en"), ("se muda a", "vive en"),
    ("ya no", "no"), ("tiene que", "tiene_que"), ("hay que", "hay_que"),
    ("nicht mehr", "nicht"),
    ("ja nao", "nao"), ("nao mais", "nao"), ("tem que", "tem_que"), ("mudou-se para", "mora em"),
    ("se mudou para", "mora em"), ("mudou-se pra", "mora em"),
    # "from now on" in five languages: the "now" of a change, never a word of the frame ("Ab sofort ist
    # das Training donnerstags" = "das Training ist jetzt donnerstags")
    ("from now on", "now"), ("as of now", "now"), ("going forward", "now"), ("from today on", "now"),
    ("a partir de maintenant", "maintenant"), ("dorenavant", "desormais"), ("des maintenant", "maintenant"),
    ("a partir de ahora", "ahora"), ("desde ahora", "ahora"), ("de ahora en adelante", "ahora"),
    ("ab sofort", "jetzt"), ("ab jetzt", "jetzt"), ("von nun an", "jetzt"), ("kunftig", "jetzt"),
    ("zukunftig", "jetzt"), ("ab heute", "jetzt"),
    ("a partir de agora", "agora"), ("de agora em diante", "agora"), ("daqui em diante", "agora"),
    ("desde agora", "agora"),
    ("non piu", "non"), ("di nuovo", "ancora"), ("da adesso in poi", "adesso"), ("d'ora in poi", "ora"), ("da ora in poi", "ora"),
    ("da oggi in poi", "ora"),
)
# A move of house, but only when a place name follows: "moved to Porto" is "lives in Porto",
# "moved to Friday" is an event moved in time (a change, memengine/fact_change.py).
MOVE_TO_PLACE: tuple[tuple[str, str], ...] = (
    ("moved to", "lives in"), ("relocated to", "lives in"), ("moved back to", "lives in"),
    ("zog nach", "wohnt in"), ("ist nach", "wohnt in"), ("sind nach", "wohnen in"),
)

# German puts the move's time between the auxiliary and "nach": "ist dieses Jahr nach Leipzig
# (um)gezogen" reads as "wohnt dieses Jahr in Leipzig" (a regular expression over the folded text).
MOVE_SPLIT: tuple[tuple[str, str], ...] = (
    (r"\b(?:ist|bin|bist)\s+((?:\w+\s+){1,3}?)nach\s+([A-Z][\w-]*)\s+(?:um)?gezogen\b", r"wohnt \1in \2"),
    (r"\b(?:sind|seid)\s+((?:\w+\s+){1,3}?)nach\s+([A-Z][\w-]*)\s+(?:um)?gezogen\b", r"wohnen \1in \2"),
)

# Words that name the same thing (mapped onto the first word of each group).
SYNONYMS: dict[str, str] = {fold(w): fold(group.split()[0]) for group in (
    "live lives living lived reside resides resided habite habitent habiter vit vivent vivre vive viven "
    "vivir reside residen wohnt wohnen lebt leben mora moram morar vivem vivono abita abitano",
    "work works working worked travaille travaillent trabaja trabajan arbeitet arbeiten trabalha trabalham "
    "lavora lavorano",
    "begin begins start starts started commence commencent empieza empiezan beginnt comeca comecam inizia "
    "iniziano comincia cominciano",
    "food dish dishes meal meals plat plats comida comidas essen cibo",
    "password passwords passcode pass mot_de_passe contrasena clave passwort kennwort senha",
    "phone telephone mobile cell numero number telefono movil handy nummer telefone celular telemovel "
    "cellulare",
    "email e-mail mail courriel correo",
    "birthday anniversaire cumpleanos geburtstag compleanno",
    "manager boss chef chefin jefe jefa responsable gerente chefe capo",
    "meeting meetings reunion reuniones besprechung reuniao reunioes riunione riunioni",
    # naming verbs: "is called Mochi" = "named Mochi" = "s'appelle" = "se llama" = "heißt" = "chama-se"
    "called named name names appelle appellent appele appelee nomme nommee llama llaman llamado "
    "llamada heisst heißt heissen namens genannt chama chamam chamado chamada chiama chiamano chiamato chiamata",
)
    for w in group.split()}
MULTIWORD = (("mot de passe", "mot_de_passe"),)

# Closed-class opposites: axis -> (positive pole words, negative pole words). A negative pole
# counts as one negation, so "forbidden" = "not allowed" and "open" / "closed" differ in
# polarity on one frame. "prefers" and "likes" are two axes: a preference is exclusive
# ("prefers tea" vs "prefers coffee" is a change), a liking is not ("likes jazz", "likes rock").
AXES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "open": (_set("open opened ouvert ouverte ouverts ouvertes abierto abierta abiertos abiertas offen geoffnet "
                  "aberto aberta abertos abertas aperto aperta aperti aperte"),
             _set("closed shut ferme fermee fermes fermees cerrado cerrada cerrados cerradas geschlossen "
                  "fechado fechada fechados fechadas chiuso chiusa chiusi chiuse")),
    # "on" / "off" themselves are SWITCH below (they are prepositions too)
    "switch": (_set("allume allumee allumes allumees encendido encendida encendidos encendidas eingeschaltet "
                    "ligado ligada ligados ligadas acceso accesa accesi accese"),
               _set("eteint eteinte eteints eteintes apagado apagada apagados apagadas ausgeschaltet "
                    "desligado desligada desligados desligadas spento spenta spenti spente")),
    "allowed": (_set("allowed permitted authorized authorised autorise autorisee autorises autorisees permis "
                     "permise permitido permitida permitidos autorizado autorizada erlaubt gestattet "
                     "autorizados autorizadas consentito consentita"),
                _set("forbidden prohibited banned disallowed interdit interdite interdits interdites defendu "
                     "prohibido prohibida prohibidos verboten untersagt proibido proibida proibidos vietato "
                     "vietata proibito proibita")),
    "required": (_set("required mandatory compulsory obligatory obligatoire obligatoires requis requise "
                      "obligatorio obligatoria requerido requerida erforderlich verpflichtend pflicht "
                      "obbligatorio obbligatoria"),
                 _set("optional facultatif facultative optionnel optionnelle opcional optativo optativa "
                      "freiwillig facoltativo facoltativa")),
    "enabled": (_set("enabled active activated active activee actif activo activa activado activada habilitado "
                     "habilitada aktiviert aktiv ativado ativada ativo ativa attivo attiva attivato attivata"),
                _set("disabled inactive deactivated desactive desactivee inactif inactivo inactiva desactivado "
                     "desactivada deshabilitado deshabilitada deaktiviert inaktiv desativado desativada inativo inativa "
                     "disattivato disattivata")),
    "public": (_set("public publique publics publiques publico publica offentlich pubblico pubblica"),
               _set("private internal prive privee prives privees privado privada privat privados privato")),
    "true": (_set("true vrai vraie verdadero verdadera wahr vero"), _set("false faux fausse falso falsa falsch")),
    "married": (_set("married marie mariee casado casada verheiratet sposato sposata"),
                _set("single unmarried divorced celibataire divorce divorcee soltero soltera divorciado "
                     "divorciada ledig geschieden solteiro solteira divorziato divorziata")),
    "automatic": (_set("automatic automatically automated auto automatique automatiquement automatico "
                       "automatica automaticamente automatisch automatico"),
                  _set("manual manually manuel manuelle manuellement manualmente manuell manuale")),
    "available": (_set("available disponible disponibles verfugbar"),
                  _set("unavailable indisponible indisponibles")),
    "likes": (_set("like likes liked love loves loved enjoy enjoys enjoyed adore adores aime aiment adorent "
                   "apprecie gusta gustan encanta encantan ama mag mogen liebt gern gosta gostam adora adoram "
                   "piace piacciono"),
              _set("dislike dislikes disliked hate hates hated detest detests loathe loathes deteste detestent "
                   "hait odia odian detesta hasst odeia odeiam odiano")),
    "prefers": (_set("prefer prefers preferred favourite favorite prefere preferent prefiere prefieren "
                     "preferido preferida favorito favorita bevorzugt prefere preferem preferisce "
                     "preferiscono preferito preferita"), frozenset()),
}
# "on"/"off" ("an"/"aus") are switch states only right after a copula and when no object follows:
# "logging is on", "the light is off now", but "the review is on Thursday", "er ist aus Berlin".
SWITCH: dict[str, dict[str, str]] = {"en": {"on": "+", "off": "-"}, "de": {"an": "+", "aus": "-"}}
# Adverbs that may stand between the copula and the state: "is now off", "ist immer noch an".
SWITCH_ADVERBS = _set("now still currently usually always already again also", "jetzt noch immer wieder schon auch")
# What may follow a switch state: an adverb or a new clause, never the object of a preposition.
DETERMINERS = _set(
    "the a an this that these those my your his her its our their every each some no one",
    "le la les un une des du ce cet cette mon ma mes",
    "el la los las un una unos unas del mi mis",
    "der die das den dem des ein eine einen einem einer eines mein meine",
    "o a os as um uma uns umas do da dos das",
    "il lo la i gli le un uno una questo questa mio mia",
)

# Predicates that hold several values at once: "likes jazz" and "likes rock" are both true.
NON_EXCLUSIVE = _set(
    "likes has have had speak speaks spoke know knows knew play plays visit visited visits own owns read reads "
    "use uses used",
    "a ont parle parlent connait joue visite utilise utilisent utilisons",
    "tem tinha fala falam conhece joga visita usa usam usamos utiliza utilizam",
    "tiene tienen habla hablan conoce juega visita usa usan usamos utiliza utilizan utilizamos",
    "hat haben spricht kennt spielt besucht nutzt nutzen benutzt benutzen verwendet verwenden",
    "ha hanno parla parlano conosce gioca giocano visita usa usano usiamo utilizza",
) | frozenset({"likes"})

# A number right after one of these names which thing is meant ("version 2", "room 4"):
# it is part of the subject, not a value.
IDENTIFIER_WORDS_DE = _set("raum zimmer stock etage")  # (German writes them capitalised, as every noun)
IDENTIFIER_WORDS = _set(
    "version v release issue ticket pr room floor step phase sprint chapter section line item case node "
    "build iteration apartment flat building gate platform season episode level tier number no # note task "
    "bug job server host team group",
    "salle etage chambre appartement bureau",
    "sala planta piso habitacion",
    "sala andar quarto",
    "stanza camera piano aula",
) | IDENTIFIER_WORDS_DE

# Of those, the ones that also introduce a stated value ("runs version 2.4", "on build 7"):
# they name a thing only at the start of a sentence.
VALUE_IDENTIFIERS = _set("version v release build level tier season")

# Personal pronouns: a sentence starting with one has no subject word ("We use GitLab").
# Compared with the word as written (accents kept: Spanish "él" is a pronoun, "el" an article).
PRONOUNS: dict[str, frozenset[str]] = {lang: frozenset(block.split()) for lang, block in (
    ("en", "i we you he she they"), ("fr", "je j nous vous il elle ils elles on"),
    ("es", "yo nosotros nosotras tú él ella ellos ellas"), ("de", "ich wir du er sie"),
    ("pt", "eu nós ele ela eles elas você vocês"), ("it", "io noi tu lui lei loro voi"))}

# One-letter words that do tell the language (as written): Portuguese "o" / "é", Spanish "y" / "o".
ONE_LETTER_HINTS: dict[str, tuple[str, ...]] = {"o": ("es", "pt"), "y": ("es",), "é": ("pt",), "à": ("fr", "pt"),
                                                "è": ("it",)}

# First-person plural endings that carry the subject in languages that drop it ("usamos Jira").
PRO_DROP: dict[str, tuple[str, ...]] = {"es": ("amos", "emos", "imos"), "pt": ("amos", "emos", "imos"),
                                        "it": ("iamo",)}

# After a verb, these make it passive ("is led by Hana", "est géré par", "gestionado por", "von ... geleitet").
AGENT_PREPOSITIONS = _set("by par por von vom durch pelo pela dal dalla")

# What follows a verb but never a name: an article or a preposition ("Tengo un ...", "Trabalho na
# ...", "Vendí el ..."; "Marco now ..." is a name).
AFTER_VERB = DETERMINERS | _set("a al de del en con por para sin", "em na no nas nos com pela pelo do da",
                                "in nel nella alla dal dalla per")

# Words before a capitalised name that make it a place ("in Osaka", "à Lyon").
PLACE_PREPOSITIONS = _set("in at to from near en a au aux dans desde nach bei em no na para")

MONTHS: dict[str, int] = {}
for _names in (
    "january february march april may june july august september october november december",
    "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "januar februar marz april mai juni juli august september oktober november dezember",
    "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro",
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
):
    for _i, _m in enumerate(_names.split(), start=1):
        MONTHS.setdefault(_m, _i)
for _short, _i in (("jan", 1), ("feb", 2), ("mar", 3), ("apr", 4), ("jun", 6), ("jul", 7), ("aug", 8),
                   ("sep", 9), ("sept", 9), ("oct", 10), ("nov", 11), ("dec", 12)):
    MONTHS.setdefault(_short, _i)
# Months whose own spelling carries a diacritic (março, März, février, août, décembre): typed
# without it and with no day beside it, the word is a name ("Marco is leading the team now").
MONTHS_SPELT_WITH_ACCENT = frozenset(("marco", "marz", "fevrier", "aout", "decembre"))
WEEKDAYS: dict[str, int] = {}
for _names in (
    "monday tuesday wednesday thursday friday saturday sunday",
    "lundi mardi mercredi jeudi vendredi samedi dimanche",
    "lunes martes miercoles jueves viernes sabado domingo",
    "montag dienstag mittwoch donnerstag freitag samstag sonntag",
    "segunda-feira terca-feira quarta-feira quinta-feira sexta-feira sabado domingo",
    "lunedi martedi mercoledi giovedi venerdi sabato domenica",
):
    for _i, _d in enumerate(_names.split()):
        WEEKDAYS.setdefault(_d, _i)
        WEEKDAYS.setdefault(_d + "s", _i)
        WEEKDAYS.setdefault(_d.replace("-feira", "s-feiras"), _i)
# Dutch weekdays (facts30: no table had them, so "verschoven naar dinsdag" read no day), and the German and Dutch
# weekday written as one word with a part of the day ("dinsdagmiddag", "Montagabend"): the day it names.
for _i, _d in enumerate("maandag dinsdag woensdag donderdag vrijdag zaterdag zondag".split()):
    WEEKDAYS.setdefault(_d, _i)
    WEEKDAYS.setdefault(_d + "s", _i)
    for _part in ("ochtend", "middag", "avond", "nacht"):
        WEEKDAYS.setdefault(_d + _part, _i)
for _i, _d in enumerate("montag dienstag mittwoch donnerstag freitag samstag sonntag".split()):
    for _part in ("morgen", "vormittag", "mittag", "nachmittag", "abend", "nacht"):
        WEEKDAYS.setdefault(_d + _part, _i)
        WEEKDAYS.setdefault(_d + _part + "s", _i)
# Portuguese weekdays without "-feira" are also ordinals ("a quinta vez"): a weekday only after these.
SHORT_WEEKDAYS = {"segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4,
                  "segundas": 0, "tercas": 1, "quartas": 2, "quintas": 3, "sextas": 4}  # ("às quartas")
SHORT_WEEKDAY_AFTER = _set("na nas a as toda todas de ate para pra")
# A bare year is a date after these ("in 2019", "depuis 2015").
YEAR_PREPOSITIONS = _set("in since from until by before after during of en depuis jusqu desde hasta antes seit bis vor "
                         "em ate dal nel fino")

WORD_NUMBERS: dict[str, float] = {}
for _names in (
    "zero one two three four five six seven eight nine ten eleven twelve",
    "zero un deux trois quatre cinq six sept huit neuf dix onze douze",
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce",
    "null eins zwei drei vier funf sechs sieben acht neun zehn elf zwolf",
    "zero um dois tres quatro cinco seis sete oito nove dez onze doze",
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici",
):
    for _i, _w in enumerate(_names.split()):
        WORD_NUMBERS.setdefault(_w, float(_i))
for _w in ("a", "un", "une", "una", "uno", "ein", "eine", "um"):
    WORD_NUMBERS.pop(_w, None)  # articles, not counts
# Counts that are another word elsewhere: Portuguese "dois" (two) is French "(je) dois" (must), Italian "due"
# English "due", "otto" a name.
WORD_NUMBER_LANG = {"dois": "pt", **{w: "it" for w in "due tre quattro cinque sei sette otto dieci undici dodici".split()}}

# Unit words: class and multiplier to a base unit ("60 seconds" = "1 minute").
UNITS: dict[str, tuple[str, float]] = {}
for _words, _cls, _mult in (
        ("s sec secs second seconds seconde secondes segundo segundos sekunde sekunden secondi", "duration", 1.0),
        ("ms millisecond milliseconds", "duration", 0.001),
        ("min mins minute minutes minuto minutos minuten minuti", "duration", 60.0),
        ("h hr hrs hour hours heure heures hora horas stunde stunden ore", "duration", 3600.0),
        ("day days jour jours dia dias tag tage giorno giorni", "duration", 86400.0),
        ("week weeks semaine semaines semana semanas woche wochen settimana settimane", "duration", 604800.0),
        ("month months mois mes meses monat monate mese mesi", "duration", 2629800.0),
        ("year years an ans annee annees ano anos jahr jahre anno anni", "duration", 31557600.0),
        ("% percent pct pourcent pourcents por_ciento prozent", "%", 1.0),
        ("$ usd dollar dollars bucks dolar dolares", "usd", 1.0),
        ("€ eur euro euros", "eur", 1.0),
        ("£ gbp pound pounds livre livres libra libras", "gbp", 1.0),
        ("kb ko", "bytes", 1e3), ("mb mo", "bytes", 1e6), ("gb go", "bytes", 1e9), ("tb to", "bytes", 1e12),
        ("km kilometre kilometres kilometers kilometro kilometros kilometer chilometro chilometri", "metres", 1000.0),
        ("m metre metres meters metro metros meter", "metres", 1.0),
        ("kg kilo kilos kilogram kilograms kilogramme kilogrammes chilo chili", "grams", 1000.0),
        ("g gram grams gramme grammes gramo gramos", "grams", 1.0),
        ("mg milligram milligrams milligramme milligrammes miligramo miligramos miligrama miligramas", "grams", 0.001),
        ("mcg µg microgram micrograms", "grams", 1e-6),
        ("ml millilitre millilitres milliliter milliliters mililitro mililitros", "litres", 0.001),
        ("l litre litres liter liters litro litros", "litres", 1.0),
):
    for _n in _words.split():
        UNITS.setdefault(fold(_n), (_cls, _mult))
# A number glued to its unit ("20mg", "5km", "1.5l") is a quantity, not a code.
GLUED_UNIT = re.compile(r"(\d+(?:[.,]\d+)?)([^\W\d_]{1,3})")

# Nouns that only name "the quantity of" what they are said of: "my lisinopril dose is 10mg" is
# "I take 10mg of lisinopril". Left out of the frame when the sentence states a number.
MEASURE_NOUNS = _set("dose doses dosage amount quantity", "dose posologie quantite", "dosis cantidad",
                     "dosis menge", "dose dosagem quantidade", "dose dosaggio quantita")

# (before a duration only: "a month", "par mois", "al mes", "im Monat", "ao mês", "al mese")
RATE_WORDS = _set("per a an each every / par por pro al im ao alla")
