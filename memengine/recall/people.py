"""People a store knows (authors, contact aliases) and the ones a query names (the person prior)."""

from __future__ import annotations

from memengine.storebase import StoreBase
from memengine.text import TOKEN_RE


class People(StoreBase):
    """The people room of recall (a part of :class:`memengine.store.MemoryStore`)."""

    def known_people(self) -> dict[str, str]:
        """Names the store knows (authors, contact aliases) → canonical name, lower-cased keys.

        Multi-word names also answer to their first word ("Ana" for "Ana García"),
        since that is how people ask.
        """
        # Kept per process and brought up to date cheaply: authors of memories newer than the
        # last look (ids only grow), everything again when the aliases table changed. A
        # full scan of authors costs ~30 ms at 100k memories, too much for every recall.
        max_id = self._vector_count()
        alias_key = tuple(self.conn.execute("SELECT count(*), max(rowid) FROM aliases").fetchone())
        cache = self._people_cache
        if cache is not None and cache[1] == alias_key and cache[0] == max_id:
            return cache[2]
        if cache is not None and cache[1] == alias_key and cache[0] < max_id:
            names = dict(cache[2])
            rows = self.conn.execute("SELECT DISTINCT author FROM memories WHERE id > ? AND author IS NOT NULL "
                                     "AND status = 'active'", (cache[0],)).fetchall()
        else:
            names = {}
            rows = self.conn.execute(
                "SELECT DISTINCT author FROM memories WHERE author IS NOT NULL AND status = 'active' "
                "UNION SELECT name FROM aliases WHERE kind = 'person'").fetchall()
        for (name,) in rows:
            if not name or len(name) < 2 or name.lower() in ("user", "assistant", "system", "tool"):
                continue
            names[name.lower()] = name
            first = name.split()[0]
            if first != name and len(first) >= 3 and first[0].isupper():
                names.setdefault(first.lower(), name)
        self._people_cache = (max_id, alias_key, names)
        return names

    def people_in(self, query: str) -> dict[str, str]:
        """Known people named in ``query``: matched word → canonical name."""
        people = self.known_people()
        if not people:
            return {}
        found: dict[str, str] = {}
        words = {w.lower() for w in TOKEN_RE.findall(query)}
        low = query.lower()
        for key, name in people.items():
            if (" " in key and key in low) or key in words:
                found[key] = name
        return found

