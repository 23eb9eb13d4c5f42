"""Printed seat markers during play: seats that follow a bumped camera, and no marker
ever taken for a card.

A calibration made from ArUco markers (`calibration.calibrate_from_markers`) remembers
where each marker lay. While the game runs, `MarkerWatch.look` finds the markers again
every `every` frames (detection costs a few milliseconds, a bump is rare): when the
anchors have moved by more than `MOVED` of the picture's long side, it returns the moved
calibration for the tracker to seat cards by. The markers are white squares printed with
black cells, so the card finder may take one for a card; every reading whose centre lies
on a marker last seen (with its white margin) is dropped by `without_markers`. A card laid
over a marker hides it, so that card is never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .calibration import Calibration, detect_markers
from .geometry import scaled_about_centre
from .types import CardReading

# The printed quiet zone: a white margin of a sixth of the marker's side all round
# (`calibration.marker_image`), plus the paper cut around it.
MARGIN = 1.0 / 6 + 0.1
MOVED = 0.004  # anchors moved by more than this fraction of the long side: follow them
EVERY = 15  # frames between two looks (half a second at 30 fps)


class MarkerWatch:
    """Follows the seat markers of `calibration` through the game (see the module doc)."""

    def __init__(self, calibration: Calibration, every: int = EVERY) -> None:
        if every < 1:
            raise ValueError(f"every must be 1 or more, got {every}")
        self.calibration = calibration  # anchors where the markers were last seen
        self._in_use = calibration  # the anchors last handed out for seating cards
        self.every = every
        self._looks = 0
        self._areas: list[np.ndarray] = []  # marker outlines with their margin, (4, 2)

    @property
    def active(self) -> bool:
        """Whether the calibration came from markers (else there is nothing to watch)."""
        return bool(self.calibration.marker_centers)

    def look(self, image: np.ndarray) -> Calibration | None:
        """Every `every`-th call, find the markers in `image`; return the calibration with
        moved anchors when the camera was bumped, else None."""
        if not self.active:
            return None
        self._looks += 1
        if (self._looks - 1) % self.every:
            return None
        found = detect_markers(image)
        self._areas = [_with_margin(corners) for corners in found.values()]
        seen = {i: (float(c[:, 0].mean()), float(c[:, 1].mean())) for i, c in found.items()}
        self.calibration = self.calibration.follow(seen)
        # Measured against the anchors in use, so that slow creeping adds up too.
        shift = max(
            float(np.hypot(x - self._in_use.seats[n][0], y - self._in_use.seats[n][1]))
            for n, (x, y) in self.calibration.seats.items()
        )
        if shift <= MOVED * max(image.shape[:2]):
            return None
        self._in_use = self.calibration
        return self.calibration

    def without_markers(self, readings: Sequence[CardReading]) -> list[CardReading]:
        """`readings` less those lying on a marker seen at the last look."""
        if not self._areas:
            return list(readings)
        return [r for r in readings if not any(_inside(a, r.center) for a in self._areas)]


def _with_margin(corners: np.ndarray) -> np.ndarray:
    return scaled_about_centre(corners, 1 + 2 * MARGIN)


def _inside(quad: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), point, False) >= 0
