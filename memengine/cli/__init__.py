"""The command line's parts: shared helpers (``common``) and the command modules that ``mem.py``
loads lazily. Nothing else in ``memengine`` imports this package."""
