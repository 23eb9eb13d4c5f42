"""Pictures a person can check: each card outlined and labelled on a copy of the frame.

Used by `companion detect --annotate`; the colours carry meaning at a glance: green a game
card read face up, blue a back, orange anything else (a non-game face, or a reading the
reader doubts).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.types import CardReading

GAME_CARD = (80, 200, 60)  # BGR
BACK = (220, 120, 40)
OTHER = (30, 140, 250)
DOUBTFUL = 0.6  # readings below this confidence are drawn as "other"
# The captions' font scale: half the outline's scale, but never below this (about 9 pixels
# high): a phone photo 504 pixels long was captioned 4 pixels high, too small to read.
MIN_CAPTION = 0.4


def reading_colour(reading: CardReading) -> tuple[int, int, int]:
    """The outline colour of one reading (see the module docstring)."""
    if reading.confidence < DOUBTFUL:
        return OTHER
    if reading.face == "down":
        return BACK
    return GAME_CARD if reading.rank is not None else OTHER


def reading_caption(reading: CardReading, seat: str | None = None) -> str:
    """Label, confidence and seat, e.g. "A of spades 0.99 @Alia"."""
    caption = f"{reading.label} {reading.confidence:.2f}"
    return f"{caption} @{seat}" if seat else caption


def annotate(
    image: np.ndarray,
    readings: Sequence[CardReading],
    seats: Sequence[str | None] | None = None,
) -> np.ndarray:
    """A copy of `image` (BGR uint8) with every reading outlined and captioned.

    `seats`, when given, holds one seat name (or None) per reading, in the same order.
    """
    if seats is not None and len(seats) != len(readings):
        raise ValueError(f"expected one seat per reading, got {len(seats)} for {len(readings)}")
    canvas = image.copy()
    scale = max(0.4, max(canvas.shape[:2]) / 1600)
    thickness = max(1, round(2 * scale))
    for index, reading in enumerate(readings):
        colour = reading_colour(reading)
        corners = np.round(reading.corners).astype(np.int32)
        cv2.polylines(canvas, [corners], True, colour, thickness, cv2.LINE_AA)
        # Mark corner 0 so the reader's orientation can be checked by eye.
        cv2.circle(canvas, tuple(int(v) for v in corners[0]), thickness + 2, colour, -1)
        seat = seats[index] if seats is not None else None
        _caption(canvas, reading_caption(reading, seat), reading.center, colour, scale)
    return canvas


def _caption(
    canvas: np.ndarray,
    text: str,
    centre: tuple[float, float],
    colour: tuple[int, int, int],
    scale: float,
) -> None:
    """Text on a dark box centred on the card, kept inside the picture."""
    font, size = cv2.FONT_HERSHEY_SIMPLEX, max(MIN_CAPTION, 0.5 * scale)
    weight = max(1, round(2 * size))
    (width, height), baseline = cv2.getTextSize(text, font, size, weight)
    x = int(np.clip(centre[0] - width / 2, 0, max(0, canvas.shape[1] - width)))
    y = int(np.clip(centre[1] + height / 2, height, canvas.shape[0] - baseline))
    cv2.rectangle(canvas, (x - 2, y - height - 2), (x + width + 2, y + baseline), (0, 0, 0), -1)
    cv2.putText(canvas, text, (x, y), font, size, colour, weight, cv2.LINE_AA)
