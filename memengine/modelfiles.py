"""Checks of model files shared by the embedders (embedder.py's MiniLM, memengine/embed_e5.py's e5): the error they
raise, a file's sha256 remembered per path/size/mtime, and the user cache folder they use.

Apart from embedder.py so the optional e5 embedder needs none of it (and embedder.py, which chooses the embedder,
can import that one without a cycle). embedder.py re-exports every name.
"""

from __future__ import annotations

import os
from pathlib import Path

from memengine.digests import sha1_hex  # (not hashlib: memengine/digests.py)


class EmbedderError(RuntimeError):
    """The model or tokenizer cannot be loaded; callers degrade to keyword-only."""


def _sha256(path: Path) -> str:
    import hashlib  # (a file is hashed once per path/size/mtime: hashlib loads OpenSSL, ~3 ms of a cold call)

    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _verified_marker(path: Path, cache_dir: Path) -> Path:
    st = path.stat()
    key = sha1_hex(f"{path}:{st.st_size}:{st.st_mtime_ns}".encode())[:16]
    return cache_dir / f"verified-{key}"


def verify_file(path: Path, expected: str, cache_dir: Path | None) -> str:
    """Check ``path`` hashes to ``expected``; remember the hash so it runs once per file.

    Hashing 23 MB costs ~40 ms, too much for every cold CLI call; the marker is keyed
    by path, size and mtime, so a replaced file is checked again.
    """
    actual = _file_sha256(path, cache_dir)
    if actual != expected:
        raise EmbedderError(f"{path}: sha256 {actual[:12]}… does not match the pinned {expected[:12]}…")
    return actual


def _file_sha256(path: Path, cache_dir: Path | None) -> str:
    """sha256 of ``path``, remembered in ``cache_dir`` (keyed by path, size and mtime)."""
    marker = _verified_marker(path, cache_dir) if cache_dir else None
    if marker is not None:
        try:
            known = marker.read_text()
        except OSError:
            known = ""
        if len(known) == 64 and all(c in "0123456789abcdef" for c in known):
            return known
    digest = _sha256(path)
    if marker is not None:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            # another process may read it meanwhile: never let it see a half-written marker
            tmp = marker.with_name(f"{marker.name}.{os.getpid()}.tmp")
            tmp.write_text(digest)
            os.replace(tmp, marker)
        except OSError:
            pass  # a read-only cache only costs a re-hash next time
    return digest


def default_cache_dir() -> Path:
    """Where derived model files and checksum markers live (the user cache dir: platformdirs' path, without its
    import where memengine.recache can tell it)."""
    from memengine.recache import user_cache_folder

    return Path(user_cache_folder())
