"""memengine/recache.py: the patterns a cold ``mem.py`` call compiles at import, taken from the last call's file.

What must hold: a pattern built from the file is the pattern ``re`` compiles (``Pattern.__eq__`` compares the
flags, the pattern and the compiled code word for word), for every pattern the engine's modules compile at
import; a pattern compiled at run time (it may hold a memory's words) never reaches the file; a damaged file is
ignored and written again; ``MEM_RE_CACHE=0`` writes nothing; a CLI call answers the same with and without it.
Each case runs in a fresh interpreter (the hook replaces ``re``'s compiler for the whole process).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Import every module of the engine and the CLI with the cache installed (as mem.py does), then save.
_FILL = """
import importlib, pkgutil, sys
sys.path.insert(0, {repo!r})
from memengine import recache
assert recache.install({folder!r})
import memengine, importers
names = ["memcli", "memory_core", "embedder"]
for pkg in (memengine, importers):
    names += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
for name in names:
    importlib.import_module(name)
recache.save()
print(len(recache._known))
"""

# Every pattern of the file, built from it and compiled by re itself: equal.
_CHECK = """
import array, json, re, sys, _sre
sys.path.insert(0, {repo!r})
from memengine import recache
entries = recache._read(recache.cache_path({folder!r}))
same = differ = 0
for (pattern, flags), (final, code, groups, groupindex, indexgroup, _) in entries.items():
    words = array.array(recache._CODE)
    words.frombytes(code)
    cached = _sre.compile(pattern, final, words.tolist(), groups, groupindex, indexgroup)
    fresh = re._compiler.compile(pattern, flags)
    ok = (cached == fresh and cached.groupindex == fresh.groupindex and cached.groups == fresh.groups
          and cached.flags == fresh.flags)
    same += ok
    differ += not ok
print(json.dumps([same, differ]))
"""


def _run(code: str, tmp_path: Path, **env: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_every_pattern_the_engine_compiles_at_import_is_rebuilt_identical(tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    kept = int(_run(_FILL.format(repo=str(REPO), folder=folder), tmp_path))
    assert kept > 300  # (the engine's modules compile ~600 patterns at import; some are shared)
    same, differ = json.loads(_run(_CHECK.format(repo=str(REPO), folder=folder), tmp_path))
    assert (same, differ) == (kept, 0)
    # the next processes take them from the file and write nothing (a pattern joined from a set's words, in
    # another order under another hash seed, is one the file holds: not written again)
    (path,) = Path(folder).iterdir()
    before = path.read_bytes()
    for seed in ("1", "2"):
        assert int(_run(_FILL.format(repo=str(REPO), folder=folder), tmp_path, PYTHONHASHSEED=seed)) == kept
        assert path.read_bytes() == before


_RUNTIME = """
import re, sys, os
sys.path.insert(0, {repo!r})
from memengine import recache
assert recache.install({folder!r})
sys.path.insert(0, {mods!r})
import static_patterns  # compiles one pattern at import
def later(word):
    return re.compile(r"(?<!\\w)" + re.escape(word) + r"(?!\\w)")
assert later("Oscar-Lisbon-secret").search("ask Oscar-Lisbon-secret now")
recache.save()
"""


def test_a_pattern_compiled_at_run_time_never_reaches_the_file(tmp_path: Path) -> None:
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "static_patterns.py").write_text('import re\nWORD = re.compile(r"static-[a-z]+-word")\n')
    folder = tmp_path / "cache"
    _run(_RUNTIME.format(repo=str(REPO), folder=str(folder), mods=str(mods)), tmp_path)
    files = list(folder.iterdir())
    assert len(files) == 1
    data = files[0].read_bytes()
    assert b"static-[a-z]+-word" in data
    assert b"Oscar" not in data and "Oscar".encode("utf-16-le") not in data  # not the pattern, not its code
    assert b"O\x00\x00\x00s\x00\x00\x00c\x00\x00\x00a\x00\x00\x00r" not in data
    assert oct(files[0].stat().st_mode & 0o777) == "0o600"


def test_a_damaged_file_is_ignored_and_written_again(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    fill = _FILL.format(repo=str(REPO), folder=str(folder))
    kept = _run(fill, tmp_path).strip()
    (path,) = folder.iterdir()
    data = bytearray(path.read_bytes())
    for cut in (len(data) // 2, 7, 0):  # a torn write, a flipped byte, an empty file
        damaged = bytearray(data[:cut]) if cut else bytearray()
        if cut == 7:
            damaged = bytearray(data)
            damaged[len(damaged) // 3] ^= 0x40
        path.write_bytes(bytes(damaged))
        assert _run(fill, tmp_path).strip() == kept  # compiled again (nothing taken from it), saved whole
        assert path.read_bytes() != bytes(damaged)
    same, differ = json.loads(_run(_CHECK.format(repo=str(REPO), folder=str(folder)), tmp_path))
    assert (same, differ) == (int(kept), 0)


def test_switched_off_it_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    code = _FILL.format(repo=str(REPO), folder=str(folder)).replace("assert recache.install", "assert not recache.install")
    _run(code, tmp_path, MEM_RE_CACHE="0")
    assert not folder.exists()


def test_a_cli_call_answers_the_same_from_the_file(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg"), "MEM_NO_SERVER": "1", "MEM_EMBEDDER": "hash"}

    def mem(db: Path, *args: str, **extra: str) -> str:
        proc = subprocess.run([sys.executable, str(REPO / "mem.py"), "--db", str(db), "--json", *args],
                              capture_output=True, text=True, env={**env, **extra}, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        out = json.dumps({k: v for k, v in json.loads(proc.stdout).items() if k != "took_ms"})
        return re.sub(r'"\d{4}-\d\d-\d\dT[\d:.]+', '"T', out.replace(str(db), "DB"))  # (the clock's second)

    for db, extra in ((tmp_path / "a.db", {}), (tmp_path / "b.db", {"MEM_RE_CACHE": "0"})):
        mem(db, "store", "Oscar prefers morning meetings at 9:30", "--type", "semantic", **extra)
    assert list((tmp_path / "xdg" / "mem").glob("re-*.cache"))
    for args in (["store", "Oscar now prefers afternoon meetings at 15:00", "--type", "semantic"],
                 ["recall", "when does Oscar like to meet?", "--explain"], ["stats"], ["get", "1"], ["brief"]):
        got = mem(tmp_path / "a.db", *args)
        assert got == mem(tmp_path / "b.db", *args, MEM_RE_CACHE="0")
        assert '"ok": true' in got


# The pattern texts the engine's own modules hand ``re`` at import (the caller's file under memengine/ or a
# top-level module: what a cold store / recall / brief imports), under the hash seed the process runs with.
_TEXTS = """
import importlib, json, pkgutil, re, sys
sys.path.insert(0, {repo!r})
seen = set()
original = re._compiler.compile
def compile(p, flags=0):
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith({stdlib!r}):
        f = f.f_back
    if f is not None and f.f_code.co_filename.startswith({engine}) and isinstance(p, str):
        seen.add((p, int(flags)))
    return original(p, flags)
re._compiler.compile = compile
import memengine
names = ["memcli", "memory_core", "embedder"]
names += [m.name for m in pkgutil.walk_packages(memengine.__path__, "memengine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps(sorted(seen)))
"""


def test_no_pattern_the_engine_compiles_at_import_depends_on_the_hash_seed(tmp_path: Path) -> None:
    """A pattern joined from a set's words in the set's order changed its text with each process's hash seed:
    the file never held the next process's order, so every cold call compiled it again (fact_occasion's and
    fact_said's, ~7 ms of a fact store). Their words are sorted first now: one text under every seed."""
    stdlib = str(Path(re.__file__).resolve().parent.parent)
    engine = tuple(str(REPO / f) for f in ("memengine/", "memcli.py", "memory_core.py", "embedder.py"))
    code = _TEXTS.format(repo=str(REPO), stdlib=stdlib, engine=engine)
    texts = [json.loads(_run(code, tmp_path, PYTHONHASHSEED=seed)) for seed in ("1", "2", "3")]
    assert len(texts[0]) > 300
    assert texts[0] == texts[1] == texts[2]
