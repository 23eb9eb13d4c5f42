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

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .features import CORNER_BOX, READ_SIZE
from .onnx_models import MODELS_DIR, model_session
from .segment import STRIDE, net_input, probabilities
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
# The net also looks at the frame as it is turned clockwise by each of these quarters: it
# reads an index differently at each turn, and implies a card of another size, so where
# one turn's hits read nothing another's may (`fusion.indices` reads a turned look's hits
# only where the frame's own hits read nothing, and asks two of them to agree on a game
# card). Measured (2026-12-02) on the real photos' train split, turned as cards lie on
# every side of a table (`bench --real-turn`): 0, 90, 180 and 270 degrees 181, 178, 182,
# 174 -> 184, 180, 184, 181 of 195 cards right, Aces 91, 89, 90, 86 -> 91, 89, 91, 90 of
# 92, no other rank read as a game card either way; one half turn alone (2,) 181, 178,
# 182, 178 and Aces 88 at 270; a quarter each way (1, 3) 184, 180, 184, 178 and 87.
# Frames in doubt only: the index finder's time (mean, 40 playing tuning tables) 3.2-3.5
# -> 8.3-8.6 ms, the readers' 22-24 -> 30-32 ms.
TURNED_LOOKS = (1, 2, 3)
# Where cards are small, the net looks once more at the frame itself, CLOSE_LOOK times as
# close as the card finder sees it (at most at the frame's own size), where that is at
# least CLOSE_GAIN times closer (`close_indices`). Why: at a webcam's scale a 100-pixel
# card's index is 6x10 pixels of the card finder's picture, where the net marks few
# middles and implies their cards loosely. Measured (2026-12-04, forty-seventh stop): the
# real train split in a webcam's frame, cards 100 px long, turned by 0, 90, 180 and 270
# degrees: Aces 81, 78, 79, 80 -> 90, 89, 87, 86 of 92 (1.5 times as close: 84 at 0
# degrees, twice 88, three times 89); 100 playing tuning row tables 1,167 -> 1,174;
# models/README.md, "The close look". Context: 64 pixels read 86 Aces at 0 degrees, 96
# read 89, 128 read 90.
CLOSE_LOOK = 2.5
CLOSE_GAIN = 1.5
CLOSE_CONTEXT = 128  # pixels of the close look around the box (`CONTEXT` at its scale)
# The net sees this many pixels of its input around the part it looks for indices in: what
# it needs to see around an index (fusion.doubt widens its region so, and the close look).
CONTEXT = 64


@dataclass(frozen=True)
class IndexHit:
    """One corner index: the card it implies (`quad`, (4, 2) float32 frame pixels,
    clockwise from the index corner, so the index is the quad's top-left patch), where
    the index's middle lies, and the net's probability there."""

    quad: np.ndarray
    centre: np.ndarray
    score: float
    turned: bool = False  # found in the frame turned (`TURNED_LOOKS`), not as it is

    def sized(self, width: float, length: float) -> IndexHit:
        """The same index implying a card `width` x `length` frame pixels, turned as this
        one's: the index's middle stays where the net marked it."""
        right, down = self.quad[1] - self.quad[0], self.quad[3] - self.quad[0]
        right = right / max(float(np.linalg.norm(right)), 1e-6) * width
        down = down / max(float(np.linalg.norm(down)), 1e-6) * length
        return replace(self, quad=_card_quad(self.centre, right, down))

    def patch(self) -> np.ndarray:
        """The index's patch as the reader reads it: the (4, 2) float32 top-left
        PATCH_WIDTH x PATCH_HEIGHT of the card's quad, clockwise from the index corner."""
        return corner_patches(self.quad[None], 0)[0]

    def moved(self, across: float, along: float) -> IndexHit:
        """The same card with its index's middle moved by `across` patch widths along its
        short side and `along` patch heights along its long side."""
        right, down = self.quad[1] - self.quad[0], self.quad[3] - self.quad[0]
        shift = across * PATCH_WIDTH * right + along * PATCH_HEIGHT * down
        quad = (self.quad + shift).astype(np.float32)
        return replace(self, quad=quad, centre=self.centre + shift)


@timed("index finder")
def find_indices(
    small: np.ndarray, sx: float, sy: float, region: tuple[int, int, int, int] | None = None
) -> list[IndexHit]:
    """Every corner index in a frame scaled by `segment.net_input` (`small`, padded BGR
    uint8; `sx`, `sy` its scales from the frame), or in its `region` only (x0, y0, x1, y1
    of `small`, multiples of `STRIDE`): the net costs in proportion to the area. Looked
    for at the frame's size, turned by each of `TURNED_LOOKS`, and at `SECOND_LOOKS`; one
    index may give a hit at each."""
    hits = _look(small, sx, sy, region)
    for turns in TURNED_LOOKS:
        hits += _look(small, sx, sy, region, turns)
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


@timed("index finder")
def close_indices(
    frame: np.ndarray, sx: float, sy: float, box: tuple[int, int, int, int]
) -> list[IndexHit]:
    """The corner indices in `box` (x0, y0, x1, y1 of the card finder's picture, scaled
    from `frame` by `sx`, `sy`), looked for in the frame itself seen `CLOSE_LOOK` times as
    close, with CLOSE_CONTEXT of the net's pixels around the box; none where that would not be
    CLOSE_GAIN times closer (a frame whose own pixels the card finder nearly sees)."""
    scale = min(1.0, CLOSE_LOOK * max(sx, sy))
    if scale < CLOSE_GAIN * max(sx, sy):
        return []
    height, width = frame.shape[:2]
    pad = CLOSE_CONTEXT / scale
    x0, y0, x1, y1 = box
    fx0, fy0 = max(0, int(x0 / sx - pad)), max(0, int(y0 / sy - pad))
    fx1 = min(width, int(np.ceil(x1 / sx + pad)))
    fy1 = min(height, int(np.ceil(y1 / sy + pad)))
    if fx1 <= fx0 or fy1 <= fy0:
        return []
    part = np.ascontiguousarray(frame[fy0:fy1, fx0:fx1])
    seen, px, py = net_input(part, round(scale * max(part.shape[:2])))
    offset = np.float32([fx0, fy0])
    return [
        replace(hit, quad=hit.quad + offset, centre=hit.centre + offset)
        for hit in _look(seen, px, py, None)
    ]


def _look(
    small: np.ndarray,
    sx: float,
    sy: float,
    region: tuple[int, int, int, int] | None,
    turns: int = 0,
) -> list[IndexHit]:
    """`find_indices` at one size: one run of the net over `region` of `small`, turned
    clockwise by `turns` quarters first."""
    x0, y0, x1, y1 = region or (0, 0, small.shape[1], small.shape[0])
    seen = small[y0:y1, x0:x1]
    batch = np.ascontiguousarray(np.rot90(seen, -turns).transpose(2, 0, 1)[None], np.float32)
    maps = model_session(MODEL).run(None, {"image": batch})[0][0]
    heat = probabilities(maps[0])
    peaks = (heat >= PEAK_LEVEL) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    v, u = np.nonzero(peaks)
    # Output pixel u covers input pixels 2u and 2u + 1 (centre 2u + 0.5, in pixels).
    points, right, down = _turned_back(
        np.stack([2 * u + 0.5, 2 * v + 0.5], axis=1),
        (maps[1:3, v, u].T, maps[3:5, v, u].T),
        turns,
        seen.shape[:2],
    )
    to_frame = np.array([1 / sx, 1 / sy], np.float32)
    # input pixel centres to frame pixel centres as cv2.resize places them
    centres = (points + 0.5 + np.array([x0, y0])) * to_frame - 0.5
    right = right * (VECTOR_UNIT * 2) * to_frame
    down = down * (VECTOR_UNIT * 2) * to_frame
    big = np.minimum(np.linalg.norm(right, axis=1), np.linalg.norm(down, axis=1)) >= MIN_SIDE
    # a card seen from above is never mirrored: "down" lies clockwise of "right"
    big &= right[:, 0] * down[:, 1] - right[:, 1] * down[:, 0] > 0
    return [
        IndexHit(
            _card_quad(centres[i], right[i], down[i]),
            centres[i].astype(np.float32),
            float(heat[v[i], u[i]]),
            turns % 4 != 0,
        )
        for i in np.nonzero(big)[0]
    ]


def _turned_back(
    points: np.ndarray, vectors: tuple[np.ndarray, np.ndarray], turns: int, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, 2) points (pixel indices) and two (N, 2) vectors of a picture turned clockwise by
    `turns` quarters, in that picture as it was (`shape`: its height and width)."""
    height, width = shape
    right, down = vectors
    for quarters in range(turns % 4, 0, -1):
        # a quarter back, counter-clockwise: (x, y) -> (y, w - 1 - x), w the width the
        # picture has when turned by `quarters`
        across = (height if quarters % 2 else width) - 1
        points = np.stack([points[:, 1], across - points[:, 0]], axis=1)
        right = np.stack([right[:, 1], -right[:, 0]], axis=1)
        down = np.stack([down[:, 1], -down[:, 0]], axis=1)
    return points, right, down


def corner_patches(quads: np.ndarray, corner: int) -> np.ndarray:
    """The corner index patches of (N, 4, 2) cards' quads (clockwise, short side first) in
    the frame, as the corner reader sees them: the PATCH_WIDTH x PATCH_HEIGHT of each quad
    at its first corner (`corner` 0) or its third (1), clockwise from that corner:
    (N, 4, 2) float32."""
    start = quads[:, 2 * corner]
    across = PATCH_WIDTH * (quads[:, (2 * corner + 1) % 4] - start)
    down = PATCH_HEIGHT * (quads[:, (2 * corner + 3) % 4] - start)
    return np.stack([start, start + across, start + across + down, start + down], axis=1).astype(
        np.float32
    )


def _card_quad(centre: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The (4, 2) float32 quad of the card whose index's middle is at `centre`, its short
    side `right` and its long side `down`, clockwise from the index corner."""
    corner = centre - PATCH_WIDTH / 2 * right - PATCH_HEIGHT / 2 * down
    return np.stack([corner, corner + right, corner + right + down, corner + down]).astype(
        np.float32
    )
