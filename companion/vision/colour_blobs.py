"""Backs plain inside their margin, found by their colour where they show no outline.

Why: the edge finder outlines a card by its steps of lightness, and the finder net learned
cards by their print. A plain grey back on brown wood, or a plain red one on a speckled
red and green cloth, is as light as the table around it and carries no print: neither
finder sees it, while a person sees a grey card at once. Where a deck's enrolled back is
plain inside (`back_colour.plain_inside`), its colour is known: the pixels of that colour
under the table's light (`back_colour.back_coloured`) that gather into a card's shape (a
filled rectangle, no square, of a card's size, whose colour steps at its outline, and not
one of the many cells of a cloth printed in that colour) are such backs
(`back_coloured_quads`; `detect.find_cards` checks them as its other plain quads).
"""

from __future__ import annotations

import cv2
import numpy as np

from .back_colour import BACK_BRIGHTNESS, BACK_TINT, tint_and_gain
from .geometry import scaled_about_centre
from .side_fit import sample

# The frame is looked at with its long side this long (a 60-pixel card of a 1280x720
# frame some 19 pixels long), blurred by BLOB_BLUR pixels there: the sensor's noise and a
# faint print inside the margin stay within the back's colour.
BLOB_LONG_SIDE = 400
BLOB_BLUR = 1.0
# A pixel is of the back's colour where it lies within `back_colour.BACK_TINT` of its tint
# and BACK_BRIGHTNESS of its brightness, as a back read is, and nearer that tint than
# BLOB_TINT_SHARE of the frame's median pixel does: a beige wood lies within BACK_TINT of
# a grey back's tint (0.22 off it, the backs on it 0.05).
BLOB_TINT_SHARE = 0.5
# A blob is a card where it fills its minimum-area rectangle this well (a card's rounded
# corners fill 0.98 of it; a cloth's patch of that colour is ragged), that rectangle's
# long side is BLOB_ASPECT times its short one (a card is 1.4, foreshortened to about 1.15
# or stretched to 1.7 by a tilted camera; two cards side by side lengthwise are 2.8), and
# it is as long as the edge finder's plain quads (`detect.PLAIN_MIN_LENGTH`).
BLOB_FILL = 0.85
BLOB_ASPECT = (1.15, 2.0)
# A back's colour ends at its outline: across the blob's rectangle (from 0.85 to 1.15 of
# it about its middle) the colour steps by BLOB_STEP grey levels or more (summed over
# the three channels; the median of 36 points along the four sides). Where the light
# fades over a plain surface (a phone's dark screen, tuning empty table 6,100,700 read
# with design 4,100,200) the back's brightness range ends midway, with no step: 35 there,
# while of 94 blobs on plain backs of 60 tuning tables of designed backs (4,100,000+) the
# least stepped by 53.
BLOB_STEP = 45.0
# More blobs of a card's size than this are a table printed in the back's colour (the
# cells of a gingham), not cards: a game lays at most 15 (tuning empty table 6,100,816, a
# green gingham whose white cells, stretched by the lens, read as a pale back's).
BLOB_MOST = 24
_ALONG = np.linspace(0.1, 0.9, 9, dtype=np.float32)


def back_coloured_quads(image: np.ndarray, back: np.ndarray, min_length: float) -> np.ndarray:
    """(M, 4, 2) float32 quads, in `image`'s pixels, of the blobs of `back`'s colour (mean
    BGR of a plain back's inside) shaped as a card `min_length` pixels long or longer."""
    height, width = image.shape[:2]
    scale = min(1.0, BLOB_LONG_SIDE / max(height, width))
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), BLOB_BLUR)
    tint, gain = tint_and_gain(small.astype(np.float32), back)
    # nearer the back's tint than most of the frame (the table) by BLOB_TINT_SHARE
    limit = min(BACK_TINT, BLOB_TINT_SHARE * float(np.median(tint[::4, ::4])))
    low, high = BACK_BRIGHTNESS
    mask = ((tint <= limit) & (gain >= low) & (gain <= high)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    min_area = BLOB_FILL * (min_length * scale) ** 2 / BLOB_ASPECT[1]
    sized = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= min_area) + 1  # 0: not the colour
    if len(sized) > BLOB_MOST:
        return np.empty((0, 4, 2), np.float32)
    quads = []
    for index in sized:
        x, y, w, h, area = stats[index]
        outline, _ = cv2.findContours(
            (labels[y : y + h, x : x + w] == index).astype(np.uint8),
            cv2.RETR_EXTERNAL,
            cv2.CHAIN_APPROX_SIMPLE,
            offset=(int(x), int(y)),
        )
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.concatenate(outline))
        # pixel centres -> pixel edges
        long_side, short_side = max(rw, rh) + 1.0, min(rw, rh) + 1.0
        if area < BLOB_FILL * long_side * short_side:
            continue
        if not BLOB_ASPECT[0] <= long_side / short_side <= BLOB_ASPECT[1]:
            continue
        if long_side < min_length * scale:
            continue
        corners = cv2.boxPoints(((cx, cy), (rw + 1.0, rh + 1.0), angle))
        quads.append((corners + 0.5) / scale - 0.5)
    if not quads:
        return np.empty((0, 4, 2), np.float32)
    stacked = np.stack(quads).astype(np.float32)
    return stacked[_outline_steps(image, stacked) >= BLOB_STEP]


def _outline_steps(image: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(M,) how much the colour of `image` (BGR) steps across each quad's outline: the
    median over points along its sides of the summed channel differences between 0.85 and
    1.15 of the quad about its middle."""
    rings = []
    for scale in (0.85, 1.15):
        corners = scaled_about_centre(quads, scale)
        ends = np.roll(corners, -1, axis=1)
        points = corners[:, :, None] + _ALONG[None, None, :, None] * (ends - corners)[:, :, None]
        rings.append(sample(image, points.reshape(len(quads), -1, 2)).astype(np.float32))
    return np.median(np.abs(rings[0] - rings[1]).sum(axis=2), axis=1)
