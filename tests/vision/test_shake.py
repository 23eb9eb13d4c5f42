"""A frame smeared by a shaken camera (`vision.shake`): told from a steady one, its smear
measured, steadied; and the fusion taking from the steadied frame only the cards the
frame itself did not read (`fusion.steadied`)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import shake
from companion.vision.fusion.steadied import steadied_cards
from companion.vision.synth import render_scene
from companion.vision.synth.spec import CardSpec, SceneSpec
from companion.vision.types import CardReading


def _table(motion_blur: float = 0.0, motion_angle: float = 0.0) -> np.ndarray:
    """A table of six playing cards at several turns, smeared as asked."""
    cards = tuple(
        CardSpec(
            "playing-cards",
            1 + k % 5,
            "spades",
            "up" if k % 2 else "down",
            (200 + 170 * k, 300 + 40 * (k % 3)),
            angle=25.0 * k,
            length=110,
        )
        for k in range(6)
    )
    spec = SceneSpec(
        table="felt-green", cards=cards, motion_blur=motion_blur, motion_angle=motion_angle
    )
    return render_scene(spec)[0]


def test_a_steady_table_is_not_shaken() -> None:
    assert shake.shake_of(_table()) is None


def test_a_blank_or_tiny_picture_is_not_shaken(recwarn) -> None:
    """No detail, nothing smeared: no division by zero, no warning."""
    assert shake.shake_of(np.full((720, 1280, 3), 120, np.uint8)) is None
    assert shake.shake_of(np.zeros((20, 30, 3), np.uint8)) is None
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_a_shaken_table_gives_its_smear_length_and_angle() -> None:
    found = shake.shake_of(_table(motion_blur=8.0, motion_angle=30.0))
    assert found is not None
    assert abs(found.length - 8.0) <= 1.5
    assert abs(found.angle - 30.0) <= 10.0


def test_the_smear_told_is_the_very_line_that_smeared_the_frame() -> None:
    """The renderer smears with `line_kernel`'s lines, whose pixels many lengths and angles
    draw alike: the line told must draw the same pixels (a pixel off reads worse than the
    smeared frame). 121 distinct lines from 2 to 12 px."""
    assert len(shake._line_kernels()) == 121
    for length, angle in ((6.0, 30.0), (9.0, 121.5), (8.3, 19.0), (7.5, 0.0)):
        found = shake.shake_of(_table(motion_blur=length, motion_angle=angle))
        assert found is not None, (length, angle)
        smear = shake.line_kernel(shake.Shake(length, angle))
        assert np.array_equal(shake.line_kernel(found), smear), (length, angle, found)


def test_a_smear_too_short_to_undo_is_no_shake() -> None:
    assert shake.shake_of(_table(motion_blur=3.0, motion_angle=60.0)) is None


def test_a_line_kernel_is_normalised_and_lies_along_its_angle() -> None:
    kernel = shake.line_kernel(shake.Shake(7.0, 0.0))
    assert abs(float(kernel.sum()) - 1.0) < 1e-5
    rows = kernel.sum(axis=1)
    assert rows[kernel.shape[0] // 2] > 0.9  # a horizontal line: all in the middle row


def test_steadying_sharpens_an_edge_smeared_across_it() -> None:
    """A white card edge on a dark table smeared 7 px across it rises over 6 px; steadied
    with that smear, over 3 at most (the Wiener filter leaves a little of it, and rings)."""
    image = np.full((200, 300, 3), 40, np.uint8)
    image[:, 150:] = 200
    smear = shake.Shake(7.0, 0.0)
    smeared = cv2.filter2D(image, -1, shake.line_kernel(smear), borderType=cv2.BORDER_REFLECT)

    def rise(picture: np.ndarray) -> int:
        row = picture[100, 120:180, 1].astype(float)
        return int(np.count_nonzero((row > 56) & (row < 184)))  # between 10% and 90%

    assert rise(smeared) == 6
    assert rise(shake.steadied(smeared, smear)) <= 3


def _reading(x: float, label: str = "back") -> CardReading:
    quad = np.float32([[x, 100], [x + 50, 100], [x + 50, 170], [x, 170]])
    return CardReading(quad, "down", None, None, label, 0.9)


def test_a_steadied_frame_adds_only_backs_and_faces_read_clearly_where_none_was_read() -> None:
    """Never a game card: a deconvolved frame rings, and its game cards were read as
    another too often to name a player's card."""
    frame = np.zeros((300, 400, 3), np.uint8)
    kept = [_reading(0)]
    seen: list[np.ndarray] = []

    def read(picture: np.ndarray) -> list[CardReading]:
        seen.append(picture)
        game = CardReading(_reading(300).corners, "up", 2, "clubs", "2 of clubs", 1.0)
        unsure = CardReading(_reading(100).corners, "up", None, None, "other", 0.6)
        # the frame's card again, a new back, a game card and a face read unsure
        return [_reading(2, "other"), _reading(200), game, unsure]

    added = steadied_cards(frame, kept, shake.Shake(6.0, 0.0), read)
    assert [r.label for r in added] == ["back"] and added[0].corners[0, 0] == 200
    assert len(seen) == 1 and seen[0].shape == frame.shape
