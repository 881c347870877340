"""What a store's reply says of a note longer than the model's window (users36).

The model reads a text's first ``max_tokens`` word pieces (MiniLM 256, e5 512); the text is stored and keyword-indexed
whole. An agent keeping a 2,400-word meeting note as one memory found its last line by keywords but not by meaning,
and nothing had said so: nothing was cut from the store, but the vector was made of the first tenth of it. The reply
now says it, with what to do.
"""

from __future__ import annotations

from typing import Any


def window_warning(embedder: Any, text: str) -> str | None:
    """A warning when ``text`` runs past ``embedder``'s window (None: it fits, or the embedder reads everything).

    A word piece holds at least one character, so a text no longer than the window in characters is never counted:
    the count (the tokenizer alone, never the model) runs only for long texts."""
    window = getattr(embedder, "max_tokens", None)
    if not window or len(text) <= window:
        return None
    try:
        n = int(embedder.count_tokens(text))
    except Exception:  # noqa: BLE001 - a warning never fails a store that succeeded
        return None
    if n <= window:
        return None
    return (f"this memory is {n:,} word pieces long: recall by meaning reads only its first {window} (keyword recall "
            "reads all of it), so a fact past them is found by its words only — store each fact as its own memory")
