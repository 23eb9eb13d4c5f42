"""How plainly a quad's sides show a card's outline: the colour step across each side.

Why: a card lies on the table, so along each side of its outline the picture changes from
the card to what is beside it (the table, a neighbour's edge, a shadow), the same way all
along the side. A patch of a textured cloth taken for a card (a carpet seen at a webcam's
scale reads as a card's back) shows the same texture on both sides of its quad's sides:
the steps across a side are as large, but point every way and cancel out on average.

For each side, points along its middle (`SPAN`) are sampled `OUTSIDE` of the quad's
short side outside it and at each of `INSIDE` inside it; the side's contrast at that depth
is the length of the mean step (Lab, 0..255 channels, as OpenCV gives them for 8-bit
pictures), and its consistency that length over the mean length of the steps (1: every
step alike; near 0: texture). Two depths inside: a back's thin border can be as light
as the cloth beside it, its print a little further in is not.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .geometry import facing_side
from .side_fit import sample_across, sides_outward

SAMPLES = 24  # points along each side
SPAN = (0.15, 0.85)  # of the side's length: its middle, away from rounded corners
OUTSIDE = 0.06  # of the quad's short side, outside each side
INSIDE = (0.06, 0.15)  # of the quad's short side, inside each side
MIN_OFFSET = 2.0  # pixels: on a small card, 6% of its short side is about a pixel
_ONE = np.ones(1, np.float32)  # one sample across, at the offset its normal carries


def side_steps(image: np.ndarray, quads: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(N, 4, D) contrast and consistency of the four sides of each quad of `quads` (each
    (4, 2) frame pixels, in order around it) in the BGR uint8 `image`, at each of the D
    depths of `INSIDE`: the frame sampled across the sides as the side fitting samples it
    (`side_fit.sample_across`), once outside and once at each depth."""
    depths = len(INSIDE)
    if not quads:
        return np.zeros((0, 4, depths), np.float32), np.zeros((0, 4, depths), np.float32)
    q = np.asarray(quads, np.float32)  # (N, 4, 2)
    vectors, lengths, _, outward = sides_outward(q)
    short = np.minimum(lengths[:, 0, 0], lengths[:, 1, 0])
    t = np.linspace(*SPAN, SAMPLES, dtype=np.float32)[None, None, :, None]
    points = q[:, :, None] + t * vectors[:, :, None]  # (N, 4, S, 2)
    # outside first, then each depth inside: pixels along each quad's outward normals
    fractions = np.float32([OUTSIDE, *(-depth for depth in INSIDE)])
    offsets = np.maximum(MIN_OFFSET, np.abs(fractions) * short[:, None]) * np.sign(fractions)
    lab = np.stack(
        [
            _lab(sample_across(image, points, outward * offset[:, None, None], _ONE)[..., 0, :])
            for offset in offsets.T
        ]
    )  # (1 + D, N, 4, S, 3)
    steps = lab[1:] - lab[:1]  # (D, N, 4, S, 3)
    contrast = np.linalg.norm(steps.mean(axis=3), axis=3)
    spread = np.linalg.norm(steps, axis=4).mean(axis=3)
    alike = contrast / np.maximum(spread, 1e-6)
    return np.moveaxis(contrast, 0, 2), np.moveaxis(alike, 0, 2)


def facing_alike(
    one: np.ndarray, two: np.ndarray, alike_one: np.ndarray, alike_two: np.ndarray
) -> float:
    """The larger consistency, at any depth, of the sides two quads turn to each other
    (`geometry.facing_side`), given each quad's (4, D) consistencies (`side_steps`): high
    where an edge runs between them, low where one print runs on across."""
    return float(
        max(alike_one[facing_side(one, two)].max(), alike_two[facing_side(two, one)].max())
    )


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Float Lab (0..255 channels) of uint8 BGR samples of any shape (..., 3)."""
    flat = np.ascontiguousarray(bgr.reshape(-1, 1, 3))
    return cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).astype(np.float32).reshape(bgr.shape)


def outlined_sides(
    image: np.ndarray, quads: Sequence[np.ndarray], contrast: float, consistency: float
) -> np.ndarray:
    """(N,) how many sides of each quad step by `contrast` or more with `consistency` or
    more at some depth (`side_steps`)."""
    steps, alike = side_steps(image, quads)
    return ((steps >= contrast) & (alike >= consistency)).any(axis=2).sum(axis=1)
