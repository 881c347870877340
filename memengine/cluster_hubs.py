"""Hubs out of consolidate's level-1 clustering: a pair is close for *these* two memories, not for the store.

Short chat turns ("same, my umbrella died", "morning superstar", "ok 4 of us") are embedded near one
another whatever they say: a sentence model puts every short ``Name: few words`` turn near a common
"chat" direction, so their cosines run high (0.44 on average between two short turns of a two-person
chat, against 0.20 between two of its long ones) and average linkage at a fixed threshold groups the
small talk while each piece of news ("I got the offer from Fieldnote!! ...", "Kwik Motors quoted £420
...") stays alone or in a pair, outside every topic (bench/README.md, "Brief, round 6"). The same
holds for generic notes among specific ones.

The fix is the hubness correction of cross-domain similarity local scaling (CSLS, Conneau et al.
2018), kept at the store's level: each memory's *hubness* ``h`` is the mean cosine to its
``HUB_K`` nearest neighbours in the batch clustered, and two memories are as close as

    cos(x, y) - HUB_WEIGHT * ((h_x + h_y) / 2 - mean(h))

— a pair of memories that are close to everything (hubs) must be closer than the threshold says, a
pair of memories that are close to little needs less. A batch where every memory is as much a hub as
the others is left as it was (the mean is added back), so the threshold keeps its meaning.
"""

from __future__ import annotations

import numpy as np

HUB_K = 20  # neighbours whose mean cosine is a memory's hubness (0: no correction)
HUB_WEIGHT = 1.0  # share of the correction applied (1: CSLS's own)
HUB_MIN_ROWS = 4  # a batch of fewer rows has no neighbourhood to speak of: left as it is


def corrected(sim: np.ndarray, k: int | None = None, weight: float | None = None) -> np.ndarray:
    """``sim`` (a square cosine matrix, float64; modified in place and returned) less each pair's mean
    hubness above the batch's mean hubness (see the module docstring). The diagonal is left as it is."""
    k = HUB_K if k is None else k
    weight = HUB_WEIGHT if weight is None else weight
    n = len(sim)
    if k <= 0 or weight == 0 or n < HUB_MIN_ROWS:
        return sim
    k = min(k, n - 1)
    diag = sim.diagonal().copy()
    np.fill_diagonal(sim, -np.inf)
    # the k largest of each row (its k nearest neighbours), without sorting the row
    hub = np.partition(sim, n - k, axis=1)[:, n - k:].mean(axis=1)
    np.fill_diagonal(sim, diag)
    excess = weight * (hub - hub.mean()) / 2.0
    sim -= excess[:, None]
    sim -= excess[None, :]
    np.fill_diagonal(sim, diag)
    return sim
