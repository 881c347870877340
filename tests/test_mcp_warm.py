"""A warm server (mem mcp / mem serve) loads at warm-up what a recall would load on first use: the modules its
steps import inside functions and the tokenizer of non-ASCII queries (memengine/cli/servers.py preload_recall)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from tokenizers import Tokenizer

ROOT = Path(__file__).resolve().parents[1]


def _function_level_imports() -> list[str]:
    """The memengine modules memengine/recall/*.py imports inside a function, read by the parser."""
    out: set[str] = set()
    for path in sorted((ROOT / "memengine" / "recall").glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "memengine":
                    out.update(f"memengine.{a.name}" for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("memengine."):
                    out.add(str(node.module))
    return sorted(out)


def test_recall_imports_are_every_function_level_import_of_the_recall_package() -> None:
    from memengine.cli.servers import recall_imports

    got = recall_imports()
    assert got == _function_level_imports()
    assert "memengine.fact_tokens" in got  # (updates.py's value reader: the first recall's largest import)


def test_a_warmed_server_has_loaded_the_steps_modules_and_the_tokenizer(tmp_path: Path) -> None:
    # a real process with the real model, opened and warmed as `mem mcp` / `mem serve` open their store
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import click, memcli;"
        "from memengine.cli import servers; from memengine.cli.common import Ctx;"
        "ctx = click.Context(memcli.cli, obj=Ctx(sys.argv[2], True)); ctx.__enter__(); s = servers._open_warm();"
        "print(json.dumps({'missing': [m for m in servers.recall_imports() if m not in sys.modules],"
        " 'tokenizers': 'tokenizers' in sys.modules, 'loaded': s.embedder._tokenizer is not None,"
        " 'ids': s.embedder._token_ids(['Tomás se muda']), 'hits': len(s.recall('Tomás', k=3, touch=False).results)}));"
        "servers._CALLS.close(); s.close()"
    )
    env = {k: v for k, v in os.environ.items() if k != "MEM_EMBEDDER"}
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), str(tmp_path / "memory.db")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    tok = Tokenizer.from_file(str(ROOT / "models" / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_length=256)
    assert got == {"missing": [], "tokenizers": True, "loaded": True, "ids": [tok.encode("Tomás se muda").ids],
                   "hits": 0}


def test_a_server_on_the_fake_embedder_warms_without_a_tokenizer(tmp_path: Path) -> None:
    # (an embedder with no load_tokenizer, as the tests' HashEmbedder: nothing to load, the warm-up still ends)
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import click, memcli;"
        "from memengine.cli import servers; from memengine.cli.common import Ctx;"
        "ctx = click.Context(memcli.cli, obj=Ctx(sys.argv[2], True)); ctx.__enter__(); s = servers._open_warm();"
        "s.store('Tomás moved the standup to 9:30', 'episodic');"
        "print(json.dumps([type(s.embedder).__name__, [m.content for m in s.recall('Tomás standup', k=1, touch=False).results],"
        " [m for m in servers.recall_imports() if m not in sys.modules]]));"
        "servers._CALLS.close(); s.close()"
    )
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), str(tmp_path / "memory.db")],
                          env={**os.environ, "MEM_EMBEDDER": "hash"}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["HashEmbedder", ["Tomás moved the standup to 9:30"], []]


def _write_path_imports() -> list[str]:
    """WRITE_MODULES and, transitively, the memengine modules each imports inside a function (by the parser)."""
    from memengine.cli.servers import WRITE_MODULES

    seen: set[str] = set()
    todo = list(WRITE_MODULES)
    while todo:
        name = todo.pop()
        path = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        if name in seen or not path.is_file():
            continue
        seen.add(name)
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "memengine":
                    todo += [f"memengine.{a.name}" for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("memengine."):
                    todo.append(str(node.module))
    return sorted(seen)


def test_write_imports_are_the_write_paths_function_level_imports_followed() -> None:
    from memengine.cli.servers import write_imports

    got = write_imports()
    want = _write_path_imports()
    assert set(want) <= set(got)
    # more only where the text reader also sees an indented import outside a function (``if TYPE_CHECKING:``):
    # modules any store has loaded already
    import memory_core  # noqa: F401

    assert [m for m in set(got) - set(want) if m not in sys.modules] == []
    # supersession's rules, the near-duplicate check and a live thread's episodes
    assert {"memengine.fact_slot", "memengine.facts", "memengine.chat_episodes", "memengine.fact_occasion"} <= set(got)


_WARM_THEN_STORE = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); import click, memcli;"
    "from memengine.cli import servers; from memengine.cli.common import Ctx;"
    "ctx = click.Context(memcli.cli, obj=Ctx(sys.argv[2], True)); ctx.__enter__();"
    "s = servers._open_warm() if sys.argv[3] == 'warm' else Ctx.store(ctx.obj);"
    "missing = [m for m in servers.write_imports() if m not in sys.modules];"
    "before = [s.conn.execute(f'SELECT count(*) FROM {t}').fetchone()[0] for t in ('memories', 'associations')];"
    "a = s.store('The wifi password is tiger-42', 'semantic', source='agent');"
    "b = s.store('The wifi password is now tiger-43', 'semantic', source='agent');"
    "c = s.store('Ana: the standup moved to 9:30', 'episodic', source='agent', thread='t1', author='Ana');"
    "print(json.dumps({'missing': missing, 'before': before, 'stores': [[r.id, r.deduplicated, r.supersedes,"
    " r.superseded_by, r.may_update, r.contradicts] for r in (a, b, c)]}));"
    "servers._CALLS.close(); s.close()"
)


def test_a_warmed_server_has_the_write_path_loaded_wrote_nothing_and_stores_as_a_cold_process(tmp_path: Path) -> None:
    # real processes on the fake embedder: one warmed as `mem mcp` warms its store, one opened as a one-shot call
    got = {}
    for how in ("warm", "cold"):
        done = subprocess.run([sys.executable, "-c", _WARM_THEN_STORE, str(ROOT), str(tmp_path / f"{how}.db"), how],
                              env={**os.environ, "MEM_EMBEDDER": "hash"}, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        got[how] = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["warm"]["missing"] == []
    assert got["warm"]["before"] == [0, 0]  # the warm-up's decision is made in memory
    assert got["warm"]["stores"] == got["cold"]["stores"]
    assert got["warm"]["stores"][1][2] == [1]  # the update supersedes the older value in both
