"""Round 23 of export layouts: what people have that mem still could not read (tests/fixtures/unseen23, written by
hand from what each exporter writes, before any parser of this round; nothing copied from a real export or from
../shared; see its README.md): Zoom's saved meeting chat (its two layouts), Snapchat's chat_history.json (My Data,
both layouts), Facebook's and Instagram's chats as web pages ("Download your information" in HTML), imessage-exporter's
HTML, Word documents (Google Docs' and Word's .docx) as notes, a WeChat MemoTrace CSV re-saved by Excel in GBK, and
an Element room exported without its member events (bare Matrix ids).

Decisions:

* times as the export says them: Zoom's clock times on the date of the meeting's folder ("2024-03-14 18.00.12 Topic
  ID"), wall time (naive), the day turning when a time goes back past midnight; a folder that no longer says the
  date: undated, with one warning. Snapchat writes UTC; Facebook's and Instagram's pages the viewer's wall time
  (naive); imessage-exporter the Mac's (naive);
* the owner is "me" only where the export marks a message as the owner's without naming them (Snapchat's older
  "Sent Saved Chat History"; WeChat's IsSender 1); a name the export writes for the owner ("Me" in Zoom and
  imessage-exporter, a username in Snapchat) stays as written;
* service lines (Zoom's reactions, Snapchat's STATUS* rows, Meta's "Liked a message" and renames, iMessage's
  announcements) are system; a message of a file only (a snap, a voice note, a sticker, a photo) media;
* a Word document is a note: its paragraphs as the Markdown they would be (Title and Heading styles as headings,
  list paragraphs as items, a table's rows as lines), its core properties' dates and author as front matter.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from importer_cli import (
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    counts,
    fuzzed_outcomes,
    notes,
    parsed,
    turns,
)

from importers import ImportFormatError
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen23"

# --- Zoom -------------------------------------------------------------------------------------------------------

ZM = FIX / "zoom"
ZM_SPRINT = ZM / "2024-03-14 18.00.12 Sprint review 84512345678" / "meeting_saved_chat.txt"
ZM_FAMILY = ZM / "2024-05-02 23.40.00 Reunião de família 81234567890" / "meeting_saved_chat.txt"
ZM_OLD = ZM / "2021-11-03 09.30.00 Vorlesung Statik 91234567890" / "meeting_saved_chat.txt"
ZM_UNDATED = ZM / "שיעור עברית" / "meeting_saved_chat.txt"
SPRINT = [("Ana Sousa: Hi all, the demo build is on staging now", "2024-03-14T18:01:12"),
          ("Bob Lee: Can you send me the staging link?", "2024-03-14T18:02:05"),
          ("Chen Wei: Agenda for the retro:\n1. demo feedback\n2. release date", "2024-03-14T18:03:10"),
          ("Me: https://staging.example.com/demo?build=412", "2024-03-14T18:04:00"),
          ("Ana Sousa: Release is Thursday 21 March, I'll send the notes", "2024-03-14T18:06:02")]
FAMILY = [("Helena Costa: Boa noite a todos! Conseguem ouvir-me?", "2024-05-02T23:41:05"),
          ("Rui Costa: O almoço de domingo é em casa da avó, às 13h", "2024-05-02T23:58:40"),
          ("Helena Costa: Eu levo o bolo de laranja", "2024-05-03T00:03:15"),  # past midnight: the next day
          ("Marta Costa: E eu levo o vinho verde 🍷", "2024-05-03T00:04:02")]
LECTURE = [("Lena Fischer: Guten Morgen! Sind die Folien schon hochgeladen?", "2021-11-03T09:31:05"),
           ("Jonas Weber: Ja, im Moodle unter Woche 3", "2021-11-03T09:31:40"),
           ("Prof. Dr. Maria Schulz: Die Übung am Freitag fällt aus.\nBitte rechnen Sie Aufgabe 4 selbst.",
            "2021-11-03T09:33:12"),
           ("Lena Fischer: Danke!", "2021-11-03T09:35:00")]
HEBREW = [("נועה לוי: ערב טוב! השיעור הבא ביום שלישי", ""), ("דוד כהן: תודה רבה\nאני אביא את הספר", "")]


def test_zoom_saved_chat() -> None:
    recs, rep = parsed(ZM_SPRINT, "zoom")
    check_chat_shape(recs, "zoom")
    assert turns(recs) == SPRINT and {r.thread for r in recs} == {"Sprint review"}
    assert counts(rep) == (7, 2, 0)  # a reaction given and one taken back: system
    private = {r.content: (r.metadata.get("to"), r.metadata.get("private")) for r in recs}
    assert private["Bob Lee: Can you send me the staging link?"] == ("Me", True)
    assert private["Ana Sousa: Hi all, the demo build is on staging now"] == ("Everyone", None)
    assert recs[3].metadata.get("reply_to") == "Can you send me the s..."
    assert rep.warnings == []


def test_zoom_meeting_past_midnight_crlf() -> None:
    recs, rep = parsed(ZM_FAMILY, "zoom")
    assert turns(recs) == FAMILY and {r.thread for r in recs} == {"Reunião de família"}
    assert counts(rep) == (4, 0, 0) and rep.warnings == []


def test_zoom_old_layout() -> None:
    recs, rep = parsed(ZM_OLD, "zoom")
    assert turns(recs) == LECTURE and {r.thread for r in recs} == {"Vorlesung Statik"}
    assert recs[1].metadata.get("to") == "Lena Fischer" and recs[1].metadata.get("private") is True
    assert counts(rep) == (4, 0, 0) and rep.warnings == []


def test_zoom_folder_renamed_is_undated_with_one_warning() -> None:
    recs, rep = parsed(ZM_UNDATED, "zoom")
    assert turns(recs) == HEBREW and {r.thread for r in recs} == {"שיעור עברית"}
    assert [r.metadata.get("time") for r in recs] == ["19:00:31", "19:02:10"]
    assert len(rep.warnings) == 1 and "no date" in rep.warnings[0]


def test_zoom_folder_of_meetings() -> None:
    recs, _ = parsed(ZM, "zoom")
    assert turns(recs) == LECTURE + SPRINT + FAMILY + HEBREW


# --- Snapchat ---------------------------------------------------------------------------------------------------

SN = FIX / "snapchat"
SNAP_NEW = [("emma.r: are we still on for tonight?", "2024-03-14T18:05:00+00:00"),
            ("emma.r: Booked a table at Tasca do Chico\nfor 8pm", "2024-03-14T18:07:10+00:00"),
            ("ana.sousa: See you at 8 then 😊", "2024-03-14T18:09:30+00:00"),
            ("carla.v: ¡Ya tengo los forfaits! 45€ cada uno", "2024-02-02T21:08:31+00:00"),
            ("ana.sousa: ¿A qué hora salimos el sábado?", "2024-02-02T21:12:40+00:00"),
            ("leo_m: El autobús sale a las 7:00 desde Atocha", "2024-02-02T21:15:00+00:00")]
SNAP_OLD = [("haruto.k: 明日の花火大会、何時に集合する？", "2021-08-02T11:20:31+00:00"),
            ("me: 18時に渋谷駅でどう？", "2021-08-02T11:23:45+00:00"),
            ("haruto.k: 了解！駅の改札で待ってるね", "2021-08-02T11:25:02+00:00"),
            ("mei_chan: 浴衣を着ていく？", "2021-07-30T09:00:00+00:00"),
            ("me: うん、着ていくよ", "2021-07-30T09:05:12+00:00")]


@pytest.mark.parametrize("path", [SN / "mydata~1710450000000", SN / "mydata~1710450000000" / "json" / "chat_history.json",
                                  SN / "mydata~1710450000000.zip"], ids=["folder", "file", "zip"])
def test_snapchat_chat_history(path: Path) -> None:
    recs, rep = parsed(path, "snapchat")
    check_chat_shape(recs, "snapchat")
    assert turns(recs) == SNAP_NEW
    assert [r.thread for r in recs] == ["emma.r"] * 3 + ["Ski trip 🎿"] * 3  # a group by its title
    assert counts(rep) == (11, 2, 3)  # a screenshot and a member removed; a snap, a voice note, a sticker
    assert [bool(r.metadata.get("from_me")) for r in recs] == [False, False, True, False, True, False]
    assert rep.warnings == []


def test_snapchat_older_layout_sent_and_received() -> None:
    recs, rep = parsed(SN / "old" / "chat_history.json", "snapchat")
    check_chat_shape(recs, "snapchat")
    assert turns(recs) == SNAP_OLD
    assert [r.thread for r in recs] == ["haruto.k"] * 3 + ["mei_chan"] * 2
    assert counts(rep) == (6, 0, 1)


def test_snapchat_web_page_is_refused_saying_why(tmp_path: Path) -> None:
    assert_import_refused(SN / "html" / "chat_history.html", tmp_path, "Snapchat")
    with pytest.raises(ImportFormatError, match="JSON"):
        detect(SN / "html" / "chat_history.html")


# --- Facebook and Instagram as web pages ------------------------------------------------------------------------

FB_PAGE = FIX / "facebook-ana" / "your_activity_across_facebook" / "messages" / "inbox" / "julienmartin_10158" / "message_1.html"
IG = FIX / "instagram-ana.sousa-2024-04-10"
IG_PAGE = IG / "your_instagram_activity" / "messages" / "inbox" / "layla.h_17845" / "message_1.html"
JULIEN = [("Julien Martin: Check this out https://example.org/lea-party", "2024-03-15T19:58:31"),
          ("Ana Sousa: Julien, tu peux m'envoyer l'adresse de la fête ?", "2024-03-16T09:10:05"),
          ("Julien Martin: Et voilà le plan :\nrue des Lilas, n° 12\ncode 4B21", "2024-03-16T09:12:40"),
          ("Ana Sousa: Parfait, à samedi !", "2024-03-16T09:15:02")]
LAYLA = [("ana.sousa: كيف كانت المقابلة؟", "2024-04-02T21:58:00"),
         ("layla.h: حصلت على الوظيفة في دبي! أبدأ في الأول من مايو", "2024-04-02T22:01:00"),
         ("ana.sousa: مبروك 🎉", "2024-04-02T22:05:00")]  # written twice-encoded ("Ù…Ø¨Ø±ÙˆÙƒ"): read back
KASIA = [("ana.sousa: Książka jest u mnie, oddam ci ją w środę", "2024-04-04T17:00:00+00:00"),
         ("kasia.nowak: Dzięki! Do zobaczenia w środę", "2024-04-04T18:00:00+00:00")]


@pytest.mark.parametrize("path", [FB_PAGE, FIX / "facebook-ana", FIX / "facebook-ana-html.zip"],
                         ids=["page", "download", "zip"])
def test_facebook_messages_as_web_pages(path: Path) -> None:
    recs, rep = parsed(path, "messenger")
    check_chat_shape(recs, "messenger")
    assert turns(recs) == JULIEN and {r.thread for r in recs} == {"Julien Martin"}
    assert counts(rep) == (6, 1, 1)  # a rename; a photo
    assert recs[2].metadata.get("reactions") == [{"reaction": "❤️", "actor": "Ana Sousa"}]  # as its JSON writes them
    assert rep.warnings == []


def test_instagram_page_rtl_and_mojibake() -> None:
    recs, rep = parsed(IG_PAGE, "messenger")
    assert turns(recs) == LAYLA and {r.thread for r in recs} == {"layla.h"}
    assert counts(rep) == (4, 1, 0)  # "Liked a message"


def test_instagram_download_of_pages_and_json() -> None:
    recs, rep = parsed(IG, "messenger")
    assert turns(recs) == KASIA + LAYLA
    assert rep.variant["platform"] == "instagram"


# --- imessage-exporter's HTML -----------------------------------------------------------------------------------

IM = FIX / "imessage"
IM_ONE = [("+15551234567: Hey! Are you coming to the game on Saturday?", "2024-03-14T18:01:12"),
          ("Me: Yes! I got two tickets\nSection 112, row F", "2024-03-14T18:03:40"),
          ("+15551234567: Parking is $20 & cash only", "2024-03-14T18:07:15"),
          ("Me: Noted, I'll bring cash", "2024-03-14T18:08:01")]  # a reply, in its thread under the message
IM_GROUP = [("Inês Sousa: Quem leva a sobremesa no domingo?", "2024-04-06T11:20:03"),
            ("Pedro Sousa: Eu levo o arroz doce", "2024-04-06T11:21:30"),
            ("Me: Eu trago pão e queijo da serra\nE o vinho!", "2024-04-06T11:22:45")]


def test_imessage_exporter_html() -> None:
    recs, rep = parsed(IM / "+15551234567.html", "imessage")
    check_chat_shape(recs, "imessage")
    assert turns(recs) == IM_ONE and {r.thread for r in recs} == {"+15551234567"}
    assert counts(rep) == (6, 1, 1)  # a rename announced; a picture
    assert recs[1].metadata.get("tapbacks") == ["Loved by +15551234567"]
    assert rep.warnings == []


def test_imessage_exporter_html_group_and_folder() -> None:
    recs, _ = parsed(IM / "Inês Sousa, Pedro Sousa.html", "imessage")
    assert turns(recs) == IM_GROUP and {r.thread for r in recs} == {"Inês Sousa, Pedro Sousa"}
    recs, _ = parsed(IM, "imessage")
    assert turns(recs) == IM_ONE + IM_GROUP


# --- Word documents ---------------------------------------------------------------------------------------------

DOCS = FIX / "docs"
DOCX_AS_MARKDOWN = {
    "Lisbon trip": "---\ntitle: Lisbon trip\nauthor: Ana Sousa\ncreated: 2024-04-01T08:30:00Z\nmodified: "
                   "2024-04-20T17:45:12Z\n---\n# Lisbon trip, May 2024\n\n## Flights\n\nTAP TP1351 leaves Geneva 07:05 "
                   "on 10 May, back on 14 May at 19:40.\n\n## Where we stay\n\nCasa do Largo, Alfama — check-in after "
                   "15:00, the code comes by SMS.\n\n- Pack the adapter\n- Book the Sintra train\n\nDay | Plan\n"
                   "Saturday | Pastéis de Belém & the tram 28\n",
    "会议记录": "---\nauthor: 李娜\ncreated: 2024-03-18T02:00:00Z\nmodified: 2024-03-18T03:15:00Z\n---\n# 项目周会纪要\n\n"
                "时间：2024年3月18日 周一\n\n1. 新版本推迟到4月2日上线\n2. 王磊负责回归测试\n\n## 下一步\n\n李娜周三前把需求文档发给大家\n",
    "Reading list": "# Books for the summer\n\nPiranesi — Susanna Clarke\n\nThe Overstory — Richard Powers\n",
}


def _fields(recs: list) -> list[tuple]:
    return [(r.content, r.event_at, r.author, r.thread.rsplit(".", 1)[0], r.position, r.tags) for r in recs]


@pytest.mark.parametrize("name", sorted(DOCX_AS_MARKDOWN))
def test_word_document_reads_as_the_note_it_would_be_in_markdown(name: str, tmp_path: Path) -> None:
    """A .docx is read as the Markdown note its paragraphs make: the same records (words, dates, titles)."""
    recs, rep = notes(DOCS / f"{name}.docx")
    md = tmp_path / f"{name}.md"
    md.write_text(DOCX_AS_MARKDOWN[name], encoding="utf-8")
    want, _ = notes(md)
    assert recs and _fields(recs) == _fields(want)
    assert all(r.source == "markdown" for r in recs)
    assert rep.warnings == []


def test_word_documents_folder() -> None:
    recs, _ = notes(DOCS)
    assert {r.thread for r in recs} == {"Lisbon trip.docx", "Reading list.docx", "会议记录.docx"}
    assert any("TAP TP1351" in r.content for r in recs) and any("王磊负责回归测试" in r.content for r in recs)


# --- WeChat re-saved as GBK; Element without its member events ----------------------------------------------------

def test_wechat_csv_resaved_in_gbk() -> None:
    recs, rep = parsed(FIX / "wechat" / "聊天记录" / "妈妈" / "妈妈.csv", "wechat")
    assert turns(recs) == [("me: 妈，我周日回家吃饭", "2024-03-30T17:00:00+08:00"),
                           ("妈妈: 好啊，想吃红烧肉", "2024-03-30T17:02:00+08:00")]
    assert counts(rep) == (3, 0, 1)
    assert len(rep.warnings) == 1 and "GB" in rep.warnings[0]


def test_round22s_gbk_csv_once_refused_is_read() -> None:
    """unseen22's WeChat CSV in GBK, refused by round 22, is read now: Chinese words in GBK, one warning."""
    recs, rep = parsed(FIX.parent / "unseen22" / "bad" / "wechat_gbk.csv", "wechat")
    assert turns(recs) == [("王芳: 明天见", "2024-03-13T20:00:00+08:00")]
    assert len(rep.warnings) == 1 and rep.warnings[0].endswith("read as GBK (gb18030), as Excel saves a CSV again")


def test_element_export_without_member_events_shortens_ids() -> None:
    path = FIX / "matrix" / "matrix - Caminhadas 🥾 - Chat Export - 2024-04-08T09-00-00.000Z.json"
    recs, rep = parsed(path, "matrix")
    assert turns(recs) == [("kofi: Sábado vamos à Arrábida? Saída às 8h do Areeiro", "2024-04-06T10:00:00+00:00"),
                           ("ines: Conta comigo, levo o carro (4 lugares)", "2024-04-06T10:02:00+00:00"),
                           ("tomas.r: Eu também vou, com a Rita", "2024-04-06T10:05:00+00:00")]
    assert [r.metadata.get("sender_id") for r in recs] == ["@kofi:matrix.org", "@ines:matrix.org", "@tomas.r:tchncs.de"]
    assert counts(rep) == (4, 1, 0)


# --- through the CLI: detected, written, re-imported ------------------------------------------------------------

def test_cli_imports_each_new_layout_by_itself(tmp_path: Path) -> None:
    docx_records = len(notes(DOCS / "Lisbon trip.docx")[0])
    assert_imports_by_cli(tmp_path / "m.db", {
        ZM: ("zoom", 15), SN / "mydata~1710450000000.zip": ("snapchat", 6), FIX / "facebook-ana-html.zip": ("messenger", 4),
        IG: ("messenger", 5), IM: ("imessage", 7), DOCS / "Lisbon trip.docx": ("markdown", docx_records)})


# --- bad input: one line naming the file (and line or message and field), nothing written ------------------------

BAD = FIX / "bad"
BAD_CASES: dict[Path, str] = {
    BAD / "zoom_bad_time" / "2024-03-14 18.00.12 Standup 84512345670" / "meeting_saved_chat.txt": "is no time",
    BAD / "zoom_cut" / "2024-03-14 18.00.12 Standup 84512345671" / "meeting_saved_chat.txt": "no Zoom message header",
    BAD / "snap_bad_date": '"Created" is no date',
    BAD / "snap_cut": "truncated",
    BAD / "snap_not_list": "not a list",
    BAD / "fb_bad_time" / "messages" / "inbox" / "x_1" / "message_1.html": "is no date",
    BAD / "fb_cut" / "messages" / "inbox" / "x_2" / "message_1.html": "cut short",
    BAD / "imessage_bad_time.html": "is no date",
    BAD / "imessage_latin1.html": "not UTF-8",
    BAD / "docx_cut.docx": "malformed zip",
    BAD / "docx_bad_xml.docx": "word/document.xml",
    BAD / "wechat_gbk_bad_time" / "聊天记录": '"CreateTime" is no time',
}


@pytest.mark.parametrize("path", sorted(BAD_CASES), ids=lambda p: p.name if p.is_dir() or p.name != "meeting_saved_chat.txt"
                         else p.parent.parent.name)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(path: Path, tmp_path: Path) -> None:
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else []
    assert_import_refused(path, tmp_path, BAD_CASES[path], where=(path, *files))


def test_every_unseen23_fixture_has_a_case() -> None:
    covered = {ZM_SPRINT, ZM_FAMILY, ZM_OLD, ZM_UNDATED, SN / "mydata~1710450000000.zip", SN / "old" / "chat_history.json",
               SN / "html" / "chat_history.html", FB_PAGE, FIX / "facebook-ana-html.zip", IM / "+15551234567.html",
               IM / "Inês Sousa, Pedro Sousa.html", FIX / "wechat" / "聊天记录" / "妈妈" / "妈妈.csv", *BAD_CASES,
               *(DOCS / f"{n}.docx" for n in DOCX_AS_MARKDOWN)}
    covered |= {BAD / "matrix - Bad date - Chat Export - 2024-03-14T18-10-00.000Z.txt"}
    folders = [SN / "mydata~1710450000000", IG, FIX / "matrix", FIX / "element", *[p for p in BAD_CASES if p.is_dir()]]
    files = {p for p in FIX.rglob("*") if p.is_file() and p.name != "README.md"}
    left = {p for p in files if p not in covered and not any(f in p.parents for f in folders)}
    assert left == set()
    assert len(files) >= 30 and len(BAD_CASES) >= 8


FUZZED = sorted(p for p in FIX.rglob("*") if p.is_file() and "bad" not in p.relative_to(FIX).parts
                and p.suffix in (".txt", ".csv", ".json", ".html", ".docx", ".zip"))


@pytest.mark.parametrize("source", FUZZED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_damaged_fixture_is_read_or_refused_in_one_line(source: Path, tmp_path: Path) -> None:
    """Fuzzed: every cut or damaged copy of every fixture is read (damage inside words is words) or refused with one
    line naming the file; no other exception, no hang. The copy keeps its name and its folders' names (a Zoom
    meeting's date, a Meta chat's place are told by them)."""
    read, refused = fuzzed_outcomes(source, tmp_path, seed=FUZZED.index(source),
                                    keep=min(5, len(source.relative_to(FIX).parts)))
    assert read + refused == 16


# --- beyond the held-out (written after the parsers) ---------------------------------------------------------------

def test_metas_other_pages_stay_notes(tmp_path: Path) -> None:
    """Meta's download writes the owner's posts in the same blocks as its chats: a page not named message_N.html is
    still read as a note (as before round 23), never as a chat."""
    page = tmp_path / "your_posts_1.html"
    page.write_text('<html><head><meta charset="utf-8" /><title>Your posts</title></head><body><div role="main">'
                    '<div class="pam _3-95 _2ph- _a6-g uiBoxWhite noborder"><div class="_a6-h">Ana Sousa updated her '
                    'status.</div><div class="_a6-p"><div>Finally finished the Camino de Santiago!</div></div>'
                    '<div class="_a6-o">Jun 02, 2023 7:15:00 pm</div></div></div></body></html>\n', encoding="utf-8")
    recs, _ = notes(page)
    assert [r.source for r in recs] == ["markdown"] and "Camino de Santiago" in recs[0].content


# --- Element's plain-text export (held-out, written before its reader: read as a WhatsApp chat until then) ----------

EL = FIX / "element"
ALFAMA = [("Ana Sousa: Olá a todos! A obra começa segunda-feira às 8h", "2024-03-14T18:02:05"),
          ("Rui Costa: Perfeito, eu levo as chaves do armazém", "2024-03-14T18:03:00"),
          ("Ana Sousa: Lista do material:\n- 20 sacos de cimento\n- tinta branca", "2024-03-14T18:06:40")]
PLATFORM = [("Priya Nair: Standup moved to 10:30 today", "2024-04-02T09:15:03"),
            ("Tom Becker: thanks, I will dial in from the train", "2024-04-02T09:16:44"),
            ("Priya Nair: Release notes are in the shared drive", "2024-04-02T13:05:09")]


def test_element_text_export_is_a_matrix_room() -> None:
    """Element's "Export chat" as plain text: the browser's locale writes the dates (en-GB here), the room is the file
    name's; a reply's "<Name "quote…">" goes to metadata; joins, the room's creation, an emote and an image are left
    out (the text says no more of them than a line)."""
    recs, rep = parsed(EL / "matrix - Obra Alfama - Chat Export - 2024-03-14T18-10-00.000Z.txt", "matrix")
    check_chat_shape(recs, "matrix")
    assert turns(recs) == ALFAMA and {r.thread for r in recs} == {"Obra Alfama"}
    assert (recs[1].metadata.get("reply_to"), recs[1].metadata.get("quote")) == ("Ana Sousa", "Olá a todos! A obra começa...")
    assert counts(rep)[0] == 7 and rep.warnings == []


def test_element_text_export_us_locale_and_the_same_refs_from_a_later_export(tmp_path: Path) -> None:
    path = EL / "matrix - Platform team - Chat Export - 2024-04-02T13-10-00.000Z.txt"
    recs, _ = parsed(path, "matrix")
    assert turns(recs) == PLATFORM and {r.thread for r in recs} == {"Platform team"}
    later = tmp_path / "matrix - Platform team - Chat Export - 2024-05-01T08-00-00.000Z.txt"
    later.write_bytes(path.read_bytes())
    assert [r.ref for r in parsed(later, "matrix")[0]] == [r.ref for r in recs]  # a later export: the same memories


def test_element_text_export_bad_date_is_refused(tmp_path: Path) -> None:
    assert_import_refused(BAD / "matrix - Bad date - Chat Export - 2024-03-14T18-10-00.000Z.txt", tmp_path, ":2:")


def test_a_folder_of_element_text_exports(tmp_path: Path) -> None:
    """(Written after the reader.) A folder of Element's text exports imports each room."""
    recs, _ = parsed(EL, "matrix")
    assert turns(recs) == ALFAMA + PLATFORM


def test_word_text_box_inside_a_paragraph_keeps_both(tmp_path: Path) -> None:
    """(Written after the reader.) A text box's paragraph stands inside another: both keep their words."""
    from importers import docx

    body = ('<w:p><w:r><w:t>Before the box. </w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>Boxed words</w:t>'
            '</w:r></w:p></w:txbxContent></w:pict></w:r><w:r><w:t>After the box.</w:t></w:r></w:p>')
    path = tmp_path / "box.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
                    f'wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>')
    assert docx.markdown(path) == "Boxed words\n\nBefore the box. After the box.\n"
