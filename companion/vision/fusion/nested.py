"""A card the edge finder outlined inside a larger quad of its own: a rectangle of the
table round the card (a shadow, a tray, a mat), which it kept instead of the card.

The edge finder keeps one quad of those nested in each other (`detect._resolve_overlaps`):
a quad inside another is taken for the card's printed frame, or for a card of a row it
outlined with its neighbours. A card lying in a shadow is outlined twice, by its own sides
and by the shadow's, and the card was dropped as the shadow's "frame": the real test photo
cam_image45 at a webcam's scale (100 px, turned 90 degrees), an Ace of hearts in a
shadow five times its area, whose quad read as an unsure face (0.84), was lost; the net
saw it too faintly to leave the card unexplained, so the corner-index search never
looked.

A card's printed frame holds most of it, so the edge finder returns the whole outlines it
dropped inside a quad `detect.NESTED_CARD` times their area or more apart
(`EdgeQuads.nested`). Each that lies mostly on no card read for sure (`mostly_on`: the
print of a card read, one card of a row outlined with its neighbours) and is not much
shorter than the nearest card read for sure (`sides.SMALL_GAME_CARD`: one deck's cards
lie at one size) is read, and where it reads a card for sure (`reads_sure`) it stands for
it (`pairs.stand_for`: the unsure readings over it give way). Why the size: a diamond pip
of a blurred 10 read unsure (the real train photo IMG_2626, shaken by 6 px), outlined
whole, read as a back at 0.93 beside an Ace read for sure eight times its length.
"""

from __future__ import annotations

from ..geometry import shorter_than_nearest
from ..types import CardReading
from .levels import mostly_on, reads_sure
from .pairs import stand_for
from .reading import FrameReads
from .sides import SMALL_GAME_CARD


def nested_cards(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept` with each nested outline of the edge finder (`Candidates.nested`) lying
    mostly on no card read for sure, and of a card's size beside them, standing where it
    reads a card for sure."""
    sure = [reading.corners for reading in kept if reads_sure(reading)]
    quads = [
        quad
        for quad in frame.found.nested
        if not mostly_on(quad, sure) and not shorter_than_nearest(quad, sure, SMALL_GAME_CARD)
    ]
    out = kept
    for quad, reading in zip(quads, frame.read(quads), strict=True):
        if reads_sure(reading):
            out = stand_for(out, [quad], [reading])
    return out
