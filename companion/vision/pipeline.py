"""One picture in, one reading per card out: the finder and the reader put together.

`CardPipeline(deck).read(image)` is what the live loop, `companion detect` and the
benchmark call per frame. Quads that the reader says hold no card at all (a tile of the
table, a phone's screen) are dropped here, so a phantom never reaches the tracker.
"""

from __future__ import annotations

import numpy as np

from companion.vision.decks import DeckProfile
from companion.vision.detect import find_cards
from companion.vision.read import NOT_A_CARD, CardReader
from companion.vision.types import CardReading


class CardPipeline:
    """Finds and reads the cards of one deck; build it once, call `read` per frame."""

    def __init__(self, deck: DeckProfile) -> None:
        self.deck = deck
        self._reader = CardReader(deck)

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card in `image` (BGR uint8), read; quads holding no card are left out."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            shape = getattr(image, "shape", None)
            raise ValueError(f"expected a BGR image of shape (H, W, 3), got {shape}")
        quads = find_cards(image)
        if not quads:
            return []
        readings = self._reader.read_batch(image, quads)
        return [r for r in readings if r.label != NOT_A_CARD]
