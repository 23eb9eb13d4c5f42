"""Cards a shaken frame shows once steadied, where the frame itself read none.

A frame in doubt that a shaken camera smeared (`vision.shake.shake_of`) is deconvolved
(`shake.steadied`) and read again as a whole; a back or a 6..King read there at SETTLED
or more stands where no reading of the frame lies (`levels.SAME_CARD`: none overlaps it
that much).

Why so little of it: the smear told is not always the line that smeared the frame (on 38
of 48 shaken tuning tables it is: `shake.MATCH`), and a frame deconvolved a pixel off
reads worse than the smeared one (it rings), so the steadied frame never replaces a
reading; and the game cards it reads were wrong too often to name a player's card.
Measured on the frames of 800 playing tuning card tables (4,200,000+) and 300 row tables
(4,450,000+) that an earlier gate took for shaken: of 51 cards it added, 42 were right
(14 game cards), 2 game cards were read as another (a 4 of hearts as the 2 of hearts at
1.0, a 4 of clubs as the 4 of spades at 0.9) and 4 readings lay on no card
(models/README.md, "Sixty-fourth stop"). The game is told a shaken frame's game cards
once the camera stands still; the tracker keeps what it saw meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..geometry import quad_iou
from ..shake import Shake, steadied
from ..stages import timed
from ..types import CardReading
from .levels import SAME_CARD, SETTLED


@timed("steadying a shaken frame")
def steadied_cards(
    image: np.ndarray,
    kept: Sequence[CardReading],
    shake: Shake,
    read: Callable[[np.ndarray], list[CardReading]],
) -> list[CardReading]:
    """The backs and 6..Kings `read` finds in `image` (BGR uint8) steadied from its
    `shake` (`shake.shake_of`), where none of `kept` (the frame's own readings) lies."""
    return [
        reading
        for reading in read(steadied(image, shake))
        if reading.rank is None
        and reading.confidence >= SETTLED
        and all(quad_iou(reading.corners, other.corners) < SAME_CARD for other in kept)
    ]
