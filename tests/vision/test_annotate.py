"""The pictures `companion detect --annotate` writes for a person to check."""

import numpy as np
import pytest

from companion.vision.annotate import BACK, GAME_CARD, OTHER, annotate, reading_colour
from companion.vision.types import CardReading


def _reading(corners, face="up", rank=1, label="A of spades", confidence=0.98) -> CardReading:
    suit = "spades" if rank is not None else None
    return CardReading(np.float32(corners), face, rank, suit, label, confidence)


def _caption_rows(canvas: np.ndarray) -> int:
    """How many rows the caption's black box spans (the only black in the picture)."""
    return int(np.count_nonzero((canvas == 0).all(axis=2).any(axis=1)))


def test_outline_colours_say_game_card_back_or_other():
    card = [[10, 10], [60, 10], [60, 80], [10, 80]]
    assert reading_colour(_reading(card)) == GAME_CARD
    assert reading_colour(_reading(card, "down", None, "back")) == BACK
    assert reading_colour(_reading(card, rank=None, label="other")) == OTHER
    assert reading_colour(_reading(card, confidence=0.55)) == OTHER  # doubtful


def test_captions_stay_legible_on_a_small_phone_photo():
    picture = np.full((504, 378, 3), 120, np.uint8)  # the real photos' smallest size
    canvas = annotate(picture, [_reading([[100, 140], [260, 136], [281, 362], [113, 372]])])
    assert _caption_rows(canvas) >= 12  # about 9 pixels of text and its box
    assert (picture == 120).all(), "the picture itself is not drawn on"


def test_a_caption_near_the_border_stays_inside_the_picture():
    picture = np.full((200, 300, 3), 120, np.uint8)
    card = _reading([[250, 150], [299, 150], [299, 199], [250, 199]], label="A of spades")
    canvas = annotate(picture, [card], seats=["Carmen"])
    black = (canvas == 0).all(axis=2)
    columns = np.flatnonzero(black.any(axis=0))
    assert columns.max() == picture.shape[1] - 1 and columns.min() > 0


def test_one_seat_per_reading():
    picture = np.full((100, 100, 3), 120, np.uint8)
    with pytest.raises(ValueError, match="one seat per reading"):
        annotate(picture, [_reading([[10, 10], [60, 10], [60, 80], [10, 80]])], seats=[])
