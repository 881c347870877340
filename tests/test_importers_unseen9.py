"""Round 9 of export layouts nobody here had seen (tests/fixtures/unseen9, written by hand from how the
apps export, before any code of this round; nothing copied from a real export or from ../shared; see its
README.md):

* WhatsApp: Android chats in ten locales not read before (mk, af, uz, ur, ka, hy, ne with Devanagari digits,
  gu, eu, gl), each with its encryption notice, media placeholder, deleted message, edited marker and missed
  call; the Republic of China (Minguo) calendar of Taiwanese phones (iOS with its era word, Android without);
  events (the event a person creates, RSVP and change notices), a community's announcement group, a business
  catalogue with products, carts and orders, kept messages and voice chats, Meta AI in a group;
* ChatGPT 2025: scheduled tasks (``automations.create``/``update``) and a task's run, a group chat of several
  people, advanced voice mode with camera frames, a project's file search, an export split over two files,
  connectors and canvas comments;
* Claude 2025: artifacts edited by ``update`` (old_str/new_str) then rewritten, files written by
  ``create_file`` then edited by ``str_replace`` (one edit that cannot apply), tool results holding a
  screenshot and a PDF, thinking with summaries;
* vCard: iOS social profiles, IMPP and labelled URLs, vCard 4.0 RELATED/ANNIVERSARY/IMPP/URL with several
  e-mail types, Android 2.1 events (anniversary, a custom date) and IM fields, Outlook's X-MS-* fields,
  Evolution's IM and relation fields, KDE's custom fields, Nextcloud's social profiles;
* notes: a Notion export zipped in a zip ("Part-1"), Roam attributes and task markers, Logseq drawers
  (properties, LOGBOOK), block properties and ``#+BEGIN_QUOTE``, Org-mode headers in a ``.md``, a Dendron
  vault (dotted hierarchy, times in ms), an Obsidian Excalidraw drawing.

Decisions on layouts that can be read two ways are written beside their cases."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli
from importer_cli import check_whatsapp_layout, conversations, vcards, wa
from importer_cli import notes as _notes
from importer_cli import one_envelope as _envelope
from importer_cli import write_zip as _zip

from importers import ImportReport, Record, chatgpt, claude, vcf
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen9"
D = datetime
UTC = timezone.utc

# --- WhatsApp: ten Android locales, the Minguo calendar ------------------------------------------------

WA = FIX / "whatsapp"
_LOCALES = {  # file: (date order, first message, the edited one, the multi-line one, the last one)
    "android_mk.txt": ("dmy", "Марко: Вечера во девет?", "Ана: Ги носам столиците", "Ана: Може\nносам вино",
                       "Марко: Се гледаме"),
    "android_af.txt": ("ymd", "Pieter: Ete om nege?", "Anneke: Ek bring die stoele", "Anneke: Goed\nek bring wyn",
                       "Pieter: Sien jou later"),
    "android_uz.txt": ("dmy", "Aziz: Kechki ovqat soat to‘qqizdami?", "Dilnoza: Stullarni olib kelaman",
                       "Dilnoza: Xo‘p\nvino olib kelaman", "Aziz: Ko‘rishguncha"),
    "android_ur.txt": ("dmy", "احمد: رات کا کھانا نو بجے؟", "عائشہ: میں کرسیاں لاؤں گی",
                       "عائشہ: ٹھیک ہے\nمیں جوس لاؤں گی", "احمد: پھر ملتے ہیں"),
    "android_ka.txt": ("dmy", "გიორგი: ვახშამი ცხრაზე?", "ნინო: სკამებს მოვიტან", "ნინო: კარგი\nღვინოს მოვიტან",
                       "გიორგი: შევხვდებით"),
    "android_hy.txt": ("dmy", "Արամ: Ընթրիք ժամը ինին?", "Անի: Աթոռները կբերեմ", "Անի: Լավ\nգինի կբերեմ",
                       "Արամ: Կհանդիպենք"),
    "android_ne.txt": ("dmy", "राम: नौ बजे खाना?", "सीता: म कुर्सीहरू ल्याउँछु", "सीता: हुन्छ\nम वाइन ल्याउँछु",
                       "राम: भेटौँला"),
    "android_gu.txt": ("dmy", "રાજ: નવ વાગ્યે જમવાનું?", "પ્રિયા: હું ખુરશીઓ લાવીશ", "પ્રિયા: સારું\nહું જ્યુસ લાવીશ",
                       "રાજ: મળીએ"),
    "android_eu.txt": ("ymd", "Ander: Afaria bederatzietan?", "Miren: Aulkiak ekarriko ditut",
                       "Miren: Ados\nardoa ekarriko dut", "Ander: Gero arte"),
    "android_gl.txt": ("dmy", "Xoán: Cea ás nove?", "Uxía: Levo as cadeiras", "Uxía: Vale\nlevo o viño",
                       "Xoán: Ata logo"),
}
# Every locale chat: 12 March 2024 from 21:00: an encryption notice, a deleted message and a missed call are
# notices; the media placeholder is media; the edited message keeps its words, not its marker.
WA_CASES: dict[str, tuple[Any, ...]] = {
    name: ("dashed", order, "gregorian", (3, 1), [(first, D(2024, 3, 12, 21, 1)), (edited, D(2024, 3, 12, 21, 4)),
                                                  (multi, D(2024, 3, 12, 21, 6)), (last, D(2024, 3, 12, 21, 7))],
           {edited})
    for name, (order, first, edited, multi, last) in _LOCALES.items()
}
# a chat of one day written 12/3/24 cannot tell day from month: these have a second day
WA_CASES["android_ur.txt"][4].append(("عائشہ: کل رات کا شکریہ!", D(2024, 3, 13, 8, 30)))
WA_CASES["android_gu.txt"][4].append(("પ્રિયા: કાલ રાત માટે આભાર!", D(2024, 3, 13, 8, 30)))
WA_CASES.update({
    # Taiwan's Minguo calendar: year 113 is 2024 (year + 1911); iOS writes its era word 民國, Android does not
    "ios_zh_TW_roc.txt": ("bracketed", "ymd", "roc", (3, 1), [
        ("志明: 今晚九點吃飯？", D(2024, 3, 12, 21, 1, 5)), ("春嬌: 我帶椅子", D(2024, 3, 12, 21, 4)),
        ("春嬌: 好\n我帶酒", D(2024, 3, 12, 21, 6, 30)), ("志明: 昨晚謝謝！", D(2024, 3, 13, 8, 30))], {"春嬌: 我帶椅子"}),
    "android_zh_TW_roc.txt": ("dashed", "ymd", "roc", (3, 1), [
        ("志明: 今晚九點吃飯？", D(2024, 3, 12, 21, 1)), ("春嬌: 我帶椅子", D(2024, 3, 12, 21, 4)),
        ("春嬌: 好\n我帶酒", D(2024, 3, 12, 21, 6)), ("志明: 昨晚謝謝！", D(2024, 3, 13, 8, 30))], {"春嬌: 我帶椅子"}),
    # Events: the event a person creates is their words (title, time, place, as a poll is kept as written); an
    # RSVP ("Going to …", with or without the person as sender), a change and a cancellation are notices
    "android_en_event.txt": ("dashed", "dmy", "gregorian", (6, 0), [
        ("Ana: Bins go out on Tuesday", D(2024, 3, 12, 9, 2)),
        ("Ana: EVENT: Street dinner\nSaturday 16 March 2024, 20:00\nRua Nova, in front of number 12\n"
         "Bring a chair and something to share", D(2024, 3, 12, 9, 5)),
        ("Ben: I'll bring the grill", D(2024, 3, 12, 9, 9)),
        ("Ana: EVENT: Street dinner: Sunday instead\nSunday 17 March 2024, 19:30\nRua Nova, in front of number 12",
         D(2024, 3, 12, 9, 20))]),
    "ios_en_event.txt": ("bracketed", "dmy", "gregorian", (5, 0), [
        ("Ana: Bins go out on Tuesday", D(2024, 3, 12, 9, 2, 11)),
        ("Ana: EVENT: Street dinner\nSaturday 16 March 2024 at 20:00\nRua Nova, in front of number 12",
         D(2024, 3, 12, 9, 5, 40)),
        ("Ben: I’ll bring the grill", D(2024, 3, 12, 9, 9, 45))]),
    # a community's announcement group: the community's notices (created, groups added and removed, joins
    # "from the community", admins made, the welcome) are no one's words; the admins' announcements are
    "android_en_community.txt": ("dashed", "dmy", "gregorian", (11, 0), [
        ("Ana: Water will be off on Thursday from 9 to 12.", D(2024, 3, 1, 10, 5)),
        ("Ana: Garden meeting on Saturday at 11, by the fig tree.", D(2024, 3, 1, 10, 12)),
        ("Rui: The garage door code changed to 4821.", D(2024, 3, 2, 8, 30))]),
    # a business catalogue: a product or catalogue link is the sender's words; a cart and an order are
    # placeholders (media), never text
    "android_en_catalogue.txt": ("dashed", "dmy", "gregorian", (4, 2), [
        ("Porto Bikes: Hi Ana! Here is our catalogue: https://wa.me/c/351912345678", D(2024, 3, 12, 10, 1)),
        ("Porto Bikes: Urban bike 3 gears, blue\nhttps://wa.me/p/7215834561234567/351912345678", D(2024, 3, 12, 10, 2)),
        ("Ana: Is the blue one in size M?", D(2024, 3, 12, 10, 4)),
        ("Porto Bikes: Yes, 320 EUR. We hold it until Friday.", D(2024, 3, 12, 10, 5)),
        ("Porto Bikes: Thanks! Order 4471 is confirmed, pickup Friday after 5.", D(2024, 3, 12, 10, 8))]),
    # kept messages in a disappearing chat, a voice chat, a pin: notices
    "android_en_kept.txt": ("dashed", "dmy", "gregorian", (7, 0), [
        ("Ana: The wifi password is porto-azul-2024", D(2024, 3, 12, 19, 1)),
        ("Ben: Got it, thanks", D(2024, 3, 12, 19, 3)),
        ("Ana: Don't forget the keys are under the mat", D(2024, 3, 12, 19, 22))]),
    # Meta AI in a group: its answer is kept (authored "Meta AI"); its disclaimers are notices
    "android_en_meta_ai.txt": ("dashed", "dmy", "gregorian", (4, 0), [
        ("Ana: @Meta AI what's a good wine with bacalhau?", D(2024, 3, 12, 20, 1)),
        ("Meta AI: A white from Alentejo or a Vinho Verde goes well with bacalhau.", D(2024, 3, 12, 20, 1)),
        ("Ben: Vinho Verde then, I'll buy two", D(2024, 3, 12, 20, 3))]),
})


@pytest.mark.parametrize("name", sorted(WA_CASES))
def test_whatsapp_layouts_of_round_9(name: str) -> None:
    check_whatsapp_layout(WA / name, WA_CASES[name])


def test_every_unseen9_whatsapp_fixture_has_a_case() -> None:
    assert sorted(p.name for p in WA.iterdir()) == sorted(WA_CASES)


def test_words_like_the_new_notices_stay_a_persons(tmp_path: Path) -> None:
    """A person's words that hold a notice's words are no notice: only the whole body is."""
    texts = ["Going to the beach, anyone?", "Not going to \"that\" party again", "I kept a message for you",
             "Meta AI is wrong about the wine", "113 people came", "Оваа порака е избришана, ја пратив пак"]
    chat = tmp_path / "chat.txt"
    chat.write_text("".join(f"12/03/2024, 15:{i:02d} - Ana: {t}\n" for i, t in enumerate(texts)), encoding="utf-8")
    recs, rep = wa(chat)
    assert [r.content for r in recs] == [f"Ana: {t}" for t in texts]
    assert (rep.skipped_system, rep.skipped_media) == (0, 0)


def test_a_minguo_date_that_cannot_be_is_named(tmp_path: Path) -> None:
    chat = tmp_path / "chat.txt"
    chat.write_text("113/3/12 下午9:01 - 志明: 好\n113/13/40 下午9:02 - 志明: 壞\n", encoding="utf-8")
    recs, rep = wa(chat)
    assert [r.content for r in recs] == ["志明: 好"]
    assert len(rep.warnings) == 1 and f"{chat}:2:" in rep.warnings[0] and "113/13/40" in rep.warnings[0]


# --- ChatGPT 2025 -------------------------------------------------------------------------------------

GPT = FIX / "chatgpt"
T = 1742900000  # 2025-03-25 10:53:20 UTC


def _t(seconds: int) -> datetime:
    return datetime.fromtimestamp(T + seconds, tz=UTC)


BINS = "Bins reminder"
GPT_CASES: dict[str, tuple[list[tuple[str, datetime, str]], tuple[int, int, int, int]]] = {
    # folder: ([(content, time, title)], (system, tool, media, seen))
    # A scheduled task the user set is a memory of theirs (semantic), read from the call's JSON: its title, its
    # schedule in words (the iCalendar RRULE/DTSTART) and its prompt; an update is the task as it now stands.
    # The receipts are tool traffic; the run's hidden prompt is not said by anyone; the reminder it wrote is.
    "tasks": ([("User: Remind me every Monday at 8 to put the bins out", _t(1), BINS),
               ("ChatGPT task: Put the bins out (weekly on Monday at 08:00): Remind me to put the bins out.", _t(2),
                BINS),
               ("Assistant: Done: every Monday at 08:00 I'll remind you to put the bins out.", _t(4), BINS),
               ("User: Also Thursday evenings, 20:30, and no more Mondays", _t(10), BINS),
               ("ChatGPT task: Put the bins out (weekly on Monday and Thursday at 20:30): Remind me to put the bins "
                "out.", _t(11), BINS),
               ("Assistant: Updated: Mondays and Thursdays at 20:30.", _t(13), BINS),
               ("User: And on Friday at 15:30 remind me to call the dentist about the crown", _t(20), BINS),
               ("ChatGPT task: Call the dentist (once on 2025-03-28 at 15:30): Remind me to call the dentist about "
                "the crown.", _t(21), BINS),
               ("Assistant: Set for Friday 28 March at 15:30.", _t(23), BINS),
               ("Assistant: Reminder: tonight is bin night, put the bins out.", _t(600005), "Put the bins out")],
              (1, 3, 0, 14)),
    # a group chat: each person speaks under their own name, not as "User"
    "group_chat": ([("Ana Reyes: Where should we stay in Lisbon for three nights?", _t(1), "Lisbon trip"),
                    ("Assistant: Alfama or Príncipe Real: both walkable, Alfama is cheaper.", _t(5), "Lisbon trip"),
                    ("Ben Okafor: I vote Alfama, I want to hear fado", _t(30), "Lisbon trip"),
                    ("Ana Reyes: Alfama it is. Budget 90 EUR a night each?", _t(40), "Lisbon trip"),
                    ("Assistant: That fits: guesthouses in Alfama run 70-95 EUR a night.", _t(44), "Lisbon trip")],
                   (0, 0, 0, 5)),
    # advanced voice: the transcripts are the words; a turn of only a recording (no transcript) is media
    "voice_realtime": ([("User: How often should I water this one?", _t(1), "Plant watering"),
                        ("Assistant: That's a snake plant: every two to three weeks.", _t(4), "Plant watering"),
                        ("Assistant: Less in winter: once a month is enough.", _t(10), "Plant watering")],
                       (0, 0, 1, 4)),
    # a project's file search: the call and its snippets are tool traffic; the file citation mark goes
    "project_files": ([("User: When can the landlord raise the rent?", _t(1), "Lease questions"),
                       ("Assistant: Once a year, in line with the official coefficient.", _t(6), "Lease questions")],
                      (3, 1, 0, 6)),
    # split over two files, the viewer page and the account beside them: every conversation once
    "split_files": ([("User: Last ferry to Barreiro?", _t(101), "Ferry"),
                     ("Assistant: At 01:30 from Terreiro do Paço.", _t(102), "Ferry"),
                     ("User: Does tram 28 run at night?", _t(201), "Tram"),
                     ("Assistant: Until about 23:00.", _t(202), "Tram"),
                     ("User: Taxi from the airport to Alfama?", _t(301), "Taxi"),
                     ("Assistant: About 15 EUR.", _t(302), "Taxi")], (0, 0, 0, 6)),
    # connectors: the calendar call and its answer are tool traffic; a canvas comment is no answer
    "connectors": ([("User: When is my dentist appointment?", _t(1), "Dentist"),
                    ("Assistant: Friday 28 March at 15:30.", _t(4), "Dentist")], (2, 1, 0, 5)),
}


def _gpt(name: str) -> tuple[list[Record], ImportReport]:
    return conversations(GPT / name)


@pytest.mark.parametrize("name", sorted(GPT_CASES))
def test_chatgpt_2025_layouts_of_round_9(name: str) -> None:
    recs, rep = _gpt(name)
    expected, (system, tool, media, seen) = GPT_CASES[name]
    assert [(r.content, r.event_at, r.metadata["title"]) for r in recs] == expected
    assert (rep.skipped_system, rep.skipped_tool, rep.skipped_media, rep.messages_seen, rep.warnings) == (
        system, tool, media, seen, [])


def test_chatgpt_tasks_are_semantic_and_keep_their_schedule() -> None:
    recs, _ = _gpt("tasks")
    tasks = [r for r in recs if r.content.startswith("ChatGPT task")]
    assert [r.memory_type for r in tasks] == ["semantic"] * 3 and all(r.author == "Assistant" for r in tasks)
    assert tasks[0].metadata["task"] == {"title": "Put the bins out", "prompt": "Remind me to put the bins out.",
                                         "schedule": "weekly on Monday at 08:00"}
    assert len({r.ref for r in recs}) == len(recs)


def test_chatgpt_group_chat_speakers_are_the_people() -> None:
    recs, _ = _gpt("group_chat")
    assert [r.author for r in recs] == ["Ana Reyes", "Assistant", "Ben Okafor", "Ana Reyes", "Assistant"]


def test_chatgpt_project_conversation_names_its_project() -> None:
    recs, _ = _gpt("project_files")
    assert {r.metadata.get("gizmo") for r in recs} == {"g-p-67e2d0a1b2c3d4e5f6a7b8c9d0e1f2a3"}


def test_chatgpt_a_task_call_that_is_no_json_is_left_as_a_tool_call(tmp_path: Path) -> None:
    conv = json.loads((GPT / "tasks" / "conversations.json").read_text(encoding="utf-8"))[:1]
    first = next(node["message"] for node in conv[0]["mapping"].values()
                 if (node.get("message") or {}).get("recipient") == "automations.create")
    first["content"]["text"] = "{not json"
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "chatgpt")
    recs = list(chatgpt.parse(tmp_path, rep))
    # the update that follows changes a task this conversation never set: what it changes is not known
    assert [r.content for r in recs if r.content.startswith("ChatGPT task")] == [
        "ChatGPT task: Call the dentist (once on 2025-03-28 at 15:30): Remind me to call the dentist about the crown."]
    assert rep.warnings == [] and rep.skipped_system == 2


def test_every_unseen9_chatgpt_fixture_has_a_case() -> None:
    assert sorted(p.name for p in GPT.iterdir()) == sorted(GPT_CASES)


# --- Claude 2025 --------------------------------------------------------------------------------------

CLAUDE = FIX / "claude"


def _claude(name: str, **options: Any) -> tuple[list[Record], ImportReport]:
    path = CLAUDE / name
    assert detect(path) == "claude"
    rep = ImportReport(str(path), "claude")
    return list(claude.parse(path, rep, **options)), rep


# An edit of an artifact or file (``update``, ``str_replace``: old_str -> new_str) is recorded as the document as
# edited, whole, where the edit stands, as a rewrite is: the document is what the user reads and keeps, and an
# edit's new_str alone ("- 12 eggs") says nothing without it. Edits of one document in one message show it once,
# after the last of them. An edit that cannot be applied (its document is not in the conversation, its old_str
# is not found once in it) stays a tool call: what the document then says is not known.
def test_claude_artifact_updates_show_the_document_as_edited() -> None:
    recs, rep = _claude("artifact_edits")
    assert [r.content for r in recs] == [
        "User: Make me a shopping list: rice, eggs, olive oil",
        "Assistant: Here it is.\n\n[artifact: Shopping list]\n# Shopping list\n- rice\n- 6 eggs\n- olive oil",
        "User: Make it a dozen eggs and add lemons",
        "Assistant: [artifact: Shopping list]\n# Shopping list\n- rice\n- 12 eggs\n- olive oil\n- lemons\n\n"
        "Updated: a dozen eggs, and lemons.",
        "User: Sort it by aisle",
        "Assistant: [artifact: Shopping list]\n# Shopping list\n## Produce\n- lemons\n## Pantry\n- rice\n- olive oil\n"
        "## Dairy\n- 12 eggs\n\nSorted by aisle."]
    assert recs[3].metadata["artifacts"] == ["Shopping list"]
    assert (rep.skipped_tool, rep.warnings) == (4, [])


def test_claude_str_replace_edits_of_a_created_file() -> None:
    recs, rep = _claude("str_replace")
    assert [r.content for r in recs] == [
        "User: Write a garden plan file",
        "Assistant: [artifact: garden.md]\n# Garden plan\n- tomatoes: south bed\n- basil: pots\n- water: every 2 days"
        "\n\nThe plan is in garden.md.",
        "User: Water every 3 days instead, and the basil goes on the windowsill",
        "Assistant: [artifact: garden.md]\n# Garden plan\n- tomatoes: south bed\n- basil: windowsill\n"
        "- water: every 3 days\n\nDone: watering every 3 days, basil on the windowsill.",
        "User: In my old notes file change the shed code to 7350",
        "Assistant: I can't see notes.md in this conversation; the new code is 7350."]
    # four receipts and the edit of a file this conversation never wrote
    assert (rep.skipped_tool, rep.warnings) == (5, [])
    assert recs[3].metadata["artifacts"] == ["garden.md"]


def test_claude_tool_results_holding_a_picture_and_a_file() -> None:
    recs, rep = _claude("tool_media")
    assert [(r.content, r.event_at) for r in recs] == [
        ("User: Is the Rua Nova post office open on Saturday?", D(2025, 9, 25, 9, 0, 1, tzinfo=UTC)),
        ("Assistant: Yes: Saturdays from 9:00 to 13:00.", D(2025, 9, 25, 9, 0, 30, tzinfo=UTC))]
    assert (rep.skipped_tool, rep.warnings) == (4, [])
    # with the tools: their words, never a picture's or a file's base64
    recs, _ = _claude("tool_media", include_tools=True)
    assert recs[1].content == ("Assistant: Screenshot taken\n\nSaturday 9:00-13:00\n\nYes: Saturdays from 9:00 to "
                               "13:00.")


def test_every_unseen9_claude_fixture_has_a_test() -> None:
    assert sorted(p.name for p in CLAUDE.iterdir()) == ["artifact_edits", "str_replace", "tool_media"]


# --- vCard --------------------------------------------------------------------------------------------

VCF = FIX / "vcf"
# The ways to reach a person are facts of theirs as a phone is: IM handles ("im <handle> (<service>)", the
# service from X-SERVICE-TYPE, else the URI's scheme, else the legacy property's name), social profiles
# ("profile <user> (<network>)", the user name when given, else the URL) and web pages ("web <url> (<label>)"),
# after the e-mails; relations and anniversaries written as Outlook's, Evolution's, KDE's and Android's own
# fields read as vCard 4.0's RELATED and ANNIVERSARY. A free/busy URL is no fact.
VCF_CASES: dict[str, str] = {
    "ios_social_impp.vcf": "Contact: Ana Reyes — phone +351 912 345 678 (cell); im ana.reyes.porto (Skype); "
                           "im ana.reyes.77 (Facebook); profile ana.reyes.arq (instagram); profile anareyes (linkedin); "
                           "profile https://mastodon.social/@anareyes (mastodon); web https://anareyes.example (home "
                           "page); web https://studio-reyes.example/team/ana (Studio)",
    "v40_related_anniversary.vcf": "Contact: Ben Okafor — email ben@okafor-build.example (work); email "
                                   "ben.okafor@mail.example (home); email ben.o@old-isp.example; im ben@jabber.example "
                                   "(xmpp); web https://okafor-build.example (work); anniversary 2015-06-20; related "
                                   "Chidi Okafor (spouse), Rui Lima (friend)",
    "android_21_events_im.vcf": "Contact: Rui Lima — phone +351 913 000 111 (cell); email rui@lima.example (home); "
                                "email rui.lima@porto-bikes.example (work); email rui@climb.example (climbing club); "
                                "im rui@jabber.example (Jabber); im rui.lima.pt (Skype); web http://rui.lima.example; "
                                "anniversary 2015-06-20; Started at Porto Bikes 2019-09-01; related Maria Costa "
                                "(spouse)",
    "outlook_ms_fields.vcf": "Contact: Jun Tanaka — phone +81-3-1234-5678 (work); email jun@acme.example; email "
                             "jun.tanaka@home.example; im jun@im.acme.example; web https://acme.example/jp (work); org "
                             "ACME Japan; anniversary 2010-05-15; related Yuki Tanaka (spouse), Kenji Sato (manager), "
                             "Aiko Mori (assistant)",
    "evolution_im.vcf": "Contact: Min Park — email min@park.example (work); im minpark88 (AIM); im min@jabber.example "
                        "(Jabber); im 123456789 (ICQ); web https://minpark.example/blog (blog); anniversary 2018-10-06; "
                        "related Jisoo Park (spouse), Hana Lee (manager), Tae Kim (assistant)",
    "kde_custom.vcf": "Contact: Lena Berg — email lena@berg.example (home); email lena.berg@studio.example (work); "
                      "im lena@im.example; web https://lena.example/feed (blog); web https://lena.example; anniversary "
                      "2012-08-18; related Erik Berg (spouse), Astrid Lund (manager)",
    "nextcloud_social.vcf": "Contact: Chloé Martin — phone +33 6 12 34 56 78 (cell); im https://matrix.to/#/@chloe:"
                            "matrix.org (Matrix); profile https://piaille.fr/@chloe (mastodon); profile chloemartin "
                            "(github); profile https://bsky.app/profile/chloe.bsky.social (bluesky); web "
                            "https://chloe.example",
}


@pytest.mark.parametrize("name", sorted(VCF_CASES))
def test_vcards_of_round_9(name: str) -> None:
    path = VCF / name
    recs, rep = vcards(path)
    assert [r.content for r in recs] == [VCF_CASES[name]]
    assert rep.warnings == []


def test_im_handles_and_profiles_are_no_aliases() -> None:
    """A handle names an account, not the person: a WhatsApp sender called "anareyes" is not Ana by it."""
    recs = list(vcf.parse(VCF / "ios_social_impp.vcf", ImportReport("x", "vcf")))
    assert not {"anareyes", "ana.reyes.porto", "ana.reyes.arq"} & set(recs[0].aliases)


def test_every_unseen9_vcard_fixture_has_a_case() -> None:
    assert sorted(p.name for p in VCF.iterdir()) == sorted(VCF_CASES)


# --- notes --------------------------------------------------------------------------------------------

NOTES = FIX / "notes"


NOTE_CASES: dict[str, list[tuple[Any, ...]]] = {  # folder: [(thread, content, date, tags)]
    # Roam: a page's attributes ("Key:: value" blocks) read "Key: value", its Tags:: attribute tags the page;
    # {{[[TODO]]}} / {{[[DONE]]}} read as the to-do boxes every other importer writes
    "roam": [
        ("March 12th, 2024.md", "March 12th, 2024: - Called Oscar the plumber about the boiler\n- [ ] pay the deposit\n"
         "- [x] book the service", D(2024, 3, 12), []),
        ("Oscar the plumber.md", "Oscar the plumber: - Phone: +351 912 000 333\n- Works: Saturdays only\n- Fixed the "
         "boiler on March 12th, 2024, quote was 2,400 EUR\n    - Next service due in April", None, ["people", "home"]),
    ],
    # Logseq: a :PROPERTIES: drawer (its CREATED dates the page) and a :LOGBOOK: drawer are no text; the app's
    # own block properties (collapsed::, heading::) neither; #+BEGIN_QUOTE … #+END_QUOTE is the quote's words
    "logseq_drawers": [
        ("journals/2024_03_12.md", "2024-03-12: - [x] Call Oscar about the boiler\n- Quote: 2,400 EUR for the new "
         "boiler Boiler", D(2024, 3, 12), []),
        ("pages/Boiler.md", "Boiler: - Vaillant ecoTEC, serviced every April\n\t- Oscar's number: +351 912 000 333\n"
         "- Gas smell: call 800 200 200 first.\n- Parts\n\t- Pressure valve replaced in 2023", D(2024, 3, 12, 9, 15),
         []),
    ],
    # Org-mode's file keywords written in a .md (#+title, #+date, #+filetags): the note is Org, its keywords its
    # title, date and tags (not text nor "#+title" tags); its headline "* Parts" a heading under the title, as
    # round 6 reads an .org file
    "org_headers": [
        ("Boiler service.md", "Boiler service: Oscar comes every April; last service 12 April 2023.",
         D(2024, 3, 12), ["home", "boiler"]),
        ("Boiler service.md", "Boiler service > Parts: The pressure valve was replaced in 2023.", D(2024, 3, 12),
         ["home", "boiler"]),
    ],
    # Dendron: a note's place in the dotted hierarchy is its parents' titles first (as Notion's nested pages),
    # then its own title (also before a heading of it: "Service > 2024"); the root note of only its ids says
    # nothing; created (ms since 1970) dates it
    "dendron": [
        ("home.boiler.md", "Home > Boiler: Vaillant ecoTEC, serviced by Oscar every April.",
         D(2024, 3, 12, 9, 16), ["home"]),
        ("home.boiler.service.md", "Home > Boiler > Service > 2024: Booked for 15 April, 9:00.", D(2024, 3, 13, 9, 15),
         []),
        ("home.md", "Home: Third floor, no lift.", D(2024, 3, 12, 9, 15), []),
    ],
    # Obsidian Excalidraw: the drawing's text elements are its words (without their ^block ids); the warning
    # banner and the compressed drawing are not
    "excalidraw": [
        ("Kitchen layout.excalidraw.md", "Excalidraw Data > Text Elements: Fridge by the door\n\n"
         "Oven left of the window\n\nSink: 60 cm", None, ["excalidraw"]),
    ],
}


def _when(value: datetime | None) -> datetime | None:
    """Dendron's times are UTC instants: compared as such, other notes' as written."""
    return value.astimezone(UTC).replace(tzinfo=None) if value is not None and value.tzinfo else value


@pytest.mark.parametrize("name", sorted(NOTE_CASES))
def test_notes_of_round_9(name: str) -> None:
    recs, rep = _notes(NOTES / name)
    assert [(r.thread, r.content, _when(r.event_at), r.tags) for r in recs] == NOTE_CASES[name]
    assert rep.warnings == []


NOTION_PAGES = [("Home.md", "Home: The flat on Rua Nova, 3rd floor.\n\nBoiler"),
                ("Home/Boiler.md", "Home > Boiler: Vaillant ecoTEC, serviced by Oscar every April.")]


def test_notion_export_folder() -> None:
    recs, rep = _notes(NOTES / "notion_parts")
    assert [(r.thread, r.content) for r in recs] == NOTION_PAGES and rep.warnings == []


def test_notion_export_zipped_in_a_zip(tmp_path: Path) -> None:
    """Notion's 2024 download: ``Export-<id>.zip`` holding ``Export-<id>-Part-1.zip`` holding the pages."""
    src = NOTES / "notion_parts"
    inner = _zip(tmp_path / "inner.zip", {p.relative_to(src).as_posix(): p.read_bytes()
                                          for p in sorted(src.rglob("*")) if p.is_file()})
    path = _zip(tmp_path / "Export-7f3e2d1c.zip", {"Export-7f3e2d1c-Part-1.zip": inner.read_bytes()})
    recs, rep = _notes(path)
    assert [(r.thread, r.content) for r in recs] == NOTION_PAGES and rep.warnings == []


def test_every_unseen9_notes_fixture_has_a_case() -> None:
    assert sorted(p.name for p in NOTES.iterdir()) == sorted([*NOTE_CASES, "notion_parts"])


# --- bad input in the new layouts: no traceback, nothing lost that can be read ---------------------------


def test_odd_drawers_blocks_and_drawings_are_kept_or_skipped_whole(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    # a drawer never closed may be someone's text: kept as written; a block never closed keeps its words
    (folder / "Open.md").write_text(":PROPERTIES:\n:ID: x\nStill writing this\n- #+BEGIN_QUOTE\n  cut here\n",
                                    encoding="utf-8")
    # a drawing of no Text Elements says nothing; an Org keyword with nothing after it is an empty Org note
    (folder / "Empty.excalidraw.md").write_text("---\nexcalidraw-plugin: parsed\n---\n# Excalidraw Data\n## Drawing\n"
                                                "```json\n{}\n```\n", encoding="utf-8")
    (folder / "Bare.md").write_text("#+title:\n", encoding="utf-8")
    recs, rep = _notes(folder)
    assert [(r.thread, r.content) for r in recs] == [
        ("Open.md", "Open: :PROPERTIES:\n:ID: x\nStill writing this\n- cut here")]
    assert rep.warnings == []


def test_a_dendron_note_that_is_not_utf8_is_read_with_a_warning(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "dendron.yml").write_text("version: 5\n", encoding="utf-8")
    (vault / "home.md").write_bytes("---\nid: a\ntitle: Casa\n---\n\nCaf\xe9 downstairs.\n".encode("latin-1"))
    (vault / "home.kitchen.md").write_text("---\nid: b\ntitle: Kitchen\n---\n\nNew oven.\n", encoding="utf-8")
    recs, rep = _notes(vault)
    assert [r.content for r in recs] == ["Casa > Kitchen: New oven.", "Casa: Café downstairs."]
    assert len(rep.warnings) == 1 and "home.md" in rep.warnings[0] and "Windows-1252" in rep.warnings[0]


def test_odd_task_and_edit_calls_are_tool_calls(tmp_path: Path) -> None:
    conv = json.loads((CLAUDE / "str_replace" / "conversations.json").read_text(encoding="utf-8"))
    edit = conv[0]["chat_messages"][3]["content"][0]
    edit["input"] = {"path": "/mnt/user-data/outputs/garden.md", "old_str": None, "new_str": 5}
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "claude")
    recs = list(claude.parse(tmp_path, rep))
    assert "- basil: windowsill\n- water: every 2 days" in recs[3].content and rep.warnings == []


def test_empty_reach_fields_say_nothing(tmp_path: Path) -> None:
    path = tmp_path / "c.vcf"
    path.write_text("BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL:+351 912 000 000\nIMPP:\nX-SOCIALPROFILE;type=x:\nURL:\n"
                    "X-MS-SPOUSE:\nX-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;;1;\nEND:VCARD\n",
                    encoding="utf-8")
    rep = ImportReport(str(path), "vcf")
    assert [r.content for r in vcf.parse(path, rep)] == ["Contact: Ana — phone +351 912 000 000"]
    assert rep.warnings == []


@pytest.mark.parametrize(("path", "added"), [(GPT / "tasks", 10), (NOTES / "dendron", 3), (CLAUDE / "str_replace", 6),
                                             (VCF / "ios_social_impp.vcf", 1)])
def test_the_cli_imports_the_new_layouts_once(path: Path, added: int, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(path)))
    assert out["ok"] and out["data"]["memories_added"] == added, out
    assert _envelope(run_cli("--db", str(db), "import", str(path)))["data"]["memories_added"] == 0


def test_a_nested_notion_page_keeps_its_title_before_its_headings(tmp_path: Path) -> None:
    """A nested Notion page's own "# Title" heads its headings ("Home > Boiler > 2024"), as Dendron's titles now
    do: pinned (it passed on the session-start tree too; written after the Dendron fix)."""
    home = tmp_path / "Export" / "Home 0a1b2c3d4e5f40718293a4b5c6d7e8f9"
    home.mkdir(parents=True)
    (tmp_path / "Export" / "Home 0a1b2c3d4e5f40718293a4b5c6d7e8f9.md").write_text("# Home\n\nThe flat.\n",
                                                                                  encoding="utf-8")
    (home / "Boiler 1b2c3d4e5f6a41829304b5c6d7e8f9a0.md").write_text("# Boiler\n\nVaillant.\n\n## 2024\nService "
                                                                     "booked for April.\n", encoding="utf-8")
    recs, rep = _notes(tmp_path / "Export")
    assert [(r.thread, r.content) for r in recs] == [
        ("Home.md", "Home: The flat."), ("Home/Boiler.md", "Home > Boiler: Vaillant."),
        ("Home/Boiler.md", "Home > Boiler > 2024: Service booked for April.")]


def test_a_claude_edit_its_tool_refused_changes_nothing(tmp_path: Path) -> None:
    """Written after round 9's edit code: an applicable edit whose tool result is an error leaves the file."""
    conv = json.loads((CLAUDE / "str_replace" / "conversations.json").read_text(encoding="utf-8"))
    conv[0]["chat_messages"][3]["content"][1]["is_error"] = True  # the receipt of "every 2 days" -> "every 3 days"
    (tmp_path / "conversations.json").write_text(json.dumps(conv), encoding="utf-8")
    rep = ImportReport(str(tmp_path), "claude")
    recs = list(claude.parse(tmp_path, rep))
    assert "- basil: windowsill\n- water: every 2 days" in recs[3].content and rep.skipped_tool == 6


def test_an_untitled_group_chat_is_named_by_its_first_words(tmp_path: Path) -> None:
    convs = json.loads((GPT / "group_chat" / "conversations.json").read_text(encoding="utf-8"))
    convs[0]["title"] = None
    (tmp_path / "conversations.json").write_text(json.dumps(convs), encoding="utf-8")
    recs = list(chatgpt.parse(tmp_path, ImportReport(str(tmp_path), "chatgpt")))
    assert {r.metadata["title"] for r in recs} == {"Where should we stay in Lisbon for three nights?"}
