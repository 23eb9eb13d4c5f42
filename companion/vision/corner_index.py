"""Playing cards found by their corner index alone: cards whose outline no finder closes.

Why: a card fanned under another, cut by the picture's edge or crossed by a knife shows
no closed outline, and both finders (detect.py, segment.py) lose it; on the real photos
that was most of the Aces missed. Its corner index, though, is in plain sight, and the
index alone says the rank and the suit. A small U-Net (`index_finder.onnx`, the finder's
architecture, trained on the project's renderer: models/README.md) looks at the frame as
the card finder does (`segment.net_input`, the same scaled picture) and says, per pixel at
half that resolution, whether it is the middle of a visible corner index, and there the
card's own "right" and "down" vectors (its short and long side, as an index of that size
and turn implies). From a peak, those give the card's whole quad, as if nothing covered
it, clockwise from the index corner; the corner reader then reads that corner
(`read.CardReader.read_index`).

Only playing decks print such an index; enrolled animal decks are not looked at here.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .features import CORNER_BOX, READ_SIZE
from .onnx_models import MODELS_DIR, model_session
from .segment import STRIDE, net_input
from .stages import timed

MODEL = MODELS_DIR / "index_finder.onnx"
# The index patch, as fractions of the card's width and height: the patch the corner reader
# reads (features.CORNER_BOX of a READ_SIZE card). Its middle is what the net marks.
PATCH_WIDTH = CORNER_BOX[2] / READ_SIZE[0]
PATCH_HEIGHT = CORNER_BOX[3] / READ_SIZE[1]
# The net's "right" and "down" outputs are the card's side vectors in output pixels divided
# by this (values near 1 train better than values near 30).
VECTOR_UNIT = 32.0
# A pixel is an index's middle above this probability, if no neighbour is higher.
PEAK_LEVEL = 0.5
# A card side shorter than this many frame pixels is no card (a 60-pixel card's short
# side is 43).
MIN_SIDE = 20.0
# The net looks at the frame as given and once more shrunk by each of these: a second look
# at another size finds indices the first missed, and implies other quads for those it
# found, some of which read where the first did not. On the real photos' train split
# (close-ups, cards up to 190 of the net's pixels long, where its quads are least sure)
# shrinking by 0.5, 0.6, 0.65, 0.7 and 0.75 read 87, 88, 87, 87 and 89 of 92 Aces
# against 85 with one look, and 167 to 171 of 195 cards against 161.
SECOND_LOOKS = (0.75,)


@dataclass(frozen=True)
class IndexHit:
    """One corner index: the card it implies (`quad`, (4, 2) float32 frame pixels,
    clockwise from the index corner, so the index is the quad's top-left patch), where
    the index's middle lies, and the net's probability there."""

    quad: np.ndarray
    centre: np.ndarray
    score: float

    def sized(self, width: float, length: float) -> IndexHit:
        """The same index implying a card `width` x `length` frame pixels, turned as this
        one's: the index's middle stays where the net marked it."""
        right, down = self.quad[1] - self.quad[0], self.quad[3] - self.quad[0]
        right = right / max(float(np.linalg.norm(right)), 1e-6) * width
        down = down / max(float(np.linalg.norm(down)), 1e-6) * length
        return IndexHit(_card_quad(self.centre, right, down), self.centre, self.score)

    def moved(self, across: float, along: float) -> IndexHit:
        """The same card with its index's middle moved by `across` patch widths along its
        short side and `along` patch heights along its long side."""
        right, down = self.quad[1] - self.quad[0], self.quad[3] - self.quad[0]
        shift = across * PATCH_WIDTH * right + along * PATCH_HEIGHT * down
        return IndexHit((self.quad + shift).astype(np.float32), self.centre + shift, self.score)


@timed("index finder")
def find_indices(
    small: np.ndarray, sx: float, sy: float, region: tuple[int, int, int, int] | None = None
) -> list[IndexHit]:
    """Every corner index in a frame scaled by `segment.net_input` (`small`, padded BGR
    uint8; `sx`, `sy` its scales from the frame), or in its `region` only (x0, y0, x1, y1
    of `small`, multiples of `STRIDE`): the net costs in proportion to the area. Looked
    for at the frame's size and at `SECOND_LOOKS`; one index may give a hit at each."""
    hits = _look(small, sx, sy, region)
    height, width = small.shape[:2]
    x0, y0, x1, y1 = region or (0, 0, width, height)
    for shrink in SECOND_LOOKS:
        # scaled and padded for the net the way the frame was (`segment.net_input`)
        shrunk, fx, fy = net_input(small, round(max(width, height) * shrink))
        padded_h, padded_w = shrunk.shape[:2]
        box = (
            int(x0 * shrink) // STRIDE * STRIDE,
            int(y0 * shrink) // STRIDE * STRIDE,
            min(padded_w, -(-int(np.ceil(x1 * shrink)) // STRIDE) * STRIDE),
            min(padded_h, -(-int(np.ceil(y1 * shrink)) // STRIDE) * STRIDE),
        )
        hits += _look(shrunk, sx * fx, sy * fy, box)
    return hits


def _look(
    small: np.ndarray, sx: float, sy: float, region: tuple[int, int, int, int] | None
) -> list[IndexHit]:
    """`find_indices` at one size: one run of the net over `region` of `small`."""
    x0, y0, x1, y1 = region or (0, 0, small.shape[1], small.shape[0])
    batch = np.ascontiguousarray(small[y0:y1, x0:x1].transpose(2, 0, 1)[None], dtype=np.float32)
    maps = model_session(MODEL).run(None, {"image": batch})[0][0]
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    peaks = (heat >= PEAK_LEVEL) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    v, u = np.nonzero(peaks)
    to_frame = np.array([1 / sx, 1 / sy], np.float32)
    # Output pixel u covers input pixels 2u and 2u + 1 (centre 2u + 0.5); input pixel
    # centres to frame pixel centres as cv2.resize places them.
    centres = np.stack([2 * u + 1.0 + x0, 2 * v + 1.0 + y0], axis=1) * to_frame - 0.5
    right = maps[1:3, v, u].T * (VECTOR_UNIT * 2) * to_frame
    down = maps[3:5, v, u].T * (VECTOR_UNIT * 2) * to_frame
    big = np.minimum(np.linalg.norm(right, axis=1), np.linalg.norm(down, axis=1)) >= MIN_SIDE
    # a card seen from above is never mirrored: "down" lies clockwise of "right"
    big &= right[:, 0] * down[:, 1] - right[:, 1] * down[:, 0] > 0
    return [
        IndexHit(
            _card_quad(centres[i], right[i], down[i]),
            centres[i].astype(np.float32),
            float(heat[v[i], u[i]]),
        )
        for i in np.nonzero(big)[0]
    ]


def _card_quad(centre: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The (4, 2) float32 quad of the card whose index's middle is at `centre`, its short
    side `right` and its long side `down`, clockwise from the index corner."""
    corner = centre - PATCH_WIDTH / 2 * right - PATCH_HEIGHT / 2 * down
    return np.stack([corner, corner + right, corner + right + down, corner + down]).astype(
        np.float32
    )
