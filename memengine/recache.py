"""Compiled regular expressions kept between one-shot CLI processes (``mem.py`` installs it; servers need none).

A cold ``mem.py`` call compiles every pattern its modules build at import: ~70 for ``stats``, ~170 for a
``recall``, ~230 for a ``store`` that weighs supersession (the fact modules' word tables), 30-55 ms of CPU in
``re``'s pure-Python parser and compiler each call, for the same patterns every time. The compiler's output is
what ``_sre.compile`` receives (flags, the code as a list of ints, the groups and their names), a pure function of
the pattern and its flags: this module keeps those arguments in a file and hands them to ``_sre.compile`` again
instead of parsing, so the ``Pattern`` is the same object value (``==`` compares the code) and every match the
same. tests/test_cold_recache.py checks every pattern the engine's modules compile at import.

Only patterns compiled while a module is being imported are kept: they come from the source and its word
tables. A pattern built at run time may hold a memory's words (``re.escape(name)``) and never reaches the file,
unless its module compiles it through :func:`fixed`, which says it is the code's own (a pattern compiled on first
use from the module's word lists, so that a call that never needs it does not pay for it: 3-10 ms of a cold
recall's or fact store's CPU when each call compiled them again).
The file (``re-<python>.cache`` in the user cache dir, beside the model's derived forms) is read once per
process; it is keyed by the interpreter's exact version and ``_sre``'s magic, checked by a digest (a damaged or
foreign file is ignored), written whole through a temporary file and ``os.replace`` when a process compiled
something new, and cut back to that process's patterns past MAX_ENTRIES. ``MEM_RE_CACHE=0`` switches it off;
so does any surprise in ``re``'s internals (an interpreter whose ``re`` has no ``_compiler``, 3.10: a no-op).
"""

from __future__ import annotations

import marshal
import os
import sys

TYPE_CHECKING = False  # (typing costs ~3 ms of a cold process: mypy reads this name as typing's)
if TYPE_CHECKING:
    from typing import Any

ENV = "MEM_RE_CACHE"
MAX_ENTRIES = 4000  # the engine's modules compile ~600 at import; past this the file holds one process's
FORMAT = 3  # (3: with fixed()'s patterns; a file of 2 may hold an order of a pattern no process builds now)
_CODE = "I"  # the code's words, kept as bytes (a list of ints is rebuilt only for the patterns a process asks)
_DIGEST = 4
_TABLE = 1  # the format of a kept table's file

_known: dict[Any, Any] = {}  # (pattern, flags) -> the rest of _sre.compile's arguments, from the file
_new: dict[Any, Any] = {}  # compiled by this process at import, not in the file
_used: set[Any] = set()  # keys this process took from the file
_state: dict[str, Any] = {}


def user_cache_folder() -> str:
    """``platformdirs.user_cache_dir("mem", appauthor=False)``: the same path, without platformdirs' import on
    Linux and macOS (3-5 ms of every cold call that opens the model or this file; tests/test_serve21_paths.py
    compares the two). Elsewhere, or with a HOME that is not absolute, platformdirs itself answers."""
    android = hasattr(sys, "getandroidapilevel") or (os.environ.get("ANDROID_DATA") == "/data"
                                                     and os.environ.get("ANDROID_ROOT") == "/system")
    home = os.environ.get("HOME")
    if sys.platform in ("linux", "darwin") and not android and (home is None or os.path.isabs(home)):
        xdg = os.environ.get("XDG_CACHE_HOME", "")  # (platformdirs reads it on macOS too; only an absolute one)
        if os.path.isabs(xdg):
            return os.path.join(xdg, "mem")
        base = os.path.expanduser("~/.cache" if sys.platform == "linux" else "~/Library/Caches")
        if os.path.isabs(base):
            return os.path.join(base, "mem")
    from platformdirs import user_cache_dir

    return user_cache_dir("mem", appauthor=False)


def _folder() -> str:
    """The user cache dir of ``mem`` (platformdirs' ``user_cache_dir("mem", appauthor=False)``, without its import)."""
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "mem", "Cache")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "mem")
    return os.path.join(os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(home, ".cache"), "mem")


def cache_path(folder: str | None = None) -> str:
    """The file of this interpreter's patterns in ``folder`` (default: the user cache dir)."""
    import _sre

    tag = f"{sys.implementation.name}{sys.hexversion:x}-{_sre.MAGIC}"
    # (the format in the name: two releases of mem side by side each keep their own file, not one in turn)
    return os.path.join(folder or _folder(), f"re-{tag}-f{FORMAT}.cache")


def _digest(payload: bytes) -> bytes:
    import zlib  # (a damaged file, not an attacker: the folder is the user's own, as the model's derived forms)

    return zlib.crc32(payload).to_bytes(_DIGEST, "little")


def _read(path: str) -> dict[Any, Any]:
    """The patterns in ``path``, (pattern, flags) -> (_sre.compile's flags, code as bytes, groups, group index,
    index group, shape); empty when it is missing, damaged or of another format."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        payload = data[_DIGEST:]
        if len(data) <= _DIGEST or _digest(payload) != data[:_DIGEST]:
            return {}
        fmt, entries = marshal.loads(payload)
        return entries if fmt == FORMAT and isinstance(entries, dict) else {}
    except (OSError, ValueError, EOFError, TypeError):
        return {}


def _shape(key: Any) -> tuple[int, int, int]:
    """(flags, length, sum of the characters) of a pattern: the same for every order of its alternatives."""
    pattern, flags = key
    return flags, len(pattern), sum(pattern) if isinstance(pattern, bytes) else sum(map(ord, pattern))


def _importing() -> bool:
    """Whether the running code is a module's import (its top level, a module other than the script)."""
    f: Any = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name == "<module>" and f.f_globals.get("__name__") != "__main__":
            return True
        f = f.f_back
    return False


def install(folder: str | None = None) -> bool:
    """Serve ``re``'s compilations from the file and record the new ones; saved at exit. False: not installed."""
    if _state or os.environ.get(ENV, "1").strip().lower() in ("0", "no", "off", "false"):
        return False
    try:
        import _sre
        import array
        import re
        import threading
        import types

        if array.array(_CODE).itemsize != _sre.CODESIZE:
            return False

        compiler = re._compiler  # type: ignore[attr-defined]
        original = compiler.compile
        real_sre = compiler._sre
    except (ImportError, AttributeError):
        return False
    path = cache_path(folder)
    _known.update(_read(path))
    local = threading.local()
    recorder = types.ModuleType("_sre")  # re._compiler's _sre, with its compile recording what it is given
    recorder.__dict__.update(real_sre.__dict__)

    def record(pattern: Any, flags: int, code: Any, groups: int, groupindex: Any, indexgroup: Any) -> Any:
        key = getattr(local, "key", None)
        if key is not None and key[0] is pattern:
            local.key = None
            if getattr(local, "fixed", False) or _importing():
                # (plain ints: the compiler's opcodes are an int subclass, which marshal does not write)
                _new[key] = (int(flags), array.array(_CODE, code).tobytes(), int(groups),
                             {str(k): int(v) for k, v in groupindex.items()}, tuple(indexgroup), _shape(key))
        return _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)

    recorder.compile = record  # type: ignore[attr-defined]

    def compile(p: Any, flags: int = 0) -> Any:
        if isinstance(p, (str, bytes)) and not flags & re.DEBUG:
            key = (p, int(flags))
            hit = _known.get(key)
            if hit is not None:
                try:
                    code = array.array(_CODE)
                    code.frombytes(hit[1])
                    pattern = _sre.compile(p, hit[0], code.tolist(), *hit[2:5])
                    _used.add(key)
                    return pattern
                except Exception:  # (a file of another build: _sre validates the code it is given)
                    _known.pop(key, None)
            local.key = key
        try:
            return original(p, flags)
        finally:
            local.key = None

    compiler._sre = recorder
    compiler.compile = compile
    _state.update(path=path, original=original, real_sre=real_sre, compiler=compiler, local=local)
    import atexit

    atexit.register(save)
    return True


def fixed(pattern: str, flags: int = 0) -> Any:
    """``re.compile(pattern, flags)`` of a pattern that is the code's own (a constant, or built from the module's
    word lists; never from a memory's text), compiled on first use rather than at import: kept in the file as an
    import's patterns are, so the next one-shot call does not parse it again."""
    import re

    local = _state.get("local")
    if local is None:
        return re.compile(pattern, flags)
    local.fixed = True
    try:
        return re.compile(pattern, flags)
    finally:
        local.fixed = False


def _write(path: str, payload: bytes) -> None:
    """``payload`` behind its digest into ``path``, whole or not at all: a temp file of this process, then
    ``os.replace`` (another process reading meanwhile sees the old file or the new one). Raises OSError."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(_digest(payload) + payload)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save() -> None:
    """Write the file when this process compiled a pattern it did not hold (never raises: only a cache)."""
    path = _state.get("path")
    # A pattern joined from a set's words changes its order with the interpreter's hash seed, from one
    # process to the next: one of its orders kept is enough (each process would add its own, for nothing).
    shapes = {v[5] for v in _known.values()}
    new = {k: v for k, v in _new.items() if v[5] not in shapes}
    if not path or not new:
        return
    try:
        entries = _read(path)  # (another process may have added its own meanwhile)
        entries.update(new)
        if len(entries) > MAX_ENTRIES:
            entries = {k: v for k, v in _known.items() if k in _used}
            entries.update(new)
        _write(path, marshal.dumps((FORMAT, entries)))
        _known.update(new)
        _new.clear()
    except Exception:  # a read-only or full cache dir: the next process compiles again
        pass


def kept(name: str, key: str, build: Any) -> Any:
    """``build()``: a table of no argument that a one-shot call builds from files (a package's word lists), kept
    beside the patterns for the next call. The file ``<name>-<digest>.table`` holds ``(key, table)`` (marshal:
    dicts, tuples, frozensets, str, int), checked by a CRC and by the ``key`` it was built for (the source
    files' paths, sizes and times: a changed file builds it anew). Missing, damaged or of another key: built and
    written whole. While not installed (servers, tests, ``MEM_RE_CACHE=0``) it only builds."""
    path = _state.get("path")
    if not path:
        return build()
    key = f"{sys.hexversion:x}\n{key}"
    import zlib

    file = os.path.join(os.path.dirname(path), f"{name}-{zlib.crc32(key.encode()):08x}.table")
    try:
        with open(file, "rb") as f:
            data = f.read()
        payload = data[_DIGEST:]
        if len(data) > _DIGEST and _digest(payload) == data[:_DIGEST]:
            fmt, stored, table = marshal.loads(payload)
            if fmt == _TABLE and stored == key:
                return table
    except (OSError, ValueError, EOFError, TypeError):
        pass
    table = build()
    try:
        _write(file, marshal.dumps((_TABLE, key, table)))
    except Exception:  # (a table marshal cannot write, a read-only or full cache dir: built again next time)
        pass
    return table


def uninstall() -> None:
    """Give ``re`` back its own compiler (tests)."""
    if _state:
        _state["compiler"].compile = _state["original"]
        _state["compiler"]._sre = _state["real_sre"]
        _state.clear()
    _known.clear()
    _new.clear()
    _used.clear()
