"""A game card outlined by no quad at all, lying in a row between two cards read for sure:
read on a card-sized quad midway between them.

Players lay cards in a row, each over the one before. The middle card of three shows a
band between its neighbours, and where the finders outline the two neighbours well they
may outline nothing of it: no quad, sure or not, for the other searches (`reaching.py`,
`cut_out.py`, `pairs.py`) to start from. Its neighbours say where it lies: one deck's
cards lie at one size, a row's cards are turned alike and lie at even steps, so the
middle card lies midway between the two, in their size and turn.

So each pair of cards read for sure that lie like two cards of one row with a card's room
between them (`_midway`: turned alike within `PAIR_TURNED`, as wide across the row within
`SAME_SIZE`, their centres `ROW_STEPS` of a card apart along one of its axes and within
`OFF_ROW` across it), with no card read for sure there, gets two quads midway in the
first one's turn: as wide and as long as the larger of the two (each is outlined by its
part in sight), and as the frame's cards read for sure are in the median. Each is read as
it is and placed on the card's edges. A game card read there on the terms of the search
at the ends of unsure quads (`reaching.one_game_card`: at `SURE_ENOUGH`, the only one
those quads name, no card read for sure already, and for playing cards read nowhere else
in the frame) stands (`pairs.stand_for`: an unsure reading over it gives way to it). As
that search, it runs on steady frames in doubt only (`reaching.py` says why).

Measured (2026-12-07, sixty-eighth stop; OpenCV 5.0, the tuning sets of `reaching.py`):
playing row tables 1,226 -> 1,228 of 1,271 (100 from 4,450,000) and 1,902 -> 1,903 of
1,957 (150 from 4,450,100); every other set exactly as before (200 playing row tables
from 4,450,250, 450 animal row tables, 300 card scenes of each deck, jokers, heaps,
designed and enrolled backs, empty tables, 300 tables seen 35 degrees from straight down,
the real train split as photographed and at 100 px at every turn). Of the 32 places it
read on 100 playing row tables, 31 lay on the middle card of a row (IoU 0.65-0.92 with
it), 22 of them read as that card by one of their quads, but only 8 at `SURE_ENOUGH` (the
card's indices half hidden): the 2 game cards gained, 3 backs and 3 6..Kings.
Every place of a frame is placed and read in one batch. Read both ways frame by frame in
one process: 100 playing card scenes, median ratio 1.004 (its frames in doubt 1.022); 40
playing row tables, 1.008.

Measured, not kept: `PAIR_TURNED` at 8 degrees (`reaching.TURNED_ALIKE` then), a card
fewer; each card's reach measured along the first card's axes instead of its own
extent, a card more on one table but none on another; backs too, where the quads read no
game card: one back more on 450 playing row tables, and a game card read wrong counted
as one on no card instead of one on a card mostly hidden; pairs turned up to 25 degrees
apart, the middle turned halfway: an animal card more, a playing card fewer; the middle
quads read only as they are, not placed: a card fewer.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..geometry import (
    axis_turn,
    card_axes,
    order_clockwise,
    points_in_quad,
    quad_around,
    quad_extent,
)
from ..segment import place_quads
from ..types import CardReading
from .levels import reads_sure
from .pairs import stand_for
from .reaching import one_game_card
from .reading import FrameReads

# Two cards of one row: turned alike within this many degrees (their outlines are of
# their parts in sight, and turn a little with what hides them: measured, 8, as
# `reaching.TURNED_ALIKE` was until 2026-12-07's sixty-ninth stop, finds a card fewer on
# 250 tuning row tables),
PAIR_TURNED = 12.0
# as wide across the row within this fraction of the wider,
SAME_SIZE = 0.15
# their centres this many of a card's extent apart along one of its axes (cards touching
# lie 2 apart with one between; over each other by a third, 1.33),
ROW_STEPS = (1.25, 2.15)
# and within this fraction of its other extent of one line across it;
OFF_ROW = 0.35
# the card they make, long side over short, as a card's (88 x 63 mm: 1.4) within what
# outlines of parts of cards give.
CARD_ASPECT = (1.15, 1.8)


def cards_between(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept`, with a game card read midway between two cards read for sure that lie as
    two cards of one row with a card's room between them (`_midway`), where no card read
    for sure lies. The frame must be a steady one (the caller's to say)."""
    sure = [order_clockwise(r.corners) for r in kept if reads_sure(r)]
    centres = [card.mean(axis=0) for card in sure]
    # where a card read for sure has its centre, that card is read already
    places = [middles for middles in _midway(sure) if not points_in_quad(centres, middles[0]).any()]
    if not places:
        return kept
    # every place's quads placed and read at once: one grey frame, one batch per net
    quads = [quad for middles in places for quad in middles]
    placed = place_quads(frame.colour, np.stack(quads))
    readings = frame.read(quads + placed)
    out, start = list(kept), 0
    for middles in places:
        end = start + len(middles)
        at = readings[start:end] + readings[len(quads) + start : len(quads) + end]
        start = end
        reading = one_game_card(at, out, frame.enrolled)
        if reading is not None:
            out = stand_for(out, middles, [reading])
    return out


def _midway(cards: list[np.ndarray]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For each pair of `cards` (quads in clockwise order) lying as two cards of one row
    with a card's room between them (`_row_step`), two quads midway in the first one's
    turn: as wide and as long as the larger of the two along each axis (a card under its
    neighbour is outlined by its part in sight, which is shorter along the row), and of
    the median size of `cards`."""
    if len(cards) < 2:
        return
    centres = [card.mean(axis=0) for card in cards]
    usual = np.median([sorted(quad_extent(card)) for card in cards], axis=0)
    for i, first in enumerate(cards):
        axes = card_axes(first)
        if axes is None:
            continue
        u, v = axes
        first_spans = _spans(first, u, v)
        for j in range(i + 1, len(cards)):
            if axis_turn(first, cards[j]) > PAIR_TURNED:
                continue
            second_spans = _spans(cards[j], u, v)
            size = np.maximum(first_spans, second_spans)
            apart = centres[j] - centres[i]
            if not _row_step(apart @ u, apart @ v, size, first_spans, second_spans):
                continue
            middle = (centres[i] + centres[j]) / 2
            usual_size = usual if size[1] >= size[0] else usual[::-1]
            yield quad_around(middle, u, v, size), quad_around(middle, u, v, usual_size)


def _spans(quad: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(2,) `quad`'s extent (`geometry.quad_extent`) along its sides nearest unit axes
    `u` and `v`: its own width and length, not its shadow on them, which a turn or a
    skewed outline widens."""
    extent = quad_extent(quad)
    side = quad[1] - quad[0]
    return np.array(extent if abs(side @ u) >= abs(side @ v) else extent[::-1])


def _row_step(
    along_u: float, along_v: float, size: np.ndarray, first: np.ndarray, second: np.ndarray
) -> bool:
    """Whether two cards whose centres lie `along_u` and `along_v` apart, each reaching
    `first` and `second` along those axes, lie as two cards of a row with one between:
    `ROW_STEPS` of a card (`size`, the larger reach) apart along one axis, within
    `OFF_ROW` of one line across it, where both reach alike (`SAME_SIZE`: the row hides
    no part of them that way), and `size` is a card's shape (`CARD_ASPECT`)."""
    aspect = max(size) / max(min(size), 1e-6)
    if not CARD_ASPECT[0] <= aspect <= CARD_ASPECT[1]:
        return False
    steps = abs(along_u) / size[0], abs(along_v) / size[1]
    for row, across in ((0, 1), (1, 0)):
        if not ROW_STEPS[0] <= steps[row] <= ROW_STEPS[1] or steps[across] > OFF_ROW:
            continue
        if abs(first[across] - second[across]) <= SAME_SIZE * size[across]:
            return True
    return False
