"""What the readers see: the warps of features.py agree with each other."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.features import (
    EMBED_SIZE,
    EMBED_VIEW_SIZE,
    READ_SIZE,
    WHOLE_SIZE,
    corner_views,
    corner_views_of,
    embed_input,
    rectify_cards,
    whole_views,
    whole_views_of,
)
from companion.vision.geometry import order_clockwise
from companion.vision.synth import card_face


def _card_on_table() -> tuple[np.ndarray, np.ndarray]:
    """A 3 of hearts laid at a slant on a plain table: (picture, its clockwise quad)."""
    art = np.asarray(card_face("playing-cards", 3, "hearts", 0))
    quad = np.float32([[200, 80], [390, 120], [340, 380], [150, 340]])
    h, w = art.shape[:2]
    source = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    matrix = cv2.getPerspectiveTransform(source, quad)
    table = np.full((480, 640, 3), 70, np.uint8)
    card = cv2.warpPerspective(art, matrix, (640, 480), flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full(art.shape[:2], 255, np.uint8), matrix, (640, 480)) > 128
    table[inside] = card[inside]
    return table, order_clockwise(quad)


def test_corner_patches_warped_directly_equal_those_of_the_rectified_card() -> None:
    image, quad = _card_on_table()
    direct = corner_views_of(image, [quad])
    cut = corner_views(rectify_cards(image, [quad]))
    assert direct.shape == cut.shape
    assert np.abs(direct.astype(int) - cut.astype(int)).max() <= 1


def test_the_whole_face_warped_directly_matches_the_shrunk_rectified_card() -> None:
    """`read_batch` warps the whole face straight to WHOLE_SIZE, `read_cards` shrinks an
    already rectified card: both show the whole-face reader the same card."""
    image, quad = _card_on_table()
    direct = whole_views_of(image, [quad])
    shrunk = whole_views(rectify_cards(image, [quad]))
    width, height = WHOLE_SIZE
    assert direct.shape == shrunk.shape == (1, height, width, 3)
    assert np.abs(direct.astype(int) - shrunk.astype(int)).mean() < 10  # measured: 5.7


def test_the_embedding_sees_the_same_card_from_the_smaller_warp() -> None:
    """An enrolled deck's reader warps each quad to EMBED_VIEW_SIZE, not READ_SIZE as the
    embedding learned from (3x3 blocks averaged, not 3.75 x 3.5): the same card to it."""
    image, quad = _card_on_table()
    small = embed_input(rectify_cards(image, [quad], EMBED_VIEW_SIZE))
    large = embed_input(rectify_cards(image, [quad]))
    width, height = EMBED_SIZE
    assert small.shape == large.shape == (1, 3, height, width)
    assert np.abs(small - large).mean() < 0.01  # of 1: measured 0.002


def test_no_quad_gives_no_view() -> None:
    image, _ = _card_on_table()
    width, height = WHOLE_SIZE
    assert whole_views_of(image, []).shape == (0, height, width, 3)
    assert rectify_cards(image, []).shape == (0, READ_SIZE[1], READ_SIZE[0], 3)
