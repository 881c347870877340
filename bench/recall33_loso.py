"""Issue 19, round 33: the bridge's constants chosen by leave-one-SET-out over the dev sets and held-outs 19-30.

bench/recall32_loso.py's protocol (folds: LoCoMo's five dev conversations, the real-chat dev set's chats, each
held-out chat set; each fold's choice is the variant with the best mean of the sets' recall@5 on all other folds),
with round 33's grid over memengine/recall/bridge.py (``RecallConfig.bridge``, ``bridge_floor``, ``w_bridge``) and
held-out 30 among the sets. The bridge changes the keyword side, so each variant is its own retrieval (loo.py's
``Scorer`` keys retrievals by RETRIEVAL_FIELDS).

    python bench/recall33_loso.py --reuse /tmp/recall33/ws --grid bridge
    python bench/recall33_loso.py --reuse DIR --grid final

``DIR/loo`` holds the dev stores (bench/loo.py's ``--reuse``), ``DIR/base-hNN`` the held-outs' stores.
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench import loo, recall32_loso  # noqa: E402
from memory_core import RecallConfig  # noqa: E402

HELDOUTS = ("19", "20", "21", "22", "23", "24", "28", "30")
D = RecallConfig()


def grids() -> dict[str, dict[str, RecallConfig]]:
    """Round 33's grids (the step off is the base; the shipped default is marked *)."""
    def label(gate: str, floor: float, w: float) -> str:
        shipped = (gate, floor, w) == (D.bridge, D.bridge_floor, D.w_bridge)
        return f"{gate} {floor} {w}" + ("*" if shipped else "")

    off = replace(D, bridge="")
    bridge = {"off": off}
    for gate in ("all", "rare"):
        for floor in (0.4, 0.5):
            for w in (0.15, 0.3, 0.6):
                bridge[label(gate, floor, w)] = replace(D, bridge=gate, bridge_floor=floor, w_bridge=w)
    for floor, w in ((0.45, 0.3), (0.45, 0.6), (0.5, 0.45), (0.55, 0.3), (0.55, 0.6)):  # (second pass: around
        # the first pass's best on the dev sets)
        bridge[label("all", floor, w)] = replace(D, bridge="all", bridge_floor=floor, w_bridge=w)
    small = {"off": off}
    for gate, floor, w in (("all", 0.45, 0.3), ("rare", 0.45, 0.3), ("all", 0.5, 0.15)):
        small[label(gate, floor, w)] = replace(D, bridge=gate, bridge_floor=floor, w_bridge=w)
    final = {"off": off, label(D.bridge, D.bridge_floor, D.w_bridge): D}
    return {"bridge": bridge, "small": small, "final": final}


def objective(items: list[loo.Item], sc: dict[str, dict[str, float]]) -> float:
    """The mean of three groups' recall@5, each the same weight: LoCoMo dev, the real-chat dev set, and the held-out
    sets (the mean of each set's). Round 32's objective (every set the same weight) let eight held-out sets outvote
    both dev sets: its folds chose a variant losing LoCoMo 0.021."""
    groups: dict[str, list[float]] = {}
    for s in sorted({it.set for it in items}):
        r5 = statistics.fmean(sc[it.key]["recall@5"] for it in items if it.set == s)
        groups.setdefault("heldouts" if s.startswith("h") else s, []).append(r5)
    return statistics.fmean(statistics.fmean(v) for v in groups.values())


def main(argv: list[str] | None = None) -> int:
    """recall32_loso's table over this round's grids and held-outs (``--per-set``: round 32's objective)."""
    recall32_loso.HELDOUTS = HELDOUTS
    recall32_loso.grids = grids
    args_in = list(sys.argv[1:] if argv is None else argv)
    if "--per-set" in args_in:
        args_in.remove("--per-set")
    else:
        recall32_loso.objective = objective
    argv = args_in
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a.startswith("--sets") for a in args):
        args += ["--sets", ",".join(HELDOUTS)]
    return recall32_loso.main(args)


if __name__ == "__main__":
    raise SystemExit(main())
