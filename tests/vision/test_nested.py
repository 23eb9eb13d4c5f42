"""A card the edge finder outlined inside a larger quad of its own (a dark mat or a shadow
round it) is returned apart (`detect.EdgeQuads.nested`) and read where it reads a card
for sure (`fusion.nested`): the edge finder on rendered tables, the rule on made-up
readings."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from test_cut_out import reading
from test_detect_scenes import cards_in_a_row, scene
from test_reaching import card_at, labels_at

from companion.vision.decks import PLAYING_CARDS, load_deck
from companion.vision.detect import find_cards, find_outlines
from companion.vision.fusion.candidates import Candidates
from companion.vision.fusion.nested import nested_cards
from companion.vision.fusion.reading import FrameReads
from companion.vision.geometry import quad_iou
from companion.vision.synth import CardSpec, SceneSpec, render_scene
from companion.vision.types import OTHER, CardReading

MAT = (slice(240, 440), slice(520, 780))  # rows, columns of a dark mat round the card


def on_a_dark_mat(table: str, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A 100-pixel Ace of hearts on a dark mat twice its size each way, on `table`: the
    frame, and the card's true corners."""
    card = CardSpec(
        deck="playing-cards",
        rank=1,
        suit="hearts",
        face="up",
        center=(640.0, 330.0),
        angle=angle,
        length=100.0,
    )
    image, truths = render_scene(SceneSpec(size=(1280, 720), table=table, seed=3, cards=(card,)))
    mat = np.zeros(image.shape[:2], np.uint8)
    mat[MAT] = 1
    cv2.fillConvexPoly(mat, np.round(truths[0].corners).astype(np.int32), 0)
    shaded = image.astype(np.float32)
    shaded[mat > 0] *= 0.4
    return np.round(shaded).astype(np.uint8), truths[0].corners


@pytest.mark.parametrize(("table", "angle"), [("plain-light", 12.0), ("wood-light", 200.0)])
def test_a_card_on_a_dark_mat_is_returned_apart_from_the_mat(table: str, angle: float) -> None:
    image, card = on_a_dark_mat(table, angle)
    found = find_outlines(image)
    # the mat is outlined as a card, and it holds the card: the card is no frame of it
    assert [quad_iou(q, card) < 0.2 for q in found.cards] == [True]
    assert [quad_iou(q, card) > 0.9 for q in found.nested] == [True]
    assert [q.tolist() for q in find_cards(image)] == [q.tolist() for q in found.cards]


def test_cards_outlined_alone_leave_nothing_nested() -> None:
    image, truths = scene("plain-dark", cards_in_a_row())
    found = find_outlines(image)
    assert len(found.cards) == len(truths)
    assert found.nested == []


MAT_QUAD = np.array([[0, 0], [160, 0], [160, 140], [0, 140]], np.float32)
ACE = card_at(40, 30)
ACE_READ = reading(ACE, "A of spades", 0.97, rank=1)
MAT_READ = reading(MAT_QUAD, OTHER, 0.84)


def nested_search(ace: CardReading | None, kept: list[CardReading]) -> list[CardReading]:
    """`nested_cards` on a frame whose edge finder found the Ace nested in the mat and
    whose reader reads the Ace's quad as `ace` (None: not a card)."""

    def read_batch(image, quads):
        out = []
        for quad in quads:
            got = ace if ace and quad_iou(quad, ACE) > 0.95 else reading(quad, OTHER, 0.2)
            out.append(CardReading(quad, got.face, got.rank, got.suit, got.label, got.confidence))
        return out

    found = Candidates([MAT_QUAD], [True], [], [], nested=[ACE])
    reader = SimpleNamespace(deck=load_deck(PLAYING_CARDS), read_batch=read_batch)
    frame = FrameReads(np.zeros((200, 300, 3), np.uint8), reader, found, [MAT_READ], {}, {})
    return nested_cards(frame, kept)


def test_a_card_nested_in_a_quad_read_unsure_stands() -> None:
    got = nested_search(ACE_READ, [MAT_READ])
    assert labels_at(got) == [("A of spades", 40), (OTHER, 0)]


def test_a_nested_quad_stands_only_for_a_card_read_for_sure() -> None:
    assert labels_at(nested_search(None, [MAT_READ])) == [(OTHER, 0)]
    unsure = reading(ACE, "A of spades", 0.8, rank=1)
    assert labels_at(nested_search(unsure, [MAT_READ])) == [(OTHER, 0)]


def test_a_nested_quad_on_a_card_read_for_sure_is_part_of_it() -> None:
    # the quad round it is a card read for sure: what it holds is its print
    card = reading(MAT_QUAD, "8 of clubs", 0.98)
    assert labels_at(nested_search(ACE_READ, [card])) == [("8 of clubs", 0)]


def test_a_nested_quad_much_smaller_than_the_cards_read_is_no_card() -> None:
    # beside a card read for sure four times its length: a pip of an unsure face
    big = np.array([[400, 0], [600, 0], [600, 280], [400, 280]], np.float32)
    king = reading(big, "K of hearts", 0.99)
    assert labels_at(nested_search(ACE_READ, [MAT_READ, king])) == [
        ("K of hearts", 400),
        (OTHER, 0),
    ]
    # beside one of its own size, it stands
    near = reading(card_at(400), "K of hearts", 0.99)
    assert labels_at(nested_search(ACE_READ, [MAT_READ, near])) == [
        ("A of spades", 40),
        ("K of hearts", 400),
        (OTHER, 0),
    ]
