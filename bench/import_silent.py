"""A survey for silent losses (round layouts29): every export under tests/fixtures (and ../shared's real exports)
read by the parser its detection picks, and by every parser forced on it (`mem.py import FORMAT PATH`); a read that
yields no record and says no warning though it saw messages (every one skipped) is flagged "silent": `mem.py import`
ends with exit 0, "0 memories" and no word of why (last round's DeepSeek export read as ChatGPT's was one); a read
that saw nothing is "warned" (the import says "nothing to import"). With --forced, a file the detected parser reads
no record of while another parser reads some is flagged too (was the right reader picked?).

    .venv/bin/python bench/import_silent.py            # detected kinds only
    .venv/bin/python bench/import_silent.py --forced   # and every parser on every file (slower)

Prints one line per flagged (path, parser) and a summary line; CPU seconds at the end."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from importers import ImportFormatError, ImportReport  # noqa: E402
from importers.detect import detect  # noqa: E402
from importers.registry import PARSERS  # noqa: E402

MAX_FORCED_BYTES = 2 * 1024 * 1024  # forced parsers read the fixtures, not the large real exports


def outcome(path: Path, kind: str) -> tuple[int, ImportReport] | str:
    """(records, report) of ``kind``'s parser on ``path``; "refused" for a one-line refusal; "crash: …" for any other
    exception."""
    rep = ImportReport(str(path), kind)
    try:
        return sum(1 for _ in PARSERS[kind].parse(path, rep)), rep
    except ImportFormatError:
        return "refused"
    except Exception as exc:  # noqa: BLE001 - a crash is a finding too
        return f"crash: {type(exc).__name__}: {str(exc)[:80]}"


def verdict(result: tuple[int, ImportReport] | str) -> str | None:
    """How `mem.py import` would end on ``result``: "silent" (no record, messages seen but every one skipped, no
    warning: exit 0 and no word of why), "warned" (nothing seen: the import says "nothing to import"), a crash, or
    None (records, or a refusal)."""
    if isinstance(result, str):
        return result if result.startswith("crash") else None
    n, rep = result
    if n or rep.warnings:
        return None
    return "silent" if rep.messages_seen else "warned"


def main() -> None:
    forced = "--forced" in sys.argv
    roots = [ROOT / "tests" / "fixtures", ROOT.parent / "shared" / "data" / "realworld"]
    paths = sorted(p for root in roots if root.exists() for p in root.rglob("*"))
    start = time.process_time()
    flagged: dict[str, int] = {}

    def flag(what: str, line: str) -> None:
        flagged[what] = flagged.get(what, 0) + 1
        print(f"{what}\t{line}".replace(str(ROOT), ""))

    for path in paths:
        try:
            kind = detect(path)
        except ImportFormatError:
            kind = None
        except Exception as exc:  # noqa: BLE001
            flag("detect-crash", f"{path}\t{type(exc).__name__}: {exc}")
            continue
        mine = outcome(path, kind) if kind else "refused"
        said = verdict(mine)
        if kind and said:
            flag(f"detected-{said.split(':')[0]}", f"{kind}\t{path}\t{said}")
        if not forced or path.is_dir() or path.stat().st_size > MAX_FORCED_BYTES:
            continue
        got = mine[0] if isinstance(mine, tuple) else 0
        for name in PARSERS:
            if name == kind or path.suffix.lower() not in PARSERS[name].suffixes:
                continue  # (a forced format is offered for the file kinds it reads)
            other = outcome(path, name)
            said = verdict(other)
            if said:
                flag(f"forced-{said.split(':')[0]}", f"{name}\t{path}\t{said}")
            if isinstance(other, tuple) and other[0] and not got:  # another reader finds some: was the right one picked?
                flag("another-reads-more", f"{kind} {got} < {name} {other[0]}\t{path}")
    print(f"# {len(paths)} paths; " + ", ".join(f"{k} {v}" for k, v in sorted(flagged.items())) +
          f"; CPU {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
