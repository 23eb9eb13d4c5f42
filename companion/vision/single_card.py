"""One card alone in a photo: where enrolling (`decks.card_from_picture`) finds the card it
was given a picture of, or the card laid before the camera (`card_laid`).

Why a finder of its own: the table's finders look for many cards of a webcam frame, each
a small part of it. A photo taken to enroll a card holds one card, often half the picture
long, and the edge finder alone loses it where its outline is weak against the table (a
plain or dark back on a dark cloth: no card found, and the user is told to try again),
or, worse because nothing says so, outlines the printed frame inside a wide white margin
(a back enrolled without its margin is then no longer the back the camera sees).

How: the edge finder's largest card, as before, unless a quad at least `LARGER` times its
area, whose outline holds all round (`outline_holds`), is found by the edge finder on
the photo shrunk (`SMALLER_SIDES`: a big card's outline at a scale the finder was made
for), or by a colour segmentation of the card against the table (`_segmented_quad`:
GrabCut, seeded by the colours unlike the picture's border). Where the edge finder finds
nothing, the largest such quad is the card.

Measured on rendered photos of one card (`companion bench vision --enroll-photos N`, which
renders them): on 60 tuning designs never trained on (tables from 4,100,000, photos from
4,700,000), a back half the picture long outlined right (IoU 0.9 with the truth) 32 -> 52
times (not found 16 -> 5), a back framed as a webcam frames it 43 -> 54, the demo deck's
faces 55 -> 55 of 59; no card on 30 bare tables either way. A card laid before a webcam
(100-250 pixels long) that saw the bare table first (`card_laid`): backs 55 of 60 right
and faces 53 of 60 (45 and 47 from the one frame alone); the demo deck enrolled so on 12
tuning tables (4,780,000+), each card 120-220 px long at any turn, read 844 of 871 cards
of 60 tables right (the shipped profile, from flat pictures, 857), no wrong game rank.
"""

from __future__ import annotations

import cv2
import numpy as np

from .detect import find_cards
from .geometry import order_clockwise, quad_area, quad_iou
from .side_fit import refine_quads, sample_across, sides_outward

# A quad found by the other ways replaces the edge finder's largest one where it is this
# much larger (the same card outlined at its edge rather than at its printed frame).
LARGER = 1.1
# The edge finder looks again at the photo with its long side this long (pixels).
SMALLER_SIDES = (640, 400)
# The colour segmentation works on the photo at SEGMENT_SIDE pixels long: the band of
# BORDER_BAND of that all round is the table (the card lies whole inside the picture), and
# its colours, in BORDER_COLOURS clusters, are what the card is told apart from.
SEGMENT_SIDE = 320
BORDER_BAND = 0.03
BORDER_COLOURS = 6
GRABCUT_ROUNDS = 4
# An outline holds where, on OUTLINE_SHARE of the points along every side, the colour
# (Lab) steps across it by OUTLINE_STEP or more, and by OUTLINE_CONTRAST times the step
# the table shows OUTLINE_AWAY pixels further out: a glare spot or a gingham's stripe
# that the segmentation joined to the card runs a side across the table, which steps no
# more there than beside it.
OUTLINE_STEP = 5.0
OUTLINE_CONTRAST = 2.0
OUTLINE_AWAY = 10.0
OUTLINE_SHARE = 0.6
_ALONG = np.linspace(0.1, 0.9, 24, dtype=np.float32)
# A card laid before the camera (`card_laid`): a pixel changed where a channel moved by
# LAID_LEVEL grey levels (blurred), unless the table only darkened alike in every channel,
# its channels' ratios to before spreading by under SHADOW_SPREAD (the card's shadow); the
# changed part must cover LAID_AREA of the frame (a 60-pixel card covers 0.0028 of
# 1280x720); the card is looked for in the frame around it LAID_CONTEXT of its length
# wider on every side, and kept where it overlaps the changed part by LAID_AGREES.
LAID_LEVEL = 8.0
SHADOW_SPREAD = 0.08
LAID_AREA = 0.002
LAID_CONTEXT = 0.4
LAID_AGREES = 0.7


def card_in_photo(image: np.ndarray) -> np.ndarray | None:
    """The corners of the one card a BGR photo shows (clockwise, short side first), or
    None where no card is found."""
    edge_found = find_cards(image) or find_cards(image, any_plain=True)
    first = max(edge_found, key=quad_area) if edge_found else None
    others = _smaller_scale_quads(image)
    segmented = _segmented_quad(image)
    if segmented is not None:
        others.append(segmented)
    best = None
    if others:  # the whole photo blurred and in Lab only where there is a quad to test
        lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2Lab)
        holding = [quad for quad in others if outline_holds(lab, quad)]
        best = max(holding, key=quad_area) if holding else None
    if first is None or (best is not None and quad_area(best) >= LARGER * quad_area(first)):
        return best
    return first


def outline_holds(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether a quad's outline is a card's against the table all round (`OUTLINE_STEP`
    and what follows), in a Lab picture."""
    vectors, _, _, normals = sides_outward(quad[None].astype(np.float32))
    points = quad[None, :, None, :] + _ALONG[None, None, :, None] * vectors[:, :, None, :]
    away = OUTLINE_AWAY
    offsets = np.float32([-4, -3, 3, 4, away + 3, away + 4, away + 10, away + 11])
    samples = sample_across(lab, points.astype(np.float32), normals, offsets)[0]
    pairs = samples.astype(np.float32).reshape(4, len(_ALONG), 4, 2, 3).mean(axis=3)
    inside, outside, beyond, further = (pairs[:, :, k] for k in range(4))
    step = np.linalg.norm(inside - outside, axis=-1)  # (4 sides, points)
    table = np.linalg.norm(beyond - further, axis=-1)
    holds = (step >= OUTLINE_STEP) & (step >= OUTLINE_CONTRAST * table)
    return bool(holds.mean(axis=1).min() >= OUTLINE_SHARE)


def card_laid(frame: np.ndarray, empty: np.ndarray) -> np.ndarray | None:
    """The corners of the one card laid on the table between two BGR frames of a camera
    that did not move: `empty` (the table bare) and `frame` (clockwise, short side
    first), or None where nothing card-sized changed.

    What changed is where the card lies, however busy the cloth: the pixels whose colour
    moved (`LAID_LEVEL`, or 3 times the frame's median change), once the frame's
    exposure is brought back to the bare table's (the median ratio of each channel), less
    the card's shadow
    (the table darkened alike in every channel: `SHADOW_SPREAD`), their largest part
    (`LAID_AREA` of the frame at least) outlined by four corners. The card is then found
    as in a photo (`card_in_photo`) in the part of the frame around it (`LAID_CONTEXT`),
    where that outline lies on the changed part (IoU `LAID_AGREES`); else that part's
    outline, placed on the frame's edges, stands."""
    now, before = (cv2.GaussianBlur(f, (0, 0), 1.5).astype(np.float32) for f in (frame, empty))
    # a webcam sets its exposure anew when a white card comes in: the table, most of the
    # picture, tells the gain of each channel
    now /= np.median(((now + 1) / (before + 1))[::4, ::4].reshape(-1, 3), axis=0)
    change = np.abs(now - before).max(axis=2)
    changed = change > max(LAID_LEVEL, 3 * float(np.median(change)))
    ratio = (now + 1) / (before + 1)
    lightest, darkest = ratio.max(axis=2), ratio.min(axis=2)
    shadow = (lightest < 0.97) & (lightest - darkest < SHADOW_SPREAD)
    if np.count_nonzero(changed & ~shadow) > 0.5 * np.count_nonzero(changed):
        changed &= ~shadow  # else the card itself is a darker grey than the table
    mask = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    part = _largest_part(mask)
    if part is None or np.count_nonzero(part) < LAID_AREA * part.size:
        return None
    outlines, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    corners = _four_corners(cv2.convexHull(max(outlines, key=cv2.contourArea)))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    rough = order_clockwise(refine_quads(grey, corners[None], 3.0)[0])
    low, high = rough.min(axis=0), rough.max(axis=0)
    context = LAID_CONTEXT * float((high - low).max())
    height, width = frame.shape[:2]
    x0, y0 = int(max(0, low[0] - context)), int(max(0, low[1] - context))
    x1, y1 = int(min(width, high[0] + context)), int(min(height, high[1] + context))
    found = card_in_photo(np.ascontiguousarray(frame[y0:y1, x0:x1]))
    if found is None:
        return rough
    found = found + np.float32([x0, y0])
    return found if quad_iou(found, rough) >= LAID_AGREES else rough


def _smaller_scale_quads(image: np.ndarray) -> list[np.ndarray]:
    """The edge finder's quads (print inside or not) in the photo shrunk to each of
    SMALLER_SIDES, in the photo's pixels."""
    height, width = image.shape[:2]
    quads = []
    for side in SMALLER_SIDES:
        scale = side / max(height, width)
        if scale >= 1.0:
            continue
        size = (round(width * scale), round(height * scale))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        for any_plain in (False, True):
            quads += [quad / scale for quad in find_cards(small, any_plain=any_plain)]
    return quads


def _segmented_quad(image: np.ndarray) -> np.ndarray | None:
    """The card as the part of the photo whose colours are not the table's: the pixels
    most unlike the border's colours (Otsu's threshold) seed GrabCut, the largest part
    it keeps is outlined by four corners and its sides placed on the card's edges."""
    height, width = image.shape[:2]
    scale = min(1.0, SEGMENT_SIDE / max(height, width))
    small = image.copy()
    if scale < 1.0:
        size = (round(width * scale), round(height * scale))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    band = max(2, round(BORDER_BAND * max(small.shape[:2])))
    unlike = _unlike_border(small, band)
    level = np.clip(unlike * (255 / max(float(unlike.max()), 1.0)), 0, 255).astype(np.uint8)
    _, seed = cv2.threshold(level, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    seed = _largest_part(seed)
    if seed is None:
        return None
    kernel = np.ones((9, 9), np.uint8)
    mask = np.full(small.shape[:2], cv2.GC_PR_BGD, np.uint8)
    mask[cv2.dilate(seed, kernel) > 0] = cv2.GC_PR_FGD
    mask[cv2.erode(seed, kernel) > 0] = cv2.GC_FGD
    mask[:band], mask[-band:], mask[:, :band], mask[:, -band:] = (cv2.GC_BGD,) * 4
    card_side = (mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)
    if card_side.all() or not card_side.any():
        return None  # a picture too small to hold a card and a table
    models = np.zeros((1, 65)), np.zeros((1, 65))
    cv2.grabCut(small, mask, None, *models, GRABCUT_ROUNDS, cv2.GC_INIT_WITH_MASK)
    card = _largest_part(((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8))
    if card is None:
        return None
    outlines, _ = cv2.findContours(card, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    corners = _four_corners(cv2.convexHull(max(outlines, key=cv2.contourArea)))
    quad = ((corners + 0.5) / scale - 0.5)[None].astype(np.float32)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    quad = refine_quads(grey, quad, max(3.0, 0.015 * max(height, width)))
    return order_clockwise(refine_quads(grey, quad, 2.0)[0])


def _unlike_border(small: np.ndarray, band: int) -> np.ndarray:
    """Per pixel of a blurred copy, the Lab distance to the nearest of BORDER_COLOURS
    colours of the picture's border (k-means): how unlike the table it is."""
    blurred = cv2.GaussianBlur(small, (0, 0), 0.01 * max(small.shape[:2]) + 0.5)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2Lab).astype(np.float32)
    border = np.concatenate(
        [part.reshape(-1, 3) for part in (lab[:band], lab[-band:], lab[:, :band], lab[:, -band:])]
    )
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)  # k-means++ draws its first centres: the same photo, the same card
    _, _, centres = cv2.kmeans(border, BORDER_COLOURS, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    distances = [np.linalg.norm(lab - centre, axis=-1) for centre in centres]
    return np.minimum.reduce(distances)


def _largest_part(mask: np.ndarray) -> np.ndarray | None:
    """The largest 4-connected part of a uint8 0/1 mask, as such a mask; None if empty."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if count <= 1:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == largest).astype(np.uint8)


def _four_corners(hull: np.ndarray) -> np.ndarray:
    """Four corners of a convex outline: its polygon simplified until four remain (a
    card's rounded corners cut), else its minimum-area rectangle; (4, 2) float32."""
    perimeter = cv2.arcLength(hull, True)
    for tolerance in np.linspace(0.01, 0.1, 19):
        polygon = cv2.approxPolyDP(hull, tolerance * perimeter, True)
        if len(polygon) == 4:
            return polygon.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
