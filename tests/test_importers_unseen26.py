"""Round 26 of export layouts (held-out tests/fixtures/unseen26, written by hand from what each exporter writes,
before any parser of this round; nothing copied from a real export or from ../shared; see its README.md): DeepSeek's
data export (conversations.json of fragments), xAI's Grok export (prod-grok-backend.json), Rocket.Chat's "Export my
data" (JSON lines per room), Mistral Le Chat's export (chat-<id>.json) and the owner's sent mail (Apple Mail's "Sent
Messages.mbox", a Thunderbird "Sent" mailbox in the UI's language).

Decisions:

* times as the export says them: DeepSeek's with their own offset (+08:00), Grok's, Rocket.Chat's and Le Chat's UTC;
* the owner is marked only where the export marks them: an AI chat's prompt is the account owner's ("User",
  ``from_me``), the answer the assistant's ("DeepSeek", "Grok", "Le Chat"); Rocket.Chat names every sender by username
  and marks no one; mail in a sent folder is ``from_me``;
* DeepSeek's reasoning (THINK) and search results (SEARCH) are no words of the chat: left out; of a regenerated
  answer the last (the one shown) is read; an answer with no words is empty;
* service lines are left out (system): Rocket.Chat's messages with a ``type`` (joined, left, topic changed); a
  message that is only a file: media;
* chat names: DeepSeek's and Grok's titles, Rocket.Chat's room (its file's name), Le Chat's first prompt (its export
  keeps no title), cut at a word before 60 characters.
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

FIX = Path(__file__).parent / "fixtures" / "unseen26"
BAD = FIX / "bad"

# --- DeepSeek ----------------------------------------------------------------------------------------------------------

DS_TURNS = [
    ("User: I'll be in Chengdu for three days in March. Where should I eat hotpot?", "2025-02-01T10:11:12.345000+08:00"),
    ("DeepSeek: Try Shujiuxiang near Chunxi Road, and ask for the half-spicy pot.", "2025-02-01T10:11:40.120000+08:00"),
    ("User: Can you translate this menu for me?", "2025-02-01T10:15:02+08:00"),
    ("DeepSeek: 毛肚 is beef tripe, 鸭肠 is duck intestine, 黄喉 is aorta.", "2025-02-01T10:16:05+08:00"),
    ("User: 周末去杭州玩两天，住在西湖边哪里比较方便？", "2025-02-03T21:02:00+08:00"),
    ("DeepSeek: 建议住在湖滨商圈，步行就能到断桥和音乐喷泉。", "2025-02-03T21:02:31.500000+08:00"),
    ("User: 龙井村怎么去？", "2025-02-03T21:05:10+08:00"),
]


def test_deepseek_conversations_json() -> None:
    recs, rep = parsed(FIX / "deepseek" / "conversations.json", "deepseek")
    check_chat_shape(recs, "deepseek")
    assert turns(recs) == DS_TURNS
    assert [r.thread for r in recs] == ["Chengdu food trip"] * 4 + ["周末去杭州"] * 3
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False, True, False, True, False, True]
    assert recs[2].metadata.get("files") == ["menu.jpg"]
    assert "Think about" not in "".join(r.content for r in recs)  # the reasoning is no word of the chat
    assert "Sorry" not in "".join(r.content for r in recs)  # the answer regenerated over is not the one shown
    assert counts(rep) == (8, 0, 0) and rep.skipped_empty == 1 and rep.warnings == []


def test_deepseek_export_zip() -> None:
    recs, rep = parsed(FIX / "deepseek" / "deepseek_data-2025-03-02.zip", "deepseek")
    assert turns(recs) == [
        ("User: ¿Cuánto arroz necesito para una paella de ocho personas?", "2025-03-02T18:30:00+08:00"),
        ("DeepSeek: Unos 100 gramos por persona: 800 gramos de arroz bomba.", "2025-03-02T18:30:21+08:00")]
    assert {r.thread for r in recs} == {"Paella para ocho"} and counts(rep) == (2, 0, 0)


def test_deepseek_folder_is_its_conversations() -> None:
    recs, _ = parsed(FIX / "deepseek", "deepseek")
    assert turns(recs)[:7] == DS_TURNS  # the folder's conversations.json (the zip beside it is another import)


# --- Grok ----------------------------------------------------------------------------------------------------------


def test_grok_backend_json() -> None:
    recs, rep = parsed(FIX / "grok" / "prod-grok-backend.json", "grok")
    check_chat_shape(recs, "grok")
    assert turns(recs) == [
        ("User: Wie lange muss mein Sauerteigbrot gehen, wenn die Küche 20 Grad hat?", "2025-03-01T08:00:00+00:00"),
        ("Grok: Bei 20 Grad etwa 6 bis 8 Stunden, bis sich der Teig fast verdoppelt hat.",
         "2025-03-01T08:00:12.500000+00:00"),
        ("User: Und im Kühlschrank über Nacht?", "2025-03-01T08:02:40+00:00"),
        ("User: ما هي أفضل الأماكن لزيارتها في عمّان خلال يومين؟", "2025-03-04T19:30:00+00:00"),
        ("Grok: زر جبل القلعة والمدرج الروماني في اليوم الأول، ثم شارع الرينبو في اليوم الثاني.",
         "2025-03-04T19:30:21+00:00"),
    ]
    assert [r.thread for r in recs] == ["Sauerteig"] * 3 + ["رحلة إلى عمّان"] * 2
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False, True, True, False]
    assert counts(rep) == (6, 0, 0) and rep.skipped_empty == 1  # r4: a partial answer with no words


def test_grok_export_zip() -> None:
    recs, rep = parsed(FIX / "grok" / "grok-export.zip", "grok")
    assert turns(recs) == [
        ("User: Quel est le meilleur itinéraire à vélo de Perrache à la Croix-Rousse ?", "2025-04-10T06:45:00+00:00"),
        ("Grok: Longez les quais du Rhône puis montez par la montée de la Grande-Côte.", "2025-04-10T06:45:18+00:00")]
    assert {r.thread for r in recs} == {"Vélo à Lyon"} and counts(rep) == (2, 0, 0)


# --- Rocket.Chat ----------------------------------------------------------------------------------------------------

RC_TURNS = [
    ("piotr.nowak: Ana, czy możesz przesłać mi fakturę do piątku?", "2024-05-06T12:00:00+00:00"),
    ("ana.sousa: Jasne, wyślę ją jutro rano.", "2024-05-06T12:04:10+00:00"),
    ("ana.sousa: Bom dia! A reunião de planeamento passa para quinta às 10h.", "2024-05-02T09:00:00+00:00"),
    ("rui.costa: Combinado, levo o orçamento revisto.", "2024-05-02T09:03:27.512000+00:00"),
    ("tom.baker: Great, I'll book the big room.", "2024-05-02T09:10:00+00:00"),
    ("kenta.yamada: 明日のリリースは午後3時に延期します。", "2024-05-03T01:00:00+00:00"),
    ("yui.sato: 了解です。テストは午前中に終わらせます。", "2024-05-03T01:02:30+00:00"),
]


def test_rocketchat_export_folder() -> None:
    recs, rep = parsed(FIX / "rocketchat", "rocketchat")
    check_chat_shape(recs, "rocketchat")
    assert turns(recs) == RC_TURNS
    assert [r.thread for r in recs] == ["ana.sousa"] * 2 + ["general"] * 3 + ["開発"] * 2
    assert not any(r.metadata.get("from_me") for r in recs)  # the export marks no owner
    assert counts(rep) == (10, 2, 1)  # joined and topic changed: system; orcamento-v2.pdf alone: media


def test_rocketchat_one_room_file() -> None:
    recs, rep = parsed(FIX / "rocketchat" / "general.json", "rocketchat")
    assert turns(recs) == RC_TURNS[2:5] and counts(rep) == (6, 2, 1)


def test_rocketchat_export_zip() -> None:
    recs, rep = parsed(FIX / "rocketchat-export" / "3fa9b2c7e1.zip", "rocketchat")
    assert turns(recs) == [
        ("lucia.garcia: ¿Alguien sabe si el viernes hay comida de equipo?", "2024-06-14T10:00:00+00:00"),
        ("ana.sousa: Sí, a las 14:00 en el italiano de la esquina.", "2024-06-14T10:01:45+00:00")]
    assert {r.thread for r in recs} == {"random"} and counts(rep) == (3, 1, 0)


# --- Mistral Le Chat ----------------------------------------------------------------------------------------------


def test_lechat_export_folder() -> None:
    recs, rep = parsed(FIX / "lechat", "lechat")
    check_chat_shape(recs, "lechat")
    assert turns(recs) == [
        ("User: מתי הכי כדאי לטייל במכתש רמון?", "2025-04-22T05:30:00+00:00"),
        ("Le Chat: באביב או בסתיו, כשהחום נסבל. צאו מוקדם בבוקר.", "2025-04-22T05:30:04+00:00"),
        ("User: Je pars à Lisbonne en mai : quels quartiers visiter en deux jours ?", "2025-04-20T16:05:11.204000+00:00"),
        ("Le Chat: Alfama et Baixa le premier jour, Belém le second pour la tour et les pastéis.",
         "2025-04-20T16:05:14.890000+00:00"),
        ("Le Chat: Votre vol part d'Orly à 7h40 le 12 mai.", "2025-04-20T16:07:06+00:00"),
    ]
    assert [r.thread for r in recs] == ["מתי הכי כדאי לטייל במכתש רמון?"] * 2 + [
        "Je pars à Lisbonne en mai : quels quartiers visiter en deux…"] * 3
    assert [bool(r.metadata.get("from_me")) for r in recs] == [True, False, True, False, False]
    assert counts(rep) == (6, 0, 1)  # billet.pdf sent alone: media


def test_lechat_export_zip() -> None:
    recs, rep = parsed(FIX / "lechat-export" / "mistral-export-2025-05-01.zip", "lechat")
    assert turns(recs) == [("User: ¿Qué vino va bien con un pulpo a la gallega?", "2025-04-30T19:00:00+00:00"),
                           ("Le Chat: Un albariño de Rías Baixas, fresco y con acidez.", "2025-04-30T19:00:03.500000+00:00")]
    assert counts(rep) == (2, 0, 0)


# --- the owner's sent mail ------------------------------------------------------------------------------------------


def test_apple_mail_sent_messages_are_the_owners() -> None:
    recs, rep = parsed(FIX / "Mail", "mail")
    assert [(r.author, r.event_at.isoformat() if r.event_at else "", bool(r.metadata.get("from_me")))
            for r in recs] == [("Tom Baker", "2024-05-07T21:02:00+01:00", False),
                               ("Ana Sousa", "2024-05-07T20:15:00+01:00", True)]
    assert recs[1].content == "Ana Sousa: Olá Tom,\n\no jantar de sexta é às 20h no Ramiro. Reservei para quatro.\n\nAna"
    assert counts(rep) == (2, 0, 0)


def test_thunderbird_sent_folder_in_german_is_the_owners() -> None:
    recs, _ = parsed(FIX / "Thunderbird", "mail")
    assert [(r.author, bool(r.metadata.get("from_me"))) for r in recs] == [("Jürgen Müller", True),
                                                                            ("Lena Berg", False)]
    assert [r.thread for r in recs] == ["Umzug am Samstag"] * 2


# --- through the CLI: detected, imported once, idempotent --------------------------------------------------------------


def test_each_layout_imports_by_cli(tmp_path: Path) -> None:
    assert_imports_by_cli(tmp_path / "m.db", {
        FIX / "deepseek" / "conversations.json": ("deepseek", 7),
        FIX / "deepseek" / "deepseek_data-2025-03-02.zip": ("deepseek", 2),
        FIX / "grok" / "prod-grok-backend.json": ("grok", 5),
        FIX / "grok" / "grok-export.zip": ("grok", 2),
        FIX / "rocketchat": ("rocketchat", 7),
        FIX / "rocketchat-export" / "3fa9b2c7e1.zip": ("rocketchat", 2),
        FIX / "lechat": ("lechat", 5),
        FIX / "lechat-export" / "mistral-export-2025-05-01.zip": ("lechat", 2),
    })


# --- damaged: one line naming the file (and the line or field), nothing written ---------------------------------------


@pytest.mark.parametrize(("rel", "message"), [
    ("deepseek_cut/conversations.json", "invalid or truncated JSON"),
    ("deepseek_bad_time/conversations.json", '"inserted_at" is no date'),
    ("grok_cut/prod-grok-backend.json", "invalid or truncated JSON"),
    ("grok_responses_not_list/prod-grok-backend.json", '"responses" is not a list'),
    ("rocketchat_broken_line/general.json", "general.json:3: not a JSON object"),
    ("rocketchat_bad_ts/general.json", 'general.json:2: "ts" is no date'),
    ("lechat_cut/chat-8d2f6a10-3c4b-4e5d-9f60-718293a4b5c6.json", "invalid or truncated JSON"),
    ("deepseek_data_cut.zip", "malformed zip archive"),
])
def test_damaged_exports_are_refused_in_one_line(rel: str, message: str, tmp_path: Path) -> None:
    assert_import_refused(BAD / rel, tmp_path, message)


@pytest.mark.parametrize(("rel", "keep"), [
    ("deepseek/conversations.json", 1),
    ("grok/prod-grok-backend.json", 1),
    ("rocketchat/general.json", 2),
    ("lechat/chat-8d2f6a10-3c4b-4e5d-9f60-718293a4b5c6.json", 2),
])
def test_fuzzed_copies_are_read_or_refused_in_one_line(rel: str, keep: int, tmp_path: Path) -> None:
    read, refused = fuzzed_outcomes(FIX / rel, tmp_path, seed=26, keep=keep)
    assert read + refused == 16 and read >= 1  # every case one or the other; no other exception


# --- written after the parsers (not held-out): the other forms each reader takes, and more damage ----------------------


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_deepseek_older_form_with_role_and_content(tmp_path: Path) -> None:
    import json

    conv = {"id": "o1", "title": "Old form", "inserted_at": "2024-12-01T09:00:00+08:00", "mapping": {
        "root": {"id": "root", "parent": None, "children": ["1"], "message": None},
        "1": {"id": "1", "parent": "root", "children": ["2"],
              "message": {"role": "USER", "content": "Qu'est-ce qu'un 饺子 ?", "inserted_at": "2024-12-01T09:00:00+08:00"}},
        "2": {"id": "2", "parent": "1", "children": [],
              "message": {"role": "ASSISTANT", "content": "Un ravioli chinois.", "inserted_at": "2024-12-01T09:00:05+08:00"}}}}
    recs, rep = parsed(_write(tmp_path / "conversations.json", json.dumps([conv])), "deepseek")
    assert turns(recs) == [("User: Qu'est-ce qu'un 饺子 ?", "2024-12-01T09:00:00+08:00"),
                           ("DeepSeek: Un ravioli chinois.", "2024-12-01T09:00:05+08:00")]
    assert counts(rep) == (2, 0, 0)


def test_grok_other_senders_are_service_lines(tmp_path: Path) -> None:
    import json

    data = {"conversations": [{"conversation": {"id": "x", "title": "T"}, "responses": [
        {"response": {"_id": "1", "message": "You are Grok.", "sender": "system", "create_time": 1740816000}},
        {"response": {"_id": "2", "message": "Hola", "sender": "human", "create_time": "2025-03-01T08:00:01Z"}}]}]}
    recs, rep = parsed(_write(tmp_path / "prod-grok-backend.json", json.dumps(data)), "grok")
    assert turns(recs) == [("User: Hola", "2025-03-01T08:00:01+00:00")] and counts(rep) == (2, 1, 0)


def test_lechat_content_chunks_when_content_is_empty(tmp_path: Path) -> None:
    import json

    msgs = [{"id": "a", "chatId": "c-1", "role": "user", "content": "Salut", "createdAt": "2025-01-01T10:00:00Z"},
            {"id": "b", "chatId": "c-1", "role": "assistant", "content": None, "createdAt": "2025-01-01T10:00:02Z",
             "contentChunks": [{"type": "text", "text": "Bonjour "}, {"type": "tool_call", "name": "web"},
                               {"type": "text", "text": "!"}]}]
    recs, _ = parsed(_write(tmp_path / "chat-0a1b2c3d-0000-4000-8000-000000000000.json", json.dumps(msgs)), "lechat")
    assert [r.content for r in recs] == ["User: Salut", "Le Chat: Bonjour !"] and {r.thread for r in recs} == {"Salut"}


def test_outlook_eml_folder_named_sent_items_is_the_owners(tmp_path: Path) -> None:
    eml = ("From: Rui Costa <rui@example.org>\nTo: Ana <ana@example.org>\nSubject: Horta\n"
           "Date: Sat, 4 May 2024 10:00:00 +0100\nMessage-ID: <h1@example.org>\n\nAs alfaces já nasceram.\n")
    mine = parsed(_write(tmp_path / "Sent Items" / "horta.eml", eml), "mail")[0]
    theirs = parsed(_write(tmp_path / "Inbox" / "horta.eml", eml), "mail")[0]
    assert [r.metadata.get("from_me") for r in mine + theirs] == [True, None]


@pytest.mark.parametrize(("name", "text", "message"), [
    ("conversations.json", '[{"id": "1", "title": "t", "inserted_at": "2025-01-01T00:00:00+08:00", '
                           '"mapping": {"root": {"id": "root", "children": ["1"]}, "1": {"id": "1", "children": [], '
                           '"message": {"inserted_at": "2025-01-01T00:00:00+08:00", "fragments": "REQUEST"}}}}]',
     '"fragments" is not a list'),
    ("conversations.json", '[{"id": "1", "title": "t", "inserted_at": "2025-01-01T00:00:00+08:00", "mapping": []}]',
     '"mapping" is not an object'),
    ("chat-0a1b2c3d-0000-4000-8000-000000000000.json", '[{"role": "user", "content": "x", "createdAt": "2025-01-01T00:00:00Z", '
     '"chatId": "c"}, "oops"]', "message 2: not an object"),
    ("general.json", '{"msg": "a", "username": "b", "ts": "2024-01-01T00:00:00Z"}\n["a list"]\n',
     "general.json:2: not a JSON object (a list)"),
    ("prod-grok-backend.json", '{"conversations": {"a": 1}}', '"conversations" is not a list'),
])
def test_more_damage_is_refused_in_one_line(name: str, text: str, message: str, tmp_path: Path) -> None:
    path = _write(tmp_path / "in" / name, text)
    assert_import_refused(path, tmp_path, message)
