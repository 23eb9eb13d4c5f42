"""Joining embedding nets into one file (`embed.join`): the reader's cosine similarity
becomes the mean of the nets' (needs the `train` extra: onnx, torch)."""

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("torch")

from onnx import TensorProto, helper  # noqa: E402

from companion.vision.features import EMBED_SIZE  # noqa: E402
from companion.vision.onnx_models import model_session  # noqa: E402
from models.train.embed import join  # noqa: E402


def _unit_projection(path: Path, seed: int) -> None:
    """A stand-in embedding net: the flattened card times a random matrix, unit length."""
    width, height = EMBED_SIZE
    weights = np.random.default_rng(seed).normal(size=(3 * height * width, 64)).astype(np.float32)
    nodes = [
        helper.make_node("Flatten", ["cards"], ["flat"]),
        helper.make_node("MatMul", ["flat", "w"], ["z"]),
        helper.make_node("ReduceL2", ["z", "axis"], ["norm"], keepdims=1),
        helper.make_node("Div", ["z", "norm"], ["embedding"]),
    ]
    graph = helper.make_graph(
        nodes,
        "projection",
        [helper.make_tensor_value_info("cards", TensorProto.FLOAT, ["batch", 3, height, width])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", 64])],
        [
            helper.make_tensor("w", TensorProto.FLOAT, weights.shape, weights.ravel()),
            helper.make_tensor("axis", TensorProto.INT64, [1], [1]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 10
    onnx.save(model, str(path))


def test_joined_similarity_is_the_mean_of_the_nets(tmp_path: Path) -> None:
    parts = [tmp_path / "a.onnx", tmp_path / "b.onnx"]
    for seed, path in enumerate(parts):
        _unit_projection(path, seed)
    join(parts, tmp_path / "joined.onnx")
    width, height = EMBED_SIZE
    cards = np.random.default_rng(9).random((5, 3, height, width), np.float32)
    alone = [model_session(p).run(None, {"cards": cards})[0] for p in parts]
    (joined,) = model_session(tmp_path / "joined.onnx").run(None, {"cards": cards})
    assert joined.shape == (5, 128)
    np.testing.assert_allclose(np.linalg.norm(joined, axis=1), 1, atol=1e-5)
    mean_similarity = (alone[0] @ alone[0][:1].T + alone[1] @ alone[1][:1].T) / 2
    np.testing.assert_allclose(joined @ joined[:1].T, mean_similarity, atol=1e-5)
