"""The words a thing's date is said with, beyond the date: "deadline", "Frist", "plazo", "due", "prévu", "pushed
back", "verlängert bis", "opgeschoven naar" (facts27).

memengine/fact_period.py reads a period moved for the same thing when every content word of the newer is one of
the older's. People name the date of one thing in other words from one week to the next: "The quarterly audit is
**due** at the end of June" / "The **deadline** for the quarterly audit got **pushed back** to mid-July", "Die
**Abgabe** des Förderantrags ist Ende Mai" / "Die **Frist** für den Förderantrag wurde **bis** Mitte Juni
**verlängert**", "La **scadenza** del bilancio" / "Il **termine** per il bilancio è **slittato** a metà maggio",
"De **oplevering** van het nieuwe portaal" / "De **deadline** voor …". These words name *when* the thing is due,
not the thing: the date's own nouns (deadline, due date, term), the participles a date is set with (due, planned,
expected, scheduled), the verbs and particles of a date moved (pushed back, extended, slipped, brought forward) and
the prepositions a date is said after (until, to, for). One closed class per language, a hand list (as the period
words of memengine/fact_period.py are): none of them names a thing, so a newer saying another thing ("the audit
**report** is due …") still says a word of its own. Pure: no SQL, no model.
"""

from __future__ import annotations

from memengine.fact_lexicon import _set

__all__ = ["DUE_WORDS", "due_word"]

# The nouns of a thing's date: "the deadline for X", "die Frist für X", "l'échéance de X", "el plazo de X".
# (Not "data", the Portuguese and Italian date: English "data" names a thing, "the data team".)
# The handing in whose date it is ("the submission of X", "die Abgabe des X", "la remise du X", "la entrega del X",
# "de oplevering van X") names when X is due too.
_NOUNS = _set("deadline deadlines date dates due submission delivery handover",
              "frist fristen termin abgabetermin stichtag datum abgabe einreichung",
              "echeance delai delais date remise rendu", "plazo plazos fecha entrega", "prazo prazos entrega",
              "scadenza scadenze termine termini consegna", "deadline termijn datum oplevering levering")
# What a date is set with: "is due", "ist geplant", "est prévu / attendu / fixé", "está previsto", "è fissata".
_SET = _set("scheduled planned expected set slated",
            "fallig geplant angesetzt vorgesehen terminiert",
            "prevu prevue prevus prevues attendu attendue attendus attendues fixe fixee fixes fixees programme programmee",
            "previsto prevista programado programada fijado fijada esperado esperada",
            "previsto prevista marcado marcada agendado agendada programado programada esperado esperada",
            "previsto prevista fissato fissata programmato programmata atteso attesa",
            "gepland verwacht vastgesteld")
# A date moved, and its particles ("pushed back", "brought forward", "verlängert", "slittato", "opgeschoven",
# "glissé", "vorgezogen"): the change verbs memengine/fact_change_words.py lacks for dates.
_MOVED = _set("back forward brought extended slipped slid finally eventually", "endlich schliesslich letztlich", "finalement",
              "finalmente", "finalmente", "finalmente", "uiteindelijk",
              "verlangert vorgezogen verschoben nach hinten",
              "glisse glissee decale decalee avance avancee recule reculee retarde retardee prolonge prolongee",
              "retrasado retrasada adelantado adelantada aplazado aplazada prorrogado prorrogada prolongado prolongada",
              "adiado adiada antecipado antecipada prorrogado prorrogada",
              "slittato slittata anticipato anticipata posticipato posticipata rinviato rinviata prorogato prorogata",
              "opgeschoven uitgesteld verplaatst vervroegd verlengd",
              # (the reflexive a move is said with: "si sposta al lunedì", "se retrasa", "verschiebt sich", "zich")
              "si se sich zich")
# The prepositions a date is said after ("until mid-June", "bis Mitte Juni", "naar half april", "voor het portaal").
_PREPOSITIONS = _set("to until till by for", "bis auf aufs zu zum fur", "jusqu jusqua pour", "hasta para",
                     "ate para", "fino entro per", "tot naar voor")

# The verbs a recurring thing is held with ("takes place", "findet statt", "a lieu", "se reúne", "vindt plaats") and
# the words that pick its day in a month ("the first Wednesday", "el último viernes de cada mes", "jeden zweiten"):
# the day's phrase, no thing (facts28: "Die Teambesprechung findet ab sofort mittwochs statt" / "… ist donnerstags").
_HELD = _set("takes place held meets meet first last second third every each",
             "findet statt stattfinden trifft erste ersten letzte letzten zweite zweiten jeden jede",
             "lieu tient reunit premier premiere dernier derniere deuxieme chaque",
             "lugar celebra reune reunirse primer primero primera ultimo ultima segundo segunda cada",
             "acontece realiza reune reunir primeiro primeira ultimo ultima segunda cada",
             "luogo riunisce riunirsi primo prima ultimo ultima secondo seconda ogni",
             "plaats vindt eerste laatste tweede elke iedere")

DUE_WORDS: frozenset[str] = _NOUNS | _SET | _MOVED | _PREPOSITIONS | _HELD


def due_word(word: str) -> bool:
    """Whether ``word`` (folded) names when a thing is due or how its date moved, no thing ("deadline", "Frist",
    "prévu", "slittato", "bis")."""
    return word in DUE_WORDS
