"""The ``stop-words`` package's lists, per language, and the index of which languages hold a word (split out of
memengine/summarize.py, brief26: summarize reads them to tell a text's language; they are read once per process, or as
the last one-shot call built them: memengine/recache.py ``kept``)."""

from __future__ import annotations

import functools


@functools.cache
def _lists_key() -> str:
    """The ``stop-words`` package's files (path, size, modification time): what its lists are built from."""
    import importlib.util
    import os

    spec = importlib.util.find_spec("stop_words")
    if spec is None or not spec.origin:
        return ""
    folder = os.path.dirname(spec.origin)
    parts = []
    for root in (folder, os.path.join(folder, "stop-words")):
        for entry in sorted(os.scandir(root), key=lambda e: e.name):
            if entry.is_file():
                st = entry.stat()
                parts.append(f"{entry.path}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


@functools.cache
def _language_lists() -> dict[str, frozenset[str]]:
    """Every stopword list of the ``stop-words`` package (~10 ms, once per process; a one-shot ``mem.py`` call
    reads them as the last call built them: memengine/recache.py ``kept``); {} without it."""
    from memengine import recache

    return recache.kept("stopword-lists", _lists_key(), _read_language_lists)  # type: ignore[no-any-return]


def _read_language_lists() -> dict[str, frozenset[str]]:
    try:
        import stop_words
    except ImportError:  # pragma: no cover - a declared dependency; English alone then
        return {}
    return {lang: frozenset(w.lower() for w in stop_words.get_stop_words(lang))
            for lang in stop_words.AVAILABLE_LANGUAGES}


@functools.cache
def _word_languages() -> dict[str, tuple[str, ...]]:
    """Stopword -> the languages whose list holds it (one dict probe per word, not one per language; kept for
    the next one-shot call as :func:`_language_lists`)."""
    from memengine import recache

    return recache.kept("stopword-languages", _lists_key(), _build_word_languages)  # type: ignore[no-any-return]


def _build_word_languages() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for lang, stop in sorted(_language_lists().items()):
        for w in stop:
            out.setdefault(w, []).append(lang)
    return {w: tuple(langs) for w, langs in out.items()}
