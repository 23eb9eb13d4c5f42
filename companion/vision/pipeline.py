"""One picture in, one reading per card out: the finder and the reader put together.

`CardPipeline(deck).read(image)` is what the live loop, `companion detect` and the
benchmark call per frame. Quads that the reader says hold no card at all (a tile of the
table, a phone's screen) are dropped here, so a phantom never reaches the tracker.

`finder=` picks how cards are found: `both` (the default, the fusion package: the learned finder,
and the edge finder too where the learned one leaves doubt, the better reading of each
card kept), `edges` (detect.py) or
`learned` (segment.py) alone. `companion bench vision --finder ...` measures each on the
same scenes (models/README.md has the figures).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from companion.vision.decks import DeckProfile
from companion.vision.fusion import read_cards
from companion.vision.read import CardReader
from companion.vision.types import NOT_A_CARD, CardReading

FINDERS = ("both", "edges", "learned")


def card_finder(name: str, deck: DeckProfile) -> Callable[[np.ndarray], list[np.ndarray]]:
    """The `find_cards` function of a single finder (`edges` or `learned`) for `deck` (the
    learned finder's net differs by deck: `segment.frame_model`)."""
    if name == "edges":
        from companion.vision.detect import find_cards

        return find_cards
    if name == "learned":
        from companion.vision.segment import find_cards_learned, frame_model

        return functools.partial(find_cards_learned, model=frame_model(deck))
    raise ValueError(f"unknown card finder {name!r}: expected one of {', '.join(FINDERS)}")


class CardPipeline:
    """Finds and reads the cards of one deck; build it once, call `read` per frame."""

    def __init__(self, deck: DeckProfile, finder: str = "both") -> None:
        self.deck = deck
        # None: both finders, joined by fusion.read_cards (the edge finder where in doubt)
        self._find_cards: Callable[[np.ndarray], list[np.ndarray]] | None = (
            None if finder == "both" else card_finder(finder, deck)
        )
        self._reader = CardReader(deck)

    def read(self, image: np.ndarray) -> list[CardReading]:
        """Every card in `image` (BGR uint8), read; quads holding no card are left out."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            shape = getattr(image, "shape", None)
            raise ValueError(f"expected a BGR image of shape (H, W, 3), got {shape}")
        if self._find_cards is None:
            return read_cards(image, self._reader)
        quads = self._find_cards(image)
        if not quads:
            return []
        readings = self._reader.read_batch(image, quads)
        return [r for r in readings if r.label != NOT_A_CARD]
