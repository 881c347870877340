"""Whether a topic name has the shape of a name a person would write, not of an adverbial, a clause or a stray word.

``topic_names`` names a topic by a run of content words its members repeat. A run is whatever stands between two
stop words, so in the languages whose stop-word lists miss a preposition, a fused preposition + article, a clitic
or an adverb, a repeated adverbial or clause became a name: "wenn's nochmal ausfällt" ("if it fails again"),
"direkt vorm Haus" ("right in front of the house"), "laut Plan" ("according to plan"), "flashing EA229 upstairs",
"landlord asap"; and one word that is an adverb, a unit or a measure named a topic: "overnight", "upfront", "Uhr",
"200ms", "warm" (of "520 warm"). Requiring every word of a name to be used as a subject broke good names that look
odd ("Windows error 0x8007045D" sentence-initial, "Casa Verde" only written "Casa Verde's"), so the test here reads
the phrase's own shape, with the closed classes of English and of the group's language (told by its stop words; every
language's when unknown) among those the brief reads (German, French, Spanish, Italian, Portuguese, Dutch, the
Scandinavian languages, Polish): Dutch "van" is a preposition, an English "van" a vehicle.

* it starts with a preposition, a fused preposition + article ("vorm", "zum", "al", "nel"), a subordinating
  conjunction, a personal pronoun, an adverb or a unit (not an article: "vores trampolin", "our flat" are names);
* it ends with any of those, or with a determiner ("Habt ihr das");
* a word of it is a conjunction or a clitic ("wenn's", "geht's", "qu'il"): a clause;
* a preposition inside follows an adverb or a verb ("direkt vorm Haus"), not a noun ("Picos de Europa", "Voix du
  Rhône", "Haus am See" stay);
* where the members write their nouns capitalised (German: most words right after an article are), a lower-case
  head is no noun ("nochmal ausfällt"), nor a lower-case word before a preposition inside; in German and Dutch a
  lower-case participle ("ge...t", "ge...en") ends no name ("Tür gelegt").

For one word: an adverb (the closed list, or an adverb's suffix: "-ously", "-mente", "-erweise"), a unit ("Uhr",
"Mbps", "euros") or a number with its unit ("200ms", "512MB") is no name; where nouns are written capitalised, a word
the members never write capitalised inside a sentence is none either ("warm", "direkt"); nor, in lower case, a
fused preposition, conjunction or pronoun. The one-word test (topic_names._SubjectJudge) also takes a word after a
fused preposition + article of place ("im Hof", "al mare") for a place adjunct, as it takes "in the calendar".

(brief19) Whatever the group's language, since a group whose language is not told is cut by English's stop words
alone: a lower-case finite "be" / "have" of a language the brief reads inside a name ("tecnico ha chiamato"), a
lower-case word the members' own text writes as a verb (right after an auxiliary, a negation, a clitic or subject
pronoun: "voo foi cancelado", "Marco dice" where "non dice" is written), or a lower-case adjective of praise ("bella
giornata", "que dia lindo") refuses a name; a limit's word ("max", "circa", "mín") is a unit's.

(brief22) A clause nothing marks: a lower-case word ending as a past third person of the group's language
(:func:`past_form`, a table per language: "wygrała", "quebrou", "contestó") that the members never write where a noun
stands (:func:`noun_place`), or a name and a third person's present said only as a clause (:func:`present_clause`:
"Briciola vomita"); and one word that is the middle of a fixed phrase (:func:`locution`: "partir" of "a partir de").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Container, Sequence

# The closed classes by language: prepositions, fused prepositions + article, subordinating conjunctions, personal
# pronouns, frequent adverbs (of place, time, degree, manner). A group is judged by English's and by those of the
# language its stop words are (`language_of`): Dutch "van" is a preposition, an English "van" a vehicle.
# English's prepositions are stop words already; listed for the gaps ("till", "per", "via").
_CLASSES: dict[str, tuple[str, str, str, str, str]] = {
    "english": (
        """in on at to into onto from off near behind under over inside outside across towards toward by with without
        for of about after before during since until till via per upon within beyond between among around through
        against along amid beside despite except versus vs ago""",
        "",
        "if when because unless while whether although though until",
        "i you he she we they it me him us them",
        """ahead overnight upfront asap upstairs downstairs anyway anyways beforehand afterwards afterward meanwhile
        somewhere anywhere everywhere nowhere later soon already again almost maybe perhaps instead together abroad
        away often always never sometimes yet anymore somehow otherwise therefore hence thus rather quite very too
        enough twice nearby indoors outdoors online offline pronto"""),
    "german": (
        """an auf aus bei bis durch für gegen hinter in mit nach neben ohne seit statt trotz über um unter von vor
        während wegen zu zwischen laut ab außer gegenüber entlang innerhalb außerhalb""",
        "im ins am ans vorm hinterm unterm überm aufs übers zum zur beim vom",
        "wenn falls weil dass daß ob obwohl damit sobald bevor nachdem aber sondern",
        "ich du er sie es wir ihr mich dich uns euch ihn ihm ihnen",
        """nochmal nochmals noch schon gleich direkt wieder immer nie niemals oft halt eben echt ganz sehr ziemlich
        eigentlich vielleicht wirklich sofort bald später früher gerade grad genau einfach endlich immerhin leider
        hoffentlich natürlich übrigens trotzdem deshalb daher dann danach vorher nachher jetzt hier dort drüben oben
        unten vorne vorn hinten links rechts draußen drinnen zusammen alleine fast kaum bestimmt wahrscheinlich
        irgendwie sowieso ohnehin außerdem zuerst zuletzt erstmal erst spät früh mal doch auch nur"""),
    "french": (
        "à de en dans sur sous chez avec sans pour par vers près pendant depuis avant après entre contre selon malgré",
        "au aux du des",
        "si quand lorsque parce puisque quoique lorsqu puisqu mais",
        "je tu il elle on nous vous ils elles moi toi lui leur eux",
        """encore déjà toujours jamais souvent parfois aussi très trop vraiment ensemble bientôt tard tôt maintenant
        ensuite puis alors ici là dedans dehors dessus dessous partout vite plutôt surtout presque assez beaucoup
        tellement tout peut-être"""),
    "spanish": (
        "a de en con sin por para sobre bajo tras hasta desde hacia según durante entre contra mediante",
        "al del",
        "si cuando porque aunque mientras pero sino",
        "yo tú él ella nosotros nosotras vosotros ellas ellos usted ustedes",
        """siempre nunca todavía ya también tampoco muy luego después antes ahora aquí allí allá ahí lejos pronto
        temprano quizás quizá acaso juntos casi bastante demasiado mucho poco encima debajo delante detrás enseguida
        además entonces"""),
    "italian": (
        "a di da in con su per tra fra verso senza durante dopo prima presso",
        """al allo alla ai agli alle nel nella nelle nei negli nello sul sulla sulle sui sugli sullo dal dalla
        dalle dai dagli dallo del dello della dei degli delle""",
        "se quando perché mentre benché sebbene però",
        "io tu lui lei noi voi loro",
        """ancora già sempre mai spesso anche molto troppo subito poi dopo adesso qui qua lì là lontano forse insieme
        quasi abbastanza davvero proprio magari allora comunque infatti sotto sopra dentro fuori davanti dietro"""),
    "portuguese": (
        "a em de com sem por para sobre até desde após entre contra perante",
        "ao aos à às no na nos nas num numa do da dos das dum duma pelo pela pelos pelas",
        "se quando porque embora enquanto mas porém",
        "eu tu ele ela nós eles elas você vocês",
        """ainda já sempre nunca também muito logo depois antes agora aqui ali lá perto longe cedo tarde talvez
        juntos quase demais então embaixo dentro fora"""),
    "dutch": (
        """in op aan bij met van voor naar uit over onder tussen tegen zonder door na tot om achter naast tijdens
        sinds vanaf""",
        "",
        "als omdat wanneer indien hoewel terwijl zodat maar",
        "ik jij je hij zij wij jullie",
        """nog weer altijd nooit vaak ook heel erg echt meteen straks eerst daarna nu hier daar boven beneden buiten
        binnen samen misschien eigenlijk gewoon toch alvast even"""),
    "swedish": (
        "på i till från med av för om under över efter före utan hos mellan vid genom mot",
        "",
        "om när eftersom medan men",
        "jag du han hon vi ni de dem mig dig",
        """igen redan alltid aldrig ofta också mycket väldigt direkt snart senare sedan nu här där uppe nere ute inne
        tillsammans kanske faktiskt bara"""),
    "danish": (
        "på i til fra med af for om under over efter før uden hos mellem ved gennem mod mellom etter",
        "",
        "hvis når fordi mens men",
        "jeg du han hun vi i de dem mig dig dere",
        """igen allerede altid aldrig ofte også meget direkte snart senere nu her der oppe nede ude inde sammen måske
        faktisk bare"""),
    "polish": (
        "w we na z ze do od po przy o u za przed pod nad bez dla przez między obok",
        "",
        "jeśli jeżeli gdy kiedy bo że ponieważ chociaż ale",
        "ja ty on ona ono my wy oni one",
        """znowu jeszcze już zawsze nigdy często też także bardzo zaraz potem teraz tutaj tu tam razem może prawie
        naprawdę chyba"""),
}
_CLASSES["norwegian"] = _CLASSES["danish"]
# (brief23) Quantifiers and indefinite pronouns: "todo mundo", "tudo certo", "cobra pouco", "ein paar", "rien", "chaque
# jour" named topics; the stop-word lists lack them ("tudo", "algum", "pouco", "paar") and adding them there moves topics
# (clustering reads the stop words: memengine/cluster_names.py), so they are a closed class of names' shape only: a name
# neither is one in lower case nor starts or ends with one ("Padaria Todo Dia" is a name: capitalised, in the middle).
_QUANTIFIERS: dict[str, str] = {
    "english": "everything something anything nothing everyone someone anyone nobody everybody somebody few several",
    "german": """alles alle jeder jede jedes jeden jedem jemand niemand nichts etwas paar bisschen viel viele wenig
        wenige manche mehrere beide""",
    "french": """tout toute tous toutes rien chaque peu quelque quelques quelqu'un plusieurs aucun aucune autre autres
        même mêmes beaucoup""",
    "spanish": """todo toda todos todas algo alguno alguna algunos algunas algún alguien poco poca pocos pocas cada nada
        nadie ninguno ninguna ningún cualquier cualquiera otro otra otros otras mismo misma mucho mucha muchos muchas""",
    "italian": """tutto tutta tutti tutte ogni ognuno qualche qualcosa qualcuno poco poca pochi poche niente nulla
        nessuno altro altra altri stesso stessa molto molti molte""",
    "portuguese": """todo toda todos todas tudo algum alguma alguns algumas alguém pouco pouca poucos poucas muito muita
        muitos muitas cada nada ninguém nenhum nenhuma qualquer outro outra outros outras mesmo mesma""",
    "dutch": "alles alle elke ieder iedereen iemand niemand niets iets paar beetje veel weinig sommige beide",
    "swedish": "allt alla varje något någon några inget ingen inga många",
    "danish": "alt alle hver hvert noget nogen nogle intet ingen mange lidt",
    "polish": "wszystko wszyscy każdy każda każde coś ktoś nic nikt kilka trochę wiele mało",
}
_QUANTIFIERS["norwegian"] = _QUANTIFIERS["danish"]
# One word of a group's stop words that tells its language (summarize.stopwords_for adds one language's list)
_MARKERS = {"german": "und", "french": "nous", "spanish": "los", "italian": "gli", "portuguese": "não", "dutch": "het",
            "swedish": "och", "danish": "og", "polish": "się"}
# Fused prepositions + article that say where or whither (the word after one is a place adjunct, as after "in
# the"): not "zum"/"zur"/"beim" ("zum Geburtstag" is what for), not "du"/"del"/"do"/"da" ("of the"), not "no"/"nos"
# (determiners too), not "à" (French's bare "à Lyon")
FUSED_PLACE: frozenset[str] = frozenset("""im ins am ans vorm hinterm unterm überm aufs au aux al nel nella nelle nei
negli nello sul sulla sulle sui sugli sullo dal dalla dalle dagli dallo ao aos às na nas num numa""".split())


_ADVERB_SUFFIX = re.compile(r"^[^\W\d_]{3,}(?:ously|ively|fully|lessly|ably|ibly|ently|antly|edly|ingly|ically|ately|etely|itely|utely)$"
                            r"|^[^\W\d_]{5,}mente$|^[^\W\d_]{4,}erweise$")


class Closed:
    """The closed classes a group is judged by: English's and its language's (all languages when unknown)."""

    def __init__(self, languages: Sequence[str]) -> None:
        parts = [_CLASSES[lang] for lang in languages]
        self.languages = tuple(languages)
        self.prepositions = frozenset(w for p in parts for w in p[0].split())
        self.fused = frozenset(w for p in parts for w in p[1].split())
        self.conjunctions = frozenset(w for p in parts for w in p[2].split())
        self.pronouns = frozenset(w for p in parts for w in p[3].split())
        self.adverbs = frozenset(w for p in parts for w in p[4].split())
        self.quantifiers = frozenset(w for lang in languages for w in _QUANTIFIERS[lang].split())
        self.german = "german" in languages  # nouns written capitalised
        self.germanic = self.german or "dutch" in languages  # participles "ge...t" / "ge...en"

    def adverb(self, low: str) -> bool:
        """An adverb (lower-cased): the classes' list, or an adverb's suffix ("seriously", "finalmente")."""
        return low in self.adverbs or bool(_ADVERB_SUFFIX.match(low))

    def function(self, low: str) -> bool:
        """A preposition (bare or fused), conjunction or pronoun."""
        return low in self.prepositions or low in self.fused or low in self.conjunctions or low in self.pronouns


@functools.lru_cache(maxsize=64)
def closed(stop: frozenset[str] | None) -> Closed:
    """The closed classes of a group whose stop words are ``stop`` (None: every language's)."""
    if stop is None:
        return Closed(sorted(_CLASSES))
    return Closed(["english"] + [lang for lang, m in _MARKERS.items() if m in stop])


ALL = closed(None)


# Units of measure, money and time a number goes with ("16 Uhr", "100 Mbit", "540 euros"): a measure, not a subject.
# Not the short ones that are also acronyms ("HR", "ML", "TB", "MS"): a run's word has three letters at least, and
# a number glued to its unit is _MEASURE's
UNITS: frozenset[str] = frozenset("""
uhr mbit mbits mbps gbit gbps kbps kbit mbyte gbyte kwh mah mph kph kmh kms secs lbs sqm sqft
euro euros eur usd gbp chf dollars pounds quid bucks cents pence kronor kroner złotych zloty zł reais franken
prozent percent pourcent kilos kilogramm gramm grams litres liters litros metres mètres metros kilometres
kilometers kilometer kilómetros chilometri quilômetros degrees grados gradi graus
""".split())
_MEASURE = re.compile(r"^\d+(?:[.,]\d+)?(?:k|m|h|ms|sec|secs|s|min|mins|hr|hrs|km|kms|cm|mm|mi|kg|mg|lb|lbs|oz|ml|"
                      r"mb|gb|kb|tb|mbit|mbps|gbps|kbps|kwh|kw|mah|eur|usd|€|x)$")
_CLITIC = re.compile(r"^(?:[^\W\d_]+['’](?:s|n|m|ll|re|ve|d|t|nt)|(?:qu|jusqu|lorsqu|puisqu|quoiqu|j|c|s|n|m|t)['’][^\W\d_]+)$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")

CAPITALISED_SHARE = 0.5  # of the words right after an article: above it, the members write their nouns capitalised
CAPITALISED_MIN = 3  # ...judged from at least this many
# German's commonest function words (none a word of another language the brief reads: not "der", Danish "there",
# nor "das", Portuguese "of the"): only German writes every noun capitalised; English notes full of product names
# ("the Windows runner", "the Greenstar") have as many capitals after an article
GERMAN: frozenset[str] = frozenset("und nicht ist ich mit auf ein eine wir auch sind wird noch".split())
GERMAN_SHARE = 0.04  # of a group's words: German's function words in any German text are more


_PARTICIPLE = re.compile(r"^ge[^\W\d_]{3,}(?:t|en|d)$")  # German / Dutch: "gelegt", "gesehen", "geboekt"

# (brief19) Beyond the languages brief17 tested. A group's stop words are English's alone when its language is not
# told (short chats, mixed languages): then "ha chiamato", "foi cancelado", "bella giornata" are runs, and only
# English's closed classes judged them. These tables are read whatever the group's language, so they hold no word
# that is a content word or a determiner of another language the brief reads ("war", "hat", "son", "hay", "fu" of
# "kung fu", "sei" = six, "são" of "são paulo", "my", "mi" = my, "yo", "ja" = yes are left out).
# Finite forms of "be" and "have" of Italian, Portuguese, Spanish, French, German, Dutch, the Scandinavian languages
# and Polish: one inside a name makes it a clause ("tecnico ha chiamato"), and the word right after one in the
# members' own text is a verb there, a participle or a predicate ("foi cancelado", "è arrivato").
AUXILIARIES: frozenset[str] = frozenset("""
ha hai ho hanno abbiamo avete è sono siamo siete era erano
tem têm tinha foi foram está estão estava estavam é
hemos habéis han había fue fueron está están estaba es somos
est sont était ont avons avez
ist sind wird wurde wurden haben habe
heeft hebben heb wordt werd worden
har hade är blev
jest są był była było były
""".split())
# Words a verb follows in those languages and before nothing else: a negation ("non dice", "não tem", "nie działa"),
# a clitic or subject pronoun ("ci ha detto", "si chiama", "ela diz", "hij zegt", "hon säger"). Not English's: a
# cue read on English text would make nouns verbs ("I" + a name).
VERB_CUES: frozenset[str] = AUXILIARIES | frozenset("""
non não nie ne inte ikke
ci si lhe
io lui lei noi voi eu ele ela nós eles elas você vocês él ella nosotros ellos ellas usted ustedes
ik jij hij wij jag hon vi jeg ty wy oni
""".split())
# (brief36) The cues a verb follows in one language that are other words in another, read only in a group of that
# language: Spanish "he"/"has" (haber: "he mirado hoteles") and "no" ("no pasa nada"), and the object clitics of the
# Romance languages ("me pasas 105", "te llamo", "ti chiamo"), which English writes after its verbs ("call me").
LANGUAGE_CUES: dict[str, frozenset[str]] = {lang: frozenset(words.split()) for lang, words in {
    "spanish": "he has hemos no me te se nos os le les",
    "portuguese": "me te se nos lhes",
    "french": "je tu il elle on nous vous ils elles me te se",
    "italian": "mi ti vi",
}.items()}
# Adjectives of praise or complaint the members' small talk says of a day, a place, a meal ("bella giornata", "que
# dia lindo", "mooi weer"): written in lower case in a name they make it an evaluation, not a subject (English's are
# topic_names.WEAK already). A name written capitalised keeps them ("Bella Vista", "Casa Linda").
EVALUATIVE: frozenset[str] = frozenset("""
bello bella belli belle bellissimo bellissima brutto brutta bravo brava ottimo ottima buono buona buonissimo
lindo linda lindos lindas bonito bonita bonitos bonitas ótimo ótima maravilhoso maravilhosa feio feia
precioso preciosa hermoso hermosa estupendo estupenda
magnifique superbe génial géniale
mooi mooie leuk leuke fijn fijne heerlijk heerlijke prachtig prachtige lekker lekkere
härlig härligt härliga underbar underbart dejlig dejligt dejlige skøn skønt skønne
piękny piękna piękne fajny fajna fajne
""".split())
# (brief20) An absolute superlative is praise whatever its stem ("padrísimo", "bellissimo", "lindíssima"): the
# suffix of Spanish, Italian and Portuguese
_SUPERLATIVE = re.compile(r"^[^\W\d_]{3,}(?:ísim|issim|íssim)[oaie]s?$")


def superlative(low: str) -> bool:
    """An absolute superlative, lower-cased ("padrísimo", "bellissimo", "lindíssima"): praise, no subject."""
    return bool(_SUPERLATIVE.match(low))


# Limits and approximations a number goes with ("max 2 ore", "circa 1800 euro", "mín. 3 noites"): a measure's
# word, no subject
LIMITS: frozenset[str] = frozenset("max min approx ca cca circa ungefähr etwa máx mín maks mindst".split())


def unit(low: str) -> bool:
    """True for a unit or a number with its unit ("Uhr", "Mbps", "euros", "200ms", "512MB", "54k"), lower-cased."""
    return low in UNITS or low in LIMITS or bool(_MEASURE.match(low))


def stray(word: str, classes: Closed = ALL) -> bool:
    """True for one word that names no subject by its own kind: an adverb, a unit, a measure; or, written in lower
    case, a preposition, conjunction or pronoun ("wenn" of "wenn's": a run's "'s" is taken for a possessor's) of
    English or the group's language (``classes``). Not a bare preposition: an English "van", "till" or "op" is a
    noun."""
    low = word.lower()
    return classes.adverb(low) or unit(low) or word.islower() and (
        low in classes.fused or low in classes.conjunctions or low in classes.pronouns or low in classes.quantifiers)


def _clitic(word: str, classes: Closed, function: Callable[[str], bool]) -> bool:
    """A word with a clitic: a function word's or a verb's "'s" ("wenn's", "geht's"), "'ll", "'re", an elided
    "qu'", "j'", "c'" ("qu'il"). A noun's "'s" is a possessor ("Casa Verde's", "Flat 3B's")."""
    low = word.lower().replace("’", "'")
    if not _CLITIC.match(low):
        return False
    stem, _, tail = low.partition("'")
    if tail in ("s", "n", "m") and len(stem) > 1:  # "'s": "is" after a function word or verb, else a possessor
        return classes.function(stem) or function(stem)
    return True


_GERMAN_WORD = re.compile(r"\b(?:" + "|".join(sorted(GERMAN)) + r")\b")
_ANY_WORD = re.compile(r"\w+")


def may_be_german(lowered: Sequence[str]) -> bool:
    """Whether lower-cased texts hold German's function words at GERMAN_SHARE of their words at least (for a group
    whose stop words are not known: tells German from English notes full of product names)."""
    text = "\n".join(lowered)
    german = len(_GERMAN_WORD.findall(text))
    return german > 0 and german >= GERMAN_SHARE * len(_ANY_WORD.findall(text))


def capitalises_nouns(bodies: Sequence[list[tuple[str, str]]], determiners: frozenset[str]) -> bool:
    """Whether the members (of a German group) write their nouns capitalised: most words right after an article
    are (a chat written all in lower case does not). ``bodies``: per text, its words as (written, lower-cased)."""
    after = capital = 0
    for words in bodies:
        for (_w, low), (nxt, nlow) in zip(words, words[1:]):
            if low in determiners and nlow.isalpha():
                after += 1
                capital += nxt[:1].isupper()
    return after >= CAPITALISED_MIN and capital >= CAPITALISED_SHARE * after


def phrase_shaped(phrase: str, nouns_capitalised: bool, determiners: frozenset[str],
                  function: Callable[[str], bool], classes: Closed = ALL,
                  verb: Callable[[str], bool] | None = None) -> bool:
    """Whether a name of two words or more has a name's shape, not an adverbial's or a clause's (module docstring).
    ``function(low)``: the caller's test of a verb or function word (topic_names.weak / its stop words);
    ``classes``: the closed classes of English and the group's language; ``verb(low)``: whether the members' own
    text writes the word as a verb (:func:`verbs_in`)."""
    words = _WORD.findall(phrase)
    if len(words) < 2:
        return True
    lows = [w.lower() for w in words]
    first, last = lows[0], lows[-1]

    def opener(low: str) -> bool:
        return classes.function(low) or classes.adverb(low) or unit(low)

    if opener(first) or _clitic(words[0], classes, function):
        return False
    if words[0].islower() and first in classes.quantifiers or words[-1].islower() and last in classes.quantifiers:
        return False  # (brief23) "todo mundo", "tudo certo", "cobra pouco", "chaque jour"
    tail = words[-1]
    if (tail.islower() or tail.isupper() and len(tail) <= 3) and (opener(last) or last in determiners):
        return False  # "landlord asap", "cold showers till", "Habt ihr das"
    if tail.islower() and classes.germanic and _PARTICIPLE.match(last):
        return False  # "Tür gelegt", "das Spiel gesehen": a clause's rest
    for i, (w, low) in enumerate(zip(words, lows)):
        if _clitic(w, classes, function) or (w.islower() and low in classes.conjunctions):
            return False
        if w.islower() and (low in AUXILIARIES or low in EVALUATIVE or _SUPERLATIVE.match(low) or
                            verb is not None and verb(low)):
            return False  # "tecnico ha chiamato", "foi cancelado", "bella giornata": a clause or an evaluation
        if i and (low in classes.prepositions or low in classes.fused) and w.islower():
            before, prev = words[i - 1], lows[i - 1]
            if classes.adverb(prev) or function(prev) or (nouns_capitalised and before.islower()):
                return False  # "direkt vorm Haus": where something is, not what
    if nouns_capitalised and tail.islower() and not any(ch.isdigit() for ch in tail):
        return False  # the head of a German noun phrase is a noun, written capitalised: "nochmal ausfällt" is none
    return True


@functools.lru_cache(maxsize=1)
def _after_cue() -> re.Pattern[str]:
    """A verb cue and the whole word right after it (a lookahead: "ha ha chiamato" reads both words after "ha")."""
    return re.compile(r"(?<![\w'’])(?:" + "|".join(sorted(VERB_CUES)) + r")\s+(?=([\w'’]+))")


def after_cues(lowered: Sequence[str]) -> frozenset[str]:
    """Every word the lower-cased texts write right after an auxiliary, a negation or a clitic or subject pronoun:
    read once per group, whatever names it tries (:func:`verbs_in`)."""
    rx = _after_cue()
    return frozenset(m.group(1) for text in lowered for m in rx.finditer(text))


def verbs_in(lowered: Sequence[str], words: Sequence[str], after: frozenset[str] | None = None,
             cues: frozenset[str] = VERB_CUES) -> frozenset[str]:
    """Those of ``words`` (lower-cased) the lower-cased texts write as a verb: right after an auxiliary, a negation
    or a clitic or subject pronoun of a language the brief reads ("ha chiamato", "non dice", "ela diz"). Evidence
    from the store's own text, not an ending: "mercato", "sábado", "avvocato" end as participles do. ``after``:
    :func:`after_cues` of ``lowered``, when the caller keeps it; without it (brief20) only the texts that hold an
    asked word are read, each place of it asked for the word before it (the same verbs, a fraction of the cost)."""
    asked = [w for w in words if w not in VERB_CUES and not unit(w)]
    if not asked:
        return frozenset()
    if after is not None:
        return frozenset(w for w in asked if w in after)
    return frozenset(w for w in asked if _after_a_cue(lowered, w, cues))


_BEFORE = re.compile(r"(?<![\w'’])([\w'’]+)\s+$")  # the word before a place and the whitespace after it


def _after_a_cue(lowered: Sequence[str], word: str, cues: frozenset[str] = VERB_CUES) -> bool:
    """Whether ``word`` stands right after a verb cue, whitespace between, in a lower-cased text (as
    :func:`after_cues` reads it: the cue a whole word, the word all of the word-run after it)."""
    rx: re.Pattern[str] | None = None
    for text in lowered:
        if word not in text:
            continue
        if rx is None:
            rx = re.compile(r"(?<![\w'’])" + re.escape(word) + r"(?![\w'’])")
        for m in rx.finditer(text):
            before = _BEFORE.search(text, max(0, m.start() - 40), m.start())
            if before is not None and before.group(1) in cues:
                return True
    return False


# (brief20) A clause whose verb no cue marks: "Pepe mangia poco", "Canela ladra", "il tetto perde", "de lantaarnpaal
# knippert", "le voisin tond". A third person's present form ends as nouns and adjectives do in most European
# languages (it. -a/-e, es./pt. -a/-e, fr. -e/-t/-d, nl./de. -t, sv. -ar/-er, da. -er, en. -s), so the ending alone
# tells nothing ("mercato centrale", "rastrelliera bici"); another form of the same stem in the members' own text
# does: an infinitive, a participle, an imperfect, another person ("perdeva", "knipperen", "tondre", "dormir").
# Per language: (the endings of a third person's present, the endings of the stem's other verb forms). The endings
# of nouns' plurals are left out ("-i", "-os", "-as", "-ten"): "porta" / "porte" is a door and its plural.
_STEM_FORMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "italian": (("a", "e"), ("are", "ere", "ire", "ato", "uto", "ito", "ando", "endo", "ava", "eva", "iva", "avano",
                             "evano", "ivano", "ono", "ano", "iamo", "ete", "ò", "ì", "erà", "irà", "erà")),
    "spanish": (("a", "e"), ("ar", "er", "ir", "ado", "ido", "ando", "iendo", "aba", "ía", "amos", "emos", "imos",
                             "ó", "ió", "aron", "ieron", "aría", "ería", "iría")),
    "portuguese": (("a", "e"), ("ar", "er", "ir", "ado", "ido", "ando", "endo", "indo", "ava", "ia", "amos", "emos",
                                "imos", "ou", "eu", "iu", "aram", "eram", "iram")),
    "french": (("e", "t", "d"), ("er", "ir", "re", "é", "ée", "ait", "aient", "ent", "ons", "ez", "ant", "it")),
    "dutch": (("t",), ("en", "te", "ten", "de", "den", "end")),
    "german": (("t",), ("en", "te", "ten", "end")),
    "swedish": (("ar", "er"), ("a", "ade", "at", "de", "t", "te")),
    "danish": (("er",), ("e", "ede", "et", "te")),
}
_STEM_FORMS["norwegian"] = _STEM_FORMS["danish"]
_LONG_VOWEL = re.compile(r"(aa|ee|oo|uu)(?=[^aeiouy]$)")  # Dutch "slaap" -> "slap" + "en": an open syllable


def _stems(low: str, lang: str) -> list[tuple[str, tuple[str, ...]]]:
    """The stems of a lower-case word read as a third person's present of ``lang``, each with the endings its other
    forms would carry."""
    forms = _STEM_FORMS.get(lang)
    if forms is None:
        return []
    out: list[tuple[str, tuple[str, ...]]] = []
    for end in forms[0]:
        if not low.endswith(end) or len(low) - len(end) < 3:
            continue
        stem = low[: len(low) - len(end)]
        if lang == "french" and end in ("t", "d"):
            stem = low  # "tond" -> "tondre", "finit" -> "finir" (below)
            out.append((low[:-1], ("r", "ssent", "ssait")))
        out.append((stem, forms[1]))
        if lang == "dutch":
            out.append((stem + stem[-1], ("en",)))  # "blaft" -> "blaffen"
            short = _LONG_VOWEL.sub(lambda m: m.group(1)[0], stem)
            if short != stem:
                out.append((short, ("en",)))  # "slaapt" -> "slapen"
    return out


def verb_by_stem(low: str, vocabulary: Container[str], languages: Sequence[str]) -> bool:
    """Whether the members' words (``vocabulary``, lower-cased) hold another verb form of ``low``'s stem in one of
    ``languages``: an infinitive, a participle, an imperfect, another person ("perde" and "perdeva", "knippert" and
    "knipperen", "dorme" and "dormir", "tond" and "tondre"); English: "leaks" and "leaking" / "leaked"."""
    if not low.isalpha() or len(low) < 4:
        return False
    for lang in languages:
        if lang == "english":
            if low.endswith("s") and not low.endswith(("ss", "us", "is")):
                stem = low[:-2] if low.endswith(("ches", "shes", "xes", "sses")) else low[:-1]
                base = stem[:-1] if stem.endswith("e") else stem
                if base + "ing" in vocabulary or (stem + "d" if stem.endswith("e") else stem + "ed") in vocabulary:
                    return True
            continue
        for stem, ends in _stems(low, lang):
            if any(stem + e != low and stem + e in vocabulary for e in ends):
                return True
        if lang in ("dutch", "german") and low.endswith("t") and "ge" + low in vocabulary:
            return True  # "geknippert" is no form; "ge" + stem + "t/d" is the participle
        if lang in ("dutch", "german") and low.endswith("t") and ("ge" + low[:-1] + "d") in vocabulary:
            return True
    return False


# (brief20) Words that make the next word an exclamation ("qué chido", "so exciting", "wat spannend", "che
# stupendo", "super gezellig"): intensifiers and exclamatives of the languages the brief reads. A word the members
# mostly say so, or alone, and never after a determiner, is a feeling, not a subject.
INTENSIFIERS: frozenset[str] = frozenset("""
so too very really how soo sooo
qué que tan muy bien re súper super bastante
che come molto troppo così proprio davvero
tão muito bem
si très trop vraiment tellement
sehr echt voll mega total ganz ziemlich wie
zo heel erg wat best hartstikke
så väldigt jätte riktigt meget virkelig
tak bardzo ale jak
""".split())


# (brief22) A past form a chat writes where its subject is said ("winda stanęła", "Legia wygrała", "a geladeira
# quebrou", "el casero contestó"): the endings of a past (preterite) third person that few nouns of the language
# have, one small table per language, no list of verbs: pl. "-ła" / "-ł" / "-li" after a vowel or a stem's "k d g z"
# (not "-oła", "-ół": "szkoła", "stół"), pt. "-ou" / "-iu" / "-eu" / "-aram", es. "-ó" / "-ió" / "-aron", it. the
# passato remoto's "-ò" / "-ì". The ending alone decides nothing: a noun with it ("museu", "dominó") is said where
# nouns stand, right after a determiner or a preposition, and the judge asks that of the members' text
# (topic_names._SubjectJudge.past_clause). The participles of "it. -ato + aux", "de. ge...t" are brief17/19's.
_PAST: dict[str, re.Pattern[str]] = {
    "polish": re.compile(r"^[^\W\d_]{2,}(?:[aeiyąę]ł[aoy]?|[aeiyąę]li|[kdgz]ł[ay]?|[kdgz]li)$"),
    "portuguese": re.compile(r"^[^\W\d_]{2,}(?:ou|iu|eu|aram|eram|iram)$"),
    "spanish": re.compile(r"^[^\W\d_]{2,}(?:ó|aron|ieron)$"),
    "italian": re.compile(r"^[^\W\d_]{3,}(?:ò|ì)$"),
}
# (brief22) The endings of a third person's present (brief20's table, and Polish's "-a" / "-e" / "-i" / "-y"): a
# name written capitalised and a lower-case word with one, said only as a clause's subject and verb, is a clause
# ("Briciola vomita", "Papi tousse") even where the name only starts sentences (brief20 asked it capitalised inside)
_PRESENT: dict[str, tuple[str, ...]] = {lang: forms[0] for lang, forms in _STEM_FORMS.items()}
_PRESENT["polish"] = ("a", "e", "i", "y")


def past_form(low: str, languages: Sequence[str]) -> bool:
    """Whether a lower-case word ends as a past third person of one of ``languages`` does ("wygrała", "quebrou",
    "contestó", "bloccò"); the ending only: whether it is one is the members' text's to tell. A group whose
    language its stop words do not tell (English's alone: short lines, "Legia wygrała 3:1") is read with every
    table, for an ending no English word has (a letter beyond ASCII: "-ła", "-ó", "-ò"; not "-ou", "-eu")."""
    if not low.isalpha():
        return False
    if tuple(languages) == ("english",):
        return not low[-2:].isascii() and any(rx.match(low) for rx in _PAST.values())
    return any(rx.match(low) for lang in languages if (rx := _PAST.get(lang)) is not None)


def present_form(low: str, languages: Sequence[str]) -> bool:
    """Whether a lower-case word of four letters or more ends as a third person's present of one of ``languages``
    (not English: its "-s" is brief20's test) does ("vomita", "tousse", "miaule")."""
    return low.isalpha() and len(low) >= 4 and any(
        low.endswith(ends) for lang in languages if lang != "english" and (ends := _PRESENT.get(lang)))


Place = tuple[str, list[tuple[int, int]], list[str], int]  # (text, word spans, lower-cased words, the word's index)


def _joined(body: str, spans: list[tuple[int, int]], a: int, b: int) -> bool:
    """Whether only whitespace stands between the words at ``a`` and ``b`` (a < b)."""
    return not body[spans[a][1]: spans[b][0]].strip()


def noun_place(places: Sequence[Place], determiners: frozenset[str], classes: Closed,
               numbers: frozenset[str] = frozenset()) -> bool:
    """(brief22) Whether a word is written, in one of its ``places`` at least, where a noun stands: right after a
    determiner, a preposition (bare or fused), a possessor or a number (a digit or one of ``numbers``), nothing but
    spaces between ("o museu", "no museu", "el dominó", "3 gatti")."""
    for body, spans, lows, i in places:
        if not i or not _joined(body, spans, i - 1, i):
            continue
        prev = lows[i - 1]
        if prev in determiners or prev in classes.prepositions or prev in classes.fused or \
                prev.endswith(("'s", "’s")) or any(ch.isdigit() for ch in prev) or prev in numbers:
            return True
    return False


def present_clause(places: Sequence[Place], last: str, determiners: frozenset[str], classes: Closed) -> bool:
    """(brief22) Whether a name (its ``places``) and the lower-case word ``last`` after it are said only as a clause's
    subject and verb: together in two places at least, never after a preposition, bare or fused, with or without
    an article (an argument's noun phrase: "al mercato centrale"), never before an auxiliary (a noun phrase and its
    predicate: "il mercato centrale è chiuso"). The caller asks ``last``'s ending and that it stands where no noun
    does."""
    together = 0
    for body, spans, lows, i in places:
        if i + 1 >= len(lows) or lows[i + 1] != last or not _joined(body, spans, i, i + 1):
            continue
        together += 1
        j = i - 1
        if j >= 0 and lows[j] in determiners and _joined(body, spans, j, i):
            j -= 1  # "la gatta", "le toit": the phrase's own article
        if j >= 0 and _joined(body, spans, j, j + 1) and (lows[j] in classes.prepositions or lows[j] in classes.fused):
            return False
        if i + 2 < len(lows) and lows[i + 2] in AUXILIARIES and _joined(body, spans, i + 1, i + 2):
            return False
    return together >= 2


def locution(places: Sequence[Place], classes: Closed) -> bool:
    """(brief22) Whether a word stands, in every place it is written in lower case (two lines at least), right
    between two prepositions (bare or fused) of English or the group's language: the middle of a fixed phrase ("a
    partir de", "de acordo com", "in base al", "a causa della", "au lieu de", "en fonction du", "w związku z"), no
    subject. Not when a name mostly follows right after: "a casa di Marco" says whose house."""
    preps = classes.prepositions | classes.fused
    lines: set[tuple[str, int]] = set()
    together = named = 0
    for body, spans, lows, i in places:
        if not body[spans[i][0]].islower():
            continue  # a name's word: "Partir Ensemble"
        if not i or i + 1 >= len(lows) or not _joined(body, spans, i - 1, i) or not _joined(body, spans, i, i + 1) \
                or lows[i - 1] not in preps or lows[i + 1] not in preps:
            return False
        together += 1
        lines.add((body, body.rfind("\n", 0, spans[i][0])))  # (a chat's episode repeats its turns: lines counted once)
        if i + 2 < len(lows) and body[spans[i + 2][0]].isupper() and _joined(body, spans, i + 1, i + 2):
            named += 1  # "a casa di Marco"
    return len({_line_text(b, at) for b, at in lines}) >= 2 and 2 * named < together


def _line_text(body: str, at: int) -> str:
    """The line of ``body`` that starts after offset ``at`` (a newline's, or -1), without its "Name: " label."""
    end = body.find("\n", at + 1)
    line = body[at + 1: end if end >= 0 else len(body)]
    head, sep, rest = line.partition(": ")
    return (rest if sep and len(head) <= 40 else line).strip()
