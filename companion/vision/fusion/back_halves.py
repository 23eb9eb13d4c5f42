"""Two backs read side by side on the two halves of one card: that card, once.

Why: the learned finder can outline a back half under its neighbour as two quads, each
about half a card long, touching across the card; both read as backs (a back's print
fills any part of it), and the seat would count two face-down cards, where the referee
takes a back more for a card played or for an eaten player's hand. Found on the animal
tuning row tables: 4,450,004, a back 97 px long, 72% of it in sight, read as two backs
53 and 59 px long.

Two backs stand as one, on the rectangle round both (`_joined`), where:
- each is at most `PART` of the length of the nearest card read for sure that is no
  such short back (one deck's cards lie at one size);
- round both, the rectangle is a card's length (`WHOLE`, of that card's) and the two
  fill `FILL` of it: they touch, end to end;
- neither of the sides they turn to each other steps alike (`SEAM_ALIKE`, the
  consistency of `side_contrast.side_steps`): the print runs on across, where two cards
  show an edge (two backs each half under the next, side by side in a row: 0.80 to 1.0
  on the tuning rows, the halves of one back 0.17 to 0.64).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ..geometry import order_clockwise, quad_area, quad_long_side, quad_long_sides
from ..side_contrast import facing_alike, side_steps
from ..types import CardReading
from .levels import reads_sure

PART = 0.8  # a part's long side, at most, of the nearest whole card's read for sure
WHOLE = (0.7, 1.35)  # the joined rectangle's long side, of that card's
FILL = 0.6  # of the joined rectangle that the two parts fill, at least
SEAM_ALIKE = 0.7  # how alike the steps across the parts' facing sides may be, less than


def joined_backs(image: np.ndarray, readings: list[CardReading]) -> list[CardReading]:
    """`readings` with each two backs that are one card's halves (see above) read in
    `image` (BGR uint8) as one back on the rectangle round both, at the lower of their
    two confidences."""
    if sum(reading.face == "down" for reading in readings) < 2:
        return readings  # most frames: nothing to join
    corners = np.stack([reading.corners for reading in readings])
    lengths = quad_long_sides(corners)
    sure = [k for k, reading in enumerate(readings) if reads_sure(reading)]
    longest = max((lengths[k] for k in sure), default=0.0)
    short = [
        k
        for k, reading in enumerate(readings)
        if reading.face == "down" and lengths[k] <= PART * longest
    ]
    whole_cards = [k for k in sure if k not in short]  # the cards that size a part
    if len(short) < 2 or not whole_cards:
        return readings
    # `geometry.nearest_card` for every short back at once: called per back it took 0.28
    # ms a frame instead of 0.11 (median, 60 playing tuning scenes), on every frame
    centres = corners.mean(axis=1)
    apart = np.linalg.norm(centres[short][:, None] - centres[whole_cards][None], axis=2)
    card_length = dict(zip(short, lengths[whole_cards][apart.argmin(axis=1)], strict=True))
    parts = [k for k in short if lengths[k] <= PART * card_length[k]]
    joined: dict[int, CardReading] = {}
    used: set[int] = set()
    for a, first in enumerate(parts):
        for second in parts[a + 1 :]:
            if used & {first, second}:
                continue
            one, two = corners[first], corners[second]
            whole = _joined(one, two)
            length = (card_length[first] + card_length[second]) / 2
            if not _halves_of(one, two, whole, length) or not _print_runs_on(image, one, two):
                continue
            confidence = min(readings[first].confidence, readings[second].confidence)
            joined[first] = replace(readings[first], corners=whole, confidence=confidence)
            used |= {first, second}
    return [joined.get(k, r) for k, r in enumerate(readings) if k not in used or k in joined]


def _print_runs_on(image: np.ndarray, one: np.ndarray, two: np.ndarray) -> bool:
    """Whether neither of the sides `one` and `two` turn to each other steps as alike as
    `SEAM_ALIKE` (at either depth of `side_contrast.side_steps`): one print, no edge."""
    _, alike = side_steps(image, [one, two])
    return facing_alike(one, two, alike[0], alike[1]) < SEAM_ALIKE


def _halves_of(one: np.ndarray, two: np.ndarray, whole: np.ndarray, length: float) -> bool:
    """Whether `whole` (the rectangle round quads `one` and `two`) is `WHOLE` of a card
    `length` long, and filled `FILL` by them."""
    if not WHOLE[0] * length <= quad_long_side(whole) <= WHOLE[1] * length:
        return False
    return quad_area(one) + quad_area(two) >= FILL * quad_area(whole)


def _joined(one: np.ndarray, two: np.ndarray) -> np.ndarray:
    """The least rectangle round both quads, clockwise from the top-left."""
    points = np.concatenate([one, two]).astype(np.float32)
    return order_clockwise(cv2.boxPoints(cv2.minAreaRect(points)))
