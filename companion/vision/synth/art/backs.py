"""Card backs: repeating patterns in a border, as printed decks have them.

Backs must be told apart from faces and from other decks' backs, so each deck and edition
has its own colours and pattern; playing cards come in three common back designs.
"""

from __future__ import annotations

import cv2
import numpy as np

from .shapes import AA, CARD_H, CARD_W, Color, blank_card, put_text_centered, rounded_frame

PATTERNS = ("lattice", "rings", "stripes", "dots", "checker")

# The playing-card back designs: (base colour, ink colour, pattern).
PLAYING_BACKS: dict[str, tuple[Color, Color, str]] = {
    "red": ((40, 40, 170), (230, 230, 240), "lattice"),
    "blue": ((140, 70, 30), (235, 220, 210), "dots"),
    "green": ((60, 110, 30), (200, 235, 215), "checker"),
}


def _pattern(card: np.ndarray, box: tuple[int, int, int, int], ink: Color, pattern: str) -> None:
    x0, y0, x1, y1 = box
    area = card[y0:y1, x0:x1]
    h, w = area.shape[:2]
    if pattern == "lattice":
        for k in range(-h, w + h, 18):
            cv2.line(area, (k, 0), (k + h, h), ink, 2, AA)
            cv2.line(area, (k, 0), (k - h, h), ink, 2, AA)
    elif pattern == "rings":
        for r in range(8, max(w, h), 14):
            cv2.ellipse(area, (w // 2, h // 2), (r, round(r * 1.3)), 0, 0, 360, ink, 2, AA)
    elif pattern == "stripes":
        for k in range(-h, w + h, 14):
            cv2.line(area, (k, 0), (k + h // 2, h), ink, 4, AA)
    elif pattern == "dots":
        for j, y in enumerate(range(6, h, 14)):
            for x in range(6 + (j % 2) * 7, w, 14):
                cv2.circle(area, (x, y), 3, ink, -1, AA)
    elif pattern == "checker":
        for j, y in enumerate(range(0, h, 16)):
            for i, x in enumerate(range(0, w, 16)):
                if (i + j) % 2 == 0:
                    cv2.rectangle(area, (x, y), (x + 15, y + 15), ink, -1)
    else:
        raise ValueError(f"unknown back pattern {pattern!r}: expected one of {PATTERNS}")


def patterned_back(
    base: Color, ink: Color, pattern: str, border: Color = (245, 245, 245)
) -> np.ndarray:
    """A back: a white margin, then `pattern` in `ink` on `base`, with a centre medallion."""
    card = blank_card(border)
    x0, y0, x1, y1 = 14, 14, CARD_W - 14, CARD_H - 14
    cv2.rectangle(card, (x0, y0), (x1 - 1, y1 - 1), base, -1)
    _pattern(card, (x0, y0, x1, y1), ink, pattern)
    rounded_frame(card, 20, 8, ink, 2)
    cv2.ellipse(card, (CARD_W // 2, CARD_H // 2), (46, 64), 0, 0, 360, base, -1, AA)
    cv2.ellipse(card, (CARD_W // 2, CARD_H // 2), (46, 64), 0, 0, 360, ink, 3, AA)
    cv2.ellipse(card, (CARD_W // 2, CARD_H // 2), (30, 44), 0, 0, 360, ink, 1, AA)
    return card


# A back's fill: a plain colour or one of these repeats, on a white margin, a coloured one
# or none (full bleed), with or without a centre medallion and an inner frame line.
DESIGN_FILLS = ("plain", *PATTERNS, "grid", "waves", "diamonds", "speckle")


def designed_back(design: int) -> np.ndarray:
    """Back design number `design`: one of countless printed backs drawn from it as a seed.

    Why: the three named playing backs taught the finder that a card is printed with a
    fine repeat; a plain or low-contrast back, as some real decks have, went unseen.
    These designs vary the colours (any hue, pale to dark, greys), the fill and its
    scale and contrast, the margin and the centre, so that what is learned is "a card's
    back", not three pictures.
    """
    rng = np.random.default_rng(design)
    base = _hsv_colour(rng, saturation=rng.uniform(0, 1) if rng.random() < 0.7 else 0.0)
    ink = _ink_for(rng, base)
    margin = int(rng.choice([0, 1, 2], p=[0.6, 0.15, 0.25]))  # white, coloured, none
    inset = int(rng.integers(8, 22)) if margin < 2 else 0
    border: Color = (245, 245, 245) if margin == 0 else (ink if margin == 1 else base)
    card = blank_card(_jitter(rng, border, 10))
    box = (inset, inset, CARD_W - inset, CARD_H - inset)
    cv2.rectangle(card, box[:2], (box[2] - 1, box[3] - 1), base, -1)
    fill = str(rng.choice(DESIGN_FILLS))
    if fill != "plain":
        _design_fill(card, box, ink, fill, rng)
    if rng.random() < 0.5:
        rounded_frame(card, inset + int(rng.integers(3, 10)), 8, ink, int(rng.integers(1, 4)))
    if rng.random() < 0.45:
        axes = (int(rng.integers(25, 60)), int(rng.integers(30, 80)))
        centre = (CARD_W // 2, CARD_H // 2)
        cv2.ellipse(card, centre, axes, 0, 0, 360, base, -1, AA)
        cv2.ellipse(card, centre, axes, 0, 0, 360, ink, int(rng.integers(1, 4)), AA)
        if rng.random() < 0.5:
            text = "".join(rng.choice(list("ABCDEFGHKMNPRSTWXZ"), int(rng.integers(1, 4))))
            put_text_centered(card, text, centre, axes[0] * 0.6, ink)
    return card


def _hsv_colour(rng: np.random.Generator, saturation: float) -> Color:
    hsv = np.uint8([[[rng.integers(0, 180), saturation * 255, rng.uniform(0.12, 0.9) * 255]]])
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


def _ink_for(rng: np.random.Generator, base: Color) -> Color:
    """An ink on `base`: lighter or darker by a contrast from faint to stark, in the base's
    own hue half of the time."""
    contrast = float(rng.uniform(0.15, 0.9))
    if rng.random() < 0.5:
        target = np.array([245.0, 245.0, 245.0] if np.mean(base) < 128 else [20.0, 20.0, 20.0])
    else:
        target = np.array(_hsv_colour(rng, float(rng.uniform(0, 1))), float)
    ink = np.array(base, float) * (1 - contrast) + target * contrast
    return tuple(int(v) for v in np.clip(ink, 0, 255))  # type: ignore[return-value]


def _jitter(rng: np.random.Generator, colour: Color, spread: int) -> Color:
    return tuple(int(np.clip(c + rng.integers(-spread, spread + 1), 0, 255)) for c in colour)  # type: ignore[return-value]


def _design_fill(
    card: np.ndarray,
    box: tuple[int, int, int, int],
    ink: Color,
    fill: str,
    rng: np.random.Generator,
) -> None:
    """`fill` in `ink` inside `box`, at a scale and line width drawn from `rng`."""
    x0, y0, x1, y1 = box
    area = card[y0:y1, x0:x1]
    h, w = area.shape[:2]
    step = int(rng.integers(7, 30))
    width = int(rng.integers(1, max(2, step // 3)))
    if fill in PATTERNS:
        _pattern(card, box, ink, fill)
    elif fill == "grid":
        for x in range(step // 2, w, step):
            cv2.line(area, (x, 0), (x, h), ink, width, AA)
        for y in range(step // 2, h, step):
            cv2.line(area, (0, y), (w, y), ink, width, AA)
    elif fill == "waves":
        xs = np.arange(0, w + 1, 2)
        for y in range(0, h + step, step):
            ys = y + step * 0.3 * np.sin(xs / step * 2.2)
            points = np.column_stack([xs, ys]).astype(np.int32)
            cv2.polylines(area, [points], False, ink, width, AA)
    elif fill == "diamonds":
        for k in range(-h, w + h, step):
            cv2.line(area, (k, 0), (k + h, h), ink, width, AA)
            cv2.line(area, (k, 0), (k - h, h), ink, width, AA)
    elif fill == "speckle":
        noise = rng.random((h // 4 + 1, w // 4 + 1)).astype(np.float32)
        noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), 1.0), (w, h))
        spots = noise > np.quantile(noise, float(rng.uniform(0.5, 0.8)))
        area[spots] = ink
    else:
        raise ValueError(f"unknown back fill {fill!r}: expected one of {DESIGN_FILLS}")
