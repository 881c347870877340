"""The words topic names are judged by: chat filler, titles, endearments, weak words (verbs, adjectives, calendar
words), generic nouns, function words, and the word-level tests on them (``fold``, ``weak``, ``is_filler``).

Split out of memengine/topic_names.py (brief23: the module had grown past 800 lines); topic_names re-exports every
name here, so callers keep reading ``topic_names.fold`` and the like.
"""

from __future__ import annotations

import functools
import re

from memengine.brief_dates import MONTH_OF

# Interjections, laughter and chat acknowledgements: they recur in every chat and say nothing
# about its subject. Laughter in any spelling is matched by _LAUGH.
FILLER: frozenset[str] = frozenset("""
ok okay okey okk kk yes yess yeah yea yep yup yas nope nah lol lols lmao lmfao rofl omg omfg wow woah
hey hi hii hello hallo bye byee cya thanks thank thx tnx ty tysm pls plz cool nice great good fine
perfect sure alright awesome amazing yay woohoo yippee oops ugh hmm hmmm umm uhm ehm meh congrats
congratulations sorry btw idk tbh imo imho fyi xoxo aww awww ooh oooh ahh ahhh
phew oof yikes whoa welp sigh ouch argh gosh jeez dang omw np
omitted
bonjour bonsoir salut coucou merci bravo enfin voilà génial parfait bisous bonne journée soirée
hallo moin servus tschüss danke dankeschön schön bitte gern gerne toll prima wunderbar
hola buenas gracias igualmente claro vale genial perfecto adiós
ciao grazie prego perfetto brava bellissimo
olá obrigado obrigada valeu tchau
hoi doei dank bedankt
""".split())
# ...greetings, thanks and cheers of the other languages a chat is often written in (round 6: a group's
# "merci" and "danke schön" named its topics).
# Endearments name no topic (round 8: a couple's "poor baby" named one; "baby" itself stays a word: a baby is
# due). Names only: recall's reading of a reaction (brief_reactions.content_words) is left as it was.
ENDEARMENTS: frozenset[str] = frozenset("""babe hun hon sweetie sweetheart darling cutie bestie tesoro amore amor
schatz liebling chérie chéri querida querido schat lieverd""".split())
# Titles and honorifics: a title names nobody alone ("Mrs", from "Mrs. Nguyen"), so it is no content
# word of a name (nor of a turn: "merci Madame Dubois" only thanks someone). Not the ones that are common
# words too ("Miss" a verb, "Pan" a pan, "Don", "Dame").
TITLES: frozenset[str] = frozenset("""
mr mrs ms mx dr drs prof mme mmes mlle messrs sir madam madame mesdames mademoiselle monsieur messieurs
sr sra srta sres señor señora señorita senor senora doña dña herr frau fräulein hr dott dssa sig sigra
signor signora signorina mevrouw meneer dhr mevr
""".split())
_LAUGH = re.compile(r"^(?:[ah]*(?:ha){2,}h?|a?(?:ha)+|(?:he){2,}h?|(?:hi){2,}|lo+l|(?:xd)+d*|(?:ja){2,}|"
                    r"(?:je){2,}|(?:ka){2,}|k{3,}|(?:rs){2,}|(?:ah){2,}|(?:eh){2,})$")
# Common verbs (any form: matched folded, "wants" = "want"), adverbs, adjectives and calendar words
# ("Wednesdays", "week": when, not what) name no subject: a name
# neither starts nor ends with one ("Mum wants", "production deploys happen", "works"), nor with
# a past participle ("list p95 dropped"). Inside a name they stay ("make release tag").
WEAK: frozenset[str] = frozenset("""
want need happen bring come take make get got say said tell think know like love feel seem try leave
put keep let give find meet wait send pick arrive work look see hear call ask sound guess hope mean
start stop finish help show play talk speak tell stay change changed move moved check add use done
sent made told found bought brought thought went gone seen given taken known paid
going doing having being getting making coming taking saying also just really actually probably
full whole big small large little long short high low old early late free open different similar same
important possible available certain main real true false other last next entire current recent latest
final total extra usual
poor sad happy lucky proud tired cute sweet lovely crazy funny silly bad worse worst terrible awful horrible
beautiful gorgeous stressed excited weird strange honest honestly literally totally seriously basically
january february march april may june july august september october november december monday tuesday
wednesday thursday friday saturday sunday today tonight tomorrow yesterday morning afternoon evening night
day week weekend month year time
""".split()) | frozenset("""
lundi mardi mercredi jeudi vendredi samedi dimanche aujourd'hui demain hier matin soir soirée nuit jour semaine mois
montag dienstag mittwoch donnerstag freitag samstag sonntag heute morgen gestern abend nacht tag woche monat jahr
lunes martes miércoles jueves viernes sábado domingo hoy mañana ayer tarde noche día semana mes año
segunda terça quarta quinta sexta sábado domingo hoje amanhã ontem manhã tarde noite dia semana mês ano
lunedì martedì mercoledì giovedì venerdì sabato domenica oggi domani ieri stasera stamattina mattina pomeriggio sera
notte giorno giorni settimana mese anno
hour hours minute minutes min mins hr hrs uur uren minuut minuten ora ore minuto minuti hora horas minutos heure heures stunde stunden
maandag dinsdag woensdag donderdag vrijdag zaterdag zondag vandaag morgen gisteren ochtend middag avond nacht dag
week maand jaar
måndag tisdag onsdag torsdag fredag lördag söndag idag imorgon igår ikväll morgon kväll natt dag dagen vecka veckan
månad år timme timmar minut minuter
mandag tirsdag onsdag torsdag fredag lørdag søndag i dag i morgen i går aften nat uge måned time timer
poniedziałek wtorek środa czwartek piątek sobota niedziela dzisiaj dziś jutro wczoraj rano wieczór noc dzień
tydzień miesiąc rok godzina godziny minuta minut
pazartesi salı çarşamba perşembe cuma cumartesi pazar bugün yarın dün akşam sabah gece hafta ay yıl gün
""".split()) | frozenset(w for w in MONTH_OF if len(w) >= 4) | frozenset(
    # the short forms chats write ("nov 14 in austin"), but not "jan" / "mar" / "may" (a name, "sea", a verb)
    "feb apr jun jul aug sep sept oct nov dec".split()) | frozenset(
    # (round 14) and the weekdays' ("Fri 20 Nov", "Tue 24 Nov at 2 pm"), but not "mon", "sat", "sun" (words)
    "tue tues wed thu thur thurs fri".split())
# (brief33: Turkish's too, whose months brief_dates reads now: "Cuma" named a moving day's topic)
# ...the calendar words of the other languages the brief reads dates in (round 8: an Italian family chat's
# topics were named "dicembre", "giorno", "stasera" and "oggi nebbia fitta": when, not what), and (round 9) of
# Swedish, Danish / Norwegian and Polish, whose chats a brief meets too ("lördag" named a team's topic)
# ...and (round 9) the commonest verbs of the other languages the brief meets, in the forms a chat writes them
# (present, infinitive, participle): a Portuguese chat's "fica" ("it stays"), a Swedish team's "tror" ("think")
# and "betalat" ("paid") named topics; English verbs were WEAK since round 2
WEAK = WEAK | frozenset("""
fica ficar ficou fico vou vai vamos foi fui ser estar está estou tem tenho ter teve fez fazer faz acho achei
pode posso quero quer precisa preciso sei sabe vem vir dar deu dou pegar pegou pagar pagou ver vi viu resta
sta stai stare stato stata sono siamo sarà fa faccio vado andare andato andata penso pensa credo voglio vuole
posso puoi può devo deve dice detto dire vedere preso prendere pagato pagare arriva arrivato arrivata sembra
trovato venuto viene messo queda quedar quedó voy vamos fue ser estar está estoy tengo tiene tener hizo
hacer hace creo pienso quiero quiere puedo puede sé sabe viene venir dar dio pagar pagó pagado llega llegó
parece reste rester resté vais va allons être suis est sommes été avoir ai avons eu fait faire fais crois
pense veux veut peux peut dois doit sais sait viens vient venu donné pris mis payé payer arrive arrivé semble
trouvé bleibt bleiben geblieben gehe geht gehen gegangen ist sind gewesen habe haben hatte gehabt mache macht
machen gemacht glaube denke wollen kann können muss müssen weiß kommt kommen gekommen gegeben genommen bezahlt
zahlen scheint gefunden blijft blijven ga gaat gaan gegaan zijn was geweest heb heeft hebben had gehad doe
doet doen gedaan maak maakt maken gemaakt denk denkt wil kan kunnen moet moeten weet komt komen gekomen
gegeven genomen betaald stannar stanna går gå gick gått är vara var varit har ha hade haft gör göra gjorde
gjort tror tänker vill kan kunna måste vet kommer komma kom kommit ger ge gav gett ta tog tagit betalar betala
betalade betalat verkar hittade
""".split())
# ...and (round 10) the adjectives and verbs a chat names its exchanges with in English ("split 5 ways", "top",
# "close to perfect", "car ready Thursday"), and the commonest verbs and adjectives of Danish ("god idé", "klar",
# "bestilt"), which round 9's Swedish and Norwegian list left out
WEAK = WEAK | frozenset("""
split close top ready sure fine nice good great cool busy quick fair perfect drive driving sending owe owes
er var har havde skal skulle kan kunne vil ville må måtte siger sagde synes tror troede kommer kom går gik
laver lavede holder holdt skriver skrev ringer ringede ringet bestilt bestilte betalt betalte købt købte
bekræftet fundet gemt tegnet klar god godt gode fint perfekt søde stolt passer
""".split())
# (brief35) the words that join amounts and items ("120 plus drinks tab", "£5 per head"): no end of a name
WEAK = WEAK | frozenset("plus minus per via including excluding".split())
# Nouns so general that alone they name no subject ("thing", "course", "stuff", "people"): never a
# one-word name; inside a longer run they stay ("golf course", "people ops").
GENERIC: frozenset[str] = frozenset("""
thing stuff course way lot part kind sort bit piece place point idea issue question problem matter case
people person guy guys girl girls everyone someone anyone something anything everything nothing
news plan update info information message messages chat group photo photos pic pics picture link video
media file files note notes list lot lots fun luck help reason side end start rest
image images audio sticker gif document deleted attached attachment
""".split())
_PARTICIPLE = re.compile(r"^[^\W\d_]{3,}(?<!e)ed$")  # "dropped", "confirmed" (not "need", "speed", "bed")
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th|er|e|°)$")  # "14th", "3rd": a date's part, not a subject
# a time of day ("4pm", "10am", "19h", "8h30", "20uhr"): when, not what (round 9: "6pm", "4pm" named topics)
_CLOCK = re.compile(r"^\d{1,2}(?:[:.h]\d{2}(?:am|pm|h)?|am|pm|h|hs|hrs|uhr|u)$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_WORD_SPLIT = re.compile(r"([^\W_]+(?:['’][^\W_]+)*)")  # _WORD, captured: split keeps the words
_JOIN = re.compile(r"[\s_'’-]*")  # what may stand between two words of a run (the whole gap)
_STAMP = re.compile(r"^\s*\[(?=[^\]]{0,40}\])(?=[^\]]*(?:\b\d{4}\b|\b\d{1,2}[:.]\d{2}\b))[^\]]*\]\s*")


# contractions written without their apostrophe, as chats do ("lets go", "im in", "thats it"): function words
CONTRACTIONS: frozenset[str] = frozenset("""lets im ive dont cant wont didnt doesnt isnt wasnt arent werent thats
whats youre theyre hes shes theres wouldnt couldnt shouldnt gonna wanna gotta yall""".split())
_ELONGATED = re.compile(r"([^\W\d_])\1{2,}")  # "GOOOO", "yesss", "sooo": one letter said three times or more


def unstretched(low: str) -> str:
    """``low`` with its drawn-out letters said once ("goooo" -> "go", "yesss" -> "yes"), else itself."""
    return _ELONGATED.sub(r"\1", low) if _ELONGATED.search(low) else low


def is_title(word: str) -> bool:
    """True for a title or honorific ("Mrs", "Dr.", "Herr", "Sra.", "Mme"), in any case."""
    return word.lower().rstrip(".") in TITLES


def is_filler(word: str) -> bool:
    """True for an interjection, laughter or acknowledgement ("ok", "hahaha", "lol", "thanks")."""
    low = word.lower()
    return low in FILLER or bool(_LAUGH.match(low))


@functools.lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """``word`` lower-cased without a possessive or plural ending: the key runs are matched by."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("sses", "xes")):  # classes, boxes (not cases, releases: their singular ends in "se")
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w

@functools.lru_cache(maxsize=65536)
def weak(word: str) -> bool:
    """True for a word that names no subject on its own: a common verb, adverb, adjective,
    calendar word or past participle (see WEAK)."""
    return fold(word) in WEAK or word.lower() in WEAK or bool(_PARTICIPLE.match(word.lower()))



# Words that stand next to any noun: a name is no piece of a longer one because of them ("the boat", "di Vienna");
# (brief22) and the reflexive "se" of the Romance languages ("la lavadora se rompió": a clitic, no name's part)
FUNCTION: frozenset[str] = frozenset("""
the a an my your his her our their its to of in on at for with and or is was be by from this that these those
i you he she we they me him us them it not no so but if as are were been has have had do does did will can
il la le lo gli i un una uno di da del della dei degli al alla ai agli nel nella su sul per con e o è
o os as um uma em no na nos nas do dos das pelo pela ao à com para é
des du et les l d au aux un une en sur avec pour dans est de
der die das den dem des ein eine einen einem und zu von im am mit für auf ist
el los las del y con por es se
het een van en op met voor is
""".split())
