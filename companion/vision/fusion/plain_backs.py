"""Backs with no print inside their margin, looked for on every frame of a deck that has
such a back.

Why: the finder net learned that a plain dark rectangle is a phone, and takes a plain back
for one or for the table; the edge finder wants print inside a card for the same reason.
Told the colour of the enrolled back's plain inside (`back_colour.plain_inside`), the edge
finder also keeps quads of that colour (`detect.find_cards`), and where the learned
finder's first look leaves no doubt (so the edge finder has not run), it runs for these
alone (none of its other quads: on a settled frame they would be read nowhere else): a
quad no reading covers that reads as the back at `picking.BACK_WITHOUT_NET` stands, as
any edge quad's back where the net sees no card. The reader reads a quad as such a back
only in the back's colour (`read.CardReader`). Measured: models/README.md, card finder,
"Backs plain inside".
"""

from __future__ import annotations

import numpy as np

from ..detect import find_cards
from ..geometry import quad_iou
from ..read import CardReader
from ..types import CardReading
from .levels import SAME_CARD
from .picking import BACK_WITHOUT_NET


def plain_backs(
    colour: np.ndarray, reader: CardReader, kept: list[CardReading]
) -> list[CardReading]:
    """`kept` with the backs of `reader`'s deck the edge finder finds in the BGR frame
    `colour` by their plain inside's colour (`DeckProfile.plain_back`) where no reading of
    `kept` lies (`SAME_CARD`); `kept` as it is for a deck whose back carries print."""
    if reader.deck.plain_back is None:
        return kept
    quads = [
        quad
        for quad in find_cards(colour, reader.deck.plain_back, plain_only=True)
        if not any(quad_iou(quad, reading.corners) >= SAME_CARD for reading in kept)
    ]
    if not quads:
        return kept
    backs = [
        reading
        for reading in reader.read_batch(colour, quads)
        if reading.face == "down" and reading.confidence >= BACK_WITHOUT_NET
    ]
    return kept + backs
