"""Round 20 of export layouts: the chat apps mem refused until now (tests/fixtures/unseen20, written by hand from
the fields each app's exporter documents, before any parser of this round; nothing copied from a real export or
from ../shared; see its README.md):

* Telegram Desktop: a single chat's result.json (text as a string or a list of entities, a reply, an edit, a
  forward, a photo with and without a caption, a sticker, a poll, a location, a call and a pin), a full export
  ("chats": {"list": [...]}: saved messages, a supergroup with joins and a deleted account, a channel, a left
  chat), an export of 2019 (no date_unixtime, no text_entities), its web pages (messages.html, messages2.html:
  "joined" messages whose author is on the page before, a forward, a reply, service lines), an older page with no
  UTC offset;
* Slack: a workspace export (users.json, channels.json, groups.json, dms.json, mpims.json, a folder of days per
  conversation: <@U..> mentions, <#C..|name>, links, <!here>, <!date^..|..>, a user group, a thread, a bot, a join,
  a topic change, an edit, a file), the same zipped, a channel's folder alone;
* Discord (DiscordChatExporter): JSON of a guild channel and of a DM (joins, a reply, a pin, a call, a bot,
  attachments, embeds, reactions, an edit; times with an offset), its CSV, its plain text;
* Facebook Messenger and Instagram (Download your information): message_1.json, message_2.json (newest first,
  Facebook's mojibake, reactions, a photo, an unsent message, a call, a group join, a shared link), Messenger's
  end-to-end encrypted chats (camelCase, plain UTF-8);
* iMessage (imessage-exporter's text): a 1:1 chat (an attachment, tapbacks) and a group (a rename, a reply).

Records are chat turns as WhatsApp's are: ``Author: text``, the author, the time (aware where the export says
the zone), the chat as thread. Service lines (joins, pins, calls, renames, unsent) are counted as system and left
out; a message of media only is counted as media and left out, as WhatsApp's are. Decisions are written beside
their cases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from importer_cli import (
    assert_broken_import_fails,
    assert_import_refused,
    assert_imports_by_cli,
    check_chat_shape,
    counts,
    parsed,
    turns,
    write_zip,
)
from importer_cli import one_envelope as _envelope

from importers import ImportFormatError, ImportReport, Record
from importers.detect import detect

FIX = Path(__file__).parent / "fixtures" / "unseen20"


# --- Telegram -------------------------------------------------------------------------------------------

TG = FIX / "telegram"

# Decision: Telegram's "date" is the exporting computer's local time; date_unixtime (since 2022) says the instant,
# so the time is kept with the offset the two together give (Lisbon: +00:00 until the clocks changed on
# 31 March 2024, +01:00 after). An export without date_unixtime keeps the local time, unzoned.
PERSONAL = [
    ("Ana Sousa: Amanhã mudamos a hora, não te esqueças! 🕐", "2024-03-30T21:15:00+00:00"),
    ("Rui Costa: Obrigado! Vou ver o https://www.timeanddate.com/time/change/portugal para confirmar",
     "2024-03-30T21:16:40+00:00"),
    ("Ana Sousa: Lembra-te: o jantar na Tasca do Chico é às 20h", "2024-03-31T10:02:00+01:00"),
    ("Ana Sousa: A vista do miradouro de Santa Luzia", "2024-03-31T10:12:45+01:00"),  # a photo's caption
    ("Ana Sousa: Metro de Lisboa fecha a Linha Verde no domingo de manhã", "2024-03-31T11:30:00+01:00"),
    # a text_link entity: its words, then where it points
    ("Rui Costa: A reserva (https://tascadochico.pt/r/8842) está feita para 4 pessoas", "2024-03-31T12:00:00+01:00"),
    # Decision: a poll is what was asked and the choices (who voted is the app's)
    ("Rui Costa: Poll: Sobremesa? — Pastel de nata / Arroz doce", "2024-03-31T12:01:00+01:00"),
    ("Ana Sousa: Combinado 👍", "2024-03-31T19:41:10+01:00"),
]


def test_telegram_single_chat_json() -> None:
    path = TG / "personal_chat" / "result.json"
    recs, rep = parsed(path, "telegram")
    assert turns(recs) == PERSONAL
    check_chat_shape(recs, "telegram")
    assert {r.thread for r in recs} == {"Ana Sousa"}
    assert [r.ref for r in recs][:3] == ["telegram:5012334871:101", "telegram:5012334871:102", "telegram:5012334871:103"]
    # 13 messages: a call and a pin are service lines; a photo, a sticker and a location carry no words
    assert counts(rep) == (13, 2, 3)
    edited, reply, caption, forward = recs[1], recs[2], recs[3], recs[4]
    assert edited.metadata.get("edited") is True and not recs[0].metadata.get("edited")
    assert reply.links == [("telegram:5012334871:102", "explicit")]
    assert caption.metadata.get("media") == ["photos/photo_2@31-03-2024_10-12-45.jpg"]
    assert forward.metadata.get("forwarded_from") == "Público"
    assert rep.warnings == []


def test_telegram_single_chat_folder_is_the_same_chat() -> None:
    recs, _ = parsed(TG / "personal_chat", "telegram")
    assert turns(recs) == PERSONAL


FULL = [
    # Decision: saved messages are the user's own notes, in a thread of their own named as the app names it
    ("Saved Messages", "Rui Costa: Wi-Fi da casa da praia: Gaivota2024", "2024-04-02T08:30:00+01:00"),
    ("Saved Messages", "Rui Costa: Passport renewal appointment: 12 April 09:30, Loja do Cidadão Laranjeiras",
     "2024-04-03T17:45:10+01:00"),
    ("Trekking Picos de Europa 🏔", "Lucía Fernández: ¡Hola a todos! ¿Salimos el viernes a las 7 desde Oviedo?",
     "2024-04-05T20:03:12+01:00"),
    ("Trekking Picos de Europa 🏔", "Marta Iglesias: Sí, @lucia_fz yo llevo el coche", "2024-04-05T20:05:00+01:00"),
    ("Trekking Picos de Europa 🏔", "Rui Costa: #picos2024 Reservé el refugio de Vegarredonda para el sábado",
     "2024-04-05T20:07:41+01:00"),
    # Decision: a deleted account ("from": null) is named as Telegram shows it
    ("Trekking Picos de Europa 🏔", "Deleted Account: Alguien tiene crampones de sobra?", "2024-04-06T09:00:00+01:00"),
    ("Lisbon Tech Events", "Lisbon Tech Events: Python Lisboa meetup: 18 April, 19:00 at Startup Lisboa. Talks on "
     "asyncio and DuckDB.", "2024-04-08T12:00:00+01:00"),
    # a chat the user left is still their history
    ("Old flatmates", "Tomás Reis: Who still has the spare key of the flat?", "2023-09-01T22:10:00+01:00"),
]


def test_telegram_full_export() -> None:
    recs, rep = parsed(TG / "full_export" / "result.json", "telegram")
    assert [(r.thread, *t) for r, t in zip(recs, turns(recs), strict=True)] == FULL
    check_chat_shape(recs, "telegram")
    # create, invite, join by link, rename: 4 service lines; a voice message
    assert counts(rep) == (13, 4, 1)
    assert recs[6].metadata.get("signature") == "Inês"  # a channel post's author signature


def test_telegram_full_export_folder() -> None:
    recs, _ = parsed(TG / "full_export", "telegram")
    assert len(recs) == len(FULL)


def test_telegram_export_of_2019_without_unix_times() -> None:
    recs, rep = parsed(TG / "group_2019" / "result.json", "telegram")
    assert turns(recs) == [("Ирина Смирнова: Кто едет на дачу в субботу?", "2019-06-14T20:30:00"),
                           ("Павел: Я, выезжаю в 9 утра", "2019-06-14T20:31:10"),
                           ("Ирина Смирнова: Не забудь взять семена огурцов", "2019-06-14T20:35:00")]
    assert {r.thread for r in recs} == {"Дача 🌲"} and counts(rep) == (4, 1, 0)
    assert recs[1].metadata.get("edited") is True
    assert recs[2].links == [("telegram:311002:3", "explicit")]


HTML = [
    ("Jonas Becker: Hallo zusammen! Die Probe ist ab jetzt um 19:30 statt 19:00.", "2024-04-02T18:00:12+02:00"),
    # a "joined" message: no from_name, the author of the message before; entities unescaped, tags dropped
    ("Jonas Becker: Bitte die Noten für Abendlied mitbringen & einen Bleistift.", "2024-04-02T18:00:40+02:00"),
    ("Lena Hoffmann: Danke! Ich bringe Kekse mit 🍪", "2024-04-02T18:15:03+02:00"),
    # Decision: a forward is the words of who forwarded it (the original sender in metadata), as in the JSON
    ("Jonas Becker: Die Bibliothek ist am Ostermontag geschlossen.", "2024-04-02T19:02:00+02:00"),
    # the first message of messages2.html is "joined": its author is the last one of messages.html
    ("Jonas Becker: Also die Noten vorher ausleihen!", "2024-04-02T19:03:10+02:00"),
    ("Max Weber: Hier ist der Probenplan: https://chor.example.de/plan.pdf\nBis Dienstag!", "2024-04-03T08:45:00+02:00"),
]


@pytest.mark.parametrize("path", [TG / "html_chat" / "ChatExport_2024-04-09",
                                  TG / "html_chat" / "ChatExport_2024-04-09" / "messages.html"],
                         ids=["folder", "first page"])
def test_telegram_web_pages(path: Path) -> None:
    """The folder or its first page: every page of the chat is read, in page order (messages2 after messages)."""
    recs, rep = parsed(path, "telegram")
    assert turns(recs) == HTML
    check_chat_shape(recs, "telegram")
    assert {r.thread for r in recs} == {"Chorprobe Dienstag"}
    # two service lines (a creation, an invitation; the day headers are no messages), a photo
    assert counts(rep) == (9, 2, 1)
    assert recs[2].links == [(recs[0].ref, "explicit")]
    assert recs[3].metadata.get("forwarded_from") == "Stadtbibliothek Köln"


def test_telegram_web_page_of_2020_without_offsets() -> None:
    recs, rep = parsed(TG / "html_2020" / "messages.html", "telegram")
    assert turns(recs) == [
        ("Giulia Romano: La ricetta della nonna: 500 g di farina, 3 uova, un pizzico di sale.\nImpastare per 10 minuti!",
         "2020-11-21T09:14:55"),
        # "Rui Costa via @gif": the bot is no part of the name; the animation before is media
        ("Rui Costa: Grazie! Domenica provo a fare le tagliatelle", "2020-11-21T09:21:40")]
    assert {r.thread for r in recs} == {"Giulia Romano"} and counts(rep) == (4, 1, 1)


# Telegram Desktop's "Copy selected as text": "Name, [date time]", the words, a blank line; the date in the computer's
# locale (day first with dots; "3/14/24 6:01 PM" month first), no zone; "[In reply to ...]", "[Forwarded from ...]"
# lines are no words of the sender; "[ Photo ]", "[ Sticker 👍 ]" are media. The chat is the file's name.
COPIED = {
    "Porto trip.txt": ([("Ana Sousa: Já compraste os bilhetes do comboio para o Porto?", "2024-03-13T15:00:00"),
                        ("Rui Costa: Sim, Alfa Pendular às 9h09 de sábado\nCarruagem 4, lugares 51 e 52",
                         "2024-03-13T15:02:00"),
                        ("Ana Sousa: Greve parcial no dia 16: consulte os horários", "2024-03-13T15:05:00"),
                        ("Rui Costa: Obrigado, vou ver", "2024-03-13T15:07:00")], (5, 0, 1)),
    "Chat with Ben.txt": ([("Ben Okafor: Are we still on for climbing on Saturday?", "2024-03-14T18:01:00"),
                           ("Rui Costa: Yes! 10 AM at the wall, I'll bring the rope", "2024-03-14T18:03:00")], (3, 0, 1)),
}


@pytest.mark.parametrize("name", sorted(COPIED))
def test_telegram_chat_copied_as_text(name: str) -> None:
    recs, rep = parsed(TG / "copied" / name, "telegram")
    assert turns(recs) == COPIED[name][0] and counts(rep) == COPIED[name][1]
    check_chat_shape(recs, "telegram")
    assert {r.thread for r in recs} == {name[:-4]}


def test_telegram_copy_keeps_who_a_forward_came_from() -> None:
    recs, _ = parsed(TG / "copied" / "Porto trip.txt", "telegram")
    assert recs[2].metadata.get("forwarded_from") == "CP - Comboios de Portugal"
    assert recs[1].metadata.get("reply_to_author") == "Ana Sousa"


# --- Slack ----------------------------------------------------------------------------------------------

SL = FIX / "slack" / "Acme Slack export Mar 14 2024 - Mar 16 2024"
PARENT = "slack:C01GEN:1710414000.000100"
# Decision: a name is the user's real name (display names are nicknames: "Ben"); a channel is "#name"; a DM or a
# group DM is named by its members, in the order the export lists them. Slack's times are UTC instants.
SLACK = [
    ("#general", "Ana Sousa: Welcome @Chloé Martin! Standup is at 9:30 in #proj-atlas", "2024-03-14T09:05:00+00:00"),
    ("#general", "Chloé Martin: Merci ! Happy to be here :tada:", "2024-03-14T09:06:30+00:00"),
    ("#general", "Ben Okafor: Who can review the Q1 budget draft? budget doc (https://docs.example.com/budget)",
     "2024-03-14T11:00:00.000100+00:00"),
    ("#general", "Ana Sousa: I can take it after lunch", "2024-03-14T11:05:00+00:00"),
    ("#general", "Chloé Martin: Je regarde la partie marketing & ventes", "2024-03-14T11:20:00+00:00"),
    # Decision: a bot's message stays (reminders are what a team recalls), named by the bot
    ("#general", "Standup Bot: Reminder: submit your standup notes by 10:00", "2024-03-15T08:00:00.000050+00:00"),
    ("#general", "Ana Sousa: The office is closed on Friday 29 March (Good Friday)", "2024-03-15T08:30:00+00:00"),
    ("#general", "Ben Okafor: @here pizza in the kitchen > 12:30, bring @Marc Dubois's mug back",
     "2024-03-15T11:45:00+00:00"),
    ("#proj-atlas", "Ben Okafor: Atlas v2 ships on Mar 28, ping @atlas-devs with blockers", "2024-03-14T14:00:00+00:00"),
    ("#proj-atlas", "Chloé Martin: Voici la maquette de l'écran d'accueil", "2024-03-14T14:12:00+00:00"),
    ("#leadership", "Ana Sousa: Offsite budget approved: €12k, venue in Sintra", "2024-03-15T16:00:00+00:00"),
    ("Ana Sousa, Ben Okafor", "Ben Okafor: Can you send me the Lisbon hotel confirmation?", "2024-03-16T10:00:00+00:00"),
    ("Ana Sousa, Ben Okafor", "Ana Sousa: Sent to ben@example.com", "2024-03-16T10:04:00+00:00"),
    ("Ana Sousa, Ben Okafor, Chloé Martin", "Chloé Martin: Cadeau pour le départ de Marc : on partage ?",
     "2024-03-16T12:00:00+00:00"),
]


def check_slack(recs: list[Record], rep: ImportReport) -> None:
    assert [(r.thread, *t) for r, t in zip(recs, turns(recs), strict=True)] == SLACK
    check_chat_shape(recs, "slack")
    # a join and a topic change; a file shared without words
    assert counts(rep) == (17, 2, 1)
    parent, replies = recs[2], recs[3:5]
    assert parent.ref == PARENT
    assert all(r.links == [(PARENT, "explicit")] and r.metadata.get("thread_ts") == "1710414000.000100" for r in replies)
    assert recs[5].metadata.get("bot") is True
    assert recs[6].metadata.get("edited") is True
    assert recs[9].metadata.get("media") == ["atlas-mock.fig"]


def test_slack_workspace_folder() -> None:
    check_slack(*parsed(SL, "slack"))


def test_slack_workspace_zip(tmp_path: Path) -> None:
    members = {str(p.relative_to(SL)): p.read_bytes() for p in sorted(SL.rglob("*.json"))}
    check_slack(*parsed(write_zip(tmp_path / "Acme Slack export.zip", members), "slack"))


def test_slack_channel_folder_alone() -> None:
    """A folder of days without users.json: names from each message's user_profile, mentions too."""
    recs, rep = parsed(FIX / "slack" / "design-crit", "slack")
    assert [(r.thread, *t) for r, t in zip(recs, turns(recs), strict=True)] == [
        ("#design-crit", "Chloé Martin: Crit moved to 16:00, @Ana Sousa can you book the big room?",
         "2024-05-02T15:00:00+00:00"),
        ("#design-crit", "Ana Sousa: Booked :white_check_mark:", "2024-05-02T15:03:00+00:00"),
        ("#design-crit", "Ben Okafor: Notes from yesterday's crit are in the wiki", "2024-05-03T09:12:00+00:00")]
    assert counts(rep) == (3, 0, 0)


# --- Discord ----------------------------------------------------------------------------------------------

DC = FIX / "discord"
GERAL = DC / "Clube do Livro - Text Channels - geral [900000000000000010].json"


def test_discord_json_of_a_guild_channel() -> None:
    recs, rep = parsed(GERAL, "discord")
    # Decision: the server's nickname names the author (as Discord shows it); the time keeps the export's offset
    assert turns(recs) == [
        ("Ana: Próximo livro: *Ensaio sobre a Cegueira*, quem topa?", "2024-03-14T18:01:12.345000-03:00"),
        ("Ben O.: Count me in! @Ana do we meet Thursday?", "2024-03-14T18:04:40.900000-03:00"),
        ("Ana: Quinta às 19h na Livraria Cultura", "2024-03-14T18:09:30-03:00"),
        ("Carl-bot: Lembrete: capítulos 1 a 5 até domingo 📚", "2024-03-16T09:00:00-03:00")]
    check_chat_shape(recs, "discord")
    assert {r.thread for r in recs} == {"Clube do Livro / #geral"}
    assert counts(rep) == (7, 2, 1)  # a join and a pin; a picture alone
    assert recs[1].links == [("discord:900000000000000010:1218000000000000002", "explicit")]
    assert recs[2].metadata.get("edited") is True and recs[3].metadata.get("bot") is True


def test_discord_json_of_a_direct_message() -> None:
    recs, rep = parsed(DC / "Direct Messages - ben.okafor [1219000000000000000].json", "discord")
    assert turns(recs) == [("Ben O.: Thanks for the call, I'll send the slides tonight", "2024-03-17T21:13:05+00:00"),
                           ("Ana: Great, and don't forget the **budget** tab", "2024-03-17T21:14:00+00:00")]
    # Decision: a DM is named by its channel (the other person), not "Direct Messages"
    assert {r.thread for r in recs} == {"ben.okafor"} and counts(rep) == (3, 1, 0)


def test_discord_csv() -> None:
    recs, rep = parsed(DC / "Clube do Livro - Text Channels - off-topic [900000000000000011].csv", "discord")
    assert turns(recs) == [
        ("ana.sousa: Alguém viu o filme do Saramago?", "2024-03-18T20:15:03.512000-03:00"),
        ("ben.okafor: Not yet, is it on Netflix?\nI could watch it Friday", "2024-03-18T20:17:44-03:00"),
        ('ana.sousa: Tá na Max, "Blindness" (2008)', "2024-03-18T20:21:30-03:00")]
    check_chat_shape(recs, "discord")
    # the CSV holds no guild nor channel: they come from the file's name (guild - category - channel [id])
    assert {r.thread for r in recs} == {"Clube do Livro / #off-topic"} and counts(rep) == (4, 0, 1)


def test_discord_plain_text() -> None:
    recs, rep = parsed(DC / "Direct Messages - kasia.nowak [1220000000000000000].txt", "discord")
    # Polish dates, day first ("14.03.2024 18:01"), no zone
    assert turns(recs) == [("kasia.nowak: Cześć! Czy spotkanie w sobotę jest aktualne?", "2024-03-14T18:01:00"),
                           ("rui.costa: Tak, o 10:00 w kawiarni przy Rynku\nWezmę mapę szlaku", "2024-03-14T18:03:00"),
                           ("kasia.nowak: Super, do zobaczenia w sobotę!", "2024-03-15T09:30:00")]
    check_chat_shape(recs, "discord")
    assert {r.thread for r in recs} == {"kasia.nowak"} and counts(rep) == (5, 1, 1)


# --- Messenger and Instagram ------------------------------------------------------------------------------

FB = FIX / "messenger" / "facebook-ruicosta-2024-04-20-AbCdEf"
ANA_FB = [
    ("Rui Costa: Vejo este artigo sobre o Alentejo depois", "2024-03-30T16:00:00+00:00"),
    ("Ana Sousa: Chegaste bem a Évora?", "2024-03-31T16:00:00+00:00"),
    ("Rui Costa: Sim! O hotel é ótimo, fica ao pé do Templo Romano 😊", "2024-03-31T16:30:00+00:00"),
    ("Ana Sousa: Até amanhã, beijinhos", "2024-03-31T18:00:00+00:00"),
]
FAMILIA = [("Maria Costa: Almoço de aniversário da avó: domingo às 13h em Setúbal", "2024-04-01T03:06:40+00:00"),
           ("João Costa: Eu levo o bolo de bolacha 🎂", "2024-04-01T05:53:20+00:00")]


def test_messenger_download_folder() -> None:
    """Every chat below the download; message_2.json before message_1.json (older), each oldest first; Facebook's
    mojibake ("Ã©") read as the UTF-8 it is ("é")."""
    recs, rep = parsed(FB, "messenger")
    by_thread: dict[str | None, list[Record]] = {}
    for r in recs:
        by_thread.setdefault(r.thread, []).append(r)
    assert {t: turns(rs) for t, rs in by_thread.items()} == {"Ana Sousa": ANA_FB, "Família 👨‍👩‍👧": FAMILIA}
    check_chat_shape(recs, "messenger")
    # a call, an unsent message, a member added; a photo
    assert counts(rep) == (10, 3, 1)
    assert by_thread["Ana Sousa"][2].metadata.get("reactions") == [{"reaction": "❤", "actor": "Ana Sousa"}]
    assert by_thread["Ana Sousa"][0].metadata.get("link") == "https://www.publico.pt/2024/03/30/fugas/alentejo"


def test_messenger_one_chat_folder_and_one_file() -> None:
    chat = FB / "your_facebook_activity" / "messages" / "inbox" / "anasousa_10158223344"
    recs, rep = parsed(chat, "messenger")
    assert turns(recs) == ANA_FB and counts(rep) == (7, 2, 1)
    recs, rep = parsed(chat / "message_2.json", "messenger")  # one file: its own messages only
    assert turns(recs) == ANA_FB[:2] and counts(rep) == (2, 0, 0)


def test_instagram_download() -> None:
    recs, rep = parsed(FIX / "messenger" / "instagram-lucia.fz-2024-05-01", "messenger")
    assert turns(recs) == [
        ("Lucía Fernández: ¡Qué tal el viaje a Évora!", "2024-05-01T10:40:00+00:00"),
        ("Lucía Fernández: Mira este sitio para cenar en Gijón, ¿reservamos el sábado?", "2024-05-01T10:42:00+00:00")]
    # Decision: Instagram's "Reacted ❤️ to your message" is a reaction, no words of anyone: a system line
    assert {r.thread for r in recs} == {"Lucía Fernández"} and counts(rep) == (3, 1, 0)


def test_messenger_end_to_end_encrypted_chat() -> None:
    recs, rep = parsed(FIX / "messenger" / "messenger-secure-storage" / "Ana Sousa_1.json", "messenger")
    assert turns(recs) == [("Ana Sousa: O voo chega às 22h40 ao Porto", "2024-05-24T20:00:00+00:00"),
                           ("Rui Costa: Vou buscar-te ao aeroporto", "2024-05-24T20:03:20+00:00")]
    assert {r.thread for r in recs} == {"Ana Sousa"} and counts(rep) == (3, 0, 1)


# --- iMessage -----------------------------------------------------------------------------------------------

IM = FIX / "imessage"


def test_imessage_one_to_one() -> None:
    recs, rep = parsed(IM / "+351912345678.txt", "imessage")
    # Decision: "Me" stays "Me" (the export does not say who the user is); a phone number names its sender
    assert turns(recs) == [("+351912345678: Olá! O jantar de sexta continua de pé?", "2024-03-28T18:01:12"),
                           ("Me: Sim, às 20h no Ramiro. Reservei para 3\nLevo o vinho", "2024-03-28T18:03:40"),
                           ("+351912345678: Perfeito 🦐", "2024-03-28T18:07:30"),
                           ("Me: Bom dia! Afinal o Pedro também vem, somos 4", "2024-03-29T09:15:00")]
    check_chat_shape(recs, "imessage")
    assert {r.thread for r in recs} == {"+351912345678"} and counts(rep) == (5, 0, 1)
    assert recs[2].metadata.get("tapbacks") == ["Loved by Me"]


def test_imessage_group() -> None:
    recs, rep = parsed(IM / "Book Club.txt", "imessage")
    assert turns(recs) == [
        ("ana.sousa@icloud.com: Next pick: Klara and the Sun. Meeting at mine on the 20th?", "2024-04-02T19:01:30"),
        ("+447700900123: Works for me. I'll bring dessert", "2024-04-02T19:04:11"),
        # a reply, indented under its message: the exporter's "responded to" line is no words of the sender
        ("Me: Same, count me in", "2024-04-02T19:06:00"),
        ("Me: Has anyone got a spare copy? Mine is at my sister's", "2024-04-02T19:10:45")]
    assert {r.thread for r in recs} == {"Book Club"} and counts(rep) == (5, 1, 0)


# --- through the CLI: detected, written, re-imported, refused ------------------------------------------

def test_cli_imports_each_app_by_itself(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    expected = {TG / "full_export" / "result.json": ("telegram", 8), SL: ("slack", 14), GERAL: ("discord", 4),
                FB: ("messenger", 6), IM / "Book Club.txt": ("imessage", 4)}
    outs = assert_imports_by_cli(db, expected)
    assert all(out["data"]["episodes"] >= 1 for out in outs)
    found = _envelope(run_cli("--db", str(db), "recall", "spare key of the flat", "--no-touch"))["data"]["results"]
    assert found and found[0]["content"] == "Tomás Reis: Who still has the spare key of the flat?"


def test_cli_imports_a_folder_of_imessage_chats(tmp_path: Path) -> None:
    folder = tmp_path / "imessage_export"
    shutil.copytree(IM, folder)
    db = tmp_path / "m.db"
    out = _envelope(run_cli("--db", str(db), "import", str(folder)))
    assert out["ok"] and out["data"]["format"] == "imessage" and out["data"]["memories_added"] == 8, out


BAD = FIX / "bad"
# path: what the one-line error must hold (besides the path it names)
BAD_CASES: dict[Path, str] = {
    BAD / "telegram_cut" / "result.json": "invalid or truncated JSON",
    BAD / "telegram_messages_not_a_list.json": "\"messages\" is not a list",
    BAD / "telegram_bad_date.json": "message 2: \"date\" is no date",
    BAD / "slack_day_not_a_list": "general/2024-03-14.json: not a list of messages",
    BAD / "slack_bad_ts": "general/2024-03-14.json: message 2: \"ts\" is no Slack time",
    BAD / "discord_bad_timestamp [1].json": "message 11: \"timestamp\" is no date",
    BAD / "messenger_bad_timestamp": "message 1: \"timestamp_ms\" is no time",
}


@pytest.mark.parametrize("path", sorted(BAD_CASES), ids=lambda p: p.name)
def test_a_broken_export_is_refused_in_one_line_and_nothing_is_written(path: Path, tmp_path: Path) -> None:
    assert_import_refused(path, tmp_path, BAD_CASES[path], (path, path.parent))


@pytest.mark.parametrize(("name", "cut"), [("result.json", 900), ("message_1.json", 300)])
def test_a_cut_file_is_refused_in_one_line(name: str, cut: int, tmp_path: Path) -> None:
    source = TG / "personal_chat" / "result.json" if name == "result.json" else \
        FB / "your_facebook_activity" / "messages" / "inbox" / "familia_4455667788" / "message_1.json"
    assert_broken_import_fails(tmp_path, name, source.read_bytes()[:cut], "invalid or truncated JSON")


def test_signal_backup_stays_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "signal-2024-03-14-18-01-12.backup"
    path.write_bytes(b"\x00\x00\x00\x20" + bytes(range(32)) * 4)
    with pytest.raises(ImportFormatError) as err:
        detect(path)
    assert "an encrypted Signal backup (not an export mem reads)" in str(err.value) and "\n" not in str(err.value)


def test_every_unseen20_fixture_has_a_case() -> None:
    covered: set[Path] = {*(TG / "copied" / n for n in COPIED), TG / "personal_chat" / "result.json", TG / "full_export" / "result.json",
                          TG / "group_2019" / "result.json", TG / "html_2020" / "messages.html", GERAL,
                          DC / "Direct Messages - ben.okafor [1219000000000000000].json",
                          DC / "Clube do Livro - Text Channels - off-topic [900000000000000011].csv",
                          DC / "Direct Messages - kasia.nowak [1220000000000000000].txt",
                          IM / "+351912345678.txt", IM / "Book Club.txt",
                          FIX / "messenger" / "messenger-secure-storage" / "Ana Sousa_1.json"}
    folders = [TG / "html_chat", SL, FIX / "slack" / "design-crit", FB, FIX / "messenger" / "instagram-lucia.fz-2024-05-01",
               *[p for p in BAD_CASES if p.is_dir()]]
    files = {p for p in FIX.rglob("*") if p.is_file() and p.name != "README.md"}
    left = {p for p in files if p not in covered and p not in BAD_CASES and not any(f in p.parents for f in folders)}
    assert left == set()
    assert len(files) >= 30


# --- the same exports as they also come: zipped, a whole account's pages, a long contact list ---------------------


def test_telegram_web_pages_zipped(tmp_path: Path) -> None:
    chat = TG / "html_chat" / "ChatExport_2024-04-09"
    members = {f"ChatExport_2024-04-09/{p.relative_to(chat).as_posix()}": p.read_bytes() for p in chat.rglob("*") if p.is_file()}
    recs, _ = parsed(write_zip(tmp_path / "Telegram Desktop.zip", members), "telegram")
    assert turns(recs) == HTML


def test_telegram_whole_account_as_web_pages(tmp_path: Path) -> None:
    """"Export Telegram data" as HTML: export_results.html, and a folder of pages per chat below chats/."""
    root = tmp_path / "DataExport_2024-04-09"
    shutil.copytree(TG / "html_chat" / "ChatExport_2024-04-09", root / "chats" / "chat_001")
    shutil.copytree(TG / "html_2020", root / "chats" / "chat_002")
    (root / "export_results.html").write_text("<!DOCTYPE html>\n<html><body><div class=\"page_wrap\">Exported Data"
                                              "</div></body></html>\n", encoding="utf-8")
    recs, rep = parsed(root, "telegram")
    assert [r.thread for r in recs] == ["Chorprobe Dienstag"] * 6 + ["Giulia Romano"] * 2
    assert turns(recs)[:6] == HTML and counts(rep) == (13, 3, 2)


def test_telegram_whole_account_whose_contacts_fill_the_first_bytes(tmp_path: Path) -> None:
    """A long contact list comes before "chats" in result.json: the export is told by its "about" and
    "personal_information"."""
    text = (TG / "full_export" / "result.json").read_text(encoding="utf-8")
    contacts = ",\n".join(f'   {{"user_id": {i}, "first_name": "Contact {i}", "last_name": "", "phone_number": '
                          f'"+351 91 000 {i:04d}", "date": "2021-05-02T10:00:00", "date_unixtime": "1619946000"}}'
                          for i in range(2000))
    head, tail = text.split('"list": [', 1)  # the contacts' list is the export's first
    path = tmp_path / "result.json"
    path.write_text(head + '"list": [\n' + contacts + ",\n" + tail.lstrip(), encoding="utf-8")
    assert path.stat().st_size > 256 * 1024
    recs, _ = parsed(path, "telegram")
    assert [(r.thread, *t) for r, t in zip(recs, turns(recs), strict=True)] == FULL


def test_facebook_download_zipped(tmp_path: Path) -> None:
    members = {p.relative_to(FB).as_posix(): p.read_bytes() for p in FB.rglob("*.json")}
    recs, rep = parsed(write_zip(tmp_path / "facebook-ruicosta-2024-04-20-AbCdEf.zip", members), "messenger")
    assert sorted(turns(recs)) == sorted(ANA_FB + FAMILIA) and counts(rep) == (10, 3, 1)
