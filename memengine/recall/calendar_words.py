"""Calendar words in the languages recall reads: month and weekday names, and the words of a day, a week, a
month or a year (issue 19, round 18).

A calendar word dates a turn; it names nothing. The mention step (mention.py) takes a top hit's rare words
for its subject, and a month said twice in a chat is rare: "decision on the roof? rains start March" made
"march" a subject and placed "Otieno starts Monday 1 March" right after it. The time prior (fusion.py) asks
the other way round: a "when" question lifts a turn that speaks of time, and a turn written in Turkish or
Finnish speaks of it with "19 Haziran'a" or "kesäkuussa", which the English TIME_WORD_RE never reads.

The languages are those the importers and the recall steps read (English, French, German, Spanish,
Portuguese, Italian, Dutch, Swedish, Danish, Norwegian, Finnish, Polish, Turkish, Tagalog). Words are
matched whole and lower-cased, after an apostrophe's suffix is cut ("haziran'a" -> "haziran"); Finnish
months and weekdays by their stem ("kesäkuussa", "maanantaina"), since the language inflects them.
"""

from __future__ import annotations

import re

_MONTHS_EN = "january february march april june july august september october november december"
_MONTHS = """
janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre
januar jänner februar märz maerz juni juli oktober dezember
enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
janeiro fevereiro março maio junho julho setembro outubro novembro dezembro
gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre
januari februari maart mei augustus
maj augusti
marts desember
styczeń styczen stycznia luty lutego marzec marca kwiecień kwiecien kwietnia maja czerwiec czerwca lipiec lipca
sierpień sierpien sierpnia wrzesień wrzesien września wrzesnia październik pazdziernik października pazdziernika
listopad listopada grudzień grudzien grudnia
styczniu lutym marcu kwietniu maju czerwcu lipcu sierpniu wrześniu wrzesniu październiku pazdzierniku listopadzie
grudniu
ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık
pebrero marso hunyo hulyo setyembre oktubre nobyembre disyembre
"""
_WEEKDAYS_EN = "monday tuesday wednesday thursday friday saturday sunday"
_WEEKDAYS = """
lundi mardi mercredi jeudi vendredi samedi dimanche
montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag
lunes martes miércoles miercoles jueves viernes sábado sabado domingo
segunda terça terca quarta quinta sexta segunda-feira terça-feira terca-feira quarta-feira quinta-feira sexta-feira
lunedì lunedi martedì martedi mercoledì mercoledi giovedì giovedi venerdì venerdi sabato domenica
maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
måndag tisdag onsdag torsdag fredag lördag söndag mandag tirsdag lørdag søndag
poniedziałek poniedzialek wtorek środa sroda środę srode czwartek piątek piatek sobota sobotę sobote niedziela
niedzielę niedziele
pazartesi salı çarşamba perşembe cuma cumartesi pazar
miyerkules huwebes biyernes
"""
# the words of a day, a week, a month, a year (not "day" alone in English: three letters, and the English
# ones the time prior's own regex already reads)
_DAY_WORDS_EN = "today tonight tomorrow yesterday week weeks weekend weekends month months year years morning afternoon evening"
_DAY_WORDS = """
aujourd'hui demain hier semaine semaines week-end mois année années annee soir soirée matin
heute morgen gestern woche wochen wochenende monat monate jahr jahre abend
mañana manana ayer semana semanas finde año años noche
hoje amanhã amanha ontem mês semanas noite manhã
oggi domani ieri settimana settimane mese mesi anno anni stasera mattina
vandaag gisteren maand maanden jaar avond vanavond ochtend
idag imorgon igår igar vecka veckan helgen månad året ikväll ikvall kväll
uke uken måned
tänään huomenna eilen viikko viikolla viikonloppuna viikonloppu kuukausi vuosi vuonna illalla
dzisiaj dziś jutro wczoraj tydzień tydzien tygodniu miesiąc miesiac wieczorem
bugün yarın dün hafta haftaya haftasonu akşam sabah
ngayon bukas kahapon linggo buwan taon
"""
# the other languages' (the time prior reads English with its own regex, priors.TIME_WORD_RE)
OTHER_CALENDAR_WORDS = frozenset(_MONTHS.split()) | frozenset(_WEEKDAYS.split()) | frozenset(_DAY_WORDS.split())
CALENDAR_WORDS = OTHER_CALENDAR_WORDS | frozenset(f"{_MONTHS_EN} {_WEEKDAYS_EN} {_DAY_WORDS_EN}".split())
# Finnish inflects months and weekdays ("kesäkuussa", "maanantaina"): read by stem
FINNISH_STEMS = ("tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu",
                 "syyskuu", "lokakuu", "marraskuu", "joulukuu", "maanantai", "tiistai", "keskiviikko", "torstai",
                 "perjantai", "lauantai", "sunnuntai")
_LETTERS = re.compile(r"[^\W\d_][\w-]*", re.UNICODE)


def is_calendar_word(word: str, words: frozenset[str] = CALENDAR_WORDS) -> bool:
    """Whether a lower-cased word (its apostrophe's suffix cut) is a month, a weekday or a word of a day, week,
    month or year in a language recall reads (``words``: OTHER_CALENDAR_WORDS leaves English out)."""
    return word in words or (len(word) >= 6 and word.startswith(FINNISH_STEMS))


def says_calendar(text: str, words: frozenset[str] = CALENDAR_WORDS) -> bool:
    """Whether a lower-cased text holds a calendar word (see :func:`is_calendar_word`)."""
    return any(is_calendar_word(w, words) for w in _LETTERS.findall(text.replace("’", "'").replace("'", " ")))
