"""Brief, round 26 (brief26): a small group's language. Two or three short turns tell no language (or the wrong one):
their stop words were English's alone, and a Dutch group was named "Zwaan bevestigd voor" (bench/data/brief_heldout18);
44 of the 620 stored groups of held-outs 1-19 were read as another language than their store's (34 as none)."""

from __future__ import annotations

from memengine import summarize


def test_a_small_group_reads_its_stores_stop_words_too() -> None:
    # a short Dutch exchange tells no language ("voor" would stand in its name): the store's Dutch reads it
    tiny = ["Gert: Zwaan bevestigd voor zaterdag", "Ans: top"]
    assert summarize.detect_language(tiny) is None
    assert "voor" not in summarize.stopwords_for(tiny)
    assert "voor" in summarize.stopwords_for(tiny, "dutch")
    polish = ["Kasia: zebranie wspólnoty w środę", "Tomek: będę"]
    assert "jest" not in summarize.stopwords_for(polish) and "jest" in summarize.stopwords_for(polish, "polish")
    # a group long enough to tell its own language keeps it; an English or unknown store adds nothing
    long = ["the garden needs a new fence before the winter, we ordered the panels from the shop in town"] * 3
    assert summarize.stopwords_for(long, "dutch") is summarize.STOPWORDS
    assert summarize.stopwords_for(tiny, "english") is summarize.stopwords_for(tiny, None) is summarize.STOPWORDS
