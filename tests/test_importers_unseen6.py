"""Round 6 of export layouts nobody here had seen (tests/fixtures/unseen6, written by hand from how
the apps export; nothing copied from a real export or from ../shared; see its README.md):

* vCard: e-mail labels (``TYPE=WORK``, Apple ``itemN.X-ABLabel``), Apple's built-in labels of run-together
  words (``_$!<HomeFAX>!$_``), dates of no year (RFC 6350 ``--0415``/``--04-15``, Apple's
  ``X-APPLE-OMIT-YEAR``), anniversaries (``ANNIVERSARY``, ``X-ANNIVERSARY``, Apple ``X-ABDATE``), vCard
  4.0 ``VALUE=uri`` phones, ``ALTID``/``LANG`` names, ``KIND:group``/``KIND:org``.

WhatsApp times are the phone's wall clock as written (naive); ChatGPT times UTC (aware); note dates as
their front matter or file name writes them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from importers import ImportReport, vcf
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen6"
D = datetime


# --- vCard: labels of e-mails, dates of no year, anniversaries, vCard 4.0 ------------------------------

VCF = FIX / "vcf"
VCF_CASES: dict[str, list[tuple[str, list[str], str | None]]] = {  # file: [(content, tags, birthday metadata)]
    # iPhone: type labels on e-mails, a labelled e-mail, Apple's "HomeFAX", a birthday of no year, an X-ABDATE
    "ios_labels_dates.vcf": [
        ("Contact: Maria Costa — phone +351 912 345 678 (cell); phone +351 933 000 111 (home fax); email "
         "maria@atelier.example (work); email maria@home.example (home); email maria.c@club.example (Climbing club); "
         "birthday 15 April; anniversary 2015-06-20", [], "--04-15"),
        ("Contact: Chidi Okafor — phone +44 20 7946 0958 (work); email chidi@okafor.example; birthday 23 September",
         [], "--0923"),
    ],
    # RFC 6350: VALUE=uri phones, ALTID/LANG names, a group with MEMBERs, a text birthday, an org's own card
    "rfc6350_v40.vcf": [
        ("Contact: Jun Tanaka — phone +81-90-1234-5678 (cell); phone +81-3-1234-5678 ext. 21 (work); email "
         "jun@example.jp (work); email jun.t@example.net (home); birthday 15 April; anniversary 2015-06-20",
         ["Climbing"], "--04-15"),
        ("Contact: Lea Roth — phone +49-30-1234567 (home); birthday circa 1990; anniversary 20 June", ["Climbing"],
         "circa 1990"),
        ("Contact: Okafor Plumbing — phone +44-20-7946-0000 (work); email office@okafor.example (work)", [], None),
    ],
    # Google Contacts: a grouped custom e-mail label, Evolution's X-ANNIVERSARY, LF line ends
    "google_labels.vcf": [
        ("Contact: Marta Nowak — phone +48 600 100 200 (cell); email marta@example.pl; email marta.nowak@uni.example "
         "(Uni); birthday 1985-02-03; anniversary 2010-09-18", [], "1985-02-03"),
    ],
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcard_labels_and_dates(name: str) -> None:
    path = VCF / name
    assert detect(path) == "vcf"
    rep = ImportReport(str(path), "vcf")
    recs = list(vcf.parse(path, rep))
    assert [(r.content, r.tags, r.metadata["birthday"]) for r in recs] == VCF_CASES[name]
    assert rep.warnings == []


def test_every_unseen6_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


def test_vcard_4_names_of_every_language_are_aliases() -> None:
    recs = list(vcf.parse(VCF / "rfc6350_v40.vcf", ImportReport("x", "vcf")))
    assert {k for k, v in recs[0].aliases.items() if not k.startswith("+")} == {
        "Jun Tanaka", "田中 純", "田中, 純", "純 田中"}
