"""The shipped ONNX models: present in the package, small, CPU-runnable, any batch size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.vision import corner_index, segment
from companion.vision.features import CORNER_SIZE, EMBED_SIZE, WHOLE_SIZE
from companion.vision.onnx_models import MODELS_DIR, model_session
from companion.vision.read import EMBED_MODEL, INDEX_MODEL, PLAYING_MODEL, WHOLE_MODEL

MAX_BYTES = 2 * 1024 * 1024


SHIPPED = [
    PLAYING_MODEL,
    INDEX_MODEL,
    WHOLE_MODEL,
    EMBED_MODEL,
    segment.MODEL,
    segment.BACKS_MODEL,
    segment.ENROLLED_BACKS_MODEL,
    segment.CLOSE_UP_MODEL,
    corner_index.MODEL,
]


REPO_MODELS = Path(__file__).resolve().parents[2] / "models"


def test_every_model_in_models_is_shipped_through_a_link() -> None:
    """The models live in models/ with their cards; the package reaches them by links."""
    in_repo = {p.name for p in REPO_MODELS.glob("*.onnx")}
    assert in_repo == {p.name for p in SHIPPED}
    for name in in_repo:
        link = MODELS_DIR / name
        assert link.is_symlink(), f"{link} should link to models/{name}"
        assert link.resolve() == (REPO_MODELS / name).resolve()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_model_is_one_small_file_with_a_supported_opset(path) -> None:
    assert path.is_file(), f"{path} missing: see models/README.md"
    assert path.stat().st_size < MAX_BYTES
    onnx = pytest.importorskip("onnx")  # in the `train` extra; the runtime needs only ORT
    model = onnx.load(str(path), load_external_data=False)
    assert all(not t.external_data for t in model.graph.initializer)
    assert max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) <= 21


@pytest.mark.parametrize(
    ("path", "size", "name"),
    [
        (PLAYING_MODEL, CORNER_SIZE, "corners"),
        (INDEX_MODEL, CORNER_SIZE, "corners"),
        (WHOLE_MODEL, WHOLE_SIZE, "cards"),
    ],
    ids=("corners", "index", "whole face"),
)
def test_playing_models_take_any_batch_and_give_probabilities(path, size, name) -> None:
    session = model_session(path)
    width, height = size
    for batch in (1, 7, 30):
        x = np.random.default_rng(batch).random((batch, 3, height, width), np.float32)
        rank, suit = session.run(None, {name: x})
        assert rank.shape == (batch, 15) and suit.shape == (batch, 4)
        np.testing.assert_allclose(rank.sum(axis=1), 1, atol=1e-4)
        np.testing.assert_allclose(suit.sum(axis=1), 1, atol=1e-4)


def test_embedding_model_gives_unit_vectors_for_any_batch() -> None:
    session = model_session(EMBED_MODEL)
    width, height = EMBED_SIZE
    for batch in (1, 15):
        x = np.random.default_rng(batch).random((batch, 3, height, width), np.float32)
        (z,) = session.run(None, {"cards": x})
        assert z.shape[0] == batch
        np.testing.assert_allclose(np.linalg.norm(z, axis=1), 1, atol=1e-3)


def test_embedding_model_joins_two_unit_embeddings() -> None:
    """Two nets' unit embeddings side by side, each scaled by 1/sqrt(2) (`embed.join`), so
    that a cosine similarity is the mean of the two nets'."""
    width, height = EMBED_SIZE
    x = np.random.default_rng(3).random((6, 3, height, width), np.float32)
    (z,) = model_session(EMBED_MODEL).run(None, {"cards": x})
    assert z.shape == (6, 128)
    for half in (z[:, :64], z[:, 64:]):
        np.testing.assert_allclose(np.linalg.norm(half, axis=1), 2**-0.5, atol=1e-3)


@pytest.mark.parametrize(
    ("path", "channels"),
    [
        (segment.MODEL, 2),
        (segment.BACKS_MODEL, 2),
        (segment.ENROLLED_BACKS_MODEL, 2),
        (segment.CLOSE_UP_MODEL, 2),
        (corner_index.MODEL, 5),
    ],
    ids=("finder", "playing deck's finder", "enrolled backs' finder", "close-up finder", "index"),
)
def test_map_models_take_any_frame_in_multiples_of_16(path, channels) -> None:
    session = model_session(path)
    for height, width in ((240, 416), (240, 320), (64, 96)):
        x = np.random.default_rng(height).random((1, 3, height, width), np.float32) * 255
        (maps,) = session.run(None, {"image": x})
        assert maps.shape == (1, channels, height // 2, width // 2)
