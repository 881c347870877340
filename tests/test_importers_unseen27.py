"""Round 27 of export layouts (held-out tests/fixtures/unseen27, written by hand from what each exporter writes,
before any parser of this round; nothing copied from a real export or from ../shared; see its README.md): WeChat
chats as MemoTrace (WeChatMsg) writes them as web pages, Rocket.Chat's "Export my data" in HTML, Character.AI chats
(its chat API's turns, and the older history API's messages as the CAI Tools extension saves them), Microsoft
Copilot's activity history (the privacy dashboard's CSV) and Perplexity threads exported as Markdown.

Decisions:

* times as the export says them: MemoTrace's epoch seconds and Rocket.Chat's GMT dates in UTC, Character.AI's and
  Copilot's ISO times with their offset; the older Character.AI history and Perplexity's Markdown say no time: the
  records are undated (no time is made up);
* the owner is marked only where the export marks them: MemoTrace's ``is_send``, Character.AI's ``is_human``,
  Copilot's "User", Perplexity's questions (``from_me``); Rocket.Chat marks no one;
* speakers as the export names them: MemoTrace's display names, Rocket.Chat's usernames, Character.AI's names (the
  person's own name too), "User" and "Copilot", "User" and "Perplexity";
* left out and counted: service lines (system: WeChat's recalls and joins, Rocket.Chat's "Has joined the channel.",
  a Character.AI turn the user deleted), files without words (media: a WeChat photo, sticker, video or file, a
  Rocket.Chat attachment alone, a Character.AI image alone); a WeChat voice message with its transcript is read as
  its words; of a Character.AI answer regenerated, the candidate shown (``primary_candidate_id``) is read;
* Perplexity's footnote markers ``[^1_1]`` and its "⁂" are no words: the sources go to ``metadata["sources"]``;
* chat names: the page's file name (WeChat, Rocket.Chat), the character's name (Character.AI), Copilot's
  conversation, Perplexity's first question.
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

FIX = Path(__file__).parent / "fixtures" / "unseen27"
BAD = FIX / "bad"

# --- WeChat: MemoTrace's web page ---------------------------------------------------------------------------------

LI = [
    ("李娜: 明天几点出发？我想先去买点水果。", "2024-04-02T11:30:12+00:00"),
    ("张伟: 八点半吧，<地铁站>门口见 & 别迟到", "2024-04-02T11:31:10+00:00"),
    ("李娜: 好的，我带两瓶水。\n还有伞", "2024-04-02T11:33:20+00:00"),
    ("张伟: 天气预报说下午有雨", "2024-04-02T11:35:00+00:00"),
    ("李娜: It's fine, see you tomorrow \\o/", "2024-04-02T11:37:00+00:00"),
]
GROUP = [
    ("陈静: 周六去香山，早上七点在北宫门集合。", "2024-04-27T01:00:00+00:00"),
    ("王强: 收到！我开车，可以带三个人。", "2024-04-27T01:02:00+00:00"),
    ("张伟: 算我一个 🙋", "2024-04-27T01:03:00+00:00"),
]


def test_wechat_memotrace_page() -> None:
    recs, rep = parsed(FIX / "wechat" / "聊天记录" / "李娜" / "李娜.html", "wechat")
    check_chat_shape(recs, "wechat")
    assert turns(recs) == LI
    assert {r.thread for r in recs} == {"李娜"}
    assert [bool(r.metadata.get("from_me")) for r in recs] == [False, True, False, True, False]
    assert recs[2].metadata.get("quote") == "张伟: 八点半吧"
    assert recs[3].metadata.get("voice") is True  # a voice message read as its transcript
    assert counts(rep) == (8, 1, 2) and rep.warnings == []  # a recall: system; a photo and a file: media


def test_wechat_memotrace_group_page() -> None:
    recs, rep = parsed(FIX / "wechat" / "聊天记录" / "周末爬山群" / "周末爬山群.html", "wechat")
    assert turns(recs) == GROUP
    assert [bool(r.metadata.get("from_me")) for r in recs] == [False, False, True]
    assert counts(rep) == (5, 1, 1)  # an invitation: system; a sticker: media


def test_wechat_memotrace_folder_of_pages() -> None:
    recs, rep = parsed(FIX / "wechat", "wechat")
    assert sorted(turns(recs)) == sorted(LI + GROUP) and counts(rep) == (13, 2, 3)


def test_wechat_page_of_json_messages() -> None:
    recs, rep = parsed(FIX / "wechat-json" / "Emily Chen.html", "wechat")
    assert turns(recs) == [("Zhang Wei: Are we still on for dinner on Friday?", "2024-06-07T11:00:00+00:00"),
                           ("Emily Chen: Yes! 7pm at the dumpling place on Nanjing Road.", "2024-06-07T11:02:05+00:00")]
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False]
    assert {r.thread for r in recs} == {"Emily Chen"} and counts(rep) == (3, 0, 1)


# --- Rocket.Chat's export in HTML ------------------------------------------------------------------------------------

RC_GENERAL = [
    ("ana.sousa: Bom dia! A reunião de planeamento passa para quinta às 10h.", "2024-05-02T09:00:00+00:00"),
    ("rui.costa: Combinado, levo o orçamento revisto.\nE os números de abril.", "2024-05-02T09:03:27+00:00"),
    ("tom.baker: Great, I'll book the big room & the projector.", "2024-05-02T09:10:00+00:00"),
    ("ana.sousa: Here is the agenda", "2024-05-02T09:12:30+00:00"),
]
RC_DM = [
    ("piotr.nowak: Ana, czy możesz przesłać mi fakturę do piątku?", "2024-05-06T12:00:00+00:00"),
    ("ana.sousa: Jasne, wyślę ją jutro rano.", "2024-05-06T12:04:10+00:00"),
]


def test_rocketchat_html_room() -> None:
    recs, rep = parsed(FIX / "rocketchat-html" / "general.html", "rocketchat")
    check_chat_shape(recs, "rocketchat")
    assert turns(recs) == RC_GENERAL
    assert {r.thread for r in recs} == {"general"}
    assert recs[3].metadata.get("attachments") == ["agenda.docx"]
    assert not any(r.metadata.get("from_me") for r in recs)
    assert counts(rep) == (6, 1, 1)  # joined: system; orcamento-v2.pdf alone: media


def test_rocketchat_html_folder() -> None:
    recs, rep = parsed(FIX / "rocketchat-html", "rocketchat")
    assert turns(recs) == RC_GENERAL + RC_DM
    assert [r.thread for r in recs] == ["general"] * 4 + ["piotr.nowak"] * 2 and counts(rep) == (8, 1, 1)


def test_rocketchat_html_zip() -> None:
    recs, rep = parsed(FIX / "rocketchat-html-export" / "7c0e5d21aa.zip", "rocketchat")
    assert turns(recs) == [
        ("lucia.garcia: ¿Alguien sabe si el viernes hay comida de equipo?", "2024-06-14T10:00:00+00:00"),
        ("ana.sousa: Sí, a las 14:00 en el italiano de la esquina.", "2024-06-14T10:01:45+00:00")]
    assert {r.thread for r in recs} == {"random"} and counts(rep) == (3, 1, 0)


# --- Character.AI -------------------------------------------------------------------------------------------------


def test_characterai_chat_turns() -> None:
    recs, rep = parsed(FIX / "characterai" / "sherlock-holmes.json", "characterai")
    check_chat_shape(recs, "characterai")
    assert turns(recs) == [
        ("Sherlock Holmes: *looks up from his violin* Yes?", "2024-09-10T20:00:00+00:00"),
        ("maria_k: Mr Holmes, a man left a parcel at my door.", "2024-09-10T20:01:00+00:00"),
        ("Sherlock Holmes: You see, but you do not observe, Maria.", "2024-09-10T20:01:30+00:00"),
        ("maria_k: But how did you know he was a clerk?", "2024-09-10T20:02:55+00:00"),
        ("Sherlock Holmes: Elementary. Look at the ink on his cuff.", "2024-09-10T20:03:10.123456+00:00"),
    ]
    assert [bool(r.metadata.get("from_me")) for r in recs] == [False, True, False, True, False]
    assert {r.thread for r in recs} == {"Sherlock Holmes"}
    assert "I deleted this" not in "".join(r.content for r in recs)
    assert counts(rep) == (6, 1, 0)  # the turn the user deleted: system


def test_characterai_older_history() -> None:
    recs, rep = parsed(FIX / "characterai-histories" / "Japanese Tutor.json", "characterai")
    check_chat_shape(recs, "characterai")
    assert turns(recs) == [
        ("Japanese Tutor: Konnichiwa! Watashi wa Sensei desu. What shall we study today?", ""),
        ("kenji.o: How do I say 'I am hungry'?", ""),
        ("Japanese Tutor: お腹が空きました (Onaka ga sukimashita).", ""),
    ]  # this history says no time: none is made up
    assert [bool(r.metadata.get("from_me")) for r in recs] == [False, True, False]
    assert {r.thread for r in recs} == {"Japanese Tutor"} and counts(rep) == (4, 0, 1)


# --- Microsoft Copilot ----------------------------------------------------------------------------------------------


def test_copilot_activity_history_csv() -> None:
    recs, rep = parsed(FIX / "copilot" / "Copilot Activity History.csv", "copilot")
    check_chat_shape(recs, "copilot")
    assert turns(recs) == [
        ("User: What should I see in Porto in one day?", "2024-11-03T10:15:02+00:00"),
        ("Copilot: Start at the Ribeira, cross the Dom Luís I bridge, and end at the Serra do Pilar at sunset.",
         "2024-11-03T10:15:09+00:00"),
        ("User: Is the Livraria Lello worth the queue?", "2024-11-03T10:16:40+00:00"),
        ("Copilot: Go at opening time (9:00); the ticket is deducted from a book you buy.", "2024-11-03T10:16:48+00:00"),
        ("User: Formuliere meinen Lebenslauf-Einstieg kürzer.", "2024-11-05T18:00:00+00:00"),
        ("Copilot: Gern:\n\n„Produktmanagerin mit acht Jahren Erfahrung in Logistik.“", "2024-11-05T18:00:06+00:00"),
    ]
    assert [r.thread for r in recs] == ["Trip to Porto"] * 4 + ["Lebenslauf"] * 2
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False] * 3
    assert counts(rep) == (6, 0, 0) and rep.warnings == []


def test_copilot_export_zip() -> None:
    recs, rep = parsed(FIX / "copilot-export" / "Export_2024-11-20.zip", "copilot")
    assert turns(recs) == [("User: Une soupe rapide avec des poireaux ?", "2024-11-20T08:00:00+01:00"),
                           ("Copilot: Poireaux, pommes de terre, bouillon : 25 minutes, puis mixez.",
                            "2024-11-20T08:00:05+01:00")]
    assert {r.thread for r in recs} == {"Soupe"} and counts(rep) == (2, 0, 0)


# --- Perplexity ---------------------------------------------------------------------------------------------------

KYOTO = [
    ("User: What is the best time to visit Kyoto?", ""),
    ("Perplexity: The best times are spring (late March to early April) for the cherry blossoms and autumn (November) "
     "for the maples.\n\n- **Spring**: mild, crowded.\n- **Autumn**: cool, crowded.", ""),
    ("User: And how crowded is it then?", ""),
    ("Perplexity: Very crowded at the famous temples: go early in the morning.", ""),
]
PAO = [
    ("User: Qual a melhor forma de conservar pão caseiro?", ""),
    ("Perplexity: Embrulhe-o num pano de algodão e guarde-o à temperatura ambiente; para mais de três dias, "
     "congele-o fatiado.", ""),
]


def test_perplexity_thread_markdown() -> None:
    recs, rep = parsed(FIX / "perplexity" / "what-is-the-best-time-to-visit-kyoto.md", "perplexity")
    check_chat_shape(recs, "perplexity")
    assert turns(recs) == KYOTO
    assert {r.thread for r in recs} == {"What is the best time to visit Kyoto?"}
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False, True, False]
    assert recs[1].metadata.get("sources") == ["https://www.japan-guide.com/e/e2158.html",
                                               "https://www.insidekyoto.com/best-time-to-visit-kyoto"]
    assert recs[3].metadata.get("sources") == ["https://www.japan-guide.com/e/e2158_crowds.html"]
    assert counts(rep) == (4, 0, 0)


def test_perplexity_folder_of_threads() -> None:
    recs, rep = parsed(FIX / "perplexity", "perplexity")
    assert turns(recs) == PAO + KYOTO and counts(rep) == (6, 0, 0)


# --- through the CLI: detected, imported once, idempotent --------------------------------------------------------------


def test_each_layout_imports_by_cli(tmp_path: Path) -> None:
    assert_imports_by_cli(tmp_path / "m.db", {
        FIX / "wechat": ("wechat", 8),
        FIX / "wechat-json" / "Emily Chen.html": ("wechat", 2),
        FIX / "rocketchat-html": ("rocketchat", 6),
        FIX / "rocketchat-html-export" / "7c0e5d21aa.zip": ("rocketchat", 2),
        FIX / "characterai" / "sherlock-holmes.json": ("characterai", 5),
        FIX / "characterai-histories" / "Japanese Tutor.json": ("characterai", 3),
        FIX / "copilot" / "Copilot Activity History.csv": ("copilot", 6),
        FIX / "copilot-export" / "Export_2024-11-20.zip": ("copilot", 2),
        FIX / "perplexity": ("perplexity", 6),
    })


# --- damaged: one line naming the file (and the line or field), nothing written ---------------------------------------


@pytest.mark.parametrize(("rel", "message"), [
    ("characterai_cut/sherlock-holmes.json", "invalid or truncated JSON"),
    ("characterai_turns_not_list/chat.json", '"turns" is not a list'),
    ("characterai_no_turns/chat.json", "no message"),
    ("copilot_bad_time/Copilot Activity History.csv", 'Copilot Activity History.csv:3: "Time" is no date'),
    ("copilot_header_only/Copilot Activity History.csv", "no message"),
    ("copilot_cut/Copilot Activity History.csv", "inside a quoted field"),
    ("wechat_cut/李娜.html", "ends inside"),
    ("wechat_gbk/王芳.html", "not UTF-8"),
    ("rocketchat_bad_date/general.html", 'general.html:5: "Thu, 32 Mai 2024 09:03:27 GMT" is no date'),
    ("rocketchat_empty/general.html", "empty file"),
    ("perplexity_cp1252/o-que-e-um-pastel-de-nata.md", "not UTF-8"),
    ("rocketchat_html_cut.zip", "malformed zip archive"),
])
def test_damaged_exports_are_refused_in_one_line(rel: str, message: str, tmp_path: Path) -> None:
    assert_import_refused(BAD / rel, tmp_path, message)


@pytest.mark.parametrize(("rel", "keep"), [
    ("wechat/聊天记录/李娜/李娜.html", 1),
    ("rocketchat-html/general.html", 1),
    ("characterai/sherlock-holmes.json", 1),
    ("copilot/Copilot Activity History.csv", 1),
    ("perplexity/what-is-the-best-time-to-visit-kyoto.md", 1),
])
def test_fuzzed_copies_are_read_or_refused_in_one_line(rel: str, keep: int, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=27, keep=keep)
    assert read + refused == 16 and read >= 1  # every case one or the other; no other exception


# --- VK (VKontakte)'s data archive: written after the first five layouts were built, before any VK reader (held-out
# for it). Pages in Windows-1251, messages/<peer>/messages<N>.html, the newest page and message first; "Вы" is the
# owner; the times are the wall time the archive writes (no zone said: kept naive) -------------------------------------

VK_IVAN = [
    ("Вы: Привет! Когда увидимся?", "2024-03-12T21:30:45"),
    ("Иван Петров: Давай в субботу в кафе «Пушкин» в 19:00.", "2024-03-12T21:35:10"),
    ("Вы: Отлично, до встречи!", "2024-03-12T21:40:00"),
    ("Иван Петров: Посмотри маршрут", "2024-03-14T09:15:02"),
    ("Вы: В 8 утра, я заеду за тобой.\nВозьми зонт.", "2024-03-14T09:15:40"),
]
VK_GROUP = [
    ("Сергей Ким: Билеты купил, вылет 10 мая.", "2024-04-02T23:59:59"),
    ("Вы: Кто берёт палатку?", "2024-04-03T20:01:10"),
    ("Ольга Смирнова: Я возьму горелку и котелок & чай", "2024-04-03T20:05:00"),
]


def test_vk_archive_folder() -> None:
    recs, rep = parsed(FIX / "vk" / "Archive", "vk")
    check_chat_shape(recs, "vk")
    assert turns(recs) == VK_IVAN + VK_GROUP
    assert [r.thread for r in recs] == ["Иван Петров"] * 5 + ["Поход на Эльбрус"] * 3
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False, True, False, True, False, True, False]
    assert [r.metadata.get("edited") for r in recs][4] is True  # "(ред.)": edited, no word of the message
    assert recs[3].metadata.get("attachments") == ["Ссылка"]
    assert counts(rep) == (9, 0, 1)  # a photo alone: media


def test_vk_one_page() -> None:
    recs, rep = parsed(FIX / "vk" / "Archive" / "messages" / "2000000001" / "messages0.html", "vk")
    assert turns(recs) == VK_GROUP and counts(rep) == (3, 0, 0)


def test_vk_archive_zip() -> None:
    recs, rep = parsed(FIX / "vk-zip" / "Archive.zip", "vk")
    assert turns(recs) == [("Вы: Which platform?", "2024-05-05T11:58:00"),
                           ("Anna Ivanova: See you at the station at noon.", "2024-05-05T12:00:05")]
    assert {r.thread for r in recs} == {"Anna Ivanova"} and counts(rep) == (2, 0, 0)


def test_vk_imports_by_cli(tmp_path: Path) -> None:
    assert_imports_by_cli(tmp_path / "m.db", {FIX / "vk" / "Archive": ("vk", 8), FIX / "vk-zip" / "Archive.zip": ("vk", 2)})


@pytest.mark.parametrize(("rel", "message"), [
    ("vk_cut/messages/123456789/messages0.html", "cut"),
    ("vk_bad_date/messages/123456789/messages0.html", '"32 мар 2024 в 21:30:45" is no date'),
])
def test_vk_damaged_pages_are_refused_in_one_line(rel: str, message: str, tmp_path: Path) -> None:
    assert_import_refused(BAD / rel, tmp_path, message)


def test_vk_fuzzed_pages_are_read_or_refused_in_one_line(tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / "vk" / "Archive" / "messages" / "123456789" / "messages0.html", tmp_path,
                                    seed=27, keep=3)
    assert read + refused == 16 and read >= 1


# --- written after the parsers (not held-out): the survey's finding, and other forms the readers take ------------------


def test_deepseek_forced_as_chatgpt_says_nothing_was_imported() -> None:
    from importers import ImportReport
    from importers.registry import PARSERS

    path = FIX.parent / "unseen26" / "deepseek" / "conversations.json"
    rep = ImportReport(str(path), "chatgpt")
    assert list(PARSERS["chatgpt"].parse(path, rep)) == []
    assert rep.messages_seen == rep.skipped_empty == 8  # (DeepSeek keeps its words where ChatGPT's reader finds none)
    assert rep.warnings == [f"{path}: 8 messages read as chatgpt's, none with words: nothing imported (if this is not "
                            "a chatgpt export, import it without naming its format)"]


def test_perplexity_forced_on_a_note_is_refused(tmp_path: Path) -> None:
    from importers import ImportFormatError, ImportReport
    from importers.registry import PARSERS

    note = tmp_path / "note.md"
    note.write_text("# Boiler\n\nService in May.\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match="no Perplexity logo"):
        list(PARSERS["perplexity"].parse(note, ImportReport(str(note), "perplexity")))


def test_copilot_columns_found_by_meaning(tmp_path: Path) -> None:
    path = tmp_path / "copilot-history.csv"
    path.write_text("Role,Content,Title,Timestamp\r\nhuman,Oi,Saudação,2024-12-01T10:00:00-03:00\r\n"
                    "AI,Olá! Como posso ajudar?,Saudação,2024-12-01T10:00:02-03:00\r\n", encoding="utf-8")
    recs, rep = parsed(path, "copilot")
    assert turns(recs) == [("User: Oi", "2024-12-01T10:00:00-03:00"),
                           ("Copilot: Olá! Como posso ajudar?", "2024-12-01T10:00:02-03:00")]
    assert {r.thread for r in recs} == {"Saudação"} and counts(rep) == (2, 0, 0)


def test_rocketchat_html_image_attachment(tmp_path: Path) -> None:
    path = tmp_path / "general.html"
    path.write_text('<meta http-equiv="content-type" content="text/html; charset=utf-8"><p><strong>ana</strong> '
                    '(Thu, 02 May 2024 09:00:00 GMT):<br/>\nlook\n<img src="./assets/ab12-cat.png"/><br/>'
                    '<a href="./assets/ab12-cat.png">my cat</a></p>', encoding="utf-8")
    recs, _ = parsed(path, "rocketchat")
    assert [(r.content, r.metadata.get("attachments")) for r in recs] == [("ana: look", ["my cat"])]
