"""A quad's sides and a card's outline (companion.vision.side_contrast), and backs that
stand only where their quad shows one (companion.vision.fusion.outlines)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.fusion.outlines import (
    OUTLINE_CONSISTENCY,
    OUTLINE_CONTRAST,
    OUTLINE_SURE,
    OUTLINED_SIDES,
    outlined_backs,
)
from companion.vision.side_contrast import outlined_sides, side_steps
from companion.vision.synth import render_scene
from companion.vision.synth.spec import CardSpec, SceneSpec
from companion.vision.types import CardReading


def rectangle(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def outlined(image: np.ndarray, quad: np.ndarray) -> int:
    """How many sides of `quad` show an outline, as the rule asks of a back."""
    return int(outlined_sides(image, [quad], OUTLINE_CONTRAST, OUTLINE_CONSISTENCY)[0])


def test_a_card_on_a_plain_table_steps_alike_on_every_side() -> None:
    image = np.full((200, 300, 3), 60, np.uint8)
    cv2.rectangle(image, (100, 50), (170, 150), (230, 230, 230), -1)
    contrast, alike = side_steps(image, [rectangle(100, 50, 70, 100)])
    assert contrast.shape == alike.shape == (1, 4, 2)
    assert (contrast > 100).all() and (alike > 0.99).all()


def test_corners_in_either_order_give_the_same_steps() -> None:
    image = np.full((200, 300, 3), 60, np.uint8)
    cv2.rectangle(image, (100, 50), (170, 150), (230, 230, 230), -1)
    quad = rectangle(100, 50, 70, 100)
    forward, _ = side_steps(image, [quad])
    backward, _ = side_steps(image, [quad[::-1].copy()])
    assert np.allclose(np.sort(forward[0], axis=0), np.sort(backward[0], axis=0), atol=0.5)


def test_a_patch_of_texture_shows_no_outline() -> None:
    """Noise as coarse as a carpet's pile: steps every way, which cancel out."""
    rng = np.random.default_rng(0)
    texture = rng.integers(60, 200, (100, 150, 3), np.uint8)
    image = cv2.resize(texture, (300, 200), interpolation=cv2.INTER_NEAREST)
    _, alike = side_steps(image, [rectangle(100, 50, 70, 100)])
    assert alike.mean() < 0.35
    assert outlined(image, rectangle(100, 50, 70, 100)) < OUTLINED_SIDES


def test_no_quads_no_steps() -> None:
    contrast, alike = side_steps(np.zeros((10, 10, 3), np.uint8), [])
    assert contrast.shape == alike.shape == (0, 4, 2)


def test_a_back_on_a_carpet_stands_and_the_carpet_beside_it_does_not() -> None:
    """A rendered back 110 px long on a carpet: its own quad shows its outline on every
    side, a card-sized quad on the bare carpet beside it on fewer than OUTLINED_SIDES.
    A face read on the carpet is left as it is: the rule weighs backs only."""
    card = CardSpec("playing-cards", 1, "spades", "down", (500.0, 360.0), angle=20.0, length=110.0)
    image, truths = render_scene(SceneSpec(table="carpet", cards=(card,), seed=3))
    on_card = truths[0].corners.astype(np.float32)
    on_carpet = on_card - np.float32([250.0, 0.0])
    assert outlined(image, on_card) == 4
    assert outlined(image, on_carpet) < OUTLINED_SIDES
    back = CardReading(on_card, "down", None, None, "back", 0.95)
    stray = CardReading(on_carpet, "down", None, None, "back", 0.95)
    face = CardReading(on_carpet, "up", None, None, "other", 0.9)
    kept = outlined_backs(image, [back, stray, face])
    assert [r is back or r is face for r in kept] == [True, True] and len(kept) == 2
    # read as surely as an enrolled back matched to its own picture, it stands
    sure = CardReading(on_carpet, "down", None, None, "back", OUTLINE_SURE)
    assert outlined_backs(image, [sure]) == [sure]
