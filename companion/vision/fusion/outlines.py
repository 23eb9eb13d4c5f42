"""A back stands only where its quad shows a card's outline on two sides or more.

Why: the readers learned backs of any design (a back may be any print), so a patch of a
textured cloth, outlined by a finder, can read as a back. On the real photos' train split
shrunk into a webcam's frame (cards 100 and 150 px long), where a carpet's pile is as fine
as a back's print, 130 back readings lay on the carpet and other cloths, some at
0.93-0.96; the photos hold no face-down card. A card's quad shows the card's edge: the
colour steps the same way all along a side (`side_contrast`), where a patch of the cloth
shows the same texture on both sides of its quad's sides.

Measured (2026-12-05, forty-ninth stop) on the backs read on tuning tables and matched to
a face-down card (5,234: 300 playing and 300 animal card scenes from 4,200,000, 100 row
tables a deck from 4,450,000, 100 tables of designed backs from 4,100,000): the second
best side of every one steps by 6.8 or more with a consistency of 0.4 or more, at one of
the two depths (`side_contrast.INSIDE`). Of the 135 backs read on the real train split
(as photographed, and with cards 100 and 150 px long, at every turn), 39 do not: backs
read there 5, 45 and 85 -> 5, 30 and 60, no card read right lost. The rest lie beside a
card or along the photo's edge in the webcam frame, or on a printed rectangle (a box's
window), whose steps are as plain as a card's. Through the pipeline: 300 playing and 300
animal tables, 100 row tables a deck, 120 heaps, 500 tables with jokers and 100 empty
tables read exactly as before; designed backs a phantom fewer (1 -> 0); 30 of those
tables each read with its back enrolled, phantoms 2 -> 0; 12 enrolled animal decks with
backs never seen (4,650,000+, 5 tables each) the same cards, readings on their empty
tables 2 -> 1; 20 faint ones the same. With one depth only, or without `OUTLINE_SURE`, a
back was lost (an enrolled back read at 1.0 from a quad lying inside its print).
Time: about 0.3 ms for the 6 backs of a table (three samplings of the frame across the
sides, `side_steps`).
"""

from __future__ import annotations

import numpy as np

from ..side_contrast import outlined_sides
from ..types import CardReading

OUTLINE_CONTRAST = 5.0
OUTLINE_CONSISTENCY = 0.4
OUTLINED_SIDES = 2
# A back read this surely stands whatever its quad's sides show: an enrolled deck's back
# matched to its own picture, its quad placed inside the card (within the back's own
# print, which shows no outline). The backs read on the real photos reached 0.96.
OUTLINE_SURE = 0.99


def outlined_backs(image: np.ndarray, readings: list[CardReading]) -> list[CardReading]:
    """`readings` without the backs read below `OUTLINE_SURE` whose quads show fewer than
    `OUTLINED_SIDES` sides stepping by `OUTLINE_CONTRAST` with `OUTLINE_CONSISTENCY`
    (`side_contrast`)."""
    backs = [
        index
        for index, reading in enumerate(readings)
        if reading.face == "down" and reading.confidence < OUTLINE_SURE
    ]
    if not backs:
        return readings
    sides = outlined_sides(
        image,
        [readings[index].corners for index in backs],
        OUTLINE_CONTRAST,
        OUTLINE_CONSISTENCY,
    )
    dropped = {index for index, count in zip(backs, sides, strict=True) if count < OUTLINED_SIDES}
    return [reading for index, reading in enumerate(readings) if index not in dropped]
