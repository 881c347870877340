"""Markdown parser: headings, front matter, wikilinks, managed block, daily logs, tags."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from importers import ImportReport, Record, markdown

NOTES = Path(__file__).parent / "fixtures" / "markdown" / "notes"


def run(path: Path) -> tuple[list[Record], ImportReport]:
    report = ImportReport(str(path), "markdown")
    return list(markdown.parse(path, report)), report


def test_directory_import() -> None:
    recs, rep = run(NOTES)
    by_ref = {r.ref: r for r in recs}
    assert list(by_ref) == [
        "markdown:Deploy Notes.md::0",
        "markdown:MEMORY.md:Projects:0",
        "markdown:MEMORY.md:Projects > Gateway:0",
        "markdown:MEMORY.md:Projects > Later:0",
        "markdown:memory/2024-03-01.md:Standup (09:30 UTC):0",
        "markdown:memory/2024-03-02-1415.md::0",
    ]
    gw = by_ref["markdown:MEMORY.md:Projects > Gateway:0"]
    assert gw.content == (
        "Projects > Gateway: Uses the deploy guide and diagram.png.\n```bash\n# not a heading\necho hi\n```"
    )
    assert gw.metadata["heading_path"] == ["Projects", "Gateway"]
    assert gw.links == [("markdown:Deploy Notes.md::0", "explicit")]
    assert gw.metadata["embeds"] == ["diagram.png"]
    assert gw.memory_type == "procedural"  # front matter type wins
    assert gw.event_at == datetime(2024, 1, 5)
    later = by_ref["markdown:MEMORY.md:Projects > Later:0"]
    assert later.links == [("markdown:memory/2024-03-01.md:Standup (09:30 UTC):0", "explicit")]
    assert later.metadata["unresolved_links"] == ["Missing Note"]
    intro = by_ref["markdown:MEMORY.md:Projects:0"]
    assert intro.tags == ["ops", "infra", "urgent"]
    assert by_ref["markdown:Deploy Notes.md::0"].tags == ["ops/deploy"]
    assert by_ref["markdown:Deploy Notes.md::0"].memory_type == "semantic"
    daily = by_ref["markdown:memory/2024-03-01.md:Standup (09:30 UTC):0"]
    assert (daily.memory_type, daily.event_at) == ("episodic", datetime(2024, 3, 1, 9, 30))
    stub = by_ref["markdown:memory/2024-03-02-1415.md::0"]
    assert (stub.content, stub.event_at) == ("2024-03-02-1415: Short session.", datetime(2024, 3, 2, 14, 15))
    assert not any("generated text" in r.content or "should never" in r.content for r in recs)
    assert rep.skipped_empty == 1  # "## Empty"


def test_front_matter_needs_line_one_and_closing_fence(tmp_path: Path) -> None:
    p = tmp_path / "note.md"
    p.write_text("---\ntitle: not closed\nbody text\n", encoding="utf-8")
    recs, _ = run(p)
    assert len(recs) == 1 and "frontmatter" not in recs[0].metadata
    assert recs[0].content == "note: ---\ntitle: not closed\nbody text"


def test_front_matter_subset_parser() -> None:
    data = markdown.parse_front_matter(
        ["tags:", "  - a", "  - 'b c'", "n: 3", "ok: true", "links: [y, '[[X]]']", "garbage line", "date: 2023-09-12"]
    )
    assert data == {"tags": ["a", "b c"], "n": 3, "ok": True, "links": ["y", "[[X]]"], "date": "2023-09-12"}


def test_long_section_chunked(tmp_path: Path) -> None:
    p = tmp_path / "long.md"
    para = "word " * 140
    p.write_text("# Big\n" + "\n\n".join([para.strip()] * 4) + "\n", encoding="utf-8")
    recs, _ = run(p)
    assert [r.ref for r in recs] == ["markdown:long.md:Big:0", "markdown:long.md:Big:1"]
    assert all(len(r.content) <= markdown.CHUNK_CHARS + len("Big: ") for r in recs)
    assert all(r.content.startswith("Big: ") for r in recs)


def test_reimport_is_stable() -> None:
    assert [r.ref for r in run(NOTES)[0]] == [r.ref for r in run(NOTES)[0]]


def test_a_note_with_an_overlong_line_is_refused_and_its_folder_siblings_kept(tmp_path: Path) -> None:
    from importers import markdown as md
    from importers._common import MAX_LINE_CHARS

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "blob.md").write_text("# Blob\n" + "b" * (MAX_LINE_CHARS + 1) + "\nend\n", encoding="utf-8")
    (vault / "ok.md").write_text("# Ok\nA normal note about the garden.\n", encoding="utf-8")
    assert md._longest_line(vault / "blob.md", chunk=4096) == MAX_LINE_CHARS + 1
    report = md.ImportReport(str(vault), "markdown")
    records = list(md.parse(vault, report))
    assert records and all("b" * 100 not in r.content for r in records)
    assert all("garden" in r.content for r in records)
    assert report.skipped_oversized == 1
    assert any("blob.md: a line of 1000001 bytes, over the 1000000-byte line limit; skipped" in w for w in report.warnings)
    with pytest.raises(md.ImportFormatError, match="line limit"):
        list(md.parse(vault / "blob.md", md.ImportReport(str(vault / "blob.md"), "markdown")))
