"""Rectified cards from the real photos of `edje-aces` (boxes + rank + suit in manifest.json).

The manifest boxes are axis-aligned around the visible part of each (rotated) card, so the
card's own quad is found inside the box: the card is the largest bright, low-saturation
region there; its minimum-area rectangle gives the four corners to rectify. Cards whose
region does not fill its box well (overlapped or cut by the photo's edge) are skipped, so
that every crop used for training or measuring shows a whole card.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from .card_samples import Cut

RANKS = {"A": 1, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13}
DEFAULT_ROOT = Path(__file__).resolve().parents[3] / "shared/data/real-photos/edje-aces"


@dataclass(frozen=True)
class RealCard:
    """One labelled card of a real photo, with the quad found inside its box."""

    file: str
    split: str  # "train" or "test"
    rank: int  # 1 (Ace), 9..13
    suit: str
    box: tuple[int, int, int, int]
    corners: np.ndarray | None  # (4, 2) float32 clockwise, None when no whole card found


CARD_ASPECT = 7 / 5  # long side / short side of a poker card


def _paper_score(image: np.ndarray) -> np.ndarray:
    """High where the photo looks like white card stock: bright and little saturated."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    return hsv[..., 2] - 1.5 * hsv[..., 1]


def _rotated_rects_fitting(box: tuple[int, int, int, int]) -> list[np.ndarray]:
    """Card-shaped rectangles (5:7) whose axis-aligned bounding box is `box`.

    A rectangle of sides a, k*a turned by t has a bounding box a*(c + k*s) by a*(s + k*c);
    both signs of t give the same box, so every solution comes with its mirror.
    """
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    quads = []
    t = np.radians(np.arange(0.0, 180.0, 0.5))  # the long side's turn from vertical
    c, s = np.abs(np.cos(t)), np.abs(np.sin(t))
    k = CARD_ASPECT
    ratio = (c + k * s) / (s + k * c)
    err = np.abs(np.log(ratio / (bw / bh)))
    for i in np.flatnonzero(err < 0.06):
        a = min(bw / (c[i] + k * s[i]), bh / (s[i] + k * c[i]))
        half = np.array(
            [[-a / 2, -k * a / 2], [a / 2, -k * a / 2], [a / 2, k * a / 2], [-a / 2, k * a / 2]]
        )
        rot = np.array([[np.cos(t[i]), -np.sin(t[i])], [np.sin(t[i]), np.cos(t[i])]])
        quads.append((half @ rot.T + [cx, cy]).astype(np.float32))
    return quads


def card_quad_in_box(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray | None:
    """The card's four corners inside `box`, or None when no whole card fills the box.

    Candidates are the card-shaped rectangles that fit the box exactly; the one whose
    inside looks most like paper and whose outside least does wins, if it wins clearly.
    """
    score = _paper_score(image)
    best, best_gap = None, -1e9
    h, w = image.shape[:2]
    for quad in _rotated_rects_fitting(box):
        inside = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 255)
        x0, y0, x1, y1 = box
        in_box = np.zeros((h, w), np.uint8)
        in_box[y0:y1, x0:x1] = 255
        outside = cv2.bitwise_and(in_box, cv2.bitwise_not(inside))
        if cv2.countNonZero(outside) < 20:
            gap = float(score[inside > 0].mean())
        else:
            gap = float(score[inside > 0].mean() - score[outside > 0].mean())
        if gap > best_gap:
            best, best_gap = quad, gap
    if best is None or best_gap < 60:
        return None
    return best


def load_real_cards(root: Path = DEFAULT_ROOT) -> list[tuple[np.ndarray, list[RealCard]]]:
    """Every photo with its labelled cards (quads found where a whole card shows)."""
    manifest = json.loads((root / "manifest.json").read_text())
    out = []
    for entry in manifest["images"]:
        image = cv2.imread(str(root / entry["file"]))
        if image is None:
            raise FileNotFoundError(f"cannot read {root / entry['file']}")
        cards = []
        for c in entry["cards"]:
            box = tuple(int(v) for v in c["box"])
            cards.append(
                RealCard(
                    file=entry["file"],
                    split=entry["split"],
                    rank=RANKS[c["rank"]],
                    suit=c["suit"],
                    box=box,  # type: ignore[arg-type]
                    corners=card_quad_in_box(image, box),  # type: ignore[arg-type]
                )
            )
        out.append((image, cards))
    return out


RANK_CLASS = {1: 0, 9: 8, 10: 9, 11: 10, 12: 11, 13: 12}  # Ace..King -> 0..12


def _background_quad(
    rng: np.random.Generator, shape: tuple[int, ...], boxes: list[tuple[int, int, int, int]]
) -> np.ndarray | None:
    """A card-shaped quad on the photo that touches no labelled card, or None."""
    h, w = shape[:2]
    length = rng.uniform(0.15, 0.45) * min(h, w)
    width = length * 5 / 7
    cx, cy = rng.uniform(length / 2, w - length / 2), rng.uniform(length / 2, h - length / 2)
    a = rng.uniform(0, np.pi)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = np.array([[-width, -length], [width, -length], [width, length], [-width, length]]) / 2
    quad = (half @ rot.T + [cx, cy]).astype(np.float32)
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    for bx0, by0, bx1, by1 in boxes:
        if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1:
            return None
    return quad


def real_card_samples(
    photos: Iterable[tuple[np.ndarray, list[RealCard]]],
    split: str,
    copies: int,
    seed: int,
    jitter: float = 0.012,
    cut: Cut | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cards of one split, `copies` jittered views each, plus background non-cards, cut by
    `cut` (`features.rectify_cards` by default).

    Returns (cards (N, H, W, 3), rank classes (NONE_CLASS for the background), suit classes).
    """
    from companion.vision.features import rectify_cards
    from companion.vision.geometry import order_clockwise

    from .card_samples import NO_SUIT, NONE_CLASS

    cut = cut or rectify_cards

    rng = np.random.default_rng(seed)
    suits = ("clubs", "diamonds", "hearts", "spades")
    cards, ranks, suit_ids = [], [], []
    for image, labelled in photos:
        boxes = [c.box for c in labelled]
        for card in labelled:
            if card.split != split or card.corners is None:
                continue
            diag = float(np.linalg.norm(card.corners[0] - card.corners[2]))
            for _ in range(copies):
                quad = card.corners + rng.normal(0, jitter * diag, (4, 2)).astype(np.float32)
                cards.append(cut(image, [order_clockwise(quad)])[0])
                ranks.append(RANK_CLASS[card.rank])
                suit_ids.append(suits.index(card.suit))
        if labelled and labelled[0].split == split:
            for _ in range(copies // 2):
                quad = _background_quad(rng, image.shape, boxes)
                if quad is not None:
                    cards.append(cut(image, [order_clockwise(quad)])[0])
                    ranks.append(NONE_CLASS)
                    suit_ids.append(NO_SUIT)
    return np.stack(cards), np.array(ranks, np.int64), np.array(suit_ids, np.int64)


# The longest card's length in pixels that `small_photos` shrinks a photo to: a webcam over
# a table shows cards about 100 px long in a 1280x720 frame (`companion bench vision
# --real-card-length`).
WEBCAM_LENGTHS = (60.0, 150.0)


def small_photos(
    photos: Iterable[tuple[np.ndarray, list[RealCard]]], sizes: int, seed: int
) -> Iterator[tuple[np.ndarray, list[RealCard]]]:
    """Every photo shrunk `sizes` times by area averaging, each time so that its longest
    labelled card is a length drawn from WEBCAM_LENGTHS (never enlarged), its cards' boxes
    and quads shrunk with it.

    Why: the photos' cards are 90 to 330 px long; at a webcam's 100 px their corner index
    is a blur of 8 to 10 px, which the index reader, taught indices at the photos' own
    scale, can read as no card however plainly an "A" and a pip show (models/README.md,
    the index reader's "Small real indices"). A generator: a photo's sizes are made one
    at a time."""
    rng = np.random.default_rng(seed)
    for image, cards in photos:
        longest = max(max(c.box[2] - c.box[0], c.box[3] - c.box[1]) for c in cards)
        height, width = image.shape[:2]
        for _ in range(sizes):
            scale = min(1.0, rng.uniform(*WEBCAM_LENGTHS) / max(longest, 1))
            size = (max(1, round(width * scale)), max(1, round(height * scale)))
            small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
            sx, sy = size[0] / width, size[1] / height
            yield small, [_shrunk(card, sx, sy) for card in cards]


def _shrunk(card: RealCard, sx: float, sy: float) -> RealCard:
    """`card` as it lies in its photo scaled by `sx` across and `sy` down."""
    x0, y0, x1, y1 = card.box
    box = (int(x0 * sx), int(y0 * sy), int(np.ceil(x1 * sx)), int(np.ceil(y1 * sy)))
    corners = None if card.corners is None else (card.corners * [sx, sy]).astype(np.float32)
    return replace(card, box=box, corners=corners)


SHAKE_LENGTHS = (2.0, 10.0)  # pixels: the camera shakes `shaken_photos` draws


def shaken_photos(
    photos: Iterable[tuple[np.ndarray, list[RealCard]]], shakes: int, seed: int
) -> Iterator[tuple[np.ndarray, list[RealCard]]]:
    """Every photo `shakes` times, each smeared by a camera shake of its own (a length in
    SHAKE_LENGTHS, any direction: the renderer's `motion_kernel`), its cards as labelled.

    Why: shaken by 6 px (`companion bench vision --real-blur 6`), the real photos' Aces
    read as a 2 or a 3 in the corners while the whole face still reads the Ace, and a
    reader taught the renderer's shaken indices read them no better: a real index smears
    otherwise than a rendered one. A generator: a photo's shakes are made one at a time."""
    from companion.vision.synth.camera import motion_kernel

    rng = np.random.default_rng(seed)
    for image, cards in photos:
        for _ in range(shakes):
            kernel = motion_kernel(rng.uniform(*SHAKE_LENGTHS), rng.uniform(0.0, 180.0))
            yield cv2.filter2D(image, -1, kernel), cards
