"""Every real-world export in ../shared/data must parse; chat-miner files must match target.json."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from importers import ImportReport, Record
from importers.detect import PARSERS, detect

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"


def _files() -> list[Path]:
    if not DATA.is_dir():
        return []
    return sorted(
        p
        for p in DATA.rglob("*")
        if p.is_file() and p.suffix in (".txt", ".zip", ".json", ".md", ".vcf") and "expected_target" not in p.name
    )


def _run(path: Path) -> tuple[list[Record], ImportReport]:
    kind = detect(path)
    report = ImportReport(str(path), kind)
    return list(PARSERS[kind](path, report)), report


@pytest.mark.parametrize("path", _files() or [None], ids=lambda p: p.name if p else "absent")
def test_parses_without_error(path: Path | None) -> None:
    if path is None:
        pytest.skip("../shared/data absent")
    recs, rep = _run(path)
    expected_kind = {"whatsapp": "whatsapp", "zip": "whatsapp", "chatgpt": "chatgpt", "claude": "claude",
                     "markdown": "markdown", "vcf": "vcf"}[path.parent.name]
    assert rep.format == expected_kind
    assert recs, f"{path.name}: no records"
    assert len({r.ref for r in recs}) == len(recs), "refs must be unique"
    assert all(r.content.strip() for r in recs)
    assert rep.messages_seen >= len(recs)
    print(
        f"\n{path.name} | {rep.format} | {rep.variant} | seen={rep.messages_seen} records={len(recs)} "
        f"system={rep.skipped_system} media={rep.skipped_media} warnings={len(rep.warnings)}"
    )


CHATMINER = [
    "chatminer_android_ddmmyy_24h.txt",
    "chatminer_android_mmddyy_24h.txt",
    "chatminer_android_mmddyyyy_12h_spanish_ampm.txt",
    "chatminer_android_yyyymmdd_24h.txt",
    "chatminer_ios_brackets_mmddyy_24h.txt",
]


@pytest.mark.parametrize("name", CHATMINER)
def test_chatminer_target(name: str) -> None:
    if not DATA.is_dir():
        pytest.skip("../shared/data absent")
    target = json.loads((DATA / "whatsapp" / "chatminer_expected_target.json").read_text(encoding="utf-8"))
    recs, _ = _run(DATA / "whatsapp" / name)
    # target.json is newest first and joins continuation lines with a space.
    got = [
        {
            "timestamp": r.event_at.isoformat() if isinstance(r.event_at, datetime) else None,
            "author": r.author,
            "message": " ".join(r.content.split(": ", 1)[1].split("\n")),
        }
        for r in reversed(recs)
    ]
    assert got == target


def test_media_and_system_counts() -> None:
    if not DATA.is_dir():
        pytest.skip("../shared/data absent")
    recs, rep = _run(DATA / "whatsapp" / "whatsjson_ios_en_with_media_attached.txt")
    assert (rep.messages_seen, len(recs), rep.skipped_system, rep.skipped_media) == (25, 6, 5, 14)
    recs, rep = _run(DATA / "whatsapp" / "zip" / "pustur_ios_group_export_with_media.zip")
    assert (len(recs), rep.skipped_system, rep.skipped_media) == (44, 4, 4)
    assert rep.variant["platform"] == "ios" and rep.variant["date_order"] == "dmy"
