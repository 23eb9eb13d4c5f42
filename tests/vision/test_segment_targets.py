"""The card finder's training targets (models/train/finder.py): cores of touching and
overlapping cards must come apart, the card mask must not; no torch needed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.train.finder import (
    CROP,
    CROWD_SEEDS,
    ROW_SEEDS,
    SMALL_CARD_MAX_WEIGHT,
    SMALL_CORE,
    Scenes,
    _batch,
    _masks,
    crowded_scene,
    row_scene,
    scene_sample,
    small_card_weights,
)


def _blobs(mask: np.ndarray) -> int:
    return cv2.connectedComponents((mask > 127).astype(np.uint8))[0] - 1


def test_touching_and_overlapping_cards_have_separate_cores() -> None:
    left = np.array([[20, 20], [70, 20], [70, 90], [20, 90]], np.float64)
    touching = left + np.array([50, 0])
    overlapping = left + np.array([90, 0])  # lies on `touching`, covering 10 of its 50 pixels
    nothing = np.zeros((120, 200), bool)
    card, core = _masks([left, touching, overlapping], nothing, (120, 200))
    assert _blobs(card) == 1
    assert _blobs(core) == 3


def test_things_on_top_are_cut_out_of_the_card() -> None:
    quad = np.array([[20, 20], [70, 20], [70, 90], [20, 90]], np.float64)
    hand = np.zeros((120, 200), bool)
    hand[:, 40:50] = True
    card, core = _masks([quad], hand, (120, 200))
    assert not card[:, 40:50].any() and not core[:, 40:50].any()
    assert _blobs(card) == 2


def test_scene_sample_shapes_and_held_out_seeds() -> None:
    image, targets = scene_sample(3)
    assert image.shape == (192, 320, 3) and image.dtype == np.uint8
    assert targets.shape == (2, 96, 160) and targets.dtype == np.uint8
    assert (targets[1] <= targets[0].astype(int) + 1).all()  # the core lies in the card
    with pytest.raises(ValueError, match="held out"):
        scene_sample(5_000_000)


def test_run_scale_samples_are_scaled_as_the_runtime_scales_frames() -> None:
    image, targets = scene_sample(7, None)  # a whole 1280x720 frame: 416x234, padded
    assert image.shape == (240, 416, 3)
    assert targets.shape == (2, 120, 208)


def test_crowded_scenes_are_full_tables_of_small_cards() -> None:
    for seed in range(3):
        spec = crowded_scene(np.random.default_rng(seed))
        assert 8 <= len(spec.cards) <= 15  # a card that finds no room is left out
        assert all(50.0 * 0.93 <= card.length <= 190.0 for card in spec.cards)
    image, targets = scene_sample(CROWD_SEEDS, None)  # seeds from CROWD_SEEDS on
    assert image.shape == (240, 416, 3) and targets.shape == (2, 120, 208)
    assert (targets[1] > 127).sum() > 0


def test_row_tables_lay_their_cards_touching_in_rows() -> None:
    from companion.vision.geometry import quad_iou
    from companion.vision.synth import render_scene

    spec = row_scene(np.random.default_rng(2))
    assert 6 <= len(spec.cards) <= 15
    _, truths = render_scene(spec)
    # a row's cards touch or overlap: a card's quad grown by a tenth meets a neighbour's
    # (a player's row may hold one card alone, which touches none)
    grown = [t.corners.mean(0) + 1.1 * (t.corners - t.corners.mean(0)) for t in truths]
    in_rows = [
        any(quad_iou(g, other.corners) > 0 for other in truths if other is not t)
        for g, t in zip(grown, truths, strict=True)
    ]
    assert sum(in_rows) >= len(truths) // 2
    _, targets = scene_sample(ROW_SEEDS, None)  # seeds from ROW_SEEDS on
    assert targets.shape[0] == 2 and (targets[1] > 127).sum() > 0


def test_small_cards_weigh_more_in_the_loss() -> None:
    targets = np.zeros((1, 2, 60, 80), np.float32)
    targets[0, :, 5:25, 5:35] = 1.0  # a big core: 600 output pixels
    targets[0, :, 40:44, 50:55] = 1.0  # a small one: 20
    weights = small_card_weights(targets)[0]
    assert weights[15, 20] == 1.0 and weights[2, 70] == 1.0  # big card, bare table
    assert weights[42, 52] == pytest.approx(np.sqrt(SMALL_CORE / 20))
    assert weights[39, 52] == weights[42, 52]  # the small card's rim too
    targets[0, :, 40:44, 50:55] = 0.0
    targets[0, :, 42, 52] = 1.0  # a core of one pixel: capped
    assert small_card_weights(targets)[0, 42, 52] == SMALL_CARD_MAX_WEIGHT


def test_batches_crop_each_scene_within_its_own_size() -> None:
    inputs = np.zeros((2, 240, 416, 3), np.uint8)
    inputs[0, :192, :320] = 200  # a smaller scene padded with zeros
    inputs[1] = 100
    targets = np.zeros((2, 2, 120, 208), np.uint8)
    scenes = Scenes(inputs, targets, np.array([[192, 320], [240, 416]]))
    rng = np.random.default_rng(0)
    for _ in range(20):
        x, y = _batch(scenes, rng, 8)
        assert x.shape == (8, 3, *CROP) or x.shape == (8, 3, *CROP[::-1])
        assert (x.reshape(8, -1).min(axis=1) > 0).all()  # never the padding
        assert y.shape[2:] == (x.shape[2] // 2, x.shape[3] // 2)
