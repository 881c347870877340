"""Readable topic names taken from a topic's own members, for ``brief`` and consolidate's cluster labels.

A name is a run of 1-3 consecutive content words, as written in the members ("invoice runner",
"Mum's birthday", "multi currency"), that recurs in at least two of them. Runs are matched
with case and plurals folded ("deploys" = "deploy", "Invoices" = "invoice") and shown in the
spelling the members use most. A run never crosses punctuation, so "Milan. Tests" is no run.
Chat filler ("ok", "lol", "haha", "thanks", "good") and stop words are never part of a name,
nor are people's names (the People section says who they are). Runs score (members holding
it) x idf of its rarest word x (1 + 0.3 per extra word): what these members share and the
rest of the store does not. When nothing recurs, the name is :data:`MIXED`: a phrase of one
member would pass for the subject of all of them. A one-word name must be a word the members use as a
subject (:func:`used_as_subject`: "fully" of "fully booked", "left" of "on the left" are none).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from memengine import brief_greetings, topic_shape
from memengine.brief_dates import MONTH_OF

MIXED = "mixed subjects"  # the name of a group whose members share no word run
UNTITLED = "untitled"  # a one-member group with no content word
MAX_WORDS = 3
MIN_WORD_CHARS = 3
RUN_BONUS = 0.3  # per extra word of a run: "credit notes" over "credit" when both recur as often

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
""".split()) | frozenset(w for w in MONTH_OF if len(w) >= 4) | frozenset(
    # the short forms chats write ("nov 14 in austin"), but not "jan" / "mar" / "may" (a name, "sea", a verb)
    "feb apr jun jul aug sep sept oct nov dec".split()) | frozenset(
    # (round 14) and the weekdays' ("Fri 20 Nov", "Tue 24 Nov at 2 pm"), but not "mon", "sat", "sun" (words)
    "tue tues wed thu thur thurs fri".split())
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


Runs = dict[tuple[str, ...], str]  # folded key -> as written


def runs(text: str, stop: frozenset[str], exclude: set[str],
         memo: dict[str, tuple[str, bool, str] | None] | None = None) -> Runs:
    """Runs of 1-3 consecutive content words of ``text`` (folded key -> first spelling in it).

    A content word has MIN_WORD_CHARS or more characters, is not only digits, not a stop
    word, not filler and not in ``exclude`` (lower-cased people's names); a run ends at any
    other word and at punctuation. ``memo`` (one per ``stop`` and ``exclude``, e.g. per group
    named) keeps each spelling's verdict between texts.
    """
    out: Runs = {}
    run: list[tuple[str, bool, str]] = []  # (as written, weak, folded)
    if memo is None:
        memo = {}
    # one split gives [gap, word, gap, word, ..., gap]: no match object per word, and what a
    # word is judged by is looked up once per spelling (consolidate reads every member of every
    # cluster: ~6 million words at 100k)
    parts = _WORD_SPLIT.split(_STAMP.sub("", text, count=1))
    gap_ok = True  # whether the text after the run's last word may stand inside a run
    for i in range(1, len(parts), 2):
        w = parts[i]
        if w in memo:
            word = memo[w]
        else:
            low, plain, base, weak_, folded = _judged(w)
            ok = plain and low not in stop and low not in exclude and base not in exclude
            word = memo[w] = (w, weak_, folded) if ok else None
        if run and not (word is not None and gap_ok):
            _add_runs(out, run)
            run = []
        if word is not None:
            run.append(word)
            gap = parts[i + 1]
            gap_ok = gap == " " or _JOIN.fullmatch(gap) is not None
    if run:
        _add_runs(out, run)
    return out


@functools.lru_cache(maxsize=131072)
def _judged(word: str) -> tuple[str, bool, str, bool, str]:
    """(lower case, plain content word, without "'s", weak, folded) of a spelling."""
    low = word.lower()
    return low, _plain_word(low), low.removesuffix("'s").removesuffix("’s"), weak(word), fold(word)


@functools.lru_cache(maxsize=65536)
def _plain_word(low: str) -> bool:
    """The checks of a content word that depend on the word alone (length, digits, ordinals, filler):
    asked once per distinct word, since ``runs`` reads every member of every cluster."""
    low = unstretched(low)  # "GOOOO" is "go", "yesss" "yes": no subject
    return len(low) >= MIN_WORD_CHARS and not low.isdigit() and not _ORDINAL.match(low) and not _CLOCK.match(low) \
        and not is_filler(low) \
        and low not in TITLES and low not in CONTRACTIONS and low not in ENDEARMENTS


@functools.lru_cache(maxsize=65536)
def weak(word: str) -> bool:
    """True for a word that names no subject on its own: a common verb, adverb, adjective,
    calendar word or past participle (see WEAK)."""
    return fold(word) in WEAK or word.lower() in WEAK or bool(_PARTICIPLE.match(word.lower()))


def _unpossessed(phrase: str) -> str:
    """A run's spelling without a possessive at its end ("Casa Verde's" -> "Casa Verde"): a name
    reads as a phrase, and the key it stands for is folded without it anyway."""
    return phrase[:-2] if phrase.endswith(("'s", "’s")) and len(phrase) > 3 else phrase


def _add_runs(out: Runs, run: list[tuple[str, bool, str]]) -> None:
    if len(run) == 1:  # most runs: one word
        w, weak_, folded = run[0]
        if not weak_ and folded not in GENERIC and (folded,) not in out:
            out[(folded,)] = _unpossessed(w)
        return
    words = [r[0] for r in run]
    weak_at = [r[1] for r in run]
    keys = [r[2] for r in run]
    for n in range(1, MAX_WORDS + 1):
        for k in range(len(run) - n + 1):
            if weak_at[k] or weak_at[k + n - 1]:
                continue
            key = tuple(keys[k: k + n])
            if n == 1 and key[0] in GENERIC:
                continue  # "course" alone names nothing ("golf course" does)
            if key not in out:
                out[key] = _unpossessed(" ".join(words[k: k + n]))


def ranked_names(member_runs: Sequence[Runs], rarity: Callable[[tuple[str, ...]], float], limit: int = 5,
                 keep: Callable[[str], bool] | None = None) -> list[str]:
    """The best names of a group, best first (at most ``limit``); ``rarity(key)`` is the key's idf.

    A run must recur in two members (in the one member of a group of one). The spelling shown
    is the one most members use (ties: lower case, then first seen). ``keep(name)``: a name it refuses is
    left out and hides none of its own words ("Haus" of the adverbial "direkt vorm Haus" stays a candidate); the
    ``limit`` best are asked as before, and the phrases refused on top (their test reads only the phrase).
    """
    held: Counter[tuple[str, ...]] = Counter()
    spellings: dict[tuple[str, ...], dict[str, int]] = {}
    for r in member_runs:
        held.update(r.keys())
        for k, v in r.items():
            forms = spellings.get(k)
            if forms is None:  # (not setdefault(k, {}): a new dict per run of every member)
                spellings[k] = {v: 1}
            else:
                forms[v] = forms.get(v, 0) + 1
    need = 2 if len(member_runs) > 1 else 1
    cands = [k for k in held if held[k] >= need]

    def spelling(k: tuple[str, ...]) -> str:
        forms = spellings[k]
        return min(forms, key=lambda f: (-forms[f], f != f.lower(), f))

    def score(k: tuple[str, ...]) -> tuple[float, str]:
        return (-round(held[k] * rarity(k) * (1 + RUN_BONUS * (len(k) - 1)), 9), spelling(k))

    out: list[str] = []
    slots = 0  # names taken, and one-word names ``keep`` refused: the ``limit`` best candidates, as without ``keep``
    for k in sorted(cands, key=score):
        # a run inside a better run that recurs as often adds nothing ("invoice" after "invoice runner")
        name = spelling(k)
        if any(name.lower() in o.lower() for o in out):
            continue
        if keep is not None and not keep(name):
            # a phrase refused by its shape takes no slot and hides none of its words; a word refused takes one
            slots += len(k) == 1
            if slots >= limit:
                break
            continue
        out.append(name)
        slots += 1
        if slots >= limit:
            break
    return out





def name(texts: Iterable[str], stop: frozenset[str], exclude: set[str],
         rarity: Callable[[tuple[str, ...]], float], taken: set[str] | None = None) -> str:
    """The name of a group of member texts: its best run not in ``taken`` (lower-cased names
    already given to other groups), or MIXED / UNTITLED."""
    memo: dict[str, tuple[str, bool, str] | None] = {}
    texts = list(texts)
    # (brief20) a greeting's words name nothing: "buon compleanno", and "tutti" of "buongiorno a tutti"; a group
    # of greetings is small talk ("jullie" of "gefeliciteerd!" / "dank jullie wel" names it no better)
    wishing = [brief_greetings.has_opener(t) for t in texts]
    if len(texts) > 1 and any(wishing) and brief_greetings.mostly_greetings(
            [t for t, w in zip(texts, wishing) if w], len(texts)):
        # named by what its other members say at length, if two do ("jullie" of "dank jullie wel" names nothing)
        texts = [t for t, w in zip(texts, wishing) if brief_greetings.says_more(t) and not
                 (w and brief_greetings.is_greeting(t))]
        if len(texts) < 2:
            return MIXED
        wishing = [brief_greetings.has_opener(t) for t in texts]
    lowered = [t.lower() for t in texts]
    member_runs = [runs(brief_greetings.without_greetings(t) if w else t, stop, exclude, memo)
                   for t, w in zip(texts, wishing)]
    judge = _SubjectJudge(texts, stop)
    judge._lower, judge.greeted = lowered, any(wishing)
    # (round 14) only a name the members use as a subject: when none is, the group is named by none of its words
    # (rounds 13's fallback to the best run named unseen chats' topics "calendar", "ahead", and the group of
    # memories in no topic "left"); (round 15) of a name's shape: no adverbial or clause ("direkt vorm Haus"), whose
    # refusal leaves its words to the next candidates
    best = ranked_names(member_runs, rarity, keep=judge.subject)
    for n in best:
        if (taken is None or n.lower() not in taken) and not is_piece(n, texts, exclude, judge.verb_after(n)):
            return n
    for n in best:  # every name is a piece of a longer one: the best that is free
        if taken is None or n.lower() not in taken:
            return n
    if best:  # every good name is taken: the best, told apart by what it is the second name of
        return best[0]
    return MIXED if len(member_runs) > 1 else UNTITLED


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
_GAP = re.compile(r"[ \t]*(?:[&+-][ \t]*)?")
_NEIGHBOUR = 3  # words on each side that tell two occurrences of a name apart (a quoted sentence is one)


def is_piece(phrase: str, texts: Sequence[str], exclude: set[str],
             verb: Callable[[str], bool] | None = None) -> bool:
    """Whether ``phrase`` is a piece of a longer fixed name: "man" of "best man", "Mud" of "Mud & Co", "council"
    of "Arts Council". Runs stop at stop words and punctuation, so the piece that recurs can be taken for the
    name. It is one when, in at least two different places (a sentence quoted twice, as a chat turn and its
    episode, is one), the same word stands right before it (or right after it), and that word is no article or
    preposition, no number, no filler, no verb or calendar word (WEAK) and no person's name: the name is the
    longer phrase, which the members do not let a name be (a stop word, a short word, punctuation inside), so
    another name is taken. ``verb(word)``: (brief22) a word after the phrase that is its verb ("Legia" of "Legia
    wygrała", "Palmeiras" of "o Palmeiras ganhou") makes it no piece: a clause's subject is the name."""
    key = [fold(w) for w in _WORD.findall(phrase)]
    n = len(key)
    if not n:
        return False
    first = phrase.split()[0].lower()
    # places told apart by the words around them: a sentence quoted again (a chat turn and the episode that
    # quotes it, whose next words may differ where the turn ended) shares the words on one side at least
    seen_before: set[tuple[str, ...]] = set()
    seen_after: set[tuple[str, ...]] = set()
    places = 0
    before: set[str] = set()
    after: set[str] = set()
    for text in texts:
        if first not in text.lower():
            continue  # (most members: no need to split their words)
        body = _STAMP.sub("", text, count=1)
        spans = [(m.start(), m.end()) for m in _WORD.finditer(body)]
        folded = [fold(body[a:b]) for a, b in spans]
        for i in range(len(spans) - n + 1):
            if folded[i: i + n] != key:
                continue
            ctx_before, ctx_after = tuple(folded[max(0, i - _NEIGHBOUR): i]), tuple(folded[i + n: i + n + _NEIGHBOUR])
            if ctx_before in seen_before or ctx_after in seen_after:
                continue
            seen_before.add(ctx_before)
            seen_after.add(ctx_after)
            places += 1
            # a neighbour only when nothing but spaces, "&", "+" or "-" stands between ("Mud & Co", "best man")
            # (a unit after a number is no name's part: "500 g bloem")
            before.add(folded[i - 1] if i and _GAP.fullmatch(body[spans[i - 1][1]: spans[i][0]])
                       and not (i >= 2 and any(ch.isdigit() for ch in folded[i - 2])) else "")
            last = spans[i + n - 1][1]
            after.add(folded[i + n] if i + n < len(spans) and _GAP.fullmatch(body[last: spans[i + n][0]]) else "")
    if places < 2:
        return False

    def joined(side: set[str]) -> bool:
        low = next(iter(side)) if len(side) == 1 else ""
        return len(low) >= 2 and low not in FUNCTION and not any(ch.isdigit() for ch in low) and not is_filler(low) \
            and low not in exclude and not is_title(low) and not weak(low) and "'" not in low \
            and low not in CONTRACTIONS  # ("went" of "visa appointment went", "I'm" of "I'm crying")

    return joined(before) or joined(after) and not (verb is not None and len(after) == 1 and verb(next(iter(after))))


# Determiners and possessives of the languages the brief reads (closed classes: the whole class, not a sample of
# words): a word right after one heads a noun phrase ("the boat", "our flat", "die Wohnung", "la fiesta", "het huis").
# Not "i" (a lower-case "I" before a verb: "i left"), "to" (Polish "it", English "to"), "that" (a conjunction).
DETERMINERS: frozenset[str] = frozenset("""
the a an my your his her our their its this these those every each another some any no
le la les l un une des du mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs ce cet cette ces
der die das den dem des ein eine einen einem einer eines mein meine meinen meinem meiner dein deine deinen
sein seine seinen ihr ihre ihren unser unsere unseren euer eure dieser diese dieses diesen
el la los las un una unos unas mi mis tu tus su sus nuestro nuestra nuestros nuestras este esta estos estas
il lo gli un uno una mio mia miei mie tuo tua suo sua nostro nostra nostri nostre questo questa quel quella
os as um uma uns umas meu minha meus minhas teu seu nosso nossa esse essa
de het een mijn jouw zijn haar ons onze hun deze dit
en ett et ei den det min mitt mit mina mine din ditt dit dina dine sitt sit sina sine vår vårt våra våre vores jeres deres ert era
mój moja moje mojego nasz nasza nasze twój twoja ten tego tej
""".split())
# Words after which "the X" is a place or direction said of something else, not an argument: "on the left",
# "put it in the calendar". English and the commonest of the other languages ("dans le", "auf der", "en el").
PLACE_PREPOSITIONS: frozenset[str] = frozenset("""
on in at to into onto from off near behind under over inside outside across towards toward
dans sur sous à chez auf an unter über hinter neben en sobre bajo tras su sotto dietro op onder boven achter på
""".split())
# A copula or auxiliary right after a word: the word is what the clause is about ("the calendar is full")
_COPULA: frozenset[str] = frozenset("""is was are were has had will isn't wasn't ist war sind es está son è sono
é são est sont er var är""".split())
_NUMBER_WORDS: frozenset[str] = frozenset("""two three four five six seven eight nine ten eleven twelve twenty
thirty forty fifty hundred couple few several""".split())
_SENTENCE_END = re.compile(r"[.!?:;\n]\s*[\"“(]*\s*$")
_SUBJECT_SHARE = 0.03  # determiners per word under which a group's language has none to judge by (Polish, Finnish)


class _Vocabulary:
    """A group's lower-cased words, for membership tests (``in``): a word is looked for in the members' joined text
    first, and the words are split only when an asked one is there (most asked verb forms are not: brief21)."""

    def __init__(self, lowered: Sequence[str]) -> None:
        self._lowered = lowered
        self._joined = "\n".join(lowered)
        self._words: frozenset[str] | None = None

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or word not in self._joined:
            return False  # (a word of the texts is in their joined text)
        if self._words is None:
            self._words = frozenset(w for t in self._lowered for w in _WORD.findall(t))
        return word in self._words


class _SubjectJudge:
    """Whether a one-word name is a word the members use as a subject (see :func:`used_as_subject`); the members'
    words are split once, for all the names one group tries."""

    def __init__(self, texts: Sequence[str], stop: frozenset[str] | None = None) -> None:
        self.texts = texts
        self.stop = stop  # the group's stop words: its language's closed classes (every language's when None)
        self.classes = topic_shape.closed(stop)
        self._lower: list[str] | None = None  # (lower-cased once: a group tries up to five names)
        self._split: dict[str, tuple[str, list[tuple[int, int]], list[str]]] = {}
        self._capitalised: bool | None = None
        self._vocabulary: _Vocabulary | None = None  # (the members' lower-cased words, read once if asked)
        self._places: dict[str, list[tuple[str, list[tuple[int, int]], list[str], int]]] = {}  # occurrences()
        self._verbs: dict[str, bool] = {}  # shaped(): whether a lower-case word is written as a verb
        self.greeted = True  # whether a member holds a wish word (name() tells; unknown: assumed)

    def vocabulary(self) -> _Vocabulary:
        """The members' words, lower-cased (asked only when a name's verb is; the words split only if an asked form
        is in their text at all: brief21)."""
        if self._vocabulary is None:
            if self._lower is None:
                self._lower = [t.lower() for t in self.texts]
            self._vocabulary = _Vocabulary(self._lower)
        return self._vocabulary

    def occurrences(self, word: str) -> list[tuple[str, list[tuple[int, int]], list[str], int]]:
        """(body, spans, lower-cased words, index) of each place the members write ``word`` (folded); kept per
        folded word (brief21: a group's greeting, feeling and subject tests ask the same word)."""
        key = fold(word)
        got = self._places.get(key)
        if got is not None:
            return got
        # a word that folds to ``key`` starts with ``key`` but for its last letter ("parties" -> "party"), as the
        # texts asked hold the key without its last letter (4 letters or more)
        head = key[:-1] if "'" not in key else ""
        out: list[tuple[str, list[tuple[int, int]], list[str], int]] = []
        for body, spans, low in self.holding(key):
            out.extend((body, spans, low, i) for i, w in enumerate(low) if w.startswith(head) and fold(w) == key)
        self._places[key] = out
        return out

    def holding(self, key: str) -> list[tuple[str, list[tuple[int, int]], list[str]]]:
        """:meth:`bodies` of the members whose lower-cased text holds the folded ``key`` without its last letter
        (with it, 3 letters or fewer): those that may write the word."""
        stem = key[:-1] if len(key) > 3 else key
        if self._lower is None:
            self._lower = [t.lower() for t in self.texts]
        return self.bodies([t for t, lt in zip(self.texts, self._lower) if stem in lt])

    def greeting(self, words: Sequence[str]) -> bool:
        """(brief20) Whether a name is a greeting or a wish, or what one wishes: it opens with a wish word or a
        greeting the members never write capitalised inside a sentence ("buon compleanno", "Prettig weekend
        allemaal", "gefeliciteerd"; not "al Buongiorno Caffè"), or its first word mostly stands right after a wish
        word ("birthday" of "happy birthday", "Ognissanti" of "buon Ognissanti")."""
        if not words or not self.greeted:
            return False  # (most groups: no wish word at all)
        first = words[0]
        if brief_greetings.opens_wish(first.lower()):  # spelled in lower case: as most members write it, a wish
            return first.islower() or not any(_capital_inside(body, spans, i)
                                              for body, spans, _low, i in self.occurrences(first))
        if not first.islower():
            return False  # a holiday's or a person's name: "Halloween" of "happy Halloween" is still a subject
        places = self.occurrences(first)
        wished = 0
        for body, spans, low, i in places:
            if i and low[i - 1] in brief_greetings.OPENERS and not body[spans[i - 1][1]: spans[i][0]].strip() and \
                    not _capital_inside(body, spans, i - 1):
                wished += 1
        return wished > 0 and 2 * wished >= len(places)

    def exclaimed(self, word: str) -> bool:
        """(brief20) Whether a lower-case word is a feeling the members exclaim, not a subject: said after an
        intensifier or exclamative ("qué chido", "so exciting", "wat spannend") or alone in its line ("chido!",
        "stupendo davvero") in two lines and at least half of its places, and never right after a determiner."""
        said = 0
        places = self.occurrences(word)
        lines = set()
        for body, spans, low, i in places:
            joined = i and not body[spans[i - 1][1]: spans[i][0]].strip()
            if joined and low[i - 1] in DETERMINERS:
                return False
            if joined and low[i - 1] in topic_shape.INTENSIFIERS or self._alone(body, spans, low, i):
                said += 1
                lines.add(_line_at(body, spans[i][0]))
        return len(lines) >= 2 and 2 * said >= len(places)

    def _alone(self, body: str, spans: list[tuple[int, int]], low: list[str], i: int) -> bool:
        """Whether the word at ``i`` stands alone in its line but for filler, adverbs, itself and a "Name:" label
        ("chido!", "stupendo davvero", "Memo: chido chido"): its line's words read outward from it, at most four."""
        for step in (-1, 1):
            j = i
            for _ in range(5):
                k = j + step
                if not 0 <= k < len(low):
                    break
                gap = body[min(spans[j][1], spans[k][1]): max(spans[j][0], spans[k][0])]
                if "\n" in gap or step < 0 and gap.strip() == ":":
                    break  # another line, or the "Name:" label of this one
                w = low[k]
                if w != low[i] and not is_filler(w) and not self.classes.adverb(w):
                    return False
                j = k
            else:
                return False  # a long line
        return True

    def verb_after_name(self, words: Sequence[str]) -> bool:
        """(brief20) Whether a name is a subject and its verb: a name written capitalised, then a lower-case last
        word the members never write where a noun stands (right after a determiner, a number, a preposition or a
        possessor: "Pepe mangia", "Canela ladra", "Bobbie blaft", "Bia pediu"). In English a noun follows a name
        ("Windows runner", "TAP flights"): only a third person's "-s" the members never write as a noun is a verb
        there ("Grandpa sleeps", "Biscuit chews"); in the other languages the brief reads a modifier follows its noun
        capitalised or compounds are one word ("Casa Lola", "lantaarnpaal")."""
        last = words[-1]
        if len(words) < 2 or not words[0][:1].isupper() or not (last.isalpha() and last.islower()):
            return False
        if not any(_capital_inside(body, spans, i) for body, spans, _low, i in self.occurrences(words[0])):
            return False  # capitalised only where a sentence starts: no name ("Nya matchtröjor": "new" + a noun)
        english = self.stop is None or len(self.classes.languages) == 1  # (not told: English's rule)
        low = last.lower()
        if english and not (len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is"))):
            return False
        asked = [low, fold(low)] if english else [low]
        for w in asked:
            for body, spans, lows, i in self.occurrences(w):
                if not i or body[spans[i - 1][1]: spans[i][0]].strip():
                    continue
                prev = lows[i - 1]
                if prev in DETERMINERS or prev in self.classes.prepositions or prev in self.classes.fused or \
                        prev.endswith(("'s", "’s")) or english and (
                            any(ch.isdigit() for ch in prev) or prev in _NUMBER_WORDS or
                            _determiner_before(body, spans, lows, i) >= 0):
                    return False  # a noun: "the flight", "per la taille", "2 tickets" (not "nummer 12 blaft")
        return True

    def capitalised(self) -> bool:
        """Whether the members write their nouns capitalised (German), read once per group from its first members
        (their words split only when German's function words are there at all: most groups are not German)."""
        if self._capitalised is None:
            if self._lower is None:
                self._lower = [t.lower() for t in self.texts]
            sample = self.texts[:CAPITALS_READ]
            german = self.classes.german if self.stop is not None else \
                topic_shape.may_be_german(self._lower[:CAPITALS_READ])
            self._capitalised = german and \
                topic_shape.capitalises_nouns([[(body[a:b], low[i]) for i, (a, b) in enumerate(spans)]
                                               for body, spans, low in self.bodies(sample)], DETERMINERS)
        return self._capitalised

    def shaped(self, phrase: str) -> bool:
        """Whether a name of two words or more has a name's shape (memengine/topic_shape.py)."""
        if self._lower is None:
            self._lower = [t.lower() for t in self.texts]
        # (brief19) the phrase's lower-case words the members write as verbs ("foi cancelado", "non dice")
        lower = [w for w in _WORD.findall(phrase) if w.islower()]
        # (brief20: each asked word looked for in the texts that hold it, not every word after a cue read first)
        # (brief21: each word's verdict kept, a group tries up to five names)
        new = [w for w in lower if w not in self._verbs]
        if new:
            found = topic_shape.verbs_in(self._lower, new)
            self._verbs.update((w, w in found) for w in new)
        verbs = {w for w in lower if self._verbs[w]}
        if not topic_shape.phrase_shaped(phrase, self.capitalised(), DETERMINERS,
                                         lambda low: low in FUNCTION or low in CONTRACTIONS or weak(low), self.classes,
                                         verbs.__contains__):
            return False
        words = _WORD.findall(phrase)
        last = words[-1]
        # (brief20) a clause whose verb no cue marks: another form of the last word's stem in the members' text
        # ("il tetto perde" where "perdeva" is written), or a name and a word never written as a noun ("Pepe mangia")
        if last.islower() and topic_shape.verb_by_stem(last, self.vocabulary(), self.classes.languages):
            return False
        # (brief22) a past form said where no noun stands ("winda stanęła", "casero contestó", "mandou mensagem"), or
        # a name and its present said only as a clause, where the name only starts sentences ("Briciola vomita")
        return not (self.verb_after_name(words) or self.past_clause(words) or self.present_clause(words))

    def verb_after(self, name: str) -> Callable[[str], bool]:
        """(brief22) For :func:`is_piece`: whether a (folded) word right after ``name`` is its verb, as this judge
        reads a name's last word (a past form said where no noun stands, a present said only as a clause)."""
        last = name.split()[-1] if name.split() else name

        def verb(w: str) -> bool:
            places = self.occurrences(w)
            if not places or any(body[spans[i][0]].isupper() for body, spans, _low, i in places):
                return False  # written capitalised: a name's next word ("Auto Center Boa" of "... Boa Vista")
            return self.past_clause([w]) or self.present_clause([last, w])
        return verb

    def noun_place(self, low: str) -> bool:
        """(brief22) Whether the members write the lower-case word where a noun stands (topic_shape.noun_place)."""
        return topic_shape.noun_place(self.occurrences(low), DETERMINERS, self.classes, _NUMBER_WORDS)

    def past_clause(self, words: Sequence[str]) -> bool:
        """(brief22) Whether a lower-case word of a name ends as a past third person of the group's language
        (topic_shape.past_form: "wygrała", "quebrou", "contestó") and the members never write it where a noun stands:
        a clause ("Legia wygrała", "geladeira quebrou"), or a verb and its object ("mandou mensagem")."""
        langs = self.classes.languages
        return any(w.islower() and topic_shape.past_form(w, langs) and not self.noun_place(w) for w in words)

    def present_clause(self, words: Sequence[str]) -> bool:
        """(brief22) Whether a name ends with a name written capitalised and a lower-case word the members say only
        as its verb (topic_shape.present_clause: "Briciola vomita", "Papi tousse" where the name only starts
        sentences; brief20's :meth:`verb_after_name` asks it capitalised inside one)."""
        if len(words) < 2:
            return False
        head, last = words[-2], words[-1]
        if not head[:1].isupper() or not (last.isalpha() and last.islower()) or \
                not topic_shape.present_form(last, self.classes.languages) or self.noun_place(last):
            return False
        return topic_shape.present_clause(self.occurrences(head), last, DETERMINERS, self.classes)

    def locution(self, word: str) -> bool:
        """(brief22) Whether a lower-case word is the middle of a fixed phrase ("partir" of "a partir de"):
        topic_shape.locution over its places."""
        return topic_shape.locution(self.occurrences(word), self.classes)

    def bodies(self, texts: Sequence[str]) -> list[tuple[str, list[tuple[int, int]], list[str]]]:
        """Each text without its stamp, its words' spans and its lower-cased words (split once per text)."""
        out = []
        for text in texts:
            got = self._split.get(text)
            if got is None:
                body = _STAMP.sub("", text, count=1)
                spans = [(m.start(), m.end()) for m in _WORD.finditer(body)]
                got = self._split[text] = (body, spans, [body[a:b].lower() for a, b in spans])
            out.append(got)
        return out

    @staticmethod
    def judges(bodies: Sequence[tuple[str, list[tuple[int, int]], list[str]]]) -> bool:
        """Whether the members that write the word write determiners at all (a language without articles, as
        Polish, is not judged: its nouns never follow one)."""
        words = sum(len(low) for _b, _s, low in bodies)
        dets = sum(w in DETERMINERS for _b, _s, low in bodies for w in low)
        return words > 0 and dets >= _SUBJECT_SHARE * words

    def subject(self, phrase: str) -> bool:
        """True for a name of two words or more that has a name's shape (not an adverbial or a clause), and for one
        word the members use as a subject somewhere that is no adverb, unit or measure."""
        words = _WORD.findall(phrase)
        if self.greeting(words):
            return False  # "buon compleanno", "gefeliciteerd", "birthday" of "happy birthday"
        if len(words) != 1:
            return self.shaped(phrase)
        if topic_shape.stray(words[0], self.classes):
            return False  # "overnight", "upfront", "Uhr", "200ms"
        if words[0].islower() and topic_shape.superlative(words[0]):
            return False  # "padrísimo", "bellissimo"
        if words[0].islower() and (topic_shape.past_form(words[0], self.classes.languages) and
                                   not self.noun_place(words[0]) or self.locution(words[0])):
            return False  # (brief22) "rompió", "uciekł"; "partir" of "a partir de", "base" of "in base al"
        key = fold(words[0])
        # only the members that write the word are split (consolidate names ~5,000 clusters at 100k): its folded
        # key without its last letter is in each spelling of it ("party" of "parties": "part")
        bodies = self.holding(key)
        if self.capitalised() and not _written_capitalised(self.occurrences(words[0])):
            return False  # where nouns are written capitalised, a word never so is none: "520 warm", "direkt"
        if not self.judges(bodies):
            return not (words[0].islower() and self.exclaimed(words[0]))  # (brief20) "chido", "wat spannend"
        # (round 14) each line counted once (a chat's episode repeats its turns); the word must head a noun phrase in
        # more lines than it stands in a place adjunct: "put it in the calendar" said three times and "the calendar
        # is full" once is where things go, not what the topic is about
        heads: set[str] = set()
        adjunct: set[str] = set()
        for body, spans, low, i in self.occurrences(words[0]):  # (brief21: the places greeting() read)
            line = _line_at(body, spans[i][0])
            det = _determiner_before(body, spans, low, i)
            if det >= 1 and low[det - 1] in PLACE_PREPOSITIONS or \
                    i and low[i - 1] in topic_shape.FUSED_PLACE and low[i - 1] in self.classes.fused and \
                    low[i - 1] not in DETERMINERS and \
                    not body[spans[i - 1][1]: spans[i][0]].strip():
                adjunct.add(line)  # "in the calendar", "on the far left", "im Hof" ("in dem Hof"), "al mare"
            elif det >= 0 or _heads_phrase(body, spans, low, i):
                heads.add(line)  # "the new deploy days", "our flat", "the calendar is full"
        return len(heads - adjunct) > len(adjunct) and not (words[0].islower() and self.exclaimed(words[0]))


CAPITALS_READ = 60  # members read to tell whether a group writes its nouns capitalised


_LABEL_ONLY = re.compile(r"\s*[^:\n]{1,40}:\s*")


def _capital_inside(body: str, spans: list[tuple[int, int]], i: int) -> bool:
    """Whether the word at ``i`` is written capitalised inside a sentence (a name: "al Buongiorno Caffè")."""
    a = spans[i][0]
    if not body[a].isupper() or not i or _SENTENCE_END.search(body[:a]):
        return False
    before = body[body.rfind("\n", 0, a) + 1: a]  # the line up to the word: a "Name: " label alone starts it
    return bool(before.strip()) and not _LABEL_ONLY.fullmatch(before)


def _written_capitalised(places: Sequence[tuple[str, list[tuple[int, int]], list[str], int]]) -> bool:
    """Whether the word (its ``places``: :meth:`_SubjectJudge.occurrences`) is written capitalised inside a sentence,
    or never inside one."""
    inside = False
    for body, spans, _low, i in places:
        a = spans[i][0]
        if i and not _SENTENCE_END.search(body[:a]) and body[a - 1: a] != "\n" and \
                not _line_at(body, a).startswith(body[a: spans[i][1]]):
            if body[a].isupper():
                return True
            inside = True
    return not inside


def name_shaped(phrase: str, texts: Sequence[str], stop: frozenset[str] | None = None) -> bool:
    """Whether ``phrase`` may name a topic of ``texts`` by its shape and use: a run of two words or more that is no
    adverbial or clause (memengine/topic_shape.py), one word the members use as a subject that is no adverb or unit,
    no greeting or feeling. ``stop``: the group's stop words (its language; every language's when None)."""
    return _SubjectJudge(texts, stop).subject(phrase)


_BETWEEN = 2  # words that may stand between a determiner and the word its phrase is about ("the new deploy")


def _determiner_before(body: str, spans: list[tuple[int, int]], low: list[str], i: int) -> int:
    """The index of the determiner whose noun phrase the word at ``i`` is in (at most _BETWEEN content words
    between them, in one clause: no punctuation), or -1."""
    for j in range(i - 1, max(-1, i - _BETWEEN - 2), -1):
        if body[spans[j][1]: spans[j + 1][0]].strip():
            return -1  # punctuation: another clause or list item
        if low[j] in DETERMINERS:
            return j
        if low[j] in FUNCTION or any(ch.isdigit() or ch in "'’" for ch in low[j]):
            return -1  # (a contraction, "she's near": a clause of its own; a possessor is _heads_phrase's)
    return -1


def _line_at(body: str, at: int) -> str:
    """The line of ``body`` around offset ``at``, without its "Name: " label (an episode's line is its turn)."""
    start = body.rfind("\n", 0, at) + 1
    end = body.find("\n", at)
    line = body[start: end if end >= 0 else len(body)]
    head, sep, rest = line.partition(": ")
    return (rest if sep and len(head) <= 40 and start + len(head) < at else line).strip()


def _heads_phrase(body: str, spans: list[tuple[int, int]], low: list[str], i: int) -> bool:
    """Whether the word at ``i`` heads a noun phrase that is an argument: right after a determiner, a possessive
    or a number (not after a place preposition and its article: "on the left"), right before a copula, or written
    capitalised inside a sentence."""
    start = spans[i][0]
    word = body[start: spans[i][1]]
    if i >= 2 and low[i - 1] in DETERMINERS and low[i - 2] in PLACE_PREPOSITIONS:
        return False  # "on the left is Marco": where, not what
    if i and word[:1].isupper() and not _SENTENCE_END.search(body[:start]) and not (
            word.isupper() and any(body[a:b].isupper() for a, b in spans[i - 1: i + 2] if (a, b) != spans[i])):
        return True  # a name: "we go to Gdańsk", "FCM vandt" (not a word of a shouted "SO FULLY BOOKED")
    if i + 1 < len(low) and low[i + 1] in _COPULA and body[spans[i][1]: spans[i + 1][0]].strip() == "":
        return True  # "the calendar is full", "tickets are in my inbox"
    if word.lower().endswith(("'s", "’s")):
        return True  # a possessor: "the boat's engine"
    if not i or body[spans[i - 1][1]: start].strip():
        return False  # first word, or punctuation between it and the word before
    prev = low[i - 1]
    # (round 14: "she's near the shops" is no possessor: a pronoun's or a function word's "'s" is "is" / "has")
    possessor = prev.endswith(("'s", "’s")) and prev[:-2] not in FUNCTION and \
        prev.replace("'", "").replace("’", "") not in CONTRACTIONS
    if possessor or any(ch.isdigit() for ch in prev) or prev in _NUMBER_WORDS:
        return True  # "Mum's birthday", "2 tickets", "three rooms"
    return prev in DETERMINERS


def used_as_subject(word: str, texts: Sequence[str]) -> bool:
    """Whether ``word`` heads a noun phrase somewhere in ``texts`` (a topic's members), so may name their subject.

    A word the members only use as a modifier of a verb or an adjective ("fully booked", "mostly packed") or in a
    place adjunct ("on the left", "put it in the calendar") names no subject. Evidence is structural and the word
    lists behind it are closed classes: a determiner, possessive or number right before the word (not after a place
    preposition), a copula right after it, or a capital inside a sentence. Members that write no determiners (a
    language without articles) are not judged."""
    return _SubjectJudge(texts).subject(word)


def idf(df: Callable[[str], int], n_docs: int) -> Callable[[tuple[str, ...]], float]:
    """Rarity of a run from document frequencies of words: a run is as rare as its rarest word."""
    def rarity(k: tuple[str, ...]) -> float:
        return math.log((n_docs + 1) / (min(df(w) for w in k) + 1)) + 1.0
    return rarity


def folded_df(df: Mapping[str, int]) -> Callable[[str], int]:
    """Document frequency of a folded word from frequencies of lower-cased words (its plural
    spellings added: "invoice" counts the documents of "invoice" and of "invoices")."""
    def of(w: str) -> int:
        n = df.get(w, 0) + df.get(w + "s", 0) + df.get(w + "es", 0)
        return n + (df.get(w[:-1] + "ies", 0) if w.endswith("y") else 0)
    return of
