"""Whether the learned finder's first look leaves doubt, and where: card the net sees
that no reading explains, or card it sees faintly away from every card read. Only then
do the edge finder, the second look and the corner-index search run (the index finder
looks at the unexplained card pixels' box widened by `corner_index.CONTEXT` pixels of
its input on every side)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..corner_index import CONTEXT as INDEX_CONTEXT
from ..geometry import scaled_about_centre
from ..segment import CARD_LEVEL, STRIDE, CardMaps
from ..types import CardReading
from .candidates import Candidates
from .levels import SETTLED, SURE_ENOUGH, settled
from .oversized import oversized_face

# Card the net sees that no card read explains, at least this fraction of the frame, puts
# the frame in doubt (`in_doubt`), and the corner indices are looked for only where
# there is such card. 0.001 (a third of a 60-pixel card's area in a 1280x720 frame) left
# small cards the net sees faintly (a 55-pixel bear, half its pixels card to the net)
# unexplained, the frame not in doubt and the card unread. With 0.0004, on the tuning
# sets: playing 2,871 -> 2,875 and 2,860 -> 2,861 (2,856 -> 2,857 on 200 more scenes from
# seed 960,500), animals 2,873 -> 2,876 (2,851 -> 2,855 on 200 more from 950,300); no
# wrong game rank nor phantom more; the empty tables, the real train split and the fans
# unchanged; the median frame about the same, frames 2-4 ms slower on average. 0.0002:
# 2 playing cards more for 8 ms more per frame on average.
UNEXPLAINED = 0.0004

# Card the net sees faintly: from FAINT_LEVEL, where each card read, its quad grown by
# CLEAR_AROUND about its centre, lies farther than that (`faint_card`). Why: a card 35 to
# 55 pixels long (15 net pixels) seen faintly, on a table where every other card was read
# for sure, left the frame settled and the card unread, since the net saw it under
# CARD_LEVEL: tuning table 4,200,248, three backs at a mean card probability of 0.22 to
# 0.43 on an empty stretch of grey cloth. The grown quads keep out the net's faint halo
# around a card read and the gaps between the cards of a row. Measured on the tuning
# sets (OpenCV 5.0), before -> after: playing card scenes 4,345 -> 4,347 of 4,367 (a
# phantom more: a 6..King read on a back's corner in sight past a sleeve, 4,200,121),
# animal scenes 4,339 -> 4,341 of 4,364, playing row tables 1,228 -> 1,227 (a frame the
# first look had settled read worse in doubt, 4,450,085) and 2,492 -> 2,493; the other
# row tables, jokers, heaps, designed backs, 150 empty tables and the real train split as
# photographed unchanged (at 100 px one card more at 270 degrees, and at 90 a back read
# where the photos hold none, 6 -> 7); 150 playing card
# scenes seen 35 degrees from straight down 2,117 -> 2,122 of 2,183, where far cards are
# small; no wrong game rank more. 6 of 300 playing card scenes more are in doubt. From
# 0.25: as many cards right, but 4 row tables and 2 card scenes read otherwise for each
# card gained. From 0.35: 8 cards gained instead of 10 (no phantom more, 4,450,085 read
# as before, but 2 designed backs lost and a tilted row card). Quads grown by 1.6
# instead: the same, and a designed back fewer.
FAINT_LEVEL = 0.3
CLEAR_AROUND = 1.3


def in_doubt(found: Candidates, kept: list[CardReading]) -> bool:
    """Whether the learned finder's readings leave doubt, so that the edge finder must look
    too: one that is not `settled` at `SETTLED` (a game rank, a back, or a 6..King read
    at SETTLED or more), a face read unsure on a quad holding two cards
    (`oversized_face`), card seen by the net that none of them explains, or card it sees
    faintly away from all of them (`faint_card`)."""
    if not all(settled(reading, SETTLED) for reading in kept) or oversized_face(kept):
        return True
    return unexplained(found, kept, SETTLED) is not None or faint_card(found, kept) is not None


def left_to_look(
    found: Candidates, kept: list[CardReading], context: int
) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1, net input pixels) holding both what `kept` leaves
    unexplained (`unexplained` at SETTLED) and the card seen faintly away from it
    (`faint_card`), `context` pixels wider on every side; None where there is neither."""
    boxes = [
        box
        for box in (unexplained(found, kept, SETTLED, context), faint_card(found, kept, context))
        if box is not None
    ]
    if not boxes:
        return None
    x0, y0, _, _ = np.min(boxes, axis=0)
    _, _, x1, y1 = np.max(boxes, axis=0)
    return int(x0), int(y0), int(x1), int(y1)


def faint_card(
    found: Candidates, kept: list[CardReading], context: int = INDEX_CONTEXT
) -> tuple[int, int, int, int] | None:
    """Where the net sees card from FAINT_LEVEL (`UNEXPLAINED` of the frame at least) away
    from every card of `kept`, each cleared with its quad grown by CLEAR_AROUND: the box
    of the net's input around it, as `unexplained` gives it; None where there is none."""
    if found.maps is None or found.net_image is None:
        return None
    card = (found.maps.card > FAINT_LEVEL).astype(np.uint8)
    if kept:
        quads = np.stack([reading.corners for reading in kept])
        found.maps.fill(card, scaled_about_centre(quads, CLEAR_AROUND), 0)
    return _net_box(found, cv2.erode(card, np.ones((3, 3), np.uint8)), context)


def unexplained(
    found: Candidates,
    kept: list[CardReading],
    floor: float = SURE_ENOUGH,
    context: int = INDEX_CONTEXT,
) -> tuple[int, int, int, int] | None:
    """Where the net sees card (`UNEXPLAINED` of the frame at least) that no card read for
    sure covers (`settled` at `floor`): only there can a card lie whose outline no finder
    closed. The box (x0, y0, x1, y1) of the net's input around it, `context` pixels wider
    on every side and on the net's grid (`STRIDE`); None where every card seen was read."""
    if found.maps is None or found.net_image is None:
        return None
    card = uncovered(found.maps, [reading for reading in kept if settled(reading, floor)])
    return _net_box(found, card, context)


def _net_box(found: Candidates, card: np.ndarray, context: int) -> tuple[int, int, int, int] | None:
    """The box of the net's input around the pixels of `card` (a map-sized uint8 mask),
    `context` pixels wider on every side and on the net's grid; None where they are
    under `UNEXPLAINED` of it."""
    if int(card.sum()) < UNEXPLAINED * card.size:
        return None
    x, y, w, h = cv2.boundingRect(card)
    height, width = found.net_image.shape[:2]
    x0, y0 = (max(0, v - context) // STRIDE * STRIDE for v in (x, y))
    x1 = min(width, -(-(x + w + context) // STRIDE) * STRIDE)
    y1 = min(height, -(-(y + h + context) // STRIDE) * STRIDE)
    return x0, y0, x1, y1


def uncovered(maps: CardMaps, readings: Sequence[CardReading]) -> np.ndarray:
    """The net's card pixels (uint8 mask) that none of `readings` covers, eroded by a pixel:
    a found card's outline leaves a sliver of card pixels around it."""
    card = (maps.card > CARD_LEVEL).astype(np.uint8)
    if readings:
        maps.fill(card, np.stack([reading.corners for reading in readings]), 0)
    return cv2.erode(card, np.ones((3, 3), np.uint8))


def on_unexplained_card(
    maps: CardMaps, readings: Sequence[CardReading], points: np.ndarray
) -> np.ndarray:
    """Whether each of (N, 2) frame `points` lies on card the net sees that no reading
    settled at SURE_ENOUGH covers (`uncovered`): where a card may lie that nothing read."""
    card = uncovered(maps, [reading for reading in readings if settled(reading, SURE_ENOUGH)])
    x, y = np.round(maps.to_map(np.asarray(points, np.float32).reshape(-1, 2))).astype(int).T
    height, width = card.shape
    inside = (x >= 0) & (x < width) & (y >= 0) & (y < height)
    seen = np.zeros(len(x), bool)
    seen[inside] = card[y[inside], x[inside]] > 0
    return seen
