"""Parts of a question word the store never holds: compounds and inflections of languages the stemmer does not
know (issue 19, round 13).

The keyword index stems English only (FTS5's porter). A Dutch, German or Swedish question word is often a
compound or an inflection of what the chat says: "energieleverancier" / "de nieuwe leverancier", "rijexamen"
/ "een examen", "planeringsdagen" / "planeringsdag", "veterinärbesöket" / "veterinären". Such a word matches
no memory at all, so it adds nothing to the keyword side.

For each question word of ``MIN_WORD`` letters or more that no memory holds (its document count is 0), the
index's own vocabulary (``fts5vocab``) is asked for its longest *head* (a prefix of ``MIN_PART`` letters or
more, ``MAX_CUT`` letters shorter at most, that begins some indexed word: searched as a prefix) and its
longest *tail* (a suffix of ``MIN_PART`` letters or more that is an indexed word), each when in at most
``PART_DOCS`` memories. They are searched apart (bm25, FTS5) and their score added to each memory's keyword
score, as if they had been words of the question (bm25 adds up over the words of an OR query). Each part is
one vocabulary range or equality lookup per length tried; a question whose words are all in the store pays
one document-count lookup per word (cached 30 s).

``word_endings`` (round 19): a question word the store holds only in another ending ("zimnej wody" / "woda
zimna"), searched in the endings the index holds of its longest head, for a question in a language the
embedding model does not read (most of its words are not whole words of the model's vocabulary).
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any

from memengine.text import fts_tokens, quote_fts

MIN_WORD = 8  # shorter words are not compounds, and their prefixes match too much
MIN_PART = 5  # "examen", "leverancier", "planeringsdag"; never "el", "rij", "zorg"
MAX_CUT = 4  # a head keeps all but at most this many letters: an inflection ("-en", "-et", "-ene"), not a stem
# a part in more memories than this is left out: it discriminates little, and its postings are what the search
# reads (the parts are searched by FTS5 apart from the question's words, which the in-process index answers)
PART_DOCS = 200


def _vocab(conn: Any) -> None:
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mem_vocab_row USING fts5vocab(main, memories_fts, row)")


def _prefix_docs(conn: Any, head: str) -> int:
    """Memories holding a word that begins with ``head`` (summed over at most 20 such words: a bound, and
    an overcount when one memory holds two of them), 0 for none: one range read of the vocabulary."""
    row = conn.execute("SELECT sum(doc) FROM (SELECT doc FROM temp.mem_vocab_row WHERE term >= ? AND term < ? "
                       "LIMIT 20)", (head, head + "\U0010ffff")).fetchone()
    return int(row[0] or 0)


def _word_docs(conn: Any, word: str) -> int:
    row = conn.execute("SELECT doc FROM temp.mem_vocab_row WHERE term = ?", (word,)).fetchone()
    return int(row[0]) if row else 0


def parts_of(conn: Any, word: str) -> list[str]:
    """FTS5 expressions for the head and tail of ``word`` (as the index spells words: lower case, accents
    removed), longest first; none for a word the index holds or too short to be a compound."""
    if len(word) < MIN_WORD:
        return []
    out: list[str] = []
    for cut in range(1, MAX_CUT + 1):
        head = word[:-cut]
        if len(head) < MIN_PART:
            break
        docs = _prefix_docs(conn, head)
        if docs:
            if docs <= PART_DOCS:
                out.append(quote_fts(head) + " *")
            break
    for start in range(1, len(word) - MIN_PART + 1):
        tail = word[start:]
        docs = _word_docs(conn, tail)
        if docs:
            if docs <= PART_DOCS:
                out.append(quote_fts(tail))
            break
    return out


def word_parts(conn: Any, terms: Sequence[str], shares: dict[str, float]) -> list[str]:
    """The parts (FTS5 expressions) of the question's ``terms`` that no memory holds (``shares`` 0)."""
    missing = [t for t in terms if len(t) >= MIN_WORD and shares.get(t, 1.0) == 0.0]
    if not missing:
        return []
    _vocab(conn)
    out: list[str] = []
    for toks in fts_tokens(conn, missing):
        if len(toks) == 1:  # (a word the tokenizer splits is no compound of one word)
            out += [p for p in parts_of(conn, toks[0]) if p not in out]
    return out


# ---------------------------------------------------------------- other endings of a held word (round 19)
# A question word the store holds in another ending only: "zimnej wody" / "woda zimna", "studenten" / "Elsas
# student", "co mu pękło" / "pękł wąż" -- inflections of languages the English stemmer does not know, where the
# word itself is not absent (so ``word_parts`` leaves it) or too short to be read as a compound.
STEM_WORD = 5  # shorter words' heads (3 letters) match unrelated words
STEM_HEAD = 4  # "zimn" (zimnej / zimna), "pekl" (pękło / pękł)
STEM_CUT = 3  # an ending of at most three letters: "-ej", "-en", "-ade"; longer cuts reach other words
STEM_TERMS = 12  # a head beginning more indexed words than this is a common prefix, not one word's stem


def endings_of(conn: Any, stem: str) -> list[str]:
    """The indexed words (FTS5 expressions) that share ``stem``'s longest head (``STEM_CUT`` letters shorter at
    most, ``STEM_HEAD`` long at least) with any indexed word other than ``stem`` itself; none when that head begins
    more than ``STEM_TERMS`` words or they are in more than ``PART_DOCS`` memories. One range read per head."""
    if len(stem) < STEM_WORD or not stem.isalpha():
        return []
    for cut in range(1, STEM_CUT + 1):
        head = stem[:-cut]
        if len(head) < STEM_HEAD:
            break
        rows = conn.execute("SELECT term, doc FROM temp.mem_vocab_row WHERE term >= ? AND term < ? LIMIT ?",
                            (head, head + "\U0010ffff", STEM_TERMS + 2)).fetchall()
        others = [(str(t), int(d)) for t, d in rows if t != stem]
        if others:
            if len(others) <= STEM_TERMS and sum(d for _, d in others) <= PART_DOCS:
                return [quote_fts(t) for t, _ in others]
            return []
    return []


def model_words(embedder: Any) -> Container[str] | None:
    """The whole words of the embedding model's vocabulary (the shipped WordPiece tokenizer's), None when the
    model has none (a custom tokenizer, no embedder). Read from the embedder, which loads it for its own queries;
    its accessor is private to it, hence ``getattr``."""
    get = getattr(embedder, "_word_pieces", None)
    try:
        pieces = get() if callable(get) else None
    except Exception:  # an embedder that cannot load its tokenizer recalls by keywords; so does this step
        return None
    vocab = getattr(pieces, "vocab", None)
    return vocab if isinstance(vocab, dict) else None


def word_endings(conn: Any, terms: Sequence[str], known: Container[str] | None = None,
                 whole: bool = False) -> list[str]:
    """The other endings (FTS5 expressions) the index holds of the question's ``terms`` (``endings_of``), of
    the words not in ``known`` (the model's own words: English, whose endings the stemmer already folds; an
    English word's other "endings" are other words: "painting" / "paint", "share" / "shared"); with ``whole``,
    only when at least half the question's words are not in ``known`` (a question in a language the model does
    not read; an English question's rare words, "login", "sanitizes", are left as they are)."""
    words = [t for t in terms if len(t) >= STEM_WORD and (known is None or not t.isascii() or t not in known)]
    if whole and known is not None and 2 * sum(not t.isascii() or t not in known for t in terms) < len(terms):
        return []  # a question the model reads (most of its words are the model's): its rare words stay as they are
    if not words:
        return []
    _vocab(conn)
    out: list[str] = []
    for toks in fts_tokens(conn, words):
        if len(toks) == 1:
            out += [e for e in endings_of(conn, toks[0]) if e not in out]
    return out


# ---------------------------------------------------------------- shortened words (round 51)
# People shorten words in chats: "ref" for "reference", "info", "pics", "hosp", "physio", "approx"; and ask with the
# short form of what a chat writes out ("the final inv", "gran"). A question word no memory holds is searched by
# what the index holds of it: ``prefix`` the longest head of three letters or more (at least four letters shorter)
# that is an indexed word itself ("ref" of "reference", "pic" of "pictures"); ``both`` that, and for a short
# question word (3-5 letters) no memory holds, the indexed words it begins (an FTS5 prefix query: "inv" ->
# "invoice"), when they are few. Vocabulary-driven: no list of abbreviations, no language read.
SHORT_MIN = 3  # "ref", "pic", "inv": shorter heads are most words' beginnings
# the head drops more letters than an ending has (STEM_CUT: "kost" of "kostar", "dagis" of "dagiset" are other
# endings of one word, which ``word_endings`` reads): "ref" of "reference" drops 6, "hosp" of "hospital" 4
SHORT_KEEP = STEM_CUT + 1
SHORT_WORD = 5  # a question word this long at most may be a short form of an indexed word
SHORT_TERMS = 4  # ... of at most this many indexed words (more: a common beginning, "con", "pre")
SHORT_DOCS = 50  # a head or a prefix in more memories than this is no one word's short form


def heads_of(conn: Any, word: str, known: Container[str] | None = None) -> list[str]:
    """The longest head of ``word`` (an index spelling) that is an indexed word in at most ``SHORT_DOCS``
    memories, as an FTS5 expression; none when no head is held. A head whose rest is a word of ``known`` (the
    model's words), or one letter on, is a compound's part, not a short form ("new(s)" of "newspaper"): none then.
    One equality lookup per length tried."""
    for n in range(len(word) - SHORT_KEEP, SHORT_MIN - 1, -1):
        docs = _word_docs(conn, word[:n])
        # (the index holds "news" as its stem "new": the rest is tried one letter on too)
        if docs and known is not None and any(len(rest) >= 4 and rest in known for rest in (word[n:], word[n + 1:])):
            return []
        if docs:
            return [quote_fts(word[:n])] if docs <= SHORT_DOCS else []
    return []


def longer_of(conn: Any, word: str) -> list[str]:
    """The indexed words ``word`` begins (other than itself), as one FTS5 prefix expression, when they are at
    most ``SHORT_TERMS`` in at most ``SHORT_DOCS`` memories; none otherwise. One range read."""
    if not SHORT_MIN <= len(word) <= SHORT_WORD or not word.isalpha():
        return []
    rows = conn.execute("SELECT term, doc FROM temp.mem_vocab_row WHERE term > ? AND term < ? LIMIT ?",
                        (word, word + "\U0010ffff", SHORT_TERMS + 1)).fetchall()
    if not rows or len(rows) > SHORT_TERMS or sum(int(d) for _, d in rows) > SHORT_DOCS:
        return []
    return [quote_fts(word) + " *"]


SHORT_MODES = ("prefix", "both", "model", "modelboth")


def short_forms(conn: Any, words: Sequence[str], shares: dict[str, float], mode: str,
                known: Container[str] | None = None) -> list[str]:
    """FTS5 expressions for the question's ``words`` (as written, lower case) no memory holds (``shares`` 0 by
    their own spelling): their heads the index holds (:func:`heads_of`), and with ``mode`` "both" the longer
    words a short one begins (:func:`longer_of`). "model" / "modelboth": only words of ``known`` (the embedding
    model's whole words: a word the model reads, so an absent one is said otherwise, not inflected otherwise —
    the other endings of the words it does not read are ``word_endings``'s). ``known`` also tells a compound's
    head from a short form (:func:`heads_of`)."""
    if mode not in SHORT_MODES or (mode.startswith("model") and known is None):
        return []
    missing = [w for w in words if len(w) >= SHORT_MIN and w.isalpha() and shares.get(w, 1.0) == 0.0
               and (not mode.startswith("model") or known is None or w in known)]
    if not missing:
        return []
    _vocab(conn)
    out: list[str] = []
    for word in missing:
        got = heads_of(conn, word, known) if len(word) >= SHORT_MIN + SHORT_KEEP else []
        if mode.endswith("both") and not got:
            got = longer_of(conn, word)
        out += [g for g in got if g not in out]
    return out
