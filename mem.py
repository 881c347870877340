#!/usr/bin/env python3
"""mem — local-first long-term memory for AI agents, in one SQLite file: ``python3 mem.py <command>``.

Only the entry point: the command line is ``memcli.py``. Python compiles the script it runs on every
call (a script's bytecode is never cached), so this file stays a few lines; ``import mem`` gives the
``memcli`` module itself (tests, servers and the installed ``mem`` command use it by that name).
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # before any import: a handed-over call needs none of them
    from memengine.handoff import run_handoff

    run_handoff(sys.argv[1:])  # a warm `mem serve`/`mem mcp` for this database answers (any Python 3.10+)
    import gc

    # Start-up imports create ~100k objects that all live until exit: the cyclic collector's passes
    # over them were ~18 ms of a cold recall's CPU. Off while importing; then what was imported is
    # frozen out of its sight, and young collections come every 20k objects rather than 700 (a
    # one-shot call allocates little garbage in cycles; `mem serve`/`mem mcp` restore the default).
    gc.disable()
    from memengine.bootstrap import ensure_dependencies

    ensure_dependencies(__file__)  # a Python lacking our packages: the folder's .venv, or the one-line fix
    from memengine.recache import install

    install()  # the patterns the imports compile, from the last call's (30-55 ms of a cold call's CPU)
    from memcli import main

    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    gc.enable()
    main()
else:
    import memcli

    sys.modules[__name__] = memcli  # `import mem` is the command line's module (its globals, its main)
