"""A cold call's tokenizer vocabulary read from the copy an earlier process kept (memengine/wordpiece.py
``_kept``/``_keep``): the same vocabulary and special ids as parsing tokenizer.json, the same ids for every
text; a damaged, foreign or outdated copy is never used."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from memengine import wordpiece
from memengine.wordpiece import WordPiece, kept_path

SHIPPED = Path(__file__).resolve().parent.parent / "models" / "tokenizer.json"
TEXTS = ("Ana moved to Lisbon in May", "the standup is at 9:30 on Tuesdays!", "unbelievably-long-compound words",
         "x" * 150, "", "C3PO's hyperparameter re-tuning, 2024-05-01")


def _fields(wp: WordPiece) -> tuple[object, ...]:
    return wp.vocab, list(wp.vocab), wp.unk, wp.prefix, wp.max_chars, wp.cls, wp.sep


def test_the_kept_vocabulary_is_the_parsed_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = WordPiece(SHIPPED)
    first = WordPiece(SHIPPED, tmp_path)  # parses, and keeps the copy
    assert kept_path(SHIPPED, tmp_path).is_file()

    def no_parse(path: Path) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(wordpiece, "_parsed", no_parse)
    kept = WordPiece(SHIPPED, tmp_path)  # from the copy
    assert _fields(kept) == _fields(first) == _fields(parsed)
    for text in TEXTS:
        assert kept.ids(text, 256) == parsed.ids(text, 256)
        assert kept.count(text) == parsed.count(text)


def test_a_damaged_copy_is_parsed_again_and_replaced(tmp_path: Path) -> None:
    WordPiece(SHIPPED, tmp_path)
    copy = kept_path(SHIPPED, tmp_path)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    assert wordpiece._kept(SHIPPED, tmp_path) is None  # the CRC sees it
    assert _fields(WordPiece(SHIPPED, tmp_path)) == _fields(WordPiece(SHIPPED))
    assert wordpiece._kept(SHIPPED, tmp_path) is not None  # written whole again
    copy.write_bytes(b"")
    assert _fields(WordPiece(SHIPPED, tmp_path)) == _fields(WordPiece(SHIPPED))


def test_a_changed_tokenizer_file_is_read_anew(tmp_path: Path) -> None:
    tok = tmp_path / "tokenizer.json"
    shutil.copyfile(SHIPPED, tok)
    cache = tmp_path / "cache"
    WordPiece(tok, cache)
    before = kept_path(tok, cache)
    text = tok.read_text(encoding="utf-8").replace('"lisbon"', '"lisbonx"')
    tok.write_text(text, encoding="utf-8")
    os.utime(tok, ns=(tok.stat().st_atime_ns, tok.stat().st_mtime_ns + 1_000_000_000))
    assert kept_path(tok, cache) != before
    changed = WordPiece(tok, cache)
    assert "lisbonx" in changed.vocab and "lisbon" not in changed.vocab


def test_an_unwritable_cache_dir_costs_only_the_parse(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert _fields(WordPiece(SHIPPED, blocker / "cache")) == _fields(WordPiece(SHIPPED))
