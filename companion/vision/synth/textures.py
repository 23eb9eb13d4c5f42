"""Procedural table surfaces: wood, felt, cloth, patterned and plain tables.

Tables both lighter and darker than the cards are needed, because a detector tuned on dark
felt fails on a white tablecloth; every style draws its colours from a range so that no
two scenes share an exact surface. Built from low-resolution noise upscaled, which keeps a
1280x720 surface to a few milliseconds.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import sensor_noise

TABLE_STYLES = (
    "wood-light",
    "wood-dark",
    "felt-green",
    "felt-dark",
    "cloth-white",
    "cloth-gingham",
    "linen",
    "marble",
    "tiles",
    "plain-dark",
    "plain-light",
    "carpet",
)


def smooth_noise(rng: np.random.Generator, size: tuple[int, int], cells: int) -> np.ndarray:
    """Float32 noise in about -1..1, with features about size/cells pixels wide."""
    w, h = size
    cw = max(2, cells)
    ch = max(2, round(cells * h / w))
    small = rng.standard_normal((ch, cw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _fine_noise(rng: np.random.Generator, size: tuple[int, int], sigma: float) -> np.ndarray:
    """Float32 per-pixel grain of `sigma`: a random window of the camera's noise bank."""
    w, h = size
    grain = sensor_noise(rng, (h, w, 1), 16.0).reshape(h, w)
    return cv2.multiply(grain, sigma / 16.0, dtype=cv2.CV_32F)


def _colorize(base: np.ndarray, shade: np.ndarray) -> np.ndarray:
    """Multiply a BGR base colour by a per-pixel shade (1 = base), saturated to uint8."""
    return cv2.merge([cv2.convertScaleAbs(shade, alpha=float(v)) for v in base])


def _streaks(
    rng: np.random.Generator, size: tuple[int, int], along: int, across: int
) -> np.ndarray:
    """Noise stretched along x: `along` cells across the width, `across` down the height."""
    w, h = size
    small = rng.standard_normal((max(2, across), max(2, along))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(rng: np.random.Generator, size: tuple[int, int], dark: bool) -> np.ndarray:
    """Planks along x: fine stretched grain lines, wavy growth rings, seams, per-plank tone."""
    h = size[1]
    base = np.array(
        (rng.uniform(40, 70), rng.uniform(75, 110), rng.uniform(110, 150))
        if dark
        else (rng.uniform(110, 160), rng.uniform(160, 200), rng.uniform(200, 235))
    )
    fine = _streaks(rng, size, int(rng.integers(6, 14)), h // 2) * 0.05
    mid = _streaks(rng, size, int(rng.integers(3, 8)), h // 10) * 0.06
    y = np.arange(h, dtype=np.float32)[:, None]
    warp = smooth_noise(rng, size, 3) * rng.uniform(10, 30)
    rings = (np.sin((y + warp) / rng.uniform(14, 40) * 2 * np.pi) * 0.5 + 0.5) ** 4 * 0.08
    shade = 0.95 + fine + mid - rings
    plank = max(8, int(rng.uniform(0.15, 0.35) * h))
    offset = int(rng.integers(0, plank))
    rows = (np.arange(h) + offset) // plank
    tone = 1.0 + rng.normal(0.0, 0.05, rows.max() + 1).astype(np.float32)
    shade *= tone[rows][:, None]
    shade[(np.arange(h) + offset) % plank < max(1, h // 360)] *= 0.65
    return _colorize(base, shade)


def _felt(rng: np.random.Generator, size: tuple[int, int], base: np.ndarray) -> np.ndarray:
    shade = 1.0 + smooth_noise(rng, size, 12) * 0.03 + _fine_noise(rng, size, 0.05)
    return _colorize(base, shade)


def _weave(size: tuple[int, int], period: float, depth: float) -> np.ndarray:
    w, h = size
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    return 1.0 - depth * (np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)) ** 2


def _gingham(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """White cloth with coloured bands both ways; darker where the bands cross."""
    w, h = size
    period = int(rng.integers(24, 70))
    color = rng.uniform(60, 200, 3)
    white = np.array((235.0, 238.0, 240.0))
    band_x = (np.arange(w) % period) < period // 2
    band_y = (np.arange(h) % period) < period // 2
    palette = np.stack([white, (white + color) / 2, color]).astype(np.uint8)  # 0, 1, 2 bands
    index = band_x[None, :].astype(np.uint8) + band_y[:, None].astype(np.uint8)
    img = palette[index]
    shade = _weave(size, 4.0, 0.08) + _fine_noise(rng, size, 0.03)
    return cv2.multiply(img, cv2.merge([shade] * 3), dtype=cv2.CV_8U)


def _marble(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Stone with a few irregular veins: turbulence (noise at several scales) bends them."""
    w = size[0]
    light = rng.random() < 0.6
    base = np.array(rng.uniform(200, 240, 3) if light else rng.uniform(30, 70, 3))
    x = np.arange(w, dtype=np.float32)[None, :]
    turbulence = sum(
        np.abs(smooth_noise(rng, size, cells)) * weight
        for cells, weight in ((3, 1.0), (9, 0.5), (27, 0.25))
    )
    veins = np.abs(np.sin(x * rng.uniform(0.004, 0.01) + turbulence * 4.0))
    strength = np.clip(1.0 - veins / 0.08, 0.0, 1.0) * smooth_noise(rng, size, 5).clip(0, 1)
    vein_shade = -0.3 if light else 0.8
    shade = 1.0 + vein_shade * strength + smooth_noise(rng, size, 20) * 0.03
    return _colorize(base, cv2.GaussianBlur(shade.astype(np.float32), (3, 3), 0))


def _tiles(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    period = int(rng.integers(60, 160))
    base = np.array(rng.uniform(90, 230, 3))
    grout = (np.arange(w)[None, :] % period < 3) | (np.arange(h)[:, None] % period < 3)
    shade = np.where(grout, 0.6, 1.0).astype(np.float32) + smooth_noise(rng, size, 8) * 0.05
    return _colorize(base, shade)


def _carpet(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A busy speckled floor or rug (as in many phone photos of cards): strong per-pixel
    grain in two colours, with soft stains."""
    a, b = rng.uniform(30, 200, 3), rng.uniform(30, 200, 3)
    mix = (_fine_noise(rng, size, 0.9) + smooth_noise(rng, size, 10) * 0.5).clip(-1.5, 1.5)
    mix = (mix + 1.5) / 3.0
    img = a[None, None, :] * (1 - mix[..., None]) + b[None, None, :] * mix[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def table_surface(style: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A BGR uint8 table of `size` = (width, height) in one of `TABLE_STYLES`."""
    if style == "wood-light":
        return _wood(rng, size, dark=False)
    if style == "wood-dark":
        return _wood(rng, size, dark=True)
    if style == "felt-green":
        return _felt(rng, size, np.array((rng.uniform(40, 80), rng.uniform(100, 140), 20.0)))
    if style == "felt-dark":
        return _felt(rng, size, np.array(rng.uniform(15, 45, 3)))
    if style == "cloth-white":
        base = np.array(rng.uniform(225, 250, 3))
        return _colorize(base, _weave(size, 3.0, 0.06) + _fine_noise(rng, size, 0.02))
    if style == "cloth-gingham":
        return _gingham(rng, size)
    if style == "linen":
        base = np.array((rng.uniform(150, 190), rng.uniform(180, 210), rng.uniform(195, 225)))
        return _colorize(base, _weave(size, 2.5, 0.12) + _fine_noise(rng, size, 0.04))
    if style == "marble":
        return _marble(rng, size)
    if style == "tiles":
        return _tiles(rng, size)
    if style == "plain-dark":
        return _felt(rng, size, np.array(rng.uniform(5, 60, 3)))
    if style == "carpet":
        return _carpet(rng, size)
    if style == "plain-light":
        return _felt(rng, size, np.array(rng.uniform(170, 250, 3)))
    raise ValueError(f"unknown table style {style!r}: expected one of {TABLE_STYLES}")
