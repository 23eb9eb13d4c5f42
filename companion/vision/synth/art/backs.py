"""Card backs: repeating patterns in a border, as printed decks have them.

Backs must be told apart from faces and from other decks' backs, so each deck and edition
has its own colours and pattern; playing cards come in three common back designs.
"""

from __future__ import annotations

import cv2
import numpy as np

from .shapes import AA, CARD_H, CARD_W, Color, blank_card, rounded_frame

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
