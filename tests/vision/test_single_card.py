"""The finder of one card alone in a photo (`vision/single_card.py`), which enrolling uses:
rendered photos of backs never trained on, half the picture long."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.vision.decks import card_from_picture
from companion.vision.detect import find_cards
from companion.vision.geometry import quad_area, quad_iou
from companion.vision.single_card import card_in_photo, card_laid, outline_holds
from companion.vision.synth import random_scene, render_scene
from companion.vision.synth.art import designed_back


def _photo(index: int) -> tuple[np.ndarray, np.ndarray]:
    """A phone-framed photo of the back of design 4,100,000 + `index` (tuning seeds) lying
    on a table, and its true corners."""
    spec = random_scene(
        np.random.default_rng(7_300_000 + index),
        1,
        "playing-cards",
        size=(1200, 900),
        face_up_rate=0.0,
        length_range=(450.0, 650.0),
        distractors=0,
        hand_rate=0.0,
        layout="scatter",
    )
    photo, truths = render_scene(spec, back_art=designed_back(4_100_000 + index))
    return photo, truths[0].corners


def test_a_wide_white_margin_is_outlined_at_the_cards_edge() -> None:
    """The edge finder alone outlines the printed pattern inside the margin; the card's
    own edge is found at smaller scales, and being larger, with an outline that holds, it
    is the card."""
    photo, truth = _photo(30)
    assert quad_iou(max(find_cards(photo, any_plain=True), key=quad_area), truth) < 0.8
    assert quad_iou(card_in_photo(photo), truth) > 0.95


def test_a_back_the_edge_finder_misses_is_found_by_its_colour() -> None:
    """A back on a dark cloth shows the edge finder no card at all; the colour
    segmentation outlines it, and enrolling cuts it from there."""
    photo, truth = _photo(18)
    assert find_cards(photo) == [] and find_cards(photo, any_plain=True) == []
    assert quad_iou(card_in_photo(photo), truth) > 0.95
    assert card_from_picture(photo, "back.jpg").shape == (168, 120, 3)


def test_an_outline_across_the_table_does_not_hold() -> None:
    """The card's true outline holds; the same quad grown by half runs across the table,
    which steps no more there than beside it."""
    photo, truth = _photo(30)
    lab = cv2.cvtColor(cv2.GaussianBlur(photo, (0, 0), 1.0), cv2.COLOR_BGR2Lab)
    assert outline_holds(lab, truth)
    centre = truth.mean(axis=0)
    assert not outline_holds(lab, centre + 1.5 * (truth - centre))


def test_a_bare_table_holds_no_card() -> None:
    spec = random_scene(
        np.random.default_rng(7_400_000), 0, size=(1200, 900), distractors=0, hand_rate=0.0
    )
    assert card_in_photo(render_scene(spec)[0]) is None


def test_pictures_too_small_for_a_card_are_no_card_not_a_crash() -> None:
    """A strip or a few pixels of noise leave the segmentation no table and card to tell
    apart (GrabCut would stop on an assertion): no card, which enrolling says plainly."""
    rng = np.random.default_rng(0)
    for shape in ((3, 3, 3), (1, 200, 3), (900, 5, 3)):
        assert card_in_photo(rng.integers(0, 255, shape, dtype=np.uint8)) is None


def test_a_card_laid_before_the_camera_is_found_where_the_table_changed() -> None:
    """A back 150 px long laid on a gingham cloth, seen by a webcam that saw the bare cloth
    first: outlined on the card, not on its shadow, also when the webcam's exposure
    changed with it; nothing where nothing changed."""
    spec = random_scene(
        np.random.default_rng(7_500_000),
        1,
        "playing-cards",
        face_up_rate=0.0,
        length_range=(150.0, 150.0),
        distractors=0,
        hand_rate=0.0,
        layout="scatter",
        table="cloth-gingham",
    )
    frame, truths = render_scene(spec, back_art=designed_back(4_100_003))
    empty, _ = render_scene(replace(spec, cards=()))
    assert quad_iou(card_laid(frame, empty), truths[0].corners) > 0.9
    assert card_laid(empty, empty) is None
    # the webcam darkened the picture once a light card came in
    darker = (frame * 0.9).astype(np.uint8)
    assert quad_iou(card_laid(darker, empty), truths[0].corners) > 0.9
