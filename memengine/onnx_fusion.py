"""Fuse the exported MiniLM graph's attention and GELU into onnxruntime's own kernels.

The pinned model is a torch export: each layer's attention is ~40 small nodes (reshapes,
transposes, a mask built from shapes, ``Softmax``, ``IsNaN``/``Where``) and its GELU five
(``Div``, ``Erf``, ``Add``, ``Mul``, ``Mul``). onnxruntime's graph optimiser fuses neither
pattern here, and the int8 form runs one text per call, so these element-wise passes cost
~1/8 of an embedding. This rewrites them, on the float graph before it is quantized, into
``com.microsoft.MultiHeadAttention`` (queries, keys and values as the export computes them,
same scale, the attention mask as key padding) and ``com.microsoft.Gelu``. The weights and
every MatMul are untouched, so the quantized form has the same weights; only the float
arithmetic order of attention and GELU changes: vectors equal the unfused ones within float
noise (cosine >= 0.99999 on real text, tests/test_embed_fusion.py), and per text on one core
12 / 89 / 256 tokens cost 8 / 6 / 12 % less (bench/README.md, "Import speed").

Pattern matching is strict: a layer whose nodes are not exactly the expected shape is left
as it is (the rewrite reports how many it fused), so another export runs unfused, never wrong.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

MS_DOMAIN = "com.microsoft"
MASK_I32 = "mem_fusion_mask_i32"


class _Graph:
    """Producer / consumer / constant look-ups over an ``onnx.GraphProto``."""

    def __init__(self, graph: Any) -> None:
        from onnx import numpy_helper

        self.graph = graph
        self.inits = {i.name: i for i in graph.initializer}
        self.prod: dict[str, Any] = {o: n for n in graph.node for o in n.output}
        self.cons: dict[str, list[Any]] = defaultdict(list)
        for n in graph.node:
            for name in n.input:
                self.cons[name].append(n)
        self._to_array = numpy_helper.to_array

    def scalar(self, name: str) -> float | None:
        """The value of a one-element constant initializer, else None."""
        init = self.inits.get(name)
        if init is None:
            return None
        arr = self._to_array(init)
        return float(arr.reshape(-1)[0]) if arr.size == 1 else None

    def producer(self, name: str, op: str) -> Any:
        """The node of type ``op`` producing ``name``, or None."""
        node = self.prod.get(name)
        return node if node is not None and node.op_type == op else None

    def only_consumer(self, name: str, op: str) -> Any:
        """The single consumer of ``name`` when it is of type ``op``, else None."""
        users = self.cons.get(name, [])
        return users[0] if len(users) == 1 and users[0].op_type == op else None


def _unshape(g: _Graph, name: str) -> str:
    """Walk back through Reshape / Transpose nodes to the tensor they rearrange."""
    node = g.prod.get(name)
    while node is not None and node.op_type in ("Reshape", "Transpose"):
        name = node.input[0]
        node = g.prod.get(name)
    return name


def _attention(g: _Graph, pv: Any) -> tuple[str, str, str, float, str] | None:
    """(q, k, v, scale, context) for an attention core ending in MatMul ``pv``, else None.

    Expected: context = Reshape(Transpose(MatMul(Where(IsNaN, 0, Softmax(Add(MatMul(q*s, k*s),
    mask))), V))) with q, k, V reshaped/transposed per head from [batch, seq, hidden] tensors.
    """
    if pv.input[1] in g.inits:
        return None
    tr = g.only_consumer(pv.output[0], "Transpose")
    out = g.only_consumer(tr.output[0], "Reshape") if tr is not None else None
    where = g.producer(pv.input[0], "Where")
    if out is None or where is None or len(where.input) != 3:
        return None
    softmax = g.producer(where.input[2], "Softmax")
    masked = g.producer(softmax.input[0], "Add") if softmax is not None else None
    scores = g.producer(masked.input[0], "MatMul") if masked is not None else None
    if scores is None:
        return None
    q_mul, k_mul = g.producer(scores.input[0], "Mul"), g.producer(scores.input[1], "Mul")
    if q_mul is None or k_mul is None:
        return None
    s_q, s_k = g.scalar(q_mul.input[1]), g.scalar(k_mul.input[1])
    if s_q is None or s_k is None or not math.isfinite(s_q * s_k):
        return None
    q, k, v = (_unshape(g, n) for n in (q_mul.input[0], k_mul.input[0], pv.input[1]))
    if any(g.prod.get(x) is None or g.prod[x].op_type != "Add" for x in (q, k, v)):
        return None  # expected the projections' bias Add (a [batch, seq, hidden] tensor)
    return q, k, v, s_q * s_k, out.output[0]


def _gelu(g: _Graph, erf: Any) -> tuple[str, str] | None:
    """(x, output) for 0.5 * x * (1 + erf(x / sqrt 2)) around ``erf``, else None."""
    div = g.producer(erf.input[0], "Div")
    add = g.only_consumer(erf.output[0], "Add")
    half = g.only_consumer(add.output[0], "Mul") if add is not None else None
    times_x = g.only_consumer(half.output[0], "Mul") if half is not None else None
    if div is None or add is None or half is None or times_x is None:
        return None
    x = div.input[0]
    root2 = g.scalar(div.input[1])
    if root2 is None or abs(root2 - math.sqrt(2)) > 1e-6:
        return None
    if g.scalar(_other(add, erf.output[0])) != 1.0 or g.scalar(_other(half, add.output[0])) != 0.5:
        return None
    if _other(times_x, half.output[0]) != x:
        return None
    return x, times_x.output[0]


def _other(node: Any, name: str) -> str:
    """The input of a two-input node that is not ``name``."""
    return str(node.input[1] if node.input[0] == name else node.input[0])


def fuse(model: Any, num_heads: int) -> tuple[int, int]:
    """Rewrite ``model`` (an ``onnx.ModelProto``, float) in place; return (attentions, gelus) fused."""
    from onnx import TensorProto, helper

    g = _Graph(model.graph)
    new_nodes: list[Any] = []
    replaced: set[str] = set()
    n_att = 0
    for node in list(model.graph.node):
        if node.op_type != "MatMul":
            continue
        found = _attention(g, node)
        if found is None:
            continue
        q, k, v, scale, ctx = found
        new_nodes.append(helper.make_node("MultiHeadAttention", [q, k, v, "", MASK_I32], [ctx], domain=MS_DOMAIN,
                                          num_heads=num_heads, scale=scale, name=f"mem_fused_attention_{n_att}"))
        replaced.add(ctx)
        n_att += 1
    n_gelu = 0
    for node in list(model.graph.node):
        found_g = _gelu(g, node) if node.op_type == "Erf" else None
        if found_g is None:
            continue
        x, out = found_g
        new_nodes.append(helper.make_node("Gelu", [x], [out], domain=MS_DOMAIN, name=f"mem_fused_gelu_{n_gelu}"))
        replaced.add(out)
        n_gelu += 1
    if not new_nodes:
        return 0, 0
    if n_att:
        new_nodes.append(helper.make_node("Cast", ["attention_mask"], [MASK_I32], to=TensorProto.INT32,
                                          name="mem_fused_mask_cast"))
    kept = [n for n in model.graph.node if not set(n.output) & replaced]
    _replace_nodes(model, kept + new_nodes)
    if not any(o.domain == MS_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
    return n_att, n_gelu


def _replace_nodes(model: Any, nodes: list[Any]) -> None:
    """Set the graph's nodes to the live ones of ``nodes`` in topological order; drop dead initializers."""
    graph = model.graph
    prod = {o: n for n in nodes for o in n.output}
    live: dict[int, Any] = {}
    stack = [o.name for o in graph.output]
    while stack:
        node = prod.get(stack.pop())
        if node is None or id(node) in live:
            continue
        live[id(node)] = node
        stack.extend(i for i in node.input if i)
    ready = {i.name for i in graph.input} | {i.name for i in graph.initializer} | {""}
    ordered: list[Any] = []
    pending = [n for n in nodes if id(n) in live]
    while pending:
        rest = []
        for n in pending:
            if all(i in ready for i in n.input):
                ordered.append(n)
                ready.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            raise ValueError("fused graph has a cycle or a missing input")
        pending = rest
    del graph.node[:]
    graph.node.extend(ordered)
    used = {i for n in ordered for i in n.input}
    inits = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(inits)
