"""The corner-index finder's training targets (models/train/index_finder.py): a disc at
every visible index of a face-up playing card with the card's side vectors on it, nothing
taught at a half-covered index; no torch needed."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.corner_index import VECTOR_UNIT
from models.train.index_finder import MAX_INPUT, _disc, _shown_fraction, scene_sample


def test_scene_sample_shapes_and_held_out_seeds() -> None:
    image, target, vectors = scene_sample(600_001)  # a heap of big playing cards
    assert image.shape == (*MAX_INPUT, 3) and image.dtype == np.uint8
    out = (MAX_INPUT[0] // 2, MAX_INPUT[1] // 2)
    assert target.shape == (2, *out) and vectors.shape == (4, *out)
    on_index = target[0] > 0
    assert on_index.any()
    # vectors only on index discs, and there a card's sides: some output pixels long
    assert not vectors[:, ~on_index].any()
    sides = np.linalg.norm(vectors[:2, on_index].astype(np.float32), axis=0) * VECTOR_UNIT
    assert (sides > 3).all()
    with pytest.raises(ValueError, match="held out"):
        scene_sample(1_000_000)


def test_shown_fraction_counts_what_lies_on_top_and_the_border() -> None:
    card = np.ones((100, 100), bool)
    card[:, 50:] = False  # the right half is under another card
    inside = np.ones((100, 100), bool)
    square = np.float64([[30, 30], [70, 30], [70, 70], [30, 70]])
    assert _shown_fraction(card, inside, square) == pytest.approx(0.5, abs=0.05)
    inside[:50] = False  # and the top half out of the picture
    assert _shown_fraction(card, inside, square) == pytest.approx(0.25, abs=0.05)


def test_a_tiny_index_still_gets_a_pixel() -> None:
    layer = np.zeros((10, 10), np.uint8)
    disc = _disc(layer, np.array([4.5, 4.5]), np.array([1.0, 0.0]), np.array([0.0, 1.4]), 255)
    assert disc.sum() >= 1 and layer[disc].min() == 255
