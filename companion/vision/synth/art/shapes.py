"""Drawing primitives shared by the card faces and backs (pips, text, card outline).

Everything is drawn with OpenCV on a canonical portrait card so that no asset has to be
downloaded or shipped; anti-aliased primitives keep the edges close to printed cards.
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_W = 250
CARD_H = 350
CARD_SIZE = (CARD_W, CARD_H)  # (width, height), aspect 5:7
CORNER_RADIUS = 16

Color = tuple[int, int, int]  # BGR

AA = cv2.LINE_AA


def blank_card(color: Color) -> np.ndarray:
    """A card-sized canvas filled with `color` (BGR)."""
    card = np.empty((CARD_H, CARD_W, 3), np.uint8)
    card[:] = color
    return card


def rounded_rect_mask(width: int, height: int, radius: int) -> np.ndarray:
    """A uint8 mask (255 inside) of a rectangle with rounded corners."""
    mask = np.zeros((height, width), np.uint8)
    r = radius
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in (
        (r, r),
        (width - 1 - r, r),
        (r, height - 1 - r),
        (width - 1 - r, height - 1 - r),
    ):
        cv2.circle(mask, (cx, cy), r, 255, -1, AA)
    return mask


def rounded_frame(card: np.ndarray, inset: int, radius: int, color: Color, thickness: int) -> None:
    """Draw a rounded rectangle outline `inset` pixels inside the card's edge."""
    h, w = card.shape[:2]
    x0, y0, x1, y1 = inset, inset, w - 1 - inset, h - 1 - inset
    r = radius
    cv2.line(card, (x0 + r, y0), (x1 - r, y0), color, thickness, AA)
    cv2.line(card, (x0 + r, y1), (x1 - r, y1), color, thickness, AA)
    cv2.line(card, (x0, y0 + r), (x0, y1 - r), color, thickness, AA)
    cv2.line(card, (x1, y0 + r), (x1, y1 - r), color, thickness, AA)
    for (cx, cy), start in (
        ((x0 + r, y0 + r), 180),
        ((x1 - r, y0 + r), 270),
        ((x1 - r, y1 - r), 0),
        ((x0 + r, y1 - r), 90),
    ):
        cv2.ellipse(card, (cx, cy), (r, r), 0, start, start + 90, color, thickness, AA)


def put_text_centered(
    img: np.ndarray,
    text: str,
    center: tuple[float, float],
    height: float,
    color: Color,
    font: int = cv2.FONT_HERSHEY_DUPLEX,
    thickness: int | None = None,
) -> None:
    """Write `text` centred on `center` with a cap height of about `height` pixels."""
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    thick = thickness if thickness is not None else max(1, round(scale * 1.6))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(center[0] - tw / 2), round(center[1] + th / 2))
    cv2.putText(img, text, org, font, scale, color, thick, AA)


# --- suit pips --------------------------------------------------------------------


def _poly(img: np.ndarray, pts: np.ndarray, color: Color) -> None:
    cv2.fillPoly(img, [np.round(pts).astype(np.int32)], color, AA)


def draw_heart(img: np.ndarray, c: tuple[float, float], s: float, color: Color) -> None:
    """A heart of total height about `s` centred on `c`."""
    x, y = c
    r = s * 0.27
    cv2.circle(img, (round(x - r), round(y - s * 0.18)), round(r), color, -1, AA)
    cv2.circle(img, (round(x + r), round(y - s * 0.18)), round(r), color, -1, AA)
    _poly(
        img,
        np.array([[x - 2 * r, y - s * 0.12], [x + 2 * r, y - s * 0.12], [x, y + s * 0.5]]),
        color,
    )


def draw_diamond(img: np.ndarray, c: tuple[float, float], s: float, color: Color) -> None:
    """A diamond (lozenge) of height `s`."""
    x, y = c
    _poly(
        img,
        np.array([[x, y - s / 2], [x + s * 0.36, y], [x, y + s / 2], [x - s * 0.36, y]]),
        color,
    )


def draw_spade(img: np.ndarray, c: tuple[float, float], s: float, color: Color) -> None:
    """A spade: an upside-down heart on a small flared stem."""
    x, y = c
    r = s * 0.25
    cv2.circle(img, (round(x - r), round(y + s * 0.08)), round(r), color, -1, AA)
    cv2.circle(img, (round(x + r), round(y + s * 0.08)), round(r), color, -1, AA)
    _poly(
        img,
        np.array([[x - 2 * r, y + s * 0.02], [x + 2 * r, y + s * 0.02], [x, y - s * 0.5]]),
        color,
    )
    _poly(
        img,
        np.array([[x, y + s * 0.1], [x + s * 0.18, y + s * 0.5], [x - s * 0.18, y + s * 0.5]]),
        color,
    )


def draw_club(img: np.ndarray, c: tuple[float, float], s: float, color: Color) -> None:
    """A club: three balls on a flared stem."""
    x, y = c
    r = s * 0.2
    cv2.circle(img, (round(x), round(y - s * 0.25)), round(r), color, -1, AA)
    cv2.circle(img, (round(x - s * 0.22), round(y + s * 0.05)), round(r), color, -1, AA)
    cv2.circle(img, (round(x + s * 0.22), round(y + s * 0.05)), round(r), color, -1, AA)
    _poly(
        img,
        np.array([[x, y - s * 0.1], [x + s * 0.16, y + s * 0.5], [x - s * 0.16, y + s * 0.5]]),
        color,
    )


PIP_DRAWERS = {
    "clubs": draw_club,
    "diamonds": draw_diamond,
    "hearts": draw_heart,
    "spades": draw_spade,
}


def draw_pip(
    img: np.ndarray, suit: str, c: tuple[float, float], s: float, color: Color, flip: bool = False
) -> None:
    """Draw one suit pip; `flip` draws it upside down (lower half of a real card)."""
    if not flip:
        PIP_DRAWERS[suit](img, c, s, color)
        return
    pad = round(s * 0.7)
    x, y = round(c[0]), round(c[1])
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(img.shape[1], x + pad), min(img.shape[0], y + pad)
    patch = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    local = (c[0] - x0, c[1] - y0)
    PIP_DRAWERS[suit](patch, local, s, color)
    PIP_DRAWERS[suit](mask, local, s, 255)
    # Rotate about the pip's own centre.
    m = cv2.getRotationMatrix2D(local, 180, 1.0)
    patch = cv2.warpAffine(patch, m, (patch.shape[1], patch.shape[0]))
    mask = cv2.warpAffine(mask, m, (mask.shape[1], mask.shape[0]))
    roi = img[y0:y1, x0:x1]
    a = mask[..., None].astype(np.float32) / 255.0
    roi[:] = (roi * (1 - a) + patch * a).astype(np.uint8)
