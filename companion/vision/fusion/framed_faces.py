"""A 6..King read on the printed frame inside it, not on its edges: read again grown to the
size of the cards beside it.

A court card's figure lies in a printed frame, and its pips a margin in from its edges.
Where a card lies in a row, one side against its neighbour, placing its quad on the
card's edges (`side_fit.out_to_card_edges`, which moves out only where an outer outline
shows evenly on all four sides) can leave it on that frame: a quad read as a 6..King for
sure, but a fifth shorter than the card, on which the benchmark counts the card lost
(tuning row table 4,450,118: a King 105 px long read at 0.99 on a quad 82 px long).
One deck's cards lie at one size: such a quad, shorter than `FRAMED` of the nearest card
read for sure of a whole card's aspect, is read again with each side moved out by half
the difference in length, where the net sees card along the ring between the two
(`RING_CARD`: the card's margin round its frame); where that reads a 6..King for sure
and overlaps no other card read (`NEIGHBOUR_IOU`), it stands instead. Without the ring,
9 6..Kings of 100 playing tuning card scenes, read right on their edges but smaller
than their neighbours (the card scenes' cards differ in size, as a tilted camera's do),
were grown onto the table round them: IoU with the card 0.83-0.98 -> 0.58-0.72, which
the benchmark still counts as found. 6..Kings only: a game card's quad is sized by its
index (`fusion.indices`), and a back's pattern reads alike inside the card.

Measured (2026-12-07, seventieth stop; OpenCV 5.0, the tuning sets): playing row tables
1,909 -> 1,910 (150 from 4,450,100) and 2,504 -> 2,505 (200 from 4,450,250), tilted
card scenes 2,122 -> 2,123 (150 from 4,210,000); no table loses a card, no error more;
every other set exactly as before (card scenes of both decks, animal rows, tilted rows,
jokers, heaps, designed and enrolled backs, empty tables, the real train split as
photographed and at 100 px, every turn).
"""

from __future__ import annotations

import numpy as np

from ..geometry import as_quad, grown_sides, quad_iou, quad_long_sides, whole_card_aspects
from ..read import CardReader
from ..segment import CardMaps
from ..side_fit import sample
from ..types import OTHER, CardReading
from .levels import SURE_ENOUGH, reads_sure

# A 6..King's quad this much shorter than the nearest whole card read for sure lies on its
# printed frame: court cards' frames lie about a tenth of the card in from each end. At
# 0.92, a card more on 200 playing tuning row tables (4,450,360), every other set as at
# 0.85, but more quads read again on the card scenes, where it finds nothing.
FRAMED = 0.85

# The grown quad must overlap every other card read less than this (IoU): grown over a
# neighbour, it is no longer that one card.
NEIGHBOUR_IOU = 0.3

# The net's mean card probability along the ring a quad would grow by, at least, and the
# points sampled on each of its sides: a printed frame lies inside the card's margin,
# which the net sees as card; round a card smaller than its neighbours lies the table.
RING_CARD = 0.7
RING_POINTS = 12


def grown_faces(
    image: np.ndarray, reader: CardReader, kept: list[CardReading], maps: CardMaps | None
) -> list[CardReading]:
    """`kept` (read in `image`, BGR uint8), each 6..King read for sure on a quad shorter
    than `FRAMED` of the nearest other card read for sure of a whole card's aspect
    replaced by its reading grown to that card's length (`geometry.grown_sides`), where
    the net's `maps` see card along the ring it grows over (`_ring_on_card`; with no maps,
    never), and that reads a 6..King for sure overlapping no other card of `kept` at
    `NEIGHBOUR_IOU`."""
    faces = [k for k, r in enumerate(kept) if r.label == OTHER and r.confidence >= SURE_ENOUGH]
    if not faces or maps is None:
        return kept
    # every card measured at once, and each face's nearest card found as
    # `geometry.nearest_card` finds it: a frame's 15 cards asked one by one cost 0.5 ms
    quads = np.stack([as_quad(r.corners) for r in kept])
    lengths, whole = quad_long_sides(quads), whole_card_aspects(quads)
    centres = [r.corners.mean(axis=0) for r in kept]
    sure = [k for k, r in enumerate(kept) if whole[k] and reads_sure(r)]
    framed, grown = [], []
    for index in faces:
        reading = kept[index]
        cards = [k for k in sure if kept[k] is not reading]
        if not cards:
            continue
        apart = np.linalg.norm(np.stack([centres[k] for k in cards]) - centres[index], axis=1)
        card = cards[int(apart.argmin())]
        length, card_length = float(lengths[index]), float(lengths[card])
        by = (card_length - length) / 2
        if length < FRAMED * card_length and _ring_on_card(maps, reading.corners, by):
            framed.append(index)
            grown.append(grown_sides(reading.corners, by))
    if not framed:
        return kept
    out = list(kept)
    for index, again in zip(framed, reader.read_batch(image, grown), strict=True):
        others = (r for k, r in enumerate(kept) if k != index)
        if (
            again.label == OTHER
            and again.confidence >= SURE_ENOUGH
            and all(quad_iou(again.corners, r.corners) < NEIGHBOUR_IOU for r in others)
        ):
            out[index] = again
    return out


def _ring_on_card(maps: CardMaps, quad: np.ndarray, by: float) -> bool:
    """Whether the net sees card (`RING_CARD`, on average) along the middle of the ring
    between `quad` and `quad` grown by `by` pixels all round: the card's margin round its
    printed frame, not the table round a card smaller than its neighbours."""
    middle = grown_sides(quad, by / 2)
    t = np.linspace(0.1, 0.9, RING_POINTS, dtype=np.float32)[:, None]
    points = np.concatenate([middle[k] + t * (middle[(k + 1) % 4] - middle[k]) for k in range(4)])
    return float(sample(maps.card, maps.to_map(points)[None]).mean()) >= RING_CARD
