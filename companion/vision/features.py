"""What the card reader looks at: rectified cards, their corner indices, their embeddings' input.

Training (models/train) imports these same functions, so the crops a model learned from
and the crops it is shown at run time are cut the same way.

A rectified card is portrait, upright or upside down (`geometry.rectify` cannot know which).
Common decks print the corner index top-left and again, turned by 180°, bottom-right, so
the top-left patch and the bottom-right patch turned by 180° both show an upright index,
whichever way the card lies: the reader classifies both views and combines them, which
also survives one corner being covered by a neighbouring card.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import cv2
import numpy as np

from .stages import timed

# Rectified card for reading: (width, height), 5:7 like the cards themselves.
READ_SIZE: tuple[int, int] = (120, 168)
# The corner index patch inside a READ_SIZE card: x0, y0, x1, y1 (a quarter of the width,
# 30% of the height; real and synthetic indices both fit with some slack for a loose quad).
CORNER_BOX: tuple[int, int, int, int] = (0, 0, 30, 50)
CORNER_SIZE: tuple[int, int] = (CORNER_BOX[2] - CORNER_BOX[0], CORNER_BOX[3] - CORNER_BOX[1])
# Input of the card embedding model (models/train/embed.py): (width, height).
EMBED_SIZE: tuple[int, int] = (32, 48)
# What the reader warps each quad to before `embed_input` shrinks it for the embedding:
# EMBED_SIZE three times over, so the shrink averages whole 3x3 blocks. Why not READ_SIZE,
# which the embedding learned from: shrinking by 3.75 x 3.5 costs OpenCV's general area
# path, and the larger warp twice the pixels; a settled animal frame's 15 cards cost 1.35
# ms so and 0.72 ms this way, at 1.5 grey levels apart on average (models/README.md,
# card_embed, "Seventy-second stop").
EMBED_VIEW_SIZE: tuple[int, int] = (3 * EMBED_SIZE[0], 3 * EMBED_SIZE[1])
# Input of the whole-card reader of playing cards (its pips and layout): (width, height).
WHOLE_SIZE: tuple[int, int] = (40, 56)


# In a corner patch, pixels darker than this fraction of the paper's grey are ink or the
# table beyond the card (`index_print`).
BEYOND_CARD = 0.75

_WARP = {"flags": cv2.INTER_LINEAR, "borderMode": cv2.BORDER_REPLICATE}


def _to_card(quad: np.ndarray, size: tuple[int, int] = READ_SIZE) -> np.ndarray:
    """The homography from a quad (clockwise, short side first) to a portrait card of
    `size` (width, height)."""
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32), card_corners(size))


@cache
def card_corners(size: tuple[int, int]) -> np.ndarray:
    """The corners of a portrait card of `size` (width, height), clockwise from the
    top-left: made once per size, as every quad of every frame is warped to one (shared,
    so read-only)."""
    width, height = size
    corners = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    corners.setflags(write=False)
    return corners


@timed("cutting views")
def rectify_cards(
    image: np.ndarray, quads: Sequence[np.ndarray], size: tuple[int, int] = READ_SIZE
) -> np.ndarray:
    """Every quad warped to a portrait card of `size` (width, height): (N, H, W, 3) uint8
    BGR.

    The quads must be in `geometry.order_clockwise` order (short side first).
    """
    width, height = size
    cards = np.empty((len(quads), height, width, 3), np.uint8)
    for i, quad in enumerate(quads):
        cards[i] = cv2.warpPerspective(image, _to_card(quad, size), size, **_WARP)
    return cards


# The corner patches of a READ_SIZE card, each moved to the origin: the top-left one, and
# the bottom-right one (turned by 180° after warping).
_TOP_LEFT = np.array([[1, 0, -CORNER_BOX[0]], [0, 1, -CORNER_BOX[1]], [0, 0, 1]], np.float64)
_BOTTOM_RIGHT = np.array(
    [[1, 0, CORNER_BOX[2] - READ_SIZE[0]], [0, 1, CORNER_BOX[3] - READ_SIZE[1]], [0, 0, 1]],
    np.float64,
)


@timed("cutting views")
def corner_views_of(image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """`corner_views(rectify_cards(image, quads))`, warping only the two corner patches.

    The same homography samples the same pixels, so this equals cutting the patches out of
    the whole rectified card, at an eighth of the cost.
    """
    width, height = CORNER_SIZE
    views = np.empty((2 * len(quads), height, width, 3), np.uint8)
    for i, quad in enumerate(quads):
        to_card = _to_card(quad)
        views[2 * i] = cv2.warpPerspective(image, _TOP_LEFT @ to_card, CORNER_SIZE, **_WARP)
        bottom_right = cv2.warpPerspective(image, _BOTTOM_RIGHT @ to_card, CORNER_SIZE, **_WARP)
        # turned by cv2: numpy's copy of a view reversed on both axes costs ten times more
        views[2 * i + 1] = cv2.flip(bottom_right, -1)
    return views


@timed("cutting views")
def top_left_views_of(image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """The top-left corner patch of each quad alone (`corner_views_of`' even rows): where
    only that corner is in sight."""
    width, height = CORNER_SIZE
    views = np.empty((len(quads), height, width, 3), np.uint8)
    for i, quad in enumerate(quads):
        views[i] = cv2.warpPerspective(image, _TOP_LEFT @ _to_card(quad), CORNER_SIZE, **_WARP)
    return views


def index_print(views: np.ndarray) -> np.ndarray:
    """How much print each corner patch (N, h, w, 3) carries where an index stands (its
    inner part, clear of the borders, where a loose patch shows the table): the spread
    of grey there over the paper's grey (the patch's 90th percentile).

    A dark region that runs along a quarter of the patch's top or left border or more is
    not print but the table beyond the card's corner (or beyond a white thing's edge): it
    counts as paper. Otherwise a blank corner on a dark table carries as much "print" as
    an index (the real photos' train split: a blank corner of a card read as an Ace of
    clubs, the rim of a white lamp as an Ace of hearts at 0.98). An index that a loose
    patch cuts touches a border only over a few pixels."""
    # The channels' mean as np.mean gives it (their sum is exact), summed channel by
    # channel: a mean over an axis of three costs ten times more. np.percentile's own
    # partition of each row is slower than a sort, and quick on sorted rows.
    total = views[..., 0].astype(np.uint16) + views[..., 1] + views[..., 2]
    grey = total.astype(np.float32) / 3
    paper = np.percentile(np.sort(grey.reshape(len(grey), -1), axis=1), 90, axis=1)
    _table_as_paper(grey, paper)
    height, width = grey.shape[1:]
    inner = grey[:, height // 8 : height - height // 8, width // 10 : width - width // 10]
    return inner.reshape(len(grey), -1).std(axis=1) / np.maximum(paper, 1.0)


def _table_as_paper(grey: np.ndarray, paper: np.ndarray) -> None:
    """Set each dark part (under BEYOND_CARD of the paper's grey) of the (N, h, w) grey
    patches that runs along a quarter of a patch's top or left border or more to that
    patch's `paper` grey.

    All patches are labelled in one call, each with a row of nothing under it so that no
    part runs on into the next, and the parts counted along the borders by label: a call
    per patch and np.unique and np.isin on its few pixels cost several times more.
    """
    count, height, width = grey.shape
    # in float32, as a float32 patch compared with the one number took it (numpy 1 and 2)
    limits = (BEYOND_CARD * paper).astype(np.float32)[:, None, None]
    dark = np.zeros((count, height + 1, width), np.uint8)
    dark[:, :height] = grey < limits
    labels, parts = cv2.connectedComponents(dark.reshape(-1, width))
    parts = parts.reshape(count, height + 1, width)[:, :height]
    top = np.bincount(parts[:, 0].ravel(), minlength=labels)
    left = np.bincount(parts[:, :, 0].ravel(), minlength=labels)
    table = (4 * top >= width) | (4 * left >= height)
    table[0] = False
    beyond = table[parts]
    grey[beyond] = np.broadcast_to(paper[:, None, None], grey.shape)[beyond]


def corner_views(cards: np.ndarray) -> np.ndarray:
    """Both corner indices of each card, upright: (2N, h, w, 3), card i at 2i and 2i + 1.

    View 2i is the top-left patch, view 2i + 1 the bottom-right patch turned by 180°.
    """
    x0, y0, x1, y1 = CORNER_BOX
    width, height = READ_SIZE
    top_left = cards[:, y0:y1, x0:x1]
    bottom_right = cards[:, height - y1 : height - y0, width - x1 : width - x0][:, ::-1, ::-1]
    views = np.empty((2 * len(cards), *top_left.shape[1:]), np.uint8)
    views[0::2] = top_left
    views[1::2] = bottom_right
    return views


def to_model_input(patches: np.ndarray) -> np.ndarray:
    """uint8 (N, H, W, 3) BGR patches as the float32 (N, 3, H, W) in 0..1 the models take."""
    batch = np.ascontiguousarray(patches.transpose(0, 3, 1, 2), dtype=np.float32)
    batch /= 255.0  # in place: no second batch to allocate
    return batch


def embed_input(cards: np.ndarray) -> np.ndarray:
    """Rectified cards (an enrolled picture at READ_SIZE, a quad of a frame at
    EMBED_VIEW_SIZE) shrunk to EMBED_SIZE by area averaging, as the embedding model's
    float32 input."""
    small = np.stack([cv2.resize(c, EMBED_SIZE, interpolation=cv2.INTER_AREA) for c in cards])
    return to_model_input(small)


def print_spread(batch: np.ndarray) -> np.ndarray:
    """How much print each card of an `embed_input` batch carries: the spread of its
    pixels, 0..1 (N,). The embedding takes each card's own spread out, so it cannot tell
    a featureless quad from a card by itself (`read.MIN_PRINT`)."""
    return batch.reshape(len(batch), -1).std(axis=1)


@timed("cutting views")
def whole_views_of(image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """Every quad warped straight to a WHOLE_SIZE portrait card, what the whole-card reader
    sees: (N, h, w, 3) uint8 BGR, a ninth of the pixels of `rectify_cards`.

    The quads must be in `geometry.order_clockwise` order (short side first).
    """
    width, height = WHOLE_SIZE
    views = np.empty((len(quads), height, width, 3), np.uint8)
    for i, quad in enumerate(quads):
        views[i] = cv2.warpPerspective(image, _to_card(quad, WHOLE_SIZE), WHOLE_SIZE, **_WARP)
    return views


def whole_views(cards: np.ndarray) -> np.ndarray:
    """Already rectified READ_SIZE cards shrunk to WHOLE_SIZE, as `whole_views_of` would
    have cut them from the picture: (N, h, w, 3)."""
    views = np.empty((len(cards), WHOLE_SIZE[1], WHOLE_SIZE[0], 3), np.uint8)
    for i, card in enumerate(cards):
        views[i] = cv2.resize(card, WHOLE_SIZE, interpolation=cv2.INTER_LINEAR)
    return views


def turned(cards: np.ndarray) -> np.ndarray:
    """The same cards turned by 180°."""
    return np.ascontiguousarray(cards[:, ::-1, ::-1])
