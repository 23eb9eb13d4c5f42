"""Two backs outlined as one quad stand as the two (companion.vision.fusion.merged_backs)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.decks import load_deck
from companion.vision.fusion.merged_backs import parted_backs
from companion.vision.geometry import order_clockwise, quad_iou
from companion.vision.read import CardReader
from companion.vision.synth import CardSpec, SceneSpec, render_scene
from companion.vision.types import CardReading

ACE = CardSpec("playing-cards", 1, "hearts", "up", (330, 360), length=150)


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(load_deck("playing-cards"))


def face(corners: np.ndarray) -> CardReading:
    return CardReading(corners, "up", 1, "hearts", "A of hearts", 0.99)


def back(corners: np.ndarray, confidence: float = 0.95) -> CardReading:
    return CardReading(corners, "down", None, None, "back", confidence)


def round_both(one: np.ndarray, two: np.ndarray) -> np.ndarray:
    """The least rectangle round two cards: a finder's outline of both as one."""
    points = np.concatenate([one, two]).astype(np.float32)
    return order_clockwise(cv2.boxPoints(cv2.minAreaRect(points)))


def test_two_backs_outlined_as_one_stand_as_two(reader: CardReader) -> None:
    """A back laid over another, down and to the side, as a row is laid: one quad round
    both reads as a back; its two corners' card-sized parts are the two."""
    cards = (
        ACE,
        CardSpec("playing-cards", 2, "clubs", "down", (700, 330), length=150),
        CardSpec("playing-cards", 3, "clubs", "down", (770, 390), length=150),
    )
    image, truths = render_scene(SceneSpec(table="wood-light", cards=cards, seed=3))
    merged = back(round_both(truths[1].corners, truths[2].corners))
    parted = parted_backs(image, reader, [face(truths[0].corners), merged])
    assert len(parted) == 3 and parted[0].label == "A of hearts"
    assert all(r.face == "down" for r in parted[1:])
    overlaps = [[quad_iou(r.corners, t.corners) for t in truths[1:]] for r in parted[1:]]
    assert sorted(np.argmax(overlaps, axis=1).tolist()) == [0, 1]
    assert min(np.max(overlaps, axis=1)) > 0.9


def test_a_back_as_large_as_the_cards_stays_one(reader: CardReader) -> None:
    cards = (ACE, CardSpec("playing-cards", 2, "clubs", "down", (700, 360), length=150))
    image, truths = render_scene(SceneSpec(table="wood-light", cards=cards, seed=3))
    readings = [face(truths[0].corners), back(truths[1].corners)]
    assert parted_backs(image, reader, readings) == readings


def test_a_back_beside_part_of_a_card_stays_one(reader: CardReader) -> None:
    """The card nearest a back can be read for sure from its part in sight, half its
    size: the median card read for sure sizes the back as one card."""
    cards = (
        ACE,
        CardSpec("playing-cards", 1, "spades", "up", (330, 600), length=150),
        CardSpec("playing-cards", 2, "clubs", "down", (700, 360), length=150),
    )
    image, truths = render_scene(SceneSpec(table="wood-light", cards=cards, seed=3))
    part = np.float32([[850, 300], [925, 300], [925, 405], [850, 405]])  # 105 px long
    readings = [
        face(truths[0].corners),
        face(truths[1].corners),
        face(part),
        back(truths[2].corners),
    ]
    assert parted_backs(image, reader, readings) == readings


def test_with_no_card_read_for_sure_to_size_it_a_back_stays(reader: CardReader) -> None:
    image = np.full((720, 1280, 3), 90, np.uint8)
    readings = [back(np.float32([[600, 300], [780, 300], [780, 510], [600, 510]]), 0.8)]
    assert parted_backs(image, reader, readings) == readings


def test_a_card_with_no_area_sizes_nothing(reader: CardReader) -> None:
    """A finder's quad collapsed to a line, read for sure, is no card's size: the back
    beside it is left as it is, and nothing fails."""
    image = np.full((720, 1280, 3), 90, np.uint8)
    line = np.float32([[100, 100], [200, 100], [200, 100], [100, 100]])
    readings = [face(line), back(np.float32([[600, 300], [780, 300], [780, 510], [600, 510]]))]
    assert parted_backs(image, reader, readings) == readings
