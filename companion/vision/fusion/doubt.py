"""Whether the learned finder's first look leaves doubt, and where: card the net sees
that no reading explains. Only then do the edge finder, the second look and the
corner-index search run (the index finder looks at the unexplained card pixels' box
widened by `corner_index.CONTEXT` pixels of its input on every side)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..corner_index import CONTEXT as INDEX_CONTEXT
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


def in_doubt(found: Candidates, kept: list[CardReading]) -> bool:
    """Whether the learned finder's readings leave doubt, so that the edge finder must look
    too: one that is not `settled` at `SETTLED` (a game rank, a back, or a 6..King read
    at SETTLED or more), a face read unsure on a quad holding two cards
    (`oversized_face`), or card seen by the net that none of them explains."""
    if not all(settled(reading, SETTLED) for reading in kept) or oversized_face(kept):
        return True
    return unexplained(found, kept, SETTLED) is not None


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
    for reading in readings:
        maps.fill(card, reading.corners, 0)
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
