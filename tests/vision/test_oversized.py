"""A face read unsure on a quad far larger than the card read for sure beside it (two
cards outlined as one) leaves the frame in doubt (`fusion.oversized`): the rule on
made-up readings, and on a rendered animal row table it was measured on."""

from __future__ import annotations

import numpy as np
import pytest
from test_cut_out import reading
from test_reaching import card_at

from companion.vision.bench.scenes import row_scenes, row_seed_offset
from companion.vision.decks import load_deck
from companion.vision.fusion import Candidates, oversized, read_cards
from companion.vision.fusion.doubt import in_doubt
from companion.vision.fusion.oversized import oversized_face
from companion.vision.geometry import quad_iou
from companion.vision.read import CardReader
from companion.vision.segment import CardMaps
from companion.vision.types import CardReading

# a wolf read for sure, 50 x 70 px; 20 px beside it a wolf and the mouse over it,
# outlined as one quad 80 x 70 px (1.6 times its area), read as a wolf unsure
SURE_WOLF = reading(card_at(0), "wolf", 0.99, rank=2)
TWO = np.array([[70, 0], [150, 0], [150, 70], [70, 70]], np.float32)


def test_a_face_read_unsure_on_a_quad_of_two_cards_is_found() -> None:
    assert oversized_face([SURE_WOLF, reading(TWO, "wolf", 0.84, rank=2)])
    # a 6..King too: from SETTLED it settles a frame, and what it covers may be a game card
    assert oversized_face([SURE_WOLF, reading(TWO, "other", 0.8)])


def test_nothing_else_is_taken_for_two_cards() -> None:
    def two_read_as(label: str, confidence: float, rank: int | None) -> list[CardReading]:
        return [SURE_WOLF, reading(TWO, label, confidence, rank)]

    assert not oversized_face(two_read_as("wolf", 0.95, 2))  # the reader is sure
    assert not oversized_face(two_read_as("back", 0.8, None))  # no face
    assert not oversized_face(two_read_as("not a card", 0.8, None))
    # a quad of a card's size (its area 1.2 times the card's), or no card read for sure
    card_sized = np.array([[70, 0], [130, 0], [130, 70], [70, 70]], np.float32)
    assert not oversized_face([SURE_WOLF, reading(card_sized, "wolf", 0.84, rank=2)])
    assert not oversized_face([reading(TWO, "wolf", 0.84, rank=2)])
    # the card read for sure is the one the quad lies on: no card beside it to size it by
    over = reading(np.array([[0, 0], [80, 0], [80, 70], [0, 70]], np.float32), "wolf", 0.84, 2)
    assert not oversized_face([SURE_WOLF, over])


def test_a_frame_holding_one_is_in_doubt(monkeypatch) -> None:
    """The frame's card pixels all explained, every reading settled (a game rank settles
    whatever its confidence): only the quad of two leaves doubt."""
    card = np.zeros((360, 640), np.float32)
    card[0:35, 0:25] = card[0:35, 35:75] = 1.0  # the two quads, in map pixels
    found = Candidates([], [], [], [], CardMaps(card, card, 0.5, 0.5), np.zeros((368, 640, 3)))
    kept = [SURE_WOLF, reading(TWO, "wolf", 0.84, rank=2)]
    assert in_doubt(found, kept)
    monkeypatch.setattr(oversized, "OVERSIZED", 2.0)
    assert not in_doubt(found, kept)


@pytest.mark.reference_text
def test_a_card_outlined_with_the_one_over_it_is_read(monkeypatch) -> None:
    """Animal tuning row table 4,470,408: a wolf and the mouse over it outlined as one
    quad, read as the wolf at 0.84, beside a wolf read for sure; the first look took the
    frame as read and the mouse was lost. Left in doubt, the last look parts the quad."""
    image, truths = next(row_scenes("animals", 1, 4_470_408 - row_seed_offset("animals")))
    (mouse,) = [t for t in truths if t.label == "mouse" and t.visible > 0.9]
    reader = CardReader(load_deck("demo-animals"))

    def read_on_mouse() -> str | None:
        best = max(read_cards(image, reader), key=lambda r: quad_iou(r.corners, mouse.corners))
        return best.label if quad_iou(best.corners, mouse.corners) >= 0.5 else None

    assert read_on_mouse() == "mouse"
    monkeypatch.setattr(oversized, "OVERSIZED", float("inf"))
    assert read_on_mouse() is None
