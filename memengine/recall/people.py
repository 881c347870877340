"""People a store knows (authors, contact aliases) and the ones a query names (the person prior)."""

from __future__ import annotations

import re

from memengine.storebase import StoreBase
from memengine.text import TOKEN_RE

POSSESSIVE_RE = re.compile(r"(\w)['’]s\b")


class People(StoreBase):
    """The people room of recall (a part of :class:`memengine.store.MemoryStore`)."""

    def known_people(self) -> dict[str, str]:
        """Names the store knows (authors, contact aliases) → canonical name, lower-cased keys.

        Multi-word names also answer to their first word ("Ana" for "Ana García"),
        since that is how people ask.
        """
        # The authors come from memory_authors (m007), which triggers keep exact across
        # insert/update/forget/restore/delete: no scan of every row (0.23 s at 100k). The
        # dict is rebuilt only when the database changed and the names read differ.
        key = (self.conn.execute("PRAGMA data_version").fetchone()[0], self.conn.total_changes)
        cache = self._people_cache
        if cache is not None and cache[0] == key:
            return cache[2]
        rows = self.conn.execute(
            "SELECT author FROM memory_authors UNION SELECT name FROM aliases WHERE kind = 'person'").fetchall()
        seen = tuple(r[0] for r in rows)
        if cache is not None and cache[1] == seen:
            self._people_cache = (key, seen, cache[2])
            return cache[2]
        names: dict[str, str] = {}
        for (name,) in rows:
            if not name or len(name) < 2 or name.lower() in ("user", "assistant", "system", "tool"):
                continue
            names[name.lower()] = name
            first = name.split()[0]
            if first != name and len(first) >= 3 and first[0].isupper():
                names.setdefault(first.lower(), name)
        self._people_cache = (key, seen, names)
        return names

    def people_in(self, query: str) -> dict[str, str]:
        """Known people named in ``query``: matched word → canonical name."""
        people = self.known_people()
        if not people:
            return {}
        found: dict[str, str] = {}
        # a possessive names its person too ("Maria's puppy", "Ana’s"), as query_terms reads it:
        # LoCoMo dev r@5 +0.005, leave-one-out +0.005, real chats unchanged (bench/README.md, issue 19)
        low = POSSESSIVE_RE.sub(r"\1", query.lower())
        words = set(TOKEN_RE.findall(low))
        for key, name in people.items():
            if (" " in key and key in low) or key in words:
                found[key] = name
        return found

