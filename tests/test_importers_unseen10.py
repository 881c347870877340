"""Round 10 of export layouts nobody here had seen (tests/fixtures/unseen10, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: Android chats in six locales not read before (Kannada with its own 12-hour words, Malayalam, Lao,
  Kyrgyz, Irish, Kinyarwanda) and European Portuguese, each with its encryption notice, media placeholder,
  deleted message, edited marker, missed call and a pinned message; a Hong Kong iOS chat (day first, 上午/下午
  before the time) with pinned and kept notices; polls in Italian, Russian and French (iOS, a space before the
  colon); a business's away and greeting messages and quick replies; a person's own words in angle brackets
  ("<Sent From My Phone>") on Android and iOS; pinned, kept and unpinned notices in Spanish and German;
* ChatGPT: canvas documents edited in place by patterns (one, two in one call, one applied to every match, one
  that failed), code-interpreter code, output and chart, custom instructions as 2023 wrote them (a system message
  of the user's), o-series thoughts and their recap, regenerated answers with the conversation going on from
  the second, an export of April 2023, a deep-research report, a conversation without ``current_node``;
* Claude: a project's documents, thinking with a web search and the analysis tool, a conversation without a
  ``name`` key and a retried answer, a failed tool call, the 2024 layout of plain ``text``;
* vCard: RFC 9554 (2024) SOCIALPROFILE, PRONOUNS, GRAMGENDER, CONTACT-URI; IMPP and profiles with home/work
  types; Google's escaped colons and labelled profiles; iOS 18 Telegram/Signal/Threads/Bluesky; Proton's
  PGP fields; profiles with no type and a Matrix URI;
* notes: Bear multi-word tags, Keep web links (annotations), a voice note, a trashed and a shared note, Keep's
  older HTML-only Takeout, Obsidian Dataview fields and queries, block ids and nested callouts, Notion property
  lines, an Apple Notes export with a table and a picture, Joplin links between notes.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import assert_broken_import_fails, check_whatsapp_layout, conversations, vcards, wa
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope

from importers import ImportReport, Record, chatgpt, claude
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen10"
D = datetime
UTC = timezone.utc

# --- WhatsApp -----------------------------------------------------------------------------------------

WA = FIX / "whatsapp"
_LOCALES = {  # file: (first message, the edited one, the multi-line one, the last one)
    "android_ml.txt": ("അരുൺ: ഒമ്പത് മണിക്ക് അത്താഴം?", "മീര: ഞാൻ കസേരകൾ കൊണ്ടുവരാം", "മീര: ശരി\nഞാൻ ജ്യൂസ് കൊണ്ടുവരാം",
                       "അരുൺ: പിന്നെ കാണാം"),
    "android_lo.txt": ("ສົມພອນ: ກິນເຂົ້າແລງຕອນເກົ້າໂມງບໍ?", "ນາງແກ້ວ: ຂ້ອຍຈະເອົາຕັ່ງມາ",
                       "ນາງແກ້ວ: ໄດ້\nຂ້ອຍຈະເອົານ້ຳໝາກໄມ້ມາ", "ສົມພອນ: ແລ້ວພົບກັນ"),
    "android_ky.txt": ("Азамат: Кечки тамак саат тогузда?", "Айгүл: Отургучтарды алып келем",
                       "Айгүл: Макул\nшире алып келем", "Азамат: Көрүшкөнчө"),
    "android_ga.txt": ("Seán: Dinnéar ag a naoi?", "Aoife: Tabharfaidh mé na cathaoireacha",
                       "Aoife: Ceart go leor\ntabharfaidh mé fíon", "Seán: Feicfidh mé ar ball thú"),
    "android_rw.txt": ("Eric: Ifunguro rya nimugoroba saa tatu?", "Aline: Nzazana intebe", "Aline: Ni byiza\nnzazana divayi",
                       "Eric: Tuzabonana"),
    "android_pt_PT.txt": ("Rui: Jantar às nove?", "Inês: Eu levo as cadeiras", "Inês: Pode ser\neu levo o vinho",
                          "Rui: Até logo"),
}
# Every locale chat: 14 March 2024 from 21:00: the encryption notice, a deleted message, a missed call and a pinned
# message are notices; the media placeholder is media (Lao writes it without a space: a script that puts none
# between words); the edited message keeps its words, not its marker.
WA_CASES: dict[str, tuple[Any, ...]] = {
    name: ("dashed", "dmy", "gregorian", (4, 1), [(first, D(2024, 3, 14, 21, 1)), (edited, D(2024, 3, 14, 21, 4)),
                                                  (multi, D(2024, 3, 14, 21, 6)), (last, D(2024, 3, 14, 21, 8))],
           {edited})
    for name, (first, edited, multi, last) in _LOCALES.items()
}
WA_CASES.update({
    # Kannada's own 12-hour words (ಪೂರ್ವಾಹ್ನ before noon, ಅಪರಾಹ್ನ after), told by the chat crossing noon
    "android_kn.txt": ("dashed", "dmy", "gregorian", (3, 1), [
        ("ರವಿ: ಒಂದು ಗಂಟೆಗೆ ಊಟ?", D(2024, 3, 14, 11, 51)), ("ಲಕ್ಷ್ಮಿ: ನಾನು ಕುರ್ಚಿಗಳನ್ನು ತರುತ್ತೇನೆ", D(2024, 3, 14, 11, 58)),
        ("ಲಕ್ಷ್ಮಿ: ಸರಿ\nನಾನು ಜ್ಯೂಸ್ ತರುತ್ತೇನೆ", D(2024, 3, 14, 12, 6)), ("ರವಿ: ಆಮೇಲೆ ಸಿಗೋಣ", D(2024, 3, 14, 13, 10))],
        {"ಲಕ್ಷ್ಮಿ: ನಾನು ಕುರ್ಚಿಗಳನ್ನು ತರುತ್ತೇನೆ"}),
    # Hong Kong iOS: day first, 上午/下午 before the time; pinned and kept notices (U+200E) are no one's words
    "ios_zh_HK.txt": ("bracketed", "dmy", "gregorian", (5, 1), [
        ("志明: 今晚九點食飯？", D(2024, 3, 14, 21, 1, 10)), ("春嬌: 我帶櫈", D(2024, 3, 14, 21, 4)),
        ("春嬌: 好\n我帶酒", D(2024, 3, 14, 21, 6, 30)), ("志明: 多謝昨晚！", D(2024, 3, 15, 8, 30))], {"春嬌: 我帶櫈"}),
    # polls are kept as written in every language (as rounds 1-8 keep them); a pin is a notice
    "android_it_poll.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Giulia: SONDAGGIO:\nQuando facciamo la grigliata?\nOPZIONE: Sabato (2 voti)\nOPZIONE: Domenica (1 voto)",
         D(2024, 3, 14, 20, 0)),
        ("Marco: Sabato va benissimo", D(2024, 3, 14, 20, 1)), ("Giulia: Porto io il carbone", D(2024, 3, 14, 20, 4))]),
    "android_ru_poll.txt": ("dashed", "dmy", "gregorian", (1, 1), [
        ("Ольга: ОПРОС:\nКогда едем на дачу?\nВАРИАНТ: В субботу (2 голоса)\nВАРИАНТ: В воскресенье (0 голосов)",
         D(2024, 3, 14, 20, 0)),
        ("Игорь: Суббота, беру мангал", D(2024, 3, 14, 20, 1)), ("Ольга: Тогда в 10 у метро", D(2024, 3, 14, 20, 4))]),
    "ios_fr_poll.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("Chloé: SONDAGE :\nOn fait le barbecue quand ?\nOPTION : Samedi (2 votes)\nOPTION : Dimanche (1 vote)",
         D(2024, 3, 14, 20, 0)),
        ("Hugo: Samedi, j’apporte les saucisses", D(2024, 3, 14, 20, 1)),
        ("Chloé: Parfait, à samedi", D(2024, 3, 14, 20, 4))], {"Chloé: Parfait, à samedi"}),
    # a business's away message, greeting and quick replies are its words, as any message it sends
    "android_en_business_away.txt": ("dashed", "dmy", "gregorian", (2, 0), [
        ("Ana: Hi, do you still have the blue bike in size M?", D(2024, 3, 14, 22, 40)),
        ("Porto Bikes: Thanks for your message! We're closed now (open Mon-Sat 9:00-19:00). We'll reply first thing "
         "tomorrow.", D(2024, 3, 14, 22, 40)),
        ("Porto Bikes: Hello Ana, welcome to Porto Bikes! How can we help?", D(2024, 3, 15, 9, 2)),
        ("Porto Bikes: Yes, the blue urban bike is in stock in M. 320 EUR.", D(2024, 3, 15, 9, 3)),
        ("Ana: Great, can you hold it until Saturday?", D(2024, 3, 15, 9, 5)),
        ("Porto Bikes: Our opening hours: Mon-Sat 9:00-19:00, Rua Nova 12, Porto.", D(2024, 3, 15, 9, 6)),
        ("Porto Bikes: Done, held under your name until Saturday 19:00.", D(2024, 3, 15, 9, 7))]),
    # A person's words in angle brackets stay theirs: WhatsApp writes its placeholders in sentence case
    # ("<Media omitted>", "<Video note omitted>"), never capitalising every word as "<Sent From My Phone>" is
    "android_en_brackets.txt": ("dashed", "dmy", "gregorian", (0, 2), [
        ("Ana: Running late, start without me", D(2024, 3, 14, 18, 0)),
        ("Ana: <Sent From My Phone>", D(2024, 3, 14, 18, 1)),
        ("Ben: No worries", D(2024, 3, 14, 18, 3)),
        ("Ana: <Insert Excuse Here>", D(2024, 3, 14, 18, 4)),
        ("Ana: <Laughs In Portuguese>", D(2024, 3, 14, 18, 6))], {"Ben: No worries"}),
    "ios_en_brackets.txt": ("bracketed", "dmy", "gregorian", (2, 1), [
        ("Ana: Running late, start without me", D(2024, 3, 14, 18, 0)),
        ("Ana: <Sent From My iPhone>", D(2024, 3, 14, 18, 1)),
        ("Ben: No worries", D(2024, 3, 14, 18, 3)),
        ("Ana: <Insert Excuse Here>", D(2024, 3, 14, 18, 4))], {"Ben: No worries"}),
    # pinned, kept and unpinned: notices
    "android_es_pinned_kept.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("Lucía: El código del portal es 4821", D(2024, 3, 14, 19, 0)), ("Pablo: Apuntado", D(2024, 3, 14, 19, 3)),
        ("Pablo: ¿Y el del garaje?", D(2024, 3, 14, 19, 5))], {"Pablo: Apuntado"}),
    "android_de_pinned_kept.txt": ("dashed", "dmy", "gregorian", (3, 0), [
        ("Jonas: Der Torcode ist 4821", D(2024, 3, 14, 19, 0)), ("Lena: Notiert", D(2024, 3, 14, 19, 3)),
        ("Lena: Und der Code für die Garage?", D(2024, 3, 14, 19, 5))], {"Lena: Notiert"}),
})


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_10(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen10_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_kannada_words_are_read_as_the_afternoon() -> None:
    _, rep = wa(WA / "android_kn.txt")
    assert rep.variant["markers"] == {"ಪೂರ್ವಾಹ್ನ": "am", "ಅಪರಾಹ್ನ": "pm"}


def test_words_like_the_new_notices_stay_a_persons(tmp_path: Path) -> None:
    """A person's words holding a notice's words are no notice: only the whole body is; a bracket of a
    person's, in sentence case but with a digit or after other words, is theirs too."""
    texts = ["Scriosadh an teachtaireacht seo ar dtús, seo arís", "Esta mensagem foi eliminada por engano?",
             "A chamada de voz não atendida era minha", "I wrote <this message was edited> as a joke",
             "<Back In 5 Minutes>", "Ubu butumwa bwasibwe n'umwana"]
    chat = tmp_path / "chat.txt"
    chat.write_text("".join(f"14/03/2024, 15:{i:02d} - Ana: {t}\n" for i, t in enumerate(texts)), encoding="utf-8")
    recs, rep = wa(chat)
    assert [r.content for r in recs] == [f"Ana: {t}" for t in texts]
    assert (rep.skipped_system, rep.skipped_media) == (0, 0)


# --- ChatGPT ------------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1742900000  # 2025-03-25 10:53:20 UTC


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


def _gpt(name: str) -> tuple[list[Record], ImportReport]:
    return conversations(GPT / name)


PACK = "[canvas: packing_list]\n# Packing list\n- passport\n"
GPT_CASES: dict[str, tuple[list[tuple[str, datetime]], tuple[int, int, int, int]]] = {
    # folder: ([(content, time)], (system, tool, media, seen))
    # Canvas edits in place ("updates": a regular expression and its replacement, once or on every match): the
    # document as edited, whole, where the edit stands, as a rewrite (pattern ".*") already is and as Claude's
    # edits are (round 9). Several patterns of one call apply in order. An edit the tool's receipt says failed
    # ("Failed with error ...") changes nothing and stays a tool call, as does one whose pattern is not found.
    "canvas_edits": ([
        ("User: Start a packing list for Lisbon in a canvas", _t(1)),
        ("Assistant: " + PACK + "- 2 shirts\n- charger\n- sunscreen", _t(3)),
        ("Assistant: I started the list in the canvas.", _t(5)),
        ("User: Make it 4 shirts and add a swimsuit after the charger", _t(10)),
        ("Assistant: " + PACK + "- 4 shirts\n- charger\n- swimsuit\n- sunscreen", _t(12)),
        ("Assistant: Updated: 4 shirts and a swimsuit.", _t(14)),
        ("User: Write a tiny Python script that prints the list", _t(20)),
        ("Assistant: [canvas: print_list]\nitems = ['passport', '4 shirts']\nfor item in items:\n    print(item)", _t(22)),
        ("User: Print them with a dash in front", _t(30)),
        ("Assistant: [canvas: print_list]\nitems = ['passport', '4 shirts']\nfor item in items:\n    print('- ' + item)",
         _t(32)),
        ("User: And in the packing list, sunscreen SPF 50", _t(40)),
        ("Assistant: Sorry, that edit did not go through; the list says sunscreen SPF 50 now in my notes.", _t(44))],
        (2, 5, 0, 19)),
    # code interpreter: the code, its output and its chart are the tool's; the upload is named
    "code_interpreter": ([
        ("User: Here are my electricity readings, what's the monthly average?\n[attachments: readings.csv]", _t(1)),
        ("Assistant: Your average is 212.5 kWh a month; January is the highest at 280 kWh.", _t(9))], (2, 2, 0, 6)),
    # custom instructions as 2023 wrote them (a system message of the user's, no user_editable_context type):
    # the user's words, one memory each, after the conversation, as round 6 reads the later layout
    "custom_2023": ([
        ("User: How far is it from Porto to Braga?", _t(2)),
        ("Assistant: About 55 km by road.", _t(4)),
        ("Custom instructions, about me: I live in Porto and cycle to work.", _t(1)),
        ("Custom instructions, how to answer: Answer in metric units, briefly.", _t(1))], (1, 0, 0, 5)),
    # o-series thoughts and the "Thought for 4 seconds" recap: hidden, as the chain of thought is
    "thoughts": ([("User: Is 2027 a leap year?", _t(1)),
                  ("Assistant: No: 2027 is not divisible by 4. The next leap year is 2028.", _t(4))], (2, 0, 0, 4)),
    # three answers to one question, the conversation going on from the second: the path to current_node
    "regenerated": ([("User: Name for a grey cat?", _t(1)), ("Assistant: Earl Grey.", _t(10)),
                     ("User: Earl Grey it is. Good vet in Bonfim?", _t(30)),
                     ("Assistant: Clínica Veterinária do Bonfim, Rua do Heroísmo.", _t(32))], (0, 0, 0, 4)),
    "export_2023": ([("User: Translate 'obrigado' to English", _t(1)), ("Assistant: \"Thank you\".", _t(2))],
                    (1, 0, 0, 3)),
    # deep research: the kickoff is a tool call; the report is the assistant's (its citation marks go)
    "deep_research": ([
        ("User: Research heat pumps vs gas boilers for a 1960s flat in Porto", _t(1)),
        ("Assistant: Before I start: how big is the flat, and is it insulated?", _t(3)),
        ("User: 80 m2, no wall insulation", _t(10)),
        ("Assistant: # Heat pump vs gas boiler in Porto\n\nFor an uninsulated 80 m2 flat an air-to-water heat pump "
         "costs about 9,000 EUR installed and halves running costs against gas; insulate first.", _t(900))],
        (1, 1, 0, 6)),
    # no current_node: the latest leaf's path (the question asked again later)
    "no_current_node": ([("User: Best month to visit the Douro valley?", _t(50)),
                         ("Assistant: September: harvest season, warm days.", _t(52))], (0, 0, 0, 2)),
}


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_layouts_of_round_10(name: str) -> None:
    recs, rep = _gpt(name)
    expected, (system, tool, media, seen) = GPT_CASES[name]
    assert [(r.content, r.event_at) for r in recs] == expected
    assert (rep.skipped_system, rep.skipped_tool, rep.skipped_media, rep.messages_seen, rep.warnings) == (
        system, tool, media, seen, [])
    assert len({r.ref for r in recs}) == len(recs)


def test_every_unseen10_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


def test_chatgpt_custom_instructions_of_2023_are_the_users_memories() -> None:
    recs, _ = _gpt("custom_2023")
    facts = [r for r in recs if r.content.startswith("Custom instructions")]
    assert [(r.memory_type, r.author, r.thread) for r in facts] == [("semantic", "User", None)] * 2


def test_chatgpt_canvas_edit_that_does_not_match_is_a_tool_call(tmp_path: Path) -> None:
    conv = json.loads((GPT / "canvas_edits" / "conversations.json").read_text(encoding="utf-8"))
    call = json.loads(conv[0]["mapping"]["a3"]["message"]["content"]["text"])
    call["updates"][0]["pattern"] = "- 3 shirts"  # not in the document: the edit cannot be applied
    conv[0]["mapping"]["a3"]["message"]["content"]["text"] = json.dumps(call)
    conv[0]["mapping"]["a6"]["message"]["content"]["text"] = json.dumps({"updates": [{"pattern": "(unclosed"}]})
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "chatgpt")
    texts = [r.content for r in chatgpt.parse(tmp_path, rep)]
    assert not [t for t in texts if "4 shirts\n- charger" in t or "print('- '" in t]
    assert rep.warnings == [] and rep.skipped_system == 4


# --- Claude -------------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


def _claude(name: str) -> tuple[list[Record], ImportReport]:
    path = CLAUDE / name
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep)), rep


CLAUDE_CASES: dict[str, tuple[list[str], tuple[int, int, int]]] = {
    # folder: ([content], (tool, empty, seen))
    # A project's documents are what the user gave the project to know (a text pasted in, a file's text): one
    # semantic memory each, named by project and file, as its description and instructions are; an empty one
    # is nothing (rounds 1-9 named them in the metadata only)
    "project_docs": ([
        "User: When does the kitchen work start?", "Assistant: On 3 November, by the Obras Silva quote.",
        "Claude project Flat renovation: Renovating the Bonfim flat in 2025.",
        "Claude project Flat renovation instructions: Keep budgets in EUR and say when a job needs a licensed "
        "installer.",
        "Claude project Flat renovation, document budget.md: # Budget\n- kitchen: 8,000 EUR\n- bathroom: 5,500 EUR\n"
        "- contingency: 10 %",
        "Claude project Flat renovation, document Contractor quote.pdf: Obras Silva Lda. Quote 2025-114. Kitchen "
        "demolition and fitting: 7,450 EUR + VAT. Start 3 November."], (0, 1, 7)),
    # thinking, a web search and the analysis tool: none of it the answer
    "thinking_tools": (["User: How much is a tram ride in Porto, and 10 rides?",
                        "Assistant: A ride costs 6 EUR on board, so 10 rides are 60 EUR."], (4, 0, 2)),
    # no name key: named by its first words; the retried answer on the current leaf's branch is the conversation
    "no_name": (["User: Is the Lello bookshop open on Sundays?",
                 "Assistant: Yes: every day from 9:30 to 19:00; book a ticket online.",
                 "User: Thanks, and the ticket price?", "Assistant: 10 EUR, deducted from a book you buy."], (0, 0, 4)),
    "tool_error": (["User: Will it rain in Porto tomorrow?",
                    "Assistant: I couldn't open IPMA's page; check ipma.pt, which had rain at 70 % for Porto this "
                    "morning."], (2, 0, 2)),
    "text_2024": (["User: What notice do I owe my landlord?\n\n[attachment: lease.txt]\nClause 9: the tenant gives 120 "
                   "days' notice.", "Assistant: 120 days, by clause 9 of your lease."], (0, 0, 2)),
}


@pytest.mark.parametrize("name", sorted(CLAUDE_CASES))
def test_claude_layouts_of_round_10(name: str) -> None:
    recs, rep = _claude(name)
    expected, (tool, empty, seen) = CLAUDE_CASES[name]
    assert [r.content for r in recs] == expected
    assert (rep.skipped_tool, rep.skipped_empty, rep.messages_seen, rep.warnings) == (tool, empty, seen, [])
    assert len({r.ref for r in recs}) == len(recs)


def test_claude_project_documents_are_semantic_and_dated() -> None:
    recs, _ = _claude("project_docs")
    docs = [r for r in recs if ", document " in r.content]
    assert [(r.memory_type, r.event_at, r.metadata.get("project"), r.metadata.get("doc")) for r in docs] == [
        ("semantic", D(2025, 10, 1, 9, 5, tzinfo=UTC), "Flat renovation", "budget.md"),
        ("semantic", D(2025, 10, 1, 9, 6, tzinfo=UTC), "Flat renovation", "Contractor quote.pdf")]


def test_claude_untitled_conversation_is_named_by_its_first_words() -> None:
    recs, _ = _claude("no_name")
    assert {r.metadata["title"] for r in recs} == {"Is the Lello bookshop open on Sundays?"}


def test_every_unseen10_claude_fixture_has_a_case() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == sorted(CLAUDE_CASES)


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"
# Decisions: pronouns are the person's own words about themselves: shown first ("pronouns she/her"); the
# grammatical gender, language and creation time are not shown. RFC 9554's SOCIALPROFILE reads as Apple's
# X-SOCIALPROFILE; its SERVICE-TYPE (and X-SERVICE-TYPE) names the network. A home/work type of an IM handle or
# a profile is shown after its service, as an e-mail's is ("im x (xmpp, home)"): a type that is a place is no
# network. A CONTACT-URI is a way to reach ("web … (contact)"). Apple's x-apple: prefix and a URI's
# %-escapes are no part of a handle; a Matrix URI (matrix:u/ana:matrix.org) names @ana:matrix.org. A profile
# given by its URL alone keeps the URL (its network is in it). An item label names a profile's network as
# it names a URL. Proton's PGP key and encryption settings are no facts.
VCF_CASES: dict[str, str] = {
    "rfc9554_v40.vcf": "Contact: Maria Costa — pronouns she/her; email maria@costa-arq.example (work); profile "
                       "https://mastodon.pt/@mariacosta (Mastodon); profile mcosta (GitHub); web "
                       "https://costa-arq.example/contact (contact)",
    "impp_types.vcf": "Contact: Rui Lima — email rui@lima.example (home); im rui@home.example (xmpp, home); im "
                      "rui.lima@voip.porto-bikes.example (sip, work); profile https://www.linkedin.com/in/rui-lima "
                      "(linkedin, work)",
    "google_2024_escaped.vcf": "Contact: Chloé Martin — phone +33 6 12 34 56 78 (cell); email chloe@atelier.example "
                               "(work); profile https://www.instagram.com/chloe.atelier (Instagram); web "
                               "https://atelier-chloe.example (Portfolio)",
    "ios18_messaging.vcf": "Contact: Ben Okafor — phone +44 7700 900123 (cell); im ben_okafor (Telegram); im "
                           "+447700900123 (Signal); profile ben.okafor (threads); profile ben.bsky.social (bluesky)",
    "proton_40.vcf": "Contact: Jun Tanaka — email jun@tanaka.example; email jun.t@work.example; note Met at the Kyoto "
                     "conference",
    "untyped_profiles.vcf": "Contact: Lena Berg — email lena@berg.example (home); im @lena:matrix.org (matrix); profile "
                            "https://www.linkedin.com/in/lena-berg; profile https://mastodon.social/@lenaberg",
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_10(name: str) -> None:
    path = VCF / name
    recs, rep = vcards(path)
    assert [r.content for r in recs] == [VCF_CASES[name]]
    assert rep.warnings == []


def test_every_unseen10_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


def _naive(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Bear: "#multi word#" tags (closed by a hash) and nested ones, a highlight loses its marks (as round 8)
    "bear_multiword": [
        ("Reading list.md", "Reading list: Books for the summer, from the #book club# and my own picks.\n\n"
         "- [x] The Hobbit\n- [ ] Dune\n- [ ] *Os Maias*, Eça de Queirós\n\nAsk Marta for her copy of Dune.", None,
         ["books/to read", "summer 2024", "book club"])],
    # Keep: a web link Keep found in a note (annotations) is part of it, on a line of its own; a voice note is
    # its transcript; a trashed note is none; a shared checklist is the list (who it is shared with is not)
    "keep_annotations": [
        ("Takeout/Keep/Ferry.json", "Ferry: Last ferry to Barreiro at 01:30, check the timetable\n"
         "Link: Transtejo Soflusa - Horários https://ttsl.pt/horarios/", D(2024, 3, 12, 7, 53, 20), ["Travel"]),
        ("Takeout/Keep/Shared list.json", "Shared list: - [ ] milk\n- [x] bread", D(2024, 3, 14, 8, 0), []),
        ("Takeout/Keep/Voice memo.json", "Call the plumber about the boiler pressure on Monday", D(2024, 3, 13, 8, 0),
         [])],
    # Keep's older Takeout, HTML only: the note's title, its words (a checklist as boxes), its labels as tags, the
    # time in its heading (the exporter's local time, naive); the heading and the labels are no text
    "keep_html_only": [
        ("Takeout/Keep/Gate code.html", "Gate code: Garage gate: 4821\nFront door: 1357", D(2018, 3, 14, 10, 0),
         ["Home"]),
        ("Takeout/Keep/Groceries.html", "Groceries: - [x] rice\n- [ ] lemons", D(2018, 3, 15, 18, 30), [])],
    # written after round 10's first fixes, before their code: Keep pages of a German and a French Takeout (the
    # heading's time in the account's language: "14.03.2018, 10:00:00", "15 mars 2018 à 18:30:00"), a web link
    # and a picture (its file, not words)
    "keep_html_locales": [
        ("Takeout/Keep/Fähre.html", "Fähre: Letzte Fähre nach Barreiro um 01:30\nLink: Transtejo Soflusa - Horários "
         "https://ttsl.pt/horarios/", D(2018, 3, 14, 10, 0), ["Reisen"]),
        ("Takeout/Keep/Plombier.html", "Plombier: Oscar passe jeudi pour la chaudière", D(2018, 3, 15, 18, 30), [])],
    # Obsidian: Dataview fields read "key: value" ("(key:: value)" shows its value only, as Dataview renders
    # it); a dataview/dataviewjs query is no text (its result is not in the file)
    "obsidian_dataview": [
        ("Projects/Boiler.md", "Boiler: Owner: Oscar\n- [ ] Book the annual service due: 2024-04-02\n"
         "- [x] Pay the deposit 120 EUR ✅ 2024-03-10\n- [ ] Bleed the radiators 📅 2024-03-20 ⏫\n\n"
         "The pressure should read 1.5 bar when cold.", None, ["home"])],
    # Obsidian: block ids (^visit-window) are no text; a callout nested in another is titled as the outer one is
    "obsidian_blocks": [
        ("Boiler service.md", "Boiler service: The engineer comes on 2 April between 9 and 12.\n\n> Gas smell\n"
         "> Close the valve under the meter and call 800 201 722.\n\n> Parts\n> > Ask first\n"
         "> > The filter is under warranty until June.\n\nBoiler > Pressure\n\nPressure at 1.5 bar when cold, see the "
         "check.", None, [])],
    # Notion property lines outside a database stay text (decided in round 2, kept: "Status: Done" is the page's
    # own words and recall finds them; a Tags line also tags)
    "notion_props": [
        ("Boiler service.md", "Boiler service: Status: Done\nDue: March 20, 2024\nAssignee: Oscar Pinto\n"
         "Tags: home, maintenance\n\nOscar replaced the pressure valve. Next service in March 2025.", None,
         ["home", "maintenance"])],
    # an Apple Notes export (folders of .md, a picture beside): the table and the picture's name are kept
    "apple_exporter": [
        ("iCloud/Kitchen/Tile order.md", "Tile order: Ordered from Cerâmica do Porto on 12 March 2024.\n\n"
         "- [x] Pay the deposit\n- [ ] Book the tiler\n\n| Tile | Boxes | Price |\n|---|---|---|\n"
         "| White metro 10x20 | 8 | 23 EUR |\n| Grey hexagon | 3 | 41 EUR |\n\nAttachments/IMG_0042.jpeg", None, [])],
    # Joplin: a link to another note (:/<id>) reads as its words and links to that note; a resource reads as its
    # name
    "joplin_links": [
        ("Home/Boiler service.md", "Boiler service: Oscar serviced it on 13 March; next service March 2025.",
         D(2024, 3, 13, 10, 0), []),
        ("Home/Boiler.md", "Boiler: The boiler is a Vaillant ecoTEC. Service notes are in Boiler service.\n\n"
         "manual.pdf", D(2024, 3, 12, 9, 0), ["home"])],
}


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_notes_of_round_10(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    assert [(r.thread, r.content, _naive(r.event_at), r.tags) for r in recs] == NOTE_CASES[name]
    assert rep.warnings == []


def test_keep_web_links_are_kept_in_the_metadata() -> None:
    recs, _ = _notes(NOTES / "keep_annotations")
    assert recs[0].metadata["urls"] == ["https://ttsl.pt/horarios/"]


def test_joplin_link_between_notes_is_an_edge() -> None:
    recs, _ = _notes(NOTES / "joplin_links")
    service, boiler = recs
    assert [target for target, _ in boiler.links] == [service.ref]


def test_every_unseen10_notes_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted(NOTE_CASES)


# --- bad input in the new layouts: no traceback, nothing half-written ----------------------------------


def test_odd_project_documents_and_canvas_calls_are_skipped(tmp_path: Path) -> None:
    """Documents that are no objects or hold no text, and a canvas edit of no document: skipped, no error."""
    proj = json.loads((CLAUDE / "project_docs" / "projects.json").read_text(encoding="utf-8"))
    proj[0]["docs"] = ["budget.md", {"filename": "a.md", "content": ["not", "text"]}, {"content": "No name."}, None]
    (tmp_path / "projects.json").write_text(json.dumps(proj), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "claude")
    recs = list(claude.parse(tmp_path / "projects.json", rep))
    assert [r.content for r in recs][2:] == ["Claude project Flat renovation, document untitled: No name."]
    assert rep.skipped_empty == 1 and rep.warnings == []


def test_a_broken_keep_page_is_read_as_far_as_it_goes(tmp_path: Path) -> None:
    keep = tmp_path / "Takeout" / "Keep"
    keep.mkdir(parents=True)
    (keep / "Cut.html").write_bytes(b'<html><body><div class="note DEFAULT"><div class="heading">Not a date</div>'
                                    b'<div class="title">Cut</div><div class="content">Half a li\xff')
    (keep / "Empty.html").write_text('<html><body><div class="note DEFAULT"><div class="title">Empty</div>'
                                     '<div class="content"></div></div></body></html>', encoding="utf-8")
    recs, rep = _notes(tmp_path)
    assert [(r.content, r.event_at) for r in recs] == [("Cut: Half a li\ufffd", None)]
    assert rep.skipped_empty == 1


def test_a_canvas_pattern_that_could_run_for_ever_is_not_applied(tmp_path: Path) -> None:
    """A pattern of nested repeats ("(a+)+$") on a long text backtracks for hours: such an edit is not applied
    (what the document then says is not known), and the import goes on."""
    conv = json.loads((GPT / "canvas_edits" / "conversations.json").read_text(encoding="utf-8"))
    create = json.loads(conv[0]["mapping"]["a1"]["message"]["content"]["text"])
    create["content"] = "a" * 5000 + "!"
    conv[0]["mapping"]["a1"]["message"]["content"]["text"] = json.dumps(create)
    conv[0]["mapping"]["a3"]["message"]["content"]["text"] = json.dumps(
        {"updates": [{"pattern": "(a+)+$", "multiple": False, "replacement": "b"}]})
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "chatgpt")
    texts = [r.content for r in chatgpt.parse(tmp_path, rep)]
    assert sum(1 for t in texts if t.startswith("Assistant: [canvas: packing_list]")) == 1 and rep.warnings == []


def test_a_broken_canvas_export_is_one_line_naming_the_file(tmp_path: Path) -> None:
    data = (GPT / "canvas_edits" / "conversations.json").read_bytes()
    assert_broken_import_fails(tmp_path, "conversations.json", data[: len(data) // 2], "invalid or truncated JSON")


@pytest.mark.parametrize(("path", "added"), [
    (WA / "android_pt_PT.txt", 4), (GPT / "canvas_edits", 12), (CLAUDE / "project_docs", 6),
    (VCF / "rfc9554_v40.vcf", 1), (NOTES / "keep_html_only", 2), (NOTES / "joplin_links", 2)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added and out["data"]["warnings"] == [], out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0
