"""Backs one corner of which lies under a face read for sure.

A face-down card whose corner a neighbour covers reads a back on its other corner and on
its whole face, and nothing on the covered corner (the neighbour's print or paper): the
three views' geometric mean takes that corner's near-nothing for a veto, so the back read
as no card, or as an unsure face, and was lost (`playing_views.covered_back`). The views
alone cannot tell such a back from a patch of carpet, whose pile a small view reads as a
back's print: on the real photos' train split shrunk into a webcam's frame, quads on the
carpet beside a fanned hand read so (IMG_2638). So such a back stands only where the
frame shows what covers it: the covered corner's patch lies mostly (`UNDER_FACE`) on a
face read for sure. Measured: models/README.md, "Seventy-second stop".
"""

from __future__ import annotations

import numpy as np

from ..corner_index import corner_patches
from ..geometry import quad_cover, quad_iou, quad_long_sides, whole_card_aspects
from ..types import CardReading
from .levels import SAME_CARD, face_read_for_sure, reads_sure
from .reading import FrameReads

# The covered corner's patch lies at least this fraction of its area on a face read for
# sure whose long side is within SAME_SIZE of the back's, and the back has a whole card's
# shape (`geometry.WHOLE_CARD_ASPECT`): one deck's cards lie at one size, while quads on a
# carpet beside a card are of any size and shape.
UNDER_FACE = 0.5
SAME_SIZE = 1.25


def covered_backs(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept`, and a back on each quad read this frame (`frame.known`) that read no card
    for sure, lies clear (`SAME_CARD`) of every card of `kept` read for sure or as a game
    card, and shows a back one corner of which lies under a face of `kept` read for sure
    (`CardReader.covered_backs`, `UNDER_FACE`); of such quads on one card, the surest.
    An unsure face of `kept` on such a back gives way to it."""
    if frame.enrolled:
        return kept
    faces = [reading.corners for reading in kept if face_read_for_sure(reading)]
    if not faces:
        return kept
    taken = [r.corners for r in kept if _stands(r)]
    doubtful = [
        reading.corners
        for reading in frame.known.values()
        if reading.face == "up" and reading.rank is None and not reads_sure(reading)
    ]
    if not doubtful:
        return kept
    # Read only quads of a card's shape a corner of which lies under a face of their size,
    # clear of the cards read: a frame in doubt has read hundreds of quads, most of them
    # far from any face (their patches' and the faces' bounding boxes settle that).
    quads, face_quads = np.stack(doubtful), np.stack(faces)
    ratio = quad_long_sides(quads)[:, None] / quad_long_sides(face_quads)[None, :]
    near = (ratio >= 1 / SAME_SIZE) & (ratio <= SAME_SIZE) & whole_card_aspects(quads)[:, None]
    patches = np.stack([corner_patches(quads, corner) for corner in (0, 1)], axis=1)
    near = near[:, None, :] & _boxes_meet(patches, face_quads)  # (N, 2, M)
    candidates = [
        (doubtful[i], under)
        for i in np.flatnonzero(near.any(axis=(1, 2)))
        if (under := _under_faces(patches[i], near[i], faces))
        and all(quad_iou(doubtful[i], other) < SAME_CARD for other in taken)
    ]
    if not candidates:
        return kept
    seen = frame.reader.covered_backs(frame.image, [quad for quad, _ in candidates])
    found = [
        (view[0], quad)
        for (quad, under), view in zip(candidates, seen, strict=True)
        if view is not None and view[1] in under
    ]
    backs: list[CardReading] = []
    for confidence, quad in sorted(found, key=lambda item: -item[0]):
        if all(quad_iou(quad, other.corners) < SAME_CARD for other in backs):
            backs.append(CardReading(quad, "down", None, None, "back", confidence))
    if not backs:
        return kept
    return [
        r
        for r in kept
        if _stands(r) or all(quad_iou(r.corners, back.corners) < SAME_CARD for back in backs)
    ] + backs


def _stands(reading: CardReading) -> bool:
    """Whether `reading` stands against a covered back: read for sure, or a game card."""
    return reads_sure(reading) or reading.rank is not None


def _under_faces(patches: np.ndarray, near: np.ndarray, faces: list[np.ndarray]) -> list[int]:
    """The corners (0, 1) whose patch (`patches`: (2, 4, 2)) lies mostly (`UNDER_FACE`) on
    one of `faces` it is `near` ((2, M): of the quad's size, their bounding boxes meeting)."""
    return [
        corner
        for corner in (0, 1)
        if any(
            quad_cover(patches[corner], faces[j]) >= UNDER_FACE
            for j in np.flatnonzero(near[corner])
        )
    ]


def _boxes_meet(patches: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Whether the bounding boxes of (N, 2, 4, 2) patches and of (M, 4, 2) faces meet:
    (N, 2, M)."""
    low, high = patches.min(axis=2), patches.max(axis=2)  # (N, 2, 2)
    face_low, face_high = faces.min(axis=1), faces.max(axis=1)  # (M, 2)
    return (
        (low[:, :, None, :] < face_high[None, None]) & (face_low[None, None] < high[:, :, None, :])
    ).all(axis=3)
