"""Quadrilateral helpers shared by the card finder and the card reader.

A card is handed from `detect` to `read` as four image points. Both sides must agree on
their order, so it lives here: clockwise on screen (image y grows downwards), starting at
a corner whose first edge is a SHORT side. Rectifying with that order always gives a
portrait card, upright or upside down; the reader resolves the 180° turn itself because
cards face their players and half of them lie upside down to the camera anyway.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

# Width x height of a rectified card when the caller has no preference: 5:7 (poker).
DEFAULT_CARD_SIZE: tuple[int, int] = (100, 140)
# Long over short side of a card of the 5:7 decks the game is played with.
CARD_ASPECT = 1.4
# Long over short side of a whole card as a camera sees it: 1.4 straight down, from about
# 1.15 to 1.7 on a table seen up to 35 degrees from straight down.
WHOLE_CARD_ASPECT = (1.15, 1.75)
_NEXT_CORNER = [1, 2, 3, 0]  # corner k + 1: side k runs from corner k to corner k + 1


def as_quad(points: np.ndarray | list) -> np.ndarray:
    """Return `points` as a (4, 2) float32 array, or say what was expected."""
    quad = np.asarray(points, dtype=np.float32)
    if quad.shape != (4, 2):
        raise ValueError(f"expected 4 points as a (4, 2) array, got shape {quad.shape}")
    # count_nonzero: half the cost of .all(), and every quad of a frame passes here
    if np.count_nonzero(np.isfinite(quad)) != quad.size:
        raise ValueError("expected finite corner coordinates, got NaN or infinity")
    return quad


def order_clockwise(points: np.ndarray | list) -> np.ndarray:
    """Order four corners clockwise on screen, the first edge being a short side.

    Of the two short sides, the one nearer the top of the image comes first, read from
    its left end, so an upright portrait card comes out as top-left, top-right,
    bottom-right, bottom-left (the order `CardReading.corners` documents).
    """
    # Plain Python on four points: every card of every frame passes here, twice, and
    # numpy's per-call overhead on 4x2 arrays cost more than the arithmetic.
    corners = as_quad(points).tolist()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    cx, cy = (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4
    # In image coordinates (y down) increasing atan2 angle runs clockwise on screen.
    corners.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    p0, p1, p2, p3 = corners
    # Edge i joins corner i and i+1; opposite edges are (0, 2) and (1, 3).
    sides_02 = math.dist(p0, p1) + math.dist(p2, p3)
    a, b = (0, 2) if sides_02 <= math.dist(p1, p2) + math.dist(p3, p0) else (1, 3)
    # Of the two short edges, start at the one whose midpoint is higher in the image.
    start = a if corners[a][1] + corners[a + 1][1] <= corners[b][1] + corners[(b + 1) % 4][1] else b
    return np.array(corners[start:] + corners[:start], np.float32)


def rectify(
    image: np.ndarray,
    corners: np.ndarray | list,
    size: tuple[int, int] = DEFAULT_CARD_SIZE,
) -> np.ndarray:
    """Warp the card at `corners` to a `size` = (width, height) portrait image.

    `corners` are used in the given order (corner 0 goes to the top-left of the output,
    then clockwise), so pass `order_clockwise` output to get a portrait card.
    """
    width, height = size
    if width <= 0 or height <= 0:
        raise ValueError(f"expected a positive (width, height) size, got {size}")
    quad = as_quad(corners)
    target = np.array(
        [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], dtype=np.float32
    )
    matrix = cv2.getPerspectiveTransform(quad, target)
    return cv2.warpPerspective(
        image, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def quad_area(quad: np.ndarray) -> float:
    """Area in square pixels (shoelace formula; independent of the orientation)."""
    return _shoelace(as_quad(quad).tolist())


def _shoelace(points: list[list[float]]) -> float:
    # Plain Python on four points, for the same reason as order_clockwise.
    twice = sum(
        points[i][0] * points[(i + 1) % 4][1] - points[(i + 1) % 4][0] * points[i][1]
        for i in range(4)
    )
    return abs(twice) / 2


def quad_sides(quad: np.ndarray) -> np.ndarray:
    """The four side lengths, side i joining corner i and corner i + 1."""
    q = as_quad(quad)
    return np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)


def quad_extent(quad: np.ndarray) -> tuple[float, float]:
    """The mean length of sides 0 and 2, and that of sides 1 and 3: how far apart sides 1
    and 3 lie, and sides 0 and 2."""
    sides = quad_sides(quad)
    return float((sides[0] + sides[2]) / 2), float((sides[1] + sides[3]) / 2)


def quad_aspect(quad: np.ndarray) -> float:
    """Long over short side, each averaged over the two opposite sides (>= 1)."""
    a, b = quad_extent(quad)
    short = min(a, b)
    return float(max(a, b) / short) if short > 0 else float("inf")


def quad_long_side(quad: np.ndarray) -> float:
    """The card's length in pixels: the mean of the two long sides."""
    return max(quad_extent(quad))


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """(N,) `quad_area` of (N, 4, 2) quads in order around them, all at once: the checks
    run on every frame's readings (`fusion.merged_backs`) ask it of every card."""
    x, y = quads[..., 0], quads[..., 1]
    return np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)) / 2


def quad_extents(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`quad_extent` of (N, 4, 2) quads, all at once: (N,) and (N,)."""
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    return (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2


def quad_long_sides(quads: np.ndarray) -> np.ndarray:
    """(N,) `quad_long_side` of (N, 4, 2) quads, all at once: the checks run on every
    frame's readings (`fusion.back_halves`) ask it of every card."""
    return np.maximum(*quad_extents(quads))


def whole_card_aspects(quads: np.ndarray) -> np.ndarray:
    """(N,) whether each of (N, 4, 2) quads has a whole card's aspect (`WHOLE_CARD_ASPECT`,
    long over short side as `quad_aspect` measures it), not that of the part in sight of a
    card lying under its neighbour; all at once, as every frame asks it of every card
    (`fusion.framed_faces`)."""
    across, along = quad_extents(quads)
    long, short = np.maximum(across, along), np.minimum(across, along)
    aspect = long.astype(np.float64) / np.where(short > 0, short, np.nan)
    return (aspect >= WHOLE_CARD_ASPECT[0]) & (aspect <= WHOLE_CARD_ASPECT[1])


def quad_center(quad: np.ndarray) -> tuple[float, float]:
    """The mean of the four corners, as (x, y)."""
    c = as_quad(quad).mean(axis=0)
    return float(c[0]), float(c[1])


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (0 when they do not overlap)."""
    inter, area_a, area_b = _overlap(a, b)
    union = area_a + area_b - inter
    return float(inter / union) if union > 0 else 0.0


def quad_cover(a: np.ndarray, b: np.ndarray) -> float:
    """The fraction of convex quad `a`'s area that lies inside convex quad `b`."""
    inter, area_a, _ = _overlap(a, b)
    return float(inter / area_a) if area_a > 0 else 0.0


def nearest_card(quad: np.ndarray, cards: Sequence[np.ndarray]) -> np.ndarray | None:
    """The one of `cards` whose centre lies nearest `quad`'s (None where there is none):
    the size a card has there, one deck's cards lying at one size."""
    centre = quad.mean(axis=0)
    return min(cards, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)), default=None)


def wider_than_nearest(quad: np.ndarray, cards: Sequence[np.ndarray], times: float) -> bool:
    """Whether `quad`'s short side is `times` that of the nearest of `cards` or more
    (False where there is none): a quad over a card and part of its neighbour."""
    nearest = nearest_card(quad, cards)
    return nearest is not None and min(quad_extent(quad)) >= times * min(quad_extent(nearest))


def shorter_than_nearest(quad: np.ndarray, cards: Sequence[np.ndarray], times: float) -> bool:
    """Whether `quad`'s long side is under `times` that of the nearest of `cards` (False
    where there is none): a quad over part of a card, not a whole one of the same deck."""
    nearest = nearest_card(quad, cards)
    return nearest is not None and max(quad_extent(quad)) < times * max(quad_extent(nearest))


def _overlap(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """The area two convex quads share, and each one's area; all three 0 where their
    bounding boxes do not meet (then nothing is shared)."""
    qa, qb = as_quad(a), as_quad(b)
    # Most pairs of quads in a frame lie apart: their bounding boxes settle it.
    ax0, ay0, ax1, ay1 = _box(qa.tolist())
    bx0, by0, bx1, by1 = _box(qb.tolist())
    if ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0:
        return 0.0, 0.0, 0.0
    qa, qb = order_clockwise(qa), order_clockwise(qb)
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    return float(inter), _shoelace(qa.tolist()), _shoelace(qb.tolist())


def _box(points: list[list[float]]) -> tuple[float, float, float, float]:
    """The bounding box (x0, y0, x1, y1) of a few points, in plain Python for the same
    reason as order_clockwise."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def scaled_about_centre(quads: np.ndarray, scale: float) -> np.ndarray:
    """`quads` ((4, 2), or (N, 4, 2)) each scaled by `scale` about the mean of its
    corners, float32."""
    centres = quads.mean(axis=-2, keepdims=True)
    return (centres + (quads - centres) * scale).astype(np.float32)


def scaled_from_corner(quad: np.ndarray, scale: float) -> np.ndarray:
    """`quad` (4, 2) scaled by `scale` about its first corner: a card implied by a corner
    index (`corner_index`), larger or smaller with that corner fixed, as the index reader
    reads it at each of its scales and its training cuts it."""
    return quad[0] + (quad - quad[0]) * scale


def side_moved(quad: np.ndarray, side: int, fraction: float) -> np.ndarray:
    """`quad` (4, 2) with its side from corner `side` to the next one moved towards the
    opposite side by `fraction` of the distance between them (away from it where
    negative); the other side stays where it was."""
    q = as_quad(quad)
    a, b = side % 4, (side + 1) % 4
    moved = q.copy()
    # a's neighbour across the quad is the corner before it, b's the one after it
    moved[a] = q[a] + fraction * (q[(side + 3) % 4] - q[a])
    moved[b] = q[b] + fraction * (q[(side + 2) % 4] - q[b])
    return moved


def card_shaped(quad: np.ndarray, least: float = 0.08) -> list[np.ndarray]:
    """`quad` with one side moved out so that it has a card's aspect (`CARD_ASPECT`): one
    quad per side that must move out by `least` or more of its distance to the opposite
    side for the distance to reach CARD_ASPECT times the other one (`side_moved`). A
    finder that saw part of a card outlines that part; the card goes on past one side."""
    return [
        side_moved(quad, side, 1 - CARD_ASPECT * other / here)
        for side, here, other in _side_distances(quad)
        if CARD_ASPECT * other > (1 + least) * here
    ]


def card_cut(quad: np.ndarray, least: float = 0.15, most: float = 0.55) -> list[np.ndarray]:
    """`quad` with one side moved in so that it has a card's aspect (`CARD_ASPECT`), the
    card lying along or across it: one quad per side and way that moves that side in by
    `least` to `most` of its distance to the opposite side (`side_moved`). A finder that
    outlined a card together with part of its neighbour outlined more than the card: the
    card is the end of that quad away from the neighbour."""
    return [
        side_moved(quad, side, 1 - kept / here)
        for side, here, other in _side_distances(quad)
        for kept in (other * CARD_ASPECT, other / CARD_ASPECT)
        if least <= 1 - kept / here <= most
    ]


def _side_distances(quad: np.ndarray) -> list[tuple[int, float, float]]:
    """(side, here, other) for each side of `quad` that lies apart from its opposite
    side: `here` that distance, `other` the distance between the other two sides (what
    `card_shaped` and `card_cut` set a side's move by)."""
    # the distance from side 0 to side 2 is the mean length of sides 1 and 3
    apart = quad_extent(quad)[::-1]
    spans = [(side, apart[side % 2], apart[1 - side % 2]) for side in range(4)]
    return [(side, here, other) for side, here, other in spans if here > 0]


def even_sides(quads: np.ndarray, most: float) -> np.ndarray:
    """(M,) whether each of `quads` (M, 4, 2) has no side longer than `most` times the
    side opposite (`detect.MAX_OPPOSITE_RATIO` for the edge finder's outlines): a card
    seen under a tilt, not a sliver closed on three sides."""
    sides = np.linalg.norm(quads[:, _NEXT_CORNER] - quads, axis=2)  # (M, 4)
    opposite = sides[:, [2, 3, 0, 1]]
    return (sides <= most * opposite).all(axis=1)


def halves(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of a quad cut from the middle of one long side to the middle of the
    other: two cards of a 5:7 deck lying side by side, touching along a long side, make
    one quad of about 10:7 whose halves are the cards."""
    first, second = side_by_side(quad, 2)
    return first, second


def side_by_side(quad: np.ndarray, count: int) -> list[np.ndarray]:
    """A quad cut across its long sides into `count` equal parts, in order along them:
    `count` cards lying side by side, touching along their long sides, make one quad as
    long as `count` cards are wide (`cards_across`), whose parts are the cards."""
    q = order_clockwise(quad)
    steps = np.linspace(0.0, 1.0, count + 1)
    return [_part_along(q, steps[i], steps[i + 1]) for i in range(count)]


def cards_across(quad: np.ndarray) -> int:
    """How many cards wide a quad is, taking its short side for a card's length: one
    card's own quad counts 2 (its halves are card-shaped too: the reading decides), two
    cards touching along a long side 2, three 3."""
    width, length = quad_extent(order_clockwise(quad))
    return round(length * CARD_ASPECT / max(width, 1e-6))


def fanned_ends(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The two ends of a quad along its long sides, each as long there as a card lying
    across the quad is wide (its short side / `CARD_ASPECT`): two cards of a 5:7 deck
    fanned side by side, overlapping, make one quad whose ends are the cards (touching,
    the ends are the `halves`). None where such ends would leave a gap between them. (A
    quad on one card has such ends too, each about half of it: the reading decides.)"""
    q = order_clockwise(quad)  # q[1] -> q[2] and q[3] -> q[0] are the long sides
    t = _card_share(q)
    if t < 0.5:
        return None
    return (
        np.float32([q[0], q[1], q[1] + t * (q[2] - q[1]), q[0] + t * (q[3] - q[0])]),
        np.float32([q[2] + t * (q[1] - q[2]), q[2], q[3], q[3] + t * (q[0] - q[3])]),
    )


def fanned_three(quad: np.ndarray) -> list[np.ndarray] | None:
    """Three cards of a quad along its long sides, each as long there as a card lying
    across it is wide, its two ends and its middle: three cards laid side by side, each
    overlapping the next a little, make one quad whose three such parts are the cards.
    None where three would leave gaps between them (of more than 5% of the quad's length:
    a measured outline is a little off), or two would not (the quad is no more than two
    cards wide: `fanned_ends`)."""
    q = order_clockwise(quad)
    t = _card_share(q)
    if not 0.3 <= t < 0.5:
        return None
    return [_part_along(q, start, start + t) for start in (0.0, (1 - t) / 2, 1 - t)]


def _part_along(q: np.ndarray, start: float, stop: float) -> np.ndarray:
    """The part of a quad (clockwise, short side first: q[1] -> q[2] and q[0] -> q[3] are
    its long sides) between fractions `start` and `stop` of its length, as float32 corners
    in the same turn: the cards of `side_by_side` and `fanned_three`."""
    along = q[1] + start * (q[2] - q[1]), q[1] + stop * (q[2] - q[1])
    other = q[0] + start * (q[3] - q[0]), q[0] + stop * (q[3] - q[0])
    return np.float32([other[0], along[0], along[1], other[1]])


def _card_share(q: np.ndarray) -> float:
    """How much of a quad's length (clockwise, short side first) one card lying across it
    takes: its short side / `CARD_ASPECT` over its long side."""
    width, length = quad_extent(q)
    return width / CARD_ASPECT / max(length, 1e-6)


def quad_part(quad: np.ndarray, span: tuple[float, float, float, float]) -> np.ndarray:
    """The part of `quad` (4, 2) over `span` (a0, b0, a1, b1): fractions of the way from
    corner 0 to corner 1 (a) and from corner 0 to corner 3 (b), the quad's corners
    interpolated bilinearly (a card seen under a tilt is no parallelogram); float32
    corners in the quad's own turn."""
    q = np.asarray(quad, np.float32)
    a0, b0, a1, b1 = span

    def point(a: float, b: float) -> np.ndarray:
        return (1 - b) * ((1 - a) * q[0] + a * q[1]) + b * ((1 - a) * q[3] + a * q[2])

    return np.float32([point(a0, b0), point(a1, b0), point(a1, b1), point(a0, b1)])


def card_axes(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The unit vectors along sides 0 and 3 of a quad's `corners` (a card's axes, as its
    corners run: across and along it), or None where one of those sides has no length."""
    across, along = corners[1] - corners[0], corners[3] - corners[0]
    norms = np.linalg.norm([across, along], axis=1)
    if (norms <= 0).any():
        return None
    return across / norms[0], along / norms[1]


def cards_from_ends(quad: np.ndarray, card: np.ndarray) -> list[np.ndarray]:
    """Four quads of `card`'s size and turn (its corners' order too), each with one end at
    an end of `quad`'s extent along one of `card`'s axes: from either end of that extent
    along the card's length, and from either end along its width. Where `quad` outlines
    only the part of a card in sight (a band between its neighbours, or one end of it
    outlined with a neighbour), the whole card lies at one of them."""
    corners = as_quad(card)
    axes = card_axes(corners)
    if axes is None:
        return []
    u, v = axes
    width, length = quad_extent(corners)
    centre = as_quad(quad).mean(axis=0)
    offsets = as_quad(quad) - centre
    spans_u, spans_v = offsets @ u, offsets @ v
    middles = [v * (spans_v.min() + length / 2), v * (spans_v.max() - length / 2)]
    middles += [u * (spans_u.min() + width / 2), u * (spans_u.max() - width / 2)]
    return [quad_around(centre + m, u, v, (width, length)) for m in middles]


def grown_sides(quad: np.ndarray, by: float) -> np.ndarray:
    """(4, 2) float32: the rectangle on `quad`'s centre and axes (side 0 and side 3) with
    every side `by` pixels further out than `quad`'s own (its mean extents); a quad with
    a side of no length has no axes, and is returned as it is."""
    corners = order_clockwise(quad)
    axes = card_axes(corners)
    if axes is None:
        return corners.astype(np.float32)
    u, v = axes
    width, length = quad_extent(corners)
    return quad_around(corners.mean(axis=0), u, v, (width + 2 * by, length + 2 * by))


def quad_around(
    centre: np.ndarray, u: np.ndarray, v: np.ndarray, size: tuple[float, float]
) -> np.ndarray:
    """(4, 2) float32: the rectangle centred on `centre`, `size[0]` long along the unit
    axis `u` and `size[1]` along `v`, from its corner at -u, -v through +u, -v (as a
    card's corners run where `u` and `v` are its sides 0 and 3)."""
    half_u, half_v = u * size[0] / 2, v * size[1] / 2
    offsets = [-half_u - half_v, half_u - half_v, half_u + half_v, -half_u + half_v]
    return np.float32([centre + offset for offset in offsets])


def axis_turn(quad: np.ndarray, card: np.ndarray) -> float:
    """Degrees (0 to 45) between `quad`'s side 0 and the nearer of `card`'s axes: how far
    the two lie turned apart."""
    a, b = as_quad(quad), as_quad(card)
    (ax, ay), (bx, by) = a[1] - a[0], b[1] - b[0]
    turn = math.degrees(math.atan2(ay, ax) - math.atan2(by, bx)) % 90.0
    return min(turn, 90.0 - turn)


def facing_side(quad: np.ndarray, other: np.ndarray) -> int:
    """The side of `quad` (side k: corner k to k + 1) whose middle lies nearest `other`'s
    centre: the side it turns to it."""
    middles = (quad + np.roll(quad, -1, axis=0)) / 2
    return int(np.argmin(np.linalg.norm(middles - other.mean(axis=0), axis=1)))


def index_points(quad: np.ndarray, across: float, along: float) -> np.ndarray:
    """(2, 2) the point `across` of the width and `along` of the length in from a card's
    own top-left corner (corner 0 of `quad`, clockwise, short side first) and the same
    point from its bottom-right one (corner 2): where its two corner indices lie."""
    q = np.asarray(quad, np.float64)
    return np.array(
        [
            q[0] + across * (q[1] - q[0]) + along * (q[3] - q[0]),
            q[2] + across * (q[3] - q[2]) + along * (q[1] - q[2]),
        ]
    )


def points_in_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each (x, y) of `points` (N, 2), whether it lies inside the convex `quad` or on its
    outline (either winding)."""
    return _inside_quads(points, [quad])[:, 0]


def points_in_any(points: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """For each (x, y) of `points` (N, 2), whether it lies in one of `quads`
    (`points_in_quad`)."""
    return _inside_quads(points, quads).any(axis=1)


def _inside_quads(points: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """(N, Q): whether each of `points` (N, 2) lies inside or on each convex quad of
    `quads`, either winding: all quads at once, as a frame in doubt asks it of hundreds of
    points and quads (a call per quad cost 2% more of such a frame's time, median ratio)."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    corners = np.asarray(quads, np.float64).reshape(-1, 4, 2)  # (Q, 4, 2)
    edges = corners[:, _NEXT_CORNER] - corners
    rel = points[:, None, None, :] - corners[None]  # (N, Q, 4, 2)
    cross = edges[None, ..., 0] * rel[..., 1] - edges[None, ..., 1] * rel[..., 0]
    return (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)


def near_corners(points: np.ndarray, quad: np.ndarray, across: float, along: float) -> np.ndarray:
    """For each (x, y) of `points` (N, 2), whether it lies near a corner of the card `quad`:
    within `across` of its width from a long side and `along` of its length from a short
    side, measured in the card's own plane (the quad mapped onto a unit square, short
    side first, by `order_clockwise`). A card's corner indices lie there."""
    flat = np.asarray(points, np.float32).reshape(-1, 1, 2)
    if not len(flat):
        return np.zeros(0, bool)
    card = order_clockwise(quad).astype(np.float32)
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_card = cv2.getPerspectiveTransform(card, square)
    u, v = cv2.perspectiveTransform(flat, to_card).reshape(-1, 2).T
    return (np.minimum(u, 1 - u) < across) & (np.minimum(v, 1 - v) < along)


def is_convex(quad: np.ndarray) -> bool:
    """True when the four corners, in their order, make a convex quadrilateral."""
    return bool(cv2.isContourConvex(as_quad(quad).reshape(-1, 1, 2)))


def hull_quad(points: np.ndarray, tolerance: float = 0.5) -> np.ndarray | None:
    """Four corners enclosing `points` ((N, 2) or (N, 1, 2)) but for `tolerance`: their
    convex hull, its corners thinned to those that stand out by `tolerance` or more
    (`cv2.approxPolyDP`), then its edges dropped one at a time, each time the one whose
    two neighbours, extended to meet, add the least area; None where fewer than four
    corners remain.

    Why: a card seen by a steeply tilted camera and turned is a parallelogram, not a
    rectangle, and a blob's minimum-area rectangle puts its corners far off the card's.
    """
    hull = cv2.convexHull(np.asarray(points, np.float32).reshape(-1, 1, 2))
    thinned = cv2.approxPolyDP(hull, tolerance, True).reshape(-1, 2)
    corners = [(float(x), float(y)) for x, y in thinned]
    while len(corners) > 4:
        dropped = _cheapest_edge(corners)
        if dropped is None:
            return None
        edge, meet = dropped
        if edge + 1 < len(corners):
            corners[edge : edge + 2] = [meet]
        else:  # the edge from the last corner back to the first
            corners = [meet, *corners[1:edge]]
    if len(corners) < 4:
        return None
    return np.asarray(corners, np.float32)


def _cheapest_edge(
    corners: list[tuple[float, float]],
) -> tuple[int, tuple[float, float]] | None:
    """Of a convex polygon's edges (edge i from corner i to i + 1), the one whose
    neighbours meet beyond it at the least added area, and where they meet (plain floats:
    a few dozen edges, where numpy's per-call cost would dominate)."""
    count = len(corners)
    best: tuple[float, int, tuple[float, float]] | None = None
    for edge in range(count):
        (bx, by), (sx, sy) = corners[edge - 1], corners[edge]
        (ex, ey), (ax, ay) = corners[(edge + 1) % count], corners[(edge + 2) % count]
        ix, iy, ox, oy = sx - bx, sy - by, ax - ex, ay - ey
        cross = ix * oy - iy * ox
        if abs(cross) < 1e-9:
            continue
        reach = ((ex - bx) * oy - (ey - by) * ox) / cross
        if reach < 1.0:  # the neighbours do not meet beyond this edge
            continue
        mx, my = bx + reach * ix, by + reach * iy
        added = abs((ex - sx) * (my - sy) - (ey - sy) * (mx - sx)) / 2
        if best is None or added < best[0]:
            best = (added, edge, (mx, my))
    return None if best is None else (best[1], best[2])


def corner_skew(quad: np.ndarray) -> float:
    """How far, in degrees, the quad's most oblique corner is from a right angle."""
    corners = [(float(x), float(y)) for x, y in as_quad(quad)]
    worst = 0.0
    for k, (x, y) in enumerate(corners):
        (px, py), (nx, ny) = corners[k - 1], corners[(k + 1) % 4]
        cosine = _abs_cosine(px - x, py - y, nx - x, ny - y)
        worst = max(worst, math.degrees(math.asin(cosine)))
    return worst


def opposite_side_angle(quad: np.ndarray) -> float:
    """The larger angle, in degrees, between the quad's two pairs of opposite sides: a card
    seen in perspective keeps them within a few degrees of parallel (at most 6.1 on 300
    rendered tuning tables, cameras tilted up to 35 degrees)."""
    corners = [(float(x), float(y)) for x, y in as_quad(quad)]
    ends = corners[1:] + corners[:1]
    sides = [(bx - ax, by - ay) for (ax, ay), (bx, by) in zip(corners, ends, strict=True)]
    worst = 0.0
    for k in (0, 1):
        cosine = _abs_cosine(*sides[k], *sides[k + 2])
        worst = max(worst, math.degrees(math.acos(cosine)))
    return worst


def _abs_cosine(ax: float, ay: float, bx: float, by: float) -> float:
    """|cos| of the angle between vectors (ax, ay) and (bx, by), at most 1 (plain floats:
    the quads' checks take four vectors, where numpy's per-call cost would dominate)."""
    cosine = (ax * bx + ay * by) / max(math.hypot(ax, ay) * math.hypot(bx, by), 1e-9)
    return min(1.0, abs(cosine))
