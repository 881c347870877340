"""Joplin's exports of RAW items, read by the markdown importer (:mod:`importers.markdown`): a JEX file
("Joplin Export File", ``.jex``) is an uncompressed tar of the same ``<32-hex id>.md`` items as the RAW
export folder (:func:`importers.markdown_apps.joplin_raw` reads one), plus ``resources/`` (attachments).

Items of type 1 are notes; 2 notebooks; 5 tags (their title is the tag's name); 6 the links of a note
to a tag (``note_id``, ``tag_id``): :func:`tags` reads them so that a note carries its tags, in a JEX
as in a RAW folder. :func:`unpack` writes the items of a JEX into a folder (nothing else: no
resource, no path of the tar's choosing), each capped, for the folder reader.
"""

from __future__ import annotations

import re
import shutil
import tarfile
from pathlib import Path

from importers import ImportFormatError
from importers._common import decode_text, split_lines

ITEM_RE = re.compile(r"[0-9a-f]{32}\.md")
MAX_ITEMS = 200_000  # a JEX of more items is no notebook export
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024  # what one JEX may unpack to (notes only)
_LINE_RE = re.compile(r"^(id|type_|title|note_id|tag_id): ?(.*)$")


def is_tar_head(head: bytes) -> bool:
    """A POSIX tar by its first header's magic ("ustar" at byte 257; Joplin writes one)."""
    return len(head) >= 262 and head[257:262] == b"ustar"


def is_tar(path: Path) -> bool:
    """A file that is a tar archive (by :func:`is_tar_head`)."""
    try:
        with path.open("rb") as fh:
            return is_tar_head(fh.read(512))
    except OSError:
        return False


def unpack(path: Path, dest: Path, note_cap: int) -> int:
    """Write the RAW items of the JEX at ``path`` under ``dest`` by their base name; returns how many.
    An item past ``note_cap`` is copied to ``note_cap`` + 1 bytes (the parser refuses it, naming it).
    A tar that cannot be read is a one-line error naming it."""
    count = total = 0
    try:
        with tarfile.open(path, "r:") as tar:
            for member in tar:
                base = member.name.replace("\\", "/").rsplit("/", 1)[-1]
                if not member.isfile() or not ITEM_RE.fullmatch(base):
                    continue  # resources, folders, links: not notes
                count += 1
                if count > MAX_ITEMS:
                    raise ImportFormatError(f"over {MAX_ITEMS} items: no Joplin export", str(path))
                src = tar.extractfile(member)
                if src is None:
                    continue
                target = dest / base
                with src, target.open("wb") as out:
                    shutil.copyfileobj(_Capped(src, note_cap + 1), out)
                total += target.stat().st_size
                if total > MAX_TOTAL_BYTES:
                    raise ImportFormatError(f"unpacks to over {MAX_TOTAL_BYTES} bytes of notes", str(path))
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise ImportFormatError(f"cannot read tar archive ({exc})", str(path)) from None
    return count


class _Capped:
    """A reader giving at most ``cap`` bytes of ``raw``."""

    def __init__(self, raw: object, cap: int) -> None:
        self.raw, self.left = raw, cap

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all that is left under the cap when negative)."""
        if self.left <= 0:
            return b""
        size = self.left if size < 0 else min(size, self.left)
        data: bytes = self.raw.read(size)  # type: ignore[attr-defined]
        self.left -= len(data)
        return data


def _fields(file: Path) -> dict[str, str]:
    """The metadata block of one RAW item (its last lines): id, type_, note_id, tag_id; the title
    is the first line."""
    try:
        lines = split_lines(decode_text(file.read_bytes(), str(file)))
    except ImportFormatError:
        return {}
    fields = {m.group(1): m.group(2).strip() for m in map(_LINE_RE.match, lines[-60:]) if m}
    if lines and fields.get("type_") == "5":
        fields["title"] = lines[0].strip()
    return fields


def tags(files: list[Path]) -> dict[str, list[str]]:
    """{note id: its tags' names} from the tag (type 5) and note-tag (type 6) items among ``files``
    (only ``<32-hex id>.md`` files are looked at; empty for other notes)."""
    items = [f for f in files if ITEM_RE.fullmatch(f.name)]
    if not items:
        return {}
    names: dict[str, str] = {}
    links: list[tuple[str, str]] = []
    for file in items:
        if file.stat().st_size > 64 * 1024:
            continue  # a note (type 1) can be long; tags and links are a few hundred bytes
        f = _fields(file)
        if f.get("type_") == "5" and f.get("id") and f.get("title"):
            names[f["id"]] = f["title"]
        elif f.get("type_") == "6" and f.get("note_id") and f.get("tag_id"):
            links.append((f["note_id"], f["tag_id"]))
    out: dict[str, list[str]] = {}
    for note, tag in links:
        if tag in names:
            out.setdefault(note, []).append(names[tag])
    return out
