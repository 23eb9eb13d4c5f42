"""One reading per card from the readings of both finders' quads: which may stand at all
(`_worth_reporting`), which lie on the same card, and which of those wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..geometry import quad_iou
from ..types import NOT_A_CARD, CardReading
from .candidates import Candidates, meeting_pairs
from .finders import ZOOM_TWIN
from .levels import SAME_CARD, SURE, SURE_ENOUGH, preference

# An edge quad the net does not agree with may stand for a back read this surely. On 300
# empty tuning tables (seed 6,100,150+) such quads read as a back at 0.72 at most (animal
# deck; none with the playing deck), while rendered backs the net took for the table read
# at 0.91-0.95: on 200 playing tuning scenes 2,813 -> 2,816 cards right, no phantom more;
# the animal scenes and the real train split unchanged.
BACK_WITHOUT_NET = 0.9

# Where the deck's enrolled back is plain inside its margin, an edge quad of such a card's
# shape (`finders.may_be_plain_backs`) the net does not agree with may stand for a back
# read this surely. Why: the finder net learned a plain rectangle as a phone or the table,
# and sees few such backs; the edge finder keeps quads of the back's colour, and the
# reader reads one as the back only in its colour and print, but at 0.55-0.89 where
# nothing covers it (its embedding's likeness to one flat picture). Measured (2026-12-02,
# thirty-ninth stop) on 100 tuning tables of designed backs each enrolled as the playing
# deck's own (4,100,000+, 54 plain inside; 200 empty tables from 6,100,150, 216 more from
# 6,100,300): face-down cards read as backs 730 -> 741 of 845, cards right 1,341 ->
# 1,352 of 1,463, phantoms 2 -> 2, readings on the empty tables 0 -> 0 and 4 -> 4; 26
# faint designs enrolled as animal decks, 3 tables each (4,170,000+): 355 -> 359 of 462,
# phantoms 6 -> 6, 13 readings on 260 empty tables as before; 12 enrolled animal decks, 5
# tables each (4,160,000+), and the 59 designs plain inside, 3 tables each (4,650,000+,
# 590 empty tables): unchanged (319 of 367, 918 of 1,018 backs). At 0.5, 745 backs on the
# first set and a phantom more. The settled frame's search (`plain_backs`) keeps
# BACK_WITHOUT_NET: at 0.7 it read five quads of a light cloth around a chip as a grey
# back on one empty table. The built-in decks have no plain back: their tables are
# unchanged.
PLAIN_BACK_WITHOUT_NET = 0.7

# A learned-only reading without a game rank is kept from this confidence up. On the real
# photos its stray blobs read as "other" or "back" at 0.02-0.38 (44 of 52 strays).
LEARNED_ALONE_FLOOR = 0.35

# A game card found by the second look only stands from ZOOM_GAME (any other reading
# from SURE_ENOUGH), one of three searches measured together (`sides.FRAGMENT_ASPECT`).
# Alone: animals +1, +2, playing +1, +0, +0. At 0.5, two game cards on no card more
# (quads on part of a card) and a stray reading more on the real train split; at 0.7, 2
# animal cards fewer than at 0.6.
ZOOM_GAME = 0.6


def pick_readings(
    found: Candidates,
    readings: Sequence[CardReading],
    rough_readings: Mapping[int, CardReading],
) -> list[CardReading]:
    """One reading per card from the readings of `found.quads` (in that order) and those
    of some rough rectangles (by learned index); the kept readings stay in quad order."""
    edge_count = len(found.edges)
    readings = list(readings)
    for index, rough in rough_readings.items():
        placed = readings[edge_count + index]
        if rough.label != NOT_A_CARD and (
            placed.label == NOT_A_CARD or preference(rough) > preference(placed)
        ):
            readings[edge_count + index] = rough
    options = [
        index
        for index, reading in enumerate(readings)
        if reading.label != NOT_A_CARD and _worth_reporting(found, index, reading)
    ]
    first_look = len(found.quads) - found.zoomed
    same = _same_cards(
        readings,
        [i for i in options if i < edge_count],
        [i for i in options if edge_count <= i < first_look],
        [i for i in options if i >= first_look],
    )
    options.sort(key=lambda index: preference(readings[index]), reverse=True)
    kept: set[int] = set()
    for index in options:
        if not same[index] & kept:
            kept.add(index)
    return [readings[index] for index in sorted(kept)]


def _worth_reporting(found: Candidates, index: int, reading: CardReading) -> bool:
    """Whether a reading may stand for a card: any reading of an edge quad the net agrees
    with; where the net sees no card, a face read for sure or a back at `BACK_WITHOUT_NET`
    (`PLAIN_BACK_WITHOUT_NET` where it may be the deck's plain back);
    from the learned finder, a game card or a reading at `LEARNED_ALONE_FLOOR`, from its
    second look (`zoomed`) any reading at `SURE_ENOUGH`."""
    if index < len(found.edges):
        back = PLAIN_BACK_WITHOUT_NET if found.plain_back_shaped(index) else BACK_WITHOUT_NET
        floor = SURE if reading.face == "up" else back
        return found.net_agrees[index] or reading.confidence >= floor
    if index >= len(found.quads) - found.zoomed:  # the second look's
        return reading.confidence >= (ZOOM_GAME if reading.rank is not None else SURE_ENOUGH)
    return reading.rank is not None or reading.confidence >= LEARNED_ALONE_FLOOR


def _same_cards(
    readings: Sequence[CardReading], edge: list[int], first_look: list[int], second_look: list[int]
) -> dict[int, set[int]]:
    """For each reading, the readings that lie on the same card: of the other finder
    (`SAME_CARD`), and of the learned finder's other look outlined as it (`ZOOM_TWIN`).

    The second look leaves out a quad outlined as the first look's (`finders._new_quads`),
    but by the quads it placed: where both placed quads missed the card, each look's
    rough rectangle can read it (tuning card scene 4,200,092: an Ace of spades read twice,
    the two quads read overlapping at IoU 0.93)."""
    learned = first_look + second_look
    same: dict[int, set[int]] = {index: set() for index in edge + learned}
    corners = [reading.corners for reading in readings]
    for group, other, overlap in (
        (edge, learned, SAME_CARD),
        (first_look, second_look, ZOOM_TWIN),
    ):
        for a, b in meeting_pairs([corners[i] for i in group], [corners[j] for j in other]):
            i, j = group[a], other[b]
            if quad_iou(corners[i], corners[j]) >= overlap:
                same[i].add(j)
                same[j].add(i)
    return same
