"""A frame smeared by a shaken camera: told from the frame itself, and steadied.

Why: a bumped table or a camera knocked while a frame is taken smears the whole picture
along one direction, and on rendered tables most cards the pipeline loses lie on frames
smeared by 5 px or more (models/README.md, "Sixty-fourth stop"): small indices turn to
strokes and the finders' quads grow past the cards.

- `shake_of(image)`: None for a steady frame; else the smear's length and angle. A smear
  along one direction takes the fine detail out along that direction only, so the grey
  frame's mean squared second derivative along its weakest direction, over that along
  its strongest, falls (`SHAKE_RATIO`); the length and the angle then come from the
  frame's cepstrum, where a smear of length L along u leaves its deepest trough at L
  along u (the zeros of its spectrum repeat every 1/L).
- `steadied(image, shake)`: the frame deconvolved with a line of that length and angle
  (a Wiener filter, `NOISE_TO_SIGNAL`).

A steadied frame is never read in place of the frame: its deconvolution is only as good
as the estimate (a pixel off in length reads worse than the smeared frame), so the fusion
takes from it only backs and 6..Kings where the frame itself read none (`fusion.steadied`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.stages import timed

# A frame is shaken where its weakest second derivative, by direction, is under this
# fraction of its strongest, the cepstrum finds a smear MIN_LENGTH to MAX_LENGTH long, and
# the two agree on its direction within AGREEING degrees. Measured on 500 playing tuning
# tables (4,200,300+): the ratio is at least 0.41 on each of the 432 unshaken frames,
# under 0.40 on 39 of the 50 shaken by 4 px or more. On the real photos (phone pictures of
# cards, heaps and fans: much of their detail runs one way) it is under 0.40 on 32 of 102,
# but 31 of those fail the length or the direction (a trough at 11-15 px, at the end of
# the search, or 30-85 degrees from the weakest derivative).
SHAKE_RATIO = 0.40
AGREEING = 20.0
# The lengths (px) and angles (degrees) the cepstrum is searched over.
LENGTHS = np.arange(2.0, 16.01, 0.25)
ANGLES = np.arange(0.0, 180.0, 1.0)
# The cepstrum's trough lies a pixel past the length of an antialiased line's centre run.
TROUGH_PAST = 1.0
# The shortest smear worth steadying (px): a shorter one reads about as a steady frame
# does; and the longest taken for a smear (a trough further out is the picture's own).
MIN_LENGTH = 4.5
MAX_LENGTH = 12.0
# The Wiener filter's noise-to-signal power: lower undoes more and rings more.
NOISE_TO_SIGNAL = 0.02
PAD = 32  # px of the frame mirrored around it before deconvolving: no ringing from its edges


@dataclass(frozen=True)
class Shake:
    """A smear along one direction: `length` px, at `angle` degrees (x right, y down)."""

    length: float
    angle: float


@timed("telling a shaken frame")
def shake_of(image: np.ndarray) -> Shake | None:
    """The smear of a BGR uint8 frame, or None where it is steady (`SHAKE_RATIO`), where
    its smear is too short to undo or too long to be one (`MIN_LENGTH`, `MAX_LENGTH`), or
    where the two measures disagree on its direction (`AGREEING`)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ratio, weakest = _weakest_direction(grey)
    if ratio >= SHAKE_RATIO:
        return None
    length, angle = _cepstrum_trough(grey)
    length -= TROUGH_PAST
    apart = abs(angle - weakest) % 180.0
    if not MIN_LENGTH <= length <= MAX_LENGTH or min(apart, 180.0 - apart) > AGREEING:
        return None
    return Shake(length, angle)


def steadied(image: np.ndarray, shake: Shake) -> np.ndarray:
    """`image` (BGR uint8) deconvolved with a line of `shake`'s length and angle."""
    padded = cv2.copyMakeBorder(image, PAD, PAD, PAD, PAD, cv2.BORDER_REFLECT)
    height, width = padded.shape[:2]
    kernel = line_kernel(shake)
    spread = np.zeros((height, width), np.float32)
    size = kernel.shape[0]
    spread[:size, :size] = kernel
    spread = np.roll(spread, (-(size // 2), -(size // 2)), axis=(0, 1))  # centred at 0, 0
    response = np.fft.rfft2(spread)
    inverse = np.conj(response) / (np.abs(response) ** 2 + NOISE_TO_SIGNAL)
    out = np.empty_like(padded)
    for channel in range(3):
        spectrum = np.fft.rfft2(padded[..., channel].astype(np.float32)) * inverse
        out[..., channel] = np.clip(np.fft.irfft2(spectrum, s=(height, width)), 0, 255)
    return out[PAD:-PAD, PAD:-PAD]


def line_kernel(shake: Shake) -> np.ndarray:
    """A normalised, antialiased line `shake.length` px long at `shake.angle`: the smear
    a steady movement of the camera during the exposure leaves."""
    size = max(3, math.ceil(shake.length) | 1)
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx, dy = math.cos(math.radians(shake.angle)), math.sin(math.radians(shake.angle))
    half = shake.length / 2.0
    start = (round(centre - dx * half), round(centre - dy * half))
    end = (round(centre + dx * half), round(centre + dy * half))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def _weakest_direction(grey: np.ndarray) -> tuple[float, float]:
    """The mean squared second derivative of `grey` along its weakest direction over that
    along its strongest (3-degree steps: 1 for detail alike every way, low for a smear),
    and that weakest direction (degrees, y down): a smear's."""
    xx = cv2.Sobel(grey, cv2.CV_32F, 2, 0, ksize=3)
    xy = cv2.Sobel(grey, cv2.CV_32F, 1, 1, ksize=3)
    yy = cv2.Sobel(grey, cv2.CV_32F, 0, 2, ksize=3)
    # The second derivative along (c, s) is c^2 xx + 2cs xy + s^2 yy: its mean square, for
    # every direction at once, from the six mean products.
    parts = (xx, xy, yy)
    products = np.array([[float((a * b).mean()) for b in parts] for a in parts])
    theta = np.radians(np.arange(0.0, 180.0, 3.0))
    weights = np.stack([np.cos(theta) ** 2, 2 * np.cos(theta) * np.sin(theta), np.sin(theta) ** 2])
    energy = np.einsum("in,ij,jn->n", weights, products, weights)
    if energy.max() <= 1e-6:  # a blank picture: no detail, nothing smeared
        return 1.0, 0.0
    weakest = int(energy.argmin())
    return float(energy[weakest] / energy.max()), float(np.degrees(theta[weakest]))


def _cepstrum_trough(grey: np.ndarray) -> tuple[float, float]:
    """The (length px, angle degrees, y down) of the deepest trough of `grey`'s cepstrum
    over LENGTHS and ANGLES, each length's values set against their spread over the
    angles (the cepstrum of a picture falls off with distance every way alike)."""
    window = cv2.createHanningWindow((grey.shape[1], grey.shape[0]), cv2.CV_32F)
    spectrum = cv2.dft((grey - grey.mean()) * window, flags=cv2.DFT_COMPLEX_OUTPUT)
    magnitude = cv2.magnitude(spectrum[..., 0], spectrum[..., 1])
    log_magnitude = np.log(magnitude + 1e-3 * float(magnitude.mean()) + 1e-9)
    # log |F| is even, so its transform is real: the forward one serves as the inverse
    cepstrum = cv2.dft(log_magnitude, flags=cv2.DFT_COMPLEX_OUTPUT)[..., 0] / log_magnitude.size
    cepstrum = np.fft.fftshift(cepstrum)
    height, width = cepstrum.shape
    theta = np.radians(ANGLES)[:, None]
    xs = (width // 2 + np.cos(theta) * LENGTHS[None, :]).astype(np.float32)
    ys = (height // 2 - np.sin(theta) * LENGTHS[None, :]).astype(np.float32)
    values = cv2.remap(cepstrum, xs, ys, cv2.INTER_LINEAR)
    middle = np.median(values, axis=0, keepdims=True)
    spread = np.median(np.abs(values - middle), axis=0, keepdims=True) + 1e-9
    row, column = np.unravel_index(np.argmin((values - middle) / spread), values.shape)
    # sampled with y up: the smear's angle with y down is the mirror image
    return float(LENGTHS[column]), float((180.0 - ANGLES[row]) % 180.0)
