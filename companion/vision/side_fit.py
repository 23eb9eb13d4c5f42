"""Placing a card's sides on its own edges, at full resolution: the last step of both
finders (`detect.find_cards`, `segment.place_quads`).

A finder's rough quad lies within a pixel or a few of the card's outline, or on the printed
frame inside its margin: `out_to_card_edges` moves each side out past such a frame when an
even outer outline shows on all four sides, and `refine_quads` moves every side onto the
strongest step of the grey image across it, by a weighted line fit per side; the corners are
the intersections of the side lines (exact even with rounded corners).
"""

from __future__ import annotations

import cv2
import numpy as np

# Out to the card's edge past a printed frame: at most OUTWARD_REACH x the card's width,
# an edge where OUTWARD_CONSENSUS of the points along the side agree.
OUTWARD_REACH = 0.09
OUTWARD_CONSENSUS = 0.6
# Points sampled along each side when refining it at full resolution.
SAMPLES_PER_SIDE = 16
NEXT = np.array([1, 2, 3, 0])  # corner k + 1: side k runs from corner k to corner k + 1
_PREVIOUS = np.array([3, 0, 1, 2])
_OUT_ALONG = np.linspace(0.2, 0.8, 12, dtype=np.float32)
_OFFSETS = np.arange(-1.0, 41.0, 1.0, dtype=np.float32)  # full-resolution pixels
_REMAP_ROWS = 32_000


def out_to_card_edges(grey: np.ndarray, quads: np.ndarray, step: float) -> np.ndarray:
    """Move each side out to the card's own edge when it stopped at a printed frame.

    Animal faces have a frame inside a plain margin, many backs a pattern inside one;
    where the margin barely differs from the table, or the outline merged with a
    neighbour's, the frame is what the contours found. Walking out from each side one
    pixel at a time, a card's edge is the outermost step that holds all along the side
    within `OUTWARD_REACH` of the card's width. A margin shows on all four sides at
    about the same distance, which a shadow (one or two sides) never does; a quad
    without such an even outer outline stays as it is.
    """
    starts = quads
    vectors, lengths, directions, normals = sides_outward(quads)
    short = np.minimum(lengths[:, 0] + lengths[:, 2], lengths[:, 1] + lengths[:, 3])[:, 0] / 2
    reach = np.clip(OUTWARD_REACH * short, 3.0, _OFFSETS[-1])  # (M,)
    points = starts[:, :, None, :] + _OUT_ALONG[None, None, :, None] * vectors[:, :, None, :]
    values = sample_across(grey, points, normals, _OFFSETS).astype(np.float32)  # (M, 4, S, O)
    # Steps over two pixels, outward; one sign must hold along the side.
    steps = values[..., 2:] - values[..., :-2]  # (M, 4, S, O - 2)
    sign = np.sign(steps.sum(axis=2, keepdims=True))
    consensus = ((steps * sign) >= step).mean(axis=2)  # (M, 4, O - 2)
    middle = _OFFSETS[1:-1]  # the offset each two-pixel step is centred on
    within = middle[None, :] <= reach[:, None]  # (M, O - 2)
    edge = consensus >= OUTWARD_CONSENSUS
    near = edge.copy()  # an edge within a pixel of each offset
    near[..., 1:] |= edge[..., :-1]
    near[..., :-1] |= edge[..., 1:]
    # A margin runs all around a card, evenly; a shadow falls on one or two sides only,
    # and the grain of a table does not line up with all four sides at once.
    common = near.all(axis=1) & within & (middle >= 2.0)[None, :]  # (M, O - 2)
    if not common.any():
        return quads
    reached = np.where(
        common.any(axis=1), middle[common.shape[1] - 1 - common[:, ::-1].argmax(axis=1)], 0.0
    )
    shifts = np.repeat(reached[:, None], 4, axis=1).astype(np.float32)
    moved = starts + shifts[..., None] * normals
    corners = intersections(moved + vectors / 2, directions)
    return np.where(np.isfinite(corners), corners, quads).astype(np.float32)


def sides_outward(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each side k of (N, 4, 2) quads (corner k to corner k + 1): its vector, length
    (N, 4, 1), unit direction, and unit normal pointing out of the quad, whichever way
    round its corners run."""
    vectors = quads[:, NEXT] - quads
    lengths = np.sqrt((vectors**2).sum(axis=2, keepdims=True))
    directions = vectors / np.maximum(lengths, 1e-6)
    normals = np.stack([directions[..., 1], -directions[..., 0]], axis=-1)
    centre = quads.mean(axis=1, keepdims=True)
    outward = np.sign(((quads + vectors / 2 - centre) * normals).sum(axis=2, keepdims=True))
    return vectors, lengths, directions, normals * np.where(outward == 0, 1.0, outward)


def refine_quads(grey: np.ndarray, quads: np.ndarray, search: float) -> np.ndarray:
    """Move every side onto the strongest nearby step of `grey`; re-intersect the sides.

    All cards and sides at once: one `remap` samples a short profile across each side at
    a few points along it, the peak of each profile's step is a point of the true edge,
    and a weighted line fit per side drops the points that hit print or a neighbour.
    `quads` is (N, 4, 2) in full-resolution pixels; a side that finds no clear step
    keeps its rough position.
    """
    starts = quads
    ends = quads[:, NEXT]
    vectors = ends - starts  # (N, 4, 2)
    lengths = np.linalg.norm(vectors, axis=2, keepdims=True)
    directions = vectors / np.maximum(lengths, 1e-6)
    normals = np.stack([-directions[..., 1], directions[..., 0]], axis=-1)
    along = np.linspace(0.15, 0.85, SAMPLES_PER_SIDE, dtype=np.float32)
    offsets = np.arange(-search, search + 1.0, 1.0, dtype=np.float32)
    # base: (N, 4, S, 2); profile: (N * 4 * S, O)
    base = starts[:, :, None, :] + along[None, None, :, None] * vectors[:, :, None, :]
    profile = sample_across(grey, base, normals, offsets).astype(np.float32)
    profile = profile.reshape(-1, len(offsets))
    step = np.abs(np.diff(profile, axis=1))  # (N*4*S, O-1)
    rows = np.arange(len(step))
    # The rough side is already within a pixel or two of the card's edge: favour steps
    # near it, so the printed frame just inside a card does not pull the side inwards.
    middle = offsets[:-1] + 0.5
    best = (step * np.exp(-0.5 * (middle / (0.5 * search)) ** 2)).argmax(axis=1)
    peak = step[rows, best]
    left = step[rows, np.maximum(best - 1, 0)]
    right = step[rows, np.minimum(best + 1, step.shape[1] - 1)]
    curvature = left - 2 * peak + right
    safe = np.where(np.abs(curvature) > 1e-6, curvature, -1.0)
    shift = np.clip(np.where(np.abs(curvature) > 1e-6, 0.5 * (left - right) / safe, 0.0), -0.5, 0.5)
    position = (offsets[0] + best + 0.5 + shift).reshape(base.shape[:3])
    points = base + position[..., None] * normals[:, :, None, :]
    strength = peak.reshape(base.shape[:3])
    median = _median(strength)
    weights = (strength >= np.maximum(8.0, 0.35 * median)).astype(np.float32)
    for _ in range(2):
        centre, direction = _weighted_lines(points, weights)
        normal = np.stack([-direction[..., 1], direction[..., 0]], axis=-1)
        residual = np.abs(((points - centre[:, :, None, :]) * normal[:, :, None, :]).sum(-1))
        typical = _median(np.where(weights > 0, residual, np.nan))
        typical = np.nan_to_num(typical, nan=0.0)
        weights = weights * (residual <= np.maximum(1.0, 2.0 * typical))
    usable = weights.sum(axis=2) >= 4  # (N, 4)
    centre = np.where(usable[..., None], centre, base.mean(axis=2))
    direction = np.where(usable[..., None], direction, directions)
    corners = intersections(centre, direction)  # corner k: sides k-1 and k
    moved = np.abs(corners - quads).max(axis=(1, 2))
    # A side that jumped far away locked on something else: keep the rough quad.
    bad = ~np.isfinite(corners).all(axis=(1, 2)) | (moved > 3 * search)
    corners[bad] = quads[bad]
    return corners.astype(np.float32)


def sample(image: np.ndarray, points: np.ndarray, interpolation: int = cv2.INTER_LINEAR):
    """`image` at (rows, columns, 2) float32 points, edge pixels repeated outside."""
    return _sample_xy(image, points[..., 0], points[..., 1], interpolation)


def _sample_xy(
    image: np.ndarray, xs: np.ndarray, ys: np.ndarray, interpolation: int = cv2.INTER_LINEAR
) -> np.ndarray:
    """`image` at (rows, columns) float32 x and y coordinates, edge pixels repeated outside.

    cv2.remap takes maps of fewer than 32,767 rows; a frame with hundreds of candidate
    quads asks for more, so the rows go in chunks.
    """
    cuts = range(_REMAP_ROWS, len(xs), _REMAP_ROWS)
    chunks = [
        cv2.remap(image, x, y, interpolation, borderMode=cv2.BORDER_REPLICATE)
        for x, y in zip(np.split(xs, cuts), np.split(ys, cuts), strict=True)
    ]
    return chunks[0] if len(chunks) == 1 else np.concatenate(chunks)


def sample_across(
    image: np.ndarray, points: np.ndarray, normals: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """`image` at each (N, 4, S, 2) point of each side moved by each of `offsets` along
    its side's (N, 4, 2) normal: (N, 4, S, O) profiles across the sides ((N, 4, S, O, C)
    for a picture of C channels).

    The x and y maps are built apart: the same sums as one (..., O, 2) grid, without the
    cost of broadcasting over its last axis of two and of splitting it again for remap.
    """
    xs, ys = (
        (points[..., k, None] + offsets * normals[:, :, None, k, None]).astype(np.float32)
        for k in (0, 1)
    )
    rows = (-1, len(offsets))
    samples = _sample_xy(image, xs.reshape(rows), ys.reshape(rows))
    return samples.reshape(xs.shape + image.shape[2:])


def _median(values: np.ndarray) -> np.ndarray:
    """`np.median(values, axis=-1, keepdims=True)`, NaN where a value is NaN as there, by
    one sort: on a few values per side np.median's own bookkeeping costs several times
    more."""
    ordered = np.sort(values, axis=-1)
    count = ordered.shape[-1]
    low, high = (count - 1) // 2, count // 2
    middle = (ordered[..., low : low + 1] + ordered[..., high : high + 1]) / 2
    return np.where(np.isnan(ordered[..., -1:]), ordered[..., -1:], middle)


def _weighted_lines(points: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total least squares lines: (N, 4, S, 2) points, (N, 4, S) weights -> centre, dir."""
    total = np.maximum(weights.sum(axis=2, keepdims=True), 1e-6)
    centre = (points * weights[..., None]).sum(axis=2) / total
    d = points - centre[:, :, None, :]
    sxx = (weights * d[..., 0] ** 2).sum(axis=2)
    syy = (weights * d[..., 1] ** 2).sum(axis=2)
    sxy = (weights * d[..., 0] * d[..., 1]).sum(axis=2)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    return centre, np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def intersections(centre: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Corner k of each quad: where side k - 1 meets side k (NaN when parallel)."""
    pa, da = centre[:, _PREVIOUS], direction[:, _PREVIOUS]
    pb, db = centre, direction
    cross = da[..., 0] * db[..., 1] - da[..., 1] * db[..., 0]
    delta = pb - pa
    t = (delta[..., 0] * db[..., 1] - delta[..., 1] * db[..., 0]) / np.where(
        np.abs(cross) > 1e-6, cross, np.nan
    )
    return pa + t[..., None] * da
