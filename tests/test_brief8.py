"""Round 8 of the brief: plans read in the order of their days across topics (brief._plans_in_order)."""

from __future__ import annotations

from datetime import date

from memengine import brief, brief_upcoming


def _topic(cid: int | None, lines: list[tuple[int, str]]) -> brief.Topic:
    """A topic whose first line is its lead, as brief._topics makes them."""
    t = brief.Topic(cid, 0, f"t{cid}", len(lines))
    for n, (mid, text) in enumerate(lines):
        t.items.append(brief.Item("topics", f"2026-11-0{n + 1} #{mid} {text}", 10, mid, cid,
                                  why={"lead": True} if n == 0 else {}))
    return t


def test_topics_with_plans_take_their_places_in_date_order() -> None:
    texts = {1: "the party is on Saturday 19 December 2026 at the barn",
             2: "no plan in this one, only news about the roof",
             3: "the dentist is on Tuesday 1 December 2026 at nine",
             4: "a plan already gone: the fair was on 2 November 2026",
             5: "the exam is on 8 December 2026, the hall is booked",
             6: "the recital is on 3 December 2026 in the church"}
    pool = {m: (m, t, "2026-11-01") for m, t in texts.items()}
    chosen = [_topic(10, [(1, texts[1])]), _topic(11, [(2, texts[2])]), _topic(12, [(4, texts[4]), (5, texts[5])]),
              _topic(13, [(3, texts[3])]), _topic(None, [(6, texts[6])])]
    brief._plans_in_order(chosen, pool, brief_upcoming.PlanDays(None), date(2026, 11, 20))  # type: ignore[arg-type]
    # T11 (no plan) keeps its place, the memories in no topic stay last; T12's first plan ahead is its
    # second line's (its lead's is past): 1 December, 8 December, 19 December
    assert [t.id for t in chosen] == [13, 11, 12, 10, None]
    assert [len(t.items) for t in chosen] == [1, 1, 2, 1, 1]  # nothing added or dropped


def test_small_talk_is_no_topic() -> None:
    """An exchange that names nothing is small talk; a number, a name the store does not know as a person, or a long
    turn makes a cluster a topic; notes are never small talk (brief_smalltalk)."""
    from memengine import brief_smalltalk as st

    people = {"marcus", "jess"}
    assert not st.is_specific("Jess: my feet are destroyed, never wearing those boots again", people)
    assert not st.is_specific("Dan: nobody asked Marcus", people)  # a person the store knows names no subject
    assert not st.is_specific("Jess: Happy halloween. I'm so tired", people)  # sentence starts, "I'm"
    assert st.is_specific("Priya: I got into the PhD at Utrecht!!", people)
    assert st.is_specific("Dan: surgery moved, the 8th now", people)
    assert st.is_specific("Dan: see you all on Saturday then", people)
    assert st.is_specific("Lena: " + " ".join(["word"] * st.LONG_WORDS), people)
    pool = [(1, "Jess: what's everyone having for lunch", "2026-10-19", "whatsapp/chat", 7, 0.9),
            (2, "Marcus: toast. again.", "2026-10-19", "whatsapp/chat", 7, 0.9),
            (3, "Jess: rain again", "2026-10-11", "whatsapp/chat", 8, 0.9),
            (4, "Dan: booked Osteria Calma", "2026-10-11", "whatsapp/chat", 8, 0.9),
            (5, "short note", "2026-10-11", "agent/", 9, 0.9),
            (6, "other note", "2026-10-11", "agent/", 9, 0.9),
            (7, "Jess: lol", "2026-10-11", "whatsapp/chat", None, 0.0)]
    assert st.small_talk(pool, people) == {7}
