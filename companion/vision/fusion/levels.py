"""The confidence levels every rule of the default finder shares, and the tests built on
them: whether a reading is sure, settled, a face read for sure; which of two readings
stands first; whether a quad lies mostly on a card read for sure."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..geometry import quad_cover
from ..types import NOT_A_CARD, CardReading

# A reading the reader stands by (read.py: every game rank, a 6..King read clearly).
SURE = 0.5

# A learned card read as a face (6..Kings too) or a back at this confidence is not read a
# second time from its rough rectangle; an edge quad read so sure is not read again from
# its twin.
SURE_ENOUGH = 0.9

# A 6..King read by the learned finder at this confidence or more needs no second finder
# (`in_doubt`). A 9 fanned over an Ace, outlined as one quad, read as a face at 0.53
# (the Ace, read from its index, was lost at 0.5). On 200 tuning scenes (seed 960,100),
# 0.5, 0.75 and 0.9 left the edge finder out on 52%, 45% and 33% of the frames, with 2,805,
# 2,804 and 2,804 cards read right.
SETTLED = 0.75

# Two readings, one of each finder, whose quads overlap this much (IoU) are one card.
SAME_CARD = 0.3

# A quad with this fraction of its area or more on a quad read for sure is part of that
# card, not searched: moved, the second look's small quad on a 4 of hearts (held-out
# scene 5,000,091) held one pip and read as an Ace of hearts at 1.0. On the tuning sets
# of the side search (`sides.SIDE_SHIFTS`) nothing else changed (the same scenes, card
# for card, as an edge quad read for sure overlapping it at SAME_CARD). A reading below
# SURE with this fraction of its area on a card read for sure is dropped
# (`without_parts`: a strip of a back read as a back, an unsure face on a corner of a
# card). Measured on the tuning sets of the three searches of the eighteenth stop
# (`sides.FRAGMENT_ASPECT`), with them in place: phantoms 4 -> 3 and 3 -> 2 (animals), 0
# -> 0, 1 -> 0 and 6 -> 5 (playing), the real train split's stray readings 9 -> 7,
# nothing read right lost, the empty tables and the fans unchanged; at 0.3, the same.
INSIDE_SURE = 0.5


def reads_sure(reading: CardReading) -> bool:
    """Whether `reading` says a card (a face or a back) at `SURE_ENOUGH` or more."""
    return reading.label != NOT_A_CARD and reading.confidence >= SURE_ENOUGH


def settled(reading: CardReading, floor: float) -> bool:
    """A back, a game rank, or a 6..King read at `floor` or more: a card whose reading
    stands."""
    if reading.face == "down" or reading.rank is not None:
        return True
    return reading.label != NOT_A_CARD and reading.confidence >= floor


def face_read_for_sure(reading: CardReading) -> bool:
    """Whether `reading` is a face up read for sure (`reads_sure`: "not a card", also
    face up, is no face)."""
    return reading.face == "up" and reads_sure(reading)


def preference(reading: CardReading) -> tuple[bool, float]:
    """A read face (a game rank) or a back before an unread face, then confidence."""
    return (reading.rank is not None or reading.face == "down", reading.confidence)


def mostly_on(quad: np.ndarray, cards: Sequence[np.ndarray]) -> bool:
    """Whether `INSIDE_SURE` of `quad`'s area or more lies on one of `cards`."""
    return any(quad_cover(quad, card) >= INSIDE_SURE for card in cards)
