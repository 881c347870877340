"""BERT WordPiece ids of ASCII text in pure Python: the ids the shipped ``tokenizer.json`` gives, without
loading ``tokenizers`` (its import and the 30k-entry vocabulary's build cost a cold recall ~35 ms of CPU,
more than the query's whole embedding).

Only for what it reproduces exactly (tests/test_wordpiece.py checks it against ``tokenizers`` on LoCoMo,
generated ASCII text, control characters, long words and truncation): ASCII text with no ``[`` (the
special tokens ``[CLS]``, ``[MASK]``... are matched in the raw text; a bracket sends the text to
``tokenizers``). The pipeline is tokenizer.json's: BertNormalizer (control characters dropped, ``\\t\\n\\r``
as spaces, lower case), BertPreTokenizer (split at spaces, each punctuation character a word of its own),
WordPiece (greedy longest match, ``##`` continuations, a word past 100 characters or with no match is
``[UNK]``), ``[CLS] ... [SEP]`` with the word pieces cut to fit ``max_length``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from memengine.digests import sha1_hex  # (not hashlib: memengine/digests.py)

# After normalisation an ASCII text holds spaces, [0-9a-z] and punctuation only: words, or one mark each.
_PIECES = re.compile(r"[0-9a-z]+|[^0-9a-z ]")
# Dropped by BertNormalizer: control characters other than tab, newline and carriage return (which become
# spaces; it drops \x0b and \x0c as controls before it maps whitespace).
_DROPPED = (*range(0, 9), 11, 12, *range(14, 32), 127)
_SPACES = str.maketrans({"\t": " ", "\n": " ", "\r": " ", **{chr(c): None for c in _DROPPED}})


class WordPiece:
    """The vocabulary and special ids of a BERT ``tokenizer.json`` (WordPiece model, BertNormalizer with lower
    case, BertPreTokenizer, [CLS]/[SEP] template): ``ids`` of the texts it handles exactly."""

    def __init__(self, path: Path, cache_dir: Path | None = None) -> None:
        """Read ``path`` (tokenizer.json), or its copy in ``cache_dir`` made by an earlier process."""
        fields = _kept(Path(path), cache_dir) if cache_dir is not None else None
        if fields is None:
            fields = _parsed(Path(path))
            if cache_dir is not None:
                _keep(Path(path), cache_dir, fields)
        self.vocab: dict[str, int] = fields[0]
        self.unk, self.prefix, self.max_chars, self.cls, self.sep = fields[1:]

    @staticmethod
    def handles(text: str) -> bool:
        """Whether ``ids`` reproduces ``tokenizers`` on ``text`` (ASCII, no special token possible)."""
        return text.isascii() and "[" not in text

    def ids(self, text: str, max_length: int) -> list[int]:
        """``[CLS]`` + the word pieces of ``text`` (cut to ``max_length - 2``) + ``[SEP]``."""
        room = max_length - 2
        out = [self.cls]
        for word in _PIECES.findall(text.translate(_SPACES).lower()):
            out.extend(self._word(word))
            if len(out) > room:
                break
        del out[room + 1:]
        out.append(self.sep)
        return out

    def count(self, text: str) -> int | None:
        """How many word pieces ``text`` is, without ``[CLS]``/``[SEP]`` and uncut (a budget's count), or None
        when this cannot say exactly (``tokenizers`` then counts).

        Beyond ASCII: the normalizer strips accents (NFD, then the nonspacing marks dropped: lower case implies
        it when ``strip_accents`` is unset), and the pre-tokenizer makes each punctuation character (Unicode
        P*: "…", "—", "’") a word of its own, one piece whatever it is (in the vocabulary, or ``[UNK]``). So
        such a character counts 1 and splits the text like a space; a text that is ASCII after that is
        counted as ASCII. Anything else (ß, €, CJK, other spaces or controls) gives None.
        """
        extra = 0
        if not text.isascii():
            kept = []
            for c in unicodedata.normalize("NFD", text):
                if c.isascii():
                    kept.append(c)
                    continue
                cat = unicodedata.category(c)
                if cat == "Mn":
                    continue
                if not cat.startswith("P"):
                    return None
                kept.append(" ")
                extra += 1
            text = "".join(kept)
        if "[" in text:
            return None
        return len(self.ids(text, len(text) + 2)) - 2 + extra

    def _word(self, word: str) -> list[int]:
        """Greedy longest-match-first pieces of one word; [UNK] for the whole word if any part has none."""
        if len(word) > self.max_chars:
            return [self.unk]
        vocab, pieces, start, n = self.vocab, [], 0, len(word)
        while start < n:
            end = n
            while end > start:
                sub = word[start:end] if start == 0 else self.prefix + word[start:end]
                found = vocab.get(sub)
                if found is not None:
                    pieces.append(found)
                    break
                end -= 1
            else:
                return [self.unk]
            start = end
        return pieces


# A cold call that embeds parsed tokenizer.json (466 KB of JSON, ~8 ms of CPU) to get the 30k-word vocabulary;
# marshal reads the same dict back in ~3 ms. The copy is keyed by the file's path, size and modification time
# (as the model's checksum markers), checked by a CRC, and written whole through ``os.replace``.
_FORMAT = 1
_Fields = tuple[dict[str, int], int, str, int, int, int]


def kept_path(path: Path, cache_dir: Path) -> Path:
    """Where the vocabulary read from the tokenizer at ``path`` is kept in ``cache_dir``."""
    st = path.stat()
    key = sha1_hex(f"{path.resolve()}:{st.st_size}:{st.st_mtime_ns}:{_FORMAT}".encode())[:16]
    return cache_dir / f"wordpiece-{key}.marshal"


def _parsed(path: Path) -> _Fields:
    """The vocabulary, [UNK]'s id, the continuation prefix, the longest word, [CLS]'s and [SEP]'s ids."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    model, norm = spec["model"], spec.get("normalizer") or {}
    if model.get("type") != "WordPiece" or norm.get("type") != "BertNormalizer" or not norm.get("lowercase") \
            or (spec.get("pre_tokenizer") or {}).get("type") != "BertPreTokenizer":
        raise ValueError(f"{path}: not a lower-case BERT WordPiece tokenizer")
    vocab: dict[str, int] = model["vocab"]
    return (vocab, vocab[model["unk_token"]], model.get("continuing_subword_prefix", "##"),
            int(model.get("max_input_chars_per_word", 100)), vocab["[CLS]"], vocab["[SEP]"])


def _kept(path: Path, cache_dir: Path) -> _Fields | None:
    """The vocabulary and its special ids from the copy of ``path`` in ``cache_dir``; None when there is none
    (or it is damaged, or of another format)."""
    import marshal
    import zlib

    try:
        data = kept_path(path, cache_dir).read_bytes()
        payload = data[4:]
        if len(data) <= 4 or zlib.crc32(payload).to_bytes(4, "little") != data[:4]:
            return None
        fmt, vocab, unk, prefix, max_chars, cls, sep = marshal.loads(payload)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if fmt != _FORMAT or not isinstance(vocab, dict) or not all(isinstance(v, int) for v in (unk, max_chars, cls, sep)) \
            or not isinstance(prefix, str):
        return None
    return vocab, unk, prefix, max_chars, cls, sep


def _keep(path: Path, cache_dir: Path, fields: _Fields) -> None:
    """Write the copy (never raises: a read-only or full cache dir only costs the parse next time)."""
    import marshal
    import os
    import zlib

    try:
        target = kept_path(path, cache_dir)
        payload = marshal.dumps((_FORMAT, *fields))
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(zlib.crc32(payload).to_bytes(4, "little") + payload)
        os.replace(tmp, target)
    except (OSError, ValueError):
        pass
