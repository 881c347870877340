"""Every export the importers have been shown (tests/fixtures and ../shared's real exports), reduced to one line
each: its detected kind, its record count, a digest of each record (content, ref, time, author, thread, position,
metadata, tags, links, aliases, type), its skip counts and a digest of its warnings; or the one-line refusal. Run it
on two trees and diff the outputs: a parser change that keeps older exports identical shows no line changed.

    .venv/bin/python bench/import_digest.py > after.tsv   # (from the tree to measure; ROOT/tests/fixtures is read)
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from importers import ImportFormatError, ImportReport  # noqa: E402
from importers.detect import detect  # noqa: E402
from importers.registry import PARSERS  # noqa: E402


def paths(roots: list[Path], skip: tuple[str, ...]) -> list[Path]:
    """Every file and folder below ``roots`` (but those whose path names a part in ``skip``), sorted."""
    out = []
    for root in roots:
        if root.exists():
            out += [p for p in root.rglob("*") if not any(s in p.relative_to(root).parts for s in skip)]
    return sorted(out)


def line(path: Path) -> str:
    """The digest line of one path."""
    try:
        kind = detect(path)
        rep = ImportReport(str(path), kind)
        h = hashlib.sha1()
        n = 0
        for r in PARSERS[kind].parse(path, rep):
            n += 1
            h.update(json.dumps([r.content, r.ref, r.event_at.isoformat() if r.event_at else None, r.author, r.thread,
                                 r.position, r.metadata, r.tags, r.links, r.aliases, r.memory_type, r.source],
                                sort_keys=True, default=str, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        skips = (rep.messages_seen, rep.skipped_system, rep.skipped_media, rep.skipped_empty, rep.skipped_malformed)
        said = "\n".join(rep.warnings).replace(str(ROOT), "")  # (the tree's own path: two trees compared)
        warn = hashlib.sha1(said.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        return f"{path}\t{kind}\t{n}\t{h.hexdigest()[:16]}\t{skips}\t{warn}"
    except ImportFormatError as exc:
        said = str(exc).split(" (tried ")[0]  # the list of formats tried grows each round
        return f"{path}\trefused\t{said}"
    except Exception as exc:  # noqa: BLE001 - a crash is a line of the table too
        return f"{path}\tcrash\t{type(exc).__name__}: {exc}"


def main() -> None:
    skip = tuple(sys.argv[1:]) or ("unseen24",)
    roots = [ROOT / "tests" / "fixtures", Path("/work/shared/data/realworld"), ROOT.parent / "shared" / "data" / "realworld"]
    seen = set()
    for p in paths(roots, skip):
        key = str(p).replace(str(ROOT), "")
        if key in seen:
            continue
        seen.add(key)
        print(line(p).replace(str(ROOT), ""))


if __name__ == "__main__":
    main()
