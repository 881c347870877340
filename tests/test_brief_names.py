"""Topic names an agent can read (memengine/topic_names.py), the labels consolidate stores, and key
facts that a newer fact of the same source may update (brief._fold_updates)."""

from __future__ import annotations

from datetime import datetime, timedelta

import memory_core as core
from memengine import brief, graph_rank, topic_names
from memengine import consolidate as cons
from memengine.summarize import STOPWORDS, Member, summarize_cluster
from memengine.timeparse import utcnow

NOW = utcnow().replace(microsecond=0)
FLAT = topic_names.idf(lambda _w: 1, 10)


def _name(*texts: str, exclude: set[str] | None = None) -> str:
    return topic_names.name(texts, STOPWORDS, exclude or set(), FLAT)


def test_chat_filler_and_laughter_never_name_a_topic() -> None:
    assert _name("ok lol", "haha yes", "hahaha ok", "lol") == topic_names.MIXED
    assert _name("kkkk ok", "jajaja ok thanks", "ok the ferry to Naxos", "ferry tickets, ok") == "ferry"
    assert all(topic_names.is_filler(w) for w in ("hahaha", "Ahahah", "LOOOL", "xD", "thx", "jajaja", "kkk"))
    assert not any(topic_names.is_filler(w) for w in ("hash", "lotus", "kayak", "okra"))


def test_plurals_and_case_fold_and_the_commonest_spelling_is_shown() -> None:
    assert _name("Production deploys happen on Tuesdays", "Updated the checklist for the new deploy days") \
        == "deploy"  # "happen" and "Tuesdays"/"days" end no shared run; "deploy" recurs folded
    assert _name("Invoices are late", "the invoice PDF", "two invoices bounced") == "invoice"  # ties: a-z
    assert topic_names.fold("companies") == "company" and topic_names.fold("classes") == "class"
    assert topic_names.fold("cases") == "case" and topic_names.fold("Mum's") == "mum"


def test_a_run_stops_at_punctuation_verbs_and_people() -> None:
    runs = topic_names.runs("Marco lives in Milan. Tests run nightly; list p95 dropped", STOPWORDS, {"marco"})
    shown = set(runs.values())
    assert {"Milan", "Tests run nightly", "list p95"} <= shown
    assert not any(("Milan" in r and "Tests" in r) or "dropped" in r or "Marco" in r for r in shown)
    assert _name("Priya Nair owns the billing domain", "Priya Nair reviews billing domain changes",
                 exclude={"priya", "nair"}) == "billing domain"


def test_summary_name_is_a_shared_phrase_not_a_keyword_list() -> None:
    members = [Member(i, t) for i, t in enumerate((
        "Rewrote the invoice runner to stream subscriptions in batches.",
        "The invoice runner ran out of memory on the small pod.",
        "Invoice runner now streams; peak memory 240 MB.",
        "Walked Daniel through the invoice runner rewrite."), 1)]
    s = summarize_cluster(members, df={"invoice": 9, "runner": 4, "memory": 8, "stream": 2}, n_docs=40,
                          known_people={"daniel": "Daniel"})
    assert s.name == "invoice runner"
    assert ", " not in s.name and s.key_terms  # key terms stay a list, in the summary's header


def _chat(store: core.MemoryStore) -> None:
    lines = ["the adoption agency called about the home visit", "we filled in the adoption agency forms",
             "adoption agency interview is on 3 May", "ok", "haha yes", "lol"]
    for i, text in enumerate(lines * 3):  # (a cluster is of 3 memories at least: each line, "again", "again!")
        store.store(text + ("", " again", " again!")[i // len(lines)], "episodic", thread="family", author="Ana",
                    event_at=datetime(2029, 3, 1) + timedelta(hours=i), dedup=False)


def test_consolidate_labels_clusters_with_readable_names_and_brief_uses_them(store: core.MemoryStore) -> None:
    _chat(store)
    cons.run(store, now=NOW, keep_backups=0)
    labels = {int(r[0]): r[1] for r in store.conn.execute(
        "SELECT id, label FROM clusters WHERE status = 'active' AND level = 1")}
    assert labels and not any(", " in (v or "") for v in labels.values())
    # (the fake embedder groups each line with its two "again"s: one cluster per subject, one per filler line)
    assert sorted(labels.values()) == sorted(["home visit", "adoption agency forms", "adoption agency interview",
                                              "mixed subjects", "mixed subjects", "mixed subjects"]), labels
    # (briefed after the interview of 3 May 2029: a plan still ahead would show under "Coming up", not a topic)
    data = graph_rank.brief(store, 2000, now=datetime(2029, 6, 1))
    names = {t["id"]: t["name"] for t in data["topics"]}
    assert names and all(names[c] == labels[c] for c in names if c is not None)  # brief shows consolidate's names
    assert not any(n.lower() in ("ok", "haha", "lol", "haha yes") for n in names.values())
    # a line that is only filler is never chosen, whatever its first person
    shown = [i["text"] for i in data["chosen"] if i["section"] == "topics"]
    assert shown and not any(t.split(" ", 2)[2].startswith(("ok", "haha", "lol")) for t in shown)


def test_a_newer_key_fact_of_the_same_source_is_shown_with_what_it_may_update(store: core.MemoryStore) -> None:
    old = store.store("On-call this week is Marco Rossi; escalate to Priya after 15 minutes.", "semantic",
                      source="agent", importance=0.8, event_at=datetime(2029, 3, 1), dedup=False).id
    new = store.store("On-call this week is Daniel Okafor; escalate to Marco after 15 minutes.", "semantic",
                      source="agent", importance=0.8, event_at=datetime(2029, 3, 8), dedup=False).id
    other = store.store("On-call this week is Daniel Okafor; escalate to Marco after 15 minutes!", "semantic",
                        source="user", importance=0.8, event_at=datetime(2029, 3, 2), dedup=False).id
    data = graph_rank.brief(store, 2000, now=datetime(2029, 3, 9))
    facts = {i["id"]: i for i in data["sections"]["facts"]}
    assert set(facts) == {new, other}  # the older agent fact is folded into the newer one; the user's stays
    assert facts[new]["text"] == (f"2029-03-08 #{new} On-call this week is Daniel Okafor; escalate to Marco after "
                                  f"15 minutes. (may update #{old} \"On-call this week is Marco Rossi; escalate to "
                                  f"Priya after…\")")
    assert facts[new]["why"]["may_update"] == [old]
    assert old not in {i["id"] for i in data["chosen"]}
    assert brief.UPDATE_COS == 0.65



def test_key_terms_take_no_chat_filler_nor_calendar_words() -> None:
    members = [Member(i, t) for i, t in enumerate((
        "haha good, the e-bike arrives on Thursday", "lol good the e-bike is in the garage",
        "good good, Thursday then, the e-bike is beautiful", "hahaha the garage is full"), 1)]
    s = summarize_cluster(members)
    assert s.key_terms == ["bike", "garage"]  # "arrives": a verb that names nothing; "beautiful" (round 8) neither
    assert s.name == "bike"  # "e" is one letter: no word of a name
