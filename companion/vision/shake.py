"""A frame smeared by a shaken camera: told from the frame itself, and steadied.

Why: a bumped table or a camera knocked while a frame is taken smears the whole picture
along one direction, and on rendered tables most cards the pipeline loses lie on frames
smeared by 5 px or more (models/README.md, "Sixty-fourth stop"): small indices turn to
strokes and the finders' quads grow past the cards.

- `shake_of(image)`: None for a steady frame; else the smear's length and angle. A smear
  along one direction takes the fine detail out along that direction only, so the grey
  frame's mean squared second derivative along its weakest direction, over that along
  its strongest, falls (`SHAKE_RATIO`). The smear itself is the line, of every line the
  renderer and `line_kernel` draw (`_line_kernels`: 121 distinct ones from 2 to 12 px),
  whose spectrum's pattern the frame's log spectrum matches best (`_matched_line`): a
  smear of length L along u leaves dark stripes across u every 1/L, where the line's
  spectrum falls to zero; the match (a correlation) tells a smear from the frame's own
  detail (`MATCH`); a line shorter than `MIN_LENGTH` is no smear worth steadying, and one
  longer than `LONGEST` the picture's own fine texture.
- `steadied(image, shake)`: the frame deconvolved with a line of that length and angle
  (a Wiener filter, `NOISE_TO_SIGNAL`).

A steadied frame is never read in place of the frame: its deconvolution is only as good
as the estimate (a pixel off in length reads worse than the smeared frame), so the fusion
takes from it only backs and 6..Kings where the frame itself read none (`fusion.steadied`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from companion.vision.stages import timed

# A frame may be shaken where its weakest second derivative, by direction, is under this
# fraction of its strongest; it is where a line's spectrum matches its own by MATCH or more
# (`_matched_line`). Measured on playing tuning tables (4,200,000+): of 433 steady frames,
# 5 have a ratio under 0.50, and no steady frame matches a line better than 0.17; the 138
# frames of 1,500 smeared by 4.5 px or more with a ratio under 0.50 match theirs at 0.275
# to 0.64. The line matched is the one that smeared the frame (the same pixels) on 38 of
# 48 such frames; the direction of the second derivatives' and the cepstrum's deepest
# trough, which this replaces, found it on 23 (models/README.md, "Seventy-third stop").
SHAKE_RATIO = 0.50
MATCH = 0.25
# The lines matched: from SHORTEST to MAX_LENGTH px long, as drawn (`_line_kernels`). A
# frame matching a line shorter than MIN_LENGTH (its end pixels' distance, plus one)
# reads about as a steady frame does: no smear worth steadying. One matching a line
# longer than LONGEST is taken for steady: the rendered smears match lines of 5 to 10.4
# px, while real photos taken steady match lines of 12.7 to 13.8 px by their own fine
# texture (cloth, carpet) at up to 0.34.
SHORTEST = 2.0
MIN_LENGTH = 4.5
LONGEST = 11.0
MAX_LENGTH = 12.0
# The spectrum is matched over frequencies from LOW to HIGH cycles per pixel (below, the
# picture's own layout; above, noise and JPEG), at about SAMPLES of them, each band of
# frequencies set against its own mean (the log spectrum of a picture falls off with
# frequency every way alike), the axes left out (the frame's edges, the cards' sides).
LOW, HIGH = 0.04, 0.30
SAMPLES = 3000
# A line's spectrum is floored at this before its log: its zeros are dark stripes, not
# holes that one sample could fill.
LINE_FLOOR = 0.02
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
    """The smear of a BGR uint8 frame, or None where it is steady (`SHAKE_RATIO`,
    `MATCH`, `LONGEST`) or its smear too short to undo (`MIN_LENGTH`)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if min(grey.shape) < 32:  # too small a picture to tell a smear in
        return None
    if _weakest_direction(grey) >= SHAKE_RATIO:
        return None
    line, match = _matched_line(grey)
    if match < MATCH or not MIN_LENGTH <= line.length <= LONGEST:
        return None
    return line.shake


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


def _weakest_direction(grey: np.ndarray) -> float:
    """The mean squared second derivative of `grey` along its weakest direction over that
    along its strongest (3-degree steps: 1 for detail alike every way, low for a smear).
    Which direction is weakest is not asked: the smear's comes from `_matched_line`."""
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
        return 1.0
    return float(energy.min() / energy.max())


@dataclass(frozen=True)
class _Line:
    """A line kernel as `line_kernel` draws it: a shake that draws it, its length (from
    its end pixels' centres, plus one), and its pixels (offsets from its centre, x and y)
    and weights."""

    shake: Shake
    length: float
    offsets: np.ndarray
    weights: np.ndarray


@cache
def _line_kernels() -> tuple[_Line, ...]:
    """Every distinct line `line_kernel` draws from SHORTEST to MAX_LENGTH px long, at any
    angle (8 lengths a pixel and every degree reach them all), each drawn by the middle
    one of the shakes that draw it (by length, then angle)."""
    drawn: dict[bytes, list[Shake]] = {}
    kernels: dict[bytes, np.ndarray] = {}
    for length in np.arange(SHORTEST, MAX_LENGTH + 1e-6, 0.125):
        for angle in np.arange(0.0, 180.0, 1.0):
            shake = Shake(float(length), float(angle))
            kernel = line_kernel(shake)
            key = bytes(kernel.shape) + kernel.tobytes()
            drawn.setdefault(key, []).append(shake)
            kernels[key] = kernel
    lines = []
    for key, shakes in drawn.items():
        kernel = kernels[key]
        ys, xs = np.nonzero(kernel)
        centre = kernel.shape[0] // 2
        ends = float(np.hypot(np.ptp(xs), np.ptp(ys)))
        offsets = np.stack([xs - centre, ys - centre], axis=1)
        lines.append(_Line(shakes[len(shakes) // 2], ends + 1.0, offsets, kernel[ys, xs]))
    return tuple(lines)


def _matched_line(grey: np.ndarray) -> tuple[_Line, float]:
    """The line (`_line_kernels`) whose log spectrum the frame's matches best, and how well:
    their correlation over the sampled frequencies (`_frequencies`)."""
    spectrum = _whitened_spectrum(grey)
    spectrum -= spectrum.mean()
    matches = _line_spectra(*grey.shape) @ spectrum / max(float(np.linalg.norm(spectrum)), 1e-9)
    best = int(np.argmax(matches))
    return _line_kernels()[best], float(matches[best])


@dataclass(frozen=True)
class _Frequencies:
    """The frequencies a frame's spectrum is matched at (`_frequencies`): each element's
    band of frequencies (1/400 cycle a pixel wide) over the whole of `np.fft.rfft2`'s
    grid and how many elements each band holds, and the sampled elements' rows and
    columns and frequencies (x and y, cycles per pixel)."""

    bands: np.ndarray
    counts: np.ndarray
    rows: np.ndarray
    columns: np.ndarray
    fx: np.ndarray
    fy: np.ndarray


@cache
def _frequencies(height: int, width: int) -> _Frequencies:
    """About SAMPLES frequencies from LOW to HIGH cycles per pixel, off the axes, of a
    frame `height` by `width` pixels: the same for every frame of a camera."""
    fy = np.fft.fftfreq(height)[:, None]
    fx = np.fft.rfftfreq(width)[None, :]
    radius = np.hypot(fx, fy)
    bands = np.minimum((radius * 400).astype(np.int64), 200)
    ring = (radius >= LOW) & (radius <= HIGH) & (np.abs(fx) > 2 / width) & (np.abs(fy) > 2 / height)
    picked = np.flatnonzero(ring)
    picked = picked[:: max(1, len(picked) // SAMPLES)]
    rows, columns = np.unravel_index(picked, radius.shape)
    counts = np.maximum(np.bincount(bands.ravel(), minlength=201), 1)
    return _Frequencies(bands, counts, rows, columns, fx[0, columns], fy[rows, 0])


@cache
def _line_spectra(height: int, width: int) -> np.ndarray:
    """Each line's (`_line_kernels`) log spectrum at a `height` by `width` frame's sampled
    frequencies (`_frequencies`), less its mean, over its norm: one row a line."""
    lines, at = _line_kernels(), _frequencies(height, width)
    reach = max(int(np.abs(line.offsets).max()) for line in lines)
    shifts = np.arange(-reach, reach + 1)[:, None]
    # exp(-2 pi i f.(x, y)) for each pixel offset, as x and y factors
    along_x = np.exp(-2j * np.pi * shifts * at.fx[None])
    along_y = np.exp(-2j * np.pi * shifts * at.fy[None])
    logs = np.empty((len(lines), len(at.fx)))
    for k, line in enumerate(lines):
        phases = along_x[line.offsets[:, 0] + reach] * along_y[line.offsets[:, 1] + reach]
        logs[k] = np.log(np.abs(line.weights @ phases) + LINE_FLOOR)
    logs -= logs.mean(axis=1, keepdims=True)
    return logs / np.linalg.norm(logs, axis=1, keepdims=True)


def _whitened_spectrum(grey: np.ndarray) -> np.ndarray:
    """`grey`'s log spectrum at its sampled frequencies (`_frequencies`), each less the
    mean of its band of frequencies over the whole spectrum."""
    height, width = grey.shape
    at = _frequencies(height, width)
    window = cv2.createHanningWindow((width, height), cv2.CV_32F)
    spectrum = cv2.dft((grey - grey.mean()) * window, flags=cv2.DFT_COMPLEX_OUTPUT)
    half = spectrum[:, : width // 2 + 1]  # the rfft2 grid: the rest mirrors it
    magnitude = cv2.magnitude(half[..., 0], half[..., 1])
    log_magnitude = np.log(magnitude + 1e-3 * float(magnitude.mean()) + 1e-9)
    means = np.bincount(at.bands.ravel(), log_magnitude.ravel(), 201) / at.counts
    return log_magnitude[at.rows, at.columns] - means[at.bands[at.rows, at.columns]]
