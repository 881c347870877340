"""The leave-one-out arithmetic of bench/loo.py: a held-out fold never chooses for itself."""

from __future__ import annotations

from bench.loo import Item, chat_groups, held_out, loo_choose, objective, paired_se


def _items() -> list[Item]:
    out = []
    for fold, n in (("conv-a", 2), ("conv-b", 2), ("conv-c", 2)):
        out += [Item("locomo", fold, f"L:{fold}:{i}", None, "q", ["e"], False) for i in range(n)]
    for fold, n in (("chat-x", 3), ("chat-y", 1)):
        out += [Item("realchat", fold, f"R:{fold}:{i}", None, "q", ["e"], i == 0) for i in range(n)]
    return out


def _scores(items: list[Item], good: set[str]) -> dict[str, dict[str, float]]:
    """recall@5 1.0 on the folds in ``good``, 0.0 elsewhere."""
    return {it.key: {"recall@5": 1.0 if it.fold in good else 0.0, "recall@10": 1.0, "mrr": 0.5, "all@10": 1.0}
            for it in items}


def test_each_fold_is_scored_by_the_choice_of_the_others() -> None:
    items = _items()
    # A is best on conv-a only; B on every other fold: every fold but conv-a picks B, and
    # conv-a (held out) picks B too, so its held-out score is B's there: 0.
    variants = {"A*": _scores(items, {"conv-a"}), "B": _scores(items, {"conv-b", "conv-c", "chat-x", "chat-y"})}
    chosen = loo_choose(items, variants)
    assert chosen == {"conv-a": "B", "conv-b": "B", "conv-c": "B", "chat-x": "B", "chat-y": "B"}
    ho = held_out(items, chosen, variants)
    assert [ho[it.key]["recall@5"] for it in items if it.fold == "conv-a"] == [0.0, 0.0]
    # the objective weighs the two sets the same, whatever their sizes
    assert objective(items, variants["A*"]) == (1 / 3 + 0) / 2


def test_own_set_training_ignores_the_other_set_and_ties_go_to_the_default() -> None:
    items = _items()
    variants = {"A*": _scores(items, {"conv-a", "conv-b", "conv-c"}), "B": _scores(items, {"chat-x", "chat-y"})}
    both = loo_choose(items, variants)
    own = loo_choose(items, variants, same_set_only=True)
    assert own["conv-a"] == "A*" and own["chat-x"] == "B"
    assert both["chat-x"] == "A*"  # 0.5 each on conv-a..c + chat-y: the tie goes to the default
    assert paired_se(items, variants["A*"], variants["A*"]) == 0.0


def test_real_chats_are_dealt_into_balanced_groups() -> None:
    items = _items()
    g = chat_groups(items)
    assert g["conv-a"] == "conv-a"
    assert g["chat-x"] != g["chat-y"] and g["chat-x"].startswith("real-chats-")
