"""`python3 mem.py` with whatever Python 3 is on PATH: find an interpreter that has our packages.

An agent's skill folder runs ``python3 mem.py ...`` with the system Python, which usually
lacks the dependencies (and, on pyenv and macOS builds, an SQLite that can load extensions).
When the folder's ``.venv`` has them, the call is re-executed there (same argv, stdin and
environment, so the same output and exit code); otherwise one line names the command that
fixes it, with the documented code ``missing_dependencies`` (exit 7).

Standard library only, and cheap: on the normal path it costs a few ``find_spec`` look-ups
(~0.1 ms), before any heavy import.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

REEXEC_ENV = "MEM_REEXEC"  # set on the way into .venv's Python: a second miss there is an error, not a loop
EXIT_MISSING = 7
CODE_MISSING = "missing_dependencies"
# What every command's cold path imports first; a Python without the project's packages lacks
# all of them, so these few stand for the whole list in pyproject.toml.
REQUIRED = ("click", "numpy", "sqlite_vec")


def missing_dependencies() -> list[str]:
    """The required packages this interpreter cannot import (empty when it can run mem)."""
    if sys.version_info < (3, 10):  # noqa: UP036 - this file runs under whatever python3 an agent has
        return [f"Python >= 3.10 (this is {sys.version_info[0]}.{sys.version_info[1]})"]
    missing = [name for name in REQUIRED if importlib.util.find_spec(name) is None]
    if importlib.util.find_spec("sqlean") is None:
        import sqlite3  # the engine falls back to it: fine only if it can load sqlite-vec

        if not hasattr(sqlite3.Connection, "enable_load_extension"):
            missing.append("sqlean-py (this Python's sqlite3 cannot load extensions)")
    return missing


def venv_python(folder: Path) -> Path | None:
    """The interpreter of ``folder/.venv``, if there is one."""
    for rel in ("bin/python", "Scripts/python.exe"):
        candidate = folder / ".venv" / rel
        if candidate.exists():
            return candidate
    return None


def wants_json(argv: list[str]) -> bool:
    """The CLI's output rule: ``--json`` / ``--plain`` anywhere, else JSON when stdout is not a terminal."""
    if "--json" in argv:
        return True
    if "--plain" in argv:
        return False
    return not sys.stdout.isatty()


def ensure_dependencies(script: str) -> None:
    """Return if this interpreter can run ``script`` (mem.py); else re-exec in the folder's
    ``.venv`` Python, or print the one-line fix and exit 7."""
    missing = missing_dependencies()
    if not missing:
        os.environ.pop(REEXEC_ENV, None)  # ours, not the caller's: children start clean
        return
    folder = Path(script).resolve().parent
    target = venv_python(folder)
    if target is not None and not os.environ.get(REEXEC_ENV):
        os.environ[REEXEC_ENV] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        # the venv's own path, not its resolved symlink: that is what makes it the venv's Python
        os.execv(str(target), [str(target), str(Path(script).resolve()), *sys.argv[1:]])
    if target is not None:
        fix = f"{target} has them neither: run `make setup` in {folder} (or `{target} -m pip install {folder}`)"
    else:
        fix = f"run `make setup` in {folder}, or `pip install {folder}` and call `mem`"
    message = f"this Python ({sys.executable}) lacks {', '.join(missing)}; {fix}"
    argv = sys.argv[1:]
    if wants_json(argv):
        words = [a for i, a in enumerate(argv) if not a.startswith("-") and (i == 0 or argv[i - 1] != "--db")]
        command = words[0] if words else "mem"
        print(json.dumps({"ok": False, "command": command, "error": {"code": CODE_MISSING, "message": message}}))
    else:
        print(f"error: {message}", file=sys.stderr)
    sys.exit(EXIT_MISSING)
