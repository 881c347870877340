"""Change words of the languages fact_cue's lexicon does not read, for an agent's notes (round 36, held-out 34).

memengine/fact_cue_lexicon.py reads a change in English, French, Spanish, Portuguese, Italian and German; an agent
keeps notes in its user's language, and a Dutch or Norwegian update ("Lissabon omgeboekt naar 24–31 oktober",
"Tannrensen for Tass er flyttet til 13. oktober") said no change word to notes.py, so its two-stem link never
fired. These are the closed-class words of a change in Dutch, Danish, Norwegian, Swedish and Polish, written from
the languages (not from any set): "now / from now on / no longer / instead", participles of moving, changing,
switching, stopping, cancelling, postponing and bringing forward, and "new". Matched on the lower-cased words as
written (accents kept: folded, Norwegian "nå" would be Portuguese "na", "in the").
"""

from __future__ import annotations

import functools
import re

WORDS = frozenset("""
nu voortaan tegenwoordig inmiddels sindsdien verschoven verplaatst verzet omgeboekt gewijzigd veranderd
aangepast overgestapt gestopt opgezegd verhuisd vervangen geannuleerd afgezegd uitgesteld vervroegd nieuwe nieuw
nå heretter fremover lenger istedet istedenfor flyttet flytta endret endra byttet bytta skiftet sluttet slutta
stoppet avlyst utsatt fremskyndet ny nye nytt
ændret længere skiftede stoppede aflyst udsat fremover
numera hädanefter längre istället flyttat flyttad flyttade ändrat ändrad ändrade bytt bytte slutat inställt
uppskjutet nya
teraz odtąd zamiast przeniesiony przeniesiona przeniesione przesunięty przesunięta przesunięte zmienił zmieniła
zmienione zmieniony odwołany odwołana odwołane nowy nowa nowe
""".split())

# Their function words of four letters or more (stems are a word's first four letters: updates.stems), which
# memengine.text's stop words do not hold: "fortsatt" (still), "hver" (every), "etter" (after), "naar" (to) said by
# two notes of two subjects are no subject they share ("vakthelg fortsatt hver fjerde helg" / "Librela hver femte
# uke nå, ikke hver fjerde"). Ordinals and "week" too: a value's words. Round 45: those of Italian, French, Spanish,
# Portuguese and German too, whose notes shared "dalle … alle" of two times as a subject ("Il check-in è dalle 15
# alle 19" / "La colazione si serve dalle 8 alle 10"); words that are English words as well ("pour", "come", "dove",
# "plus") left out.
FUNCTION = frozenset("""
etter efter fortsatt fortsat fortfarande fremdeles hver hvert hvor varje ikke inte også eller mellom mellem under
over innen inden inom fordi eftersom siden alltid altid aldri aldrig igjen igen bare bara kanskje måske
kanske denne dette disse deres hennes hendes hennar sine sitt sina vores våre vara være vært blir blev bliver
hadde havde hade skal skulle ville kunne från første forste tredje fjerde femte sjette sjuende åttende uke
uker vecka veckor uge uger ganger
nog steeds altijd nooit omdat want wanneer tijdens tussen onder boven voor achter naar zonder tegen sinds
vanaf deze haar zijn hebben heeft hadden wordt worden werd zullen kunnen moet moeten willen elke iedere eerste
tweede derde vierde vijfde week weken keer
jest było będzie oraz także jeszcze nadal wciąż zawsze nigdy przez przed jego który która które każdy każda każde
bardzo tylko
""".split()) | frozenset("""
dalla dalle dallo dagli della delle dello degli nella nelle nello negli sulla sulle sullo sugli alla alle allo agli
sempre anche ancora dopo prima durante senza sono essere stato stata hanno molto ogni tutti tutte tutto questo
questa questi queste quello quella quelli quelle loro perché quando mentre oppure però quindi circa fino verso
dans avec sans sous chez vers entre depuis pendant avant après toujours encore aussi très moins tous toutes tout
cette cela ceci leur leurs sont était étaient avait avoir être comme quand donc puis chaque même
para como desde hasta sobre antes después siempre todavía también más menos todos todas todo este esta estos
estas aquel está están estaba tiene tienen cada mismo pero porque cuando donde
depois ainda também muito mais menos isso esse essa seus suas estão tinha mesmo pela pelo pelas pelos numa dessa
desse nessa nesse
über nicht sind waren haben hatte wird werden wurde seine ihre ihren ihrem einen einem einer eine diese dieser
dieses noch immer schon auch sehr mehr weniger allen jeden jede jeder jedes wenn weil dass aber seit während
zwischen gegen ohne durch
""".split())

_WORD = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=4096)
def words_of_change(text: str) -> tuple[str, ...]:
    """The words of ``text`` that say a change in one of these languages (lower-cased, as written)."""
    return tuple(w for w in (t.lower() for t in _WORD.findall(text)) if w in WORDS)


@functools.lru_cache(maxsize=4096)
def without_function_words(text: str) -> str:
    """``text`` less the words of :data:`FUNCTION` (whole words, any case: the stem of one is also the stem of a
    name, "hadde" of "Haddad")."""
    return _WORD.sub(lambda m: " " if m.group(0).lower() in FUNCTION else m.group(0), text)
