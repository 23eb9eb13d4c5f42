"""find_cards on rendered scenes: light, dark and patterned tables, tilt, touching cards,
things that are not cards. Scenes are small and fixed, so the tests are fast and exact."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.detect import find_cards
from companion.vision.geometry import quad_iou
from companion.vision.synth import (
    CardSpec,
    DistractorSpec,
    HandSpec,
    Light,
    SceneSpec,
    render_scene,
)

SIZE = (960, 540)


def cards_in_a_row(deck: str = "playing-cards", y: float = 270.0, length: float = 130.0):
    """Five well separated cards, some face up, some down, at varied angles."""
    angles = (0.0, 35.0, 90.0, 160.0, 250.0)
    return tuple(
        CardSpec(
            deck=deck,
            rank=k + 1,
            suit="hearts" if deck == "playing-cards" else None,
            face="up" if k % 2 == 0 else "down",
            center=(130.0 + 175.0 * k, y),
            angle=angle,
            length=length,
        )
        for k, angle in enumerate(angles)
    )


def scene(table: str, cards=(), **kwargs) -> tuple[np.ndarray, list]:
    spec = SceneSpec(size=SIZE, table=table, seed=3, cards=tuple(cards), **kwargs)
    return render_scene(spec)


def assert_found_exactly(image: np.ndarray, truths: list, min_iou: float = 0.85) -> None:
    quads = find_cards(image)
    for truth in truths:
        best = max((quad_iou(q, truth.corners) for q in quads), default=0.0)
        assert best >= min_iou, f"card at {truth.center} found with IoU {best:.2f}"
    assert len(quads) == len(truths), f"{len(quads)} quads for {len(truths)} cards"


@pytest.mark.parametrize("table", ["plain-light", "plain-dark", "felt-green", "felt-dark"])
def test_plain_tables_light_and_dark(table):
    image, truths = scene(table, cards_in_a_row())
    assert_found_exactly(image, truths)


@pytest.mark.parametrize("table", ["wood-light", "wood-dark", "linen", "marble"])
def test_textured_tables(table):
    image, truths = scene(table, cards_in_a_row("animals"))
    assert_found_exactly(image, truths, min_iou=0.8)


def test_table_lighter_than_the_cards():
    # The classic threshold-and-contours detector finds nothing here: the cards are
    # darker than this brightly lit table.
    # A back's white margin barely differs from such a table: its quad may stop at the
    # printed pattern, a few pixels inside (IoU about 0.8), which the reader tolerates.
    image, truths = scene("plain-light", cards_in_a_row("animals"), light=Light(brightness=1.15))
    assert_found_exactly(image, truths, min_iou=0.78)


def test_tilted_camera():
    image, truths = scene("felt-dark", cards_in_a_row(), tilt=30.0, tilt_direction=90.0)
    assert_found_exactly(image, truths, min_iou=0.8)


def test_corners_are_accurate():
    image, truths = scene("plain-dark", cards_in_a_row(length=160.0))
    quads = find_cards(image)
    for truth in truths:
        errors = [_corner_error(q, truth.corners) for q in quads]
        assert min(errors) < 3.0


def test_touching_cards_are_split():
    cards = tuple(
        CardSpec(
            deck="animals",
            rank=k + 1,
            face="up",
            center=(330.0 + 101.0 * k, 270.0),
            angle=0.0,
            length=140.0,
        )
        for k in range(3)
    )
    image, truths = scene("felt-green", cards)
    assert_found_exactly(image, truths, min_iou=0.8)


def test_no_phantoms_from_things_that_are_not_cards():
    things = (
        DistractorSpec("coin", (150.0, 150.0), 60.0),
        DistractorSpec("chip", (400.0, 380.0), 80.0),
        DistractorSpec("pen", (700.0, 120.0), 200.0, angle=30.0),
    )
    hand = HandSpec(tip=(600.0, 330.0), angle=200.0, width=120.0)
    for table in ("wood-light", "plain-dark", "cloth-white"):
        image, _ = scene(table, (), distractors=things, hand=hand)
        assert find_cards(image) == [], table


def test_empty_and_odd_images():
    assert find_cards(np.zeros((300, 400, 3), np.uint8)) == []
    assert find_cards(np.full((50, 60), 200, np.uint8)) == []  # grey is accepted
    with pytest.raises(ValueError, match="uint8"):
        find_cards(np.zeros((10, 10, 3), np.float32))
    with pytest.raises(ValueError, match="H x W"):
        find_cards(np.zeros((10, 10, 2), np.uint8))


def test_quads_are_clockwise_short_side_first():
    image, _ = scene("plain-dark", cards_in_a_row())
    for quad in find_cards(image):
        assert quad.dtype == np.float32 and quad.shape == (4, 2)
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        assert sides[0] + sides[2] < sides[1] + sides[3]
        x, y = quad[:, 0].astype(float), quad[:, 1].astype(float)
        assert np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) > 0  # clockwise


def _corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, allowing the 180 degree ambiguity of the start corner."""
    from companion.vision.geometry import order_clockwise

    a, b = order_clockwise(quad), order_clockwise(truth)
    return min(float(np.linalg.norm(np.roll(a, k, axis=0) - b, axis=1).max()) for k in (0, 2))


def test_side_fitting_takes_any_number_of_quads():
    """cv2.remap takes fewer than 32,767 rows of points: a frame with hundreds of card
    hypotheses (a coarse carpet) must not crash the side fitting."""
    from companion.vision.side_fit import out_to_card_edges, refine_quads

    grey = np.random.default_rng(0).integers(0, 255, (200, 300), dtype=np.uint8)
    quads = np.tile(np.float32([[10, 10], [60, 10], [60, 80], [10, 80]]), (1200, 1, 1))
    assert refine_quads(grey, quads, 10.0).shape == (1200, 4, 2)
    assert out_to_card_edges(grey, quads, 5.0).shape == (1200, 4, 2)
