"""Round 30 of export layouts (held-out tests/fixtures/unseen30, written by hand from what each exporter writes,
before any parser of this round; nothing copied from a real export or from ../shared; see its README.md): the
project's named importers in layouts not seen before — ChatGPT's exports of 2023 to 2026 (an edited prompt and a
regenerated answer, GPT-5's thoughts and reasoning recaps, code and its output, browsing, a system error, custom
instructions, a memory, projects and custom GPTs, the chat.html page alone, a shared conversation's JSON, the
export's zip in a Downloads folder, split files), Claude's (content blocks, thinking, tool use, artifacts, an
attachment's text, an edited question, projects with documents, memories, the 2024 layout of only ``text``, the
export's zip in a folder), notes from Obsidian, Logseq, Bear, Joplin, Notion, Dendron, Apple Notes, a MEMORY.md by
dates, a BOM with CRLF, Latin-1; vCards from Android (2.1, quoted-printable), iOS, Google, Outlook, 4.0 one card a
file; sigtop's Signal text; Instagram's "sent an attachment."

Decisions:

* ChatGPT and Claude: the branch the user left (``current_node``; Claude's ``current_leaf_message_uuid``) is
  imported; the messages of the other branches (an edited prompt's first version, a regenerated answer) are not,
  but are counted in ``report.variant["other_branches"]`` (shown in the import's summary): never lost silently;
  ``--all-branches`` keeps them, marked;
* a folder holding only an export's zip, or only ChatGPT's chat.html, is that export; a folder of vCards, one card
  a file, is imported file by file (as the CLI did already);
* a Dendron root note (only its front matter's bookkeeping: id, title, desc, created, updated) holds no words;
* sigtop's text: "From:" the sender (the owner "You", as written), "Sent:" with its offset; an attachment alone
  is media, a reaction no words;
* Instagram's "ana.silva sent an attachment." is no words of hers: a shared post's text is kept (its link in the
  metadata), a share without text is media.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from importer_cli import (
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    counts,
    fuzzed_outcomes,
    parsed,
    turns,
)

from importers import ImportReport, chatgpt, claude
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen30"
GPT = FIX / "chatgpt"
CLA = FIX / "claude"
NOTES = FIX / "notes"
VCF = FIX / "vcf"
BAD = FIX / "bad"


# --- ChatGPT -----------------------------------------------------------------------------------------------------------

BRANCHES = [
    ("User: Suggest a Portuguese name for my sourdough starter", "2024-03-14T18:01:00+00:00"),
    ("Assistant: Try \"Fermentinho\": it means little ferment.", "2024-03-14T18:01:30+00:00"),
    ("User: What pressure for 700x28 tyres? I weigh 70 kg.", "2024-03-15T18:00:00+00:00"),
    ("Assistant: Roughly 70 psi front and 73 psi rear for 70 kg.", "2024-03-15T18:00:40+00:00"),
]


def test_chatgpt_2023_kept_branch_and_the_others_counted() -> None:
    recs, rep = parsed(GPT / "export-2023-branches", "chatgpt")
    check_chat_shape(recs, "chatgpt")
    assert turns(recs) == BRANCHES
    # the first prompt and its answer (edited away), the first answer to the edited prompt, the first tyre answer
    assert rep.variant["other_branches"] == 4


def test_chatgpt_all_branches_keeps_them_marked() -> None:
    path = GPT / "export-2023-branches"
    rep = ImportReport(str(path), "chatgpt")
    recs = list(chatgpt.parse(path, rep, all_branches=True))
    alt = sorted(r.content for r in recs if r.metadata.get("branch") == "alt")
    assert alt == ["Assistant: About 80 psi rear, 75 psi front.", "Assistant: How about \"Clint Yeastwood\"?",
                   "Assistant: Try \"Massa Mãe Joana\".", "User: Suggest a name for my sourdough starter"]
    assert [r.content for r in recs if not r.metadata.get("branch")] == [c for c, _ in BRANCHES]


def test_chatgpt_2026_content_types() -> None:
    recs, rep = parsed(GPT / "export-2026-content-types", "chatgpt")
    assert turns(recs) == [
        ("User: Is this capped brood or honey? Frame 4 of hive B.", "2026-01-01T00:00:10+00:00"),
        ("Assistant: Those domed, tan caps are worker brood; honey caps are flat and white.", "2026-01-01T00:00:21+00:00"),
        ("User: Work out how many frames of brood: 4 hives, 6 frames each, 40% brood.", "2026-01-01T00:01:40+00:00"),
        ("Assistant: About 9.6 frames of brood, so call it 10.", "2026-01-01T00:01:45+00:00"),
        ("User: When does the Sintra honey fair open this year?", "2026-01-01T00:03:20+00:00"),
        ("Assistant: It opens on 10 October.", "2026-01-01T00:03:26+00:00"),
        ("User: Thanks! Remember that hive B is the calm one.", "2026-01-01T00:05:00+00:00"),
        ("ChatGPT memory: The user's hive B is the calm one.", "2026-01-01T00:05:01+00:00"),
        ("Assistant: Noted: hive B is the calm one.", "2026-01-01T00:05:03+00:00"),
        ("Custom instructions, about me: I keep bees in Sintra and sell honey at the Saturday market.",
         "2026-01-01T00:00:00+00:00"),
    ]
    assert recs[0].metadata["images"] == ["sediment://file_00000000a1b2c3d4"]
    assert rep.variant.get("other_branches", 0) == 0
    # thoughts, a recap, the python call, the browser call, a system error; python's output, the page, the quote, bio's
    assert (rep.skipped_system, rep.skipped_tool) == (5, 4)


TILES = [("User: How many 30x60 tiles for a 2.4 m by 1.8 m floor?", "2024-06-10T06:13:20+00:00"),
         ("Assistant: The floor is 4.32 m²; each tile 0.18 m², so 24 tiles, 27 with 10% spare.",
          "2024-06-10T06:13:29+00:00")]


@pytest.mark.parametrize("path", [GPT / "chat-html-only" / "chat.html", GPT / "chat-html-only"], ids=["page", "folder"])
def test_chatgpt_chat_html_alone(path: Path) -> None:
    recs, _ = parsed(path, "chatgpt")
    assert turns(recs) == TILES


def test_chatgpt_shared_conversation_json() -> None:
    recs, _ = parsed(GPT / "shared" / "ferry-times-share.json", "chatgpt")
    assert turns(recs) == [
        ("User: When is the first ferry from Funchal to Porto Santo on Saturdays?", "2025-02-19T21:20:00+00:00"),
        ("Assistant: The Lobo Marinho leaves Funchal at 08:00 and arrives at 10:30.", "2025-02-19T21:20:07+00:00")]


OLIVE = [("User: Which olive oil for focaccia?", "2025-01-01T12:00:00+00:00"),
         ("Assistant: A fruity extra virgin one, about 60 ml in the dough.", "2025-01-01T12:00:06+00:00")]


@pytest.mark.parametrize("path", [GPT / "downloads-folder" / "Downloads", GPT / "downloads-folder"], ids=["folder", "parent"])
def test_chatgpt_zip_in_a_downloads_folder(path: Path) -> None:
    recs, _ = parsed(path, "chatgpt")
    assert turns(recs) == OLIVE


def test_chatgpt_split_2026_with_share_links() -> None:
    recs, rep = parsed(GPT / "split-2026", "chatgpt")
    assert [r.thread for r in recs] == ["c2026-split-a"] * 2 + ["c2026-split-b"] * 2
    assert {r.metadata.get("shared_url") for r in recs} == {"https://chatgpt.com/share/67a0-share-1", None}
    assert rep.variant["layout"] == "split" and rep.variant["not_read"] == ["user.json"]


def test_chatgpt_project_and_custom_gpt() -> None:
    recs, rep = parsed(GPT / "projects-2025", "chatgpt")
    assert [(r.content, r.metadata.get("gizmo")) for r in recs] == [
        ("User: Cabinets 3200, worktop 900, sink 250: total?", "g-p-6812abcd1234"),
        ("Assistant: 4,350 EUR in all.", "g-p-6812abcd1234"),
        ("User: Translate 'polvo à lagareiro' for an Italian menu", "g-5Xyz"),
        ("Assistant: Polpo alla lagareiro: polpo arrosto con patate e olio d'oliva.", "g-5Xyz")]
    assert rep.skipped_system == 1  # the project's instructions


# --- Claude ------------------------------------------------------------------------------------------------------------

LEASE = "Here is the lease. When can the landlord raise the rent?"


def test_claude_2025_blocks_branch_projects_memories() -> None:
    recs, rep = parsed(CLA / "export-2025", "claude")
    chat = [r for r in recs if r.thread == "k1-2025"]
    check_chat_shape(chat, "claude")
    assert turns(chat) == [
        (f"User: {LEASE}\n\n[attachment: lease.txt]\n"
         "Clause 7: rent may be reviewed once a year, on 1 September, by at most the CPI.", "2025-04-02T09:00:00+00:00"),
        ("Assistant: Once a year, on 1 September, and by no more than the CPI (clause 7).", "2025-04-02T09:00:05+00:00"),
        ("User: What was CPI in Portugal last year?", "2025-04-02T09:05:00+00:00"),
        ("Assistant: Portugal's CPI rose 2.4% in 2024, so the rent can rise by at most 2.4%.",
         "2025-04-02T09:05:09+00:00"),
        ("User: Draft a short reply refusing a 5% rise, in Portuguese", "2025-04-02T09:15:00+00:00"),
        ("Assistant: [artifact: Resposta ao senhorio]\nCaro Sr. Costa,\nO aumento de 5% excede a cláusula 7 "
         "(máximo 2,4%).\n\nHere it is; send it before 1 September.", "2025-04-02T09:15:07+00:00"),
    ]
    assert {r.metadata["title"] for r in chat} == {LEASE}  # no name: the first words
    assert rep.variant["other_branches"] == 2  # the first draft's question and answer
    assert rep.skipped_media == 1  # a photo alone
    assert [r.content for r in recs if r.thread != "k1-2025"] == [
        "Claude project Flat in Lisbon: Renting a flat in Alvalade",
        "Claude project Flat in Lisbon instructions: Answer as a tenant's adviser.",
        "Claude project Flat in Lisbon, document inventory.md: Fridge, washing machine, 2 beds.",
        "Claude memory: Work context: Rita is a nurse in Lisbon.",
        "Claude memory: Personal context: Rita rents a flat in Alvalade.",
        "Claude memory of project Flat in Lisbon: The landlord is Mr Costa."]


def test_claude_all_branches_keeps_the_first_draft() -> None:
    path = CLA / "export-2025"
    rep = ImportReport(str(path), "claude")
    alt = [r.content for r in claude.parse(path, rep, all_branches=True) if r.metadata.get("branch") == "alt"]
    assert alt == ["User: Draft a reply refusing a 5% rise", "Assistant: Dear Mr Costa, a 5% rise exceeds clause 7."]


def test_claude_2024_text_only() -> None:
    recs, _ = parsed(CLA / "old-2024", "claude")
    assert turns(recs) == [("User: What goes with grilled sardines?", "2024-02-10T20:00:00+00:00"),
                           ("Assistant: Roasted peppers, boiled potatoes and a green salad.", "2024-02-10T20:00:04+00:00")]
    assert {r.metadata["title"] for r in recs} == {"What goes with grilled sardines?"}


MIA = [("User: Mia's rabies booster is due when if the last was 12 Sep 2024?", "2025-09-01T08:00:00+00:00"),
       ("Assistant: By 12 September 2025: it is yearly for her vaccine.", "2025-09-01T08:00:06+00:00")]


@pytest.mark.parametrize("path", [CLA / "zip-2025" / "data-2025-09-02-10-11-12-batch-0000.zip", CLA / "zip-2025"],
                         ids=["zip", "folder"])
def test_claude_export_zip(path: Path) -> None:
    recs, _ = parsed(path, "claude")
    assert turns(recs) == MIA


# --- notes -------------------------------------------------------------------------------------------------------------

NOTE_CASES: dict[str, list[tuple[str, str, str | None, list[str]]]] = {  # folder: [(thread, content, date, tags)]
    "obsidian": [
        ("Boiler.md", "Boiler: > Pressure\n> Keep it between 1.0 and 1.5 bar; top up from the tap under the sink.\n\n"
         "Serviced by Oscar (Vaillant), 85 EUR a visit.", None, ["home", "maintenance"]),
        ("Journal/2025/03-March/2025-03-14-Friday.md", "2025-03-14-Friday: Oscar came at 9 and bled the radiators. "
         "See the boiler.\n\nBoiler\n\n- [x] Paid him 85 EUR", "2025-03-14T00:00:00", [])],
    "logseq": [
        ("journals/2025_03_15.md", "2025-03-15: - Bought seed potatoes for the allotment\n  - Variety: Charlotte, 2 kg\n"
         "- Met Ana Sousa at the market; she wants 3 jars of honey", "2025-03-15T00:00:00", []),
        ("pages/Ana Sousa.md", "Ana Sousa: - Neighbour at number 12\n- Phone in contacts; birthday 15 March", None,
         ["people"])],
    "bear": [("Gate code.md", "Gate code: Garage gate: 4821\nSide gate: 1357", None, ["home/security"])],
    "joplin": [("Home/Window cleaner.md", "Window cleaner: Comes every second Tuesday; 30 EUR cash.",
                "2025-03-10T18:01:12+00:00", ["home"])],
    "notion": [
        ("Home.md", "Home: Recycling goes out on Tuesdays.\n\nTasks", None, []),
        ("Home 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Tasks 9f8e7d6c5b4a39281706f5e4d3c2b1a0.csv",
         "Home > Tasks > Fix gate hinge: Status: Done\nDue: March 12, 2025\n\nUsed the 10 cm hinge from the shed.", None, []),
        ("Home 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d/Tasks 9f8e7d6c5b4a39281706f5e4d3c2b1a0.csv",
         "Home > Tasks > Paint fence: Status: Not started", None, [])],
    "dendron": [("home.car.insurance.md", "Insurance: Car insurance renews on 1 June with Fidelidade; policy 55-1234.",
                 "2025-03-14T14:01:12+00:00", [])],
    "memory-md": [
        ("MEMORY.md", "MEMORY > 2025-03-12: - User prefers answers in Portuguese.\n- Project Atlas: API frozen on Friday.",
         "2025-03-12T00:00:00", []),
        ("MEMORY.md", "MEMORY > 2025-03-13 14:30: - Rita owns the API; Ben owns the web client.", "2025-03-13T14:30:00", []),
        ("MEMORY.md", "MEMORY > 2025-03-14 > Decisions: - Launch moved to 2 April.", "2025-03-14T00:00:00", [])],
    "bom-crlf": [("Boiler pressure.md", "Boiler pressure: Top up to 1.5 bar when it drops below 1.0.", None, [])],
    "latin1": [("Reunião.md", "Reunião: Reunião às 9h no café; levar a crème brûlée.", None, [])],
    "apple-notes": [("Notes/Wi-Fi.md", "Wi-Fi: Network: Casa-5G\nPassword: laranja-42", None, [])],
}


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_notes_layouts(name: str) -> None:
    recs, _ = parsed(NOTES / name, "markdown")
    got = [(r.thread, r.content, r.event_at.isoformat() if r.event_at else None, r.tags) for r in recs]
    assert got == NOTE_CASES[name]
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen30_note_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


# --- vCards ------------------------------------------------------------------------------------------------------------

CARDS = {
    "android-21.vcf": ["Contact: João Gonçalves — phone +351 912 345 678 (cell); phone 21 123 4567 (home); "
                       "note Canalizador, vem às terças. Preço: 40 € a hora.",
                       "Contact: Ana Sousa — phone +351 933 222 111 (cell); email ana.sousa@example.pt (home)"],
    "ios-30.vcf": ["Contact: Marta Ferreira — phone +351 966 555 444 (Trabalho turno); phone +351 917 000 111 (cell); "
                   "email marta.f@example.pt; org Hospital de Santa Maria, Cardiologia; title Enfermeira; "
                   "birthday 1988-07-21; related Rui Ferreira (spouse)"],
    "google-30.vcf": ["Contact: Bruno Lopes — phone +44 7700 900123 (cell); email bruno.lopes@example.com (home); "
                      "email b.lopes@work.example.com (Work); web https://brunolopes.example.com; "
                      "note Climbing partner; belay certified.",
                      "Contact: Dr. Helena Matos — phone +351 21 000 9999 (work); "
                      "address Rua do Ouro 10, Lisboa, 1100-060, Portugal"],
    "outlook-21.vcf": ["Contact: Jürgen Müller — phone +49 30 1234567 (work); phone +49 170 9876543 (cell); "
                       "email j.mueller@example.de; org Müller & Söhne GmbH; address Hauptstraße 5, Berlin, 10115, "
                       "Deutschland"],
    "v40-folder/Ana Lima.vcf": ["Contact: Ana Lima — phone +351-912-000-333 (cell); email ana.lima@example.org (work); "
                                "birthday 15 April"],
    "v40-folder/Carlos Neves.vcf": ["Contact: Carlos Neves — phone +351 22 111 2222 (home); nickname Carlitos"],
}


@pytest.mark.parametrize("name", sorted(CARDS))
def test_vcards(name: str) -> None:
    recs, _ = parsed(VCF / name, "vcf")
    assert [r.content for r in recs] == CARDS[name]
    assert all(r.memory_type == "semantic" for r in recs)


def test_google_contacts_csv_reads_as_its_vcards() -> None:
    # (written after the base run: main refused this file in one line, "a contacts table (CSV: export the contacts
    # as vCard …)", acceptable then; importers/vcf_csv.py reads it since)
    recs, _ = parsed(VCF / "google-contacts.csv", "vcf")
    assert [(r.content, r.tags) for r in recs] == [
        ("Contact: Inês Carvalho — phone +351 914 777 888 (cell); email ines.c@example.pt (home); "
         "org Padaria Central; note Makes the birthday cakes", []),
        ("Contact: Tiago Rocha — phone +351 936 111 222 (cell); phone +351 21 555 0000 (home); birthday 1990-02-03; "
         "nickname Tito", ["Family"])]
    assert recs[1].aliases["Tito"] == "Tiago Rocha" and recs[1].aliases["+351936111222"] == "Tiago Rocha"


def test_outlook_contacts_csv_in_its_code_page(tmp_path: Path) -> None:
    path = tmp_path / "contacts.CSV"
    path.write_bytes(('"First Name","Middle Name","Last Name","Title","Suffix","E-mail Address","Home Phone",'
                      '"Business Phone","Mobile Phone","Company","Job Title","Notes","Categories"\r\n'
                      '"Jürgen","","Müller","","","j.mueller@example.de","","+49 30 1234567","+49 170 9876543",'
                      '"Müller & Söhne GmbH","Inhaber","Kommt dienstags","Lieferanten"\r\n').encode("cp1252"))
    recs, _ = parsed(path, "vcf")
    assert [(r.content, r.tags) for r in recs] == [
        ("Contact: Jürgen Müller — phone +49 30 1234567 (work); phone +49 170 9876543 (cell); "
         "email j.mueller@example.de; org Müller & Söhne GmbH; title Inhaber; note Kommt dienstags", ["Lieferanten"])]


def test_a_cut_vcard_keeps_the_cards_before_it_and_says_so() -> None:
    recs, rep = parsed(BAD / "vcf-cut" / "contacts.vcf", "vcf")
    assert recs[0].content == "Contact: Rosa Pinto — phone +351 911 999 000 (cell)"
    assert any("without END:VCARD" in w for w in rep.warnings)


# --- Signal (sigtop), Instagram ---------------------------------------------------------------------------------------


def test_sigtop_text() -> None:
    recs, rep = parsed(FIX / "sigtop", "signal")
    check_chat_shape(recs, "signal")
    assert turns(recs) == [("Ana Sousa: Are we still on for the market tomorrow?", "2024-03-13T19:02:00+00:00"),
                           ("You: Yes, 9am at the north gate.\nBring cash!", "2024-03-13T19:03:10+00:00"),
                           ("Ana Sousa: Great, see you there", "2024-03-13T19:05:00+00:00")]
    assert {r.thread for r in recs} == {"Ana Sousa"}
    assert counts(rep) == (4, 0, 1)  # a photo alone


def test_instagram_sent_an_attachment_is_no_words() -> None:
    recs, rep = parsed(FIX / "instagram-attachment", "messenger")
    assert turns(recs) == [("Rui Matos: Where shall we eat?", "2024-05-01T17:50:00+00:00"),
                           ("ana.silva: Tasca do Chico, Alfama", "2024-05-01T17:51:40+00:00"),
                           ("ana.silva: Look at this place for Saturday", "2024-05-01T17:53:20+00:00")]
    assert recs[1].metadata["link"] == "https://www.instagram.com/p/C6abcDEF123/"
    assert counts(rep) == (4, 0, 1)  # a reel shared without words


# --- through the CLI ---------------------------------------------------------------------------------------------------


def test_each_layout_imports_by_cli(tmp_path: Path) -> None:
    outs = assert_imports_by_cli(tmp_path / "m.db", {
        GPT / "export-2023-branches": ("chatgpt", 4),
        GPT / "downloads-folder": ("chatgpt", 2),
        CLA / "zip-2025": ("claude", 2),
        FIX / "sigtop": ("signal", 3),
    })
    assert outs[0]["data"]["variant"]["other_branches"] == 4


def test_a_folder_of_vcards_one_a_file_imports_file_by_file(tmp_path: Path) -> None:
    from conftest import run_cli
    from importer_cli import one_envelope

    out = one_envelope(run_cli("--db", str(tmp_path / "m.db"), "import", str(VCF / "v40-folder")))
    assert out["ok"] and out["data"]["format"] == "vcf" and out["data"]["memories_added"] == 2
    assert [f["file"].rsplit("/", 1)[-1] for f in out["data"]["files"]] == ["Ana Lima.vcf", "Carlos Neves.vcf"]


# --- damaged -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "message"), [
    ("chatgpt-cut/conversations.json", "truncated"),
    ("claude-empty", "conversations.json: empty file"),
    ("claude-messages-object/conversations.json", "no 'chat_messages' list"),
    ("notes-png/Photo.md", "a PNG image"),
])
def test_damaged_exports_are_refused_in_one_line(rel: str, message: str, tmp_path: Path) -> None:
    assert_import_refused(BAD / rel, tmp_path, message)


def test_an_empty_note_imports_nothing(tmp_path: Path) -> None:
    from conftest import run_cli

    proc = run_cli("--db", str(tmp_path / "m.db"), "import", str(BAD / "notes-empty"))
    assert proc.returncode == 13, proc.stdout


@pytest.mark.parametrize(("rel", "keep"), [
    ("chatgpt/export-2023-branches/conversations.json", 1),
    ("claude/export-2025/conversations.json", 1),
    ("sigtop/messages/Ana Sousa (+351912345678).txt", 2),
])
def test_fuzzed_copies_are_read_or_refused_in_one_line(rel: str, keep: int, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=30, keep=keep)
    assert read + refused == 16 and read >= 1


def test_detected_kinds() -> None:
    assert detect(FIX / "sigtop" / "messages" / "Ana Sousa (+351912345678).txt") == "signal"
