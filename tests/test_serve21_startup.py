"""serve21: cold-start paths — the user cache dir without platformdirs' import, and the patterns modules compile on
first use (``recache.fixed``) kept between processes like an import's.

Each case that installs the pattern cache runs in a fresh interpreter (the hook replaces ``re``'s compiler for the
whole process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("env", [
    {},
    {"XDG_CACHE_HOME": "/srv/cache"},
    {"XDG_CACHE_HOME": "relative/cache"},  # (not absolute: platformdirs ignores it)
    {"XDG_CACHE_HOME": ""},
    {"XDG_CACHE_HOME": " /srv/spaced "},
    {"HOME": "/home/ana"},
    {"HOME": "/home/ana/", "XDG_CACHE_HOME": "/x/"},
    {"HOME": "relative-home"},  # (platformdirs' own fallback answers)
    {"HOME": None},
])
def test_the_user_cache_folder_is_platformdirs_own(env: dict[str, str | None]) -> None:
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); from memengine.recache import user_cache_folder; "
            "ours = user_cache_folder(); fast = 'platformdirs' not in sys.modules; "
            "from platformdirs import user_cache_dir; print(json.dumps([ours, user_cache_dir('mem', appauthor=False), "
            "fast]))")
    full = {k: v for k, v in os.environ.items() if k not in env}
    full.update({k: v for k, v in env.items() if v is not None})
    proc = subprocess.run([sys.executable, "-c", code, str(REPO)], capture_output=True, text=True, env=full)
    assert proc.returncode == 0, proc.stderr
    ours, theirs, fast = json.loads(proc.stdout)
    assert ours == theirs
    assert fast == (sys.platform in ("linux", "darwin") and env.get("HOME") != "relative-home")


def test_embedder_and_store_use_it() -> None:
    import embedder
    from memengine.recache import user_cache_folder

    assert embedder.default_cache_dir() == Path(user_cache_folder())


_FIXED = """
import json, re, sys
sys.path.insert(0, {repo!r})
from memengine import recache
assert recache.install({folder!r})
from memengine.recall import counter, replaced
from memengine import fact_tokens, text
before = set(recache._known)
counter.counters("ok 7 then")  # compiled on first use, from the module's own text
replaced.replaced_fragments("not the 19th, the 21st")
fact_tokens.prepare("We moved to Berlin last week")
text.count_words("one two three four", 3)
word = "zq" + "xv"  # a run-time pattern holding a memory's word: never kept
re.compile(r"\\b" + re.escape(word) + r"\\b")
recache.save()
kept = set(recache._read(recache.cache_path({folder!r})))
print(json.dumps([len(kept - before), any(isinstance(k[0], str) and word in k[0] for k in kept), len(recache._used)]))
"""


def test_patterns_compiled_on_first_use_are_kept_and_taken_from_the_file_next_time(tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    code = _FIXED.format(repo=str(REPO), folder=folder)
    runs = []
    for seed in ("1", "2"):
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout))
    (first_new, first_word, _), (second_new, second_word, used) = runs
    assert first_new >= 4 and not first_word  # counter's, replaced's, fact_tokens' and text's: kept, not the word
    assert second_new == 0 and not second_word and used == first_new  # the next one (another hash seed) took them all
