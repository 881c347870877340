"""Extractive cluster summaries: choice of sentences, facets, budget, external command."""

from __future__ import annotations

import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memengine.summarize import (
    Member,
    SummarizerError,
    cluster_payload,
    detect_language,
    run_external_summarizer,
    split_sentences,
    summarize_cluster,
    tokenize,
)

DIM = 384


def _unit(*weights: float) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(weights)] = weights
    return v / np.linalg.norm(v)


# Two subtopics: the gateway outage (members 1, 3, 5) and billing (2, 4).
GATEWAY_BILLING = [
    Member(1, "The gateway crashed during the night. Ana restarted the gateway at 2am.",
           datetime(2023, 5, 1, 9), "Ana", _unit(1, 0.1)),
    Member(2, "Oscar moved the billing export to Tuesdays. Invoices go out after the export.",
           datetime(2023, 6, 12, 18), "Oscar", _unit(0.1, 1)),
    Member(3, "The gateway crash was caused by a full disk on the gateway host.",
           datetime(2023, 5, 2, 10), "Oscar", _unit(1, 0.2)),
    Member(4, "Billing export failed twice because the invoices table was locked.",
           datetime(2023, 6, 1, 8), "Ana", _unit(0.2, 1)),
    Member(5, "After the gateway crash we added disk alerts to the gateway host.",
           datetime(2023, 5, 3, 12), "Ana", _unit(1, 0.15)),
]


def _topic_embed(texts: list[str]) -> np.ndarray:
    """Fake sentence embedder: one axis per subtopic, plus a 'chatter' axis."""
    rows = []
    for t in texts:
        low = t.lower()
        rows.append(_unit(
            1.0 if any(w in low for w in ("gateway", "disk", "crash")) else 0.0,
            1.0 if any(w in low for w in ("billing", "invoice", "export")) else 0.0,
            0.3,
        ))
    return np.stack(rows)


def _strip_embeddings(members: list[Member]) -> list[Member]:
    return [Member(m.id, m.content, m.event_at, m.author, None) for m in members]


# --------------------------------------------------------------------------- sentences


def test_split_sentences() -> None:
    text = "Dr. Smith met Ana, e.g. at noon. then we left!\n- first bullet\n2) Second item? Yes.  v1.2 is out"
    assert split_sentences(text) == [
        "Dr. Smith met Ana, e.g. at noon.",
        "then we left!",
        "first bullet",
        "Second item?",
        "Yes.",
        "v1.2 is out",
    ]
    assert split_sentences("J. R. R. Tolkien wrote it at 5 p.m. sharp.") == ["J. R. R. Tolkien wrote it at 5 p.m. sharp."]
    assert split_sentences("  \n\n") == []


def test_tokenize_drops_stopwords_numbers_and_short_words() -> None:
    assert tokenize("We restarted the Gateway at 2 and it's OK, 2023 log") == ["restarted", "gateway", "log"]


# --------------------------------------------------------------------------- choice


@pytest.mark.parametrize("mode", ["tfidf", "member_embeddings", "embed"])
def test_coverage_one_sentence_per_subtopic(mode: str) -> None:
    members = GATEWAY_BILLING if mode != "tfidf" else _strip_embeddings(GATEWAY_BILLING)
    embed = _topic_embed if mode == "embed" else None
    summary = summarize_cluster(members, max_sentences=2, max_chars=600, embed=embed)
    topics = {"gateway" if "gateway" in s.lower() else "billing" for _, s in summary.sentences}
    assert topics == {"gateway", "billing"}
    assert len(summary.sentences) == 2


def test_exact_sentences_tfidf() -> None:
    summary = summarize_cluster(_strip_embeddings(GATEWAY_BILLING), max_sentences=2)
    assert summary.sentences == [
        (3, "The gateway crash was caused by a full disk on the gateway host."),
        (4, "Billing export failed twice because the invoices table was locked."),
    ]
    assert summary.text == (
        "Summary of 5 memories (2023-05-01 – 2023-06-12; people: Ana, Oscar; "
        "key terms: gateway, crash, export, billing, disk)\n"
        "- The gateway crash was caused by a full disk on the gateway host.\n"
        "- Billing export failed twice because the invoices table was locked."
    )


def test_third_sentence_returns_to_the_larger_subtopic() -> None:
    # Three gateway members vs two billing ones: the third pick is gateway again,
    # and output is chronological.
    summary = summarize_cluster(GATEWAY_BILLING, max_sentences=3)
    assert summary.sentences == [
        (1, "The gateway crashed during the night."),
        (3, "The gateway crash was caused by a full disk on the gateway host."),
        (4, "Billing export failed twice because the invoices table was locked."),
    ]


def test_exact_sentences_with_embedder() -> None:
    summary = summarize_cluster(GATEWAY_BILLING, max_sentences=2, embed=_topic_embed)
    assert summary.sentences == [
        (3, "The gateway crash was caused by a full disk on the gateway host."),
        (4, "Billing export failed twice because the invoices table was locked."),
    ]


def test_redundant_sentences_not_both_chosen() -> None:
    members = [
        Member(1, "The backup job now runs nightly at 3am on the NAS."),
        Member(2, "The backup job now runs nightly at 3am on the NAS!"),  # same words
        Member(3, "The nightly backup job now runs at 3am on the NAS box."),  # near-identical
        Member(4, "Photos from the trip to Lisbon are in the shared album."),
    ]
    summary = summarize_cluster(members, max_sentences=2)
    chosen = [s for _, s in summary.sentences]
    assert sum("backup" in s for s in chosen) == 1
    assert any("Lisbon" in s for s in chosen)
    assert summary.sentences == [
        (1, "The backup job now runs nightly at 3am on the NAS."),
        (4, "Photos from the trip to Lisbon are in the shared album."),
    ]


def test_near_duplicates_are_skipped_even_when_budget_allows_more() -> None:
    members = [
        Member(1, "Ana likes green tea in the morning."),
        Member(2, "Ana likes green tea in the morning!!"),
        Member(3, "ana likes GREEN tea in the morning."),
    ]
    summary = summarize_cluster(members, max_sentences=3)
    assert summary.sentences == [(1, "Ana likes green tea in the morning.")]


def test_deterministic_regardless_of_input_order() -> None:
    shuffled = [GATEWAY_BILLING[i] for i in (4, 2, 0, 3, 1)]
    for embed in (None, _topic_embed):
        assert summarize_cluster(shuffled, 3, embed=embed) == summarize_cluster(GATEWAY_BILLING, 3, embed=embed)


def test_ties_broken_by_member_id() -> None:
    members = [Member(9, "Deploy the release on Friday."), Member(4, "Deploy the release on Monday.")]
    summary = summarize_cluster(members, max_sentences=1)
    assert summary.sentences == [(4, "Deploy the release on Monday.")]


def test_fragments_used_only_when_nothing_else() -> None:
    assert summarize_cluster([Member(1, "ok"), Member(2, "Sure thing")], 3).sentences == [(1, "ok"), (2, "Sure thing")]
    summary = summarize_cluster([Member(1, "ok. The router needs a firmware update.")], 3)
    assert summary.sentences == [(1, "The router needs a firmware update.")]


def test_bad_embedder_shape_is_reported() -> None:
    with pytest.raises(ValueError, match="embed"):
        summarize_cluster(GATEWAY_BILLING, embed=lambda texts: np.zeros((1, 3)))


def test_empty_cluster_rejected() -> None:
    with pytest.raises(ValueError, match="empty"):
        summarize_cluster([])


# --------------------------------------------------------------------------- facets


def test_people_date_span_member_ids() -> None:
    summary = summarize_cluster(GATEWAY_BILLING)
    assert summary.people == ["Ana", "Oscar"]  # Ana authors 3 members, Oscar 2
    assert summary.date_span == (datetime(2023, 5, 1, 9), datetime(2023, 6, 12, 18))
    assert summary.member_ids == [1, 2, 3, 4, 5]


def test_people_are_authors_and_the_names_the_store_knows() -> None:
    members = [
        Member(1, "Lunch with Marta and Tom on Friday in Paris.", author="user"),
        Member(2, "Marta booked the table. Tom was late again, on Windows Update again.", author="assistant"),
        Member(3, "Gateway notes: Windows and Paris again. Mrs Lena Ortiz called, said Windows is fine."),
        Member(4, "Next Friday Marta is away in Paris.", author="Jo"),
    ]
    known = {"marta": "Marta Ruiz", "marta ruiz": "Marta Ruiz", "tom": "Tom", "lena ortiz": "Lena Ortiz", "jo": "Jo"}
    summary = summarize_cluster(members, known_people=known)
    # Role authors are not people; recurring capitalised words ("Windows", "Paris", "Friday")
    # are not either: only names the store knows (by first name or in full, as aliases) are
    assert summary.people == ["Jo", "Marta Ruiz", "Tom", "Lena Ortiz"]
    assert "marta" not in summary.key_terms
    # without a store's names, only authors
    assert summarize_cluster(members).people == ["Jo"]


def test_date_span_mixes_naive_and_aware_and_missing() -> None:
    aware = datetime(2023, 1, 2, 12, tzinfo=timezone.utc)
    naive = datetime(2023, 3, 1)
    members = [Member(1, "a b c d", aware), Member(2, "e f g h", None), Member(3, "i j k l", naive)]
    summary = summarize_cluster(members)
    assert summary.date_span == (aware, naive)
    assert "(2023-01-02 – 2023-03-01" in summary.text
    same_day = summarize_cluster([Member(1, "x y z w", datetime(2023, 1, 2, 1)), Member(2, "q", datetime(2023, 1, 2, 5))])
    assert same_day.text.startswith("Summary of 2 memories (2023-01-02)")
    assert summarize_cluster([Member(1, "and so it was")]).text == "Summary of 1 memory\n- and so it was"


def test_key_terms_use_background_document_frequency() -> None:
    members = _strip_embeddings(GATEWAY_BILLING)
    plain = summarize_cluster(members).key_terms
    assert plain == ["gateway", "crash", "export", "billing", "disk"]
    # "gateway" is everywhere in this store, "invoices" is rare: background wins.
    background = {t: 500 for m in members for t in tokenize(m.content)}
    background.update({"gateway": 990, "crash": 400, "invoices": 1})
    weighted = summarize_cluster(members, df=background, n_docs=1000).key_terms
    # "gateway" is in most of the store: it falls from first to third;
    # "invoices" (one member, rare in the store) rises to the top.
    assert weighted == ["invoices", "crash", "gateway", "export", "billing"]


def test_key_terms_fold_inflections() -> None:
    members = [Member(1, "Restarting the proxy."), Member(2, "We restarted the proxy."), Member(3, "Proxy restarts daily.")]
    # One term for three spellings, shown in its shortest attested form.
    assert summarize_cluster(members).key_terms == ["proxy", "restarts", "daily"]


@pytest.mark.parametrize(("text", "language"), [
    ("Ich habe gestern mit Anna über die Reise nach Berlin gesprochen, und sie war sehr begeistert davon.", "german"),
    ("Ayer hablé con Ana sobre el viaje a Lisboa y estaba muy contenta con la idea.", "spanish"),
    ("Ieri ho parlato con Anna del viaggio a Lisbona e lei era molto contenta.", "italian"),
    ("Ontem falei com a Ana sobre a viagem a Lisboa e ela ficou muito contente.", "portuguese"),
    ("Je pense que nous devons partir avant la nuit, mais il ne veut pas.", "french"),
    ("Oscar prefers morning meetings and restarted the gateway after the outage.", "english"),
    ("gateway ssh nginx", None),  # no list covers a fifth of these words
    ("", None),
])
def test_detect_language(text: str, language: str | None) -> None:
    assert detect_language([text]) == language


def test_a_french_cluster_gets_french_stopwords() -> None:
    members = [
        Member(1, "User: Donc je mets les ailerons au four pour la cuisson, mais pas trop longtemps ?", author="User"),
        Member(2, "Assistant: Oui, la cuisson des ailerons au four est simple : Donc comptez 40 minutes.",
               author="Assistant"),
        Member(3, "User: Est-ce que la marinade doit reposer pour les ailerons ? Donc avant la cuisson ?", author="User"),
    ]
    summary = summarize_cluster(members)
    # with English stopwords alone the last three were "donc", "est", "les"
    assert summary.key_terms == ["ailerons", "cuisson", "comptez", "longtemps", "marinade"]
    assert summary.people == []


def test_role_labels_and_line_starts_are_not_names_or_terms() -> None:
    members = [
        Member(1, "User: The dashboard card shows the battery.\nFailed to load the entity.", author="User"),
        Member(2, "Assistant: The battery state is read by the Zigbee bridge.\nFailed to parse it.",
               author="Assistant"),
        Member(3, "User: Now the battery card works with the Zigbee bridge, thanks to Ana and Ana's script.",
               author="User"),
        Member(4, "Assistant: Ana wrote the battery template, and the Zigbee bridge uses it.", author="Assistant"),
    ]
    summary = summarize_cluster(members, known_people={"ana": "Ana"})
    # "User:"/"Assistant:" are the speakers' labels, not terms nor people; "Zigbee" recurs
    # mid-sentence but is no name the store knows
    assert summary.people == ["Ana"]
    assert summary.key_terms == ["battery", "bridge", "zigbee", "card", "failed"]  # a product is a term


def test_labels_inside_summaries_are_not_key_terms() -> None:
    # an upper-level cluster summarises summaries, whose chosen sentences keep their labels
    members = [
        Member(1, "Summary of 3 memories (key terms: oven, ribs)\n- User: the ribs go in the oven\n"
                  "- Assistant: ribs need two hours"),
        Member(2, "Summary of 2 memories (key terms: grill, ribs)\n- User: the grill finishes the ribs\n"
                  "- Note: glaze at the end"),
    ]
    assert summarize_cluster(members).key_terms == ["ribs", "end", "finishes", "glaze", "grill"]
    every = summarize_cluster(members, max_terms=50).key_terms
    # neither the labels nor the members' own "Summary of N memories (key terms: ...)" lines
    assert not {"user", "assistant", "summary", "memories", "key", "terms"} & set(every)
    assert "note" in every  # "Note:" is nobody's label here: it stays a word


# --------------------------------------------------------------------------- budget


def test_budget_truncates_a_lone_long_sentence() -> None:
    long = "The migration plan " + " ".join(f"step{i}" for i in range(200)) + "."
    summary = summarize_cluster([Member(1, long, datetime(2023, 1, 1))], max_sentences=3, max_chars=200)
    assert len(summary.text) <= 200
    assert summary.sentences[0][1].endswith("…")
    assert summary.text.endswith(summary.sentences[0][1])


def test_a_central_sentence_too_long_for_the_room_does_not_block_others() -> None:
    members = [
        Member(1, "Tea: " + "green tea sencha matcha tea " * 8 + "tea."),
        Member(2, "Ana drinks green tea."),
        Member(3, "Matcha tea is whisked."),
    ]
    full = summarize_cluster(members, max_sentences=1, max_chars=600)
    assert full.sentences[0][0] == 1  # most central when it fits
    tight = summarize_cluster(members, max_sentences=2, max_chars=len(full.text) - 10)
    assert len(tight.text) <= len(full.text) - 10
    assert [mid for mid, _ in tight.sentences] == [2, 3]


def test_header_sheds_terms_when_budget_is_tiny() -> None:
    summary = summarize_cluster(GATEWAY_BILLING, max_chars=40)
    assert len(summary.text) <= 40
    assert summary.text.startswith("Summary of 5 memories")


words = st.sampled_from(
    ["gateway", "billing", "Ana", "Oscar", "restart", "disk", "invoice", "the", "a", "is", "was", "on", "at", "Friday", "crash", "export", "ok.", ".", "!", "?", "é", "中文", "e.g."]
)
contents = st.lists(words, min_size=0, max_size=40).map(" ".join)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(contents, st.none() | st.sampled_from(["Ana", "Oscar", "user"])), min_size=1, max_size=8),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=0, max_value=400),
    st.booleans(),
)
def test_budget_never_exceeded(
    raw: list[tuple[str, str | None]], max_sentences: int, max_chars: int, with_embeddings: bool
) -> None:
    rng = np.random.default_rng(len(raw))
    members = []
    for i, (content, author) in enumerate(raw):
        vec = rng.normal(size=DIM).astype(np.float32) if with_embeddings else None
        if vec is not None:
            vec /= np.linalg.norm(vec)
        members.append(Member(i + 1, content, datetime(2023, 1, 1) + timedelta(days=i), author, vec))
    summary = summarize_cluster(members, max_sentences, max_chars)
    assert len(summary.text) <= max_chars
    assert len(summary.sentences) <= max_sentences
    assert summary == summarize_cluster(list(reversed(members)), max_sentences, max_chars)
    for member_id, sentence in summary.sentences:
        source = next(m.content for m in members if m.id == member_id)
        assert sentence.rstrip("…").strip() and (sentence in source or sentence.endswith("…"))


# --------------------------------------------------------------------------- external


PAYLOAD = cluster_payload(GATEWAY_BILLING[:2], max_sentences=2, max_chars=300)


def test_cluster_payload_shape() -> None:
    assert PAYLOAD["max_sentences"] == 2 and PAYLOAD["max_chars"] == 300
    assert PAYLOAD["members"][0] == {
        "id": 1,
        "content": GATEWAY_BILLING[0].content,
        "event_at": "2023-05-01T09:00:00",
        "author": "Ana",
    }


def test_external_summarizer_reads_json_on_stdin() -> None:
    script = (
        "import json, sys; d = json.load(sys.stdin); "
        "print('  ' + ' | '.join(str(m['id']) + ':' + m['author'] for m in d['members']) + ' é\\n')"
    )
    assert run_external_summarizer([sys.executable, "-c", script], PAYLOAD, timeout=20) == "1:Ana | 2:Oscar é"


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys; print('partial'); print('Traceback...\\nValueError: no API key', file=sys.stderr); sys.exit(3)",
         "exited with status 3: ValueError: no API key"),
        ("import sys; sys.stdin.read(); print('   ')", "produced no output"),
        ("import sys; sys.exit(0)", "produced no output"),
    ],
)
def test_external_summarizer_failures(script: str, message: str) -> None:
    with pytest.raises(SummarizerError) as err:
        run_external_summarizer([sys.executable, "-c", script], PAYLOAD, timeout=20)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def _gone(pid: int, patience: float = 30.0) -> bool:
    """True once no process (or only a zombie) has this pid.

    SIGKILL is delivered asynchronously: on a loaded machine the process may still be listed for a
    moment, so this polls (a bound against hanging, not a speed check)."""
    deadline = time.monotonic() + patience
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def test_external_summarizer_timeout_kills_it(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = f"import os, time; open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(300)"
    with pytest.raises(SummarizerError, match=r"timed out after 0\.5s"):
        run_external_summarizer([sys.executable, "-c", script], PAYLOAD, timeout=0.5)
    if pidfile.exists():  # on a loaded machine the child may not have started its first line yet
        assert _gone(int(pidfile.read_text()))


def test_external_summarizer_timeout_kills_grandchildren_holding_the_pipe(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    grandchild = f"import os, time; open({str(pidfile)!r}, 'w').write(str(os.getpid())); time.sleep(300)"
    script = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {grandchild!r}])"
    with pytest.raises(SummarizerError, match="timed out"):
        run_external_summarizer([sys.executable, "-c", script], PAYLOAD, timeout=0.5)
    # returning at all proves the held pipe did not block us for the grandchild's 300 s
    if pidfile.exists():
        assert _gone(int(pidfile.read_text()))


def test_external_summarizer_missing_command() -> None:
    with pytest.raises(SummarizerError, match="could not be started"):
        run_external_summarizer(["/nonexistent/summarizer-xyz"], PAYLOAD, timeout=5)
    with pytest.raises(SummarizerError, match="no summarizer command"):
        run_external_summarizer([], PAYLOAD, timeout=5)


def test_payload_with_aware_dates_is_json() -> None:
    m = Member(1, "x", datetime(2023, 1, 1, tzinfo=timezone(timedelta(hours=2))))
    assert cluster_payload([m])["members"][0]["event_at"] == "2023-01-01T00:00:00+02:00"
