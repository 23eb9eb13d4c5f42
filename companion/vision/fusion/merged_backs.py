"""Two backs outlined as one quad: read as the two, where card-sized parts at two of its
corners read as backs.

Why: players lay their cards in a row, face down until the call, each over the one
before by a little, and a finder can outline two such backs as one quad. A back's print
fills any part of it, so that quad reads as a back, often for sure, and the seat counts
one face-down card where two lie: the referee asks for a card that is there. Found on
the playing tuning row tables: 4,450,018, a back 175 px long, wholly in sight, over
another, both read as one back at 0.95 on a quad round both (2.1 times a card's area).
Of 250 playing row tables (4,450,000+), 7 such quads; of 250 animal ones, 1.

A back stands for two backs (`parted_backs`) where:
- its quad is `MERGED` times the area of the nearest card read for sure or more, and of
  the median one (one deck's cards lie at one size; the median too, since the nearest
  card can be read for sure from its part in sight, and then sizes nothing);
- two card-sized parts of it (`_parts`: at its corners, the nearest card's size, lying
  along it or across it) overlap less than `APART` and cover `COVER` of it together,
  and both read as backs at `SURE_ENOUGH`.
Of several such pairs, one whose facing sides show an edge (`SEAM_STEP`, the
consistency of `side_contrast.side_steps`: the edge of the card on top) comes first,
then the surer. The edge is no condition: a back's white border is a few pixels wide,
and where the card under it shows print on both sides of that border, the steps across
it vary as the print does (a red back over another, rendered: 0.34-0.52).

Measured (2026-12-07, sixty-sixth stop; OpenCV 5.0, the tuning sets): playing row tables
1,221 -> 1,223 of 1,271 cards right (100 from 4,450,000), 1,899 -> 1,901 (150 from
4,450,100), 2,484 -> 2,489 (200 from 4,450,250), tables of designed backs 1,249 -> 1,252
(100 from 4,100,000); wrong game ranks, game cards on no card and phantoms as before;
300 playing and 300 animal card scenes, 450 animal row tables, 100 tables of enrolled
animal decks with backs never seen, 100 with jokers, 120 heaps, 150 empty tables and the
real train split as photographed exactly as before; at 100 px in a webcam's frame, turned
0 degrees, a back read on carpet where no card lies (at 0.91, along the seam the
benchmark draws round the photo) stands as two backs (stray backs 5 -> 6), the other
turns as before. Tables seen 35 degrees from straight down (150 card scenes from
4,210,000, 150 row tables from 4,460,000): rows 1,825 -> 1,827 of 1,931, the scenes the
same, phantoms the same. Held out (OpenCV 5.1; `companion bench vision` with `--rows 100`,
`--designed-backs 100` and the rest of the README's table): exactly as before.
With the edge a condition (at 0.7): rows +2, +1, +4, designed backs +0. Sized by the
nearest card alone, two single backs were parted (4,450,084 and animal scene 4,800,251):
each beside a card read for sure from its part in sight, 2.0 and 2.1 times its area,
0.85 and 0.75 times the median card's. Time: 0.05 ms a frame (median, 60 playing tuning
scenes and 60 row tables; the parts are read only on a back that large).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..geometry import order_clockwise, quad_areas, quad_extent, quad_part
from ..read import CardReader
from ..side_contrast import facing_alike, side_steps
from ..types import CardReading
from .levels import SURE_ENOUGH, reads_sure

MERGED = 1.4  # a back's area, at least, over the nearest and the median card's read for sure
APART = 0.4  # the two parts' overlap (IoU), less than: two cards, not one
COVER = 0.7  # of the quad that the two parts cover together, at least
SEAM_STEP = 0.7  # the consistency of the steps across the side one part turns to the other
# A card fits inside a quad along a side where it is at most this long there (a quad
# measured a little short of the cards it outlines).
FITS = 1.05

# A part's span in its quad: fractions (a0, b0, a1, b1) along sides 0 and 3
Span = tuple[float, float, float, float]


def parted_backs(
    image: np.ndarray, reader: CardReader, readings: list[CardReading]
) -> list[CardReading]:
    """`readings` with each back that is two backs outlined as one (see above) standing as
    those two, read by `reader` in `image` (BGR uint8) on their parts."""
    backs = [k for k, reading in enumerate(readings) if reading.face == "down"]
    sure = np.flatnonzero([reads_sure(reading) for reading in readings])
    if not backs or not len(sure):
        return readings  # most frames of a game: nothing to part, or nothing to size it
    corners = np.stack([reading.corners for reading in readings]).astype(np.float32)
    areas, centres = quad_areas(corners), corners.mean(axis=1)
    # the nearest card read for sure to each back, all at once (every frame with a back
    # asks); a back is never its own nearest card
    apart = np.linalg.norm(centres[backs][:, None] - centres[sure][None], axis=2)
    apart[np.asarray(backs)[:, None] == sure[None]] = np.inf
    nearest = sure[apart.argmin(axis=1)]
    parted: dict[int, list[CardReading]] = {}
    for k, card in zip(backs, nearest, strict=True):
        others = sure[sure != k]
        if not len(others) or areas[card] <= 0 or areas[k] < MERGED * areas[card]:
            continue  # most backs: the size of the card beside them
        if areas[k] < MERGED * float(np.median(areas[others])):
            continue
        two = _parted(image, reader, order_clockwise(corners[k]), corners[card])
        if two is not None:
            parted[k] = two
    if not parted:
        return readings
    return [card for k, reading in enumerate(readings) for card in parted.get(k, [reading])]


def _parted(
    image: np.ndarray, reader: CardReader, quad: np.ndarray, card: np.ndarray
) -> list[CardReading] | None:
    """The two backs that a back's `quad` (clockwise) outlines, each the size of `card`
    (the nearest card read for sure), or None."""
    spans, parts = _parts(quad, card)
    read = reader.read_batch(image, parts) if len(parts) >= 2 else []
    backs = [k for k, r in enumerate(read) if r.face == "down" and r.confidence >= SURE_ENOUGH]
    pairs = [(i, j) for i, j in combinations(backs, 2) if _apart_and_covering(spans[i], spans[j])]
    if not pairs:
        return None
    _, alike = side_steps(image, [parts[k] for k in backs])
    steps = dict(zip(backs, alike, strict=True))  # by part: (4 sides, depths)

    def rank(pair: tuple[int, int]) -> tuple[bool, float]:
        """An edge between the two parts first (`SEAM_STEP`), then the surer pair."""
        i, j = pair
        seam = facing_alike(parts[i], parts[j], steps[i], steps[j])
        return seam >= SEAM_STEP, min(read[i].confidence, read[j].confidence)

    i, j = max(pairs, key=rank)
    return [read[i], read[j]]


def _parts(quad: np.ndarray, card: np.ndarray) -> tuple[list[Span], list[np.ndarray]]:
    """The parts of `quad` (clockwise) the size of `card`, one at each of its corners, the
    card lying along it and across it where it fits (`FITS`): their spans and corners."""
    long_side, short_side = sorted(quad_extent(card), reverse=True)
    # how far apart sides 1 and 3 lie (along side 0), and sides 0 and 2
    along_a, along_b = quad_extent(quad)
    if min(along_a, along_b) <= 0:
        return [], []
    spans: list[Span] = []
    for length_a, length_b in ((long_side, short_side), (short_side, long_side)):
        share_a, share_b = length_a / along_a, length_b / along_b
        if share_a > FITS or share_b > FITS:
            continue
        share_a, share_b = min(share_a, 1.0), min(share_b, 1.0)
        spans += [
            (a0, b0, a0 + share_a, b0 + share_b)
            for a0 in sorted({0.0, 1.0 - share_a})
            for b0 in sorted({0.0, 1.0 - share_b})
        ]
    return spans, [quad_part(quad, span) for span in spans]


def _apart_and_covering(one: Span, two: Span) -> bool:
    """Whether two spans overlap less than `APART` (IoU) and cover `COVER` of their quad
    together (in its own coordinates: the quad's share, a tilt aside)."""
    wide = max(0.0, min(one[2], two[2]) - max(one[0], two[0]))
    high = max(0.0, min(one[3], two[3]) - max(one[1], two[1]))
    shared = wide * high
    union = sum((s[2] - s[0]) * (s[3] - s[1]) for s in (one, two)) - shared
    return shared < APART * union and union >= COVER
