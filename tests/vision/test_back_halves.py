"""One back read as two, on the halves of its card, is that card once
(companion.vision.fusion.back_halves)."""

from __future__ import annotations

import numpy as np

from companion.vision.fusion.back_halves import joined_backs
from companion.vision.geometry import quad_iou
from companion.vision.types import CardReading


def rectangle(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


CARD = rectangle(200, 100, 100, 140)  # a back 140 px long, upright
TOP, BOTTOM = rectangle(200, 100, 100, 70), rectangle(200, 170, 100, 70)
FACE = CardReading(rectangle(400, 100, 100, 140), "up", 1, None, "bear", 0.97)


def table(top_shade: int, bottom_shade: int) -> np.ndarray:
    """A grey table, a face card, and a back's checked print whose halves are shaded
    `top_shade` and `bottom_shade` (alike: one back's print running on across)."""
    image = np.full((360, 640, 3), 80, np.uint8)
    image[100:240, 400:500] = 235
    checks = (np.indices((140, 100)) // 4).sum(axis=0) % 2 == 1
    print_ = np.where(checks, 40, 200).astype(np.int16)
    print_[:70] += top_shade
    print_[70:] += bottom_shade
    image[100:240, 200:300] = np.clip(print_, 0, 255).astype(np.uint8)[..., None]
    return image


def back(quad: np.ndarray, confidence: float) -> CardReading:
    return CardReading(quad, "down", None, None, "back", confidence)


def test_two_halves_of_one_back_are_one_back() -> None:
    readings = [FACE, back(TOP, 0.9), back(BOTTOM, 0.8)]
    joined = joined_backs(table(0, 0), readings)
    assert len(joined) == 2 and joined[0] is FACE
    assert joined[1].face == "down" and joined[1].confidence == 0.8
    assert quad_iou(joined[1].corners, CARD) > 0.95


def test_two_cards_meeting_at_an_edge_stay_two() -> None:
    """The halves' prints step alike where they meet: two cards' edge, not one print."""
    readings = [FACE, back(TOP, 0.9), back(BOTTOM, 0.8)]
    assert joined_backs(table(-30, 50), readings) == readings


def test_whole_backs_side_by_side_stay_two() -> None:
    image = table(0, 0)
    image[100:240, 300:400] = image[100:240, 200:300]
    beside = rectangle(300, 100, 100, 140)
    readings = [FACE, back(CARD, 0.9), back(beside, 0.9)]
    assert joined_backs(image, readings) == readings


def test_with_no_card_read_for_sure_to_size_them_the_halves_stay() -> None:
    readings = [back(TOP, 0.9), back(BOTTOM, 0.8)]
    assert joined_backs(table(0, 0), readings) == readings
