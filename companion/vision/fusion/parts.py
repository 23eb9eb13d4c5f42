"""Cards the finders did not outline, read from the net's uncovered card pixels, and
pieces of cards read for sure, dropped."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..geometry import card_shaped, quad_area, quad_cover, quad_long_sides, whole_card_aspects
from ..read import CardReader
from ..segment import part_rectangles
from ..types import NOT_A_CARD, CardReading
from .candidates import Candidates
from .doubt import uncovered
from .levels import SURE, SURE_ENOUGH, face_read_for_sure, mostly_on, preference, reads_sure

# A reading below SURE_ENOUGH lying mostly (INSIDE_SURE) on a card read for sure that is
# at least 1 / PART_SIZE times its size is a piece of that card (`without_parts`): a
# quad on one pip of a 10 of clubs, of a 5 of spades, read as the Ace of clubs at
# 0.50-0.57 (the whole face of an Ace is one pip) in close-up heaps of cards. Cards of one
# deck lie at one size; a card's index read on a card over it (`index_cards`) is
# reported whole, at that size, and stays. Measured (2026-11-30, nineteenth stop) on 120
# rendered close-up heaps (seeds 3,100,000+, `layout="pile"`, 328 faces with an index in
# sight, 121 of them game cards): game cards read on no card or as another 4 -> 1, game
# cards read right 92 -> 92, faces 232 -> 231 (a 6..King read at 0.74 on a loose quad of
# two cards); on the tuning sets phantoms 5 -> 4 (playing, 960,500), 3 -> 2 and 7 -> 4
# (animals), the real train split's stray readings 7 -> 6, nothing read right lost.
# A back is such a piece however surely it reads (2026-12-01): the finders outline a
# strip of a back apart from the whole of it, and the strip reads as a back at 0.9-0.96.
# Measured on 2,000 playing tuning tables (seeds 4,200,000+): phantoms 28 -> 22 with the
# enrolled decks' finder net, 38 -> 29 with the playing deck's (`segment.BACKS_MODEL`),
# cards read right 28,849 both ways; on the other tuning sets (three sets of 200 playing
# tables, two of animals, 150 empty tables of each, the real train split, 120 heaps) a
# phantom fewer, nothing else changed.
PART_SIZE = 0.6
# A back lying mostly on a card read at this confidence or more (a face the reader stands
# by, or a back) at least 1 / PART_SIZE times its size is a piece of that card. Until
# 2026-12-02 only a card read for sure (SURE_ENOUGH) was such a host: on the real train
# photo IMG_2626 the ornate spade of an Ace of spades read at 0.75, half under a King,
# was outlined alone and read as a back at 0.82, a card played face down where none lay.
# Measured on the tuning sets (300 playing tables from 4,200,000, 150 of designed backs
# from 4,100,000, 150 animal tables from 4,800,000, 60 heaps from 3,100,000, 300 empty
# tables from 6,100,150, the real train split): the animal tables' phantoms 8 -> 7, the
# real train split's stray readings 8 -> 7, nothing else changed (held out, the real test
# split's 4 -> 3).
BACK_HOST = SURE
# A back at least this fraction of the frame's card length (`_card_length`) is a card of
# its own however much of it a larger quad holds: in rows a face is often outlined with
# part of the back beside it, its quad half as large again as a card, and the back, read
# right, lay mostly on that face (tuning row table 4,450,321: a back read at 0.95 at IoU
# 0.98 under a quad of an unsure face 1.7 times its size). On 450 playing tuning row
# tables (4,450,000+) and 600 card scenes (4,200,000+), of the 19 backs read as such
# pieces, the 9 right ones lay at 0.87-1.14 of the card length, the 10 others (strips of
# backs, parts of two cards) at 0.47-0.85. Measured: models/README.md, "Seventy-second stop".
WHOLE_BACK = 0.95

# Card pixels of the net that no reading covers, in parts of PART_AREA net pixels or
# more (a card 45 px long is about 150 at 0.325), are read as rectangles
# (`outlined_parts`); one that reads a face for sure, lying on no card read (less than
# PART_OVERLAP of either's area), is a card. One of three searches measured together
# (`sides.FRAGMENT_ASPECT`); alone: animals +2, +0, playing +1, +1; the real train
# split's one card more.
PART_AREA = 60
PART_OVERLAP = 0.3


def outlined_parts(
    image: np.ndarray, reader: CardReader, found: Candidates, kept: list[CardReading]
) -> list[CardReading]:
    """`kept`, with a card for each part of the net's card pixels that no reading of
    `kept` covers (`PART_AREA` net pixels or more) whose rectangle, as it is or grown to a
    card's shape (`geometry.card_shaped`), reads a face at `SURE_ENOUGH` lying on no
    card of `kept`: a card the net saw with no core, which no finder outlined."""
    if found.maps is None:
        return kept
    rectangles = part_rectangles(found.maps, uncovered(found.maps, kept), PART_AREA)
    if not rectangles:
        return kept
    groups = [[rectangle, *card_shaped(rectangle)] for rectangle in rectangles]
    read = reader.read_batch(image, [quad for group in groups for quad in group])
    out, start = list(kept), 0
    for group in groups:
        tries, start = read[start : start + len(group)], start + len(group)
        standing = [
            reading
            for reading in tries
            if face_read_for_sure(reading)
            and not any(_overlaps(reading.corners, r.corners) for r in kept)
        ]
        if standing:
            out.append(max(standing, key=preference))
    return out


def without_parts(readings: list[CardReading]) -> list[CardReading]:
    """`readings` less the pieces of a card read for sure: those the reader does not
    stand by (below `SURE`) lying mostly (`INSIDE_SURE`) on it (a strip of a back, a
    corner of a face), and those below `SURE_ENOUGH` lying mostly on one much larger
    (`PART_SIZE`: one pip of it read as an Ace); and backs however sure lying mostly on
    a much larger card the reader stands by (`BACK_HOST`: a strip of a back outlined
    apart from the rest of it, an ornate pip read as a back), unless the back is as long
    as the frame's cards (`WHOLE_BACK`)."""
    sure = [r for r in readings if reads_sure(r)]
    quads = [r.corners for r in sure]
    hosts = [r for r in readings if r.label != NOT_A_CARD and r.confidence >= BACK_HOST]
    length = _card_length(sure)
    return [
        r
        for r in readings
        if not (r.confidence < SURE and mostly_on(r.corners, quads))
        and not (r.confidence < SURE_ENOUGH and _piece_of(r, sure))
        and not (r.face == "down" and not _card_long(r, length) and _piece_of(r, hosts))
    ]


def _card_length(sure: Sequence[CardReading]) -> float | None:
    """The frame's card length: the median long side of the cards read for sure (`sure`)
    whose quads have a whole card's shape (one deck's cards lie at one size); None where
    there is none."""
    if not sure:
        return None
    quads = np.stack([r.corners for r in sure])
    lengths = quad_long_sides(quads)[whole_card_aspects(quads)]
    return float(np.median(lengths)) if len(lengths) else None


def _card_long(reading: CardReading, length: float | None) -> bool:
    """Whether `reading`'s quad is at least `WHOLE_BACK` of the card `length` long."""
    return length is not None and float(quad_long_sides(reading.corners[None])[0]) >= (
        WHOLE_BACK * length
    )


def _piece_of(reading: CardReading, sure: Sequence[CardReading]) -> bool:
    """Whether `reading` lies mostly (`INSIDE_SURE`) on another of the `sure` readings at
    least 1 / `PART_SIZE` times its size."""
    size = quad_area(reading.corners)
    larger = [
        other.corners
        for other in sure
        if other is not reading and size < PART_SIZE * quad_area(other.corners)
    ]
    return mostly_on(reading.corners, larger)


def _overlaps(quad: np.ndarray, card: np.ndarray) -> bool:
    """Whether `quad` and `card` overlap by `PART_OVERLAP` of the area of either."""
    return max(quad_cover(quad, card), quad_cover(card, quad)) >= PART_OVERLAP
