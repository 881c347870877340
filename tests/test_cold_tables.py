"""Tables a one-shot call builds from a package's files, kept for the next call (memengine/recache.py ``kept``):
summarize's stopword lists and their word -> languages index (~15-20 ms of a cold brief). What must hold: the
kept table equals the built one; the next process reads it without importing the package; a damaged file or a
changed source file builds it anew; not installed, nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memengine import recache, summarize

REPO = Path(__file__).resolve().parent.parent

# Both tables, as JSON (each list's words sorted; the languages in their order), and whether the stop-words package
# was imported to get them. (The index's key order follows a frozenset's, i.e. the hash seed, in every process:
# it is only probed.)
_TABLES = """
import json, sys
sys.path.insert(0, {repo!r})
from memengine import recache
if {install!r}:
    assert recache.install({folder!r})
from memengine import summarize
lists = {{k: sorted(v) for k, v in summarize._language_lists().items()}}
index = {{k: list(v) for k, v in summarize._word_languages().items()}}
print(json.dumps([lists, list(lists), index, "stop_words" in sys.modules]))
"""


def _tables(tmp_path: Path, install: bool) -> list[object]:
    code = _TABLES.format(repo=str(REPO), folder=str(tmp_path / "cache"), install=install)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "MEM_RE_CACHE": "1"})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_the_kept_stopword_tables_are_the_built_ones(tmp_path: Path) -> None:
    built = _tables(tmp_path, install=False)
    assert built[-1] is True and not (tmp_path / "cache").exists()  # not installed: built, nothing written
    first = _tables(tmp_path, install=True)  # builds and keeps them
    assert sorted(p.name.split("-")[0] + "-" + p.name.split("-")[1] for p in (tmp_path / "cache").glob("*.table")) \
        == ["stopword-languages", "stopword-lists"]
    kept = _tables(tmp_path, install=True)  # reads them
    assert kept[-1] is False  # (the package was never imported: the tables came from the files)
    assert first[:-1] == kept[:-1] == built[:-1]  # the same words, the same languages in the same order
    assert len(kept[0]) > 20  # type: ignore[arg-type]


def test_a_damaged_or_outdated_table_is_built_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(recache._state, "path", str(tmp_path / "re-x.cache"))
    calls: list[int] = []

    def build() -> dict[str, tuple[str, ...]]:
        calls.append(1)
        return {"the": ("english",), "der": ("german",)}

    assert recache.kept("t", "files v1", build) == build() and len(calls) == 2
    assert recache.kept("t", "files v1", build) == {"the": ("english",), "der": ("german",)} and len(calls) == 2
    (table,) = tmp_path.glob("t-*.table")
    data = bytearray(table.read_bytes())
    data[-3] ^= 0xFF
    table.write_bytes(bytes(data))
    assert recache.kept("t", "files v1", build) == build() and len(calls) == 4  # damaged: built (and written)
    assert recache.kept("t", "files v1", build) == build() and len(calls) == 5
    assert recache.kept("t", "files v2", build) == build() and len(calls) == 7  # another key: built


def test_the_key_follows_the_package_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = summarize._lists_key()
    assert "english.txt" in key and "__init__.py" in key
    assert key == summarize._lists_key()


def test_without_the_cache_installed_nothing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recache, "_state", {})
    assert recache.kept("t", "k", lambda: {"a": 1}) == {"a": 1}
    assert list(tmp_path.iterdir()) == []
