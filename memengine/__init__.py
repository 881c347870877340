"""The engine of `mem`: storage, recall and the features built on them.

`memory_core` (top level) is the public facade; `mem.py` is the CLI. See ARCHITECTURE.md.
The data files ``schema.sql`` and ``models/`` stay at the top level (see memengine.paths).
"""
