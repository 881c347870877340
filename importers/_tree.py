"""An app's data download as a tree of files, the same whether it was unpacked into a folder or kept as the zip it
came in (Discord's package, Hinge's and Tinder's downloads, Mattermost's export): its files' relative names, each
opened or read when its turn comes (a zip member capped, never extracted), and JSON files loaded with one-line
errors naming the file. For the readers of round 24 (:mod:`importers.discord_package` and the others)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from importers import ImportFormatError
from importers._zips import DEFAULT_MAX_MEMBER_BYTES, ZIP_ERRORS, ZIP_OPEN_ERRORS, _Limited, is_junk_member

MAX_JSON_FILE_BYTES = 256 * 1024 * 1024  # one JSON file loaded whole (a chat's messages); past it: refused by name
MAX_NAMES = 200_000  # names listed of a folder or zip (a download holds a few thousand)


class Tree:
    """The files of a folder or a zip, by their relative names (``a/b.json``), hidden files and zip junk left out."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.is_zip = path.is_file()
        self.names: list[str] = []
        if self.is_zip:
            try:
                with zipfile.ZipFile(path) as zf:
                    self.names = sorted(n for n in zf.namelist()[:MAX_NAMES]
                                        if not n.endswith("/") and not is_junk_member(n))
            except ZIP_OPEN_ERRORS as exc:
                raise ImportFormatError(f"malformed zip archive ({exc})", str(path)) from None
        else:
            for p in path.rglob("*"):
                rel = p.relative_to(path)
                if not any(part.startswith(".") for part in rel.parts) and p.is_file():
                    self.names.append(rel.as_posix())
                    if len(self.names) >= MAX_NAMES:
                        break
            self.names.sort()

    def where(self, name: str) -> str:
        """How an error names the file ``name``: its path, or the zip's path and the member."""
        return f"{self.path}!{name}" if self.is_zip else str(self.path / name)

    @contextmanager
    def open(self, name: str) -> Iterator[IO[bytes]]:
        """The file ``name`` opened for reading (a zip member streamed, capped)."""
        where = self.where(name)
        if not self.is_zip:
            with (self.path / name).open("rb") as fh:
                yield fh
            return
        try:
            with zipfile.ZipFile(self.path) as zf, zf.open(name) as raw:
                yield io.BufferedReader(_Limited(raw, DEFAULT_MAX_MEMBER_BYTES, where))  # type: ignore[arg-type]
        except ImportFormatError:
            raise
        except ZIP_OPEN_ERRORS as exc:
            raise ImportFormatError(f"cannot read ({exc})", where) from None

    def read(self, name: str, limit: int = MAX_JSON_FILE_BYTES) -> bytes:
        """The bytes of ``name``; past ``limit``: refused by name."""
        try:
            with self.open(name) as fh:
                data = fh.read(limit + 1)
        except ImportFormatError:
            raise
        except ZIP_ERRORS as exc:
            raise ImportFormatError(f"cannot read ({exc})", self.where(name)) from None
        if len(data) > limit:
            raise ImportFormatError(f"file larger than {limit} bytes", self.where(name))
        return data

    def json(self, name: str) -> Any:
        """The JSON of ``name`` (UTF-8, a BOM or a damaged byte tolerated); invalid or cut: one line naming it."""
        return load_json(self.read(name), self.where(name))


def load_json(data: bytes, where: str) -> Any:
    """JSON of ``data``; invalid or cut: a one-line error naming ``where`` and the line."""
    text = data.decode("utf-8-sig", "replace")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(f"invalid or truncated JSON ({exc.msg} at column {exc.colno})", where,
                                exc.lineno) from None
    except RecursionError:
        raise ImportFormatError("JSON nested too deep", where) from None
