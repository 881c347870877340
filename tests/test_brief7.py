"""Brief, round 6: a reaction leads no topic (drawn-out cheers, thanks to a titled name), a title or a greeting
of another language names no topic, hubs' cosines corrected in consolidate's level-1 clustering, and the
brief's cosines computed only where it reads them."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

import memory_core as core
from memengine import brief_pool, brief_reactions, cluster_hubs, clustering, graph_rank, topic_names
from memengine import consolidate as cons
from memengine.timeparse import utcnow

NOW = utcnow().replace(microsecond=0)


@pytest.fixture
def store(tmp_path: Path) -> core.MemoryStore:
    s = core.MemoryStore(tmp_path / "m.db")
    yield s
    s.close()


@pytest.mark.parametrize("turn", ["Tobi: LETS GOOOO", "User: YESSS ok", "Dr Haas: merci Madame Dubois",
                                  "Greta Keller: danke schön!", "Pablo: igualmente", "Hana: im in lol"])
def test_cheers_and_thanks_are_reactions(turn: str) -> None:
    assert brief_reactions.is_reaction(turn)


@pytest.mark.parametrize("turn", ["Mme Dubois: THE LIFT WORKS AGAIN", "Tobi: car failed its MOT today",
                                  "Hana: found a flat!! 22 Ashgrove Road", "Karim: the radiators are cold"])
def test_news_is_no_reaction(turn: str) -> None:
    assert not brief_reactions.is_reaction(turn)


def test_a_title_or_a_greeting_names_no_topic() -> None:
    rare = topic_names.idf(lambda w: 1, 10)
    stop = frozenset({"on", "the", "is", "my", "i", "will", "ok", "says"})
    texts = ["Mrs. Nguyen on the 5th floor is my grandmother", "ok I will tell Mrs. Nguyen", "Mrs. Nguyen says thanks"]
    assert topic_names.name(texts, stop, {"nguyen"}, rare) == topic_names.MIXED  # "Mrs" alone names nobody
    assert topic_names.name(["merci Madame Dubois", "merci Dr Haas", "danke schön", "danke schön!"], stop,
                            {"dubois", "haas"}, rare) == topic_names.MIXED
    assert topic_names.name(["Frau Keller's boiler quote", "the boiler quote from Engie"], stop, set(), rare) \
        == "boiler quote"
    for title in ("Mrs", "Mrs.", "Herr", "Sra.", "Mme", "Frau", "Prof"):
        assert topic_names.is_title(title)
    assert not topic_names.is_title("Miss") and not topic_names.is_title("Keller")


def test_a_reaction_leads_no_topic(store: core.MemoryStore) -> None:
    # notes (no chat): a cheer in capitals is no reaction credit's business, and its capitals read as names
    lines = ["LETS GOOOO", "LETS GOOOO again", "LETS GOOOO again!"]
    for i, text in enumerate(lines * 2):
        store.store(text, "semantic", importance=0.3, event_at=NOW - timedelta(days=1, hours=-i), dedup=False)
    cons.run(store, now=NOW, keep_backups=0)
    data = graph_rank.brief(store, 2000, now=NOW)
    chosen = [i for i in data["chosen"] if i["section"] == "topics"]
    assert any("GOOOO" in i["text"] for i in chosen)  # still shown: budget is left and a topic holds it...
    assert not any(i["why"].get("lead") for i in chosen if "GOOOO" in i["text"])  # ...but it leads nothing
    assert not any(line.startswith("### ") and "GOOOO" in line for line in data["text"].splitlines())


def _hub_batch() -> np.ndarray:
    """Six short-turn-like vectors close to one common direction (mutual cosine ~0.62) and three pairs of
    specific ones (cosine 0.5 within a pair, 0 to the rest)."""
    rng = np.random.default_rng(7)
    dims = 64
    common = np.zeros(dims)
    common[0] = 1.0
    rows = []
    for _ in range(6):
        noise = rng.normal(size=dims)
        noise[0] = 0.0
        rows.append(np.sqrt(0.62) * common + np.sqrt(0.38) * noise / np.linalg.norm(noise))
    for p in range(3):
        base = np.zeros(dims)
        base[10 + 2 * p] = 1.0
        for _ in range(2):
            noise = np.zeros(dims)
            noise[40 + len(rows) % 20] = 1.0
            rows.append(np.sqrt(0.5) * base + np.sqrt(0.5) * noise)
    return np.asarray(rows, dtype=np.float32)


def test_hub_correction_keeps_a_specific_pair_over_hubs() -> None:
    x = _hub_batch().astype(np.float64)
    sim = x @ x.T
    plain = sim.copy()
    fixed = cluster_hubs.corrected(sim, k=3)
    assert fixed[0, 1] < plain[0, 1] - 0.05  # two hubs: needs more than the threshold says
    assert fixed[6, 7] > plain[6, 7] + 0.05  # a specific pair: needs less
    assert np.allclose(np.diag(fixed), np.diag(plain)) and np.allclose(fixed, fixed.T)
    same = np.full((5, 5), 0.6) + np.eye(5) * 0.4  # every row as much a hub: nothing moves
    assert np.allclose(cluster_hubs.corrected(same.copy(), k=3), same)
    assert np.array_equal(cluster_hubs.corrected(plain.copy(), k=0), plain)


def test_level_one_clusters_take_the_pairs_not_the_hubs(monkeypatch: pytest.MonkeyPatch) -> None:
    vecs = _hub_batch()
    monkeypatch.setattr(cluster_hubs, "HUB_K", 3)
    with_hubs = clustering._agglomerate(vecs, 0.45, hubs=True)
    without = clustering._agglomerate(vecs, 0.45)
    assert [0, 1, 2, 3, 4, 5] in without and not any(g[0] >= 6 for g in without)
    assert [6, 7] in with_hubs and [8, 9] in with_hubs and [10, 11] in with_hubs
    assert not any(set(g) & {0, 1, 2, 3, 4, 5} for g in with_hubs)


def test_parts_and_columns_from_unit_rows_match_the_full_matrix(store: core.MemoryStore) -> None:
    for i in range(30):
        store.store(f"note {i} about {'boilers' if i % 2 else 'gardens'} and item {i * 7}", "semantic",
                    dedup=False)
    pool = [(i, "", None, "/", 1, 0.0) for i in range(1, 31)]
    ids = [p[0] for p in pool]
    mat = brief_pool.unit_rows(store, ids)
    full = brief_pool.cosines(mat)
    assert np.array_equal(full, brief_pool.similarities(store, ids))
    for j in (0, 7, 29):
        assert np.allclose(brief_pool.cosine_column(mat, j), full[:, j], atol=1e-6)
    subj = brief_pool.subject_rows(store, ids, mat)
    assert brief_pool.parts(pool, None, 10, rows=subj) == brief_pool.parts(pool, brief_pool.cosines(subj), 10)


def test_a_plan_in_no_topic_is_still_shown(store: core.MemoryStore) -> None:
    lines = ["haha same here", "lol same here again", "haha same here again!"]
    for i, text in enumerate(lines * 2):  # small talk that clusters (the fake embedder groups the "again"s)
        store.store(f"Ana: {text}", "episodic", thread="chat", author="Ana",
                    event_at=NOW - timedelta(days=3, hours=-i), dedup=False)
    plan = store.store("Ben: the wedding is on Saturday 12 June 2027 at the Orangery, 2pm, RSVP by 1 May 2027",
                       "episodic", thread="chat", author="Ben", event_at=NOW - timedelta(days=2), dedup=False).id
    cons.run(store, now=NOW, keep_backups=0)
    in_topic = store.conn.execute(
        """SELECT count(*) FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
           WHERE cm.memory_id = ? AND c.status = 'active' AND c.level = 1""", (plan,)).fetchone()[0]
    assert in_topic == 0  # the news in no topic...
    data = graph_rank.brief(store, 300, now=NOW)
    shown = [i for i in data["chosen"] if i["id"] == plan]
    assert len(shown) == 1 and shown[0]["section"] == "upcoming"  # ...is still what the brief shows first
    assert "Saturday 12 June 2027" in data["text"].split("### People")[0]
