"""Shared fixtures: every test gets its own memory file and the fast fake embedder.

The fake (``HashEmbedder``) sits behind the real ``Embedder`` interface, so results
are exact and fast; tests marked ``real_model`` load the real MiniLM ONNX model.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEM_DB", str(tmp_path / "memory.db"))
    monkeypatch.setenv("MEM_EMBEDDER", os.environ.get("MEM_TEST_EMBEDDER", "hash"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def store(db_path: Path):
    import memory_core

    s = memory_core.MemoryStore(db_path)
    yield s
    s.close()


def run_cli(*args: str, input: str | None = None, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``mem.py`` in a real subprocess (JSON output, since stdout is a pipe)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, str(ROOT / "mem.py"), *args], input=input, capture_output=True,
                          text=True, env=full_env, timeout=timeout, cwd=str(ROOT))
