"""A face read on a quad far larger than the card beside it: two cards outlined as one,
which leaves the frame in doubt.

Players lay cards in a row, each over the one before, and a finder can outline a card
together with the one over it as one quad. That quad reads as the card whose face shows
more, though not for sure (a wolf and the mouse over it, 116 x 94 px beside a wolf 74 x
95, read as the wolf at 0.84: animal tuning row table 4,470,408), and a game rank settles
a frame whatever its confidence (`levels.settled`), a 6..King from `levels.SETTLED`: the
first look took the table as read, and the mouse was lost. One deck's cards lie at one
size, and a card half hidden is outlined smaller, never larger: a quad `OVERSIZED` times
the area of the largest of the `NEAREST` cards read for sure nearest it that it does not
overlap (`SAME_CARD`) holds more than one card. A face read on it, a game card or a
6..King, not for sure, leaves the frame in doubt (`doubt.in_doubt`), and the last look's
searches, which cut quads read unsure, part it (`pairs.split_pairs`: its two ends read
the wolf and the mouse).

Measured (2026-12-07, sixty-eighth stop; OpenCV 5.0, the tuning sets of `reaching.py`),
game cards alone first: animal row tables 3,144 -> 3,145 of 3,170 (250 from 4,470,000:
4,470,058, a bear and the lynx over it read as the bear at 0.72) and 2,488 -> 2,489 of
2,514 (200 from 4,470,250: 4,470,408); every other set exactly as before (450 playing row
tables, 300 card scenes of each deck, jokers, heaps, designed and enrolled backs, empty
tables, 300 tables seen 35 degrees from straight down, the real train split as
photographed and at 100 px at every turn). 6..Kings too: playing row tables 1,903 ->
1,904 of 1,957 (150 from 4,450,100: 4,450,196, a 6..King 171 px long outlined with part
of its neighbour, on a frame the first look settled), every other set as with game cards
alone. Measured first with the nearest card alone as the whole card's size: with the game
card's reading also lowered to 0.49, the same two animal cards and nothing else; without,
a card scene's back read as two as well (`NEAREST` says why).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..geometry import quad_area, quad_iou
from ..types import NOT_A_CARD, CardReading
from .levels import SAME_CARD, reads_sure

# A quad this many times the area of a whole card near it holds two cards: the largest of
# the NEAREST cards read for sure nearest it. The nearest alone took a 2 of spades read at
# 0.79 for two cards beside a 6..King half hidden (tuning card scene 4,200,134; in the
# frame left in doubt a back was then read as two).
OVERSIZED = 1.4
NEAREST = 3


def oversized_face(readings: Sequence[CardReading]) -> bool:
    """Whether one of `readings` is a face (a game card or a 6..King) read unsure
    (`reads_sure`) on a quad holding two cards (`_oversized`, against the cards of
    `readings` read for sure)."""
    unsure = [r for r in readings if r.face == "up" and r.label != NOT_A_CARD and not reads_sure(r)]
    if not unsure:
        return False  # most settled frames: every face read for sure
    sure = [r.corners for r in readings if reads_sure(r)]
    return any(_oversized(r.corners, sure) for r in unsure)


def _oversized(quad: np.ndarray, sure: list[np.ndarray]) -> bool:
    """Whether `quad` is `OVERSIZED` times the area of the largest of the `NEAREST` cards
    of `sure` nearest it that it does not overlap: the size of a whole card there (a card
    half under another is outlined smaller)."""
    apart = [card for card in sure if quad_iou(card, quad) < SAME_CARD]
    if not apart:
        return False
    centre = quad.mean(axis=0)
    apart.sort(key=lambda card: float(np.linalg.norm(card.mean(axis=0) - centre)))
    whole = max(quad_area(card) for card in apart[:NEAREST])
    return quad_area(quad) >= OVERSIZED * whole
