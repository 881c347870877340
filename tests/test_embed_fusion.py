"""The int8 form with attention and GELU fused (memengine/onnx_fusion.py) embeds as the unfused one did."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import embedder
from embedder import OnnxEmbedder
from memengine import onnx_fusion

TEXTS = ["This is a test sentence.", "ok", "when does Oscar like to meet?",
         "To restart the gateway run openclaw gateway restart",
         "Ana García: the boat trip to the lake is on friday, see you tomorrow maybe",
         "Ana is allergic to peanuts and carries an epipen everywhere " * 30]  # past the 256-token cap


@pytest.fixture(scope="module")
def fused(tmp_path_factory: pytest.TempPathFactory) -> OnnxEmbedder:
    e = OnnxEmbedder(cache_dir=tmp_path_factory.mktemp("fused-cache"))
    e.embed(["warm up"])
    return e


@pytest.fixture(scope="module")
def unfused(tmp_path_factory: pytest.TempPathFactory) -> OnnxEmbedder:
    """The same derivation with the rewrite switched off (what recipe v1 ran)."""
    mp = pytest.MonkeyPatch()
    mp.setattr(embedder, "_fused", lambda folded: folded)
    try:
        e = OnnxEmbedder(cache_dir=tmp_path_factory.mktemp("unfused-cache"))
        e.embed(["warm up"])
    finally:
        mp.undo()
    return e


def ops(path: Path) -> Counter[str]:
    return Counter(n.op_type for n in onnx.load(str(path)).graph.node)


def test_every_layer_is_fused(fused: OnnxEmbedder, unfused: OnnxEmbedder) -> None:
    assert fused.runs is not None and unfused.runs is not None
    got, before = ops(fused.runs), ops(unfused.runs)
    assert got["MultiHeadAttention"] == 6 and got["Gelu"] == 6
    assert got["Erf"] == got["Softmax"] == got["Transpose"] == 0 and before["Softmax"] == 6
    assert got["MatMulInteger"] == before["MatMulInteger"] == 36  # the quantized weights are untouched


def test_vectors_equal_the_unfused_ones(fused: OnnxEmbedder, unfused: OnnxEmbedder) -> None:
    a, b = fused.embed(TEXTS), unfused.embed(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384)
    cos = (a * b).sum(axis=1)
    assert cos.min() > 0.99999, cos
    assert np.abs(a - b).max() < 1e-3


def test_a_failed_rewrite_derives_the_unfused_form_loudly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
        unfused: OnnxEmbedder) -> None:
    def broken(*_: object) -> tuple[int, int]:
        raise ValueError("fused graph has a cycle or a missing input")

    monkeypatch.setattr(onnx_fusion, "fuse", broken)
    e = OnnxEmbedder(cache_dir=tmp_path)
    v = e.embed(TEXTS[:2])
    assert "cannot fuse the model's attention (fused graph has a cycle or a missing input)" in capfd.readouterr().err
    assert e.runs is not None and ops(e.runs)["Softmax"] == 6
    assert np.array_equal(v, unfused.embed(TEXTS[:2]))


def gelu_graph(half: float) -> onnx.ModelProto:
    """y = half * x * (1 + erf(x / sqrt 2)) as the torch export writes it."""
    consts = [helper.make_tensor(n, TensorProto.FLOAT, [], [v]) for n, v in
              (("root2", 2 ** 0.5), ("one", 1.0), ("half", half))]
    nodes = [helper.make_node("Div", ["x", "root2"], ["d"]), helper.make_node("Erf", ["d"], ["e"]),
             helper.make_node("Add", ["e", "one"], ["a"]), helper.make_node("Mul", ["half", "a"], ["m"]),
             helper.make_node("Mul", ["x", "m"], ["y"])]
    vi = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in ("x", "y")]
    return helper.make_model(helper.make_graph(nodes, "g", [vi[0]], [vi[1]], consts), ir_version=8,
                             opset_imports=[helper.make_opsetid("", 17)])


def test_gelu_is_fused_only_when_the_constants_say_gelu() -> None:
    import onnxruntime as ort

    model = gelu_graph(0.5)
    assert onnx_fusion.fuse(model, 12) == (0, 1)
    assert [n.op_type for n in model.graph.node] == ["Gelu"] and not model.graph.initializer
    x = np.array([[-2.0, -0.5, 0.0], [0.3, 1.0, 4.0]], dtype=np.float32)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    want = np.array([[-0.0455003, -0.1542688, 0.0], [0.1853734, 0.8413447, 3.9998733]], dtype=np.float32)  # math.erf
    assert np.allclose(sess.run(None, {"x": x})[0], want, atol=1e-6)
    other = gelu_graph(0.6)
    assert onnx_fusion.fuse(other, 12) == (0, 0)
    assert [n.op_type for n in other.graph.node] == ["Div", "Erf", "Add", "Mul", "Mul"]
