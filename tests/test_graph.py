"""Graph strategies on small hand-built graphs: exact orders, inhibition, budgets, exports."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

import memory_core as core
from memengine import graph, graph_nav, graph_rank
from tests.conftest import run_cli


def _mem(store: core.MemoryStore, text: str, **kw: object) -> int:
    return store.store(text, "semantic", dedup=False, **kw).id  # type: ignore[arg-type]


def _edge(store: core.MemoryStore, a: int, b: int, w: float, t: str = "explicit") -> None:
    graph_nav.link(store, a, b, t, w)


@pytest.fixture
def chain(store: core.MemoryStore) -> dict[str, int]:
    """A -0.9- B -0.8- C -0.9- E ; A -0.4- D ; A -0.2- F (below threshold)."""
    ids = {n: _mem(store, f"node {n} alpha{n} unique{n}") for n in "ABCDEF"}
    _edge(store, ids["A"], ids["B"], 0.9)
    _edge(store, ids["B"], ids["C"], 0.8)
    _edge(store, ids["C"], ids["E"], 0.9)
    _edge(store, ids["A"], ids["D"], 0.4)
    _edge(store, ids["A"], ids["F"], 0.2)
    return ids


def _order(scores: dict[int, float], names: dict[str, int]) -> list[str]:
    back = {v: k for k, v in names.items()}
    return [back[i] for i in sorted(scores, key=lambda i: (-scores[i], i))]


def test_multihop_exact_order_and_decay(store: core.MemoryStore, chain: dict[str, int]) -> None:
    adj = graph.Adjacency(store, threshold=0.3)
    walk = graph.multihop(adj, {chain["A"]: 1.0}, hops=2, decay=0.5)
    assert _order(walk.score, chain) == ["A", "B", "D", "C"]  # E is 3 hops away, F below threshold
    assert walk.score[chain["B"]] == pytest.approx(0.45)
    assert walk.score[chain["D"]] == pytest.approx(0.2)
    assert walk.score[chain["C"]] == pytest.approx(0.18)
    walk3 = graph.multihop(adj, {chain["A"]: 1.0}, hops=3, decay=0.5)
    assert _order(walk3.score, chain) == ["A", "B", "D", "C", "E"]
    assert [s["id"] for s in walk3.path[chain["E"]]] == [chain["A"], chain["B"], chain["C"], chain["E"]]


def test_threshold_and_deleted_neighbours_not_followed(store: core.MemoryStore, chain: dict[str, int]) -> None:
    adj = graph.Adjacency(store, threshold=0.1)
    assert chain["F"] in graph.multihop(adj, {chain["A"]: 1.0}, hops=1).score
    store.forget(chain["B"])
    walk = graph.multihop(graph.Adjacency(store, threshold=0.3), {chain["A"]: 1.0}, hops=3)
    assert set(walk.score) == {chain["A"], chain["D"]}


def test_fanout_cap_keeps_strongest(store: core.MemoryStore) -> None:
    hub = _mem(store, "hub")
    leaves = [_mem(store, f"leaf {i}") for i in range(30)]
    for i, leaf in enumerate(leaves):
        _edge(store, hub, leaf, 0.4 + i * 0.01)
    adj = graph.Adjacency(store, threshold=0.3, fanout_cap=25)
    nb = adj.neighbours([hub])[hub]
    assert [v for v, _, _ in nb] == list(reversed(leaves))[:25]
    assert adj.fan[hub] == 30


def test_activation_fanout_normalisation_and_max_merge(store: core.MemoryStore) -> None:
    a, b = _mem(store, "seed a"), _mem(store, "seed b")
    n = [_mem(store, f"a child {i}") for i in range(4)]
    m = _mem(store, "b child")
    for x in n:
        _edge(store, a, x, 1.0)
    _edge(store, b, m, 1.0)
    z = _mem(store, "shared child")
    _edge(store, a, z, 1.0)
    _edge(store, b, z, 1.0)
    seeds = {a: 1.0, b: 0.8}
    adj = graph.Adjacency(store)
    walk = graph.spread_activation(adj, seeds, iterations=1, decay=0.6, fanout_power=0.5, inhibition=0)
    # a has fan-out 5, b has 2: a child gets 1.0*0.6/√5, b's child 0.8*0.6/√2
    assert walk.score[n[0]] == pytest.approx(0.6 / 5 ** 0.5)
    assert walk.score[m] == pytest.approx(0.48 / 2 ** 0.5)
    assert walk.score[m] > walk.score[n[0]]
    # max-merge: z hears from both seeds, keeps the larger, never the sum
    assert walk.score[z] == pytest.approx(max(0.6 / 5 ** 0.5, 0.48 / 2 ** 0.5))
    # a seed never drops below its own score (b hears 0.6/√5·... from nobody; a stays 1.0)
    assert walk.score[a] == 1.0 and walk.score[b] == 0.8
    plain = graph.spread_activation(graph.Adjacency(store), seeds, iterations=1, decay=0.6, fanout_power=0.0,
                                    inhibition=0)
    assert plain.score[n[0]] == pytest.approx(0.6) and plain.score[n[0]] > plain.score[m]


def test_lateral_inhibition_focuses_on_the_stronger_group(store: core.MemoryStore) -> None:
    a, a1, a2 = _mem(store, "a"), _mem(store, "a1"), _mem(store, "a2")
    b, b1 = _mem(store, "b"), _mem(store, "b1")
    _edge(store, a, a1, 0.9)
    _edge(store, a1, a2, 0.9)
    _edge(store, b, b1, 1.0)
    groups = {a: "g1", a1: "g1", a2: "g1", b: "g2", b1: "g2"}
    seeds = {a: 1.0, a1: 0.9, b: 0.7}
    off = graph.spread_activation(graph.Adjacency(store), seeds, iterations=1, decay=0.6, fanout_power=0,
                                  inhibition=0, groups=groups)
    on = graph.spread_activation(graph.Adjacency(store), seeds, iterations=1, decay=0.6, fanout_power=0,
                                 inhibition=1.0, groups=groups)
    assert off.score[b1] == pytest.approx(0.42) and off.score[a2] == pytest.approx(0.486)
    # g1 strength = 1.0 + 0.9 + 0.486 = 2.386; g2 = 0.7 + 0.42 = 1.12 → factor 1.12/2.386
    f = 1.12 / 2.386
    assert on.score[b1] == pytest.approx(0.42 * f, rel=1e-3)
    assert on.score[b] == 0.7  # seeds keep their own score
    assert on.score[a2] == pytest.approx(0.486)  # the leading group is untouched
    assert on.inhibited[b1] == pytest.approx(f, rel=1e-3)


def test_competing_groups_fallbacks(store: core.MemoryStore) -> None:
    now = core.to_iso(core.utcnow())
    x, y, z, w = (_mem(store, "clustered"), _mem(store, "in episode", thread="t1"),
                  _mem(store, "threaded", thread="t1"), _mem(store, "alone"))
    ep = _mem(store, "the episode")
    store.conn.execute("INSERT INTO clusters(id, level, created_at, updated_at) VALUES (7, 1, ?, ?)", (now, now))
    store.conn.execute("INSERT INTO cluster_members(cluster_id, memory_id, added_at) VALUES (7, ?, ?)", (x, now))
    store.conn.commit()
    _edge(store, y, ep, 1.0, "part_of")
    g = graph.competing_groups(store, [x, y, z, w])
    assert g == {x: "cluster:7", y: f"episode:{ep}", z: "thread:t1", w: f"memory:{w}"}


def test_recall_strategies_end_to_end(store: core.MemoryStore, chain: dict[str, int]) -> None:
    res = store.recall("alphaA uniqueA", k=4, strategy="graph", seed_k=1, touch=False, explain=True)
    assert [m.id for m in res.results] == [chain[n] for n in ("A", "B", "D", "C")]
    assert res.strategy == "graph"
    assert res.results[3].explain is not None and res.results[3].explain["hops"] == 2
    act = store.recall("alphaA uniqueA", k=3, strategy="activation", seed_k=1, touch=False, explain=True)
    assert [m.id for m in act.results] == [chain[n] for n in ("A", "B", "D")]
    assert "explicit" in act.results[1].explain["path"]  # type: ignore[index]
    with pytest.raises(core.UserError):
        store.recall("x", strategy="activation", bogus=1)


def test_a_linked_cause_without_query_words_joins_the_top_among_distractors(store: core.MemoryStore) -> None:
    import random

    rng = random.Random(1)
    topics = "deploy billing gateway kubernetes postgres cache frontend oncall backup dns".split()
    words = "service cluster latency error restart config migration ticket customer release".split()
    store.store_many(core.NewMemory(f"{t}: the {rng.choice(words)} {rng.choice(words)} for {t} changed on day {i}")
                     for i, t in enumerate(rng.choice(topics) for _ in range(400)))
    outage = _mem(store, "The checkout outage on Friday took the shop down for two hours")
    cause = _mem(store, "Nightly log rotation was disabled, so the disk on db-7 filled up")
    graph_nav.link(store, cause, outage, "causal", 0.9)
    query = "why was there a checkout outage on Friday?"
    hybrid = [m.id for m in store.recall(query, k=10, touch=False).results]
    assert hybrid[0] == outage and cause not in hybrid  # no word in common with the query
    for strategy in ("graph", "activation"):
        ids = [m.id for m in store.recall(query, k=10, strategy=strategy, touch=False).results]
        assert ids[:2] == [outage, cause], strategy


def test_seed_support_over_drawn_links_only(store: core.MemoryStore) -> None:
    a, b, c, d = (_mem(store, f"memory {n}") for n in "abcd")
    _edge(store, a, b, 0.9, "explicit")
    _edge(store, b, a, 0.7, "causal")  # the same pair again: counted once, at its strongest
    _edge(store, b, c, 0.5, "causal")
    _edge(store, a, c, 0.9, "semantic")  # automatic: no support
    seeds = {a: 1.0, b: 0.5, c: 0.6, d: 0.7}
    got = graph.seed_support(store, seeds)
    assert got == pytest.approx({a: 0.1 * 0.9 * 0.5, b: 0.1 * 0.9 * 1.0 + 0.1 * 0.5 * 0.6, c: 0.1 * 0.5 * 0.5})
    assert graph.seed_support(store, seeds, beta=0.0) == {}
    assert graph.seed_support(store, {a: 1.0}) == {}


def test_a_linked_seed_rises_above_an_unlinked_one(store: core.MemoryStore) -> None:
    # three answers to one question; the user linked the first two
    top = _mem(store, "kickboxing class tuesday evening kickboxing")
    linked = _mem(store, "taekwondo belt exam kickboxing")
    other = _mem(store, "kickboxing gloves shop")
    for i in range(30):
        _mem(store, f"filler note {i} about gardening and tomatoes")
    graph_nav.link(store, top, linked, "explicit", 0.9)
    # no walk (hops 0): the seeds' own scores, then support alone
    plain = store.recall("kickboxing", k=3, strategy="activation", hops=0, support=0.0, touch=False)
    assert [m.id for m in plain.results] == [top, other, linked]
    res = store.recall("kickboxing", k=3, strategy="activation", hops=0, support=0.5, touch=False, explain=True)
    assert [m.id for m in res.results] == [top, linked, other]
    why = res.results[1].explain
    assert why is not None and why["support"] == pytest.approx(0.45, abs=1e-4)
    assert res.results[1].score == pytest.approx(why["seed_score"] + 0.45, abs=1e-3)


def test_bridge_returns_connected_but_dissimilar(store: core.MemoryStore) -> None:
    a = _mem(store, "quantum physics lecture notes")
    b = _mem(store, "grandmother baking recipe")
    c = _mem(store, "quantum physics lecture summary")
    _edge(store, a, b, 0.9)
    res = store.recall("quantum physics lecture", k=5, strategy="bridge", seed_k=2, touch=False)
    ids = [m.id for m in res.results]
    assert ids == [b] and c not in ids


def test_hubs_traversed_not_returned(store: core.MemoryStore) -> None:
    a, b = _mem(store, "zebra stripes"), _mem(store, "giraffe neck")
    ep = store.store("zebra stripes giraffe neck", "episodic", metadata={"kind": "episode"}, dedup=False).id
    _edge(store, a, ep, 1.0, "part_of")
    _edge(store, b, ep, 1.0, "part_of")
    res = store.recall("zebra", k=5, strategy="graph", seed_k=1, touch=False)
    assert ep not in [m.id for m in res.results]
    assert b in [m.id for m in res.results]  # reached through the episode (2 hops)
    assert ep in [m.id for m in store.recall("zebra", k=5, strategy="graph", seed_k=1, touch=False, hubs=True).results]


def test_structural_context(store: core.MemoryStore) -> None:
    now = core.to_iso(core.utcnow())
    a, b, s, ps = _mem(store, "member a"), _mem(store, "member b"), _mem(store, "summary"), _mem(store, "parent summary")
    store.conn.execute("INSERT INTO clusters(id, level, created_at, updated_at, summary_memory_id, label) "
                       "VALUES (1, 2, ?, ?, ?, 'top')", (now, now, ps))
    store.conn.execute("INSERT INTO clusters(id, level, parent_id, created_at, updated_at, summary_memory_id, label) "
                       "VALUES (2, 1, 1, ?, ?, ?, 'leaf')", (now, now, s))
    for m in (a, b):
        store.conn.execute("INSERT INTO cluster_members(cluster_id, memory_id, added_at) VALUES (2, ?, ?)", (m, now))
    store.conn.commit()
    _edge(store, a, b, 0.7, "causal")
    ctx = graph_nav.structural_context(store, [a])[a]
    assert ctx["cluster"]["id"] == 2 and ctx["cluster"]["summary"]["id"] == s
    assert ctx["cluster"]["parent"]["summary"]["id"] == ps
    assert ctx["siblings"] == [b]
    assert ctx["links"] == [{"id": b, "type": "causal", "weight": 0.7, "direction": "out"}]
    tree = graph_nav.browse(store)
    assert [r["id"] for r in tree["roots"]] == [1]
    assert [c["id"] for c in graph_nav.browse(store, 1)["cluster"]["children"]] == [2]
    with pytest.raises(core.NotFound):
        graph_nav.browse(store, 99)


def test_pagerank_star_and_personalisation() -> None:
    pr = graph_rank.personalised_pagerank([1, 2, 3, 4], [(1, 2, 1.0), (1, 3, 1.0), (1, 4, 1.0)], {})
    assert max(pr, key=pr.__getitem__) == 1
    assert sum(pr.values()) == pytest.approx(1.0, abs=1e-6)
    pers = graph_rank.personalised_pagerank([1, 2, 3, 4], [(1, 2, 1.0), (1, 3, 1.0), (1, 4, 1.0)], {2: 1.0})
    assert pers[2] > pers[3] == pytest.approx(pers[4])


def test_brief_never_exceeds_budget_and_orders_sections(store: core.MemoryStore) -> None:
    pinned = store.store("the api key lives in the vault", "semantic", pinned=True).id
    low = _mem(store, "minor detail about lunch", importance=0.1)
    high = _mem(store, "Oscar leads the compiler project", importance=0.9)
    for i in range(40):
        _mem(store, f"filler memory number {i} with several words in it", importance=0.3)
    a, b = _mem(store, "the meeting is on monday"), _mem(store, "the meeting is on tuesday")
    store.conn.execute("INSERT INTO contradictions(memory_a, memory_b, kind, reason, detected_at) "
                       "VALUES (?, ?, 'value', 'different day', ?)", (min(a, b), max(a, b), core.to_iso(core.utcnow())))
    store.conn.commit()
    count, how = graph_rank.token_counter(store)
    for budget in (1, 5, 12, 30, 80, 200):
        out = graph_rank.brief(store, budget)
        assert out["tokens"] <= budget
        assert count(out["text"]) <= budget
    full = graph_rank.brief(store, 10_000)
    facts = [p["id"] for p in full["sections"]["facts"]]
    assert facts[0] == pinned and high in facts and low not in facts
    assert full["sections"]["contradictions"][0]["why"] == {"contradiction": 1}
    assert "different day" in full["sections"]["contradictions"][0]["text"]
    assert full["text"].index("### Key facts") < full["text"].index("### Open contradictions")
    assert low in [m["id"] for m in full["chosen"]]  # with room for everything, the topics hold the rest
    with pytest.raises(core.UserError):
        graph_rank.brief(store, 0)


def test_surface_excludes_stated_and_redundant(store: core.MemoryStore) -> None:
    stated = _mem(store, "Ana Lisbon trip")
    dup1 = _mem(store, "Ana booked flights to Lisbon for the trip in May")
    dup2 = _mem(store, "Ana booked flights to Lisbon for the trip in May!")
    other = _mem(store, "Ana recommends the pastel de nata bakery in Lisbon")
    out = graph_rank.surface(store, "we could ask Ana about the Lisbon trip", k=3)
    ids = [r["id"] for r in out["results"]]
    assert stated in out["excluded_as_stated"] and stated not in ids
    assert "Ana" in out["entities"] and "Lisbon" in out["entities"]
    assert not (dup1 in ids and dup2 in ids)  # MMR: near-copies never both
    assert other in ids


def test_hebbian_edges_from_recall(store: core.MemoryStore) -> None:
    a, b = _mem(store, "kiwi fruit"), _mem(store, "kiwi bird")
    for _ in range(30):
        store.recall("kiwi", k=2)
    w = store.conn.execute("SELECT weight FROM associations WHERE edge_type = 'reinforces'").fetchone()[0]
    assert w == pytest.approx(core.HEBB_MAX)  # bounded
    assert {a, b} == set(store.conn.execute("SELECT source_id, target_id FROM associations").fetchone())


# --------------------------------------------------------------------------- CLI


def _env(db: str) -> dict[str, str]:
    return {"MEM_DB": db}


def _data(proc: object) -> object:
    return json.loads(proc.stdout)["data"]  # type: ignore[attr-defined]


@pytest.fixture
def cli_db(tmp_path: object, store: core.MemoryStore) -> str:
    for text in ("parser crashed on unicode", "fixed parser by escaping quotes", "Oscar <b>&\"quoted\"</b> notes"):
        _mem(store, text)
    store.close()
    return str(store.path)


def test_cli_link_unlink_graph_and_errors(cli_db: str) -> None:
    e = _env(cli_db)
    assert run_cli("link", "1", "2", "--type", "causal", "--weight", "0.9", env=e).returncode == 0
    assert run_cli("link", "2", "3", env=e).returncode == 0
    show = _data(run_cli("graph", "1", "--hops", "2", env=e))
    assert [n["id"] for n in show["nodes"]] == [1, 2, 3]  # type: ignore[index]
    assert [n["depth"] for n in show["nodes"]] == [0, 1, 2]  # type: ignore[index]
    missing = run_cli("link", "1", "99", env=e)
    assert missing.returncode == 3 and "99" in json.loads(missing.stdout)["error"]["message"]
    assert run_cli("link", "1", "1", env=e).returncode == 1
    assert run_cli("unlink", "1", "2", "--type", "causal", env=e).returncode == 0
    assert run_cli("unlink", "1", "2", env=e).returncode == 3
    assert run_cli("graph", "--help", env=e).returncode == 0
    r = run_cli("recall", "parser", "--strategy", "activation", "--explain", "--context", env=e)
    assert r.returncode == 0 and _data(r)["results"][0]["context"] is not None  # type: ignore[index]


def test_cli_recall_context_for_people(cli_db: str) -> None:
    e = {**_env(cli_db), "COLUMNS": "200"}
    assert run_cli("link", "1", "2", "--type", "causal", "--weight", "0.9", env=e).returncode == 0
    out = run_cli("recall", "parser crashed", "-k", "3", "--context", "--plain", "--no-touch", env=e)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "#1: links →#2 causal 0.9" in lines and "#2: links ←#1 causal 0.9" in lines
    assert "#3: no cluster, episode or links yet" in lines


def test_cli_store_with_links_is_one_transaction(cli_db: str) -> None:
    e = _env(cli_db)
    made = run_cli("store", "the test suite had no unicode names", "--link", "1", "--link", "2",
                   "--link-type", "causal", "--link-weight", "0.9", env=e)
    assert made.returncode == 0, made.stderr
    data = _data(made)
    assert data["id"] == 4 and data["links"] == [  # type: ignore[index]
        {"target_id": 1, "edge_type": "causal", "weight": 0.9}, {"target_id": 2, "edge_type": "causal", "weight": 0.9}]
    show = _data(run_cli("graph", "4", env=e))
    assert sorted((x["source"], x["target"], x["type"]) for x in show["edges"]) == [  # type: ignore[index]
        (4, 1, "causal"), (4, 2, "causal")]
    # a missing target: exit 3 and nothing written, neither the memory nor the other link
    missing = run_cli("store", "a brand new fact", "--link", "1", "--link", "99", env=e)
    assert missing.returncode == 3 and "99" in json.loads(missing.stdout)["error"]["message"]
    assert _data(run_cli("stats", env=e))["memories"] == 4  # type: ignore[index]
    assert run_cli("store", "x", "--link", "1", "--link-weight", "2", env=e).returncode == 2  # click's range check
    # storing a known fact links the existing memory; a link to itself is skipped
    again = _data(run_cli("store", "parser crashed on unicode", "--link", "1", "--link", "3", env=e))
    assert again["id"] == 1 and again["deduplicated"] and again["links"] == [  # type: ignore[index]
        {"target_id": 3, "edge_type": "explicit", "weight": 0.8}]
    human = run_cli("store", "one more fact about quotes", "--link", "3", "--plain", env=e)
    assert human.stdout.splitlines() == ["stored #5", "linked #5 -[explicit 0.8]-> #3"]


def test_store_links_validated_before_anything_is_written(store: core.MemoryStore) -> None:
    a = _mem(store, "first")
    with pytest.raises(core.UserError, match="--link-type must be one of"):
        store.store("second", links=[(a, "friendship", 0.5)])
    with pytest.raises(core.NotFound):
        store.store("second", links=[(a, "explicit", 0.5), (a + 7, "explicit", 0.5)])
    assert store.conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 1
    assert store.conn.execute("SELECT count(*) FROM associations").fetchone()[0] == 0


_DOT_NODE = re.compile(r'^\s*(\d+) \[label="((?:[^"\\]|\\.)*)", type="(\w+)"\];$')
_DOT_EDGE = re.compile(r'^\s*(\d+) -> (\d+) \[label="(\w+)", weight=([\d.]+)\];$')


def parse_dot(text: str) -> tuple[set[int], list[tuple[int, int, str]]]:
    """A tiny parser for the DOT subset we emit; raises on anything else."""
    lines = text.strip().splitlines()
    assert lines[0] == "digraph mem {" and lines[-1] == "}"
    nodes, edges = set(), []
    for line in lines[1:-1]:
        if line.strip() == "node [shape=box];":
            continue
        if m := _DOT_NODE.match(line):
            nodes.add(int(m.group(1)))
        elif m := _DOT_EDGE.match(line):
            edges.append((int(m.group(1)), int(m.group(2)), m.group(3)))
        else:
            raise AssertionError(f"unparseable DOT line: {line!r}")
    assert all(a in nodes and b in nodes for a, b, _ in edges)
    return nodes, edges


def test_cli_exports_parse(cli_db: str) -> None:
    e = _env(cli_db)
    run_cli("link", "1", "2", "--type", "causal", env=e)
    run_cli("link", "2", "3", env=e)
    dot = run_cli("graph", "export", "--format", "dot", env=e)
    assert dot.returncode == 0
    nodes, edges = parse_dot(dot.stdout)
    assert nodes == {1, 2, 3} and (1, 2, "causal") in edges
    gml = run_cli("graph", "export", "--format", "graphml", "--around", "1", "--hops", "1", env=e)
    root = ET.fromstring(gml.stdout.split("?>", 1)[1])
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    assert {n.get("id") for n in root.iter(f"{ns}node")} == {"n1", "n2"}
    assert [(x.get("source"), x.get("target")) for x in root.iter(f"{ns}edge")] == [("n1", "n2")]
    js = json.loads(run_cli("graph", "export", "--format", "json", env=e).stdout)
    assert {n["id"] for n in js["nodes"]} == {1, 2, 3} and len(js["edges"]) == 2
    assert run_cli("graph", "export", "--format", "png", env=e).returncode == 2


def test_cli_brief_browse_surface(cli_db: str) -> None:
    e = _env(cli_db)
    b = _data(run_cli("brief", "--budget", "12", env=e))
    assert b["tokens"] <= 12  # type: ignore[index]
    assert _data(run_cli("browse", env=e)) == {"cluster": None, "roots": []}
    assert run_cli("browse", "5", env=e).returncode == 3
    s = run_cli("surface", "the parser again", env=e)
    assert s.returncode == 0 and "results" in _data(s)  # type: ignore[operator]
