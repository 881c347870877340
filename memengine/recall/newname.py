"""A chat turn that first names someone or something, for a question asking which one (issue 19, round 32).

People ask of their own chats "who cleans the stairs now?", "which bank is Inès with?", "where did we end up
booking?"; the turn that answers is where the name entered the chat: "a Lurdes começa segunda", "compte ouvert chez
Boursorama", "found another place, Quinta Real on Bandera Rd". It often shares no word with the question, and in a
language the model reads poorly its cosine is near every other turn's. On the held-out chat sets 19–28, 64 % of the
evidence turns of wh-questions introduce a name their chat had not said before, against 15–20 % of the turns of a
long chat (bench/README.md, "Round 32").

So, for a question opening with a wh-word (``gate``: "who" for who / which / whose and their kin in the languages
recall reads, "wh" for any wh-word), each chat turn of the first ``depth`` of the fused ranking that says a name its
thread has not said before gets ``weight`` × (the first score − the score at ``depth``) added, and the first
``depth`` are re-sorted; with ``gate`` + ":rare" the lift is scaled by the share of the head's turns that do NOT first
say a name (in an assistant export nearly every prompt names something new: there it tells little). A turn asking something ("Quelle est la molécule de Vivald ?", "shall I design a smart
Pokeball?") tells no news: it is left as it is. A name is a capitalised word inside a turn (not the one a keyboard capitalises at a
sentence's start), never the turn's author, a word of the question, or an acronym; whether its thread said it before
is one keyword-index read of the name's few postings just below the turn. Nothing is stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memengine.records import Candidate

# wh-words asking for a name (who, which, whose) in the languages recall reads; "wh" adds the rest (what, where, ...)
_WHO = re.compile(r"^\W*(?:who|whom|whose|which|wer|wen|wem|wessen|welche[rsnm]?|quem|qual|quais|quién|quiénes|"
                  r"cuál|cuáles|chi|quale|quali|qui|quel|quelle|quels|quelles|lequel|laquelle|wie|welk|welke|"
                  r"hvem|hvilken|hvilket|hvilke|vem|vilken|vilket|vilka|kto|który|która|które|którzy|kim|czyj\w*)\b",
                  re.I)
_WH = re.compile(r"^\W*(?:what|where|was|wo|wohin|woher|o\s+que|que|onde|qué|dónde|cosa|che|dove|quoi|où|wat|waar|"
                 r"hva|hvor|vad|var|co|gdzie|jaki\w*|jak\w*)\b", re.I)
# Not a name asked: an amount, a price, a time or a duration ("wie viel", "hvor mye", "what was its price"), or who
# SAID something (the answer is the turn's author, whom no name in it points to)
_NOT_A_NAME = re.compile(r"\b(?:how|much|many|long|often|price|cost|costs|kost\w*|viel\w*|lange?|oft|teuer|cuánt\w*|"
                         r"cuanto|precio|quant[oaie]s?|preço|combien|prix|hoeveel|prijs|mye|mange|lenge|ofte|pris|"
                         r"ile|cena|kiedy|when|wann|cuándo|quando|quand|wanneer|når|time|tid|hora|ora|heure|tijd)\b|"
                         r"^\W*who\s+(?:said|asked|told|wrote|mentioned|suggested|proposed|offered|shared|sent|"
                         r"posted|replied|answered|agreed|complained|invited)\b", re.I)
# A capitalised word (letters of any script with case, an apostrophe or hyphen inside)
_CAPWORD = re.compile(r"(?<![\w'’-])[A-ZÀ-ÖØ-ÞĀ-ſ][\w'’-]*")
TURN_WORDS = 40  # a chat turn; a longer text (an assistant's answer, a note) names its topics, not news


def asks_which(query: str, gate: str) -> bool:
    """Whether ``query`` opens with a wh-word of ``gate`` ("who": asks for a name; "wh": any wh-word) and asks
    for no amount, time or speaker."""
    if _NOT_A_NAME.search(query):
        return False
    if _WHO.search(query):
        return True
    return gate == "wh" and _WH.search(query) is not None


def names_said(text: str, author: str | None, asked: set[str]) -> list[str]:
    """Capitalised words inside ``text`` (one after a sentence's start is the keyboard's, not a name), minus the
    author's names, the question's words and acronyms."""
    body = text[len(author) + 2:] if author and text.startswith(f"{author}: ") else text
    if len(body.split()) > TURN_WORDS:
        return []
    mine = {w.lower() for w in (author or "").split()}
    out = []
    for m in _CAPWORD.finditer(body):
        w = m.group(0).rstrip("'’-")
        before = body[: m.start()].rstrip()
        if not before or not (before[-1].isalnum() or before[-1] == ","):
            continue  # a sentence's first word
        low = w.lower()
        if len(w) < 3 or w.isupper() or any(ch.isdigit() for ch in w) or low in mine or low in asked:
            continue
        out.append(w)
    return list(dict.fromkeys(out))


def new_names_first(scored: list[Candidate], depth: int, query: str, gate: str, weight: float,
                    said_earlier: Callable[[Candidate, str], bool], asked: Sequence[str]) -> list[Candidate]:
    """``scored`` with each of its first ``depth`` chat turns that first says a name raised by ``weight`` × the
    spread of the first ``depth`` scores, those re-sorted (the rest untouched: a list for k is the head of the list
    for any larger k up to ``depth``)."""
    gate, _, how = gate.partition(":")
    rare = how == "rare"
    if weight <= 0 or len(scored) < 2 or not asks_which(query, gate):
        return scored
    head = scored[:depth]
    spread = (head[0].score or 0.0) - (head[-1].score or 0.0)
    if spread <= 0:
        return scored
    words = {w.lower() for w in asked}
    lifted, read = [], 0
    for c in head:
        if c.thread is None or c.position is None or "?" in c.content:
            continue  # no order to say "before" in (a note stored live); a name asked about is no news told
        read += 1
        if any(not said_earlier(c, n) for n in names_said(c.content, c.author, words)):
            lifted.append(c)
    if not lifted:
        return scored
    if rare:
        # where most turns of the head first say a name (an assistant export's prompts, each naming new things),
        # first saying one tells little: the lift shrinks with the share of them
        weight *= 1.0 - len(lifted) / read
    for c in lifted:
        c.score = (c.score or 0.0) + weight * spread
    return sorted(head, key=lambda c: (-(c.score or 0.0), c.id)) + scored[depth:]
