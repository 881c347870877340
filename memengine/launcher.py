"""The installed ``mem`` command (``[project.scripts]``): a warm server first, then the CLI.

Not engine code: the console-script entry point, kept apart from ``mem.py`` so that a call
handed to a running ``mem serve`` / ``mem mcp`` never pays for the CLI's imports.
"""

from __future__ import annotations

import importlib
import sys


def main() -> None:
    """Hand the call to a warm server for its database if one answers, else run the CLI."""
    from memengine.handoff import run_handoff

    run_handoff(sys.argv[1:])
    importlib.import_module("mem").main()  # the CLI (imported by name: the engine never imports it)
