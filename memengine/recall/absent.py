"""Question words no memory holds, read by the model alone (issue 19, round 14).

A question may ask by a role or category the chat never says ("what's the dog sitter's name?" over
"Marta next door said she'd pop in and feed Biscuit"; "which surgeon did Papa's cataract operation?" over
"Kulkarni says the new lens is in"). The keyword side cannot match such a word, and in the question's
vector it is diluted by the words the store does hold ("Papa", "cataract"), whose turns then rank above
the one the question is about. Here the words of the question that no memory holds (document frequency 0
in every indexed column) are embedded apart, and each candidate's cosine to them is returned; the fusion
adds a share of it to the candidate's vector score (``RecallConfig.w_absent``).

``mode`` "words": each absent word embedded alone, a candidate's best cosine to any of them; "rest": the
question with every word the store holds taken out, embedded once. Gates after a colon: ":who" only for a
question asking for someone or something by name (its wh-word: who, which, whose, their kin in the
languages the importers read, or "name"); ":named" the bonus only for a candidate that names someone
other than its author (a capitalised word that is no word of the question).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from memengine.recall.counter import asked_kinds
from memengine.recall.instances import names_in
from memengine.recall.parts import MAX_CUT, MIN_PART, MIN_WORD
from memengine.text import STOPWORDS, TOKEN_RE, bare_text, fts_tokens

MIN_LETTERS = 3  # shorter tokens ("ok", "cv") are no role or category a model reads alone
MAX_WORDS = 3  # absent words embedded per question (each ~1.5 ms CPU the first time a process sees it)
CACHE_WORDS = 4096  # word vectors kept per process: a word asked again costs nothing
_vectors: dict[tuple[str, str], Any] = {}
# wh-words asking for an entity by name: closed-class words of the languages the importers read, no categories
ASKS_WHO = frozenset("""who whom whose which name named called wer wen wem wessen welche welcher welches welchen
welchem qui quel quelle quels quelles lequel laquelle chi quale quali quién quiénes cuál cuáles quem qual quais
wie welke welk vem vilken vilket vilka kto kogo komu kim który która które którego której których""".split())


def asks_who(query: str) -> bool:
    """Whether ``query`` asks for someone or something by name: a wh-word of ``ASKS_WHO``, and no value kind
    asked ("which day", "à quelle heure", "quanto costa": a time, a date, an amount is no one's name)."""
    if not any(w.lower().split("'")[0] in ASKS_WHO for w in TOKEN_RE.findall(query)):
        return False
    return asked_kinds(query) is None


def names_someone(content: str, author: str | None, asked: Collection[str]) -> bool:
    """Whether a text names someone or something other than its author: a capitalised word (not a stop
    word, not a word of the question)."""
    who = {p.lower() for p in TOKEN_RE.findall(author or "")}
    words, _ = names_in(bare_text(content, author))
    for w in words:
        key = w.lstrip("~").lower().split("'")[0].split("’")[0]
        if key not in who and key not in asked and key not in STOPWORDS:
            return True
    return False


class Room(Protocol):
    """What this step reads of the store."""

    @property
    def embedder(self) -> Any: ...

    @property
    def conn(self) -> Any: ...

    def doc_shares(self, terms: list[str], column: str | None = None,
                   upto: int | None = None) -> dict[str, float]: ...

    def embed_or_none(self, texts: list[str], query: bool = False) -> Any: ...

    def cosines(self, vec: Any, ids: list[int], table: str = "vec_memories") -> dict[int, float]: ...


def held_in_some_form(conn: Any, stem: str) -> bool:
    """Whether the index holds a word (as ``stem``, the index's own spelling of a question word no memory
    holds) in another form: an indexed word begins with the stem or with a head of it at most ``MAX_CUT``
    letters shorter and ``MIN_PART`` long ("delivers" -> "deliv" begins "deliveri", the store's "delivery";
    "supplier" -> "suppli", its "supplies"), or, for a word of ``MIN_WORD`` letters or more, a tail of
    ``MIN_PART`` letters is an indexed word (a compound: "rijinstructeur" / "instructeur"; parts.py).
    Each head is one range read of the vocabulary stopping at its first term, each tail one equality
    lookup."""
    for cut in range(0, MAX_CUT + 1):
        head = stem[:len(stem) - cut]
        if len(head) < MIN_PART:
            break
        if conn.execute("SELECT 1 FROM temp.mem_vocab_row WHERE term >= ? AND term < ? LIMIT 1",
                        (head, head + "\U0010ffff")).fetchone():
            return True
    if len(stem) >= MIN_WORD:
        for start in range(1, len(stem) - MIN_PART + 1):
            if conn.execute("SELECT 1 FROM temp.mem_vocab_row WHERE term = ?", (stem[start:],)).fetchone():
                return True
    return False


def absent_words(st: Room, terms: Sequence[str]) -> list[str]:
    """The question's content words (``terms``) that no memory holds in any indexed column, in any form
    (:func:`held_in_some_form`: a word held only as another inflection or a compound's part is no role
    the chat never says; counted absent, it pulled the wrong turns up on the lead's blind chats)."""
    words = [t for t in terms if len(t) >= MIN_LETTERS and t.isalpha()]
    if not words:
        return []
    shares = st.doc_shares(words, upto=0)  # (held or not: counted up to one memory, keyword.py)
    missing = [t for t in words if shares.get(t, 1.0) == 0.0]
    if not missing:
        return missing
    conn = st.conn
    # (doc_shares made the vocabulary table: keyword.py's _df_state)
    return [t for t, stems in zip(missing, fts_tokens(conn, missing))
            if not (len(stems) == 1 and held_in_some_form(conn, stems[0]))]


def rest_of(query: str, held: Collection[str]) -> str:
    """``query`` with its words the store holds (``held``, lower case) taken out."""
    kept = [w for w in TOKEN_RE.findall(query) if w.lower().split("'")[0] not in held]
    return " ".join(kept)


def _word_vectors(st: Room, words: Sequence[str]) -> list[Any] | None:
    """The vectors of ``words``, each embedded alone (batched, MiniLM pads every word to the longest and
    costs more than one call each), kept per process and model."""
    model = str(getattr(st.embedder, "model_id", ""))
    out = []
    for w in words:
        vec = _vectors.get((model, w))
        if vec is None:
            got = st.embed_or_none([w], query=True)
            if got is None:
                return None
            if len(_vectors) >= CACHE_WORDS:
                _vectors.clear()
            vec = _vectors[(model, w)] = got[0]
        out.append(vec)
    return out


def absent_probe(st: Room, query: str, terms: Sequence[str], cand: Collection[int], mode: str) -> dict[int, float]:
    """memory id -> cosine of the candidate to what the question says in words no memory holds
    ({} when every word is held, or no vectors)."""
    mode, *gates = mode.split(":")
    if not cand or ("who" in gates and not asks_who(query)):
        return {}
    absent = absent_words(st, terms)
    if not absent:
        return {}
    if mode == "rest":
        held = {t for t in terms if t not in absent}
        if not held:  # nothing to take out: the question's own vector
            return {}
        vecs = st.embed_or_none([rest_of(query, held)], query=True)
    else:
        vecs = _word_vectors(st, absent[:MAX_WORDS])
    if vecs is None:
        return {}
    ids = sorted(cand)
    best: dict[int, float] = {}
    for v in vecs:
        for mid, cos in st.cosines(v, ids).items():
            if cos > best.get(mid, -1.0):
                best[mid] = cos
    return best
