"""Playing-card faces: corner indices, pip layouts and simple court pictures.

Real decks print the rank and a small suit in the top-left corner and the same index
rotated by 180 degrees in the bottom-right one; the reader relies on those indices, so
they are drawn the way common decks draw them. Editions vary the fonts and inks a little
so that a classifier does not learn one exact rendering.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .shapes import AA, CARD_H, CARD_W, Color, blank_card, draw_pip, put_text_centered

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
RED_SUITS = ("diamonds", "hearts")

# Pip centres for 2..10 on a unit card (x, y in 0..1), upper half pips are upright.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.2), (0.5, 0.8)),
    3: ((0.5, 0.2), (0.5, 0.5), (0.5, 0.8)),
    4: ((0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)),
    5: ((0.3, 0.2), (0.7, 0.2), (0.5, 0.5), (0.3, 0.8), (0.7, 0.8)),
    6: ((0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)),
    7: ((0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)),
    8: (
        (0.3, 0.2),
        (0.7, 0.2),
        (0.5, 0.35),
        (0.3, 0.5),
        (0.7, 0.5),
        (0.5, 0.65),
        (0.3, 0.8),
        (0.7, 0.8),
    ),
    9: (
        (0.3, 0.2),
        (0.7, 0.2),
        (0.3, 0.4),
        (0.7, 0.4),
        (0.5, 0.5),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.3, 0.8),
        (0.7, 0.8),
    ),
    10: (
        (0.3, 0.2),
        (0.7, 0.2),
        (0.5, 0.3),
        (0.3, 0.4),
        (0.7, 0.4),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.5, 0.7),
        (0.3, 0.8),
        (0.7, 0.8),
    ),
}

_FONTS = (cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_TRIPLEX)


def suit_ink(suit: str, edition: int) -> Color:
    """Red or black ink; editions shift the hue slightly, as printers do."""
    rng = np.random.default_rng(1000 + edition)
    jitter = rng.integers(-18, 19, 3) if edition else np.zeros(3, int)
    base = np.array((40, 30, 200) if suit in RED_SUITS else (30, 25, 25))
    return tuple(int(v) for v in np.clip(base + jitter, 0, 255))  # type: ignore[return-value]


@dataclass(frozen=True)
class IndexStyle:
    """How an edition prints its corner index: size and margin vary between real decks."""

    scale: float = 1.0  # of the rank and its small pip
    margin: int = 6  # from the card's edge, pixels
    pip_scale: float = 1.0  # of the pips in the middle


def index_style(edition: int) -> IndexStyle:
    """Edition 0 is the plain reference deck; others vary within what real decks print."""
    if edition == 0:
        return IndexStyle()
    rng = np.random.default_rng(3000 + edition)
    return IndexStyle(
        scale=float(rng.uniform(0.85, 1.2)),
        margin=int(rng.integers(4, 12)),
        pip_scale=float(rng.uniform(0.8, 1.1)),
    )


def _corner_index(
    card: np.ndarray, rank: int, suit: str, ink: Color, font: int, style: IndexStyle
) -> None:
    """Rank over a small pip in the top-left corner, then the same rotated bottom-right."""
    k = style.scale
    ph, pw = round(92 * k), round(44 * k)
    patch = np.full((ph, pw, 3), 255, np.uint8)
    mask = np.zeros((ph, pw), np.uint8)
    text = RANK_TEXT[rank]
    height = (24 if len(text) == 1 else 21) * k
    for canvas, color in ((patch, ink), (mask, 255)):
        put_text_centered(canvas, text, (pw / 2, 22 * k), height, color, font)  # type: ignore[arg-type]
        draw_pip(canvas, suit, (pw / 2, 62 * k), 24 * k, color)  # type: ignore[arg-type]
    m = style.margin
    corner = card[m : m + ph, m : m + pw]
    corner[mask > 0] = patch[mask > 0]
    bottom = card[CARD_H - m - ph : CARD_H - m, CARD_W - m - pw : CARD_W - m]
    rpatch, rmask = cv2.rotate(patch, cv2.ROTATE_180), cv2.rotate(mask, cv2.ROTATE_180)
    bottom[rmask > 0] = rpatch[rmask > 0]


def _pips(card: np.ndarray, rank: int, suit: str, ink: Color, scale: float) -> None:
    if rank == 1:
        ace = (110 if suit == "spades" else 80) * scale
        draw_pip(card, suit, (CARD_W / 2, CARD_H / 2), ace, ink)
        return
    x0, x1 = 80, CARD_W - 80
    y0, y1 = 62, CARD_H - 62
    for u, v in PIP_LAYOUTS[rank]:
        x = x0 + (x1 - x0) * (u - 0.3) / 0.4 if u != 0.5 else CARD_W / 2
        y = y0 + (y1 - y0) * (v - 0.2) / 0.6
        draw_pip(card, suit, (x, y), 40 * scale, ink, flip=v > 0.5)


def _court(card: np.ndarray, rank: int, suit: str, ink: Color, edition: int) -> None:
    """A framed half-figure mirrored top/bottom, as court cards are printed."""
    rng = np.random.default_rng(2000 + 13 * edition + rank)
    x0, y0, x1, y1 = 50, 40, CARD_W - 50, CARD_H - 40
    h, w = (y1 - y0) // 2, x1 - x0
    top = np.full((h, w, 3), 255, np.uint8)
    robe = tuple(int(v) for v in rng.integers(40, 200, 3))
    gold = (40, 180, 230)
    skin = (150, 190, 235)
    cv2.rectangle(top, (0, 0), (w - 1, h - 1), ink, 2, AA)
    # shoulders / robe
    cv2.ellipse(top, (w // 2, h + 10), (w // 2 - 8, 70), 0, 180, 360, robe, -1, AA)
    cv2.ellipse(top, (w // 2, h + 10), (w // 2 - 8, 70), 0, 180, 360, ink, 2, AA)
    for k in range(4):
        cv2.line(top, (20 + k * 30, h - 40), (30 + k * 30, h), ink, 1, AA)
    # head
    cv2.circle(top, (w // 2, 62), 26, skin, -1, AA)
    cv2.circle(top, (w // 2, 62), 26, ink, 2, AA)
    cv2.circle(top, (w // 2 - 9, 58), 3, (20, 20, 20), -1, AA)
    cv2.circle(top, (w // 2 + 9, 58), 3, (20, 20, 20), -1, AA)
    cv2.ellipse(top, (w // 2, 72), (8, 4), 0, 0, 180, (30, 30, 150), 2, AA)
    if rank == 13:  # crown
        pts = np.array(
            [
                [w // 2 - 26, 38],
                [w // 2 - 26, 14],
                [w // 2 - 13, 28],
                [w // 2, 8],
                [w // 2 + 13, 28],
                [w // 2 + 26, 14],
                [w // 2 + 26, 38],
            ]
        )
        cv2.fillPoly(top, [pts], gold, AA)
        cv2.polylines(top, [pts], True, ink, 2, AA)
    elif rank == 12:  # tiara and hair
        cv2.ellipse(top, (w // 2, 50), (32, 30), 0, 180, 360, (30, 60, 110), -1, AA)
        cv2.ellipse(top, (w // 2, 40), (22, 8), 0, 180, 360, gold, 4, AA)
        cv2.circle(top, (w // 2, 62), 22, skin, -1, AA)
        cv2.circle(top, (w // 2 - 8, 58), 3, (20, 20, 20), -1, AA)
        cv2.circle(top, (w // 2 + 8, 58), 3, (20, 20, 20), -1, AA)
    else:  # jack: a cap with a feather
        cv2.rectangle(top, (w // 2 - 28, 28), (w // 2 + 28, 40), robe, -1)
        cv2.ellipse(top, (w // 2 + 30, 22), (18, 6), -30, 0, 360, gold, -1, AA)
    draw_pip(top, suit, (22, 22), 24, ink)
    card[y0 : y0 + h, x0:x1] = top
    card[y0 + h : y0 + 2 * h, x0:x1] = cv2.rotate(top, cv2.ROTATE_180)


def playing_face(rank: int, suit: str, edition: int = 0) -> np.ndarray:
    """The face of a playing card, `rank` 1 (Ace) .. 13 (King), upright, 250x350 BGR."""
    paper = (252, 252, 250) if edition == 0 else (245 - edition % 3 * 4, 248, 250)
    card = blank_card(paper)
    ink = suit_ink(suit, edition)
    font = _FONTS[edition % len(_FONTS)]
    style = index_style(edition)
    if rank <= 10:
        _pips(card, rank, suit, ink, style.pip_scale)
    else:
        _court(card, rank, suit, ink, edition)
    _corner_index(card, rank, suit, ink, font, style)
    return card


def joker_face(edition: int = 0) -> np.ndarray:
    """A joker, upright, 250x350 BGR, drawn from `edition` (a seed): "JOKER" spelled down its
    corners (or a star, or both), and a star, the word or a jester in the middle, in one or
    two inks. No rank and no suit: what a deck's jokers show a reader that must never
    take them for a game card."""
    rng = np.random.default_rng(3_000 + edition)
    inks = ((25, 25, 25), (30, 30, 200), (150, 60, 20), (40, 120, 30), (120, 40, 120))
    ink = inks[int(rng.integers(len(inks)))]
    second = inks[int(rng.integers(len(inks)))]
    font = _FONTS[int(rng.integers(len(_FONTS)))]
    card = blank_card((252, 252, 250))
    corner = np.full((130, 60, 3), 255, np.uint8)
    top, letter = 14.0, float(rng.uniform(11, 16))
    style = ("letters", "star above", "star")[int(rng.integers(3))]
    if style != "letters":
        _star(corner, (30, 14), float(rng.uniform(9, 14)), second)
        top = 36.0
    if style != "star":
        for k, text in enumerate("JOKER"):
            put_text_centered(corner, text, (26, top + 1.35 * letter * k), letter, ink, font)
    printed = (corner < 200).any(axis=2)
    card[10:140, 8:68][printed] = corner[printed]
    turned_print, turned_corner = printed[::-1, ::-1], corner[::-1, ::-1]
    card[CARD_H - 140 : CARD_H - 10, CARD_W - 68 : CARD_W - 8][turned_print] = turned_corner[
        turned_print
    ]
    middle = (CARD_W / 2, CARD_H / 2)
    kind = int(rng.integers(3))
    if kind == 0:
        _star(card, middle, float(rng.uniform(45, 80)), ink)
    elif kind == 1:
        put_text_centered(card, "JOKER", middle, float(rng.uniform(26, 40)), ink, font)
    else:
        _jester(card, middle, ink, second)
    return card


def _star(card: np.ndarray, centre: tuple[float, float], radius: float, ink: Color) -> None:
    """A filled five-pointed star."""
    angles = np.pi / 2 + np.arange(10) * np.pi / 5
    reach = np.where(np.arange(10) % 2 == 0, radius, 0.4 * radius)
    points = np.column_stack(
        [centre[0] + reach * np.cos(angles), centre[1] - reach * np.sin(angles)]
    )
    cv2.fillPoly(card, [np.round(points).astype(np.int32)], ink, AA)


def _jester(card: np.ndarray, centre: tuple[float, float], ink: Color, hat: Color) -> None:
    """A jester's head under a three-pointed cap with bells."""
    x, y = round(centre[0]), round(centre[1] + 25)
    skin = (150, 190, 235)
    cap = np.array(
        [
            [x - 55, y - 30],
            [x - 75, y - 110],
            [x - 20, y - 60],
            [x, y - 125],
            [x + 20, y - 60],
            [x + 75, y - 110],
            [x + 55, y - 30],
        ],
        np.int32,
    )
    cv2.fillPoly(card, [cap], hat, AA)
    cv2.polylines(card, [cap], True, ink, 2, AA)
    for bell in ((x - 75, y - 110), (x, y - 125), (x + 75, y - 110)):
        cv2.circle(card, bell, 9, (40, 180, 230), -1, AA)
    cv2.circle(card, (x, y), 42, skin, -1, AA)
    cv2.circle(card, (x, y), 42, ink, 2, AA)
    cv2.circle(card, (x - 15, y - 8), 5, (20, 20, 20), -1, AA)
    cv2.circle(card, (x + 15, y - 8), 5, (20, 20, 20), -1, AA)
    cv2.ellipse(card, (x, y + 14), (18, 9), 0, 0, 180, (30, 30, 150), 3, AA)
    cv2.ellipse(card, (x, y + 55), (60, 16), 0, 0, 360, hat, -1, AA)
