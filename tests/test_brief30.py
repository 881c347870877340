"""Brief, round 30 (brief30): chats nobody tuned the brief on (bench/data/brief_heldout23). What reached users: topics
headed by a person ("T11 · Tariq", the friend who draws the board game; "T4 · Kubusiu", an author called by a declined
form of his name), one word in two forms as two words ("babcia", "babci"), the memories in no topic headed by a word
two of ten said ("jadę"), a past party said with its weekday dated as the coming one ("the housewarming on Sunday was
so lovely" → today), a plan its own author said they would not go to shown as coming ("nie jedziemy 2 lipca"), and
the user, an author of the chat the notes import, as a People line."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

import memory_core as core
from memengine import brief_dates, brief_moves, graph_rank, summarize, topic_names, topic_people


def test_people_said_in_turns_are_read_from_their_structure() -> None:
    """A title, "X and I" (and its translations), a turn calling someone, a thanks: no capitalised word alone."""
    got = topic_people.said_of_people([
        "Owen Price: bad news for the Bristol weekend, Tariq and I are at the UK Games Expo stand",
        "Ania: Kuba, tak, będzie DJ",
        "Maya Chen: the bbq on Saturday was class. thanks Callum",
        "Owen Price: the cardiologist is Dr Okoye, she was really clear",
        "Ania: Tomek i ja byliśmy u fotografa",
        "Josh Whitfield: PORTO. who's in. flights from Leeds Bradford are £89",
        "Hannah Price: saw two flats in Bedminster today, North Street was lovely",
    ])
    assert got == {"tariq", "kuba", "callum", "okoye", "tomek"}


def test_declined_forms_of_names_and_words() -> None:
    """Polish vocatives and cases of a name are the name; the cases of a noun are one word (neighbours in order)."""
    assert topic_people.name_forms(["Ania", "Kuba", "Tomek"], ["Aniu", "Anią", "Kubusiu", "Tomkiem", "Krzeszowic",
                                                             "Dworek", "aniu"]) == {"aniu", "anią", "kubusiu",
                                                                                     "tomkiem"}
    assert topic_people.stems(["babcia", "babci", "babcię", "wesele", "weselu", "sala", "salon"]) == {
        "babcia": "babci", "babcię": "babci", "weselu": "wesele"}
    assert topic_people.form("Krzeszowice") == "krzeszowi" and topic_people.form("salę") == "salę"


def test_a_group_in_a_declining_language_is_named_by_its_word_in_all_forms() -> None:
    """"babci" (3 members) and "babcia" (2) of one grandmother hold together against "Krzeszowic" (3)."""
    texts = ["Babcia przewróciła się w ogrodzie", "Przyjadę do babci w środę", "Zawiozę babci rzeczy z Krzeszowic",
             "babcia wraca z Krzeszowic", "Ja pojadę do babci w niedzielę", "Krzeszowic rehabilitacja"]
    stop = summarize.stopwords_for(texts)
    flat = topic_names.name(texts, stop, set(), lambda _k: 1.0)
    held = topic_names.name(texts, stop, set(), lambda _k: 1.0, inflected=True)
    assert (flat, held) == ("Krzeszowic", "babci")


def test_the_memories_in_no_topic_are_named_only_by_what_a_share_of_them_say() -> None:
    texts = ["jadę jutro", "kto jadę", "Będziemy z tatą", "Tylko uważaj na siebie", "matma poszła dobrze",
             "Kochani, mamy salę", "wyniki matury 7 lipca"]
    stop = summarize.stopwords_for(texts)
    assert not topic_names.held_by_share("jadę", texts, stop)  # 2 of 7
    assert topic_names.held_by_share("jadę", texts[:4], stop)  # 2 of 4
    assert topic_names.held_by_share(topic_names.MIXED, texts, stop)


def test_a_weekday_said_of_what_happened_is_the_last_one() -> None:
    monday = date(2026, 6, 15)
    assert brief_dates.named_days("the housewarming on Sunday was so lovely", monday) == [date(2026, 6, 14)]
    assert brief_dates.named_days("Claire ran 10K in 56:20 on Sunday", monday) == [date(2026, 6, 14)]
    assert brief_dates.plan_days("the bbq on Saturday was class. thanks", monday) == []
    # a plan still: no past word, or one of a plan between
    assert brief_dates.named_days("housewarming is on Sunday", monday) == [date(2026, 6, 21)]
    assert brief_dates.named_days("we were hoping to meet on Sunday", monday) == [date(2026, 6, 21)]
    assert brief_dates.named_days("I was thinking we meet on Sunday", monday) == [date(2026, 6, 21)]


def test_not_going_is_read_in_the_first_person_only() -> None:
    says = brief_moves._NOT_GOING.search
    assert says("Open'er odwołany dla mnie, Olek złamał nogę, nie jedziemy 2 lipca")
    assert says("bad news: I can't come on 4 July after all")
    assert says("je n'irai pas au salon")
    assert not says("Sa sœur Élise ne viendra pas au vernissage du 19 novembre")
    assert not says("Sam says YES")
    assert brief_moves._loosely_shared({"łebę", "domek"}, "Łeba odpada, nie jedziemy w tym roku")
    assert not brief_moves._loosely_shared({"gdyni", "bilety"}, "Łeba odpada, nie jedziemy w tym roku")


def _chat(store: core.MemoryStore, turns: list[tuple[int, str, str]], start: datetime, thread: str) -> None:
    for k, (minutes, author, text) in enumerate(turns):
        store.store(f"{author}: {text}", "episodic", source="whatsapp", thread=thread, position=k, author=author,
                    event_at=start + timedelta(minutes=minutes))


def test_a_plan_its_author_will_not_go_to_leaves_coming_up(db_path: Path) -> None:
    """Kuba's festival on 2 July, then "nie jedziemy 2 lipca" (another member's "I can't" would not do it)."""
    store = core.MemoryStore(db_path)
    try:
        start = datetime(2026, 6, 5, 10)
        _chat(store, [(0, "Kuba", "kupiłem bilety na Open'er, 2 lipca jadę z Olkiem do Gdyni"),
                      (5, "Marek", "Tylko uważaj na siebie"),
                      (9000, "Grażyna", "Babcia ma kontrolę u ortopedy w piątek 3 lipca o 9:30, zawiozę ją"),
                      (27000, "Kuba", "Open'er odwołany dla mnie, Olek złamał nogę, nie jedziemy 2 lipca")],
              start, "Rodzina")
        text = graph_rank.brief(store, 1500, now=datetime(2026, 6, 25, 9))["text"]
        coming = text.split("### Coming up", 1)[1].split("###", 1)[0]
        assert "3 lipca" in coming and "2 lipca jadę" not in coming
    finally:
        store.close()


def test_the_user_is_no_people_line_of_their_own_chat(db_path: Path) -> None:
    """The notes say who the user is; the chat the notes import has her turns: the People section lists the other
    author only (a notes-only store still names the user, as brief27 left it)."""
    store = core.MemoryStore(db_path)
    try:
        at = datetime(2026, 9, 1, 9)
        store.store("L'utilisatrice est Camille Roux, illustratrice à Nantes ; sa compagne Inès est infirmière.",
                    "semantic", source="agent", event_at=at)
        store.store("Camille Roux a signé avec les Éditions du Héron pour « Le phare de Lou ».", "episodic",
                    source="agent", event_at=at + timedelta(days=1))
        _chat(store, [(0, "Julien Mercier", "Camille ! Maud m'a dit que c'est toi qui illustres Le phare de Lou"),
                      (3, "Camille Roux", "Moi aussi ! J'adore ton texte, surtout la mouette"),
                      (6, "Julien Mercier", "Gaston la mouette, c'est mon préféré"),
                      (9, "Camille Roux", "Un ciré jaune pour Lou ?")], at + timedelta(days=2), "Julien")
        out = graph_rank.brief(store, 1500, now=at + timedelta(days=5))
        people = [i["text"] for i in out["sections"]["people"]]
        assert [p.split(":")[0] for p in people if "wrote" in p] == ["Julien Mercier"]
    finally:
        store.close()
