"""topic_names.runs: the word runs a topic is named from (pinned exactly: the fast path for the
single space between words and the per-word cache must not change them)."""
from __future__ import annotations

from memengine import topic_names


def test_runs_of_a_chat_line() -> None:
    text = "[12/03/2024, 10:15] Ana: the deploy-gateway restart  failed!! ok lol; invoice runners' job at 14th"
    got = topic_names.runs(text, frozenset({"the", "at"}), {"ana"})
    assert list(got.items()) == [
        (("deploy",), "deploy"), (("gateway",), "gateway"), (("restart",), "restart"),
        (("deploy", "gateway"), "deploy gateway"), (("gateway", "restart"), "gateway restart"),
        (("deploy", "gateway", "restart"), "deploy gateway restart"),
        (("invoice",), "invoice"), (("runner",), "runners"), (("job",), "job"),
        (("invoice", "runner"), "invoice runners"), (("runner", "job"), "runners job"),
        (("invoice", "runner", "job"), "invoice runners job"),
    ]


def test_a_run_breaks_at_punctuation_a_stop_word_and_a_name() -> None:
    got = topic_names.runs("billing service. billing Oscar service with billing service", frozenset({"with"}), {"oscar"})
    assert list(got) == [("billing",), ("service",), ("billing", "service")]
