"""``--author NAME`` (recall, list): memories a person wrote, as the chats and mail imported name them.

A person is asked about by the name they are known by ("what did Ana say about the cabin?"), while an import stores
the name the app wrote: "Ana Souza" from WhatsApp, "Ana" from Telegram. So a name matches an author equal to it
(case aside) or whose first word it is: ``--author Ana`` finds "Ana", "ana" and "Ana Souza", not "Anabel" nor
"Maria Ana"; ``--author "Ana Souza"`` finds only "Ana Souza". Repeatable: any of the names. No index reads
``author`` (a schema change): the clause is one more condition on the rows the other filters and the retrievers
already chose, as ``--tag`` is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def _like(name: str) -> str:
    """``name`` as a LIKE pattern of itself followed by a space and anything (its wildcards escaped)."""
    return name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " %"


def names(authors: Iterable[str]) -> list[str]:
    """The names asked for, blanks squeezed, empty ones dropped."""
    return [n for n in (" ".join(str(a).split()) for a in authors) if n]


def author_sql(alias: str, authors: Iterable[str]) -> tuple[str, list[Any]]:
    """A clause over ``alias.author`` true for a memory written by any of ``authors`` (see the module docstring),
    and its arguments. No name at all matches nothing (an empty ``--author ""`` is no wildcard)."""
    wanted = names(authors)
    if not wanted:
        return "0", []
    one = f"({alias}.author = ? COLLATE NOCASE OR {alias}.author LIKE ? ESCAPE '\\')"
    args: list[Any] = []
    for n in wanted:
        args += [n, _like(n)]
    return "(" + " OR ".join([one] * len(wanted)) + ")", args


def unknown(conn: Any, authors: Iterable[str]) -> list[str]:
    """The names of ``authors`` no memory of the store (any status) was written by: a typo, or a store that holds
    no authors (notes stored without ``--author``), said as a warning rather than as a silent empty answer."""
    out = []
    for n in names(authors):
        clause, args = author_sql("m", [n])
        if conn.execute(f"SELECT 1 FROM memories m WHERE {clause} LIMIT 1", args).fetchone() is None:
            out.append(n)
    return out
