"""A one-word topic name must be a word the chat uses as a subject, more strictly (lead, round 14: topics of unseen
chats were still named "calendar" from "put it in the calendar for March", "ahead" from "go ahead", and the group
of memories in no topic "left"): a word said more often in a place adjunct than as the head of a noun phrase is
none; a group whose words are none is named by none (no fallback to the best run); weekdays' short forms are
calendar words."""

from __future__ import annotations

from memengine import topic_names

STOP = frozenset("""the a an my our your his her their is was are were to of in on at for with and or it we i you
he she they me us put be for booked get got so that this there them""".split())
RARE = topic_names.idf(lambda w: 1, 10)


def named(texts: list[str]) -> str:
    return topic_names.name(texts, STOP, set(), RARE)


def test_a_word_said_more_often_where_things_go_is_no_subject() -> None:
    texts = ["put it in the calendar for March", "the calendar is full", "Ben: in the calendar now",
             "Ana: put it in the calendar please"]
    assert not topic_names.used_as_subject("calendar", texts)
    assert topic_names.used_as_subject("calendar", ["the calendar is full", "our calendar sync broke",
                                                    "put it in the calendar"])


def test_a_line_an_episode_repeats_counts_once() -> None:
    # the turn "the calendar is full" stands alone and again inside its episode: one line, against two adjuncts
    texts = ["Ana: the calendar is full", "Ana: the calendar is full\nBen: ok", "Ben: put it in the calendar",
             "Cleo: on the calendar now"]
    assert not topic_names.used_as_subject("calendar", texts)


def test_a_group_whose_words_are_no_subject_is_named_by_none() -> None:
    texts = ["go ahead and book it for the team", "yes go ahead", "go ahead with the booking then"]
    assert named(texts) == topic_names.MIXED


def test_a_word_inside_its_noun_phrase_is_a_subject() -> None:
    assert topic_names.used_as_subject("deploy", ["Production deploys happen on Tuesdays",
                                                  "Updated the checklist for the new deploy days"])


def test_weekdays_short_forms_are_calendar_words() -> None:
    for w in ("Fri", "Tue", "Thu", "Wed", "thurs"):
        assert topic_names.weak(w), w
    for w in ("Sun", "Sat", "Mon"):  # a word, a verb's past, a name: left to the other tests
        assert not topic_names.weak(w), w


def test_a_pronouns_s_is_no_possessor() -> None:
    texts = ["as long as she's near the shops", "and near the hospital too", "it's near the station"]
    assert not topic_names.used_as_subject("near", texts)
    assert topic_names.used_as_subject("birthday", ["Mum's birthday is on the 14th", "for Mum's birthday we go out"])
