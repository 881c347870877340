"""memengine/wordpiece.py: the ids of the shipped tokenizer.json without `tokenizers`, for the texts it handles;
the embedder uses it for those and `tokenizers` for the rest, with the same vectors."""

from __future__ import annotations

import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer

from memengine.wordpiece import WordPiece

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "models" / "tokenizer.json"
MAX = 256


@pytest.fixture(scope="module")
def pair() -> tuple[WordPiece, Tokenizer]:
    tok = Tokenizer.from_file(str(SHIPPED))
    tok.no_padding()
    tok.enable_truncation(max_length=MAX)  # as the embedder sets it
    return WordPiece(SHIPPED), tok


CASES = ["When did Caroline go to the LGBTQ support group?", "error 0x244CAF9C make", "don't e-mail u.s.a. 1,000.50",
         "", " ", "\t\n\r", "a\x00b\x01c\x0bd\x0ce\x1cf\x7fg", "supercalifragilisticexpialidocious " * 3,
         "x" * 100, "x" * 101, "##ing ## #", "unaffable hyperparameterization", "word " * 300, "?!" * 200,
         "MiXeD CaSe NAMES like O'Brien", "tab\tseparated\tvalues\nand lines\r\n"]


@pytest.mark.parametrize("text", CASES)
def test_the_same_ids_as_tokenizers(pair: tuple[WordPiece, Tokenizer], text: str) -> None:
    wp, tok = pair
    assert wp.handles(text)
    assert wp.ids(text or " ", MAX) == tok.encode(text or " ").ids


@given(st.text(alphabet=(string.printable + "\x00\x01\x07\x0b\x0c\x1c\x1f\x7f").replace("[", ""), max_size=1500))
def test_the_same_ids_on_any_ascii_text(pair: tuple[WordPiece, Tokenizer], text: str) -> None:
    wp, tok = pair
    assert wp.ids(text or " ", MAX) == tok.encode(text or " ").ids


@given(st.lists(st.sampled_from(["gateway", "restart", "ing", "un", "##s", "the", "zzqx", "a" * 120, "!", "'s",
                                 "2024", "3.5", "e-mail", "Oscar"]), max_size=400),
       st.sampled_from([" ", "", "\n", "  "]))
def test_the_same_ids_on_word_salad_and_past_the_cut(pair: tuple[WordPiece, Tokenizer], words: list[str],
                                                      sep: str) -> None:
    wp, tok = pair
    text = sep.join(words) or " "
    assert wp.ids(text, MAX) == tok.encode(text).ids
    assert len(wp.ids(text, MAX)) <= MAX


@pytest.mark.parametrize("text", ["café", "Tomás runs", "日本語", "emoji 🎉", "[MASK] me", "a [SEP] b", "[unused1]"])
def test_what_it_cannot_reproduce_is_left_to_tokenizers(text: str) -> None:
    assert not WordPiece.handles(text)


def test_a_tokenizer_of_another_kind_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "tokenizer.json"
    other.write_text('{"model": {"type": "BPE", "vocab": {}}, "normalizer": null, "pre_tokenizer": null}')
    with pytest.raises(ValueError, match="not a lower-case BERT WordPiece tokenizer"):
        WordPiece(other)


def test_an_ascii_query_embeds_without_importing_tokenizers_and_others_with_it(tmp_path: Path) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import numpy as np; from embedder import OnnxEmbedder;"
            "e = OnnxEmbedder(); a = e.embed(['when does Oscar like to meet?']);"
            "print('tokenizers' in sys.modules);"
            "b = e.embed(['when does Oscar like to meet?', 'Tomás se muda']);"
            "print('tokenizers' in sys.modules, bool(np.array_equal(a[0], b[0])))")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True"]


COUNTED = [*CASES, "word " * 3000, "café au lait", "[MASK] me", "Tomás runs 日本語", "Ana said… then — “ok”",
           "São Paulo’s façade…", "Straße", "5 €", "a\u00a0b", "zero\u200bwidth", "İstanbul", "ǅ ǆ ﬁ"]


@pytest.fixture(scope="module")
def counter() -> Tokenizer:
    tok = Tokenizer.from_file(str(SHIPPED))
    tok.no_truncation()
    tok.no_padding()
    return tok


@pytest.mark.parametrize("text", COUNTED)
def test_a_count_is_the_tokenizers_or_none(pair: tuple[WordPiece, Tokenizer], counter: Tokenizer, text: str) -> None:
    got = pair[0].count(text)
    assert got is None or got == len(counter.encode(text, add_special_tokens=False).ids)


@given(st.text(alphabet=string.printable.replace("[", "") + "éèêëàáâãäåçñóòôõöúùûüíìîïýÿÉÀÇÑÖÜ…—–’‘“”«»¡¿·•†",
               max_size=600))
def test_a_count_is_the_tokenizers_on_accented_and_punctuated_text(pair: tuple[WordPiece, Tokenizer],
                                                                     counter: Tokenizer, text: str) -> None:
    got = pair[0].count(text)
    assert got is not None and got == len(counter.encode(text, add_special_tokens=False).ids)


def test_token_counts_are_the_tokenizers_and_an_ascii_brief_never_loads_it() -> None:
    import json

    # (a brief's budget counts word pieces without truncation: ASCII text through the pure-Python pieces, anything
    # else through `tokenizers`; the same counts either way)
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); from embedder import OnnxEmbedder;"
            "e = OnnxEmbedder(); texts = json.loads(sys.argv[2]);"
            "a = [e.count_tokens(t) for t in texts if t.isascii() and '[' not in t];"
            "print(json.dumps(['tokenizers' in sys.modules, [e.count_tokens(t) for t in texts]]))")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), json.dumps(COUNTED)], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded_before, counts = json.loads(done.stdout)
    assert loaded_before is False  # every ASCII text counted before the first non-ASCII one loads it
    tok = Tokenizer.from_file(str(SHIPPED))
    tok.no_truncation()
    tok.no_padding()
    assert counts == [len(tok.encode(t, add_special_tokens=False).ids) for t in COUNTED]
