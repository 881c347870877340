"""Where mem's data files are: the checkout's top level, or the install's share folder.

``schema.sql`` and ``models/`` stay top-level names of the repository (the design card).
``pip install .`` ships them as data files under ``<prefix>/share/mem/`` (pyproject's
``[tool.setuptools.data-files]``), because top-level modules have no package to carry them.
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout (or site-packages once installed)


def data_file(*parts: str) -> Path:
    """The path of a bundled data file: the checkout's copy first, else the installed one."""
    local = ROOT.joinpath(*parts)
    if local.exists():
        return local
    for prefix in (sysconfig.get_path("data"), sys.prefix, sys.base_prefix):
        installed = Path(prefix, "share", "mem", *parts)
        if installed.exists():
            return installed
    return local  # missing everywhere: the caller's error names the checkout path
