"""A back one corner of which lies under a face read for sure (`fusion.covered_backs`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.vision import fusion
from companion.vision.bench.scenes import synthetic_scenes
from companion.vision.corner_index import corner_patches
from companion.vision.decks import PLAYING_CARDS, load_deck
from companion.vision.fusion.covered_backs import covered_backs
from companion.vision.fusion.reading import FrameReads
from companion.vision.geometry import quad_iou
from companion.vision.pipeline import CardPipeline
from companion.vision.playing_views import BACK_CLASS, NONE_CLASS, covered_back
from companion.vision.types import NOT_A_CARD, CardReading


def _sure_of(k: int, p: float) -> np.ndarray:
    """Rank probabilities of one view, sure of class k with probability p."""
    rank = np.full(15, (1 - p) / 14, np.float32)
    rank[k] = p
    return rank


@pytest.mark.parametrize(
    ("corners", "whole", "seen"),
    [
        (((BACK_CLASS, 0.96), (NONE_CLASS, 0.4)), 0.93, 1),  # a neighbour's paper there
        (((2, 0.3), (BACK_CLASS, 0.95)), 0.92, 0),  # a neighbour's print there
        (((BACK_CLASS, 0.96), (3, 0.8)), 0.93, None),  # a face in sight in that corner
        (((BACK_CLASS, 0.96), (NONE_CLASS, 0.4)), 0.85, None),  # the whole face unsure
        (((BACK_CLASS, 0.96), (BACK_CLASS, 0.6)), 0.93, None),  # both corners a back
    ],
)
def test_the_views_of_a_back_with_a_covered_corner(corners, whole, seen) -> None:
    rank_p = np.stack([_sure_of(k, p) for k, p in corners])
    found = covered_back(rank_p, _sure_of(BACK_CLASS, whole))
    if seen is None:
        assert found is None
    else:
        confidence, corner = found
        assert corner == seen and 0.9 <= confidence <= 0.96


def test_a_corner_patch_is_the_corner_readers_patch_in_the_frame() -> None:
    quad = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    top_left = corner_patches(quad[None], 0)[0]
    assert np.allclose(top_left, [[0, 0], [25, 0], [25, 41.67], [0, 41.67]], atol=0.01)
    bottom_right = corner_patches(quad[None], 1)[0]
    assert np.allclose(bottom_right, [[100, 140], [75, 140], [75, 98.33], [100, 98.33]], atol=0.01)


def _frame(candidate: np.ndarray) -> FrameReads:
    """A frame whose quad `candidate` was read as no card, and whose reader sees in any quad
    a back with its first corner covered."""
    reader = SimpleNamespace(
        deck=SimpleNamespace(kind=PLAYING_CARDS),
        covered_backs=lambda image, quads: [(0.95, 0)] * len(quads),
    )
    unsure = CardReading(candidate, "up", None, None, NOT_A_CARD, 0.6)
    image = np.zeros((400, 600, 3), np.uint8)
    return FrameReads(image, reader, None, [], {}, {candidate.tobytes(): unsure})


FACE = CardReading(
    np.float32([[0, 0], [100, 0], [100, 140], [0, 140]]), "up", 3, "hearts", "3 of hearts", 1.0
)


@pytest.mark.parametrize(
    ("candidate", "stands"),
    [
        (np.float32([[80, 110], [180, 110], [180, 250], [80, 250]]), True),  # corner on it
        (np.float32([[120, 110], [220, 110], [220, 250], [120, 250]]), False),  # beside it
        (np.float32([[80, 110], [280, 110], [280, 250], [80, 250]]), False),  # no card's shape
        (np.float32([[80, 110], [150, 110], [150, 208], [80, 208]]), False),  # too small
    ],
)
def test_a_back_stands_only_under_a_face_of_its_size(candidate, stands) -> None:
    kept = covered_backs(_frame(candidate), [FACE])
    backs = [reading for reading in kept if reading.label == "back"]
    assert len(backs) == stands
    assert kept[0] is FACE


def test_a_covered_back_on_a_rendered_table() -> None:
    """Tuning scene 4,200,877: a back 150 px long, a corner under an 8 of diamonds, read as
    an unsure face until the back's own corner and face were heard."""
    image, truths = next(synthetic_scenes("playing-cards", 1, 4_200_877))
    back = np.float32([[1097, 169], [1105, 79], [1249, 76], [1240, 170]])
    assert any(t.face == "down" and quad_iou(t.corners, back) > 0.9 for t in truths)
    pipeline = CardPipeline(load_deck("playing-cards"))
    readings = pipeline.read(image)
    assert any(r.label == "back" and quad_iou(r.corners, back) >= 0.5 for r in readings)


def test_without_the_rule_that_back_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = next(synthetic_scenes("playing-cards", 1, 4_200_877))
    back = np.float32([[1097, 169], [1105, 79], [1249, 76], [1240, 170]])
    monkeypatch.setattr(fusion, "covered_backs", lambda frame, kept: kept)
    readings = CardPipeline(load_deck("playing-cards")).read(image)
    assert not any(r.label == "back" and quad_iou(r.corners, back) >= 0.5 for r in readings)
