"""``hashlib``'s sha1 / sha256 hex digests from the C modules behind them, without importing ``hashlib``.

``hashlib`` loads OpenSSL when imported: ~3 ms of CPU in a cold ``mem.py`` call whose only digests are a
stored memory's content hash (memengine/text.py) and the keys of the model's cache files (memengine/modelfiles.py,
memengine/wordpiece.py). CPython ships ``_sha1`` and ``_sha2`` (``_sha256`` before 3.12) built in or beside
``hashlib``; the digest of the same bytes is the same either way (tests/test_serve22_cold_imports.py). An
interpreter without them falls back to ``hashlib``.
"""

from __future__ import annotations


def sha1_hex(data: bytes) -> str:
    """``hashlib.sha1(data).hexdigest()``."""
    try:
        import _sha1

        return str(_sha1.sha1(data).hexdigest())
    except (ImportError, AttributeError):
        import hashlib

        return hashlib.sha1(data).hexdigest()


def sha256_hex(data: bytes) -> str:
    """``hashlib.sha256(data).hexdigest()``."""
    for name in ("_sha2", "_sha256"):  # (3.12+ / 3.11)
        try:
            return str(__import__(name).sha256(data).hexdigest())
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256(data).hexdigest()
