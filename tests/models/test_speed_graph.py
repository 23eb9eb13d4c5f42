"""The exact graph rewrites that make onnxruntime's kernels cheaper (`models/train/
speed_graph.py`): the same outputs, the same initializers, and a second run changes
nothing."""

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from companion.vision.onnx_models import model_session  # noqa: E402
from models.train.speed_graph import rewrite  # noqa: E402


def _small_unet_piece(path: Path) -> None:
    """conv 3->12 (3x3), ReLU, max pool, nearest upsampling, 1x1 conv 12->5: the U-Net's
    lateral projection after an upsampling, and a 12-channel layer to pad."""
    rng = np.random.default_rng(0)
    weights = {
        "c1.weight": rng.normal(size=(12, 3, 3, 3)),
        "c1.bias": rng.normal(size=12),
        "c2.weight": rng.normal(size=(5, 12, 1, 1)),
        "c2.bias": rng.normal(size=5),
        "scales": np.array([1, 1, 2, 2]),  # of the nearest upsampling
    }
    nodes = [
        helper.make_node("Conv", ["image", "c1.weight", "c1.bias"], ["a"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["a"], ["b"]),
        helper.make_node("MaxPool", ["b"], ["c"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Resize", ["c", "", "scales"], ["d"], mode="nearest"),
        helper.make_node("Conv", ["d", "c2.weight", "c2.bias"], ["maps"]),
    ]
    initializers = [numpy_helper.from_array(v.astype(np.float32), k) for k, v in weights.items()]
    graph = helper.make_graph(
        nodes,
        "piece",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("maps", TensorProto.FLOAT, [1, 5, 16, 16])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 10
    onnx.save(model, str(path))


@pytest.mark.parametrize("pad", [False, True])
def test_the_rewritten_graph_computes_the_same_with_the_same_weights(tmp_path, pad) -> None:
    plain, fast = tmp_path / "plain.onnx", tmp_path / "fast.onnx"
    _small_unet_piece(plain)
    _small_unet_piece(fast)
    rewrite(fast, pad=pad)
    image = np.random.default_rng(1).random((1, 3, 16, 16), np.float32)
    (want,) = model_session(plain).run(None, {"image": image})
    (got,) = model_session(fast).run(None, {"image": image})
    np.testing.assert_allclose(got, want, atol=1e-5)
    ops = [node.op_type for node in onnx.load(str(fast)).graph.node]
    assert ops.index("Resize") > ops.index("Conv", ops.index("MaxPool"))  # 1x1 conv first
    assert ("Pad" in ops) == pad  # the 12 channels padded to 16
    before = {i.name: tuple(i.dims) for i in onnx.load(str(plain)).graph.initializer}
    after = {i.name: tuple(i.dims) for i in onnx.load(str(fast)).graph.initializer}
    assert before.items() <= after.items()  # what the training code loads, as exported
    once = fast.read_bytes()
    rewrite(fast, pad=pad)
    assert fast.read_bytes() == once
