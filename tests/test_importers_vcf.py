"""vCard parser: 2.1 quoted-printable with soft breaks, 3.0 escapes/folding, 4.0 tel URIs."""

from __future__ import annotations

from pathlib import Path

from importers import ImportReport, vcf

FIX = Path(__file__).parent / "fixtures" / "vcf" / "contacts.vcf"


def test_contacts() -> None:
    rep = ImportReport(str(FIX), "vcf")
    recs = list(vcf.parse(FIX, rep))
    assert [r.content for r in recs] == [
        "Contact: Ana García López — phone +34 600 123 456 (cell); email ana@example.com",  # 2.1 bare TEL;CELL
        "Contact: Bob Smith — phone (555) 010-2000 (home); org Acme, Inc.; birthday 1990-02-03; "
        "nickname Bobby; note Line one line two, with comma and a long folded tail",
        "Contact: Chloé Martin — phone +33-6-12-34-56-78 (cell)",
    ]
    assert recs[0].aliases == {
        "+34 600 123 456": "Ana García López",
        "+34600123456": "Ana García López",
        "Ana García López": "Ana García López",
        "Ana García": "Ana García López",
        "García, Ana": "Ana García López",
    }
    assert recs[1].ref == "vcf:bob-uid-1"
    assert recs[1].aliases["Bobby"] == "Bob Smith"
    assert recs[1].aliases["5550102000"] == "Bob Smith"
    assert recs[2].aliases["+33612345678"] == "Chloé Martin"
    assert recs[0].ref.startswith("vcf:") and len(recs[0].ref) == 4 + 16
    assert all(r.memory_type == "semantic" and r.source == "vcf" for r in recs)
    assert rep.variant["versions"] == ["2.1", "3.0", "4.0"]


def test_bad_card_falls_back_with_warning(tmp_path: Path) -> None:
    p = tmp_path / "bad.vcf"
    p.write_text(
        "BEGIN:VCARD\nVERSION:2.1\nFN:Good One\nTEL:+1 555 0100\nEND:VCARD\n"
        "BEGIN:VCARD\nVERSION:2.1\nFN:Odd Card\nADR;ENCODING=QUOTED-PRINTABLE:a=0D=0A=\nb\n"
        "stray line without colon\nTEL:777\nEND:VCARD\n",
        encoding="utf-8",
    )
    rep = ImportReport(str(p), "vcf")
    recs = list(vcf.parse(p, rep))
    assert [r.metadata["name"] for r in recs] == ["Good One", "Odd Card"]
    assert recs[1].metadata["phones"] == ["777"]
    assert len(rep.warnings) == 1 and "fallback" in rep.warnings[0]


def test_normalise_phone() -> None:
    assert vcf.normalise_phone("+34 600 123 456") == "+34600123456"
    assert vcf.normalise_phone("tel:+1-418-656-9254;ext=102") == "+14186569254"
    assert vcf.normalise_phone("0034 600 123 456") == "+34600123456"
    assert vcf.normalise_phone("(555) 010-2000") == "5550102000"


def test_rfc6350_escapes_and_commas_in_names(tmp_path: Path) -> None:
    p = tmp_path / "escapes.vcf"
    p.write_bytes(
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Mr. John Richter, James Doe Sr.\r\nN:Doe;John;Richter\\, James;Mr.;Sr.\r\n"
        b"TEL:+1 555 0100\r\nEND:VCARD\r\n"
        b"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ana\\; Mar\xc3\xada\\nGarc\xc3\xada \\\\ B\r\nNICKNAME:Johnny\\, J,JD\r\n"
        b"ORG:Acme\\, Inc.;R&D\r\nEND:VCARD\r\n"
        b"BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Garc=C3=ADa\\, Ana\r\n"
        b"END:VCARD\r\n"
        b"BEGIN:VCARD\r\nVERSION:3.0\r\nitem1.FN:Lee\\, Kim\r\nPHOTO;ENCODING=b:!!!\r\nEND:VCARD\r\n")
    rep = ImportReport(str(p), "vcf")
    recs = list(vcf.parse(p, rep))
    assert [r.metadata["name"] for r in recs] == ["Mr. John Richter, James Doe Sr.", "Ana; María\nGarcía \\ B",
                                                  "García, Ana", "Lee, Kim"]
    assert recs[0].aliases["Mr. John Richter, James Doe Sr."] == "Mr. John Richter, James Doe Sr."
    assert "nickname Johnny, J, JD" in recs[1].content and "org Acme, Inc., R&D" in recs[1].content
    assert set(recs[1].aliases) >= {"Johnny, J", "JD"}


def test_split_escaped() -> None:
    assert vcf.split_escaped("a\\,b,c\\\\,d") == ["a,b", "c\\", "d"]
    assert vcf.split_escaped("") == [""]
