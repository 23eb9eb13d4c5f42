"""Whether a camera frame shows anything new since the last frame read in full.

Why: at a real table the picture stands still most of the time (players think, talk,
score), and reading every card of a frame costs tens of milliseconds of a laptop's core.
A frame that differs from the last one read in full by no more than the camera's own noise
and flicker holds the same cards, so its readings are the same. `ChangeGate` compares a
small thumbnail of each frame with that of the last frame read: a card put down, turned
or slid, or a hand coming in, changes a card-sized patch of the thumbnail by far more
than `CHANGE_LEVEL`; the light's flicker and automatic exposure change the whole picture
by a common gain, which is taken out first. A frame is read in full at least every
`REREAD_EVERY` frames anyway, so a change too slight for the gate is still seen within
half a second.
"""

from __future__ import annotations

import cv2
import numpy as np

THUMB_LONG_SIDE = 160  # the thumbnail's long side: 8x smaller than a 1280x720 frame
# Grey levels (of 255) by which one thumbnail pixel must differ, once the overall light is
# matched. A thumbnail pixel averages 64 frame pixels, so sensor noise of 3 levels moves it
# by 2 at most; the demo film also varies each card's light by up to 5% from frame to
# frame, up to 16 levels. Measured changes (tests/vision/test_change_gate.py): a card
# slid by 2 px 30, laid face up on a white cloth 94, turned over 110, a hand 92.
CHANGE_LEVEL = 20.0
REREAD_EVERY = 15  # frames: half a second at 30 fps


class ChangeGate:
    """`changed(image)` for every frame in order: True when it must be read in full."""

    def __init__(self, level: float = CHANGE_LEVEL, every: int = REREAD_EVERY) -> None:
        if level <= 0 or every < 1:
            raise ValueError(f"expected a level above 0 and every >= 1, got {level}, {every}")
        self.level = level
        self.every = every
        self._reference: np.ndarray | None = None
        self._shape: tuple[int, ...] = ()
        self._skipped = 0

    def changed(self, image: np.ndarray) -> bool:
        """Whether `image` (BGR uint8) differs from the last frame this gate let through;
        a frame let through becomes the new reference."""
        thumb = thumbnail(image)
        if (
            self._reference is not None
            and self._shape == image.shape
            and self._skipped + 1 < self.every
            and not differs(thumb, self._reference, self.level)
        ):
            self._skipped += 1
            return False
        self._reference, self._shape = thumb, image.shape
        self._skipped = 0
        return True


def thumbnail(image: np.ndarray) -> np.ndarray:
    """The frame's lightness, shrunk by area averaging to a long side of THUMB_LONG_SIDE."""
    height, width = image.shape[:2]
    scale = THUMB_LONG_SIDE / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return grey.astype(np.float32)


def differs(thumb: np.ndarray, reference: np.ndarray, level: float) -> bool:
    """Whether any pixel of `thumb` is more than `level` away from `reference` once the
    two pictures' overall lightness is matched."""
    gain = float(reference.mean()) / max(1.0, float(thumb.mean()))
    return bool(np.abs(thumb * gain - reference).max() > level)
