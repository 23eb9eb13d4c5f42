"""The camera between the table and the picture: perspective, light, blur, noise, JPEG.

Lighting is computed on a coarse grid and upscaled (light varies slowly), which keeps the
whole camera stage to a few milliseconds on a 1280x720 frame.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from ..shake import Shake, line_kernel
from .spec import Light

_GRID = 8  # light map resolution divisor


def tilt_homography(size: tuple[int, int], tilt: float, direction: float) -> np.ndarray:
    """Table plane -> image homography of a camera tilted `tilt` degrees from straight down.

    The camera turns about the table point under the image centre, so that point stays at
    the centre with scale about 1; `direction` (degrees on screen) is the side of the
    picture that gets farther away (and smaller).
    """
    w, h = size
    cx, cy = w / 2.0, h / 2.0
    f = 0.9 * w
    if abs(tilt) < 1e-6:
        return np.eye(3)
    d = math.radians(direction)
    # The axis lies in the table plane, perpendicular to the tilt direction.
    axis = np.array([-math.sin(d), math.cos(d), 0.0]) * math.radians(tilt)
    rot, _ = cv2.Rodrigues(axis)
    rt = rot.T
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    extrinsic = np.column_stack([rt[:, 0], rt[:, 1], np.array([0.0, 0.0, f])])
    centre = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]])
    hom = k @ extrinsic @ centre
    return hom / hom[2, 2]


def apply_homography(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through a 3x3 homography."""
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, hom).reshape(-1, 2)


_LENS_GRID = 4  # the lens map is computed at 1/4 resolution and upscaled


def _lens_zoom(k: float) -> float:
    """Barrel distortion pulls the frame's corners inward; zooming by 1 + k keeps the
    picture filled with the table, never with reflected borders."""
    return 1.0 + max(k, 0.0)


@lru_cache(maxsize=8)
def lens_maps(size: tuple[int, int], k: float) -> tuple[np.ndarray, np.ndarray]:
    """`cv2.remap` maps of a radial lens (k > 0: barrel, as webcams have), in OpenCV's
    fixed-point form (half the memory, faster remap); cached, so use few distinct k."""
    w, h = size
    cx, cy = w / 2.0, h / 2.0
    radius = math.hypot(cx, cy)
    gw, gh = max(2, w // _LENS_GRID), max(2, h // _LENS_GRID)
    xs = (np.arange(gw, dtype=np.float32) + 0.5) * (w / gw) - 0.5
    ys = (np.arange(gh, dtype=np.float32) + 0.5) * (h / gh) - 0.5
    xn, yn = np.meshgrid((xs - cx) / radius, (ys - cy) / radius)
    factor = (1.0 + k * (xn**2 + yn**2)) / _lens_zoom(k)
    map_x = cv2.resize(xn * factor * radius + cx, (w, h), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(yn * factor * radius + cy, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)


def distort_points(pts: np.ndarray, size: tuple[int, int], k: float) -> np.ndarray:
    """Where points of the undistorted picture land in the distorted one (see `lens_maps`)."""
    w, h = size
    cx, cy = w / 2.0, h / 2.0
    radius = math.hypot(cx, cy)
    p = (np.asarray(pts, np.float64) - (cx, cy)) / radius
    r_u = np.hypot(p[:, 0], p[:, 1])
    r_d = r_u.copy()
    for _ in range(8):  # fixed point of r_u = r_d (1 + k r_d^2) / zoom
        r_d = r_u * _lens_zoom(k) / (1.0 + k * r_d**2)
    scale = np.divide(r_d, r_u, out=np.ones_like(r_u), where=r_u > 1e-9)
    return (p * scale[:, None] * radius + (cx, cy)).astype(np.float32)


def light_gain_grid(size: tuple[int, int], light: Light, grid: int = _GRID) -> np.ndarray:
    """BGR gain (float32) for colour temperature, gradient and vignette on a coarse grid.

    The grid is `size` divided by `grid`; light varies slowly, so callers upscale it.
    """
    w, h = size
    gw, gh = max(2, w // grid), max(2, h // grid)
    x = (np.arange(gw, dtype=np.float32)[None, :] + 0.5) / gw - 0.5
    y = (np.arange(gh, dtype=np.float32)[:, None] + 0.5) / gh - 0.5
    a = math.radians(light.gradient_angle)
    along = x * math.cos(a) + y * math.sin(a)  # -0.7 .. 0.7
    level = light.brightness * (1.0 - light.gradient * (along + 0.5).clip(0, 1.4) / 1.4)
    level = level * (1.0 - light.vignette * (x**2 + y**2) * 2.0)
    warm = light.warmth
    tint = np.array([1.0 - 0.22 * warm, 1.0 - 0.03 * abs(warm), 1.0 + 0.15 * warm], np.float32)
    if warm < 0:
        tint = np.array([1.0 - 0.18 * warm, 1.0 - 0.02 * warm, 1.0 + 0.16 * warm], np.float32)
    return (level[..., None] * tint[None, None, :]).astype(np.float32)


def add_glare(img: np.ndarray, light: Light) -> None:
    """Add soft white specular spots to a uint8 image in place (saturating)."""
    h, w = img.shape[:2]
    for x, y, r, strength in light.glare:
        r = max(2.0, r)
        x0, x1 = max(0, int(x - 2.5 * r)), min(w, int(x + 2.5 * r) + 1)
        y0, y1 = max(0, int(y - 2.5 * r)), min(h, int(y + 2.5 * r) + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        xx = np.arange(x0, x1, dtype=np.float32)[None, :] - x
        yy = np.arange(y0, y1, dtype=np.float32)[:, None] - y
        spot = np.exp(-(xx**2 + yy**2) / (2 * r * r)) * (255.0 * strength)
        roi = img[y0:y1, x0:x1]
        spot8 = cv2.merge([spot.astype(np.uint8)] * 3)
        cv2.add(roi, spot8, dst=roi)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line kernel for motion blur of `length` pixels at `angle` degrees: the
    smear the pipeline undoes on a shaken frame (`vision.shake.line_kernel`)."""
    return line_kernel(Shake(length, angle))


_NOISE_PAD = 64
_NOISE_SHAPE = (720 + _NOISE_PAD, 1280 + _NOISE_PAD, 3)  # one fixed block per sigma
_NOISE_BANKS: dict[int, np.ndarray] = {}


def noise_bank(sigma: int) -> np.ndarray:
    """A fixed int16 block of Gaussian noise of whole-number `sigma` (6.5 MB).

    Drawing fresh noise for every frame costs more than the rest of the camera stage; a
    random window into one cached block is indistinguishable for a detector. The block
    never depends on the frames asked for, so a scene's noise does not depend on what was
    rendered before it.
    """
    bank = _NOISE_BANKS.get(sigma)
    if bank is None:
        rng = np.random.default_rng(12345 + sigma)
        bank = np.round(rng.standard_normal(_NOISE_SHAPE, np.float32) * sigma).astype(np.int16)
        _NOISE_BANKS[sigma] = bank
    return bank


def sensor_noise(rng: np.random.Generator, shape: tuple[int, int, int], sigma: float) -> np.ndarray:
    """Int16 Gaussian noise of about `sigma` grey levels (rounded to a whole number, at
    least 1), `shape` (H, W, C <= 3): a random window of a cached `noise_bank`, tiled for
    frames larger than 1280x720."""
    h, w, c = shape
    bank = noise_bank(max(1, round(sigma)))
    bh, bw = bank.shape[:2]
    if h + _NOISE_PAD > bh or w + _NOISE_PAD > bw:
        bank = np.tile(
            bank, (math.ceil((h + _NOISE_PAD) / bh), math.ceil((w + _NOISE_PAD) / bw), 1)
        )
    y, x = (int(v) for v in rng.integers(0, _NOISE_PAD, 2))
    return bank[y : y + h, x : x + w, :c]


def gain_to_u8(gain: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A float BGR gain (any resolution) as uint8 x128 at `size`, for `cv2.multiply`."""
    small = np.clip(gain * 128.0, 0, 255).astype(np.uint8)
    if small.shape[1] == size[0] and small.shape[0] == size[1]:
        return small
    return cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)


def finish(
    img: np.ndarray,
    light: Light,
    rng: np.random.Generator,
    *,
    motion_blur: float,
    motion_angle: float,
    focus_blur: float,
    noise: float,
    jpeg_quality: int | None,
    gain: np.ndarray | None = None,
) -> np.ndarray:
    """Light, blur, sensor noise and JPEG: from a composed uint8 table to a camera frame.

    `gain` (float32 H' x W' x 3, any resolution, 1 = unchanged) may be passed when the
    caller folds shadows into the light or shares one light between frames. Everything
    stays in uint8 with saturating OpenCV arithmetic, which is several times faster than
    a float round trip.
    """
    h, w = img.shape[:2]
    if gain is None:
        gain = light_gain_grid((w, h), light)
    out = cv2.multiply(img, gain_to_u8(gain, (w, h)), scale=1.0 / 128.0)
    if light.glare:
        add_glare(out, light)
    if motion_blur >= 1.5:
        out = cv2.filter2D(out, -1, motion_kernel(motion_blur, motion_angle))
    if focus_blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), focus_blur)
    if noise >= 0.5:
        out = cv2.add(out, sensor_noise(rng, (h, w, 3), noise), dtype=cv2.CV_8U)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
