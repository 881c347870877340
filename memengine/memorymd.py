"""The managed block that ``consolidate`` writes into a user's MEMORY.md.

The block lives between two marker lines::

    <!-- mem:begin -->
    ## Memory (managed by mem — edits inside this block are overwritten)
    ### Section
    - item
    <!-- mem:end -->

Everything outside the markers belongs to the user and is preserved byte for
byte: :func:`splice` only ever replaces the marker lines and what lies between
them, or appends a block after the user's text. When the markers are ambiguous
(a begin without an end, two begins, an end before a begin) it refuses with
:class:`ManagedBlockError` rather than guess which text is safe to overwrite.

A marker is a line whose only content (ignoring surrounding whitespace) is the
marker comment; mentioning the marker inside a sentence does not count. The one
exception is text glued after an end marker (``<!-- mem:end -->x``, what
``echo x >>`` made of a file without a final newline): the marker ends the block
and the text is the user's. The block always ends with a line break.

Edits inside the block are not lost either: the caller passes the digest of the block it last
wrote (:func:`block_digest`; consolidate keeps it in the store), and when the file's block no
longer has that digest someone edited it, so the whole file is first copied next to it
(``MEMORY.md.edited-<UTC time>``) and the copy is named in the result.
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Collection
from datetime import datetime, timezone
from pathlib import Path

BEGIN = "<!-- mem:begin -->"
END = "<!-- mem:end -->"
HEADING = "## Memory (managed by mem — edits inside this block are overwritten)"

# A file is treated as CRLF when most of its line breaks are CRLF; the block
# then uses CRLF too so editors do not flag (or "fix") mixed line endings.
_CRLF = "\r\n"
_LF = "\n"
_CR = "\r"  # a classic-Mac file's line break

# Item text that could be mistaken for a marker would make the *next* run see
# two begins and refuse; "<!--" is rendered as the visually identical entity.
_COMMENT_OPEN = re.compile(r"<!--")
_WHITESPACE_RUN = re.compile(r"\s+")


class ManagedBlockError(ValueError):
    """The file's markers are malformed; the message is one line naming the line."""


# --------------------------------------------------------------------------- render


def _clean(text: str) -> str:
    """One line of markdown: whitespace runs collapsed, comment openers escaped."""
    return _COMMENT_OPEN.sub("&lt;!--", _WHITESPACE_RUN.sub(" ", text).strip())


def _assemble(sections: list[tuple[str, list[str]]], standalone: Collection[str] = ()) -> str:
    lines = [BEGIN, HEADING]
    for title, items in sections:
        if not items and title not in standalone:
            continue
        lines.append(f"### {title}")
        lines.extend(f"- {item}" for item in items)
    lines.append(END)
    return _LF.join(lines)


def render_block(sections: list[tuple[str, list[str]]], budget_chars: int, standalone: Collection[str] = ()) -> str:
    """Render the managed block, markers included, in at most ``budget_chars`` characters.

    ``sections`` are in priority order, highest first. When the block does not
    fit, items are dropped from the end of the last non-empty section first
    (and a section left without items loses its heading too), so the most
    important memories survive. Item and title text is collapsed to one line.
    The result uses LF line breaks and has no trailing newline; :func:`splice`
    adapts it to the target file. Raises ``ValueError`` if even the empty block
    (markers and heading) exceeds the budget. A title in ``standalone`` (a brief
    topic's heading, which carries its lead line) is shown with no items too,
    and dropped whole, after its items, when the block does not fit.
    """
    alone = {_clean(t) for t in standalone}
    cleaned = [(_clean(title), [_clean(i) for i in items if _clean(i)]) for title, items in sections]
    skeleton = len(_assemble([]))
    if skeleton > budget_chars:
        raise ValueError(f"budget of {budget_chars} chars is below the empty block size ({skeleton})")
    # Length bookkeeping instead of re-rendering after each drop: each line
    # costs its length plus one LF.
    total = skeleton
    shown = [bool(items) or title in alone for title, items in cleaned]
    for (title, items), on in zip(cleaned, shown):
        if on:
            total += len(f"### {title}") + 1 + sum(len(f"- {i}") + 1 for i in items)
    for index in range(len(cleaned) - 1, -1, -1):
        title, items = cleaned[index]
        while items and total > budget_chars:
            total -= len(f"- {items.pop()}") + 1
            if not items and title not in alone:
                total -= len(f"### {title}") + 1
                shown[index] = False
        if shown[index] and title in alone and not items and total > budget_chars:
            total -= len(f"### {title}") + 1
            shown[index] = False
        if total <= budget_chars:
            break
    block = _assemble([c for c, on in zip(cleaned, shown) if on], alone)
    assert len(block) <= budget_chars  # the bookkeeping above must be exact
    return block


# --------------------------------------------------------------------------- splice


def _cr_only(text: str) -> bool:
    """A classic-Mac file: its lines end with CR alone (users26, users25 #10: the block came in LF after them)."""
    return "\r" in text and "\n" not in text


def _lines_with_offsets(text: str) -> list[tuple[int, int, str]]:
    """(start, end-without-terminator, content) for every line, split on LF (on CR in a CR-only file)."""
    out: list[tuple[int, int, str]] = []
    start = 0
    brk = _CR if _cr_only(text) else _LF
    while start <= len(text):
        nl = text.find(brk, start)
        stop = len(text) if nl < 0 else nl
        content_end = stop - 1 if stop > start and text[stop - 1] == "\r" else stop
        out.append((start, content_end, text[start:content_end]))
        if nl < 0:
            break
        start = nl + 1
    return out


# (users33 #4: each malformed-marker error says what to do, as every error does)
_ONE_BLOCK = ": delete one of the two blocks (mem rewrites the one left)"


def _find_block(text: str) -> tuple[int, int] | None:
    """Character span of the managed block (begin line start, end line content end).

    ``None`` when there are no markers at all; raises on malformed markers.
    """
    begin_at: tuple[int, int] | None = None  # (line number, offset)
    found: tuple[int, int] | None = None
    for number, (start, content_end, content) in enumerate(_lines_with_offsets(text), 1):
        marker = content.strip().lstrip("\ufeff").strip()
        if marker.startswith(END) and marker != END:
            # `echo x >> MEMORY.md` after a block written without a final newline gives
            # "<!-- mem:end -->x": the marker ends where END does, the rest is the user's.
            content_end = start + content.index(END) + len(END)
            marker = END
        if marker == BEGIN:
            if found is not None:
                raise ManagedBlockError(f"line {number}: second {BEGIN} marker (a managed block already ends earlier)"
                                        f"{_ONE_BLOCK}")
            if begin_at is not None:
                raise ManagedBlockError(f"line {number}: second {BEGIN} marker (first one at line {begin_at[0]})"
                                        f"{_ONE_BLOCK}")
            begin_at = (number, start)
        elif marker == END:
            if begin_at is None:
                if found is not None:
                    raise ManagedBlockError(f"line {number}: second {END} marker (the managed block already ended): "
                                            "delete that line")
                raise ManagedBlockError(f"line {number}: {END} marker without a preceding {BEGIN}: put {BEGIN} back "
                                        f"where the block starts, or delete that line")
            found = (begin_at[1], content_end)
            begin_at = None
    if begin_at is not None:
        raise ManagedBlockError(f"line {begin_at[0]}: {BEGIN} marker without a matching {END}: put {END} back after "
                                f"the block's last line, or delete the block (mem writes a new one)")
    return found


def _newline_of(text: str) -> str:
    if _cr_only(text):
        return _CR
    crlf = text.count("\r\n")
    lf_only = text.count("\n") - crlf
    return _CRLF if crlf > lf_only else _LF


def _check_block(block: str) -> None:
    """A block must be exactly one marker pair wrapping its content.

    Anything else would leave the file malformed for the next run (and the
    next run refuses malformed files), so it is a programming error here.
    """
    lines = block.split("\n")
    try:
        span = _find_block(block)
    except ManagedBlockError as exc:
        raise ValueError(f"not a managed block: {exc}") from None
    if span is None or lines[0].strip() != BEGIN or lines[-1].strip() != END:
        raise ValueError(f"not a managed block: it must start with {BEGIN} and end with {END}")


def splice(original: str, block: str) -> str:
    """Put ``block`` into ``original``, touching nothing outside the markers.

    With one well-formed marker pair, the marker lines and everything between
    them are replaced (the text before the begin line and after the end line —
    including the end line's own line break — is unchanged). Without markers
    the block is appended: the original is kept as an exact prefix, followed by
    a blank line separator when needed. The end marker line always ends with a
    line break, so text appended to the file later (``echo x >> MEMORY.md``)
    starts its own line; an end marker already followed by text on its line
    (``<!-- mem:end -->x``) ends at the marker, and the text moves to the next
    line. The block's line breaks follow the file's
    (CRLF or LF). Raises :class:`ManagedBlockError` on malformed markers in
    ``original`` and ``ValueError`` if ``block`` is not one marker pair.
    """
    body = block.replace("\r\n", "\n").strip("\n")
    _check_block(body)
    nl = _newline_of(original)
    body = body.replace("\n", nl)
    span = _find_block(original)
    if span is not None:
        start, end = span
        rest = original[end:]
        if not rest.startswith(("\n", "\r\n")) and not (nl == _CR and rest.startswith(_CR)):
            # the end marker was the file's last line without a line break, or text was
            # appended right after it: the block always ends its own line
            rest = nl + rest
        return original[:start] + body + rest
    if original == "":
        return body + nl
    if original.endswith(nl[-1]):
        separator = "" if original.endswith(("\n\n", "\n\r\n", "\r\r")) else nl
        return original + separator + body + nl
    return original + nl + nl + body + nl


def block_digest(text: str) -> str | None:
    """A digest of the managed block in ``text`` (None without one; malformed markers raise).

    Line breaks are read as LF and trailing spaces dropped from each line, so an editor that
    converts line endings or trims lines does not count as an edit; any other change does.
    """
    span = _find_block(text)
    return None if span is None else digest(text[span[0]:span[1]])


def digest(block: str) -> str:
    """The digest :func:`block_digest` gives a file holding ``block`` (16 hex digits of SHA-256)."""
    lines = [line.rstrip() for line in block.replace("\r\n", "\n").replace("\r", "\n").strip("\n").split("\n")]
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def strip_block(text: str) -> str:
    """``text`` without the managed block (marker lines and their line break).

    Used by the markdown importer so mem never re-imports its own output.
    Text without markers is returned unchanged; malformed markers raise
    :class:`ManagedBlockError` (the importer decides whether to skip the file).
    """
    span = _find_block(text)
    if span is None:
        return text
    start, end = span
    if end < len(text) and text[end] not in "\r\n":
        return text[:start] + text[end:]  # text right after the end marker: it stays, on its own line
    if text.startswith("\r\n", end):
        end += 2
    elif text.startswith("\n", end) or _cr_only(text) and text.startswith(_CR, end):
        end += 1
    return text[:start] + text[end:]


# --------------------------------------------------------------------------- write


_UTF16 = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def _codec(data: bytes) -> tuple[bytes, str]:
    """(BOM, codec) the file is written in: UTF-16 when it starts with a UTF-16 BOM and reads as UTF-16 (Windows
    Notepad's "Unicode"; UTF-8 appended to it made it neither: users25), else UTF-8 (no BOM to add: a UTF-8 BOM is
    text, kept as the file's first character)."""
    for bom, codec in _UTF16:
        if data.startswith(bom) and not data.startswith(codecs.BOM_UTF32_LE) and len(data) % 2 == 0:
            try:
                data[len(bom):].decode(codec)
            except UnicodeDecodeError:
                break
            return bom, codec
    return b"", "utf-8"


def _decode(data: bytes, how: tuple[bytes, str] = (b"", "utf-8")) -> str:
    # surrogateescape round-trips any bytes, so a file that is not valid UTF-8
    # still comes back byte-identical outside the block.
    return data[len(how[0]):].decode(how[1], errors="surrogateescape")


def _encode(text: str, how: tuple[bytes, str] = (b"", "utf-8")) -> bytes:
    return how[0] + text.encode(how[1], errors="surrogateescape")


Snapshot = tuple[int, int, str]  # (mtime_ns, size, sha256 hex) of a file's content


def _read(path: Path) -> tuple[bytes, Snapshot, int] | None:
    """Bytes, snapshot and permission bits from one open file; None if absent."""
    try:
        with path.open("rb") as fh:
            st = os.fstat(fh.fileno())
            data = fh.read()
    except FileNotFoundError:
        return None
    return data, (st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest()), stat.S_IMODE(st.st_mode)


def _snapshot(path: Path) -> Snapshot | None:
    read = _read(path)
    return None if read is None else read[1]


def _default_mode() -> int:
    # Reading the umask requires setting it; restore it at once. New files get
    # the mode a plain open() would have given them, not mkstemp's 0600.
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _save_edited(target: Path, data: bytes) -> Path:
    """A copy of the file as it is, next to it, under a name no other file has; returns its path."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    for n in range(1000):
        copy = target.with_name(f"{target.name}.edited-{stamp}" + (f"-{n}" if n else ""))
        try:
            fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        return copy
    raise ManagedBlockError(f"could not save a copy of the edited block next to {target.name}")


def write_managed_block(
    path: Path,
    block: str,
    max_retries: int = 5,
    *,
    previous: str | None = None,
    saved: list[Path] | None = None,
    _before_replace: Callable[[], None] | None = None,
) -> bool:
    """Write ``block`` into the file at ``path``; return True if the file changed.

    Reads the bytes, splices, writes a temporary file in the same directory and
    ``os.replace``-s it over the original (atomic: readers see the old or the
    new file, never half of one), keeping the file's permission bits. Just
    before replacing, the file is checked again (mtime_ns, size, sha256); if
    another writer changed it meanwhile, the splice is redone on the new text,
    up to ``max_retries`` times, then :class:`ManagedBlockError` is raised.
    When the result is identical to the current content nothing is written
    (the mtime does not move). A missing file is created. A symlink is
    followed, so the link itself survives. ``previous`` is the :func:`digest` of the
    block this caller wrote last time: when the file's block differs from it (someone
    edited inside the block) and from ``block``, the file is first copied to
    ``<name>.edited-<UTC time>``, whose path is appended to ``saved``.
    ``_before_replace`` is a test hook called after the temp file is written and
    before the check.
    """
    target = Path(os.path.realpath(path))
    kept: set[str] = set()  # the edited texts already copied (a retry re-reads the file)
    for _attempt in range(max_retries + 1):
        current = _read(target)
        if current is None:
            original_bytes, before, mode = b"", None, _default_mode()
        else:
            original_bytes, before, mode = current
        how = _codec(original_bytes)
        original = _decode(original_bytes, how)
        new_bytes = _encode(splice(original, block), how)
        if before is not None and new_bytes == original_bytes:
            return False
        if before is not None and not mode & stat.S_IWUSR:
            # os.replace would swap a read-only file for a new one (the folder allows it, and
            # root ignores modes): the owner made it read-only, so it is left alone
            raise ManagedBlockError(f"read-only (mode {mode:04o}): left as it is; chmod u+w to let "
                                    "consolidate update its block")
        found = block_digest(original) if previous is not None else None
        if found is not None and before is not None and found not in (previous, digest(block)) \
                and before[2] not in kept:
            copy = _save_edited(target, original_bytes)  # the user's edits inside the block survive here
            kept.add(before[2])
            if saved is not None:
                saved.append(copy)
        fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".mem-tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(new_bytes)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp_name, mode)
            if _before_replace is not None:
                _before_replace()
            if _snapshot(target) != before:
                continue  # another writer got in between: redo on their text
            os.replace(tmp_name, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp_name)
        _fsync_dir(target.parent)
        return True
    raise ManagedBlockError(f"{path}: file kept changing while writing the managed block ({max_retries} retries)")


def preview(path: Path, block: str, previous: str | None = None) -> tuple[bool, bool]:
    """What :func:`write_managed_block` would do, without writing: (the file would change, its block was edited and
    would first be copied aside). Read as the writer reads it, in the file's encoding (users26: a dry run read a
    UTF-16 file as UTF-8 and always said "changed"). Raises :class:`ManagedBlockError` where the writer would."""
    current = _read(Path(os.path.realpath(path)))
    if current is None:
        return True, False
    data, _snap, mode = current
    how = _codec(data)
    original = _decode(data, how)
    changed = _encode(splice(original, block), how) != data
    if changed and not mode & stat.S_IWUSR:
        raise ManagedBlockError(f"read-only (mode {mode:04o}): left as it is; chmod u+w to let "
                                "consolidate update its block")
    found = block_digest(original) if previous is not None else None
    return changed, changed and found is not None and found not in (previous, digest(block))


def missing_folder(path: Path) -> str | None:
    """What to tell of a MEMORY.md whose folder is missing (users26: "No such file or directory" named the link, or
    a file the user meant to be created), else None."""
    target = Path(os.path.realpath(path))
    if target.parent.is_dir():
        return None
    via = f" (the link points to {target})" if path.is_symlink() else ""
    return f"its folder {target.parent} does not exist{via}: create it, or give --memory-md a file in a folder that is there"


def write_failed(path: Path, exc: OSError) -> tuple[str, str]:
    """The kind (``disk_full``, ``read_only``, ``invalid_input``) and one-line message of a MEMORY.md that could not
    be written. A full disk or a read-only folder is not the user's bad input: the nightly cron's exit code says
    which (10, 9), as for the memory file itself (users34: a full disk was exit 1 "No space left on device")."""
    import errno

    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "disk_full", (f"{path}: the disk holding it is full: the file is as it was; free some space, then "
                             f"`mem.py consolidate --phases write --memory-md {path}` writes the block")
    if exc.errno == errno.EROFS or (exc.errno in (errno.EACCES, errno.EPERM)
                                    and not os.access(Path(os.path.realpath(path)).parent, os.W_OK)):
        return "read_only", (f"{path}: its folder cannot be written (consolidate writes a new file beside it and "
                             "renames it over the old one): the file is as it was")
    return "invalid_input", f"{path}: {missing_folder(path) or exc.strerror or exc}"


def _fsync_dir(directory: Path) -> None:
    """Make the rename durable; not every platform can open a directory."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
