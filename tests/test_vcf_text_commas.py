"""vCard text values with unescaped commas are kept whole (vobject cut them at the first comma)."""

from __future__ import annotations

from pathlib import Path

import pytest

from importers import ImportReport, vcf


@pytest.mark.parametrize("version, note_line, note", [
    # Android 2.1: quoted-printable with a soft line break, comma not escaped
    ("2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:Met at the climbing gym, =\r\nlikes bouldering",
     "Met at the climbing gym, likes bouldering"),
    ("3.0", "NOTE:Met at the gym, likes bouldering, drinks tea", "Met at the gym, likes bouldering, drinks tea"),
    ("3.0", "NOTE:escaped\\, as Apple writes it\\nsecond line", "escaped, as Apple writes it second line"),
])
def test_note_and_title_keep_their_commas(tmp_path: Path, version: str, note_line: str, note: str) -> None:
    p = tmp_path / "c.vcf"
    p.write_bytes((f"BEGIN:VCARD\r\nVERSION:{version}\r\nFN:Jürgen Müller\r\nTEL;CELL:+49 151 2345678\r\n"
                   f"TITLE:Head of Sales, EMEA\r\n{note_line}\r\nEND:VCARD\r\n").encode())
    rep = ImportReport(str(p), "vcf")
    [rec] = list(vcf.parse(p, rep))
    assert rec.content == (f"Contact: Jürgen Müller — phone +49 151 2345678 (cell); title Head of Sales, EMEA; "
                           f"note {note}")
