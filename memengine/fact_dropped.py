"""A recurring event renamed shorter when it changes: "Mum's physio appointment is on Tuesdays"
/ "Physio appointment has been changed to Wednesdays", "Our weekly team sync ..." / "Team sync
has been moved to Thursdays".

memengine/facts.py reads a word only one subject has as another subject ("Lena's sister",
"the admin gateway"), which keeps two things apart. But a change announced with a change verb
names its thing with the shortest phrase that still points at it: the old fact's possessor
("Mum's", "the kids'", "de ma fille") and its frequency ("weekly", "hebdomadaire") are
dropped, not replaced. :func:`droppable` says when the old subject's extra words are only that:

- ``new`` states a change with a change verb (memengine/fact_change.py: "has been moved to",
  "wurde verschoben", "a été déplacée") and names no owner of its own (no possessive, no "'s",
  no "of / de / von" + a word ``old`` lacks: "my son's piano lesson" is another lesson);
- each extra word of ``old``'s subject is a possessor (a word followed by "'s" or ending in
  "'", or after "of / de / von") or a frequency adjective.

Pure: no SQL, no I/O.
"""

from __future__ import annotations

from memengine import fact_scope
from memengine.fact_cue_lexicon import KIN
from memengine.fact_lexicon import _set, fold
from memengine.fact_tokens import prepare, read_tokens
from memengine.fact_view import Fact

__all__ = ["droppable"]

FREQUENCY = _set(
    "weekly monthly daily yearly annual biweekly fortnightly regular usual",
    "hebdomadaire hebdomadaires mensuel mensuelle mensuels mensuelles quotidien quotidienne annuel annuelle habituel "
    "habituelle",
    "semanal semanales mensual mensuales diario diaria anual habitual quincenal",
    "wochentlich wochentliche wochentlicher wochentliches wochentlichen monatlich monatliche monatlicher "
    "monatliches monatlichen taglich tagliche taglicher tagliches taglichen jahrlich jahrliche ubliche ublicher",
    "semanal semanais mensal mensais diario diaria anual habitual quinzenal",
    "settimanale settimanali mensile mensili quotidiano quotidiana giornaliero annuale abituale",
)
POSSESSIVES = _set(
    "my our your his her their",
    "mon ma mes notre nos votre vos son sa ses leur leurs",
    "mi mis nuestro nuestra nuestros nuestras tu tus su sus",
    "mein meine meinen meinem meiner meines unser unsere unseren unserem unserer unseres dein deine sein seine "
    "seinen seinem seiner ihr ihre ihren ihrem ihrer",
    "meu minha meus minhas nosso nossa nossos nossas teu tua seu sua seus suas dele dela deles delas",
    "mio mia miei mie nostro nostra nostri nostre tuo tua suo sua suoi sue",
)
GENITIVE = _set("of", "de d du des", "de del", "von vom", "de do da dos das", "di del della dei degli delle")
_GENITIVE_ARTICLES = _set("der des meiner meines unserer unseres")
ARTICLES = _set("the", "le la les l", "el la los las", "der die das den dem des", "o a os as", "il lo la i gli le l")


def _owned(text: str) -> bool:
    """Whether a sentence names an owner: a possessive determiner, "'s", a word ending in "'"."""
    for t in read_tokens(prepare(text), text):
        if t.kind != "word":
            continue
        if t.role == "poss" or t.text.endswith("'") or fold(t.low) in POSSESSIVES:
            return True
    return False


def droppable(fa: Fact, idx: list[int], fb: Fact, change_verb: bool = True) -> bool:
    """Whether ``fa``'s words ``idx`` (in its subject, absent from ``fb``) are only a possessor or
    a frequency that ``fb``, a change told with a change verb and no owner of its own, dropped.
    ``change_verb=False``: ``fb`` may state its value plainly ("school starts at 8:40"); it must then
    name no owner at all, not even a first person ("my rent is 950" after "my sister's rent")."""
    if not idx or change_verb and fb.change != "verb" or _owned(fb.text):
        return False
    if not change_verb and any(k in fact_scope.FIRST_PERSON for k in fb.keys):
        return False
    toks = read_tokens(prepare(fa.text), fa.text)
    kept = [i for i in range(len(fa.words)) if i < fa.subject_end and i not in idx]
    if not kept:
        return False  # nothing of the subject is left to name the thing
    for i in idx:
        w = fa.words[i]
        p = w.pos
        if p >= len(toks) or toks[p].text != w.text:
            return False  # (tokens reordered: a role sentence, not an event)
        if w.key in FREQUENCY and change_verb:  # ("The weekly yoga class" / "La clase de yoga de los martes")
            continue
        nxt = toks[p + 1] if p + 1 < len(toks) else None
        owned_next = p + 2 < len(toks) and toks[p + 2].kind == "word"  # ("Bedtime's 8:30": "'s" is "is")
        if nxt is not None and nxt.role == "poss" and owned_next or toks[p].text.endswith("'"):
            continue  # "Mum's", "the kids'"
        j, owned = p - 1, w.name or w.key in KIN  # ("de los niños": a kinship word owns)
        while j >= 0 and toks[j].kind == "word" and fold(toks[j].low) in POSSESSIVES | ARTICLES:
            owned = owned or fold(toks[j].low) in POSSESSIVES
            j -= 1
        if owned and j >= 0 and toks[j].kind == "word" and fold(toks[j].low) in GENITIVE and any(
                fa.words[k].pos < j for k in kept):
            continue  # "la clase de yoga de mi hija", "le cours de Léa": someone's, hung on the thing
        if w.key in KIN and j == p - 2 and fold(toks[p - 1].low) in _GENITIVE_ARTICLES and any(
                fa.words[k].pos == j for k in kept):
            continue  # German: "das Taschengeld der Kinder", "der Kurs meiner Tochter"
        return False
    return True
