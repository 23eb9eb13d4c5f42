"""A game card read twice, on two quads over the same card, stands once.

Why: each player holds one card of each rank (and a playing card's suit is its
player's), so two readings naming the same game card whose quads lie over each other are
one card read twice: by two quads of one finder (each finder's overlapping quads stand
as two cards, `picking.py`), or by a quad of the card's part in sight and one of the
whole. The seat would show that card twice, and the referee would take it for a card
more revealed. Found on a playing tuning heap (4,400,044: a 3 of clubs read at 1.0 on
its quad and on a quad inside it).

Two such readings are the same card where their quads overlap by `levels.SAME_CARD`
(IoU) or one lies mostly on the other (`levels.mostly_on`); the one
the reader stands by more (`levels.preference`) stays.
"""

from __future__ import annotations

from ..geometry import quad_iou
from ..types import CardReading
from .levels import SAME_CARD, mostly_on, preference


def once_each(readings: list[CardReading]) -> list[CardReading]:
    """`readings` with each game card read twice over the same card (see above) once."""
    game = sorted(
        (k for k, reading in enumerate(readings) if reading.rank is not None),
        key=lambda k: preference(readings[k]),
        reverse=True,
    )
    dropped: set[int] = set()
    for a, kept in enumerate(game):
        if kept in dropped:
            continue
        for other in game[a + 1 :]:
            if other not in dropped and _same_card(readings[kept], readings[other]):
                dropped.add(other)
    return [reading for k, reading in enumerate(readings) if k not in dropped]


def _same_card(one: CardReading, two: CardReading) -> bool:
    """Whether `one` and `two` name the same game card on quads over the same card."""
    if (one.rank, one.suit) != (two.rank, two.suit):
        return False
    a, b = one.corners, two.corners
    return quad_iou(a, b) >= SAME_CARD or mostly_on(a, [b]) or mostly_on(b, [a])
