"""`python3 mem.py` with an interpreter that lacks the dependencies: re-exec in .venv, or the one-line fix.

A bare venv (no site-packages, no pip) stands in for the system Python; a copy of the
project folder gets a `.venv` that points at the test run's environment (as a worktree's
`.venv` symlink does), or none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
IN_VENV = sys.prefix != sys.base_prefix

pytestmark = pytest.mark.skipif(not IN_VENV, reason="needs the tests to run from a venv (the .venv a copy points at)")


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python 3 with nothing installed: the system python3 of an agent's sandbox."""
    where = tmp_path_factory.mktemp("bare")
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(where / "venv")],  # type: ignore[attr-defined]
                   check=True, capture_output=True)
    py = where / "venv" / "bin" / "python"
    probe = subprocess.run([str(py), "-c", "import click"], capture_output=True)
    assert probe.returncode != 0, "the bare venv can import click"
    return py


def _copy_project(dest: Path, with_venv: bool) -> Path:
    ignore = shutil.ignore_patterns(".git", ".venv", "tests", "bench", "demo", "__pycache__", "*.db*", ".*_cache",
                                   ".hypothesis")  # written meanwhile by tests in the other worker
    shutil.copytree(REPO, dest, ignore=ignore)
    if with_venv:
        (dest / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    return dest


def _run(py: Path, folder: Path, args: list[str], env_extra: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MEM_REEXEC", "PYTHONPATH")}
    env.update(env_extra)
    return subprocess.run([str(py), "mem.py", *args], cwd=folder, env=env, input=stdin, capture_output=True,
                          text=True, timeout=300)


def _data(out: str) -> dict:
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    env = json.loads(lines[0])
    env.pop("took_ms", None)
    return env


def test_reexec_in_the_folders_venv_gives_the_real_answer(bare_python: Path, tmp_path: Path) -> None:
    folder = _copy_project(tmp_path / "app", with_venv=True)
    env = {"MEM_DB": str(tmp_path / "m.db")}
    stored = _run(bare_python, folder, ["store", "-", "--json"], env, stdin="Oscar prefers morning meetings\n")
    assert stored.returncode == 0, stored.stderr
    assert _data(stored.stdout)["data"] == {"id": 1, "deduplicated": False, "supersedes": []}
    stats = _run(bare_python, folder, ["stats", "--json"], env)
    assert stats.returncode == 0, stats.stderr
    via_bare = _data(stats.stdout)
    assert via_bare["data"]["memories"] == 1 and via_bare["data"]["path"] == str(tmp_path / "m.db")
    direct = _run(folder / ".venv" / "bin" / "python", folder, ["stats", "--json"], env)
    assert _data(direct.stdout) == via_bare  # no output change
    missing = _run(bare_python, folder, ["get", "99", "--json"], env)
    assert missing.returncode == 3  # exit codes preserved
    assert _data(missing.stdout)["error"] == {"code": "not_found", "message": f"no memory with id 99 in {tmp_path / 'm.db'} (another store? --db or MEM_DB names it)"}


def test_without_a_venv_one_line_names_the_fix(bare_python: Path, tmp_path: Path) -> None:
    folder = _copy_project(tmp_path / "app", with_venv=False)
    env = {"MEM_DB": str(tmp_path / "m.db")}
    res = _run(bare_python, folder, ["--db", str(tmp_path / "x.db"), "stats", "--json"], env)
    assert res.returncode == 7
    err = _data(res.stdout)
    assert err["ok"] is False and err["command"] == "stats"
    assert err["error"]["code"] == "missing_dependencies"
    assert "click" in err["error"]["message"] and f"make setup` in {folder}" in err["error"]["message"]
    plain = _run(bare_python, folder, ["stats", "--plain"], env)
    assert plain.returncode == 7 and plain.stdout == ""
    assert len(plain.stderr.strip().splitlines()) == 1 and plain.stderr.startswith("error: this Python")
    assert not (tmp_path / "m.db").exists() and not (tmp_path / "x.db").exists()


def test_a_venv_that_lacks_them_too_is_an_error_not_a_loop(bare_python: Path, tmp_path: Path) -> None:
    folder = _copy_project(tmp_path / "app", with_venv=False)
    (folder / ".venv").symlink_to(bare_python.parent.parent, target_is_directory=True)  # a broken .venv
    res = _run(bare_python, folder, ["stats", "--json"], {"MEM_DB": str(tmp_path / "m.db")})
    assert res.returncode == 7
    assert "has them neither" in _data(res.stdout)["error"]["message"]


def test_package_data_covers_the_files_the_engine_opens() -> None:
    tomllib = pytest.importorskip("tomllib")
    import embedder
    import memory_core

    conf = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert conf["project"]["scripts"]["mem"] == "memengine.launcher:main"
    data_files = conf["tool"]["setuptools"]["data-files"]  # installed under <prefix>/share/mem
    shipped = {f"{folder.removeprefix('share/mem').strip('/')}/{Path(f).name}".lstrip("/")
               for folder, files in data_files.items() for f in files}
    manifest = embedder.load_manifest()
    for path in (memory_core.SCHEMA_PATH, embedder.MANIFEST_PATH, embedder.MODELS_DIR / manifest.tokenizer):
        assert path.is_file(), path
        rel = path.relative_to(REPO).as_posix()  # top-level names of the checkout
        assert rel in shipped, rel
    assert "memengine" in conf["tool"]["setuptools"]["packages"]


def test_every_package_folder_is_listed_for_pip_install() -> None:
    tomllib = pytest.importorskip("tomllib")
    conf = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(conf["tool"]["setuptools"]["packages"])
    on_disk = {p.parent.relative_to(REPO).as_posix().replace("/", ".")
               for top in ("memengine", "importers") for p in (REPO / top).rglob("__init__.py")}
    assert on_disk <= listed, f"pyproject.toml misses {sorted(on_disk - listed)}: pip install . would leave them out"
    modules = set(conf["tool"]["setuptools"]["py-modules"])
    assert {p.stem for p in REPO.glob("*.py")} <= modules
