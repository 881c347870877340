"""A broad, general list of the words a change of value is told with, in six languages (a feature of the
learned same-slot decision, memengine/fact_slot.py; never a rule on its own).

The rule path (memengine/fact_cue.py, fact_cue_lexicon.py) reads change words only where their grammar
says a value changed ("raised the rent **to** 1290"), so it stays exact; people chatting drop that grammar
("killed jira, everything's in linear now", "cancelei o nubank e fui pro inter", "passat verkauft"). This
module only answers *whether* the newer sentence holds such a word that the older one lacks, from general
word classes rather than from any labelled pair:

- change verbs: changing, replacing, moving, raising / lowering, delaying, giving up or ending something
  (cancel, quit, drop, sell, retire, hand over, step down), and taking something up (get, buy, join,
  sign up, pick up, upgrade) — lemmas inflected by fact_cue_lexicon's regular rules, plus the cue
  rule's own verb tables;
- markers of a new state: now, these days, lately, from now on, no longer, new, this year / term
  (the cue rule's NOW phrases and NEW words, plus the chat forms "lately", "anymore", "adesso"), and a
  revert ("rolled back", "reverted", "back on": fact_cue_lexicon.REVERT_PHRASES).

Pure: words in, two booleans out; folded comparison (memengine.fact_lexicon.fold).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memengine import fact_cue_lexicon as C
from memengine.fact_cue_lexicon import en_forms, romance_forms
from memengine.fact_lexicon import fold

__all__ = ["CHANGE_WORDS", "NOW_WORDS", "change_words"]


def _romance(lang: str, block: str) -> set[str]:
    out: set[str] = set()
    for w in block.split():
        out |= romance_forms(lang, w)
    return out


_EN = ("change switch replace swap trade move raise lower increase decrease reduce cut bump hike drop "
       "ditch cancel quit stop end sell give hand pass retire resign leave kill dump delay postpone "
       "reschedule push slip extend shorten renew upgrade downgrade transfer relocate migrate convert "
       "buy join sign start begin pick adopt become turn fill "
       # doing it anew: "rewrote the app in Svelte", "ported the tests to Vitest", "rehosted the docs on Pages"
       "rewrite rebuild redo redesign reimplement port rehost replatform")
_EN_IRREGULAR = ("got gotten bought sold gave given left quit cut became went gone took taken began begun "
                 "stepped handed passed picked signed moved upped bumped dropped ditched cancelled canceled "
                 "killed dumped swapped switched traded retired resigned rewrote rewritten rebuilt redid redone")
_FR = _romance("fr", "changer remplacer echanger deplacer demenager augmenter baisser reduire arreter annuler "
                     "quitter vendre acheter passer decaler repousser reporter prolonger resilier abandonner "
                     "rejoindre commencer adopter devenir transferer basculer troquer reecrire refaire") | {
    "reecrit", "reecrite", "refait", "refaite"}
_ES = _romance("es", "cambiar reemplazar sustituir mover mudar subir bajar aumentar reducir dejar cancelar "
                     "vender comprar pasar aplazar posponer retrasar trasladar abandonar unir empezar "
                     "comenzar adoptar transferir reescribir rehacer") | {"reescrito", "rehecho", "rehicimos"}
_PT = _romance("pt", "mudar trocar substituir aumentar baixar reduzir deixar cancelar vender comprar passar "
                     "adiar atrasar transferir abandonar comecar sair entrar largar reescrever refazer") | {
    "reescrito", "refeito", "refizemos"}
_IT = _romance("es", "cambiar spostar passar lasciar vender comprar aumentar abbassar cancellar") | {
    "cambiato", "cambiata", "spostato", "spostata", "passato", "passata", "lasciato", "lasciata", "venduto",
    "venduta", "comprato", "comprata", "aumentato", "abbassato", "cancellato", "nuovo", "nuova", "riscritto",
    "riscritta", "rifatto", "rifatta"}
_DE = {fold(w) for w in (
    "gewechselt gewechselt wechseln geandert verschoben verlegt umgezogen gezogen ersetzt getauscht erhoht "
    "gesenkt gekurzt gekundigt verkauft gekauft abgegeben aufgegeben ubernommen ubergeben angefangen "
    "aufgehort verlassen beigetreten umgestiegen umgestellt abgemeldet angemeldet abgeschafft storniert "
    "zugemacht neu neue neuer neues neuen umgeschrieben neugeschrieben portiert").split()}
_IRREGULAR = {"dejo", "deje", "dejamos", "sai", "saiu", "saimos", "vendi", "vendio",
              "vendeu", "troquei", "trocou", "cancelei", "cancelou", "pasamos", "paso", "passou", "passei"}

CHANGE_WORDS: frozenset[str] = frozenset(
    {f for w in _EN.split() for f in en_forms(w)} | set(_EN_IRREGULAR.split()) | _FR | _ES | _PT | _IT | _DE
    | _IRREGULAR | set(C.CHANGE_VERBS) | set(C.MOTION_VERBS) | set(C.HOLDER_VERBS) | set(C.LEAVE_VERBS)
    | set(C.LEAVE_VERBS_LAST) | set(C.HABIT_VERBS) | set(C.CHANGE_NOUNS)
) - {"end", "pass", "turn", "start", "give", "fill", "a", "e", "o", "es", "er", "passe",
    # another common word first: "são" (are), "une" / "uno" (a, one), "bajo" (under), "hand" (the noun)
    "sao", "une", "unen", "unes", "uno", "uni", "bajo", "hand", "foi", "fui"}
# One-word markers of a new state (the cue rule's phrases of one word, plus chat forms); phrases below.
NOW_WORDS: frozenset[str] = frozenset(
    {p for p in C.NOW_PHRASES + C.REVERT_PHRASES if " " not in p} | set(C.NEW_WORDS)
    | {"lately", "recently", "currently", "anymore", "adesso", "ora", "ormai", "nuovo", "nuova", "ultimamente",
       "dernierement", "recemment", "ahorita", "actualmente", "atualmente", "derzeit", "aktuell"}
) - {"again", "wieder", "finalement", "finalmente"}
_NOW_PHRASES = tuple(p for p in C.NOW_PHRASES + C.REVERT_PHRASES if " " in p) + (
    "this year", "this term", "this semester", "this season", "from now", "cette annee", "este ano", "este año",
    "dieses jahr", "quest anno", "da ora", "d ora in poi", "a partir de", "ab sofort")
_WORD = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    return tuple(fold(w).replace("ß", "ss") for w in _WORD.findall(text.lower()))


def change_words(old: str, new: str) -> tuple[bool, bool]:
    """Whether ``new`` holds (a) a change verb and (b) a marker of a new state that ``old`` does not."""
    a, b = set(_words(old)), _words(new)
    verb = any(w in CHANGE_WORDS and w not in a for w in b)
    joined, old_joined = " " + " ".join(b) + " ", " " + " ".join(_words(old)) + " "
    now = any(w in NOW_WORDS and w not in a for w in b) or any(
        f" {p} " in joined and f" {p} " not in old_joined for p in _NOW_PHRASES)
    return verb, now
