"""Brief, round 4: reactions that point at the news, days placed by earlier turns, plans moved by the
event they name, no tiny or generic topics, the people a notes-only store names, the no-topics note."""
from __future__ import annotations

from datetime import date, datetime

import numpy as np
from conftest import chat_turns

import memory_core as core
from memengine import brief, brief_dates, brief_namedpeople, brief_reactions, graph_rank, topic_names
from memengine import consolidate as cons

NOW = datetime(2026, 11, 20, 9, 0)


def test_a_reaction_says_nothing_and_credits_the_turn_it_answers() -> None:
    for text in ("Imke: haha", "Callum: omg", "Rosa: nice!!", "Dev: legend", "Sven: we're in!! 🏡", "Callum: ok I'll drive",
                 "Callum: posters done <Media omitted>"):
        assert brief_reactions.is_reaction(text), text
    for text in ("Dev: got the job at Harland Audio!!", "Imke: Priya had the baby", "Rosa: £120 is in", "Ana: 3 pm"):
        assert not brief_reactions.is_reaction(text), text
    pool = [(1, "", "2026-09-04T08:20:00", "whatsapp/band", None, 0.0), (2, "", "2026-09-04T08:21:00", "whatsapp/band", None, 0.0),
            (3, "", "2026-09-04T08:22:00", "whatsapp/band", None, 0.0), (4, "", "2026-09-04T09:30:00", "whatsapp/band", None, 0.0),
            (5, "", "2026-09-04T08:22:00", "user/", None, 0.0)]
    texts = ["Dev: got the job at Harland Audio!!", "Imke: haha", "Callum: omg", "Rosa: woohoo", "lol"]
    info = np.array([2.0, 1.0, 1.0, 1.0, 1.0])
    brief_reactions.credit(pool, texts, info)
    # two reactions within REACT_MINUTES credit the news; the third, 70 minutes on, credits nothing; a note is no chat
    assert info.tolist() == [4.0, 0.0, 0.0, 0.0, 1.0]


def test_the_news_among_reactions_is_shown_and_the_reactions_are_not(store: core.MemoryStore) -> None:
    turns = [("2026-09-01T10:00:00", "Rosa", "rehearsals are on Wednesdays at Blackbox Studios, room 4"),
             ("2026-09-01T10:01:00", "Callum", "ok"), ("2026-09-02T12:00:00", "Callum", "lol"),
             ("2026-09-04T08:20:00", "Dev", "got the job at Harland Audio!!")]
    turns += [(f"2026-09-04T08:2{k + 1}:00", who, text) for k, (who, text) in enumerate(
        [("Imke", "haha"), ("Callum", "omg"), ("Rosa", "nice!!"), ("Imke", "legend"), ("Callum", "woohoo")])]
    turns += [(f"2026-09-{10 + k}T20:00:00", "Rosa", t) for k, t in enumerate(["amazing", "agreed", "stop", "yesss"])]
    ids = chat_turns(store, "band", turns)
    cons.run(store, now=NOW, keep_backups=0)
    data = graph_rank.brief(store, 2000, now=NOW)
    shown = {i["id"] for i in data["chosen"] if i["section"] == "topics"}
    assert ids[3] in shown  # the news
    assert not shown & {ids[k] for k in (1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12)}  # no reaction is a line


def test_a_day_named_by_its_number_is_placed_by_the_turns_before() -> None:
    w = date(2026, 11, 9)
    before = [("Rosa: change of plan: we now play Friday 18 December", w)]
    assert brief_dates.plan_days("Rosa: soundcheck on the 18th at 6", w, before) == [date(2026, 12, 18)]
    assert brief_dates.plan_days("Rosa: soundcheck on the 18th at 6", w) == [date(2026, 11, 18)]  # no context
    # a month said in the same turn, or in the turns just before
    assert brief_dates.plan_days("we said January, so on the 9th at the studio", date(2026, 11, 13)) == [date(2027, 1, 9)]
    assert brief_dates.plan_days("we arrive on the 24th", date(2026, 11, 2),
                                 [("Christmas at ours this year?", date(2026, 11, 2))]) == [date(2026, 12, 24)]
    # a deadline is the next such day, whatever month was talked of
    assert brief_dates.plan_days("they need the posters by the 1st", date(2026, 10, 20),
                                 [("December gig confirmed: Saturday 12 December", date(2026, 10, 20))]) == [date(2026, 11, 1)]
    # the same day said with its month earlier in the chat: a day gone by, no plan
    assert brief_dates.plan_days("the plumber who came on the 3rd says we need a valve", date(2026, 11, 16),
                                 [("plumber booked for Tuesday 3 November", date(2026, 10, 28))]) == []
    # a month named more than MONTH_DAYS before places nothing
    assert brief_dates.plan_days("we arrive on the 24th", date(2026, 11, 2),
                                 [("Christmas at ours this year?", date(2026, 10, 20))]) == [date(2026, 11, 24)]


def test_coming_up_reads_a_chat_turn_with_the_turns_before_it(store: core.MemoryStore) -> None:
    ids = chat_turns(store, "band", [("2026-11-09T19:30:00", "Rosa", "change of plan: we now play Friday 18 December"),
                                 ("2026-11-09T19:31:00", "Dev", "ugh ok"),
                                 ("2026-11-09T19:40:00", "Rosa", "soundcheck on the 18th at 6")])
    up = graph_rank.brief(store, 2000, now=datetime(2026, 11, 14))["sections"]["upcoming"]
    assert [(i["id"], i["why"]["day"]) for i in up] == [(ids[2], "2026-12-18"), (ids[0], "2026-12-18")]


def test_a_plan_moved_in_other_words_is_shown_once(store: core.MemoryStore) -> None:
    ids = chat_turns(store, "house", [("2026-11-12T12:15:00", "Sven", "housewarming: Saturday 5 December, 7pm, I'll tell everyone"),
                                  ("2026-11-14T10:00:00", "Nadia", "dentist for Sven on Friday 4 December at 10"),
                                  ("2026-11-17T19:30:00", "Sven", "housewarming moved to the 12th instead, the worktops won't be in before")])
    data = graph_rank.brief(store, 2000, now=datetime(2026, 11, 19))
    assert [i["id"] for i in data["sections"]["upcoming"]] == [ids[1], ids[2]]
    assert ids[0] not in {i["id"] for i in data["chosen"]}
    # a plan whose day had gone by when the newer one was written is another event
    store2_ids = chat_turns(store, "club", [("2026-10-01T10:00:00", "Ana", "quiz night at the Crown on Friday 2 October"),
                                        ("2026-11-18T10:00:00", "Ana", "next quiz night moved to Friday 27 November instead")])
    assert brief.brief_upcoming.plans(store, datetime(2026, 11, 19))[1] == [ids[0]]
    assert store2_ids[0] not in brief.brief_upcoming.plans(store, datetime(2026, 9, 1))[1]


def test_no_tiny_topics_and_no_generic_names(store: core.MemoryStore) -> None:
    assert topic_names.name(["the course starts at nine", "the course is long"], frozenset({"the", "is", "at"}), set(),
                            lambda k: 1.0) == topic_names.MIXED
    assert topic_names.name(["the golf course opens", "golf course again"], frozenset({"the"}), set(),
                            lambda k: 1.0) == "golf course"
    for text in ("Invoices go out on the last working day", "Invoices are sent with InvoiceXpress",
                 "The staging database listens on port 5433", "The staging database is backed up nightly"):
        store.store(text, dedup=False)
    cons.run(store, now=NOW, keep_backups=0)
    sizes = dict(store.conn.execute("SELECT id, member_count FROM clusters WHERE status = 'active' AND level = 1"))
    data = graph_rank.brief(store, 2000, now=NOW)
    assert all(t["id"] is None or sizes[t["id"]] >= brief.TOPIC_MIN_MEMBERS for t in data["topics"])


def test_a_notes_only_store_names_its_people(store: core.MemoryStore) -> None:
    notes = ["Prof. Adaeze Okafor is my supervisor; we meet on Thursdays.",
             "Tomás Ruiz is a postdoc in the lab and handles the statistics.",
             "Tomás says the models need at least 20 participants.",
             "Read Adaeze's comments on the literature review.",
             "Brightwave wants the prototype by Friday.", "Brightwave sent the contract.",
             "Porto is rainy in November.", "The office in Porto opens at 9."]
    for k, text in enumerate(notes):
        store.store(text, event_at=datetime(2026, 10, 1 + k, 9, 0), dedup=False)
    people = brief_namedpeople.named_people(store, set())
    assert [(p[0], p[1]) for p in people] == [("Adaeze Okafor", 2), ("Tomás Ruiz", 2)]
    data = graph_rank.brief(store, 2000, now=NOW)
    assert [i["text"].split(":")[0] for i in data["sections"]["people"]] == ["Adaeze Okafor", "Tomás Ruiz"]
    assert data["sections"]["people"][0]["text"].startswith("Adaeze Okafor: named in 2 memories (2026-10-01 – 2026-10-04")
