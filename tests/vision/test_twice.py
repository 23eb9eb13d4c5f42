"""A game card read twice over the same card stands once (companion.vision.fusion.twice)."""

from __future__ import annotations

import numpy as np

from companion.vision.fusion.twice import once_each
from companion.vision.types import CardReading


def rectangle(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


CARD = rectangle(100, 100, 70, 100)
INSIDE = rectangle(105, 105, 60, 45)  # the card's part in sight, its lower half covered


def card(quad: np.ndarray, rank: int, suit: str | None, confidence: float) -> CardReading:
    label = f"{rank} of {suit}" if suit else ("bear", "wolf", "lynx", "owl", "mouse")[rank - 1]
    return CardReading(quad, "up", rank, suit, label, confidence)


def test_a_card_read_on_its_quad_and_on_its_part_in_sight_stands_once() -> None:
    whole, part = card(CARD, 3, "clubs", 0.95), card(INSIDE, 3, "clubs", 1.0)
    assert once_each([whole, part]) == [part]  # the surer reading stays
    lynx, shifted = card(CARD, 3, None, 0.9), card(CARD + np.float32([20, 0]), 3, None, 0.7)
    assert once_each([shifted, lynx]) == [lynx]  # overlapping by SAME_CARD


def test_other_cards_and_the_same_rank_elsewhere_stand() -> None:
    three, other_suit = card(CARD, 3, "clubs", 0.95), card(INSIDE, 3, "hearts", 0.9)
    assert once_each([three, other_suit]) == [three, other_suit]
    lynx, far_lynx = card(CARD, 3, None, 0.9), card(CARD + np.float32([300, 0]), 3, None, 0.9)
    assert once_each([lynx, far_lynx]) == [lynx, far_lynx]  # two players' lynxes
    back = CardReading(INSIDE, "down", None, None, "back", 0.9)
    face = CardReading(CARD, "up", None, None, "other", 0.9)
    assert once_each([three, back, face]) == [three, back, face]
